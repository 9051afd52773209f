#include "raid/mirror_pick.h"

#include <stdbool.h>

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static bool all_idle(const struct rs_mirror_copy *copy, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (copy[i].outstanding)
			return false;
	return true;
}

/* The copy that owns lba when the range of span blocks is cut into n
 * equal parts. */
static size_t owner(uint64_t span, size_t n, uint64_t lba)
{
	uint64_t part = (span + n - 1) / n;
	size_t i = (size_t)(lba / part);
	return i < n ? i : n - 1;
}

/* Is x a better choice than b for lba?  Equal copies are not better, so
 * the scan keeps the first of them, the next one in turn. */
static bool better(int policy, const struct rs_mirror_copy *x, const struct rs_mirror_copy *b,
		   uint64_t lba)
{
	uint64_t dx = distance(x->head_lba, lba), db = distance(b->head_lba, lba);
	switch (policy) {
	case READ_NEAREST_HEAD:
	case READ_ALTERNATE_NEAREST:
	case READ_ALTERNATE_SPLIT:
		return dx < db || (dx == db && x->outstanding < b->outstanding);
	case READ_ALTERNATE_QUEUE:
		return x->outstanding < b->outstanding ||
		       (x->outstanding == b->outstanding && dx < db);
	default: /* READ_SHORTEST_QUEUE */
		return x->outstanding < b->outstanding;
	}
}

size_t rs_mirror_pick(int policy, const struct rs_mirror_copy *copy, size_t n, uint64_t lba,
		      uint32_t *turn)
{
	size_t start = *turn % n;
	(*turn)++;
	if (policy == READ_PRIMARY)
		return 0;
	if (policy == READ_ALTERNATE)
		return start;
	if ((policy == READ_ALTERNATE_NEAREST || policy == READ_ALTERNATE_QUEUE ||
	     policy == READ_ALTERNATE_SPLIT) &&
	    all_idle(copy, n))
		return start;
	if (policy == READ_ALTERNATE_SPLIT && copy[0].span > 0)
		return owner(copy[0].span, n, lba);
	size_t best = start;
	for (size_t k = 1; k < n; k++) {
		size_t i = (start + k) % n;
		if (better(policy, &copy[i], &copy[best], lba))
			best = i;
	}
	return best;
}
