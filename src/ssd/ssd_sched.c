/* What a die does next.  Host reads go first (they are few: the queue
 * depth bounds them, and a read waits behind at most one program); then
 * garbage collection and programs of the write buffer's oldest units, as
 * try_start paces them. */
#include <math.h>
#include <stdlib.h>

#include "kernel/assert.h"
#include "ssd/ssd_priv.h"

/* ---- host reads ---------------------------------------------------------- */

/* A read whose decode failed reads the page again with shifted reference
 * voltages: the die stays busy for another tR, the transfer, and what the
 * retry costs beyond them. */
static void read_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct flash_op *op = arg;
	struct flash_die *die = &s->fa.die[ftl_ppn_die(&s->ftl, op->ppn)];
	if (op->retries) {
		op->retries--;
		s->c.read_retries++;
		flash_run(sim, &s->fa, die, s->p.t_read_ns + s->p.read_retry_cost_ns,
			  RS_SSD_UNIT_BYTES, RS_DIR_IN, 0, op->ppn / s->g.units_per_page, read_done,
			  s, op);
		return;
	}
	s->busy_dies--;
	ssd_unit_ready(sim, s, op);
	ssd_die_kick(sim, s, die);
}

/* How many retries a page read takes.  The raw bit error rate, hence the
 * chance that a codeword has more errors than the ECC corrects, grows
 * with the block's program/erase cycles and with the data's retention age
 * (Cai et al.); the model doubles the first decode's failure probability
 * every read_retry_wear cycles and every read_retry_age of age.  Each
 * retry then fails again with read_retry_again, up to read_retries (the
 * last step of the ladder is taken to succeed: the drive's deeper
 * recovery is not modelled). */
uint32_t ssd_draw_retries(struct ssd *s, uint32_t ppn)
{
	const struct ftl *f = &s->ftl;
	uint32_t blk = ftl_ppn_block(f, ppn);
	double age = f->orig[blk] ? (double)s->p.data_age_ns : 0;
	double doublings = (double)ftl_block_wear(f, blk) / s->p.read_retry_wear +
			   age / (double)s->p.read_retry_age_ns;
	if (gsl_rng_uniform(s->retry_rng) >= s->p.read_retry_p0 * exp2(doublings))
		return 0;
	uint32_t k = 1;
	while (k < s->p.read_retries && gsl_rng_uniform(s->retry_rng) < s->p.read_retry_again)
		k++;
	s->c.reads_retried++;
	return k;
}

static void start_read(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	struct flash_op *op = die->rq_head;
	die->rq_head = op->next;
	if (!die->rq_head)
		die->rq_tail = NULL;
	uint32_t page = op->ppn / s->g.units_per_page;
	rs_time_t t_read = s->p.t_read_ns;
	op->retries = 0;
	if (die->reg_page == page) {
		s->fa.reg_hits++;
		t_read = 0;
	} else if (s->retry_rng) {
		op->retries = ssd_draw_retries(s, op->ppn);
	}
	s->fa.reads++;
	flash_run(sim, &s->fa, die, t_read, RS_SSD_UNIT_BYTES, RS_DIR_IN, 0, page, read_done, s,
		  op);
}

void ssd_read_unit(struct rs_sim *sim, struct ssd *s, struct flash_op *op)
{
	op->next = NULL;
	struct flash_die *die = &s->fa.die[ftl_ppn_die(&s->ftl, op->ppn)];
	if (die->rq_tail)
		die->rq_tail->next = op;
	else
		die->rq_head = op;
	die->rq_tail = op;
	s->c.units_read_flash++;
	if (die->held)
		ssd_gc_promote(sim, s, die);
	ssd_die_kick(sim, s, die);
}

/* ---- programming the write buffer ------------------------------------- */

static void program_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct ssd *s = obj;
	struct flash_die *die = arg;
	s->busy_dies--;
	wbuf_release(&s->buf, die->batch);
	s->ftl.host_units += die->batch;
	die->batch = 0;
	ssd_flush_progress(sim, s);
	ssd_admit_stalled(sim, s);
	ssd_die_kick(sim, s, die);
	ssd_kick_idle(sim, s);
}

