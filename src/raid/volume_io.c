/* The array's request path: member operations and their fan-in, reads,
 * plain and mirrored writes, flushes.  RAID5/6 writes go to
 * volume_parity.c.
 *
 * Member operations complete through mop_done, the array's child-done
 * hook; a RAID5/6 row holds the parent open between its read and write
 * phases, when no member operation is in flight, and the array releases
 * it through array_release, which keeps the count of foreground requests
 * in step. */
#include "raid/volume_priv.h"

#include <stdint.h>

#include "kernel/assert.h"

/* Complete a request the array holds (host request or rebuild phase). */
static void array_finish(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	RS_ASSERT(array_is_rebuild(io) || io->dev == a->dev);
	if (!array_is_rebuild(io) && a->fg_inflight)
		a->fg_inflight--;
	rs_io_finish(sim, io, io->status);
}

void array_release(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	RS_ASSERT(io->pending > 0);
	if (--io->pending == 0)
		array_finish(sim, a, io);
}

static void recon_xor_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)status;
	array_release(sim, obj, arg);
}

/* The array's child-done hook: a member operation is back. */
static void mop_done(struct rs_sim *sim, struct rs_io *child)
{
	struct mop *mo = child->up.raid;
	struct array *a = mo->a;
	if (a->faulty && array_fault_filter(sim, a, mo, child))
		return;
	struct rs_io *parent = child->parent;
	struct member_state *ms = &a->ms[mo->member];

	RS_ASSERT(ms->outstanding > 0);
	ms->outstanding--;
	if (a->trace) {
		struct rs_array_event ev = {
			.op = (enum rs_array_op)mo->kind,
			.member = mo->member,
			.member_lba = child->lba,
			.nblk = child->nblk,
			.parent_id = parent->id,
			.t_submit = child->t_submit,
			.t_done = child->t_done,
			.status = child->status,
		};
		a->trace(a->trace_ctx, &ev);
	}
	struct stripe *st = mo->st;
	/* A source of a degraded read (not one of a row being written,
	 * whose XOR pass the row charges, nor the rebuild's, charged per
	 * chunk): its blocks pass the XOR before the request may finish. */
	uint64_t xor_bytes = a->has_xor && !st && (mo->flags & (MOP_RECON | MOP_REBUILD)) ==
						       MOP_RECON && child->status == 0
		? rs_io_bytes(child) : 0;
	rs_pool_put(&a->mops, mo);
	if (!st && !xor_bytes) {
		/* Nothing follows the fold: the hold and release below would
		 * only add one to the parent's count and take it away. */
		rs_io_child_fold(sim, child, 0);
		if (parent->pending == 0)
			array_finish(sim, a, parent);
		return;
	}
	/* The child's share of the parent stays held until its blocks have
	 * passed the XOR, if they must. */
	rs_io_hold(parent);
	rs_io_child_fold(sim, child, 0);
	/* The row may start its next phase; it holds its own reference on the
	 * parent, so the order of these two does not matter for correctness. */
	if (st)
		array_stripe_op_done(sim, st);
	if (xor_bytes) {
		array_xor_submit(sim, a, xor_bytes, recon_xor_done, a, parent);
		return;
	}
	array_release(sim, a, parent);
}

static void fail_after_event(struct rs_sim *sim, void *obj, void *arg)
{
	array_fail_slot(sim, obj, (uint32_t)(uintptr_t)arg);
}

static enum rs_op kind_op(enum rs_array_op kind)
{
	switch (kind) {
	case RS_ARRAY_READ:
	case RS_ARRAY_PARITY_READ:
		return RS_READ;
	case RS_ARRAY_WRITE:
	case RS_ARRAY_PARITY_WRITE:
		return RS_WRITE;
	default:
		return RS_FLUSH;
	}
}

void array_issue(struct rs_sim *sim, struct array *a, struct rs_io *parent, struct stripe *st,
		 uint32_t member, enum rs_array_op kind, uint64_t member_lba, uint32_t nblk)
{
	array_issue_ex(sim, a, parent, st, member, kind, member_lba, nblk, 0, 0);
}

/* What the array keeps of every member operation it sends: the member's
 * count and head, the counters, and the drive's death after `after_ios`. */
