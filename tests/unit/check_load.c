/* Unit tests for src/load: the named IOMeter specs, the line shares and
 * read share over many requests, sequential and random offsets, the
 * ramp-up window and determinism.  Requests are observed as the device
 * sees them, by wrapping the device type's submit. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TU_WANT_SCENARIO
#include "config/limits.h"
#include "load/iometer_specs.h"
#include "load/load.h"
#include "testutil.h"

/* ---- recording what the device is asked ----------------------------- */

struct rec {
	uint64_t lba;
	uint32_t nblk;
	uint8_t op;
	rs_time_t t;
};

static struct {
	struct rec *r;
	size_t n, cap;
	const struct rs_dev_type *orig;
	struct rs_dev_type wrapped;
} seen;

static void rec_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	if (seen.n < seen.cap)
		seen.r[seen.n++] = (struct rec){ io->lba, io->nblk, (uint8_t)io->op, rs_now(sim) };
	seen.orig->submit(sim, dev, io);
}

static void hook_record(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load,
			void *arg)
{
	seen.orig = dev->type;
	seen.wrapped = *dev->type;
	seen.wrapped.submit = rec_submit;
	dev->type = &seen.wrapped;
}

static void rec_reset(size_t cap)
{
	free(seen.r);
	memset(&seen, 0, sizeof(seen));
	seen.r = calloc(cap, sizeof(*seen.r));
	ck_assert_ptr_nonnull(seen.r);
	seen.cap = cap;
}

/* |observed share - p| within 5 binomial standard deviations. */
static void assert_share(uint64_t k, uint64_t n, double p, const char *what)
{
	double got = (double)k / (double)n;
	double sd = sqrt(p * (1 - p) / (double)n);
	ck_assert_msg(fabs(got - p) <= 5 * sd + 1e-12, "%s: share %.5f, expected %.5f +- %.5f",
		      what, got, p, 5 * sd);
}

/* ---- specs ------------------------------------------------------------ */

START_TEST(named_specs)
{
	const char *names[] = { "database", "fileserver", "webserver", "workstation",
				"seqread", "seqwrite", "default" };
	ck_assert_uint_eq(rs_spec_count(), 7);
	for (size_t i = 0; i < 7; i++) {
		const struct rs_spec *s = rs_spec_find(names[i]);
		ck_assert_msg(s != NULL, "spec %s missing", names[i]);
		ck_assert_str_eq(s->name, names[i]);
		ck_assert_ptr_nonnull(s->help);
		ck_assert_uint_ge(s->nlines, 1);
		ck_assert_uint_le(s->nlines, RS_SPEC_MAX_LINES);
		double total = 0;
		for (size_t j = 0; j < s->nlines; j++) {
			total += s->lines[j].share;
			ck_assert_uint_eq(s->lines[j].size_bytes % 512, 0);
			ck_assert_double_ge(s->lines[j].read, 0);
			ck_assert_double_le(s->lines[j].read, 100);
		}
		ck_assert_double_eq_tol(total, 100.0, 1e-9);
	}
	for (size_t i = 0; i < rs_spec_count(); i++)
		ck_assert_ptr_eq(rs_spec_find(rs_spec_at(i)->name), rs_spec_at(i));
	ck_assert_ptr_null(rs_spec_at(rs_spec_count()));
	ck_assert_ptr_null(rs_spec_find("filesever"));
	/* Intel's File Server, as published. */
	const struct rs_spec *fs = rs_spec_find("fileserver");
	ck_assert_uint_eq(fs->nlines, 8);
	ck_assert_uint_eq(fs->lines[3].size_bytes, 4096);
	ck_assert_double_eq(fs->lines[3].share, 60);
	ck_assert_double_eq(fs->lines[0].read, 80);
	ck_assert_ptr_nonnull(rs_load_type_find("iometer"));
	ck_assert_ptr_null(rs_load_type_find("iometre"));
}
END_TEST

