/* Unit tests for the rebuild (src/raid/rebuild.c): every row visited
 * once, the time an idle rebuild takes against arithmetic (the members'
 * sequential rate; md's speed limits exactly), pacing against foreground
 * I/O, the checkpoint, media errors met on the way, a replaced drive.
 * Members are `ideal` devices whose service time is size / bandwidth, so
 * the expected times follow from the capacity alone. */
#include "array_harness.h"

#include <math.h>
#include <stdio.h>

#include "disk/hdd.h"
#include "disk/hdd_params.h"

/* 100 MB/s members of 64 MiB: a member is read or written in 0.671 s.
 * The XOR is free here (location: none), so the times are the members';
 * xor_bounds_the_rebuild charges it. */
#define BW 100e6
#define R5_SPARE(cap, extra)                                                     \
	"type: array\nlevel: raid5\nspares: 1\nxor: {location: none}\n" extra    \
	"disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: " cap ", count: 4}\n"

static double rebuild_s(const struct ah *h)
{
	const struct rs_array_counters *c = ah_c(h);
	ck_assert_uint_eq(c->rebuilds, 1);
	return (double)(c->rebuild_end - c->rebuild_start) / 1e9;
}

static int by_lba(const void *x, const void *y)
{
	const struct rs_array_event *a = x, *b = y;
	return a->member_lba < b->member_lba ? -1 : a->member_lba > b->member_lba;
}

/* The writes to the rebuilt member cover it exactly once, in order. */
static void writes_cover_once(struct ah *h, uint32_t member)
{
	struct rs_array_event *w = calloc(h->nev, sizeof(*w));
	size_t n = 0;
	for (size_t i = 0; i < h->nev; i++)
		if (h->ev[i].member == member && h->ev[i].op == RS_ARRAY_WRITE)
			w[n++] = h->ev[i];
	qsort(w, n, sizeof(*w), by_lba);
	uint64_t at = 0;
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(w[i].member_lba, at);
		at += w[i].nblk;
	}
	ck_assert_uint_eq(at, rs_array_geom(h->dev)->member_blk);
	free(w);
}

START_TEST(idle_rebuild_visits_every_row_once_at_member_rate)
{
	struct ah h;
	ah_build(&h, R5_SPARE("64MiB", ""));
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_run(&h);
	const struct rs_raid_geom *g = rs_array_geom(h.dev);
	ck_assert_uint_eq(ah_c(&h)->rebuild_rows, g->rows);
	ck_assert_uint_eq(ah_c(&h)->rebuild_bytes, g->member_blk * 512);
	writes_cover_once(&h, 2);
	/* Reads: every other member's blocks, once each. */
	for (uint32_t m = 0; m < 4; m++)
		if (m != 2)
			ck_assert_uint_eq(ah_c(&h)->member_reads[m], g->rows / 16);
	double want = (double)g->member_blk * 512 / BW;
	printf("idle rebuild of a 64 MiB member at 100 MB/s: %.4f s (capacity/rate %.4f s)\n",
	       rebuild_s(&h), want);
	tu_assert_rel(rebuild_s(&h), want, 0.05);
	ck_assert(!rs_array_rebuilding(h.dev, NULL));
	ah_free(&h);
}
END_TEST

/* With speed_limit_max below the members' rate, the rebuild runs at it. */
START_TEST(speed_limit_max_exactly)
{
	struct ah h;
	ah_build(&h, R5_SPARE("256MiB", "speed_limit_max: 20MB/s\n"));
	rs_array_fail_member(h.sim, h.dev, 0);
	ah_run(&h);
	double want = (double)rs_array_geom(h.dev)->member_blk * 512 / 20e6;
	printf("rebuild limited to 20 MB/s: %.4f s (capacity/limit %.4f s)\n", rebuild_s(&h),
	       want);
	tu_assert_rel(rebuild_s(&h), want, 0.01);
	writes_cover_once(&h, 0);
	ah_free(&h);
}
END_TEST

