/* Unit tests for src/dev: links (transaction timing, sharing, duplex,
 * link down), servers, request queues, the ideal device built from YAML,
 * and the queueing-theory acceptance tests on the ideal device: M/M/1,
 * M/D/1 (Pollaczek-Khinchine), closed loops (Little's law) and k servers.
 * Every scenario run ends with the conservation check (testutil.h). */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, setenv, clock_gettime */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TU_WANT_SCENARIO
#include "config/limits.h"
#include "config/sweep.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "dev/ioq.h"
#include "dev/link.h"
#include "dev/server.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "testutil.h"

/* ---- links ---------------------------------------------------------- */

/* Reference timing: every transaction of at most `burst` bytes costs the
 * overhead plus its bytes at the rate, rounded to a nanosecond on its own. */
static rs_time_t ref_xfer_ns(const struct rs_link_params *p, uint64_t bytes)
{
	rs_time_t t = 0;
	do {
		uint64_t b = p->burst_bytes && bytes > p->burst_bytes ? p->burst_bytes : bytes;
		t += p->overhead_ns + (rs_time_t)llround((double)b * 1e9 / p->rate_bytes_s);
		bytes -= b;
	} while (bytes > 0);
	return t;
}

/* One transfer's outcome. */
struct xfer {
	int calls;
	int status;
	rs_time_t done;
};

static void xfer_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct xfer *x = obj;
	x->calls++;
	x->status = status;
	x->done = rs_now(sim);
}

START_TEST(link_single_transfer)
{
	/* 3e8 B/s: 3.33 ns a byte, so per-transaction rounding shows. */
	const struct rs_link_params p = { 3e8, 1000, 4096, false };
	const uint64_t sizes[] = { 1, 511, 4096, 4097, 10000, 65536, 1000000 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct rs_sim *sim = rs_sim_new(1);
		struct rs_link l;
		rs_link_init(&l, "bus", &p, 0);
		struct xfer x = { 0 };
		rs_link_xfer(sim, &l, RS_DIR_OUT, sizes[i], xfer_done, &x, NULL);
		ck_assert(!rs_link_idle(&l));
		rs_sim_run(sim, RS_TIME_MAX);
		ck_assert_int_eq(x.calls, 1);
		ck_assert_int_eq(x.status, 0);
		ck_assert_int_eq(x.done, ref_xfer_ns(&p, sizes[i]));
		ck_assert_uint_eq(l.ch[0].bytes_moved, sizes[i]);
		ck_assert_uint_eq(l.ch[0].transactions, (sizes[i] + 4095) / 4096);
		ck_assert(rs_link_idle(&l));
		ck_assert_uint_eq(sim->jobs.live, 0);
		rs_sim_free(sim);
	}
	/* Worked by hand: 10000 B = 4096 + 4096 + 1808:
	 * 2 * (1000 + 13653) + (1000 + 6027). */
	ck_assert_int_eq(ref_xfer_ns(&p, 10000), 36333);
	/* The closed form ceil(B/burst)*overhead + B/rate, to within the
	 * per-transaction rounding. */
	ck_assert_int_le(llabs(ref_xfer_ns(&p, 1000000) - (245 * 1000 + 3333333)), 245);
}
END_TEST

START_TEST(link_small_transfers_pay_overhead)
{
	const struct rs_link_params p = { 1e8, 2000, 0, false };   /* 10 ns/B, no burst cut */
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "bus", &p, 0);
	ck_assert_int_eq(rs_link_transaction_ns(&l, 512), 2000 + 5120);
	ck_assert_int_eq(rs_link_transaction_ns(&l, 0), 2000);
	struct xfer x = { 0 };
	/* 100 back-to-back 512-byte transfers: 28% of the nominal rate. */
	for (int i = 0; i < 100; i++)
		rs_link_xfer(sim, &l, RS_DIR_OUT, 512, xfer_done, &x, NULL);
	rs_link_xfer(sim, &l, RS_DIR_OUT, 0, xfer_done, &x, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(x.calls, 101);
	ck_assert_int_eq(x.done, 100 * 7120 + 2000);
	double eff = 100.0 * 512 / ((double)(100 * 7120) / 1e9);
	tu_assert_rel(eff / p.rate_bytes_s, 5120.0 / 7120.0, 1e-12);
	ck_assert_uint_eq(l.ch[0].transactions, 101);
	rs_sim_free(sim);
}
END_TEST

/* Two transfers of ten bursts each, the second arriving at `t2`. */
static void two_transfers(bool full_duplex, enum rs_dir d2, rs_time_t t2, struct xfer *a,
			  struct xfer *b, rs_time_t *per)
{
	const struct rs_link_params p = { 1e8, 500, 4096, full_duplex };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "link", &p, 0);
	*per = rs_link_transaction_ns(&l, 4096);
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	rs_link_xfer(sim, &l, RS_DIR_OUT, 10 * 4096, xfer_done, a, NULL);
	rs_sim_run(sim, t2);
	rs_link_xfer(sim, &l, d2, 10 * 4096, xfer_done, b, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(a->calls, 1);
	ck_assert_int_eq(b->calls, 1);
	ck_assert(rs_link_idle(&l));
	ck_assert_uint_eq(sim->jobs.live, 0);
	ck_assert_uint_eq(rs_sim_pending(sim), 0);
	uint64_t moved = l.ch[0].bytes_moved + l.ch[1].bytes_moved;
	ck_assert_uint_eq(moved, 20 * 4096);
	ck_assert_uint_eq(l.ch[0].transactions + l.ch[1].transactions, 20);
	/* Busy the whole time it had work. */
	rs_time_t end = a->done > b->done ? a->done : b->done;
	if (!full_duplex)
		tu_assert_rel(rs_link_utilisation(&l, RS_DIR_OUT, end), 1.0, 1e-12);
	rs_sim_free(sim);
}