/* ---- shares ----------------------------------------------------------- */

START_TEST(fileserver_shares)
{
	enum { N = 100000 };
	rec_reset(N + 64);
	struct tu_run r;
	tu_run_hook(&r, hook_record, NULL,
		    "seed: 11\n"
		    "device: {type: ideal, service: fixed, mean: 10us}\n"
		    "workload:\n"
		    "  iometer: {spec: fileserver, outstanding: 4, count: %d}\n", N);
	ck_assert_uint_eq(r.s.ops, N);
	ck_assert_uint_ge(seen.n, N);
	const struct rs_spec *fs = rs_spec_find("fileserver");
	uint64_t n = seen.n, reads = 0;
	for (size_t j = 0; j < fs->nlines; j++) {
		uint64_t k = 0;
		for (size_t i = 0; i < n; i++)
			k += seen.r[i].nblk * 512ull == fs->lines[j].size_bytes;
		char what[64];
		snprintf(what, sizeof(what), "fileserver %llu B",
			 (unsigned long long)fs->lines[j].size_bytes);
		assert_share(k, n, fs->lines[j].share / 100.0, what);
	}
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_ne(seen.r[i].op, RS_FLUSH);
		reads += seen.r[i].op == RS_READ;
	}
	assert_share(reads, n, 0.80, "fileserver reads");
	/* The summary agrees: 80% of the measured I/Os are reads. */
	ck_assert_double_eq_tol(r.s.read_iops / r.s.iops, 0.80, 5 * sqrt(0.16 / N));
}
END_TEST

START_TEST(read_share_override)
{
	enum { N = 100000 };
	rec_reset(N + 64);
	struct tu_run r;
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us}\n"
		    "workload:\n"
		    "  iometer: {spec: database, read: 30%%, outstanding: 2, count: %d}\n", N);
	uint64_t reads = 0;
	for (size_t i = 0; i < seen.n; i++) {
		reads += seen.r[i].op == RS_READ;
		ck_assert_uint_eq(seen.r[i].nblk, 16);   /* 8 KiB */
	}
	assert_share(reads, seen.n, 0.30, "database at read 30%");
	/* 0% and 100% are exact. */
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us}\n"
		    "workload:\n"
		    "  iometer: {spec: database, read: 0%%, count: 1000}\n");
	ck_assert_double_eq(r.s.read_iops, 0);
	ck_assert_uint_eq(r.s.ops, 1000);
}
END_TEST

/* ---- offsets ------------------------------------------------------------ */

START_TEST(sequential_continues_and_wraps)
{
	rec_reset(4096);
	struct tu_run r;
	/* 64 KiB requests over [1 MiB, 2 MiB): 16 per pass. */
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us, capacity: 16MiB}\n"
		    "workload:\n"
		    "  iometer: {spec: seqread, offset: 1MiB, range: 1MiB, outstanding: 4,\n"
		    "            count: 1000}\n");
	ck_assert_uint_gt(seen.n, 1000);
	const uint64_t start = 2048, end = 4096;
	ck_assert_uint_eq(seen.r[0].lba, start);
	int wraps = 0;
	for (size_t i = 0; i < seen.n; i++) {
		ck_assert_uint_eq(seen.r[i].op, RS_READ);
		ck_assert_uint_eq(seen.r[i].nblk, 128);
		ck_assert_uint_ge(seen.r[i].lba, start);
		ck_assert_uint_le(seen.r[i].lba + 128, end);
		if (i == 0)
			continue;
		if (seen.r[i - 1].lba + 128 + 128 > end) {
			ck_assert_uint_eq(seen.r[i].lba, start);
			wraps++;
		} else {
			ck_assert_uint_eq(seen.r[i].lba, seen.r[i - 1].lba + 128);
		}
	}
	ck_assert_int_ge(wraps, 60);
	/* A range that is not a whole number of requests: the last partial
	 * request is skipped, never cut or run past the end. */
	rec_reset(256);
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us, capacity: 16MiB}\n"
		    "workload:\n"
		    "  iometer: {spec: seqwrite, size: 48KiB, range: 100KiB, count: 100}\n");
	for (size_t i = 0; i < seen.n; i++) {
		ck_assert_uint_eq(seen.r[i].op, RS_WRITE);
		ck_assert_uint_eq(seen.r[i].lba, (i % 2) * 96);
	}
}
END_TEST

