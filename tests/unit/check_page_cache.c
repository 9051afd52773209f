/* The host page cache (`page_cache`): each mechanism has a test that fails
 * without it.  Read-ahead turns a sequential reader's later reads into
 * hits; write-behind completes writes at once and the lazy writer writes
 * its fraction per period in I/Os of at most write_behind_io; a writer
 * over the dirty threshold is throttled; a flush writes every dirty page
 * before it passes down; FUA writes pass through; the shipped model
 * builds; FC-Test through the cache ends with the data on the device. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "config/models.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "host/page_cache.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/filecopy.h"
#define TU_WANT_SCENARIO
#define TU_WANT_RECORDER
#include "testutil.h"

/* 1 ms per request, many at once: a cache hit is visibly free. */
#define IDEAL "{type: ideal, mean: 1ms, servers: 64}"
#define BLK64K 128u

struct bench {
	struct rs_model_path mp;
	struct rs_sim *sim;
	struct rs_node *root;
	struct rs_dev *dev;
};

static void open_cache(struct bench *b, const char *opts)
{
	char text[1024];
	snprintf(text, sizeof(text), "type: page_cache\n%sdevice: " IDEAL "\n", opts);
	tu_model_path(&b->mp, NULL);
	b->sim = rs_sim_new(1);
	struct rs_diag d;
	b->dev = tu_build_text(b->sim, &b->mp, text, "pc", &b->root, &d);
	ck_assert_msg(b->dev != NULL, "%s", d.msg);
}

static void close_cache(struct bench *b)
{
	tu_check_conservation(b->sim);
	rs_dev_destroy(b->dev);
	rs_node_free(b->root);
	rs_sim_free(b->sim);
	rs_model_path_free(&b->mp);
}

static struct rs_page_cache_counts counts(const struct bench *b)
{
	struct rs_page_cache_counts c;
	rs_page_cache_counts(b->dev, &c);
	return c;
}

static rs_time_t last_latency;
static int done_count;

static void timed_done(struct rs_sim *sim, struct rs_io *io)
{
	last_latency = io->t_done - io->t_submit;
	ck_assert_int_eq(io->status, 0);
	done_count++;
	rs_io_free(sim, io);
	rs_sim_stop(sim);
}

static void submit(struct bench *b, enum rs_op op, uint64_t lba, uint32_t nblk, bool fua)
{
	struct rs_io *io = rs_io_new(b->sim, op, lba, nblk, timed_done, NULL);
	io->fua = fua;
	rs_dev_submit(b->sim, b->dev, io);
}

/* One request at a time, run until it is done (not until the sim is idle:
 * the lazy writer may still have work). */
static rs_time_t one(struct bench *b, enum rs_op op, uint64_t lba, uint32_t nblk)
{
	int before = done_count;
	last_latency = -1;
	submit(b, op, lba, nblk, false);
	rs_sim_run(b->sim, RS_TIME_MAX);
	ck_assert_int_eq(done_count, before + 1);
	return last_latency;
}

/* Sequential 64 KiB reads at QD1: the time of the whole read. */
static rs_time_t seq_read_time(const char *opts, uint64_t *hits)
{
	struct bench b;
	open_cache(&b, opts);
	rs_time_t t0 = rs_now(b.sim);
	for (uint64_t i = 0; i < 32; i++)
		one(&b, RS_READ, 1000 + i * BLK64K, BLK64K);
	rs_sim_run(b.sim, RS_TIME_MAX);
	rs_time_t t = rs_now(b.sim) - t0;
	*hits = counts(&b).read_hits;
	close_cache(&b);
	return t;
}

START_TEST(read_ahead_serves_sequential_reads)
{
	uint64_t hits_on, hits_off;
	rs_time_t on = seq_read_time("", &hits_on);
	rs_time_t off = seq_read_time("read_ahead_factor: 0\n", &hits_off);
	ck_assert_uint_eq(hits_off, 0);
	ck_assert_int_eq(off, 32 * 1000000);        /* every read waits for the device */
	/* Read ahead by three requests, one fetch at a time: most reads are
	 * served from the cache and the device is asked far less often. */
	ck_assert_uint_ge(hits_on, 24);
	ck_assert_int_le(on, off * 3 / 5);
}
END_TEST

