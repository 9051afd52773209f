/* The flash translation layer's state: page-mapped, greedy GC.
 *
 * The map gives every logical 4 KiB unit its place: a physical unit number
 * (ppn), a slot of the write buffer (FTL_BUF | slot), or FTL_NONE (never
 * written).  The reverse map is what the spare area of each physical unit
 * says: the logical unit written there (stale once the map points
 * elsewhere); GC reads it to find a victim block's valid data.
 *
 * Memory follows the data written, not the capacity (an 800 GB drive's
 * flat tables would take 1.8 GB): both maps start as a formula, the
 * starting state's layout (fresh: nothing; full: the sequential stripe;
 * steady: an affine permutation over blocks of known valid counts), and
 * keep in memory only what was written since.  The map keeps the units
 * moved since the start in a hash table (about 16 bytes per unit moved,
 * which beats any table of fixed-size leaves under random writes, where
 * every write lands in a leaf of its own); once that would take more
 * than a flat table of every unit (4 bytes each), it becomes one.  The
 * reverse map has a leaf per block written since the start, taken when
 * the block opens and returned when it is erased, so in steady state
 * leaves are reused.  Allocation happens only when a unit is moved for the
 * first time (the table doubles, or turns flat, once) or a block is
 * opened with no leaf free, so it is bounded by the drive's size; a drive
 * that is only read allocates nothing.  Each die owns its blocks, its free
 * list and two write frontiers (host data, GC relocations), so dies
 * collect garbage independently, as the controller does per die.
 *
 * Blocks are multi-plane blocks (the same block of every plane, erased
 * together) and pages are multi-plane pages (units_per_page units,
 * programmed together).  Nothing here knows about time: the device
 * (ssd.c) decides when, this file decides where. */
#ifndef RS_SSD_FTL_H
#define RS_SSD_FTL_H

#include <stdbool.h>
#include <stdint.h>

#include "ssd/ssd_params.h"

#define FTL_NONE UINT32_MAX
#define FTL_BUF 0x80000000u

enum ftl_block_state { FTL_BLK_FREE, FTL_BLK_OPEN, FTL_BLK_FULL, FTL_BLK_VICTIM };

struct ftl_die {
	uint32_t *free_blocks;        /* stack of die-local block numbers */
	uint32_t nfree;
	uint32_t host_blk, host_next; /* open block for host data and its next unit; FTL_NONE */
	uint32_t gc_blk, gc_next;     /* open block for relocated data */
};

/* Fixed-size leaves of uint32_t, numbered from 1 (0 = no leaf), carved
 * from slabs; freed leaves are kept on a list for reuse. */
struct ftl_leaves {
	uint32_t len;                 /* entries per leaf */
	uint32_t **slab;
	uint32_t nslab, slab_cap;
	uint32_t next;                /* leaves handed out so far */
	uint32_t free_head;           /* freed leaf to reuse first, or 0 */
	uint64_t live;                /* leaves in use */
};

enum ftl_layout { FTL_LAYOUT_NONE, FTL_LAYOUT_SEQ, FTL_LAYOUT_STEADY };

struct ftl {
	struct rs_ssd_geom g;
	/* the starting state's layout */
	int layout;                   /* enum ftl_layout */
	uint8_t *orig;                /* per block: still holds its starting contents */
	uint64_t perm_a, perm_c, perm_ainv;   /* steady: lpn = (a k + c) mod L */
	uint32_t steady_used;         /* steady: blocks per die filled */
	uint32_t *steady_prefix;      /* steady: per die, used + 1 running sums of valid units */
	/* what was written since */
	uint32_t *moved_key, *moved_val;  /* hash table of units moved: lpn -> entry */
	uint64_t moved_cap, moved_count;  /* slots (a power of two), entries */
	uint32_t *flat;               /* or, past that, every unit's entry */
	uint32_t *rmap_dir;           /* leaf per block, or 0 */
	struct ftl_leaves rmap_leaves;
	uint16_t *valid;              /* valid units per block (global block number) */
	uint8_t *state;               /* enum ftl_block_state per block */
	struct ftl_die *die;
	uint32_t *erase_count;        /* P/E cycles per block (ftl_wear.c); NULL: not tracked */
	bool gc_takes_worn;           /* GC's frontier opens the most-worn free block */
	uint64_t host_units;          /* units programmed from the host's writes */
	uint64_t gc_units;            /* units programmed by GC relocation */
	uint64_t erases;
};

