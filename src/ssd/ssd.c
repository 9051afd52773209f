#include "ssd/ssd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "dev/bus.h"
#include "dev/build.h"
#include "kernel/assert.h"
#include "ssd/ssd_priv.h"

/* ---- completion -------------------------------------------------------- */

static void accept(struct rs_sim *sim, struct ssd *s, struct rs_io *io);

/* Commands beyond queue_depth wait on the host side until a tag is free. */
static void pump(struct rs_sim *sim, struct ssd *s)
{
	struct rs_io *io;
	while ((io = rs_ioq_dispatch(sim, &s->port))) {
		rs_tavg_add(&s->held, rs_now(sim), 1);
		if (s->port.busy > s->held_max)
			s->held_max = s->port.busy;
		accept(sim, s, io);
	}
}

static void interrupt_delivered(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct rs_io *io = arg;
	rs_dev_complete(sim, s->dev, io, io->status);
}

/* The command leaves the drive (its tag is free), and reaches the host
 * after the completion's way out. */
static void complete_cmd(struct rs_sim *sim, struct ssd *s, struct rs_io *io, int status)
{
	rs_ioq_release(&s->port);
	rs_tavg_add(&s->held, rs_now(sim), -1);
	pump(sim, s);
	if (s->p.interrupt_ns > 0) {
		if (status && !io->status)
			io->status = status;
		rs_sched(sim, s->p.interrupt_ns, interrupt_delivered, s, io);
		return;
	}
	rs_dev_complete(sim, s->dev, io, status);
}

static void fail_later(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_io *io = arg;
	complete_cmd(sim, obj, io, io->status);
}

/* ---- reads --------------------------------------------------------------- */

static uint32_t first_unit(const struct rs_io *io)
{
	return (uint32_t)(io->lba / (RS_SSD_UNIT_BYTES / RS_BLOCK_BYTES));
}

static uint32_t end_unit(const struct rs_io *io)
{
	uint64_t per = RS_SSD_UNIT_BYTES / RS_BLOCK_BYTES;
	return (uint32_t)((io->lba + io->nblk + per - 1) / per);
}

/* A read's units go to the host as each arrives (the controller streams
 * them; the link carries one command's data in order, which the model
 * does not enforce).  io->at.ssd.units_left counts the units not yet sent. */
static void unit_sent(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct flash_op *op = arg;
	struct rs_io *io = op->io;
	rs_pool_put(&s->ops, op);
	if (status && !io->status)
		io->status = status;
	RS_ASSERT(io->at.ssd.units_left > 0);
	if (--io->at.ssd.units_left == 0)
		complete_cmd(sim, s, io, io->status);
}

static void unit_through_controller(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct flash_op *op = arg;
	ssd_ctrl_idle(sim, s);
	if (s->has_link)
		rs_link_xfer(sim, s->link, RS_DIR_IN, op->bytes, unit_sent, s, op);
	else
		unit_sent(sim, s, op, 0);
}

static void merge_done(struct rs_sim *sim, struct ssd *s, struct flash_op *op);

void ssd_unit_ready(struct rs_sim *sim, struct ssd *s, struct flash_op *op)
{
	if (!op->io) {
		merge_done(sim, s, op);
		return;
	}
	if (s->ns_per_byte > 0)
		rs_server_submit(sim, &s->ctrl, (rs_time_t)(s->ns_per_byte * op->bytes),
				 unit_through_controller, s, op);
	else
		unit_through_controller(sim, s, op, 0);
}

static uint32_t unit_bytes(const struct rs_io *io, uint32_t u)
{
	uint64_t per = RS_SSD_UNIT_BYTES / RS_BLOCK_BYTES;
	uint64_t a = (uint64_t)u * per, b = a + per, end = io->lba + io->nblk;
	if (a < io->lba)
		a = io->lba;
	if (b > end)
		b = end;
	return (uint32_t)((b - a) * RS_BLOCK_BYTES);
}

static unsigned unmapped_warnings;

unsigned rs_ssd_unmapped_warnings(void) { return unmapped_warnings; }

/* A never-written unit comes back without flash work, which makes a read
 * test of a fresh drive measure nothing but the controller: say so, once
 * per run (per process: a parallel run's workers each say it once). */
static void note_unmapped_read(struct ssd *s)
{
	s->c.units_read_unmapped++;
	if (s->p.state != RS_SSD_FRESH || unmapped_warnings)
		return;
	unmapped_warnings++;
	fprintf(stderr, "raidsim: warning: %s: reads of never-written data on a fresh drive "
		"do no flash work and come out too fast; start it with 'state: full' or "
		"'state: steady' to measure flash reads\n", s->dev->name);
}

