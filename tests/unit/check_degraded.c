/* Unit tests for degraded operation (src/raid/degraded.c, member_fault.c,
 * the degraded rows of volume_parity.c): which members a read or write
 * without a lost member touches, every request completing exactly once
 * across a failure, the levels' tolerance, media errors and fail-slow.
 * Members are `ideal` devices with fixed service times, so the member
 * operations are exact. */
#include "array_harness.h"

#define R5 "type: array\nlevel: raid5\ndisks: {type: ideal, mean: 1ms, count: 4}\n"
#define R6 "type: array\nlevel: raid6\ndisks: {type: ideal, mean: 1ms, count: 5}\n"

static uint64_t bits(int n, const uint32_t *m)
{
	uint64_t b = 0;
	for (int i = 0; i < n; i++)
		b |= 1ull << m[i];
	return b;
}

/* Left-symmetric RAID5 of 4, row 0: D0 D1 D2 P.  A read of D1 with member
 * 1 lost reads the same blocks of every other member (D0, D2 and P). */
START_TEST(raid5_read_reconstructs_from_all_others)
{
	struct ah h;
	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_READ, 128 + 16, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 3);
	ck_assert_uint_eq(ah_members_touched(&h, 0), bits(3, (uint32_t[]){ 0, 2, 3 }));
	for (size_t i = 0; i < h.nev; i++) {
		ck_assert_uint_eq(h.ev[i].member_lba, 16);
		ck_assert_uint_eq(h.ev[i].nblk, 8);
		ck_assert_int_eq(h.ev[i].op, h.ev[i].member == 3 ? RS_ARRAY_PARITY_READ
								  : RS_ARRAY_READ);
	}
	ck_assert_int_eq(h.done[0].status, 0);
	ck_assert_uint_eq(ah_c(&h)->recon_reads, 1);
	ck_assert_uint_eq(ah_c(&h)->recon_bytes, 8 * 512);
	/* A read of a surviving member is untouched by the loss. */
	size_t from = h.nev;
	ah_submit(&h, RS_READ, 0, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev - from, 1);
	ck_assert_uint_eq(h.ev[from].member, 0);
	ah_free(&h);
}
END_TEST

/* RAID6 of 5, row 0: Q D0 D1 D2 P.  One loss: the other data and P (not
 * Q); two losses (D1 and P): the other data and Q. */
START_TEST(raid6_read_uses_p_then_q)
{
	struct ah h;
	ah_build(&h, R6);
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_submit(&h, RS_READ, 128, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 3);
	ck_assert_uint_eq(ah_members_touched(&h, 0), bits(3, (uint32_t[]){ 1, 3, 4 }));
	size_t from = h.nev;
	rs_array_fail_member(h.sim, h.dev, 4);
	ah_submit(&h, RS_READ, 128, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev - from, 3);
	ck_assert_uint_eq(ah_members_touched(&h, from), bits(3, (uint32_t[]){ 0, 1, 3 }));
	for (size_t i = 0; i < h.ndone; i++)
		ck_assert_int_eq(h.done[i].status, 0);
	ah_free(&h);
}
END_TEST

/* Mirrors: the surviving copy. */
START_TEST(mirror_reads_the_other_copy)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid10\ndisks: {type: ideal, count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 0);
	for (int i = 0; i < 6; i++)
		ah_submit(&h, RS_READ, 0, 8);
	ah_submit(&h, RS_WRITE, 0, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 7);
	ck_assert_uint_eq(ah_members_touched(&h, 0), 1ull << 1);
	ah_free(&h);
}
END_TEST

/* Writes to a degraded row: a lost parity makes a plain data write; a lost
 * data strip partly written is a reconstruct-write over the parity range
 * (the other data and P); a lost strip not written leaves
 * read-modify-write possible. */
