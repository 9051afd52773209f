/* A results table of already-formatted text cells.
 *
 * The runner formats every number once (rs_fmt_double or its own printf
 * format) and every writer (TSV, JSON, gnuplot) prints those same strings,
 * so the files of one run always agree digit for digit.  Axis columns are
 * the swept parameters; the others are measured results. */
#ifndef RS_REPORT_TABLE_H
#define RS_REPORT_TABLE_H

#include <stddef.h>

struct rs_table {
	size_t ncols, nrows;
	char **cols;                  /* column names, malloc'd */
	char **cells;                 /* nrows * ncols, row-major; NULL = unset */
	unsigned char *col_is_axis;
	size_t row_cap;               /* rows allocated in cells */
};

void rs_table_init(struct rs_table *t);
void rs_table_free(struct rs_table *t);
/* Append a column; rows already present get it unset.  Returns its index. */
size_t rs_table_add_col(struct rs_table *t, const char *name, int is_axis);
/* Append a row of unset cells.  Returns its index. */
size_t rs_table_add_row(struct rs_table *t);
/* Copy text into a cell (replacing what was there); NULL unsets it. */
void rs_table_set(struct rs_table *t, size_t row, size_t col, const char *text);
void rs_table_setf(struct rs_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The cell's text, or NULL if unset. */
const char *rs_table_get(const struct rs_table *t, size_t row, size_t col);
/* Index of the named column, or -1. */
long rs_table_find_col(const struct rs_table *t, const char *name);

/* Compact, locale-independent text for a number: at most 6 significant
 * digits, trailing zeros stripped, "0" for zero, plain decimal notation
 * for 1e-4 <= |v| < 1e15 and d.ddddde+XX outside it, "nan" for every
 * non-finite value (the JSON writer turns that into null).  Needs n >= 24
 * to never truncate. */
void rs_fmt_double(char *buf, size_t n, double v);

/* Whether text is a complete, finite number in JSON syntax
 * (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?); shared by the writers so
 * they agree on what is numeric. */
int rs_table_is_number(const char *text);
/* The same test, also giving the value (independent of LC_NUMERIC). */
int rs_table_number(const char *text, double *value);

#endif
