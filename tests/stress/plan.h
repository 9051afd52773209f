/* One run of the campaign planned: which scenario, and the --set
 * assignments that pin its sweep, shorten it and change its values. */
#ifndef STRESS_PLAN_H
#define STRESS_PLAN_H

#include "corpus.h"

/* The assignments, one per path, in the order first set. */
struct sets { struct strs path, value; };
void sets_free(struct sets *s);

/* Run RUN of the campaign of SEED: its scenario's index in C, and S filled.
 * Depends on nothing but its arguments. */
size_t plan_run(const struct corpus *c, unsigned long long seed, unsigned long run,
		struct sets *s);

#endif
