/* Unit tests for the ssd device (src/ssd): the FTL's invariants after many
 * random writes (valid counts agree with the map, GC frees blocks), write
 * amplification 1 for a sequential fill, the starting states, concurrency
 * bounded by dies and channels, the queue depth, reads served from the
 * write buffer, random-write IOPS falling once GC starts, determinism, and
 * bad parameters rejected at the right place.  The drives here are tiny
 * (tens of MiB) so that GC starts within a second of simulated time. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#include "ssd/ftl.h"
#include "ssd/ssd.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* 2 channels x 2 dies x 2 planes, 64 blocks of 16 pages of 8 KiB: 4 units
 * a page, 64 units (256 KiB) a block, 4096 units a die, 64 MiB in all;
 * 48 MiB of it for the user. */
#define TINY                                                                       \
	"type: ssd\ncapacity: 48MiB\nchannels: 2\ndies_per_channel: 2\nplanes: 2\n"   \
	"blocks_per_plane: 64\npages_per_block: 16\npage_size: 8KiB\n"                \
	"t_prog: 1.2ms\nt_erase: 3ms\nwrite_buffer: 256KiB\n"

struct srun {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ssd_counters c;
	uint64_t ftl_bad, host_units, gc_units, erases, mapped, min_free;
	double wa;
	uint32_t max_busy;
};

static void inspect(struct srun *out, const struct rs_dev *dev)
{
	const struct ftl *f = rs_ssd_ftl(dev);
	out->c = *rs_ssd_counters(dev);
	out->ftl_bad = ftl_check(f);
	out->host_units = f->host_units;
	out->gc_units = f->gc_units;
	out->erases = f->erases;
	out->wa = ftl_write_amp(f);
	out->max_busy = rs_ssd_max_busy_dies(dev);
	out->mapped = 0;
	for (uint64_t u = 0; u < f->g.logical_units; u++)
		out->mapped += ftl_map_get(f, (uint32_t)u) != FTL_NONE;
	out->min_free = UINT64_MAX;
	for (uint32_t d = 0; d < f->g.ndies; d++)
		if (f->die[d].nfree < out->min_free)
			out->min_free = f->die[d].nfree;
}

/* A scenario: `device:` and `workload:` (printf-formatted), run to the end
 * with the given seed. */
static void run(struct srun *out, uint64_t seed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void run(struct srun *out, uint64_t seed, const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vrun(&p, "test.yaml", "ssd0", seed, fmt, ap);
	va_end(ap);
	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	inspect(out, p.dev);
	tu_point_free(&p);
}

/* Indent a device text (one key a line) under `device:`. */
static const char *dev_yaml(const char *text, const char *extra)
{
	static char buf[2048];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "device:\n  ");
	for (const char *p = text; *p; p++) {
		buf[n++] = *p;
		if (*p == '\n' && (p[1] || extra[0]))
			buf[n++] = ' ', buf[n++] = ' ';
	}
	for (const char *p = extra; *p; p++) {
		buf[n++] = *p;
		if (*p == '\n' && p[1])
			buf[n++] = ' ', buf[n++] = ' ';
	}
	buf[n] = '\0';
	return buf;
}

#define IOM(rd, rnd, size, qd, ramp, runt)                                         \
	"workload:\n  iometer: {spec: default, size: " size ", align: 4KiB, read: " rd \
	", random: " rnd ", outstanding: " qd ", ramp: " ramp ", run: " runt "}\n"

/* ---- the FTL ------------------------------------------------------------- */

START_TEST(random_writes_keep_the_map_sound)
{
	struct srun r;
	run(&r, 1, "%s" IOM("0%%", "100%%", "4KiB", "32", "0s", "6s"),
	    dev_yaml(TINY, "state: fresh\n"));
	/* 6 s at ~12k units/s is more than the whole flash: GC must have run. */
	ck_assert_uint_gt(r.c.gc_victims, 10);
	ck_assert_uint_gt(r.erases, 10);
	ck_assert_uint_gt(r.gc_units, 0);
	ck_assert_uint_eq(r.ftl_bad, 0);
	/* GC keeps free blocks: no die ever ran out. */
	ck_assert_uint_ge(r.min_free, 1);
	ck_assert(r.wa > 1.0);
}
END_TEST

