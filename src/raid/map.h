/* RAID layout maps: where an array's logical blocks live on its members.
 *
 * Pure functions over a validated struct rs_raid_geom.  Nothing here does
 * I/O or allocates; callers pass output arrays.  The volume device (not this
 * module) decides which copy a read goes to, when to read-modify-write, and
 * how to run degraded.  All addresses and lengths are in 512-byte blocks
 * (RS_BLOCK_BYTES); a member_lba is relative to the start of the member's
 * usable area (a volume with a metadata offset adds it itself).
 *
 * Terms.  A strip (md: chunk) is strip_blk consecutive blocks on one member.
 * A row (stripe) is one strip on every member at the same member offset:
 * row r occupies member blocks [r * strip_blk, (r + 1) * strip_blk).  The
 * data strips of a row are numbered 0..ndata-1 in array order
 * (strip_in_row); array block lba lies in row lba / row_data_blk, strip
 * (lba % row_data_blk) / strip_blk.  Unequal members are cut to the smallest,
 * and striped levels round that down to whole strips, as md does.
 *
 * Member positions per level (n = nmembers, h = n / 2):
 *
 *   jbod    concatenation in member order; members may differ in size.
 *   single  one member, identity.
 *   raid0   data strip d of every row on member d.
 *   raid1   n-way mirror; the primary copy is member 0, every member holds
 *           every block at the same member_lba.
 *   raid01  RAID0+1, a mirror of two stripe sets: members 0..h-1 form the
 *           primary RAID0, members h..n-1 the copy; strip d is on member d
 *           and on member d + h.
 *   raid10  RAID1+0, a stripe over mirror pairs (0,1), (2,3), ...: strip d
 *           is on member 2d (primary) and 2d + 1.  This is md raid10's
 *           "near=2" layout for an even number of members.
 *
 *   With 4 members the two look alike in capacity but not in position
 *   (raid01 puts strip 1 on members 1 and 3, raid10 on 2 and 3) nor in
 *   failure behaviour (rs_raid_survives): in RAID0+1 the first failure takes
 *   its whole stripe set offline, so any failure in the other half kills the
 *   array; RAID10 survives as long as every pair keeps one member.
 *
 *   raid5   one parity strip per row, rotating (rs_raid_layout below).
 *   raid6   P and Q strips per row.
 *
 * Parity rotation follows Linux md (drivers/md/raid5.c,
 * raid5_compute_sector), so a simulated array matches what mdadm builds.
 * With n members and row r:
 *
 *   left-asymmetric   P = n-1 - r%n; data fills the other members in member
 *                     order starting at member 0 ("restart").
 *   left-symmetric    P = n-1 - r%n; data starts just after P and wraps
 *                     ("continuation").  The md default.
 *   right-asymmetric  P = r%n; data in member order from member 0.
 *   right-symmetric   P = r%n; data starts just after P and wraps.
 *
 *   left-symmetric RAID5, 4 members (the md table):
 *       row 0:  D0  D1  D2  P
 *       row 1:  D4  D5  P   D3
 *       row 2:  D8  P   D6  D7
 *       row 3:  P   D9  D10 D11
 *
 * RAID6 uses the same P position; Q is the member after P (wrapping), so in
 * ring order each row reads "data..., P, Q".  Symmetric layouts start the
 * data just after Q; asymmetric ones fill the remaining members in member
 * order, except that when P is the last member Q wraps to member 0 (md's
 * "Q D D D P" case).  left-symmetric RAID6, 5 members:
 *       row 0:  Q   D0  D1  D2  P
 *       row 1:  D3  D4  D5  P   Q
 *       row 2:  D7  D8  P   Q   D6
 *       row 3:  D11 P   Q   D9  D10
 *       row 4:  P   Q   D12 D13 D14
 */
#ifndef RS_RAID_MAP_H
#define RS_RAID_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any array a scenario builds; also the width of the failure
 * mask taken by rs_raid_survives. */
#define RS_RAID_MAX_MEMBERS 64u
/* Strip size limits: 4 KiB .. 1 MiB. */
#define RS_RAID_STRIP_MIN_BLK 8u
#define RS_RAID_STRIP_MAX_BLK 2048u
/* "No such member" (the Q member of a RAID5 row, for instance). */
#define RS_RAID_NO_MEMBER UINT32_MAX

#define RS_RAID_LEVEL_LIST(X)                                               \
	X(JBOD, "jbod")                                                     \
	X(SINGLE, "single")                                                 \
	X(RAID0, "raid0")                                                   \
	X(RAID1, "raid1")                                                   \
	X(RAID01, "raid01")                                                 \
	X(RAID10, "raid10")                                                 \
	X(RAID5, "raid5")                                                   \
	X(RAID6, "raid6")
