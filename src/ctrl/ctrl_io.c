/* The controller's request path: processor, cache, array.
 *
 * A host request is relayed through the controller (dev/fanin.h): the
 * request itself, not a child, carries it and is what the array sees,
 * unless as many layers as a request has relays for relay it already,
 * when a child does.  Either
 * way its completion, by the array or by the controller itself, reaches
 * rs_ctrl_child_done, and the host request completes from there: after
 * the array for a miss, a write-through write or an uncached request; at
 * once for a read hit or a write the write-back cache took. */
#include <stdlib.h>

#include "ctrl/ctrl_priv.h"
#include "kernel/assert.h"

static void kick(struct rs_sim *sim, struct ctrl *c);
static void admit(struct rs_sim *sim, struct ctrl *c, struct rs_io *io);

/* ---- completion ------------------------------------------------------- */

static void finish(struct rs_sim *sim, struct ctrl *c, struct rs_io *ch, int status)
{
	if (rs_io_relayed(ch))
		rs_io_relay_finish(sim, ch, status);
	else
		rs_io_child_finished(sim, ch, status);
	RS_ASSERT(c->admitted > 0);
	c->admitted--;
	if (c->held_head)
		admit(sim, c, rs_io_fifo_pop(&c->held_head, &c->held_tail));
}

static void bus_in_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	finish(sim, obj, arg, status);
}

static void array_done(struct rs_sim *sim, struct ctrl *c, struct rs_io *ch)
{
	if (ch->status == 0 && c->cached && ch->nblk &&
	    (ch->op == RS_READ || (ch->op == RS_WRITE && !c->write_back)))
		rs_cache_fill(&c->cache, ch->lba, ch->nblk);
	if (ch->status == 0 && ch->op == RS_READ && c->bus_at_top && c->has_host && ch->nblk)
		rs_link_xfer(sim, &c->host, RS_DIR_IN, rs_io_bytes(ch), bus_in_done, c, ch);
	else
		finish(sim, c, ch, 0);
}

/* The controller's child-done hook, and a relayed request's way back.  A
 * request that went to the array (a miss, a write-through write, an
 * uncached request) comes back from there; one that did not (a hit, an
 * absorbed write, a failed transfer) is done here. */
void rs_ctrl_child_done(struct rs_sim *sim, struct rs_io *ch)
{
	struct ctrl *c = rs_io_relayed(ch) ? rs_io_relay_top(ch)->dev->priv
					   : ch->parent->dev->priv;
	if (c->straight)
		finish(sim, c, ch, 0);
	else if (ch->dev == c->array)
		array_done(sim, c, ch);
	else
		finish(sim, c, ch, 0);
}

/* A straight controller's relayed request is back from the array: the
 * relay's way of finish, without asking whether it is relayed or where it
 * has been (rs_ctrl_child_done's questions, all answered at the relay). */
static void straight_done(struct rs_sim *sim, struct rs_io *io)
{
	/* Reached only as the frame's `back`: the frame is there. */
	struct ctrl *c = io->relay_top->dev->priv;
	rs_io_relay_finish(sim, io, 0);
	RS_ASSERT(c->admitted > 0);
	c->admitted--;
	if (c->held_head)
		admit(sim, c, rs_io_fifo_pop(&c->held_head, &c->held_tail));
}

/* straight_done for a controller without max_commands: nothing is held
 * back and nothing reads the count of admitted requests (only
 * max_commands does), so rs_ctrl_submit keeps none for it, and the way
 * back is the relay's end alone. */
static void unheld_done(struct rs_sim *sim, struct rs_io *io)
{
	rs_io_relay_finish(sim, io, 0);
}

/* unheld_done for a controller whose in-flight average its array keeps:
 * the relay's end without the controller's own update of it. */
static void unheld_shared_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_dev *dev = rs_io_relay_end(io);
	rs_dev_complete_relayed_shared(sim, dev, io, 0);
}

/* Every request of a straight controller with no command cost and no
 * max_commands enters the array at the instant it enters the controller
 * (its processor job takes no time, whatever waits for it), and leaves the
 * controller at the instant the array gives it back (unheld_done, or
 * finish for a request a child carries).  So the two in-flight averages
 * take the same levels at the same instants and are equal to the bit:
 * the array's is the controller's too.  A port in between (a single
 * device behind one) is a layer of its own, so it does not share.  None
 * of the conditions changes during a run: a straight controller has no
 * cache to flush, and a fault or a trace reaches the array only through
 * the controller, as any request does. */
