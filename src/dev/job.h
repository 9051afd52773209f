/* A unit of work waiting for a shared resource (a link or a server).
 *
 * Links and servers are used by requests, but also by traffic that is not a
 * request of its own (read-ahead, TCP acknowledgements, destaging), so they
 * queue these small pooled jobs rather than struct rs_io. */
#ifndef RS_DEV_JOB_H
#define RS_DEV_JOB_H

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
