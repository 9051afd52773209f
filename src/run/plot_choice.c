#include "run/plot_choice.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/units.h"
#include "run/repeats.h"

/* The figure follows the sweep's shape: one axis gives a line, two give
 * one line per value of the second, three give small multiples (one panel
 * per value of the third).  Axes beyond those are held at their first
 * value.  Sizes are plotted as numbers in KiB and percentages as numbers,
 * so they get a true (log) scale instead of category labels; the axis
 * labels carry the units. */

/* The last part of a dotted path: "workload.iometer.size" -> "size". */
static const char *leaf(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

/* A y label with its unit, from the metric column's name. */
static void y_label(const char *col, char *buf, size_t n)
{
	static const struct {
		const char *name, *label;
	} known[] = {
		{ "iops", "IOPS (operations/s)" },
		{ "read_iops", "read IOPS (operations/s)" },
		{ "write_iops", "write IOPS (operations/s)" },
		{ "mib_s", "throughput, MiB/s" },
		{ "mb_s", "throughput, MB/s (10^6 B/s)" },
		{ "read_mib_s", "read throughput, MiB/s" },
		{ "write_mib_s", "write throughput, MiB/s" },
		{ "qd", "mean queue depth (requests)" },
		{ "util", "utilisation (0..1)" },
		{ "ops", "operations measured" },
		{ "errors", "errors" },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(col, known[i].name) == 0) {
			snprintf(buf, n, "%s", known[i].label);
			return;
		}
	size_t len = strlen(col);
	if (len > 3 && strcmp(col + len - 3, "_ms") == 0)
		snprintf(buf, n, "%.*s, ms", (int)(len - 3), col);
	else if (len > 4 && strcmp(col + len - 4, "_mb_s") == 0)
		snprintf(buf, n, "%.*s, MB/s", (int)(len - 4), col);
	else
		snprintf(buf, n, "%s", col);
}

enum x_kind { X_AS_IS, X_SIZE, X_PERCENT };

/* How the x column's cells read: all sizes, all percentages, or as they are. */
static enum x_kind x_kind_of(const struct rs_table *t, long c)
{
	bool sizes = true, percents = true, any = false;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = rs_table_get(t, r, (size_t)c);
		const char *why;
		uint64_t b;
		double p;
		if (!s || !*s)
			continue;
		any = true;
		if (rs_table_is_number(s)) {
			sizes = percents = false;
			break;
		}
		if (rs_parse_size(s, &b, &why) != 0)
			sizes = false;
		if (rs_parse_percent(s, &p, &why) != 0)
			percents = false;
	}
	return !any ? X_AS_IS : sizes ? X_SIZE : percents ? X_PERCENT : X_AS_IS;
}

/* Sizes and queue depths read best on a log axis: use one when the x
 * column is numeric and spans a factor of 16 or more. */
static int wide_numeric_range(const struct rs_table *t, const char *col)
{
	if (!col)
		return 0;
	long c = rs_table_find_col(t, col);
	if (c < 0 || t->nrows == 0)
		return 0;
	double lo = 0, hi = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double v;
		const char *text = rs_table_get(t, r, (size_t)c);
		if (!text || !rs_table_number(text, &v) || v <= 0)
			return 0;
		if (r == 0 || v < lo)
			lo = v;
		if (r == 0 || v > hi)
			hi = v;
	}
	return hi / lo >= 16;
}

/* Counts (disks, requests in flight): every x a whole number. */
static bool all_integers(const struct rs_table *t, long c)
{
	bool any = false;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = rs_table_get(t, r, (size_t)c);
		double v;
		if (!s || !*s)
			continue;
		if (!rs_table_number(s, &v) || v != (double)(long long)v)
			return false;
		any = true;
	}
	return any;
}

static bool used(const char *col, const struct rs_plot_spec *ps)
{
	return (ps->x_col && !strcmp(col, ps->x_col)) ||
	       (ps->series_col && !strcmp(col, ps->series_col));
}

