/* Unit tests for the hdd device (src/disk/hdd*.c): the two disk models
 * driven by the iometer workload (random service time at depth 1, media
 * rates of sequential reads, SPTF against FCFS at depth 32, the write
 * cache), the scheduler's prediction invariant, buffer hits, flushes, and
 * model files with errors rejected at the right line and column.  Every
 * run ends with the conservation check. */
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
#include "disk/hdd.h"
#include "disk/hdd_buffer.h"
#include "disk/hdd_firmware.h"
#include "disk/hdd_sched.h"
#include "disk/layout.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* ---- running a scenario ------------------------------------------------ */

struct hrun {
	struct rs_iostat_summary s;
	struct rs_hdd_counters c;
	struct rs_dev_report dev;
	rs_time_t end;
	double seek_avg_ms, period_ms;    /* from the built drive */
};

static void run(struct hrun *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run(struct hrun *out, const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vrun(&p, "test.yaml", "disk0", 1, fmt, ap);
	va_end(ap);

	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->dev = p.load->target_report;
	out->c = *rs_hdd_counters(p.dev);
	out->end = rs_now(p.sim);
	const struct rs_hdd_geom *g = rs_hdd_geom(p.dev);
	out->seek_avg_ms = rs_seek_mean_random(&g->seek, g->layout.cylinders) / 1e6;
	out->period_ms = rs_spindle_period_ns(&g->spindle) / 1e6;
	/* The invariant: every prediction the scheduler made came true. */
	ck_assert_uint_eq(out->c.mismatches, 0);
	tu_point_free(&p);
}

/* ---- depth 1 random reads --------------------------------------------- */

struct model_case {
	const char *name;
	double avg_seek_ms, overhead_ms, rpm;
	double outer_mb_s, inner_mb_s;
	const char *inner_offset;
};

static const struct model_case models[] = {
	{ "maxtor-6l020l0", 8.5, 0.2, 7200, 44, 24, "19800MB" },
	{ "wd-raptor-wd740gd", 4.5, 0.15, 10000, 72, 48, "74100000256B" },
};

START_TEST(qd1_random_read)
{
	const struct model_case *m = &models[_i];
	struct hrun r;
	/* queue_depth 1 as well, so the Raptor pays no queuing overhead. */
	run(&r,
	    "device: {model: %s, queue_depth: 1}\n"
	    "workload: {iometer: {spec: default, size: 512B, read: 100%%, random: 100%%,\n"
	    "  outstanding: 1, ramp: 1s, run: 30s}}\n", m->name);
	double want = m->avg_seek_ms + 0.5 * 60e3 / m->rpm + m->overhead_ms;
	printf("%s QD1 random 512 B read: %.3f ms (expected %.3f; drive's own "
	       "all-pairs mean seek %.3f ms), %.1f IOPS, hits %llu\n", m->name,
	       r.s.lat_mean_ms, want, r.seek_avg_ms, r.s.iops, (unsigned long long)r.c.hits);
	tu_assert_rel(r.s.lat_mean_ms, want, 0.05);
	ck_assert(r.dev.utilisation > 0.9);
}
END_TEST

/* ---- media rates ------------------------------------------------------ */

START_TEST(sequential_rates)
{
	const struct model_case *m = &models[_i];
	struct hrun outer, inner;
	const char *wl = "workload: {iometer: {spec: seqread, size: 256KiB, outstanding: 2,\n"
			 "  range: 200MB, offset: %s, ramp: 0.2s, run: 1.5s}}\n";
	char fmt[512];
	snprintf(fmt, sizeof(fmt), "device: {model: %%s}\n%s", wl);
	run(&outer, fmt, m->name, "0B");
	run(&inner, fmt, m->name, m->inner_offset);
	printf("%s sequential 256 KiB reads: outer %.2f MB/s (model %.0f), inner %.2f MB/s "
	       "(model %.0f); stream continuations %llu/%llu\n", m->name, outer.s.mb_s,
	       m->outer_mb_s, inner.s.mb_s, m->inner_mb_s,
	       (unsigned long long)outer.c.stream_reads, (unsigned long long)outer.c.misses);
	tu_assert_rel(outer.s.mb_s, m->outer_mb_s, 0.05);
	tu_assert_rel(inner.s.mb_s, m->inner_mb_s, 0.05);
}
END_TEST

/* ---- scheduling at depth 32 --------------------------------------------- */

static double random_iops(const char *sched, struct hrun *r)
{
	run(r,
	    "device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: %s}\n"
	    "workload: {iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	    "  outstanding: 32, ramp: 1s, run: 15s}}\n", sched);
	return r->s.iops;
}

START_TEST(sptf_beats_fcfs)
{
	struct hrun f, s, k, t;
	double fcfs = random_iops("fcfs", &f);
	double sptf = random_iops("sptf", &s);
	double clook = random_iops("clook", &k);
	double sstf = random_iops("sstf", &t);
	printf("maxtor QD32 random 4 KiB reads: FCFS %.1f, SSTF %.1f, C-LOOK %.1f, SPTF %.1f "
	       "IOPS; SPTF/FCFS = %.2f\n", fcfs, sstf, clook, sptf, sptf / fcfs);
	ck_assert(sptf >= 1.5 * fcfs);
	ck_assert(clook > fcfs && sstf > fcfs && sptf > sstf);
	/* Every one of them went through the prediction check. */
	ck_assert_uint_gt(s.c.media_ops, 1000);
	ck_assert_uint_eq(s.c.mismatches, 0);
}
END_TEST

START_TEST(aging_bounds_wait)
{
	struct hrun a, s;
	random_iops("sptf", &s);
	run(&a,
	    "device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: sptf, aging: 300ms}\n"
	    "workload: {iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	    "  outstanding: 32, ramp: 1s, run: 15s}}\n");
	printf("maxtor QD32 SPTF max latency %.0f ms, with 300 ms aging %.0f ms (IOPS %.1f -> %.1f)\n",
	       s.s.lat_max_ms, a.s.lat_max_ms, s.s.iops, a.s.iops);
	ck_assert(a.s.lat_max_ms < s.s.lat_max_ms);
	ck_assert_uint_eq(a.c.mismatches, 0);
}
END_TEST

/* ---- queuing protocols and the drive's own limits ---------------------- */

/* Depth-1 random reads on a drive with queuing on: each protocol adds its
 * handshakes (interface_overhead each) and, for legacy TCQ, the host's
 * service time before the data phase.  The mechanics are the same stream of
 * positions (same seed), so the latency difference is exactly the cost. */
static double qd1_latency_ms(const char *protocol, const char *host_service)
{
	struct hrun r;
	run(&r,
	    "device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: fcfs,\n"
	    "  interface_overhead: 10us, protocol: %s, host_service: %s}\n"
	    "workload: {iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	    "  outstanding: 1, count: 2000, run: 100s}}\n", protocol, host_service);
	return r.s.lat_mean_ms;
}

START_TEST(protocol_costs)
{
	double ideal = qd1_latency_ms("ideal", "0s");
	double tcq = qd1_latency_ms("ata-tcq", "200us");
	double ncq = qd1_latency_ms("ncq", "200us");
	double scsi = qd1_latency_ms("scsi-tcq", "200us");
	printf("QD1 4 KiB read latency: ideal %.4f, ata-tcq %.4f, ncq %.4f, scsi-tcq %.4f ms\n",
	       ideal, tcq, ncq, scsi);
	/* Legacy TCQ: bus release + SERVICE exchange (2 x 10 us) + 200 us host.
	 * The spindle keeps turning meanwhile, so a later start can land on a
	 * different rotational position: compare with a tolerance of a few
	 * percent of a revolution's worth, but the ordering is exact. */
	ck_assert(tcq - ideal > 0.15 && tcq - ideal < 0.40);
	/* NCQ: one DMA Setup exchange, no host round trip. */
	ck_assert(ncq > ideal && ncq - ideal < 0.1);
	/* SCSI: disconnect + reselect, no host round trip (host_service unused). */
	ck_assert(scsi > ideal && scsi < tcq);
}
END_TEST

/* Legacy TCQ releasing the bus by need: a write the drive's cache takes
 * at once moves its data right after the command, without the release and
 * the SERVICE round trip (200 us of host plus two exchanges here), while a
 * read miss still releases and waits for SERVICE as with `always`. */
static double tcq_release_latency_ms(const char *release, int read_pct)
{
	/* 100 writes fit the drive's 1 MiB write cache: none waits for room. */
	int count = read_pct ? 2000 : 100;
	struct hrun r;
	run(&r,
	    "device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: fcfs,\n"
	    "  interface_overhead: 10us, protocol: ata-tcq, host_service: 200us,\n"
	    "  write_cache: true, tcq_release: %s}\n"
	    "workload: {iometer: {spec: default, size: 4KiB, read: %d%%, random: 100%%,\n"
	    "  outstanding: 1, count: %d, run: 100s}}\n", release, read_pct, count);
	return r.s.lat_mean_ms;
}

