/* A host page cache in front of a device: device type `page_cache` (an
 * operating system's file cache, e.g. the Windows cache manager).
 *
 * Reads: a reader that continues where its last read ended is sequential;
 * the cache then reads ahead of it, read_ahead_factor times its request
 * size rounded up to read_ahead_granularity, one fetch in flight per
 * stream, and serves its next reads from what arrived.  Other reads go to
 * the device as they are.
 *
 * Writes (not FUA) are copied into the cache and complete at once; they
 * stay dirty until a lazy writer writes them behind.  It wakes every
 * lazy_period while anything is dirty and writes lazy_fraction of the
 * dirty bytes, oldest first, in I/Os of at most write_behind_io, with at
 * most lazy_depth in flight.  When a write would take the dirty bytes over
 * dirty_threshold the writer is throttled: it waits, and the lazy writer
 * keeps writing until it fits.  A flush writes every dirty page and then
 * passes down; FUA writes pass through.
 *
 * Simplifications, each a choice: read-ahead follows the block address,
 * not the file (it may run past a file's end into the next one); reads of
 * data still dirty go to the device; clean pages are not kept once read
 * (no re-read hits). */
#ifndef RS_HOST_PAGE_CACHE_H
#define RS_HOST_PAGE_CACHE_H

#include "dev/dev.h"

struct rs_model_path;

extern const struct rs_dev_type rs_dev_page_cache;

/* A page cache in front of `lower`, from a section (inline fields or a
 * `model:` found on `models`, the scenario's model path, or in the default
 * model folders when it is NULL), for a workload that puts one in front of
 * its target.  The cache does not own `lower`: free it with
 * rs_page_cache_unwrap.  NULL with d filled on a bad section. */
struct rs_dev *rs_page_cache_wrap(struct rs_sim *sim, const struct rs_node *section,
				  struct rs_dev *lower, const struct rs_model_path *models,
				  struct rs_diag *d);
void rs_page_cache_unwrap(struct rs_dev *cache);

/* What the cache did so far (for tests and reports). */
struct rs_page_cache_counts {
	uint64_t read_hits;           /* reads served from read-ahead */
	uint64_t read_ahead_ios;      /* fetches issued */
	uint64_t lazy_ios;            /* write-behind I/Os issued */
	uint64_t lazy_passes;         /* lazy writer wake-ups */
	uint64_t throttled;           /* writes that had to wait */
	uint64_t dirty_bytes;         /* dirty now */
	uint64_t max_io_blk;          /* largest write-behind I/O, blocks */
};
void rs_page_cache_counts(const struct rs_dev *dev, struct rs_page_cache_counts *out);

#endif