static void read_ctrl_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct rs_io *io = arg;
	ssd_ctrl_idle(sim, s);
	/* The extra count held here keeps the read from finishing while its
	 * units are handed out. */
	io->at.ssd.units_left = 1;
	for (uint32_t u = first_unit(io), end = end_unit(io); u < end; u++) {
		uint32_t e = ftl_map_get(&s->ftl, u);
		/* A buffered unit still merging has the rest of its data on
		 * flash: read there (the model does not join the merge's read). */
		if (e != FTL_NONE && (e & FTL_BUF)) {
			uint32_t from = wbuf_merge_from(&s->buf, e & ~FTL_BUF);
			if (from != WBUF_NOT_MERGING)
				e = from;
		}
		struct flash_op *op = rs_pool_get_raw(&s->ops);
		op->io = io;
		op->ppn = e;
		op->bytes = unit_bytes(io, u);
		io->at.ssd.units_left++;
		if (ftl_is_flash(e)) {
			ssd_read_unit(sim, s, op);
			continue;
		}
		if (e == FTL_NONE)
			note_unmapped_read(s);
		else
			s->c.units_read_buffer++;
		ssd_unit_ready(sim, s, op);
	}
	if (--io->at.ssd.units_left == 0)
		complete_cmd(sim, s, io, io->status);
}

/* ---- writes --------------------------------------------------------------- */

/* The map holds whole 4 KiB units.  A write covering only part of a unit
 * whose data is on flash leaves the rest of the unit there: the drive
 * reads the unit and merges it (read-modify-write).  The write is safe
 * once its part is in the power-loss-protected buffer, so it completes
 * as any other; the unit waits for the read before it can be programmed,
 * and later writes to it merge in the buffer.  A unit in the buffer or
 * never written has nothing to read. */
static bool covers_part(const struct rs_io *io, uint32_t u)
{
	uint64_t per = RS_SSD_UNIT_BYTES / RS_BLOCK_BYTES;
	uint64_t a = (uint64_t)u * per;
	return io->lba > a || io->lba + io->nblk < a + per;
}

static void start_merge(struct rs_sim *sim, struct ssd *s, uint32_t ppn, uint32_t slot)
{
	struct flash_op *op = rs_pool_get_raw(&s->ops);
	op->io = NULL;
	op->ppn = ppn;
	op->bytes = RS_SSD_UNIT_BYTES;
	op->slot = slot;
	wbuf_mark_merging(&s->buf, slot, ppn);
	s->c.merge_reads++;
	ssd_read_unit(sim, s, op);
}

static void merge_done(struct rs_sim *sim, struct ssd *s, struct flash_op *op)
{
	wbuf_merged(&s->buf, op->slot);
	rs_pool_put(&s->ops, op);
	ssd_kick_idle(sim, s);
}

/* Put the write's units into the buffer from io->at.ssd.unit on, as far
 * as there is room; true when all are in. */
static bool buffer_units(struct rs_sim *sim, struct ssd *s, struct rs_io *io)
{
	struct ftl *f = &s->ftl;
	uint32_t end = end_unit(io);
	for (uint32_t u = (uint32_t)io->at.ssd.unit; u < end; u++) {
		uint32_t e = ftl_map_get(f, u);
		if (e != FTL_NONE && (e & FTL_BUF)) {
			s->c.coalesced++;
		} else {
			if (wbuf_room(&s->buf) == 0) {
				io->at.ssd.unit = u;
				return false;
			}
			ftl_invalidate(f, u);
			uint32_t slot = wbuf_push(&s->buf, u);
			ftl_map_set(f, u, FTL_BUF | slot);
			s->units_pushed++;
			if (s->p.merge_partial && ftl_is_flash(e) && covers_part(io, u))
				start_merge(sim, s, e, slot);
		}
		s->c.host_units_written++;
	}
	io->at.ssd.unit = end;
	return true;
}

/* ---- flushes and FUA writes ---------------------------------------------- */

/* Units pushed into the buffer before the mark are all on flash.  Programs
 * take the buffer's units in order, but dies finish them in any order: the
 * oldest program still running holds the mark back. */
static uint64_t durable_mark(const struct ssd *s)
{
	uint64_t mark = s->units_taken;
	for (uint32_t i = 0; i < s->fa.ndies; i++) {
		const struct flash_die *die = &s->fa.die[i];
		if (die->batch && !die->batch_gc && die->batch_seq < mark)
			mark = die->batch_seq;
	}
	return mark;
}

