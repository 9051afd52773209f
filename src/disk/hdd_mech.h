/* Where the head is, and when the media access for a given LBA can start.
 *
 * The head is either parked on a track (free from `head.free_at_ns`), or
 * streaming: reading sequentially from `s_lba`, whose first sector was
 * under the head at `s_t0_ns`, until `s_limit` (exclusive).  Streaming
 * covers a read's own media transfer and the read-ahead after it; it is
 * evaluated lazily, so read-ahead costs no events: how far it got is
 * computed from the clock when someone asks.
 *
 * rs_hdd_mech_position() is the one function both the schedulers (to
 * predict) and the mechanics (to charge) call, so SPTF predictions and the
 * time the mechanics take agree by construction; the device still checks
 * it on every dispatch. */
#ifndef RS_DISK_HDD_MECH_H
#define RS_DISK_HDD_MECH_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/layout.h"
#include "disk/seek.h"
#include "disk/spindle.h"
#include "disk/spindle_position.h"
#include "kernel/sim.h"

#define RS_HDD_PHYS_MEMO 64

struct rs_hdd_mech {
	const struct rs_layout *l;
	const struct rs_seek *s;
	const struct rs_spindle *sp;
	bool stop_on_command;         /* read-ahead yields at once to other work */
	bool finish_sector;           /* stopped, it first reads the sector under the head */
	struct rs_head_state head;    /* valid when not streaming */
	bool streaming;
	uint64_t s_lba;               /* stream origin (rebased as it goes) */
	rs_time_t s_t0_ns;            /* s_lba's first sector under the head */
	uint64_t s_limit;             /* stream stops before this LBA */
	rs_time_t s_end_ns;           /* when it gets there */
	/* The sectors per track when [s_lba, s_limit) lies on consecutive
	 * sectors of one track (the common read-ahead to a track's end), 0
	 * otherwise: block n of the stream then ends n sector times after
	 * s_t0_ns, and how far it got by a time is a division, not a search. */
	uint32_t s_flat_spt;
	uint32_t s_flat_cyl, s_flat_head;  /* that track, where a flat stream parks */
	uint64_t s_valid_from;        /* lowest LBA of the stream's segment */
	/* Last answers of two pure functions, kept because the scheduler asks
	 * the same question at the same instant for every queued command:
	 * stream_done for (s_lba, s_t0_ns, s_limit, t), and the track of an
	 * LBA for the head's parking place.  A cache only: same inputs, same
	 * answer. */
	struct {
		bool ok;
		uint64_t lba, limit, n;
		rs_time_t t0, t;
		rs_time_t next;       /* media time to the end of sector n + 1, or -1 */
	} memo_done;
	struct {
		bool ok;
		uint64_t lba;
		uint32_t cyl, head;
	} memo_park;
	/* The spindle's angle (rs_spindle_angle_units) at an instant asked
	 * about before: a later one's is this one's turned on by the time
	 * between, one modulo instead of the four of the angle from t = 0. */
	struct {
		bool ok;
		rs_time_t t;
		int64_t angle;
	} spin_ref;
	/* Media times from the stream's origin (see rs_media_memo). */
	struct rs_media_memo media;
	/* Where an LBA is, for the commands in the queue (each is positioned
	 * again at every dispatch while it waits).  Kept as the run from the
	 * LBA to its track's end, which the command's media time then starts
	 * from instead of mapping the LBA again, and whose base gives the
	 * angle.  Direct-mapped by a hash of the LBA.  An entry is a cache
	 * line (a random command misses and fills one line, not two):
	 * rs_hdd_mech is aligned to lines for it. */
	struct rs_hdd_phys_memo {
		_Alignas(64) uint64_t lba1;  /* the LBA + 1; 0 (as zeroed): empty */
		struct rs_track_run run;  /* rs_layout_run_at(lba); run.p: where it lies */
	} memo_phys[RS_HDD_PHYS_MEMO];
};