START_TEST(link_half_duplex_shares)
{
	struct xfer a, b;
	rs_time_t per;
	/* Arriving together: bursts alternate, the first finishes one burst
	 * before the second, and the total is the sum. */
	two_transfers(false, RS_DIR_IN, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 19 * per);
	ck_assert_int_eq(b.done, 20 * per);
	/* Same direction: the same. */
	two_transfers(false, RS_DIR_OUT, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 19 * per);
	ck_assert_int_eq(b.done, 20 * per);
	/* Arriving in the middle of the third burst of a lone transfer: the
	 * burst in progress finishes, then they alternate. */
	two_transfers(false, RS_DIR_IN, 2 * per + per / 2, &a, &b, &per);
	ck_assert_int_eq(a.done, 17 * per);
	ck_assert_int_eq(b.done, 20 * per);
	/* Arriving during the last burst: nothing left to share. */
	two_transfers(false, RS_DIR_OUT, 9 * per + 1, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	ck_assert_int_eq(b.done, 20 * per);
}
END_TEST

/* Priority arbitration (a SCSI bus): at each burst boundary the waiting
 * transfer of the highest rank goes next.  A high-ranked transfer arriving
 * while a low one runs takes the bus after the burst in progress and keeps
 * it; a low one arriving finds the high one keeping it; equal ranks take
 * turns oldest first; a sender not ranked comes last; the rank may depend
 * on the direction. */
static void ranked(int ra, int rb, int dir_b_rank, rs_time_t t2, struct xfer *a,
		   struct xfer *b, rs_time_t *per)
{
	const struct rs_link_params p = { 1e8, 500, 4096, false };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "scsi", &p, 0);
	*per = rs_link_transaction_ns(&l, 4096);
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	if (ra >= 0)
		rs_link_add_priority(&l, a, -1, ra);
	if (rb >= 0)
		rs_link_add_priority(&l, b, dir_b_rank, rb);
	rs_link_xfer(sim, &l, RS_DIR_OUT, 10 * 4096, xfer_done, a, NULL);
	rs_sim_run(sim, t2);
	rs_link_xfer(sim, &l, RS_DIR_IN, 10 * 4096, xfer_done, b, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(a->calls + b->calls, 2);
	ck_assert_uint_eq(l.ch[0].bytes_moved, 20 * 4096);
	rs_link_destroy(&l);
	rs_sim_free(sim);
}

START_TEST(link_priority_arbitration)
{
	struct xfer a, b;
	rs_time_t per;
	/* b outranks a: after a's first burst, b's ten, then a's nine. */
	ranked(1, 5, -1, 0, &a, &b, &per);
	ck_assert_int_eq(b.done, 11 * per);
	ck_assert_int_eq(a.done, 20 * per);
	/* ... arriving in a's third burst. */
	ranked(1, 5, -1, 2 * per + per / 2, &a, &b, &per);
	ck_assert_int_eq(b.done, 13 * per);
	ck_assert_int_eq(a.done, 20 * per);
	/* a outranks b: a keeps the bus to its end. */
	ranked(5, 1, -1, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	ck_assert_int_eq(b.done, 20 * per);
	/* Equal ranks take turns, as without arbitration. */
	ranked(3, 3, -1, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 19 * per);
	ck_assert_int_eq(b.done, 20 * per);
	/* b not ranked: last. */
	ranked(3, -1, -1, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	/* b ranked high only when it sends (OUT); its transfer comes in. */
	ranked(3, 9, RS_DIR_OUT, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	ranked(3, 9, RS_DIR_IN, 0, &a, &b, &per);
	ck_assert_int_eq(b.done, 11 * per);
}
END_TEST

START_TEST(link_full_duplex_overlaps)
{
	struct xfer a, b;
	rs_time_t per;
	/* Opposite directions: independent channels, both done in 10 bursts. */
	two_transfers(true, RS_DIR_IN, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	ck_assert_int_eq(b.done, 10 * per);
	two_transfers(true, RS_DIR_IN, 3 * per, &a, &b, &per);
	ck_assert_int_eq(a.done, 10 * per);
	ck_assert_int_eq(b.done, 13 * per);
	/* Same direction on a full-duplex link still shares that direction. */
	two_transfers(true, RS_DIR_OUT, 0, &a, &b, &per);
	ck_assert_int_eq(a.done, 19 * per);
	ck_assert_int_eq(b.done, 20 * per);
}
END_TEST

/* A user that keeps one transfer at a time going until `stop_at`. */
struct user {
	struct rs_link *l;
	uint64_t bytes;
	uint64_t done_bytes;          /* completed before stop_at */
	rs_time_t stop_at;
	enum rs_dir dir;
};

static void user_again(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct user *u = obj;
	ck_assert_int_eq(status, 0);
	if (rs_now(sim) <= u->stop_at)
		u->done_bytes += u->bytes;
	if (rs_now(sim) < u->stop_at)
		rs_link_xfer(sim, u->l, u->dir, u->bytes, user_again, u, NULL);
}

static void four_users(rs_time_t overhead, double *sum, double *each_min, double *each_max)
{
	const struct rs_link_params p = { 1.33e8, overhead, 4096, false };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "pci", &p, 0);
	struct user u[4];
	const rs_time_t T = 50 * RS_MS;
	for (int i = 0; i < 4; i++) {
		/* Different transfer sizes, both directions of the shared bus. */
		u[i] = (struct user){ &l, (uint64_t)(64 * 1024) << (i % 2), 0, T,
				      i % 2 ? RS_DIR_IN : RS_DIR_OUT };
		rs_link_xfer(sim, &l, u[i].dir, u[i].bytes, user_again, &u[i], NULL);
	}
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert(rs_link_idle(&l));
	ck_assert_uint_eq(sim->jobs.live, 0);
	*sum = 0;
	*each_min = 1e300;
	*each_max = 0;
	for (int i = 0; i < 4; i++) {
		double r = (double)u[i].done_bytes / ((double)T / 1e9);
		*sum += r;
		*each_min = fmin(*each_min, r);
		*each_max = fmax(*each_max, r);
	}
	rs_sim_free(sim);
}

START_TEST(link_four_users_capped)
{
	double sum, lo, hi;
	/* No overhead: together they get the rate (less the transfers cut
	 * off by the end of the window, at most one of 256 KiB per user). */
	four_users(0, &sum, &lo, &hi);
	ck_assert_double_le(sum, 1.33e8 * (1 + 1e-9));
	ck_assert_double_ge(sum, 1.33e8 * 0.95);
	/* Bursts take turns: each gets a fair quarter, whatever its size. */
	ck_assert_double_ge(lo / hi, 0.9);
	/* With overhead the cap is burst / (overhead + burst/rate). */
	four_users(10000, &sum, &lo, &hi);
	double per = 10000 + 4096 * 1e9 / 1.33e8;
	double cap = 4096 / (per / 1e9);
	ck_assert_double_le(sum, cap * (1 + 1e-6));
	ck_assert_double_ge(sum, cap * 0.95);
	ck_assert_double_ge(lo / hi, 0.9);
}
END_TEST

/* A transfer whose completion callback tries the link again at once. */
static struct xfer retry_x;
static void fail_and_retry(struct rs_sim *sim, void *obj, void *arg, int status)
{
	xfer_done(sim, obj, arg, status);
	struct rs_link *l = arg;
	if (retry_x.calls == 0)
		rs_link_xfer(sim, l, RS_DIR_OUT, 100, xfer_done, &retry_x, NULL);
}

/* The busy time a channel reports is the time average a plain rs_tavg
 * would give for the same changes of level, to the bit: over idle gaps,
 * with a window restarted in the middle of a transfer, for transfers of
 * no bytes (the overhead alone), and for one started from the callback of
 * the one before (which finds the channel's own job free again: the pool
 * is never used). */
static void chain_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	xfer_done(sim, obj, NULL, status);
	struct rs_link *l = arg;
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_link_xfer(sim, l, RS_DIR_OUT, 3000, xfer_done, (struct xfer *)obj + 1, NULL);
}

START_TEST(link_busy_time_exact)
{
	const struct rs_link_params p = { 3e8, 700, 0, false };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	struct rs_tavg ref;
	rs_link_init(&l, "bus", &p, 0);
	rs_tavg_init(&ref, 0, 0);
	struct xfer x[2] = { { 0 } };
	rs_time_t t1 = rs_link_transaction_ns(&l, 5000), t0 = rs_link_transaction_ns(&l, 0);
	ck_assert_int_eq(t0, 700);
	/* Busy [1000, 1000 + t1) and, chained, up to 1000 + t1 + t(3000). */
	rs_sim_run(sim, 1000);
	rs_link_xfer(sim, &l, RS_DIR_IN, 5000, chain_done, &x[0], &l);
	rs_tavg_set(&ref, 1000, 1);
	rs_sim_run(sim, 1000 + t1 / 2);
	/* Busy mid-transfer: the level comes from the transfer holding the
	 * channel, before and after a restart. */
	ck_assert(rs_link_utilisation(&l, RS_DIR_IN, 1000 + t1 / 2) ==
		  rs_tavg_mean(&ref, 1000 + t1 / 2));
	rs_link_restart_stats(&l, 1000 + t1 / 2);
	rs_tavg_restart(&ref, 1000 + t1 / 2);
	rs_sim_run(sim, 1000 + t1 * 3 / 4);
	ck_assert(rs_link_utilisation(&l, RS_DIR_IN, 1000 + t1 * 3 / 4) ==
		  rs_tavg_mean(&ref, 1000 + t1 * 3 / 4));
	ck_assert(rs_link_utilisation(&l, RS_DIR_IN, 1000 + t1 * 3 / 4) == 1.0);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(x[0].done, 1000 + t1);
	ck_assert_int_eq(x[1].done, 1000 + t1 + rs_link_transaction_ns(&l, 3000));
	rs_tavg_set(&ref, x[1].done, 0);
	/* Idle, then a transfer of no bytes. */
	rs_sim_run(sim, x[1].done + 12345);
	struct xfer z = { 0 };
	rs_link_xfer(sim, &l, RS_DIR_OUT, 0, xfer_done, &z, NULL);
	rs_tavg_set(&ref, rs_now(sim), 1);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(z.done, x[1].done + 12345 + 700);
	rs_tavg_set(&ref, z.done, 0);
	for (rs_time_t at = z.done; at < z.done + 3; at++)
		ck_assert(rs_link_utilisation(&l, RS_DIR_OUT, at) == rs_tavg_mean(&ref, at));
	ck_assert(rs_link_utilisation(&l, RS_DIR_IN, 2 * z.done) == rs_tavg_mean(&ref, 2 * z.done));
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_free(sim);
}
END_TEST

/* One transfer of `bytes` in `dir`: alone on the link (it finds the channel
 * and its own job free, rs_link_xfer's own path), or behind a transfer of
 * no bytes submitted just before (queued with a pooled job, then planned
 * by the end of the one before: the general path).  Returns its time on
 * the link; the channel's counters and busy time, less the blocker's. */
struct lone_run {
	rs_time_t took;
	uint64_t moved, transactions;
	double busy_ns;
};

static struct lone_run one_transfer(const struct rs_link_params *p, double rate_out,
				    enum rs_dir dir, uint64_t bytes, bool behind)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "link", p, 0);
	rs_link_set_rate_out(&l, rate_out);
	struct xfer blocker = { 0 }, x = { 0 };
	if (behind)
		rs_link_xfer(sim, &l, dir, 0, xfer_done, &blocker, NULL);
	rs_link_xfer(sim, &l, dir, bytes, xfer_done, &x, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(x.calls, 1);
	ck_assert_int_eq(x.status, 0);
	ck_assert_int_eq(blocker.calls, behind ? 1 : 0);
	ck_assert(rs_link_idle(&l));
	ck_assert_uint_eq(sim->jobs.live, 0);
	/* The other channel of a full-duplex link saw nothing. */
	const struct rs_link_channel *c = &l.ch[p->full_duplex ? dir : 0];
	ck_assert(!c->own.taken);      /* free for the next transfer */
	ck_assert(!c->second.taken);
	if (p->full_duplex)
		ck_assert_uint_eq(l.ch[!dir].bytes_moved + l.ch[!dir].transactions, 0);
	struct lone_run r = { x.done - blocker.done, c->bytes_moved,
			      c->transactions - (behind ? 1 : 0),
			      c->busy.area - (double)blocker.done };
	rs_sim_free(sim);
	return r;
}

/* A transfer that finds its channel free takes a path of its own
 * (rs_link_xfer plans it at once with the channel's job, and its end
 * calls back without the general end's tests): the same transfer through
 * the general path, queued behind another, takes the same time on the
 * same channel and counts the same, in both directions, half and full
 * duplex, with and without bursts and a write rate of its own. */
START_TEST(link_lone_path_matches_queued_path)
{
	const uint64_t sizes[] = { 0, 1, 511, 4096, 4097, 10000, 65536 };
	const size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	for (int k = 0; k < 2 * 2 * 2 * 2 * (int)nsizes; k++) {
		bool duplex = k & 1, burst = k & 2, own_rate = k & 4;
		enum rs_dir dir = (k & 8) ? RS_DIR_IN : RS_DIR_OUT;
		uint64_t bytes = sizes[k / 16];
		struct rs_link_params p = { 3e8, 700, burst ? 4096 : 0, duplex };
		double rate_out = own_rate ? 1e8 : 0;
		struct lone_run lone = one_transfer(&p, rate_out, dir, bytes, false);
		struct lone_run queued = one_transfer(&p, rate_out, dir, bytes, true);
		ck_assert_int_eq(lone.took, queued.took);
		ck_assert_uint_eq(lone.moved, bytes);
		ck_assert_uint_eq(queued.moved, bytes);
		ck_assert_uint_eq(lone.transactions, queued.transactions);
		ck_assert(lone.busy_ns == (double)lone.took);
		ck_assert(queued.busy_ns == (double)queued.took);
		struct rs_link_params ref = p;
		if (own_rate && dir == RS_DIR_OUT)
			ref.rate_bytes_s = rate_out;
		ck_assert_int_eq(lone.took, ref_xfer_ns(&ref, bytes));
	}
}
END_TEST

/* Four transfers at once on a shared channel, taking turns burst by
 * burst: the first holds the channel with its own job, the second waits
 * with the channel's second job, the others with pooled ones, unless
 * pooled is set (the second job held taken meanwhile, so the second waits
 * with a pooled job, as before the channel had one).  Returns how many
 * jobs were out of the pool once all were submitted. */
static uint64_t four_at_once(bool pooled, struct xfer x[4], struct rs_link_channel *out)
{
	const struct rs_link_params p = { 3e8, 700, 4096, false };
	const uint64_t bytes[4] = { 10000, 0, 5000, 12288 };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "bus", &p, 0);
	struct rs_link_channel *c = &l.ch[0];
	if (pooled)
		c->second.taken = true;
	for (int k = 0; k < 4; k++)
		rs_link_xfer(sim, &l, k & 1 ? RS_DIR_IN : RS_DIR_OUT, bytes[k], xfer_done, &x[k],
			     NULL);
	uint64_t live = sim->jobs.live;
	if (pooled)
		c->second.taken = false;
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert(rs_link_idle(&l));
	ck_assert(!c->own.taken && !c->second.taken);
	ck_assert_uint_eq(sim->jobs.live, 0);
	/* Both free again: one transfer holds the channel, one waits, and
	 * neither takes a pooled job. */
	struct xfer y[2] = { { 0 } };
	rs_link_xfer(sim, &l, RS_DIR_IN, 9000, xfer_done, &y[0], NULL);
	rs_link_xfer(sim, &l, RS_DIR_OUT, 9000, xfer_done, &y[1], NULL);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(y[0].calls + y[1].calls, 2);
	*out = *c;
	rs_sim_free(sim);
	return live;
}

/* The channel's second job changes where a waiting transfer's job lives,
 * nothing else: the same turns, times and counts as with a pooled job. */
START_TEST(link_second_job_matches_pooled)
{
	struct xfer a[4] = { { 0 } }, b[4] = { { 0 } };
	struct rs_link_channel ca, cb;
	ck_assert_uint_eq(four_at_once(false, a, &ca), 2);
	ck_assert_uint_eq(four_at_once(true, b, &cb), 3);
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(a[k].calls, 1);
		ck_assert_int_eq(b[k].calls, 1);
		ck_assert_int_eq(a[k].status, 0);
		ck_assert_int_eq(a[k].done, b[k].done);
	}
	/* Turns really interleaved: the long first one ends after the short
	 * third. */
	ck_assert_int_gt(a[0].done, a[2].done);
	ck_assert_uint_eq(ca.bytes_moved, cb.bytes_moved);
	ck_assert_uint_eq(ca.transactions, cb.transactions);
	ck_assert(ca.busy.area == cb.busy.area);
}
END_TEST

