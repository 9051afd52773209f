#include "disk/hdd_wcache.h"

#include "io/io.h"
#include "kernel/assert.h"

void rs_hdd_wcache_init(struct rs_hdd_wcache *w, const struct rs_hdd_params *p,
			const struct rs_hdd_mech *mech)
{
	*w = (struct rs_hdd_wcache){ 0 };
	w->cap_blk = p->write_cache ? p->write_cache_bytes / RS_BLOCK_BYTES : 0;
	w->high_blk = (uint64_t)((double)w->cap_blk * p->destage_high_pct / 100.0);
	if (w->high_blk == 0)
		w->high_blk = 1;
	w->order = (struct rs_hdd_sched){
		.policy = p->destage_order == RS_HDD_DESTAGE_AS_SCHEDULER
			? p->scheduler : p->destage_order - 1,
		.mech = mech,
	};
}

void rs_hdd_wcache_stall(struct rs_hdd_wcache *w, struct rs_io *io)
{
	rs_io_fifo_push(&w->stall_head, &w->stall_tail, io);
}

struct rs_io *rs_hdd_wcache_unstall(struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b)
{
	struct rs_io *io = w->stall_head;
	if (!io || !rs_hdd_wcache_room(w, b, io->nblk))
		return NULL;
	return rs_io_fifo_pop(&w->stall_head, &w->stall_tail);
}

int rs_hdd_wcache_continuation(const struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b,
			       rs_time_t now)
{
	/* Any moment later the sector has passed: going on would cost a turn,
	 * which is a positioning like any other. */
	if (!w->streaming || w->stream_t != now)
		return -1;
	for (size_t i = 0; i < b->next; i++)
		if (b->ext[i].lba <= w->stream_at && w->stream_at < b->ext[i].end)
			return (int)i;
	return -1;
}

size_t rs_hdd_wcache_pick(struct rs_hdd_wcache *w, const struct rs_hdd_buffer *b,
			  rs_time_t now, struct rs_hdd_pos *pos)
{
	RS_ASSERT(b->next > 0);
	size_t best = 0;
	struct rs_hdd_key bk = { 0 }, k;
	struct rs_hdd_pos p;
	for (size_t i = 0; i < b->next; i++) {
		const struct rs_hdd_extent *e = &b->ext[i];
		struct rs_hdd_cand c = { e->lba, (uint32_t)(e->end - e->lba), true, e->born_ns, 0 };
		rs_hdd_sched_key(&w->order, now, &c, &k, &p);
		if (i == 0 || rs_hdd_key_less(&k, &bk)) {
			best = i;
			bk = k;
			*pos = p;
		}
	}
	w->order.predicted = *pos;
	return best;
}

uint32_t rs_hdd_wcache_take(struct rs_hdd_wcache *w, struct rs_hdd_buffer *b,
			    const struct rs_layout *l, size_t i, uint64_t from)
{
	RS_ASSERT(!rs_hdd_wcache_destaging(w));
	struct rs_hdd_extent e = rs_hdd_buffer_dirty_take(b, i);
	RS_ASSERT(e.lba <= from && from < e.end);
	uint64_t to = rs_layout_track_last_lba(l, from) + 1;
	if (to > e.end)
		to = e.end;
	/* The parts left neither touch each other nor any other extent, so
	 * they go back as they were. */
	if (e.lba < from)
		rs_hdd_buffer_dirty_add(b, e.lba, (uint32_t)(from - e.lba), e.born_ns);
	if (to < e.end)
		rs_hdd_buffer_dirty_add(b, to, (uint32_t)(e.end - to), e.born_ns);
	w->piece_lba = from;
	w->piece_end = to;
	w->streaming = false;
	return (uint32_t)(to - from);
}

void rs_hdd_wcache_piece_done(struct rs_hdd_wcache *w, rs_time_t now)
{
	w->streaming = true;
	w->stream_at = w->piece_end;
	w->stream_t = now;
	w->piece_lba = w->piece_end;
}
