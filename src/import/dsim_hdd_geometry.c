/* The layout of a DiskSim drive (its dm_layout_g1 block) for `raidsim
 * import disksim`: zones, sparing scheme, slips and defects, as the
 * model's zone_table and slips.  Separate because it is the one part that
 * works in physical blocks: it checks zones against each other and
 * against the disk's cylinders, and converts zone-relative slips to
 * global PBNs. */
#include "import/dsim_hdd_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

static const struct rule layout_rules[] = {
	{ "LBN-to-PBN mapping scheme", TAKE, 0, NULL },
	{ "Sparing scheme used", TAKE, 0, NULL },
	{ "Rangesize for sparing", TAKE, 0, NULL },
	{ "Zones", TAKE, 0, NULL },
	END
};

static const struct rule zone_rules[] = {
	{ "First cylinder number", TAKE, 0, NULL },
	{ "Last cylinder number", TAKE, 0, NULL },
	{ "Blocks per track", TAKE, 0, NULL },
	{ "Offset of first block", TAKE, 0, NULL },
	{ "Empty space at zone front", TAKE, 0, NULL },
	{ "Skew for track switch", TAKE, 0, NULL },
	{ "Skew for cylinder switch", TAKE, 0, NULL },
	{ "Number of spares", TAKE, 0, NULL },
	{ "slips", TAKE, 0, NULL },
	{ "defects", TAKE, 0, NULL },
	END
};

struct zone {
	const struct rs_dsim_val *v;
	uint64_t first, last, spt, tskew, cskew, spares, offset, empty;
	const struct rs_dsim_param *slips;
	uint64_t gap;                 /* unmapped cylinders after it, added to it */
	uint64_t past;                /* cylinders past the disk's last, left out */
	uint64_t *slip;               /* zone-relative slipped sectors, increasing */
	size_t nslip;
};

/* DiskSim's sparing schemes (its dm_layout_g1_spare_t) that raidsim imports. */
enum {
	TRACK_SPARING = 1,            /* spare tracks at the zone's end; slips are tracks */
	SECTPERCYL_SPARING = 2,       /* spare sectors at each cylinder's end */
	SECTPERTRACK_SPARING = 3,     /* spare sectors at each track's end */
	SECTATEND_SPARING = 7,        /* no spares; slips push later LBNs to the end */
	SECTPERRANGE_SPARING = 8,     /* spare sectors at the end of each range of cylinders */
	SECTSPERZONE_SPARING = 9,     /* spare sectors at the zone's end */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A zone's slips as zone-relative sectors, sorted (DiskSim takes them as a
 * set: some set-ups list them out of order).  Under track sparing a slip is
 * a whole track, all of whose sectors are slipped. */
static int zone_slips(struct ctx *c, struct zone *z, uint64_t scheme, uint64_t heads)
{
	const struct rs_dsim_val *l = z->slips->val;
	uint64_t size = (z->last + z->gap - z->first + 1) * heads * z->spt;
	uint64_t unit = scheme == TRACK_SPARING ? z->spt : 1, units = size / unit;
	z->slip = calloc(l->nitems * unit + 1, sizeof(*z->slip));
	RS_ASSERT(z->slip != NULL);
	for (size_t k = 0; k < l->nitems; k++) {
		const struct rs_dsim_val *s = l->items[k];
		if (s->kind != RS_DSIM_NUM || s->num != floor(s->num) || s->num < 0 ||
		    s->num >= (double)units)
			return dsim_err_val(c, s, "a slip must be a %s of its zone (0..%" PRIu64 ")",
					    unit > 1 ? "track" : "sector", units - 1);
		for (uint64_t j = 0; j < unit; j++)
			z->slip[z->nslip++] = (uint64_t)s->num * unit + j;
	}
	qsort(z->slip, z->nslip, sizeof(*z->slip), cmp_u64);
	for (size_t k = 1; k < z->nslip; k++)
		if (z->slip[k] == z->slip[k - 1])
			return dsim_err_val(c, l, "the slip %" PRIu64 " is listed twice",
					    z->slip[k] / unit);
	if (scheme == TRACK_SPARING && l->nitems > z->spares)
		return dsim_err_val(c, l, "%zu slipped tracks but %" PRIu64 " spare tracks: DiskSim "
				    "needs a spare track for each", l->nitems, z->spares);
	return 0;
}

