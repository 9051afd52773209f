#include "ssd/wbuf.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

void wbuf_init(struct wbuf *w, uint32_t cap)
{
	memset(w, 0, sizeof(*w));
	w->ring = calloc(cap, sizeof(*w->ring));
	RS_ASSERT(w->ring != NULL);
	w->cap = cap;
}

void wbuf_free(struct wbuf *w)
{
	free(w->ring);
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

uint32_t wbuf_take(struct wbuf *w, uint32_t n, uint32_t *lpns)
{
	if (n > w->count)
		n = w->count;
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
