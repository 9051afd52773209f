#include "disk/hdd_firmware.h"

#include <string.h>

#include "config/schema.h"
#include "io/io.h"

const char *const rs_hdd_prefetch_names[] = { "fixed",   "none",    "track", "cylinder",
					      "segment", "next-track", NULL };

static const char *const kind_names[] = { "read_hit", "read_miss", "write_hit", "write_miss",
					  NULL };

static const struct rs_opt time_row = { "overhead", RS_OPT_TIME, 0, NULL, RS_OPT_HAS_MIN, 0, 0,
					NULL, "" };

/* One entry of `overheads:`: a time (after a read or a write alike) or
 * [after a read, after a write]. */
static int overhead_pair(const struct rs_node *v, rs_time_t out[2], struct rs_diag *d)
{
	if (v->kind == RS_NODE_SEQ) {
		if (v->len != 2)
			return rs_diag_node(d, v, "an overhead is a time or [after a read, after "
					    "a write], not a list of %zu", v->len);
		for (int i = 0; i < 2; i++)
			if (rs_schema_convert(&time_row, v->items[i], &out[i], d))
				return -1;
		return 0;
	}
	if (rs_schema_convert(&time_row, v, &out[0], d))
		return -1;
	out[1] = out[0];
	return 0;
}

static int read_overheads(struct rs_hdd_fw *fw, const struct rs_hdd_params *p,
			  const struct rs_node *t, struct rs_diag *d)
{
	const rs_time_t plain[4] = { p->overhead_hit_ns, p->overhead_read_ns, p->overhead_write_ns,
				     p->overhead_write_ns };
	for (int k = 0; k < 4; k++)
		fw->ovh[k][0] = fw->ovh[k][1] = plain[k];
	if (rs_node_expect_map(t, "'overheads'", d))
		return -1;
	for (size_t i = 0; i < t->len; i++) {
		const char *key = t->keys[i]->str;
		int k = 0;
		while (kind_names[k] && strcmp(kind_names[k], key))
			k++;
		if (!kind_names[k]) {
			const char *near = rs_closest_name(key, kind_names, 4);
			return rs_diag_node(d, t->keys[i], "unknown overhead '%s'%s%s%s (known: "
					    "read_hit, read_miss, write_hit, write_miss)", key,
					    near ? " (did you mean '" : "", near ? near : "",
					    near ? "'?)" : "");
		}
		if (overhead_pair(t->items[i], fw->ovh[k], d))
			return -1;
	}
	fw->by_previous = true;
	return 0;
}

