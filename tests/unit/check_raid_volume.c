/* Unit tests for the array device (src/raid/volume*.c).
 *
 * Most cases drive the array directly: requests submitted by hand to an
 * array of `ideal` members with a fixed service time, so every member
 * operation and every time is exact, watched through the array's trace
 * hook and counters.  Throughput cases run the IOMeter workload through
 * tu_run, and a few use the hdd model for realism.  Every run ends with
 * the conservation check. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TU_WANT_SCENARIO
#include "config/models.h"
#include "dev/build.h"
#include "raid/map.h"
#include "raid/volume.h"
#include "testutil.h"

/* ---- a hand-driven array ---------------------------------------------- */

#define MAX_EV 8192
#define MAX_DONE 4096

struct done_rec {
	uint64_t id;
	uint32_t ord;                 /* the request's place in submission order */
	rs_time_t t_submit, t_done;
	int status;
};

struct h {
	struct rs_sim *sim;
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *root;
	struct rs_dev *dev;
	struct rs_array_event *ev;
	size_t nev;
	struct done_rec *done;
	size_t ndone;
	/* Closed-loop generator: `left` more requests of nblk, qd in flight. */
	uint32_t inflight, qd;
	uint64_t left;
	enum rs_op op;
	uint32_t nblk;
	bool random;
	uint64_t next_lba, range_blk, rng;
	uint32_t nsub;                /* requests submitted */
	/* Requests come with every relay taken (dev/fanin.h), by a layer
	 * standing above the array (lift), so the array cannot relay them. */
	bool relays_taken;
	struct rs_dev lift;
};

static void on_event(void *ctx, const struct rs_array_event *ev)
{
	struct h *h = ctx;
	ck_assert_uint_lt(h->nev, MAX_EV);
	h->ev[h->nev++] = *ev;
}

/* Build `text` as the device; NULL (and h->d filled) if it fails. */
static struct rs_dev *h_build(struct h *h, const char *text)
{
	memset(h, 0, sizeof(*h));
	rs_diag_init(&h->d);
	h->root = rs_yaml_load_string("test.yaml", text, strlen(text), &h->d);
	ck_assert_ptr_nonnull(h->root);
	rs_model_path_init(&h->mp);
	h->sim = rs_sim_new(1);
	struct rs_build b = { .sim = h->sim, .types = rs_tree_types(), .models = &h->mp,
			      .diag = &h->d };
	h->dev = rs_dev_build(&b, h->root, "device", "array");
	h->ev = calloc(MAX_EV, sizeof(*h->ev));
	h->lift.name = "lift";
	rs_tavg_init(&h->lift.inflight, 0, 0);
	h->done = calloc(MAX_DONE, sizeof(*h->done));
	if (h->dev)
		rs_array_set_trace(h->dev, on_event, h);
	return h->dev;
}

static void h_free(struct h *h)
{
	rs_dev_destroy(h->dev);
	rs_sim_free(h->sim);
	rs_model_path_free(&h->mp);
	rs_node_free(h->root);
	free(h->ev);
	free(h->done);
}

static void h_next(struct h *h);

static void h_done(struct rs_sim *sim, struct rs_io *io)
{
	struct h *h = io->done_ctx;
	ck_assert_uint_lt(h->ndone, MAX_DONE);
	h->done[h->ndone++] = (struct done_rec){ io->id, io->up.raid_member, io->t_submit,
						 io->t_done, io->status };
	h->inflight--;
	rs_io_free(sim, io);
	h_next(h);
}

static void lift_back(struct rs_sim *sim, struct rs_io *io)
{
	rs_io_relay_finish(sim, io, 0);
}

static struct rs_io *h_submit(struct h *h, enum rs_op op, uint64_t lba, uint32_t nblk)
{
	struct rs_io *io = rs_io_new(h->sim, op, lba, nblk, h_done, h);
	/* The request's own `up` is its maker's, the test's: its place in
	 * submission order, which ids (every child takes one) do not give
	 * alike on two ways through the array. */
	io->up.raid_member = h->nsub++;
	h->inflight++;
	if (h->relays_taken) {
		io->dev = &h->lift;
		while (rs_io_relayable(io))
			rs_io_relay(io, &h->lift, lift_back);
	}
	rs_dev_submit(h->sim, h->dev, io);
	return io;
}

/* xorshift64*: the tests' own random offsets. */
static uint64_t h_rand(struct h *h)
{
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return h->rng * 0x2545F4914F6CDD1DULL;
}

static void h_next(struct h *h)
{
	while (h->left > 0 && h->inflight < h->qd) {
		uint64_t lba;
		if (h->random) {
			lba = h_rand(h) % (h->range_blk / h->nblk) * h->nblk;
		} else {
			lba = h->next_lba;
			h->next_lba += h->nblk;
		}
		h->left--;
		h_submit(h, h->op, lba, h->nblk);
	}
}

/* n requests of nblk blocks, qd at a time, random (aligned to nblk over
 * the first range_blk blocks) or sequential from 0; run to the end. */
