#include "disk/hdd_mech.h"

#include "kernel/assert.h"

/* Inlined into every caller: the memo's hit is a few instructions, and
 * the stream-end search calls this two or three times a request. */
static inline __attribute__((always_inline)) rs_time_t mt(const struct rs_hdd_mech *m,
							  uint64_t lba, uint64_t n)
{
	/* The memo is not part of the mechanism's state (see memo_done). */
	struct rs_media_memo *memo = &((struct rs_hdd_mech *)m)->media;
	return n ? rs_disk_media_time_memo(m->l, m->s, m->sp, memo, lba, (uint32_t)n) : 0;
}

_Static_assert(sizeof(struct rs_hdd_phys_memo) == 64, "a memo entry is a cache line");

static struct rs_hdd_phys_memo *phys_memo_slot(const struct rs_hdd_mech *m, uint64_t lba)
{
	size_t i = (size_t)((lba * 0x9E3779B97F4A7C15ull) >> 58) % RS_HDD_PHYS_MEMO;
	return &((struct rs_hdd_mech *)m)->memo_phys[i]; /* memo only */
}

const struct rs_track_run *rs_hdd_mech_run_of(const struct rs_hdd_mech *m, uint64_t lba)
{
	const struct rs_hdd_phys_memo *e = phys_memo_slot(m, lba);
	return e->lba1 == lba + 1 ? &e->run : NULL;
}

rs_time_t rs_hdd_mech_media_time(const struct rs_hdd_mech *m, uint64_t lba, uint64_t n)
{
	return rs_hdd_mech_media_time_run(m, rs_hdd_mech_run_of(m, lba), lba, n);
}

static uint64_t stream_done_search(const struct rs_hdd_mech *m, rs_time_t t, uint64_t hi,
				   rs_time_t *next);
static inline uint64_t stream_done_flat(const struct rs_hdd_mech *m, rs_time_t t, uint64_t hi,
					rs_time_t *next);

/* stream_done_next past its quick answers: the division or the search,
 * kept in the memo. */
static inline __attribute__((always_inline)) uint64_t
stream_done_work(const struct rs_hdd_mech *m, rs_time_t t, uint64_t hi, rs_time_t *next)
{
	/* The memo is not part of the mechanism's state: writing it through a
	 * const pointer to a non-const object changes no observable value. */
	struct rs_hdd_mech *mm = (struct rs_hdd_mech *)m;
	uint64_t n = m->s_flat_spt ? stream_done_flat(m, t, hi, next)
		: stream_done_search(m, t, hi, next);
	mm->memo_done.ok = true;
	mm->memo_done.t = t;
	mm->memo_done.lba = m->s_lba;
	mm->memo_done.t0 = m->s_t0_ns;
	mm->memo_done.limit = m->s_limit;
	mm->memo_done.n = n;
	mm->memo_done.next = *next;
	return n;
}
/* The same out of line, so that the quick answers need not save the
 * registers the division uses. */
static __attribute__((noinline)) uint64_t stream_done_worked(const struct rs_hdd_mech *m,
							      rs_time_t t, uint64_t hi,
							      rs_time_t *next)
{
	return stream_done_work(m, t, hi, next);
}

/* rs_hdd_mech_stream_done, and in *next the media time from the origin to
 * the end of the sector after those done when the search met it on its
 * way (-1 when not known): what the head, stopping, still reads.
 * inline_work: the work past the quick answers inline, else a call. */
static inline __attribute__((always_inline)) uint64_t
stream_done_next_as(const struct rs_hdd_mech *m, rs_time_t t, rs_time_t *next, bool inline_work)
{
	uint64_t hi = m->s_limit - m->s_lba;
	*next = -1;
	if (t >= m->s_end_ns)
		return hi;
	if (t <= m->s_t0_ns)
		return 0;
	if (m->memo_done.ok && m->memo_done.t == t && m->memo_done.lba == m->s_lba &&
	    m->memo_done.t0 == m->s_t0_ns && m->memo_done.limit == m->s_limit) {
		*next = m->memo_done.next;
		return m->memo_done.n;
	}
	return inline_work ? stream_done_work(m, t, hi, next) : stream_done_worked(m, t, hi, next);
}
static inline uint64_t stream_done_next(const struct rs_hdd_mech *m, rs_time_t t,
					rs_time_t *next)
{
	return stream_done_next_as(m, t, next, false);
}

uint64_t rs_hdd_mech_stream_done(const struct rs_hdd_mech *m, rs_time_t t)
{
	rs_time_t next;
	return stream_done_next(m, t, &next);
}

