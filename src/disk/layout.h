/* Zoned-recording layout of a disk: which cylinder, surface and sector an
 * LBA lives on, and where on the circle that sector starts.
 *
 * Geometry.  Cylinders are grouped into zones; every track of a zone has the
 * same number of sectors.  LBAs run cylinder-major from the outer edge
 * (cylinder 0) inwards, and within a cylinder from head 0 to head heads-1,
 * each track from its logical sector 0 upwards (DiskSim's mapping scheme 0).
 *
 * Physical sector numbers (PBN) count every sector of the disk in that same
 * order, spares and defects included: the PBN of (cyl, head, sector) in zone
 * z is first_pbn(z) + ((cyl - z.first_cyl) * heads + head) * spt + sector,
 * where first_pbn(z) is the sum of cylinders * heads * spt over the zones
 * before z.  (DiskSim's "slips" lists are zone-relative: add first_pbn.)
 *
 * Spares, removed from the LBA space:
 *   - spare_sect_per_cyl: the last N sectors of every cylinder (the tail of
 *     the last head's track when N < spt);
 *   - spare_tracks_per_zone: the last N whole tracks of every zone, and
 *     rs_zone.spare_tracks more in that zone;
 *   - rs_zone.spare_sectors: N sectors at the end of the zone's data area
 *     (just before its spare tracks), DiskSim's per-zone "Number of spares".
 * Slipped sectors (factory defects) are skipped by the mapping; each slip in
 * a zone first uses up one of that zone's spare_sectors, so a zone's LBA
 * range stays fixed while it has spares left; slips beyond that shift the
 * following LBAs.  A zone holds data_sectors - max(spare_sectors, slips)
 * LBAs, where data_sectors excludes per-cylinder spares and spare tracks.
 *
 * Spare groups (spare_group_tracks = N > 0, DiskSim's sparing schemes with
 * spares per track, per cylinder or per range of cylinders): each zone is cut
 * into groups of N tracks from its first track; the last spare_sectors of
 * every whole group are spares, and a slip moves data only inside its group
 * (using up that group's spares), so every whole group holds
 * N * spt - spare_sectors LBAs.  A zone's last group, when shorter than N
 * tracks, has no spares.  Spare tracks lie outside the groups; per-cylinder
 * spares must be 0.
 *
 * empty_front (DiskSim's "Empty space at zone front"): the first N sectors
 * that would hold LBAs (after spares and slips) are left empty.
 * first_offset (DiskSim's "Offset of first block"): the zone's first track
 * starts that many sectors past angle 0; skews count from there.
 *
 * slip_skew (DiskSim's rule for its per-cylinder and per-track sparing
 * schemes): every slip of the zone before the track's cylinder (CYLINDER) or
 * before the track itself (TRACK) turns the track's start on by one more
 * sector, as if the slipped sectors had pushed the rest of the zone along.
 *
 * Skew convention (DiskSim's): the first logical sector of the first track
 * of a zone starts at angle 0.  Every head switch inside a cylinder moves the
 * start of the next track on by track_skew sectors; the switch from the last
 * head of one cylinder to head 0 of the next moves it on by cyl_skew sectors
 * (instead of track_skew).  Skews accumulate over the zone, modulo spt.
 * Angles are fractions of a revolution in [0, 1), in the same frame as
 * rs_spindle_angle().
 *
 * Initialisation allocates (zone table, slip index); lookups never do. */
#ifndef RS_DISK_LAYOUT_H
#define RS_DISK_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct rs_zone {
	uint32_t first_cyl, last_cyl;     /* inclusive */
	uint32_t sectors_per_track;
	uint32_t track_skew;              /* sectors, per head switch */
	uint32_t cyl_skew;                /* sectors, per cylinder switch */
	uint32_t spare_sectors;           /* at the end of the zone's data area, or
					   * per spare group (see spare_group_tracks) */
	double media_rate_bytes_per_s;    /* informational; 0 if unknown */
	uint32_t empty_front;             /* LBA candidates left empty at its front */
	uint32_t first_offset;            /* sectors from angle 0 to its first sector */
	uint32_t spare_tracks;            /* whole tracks at its end, on top of
					   * spare_tracks_per_zone */
};

enum rs_slip_skew { RS_SLIP_SKEW_NONE, RS_SLIP_SKEW_CYLINDER, RS_SLIP_SKEW_TRACK };