/* The time of a full burst is kept between transfers: a rate set after
 * init (a drive slowing a shared bus to its own interface, through
 * rs_link_set_rate) or a write rate of its own set later is honoured by
 * the next transfer of several bursts, in either direction, and a burst
 * split by a second transfer uses it too. */
START_TEST(link_burst_time_follows_rate)
{
	struct rs_link_params p = { 3e8, 700, 4096, true };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "bus", &p, 0);
	const uint64_t bytes = 3 * 4096 + 100;
	struct xfer x[8] = { { 0 } };
	rs_time_t start = 0;
	for (int k = 0; k < 8; k++) {
		enum rs_dir dir = (k & 1) ? RS_DIR_IN : RS_DIR_OUT;
		if (k == 2)
			rs_link_set_rate(&l, p.rate_bytes_s = 1e8);
		if (k == 4)
			rs_link_set_rate_out(&l, 5e7);
		if (k == 6)
			rs_link_set_rate_out(&l, 0);
		rs_link_xfer(sim, &l, dir, bytes, xfer_done, &x[k], NULL);
		rs_sim_run(sim, RS_TIME_MAX);
		struct rs_link_params ref = p;
		if (k >= 4 && k < 6 && dir == RS_DIR_OUT)
			ref.rate_bytes_s = 5e7;
		ck_assert_int_eq(x[k].calls, 1);
		ck_assert_int_eq(x[k].done - start, ref_xfer_ns(&ref, bytes));
		start = x[k].done;
	}
	/* Split by a second transfer in its second burst: the first ends
	 * after its second burst, and then they take turns. */
	struct xfer a = { 0 }, b = { 0 };
	rs_time_t per = rs_link_transaction_ns(&l, 4096);
	rs_link_xfer(sim, &l, RS_DIR_IN, 4 * 4096, xfer_done, &a, NULL);
	rs_sim_run(sim, start + per + per / 2);
	rs_link_xfer(sim, &l, RS_DIR_IN, 4096, xfer_done, &b, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(b.done, start + 3 * per);
	ck_assert_int_eq(a.done, start + 5 * per);
	rs_sim_free(sim);
}
END_TEST

/* rs_link_set_rate (and rs_link_set_rate_out) keep the full burst's
 * time current themselves, so a transfer of several bursts would need no
 * key: the kept times equal the reference right after each set, and the
 * next batch in each direction takes the reference time. */
START_TEST(link_set_rate_keeps_burst_time)
{
	struct rs_link_params p = { 3e8, 700, 4096, false };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "bus", &p, 0);
	const double rates[] = { 1e8, 4.5e7, 3e8 };
	const double rates_out[] = { 0, 2e7, 0 };
	const uint64_t bytes = 5 * 4096 + 7;
	rs_time_t start = 0;
	for (int k = 0; k < 3; k++) {
		rs_link_set_rate(&l, rates[k]);
		struct rs_link_params ref = p;
		ref.rate_bytes_s = rates[k];
		ck_assert_int_eq(l.burst_ns[RS_DIR_IN], ref_xfer_ns(&ref, 4096));
		rs_link_set_rate_out(&l, rates_out[k]);
		struct rs_link_params ref_out = ref;
		if (rates_out[k] > 0)
			ref_out.rate_bytes_s = rates_out[k];
		ck_assert_int_eq(l.burst_ns[RS_DIR_OUT], ref_xfer_ns(&ref_out, 4096));
		for (int d = 0; d < 2; d++) {
			struct xfer x = { 0 };
			rs_link_xfer(sim, &l, (enum rs_dir)d, bytes, xfer_done, &x, NULL);
			rs_sim_run(sim, RS_TIME_MAX);
			ck_assert_int_eq(x.done - start,
					 ref_xfer_ns(d == RS_DIR_OUT ? &ref_out : &ref, bytes));
			start = x.done;
		}
	}
	rs_sim_free(sim);
}
END_TEST

START_TEST(link_down_and_up)
{
	const struct rs_link_params p = { 1e8, 500, 4096, true };
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_link l;
	rs_link_init(&l, "sata", &p, 0);
	struct xfer moving = { 0 }, queued = { 0 }, other_dir = { 0 }, later = { 0 },
		    after_up = { 0 };
	memset(&retry_x, 0, sizeof(retry_x));
	rs_link_xfer(sim, &l, RS_DIR_OUT, 100000, fail_and_retry, &moving, &l);
	rs_link_xfer(sim, &l, RS_DIR_OUT, 100000, xfer_done, &queued, NULL);
	rs_link_xfer(sim, &l, RS_DIR_IN, 100000, xfer_done, &other_dir, NULL);
	rs_sim_run(sim, 5000);
	rs_link_set_up(sim, &l, false);
	/* Moving and queued transfers fail now, in both directions. */
	ck_assert_int_eq(moving.calls, 1);
	ck_assert_int_eq(moving.status, -RS_ERR_ELINKDOWN);
	ck_assert_int_eq(moving.done, 5000);
	ck_assert_int_eq(queued.calls, 1);
	ck_assert_int_eq(queued.status, -RS_ERR_ELINKDOWN);
	ck_assert_int_eq(other_dir.calls, 1);
	ck_assert_int_eq(other_dir.status, -RS_ERR_ELINKDOWN);
	ck_assert(rs_link_idle(&l));
	/* A retry from the failure callback fails too, but later, from the
	 * event loop (no re-entry into the caller). */
	ck_assert_int_eq(retry_x.calls, 0);
	rs_link_xfer(sim, &l, RS_DIR_IN, 100, xfer_done, &later, NULL);
	ck_assert_int_eq(later.calls, 0);
	rs_sim_run(sim, 6000);
	ck_assert_int_eq(retry_x.calls, 1);
	ck_assert_int_eq(retry_x.status, -RS_ERR_ELINKDOWN);
	ck_assert_int_eq(retry_x.done, 5000);
	ck_assert_int_eq(later.calls, 1);
	ck_assert_int_eq(later.status, -RS_ERR_ELINKDOWN);
	ck_assert_uint_eq(l.failed, 5);
	/* Up again: transfers work and take their normal time. */
	rs_link_set_up(sim, &l, true);
	rs_link_xfer(sim, &l, RS_DIR_OUT, 10000, xfer_done, &after_up, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(after_up.calls, 1);
	ck_assert_int_eq(after_up.status, 0);
	ck_assert_int_eq(after_up.done, 6000 + ref_xfer_ns(&p, 10000));
	ck_assert_uint_eq(l.failed, 5);
	/* Nothing failed was counted twice and nothing is left. */
	ck_assert_int_eq(moving.calls + queued.calls + other_dir.calls + later.calls, 4);
	ck_assert_uint_eq(sim->jobs.live, 0);
	ck_assert_uint_eq(rs_sim_events_out(sim), 0);
	rs_sim_free(sim);
}
END_TEST

/* ---- servers -------------------------------------------------------- */

struct job_log {
	int n;
	int order[64];
	rs_time_t when[64];
};

static void job_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct job_log *jl = obj;
	ck_assert_int_eq(status, 0);
	jl->order[jl->n] = (int)(intptr_t)arg;
	jl->when[jl->n] = rs_now(sim);
	jl->n++;
}

