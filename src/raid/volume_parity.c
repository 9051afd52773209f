/* RAID5/6 writes, one row (stripe) at a time.
 *
 * Each row a write touches runs three phases on its own:
 *
 *   read   what the parity update needs that the write does not bring:
 *          read-modify-write reads the old contents of the touched data
 *          and the old parity; reconstruct-write reads the data of the
 *          row it does not overwrite; a full-row write reads nothing;
 *   xor    the new parity is computed on the xor server (the host CPU or
 *          a controller's engine), which queues like any server;
 *   write  new data and new parity (P, and Q on RAID6).
 *
 * The parent request stays open until every row has written its data and
 * its parity: a completed write is one whose parity is on disk too.  Rows
 * proceed independently, as md's stripe cache handles them.
 *
 * Parity is updated over the union of the row's touched in-strip ranges
 * (one range per parity strip, coarse when a write touches the end of one
 * strip and the start of the next), and reconstruct-write reads exactly
 * the part of that range each data strip does not overwrite (one
 * operation per strip, spanning a hole if the write sits inside it). */
#include "raid/volume_priv.h"

#include "kernel/assert.h"

enum mode { MODE_FULL, MODE_RMW, MODE_RCW, MODE_NO_PARITY };

struct stripe {
	struct array *a;
	struct rs_io *parent;
	struct rs_raid_stripe_plan plan;
	uint32_t p_member, q_member;
	uint32_t par_off, par_nblk;   /* parity range within the strip */
	uint8_t mode;                 /* enum mode */
	bool writing;                 /* in the write phase */
	uint32_t pending;             /* member ops of this phase, plus a guard */
	uint64_t read_blk;            /* blocks read in the read phase */
	/* Degraded rows: members lost in this row (nothing is sent to them),
	 * and whether a lost data strip's old contents must be rebuilt for
	 * the parity (reconstruct-write reading the whole parity range of
	 * the surviving data and as many parity strips as strips are lost). */
	uint64_t skip;
	bool recon;
	uint32_t recon_parity;
};

size_t array_stripe_size(void) { return sizeof(struct stripe); }

void array_stripe_hold(struct stripe *st) { st->pending++; }

static bool skipped(const struct stripe *st, uint32_t m)
{
	return m != RS_RAID_NO_MEMBER && (st->skip >> m & 1u);
}

static uint32_t nparity(const struct stripe *st)
{
	return st->q_member == RS_RAID_NO_MEMBER ? 1u : 2u;
}

static uint64_t strip_base(const struct array *a, const struct stripe *st)
{
	return st->plan.stripe * a->g.strip_blk;
}

/* The part of the parity range data strip d does not overwrite, as one
 * range [*lo, *hi); empty when lo == hi. */
static void rcw_range(const struct stripe *st, uint32_t d, uint32_t *lo, uint32_t *hi)
{
	uint32_t plo = st->par_off, phi = st->par_off + st->par_nblk;
	uint32_t wlo = st->plan.strip_off[d], whi = wlo + st->plan.strip_nblk[d];
	if (st->plan.strip_nblk[d] == 0 || whi <= plo || wlo >= phi) {
		*lo = plo;
		*hi = phi;
	} else if (wlo <= plo && whi >= phi) {
		*lo = *hi = plo;
	} else if (wlo <= plo) {
		*lo = whi;
		*hi = phi;
	} else if (whi >= phi) {
		*lo = plo;
		*hi = wlo;
	} else {
		*lo = plo;            /* hole in the middle: one read across it */
		*hi = phi;
	}
}

static uint32_t rcw_reads(const struct array *a, const struct stripe *st)
{
	uint32_t n = 0, lo, hi;
	for (uint32_t d = 0; d < a->g.ndata; d++) {
		rcw_range(st, d, &lo, &hi);
		n += hi > lo;
	}
	return n;
}

/* Fewest member operations wins; both write the same, so compare reads.
 * On a tie, read-modify-write: it touches only the members it writes,
 * leaving the others free for other requests. */
static uint32_t rcw_reads(const struct array *a, const struct stripe *st);

/* A row with lost members: a write to a lost data strip must reconstruct
 * (its old data cannot be read), a write to a row whose parity is all
 * lost is a plain data write, and otherwise the usual choice holds with
 * the lost parity left out. */