START_TEST(tcq_release_when_needed)
{
	double w_always = tcq_release_latency_ms("always", 0);
	double w_need = tcq_release_latency_ms("when-needed", 0);
	double r_always = tcq_release_latency_ms("always", 100);
	double r_need = tcq_release_latency_ms("when-needed", 100);
	printf("QD1 4 KiB ata-tcq latency, release always / when-needed: cached writes "
	       "%.4f / %.4f ms, read misses %.4f / %.4f ms\n", w_always, w_need, r_always,
	       r_need);
	/* Cached writes: the whole round trip goes (200 us + 2 x 10 us). */
	tu_assert_rel(w_always - w_need, 0.22, 0.02);
	/* Read misses: same handshakes, the release only moves in time. */
	tu_assert_rel(r_need, r_always, 0.02);
}
END_TEST

/* The protocol costs nothing while queuing is off (queue_depth 1). */
START_TEST(protocol_off_without_queuing)
{
	struct hrun a, b;
	run(&a, "device: {model: maxtor-6l020l0, queue_depth: 1, protocol: ideal}\n"
		"workload: {iometer: {spec: default, size: 4KiB, outstanding: 1, count: 500, "
		"run: 100s}}\n");
	run(&b, "device: {model: maxtor-6l020l0, queue_depth: 1, protocol: ata-tcq, "
		"host_service: 1ms}\n"
		"workload: {iometer: {spec: default, size: 4KiB, outstanding: 1, count: 500, "
		"run: 100s}}\n");
	ck_assert(a.s.lat_mean_ms == b.s.lat_mean_ms);
}
END_TEST

/* A window of 1 weighs only the oldest command: FCFS, whatever the policy;
 * a wider window gains, and all of them gain less than the whole queue. */
START_TEST(reorder_window)
{
	struct hrun f, w1, w4, all;
	const char *fmt =
		"device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: %s, "
		"reorder_window: %d}\n"
		"workload: {iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
		"  outstanding: 32, ramp: 1s, run: 10s}}\n";
	run(&f, fmt, "fcfs", 0);
	run(&w1, fmt, "sptf", 1);
	run(&w4, fmt, "sptf", 4);
	run(&all, fmt, "sptf", 0);
	printf("QD32 SPTF by window: 1 %.1f, 4 %.1f, all %.1f IOPS (FCFS %.1f)\n", w1.s.iops,
	       w4.s.iops, all.s.iops, f.s.iops);
	ck_assert(fabs(w1.s.iops - f.s.iops) < 1e-9);
	ck_assert(w4.s.iops > 1.1 * w1.s.iops && all.s.iops > 1.1 * w4.s.iops);
}
END_TEST

/* The drive never holds more commands than its depth, and the report says
 * how many it held. */
START_TEST(held_commands_bounded)
{
	struct hrun one, eight;
	run(&one, "device: {model: maxtor-6l020l0, queue_depth: 1}\n"
		  "workload: {iometer: {spec: default, size: 4KiB, outstanding: 16, ramp: 1s, "
		  "run: 5s}}\n");
	run(&eight, "device: {model: maxtor-6l020l0, queue_depth: 8, scheduler: sptf}\n"
		    "workload: {iometer: {spec: default, size: 4KiB, outstanding: 16, ramp: 1s, "
		    "run: 5s}}\n");
	printf("held: depth 1 mean %.3f max %.0f; depth 8 mean %.3f max %.0f\n",
	       one.dev.drive_qd, one.dev.drive_qd_max, eight.dev.drive_qd,
	       eight.dev.drive_qd_max);
	ck_assert(one.dev.drive_qd_max == 1 && one.dev.drive_qd > 0.99);
	ck_assert(eight.dev.drive_qd_max == 8 && eight.dev.drive_qd > 7.9);
	ck_assert_uint_eq(eight.dev.drives, 1);
}
END_TEST

/* ---- the write cache ------------------------------------------------- */

START_TEST(write_cache)
{
	struct hrun on, off, longrun;
	const char *wl = "workload: {iometer: {spec: default, size: 4KiB, read: 0%%, "
			 "random: 100%%, outstanding: 1, ramp: %s, run: %s}}\n";
	char fmt[512];
	snprintf(fmt, sizeof(fmt), "device: {model: maxtor-6l020l0, write_cache: %%s}\n%s", wl);
	/* 50 ms: fewer writes than the cache holds. */
	run(&on, fmt, "true", "0s", "50ms");
	run(&off, fmt, "false", "0s", "2s");
	printf("maxtor QD1 random 4 KiB writes: cache on %.3f ms, off %.3f ms\n",
	       on.s.lat_mean_ms, off.s.lat_mean_ms);
	ck_assert(on.s.lat_mean_ms * 10 < off.s.lat_mean_ms);
	ck_assert_uint_eq(on.c.stalls, 0);
	ck_assert_uint_gt(on.c.cached_writes, 0);

	/* A long run fills the cache; then writes go at the destage rate.  The
	 * same seed for 10 s and 20 s: the difference in destages is the
	 * steady state of the second half. */
	struct hrun half;
	run(&half, fmt, "true", "2s", "10s");
	run(&longrun, fmt, "true", "2s", "20s");
	double destage_rate = (double)(longrun.c.destages - half.c.destages) /
			      ((double)(longrun.end - half.end) / 1e9);
	printf("maxtor write-heavy 20 s: %.1f IOPS, %.1f destages/s, %llu stalls, "
	       "cache off %.1f IOPS\n", longrun.s.iops, destage_rate,
	       (unsigned long long)longrun.c.stalls, off.s.iops);
	ck_assert_uint_gt(longrun.c.stalls, 0);
	tu_assert_rel(longrun.s.iops, destage_rate, 0.05);
	/* Reordered destaging beats write-through, but stays mechanical. */
	ck_assert(longrun.s.iops > off.s.iops);
	ck_assert(longrun.s.iops < 5 * off.s.iops);
	ck_assert_uint_eq(longrun.c.destaged_blk, longrun.c.cached_writes * 8);
}
END_TEST

START_TEST(sequential_writes_coalesce)
{
	struct hrun r;
	run(&r, "device: {model: wd-raptor-wd740gd}\n"
		"workload: {iometer: {spec: seqwrite, size: 4KiB, outstanding: 4, run: 1s}}\n");
	printf("raptor sequential 4 KiB writes: %.1f MB/s, %llu writes in %llu destages\n",
	       r.s.mb_s, (unsigned long long)r.c.cached_writes,
	       (unsigned long long)r.c.destages);
	ck_assert_uint_lt(r.c.destages * 8, r.c.cached_writes);
}
END_TEST

/* ---- the buffer ---------------------------------------------------------- */

START_TEST(read_ahead_hits)
{
	struct hrun r, noahead;
	run(&r, "device: {model: maxtor-6l020l0}\n"
		"workload: {iometer: {spec: seqread, size: 4KiB, outstanding: 1, run: 1s}}\n");
	run(&noahead, "device: {model: maxtor-6l020l0, read_ahead: 0B}\n"
		      "workload: {iometer: {spec: seqread, size: 4KiB, outstanding: 1, run: 1s}}\n");
	printf("maxtor sequential 4 KiB reads: %.2f MB/s, hits %llu, misses %llu; "
	       "without read-ahead %.2f MB/s\n", r.s.mb_s, (unsigned long long)r.c.hits,
	       (unsigned long long)r.c.misses, noahead.s.mb_s);
	ck_assert_uint_gt(r.c.hits, 10 * r.c.misses);
	ck_assert(r.s.mb_s > 5 * noahead.s.mb_s);
	ck_assert_uint_eq(noahead.c.hits, 0);
}
END_TEST

START_TEST(read_ahead_finishes_first)
{
	/* With read-ahead allowed to finish, every random read waits for the
	 * rest of the previous one's 256 sectors of read-ahead: 2.7 ms in the
	 * outer zone, about 3.5 ms averaged over the zones. */
	struct hrun stop, finish;
	const char *fmt = "device: {model: maxtor-6l020l0, read_ahead_stop_on_command: %s}\n"
			  "workload: {iometer: {spec: default, size: 4KiB, read: 100%%, "
			  "random: 100%%, outstanding: 1, run: 10s}}\n";
	run(&stop, fmt, "true");
	run(&finish, fmt, "false");
	printf("maxtor QD1 random 4 KiB reads: read-ahead stops %.3f ms, finishes first %.3f ms\n",
	       stop.s.lat_mean_ms, finish.s.lat_mean_ms);
	ck_assert(finish.s.lat_mean_ms > stop.s.lat_mean_ms + 2.0);
	ck_assert(finish.s.lat_mean_ms < stop.s.lat_mean_ms + 4.5);
}
END_TEST

/* ---- hand-made requests -------------------------------------------------- */

struct done_log {
	int n;
	rs_time_t t[16];
	int status[16];
};

