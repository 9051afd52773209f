#include "load/phase.h"

#include <string.h>

#include "kernel/assert.h"

double rs_phase_mb_s(const struct rs_phase_result *r, double mb)
{
	return r->t_measured > 0 ? (double)r->bytes / mb / ((double)r->t_measured / 1e9) : 0;
}

double rs_phase_iops(const struct rs_phase_result *r)
{
	return r->t_measured > 0 ? (double)r->ops / ((double)r->t_measured / 1e9) : 0;
}

double rs_phase_lat_ms(const struct rs_phase_result *r)
{
	return r->ops ? (double)r->lat_sum_ns / (double)r->ops / 1e6 : 0;
}

static void request_done(struct rs_sim *sim, struct rs_io *io);

/* Issue the thread's next request, if the phase still wants one. */
static bool issue_next(struct rs_sim *sim, struct rs_phase *ph, struct rs_phase_thread *th)
{
	const struct rs_phase_spec *sp = &ph->spec;
	uint64_t end = sp->start_blk + sp->len_blk;
	uint64_t lba;
	uint32_t nblk = sp->nblk;
	if (sp->duration == 0) {
		if (ph->sweep_next >= end)
			return false;
		lba = ph->sweep_next;
		if (end - lba < nblk)
			nblk = (uint32_t)(end - lba);
		ph->sweep_next += nblk;
	} else {
		/* Time is up at the start plus the duration exactly: a request
		 * completing then is not counted and issues nothing. */
		if (sim->now >= ph->res.t_start + sp->duration)
			return false;
		if (sp->random) {
			lba = sp->start_blk + rs_rng_uniform_u64(ph->rng, ph->slots) * nblk;
		} else {
			if (th->seq_next + nblk > end)
				th->seq_next = sp->start_blk;
			lba = th->seq_next;
			th->seq_next += nblk;
		}
	}
	ph->in_flight++;
	ph->res.issued++;
	rs_load_issue_ctx(sim, ph->load, sp->op, lba, nblk, request_done, th);
	return true;
}

static void phase_over(struct rs_sim *sim, struct rs_phase *ph)
{
	ph->running = false;
	ph->res.t_end = sim->now;
	ph->res.t_measured = ph->spec.duration > 0 ? ph->spec.duration
						   : ph->res.t_end - ph->res.t_start;
	ph->done(sim, ph);
}

static void request_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_phase_thread *th = io->done_ctx;
	struct rs_phase *ph = th->ph;
	struct rs_phase_result *res = &ph->res;
	bool counted = ph->spec.duration == 0 || io->t_done < res->t_start + ph->spec.duration;
	if (io->status != 0) {
		res->errors++;
	} else if (counted) {
		res->ops++;
		res->bytes += rs_io_bytes(io);
		res->lat_sum_ns += (uint64_t)(io->t_done - io->t_submit);
	}
	bool more = rs_load_account(sim, ph->load, io);
	rs_io_free(sim, io);
	RS_ASSERT(ph->in_flight > 0);
	ph->in_flight--;
	if (more && issue_next(sim, ph, th))
		return;
	if (ph->in_flight == 0)
		phase_over(sim, ph);
}

void rs_phase_init(struct rs_phase *ph, struct rs_load *load, gsl_rng *rng,
		   rs_phase_done_fn *done, void *ctx)
{
	memset(ph, 0, sizeof(*ph));
	ph->load = load;
	ph->rng = rng;
	ph->done = done;
	ph->ctx = ctx;
	for (size_t i = 0; i < RS_PHASE_MAX_THREADS; i++)
		ph->thread[i].ph = ph;
}

void rs_phase_start(struct rs_sim *sim, struct rs_phase *ph, const struct rs_phase_spec *spec)
{
	RS_ASSERT(!ph->running && ph->in_flight == 0);
	RS_ASSERT(spec->threads >= 1 && spec->threads <= RS_PHASE_MAX_THREADS);
	RS_ASSERT(spec->depth >= 1 && spec->nblk >= 1 && spec->len_blk >= spec->nblk);
	ph->spec = *spec;
	memset(&ph->res, 0, sizeof(ph->res));
	ph->res.t_start = sim->now;
	ph->sweep_next = spec->start_blk;
	ph->slots = spec->len_blk / spec->nblk;
	ph->running = true;
	for (uint32_t t = 0; t < spec->threads; t++)
		ph->thread[t].seq_next = spec->start_blk;
	/* Fill every thread's queue, thread by thread, as DiskSpd's threads
	 * each post their first `depth` requests when they start. */
	for (uint32_t t = 0; t < spec->threads; t++)
		for (uint32_t k = 0; k < spec->depth; k++)
			if (!issue_next(sim, ph, &ph->thread[t]))
				goto filled;
filled:
	if (ph->in_flight == 0)
		phase_over(sim, ph);
}
