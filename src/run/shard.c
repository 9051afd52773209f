#include "run/shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/limits.h"
#include "config/sweep.h"
#include "kernel/assert.h"
#include "report/out.h"
#include "report/out_lock.h"
#include "report/out_set.h"
#include "report/report.h"
#include "run/components.h"
#include "run/points.h"
#include "run/repeats.h"
#include "run/result_set.h"

#define SHARD_MAGIC "#raidsim-shard\t1"
/* Lines of a point's parts, after the rows (put_parts). */
#define SHARD_PART "#part"
#define MAX_SHARDS 100000u

void rs_shard_tag(char *buf, size_t n, const char *out_name, unsigned k, unsigned n_shards)
{
	snprintf(buf, n, "%s.shard-%u-of-%u", out_name, k, n_shards);
}

int rs_shard_parse(const char *arg, unsigned *k, unsigned *n)
{
	char *end;
	unsigned long kk = strtoul(arg, &end, 10);
	if (end == arg || *end != '/' || arg[0] == '-')
		return -1;
	const char *ns = end + 1;
	unsigned long nn = strtoul(ns, &end, 10);
	if (end == ns || *end || ns[0] == '-' || nn == 0 || nn > MAX_SHARDS || kk >= nn)
		return -1;
	*k = (unsigned)kk;
	*n = (unsigned)nn;
	return 0;
}

static void put_meta(FILE *f, const char *key, const char *value)
{
	if (value)
		fprintf(f, "#%s\t%s\n", key, value);
}

/* Before the rows, each point's parts (run/components.h), one line each:
 * "#part<TAB>POINT<TAB>component<TAB>kind<TAB>...". */
static int put_parts(FILE *f, const struct rs_scenario *sc, const struct rs_table *t,
		     const size_t *point_of_row, const char *stage)
{
	struct rs_table parts;
	size_t *row_of = NULL;
	if (rs_components_gather(stage, sc->out_name, t, point_of_row, &parts, &row_of) != 0) {
		rs_table_free(&parts);
		free(row_of);
		return -1;
	}
	for (size_t r = 0; r < parts.nrows; r++) {
		fprintf(f, "%s\t%zu", SHARD_PART, point_of_row[row_of[r]]);
		for (size_t c = 0; c < parts.ncols; c++)
			if (!parts.col_is_axis[c]) {
				const char *v = rs_table_get(&parts, r, c);
				fprintf(f, "\t%s", v ? v : "");
			}
		fputc('\n', f);
	}
	rs_table_free(&parts);
	free(row_of);
	return 0;
}

