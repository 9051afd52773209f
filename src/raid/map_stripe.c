/* Striped levels: which member holds which strip of a row (RAID5/6 parity
 * rotation, following Linux md's raid5_compute_sector; see map.h for the
 * tables), and the per-row write plans. */
#include "raid/map.h"

#include "kernel/assert.h"

/* Parity strips per row. */
static uint32_t nparity(const struct rs_raid_geom *g)
{
	return g->level == RS_RAID_RAID6 ? 2 : 1;
}

static bool left_layout(enum rs_raid_layout layout)
{
	return layout == RS_RAID_LEFT_SYMMETRIC || layout == RS_RAID_LEFT_ASYMMETRIC;
}

static bool symmetric_layout(enum rs_raid_layout layout)
{
	return layout == RS_RAID_LEFT_SYMMETRIC || layout == RS_RAID_RIGHT_SYMMETRIC;
}

/* P member of a row: left layouts start P on the last member and move it
 * left one member per row, right layouts start on member 0 and move right. */
static uint32_t p_member(const struct rs_raid_geom *g, uint64_t stripe)
{
	uint32_t n = g->nmembers;
	uint32_t r = (uint32_t)(stripe % n);
	return left_layout(g->layout) ? n - 1 - r : r;
}

void rs_raid_parity(const struct rs_raid_geom *g, uint64_t stripe, uint32_t *p_out,
		    uint32_t *q_out)
{
	RS_ASSERT(rs_raid_has_parity(g));
	uint32_t p = p_member(g, stripe);
	if (p_out)
		*p_out = p;
	/* Q follows P, wrapping to member 0 (md's "Q D D D P" row in the
	 * asymmetric layouts is the same rule). */
	if (q_out)
		*q_out = g->level == RS_RAID_RAID6 ? (p + 1) % g->nmembers : RS_RAID_NO_MEMBER;
}

uint32_t rs_raid_data_member(const struct rs_raid_geom *g, uint64_t stripe, uint32_t d)
{
	RS_ASSERT(rs_raid_is_striped(g));
	RS_ASSERT(d < g->ndata);
	switch (g->level) {
	case RS_RAID_RAID0:
	case RS_RAID_RAID01:
		return d;
	case RS_RAID_RAID10:
		return 2 * d;
	default:
		break;
	}
	uint32_t n = g->nmembers, p = p_member(g, stripe);
	if (symmetric_layout(g->layout))
		/* Continuation: data resumes right after the parity strip(s),
		 * so consecutive strips walk round every member in turn. */
		return (p + nparity(g) + d) % n;
	/* Restart: data fills the non-parity members in member order.  The
	 * parity strips are adjacent (P, then Q = P + 1) except when P is the
	 * last member and Q wraps to member 0. */
	if (g->level == RS_RAID_RAID6 && p == n - 1)
		return d + 1;
	return d < p ? d : d + nparity(g);
}

int rs_raid_data_index(const struct rs_raid_geom *g, uint64_t stripe, uint32_t member)
{
	RS_ASSERT(rs_raid_is_striped(g));
	RS_ASSERT(member < g->nmembers);
	switch (g->level) {
	case RS_RAID_RAID0:
		return (int)member;
	case RS_RAID_RAID01:
		return (int)(member % (g->nmembers / 2));
	case RS_RAID_RAID10:
		return (int)(member / 2);
	default:
		break;
	}
	uint32_t n = g->nmembers, p, q;
	rs_raid_parity(g, stripe, &p, &q);
	if (member == p || member == q)
		return -1;
	/* Inverses of rs_raid_data_member's cases. */
	if (symmetric_layout(g->layout))
		return (int)((member + 2 * n - p - nparity(g)) % n);
	if (g->level == RS_RAID_RAID6 && p == n - 1)
		return (int)member - 1;
	return (int)(member < p ? member : member - nparity(g));
}

size_t rs_raid_stripe_plan(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
			   struct rs_raid_stripe_plan *out, size_t max_out)
{
	RS_ASSERT(rs_raid_is_striped(g));
	RS_ASSERT(lba <= g->capacity_blk && nblk <= g->capacity_blk - lba);
	if (nblk == 0)
		return 0;
	uint64_t end = lba + nblk;
	uint64_t row0 = lba / g->row_data_blk, row1 = (end - 1) / g->row_data_blk;
	size_t n = (size_t)(row1 - row0 + 1);
	uint32_t s = g->strip_blk;
	for (size_t i = 0; i < n && i < max_out; i++) {
		struct rs_raid_stripe_plan *pl = &out[i];
		uint64_t row = row0 + i, row_start = row * g->row_data_blk;
		uint32_t first = lba > row_start ? (uint32_t)(lba - row_start) : 0;
		uint32_t last = end < row_start + g->row_data_blk
					? (uint32_t)(end - 1 - row_start)
					: g->row_data_blk - 1;
		pl->stripe = row;
		pl->first_blk = first;
		pl->last_blk = last;
		pl->first_strip = first / s;
		pl->nstrips = last / s - first / s + 1;
		pl->full = first == 0 && last == g->row_data_blk - 1;
		for (uint32_t d = 0; d < g->ndata; d++) {
			/* Intersect the strip [d*s, d*s + s - 1] with [first, last]. */
			uint32_t lo = d * s > first ? d * s : first;
			uint32_t hi = d * s + s - 1 < last ? d * s + s - 1 : last;
			if (lo <= hi) {
				pl->strip_off[d] = lo - d * s;
				pl->strip_nblk[d] = hi - lo + 1;
			} else {
				pl->strip_off[d] = 0;
				pl->strip_nblk[d] = 0;
			}
		}
	}
	return n;
}
