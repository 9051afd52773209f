/* A unit of work waiting for a shared resource (a link or a server).
 *
 * Links and servers are used by requests, but also by traffic that is not a
 * request of its own (read-ahead, TCP acknowledgements, destaging), so they
 * queue these small pooled jobs rather than struct rs_io. */
#ifndef RS_DEV_JOB_H
#define RS_DEV_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/sim.h"

/* Called when the work is done; status is 0 or -RS_ERR_* (e.g. a link that
 * went down under the transfer). */
typedef void rs_job_fn(struct rs_sim *sim, void *obj, void *arg, int status);

struct rs_job {
	struct rs_job *next;
	uint64_t left;                /* bytes still to move, or ns of service */
	rs_job_fn *fn;
	void *obj, *arg;
	int status;
	uint8_t dir;                  /* links: enum rs_dir */
};

static inline struct rs_job *rs_job_get(struct rs_sim *sim, rs_job_fn *fn, void *obj,
					void *arg)
{
	/* The jobs' pool is sized here, by the module that owns the type. */
	if (!sim->jobs.obj_size)
		rs_sim_pool_register(sim, &sim->jobs, sizeof(struct rs_job), 256);
	/* Zeroed with a size known at compile time, which the compiler turns
	 * into a few stores, instead of the pool's memset of a size it learns
	 * at run time (a call into the C library for every job). */
	struct rs_job *j = (struct rs_job *)rs_pool_get_raw(&sim->jobs);
	memset(j, 0, sizeof(*j));
	j->fn = fn;
	j->obj = obj;
	j->arg = arg;
	return j;
}

/* Return the job to the pool, then call its function (so the callback may
 * queue new work that reuses the slot). */
static inline void rs_job_finish(struct rs_sim *sim, struct rs_job *j, int status)
{
	rs_job_fn *fn = j->fn;
	void *obj = j->obj, *arg = j->arg;
	rs_pool_put(&sim->jobs, j);
	fn(sim, obj, arg, status);
}

/* A job a holder keeps for itself (a link channel, a server): a
 * submission that finds it free uses it and needs none from the sim's
 * pool; `taken` while a job uses it. */
struct rs_job_own {
	struct rs_job job;
	bool taken;
};

/* The holder's own job if free, else a pooled one.  The own job gets only
 * the fields every holder reads before setting them: the holder sets
 * `left` and `dir`, a queue sets `next`, and the status goes to the
 * callback as an argument, never through the job. */
static inline struct rs_job *rs_job_own_get(struct rs_sim *sim, struct rs_job_own *own,
					    rs_job_fn *fn, void *obj, void *arg)
{
	if (own->taken)
		return rs_job_get(sim, fn, obj, arg);
	own->taken = true;
	own->job.fn = fn;
	own->job.obj = obj;
	own->job.arg = arg;
	return &own->job;
}

/* rs_job_finish for a job that may be the holder's own: that one is free
 * again before the callback, which may start the next job with it. */
static inline void rs_job_own_finish(struct rs_sim *sim, struct rs_job_own *own,
				     struct rs_job *j, int status)
{
	if (j != &own->job) {
		rs_job_finish(sim, j, status);
		return;
	}
	own->taken = false;
	j->fn(sim, j->obj, j->arg, status);
}

/* FIFO of jobs. */
struct rs_jobq {
	struct rs_job *head, *tail;
	uint32_t len;
};

static inline void rs_jobq_push(struct rs_jobq *q, struct rs_job *j)
{
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	q->len++;
}

static inline struct rs_job *rs_jobq_pop(struct rs_jobq *q)
{
	struct rs_job *j = q->head;
	if (j) {
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
		q->len--;
		j->next = NULL;
	}
	return j;
}

#endif
