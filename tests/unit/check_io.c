/* Unit tests for src/io: fan-out/fan-in (the parent completes once, after
 * its last child, with the first error; a layer's child-done hook; holds
 * and releases), the exactly-once accounting, the double-completion
 * assertion and the name tables. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "dev/dev.h"
#include "dev/fanin.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "testutil.h"

/* Records completions of top-level requests. */
struct seen {
	int calls;
	int status;
	rs_time_t when;
	uint32_t pending_at_done;
};

static void top_done(struct rs_sim *sim, struct rs_io *io)
{
	struct seen *s = io->done_ctx;
	s->calls++;
	s->status = io->status;
	s->when = rs_now(sim);
	s->pending_at_done = io->pending;
	ck_assert_int_eq(io->state, RS_IO_DONE);
	ck_assert_int_eq(io->t_done, rs_now(sim));
	rs_io_free(sim, io);
}

/* A child completes at time `t` with status `arg`. */
struct child_plan {
	struct rs_io *io;
	int status;
};

static void ev_complete(struct rs_sim *sim, void *obj, void *arg)
{
	struct child_plan *p = obj;
	rs_io_complete(sim, p->io, p->status);
}

/* A child whose layer finishes it by hand, later. */
static void keep_child(struct rs_sim *sim, struct rs_io *child) {}

START_TEST(fanout_fanin)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	rs_sim_run(sim, 5);   /* t_submit must be "now" at creation */
	struct rs_io *parent = rs_io_new(sim, RS_WRITE, 1000, 64, top_done, &s);
	ck_assert_int_eq(parent->t_submit, 5);
	ck_assert_int_eq(parent->state, RS_IO_LIVE);
	struct child_plan kids[4];
	const rs_time_t at[4] = { 30, 10, 50, 20 };   /* the last one is the third */
	for (int i = 0; i < 4; i++) {
		kids[i].io = rs_io_child(sim, parent, RS_WRITE, 1000 + 16 * (uint64_t)i, 16, NULL,
					 NULL);
		kids[i].status = 0;
		ck_assert_ptr_eq(kids[i].io->parent, parent);
		rs_sched_at(sim, at[i], ev_complete, &kids[i], NULL);
	}
	ck_assert_uint_eq(parent->pending, 4);
	ck_assert_uint_eq(rs_io_counters(sim)->created, 5);
	/* Children do not count as top-level bytes. */
	ck_assert_uint_eq(rs_io_counters(sim)->bytes_created, 64 * RS_BLOCK_BYTES);
	rs_sim_run(sim, 49);
	ck_assert_int_eq(s.calls, 0);
	ck_assert_uint_eq(parent->pending, 1);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 50);
	ck_assert_int_eq(s.status, 0);
	ck_assert_uint_eq(s.pending_at_done, 0);
	tu_check_conservation(sim);
	ck_assert_uint_eq(rs_io_counters(sim)->created, 5);
	ck_assert_uint_eq(rs_io_counters(sim)->bytes_completed, 64 * RS_BLOCK_BYTES);
	rs_sim_free(sim);
}
END_TEST

/* A device that splits each request into three children, with the
 * shared fan-in reaching its type's child-done hook. */
struct fan3 {
	int hook_calls;
	struct rs_io *parent_seen;
	struct child_plan kids[3];
	rs_time_t at[3];
	int status[3];
};

static void fan3_child_done(struct rs_sim *sim, struct rs_io *child)
{
	struct fan3 *f = child->parent->dev->priv;
	f->hook_calls++;
	f->parent_seen = child->parent;
	rs_io_child_finished(sim, child, 0);
}

static void fan3_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct fan3 *f = dev->priv;
	for (int i = 0; i < 3; i++) {
		f->kids[i].io = rs_io_child(sim, io, io->op, io->lba + 8 * (uint64_t)i, 8, NULL,
					    NULL);
		f->kids[i].status = f->status[i];
		rs_sched_at(sim, f->at[i], ev_complete, &f->kids[i], NULL);
	}
}

static const struct rs_dev_type fan3_type = {
	.name = "fan3",
	.submit = fan3_submit,
	.child_done = fan3_child_done,
};

