/* Log-linear latency histogram (HdrHistogram / fio style).
 *
 * Values 0..127 get one bucket each.  Above that every power of two
 * [2^e, 2^(e+1)) is cut into 128 equal sub-buckets, so a bucket is never
 * wider than 1/128 of its lower bound and reporting its midpoint is off by
 * less than 0.4%.  The array is fixed: recording never allocates, and memory
 * does not grow with the run length.  Values of 2^42 ns (~73 minutes) and
 * above share the last bucket; min, max, sum and count stay exact. */
#ifndef RS_STATS_HIST_H
#define RS_STATS_HIST_H

#include <stdint.h>

#define RS_HIST_SUB_BITS 7
#define RS_HIST_SUB (1 << RS_HIST_SUB_BITS)   /* 128 sub-buckets per octave */
#define RS_HIST_MAX_BITS 42                   /* values < 2^42 are resolved */
/* 128 exact buckets, then 128 per octave for exponents 7..41. */
#define RS_HIST_NBUCKETS ((RS_HIST_MAX_BITS - RS_HIST_SUB_BITS + 1) * RS_HIST_SUB)

struct rs_hist {
	uint64_t count;
	/* Exact.  While count == 0 they hold the sentinels rs_hist_reset
	 * puts there (INT64_MAX, INT64_MIN), so that recording a value needs
	 * no test of count; every reader asks for count first. */
	int64_t min, max;
	double sum;
	uint64_t buckets[RS_HIST_NBUCKETS];
};

/* Empty: count 0 and the min/max sentinels.  A histogram that is only
 * zeroed is not empty in this sense (its min would stay 0). */
void rs_hist_reset(struct rs_hist *h);

/* Bucket of a value.  For v >= 128 with top bit e, the top 8 bits of v are
 * 1sssssss; (e - 7) * 128 + (v >> (e - 7)) numbers the buckets of octave e
 * right after those of octave e - 1, and equals v itself for e == 7. */
static inline uint32_t rs_hist_bucket(int64_t v)
{
	if (v < RS_HIST_SUB)
		return v < 0 ? 0 : (uint32_t)v;
	uint32_t shift = (uint32_t)(63 - __builtin_clzll((unsigned long long)v))
			 - RS_HIST_SUB_BITS;
	/* v >= 2^42, asked of the top bit already found (no 64-bit
	 * constant to load). */
	if (shift >= RS_HIST_MAX_BITS - RS_HIST_SUB_BITS)
		return RS_HIST_NBUCKETS - 1;
	return shift * RS_HIST_SUB + (uint32_t)(v >> shift);
}

static inline void rs_hist_add(struct rs_hist *h, int64_t v)
{
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
	h->buckets[rs_hist_bucket(v)]++;
}

/* dst += src. */
void rs_hist_merge(struct rs_hist *dst, const struct rs_hist *src);
/* 0 for an empty histogram. */
double rs_hist_mean(const struct rs_hist *h);
/* q in [0, 1].  q == 0 gives min and q == 1 max, exactly; otherwise the
 * midpoint of the bucket holding the ceil(q * count)-th smallest value,
 * clamped to [min, max].  0 for an empty histogram. */
int64_t rs_hist_quantile(const struct rs_hist *h, double q);
/* Smallest value and midpoint that bucket b stands for; exposed for tests. */
int64_t rs_hist_bucket_low(uint32_t b);
int64_t rs_hist_bucket_mid(uint32_t b);

#endif