START_TEST(random_aligned_in_range)
{
	enum { N = 50000 };
	rec_reset(N + 64);
	struct tu_run r;
	/* [3 MiB, 8 MiB) of a 16 MiB device; fileserver sizes 512 B..64 KiB. */
	tu_run_hook(&r, hook_record, NULL,
		    "seed: 5\n"
		    "device: {type: ideal, mean: 10us, capacity: 16MiB}\n"
		    "workload:\n"
		    "  iometer: {spec: fileserver, offset: 3MiB, range: 5MiB, outstanding: 8,\n"
		    "            count: %d}\n", N);
	const uint64_t start = 6144, end = 16384;
	uint64_t lo = UINT64_MAX, hi = 0, odd64k = 0, n64k = 0;
	for (size_t i = 0; i < seen.n; i++) {
		const struct rec *x = &seen.r[i];
		ck_assert_uint_ge(x->lba, start);
		ck_assert_uint_le(x->lba + x->nblk, end);
		ck_assert_uint_eq((x->lba - start) % x->nblk, 0);   /* aligned to its size */
		if (x->nblk == 128) {
			n64k++;
			odd64k += ((x->lba - start) / 128) % 2;
			lo = x->lba < lo ? x->lba : lo;
			hi = x->lba > hi ? x->lba : hi;
		}
	}
	/* Uniform over the 80 slots of 64 KiB: both ends are reached and the
	 * odd slots get half. */
	ck_assert_uint_eq(lo, start);
	ck_assert_uint_eq(hi, end - 128);
	assert_share(odd64k, n64k, 0.5, "odd 64 KiB slots");
	/* An explicit alignment smaller than the size is honoured. */
	rec_reset(20000);
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us, capacity: 1GiB}\n"
		    "workload:\n"
		    "  iometer: {spec: database, align: 512B, count: 10000}\n");
	uint64_t unaligned = 0;
	for (size_t i = 0; i < seen.n; i++) {
		unaligned += seen.r[i].lba % 16 != 0;
		ck_assert_uint_le(seen.r[i].lba + 16, 2097152);
	}
	ck_assert_uint_gt(unaligned, seen.n / 2);
	/* More than 2^32 aligned positions (512 B over 64 TiB is 2^37): one
	 * 32-bit draw cannot reach them, so the upper half must still get
	 * half the requests. */
	rec_reset(20000);
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, mean: 10us, capacity: 64TiB}\n"
		    "workload:\n"
		    "  iometer: {spec: default, size: 512B, count: 10000}\n");
	uint64_t above = 0;
	for (size_t i = 0; i < seen.n; i++) {
		above += seen.r[i].lba >= (64ull << 40) / 512 / 2;
		ck_assert_uint_eq(seen.r[i].nblk, 1);
		ck_assert_uint_lt(seen.r[i].lba, (64ull << 40) / 512);
	}
	assert_share(above, seen.n, 0.5, "upper half of 64 TiB");
}
END_TEST

/* ---- the measuring window ------------------------------------------------ */

