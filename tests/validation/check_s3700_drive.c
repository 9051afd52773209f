/* Validation of the Intel SSD DC S3700 100 GB model
 * (models/ssds/intel-dc-s3700-100g.yaml) against its product
 * specification, one drive on its own SATA 6 Gb/s link, and of its
 * garbage collection against the analytic greedy-GC predictions.
 *
 * The honesty mechanism of validation.h: `findings[]` lists each id with
 * the status we EXPECT and one line saying why; each test simulates the
 * datasheet's measurement, prints
 *
 *     ID: reproduced|NOT reproduced: <measured> (study: <datasheet>)
 *
 * appends it to findings-s3700_drive.tsv in the build directory and then asserts
 * the outcome equals the expected status.  RS_VALIDATION_FLIP=ID inverts
 * an expectation.  MB = 10^6 bytes throughout.
 *
 * The drive's starting state is part of each measurement, as in Intel's
 * method: random reads and random writes on a drive in the random-write
 * steady state (state: steady, set up directly, not by simulating the
 * preconditioning), sequential reads on a drive written once sequentially
 * (state: full), sequential writes and the fresh-drive random writes on an
 * erased drive (state: fresh). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssd/ftl.h"
#include "ssd/ssd.h"
#include "validation.h"

static const struct finding findings[] = {
	{ "DATASHEET-s3700-rr", REPRODUCED, "4 KiB random read QD32: the controller's 13.3 us per command" },
	{ "DATASHEET-s3700-rw", REPRODUCED, "4 KiB random write QD32, steady state: program rate / emergent WA" },
	{ "DATASHEET-s3700-sr", REPRODUCED, "128 KiB sequential read QD32: the controller's data path" },
	{ "DATASHEET-s3700-sw", REPRODUCED, "128 KiB sequential write QD32 from fresh: 16 dies' program rate" },
	{ "DATASHEET-s3700-lat", REPRODUCED,
	  "QD1 4 KiB sequential read latency (the datasheet's definition): 3 of 4 reads find "
	  "their two-plane page still in the die's registers" },
	{ "DATASHEET-s3700-latr", NOT_REPRODUCED,
	  "QD1 4 KiB RANDOM read latency is ~91 us, not 50 us + link: every read pays tR (50 us) "
	  "and the 4 KiB bus transfer (21 us) besides the controller; the 50 us figure is Intel's "
	  "sequential latency" },
	{ "DATASHEET-s3700-gc", REPRODUCED, "steady-state random writes are slower than fresh ones" },
	{ "DATASHEET-s3700-wa", REPRODUCED,
	  "steady-state WA between the Agarwal-Marrow and Desnoyers LRU greedy predictions" },
};
#define NFINDINGS (sizeof(findings) / sizeof(findings[0]))

struct point {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ssd_geom g;
	uint64_t gc_high;
};

/* One drive, one IOMeter access specification. */
static void run(struct point *out, const char *state, const char *size, int read_pct,
		int random_pct, int qd, const char *ramp, const char *runt)
{
	char text[1024];
	int n = snprintf(text, sizeof(text),
			 "device: {model: intel-dc-s3700-100g, state: %s}\n"
			 "workload:\n"
			 "  iometer: {spec: default, size: %s, align: 4KiB, read: %d%%, "
			 "random: %d%%, outstanding: %d, ramp: %s, run: %s}\n",
			 state, size, read_pct, random_pct, qd, ramp, runt);
	ck_assert_int_lt(n, (int)sizeof(text));
	struct tu_point p;
	vd_run(&p, "s3700.yaml", text, (size_t)n, "ssd0");
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	out->g = rs_ssd_ftl(p.dev)->g;
	out->gc_high = ((const struct rs_ssd_params *)p.dev->params)->gc_high;
	tu_point_free(&p);
}

static bool within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want;
}

