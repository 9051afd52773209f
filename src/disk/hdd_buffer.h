/* The drive's buffer: read segments and dirty (write-cached) extents.
 *
 * Read segments: `nseg` segments of `seg_blk` blocks, each holding one
 * valid LBA range [start, end) of at most seg_blk blocks (a segment fills
 * like a ring, so a long sequential read keeps its last seg_blk blocks).
 * Replacement is least recently used.
 *
 * Dirty extents: disjoint, non-adjacent LBA ranges waiting to be written;
 * a new write merges with every extent it overlaps or touches, so
 * sequential writes coalesce and rewrites do not count twice.
 *
 * Everything is sized at init; nothing allocates afterwards.  seg[nseg] is
 * a sentinel for the look-up's walk: it holds [0, UINT64_MAX) and is never
 * used, touched or claimed.
 *
 * The look-up's filter: the LBAs are cut into chunks of a power of two no
 * smaller than a segment, so a segment's range lies in at most two; each
 * segment, when set, counts its chunks in `filter` (by the chunk's low
 * bits), and a block whose chunk counts none lies in no stored range: a
 * random read, which nearly always misses, then skips the walk.  A range
 * only shrinks between two sets (a claim, an invalidation, a drop), so
 * the chunks counted at its set still cover it. */
#ifndef RS_DISK_HDD_BUFFER_H
#define RS_DISK_HDD_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/assert.h"
#include "kernel/sim.h"

#define RS_HDD_BUFFER_FILTER 256
/* filter[RS_HDD_BUFFER_NO_SLOT] counts what no chunk holds (an empty
 * range, a range's second chunk when it has one): no look-up reads it, and
 * setting a range needs no test of how many chunks it had. */
#define RS_HDD_BUFFER_NO_SLOT RS_HDD_BUFFER_FILTER

struct rs_hdd_seg {
	uint64_t start, end;          /* valid blocks; empty when start == end */
	/* Its neighbours in the order of use, least recent first (an
	 * untouched segment counts as used before every touched one, the
	 * lower index first). */
	uint32_t older, newer;
	/* The filter slots counted for it at its last set (see above), or
	 * RS_HDD_BUFFER_NO_SLOT. */
	uint16_t slot[2];
};

struct rs_hdd_extent {
	uint64_t lba, end;
	rs_time_t born_ns;            /* first write into it, for FCFS/aging */
};

struct rs_hdd_buffer {
	struct rs_hdd_seg *seg;
	uint32_t nseg;
	uint64_t seg_blk;
	uint32_t lru, mru;            /* least and most recently used segment */
	struct rs_hdd_extent *ext;
	size_t next, ext_cap;
	uint64_t dirty_blk;           /* sum over the extents */
	unsigned chunk_shift;         /* a chunk is 2^chunk_shift >= seg_blk blocks */
	uint32_t filter[RS_HDD_BUFFER_FILTER + 1];  /* segments counted per slot */
};

void rs_hdd_buffer_init(struct rs_hdd_buffer *b, uint32_t nseg, uint64_t seg_blk,
			size_t ext_cap);
void rs_hdd_buffer_destroy(struct rs_hdd_buffer *b);

/* Does the live segment, [start, live_end) trimmed to its last seg_blk
 * blocks, hold [lba, end)? */
static inline bool rs_hdd_buffer_live_holds(const struct rs_hdd_buffer *b, uint64_t start,
					    uint64_t live_end, uint64_t lba, uint64_t end)
{
	if (live_end <= start)
		return false;
	if (live_end - start > b->seg_blk)
		start = live_end - b->seg_blk;
	return lba >= start && end <= live_end;
}
/* The first segment from `from` on holding [lba, end), or nseg.  The
 * segments end with a sentinel (seg[nseg], holding every range), so the
 * walk needs no bound of its own: a random block misses every segment,
 * and the bound's test was a third of the scan. */
static inline uint32_t rs_hdd_buffer_holding(const struct rs_hdd_seg *seg, uint32_t from,
					     uint64_t lba, uint64_t end)
{
	const struct rs_hdd_seg *s = seg + from;
	while (lba < s->start || end > s->end)
		s++;
	return (uint32_t)(s - seg);
}
/* The filter slot of lba's chunk. */
static inline uint32_t rs_hdd_buffer_slot(const struct rs_hdd_buffer *b, uint64_t lba)
{
	return (uint32_t)(lba >> b->chunk_shift) % RS_HDD_BUFFER_FILTER;
}
/* Index of a segment whose valid range holds [lba, lba+nblk) (nblk >= 1),
 * or -1.  The streaming segment `live` (or -1) has its end given as
 * live_end, since its read-ahead is still running.  Inline: every read
 * asks. */
