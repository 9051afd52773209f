#include "run/replot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/diag.h"
#include "config/node.h"
#include "kernel/assert.h"
#include "report/out_lock.h"
#include "report/out_set.h"
#include "report/report.h"
#include "run/plot_choice.h"
#include "run/results.h"

/* The JSON header (everything before "columns") is a few short lines. */
#define HEADER_MAX 65536
/* A table line of NAME.tsv: as long as a point file's row and its axes. */
#define TSV_LINE_MAX (1 << 20)

struct set {
	char name[256];
	struct rs_node *head;         /* the JSON's header as a map */
};

/* The JSON's header lines, up to "columns", as a map: the writer puts
 * each key on a line of its own (report/json.c), so this is JSON too. */
static struct rs_node *read_head(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *text = malloc(HEADER_MAX + 2), line[HEADER_MAX];
	RS_ASSERT(text != NULL);
	size_t n = 0;
	bool complete = false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "  \"columns\": ", 13) == 0) {
			complete = true;
			break;
		}
		size_t len = strlen(line);
		if (n + len >= HEADER_MAX)
			break;
		memcpy(text + n, line, len);
		n += len;
	}
	fclose(f);
	struct rs_node *head = NULL;
	/* Drop the comma after the last key and close the object. */
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ','))
		n--;
	if (complete && n > 0) {
		text[n++] = '}';
		struct rs_diag d;
		rs_diag_init(&d);
		head = rs_yaml_load_string(path, text, n, &d);
		if (head && (head->kind != RS_NODE_MAP || !rs_node_get(head, "raidsim"))) {
			rs_node_free(head);
			head = NULL;
		}
	}
	free(text);
	return head;
}

static bool file_exists(const char *dir, const char *name, const char *ext)
{
	char path[4600];
	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	return access(path, F_OK) == 0;
}

static int cmp_set(const void *a, const void *b)
{
	return strcmp(((const struct set *)a)->name, ((const struct set *)b)->name);
}

/* Every NAME.json of raidsim's with its NAME.tsv, by name. */
static size_t find_sets(const char *dir, struct set **sets)
{
	DIR *d = opendir(dir);
	size_t n = 0, cap = 0;
	*sets = NULL;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len <= 5 || len - 5 >= sizeof((*sets)->name) || e->d_name[0] == '.' ||
		    strcmp(e->d_name + len - 5, ".json") != 0 || rs_out_temporary(e->d_name))
			continue;
		char name[256], path[4600];
		snprintf(name, sizeof(name), "%.*s", (int)(len - 5), e->d_name);
		if (!file_exists(dir, name, ".tsv"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		struct rs_node *head = read_head(path);
		if (!head)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4;
			*sets = realloc(*sets, cap * sizeof(**sets));
			RS_ASSERT(*sets != NULL);
		}
		snprintf((*sets)[n].name, sizeof((*sets)[n].name), "%s", name);
		(*sets)[n++].head = head;
	}
	closedir(d);
	if (n > 1)
		qsort(*sets, n, sizeof(**sets), cmp_set);
	return n;
}

static const char *text_of(const struct rs_node *map, const char *key)
{
	const struct rs_node *v = rs_node_get(map, key);
	return v && v->kind == RS_NODE_SCALAR && strcmp(v->str, "null") != 0 ? v->str : NULL;
}

/* Cells of one TSV line into row (or the header into the columns). */
static size_t split_tabs(char *line, char **cells, size_t max)
{
	size_t n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *c = line; c && n < max; n++) {
		char *tab = strchr(c, '\t');
		if (tab)
			*tab = '\0';
		cells[n] = c;
		c = tab ? tab + 1 : NULL;
	}
	return n;
}

/* NAME.tsv into t, its first `axes` columns the axes.  0, or -1 with why. */
static int read_table(const char *path, size_t axes, struct rs_table *t, char *why, size_t n)
{
	rs_table_init(t);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, n, "cannot read: %s", strerror(errno));
		return -1;
	}
	char *line = malloc(TSV_LINE_MAX);
	enum { MAX_COLS = 4096 };
	char **cells = malloc(MAX_COLS * sizeof(*cells));
	RS_ASSERT(line != NULL && cells != NULL);
	int rc = 0;
	size_t lineno = 0;
	while (rc == 0 && fgets(line, TSV_LINE_MAX, f)) {
		lineno++;
		size_t k = split_tabs(line, cells, MAX_COLS);
		if (lineno == 1) {
			if (k < axes) {
				snprintf(why, n, "the header has %zu columns, fewer than the %zu "
					 "axes the JSON names", k, axes);
				rc = -1;
			}
			for (size_t c = 0; rc == 0 && c < k; c++)
				rs_table_add_col(t, cells[c], c < axes);
			continue;
		}
		if (k != t->ncols) {
			snprintf(why, n, "line %zu has %zu cells, the header %zu", lineno, k,
				 t->ncols);
			rc = -1;
			break;
		}
		size_t row = rs_table_add_row(t);
		for (size_t c = 0; c < k; c++)
			rs_table_set(t, row, c, cells[c]);
	}
	if (rc == 0 && lineno == 0) {
		snprintf(why, n, "empty");
		rc = -1;
	}
	fclose(f);
	free(line);
	free(cells);
	return rc;
}

