#include "run/summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/components.h"

static const struct {
	const char *name;
	unsigned bit;
} formats[] = {
	{ "normal", RS_FMT_NORMAL },
	{ "terse", RS_FMT_TERSE },
	{ "tsv", RS_FMT_TSV },
	{ "json", RS_FMT_JSON },
};

int rs_output_formats_parse(const char *arg, unsigned *out, char *why, size_t n)
{
	*out = 0;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t k = 0;
		for (; k < sizeof(formats) / sizeof(formats[0]); k++)
			if (strlen(formats[k].name) == len && strncmp(p, formats[k].name, len) == 0)
				break;
		if (k == sizeof(formats) / sizeof(formats[0])) {
			snprintf(why, n, "--output-format expects a comma-separated list of "
				 "normal, terse, tsv and json, got '%.100s'", arg);
			return -1;
		}
		*out |= formats[k].bit;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static const char *cell(const struct rs_table *t, size_t row, const char *col)
{
	long c = rs_table_find_col(t, col);
	const char *v = c >= 0 ? rs_table_get(t, row, (size_t)c) : NULL;
	return v ? v : "";
}

static double number(const struct rs_table *t, size_t row, const char *col)
{
	double v;
	return rs_table_number(cell(t, row, col), &v) ? v : NAN;
}

/* "a=1 b=2" (normal) or "a=1,b=2" (terse), ';' kept out of terse fields. */
static void put_key(FILE *f, const struct rs_table *t, size_t row, char sep)
{
	bool first = true;
	for (size_t c = 0; c < t->ncols; c++) {
		if (!t->col_is_axis[c])
			continue;
		if (!first)
			fputc(sep, f);
		first = false;
		const char *v = rs_table_get(t, row, c);
		for (const char *s = t->cols[c]; *s; s++)
			fputc(*s == ';' ? ',' : *s, f);
		fputc('=', f);
		for (const char *s = v ? v : ""; *s; s++)
			fputc(*s == ';' ? ',' : *s, f);
	}
}

static bool has_axes(const struct rs_table *t)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->col_is_axis[c])
			return true;
	return false;
}

static void normal_line(FILE *f, const struct rs_table *t, size_t row, const char *label)
{
	fprintf(f, "  %s", label);
	if (has_axes(t)) {
		fputs(" (", f);
		put_key(f, t, row, ' ');
		fputc(')', f);
	}
	if (rs_table_find_col(t, "iops") < 0) {
		/* A workload with columns of its own (cdm, atto): those. */
		for (size_t c = 0; c < t->ncols; c++)
			if (!t->col_is_axis[c])
				fprintf(f, " %s=%s", t->cols[c], cell(t, row, t->cols[c]));
		fputc('\n', f);
		return;
	}
	fprintf(f, ": %s IOPS, %s MB/s, latency mean %s ms, p99 %s ms; limited by %s\n",
		cell(t, row, "iops"), cell(t, row, "mb_s"), cell(t, row, "lat_mean_ms"),
		cell(t, row, "lat_p99_ms"), cell(t, row, RS_LIMITED_BY_COL));
}

static void print_normal(FILE *f, const struct rs_table *t, const char *name)
{
	fprintf(f, "%s: %zu point%s\n", name, t->nrows, t->nrows == 1 ? "" : "s");
	bool all = t->nrows <= RS_SUMMARY_ALL || rs_table_find_col(t, "iops") < 0;
	if (all) {
		for (size_t r = 0; r < t->nrows; r++) {
			char label[32];
			snprintf(label, sizeof(label), "point %zu", r);
			normal_line(f, t, r, label);
		}
		return;
	}
	/* Many points: the best and the worst by IOPS (first of equals). */
	size_t best = 0, worst = 0;
	for (size_t r = 1; r < t->nrows; r++) {
		double v = number(t, r, "iops");
		if (v > number(t, best, "iops"))
			best = r;
		if (v < number(t, worst, "iops"))
			worst = r;
	}
	char label[48];
	snprintf(label, sizeof(label), "best, point %zu", best);
	normal_line(f, t, best, label);
	snprintf(label, sizeof(label), "worst, point %zu", worst);
	normal_line(f, t, worst, label);
}

static void terse_field(FILE *f, const char *s)
{
	fputc(';', f);
	for (; *s; s++)
		fputc(*s == ';' ? ',' : *s, f);
}

static void print_terse(FILE *f, const struct rs_table *t, const char *name)
{
	static const char *const cols[] = { "iops", "mb_s", "lat_mean_ms", "lat_p99_ms",
					    RS_LIMITED_BY_COL, NULL };
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("raidsim;1", f);
		terse_field(f, name);
		fprintf(f, ";%zu;", r);
		put_key(f, t, r, ',');
		for (size_t k = 0; cols[k]; k++)
			terse_field(f, cell(t, r, cols[k]));
		fputc('\n', f);
	}
}

static void copy_file(FILE *f, const char *out_dir, const char *name, const char *ext)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s%s", out_dir, name, ext);
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "raidsim: cannot read %s\n", path);
		return;
	}
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, f);
	fclose(in);
}

void rs_summary_print(const struct rs_table *t, const char *name, const char *out_dir,
		      unsigned fmt)
{
	if (fmt & RS_FMT_NORMAL)
		print_normal(stdout, t, name);
	if (fmt & RS_FMT_TERSE)
		print_terse(stdout, t, name);
	if (fmt & RS_FMT_TSV)
		copy_file(stdout, out_dir, name, ".tsv");
	if (fmt & RS_FMT_JSON)
		copy_file(stdout, out_dir, name, ".json");
	fflush(stdout);
}