static void logged_done(struct rs_sim *sim, struct rs_io *io)
{
	struct done_log *l = io->done_ctx;
	l->t[l->n] = rs_now(sim);
	l->status[l->n++] = io->status;
	rs_io_free(sim, io);
}

START_TEST(flush_waits_for_destage)
{
	struct rs_model_path mp;
	struct rs_diag d;
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(3);
	struct rs_node *root;
	struct rs_dev *dev = tu_build_text(sim, &mp, "model: maxtor-6l020l0\n", "disk0", &root, &d);
	ck_assert_ptr_nonnull(dev);
	struct done_log l = { 0 };
	for (int i = 0; i < 8; i++)
		rs_dev_submit(sim, dev, rs_io_new(sim, RS_WRITE, (uint64_t)i * 1000003, 8,
						  logged_done, &l));
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_FLUSH, 0, 0, logged_done, &l));
	rs_dev_submit(sim, dev, rs_io_new(sim, RS_READ, dev->capacity_blk, 1, logged_done, &l));
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(l.n, 10);
	const struct rs_hdd_counters *c = rs_hdd_counters(dev);
	ck_assert_uint_eq(c->destages, 8);
	ck_assert_uint_eq(c->mismatches, 0);
	/* Writes finish in well under a revolution, the flush only after the
	 * last destage: several seeks later. */
	ck_assert_int_lt(l.t[0], 2 * RS_MS);
	ck_assert_int_eq(l.status[8], 0);
	ck_assert_int_gt(l.t[8], 8 * 3 * RS_MS);
	/* The out-of-range read failed (it completes once the port lets it in). */
	int erange = 0;
	for (int i = 0; i < l.n; i++)
		erange += l.status[i] == -RS_ERR_ERANGE;
	ck_assert_int_eq(erange, 1);
	tu_check_conservation(sim);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

START_TEST(spindle_phase_from_seed)
{
	struct rs_model_path mp;
	struct rs_diag d;
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(5);
	struct rs_node *r1, *r2;
	struct rs_dev *a = tu_build_text(sim, &mp, "model: maxtor-6l020l0\n", "disk0", &r1, &d);
	struct rs_dev *b = tu_build_text(sim, &mp, "model: maxtor-6l020l0\nspindle_phase: 0.25\n",
					 "disk0", &r2, &d);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	double pa = rs_spindle_angle(&rs_hdd_geom(a)->spindle, 0);
	double pb = rs_spindle_angle(&rs_hdd_geom(b)->spindle, 0);
	ck_assert_double_eq_tol(pb, 0.25, 1e-12);
	ck_assert(pa >= 0 && pa < 1 && fabs(pa - pb) > 1e-9);
	rs_dev_destroy(a);
	rs_dev_destroy(b);
	rs_node_free(r1);
	rs_node_free(r2);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* ---- bad model files ------------------------------------------------------ */

#define GOOD_SEEK "seek: {track_to_track: 0.8ms, average: 8.5ms, full_stroke: 17ms}\n"
#define GOOD_ZONES "zones: {count: 4, outer_rate: 40MB/s, inner_rate: 20MB/s}\n"

static const struct tu_bad_device bad_cases[] = {
	{ "zones overlapping",
	  "type: hdd\ncylinders: 200\nseek_table: [[1, 1ms], [199, 15ms]]\nzone_table:\n"
	  "  - {first_cyl: 0, last_cyl: 99, sectors_per_track: 500}\n"
	  "  - {first_cyl: 90, last_cyl: 199, sectors_per_track: 400}\n",
	  6, 17, "overlapping" },
	{ "zones not covering the cylinders",
	  "type: hdd\ncylinders: 300\nseek_table: [[1, 1ms], [199, 15ms]]\nzone_table:\n"
	  "  - {first_cyl: 0, last_cyl: 99, sectors_per_track: 500}\n"
	  "  - {first_cyl: 100, last_cyl: 199, sectors_per_track: 400}\n",
	  2, 12, "cover" },
	{ "seek table out of order",
	  "type: hdd\ncapacity: 1GB\n" GOOD_ZONES
	  "seek_table:\n  - [1, 1ms]\n  - [100, 5ms]\n  - [50, 6ms]\n",
	  7, 6, "increase" },
	{ "rpm 0", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK "rpm: 0rpm\n", 5, 6,
	  "positive" },
	{ "negative time", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "overhead_read: -0.1ms\n", 5, 16, NULL },
	{ "negative seek-table time",
	  "type: hdd\ncapacity: 1GB\n" GOOD_ZONES "seek_table: [[1, 1ms], [9, -2ms]]\n",
	  4, 28, NULL },
	{ "impossible fit", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES
	  "seek: {track_to_track: 1ms, average: 15ms, full_stroke: 17ms}\n", 4, 7, "seek" },
	{ "capacity beyond the layout",
	  "type: hdd\ncapacity: 1GB\nseek_table: [[1, 1ms], [199, 15ms]]\nzone_table:\n"
	  "  - {first_cyl: 0, last_cyl: 199, sectors_per_track: 500}\n",
	  2, 11, "larger" },
	{ "queue depth out of range", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "queue_depth: 64\n", 5, 14, NULL },
	{ "both seek forms", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "seek_table: [[1, 1ms]]\n", 5, 13, "either" },
	{ "generated zones without capacity", "type: hdd\n" GOOD_ZONES GOOD_SEEK, 1, 1,
	  "capacity" },
};

START_TEST(bad_models)
{
	tu_expect_bad_device(&bad_cases[_i], "disk0");
}
END_TEST

/* ---- DiskSim firmware rules (src/disk/hdd_firmware.c) ------------------
 * A toy drive: one zone of 100 sectors per track, 2 surfaces, 6000 rpm
 * (10 ms a turn, 0.1 ms a sector). */

static void fw_layout(struct rs_layout *l)
{
	static const struct rs_zone z = { .last_cyl = 999, .sectors_per_track = 100 };
	struct rs_layout_params lp = { .heads = 2, .cylinders = 1000, .zones = &z, .nzones = 1 };
	char err[200];
	ck_assert_int_eq(rs_layout_init(l, &lp, err, sizeof(err)), 0);
}

/* Where read-ahead stops under each "Buffer continuous read" mode. */
START_TEST(fw_prefetch_limits)
{
	struct rs_layout l;
	fw_layout(&l);
	uint64_t cap = rs_layout_capacity_blk(&l);
	struct rs_hdd_fw fw = { .ra_fixed_blk = 30 };
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 44);
	fw.prefetch = RS_PREFETCH_NONE;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 14);
	fw.prefetch = RS_PREFETCH_TRACK;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 100);
	fw.ra_max_blk = 20;           /* the maximum cuts it... */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 34);
	fw.ra_max_blk = 0;
	fw.ra_min_blk = 150;          /* ...the minimum runs past the track */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 164);
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 100), 114); /* segment */
	fw.ra_min_blk = 0;
	fw.prefetch = RS_PREFETCH_CYLINDER;   /* both surfaces */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 200);
	fw.prefetch = RS_PREFETCH_SEGMENT;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 5, 10, 4, cap, 300), 305);
	/* DiskSim's mode 4: to the end of the track after the request... */
	fw.prefetch = RS_PREFETCH_NEXT_TRACK;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 1000), 100);
	/* ...where the first block after it lies, here the next track, and one
	 * more since the segment starts before that track. */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 95, 95, 5, cap, 1000), 300);
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 150, 150, 4, cap, 1000), 200);
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 50, 150, 4, cap, 1000), 300);
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 50, 150, 4, cap, 60), 214);
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, cap - 4, cap - 4, 4, cap, 1000), cap);
	rs_layout_destroy(&l);
}
END_TEST

/* Read any free blocks: the whole sectors of the read's own track that
 * pass during the rotational wait, no more than there are before it on
 * the track nor than the room left. */
START_TEST(fw_free_behind)
{
	struct rs_layout l;
	fw_layout(&l);
	const double period = 10e6;
	ck_assert_uint_eq(rs_hdd_fw_free_behind(&l, period, 50, 2550000, 1000), 25);
	ck_assert_uint_eq(rs_hdd_fw_free_behind(&l, period, 50, 2500000, 1000), 25);
	ck_assert_uint_eq(rs_hdd_fw_free_behind(&l, period, 50, 99999, 1000), 0);
	ck_assert_uint_eq(rs_hdd_fw_free_behind(&l, period, 50, 2550000, 10), 10);
	ck_assert_uint_eq(rs_hdd_fw_free_behind(&l, period, 105, 9000000, 1000), 5);
	rs_layout_destroy(&l);
}
END_TEST