static void h_load(struct h *h, enum rs_op op, uint64_t n, uint32_t qd, uint32_t nblk,
		   bool random)
{
	h->op = op;
	h->left = n;
	h->qd = qd;
	h->nblk = nblk;
	h->random = random;
	h->next_lba = 0;
	h->range_blk = 1u << 21;      /* 1 GiB */
	h->rng = 88172645463325252ULL;
	h_next(h);
	rs_sim_run(h->sim, RS_TIME_MAX);
	ck_assert_uint_eq(h->inflight, 0);
	tu_check_conservation(h->sim);
	ck_assert_uint_eq(h->dev->submitted, h->dev->completed);
}

static const struct rs_array_counters *h_counters(const struct h *h)
{
	return rs_array_counters(h->dev);
}

/* Two runs that must not differ end at the same instant with the same
 * array counters and the same device report. */
static void assert_same_array_end(const struct h *a, const struct h *b)
{
	ck_assert_mem_eq(h_counters(a), h_counters(b), sizeof(struct rs_array_counters));
	rs_time_t now = a->sim->now;
	ck_assert_int_eq(now, b->sim->now);
	struct rs_dev_report ra, rb;
	rs_dev_report(a->dev, now, &ra);
	rs_dev_report(b->dev, now, &rb);
	ck_assert_double_eq(ra.queue_depth, rb.queue_depth);
	ck_assert_double_eq(ra.utilisation, rb.utilisation);
	ck_assert_double_eq(ra.drive_qd, rb.drive_qd);
	ck_assert_double_eq(ra.drive_qd_max, rb.drive_qd_max);
	ck_assert_uint_eq(a->dev->submitted, b->dev->submitted);
}

static uint64_t h_ops(const struct h *h, enum rs_array_op op)
{
	return h_counters(h)->ops[op];
}

/* ---- RAID0 ------------------------------------------------------------ */

/* Random 4 KiB reads at a deep queue: N members serve ~N times as many. */
static double raid0_iops(unsigned n)
{
	struct tu_run r;
	tu_run(&r,
	       "device:\n"
	       "  type: array\n"
	       "  level: %s\n"
	       "  disks: {type: ideal, mean: 1ms, count: %u}\n"
	       "workload:\n"
	       "  iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,"
	       " outstanding: 64, ramp: 1s, run: 20s}\n",
	       n == 1 ? "single" : "raid0", n);
	ck_assert_uint_eq(r.s.errors, 0);
	return r.s.iops;
}

START_TEST(raid0_scales_random_reads)
{
	double one = raid0_iops(1);
	tu_assert_rel(one, 1000.0, 0.01);
	for (unsigned n = 2; n <= 4; n++) {
		double iops = raid0_iops(n);
		printf("raid0 x%u of ideal 1 ms members, 64 random reads in flight: %.0f IOPS\n",
		       n, iops);
		/* 64 random requests over n members: the busiest member sets
		 * the pace, so a few per cent short of n times one. */
		ck_assert_msg(iops > 0.93 * n * one && iops <= n * one * 1.001,
			      "raid0 x%u: %.1f IOPS vs single %.1f", n, iops, one);
	}
}
END_TEST

START_TEST(raid0_extents_and_jbod)
{
	struct h h;
	/* 3 members, 8 KiB strips: a 40-block read from block 8 covers
	 * strips 1, 2 (row 0) and 3, 4 (row 1, partly). */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid0\nstrip: 8KiB\n"
					  "disks: {type: ideal, mean: 1ms, count: 3}\n"));
	h_submit(&h, RS_READ, 16, 40);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 3);
	uint64_t blk[3] = { 0 };
	for (size_t i = 0; i < h.nev; i++)
		blk[h.ev[i].member] += h.ev[i].nblk;
	ck_assert_uint_eq(blk[0] + blk[1] + blk[2], 40);
	ck_assert_uint_eq(blk[2], 16);
	ck_assert_int_eq(h.done[0].t_done, 1 * RS_MS);
	h_free(&h);

	/* A request longer than one mapping batch: 256 strips of 4 KiB. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid0\nstrip: 4KiB\n"
					  "disks: {type: ideal, mean: 1ms, count: 3}\n"));
	h_submit(&h, RS_READ, 4, 2048);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 257);
	uint64_t sum = 0;
	for (size_t i = 0; i < h.nev; i++)
		sum += h.ev[i].nblk;
	ck_assert_uint_eq(sum, 2048);
	h_free(&h);

	/* Unequal JBOD members: capacity is their sum, a read past the first
	 * member's end goes to the second. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: jbod\nmembers:\n"
					  "  - {type: ideal, capacity: 1MiB}\n"
					  "  - {type: ideal, capacity: 3MiB}\n"));
	ck_assert_uint_eq(h.dev->capacity_blk, 8192);
	h_submit(&h, RS_WRITE, 2040, 16);
	h_submit(&h, RS_READ, 8192 - 8, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 3);
	ck_assert_uint_eq(h_counters(&h)->member_writes[0], 1);
	ck_assert_uint_eq(h_counters(&h)->member_writes[1], 1);
	ck_assert_uint_eq(h_counters(&h)->member_reads[1], 1);
	h_free(&h);
}
END_TEST

/* A RAID0 request within one strip takes the array's path of one member
 * operation (rs_raid0_map_one, no hold on the request); one that crosses
 * a strip takes the general one (rs_raid_map, fan_out).  Both must agree:
 * the map on every small geometry, and a RAID0 of one member against the
 * `single` level (the general path, the same member blocks) on every
 * time, member operation, counter and figure. */
