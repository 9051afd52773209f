#include "disk/hdd.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "dev/ioq.h"
#include "dev/server.h"
#include "disk/hdd_buffer.h"
#include "disk/hdd_firmware.h"
#include "disk/hdd_mech.h"
#include "disk/hdd_protocol.h"
#include "disk/hdd_sched.h"
#include "disk/hdd_wcache.h"
#include "kernel/assert.h"

/* A read's progress in the drive (struct rs_hdd_cmd's read). */
#define READ_MEDIA_DONE 0x1u
#define READ_FIRST_DONE 0x2u
#define READ_LAST_GOING 0x4u
#define READ_OPENED 0x8u       /* its data phase has been opened (queuing protocol) */

struct hdd {
	struct rs_dev *dev;
	struct rs_hdd_params p;
	struct rs_hdd_geom g;
	struct rs_link link_own;
	struct rs_link *link;
	struct rs_server fw;          /* firmware: hits, cached writes, flushes */
	struct rs_ioq port;           /* host side; tags = queue_depth */
	struct rs_ioq mq;             /* commands waiting for the head */
	struct rs_hdd_sched sched;
	struct rs_hdd_mech mech;
	struct rs_hdd_buffer buf;
	int live_seg;                 /* the stream's segment, or -1 */
	bool busy;                    /* the head is on a media access */
	struct rs_hdd_wcache wc;      /* write-back room, stalled writes, destage stream */
	struct rs_event_handle wake;  /* end of read-ahead, when destaging waits */
	struct rs_io *flush_head, *flush_tail;
	uint64_t cap_blk, ra_blk;
	rs_time_t ovh_hit;
	rs_time_t queued_ns;          /* per-command cost of queuing, 0 at depth 1 */
	struct rs_hdd_fw fwr;         /* DiskSim-style firmware rules (opt-in) */
	bool prev_write;              /* the previous command was a write */
	/* What note_command last set the overheads for (1 + 2 * previous
	 * write + cached; 0: nothing yet) and the write overhead it set, which
	 * the extra disconnect's write moves for a while. */
	uint8_t noted;
	rs_time_t noted_write_ns;
	uint64_t wt_end;              /* end of the latest write going to the media */
	uint32_t wt_active;           /* writes going to the media, not yet done */
	/* The write streaming its data in under the write water mark (one at a
	 * time: its media access holds the head until all of it is written). */
	struct rs_io *wm_io;
	uint64_t wm_in;               /* its blocks in the drive so far */
	rs_time_t wm_t0;              /* when its media access reached the first block */
	bool wm_media_waits;          /* the media caught up and waits for data */
	int wm_status;                /* a failed transfer of its data, reported at its end */
	struct rs_tavg head_busy;
	struct rs_hdd_counters c;
	/* Queuing protocol, when on (queue_depth > 1): per-command costs. */
	const struct rs_hdd_protocol_costs *proto;
	rs_time_t host_service_ns;
	bool release_when_needed;     /* the bus release comes only when the data cannot move */
	/* Commands the drive holds (its tags in use): mean and peak. */
	struct rs_tavg held;
	uint32_t held_max;
	/* SCSI connection overheads (DiskSim's disconnect and reselect): on
	 * when any of them is set, so other drives keep their timing. */
	bool scsi;
	bool last_write;              /* the previous command was a write ... */
	uint64_t last_write_end;      /* ... ending here */
	rs_time_t rd_disc_end;        /* the latest read miss has let the bus go */
	rs_time_t wt_disc_end;        /* the latest write has let the bus go */
	struct rs_io *xd_io;          /* the write taking an extra disconnect */
	rs_time_t xd_seek_at;         /* when its seek may start */
	rs_time_t xd_saved_ovh;       /* the write overhead it stands in for */
};

static inline void kick(struct rs_sim *sim, struct hdd *h);
static void pump(struct rs_sim *sim, struct hdd *h);
static void xfer_complete(struct rs_sim *sim, void *obj, void *arg, int status);
static void wc_data_in(struct rs_sim *sim, void *obj, void *arg, int status);
static void wt_data_in(struct rs_sim *sim, void *obj, void *arg, int status);
static void read_first_done(struct rs_sim *sim, void *obj, void *arg, int status);
static void wm_data_in(struct rs_sim *sim, void *obj, void *arg, int status);
static void wm_next(struct rs_sim *sim, struct hdd *h, struct rs_io *io);

/* ---- data phases under a queuing protocol -------------------------------
 *
 * With queuing on, a data phase opens with the protocol's handshake: under
 * legacy ATA TCQ the drive raises SERV and the host must react (its
 * service time) and issue SERVICE before any data moves; NCQ and SCSI open
 * it with one drive-initiated exchange.  While a request is in its data
 * phase its context's step holds which transfer follows. */
enum data_step { STEP_HIT, STEP_WC, STEP_WT, STEP_WT_MORE, STEP_READ_FIRST, STEP_READ_LAST };

static struct rs_hdd_cmd *cmd_of(const struct hdd *h, const struct rs_io *io)
{
	return rs_hdd_sched_cmd(&h->sched, io);
}

static void last_burst(const struct hdd *h, const struct rs_io *io, uint64_t *bytes,
		       uint64_t *last)
{
	uint64_t burst = h->p.interface_burst_bytes;
	*bytes = rs_io_bytes(io);
	*last = *bytes % burst ? *bytes % burst : burst;
	if (*last > *bytes)
		*last = *bytes;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Whether a write streams its data in under the write water mark: only one
 * larger than a segment, since a segment takes any other whole. */
static bool wm_streams(const struct hdd *h, const struct rs_io *io)
{
	return h->p.write_watermark > 0 && io->nblk > h->buf.seg_blk;
}

/* Blocks one reconnection brings: what drained below the full segment down
 * to the mark, at least a block (a mark of 1 reconnects as each block is
 * written). */
static uint64_t wm_chunk(const struct hdd *h, const struct rs_io *io)
{
	uint64_t mark = (uint64_t)((double)h->buf.seg_blk * h->p.write_watermark);
	uint64_t room = h->buf.seg_blk > mark ? h->buf.seg_blk - mark : 1;
	return min_u64(room, io->nblk - h->wm_in);
}

static void data_go(struct rs_sim *sim, struct hdd *h, struct rs_io *io, enum data_step step)
{
	uint64_t bytes, last;
	/* Only a read's two halves split off the last burst. */
	switch (step) {
	case STEP_HIT:
		rs_link_xfer(sim, h->link, RS_DIR_IN, rs_io_bytes(io), xfer_complete, h, io);
		return;
	case STEP_WC:
		rs_link_xfer(sim, h->link, RS_DIR_OUT, rs_io_bytes(io), wc_data_in, h, io);
		return;
	case STEP_WT:
		bytes = wm_streams(h, io) ? h->buf.seg_blk * RS_BLOCK_BYTES : rs_io_bytes(io);
		rs_link_xfer(sim, h->link, RS_DIR_OUT, bytes, wt_data_in, h, io);
		return;
	case STEP_WT_MORE:
		rs_link_xfer(sim, h->link, RS_DIR_OUT, wm_chunk(h, io) * RS_BLOCK_BYTES,
			     wm_data_in, h, io);
		return;
	case STEP_READ_FIRST:
		last_burst(h, io, &bytes, &last);
		rs_link_xfer(sim, h->link, RS_DIR_IN, bytes - last, read_first_done, h, io);
		return;
	case STEP_READ_LAST:
		last_burst(h, io, &bytes, &last);
		rs_link_xfer(sim, h->link, RS_DIR_IN, last, xfer_complete, h, io);
		return;
	}
	RS_UNREACHABLE();
}

static void data_opened(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)status; /* a dead link fails the data transfer that follows */
	struct rs_io *io = arg;
	data_go(sim, obj, io, (enum data_step)cmd_of(obj, io)->step);
}

