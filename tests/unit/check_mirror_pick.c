/* Unit tests for src/raid/mirror_pick: each read_policy variant on two and
 * three copies, idle and busy.  The alternate-when-idle variants must
 * alternate with every copy idle even when one head is nearer (what makes
 * a mirror only slightly faster than one drive at one outstanding I/O),
 * and must stop alternating once a copy is busy. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "raid/mirror_pick.h"

/* Copy 1's head sits on the block read; copy 0's far away. */
static const struct rs_mirror_copy idle_near1[2] = { { 1000000, 0, 0 }, { 5000, 0, 0 } };

static size_t pick(int policy, const struct rs_mirror_copy *c, size_t n, uint32_t *turn)
{
	return rs_mirror_pick(policy, c, n, 5000, turn);
}

START_TEST(primary_always_first)
{
	uint32_t turn = 0;
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(pick(READ_PRIMARY, idle_near1, 2, &turn), 0);
}
END_TEST

START_TEST(alternate_ignores_heads)
{
	uint32_t turn = 0;
	ck_assert_uint_eq(pick(READ_ALTERNATE, idle_near1, 2, &turn), 0);
	ck_assert_uint_eq(pick(READ_ALTERNATE, idle_near1, 2, &turn), 1);
	ck_assert_uint_eq(pick(READ_ALTERNATE, idle_near1, 2, &turn), 0);
}
END_TEST

START_TEST(nearest_head_even_when_idle)
{
	uint32_t turn = 0;
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(pick(READ_NEAREST_HEAD, idle_near1, 2, &turn), 1);
}
END_TEST

START_TEST(alternate_nearest_idle_alternates)
{
	uint32_t turn = 0;
	ck_assert_uint_eq(pick(READ_ALTERNATE_NEAREST, idle_near1, 2, &turn), 0);
	ck_assert_uint_eq(pick(READ_ALTERNATE_NEAREST, idle_near1, 2, &turn), 1);
	ck_assert_uint_eq(pick(READ_ALTERNATE_NEAREST, idle_near1, 2, &turn), 0);
}
END_TEST

START_TEST(alternate_nearest_busy_takes_nearest)
{
	/* Copy 1 is nearer but busier: the head decides, not the queue. */
	const struct rs_mirror_copy c[2] = { { 1000000, 0, 0 }, { 5000, 3, 0 } };
	uint32_t turn = 0;
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(pick(READ_ALTERNATE_NEAREST, c, 2, &turn), 1);
}
END_TEST

START_TEST(alternate_queue_idle_alternates)
{
	uint32_t turn = 1;
	ck_assert_uint_eq(pick(READ_ALTERNATE_QUEUE, idle_near1, 2, &turn), 1);
	ck_assert_uint_eq(pick(READ_ALTERNATE_QUEUE, idle_near1, 2, &turn), 0);
}
END_TEST

START_TEST(alternate_queue_busy_takes_shorter_then_nearer)
{
	/* Copy 1 is nearer but busier: the queue decides. */
	const struct rs_mirror_copy busy1[2] = { { 1000000, 0, 0 }, { 5000, 2, 0 } };
	/* Equal queues: the nearer head. */
	const struct rs_mirror_copy tie[3] = { { 1000000, 2, 0 }, { 4000, 2, 0 }, { 5001, 2, 0 } };
	uint32_t turn = 0;
	for (int k = 0; k < 3; k++) {
		ck_assert_uint_eq(pick(READ_ALTERNATE_QUEUE, busy1, 2, &turn), 0);
		ck_assert_uint_eq(pick(READ_ALTERNATE_QUEUE, tie, 3, &turn), 2);
	}
}
END_TEST

START_TEST(alternate_split_idle_alternates)
{
	/* Both idle: in turn, whatever part of the range the read is in. */
	const struct rs_mirror_copy c[2] = { { 1000000, 0, 2000000 }, { 5000, 0, 2000000 } };
	uint32_t turn = 0;
	ck_assert_uint_eq(pick(READ_ALTERNATE_SPLIT, c, 2, &turn), 0);
	ck_assert_uint_eq(pick(READ_ALTERNATE_SPLIT, c, 2, &turn), 1);
	ck_assert_uint_eq(pick(READ_ALTERNATE_SPLIT, c, 2, &turn), 0);
}
END_TEST