static inline void count_op(struct rs_sim *sim, struct array *a, uint32_t member,
			    enum rs_array_op kind, enum rs_op op, uint64_t member_lba,
			    uint32_t nblk)
{
	struct member_state *ms = &a->ms[member];
	ms->outstanding++;
	if (op != RS_FLUSH)
		ms->head_lba = member_lba + nblk;
	a->c.ops[kind]++;
	if (op == RS_READ)
		a->c.member_reads[member]++;
	else if (op == RS_WRITE)
		a->c.member_writes[member]++;
	/* `after_ios: N`: the drive dies once it has been sent N commands;
	 * those in flight then are void, as on any failure. */
	if (++a->slot[member].ios == a->slot[member].fail_after)
		rs_sched(sim, 0, fail_after_event, a, (void *)(uintptr_t)member);
}

void array_issue_ex(struct rs_sim *sim, struct array *a, struct rs_io *parent, struct stripe *st,
		    uint32_t member, enum rs_array_op kind, uint64_t member_lba, uint32_t nblk,
		    uint8_t flags, uint32_t recon_of)
{
	RS_ASSERT(member < a->g.nmembers);
	struct slot_state *ss = &a->slot[member];
	/* Every field at once, the rest zero, in stores of a size known at
	 * compile time (the pool's zeroing is a memset call of its run-time
	 * size).  A reissued operation (a reconstruction's next source) is a
	 * new command: it is slowed and holds its drive afresh. */
	struct mop *mo = rs_pool_get_raw(&a->mops);
	*mo = (struct mop){ .a = a, .st = st, .member = member, .kind = (uint8_t)kind,
			    .flags = flags & (uint8_t) ~(MOP_SLOWED | MOP_HELD),
			    .epoch = ss->epoch, .recon_of = recon_of };
	enum rs_op op = kind_op(kind);
	/* With its hook named, rs_io_child has nothing to look up: the
	 * inline constructor, without the call. */
	struct rs_io *child = rs_io_new_child(sim, parent, op, member_lba, nblk, mop_done, NULL);
	child->up.raid = mo;
	count_op(sim, a, member, kind, op, member_lba, nblk);
	array_member_submit(sim, a, mo, child);
}

/* A plain operation's way back (plain_issue).  A fault or a trace that
 * came while it was out makes it an operation like any other from here:
 * it gets its record, sent in epoch 0 (no member had failed when it went,
 * or the array would have been faulty) with no flags, and mop_done
 * judges it. */
static void plain_done(struct rs_sim *sim, struct rs_io *child)
{
	struct rs_io *parent = child->parent;
	/* The request is still at the array that sent the operation. */
	RS_ASSERT(parent->dev && parent->dev->type == &rs_dev_array);
	struct array *a = parent->dev->priv;
	uint32_t member = child->up.raid_member;
	if (!a->quiet) {
		struct mop *mo = rs_pool_get_raw(&a->mops);
		*mo = (struct mop){ .a = a, .member = member,
				    .kind = child->op == RS_READ ? RS_ARRAY_READ : RS_ARRAY_WRITE };
		child->up.raid = mo;
		child->done = mop_done;
		mop_done(sim, child);
		return;
	}
	struct member_state *ms = &a->ms[member];
	RS_ASSERT(ms->outstanding > 0);
	ms->outstanding--;
	rs_io_child_fold(sim, child, 0);
	if (parent->pending == 0)
		array_finish(sim, a, parent);
}

/* A read or write of a host request to a member while the array has no
 * faults configured and nothing traces it: what mop_done would do with
 * its record comes down to the member's count, so it goes without one
 * (no member is slow, none waits, so it goes to its drive at once).  Out
 * of line: a request relayed instead (relay_issue) is the common way. */
static __attribute__((noinline)) void plain_issue(struct rs_sim *sim, struct array *a,
						  struct rs_io *io, uint32_t member,
						  uint64_t member_lba)
{
	enum rs_array_op kind = io->op == RS_READ ? RS_ARRAY_READ : RS_ARRAY_WRITE;
	struct rs_io *child = rs_io_new_child(sim, io, io->op, member_lba, io->nblk, plain_done,
					      NULL);
	child->up.raid_member = member;
	count_op(sim, a, member, kind, io->op, member_lba, io->nblk);
	rs_dev_submit(sim, a->dev->members[a->slot[member].dev], child);
}