static int choose_degraded(const struct array *a, struct stripe *st)
{
	uint32_t lost_parity = skipped(st, st->p_member) + skipped(st, st->q_member);
	uint32_t lost_touched = 0, lost_unread = 0, lost_untouched = 0;
	for (uint32_t d = 0; d < a->g.ndata; d++) {
		uint32_t lo, hi;
		if (!skipped(st, rs_raid_data_member(&a->g, st->plan.stripe, d)))
			continue;
		rcw_range(st, d, &lo, &hi);
		lost_touched += st->plan.strip_nblk[d] > 0;
		lost_untouched += st->plan.strip_nblk[d] == 0;
		lost_unread += hi > lo;
	}
	if (lost_parity == nparity(st))
		return MODE_NO_PARITY;
	if (st->plan.full)
		return MODE_FULL;
	if (lost_touched == 0)
		/* Read-modify-write needs nothing of the lost strips. */
		return lost_untouched ? MODE_RMW : -1;
	st->recon = lost_unread > 0;
	st->recon_parity = lost_unread;
	return MODE_RCW;
}

static enum mode choose(const struct array *a, struct stripe *st)
{
	if (st->skip) {
		int m = choose_degraded(a, st);
		if (m >= 0)
			return (enum mode)m;
	}
	if (st->plan.full)
		return MODE_FULL;
	if (a->p.write_policy == WRITE_RMW)
		return MODE_RMW;
	uint32_t rcw = rcw_reads(a, st);
	if (a->p.write_policy == WRITE_RCW)
		return MODE_RCW;
	uint32_t rmw = st->plan.nstrips + nparity(st);
	return rcw < rmw ? MODE_RCW : MODE_RMW;
}

static void stripe_put(struct rs_sim *sim, struct stripe *st);

static void issue(struct rs_sim *sim, struct stripe *st, uint32_t member, enum rs_array_op kind,
		  uint64_t lba, uint32_t nblk)
{
	/* Lost when the row was planned, or since (a member that died while
	 * the row was reading or computing parity): nothing goes to it. */
	if (skipped(st, member) || (st->a->lost && slot_lost_row(st->a, member, st->plan.stripe)))
		return;
	st->pending++;
	array_issue(sim, st->a, st->parent, st, member, kind, lba, nblk);
}

static void read_phase(struct rs_sim *sim, struct stripe *st)
{
	struct array *a = st->a;
	const struct rs_raid_stripe_plan *pl = &st->plan;
	uint64_t base = strip_base(a, st);
	st->pending = 1;
	if (st->mode == MODE_RMW) {
		for (uint32_t d = 0; d < a->g.ndata; d++) {
			if (pl->strip_nblk[d] == 0)
				continue;
			issue(sim, st, rs_raid_data_member(&a->g, pl->stripe, d), RS_ARRAY_READ,
			      base + pl->strip_off[d], pl->strip_nblk[d]);
			st->read_blk += pl->strip_nblk[d];
		}
		issue(sim, st, st->p_member, RS_ARRAY_PARITY_READ, base + st->par_off,
		      st->par_nblk);
		if (st->q_member != RS_RAID_NO_MEMBER)
			issue(sim, st, st->q_member, RS_ARRAY_PARITY_READ, base + st->par_off,
			      st->par_nblk);
		st->read_blk += (uint64_t)nparity(st) * st->par_nblk;
	} else if (st->mode == MODE_RCW && st->recon) {
		for (uint32_t d = 0; d < a->g.ndata; d++) {
			uint32_t m = rs_raid_data_member(&a->g, pl->stripe, d);
			if (skipped(st, m))
				continue;
			issue(sim, st, m, RS_ARRAY_READ, base + st->par_off, st->par_nblk);
			st->read_blk += st->par_nblk;
		}
		uint32_t par[2] = { st->p_member, st->q_member }, want = st->recon_parity;
		for (uint32_t k = 0; k < 2 && want > 0; k++) {
			if (par[k] == RS_RAID_NO_MEMBER || skipped(st, par[k]))
				continue;
			issue(sim, st, par[k], RS_ARRAY_PARITY_READ, base + st->par_off,
			      st->par_nblk);
			st->read_blk += st->par_nblk;
			want--;
		}
		a->c.recon_reads++;
		a->c.recon_bytes += (uint64_t)st->par_nblk * RS_BLOCK_BYTES;
	} else if (st->mode == MODE_RCW) {
		uint32_t lo, hi;
		for (uint32_t d = 0; d < a->g.ndata; d++) {
			rcw_range(st, d, &lo, &hi);
			if (hi == lo)
				continue;
			issue(sim, st, rs_raid_data_member(&a->g, pl->stripe, d), RS_ARRAY_READ,
			      base + lo, hi - lo);
			st->read_blk += hi - lo;
		}
	}
	stripe_put(sim, st);
}

static void write_phase(struct rs_sim *sim, struct stripe *st)
{
	struct array *a = st->a;
	const struct rs_raid_stripe_plan *pl = &st->plan;
	uint64_t base = strip_base(a, st);
	st->writing = true;
	st->pending = 1;
	for (uint32_t d = 0; d < a->g.ndata; d++) {
		if (pl->strip_nblk[d] == 0)
			continue;
		issue(sim, st, rs_raid_data_member(&a->g, pl->stripe, d), RS_ARRAY_WRITE,
		      base + pl->strip_off[d], pl->strip_nblk[d]);
	}
	issue(sim, st, st->p_member, RS_ARRAY_PARITY_WRITE, base + st->par_off, st->par_nblk);
	if (st->q_member != RS_RAID_NO_MEMBER)
		issue(sim, st, st->q_member, RS_ARRAY_PARITY_WRITE, base + st->par_off,
		      st->par_nblk);
	stripe_put(sim, st);
}

