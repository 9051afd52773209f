/* Unit tests for partial-unit writes on an SSD (src/ssd/ssd.c, wbuf.c):
 * the FTL maps whole 4 KiB units, so with merge_partial_writes a write
 * covering part of a unit whose data is on flash makes the drive read that
 * unit (one flash read each for a partial first and last unit) before the
 * unit can be programmed, while whole units, units still in the write
 * buffer and never-written units merge for free.
 * Drives are tiny, as in check_ssd.c. */
#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssd/ftl.h"
#include "ssd/ssd.h"
#include "ssd/wbuf.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* 2 channels x 2 dies x 2 planes, 64 blocks of 16 pages of 8 KiB: 64 MiB
 * of flash, 48 MiB for the user; tR 50 us. */
#define TINY_ANY                                                                      \
	"device: {type: ssd, capacity: 48MiB, channels: 2, dies_per_channel: 2, planes: 2, " \
	"blocks_per_plane: 64, pages_per_block: 16, page_size: 8KiB, t_read: 50us, "       \
	"t_prog: 1.2ms, t_erase: 3ms, write_buffer: 256KiB, "
#define MERGE "merge_partial_writes: true, "

/* QD1 random writes of one size and alignment over the whole drive, paced
 * far below what the dies absorb, so every write finds buffer room. */
#define QD1_WRITES(size, align)                                                      \
	"workload:\n  iometer: {spec: default, size: " size ", align: " align ", "       \
	"read: 0%%, random: 100%%, outstanding: 1, rate: 2000, ramp: 0s, run: 0.5s}\n"

struct mrun {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ssd_counters c;
	uint64_t ftl_bad;
};