int rs_shard_write(const struct rs_scenario *sc, const struct rs_results_meta *m,
		   char **rows, unsigned k, unsigned n_shards, const char *stage,
		   const char *out_dir, bool quiet)
{
	/* The table code splits rows in place; the caller's stay whole.  A
	 * shard holds whole points, so its rows are already the means of
	 * their runs and merge only puts them in order. */
	size_t nruns = sc->npoints * (sc->repeat > 1 ? sc->repeat : 1);
	char **copy = calloc(nruns, sizeof(*copy));
	size_t *point_of_row = calloc(sc->npoints, sizeof(*point_of_row));
	RS_ASSERT(copy != NULL && point_of_row != NULL);
	for (size_t i = 0; i < nruns; i++)
		if (rows[i]) {
			copy[i] = strdup(rows[i]);
			RS_ASSERT(copy[i] != NULL);
		}
	struct rs_table t;
	int rc = rs_results_table(sc, copy, &t, point_of_row);
	char tag[1024], file[1100], path[8400];
	rs_shard_tag(tag, sizeof(tag), m->out_name, k, n_shards);
	snprintf(file, sizeof(file), "%s.tsv", tag);
	snprintf(path, sizeof(path), "%s/%s", stage, file);
	struct rs_report_out out;
	struct rs_report_err err = { "" };
	if (rc != 0) {
		fprintf(stderr, "raidsim: internal error: malformed result row\n");
	} else if ((rc = rs_report_out_open(&out, path, &err)) == 0) {
		FILE *f = out.f;
		fprintf(f, "%s\n", SHARD_MAGIC);
		put_meta(f, "name", m->out_name);
		put_meta(f, "scenario", m->scenario);
		fprintf(f, "#seed\t%" PRIu64 "\n", m->seed);
		/* Only when repeated: a plain shard file is as it was. */
		if (m->repeat > 1)
			fprintf(f, "#repeat\t%u\n", m->repeat);
		fprintf(f, "#fingerprint\t%016" PRIx64 "\n", rs_scenario_fingerprint(sc));
		fprintf(f, "#shard\t%u/%u\n", k, n_shards);
		fprintf(f, "#points\t%zu\n", sc->npoints);
		fprintf(f, "#axes\t%zu\n", sc->sweep.naxes);
		put_meta(f, "description", m->description);
		put_meta(f, "plot_x", m->plot_x);
		put_meta(f, "plot_series", m->plot_series);
		put_meta(f, "plot_y", m->plot_y);
		fprintf(f, "#plot_logx\t%d\n", m->plot_logx);
		fputs("point", f);
		for (size_t c = 0; c < t.ncols; c++)
			fprintf(f, "\t%s", t.cols[c]);
		fputc('\n', f);
		rc = put_parts(f, sc, &t, point_of_row, stage);
		for (size_t r = 0; r < t.nrows; r++) {
			fprintf(f, "%zu", point_of_row[r]);
			for (size_t c = 0; c < t.ncols; c++) {
				const char *v = rs_table_get(&t, r, c);
				fprintf(f, "\t%s", v ? v : "");
			}
			fputc('\n', f);
		}
		if (rc == 0)
			rc = rs_report_out_commit(&out, &err);
		else
			rs_report_out_abort(&out);
		/* The shard file and its points' series and logs, as one set;
		 * other shards' files in the folder are theirs, not pruned. */
		if (rc == 0)
			rc = rs_out_set_commit(stage, out_dir, tag, file, 0, &err);
	}
	if (rc != 0 && err.msg[0])
		fprintf(stderr, "raidsim: %s\n", err.msg);
	if (rc != 0)
		rs_out_set_discard(stage, tag, RS_OUT_TABLE);
	if (rc == 0 && !quiet)
		printf("%s/%s\n", out_dir, file);
	rs_table_free(&t);
	for (size_t i = 0; i < nruns; i++)
		free(copy[i]);
	free(copy);
	free(point_of_row);
	return rc;
}

/* ---- merge ----------------------------------------------------------------
 * Shard files come from other machines and other people: everything in
 * them is checked before anything is written.  The name must be a plain
 * file name (it becomes DIR/NAME.tsv), every count must be within bounds
 * and agree with the rows actually present, lines are capped, and no
 * text may carry a backquote (gnuplot runs what is between two of them
 * when it draws the figure). */

#define SHARD_LINE_MAX 65536

struct reader {
	FILE *f;
	const char *file;
	size_t line;                  /* of the line in buf */
	char *buf;
	struct rs_diag *d;
};

/* 1: a line (without '\n') in r->buf; 0: end of file; -1: error. */
static int next_line(struct reader *r)
{
	size_t n = 0;
	int c;
	r->line++;
	while ((c = getc(r->f)) != EOF && c != '\n') {
		if (n == SHARD_LINE_MAX)
			return rs_diag_at(r->d, r->file, (int)r->line, 1,
					  "line longer than %d bytes", SHARD_LINE_MAX);
		if (c == '\0' || c == '`' || (c < 0x20 && c != '\t' && c != '\r'))
			return rs_diag_at(r->d, r->file, (int)r->line, (int)n + 1,
					  c == '`' ? "a backquote is not allowed in a shard file"
						   : "not text (control character 0x%02x)", c);
		r->buf[n++] = (char)c;
	}
	if (c == EOF && ferror(r->f))
		return rs_diag_at(r->d, r->file, (int)r->line, 1, "cannot read: %s",
				  strerror(errno));
	if (c == EOF && n == 0)
		return 0;
	if (n > 0 && r->buf[n - 1] == '\r')
		n--;
	r->buf[n] = '\0';
	return 1;
}

/* The "#key" lines of one shard file, checked, and its column line. */
struct shard_head {
	char *name, *scenario, *seed, *fingerprint, *plot_x, *plot_series, *plot_y;
	char *description;
	size_t plot_line[3];          /* lines of plot_x, plot_series, plot_y */
	bool have_shard, have_points, have_axes, have_repeat;
	unsigned k, n;
	unsigned repeat;              /* 1 when the file has no '#repeat' */
	size_t points, axes, ncols;
	int plot_logx;
	char *columns;                /* the line after "point\t" */
	size_t columns_line;
};

