#include "disk/hdd_mech.h"

#include "kernel/assert.h"

static rs_time_t mt(const struct rs_hdd_mech *m, uint64_t lba, uint64_t n)
{
	return n ? rs_disk_media_time(m->l, m->s, m->sp, lba, (uint32_t)n, 0) : 0;
}

uint64_t rs_hdd_mech_stream_done(const struct rs_hdd_mech *m, rs_time_t t)
{
	uint64_t hi = m->s_limit - m->s_lba;
	if (t >= m->s_end_ns)
		return hi;
	if (t <= m->s_t0_ns)
		return 0;
	/* Largest n with s_t0 + mt(n) <= t; mt is increasing in n. */
	uint64_t lo = 0;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		if (m->s_t0_ns + mt(m, m->s_lba, mid) <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

rs_time_t rs_hdd_mech_stream_time(const struct rs_hdd_mech *m, uint64_t lba)
{
	if (lba <= m->s_lba)
		return m->s_t0_ns;
	/* The end of lba's own sector, less that sector's time: its start,
	 * including any switch and skew wait before it. */
	uint64_t n = lba - m->s_lba + 1;
	return m->s_t0_ns + mt(m, m->s_lba, n) - mt(m, lba, 1);
}

/* The position of a stream that stops at time t: on the track of the last
 * sector read (or of the origin if none), free from t. */
static void stream_park(const struct rs_hdd_mech *m, rs_time_t t, struct rs_head_state *hs)
{
	uint64_t done = rs_hdd_mech_stream_done(m, t);
	uint64_t at = done ? m->s_lba + done - 1 : m->s_lba;
	struct rs_phys p;
	rs_layout_lba_to_phys(m->l, at, &p);
	hs->cyl = p.cyl;
	hs->head = p.head;
	hs->free_at_ns = t;
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

bool rs_hdd_mech_continues(const struct rs_hdd_mech *m, uint64_t lba, uint32_t nblk,
			   rs_time_t ready_ns)
{
	if (!m->streaming || lba < m->s_valid_from || lba > m->s_limit)
		return false;
	/* Past the window the stream must still be running when the firmware
	 * extends it; inside it the sectors come anyway. */
	return lba + nblk <= m->s_limit || ready_ns <= m->s_end_ns;
}

rs_time_t rs_hdd_mech_position(const struct rs_hdd_mech *m, rs_time_t now,
			       rs_time_t overhead_ns, uint64_t lba, uint32_t nblk,
			       int is_write, struct rs_hdd_pos *out)
{
	rs_time_t ready = now + overhead_ns;
	if (!is_write && rs_hdd_mech_continues(m, lba, nblk, ready)) {
		rs_time_t t = rs_hdd_mech_stream_time(m, lba);
		out->cont = true;
		out->free_ns = ready;
		out->pos = (struct rs_position){ 0 };
		rs_layout_lba_to_phys(m->l, lba, &out->pos.target);
		out->pos.rot_ns = t > ready ? t - ready : 0;
		out->pos.total_ns = out->pos.rot_ns;
		out->start_ns = ready + out->pos.total_ns;
		return out->start_ns;
	}
	struct rs_head_state hs;
	rs_hdd_mech_head_at(m, now, &hs);
	if (hs.free_at_ns < ready)
		hs.free_at_ns = ready;
	out->cont = false;
	out->free_ns = hs.free_at_ns;
	rs_disk_position_time(m->l, m->s, m->sp, &hs, lba, is_write, &out->pos);
	out->start_ns = hs.free_at_ns + out->pos.total_ns;
	return out->start_ns;
}

uint64_t rs_hdd_mech_stop(struct rs_hdd_mech *m, rs_time_t now)
{
	RS_ASSERT(m->streaming);
	rs_time_t t = stop_time(m, now);
	uint64_t end = m->s_lba + rs_hdd_mech_stream_done(m, t);
	stream_park(m, t, &m->head);
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
	m->s_limit = limit;
	m->s_end_ns = m->s_t0_ns + mt(m, m->s_lba, limit - m->s_lba);
}