/* Foreground I/O all the way: md throttles to speed_limit_min. */
START_TEST(speed_limit_min_under_foreground)
{
	struct ah h;
	/* 1 ms per command, so the foreground is a few thousand requests. */
	ah_build(&h, "type: array\nlevel: raid5\nspares: 1\nspeed_limit_min: 4MB/s\n"
		     "disks: {type: ideal, mean: 1ms, bandwidth: 100MB/s, capacity: 64MiB, "
		     "count: 4}\n");
	ah_load(&h, RS_READ, true, 90000, 2, 8, 1u << 14, 20 * RS_SEC);
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_run(&h);
	double want = (double)rs_array_geom(h.dev)->member_blk * 512 / 4e6;
	printf("rebuild under foreground at speed_limit_min 4 MB/s: %.4f s (%.4f s)\n",
	       rebuild_s(&h), want);
	tu_assert_rel(rebuild_s(&h), want, 0.02);
	for (size_t i = 0; i < h.ndone; i++)
		ck_assert_int_eq(h.done[i].status, 0);
	ah_free(&h);
}
END_TEST

/* A controller's priority: low gives the rebuild less member time than
 * high under foreground I/O; idle, both run at the members' rate. */
static double priority_run(const char *prio, bool foreground)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "type: array\nlevel: raid5\nspares: 1\nrebuild_priority: %s\n"
		 "xor: {location: none}\n"
		 "disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 32MiB, "
		 "count: 4}\n", prio);
	struct ah h;
	ah_build(&h, text);
	rs_array_fail_member(h.sim, h.dev, 3);
	if (foreground)
		ah_load(&h, RS_READ, true, 90000, 4, 64, 1u << 14, 20 * RS_SEC);
	ah_run(&h);
	double s = rebuild_s(&h);
	ah_free(&h);
	return s;
}

START_TEST(rebuild_priority_shares)
{
	double low = priority_run("low", true), high = priority_run("high", true);
	double idle = priority_run("low", false);
	printf("rebuild of 32 MiB under load: priority low %.3f s, high %.3f s; idle %.3f s\n",
	       low, high, idle);
	ck_assert(low > 2.0 * high);
	tu_assert_rel(idle, 32.0 * 1048576 / BW, 0.05);
}
END_TEST

/* Mid-rebuild: rows below the checkpoint are read from the new drive,
 * rows above are reconstructed. */
struct probe {
	struct ah *h;
	size_t ev_low, ev_high;
	uint64_t checkpoint;
};

static void probe_low(struct rs_sim *sim, void *obj, void *arg)
{
	(void)sim;
	(void)arg;
	struct probe *p = obj;
	ck_assert(rs_array_rebuilding(p->h->dev, &p->checkpoint));
	ck_assert_uint_gt(p->checkpoint, 1);
	p->ev_low = p->h->nev;
	/* Row 0 of member 1: D1, array blocks 128..255. */
	ah_submit(p->h, RS_READ, 128, 8);
}

static void probe_high(struct rs_sim *sim, void *obj, void *arg)
{
	(void)sim;
	(void)arg;
	struct probe *p = obj;
	p->ev_high = p->h->nev;
	/* The last row (rows - 1 = 4095: P on member 0, data 1, 2, 3): its
	 * D0 lives on member 1. */
	uint64_t row = rs_array_geom(p->h->dev)->rows - 1;
	ah_submit(p->h, RS_READ, row * 384, 8);
}

START_TEST(checkpoint_splits_the_member)
{
	struct ah h;
	ah_build(&h, R5_SPARE("256MiB", "speed_limit_max: 50MB/s\n"));
	rs_array_fail_member(h.sim, h.dev, 1);
	struct probe p = { .h = &h };
	rs_sched_at(h.sim, RS_SEC, probe_low, &p, NULL);
	rs_sched_at(h.sim, RS_SEC + 200000, probe_high, &p, NULL);
	ah_run(&h);
	/* Only the events that finished for the probes' requests: find them
	 * by the time they were sent. */
	uint64_t low = 0, high = 0, nlow = 0, nhigh = 0;
	for (size_t i = 0; i < h.nev; i++) {
		if (h.ev[i].t_submit == RS_SEC && h.ev[i].nblk == 8) {
			low |= 1ull << h.ev[i].member;
			nlow++;
		}
		if (h.ev[i].t_submit == RS_SEC + 200000 && h.ev[i].nblk == 8) {
			high |= 1ull << h.ev[i].member;
			nhigh++;
		}
	}
	ck_assert_uint_eq(nlow, 1);
	ck_assert_uint_eq(low, 1ull << 1);
	ck_assert_uint_eq(nhigh, 3);
	ck_assert_uint_eq(high, (1ull << 0) | (1ull << 2) | (1ull << 3));
	ah_free(&h);
}
END_TEST

/* A latent sector error on a survivor: RAID5 loses that row, RAID6 reads
 * Q for it instead. */
