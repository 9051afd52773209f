/* Unit tests for src/stats: histogram accuracy against exact order
 * statistics, Welford against two-pass formulas, time-weighted averages
 * over known step functions, and the iostat summary arithmetic. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/hist.h"
#include "stats/iostat.h"
#include "stats/tavg.h"
#include "stats/welford.h"

#define NSAMPLES 1000000

/* Big structs live on the heap: the stack of a Check fork is modest. */
static struct rs_hist *hist_new(void)
{
	struct rs_hist *h = malloc(sizeof(*h));
	ck_assert_ptr_nonnull(h);
	rs_hist_reset(h);
	return h;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The same definition as rs_hist_quantile: the ceil(q*n)-th smallest. */
static int64_t exact_quantile(const int64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

enum dist { D_EXP, D_LOGNORMAL, D_UNIFORM };

static void check_dist(enum dist d)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 12345 + (unsigned long)d);
	int64_t *v = malloc(NSAMPLES * sizeof(*v));
	ck_assert_ptr_nonnull(v);
	struct rs_hist *h = hist_new();
	double sum = 0;
	for (size_t i = 0; i < NSAMPLES; i++) {
		double x;
		switch (d) {
		case D_EXP: x = gsl_ran_exponential(r, 5e6); break;     /* 5 ms */
		case D_LOGNORMAL: x = gsl_ran_lognormal(r, log(2e6), 1.0); break;
		default: x = gsl_ran_flat(r, 0.0, 2e7); break;
		}
		v[i] = (int64_t)llround(x);
		sum += (double)v[i];
		rs_hist_add(h, v[i]);
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_i64);
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double want = (double)exact_quantile(v, NSAMPLES, qs[i]);
		double got = (double)rs_hist_quantile(h, qs[i]);
		ck_assert_msg(fabs(got - want) <= 0.01 * want,
			      "dist %d q %g: hist %g exact %g", d, qs[i], got, want);
	}
	ck_assert_uint_eq(h->count, NSAMPLES);
	ck_assert_int_eq(h->min, v[0]);
	ck_assert_int_eq(h->max, v[NSAMPLES - 1]);
	ck_assert_int_eq(rs_hist_quantile(h, 0.0), v[0]);
	ck_assert_int_eq(rs_hist_quantile(h, 1.0), v[NSAMPLES - 1]);
	double mean = sum / NSAMPLES;
	ck_assert_double_eq_tol(rs_hist_mean(h), mean, 0.01 * mean);
	free(h);
	free(v);
	gsl_rng_free(r);
}

START_TEST(hist_exponential) { check_dist(D_EXP); }
END_TEST

START_TEST(hist_lognormal) { check_dist(D_LOGNORMAL); }
END_TEST

START_TEST(hist_uniform) { check_dist(D_UNIFORM); }
END_TEST

START_TEST(hist_buckets_contiguous)
{
	/* Every bucket starts right after the previous one ends, widths are
	 * at most 1/128 of the lower bound, and values map back to the
	 * bucket that claims them. */
	for (uint32_t b = 1; b < RS_HIST_NBUCKETS; b++) {
		int64_t lo = rs_hist_bucket_low(b), prev = rs_hist_bucket_low(b - 1);
		ck_assert_int_gt(lo, prev);
		ck_assert_uint_eq(rs_hist_bucket(lo), b);
		ck_assert_uint_eq(rs_hist_bucket(lo - 1), b - 1);
		ck_assert_int_le((lo - prev) * 128, prev < 128 ? 128 : prev);
		int64_t mid = rs_hist_bucket_mid(b - 1);
		ck_assert_int_ge(mid, prev);
		ck_assert_int_lt(mid, lo);
	}
	ck_assert_uint_eq(rs_hist_bucket(((int64_t)1 << 42) - 1), RS_HIST_NBUCKETS - 1);
	ck_assert_uint_eq(rs_hist_bucket((int64_t)1 << 42), RS_HIST_NBUCKETS - 1);
	ck_assert_uint_eq(rs_hist_bucket(INT64_MAX), RS_HIST_NBUCKETS - 1);
	ck_assert_uint_eq(rs_hist_bucket(-5), 0);
}
END_TEST

