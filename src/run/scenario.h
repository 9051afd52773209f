/* A scenario file: the system under test, the workload, the sweep and the
 * output, read once and expanded into points.  Each point is the base tree
 * with the sweep's values grafted in; the point is then bound and built
 * like any single run. */
#ifndef RS_RUN_SCENARIO_H
#define RS_RUN_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "config/sweep.h"
#include "dev/dev.h"
#include "load/load.h"

/* Distinct device columns a scenario can have: every name the device
 * types report (dev/dev.h RS_DEV_EXTRAS each), with room to spare. */
#define RS_SCENARIO_DEV_COLS 32

struct rs_scenario {
	const char *path;
	char *name;                   /* file name without directory and .yaml */
	struct rs_node *root;         /* with --set applied, sweep axes pinned by --set removed */
	struct rs_sweep sweep;
	size_t npoints;
	unsigned repeat;              /* runs per point, seeds S..S+repeat-1 (run/repeats.h) */
	const struct rs_model_path *models;
	/* output: */
	char *out_name;               /* base name of table, json, script and png */
	char *plot_x, *plot_series, *plot_y;
	int plot_logx;                /* -1: decide from the data */
	bool request_log;             /* write NAME.requests.<point>.csv */
	/* The workload's own columns, from point 0; figures_only: they
	 * replace the generic ones. */
	char *figure_cols[RS_LOAD_MAX_FIGURES];
	size_t nfigure_cols;
	bool figures_only;
	rs_time_t series_ns;          /* output.timeseries: interval, 0 = none */
	/* The device's own columns (rs_dev_report extras): the union over all
	 * points, in the order they first appear, so a sweep whose first
	 * point has no member faults still gets the rebuild columns. */
	char *dev_cols[RS_SCENARIO_DEV_COLS];
	size_t ndev_cols;
};

struct rs_assignment {
	char *path;
	struct rs_node *value;
};

/* Load, apply assignments (--set, --seed), parse the sweep, and check every
 * point builds.  Returns 0 or -1 with d set (nothing written anywhere). */
int rs_scenario_load(struct rs_scenario *sc, const char *path,
		     const struct rs_assignment *sets, size_t nsets,
		     const struct rs_model_path *models, struct rs_diag *d);
/* The same for a sweep whose every point runs `repeat` times (1 to
 * RS_REPEAT_MAX, --repeat): the runs, points times repeat, count against
 * the sweep_points cap, and the table's columns (which output.x, series
 * and y may name) are those of run/repeats.h. */
int rs_scenario_load_repeat(struct rs_scenario *sc, const char *path,
			    const struct rs_assignment *sets, size_t nsets,
			    const struct rs_model_path *models, unsigned repeat,
			    struct rs_diag *d);
void rs_scenario_free(struct rs_scenario *sc);

/* The result of one point. */
struct rs_point_result {
	struct rs_iostat_summary s;
	struct rs_dev_report dev;
	uint64_t seed;
	uint64_t events;
	struct rs_load_figure figures[RS_LOAD_MAX_FIGURES];   /* the workload's own */
	size_t nfigures;
	bool figures_only;
	/* The device tree's parts over the window (dev/dev.h), owned: free
	 * with rs_components_free. */
	struct rs_components components;
};

/* Build (and, unless dry, run) one point, logging every measured request
 * to `request_log` when it is not NULL.  0 or -1 with d set. */
int rs_scenario_run_point(const struct rs_scenario *sc, size_t index, bool dry,
			  FILE *request_log, struct rs_point_result *r, struct rs_diag *d);
/* Run `rep` (0..repeat-1) of the point, at the point's seed plus rep,
 * also sampling it into `series` (initialised with sc->series_ns and a
 * horizon of the workload's ramp + run) when not NULL. */
struct rs_timeseries;
int rs_scenario_run_point_series(const struct rs_scenario *sc, size_t index, unsigned rep,
				 FILE *request_log, struct rs_timeseries *series,
				 struct rs_point_result *r, struct rs_diag *d);

#endif
