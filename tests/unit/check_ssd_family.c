/* The Intel SSD DC S3700 family (models/ssds/intel-dc-s3700-{100,200,400,
 * 800}g.yaml, one base) against its data sheet, capacity by capacity:
 * sequential read and write MB/s (128 KiB, QD32), 4 KiB random read and
 * write IOPS (QD32, steady state), typical latency (QD1, 4 KiB sequential),
 * the quality-of-service bound (99.9 % of 4 KiB QD1 reads and writes within
 * 500 us), performance consistency (the slowest interval's IOPS at QD32 at
 * least 90 % of the mean, reads and writes), latency tails at QD32 that come
 * from named mechanisms, and the QD1 read tail of a worn drive, which read
 * retries lengthen.
 *
 * Each figure prints "model vs data sheet"; a figure the model does not
 * meet within 10 % is listed in `misses` with the mechanism that limits it,
 * and the test asserts exactly that list (a figure that moves into or out
 * of range fails the test until the list says why).  The drives start as
 * Intel measures them: random figures on a drive in the random-write steady
 * state, sequential reads on a drive written once, sequential writes on an
 * erased drive.  MB = 10^6 bytes. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssd/ssd.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

struct cap {
	const char *gb;
	double sr, sw, rr, rw;        /* S20, per-capacity column (recalled, [R]) */
};

static const struct cap caps[] = {
	{ "100", 500, 200, 75000, 19000 },
	{ "200", 500, 365, 75000, 32000 },
	{ "400", 500, 460, 75000, 36000 },
	{ "800", 500, 460, 75000, 36000 },
};

struct miss {
	const char *gb, *figure, *why;
};

/* Figures the model misses by more than 10 %, and what limits them. */
static const struct miss misses[] = {
	{ "200", "seq write",
	  "flash: 32 dies at the t_prog that gives the 100 GB drive its 200 MB/s program "
	  "~410 MB/s; Intel's 365 MB/s means the 200 GB drive programs slower per die than "
	  "the 100 GB one, which one t_prog for the family cannot show" },
	{ "200", "rand write",
	  "controller (command, data path, program_cost per page, GC copies at the emergent "
	  "WA) with 32 dies just behind it: ~37,000 IOPS as for 400/800 GB; Intel's 32,000 "
	  "is below what either mechanism allows here" },
	{ "any", "write latency",
	  "a write completes in the power-loss-protected buffer after the controller "
	  "(13.3 us) and the link (6.8 us); Intel's 65 us includes host-side time the drive "
	  "model does not hold" },
};

static const char *expected_miss(const char *gb, const char *figure)
{
	for (size_t i = 0; i < sizeof(misses) / sizeof(misses[0]); i++)
		if ((!strcmp(misses[i].gb, gb) || !strcmp(misses[i].gb, "any")) &&
		    !strcmp(misses[i].figure, figure))
			return misses[i].why;
	return NULL;
}

struct res {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ssd_counters c;
};

static void run(struct res *out, const char *gb, const char *state, const char *size,
		int read_pct, int random_pct, int qd, const char *ramp, const char *runt)
{
	struct tu_point p;
	tu_point_runf(&p, "family.yaml", "ssd0", 1,
		      "device: {model: intel-dc-s3700-%sg, state: %s}\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: %s, align: 4KiB, read: %d%%, "
		      "random: %d%%, outstanding: %d, ramp: %s, run: %s}\n",
		      gb, state, size, read_pct, random_pct, qd, ramp, runt);
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	out->c = *rs_ssd_counters(p.dev);
	tu_point_free(&p);
}

/* Print the figure and check it against the list of misses. */
static void figure(const char *gb, const char *name, double got, double want,
		   const char *unit)
{
	double dev = (got - want) / want * 100;
	bool met = fabs(dev) <= 10.0;
	const char *why = expected_miss(gb, name);
	printf("S3700 %s GB %-13s model %9.1f vs data sheet %9.1f %s (%+.1f %%)%s%s\n", gb,
	       name, got, want, unit, dev, met ? "" : ": NOT within 10 %, limited by ",
	       met ? "" : (why ? why : "(no mechanism listed)"));
	fflush(stdout);
	ck_assert_msg(met == (why == NULL), "%s GB %s: %s within 10 %% (%+.1f %%), the list of "
		      "misses says otherwise", gb, name, met ? "now" : "not", dev);
}

static const struct cap *cap_of(int i) { return &caps[i]; }

START_TEST(test_seq_read)
{
	const struct cap *c = cap_of(_i);
	struct res r;
	run(&r, c->gb, "full", "128KiB", 100, 0, 32, "0.1s", "1s");
	figure(c->gb, "seq read", r.s.mb_s, c->sr, "MB/s");
}
END_TEST

START_TEST(test_seq_write)
{
	const struct cap *c = cap_of(_i);
	struct res r;
	run(&r, c->gb, "fresh", "128KiB", 0, 0, 32, "0.1s", "1s");
	figure(c->gb, "seq write", r.s.mb_s, c->sw, "MB/s");
}
END_TEST