START_TEST(raid5_degraded_writes)
{
	struct ah h;
	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 3);
	ah_submit(&h, RS_WRITE, 0, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 1);
	ck_assert_int_eq(h.ev[0].op, RS_ARRAY_WRITE);
	ck_assert_uint_eq(h.ev[0].member, 0);
	ck_assert_uint_eq(ah_c(&h)->xor_jobs, 0);
	ah_free(&h);

	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_WRITE, 128, 8);
	ah_run(&h);
	uint64_t reads = 0, writes = 0;
	for (size_t i = 0; i < h.nev; i++) {
		bool rd = h.ev[i].op == RS_ARRAY_READ || h.ev[i].op == RS_ARRAY_PARITY_READ;
		(rd ? &reads : &writes)[0] |= 1ull << h.ev[i].member;
		ck_assert_uint_eq(h.ev[i].member_lba, 0);
		ck_assert_uint_eq(h.ev[i].nblk, 8);
	}
	/* The write covers the lost strip's part of the parity range: the
	 * other data gives the new parity, old P is not needed. */
	ck_assert_uint_eq(h.nev, 3);
	ck_assert_uint_eq(reads, bits(2, (uint32_t[]){ 0, 2 }));
	ck_assert_uint_eq(writes, 1ull << 3);
	ck_assert_uint_eq(ah_c(&h)->rcw_stripes, 1);
	ah_free(&h);

	/* D0's last 8 blocks and D1's first 8, D1 lost: the parity range is
	 * the whole strip and D1's unwritten part must be reconstructed, so
	 * the whole range of D0, D2 and P is read. */
	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_WRITE, 120, 16);
	ah_run(&h);
	reads = writes = 0;
	for (size_t i = 0; i < h.nev; i++) {
		bool rd = h.ev[i].op == RS_ARRAY_READ || h.ev[i].op == RS_ARRAY_PARITY_READ;
		(rd ? &reads : &writes)[0] |= 1ull << h.ev[i].member;
		if (rd) {
			ck_assert_uint_eq(h.ev[i].member_lba, 0);
			ck_assert_uint_eq(h.ev[i].nblk, 128);
		}
	}
	ck_assert_uint_eq(h.nev, 5);
	ck_assert_uint_eq(reads, bits(3, (uint32_t[]){ 0, 2, 3 }));
	ck_assert_uint_eq(writes, bits(2, (uint32_t[]){ 0, 3 }));
	ah_free(&h);

	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_WRITE, 0, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 4);
	ck_assert_uint_eq(ah_members_touched(&h, 0), bits(2, (uint32_t[]){ 0, 3 }));
	ck_assert_uint_eq(ah_c(&h)->rmw_stripes, 1);
	ah_free(&h);
}
END_TEST

/* A member dies under a mixed load: every request completes once and
 * none fails (the commands it had are redone without it). */
static void failure_under_load(const char *text, uint32_t member, uint64_t *errors)
{
	struct ah h;
	ah_build(&h, text);
	ah_fail_at(&h, 150 * AH_MS, member);
	ah_load(&h, RS_READ, true, 4000, 16, 16, 1u << 20, RS_TIME_MAX);
	ah_run(&h);
	ck_assert_uint_eq(h.ndone, 4000);
	uint64_t e = 0;
	for (size_t i = 0; i < h.ndone; i++)
		e += h.done[i].status != 0;
	*errors = e;
	ck_assert_uint_eq(ah_c(&h)->member_failures, 1);
	ah_free(&h);
}

START_TEST(failure_under_load_completes_everything_once)
{
	uint64_t errors;
	failure_under_load(R5, 2, &errors);
	ck_assert_uint_eq(errors, 0);
	failure_under_load(R6, 0, &errors);
	ck_assert_uint_eq(errors, 0);
	failure_under_load("type: array\nlevel: raid1\ndisks: {type: ideal, count: 2}\n", 1,
			   &errors);
	ck_assert_uint_eq(errors, 0);
	failure_under_load("type: array\nlevel: raid10\ndisks: {type: ideal, count: 4}\n", 3,
			   &errors);
	ck_assert_uint_eq(errors, 0);
}
END_TEST

/* Tolerance: RAID6 survives two failures and loses data at the third;
 * RAID5 loses data at the second, and says so in every later request. */
static uint64_t errors_after_failures(const char *text, int n, const uint32_t *members,
				      bool *lost)
{
	struct ah h;
	ah_build(&h, text);
	for (int i = 0; i < n; i++)
		ah_fail_at(&h, (rs_time_t)(50 + 50 * i) * AH_MS, members[i]);
	ah_load(&h, RS_READ, true, 3000, 8, 8, 1u << 20, RS_TIME_MAX);
	ah_run(&h);
	ck_assert_uint_eq(h.ndone, 3000);
	uint64_t e = 0;
	for (size_t i = 0; i < h.ndone; i++) {
		if (h.done[i].status != 0)
			ck_assert_int_eq(h.done[i].status, -RS_ERR_DATALOSS);
		e += h.done[i].status != 0;
	}
	/* Once dead, dead: the last requests all failed. */
	if (e)
		ck_assert_int_eq(h.done[h.ndone - 1].status, -RS_ERR_DATALOSS);
	*lost = ah_c(&h)->data_lost;
	ck_assert_uint_eq(ah_c(&h)->dataloss_requests, e);
	ah_free(&h);
	return e;
}