START_TEST(mixed_load_from_steady_keeps_the_map_sound)
{
	struct srun r;
	run(&r, 3, "%s" IOM("50%%", "100%%", "8KiB", "16", "0s", "3s"),
	    dev_yaml(TINY, "state: steady\n"));
	ck_assert_uint_eq(r.ftl_bad, 0);
	ck_assert_uint_gt(r.erases, 0);
	ck_assert_uint_gt(r.c.units_read_flash, 1000);
}
END_TEST

START_TEST(sequential_fill_has_no_amplification)
{
	struct srun r;
	/* 384 x 128 KiB = the 48 MiB, once, from the start. */
	run(&r, 1, "%s" IOM("0%%", "0%%", "128KiB", "4", "0s", "60s") , dev_yaml(TINY, "state: fresh\n"));
	ck_assert_uint_eq(r.ftl_bad, 0);
	ck_assert_uint_eq(r.gc_units, 0);
	ck_assert_double_eq(r.wa, 1.0);
	ck_assert_uint_gt(r.host_units, 0);
}
END_TEST

START_TEST(starting_states)
{
	static const char *const states[] = { "fresh", "full", "steady" };
	for (int i = 0; i < 3; i++) {
		char extra[64];
		snprintf(extra, sizeof(extra), "state: %s\n", states[i]);
		struct srun r;
		run(&r, 1, "%s" IOM("100%%", "100%%", "4KiB", "1", "0s", "10ms"),
		    dev_yaml(TINY, extra));
		ck_assert_uint_eq(r.ftl_bad, 0);
		ck_assert_uint_eq(r.mapped, i == 0 ? 0 : 48u * 1024 * 1024 / 4096);
		if (i == 0)
			ck_assert_uint_eq(r.c.units_read_flash, 0);
		else
			ck_assert_uint_gt(r.c.units_read_flash, 0);
	}
}
END_TEST

/* The steady state's valid counts fall from full blocks to the victims'
 * level, and the emptiest block is well below full. */
