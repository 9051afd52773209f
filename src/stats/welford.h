/* Running mean and variance (Welford), mergeable (Chan et al.).
 *
 * Numerically stable in one pass, so per-run figures (a disk's service
 * time, a rebuild's duration over repetitions) need no stored samples. */
#ifndef RS_STATS_WELFORD_H
#define RS_STATS_WELFORD_H

#include <stdint.h>

struct rs_welford {
	uint64_t n;
	double mean;
	double m2;                    /* sum of squared deviations from mean */
	double min, max;              /* meaningless while n == 0 */
};

void rs_welford_reset(struct rs_welford *w);

static inline void rs_welford_add(struct rs_welford *w, double x)
{
	if (w->n == 0 || x < w->min)
		w->min = x;
	if (w->n == 0 || x > w->max)
		w->max = x;
	w->n++;
	double d = x - w->mean;
	w->mean += d / (double)w->n;
	w->m2 += d * (x - w->mean);
}

/* dst += src. */
void rs_welford_merge(struct rs_welford *dst, const struct rs_welford *src);
/* Sample variance (n - 1 denominator); 0 for fewer than two values. */
double rs_welford_variance(const struct rs_welford *w);
double rs_welford_stddev(const struct rs_welford *w);

#endif