/* A relayed operation's way back when a fault or a trace came while it
 * was out: the request becomes again the array's, with the member
 * operation it stood for as its child, sent when the request went and
 * completed now with the member's status, and mop_done judges that as
 * plain_done would have (see there).  Out of line: the common way back
 * saves no registers for it. */
static __attribute__((noinline)) void relayed_to_mop(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	struct rs_io_relay *r = rs_io_relay_top(io);
	uint64_t member_lba = io->lba;
	int status = io->status;
	rs_time_t sent = r->t_sent, issued = io->t_issue;
	uint32_t member = r->member;
	io->lba = r->lba;
	io->status = 0;
	io->t_issue = 0;
	rs_io_relay_end(io);
	struct rs_io *child = rs_io_new_child(sim, io, io->op, member_lba, io->nblk, mop_done,
					      NULL);
	child->t_submit = sent;
	child->t_issue = issued;
	struct mop *mo = rs_pool_get_raw(&a->mops);
	*mo = (struct mop){ .a = a, .member = member,
			    .kind = io->op == RS_READ ? RS_ARRAY_READ : RS_ARRAY_WRITE };
	child->up.raid = mo;
	/* The relayed way kept no count of the member's operations (RAID0
	 * chooses no copy by it), nor of the request among the foreground
	 * ones (RAID0 never rebuilds): mop_done and array_finish take them. */
	a->ms[member].outstanding++;
	a->fg_inflight++;
	rs_io_complete(sim, child, status);
}

/* A relayed operation is back from its member (relay_issue): the request
 * goes on up with its own address and no dispatch time (the member's
 * stamp is the operation's), as plain_done would finish it. */
static void relayed_done(struct rs_sim *sim, struct rs_io *io)
{
	/* Reached only as the frame's `back`: the frame is there. */
	struct rs_io_relay *r = io->relay_top;
	struct array *a = r->dev->priv;
	if (!a->quiet) {
		relayed_to_mop(sim, a, io);
		return;
	}
	io->lba = r->lba;
	io->t_issue = 0;
	rs_io_relay_finish(sim, io, io->status);
}

/* plain_issue without the child: the request itself, relayed (dev/fanin.h)
 * at the member's address, is the member operation, as the one child it
 * would have been.  Its frame keeps what the way back puts back.
 *
 * Of what count_op keeps it keeps the counters and the drive's command
 * count only.  The member's outstanding operations and head are read by
 * the choice among copies, and the foreground counts by the rebuild:
 * RAID0 (the only level relayed) has neither, so they are left alone
 * both ways (relayed_to_mop gives mop_done the count it takes). */
static void relay_issue(struct rs_sim *sim, struct array *a, struct rs_io *io, uint32_t member,
			uint64_t member_lba)
{
	struct rs_io_relay *r = rs_io_relay(io, a->dev, relayed_done);
	r->lba = io->lba;
	r->member = member;
	r->t_sent = sim->now;
	io->lba = member_lba;
	if (io->op == RS_READ) {
		a->c.ops[RS_ARRAY_READ]++;
		a->c.member_reads[member]++;
	} else {
		a->c.ops[RS_ARRAY_WRITE]++;
		a->c.member_writes[member]++;
	}
	/* Setting `after_ios` makes the array faulty (array_of), so one
	 * known not to be has no N to compare with, only the count to keep
	 * for when it has. */
	struct slot_state *ss = &a->slot[member];
	ss->ios++;
	rs_dev_submit(sim, a->dev->members[ss->dev], io);
}

static void read_extents(struct rs_sim *sim, struct array *a, struct rs_io *io,
			 const struct rs_raid_extent *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a->nbad && array_row_bad(a, array_row_of(a, e[i].member_lba))) {
			array_data_lost(a, io);
			continue;
		}
		if (a->lost) {
			array_degraded_read(sim, a, io, &e[i]);
			continue;
		}
		/* A level without copies has one place to read: the streams
		 * the choice among copies remembers are then never read. */
		uint32_t m = rs_raid_is_mirrored(&a->g) ? array_pick_copy(a, &e[i]) : e[i].member;
		array_issue(sim, a, io, NULL, m, RS_ARRAY_READ, e[i].member_lba, e[i].nblk);
	}
}