START_TEST(raid0_one_strip_path_matches_general)
{
	for (uint32_t n = 1; n <= 5; n++) {
		for (uint32_t strip = 8; strip <= 16; strip += 8) {
			struct rs_raid_geom g;
			uint64_t sizes[5] = { 0 };
			for (uint32_t m = 0; m < n; m++)
				sizes[m] = 4 * strip;
			char err[128];
			ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID0, RS_RAID_LEFT_SYMMETRIC, n,
							   strip, sizes, err, sizeof(err)),
					 0);
			for (uint64_t lba = 0; lba < g.capacity_blk; lba++) {
				for (uint32_t nblk = 1; nblk <= 2 * strip &&
							lba + nblk <= g.capacity_blk;
				     nblk++) {
					struct rs_raid_extent e[4];
					size_t ne = rs_raid_map(&g, lba, nblk, e, 4);
					uint32_t m;
					uint64_t mlba;
					bool one = rs_raid0_map_one(&g, lba, nblk, &m, &mlba);
					ck_assert_int_eq(one, ne == 1);
					if (one) {
						ck_assert_uint_eq(m, e[0].member);
						ck_assert_uint_eq(mlba, e[0].member_lba);
					}
				}
			}
		}
	}

	struct h fast, general;
	const char *disk = "disks: {type: ideal, mean: 1ms, service: exponential, "
			   "bandwidth: 100MB/s, count: 1}\n";
	char text[256];
	snprintf(text, sizeof(text), "type: array\nlevel: raid0\nstrip: 8KiB\ncoalesce: true\n%s",
		 disk);
	ck_assert_ptr_nonnull(h_build(&fast, text));
	snprintf(text, sizeof(text), "type: array\nlevel: single\n%s", disk);
	ck_assert_ptr_nonnull(h_build(&general, text));
	struct h *both[2] = { &fast, &general };
	for (int i = 0; i < 2; i++) {
		/* 4 KiB within a strip; 6 KiB now and then across one, which
		 * coalesce makes one member operation, as on `single`. */
		h_load(both[i], RS_WRITE, 300, 8, 8, true);
		h_load(both[i], RS_READ, 300, 8, 8, true);
		h_load(both[i], RS_READ, 200, 4, 12, true);
	}
	ck_assert_uint_eq(fast.ndone, general.ndone);
	for (size_t i = 0; i < fast.ndone; i++) {
		ck_assert_uint_eq(fast.done[i].id, general.done[i].id);
		ck_assert_int_eq(fast.done[i].t_done, general.done[i].t_done);
		ck_assert_int_eq(fast.done[i].status, general.done[i].status);
	}
	ck_assert_uint_eq(fast.nev, general.nev);
	for (size_t i = 0; i < fast.nev; i++) {
		const struct rs_array_event *a = &fast.ev[i], *b = &general.ev[i];
		ck_assert_int_eq(a->op, b->op);
		ck_assert_uint_eq(a->member, b->member);
		ck_assert_uint_eq(a->member_lba, b->member_lba);
		ck_assert_uint_eq(a->nblk, b->nblk);
		ck_assert_uint_eq(a->parent_id, b->parent_id);
		ck_assert_int_eq(a->t_submit, b->t_submit);
		ck_assert_int_eq(a->t_done, b->t_done);
	}
	assert_same_array_end(&fast, &general);
	h_free(&fast);
	h_free(&general);
}
END_TEST

/* Without faults and without a trace, a RAID0 member operation goes
 * without its record: the request itself relayed (relay_issue) or, with
 * its relays taken, a child (plain_issue); a trace makes every one an operation
 * with a record, so the same run with and without one compares the two
 * ways.  A fault that comes while plain operations are out (the member
 * slowed at 10 ms, another failed at 40 ms, neither announced before the
 * run) makes those in flight operations like any other. */
static void slow_member_event(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_set_slow(obj, 1, 3.0);
}

static void fail_member_event(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_fail_member(sim, obj, 2);
}

static void plain_run(struct h *h, bool traced, bool faults, bool relays_taken)
{
	ck_assert_ptr_nonnull(h_build(h, "type: array\nlevel: raid0\nstrip: 8KiB\n"
					 "disks: {type: ideal, mean: 1ms, service: exponential, "
					 "bandwidth: 100MB/s, count: 3}\n"));
	h->relays_taken = relays_taken;
	if (!traced)
		rs_array_set_trace(h->dev, NULL, NULL);
	if (faults) {
		rs_sched_at(h->sim, 10 * RS_MS, slow_member_event, h->dev, NULL);
		rs_sched_at(h->sim, 40 * RS_MS, fail_member_event, h->dev, NULL);
	}
	h_load(h, RS_WRITE, 150, 6, 8, true);
	h_load(h, RS_READ, 250, 6, 8, true);
}