int rs_plot_write(const struct rs_table *t, const struct rs_results_meta *m,
		  const char *script_path, const char *tsv_name, const char *png_name,
		  struct rs_report_err *err)
{
	struct rs_plot_spec ps = { 0 };
	ps.x_col = m->plot_x;
	ps.series_col = m->plot_series;
	ps.y_col = m->plot_y;
	/* What the figure shows, in the scenario's own words. */
	const char *what = m->description ? m->description : m->scenario;
	ps.title = what;
	/* Repeated points carry the half-width of each mean's 95 % CI: drawn
	 * as error bars on the plotted column, when it has one. */
	char err_col[512];
	if (m->repeat > 1 && ps.y_col) {
		snprintf(err_col, sizeof(err_col), "%s%s", ps.y_col, RS_CI95_SUFFIX);
		if (rs_table_find_col(t, err_col) >= 0)
			ps.yerr_col = err_col;
	}
	/* The first axis on neither x nor the series makes the panels; the
	 * rows of later axes' other values are left out. */
	long hold_from = -1;
	for (size_t c = 0; c < t->ncols; c++) {
		if (!t->col_is_axis[c] || used(t->cols[c], &ps))
			continue;
		if (!ps.panel_col)
			ps.panel_col = t->cols[c];
		else if (hold_from < 0)
			hold_from = (long)c;
	}
	struct rs_table v;             /* what is plotted */
	rs_table_init(&v);
	for (size_t c = 0; c < t->ncols; c++)
		rs_table_add_col(&v, t->cols[c], t->col_is_axis[c]);
	for (size_t r = 0; r < t->nrows; r++) {
		bool keep = true;
		for (long c = hold_from; c >= 0 && (size_t)c < t->ncols && keep; c++)
			if (t->col_is_axis[c] && !used(t->cols[c], &ps) &&
			    strcmp(t->cols[c], ps.panel_col) != 0) {
				const char *a = rs_table_get(t, r, (size_t)c);
				const char *first = rs_table_get(t, 0, (size_t)c);
				keep = a && first && strcmp(a, first) == 0;
			}
		if (!keep)
			continue;
		size_t row = rs_table_add_row(&v);
		for (size_t c = 0; c < t->ncols; c++)
			rs_table_set(&v, row, c, rs_table_get(t, r, c));
	}
	char xl[512], yl[512], title[600];
	long xc = ps.x_col ? rs_table_find_col(&v, ps.x_col) : -1;
	if (xc >= 0) {
		enum x_kind k = x_kind_of(&v, xc);
		for (size_t r = 0; k != X_AS_IS && r < v.nrows; r++) {
			const char *s = rs_table_get(&v, r, (size_t)xc), *why;
			uint64_t b;
			double p;
			char num[32];
			if (!s || !*s)
				continue;
			if (k == X_SIZE && rs_parse_size(s, &b, &why) == 0)
				rs_fmt_double(num, sizeof(num), (double)b / 1024.0);
			else if (k == X_PERCENT && rs_parse_percent(s, &p, &why) == 0)
				rs_fmt_double(num, sizeof(num), p);
			else
				continue;
			rs_table_set(&v, r, (size_t)xc, num);
		}
		const char *name = leaf(ps.x_col);
		ps.x_ticks = k == X_SIZE ? RS_TICKS_SIZE_KIB
			     : all_integers(&v, xc) ? RS_TICKS_INT : RS_TICKS_AUTO;
		if (k == X_SIZE)
			snprintf(xl, sizeof(xl), "%s, KiB", name);
		else if (k == X_PERCENT)
			snprintf(xl, sizeof(xl), "%s, %%", name);
		else if (!strcmp(name, "outstanding") || !strcmp(name, "qdepth") ||
			 !strcmp(name, "queue_depth"))
			snprintf(xl, sizeof(xl), "%s, I/Os in flight", name);
		else
			snprintf(xl, sizeof(xl), "%s", ps.x_col);
		ps.x_label = xl;
	}
	if (ps.series_col)
		ps.series_label = leaf(ps.series_col);
	if (ps.panel_col)
		ps.panel_label = leaf(ps.panel_col);
	if (ps.y_col) {
		y_label(ps.y_col, yl, sizeof(yl));
		ps.y_label = yl;
	}
	ps.logx = m->plot_logx >= 0 ? m->plot_logx : wide_numeric_range(&v, ps.x_col);
	if (hold_from >= 0) {
		snprintf(title, sizeof(title), "%s (further axes at their first value)",
			 what ? what : "");
		ps.title = title;
	}
	int rc = rs_report_write_gnuplot(&v, script_path, tsv_name, png_name, &ps, err);
	rs_table_free(&v);
	return rc;
}