static void data_serviced(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	if (h->proto->data_exchanges)
		rs_link_xfer(sim, h->link, RS_DIR_IN, 0, data_opened, h, io);
	else
		data_go(sim, h, io, (enum data_step)cmd_of(h, io)->step);
}

static void data_phase(struct rs_sim *sim, struct hdd *h, struct rs_io *io, enum data_step step)
{
	if (!h->proto) {
		data_go(sim, h, io, step);
		return;
	}
	struct rs_hdd_cmd *c = cmd_of(h, io);
	/* A command that kept the bus (see keep_bus) moves its data with no
	 * handshake. */
	if (c->kept_bus) {
		data_go(sim, h, io, step);
		return;
	}
	c->step = (uint8_t)step;
	if (h->proto->host_service && h->host_service_ns > 0)
		rs_sched(sim, h->host_service_ns, data_serviced, h, io);
	else
		data_serviced(sim, h, io);
}

/* ---- completion -------------------------------------------------------- */

static void complete_cmd(struct rs_sim *sim, struct hdd *h, struct rs_io *io, int status)
{
	rs_hdd_sched_drop(&h->sched, io);
	rs_ioq_release(&h->port);
	rs_tavg_add(&h->held, rs_now(sim), -1);
	pump(sim, h);
	rs_dev_complete(sim, h->dev, io, status);
}

static void fail_later(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	complete_cmd(sim, h, io, io->status ? io->status : -RS_ERR_ERANGE);
}

static void completed_later(struct rs_sim *sim, void *obj, void *arg)
{
	complete_cmd(sim, obj, arg, 0);
}

/* A read or write whose work is done reports it after the firmware's
 * completion overhead; the head is already free for other work. */
static void finish_cmd(struct rs_sim *sim, struct hdd *h, struct rs_io *io, int status)
{
	rs_time_t t = io->op == RS_READ ? h->p.completion_read_ns
		: io->op == RS_WRITE ? h->p.completion_write_ns : 0;
	if (status || t <= 0)
		complete_cmd(sim, h, io, status);
	else
		rs_sched(sim, t, completed_later, h, io);
}

/* read_drop_request: a read's blocks leave the buffer once delivered, and
 * only what was read ahead after them stays -- in the stream's segment too,
 * whose data below the stream's reach the lookup takes from s_valid_from. */
static void drop_delivered(struct hdd *h, const struct rs_io *io)
{
	uint64_t end = io->lba + io->nblk;
	struct rs_hdd_mech *m = &h->mech;
	if (h->live_seg >= 0 && m->streaming && io->lba >= m->s_valid_from &&
	    io->lba < m->s_limit) {
		if (end > m->s_valid_from) {
			m->s_valid_from = end;
			h->buf.seg[h->live_seg].start = end;
		}
		return;
	}
	rs_hdd_buffer_drop_through(&h->buf, io->lba, end, h->live_seg);
}

static void xfer_complete(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	if (h->p.read_drop_request && status == 0 && io->op == RS_READ)
		drop_delivered(h, io);
	finish_cmd(sim, h, io, status);
}

/* ---- buffer hits, cached writes, flushes (firmware + interface) ------- */

static void hit_fw_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	data_phase(sim, h, io, STEP_HIT);
}

static bool clean(const struct hdd *h)
{
	return rs_hdd_wcache_clean(&h->wc, &h->buf);
}

static void check_flushes(struct rs_sim *sim, struct hdd *h)
{
	if (!clean(h))
		return;
	struct rs_io *io;
	while ((io = rs_io_fifo_pop(&h->flush_head, &h->flush_tail)))
		complete_cmd(sim, h, io, 0);
}

static void flush_fw_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	if (clean(h)) {
		complete_cmd(sim, h, io, 0);
		return;
	}
	rs_io_fifo_push(&h->flush_head, &h->flush_tail, io);
	kick(sim, h);
}

static void wc_data_in(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	h->wc.reserved_blk -= io->nblk;
	if (status == 0) {
		rs_hdd_buffer_dirty_add(&h->buf, io->lba, io->nblk, rs_now(sim));
		h->c.cached_writes++;
	}
	finish_cmd(sim, h, io, status);
	kick(sim, h);
	check_flushes(sim, h);
}

static void wc_fw_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	data_phase(sim, h, io, STEP_WC);
}

static void admit_write(struct rs_sim *sim, struct hdd *h, struct rs_io *io)
{
	h->wc.reserved_blk += io->nblk;
	/* Its data moves once the command overhead and the data preparation
	 * are done. */
	rs_server_submit(sim, &h->fw, h->sched.overhead_ns[1] + h->p.data_prep_ns, wc_fw_done,
			 h, io);
}

static void admit_stalled(struct rs_sim *sim, struct hdd *h)
{
	struct rs_io *io;
	while ((io = rs_hdd_wcache_unstall(&h->wc, &h->buf)))
		admit_write(sim, h, io);
}

/* ---- the head ---------------------------------------------------------- */


/* The stream has stopped with its valid data ending at end: its segment
 * keeps what was read. */
static inline __attribute__((always_inline)) void stopped(struct hdd *h, uint64_t end)
{
	uint64_t from = h->mech.s_valid_from;
	if (h->live_seg >= 0)
		rs_hdd_buffer_set(&h->buf, (uint32_t)h->live_seg, from < end ? from : end, end);
	h->live_seg = -1;
}

/* Finish the stream before other work: its segment keeps what was read.
 * Inline: every command that does not continue the stream stops it. */
static inline __attribute__((always_inline)) void stop_stream(struct rs_sim *sim, struct hdd *h)
{
	if (!h->mech.streaming)
		return;
	stopped(h, rs_hdd_mech_stop(&h->mech, rs_now(sim)));
}
/* The same for the access pos has just positioned: the stop it worked out. */
static inline __attribute__((always_inline)) void stop_stream_for(struct rs_sim *sim,
								  struct hdd *h,
								  const struct rs_hdd_pos *pos)
{
	if (!h->mech.streaming)
		return;
	stopped(h, rs_hdd_mech_stop_positioned(&h->mech, rs_now(sim), pos));
}