START_TEST(ramp_not_counted)
{
	rec_reset(1024);
	struct tu_run r;
	/* QD1, 1 ms each: completions at 1, 2, ... ms.  The window is
	 * [10 ms, 110 ms): the completion at 10 ms is in, the one at 110 ms
	 * is not. */
	tu_run_hook(&r, hook_record, NULL,
		    "device: {type: ideal, service: fixed, mean: 1ms}\n"
		    "workload:\n"
		    "  iometer: {spec: default, outstanding: 1, ramp: 10ms, run: 100ms}\n");
	ck_assert_uint_eq(r.s.ops, 100);
	ck_assert_double_eq(r.s.seconds, 0.1);
	ck_assert_double_eq_tol(r.s.iops, 1000.0, 1e-9);
	ck_assert_double_eq_tol(r.s.lat_mean_ms, 1.0, 1e-12);
	/* 9 before the window, 100 in, the one in flight at the close drains. */
	ck_assert_uint_eq(r.io.created, 110);
	ck_assert_uint_eq(seen.n, 110);
	ck_assert_int_eq(r.end, 110 * RS_MS);
	/* The device's figures are for the window too. */
	ck_assert_double_eq_tol(r.dev.utilisation, 1.0, 1e-12);
	/* A slow ramp does not leak into latency: 4 outstanding make the
	 * first requests wait in a queue that is full from the start, which
	 * is the steady state, so the mean is exactly 4 ms. */
	tu_run_hook(&r, NULL, NULL,
		    "device: {type: ideal, service: fixed, mean: 1ms}\n"
		    "workload:\n"
		    "  iometer: {spec: default, outstanding: 4, ramp: 20ms, run: 100ms}\n");
	ck_assert_uint_eq(r.s.ops, 100);
	ck_assert_double_eq_tol(r.s.lat_mean_ms, 4.0, 1e-12);
	/* count: ends the window after exactly that many. */
	tu_run_hook(&r, NULL, NULL,
		    "device: {type: ideal, service: exponential, mean: 1ms}\n"
		    "workload:\n"
		    "  iometer: {spec: default, outstanding: 3, ramp: 1s, count: 777}\n");
	ck_assert_uint_eq(r.s.ops, 777);
}
END_TEST

/* A request log sends every completion through rs_load_account's full
 * path (rs_load_account_measured); without one, reads and writes are
 * counted inline.  Both give the same figures, bit for bit, whether the
 * window ends by time or by a count of requests, and the log has a line
 * per request counted. */
static void hook_log(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load, void *arg)
{
	load->request_log = arg;
}

START_TEST(account_inline_matches_full)
{
	static const char *const fmts[] = {
		"seed: 3\n"
		"device: {type: ideal, service: exponential, mean: 200us, servers: 2}\n"
		"workload:\n"
		"  iometer: {spec: fileserver, outstanding: 6, ramp: 10ms, run: 500ms}\n",
		"seed: 4\n"
		"device: {type: ideal, service: exponential, mean: 200us}\n"
		"workload:\n"
		"  iometer: {spec: default, outstanding: 3, ramp: 10ms, count: 1234}\n",
	};
	for (size_t k = 0; k < 2; k++) {
		struct tu_run inl, full;
		FILE *log = tmpfile();
		ck_assert_ptr_nonnull(log);
		tu_run(&inl, "%s", fmts[k]);
		tu_run_hook(&full, hook_log, log, "%s", fmts[k]);
		ck_assert_uint_gt(inl.s.ops, 1000);
		ck_assert_int_eq(memcmp(&inl.s, &full.s, sizeof(inl.s)), 0);
		ck_assert_int_eq(inl.end, full.end);
		rewind(log);
		uint64_t lines = 0;
		for (int c; (c = fgetc(log)) != EOF;)
			lines += c == '\n';
		ck_assert_uint_eq(lines, inl.s.ops);
		fclose(log);
	}
}
END_TEST

static const char det_fmt[] =
	"seed: %d\n"
	"device: {type: ideal, service: exponential, mean: 200us, servers: 2}\n"
	"workload:\n"
	"  iometer: {spec: fileserver, outstanding: 6, ramp: 100ms, count: 20000}\n";