START_TEST(raid0_plain_ops_match_recorded_ones)
{
	for (int faults = 0; faults <= 1; faults++) {
		/* The request relayed to its member as its operation, and (every
		 * relay taken above) a child of it, against recorded ones. */
		for (int taken = 0; taken <= 1; taken++) {
			struct h plain, recorded;
			plain_run(&plain, false, faults, taken);
			plain_run(&recorded, true, faults, false);
			ck_assert_uint_eq(plain.nev, 0);
			ck_assert_uint_gt(recorded.nev, 0);
			ck_assert_uint_eq(plain.ndone, recorded.ndone);
			int failed = 0;
			for (size_t i = 0; i < plain.ndone; i++) {
				ck_assert_msg(plain.done[i].ord == recorded.done[i].ord, "faults %d taken %d i %zu", faults, taken, i);
				ck_assert_int_eq(plain.done[i].t_submit, recorded.done[i].t_submit);
				ck_assert_int_eq(plain.done[i].t_done, recorded.done[i].t_done);
				ck_assert_int_eq(plain.done[i].status, recorded.done[i].status);
				failed += plain.done[i].status != 0;
			}
			/* With the faults some requests fail (the member dies and
			 * takes a RAID0 with it), and the slowed member stretched
			 * some. */
			if (faults)
				ck_assert_int_gt(failed, 0);
			else
				ck_assert_int_eq(failed, 0);
			assert_same_array_end(&plain, &recorded);
			/* Relayed, the operations are the requests themselves. */
			const struct rs_io_counters *pc = rs_io_counters(plain.sim);
			const struct rs_io_counters *rc = rs_io_counters(recorded.sim);
			if (taken || faults)
				ck_assert_uint_le(pc->created, rc->created);
			else
				ck_assert_uint_eq(pc->created, plain.ndone);
			h_free(&plain);
			h_free(&recorded);
		}
	}
}
END_TEST

/* coalesce: a request's strips that are back to back on a member go as one
 * command; the blocks each member gets are the same. */
START_TEST(raid0_coalesce)
{
	struct h h;
	/* 2 members, 4 KiB strips, a 128 KiB read from block 8 (strip 1):
	 * 32 strips, 16 on each member, contiguous there. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid0\nstrip: 4KiB\n"
					  "coalesce: true\n"
					  "disks: {type: ideal, mean: 1ms, count: 2}\n"));
	h_submit(&h, RS_READ, 8, 256);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 2);
	ck_assert_uint_eq(h.ev[0].nblk + h.ev[1].nblk, 256);
	ck_assert_uint_eq(h.ev[0].nblk, 128);
	h_free(&h);

	/* Without it, one command per strip. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid0\nstrip: 4KiB\n"
					  "disks: {type: ideal, mean: 1ms, count: 2}\n"));
	h_submit(&h, RS_READ, 8, 256);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 32);
	h_free(&h);

	/* Longer than a mapping batch (2048 strips over 3 members): one
	 * command per member all the same. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid0\nstrip: 4KiB\n"
					  "coalesce: true\n"
					  "disks: {type: ideal, mean: 1ms, count: 3}\n"));
	h_submit(&h, RS_WRITE, 0, 8 * 2048);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 3);
	h_free(&h);
}
END_TEST

/* ---- mirrors ---------------------------------------------------------- */

START_TEST(raid1_alternates_at_qd1)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid1\nread_policy: alternate\n"
					  "disks: {type: ideal, mean: 1ms, count: 2}\n"));
	h_load(&h, RS_READ, 40, 1, 16, true);
	ck_assert_uint_eq(h.nev, 40);
	for (size_t i = 1; i < h.nev; i++)
		ck_assert_uint_ne(h.ev[i].member, h.ev[i - 1].member);
	/* One at a time, so no faster than one disk. */
	ck_assert_int_eq(h.done[39].t_done, 40 * RS_MS);
	ck_assert_uint_eq(h_counters(&h)->stream_reads, 0);
	h_free(&h);
}
END_TEST

static double raid1_read_iops(const char *level, unsigned qd, const char *policy)
{
	struct tu_run r;
	tu_run(&r,
	       "device:\n"
	       "  type: array\n"
	       "  level: %s\n"
	       "  read_policy: %s\n"
	       "  disks: {type: ideal, mean: 1ms, count: 2}\n"
	       "workload:\n"
	       "  iometer: {spec: default, size: 8KiB, read: 100%%, random: 100%%,"
	       " outstanding: %u, run: 10s}\n",
	       level, policy, qd);
	return r.s.iops;
}

START_TEST(raid1_doubles_random_reads)
{
	tu_assert_rel(raid1_read_iops("raid1", 1, "alternate"), 1000.0, 0.001);
	tu_assert_rel(raid1_read_iops("raid1", 2, "alternate"), 2000.0, 0.001);
	tu_assert_rel(raid1_read_iops("raid1", 8, "alternate"), 2000.0, 0.001);
	tu_assert_rel(raid1_read_iops("raid1", 8, "shortest-queue"), 2000.0, 0.001);
	/* Primary only: the second half idles. */
	tu_assert_rel(raid1_read_iops("raid1", 8, "primary"), 1000.0, 0.001);
}
END_TEST

/* Per-member ops counted through the trace in a tu_run. */
struct member_tally {
	uint64_t reads[RS_RAID_MAX_MEMBERS];
	uint64_t writes[RS_RAID_MAX_MEMBERS];
};

static void tally_event(void *ctx, const struct rs_array_event *ev)
{
	struct member_tally *t = ctx;
	if (ev->op == RS_ARRAY_READ || ev->op == RS_ARRAY_PARITY_READ)
		t->reads[ev->member]++;
	else if (ev->op != RS_ARRAY_FLUSH)
		t->writes[ev->member]++;
}