/* Out of line: a flat stream, the common one, needs none of its registers. */
static __attribute__((noinline)) uint64_t stream_done_search(const struct rs_hdd_mech *m,
							      rs_time_t t, uint64_t hi,
							      rs_time_t *next)
{
	/* Largest n in [0, hi] with s_t0 + mt(n) <= t; mt is increasing in n.
	 * Bracket: the predicate holds at lo and fails at up (hi + 1 stands
	 * for "beyond the range").  mt is nearly linear (sectors pass at a
	 * steady rate, switches add a little), so each round probes the
	 * interpolated point and its neighbour on the far side, which usually
	 * closes the bracket in two or three evaluations of mt instead of a
	 * bisection's log2(hi).  Any probe order gives the same answer.  up
	 * below hi + 1 was probed: mt(up) is up_ns, handed back in *next. */
	rs_time_t target = t - m->s_t0_ns;
	uint64_t lo = 0, up = hi + 1;
	double tlo = 0, tup = (double)(m->s_end_ns - m->s_t0_ns); /* estimate at hi */
	uint64_t tup_at = hi;
	rs_time_t up_ns = -1;
	for (int round = 0; up - lo > 1; round++) {
		uint64_t g;
		if (round < 4 && tup > tlo) {
			double f = ((double)target - tlo) / (tup - tlo);
			g = lo + (uint64_t)(f * (double)(tup_at - lo));
		} else {
			g = lo + (up - lo) / 2;
		}
		if (g <= lo)
			g = lo + 1;
		if (g >= up)
			g = up - 1;
		rs_time_t tg = mt(m, m->s_lba, g);
		if (tg <= target) {
			lo = g, tlo = (double)tg;
			if (g + 1 < up) {
				rs_time_t tn = mt(m, m->s_lba, g + 1);
				if (tn <= target)
					lo = g + 1, tlo = (double)tn;
				else
					up = g + 1, tup = (double)tn, tup_at = g + 1, up_ns = tn;
			}
		} else {
			up = g, tup = (double)tg, tup_at = g, up_ns = tg;
			if (g - 1 > lo) {
				rs_time_t tp = mt(m, m->s_lba, g - 1);
				if (tp <= target)
					lo = g - 1, tlo = (double)tp;
				else
					up = g - 1, tup = (double)tp, tup_at = g - 1, up_ns = tp;
			}
		}
	}
	*next = up <= hi ? up_ns : -1;
	return lo;
}

/* mt(m, m->s_lba, n) of a flat stream (s_flat_spt): the media time of n
 * blocks on one run of a track, as rs_disk_media_time works it out (the
 * run's end from its first sector, and one block's time in its zone, are
 * both n sector times of a turn over spt, in that order of operations). */
static inline rs_time_t flat_mt(const struct rs_hdd_mech *m, uint64_t n)
{
	return n ? rs_hdd_mech_run_mt(m, m->s_flat_spt, n) : 0;
}

/* stream_done_search for a flat stream: the largest n in [0, hi] with
 * flat_mt(n) <= t - s_t0_ns, from the quotient and a step either way for
 * the rounding (flat_mt is increasing in n), so the answer and *next are
 * those of the search.  Inline: positioning from a stream asks. */
static inline __attribute__((always_inline)) uint64_t
stream_done_flat(const struct rs_hdd_mech *m, rs_time_t t, uint64_t hi, rs_time_t *next)
{
	rs_time_t target = t - m->s_t0_ns;
	uint64_t n = (uint64_t)((double)target * m->s_flat_spt / rs_spindle_period_ns(m->sp));
	if (n > hi)
		n = hi;
	while (n > 0 && flat_mt(m, n) > target)
		n--;
	rs_time_t up_ns = -1;
	while (n < hi && (up_ns = flat_mt(m, n + 1)) <= target)
		n++;
	*next = n < hi ? up_ns : -1;
	return n;
}

/* When lba (s_lba <= lba < capacity) starts passing under a streaming head. */
static rs_time_t rs_hdd_mech_stream_time(const struct rs_hdd_mech *m, uint64_t lba)
{
	if (lba <= m->s_lba)
		return m->s_t0_ns;
	/* The end of lba's own sector, less that sector's time: its start,
	 * including any switch and skew wait before it. */
	uint64_t n = lba - m->s_lba + 1;
	if (m->s_flat_spt && lba < m->s_limit)
		return m->s_t0_ns + flat_mt(m, n) - flat_mt(m, 1);
	return m->s_t0_ns + mt(m, m->s_lba, n) - mt(m, lba, 1);
}

/* The position of a stream that stops at time t: on the track of the last
 * sector read (or of the origin if none), free from t. */