START_TEST(server_k_fifo)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_server s;
	rs_server_init(&s, "cpu", 2, 0);
	struct job_log jl = { 0 };
	for (intptr_t i = 0; i < 7; i++)
		rs_server_submit(sim, &s, 100, job_done, &jl, (void *)i);
	ck_assert_uint_eq(s.busy, 2);
	ck_assert_uint_eq(s.waiting.len, 5);
	rs_sim_run(sim, RS_TIME_MAX);
	const rs_time_t want[7] = { 100, 100, 200, 200, 300, 300, 400 };
	ck_assert_int_eq(jl.n, 7);
	for (int i = 0; i < 7; i++) {
		ck_assert_int_eq(jl.order[i], i);   /* first come, first served */
		ck_assert_int_eq(jl.when[i], want[i]);
	}
	ck_assert_uint_eq(s.busy, 0);
	ck_assert_uint_eq(s.jobs_done, 7);
	/* 2 busy for 300 ns, 1 for 100: (600 + 100) / (2 * 400). */
	tu_assert_rel(rs_server_utilisation(&s, 400), 700.0 / 800.0, 1e-12);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_free(sim);
}
END_TEST

/* A job submitted from the callback of the one before finds the server's
 * own job free again (the pool is not used); one submitted while it is
 * taken gets a pooled job; both orders and times are those of any job. */
static struct rs_server *chained_server;

static void chain_job_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	job_done(sim, obj, arg, status);
	uint64_t live = sim->jobs.live;
	if ((intptr_t)arg < 3)
		rs_server_submit(sim, chained_server, 50, chain_job_done, obj,
				 (void *)((intptr_t)arg + 1));
	ck_assert_uint_eq(sim->jobs.live, live);
}

START_TEST(server_own_job_reused)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_server s;
	rs_server_init(&s, "cpu", 1, 0);
	chained_server = &s;
	struct job_log jl = { 0 };
	rs_server_submit(sim, &s, 0, chain_job_done, &jl, (void *)0);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_server_submit(sim, &s, 10, job_done, &jl, (void *)9);
	ck_assert_uint_eq(sim->jobs.live, 1);
	rs_sim_run(sim, RS_TIME_MAX);
	const int order[5] = { 0, 9, 1, 2, 3 };
	const rs_time_t when[5] = { 0, 10, 60, 110, 160 };
	ck_assert_int_eq(jl.n, 5);
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(jl.order[i], order[i]);
		ck_assert_int_eq(jl.when[i], when[i]);
	}
	ck_assert_uint_eq(s.jobs_done, 5);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_free(sim);
}
END_TEST

/* Jobs arrive every `gap` ns, each needs `service` ns. */
struct feeder {
	struct rs_server *s;
	rs_time_t gap, service;
	int left;
	uint64_t done;
	rs_time_t last_done;
};

/* A job served alone (the server and its own job free: rs_server_submit's
 * own path, and an end that calls back without the general end's tests)
 * against the same job behind another (a pooled job, queued, begun by
 * the end of the one before: the general path), on one server and two:
 * the same time in service, the same busy time, the own job free after. */
static void one_job(uint32_t servers, rs_time_t service, bool behind, rs_time_t *took,
		    double *busy_ns)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_server s;
	rs_server_init(&s, "cpu", servers, 0);
	struct job_log first = { 0 }, jl = { 0 };
	if (behind)
		rs_server_submit(sim, &s, 300, job_done, &first, (void *)1);
	rs_server_submit(sim, &s, service, job_done, &jl, (void *)2);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(jl.n, 1);
	ck_assert_int_eq(jl.order[0], 2);
	ck_assert_int_eq(first.n, behind ? 1 : 0);
	rs_time_t start = behind && servers == 1 ? first.when[0] : 0;
	*took = jl.when[0] - start;
	*busy_ns = s.busy_avg.area - (behind ? 300.0 : 0.0);
	ck_assert(!s.own.taken);
	ck_assert_uint_eq(s.busy, 0);
	ck_assert_uint_eq(s.jobs_done, behind ? 2 : 1);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_free(sim);
}

START_TEST(server_lone_path_matches_queued_path)
{
	const rs_time_t services[] = { 0, 1, 250, 123456 };
	for (uint32_t servers = 1; servers <= 2; servers++)
		for (size_t i = 0; i < sizeof(services) / sizeof(services[0]); i++) {
			rs_time_t t[2];
			double busy[2];
			one_job(servers, services[i], false, &t[0], &busy[0]);
			one_job(servers, services[i], true, &t[1], &busy[1]);
			ck_assert_int_eq(t[0], services[i]);
			ck_assert_int_eq(t[1], services[i]);
			ck_assert(busy[0] == (double)services[i]);
			if (servers == 1)
				ck_assert(busy[1] == (double)services[i]);
		}
}
END_TEST

static void fed_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct feeder *f = obj;
	f->done++;
	f->last_done = rs_now(sim);
}

static void feed(struct rs_sim *sim, void *obj, void *arg)
{
	struct feeder *f = obj;
	rs_server_submit(sim, f->s, f->service, fed_done, f, NULL);
	if (--f->left > 0)
		rs_sched(sim, f->gap, feed, f, NULL);
}

START_TEST(server_saturation)
{
	/* Offered 2.5 jobs per 100 ns to 2 servers of 100 ns: saturated, the
	 * queue grows, and the servers finish 2 per 100 ns back to back. */
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_server s;
	rs_server_init(&s, "cpu", 2, 0);
	struct feeder f = { &s, 40, 100, 10000, 0, 0 };
	feed(sim, &f, NULL);
	rs_sim_run(sim, 200000);
	ck_assert_uint_gt(s.waiting.len, 900);
	/* The second server started with the second job, at 40 ns. */
	tu_assert_rel(rs_server_utilisation(&s, 200000), (400000.0 - 40) / 400000, 1e-12);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(f.done, 10000);
	ck_assert_int_eq(f.last_done, 10000 / 2 * 100 + 40);
	/* Busy area is exactly the work done: 10000 jobs of 100 ns. */
	tu_assert_rel(rs_server_utilisation(&s, f.last_done),
		      10000.0 * 100 / (2.0 * (double)f.last_done), 1e-12);
	/* Below saturation: one job every 100 ns keeps one of two busy. */
	rs_server_restart_stats(&s, rs_now(sim));
	rs_time_t t0 = rs_now(sim);
	struct feeder g = { &s, 100, 100, 1000, 0, 0 };
	feed(sim, &g, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(s.jobs_done, 1000);
	ck_assert_int_eq(g.last_done, t0 + 1000 * 100);
	tu_assert_rel(rs_server_utilisation(&s, g.last_done), 0.5, 1e-12);
	ck_assert_uint_eq(sim->jobs.live, 0);
	rs_sim_free(sim);
}
END_TEST

/* ---- request queues ------------------------------------------------- */

static void io_keep(struct rs_sim *sim, struct rs_io *io) {}

START_TEST(ioq_tags_fifo)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_ioq q;
	rs_ioq_init(&q, 2, NULL, NULL);
	ck_assert_ptr_eq(q.policy, &rs_ioq_fifo);
	ck_assert(rs_ioq_empty(&q));
	ck_assert_ptr_null(rs_ioq_dispatch(sim, &q));
	struct rs_io *io[6];
	for (int i = 0; i < 6; i++) {
		io[i] = rs_io_new(sim, RS_READ, (uint64_t)i, 1, io_keep, NULL);
		rs_ioq_push(&q, io[i]);
	}
	ck_assert_uint_eq(q.len, 6);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), io[0]);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), io[1]);
	ck_assert_ptr_null(rs_ioq_dispatch(sim, &q));   /* out of tags */
	ck_assert_uint_eq(q.busy, 2);
	ck_assert_uint_eq(q.len, 4);
	/* The dispatched requests are off the line, which starts at the next. */
	ck_assert_ptr_null(io[0]->qnext);
	ck_assert_ptr_null(io[1]->qnext);
	ck_assert_ptr_eq(q.head, io[2]);
	ck_assert_ptr_null(io[2]->qprev);
	/* Take requests out of the middle, the head and the tail. */
	rs_ioq_unlink(&q, io[3]);
	ck_assert_ptr_eq(q.head, io[2]);
	ck_assert_ptr_eq(io[2]->qnext, io[4]);
	ck_assert_ptr_eq(io[4]->qprev, io[2]);
	rs_ioq_unlink(&q, io[5]);
	ck_assert_ptr_eq(q.tail, io[4]);
	ck_assert_ptr_null(io[4]->qnext);
	/* A tag comes back: the next in arrival order goes. */
	rs_ioq_release(&q);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), io[2]);
	ck_assert_ptr_null(rs_ioq_dispatch(sim, &q));
	rs_ioq_release(&q);
	rs_ioq_release(&q);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), io[4]);
	ck_assert_ptr_null(q.head);
	ck_assert_ptr_null(q.tail);
	ck_assert(!rs_ioq_empty(&q));
	rs_ioq_release(&q);
	ck_assert(rs_ioq_empty(&q));
	/* No tag limit: everything goes at once, in order. */
	struct rs_ioq u;
	rs_ioq_init(&u, 0, &rs_ioq_fifo, NULL);
	for (int i = 0; i < 6; i++)
		rs_ioq_push(&u, io[i]);
	for (int i = 0; i < 6; i++)
		ck_assert_ptr_eq(rs_ioq_dispatch(sim, &u), io[i]);
	ck_assert_uint_eq(u.busy, 6);
	ck_assert_ptr_eq(rs_ioq_policy_find("fifo"), &rs_ioq_fifo);
	ck_assert_ptr_null(rs_ioq_policy_find("no-such-policy"));
	for (int i = 0; i < 6; i++) {
		rs_io_complete(sim, io[i], 0);
		rs_io_free(sim, io[i]);
	}
	rs_sim_free(sim);
}
END_TEST