/* Closed-loop replay of a small validate trace; responses in ns. */
static size_t fw_replay(const char *device, const char *trace, rs_time_t *resp, size_t max)
{
	char path[] = "/tmp/raidsim-fw-XXXXXX";
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

/* Bus time per block, and overheads chosen by hit or miss and by the
 * previous command. */
START_TEST(fw_overheads_by_previous)
{
	static const char device[] =
		"type: hdd, rpm: 6000rpm, heads: 2, cylinders: 1000, "
		"zone_table: [{first_cyl: 0, last_cyl: 999, sectors_per_track: 100}], "
		"seek_table: [[1, 1ms], [999, 10ms]], head_switch: 0.5ms, spindle_phase: 0, "
		"interface_block_time: 0.1ms, interface_burst: 512B, write_cache: true, "
		"destage_high: 0%, prefetch: track, "
		"overheads: {read_hit: [0.05ms, 0.3ms], read_miss: [0ms, 0ms], "
		"write_hit: [0.2ms, 0.4ms], write_miss: 1ms}";
	/* Gaps of 100 ms: every destage is over before the next command. */
	static const char trace[] = "R m 1000 8 0 100000\n"   /* miss */
				    "R h 1000 8 0 100000\n"   /* hit after a read */
				    "W h 50000 4 0 100000\n"  /* write hit after a read */
				    "R h 1000 8 0 100000\n"   /* hit after a write */
				    "W h 60000 4 0 100000\n"  /* write hit after a read */
				    "W h 60004 4 0 100000\n"  /* write hit after a write */
				    "R h 1000 8 0 100000\n"   /* hit after a write */
				    "R h 1000 8 0 100000\n"   /* hit after a read */
				    "R h 1000 8 0 100000\n";  /* the same again */
	rs_time_t r[10];
	ck_assert_uint_eq(fw_replay(device, trace, r, 10), 9);
	ck_assert_int_eq(r[1], 50000 + 8 * 100000);
	ck_assert_int_eq(r[2], 200000 + 4 * 100000);
	ck_assert_int_eq(r[3], 300000 + 8 * 100000);
	ck_assert_int_eq(r[4], 200000 + 4 * 100000);
	ck_assert_int_eq(r[5], 400000 + 4 * 100000);
	/* Overheads set for the command before, of the same kind, hold. */
	ck_assert_int_eq(r[6], 300000 + 8 * 100000);
	ck_assert_int_eq(r[7], 50000 + 8 * 100000);
	ck_assert_int_eq(r[8], 50000 + 8 * 100000);
	/* The miss: its last block leaves the drive one block time after the
	 * media has read it, never before. */
	ck_assert_int_ge(r[0], 8 * 100000 + 100000);
}
END_TEST

static const struct tu_bad_device fw_bad_cases[] = {
	{ "unknown overhead kind",
	  "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK "overheads: {read_hitt: 1ms}\n", 5,
	  13, "did you mean 'read_hit'" },
	{ "overhead pair of one",
	  "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK "overheads: {write_miss: [1ms]}\n", 5,
	  25, "[after a read, after a write]" },
	{ "overheads not a map", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "overheads: 1ms\n", 5, 12, "overheads" },
	{ "unknown prefetch mode", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES GOOD_SEEK
	  "prefetch: next_track\n", 5, 11, NULL },
	{ "minimum above the maximum read-ahead", "type: hdd\ncapacity: 1GB\n" GOOD_ZONES
	  GOOD_SEEK "prefetch: track\nread_ahead: 8KiB\nread_ahead_min: 16KiB\n", 7, 17,
	  "read_ahead_min" },
};

START_TEST(fw_bad_models)
{
	tu_expect_bad_device(&fw_bad_cases[_i], "disk0");
}
END_TEST

/* ---- the write cache: physical limits ------------------------------------
 *
 * What no write-back cache can do, whatever its sizes and orders: make an
 * added delay pay, lose to write-through at the same queue depth without a
 * physical cause, or write a sequential stream slower than the media can
 * take it.  The figures of the issue that found these (TX4200 with Raptors,
 * Barracuda, Maxtor) are the cases. */

/* RAID0 of Raptors behind the TX4200, TCQ on, Database at 0 % read, one
 * outstanding I/O: host_service only delays each data phase. */
static double tx4200_write_iops(int disks, const char *host_service, int seed)
{
	struct tu_run r;
	tu_run(&r,
	       "seed: %d\n"
	       "device:\n"
	       "  model: promise-tx4200\n"
	       "  queue_depth: 32\n"
	       "  host_service: %s\n"
	       "  array:\n"
	       "    type: array\n"
	       "    level: raid0\n"
	       "    strip: 64KiB\n"
	       "    disks: {model: wd-raptor-wd740gd, count: %d, queue_depth: 32}\n"
	       "workload: {iometer: {spec: database, read: 0%%, outstanding: 1, ramp: 5s, "
	       "run: 20s}}\n", seed, host_service, disks);
	return r.s.iops;
}

START_TEST(wc_delay_never_pays)
{
	static const char *const delays[] = { "0us", "300us", "1300us", "3000us" };
	enum { SEEDS = 3 };
	int disks = _i == 0 ? 2 : 4;
	double prev = 0;
	for (size_t k = 0; k < sizeof(delays) / sizeof(delays[0]); k++) {
		/* While destaging is the bottleneck the delay hides behind it
		 * and the rate stays flat, up to which dirty extents happen to
		 * share a cache: about 1 % from run to run at 20 s, so the mean
		 * of three seeds is compared. */
		double iops = 0;
		for (int seed = 1; seed <= SEEDS; seed++)
			iops += tx4200_write_iops(disks, delays[k], seed) / SEEDS;
		printf("TX4200 RAID0x%d Raptor, TCQ on, 8 KiB random writes at 1 outstanding, "
		       "host_service %s: %.2f IOPS (mean of %d seeds)\n", disks, delays[k], iops,
		       SEEDS);
		if (k > 0)
			ck_assert_msg(iops <= prev * 1.01,
				      "host_service %s raised IOPS from %.2f to %.2f", delays[k],
				      prev, iops);
		prev = iops;
	}
}
END_TEST

/* Random writes at one queue depth, the drives' write caches on and off.
 * Where the cache may lose, `cause` names the physical reason and `without`
 * (drive keys) removes it: then the cache must not lose, and with it the
 * loss must stay small. */
struct wc_case {
	const char *what;
	const char *scenario;         /* printf format: write_cache, more drive keys */
	const char *cause, *without;
};

static const struct wc_case wc_cases[] = {
	{ "Barracuda 7200.7, QD32, 4 KiB random writes",
	  "device: {model: seagate-barracuda-7200-7-ncq, write_cache: %s%s}\n"
	  "workload: {iometer: {spec: default, size: 4KiB, read: 0%%, random: 100%%, "
	  "outstanding: 32, ramp: 2s, run: 20s}}\n", NULL, NULL },
	{ "Raptor WD740GD, QD32, 8 KiB random writes",
	  "device: {model: wd-raptor-wd740gd, write_cache: %s%s}\n"
	  "workload: {iometer: {spec: database, read: 0%%, outstanding: 32, ramp: 2s, "
	  "run: 20s}}\n", NULL, NULL },
	{ "Maxtor 6L020L0 (no queuing), QD8, 4 KiB random writes",
	  "device: {model: maxtor-6l020l0, write_cache: %s%s}\n"
	  "workload: {iometer: {spec: default, size: 4KiB, read: 0%%, random: 100%%, "
	  "outstanding: 8, ramp: 2s, run: 20s}}\n", NULL, NULL },
	{ "TX4200 RAID10 of four Raptors, TCQ on, QD64 Database (OLTP, 67 % read)",
	  "seed: 2\n"
	  "device:\n"
	  "  model: promise-tx4200\n"
	  "  queue_depth: 32\n"
	  "  array:\n"
	  "    type: array\n"
	  "    level: raid10\n"
	  "    strip: 64KiB\n"
	  "    disks: {model: wd-raptor-wd740gd, count: 4, queue_depth: 32, write_cache: %s%s}\n"
	  "workload: {iometer: {spec: database, outstanding: 64, ramp: 5s, run: 20s}}\n",
	  /* Answered from the cache, the writes leave the host's 64
	   * outstanding I/Os waiting as reads: by Little's law the reads wait
	   * about half as long again, and their tail passes the drive's
	   * 500 ms aging bound, from where the firmware takes them oldest
	   * first instead of in elevator order. */
	  "reads waiting past the drive's aging bound are served oldest first", ", aging: 0s" },
};

START_TEST(wc_on_never_loses)
{
	const struct wc_case *c = &wc_cases[_i];
	struct tu_run on, off;
	tu_run(&on, c->scenario, "true", "");
	tu_run(&off, c->scenario, "false", "");
	printf("%s: write cache on %.2f IOPS, off %.2f IOPS\n", c->what, on.s.iops, off.s.iops);
	if (!c->cause) {
		ck_assert_msg(on.s.iops >= off.s.iops, "%s: cache on %.2f < off %.2f IOPS",
			      c->what, on.s.iops, off.s.iops);
		return;
	}
	ck_assert_msg(on.s.iops >= 0.95 * off.s.iops, "%s: cache on %.2f << off %.2f IOPS",
		      c->what, on.s.iops, off.s.iops);
	tu_run(&on, c->scenario, "true", c->without);
	tu_run(&off, c->scenario, "false", c->without);
	printf("  without the cause (%s; %s): on %.2f IOPS, off %.2f IOPS\n", c->cause,
	       c->without + 2, on.s.iops, off.s.iops);
	ck_assert_msg(on.s.iops >= off.s.iops, "%s, %s: cache on %.2f < off %.2f IOPS", c->what,
		      c->without + 2, on.s.iops, off.s.iops);
}
END_TEST

/* A single drive's sequential write rate against what its geometry allows:
 * a track's sectors per revolution, less the skew the head waits out at
 * every head switch and cylinder switch (a whole extra revolution where a
 * skew is shorter than its switch). */
static double streaming_mb_s(const struct rs_hdd_geom *g, uint64_t lba)
{
	const struct rs_layout *l = &g->layout;
	const struct rs_layout_zone *z = &l->zones[rs_layout_zone_of_lba(l, lba)];
	double period_ns = rs_spindle_period_ns(&g->spindle);
	double sector_ns = period_ns / z->spt;
	double head_sw = (double)rs_seek_reposition_time(&g->seek, 0, true, 0);
	double cyl_sw = (double)rs_seek_reposition_time(&g->seek, 1, l->heads > 1, 0);
	double head_wait = z->track_skew * sector_ns + (z->track_skew * sector_ns < head_sw
							? period_ns : 0);
	double cyl_wait = z->cyl_skew * sector_ns + (z->cyl_skew * sector_ns < cyl_sw
						     ? period_ns : 0);
	double cyl_ns = l->heads * period_ns + (l->heads - 1) * head_wait + cyl_wait;
	return (double)z->data_per_cyl * RS_BLOCK_BYTES / cyl_ns * 1e3; /* MB/s */
}

static const char *const seq_models[] = { "maxtor-6l020l0", "wd-raptor-wd740gd" };

START_TEST(wc_sequential_write_streams)
{
	static const char *const phases[] = { NULL, "0", "0.25", "0.5", "0.75" };
	const char *model = seq_models[_i];
	for (size_t k = 0; k < sizeof(phases) / sizeof(phases[0]); k++) {
		char phase[64] = "";
		if (phases[k])
			snprintf(phase, sizeof(phase), ", spindle_phase: %s", phases[k]);
		struct tu_point p;
		tu_point_runf(&p, "test.yaml", "disk0", 1,
			      "device: {model: %s, queue_depth: 1%s}\n"
			      "workload: {iometer: {spec: seqwrite, size: 64KiB, outstanding: 1, "
			      "ramp: 1s, run: 5s}}\n", model, phase);
		const struct rs_hdd_geom *g = rs_hdd_geom(p.dev);
		const struct rs_hdd_counters *c = rs_hdd_counters(p.dev);
		double want = streaming_mb_s(g, 0);
		double got = p.load->summary.mb_s;
		printf("%s sequential 64 KiB writes, spindle phase %s: %.3f MB/s (geometry: %.3f), "
		       "%llu positioned destages, %llu streamed on\n", model,
		       phases[k] ? phases[k] : "from the seed", got, want,
		       (unsigned long long)c->destages, (unsigned long long)c->destage_streamed);
		ck_assert_uint_eq(c->mismatches, 0);
		tu_assert_rel(got, want, 0.01);
		/* One media operation from the first write on: the head never
		 * positions again while the host keeps the buffer ahead of it. */
		ck_assert_uint_le(c->destages, 2);
		tu_point_free(&p);
	}
}
END_TEST

/* The destage order is the drive's own, apart from the host queue's: an
 * FCFS host queue in front of rotationally ordered write-back. */
static double maxtor_write_iops(const char *order)
{
	struct tu_run r;
	tu_run(&r,
	       "device: {model: maxtor-6l020l0, scheduler: fcfs, destage_order: %s}\n"
	       "workload: {iometer: {spec: default, size: 4KiB, read: 0%%, random: 100%%, "
	       "outstanding: 1, ramp: 2s, run: 10s}}\n", order);
	return r.s.iops;
}

START_TEST(wc_destage_order)
{
	double as_sched = maxtor_write_iops("scheduler");
	double fcfs = maxtor_write_iops("fcfs");
	double clook = maxtor_write_iops("clook");
	double sptf = maxtor_write_iops("sptf");
	printf("maxtor, FCFS host queue, QD1 4 KiB random writes, destage order: as the "
	       "scheduler %.2f, fcfs %.2f, clook %.2f, sptf %.2f IOPS\n", as_sched, fcfs, clook,
	       sptf);
	ck_assert(as_sched == fcfs);
	ck_assert(clook > 1.5 * fcfs);
	ck_assert(sptf > clook);
}
END_TEST

START_TEST(wc_destage_order_bad)
{
	static const struct tu_bad_device bad = {
		"unknown destage order",
		"model: maxtor-6l020l0\ndestage_order: elevator\n", 2, 16, "destage_order"
	};
	tu_expect_bad_device(&bad, "disk0");
}
END_TEST

static void wc_count_done(struct rs_sim *sim, struct rs_io *io)
{
	int *n = io->done_ctx;
	++*n;
	rs_io_free(sim, io);
}

/* Room is refused only when the buffer is full of dirty data: a burst that
 * fits is taken at interface speed. */
START_TEST(wc_burst_that_fits_never_waits)
{
	struct rs_model_path mp;
	struct rs_diag d;
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(3);
	struct rs_node *root;
	/* 2 MiB of write cache; 32 tags; 500 writes of 4 KiB = 2000 KiB. */
	struct rs_dev *dev = tu_build_text(sim, &mp, "model: seagate-barracuda-7200-7-ncq\n",
					   "disk0", &root, &d);
	ck_assert_ptr_nonnull(dev);
	int n = 0;
	for (int i = 0; i < 500; i++)
		rs_dev_submit(sim, dev, rs_io_new(sim, RS_WRITE, (uint64_t)i * 600011, 8,
						  wc_count_done, &n));
	/* The firmware's 0.3 ms per command is the pace; destaging them
	 * would take seconds. */
	rs_sim_run(sim, 200 * RS_MS);
	const struct rs_hdd_counters *c = rs_hdd_counters(dev);
	printf("barracuda, 500 x 4 KiB writes at once: %d done in 200 ms, %llu stalls\n", n,
	       (unsigned long long)c->stalls);
	ck_assert_int_eq(n, 500);
	ck_assert_uint_eq(c->stalls, 0);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(c->destaged_blk, 500 * 8);
	tu_check_conservation(sim);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* ---- The pick's position handed to start of service -------------------
 * A lone queued command is positioned once, by the pick; start of service
 * takes that result only for the same command at the same instant, and
 * only once: anything else is positioned afresh from the head as it is. */
static void expect_same_pos(const struct rs_hdd_pos *a, const struct rs_hdd_pos *b)
{
	ck_assert(a->cont == b->cont);
	ck_assert_int_eq(a->start_ns, b->start_ns);
	ck_assert_int_eq(a->pos.seek_ns, b->pos.seek_ns);
	ck_assert_int_eq(a->pos.total_ns, b->pos.total_ns);
}

START_TEST(sched_lone_pick_reused)
{
	struct rs_layout l;
	fw_layout(&l);
	struct rs_seek_params spp = { .cylinders = 1000 };
	struct rs_seek_fit fit = { 800000, 8500000, 17500000 };
	struct rs_seek sk;
	struct rs_spindle sp;
	char err[200];
	ck_assert_msg(rs_seek_init_fit(&sk, &spp, &fit, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(rs_spindle_init(&sp, 6000, 0, err, sizeof(err)) == 0, "%s", err);
	struct rs_hdd_mech m = { .l = &l, .s = &sk, .sp = &sp };
	struct rs_hdd_sched hs = { .policy = RS_HDD_SPTF, .mech = &m,
				   .overhead_ns = { 100000, 300000 } };
	rs_hdd_sched_init_cmds(&hs, 4);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io io = { .op = RS_READ, .lba = 150000, .nblk = 8 };
	struct rs_ioq q = { .head = &io, .tail = &io, .len = 1 };
	const struct rs_ioq_policy *pol = rs_hdd_sched_policy(RS_HDD_SPTF);
	struct rs_hdd_pos got, fresh;

	ck_assert_ptr_eq(pol->pick(sim, &q, &hs), &io);
	ck_assert(rs_hdd_sched_position(&hs, 0, &io, &got));
	rs_hdd_mech_position(&m, 0, hs.overhead_ns[0], io.lba, io.nblk, 0, &fresh);
	expect_same_pos(&got, &fresh);

	/* The run the positioning hands on is the memo's for the command's
	 * LBA while the memo keeps it, and none once another LBA took its
	 * slot. */
	ck_assert_ptr_nonnull(got.run);
	ck_assert_ptr_eq(rs_hdd_mech_run_of_pos(&m, &got, io.lba), rs_hdd_mech_run_of(&m, io.lba));
	ck_assert_uint_eq(got.run->first, io.lba);
	uint64_t other = io.lba + 1;
	for (struct rs_hdd_pos o; rs_hdd_mech_run_of(&m, io.lba) && other < io.lba + 100000;
	     other++)
		rs_hdd_mech_position(&m, 0, 0, other, 1, 0, &o);
	ck_assert_ptr_null(rs_hdd_mech_run_of(&m, io.lba));
	ck_assert_ptr_null(rs_hdd_mech_run_of_pos(&m, &got, io.lba));
	struct rs_hdd_pos none = got;
	none.run = NULL;
	ck_assert_ptr_eq(rs_hdd_mech_run_of_pos(&m, &none, other - 1),
			 rs_hdd_mech_run_of(&m, other - 1));
	ck_assert_ptr_nonnull(rs_hdd_mech_run_of(&m, other - 1));

	/* The head moved after the pick: a second ask is not served the
	 * pick's answer (it was used), nor is a command picked at another
	 * instant. */
	m.head = (struct rs_head_state){ .cyl = 900, .head = 1, .free_at_ns = 0 };
	ck_assert(!rs_hdd_sched_position(&hs, 0, &io, &got));
	rs_hdd_mech_position(&m, 0, hs.overhead_ns[0], io.lba, io.nblk, 0, &fresh);
	expect_same_pos(&got, &fresh);
	/* Where the position lies: the pick's own once, then a fresh one. */
	struct rs_hdd_pos scratch;
	ck_assert_ptr_eq(pol->pick(sim, &q, &hs), &io);
	ck_assert_ptr_eq(rs_hdd_sched_position_at(&hs, 0, &io, &scratch), &hs.predicted);
	rs_hdd_mech_position(&m, 0, hs.overhead_ns[0], io.lba, io.nblk, 0, &fresh);
	expect_same_pos(&hs.predicted, &fresh);
	ck_assert_ptr_eq(rs_hdd_sched_position_at(&hs, 0, &io, &scratch), &scratch);
	expect_same_pos(&scratch, &fresh);
	ck_assert_ptr_eq(pol->pick(sim, &q, &hs), &io);
	m.head.cyl = 10;
	rs_hdd_sched_position(&hs, 5000, &io, &got);
	rs_hdd_mech_position(&m, 5000, hs.overhead_ns[0], io.lba, io.nblk, 0, &fresh);
	expect_same_pos(&got, &fresh);

	/* With more than one queued, FCFS without aging and a window of one
	 * command take the head of the line the lone way; SPTF compares and
	 * picks the nearer (a write whose overhead differs). */
	struct rs_io io2 = { .op = RS_WRITE, .lba = 400, .nblk = 8 };
	io.qnext = &io2;
	q.tail = &io2;
	q.len = 2;
	m.head = (struct rs_head_state){ .cyl = 0, .head = 0, .free_at_ns = 0 };
	for (int pass = 0; pass < 3; pass++) {
		hs.policy = pass == 0 ? RS_HDD_FCFS : RS_HDD_SPTF;
		hs.window = pass == 1 ? 1 : 0;
		struct rs_io *want = &io;
		if (pass == 2) {
			struct rs_hdd_pos a, b;
			rs_hdd_mech_position(&m, 0, hs.overhead_ns[0], io.lba, io.nblk, 0, &a);
			rs_hdd_mech_position(&m, 0, hs.overhead_ns[1], io2.lba, io2.nblk, 1, &b);
			want = b.start_ns < a.start_ns ? &io2 : &io;
			ck_assert_ptr_eq(want, &io2);  /* the case means to compare */
		}
		ck_assert_ptr_eq(pol->pick(sim, &q, &hs), want);
		ck_assert(hs.predicted_exact == (pass < 2));
		int w = want == &io2;
		rs_hdd_sched_position(&hs, 0, want, &got);
		rs_hdd_mech_position(&m, 0, hs.overhead_ns[w], want->lba, want->nblk, w, &fresh);
		expect_same_pos(&got, &fresh);
	}

	rs_sim_free(sim);
	rs_hdd_sched_destroy(&hs);
	rs_seek_destroy(&sk);
	rs_layout_destroy(&l);
}
END_TEST

/* ---- the mechanism's stream against the media-time walk ---------------- */

/* Two zones with skews, a slip on the first zone's second track (PBN 117:
 * cylinder 0, head 1, sector 20), a spindle whose turn is no whole number
 * of nanoseconds. */
struct mech_rig {
	struct rs_layout l;
	struct rs_seek sk;
	struct rs_spindle sp;
};

static void mech_rig_init(struct mech_rig *r)
{
	static const struct rs_zone z[] = {
		{ .last_cyl = 499, .sectors_per_track = 97, .track_skew = 13, .cyl_skew = 21 },
		{ .first_cyl = 500, .last_cyl = 999, .sectors_per_track = 61, .track_skew = 9,
		  .cyl_skew = 15, .spare_sectors = 4 },
	};
	static const uint64_t slips[] = { 117 };
	struct rs_layout_params lp = { .heads = 2, .cylinders = 1000, .zones = z, .nzones = 2,
				       .slips = slips, .nslips = 1 };
	struct rs_seek_params spp = { .cylinders = 1000 };
	struct rs_seek_fit fit = { 800000, 8500000, 17500000 };
	char err[200];
	ck_assert_msg(rs_layout_init(&r->l, &lp, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(rs_seek_init_fit(&r->sk, &spp, &fit, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(rs_spindle_init(&r->sp, 10025, 0.3, err, sizeof(err)) == 0, "%s", err);
}

static void mech_rig_destroy(struct mech_rig *r)
{
	rs_seek_destroy(&r->sk);
	rs_layout_destroy(&r->l);
}

/* Blocks of a stream from lba, started at t0, fully read by t: the walk
 * from scratch, block by block. */
static uint64_t done_by_walk(const struct mech_rig *r, uint64_t lba, rs_time_t t0, uint64_t hi,
			     rs_time_t t)
{
	uint64_t n = 0;
	while (n < hi &&
	       t0 + rs_disk_media_time(&r->l, &r->sk, &r->sp, lba, (uint32_t)(n + 1), 0) <= t)
		n++;
	return n;
}

/* How far a stream got by an instant, and where the head may leave it
 * (which needs the end of the sector under the head), are those of the
 * walk: for a stream on one run of a track (worked out by division) and
 * for one across tracks or past a slip (searched), at every block's end
 * and a nanosecond either side of it.  A stop as the positioning worked it
 * out is rs_hdd_mech_stop's. */
START_TEST(mech_stream_done_matches_walk)
{
	static const struct { uint64_t lba, limit; bool flat; } cases[] = {
		{ 10, 97, true },         /* to its track's end */
		{ 10, 150, false },       /* across a head switch */
		{ 100, 110, true },       /* before the slip */
		{ 100, 130, false },      /* past it */
		{ 50000, 50061, false },  /* the second zone, onto the next track */
		{ 50000, 50020, true },
		{ 96, 98, false },        /* the last block of a track and the first of the next */
	};
	struct mech_rig r;
	mech_rig_init(&r);
	for (size_t k = 0; k < 2 * sizeof(cases) / sizeof(cases[0]); k++) {
		size_t i = k / 2;
		struct rs_hdd_mech m = { .l = &r.l, .s = &r.sk, .sp = &r.sp, .finish_sector = true,
					 .stop_on_command = true };
		rs_time_t t0 = 1000003;
		/* Every other time the stream starts from a block just
		 * positioned, as after a read miss: its run is at hand. */
		if (k % 2) {
			struct rs_hdd_pos pos;
			rs_hdd_mech_position(&m, 0, 0, cases[i].lba, 1, 0, &pos);
			ck_assert_ptr_nonnull(rs_hdd_mech_run_of(&m, cases[i].lba));
		}
		m.streaming = true;
		m.s_lba = m.s_valid_from = cases[i].lba;
		m.s_t0_ns = t0;
		/* As start of service sets it, with the run handed over. */
		if (k % 2)
			rs_hdd_mech_set_limit_run(&m, rs_hdd_mech_run_of(&m, m.s_lba),
						  cases[i].limit);
		else
			rs_hdd_mech_set_limit(&m, cases[i].limit);
		ck_assert_msg((m.s_flat_spt != 0) == cases[i].flat, "case %zu", i);
		uint64_t hi = cases[i].limit - cases[i].lba;
		for (uint64_t n = 0; n <= hi; n++) {
			rs_time_t end = t0 + (n ? rs_disk_media_time(&r.l, &r.sk, &r.sp, cases[i].lba,
								     (uint32_t)n, 0) : 0);
			for (rs_time_t t = end - 1; t <= end + 1; t++) {
				ck_assert_uint_eq(rs_hdd_mech_stream_done(&m, t),
						  done_by_walk(&r, cases[i].lba, t0, hi, t));
				/* The head leaving for elsewhere: the same as from a
				 * mechanism that searches (no division, no memo). */
				struct rs_hdd_mech ref = m;
				ref.s_flat_spt = 0;
				ref.memo_done.ok = false;
				struct rs_hdd_pos a, b;
				rs_hdd_mech_position(&m, t, 0, 90000, 8, 0, &a);
				rs_hdd_mech_position(&ref, t, 0, 90000, 8, 0, &b);
				ck_assert_int_eq(a.free_ns, b.free_ns);
				ck_assert_int_eq(a.start_ns, b.start_ns);
				/* Stopping the stream for that access as the
				 * positioning found it, and by asking the stream,
				 * with read-ahead yielding at once or running on
				 * to its limit. */
				for (int yield = 0; yield <= 1; yield++) {
					struct rs_hdd_mech s1 = m, s2 = m;
					s1.stop_on_command = s2.stop_on_command = yield;
					struct rs_hdd_pos p;
					rs_hdd_mech_position(&s1, t, 0, 90000, 8, 0, &p);
					ck_assert(p.stops);
					ck_assert_uint_eq(rs_hdd_mech_stop_positioned(&s1, t, &p),
							  rs_hdd_mech_stop(&s2, t));
					ck_assert(!s1.streaming && !s2.streaming);
					ck_assert_uint_eq(s1.head.cyl, s2.head.cyl);
					ck_assert_uint_eq(s1.head.head, s2.head.head);
					ck_assert_int_eq(s1.head.free_at_ns, s2.head.free_at_ns);
				}
			}
		}
	}
	mech_rig_destroy(&r);
}
END_TEST

/* A command positioned and then timed on the media through the
 * mechanism's memos takes the times worked out from scratch. */
START_TEST(mech_position_and_media_time_match)
{
	struct mech_rig r;
	mech_rig_init(&r);
	struct rs_hdd_mech m = { .l = &r.l, .s = &r.sk, .sp = &r.sp };
	static const uint64_t lbas[] = { 0, 10, 96, 100, 116, 117, 150, 50000, 50059, 90000, 10 };
	rs_time_t now = 12345;
	for (size_t i = 0; i < sizeof(lbas) / sizeof(lbas[0]); i++) {
		for (uint32_t n = 1; n <= 200; n += 37) {
			struct rs_hdd_pos got;
			struct rs_position want;
			rs_hdd_mech_position(&m, now, 0, lbas[i], n, 0, &got);
			struct rs_head_state from = m.head;
			if (from.free_at_ns < now)
				from.free_at_ns = now;
			rs_disk_position_time(&r.l, &r.sk, &r.sp, &from, lbas[i], 0, &want);
			ck_assert_int_eq(got.free_ns, from.free_at_ns);
			ck_assert_int_eq(got.pos.seek_ns, want.seek_ns);
			ck_assert_int_eq(got.pos.rot_ns, want.rot_ns);
			ck_assert_uint_eq(got.pos.target.cyl, want.target.cyl);
			ck_assert_uint_eq(got.pos.target.head, want.target.head);
			ck_assert_uint_eq(got.pos.target.sector, want.target.sector);
			rs_time_t walked = rs_disk_media_time(&r.l, &r.sk, &r.sp, lbas[i], n, 0);
			/* With the run at hand, and without it. */
			ck_assert_int_eq(rs_hdd_mech_media_time_run(
						 &m, rs_hdd_mech_run_of(&m, lbas[i]), lbas[i], n),
					 walked);
			ck_assert_int_eq(rs_hdd_mech_media_time_run(&m, NULL, lbas[i], n), walked);
			ck_assert_int_eq(rs_hdd_mech_media_time(&m, lbas[i], n), walked);
			m.head = (struct rs_head_state){ want.target.cyl, want.target.head,
							 from.free_at_ns + want.total_ns };
			now += 777777;
		}
	}
	mech_rig_destroy(&r);
}
END_TEST

/* The positioning carries the spindle's angle on from an instant it asked
 * about before: its rotational waits are those of the angle from t = 0,
 * for instants a little later, far later (past the carried step's range),
 * earlier, and the same again, from a parked and from a streaming head. */
START_TEST(mech_spindle_reference_matches)
{
	struct mech_rig r;
	mech_rig_init(&r);
	struct rs_hdd_mech m = { .l = &r.l, .s = &r.sk, .sp = &r.sp };
	static const uint64_t lbas[] = { 0, 96, 117, 50000, 90000 };
	const size_t nlbas = sizeof(lbas) / sizeof(lbas[0]);
	/* Instants scattered over four seconds either side of a base that
	 * jumps on, now and then, past the carried step's range. */
	rs_time_t base = INT64_C(1) << 39;
	uint64_t x = 99;
	for (uint32_t k = 0; k < 3000; k++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (k % 500 == 499)
			base += (INT64_C(1) << 38) + (rs_time_t)(x >> 40);
		rs_time_t now = base + (rs_time_t)((x >> 20) % INT64_C(8000000000)) -
			INT64_C(4000000000);
		uint64_t lba = lbas[k % nlbas] + k % 13;
		m.streaming = false;
		m.head = (struct rs_head_state){ k * 7 % 40, k % 4, now + k % 3 * 1000 };
		struct rs_head_state from = m.head;
		struct rs_hdd_pos got;
		struct rs_position want;
		rs_hdd_mech_position(&m, now, 0, lba, 1, (int)(k % 2), &got);
		rs_disk_position_time(&r.l, &r.sk, &r.sp, &from, lba, (int)(k % 2), &want);
		ck_assert_int_eq(got.pos.seek_ns, want.seek_ns);
		ck_assert_int_eq(got.pos.rot_ns, want.rot_ns);
		/* The view of a scheduling pass takes its angle the same way. */
		struct rs_hdd_view v;
		struct rs_hdd_target t;
		struct rs_hdd_pos fast;
		rs_hdd_mech_view_init(&v, now);
		rs_hdd_mech_target(&m, lba, &t);
		rs_hdd_mech_position_fast(&m, &v, 0, &t, 1, (int)(k % 2), &fast);
		ck_assert_int_eq(fast.pos.rot_ns, want.rot_ns);
		ck_assert_int_eq(fast.start_ns, got.start_ns);
	}
	mech_rig_destroy(&r);
}
END_TEST

/* The firmware's rules from a read's run (the positioning's mapping) give
 * the answers of the rules that map the read afresh: every prefetch mode,
 * requests that end inside their track's straight part, on a slip, at the
 * track's end and past it, segments reaching back before the track or
 * not, on a layout with skews, a slip and two zones. */
START_TEST(fw_rules_from_run_match)
{
	struct mech_rig r;
	mech_rig_init(&r);
	uint64_t cap = rs_layout_capacity_blk(&r.l);
	double period = rs_spindle_period_ns(&r.sp);
	static const uint64_t lbas[] = { 0, 10, 90, 96, 97, 100, 110, 116, 117, 150, 193,
					 50000, 50055, 50060 };
	static const uint32_t nblks[] = { 1, 4, 8, 20, 200 };
	for (int mode = RS_PREFETCH_FIXED; mode <= RS_PREFETCH_NEXT_TRACK; mode++) {
		struct rs_hdd_fw fw = { .prefetch = mode, .ra_fixed_blk = 30, .ra_max_blk = 150,
					.keep_request = mode % 2 };
		for (size_t i = 0; i < sizeof(lbas) / sizeof(lbas[0]); i++) {
			for (size_t j = 0; j < sizeof(nblks) / sizeof(nblks[0]); j++) {
				struct rs_track_run run;
				rs_layout_run_at(&r.l, lbas[i], &run);
				struct rs_hdd_fw_at at;
				rs_hdd_fw_at_init(&at, &run);
				for (uint64_t back = 0; back <= 120; back += 40) {
					uint64_t from = lbas[i] > back ? lbas[i] - back : 0;
					ck_assert_uint_eq(
						rs_hdd_fw_ra_limit_at(&fw, &r.l, &at, from, nblks[j],
								      cap, 300),
						rs_hdd_fw_ra_limit(&fw, &r.l, from, lbas[i], nblks[j],
								   cap, 300));
				}
				for (rs_time_t rot = 0; rot < 7000000; rot += 999999)
					ck_assert_uint_eq(
						rs_hdd_fw_free_behind_at(&r.l, period, &at, rot, 50),
						rs_hdd_fw_free_behind(&r.l, period, lbas[i], rot, 50));
			}
		}
	}
	mech_rig_destroy(&r);
}
END_TEST

/* Buffer lookup: the lowest segment that holds the range, the live one by
 * its running end trimmed to a segment's worth. */
START_TEST(buffer_lookup_segments)
{
	struct rs_hdd_buffer b;
	rs_hdd_buffer_init(&b, 3, 100, 4);
	rs_hdd_buffer_set(&b, 0, 1000, 1100);
	rs_hdd_buffer_set(&b, 1, 500, 520);
	rs_hdd_buffer_set(&b, 2, 1050, 1090);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1060, 10, -1, 0), 0);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 510, 10, -1, 0), 1);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 515, 10, -1, 0), -1);
	/* Segment 0 streaming: held up to its running end, its last 100. */
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1060, 10, 0, 1200), 2);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1150, 10, 0, 1200), 0);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1150, 10, 0, 1155), -1);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1010, 10, 0, 1000), -1);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1010, 10, 2, 1100), 0);
	/* Segment 1, between the others, streaming: the lowest index still
	 * wins on either side of it. */
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 510, 20, 1, 530), 1);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 1060, 10, 1, 530), 0);
	ck_assert_int_eq(rs_hdd_buffer_lookup(&b, 525, 10, 1, 530), -1);
	rs_hdd_buffer_destroy(&b);
}
END_TEST

