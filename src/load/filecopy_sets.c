/* FC-Test file sets.  Sizes in the sources are decimal (MB = 10^6 bytes):
 * for MP3 that is the only reading under which the published count, total
 * and mean agree (270 files x 3.65-3.67 MB = 0.99 GB).
 *
 * What is published, and where:
 *   - ISO: 3 files, 1.6 GB in all (bit-tech, Samsung SpinPoint F3 review,
 *     2009, describing the FC-Test ISO pattern).
 *   - MP3: 270 files, 0.99 GB in all (same bit-tech page); mean file size
 *     3.65 MB (X-bit labs, Seagate Barracuda SATA review, FC-Test: FAT32
 *     page).
 *   - Install, Programs, Windows: X-bit only says they are real folders
 *     (an installation package; Program Files; the Windows folder) and that
 *     Windows and Programs are the small-file sets; we found no published
 *     counts or totals.  The numbers below are our estimates for a 2004-5
 *     PC and are flagged `estimated`.
 * The lognormal shapes are estimates for every set; only the count and the
 * total above are sourced.  Changing any of these numbers changes every
 * FC-Test result, so keep the tests in tests/unit/check_filecopy.c in step. */
#include "load/filecopy_sets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "kernel/assert.h"

#define KB 1000.0
#define MB 1000000.0

static const struct rs_fileset sets[] = {
	/* A software distribution folder: many small setup files (scripts,
	 * DLLs, help) around a few large archives (CABs, data packs). */
	{ "install", 480, 1000000000ull, true, 400000000ull, 2,
	  { { 0.85, 24 * KB, 1.6 }, { 0.15, 8 * MB, 1.0 } },
	  "estimate: ~480 files, 1.0 GB; 85% small (median 24 KB) + 15% large (median 8 MB)" },
	/* CD images: a few files of several hundred MB each. */
	{ "iso", 3, 1600000000ull, false, 800000000ull, 1,
	  { { 1.0, 533 * MB, 0.15 } },
	  "bit-tech FC-Test ISO pattern: 3 files, 1.6 GB" },
	/* Music: hundreds of files of a few MB (about 4 minutes at 128 kbit/s). */
	{ "mp3", 270, 990000000ull, false, 20000000ull, 1,
	  { { 1.0, 3.5 * MB, 0.3 } },
	  "bit-tech FC-Test MP3 pattern: 270 files, 0.99 GB; X-bit: mean 3.65 MB" },
	/* Program Files: thousands of small files with a long tail of DLLs and
	 * data files. */
	{ "programs", 8000, 800000000ull, true, 64000000ull, 1,
	  { { 1.0, 16 * KB, 2.0 } },
	  "estimate: ~8000 files, 0.8 GB (mean 100 KB), lognormal median 16 KB" },
	/* The Windows folder of Windows XP: thousands of small system files,
	 * drivers, fonts, help and a few larger ones. */
	{ "windows", 12000, 1500000000ull, true, 128000000ull, 1,
	  { { 1.0, 20 * KB, 1.9 } },
	  "estimate: ~12000 files, 1.5 GB (mean 125 KB), lognormal median 20 KB" },
};

const char *const rs_fileset_names[] = { "install", "iso", "mp3", "programs", "windows", NULL };

size_t rs_fileset_count(void) { return sizeof(sets) / sizeof(sets[0]); }

const struct rs_fileset *rs_fileset_at(size_t i)
{
	return i < rs_fileset_count() ? &sets[i] : NULL;
}

const struct rs_fileset *rs_fileset_find(const char *name)
{
	for (size_t i = 0; i < rs_fileset_count(); i++)
		if (strcmp(sets[i].name, name) == 0)
			return &sets[i];
	return NULL;
}

void rs_fileset_draw(const struct rs_fileset *fs, gsl_rng *r, size_t n, uint64_t total,
		     uint64_t *sizes)
{
	RS_ASSERT(n > 0 && total >= n);
	/* Called once at build time, so a scratch array is fine here. */
	double *x = malloc(n * sizeof(*x));
	RS_ASSERT(x != NULL);

	/* Each part gets its share of the files exactly (the last takes the
	 * rounding), then the order is shuffled: a real folder lists small
	 * and large files mixed. */
	size_t at = 0;
	for (size_t k = 0; k < fs->nparts; k++) {
		const struct rs_fileset_part *p = &fs->parts[k];
		size_t m = k + 1 == fs->nparts ? n - at : (size_t)llround(p->share * (double)n);
		if (m > n - at)
			m = n - at;
		for (size_t i = 0; i < m; i++) {
			double v = gsl_ran_lognormal(r, log(p->median_bytes), p->sigma);
			x[at + i] = fmin(fmax(v, 1.0), (double)fs->max_file_bytes);
		}
		at += m;
	}
	RS_ASSERT(at == n);
	gsl_ran_shuffle(r, x, n, sizeof(double));

	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	/* One byte each is guaranteed, the rest is shared in proportion;
	 * flooring leaves a remainder smaller than n bytes, which goes to the
	 * largest file where it changes the shape least. */
	double avail = (double)(total - n);
	uint64_t got = 0;
	size_t largest = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t s = 1 + (uint64_t)floor(x[i] / sum * avail);
		sizes[i] = s;
		got += s;
		if (s > sizes[largest])
			largest = i;
	}
	free(x);
	/* Rounding of v / sum * avail can overshoot by a few bytes too. */
	if (got <= total) {
		sizes[largest] += total - got;
	} else {
		RS_ASSERT(sizes[largest] > got - total);
		sizes[largest] -= got - total;
	}
}
