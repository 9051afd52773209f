/* Running every point of a scenario, in one process or several, and
 * writing the table, JSON, gnuplot script and PNG.  Results are gathered
 * by point index, so the output does not depend on how many processes ran
 * them or in which order they finished. */
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
};

/* 0 ok, 1 runtime failure (message printed). */
int rs_runner_run(const struct rs_scenario *sc, const struct rs_run_opts *o);

/* The metric columns, in table order. */
extern const char *const rs_metric_names[];

#endif