static void head_free(struct shard_head *h)
{
	free(h->name), free(h->scenario), free(h->seed), free(h->fingerprint);
	free(h->plot_x), free(h->plot_series), free(h->plot_y), free(h->columns);
	free(h->description);
	memset(h, 0, sizeof(*h));
}

/* A decimal count in [lo, hi] (nothing else on the line). */
static bool parse_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (!*v || v[strspn(v, "0123456789")] != '\0' || strlen(v) > 19)
		return false;
	*out = strtoull(v, NULL, 10);
	return *out >= lo && *out <= hi;
}

static int set_text(char **slot, const char *v, struct reader *r, const char *key)
{
	if (*slot)
		return rs_diag_at(r->d, r->file, (int)r->line, 1, "'#%s' given twice", key);
	*slot = strdup(v);
	RS_ASSERT(*slot != NULL);
	return 0;
}

/* One "#key<TAB>value" line. */
static int head_line(struct shard_head *h, struct reader *r)
{
	char *tab = strchr(r->buf, '\t');
	if (!tab)
		return rs_diag_at(r->d, r->file, (int)r->line, 1,
				  "expected '#key<TAB>value' in the shard header");
	*tab = '\0';
	const char *key = r->buf + 1, *v = tab + 1;
	int line = (int)r->line, col = (int)(v - r->buf) + 1;
	uint64_t u;
	if (!strcmp(key, "name")) {
		char why[512];
		if (rs_out_name_check(v, why, sizeof(why)) != 0)
			return rs_diag_at(r->d, r->file, line, col, "'#name' %s", why);
		return set_text(&h->name, v, r, key);
	}
	if (!strcmp(key, "scenario"))
		return set_text(&h->scenario, v, r, key);
	if (!strcmp(key, "description"))
		return set_text(&h->description, v, r, key);
	if (!strcmp(key, "seed")) {
		if (!parse_count(v, 0, UINT64_MAX, &u))
			return rs_diag_at(r->d, r->file, line, col, "'#seed' must be a "
					  "number, got '%s'", v);
		return set_text(&h->seed, v, r, key);
	}
	if (!strcmp(key, "fingerprint")) {
		if (strlen(v) != 16 || v[strspn(v, "0123456789abcdef")] != '\0')
			return rs_diag_at(r->d, r->file, line, col, "'#fingerprint' must be "
					  "16 hexadecimal digits, got '%s'", v);
		return set_text(&h->fingerprint, v, r, key);
	}
	if (!strcmp(key, "plot_x") || !strcmp(key, "plot_series") || !strcmp(key, "plot_y")) {
		int which = key[5] == 'x' ? 0 : key[5] == 's' ? 1 : 2;
		char **slot = which == 0 ? &h->plot_x : which == 1 ? &h->plot_series
							   : &h->plot_y;
		h->plot_line[which] = r->line;
		return set_text(slot, v, r, key);
	}
	if (!strcmp(key, "plot_logx")) {
		if (strcmp(v, "-1") && strcmp(v, "0") && strcmp(v, "1"))
			return rs_diag_at(r->d, r->file, line, col, "'#plot_logx' must be "
					  "-1, 0 or 1, got '%s'", v);
		h->plot_logx = atoi(v);
		return 0;
	}
	bool *have = !strcmp(key, "shard") ? &h->have_shard
		: !strcmp(key, "points") ? &h->have_points
		: !strcmp(key, "repeat") ? &h->have_repeat
		: !strcmp(key, "axes") ? &h->have_axes : NULL;
	if (!have)
		return 0;  /* a later version's key: nothing of ours depends on it */
	if (*have)
		return rs_diag_at(r->d, r->file, line, 1, "'#%s' given twice", key);
	*have = true;
	if (!strcmp(key, "shard")) {
		if (rs_shard_parse(v, &h->k, &h->n) != 0)
			return rs_diag_at(r->d, r->file, line, col, "'#shard' must be K/N with "
					  "0 <= K < N <= %u, got '%s'", MAX_SHARDS, v);
		return 0;
	}
	if (!strcmp(key, "points")) {
		uint64_t cap = rs_limits()->sweep_points;
		if (!parse_count(v, 1, UINT64_MAX, &u))
			return rs_diag_at(r->d, r->file, line, col, "'#points' must be a "
					  "count from 1, got '%s'", v);
		if (u > cap)
			return rs_diag_at(r->d, r->file, line, col, "'#points' is %s, more "
					  "than a sweep may have (cap sweep_points=%" PRIu64
					  "; raise it with --limit sweep_points=N)", v, cap);
		h->points = (size_t)u;
		return 0;
	}
	if (!strcmp(key, "repeat")) {
		if (!parse_count(v, 1, RS_REPEAT_MAX, &u))
			return rs_diag_at(r->d, r->file, line, col, "'#repeat' must be a count "
					  "from 1 to %d, got '%s'", RS_REPEAT_MAX, v);
		h->repeat = (unsigned)u;
		return 0;
	}
	if (!parse_count(v, 0, RS_SWEEP_MAX_AXES, &u))
		return rs_diag_at(r->d, r->file, line, col, "'#axes' must be a count from 0 "
				  "to %d, got '%s'", RS_SWEEP_MAX_AXES, v);
	h->axes = (size_t)u;
	return 0;
}