static void park_after(struct hdd *h, uint64_t last_lba, rs_time_t free_at)
{
	struct rs_phys p;
	rs_layout_lba_to_phys(&h->g.layout, last_lba, &p);
	h->mech.head = (struct rs_head_state){ p.cyl, p.head, free_at };
}

/* exact: actual is the prediction itself (rs_hdd_sched_position), which
 * cannot mismatch. */
static void check_prediction(struct hdd *h, const struct rs_hdd_pos *actual, bool exact)
{
	const struct rs_hdd_pos *pr = &h->sched.predicted;
	if (!exact && (pr->cont != actual->cont || pr->start_ns != actual->start_ns ||
		       pr->pos.total_ns != actual->pos.total_ns ||
		       pr->pos.seek_ns != actual->pos.seek_ns))
		h->c.mismatches++;
	h->c.positioning_ns += actual->pos.total_ns;
}

static void head_start(struct rs_sim *sim, struct hdd *h)
{
	h->busy = true;
	rs_tavg_add(&h->head_busy, rs_now(sim), 1);
}

static void head_stop(struct rs_sim *sim, struct hdd *h)
{
	h->busy = false;
	rs_tavg_add(&h->head_busy, rs_now(sim), -1);
}

static void read_try_finish(struct rs_sim *sim, struct hdd *h, struct rs_io *io)
{
	struct rs_hdd_cmd *c = cmd_of(h, io);
	if ((c->read & (READ_MEDIA_DONE | READ_FIRST_DONE)) !=
	    (READ_MEDIA_DONE | READ_FIRST_DONE) || (c->read & READ_LAST_GOING))
		return;
	c->read |= READ_LAST_GOING;
	if (c->read & READ_OPENED)
		data_go(sim, h, io, STEP_READ_LAST);
	else
		data_phase(sim, h, io, STEP_READ_LAST);
}

static void read_first_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_io *io = arg;
	cmd_of(obj, io)->read |= READ_FIRST_DONE;
	read_try_finish(sim, obj, io);
}

/* All bursts but the last may go as soon as the media delivers (the
 * interface is never slower than the drive would let it be by much, and
 * the buffer absorbs the difference); the last burst waits for the media. */
static void read_first_go(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	cmd_of(h, io)->read |= READ_OPENED;
	data_phase(sim, h, io, STEP_READ_FIRST);
}

/* When the streaming write's media access ends, as its data stands now. */
static rs_time_t wm_media_end(const struct hdd *h, const struct rs_io *io)
{
	return h->wm_t0 + rs_disk_media_time(&h->g.layout, &h->g.seek, &h->g.spindle, io->lba,
					     io->nblk, 1);
}

static void write_reselected(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	if (h->xd_io == arg)
		h->xd_io = NULL;
	finish_cmd(sim, h, arg, 0);
}

/* A write on the media has let the bus go; it wins it back for its
 * completion once it has finished letting it go (DiskSim's disconnect
 * overheads), after the reselection. */
static void write_reconnect(struct rs_sim *sim, struct hdd *h, struct rs_io *io)
{
	rs_time_t now = rs_now(sim);
	rs_time_t t = h->wt_disc_end > now ? h->wt_disc_end - now : 0;
	t += io == h->xd_io ? h->p.reselect_extra_ns : h->p.reselect_ns;
	rs_sched(sim, t, write_reselected, h, io);
}

/* A one-burst read's data goes once the drive has reconnected. */
static void read_reconnected(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_io *io = arg;
	cmd_of(obj, io)->read |= READ_FIRST_DONE;
	read_try_finish(sim, obj, io);
}

static void media_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	if (io == h->wm_io) {
		/* The media went as far as the data allowed; it ends once the
		 * last of it is in and written. */
		if (h->wm_in < io->nblk) {
			h->wm_media_waits = true;
			return;
		}
		rs_time_t end = wm_media_end(h, io);
		if (end > rs_now(sim)) {
			rs_sched_at(sim, end, media_done, h, io);
			return;
		}
		/* Slips kept the head on the write's last track past the end
		 * planned at its start. */
		park_after(h, io->lba + io->nblk - 1, rs_now(sim));
		h->wm_io = NULL;
	}
	head_stop(sim, h);
	rs_ioq_release(&h->mq);
	if (io->op == RS_READ) {
		cmd_of(h, io)->read |= READ_MEDIA_DONE;
		read_try_finish(sim, h, io);
	} else {
		RS_ASSERT(h->wt_active > 0);
		h->wt_active--;
		int status = 0;
		if (wm_streams(h, io)) {
			status = h->wm_status;
			h->wm_status = 0;
		}
		if (h->scsi && status == 0) {
			write_reconnect(sim, h, io);
		} else {
			if (io == h->xd_io)
				h->xd_io = NULL;
			finish_cmd(sim, h, io, status);
		}
	}
	kick(sim, h);
}

/* Read any free blocks: what of the read's track passed under the head
 * while it waited for the first sector, as far as the segment has room. */
static uint64_t free_behind(const struct hdd *h, uint64_t lba, uint64_t limit,
			    const struct rs_hdd_pos *pos, struct rs_hdd_fw_at *at)
{
	if (!h->fwr.read_any_free || pos->pos.rot_ns <= 0 || limit - lba >= h->buf.seg_blk)
		return 0;
	double period_ns = rs_spindle_period_ns(&h->g.spindle);
	uint64_t room = h->buf.seg_blk - (limit - lba);
	if (at)
		return rs_hdd_fw_free_behind_at(&h->g.layout, period_ns, at, pos->pos.rot_ns, room);
	return rs_hdd_fw_free_behind(&h->g.layout, period_ns, lba, pos->pos.rot_ns, room);
}

/* When a read's data may start over the interface: as the media delivers
 * its first block, or, with a water mark, once that share of the read (at
 * most a segment, at least a block) is in the buffer.  The stream is set
 * up for the read, from its first block or before. */
static rs_time_t read_data_start(const struct hdd *h, const struct rs_io *io, rs_time_t start)
{
	if (h->p.read_watermark <= 0)
		return start;
	uint64_t k = (uint64_t)((double)min_u64(h->buf.seg_blk, io->nblk) * h->p.read_watermark);
	uint64_t at = io->lba + (k ? k : 1);
	const struct rs_hdd_mech *m = &h->mech;
	rs_time_t t = at > m->s_lba
		? m->s_t0_ns + rs_hdd_mech_media_time(m, m->s_lba, at - m->s_lba)
		: m->s_t0_ns;
	return t > start ? t : start;
}