static inline int rs_hdd_buffer_lookup(const struct rs_hdd_buffer *b, uint64_t lba,
				       uint32_t nblk, int live, uint64_t live_end)
{
	/* One walk over every segment's stored range, unless the filter
	 * says none holds lba; the live one's bounds are worked out only
	 * when nothing before it holds the range (the lowest index that
	 * holds it wins). */
	uint64_t end = lba + nblk;
	const struct rs_hdd_seg *seg = b->seg;
	uint32_t n = b->nseg;
	uint32_t at = live >= 0 && (uint32_t)live < n ? (uint32_t)live : n;
	uint32_t i = b->filter[rs_hdd_buffer_slot(b, lba)] ? rs_hdd_buffer_holding(seg, 0, lba, end)
							     : n;
	if (i < at)
		return (int)i;
	if (at == n)
		return -1;
	if (rs_hdd_buffer_live_holds(b, seg[at].start, live_end, lba, end))
		return (int)at;
	/* The live segment's stored range is not what it holds. */
	if (i == at)
		i = rs_hdd_buffer_holding(seg, at + 1, lba, end);
	return i < n ? (int)i : -1;
}
/* s's range leaves the filter, and [start, end) (no longer than a chunk)
 * enters it. */
static inline void rs_hdd_buffer_refilter(struct rs_hdd_buffer *b, struct rs_hdd_seg *s,
					  uint64_t start, uint64_t end)
{
	b->filter[s->slot[0]]--;
	b->filter[s->slot[1]]--;
	uint32_t first = RS_HDD_BUFFER_NO_SLOT, last = RS_HDD_BUFFER_NO_SLOT;
	if (start != end) {
		first = rs_hdd_buffer_slot(b, start);
		last = rs_hdd_buffer_slot(b, end - 1);
		if (last == first)
			last = RS_HDD_BUFFER_NO_SLOT;
	}
	s->slot[0] = (uint16_t)first;
	s->slot[1] = (uint16_t)last;
	b->filter[first]++;
	b->filter[last]++;
}
/* Inline, as the two below: every read miss claims a segment (emptied
 * where its stream starts), touches it and sets it when the stream stops. */
static inline void rs_hdd_buffer_touch(struct rs_hdd_buffer *b, uint32_t i)
{
	/* Moved to the most recent end of the order of use: the least
	 * recently used segment is then the list's first, with no scan. */
	if (i == b->mru)
		return;
	struct rs_hdd_seg *s = b->seg;
	if (i == b->lru)
		b->lru = s[i].newer;
	else
		s[s[i].older].newer = s[i].newer;
	s[s[i].newer].older = s[i].older;
	s[i].older = b->mru;
	s[b->mru].newer = i;
	b->mru = i;
}
/* The least recently used segment, touched and emptied at `at` (its
 * range [at, at)). */
static inline uint32_t rs_hdd_buffer_claim(struct rs_hdd_buffer *b, uint64_t at)
{
	uint32_t v = b->lru;
	struct rs_hdd_seg *s = &b->seg[v];
	rs_hdd_buffer_refilter(b, s, at, at);
	s->start = s->end = at;
	rs_hdd_buffer_touch(b, v);
	return v;
}
/* Segment i now holds [start, end), trimmed to its last seg_blk blocks. */
static inline void rs_hdd_buffer_set(struct rs_hdd_buffer *b, uint32_t i, uint64_t start,
				     uint64_t end)
{
	RS_ASSERT(start <= end);
	if (end - start > b->seg_blk)
		start = end - b->seg_blk;
	struct rs_hdd_seg *s = &b->seg[i];
	rs_hdd_buffer_refilter(b, s, start, end);
	s->start = start;
	s->end = end;
}
/* Drop [lba, lba+nblk) from every segment except `keep` (new data was
 * written there).  A segment keeps the part above the write if that is the
 * larger. */
void rs_hdd_buffer_invalidate(struct rs_hdd_buffer *b, uint64_t lba, uint32_t nblk, int keep);

/* The segment holding [lba, end) (except `skip`) keeps only what follows
 * end: the data up to end has been used. */
void rs_hdd_buffer_drop_through(struct rs_hdd_buffer *b, uint64_t lba, uint64_t end,
				int skip);
/* Is [lba, lba+nblk) inside one dirty extent?  Inline: a read miss asks
 * with none, mostly. */
static inline bool rs_hdd_buffer_dirty_covers(const struct rs_hdd_buffer *b, uint64_t lba,
					      uint32_t nblk)
{
	for (size_t i = 0; i < b->next; i++)
		if (lba >= b->ext[i].lba && lba + nblk <= b->ext[i].end)
			return true;
	return false;
}
/* Add dirty data, merging; returns how much dirty_blk grew (<= nblk). */
uint64_t rs_hdd_buffer_dirty_add(struct rs_hdd_buffer *b, uint64_t lba, uint32_t nblk,
				 rs_time_t now);
/* Remove extent i (for destaging) and return it. */
struct rs_hdd_extent rs_hdd_buffer_dirty_take(struct rs_hdd_buffer *b, size_t i);

#endif
