/* From per-point rows to the result files: the table (axis columns, then
 * the cells each point's row carries) and DIR/NAME.tsv, .json, .gp (and
 * .png).  Shared by a plain run and by `raidsim merge`, so a merged sweep
 * is written by the very same code as a run on one machine. */
#ifndef RS_RUN_RESULTS_H
#define RS_RUN_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "report/table.h"
#include "run/scenario.h"

struct rs_results_meta {
	const char *out_name;         /* NAME of NAME.tsv, NAME.json, ... */
	const char *scenario;         /* the scenario's name, for the JSON */
	const char *description;      /* the scenario's description: the figure's title */
	char description_buf[512];    /* where rs_results_meta_of keeps it */
	uint64_t seed;                /* the first seed of each point's runs */
	unsigned repeat;              /* runs per point (run/repeats.h) */
	const char *plot_x, *plot_series, *plot_y;   /* NULL: none / default */
	int plot_logx;                /* -1: decide from the data */
	/* Each point's parts (run/components.h), written as
	 * NAME.components.tsv and into the JSON; NULL: none. */
	const struct rs_table *parts;
	const size_t *parts_row_of;
};

void rs_results_meta_of(const struct rs_scenario *sc, struct rs_results_meta *m);

/* Will the scenario's results table have a column of this name? */
bool rs_results_has_column(const struct rs_scenario *sc, const char *name);

/* The cells of one run's row: the table's result columns for one seed
 * (no axes; with sc->repeat > 1 neither the _ci95 columns nor repeats). */
size_t rs_results_run_cells(const struct rs_scenario *sc);

/* The table from the runs' rows, rows[i * repeat + r] being run r of point
 * i (with repeat 1, rows[i] is point i's row).  A point appears, in point
 * order, when all its runs are set: its row is the axes and then the
 * run's cells (repeat 1) or their means and CIs (run/repeats.h).  Rows
 * are split at TABs (modified).  If point_of_row is not NULL it receives
 * each table row's point index.  0, or -1 when a row does not have one
 * cell per result column or a point has only some of its runs. */
int rs_results_table(const struct rs_scenario *sc, char **rows, struct rs_table *t,
		     size_t *point_of_row);

/* Write the files into out_dir (created if needed) and render the PNG when
 * plot and gnuplot is installed.  Prints only errors: out_dir is a staging
 * folder, and rs_result_set_write lists the files where they end up.  0 or
 * -1 (message printed). */
int rs_results_write(const struct rs_table *t, const struct rs_results_meta *m,
		     const char *out_dir, bool plot);

/* mkdir -p.  0 or -1 with errno set. */
int rs_make_dir(const char *dir);

#endif