/* Memoised: several tests share the steady and fresh random-write runs. */
static struct point rw_steady, rw_fresh;
static bool have_steady, have_fresh;

static const struct point *steady_writes(void)
{
	if (!have_steady)
		run(&rw_steady, "steady", "4KiB", 0, 100, 32, "10s", "5s");
	have_steady = true;
	return &rw_steady;
}

static const struct point *fresh_writes(void)
{
	if (!have_fresh)
		run(&rw_fresh, "fresh", "4KiB", 0, 100, 32, "1s", "5s");
	have_fresh = true;
	return &rw_fresh;
}

START_TEST(test_S3700_RR)
{
	struct point p;
	run(&p, "steady", "4KiB", 100, 100, 32, "0.2s", "2s");
	char m[128];
	snprintf(m, sizeof(m), "%.0f IOPS (%s within 10 %%)", p.s.iops,
		 ok(within(p.s.iops, 75000, 0.10)));
	verdict("DATASHEET-s3700-rr", within(p.s.iops, 75000, 0.10), m, "75,000 IOPS (S20)");
}
END_TEST

START_TEST(test_S3700_RW)
{
	const struct point *p = steady_writes();
	char m[128];
	snprintf(m, sizeof(m), "%.0f IOPS at wa %.2f (%s within 10 %%)", p->s.iops, p->rep.extra,
		 ok(within(p->s.iops, 19000, 0.10)));
	verdict("DATASHEET-s3700-rw", within(p->s.iops, 19000, 0.10), m,
		"19,000 IOPS, 100 GB, full span (S20 [R])");
}
END_TEST

START_TEST(test_S3700_SR)
{
	struct point p;
	run(&p, "full", "128KiB", 100, 0, 32, "0.2s", "2s");
	char m[128];
	snprintf(m, sizeof(m), "%.1f MB/s (%s within 10 %%)", p.s.mb_s,
		 ok(within(p.s.mb_s, 500, 0.10)));
	verdict("DATASHEET-s3700-sr", within(p.s.mb_s, 500, 0.10), m, "500 MB/s (S20)");
}
END_TEST

START_TEST(test_S3700_SW)
{
	struct point p;
	run(&p, "fresh", "128KiB", 0, 0, 32, "0.2s", "2s");
	char m[128];
	snprintf(m, sizeof(m), "%.1f MB/s (%s within 10 %%)", p.s.mb_s,
		 ok(within(p.s.mb_s, 200, 0.10)));
	verdict("DATASHEET-s3700-sw", within(p.s.mb_s, 200, 0.10), m, "~200 MB/s, 100 GB (S20 [R])");
}
END_TEST

/* The SATA path modelled for a lone drive: its own 6 Gb/s link moving the
 * 4 KiB of data (600 MB/s, 0.23 us per Data FIS); the command and status
 * FISes and the host's AHCI work are not modelled. */
static double sata_path_us(void) { return 4096 / 600e6 * 1e6 + 0.23; }

START_TEST(test_S3700_LAT)
{
	struct point p;
	run(&p, "full", "4KiB", 100, 0, 1, "0.05s", "1s");
	double want = 50 + sata_path_us(), got = p.s.lat_mean_ms * 1000;
	char m[160], st[96];
	snprintf(m, sizeof(m), "%.1f us mean (%s within 20 %% of %.1f us)", got,
		 ok(within(got, want, 0.20)), want);
	snprintf(st, sizeof(st), "50 us typical + %.1f us SATA link modelled (S20)", sata_path_us());
	verdict("DATASHEET-s3700-lat", within(got, want, 0.20), m, st);
}
END_TEST