static void write_extents(struct rs_sim *sim, struct array *a, struct rs_io *io,
			  const struct rs_raid_extent *e, size_t n)
{
	uint32_t copies[RS_RAID_MAX_MEMBERS];
	for (size_t i = 0; i < n; i++) {
		if (a->lost) {
			array_degraded_write(sim, a, io, &e[i]);
			continue;
		}
		array_issue(sim, a, io, NULL, e[i].member, RS_ARRAY_WRITE, e[i].member_lba,
			    e[i].nblk);
		size_t nm = rs_raid_mirrors(&a->g, e[i].member, copies, RS_RAID_MAX_MEMBERS);
		for (size_t k = 0; k < nm; k++)
			array_issue(sim, a, io, NULL, copies[k], RS_ARRAY_WRITE, e[i].member_lba,
				    e[i].nblk);
	}
}

/* With `coalesce`, the strips of one request that lie back to back on a
 * member go to it as one command (a driver that builds one scatter-gather
 * list per member).  Only for levels without copies or parity, where every
 * extent has one place to go. */
static void coalesced_fan_out(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	uint64_t run_lba[RS_RAID_MAX_MEMBERS];
	uint32_t run_nblk[RS_RAID_MAX_MEMBERS] = { 0 };
	enum rs_array_op kind = io->op == RS_READ ? RS_ARRAY_READ : RS_ARRAY_WRITE;
	uint64_t lba = io->lba, end = io->lba + io->nblk;
	struct rs_raid_extent e[EXTENT_BATCH];
	while (lba < end) {
		size_t n = rs_raid_map(&a->g, lba, (uint32_t)(end - lba), e, EXTENT_BATCH);
		if (n > EXTENT_BATCH)
			n = EXTENT_BATCH;
		for (size_t i = 0; i < n; i++) {
			uint32_t m = e[i].member;
			if (run_nblk[m] && run_lba[m] + run_nblk[m] == e[i].member_lba &&
			    (uint64_t)run_nblk[m] + e[i].nblk <= UINT32_MAX) {
				run_nblk[m] += e[i].nblk;
				continue;
			}
			if (run_nblk[m])
				array_issue(sim, a, io, NULL, m, kind, run_lba[m], run_nblk[m]);
			run_lba[m] = e[i].member_lba;
			run_nblk[m] = e[i].nblk;
		}
		lba = e[n - 1].array_lba + e[n - 1].nblk;
	}
	for (uint32_t m = 0; m < a->g.nmembers; m++)
		if (run_nblk[m])
			array_issue(sim, a, io, NULL, m, kind, run_lba[m], run_nblk[m]);
}

/* Map the request in batches of EXTENT_BATCH extents, so a request of any
 * length needs no allocation. */
static void fan_out(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	if (a->p.coalesce && !a->lost && !rs_raid_is_mirrored(&a->g) &&
	    !rs_raid_has_parity(&a->g)) {
		coalesced_fan_out(sim, a, io);
		return;
	}
	uint64_t lba = io->lba, end = io->lba + io->nblk;
	struct rs_raid_extent e[EXTENT_BATCH];
	while (lba < end) {
		size_t n = rs_raid_map(&a->g, lba, (uint32_t)(end - lba), e, EXTENT_BATCH);
		if (n > EXTENT_BATCH)
			n = EXTENT_BATCH;
		if (io->op == RS_READ)
			read_extents(sim, a, io, e, n);
		else
			write_extents(sim, a, io, e, n);
		lba = e[n - 1].array_lba + e[n - 1].nblk;
	}
}

/* Every request array_submit does not send as one plain operation: its
 * member operations, made while the request is held.  Out of line, so the
 * plain way saves no registers for it. */
