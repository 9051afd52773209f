#include "stats/welford.h"

#include <math.h>
#include <string.h>

void rs_welford_reset(struct rs_welford *w)
{
	memset(w, 0, sizeof(*w));
}

void rs_welford_merge(struct rs_welford *dst, const struct rs_welford *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	double na = (double)dst->n, nb = (double)src->n, n = na + nb;
	double d = src->mean - dst->mean;
	/* Chan et al.: weighting the difference of means keeps the update
	 * stable when the two halves have very different sizes. */
	dst->mean += d * nb / n;
	dst->m2 += src->m2 + d * d * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double rs_welford_variance(const struct rs_welford *w)
{
	return w->n < 2 ? 0.0 : w->m2 / (double)(w->n - 1);
}

double rs_welford_stddev(const struct rs_welford *w)
{
	return sqrt(rs_welford_variance(w));
}
