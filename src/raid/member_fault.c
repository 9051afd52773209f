/* Member faults: a drive that fails, is replaced, has latent sector
 * errors, or runs slow (fail-slow).
 *
 * A failed drive fails its commands at once, as a controller does when it
 * drops a dead disk: its commands in flight are void from that moment
 * (the epoch of the slot moves on, and each operation remembers the epoch
 * it was sent in), and what they stood for is redone without the member
 * (volume_io.c sends nothing to it afterwards).  The drive model itself
 * still finishes the voided commands later; their results are dropped
 * when they arrive, and only then is the operation's place in the parent
 * released (so no request completes twice and none is lost).  The
 * simplification: the voided commands keep the dead drive busy in the
 * simulation, which nobody sees since nothing else goes to it.
 *
 * Media errors: a read of a member range holding one fails, and the
 * array reads those blocks without the member (a copy or reconstruction),
 * as md does on a read error.  A reconstruction source that fails too
 * takes the next source the level has (RAID6's Q); without one the
 * request fails with data loss.
 *
 * Fail-slow: each operation of a slow member finishes (factor - 1) times
 * its service time later than the drive finished it, and holds the drive
 * until then: a slow drive takes one command at a time from the array and
 * the next starts after the stretched service, so it costs the throughput
 * it would lose (one command per factor x service time), not only the
 * latency.  (It also gives up reordering among queued commands, which a
 * drive that slow hardly gains from.) */
#include "raid/volume_priv.h"

#include <string.h>

#include "kernel/assert.h"

void array_faults_init(struct array *a)
{
	for (uint32_t m = 0; m < RS_RAID_MAX_MEMBERS; m++) {
		a->slot[m].dev = m;
		a->slot[m].slow = 1.0;
	}
	a->unit_blk = a->g.strip_blk ? a->g.strip_blk : 128u;
	for (uint64_t s = 0; s < a->p.spares; s++)
		a->spare_free[a->nspare_free++] = a->g.nmembers + (uint32_t)s;
}

void array_fail_slot(struct rs_sim *sim, struct array *a, uint32_t m)
{
	RS_ASSERT(m < a->g.nmembers);
	if (a->lost >> m & 1u) {
		/* The drive being rebuilt onto died: the rebuild stops and
		 * the slot is lost as a whole again. */
		if (a->rb.active && a->rb.slot == m) {
			array_rebuild_abort(a);
			a->slot[m].epoch++;
		}
		return;
	}
	a->slot[m].epoch++;
	a->slot[m].replaced = false;
	a->lost |= 1ull << m;
	a->c.member_failures++;
	if (!rs_raid_survives(&a->g, a->lost)) {
		a->dead = true;
		a->c.data_lost = true;
		array_rebuild_abort(a);
		return;
	}
	array_rebuild_maybe_start(sim, a);
}

static void array_replace_slot(struct rs_sim *sim, struct array *a, uint32_t m)
{
	RS_ASSERT(m < a->g.nmembers);
	if (!(a->lost >> m & 1u) || (a->rb.active && a->rb.slot == m) || a->dead)
		return;
	a->slot[m].replaced = true;
	/* The new drive has none of the old one's bad blocks. */
	uint32_t dev = a->slot[m].dev, n = 0;
	for (uint32_t i = 0; i < a->nmedia; i++)
		if (a->media[i].dev != dev)
			a->media[n++] = a->media[i];
	a->nmedia = n;
	array_rebuild_maybe_start(sim, a);
}

/* Whether member blocks [lba, lba + nblk) of drive dev hold a media error. */
static bool array_media_error(const struct array *a, uint32_t dev, uint64_t lba, uint32_t nblk,
			      rs_time_t now)
{
	for (uint32_t i = 0; i < a->nmedia; i++) {
		const struct media_error *me = &a->media[i];
		if (me->dev == dev && me->from <= now && lba <= me->hi && lba + nblk > me->lo)
			return true;
	}
	return false;
}

