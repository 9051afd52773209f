#include "run/shard.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "report/out.h"
#include "report/out_set.h"
#include "run/points.h"

#define SHARD_MAGIC "#raidsim-shard\t1"
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

int rs_shard_write(const struct rs_scenario *sc, const struct rs_results_meta *m,
		   char **rows, unsigned k, unsigned n_shards, const char *stage,
		   const char *out_dir, bool quiet)
{
	/* The table code splits rows in place; the caller's stay whole. */
	char **copy = calloc(sc->npoints, sizeof(*copy));
	size_t *point_of_row = calloc(sc->npoints, sizeof(*point_of_row));
	RS_ASSERT(copy != NULL && point_of_row != NULL);
	for (size_t i = 0; i < sc->npoints; i++)
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
		fprintf(f, "#fingerprint\t%016" PRIx64 "\n", rs_scenario_fingerprint(sc));
		fprintf(f, "#shard\t%u/%u\n", k, n_shards);
		fprintf(f, "#points\t%zu\n", sc->npoints);
		fprintf(f, "#axes\t%zu\n", sc->sweep.naxes);
		put_meta(f, "plot_x", m->plot_x);
		put_meta(f, "plot_series", m->plot_series);
		put_meta(f, "plot_y", m->plot_y);
		fprintf(f, "#plot_logx\t%d\n", m->plot_logx);
		fputs("point", f);
		for (size_t c = 0; c < t.ncols; c++)
			fprintf(f, "\t%s", t.cols[c]);
		fputc('\n', f);
		for (size_t r = 0; r < t.nrows; r++) {
			fprintf(f, "%zu", point_of_row[r]);
			for (size_t c = 0; c < t.ncols; c++) {
				const char *v = rs_table_get(&t, r, c);
				fprintf(f, "\t%s", v ? v : "");
			}
			fputc('\n', f);
		}
		rc = rs_report_out_commit(&out, &err);
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
	for (size_t i = 0; i < sc->npoints; i++)
		free(copy[i]);
	free(copy);
	free(point_of_row);
	return rc;
}

/* ---- merge ---------------------------------------------------------------- */

/* The "#key" lines of one shard file, and its header line. */
struct shard_head {
	char *name, *scenario, *seed, *fingerprint, *points, *axes;
	char *plot_x, *plot_series, *plot_y, *plot_logx;
	unsigned k, n;
	char *columns;
};

static void head_free(struct shard_head *h)
{
	free(h->name), free(h->scenario), free(h->seed), free(h->fingerprint);
	free(h->points), free(h->axes), free(h->plot_x), free(h->plot_series);
	free(h->plot_y), free(h->plot_logx), free(h->columns);
	memset(h, 0, sizeof(*h));
}

/* Read one line without its '\n' into a growing buffer; false at EOF. */
static bool read_line(FILE *f, char **buf, size_t *cap)
{
	size_t n = 0;
	int c;
	while ((c = fgetc(f)) != EOF && c != '\n') {
		if (n + 1 >= *cap) {
			*cap = *cap ? *cap * 2 : 1024;
			*buf = realloc(*buf, *cap);
			RS_ASSERT(*buf != NULL);
		}
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && n == 0)
		return false;
	if (!*buf) {
		*cap = 1024;
		*buf = malloc(*cap);
		RS_ASSERT(*buf != NULL);
	}
	(*buf)[n] = '\0';
	return true;
}