static void stream_park_done(const struct rs_hdd_mech *m, rs_time_t t, uint64_t done,
			     struct rs_head_state *hs);

static void stream_park(const struct rs_hdd_mech *m, rs_time_t t, struct rs_head_state *hs)
{
	stream_park_done(m, t, rs_hdd_mech_stream_done(m, t), hs);
}

/* The same, with the blocks done by t known. */
static void stream_park_done(const struct rs_hdd_mech *m, rs_time_t t, uint64_t done,
			     struct rs_head_state *hs)
{
	hs->free_at_ns = t;
	if (m->s_flat_spt) {
		/* Every block of a flat stream is on its track. */
		hs->cyl = m->s_flat_cyl;
		hs->head = m->s_flat_head;
		return;
	}
	uint64_t at = done ? m->s_lba + done - 1 : m->s_lba;
	struct rs_hdd_mech *mm = (struct rs_hdd_mech *)m;  /* the memo only, as above */
	if (!m->memo_park.ok || m->memo_park.lba != at) {
		struct rs_phys p;
		rs_layout_lba_to_phys(m->l, at, &p);
		mm->memo_park.ok = true;
		mm->memo_park.lba = at;
		mm->memo_park.cyl = p.cyl;
		mm->memo_park.head = p.head;
	}
	hs->cyl = m->memo_park.cyl;
	hs->head = m->memo_park.head;
}

static rs_time_t stop_time(const struct rs_hdd_mech *m, rs_time_t now)
{
	if (m->stop_on_command || now >= m->s_end_ns)
		return now;
	return m->s_end_ns;
}

void rs_hdd_mech_head_at(const struct rs_hdd_mech *m, rs_time_t now, struct rs_head_state *hs)
{
	if (m->streaming)
		stream_park(m, stop_time(m, now), hs);
	else
		*hs = m->head;
}

/* rs_layout_run_at of lba, through the memo.  Inline, the run's mapping a
 * call: a random command misses, and the mapping is then the whole work. */
static inline __attribute__((always_inline)) const struct rs_hdd_phys_memo *
phys_of(const struct rs_hdd_mech *m, uint64_t lba)
{
	struct rs_hdd_phys_memo *e = phys_memo_slot(m, lba);
	if (e->lba1 != lba + 1) {
		e->lba1 = lba + 1;
		rs_layout_run_at(m->l, lba, &e->run);
	}
	return e;
}

/* rs_spindle_target_units(rs_layout_angle_of(r->p)) of a run's first
 * sector: the run's base is its track's sector 0 modulo spt. */
static int64_t run_target_units(const struct rs_track_run *r)
{
	return rs_spindle_sector_units((r->base + r->p.sector) % r->spt, r->spt);
}

