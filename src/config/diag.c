/* Diagnostics: keep the first error only, print it GCC-style. */
#include "config/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config/node.h"

void rs_diag_init(struct rs_diag *d)
{
	memset(d, 0, sizeof(*d));
}

static int vdiag(struct rs_diag *d, const char *file, int line, int col,
		 const char *fmt, va_list ap)
{
	/* Later errors are usually consequences of the first: keep it. */
	if (d->failed)
		return -1;
	d->failed = true;
	snprintf(d->file, sizeof(d->file), "%s", file ? file : "");
	d->line = line > 0 ? line : 0;
	d->col = d->line && col > 0 ? col : 0;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	/* A message must stay on one line, whatever text it quotes. */
	for (char *p = d->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return -1;
}

int rs_diag_at(struct rs_diag *d, const char *file, int line, int col,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(d, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int rs_diag_node(struct rs_diag *d, const struct rs_node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (n)
		vdiag(d, n->file, n->line, n->col, fmt, ap);
	else
		vdiag(d, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

void rs_diag_print(const struct rs_diag *d, FILE *out)
{
	const char *file = d->file[0] ? d->file : "raidsim";

	if (!d->failed)
		return;
	/* Editors and CI annotators parse file:line:column, so a file-level
	 * problem (empty, a directory, unreadable) is placed at 1:1. */
	if (d->file[0])
		fprintf(out, "%s:%d:%d: error: %s\n", file, d->line > 0 ? d->line : 1,
			d->col > 0 ? d->col : 1, d->msg);
	else
		fprintf(out, "%s: error: %s\n", file, d->msg);
}