struct rs_layout_params {
	uint32_t heads;                   /* data surfaces */
	uint32_t cylinders;
	const struct rs_zone *zones;      /* ordered outer to inner, covering
					   * 0..cylinders-1 without gap or overlap */
	uint32_t nzones;
	uint32_t spare_sect_per_cyl;
	uint32_t spare_tracks_per_zone;
	uint32_t spare_group_tracks;      /* 0: zone spares at the zone's end */
	enum rs_slip_skew slip_skew;
	const uint64_t *slips;            /* PBNs, strictly increasing */
	size_t nslips;
	uint64_t capacity_blk;            /* 0: everything mappable */
};

/* A physical position.  sector is the logical index on the track, counted
 * from the track's first sector (whose angle carries the skew). */
struct rs_phys {
	uint32_t cyl;
	uint32_t head;
	uint32_t sector;
	uint32_t zone;
};

/* Derived per-zone data, precomputed by rs_layout_init.  What a random
 * block's run reads comes first, in one cache line (the table is aligned
 * to lines): each drive of an array keeps its own table. */
struct rs_layout_zone {
	/* An LBA's candidate is the LBA plus to_k (modulo 2^64):
	 * empty_front - first_lba. */
	_Alignas(64) uint64_t to_k;
	uint64_t data_sectors;            /* candidates: no per-cyl/track spares */
	/* Its last LBA within the capacity (a stretch's bound): below
	 * first_lba in a zone the capacity leaves out. */
	uint64_t last_lba;
	uint64_t group_sectors;           /* 0: no spare groups */
	uint32_t slip_begin, slip_end;    /* range in rs_layout.slip_idx */
	uint32_t first_cyl;
	uint32_t spt;
	uint32_t data_per_cyl;            /* heads * spt - spare_sect_per_cyl */
	uint32_t track_skew;              /* sectors, per head switch */
	/* How far a cylinder's switches (heads - 1 head switches and one
	 * cylinder switch) turn sector 0 on, modulo spt. */
	uint32_t cyl_turn;
	uint32_t first_offset;
	/* The rest. */
	uint32_t last_cyl;
	uint32_t cyl_skew;
	uint64_t first_pbn;
	uint64_t first_lba;
	uint64_t lba_count;
	uint64_t group_data;              /* LBA candidates per whole group */
	uint64_t empty_front;
};


/* A stretch of consecutive LBAs on consecutive sectors of one track: no
 * slip, spare, track or zone edge inside. */
#define RS_LAYOUT_STRETCHES 4
struct rs_layout_stretch {
	uint64_t first, span;             /* LBAs first..first+span; first
					   * UINT64_MAX: none */
	struct rs_phys p;                 /* where first lies */
	uint64_t track_last;              /* rs_layout_track_last_lba; 0: not known */
};

struct rs_layout {
	uint32_t heads;
	uint32_t cylinders;
	uint32_t nzones;
	uint64_t capacity_blk;
	uint64_t mappable_blk;            /* before capacity_blk truncation */
	enum rs_slip_skew slip_skew;
	struct rs_layout_zone *zones;
	/* Slips as zone-local data-sector indices (spares not counted),
	 * grouped by zone, increasing. */
	uint64_t *slip_idx;
	size_t nslips;
	/* Where the zones and their slips cut the LBAs: from brk[i].lba up
	 * to brk[i + 1].lba lie LBAs of zone brk[i].zone; in a zone without
	 * spare groups brk[i].slips of the zone's slips lie before each, the
	 * first after it is slip_idx[slip_begin + slips], and its data index
	 * is the LBA plus the zone's to_k plus slips (with spare groups slips
	 * is 0 and the LBA plus to_k is its LBA candidate).  The last entry,
	 * at UINT64_MAX, ends the walk.  brk_at[lba >> brk_shift]: the entry
	 * of the bucket's first LBA, from which lba's own is a step or two on
	 * (about four buckets an entry, at most 4096): a new random block
	 * finds its zone and its slips with no binary search.  16 bytes an
	 * entry, four to a cache line: each drive of an array holds its own,
	 * and a random block reads one or two of them. */
	struct rs_layout_brk {
		uint64_t lba;
		uint32_t zone;
		uint32_t slips;
	} *brk;
	size_t nbrk;                      /* the entries before the last */
	uint32_t *brk_at;
	uint32_t brk_buckets;
	unsigned brk_shift;
	/* The stretches of the last LBAs mapped (replaced in turn): the next
	 * lookups of a transfer, of its track's end, of the stream running
	 * on and of the next command mostly fall in one, and are then
	 * answered without the zone and slip searches.  A cache of a pure
	 * function, so written through const pointers too. */
	struct rs_layout_stretch stretch[RS_LAYOUT_STRETCHES];
	uint32_t stretch_next;            /* the one replaced next */
	uint32_t stretch_last;            /* the one that answered last: tried first */
};