START_TEST(random_reads_get_no_read_ahead)
{
	struct bench b;
	open_cache(&b, "");
	for (uint64_t i = 0; i < 16; i++)
		ck_assert_int_eq(one(&b, RS_READ, (i * 7919 % 97) * 4096, 8), 1000000);
	ck_assert_uint_eq(counts(&b).read_hits, 0);
	ck_assert_uint_eq(counts(&b).read_ahead_ios, 0);
	close_cache(&b);
}
END_TEST

START_TEST(write_behind_completes_at_once_and_lazy_writer_paces)
{
	struct bench b;
	open_cache(&b, "lazy_depth: 64\n");
	/* 4 MiB written in 64 KiB requests: each done without the device. */
	for (uint64_t i = 0; i < 64; i++)
		ck_assert_int_eq(one(&b, RS_WRITE, i * BLK64K, BLK64K), 0);
	ck_assert_uint_eq(counts(&b).dirty_bytes, 4u << 20);
	ck_assert_uint_eq(counts(&b).lazy_ios, 0);
	/* The first pass at 1 s writes 1/8 of it: 512 KiB in 64 KiB I/Os. */
	rs_sim_run(b.sim, (rs_time_t)1500000000);
	ck_assert_uint_eq(counts(&b).lazy_passes, 1);
	ck_assert_uint_eq(counts(&b).lazy_ios, 8);
	ck_assert_uint_eq(counts(&b).dirty_bytes, (4u << 20) - (512u << 10));
	ck_assert_uint_eq(counts(&b).max_io_blk, BLK64K);
	/* The second pass: 1/8 of what is left. */
	rs_sim_run(b.sim, (rs_time_t)2500000000);
	ck_assert_uint_eq(counts(&b).lazy_ios, 8 + 7);
	/* Left alone, everything is written and the scans stop. */
	rs_sim_run(b.sim, RS_TIME_MAX);
	ck_assert_uint_eq(counts(&b).dirty_bytes, 0);
	close_cache(&b);
}
END_TEST

START_TEST(write_behind_io_size_is_the_cap)
{
	struct bench b;
	open_cache(&b, "write_behind_io: 1MiB\nlazy_depth: 64\n");
	for (uint64_t i = 0; i < 64; i++)
		one(&b, RS_WRITE, i * BLK64K, BLK64K);
	rs_sim_run(b.sim, RS_TIME_MAX);
	ck_assert_uint_eq(counts(&b).max_io_blk, 2048);
	ck_assert_uint_eq(counts(&b).lazy_ios, 4);
	close_cache(&b);
}
END_TEST

START_TEST(writers_over_the_threshold_are_throttled)
{
	struct bench b;
	open_cache(&b, "dirty_threshold: 1MiB\nlazy_depth: 1\n");
	rs_time_t total = 0, worst = 0;
	for (uint64_t i = 0; i < 32; i++) {
		rs_time_t t = one(&b, RS_WRITE, i * BLK64K, BLK64K);
		total += t;
		worst = t > worst ? t : worst;
	}
	/* 16 writes fill the threshold; from then on each waits for the lazy
	 * writer to clean 64 KiB (1 ms), without waiting for its tick. */
	ck_assert_uint_eq(counts(&b).throttled, 16);
	ck_assert_int_eq(worst, 1000000);
	ck_assert_int_eq(total, 16 * 1000000);
	ck_assert_uint_le(counts(&b).dirty_bytes, 1u << 20);
	rs_sim_run(b.sim, RS_TIME_MAX);
	close_cache(&b);
}
END_TEST

START_TEST(flush_writes_dirty_pages_first)
{
	struct bench b;
	open_cache(&b, "lazy_depth: 2\n");
	for (uint64_t i = 0; i < 16; i++)
		one(&b, RS_WRITE, i * BLK64K, BLK64K);
	/* 16 runs of 64 KiB, two at a time, 1 ms each, then the flush's own
	 * 1 ms on the device. */
	ck_assert_int_eq(one(&b, RS_FLUSH, 0, 0), 8 * 1000000 + 1000000);
	ck_assert_uint_eq(counts(&b).dirty_bytes, 0);
	ck_assert_uint_eq(counts(&b).lazy_ios, 16);
	rs_sim_run(b.sim, RS_TIME_MAX);
	close_cache(&b);
}
END_TEST

