/* Diagnostics for bad input.
 *
 * Every error in a scenario or model file is reported GCC-style, with the
 * position of the offending node (lines and columns from 1) and, where it
 * helps, the value quoted:
 *
 *   scenarios/x.yaml:14:9: error: unknown key 'stirpe' (did you mean 'strip'?)
 *
 * The first error wins; later ones are usually consequences of it. */
#ifndef RS_CONFIG_DIAG_H
#define RS_CONFIG_DIAG_H

#include <stdbool.h>
#include <stdio.h>

struct rs_diag {
	bool failed;
	char file[512];
	int line, col;                /* 0 when the error has no position */
	char msg[1024];
};

struct rs_node;

void rs_diag_init(struct rs_diag *d);
/* Record an error at file:line:col unless one is already recorded.
 * Always returns -1 so callers can `return rs_diag_at(...)`. */
int rs_diag_at(struct rs_diag *d, const char *file, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Same, at a node's position. */
int rs_diag_node(struct rs_diag *d, const struct rs_node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "file:line:col: error: msg\n" (or "file: error: msg" without a position). */
void rs_diag_print(const struct rs_diag *d, FILE *out);

#endif
