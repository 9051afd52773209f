#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "report/out.h"
#include "report/report.h"

/* One plotted point: which series, where on x, and the row for y. */
struct point {
	size_t series;
	double x;                     /* the number, or the category index */
	size_t row;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *p = a, *q = b;
	if (p->series != q->series)
		return p->series < q->series ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	/* Equal x keeps table order: the sort is stable by construction. */
	return (p->row > q->row) - (p->row < q->row);
}

static const char *cell(const struct rs_table *t, size_t r, long c)
{
	const char *s = rs_table_get(t, r, (size_t)c);
	return s ? s : "";
}

/* Index of s in list[0..*n), appended if new: first-appearance order. */
static size_t intern(const char **list, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	list[*n] = s;
	return (*n)++;
}

static void put_header(FILE *f, const struct rs_plot_spec *sp,
		       const char *data_tsv_name, const char *png_name)
{
	/* Column names come from the scenario: quoted even in comments. */
	fputs("# raidsim plot: ", f);
	rs_gp_quote(f, sp->y_col, RS_GP_TEXT);
	fputs(" over ", f);
	rs_gp_quote(f, sp->x_col, RS_GP_TEXT);
	if (sp->series_col) {
		fputs(", one line per ", f);
		rs_gp_quote(f, sp->series_col, RS_GP_TEXT);
	}
	fputc('\n', f);
	if (data_tsv_name) {
		fputs("# data: ", f);
		rs_gp_quote(f, data_tsv_name, RS_GP_FILE);
		fputc('\n', f);
	}
	fputs("# render: gnuplot <this file>\n", f);
	/* pngcairo draws far nicer lines; plain png (libgd) is the fallback
	 * of minimal gnuplot builds.  noenhanced: '_' in names is literal. */
	fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
	      "\tset terminal pngcairo noenhanced size 1000,650\n"
	      "} else {\n"
	      "\tset terminal png noenhanced size 1000,650\n"
	      "}\n", f);
	fputs("set output ", f);
	rs_gp_quote(f, png_name, RS_GP_FILE);
	fputs("\nset datafile separator \"\\t\"\n", f);
	if (sp->title) {
		fputs("set title ", f);
		rs_gp_quote(f, sp->title, RS_GP_TEXT);
		fputc('\n', f);
	}
	fputs("set xlabel ", f);
	rs_gp_quote(f, sp->x_label ? sp->x_label : sp->x_col, RS_GP_TEXT);
	fputs("\nset ylabel ", f);
	rs_gp_quote(f, sp->y_label ? sp->y_label : sp->y_col, RS_GP_TEXT);
	fputs("\nset grid\nset key outside right top\n", f);
}

/* Columns of the plot: x, y, series (-1: none), error bars (-1: none). */
struct plot_cols {
	long x, y, series, err;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A size given in KiB as text: "512 B", "4 KiB", "1.5 MiB". */
static void size_text(char *buf, size_t n, double kib)
{
	if (kib < 1)
		snprintf(buf, n, "%.6g B", kib * 1024);
	else if (kib < 1024)
		snprintf(buf, n, "%.6g KiB", kib);
	else if (kib < 1024 * 1024)
		snprintf(buf, n, "%.6g MiB", kib / 1024);
	else
		snprintf(buf, n, "%.6g GiB", kib / (1024 * 1024));
}

/* Most tic marks an x axis gets; more x values get every k-th. */
#define MAX_XTICS 12

/* A tic at each distinct x (every k-th when there are many), labelled
 * as a count or a size. */
static void put_xtics(FILE *f, const struct rs_table *t, long xc, enum rs_gp_ticks kind)
{
	size_t n = 0;
	double *x = malloc((t->nrows ? t->nrows : 1) * sizeof(*x));
	RS_ASSERT(x != NULL);
	for (size_t r = 0; r < t->nrows; r++)
		if (rs_table_number(cell(t, r, xc), &x[n]))
			n++;
	qsort(x, n, sizeof(*x), cmp_double);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || x[i] != x[u - 1])
			x[u++] = x[i];
	size_t step = (u + MAX_XTICS - 1) / MAX_XTICS;
	fputs("set xtics (", f);
	for (size_t i = 0, k = 0; i < u; i += step ? step : 1, k++) {
		char label[64];
		if (kind == RS_TICKS_SIZE_KIB)
			size_text(label, sizeof(label), x[i]);
		else
			snprintf(label, sizeof(label), "%.0f", x[i]);
		fputs(k ? ", " : "", f);
		rs_gp_quote(f, label, RS_GP_FORMAT);
		fprintf(f, " %.17g", x[i]);
	}
	fputs(")\n", f);
	free(x);
}