/* The look-up's walk (stopped by the sentinel after the last segment)
 * against the plain rule, segment by segment: the lowest index whose range
 * (the live one's up to its running end, trimmed to a segment's worth)
 * holds the request, over random segments, requests and live segments,
 * including a live one whose stored range holds what its running one does
 * not. */
static int lookup_by_rule(const struct rs_hdd_buffer *b, uint64_t lba, uint32_t nblk,
			  int live, uint64_t live_end)
{
	for (uint32_t i = 0; i < b->nseg; i++) {
		uint64_t start = b->seg[i].start, end = b->seg[i].end;
		if ((int)i == live) {
			end = live_end;
			if (end <= start)
				continue;
			if (end - start > b->seg_blk)
				start = end - b->seg_blk;
		}
		if (lba >= start && lba + nblk <= end)
			return (int)i;
	}
	return -1;
}

START_TEST(buffer_lookup_matches_rule)
{
	uint64_t x = 12345;
	for (int round = 0; round < 2000; round++) {
		struct rs_hdd_buffer b;
		uint32_t nseg = 1 + (uint32_t)(round % 7);
		rs_hdd_buffer_init(&b, nseg, 64, 4);
		for (uint32_t i = 0; i < nseg; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			uint64_t start = (x >> 33) % 400, len = (x >> 20) % 80;
			rs_hdd_buffer_set(&b, i, start, start + len);
		}
		for (int q = 0; q < 50; q++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			uint64_t lba = (x >> 33) % 500;
			uint32_t nblk = 1 + (uint32_t)((x >> 12) % 16);
			int live = (int)((x >> 45) % (nseg + 1)) - 1;
			uint64_t live_end = (x >> 24) % 500;
			ck_assert_int_eq(rs_hdd_buffer_lookup(&b, lba, nblk, live, live_end),
					 lookup_by_rule(&b, lba, nblk, live, live_end));
		}
		rs_hdd_buffer_destroy(&b);
	}
}
END_TEST