START_TEST(determinism)
{
	struct tu_run a, b, c;
	tu_run(&a, det_fmt, 7);
	tu_run(&b, det_fmt, 7);
	tu_run(&c, det_fmt, 8);
	/* Bit for bit: every double of the summary, the events and the end. */
	ck_assert_int_eq(memcmp(&a.s, &b.s, sizeof(a.s)), 0);
	ck_assert_int_eq(memcmp(&a.dev, &b.dev, sizeof(a.dev)), 0);
	ck_assert_uint_eq(a.events, b.events);
	ck_assert_int_eq(a.end, b.end);
	ck_assert_uint_eq(a.io.bytes_created, b.io.bytes_created);
	/* Another seed, another run. */
	ck_assert_double_ne(a.s.lat_mean_ms, c.s.lat_mean_ms);
	ck_assert_double_ne(a.s.mib_s, c.s.mib_s);
	ck_assert_uint_ne(a.io.bytes_created, c.io.bytes_created);
	/* The same request stream whatever the device: offsets, sizes and
	 * mix come from their own streams, not from the service stream. */
	rec_reset(30000);
	tu_run_hook(&a, hook_record, NULL, det_fmt, 7);
	size_t n1 = seen.n;
	struct rec *r1 = seen.r;
	seen.r = NULL;
	rec_reset(30000);
	tu_run_hook(&b, hook_record, NULL,
		    "seed: 7\n"
		    "device: {type: ideal, service: fixed, mean: 50us}\n"
		    "workload:\n"
		    "  iometer: {spec: fileserver, outstanding: 6, ramp: 100ms, count: 20000}\n");
	size_t n = n1 < seen.n ? n1 : seen.n;
	ck_assert_uint_gt(n, 20000);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(r1[i].lba, seen.r[i].lba);
		ck_assert_uint_eq(r1[i].nblk, seen.r[i].nblk);
		ck_assert_uint_eq(r1[i].op, seen.r[i].op);
	}
	free(r1);
}
END_TEST

/* ---- runs that must stop with a message, not take the machine --------- */

/* Arrivals far beyond what the device drains: the run fails with
 * "overloaded" once the cap is passed, with about the cap in memory. */
START_TEST(open_loop_overload_stops_at_cap)
{
	struct tu_point p;
	char why[128];
	ck_assert_int_eq(rs_limits_set("queued_requests=5000", why, sizeof(why)), 0);
	ck_assert_int_eq(tu_point_buildf(&p, "overload.yaml",
					 "device: {type: ideal, mean: 1ms}\n"
					 "workload: {iometer: {spec: database, rate: 1e12, "
					 "run: 1000s}}\n"), 0);
	ck_assert_int_eq(rs_load_run(p.sim, p.load), -1);
	ck_assert(p.sim->failed);
	ck_assert_msg(strstr(p.sim->failure, "overloaded: 5001 requests queued"), "%s",
		      p.sim->failure);
	ck_assert(strstr(p.sim->failure, "--limit queued_requests=N"));
	ck_assert_uint_le(p.sim->ios.capacity, 5001 + 512);
	tu_point_free(&p);
	rs_limits_reset();
}
END_TEST

/* A fast device on a long run: the window fails at the cap `requests`
 * (standing in for `count`) rather than running 10^7 requests; a `count`
 * under the cap still closes the window normally, and one above it stops
 * at the cap. */
