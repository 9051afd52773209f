/* Sweeps split over machines: `raidsim run --shard K/N` runs points
 * K, K+N, K+2N, ... and writes DIR/NAME.shard-K-of-N.tsv; `raidsim merge`
 * joins the N shard files into the table one run would have written.
 *
 * A shard file is a TSV of its points (first column `point`, then the
 * table's columns), after "#key<TAB>value" lines that identify the sweep:
 * scenario fingerprint, shard K and N, point count, runs per point
 * (#repeat, only when more than 1), plot settings; between the column
 * line and the rows, "#part<TAB>POINT<TAB>..." lines carry each point's
 * parts for NAME.components.tsv (run/components.h).  With --repeat a shard
 * runs every run of its points and holds their means.  Merge refuses
 * shards of different sweeps (also of a different --repeat), a missing or
 * duplicated shard, and a point missing or present twice. */
#ifndef RS_RUN_SHARD_H
#define RS_RUN_SHARD_H

#include <stdbool.h>
#include <stddef.h>

#include "run/results.h"
#include "run/scenario.h"

/* "NAME.shard-K-of-N" */
void rs_shard_tag(char *buf, size_t n, const char *out_name, unsigned k, unsigned n_shards);

/* Parse "K/N" (0 <= K < N <= 100000).  0 or -1. */
int rs_shard_parse(const char *arg, unsigned *k, unsigned *n);

/* Write the shard file from the rows of its points into stage, then move
 * it with everything else staged (its points' series and request logs)
 * into out_dir as one set (report/out_set.h).  0 or -1 (message printed;
 * out_dir as it was). */
int rs_shard_write(const struct rs_scenario *sc, const struct rs_results_meta *m,
		   char **rows, unsigned k, unsigned n_shards, const char *stage,
		   const char *out_dir, bool quiet);

/* Merge shard files into out_dir (NULL: the first file's folder).
 * 0 ok, 1 runtime failure, 2 bad input (messages printed). */
int rs_shard_merge(char *const *files, size_t nfiles, const char *out_dir, bool plot,
		   bool quiet);

#endif