START_TEST(fua_writes_pass_through)
{
	struct bench b;
	open_cache(&b, "");
	submit(&b, RS_WRITE, 0, BLK64K, true);
	rs_sim_run(b.sim, RS_TIME_MAX);
	ck_assert_int_eq(last_latency, 1000000);
	ck_assert_uint_eq(counts(&b).dirty_bytes, 0);
	ck_assert_uint_eq(counts(&b).lazy_ios, 0);
	close_cache(&b);
}
END_TEST

START_TEST(threshold_above_memory_refused)
{
	struct rs_model_path mp;
	tu_model_path(&mp, NULL);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_diag d;
	struct rs_node *root;
	struct rs_dev *dev = tu_build_text(sim, &mp, "type: page_cache\nmemory: 64MiB\n"
					   "dirty_threshold: 128MiB\ndevice: " IDEAL "\n",
					   "pc", &root, &d);
	ck_assert_ptr_null(dev);
	ck_assert_msg(strstr(d.msg, "'dirty_threshold'") != NULL, "%s", d.msg);
	ck_assert_int_eq(d.line, 3);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

START_TEST(shipped_model_builds)
{
	struct rs_model_path mp;
	tu_model_path(&mp, NULL);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_diag d;
	struct rs_node *root;
	struct rs_dev *dev = tu_build_text(sim, &mp, "model: windows-xp-cache-manager\n"
					   "device: " IDEAL "\n", "pc", &root, &d);
	ck_assert_msg(dev != NULL, "%s", d.msg);
	ck_assert_ptr_eq(dev->type, &rs_dev_page_cache);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* FC-Test's create through the cache: every block reaches the device, in
 * write-behind I/Os, and the action lasts until the closing flush. */
static double create_mb_s(const char *cache, uint64_t *dev_writes)
{
	struct tu_point p;
	tu_point_runf(&p, "fc.yaml", "dev0", 1,
		      "device: {type: ideal, mean: 1ms, servers: 64, capacity: 8GiB}\n"
		      "workload:\n"
		      "  filecopy: {set: iso, action: create, files: 1, volume_size: 2GiB%s}\n",
		      cache);
	*dev_writes = p.dev->completed;
	double v = rs_load_figure_value(p.load, "file_mb_s");
	tu_point_free(&p);
	return v;
}

START_TEST(filecopy_through_the_cache)
{
	uint64_t plain_ios, cached_ios;
	double plain = create_mb_s("", &plain_ios);
	double cached = create_mb_s(", page_cache: {model: windows-xp-cache-manager}",
				    &cached_ios);
	/* The same 64 KiB I/Os reach the device (the copier's blocks are
	 * contiguous, cut again to 64 KiB), plus the flush; three write-behind
	 * I/Os in flight against the copier's two. */
	ck_assert_uint_eq(cached_ios, plain_ios + 1);
	ck_assert_msg(cached > plain * 1.3, "cached %.2f MB/s, plain %.2f MB/s", cached, plain);
}
END_TEST

static Suite *page_cache_suite(void)
{
	Suite *s = suite_create("page_cache");
	TCase *tc = tcase_create("page_cache");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, read_ahead_serves_sequential_reads);
	tcase_add_test(tc, random_reads_get_no_read_ahead);
	tcase_add_test(tc, write_behind_completes_at_once_and_lazy_writer_paces);
	tcase_add_test(tc, write_behind_io_size_is_the_cap);
	tcase_add_test(tc, writers_over_the_threshold_are_throttled);
	tcase_add_test(tc, flush_writes_dirty_pages_first);
	tcase_add_test(tc, fua_writes_pass_through);
	tcase_add_test(tc, threshold_above_memory_refused);
	tcase_add_test(tc, shipped_model_builds);
	tcase_add_test(tc, filecopy_through_the_cache);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(page_cache_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