static void tally_hook(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load, void *arg)
{
	(void)sim;
	(void)load;
	rs_array_set_trace(dev, tally_event, arg);
}

START_TEST(raid1_sequential_stays_on_one_copy)
{
	const char *fmt = "device:\n"
			  "  type: array\n"
			  "  level: raid1\n"
			  "  sequential_balance: %s\n"
			  "  disks: {type: ideal, mean: 1ms, count: 2}\n"
			  "workload:\n"
			  "  iometer: {spec: seqread, size: 64KiB, outstanding: 4, run: 2s}\n";
	struct member_tally t = { 0 };
	struct tu_run r;
	tu_run_hook(&r, tally_hook, &t, fmt, "false");
	/* Every read after the first continues the stream: one copy does all. */
	ck_assert_uint_gt(t.reads[0] + t.reads[1], 1000);
	ck_assert(t.reads[0] == 0 || t.reads[1] == 0);
	tu_assert_rel(r.s.iops, 1000.0, 0.01);

	memset(&t, 0, sizeof(t));
	tu_run_hook(&r, tally_hook, &t, fmt, "true");
	/* Balanced: the stream is split over both halves. */
	tu_assert_rel((double)t.reads[0], (double)t.reads[1], 0.01);
	tu_assert_rel(r.s.iops, 2000.0, 0.01);
}
END_TEST

START_TEST(mirrored_writes_every_copy)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid1\n"
					  "disks: {type: ideal, mean: 1ms, write_mean: 3ms, count: 3}\n"));
	h_submit(&h, RS_WRITE, 100, 16);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 3);
	for (uint32_t m = 0; m < 3; m++) {
		ck_assert_uint_eq(h.ev[m].op, RS_ARRAY_WRITE);
		ck_assert_uint_eq(h_counters(&h)->member_writes[m], 1);
		ck_assert_uint_eq(h.ev[m].member_lba, 100);
		ck_assert_uint_eq(h.ev[m].nblk, 16);
	}
	/* Done when the last copy is. */
	ck_assert_uint_eq(h.ndone, 1);
	ck_assert_int_eq(h.done[0].t_done, 3 * RS_MS);
	h_free(&h);
}
END_TEST

/* Strip 1 (blocks 128..255 with 64 KiB strips) of a 4-member array: the
 * maps put it on members 1 and 3 (raid01) or 2 and 3 (raid10). */
static void positions(const char *level, uint32_t primary, uint32_t mirror)
{
	char text[256];
	snprintf(text, sizeof(text),
		 "type: array\nlevel: %s\nread_policy: primary\n"
		 "disks: {type: ideal, mean: 1ms, count: 4}\n",
		 level);
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, text));
	/* Row 1, strip 1: array block 2 * 128 + 128 + 8. */
	h_submit(&h, RS_WRITE, 2 * 128 + 128 + 8, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	h_submit(&h, RS_READ, 2 * 128 + 128 + 8, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h.nev, 3);
	uint32_t w0 = h.ev[0].member, w1 = h.ev[1].member;
	ck_assert_uint_eq(w0 < w1 ? w0 : w1, primary);
	ck_assert_uint_eq(w0 < w1 ? w1 : w0, mirror);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(h.ev[i].member_lba, 128 + 8);
	ck_assert_uint_eq(h.ev[2].op, RS_ARRAY_READ);
	ck_assert_uint_eq(h.ev[2].member, primary);
	/* The same answer as the map. */
	struct rs_raid_extent e;
	ck_assert_uint_eq(rs_raid_map(rs_array_geom(h.dev), 2 * 128 + 128 + 8, 8, &e, 1), 1);
	ck_assert_uint_eq(e.member, primary);
	h_free(&h);
}

START_TEST(raid10_raid01_positions)
{
	positions("raid01", 1, 3);
	positions("raid10", 2, 3);
}
END_TEST

START_TEST(read_policies)
{
	struct h h;
	/* shortest-queue with a slow and a fast half: the fast one takes
	 * most reads. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid1\n"
					  "read_policy: shortest-queue\nmembers:\n"
					  "  - {type: ideal, mean: 10ms}\n"
					  "  - {type: ideal, mean: 1ms}\n"));
	h_load(&h, RS_READ, 400, 4, 8, true);
	const struct rs_array_counters *c = h_counters(&h);
	ck_assert_uint_gt(c->member_reads[1], 5 * c->member_reads[0]);
	h_free(&h);

	/* nearest-head: a read goes to the copy whose head is closest. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid1\n"
					  "read_policy: nearest-head\nsequential_balance: true\n"
					  "disks: {type: ideal, mean: 1ms, count: 2}\n"));
	h_submit(&h, RS_READ, 500000, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	uint32_t far = h.ev[0].member;
	h_submit(&h, RS_READ, 100, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	h_submit(&h, RS_READ, 499000, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	h_submit(&h, RS_READ, 200, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_ne(h.ev[1].member, far);
	ck_assert_uint_eq(h.ev[2].member, far);
	ck_assert_uint_ne(h.ev[3].member, far);
	/* Both halves had one op at a time, half the time each. */
	tu_assert_rel(rs_array_member_queue_depth(h.dev, 0, rs_now(h.sim)), 0.5, 1e-9);
	h_free(&h);
}
END_TEST