/* Defects are pairs: a defective sector and the spare it is remapped to.
 * Only a defect "remapped" to itself is imported: its data stays in place,
 * so nothing moves. */
static int zone_defects(struct ctx *c, const struct rs_dsim_param *dp, bool *self_only)
{
	const struct rs_dsim_val *l = dp->val;
	*self_only = true;
	if (l->kind != RS_DSIM_LIST)
		return dsim_err_val(c, l, "'defects' must be a list");
	if (l->nitems % 2)
		return dsim_err_val(c, l, "'defects' must list pairs: a defect and its spare");
	for (size_t k = 0; k < l->nitems; k += 2) {
		const struct rs_dsim_val *a = l->items[k], *b = l->items[k + 1];
		if (a->kind != RS_DSIM_NUM || b->kind != RS_DSIM_NUM)
			return dsim_err_val(c, a, "defects must be numbers");
		if (a->num != b->num)
			return dsim_err_val(c, b, "a defect remapped to another sector (%s to %s) is "
					    "not modelled: raidsim slips defective sectors but cannot "
					    "remap one to a spare elsewhere", a->text, b->text);
	}
	return 0;
}

static int skew(struct ctx *c, const struct rs_dsim_val *z, const char *key, uint64_t spt,
		uint64_t *out)
{
	return dsim_whole(c, dsim_take(z, key), 0, (double)spt, out);
}

static int read_zones(struct ctx *c, const struct rs_dsim_param *zp, uint64_t heads,
		      uint64_t cyls, struct zone **out, size_t *nout)
{
	const struct rs_dsim_val *l = zp->val;
	if (l->kind != RS_DSIM_LIST || l->nitems == 0)
		return dsim_err_val(c, l, "'Zones' must be a list of dm_layout_g1_zone blocks");
	struct zone *zs = calloc(l->nitems, sizeof(*zs));
	RS_ASSERT(zs != NULL);
	*out = zs;
	*nout = l->nitems;
	for (size_t i = 0; i < l->nitems; i++) {
		const struct rs_dsim_val *z = l->items[i];
		if (z->kind != RS_DSIM_BLOCK || strcmp(z->type, "dm_layout_g1_zone") != 0)
			return dsim_err_val(c, z, "a zone must be a dm_layout_g1_zone block");
		if (dsim_check_block(c, z, zone_rules))
			return -1;
		struct zone *q = &zs[i];
		q->v = z;
		if (dsim_whole(c, dsim_take(z, "First cylinder number"), 0, (double)cyls - 1,
			       &q->first) ||
		    dsim_whole(c, dsim_take(z, "Last cylinder number"), 0, 4e9, &q->last) ||
		    dsim_whole(c, dsim_take(z, "Blocks per track"), 1, 65535, &q->spt) ||
		    skew(c, z, "Skew for track switch", q->spt, &q->tskew) ||
		    skew(c, z, "Skew for cylinder switch", q->spt, &q->cskew) ||
		    dsim_whole(c, dsim_take(z, "Number of spares"), 0, 4e9, &q->spares) ||
		    dsim_whole(c, dsim_take(z, "Offset of first block"), 0, (double)q->spt - 1,
			       &q->offset) ||
		    dsim_whole(c, dsim_take(z, "Empty space at zone front"), 0, 4e9, &q->empty))
			return -1;
		uint64_t expect = i ? zs[i - 1].last + 1 : 0;
		if (q->last < q->first)
			return dsim_err_val(c, dsim_take(z, "Last cylinder number")->val, "the zone "
					    "ends before it starts (cylinder %" PRIu64 ")", q->first);
		if (q->first < expect)
			return dsim_err_val(c, dsim_take(z, "First cylinder number")->val,
					    "zones must go outward in, without overlap: this one starts "
					    "at cylinder %" PRIu64 ", the previous ends at %" PRIu64,
					    q->first, expect - 1);
		if (i > 0)
			zs[i - 1].gap = q->first - expect;
		const struct rs_dsim_param *dp = dsim_take(z, "defects");
		bool self_only;
		if (zone_defects(c, dp, &self_only))
			return -1;
		if (dp->val->nitems) {
			char w[300];
			dsim_where(dp, w, sizeof(w));
			fprintf(c->ign, "#   %s \"defects\": each defect is remapped to itself, "
				"so its data stays in place\n", w);
		}
		q->slips = dsim_take(z, "slips");
		if (q->slips->val->kind != RS_DSIM_LIST)
			return dsim_err_val(c, q->slips->val, "'slips' must be a list");
		(void)heads;
	}
	struct zone *last = &zs[l->nitems - 1];
	if (last->last < cyls - 1)
		return dsim_err_val(c, dsim_take(last->v, "Last cylinder number")->val,
				    "the last zone must end on the last cylinder (%" PRIu64 ")",
				    cyls - 1);
	/* DiskSim counts a last zone's cylinders past the disk's last one; they
	 * may only hold spares, which are left out with them (below). */
	last->past = last->last - (cyls - 1);
	last->last = cyls - 1;
	return 0;
}