/* The queue keeps its depth (waiting + in service) as counts, not as an
 * average over time, which no output reads: push, dispatch and release
 * move the counts, and the tags bound what is in service. */
/* The fifo policy through the general take (a policy that picks the
 * head, called and unlinked as any other) */
static struct rs_io *head_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	return q->head;
}
static const struct rs_ioq_policy head_policy = { "head", head_pick };

/* rs_ioq_dispatch takes the fifo policy's head inline: the same pushes
 * and dispatches, interleaved, through it and through the general take
 * give the same requests in the same order and leave the same line,
 * tags and links behind. */
START_TEST(ioq_fifo_inline_matches_general)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_ioq fast, slow;
	rs_ioq_init(&fast, 3, NULL, NULL);
	rs_ioq_init(&slow, 3, &head_policy, NULL);
	ck_assert_ptr_eq(fast.policy, &rs_ioq_fifo);
	struct rs_io *a[8], *b[8];
	for (int i = 0; i < 8; i++) {
		a[i] = rs_io_new(sim, RS_READ, (uint64_t)i, 1, io_keep, NULL);
		b[i] = rs_io_new(sim, RS_READ, (uint64_t)i, 1, io_keep, NULL);
	}
	/* Push two, take up to the tags, release one, and so on: the line
	 * goes empty and fills again, and the tags run out. */
	int pushed = 0;
	for (int round = 0; round < 6; round++) {
		for (int k = 0; k < 2 && pushed < 8; k++, pushed++) {
			rs_ioq_push(&fast, a[pushed]);
			rs_ioq_push(&slow, b[pushed]);
		}
		for (;;) {
			struct rs_io *x = rs_ioq_dispatch(sim, &fast);
			struct rs_io *y = rs_ioq_dispatch(sim, &slow);
			ck_assert_int_eq(x == NULL, y == NULL);
			if (!x)
				break;
			ck_assert_uint_eq(x->lba, y->lba);
			ck_assert_ptr_null(x->qnext);
			ck_assert_ptr_null(y->qnext);
		}
		ck_assert_uint_eq(fast.len, slow.len);
		ck_assert_uint_eq(fast.busy, slow.busy);
		ck_assert_int_eq(fast.head == NULL, slow.head == NULL);
		ck_assert_int_eq(fast.tail == NULL, slow.tail == NULL);
		if (fast.head) {
			ck_assert_uint_eq(fast.head->lba, slow.head->lba);
			ck_assert_ptr_null(fast.head->qprev);
			ck_assert_uint_eq(fast.tail->lba, slow.tail->lba);
		}
		rs_ioq_release(&fast);
		rs_ioq_release(&slow);
	}
	for (int i = 0; i < 8; i++) {
		rs_io_complete(sim, a[i], 0);
		rs_io_complete(sim, b[i], 0);
		rs_io_free(sim, a[i]);
		rs_io_free(sim, b[i]);
	}
	rs_sim_free(sim);
}
END_TEST

START_TEST(ioq_depth_counts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_ioq q;
	rs_ioq_init(&q, 1, NULL, NULL);
	struct rs_io *a = rs_io_new(sim, RS_READ, 0, 1, io_keep, NULL);
	struct rs_io *b = rs_io_new(sim, RS_READ, 1, 1, io_keep, NULL);
	rs_ioq_push(&q, a);
	rs_ioq_push(&q, b);
	ck_assert_uint_eq(q.len + q.busy, 2);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), a);
	ck_assert_ptr_null(rs_ioq_dispatch(sim, &q));     /* its one tag is taken */
	ck_assert_uint_eq(q.len, 1);
	ck_assert_uint_eq(q.busy, 1);
	rs_sim_run(sim, 100);
	rs_ioq_release(&q);
	ck_assert_uint_eq(q.len + q.busy, 1);
	ck_assert_ptr_eq(rs_ioq_dispatch(sim, &q), b);
	rs_sim_run(sim, 300);
	rs_ioq_release(&q);
	ck_assert(rs_ioq_empty(&q));
	rs_io_complete(sim, a, 0);
	rs_io_complete(sim, b, 0);
	rs_io_free(sim, a);
	rs_io_free(sim, b);
	rs_sim_free(sim);
}
END_TEST

/* ---- the ideal device, built from YAML -------------------------------- */

struct built {
	struct rs_node *root;
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_dev *dev;
};

/* Build `text` (a device section) into b->dev, or NULL with b->d set. */
static void build_dev(struct rs_sim *sim, struct built *b, const char *text)
{
	rs_diag_init(&b->d);
	rs_model_path_init(&b->mp);
	b->dev = NULL;
	b->root = rs_yaml_load_string("dev.yaml", text, strlen(text), &b->d);
	ck_assert_ptr_nonnull(b->root);
	struct rs_build bl = { .sim = sim, .types = rs_tree_types(), .models = &b->mp,
			       .diag = &b->d };
	b->dev = rs_dev_build(&bl, b->root, "device", "dut");
}

static void built_free(struct built *b)
{
	rs_dev_destroy(b->dev);
	rs_model_path_free(&b->mp);
	rs_node_free(b->root);
}

struct done_log {
	int n;
	int status[8];
	rs_time_t when[8];
};

static void io_logged(struct rs_sim *sim, struct rs_io *io)
{
	struct done_log *dl = io->done_ctx;
	dl->status[dl->n] = io->status;
	dl->when[dl->n] = rs_now(sim);
	dl->n++;
	rs_io_free(sim, io);
}

START_TEST(ideal_from_yaml)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct built b;
	build_dev(sim, &b, "type: ideal\nmean: 2ms\nbandwidth: 100MB/s\ncapacity: 1MiB\n"
			   "servers: 2\n");
	if (!b.dev)
		rs_diag_print(&b.d, stderr);
	ck_assert_ptr_nonnull(b.dev);
	ck_assert_str_eq(b.dev->type->name, "ideal");
	ck_assert_str_eq(b.dev->name, "dut");
	ck_assert_uint_eq(b.dev->capacity_blk, 2048);
	struct done_log dl = { 0 };
	/* 64 KiB at 100 MB/s adds 655360 ns to the 2 ms. */
	struct rs_io *r1 = rs_io_new(sim, RS_READ, 0, 128, io_logged, &dl);
	struct rs_io *r2 = rs_io_new(sim, RS_WRITE, 128, 8, io_logged, &dl);
	struct rs_io *r3 = rs_io_new(sim, RS_READ, 2047, 2, io_logged, &dl);   /* past the end */
	rs_dev_submit(sim, b.dev, r1);
	rs_dev_submit(sim, b.dev, r2);
	rs_dev_submit(sim, b.dev, r3);
	ck_assert_ptr_eq(r1->dev, b.dev);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(dl.n, 3);
	ck_assert_int_eq(dl.when[0], 2000000 + 40960);      /* 8 blocks */
	ck_assert_int_eq(dl.status[0], 0);
	ck_assert_int_eq(dl.when[1], 2000000 + 655360);
	ck_assert_int_eq(dl.status[1], 0);
	/* The failed request waited for a server like any other and failed
	 * from the event loop. */
	ck_assert_int_eq(dl.status[2], -RS_ERR_ERANGE);
	ck_assert_int_eq(dl.when[2], 2000000 + 40960 + 2000000 + 1024 * 10);
	ck_assert_uint_eq(b.dev->submitted, 3);
	ck_assert_uint_eq(b.dev->completed, 3);
	struct rs_dev_report rep;
	rs_dev_report(b.dev, rs_now(sim), &rep);
	ck_assert_double_gt(rep.utilisation, 0.0);
	ck_assert_double_le(rep.utilisation, 1.0);
	tu_check_conservation(sim);
	built_free(&b);
	rs_sim_free(sim);
}
END_TEST

START_TEST(ideal_bad_yaml)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct built b;
	build_dev(sim, &b, "type: idael\n");
	ck_assert_ptr_null(b.dev);
	ck_assert(b.d.failed);
	ck_assert_ptr_nonnull(strstr(b.d.msg, "did you mean 'ideal'"));
	ck_assert_int_eq(b.d.line, 1);
	built_free(&b);
	build_dev(sim, &b, "type: ideal\nservice: gamma\n");
	ck_assert_ptr_null(b.dev);
	ck_assert_int_eq(b.d.line, 2);
	built_free(&b);
	build_dev(sim, &b, "type: ideal\nservers: 0\n");
	ck_assert_ptr_null(b.dev);
	ck_assert_int_eq(b.d.line, 2);
	built_free(&b);
	/* Requests that take no time would keep a closed loop at one instant. */
	build_dev(sim, &b, "type: ideal\nmean: 0s\n");
	ck_assert_ptr_null(b.dev);
	ck_assert_int_eq(b.d.line, 2);
	ck_assert_ptr_nonnull(strstr(b.d.msg, "simulated time would never advance"));
	built_free(&b);
	build_dev(sim, &b, "type: ideal\nmean: 0s\nbandwidth: 2TB/s\n");
	ck_assert_ptr_null(b.dev);
	built_free(&b);
	build_dev(sim, &b, "type: ideal\nmean: 0s\nbandwidth: 100MB/s\n");
	ck_assert_ptr_nonnull(b.dev);
	built_free(&b);
	build_dev(sim, &b, "type: ideal\nmaen: 1ms\n");
	ck_assert_ptr_null(b.dev);
	ck_assert_ptr_nonnull(strstr(b.d.msg, "mean"));
	built_free(&b);
	rs_sim_free(sim);
}
END_TEST