START_TEST(tolerance_by_level)
{
	bool lost;
	ck_assert_uint_eq(errors_after_failures(R6, 2, (uint32_t[]){ 1, 3 }, &lost), 0);
	ck_assert(!lost);
	ck_assert_uint_gt(errors_after_failures(R6, 3, (uint32_t[]){ 1, 3, 4 }, &lost), 0);
	ck_assert(lost);
	ck_assert_uint_eq(errors_after_failures(R5, 1, (uint32_t[]){ 0 }, &lost), 0);
	ck_assert(!lost);
	ck_assert_uint_gt(errors_after_failures(R5, 2, (uint32_t[]){ 0, 2 }, &lost), 0);
	ck_assert(lost);
	/* RAID10 survives one loss per pair, not a whole pair. */
	const char *r10 = "type: array\nlevel: raid10\ndisks: {type: ideal, count: 4}\n";
	ck_assert_uint_eq(errors_after_failures(r10, 2, (uint32_t[]){ 0, 3 }, &lost), 0);
	ck_assert_uint_gt(errors_after_failures(r10, 2, (uint32_t[]){ 0, 1 }, &lost), 0);
}
END_TEST

/* `after_ios`: the member dies once it was sent that many commands. */
START_TEST(fail_after_ios)
{
	struct ah h;
	ah_build(&h, R5);
	rs_array_fail_member_after(h.dev, 1, 100);
	ah_load(&h, RS_READ, true, 2000, 8, 8, 1u << 20, RS_TIME_MAX);
	ah_run(&h);
	ck_assert_uint_eq(ah_c(&h)->member_failures, 1);
	/* Sent 100, and none after the failure (the same instant at most). */
	ck_assert_uint_le(ah_c(&h)->member_reads[1] + ah_c(&h)->member_writes[1], 108);
	ck_assert_uint_ge(ah_c(&h)->member_reads[1] + ah_c(&h)->member_writes[1], 100);
	for (size_t i = 0; i < h.ndone; i++)
		ck_assert_int_eq(h.done[i].status, 0);
	ah_free(&h);
}
END_TEST

/* A latent sector error: the read fails on its member and is rebuilt from
 * the others; RAID5 with a lost member cannot, RAID6 takes Q. */
START_TEST(media_error_reads)
{
	struct ah h;
	ah_build(&h, R5);
	ck_assert_int_eq(rs_array_add_media_error(h.dev, 0, 4, 4, 0), 0);
	ah_submit(&h, RS_READ, 0, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 4);
	ck_assert_uint_eq(h.ev[0].member, 0);
	ck_assert_uint_eq(ah_members_touched(&h, 1), bits(3, (uint32_t[]){ 1, 2, 3 }));
	ck_assert_int_eq(h.done[0].status, 0);
	ck_assert_uint_eq(ah_c(&h)->media_errors, 1);
	/* Now with member 1 lost: D0's reconstruction source fails too. */
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_READ, 128, 8);
	ah_run(&h);
	ck_assert_int_eq(h.done[1].status, -RS_ERR_DATALOSS);
	ah_free(&h);

	ah_build(&h, R6);
	ck_assert_int_eq(rs_array_add_media_error(h.dev, 1, 0, 7, 0), 0);
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_submit(&h, RS_READ, 128, 8);
	ah_run(&h);
	ck_assert_int_eq(h.done[0].status, 0);
	/* D0, D2, P, then Q in place of D0. */
	ck_assert_uint_eq(h.nev, 4);
	ck_assert_uint_eq(h.ev[3].member, 0);
	ah_free(&h);
}
END_TEST

/* A flush goes to every member still there. */
START_TEST(flush_skips_lost_members)
{
	struct ah h;
	ah_build(&h, R5);
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_submit(&h, RS_FLUSH, 0, 0);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 3);
	ck_assert_uint_eq(ah_members_touched(&h, 0), bits(3, (uint32_t[]){ 0, 1, 3 }));
	ck_assert_int_eq(h.done[0].status, 0);
	ah_free(&h);
}
END_TEST

/* RAID0+1 of 4 (stripe sets 0-1 and 2-3; strip 1 on members 1 and 3):
 * one failure takes its whole half offline, so strip 1's reads and
 * writes go to member 3 only, though member 1 itself is healthy. */
