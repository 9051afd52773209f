#ifndef RS_LOAD_FILECOPY_H
#define RS_LOAD_FILECOPY_H

#include <stdint.h>

#include "load/load.h"

/* X-bit labs' FC-Test: create, read or copy one of its file sets on two
 * volumes of the target, the way Windows Explorer of 2004-5 did it.  The
 * measuring window closes when the action is complete. */
extern const struct rs_load_type rs_load_filecopy;

/* Where things are, in 512-byte blocks of the target, and how much file
 * data the action moves. */
struct rs_filecopy_info {
	uint64_t files;
	uint64_t file_bytes;          /* sum of the file sizes */
	uint64_t volume_blk[2];       /* start of volume 1 and volume 2 */
	uint64_t meta_blk[2];         /* metadata zone written: [meta_blk[0], meta_blk[1]) */
	uint64_t src_blk[2];          /* the existing files on volume 1: [start, end) */
	uint64_t dst_blk[2];          /* where the action writes file data: [start, end) */
	uint64_t data_reqs, meta_reqs;        /* requests issued so far */
};
void rs_filecopy_info(const struct rs_load *load, struct rs_filecopy_info *out);

/* File data moved per second of the action, in MB/s (10^6 bytes, as
 * FC-Test reports): file bytes (not I/O bytes: no metadata, no padding of
 * the last cluster) over the window's length.  If `run` or `count` ended
 * the window early, the part of the file data completed by then.  0 until
 * the window has closed. */
double rs_filecopy_file_mb_s(const struct rs_load *load);

#endif