static void emit_zones(struct ctx *c, const struct zone *zs, size_t n, uint64_t heads,
		       uint64_t scheme, bool group)
{
	fprintf(c->out, "zone_table:   # DiskSim's zones, outer to inner; skews in sectors; "
		"spares: \"Number of spares\"\n");
	uint64_t pbn = 0;
	for (size_t i = 0; i < n; i++) {
		const struct zone *z = &zs[i];
		uint64_t last = z->last + z->gap;
		/* Under scheme 7 a zone's slips are its spares: they push its
		 * later blocks on, and DiskSim's zone holds that many fewer. */
		uint64_t spares = scheme == TRACK_SPARING ? z->spares * z->spt :
			scheme == SECTATEND_SPARING ? z->nslip : z->spares;
		char extra[128] = "";
		size_t x = 0;
		/* Cylinders in no zone: spare sectors of the zone before them, or,
		 * where spares belong to groups, spare tracks outside the groups. */
		if (!group)
			spares += z->gap * heads * z->spt;
		else if (z->gap)
			x += (size_t)snprintf(extra, sizeof(extra), ", spare_tracks: %" PRIu64,
					      z->gap * heads);
		if (z->empty || z->offset)
			snprintf(extra + x, sizeof(extra) - x, ", empty_front: %" PRIu64
				 ", first_offset: %" PRIu64, z->empty, z->offset);
		fprintf(c->out, "  - {first_cyl: %" PRIu64 ", last_cyl: %" PRIu64
			", sectors_per_track: %" PRIu64 ", track_skew: %" PRIu64
			", cyl_skew: %" PRIu64 ", spares: %" PRIu64 "%s}   # %s:%d, first PBN %"
			PRIu64, z->first, last, z->spt, z->tskew, z->cskew, spares, extra,
			z->v->file->name, z->v->line, pbn);
		if (z->gap)
			fprintf(c->out, "; cylinders %" PRIu64 "..%" PRIu64 " are in no DiskSim "
				"zone: added here, all spare%s", z->last + 1, last,
				group ? " (spare tracks)" : "");
		if (z->past)
			fprintf(c->out, "; DiskSim's cylinders %" PRIu64 "..%" PRIu64 " lie past the "
				"disk's last and hold only spares: left out, with those spares",
				z->last + 1, z->last + z->past);
		fputc('\n', c->out);
		pbn += (last - z->first + 1) * heads * z->spt;
	}
}

