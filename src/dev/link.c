#include "dev/link.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "io/io.h"
#include "kernel/assert.h"

static inline struct rs_link_channel *channel(struct rs_link *l, enum rs_dir dir)
{
	return (struct rs_link_channel *)((char *)l->ch + l->ch_offset[dir]);
}

rs_time_t rs_link_transaction_ns(const struct rs_link *l, uint64_t bytes)
{
	double ns = (double)bytes * 1e9 / l->p.rate_bytes_s;
	rs_time_t t = rs_ns_from_double(ns);
	return t > RS_TIME_MAX - l->p.overhead_ns ? RS_TIME_MAX : l->p.overhead_ns + t;
}


/* One transaction in a direction: at the host-to-device rate when it has
 * its own (rate_dir), the same arithmetic as rs_link_transaction_ns.
 * Inlined: every transfer planned asks it once or twice. */
static inline __attribute__((always_inline))
rs_time_t dir_transaction_ns(const struct rs_link *l, uint8_t dir, uint64_t bytes)
{
	rs_time_t t = rs_ns_from_double((double)bytes * 1e9 / l->rate_dir[dir]);
	return t > RS_TIME_MAX - l->p.overhead_ns ? RS_TIME_MAX : l->p.overhead_ns + t;
}

/* dir_transaction_ns(l, dir, l->p.burst_bytes): the overhead and the burst
 * are set once, at init, and the rates change only through the setters,
 * which work it out again (a rate written into p directly would not be
 * seen: nothing may do that after init). */
static inline rs_time_t full_burst_ns(const struct rs_link *l, uint8_t dir)
{
	return l->burst_ns[dir];
}

/* The same as dir_transaction_ns(l, dir, 0), which is the overhead alone
 * (no bytes take no time at any rate): a SCSI command or status phase, on
 * every request, skips the floating-point path. */
static inline rs_time_t dir_transaction_or_empty_ns(const struct rs_link *l, uint8_t dir,
						    uint64_t bytes)
{
	return bytes == 0 ? l->p.overhead_ns : dir_transaction_ns(l, dir, bytes);
}

/* The channel is busy while a transfer holds it (c->cur), so its busy
 * level is not stored: the average keeps only its area and the time of
 * the last change, with the very operations rs_tavg_set would do, less
 * the ones that cannot change them: idle, the area grows by 0 * dt
 * (adding +0.0 leaves a non-negative sum as it is); busy, by 1 * dt,
 * which is dt.  c->busy.level stays 0; rs_link_utilisation reads the
 * level from c->cur. */
static inline void busy_begin(struct rs_link_channel *c, rs_time_t now)
{
	c->busy.t_last = now;
}

static inline void busy_end(struct rs_link_channel *c, rs_time_t now)
{
	c->busy.area += (double)(now - c->busy.t_last);
	c->busy.t_last = now;
}

/* Work each direction's rate and the full bursts' times out again for the
 * rates now in force. */
static void refresh_burst_ns(struct rs_link *l)
{
	l->rate_dir[RS_DIR_IN] = l->p.rate_bytes_s;
	l->rate_dir[RS_DIR_OUT] = l->rate_out_bytes_s > 0 ? l->rate_out_bytes_s :
							    l->p.rate_bytes_s;
	for (uint8_t d = 0; d < 2; d++)
		l->burst_ns[d] = dir_transaction_ns(l, d, l->p.burst_bytes);
}

void rs_link_set_rate(struct rs_link *l, double rate_bytes_s)
{
	RS_ASSERT(rate_bytes_s > 0);
	l->p.rate_bytes_s = rate_bytes_s;
	refresh_burst_ns(l);
}

void rs_link_set_rate_out(struct rs_link *l, double rate_bytes_s)
{
	RS_ASSERT(rate_bytes_s >= 0);
	l->rate_out_bytes_s = rate_bytes_s;
	refresh_burst_ns(l);
}

static uint64_t burst_of(const struct rs_link *l, uint64_t left)
{
	uint64_t b = l->p.burst_bytes;
	return (b == 0 || left < b) ? left : b;
}

void rs_link_init(struct rs_link *l, const char *name, const struct rs_link_params *p,
		  rs_time_t now)
{
	RS_ASSERT(p->rate_bytes_s > 0);
	RS_ASSERT(p->overhead_ns >= 0);
	*l = (struct rs_link){ .name = name, .p = *p, .up = true };
	l->ch_offset[RS_DIR_IN] = p->full_duplex ? (uint32_t)sizeof(l->ch[0]) : 0;
	for (int d = 0; d < 2; d++)
		rs_tavg_init(&l->ch[d].busy, now, 0);
	refresh_burst_ns(l);
}

