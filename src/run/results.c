#include "run/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "run/components.h"
#include "run/plot_choice.h"
#include "run/repeats.h"
#include "run/runner.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

void rs_results_meta_of(const struct rs_scenario *sc, struct rs_results_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->out_name = sc->out_name;
	m->scenario = sc->name;
	const struct rs_node *desc = rs_node_get(sc->root, "description");
	if (desc && desc->kind == RS_NODE_SCALAR && desc->str[0]) {
		/* One line, and nothing a shard file refuses (a backquote), so
		 * a merged sweep gets the very same title. */
		snprintf(m->description_buf, sizeof(m->description_buf), "%s", desc->str);
		for (char *p = m->description_buf; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = ' ';
			else if (*p == '`')
				*p = '\'';
		m->description = m->description_buf;
	}
	const struct rs_node *seed = rs_node_get(sc->root, "seed");
	m->seed = seed && seed->kind == RS_NODE_SCALAR ? strtoull(seed->str, NULL, 10) : 1;
	m->repeat = sc->repeat > 1 ? sc->repeat : 1;
	m->plot_x = sc->plot_x;
	m->plot_series = sc->plot_series;
	m->plot_y = sc->plot_y;
	m->plot_logx = sc->plot_logx;
}

int rs_make_dir(const char *dir)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static void axis_text(const char *in, char *out, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; in[i] && j + 1 < n; i++)
		out[j++] = (in[i] == '\t' || in[i] == '\n' || in[i] == '\r') ? ' ' : in[i];
	out[j] = '\0';
}

static void add_result_col(struct rs_table *t, const char *name, bool repeated)
{
	rs_table_add_col(t, name, 0);
	if (repeated) {
		char ci[512];
		snprintf(ci, sizeof(ci), "%s%s", name, RS_CI95_SUFFIX);
		rs_table_add_col(t, ci, 0);
	}
}

/* The table's columns: sweep axes, the generic metrics (unless the
 * workload has only its own), the workload's figures, the device's own;
 * repeated, each result column followed by its _ci95, and `repeats`. */
static void add_columns(const struct rs_scenario *sc, struct rs_table *t)
{
	bool rep = sc->repeat > 1;
	for (size_t a = 0; a < sc->sweep.naxes; a++)
		rs_table_add_col(t, sc->sweep.axes[a].path, 1);
	for (size_t m = 0; !sc->figures_only && rs_metric_names[m]; m++)
		add_result_col(t, rs_metric_names[m], rep);
	for (size_t f = 0; f < sc->nfigure_cols; f++)
		add_result_col(t, sc->figure_cols[f], rep);
	for (size_t c = 0; c < sc->ndev_cols; c++)
		add_result_col(t, sc->dev_cols[c], rep);
	if (rep)
		rs_table_add_col(t, RS_REPEATS_COL, 0);
	/* Last, so the columns before it keep their places. */
	if (!sc->figures_only)
		rs_table_add_col(t, RS_LIMITED_BY_COL, 0);
}

size_t rs_results_run_cells(const struct rs_scenario *sc)
{
	size_t n = sc->nfigure_cols + sc->ndev_cols + !sc->figures_only;
	for (size_t m = 0; !sc->figures_only && rs_metric_names[m]; m++)
		n++;
	return n;
}

bool rs_results_has_column(const struct rs_scenario *sc, const char *name)
{
	struct rs_table t;
	rs_table_init(&t);
	add_columns(sc, &t);
	bool found = rs_table_find_col(&t, name) >= 0;
	rs_table_free(&t);
	return found;
}

