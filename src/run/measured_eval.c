/* The simulated value of each measured number, from the tables run.sh
 * wrote, and the error table (run/measured.h). */
#include "run/measured.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "report/table.h"

/* A TSV file as a table: the header row names the columns. */
static int read_tsv(const char *path, struct rs_table *t)
{
	rs_table_init(t);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	bool header = true;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		size_t row = header ? 0 : rs_table_add_row(t);
		size_t c = 0;
		for (char *p = line;; c++) {
			char *tab = strchr(p, '\t');
			if (tab)
				*tab = '\0';
			if (header)
				rs_table_add_col(t, p, 0);
			else if (c < t->ncols)
				rs_table_set(t, row, c, p);
			if (!tab)
				break;
			p = tab + 1;
		}
		header = false;
	}
	free(line);
	fclose(f);
	return header ? -1 : 0;
}

/* Each table read once; kept by pointer, as the list grows. */
struct tables {
	char **paths;
	struct rs_table **t;
	int *ok;
	size_t n;
};

static const struct rs_table *table_of(struct tables *ts, const char *dir, const char *name)
{
	char path[8400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (size_t i = 0; i < ts->n; i++)
		if (strcmp(ts->paths[i], path) == 0)
			return ts->ok[i] ? ts->t[i] : NULL;
	ts->paths = realloc(ts->paths, (ts->n + 1) * sizeof(*ts->paths));
	ts->t = realloc(ts->t, (ts->n + 1) * sizeof(*ts->t));
	ts->ok = realloc(ts->ok, (ts->n + 1) * sizeof(*ts->ok));
	RS_ASSERT(ts->paths && ts->t && ts->ok);
	ts->paths[ts->n] = strdup(path);
	ts->t[ts->n] = malloc(sizeof(struct rs_table));
	RS_ASSERT(ts->paths[ts->n] != NULL && ts->t[ts->n] != NULL);
	ts->ok[ts->n] = read_tsv(path, ts->t[ts->n]) == 0;
	ts->n++;
	return ts->ok[ts->n - 1] ? ts->t[ts->n - 1] : NULL;
}

static void tables_free(struct tables *ts)
{
	for (size_t i = 0; i < ts->n; i++) {
		free(ts->paths[i]);
		rs_table_free(ts->t[i]);
		free(ts->t[i]);
	}
	free(ts->paths), free(ts->t), free(ts->ok);
}

static void set_why(struct rs_measured_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_why(struct rs_measured_row *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(r->why);
	r->why = strdup(buf);
	RS_ASSERT(r->why != NULL);
}

/* Text cells equal; numbers by value, so t_s=120 finds "120" or "120.0". */
static bool cell_is(const char *cell, const char *want)
{
	double a, b;
	if (!cell)
		return false;
	if (strcmp(cell, want) == 0)
		return true;
	return rs_table_number(cell, &a) && rs_table_number(want, &b) && a == b;
}

/* Does row match the point (the ratio pair at its numerator)? */
static bool row_matches(const struct rs_table *t, size_t row, const struct rs_measured_row *r,
			const long *pcol)
{
	for (size_t i = 0; i < r->npairs; i++)
		if (!cell_is(rs_table_get(t, row, (size_t)pcol[i]), r->pairs[i].val))
			return false;
	return true;
}

/* The row of den that is row `row` of num with the ratio pair at its
 * denominator: every axis equal but that one.  -1 if none. */
static long partner(const struct rs_table *num, size_t row, const struct rs_table *den,
		    const struct rs_measured_row *r)
{
	const struct rs_measured_pair *rp = NULL;
	for (size_t i = 0; i < r->npairs; i++)
		if (r->pairs[i].den)
			rp = &r->pairs[i];
	for (size_t k = 0; k < den->nrows; k++) {
		bool same = true;
		for (size_t a = 0; a < r->naxes && same; a++) {
			long cn = rs_table_find_col(num, r->axes[a]);
			long cd = rs_table_find_col(den, r->axes[a]);
			if (cn < 0 || cd < 0)
				return -1;
			const char *want = rp && strcmp(rp->col, r->axes[a]) == 0
					   ? rp->den : rs_table_get(num, row, (size_t)cn);
			same = want && cell_is(rs_table_get(den, k, (size_t)cd), want);
		}
		if (same)
			return (long)k;
	}
	return -1;
}

static void eval_row(struct rs_measured_row *r, struct tables *ts, const char *dir)
{
	const struct rs_table *num = table_of(ts, dir, r->table);
	bool ratio_pair = false;
	for (size_t i = 0; i < r->npairs; i++)
		ratio_pair = ratio_pair || r->pairs[i].den;
	const struct rs_table *den = r->den_table ? table_of(ts, dir, r->den_table)
				     : ratio_pair ? num : NULL;
	if (!num || (r->den_table && !den)) {
		set_why(r, "no table %s", !num ? r->table : r->den_table);
		return;
	}
	long mcol = rs_table_find_col(num, r->metric);
	long dcol = den ? rs_table_find_col(den, r->metric) : -1;
	long pcol[64];
	if (mcol < 0 || (den && dcol < 0) || r->npairs > 64) {
		set_why(r, "no column %s in %s", r->metric, mcol < 0 ? r->table : r->den_table);
		return;
	}
	for (size_t i = 0; i < r->npairs; i++) {
		pcol[i] = rs_table_find_col(num, r->pairs[i].col);
		if (pcol[i] < 0) {
			set_why(r, "no column %s in %s", r->pairs[i].col, r->table);
			return;
		}
	}
	size_t found = 0;
	double best = 0;
	for (size_t row = 0; row < num->nrows; row++) {
		if (!row_matches(num, row, r, pcol))
			continue;
		double v, dv = 1;
		if (!rs_table_number(rs_table_get(num, row, (size_t)mcol), &v)) {
			set_why(r, "%s is not a number in %s", r->metric, r->table);
			return;
		}
		if (den) {
			long k = partner(num, row, den, r);
			if (k < 0 || !rs_table_number(rs_table_get(den, (size_t)k, (size_t)dcol), &dv)) {
				set_why(r, "the ratio's other point is missing");
				return;
			}
			if (dv == 0) {
				set_why(r, "the ratio's other point is zero");
				return;
			}
		}
		double x = v / dv;
		if (found == 0 || (r->pick == RS_PICK_MAX && x > best) ||
		    (r->pick == RS_PICK_MIN && x < best))
			best = x;
		found++;
	}
	if (found == 0 || (r->pick == RS_PICK_ONE && found > 1)) {
		set_why(r, found ? "the point is not one row of %s" : "no row of %s is the point",
			r->table);
		return;
	}
	r->have_sim = true;
	r->sim = best;
}

size_t rs_measured_eval(struct rs_measured *m, const char *study_dir)
{
	struct tables ts = { 0 };
	size_t missing = 0;
	for (size_t i = 0; i < m->n; i++) {
		struct rs_measured_row *r = &m->rows[i];
		r->have_sim = false;
		free(r->why);
		r->why = NULL;
		eval_row(r, &ts, study_dir);
		missing += !r->have_sim;
	}
	tables_free(&ts);
	return missing;
}

/* Error of a row: simulated / measured - 1. */
static double rs_measured_error(const struct rs_measured_row *r)
{
	return r->sim / r->value - 1;
}

void rs_measured_error_text(char *buf, size_t n, const struct rs_measured_row *r)
{
	double pct = 100 * rs_measured_error(r);
	snprintf(buf, n, "%.1f", fabs(pct) < 0.05 ? 0.0 : pct);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void rs_measured_summarize(const struct rs_measured *m, struct rs_measured_summary *s)
{
	memset(s, 0, sizeof(*s));
	double *e = malloc((m->n ? m->n : 1) * sizeof(double));
	RS_ASSERT(e != NULL);
	for (size_t i = 0; i < m->n; i++)
		if (m->rows[i].have_sim)
			e[s->n++] = fabs(rs_measured_error(&m->rows[i]));
	if (s->n) {
		qsort(e, s->n, sizeof(double), by_value);
		s->median_abs = s->n % 2 ? e[s->n / 2] : (e[s->n / 2 - 1] + e[s->n / 2]) / 2;
		s->max_abs = e[s->n - 1];
	}
	free(e);
}

int rs_measured_write_errors(const struct rs_measured *m, const char *path)
{
	char tmp[4400];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs("table\tpoint\tmetric\tmeasured\tsimulated\terror_pct\tunit\tsource\n", f);
	for (size_t i = 0; i < m->n; i++) {
		const struct rs_measured_row *r = &m->rows[i];
		char sim[32] = "", err[32] = "";
		if (r->have_sim) {
			rs_fmt_double(sim, sizeof(sim), r->sim);
			rs_measured_error_text(err, sizeof(err), r);
		}
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r->table_text, r->point_text,
			r->metric_text, r->value_text, sim, err, r->unit, r->source);
	}
	int rc = ferror(f) ? -1 : 0;
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		int e = errno;
		remove(tmp);
		errno = e;
	}
	return rc;
}
