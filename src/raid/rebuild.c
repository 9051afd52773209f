/* Rebuilding a lost member onto a hot spare or its replacement drive.
 *
 * Sequential by row, in chunks of whole rows (about 1 MiB per member):
 * a chunk reads, from each member the level needs (RAID5: all the
 * others; RAID6: the other data and P; mirrors: one surviving copy), the
 * chunk's rows (one command per member: a row sits at one offset on every
 * member, so consecutive rows are contiguous), then writes them to the new
 * drive one row per command.  REBUILD_WINDOW chunks are in flight, so the reads of one overlap
 * the write of the one before and the members stream.  Rows below the
 * checkpoint (the first row not yet written) are served from the new
 * drive; the others are still read without it (degraded.c).
 *
 * Pacing against foreground I/O (the array had host requests in flight
 * or arriving since the last look):
 *   speed-limits   Linux md: a chunk starts no sooner than its bytes at
 *                  speed_limit_max after the previous one started when the
 *                  array is idle, at speed_limit_min when it is not (md
 *                  sleeps while it runs faster than the limit in force).
 *   low/medium/high  a hardware controller's rebuild priority, a share of
 *                  the members' time (20 %, 50 %, 80 %): with foreground
 *                  I/O present, after a chunk that took T the next starts
 *                  no sooner than T / share after it started; idle, at once.
 *
 * A media error in a rebuild read takes the row's next source (RAID6's Q)
 * or loses the row (RAID5: counted in stripes_lost, the rebuild goes on).
 * A rebuild phase whose drive died is redone without it, or the rebuild
 * stops when the array is dead or the new drive died. */
#include "raid/volume_priv.h"

#include "kernel/assert.h"

/* Chunks of this many blocks per member (1 MiB), at least one row. */
#define CHUNK_BLK 2048u

static uint64_t total_rows(const struct array *a)
{
	return (a->g.member_blk + a->unit_blk - 1) / a->unit_blk;
}

static uint64_t chunk_lba(const struct array *a, const struct rebuild_chunk *ch)
{
	return ch->row * a->unit_blk;
}

static uint32_t chunk_nblk(const struct array *a, const struct rebuild_chunk *ch)
{
	uint64_t end = (ch->row + ch->nrows) * a->unit_blk;
	if (end > a->g.member_blk)
		end = a->g.member_blk;
	return (uint32_t)(end - chunk_lba(a, ch));
}

static double priority_share(int prio)
{
	switch (prio) {
	case REBUILD_LOW:
		return 0.2;
	case REBUILD_MEDIUM:
		return 0.5;
	default:
		return 0.8;
	}
}

/* Foreground I/O present now or since the last look. */
static bool foreground_active(struct array *a)
{
	bool active = a->fg_inflight > 0 || a->fg_arrivals != a->rb.fg_seen;
	a->rb.fg_seen = a->fg_arrivals;
	return active;
}

static void pump(struct rs_sim *sim, struct array *a);

static struct rs_io *phase_io(struct rs_sim *sim, struct array *a, struct rebuild_chunk *ch,
			      enum rs_op op, rs_io_done_fn *done)
{
	struct rs_io *io = rs_io_new(sim, op, chunk_lba(a, ch), chunk_nblk(a, ch), done, ch);
	rs_io_hold(io);
	return io;
}

static void read_done(struct rs_sim *sim, struct rs_io *io);

