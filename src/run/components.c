#include "run/components.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/assert.h"
#include "report/out_stream.h"

const char *const rs_component_cols[] = {
	"component", "kind", "utilisation", "ops_s", "time_ms", "service_ms", "queue_ms", NULL
};
#define NPART_COLS 7

const char *rs_limited_by(const struct rs_components *c)
{
	const struct rs_component *best = NULL;
	for (size_t i = 0; i < c->n; i++) {
		const struct rs_component *p = &c->v[i];
		if (strcmp(p->kind, "array") == 0 || strcmp(p->kind, "composite") == 0 ||
		    isnan(p->utilisation) ||
		    p->utilisation <= RS_LIMIT_UTILISATION)
			continue;
		if (!best || p->utilisation > best->utilisation)
			best = p;
	}
	return best ? best->name : RS_LIMITED_BY_WORKLOAD;
}

static void part_path(char *buf, size_t n, const char *dir, const char *out_name, size_t i)
{
	snprintf(buf, n, "%s/%s.components.%zu.part", dir, out_name, i);
}

/* Names come from the scenario (a device's name): no TAB or line end may
 * break the layout. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

int rs_components_save(const char *dir, const char *out_name, size_t i,
		       const struct rs_components *c)
{
	char path[8400];
	struct rs_out_stream s;
	struct rs_report_err err;
	part_path(path, sizeof(path), dir, out_name, i);
	if (rs_out_stream_open(&s, path, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	for (size_t k = 0; k < c->n; k++) {
		const struct rs_component *p = &c->v[k];
		double v[] = { p->utilisation, p->ops_s, p->time_ms, p->service_ms, p->queue_ms };
		put_name(s.f, p->name);
		fprintf(s.f, "\t%s", p->kind);
		for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
			char cell[32];
			rs_fmt_double(cell, sizeof(cell), v[j]);
			fprintf(s.f, "\t%s", cell);
		}
		fputc('\n', s.f);
	}
	if (rs_out_stream_commit(&s, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	return 0;
}

bool rs_components_saved(const char *dir, const char *out_name, size_t i)
{
	char path[8400];
	part_path(path, sizeof(path), dir, out_name, i);
	return access(path, F_OK) == 0;
}

/* One line of a part file into row of parts, after the key columns. */
static int add_line(struct rs_table *parts, size_t row, size_t col, char *line)
{
	size_t k = 0;
	for (char *cell = line; cell && k < NPART_COLS; k++) {
		char *tab = strchr(cell, '\t');
		if (tab)
			*tab = '\0';
		rs_table_set(parts, row, col + k, cell);
		cell = tab ? tab + 1 : NULL;
	}
	return k == NPART_COLS ? 0 : -1;
}

int rs_components_gather(const char *dir, const char *out_name, const struct rs_table *t,
			 const size_t *point_of_row, struct rs_table *parts, size_t **row_of)
{
	rs_table_init(parts);
	size_t nkey = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (t->col_is_axis[c]) {
			rs_table_add_col(parts, t->cols[c], 1);
			nkey++;
		}
	for (size_t k = 0; rs_component_cols[k]; k++)
		rs_table_add_col(parts, rs_component_cols[k], 0);
	size_t cap = 16, n = 0;
	*row_of = malloc(cap * sizeof(**row_of));
	RS_ASSERT(*row_of != NULL);
	char line[1024];
	for (size_t r = 0; r < t->nrows; r++) {
		char path[8400];
		part_path(path, sizeof(path), dir, out_name, point_of_row[r]);
		FILE *f = fopen(path, "r");
		if (!f) {
			if (errno == ENOENT)
				continue;
			fprintf(stderr, "raidsim: %s: %s\n", path, strerror(errno));
			return -1;
		}
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			size_t row = rs_table_add_row(parts);
			size_t col = 0;
			for (size_t c = 0; c < t->ncols; c++)
				if (t->col_is_axis[c])
					rs_table_set(parts, row, col++, rs_table_get(t, r, c));
			if (add_line(parts, row, nkey, line) != 0) {
				fprintf(stderr, "raidsim: %s: damaged line %zu\n", path, n + 1);
				fclose(f);
				return -1;
			}
			if (n == cap) {
				cap *= 2;
				*row_of = realloc(*row_of, cap * sizeof(**row_of));
				RS_ASSERT(*row_of != NULL);
			}
			(*row_of)[n++] = r;
		}
		fclose(f);
	}
	return 0;
}