static void fan3_dev(struct rs_dev *dev, struct fan3 *f)
{
	*dev = (struct rs_dev){ .type = &fan3_type, .priv = f };
	rs_tavg_init(&dev->inflight, 0, 0);
}

/* Three children through a layer's hook: the hook sees each, the parent
 * completes once, after the last (not the last created), with the first
 * error in completion order, and through its device's accounting. */
START_TEST(fanin_layer_hook)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct fan3 f = { .at = { 40, 10, 25 },
			  .status = { -RS_ERR_EIO, 0, -RS_ERR_ETIMEDOUT } };
	struct rs_dev dev;
	fan3_dev(&dev, &f);
	struct seen s = { 0 };
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 24, top_done, &s);
	rs_dev_submit(sim, &dev, io);
	ck_assert_ptr_eq(io->dev, &dev);
	ck_assert_uint_eq(io->pending, 3);
	rs_sim_run(sim, 39);
	ck_assert_int_eq(f.hook_calls, 2);
	ck_assert_int_eq(s.calls, 0);
	ck_assert_uint_eq(dev.completed, 0);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(f.hook_calls, 3);
	ck_assert_ptr_eq(f.parent_seen, io);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 40);
	ck_assert_int_eq(s.status, -RS_ERR_ETIMEDOUT);
	ck_assert_uint_eq(dev.submitted, 1);
	ck_assert_uint_eq(dev.completed, 1);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* An explicit `done` wins over the layer's hook. */
static int explicit_calls;
static void explicit_done(struct rs_sim *sim, struct rs_io *child)
{
	explicit_calls++;
	rs_io_child_finished(sim, child, 0);
}

START_TEST(fanin_explicit_over_hook)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct fan3 f = { 0 };
	struct rs_dev dev;
	fan3_dev(&dev, &f);
	struct seen s = { 0 };
	struct rs_io *io = rs_io_new(sim, RS_WRITE, 0, 8, top_done, &s);
	io->dev = &dev;               /* as rs_dev_submit leaves it */
	explicit_calls = 0;
	struct rs_io *c = rs_io_child(sim, io, RS_WRITE, 0, 8, explicit_done, NULL);
	rs_io_complete(sim, c, 0);
	ck_assert_int_eq(explicit_calls, 1);
	ck_assert_int_eq(f.hook_calls, 0);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_uint_eq(dev.completed, 1);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

static void ev_release(struct rs_sim *sim, void *obj, void *arg)
{
	rs_io_release(sim, obj);
}

/* A hold keeps the parent open after its last child; the release at t=70
 * completes it, once, with the child's error. */
START_TEST(hold_release)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	struct rs_io *parent = rs_io_new(sim, RS_WRITE, 0, 16, top_done, &s);
	rs_io_hold(parent);
	struct child_plan kid = { rs_io_child(sim, parent, RS_WRITE, 0, 16, NULL, NULL),
				  -RS_ERR_EIO };
	rs_sched_at(sim, 20, ev_complete, &kid, NULL);
	rs_sched_at(sim, 70, ev_release, parent, NULL);
	rs_sim_run(sim, 69);
	ck_assert_int_eq(s.calls, 0);
	ck_assert_uint_eq(parent->pending, 1);
	ck_assert_int_eq(parent->status, -RS_ERR_EIO);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 70);
	ck_assert_int_eq(s.status, -RS_ERR_EIO);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* Detach frees the child and leaves the parent to its layer without its
 * error (a retry elsewhere); fold keeps the status passed over the
 * child's. */
START_TEST(detach_and_fold)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	struct rs_io *parent = rs_io_new(sim, RS_READ, 0, 8, top_done, &s);
	struct rs_io *a = rs_io_child(sim, parent, RS_READ, 0, 8, keep_child, NULL);
	rs_io_complete(sim, a, -RS_ERR_ENOPATH);
	ck_assert_int_eq(rs_io_child_detach(sim, a), -RS_ERR_ENOPATH);
	ck_assert_uint_eq(parent->pending, 0);
	ck_assert_int_eq(parent->status, 0);
	struct rs_io *b = rs_io_child(sim, parent, RS_READ, 0, 8, keep_child, NULL);
	rs_io_complete(sim, b, -RS_ERR_EIO);
	ck_assert_ptr_eq(rs_io_child_fold(sim, b, -RS_ERR_ELINKDOWN), parent);
	ck_assert_int_eq(parent->status, -RS_ERR_ELINKDOWN);
	ck_assert_int_eq(s.calls, 0);
	rs_io_finish(sim, parent, 0);   /* on no device: plain completion */
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.status, -RS_ERR_ELINKDOWN);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* The first error in completion order wins; later errors and successes
 * do not overwrite it. */
