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
