#include "stats/hist.h"

#include <math.h>
#include <string.h>

#include "kernel/assert.h"

void rs_hist_reset(struct rs_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INT64_MAX;
	h->max = INT64_MIN;
}

void rs_hist_merge(struct rs_hist *dst, const struct rs_hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (uint32_t b = 0; b < RS_HIST_NBUCKETS; b++)
		dst->buckets[b] += src->buckets[b];
}

double rs_hist_mean(const struct rs_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0.0;
}

int64_t rs_hist_bucket_low(uint32_t b)
{
	RS_ASSERT(b < RS_HIST_NBUCKETS);
	if (b < RS_HIST_SUB)
		return b;
	uint32_t shift = b / RS_HIST_SUB - 1;
	return (int64_t)(RS_HIST_SUB + b % RS_HIST_SUB) << shift;
}

int64_t rs_hist_bucket_mid(uint32_t b)
{
	if (b < RS_HIST_SUB)
		return b;
	uint32_t shift = b / RS_HIST_SUB - 1;
	int64_t width = (int64_t)1 << shift;
	return rs_hist_bucket_low(b) + (width - 1) / 2;
}

int64_t rs_hist_quantile(const struct rs_hist *h, double q)
{
	RS_ASSERT(q >= 0.0 && q <= 1.0);
	if (h->count == 0)
		return 0;
	if (q <= 0.0)
		return h->min;
	if (q >= 1.0)
		return h->max;
	double r = ceil(q * (double)h->count);
	uint64_t rank = r < 1.0 ? 1 : (uint64_t)r;
	if (rank > h->count)
		rank = h->count;
	uint64_t seen = 0;
	uint32_t b = 0;
	for (; b < RS_HIST_NBUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank)
			break;
	}
	RS_ASSERT(b < RS_HIST_NBUCKETS);
	int64_t v = rs_hist_bucket_mid(b);
	/* The extreme buckets are often only partly filled (and the last one
	 * holds everything too large to resolve): never report a value
	 * outside what was seen. */
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}