START_TEST(fanin_first_error)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	struct rs_io *parent = rs_io_new(sim, RS_READ, 0, 24, top_done, &s);
	struct child_plan kids[3];
	const rs_time_t at[3] = { 10, 20, 30 };
	const int st[3] = { 0, -RS_ERR_ETIMEDOUT, -RS_ERR_EIO };
	for (int i = 0; i < 3; i++) {
		kids[i].io = rs_io_child(sim, parent, RS_READ, 8 * (uint64_t)i, 8, NULL, NULL);
		kids[i].status = st[i];
		rs_sched_at(sim, at[i], ev_complete, &kids[i], NULL);
	}
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.status, -RS_ERR_ETIMEDOUT);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* Two levels (an array over controllers over disks): the grandparent
 * completes once, after the last grandchild. */
START_TEST(fanout_nested)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	struct rs_io *top = rs_io_new(sim, RS_READ, 0, 32, top_done, &s);
	struct child_plan leaves[6];
	int k = 0;
	for (int i = 0; i < 2; i++) {
		struct rs_io *mid = rs_io_child(sim, top, RS_READ, 16 * (uint64_t)i, 16, NULL, NULL);
		for (int j = 0; j < 3; j++, k++) {
			leaves[k].io = rs_io_child(sim, mid, RS_READ, mid->lba, 16, NULL, NULL);
			leaves[k].status = k == 4 ? -RS_ERR_ENOPATH : 0;
			rs_sched_at(sim, 100 - 10 * k, ev_complete, &leaves[k], NULL);
		}
	}
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 100);
	ck_assert_int_eq(s.status, -RS_ERR_ENOPATH);
	ck_assert_uint_eq(rs_io_counters(sim)->created, 9);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* Layers with their own child callback do the fan-in by hand. */
static int own_calls;
static void own_child_done(struct rs_sim *sim, struct rs_io *child)
{
	own_calls++;
	ck_assert_ptr_eq(child->done_ctx, &own_calls);
	rs_io_child_finished(sim, child, 0);
}

START_TEST(fanin_by_hand)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct seen s = { 0 };
	own_calls = 0;
	struct rs_io *parent = rs_io_new(sim, RS_FLUSH, 0, 0, top_done, &s);
	struct rs_io *a = rs_io_child(sim, parent, RS_FLUSH, 0, 0, own_child_done, &own_calls);
	struct rs_io *b = rs_io_child(sim, parent, RS_FLUSH, 0, 0, own_child_done, &own_calls);
	rs_io_complete(sim, a, -RS_ERR_EABORTED);
	ck_assert_int_eq(s.calls, 0);
	rs_io_complete(sim, b, 0);
	ck_assert_int_eq(own_calls, 2);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.status, -RS_ERR_EABORTED);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

static void free_on_done(struct rs_sim *sim, struct rs_io *io) { rs_io_free(sim, io); }

START_TEST(counters_and_bytes)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t bytes = 0;
	for (uint32_t i = 1; i <= 1000; i++) {
		struct rs_io *io = rs_io_new(sim, i % 2 ? RS_READ : RS_WRITE, i, i, free_on_done,
					     NULL);
		bytes += (uint64_t)i * RS_BLOCK_BYTES;
		ck_assert_uint_eq(rs_io_bytes(io), (uint64_t)i * 512);
		ck_assert_uint_eq(rs_io_counters(sim)->created - rs_io_counters(sim)->completed, 1);
		rs_io_complete(sim, io, 0);
	}
	const struct rs_io_counters *c = rs_io_counters(sim);
	ck_assert_uint_eq(c->created, 1000);
	ck_assert_uint_eq(c->completed, 1000);
	ck_assert_uint_eq(c->freed, 1000);
	ck_assert_uint_eq(c->bytes_created, bytes);
	ck_assert_uint_eq(c->bytes_completed, bytes);
	tu_check_conservation(sim);
	/* One at a time in flight: the pool never needed a second chunk. */
	ck_assert_uint_le(sim->ios.capacity, 256);
	rs_sim_free(sim);
}
END_TEST

