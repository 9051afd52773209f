/* The controller's (or host driver's) block cache: a table of fixed-size
 * lines, sized once at init, with no allocation afterwards.
 *
 * A line holds one line-aligned piece of the address space and knows which
 * of its blocks are valid and which are dirty (each kept as one range: a
 * write that does not touch the old range widens it to the hull, which may
 * destage a few blocks too many but never loses dirty data).  Clean lines
 * sit in an LRU list and are the only ones replaced; dirty lines wait in
 * age order for destaging; a line being destaged is in neither list, and a
 * write landing on it marks it dirty again for after the destage.
 *
 * This file is the bookkeeping only: when to destage, and what a request
 * costs, is the controller's business (ctrl/controller.c). */
#ifndef RS_CTRL_CACHE_H
#define RS_CTRL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct rs_cache_line;

struct rs_cache {
	uint32_t nlines;
	uint32_t line_blk;
	struct rs_cache_line *l;
	uint32_t *bucket;             /* hash heads, index+1 (0 = empty) */
	uint32_t mask;
	uint32_t free_head;           /* index+1 */
	uint32_t clean_head, clean_tail;   /* LRU first, index+1 */
	uint32_t dirty_head, dirty_tail;   /* oldest first, index+1 */
	uint32_t nfree, nclean, ndirty, ndestaging;
};

/* The most lines a cache may have: the table costs about 44 bytes a line
 * (about 90 MiB at this cap, 128 GiB of cache in 64 KiB lines). */
#define RS_CACHE_MAX_LINES (1u << 21)

/* size / line lines (at least one).  Returns 0, or -1 if that is more
 * than RS_CACHE_MAX_LINES or the table cannot be allocated. */
int rs_cache_init(struct rs_cache *c, uint64_t size_bytes, uint64_t line_bytes);
void rs_cache_fini(struct rs_cache *c);

/* Every block of [lba, lba+nblk) valid?  Refreshes the lines' LRU place. */
bool rs_cache_lookup(struct rs_cache *c, uint64_t lba, uint32_t nblk);
/* Data arrived (a read or a write-through): make the blocks valid where
 * a line is present or can be had without touching dirty data. */
void rs_cache_fill(struct rs_cache *c, uint64_t lba, uint32_t nblk);
/* Lines the range covers. */
uint64_t rs_cache_span(const struct rs_cache *c, uint64_t lba, uint32_t nblk);
/* Write-back: mark the blocks dirty; false (and nothing changed) if there
 * is no room. */
bool rs_cache_write(struct rs_cache *c, uint64_t lba, uint32_t nblk);
/* Take the oldest dirty line and the dirty lines contiguous with it, up to
 * max_blk, out for destaging: one write to the array.  False if nothing is
 * dirty. */
bool rs_cache_destage_pick(struct rs_cache *c, uint32_t max_blk, uint64_t *lba,
			   uint32_t *nblk);
/* The destage write of [lba, lba+nblk) finished: those lines are clean
 * unless written meanwhile. */
void rs_cache_destage_done(struct rs_cache *c, uint64_t lba, uint32_t nblk);
/* Which arrays a write-back cache acts on (cache.write_back_arrays). */
enum rs_cache_wb_scope { RS_CACHE_WB_ANY, RS_CACHE_WB_TWO_WAY };
/* What write-back does with a write that continues the previous one
 * (cache.write_back_streams). */
enum rs_cache_wb_streams { RS_CACHE_STREAMS_CACHE, RS_CACHE_STREAMS_THROUGH };
/* Does write-back act on an array that keeps `copies` copies of each block
 * with `ndata` data strips per row?  TWO_WAY: only where the array splits
 * its data two ways at the top, a mirror of two (drives or stripe sets) or
 * a stripe over two drives; anything else is written through. */
bool rs_cache_wb_applies(int scope, uint32_t copies, uint32_t ndata);
/* Drop every line that overlaps the range (a write that bypasses the
 * cache); dirty and destaging lines are kept, the caller orders them. */
void rs_cache_invalidate(struct rs_cache *c, uint64_t lba, uint32_t nblk);

#endif