START_TEST(alternate_split_busy_takes_owner)
{
	/* A copy busy: the owner of the read's part of the range, even with
	 * the other head nearer and the owner's queue longer. */
	const struct rs_mirror_copy two[2] = { { 5000, 4, 2000000 }, { 1000000, 0, 2000000 } };
	const struct rs_mirror_copy three[3] = { { 0, 1, 3000 }, { 0, 0, 3000 }, { 0, 0, 3000 } };
	uint32_t turn = 0;
	for (int k = 0; k < 3; k++) {
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, two, 2, 10, &turn), 0);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, two, 2, 999999, &turn), 0);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, two, 2, 1000000, &turn), 1);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, two, 2, 1999999, &turn), 1);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, three, 3, 999, &turn), 0);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, three, 3, 1000, &turn), 1);
		ck_assert_uint_eq(rs_mirror_pick(READ_ALTERNATE_SPLIT, three, 3, 2999, &turn), 2);
	}
}
END_TEST

START_TEST(alternate_split_without_span_takes_nearest)
{
	/* No range known: the nearer head, as alternate-nearest. */
	const struct rs_mirror_copy c[2] = { { 1000000, 1, 0 }, { 5000, 3, 0 } };
	uint32_t turn = 0;
	for (int k = 0; k < 3; k++)
		ck_assert_uint_eq(pick(READ_ALTERNATE_SPLIT, c, 2, &turn), 1);
}
END_TEST

START_TEST(shortest_queue_ties_in_turn)
{
	const struct rs_mirror_copy c[3] = { { 0, 1, 0 }, { 0, 1, 0 }, { 0, 1, 0 } };
	const struct rs_mirror_copy one_free[3] = { { 0, 1, 0 }, { 0, 1, 0 }, { 0, 0, 0 } };
	uint32_t turn = 0;
	ck_assert_uint_eq(pick(READ_SHORTEST_QUEUE, c, 3, &turn), 0);
	ck_assert_uint_eq(pick(READ_SHORTEST_QUEUE, c, 3, &turn), 1);
	ck_assert_uint_eq(pick(READ_SHORTEST_QUEUE, c, 3, &turn), 2);
	ck_assert_uint_eq(pick(READ_SHORTEST_QUEUE, one_free, 3, &turn), 2);
}
END_TEST

START_TEST(single_copy)
{
	const struct rs_mirror_copy c[1] = { { 7, 9, 0 } };
	for (int p = READ_PRIMARY; p <= READ_ALTERNATE_SPLIT; p++) {
		uint32_t turn = 5;
		ck_assert_uint_eq(pick(p, c, 1, &turn), 0);
		ck_assert_uint_eq(turn, 6);
	}
}
END_TEST

static Suite *mirror_pick_suite(void)
{
	Suite *s = suite_create("mirror_pick");
	TCase *tc = tcase_create("policies");
	tcase_add_test(tc, primary_always_first);
	tcase_add_test(tc, alternate_ignores_heads);
	tcase_add_test(tc, nearest_head_even_when_idle);
	tcase_add_test(tc, alternate_nearest_idle_alternates);
	tcase_add_test(tc, alternate_nearest_busy_takes_nearest);
	tcase_add_test(tc, alternate_queue_idle_alternates);
	tcase_add_test(tc, alternate_queue_busy_takes_shorter_then_nearer);
	tcase_add_test(tc, alternate_split_idle_alternates);
	tcase_add_test(tc, alternate_split_busy_takes_owner);
	tcase_add_test(tc, alternate_split_without_span_takes_nearest);
	tcase_add_test(tc, shortest_queue_ties_in_turn);
	tcase_add_test(tc, single_copy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mirror_pick_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