/* The next waiting command of slot ss, if its drive is free. */
static void slow_next(struct rs_sim *sim, struct array *a, struct slot_state *ss)
{
	if (ss->busy || !ss->wait_head)
		return;
	struct rs_io *child = rs_io_fifo_pop(&ss->wait_head, &ss->wait_tail);
	ss->busy = true;
	/* The drive gets it now: its service (which the stretch scales, and
	 * which a drive serving from its cache does not stamp with t_issue)
	 * starts here, not at the wait in line. */
	child->t_submit = sim->now;
	rs_dev_submit(sim, a->dev->members[ss->dev], child);
}

void array_member_submit(struct rs_sim *sim, struct array *a, struct mop *mo,
			 struct rs_io *child)
{
	struct slot_state *ss = &a->slot[mo->member];
	if (ss->slow <= 1.0 && !ss->wait_head) {
		rs_dev_submit(sim, a->dev->members[ss->dev], child);
		return;
	}
	mo->flags |= MOP_HELD;
	rs_io_fifo_push(&ss->wait_head, &ss->wait_tail, child);
	slow_next(sim, a, ss);
}

static void slow_done(struct rs_sim *sim, void *obj, void *arg)
{
	(void)obj;
	struct rs_io *child = arg;
	child->done(sim, child);
}

/* A reconstruction source failed too: the next source of each row, if the
 * level has one. */
static void recon_source_failed(struct rs_sim *sim, struct array *a, struct mop *mo,
				struct rs_io *child, bool media)
{
	struct rs_io *parent = child->parent;
	uint64_t lba = child->lba, end = child->lba + child->nblk;
	uint32_t dev = a->slot[mo->member].dev;
	while (lba < end) {
		uint64_t row = array_row_of(a, lba);
		uint64_t row_end = (row + 1) * a->unit_blk;
		uint64_t stop = row_end < end ? row_end : end;
		uint32_t before[RS_RAID_MAX_MEMBERS], after[RS_RAID_MAX_MEMBERS];
		uint32_t nb = array_recon_sources(a, row, mo->recon_of, 0, before);
		uint32_t na = array_recon_sources(a, row, mo->recon_of, 1ull << mo->member, after);
		if (media && !array_media_error(a, dev, lba, (uint32_t)(stop - lba), sim->now)) {
			/* This row of the operation read fine. */
		} else if (na < array_recon_needed(a)) {
			if (array_is_rebuild(parent)) {
				/* A rebuild that cannot read a row: the row's
				 * data is gone, the rebuild goes on. */
				array_row_lost(a, row);
			} else {
				array_data_lost(a, parent);
			}
		} else {
			for (uint32_t k = 0; k < na; k++) {
				bool used = false;
				for (uint32_t j = 0; j < nb; j++)
					used |= before[j] == after[k];
				if (used)
					continue;
				enum rs_array_op kind = rs_raid_has_parity(&a->g) &&
					rs_raid_data_index(&a->g, row, after[k]) < 0
					? RS_ARRAY_PARITY_READ : RS_ARRAY_READ;
				if (mo->st)
					array_stripe_hold(mo->st);
				array_issue_ex(sim, a, parent, mo->st, after[k], kind, lba,
					       (uint32_t)(stop - lba), mo->flags, mo->recon_of);
			}
		}
		lba = stop;
	}
}

/* A read that did not deliver (its member died meanwhile, or a media
 * error): redo it without the member. */
static void redo_read(struct rs_sim *sim, struct array *a, struct mop *mo, struct rs_io *child)
{
	if (mo->flags & MOP_RECON) {
		recon_source_failed(sim, a, mo, child, mo->epoch == a->slot[mo->member].epoch);
		return;
	}
	array_read_without(sim, a, child->parent, mo->st, mo->member, 1ull << mo->member,
			   child->lba, child->nblk);
}