void rs_ctrl_share_inflight(struct ctrl *c)
{
	bool shared = c->straight && c->p.command_cost_ns == 0 && !c->p.max_commands &&
		      c->nwrapped;
	c->dev->inflight_of = shared ? c->array : NULL;
	c->unheld_back = shared ? unheld_shared_done : unheld_done;
}

/* ---- to the array ----------------------------------------------------- */

static void submit_array(struct rs_sim *sim, struct ctrl *c, struct rs_io *ch)
{
	rs_dev_submit(sim, c->array, ch);
}

static void bus_out_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_io *ch = arg;
	if (status) {
		rs_io_complete(sim, ch, status);
		return;
	}
	submit_array(sim, obj, ch);
}

/* Writes bound for the card's memory cross the host bus first. */
static void to_array(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ctrl *c = obj;
	struct rs_io *ch = arg;
	if (ch->op == RS_WRITE && c->bus_at_top && c->has_host && ch->nblk)
		rs_link_xfer(sim, &c->host, RS_DIR_OUT, rs_io_bytes(ch), bus_out_done, c, ch);
	else
		submit_array(sim, c, ch);
}

/* ---- cache hits and write-back ---------------------------------------- */

/* A write that continues the previous one is part of a stream; with
 * write_back_streams: through the driver sends it on as write-through
 * would, so a stream is neither acknowledged early nor merged. */
static bool written_through_as_stream(struct ctrl *c, const struct rs_io *ch)
{
	bool stream = ch->lba == c->next_write_lba;
	c->next_write_lba = ch->lba + ch->nblk;
	return stream && c->cp.wb_streams == RS_CACHE_STREAMS_THROUGH;
}

static void hit_bus_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	rs_io_complete(sim, arg, status);
}

static void read_hit(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ctrl *c = obj;
	struct rs_io *ch = arg;
	/* A driver cache is host memory already; a card's crosses the bus. */
	if (c->cp.location == LOC_CARD && c->has_host)
		rs_link_xfer(sim, &c->host, RS_DIR_IN, rs_io_bytes(ch), hit_bus_done, c, ch);
	else
		rs_io_complete(sim, ch, 0);
}

static void idle_fire(struct rs_sim *sim, void *obj, void *arg);

static void arm_idle(struct rs_sim *sim, struct ctrl *c)
{
	if (c->cp.idle_flush_ns > 0 && !c->idle_ev.ev)
		c->idle_ev = rs_sched(sim, c->cp.idle_flush_ns, idle_fire, c, NULL);
}

static void idle_fire(struct rs_sim *sim, void *obj, void *arg)
{
	struct ctrl *c = obj;
	c->idle_ev = RS_NO_EVENT;
	if (c->cache.ndirty == 0)
		return;
	rs_time_t quiet_until = c->last_host_ns + c->cp.idle_flush_ns;
	if (rs_now(sim) >= quiet_until) {
		c->flushing = true;
		kick(sim, c);
	} else {
		c->idle_ev = rs_sched_at(sim, quiet_until, idle_fire, c, NULL);
	}
}

static void absorb(struct rs_sim *sim, struct ctrl *c, struct rs_io *ch)
{
	c->n.absorbed++;
	arm_idle(sim, c);
	rs_io_complete(sim, ch, 0);
}

/* Writes take their turn behind stalled ones, so the cache never lets a
 * later write overtake an earlier one. */
static void wb_accept(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ctrl *c = obj;
	struct rs_io *ch = arg;
	if (status) {
		rs_io_complete(sim, ch, status);
		return;
	}
	if (!c->stall_head && rs_cache_write(&c->cache, ch->lba, ch->nblk)) {
		absorb(sim, c, ch);
		kick(sim, c);
		return;
	}
	c->n.stalls++;
	rs_io_fifo_push(&c->stall_head, &c->stall_tail, ch);
	kick(sim, c);
}

static void wb_write(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ctrl *c = obj;
	struct rs_io *ch = arg;
	if (c->cp.location == LOC_CARD && c->has_host && ch->nblk)
		rs_link_xfer(sim, &c->host, RS_DIR_OUT, rs_io_bytes(ch), wb_accept, c, ch);
	else
		wb_accept(sim, c, ch, 0);
}

/* ---- destaging -------------------------------------------------------- */