static void start_host(struct rs_sim *sim, struct hdd *h)
{
	rs_time_t now = rs_now(sim);
	struct rs_io *io = rs_ioq_dispatch(sim, &h->mq);
	RS_ASSERT(io != NULL);
	bool w = io->op == RS_WRITE;
	/* The pick's positioning where it lies, or a fresh one in scratch. */
	struct rs_hdd_pos scratch;
	const struct rs_hdd_pos *pos = rs_hdd_sched_position_at(&h->sched, now, io, &scratch);
	if (io == h->xd_io)
		h->sched.overhead_ns[1] = h->xd_saved_ovh;
	check_prediction(h, pos, pos != &scratch);
	h->c.media_ops++;
	io->t_issue = now;
	head_start(sim, h);
	uint64_t end = io->lba + io->nblk;
	rs_time_t media_end;
	if (pos->cont) {
		h->c.stream_reads++;
		rs_hdd_mech_rebase(&h->mech, now, io->lba);
		uint64_t limit = rs_hdd_fw_ra_limit(&h->fwr, &h->g.layout, h->mech.s_valid_from,
						    io->lba, io->nblk, h->cap_blk, h->buf.seg_blk);
		if (limit > h->mech.s_limit)
			rs_hdd_mech_set_limit(&h->mech, limit);
		media_end = end > h->mech.s_lba
			? h->mech.s_t0_ns + rs_hdd_mech_media_time(&h->mech, h->mech.s_lba,
								   end - h->mech.s_lba)
			: pos->start_ns;
		if (media_end < pos->start_ns)
			media_end = pos->start_ns;
		if (h->live_seg >= 0)
			rs_hdd_buffer_touch(&h->buf, (uint32_t)h->live_seg);
	} else {
		stop_stream_for(sim, h, pos);
		/* The run the positioning has just mapped: the media time, and a
		 * read's firmware rules and stream, start from it. */
		const struct rs_track_run *run = rs_hdd_mech_run_of_pos(&h->mech, pos, io->lba);
		media_end = pos->start_ns + rs_hdd_mech_media_time_run(&h->mech, run, io->lba,
								      io->nblk);
		if (w) {
			park_after(h, end - 1, media_end);
			if (wm_streams(h, io)) {
				RS_ASSERT(h->wm_io == NULL);
				h->wm_io = io;
				h->wm_in = h->buf.seg_blk;
				h->wm_t0 = pos->start_ns;
				h->wm_media_waits = false;
				wm_next(sim, h, io);
			}
		} else {
			struct rs_hdd_mech *m = &h->mech;
			/* The firmware's rules look at the track of the read's
			 * first block. */
			struct rs_hdd_fw_at at;
			uint64_t limit;
			if (run) {
				rs_hdd_fw_at_init(&at, run);
				limit = rs_hdd_fw_ra_limit_at(&h->fwr, &h->g.layout, &at, io->lba,
							      io->nblk, h->cap_blk, h->buf.seg_blk);
			} else {
				limit = rs_hdd_fw_ra_limit(&h->fwr, &h->g.layout, io->lba, io->lba,
							   io->nblk, h->cap_blk, h->buf.seg_blk);
			}
			uint64_t from = io->lba - free_behind(h, io->lba, limit, pos,
							      run ? &at : NULL);
			h->live_seg = (int)rs_hdd_buffer_claim(&h->buf, from);
			m->streaming = true;
			m->s_lba = io->lba;
			m->s_valid_from = from;
			m->s_t0_ns = pos->start_ns;
			rs_hdd_mech_set_limit_run(m, run, limit);  /* s_lba's run */
		}
	}
	if (!w) {
		rs_time_t go = read_data_start(h, io, pos->start_ns > now ? pos->start_ns : now);
		/* Disconnected, the drive reselects once its data is ready and
		 * it has let the bus go, and prepares the data. */
		rs_time_t conn = h->p.reselect_ns + h->p.data_prep_ns;
		if (h->scsi && go < h->rd_disc_end)
			go = h->rd_disc_end;
		if (rs_io_bytes(io) > h->p.interface_burst_bytes) {
			rs_sched_at(sim, h->scsi ? go + conn : go, read_first_go, h, io);
		} else if (h->scsi) {
			rs_time_t ready = media_end > h->rd_disc_end ? media_end : h->rd_disc_end;
			rs_sched_at(sim, ready + conn, read_reconnected, h, io);
		} else {
			cmd_of(h, io)->read |= READ_FIRST_DONE;
		}
	}
	rs_sched_at(sim, media_end, media_done, h, io);
}

static void destage_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	head_stop(sim, h);
	rs_hdd_wcache_piece_done(&h->wc, rs_now(sim));
	admit_stalled(sim, h);
	check_flushes(sim, h);
	kick(sim, h);
}

static rs_time_t media_time(const struct hdd *h, uint64_t lba, uint32_t n)
{
	return rs_disk_media_time(&h->g.layout, &h->g.seek, &h->g.spindle, lba, n, 1);
}

/* Write the next piece: straight on from the sector the last piece ended
 * with (extent `cont`, no positioning), or, when cont < 0, from the start
 * of the extent the destage order picks. */
static void start_destage(struct rs_sim *sim, struct hdd *h, int cont)
{
	rs_time_t now = rs_now(sim);
	rs_time_t end;
	uint32_t n;
	if (cont >= 0) {
		/* Timed as one transfer with the sector already written, so a
		 * track or cylinder switch in between costs what the skew
		 * leaves, exactly as inside any other transfer. */
		uint64_t from = h->wc.stream_at;
		n = rs_hdd_wcache_take(&h->wc, &h->buf, &h->g.layout, (size_t)cont, from);
		end = now + media_time(h, from - 1, n + 1) - media_time(h, from - 1, 1);
		h->c.destage_streamed++;
	} else {
		struct rs_hdd_pos pos;
		size_t i = rs_hdd_wcache_pick(&h->wc, &h->buf, now, &pos);
		const struct rs_hdd_extent *e = &h->buf.ext[i];
		uint64_t from = e->lba;
		rs_hdd_mech_position(&h->mech, now, 0, from, (uint32_t)(e->end - from), 1, &pos);
		h->sched.predicted = h->wc.order.predicted;
		/* The host pick's saved positioning is not this destage's. */
		h->sched.predicted_exact = false;
		check_prediction(h, &pos, false);
		stop_stream(sim, h);
		n = rs_hdd_wcache_take(&h->wc, &h->buf, &h->g.layout, i, from);
		end = pos.start_ns + media_time(h, from, n);
		h->c.destages++;
	}
	h->c.destaged_blk += n;
	head_start(sim, h);
	park_after(h, h->wc.piece_end - 1, end);
	rs_sched_at(sim, end, destage_done, h, NULL);
}

/* Destaging under pressure competes with the host's pick in the
 * scheduler's own order (under SPTF: whichever the head reaches first), so
 * reads near the head are not held behind far-away write-back.  A host
 * command past its aging goes first.  The destage is keyed as the oldest
 * write waiting for room when there is one, since that is what the write
 * waits for, and then ages like it; otherwise its dirty data, which nobody
 * waits for, never ages.  Going straight on with a stream costs no
 * positioning, so every positional order takes it. */
