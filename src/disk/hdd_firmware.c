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

uint64_t rs_hdd_fw_ra_limit(const struct rs_hdd_fw *fw, const struct rs_layout *l,
			    uint64_t seg_from, uint64_t lba, uint32_t nblk, uint64_t cap,
			    uint64_t seg_blk)
{
	uint64_t end = lba + nblk;
	if (fw->prefetch == RS_PREFETCH_FIXED)
		return rs_hdd_fw_min(end + fw->ra_fixed_blk, cap);
	uint64_t limit = end;
	switch (fw->prefetch) {
	case RS_PREFETCH_NONE:
		return rs_hdd_fw_min(end, cap);
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
		if (seg_from < rs_hdd_fw_track_first(l, end, &p))
			limit += rs_layout_spt_of_cyl(l, p.cyl);
		/* DiskSim does not apply its minimum and maximum in this mode. */
		return rs_hdd_fw_min(rs_hdd_fw_min(limit, cap),
				     rs_hdd_fw_ring_end(fw, lba, end, seg_blk));
	}
	default:
		break;
	}
	limit = rs_hdd_fw_max(limit, end + fw->ra_min_blk);
	if (fw->ra_max_blk)
		limit = rs_hdd_fw_min(limit, end + fw->ra_max_blk);
	return rs_hdd_fw_min(rs_hdd_fw_min(limit, cap), rs_hdd_fw_ring_end(fw, lba, end, seg_blk));
}

uint64_t rs_hdd_fw_free_behind(const struct rs_layout *l, double period_ns, uint64_t lba,
			       rs_time_t rot_ns, uint64_t room)
{
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	return rs_hdd_fw_free_in(period_ns, l->zones[p.zone].spt, rot_ns,
				 lba - rs_hdd_fw_track_first(l, lba, &p), room);
}
