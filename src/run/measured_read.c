/* Reading FOLDER/measured.tsv and checking its keys against the study's
 * scenarios, before anything runs (run/measured.h). */
#include "run/measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "report/table.h"
#include "run/results.h"
#include "run/scenario.h"

#define NCOLS 6

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	RS_ASSERT(d != NULL);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *dup(const char *s)
{
	return dupn(s, strlen(s));
}

/* A table path: relative, inside the output folder, ending in .tsv. */
static bool table_path_ok(const char *t)
{
	size_t n = strlen(t);
	if (n < 5 || t[0] == '/' || strcmp(t + n - 4, ".tsv") != 0 || strchr(t, ' '))
		return false;
	for (const char *p = t; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
		if (strncmp(p, "../", 3) == 0 || strncmp(p, "./", 2) == 0)
			return false;
	return true;
}

static int parse_table(struct rs_measured_row *r, const char *text, struct rs_diag *d,
		       const char *path, int col)
{
	const char *bar = strstr(text, " / ");
	r->table = bar ? dupn(text, (size_t)(bar - text)) : dup(text);
	r->den_table = bar ? dup(bar + 3) : NULL;
	if (!table_path_ok(r->table) || (r->den_table && !table_path_ok(r->den_table)))
		return rs_diag_at(d, path, r->line, col,
				  "expected a table of the study's output folder, TABLE.tsv "
				  "or NUM.tsv / DEN.tsv (a relative path), found '%s'", text);
	return 0;
}

static int parse_point(struct rs_measured_row *r, const char *text, struct rs_diag *d,
		       const char *path, int col)
{
	const char *p = text;
	bool ratio = r->den_table != NULL;
	while (*p) {
		size_t skip = strspn(p, " ");
		p += skip;
		if (!*p)
			break;
		size_t len = strcspn(p, " ");
		int at = col + (int)(p - text);
		const char *eq = memchr(p, '=', len);
		if (!eq || eq == p || eq == p + len - 1)
			return rs_diag_at(d, path, r->line, at,
					  "expected COLUMN=VALUE (or '-' for no point), found '%.*s'",
					  (int)len, p);
		r->pairs = realloc(r->pairs, (r->npairs + 1) * sizeof(*r->pairs));
		RS_ASSERT(r->pairs != NULL);
		struct rs_measured_pair *q = &r->pairs[r->npairs++];
		q->col = dupn(p, (size_t)(eq - p));
		q->offset = (int)(p - text);
		q->val = dupn(eq + 1, (size_t)(p + len - eq - 1));
		q->den = NULL;
		char *slash = strchr(q->val, '/');
		if (slash) {
			if (ratio)
				return rs_diag_at(d, path, r->line, at,
						  "expected one ratio per key (a ratio of tables or "
						  "one COLUMN=A/B), found a second in '%.*s'",
						  (int)len, p);
			ratio = true;
			*slash = '\0';
			q->den = dup(slash + 1);
			if (!q->val[0] || !q->den[0] || strchr(q->den, '/'))
				return rs_diag_at(d, path, r->line, at,
						  "expected COLUMN=A/B, found '%.*s'", (int)len, p);
		}
		p += len;
	}
	return 0;
}

static int parse_metric(struct rs_measured_row *r, const char *text, struct rs_diag *d,
			const char *path, int col)
{
	size_t n = strlen(text);
	r->pick = RS_PICK_ONE;
	const char *inner = text;
	size_t len = n;
	if ((strncmp(text, "max(", 4) == 0 || strncmp(text, "min(", 4) == 0) && n > 5 &&
	    text[n - 1] == ')') {
		r->pick = text[1] == 'a' ? RS_PICK_MAX : RS_PICK_MIN;
		inner = text + 4;
		len = n - 5;
	}
	if (len == 0 || strcspn(inner, " ()=/") < len)
		return rs_diag_at(d, path, r->line, col,
				  "expected a result column, max(COLUMN) or min(COLUMN), found '%s'",
				  text);
	r->metric = dupn(inner, len);
	return 0;
}

static int parse_line(struct rs_measured_row *r, char *line, const char *path,
		      struct rs_diag *d)
{
	char *f[NCOLS + 1];
	int col[NCOLS + 1];
	size_t n = 0;
	for (char *p = line;;) {
		if (n <= NCOLS) {
			f[n] = p;
			col[n] = (int)(p - line) + 1;
		}
		n++;
		char *tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n != NCOLS)
		return rs_diag_at(d, path, r->line, n > NCOLS ? col[NCOLS] : 1,
				  "expected %d tab-separated columns (table, point, metric, value, "
				  "unit, source), found %zu", NCOLS, n);
	static const char *const what[NCOLS] = { "a table", "a point", "a metric",
						 "a value", "a unit", "a source" };
	for (size_t i = 0; i < NCOLS; i++)
		if (!f[i][0])
			return rs_diag_at(d, path, r->line, col[i], "expected %s, found an empty "
					  "column", what[i]);
	r->table_text = dup(f[0]);
	r->point_text = dup(f[1]);
	r->metric_text = dup(f[2]);
	r->value_text = dup(f[3]);
	r->unit = dup(f[4]);
	r->source = dup(f[5]);
	if (!rs_table_number(f[3], &r->value) || r->value == 0 || !isfinite(r->value))
		return rs_diag_at(d, path, r->line, col[3],
				  "expected the measured value, a non-zero number, found '%s'", f[3]);
	if (parse_table(r, f[0], d, path, col[0]) != 0)
		return -1;
	if (strcmp(f[1], "-") != 0 && parse_point(r, f[1], d, path, col[1]) != 0)
		return -1;
	return parse_metric(r, f[2], d, path, col[2]);
}

int rs_measured_read(const char *path, struct rs_measured *m, struct rs_diag *d)
{
	memset(m, 0, sizeof(*m));
	m->path = dup(path);
	FILE *f = fopen(path, "r");
	if (!f)
		return rs_diag_at(d, path, 0, 0, "cannot read the file");
	char line[8192];
	int lineno = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		size_t len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			rc = rs_diag_at(d, path, lineno, 1, "expected a line of at most %zu bytes",
					sizeof(line) - 2);
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		m->rows = realloc(m->rows, (m->n + 1) * sizeof(*m->rows));
		RS_ASSERT(m->rows != NULL);
		struct rs_measured_row *r = &m->rows[m->n++];
		memset(r, 0, sizeof(*r));
		r->line = lineno;
		rc = parse_line(r, line, path, d);
	}
	fclose(f);
	return rc;
}