START_TEST(hist_edges)
{
	struct rs_hist *h = hist_new();
	ck_assert_int_eq(rs_hist_quantile(h, 0.5), 0);
	ck_assert(rs_hist_mean(h) == 0.0);

	/* Small values are exact. */
	static const int64_t exact[] = { 0, 1, 127, 128, 129, 255 };
	for (size_t i = 0; i < 6; i++) {
		rs_hist_reset(h);
		rs_hist_add(h, exact[i]);
		ck_assert_int_eq(rs_hist_quantile(h, 0.5), exact[i]);
		ck_assert_int_eq(rs_hist_quantile(h, 0.0), exact[i]);
		ck_assert_int_eq(rs_hist_quantile(h, 1.0), exact[i]);
	}
	rs_hist_reset(h);
	for (int64_t i = 0; i < 256; i++)
		rs_hist_add(h, i);
	ck_assert_int_eq(rs_hist_quantile(h, 0.5), 127);
	ck_assert_int_eq(rs_hist_quantile(h, 0.5 + 1e-9), 128);
	ck_assert_int_eq(rs_hist_quantile(h, 1.0 / 256), 0);

	/* Huge values clamp to the last bucket but max stays exact and the
	 * reported quantile never leaves [min, max]. */
	rs_hist_reset(h);
	int64_t huge = (int64_t)1 << 50;
	rs_hist_add(h, huge);
	rs_hist_add(h, huge + 7);
	ck_assert_int_eq(rs_hist_quantile(h, 1.0), huge + 7);
	ck_assert_int_eq(rs_hist_quantile(h, 0.0), huge);
	int64_t p = rs_hist_quantile(h, 0.5);
	ck_assert_int_ge(p, huge);
	ck_assert_int_le(p, huge + 7);
	rs_hist_add(h, INT64_MAX);
	ck_assert_int_eq(rs_hist_quantile(h, 1.0), INT64_MAX);

	/* A value just under 2^42 is still resolved to 1/128. */
	rs_hist_reset(h);
	int64_t big = ((int64_t)1 << 42) - 12345;
	rs_hist_add(h, big);
	rs_hist_add(h, big / 2);
	rs_hist_add(h, big / 3);
	double got = (double)rs_hist_quantile(h, 0.5);
	ck_assert_double_eq_tol(got, (double)(big / 2), (double)big / 2 / 256);
	free(h);
}
END_TEST

START_TEST(hist_merge)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 7);
	struct rs_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	for (int i = 0; i < 100000; i++) {
		int64_t v = (int64_t)gsl_ran_exponential(r, 1e5 * (1 + i % 3));
		rs_hist_add(i % 4 ? a : b, v);
		rs_hist_add(all, v);
	}
	struct rs_hist *empty = hist_new();
	rs_hist_merge(a, empty);
	rs_hist_merge(empty, b);
	ck_assert_int_eq(memcmp(empty, b, sizeof(*b)), 0);
	rs_hist_merge(a, b);
	ck_assert_uint_eq(a->count, all->count);
	ck_assert_int_eq(a->min, all->min);
	ck_assert_int_eq(a->max, all->max);
	ck_assert_int_eq(memcmp(a->buckets, all->buckets, sizeof(a->buckets)), 0);
	ck_assert_double_eq_tol(a->sum, all->sum, 1e-9 * all->sum);
	for (double q = 0; q <= 1.0; q += 0.125)
		ck_assert_int_eq(rs_hist_quantile(a, q), rs_hist_quantile(all, q));
	free(a);
	free(b);
	free(all);
	free(empty);
	gsl_rng_free(r);
}
END_TEST

/* The first value after a reset is both extremes, whatever its sign:
 * recording tests no count, so reset must leave sentinels a value always
 * replaces, not zeros. */