static int read_head(struct reader *r, struct shard_head *h)
{
	h->plot_logx = -1;
	h->repeat = 1;
	int got = next_line(r);
	if (got < 0)
		return -1;
	if (got == 0 || strcmp(r->buf, SHARD_MAGIC) != 0)
		return rs_diag_at(r->d, r->file, 1, 1, "not a shard file (written by "
				  "'raidsim run --shard K/N')");
	while ((got = next_line(r)) > 0) {
		if (r->buf[0] != '#')
			break;
		if (head_line(h, r) != 0)
			return -1;
	}
	if (got < 0)
		return -1;
	const char *missing = !h->name ? "#name" : !h->fingerprint ? "#fingerprint"
		: !h->have_shard ? "#shard" : !h->have_points ? "#points"
		: !h->have_axes ? "#axes" : got == 0 ? "column line" : NULL;
	if (missing)
		return rs_diag_at(r->d, r->file, (int)r->line, 1, "truncated or damaged shard "
				  "header: no %s", missing);
	if (strncmp(r->buf, "point\t", 6) != 0)
		return rs_diag_at(r->d, r->file, (int)r->line, 1, "expected the column line "
				  "'point<TAB>...'");
	h->columns = strdup(r->buf + 6);
	RS_ASSERT(h->columns != NULL);
	h->columns_line = r->line;
	h->ncols = 1;
	for (const char *p = h->columns; *p; p++)
		h->ncols += *p == '\t';
	if (h->axes > h->ncols)
		return rs_diag_at(r->d, r->file, (int)r->line, 1, "%zu columns, fewer than "
				  "the %zu sweep axes of '#axes'", h->ncols, h->axes);
	return 0;
}

/* Whether TAB-separated list cols holds name as one whole entry. */
static bool has_column(const char *cols, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = cols; p; p = strchr(p, '\t') ? strchr(p, '\t') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == '\t' || p[n] == '\0'))
			return true;
	return false;
}