START_TEST(steady_state_distribution)
{
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root;
	struct rs_diag d;
	struct rs_dev *dev = tu_build_text(sim, &mp, TINY "state: steady\n", "ssd0", &root, &d);
	ck_assert_ptr_nonnull(dev);
	const struct ftl *f = rs_ssd_ftl(dev);
	ck_assert_uint_eq(ftl_check(f), 0);
	uint32_t lo = UINT32_MAX, hi = 0;
	for (uint32_t b = 0; b < f->g.blocks_per_die; b++) {
		if (f->state[b] != FTL_BLK_FULL)
			continue;
		lo = f->valid[b] < lo ? f->valid[b] : lo;
		hi = f->valid[b] > hi ? f->valid[b] : hi;
	}
	ck_assert_uint_eq(hi, f->g.units_per_block);
	ck_assert_uint_lt(lo, f->g.units_per_block * 3 / 4);
	ck_assert_uint_gt(lo, 0);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* The maps hold what was written, not the capacity: an 800 GB drive
 * (195 M units, 1.8 GB as flat tables) fresh, written once or in steady
 * state holds under 64 MiB before any I/O. */
START_TEST(map_memory_follows_data)
{
	static const char *const states[] = { "fresh", "full", "steady" };
	struct rs_model_path mp;
	tu_model_path(&mp, NULL);
	for (size_t i = 0; i < 3; i++) {
		struct rs_sim *sim = rs_sim_new(1);
		struct rs_node *root;
		struct rs_diag d;
		char text[128];
		snprintf(text, sizeof(text), "model: intel-dc-s3700-800g\nstate: %s\n", states[i]);
		struct rs_dev *dev = tu_build_text(sim, &mp, text, "ssd0", &root, &d);
		ck_assert_ptr_nonnull(dev);
		uint64_t heap = ftl_heap_bytes(rs_ssd_ftl(dev));
		ck_assert_msg(heap < (64ull << 20), "800 GB %s: %llu bytes", states[i],
			      (unsigned long long)heap);
		rs_dev_destroy(dev);
		rs_node_free(root);
		rs_sim_free(sim);
	}
	rs_model_path_free(&mp);
}
END_TEST

/* After random writes from the steady state, the units moved since the
 * start (kept apart from the starting layout's formula) and the layout
 * agree: every mapped unit's reverse entry points back, valid counts
 * match.  100 GB, so the moved units stay in the hash table; and the heap
 * grows with the writes, far below a flat table's 4 bytes per unit. */
START_TEST(moved_units_and_layout_agree)
{
	struct tu_point p;
	tu_point_runf(&p, "test.yaml", "ssd0", 1,
		      "device: {model: intel-dc-s3700-100g, state: steady}\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 30%%, "
		      "random: 100%%, outstanding: 32, run: 2s}\n");
	const struct ftl *f = rs_ssd_ftl(p.dev);
	ck_assert_uint_gt(f->gc_units, 0);
	ck_assert_ptr_null(f->flat);
	ck_assert_uint_gt(f->moved_count, 0);
	ck_assert_uint_eq(ftl_check(f), 0);
	ck_assert_uint_lt(ftl_heap_bytes(f), f->g.logical_units);
	tu_point_free(&p);
}
END_TEST

/* ---- timing ------------------------------------------------------------- */

/* With a free controller, reads are bounded by the dies: each read holds
 * its die for tR and the transfer, 4 dies give at most 4 / (tR + xfer). */
START_TEST(reads_bounded_by_dies)
{
	struct srun r;
	run(&r, 1, "%s" IOM("100%%", "100%%", "4KiB", "32", "0.1s", "1s"),
	    dev_yaml(TINY, "state: full\ncommand_cost: 0s\ninterface: false\n"
			   "t_read: 100us\n"));
	double bound = 4.0 / (100e-6 + 4096 / 200e6);
	ck_assert_double_le(r.s.iops, bound * 1.001);
	ck_assert_double_ge(r.s.iops, bound * 0.85);
	ck_assert_uint_eq(r.max_busy, 4);
}
END_TEST

/* With a slow bus, reads are bounded by the channels: one transfer at a
 * time per channel, 2 channels. */
START_TEST(reads_bounded_by_channels)
{
	struct srun r;
	run(&r, 1, "%s" IOM("100%%", "100%%", "4KiB", "32", "0.1s", "1s"),
	    dev_yaml(TINY, "state: full\ncommand_cost: 0s\ninterface: false\n"
			   "t_read: 1us\nchannel_rate: 20MB/s\n"));
	/* (t_read and channel_rate are the defaults elsewhere: 50us, 200MB/s) */
	double bound = 2.0 / (4096 / 20e6);
	ck_assert_double_le(r.s.iops, bound * 1.001);
	ck_assert_double_ge(r.s.iops, bound * 0.9);
}
END_TEST

static void done_free(struct rs_sim *sim, struct rs_io *io) { rs_io_free(sim, io); }

/* 100 commands at once: the drive takes queue_depth of them. */
START_TEST(queue_depth_never_exceeded)
{
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root;
	struct rs_diag d;
	struct rs_dev *dev = tu_build_text(sim, &mp, TINY "state: full\nqueue_depth: 8\n", "ssd0", &root, &d);
	ck_assert_ptr_nonnull(dev);
	for (int i = 0; i < 100; i++)
		rs_dev_submit(sim, dev,
			      rs_io_new(sim, i % 3 ? RS_READ : RS_WRITE, (uint64_t)i * 64, 8,
					done_free, NULL));
	rs_sim_run(sim, RS_TIME_MAX);
	tu_check_conservation(sim);
	ck_assert_uint_eq(dev->completed, 100);
	ck_assert_uint_eq(rs_ssd_counters(dev)->max_commands, 8);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* A read of data still in the write buffer needs no die. */
START_TEST(reads_from_the_write_buffer)
{
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root;
	struct rs_diag d;
	struct rs_dev *dev = tu_build_text(sim, &mp, TINY "state: full\n", "ssd0", &root, &d);
	ck_assert_ptr_nonnull(dev);
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_WRITE, 800, 8, done_free, NULL));
	rs_sim_run(sim, RS_TIME_MAX);
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_READ, 800, 8, done_free, NULL));
	rs_sim_run(sim, RS_TIME_MAX);
	tu_check_conservation(sim);
	const struct rs_ssd_counters *c = rs_ssd_counters(dev);
	ck_assert_uint_eq(c->units_read_buffer, 1);
	ck_assert_uint_eq(c->units_read_flash, 0);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* From fresh, random writes run at the program rate until the free blocks
 * are used up; then GC takes its share of the dies and the rate falls. */
