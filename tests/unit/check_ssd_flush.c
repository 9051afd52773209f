/* Flushes and FUA writes on the devices: an SSD with power-loss protection
 * acknowledges both after its command cost; one without programs its
 * buffered data first (a partly filled page if need be); an array forwards
 * a flush to every member and a FUA write's children keep FUA; a disk with
 * its write cache on writes a FUA write through.  Requests are submitted
 * directly and timed from submission to completion. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "config/models.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "ssd/ftl.h"
#include "ssd/ssd.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* 2 channels x 2 dies x 2 planes, 8 KiB pages: 4 units a page; tPROG
 * 1.2 ms dominates anything that waits for flash. */
#define TINY_ANY                                                                   \
	"type: ssd\ncapacity: 48MiB\nchannels: 2\ndies_per_channel: 2\nplanes: 2\n"   \
	"blocks_per_plane: 64\npages_per_block: 16\npage_size: 8KiB\n"                \
	"t_prog: 1.2ms\nt_erase: 3ms\nwrite_buffer: 256KiB\n"
#define TINY TINY_ANY "state: full\n"
#define T_PROG_NS 1200000

struct bench {
	struct rs_model_path mp;
	struct rs_sim *sim;
	struct rs_node *root;
	struct rs_dev *dev;
};

static void open_dev(struct bench *b, const char *text, bool models)
{
	if (models)
		tu_model_path(&b->mp, NULL);
	else
		rs_model_path_init(&b->mp);
	b->sim = rs_sim_new(1);
	struct rs_diag d;
	b->dev = tu_build_text(b->sim, &b->mp, text, "dev0", &b->root, &d);
	ck_assert_msg(b->dev != NULL, "%s", d.msg);
}

static void close_dev(struct bench *b)
{
	tu_check_conservation(b->sim);
	rs_dev_destroy(b->dev);
	rs_node_free(b->root);
	rs_sim_free(b->sim);
	rs_model_path_free(&b->mp);
}

static rs_time_t last_latency;

static void timed_done(struct rs_sim *sim, struct rs_io *io)
{
	last_latency = io->t_done - io->t_submit;
	rs_io_free(sim, io);
}

static void done_free(struct rs_sim *sim, struct rs_io *io) { rs_io_free(sim, io); }

/* Submit one request, run until everything is done; its latency. */
static rs_time_t one(struct bench *b, enum rs_op op, uint64_t lba, uint32_t nblk, bool fua)
{
	struct rs_io *io = rs_io_new(b->sim, op, lba, nblk, timed_done, NULL);
	io->fua = fua;
	last_latency = -1;
	rs_dev_submit(b->sim, b->dev, io);
	rs_sim_run(b->sim, RS_TIME_MAX);
	ck_assert(last_latency >= 0);
	return last_latency;
}

/* Submit without waiting (the data stays in the buffer for a while). */
static void put(struct bench *b, enum rs_op op, uint64_t lba, uint32_t nblk)
{
	rs_dev_submit(b->sim, b->dev, rs_io_new(b->sim, op, lba, nblk, done_free, NULL));
}

START_TEST(plp_flush_after_command_cost)
{
	struct bench b;
	open_dev(&b, TINY, false);
	put(&b, RS_WRITE, 0, 8);
	rs_time_t t = one(&b, RS_FLUSH, 0, 0, false);
	ck_assert_int_lt(t, 100000);
	ck_assert_uint_eq(rs_ssd_counters(b.dev)->flushes, 1);
	ck_assert_uint_eq(rs_ssd_counters(b.dev)->partial_programs, 0);
	close_dev(&b);
}
END_TEST

/* One 4 KiB unit in the buffer, a page holds four: without protection the
 * flush waits for a program of a partly filled page. */
START_TEST(no_plp_flush_programs_partial_page)
{
	struct bench b;
	open_dev(&b, TINY "power_loss_protection: false\n", false);
	put(&b, RS_WRITE, 0, 8);
	rs_time_t t = one(&b, RS_FLUSH, 0, 0, false);
	ck_assert_int_ge(t, T_PROG_NS);
	ck_assert_int_lt(t, 2 * T_PROG_NS);
	ck_assert_uint_eq(rs_ssd_counters(b.dev)->partial_programs, 1);
	/* Nothing buffered: nothing to wait for. */
	t = one(&b, RS_FLUSH, 0, 0, false);
	ck_assert_int_lt(t, 100000);
	close_dev(&b);
}
END_TEST

/* A flush waits for what was buffered before it, not for what comes
 * after: writes keep arriving behind it. */
START_TEST(no_plp_flush_not_held_by_later_writes)
{
	struct bench b;
	open_dev(&b, TINY "power_loss_protection: false\n", false);
	put(&b, RS_WRITE, 0, 8);
	struct rs_io *f = rs_io_new(b.sim, RS_FLUSH, 0, 0, timed_done, NULL);
	rs_dev_submit(b.sim, b.dev, f);
	for (int i = 1; i < 200; i++)
		put(&b, RS_WRITE, (uint64_t)i * 8, 8);
	last_latency = -1;
	rs_sim_run(b.sim, RS_TIME_MAX);
	ck_assert_int_ge(last_latency, 0);
	ck_assert_int_lt(last_latency, 3 * T_PROG_NS);
	close_dev(&b);
}
END_TEST

START_TEST(fua_write)
{
	struct bench b;
	open_dev(&b, TINY, false);
	rs_time_t t = one(&b, RS_WRITE, 0, 8, true);
	ck_assert_int_lt(t, 100000);
	ck_assert_uint_eq(rs_ssd_counters(b.dev)->fua_through, 0);
	close_dev(&b);

	open_dev(&b, TINY "power_loss_protection: false\n", false);
	rs_time_t plain = one(&b, RS_WRITE, 0, 8, false);
	rs_time_t fua = one(&b, RS_WRITE, 8, 8, true);
	ck_assert_int_lt(plain, 100000);
	ck_assert_int_ge(fua, T_PROG_NS);
	ck_assert_uint_eq(rs_ssd_counters(b.dev)->fua_through, 1);
	close_dev(&b);
}
END_TEST