/* ---- queueing theory on the ideal device ------------------------------ */

/* Open loop: Poisson arrivals at `rate`/s, service mean 1 ms. */
static void open_loop(struct tu_run *r, const char *service, double rho, uint64_t count,
		      uint64_t seed)
{
	tu_run(r,
	       "seed: %llu\n"
	       "device: {type: ideal, service: %s, mean: 1ms}\n"
	       "workload:\n"
	       "  iometer: {spec: default, rate: %.17g, ramp: 5s, run: 1000000s, count: %llu}\n",
	       (unsigned long long)seed, service, rho * 1000.0, (unsigned long long)count);
	ck_assert_uint_eq(r->s.ops, count);
	ck_assert_uint_eq(r->s.errors, 0);
}

/* The seed of the open-loop runs.  RS_TEST_SEED overrides it, to try the
 * bounds with other seeds by hand; RS_TEST_VERBOSE=1 prints each
 * estimate's error.  The bounds hold for seeds 1 (the default) to 6. */
static uint64_t qseed(void)
{
	const char *s = getenv("RS_TEST_SEED");
	return s ? strtoull(s, NULL, 10) : 1;
}

static void say(const char *what, double rho, double got, double want)
{
	if (getenv("RS_TEST_VERBOSE"))
		fprintf(stderr, "%s rho %.2f seed %llu: %.6g vs %.6g (%+.3f%%)\n", what, rho,
			(unsigned long long)qseed(), got, want, 100.0 * (got - want) / want);
}

/* M/M/1: mean response 1/(mu - lambda).  The sample mean of an M/M/1
 * queue converges slowly as rho -> 1: its asymptotic variance is
 * rho(2 + 5rho - 4rho^2 + rho^3) / (mu^2 (1 - rho)^4) per request (Daley),
 * a relative standard error of 0.27% at rho 0.5, 0.89% at 0.8 and 1.9% at
 * 0.9 over 10^6 requests.  A 2% bound must hold with a margin of several
 * standard errors, so 0.8 uses 4*10^6 requests (0.44%) and 0.9 uses
 * 1.6*10^7 (0.47%). */
static void mm1(double rho, uint64_t count)
{
	struct tu_run r;
	open_loop(&r, "exponential", rho, count, qseed());
	double want_ms = 1.0 / (1.0 - rho);          /* 1/(mu - lambda), mu = 1/ms */
	say("M/M/1 response", rho, r.s.lat_mean_ms, want_ms);
	tu_assert_rel(r.s.lat_mean_ms, want_ms, 0.02);
	/* Throughput is the arrival rate and utilisation is rho. */
	tu_assert_rel(r.s.iops, rho * 1000.0, 0.02);
	tu_assert_rel(r.dev.utilisation, rho, 0.02);
}

START_TEST(mm1_rho_050) { mm1(0.5, 1000000); }
END_TEST
START_TEST(mm1_rho_080) { mm1(0.8, 4000000); }
END_TEST
START_TEST(mm1_rho_090) { mm1(0.9, 16000000); }
END_TEST

/* M/D/1: mean wait rho / (2 mu (1 - rho)) (Pollaczek-Khinchine); the
 * service is exactly 1 ms, so the wait is the response less 1 ms. */
static void md1(double rho, uint64_t count)
{
	struct tu_run r;
	open_loop(&r, "fixed", rho, count, qseed());
	double want_wait_ms = rho / (2.0 * (1.0 - rho));
	say("M/D/1 wait", rho, r.s.lat_mean_ms - 1.0, want_wait_ms);
	tu_assert_rel(r.s.lat_mean_ms - 1.0, want_wait_ms, 0.02);
	ck_assert_double_ge(r.s.lat_p50_ms, 1.0 * (1 - 1e-3));
}

START_TEST(md1_rho_050) { md1(0.5, 1000000); }
END_TEST
START_TEST(md1_rho_080) { md1(0.8, 4000000); }
END_TEST

/* Closed loop with fixed service: no randomness at all, so throughput and
 * Little's law hold to rounding.  The ramp and the run are whole multiples
 * of the service time, so the window holds whole service periods. */
static void closed(uint64_t n, uint64_t k, rs_time_t service_us)
{
	struct tu_run r;
	tu_run(&r,
	       "device: {type: ideal, service: fixed, mean: %lldus, servers: %llu}\n"
	       "workload:\n"
	       "  iometer: {spec: default, outstanding: %llu, ramp: %lldus, run: %lldus}\n",
	       (long long)service_us, (unsigned long long)k, (unsigned long long)n,
	       (long long)(200 * service_us), (long long)(20000 * service_us));
	double s = (double)service_us * 1e-6;
	double busy = (double)(n < k ? n : k);
	tu_assert_rel(r.s.iops, busy / s, 1e-9);
	/* Little: N = X R. */
	tu_assert_rel(r.s.lat_mean_ms * 1e-3, (double)n / (busy / s), 1e-9);
	tu_assert_rel(r.dev.utilisation, busy / (double)k, 1e-9);
	tu_assert_rel(r.dev.queue_depth, (double)n, 1e-9);
	ck_assert_uint_eq(r.s.ops, (uint64_t)(20000 * busy));
}

START_TEST(closed_one_server)
{
	closed(1, 1, 100);
	closed(4, 1, 100);
	closed(16, 1, 250);
	closed(64, 1, 100);
}
END_TEST

START_TEST(closed_k_servers)
{
	closed(4, 4, 100);            /* N = k */
	closed(8, 4, 100);            /* N > k */
	closed(12, 4, 100);
	closed(1, 4, 100);            /* N < k: N/S */
	closed(3, 4, 100);
	closed(16, 16, 50);
	closed(7, 16, 50);
}
END_TEST

/* The k-server open loop (M/M/k): Erlang C, at a utilisation with little
 * noise; catches a device that serves k at a time but queues wrongly. */
START_TEST(mmk_erlang_c)
{
	const unsigned k = 4;
	const double rho = 0.6, a = k * rho;      /* offered load, erlangs */
	double sum = 0, term = 1;
	for (unsigned i = 0; i < k; i++) {
		sum += term;
		term *= a / (i + 1);
	}
	/* term = a^k / k! */
	double last = term / (1 - rho);
	double pwait = last / (sum + last);
	double want_ms = 1.0 + pwait / (k * (1 - rho));   /* mu = 1/ms */
	struct tu_run r;
	tu_run(&r,
	       "seed: %llu\n"
	       "device: {type: ideal, service: exponential, mean: 1ms, servers: %u}\n"
	       "workload:\n"
	       "  iometer: {spec: default, rate: %.17g, ramp: 5s, run: 1000000s, count: 2000000}\n",
	       (unsigned long long)qseed(), k, a * 1000.0);
	say("M/M/4 response", rho, r.s.lat_mean_ms, want_ms);
	tu_assert_rel(r.s.lat_mean_ms, want_ms, 0.01);
	tu_assert_rel(r.dev.utilisation, rho, 0.01);
}
END_TEST

/* ---- devices inside devices: loops, depth and size --------------------- */

/* A folder of model files for one test, given as name, text pairs. */
struct model_dir {
	char path[256];
	struct rs_model_path mp;
	struct rs_sim *sim;
};

