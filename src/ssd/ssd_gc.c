/* Greedy garbage collection, one die at a time.
 *
 * A step either picks a victim (the die's full block with the fewest
 * valid units), or copies one multi-plane page worth of its valid units
 * into the die's GC frontier, or, when nothing valid is left, erases it
 * (tBERS) and returns it to the free list.  A copy is done as the device
 * does it, through the controller rather than by the die's copy-back
 * (which would carry bit errors along uncorrected): tR for each page the
 * units come from and the data out over the channel; then the controller
 * checks and re-encodes it (its data path, bytes / controller_rate) and
 * its firmware issues the program (program_cost), queued with the host's
 * commands; then the data back over the channel and tPROG.  The die is
 * held from the first half to the second, so collection competes with
 * host reads and programs for the die, the channel and the controller. */
#include "kernel/assert.h"
#include "ssd/ssd_priv.h"

static void step_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct flash_die *die = arg;
	s->busy_dies--;
	if (die->batch_gc) {
		s->ftl.gc_units += die->batch;
		die->batch = 0;
		die->batch_gc = false;
	}
	ssd_die_kick(sim, s, die);
	ssd_kick_idle(sim, s);
}

static void copy_in_controller(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct ssd *s = obj;
	struct flash_die *die = arg;
	die->held = false;
	ssd_ctrl_idle(sim, s);
	flash_run(sim, &s->fa, die, 0, (uint64_t)die->batch * RS_SSD_UNIT_BYTES, RS_DIR_OUT,
		  s->p.t_prog_ns, UINT32_MAX, step_done, s, die);
}

static void copy_submit(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	rs_time_t cost = s->p.program_cost_ns +
			 (rs_time_t)(s->ns_per_byte * (double)die->batch * RS_SSD_UNIT_BYTES);
	rs_server_submit(sim, &s->ctrl, cost, copy_in_controller, s, die);
}

static bool ctrl_idle(const struct ssd *s)
{
	return s->ctrl.busy < s->ctrl.servers && s->ctrl.waiting.len == 0;
}

/* Collection done in idle time has the lower priority on the controller:
 * its copy waits until no host command (or urgent collection) is there,
 * so a drive catching up on spare blocks does not slow the host; copies
 * the host's own writes made necessary (below gc_low, or paced below
 * gc_high) queue with the host's commands. */
static void copy_read(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct flash_die *die = arg;
	die->held = true;
	if (!die->gc_background || (ctrl_idle(s) && !s->bg_head)) {
		copy_submit(sim, s, die);
		return;
	}
	s->c.gc_copies_deferred++;
	die->bg_next = NULL;
	if (s->bg_tail)
		s->bg_tail->bg_next = die;
	else
		s->bg_head = die;
	s->bg_tail = die;
}

void ssd_ctrl_idle(struct rs_sim *sim, struct ssd *s)
{
	if (!s->bg_head || !ctrl_idle(s))
		return;
	struct flash_die *die = s->bg_head;
	s->bg_head = die->bg_next;
	if (!s->bg_head)
		s->bg_tail = NULL;
	die->bg_next = NULL;
	copy_submit(sim, s, die);
}

void ssd_gc_promote(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	struct flash_die **pp = &s->bg_head, *prev = NULL;
	while (*pp && *pp != die) {
		prev = *pp;
		pp = &(*pp)->bg_next;
	}
	if (!*pp)
		return;
	*pp = die->bg_next;
	if (s->bg_tail == die)
		s->bg_tail = prev;
	die->bg_next = NULL;
	copy_submit(sim, s, die);
}

static void erased(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct flash_die *die = arg;
	ftl_erase(&s->ftl, die->victim);
	die->victim = FTL_NONE;
	die->victim_wl = false;
	die->wl_due = true;
	step_done(sim, s, die);
}

bool ssd_gc_victim(struct ssd *s, struct flash_die *die)
{
	if (die->victim != FTL_NONE)
		return true;
	struct ftl *f = &s->ftl;
	die->victim = ftl_pick_victim(f, die->index);
	if (die->victim == FTL_NONE)
		return false;
	die->victim_scan = 0;
	s->c.gc_victims++;
	uint32_t valid = f->valid[die->victim], B = s->g.units_per_block;
	die->gc_ratio = (double)valid / (double)(B - valid);
	return true;
}

bool ssd_gc_step(struct rs_sim *sim, struct ssd *s, struct flash_die *die, bool background)
{
	struct ftl *f = &s->ftl;
	if (!ssd_gc_victim(s, die))
		return false;
	uint32_t upp = s->g.units_per_page;
	uint32_t scan = die->victim_scan;
	uint32_t n = ftl_collect(f, die->victim, &scan, s->scratch_lpn, s->scratch_ppn, upp);
	if (n == 0) {
		die->victim_scan = scan;
		s->fa.erases++;
		if (s->p.program_cost_ns > 0)
			rs_server_submit(sim, &s->ctrl, s->p.program_cost_ns, ssd_ctrl_noop, s, NULL);
		flash_run(sim, &s->fa, die, s->p.t_erase_ns, 0, RS_DIR_IN, 0, UINT32_MAX, erased,
			  s, die);
		return true;
	}
	uint32_t to = ftl_next_page(f, die->index, true);
	if (to == FTL_NONE)
		return false;  /* cannot happen while the host leaves GC its block */
	die->victim_scan = scan;
	uint32_t pages = 0, last = UINT32_MAX, retries = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t page = s->scratch_ppn[i] / upp;
		if (page != last) {
			pages++;
			if (s->retry_rng)
				retries += ssd_draw_retries(s, s->scratch_ppn[i]);
		}
		last = page;
		ftl_invalidate(f, s->scratch_lpn[i]);
		ftl_place(f, s->scratch_lpn[i], to + i);
	}
	die->batch = n;
	die->batch_gc = true;
	die->gc_background = background;
	/* Moves for wear levelling free no space: they pay no collection debt. */
	if (die->victim_wl)
		s->c.wl_moves += n;
	else
		die->gc_debt -= n;
	s->fa.copies++;
	s->c.gc_copies++;
	/* The collector's reads retry like the host's; the model adds the
	 * retries' array time and one unit's transfer each to the copy's
	 * read half rather than interleaving them page by page. */
	s->c.read_retries += retries;
	rs_time_t t_read = (rs_time_t)pages * s->p.t_read_ns +
			   (rs_time_t)retries * (s->p.t_read_ns + s->p.read_retry_cost_ns);
	flash_run(sim, &s->fa, die, t_read, (uint64_t)(n + retries) * RS_SSD_UNIT_BYTES,
		  RS_DIR_IN, 0, UINT32_MAX, copy_read, s, die);
	return true;
}
