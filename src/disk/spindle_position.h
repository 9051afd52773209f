/* Positioning and media-transfer times: layout + seek + spindle combined.
 *
 * These are pure functions of the drive's state, shared by the mechanics
 * (which charge the time) and by SPTF-style schedulers (which predict it),
 * so prediction and outcome agree by construction. */
#ifndef RS_DISK_SPINDLE_POSITION_H
#define RS_DISK_SPINDLE_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/layout.h"
#include "disk/seek.h"
#include "disk/spindle.h"
#include "kernel/sim.h"

struct rs_head_state {
	uint32_t cyl;
	uint32_t head;
	rs_time_t free_at_ns;             /* when the arm can start moving */
};

struct rs_position {
	rs_time_t seek_ns;                /* seek and/or head switch */
	rs_time_t rot_ns;                 /* rotational wait after it */
	rs_time_t total_ns;
	struct rs_phys target;
};

/* Time from from->free_at_ns until the start of lba's sector is under the
 * head: rs_seek_reposition_time() for the cylinder distance and head change,
 * then the spindle wait from the angle at (free_at + seek) to the sector's
 * start angle.  Fills *out and returns out->total_ns. */
rs_time_t rs_disk_position_time(const struct rs_layout *l, const struct rs_seek *s,
				const struct rs_spindle *sp,
				const struct rs_head_state *from, uint64_t lba,
				int is_write, struct rs_position *out);

/* Time to transfer nblk (>= 1) blocks from lba onwards, starting when the
 * first sector's start is under the head and ending when the last sector's
 * end has passed.  Slipped and spare sectors inside a track are passed over
 * at rotation speed; between tracks the head switch (or single-cylinder
 * seek, or both, via rs_seek_reposition_time) is followed by the wait for
 * the next track's first sector -- short when the skew covers the switch,
 * nearly a revolution when it does not. */
rs_time_t rs_disk_media_time(const struct rs_layout *l, const struct rs_seek *s,
			     const struct rs_spindle *sp, uint64_t lba,
			     uint32_t nblk, int is_write);

/* The walk of rs_disk_media_time from one origin, kept track by track: the
 * time at which each track's first sector starts passing.  A read-ahead
 * stream asks for its media time from its origin many times over (how far
 * it got by a given instant is a search over lengths), and every answer
 * then costs one track's arithmetic instead of a walk.  The values are
 * those the walk computes, in the same order, so answers are identical. */
#define RS_MEDIA_MEMO_TRACKS 16
struct rs_media_memo {
	bool ok;
	uint64_t origin;
	uint32_t n;                       /* tracks walked, at most the array's */
	struct rs_media_track {
		struct rs_track_run run;
		double t_ns;                  /* when its first sector starts */
	} track[RS_MEDIA_MEMO_TRACKS];
	/* One block's time in the zone last asked about (a stream's timing
	 * subtracts it for every LBA it places): LBAs [one_first, one_end). */
	uint64_t one_first, one_end;
	rs_time_t one_ns;
};

/* Start memo from a new origin with the run rs_layout_run_at(l, origin)
 * gives, which the caller has at hand (the walk would map it again). */
static inline void rs_media_memo_start(struct rs_media_memo *memo, const struct rs_track_run *r)
{
	memo->ok = true;
	memo->origin = r->first;
	memo->n = 1;
	memo->track[0].run = *r;
	memo->track[0].t_ns = 0;
}
/* rs_disk_media_time(l, s, sp, lba, nblk, 0), through memo (zeroed before
 * first use, and only ever used with the same l, s and sp). */
rs_time_t rs_disk_media_time_memo_walk(const struct rs_layout *l, const struct rs_seek *s,
				       const struct rs_spindle *sp, struct rs_media_memo *memo,
				       uint64_t lba, uint32_t nblk);

/* When the sector at last_sector of run r ends, r's first sector having
 * started t_ns into the transfer.  Accumulated as a double duration and
 * rounded once at the end, so per-sector fractions of a nanosecond do not
 * add up to an error. */
static inline double rs_disk_run_end(double period_ns, const struct rs_track_run *r,
				     uint32_t last_sector, double t_ns)
{
	return t_ns + (double)(last_sector - r->p.sector + 1) * period_ns / r->spt;
}

/* The same; inline for the answers the memo holds (one block in the zone
 * last asked about, a length ending on a track already walked from the same
 * origin), which a stream's timing asks several times a command. */
static inline rs_time_t rs_disk_media_time_memo(const struct rs_layout *l,
						const struct rs_seek *s,
						const struct rs_spindle *sp,
						struct rs_media_memo *memo, uint64_t lba,
						uint32_t nblk)
{
	if (nblk == 1 && lba - memo->one_first < memo->one_end - memo->one_first &&
	    lba < rs_layout_capacity_blk(l))
		return memo->one_ns;
	if (nblk > 1 && memo->ok && memo->origin == lba &&
	    lba + nblk <= rs_layout_capacity_blk(l)) {
		uint64_t last = lba + nblk - 1;
		uint32_t j = 0;
		while (j + 1 < memo->n && memo->track[j].run.last < last)
			j++;
		const struct rs_track_run *rj = &memo->track[j].run;
		if (last <= rj->last)
			return rs_round_nonneg(rs_disk_run_end(rs_spindle_period_ns(sp), rj,
							       rs_layout_run_sector(l, rj, last),
							       memo->track[j].t_ns));
	}
	return rs_disk_media_time_memo_walk(l, s, sp, memo, lba, nblk);
}

#endif