static int redraw(const char *dir, const struct set *s, bool quiet)
{
	const struct rs_node *plot = rs_node_get(s->head, "plot");
	if (!plot || plot->kind != RS_NODE_MAP || !text_of(plot, "x") || !text_of(plot, "y")) {
		if (!quiet)
			fprintf(stderr, "raidsim: plot: %s/%s: one point (no sweep): no figure to "
					"draw\n", dir, s->name);
		return 0;
	}
	const char *axes_text = text_of(plot, "axes"), *logx = text_of(plot, "logx");
	const char *repeat = text_of(s->head, "repeat");
	struct rs_results_meta m = { 0 };
	m.out_name = s->name;
	m.scenario = text_of(s->head, "scenario");
	m.description = text_of(s->head, "description");
	m.repeat = repeat ? (unsigned)strtoul(repeat, NULL, 10) : 1;
	m.plot_x = text_of(plot, "x");
	m.plot_series = text_of(plot, "series");
	m.plot_y = text_of(plot, "y");
	m.plot_logx = logx ? (int)strtol(logx, NULL, 10) : -1;
	size_t axes = axes_text ? (size_t)strtoul(axes_text, NULL, 10) : 0;
	char tsv[4600], gp[4600], tsv_name[300], png_name[300], gp_name[300], why[256];
	snprintf(tsv_name, sizeof(tsv_name), "%s.tsv", s->name);
	snprintf(png_name, sizeof(png_name), "%s.png", s->name);
	snprintf(gp_name, sizeof(gp_name), "%s.gp", s->name);
	snprintf(tsv, sizeof(tsv), "%s/%s", dir, tsv_name);
	snprintf(gp, sizeof(gp), "%s/%s", dir, gp_name);
	struct rs_table t;
	if (read_table(tsv, axes, &t, why, sizeof(why)) != 0) {
		fprintf(stderr, "raidsim: plot: %s: %s; not a run's table\n", tsv, why);
		rs_table_free(&t);
		return 2;
	}
	int rc = 0;
	struct rs_report_err err;
	if (rs_plot_write(&t, &m, gp, tsv_name, png_name, &err) != 0) {
		fprintf(stderr, "raidsim: plot: %s\n", err.msg);
		rc = 1;
	}
	char msg[512];
	int pr = rc == 0 ? rs_report_render_png(gp_name, dir, msg, sizeof(msg)) : 0;
	if (pr < 0) {
		fprintf(stderr, "raidsim: plot: %s\n", msg);
		rc = 1;
	}
	if (rc == 0 && !quiet) {
		printf("%s\n", gp);
		if (pr == 0)
			printf("%s/%s\n", dir, png_name);
		else
			fprintf(stderr, "raidsim: gnuplot not found; wrote %s only\n", gp);
	}
	rs_table_free(&t);
	return rc;
}

int rs_replot(const char *dir, bool quiet)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "raidsim: plot: cannot open '%s': %s\n", dir, strerror(errno));
		return 2;
	}
	closedir(d);
	struct set *sets;
	size_t n = find_sets(dir, &sets);
	if (n == 0) {
		fprintf(stderr, "raidsim: plot: '%s' is not the output of a run: it holds no "
				"NAME.json written by raidsim run or merge beside its NAME.tsv\n",
			dir);
		return 2;
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		/* Not while a run or merge writes the same set. */
		struct rs_out_lock lock;
		if (rs_out_lock_take(&lock, dir, sets[i].name) != 0) {
			rc = 1;
			break;
		}
		rc = redraw(dir, &sets[i], quiet);
		rs_out_lock_release(&lock);
	}
	for (size_t i = 0; i < n; i++)
		rs_node_free(sets[i].head);
	free(sets);
	return rc;
}