static void read_phase(struct rs_sim *sim, struct array *a, struct rebuild_chunk *ch)
{
	ch->writing = false;
	struct rs_io *io = phase_io(sim, a, ch, RS_READ, read_done);
	uint64_t run_lba[RS_RAID_MAX_MEMBERS];
	uint32_t run_nblk[RS_RAID_MAX_MEMBERS] = { 0 };
	uint32_t need = array_recon_needed(a), target = a->rb.slot;
	for (uint64_t r = ch->row; r < ch->row + ch->nrows; r++) {
		uint32_t src[RS_RAID_MAX_MEMBERS];
		uint32_t n = array_recon_sources(a, r, target, 0, src);
		if (n < need) {
			array_row_lost(a, r);
			continue;
		}
		uint64_t lo = r * a->unit_blk;
		uint64_t hi = lo + a->unit_blk < a->g.member_blk ? lo + a->unit_blk
								   : a->g.member_blk;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t m = src[k];
			if (run_nblk[m] && run_lba[m] + run_nblk[m] == lo) {
				run_nblk[m] += (uint32_t)(hi - lo);
				continue;
			}
			if (run_nblk[m])
				array_issue_ex(sim, a, io, NULL, m, RS_ARRAY_READ, run_lba[m],
					       run_nblk[m], MOP_REBUILD | MOP_RECON, target);
			run_lba[m] = lo;
			run_nblk[m] = (uint32_t)(hi - lo);
		}
	}
	for (uint32_t m = 0; m < a->g.nmembers; m++)
		if (run_nblk[m])
			array_issue_ex(sim, a, io, NULL, m, RS_ARRAY_READ, run_lba[m], run_nblk[m],
				       MOP_REBUILD | MOP_RECON, target);
	array_release(sim, a, io);
}

static void write_done(struct rs_sim *sim, struct rs_io *io);

static void write_phase(struct rs_sim *sim, struct array *a, struct rebuild_chunk *ch)
{
	ch->writing = true;
	struct rs_io *io = phase_io(sim, a, ch, RS_WRITE, write_done);
	/* One write per row, as md writes each stripe's recovered block: a
	 * drive's write cache takes row-sized writes and streams them, where
	 * one larger than the cache would be written through. */
	uint64_t lba = chunk_lba(a, ch), end = lba + chunk_nblk(a, ch);
	while (lba < end) {
		uint64_t stop = lba + a->unit_blk < end ? lba + a->unit_blk : end;
		array_issue_ex(sim, a, io, NULL, a->rb.slot, RS_ARRAY_WRITE, lba,
			       (uint32_t)(stop - lba), MOP_REBUILD, 0);
		lba = stop;
	}
	array_release(sim, a, io);
}

static bool any_busy(const struct array *a)
{
	for (uint32_t i = 0; i < REBUILD_WINDOW; i++)
		if (a->rb.ch[i].busy)
			return true;
	return false;
}

/* A chunk of a rebuild that has stopped finished its phase. */
static bool stale(struct rs_sim *sim, struct array *a, struct rebuild_chunk *ch)
{
	if (a->rb.active)
		return false;
	ch->busy = false;
	if (!any_busy(a))
		array_rebuild_maybe_start(sim, a);
	return true;
}

static void xor_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)status;
	struct array *a = obj;
	struct rebuild_chunk *ch = arg;
	if (stale(sim, a, ch))
		return;
	write_phase(sim, a, ch);
}

static void read_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rebuild_chunk *ch = io->done_ctx;
	struct array *a = ch->a;
	int status = io->status;
	rs_io_free(sim, io);
	if (stale(sim, a, ch))
		return;
	if (status != 0) {
		/* A source died under the chunk: read it again from what is
		 * left (the array is still alive, or the rebuild had stopped). */
		read_phase(sim, a, ch);
		return;
	}
	if (a->has_xor) {
		/* The chunk's rows are computed from the sources read, every
		 * block of them through the XOR once, before they are written
		 * (a mirror copies and has no XOR). */
		uint64_t bytes = (uint64_t)chunk_nblk(a, ch) * RS_BLOCK_BYTES * array_recon_needed(a);
		array_xor_submit(sim, a, bytes, xor_done, a, ch);
		return;
	}
	write_phase(sim, a, ch);
}

static void finish(struct rs_sim *sim, struct array *a)
{
	a->rb.active = false;
	a->lost &= ~(1ull << a->rb.slot);
	a->c.rebuilds++;
	a->c.rebuild_end = sim->now;
	array_rebuild_maybe_start(sim, a);
}