static bool destage_goes_first(struct rs_sim *sim, struct hdd *h, int cont)
{
	rs_time_t now = rs_now(sim);
	struct rs_hdd_pos pos;
	struct rs_hdd_key hk, dk;
	const struct rs_io *io = h->mq.policy->pick(sim, &h->mq, h->mq.policy_ctx);
	bool w = io->op == RS_WRITE;
	struct rs_hdd_cand hc = { io->lba, io->nblk, w, io->at.hdd.arrived,
				  h->sched.overhead_ns[w] };
	rs_hdd_sched_key(&h->sched, now, &hc, &hk, &pos);

	size_t i = cont >= 0 ? (size_t)cont : rs_hdd_wcache_pick(&h->wc, &h->buf, now, &pos);
	const struct rs_hdd_extent *e = &h->buf.ext[i];
	struct rs_hdd_sched s = h->sched;
	rs_time_t arrived = e->born_ns;
	if (h->wc.stall_head)
		arrived = h->wc.stall_head->at.hdd.arrived;
	else
		s.aging_ns = 0;
	uint64_t lba = cont >= 0 ? h->wc.stream_at : e->lba;
	struct rs_hdd_cand dc = { lba, (uint32_t)(e->end - lba), true, arrived, 0 };
	rs_hdd_sched_key(&s, now, &dc, &dk, &pos);
	if (cont >= 0 && s.policy != RS_HDD_FCFS && dk.aged <= hk.aged)
		return true;
	return rs_hdd_key_less(&dk, &hk);
}

static void wake(struct rs_sim *sim, void *obj, void *arg)
{
	struct hdd *h = obj;
	h->wake = RS_NO_EVENT;
	kick(sim, h);
}

/* The head is free (or may be): decide what it does next.  Below the high
 * mark host commands go first and dirty data waits for an idle head; from
 * the mark on, while writes wait for room, or while a flush waits, the
 * destage competes with them (destage_goes_first).  A stream of
 * contiguous dirty data goes on without positioning whenever destaging
 * goes on. */
static void kick_dirty(struct rs_sim *sim, struct hdd *h, bool host);

/* Inline, the choice with dirty data a call (kick_dirty): every command,
 * and every end of a media access, asks, mostly with none. */
static inline __attribute__((always_inline)) void kick(struct rs_sim *sim, struct hdd *h)
{
	if (h->busy)
		return;
	bool host = h->mq.len > 0;
	if (h->buf.next == 0) {
		if (host)
			start_host(sim, h);
		return;
	}
	kick_dirty(sim, h, host);
}

/* kick with dirty data in the buffer; host: commands wait for the head. */
static __attribute__((noinline)) void kick_dirty(struct rs_sim *sim, struct hdd *h, bool host)
{
	rs_time_t now = rs_now(sim);
	int cont = rs_hdd_wcache_continuation(&h->wc, &h->buf, now);
	bool pressed = rs_hdd_wcache_pressed(&h->wc, &h->buf) || h->flush_head;
	if (host) {
		if (pressed && destage_goes_first(sim, h, cont))
			start_destage(sim, h, cont);
		else
			start_host(sim, h);
		return;
	}
	/* Idle destaging waits for read-ahead to finish. */
	if (cont < 0 && !pressed && h->mech.streaming && now < h->mech.s_end_ns) {
		if (!h->wake.ev)
			h->wake = rs_sched_at(sim, h->mech.s_end_ns, wake, h, NULL);
		return;
	}
	start_destage(sim, h, cont);
}

/* ---- the write water mark ---------------------------------------------- */

static void wm_reconnect(struct rs_sim *sim, void *obj, void *arg)
{
	data_phase(sim, obj, arg, STEP_WT_MORE);
}

/* Reconnect for more once the media has drained the segment to the mark. */
static void wm_next(struct rs_sim *sim, struct hdd *h, struct rs_io *io)
{
	uint64_t mark = (uint64_t)((double)h->buf.seg_blk * h->p.write_watermark);
	rs_time_t t = rs_now(sim);
	if (h->wm_in > mark) {
		rs_time_t drained = h->wm_t0 + media_time(h, io->lba, (uint32_t)(h->wm_in - mark));
		if (drained > t)
			t = drained;
	}
	/* A disconnecting drive let the bus go after the last data and
	 * reselects and prepares before more comes. */
	if (h->scsi) {
		rs_time_t free_at = rs_now(sim) + h->p.disconnect_write_ns;
		t = (t > free_at ? t : free_at) + h->p.reselect_ns + h->p.data_prep_ns;
	}
	rs_sched_at(sim, t, wm_reconnect, h, io);
}

/* More of the streaming write's data is in.  Had the media already needed
 * its first block, the access slips by whole revolutions to meet it. */
static void wm_data_in(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	rs_time_t now = rs_now(sim);
	if (status && !h->wm_status)
		h->wm_status = status; /* the write fails at its end */
	uint64_t first = h->wm_in;
	h->wm_in += wm_chunk(h, io);
	rs_time_t need = h->wm_t0 + (first ? media_time(h, io->lba, (uint32_t)first) : 0);
	if (need < now) {
		rs_time_t rev = rs_spindle_period_ns(&h->g.spindle);
		rs_time_t late = now - need;
		h->wm_t0 += rev > 0 ? (late + rev - 1) / rev * rev : late;
		h->c.wm_slips++;
	}
	if (h->wm_in < io->nblk) {
		wm_next(sim, h, io);
	} else if (h->wm_media_waits) {
		h->wm_media_waits = false;
		rs_time_t end = wm_media_end(h, io);
		rs_sched_at(sim, end > now ? end : now, media_done, h, io);
	}
}

/* ---- commands entering the drive -------------------------------------- */

static void wt_data_in(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct hdd *h = obj;
	struct rs_io *io = arg;
	if (status) {
		if (io == h->xd_io)
			h->xd_io = NULL;
		complete_cmd(sim, h, io, status);
		return;
	}
	io->at.hdd.arrived = rs_now(sim);
	h->wt_disc_end = rs_now(sim) + (io == h->xd_io ? h->p.xdisc_second_ns
					: h->p.disconnect_write_ns);
	if (io == h->xd_io) {
		/* Its command overhead ran before its data came in: its seek
		 * waits only for the seek delta (the scheduler's figure too,
		 * until it starts). */
		rs_time_t now = rs_now(sim);
		h->xd_saved_ovh = h->sched.overhead_ns[1];
		h->sched.overhead_ns[1] = h->xd_seek_at > now ? h->xd_seek_at - now : 0;
	}
	rs_ioq_push(&h->mq, io);
	kick(sim, h);
}

static void wt_go(struct rs_sim *sim, void *obj, void *arg)
{
	data_phase(sim, obj, arg, STEP_WT);
}