void ssd_flush_progress(struct rs_sim *sim, struct ssd *s)
{
	if (!s->flush_head)
		return;
	uint64_t mark = durable_mark(s);
	while (s->flush_head && s->flush_head->at.ssd.unit <= mark) {
		struct rs_io *io = rs_io_fifo_pop(&s->flush_head, &s->flush_tail);
		complete_cmd(sim, s, io, 0);
	}
}

/* Without power-loss protection, wait until everything buffered so far is
 * programmed; the dies then program partial pages rather than wait for
 * more data (ssd_program_min). */
static void wait_for_flash(struct rs_sim *sim, struct ssd *s, struct rs_io *io)
{
	io->at.ssd.unit = s->units_pushed;
	rs_io_fifo_push(&s->flush_head, &s->flush_tail, io);
	ssd_flush_progress(sim, s);
	ssd_kick_idle(sim, s);
}

/* All of a write's units are in the buffer.  A FUA write on a drive
 * without power-loss protection is written through; it waits for the
 * units buffered before it too, which a real drive may not (the model's
 * buffer programs in order). */
static void write_committed(struct rs_sim *sim, void *obj, void *arg)
{
	complete_cmd(sim, obj, arg, 0);
}

static void write_buffered(struct rs_sim *sim, struct ssd *s, struct rs_io *io)
{
	if (io->fua && !s->p.plp) {
		s->c.fua_through++;
		wait_for_flash(sim, s, io);
		return;
	}
	if (s->p.write_commit_ns > 0) {
		rs_sched(sim, s->p.write_commit_ns, write_committed, s, io);
		return;
	}
	complete_cmd(sim, s, io, 0);
}

void ssd_admit_stalled(struct rs_sim *sim, struct ssd *s)
{
	bool any = false;
	while (s->stall_head && wbuf_room(&s->buf) > 0) {
		struct rs_io *io = s->stall_head;
		any = true;
		if (!buffer_units(sim, s, io))
			break;
		rs_io_fifo_pop(&s->stall_head, &s->stall_tail);
		write_buffered(sim, s, io);
	}
	if (any)
		ssd_kick_idle(sim, s);
}

static void write_data_in(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct rs_io *io = arg;
	if (status) {
		complete_cmd(sim, s, io, status);
		return;
	}
	io->at.ssd.unit = first_unit(io);
	if (s->stall_head || !buffer_units(sim, s, io)) {
		s->c.stalls++;
		rs_io_fifo_push(&s->stall_head, &s->stall_tail, io);
	} else {
		write_buffered(sim, s, io);
	}
	ssd_kick_idle(sim, s);
}

static void write_ctrl_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct rs_io *io = arg;
	ssd_ctrl_idle(sim, s);
	if (s->has_link)
		rs_link_xfer(sim, s->link, RS_DIR_OUT, rs_io_bytes(io), write_data_in, s, io);
	else
		write_data_in(sim, s, io, 0);
}

/* A power-loss-protected buffer is as good as flash: the flush is done
 * after its command cost. */
static void flush_ctrl_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	ssd_ctrl_idle(sim, s);
	s->c.flushes++;
	if (!s->p.plp) {
		wait_for_flash(sim, s, arg);
		return;
	}
	complete_cmd(sim, s, arg, 0);
}

/* ---- commands entering the drive ---------------------------------------- */

static void accept(struct rs_sim *sim, struct ssd *s, struct rs_io *io)
{
	io->t_issue = sim->now;
	io->at.ssd.units_left = 0;
	io->at.ssd.unit = 0;
	uint32_t inside = s->port.busy;
	if (inside > s->c.max_commands)
		s->c.max_commands = inside;
	if (io->op != RS_FLUSH && (io->nblk == 0 || io->lba + io->nblk > s->dev->capacity_blk)) {
		io->status = -RS_ERR_ERANGE;
		rs_sched(sim, 0, fail_later, s, io);
		return;
	}
	rs_time_t cost = s->p.command_cost_ns;
	/* A write's data passes the data path on its way in; a read's pays
	 * unit by unit on its way out (ssd_unit_ready). */
	if (io->op == RS_WRITE)
		cost += (rs_time_t)(s->ns_per_byte * (double)rs_io_bytes(io));
	rs_job_fn *next = io->op == RS_READ ? read_ctrl_done
			: io->op == RS_WRITE ? write_ctrl_done : flush_ctrl_done;
	rs_server_submit(sim, &s->ctrl, cost, next, s, io);
}