void rs_link_add_priority(struct rs_link *l, const void *obj, int dir, int prio)
{
	l->arb = realloc(l->arb, (l->narb + 1) * sizeof(*l->arb));
	RS_ASSERT(l->arb != NULL);
	l->arb[l->narb++] = (struct rs_link_arb){ obj, dir, prio };
}

void rs_link_destroy(struct rs_link *l)
{
	free(l->arb);
	l->arb = NULL;
	l->narb = 0;
}

static int rank(const struct rs_link *l, const struct rs_job *j)
{
	for (uint32_t i = 0; i < l->narb; i++)
		if (l->arb[i].obj == j->obj && (l->arb[i].dir < 0 || l->arb[i].dir == j->dir))
			return l->arb[i].prio;
	return INT_MIN;
}

/* arbitrate's choice among several waiting under priority arbitration.
 * Out of line: most starts find one transfer waiting, and the scan's
 * registers would be saved for all of them. */
static __attribute__((noinline)) struct rs_job *arbitrate_ranked(const struct rs_link *l,
								 struct rs_link_channel *c)
{
	struct rs_job *best = c->waiting.head, *best_prev = NULL, *prev = c->waiting.head;
	int best_r = rank(l, best);
	for (struct rs_job *j = best->next; j; prev = j, j = j->next) {
		int r = rank(l, j);
		if (r > best_r) {
			best = j;
			best_prev = prev;
			best_r = r;
		}
	}
	if (!best_prev)
		return rs_jobq_pop(&c->waiting);
	best_prev->next = best->next;
	if (c->waiting.tail == best)
		c->waiting.tail = best_prev;
	c->waiting.len--;
	best->next = NULL;
	return best;
}

/* The next transfer to hold the channel: the oldest, or under priority
 * arbitration the oldest of the highest rank. */
static inline struct rs_job *arbitrate(const struct rs_link *l, struct rs_link_channel *c)
{
	if (l->narb == 0 || !c->waiting.head || !c->waiting.head->next)
		return rs_jobq_pop(&c->waiting);
	return arbitrate_ranked(l, c);
}

static void transaction_next(struct rs_sim *sim, struct rs_link *l,
			     struct rs_link_channel *c, struct rs_job *j);

/* rs_job_own_finish for a job that may be either of the channel's own. */
static inline void job_finish(struct rs_sim *sim, struct rs_link_channel *c,
			      struct rs_job *j, int status)
{
	if (j == &c->second.job) {
		c->second.taken = false;
		j->fn(sim, j->obj, j->arg, status);
		return;
	}
	rs_job_own_finish(sim, &c->own, j, status);
}

static void transaction_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_link *l = obj;
	struct rs_link_channel *c = arg;
	struct rs_job *j = c->cur;
	/* c->ev goes stale with no store: it is read only while c->cur is set,
	 * and whatever sets c->cur again sets it. */
	c->cur = NULL;
	j->left -= c->cur_bytes;
	c->bytes_moved += c->cur_bytes;
	c->transactions += c->batch_bursts;
	busy_end(c, sim->now);
	if (j->left == 0 && !c->waiting.head && j == &c->own.job) {
		/* The channel's own job is done and nothing waits: what
		 * transaction_next would do, less its tests (nothing to start,
		 * the job is the channel's). */
		c->own.taken = false;
		j->fn(sim, j->obj, j->arg, 0);
		return;
	}
	transaction_next(sim, l, c, j);
}

/* The time of `bytes` (more than a burst) as full bursts and a rest, and
 * their number in c->batch_bursts.  Out of line, so a transfer of one
 * burst, the commoner, is planned with fewer registers saved. */
static __attribute__((noinline)) rs_time_t batch_ns(struct rs_link *l,
						    struct rs_link_channel *c, uint8_t dir,
						    uint64_t bytes)
{
	uint64_t b = l->p.burst_bytes;
	uint64_t full = bytes / b, rest = bytes % b;
	rs_time_t t = (rs_time_t)full * full_burst_ns(l, dir);
	if (rest)
		t += dir_transaction_ns(l, dir, rest);
	c->batch_bursts = full + (rest ? 1 : 0);
	return t;
}