/* DiskSim's extra write disconnect: a write after a write that does not
 * continue it, with no other such write in the drive. */
static bool extra_disconnect(const struct hdd *h, const struct rs_io *io)
{
	return h->p.extra_write_disconnect && h->last_write && !h->xd_io &&
	       io->lba != h->last_write_end;
}

/* A write through to the media: its data comes in after the data
 * preparation, or, with an extra disconnect, once the drive has taken the
 * command, let the bus go, waited and reselected. */
static void write_through(struct rs_sim *sim, struct hdd *h, struct rs_io *io, bool xd)
{
	h->wt_end = io->lba + io->nblk;
	h->wt_active++;
	rs_time_t wait = h->p.data_prep_ns;
	if (xd) {
		const struct rs_hdd_params *p = &h->p;
		h->xd_io = io;
		h->xd_seek_at = rs_now(sim) + p->xdisc_command_ns + p->xdisc_seek_delta_ns;
		wait = p->xdisc_command_ns + p->xdisc_first_ns + p->xdisc_gap_ns + p->reselect_ns +
		       p->data_prep_ns;
	}
	if (wait > 0)
		rs_sched(sim, wait, wt_go, h, io);
	else
		data_phase(sim, h, io, STEP_WT);
}

/* A write makes older copies of its blocks in the read segments stale. */
static void invalidate(struct hdd *h, const struct rs_io *io)
{
	rs_hdd_buffer_invalidate(&h->buf, io->lba, io->nblk, h->live_seg);
	uint64_t end = io->lba + io->nblk;
	struct rs_hdd_mech *m = &h->mech;
	if (h->live_seg >= 0 && m->streaming && io->lba < m->s_limit && end > m->s_valid_from) {
		/* The stream's copy below the write's end is stale. */
		m->s_valid_from = end;
		h->buf.seg[h->live_seg].start = end;
	}
}

/* Read-ahead on an idle hit: when a read is served from the buffer while
 * the head has nothing to do (no command waiting, no read-ahead running),
 * the drive goes on reading after the data of the hit's segment, as far as
 * read-ahead after a miss of the same read would have gone.  The head
 * positions from where it is; the stream is lazy as any other. */
static void idle_hit_read_ahead(struct rs_sim *sim, struct hdd *h, uint32_t seg,
				const struct rs_io *io)
{
	rs_time_t now = rs_now(sim);
	struct rs_hdd_mech *m = &h->mech;
	if (h->busy || h->mq.len > 0 || (m->streaming && now < m->s_end_ns))
		return;
	stop_stream(sim, h);
	const struct rs_hdd_seg *s = &h->buf.seg[seg];
	uint64_t from = s->end;
	uint64_t limit = rs_hdd_fw_ra_limit(&h->fwr, &h->g.layout, s->start, io->lba, io->nblk,
					    h->cap_blk, h->buf.seg_blk);
	if (limit <= from)
		return;
	struct rs_hdd_pos pos;
	rs_hdd_mech_position(m, now, 0, from, (uint32_t)(limit - from), false, &pos);
	h->live_seg = (int)seg;
	m->streaming = true;
	m->s_lba = from;
	m->s_valid_from = s->start;
	m->s_t0_ns = pos.start_ns;
	rs_hdd_mech_set_limit(m, limit);
}

/* Whether the buffer takes this write early.  With write_cache_appends_only
 * (DiskSim's fast write level 1) only a write that continues write data
 * still in the buffer (cached, or on its way to the media) does: a
 * sequential stream is acknowledged from the buffer, a write elsewhere
 * waits for the media.  At one command at a time nothing is left to
 * continue, so level 1 then writes through, as DiskSim's does. */
static bool write_is_cached(const struct hdd *h, const struct rs_io *io)
{
	/* A FUA write goes to the media before it completes. */
	if (!h->p.write_cache || io->fua || io->nblk > h->wc.cap_blk)
		return false;
	if (!h->p.write_cache_appends_only)
		return true;
	if (h->wt_active && io->lba == h->wt_end)
		return true;
	return io->lba > 0 && rs_hdd_buffer_dirty_covers(&h->buf, io->lba - 1, 1);
}

/* Overheads that depend on the previous command: set for this one.  They
 * depend on nothing else, so a command after one of the same kind (every
 * read of a read-only load) finds them set, unless the write overhead has
 * been moved since. */
static void note_command(struct hdd *h, const struct rs_io *io, bool cached)
{
	const struct rs_hdd_fw *f = &h->fwr;
	bool pw = h->prev_write;
	uint8_t key = (uint8_t)(1 + 2 * pw + cached);
	h->prev_write = io->op == RS_WRITE;
	if (h->noted == key && h->sched.overhead_ns[1] == h->noted_write_ns)
		return;
	h->noted = key;
	h->ovh_hit = f->ovh[RS_CMD_READ_HIT][pw] + h->queued_ns + h->p.data_prep_ns;
	h->sched.overhead_ns[0] = f->ovh[RS_CMD_READ_MISS][pw] + h->queued_ns;
	h->noted_write_ns = h->sched.overhead_ns[1] =
		f->ovh[cached ? RS_CMD_WRITE_HIT : RS_CMD_WRITE_MISS][pw] + h->queued_ns;
}

/* ---- bus release by need (tcq_release: when-needed) ---------------------
 *
 * The drive decides when it has looked at the command: one it can serve
 * at once keeps the bus, any other releases it (one exchange on the link,
 * as the release after every command costs under tcq_release: always). */
static bool releases_by_need(const struct hdd *h)
{
	return h->proto && h->proto->accept_exchanges && h->release_when_needed;
}

static void keep_bus(const struct hdd *h, struct rs_io *io)
{
	if (releases_by_need(h))
		cmd_of(h, io)->kept_bus = true;
}

static void bus_released(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)sim, (void)obj, (void)arg;
	(void)status; /* a dead link fails the command's own transfers */
}

static void release_bus(struct rs_sim *sim, struct hdd *h)
{
	if (releases_by_need(h))
		rs_link_xfer(sim, h->link, RS_DIR_IN, 0, bus_released, h, NULL);
}

