#include "dev/ideal.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "dev/ioq.h"
#include "kernel/assert.h"

enum service_dist { SERVICE_FIXED, SERVICE_EXPONENTIAL };
static const char *const service_names[] = { "fixed", "exponential", NULL };

struct ideal_params {
	int service;                  /* enum service_dist */
	rs_time_t mean_ns;
	rs_time_t write_mean_ns;      /* 0: same as mean_ns */
	double bandwidth_bytes_s;     /* 0: no per-byte term */
	uint64_t servers;
	uint64_t capacity_bytes;
};

static const struct rs_opt ideal_opts[] = {
	{ "service", RS_OPT_ENUM, offsetof(struct ideal_params, service), "fixed", 0, 0, 0,
	  service_names, "service time distribution: fixed or exponential" },
	{ "mean", RS_OPT_TIME, offsetof(struct ideal_params, mean_ns), "1ms", RS_OPT_HAS_MIN,
	  0, 0, NULL, "mean service time per request, before the bandwidth term" },
	{ "write_mean", RS_OPT_TIME, offsetof(struct ideal_params, write_mean_ns), "0s",
	  RS_OPT_HAS_MIN, 0, 0, NULL, "mean service time of writes (0 = same as mean)" },
	{ "bandwidth", RS_OPT_RATE, offsetof(struct ideal_params, bandwidth_bytes_s), "0B/s",
	  RS_OPT_HAS_MIN, 0, 0, NULL, "adds bytes/bandwidth to each service time; 0 = none" },
	{ "servers", RS_OPT_UINT, offsetof(struct ideal_params, servers), "1",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 1 << 20, NULL,
	  "requests served in parallel (k of M/M/k)" },
	{ "capacity", RS_OPT_SIZE, offsetof(struct ideal_params, capacity_bytes), "1TiB",
	  RS_OPT_HAS_MIN, 512, 0, NULL, "addressable size" },
	RS_OPT_END
};

struct ideal {
	struct ideal_params p;
	struct rs_ioq q;              /* tags = servers */
	gsl_rng *rng;
	struct rs_tavg busy;          /* busy servers */
	double ns_per_byte;
};

static void dispatch(struct rs_sim *sim, struct rs_dev *dev);

static void serve_done(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_dev *dev = obj;
	struct ideal *id = dev->priv;
	rs_ioq_release(&id->q);
	rs_tavg_add(&id->busy, sim->now, -1);
	dispatch(sim, dev);
	rs_dev_complete(sim, dev, arg, 0);
}

static rs_time_t service_time(struct ideal *id, const struct rs_io *io)
{
	double t = (double)id->p.mean_ns;
	if (io->op == RS_WRITE && id->p.write_mean_ns > 0)
		t = (double)id->p.write_mean_ns;
	if (id->p.service == SERVICE_EXPONENTIAL)
		t = gsl_ran_exponential(id->rng, t);
	t += id->ns_per_byte * (double)rs_io_bytes(io);
	return rs_ns_from_double(t);
}

static void dispatch(struct rs_sim *sim, struct rs_dev *dev)
{
	struct ideal *id = dev->priv;
	struct rs_io *io;
	while ((io = rs_ioq_dispatch(sim, &id->q))) {
		io->t_issue = sim->now;
		rs_tavg_add(&id->busy, sim->now, 1);
		rs_sched(sim, service_time(id, io), serve_done, dev, io);
	}
}

static void ideal_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct ideal *id = dev->priv;
	/* Every request takes its turn, a flush or one beyond the capacity
	 * too; the latter then completes with ERANGE from the event loop. */
	if (io->op != RS_FLUSH && io->lba + io->nblk > dev->capacity_blk)
		io->status = -RS_ERR_ERANGE;
	rs_ioq_push(&id->q, io);
	dispatch(sim, dev);
}

/* A closed loop on a device whose requests take no time issues and
 * completes forever at one instant.  The smallest request (one 512-byte
 * block) must take at least a nanosecond: a mean of 1 ns or more, or a
 * bandwidth term of 512 GB/s or less.  (An exponential draw may still
 * round to 0 now and then; its mean keeps the clock moving.) */
static bool takes_no_time(const struct ideal_params *p)
{
	if (p->mean_ns > 0)
		return false;
	return !(p->bandwidth_bytes_s > 0 && RS_BLOCK_BYTES * 1e9 / p->bandwidth_bytes_s >= 1.0);
}

static int ideal_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		      const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct ideal_params *p = params;
	if (takes_no_time(p))
		return rs_diag_node(d, rs_node_get_or(node, "mean"),
				    "'mean' 0s with %s gives a request no service time, so "
				    "simulated time would never advance; expected a 'mean' of at "
				    "least 1ns, or a 'bandwidth' of at most 512GB/s",
				    p->bandwidth_bytes_s > 0 ? "so fast a 'bandwidth'"
							     : "no 'bandwidth'");
	struct ideal *id = calloc(1, sizeof(*id));
	RS_ASSERT(id != NULL);
	id->p = *p;
	id->ns_per_byte = p->bandwidth_bytes_s > 0 ? 1e9 / p->bandwidth_bytes_s : 0;
	id->rng = rs_sim_rng(sim, "service", 0);
	rs_ioq_init(&id->q, (uint32_t)p->servers, &rs_ioq_fifo, NULL);
	rs_tavg_init(&id->busy, rs_now(sim), 0);
	dev->priv = id;
	dev->capacity_blk = p->capacity_bytes / RS_BLOCK_BYTES;
	return 0;
}

static void ideal_restart(struct rs_dev *dev, rs_time_t now)
{
	struct ideal *id = dev->priv;
	rs_tavg_restart(&id->busy, now);
}

static void ideal_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct ideal *id = dev->priv;
	r->utilisation = rs_tavg_mean(&id->busy, now) / (double)id->p.servers;
}

static void ideal_destroy(struct rs_dev *dev) { free(dev->priv); }

const struct rs_dev_type rs_dev_ideal = {
	.name = "ideal",
	.help = "reference device: k servers, fixed or exponential service time",
	.opts = ideal_opts,
	.params_size = sizeof(struct ideal_params),
	.init = ideal_init,
	.submit = ideal_submit,
	.restart_stats = ideal_restart,
	.report = ideal_report,
	.destroy = ideal_destroy,
};