START_TEST(test_rand_read)
{
	const struct cap *c = cap_of(_i);
	struct res r;
	run(&r, c->gb, "steady", "4KiB", 100, 100, 32, "0.1s", "1s");
	figure(c->gb, "rand read", r.s.iops, c->rr, "IOPS");
}
END_TEST

/* Steady-state random writes at QD32: the figure, and the tail.  The
 * latency spread must come from mechanisms the counters name: collection
 * (victims taken, write amplification above 1) taking the dies and, for
 * every page it copies, the controller, queued with the host's commands;
 * and, where the dies are the limit, writes waiting for room in the write
 * buffer until a die has programmed its oldest units.  The drives with
 * more dies need longer to leave the starting layout (each die sees fewer
 * of the writes), hence the longer ramp. */
START_TEST(test_rand_write)
{
	const struct cap *c = cap_of(_i);
	static const char *const ramp[] = { "10s", "10s", "15s", "25s" };
	struct res r;
	run(&r, c->gb, "steady", "4KiB", 0, 100, 32, ramp[_i], "4s");
	figure(c->gb, "rand write", r.s.iops, c->rw, "IOPS");
	printf("S3700 %s GB QD32 random-write latency p50 %.3f ms, p99.9 %.3f ms, max %.3f "
	       "ms; wa %.2f, GC victims %llu, GC page copies through the controller %llu, "
	       "writes that waited for buffer room %llu\n", c->gb, r.s.lat_p50_ms,
	       r.s.lat_p999_ms, r.s.lat_max_ms, r.rep.extra, (unsigned long long)r.c.gc_victims,
	       (unsigned long long)r.c.gc_copies, (unsigned long long)r.c.stalls);
	fflush(stdout);
	ck_assert(r.s.lat_p999_ms > 1.2 * r.s.lat_p50_ms);
	ck_assert(r.rep.extra > 1.5);
	ck_assert(r.c.gc_victims > 0);
	ck_assert(r.c.gc_copies > 0);
	/* The dies limit the 100 GB drive: its writes wait for buffer room. */
	if (_i == 0)
		ck_assert(r.c.stalls > 0);
}
END_TEST

/* Typical latency: the data sheet's figures are 4 KiB sequential at QD1,
 * measured at the host; the model holds the drive and its SATA link. */
START_TEST(test_latency)
{
	const struct cap *c = cap_of(_i);
	struct res r, w;
	run(&r, c->gb, "full", "4KiB", 100, 0, 1, "0.02s", "0.3s");
	run(&w, c->gb, "full", "4KiB", 0, 0, 1, "0.02s", "0.3s");
	figure(c->gb, "read latency", r.s.lat_mean_ms * 1000, 50, "us");
	figure(c->gb, "write latency", w.s.lat_mean_ms * 1000, 65, "us");
}
END_TEST

/* Quality of service (S20): 99.9 % of 4 KiB random reads and of 4 KiB
 * random writes within 500 us, QD1, on a drive in steady state.  A bound,
 * so the model must stay under it.  Reads run closed loop at QD1.  A QD1
 * writer in the model has no host-side time, so it would offer ~49,000
 * writes/s, more than any capacity absorbs in steady state, and measure
 * its buffer filling instead; the writes are therefore offered at the pace
 * of a QD1 host seeing Intel's typical 65 us write latency (15,385/s,
 * Poisson), which the drive must absorb within the bound. */
START_TEST(test_qos)
{
	const struct cap *c = cap_of(_i);
	struct res r, w;
	run(&r, c->gb, "steady", "4KiB", 100, 100, 1, "0.05s", "0.5s");
	struct tu_point p;
	tu_point_runf(&p, "family.yaml", "ssd0", 1,
		      "device: {model: intel-dc-s3700-%sg, state: steady}\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 0%%, "
		      "random: 100%%, rate: 15385, ramp: 0.05s, run: 1s}\n", c->gb);
	w.s = p.load->summary;
	tu_point_free(&p);
	double rq = r.s.lat_p999_ms * 1000, wq = w.s.lat_p999_ms * 1000;
	printf("S3700 %s GB QoS 99.9 %%: read (QD1) model %.1f us, write (15,385/s) model "
	       "%.1f us vs data sheet at most 500 us\n", c->gb, rq, wq);
	fflush(stdout);
	ck_assert(rq <= 500);
	ck_assert(wq <= 500);
}
END_TEST

/* The same QD1 reads on a drive worn to its rated endurance (the model's
 * estimate, pe_cycles below) with data a month old: read retries (their
 * probability grows with both) lengthen the tail.  The data sheet's bound
 * is for a new drive; here the test asserts the direction and prints the
 * figure against the bound. */