START_TEST(random_write_iops_fall_when_gc_starts)
{
	struct srun early, late;
	run(&early, 1, "%s" IOM("0%%", "100%%", "4KiB", "32", "0s", "0.5s"),
	    dev_yaml(TINY, "state: fresh\n"));
	run(&late, 1, "%s" IOM("0%%", "100%%", "4KiB", "32", "5s", "2s"),
	    dev_yaml(TINY, "state: fresh\n"));
	ck_assert_uint_eq(early.gc_units, 0);
	ck_assert_uint_gt(late.gc_units, 0);
	ck_assert_double_lt(late.s.iops, 0.8 * early.s.iops);
	ck_assert(late.rep.extra > 1.2);  /* the window's WA, the table's "wa" */
	ck_assert_str_eq(late.rep.extra_name, "wa");
}
END_TEST

START_TEST(deterministic)
{
	struct srun a, b, c;
	const char *fmt = "%s" IOM("70%%", "100%%", "4KiB", "16", "0.5s", "1s");
	run(&a, 5, fmt, dev_yaml(TINY, "state: steady\n"));
	run(&b, 5, fmt, dev_yaml(TINY, "state: steady\n"));
	run(&c, 6, fmt, dev_yaml(TINY, "state: steady\n"));
	ck_assert_uint_eq(a.s.ops, b.s.ops);
	ck_assert_double_eq(a.s.lat_mean_ms, b.s.lat_mean_ms);
	ck_assert_uint_eq(a.gc_units, b.gc_units);
	ck_assert(a.s.ops != c.s.ops || a.s.lat_mean_ms != c.s.lat_mean_ms);
}
END_TEST

/* ---- bad parameters ------------------------------------------------------ */

static const struct tu_bad_device bad_cases[] = {
	{ "zero channels", "type: ssd\nchannels: 0\n", 2, 11, NULL },
	{ "page not 4 KiB units", "type: ssd\npage_size: 6KiB\n", 2, 12, "multiple of 4KiB" },
	{ "no spare blocks", "type: ssd\ncapacity: 140GB\n", 2, 11, "no spare blocks" },
	{ "reserve leaves no spare", "type: ssd\nreserved: 30%\n", 1, 1, "no spare blocks" },
	{ "gc_high below gc_low", "type: ssd\ngc_low: 8\ngc_high: 4\n", 3, 10, "gc_high" },
	{ "unknown state", "type: ssd\nstate: used\n", 2, 8, NULL },
	{ "queue depth beyond NVMe", "type: ssd\nqueue_depth: 65537\n", 2, 14, "65536" },
	{ "buffer smaller than two pages",
	  "type: ssd\nplanes: 4\npage_size: 16KiB\nwrite_buffer: 64KiB\n", 4, 15,
	  "two multi-plane pages" },
};

START_TEST(bad_parameters)
{
	tu_expect_bad_device(&bad_cases[_i], "ssd0");
}
END_TEST

static Suite *ssd_suite(void)
{
	Suite *s = suite_create("ssd");
	TCase *ftl = tcase_create("ftl");
	tcase_set_timeout(ftl, 120);
	tcase_add_test(ftl, random_writes_keep_the_map_sound);
	tcase_add_test(ftl, mixed_load_from_steady_keeps_the_map_sound);
	tcase_add_test(ftl, sequential_fill_has_no_amplification);
	tcase_add_test(ftl, starting_states);
	tcase_add_test(ftl, steady_state_distribution);
	tcase_add_test(ftl, map_memory_follows_data);
	tcase_add_test(ftl, moved_units_and_layout_agree);
	suite_add_tcase(s, ftl);
	TCase *tm = tcase_create("timing");
	tcase_set_timeout(tm, 120);
	tcase_add_test(tm, reads_bounded_by_dies);
	tcase_add_test(tm, reads_bounded_by_channels);
	tcase_add_test(tm, queue_depth_never_exceeded);
	tcase_add_test(tm, reads_from_the_write_buffer);
	tcase_add_test(tm, random_write_iops_fall_when_gc_starts);
	tcase_add_test(tm, deterministic);
	tcase_add_loop_test(tm, bad_parameters, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tm);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ssd_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