START_TEST(media_error_during_rebuild)
{
	struct ah h;
	ah_build(&h, R5_SPARE("16MiB", ""));
	ck_assert_int_eq(rs_array_add_media_error(h.dev, 0, 1000, 1000, 0), 0);
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_run(&h);
	ck_assert_uint_eq(ah_c(&h)->stripes_lost, 1);
	ck_assert(ah_c(&h)->data_lost);
	ck_assert_uint_eq(ah_c(&h)->rebuild_rows, rs_array_geom(h.dev)->rows);
	/* The lost row (member block 1000: row 7) stays lost: reads of it
	 * fail, reads of the next row do not. */
	ah_submit(&h, RS_READ, 7 * 384, 8);
	ah_submit(&h, RS_READ, 8 * 384, 8);
	ah_run(&h);
	ck_assert_int_eq(h.done[0].status, -RS_ERR_DATALOSS);
	ck_assert_int_eq(h.done[1].status, 0);
	ah_free(&h);

	ah_build(&h, "type: array\nlevel: raid6\nspares: 1\n"
		     "disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 16MiB, "
		     "count: 5}\n");
	ck_assert_int_eq(rs_array_add_media_error(h.dev, 1, 1000, 1000, 0), 0);
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_run(&h);
	ck_assert_uint_eq(ah_c(&h)->stripes_lost, 0);
	ck_assert(!ah_c(&h)->data_lost);
	ck_assert_uint_eq(ah_c(&h)->media_errors, 1);
	writes_cover_once(&h, 2);
	ah_free(&h);
}
END_TEST

/* No spare: the rebuild waits for the replacement drive. */
static void fire_replace(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_replace_member(sim, obj, (uint32_t)(uintptr_t)arg);
}

START_TEST(replaced_drive_is_rebuilt)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid10\n"
		     "disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 64MiB, "
		     "count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 2);
	rs_sched_at(h.sim, RS_SEC / 10, fire_replace, h.dev, (void *)(uintptr_t)2);
	ah_run(&h);
	ck_assert_uint_eq(ah_c(&h)->rebuild_start, RS_SEC / 10);
	/* A mirror rebuild copies one member: its rate. */
	tu_assert_rel(rebuild_s(&h), 64.0 * 1048576 / BW, 0.05);
	writes_cover_once(&h, 2);
	ck_assert_uint_eq(ah_c(&h)->member_reads[3], ah_c(&h)->rebuild_rows / 16);
	ah_free(&h);
}
END_TEST

/* member_size: only the start of each member is used (mdadm --size), and
 * only that is rebuilt. */
START_TEST(member_size_limits_the_rebuild)
{
	struct ah h;
	ah_build(&h, R5_SPARE("64MiB", "member_size: 8MiB\n"));
	ck_assert_uint_eq(rs_array_geom(h.dev)->member_blk, 16384);
	ck_assert_uint_eq(h.dev->capacity_blk, 3 * 16384);
	rs_array_fail_member(h.sim, h.dev, 0);
	ah_run(&h);
	ck_assert_uint_eq(ah_c(&h)->rebuild_bytes, 8u << 20);
	writes_cover_once(&h, 0);
	ah_free(&h);
}
END_TEST

/* The time to stream member blocks [0, nblk) of an hdd, zone by zone from
 * its zone table: a cylinder of a zone passes under the heads in
 * heads * spt sectors of rotation, plus the skews of its head switches
 * and of the switch to the next cylinder. */
static double stream_s(const struct rs_dev *disk, uint64_t nblk)
{
	const struct rs_hdd_geom *g = rs_hdd_geom(disk);
	const struct rs_layout *l = &g->layout;
	double period_s = rs_spindle_period_ns(&g->spindle) / 1e9, t = 0;
	for (uint32_t z = 0; z < l->nzones && nblk > 0; z++) {
		const struct rs_layout_zone *lz = &l->zones[z];
		uint64_t n = lz->lba_count < nblk ? lz->lba_count : nblk;
		double per_cyl = (double)l->heads * lz->spt + (double)(l->heads - 1) *
			lz->track_skew + lz->cyl_skew;
		t += (double)n / lz->data_per_cyl * per_cyl / lz->spt * period_s;
		nblk -= n;
	}
	return t;
}

/* An idle RAID5 of four Maxtor 6L020L0 drives rebuilds a whole member in
 * about the time one drive streams its capacity (the reads of the three
 * survivors and the write of the spare run side by side). */