/* The look-up through its filter against the plain rule while segments
 * are claimed, set, invalidated, dropped through and cut from below (as the
 * drive does to its stream's segment), at LBAs far apart and close to the
 * chunk boundaries, so the filter skips the walk for most requests and any
 * range it lost would be a miss the rule calls a hit.  The segments' size
 * is not a power of two (the chunk is the next one up). */
START_TEST(buffer_lookup_filter_matches_rule)
{
	uint64_t x = 424242;
	const uint64_t seg_blk = 374, chunk = 512;
	uint64_t held = 0, skipped = 0;
	for (int round = 0; round < 200; round++) {
		struct rs_hdd_buffer b;
		uint32_t nseg = 1 + (uint32_t)(round % 10);
		rs_hdd_buffer_init(&b, nseg, seg_blk, 4);
		int live = -1;
		for (int q = 0; q < 400; q++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			/* Ranges around a few chunk boundaries among 2^16 chunks. */
			uint64_t base = ((x >> 40) % 8) * 97 * chunk + (round % 3) * (chunk << 12);
			uint64_t lba = base + (x >> 20) % (2 * chunk) - chunk / 2 + chunk;
			uint64_t len = (x >> 8) % (seg_blk + 40);
			uint32_t i = (uint32_t)((x >> 52) % nseg);
			switch ((x >> 60) % 6) {
			case 0:
				live = (int)rs_hdd_buffer_claim(&b, lba);
				break;
			case 1:
				rs_hdd_buffer_set(&b, i, lba, lba + len);
				break;
			case 2:
				rs_hdd_buffer_invalidate(&b, lba, (uint32_t)(len % 64 + 1), live);
				break;
			case 3:
				rs_hdd_buffer_drop_through(&b, lba, lba + len % 64 + 1, live);
				break;
			case 4:
				if (b.seg[i].end > b.seg[i].start + len % 64)
					b.seg[i].start += len % 64;
				break;
			default:
				live = -1;
				break;
			}
			for (int r = 0; r < 8; r++) {
				x = x * 6364136223846793005u + 1442695040888963407u;
				uint64_t at = base + (x >> 20) % (2 * chunk) - chunk / 2 + chunk;
				uint32_t nblk = 1 + (uint32_t)((x >> 12) % 16);
				uint64_t live_end = at + (x >> 40) % 32;
				int want = lookup_by_rule(&b, at, nblk, live, live_end);
				ck_assert_int_eq(rs_hdd_buffer_lookup(&b, at, nblk, live, live_end),
						 want);
				held += want >= 0;
				skipped += b.filter[rs_hdd_buffer_slot(&b, at)] == 0;
			}
		}
		rs_hdd_buffer_destroy(&b);
	}
	/* Both sides were tried: hits, and requests the filter turned away. */
	ck_assert_uint_gt(held, 1000);
	ck_assert_uint_gt(skipped, 1000);
}
END_TEST