/* Where a media access starts. */
struct rs_hdd_pos {
	bool cont;                    /* served by the running stream */
	struct rs_position pos;       /* seek/rotation from the head's state */
	rs_time_t free_ns;            /* when the head may start moving */
	rs_time_t start_ns;           /* first sector under the head */
	/* The run from the target LBA to its track's end, in the memo where
	 * the positioning mapped it (rs_hdd_mech_position), or NULL: start of
	 * service takes it from here instead of hashing into the memo again
	 * (rs_hdd_mech_run_of_pos). */
	const struct rs_track_run *run;
	/* Set when rs_hdd_mech_position found the head streaming and the
	 * access does not continue the stream: what rs_hdd_mech_stop at the
	 * same instant gives (the end of the valid data, the parked head), so
	 * that start of service stops the stream without asking it again
	 * (rs_hdd_mech_stop_positioned). */
	bool stops;
	uint64_t stop_end;
	struct rs_head_state stopped;
};

/* Where a queued command's access starts on the platter, worked out once
 * when the command enters the queue (rs_hdd_mech_target) rather than at
 * every dispatch it waits through. */
struct rs_hdd_target {
	uint64_t lba;
	struct rs_phys p;
	int64_t want;                 /* start angle, rs_spindle_target_units */
};

/* What every candidate of one scheduling pass shares: the decision time,
 * the head's state, and per overhead (one for reads, one for writes) when
 * the head is free and the angle under it then.  Filled lazily by
 * rs_hdd_mech_position_fast; rs_hdd_mech_view_init empties it. */
struct rs_hdd_view {
	rs_time_t now;
	bool have_hs;
	struct rs_head_state hs;
	struct {
		bool ok;
		rs_time_t overhead_ns;
		rs_time_t free_ns;
		int64_t angle;        /* rs_spindle_angle_units at free_ns */
	} at[2];
};

void rs_hdd_mech_target(const struct rs_hdd_mech *m, uint64_t lba, struct rs_hdd_target *t);
static inline void rs_hdd_mech_view_init(struct rs_hdd_view *v, rs_time_t now)
{
	v->now = now;
	v->have_hs = false;
	v->at[0].ok = v->at[1].ok = false;
}
/* rs_hdd_mech_position(m, v->now, overhead_ns, t->lba, nblk, is_write, out),
 * the same answer to the nanosecond, with the target and the view's shared
 * parts computed once.  The mechanism must not change while v is in use. */
rs_time_t rs_hdd_mech_position_fast(const struct rs_hdd_mech *m, struct rs_hdd_view *v,
				    rs_time_t overhead_ns, const struct rs_hdd_target *t,
				    uint32_t nblk, int is_write, struct rs_hdd_pos *out);

/* rs_disk_media_time of [lba, lba+n) (0 when n is 0), to the nanosecond,
 * through the drive's memo of the walk from its last origin: timing from
 * the stream's first block, or the access just positioned, is then looked
 * up instead of walked again. */
rs_time_t rs_hdd_mech_media_time(const struct rs_hdd_mech *m, uint64_t lba, uint64_t n);
/* The media time of n >= 1 blocks on consecutive sectors of one track
 * with spt sectors, from the first one's start: what rs_disk_media_time
 * gives for them (the run's end, or one block's time in its zone), in the
 * same operations. */
static inline rs_time_t rs_hdd_mech_run_mt(const struct rs_hdd_mech *m, uint32_t spt,
					   uint64_t n)
{
	return rs_round_nonneg((double)(uint32_t)n * rs_spindle_period_ns(m->sp) / spt);
}
/* The same, with r = rs_hdd_mech_run_of(m, lba) (NULL or not) at hand.
 * Inline: start of service times every command. */
static inline rs_time_t rs_hdd_mech_media_time_run(const struct rs_hdd_mech *m,
						   const struct rs_track_run *r, uint64_t lba,
						   uint64_t n)
{
	/* A command's media access starts where it was just positioned: from
	 * the run the positioning mapped (the one rs_layout_run_at gives), a
	 * transfer on its straight part is a division, and a longer one walks
	 * on from it. */
	struct rs_media_memo *memo = &((struct rs_hdd_mech *)m)->media; /* memo only */
	if (n > 0 && (!memo->ok || memo->origin != lba)) {
		if (r && lba + n - 1 <= r->straight)
			return rs_hdd_mech_run_mt(m, r->spt, n);
		if (r && n > 1)
			rs_media_memo_start(memo, r);
	}
	return n ? rs_disk_media_time_memo(m->l, m->s, m->sp, memo, lba, (uint32_t)n) : 0;
}