START_TEST(idle_hdd_rebuild_zone_by_zone)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid5\nspares: 1\n"
		     "disks: {model: maxtor-6l020l0, count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_run(&h);
	const struct rs_dev *spare = h.dev->members[4];
	double want = stream_s(spare, rs_array_geom(h.dev)->member_blk);
	printf("idle RAID5 rebuild of a Maxtor 6L020L0: %.1f s; zone table: %.1f s\n",
	       rebuild_s(&h), want);
	tu_assert_rel(rebuild_s(&h), want, 0.05);
	writes_cover_once(&h, 1);
	ah_free(&h);
}
END_TEST

/* The drives' queue figures are the member positions': a spare waiting
 * idle is no drive of the array and does not dilute their mean depth;
 * once it is rebuilt onto it counts, in its slot, instead of the dead one. */
START_TEST(idle_spare_not_in_drive_qd)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid5\nspares: 1\n"
		     "disks: {model: maxtor-6l020l0, count: 4}\n");
	rs_dev_restart_stats(h.dev, h.sim->now);
	ah_load(&h, RS_READ, false, 400, 8, 8, 1u << 20, RS_TIME_MAX);
	ah_run(&h);
	struct rs_dev_report r;
	rs_dev_report(h.dev, h.sim->now, &r);
	ck_assert_uint_eq(r.drives, 4);
	double sum = 0;
	for (uint32_t m = 0; m < 4; m++) {
		struct rs_dev_report mr;
		rs_dev_report(h.dev->members[m], h.sim->now, &mr);
		sum += mr.drive_qd;
	}
	ck_assert(r.drive_qd > 0);
	tu_assert_rel(r.drive_qd, sum / 4, 1e-9);
	ah_free(&h);
}
END_TEST

/* Rebuild rows and degraded reads pass their sources through the XOR: an
 * engine of 30 MB/s (three 64 MiB sources: 6.7 s of XOR) sets the pace
 * of the rebuild, far below the members' 0.67 s; a degraded read of 64
 * KiB waits for its three sources' 6.6 ms of XOR. */
START_TEST(xor_bounds_the_rebuild)
{
	struct ah h;
	ah_build(&h, "type: array\nlevel: raid5\nspares: 1\n"
		     "xor: {location: engine, rate: 30MB/s, cost: 0s}\n"
		     "disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 64MiB, count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 2);
	ah_run(&h);
	double want = 3.0 * 64 * 1048576 / 30e6;
	printf("rebuild of a 64 MiB member behind a 30 MB/s XOR engine: %.3f s (XOR %.3f s)\n",
	       rebuild_s(&h), want);
	tu_assert_rel(rebuild_s(&h), want, 0.05);
	ck_assert_uint_gt(ah_c(&h)->xor_bytes, 3ull * 64 * 1048576 - 1);
	ah_free(&h);

	ah_build(&h, "type: array\nlevel: raid5\n"
		     "xor: {location: engine, rate: 30MB/s, cost: 0s}\n"
		     "disks: {type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 64MiB, count: 4}\n");
	rs_array_fail_member(h.sim, h.dev, 1);
	ah_submit(&h, RS_READ, 128, 128);  /* member 1's first 64 KiB */
	ah_run(&h);
	double xor_s = 3.0 * 65536 / 30e6, read_s = 65536 / BW;
	tu_assert_rel((double)(h.done[0].t_done - h.done[0].t_submit) / 1e9, read_s + xor_s, 0.01);
	ah_free(&h);
}
END_TEST

static Suite *rebuild_suite(void)
{
	Suite *s = suite_create("rebuild");
	TCase *tc = tcase_create("rebuild");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, idle_rebuild_visits_every_row_once_at_member_rate);
	tcase_add_test(tc, speed_limit_max_exactly);
	tcase_add_test(tc, speed_limit_min_under_foreground);
	tcase_add_test(tc, rebuild_priority_shares);
	tcase_add_test(tc, checkpoint_splits_the_member);
	tcase_add_test(tc, media_error_during_rebuild);
	tcase_add_test(tc, replaced_drive_is_rebuilt);
	tcase_add_test(tc, member_size_limits_the_rebuild);
	tcase_add_test(tc, xor_bounds_the_rebuild);
	suite_add_tcase(s, tc);
	tc = tcase_create("hdd");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, idle_hdd_rebuild_zone_by_zone);
	tcase_add_test(tc, idle_spare_not_in_drive_qd);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rebuild_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