static bool start_program(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	uint32_t upp = s->g.units_per_page;
	if (wbuf_ready(&s->buf) < ssd_program_min(s) || !ftl_host_can_write(&s->ftl, die->index))
		return false;
	uint32_t ppn = ftl_next_page(&s->ftl, die->index, false);
	RS_ASSERT(ppn != FTL_NONE);
	uint32_t n = wbuf_take(&s->buf, upp, s->scratch_lpn);
	if (n < upp)
		s->c.partial_programs++;
	die->batch_seq = s->units_taken;
	s->units_taken += n;
	/* From now on the map sends reads of these units to the die. */
	for (uint32_t i = 0; i < n; i++)
		ftl_place(&s->ftl, s->scratch_lpn[i], ppn + i);
	die->batch = n;
	die->batch_gc = false;
	s->fa.programs++;
	/* The firmware's share of a program (allocating the page, mapping its
	 * units) loads the controller; the die need not wait for it. */
	if (s->p.program_cost_ns > 0)
		rs_server_submit(sim, &s->ctrl, s->p.program_cost_ns, ssd_ctrl_noop, s, NULL);
	flash_run(sim, &s->fa, die, 0, (uint64_t)n * RS_SSD_UNIT_BYTES, RS_DIR_OUT,
		  s->p.t_prog_ns, UINT32_MAX, program_done, s, die);
	return true;
}

/* ---- the choice ------------------------------------------------------------ */

static void note_busy(struct ssd *s)
{
	if (++s->busy_dies > s->max_busy_dies)
		s->max_busy_dies = s->busy_dies;
}

/* Collection is paced by the free blocks.  Below gc_low it goes first (the
 * host is about to have no block to write).  Below gc_high it is paced to
 * keep up: each unit the host programs puts the die in debt by the
 * victim's copies per unit it frees (valid / (block - valid)), and GC goes
 * first while the die owes; so a die neither falls to gc_low under a
 * steady load nor stalls the host for a whole victim (the steady progress
 * Intel designed the S3700's consistency around, S21).  At gc_high or
 * above it runs only when the die has nothing else to do. */
static bool try_start(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	if (die->rq_head) {
		start_read(sim, s, die);
		return true;
	}
	uint32_t nfree = s->ftl.die[die->index].nfree;
	if (nfree >= s->p.gc_high)
		die->gc_debt = 0;
	bool gc_first = nfree < s->p.gc_low || (nfree < s->p.gc_high && die->gc_debt > 0);
	if (gc_first && ssd_gc_step(sim, s, die, false))
		return true;
	if (start_program(sim, s, die)) {
		if (nfree < s->p.gc_high && ssd_gc_victim(s, die))
			die->gc_debt += die->gc_ratio * die->batch;
		return true;
	}
	/* Idle: collect ahead of need, and finish a victim half collected so
	 * its erase is not left pending. */
	if ((nfree < s->p.gc_high || die->victim != FTL_NONE) &&
	    ssd_gc_step(sim, s, die, true))
		return true;
	return ssd_wl_step(sim, s, die);
}

void ssd_ctrl_noop(struct rs_sim *sim, void *obj, void *arg, int status)
{
	(void)arg;
	(void)status;
	ssd_ctrl_idle(sim, obj);
}

void ssd_die_kick(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	if (die->busy || die->held)
		return;
	if (try_start(sim, s, die))
		note_busy(s);
}

void ssd_kick_idle(struct rs_sim *sim, struct ssd *s)
{
	uint32_t n = s->fa.ndies;
	for (uint32_t i = 0; i < n && wbuf_ready(&s->buf) >= ssd_program_min(s); i++) {
		struct flash_die *die = &s->fa.die[(s->next_die + i) % n];
		if (die->busy || die->held)
			continue;
		ssd_die_kick(sim, s, die);
		if (die->busy)
			s->next_die = (die->index + 1) % n;
	}
}
