#include "disk/spindle_position.h"

#include <math.h>

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

rs_time_t rs_disk_media_time(const struct rs_layout *l, const struct rs_seek *s,
			     const struct rs_spindle *sp, uint64_t lba,
			     uint32_t nblk, int is_write)
{
	RS_ASSERT(nblk >= 1 && lba + nblk <= rs_layout_capacity_blk(l));
	double period_ns = rs_spindle_period_ns(sp);
	/* Accumulated as a double duration and rounded once, so per-sector
	 * fractions of a nanosecond do not add up to an error. */
	double t_ns = 0;
	uint64_t end = lba + nblk;
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	for (;;) {
		/* p is lba's position (mapped once per track, not again here). */
		uint64_t last = rs_layout_track_last_lba_of(l, &p);
		if (last >= end)
			last = end - 1;
		struct rs_phys q;
		const struct rs_layout_zone *z = &l->zones[p.zone];
		if (z->slip_begin == z->slip_end) {
			/* No slips in the zone: the track's LBAs are consecutive
			 * sectors, so last's is lba's moved on. */
			q = p;
			q.sector += (uint32_t)(last - lba);
		} else {
			rs_layout_lba_to_phys(l, last, &q);
		}
		uint32_t spt = l->zones[q.zone].spt;
		t_ns += (double)(q.sector - p.sector + 1) * period_ns / spt;
		if (last + 1 == end)
			break;
		lba = last + 1;
		struct rs_phys n;
		rs_layout_lba_to_phys(l, lba, &n);
		/* The head leaves q's end at angle `from`; after the switch it
		 * waits for n's start to come round. */
		double from = rs_layout_angle_of(l, &q) + 1.0 / spt;
		/* Switches inside one transfer are charged as for reads even
		 * when writing: skews are laid out for them, and datasheets
		 * give one sustained rate for reading and writing.  The write
		 * settle applies to the seek that starts an access. */
		rs_time_t sw = rs_seek_reposition_time(s, distance(q.cyl, n.cyl),
						       q.head != n.head, 0);
		double gap = rs_layout_angle_of(l, &n) - from - (double)sw / period_ns;
		gap -= floor(gap);
		/* An exact fit (skew == switch) must not cost a turn to rounding. */
		if (gap > 1 - 1e-12)
			gap = 0;
		t_ns += (double)sw + gap * period_ns;
		p = n;
	}
	return llround(t_ns);
}