/* ---- the keys against the scenarios ------------------------------------- */

/* The scenarios a file names, each loaded once. */
struct loaded {
	char *name, *yaml;
	struct rs_scenario sc;
};

/* NAME of a table path: its file name without .tsv; *series is set to the
 * point of a time series NAME.series.K.tsv, else -1. */
static char *table_name(const char *table, long *series)
{
	const char *base = strrchr(table, '/');
	base = base ? base + 1 : table;
	char *name = dupn(base, strlen(base) - 4);
	*series = -1;
	char *s = strstr(name, ".series.");
	if (s) {
		char *end;
		long k = strtol(s + 8, &end, 10);
		if (*end == '\0' && end != s + 8 && k >= 0) {
			*series = k;
			*s = '\0';
		}
	}
	return name;
}

static const char *const series_cols[] = { "t_s", "iops", "mib_s", "errors", "errors_total",
					   NULL };

static bool is_series_metric(const char *c)
{
	for (size_t i = 1; series_cols[i]; i++)
		if (strcmp(series_cols[i], c) == 0)
			return true;
	return false;
}

static const struct rs_sweep_axis *find_axis(const struct rs_scenario *sc, const char *col)
{
	for (size_t a = 0; a < sc->sweep.naxes; a++)
		if (strcmp(sc->sweep.axes[a].path, col) == 0)
			return &sc->sweep.axes[a];
	return NULL;
}

static bool axis_has(const struct rs_sweep_axis *ax, const char *v)
{
	for (size_t i = 0; i < ax->count; i++)
		if (ax->values[i]->kind == RS_NODE_SCALAR && strcmp(ax->values[i]->str, v) == 0)
			return true;
	return false;
}

static bool positive_number(const char *v)
{
	double x;
	return rs_table_number(v, &x) && x > 0;
}

/* The row's axis columns: what a ratio keeps equal between its two
 * points and what a single value must name. */
static void set_axes(struct rs_measured_row *r, const struct rs_scenario *sc, long series)
{
	r->naxes = series >= 0 ? 1 : sc->sweep.naxes;
	r->axes = calloc(r->naxes ? r->naxes : 1, sizeof(char *));
	RS_ASSERT(r->axes != NULL);
	for (size_t a = 0; a < r->naxes; a++)
		r->axes[a] = dup(series >= 0 ? "t_s" : sc->sweep.axes[a].path);
}