/* A request owner that does not free on completion: the counters show the
 * leak until it does. */
static void keep(struct rs_sim *sim, struct rs_io *io) {}

/* ---- the relay ------------------------------------------------------------
 * A pass-through layer hands the request itself to a device below; the
 * lower device's completion brings it back to the layer, live, and the
 * layer completes it through its own device later. */

struct relay_layer {
	struct rs_dev *below;
	int back_calls;
	int back_status;
	bool back_live;
	struct rs_dev *back_dev;
	rs_time_t finish_after;
};

static void relay_finish_event(struct rs_sim *sim, void *obj, void *arg)
{
	rs_io_relay_finish(sim, arg, 0);
}

static void relay_back(struct rs_sim *sim, struct rs_io *io)
{
	struct relay_layer *l = rs_io_relay_top(io)->dev->priv;
	l->back_calls++;
	l->back_status = io->status;
	l->back_live = io->state == RS_IO_LIVE;
	l->back_dev = io->dev;
	/* The layer's own work after the device below, then done. */
	rs_sched(sim, l->finish_after, relay_finish_event, NULL, io);
}

static void relay_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct relay_layer *l = dev->priv;
	ck_assert(rs_io_relayable(io));
	rs_io_relay(io, dev, relay_back);
	rs_dev_submit(sim, l->below, io);
}

static const struct rs_dev_type relay_type = { .name = "relay", .submit = relay_submit };

/* The device below: completes what it gets at t = 10 with EIO. */
static void below_event(struct rs_sim *sim, void *obj, void *arg)
{
	rs_dev_complete(sim, obj, arg, -RS_ERR_EIO);
}

static void below_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	rs_sched(sim, 10, below_event, dev, io);
}

static const struct rs_dev_type below_type = { .name = "below", .submit = below_submit };

START_TEST(relay_back_then_through_its_device)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_dev below = { .type = &below_type }, relay;
	struct relay_layer l = { .below = &below, .finish_after = 5 };
	relay = (struct rs_dev){ .type = &relay_type, .priv = &l };
	rs_tavg_init(&below.inflight, 0, 0);
	rs_tavg_init(&relay.inflight, 0, 0);
	struct seen s = { 0 };
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, top_done, &s);
	rs_dev_submit(sim, &relay, io);
	ck_assert_ptr_eq(io->dev, &below);
	rs_sim_run(sim, RS_TIME_MAX);
	/* Back once, from the device below, still live, with the status it
	 * gave; complete once, through the relaying device, after the
	 * layer's own work. */
	ck_assert_int_eq(l.back_calls, 1);
	ck_assert(l.back_live);
	ck_assert_ptr_eq(l.back_dev, &below);
	ck_assert_int_eq(l.back_status, -RS_ERR_EIO);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 15);
	ck_assert_int_eq(s.status, -RS_ERR_EIO);
	ck_assert_uint_eq(below.completed, 1);
	ck_assert_uint_eq(relay.submitted, 1);
	ck_assert_uint_eq(relay.completed, 1);
	ck_assert_double_eq(rs_tavg_mean(&relay.inflight, 20), 15.0 / 20);
	ck_assert_double_eq(rs_tavg_mean(&below.inflight, 20), 10.0 / 20);
	/* One request, completed once. */
	ck_assert_uint_eq(rs_io_counters(sim)->created, 1);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

/* Layers relay one inside another: the request goes back to the inner
 * one first, then through each relaying device in turn, each once; with
 * every relay taken the request is relayable no more. */
