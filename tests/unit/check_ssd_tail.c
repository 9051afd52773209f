/* Unit tests for the ssd's wear mechanisms (src/ssd): read retries (a
 * page read whose first ECC decode fails reads again, more often on worn
 * blocks) and static wear levelling (a die whose erase-count spread passes
 * the threshold moves its coldest block's data to a worn block in idle
 * time, and not before).  Drives are tiny, as in check_ssd.c, so erases
 * come within seconds of simulated time. */
#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssd/ftl.h"
#include "ssd/ssd.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* 2 channels x 2 dies x 2 planes, 64 blocks of 16 pages of 8 KiB: 64 MiB
 * of flash, 48 MiB for the user. */
#define TINY_ANY                                                                      \
	"device: {type: ssd, capacity: 48MiB, channels: 2, dies_per_channel: 2, planes: 2, " \
	"blocks_per_plane: 64, pages_per_block: 16, page_size: 8KiB, t_prog: 1.2ms, "      \
	"t_erase: 3ms, write_buffer: 256KiB, "
#define TINY TINY_ANY "state: full, "

/* Retries on: a first decode fails with 1 % on an unworn block, doubling
 * every 1000 P/E cycles; each retry fails again half the time. */
#define RETRY "read_retries: 7, read_retry_p0: 0.01, read_retry_wear: 1000, " \
	      "read_retry_again: 0.5, read_retry_cost: 5us, "

struct trun {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ssd_counters c;
	uint64_t ftl_bad;
	uint32_t spread;              /* largest erase-count spread over the dies */
};

