/* The FTL's record of wear: program/erase cycles per block, which the read
 * path turns into retries (ssd_sched.c) and static wear levelling into
 * moves of cold data (ssd_wl.c).  Kept only by drives that use it, so the
 * others carry no table. */
#include <stdlib.h>

#include "kernel/assert.h"
#include "ssd/ftl.h"

void ftl_track_wear(struct ftl *f, uint32_t start, bool worn_for_gc)
{
	uint64_t nblocks = (uint64_t)f->g.ndies * f->g.blocks_per_die;
	free(f->erase_count);
	f->erase_count = malloc(nblocks * sizeof(*f->erase_count));
	RS_ASSERT(f->erase_count != NULL);
	for (uint64_t b = 0; b < nblocks; b++)
		f->erase_count[b] = start;
	f->gc_takes_worn = worn_for_gc;
}

uint32_t ftl_coldest_full(const struct ftl *f, uint32_t die, uint32_t *spread)
{
	uint32_t first = die * f->g.blocks_per_die, cold = FTL_NONE;
	uint32_t most = 0, least = UINT32_MAX;
	for (uint32_t b = first; b < first + f->g.blocks_per_die; b++) {
		uint32_t w = ftl_block_wear(f, b);
		if (w > most)
			most = w;
		if (f->state[b] == FTL_BLK_FULL && w < least) {
			least = w;
			cold = b;
		}
	}
	*spread = cold == FTL_NONE ? 0 : most - least;
	return cold;
}

void ftl_worn_free_on_top(struct ftl *f, uint32_t die)
{
	struct ftl_die *fd = &f->die[die];
	if (!f->erase_count || fd->nfree < 2)
		return;
	uint32_t first = die * f->g.blocks_per_die, top = fd->nfree - 1, best = top;
	for (uint32_t i = 0; i < top; i++)
		if (f->erase_count[first + fd->free_blocks[i]] >
		    f->erase_count[first + fd->free_blocks[best]])
			best = i;
	uint32_t t = fd->free_blocks[top];
	fd->free_blocks[top] = fd->free_blocks[best];
	fd->free_blocks[best] = t;
}
