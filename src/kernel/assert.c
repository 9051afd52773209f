#include "kernel/assert.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void rs_assert_fail(const char *expr, const char *file, int line,
			      const char *func)
{
	fprintf(stderr, "raidsim: internal error: %s:%d: %s: assertion '%s' failed\n",
		file, line, func, expr);
	fflush(stderr);
	abort();
}

_Noreturn void rs_out_of_memory(const char *what)
{
	fprintf(stderr, "raidsim: out of memory: %s\n", what);
	fflush(stderr);
	exit(1);
}