static __attribute__((noinline)) void submit_general(struct rs_sim *sim, struct array *a,
						     struct rs_io *io)
{
	/* Held while children are being created: one may finish at once
	 * (a member that fails it synchronously) without closing the parent. */
	rs_io_hold(io);
	switch (io->op) {
	case RS_FLUSH:
		for (uint32_t m = 0; m < a->g.nmembers; m++)
			if (!(a->lost >> m & 1u))
				array_issue(sim, a, io, NULL, m, RS_ARRAY_FLUSH, 0, 0);
		break;
	case RS_WRITE:
		if (rs_raid_has_parity(&a->g)) {
			array_parity_write(sim, a, io);
			break;
		}
		/* fall through */
	default:
		fan_out(sim, a, io);
		break;
	}
	array_release(sim, a, io);
}

/* How long a dead array takes to refuse a request: a controller's (or
 * md's) per-command overhead, order of 100 us on the hardware modelled. */
#define DEAD_ANSWER_NS ((rs_time_t)100000)

static void fail_later(struct rs_sim *sim, void *obj, void *arg)
{
	struct array *a = obj;
	struct rs_io *io = arg;
	rs_dev_complete(sim, a->dev, io, io->status);
}

/* Refuse io with `status` after `delay`, from the event loop, never inside
 * the caller's submit.  Out of line: array_submit then packs no event's
 * arguments on its way in. */
static __attribute__((noinline)) void refuse(struct rs_sim *sim, struct array *a,
					     struct rs_io *io, int status, rs_time_t delay)
{
	io->status = status;
	rs_sched(sim, delay, fail_later, a, io);
}

/* array_submit's way for every request but a quiet array's plain one:
 * a dead array's refusal, a faulty or traced array's single operation
 * with its record, and the general fan-out.  Out of line, so the plain
 * way saves no registers for it. */
static __attribute__((noinline)) void submit_watched(struct rs_sim *sim, struct array *a,
						     struct rs_io *io)
{
	if (a->dead) {
		/* More members lost than the level survives: md stops the
		 * whole array, and so does this one.  The refusal takes a
		 * command's overhead (so a closed-loop workload does not spin
		 * at one instant). */
		a->c.dataloss_requests++;
		refuse(sim, a, io, -RS_ERR_DATALOSS, DEAD_ANSWER_NS);
		return;
	}
	a->fg_inflight++;
	a->fg_arrivals++;
	uint32_t member;
	uint64_t member_lba;
	if (io->op != RS_FLUSH && !a->lost && !a->nbad &&
	    rs_raid0_map_one(&a->g, io->lba, io->nblk, &member, &member_lba)) {
		array_issue(sim, a, io, NULL, member,
			    io->op == RS_READ ? RS_ARRAY_READ : RS_ARRAY_WRITE, member_lba,
			    io->nblk);
		return;
	}
	submit_general(sim, a, io);
}

void array_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct array *a = dev->priv;
	if (io->op != RS_FLUSH &&
	    (io->nblk == 0 || io->lba > dev->capacity_blk ||
	     io->nblk > dev->capacity_blk - io->lba)) {
		refuse(sim, a, io, io->nblk == 0 ? 0 : -RS_ERR_ERANGE, 0);
		return;
	}
	/* A read or write within one strip of a quiet RAID0 (its members all
	 * hold their data, none fails, nothing traces it): one member
	 * operation, the same one fan_out would send, without the record
	 * mop_done would need.  It is the request's only child and nothing
	 * touches the request after it is sent, so no hold is needed for a
	 * member that finishes it at once. */
	uint32_t member;
	uint64_t member_lba;
	if (a->quiet && io->op != RS_FLUSH &&
	    rs_raid0_map_one(&a->g, io->lba, io->nblk, &member, &member_lba)) {
		/* Relayed, the request carries what its member operation
		 * would: its status and dispatch time are then the member's
		 * (a fault's way back tells them apart), so a request with
		 * either of its own already goes as a child. */
		if (rs_io_relayable(io) && io->status == 0 && io->t_issue == 0) {
			relay_issue(sim, a, io, member, member_lba);
			return;
		}
		a->fg_inflight++;
		a->fg_arrivals++;
		plain_issue(sim, a, io, member, member_lba);
		return;
	}
	submit_watched(sim, a, io);
}