START_TEST(hist_first_value_is_min_and_max)
{
	struct rs_hist *h = hist_new();
	rs_hist_add(h, 5 * RS_MS);
	ck_assert_int_eq(h->min, 5 * RS_MS);
	ck_assert_int_eq(h->max, 5 * RS_MS);
	rs_hist_reset(h);
	rs_hist_add(h, -3);
	ck_assert_int_eq(h->min, -3);
	ck_assert_int_eq(h->max, -3);
	free(h);

	struct rs_iostat *s = malloc(sizeof(*s));
	ck_assert_ptr_nonnull(s);
	memset(s, 0xa5, sizeof(*s));
	rs_iostat_reset(s, 0);
	rs_iostat_record(s, 0, 512, 7 * RS_MS, 0);
	rs_iostat_record(s, 1, 512, 2 * RS_MS, 0);
	ck_assert_int_eq(s->lat[RS_ST_READ].min, 7 * RS_MS);
	ck_assert_int_eq(s->lat[RS_ST_READ].max, 7 * RS_MS);
	ck_assert_int_eq(s->lat[RS_ST_WRITE].min, 2 * RS_MS);
	ck_assert_int_eq(s->lat[RS_ST_WRITE].max, 2 * RS_MS);
	free(s);
}
END_TEST

START_TEST(welford_two_pass)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 99);
	enum { N = 10000 };
	static double x[N];
	struct rs_welford w, a, b;
	rs_welford_reset(&w);
	rs_welford_reset(&a);
	rs_welford_reset(&b);
	ck_assert(rs_welford_variance(&w) == 0.0);
	/* A large offset makes the naive sum-of-squares formula fail. */
	long double sum = 0;
	for (int i = 0; i < N; i++) {
		x[i] = 1e9 + gsl_ran_gaussian(r, 3.0);
		sum += x[i];
		rs_welford_add(&w, x[i]);
		rs_welford_add(i < 1234 ? &a : &b, x[i]);
	}
	double mean = (double)(sum / N), ss = 0, lo = x[0], hi = x[0];
	for (int i = 0; i < N; i++) {
		ss += (x[i] - mean) * (x[i] - mean);
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	double var = ss / (N - 1);
	ck_assert_uint_eq(w.n, N);
	ck_assert_double_eq_tol(w.mean, mean, 1e-4);
	ck_assert_double_eq_tol(rs_welford_variance(&w), var, 1e-6 * var);
	ck_assert_double_eq_tol(rs_welford_stddev(&w), sqrt(var), 1e-6 * sqrt(var));
	ck_assert(w.min == lo && w.max == hi);

	rs_welford_merge(&a, &b);
	ck_assert_uint_eq(a.n, N);
	ck_assert_double_eq_tol(a.mean, mean, 1e-4);
	ck_assert_double_eq_tol(rs_welford_variance(&a), var, 1e-6 * var);
	ck_assert(a.min == lo && a.max == hi);

	struct rs_welford e;
	rs_welford_reset(&e);
	rs_welford_merge(&e, &w);
	ck_assert_int_eq(memcmp(&e, &w, sizeof(e)), 0);
	rs_welford_reset(&e);
	rs_welford_merge(&w, &e);
	ck_assert_uint_eq(w.n, N);
	gsl_rng_free(r);
}
END_TEST