START_TEST(relays_nest_inner_first)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_dev below = { .type = &below_type }, inner, outer;
	struct relay_layer li = { .below = &below, .finish_after = 5 };
	struct relay_layer lo = { .below = &inner, .finish_after = 7 };
	inner = (struct rs_dev){ .type = &relay_type, .priv = &li };
	outer = (struct rs_dev){ .type = &relay_type, .priv = &lo };
	rs_tavg_init(&below.inflight, 0, 0);
	rs_tavg_init(&inner.inflight, 0, 0);
	rs_tavg_init(&outer.inflight, 0, 0);
	struct seen s = { 0 };
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, top_done, &s);
	rs_dev_submit(sim, &outer, io);
	ck_assert_uint_eq(rs_io_relays(io), 2);
	ck_assert_ptr_eq(rs_io_relay_top(io)->dev, &inner);
	rs_sim_run(sim, RS_TIME_MAX);
	/* The inner layer has it back from below at 10, the outer from the
	 * inner at 15, the submitter from the outer at 22. */
	ck_assert_int_eq(li.back_calls, 1);
	ck_assert_ptr_eq(li.back_dev, &below);
	ck_assert_int_eq(lo.back_calls, 1);
	ck_assert_ptr_eq(lo.back_dev, &inner);
	ck_assert(lo.back_live);
	ck_assert_int_eq(lo.back_status, -RS_ERR_EIO);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.when, 22);
	ck_assert_int_eq(s.status, -RS_ERR_EIO);
	ck_assert_uint_eq(inner.completed, 1);
	ck_assert_uint_eq(outer.completed, 1);
	ck_assert_double_eq(rs_tavg_mean(&inner.inflight, 22), 15.0 / 22);
	ck_assert_double_eq(rs_tavg_mean(&outer.inflight, 22), 1.0);
	ck_assert_uint_eq(rs_io_counters(sim)->created, 1);
	tu_check_conservation(sim);

	io = rs_io_new(sim, RS_READ, 0, 8, top_done, &s);
	io->dev = &outer;
	for (int i = 0; i < RS_IO_RELAYS; i++)
		rs_io_relay(io, &outer, relay_back);
	ck_assert(!rs_io_relayable(io));
	for (int i = 0; i < RS_IO_RELAYS; i++)
		rs_io_relay_end(io);
	ck_assert(rs_io_relayable(io) && !rs_io_relayed(io));
	rs_io_complete(sim, io, 0);
	rs_sim_free(sim);
}
END_TEST

/* A request taken again from the pool starts clean: every field its
 * constructor does not set is zero, whatever the last user left there. */
START_TEST(reused_request_is_clean)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io *parent = rs_io_new(sim, RS_WRITE, 7, 8, keep, NULL);
	parent->fua = true;
	struct rs_io *io = rs_io_new_child(sim, parent, RS_WRITE, 1, 2, keep, NULL);
	ck_assert(io->fua);
	struct rs_io *first = io;
	io->t_issue = 123;
	io->qnext = io->qprev = io;
	io->dev = (struct rs_dev *)io;
	io->up.mp_path = 5;
	io->at.hdd.slot = 9;
	io->at.hdd.arrived = 77;
	io->status = -1;
	rs_io_complete(sim, io, 0);
	/* What completion leaves, and what a relay would have left. */
	io->t_done = 55;
	io->relays[0] = (struct rs_io_relay){ keep, (struct rs_dev *)io, 5, 6, 7 };
	io->relay_top = &io->relays[1];
	io->up.raid = (struct mop *)io;
	rs_io_child_detach(sim, io);
	io = rs_io_new_child(sim, parent, RS_READ, 3, 4, keep, sim);
	ck_assert_ptr_eq(io, first);
	ck_assert_int_eq(io->op, RS_READ);
	ck_assert_int_eq(io->state, RS_IO_LIVE);
	ck_assert_uint_eq(io->lba, 3);
	ck_assert_uint_eq(io->nblk, 4);
	ck_assert_int_eq(io->status, 0);
	ck_assert_int_eq(io->t_submit, 0);
	ck_assert_int_eq(io->t_issue, 0);
	ck_assert_int_eq(io->t_done, 0);
	ck_assert_ptr_eq(io->parent, parent);
	ck_assert_uint_eq(io->pending, 0);
	ck_assert_ptr_eq(io->done_ctx, sim);
	ck_assert_ptr_null(io->qnext);
	ck_assert_ptr_null(io->qprev);
	ck_assert_ptr_null(io->dev);
	ck_assert_ptr_null(io->up.raid);
	ck_assert_uint_eq(rs_io_relays(io), 0);
	ck_assert(rs_io_relayable(io) && !rs_io_relayed(io));
	ck_assert_uint_eq(io->at.hdd.slot, 0);
	ck_assert_int_eq(io->at.hdd.arrived, 0);
	ck_assert(!io->fua);
	rs_io_complete(sim, io, 0);
	rs_io_child_detach(sim, io);
	rs_io_complete(sim, parent, 0);
	rs_io_free(sim, parent);
	rs_sim_free(sim);
}
END_TEST


