/* Running every point of a scenario, in one process or several, and
 * writing the table, JSON, gnuplot script and PNG.  Results are gathered
 * by point index, so the output does not depend on how many processes ran
 * them or in which order they finished.
 *
 * Each finished point is saved at once (run/points.h), so an interrupted
 * sweep can be resumed; the first SIGINT or SIGTERM lets the running
 * points finish and stops, a second one stops at once.  With a shard
 * (K of N), only every N-th point from K runs and the result is a shard
 * file for `raidsim merge` (run/shard.h) instead of the table.  With
 * sc->repeat N > 1 every point runs N times (run/repeats.h): each run is
 * saved on its own, as "point" i * N + r, and the table holds one row of
 * means per point. */
#ifndef RS_RUN_RUNNER_H
#define RS_RUN_RUNNER_H

#include <stdbool.h>

#include "run/scenario.h"

struct rs_run_opts {
	const char *out_dir;
	unsigned jobs;
	bool plot;                    /* render the PNG with gnuplot */
	bool progress;                /* progress line on stderr */
	bool quiet;
	unsigned formats;             /* run/summary.h RS_FMT_*: what to print on stdout */
	bool resume;                  /* keep the points an earlier run saved */
	unsigned shard_k, shard_n;    /* shard_n 0: the whole sweep */
};

/* Exit status of an interrupted run (128 + SIGINT, as a shell reports). */
#define RS_RUN_INTERRUPTED 130

/* 0 ok, 1 runtime failure, 2 bad input (saved points of another
 * scenario), RS_RUN_INTERRUPTED; messages printed. */
int rs_runner_run(const struct rs_scenario *sc, const struct rs_run_opts *o);

/* The metric columns, in table order. */
extern const char *const rs_metric_names[];

#endif