START_TEST(tavg_steps)
{
	struct rs_tavg t;
	rs_tavg_init(&t, 100, 2);
	ck_assert(rs_tavg_mean(&t, 100) == 2.0);
	/* level 2 on [100,200), 5 on [200,300), 1 on [300,400] */
	rs_tavg_set(&t, 200, 5);
	rs_tavg_add(&t, 300, -4);
	ck_assert_double_eq_tol(rs_tavg_mean(&t, 400), (200 + 500 + 100) / 300.0, 1e-12);
	/* mean is a pure query */
	ck_assert_double_eq_tol(rs_tavg_mean(&t, 400), (200 + 500 + 100) / 300.0, 1e-12);
	/* Several changes at the same instant count only the last. */
	rs_tavg_add(&t, 400, 1);
	rs_tavg_add(&t, 400, 1);
	rs_tavg_set(&t, 400, 3);
	ck_assert_double_eq_tol(rs_tavg_mean(&t, 500), (200 + 500 + 100 + 300) / 400.0, 1e-12);

	/* Restart keeps the level and forgets the past. */
	rs_tavg_restart(&t, 600);
	ck_assert(rs_tavg_mean(&t, 600) == 3.0);
	rs_tavg_set(&t, 700, 0);
	ck_assert_double_eq_tol(rs_tavg_mean(&t, 800), 1.5, 1e-12);

	/* Long runs in nanoseconds: a 50% duty cycle over an hour. */
	rs_tavg_init(&t, 0, 0);
	for (rs_time_t s = 0; s < 3600; s++) {
		rs_tavg_set(&t, s * RS_SEC, 1);
		rs_tavg_set(&t, s * RS_SEC + RS_SEC / 2, 0);
	}
	ck_assert_double_eq_tol(rs_tavg_mean(&t, 3600 * RS_SEC), 0.5, 1e-12);
}
END_TEST

/* A change at the instant of the last one skips the area's update (it
 * would add level * 0): the area, level and means are bit for bit those
 * of the update done every time, over a walk with many changes at one
 * instant, steps of a nanosecond, restarts and levels that round. */
START_TEST(tavg_same_instant_bitwise)
{
	struct rs_tavg t;
	struct { rs_time_t t_last; double level, area; } ref = { 1000, 0.0, 0.0 };
	rs_tavg_init(&t, 1000, 0);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 99);
	rs_time_t now = 1000;
	unsigned same = 0;
	for (int i = 0; i < 200000; i++) {
		unsigned long step = gsl_rng_uniform_int(r, 4);
		now += step == 0 ? 0 : step == 1 ? 1 : (rs_time_t)gsl_rng_uniform_int(r, 1000000);
		same += step == 0;
		double level = (double)gsl_rng_uniform_int(r, 40) / 3.0;
		double want = level;
		if (gsl_rng_uniform_int(r, 2)) {
			rs_tavg_set(&t, now, level);
		} else {
			double delta = level - ref.level;
			rs_tavg_add(&t, now, delta);
			want = ref.level + delta;
		}
		ref.area += ref.level * (double)(now - ref.t_last);
		ref.t_last = now;
		ref.level = want;
		ck_assert(t.area == ref.area);
		ck_assert(t.level == ref.level);
		if (i % 1000 == 0) {
			double m = ref.area + ref.level * (double)(now + 7 - ref.t_last);
			ck_assert(rs_tavg_mean(&t, now + 7) == m / (double)(now + 7 - t.t_start));
		}
		if (i % 50000 == 49999) {
			rs_tavg_restart(&t, now);
			ref.area = 0.0;
		}
	}
	ck_assert_uint_gt(same, 40000);
	gsl_rng_free(r);
}
END_TEST

