#include "dev/server.h"

#include "kernel/assert.h"

void rs_server_init(struct rs_server *s, const char *name, uint32_t servers, rs_time_t now)
{
	RS_ASSERT(servers > 0);
	*s = (struct rs_server){ .name = name, .servers = servers };
	rs_tavg_init(&s->busy_avg, now, 0);
}

static void service_done(struct rs_sim *sim, void *obj, void *arg);

static void begin(struct rs_sim *sim, struct rs_server *s, struct rs_job *j)
{
	rs_sched(sim, (rs_time_t)j->left, service_done, s, j);
}

/* The end of a job that is not the server's own with nothing waiting:
 * the freed server goes straight to the next job, if one waits.  Out of
 * line, so the common end (below) saves no registers for it. */
static __attribute__((noinline)) void service_next(struct rs_sim *sim, struct rs_server *s,
						   struct rs_job *j)
{
	struct rs_job *next = rs_jobq_pop(&s->waiting);
	if (next) {
		begin(sim, s, next);
	} else {
		s->busy--;
		rs_tavg_add(&s->busy_avg, sim->now, -1);
	}
	rs_job_own_finish(sim, &s->own, j, 0);
}

static void service_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_server *s = obj;
	struct rs_job *j = arg;
	s->jobs_done++;
	if (s->waiting.head || j != &s->own.job) {
		service_next(sim, s, j);
		return;
	}
	/* The server's own job is done and nothing waits: what service_next
	 * would do, less its tests. */
	s->busy--;
	rs_tavg_add(&s->busy_avg, sim->now, -1);
	s->own.taken = false;
	j->fn(sim, j->obj, j->arg, 0);
}

/* rs_server_submit but for a job that finds a server free and the
 * server's own job with it. */
static __attribute__((noinline)) void submit_general(struct rs_sim *sim, struct rs_server *s,
						     rs_time_t service_ns, rs_job_fn *fn,
						     void *obj, void *arg)
{
	struct rs_job *j = rs_job_own_get(sim, &s->own, fn, obj, arg);
	j->left = (uint64_t)service_ns;
	if (s->busy < s->servers) {
		s->busy++;
		rs_tavg_add(&s->busy_avg, sim->now, 1);
		begin(sim, s, j);
	} else {
		rs_jobq_push(&s->waiting, j);
	}
}

void rs_server_submit(struct rs_sim *sim, struct rs_server *s, rs_time_t service_ns,
		      rs_job_fn *fn, void *obj, void *arg)
{
	RS_ASSERT(service_ns >= 0);
	if (s->own.taken || s->busy >= s->servers) {
		submit_general(sim, s, service_ns, fn, obj, arg);
		return;
	}
	/* The common case: a server free (so nothing waits) and the own job
	 * free, taken and started as submit_general would. */
	struct rs_job *j = &s->own.job;
	s->own.taken = true;
	j->fn = fn;
	j->obj = obj;
	j->arg = arg;
	j->left = (uint64_t)service_ns;
	s->busy++;
	rs_tavg_add(&s->busy_avg, sim->now, 1);
	begin(sim, s, j);
}

double rs_server_utilisation(const struct rs_server *s, rs_time_t now)
{
	return rs_tavg_mean(&s->busy_avg, now) / s->servers;
}

void rs_server_restart_stats(struct rs_server *s, rs_time_t now)
{
	rs_tavg_restart(&s->busy_avg, now);
	s->jobs_done = 0;
}