START_TEST(counters_show_leak)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, keep, NULL);
	rs_io_complete(sim, io, 0);
	const struct rs_io_counters *c = rs_io_counters(sim);
	ck_assert_uint_eq(c->completed, 1);
	ck_assert_uint_eq(c->freed, 0);
	ck_assert_uint_eq(sim->ios.live, 1);
	rs_io_free(sim, io);
	tu_check_conservation(sim);
	rs_sim_free(sim);
}
END_TEST

START_TEST(complete_twice_aborts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, keep, NULL);
	rs_io_complete(sim, io, 0);
	rs_io_complete(sim, io, 0);   /* must abort */
}
END_TEST

START_TEST(complete_parent_early_aborts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io *parent = rs_io_new(sim, RS_READ, 0, 8, keep, NULL);
	rs_io_child(sim, parent, RS_READ, 0, 8, NULL, NULL);
	rs_io_complete(sim, parent, 0);   /* a child is still out: must abort */
}
END_TEST

START_TEST(free_live_aborts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, keep, NULL);
	rs_io_free(sim, io);              /* not completed: must abort */
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(rs_op_name(RS_READ), "read");
	ck_assert_str_eq(rs_op_name(RS_WRITE), "write");
	ck_assert_str_eq(rs_op_name(RS_FLUSH), "flush");
	ck_assert_str_eq(rs_strerror(0), "success");
	ck_assert_str_eq(rs_strerror(-RS_ERR_EIO), "I/O error");
	ck_assert_str_eq(rs_strerror(-RS_ERR_ETIMEDOUT), "timed out");
	ck_assert_str_eq(rs_strerror(-RS_ERR_ENOPATH), "no path to device");
	ck_assert_str_eq(rs_strerror(-RS_ERR_ELINKDOWN), "link down");
	ck_assert_str_eq(rs_strerror(-RS_ERR_ERANGE), "address beyond device capacity");
	ck_assert_str_eq(rs_strerror(-RS_ERR_EABORTED), "aborted");
	/* Out of range either way: a fixed text, never a crash. */
	ck_assert_str_eq(rs_strerror(1), "unknown status");
	ck_assert_str_eq(rs_strerror(-RS_ERR_COUNT), "unknown status");
	ck_assert_str_eq(rs_strerror(-1000), "unknown status");
	/* Every code has its own text. */
	for (int i = 0; i < RS_ERR_COUNT; i++)
		for (int j = i + 1; j < RS_ERR_COUNT; j++)
			ck_assert_str_ne(rs_strerror(-i), rs_strerror(-j));
}
END_TEST

static Suite *io_suite(void)
{
	Suite *s = suite_create("io");
	TCase *tc = tcase_create("fan");
	tcase_add_test(tc, fanout_fanin);
	tcase_add_test(tc, fanin_first_error);
	tcase_add_test(tc, fanout_nested);
	tcase_add_test(tc, fanin_by_hand);
	tcase_add_test(tc, fanin_layer_hook);
	tcase_add_test(tc, fanin_explicit_over_hook);
	tcase_add_test(tc, hold_release);
	tcase_add_test(tc, detach_and_fold);
	tcase_add_test(tc, relay_back_then_through_its_device);
	tcase_add_test(tc, relays_nest_inner_first);
	suite_add_tcase(s, tc);
	tc = tcase_create("accounting");
	tcase_add_test(tc, counters_and_bytes);
	tcase_add_test(tc, counters_show_leak);
	tcase_add_test(tc, reused_request_is_clean);
	tcase_add_test_raise_signal(tc, complete_twice_aborts, SIGABRT);
	tcase_add_test_raise_signal(tc, complete_parent_early_aborts, SIGABRT);
	tcase_add_test_raise_signal(tc, free_live_aborts, SIGABRT);
	suite_add_tcase(s, tc);
	tc = tcase_create("names");
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(io_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