static void accept(struct rs_sim *sim, struct hdd *h, struct rs_io *io)
{
	rs_time_t now = rs_now(sim);
	/* Decided once, before the write invalidates what it covers. */
	bool cached = io->op == RS_WRITE ? write_is_cached(h, io) : h->p.write_cache;
	bool xd = io->op == RS_WRITE && !cached && extra_disconnect(h, io);
	bool pw = h->last_write;
	if (io->op != RS_FLUSH) {
		h->last_write = io->op == RS_WRITE;
		if (h->last_write)
			h->last_write_end = io->lba + io->nblk;
	}
	if (h->fwr.by_previous && io->op != RS_FLUSH)
		note_command(h, io, cached);
	rs_hdd_sched_hold(&h->sched, io);
	io->at.hdd.arrived = now;
	if (io->op != RS_FLUSH && (io->nblk == 0 || io->lba + io->nblk > h->cap_blk)) {
		io->status = -RS_ERR_ERANGE;
		rs_sched(sim, 0, fail_later, h, io);
		return;
	}
	switch (io->op) {
	case RS_READ: {
		/* Where the stream has got to matters only to a read that lies
		 * inside the live segment's reach; for any other the lookup skips
		 * that segment either way (live_end 0), and working the stream
		 * out would cost a search per command. */
		uint64_t live_end = 0;
		if (h->live_seg >= 0 && h->mech.streaming &&
		    io->lba >= h->buf.seg[h->live_seg].start &&
		    io->lba + io->nblk <= h->mech.s_limit)
			live_end = h->mech.s_lba + rs_hdd_mech_stream_done(&h->mech, now);
		int seg = rs_hdd_buffer_lookup(&h->buf, io->lba, io->nblk, h->live_seg, live_end);
		if (seg >= 0 || (h->p.read_hits_on_write_data &&
				 rs_hdd_buffer_dirty_covers(&h->buf, io->lba, io->nblk))) {
			if (seg >= 0) {
				rs_hdd_buffer_touch(&h->buf, (uint32_t)seg);
				if (h->p.read_ahead_on_idle_hit)
					idle_hit_read_ahead(sim, h, (uint32_t)seg, io);
			}
			h->c.hits++;
			keep_bus(h, io);
			rs_server_submit(sim, &h->fw, h->ovh_hit, hit_fw_done, h, io);
			return;
		}
		h->c.misses++;
		release_bus(sim, h);
		h->rd_disc_end = now + h->sched.overhead_ns[0] + h->p.disconnect_read_ns[pw];
		rs_ioq_push(&h->mq, io);
		kick(sim, h);
		return;
	}
	case RS_WRITE: {
		invalidate(h, io);
		if (cached) {
			if (h->wc.stall_head || !rs_hdd_wcache_room(&h->wc, &h->buf, io->nblk)) {
				h->c.stalls++;
				release_bus(sim, h);
				rs_hdd_wcache_stall(&h->wc, io);
				kick(sim, h);
				return;
			}
			keep_bus(h, io);
			admit_write(sim, h, io);
			return;
		}
		release_bus(sim, h);
		write_through(sim, h, io, xd);
		return;
	}
	case RS_FLUSH:
		release_bus(sim, h);
		rs_server_submit(sim, &h->fw, h->sched.overhead_ns[1], flush_fw_done, h, io);
		return;
	default:
		RS_UNREACHABLE();
	}
}

static void accepted(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)status; /* a dead link fails the command's own transfers */
	accept(sim, obj, arg);
}

/* Take the commands the tags allow.  Under a queuing protocol that
 * releases the bus after a command (legacy TCQ, SCSI disconnect), that
 * exchange comes first -- unless the drive releases only by need, when
 * accept() decides it. */
static void pump(struct rs_sim *sim, struct hdd *h)
{
	struct rs_io *io;
	while ((io = rs_ioq_dispatch(sim, &h->port))) {
		rs_tavg_add(&h->held, rs_now(sim), 1);
		if (h->port.busy > h->held_max)
			h->held_max = h->port.busy;
		if (h->proto && h->proto->accept_exchanges && !h->release_when_needed)
			rs_link_xfer(sim, h->link, RS_DIR_IN, 0, accepted, h, io);
		else
			accept(sim, h, io);
	}
}

static void hdd_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct hdd *h = dev->priv;
	rs_ioq_push(&h->port, io);
	pump(sim, h);
}

/* ---- build ------------------------------------------------------------- */

static uint32_t name_hash(const char *s)
{
	uint32_t x = 2166136261u;
	for (; *s; s++)
		x = (x ^ (uint8_t)*s) * 16777619u;
	return x;
}

static int hdd_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct rs_hdd_params *p = params;
	double phase;
	if (rs_node_get(node, "spindle_phase")) {
		phase = p->spindle_phase >= 1.0 ? 0.0 : p->spindle_phase;
	} else {
		/* Drives of an array must not turn in lock-step; the phase comes
		 * from the seeded stream, per device name, so runs repeat. */
		phase = gsl_rng_uniform(rs_sim_rng(sim, "spindle", name_hash(dev->name)));
	}
	if (p->write_cache && p->write_cache_bytes > p->cache_bytes)
		return rs_diag_node(d, rs_node_get_or(node, "write_cache_size"),
				    "write_cache_size is larger than cache_size");
	if (p->cache_bytes / p->segments < RS_BLOCK_BYTES)
		return rs_diag_node(d, rs_node_get_or(node, "segments"),
				    "%llu segments leave less than a block each in a %llu-byte "
				    "cache", (unsigned long long)p->segments,
				    (unsigned long long)p->cache_bytes);
	/* Aligned as its type asks (the mechanism's memo is in cache lines). */
	size_t hsize = (sizeof(struct hdd) + _Alignof(struct hdd) - 1) / _Alignof(struct hdd) *
		_Alignof(struct hdd);
	struct hdd *h = aligned_alloc(_Alignof(struct hdd), hsize);
	RS_ASSERT(h != NULL);
	memset(h, 0, hsize);
	dev->priv = h;
	h->dev = dev;
	h->p = *p;
	if (rs_hdd_geom_build(&h->g, p, node, phase, d))
		return -1;
	rs_time_t now = rs_now(sim);
	h->cap_blk = rs_layout_capacity_blk(&h->g.layout);
	dev->capacity_blk = h->cap_blk;
	uint64_t seg_blk = p->cache_bytes / p->segments / RS_BLOCK_BYTES;
	h->ra_blk = min_u64(p->read_ahead_bytes / RS_BLOCK_BYTES, seg_blk);
	if (rs_hdd_fw_init(&h->fwr, p, h->ra_blk, node, d))
		return -1;
	rs_hdd_wcache_init(&h->wc, p, &h->mech);
	rs_hdd_buffer_init(&h->buf, (uint32_t)p->segments, seg_blk, h->wc.cap_blk + 1);
	h->live_seg = -1;
	rs_time_t q = p->queue_depth > 1 ? p->queued_overhead_ns : 0;
	h->queued_ns = q;
	h->sched = (struct rs_hdd_sched){
		.policy = p->scheduler,
		.aging_ns = p->aging_ns,
		.mech = &h->mech,
		.overhead_ns = { p->overhead_read_ns + q, p->overhead_write_ns + q },
	};
	/* The port's tags bound the commands in the drive, hence in mq. */
	h->sched.window = (uint32_t)p->reorder_window;
	rs_hdd_sched_init_cmds(&h->sched, (uint32_t)p->queue_depth);
	h->proto = p->queue_depth > 1 && p->protocol != RS_PROTO_IDEAL
		? rs_hdd_protocol_costs(p->protocol) : NULL;
	h->host_service_ns = p->host_service_ns;
	h->release_when_needed = p->tcq_release == RS_TCQ_RELEASE_WHEN_NEEDED;
	rs_tavg_init(&h->held, now, 0);
	h->ovh_hit = p->overhead_hit_ns + q + p->data_prep_ns;
	h->scsi = p->data_prep_ns || p->reselect_ns || p->reselect_extra_ns ||
		  p->disconnect_read_ns[0] || p->disconnect_read_ns[1] ||
		  p->disconnect_write_ns || p->extra_write_disconnect;
	h->mech = (struct rs_hdd_mech){
		.l = &h->g.layout, .s = &h->g.seek, .sp = &h->g.spindle,
		.stop_on_command = p->read_ahead_stop_on_command,
		.finish_sector = !p->read_ahead_stop_in_sector,
		.head = { 0, 0, now },
	};
	double rate = p->interface_block_ns > 0
		? RS_BLOCK_BYTES * 1e9 / (double)p->interface_block_ns : p->interface_rate_bytes_s;
	struct rs_link_params lp = { rate, p->interface_overhead_ns,
				     p->interface_burst_bytes, false };
	rs_link_init(&h->link_own, dev->name, &lp, now);
	if (p->interface_block_write_ns > 0)
		rs_link_set_rate_out(&h->link_own,
				     RS_BLOCK_BYTES * 1e9 / (double)p->interface_block_write_ns);
	h->link = &h->link_own;
	rs_server_init(&h->fw, dev->name, 1, now);
	rs_ioq_init(&h->port, (uint32_t)p->queue_depth, &rs_ioq_fifo, NULL);
	rs_ioq_init(&h->mq, 0, rs_hdd_sched_policy(p->scheduler), &h->sched);
	rs_tavg_init(&h->head_busy, now, 0);
	return 0;
}

