/* The drive's write-back cache: room for dirty data, writes waiting for
 * room, and the destage stream.
 *
 * Room.  A write is admitted when its blocks fit beside the dirty data, the
 * piece on its way to the media and the writes already admitted whose data
 * is still coming (reserved); otherwise it waits, in arrival order, until a
 * destaged piece frees enough.  The host waits only when the buffer is
 * truly full.
 *
 * Destaging works in pieces of at most one track: a piece's room is freed
 * when its last sector is written, so the host can refill the buffer while
 * the head goes on.  When a piece ends and dirty data starts where it
 * ended (the rest of its extent, or data the host wrote behind it
 * meanwhile), the head writes on without positioning: a run of contiguous
 * dirty data is one media operation that proceeds track after track, with
 * only the track and cylinder switches the skews allow for.
 *
 * Which extent is destaged next (when none continues) follows the drive's
 * destage order (`destage_order`), never aged.  Below the high mark
 * (`destage_high`) destaging waits until no host command is queued; from it
 * on, or while writes wait for room or a flush waits, the destage candidate
 * competes with the queued host commands in the scheduler's own order (see
 * hdd.c, kick).
 *
 * Dirty extents live in the buffer (hdd_buffer.h); nothing here allocates
 * after init. */
#ifndef RS_DISK_HDD_WCACHE_H
#define RS_DISK_HDD_WCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/hdd_buffer.h"
#include "disk/hdd_mech.h"
#include "disk/hdd_params.h"
#include "disk/hdd_sched.h"
#include "io/io.h"

struct rs_hdd_wcache {
	uint64_t cap_blk;             /* dirty data the buffer may hold; 0 = cache off */
	uint64_t high_blk;            /* level from which destaging competes with the host */
	uint64_t reserved_blk;        /* admitted writes whose data is on its way */
	uint64_t piece_lba, piece_end;/* the piece being written; empty when equal */
	/* The head finished writing stream_at - 1 at stream_t, and may go on
	 * with stream_at at that instant without positioning. */
	bool streaming;
	uint64_t stream_at;
	rs_time_t stream_t;
	struct rs_io *stall_head, *stall_tail;
	struct rs_hdd_sched order;    /* the destage order: a policy, no aging */
};

/* Sizes from the parameters; the order positions through mech. */
void rs_hdd_wcache_init(struct rs_hdd_wcache *w, const struct rs_hdd_params *p,
			const struct rs_hdd_mech *mech);

/* Dirty, on its way to the media, or on its way from the host. */
static inline uint64_t rs_hdd_wcache_level(const struct rs_hdd_wcache *w,
					   const struct rs_hdd_buffer *b)
{
	return b->dirty_blk + (w->piece_end - w->piece_lba) + w->reserved_blk;
}

static inline bool rs_hdd_wcache_room(const struct rs_hdd_wcache *w,
				      const struct rs_hdd_buffer *b, uint32_t nblk)
{
	return rs_hdd_wcache_level(w, b) + nblk <= w->cap_blk;
}

static inline bool rs_hdd_wcache_destaging(const struct rs_hdd_wcache *w)
{
	return w->piece_end != w->piece_lba;
}

/* Nothing dirty, nothing on its way either direction, nobody waiting. */
static inline bool rs_hdd_wcache_clean(const struct rs_hdd_wcache *w,
				       const struct rs_hdd_buffer *b)
{
	return rs_hdd_wcache_level(w, b) == 0 && !w->stall_head;
}

/* Must destaging compete with host commands now (the high mark is reached
 * or writes wait for room)?  Only meaningful with dirty extents. */
static inline bool rs_hdd_wcache_pressed(const struct rs_hdd_wcache *w,
					 const struct rs_hdd_buffer *b)
{
	return rs_hdd_wcache_level(w, b) >= w->high_blk || w->stall_head != NULL;
}

/* Writes waiting for room, in arrival order. */
void rs_hdd_wcache_stall(struct rs_hdd_wcache *w, struct rs_io *io);
/* The oldest waiting write if it now fits (taken off the list), else NULL. */
struct rs_io *rs_hdd_wcache_unstall(struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b);

/* The extent the head can go on writing at `now` without positioning (it
 * holds stream_at), or -1. */
int rs_hdd_wcache_continuation(const struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b,
			       rs_time_t now);
/* The extent the destage order writes next, as seen at `now`; its
 * positioning (from the head's state) in *pos.  There must be one. */
size_t rs_hdd_wcache_pick(struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b,
			  rs_time_t now, struct rs_hdd_pos *pos);

/* Take the next piece out of extent i: from `from` (inside it) to the end
 * of the extent or of from's track, whichever is first.  What is left of
 * the extent on either side stays dirty with its birth time.  Returns the
 * piece's length. */
uint32_t rs_hdd_wcache_take(struct rs_hdd_wcache *w, struct rs_hdd_buffer *b,
			    const struct rs_layout *l, size_t i, uint64_t from);
/* The piece is on the media at `now`: its room is free, and the head may
 * go on from its end. */
void rs_hdd_wcache_piece_done(struct rs_hdd_wcache *w, rs_time_t now);

#endif
