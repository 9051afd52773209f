#include "disk/spindle_position.h"

#include "kernel/assert.h"

static uint32_t distance(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

rs_time_t rs_disk_position_time(const struct rs_layout *l, const struct rs_seek *s,
				const struct rs_spindle *sp,
				const struct rs_head_state *from, uint64_t lba,
				int is_write, struct rs_position *out)
{
	rs_layout_lba_to_phys(l, lba, &out->target);
	out->seek_ns = rs_seek_reposition_time(s, distance(from->cyl, out->target.cyl),
					       from->head != out->target.head, is_write);
	out->rot_ns = rs_spindle_wait(sp, from->free_at_ns + out->seek_ns,
				      rs_layout_angle_of(l, &out->target));
	out->total_ns = out->seek_ns + out->rot_ns;
	return out->total_ns;
}

/* The run after r, in *n, and when its first sector starts, r having been
 * read to its end (last_sector) by t_end. */
static double run_switch(const struct rs_layout *l, const struct rs_seek *s, double period_ns,
			 const struct rs_track_run *r, uint32_t last_sector, double t_end,
			 struct rs_track_run *n)
{
	*n = *r;
	rs_layout_run_next(l, n);
	/* The head leaves the last sector's end at angle `from`; after the
	 * switch it waits for n's start to come round. */
	double from = (double)((r->base + last_sector) % r->spt) / r->spt + 1.0 / r->spt;
	/* Switches inside one transfer are charged as for reads even when
	 * writing: skews are laid out for them, and datasheets give one
	 * sustained rate for reading and writing.  The write settle applies
	 * to the seek that starts an access. */
	rs_time_t sw = rs_seek_reposition_time(s, distance(r->p.cyl, n->p.cyl),
					       r->p.head != n->p.head, 0);
	double gap = (double)((n->base + n->p.sector) % n->spt) / n->spt - from -
		(double)sw / period_ns;
	gap -= rs_floor(gap);
	/* An exact fit (skew == switch) must not cost a turn to rounding. */
	if (gap > 1 - 1e-12)
		gap = 0;
	return t_end + ((double)sw + gap * period_ns);
}

/* One block: no switch, just its sector's share of a turn. */
static rs_time_t one_block_in(const struct rs_layout_zone *z, double period_ns)
{
	return rs_round_nonneg(period_ns / z->spt);
}

static rs_time_t one_block(const struct rs_layout *l, double period_ns, uint64_t lba)
{
	return one_block_in(&l->zones[rs_layout_zone_of_lba(l, lba)], period_ns);
}

rs_time_t rs_disk_media_time(const struct rs_layout *l, const struct rs_seek *s,
			     const struct rs_spindle *sp, uint64_t lba,
			     uint32_t nblk, int is_write)
{
	(void)is_write;                   /* see run_switch */
	RS_ASSERT(nblk >= 1 && lba + nblk <= rs_layout_capacity_blk(l));
	double period_ns = rs_spindle_period_ns(sp);
	if (nblk == 1)
		return one_block(l, period_ns, lba);
	uint64_t last = lba + nblk - 1;
	/* Walked track by track from lba's position, each track's end and
	 * the switch to the next added in turn. */
	struct rs_track_run r;
	rs_layout_run_at(l, lba, &r);
	double t_ns = 0;
	while (r.last < last) {
		struct rs_track_run n;
		uint32_t end_sector = rs_layout_run_sector(l, &r, r.last);
		double t_end = rs_disk_run_end(period_ns, &r, end_sector, t_ns);
		t_ns = run_switch(l, s, period_ns, &r, end_sector, t_end, &n);
		r = n;
	}
	return rs_round_nonneg(rs_disk_run_end(period_ns, &r, rs_layout_run_sector(l, &r, last),
					       t_ns));
}

rs_time_t rs_disk_media_time_memo_walk(const struct rs_layout *l, const struct rs_seek *s,
				       const struct rs_spindle *sp, struct rs_media_memo *memo,
				       uint64_t lba, uint32_t nblk)
{
	RS_ASSERT(nblk >= 1 && lba + nblk <= rs_layout_capacity_blk(l));
	double period_ns = rs_spindle_period_ns(sp);
	if (nblk == 1) {
		if (lba - memo->one_first >= memo->one_end - memo->one_first) {
			const struct rs_layout_zone *z = &l->zones[rs_layout_zone_of_lba(l, lba)];
			memo->one_first = z->first_lba;
			memo->one_end = z->first_lba + z->lba_count;
			memo->one_ns = one_block_in(z, period_ns);
		}
		return memo->one_ns;
	}
	if (!memo->ok || memo->origin != lba) {
		memo->ok = true;
		memo->origin = lba;
		memo->n = 1;
		rs_layout_run_at(l, lba, &memo->track[0].run);
		memo->track[0].t_ns = 0;
	}
	uint64_t last = lba + nblk - 1;
	uint32_t j = 0;
	while (j + 1 < memo->n && memo->track[j].run.last < last)
		j++;
	const struct rs_track_run *rj = &memo->track[j].run;
	double t_ns = memo->track[j].t_ns;
	/* Within the tracks walked: looked up, no copy of the run. */
	if (last <= rj->last)
		return rs_round_nonneg(rs_disk_run_end(period_ns, rj,
						       rs_layout_run_sector(l, rj, last), t_ns));
	struct rs_track_run r = *rj;
	/* Past the tracks walked: walk on from the last one, keeping what
	 * fits. */
	while (r.last < last) {
		struct rs_track_run n;
		uint32_t end_sector = rs_layout_run_sector(l, &r, r.last);
		double t_end = rs_disk_run_end(period_ns, &r, end_sector, t_ns);
		t_ns = run_switch(l, s, period_ns, &r, end_sector, t_end, &n);
		r = n;
		if (memo->n < RS_MEDIA_MEMO_TRACKS) {
			memo->track[memo->n].run = r;
			memo->track[memo->n].t_ns = t_ns;
			memo->n++;
		}
	}
	return rs_round_nonneg(rs_disk_run_end(period_ns, &r, rs_layout_run_sector(l, &r, last),
					       t_ns));
}
