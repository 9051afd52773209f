/* IOMeter access specifications: lines of (size, share of requests, read
 * share, random share, alignment), and the named specs the storage press
 * used (Intel's File Server and Web Server, StorageReview's Workstation,
 * the X-bit/iXBT Database and sequential patterns). */
#ifndef RS_LOAD_IOMETER_SPECS_H
#define RS_LOAD_IOMETER_SPECS_H

#include <stddef.h>
#include <stdint.h>

#define RS_SPEC_MAX_LINES 32

struct rs_spec_line {
	uint64_t size_bytes;
	double share;                 /* % of requests */
	double read;                  /* % reads */
	double random;                /* % random (rest sequential) */
	uint64_t align_bytes;         /* 0: align to the transfer size (IOMeter's default) */
};

struct rs_spec {
	const char *name;
	const char *help;
	size_t nlines;
	struct rs_spec_line lines[RS_SPEC_MAX_LINES];
};

const struct rs_spec *rs_spec_find(const char *name);
size_t rs_spec_count(void);
const struct rs_spec *rs_spec_at(size_t i);

#endif
