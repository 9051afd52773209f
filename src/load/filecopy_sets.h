/* The five file sets of X-bit labs' FC-Test (Install, ISO, MP3, Programs,
 * Windows), each as a file count, a total size and a size distribution.
 *
 * X-bit copied real folders from a real PC, so a set is not a formula; we
 * keep what was published (count and total where a source gives them) and
 * a lognormal mixture for the shape.  The draws are rescaled to the total,
 * so every seed gives exactly the documented count and total bytes and
 * only the split between files changes.  Sources and which numbers are our
 * estimates are in filecopy_sets.c, next to each definition. */
#ifndef RS_LOAD_FILECOPY_SETS_H
#define RS_LOAD_FILECOPY_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#define RS_FILESET_MAX_PARTS 2

/* One lognormal component of a set's size distribution. */
struct rs_fileset_part {
	double share;                 /* fraction of the files, 0..1 */
	double median_bytes;          /* median before rescaling to the total */
	double sigma;                 /* standard deviation of ln(size) */
};

struct rs_fileset {
	const char *name;             /* "install", "iso", ... */
	uint64_t files;               /* number of files */
	uint64_t total_bytes;         /* sum of the file sizes */
	bool estimated;               /* count and total are our estimate, not published */
	uint64_t max_file_bytes;      /* draws are clipped here (before rescaling) */
	size_t nparts;
	struct rs_fileset_part parts[RS_FILESET_MAX_PARTS];
	const char *source;           /* one line: where the numbers come from */
};

/* NULL-terminated names in table order, for an enum schema row. */
extern const char *const rs_fileset_names[];

size_t rs_fileset_count(void);
const struct rs_fileset *rs_fileset_at(size_t i);
const struct rs_fileset *rs_fileset_find(const char *name);

/* Draw n file sizes (bytes, each >= 1) from the set's distribution and
 * rescale them so they add up to exactly `total` (>= n).  Deterministic for
 * a given stream state; n may differ from fs->files (a smaller run). */
void rs_fileset_draw(const struct rs_fileset *fs, gsl_rng *r, size_t n, uint64_t total,
		     uint64_t *sizes);

#endif