/* Validate params and build the mapping.  Returns 0, or -1 with a message in
 * err.  params (and its arrays) may be freed afterwards. */
int rs_layout_init(struct rs_layout *l, const struct rs_layout_params *params,
		   char *err, size_t errlen);
void rs_layout_destroy(struct rs_layout *l);
/* Empty the cache of stretches (answers stay the same; for tests that
 * compare against look-ups from scratch). */
void rs_layout_forget(struct rs_layout *l);

static inline uint64_t rs_layout_capacity_blk(const struct rs_layout *l)
{
	return l->capacity_blk;
}

/* lba must be below the capacity (asserted).  Inline for the common case
 * of an LBA in the stretch that answered last (a transfer, its track's
 * end, the read-ahead after it): no call, no search. */
void rs_layout_lba_to_phys_cached(const struct rs_layout *l, uint64_t lba,
				  struct rs_phys *out);
static inline void rs_layout_lba_to_phys(const struct rs_layout *l, uint64_t lba,
					 struct rs_phys *out)
{
	const struct rs_layout_stretch *st = &l->stretch[l->stretch_last];
	if (lba - st->first <= st->span) {
		*out = st->p;
		out->sector += (uint32_t)(lba - st->first);
		return;
	}
	rs_layout_lba_to_phys_cached(l, lba, out);
}
/* The LBA stored at phys, or -1 if that sector is a spare, slipped, beyond
 * the capacity or outside the disk.  phys->zone is ignored. */
int64_t rs_layout_phys_to_lba(const struct rs_layout *l, const struct rs_phys *phys);
/* PBN of a valid position (see above). */
uint64_t rs_layout_pbn(const struct rs_layout *l, const struct rs_phys *phys);

/* Angle, as a fraction of a revolution in [0, 1), at which the sector
 * starts passing under the head: a whole number of sectors over spt. */
double rs_layout_angle_of(const struct rs_layout *l, const struct rs_phys *phys);

uint32_t rs_layout_zone_of_lba(const struct rs_layout *l, uint64_t lba);
uint32_t rs_layout_zone_of_cyl(const struct rs_layout *l, uint32_t cyl);
uint32_t rs_layout_spt_of_cyl(const struct rs_layout *l, uint32_t cyl);

/* The last LBA that lies on the same track as lba (transfers are cut into
 * per-track runs with this). */
uint64_t rs_layout_track_last_lba(const struct rs_layout *l, uint64_t lba);
/* The same, given the position of an LBA (from rs_layout_lba_to_phys), for
 * callers that have it already. */
uint64_t rs_layout_track_last_lba_of(const struct rs_layout *l, const struct rs_phys *p);
/* The same for lba at p (its rs_layout_lba_to_phys), kept with lba's
 * stretch when the mapping cached one: the track's end is then worked out
 * once however often it is asked for. */
uint64_t rs_layout_track_last_lba_at(const struct rs_layout *l, uint64_t lba,
				     const struct rs_phys *p);

/* A run of LBAs on one track, for walking a transfer track by track: the
 * next run is worked out from this one's position (the next head or
 * cylinder of the zone), not mapped afresh, except where slips or spare
 * groups make that unsafe or the run leaves the zone. */
struct rs_track_run {
	uint64_t first, last;             /* LBAs, inclusive, on one track */
	struct rs_phys p;                 /* where first lies */
	uint32_t spt;                     /* sectors on the track */
	uint32_t base;                    /* angle of sector 0, in sectors */
	uint64_t straight;                /* [first, straight] on consecutive sectors */
	/* The track's first LBA, when the mapping knew it (the stretch it
	 * answered from reaches back to it), else UINT64_MAX. */
	uint64_t track_first;
};
/* The run from lba to the last LBA of its track. */
void rs_layout_run_at(const struct rs_layout *l, uint64_t lba, struct rs_track_run *r);
/* The run that follows r on the next track; r->last + 1 must be below
 * the capacity. */
void rs_layout_run_next(const struct rs_layout *l, struct rs_track_run *r);
/* The sector of lba (r->first <= lba <= r->last) on r's track: inline up
 * to the run's first slip (every sector of a track without one), mapped
 * past it. */
uint32_t rs_layout_run_sector_mapped(const struct rs_layout *l, const struct rs_track_run *r,
				     uint64_t lba);
static inline uint32_t rs_layout_run_sector(const struct rs_layout *l,
					    const struct rs_track_run *r, uint64_t lba)
{
	if (lba >= r->first && lba <= r->straight)
		return r->p.sector + (uint32_t)(lba - r->first);
	return rs_layout_run_sector_mapped(l, r, lba);
}

#endif