/* Allocate everything for the geometry (once: the device's state). */
void ftl_init(struct ftl *f, const struct rs_ssd_geom *g);
void ftl_free(struct ftl *f);

/* Starting states.  free_target: blocks each die keeps free. */
void ftl_fresh(struct ftl *f);
void ftl_fill_sequential(struct ftl *f, uint32_t free_target);
/* The valid-unit distribution a uniform random overwrite workload leaves
 * (see ftl.c), with the logical units scattered by a permutation drawn
 * from `seed`. */
void ftl_fill_steady(struct ftl *f, uint32_t free_target, uint64_t seed);

static inline uint32_t ftl_units_per_die(const struct ftl *f)
{
	return f->g.blocks_per_die * f->g.units_per_block;
}
static inline uint32_t ftl_ppn_die(const struct ftl *f, uint32_t ppn)
{
	return ppn / ftl_units_per_die(f);
}
static inline uint32_t ftl_ppn_block(const struct ftl *f, uint32_t ppn)
{
	return ppn / f->g.units_per_block;
}
static inline bool ftl_is_flash(uint32_t e) { return e != FTL_NONE && !(e & FTL_BUF); }

/* Where the logical unit is (ppn, FTL_BUF | slot or FTL_NONE). */
uint32_t ftl_map_get(const struct ftl *f, uint32_t lpn);
/* Set it (allocating the leaf of its range on the first write there). */
void ftl_map_set(struct ftl *f, uint32_t lpn, uint32_t e);
/* Bytes of heap the maps and block tables hold now. */
uint64_t ftl_heap_bytes(const struct ftl *f);

/* The logical unit's flash copy (if any) becomes stale. */
void ftl_invalidate(struct ftl *f, uint32_t lpn);
/* Whether the die can take a page of host data without touching the
 * block kept for GC. */
bool ftl_host_can_write(const struct ftl *f, uint32_t die);
/* The first ppn of the next free multi-plane page of the die's host or GC
 * frontier (opening a block if needed); FTL_NONE if there is no block. */
uint32_t ftl_next_page(struct ftl *f, uint32_t die, bool gc);
/* Map lpn to ppn (which must be unwritten since the last erase). */
void ftl_place(struct ftl *f, uint32_t lpn, uint32_t ppn);

/* Greedy victim: the die's full block with the fewest valid units, if it
 * has at most units_per_block - units_per_page (so collecting it gains at
 * least a page).  Marks it FTL_BLK_VICTIM.  FTL_NONE if none. */
uint32_t ftl_pick_victim(struct ftl *f, uint32_t die);
/* Up to max valid units of block blk from *scan on (advanced past them). */
uint32_t ftl_collect(const struct ftl *f, uint32_t blk, uint32_t *scan, uint32_t *lpns,
		     uint32_t *ppns, uint32_t max);
/* Erase a victim whose units are all stale: back on its die's free list. */
void ftl_erase(struct ftl *f, uint32_t blk);

/* ---- wear (ftl_wear.c) ---------------------------------------------------- */

/* Count every block's program/erase cycles from now on, starting at
 * `start`; with `worn_for_gc`, GC relocates into the most-worn free block
 * (data that survived a collection is cold: it wears a block least). */
void ftl_track_wear(struct ftl *f, uint32_t start, bool worn_for_gc);
/* The block's P/E cycles (0 when wear is not tracked). */
static inline uint32_t ftl_block_wear(const struct ftl *f, uint32_t blk)
{
	return f->erase_count ? f->erase_count[blk] : 0;
}
/* The die's least-worn full block (static wear levelling's candidate: it
 * holds data nobody rewrites), or FTL_NONE; *spread is the most-worn
 * block's cycles (any state) minus the candidate's. */
uint32_t ftl_coldest_full(const struct ftl *f, uint32_t die, uint32_t *spread);
/* ftl_next_page's choice of a free block for GC: the most-worn on top. */
void ftl_worn_free_on_top(struct ftl *f, uint32_t die);

/* Recount everything from the map: valid counts, rmap agreement, free
 * lists.  Returns the number of inconsistencies (0 = sound). */
uint64_t ftl_check(const struct ftl *f);

/* Write amplification so far: units programmed / host units programmed
 * (1 when nothing was written). */
double ftl_write_amp(const struct ftl *f);

#endif