static void run(struct mrun *out, uint64_t seed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void run(struct mrun *out, uint64_t seed, const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vrun(&p, "merge.yaml", "ssd0", seed, fmt, ap);
	va_end(ap);
	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	out->c = *rs_ssd_counters(p.dev);
	out->ftl_bad = ftl_check(rs_ssd_ftl(p.dev));
	tu_point_free(&p);
}

static bool extra(const struct rs_dev_report *r, const char *name, double *value)
{
	for (uint32_t i = 0; i < r->nextras; i++)
		if (!strcmp(r->extras[i].name, name)) {
			*value = r->extras[i].value;
			return true;
		}
	return false;
}

static void show(const char *what, const struct mrun *r)
{
	printf("%-34s %8llu writes, %6llu merge reads, %6llu flash reads, mean %.1f us\n", what,
	       (unsigned long long)r->s.ops, (unsigned long long)r->c.merge_reads,
	       (unsigned long long)r->c.units_read_flash, r->s.lat_mean_ms * 1e3);
	fflush(stdout);
}

/* 512-byte writes at random 512-byte offsets of a drive written full:
 * nearly every one lands in a unit on flash and starts a read of it.
 * The write itself completes in the buffer as before (it is safe there);
 * without the mechanism the same writes read nothing. */
START_TEST(partial_writes_read_their_unit)
{
	struct mrun merge, plain;
	run(&merge, 1, TINY_ANY MERGE "state: full}\n" QD1_WRITES("512B", "512B"));
	run(&plain, 1, TINY_ANY "state: full}\n" QD1_WRITES("512B", "512B"));
	show("512 B writes, merging", &merge);
	show("512 B writes, not merging", &plain);
	ck_assert_uint_gt(merge.s.ops, 500);
	ck_assert_uint_eq(plain.c.merge_reads, 0);
	ck_assert_uint_eq(plain.c.units_read_flash, 0);
	/* Each write has one partial unit; the few that find their unit still
	 * in the buffer merge there. */
	ck_assert_uint_le(merge.c.merge_reads, merge.c.host_units_written);
	ck_assert_uint_ge(merge.c.merge_reads * 10, merge.c.host_units_written * 9);
	ck_assert_uint_eq(merge.c.units_read_flash, merge.c.merge_reads);
	/* Paced far below saturation, the writes do not wait for the reads. */
	ck_assert_double_lt(merge.s.lat_mean_ms, plain.s.lat_mean_ms * 1.1);
	ck_assert_uint_eq(merge.ftl_bad, 0);
	double col;
	ck_assert(extra(&merge.rep, "merge_reads", &col));
	ck_assert_double_eq(col, (double)merge.c.merge_reads);  /* no ramp: the whole run */
	ck_assert(!extra(&plain.rep, "merge_reads", &col));
}
END_TEST

/* At saturation the reads cost die time: each unit a 512-byte write
 * dirties is read (tR 50 us and the transfer) besides its share of a
 * program (1.2 ms for 4 units), so fewer writes a second.  A quarter of
 * the flash is user data, so collection costs little and the dies'
 * time goes to host programs and the merges. */
START_TEST(merges_cost_die_time)
{
	static const char *const roomy =
		"device: {type: ssd, capacity: 16MiB, channels: 2, dies_per_channel: 2, "
		"planes: 2, blocks_per_plane: 64, pages_per_block: 16, page_size: 8KiB, "
		"t_read: 50us, t_prog: 1.2ms, t_erase: 3ms, write_buffer: 256KiB, state: full, ";
	static const char *const busy =
		"workload:\n  iometer: {spec: default, size: 512B, align: 512B, read: 0%, "
		"random: 100%, outstanding: 32, ramp: 0.2s, run: 1s}\n";
	struct mrun merge, plain;
	run(&merge, 6, "%s" MERGE "}\n%s", roomy, busy);
	run(&plain, 6, "%s}\n%s", roomy, busy);
	printf("QD32 512 B random writes: merging %.0f IOPS (%llu reads), not merging %.0f IOPS\n",
	       merge.s.iops, (unsigned long long)merge.c.merge_reads, plain.s.iops);
	fflush(stdout);
	ck_assert_uint_gt(merge.c.merge_reads, 1000);
	/* 50 us and the transfer against ~300 us of program a unit. */
	ck_assert_double_lt(merge.s.iops, plain.s.iops * 0.92);
	ck_assert_double_gt(merge.s.iops, plain.s.iops * 0.7);
	ck_assert_uint_eq(merge.ftl_bad, 0);
}
END_TEST

/* Whole, aligned units have nothing to keep: no reads, whether or not the
 * mechanism is on, and the same latencies. */
START_TEST(whole_units_merge_nothing)
{
	struct mrun merge, plain;
	run(&merge, 2, TINY_ANY MERGE "state: full}\n" QD1_WRITES("8KiB", "4KiB"));
	run(&plain, 2, TINY_ANY "state: full}\n" QD1_WRITES("8KiB", "4KiB"));
	show("8 KiB aligned writes, merging", &merge);
	ck_assert_uint_eq(merge.c.merge_reads, 0);
	ck_assert_double_eq(merge.s.lat_mean_ms, plain.s.lat_mean_ms);
	ck_assert_double_eq(merge.s.lat_p999_ms, plain.s.lat_p999_ms);
}
END_TEST

/* A misaligned write spanning units has a partial first and a partial
 * last unit and a whole one between them.  8 KiB writes at 2 KiB offsets
 * start on a unit boundary half the time (two whole units: no read) and
 * 2 KiB into a unit the other half (three units: two reads), so about one
 * read a write. */
START_TEST(misaligned_writes_read_both_ends)
{
	struct mrun r;
	run(&r, 3, TINY_ANY MERGE "state: full}\n" QD1_WRITES("8KiB", "2KiB"));
	show("8 KiB writes at 2 KiB offsets", &r);
	ck_assert_uint_gt(r.s.ops, 500);
	ck_assert_uint_gt(r.c.merge_reads * 10, r.s.ops * 7);
	ck_assert_uint_lt(r.c.merge_reads * 10, r.s.ops * 13);
	ck_assert_uint_eq(r.ftl_bad, 0);
}
END_TEST

/* Never-written units and units still in the buffer need no read: on a
 * fresh drive nothing is on flash until the run puts it there, and
 * 512-byte writes walking one unit after another mostly find their unit
 * in the buffer. */
START_TEST(buffer_and_unwritten_units_merge_free)
{
	struct mrun fresh, seq;
	run(&fresh, 4, TINY_ANY MERGE "state: fresh}\n" QD1_WRITES("512B", "512B"));
	show("512 B writes on a fresh drive", &fresh);
	/* Only the units this run has written and programmed already (random
	 * offsets hit a few again) have anything on flash. */
	ck_assert_uint_lt(fresh.c.merge_reads * 10, fresh.s.ops);
	run(&seq, 4, TINY_ANY MERGE "state: full}\n"
	    "workload:\n  iometer: {spec: default, size: 512B, read: 0%%, random: 0%%, "
	    "outstanding: 1, rate: 2000, ramp: 0s, run: 0.5s}\n");
	show("512 B sequential writes, merging", &seq);
	/* Eight writes fill a unit: the first reads it; the next merge in the
	 * buffer, unless the unit's page was programmed before its last
	 * sector came (the buffer does not wait for a unit to fill), which
	 * reads it again.  Far fewer reads than writes either way. */
	ck_assert_uint_gt(seq.c.merge_reads * 8, seq.s.ops);
	ck_assert_uint_lt(seq.c.merge_reads * 3, seq.s.ops);
}
END_TEST

/* Same seed, same run. */
START_TEST(merges_deterministic)
{
	struct mrun a, b;
	run(&a, 5, TINY_ANY MERGE "state: steady}\n" QD1_WRITES("2KiB", "1KiB"));
	run(&b, 5, TINY_ANY MERGE "state: steady}\n" QD1_WRITES("2KiB", "1KiB"));
	ck_assert_uint_eq(a.c.merge_reads, b.c.merge_reads);
	ck_assert_double_eq(a.s.lat_mean_ms, b.s.lat_mean_ms);
	ck_assert_uint_gt(a.c.merge_reads, 0);
}
END_TEST

/* The buffer's programs take the oldest units up to the first still
 * merging, whatever order the merges end in. */
START_TEST(buffer_waits_for_the_oldest_merge)
{
	struct wbuf w;
	uint32_t lpns[8];
	wbuf_init(&w, 8);
	for (uint32_t u = 0; u < 5; u++)
		ck_assert_uint_eq(wbuf_push(&w, 100 + u), u);
	wbuf_mark_merging(&w, 1, 7001);
	wbuf_mark_merging(&w, 3, 7003);
	ck_assert_uint_eq(wbuf_ready(&w), 1);
	ck_assert_uint_eq(wbuf_merge_from(&w, 3), 7003);
	ck_assert_uint_eq(wbuf_merge_from(&w, 2), WBUF_NOT_MERGING);
	wbuf_merged(&w, 3);
	ck_assert_uint_eq(wbuf_ready(&w), 1);
	ck_assert_uint_eq(wbuf_take(&w, 4, lpns), 1);
	ck_assert_uint_eq(lpns[0], 100);
	wbuf_merged(&w, 1);
	ck_assert_uint_eq(wbuf_ready(&w), 4);
	ck_assert_uint_eq(wbuf_take(&w, 8, lpns), 4);
	ck_assert_uint_eq(lpns[0], 101);
	ck_assert_uint_eq(lpns[3], 104);
	/* The ring wraps: a merging slot past the end still holds back. */
	wbuf_release(&w, 5);
	for (uint32_t u = 0; u < 6; u++)
		wbuf_push(&w, 200 + u);   /* slots 5, 6, 7, 0, 1, 2 */
	wbuf_mark_merging(&w, 0, 9000);
	ck_assert_uint_eq(wbuf_ready(&w), 3);
	wbuf_merged(&w, 0);
	ck_assert_uint_eq(wbuf_ready(&w), 6);
	wbuf_free(&w);
}
END_TEST

static const struct tu_bad_device bad_cases[] = {
	{ "merge switch not a boolean", "type: ssd\nmerge_partial_writes: sometimes\n", 2, 23,
	  NULL },
};

START_TEST(bad_parameters)
{
	tu_expect_bad_device(&bad_cases[_i], "ssd0");
}
END_TEST

static Suite *merge_suite(void)
{
	Suite *s = suite_create("ssd_merge");
	TCase *tc = tcase_create("partial_units");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, partial_writes_read_their_unit);
	tcase_add_test(tc, merges_cost_die_time);
	tcase_add_test(tc, whole_units_merge_nothing);
	tcase_add_test(tc, misaligned_writes_read_both_ends);
	tcase_add_test(tc, buffer_and_unwritten_units_merge_free);
	tcase_add_test(tc, merges_deterministic);
	tcase_add_test(tc, buffer_waits_for_the_oldest_merge);
	tcase_add_loop_test(tc, bad_parameters, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(merge_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
