/* The DRAM write buffer: a FIFO ring of logical units waiting to be
 * programmed.  The S3700's buffer is power-loss protected, so a write is
 * complete once its units are here; the FTL's map points at the ring slot
 * (FTL_BUF | slot) until the unit is taken for programming, so reads find
 * it and rewrites of a buffered unit cost nothing more.  Units taken for a
 * program keep their space until the program ends. */
#ifndef RS_SSD_WBUF_H
#define RS_SSD_WBUF_H

#include <stdint.h>

struct wbuf {
	uint32_t *ring;               /* logical unit per slot */
	uint32_t cap;                 /* units */
	uint32_t head, count;         /* waiting units: ring[head .. head+count) */
	uint32_t inflight;            /* taken, being programmed */
	/* Units that hold only part of their data until the rest is read
	 * from flash (a partial write's merge): they cannot be programmed
	 * yet, nor anything pushed after them (programs take the oldest
	 * units).  `merge_from` gives, by slot, the flash page being read
	 * (WBUF_NOT_MERGING if none); `pend` lists the merging slots in the
	 * order they were pushed, so the oldest still merging is found in
	 * constant time though merges end in any order. */
	uint32_t *merge_from;
	uint32_t *pend;
	uint32_t pend_head, pend_count;
};

void wbuf_init(struct wbuf *w, uint32_t cap);
void wbuf_free(struct wbuf *w);
static inline uint32_t wbuf_room(const struct wbuf *w) { return w->cap - w->count - w->inflight; }
/* Append a unit (room must be > 0); returns its slot. */
uint32_t wbuf_push(struct wbuf *w, uint32_t lpn);
#define WBUF_NOT_MERGING UINT32_MAX

/* The unit in slot waits for its merge read of flash page ppn / has it. */
void wbuf_mark_merging(struct wbuf *w, uint32_t slot, uint32_t ppn);
void wbuf_merged(struct wbuf *w, uint32_t slot);
/* The flash page the unit in slot still needs, or WBUF_NOT_MERGING. */
static inline uint32_t wbuf_merge_from(const struct wbuf *w, uint32_t slot)
{
	return w->merge_from[slot];
}
/* Waiting units a program may take: the oldest, up to the first merging. */
static inline uint32_t wbuf_ready(const struct wbuf *w)
{
	if (w->pend_count == 0)
		return w->count;
	return (w->pend[w->pend_head] + w->cap - w->head) % w->cap;
}
/* Take up to n of the oldest ready units for programming. */
uint32_t wbuf_take(struct wbuf *w, uint32_t n, uint32_t *lpns);
/* A program of n taken units ended: their space is free. */
void wbuf_release(struct wbuf *w, uint32_t n);

#endif
