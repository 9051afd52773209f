#include "ssd/wbuf.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

void wbuf_init(struct wbuf *w, uint32_t cap)
{
	memset(w, 0, sizeof(*w));
	w->ring = calloc(cap, sizeof(*w->ring));
	w->merge_from = malloc(cap * sizeof(*w->merge_from));
	w->pend = calloc(cap, sizeof(*w->pend));
	RS_ASSERT(w->ring != NULL && w->merge_from != NULL && w->pend != NULL);
	for (uint32_t i = 0; i < cap; i++)
		w->merge_from[i] = WBUF_NOT_MERGING;
	w->cap = cap;
}

void wbuf_free(struct wbuf *w)
{
	free(w->ring);
	free(w->merge_from);
	free(w->pend);
	memset(w, 0, sizeof(*w));
}

uint32_t wbuf_push(struct wbuf *w, uint32_t lpn)
{
	RS_ASSERT(wbuf_room(w) > 0);
	uint32_t slot = (w->head + w->count) % w->cap;
	w->ring[slot] = lpn;
	w->count++;
	return slot;
}

void wbuf_mark_merging(struct wbuf *w, uint32_t slot, uint32_t ppn)
{
	RS_ASSERT(slot < w->cap && w->merge_from[slot] == WBUF_NOT_MERGING &&
		  ppn != WBUF_NOT_MERGING && w->pend_count < w->cap);
	w->merge_from[slot] = ppn;
	w->pend[(w->pend_head + w->pend_count) % w->cap] = slot;
	w->pend_count++;
}

void wbuf_merged(struct wbuf *w, uint32_t slot)
{
	RS_ASSERT(slot < w->cap && w->merge_from[slot] != WBUF_NOT_MERGING);
	w->merge_from[slot] = WBUF_NOT_MERGING;
	while (w->pend_count > 0 && w->merge_from[w->pend[w->pend_head]] == WBUF_NOT_MERGING) {
		w->pend_head = (w->pend_head + 1) % w->cap;
		w->pend_count--;
	}
}

uint32_t wbuf_take(struct wbuf *w, uint32_t n, uint32_t *lpns)
{
	uint32_t ready = wbuf_ready(w);
	if (n > ready)
		n = ready;
	for (uint32_t i = 0; i < n; i++) {
		lpns[i] = w->ring[w->head];
		w->head = (w->head + 1) % w->cap;
	}
	w->count -= n;
	w->inflight += n;
	return n;
}

void wbuf_release(struct wbuf *w, uint32_t n)
{
	RS_ASSERT(w->inflight >= n);
	w->inflight -= n;
}