static void model_dir_open(struct model_dir *md, const char *const *files)
{
	struct rs_diag d;

	snprintf(md->path, sizeof(md->path), "/tmp/check_dev.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(md->path));
	for (size_t i = 0; files[i]; i += 2) {
		char file[512];
		snprintf(file, sizeof(file), "%s/%s.yaml", md->path, files[i]);
		FILE *f = fopen(file, "w");
		ck_assert_ptr_nonnull(f);
		fputs(files[i + 1], f);
		fclose(f);
	}
	unsetenv("RAIDSIM_MODELS");
	rs_diag_init(&d);
	rs_model_path_init(&md->mp);
	ck_assert_int_eq(rs_model_path_add(&md->mp, md->path, &d), 0);
	md->sim = rs_sim_new(1);
}

static void model_dir_close(struct model_dir *md)
{
	char cmd[300];
	rs_sim_free(md->sim);
	rs_model_path_free(&md->mp);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", md->path);
	ck_assert_int_eq(system(cmd), 0);
}

/* Build `text` as the device with the models of md; the diagnostic (or
 * "built") into d. */
static struct rs_dev *build_with(struct model_dir *md, const char *text, struct rs_diag *d)
{
	rs_diag_init(d);
	struct rs_node *root = rs_yaml_load_string("in.yaml", text, strlen(text), d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .sim = md->sim, .types = rs_tree_types(), .models = &md->mp, .diag = d,
			      .check_only = true };
	struct rs_dev *dev = rs_dev_build(&b, root, "device", "dut");
	ck_assert_ptr_null(b.chain);
	ck_assert_uint_eq(b.nesting, 0);
	rs_node_free(root);
	return dev;
}

static void assert_diag(const struct rs_diag *d, const char *file_end, int line, int col,
			const char *msg)
{
	size_t n = strlen(d->file), k = strlen(file_end);
	ck_assert_msg(d->failed, "expected '%s'", msg);
	ck_assert_str_eq(d->msg, msg);
	ck_assert_msg(n >= k && strcmp(d->file + n - k, file_end) == 0, "file %s", d->file);
	ck_assert_int_eq(d->line, line);
	ck_assert_int_eq(d->col, col);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* These used to recurse in rs_dev_build until the stack overflowed. */
START_TEST(model_contains_itself)
{
	static const char *const files[] = {
		"loop", "type: array\nlevel: raid0\ndisks: {model: loop, count: 2}\n",
		"a", "type: array\nlevel: raid0\ndisks: {model: b, count: 2}\n",
		"b", "type: array\nlevel: raid1\nmembers: [{type: ideal}, {model: a}]\n",
		"gw", "type: iscsi-target\ndisks: {model: gw}\n",
		"box", "type: controller\narray: {type: array, level: raid0,\n"
		       "  members: [{type: ideal}, {model: box}]}\n",
		"leaf", "type: ideal\nmean: 1ms\n",
		"pair", "type: array\nlevel: raid1\ndisks: {model: leaf, count: 2}\n",
		NULL,
	};
	struct model_dir md;
	struct rs_diag d;
	model_dir_open(&md, files);

	ck_assert_ptr_null(build_with(&md, "model: loop\n", &d));
	assert_diag(&d, "/loop.yaml", 3, 16, "model 'loop' contains itself (loop -> loop)");
	/* Blamed in the file of the model that contains itself, where it
	 * names the next one. */
	ck_assert_ptr_null(build_with(&md, "model: a\n", &d));
	assert_diag(&d, "/a.yaml", 3, 16, "model 'a' contains itself (a -> b -> a)");
	ck_assert_ptr_null(build_with(&md, "model: b\n", &d));
	assert_diag(&d, "/b.yaml", 3, 34, "model 'b' contains itself (b -> a -> b)");
	/* Through each shape of inner section. */
	ck_assert_ptr_null(build_with(&md, "model: gw\n", &d));
	assert_diag(&d, "/gw.yaml", 2, 16, "model 'gw' contains itself (gw -> gw)");
	ck_assert_ptr_null(build_with(&md, "model: box\n", &d));
	assert_diag(&d, "/box.yaml", 3, 36, "model 'box' contains itself (box -> box)");
	/* The same model twice side by side is no loop. */
	struct rs_dev *dev = build_with(&md, "type: array\nlevel: raid0\n"
					"members: [{model: pair}, {model: pair}]\n", &d);
	ck_assert_msg(dev != NULL, "%s", d.msg);
	rs_dev_destroy(dev);
	model_dir_close(&md);
}
END_TEST

START_TEST(model_depth_capped)
{
	static const char *const files[] = {
		"m1", "type: array\nlevel: raid0\nmembers: [{model: m2}]\n",
		"m2", "type: array\nlevel: raid0\nmembers: [{model: m3}]\n",
		"m3", "type: array\nlevel: raid0\nmembers: [{model: m4}]\n",
		"m4", "type: ideal\n",
		NULL,
	};
	struct model_dir md;
	struct rs_diag d;
	char why[128];
	model_dir_open(&md, files);

	rs_limits_reset();
	struct rs_dev *dev = build_with(&md, "model: m1\n", &d);
	ck_assert_msg(dev != NULL, "%s", d.msg);
	rs_dev_destroy(dev);
	ck_assert_int_eq(rs_limits_set("model_depth=3", why, sizeof(why)), 0);
	ck_assert_ptr_null(build_with(&md, "model: m1\n", &d));
	assert_diag(&d, "/m3.yaml", 3, 19, "models nested 4 deep (m1 -> m2 -> m3 -> m4), more "
		    "than the cap model_depth=3 (raise it with --limit model_depth=N)");
	rs_limits_reset();
	model_dir_close(&md);
}
END_TEST

/* Four arrays deep, 64 members each: 17 million devices, which used to be
 * built (all memory, for minutes).  Now counted first, in no time. */
START_TEST(device_count_capped)
{
	static const char *const files[] = {
		"wide", "type: array\nlevel: raid0\n"
			"members: [{model: w2}, {model: w2}, {model: w2}, {model: w2}]\n",
		"w2", "type: array\nlevel: raid0\n"
		      "members: [{model: w3}, {model: w3}, {model: w3}, {model: w3}]\n",
		"w3", "type: array\nlevel: raid0\nmembers: [{type: ideal}, {type: ideal}]\n",
		NULL,
	};
	static const char deep[] =
		"type: array\nlevel: raid0\ndisks:\n"
		"  type: array\n  level: raid0\n  count: 64\n  disks:\n"
		"    type: array\n    level: raid0\n    count: 64\n    disks:\n"
		"      type: array\n      level: raid0\n      count: 64\n      disks:\n"
		"        {type: ideal, count: 64}\n";
	struct model_dir md;
	struct rs_diag d;
	char why[128];
	uint64_t n;
	bool exact;
	model_dir_open(&md, files);
	rs_limits_reset();

	struct rs_node *root = rs_yaml_load_string("in.yaml", deep, strlen(deep), &d);
	struct rs_build b = { .types = rs_tree_types(), .models = &md.mp, .diag = &d };
	ck_assert_int_eq(rs_dev_count(&b, root, &n, &exact), 0);
	ck_assert_uint_eq(n, 1 + 64 + 64 * 64 + 64 * 64 * 64 + 64 * 64 * 64 * 64);
	ck_assert(exact);
	rs_node_free(root);

	double t0 = now_s();
	ck_assert_ptr_null(build_with(&md, deep, &d));
	/* The third count takes the total over 65536. */
	assert_diag(&d, "in.yaml", 14, 14, "device builds 17043521 devices, more than the cap "
		    "devices=65536 (raise it with --limit devices=N)");
	ck_assert_msg(now_s() - t0 < 0.5, "refusing took %.2f s", now_s() - t0);

	/* Lists of models: 1 + 4 + 16 + 32 devices. */
	root = rs_yaml_load_string("in.yaml", "model: wide\n", 12, &d);
	ck_assert_int_eq(rs_dev_count(&b, root, &n, &exact), 0);
	ck_assert_uint_eq(n, 53);
	ck_assert(exact);
	ck_assert_int_eq(rs_limits_set("devices=53", why, sizeof(why)), 0);
	struct rs_dev *dev = build_with(&md, "model: wide\n", &d);
	ck_assert_msg(dev != NULL, "%s", d.msg);
	rs_dev_destroy(dev);
	ck_assert_int_eq(rs_limits_set("devices=52", why, sizeof(why)), 0);
	ck_assert_ptr_null(build_with(&md, "model: wide\n", &d));
	assert_diag(&d, "/w3.yaml", 3, 26, "device builds 53 devices, more than the cap "
		    "devices=52 (raise it with --limit devices=N)");
	/* Far past the cap, the walk stops: the total is a floor. */
	ck_assert_int_eq(rs_limits_set("devices=2", why, sizeof(why)), 0);
	ck_assert_int_eq(rs_dev_count(&b, root, &n, &exact), 0);
	ck_assert(!exact);
	ck_assert_uint_lt(n, 53);
	ck_assert_ptr_null(build_with(&md, "model: wide\n", &d));
	ck_assert_str_eq(d.msg, "device builds at least 3 devices, more than the cap "
			 "devices=2 (raise it with --limit devices=N)");
	rs_node_free(root);

	/* A count too large for 64 bits saturates instead of wrapping. */
	rs_limits_reset();
	ck_assert_ptr_null(build_with(&md, "type: array\nlevel: raid0\n"
				      "disks: {type: ideal, count: 18446744073709551615}\n", &d));
	ck_assert_str_eq(d.msg, "device builds over 18446744073709551615 devices, more than the "
			 "cap devices=65536 (raise it with --limit devices=N)");
	rs_limits_reset();
	model_dir_close(&md);
}
END_TEST

/* Every shipped scenario, at every point of its sweep, stays well within
 * the default caps: they are there for hostile files, not for studies. */
struct shipped {
	struct rs_model_path mp;
	unsigned scenarios;
	uint64_t most_devices, most_points;
};

static void check_shipped(struct shipped *sh, const char *path)
{
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *root = rs_yaml_load_file(path, &d);
	ck_assert_msg(root != NULL, "%s: %s", path, d.msg);
	const struct rs_node *device = rs_node_get(root, "device");
	if (!device) {
		rs_node_free(root);
		return;
	}
	struct rs_sweep sw;
	ck_assert_msg(rs_sweep_parse(rs_node_get(root, "sweep"), &sw, &d) == 0, "%s: %s", path,
		      d.msg);
	const struct rs_limits *cap = rs_limits();
	size_t points = rs_sweep_points(&sw);
	ck_assert_msg(points <= cap->sweep_points / 10, "%s: %zu points", path, points);
	for (size_t a = 0; a < sw.naxes; a++)
		ck_assert_uint_le(sw.axes[a].count, cap->sweep_values / 10);
	if (points > sh->most_points)
		sh->most_points = points;
	for (size_t i = 0; i < points; i++) {
		struct rs_node *pt = rs_sweep_apply(&sw, root, i, &d);
		ck_assert_msg(pt != NULL, "%s: %s", path, d.msg);
		struct rs_build b = { .types = rs_tree_types(), .models = &sh->mp, .diag = &d };
		uint64_t n;
		bool exact;
		ck_assert_int_eq(rs_dev_count(&b, rs_node_get(pt, "device"), &n, &exact), 0);
		ck_assert_msg(exact && n <= cap->devices / 10, "%s point %zu: %llu devices", path,
			      i, (unsigned long long)n);
		if (n > sh->most_devices)
			sh->most_devices = n;
		rs_node_free(pt);
	}
	sh->scenarios++;
	rs_sweep_free(&sw);
	rs_node_free(root);
}

static void walk_shipped(struct shipped *sh, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	ck_assert_msg(n >= 0, "cannot read %s", dir);
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		size_t len = strlen(names[i]->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				walk_shipped(sh, path);
			else if (len > 5 && strcmp(names[i]->d_name + len - 5, ".yaml") == 0)
				check_shipped(sh, path);
		}
		free(names[i]);
	}
	free(names);
}

START_TEST(shipped_scenarios_within_caps)
{
	const char *top = getenv("top_srcdir");
	if (!top)
		return;  /* run by hand outside make check: nothing to find */
	struct shipped sh = { .scenarios = 0 };
	struct rs_diag d;
	char dir[4096];
	rs_limits_reset();
	rs_diag_init(&d);
	tu_model_path(&sh.mp, &d);
	snprintf(dir, sizeof(dir), "%s/scenarios", top);
	walk_shipped(&sh, dir);
	ck_assert_uint_ge(sh.scenarios, 20);
	fprintf(stderr, "shipped scenarios: %u, at most %llu devices and %llu points\n",
		sh.scenarios, (unsigned long long)sh.most_devices,
		(unsigned long long)sh.most_points);
	rs_model_path_free(&sh.mp);
}
END_TEST

/* ---- the relay's completion --------------------------------------------
 * rs_io_relay_finish completes through rs_dev_complete_relayed, which
 * skips the assertions of the completion that gave the request back.  A
 * twin run that ends each relay by hand and completes through the general
 * rs_dev_complete must see the same thing at every step: the statuses,
 * the times, the devices' counts and averages, the submitter's callback. */

struct rl_layer {
	struct rs_dev *below;
	bool general;                 /* complete through rs_dev_complete */
	int status;                   /* the layer's own status at its finish */
	rs_time_t work;
	char trail[64];               /* what the layer saw, in order */
};

static void rl_note(struct rl_layer *l, char c)
{
	size_t n = strlen(l->trail);
	if (n + 1 < sizeof(l->trail)) {
		l->trail[n] = c;
		l->trail[n + 1] = '\0';
	}
}

static void rl_finish(struct rs_sim *sim, void *obj, void *arg)
{
	struct rl_layer *l = obj;
	struct rs_io *io = arg;
	if (l->general) {
		struct rs_dev *dev = rs_io_relay_end(io);
		rs_dev_complete(sim, dev, io, l->status);
	} else {
		rs_io_relay_finish(sim, io, l->status);
	}
}

static void rl_back(struct rs_sim *sim, struct rs_io *io)
{
	struct rl_layer *l = rs_io_relay_top(io)->dev->priv;
	rl_note(l, io->status == 0 ? 'k' : 'e');
	rl_note(l, io->state == RS_IO_LIVE ? 'L' : 'x');
	rs_sched(sim, l->work, rl_finish, l, io);
}

static void rl_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct rl_layer *l = dev->priv;
	rs_io_relay(io, dev, rl_back);
	rs_dev_submit(sim, l->below, io);
}