/* A mirror of two drives without protection: the flush reaches both and
 * completes once both have programmed; a FUA write's children keep FUA. */
START_TEST(array_forwards_flush_and_fua)
{
	struct bench b;
	open_dev(&b,
		 "type: array\nlevel: raid1\nmembers:\n"
		 "  - {" "type: ssd, capacity: 48MiB, channels: 2, dies_per_channel: 2, "
		 "planes: 2, blocks_per_plane: 64, pages_per_block: 16, t_prog: 1.2ms, "
		 "write_buffer: 256KiB, state: full, power_loss_protection: false}\n"
		 "  - {type: ssd, capacity: 48MiB, channels: 2, dies_per_channel: 2, "
		 "planes: 2, blocks_per_plane: 64, pages_per_block: 16, t_prog: 1.2ms, "
		 "write_buffer: 256KiB, state: full, power_loss_protection: false}\n",
		 false);
	ck_assert_uint_eq(b.dev->nmembers, 2);
	put(&b, RS_WRITE, 0, 8);
	rs_time_t t = one(&b, RS_FLUSH, 0, 0, false);
	ck_assert_int_ge(t, T_PROG_NS);
	for (size_t m = 0; m < 2; m++) {
		ck_assert_uint_eq(rs_ssd_counters(b.dev->members[m])->flushes, 1);
		ck_assert_uint_eq(rs_ssd_counters(b.dev->members[m])->partial_programs, 1);
	}
	t = one(&b, RS_WRITE, 64, 8, true);
	ck_assert_int_ge(t, T_PROG_NS);
	for (size_t m = 0; m < 2; m++)
		ck_assert_uint_eq(rs_ssd_counters(b.dev->members[m])->fua_through, 1);
	close_dev(&b);
}
END_TEST

/* A disk with its write cache on: a plain write completes in the buffer,
 * a FUA write only after the media (a seek and some rotation). */
START_TEST(hdd_fua_writes_through)
{
	struct bench b;
	open_dev(&b, "model: seagate-barracuda-7200-7-ncq\n", true);
	one(&b, RS_WRITE, 1000000, 8, false);
	rs_sim_run(b.sim, rs_now(b.sim) + 1000000000);
	rs_time_t plain = one(&b, RS_WRITE, 9000000, 8, false);
	rs_sim_run(b.sim, rs_now(b.sim) + 1000000000);
	rs_time_t fua = one(&b, RS_WRITE, 1000000, 8, true);
	printf("hdd 4 KiB write: cached %.3f ms, FUA %.3f ms\n", plain / 1e6, fua / 1e6);
	ck_assert_int_lt(plain, 500000);
	ck_assert_int_gt(fua, 2 * plain);
	ck_assert_int_gt(fua, 1000000);
	close_dev(&b);
}
END_TEST

/* Many flushes among random writes, past the point where GC runs: the
 * partly filled pages they leave behind keep the FTL consistent (map and
 * valid counts agree) and every request completes. */
START_TEST(flushes_among_random_writes_keep_ftl_consistent)
{
	struct bench b;
	open_dev(&b, TINY "power_loss_protection: false\n", false);
	uint64_t x = 12345;
	int flushes = 0;
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 400; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t unit = (x >> 33) % (48u * 1024 * 1024 / 4096);
			put(&b, RS_WRITE, unit * 8, 8);
			if (i % 7 == 6) {
				put(&b, RS_FLUSH, 0, 0);
				flushes++;
			}
		}
		rs_sim_run(b.sim, RS_TIME_MAX);
	}
	const struct rs_ssd_counters *c = rs_ssd_counters(b.dev);
	ck_assert_uint_eq(b.dev->completed, 40 * 400 + (uint64_t)flushes);
	ck_assert_uint_gt(c->partial_programs, 0);
	ck_assert_uint_gt(c->gc_victims, 0);
	ck_assert_uint_eq(ftl_check(rs_ssd_ftl(b.dev)), 0);
	close_dev(&b);
}
END_TEST

/* Reads of never-written data on a fresh drive: one warning per process,
 * however many drives and reads. */
START_TEST(unmapped_reads_warn_once)
{
	unsigned before = rs_ssd_unmapped_warnings();
	ck_assert_uint_le(before, 1);
	for (int k = 0; k < 2; k++) {
		struct bench b;
		open_dev(&b, TINY_ANY "state: fresh\n", false);
		one(&b, RS_READ, 0, 8, false);
		one(&b, RS_READ, 64, 8, false);
		ck_assert_uint_eq(rs_ssd_counters(b.dev)->units_read_unmapped, 2);
		close_dev(&b);
	}
	ck_assert_uint_eq(rs_ssd_unmapped_warnings(), 1);
}
END_TEST

static Suite *flush_suite(void)
{
	Suite *s = suite_create("ssd_flush");
	TCase *tc = tcase_create("flush");
	tcase_add_test(tc, plp_flush_after_command_cost);
	tcase_add_test(tc, no_plp_flush_programs_partial_page);
	tcase_add_test(tc, no_plp_flush_not_held_by_later_writes);
	tcase_add_test(tc, fua_write);
	tcase_add_test(tc, array_forwards_flush_and_fua);
	tcase_add_test(tc, hdd_fua_writes_through);
	tcase_add_test(tc, flushes_among_random_writes_keep_ftl_consistent);
	tcase_add_test(tc, unmapped_reads_warn_once);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(flush_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