int rs_hdd_fw_init(struct rs_hdd_fw *fw, const struct rs_hdd_params *p, uint64_t ra_fixed_blk,
		   const struct rs_node *node, struct rs_diag *d)
{
	memset(fw, 0, sizeof(*fw));
	if (p->overheads && read_overheads(fw, p, p->overheads, d))
		return -1;
	fw->prefetch = p->prefetch;
	fw->ra_fixed_blk = ra_fixed_blk;
	fw->ra_min_blk = p->read_ahead_min_bytes / RS_BLOCK_BYTES;
	fw->ra_max_blk = p->read_ahead_bytes / RS_BLOCK_BYTES;
	if (fw->prefetch != RS_PREFETCH_FIXED && fw->ra_max_blk && fw->ra_min_blk > fw->ra_max_blk)
		return rs_diag_node(d, rs_node_get_or(node, "read_ahead_min"),
				    "read_ahead_min is larger than read_ahead (the most read-ahead "
				    "may run)");
	fw->read_any_free = p->read_any_free;
	fw->keep_request = !p->read_ahead_over_request;
	return 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The first LBA on lba's track. */
static uint64_t track_first(const struct rs_layout *l, uint64_t lba, const struct rs_phys *p)
{
	uint64_t cand = lba - min_u64(p->sector, lba);
	uint64_t last = rs_layout_track_last_lba(l, cand);
	/* Slips on the track put cand on the track before: start after it. */
	return last < lba ? last + 1 : cand;
}

/* How far a segment can take data: it fills like a ring behind the host, a
 * segment ahead of the request's end; when the requested blocks must stay,
 * a segment from the request's first block (never short of the request). */
static uint64_t ring_end(const struct rs_hdd_fw *fw, uint64_t lba, uint64_t end,
			 uint64_t seg_blk)
{
	if (!fw->keep_request)
		return end + seg_blk;
	return max_u64(lba + seg_blk, end);
}

uint64_t rs_hdd_fw_ra_limit(const struct rs_hdd_fw *fw, const struct rs_layout *l,
			    uint64_t seg_from, uint64_t lba, uint32_t nblk, uint64_t cap,
			    uint64_t seg_blk)
{
	uint64_t end = lba + nblk;
	if (fw->prefetch == RS_PREFETCH_FIXED)
		return min_u64(end + fw->ra_fixed_blk, cap);
	uint64_t limit = end;
	switch (fw->prefetch) {
	case RS_PREFETCH_NONE:
		return min_u64(end, cap);
	case RS_PREFETCH_TRACK:
		limit = rs_layout_track_last_lba(l, end - 1) + 1;
		break;
	case RS_PREFETCH_CYLINDER: {
		/* Track by track to the last one of the request's cylinder. */
		struct rs_phys p, q;
		rs_layout_lba_to_phys(l, end - 1, &p);
		limit = rs_layout_track_last_lba_of(l, &p) + 1;
		while (limit < cap) {
			rs_layout_lba_to_phys(l, limit, &q);
			if (q.cyl != p.cyl)
				break;
			limit = rs_layout_track_last_lba_of(l, &q) + 1;
		}
		break;
	}
	case RS_PREFETCH_SEGMENT:
		limit = seg_from + seg_blk;
		break;
	case RS_PREFETCH_NEXT_TRACK: {
		if (end >= cap)
			return cap;
		/* The track of the first block after the request, to its end;
		 * when the segment already reaches back before that track (the
		 * reads are streaming across tracks), one track further. */
		struct rs_phys p;
		rs_layout_lba_to_phys(l, end, &p);
		limit = rs_layout_track_last_lba_at(l, end, &p) + 1;
		if (seg_from < track_first(l, end, &p))
			limit += rs_layout_spt_of_cyl(l, p.cyl);
		/* DiskSim does not apply its minimum and maximum in this mode. */
		return min_u64(min_u64(limit, cap), ring_end(fw, lba, end, seg_blk));
	}
	default:
		break;
	}
	limit = max_u64(limit, end + fw->ra_min_blk);
	if (fw->ra_max_blk)
		limit = min_u64(limit, end + fw->ra_max_blk);
	return min_u64(min_u64(limit, cap), ring_end(fw, lba, end, seg_blk));
}

/* Blocks that pass in a wait of rot_ns, at most `behind` and `room`. */
static uint64_t free_in(double period_ns, uint32_t spt, rs_time_t rot_ns, uint64_t behind,
			uint64_t room)
{
	double sector_ns = period_ns / spt;
	uint64_t passed = (uint64_t)((double)rot_ns / sector_ns);
	return min_u64(min_u64(passed, behind), room);
}

uint64_t rs_hdd_fw_free_behind(const struct rs_layout *l, double period_ns, uint64_t lba,
			       rs_time_t rot_ns, uint64_t room)
{
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	return free_in(period_ns, l->zones[p.zone].spt, rot_ns, lba - track_first(l, lba, &p),
		       room);
}

/* The first LBA of at's track, worked out on first use. */
static uint64_t at_track_first(const struct rs_layout *l, struct rs_hdd_fw_at *at)
{
	if (at->track_first == UINT64_MAX)
		at->track_first = track_first(l, at->run->first, &at->run->p);
	return at->track_first;
}

uint64_t rs_hdd_fw_free_behind_at(const struct rs_layout *l, double period_ns,
				  struct rs_hdd_fw_at *at, rs_time_t rot_ns, uint64_t room)
{
	return free_in(period_ns, at->run->spt, rot_ns, at->run->first - at_track_first(l, at),
		       room);
}

uint64_t rs_hdd_fw_ra_limit_at(const struct rs_hdd_fw *fw, const struct rs_layout *l,
			       struct rs_hdd_fw_at *at, uint64_t seg_from, uint32_t nblk,
			       uint64_t cap, uint64_t seg_blk)
{
	const struct rs_track_run *r = at->run;
	uint64_t lba = r->first, end = lba + nblk;
	/* The rule of the next track, for a request whose next block lies on
	 * the run's straight part (on its track, no slip between): that
	 * track's end is the run's, and its first LBA is lba's -- track_first
	 * starts from the same candidate, end - its sector being lba - its
	 * own, and compares it with lba or end, both on the track. */
	if (fw->prefetch != RS_PREFETCH_NEXT_TRACK || end >= cap || end > r->straight)
		return rs_hdd_fw_ra_limit(fw, l, seg_from, lba, nblk, cap, seg_blk);
	uint64_t limit = r->last + 1;
	if (seg_from < at_track_first(l, at))
		limit += r->spt;
	return min_u64(min_u64(limit, cap), ring_end(fw, lba, end, seg_blk));
}