/* ---- RAID5/6 ---------------------------------------------------------- */

START_TEST(raid5_small_write_rmw_four_ops)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 5}\n"));
	h_load(&h, RS_WRITE, 500, 8, 8, true);
	const struct rs_array_counters *c = h_counters(&h);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ], 500);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_READ], 500);
	ck_assert_uint_eq(c->ops[RS_ARRAY_WRITE], 500);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_WRITE], 500);
	ck_assert_uint_eq(c->rmw_stripes, 500);
	ck_assert_uint_eq(c->xor_jobs, 500);
	ck_assert_uint_eq(h.ndone, 500);
	/* The read and the write of each member-block pair are on the same
	 * member and address (RMW touches only the members it writes). */
	uint64_t per_member = 0;
	for (uint32_t m = 0; m < 5; m++)
		per_member += c->member_reads[m] + c->member_writes[m];
	ck_assert_uint_eq(per_member, 2000);
	h_free(&h);
}
END_TEST

START_TEST(raid5_full_stripe_no_reads)
{
	struct h h;
	/* 5 members, 64 KiB strips: a row holds 4 * 128 = 512 data blocks. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 5}\n"));
	h_load(&h, RS_WRITE, 50, 4, 512, false);
	const struct rs_array_counters *c = h_counters(&h);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ] + c->ops[RS_ARRAY_PARITY_READ], 0);
	ck_assert_uint_eq(c->ops[RS_ARRAY_WRITE] + c->ops[RS_ARRAY_PARITY_WRITE], 5 * 50);
	ck_assert_uint_eq(c->full_stripes, 50);
	for (uint32_t m = 0; m < 5; m++)
		ck_assert_uint_eq(c->member_writes[m], 50);
	h_free(&h);

	/* One request of four whole rows: the same, members x rows. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 5}\n"));
	h_submit(&h, RS_WRITE, 512, 4 * 512);
	h_load(&h, RS_READ, 0, 1, 8, false);
	c = h_counters(&h);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ] + c->ops[RS_ARRAY_PARITY_READ], 0);
	ck_assert_uint_eq(c->ops[RS_ARRAY_WRITE], 16);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_WRITE], 4);
	h_free(&h);
}
END_TEST

START_TEST(raid5_reconstruct_write_when_cheaper)
{
	struct h h;
	/* 8 members: 7 data strips a row.  Writing 6 of them: RMW would read
	 * 6 + 1, reconstruct-write reads the one untouched strip. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 8}\n"));
	h_submit(&h, RS_WRITE, 0, 6 * 128);
	h_load(&h, RS_READ, 0, 1, 8, false);
	const struct rs_array_counters *c = h_counters(&h);
	ck_assert_uint_eq(c->rcw_stripes, 1);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ], 1);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_READ], 0);
	ck_assert_uint_eq(c->ops[RS_ARRAY_WRITE], 6);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_WRITE], 1);
	/* The read is strip 6, whole, on its member. */
	const struct rs_raid_geom *g = rs_array_geom(h.dev);
	ck_assert_uint_eq(h.ev[0].op, RS_ARRAY_READ);
	ck_assert_uint_eq(h.ev[0].member, rs_raid_data_member(g, 0, 6));
	ck_assert_uint_eq(h.ev[0].nblk, 128);
	/* read 1 ms, xor, then the writes 1 ms. */
	ck_assert_int_gt(h.done[0].t_done, 2 * RS_MS);
	h_free(&h);

	/* Forced read-modify-write reads every touched strip and parity. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "write_policy: read-modify-write\n"
					  "disks: {type: ideal, mean: 1ms, count: 8}\n"));
	h_submit(&h, RS_WRITE, 0, 6 * 128);
	h_load(&h, RS_READ, 0, 1, 8, false);
	c = h_counters(&h);
	ck_assert_uint_eq(c->rmw_stripes, 1);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ], 6);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_READ], 1);
	h_free(&h);

	/* A partial-strip write inside strip 0 of a 3-member RAID5:
	 * reconstruct-write reads the matching part of strip 1 only. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 3}\n"));
	h_submit(&h, RS_WRITE, 16, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	c = h_counters(&h);
	ck_assert_uint_eq(c->rcw_stripes, 1);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ], 1);
	ck_assert_uint_eq(h.ev[0].member_lba, 16);
	ck_assert_uint_eq(h.ev[0].nblk, 8);
	h_free(&h);
}
END_TEST

START_TEST(raid6_small_write_six_ops)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid6\n"
					  "disks: {type: ideal, mean: 1ms, count: 7}\n"));
	h_load(&h, RS_WRITE, 300, 8, 8, true);
	const struct rs_array_counters *c = h_counters(&h);
	ck_assert_uint_eq(c->ops[RS_ARRAY_READ] + c->ops[RS_ARRAY_PARITY_READ], 3 * 300);
	ck_assert_uint_eq(c->ops[RS_ARRAY_WRITE] + c->ops[RS_ARRAY_PARITY_WRITE], 3 * 300);
	ck_assert_uint_eq(c->ops[RS_ARRAY_PARITY_WRITE], 2 * 300);
	ck_assert_uint_eq(c->rmw_stripes, 300);
	h_free(&h);
}
END_TEST

/* Each write completes after its parity writes, and each row's writes
 * start only after its reads and the XOR. */
START_TEST(raid5_parity_before_completion)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\nstrip: 16KiB\n"
					  "xor: {location: engine, rate: 100MB/s, cost: 20us}\n"
					  "disks: {type: ideal, service: exponential, mean: 2ms,"
					  " count: 4}\n"));
	h_load(&h, RS_WRITE, 400, 16, 24, true);
	ck_assert_uint_eq(h.ndone, 400);
	uint64_t checked = 0;
	for (size_t i = 0; i < h.ndone; i++) {
		rs_time_t last_parity = -1, last_read = -1, first_write = RS_TIME_MAX;
		for (size_t k = 0; k < h.nev; k++) {
			const struct rs_array_event *e = &h.ev[k];
			if (e->parent_id != h.done[i].id)
				continue;
			if (e->op == RS_ARRAY_PARITY_WRITE && e->t_done > last_parity)
				last_parity = e->t_done;
			if ((e->op == RS_ARRAY_READ || e->op == RS_ARRAY_PARITY_READ) &&
			    e->t_done > last_read)
				last_read = e->t_done;
			if ((e->op == RS_ARRAY_WRITE || e->op == RS_ARRAY_PARITY_WRITE) &&
			    e->t_submit < first_write)
				first_write = e->t_submit;
		}
		ck_assert_int_ge(last_parity, 0);
		ck_assert_int_ge(h.done[i].t_done, last_parity);
		/* Rows hold 96 blocks, so 24-block writes aligned to 24 lie in
		 * one row and never cover it: each has a read phase, then an
		 * XOR of at least 20 us, then its writes. */
		ck_assert_int_ge(last_read, 0);
		ck_assert_int_ge(first_write, last_read + 20 * RS_US);
		checked++;
	}
	ck_assert_uint_gt(checked, 0);
	ck_assert_uint_eq(h_counters(&h)->xor_jobs,
			  h_counters(&h)->rmw_stripes + h_counters(&h)->rcw_stripes +
				  h_counters(&h)->full_stripes);
	ck_assert(rs_array_xor_utilisation(h.dev, rs_now(h.sim)) > 0);
	h_free(&h);

	/* One single-row RMW, fixed times: read 1 ms, XOR 20 us + bytes,
	 * writes 1 ms; done exactly then. */
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "xor: {location: engine, rate: 512MB/s, cost: 20us}\n"
					  "disks: {type: ideal, mean: 1ms, count: 5}\n"));
	h_submit(&h, RS_WRITE, 8, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	/* XOR over old data, old parity and new data: 3 * 4096 B at 512 MB/s
	 * = 24 us, plus 20 us. */
	ck_assert_int_eq(h.done[0].t_done, 2 * RS_MS + 44 * RS_US);
	for (size_t k = 0; k < h.nev; k++)
		if (h.ev[k].op == RS_ARRAY_PARITY_WRITE || h.ev[k].op == RS_ARRAY_WRITE)
			ck_assert_int_eq(h.ev[k].t_submit, 1 * RS_MS + 44 * RS_US);
	h_free(&h);
}
END_TEST