START_TEST(test_S3700_LATR)
{
	struct point p;
	run(&p, "steady", "4KiB", 100, 100, 1, "0.05s", "1s");
	double want = 50 + sata_path_us(), got = p.s.lat_mean_ms * 1000;
	char m[160], st[96];
	snprintf(m, sizeof(m), "%.1f us mean, %.0f IOPS (%s within 20 %% of %.1f us)", got,
		 p.s.iops, ok(within(got, want, 0.20)), want);
	snprintf(st, sizeof(st), "50 us typical + %.1f us SATA link modelled (S20)", sata_path_us());
	verdict("DATASHEET-s3700-latr", within(got, want, 0.20), m, st);
}
END_TEST

START_TEST(test_S3700_GC)
{
	const struct point *st = steady_writes(), *fr = fresh_writes();
	bool holds = st->s.iops < fr->s.iops && fr->rep.extra < 1.01 && st->rep.extra > 1.5;
	char m[160];
	snprintf(m, sizeof(m), "fresh %.0f IOPS at wa %.2f, steady %.0f IOPS at wa %.2f",
		 fr->s.iops, fr->rep.extra, st->s.iops, st->rep.extra);
	verdict("DATASHEET-s3700-gc", holds, m, "steady-state random writes below fresh-drive ones");
}
END_TEST

/* Greedy GC under uniform random writes, with alpha = user units / units
 * of the blocks GC can use (each die's blocks less the gc_high + 1 it keeps
 * free or open) and rho = 1/alpha - 1 (the over-provisioning):
 *  - Agarwal & Marrow (2010), "A closed-form expression for write
 *    amplification in NAND flash": WA = (1 + rho) / (2 rho);
 *  - Desnoyers (2012), "Analytic modeling of SSD write performance": the
 *    LRU (FIFO) cleaner's WA = 1 / (1 - v) with (v - 1) / ln v = alpha,
 *    the value greedy approaches as blocks hold many pages (a victim's
 *    valid count then varies little around the oldest block's).
 * The first is a lower estimate, the second an upper one; the measured
 * window's WA must lie between them, with 5 % either side. */
START_TEST(test_S3700_WA)
{
	const struct point *p = steady_writes();
	double units = (double)p->g.ndies * (double)(p->g.blocks_per_die - p->gc_high - 1) *
		       p->g.units_per_block;
	double alpha = (double)p->g.logical_units / units, rho = 1 / alpha - 1;
	double am = (1 + rho) / (2 * rho);
	double lo = 1e-9, hi = 1 - 1e-12;
	for (int i = 0; i < 200; i++) {
		double v = (lo + hi) / 2;
		if ((v - 1) / log(v) < alpha)
			lo = v;
		else
			hi = v;
	}
	double lru = 1 / (1 - (lo + hi) / 2), wa = p->rep.extra;
	bool holds = wa >= 0.95 * am && wa <= 1.05 * lru;
	char m[200], st[160];
	snprintf(m, sizeof(m), "wa %.3f (%s in [%.3f, %.3f])", wa, ok(holds), 0.95 * am,
		 1.05 * lru);
	snprintf(st, sizeof(st), "alpha %.3f, rho %.3f: Agarwal-Marrow %.3f, Desnoyers LRU %.3f",
		 alpha, rho, am, lru);
	verdict("DATASHEET-s3700-wa", holds, m, st);
}
END_TEST

static Suite *s3700_suite(void)
{
	Suite *s = suite_create("s3700");
	/* (Check forks per test by default, so the memoised runs are shared only
	 * with CK_FORK=no.) */
	TCase *tc = tcase_create("s3700");
	tcase_set_tags(tc, "slow");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_S3700_RR);
	tcase_add_test(tc, test_S3700_RW);
	tcase_add_test(tc, test_S3700_SR);
	tcase_add_test(tc, test_S3700_SW);
	tcase_add_test(tc, test_S3700_LAT);
	tcase_add_test(tc, test_S3700_LATR);
	tcase_add_test(tc, test_S3700_GC);
	tcase_add_test(tc, test_S3700_WA);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vd_main(s3700_suite, findings, NFINDINGS, "check_s3700_drive.c",
		       "findings-s3700_drive.tsv");
}