static void hdd_restart(struct rs_dev *dev, rs_time_t now)
{
	struct hdd *h = dev->priv;
	rs_tavg_restart(&h->head_busy, now);
	rs_tavg_restart(&h->held, now);
	h->held_max = h->port.busy;
	rs_link_restart_stats(h->link, now);
	rs_server_restart_stats(&h->fw, now);
}

static void hdd_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct hdd *h = dev->priv;
	r->utilisation = rs_tavg_mean(&h->head_busy, now);
	r->drive_qd = rs_tavg_mean(&h->held, now);
	r->drive_qd_max = h->held_max;
	r->drives = 1;
}

static void hdd_destroy(struct rs_dev *dev)
{
	struct hdd *h = dev->priv;
	if (!h)
		return;
	rs_hdd_geom_destroy(&h->g);
	rs_hdd_buffer_destroy(&h->buf);
	rs_hdd_sched_destroy(&h->sched);
	free(h);
	dev->priv = NULL;
}

const struct rs_hdd_counters *rs_hdd_counters(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	return &((const struct hdd *)dev->priv)->c;
}

const struct rs_hdd_geom *rs_hdd_geom(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	return &((const struct hdd *)dev->priv)->g;
}

struct rs_link *rs_hdd_link(struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	return ((struct hdd *)dev->priv)->link;
}

rs_time_t rs_hdd_positioning_estimate(const struct rs_dev *dev, uint64_t lba, uint32_t nblk,
				      bool is_write, rs_time_t now)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	const struct hdd *h = dev->priv;
	struct rs_hdd_pos pos;
	int w = is_write ? 1 : 0;
	return rs_hdd_mech_position(&h->mech, now, h->sched.overhead_ns[w], lba, nblk, w, &pos) -
	       now;
}

/* The head's last media event by `now`, where DiskSim's drive last
 * updated the rotational state its driver reads: the end of the last
 * sector a streaming head has read, or when a parked head stopped. */
static rs_time_t last_media_event(const struct hdd *h, rs_time_t now)
{
	const struct rs_hdd_mech *m = &h->mech;
	if (!m->streaming)
		return m->head.free_at_ns < now ? m->head.free_at_ns : now;
	uint64_t done = rs_hdd_mech_stream_done(m, now);
	if (done == 0)
		return now;
	return m->s_t0_ns + rs_disk_media_time(&h->g.layout, &h->g.seek, &h->g.spindle, m->s_lba,
					       (uint32_t)done, 0);
}

rs_time_t rs_hdd_positioning_estimate_host(const struct rs_dev *dev, uint64_t lba,
					   uint32_t nblk, bool is_write, rs_time_t now)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	const struct hdd *h = dev->priv;
	struct rs_hdd_pos pos;
	int w = is_write ? 1 : 0;
	rs_time_t t0 = last_media_event(h, now);
	return rs_hdd_mech_position(&h->mech, t0, 0, lba, nblk, w, &pos) - t0;
}

/* Behind a controller: its driver answers service requests, and the drive
 * moves its data over the controller's link, as it leaves the media,
 * instead of its own; on a shared bus the drive's own interface is the
 * slower part of the path (DiskSim's rule), so the bus goes at its rate. */
static bool hdd_attach(struct rs_dev *dev, const struct rs_dev_attach *at)
{
	RS_ASSERT(dev->type == &rs_dev_hdd);
	struct hdd *h = dev->priv;
	if (at->host_service)
		h->host_service_ns = at->host_service_ns;
	if (!at->link)
		return false;
	if (at->shared_bus) {
		if (h->link->p.rate_bytes_s < at->link->p.rate_bytes_s)
			rs_link_set_rate(at->link, h->link->p.rate_bytes_s);
		rs_link_add_priority(at->link, h, -1, at->bus_rank);
	}
	h->link = at->link;
	return true;
}

static rs_time_t hdd_positioning(const struct rs_dev *dev, uint64_t lba, uint32_t nblk,
				 bool is_write, rs_time_t now, bool host)
{
	return host ? rs_hdd_positioning_estimate_host(dev, lba, nblk, is_write, now) :
		      rs_hdd_positioning_estimate(dev, lba, nblk, is_write, now);
}

/* The firmware processor; the interface link is listed by whoever owns
 * it (a controller's channel, or nobody for a bare drive). */
static void hdd_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			   struct rs_components *out)
{
	const struct hdd *h = dev->priv;
	rs_components_add_server(out, name, "fw", &h->fw, now);
}

const struct rs_dev_type rs_dev_hdd = {
	.name = "hdd",
	.help = "mechanical hard disk: zoned layout, seek curve, rotation, segmented "
		"buffer with read-ahead and write cache, TCQ/NCQ scheduling",
	.opts = rs_hdd_opts,
	.params_size = sizeof(struct rs_hdd_params),
	.init = hdd_init,
	.submit = hdd_submit,
	.restart_stats = hdd_restart,
	.report = hdd_report,
	.components = hdd_components,
	.destroy = hdd_destroy,
	.attach = hdd_attach,
	.positioning = hdd_positioning,
};