START_TEST(flush_and_errors)
{
	struct h h;
	ck_assert_ptr_nonnull(h_build(&h, "type: array\nlevel: raid5\n"
					  "disks: {type: ideal, mean: 1ms, count: 4}\n"));
	h_submit(&h, RS_FLUSH, 0, 0);
	h_submit(&h, RS_READ, h.dev->capacity_blk - 4, 8);
	h_load(&h, RS_READ, 0, 1, 8, false);
	ck_assert_uint_eq(h_ops(&h, RS_ARRAY_FLUSH), 4);
	ck_assert_uint_eq(h.ndone, 2);
	for (size_t i = 0; i < h.ndone; i++) {
		if (h.done[i].t_done == 0)
			ck_assert_int_eq(h.done[i].status, -RS_ERR_ERANGE);
		else
			ck_assert_int_eq(h.done[i].t_done, 1 * RS_MS);
	}
	/* Capacity: 3 data members of 1 TiB, whole strips. */
	ck_assert_uint_eq(h.dev->capacity_blk, 3 * ((1ull << 40) / 512));
	h_free(&h);
}
END_TEST

/* ---- bad YAML --------------------------------------------------------- */

static void expect_error(const char *text, int line, int col, const char *needle)
{
	struct h h;
	ck_assert_ptr_null(h_build(&h, text));
	ck_assert(h.d.failed);
	ck_assert_msg(strstr(h.d.msg, needle) != NULL, "message '%s' lacks '%s'", h.d.msg,
		      needle);
	ck_assert_msg(h.d.line == line && h.d.col == col, "%s at %d:%d, expected %d:%d",
		      h.d.msg, h.d.line, h.d.col, line, col);
	ck_assert_str_eq(h.d.file, "test.yaml");
	h_free(&h);
}