int rs_results_table(const struct rs_scenario *sc, char **rows, struct rs_table *t,
		     size_t *point_of_row)
{
	rs_table_init(t);
	add_columns(sc, t);
	size_t idx[RS_SWEEP_MAX_AXES];
	size_t rep = sc->repeat > 1 ? sc->repeat : 1;
	for (size_t i = 0; i < sc->npoints; i++) {
		size_t have = 0;
		for (size_t r = 0; r < rep; r++)
			have += rows[i * rep + r] != NULL;
		if (have == 0)
			continue;
		if (have < rep)
			return -1;
		size_t row = rs_table_add_row(t);
		if (point_of_row)
			point_of_row[row] = i;
		rs_sweep_point_indices(&sc->sweep, i, idx);
		size_t col = 0;
		for (size_t a = 0; a < sc->sweep.naxes; a++) {
			char text[512];
			const struct rs_node *v = sc->sweep.axes[a].values[idx[a]];
			axis_text(v->kind == RS_NODE_SCALAR ? v->str : "(structured)", text,
				  sizeof(text));
			rs_table_set(t, row, col++, text);
		}
		if (rep > 1) {
			/* The verdict is text, not averaged: the first run's (the
			 * seed the row names), after the means. */
			size_t ncells = rs_results_run_cells(sc);
			const char *verdict = NULL;
			if (!sc->figures_only) {
				for (size_t r = 0; r < rep; r++) {
					char *tab = strrchr(rows[i * rep + r], '\t');
					if (!tab)
						return -1;
					*tab = '\0';
					if (r == 0)
						verdict = tab + 1;
				}
				ncells--;
			}
			if (rs_repeat_row(rows + i * rep, rep, ncells, t, row, col) != 0)
				return -1;
			if (verdict)
				rs_table_set(t, row, t->ncols - 1, verdict);
			continue;
		}
		/* Every TAB ends a cell, so an empty cell keeps its place. */
		for (char *cell = rows[i]; cell; col++) {
			char *tab = strchr(cell, '\t');
			if (tab)
				*tab = '\0';
			if (col < t->ncols)
				rs_table_set(t, row, col, cell);
			cell = tab ? tab + 1 : NULL;
		}
		if (col != t->ncols)
			return -1;
	}
	return 0;
}

int rs_results_write(const struct rs_table *t, const struct rs_results_meta *m,
		     const char *out_dir, bool plot)
{
	if (rs_make_dir(out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", out_dir, strerror(errno));
		return -1;
	}
	char tsv[4096], json[4096], gp[4096], tsv_name[1024], png_name[1024];
	snprintf(tsv_name, sizeof(tsv_name), "%s.tsv", m->out_name);
	snprintf(png_name, sizeof(png_name), "%s.png", m->out_name);
	snprintf(tsv, sizeof(tsv), "%s/%s.tsv", out_dir, m->out_name);
	snprintf(json, sizeof(json), "%s/%s.json", out_dir, m->out_name);
	snprintf(gp, sizeof(gp), "%s/%s.gp", out_dir, m->out_name);
	size_t axes = 0;
	for (size_t c = 0; c < t->ncols; c++)
		axes += t->col_is_axis[c] != 0;
	struct rs_report_meta meta = {
		.version = PACKAGE_VERSION, .scenario = m->scenario, .seed = m->seed,
		.repeat = m->repeat, .parts = m->parts, .parts_row_of = m->parts_row_of,
		.description = m->description, .axes = axes, .plot_x = m->plot_x,
		.plot_series = m->plot_series, .plot_y = m->plot_y, .plot_logx = m->plot_logx,
	};
	struct rs_report_err err;
	char parts[4200];
	snprintf(parts, sizeof(parts), "%s/%s.components.tsv", out_dir, m->out_name);
	if (rs_report_write_tsv(t, tsv, &err) != 0 ||
	    (m->parts && rs_report_write_tsv(m->parts, parts, &err) != 0) ||
	    rs_report_write_json(t, json, &meta, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	/* A run without a sweep is one row: its table is the result, and a
	 * figure of one point says nothing, so none is written. */
	bool figure = m->plot_x != NULL;
	if (figure && rs_plot_write(t, m, gp, tsv_name, png_name, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	if (plot && figure) {
		char msg[512];
		/* gnuplot runs inside the output directory, so it is given the
		 * script's name there, not a path relative to ours. */
		char gp_name[1024];
		snprintf(gp_name, sizeof(gp_name), "%s.gp", m->out_name);
		int pr = rs_report_render_png(gp_name, out_dir, msg, sizeof(msg));
		if (pr < 0) {
			fprintf(stderr, "raidsim: plot: %s\n", msg);
			return -1;
		}
		/* pr > 0: gnuplot is not installed; the caller, which knows
		 * where the files end up, says so. */
	}
	return 0;
}