static uint32_t distance(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

/* rs_spindle_angle_units(m->sp, t): the angle is linear in t modulo a
 * turn, so from the reference instant it is rs_spindle_advance's exact
 * step, as long as t lies no earlier and within its fast range (2^38 ns,
 * some 4.5 minutes); any other t becomes the reference. */
static __attribute__((noinline)) int64_t angle_units_new_ref(const struct rs_hdd_mech *m,
								rs_time_t t)
{
	struct rs_hdd_mech *mm = (struct rs_hdd_mech *)m;  /* the memo only, as above */
	mm->spin_ref.ok = true;
	mm->spin_ref.t = t;
	mm->spin_ref.angle = rs_spindle_angle_units(m->sp, t);
	return mm->spin_ref.angle;
}
/* Inline, the new reference a call: every positioning asks, nearly always
 * after the reference. */
static inline __attribute__((always_inline)) int64_t angle_units_at(const struct rs_hdd_mech *m,
								     rs_time_t t)
{
	rs_time_t dt = t - m->spin_ref.t;
	if (m->spin_ref.ok && dt >= 0 && dt < (INT64_C(1) << 38))
		return rs_spindle_advance(m->sp, m->spin_ref.angle, dt);
	return angle_units_new_ref(m, t);
}

/* rs_disk_position_time (disk/spindle_position.c) step for step, with the
 * target's place and angle from its run in the memo, which it returns. */
static const struct rs_track_run *position_time(const struct rs_hdd_mech *m,
						const struct rs_head_state *from, uint64_t lba,
						int is_write, struct rs_position *out)
{
	const struct rs_hdd_phys_memo *e = phys_of(m, lba);
	out->target = e->run.p;
	out->seek_ns = rs_seek_reposition_time(m->s, distance(from->cyl, out->target.cyl),
					       from->head != out->target.head, is_write);
	/* rs_spindle_wait, the angle under the heads from the reference. */
	out->rot_ns = rs_spindle_wait_units(m->sp, angle_units_at(m, from->free_at_ns + out->seek_ns),
					    run_target_units(&e->run));
	out->total_ns = out->seek_ns + out->rot_ns;
	return &e->run;
}

/* Can a read of [lba, lba+nblk) be served by the stream if its command is
 * processed by `ready_ns`? */
static bool rs_hdd_mech_continues(const struct rs_hdd_mech *m, uint64_t lba, uint32_t nblk,
				  rs_time_t ready_ns)
{
	/* Only what lies ahead of the stream's origin can still come off the
	 * platter in this pass: a request behind it (an IOMeter stream that
	 * wrapped to the start of its range) is a new access, not free data;
	 * whatever of it is still in the segment the buffer serves as a hit. */
	if (!m->streaming || lba < m->s_valid_from || lba < m->s_lba || lba > m->s_limit)
		return false;
	/* Past the window the stream must still be running when the firmware
	 * extends it; inside it the sectors come anyway. */
	return lba + nblk <= m->s_limit || ready_ns <= m->s_end_ns;
}

/* When the head may leave for a command ready at `ready`, the head being
 * free from free_at: with finish_sector, read-ahead still running then
 * first reads the sector under the head to its end (between sectors, in a
 * switch or skew, it stops at once). */
static inline rs_time_t head_free_done(const struct rs_hdd_mech *m, rs_time_t t, uint64_t done,
				       rs_time_t next);

static rs_time_t head_free(const struct rs_hdd_mech *m, rs_time_t free_at, rs_time_t ready)
{
	rs_time_t t = free_at < ready ? ready : free_at;
	if (!m->finish_sector || !m->streaming || t >= m->s_end_ns)
		return t;
	rs_time_t next;
	uint64_t done = stream_done_next(m, t, &next);
	return head_free_done(m, t, done, next);
}

/* The same, for a streaming head at t (t < s_end_ns) with the blocks done
 * by t and stream_done_next's end of the next sector known.  Inline: every
 * command that stops read-ahead asks. */
static inline __attribute__((always_inline)) rs_time_t
head_free_done(const struct rs_hdd_mech *m, rs_time_t t, uint64_t done, rs_time_t next)
{
	uint64_t at = m->s_lba + done;
	if (at >= m->s_limit)
		return t;
	/* rs_hdd_mech_stream_time(m, at), with the end of at's sector from
	 * the search when it met it; on a flat stream at's sector is one of
	 * the run's. */
	if (next < 0)
		next = mt(m, m->s_lba, done + 1);
	rs_time_t one = m->s_flat_spt ? flat_mt(m, 1) : mt(m, at, 1);
	rs_time_t at_start = done ? m->s_t0_ns + next - one : m->s_t0_ns;
	if (at_start < t)
		return m->s_t0_ns + next;
	return t;
}

rs_time_t rs_hdd_mech_position(const struct rs_hdd_mech *m, rs_time_t now,
			       rs_time_t overhead_ns, uint64_t lba, uint32_t nblk,
			       int is_write, struct rs_hdd_pos *out)
{
	rs_time_t ready = now + overhead_ns;
	if (!is_write && rs_hdd_mech_continues(m, lba, nblk, ready)) {
		rs_time_t t = rs_hdd_mech_stream_time(m, lba);
		out->cont = true;
		out->stops = false;
		out->free_ns = ready;
		out->pos = (struct rs_position){ 0 };
		out->run = &phys_of(m, lba)->run;
		out->pos.target = out->run->p;
		out->pos.rot_ns = t > ready ? t - ready : 0;
		out->pos.total_ns = out->pos.rot_ns;
		out->start_ns = ready + out->pos.total_ns;
		return out->start_ns;
	}
	struct rs_head_state hs;
	if (m->streaming) {
		/* rs_hdd_mech_head_at and head_free, with the stream asked once
		 * when the head stops no earlier than the command is ready (the
		 * common case: it stops on the command). */
		rs_time_t ts = stop_time(m, now);
		rs_time_t next;
		/* The division inline: the stream has mostly run on since it
		 * was last asked. */
		uint64_t done = stream_done_next_as(m, ts, &next, true);
		stream_park_done(m, ts, done, &hs);
		/* rs_hdd_mech_stop at now: the stream stops at ts, parked. */
		out->stops = true;
		out->stop_end = m->s_lba + done;
		out->stopped = hs;
		if (ready <= ts && m->finish_sector && ts < m->s_end_ns)
			hs.free_at_ns = head_free_done(m, ts, done, next);
		else
			hs.free_at_ns = head_free(m, ts, ready);
	} else {
		out->stops = false;
		hs = m->head;
		hs.free_at_ns = head_free(m, hs.free_at_ns, ready);
	}
	out->cont = false;
	out->free_ns = hs.free_at_ns;
	out->run = position_time(m, &hs, lba, is_write, &out->pos);
	out->start_ns = hs.free_at_ns + out->pos.total_ns;
	return out->start_ns;
}

void rs_hdd_mech_target(const struct rs_hdd_mech *m, uint64_t lba, struct rs_hdd_target *t)
{
	t->lba = lba;
	rs_layout_lba_to_phys(m->l, lba, &t->p);
	t->want = rs_spindle_target_units(rs_layout_angle_of(m->l, &t->p));
}

rs_time_t rs_hdd_mech_position_fast(const struct rs_hdd_mech *m, struct rs_hdd_view *v,
				    rs_time_t overhead_ns, const struct rs_hdd_target *t,
				    uint32_t nblk, int is_write, struct rs_hdd_pos *out)
{
	rs_time_t ready = v->now + overhead_ns;
	/* Continuing a stream is rare and needs the stream's timing: the
	 * reference path. */
	if (!is_write && rs_hdd_mech_continues(m, t->lba, nblk, ready))
		return rs_hdd_mech_position(m, v->now, overhead_ns, t->lba, nblk, is_write, out);
	if (!v->have_hs) {
		rs_hdd_mech_head_at(m, v->now, &v->hs);
		v->have_hs = true;
	}
	/* Reads and writes differ in overhead, so in when the head is free. */
	int k = is_write ? 1 : 0;
	if (!v->at[k].ok || v->at[k].overhead_ns != overhead_ns) {
		rs_time_t free_ns = head_free(m, v->hs.free_at_ns, ready);
		v->at[k].ok = true;
		v->at[k].overhead_ns = overhead_ns;
		v->at[k].free_ns = free_ns;
		v->at[k].angle = angle_units_at(m, free_ns);
	}
	/* position_time, with the spindle's angle carried forward from the
	 * shared instant by the seek instead of computed afresh. */
	out->cont = false;
	out->stops = false;
	out->run = NULL;
	out->free_ns = v->at[k].free_ns;
	out->pos.target = t->p;
	out->pos.seek_ns = rs_seek_reposition_time(m->s, distance(v->hs.cyl, t->p.cyl),
						   v->hs.head != t->p.head, is_write);
	int64_t a = rs_spindle_advance(m->sp, v->at[k].angle, out->pos.seek_ns);
	out->pos.rot_ns = rs_spindle_wait_units(m->sp, a, t->want);
	out->pos.total_ns = out->pos.seek_ns + out->pos.rot_ns;
	out->start_ns = out->free_ns + out->pos.total_ns;
	return out->start_ns;
}

uint64_t rs_hdd_mech_stop(struct rs_hdd_mech *m, rs_time_t now)
{
	RS_ASSERT(m->streaming);
	rs_time_t t = stop_time(m, now);
	uint64_t done = rs_hdd_mech_stream_done(m, t);
	uint64_t end = m->s_lba + done;
	stream_park_done(m, t, done, &m->head);
	m->streaming = false;
	return end;
}

void rs_hdd_mech_rebase(struct rs_hdd_mech *m, rs_time_t now, uint64_t lba)
{
	uint64_t read = m->s_lba + rs_hdd_mech_stream_done(m, now);
	uint64_t to = lba < read ? lba : read;
	if (to <= m->s_lba || to >= m->s_limit)
		return;
	m->s_t0_ns = rs_hdd_mech_stream_time(m, to);
	m->s_lba = to;
	rs_hdd_mech_set_limit(m, m->s_limit);
}

void rs_hdd_mech_set_limit(struct rs_hdd_mech *m, uint64_t limit)
{
	rs_hdd_mech_set_limit_run(m, rs_hdd_mech_run_of(m, m->s_lba), limit);
}

void rs_hdd_mech_set_limit_walked(struct rs_hdd_mech *m, uint64_t limit)
{
	m->s_limit = limit;
	uint64_t n = limit - m->s_lba;
	m->s_end_ns = m->s_t0_ns + mt(m, m->s_lba, n);
	/* The media time just asked for has put the stream's first run in
	 * the memo (a length of two or more blocks walks from s_lba). */
	const struct rs_track_run *r = &m->media.track[0].run;
	m->s_flat_spt = n > 1 && m->media.ok && m->media.origin == m->s_lba &&
		r->first == m->s_lba && r->last >= limit - 1 && r->straight >= limit - 1
		? r->spt : 0;
	m->s_flat_cyl = r->p.cyl;
	m->s_flat_head = r->p.head;
}
