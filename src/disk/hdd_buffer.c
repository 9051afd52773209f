#include "disk/hdd_buffer.h"

#include <stdlib.h>

#include "kernel/assert.h"

void rs_hdd_buffer_init(struct rs_hdd_buffer *b, uint32_t nseg, uint64_t seg_blk,
			size_t ext_cap)
{
	RS_ASSERT(nseg > 0 && seg_blk > 0 && ext_cap > 0);
	*b = (struct rs_hdd_buffer){ .nseg = nseg, .seg_blk = seg_blk, .ext_cap = ext_cap };
	b->seg = calloc((size_t)nseg + 1, sizeof(*b->seg));
	b->ext = calloc(ext_cap, sizeof(*b->ext));
	RS_ASSERT(b->seg && b->ext);
	for (uint32_t i = 0; i < nseg; i++) {
		b->seg[i].older = i - 1;  /* wraps for the first, never read */
		b->seg[i].newer = i + 1;
		b->seg[i].slot[0] = b->seg[i].slot[1] = RS_HDD_BUFFER_NO_SLOT;
	}
	b->filter[RS_HDD_BUFFER_NO_SLOT] = 2 * nseg;
	b->seg[nseg].end = UINT64_MAX;  /* the sentinel: holds every range */
	while (b->chunk_shift < 63 && (UINT64_C(1) << b->chunk_shift) < seg_blk)
		b->chunk_shift++;
	b->lru = 0;
	b->mru = nseg - 1;
}

void rs_hdd_buffer_destroy(struct rs_hdd_buffer *b)
{
	free(b->seg);
	free(b->ext);
	b->seg = NULL;
	b->ext = NULL;
}

void rs_hdd_buffer_invalidate(struct rs_hdd_buffer *b, uint64_t lba, uint32_t nblk, int keep)
{
	uint64_t wend = lba + nblk;
	for (uint32_t i = 0; i < b->nseg; i++) {
		struct rs_hdd_seg *s = &b->seg[i];
		if ((int)i == keep || s->end <= lba || s->start >= wend)
			continue;
		uint64_t below = lba > s->start ? lba - s->start : 0;
		uint64_t above = s->end > wend ? s->end - wend : 0;
		if (above > below)
			s->start = wend;
		else
			s->end = s->start + below;
	}
}

void rs_hdd_buffer_drop_through(struct rs_hdd_buffer *b, uint64_t lba, uint64_t end,
				int skip)
{
	for (uint32_t i = 0; i < b->nseg; i++) {
		struct rs_hdd_seg *s = &b->seg[i];
		if ((int)i != skip && s->start <= lba && lba < s->end && end <= s->end)
			s->start = end;
	}
}

uint64_t rs_hdd_buffer_dirty_add(struct rs_hdd_buffer *b, uint64_t lba, uint32_t nblk,
				 rs_time_t now)
{
	struct rs_hdd_extent n = { lba, lba + nblk, now };
	uint64_t merged = 0;
	for (size_t i = 0; i < b->next;) {
		struct rs_hdd_extent *e = &b->ext[i];
		if (e->end < n.lba || e->lba > n.end) {
			i++;
			continue;
		}
		/* Overlapping or touching: absorb it, keep the older birth. */
		merged += e->end - e->lba;
		if (e->lba < n.lba)
			n.lba = e->lba;
		if (e->end > n.end)
			n.end = e->end;
		if (e->born_ns < n.born_ns)
			n.born_ns = e->born_ns;
		b->ext[i] = b->ext[--b->next];
	}
	RS_ASSERT(b->next < b->ext_cap);
	b->ext[b->next++] = n;
	uint64_t grow = (n.end - n.lba) - merged;
	b->dirty_blk += grow;
	return grow;
}

struct rs_hdd_extent rs_hdd_buffer_dirty_take(struct rs_hdd_buffer *b, size_t i)
{
	RS_ASSERT(i < b->next);
	struct rs_hdd_extent e = b->ext[i];
	b->ext[i] = b->ext[--b->next];
	b->dirty_blk -= e.end - e.lba;
	return e;
}
