#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/out.h"
#include "report/report.h"

/* RFC 8259 string: quote, backslash and control characters escaped; other
 * bytes (UTF-8 text) go through unchanged. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void put_value(FILE *f, const char *cell)
{
	if (cell == NULL || strcmp(cell, "nan") == 0)
		fputs("null", f);
	else if (rs_table_is_number(cell))
		fputs(cell, f);
	else
		put_string(f, cell);
}

/* The parts of point row r: the next rows of meta->parts that belong to
 * it (they come in row order). */
static void put_parts(FILE *f, const struct rs_report_meta *meta, size_t r, size_t *next)
{
	const struct rs_table *p = meta->parts;
	fputs(", \"components\": [", f);
	for (bool first = true; *next < p->nrows && meta->parts_row_of[*next] == r; (*next)++) {
		fputs(first ? "{" : ", {", f);
		first = false;
		bool firstcol = true;
		for (size_t c = 0; c < p->ncols; c++) {
			if (p->col_is_axis[c])
				continue;
			if (!firstcol)
				fputs(", ", f);
			firstcol = false;
			put_string(f, p->cols[c]);
			fputs(": ", f);
			put_value(f, rs_table_get(p, *next, c));
		}
		fputc('}', f);
	}
	fputc(']', f);
}

int rs_report_write_json(const struct rs_table *t, const char *path,
			 const struct rs_report_meta *meta, struct rs_report_err *err)
{
	struct rs_report_out o;
	if (rs_report_out_open(&o, path, err) != 0)
		return -1;
	FILE *f = o.f;
	fputs("{\n  \"raidsim\": ", f);
	put_string(f, meta->version ? meta->version : "unknown");
	fputs(",\n  \"scenario\": ", f);
	if (meta->scenario)
		put_string(f, meta->scenario);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"seed\": %" PRIu64, meta->seed);
	if (meta->repeat > 1)
		fprintf(f, ",\n  \"repeat\": %u", meta->repeat);
	if (meta->description) {
		fputs(",\n  \"description\": ", f);
		put_string(f, meta->description);
	}
	if (meta->plot_x) {
		fputs(",\n  \"plot\": {\"x\": ", f);
		put_string(f, meta->plot_x);
		if (meta->plot_series) {
			fputs(", \"series\": ", f);
			put_string(f, meta->plot_series);
		}
		fputs(", \"y\": ", f);
		put_string(f, meta->plot_y ? meta->plot_y : "");
		fprintf(f, ", \"logx\": %d, \"axes\": %zu}", meta->plot_logx, meta->axes);
	}
	fputs(",\n  \"columns\": [", f);
	for (size_t c = 0; c < t->ncols; c++) {
		if (c > 0)
			fputs(", ", f);
		put_string(f, t->cols[c]);
	}
	fputs("],\n  \"points\": [", f);
	size_t next_part = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(r > 0 ? ",\n    {" : "\n    {", f);
		for (size_t c = 0; c < t->ncols; c++) {
			if (c > 0)
				fputs(", ", f);
			put_string(f, t->cols[c]);
			fputs(": ", f);
			put_value(f, rs_table_get(t, r, c));
		}
		if (meta->parts)
			put_parts(f, meta, r, &next_part);
		fputc('}', f);
	}
	fputs(t->nrows > 0 ? "\n  ]\n}\n" : "]\n}\n", f);
	return rs_report_out_commit(&o, err);
}