static void xor_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)arg;
	(void)status;
	write_phase(sim, obj);
}

/* Every block read and every new data block passes through the XOR once
 * per parity strip (RAID6's Q is costed like P: the engines of the time
 * did both in one pass over the data, at about the same rate). */
static void xor_phase(struct rs_sim *sim, struct stripe *st)
{
	struct array *a = st->a;
	if (!a->has_xor || st->mode == MODE_NO_PARITY) {
		write_phase(sim, st);
		return;
	}
	uint64_t new_blk = (uint64_t)st->plan.last_blk - st->plan.first_blk + 1;
	uint64_t bytes = (st->read_blk + new_blk) * RS_BLOCK_BYTES * nparity(st);
	array_xor_submit(sim, a, bytes, xor_done, st, NULL);
}

void array_xor_submit(struct rs_sim *sim, struct array *a, uint64_t bytes, rs_job_fn *fn,
		      void *obj, void *arg)
{
	RS_ASSERT(a->has_xor);
	a->c.xor_jobs++;
	a->c.xor_bytes += bytes;
	rs_time_t ns = a->p.xor.cost_ns + (rs_time_t)((double)bytes * a->xor_ns_per_byte + 0.5);
	rs_server_submit(sim, &a->xor, ns, fn, obj, arg);
}

static void stripe_finish(struct rs_sim *sim, struct stripe *st)
{
	struct array *a = st->a;
	struct rs_io *parent = st->parent;
	rs_pool_put(&a->stripes, st);
	array_release(sim, a, parent);
}

static void stripe_put(struct rs_sim *sim, struct stripe *st)
{
	RS_ASSERT(st->pending > 0);
	if (--st->pending > 0)
		return;
	if (st->writing)
		stripe_finish(sim, st);
	else
		xor_phase(sim, st);
}

void array_stripe_op_done(struct rs_sim *sim, struct stripe *st)
{
	stripe_put(sim, st);
}

static void parity_range(const struct array *a, struct stripe *st)
{
	uint32_t lo = a->g.strip_blk, hi = 0;
	for (uint32_t d = 0; d < a->g.ndata; d++) {
		uint32_t n = st->plan.strip_nblk[d];
		if (n == 0)
			continue;
		if (st->plan.strip_off[d] < lo)
			lo = st->plan.strip_off[d];
		if (st->plan.strip_off[d] + n > hi)
			hi = st->plan.strip_off[d] + n;
	}
	RS_ASSERT(lo < hi);
	st->par_off = lo;
	st->par_nblk = hi - lo;
}

static void stripe_start(struct rs_sim *sim, struct array *a, struct rs_io *io, uint64_t lba,
			 uint32_t nblk)
{
	struct stripe *st = rs_pool_get(&a->stripes);
	st->a = a;
	st->parent = io;
	size_t n = rs_raid_stripe_plan(&a->g, lba, nblk, &st->plan, 1);
	RS_ASSERT(n == 1);
	rs_raid_parity(&a->g, st->plan.stripe, &st->p_member, &st->q_member);
	parity_range(a, st);
	st->read_blk = 0;
	st->writing = false;
	st->skip = 0;
	st->recon = false;
	st->recon_parity = 0;
	for (uint64_t m = 0; a->lost && m < a->g.nmembers; m++)
		if (slot_lost_row(a, (uint32_t)m, st->plan.stripe))
			st->skip |= 1ull << m;
	st->mode = (uint8_t)choose(a, st);
	if (st->mode == MODE_FULL)
		a->c.full_stripes++;
	else if (st->mode == MODE_RMW)
		a->c.rmw_stripes++;
	else if (st->mode == MODE_RCW)
		a->c.rcw_stripes++;
	/* The row's own reference: the parent stays open through the XOR,
	 * when none of the row's member operations is in flight. */
	rs_io_hold(io);
	read_phase(sim, st);
}

void array_parity_write(struct rs_sim *sim, struct array *a, struct rs_io *io)
{
	uint64_t lba = io->lba, end = io->lba + io->nblk;
	uint64_t row_blk = a->g.row_data_blk;
	while (lba < end) {
		uint64_t row_end = (lba / row_blk + 1) * row_blk;
		uint64_t stop = row_end < end ? row_end : end;
		stripe_start(sim, a, io, lba, (uint32_t)(stop - lba));
		lba = stop;
	}
}
