#include "report/table.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	RS_ASSERT(p != NULL);
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

void rs_table_init(struct rs_table *t)
{
	memset(t, 0, sizeof(*t));
}

void rs_table_free(struct rs_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cells);
	free(t->cols);
	free(t->col_is_axis);
	memset(t, 0, sizeof(*t));
}

size_t rs_table_add_col(struct rs_table *t, const char *name, int is_axis)
{
	size_t old = t->ncols, nc = old + 1;
	t->cols = xrealloc(t->cols, nc * sizeof(*t->cols));
	t->col_is_axis = xrealloc(t->col_is_axis, nc);
	t->cols[old] = xstrdup(name);
	t->col_is_axis[old] = is_axis ? 1 : 0;
	if (t->row_cap > 0) {
		/* Re-lay the rows at the wider stride, last row first so
		 * nothing is overwritten before it has moved. */
		t->cells = xrealloc(t->cells, t->row_cap * nc * sizeof(*t->cells));
		for (size_t r = t->nrows; r-- > 0;) {
			memmove(&t->cells[r * nc], &t->cells[r * old], old * sizeof(*t->cells));
			t->cells[r * nc + old] = NULL;
		}
	}
	t->ncols = nc;
	return old;
}

size_t rs_table_add_row(struct rs_table *t)
{
	if (t->nrows == t->row_cap) {
		t->row_cap = t->row_cap ? 2 * t->row_cap : 16;
		t->cells = xrealloc(t->cells, t->row_cap * t->ncols * sizeof(*t->cells));
	}
	size_t r = t->nrows++;
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[r * t->ncols + c] = NULL;
	return r;
}

void rs_table_set(struct rs_table *t, size_t row, size_t col, const char *text)
{
	RS_ASSERT(row < t->nrows && col < t->ncols);
	char **cell = &t->cells[row * t->ncols + col];
	free(*cell);
	*cell = text ? xstrdup(text) : NULL;
}

void rs_table_setf(struct rs_table *t, size_t row, size_t col, const char *fmt, ...)
{
	RS_ASSERT(row < t->nrows && col < t->ncols);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	RS_ASSERT(n >= 0);
	char *s = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	char **cell = &t->cells[row * t->ncols + col];
	free(*cell);
	*cell = s;
}

const char *rs_table_get(const struct rs_table *t, size_t row, size_t col)
{
	RS_ASSERT(row < t->nrows && col < t->ncols);
	return t->cells[row * t->ncols + col];
}

long rs_table_find_col(const struct rs_table *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c], name) == 0)
			return (long)c;
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int rs_table_number(const char *s, double *value)
{
	const char *p = s;
	if (p == NULL)
		return 0;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (is_digit(*p))
		while (is_digit(*p))
			p++;
	else
		return 0;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return 0;
		while (is_digit(*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(*p))
			return 0;
		while (is_digit(*p))
			p++;
	}
	if (*p != '\0')
		return 0;
	/* Syntax is fine; reject what overflows a double (1e999).  strtod
	 * reads the locale's decimal point, so hand it that one. */
	char tmp[128];
	const char *dp = localeconv()->decimal_point;
	size_t len = (size_t)(p - s), o = 0;
	if (len + 8 > sizeof(tmp))
		return 0;             /* nobody formats a 120-digit number */
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			for (const char *d = dp; *d && o < sizeof(tmp) - 1; d++)
				tmp[o++] = *d;
		else
			tmp[o++] = s[i];
	}
	tmp[o] = '\0';
	double v = strtod(tmp, NULL);
	if (!isfinite(v))
		return 0;
	if (value != NULL)
		*value = v;
	return 1;
}

int rs_table_is_number(const char *text)
{
	return rs_table_number(text, NULL);
}

void rs_fmt_double(char *buf, size_t n, double v)
{
	char tmp[48], out[48];
	if (n == 0)
		return;
	if (!isfinite(v)) {
		snprintf(buf, n, "nan");
		return;
	}
	if (v == 0.0) {
		snprintf(buf, n, "0");
		return;
	}
	/* Let printf do the correct decimal rounding to 6 significant digits,
	 * then take only its digits and exponent: the decimal point it
	 * prints depends on LC_NUMERIC, ours must not. */
	snprintf(tmp, sizeof(tmp), "%.5e", fabs(v));
	char dig[8];
	int nd = 0;
	const char *p = tmp;
	for (; *p && *p != 'e'; p++)
		if (is_digit(*p) && nd < 6)
			dig[nd++] = *p;
	RS_ASSERT(*p == 'e' && nd == 6);
	int exp10 = atoi(p + 1);
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;

	size_t o = 0;
	if (v < 0)
		out[o++] = '-';
	if (exp10 < -4 || exp10 >= 15) {
		out[o++] = dig[0];
		if (nd > 1) {
			out[o++] = '.';
			for (int i = 1; i < nd; i++)
				out[o++] = dig[i];
		}
		snprintf(out + o, sizeof(out) - o, "e%c%02d", exp10 < 0 ? '-' : '+',
			 abs(exp10));
	} else if (exp10 < 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (int i = 0; i < -exp10 - 1; i++)
			out[o++] = '0';
		for (int i = 0; i < nd; i++)
			out[o++] = dig[i];
		out[o] = '\0';
	} else {
		for (int i = 0; i <= exp10; i++)
			out[o++] = i < nd ? dig[i] : '0';
		if (nd > exp10 + 1) {
			out[o++] = '.';
			for (int i = exp10 + 1; i < nd; i++)
				out[o++] = dig[i];
		}
		out[o] = '\0';
	}
	snprintf(buf, n, "%s", out);
}