START_TEST(iostat_summary)
{
	struct rs_iostat *s = malloc(sizeof(*s)), *u = malloc(sizeof(*u));
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(u);
	struct rs_iostat_summary sum;
	rs_iostat_reset(s, 5 * RS_SEC);
	rs_iostat_summarize(s, 5 * RS_SEC, &sum);
	ck_assert(sum.iops == 0.0 && sum.seconds == 0.0 && sum.lat_p99_ms == 0.0);

	/* Over 2 s: 300 reads of 4 KiB at 1 ms, 100 writes of 1 MB at 10 ms,
	 * and 7 failures that must not count as completed I/O. */
	for (int i = 0; i < 300; i++)
		rs_iostat_record(s, 0, 4096, RS_MS, 0);
	for (int i = 0; i < 100; i++)
		rs_iostat_record(s, 1, 1000000, 10 * RS_MS, 0);
	for (int i = 0; i < 7; i++)
		rs_iostat_record(s, i & 1, 4096, 1, -1);
	rs_iostat_summarize(s, 7 * RS_SEC, &sum);
	ck_assert(sum.seconds == 2.0);
	ck_assert_uint_eq(sum.ops, 400);
	ck_assert_uint_eq(sum.errors, 7);
	ck_assert_double_eq_tol(sum.iops, 200, 1e-9);
	ck_assert_double_eq_tol(sum.read_iops, 150, 1e-9);
	ck_assert_double_eq_tol(sum.write_iops, 50, 1e-9);
	double bytes = 300 * 4096.0 + 100 * 1e6;
	ck_assert_double_eq_tol(sum.mb_s, bytes / 2 / 1e6, 1e-9);
	ck_assert_double_eq_tol(sum.mib_s, bytes / 2 / 1048576, 1e-9);
	ck_assert_double_eq_tol(sum.read_mib_s, 300 * 4096.0 / 2 / 1048576, 1e-9);
	ck_assert_double_eq_tol(sum.write_mib_s, 100 * 1e6 / 2 / 1048576, 1e-9);
	ck_assert_double_eq_tol(sum.lat_mean_ms, (300 * 1.0 + 100 * 10.0) / 400, 1e-9);
	ck_assert_double_eq_tol(sum.read_lat_mean_ms, 1.0, 1e-9);
	ck_assert_double_eq_tol(sum.write_lat_mean_ms, 10.0, 1e-9);
	/* Quantiles are bucket midpoints (within 0.4%), clamped to the exact
	 * extremes of the class. */
	ck_assert_double_eq_tol(sum.lat_p50_ms, 1.0, 0.004);
	ck_assert_double_eq_tol(sum.lat_p90_ms, 10.0, 0.04);
	ck_assert_double_eq_tol(sum.lat_p99_ms, 10.0, 0.04);
	ck_assert_double_eq_tol(sum.lat_p999_ms, 10.0, 0.04);
	ck_assert(sum.lat_max_ms == 10.0);
	ck_assert(sum.read_lat_p99_ms == 1.0);
	ck_assert(sum.write_lat_p99_ms == 10.0);

	/* Merging two halves equals recording everything in one. */
	rs_iostat_reset(u, 6 * RS_SEC);
	rs_iostat_record(u, 1, 512, 3 * RS_MS, 0);
	rs_iostat_record(u, 0, 512, 2 * RS_MS, -5);
	rs_iostat_merge(u, s);
	ck_assert_int_eq(u->t_start, 5 * RS_SEC);
	ck_assert_uint_eq(u->ops[RS_ST_ALL], 401);
	ck_assert_uint_eq(u->ops[RS_ST_WRITE], 101);
	ck_assert_uint_eq(u->bytes[RS_ST_WRITE], 100000512);
	ck_assert_uint_eq(u->errors, 8);
	struct rs_hist *all = malloc(sizeof(*all));
	ck_assert_ptr_nonnull(all);
	rs_iostat_all(u, all);
	ck_assert_uint_eq(all->count, 401);
	ck_assert_int_eq(all->min, RS_MS);
	ck_assert_int_eq(all->max, 10 * RS_MS);
	ck_assert(all->sum == 3.0 * RS_MS + 300.0 * RS_MS + 100 * 10.0 * RS_MS);
	free(all);
	ck_assert_int_eq(u->lat[RS_ST_WRITE].min, 3 * RS_MS);
	free(s);
	free(u);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("hist");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hist_exponential);
	tcase_add_test(tc, hist_lognormal);
	tcase_add_test(tc, hist_uniform);
	tcase_add_test(tc, hist_buckets_contiguous);
	tcase_add_test(tc, hist_edges);
	tcase_add_test(tc, hist_merge);
	tcase_add_test(tc, hist_first_value_is_min_and_max);
	suite_add_tcase(s, tc);
	tc = tcase_create("moments");
	tcase_add_test(tc, welford_two_pass);
	tcase_add_test(tc, tavg_steps);
	tcase_add_test(tc, tavg_same_instant_bitwise);
	tcase_add_test(tc, iostat_summary);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
