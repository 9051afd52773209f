/* Repetitions of a point (`raidsim run --repeat N`).
 *
 * Each point runs at N seeds: the scenario's (or the point's, when the
 * seed is swept) seed S, then S+1, ..., S+N-1 (modulo 2^64), whatever
 * --jobs, --shard or --resume are, so run r of a point is exactly the run
 * `--seed S+r` makes.  Its row then holds, for every result column, the
 * mean over the N runs followed by a column NAME_ci95: the half-width of
 * the 95 % confidence interval of that mean (Student t with N-1 degrees of
 * freedom), and a last column `repeats` (N).  The sweep axes are not
 * averaged: they are the same in every run.  The runs' rows are averaged
 * as the formatted text they are saved as, in run order, so a resumed or
 * merged sweep gives the same bytes as one run. */
#ifndef RS_RUN_REPEATS_H
#define RS_RUN_REPEATS_H

#include <stddef.h>

#include "report/table.h"

#define RS_REPEAT_MAX 1000
#define RS_CI95_SUFFIX "_ci95"
#define RS_REPEATS_COL "repeats"

/* Mean of x[0..n) (n >= 1) and the half-width of its 95 % confidence
 * interval; the half-width is 0 for n = 1 and for n equal values.  Both
 * are NaN when any x is. */
void rs_mean_ci95(const double *x, size_t n, double *mean, double *half);

/* The cells of runs[0..n) (each ncells TAB-separated cells, not modified)
 * as one row of t from column col on: mean, ci95 per cell, then n.  A
 * cell that is not a number in every run gives "nan" twice.  0, or -1 when
 * a run's row does not have ncells cells. */
int rs_repeat_row(char *const *runs, size_t n, size_t ncells, struct rs_table *t,
		  size_t row, size_t col);

#endif