START_TEST(raid01_failure_takes_its_half_offline)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid01\ndisks: {type: ideal, mean: 1ms, count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 0);
	for (int i = 0; i < 6; i++)
		ah_submit(&h, RS_READ, 128, 8);
	ah_submit(&h, RS_WRITE, 128, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.nev, 7);
	ck_assert_uint_eq(ah_members_touched(&h, 0), bits(1, (uint32_t[]){ 3 }));
	for (size_t i = 0; i < h.ndone; i++)
		ck_assert_int_eq(h.done[i].status, 0);
	ah_free(&h);
}
END_TEST

/* Fail-slow: a member 5 times slower finishes its 1 ms commands in 5 ms. */
START_TEST(fail_slow_scales_service)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: single\ndisks: {type: ideal, mean: 1ms, count: 1}\n");
	rs_array_set_slow(h.dev, 0, 5);
	ah_submit(&h, RS_READ, 0, 8);
	ah_run(&h);
	ck_assert_int_eq(h.done[0].t_done - h.done[0].t_submit, 5 * AH_MS);
	ah_free(&h);
}
END_TEST

/* Fail-slow holds the drive: ten reads sent at once to a member 5 times
 * slower take 5 ms each, one after another (200 commands/s, not the
 * healthy drive's 1000 with the slowdown only added to each latency). */
START_TEST(fail_slow_costs_throughput)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: single\ndisks: {type: ideal, mean: 1ms, count: 1}\n");
	rs_array_set_slow(h.dev, 0, 5);
	for (int i = 0; i < 10; i++)
		ah_submit(&h, RS_READ, (uint64_t)i * 8, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.ndone, 10);
	rs_time_t last = 0;
	for (size_t i = 0; i < h.ndone; i++) {
		ck_assert_int_eq(h.done[i].status, 0);
		if (h.done[i].t_done > last)
			last = h.done[i].t_done;
	}
	ck_assert_int_eq(last, 50 * AH_MS);
	/* Back to health: the next ten share the drive's 1 ms each. */
	rs_array_set_slow(h.dev, 0, 1);
	rs_time_t t0 = h.sim->now;
	for (int i = 0; i < 10; i++)
		ah_submit(&h, RS_READ, (uint64_t)i * 8, 8);
	ah_run(&h);
	ck_assert_uint_eq(h.ndone, 20);
	ck_assert_int_eq(h.done[19].t_done - t0, 10 * AH_MS);
	ah_free(&h);
}
END_TEST

/* The same on a drive with a write cache (whose cached writes stamp no
 * t_issue): 400 mixed 4 KiB requests at 8 outstanding take about twice
 * as long on a member twice as slow as on one barely slow (1.01: one
 * command at a time as well, so the drive's reordering is lost in both);
 * the stretch scales the drive's service, not the wait in line before it. */
static double mixed_load_s(double slow)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: single\n"
		     "disks: {model: seagate-barracuda-7200-7-ncq, count: 1}\n");
	if (slow > 1)
		rs_array_set_slow(h.dev, 0, slow);
	ah_load(&h, RS_READ, true, 400, 8, 8, 1u << 20, RS_TIME_MAX);
	ah_run(&h);
	double s = (double)h.sim->now / 1e9;
	ah_free(&h);
	return s;
}

START_TEST(fail_slow_cached_writes)
{
	double healthy = mixed_load_s(1), barely = mixed_load_s(1.01), slow = mixed_load_s(2);
	printf("400 mixed requests on a Barracuda: %.3f s healthy, %.3f s 1.01 times "
	       "slower, %.3f s twice as slow\n", healthy, barely, slow);
	ck_assert(barely > healthy);
	ck_assert(slow > 1.6 * barely && slow < 2.4 * barely);
}
END_TEST

static Suite *degraded_suite(void)
{
	Suite *s = suite_create("degraded");
	TCase *tc = tcase_create("reads");
	tcase_add_test(tc, raid5_read_reconstructs_from_all_others);
	tcase_add_test(tc, raid6_read_uses_p_then_q);
	tcase_add_test(tc, mirror_reads_the_other_copy);
	tcase_add_test(tc, raid01_failure_takes_its_half_offline);
	tcase_add_test(tc, media_error_reads);
	suite_add_tcase(s, tc);
	tc = tcase_create("writes");
	tcase_add_test(tc, raid5_degraded_writes);
	suite_add_tcase(s, tc);
	tc = tcase_create("failures");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, failure_under_load_completes_everything_once);
	tcase_add_test(tc, tolerance_by_level);
	tcase_add_test(tc, fail_after_ios);
	tcase_add_test(tc, fail_slow_scales_service);
	tcase_add_test(tc, fail_slow_costs_throughput);
	tcase_add_test(tc, fail_slow_cached_writes);
	tcase_add_test(tc, flush_skips_lost_members);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(degraded_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