bool array_fault_filter(struct rs_sim *sim, struct array *a, struct mop *mo, struct rs_io *child)
{
	struct slot_state *ss = &a->slot[mo->member];
	if (mo->epoch == ss->epoch && ss->slow > 1.0 && !(mo->flags & MOP_SLOWED)) {
		mo->flags |= MOP_SLOWED;
		rs_time_t from = child->t_issue >= child->t_submit ? child->t_issue
								   : child->t_submit;
		rs_time_t service = child->t_done > from ? child->t_done - from : 0;
		rs_time_t extra = (rs_time_t)((ss->slow - 1.0) * (double)service + 0.5);
		if (extra > 0) {
			rs_sched(sim, extra, slow_done, a, child);
			return true;
		}
	}
	if (mo->flags & MOP_HELD) {
		/* Its stretched service is over: the drive takes the next. */
		mo->flags &= (uint8_t) ~MOP_HELD;
		ss->busy = false;
		slow_next(sim, a, ss);
	}
	bool voided = mo->epoch != ss->epoch;
	bool read = mo->kind == RS_ARRAY_READ || mo->kind == RS_ARRAY_PARITY_READ;
	bool media = !voided && read && child->status == 0 &&
		     array_media_error(a, ss->dev, child->lba, child->nblk, sim->now);
	if (!voided && !media)
		return false;
	if (media)
		a->c.media_errors++;
	if (mo->flags & MOP_REBUILD) {
		/* A rebuild read met a media error: the row takes its next
		 * source, or is lost.  A rebuild operation whose drive died
		 * fails its phase, which the rebuild redoes or gives up. */
		if (voided)
			child->status = -RS_ERR_EIO;
		else
			recon_source_failed(sim, a, mo, child, true);
		if (!voided)
			child->status = 0;
		return false;
	}
	/* Writes and flushes to a member that died need no redo: the
	 * member's blocks are now defined by the survivors (the row's
	 * parity or the other copy), which get their writes as usual. */
	if (read && !a->dead)
		redo_read(sim, a, mo, child);
	else if (a->dead)
		array_data_lost(a, child->parent);
	child->status = 0;
	return false;
}

/* ---- the public calls --------------------------------------------------- */

static struct array *array_of(struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	struct array *a = dev->priv;
	a->faulty = true;
	a->quiet = false;
	return a;
}

void rs_array_fail_member(struct rs_sim *sim, struct rs_dev *dev, uint32_t m)
{
	array_fail_slot(sim, array_of(dev), m);
}

void rs_array_replace_member(struct rs_sim *sim, struct rs_dev *dev, uint32_t m)
{
	array_replace_slot(sim, array_of(dev), m);
}

void rs_array_fail_member_after(struct rs_dev *dev, uint32_t m, uint64_t ios)
{
	struct array *a = array_of(dev);
	RS_ASSERT(m < a->g.nmembers);
	a->slot[m].fail_after = ios;
}

int rs_array_add_media_error(struct rs_dev *dev, uint32_t m, uint64_t lo, uint64_t hi,
			     rs_time_t from)
{
	struct array *a = array_of(dev);
	RS_ASSERT(m < a->g.nmembers && lo <= hi);
	if (a->nmedia == MAX_MEDIA_ERRORS)
		return -1;
	a->media[a->nmedia++] = (struct media_error){ a->slot[m].dev, lo, hi, from };
	return 0;
}

int rs_array_find_member(struct rs_dev *dev, const char *name, uint32_t *m)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	const struct array *a = dev->priv;
	for (uint32_t i = 0; i < a->g.nmembers; i++) {
		const struct rs_dev *d = dev->members[a->slot[i].dev];
		/* A controller may have put its port in front of the drive. */
		if ((d->name && strcmp(d->name, name) == 0) ||
		    (d->nmembers == 1 && d->members[0]->name &&
		     strcmp(d->members[0]->name, name) == 0)) {
			*m = i;
			return 0;
		}
	}
	return -1;
}

void rs_array_mark_faulty(struct rs_dev *dev)
{
	(void)array_of(dev);
}

void rs_array_set_slow(struct rs_dev *dev, uint32_t m, double factor)
{
	struct array *a = array_of(dev);
	RS_ASSERT(m < a->g.nmembers && factor >= 1.0);
	a->slot[m].slow = factor;
}

bool rs_array_rebuilding(const struct rs_dev *dev, uint64_t *checkpoint)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	const struct array *a = dev->priv;
	if (checkpoint)
		*checkpoint = a->rb.checkpoint;
	return a->rb.active;
}
