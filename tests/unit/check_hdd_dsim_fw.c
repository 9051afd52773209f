/* Unit tests for the hdd firmware rules DiskSim's drives describe beyond
 * the plain drive (src/disk/hdd.c, hdd_buffer.c, hdd_mech.c): completion
 * overheads, the read and write water marks, read hits on write data, read-ahead on
 * an idle hit, a read whose blocks leave the buffer once delivered, and
 * read-ahead that finishes the sector under the head before it stops.
 * Each compares one small drive with the rule on and off, so a test fails
 * when the rule does nothing. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "disk/hdd.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* 6000 rpm and 100 sectors a track: 0.1 ms a sector, 10 ms a turn; LBA 0
 * under the head at t = 0. */
#define DRIVE                                                                          \
	"type: hdd, rpm: 6000rpm, heads: 2, cylinders: 1000, "                         \
	"zone_table: [{first_cyl: 0, last_cyl: 999, sectors_per_track: 100}], "       \
	"seek_table: [[1, 1ms], [999, 10ms]], head_switch: 0.5ms, spindle_phase: 0, " \
	"interface_burst: 512B, overhead_hit: 0.1ms, overhead_read: 0.2ms, "           \
	"overhead_write: 0.2ms"
#define SECTOR_NS 100000

/* Closed-loop replay of a validate trace on `device`; responses in ns. */
static size_t replay(const char *device, const char *trace, rs_time_t *resp, size_t max)
{
	char path[] = "/tmp/raidsim-dsimfw-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(trace, f);
	fclose(f);
	char text[2048];
	int n = snprintf(text, sizeof(text),
			 "device: {%s}\nworkload: {trace: {file: '%s', format: validate}}\n",
			 device, path);
	ck_assert_int_lt(n, (int)sizeof(text));
	struct tu_point p;
	tu_point_build(&p, "test.yaml", text, (size_t)n, "disk0", 1);
	tu_point_need(&p, p.load);
	tu_point_log(&p);
	tu_point_go(&p);
	remove(path);
	/* Every prediction the scheduler made came true. */
	ck_assert_uint_eq(rs_hdd_counters(p.dev)->mismatches, 0);
	size_t got = 0;
	for (const char *line = p.log; line && *line && got < max;) {
		double issue, r;
		if (sscanf(line, "%lf,%*[a-z],%*u,%*u,%lf", &issue, &r) == 2)
			resp[got++] = llround(r * 1e9);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	tu_point_free(&p);
	return got;
}

/* ---- completion overheads ------------------------------------------------ */

/* The first command of a trace meets the drive in the same state whatever
 * its overheads, so its response grows by exactly its completion overhead;
 * a hit's response is overhead and bus time only. */
START_TEST(completion_overheads)
{
	static const char reads[] = "R m 1000 8 0 100000\nR h 1000 8 0 100000\n";
	static const char write[] = "W m 5000 8 0 100000\n";
	rs_time_t plain[2], with[2], wplain[1], wwith[1];
	const char *dev0 = DRIVE ", interface_block_time: 0.05ms, read_ahead: 8KiB";
	const char *dev1 = DRIVE ", interface_block_time: 0.05ms, read_ahead: 8KiB, "
			   "completion_read: 0.3ms, "
			   "completion_write: 0.2ms";
	ck_assert_uint_eq(replay(dev0, reads, plain, 2), 2);
	ck_assert_uint_eq(replay(dev1, reads, with, 2), 2);
	ck_assert_int_eq(with[0] - plain[0], 300000);
	ck_assert_int_eq(plain[1], 100000 + 8 * 50000);
	ck_assert_int_eq(with[1], plain[1] + 300000);
	ck_assert_uint_eq(replay(dev0, write, wplain, 1), 1);
	ck_assert_uint_eq(replay(dev1, write, wwith, 1), 1);
	ck_assert_int_eq(wwith[0] - wplain[0], 200000);
	/* A cached write completes its overhead after its data is in. */
	const char *wc0 = DRIVE ", interface_block_time: 0.05ms, write_cache: true";
	const char *wc1 = DRIVE ", interface_block_time: 0.05ms, write_cache: true, "
			  "completion_write: 0.2ms";
	ck_assert_uint_eq(replay(wc0, write, wplain, 1), 1);
	ck_assert_uint_eq(replay(wc1, write, wwith, 1), 1);
	ck_assert_int_eq(wplain[0], 200000 + 8 * 50000);
	ck_assert_int_eq(wwith[0], wplain[0] + 200000);
}
END_TEST

/* ---- the read water mark -------------------------------------------------- */

/* A bus twice as fast as the media: data that starts with the first block
 * ends one block time after the media; store and forward (mark 1) ends the
 * whole transfer after the media, 7 block times later.  Half the request
 * in the buffer first still ends with the media.  The mark is a share of
 * at most a segment: with 4-block segments, mark 1 of an 8-block read is 4
 * blocks, and the transfer again ends with the media. */
START_TEST(read_watermark)
{
	static const char trace[] = "R m 1000 8 0 100000\n";
	const char *fmt = DRIVE ", interface_block_time: 0.05ms, prefetch: none, "
			  "read_watermark: %s%s";
	char dev[1024];
	rs_time_t r0, r1, rhalf, rseg, rsmall;
	snprintf(dev, sizeof(dev), fmt, "0", "");
	ck_assert_uint_eq(replay(dev, trace, &r0, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "1", "");
	ck_assert_uint_eq(replay(dev, trace, &r1, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.5", "");
	ck_assert_uint_eq(replay(dev, trace, &rhalf, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "1", ", cache_size: 4KiB, segments: 2");
	ck_assert_uint_eq(replay(dev, trace, &rseg, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.01", "");
	ck_assert_uint_eq(replay(dev, trace, &rsmall, 1), 1);
	ck_assert_int_eq(r1 - r0, 7 * 50000);
	ck_assert_int_eq(rhalf, r0);
	ck_assert_int_eq(rseg, r0);
	ck_assert_int_eq(rsmall, r0);   /* at least a block */
	/* A bus slower than the media: data held back to the mark ends later
	 * by the media time of the blocks waited for. */
	const char *slow = DRIVE ", interface_block_time: 0.2ms, prefetch: none, "
			   "read_watermark: %s";
	snprintf(dev, sizeof(dev), slow, "0");
	ck_assert_uint_eq(replay(dev, trace, &r0, 1), 1);
	snprintf(dev, sizeof(dev), slow, "0.5");
	ck_assert_uint_eq(replay(dev, trace, &rhalf, 1), 1);
	ck_assert_int_eq(rhalf - r0, 4 * SECTOR_NS);
}
END_TEST

/* ---- the write water mark ------------------------------------------------- */

/* Segments of 4 blocks, an 8-block write at LBA 5 (sector 5 of cylinder 0,
 * under the head at 0.5 ms).  Taking the whole write first (0.4 ms of bus,
 * then 0.2 ms overhead) misses sector 5 by 0.1 ms and waits a turn; with the
 * mark, one segment's worth (0.2 ms) is enough to start, the media meets
 * the sector, and the bus, twice as fast, keeps ahead of it: a turn sooner.
 * A mark of 1 reconnects as each block is written, to the same effect.  A
 * bus slower than the media leaves the write's later data late: the access
 * slips a turn for each of the two reconnections.  A write that fits a
 * segment comes in whole either way. */
START_TEST(write_watermark)
{
	static const char big[] = "W m 5 8 0 100000\n";
	static const char small[] = "W m 5 4 0 100000\n";
	const char *fmt = DRIVE ", interface_block_time: %s, prefetch: none, "
			  "cache_size: 4KiB, segments: 2, write_watermark: %s";
	char dev[1024];
	rs_time_t off, half, one, soff, shalf, f0, f1;
	snprintf(dev, sizeof(dev), fmt, "0.05ms", "0");
	ck_assert_uint_eq(replay(dev, big, &off, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.05ms", "0.5");
	ck_assert_uint_eq(replay(dev, big, &half, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.05ms", "1");
	ck_assert_uint_eq(replay(dev, big, &one, 1), 1);
	ck_assert_int_eq(off, (100 + 5 + 8) * SECTOR_NS); /* a turn, then sector 5 */
	ck_assert_int_eq(off - half, 100 * SECTOR_NS);
	ck_assert_int_eq(one, half);
	snprintf(dev, sizeof(dev), fmt, "0.2ms", "0");
	ck_assert_uint_eq(replay(dev, big, &soff, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.2ms", "0.5");
	ck_assert_uint_eq(replay(dev, big, &shalf, 1), 1);
	ck_assert_int_eq(shalf - soff, 2 * 100 * SECTOR_NS);
	snprintf(dev, sizeof(dev), fmt, "0.05ms", "0");
	ck_assert_uint_eq(replay(dev, small, &f0, 1), 1);
	snprintf(dev, sizeof(dev), fmt, "0.05ms", "1");
	ck_assert_uint_eq(replay(dev, small, &f1, 1), 1);
	ck_assert_int_eq(f1, f0);
}
END_TEST

/* ---- read hits on write data ---------------------------------------------- */

struct done_log {
	int n;
	rs_time_t t[4];
};

static void logged_done(struct rs_sim *sim, struct rs_io *io)
{
	struct done_log *l = io->done_ctx;
	l->t[l->n++] = rs_now(sim);
	rs_io_free(sim, io);
}

/* A read of blocks a cached write has just left in the buffer: the read
 * waits in the port for the write and is taken as the write completes,
 * before any destaging. */
static void write_then_read(const char *extra, uint64_t *hits, uint64_t *misses)
{
	struct rs_model_path mp;
	struct rs_diag d;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root;
	char text[1024];
	snprintf(text, sizeof(text), "{" DRIVE ", interface_block_time: 0.05ms, "
		 "write_cache: true%s}\n", extra);
	struct rs_dev *dev = tu_build_text(sim, &mp, text, "disk0", &root, &d);
	if (!dev)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(dev);
	struct done_log l = { 0 };
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_WRITE, 5000, 8, logged_done, &l));
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_READ, 5000, 8, logged_done, &l));
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(l.n, 2);
	*hits = rs_hdd_counters(dev)->hits;
	*misses = rs_hdd_counters(dev)->misses;
	ck_assert_uint_eq(rs_hdd_counters(dev)->mismatches, 0);
	tu_check_conservation(sim);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}

START_TEST(read_hits_on_write_data)
{
	uint64_t hits, misses;
	write_then_read("", &hits, &misses);
	ck_assert_uint_eq(hits, 1);
	ck_assert_uint_eq(misses, 0);
	write_then_read(", read_hits_on_write_data: false", &hits, &misses);
	ck_assert_uint_eq(hits, 0);
	ck_assert_uint_eq(misses, 1);
}
END_TEST

/* ---- read-ahead on an idle hit -------------------------------------------- */

/* Read-ahead of 16 blocks after [0, 8) leaves [0, 24) in the buffer; a hit
 * on [16, 24) with the head idle starts read-ahead again from block 24, so
 * [24, 32) is a hit too -- a miss without the rule. */
START_TEST(read_ahead_on_idle_hit)
{
	static const char trace[] = "R m 0 8 0 100000\nR h 16 8 0 100000\n"
				    "R h 24 8 0 100000\n";
	const char *fmt = DRIVE ", interface_block_time: 0.05ms, read_ahead: 8KiB, "
			  "read_ahead_on_idle_hit: %s";
	char dev[1024];
	rs_time_t on[3], off[3];
	snprintf(dev, sizeof(dev), fmt, "true");
	ck_assert_uint_eq(replay(dev, trace, on, 3), 3);
	snprintf(dev, sizeof(dev), fmt, "false");
	ck_assert_uint_eq(replay(dev, trace, off, 3), 3);
	rs_time_t hit = 100000 + 8 * 50000;
	ck_assert_int_eq(on[1], hit);
	ck_assert_int_eq(off[1], hit);
	ck_assert_int_eq(on[2], hit);
	ck_assert_int_gt(off[2], hit + 200000);
}
END_TEST

/* ---- blocks that leave the buffer once delivered ---------------------------- */

/* After [0, 8) and its read-ahead to 24: [8, 16) is a hit either way; the
 * blocks of a delivered read leave the buffer with read_drop_request, so
 * reading [0, 8) again misses, and so does [8, 16) once read. */
START_TEST(read_drop_request)
{
	static const char trace[] = "R m 0 8 0 100000\nR h 8 8 0 100000\n"
				    "R h 0 8 0 100000\nR h 8 8 0 100000\nR h 16 8 0 100000\n";
	const char *fmt = DRIVE ", interface_block_time: 0.05ms, read_ahead: 8KiB, "
			  "read_drop_request: %s";
	char dev[1024];
	rs_time_t keep[5], drop[5];
	snprintf(dev, sizeof(dev), fmt, "false");
	ck_assert_uint_eq(replay(dev, trace, keep, 5), 5);
	snprintf(dev, sizeof(dev), fmt, "true");
	ck_assert_uint_eq(replay(dev, trace, drop, 5), 5);
	rs_time_t hit = 100000 + 8 * 50000;
	for (int i = 1; i < 5; i++)
		ck_assert_int_eq(keep[i], hit);
	ck_assert_int_eq(drop[1], hit);
	ck_assert_int_gt(drop[2], hit + 200000);
	/* The miss on [0, 8) read ahead again, past 16. */
	ck_assert_int_eq(drop[4], hit);
}
END_TEST

/* ---- read-ahead that finishes its sector --------------------------------------
 *
 * A read at a far cylinder issued while read-ahead runs: with
 * read_ahead_stop_in_sector false the head first finishes the sector it is
 * on, which costs the new read a turn whenever the seek then arrives just
 * after its first sector.  Swept over the moment the read arrives and its
 * sector on the track: never faster, never by more than a turn and a
 * sector, and slower somewhere. */
START_TEST(read_ahead_finishes_sector)
{
	const char *fmt = DRIVE ", interface_block_time: 0.05ms, read_ahead: 32KiB, "
			  "read_ahead_stop_in_sector: %s";
	char dev_now[1024], dev_fin[1024];
	snprintf(dev_now, sizeof(dev_now), fmt, "true");
	snprintf(dev_fin, sizeof(dev_fin), fmt, "false");
	static const int gaps_us[] = { 37, 51, 152, 271, 1113 };
	int slower = 0, runs = 0;
	for (size_t g = 0; g < sizeof(gaps_us) / sizeof(gaps_us[0]); g++) {
		for (int k = 0; k < 100; k++) {
			char trace[128];
			snprintf(trace, sizeof(trace), "R m 0 8 0 %d\nR m %d 8 0 0\n", gaps_us[g],
				 50000 + k);
			rs_time_t now[2], fin[2];
			ck_assert_uint_eq(replay(dev_now, trace, now, 2), 2);
			ck_assert_uint_eq(replay(dev_fin, trace, fin, 2), 2);
			ck_assert_int_eq(fin[0], now[0]);
			ck_assert_int_ge(fin[1], now[1]);
			ck_assert_int_le(fin[1], now[1] + 10000000 + SECTOR_NS);
			slower += fin[1] > now[1];
			runs++;
		}
	}
	printf("read-ahead finishing its sector: %d of %d far reads a turn later\n", slower,
	       runs);
	ck_assert_int_gt(slower, 0);
}
END_TEST

/* ---- bad model files ------------------------------------------------------- */

#define GOOD_SEEK "seek: {track_to_track: 0.8ms, average: 8.5ms, full_stroke: 17ms}\n"
#define GOOD_ZONES "zones: {count: 4, outer_rate: 40MB/s, inner_rate: 20MB/s}\n"

/* IOPS of 4 KiB writes, 4 outstanding, on DRIVE with the given cache keys. */
static double write_iops(const char *keys, const char *pattern)
{
	struct tu_run r;
	tu_run(&r, "device: {" DRIVE ", capacity: 100MB, queue_depth: %s}\n"
		   "workload:\n  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 0%%, %s, "
		   "outstanding: 4, run: 2s}\n", keys, pattern);
	return r.s.iops;
}

/* DiskSim's fast write level 1: a sequential stream is acknowledged from
 * the buffer, random writes go to the media as with no write cache, and at
 * one command at a time nothing continues a write, so all write through. */
START_TEST(write_cache_appends_only)
{
	const char *lvl1 = "8, write_cache: true, write_cache_appends_only: true";
	double seq1 = write_iops(lvl1, "random: 0%"), seq0 = write_iops("8", "random: 0%");
	double seq2 = write_iops("8, write_cache: true", "random: 0%");
	double rnd1 = write_iops(lvl1, "random: 100%"), rnd0 = write_iops("8", "random: 100%");
	double rnd2 = write_iops("8, write_cache: true", "random: 100%");
	double one1 = write_iops("1, write_cache: true, write_cache_appends_only: true",
				 "random: 0%");
	double one0 = write_iops("1", "random: 0%");
	printf("level 1 seq %.1f rnd %.1f qd1 %.1f; level 0 seq %.1f rnd %.1f qd1 %.1f; "
	       "level 2 seq %.1f rnd %.1f\n", seq1, rnd1, one1, seq0, rnd0, one0, seq2, rnd2);
	ck_assert(seq1 > 2 * seq0);
	ck_assert(fabs(rnd1 / rnd0 - 1) < 0.05);
	ck_assert(rnd2 > 1.2 * rnd1);
	ck_assert(fabs(one1 / one0 - 1) < 0.01);
}
END_TEST

/* ---- the disconnecting drive (SCSI connection overheads) ------------------ */

/* Each overhead of DiskSim's disconnecting drive moves a response by
 * exactly its time where nothing rotational depends on it: a hit's data
 * waits for the data preparation; a store-and-forward read's data (mark
 * 1) waits for the reselection and preparation after the media; a write
 * reports after reselecting from the media; a disconnection longer than
 * the work floors the reconnection. */
START_TEST(connection_overheads)
{
	static const char reads[] = "R m 1000 8 0 100000\nR h 1000 8 0 100000\n";
	static const char one[] = "R m 300 1 0 100000\n";
	static const char write[] = "W m 5000 8 0 100000\n";
	const char *base = DRIVE ", interface_block_time: 0.05ms, read_ahead: 8KiB, "
			   "read_watermark: 1";
	char dev[1024];
	rs_time_t r0[2], r1[2], w0, w1, o0, o1;
	ck_assert_uint_eq(replay(base, reads, r0, 2), 2);
	snprintf(dev, sizeof(dev), "%s, data_prep: 0.03ms, reselect: 0.2ms", base);
	ck_assert_uint_eq(replay(dev, reads, r1, 2), 2);
	ck_assert_int_eq(r1[0] - r0[0], 230000);
	ck_assert_int_eq(r1[1] - r0[1], 30000);
	/* A one-block read reselects after the media too. */
	ck_assert_uint_eq(replay(base, one, &o0, 1), 1);
	ck_assert_uint_eq(replay(dev, one, &o1, 1), 1);
	ck_assert_int_eq(o1 - o0, 230000);
	/* Its command overhead (0.2 ms) and a 20 ms disconnection before it
	 * may reselect, though its sector is read by 10.1 ms. */
	snprintf(dev, sizeof(dev), "%s, disconnect_read: 20ms", base);
	ck_assert_uint_eq(replay(dev, one, &o1, 1), 1);
	ck_assert_int_eq(o1, 200000 + 20000000 + 50000);
	ck_assert_uint_eq(replay(base, write, &w0, 1), 1);
	snprintf(dev, sizeof(dev), "%s, reselect: 0.2ms", base);
	ck_assert_uint_eq(replay(dev, write, &w1, 1), 1);
	ck_assert_int_eq(w1 - w0, 200000);
	/* A cached write's data waits for the data preparation too. */
	const char *wc = DRIVE ", interface_block_time: 0.05ms, write_cache: true";
	snprintf(dev, sizeof(dev), "%s, data_prep: 0.03ms", wc);
	ck_assert_uint_eq(replay(wc, write, &w0, 1), 1);
	ck_assert_uint_eq(replay(dev, write, &w1, 1), 1);
	ck_assert_int_eq(w1 - w0, 30000);
	/* Its data in by 0.4 ms, a 50 ms disconnection outlasts the media. */
	snprintf(dev, sizeof(dev), "%s, disconnect_write: 50ms", base);
	ck_assert_uint_eq(replay(dev, write, &w1, 1), 1);
	ck_assert_int_eq(w1, 8 * 50000 + 50000000);
}
END_TEST

/* DiskSim's extra write disconnect: a write after a write that does not
 * continue it takes its data only after the command, a disconnection, a
 * gap and a reselection (here 0.2 ms + 30 ms, three whole turns, so the
 * media meets it in the same phase); its seek may start after the command
 * and the seek delta, long before.  A write after a read, or one that
 * continues the previous write, is not affected. */
START_TEST(extra_write_disconnect)
{
	static const char scattered[] = "W m 0 8 0 100000\nW m 5000 8 0 100000\n";
	static const char after_read[] = "R m 0 8 0 100000\nW m 5000 8 0 100000\n";
	static const char sequential[] = "W m 0 8 0 100000\nW m 8 8 0 100000\n";
	const char *base = DRIVE ", interface_block_time: 0.05ms, prefetch: none";
	char dev[1024];
	snprintf(dev, sizeof(dev), "%s, extra_write_disconnect: true, extra_disconnect_command: "
		 "0.2ms, extra_disconnect_gap: 30ms", base);
	rs_time_t a[2], b[2];
	ck_assert_uint_eq(replay(base, scattered, a, 2), 2);
	ck_assert_uint_eq(replay(dev, scattered, b, 2), 2);
	ck_assert_int_eq(b[0], a[0]);
	ck_assert_int_eq(b[1] - a[1], 30000000);
	ck_assert_uint_eq(replay(base, after_read, a, 2), 2);
	ck_assert_uint_eq(replay(dev, after_read, b, 2), 2);
	ck_assert_int_eq(b[1], a[1]);
	ck_assert_uint_eq(replay(base, sequential, a, 2), 2);
	ck_assert_uint_eq(replay(dev, sequential, b, 2), 2);
	ck_assert_int_eq(b[1], a[1]);
}
END_TEST

/* DiskSim's minimum seek delay: a write to the track under the head (LBA
 * 10, under it at 1 ms; the write may move at 0.25 ms) that must wait 1 ms
 * first misses its sector by a turn; a read is not held. */
START_TEST(write_seek_min)
{
	static const char write[] = "W m 10 1 0 100000\n";
	static const char read[] = "R m 10 1 0 100000\n";
	const char *base = DRIVE ", interface_block_time: 0.05ms, prefetch: none";
	char dev[1024];
	snprintf(dev, sizeof(dev), "%s, write_seek_min: 1ms", base);
	rs_time_t a, b;
	ck_assert_uint_eq(replay(base, write, &a, 1), 1);
	ck_assert_uint_eq(replay(dev, write, &b, 1), 1);
	ck_assert_int_eq(b - a, 10000000);
	ck_assert_uint_eq(replay(base, read, &a, 1), 1);
	ck_assert_uint_eq(replay(dev, read, &b, 1), 1);
	ck_assert_int_eq(b, a);
}
END_TEST

/* Write data at its own bus rate: a cached write's response is its
 * overhead and its data; a read's data keeps the read rate. */
START_TEST(write_block_time)
{
	static const char write[] = "W m 5000 8 0 100000\n";
	static const char reads[] = "R m 1000 8 0 100000\nR h 1000 8 0 100000\n";
	const char *base = DRIVE ", interface_block_time: 0.05ms, write_cache: true";
	char dev[1024];
	snprintf(dev, sizeof(dev), "%s, interface_block_time_write: 0.1ms", base);
	rs_time_t w, r0[2], r1[2];
	ck_assert_uint_eq(replay(dev, write, &w, 1), 1);
	ck_assert_int_eq(w, 200000 + 8 * 100000);
	ck_assert_uint_eq(replay(base, reads, r0, 2), 2);
	ck_assert_uint_eq(replay(dev, reads, r1, 2), 2);
	ck_assert_int_eq(r1[0], r0[0]);
	ck_assert_int_eq(r1[1], r0[1]);
}
END_TEST

static const struct tu_bad_device bad_cases[] = {
	{ "water mark above 1", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "read_watermark: 1.5\n", 5, 17, NULL },
	{ "negative completion", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "completion_read: -1ms\n", 5, 18, NULL },
	{ "idle hit not a bool", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "read_ahead_on_idle_hit: sometimes\n", 5, 25, NULL },
	{ "negative reselect", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "reselect: -1ms\n", 5, 11, NULL },
	{ "negative write block time", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "interface_block_time_write: -1ms\n", 5, 29, NULL },
};

START_TEST(bad_models)
{
	tu_expect_bad_device(&bad_cases[_i], "disk0");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hdd_dsim_fw");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, completion_overheads);
	tcase_add_test(tc, read_watermark);
	tcase_add_test(tc, write_watermark);
	tcase_add_test(tc, read_hits_on_write_data);
	tcase_add_test(tc, read_ahead_on_idle_hit);
	tcase_add_test(tc, read_drop_request);
	tcase_add_test(tc, read_ahead_finishes_sector);
	tcase_add_test(tc, write_cache_appends_only);
	tcase_add_test(tc, connection_overheads);
	tcase_add_test(tc, extra_write_disconnect);
	tcase_add_test(tc, write_seek_min);
	tcase_add_test(tc, write_block_time);
	tcase_add_loop_test(tc, bad_models, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
