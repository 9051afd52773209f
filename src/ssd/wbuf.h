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
};

void wbuf_init(struct wbuf *w, uint32_t cap);
void wbuf_free(struct wbuf *w);
static inline uint32_t wbuf_room(const struct wbuf *w) { return w->cap - w->count - w->inflight; }
/* Append a unit (room must be > 0); returns its slot. */
uint32_t wbuf_push(struct wbuf *w, uint32_t lpn);
/* Take up to n of the oldest units for programming. */
uint32_t wbuf_take(struct wbuf *w, uint32_t n, uint32_t *lpns);
/* A program of n taken units ended: their space is free. */
void wbuf_release(struct wbuf *w, uint32_t n);

#endif