static void emit_slips(struct ctx *c, const struct zone *zs, size_t n, uint64_t heads,
		       uint64_t scheme)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += zs[i].nslip;
	if (!total)
		return;
	fprintf(c->out, "slips:   # global PBNs: the zone's first PBN + DiskSim's zone-relative "
		"slip\n  [\n");
	uint64_t pbn = 0;
	size_t done = 0;
	for (size_t i = 0; i < n; i++) {
		const struct zone *z = &zs[i];
		uint64_t size = (z->last + z->gap - z->first + 1) * heads * z->spt;
		if (z->nslip)
			fprintf(c->out, "  # zone %zu: %s:%d%s\n", i, z->slips->file->name,
				z->slips->line, scheme == TRACK_SPARING ? " (slipped tracks: every "
				"sector of each)" : "");
		for (size_t k = 0; k < z->nslip; k++) {
			done++;
			fprintf(c->out, "%s%" PRIu64 "%s", k % 10 ? " " : "  ", pbn + z->slip[k],
				done < total ? "," : "");
			if (k + 1 == z->nslip || k % 10 == 9)
				fputc('\n', c->out);
		}
		pbn += size;
	}
	fprintf(c->out, "  ]\n");
}

int dsim_do_layout(struct ctx *c, const struct rs_dsim_param *lp, uint64_t heads,
		   uint64_t cyls)
{
	const struct rs_dsim_val *l = lp->val;
	if (l->kind != RS_DSIM_BLOCK || strcmp(l->type, "dm_layout_g1") != 0)
		return dsim_err_val(c, l, "'Layout Model' must be a dm_layout_g1 block");
	if (dsim_check_block(c, l, layout_rules))
		return -1;
	uint64_t map, sparing, range;
	const struct rs_dsim_param *mp = dsim_take(l, "LBN-to-PBN mapping scheme");
	const struct rs_dsim_param *sp = dsim_take(l, "Sparing scheme used");
	const struct rs_dsim_param *rp = dsim_take(l, "Rangesize for sparing");
	if (dsim_whole(c, mp, 0, 100, &map) || dsim_whole(c, sp, 0, 100, &sparing) ||
	    dsim_whole(c, rp, 1, 1e6, &range))
		return -1;
	if (map > 1)
		return dsim_err_val(c, mp->val, "LBN-to-PBN mapping scheme %" PRIu64 " is not modelled "
				    "(raidsim imports 0, cylinder-major, and 1, which differs from 0 "
				    "only in which surface a cylinder starts on)", map);
	if (sparing != TRACK_SPARING && sparing != SECTPERCYL_SPARING &&
	    sparing != SECTPERTRACK_SPARING && sparing != SECTATEND_SPARING &&
	    sparing != SECTPERRANGE_SPARING && sparing != SECTSPERZONE_SPARING)
		return dsim_err_val(c, sp->val, "sparing scheme %" PRIu64 " is not modelled (raidsim "
				    "imports 1, spare tracks per zone; 2, 3, 8, spare sectors per "
				    "cylinder, track or range of cylinders; 7, slips to the end of the "
				    "zone; 9, spare sectors per zone)", sparing);
	/* Tracks per spare group, for the schemes whose spares sit inside the
	 * zone and whose slips stay inside their group. */
	uint64_t group = sparing == SECTPERCYL_SPARING ? heads :
		sparing == SECTPERTRACK_SPARING ? 1 :
		sparing == SECTPERRANGE_SPARING ? range * heads : 0;
	if (sparing != SECTPERRANGE_SPARING) {
		char w[300];
		dsim_where(rp, w, sizeof(w));
		fprintf(c->ign, "#   %s \"%s\": used only by the range sparing schemes\n", w,
			rp->key);
	}
	struct zone *zs = NULL;
	size_t nz = 0;
	int rc = read_zones(c, dsim_take(l, "Zones"), heads, cyls, &zs, &nz);
	for (size_t i = 0; rc == 0 && i < nz; i++) {
		const struct rs_dsim_val *sv = dsim_take(zs[i].v, "Number of spares")->val;
		uint64_t past_tracks = zs[i].past * heads;
		if (zs[i].past && (group || sparing == SECTATEND_SPARING ||
				   (sparing == TRACK_SPARING ? zs[i].spares < past_tracks :
				    zs[i].spares < past_tracks * zs[i].spt)))
			rc = dsim_err_val(c, dsim_take(zs[i].v, "Last cylinder number")->val,
					  "the zone runs %" PRIu64 " cylinders past the disk's last "
					  "(%" PRIu64 "), which hold data under sparing scheme %" PRIu64,
					  zs[i].past, cyls - 1, sparing);
		else if (sparing == SECTATEND_SPARING && zs[i].spares)
			rc = dsim_err_val(c, sv, "sparing scheme 7 with spares (%s) is not modelled: "
					  "DiskSim's count of the zone's blocks leaves them out",
					  sv->text);
		else if (group && zs[i].spares >= group * zs[i].spt)
			rc = dsim_err_val(c, sv, "%s spares leave no data in a spare group of %" PRIu64
					  " tracks", sv->text, group);
		else if (sparing == TRACK_SPARING &&
			 zs[i].spares >= (zs[i].last - zs[i].first + 1) * heads)
			rc = dsim_err_val(c, sv, "%s spare tracks leave the zone no data", sv->text);
		else
			rc = zone_slips(c, &zs[i], sparing, heads);
		/* The cylinders past the end take their share of the zone-end
		 * spares with them. */
		zs[i].spares -= sparing == TRACK_SPARING ? past_tracks : past_tracks * zs[i].spt;
		if (rc == 0 && zs[i].past && (sparing == TRACK_SPARING ? zs[i].spares * zs[i].spt :
				zs[i].spares) < zs[i].nslip)
			rc = dsim_err_val(c, dsim_take(zs[i].v, "Last cylinder number")->val,
					  "the zone's cylinders past the disk's last leave fewer spares "
					  "than slips");
	}
	if (rc == 0) {
		static const char *const what[] = {
			[TRACK_SPARING] = "spare tracks at the end of each zone (zone spares: "
				"\"Number of spares\" x sectors per track)",
			[SECTPERCYL_SPARING] = "spare sectors at the end of each cylinder",
			[SECTPERTRACK_SPARING] = "spare sectors at the end of each track",
			[SECTATEND_SPARING] = "no spares; each slip pushes the zone's later blocks "
				"on, to its end (zone spares: its slips)",
			[SECTPERRANGE_SPARING] = "spare sectors at the end of each range of "
				"cylinders",
			[SECTSPERZONE_SPARING] = "spares at the end of each zone",
		};
		char note[64];
		if (group) {
			snprintf(note, sizeof(note), "spare_group_tracks: %" PRIu64, group);
			fprintf(c->out, "%-34s # %s:%d \"Sparing scheme used\" = %" PRIu64 ": %s%s%s"
				"; zone spares are per group, slips stay in their group\n", note,
				sp->file->name, sp->line, sparing, what[sparing],
				sparing == SECTPERRANGE_SPARING ? " (\"Rangesize for sparing\" x "
				"heads)" : "", sparing == SECTPERCYL_SPARING ? " (heads)" : "");
			const char *unit = sparing == SECTPERCYL_SPARING ? "cylinder" :
				sparing == SECTPERTRACK_SPARING ? "track" : NULL;
			if (unit) {
				snprintf(note, sizeof(note), "slip_skew: %s", unit);
				fprintf(c->out, "%-34s # the same: DiskSim lets each slip of the zone "
					"before a %s turn that %s's start on by a sector\n", note,
					unit, unit);
			}
		} else {
			fprintf(c->out, "%-34s # %s:%d \"Sparing scheme used\" = %" PRIu64 ": %s\n",
				"spare_sectors_per_cylinder: 0", sp->file->name, sp->line, sparing,
				what[sparing]);
			fprintf(c->out, "%-34s # the same\n", "spare_tracks_per_zone: 0");
		}
		if (map == 1)
			fprintf(c->out, "# %s:%d \"LBN-to-PBN mapping scheme\" = 1: odd cylinders are "
				"numbered from the last surface back, so a cylinder switch stays on "
				"its surface.  raidsim numbers surfaces in LBN order: LBNs, PBNs, "
				"slips and skews are the same, and a cylinder switch costs "
				"max(1-cylinder seek, head switch) either way.\n", mp->file->name,
				mp->line);
		emit_zones(c, zs, nz, heads, sparing, group != 0);
		emit_slips(c, zs, nz, heads, sparing);
	}
	for (size_t i = 0; i < nz; i++)
		free(zs[i].slip);
	free(zs);
	return rc;
}