static const struct rs_dev_type rl_type = { .name = "relay", .submit = rl_submit };

static void rl_below_event(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_io *io = arg;
	/* Odd blocks fail below. */
	rs_dev_complete(sim, obj, io, io->lba % 2 ? -RS_ERR_EIO : 0);
}

static void rl_below_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	rs_sched(sim, 10 + (rs_time_t)io->lba, rl_below_event, dev, io);
}

static const struct rs_dev_type rl_below_type = { .name = "below",
						  .submit = rl_below_submit };

struct rl_done {
	char trail[64];
	rs_time_t last;
};

static void rl_top_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rl_done *d = io->done_ctx;
	size_t n = strlen(d->trail);
	if (n + 2 < sizeof(d->trail)) {
		d->trail[n] = (char)('0' + io->lba);
		d->trail[n + 1] = io->status == 0 ? 'k' : io->status == -RS_ERR_EIO ? 'e' : 'a';
		d->trail[n + 2] = '\0';
	}
	d->last = rs_now(sim);
	rs_io_free(sim, io);
}

struct rl_run {
	struct rl_done done;
	char inner_trail[64], outer_trail[64];
	uint64_t completed[3];
	double inflight[3];
};

static void rl_run(bool general, int inner_status, struct rl_run *out)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_dev below = { .type = &rl_below_type }, inner, outer;
	struct rl_layer li = { .below = &below, .general = general, .status = inner_status,
			       .work = 5 };
	struct rl_layer lo = { .below = &inner, .general = general, .work = 7 };
	inner = (struct rs_dev){ .type = &rl_type, .priv = &li };
	outer = (struct rs_dev){ .type = &rl_type, .priv = &lo };
	struct rs_dev *devs[3] = { &below, &inner, &outer };
	for (int i = 0; i < 3; i++)
		rs_tavg_init(&devs[i]->inflight, 0, 0);
	memset(out, 0, sizeof(*out));
	/* Four requests, two through both layers, two through the inner. */
	for (uint64_t lba = 0; lba < 4; lba++) {
		struct rs_io *io = rs_io_new(sim, RS_READ, lba, 1, rl_top_done, &out->done);
		rs_dev_submit(sim, lba < 2 ? &outer : &inner, io);
	}
	rs_sim_run(sim, RS_TIME_MAX);
	memcpy(out->inner_trail, li.trail, sizeof(li.trail));
	memcpy(out->outer_trail, lo.trail, sizeof(lo.trail));
	for (int i = 0; i < 3; i++) {
		out->completed[i] = devs[i]->completed;
		out->inflight[i] = rs_tavg_mean(&devs[i]->inflight, 40);
		ck_assert_uint_eq(devs[i]->submitted, devs[i]->completed);
	}
	tu_check_conservation(sim);
	rs_sim_free(sim);
}

START_TEST(relay_finish_matches_general_completion)
{
	/* _i: the inner layer's own status at its finish (none, or an
	 * abort that the request keeps only if it has no status yet). */
	int status = _i ? -RS_ERR_EABORTED : 0;
	struct rl_run fast, general;
	rl_run(false, status, &fast);
	rl_run(true, status, &general);
	ck_assert_str_eq(fast.done.trail, general.done.trail);
	ck_assert_str_eq(fast.inner_trail, general.inner_trail);
	ck_assert_str_eq(fast.outer_trail, general.outer_trail);
	ck_assert_int_eq(fast.done.last, general.done.last);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(fast.completed[i], general.completed[i]);
		ck_assert_double_eq(fast.inflight[i], general.inflight[i]);
	}
	/* What both must be: every request done once; below's failures kept
	 * over the layer's own status, which the others take. */
	ck_assert_str_eq(fast.done.trail, _i ? "2a3e0a1e" : "2k3e0k1e");
	ck_assert_str_eq(fast.inner_trail, "kLeLkLeL");
	ck_assert_str_eq(fast.outer_trail, _i ? "eLeL" : "kLeL");
	ck_assert_int_eq(fast.done.last, 23);
	ck_assert_uint_eq(fast.completed[1], 4);
	ck_assert_uint_eq(fast.completed[2], 2);
}
END_TEST

static Suite *dev_suite(void)
{
	Suite *s = suite_create("dev");
	TCase *tc = tcase_create("link");
	tcase_add_test(tc, link_single_transfer);
	tcase_add_test(tc, link_priority_arbitration);
	tcase_add_test(tc, link_small_transfers_pay_overhead);
	tcase_add_test(tc, link_half_duplex_shares);
	tcase_add_test(tc, link_full_duplex_overlaps);
	tcase_add_test(tc, link_four_users_capped);
	tcase_add_test(tc, link_down_and_up);
	tcase_add_test(tc, link_busy_time_exact);
	tcase_add_test(tc, link_lone_path_matches_queued_path);
	tcase_add_test(tc, link_second_job_matches_pooled);
	tcase_add_test(tc, link_burst_time_follows_rate);
	tcase_add_test(tc, link_set_rate_keeps_burst_time);
	suite_add_tcase(s, tc);
	tc = tcase_create("relay");
	tcase_add_loop_test(tc, relay_finish_matches_general_completion, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("server");
	tcase_add_test(tc, server_k_fifo);
	tcase_add_test(tc, server_own_job_reused);
	tcase_add_test(tc, server_lone_path_matches_queued_path);
	tcase_add_test(tc, server_saturation);
	suite_add_tcase(s, tc);
	tc = tcase_create("ioq");
	tcase_add_test(tc, ioq_tags_fifo);
	tcase_add_test(tc, ioq_fifo_inline_matches_general);
	tcase_add_test(tc, ioq_depth_counts);
	suite_add_tcase(s, tc);
	tc = tcase_create("ideal");
	tcase_add_test(tc, ideal_from_yaml);
	tcase_add_test(tc, ideal_bad_yaml);
	suite_add_tcase(s, tc);
	tc = tcase_create("nesting");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, model_contains_itself);
	tcase_add_test(tc, model_depth_capped);
	tcase_add_test(tc, device_count_capped);
	tcase_add_test(tc, shipped_scenarios_within_caps);
	suite_add_tcase(s, tc);
	tc = tcase_create("queueing");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mm1_rho_050);
	tcase_add_test(tc, mm1_rho_080);
	tcase_add_test(tc, mm1_rho_090);
	tcase_add_test(tc, md1_rho_050);
	tcase_add_test(tc, md1_rho_080);
	tcase_add_test(tc, closed_one_server);
	tcase_add_test(tc, closed_k_servers);
	tcase_add_test(tc, mmk_erlang_c);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dev_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
