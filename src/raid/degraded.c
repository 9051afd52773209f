/* Reads and writes of an array that has lost members.
 *
 * A read of a lost member's blocks goes to a surviving copy (mirrors) or
 * is reconstructed from the row's other members (RAID5: every other
 * member; RAID6: the other data and P, or P and Q when two are gone): the
 * same member blocks of each, since a row sits at one member offset on
 * all of them.  Writes skip lost members; RAID5/6 rows are planned in
 * volume_parity.c with the lost members in mind.  When a level has lost
 * more than it survives (no copy, too few sources), the request fails
 * with RS_ERR_DATALOSS: nothing is sent for the lost part. */
#include "raid/volume_priv.h"

#include "kernel/assert.h"

uint32_t array_recon_needed(const struct array *a)
{
	return rs_raid_has_parity(&a->g) ? a->g.ndata : 1u;
}

static bool usable(const struct array *a, uint32_t m, uint64_t row, uint32_t target,
		   uint64_t exclude)
{
	return m != target && !(exclude >> m & 1u) && !slot_lost_row(a, m, row);
}

uint32_t array_recon_sources(const struct array *a, uint64_t row, uint32_t target,
			     uint64_t exclude, uint32_t *out)
{
	uint32_t need = array_recon_needed(a), n = 0;
	if (rs_raid_has_parity(&a->g)) {
		uint32_t p, q;
		rs_raid_parity(&a->g, row, &p, &q);
		for (uint32_t d = 0; d < a->g.ndata && n < need; d++) {
			uint32_t m = rs_raid_data_member(&a->g, row, d);
			if (usable(a, m, row, target, exclude))
				out[n++] = m;
		}
		if (n < need && usable(a, p, row, target, exclude))
			out[n++] = p;
		if (n < need && q != RS_RAID_NO_MEMBER && usable(a, q, row, target, exclude))
			out[n++] = q;
		return n;
	}
	uint32_t copies[RS_RAID_MAX_MEMBERS];
	size_t nc = rs_raid_mirrors(&a->g, target, copies, RS_RAID_MAX_MEMBERS);
	for (size_t k = 0; k < nc && n < need; k++)
		if (usable(a, copies[k], row, target, exclude))
			out[n++] = copies[k];
	return n;
}

void array_data_lost(struct array *a, struct rs_io *io)
{
	if (io->status == 0) {
		io->status = -RS_ERR_DATALOSS;
		if (!array_is_rebuild(io))
			a->c.dataloss_requests++;
	}
	a->c.data_lost = true;
}

void array_row_lost(struct array *a, uint64_t row)
{
	a->c.stripes_lost++;
	a->c.data_lost = true;
	if (a->nbad < MAX_BAD_ROWS && !array_row_bad(a, row))
		a->bad_row[a->nbad++] = row;
}

bool array_row_bad(const struct array *a, uint64_t row)
{
	for (uint32_t i = 0; i < a->nbad; i++)
		if (a->bad_row[i] == row)
			return true;
	return false;
}

/* One row's part of a read without `target`. */
static void read_row_without(struct rs_sim *sim, struct array *a, struct rs_io *parent,
			     struct stripe *st, uint32_t target, uint64_t exclude, uint64_t lba,
			     uint32_t nblk)
{
	uint64_t row = array_row_of(a, lba);
	uint32_t src[RS_RAID_MAX_MEMBERS];
	uint32_t n = array_recon_sources(a, row, target, exclude, src);
	if (n < array_recon_needed(a)) {
		array_data_lost(a, parent);
		return;
	}
	a->c.recon_reads++;
	a->c.recon_bytes += (uint64_t)nblk * RS_BLOCK_BYTES;
	bool parity = rs_raid_has_parity(&a->g);
	for (uint32_t k = 0; k < n; k++) {
		enum rs_array_op kind = RS_ARRAY_READ;
		if (parity && rs_raid_data_index(&a->g, row, src[k]) < 0)
			kind = RS_ARRAY_PARITY_READ;
		if (st)
			array_stripe_hold(st);
		array_issue_ex(sim, a, parent, st, src[k], kind, lba, nblk, MOP_RECON, target);
	}
}

void array_read_without(struct rs_sim *sim, struct array *a, struct rs_io *parent,
			struct stripe *st, uint32_t target, uint64_t exclude, uint64_t lba,
			uint32_t nblk)
{
	if (!rs_raid_is_mirrored(&a->g) && !rs_raid_has_parity(&a->g)) {
		array_data_lost(a, parent);
		return;
	}
	/* Row by row: the sources may differ (parity rotates). */
	uint64_t end = lba + nblk;
	while (lba < end) {
		uint64_t row_end = (array_row_of(a, lba) + 1) * a->unit_blk;
		uint64_t stop = row_end < end ? row_end : end;
		read_row_without(sim, a, parent, st, target, exclude, lba, (uint32_t)(stop - lba));
		lba = stop;
	}
}

void array_degraded_read(struct rs_sim *sim, struct array *a, struct rs_io *io,
			 const struct rs_raid_extent *e)
{
	uint64_t row = array_row_of(a, e->member_lba);
	bool copy_lost = false;
	if (rs_raid_is_mirrored(&a->g)) {
		uint32_t copies[RS_RAID_MAX_MEMBERS];
		size_t nc = rs_raid_mirrors(&a->g, e->member, copies, RS_RAID_MAX_MEMBERS);
		for (size_t k = 0; k < nc; k++)
			copy_lost |= slot_lost_row(a, copies[k], row);
	}
	if (!slot_lost_row(a, e->member, row)) {
		/* Its own member serves it; a mirror with a lost copy keeps
		 * the read on the primary rather than choosing. */
		uint32_t m = copy_lost ? e->member : array_pick_copy(a, e);
		array_issue(sim, a, io, NULL, m, RS_ARRAY_READ, e->member_lba, e->nblk);
		return;
	}
	array_read_without(sim, a, io, NULL, e->member, 0, e->member_lba, e->nblk);
}

void array_degraded_write(struct rs_sim *sim, struct array *a, struct rs_io *io,
			  const struct rs_raid_extent *e)
{
	uint64_t row = array_row_of(a, e->member_lba);
	uint32_t copies[RS_RAID_MAX_MEMBERS + 1];
	copies[0] = e->member;
	size_t n = 1 + rs_raid_mirrors(&a->g, e->member, copies + 1, RS_RAID_MAX_MEMBERS);
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		if (slot_lost_row(a, copies[k], row))
			continue;
		array_issue(sim, a, io, NULL, copies[k], RS_ARRAY_WRITE, e->member_lba, e->nblk);
		any = true;
	}
	if (!any)
		array_data_lost(a, io);
}