/* Plan `bytes` of j (all it has left when nothing else waits, else a
 * burst) on the idle channel c.  A transfer alone on the channel is
 * planned as one event for all its bursts (the common case, and far
 * cheaper); when another transfer arrives, split_batch() turns it back
 * into bursts.  That no transfer holds c is its callers' to know, not
 * asserted here: rs_link_xfer has just tested c->cur, xfer_rare asserts
 * it, and transaction_next runs only from transaction_done, which has
 * just cleared it. */
static inline void plan(struct rs_sim *sim, struct rs_link *l, struct rs_link_channel *c,
			struct rs_job *j, uint64_t bytes)
{
	uint64_t b = l->p.burst_bytes;
	rs_time_t t;
	c->cur = j;
	c->cur_bytes = bytes;
	if (b == 0 || bytes <= b) {
		c->batch_bursts = 1;
		t = dir_transaction_or_empty_ns(l, j->dir, bytes);
	} else {
		t = batch_ns(l, c, j->dir, bytes);
	}
	c->batch_start = sim->now;
	busy_begin(c, sim->now);
	c->ev = rs_sched(sim, t, transaction_done, l, c);
}

/* The end of a transaction that is not the lone transfer's last: j goes
 * back in line or is done, and the next waiting transfer starts first on
 * the channel transaction_done has just freed.  Out of line, so the common
 * end saves no registers for it. */
static __attribute__((noinline)) void transaction_next(struct rs_sim *sim, struct rs_link *l,
							struct rs_link_channel *c,
							struct rs_job *j)
{
	if (j->left > 0)
		rs_jobq_push(&c->waiting, j);   /* back of the line: round-robin */
	if (c->waiting.head) {
		struct rs_job *n = arbitrate(l, c);
		plan(sim, l, c, n, c->waiting.len == 0 ? n->left : burst_of(l, n->left));
	}
	if (j->left == 0)
		job_finish(sim, c, j, 0);
}

/* A second transfer arrived while a lone one runs as a batch: let the burst
 * in progress finish, then take turns.  Out of line (split_batch tests
 * for a batch inline): a transfer that waits behind one burst or less,
 * the commoner, then saves none of its registers. */
static __attribute__((noinline)) void split_batch_now(struct rs_sim *sim, struct rs_link *l,
						      struct rs_link_channel *c)
{
	rs_time_t per = full_burst_ns(l, c->cur->dir);
	uint64_t done = (uint64_t)((sim->now - c->batch_start) / per);
	uint64_t full = c->cur_bytes / l->p.burst_bytes;
	if (done + 1 >= full) /* the last full burst or the tail is running */
		return;
	rs_cancel(sim, c->ev);
	c->cur->left -= done * l->p.burst_bytes;
	c->bytes_moved += done * l->p.burst_bytes;
	c->transactions += done;
	c->cur_bytes = l->p.burst_bytes;
	c->batch_bursts = 1;
	rs_time_t end = c->batch_start + (rs_time_t)(done + 1) * per;
	c->ev = rs_sched_at(sim, end, transaction_done, l, c);
}

static inline void split_batch(struct rs_sim *sim, struct rs_link *l, struct rs_link_channel *c)
{
	if (c->batch_bursts > 1)
		split_batch_now(sim, l, c);
}

static void fail_later(struct rs_sim *sim, void *obj, void *arg)
{
	rs_job_finish(sim, obj, -RS_ERR_ELINKDOWN);
}

/* rs_link_xfer but for a transfer that finds its channel free with its
 * own job: the link down, the channel busy, or its job taken (a transfer
 * started from the callback of another's failure). */
static __attribute__((noinline)) struct rs_job *pooled_job(struct rs_sim *sim, rs_job_fn *fn,
							   void *obj, void *arg)
{
	return rs_job_get(sim, fn, obj, arg);
}

/* The link down, or the channel free with its own job taken (a transfer
 * started from the callback of another's failure): rare, and out of line
 * so that a transfer that waits in line saves fewer registers. */
