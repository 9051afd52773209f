/* The mutation rules of the stress test: a value of a scenario or model
 * changed into one that is odd but may well be valid, the way a user's
 * typo or a careless edit would change it. */
#ifndef STRESS_MUTATE_H
#define STRESS_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* splitmix64: the whole campaign follows from one seed, on any libc. */
struct rng { uint64_t s; };
uint64_t rng_next(struct rng *r);
size_t rng_below(struct rng *r, size_t n);  /* 0 .. n-1 */
double rng_unit(struct rng *r);             /* [0, 1) */

/* Every value seen in the shipped files, by the last part of its key: what
 * an enumeration may be replaced with. */
struct seen {
	size_t len, cap;
	struct seen_pair { char *key, *value; } *pairs;
	bool sorted;
};
void seen_add(struct seen *s, const char *key, const char *value);
void seen_free(struct seen *s);

/* A new text for the value TEXT (QUOTED as written) of KEY (a dotted path;
 * its last part picks the enumeration's values).  The caller frees it. */
char *mutate_value(struct rng *r, struct seen *s, const char *key, const char *text,
		   bool quoted);

/* A time ("150s", "0.5ms", a bare number of seconds) in seconds, or a
 * negative number if TEXT is not one. */
double parse_seconds(const char *text);

#endif