/* One y range over every panel, from 0 (or the lowest value, if below)
 * to the highest, error bars included, with a little headroom. */
static void put_shared_yrange(FILE *f, const struct rs_table *t, const struct rs_plot_spec *sp,
			      const struct plot_cols *c)
{
	if (sp->logy)
		return;
	double lo = 0, hi = 0;
	bool any = false;
	for (size_t r = 0; r < t->nrows; r++) {
		double y, e = 0;
		if (!*cell(t, r, c->x) || !rs_table_number(cell(t, r, c->y), &y))
			continue;
		if (c->err >= 0 && !rs_table_number(cell(t, r, c->err), &e))
			e = 0;
		if (y - e < lo)
			lo = y - e;
		if (y + e > hi)
			hi = y + e;
		any = true;
	}
	if (!any || hi <= lo)
		return;
	double pad = (hi - lo) * 0.05;
	fprintf(f, "set yrange [%.6g:%.6g]\n", lo < 0 ? lo - pad : 0, hi + pad);
}

static void put_body(FILE *f, const struct rs_table *t, const struct rs_plot_spec *sp,
		     const struct plot_cols *c, const char *block)
{
	size_t n = t->nrows ? t->nrows : 1;
	struct point *pts = malloc(n * sizeof(*pts));
	const char **series = malloc(n * sizeof(*series));
	const char **cats = malloc(n * sizeof(*cats));
	RS_ASSERT(pts && series && cats);
	size_t npts = 0, nseries = 0, ncats = 0;

	long xc = c->x, yc = c->y, sc = c->series;
	/* Numeric x only if every x present is a number. */
	int numeric = 1;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *x = cell(t, r, xc);
		if (*x && !rs_table_is_number(x))
			numeric = 0;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		const char *x = cell(t, r, xc);
		if (*x == '\0')
			continue;
		struct point *p = &pts[npts++];
		p->row = r;
		p->series = sc >= 0 ? intern(series, &nseries, cell(t, r, sc)) : 0;
		if (sc < 0)
			nseries = 1;
		if (numeric)
			rs_table_number(x, &p->x);
		else
			p->x = (double)intern(cats, &ncats, x);
	}
	qsort(pts, npts, sizeof(*pts), cmp_point);

	if (npts == 0) {
		/* gnuplot refuses to plot an empty data set; say so instead. */
		fputs("unset border\nunset tics\nunset key\n"
		      "set label 1 \"no data\" at graph 0.5, graph 0.5 center\n"
		      "plot [0:1] [0:1] -1 notitle\n", f);
		goto out;
	}
	if (numeric && sp->logx)
		fputs(sp->x_ticks == RS_TICKS_SIZE_KIB ? "set logscale x 2\n" : "set logscale x\n", f);
	if (numeric && sp->x_ticks != RS_TICKS_AUTO)
		put_xtics(f, t, xc, sp->x_ticks);
	if (sp->logy)
		fputs("set logscale y\n", f);
	if (!numeric) {
		fputs("set xtics (", f);
		for (size_t i = 0; i < ncats; i++) {
			if (i > 0)
				fputs(", ", f);
			/* Explicit tic labels are printf formats to gnuplot. */
			rs_gp_quote(f, cats[i], RS_GP_FORMAT);
			fprintf(f, " %zu", i);
		}
		fprintf(f, ")\nset xrange [-0.5:%zu.5]\n", ncats - 1);
	}
	/* The data blocks hold numbers only (rs_table_is_number, or a
	 * category's index): nothing else could end a block early. */
	size_t i = 0;
	for (size_t s = 0; s < nseries; s++) {
		fprintf(f, "$%s%zu << EOD\n", block, s);
		for (; i < npts && pts[i].series == s; i++) {
			const char *y = cell(t, pts[i].row, yc);
			if (numeric)
				fputs(cell(t, pts[i].row, xc), f);
			else
				fprintf(f, "%zu", (size_t)pts[i].x);
			fprintf(f, "\t%s", rs_table_is_number(y) ? y : "NaN");
			if (c->err >= 0) {
				/* No bar rather than no point: 0 keeps the point. */
				const char *e = cell(t, pts[i].row, c->err);
				fprintf(f, "\t%s", rs_table_is_number(e) ? e : "0");
			}
			fputc('\n', f);
		}
		fputs("EOD\n", f);
	}
	for (size_t s = 0; s < nseries; s++) {
		fprintf(f, "%s$%s%zu using %s ", s ? ", \\\n     " : "plot ", block, s,
			c->err >= 0 ? "1:2:3 with yerrorlines" : "1:2 with linespoints");
		if (sc >= 0) {
			const char *name = sp->series_label ? sp->series_label : sp->series_col;
			size_t len = strlen(name) + strlen(series[s]) + 2;
			char *title = malloc(len);
			RS_ASSERT(title != NULL);
			snprintf(title, len, "%s=%s", name, series[s]);
			fputs("title ", f);
			rs_gp_quote(f, title, RS_GP_TEXT);
			free(title);
		} else {
			fputs("notitle", f);
		}
	}
	fputc('\n', f);