START_TEST(test_qos_worn)
{
	struct res fresh, worn;
	run(&fresh, "100", "steady", "4KiB", 100, 100, 1, "0.05s", "0.5s");
	struct tu_point p;
	tu_point_runf(&p, "family.yaml", "ssd0", 1,
		      "device: {model: intel-dc-s3700-100g, state: steady, pe_cycles: 30000, "
		      "data_age: 720h}\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, "
		      "random: 100%%, outstanding: 1, ramp: 0.05s, run: 0.5s}\n");
	worn.s = p.load->summary;
	worn.c = *rs_ssd_counters(p.dev);
	tu_point_free(&p);
	printf("S3700 100 GB QoS 99.9 %% read (QD1): new %.1f us, at 30,000 P/E cycles with "
	       "month-old data %.1f us (%llu retries) vs data sheet (new drive) at most 500 us\n",
	       fresh.s.lat_p999_ms * 1000, worn.s.lat_p999_ms * 1000,
	       (unsigned long long)worn.c.read_retries);
	fflush(stdout);
	ck_assert_uint_gt(worn.c.read_retries, 0);
	ck_assert_double_gt(worn.s.lat_p999_ms, fresh.s.lat_p999_ms);
	ck_assert_double_gt(worn.s.lat_mean_ms, fresh.s.lat_mean_ms);
}
END_TEST

/* Performance consistency (S20): the IOPS of the slowest 1-second
 * interval at the 99.9th percentile over the average IOPS, 4 KiB random at
 * QD32, at least 90 % for reads and for writes.  The model's runs last
 * seconds, not Intel's hours, so the intervals are 100 ms (finer intervals
 * only vary more) and the slowest of them is the percentile.  Done for the
 * 100 GB drive, the study's, whose writes are limited by its dies (the
 * capacity where collection is most on the host's path). */
static double consistency(const char *log, double from, double to, double width)
{
	enum { MAXN = 1024 };
	static uint64_t n[MAXN];
	size_t k = (size_t)((to - from) / width);
	ck_assert(k > 4 && k <= MAXN);
	memset(n, 0, sizeof(n));
	for (const char *l = log; l && *l;) {
		double t = strtod(l, NULL), lat;
		const char *c = l;
		for (int f = 0; f < 4 && c; f++)
			c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
		lat = c ? strtod(c, NULL) : 0;
		double done = t + lat;
		if (done >= from && done < from + (double)k * width)
			n[(size_t)((done - from) / width)]++;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	uint64_t sum = 0, least = UINT64_MAX;
	for (size_t i = 0; i < k; i++) {
		sum += n[i];
		if (n[i] < least)
			least = n[i];
	}
	return sum ? (double)least * (double)k / (double)sum : 0;
}

static void build_ssd0(struct tu_point *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void build_ssd0(struct tu_point *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tu_point_vbuild(p, "family.yaml", "ssd0", 1, fmt, ap);
	va_end(ap);
	tu_point_need(p, p->load);
}

static double consistency_run(const char *gb, int read_pct, const char *ramp_s, double ramp,
			      double runt)
{
	struct tu_point p;
	build_ssd0(&p, "device: {model: intel-dc-s3700-%sg, state: steady}\n"
		   "workload:\n"
		   "  iometer: {spec: default, size: 4KiB, align: 4KiB, read: %d%%, "
		   "random: 100%%, outstanding: 32, ramp: %s, run: %gs}\n",
		   gb, read_pct, ramp_s, runt);
	tu_point_log(&p);
	tu_point_go(&p);
	fflush(p.logf);
	double c = consistency(p.log, ramp, ramp + runt, 0.1);
	tu_point_free(&p);
	return c;
}

START_TEST(test_consistency)
{
	double rd = consistency_run("100", 100, "0.1s", 0.1, 2);
	double wr = consistency_run("100", 0, "10s", 10, 4);
	printf("S3700 100 GB performance consistency (slowest 100 ms / mean IOPS, QD32): read "
	       "model %.1f %%, write model %.1f %% vs data sheet at least 90 %%\n", rd * 100,
	       wr * 100);
	fflush(stdout);
	ck_assert(rd >= 0.9);
	ck_assert(wr >= 0.9);
}
END_TEST

static Suite *family_suite(void)
{
	Suite *s = suite_create("ssd_family");
	TCase *tc = tcase_create("s3700");
	tcase_set_timeout(tc, 900);
	int n = (int)(sizeof(caps) / sizeof(caps[0]));
	tcase_add_loop_test(tc, test_seq_read, 0, n);
	tcase_add_loop_test(tc, test_seq_write, 0, n);
	tcase_add_loop_test(tc, test_rand_read, 0, n);
	tcase_add_loop_test(tc, test_rand_write, 0, n);
	tcase_add_loop_test(tc, test_latency, 0, n);
	suite_add_tcase(s, tc);
	/* The quality-of-service figures on their own (CK_RUN_CASE=qos). */
	TCase *qos = tcase_create("qos");
	tcase_set_timeout(qos, 900);
	tcase_add_loop_test(qos, test_qos, 0, n);
	tcase_add_test(qos, test_qos_worn);
	tcase_add_test(qos, test_consistency);
	suite_add_tcase(s, qos);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(family_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