static void release_flushes(struct rs_sim *sim, struct ctrl *c)
{
	if (c->cache.ndirty || c->cache.ndestaging || c->stall_head)
		return;
	struct rs_io *ch;
	while ((ch = rs_io_fifo_pop(&c->flush_head, &c->flush_tail)))
		submit_array(sim, c, ch);
}

static void destage_done(struct rs_sim *sim, struct rs_io *io)
{
	struct ctrl *c = io->done_ctx;
	if (io->status)
		c->n.errors++;
	rs_cache_destage_done(&c->cache, io->lba, io->nblk);
	c->destaging--;
	rs_io_free(sim, io);
	while (c->stall_head &&
	       rs_cache_write(&c->cache, c->stall_head->lba, c->stall_head->nblk))
		absorb(sim, c, rs_io_fifo_pop(&c->stall_head, &c->stall_tail));
	kick(sim, c);
	release_flushes(sim, c);
}

static bool want_destage(const struct ctrl *c)
{
	return c->flushing || c->stall_head || c->flush_head ||
	       (c->draining && c->cache.ndirty > c->low_lines);
}

static void kick(struct rs_sim *sim, struct ctrl *c)
{
	if (c->cache.ndirty + c->cache.ndestaging > c->high_lines)
		c->draining = true;
	while (c->destaging < c->cp.destage_depth && want_destage(c)) {
		uint64_t lba;
		uint32_t nblk;
		if (!rs_cache_destage_pick(&c->cache, c->destage_max_blk, &lba, &nblk))
			break;
		struct rs_io *io = rs_io_new(sim, RS_WRITE, lba, nblk, destage_done, c);
		c->destaging++;
		c->n.destages++;
		c->n.destaged_blk += nblk;
		rs_dev_submit(sim, c->array, io);
	}
	if (c->cache.ndirty <= c->low_lines)
		c->draining = false;
	if (c->cache.ndirty == 0 && c->cache.ndestaging == 0)
		c->flushing = false;
}

/* ---- read-ahead ------------------------------------------------------- */

static void ra_done(struct rs_sim *sim, struct rs_io *io)
{
	struct ctrl *c = io->done_ctx;
	if (io->status == 0)
		rs_cache_fill(&c->cache, io->lba, io->nblk);
	else
		c->n.errors++;
	c->ra_inflight--;
	rs_io_free(sim, io);
}

/* A read that starts where the previous one ended is a stream: keep a
 * window of read_ahead blocks fetched beyond it. */
static void read_ahead(struct rs_sim *sim, struct ctrl *c, const struct rs_io *ch)
{
	uint64_t end = ch->lba + ch->nblk;
	bool seq = ch->lba == c->next_seq_lba;
	c->next_seq_lba = end;
	if (!seq || c->ra_blk == 0 || c->ra_inflight >= 2)
		return;
	uint64_t from = c->ra_end > end ? c->ra_end : end;
	uint64_t to = end + c->ra_blk;
	if (to > c->dev->capacity_blk)
		to = c->dev->capacity_blk;
	/* Fetch in pieces of at least half the window, not one per read. */
	if (from >= to || (from > end && to - from < c->ra_blk / 2))
		return;
	struct rs_io *io = rs_io_new(sim, RS_READ, from, (uint32_t)(to - from), ra_done, c);
	c->ra_end = to;
	c->ra_inflight++;
	c->n.read_aheads++;
	rs_dev_submit(sim, c->array, io);
}

/* ---- the processor and the decision ------------------------------------ */

static void then(struct rs_sim *sim, struct ctrl *c, struct rs_io *ch, rs_time_t cost,
		 rs_job_fn *fn)
{
	if (cost > 0)
		rs_server_submit(sim, &c->cpu, cost, fn, c, ch);
	else
		fn(sim, c, ch, 0);
}

/* A driver that keeps its deferred writes in a list searches it on every
 * request (for a read it may serve, for a write it may merge or replace):
 * the time grows with the dirty lines, so write-back slows down as the
 * writes pile up -- the loss the TX4000 study's author puts down to it. */
static rs_time_t dirty_search_cost(const struct ctrl *c)
{
	return c->cp.cost_per_dirty_ns * (rs_time_t)c->cache.ndirty;
}

/* A straight controller's request has had its command cost: to the
 * array.  Its own job, so that it saves none of the registers the cache's
 * decision in cpu_done needs. */