static int read_head(FILE *f, const char *file, struct shard_head *h, char **line,
		     size_t *cap)
{
	if (!read_line(f, line, cap) || strcmp(*line, SHARD_MAGIC) != 0) {
		fprintf(stderr, "raidsim: merge: %s: not a shard file (written by "
				"'raidsim run --shard K/N')\n", file);
		return -1;
	}
	while (read_line(f, line, cap)) {
		if ((*line)[0] != '#') {
			h->columns = strdup(*line);
			break;
		}
		char *tab = strchr(*line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		const char *key = *line + 1, *v = tab + 1;
		char **slot = !strcmp(key, "name") ? &h->name
			: !strcmp(key, "scenario") ? &h->scenario
			: !strcmp(key, "seed") ? &h->seed
			: !strcmp(key, "fingerprint") ? &h->fingerprint
			: !strcmp(key, "points") ? &h->points
			: !strcmp(key, "axes") ? &h->axes
			: !strcmp(key, "plot_x") ? &h->plot_x
			: !strcmp(key, "plot_series") ? &h->plot_series
			: !strcmp(key, "plot_y") ? &h->plot_y
			: !strcmp(key, "plot_logx") ? &h->plot_logx : NULL;
		if (slot) {
			free(*slot);
			*slot = strdup(v);
		} else if (!strcmp(key, "shard") && rs_shard_parse(v, &h->k, &h->n) != 0) {
			fprintf(stderr, "raidsim: merge: %s: bad shard line '%s'\n", file, v);
			return -1;
		}
	}
	if (!h->name || !h->fingerprint || !h->points || !h->axes || !h->n || !h->columns ||
	    strncmp(h->columns, "point\t", 6) != 0) {
		fprintf(stderr, "raidsim: merge: %s: truncated or damaged shard header\n", file);
		return -1;
	}
	return 0;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Whether h belongs to the same sweep as the first shard. */
static int check_same_sweep(const struct shard_head *h, const struct shard_head *h0,
			    const char *file, const char *file0)
{
	const char *what = !same(h->fingerprint, h0->fingerprint) ? "scenario (fingerprint)"
		: h->n != h0->n ? "number of shards"
		: !same(h->points, h0->points) ? "number of points"
		: !same(h->columns, h0->columns) ? "columns"
		: !same(h->name, h0->name) || !same(h->seed, h0->seed) ? "name or seed"
		: !same(h->plot_x, h0->plot_x) || !same(h->plot_series, h0->plot_series) ||
		  !same(h->plot_y, h0->plot_y) || !same(h->plot_logx, h0->plot_logx)
			? "plot settings" : NULL;
	if (!what)
		return 0;
	fprintf(stderr, "raidsim: merge: %s and %s are shards of different sweeps "
			"(their %s differ)\n", file0, file, what);
	return -1;
}

/* Split a line at TABs into the table row (the first cell, the point
 * index, is returned instead). */
static int add_row(struct rs_table *t, char *line, size_t *point)
{
	char *tab = strchr(line, '\t');
	char *end;
	if (!tab)
		return -1;
	*tab = '\0';
	*point = (size_t)strtoull(line, &end, 10);
	if (end == line || *end)
		return -1;
	size_t row = rs_table_add_row(t), col = 0;
	for (char *cell = tab + 1; cell; col++) {
		char *next = strchr(cell, '\t');
		if (next)
			*next = '\0';
		if (col < t->ncols)
			rs_table_set(t, row, col, cell);
		cell = next ? next + 1 : NULL;
	}
	return col == t->ncols ? 0 : -1;
}

struct merged {
	struct rs_table t;            /* rows in the order read */
	size_t *point_of_row;
	const char **file_of_point;   /* which file gave each point */
};

int rs_shard_merge(char *const *files, size_t nfiles, const char *out_dir, bool plot,
		   bool quiet)
{
	struct shard_head h0 = { 0 }, h = { 0 };
	const char **file_of_shard = NULL;
	struct merged m = { 0 };
	char *line = NULL;
	size_t cap = 0, npoints = 0;
	int rc = 2;
	rs_table_init(&m.t);
	for (size_t fi = 0; fi < nfiles; fi++) {
		FILE *f = fopen(files[fi], "r");
		if (!f) {
			fprintf(stderr, "raidsim: merge: cannot read '%s'\n", files[fi]);
			goto out;
		}
		struct shard_head *hp = fi == 0 ? &h0 : &h;
		head_free(&h);
		if (read_head(f, files[fi], hp, &line, &cap) != 0 ||
		    (fi > 0 && check_same_sweep(&h, &h0, files[fi], files[0]) != 0)) {
			fclose(f);
			goto out;
		}
		if (fi == 0) {
			npoints = (size_t)strtoull(h0.points, NULL, 10);
			file_of_shard = calloc(h0.n, sizeof(*file_of_shard));
			m.file_of_point = calloc(npoints ? npoints : 1, sizeof(*m.file_of_point));
			RS_ASSERT(file_of_shard != NULL && m.file_of_point != NULL);
			size_t naxes = (size_t)strtoull(h0.axes, NULL, 10), c = 0;
			char *cols = strdup(h0.columns + 6);
			for (char *s = cols; s; c++) {
				char *next = strchr(s, '\t');
				if (next)
					*next = '\0';
				rs_table_add_col(&m.t, s, c < naxes);
				s = next ? next + 1 : NULL;
			}
			free(cols);
		}
		if (file_of_shard[hp->k]) {
			fprintf(stderr, "raidsim: merge: shard %u/%u given twice: %s and %s\n",
				hp->k, hp->n, file_of_shard[hp->k], files[fi]);
			fclose(f);
			goto out;
		}
		file_of_shard[hp->k] = files[fi];
		while (read_line(f, &line, &cap)) {
			size_t p = 0;
			if (add_row(&m.t, line, &p) != 0 || p >= npoints || p % hp->n != hp->k) {
				fprintf(stderr, "raidsim: merge: %s: damaged row (point %zu)\n",
					files[fi], p);
				fclose(f);
				goto out;
			}
			if (m.file_of_point[p]) {
				fprintf(stderr, "raidsim: merge: point %zu is twice in %s\n", p,
					files[fi]);
				fclose(f);
				goto out;
			}
			m.file_of_point[p] = files[fi];
			m.point_of_row = realloc(m.point_of_row,
						 m.t.nrows * sizeof(*m.point_of_row));
			RS_ASSERT(m.point_of_row != NULL);
			m.point_of_row[m.t.nrows - 1] = p;
		}
		fclose(f);
	}
	if (nfiles == 0) {
		fprintf(stderr, "raidsim: merge: no shard files given\n");
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
	for (size_t p = 0; p < npoints; p++)
		if (!m.file_of_point[p]) {
			fprintf(stderr, "raidsim: merge: point %zu is in no shard (shard %zu/%u is "
					"incomplete)\n", p, p % h0.n, h0.n);
			goto out;
		}
	/* Rows in point order: the order a single run writes. */
	struct rs_table sorted;
	rs_table_init(&sorted);
	for (size_t c = 0; c < m.t.ncols; c++)
		rs_table_add_col(&sorted, m.t.cols[c], m.t.col_is_axis[c]);
	size_t *row_of_point = malloc((npoints ? npoints : 1) * sizeof(*row_of_point));
	RS_ASSERT(row_of_point != NULL);
	for (size_t r = 0; r < m.t.nrows; r++)
		row_of_point[m.point_of_row[r]] = r;
	for (size_t p = 0; p < npoints; p++) {
		size_t row = rs_table_add_row(&sorted);
		for (size_t c = 0; c < m.t.ncols; c++)
			rs_table_set(&sorted, row, c, rs_table_get(&m.t, row_of_point[p], c));
	}
	free(row_of_point);
	struct rs_results_meta meta = {
		.out_name = h0.name, .scenario = h0.scenario,
		.seed = h0.seed ? strtoull(h0.seed, NULL, 10) : 1,
		.plot_x = h0.plot_x, .plot_series = h0.plot_series, .plot_y = h0.plot_y,
		.plot_logx = h0.plot_logx ? atoi(h0.plot_logx) : -1,
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
	rc = rs_results_write(&sorted, &meta, out_dir, plot, quiet) == 0 ? 0 : 1;
	rs_table_free(&sorted);
out:
	head_free(&h0);
	head_free(&h);
	free(line);
	free(file_of_shard);
	free(m.file_of_point);
	free(m.point_of_row);
	rs_table_free(&m.t);
	return rc;
}