enum rs_raid_level {
#define X(name, str) RS_RAID_##name,
	RS_RAID_LEVEL_LIST(X)
#undef X
	RS_RAID_LEVEL_COUNT
};

/* Parity rotation (RAID5/RAID6 only; ignored by the other levels).  The
 * default, left-symmetric, is 0 so a zeroed struct gets it. */
#define RS_RAID_LAYOUT_LIST(X)                                              \
	X(LEFT_SYMMETRIC, "left-symmetric")                                 \
	X(LEFT_ASYMMETRIC, "left-asymmetric")                               \
	X(RIGHT_SYMMETRIC, "right-symmetric")                               \
	X(RIGHT_ASYMMETRIC, "right-asymmetric")
enum rs_raid_layout {
#define X(name, str) RS_RAID_##name,
	RS_RAID_LAYOUT_LIST(X)
#undef X
	RS_RAID_LAYOUT_COUNT
};

const char *rs_raid_level_name(enum rs_raid_level level);
const char *rs_raid_layout_name(enum rs_raid_layout layout);
/* Name to enum; returns 0, or -1 if the name is unknown. */
int rs_raid_level_parse(const char *name, enum rs_raid_level *out);
int rs_raid_layout_parse(const char *name, enum rs_raid_layout *out);

/* A validated geometry (fill with rs_raid_geom_init; read-only after).  A
 * plain value: no pointers, may be copied. */
struct rs_raid_geom {
	enum rs_raid_level level;
	enum rs_raid_layout layout;
	uint32_t nmembers;
	uint32_t strip_blk;           /* striped levels; 0 for jbod/single/raid1 */
	uint64_t member_blk;          /* usable blocks per member (jbod: largest) */

	/* Derived. */
	uint32_t ndata;               /* data strips per row (striped levels) */
	uint32_t row_data_blk;        /* ndata * strip_blk */
	uint64_t rows;                /* member_blk / strip_blk (striped levels) */
	uint64_t capacity_blk;
	/* JBOD only: size and first array LBA of each member. */
	uint64_t jbod_blk[RS_RAID_MAX_MEMBERS];
	uint64_t jbod_start[RS_RAID_MAX_MEMBERS];
};

/* Validate and derive.  member_blk[0..nmembers-1] are the members' sizes in
 * blocks (what each can give the array); every level but JBOD uses the
 * smallest, striped levels rounded down to whole strips.  strip_blk matters
 * for raid0/raid01/raid10/raid5/raid6 (RS_RAID_STRIP_MIN_BLK..MAX_BLK, any
 * whole number of blocks) and is ignored otherwise.  Member counts: jbod
 * 1+, single 1, raid0 1+, raid1 2+, raid01/raid10 even and 4+, raid5 3+,
 * raid6 4+, all at most RS_RAID_MAX_MEMBERS.  Returns 0, or -1 with a
 * message in err (g is then unusable). */
int rs_raid_geom_init(struct rs_raid_geom *g, enum rs_raid_level level,
		      enum rs_raid_layout layout, uint32_t nmembers, uint32_t strip_blk,
		      const uint64_t *member_blk, char *err, size_t errlen);

static inline uint64_t rs_raid_capacity_blk(const struct rs_raid_geom *g)
{
	return g->capacity_blk;
}

/* Level families. */
bool rs_raid_is_striped(const struct rs_raid_geom *g);  /* raid0/01/10/5/6 */
bool rs_raid_is_mirrored(const struct rs_raid_geom *g); /* raid1/01/10 */
bool rs_raid_has_parity(const struct rs_raid_geom *g);  /* raid5/6 */
/* Copies of every data block: n for raid1, 2 for raid01/raid10, else 1. */
uint32_t rs_raid_ncopies(const struct rs_raid_geom *g);

/* One piece of a mapped request: a run of array blocks that is contiguous
 * on one member and lies within one strip (striped levels) or one member
 * (jbod). */
struct rs_raid_extent {
	uint32_t member;
	uint32_t nblk;
	uint64_t member_lba;
	uint64_t array_lba;           /* logical start of this piece */
	uint64_t stripe;              /* row index; 0 for unstriped levels */
	uint32_t strip_in_row;        /* data strip index; 0 for unstriped */
};

/* Split [lba, lba + nblk) into extents, in array order: the first starts at
 * lba, each next one where the previous ended, and their lengths sum to
 * nblk.  Mirrored levels map to the primary copy only (rs_raid_mirrors lists
 * the others).  Writes at most max_out extents and returns how many the
 * request needs (call with max_out 0 to size the array); a request spans at
 * most rs_raid_map_max_extents(g, nblk) of them.  The range must lie within
 * the capacity (asserted). */