/* Claims take the least recently used segment: untouched ones first,
 * lowest index first, then in the order they were last touched. */
START_TEST(buffer_claim_lru)
{
	struct rs_hdd_buffer b;
	rs_hdd_buffer_init(&b, 4, 100, 4);
	rs_hdd_buffer_touch(&b, 2);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 0);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 1);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 3);
	rs_hdd_buffer_touch(&b, 0);
	rs_hdd_buffer_touch(&b, 3);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 2);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 1);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 0);
	rs_hdd_buffer_touch(&b, 0);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 3);
	ck_assert_uint_eq(rs_hdd_buffer_claim(&b, 0), 2);
	rs_hdd_buffer_destroy(&b);
}
END_TEST

static Suite *hdd_suite(void)
{
	Suite *s = suite_create("hdd");
	TCase *tc = tcase_create("models");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, qd1_random_read, 0, 2);
	tcase_add_loop_test(tc, sequential_rates, 0, 2);
	tcase_add_test(tc, sptf_beats_fcfs);
	tcase_add_test(tc, aging_bounds_wait);
	tcase_add_test(tc, protocol_costs);
	tcase_add_test(tc, protocol_off_without_queuing);
	tcase_add_test(tc, tcq_release_when_needed);
	tcase_add_test(tc, reorder_window);
	tcase_add_test(tc, held_commands_bounded);
	tcase_add_test(tc, write_cache);
	tcase_add_test(tc, sequential_writes_coalesce);
	tcase_add_test(tc, read_ahead_hits);
	tcase_add_test(tc, read_ahead_finishes_first);
	suite_add_tcase(s, tc);
	TCase *th = tcase_create("requests");
	tcase_add_test(th, flush_waits_for_destage);
	tcase_add_test(th, spindle_phase_from_seed);
	tcase_add_loop_test(th, bad_models, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(th, sched_lone_pick_reused);
	tcase_add_test(th, mech_stream_done_matches_walk);
	tcase_add_test(th, mech_position_and_media_time_match);
	tcase_add_test(th, mech_spindle_reference_matches);
	tcase_add_test(th, buffer_lookup_segments);
	tcase_add_test(th, buffer_lookup_matches_rule);
	tcase_add_test(th, buffer_lookup_filter_matches_rule);
	tcase_add_test(th, buffer_claim_lru);
	TCase *tf = tcase_create("firmware");
	tcase_add_test(tf, fw_prefetch_limits);
	tcase_add_test(tf, fw_free_behind);
	tcase_add_test(tf, fw_rules_from_run_match);
	tcase_add_test(tf, fw_overheads_by_previous);
	tcase_add_loop_test(tf, fw_bad_models, 0,
			    (int)(sizeof(fw_bad_cases) / sizeof(fw_bad_cases[0])));
	suite_add_tcase(s, tf);
	suite_add_tcase(s, th);
	TCase *tw = tcase_create("write cache limits");
	tcase_set_timeout(tw, 300);
	tcase_add_loop_test(tw, wc_delay_never_pays, 0, 2);
	tcase_add_loop_test(tw, wc_on_never_loses, 0,
			    (int)(sizeof(wc_cases) / sizeof(wc_cases[0])));
	tcase_add_loop_test(tw, wc_sequential_write_streams, 0,
			    (int)(sizeof(seq_models) / sizeof(seq_models[0])));
	tcase_add_test(tw, wc_destage_order);
	tcase_add_test(tw, wc_destage_order_bad);
	tcase_add_test(tw, wc_burst_that_fits_never_waits);
	suite_add_tcase(s, tw);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hdd_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