static int check_row(struct rs_measured *m, struct rs_measured_row *r, const char *folder,
		     const struct rs_model_path *mp, struct loaded **cache, size_t *ncache,
		     struct rs_diag *d)
{
	long series = -1, den_series = -1;
	char *name = table_name(r->table, &series);
	if (r->den_table) {
		char *den = table_name(r->den_table, &den_series);
		bool same = strcmp(den, name) == 0 && den_series == series;
		free(den);
		if (!same) {
			free(name);
			return rs_diag_at(d, m->path, r->line, 1,
					  "expected two tables of one scenario in NUM.tsv / DEN.tsv, "
					  "found '%s'", r->table_text);
		}
	}
	struct rs_scenario *sc = NULL;
	for (size_t i = 0; i < *ncache && !sc; i++)
		if (strcmp((*cache)[i].name, name) == 0)
			sc = &(*cache)[i].sc;
	if (!sc) {
		char yaml[4400];
		snprintf(yaml, sizeof(yaml), "%s/%s.yaml", folder, name);
		FILE *probe = fopen(yaml, "r");
		if (!probe) {
			rs_diag_at(d, m->path, r->line, 1,
				   "expected a table a scenario of this study writes, found '%s' "
				   "(no %s.yaml beside this file)", r->table, name);
			free(name);
			return -1;
		}
		fclose(probe);
		*cache = realloc(*cache, (*ncache + 1) * sizeof(**cache));
		RS_ASSERT(*cache != NULL);
		struct loaded *l = &(*cache)[(*ncache)++];
		memset(l, 0, sizeof(*l));
		l->name = name;
		l->yaml = dup(yaml);
		/* The scenario's own diagnostic says what is wrong in it. */
		if (rs_scenario_load(&l->sc, l->yaml, NULL, 0, mp, d) != 0)
			return -1;
		sc = &l->sc;
		if (strcmp(sc->out_name, name) != 0)
			return rs_diag_at(d, m->path, r->line, 1,
					  "expected a table a scenario of this study writes, found "
					  "'%s' (%s.yaml writes %s.tsv)", r->table, name, sc->out_name);
	} else {
		free(name);
	}
	if (series >= 0 && (sc->series_ns == 0 || (size_t)series >= sc->npoints))
		return rs_diag_at(d, m->path, r->line, 1,
				  "expected a time series the scenario writes, found '%s' (it %s)",
				  r->table, sc->series_ns == 0 ? "has no output.timeseries"
							       : "has fewer points");
	set_axes(r, sc, series);

	/* The point: axes of the scenario, values of the axes. */
	int pcol = (int)strlen(r->table_text) + 2;
	for (size_t i = 0; i < r->npairs; i++) {
		const struct rs_measured_pair *q = &r->pairs[i];
		int at = pcol + q->offset;
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->pairs[j].col, q->col) == 0)
				return rs_diag_at(d, m->path, r->line, at,
						  "expected each column once in the point, found "
						  "'%s' twice", q->col);
		if (series >= 0) {
			if (strcmp(q->col, "t_s") != 0)
				return rs_diag_at(d, m->path, r->line, at,
						  "expected t_s=SECONDS in the point of a time "
						  "series, found '%s'", q->col);
			if (!positive_number(q->val) || (q->den && !positive_number(q->den)))
				return rs_diag_at(d, m->path, r->line, at,
						  "expected t_s=SECONDS (a positive number), found "
						  "'%s'", q->val);
			continue;
		}
		const struct rs_sweep_axis *ax = find_axis(sc, q->col);
		if (!ax)
			return rs_diag_at(d, m->path, r->line, at,
					  "expected a sweep axis of %s.yaml, found '%s'", sc->name,
					  q->col);
		const char *bad = !axis_has(ax, q->val) ? q->val
				  : q->den && !axis_has(ax, q->den) ? q->den : NULL;
		if (bad)
			return rs_diag_at(d, m->path, r->line, at,
					  "expected one of the values of %s in %s.yaml, found '%s'",
					  q->col, sc->name, bad);
	}

	/* The metric: a column of the table; one row unless max() or min(). */
	int mcol = pcol + (int)strlen(r->point_text) + 1;
	bool known = series >= 0 ? is_series_metric(r->metric)
				 : rs_results_has_column(sc, r->metric) && !find_axis(sc, r->metric);
	if (!known)
		return rs_diag_at(d, m->path, r->line, mcol,
				  "expected a result column of %s, found '%s'", r->table,
				  r->metric);
	if (r->pick == RS_PICK_ONE) {
		for (size_t a = 0; a < r->naxes; a++) {
			bool named = false;
			for (size_t i = 0; i < r->npairs; i++)
				named = named || strcmp(r->pairs[i].col, r->axes[a]) == 0;
			if (!named)
				return rs_diag_at(d, m->path, r->line, mcol,
						  "expected max(%s) or min(%s), or a point naming "
						  "every axis (%s is missing)", r->metric, r->metric,
						  r->axes[a]);
		}
	}
	return 0;
}

int rs_measured_check(struct rs_measured *m, const char *folder,
		      const struct rs_model_path *mp, struct rs_diag *d)
{
	struct loaded *cache = NULL;
	size_t ncache = 0;
	int rc = 0;
	for (size_t i = 0; i < m->n && rc == 0; i++)
		rc = check_row(m, &m->rows[i], folder, mp, &cache, &ncache, d);
	for (size_t i = 0; i < ncache; i++) {
		rs_scenario_free(&cache[i].sc);
		free(cache[i].name);
		free(cache[i].yaml);
	}
	free(cache);
	return rc;
}

void rs_measured_free(struct rs_measured *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct rs_measured_row *r = &m->rows[i];
		free(r->table_text), free(r->point_text), free(r->metric_text);
		free(r->table), free(r->den_table), free(r->metric);
		free(r->value_text), free(r->unit), free(r->source), free(r->why);
		for (size_t j = 0; j < r->npairs; j++)
			free(r->pairs[j].col), free(r->pairs[j].val), free(r->pairs[j].den);
		free(r->pairs);
		for (size_t j = 0; j < r->naxes; j++)
			free(r->axes[j]);
		free(r->axes);
	}
	free(m->rows);
	free(m->path);
	memset(m, 0, sizeof(*m));
}