START_TEST(requests_cap_stops_the_window)
{
	struct tu_point p;
	char why[128];
	ck_assert_int_eq(rs_limits_set("requests=2000", why, sizeof(why)), 0);
	ck_assert_int_eq(tu_point_buildf(&p, "fast.yaml",
					 "device: {type: ideal, mean: 1us}\n"
					 "workload: {iometer: {spec: database, run: 10s}}\n"), 0);
	ck_assert_int_eq(rs_load_run(p.sim, p.load), -1);
	ck_assert_msg(strstr(p.sim->failure, "more than 2000 requests measured"), "%s",
		      p.sim->failure);
	ck_assert(strstr(p.sim->failure, "--limit requests=N"));
	ck_assert_uint_le(p.dev->submitted, 2001);
	tu_point_free(&p);

	ck_assert_int_eq(tu_point_buildf(&p, "counted.yaml",
					 "device: {type: ideal, mean: 1us}\n"
					 "workload: {iometer: {spec: database, run: 10s, "
					 "count: 2000}}\n"), 0);
	ck_assert_int_eq(rs_load_run(p.sim, p.load), 0);
	ck_assert_uint_eq(p.load->summary.ops, 2000);
	tu_point_free(&p);

	ck_assert_int_eq(tu_point_buildf(&p, "overcount.yaml",
					 "device: {type: ideal, mean: 1us}\n"
					 "workload: {iometer: {spec: database, run: 10s, "
					 "count: 2001}}\n"), 0);
	ck_assert_int_eq(rs_load_run(p.sim, p.load), -1);
	ck_assert(strstr(p.sim->failure, "(cap requests=2000;"));
	tu_point_free(&p);
	rs_limits_reset();
}
END_TEST

/* The ramp is bounded too: requests completed outside the window count
 * toward the same cap. */
START_TEST(requests_cap_bounds_the_ramp)
{
	struct tu_point p;
	char why[128];
	ck_assert_int_eq(rs_limits_set("requests=3000", why, sizeof(why)), 0);
	ck_assert_int_eq(tu_point_buildf(&p, "ramp.yaml",
					 "device: {type: ideal, mean: 1us}\n"
					 "workload: {iometer: {spec: database, ramp: 100s, "
					 "run: 1s}}\n"), 0);
	ck_assert_int_eq(rs_load_run(p.sim, p.load), -1);
	ck_assert_msg(strstr(p.sim->failure, "more than 3000 requests completed before or "
					     "after the measured window"), "%s", p.sim->failure);
	ck_assert_uint_le(p.dev->submitted, 3001);
	tu_point_free(&p);
	rs_limits_reset();
}
END_TEST

/* A rate so low that the next arrival lies beyond the clock (1e-11 per
 * second is 1e20 ns): the first request goes out at the start, no other
 * arrives within the run, and nothing overflows. */
START_TEST(open_loop_tiny_rate)
{
	struct tu_point p;
	tu_point_runf(&p, "tiny.yaml", "device", 1,
		      "device: {type: ideal, mean: 1ms}\n"
		      "workload: {iometer: {spec: database, rate: 0.00000000001, run: 1s}}\n");
	ck_assert(!p.sim->failed);
	ck_assert_uint_le(p.load->summary.ops, 1);
	ck_assert_uint_le(p.dev->submitted, 1);
	tu_point_free(&p);
}
END_TEST

/* A ramp and a run that add up past the clock: the window's end is held
 * at the clock's limit instead of wrapping negative. */
START_TEST(window_end_saturates)
{
	struct tu_point p;
	ck_assert_int_eq(tu_point_buildf(&p, "long.yaml",
					 "device: {type: ideal, mean: 1ms}\n"
					 "workload: {iometer: {spec: database, count: 10, "
					 "ramp: 5000000000s, run: 5000000000s}}\n"), 0);
	ck_assert_int_eq(rs_load_window_end(p.load), RS_TIME_MAX);
	tu_point_free(&p);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("iometer");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, named_specs);
	tcase_add_test(tc, fileserver_shares);
	tcase_add_test(tc, read_share_override);
	tcase_add_test(tc, sequential_continues_and_wraps);
	tcase_add_test(tc, random_aligned_in_range);
	tcase_add_test(tc, ramp_not_counted);
	tcase_add_test(tc, determinism);
	tcase_add_test(tc, account_inline_matches_full);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, open_loop_overload_stops_at_cap);
	tcase_add_test(tc, open_loop_tiny_rate);
	tcase_add_test(tc, requests_cap_stops_the_window);
	tcase_add_test(tc, requests_cap_bounds_the_ramp);
	tcase_add_test(tc, window_end_saturates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(load_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