static void run(struct trun *out, uint64_t seed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void run(struct trun *out, uint64_t seed, const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vrun(&p, "tail.yaml", "ssd0", seed, fmt, ap);
	va_end(ap);
	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	out->c = *rs_ssd_counters(p.dev);
	const struct ftl *f = rs_ssd_ftl(p.dev);
	out->ftl_bad = ftl_check(f);
	for (uint32_t d = 0; d < f->g.ndies; d++) {
		uint32_t spread;
		ftl_coldest_full(f, d, &spread);
		if (spread > out->spread)
			out->spread = spread;
	}
	tu_point_free(&p);
}

static double extra(const struct rs_dev_report *r, const char *name)
{
	for (uint32_t i = 0; i < r->nextras; i++)
		if (!strcmp(r->extras[i].name, name))
			return r->extras[i].value;
	ck_abort_msg("the report has no '%s'", name);
	return 0;
}

static bool has_extra(const struct rs_dev_report *r, const char *name)
{
	for (uint32_t i = 0; i < r->nextras; i++)
		if (!strcmp(r->extras[i].name, name))
			return true;
	return false;
}

#define QD1_READS                                                                    \
	"workload:\n  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, " \
	"random: 100%%, outstanding: 1, ramp: 0.05s, run: 1s}\n"

/* ---- read retries -------------------------------------------------------- */

/* The same reads of the same data: at 4000 P/E cycles a first decode fails
 * 16 times as often as on an unworn block, so reads retry more, and the
 * mean and the 99.9th percentile rise; without retries the wear costs
 * nothing. */
START_TEST(worn_blocks_read_slower)
{
	struct trun fresh, worn, off;
	run(&fresh, 1, TINY RETRY "pe_cycles: 0}\n" QD1_READS);
	run(&worn, 1, TINY RETRY "pe_cycles: 4000}\n" QD1_READS);
	run(&off, 1, TINY "pe_cycles: 4000}\n" QD1_READS);
	printf("QD1 reads: unworn %.1f us mean, %.1f us p99.9, %llu retries; 4000 cycles %.1f "
	       "us, %.1f us, %llu retries; no retries %.1f us, %.1f us\n",
	       fresh.s.lat_mean_ms * 1e3, fresh.s.lat_p999_ms * 1e3,
	       (unsigned long long)fresh.c.read_retries, worn.s.lat_mean_ms * 1e3,
	       worn.s.lat_p999_ms * 1e3, (unsigned long long)worn.c.read_retries,
	       off.s.lat_mean_ms * 1e3, off.s.lat_p999_ms * 1e3);
	fflush(stdout);
	ck_assert_uint_eq(off.c.read_retries, 0);
	ck_assert_uint_gt(worn.c.reads_retried, 5 * fresh.c.reads_retried);
	ck_assert_uint_ge(worn.c.read_retries, worn.c.reads_retried);
	ck_assert_double_gt(worn.s.lat_mean_ms, fresh.s.lat_mean_ms);
	ck_assert_double_gt(worn.s.lat_mean_ms, off.s.lat_mean_ms);
	/* A retry is another tR (50 us) and transfer: the tail grows by more. */
	ck_assert_double_gt(worn.s.lat_p999_ms, off.s.lat_p999_ms + 0.05);
	ck_assert_double_gt(worn.s.lat_p999_ms, fresh.s.lat_p999_ms);
	/* The column counts the window (after the ramp), the counters the run. */
	ck_assert_double_gt(extra(&worn.rep, "read_retries"), 0);
	ck_assert_double_le(extra(&worn.rep, "read_retries"), (double)worn.c.read_retries);
}
END_TEST

/* Old data fails its first decode more often than data written now: the
 * starting state's data is data_age old, what the run rewrites is fresh. */
START_TEST(retention_age_adds_retries)
{
	struct trun young, old;
	run(&young, 2, TINY RETRY "read_retry_age: 720h}\n" QD1_READS);
	run(&old, 2, TINY RETRY "read_retry_age: 720h, data_age: 2880h}\n" QD1_READS);
	ck_assert_uint_gt(old.c.reads_retried, 5 * young.c.reads_retried);
	ck_assert_double_gt(old.s.lat_mean_ms, young.s.lat_mean_ms);
}
END_TEST

/* Garbage collection reads its victims' pages as the host does, so on worn
 * blocks its copies retry too and random writes in steady state slow down,
 * though the host reads nothing. */
START_TEST(collection_reads_retry_too)
{
	static const char *const writes =
		"workload:\n  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 0%, "
		"random: 100%, outstanding: 32, ramp: 1s, run: 1s}\n";
	struct trun fresh, worn;
	char text[1024];
	snprintf(text, sizeof(text), TINY_ANY RETRY "state: steady, pe_cycles: 0}\n%s", writes);
	run(&fresh, 4, "%s", text);
	snprintf(text, sizeof(text), TINY_ANY RETRY "state: steady, pe_cycles: 6000}\n%s", writes);
	run(&worn, 4, "%s", text);
	printf("steady random writes: unworn %.0f IOPS, %llu retries; 6000 cycles %.0f IOPS, "
	       "%llu retries\n", fresh.s.iops, (unsigned long long)fresh.c.read_retries,
	       worn.s.iops, (unsigned long long)worn.c.read_retries);
	fflush(stdout);
	ck_assert_uint_eq(worn.c.units_read_flash, 0);
	ck_assert_uint_gt(worn.c.gc_copies, 0);
	ck_assert_uint_gt(worn.c.read_retries, 10 * fresh.c.read_retries);
	ck_assert_double_lt(worn.s.iops, fresh.s.iops);
}
END_TEST

/* Draws come from the run's seeded stream; a drive with no retries takes
 * none and reports no column for them. */
START_TEST(retries_deterministic_and_off_by_default)
{
	struct trun a, b, c, plain, zero;
	run(&a, 7, TINY RETRY "pe_cycles: 3000}\n" QD1_READS);
	run(&b, 7, TINY RETRY "pe_cycles: 3000}\n" QD1_READS);
	run(&c, 8, TINY RETRY "pe_cycles: 3000}\n" QD1_READS);
	ck_assert_uint_eq(a.c.read_retries, b.c.read_retries);
	ck_assert_double_eq(a.s.lat_mean_ms, b.s.lat_mean_ms);
	ck_assert(a.c.read_retries != c.c.read_retries || a.s.lat_mean_ms != c.s.lat_mean_ms);
	run(&plain, 7, TINY "pe_cycles: 0}\n" QD1_READS);
	run(&zero, 7, TINY "read_retries: 0, read_retry_p0: 1, pe_cycles: 9000}\n" QD1_READS);
	ck_assert_uint_eq(zero.c.read_retries, 0);
	ck_assert_double_eq(plain.s.lat_mean_ms, zero.s.lat_mean_ms);
	ck_assert_double_eq(plain.s.lat_p999_ms, zero.s.lat_p999_ms);
	ck_assert(!has_extra(&plain.rep, "read_retries"));
	ck_assert(!has_extra(&plain.rep, "wl_moves"));
}
END_TEST

/* ---- static wear levelling ------------------------------------------------ */

/* Hot data: random writes over 1 MiB of a drive written full once, at a
 * rate the dies absorb with idle time to spare.  The blocks the hot data
 * cycles through wear; the cold ones (the rest of the fill) do not. */
#define HOT_WRITES(runt)                                                              \
	"workload:\n  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 0%%, "    \
	"random: 100%%, range: 1MiB, rate: 3000, ramp: 0s, run: " runt "}\n"

START_TEST(wear_levelling_moves_cold_data_past_the_spread)
{
	struct trun none, wl;
	run(&none, 3, TINY "wear_level_spread: 1000000}\n" HOT_WRITES("8s"));
	run(&wl, 3, TINY "wear_level_spread: 6}\n" HOT_WRITES("8s"));
	printf("hot writes 8 s: threshold 10^6: spread %u, %llu units moved; threshold 6: "
	       "spread %u, %llu blocks, %llu units moved\n", none.spread,
	       (unsigned long long)none.c.wl_moves, wl.spread,
	       (unsigned long long)wl.c.wl_victims, (unsigned long long)wl.c.wl_moves);
	fflush(stdout);
	/* Without levelling the spread passes 6 and nothing moves... */
	ck_assert_uint_gt(none.spread, 6);
	ck_assert_uint_eq(none.c.wl_moves, 0);
	ck_assert_uint_eq(none.c.wl_victims, 0);
	/* ...with it the cold blocks' data moves and the spread stays near
	 * the threshold. */
	ck_assert_uint_gt(wl.c.wl_victims, 0);
	ck_assert_uint_gt(wl.c.wl_moves, 0);
	ck_assert_uint_lt(wl.spread, none.spread);
	ck_assert_uint_eq(wl.ftl_bad, 0);
	ck_assert_double_eq(extra(&wl.rep, "wl_moves"), (double)wl.c.wl_moves);  /* no ramp */
}
END_TEST

/* Not before: every move starts at a spread past the threshold (the
 * counters keep the smallest spread a move started at), whatever the
 * threshold. */
START_TEST(wear_levelling_waits_for_the_spread)
{
	static const unsigned thresholds[] = { 3, 6, 9 };
	for (size_t i = 0; i < sizeof(thresholds) / sizeof(thresholds[0]); i++) {
		struct trun r;
		char text[1024];
		snprintf(text, sizeof(text), TINY "wear_level_spread: %u}\n", thresholds[i]);
		run(&r, 3, "%s" HOT_WRITES("8s"), text);
		printf("threshold %u: %llu blocks levelled, the first at a spread of %u\n",
		       thresholds[i], (unsigned long long)r.c.wl_victims, r.c.wl_least_spread);
		fflush(stdout);
		ck_assert_uint_gt(r.c.wl_victims, 0);
		ck_assert_uint_gt(r.c.wl_least_spread, thresholds[i]);
	}
}
END_TEST

/* ---- bad parameters ------------------------------------------------------ */

static const struct tu_bad_device bad_cases[] = {
	{ "negative retry probability", "type: ssd\nread_retry_p0: -0.1\n", 2, 16, "between" },
	{ "retry probability above 1", "type: ssd\nread_retry_again: 1.5\n", 2, 19, "between" },
	{ "retries beyond the ladder", "type: ssd\nread_retries: 65\n", 2, 15, "64" },
	{ "no wear doubling", "type: ssd\nread_retry_wear: 0\n", 2, 18, "positive" },
	{ "negative spread", "type: ssd\nwear_level_spread: -4\n", 2, 20, NULL },
};

START_TEST(bad_parameters)
{
	tu_expect_bad_device(&bad_cases[_i], "ssd0");
}
END_TEST

static Suite *tail_suite(void)
{
	Suite *s = suite_create("ssd_tail");
	TCase *rr = tcase_create("read_retries");
	tcase_set_timeout(rr, 120);
	tcase_add_test(rr, worn_blocks_read_slower);
	tcase_add_test(rr, retention_age_adds_retries);
	tcase_add_test(rr, collection_reads_retry_too);
	tcase_add_test(rr, retries_deterministic_and_off_by_default);
	suite_add_tcase(s, rr);
	TCase *wl = tcase_create("wear_levelling");
	tcase_set_timeout(wl, 120);
	tcase_add_test(wl, wear_levelling_moves_cold_data_past_the_spread);
	tcase_add_test(wl, wear_levelling_waits_for_the_spread);
	tcase_add_loop_test(wl, bad_parameters, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, wl);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tail_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