static int check_plot_columns(const struct shard_head *h, struct reader *r)
{
	const char *v[] = { h->plot_x, h->plot_series, h->plot_y };
	const char *key[] = { "plot_x", "plot_series", "plot_y" };
	for (size_t i = 0; i < 3; i++)
		if (v[i] && !has_column(h->columns, v[i]))
			return rs_diag_at(r->d, r->file, (int)h->plot_line[i], 1, "'#%s' names "
					  "no column of the table: '%s'", key[i], v[i]);
	return 0;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Whether h belongs to the same sweep as the first shard. */
static int check_same_sweep(const struct shard_head *h, const struct shard_head *h0,
			    struct reader *r, const char *file0)
{
	/* Runs per point first: they change the fingerprint too, and this
	 * says what to fix. */
	const char *what = h->repeat != h0->repeat ? "runs per point (--repeat)"
		: !same(h->fingerprint, h0->fingerprint) ? "scenario (fingerprint)"
		: h->n != h0->n ? "number of shards"
		: h->points != h0->points ? "number of points"
		: h->axes != h0->axes || !same(h->columns, h0->columns) ? "columns"
		: !same(h->name, h0->name) || !same(h->seed, h0->seed) ? "name or seed"
		: !same(h->scenario, h0->scenario) ? "scenario name"
		: !same(h->plot_x, h0->plot_x) || !same(h->plot_series, h0->plot_series) ||
		  !same(h->plot_y, h0->plot_y) || h->plot_logx != h0->plot_logx
			? "plot settings" : NULL;
	if (!what)
		return 0;
	return rs_diag_at(r->d, r->file, 1, 1, "%s and this file are shards of different "
			  "sweeps (their %s differ)", file0, what);
}

/* Split a row at TABs into the table (the first cell, the point index, is
 * returned instead).  NULL, or what is wrong. */
static const char *add_row(struct rs_table *t, char *line, size_t npoints, size_t *point)
{
	char *tab = strchr(line, '\t');
	uint64_t p;
	if (!tab)
		return "expected a point index and its cells, TAB-separated";
	*tab = '\0';
	if (!parse_count(line, 0, npoints - 1, &p))
		return "the point index is not a number below '#points'";
	*point = (size_t)p;
	size_t cells = 1;
	for (const char *c = tab + 1; *c; c++)
		cells += *c == '\t';
	if (cells != t->ncols)
		return "the row does not have one cell per column";
	size_t row = rs_table_add_row(t), col = 0;
	for (char *cell = tab + 1; cell; col++) {
		char *next = strchr(cell, '\t');
		if (next)
			*next = '\0';
		rs_table_set(t, row, col, cell);
		cell = next ? next + 1 : NULL;
	}
	return NULL;
}

/* Points of shard k of n in a sweep of npoints. */
static size_t shard_points(size_t npoints, unsigned k, unsigned n)
{
	return npoints > k ? (npoints - k + n - 1) / n : 0;
}

struct merged {
	struct rs_table parts;        /* the part columns, in the order read */
	size_t *point_of_part;
	struct rs_table t;            /* rows in the order read */
	size_t *point_of_row;
	const char **file_of_point;   /* which file gave each point */
};

/* A "#part" line (after its tag): a part of a point this shard gave. */
static const char *add_part(struct merged *m, char *line, const struct shard_head *h)
{
	size_t p = 0;
	const char *bad = add_row(&m->parts, line, h->points, &p);
	/* Its row comes later: read_rows then insists on every point. */
	if (!bad && p % h->n != h->k)
		bad = "a part of a point of another shard";
	if (bad)
		return bad;
	m->point_of_part = realloc(m->point_of_part, m->parts.nrows * sizeof(size_t));
	RS_ASSERT(m->point_of_part != NULL);
	m->point_of_part[m->parts.nrows - 1] = p;
	return NULL;
}

/* The rows of one shard file, after its header. */
static int read_rows(struct reader *r, const struct shard_head *h, struct merged *m)
{
	size_t want = shard_points(h->points, h->k, h->n), have = 0;
	int got;
	while ((got = next_line(r)) > 0) {
		size_t p = 0;
		if (strncmp(r->buf, SHARD_PART "\t", strlen(SHARD_PART) + 1) == 0) {
			const char *bad = add_part(m, r->buf + strlen(SHARD_PART) + 1, h);
			if (bad)
				return rs_diag_at(r->d, r->file, (int)r->line, 1, "%s", bad);
			continue;
		}
		const char *bad = add_row(&m->t, r->buf, h->points, &p);
		if (!bad && p % h->n != h->k)
			bad = "this point belongs to another shard";
		if (!bad && m->file_of_point[p])
			bad = "this point is given twice";
		if (bad)
			return rs_diag_at(r->d, r->file, (int)r->line, 1, "%s", bad);
		m->file_of_point[p] = r->file;
		m->point_of_row = realloc(m->point_of_row, m->t.nrows * sizeof(*m->point_of_row));
		RS_ASSERT(m->point_of_row != NULL);
		m->point_of_row[m->t.nrows - 1] = p;
		have++;
	}
	if (got < 0)
		return -1;
	if (have == want)
		return 0;
	size_t p = h->k;
	while (p < h->points && m->file_of_point[p])
		p += h->n;
	return rs_diag_at(r->d, r->file, (int)r->line, 1, "point %zu is missing (shard %u/%u "
			  "must hold %zu points, the file has %zu)", p, h->k, h->n, want, have);
}

/* Read and check every shard file into m.  0, or -1 with d set. */
static int read_shards(char *const *files, size_t nfiles, struct shard_head *h0,
		       struct merged *m, const char ***file_of_shard, struct rs_diag *d)
{
	struct shard_head h = { 0 };
	char *buf = malloc(SHARD_LINE_MAX + 1);
	RS_ASSERT(buf != NULL);
	int rc = 0;
	for (size_t fi = 0; fi < nfiles && rc == 0; fi++) {
		struct reader r = { .file = files[fi], .buf = buf, .d = d };
		r.f = fopen(files[fi], "r");
		if (!r.f) {
			rc = rs_diag_at(d, files[fi], 0, 0, "cannot read: %s", strerror(errno));
			break;
		}
		struct shard_head *hp = fi == 0 ? h0 : &h;
		head_free(&h);
		rc = read_head(&r, hp);
		if (rc == 0)
			rc = check_plot_columns(hp, &r);
		if (rc == 0 && fi > 0)
			rc = check_same_sweep(&h, h0, &r, files[0]);
		if (rc == 0 && fi == 0) {
			*file_of_shard = calloc(h0->n, sizeof(**file_of_shard));
			m->file_of_point = calloc(h0->points, sizeof(*m->file_of_point));
			/* Only a cap raised far on the command line gets here. */
			if (!*file_of_shard || !m->file_of_point) {
				rc = rs_diag_at(d, files[fi], 1, 1, "no memory for a sweep of "
						"%zu points", h0->points);
				fclose(r.f);
				break;
			}
			char *cols = strdup(h0->columns);
			RS_ASSERT(cols != NULL);
			size_t c = 0;
			for (char *s = cols; s; c++) {
				char *next = strchr(s, '\t');
				if (next)
					*next = '\0';
				rs_table_add_col(&m->t, s, c < h0->axes);
				s = next ? next + 1 : NULL;
			}
			free(cols);
			for (size_t k = 0; rs_component_cols[k]; k++)
				rs_table_add_col(&m->parts, rs_component_cols[k], 0);
		}
		if (rc == 0 && (*file_of_shard)[hp->k])
			rc = rs_diag_at(d, files[fi], 1, 1, "shard %u/%u given twice (also in %s)",
					hp->k, hp->n, (*file_of_shard)[hp->k]);
		if (rc == 0) {
			(*file_of_shard)[hp->k] = files[fi];
			rc = read_rows(&r, hp, m);
		}
		fclose(r.f);
	}
	head_free(&h);
	free(buf);
	return rc;
}

/* The shards' table in point order: the order a single run writes. */
static void sort_rows(const struct merged *m, size_t npoints, struct rs_table *sorted)
{
	rs_table_init(sorted);
	for (size_t c = 0; c < m->t.ncols; c++)
		rs_table_add_col(sorted, m->t.cols[c], m->t.col_is_axis[c]);
	size_t *row_of_point = malloc(npoints * sizeof(*row_of_point));
	RS_ASSERT(row_of_point != NULL);
	for (size_t r = 0; r < m->t.nrows; r++)
		row_of_point[m->point_of_row[r]] = r;
	for (size_t p = 0; p < npoints; p++) {
		size_t row = rs_table_add_row(sorted);
		for (size_t c = 0; c < m->t.ncols; c++)
			rs_table_set(sorted, row, c, rs_table_get(&m->t, row_of_point[p], c));
	}
	free(row_of_point);
}

struct part_key {
	size_t point, order;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part_key *x = a, *y = b;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The parts in point order (each point's in the order its shard gave
 * them), keyed by the axes of sorted, whose row p is point p. */
static void sort_parts(const struct merged *m, const struct rs_table *sorted,
		       struct rs_table *parts, size_t **row_of)
{
	rs_table_init(parts);
	size_t nkey = 0;
	for (size_t c = 0; c < sorted->ncols; c++)
		if (sorted->col_is_axis[c]) {
			rs_table_add_col(parts, sorted->cols[c], 1);
			nkey++;
		}
	for (size_t k = 0; rs_component_cols[k]; k++)
		rs_table_add_col(parts, rs_component_cols[k], 0);
	size_t n = m->parts.nrows;
	*row_of = malloc(n * sizeof(**row_of) + 1);
	struct part_key *key = malloc(n * sizeof(*key) + 1);
	RS_ASSERT(*row_of != NULL && key != NULL);
	for (size_t r = 0; r < n; r++)
		key[r] = (struct part_key){ m->point_of_part[r], r };
	qsort(key, n, sizeof(*key), cmp_part);
	for (size_t k = 0; k < n; k++) {
		size_t p = key[k].point, r = key[k].order;
		size_t row = rs_table_add_row(parts), col = 0;
		for (size_t c = 0; c < sorted->ncols; c++)
			if (sorted->col_is_axis[c])
				rs_table_set(parts, row, col++, rs_table_get(sorted, p, c));
		for (size_t c = 0; c < m->parts.ncols; c++)
			rs_table_set(parts, row, nkey + c, rs_table_get(&m->parts, r, c));
		(*row_of)[row] = p;
	}
	free(key);
}

/* Write the merged table as a set, holding out_dir's lock for the name. */
static int write_merged(const struct rs_table *t, const struct rs_results_meta *meta,
			const char *out_dir, bool plot, bool quiet)
{
	struct rs_out_lock lock;
	if (rs_make_dir(out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", out_dir, strerror(errno));
		return 1;
	}
	if (rs_out_lock_take(&lock, out_dir, meta->out_name) != 0)
		return 1;
	char stage[8400];
	snprintf(stage, sizeof(stage), "%s/%s.merging", out_dir, meta->out_name);
	int rc = 1;
	if (rs_out_stage_begin(stage) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", stage, strerror(errno));
	} else {
		/* Only the table's files: the shards' series beside them stay. */
		rc = rs_result_set_write(t, meta, stage, out_dir, RS_OUT_TABLE, plot,
					 quiet) == 0 ? 0 : 1;
		rs_out_stage_end(stage);
	}
	rs_out_lock_release(&lock);
	return rc;
}

int rs_shard_merge(char *const *files, size_t nfiles, const char *out_dir, bool plot,
		   bool quiet)
{
	struct shard_head h0 = { 0 };
	const char **file_of_shard = NULL;
	struct merged m = { 0 };
	struct rs_diag d;
	rs_diag_init(&d);
	int rc = 2;
	rs_table_init(&m.t);
	rs_table_init(&m.parts);
	if (nfiles == 0) {
		fprintf(stderr, "raidsim: merge: no shard files given\n");
		goto out;
	}
	if (read_shards(files, nfiles, &h0, &m, &file_of_shard, &d) != 0) {
		rs_diag_print(&d, stderr);
		goto out;
	}
	size_t missing = 0;
	for (unsigned k = 0; k < h0.n; k++)
		if (!file_of_shard[k]) {
			fprintf(stderr, "%s%u/%u", missing++ ? ", " : "raidsim: merge: missing shard ",
				k, h0.n);
		}
	if (missing) {
		fprintf(stderr, " (%zu of %u)\n", missing, h0.n);
		goto out;
	}
	struct rs_table sorted;
	sort_rows(&m, h0.points, &sorted);
	struct rs_results_meta meta = {
		.out_name = h0.name, .scenario = h0.scenario, .description = h0.description,
		.seed = h0.seed ? strtoull(h0.seed, NULL, 10) : 1, .repeat = h0.repeat,
		.plot_x = h0.plot_x, .plot_series = h0.plot_series, .plot_y = h0.plot_y,
		.plot_logx = h0.plot_logx,
	};
	char dir[4096];
	if (!out_dir) {
		const char *slash = strrchr(files[0], '/');
		if (slash)
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - files[0]), files[0]);
		else
			snprintf(dir, sizeof(dir), ".");
		if (!dir[0])
			snprintf(dir, sizeof(dir), "/");
		out_dir = dir;
	}
	struct rs_table parts;
	size_t *row_of = NULL;
	sort_parts(&m, &sorted, &parts, &row_of);
	meta.parts = &parts;
	meta.parts_row_of = row_of;
	rc = write_merged(&sorted, &meta, out_dir, plot, quiet);
	rs_table_free(&sorted);
	rs_table_free(&parts);
	free(row_of);
out:
	head_free(&h0);
	free(file_of_shard);
	free(m.file_of_point);
	free(m.point_of_row);
	rs_table_free(&m.t);
	rs_table_free(&m.parts);
	free(m.point_of_part);
	return rc;
}