static __attribute__((noinline)) void xfer_rare(struct rs_sim *sim, struct rs_link *l,
						struct rs_link_channel *c, enum rs_dir dir,
						uint64_t bytes, rs_job_fn *fn, void *obj,
						void *arg)
{
	if (!l->up) {
		/* Fail from the event loop, never re-entering the caller. */
		struct rs_job *j = rs_job_get(sim, fn, obj, arg);
		l->failed++;
		rs_sched(sim, 0, fail_later, j, NULL);
		return;
	}
	struct rs_job *j = rs_job_own_get(sim, c->own.taken ? &c->second : &c->own, fn, obj,
					  arg);
	j->left = bytes;
	j->dir = (uint8_t)dir;
	/* Nothing waits on a free channel (a transaction's end starts the
	 * next), so j goes straight on instead of through the line. */
	RS_ASSERT(!c->cur && !c->waiting.head);
	plan(sim, l, c, j, bytes);
}

static __attribute__((noinline)) void xfer_general(struct rs_sim *sim, struct rs_link *l,
						   struct rs_link_channel *c, enum rs_dir dir,
						   uint64_t bytes, rs_job_fn *fn, void *obj,
						   void *arg)
{
	if (!l->up || !c->cur) {
		xfer_rare(sim, l, c, dir, bytes, fn, obj, arg);
		return;
	}
	/* The channel busy: j waits in line, with the channel's own job or
	 * its second if one is free (the same choice as rs_job_own_get's). */
	struct rs_job *j;
	struct rs_job_own *own = c->own.taken ? &c->second : &c->own;
	if (own->taken) {
		j = pooled_job(sim, fn, obj, arg);
	} else {
		own->taken = true;
		j = &own->job;
		j->fn = fn;
		j->obj = obj;
		j->arg = arg;
	}
	j->left = bytes;
	j->dir = (uint8_t)dir;
	rs_jobq_push(&c->waiting, j);
	split_batch(sim, l, c);
}

void rs_link_xfer(struct rs_sim *sim, struct rs_link *l, enum rs_dir dir, uint64_t bytes,
		  rs_job_fn *fn, void *obj, void *arg)
{
	/* A zero-byte transfer still costs one transaction's overhead. */
	struct rs_link_channel *c = channel(l, dir);
	if (!l->up || c->cur || c->own.taken) {
		xfer_general(sim, l, c, dir, bytes, fn, obj, arg);
		return;
	}
	/* The common case: the channel is free (so nothing waits: a
	 * transaction's end starts the next) and its own job with it, so the
	 * transfer is planned at once, as xfer_general would.  Not asserted
	 * here, on every transfer: transaction_next starts the next waiting
	 * one as it frees the channel, and xfer_rare asserts it. */
	struct rs_job *j = &c->own.job;
	c->own.taken = true;
	j->fn = fn;
	j->obj = obj;
	j->arg = arg;
	j->left = bytes;
	j->dir = (uint8_t)dir;
	plan(sim, l, c, j, bytes);
}

void rs_link_set_up(struct rs_sim *sim, struct rs_link *l, bool up)
{
	if (l->up == up)
		return;
	l->up = up;
	if (up)
		return;
	for (int d = 0; d < 2; d++) {
		struct rs_link_channel *c = &l->ch[d];
		struct rs_jobq dead = c->waiting;
		c->waiting = (struct rs_jobq){ 0 };
		if (c->cur) {
			rs_cancel(sim, c->ev);
			c->ev = RS_NO_EVENT;
			struct rs_job *j = c->cur;
			c->cur = NULL;
			j->next = dead.head;
			dead.head = j;
			if (!dead.tail)
				dead.tail = j;
			dead.len++;
			busy_end(c, sim->now);
		}
		struct rs_job *j;
		while ((j = rs_jobq_pop(&dead))) {
			l->failed++;
			job_finish(sim, c, j, -RS_ERR_ELINKDOWN);
		}
	}
}

double rs_link_utilisation(const struct rs_link *l, enum rs_dir dir, rs_time_t now)
{
	const struct rs_link_channel *c = &l->ch[l->p.full_duplex ? dir : 0];
	struct rs_tavg busy = c->busy;
	busy.level = c->cur ? 1 : 0;
	return rs_tavg_mean(&busy, now);
}

void rs_link_restart_stats(struct rs_link *l, rs_time_t now)
{
	for (int d = 0; d < 2; d++) {
		rs_tavg_restart(&l->ch[d].busy, now);
		l->ch[d].bytes_moved = 0;
		l->ch[d].transactions = 0;
	}
}

bool rs_link_idle(const struct rs_link *l)
{
	for (int d = 0; d < 2; d++)
		if (l->ch[d].cur || l->ch[d].waiting.head)
			return false;
	return true;
}
