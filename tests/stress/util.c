#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void oom(void)
{
	fprintf(stderr, "random_sets: out of memory\n");
	exit(99);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		oom();
	return p;
}

char *xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	char *s = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void strs_push(struct strs *s, char *owned)
{
	s->v = xrealloc(s->v, (s->len + 2) * sizeof(*s->v));
	s->v[s->len++] = owned;
	s->v[s->len] = NULL;
}

void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->len; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct strs){ 0 };
}

int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