static void command_arrived(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	rs_ioq_push(&s->port, arg);
	pump(sim, s);
}

/* Every command takes the same way in, so they arrive in the order they
 * were submitted. */
static void ssd_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct ssd *s = dev->priv;
	if (s->p.doorbell_ns > 0) {
		rs_sched(sim, s->p.doorbell_ns, command_arrived, s, io);
		return;
	}
	command_arrived(sim, s, io);
}

/* ---- build ----------------------------------------------------------------- */

static uint32_t name_hash(const char *str)
{
	uint32_t x = 2166136261u;
	for (; *str; str++)
		x = (x ^ (uint8_t)*str) * 16777619u;
	return x;
}

static int ssd_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct rs_ssd_params *p = params;
	struct rs_ssd_geom g;
	if (rs_ssd_geom_derive(p, node, &g, d))
		return -1;
	if (g.units_per_page > SSD_MAX_UNITS_PER_PAGE)
		return rs_diag_node(d, node, "a multi-plane page of %u 4KiB units is too large "
				    "(at most %u)", g.units_per_page, SSD_MAX_UNITS_PER_PAGE);
	/* A bus model sets the link (a PCIe generation and width for NVMe). */
	struct rs_link_params lp = { p->interface_rate, p->interface_overhead_ns,
				     p->interface_burst_bytes, false };
	if (p->interface_bus && b &&
	    rs_bus_params(b->models, p->interface_bus, "interface_bus", &lp, d))
		return -1;
	struct ssd *s = calloc(1, sizeof(*s));
	RS_ASSERT(s != NULL);
	dev->priv = s;
	s->dev = dev;
	s->p = *p;
	s->g = g;
	rs_time_t now = rs_now(sim);
	dev->capacity_blk = p->capacity_bytes / RS_BLOCK_BYTES;
	if (b && b->check_only) {
		/* The flash tables are hundreds of megabytes: not for a check. */
		s->check_only = true;
		return 0;
	}

	ftl_init(&s->ftl, &g);
	/* Written once, a drive has used only what the data needs; after
	 * random overwrites its collector has brought the free blocks up to
	 * gc_high, where the next host block it opens starts collection. */
	uint32_t keep_free = (uint32_t)p->gc_high + 1;
	switch (p->state) {
	case RS_SSD_FULL:
		ftl_fill_sequential(&s->ftl, keep_free);
		break;
	case RS_SSD_STEADY: {
		/* The layout's permutation comes from the seeded stream, per
		 * device name, so runs repeat and array members differ. */
		gsl_rng *r = rs_sim_rng(sim, "precondition", name_hash(dev->name));
		uint64_t seed = ((uint64_t)gsl_rng_get(r) << 32) ^ gsl_rng_get(r);
		ftl_fill_steady(&s->ftl, (uint32_t)p->gc_high, seed);
		break;
	}
	default:
		ftl_fresh(&s->ftl);
	}
	wbuf_init(&s->buf, (uint32_t)(p->write_buffer_bytes / RS_SSD_UNIT_BYTES));
	/* Wear is tracked only by drives whose model turns its costs on, so
	 * the others' runs draw and keep nothing more. */
	if (p->read_retries || p->wl_spread)
		ftl_track_wear(&s->ftl, (uint32_t)p->pe_cycles, p->wl_spread > 0);
	if (p->read_retries)
		s->retry_rng = rs_sim_rng(sim, "read-retry", name_hash(dev->name));

	struct rs_link_params bus = { p->channel_rate, p->channel_overhead_ns, 0, false };
	flash_init(&s->fa, (uint32_t)p->channels, (uint32_t)p->dies_per_channel, &bus, now);
	for (uint32_t i = 0; i < s->fa.ndies; i++)
		s->fa.die[i].wl_due = p->wl_spread > 0;
	rs_server_init(&s->ctrl, dev->name, (uint32_t)p->controller_cores, now);
	/* The queue pairs' entries are one pool of tags: the controller
	 * serves the queues round-robin, which FIFO over all of them matches
	 * while every queue has work. */
	rs_ioq_init(&s->port, (uint32_t)(p->queue_depth * p->queue_pairs), &rs_ioq_fifo, NULL);
	rs_tavg_init(&s->held, now, 0);
	s->has_link = p->interface;
	rs_link_init(&s->link_own, dev->name, &lp, now);
	s->link = &s->link_own;
	s->ns_per_byte = p->controller_rate > 0 ? 1e9 / p->controller_rate : 0;
	rs_pool_init(&s->ops, sizeof(struct flash_op), 256);
	return 0;
}