out:
	free(pts);
	free(series);
	free(cats);
}

/* One panel per value of column pc: the rows of each value go through
 * put_body as a table of their own, under a title naming the value. */
static void put_panels(FILE *f, const struct rs_table *t, const struct rs_plot_spec *sp,
		       const struct plot_cols *pcols, long pc)
{
	size_t n = t->nrows ? t->nrows : 1, npanels = 0;
	const char **panels = malloc(n * sizeof(*panels));
	RS_ASSERT(panels != NULL);
	/* Rows without a panel value are left out, like rows without an x. */
	for (size_t r = 0; r < t->nrows; r++)
		if (*cell(t, r, pc))
			intern(panels, &npanels, cell(t, r, pc));
	/* Up to three side by side, then a near-square grid. */
	size_t cols = npanels <= 3 ? (npanels ? npanels : 1) : 1;
	while (npanels > 3 && cols * cols < npanels)
		cols++;
	size_t rows = npanels ? (npanels + cols - 1) / cols : 1;
	/* The legend below each panel, off its data; one y range for all. */
	fputs("set key below\n", f);
	put_shared_yrange(f, t, sp, pcols);
	fprintf(f, "set multiplot layout %zu,%zu", rows, cols);
	if (sp->title) {
		fputs(" title ", f);
		rs_gp_quote(f, sp->title, RS_GP_TEXT);
	}
	fputc('\n', f);
	for (size_t p = 0; p < npanels; p++) {
		struct rs_table sub;
		rs_table_init(&sub);
		for (size_t c = 0; c < t->ncols; c++)
			rs_table_add_col(&sub, t->cols[c], t->col_is_axis[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			if (strcmp(cell(t, r, pc), panels[p]) != 0)
				continue;
			size_t row = rs_table_add_row(&sub);
			for (size_t c = 0; c < t->ncols; c++)
				rs_table_set(&sub, row, c, rs_table_get(t, r, c));
		}
		const char *name = sp->panel_label ? sp->panel_label : sp->panel_col;
		size_t len = strlen(name) + strlen(panels[p]) + 2;
		char *title = malloc(len), block[32];
		RS_ASSERT(title != NULL);
		snprintf(title, len, "%s=%s", name, panels[p]);
		fputs("set title ", f);
		rs_gp_quote(f, title, RS_GP_TEXT);
		fputc('\n', f);
		free(title);
		snprintf(block, sizeof(block), "p%zus", p);
		put_body(f, &sub, sp, pcols, block);
		rs_table_free(&sub);
	}
	fputs("unset multiplot\n", f);
	free(panels);
}

static long need_col(const struct rs_table *t, const char *name, const char *path,
		     struct rs_report_err *err)
{
	long c = name ? rs_table_find_col(t, name) : -1;
	if (c < 0) {
		char msg[256];
		snprintf(msg, sizeof(msg), "no column '%s' to plot", name ? name : "(null)");
		rs_report_err_set(err, path, msg);
	}
	return c;
}

int rs_report_write_gnuplot(const struct rs_table *t, const char *script_path,
			    const char *data_tsv_name, const char *png_name,
			    const struct rs_plot_spec *spec, struct rs_report_err *err)
{
	long xc = need_col(t, spec->x_col, script_path, err);
	if (xc < 0)
		return -1;
	long yc = need_col(t, spec->y_col, script_path, err);
	if (yc < 0)
		return -1;
	long sc = -1;
	if (spec->series_col && (sc = need_col(t, spec->series_col, script_path, err)) < 0)
		return -1;
	long pc = -1;
	if (spec->panel_col && (pc = need_col(t, spec->panel_col, script_path, err)) < 0)
		return -1;
	long ec = -1;
	if (spec->yerr_col && (ec = need_col(t, spec->yerr_col, script_path, err)) < 0)
		return -1;
	struct plot_cols c = { xc, yc, sc, ec };

	struct rs_report_out o;
	if (rs_report_out_open(&o, script_path, err) != 0)
		return -1;
	put_header(o.f, spec, data_tsv_name, png_name);
	if (pc < 0)
		put_body(o.f, t, spec, &c, "s");
	else
		put_panels(o.f, t, spec, &c, pc);
	return rs_report_out_commit(&o, err);
}