START_TEST(bad_yaml)
{
	expect_error("type: array\nlevel: raid0\ndisks: {type: ideal, count: 0}\n", 3, 29,
		     "'count' must be between 1 and 64, got 0");
	expect_error("type: array\nlevel: raid5\ndisks:\n  type: ideal\n  count: 2\n", 5, 10,
		     "raid5 needs");
	expect_error("type: array\nlevel: riad5\ndisks: {type: ideal, count: 4}\n", 2, 8,
		     "did you mean 'raid5'");
	expect_error("type: array\nlevel: raid0\nstrip: 5000B\n"
		     "disks: {type: ideal, count: 4}\n",
		     3, 8, "multiple of 512");
	expect_error("type: array\nlevel: raid0\n", 1, 1, "needs 'disks'");
	expect_error("type: array\nlevel: raid0\ndisks: {type: ideal}\n", 3, 8,
		     "missing 'count'");
	expect_error("type: array\nlevel: raid0\ndisks: {type: ideel, count: 2}\n", 3, 15,
		     "did you mean 'ideal'");
	expect_error("type: array\nlevel: raid10\ndisks: {type: ideal, count: 5}\n", 3, 29,
		     "even");
	expect_error("type: array\nlevel: raid5\nxor: {location: cpu}\n"
		     "disks: {type: ideal, count: 4}\n",
		     3, 17, "unknown value 'cpu'");
}
END_TEST

/* ---- with disk models ------------------------------------------------- */

static struct tu_run hdd_run(const char *level, unsigned count, const char *load)
{
	struct tu_run r;
	tu_run(&r,
	       "device:\n"
	       "  type: array\n"
	       "  level: %s\n"
	       "  disks: {model: maxtor-6l020l0, count: %u}\n"
	       "workload:\n"
	       "  iometer: {%s, ramp: 1s, run: 8s}\n",
	       level, count, load);
	ck_assert_uint_eq(r.s.errors, 0);
	return r;
}

START_TEST(hdd_arrays)
{
	const char *rnd = "spec: default, size: 8KiB, read: 100%, random: 100%, outstanding: 16";
	const char *seq = "spec: seqread, size: 64KiB, outstanding: 4";
	double single = hdd_run("single", 1, rnd).s.iops;
	double r0 = hdd_run("raid0", 2, rnd).s.iops;
	double r1 = hdd_run("raid1", 2, rnd).s.iops;
	printf("hdd random 8 KiB reads QD16: single %.0f, raid0x2 %.0f, raid1 %.0f IOPS\n",
	       single, r0, r1);
	/* Random reads spread over two mechanisms. */
	ck_assert(r0 > 1.6 * single);
	ck_assert(r1 > 1.5 * single);
	/* Sequential reads: a mirror does not interleave a stream (TX4000's
	 * RAID1 is no faster than one disk), RAID0 adds the second disk. */
	double s1 = hdd_run("single", 1, seq).s.mib_s;
	double m1 = hdd_run("raid1", 2, seq).s.mib_s;
	double s0 = hdd_run("raid0", 2, seq).s.mib_s;
	printf("hdd sequential 64 KiB reads QD4: single %.1f, raid1 %.1f, raid0x2 %.1f MiB/s\n",
	       s1, m1, s0);
	ck_assert(m1 <= s1 * 1.02);
	ck_assert(s0 > 1.3 * s1);
	/* RAID5 small writes pay four member operations each. */
	struct tu_run w5 = hdd_run("raid5", 4, "spec: default, size: 8KiB, read: 0%, "
						"random: 100%, outstanding: 16");
	struct tu_run w0 = hdd_run("raid0", 4, "spec: default, size: 8KiB, read: 0%, "
						"random: 100%, outstanding: 16");
	printf("hdd random 8 KiB writes QD16 x4: raid0 %.0f, raid5 %.0f IOPS\n", w0.s.iops,
	       w5.s.iops);
	ck_assert(w5.s.iops < 0.5 * w0.s.iops);
}
END_TEST

static Suite *volume_suite(void)
{
	Suite *s = suite_create("raid_volume");
	TCase *tc = tcase_create("striping");
	tcase_add_test(tc, raid0_scales_random_reads);
	tcase_add_test(tc, raid0_extents_and_jbod);
	tcase_add_test(tc, raid0_coalesce);
	tcase_add_test(tc, raid0_one_strip_path_matches_general);
	tcase_add_test(tc, raid0_plain_ops_match_recorded_ones);
	suite_add_tcase(s, tc);
	tc = tcase_create("mirror");
	tcase_add_test(tc, raid1_alternates_at_qd1);
	tcase_add_test(tc, raid1_doubles_random_reads);
	tcase_add_test(tc, raid1_sequential_stays_on_one_copy);
	tcase_add_test(tc, mirrored_writes_every_copy);
	tcase_add_test(tc, raid10_raid01_positions);
	tcase_add_test(tc, read_policies);
	suite_add_tcase(s, tc);
	tc = tcase_create("parity");
	tcase_add_test(tc, raid5_small_write_rmw_four_ops);
	tcase_add_test(tc, raid5_full_stripe_no_reads);
	tcase_add_test(tc, raid5_reconstruct_write_when_cheaper);
	tcase_add_test(tc, raid6_small_write_six_ops);
	tcase_add_test(tc, raid5_parity_before_completion);
	tcase_add_test(tc, flush_and_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("config");
	tcase_add_test(tc, bad_yaml);
	suite_add_tcase(s, tc);
	tc = tcase_create("hdd");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hdd_arrays);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(volume_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