size_t rs_raid_map(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
		   struct rs_raid_extent *out, size_t max_out);
/* rs_raid_map's one extent of a RAID0 request that lies within one strip
 * (every small aligned request): its member and member LBA.  False for
 * another level or a request that crosses a strip boundary, which take
 * rs_raid_map.  Inline, for the array's path of one member operation. */
static inline bool rs_raid0_map_one(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
				    uint32_t *member, uint64_t *member_lba)
{
	if (g->level != RS_RAID_RAID0)
		return false;
	uint64_t row = lba / g->row_data_blk;
	uint32_t in_row = (uint32_t)(lba % g->row_data_blk);
	uint32_t off = in_row % g->strip_blk;
	if (nblk > g->strip_blk - off)
		return false;
	/* RAID0's data strip d sits on member d. */
	*member = in_row / g->strip_blk;
	*member_lba = row * g->strip_blk + off;
	return true;
}
/* Upper bound on rs_raid_map's count for any request of nblk blocks. */
size_t rs_raid_map_max_extents(const struct rs_raid_geom *g, uint32_t nblk);

/* The other members holding the same blocks as `member` at the same
 * member_lba (member itself excluded): raid1 all the others, raid10 the pair
 * partner, raid01 the corresponding member of the other half, other levels
 * none.  Writes at most max_out and returns the full count. */
size_t rs_raid_mirrors(const struct rs_raid_geom *g, uint32_t member, uint32_t *out,
		       size_t max_out);

/* Inverse map: the array LBA stored at (member, member_lba), on any copy of
 * a mirrored level.  Returns 0, or -1 if that block holds no array data (a
 * parity block, or beyond the member's usable area). */
int rs_raid_unmap(const struct rs_raid_geom *g, uint32_t member, uint64_t member_lba,
		  uint64_t *array_lba);

/* Striped levels: the member holding data strip d (< ndata) of row
 * `stripe`, on the primary copy for raid01/raid10. */
uint32_t rs_raid_data_member(const struct rs_raid_geom *g, uint64_t stripe, uint32_t d);
/* Striped levels: the data strip index that `member` holds in row
 * `stripe` (for raid01/raid10, on whichever copy member belongs to), or -1
 * if it holds parity there. */
int rs_raid_data_index(const struct rs_raid_geom *g, uint64_t stripe, uint32_t member);
/* RAID5/6: the parity members of a row; *q_member is RS_RAID_NO_MEMBER for
 * RAID5.  Either pointer may be NULL. */
void rs_raid_parity(const struct rs_raid_geom *g, uint64_t stripe, uint32_t *p_member,
		    uint32_t *q_member);
/* Striped levels: data blocks per full row (ndata * strip_blk). */
static inline uint32_t rs_raid_stripe_data_blk(const struct rs_raid_geom *g)
{
	return g->row_data_blk;
}

/* How a write touches one row, for choosing between read-modify-write,
 * reconstruct-write and full-stripe write.  The touched blocks of a row are
 * always one contiguous run [first_blk, last_blk] of the row's data (offsets
 * from the row's first data block, array order), so strips strictly between
 * the first and last touched ones are touched entirely. */
struct rs_raid_stripe_plan {
	uint64_t stripe;
	uint32_t first_blk;           /* first touched data offset in the row */
	uint32_t last_blk;            /* last touched one, inclusive */
	uint32_t first_strip;         /* strip_in_row of first_blk */
	uint32_t nstrips;             /* data strips touched: first_strip.. */
	/* Per data strip d < ndata: blocks touched and the in-strip offset of
	 * the first one (both 0 for an untouched strip); entries from ndata on
	 * are not written.  With the row's parity member(s) this is what a
	 * read-modify-write reads (touched ranges plus parity) or a
	 * reconstruct-write reads (the untouched data). */
	uint32_t strip_nblk[RS_RAID_MAX_MEMBERS];
	uint32_t strip_off[RS_RAID_MAX_MEMBERS];
	bool full;                    /* every data block of the row touched */
};

/* Rows touched by [lba, lba + nblk), in order (striped levels).  Writes at
 * most max_out plans and returns how many the request needs. */
size_t rs_raid_stripe_plan(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
			   struct rs_raid_stripe_plan *out, size_t max_out);

/* Whether the array still serves all of its data with the members in
 * failed_mask (bit m = member m) gone.  raid01 is modelled strictly as a
 * mirror of two RAID0 sets: one failure takes its whole half offline. */
bool rs_raid_survives(const struct rs_raid_geom *g, uint64_t failed_mask);

#endif
