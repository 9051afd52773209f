#include <stdio.h>

#include "report/out.h"
#include "report/report.h"

/* TAB and line ends would shift columns or split rows. */
static void put_field(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

int rs_report_write_tsv(const struct rs_table *t, const char *path,
			struct rs_report_err *err)
{
	struct rs_report_out o;
	if (rs_report_out_open(&o, path, err) != 0)
		return -1;
	for (size_t c = 0; c < t->ncols; c++) {
		if (c > 0)
			fputc('\t', o.f);
		put_field(o.f, t->cols[c]);
	}
	fputc('\n', o.f);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c > 0)
				fputc('\t', o.f);
			put_field(o.f, rs_table_get(t, r, c));
		}
		fputc('\n', o.f);
	}
	return rs_report_out_commit(&o, err);
}
