/* Unit tests for cache.write_back_arrays: which arrays a write-back cache
 * acts on.  With `two-way` a controller in write-back takes writes into its
 * cache only for a mirror of two or a stripe over two drives, and writes
 * everything else through (nothing absorbed, the array's own latency).
 * With write_back_streams: through, a write that continues the previous
 * one is written through too. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "ctrl/cache.h"
#include "ctrl/controller.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "io/io.h"
#include "kernel/sim.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

START_TEST(scope_rule)
{
	/* {copies, data strips per row}: single, RAID0x2/x3/x4, RAID1, RAID01 x4. */
	ck_assert(!rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 1, 1));
	ck_assert(rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 1, 2));
	ck_assert(!rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 1, 3));
	ck_assert(!rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 1, 4));
	ck_assert(rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 2, 1));
	ck_assert(rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 2, 2));
	ck_assert(!rs_cache_wb_applies(RS_CACHE_WB_TWO_WAY, 3, 1));
	for (uint32_t n = 1; n <= 4; n++)
		ck_assert(rs_cache_wb_applies(RS_CACHE_WB_ANY, 1, n));
}
END_TEST

struct wlog {
	struct rs_dev *dev;
	int todo, done;
	uint64_t lba, step;
	rs_time_t first_lat;
};

static void issue(struct rs_sim *sim, struct wlog *l);

static void written(struct rs_sim *sim, struct rs_io *io)
{
	struct wlog *l = io->done_ctx;
	ck_assert_int_eq(io->status, 0);
	if (l->done++ == 0)
		l->first_lat = io->t_done - io->t_submit;
	rs_io_free(sim, io);
	issue(sim, l);
}

static void issue(struct rs_sim *sim, struct wlog *l)
{
	if (l->todo == 0)
		return;
	l->todo--;
	rs_dev_submit(sim, l->dev, rs_io_new(sim, RS_WRITE, l->lba, 16, written, l));
	l->lba += l->step;
}

/* Twenty 8 KiB writes, one at a time, `step` blocks apart, to `level` of
 * `n` ideal drives behind a write-back controller with the given scope and
 * stream setting; absorbed writes out. */
static uint64_t absorbed_as(const char *scope, const char *streams, uint64_t step,
			    const char *level, int n, rs_time_t *first_lat)
{
	char text[640];
	snprintf(text, sizeof(text),
		 "type: controller\ncommand_cost: 20us\nports: 4\n"
		 "cache: {mode: write-back, size: 4MiB, write_back_arrays: %s,\n"
		 "        write_back_streams: %s}\n"
		 "array: {type: array, level: %s, strip: 64KiB,\n"
		 "        disks: {type: ideal, mean: 1ms, bandwidth: 50MB/s, capacity: 1GB, "
		 "count: %d}}\n",
		 scope, streams, level, n);
	struct rs_model_path mp;
	struct rs_diag d;
	rs_diag_init(&d);
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root = rs_yaml_load_string("test.yaml", text, strlen(text), &d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = &mp, .diag = &d };
	struct rs_dev *dev = rs_dev_build(&b, root, "device", "ctrl");
	if (!dev)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(dev);
	struct wlog l = { .dev = dev, .todo = 20, .step = step };
	issue(sim, &l);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(l.done, 20);
	uint64_t got = rs_ctrl_counters(dev)->absorbed;
	*first_lat = l.first_lat;
	tu_check_conservation(sim);
	rs_dev_destroy(dev);
	rs_sim_free(sim);
	rs_node_free(root);
	rs_model_path_free(&mp);
	return got;
}

/* 2 MiB apart: never coalesced, spread over the members. */
static uint64_t absorbed(const char *scope, const char *level, int n, rs_time_t *first_lat)
{
	return absorbed_as(scope, "cache", 4096, level, n, first_lat);
}

START_TEST(two_way_arrays_cached)
{
	rs_time_t lat;
	ck_assert_uint_eq(absorbed("two-way", "raid0", 2, &lat), 20);
	ck_assert_int_lt(lat, 100 * RS_US);
	ck_assert_uint_eq(absorbed("two-way", "raid1", 2, &lat), 20);
	ck_assert_uint_eq(absorbed("two-way", "raid01", 4, &lat), 20);
}
END_TEST

START_TEST(other_arrays_written_through)
{
	rs_time_t lat;
	ck_assert_uint_eq(absorbed("two-way", "raid0", 3, &lat), 0);
	ck_assert_int_gt(lat, 1000 * RS_US);
	ck_assert_uint_eq(absorbed("two-way", "raid0", 4, &lat), 0);
	ck_assert_uint_eq(absorbed("two-way", "single", 1, &lat), 0);
	/* The default acts on every array. */
	ck_assert_uint_eq(absorbed("any", "raid0", 3, &lat), 20);
}
END_TEST

/* A stream (each write where the last ended) is written through with
 * `through`; scattered writes are still cached, and `cache` caches both. */
START_TEST(streams_written_through)
{
	rs_time_t lat;
	/* The first write starts the stream and is cached; the 19 after it
	 * continue it. */
	ck_assert_uint_eq(absorbed_as("two-way", "through", 16, "raid1", 2, &lat), 1);
	ck_assert_uint_eq(absorbed_as("two-way", "through", 4096, "raid1", 2, &lat), 20);
	ck_assert_uint_eq(absorbed_as("two-way", "cache", 16, "raid1", 2, &lat), 20);
}
END_TEST

static Suite *wb_scope_suite(void)
{
	Suite *s = suite_create("wb_scope");
	TCase *tc = tcase_create("scope");
	tcase_add_test(tc, scope_rule);
	tcase_add_test(tc, two_way_arrays_cached);
	tcase_add_test(tc, other_arrays_written_through);
	tcase_add_test(tc, streams_written_through);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wb_scope_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