static void straight_cpu_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)status;
	submit_array(sim, obj, arg);
}

static void cpu_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ctrl *c = obj;
	struct rs_io *ch = arg;
	if (c->straight) {
		submit_array(sim, c, ch);
		return;
	}
	if (!c->cached) {
		to_array(sim, c, ch, 0);
		return;
	}
	rs_time_t search = dirty_search_cost(c);
	switch (ch->op) {
	case RS_READ:
		if (ch->nblk && rs_cache_lookup(&c->cache, ch->lba, ch->nblk)) {
			c->n.hits++;
			then(sim, c, ch, c->cp.cost_hit_ns + search, read_hit);
		} else {
			c->n.misses++;
			then(sim, c, ch, c->cp.cost_miss_ns + search, to_array);
		}
		read_ahead(sim, c, ch);
		break;
	case RS_WRITE:
		/* A FUA write must be on stable media when it completes; the
		 * cache this model describes has no battery, so it goes through
		 * like a write too large for the cache. */
		if (c->write_back && !ch->fua && !written_through_as_stream(c, ch) &&
		    rs_cache_span(&c->cache, ch->lba, ch->nblk) <= c->cache.nlines) {
			then(sim, c, ch, c->cp.cost_hit_ns + search, wb_write);
		} else {
			/* Write-through keeps its copy (filled when the array is
			 * done); a write too large for write-back drops it. */
			if (c->write_back) {
				c->n.bypassed++;
				rs_cache_invalidate(&c->cache, ch->lba, ch->nblk);
			}
			then(sim, c, ch, c->cp.cost_miss_ns + search, to_array);
		}
		break;
	case RS_FLUSH:
	default:
		if (c->cp.mode == CACHE_WB) {
			rs_io_fifo_push(&c->flush_head, &c->flush_tail, ch);
			kick(sim, c);
			release_flushes(sim, c);
		} else {
			to_array(sim, c, ch, 0);
		}
		break;
	}
}

/* A host request the driver has taken: its command cost, then the cache or
 * the array. */
static void admit(struct rs_sim *sim, struct ctrl *c, struct rs_io *io)
{
	c->admitted++;
	struct rs_io *ch = io;
	if (c->straight && rs_io_relayable(io)) {
		rs_io_relay(io, c->dev, straight_done);
		rs_server_submit(sim, &c->cpu, c->p.command_cost_ns, straight_cpu_done, c, io);
		return;
	}
	if (rs_io_relayable(io))
		rs_io_relay(io, c->dev, rs_ctrl_child_done);
	else
		/* The controller's own hook, named: rs_io_child would find
		 * it in io's device type, at a lookup and a call. */
		ch = rs_io_new_child(sim, io, io->op, io->lba, io->nblk, rs_ctrl_child_done,
				     NULL);
	rs_server_submit(sim, &c->cpu, c->p.command_cost_ns, cpu_done, c, ch);
}

/* Every submission but a straight controller's relayed one without
 * max_commands: the held queue, the idle flush's watch, admit.  Out of
 * line, so the straight way saves no registers for it. */
static __attribute__((noinline)) void submit_admitted(struct rs_sim *sim, struct ctrl *c,
						      struct rs_io *io)
{
	if (c->p.max_commands && c->admitted >= c->p.max_commands) {
		/* The adapter's queue is full: the request waits in the
		 * operating system, in order. */
		c->n.held_back++;
		rs_io_fifo_push(&c->held_head, &c->held_tail, io);
		return;
	}
	/* The idle flush is a cache's: a straight controller has none to
	 * watch the host for. */
	if (c->straight) {
		admit(sim, c, io);
		return;
	}
	c->last_host_ns = rs_now(sim);
	if (c->flushing) {
		/* The host is back: idle flushing stops, the timer watches again. */
		c->flushing = false;
		arm_idle(sim, c);
	}
	admit(sim, c, io);
}

void rs_ctrl_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct ctrl *c = dev->priv;
	if (c->straight && !c->p.max_commands && rs_io_relayable(io)) {
		/* admit's straight way, for a controller that holds nothing
		 * back: without the call, and without the count of admitted
		 * requests that only max_commands reads (unheld_done). */
		rs_io_relay(io, dev, c->unheld_back);
		rs_server_submit(sim, &c->cpu, c->p.command_cost_ns, straight_cpu_done, c, io);
		return;
	}
	submit_admitted(sim, c, io);
}
