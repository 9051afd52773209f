/* Small helpers of the stress test: allocation that cannot fail
 * quietly, formatted strings, and growing lists of strings. */
#ifndef STRESS_UTIL_H
#define STRESS_UTIL_H

#include <stddef.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

_Noreturn void oom(void);
void *xrealloc(void *p, size_t n);
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A NULL-terminated list of strings it owns. */
struct strs { size_t len; char **v; };
void strs_push(struct strs *s, char *owned);
void strs_free(struct strs *s);
int str_cmp(const void *a, const void *b);  /* qsort of char * */

#endif