/* The run from lba to its track's end (rs_layout_run_at) when the
 * mechanism has it at hand (lba has just been positioned), else NULL. */
const struct rs_track_run *rs_hdd_mech_run_of(const struct rs_hdd_mech *m, uint64_t lba);

/* rs_hdd_mech_run_of(m, lba), for lba the target pos was positioned for:
 * the memo's run pos points at is lba's while it starts at lba (an entry's
 * LBA and its run's first are written together); else the memo is asked. */
static inline const struct rs_track_run *rs_hdd_mech_run_of_pos(const struct rs_hdd_mech *m,
								const struct rs_hdd_pos *pos,
								uint64_t lba)
{
	const struct rs_track_run *r = pos->run;
	if (r && r->first == lba)
		return r;
	return rs_hdd_mech_run_of(m, lba);
}

/* Blocks past s_lba fully read by time t (capped at the limit). */
uint64_t rs_hdd_mech_stream_done(const struct rs_hdd_mech *m, rs_time_t t);
/* The head's state for work that starts after `now`: where streaming has
 * got to (or will stop, when read-ahead finishes first), and when it is
 * free.  `now` is the time the decision is made. */
void rs_hdd_mech_head_at(const struct rs_hdd_mech *m, rs_time_t now, struct rs_head_state *hs);
/* Media start for an access decided at `now` after `overhead_ns` of
 * firmware work.  Returns out->start_ns. */
rs_time_t rs_hdd_mech_position(const struct rs_hdd_mech *m, rs_time_t now,
			       rs_time_t overhead_ns, uint64_t lba, uint32_t nblk,
			       int is_write, struct rs_hdd_pos *out);

/* Stop streaming as seen from `now` (for work that is not a continuation);
 * returns the end of the valid data ([s_valid_from, end)) and parks the
 * head where the stream stopped. */
uint64_t rs_hdd_mech_stop(struct rs_hdd_mech *m, rs_time_t now);
/* rs_hdd_mech_stop(m, now) for an access that pos positioned at now, the
 * mechanism unchanged since: the stop the positioning worked out when it
 * has one.  Inline: every read miss stops the stream of the one before. */
static inline uint64_t rs_hdd_mech_stop_positioned(struct rs_hdd_mech *m, rs_time_t now,
						   const struct rs_hdd_pos *pos)
{
	if (!pos->stops)
		return rs_hdd_mech_stop(m, now);
	RS_ASSERT(m->streaming);
	m->head = pos->stopped;
	m->streaming = false;
	return pos->stop_end;
}
/* Move the stream origin up to min(lba, what is read by now), so lookups
 * stay short on long sequential runs. */
void rs_hdd_mech_rebase(struct rs_hdd_mech *m, rs_time_t now, uint64_t lba);
/* Start or extend the stream's limit; recomputes s_end_ns. */
void rs_hdd_mech_set_limit(struct rs_hdd_mech *m, uint64_t limit);
/* rs_hdd_mech_set_limit for a stream that does not lie on the straight
 * part of its first block's run at hand: the media time is walked. */
void rs_hdd_mech_set_limit_walked(struct rs_hdd_mech *m, uint64_t limit);
/* rs_hdd_mech_set_limit with r0 = rs_hdd_mech_run_of(m, m->s_lba) at hand.
 * Inline: every read miss starts a stream, mostly on its run. */
static inline void rs_hdd_mech_set_limit_run(struct rs_hdd_mech *m,
					     const struct rs_track_run *r0, uint64_t limit)
{
	uint64_t n = limit - m->s_lba;
	if (n > 1 && r0 && limit - 1 <= r0->straight) {
		m->s_limit = limit;
		m->s_flat_spt = r0->spt;
		m->s_flat_cyl = r0->p.cyl;
		m->s_flat_head = r0->p.head;
		m->s_end_ns = m->s_t0_ns + rs_hdd_mech_run_mt(m, r0->spt, n);
		return;
	}
	rs_hdd_mech_set_limit_walked(m, limit);
}

#endif