static void write_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rebuild_chunk *ch = io->done_ctx;
	struct array *a = ch->a;
	int status = io->status;
	rs_io_free(sim, io);
	if (stale(sim, a, ch))
		return;
	if (status != 0) {
		/* The new drive refused the write: the rebuild stops and the
		 * slot stays lost. */
		array_rebuild_abort(a);
		ch->busy = false;
		return;
	}
	a->c.rebuild_rows += ch->nrows;
	a->c.rebuild_bytes += (uint64_t)chunk_nblk(a, ch) * RS_BLOCK_BYTES;
	ch->busy = false;
	if (a->p.rebuild_priority != REBUILD_SPEED_LIMITS && foreground_active(a)) {
		rs_time_t took = sim->now - ch->t_start;
		rs_time_t next = ch->t_start +
			(rs_time_t)((double)took / priority_share(a->p.rebuild_priority) + 0.5);
		if (next > a->rb.next_allowed)
			a->rb.next_allowed = next;
	}
	/* Chunks start in row order, so the checkpoint is the first row of
	 * the oldest chunk still busy. */
	uint64_t cp = a->rb.next_row;
	for (uint32_t i = 0; i < REBUILD_WINDOW; i++)
		if (a->rb.ch[i].busy && a->rb.ch[i].row < cp)
			cp = a->rb.ch[i].row;
	a->rb.checkpoint = cp;
	if (cp >= total_rows(a)) {
		finish(sim, a);
		return;
	}
	pump(sim, a);
}

static void wake(struct rs_sim *sim, void *obj, void *arg)
{
	(void)arg;
	struct array *a = obj;
	a->rb.wake_pending = false;
	pump(sim, a);
}

static void pump(struct rs_sim *sim, struct array *a)
{
	struct rebuild *rb = &a->rb;
	uint64_t rows = total_rows(a);
	while (rb->active && rb->next_row < rows) {
		struct rebuild_chunk *ch = NULL;
		for (uint32_t i = 0; i < REBUILD_WINDOW && !ch; i++)
			if (!rb->ch[i].busy)
				ch = &rb->ch[i];
		if (!ch)
			return;
		if (sim->now < rb->next_allowed) {
			if (!rb->wake_pending) {
				rb->wake_pending = true;
				rs_sched_at(sim, rb->next_allowed, wake, a, NULL);
			}
			return;
		}
		ch->a = a;
		ch->busy = true;
		ch->row = rb->next_row;
		ch->nrows = rows - rb->next_row < rb->rows_per_chunk ? rows - rb->next_row
								      : rb->rows_per_chunk;
		ch->t_start = sim->now;
		rb->next_row += ch->nrows;
		if (a->p.rebuild_priority == REBUILD_SPEED_LIMITS) {
			double limit = foreground_active(a) ? a->p.speed_min : a->p.speed_max;
			double bytes = (double)chunk_nblk(a, ch) * RS_BLOCK_BYTES;
			rb->next_allowed = sim->now + (rs_time_t)(bytes / limit * 1e9 + 0.5);
		}
		read_phase(sim, a, ch);
	}
}

void array_rebuild_maybe_start(struct rs_sim *sim, struct array *a)
{
	if (a->rb.active || a->dead || any_busy(a) || !sim)
		return;
	for (uint32_t m = 0; m < a->g.nmembers; m++) {
		struct slot_state *ss = &a->slot[m];
		if (!(a->lost >> m & 1u) || (!ss->replaced && a->nspare_free == 0))
			continue;
		if (!ss->replaced) {
			/* The lowest-numbered spare first. */
			ss->dev = a->spare_free[0];
			for (uint32_t i = 1; i < a->nspare_free; i++)
				a->spare_free[i - 1] = a->spare_free[i];
			a->nspare_free--;
		}
		ss->replaced = false;
		struct rebuild *rb = &a->rb;
		rb->active = true;
		rb->slot = m;
		rb->rows_per_chunk = CHUNK_BLK / a->unit_blk ? CHUNK_BLK / a->unit_blk : 1;
		rb->next_row = 0;
		rb->checkpoint = 0;
		rb->next_allowed = sim->now;
		rb->fg_seen = a->fg_arrivals;
		a->c.rebuild_start = sim->now;
		a->c.rebuild_end = 0;
		pump(sim, a);
		return;
	}
}

void array_rebuild_abort(struct array *a)
{
	a->rb.active = false;
}