static void ssd_restart(struct rs_dev *dev, rs_time_t now)
{
	struct ssd *s = dev->priv;
	rs_tavg_restart(&s->held, now);
	s->held_max = s->port.busy;
	flash_restart_stats(&s->fa, now);
	rs_server_restart_stats(&s->ctrl, now);
	rs_link_restart_stats(s->link, now);
	s->win_host_units = s->ftl.host_units;
	s->win_gc_units = s->ftl.gc_units;
	s->win_read_retries = s->c.read_retries;
	s->win_wl_moves = s->c.wl_moves;
	s->win_merge_reads = s->c.merge_reads;
}

/* The write amplification since the last restart_stats (flash units
 * programmed / host units programmed). */
static double rs_ssd_window_write_amp(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_ssd);
	const struct ssd *s = dev->priv;
	uint64_t host = s->ftl.host_units - s->win_host_units;
	uint64_t gc = s->ftl.gc_units - s->win_gc_units;
	return host ? (double)(host + gc) / (double)host : 1.0;
}

/* The wear mechanisms' and the partial-unit merges' counts over the
 * window, as columns of their own for the drives whose model has them. */
static void report_wear(const struct ssd *s, struct rs_dev_report *r)
{
	bool live = !s->check_only;
	if (s->p.read_retries)
		rs_dev_report_extra(r, "read_retries",
				    live ? (double)(s->c.read_retries - s->win_read_retries) : 0);
	if (s->p.wl_spread)
		rs_dev_report_extra(r, "wl_moves",
				    live ? (double)(s->c.wl_moves - s->win_wl_moves) : 0);
	if (s->p.merge_partial)
		rs_dev_report_extra(r, "merge_reads",
				    live ? (double)(s->c.merge_reads - s->win_merge_reads) : 0);
}

static void ssd_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct ssd *s = dev->priv;
	if (s->check_only) {
		rs_dev_report_extra(r, "wa", 0);
		report_wear(s, r);
		return;
	}
	r->utilisation = rs_tavg_mean(&s->fa.busy, now) / s->fa.ndies;
	r->drive_qd = rs_tavg_mean(&s->held, now);
	r->drive_qd_max = s->held_max;
	r->drives = 1;
	rs_dev_report_extra(r, "wa", rs_ssd_window_write_amp(dev));
	report_wear(s, r);
}

static void ssd_destroy(struct rs_dev *dev)
{
	struct ssd *s = dev->priv;
	if (!s)
		return;
	if (s->check_only) {
		free(s);
		dev->priv = NULL;
		return;
	}
	ftl_free(&s->ftl);
	wbuf_free(&s->buf);
	flash_free(&s->fa);
	rs_pool_destroy(&s->ops);
	free(s);
	dev->priv = NULL;
}

const struct rs_ssd_counters *rs_ssd_counters(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_ssd);
	return &((const struct ssd *)dev->priv)->c;
}

const struct ftl *rs_ssd_ftl(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_ssd);
	return &((const struct ssd *)dev->priv)->ftl;
}

uint32_t rs_ssd_max_busy_dies(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_ssd);
	return ((const struct ssd *)dev->priv)->max_busy_dies;
}

/* Behind a controller the drive moves its data over the controller's link,
 * as it leaves the flash, instead of its own. */
static bool ssd_attach(struct rs_dev *dev, const struct rs_dev_attach *at)
{
	RS_ASSERT(dev->type == &rs_dev_ssd);
	struct ssd *s = dev->priv;
	if (!at->link)
		return false;
	if (at->shared_bus)
		rs_link_add_priority(at->link, s, -1, at->bus_rank);
	s->link = at->link;
	s->has_link = true;
	return true;
}

/* The controller cores; the host link is listed by whoever owns it. */
static void ssd_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			   struct rs_components *out)
{
	const struct ssd *s = dev->priv;
	rs_components_add_server(out, name, "ctrl", &s->ctrl, now);
}

const struct rs_dev_type rs_dev_ssd = {
	.name = "ssd",
	.help = "solid-state drive: flash dies on channels, page-mapped FTL with greedy "
		"garbage collection, DRAM write buffer, NCQ",
	.opts = rs_ssd_opts,
	.params_size = sizeof(struct rs_ssd_params),
	.init = ssd_init,
	.submit = ssd_submit,
	.restart_stats = ssd_restart,
	.report = ssd_report,
	.components = ssd_components,
	.destroy = ssd_destroy,
	.attach = ssd_attach,
};
