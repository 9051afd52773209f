/* A server: anything that thinks for a while per job (drive firmware,
 * controller CPU, a host driver, a TOE processor).  k identical servers
 * take jobs first come, first served; the rest wait.  Because it queues,
 * a busy controller CPU saturates instead of being a fixed delay. */
#ifndef RS_DEV_SERVER_H
#define RS_DEV_SERVER_H

#include <stdint.h>

#include "dev/job.h"
#include "kernel/sim.h"
#include "stats/tavg.h"

struct rs_server {
	const char *name;
	uint32_t servers;
	uint32_t busy;
	struct rs_jobq waiting;
	struct rs_tavg busy_avg;      /* busy servers over time */
	uint64_t jobs_done;
	/* The server's own job, for a submission that finds it free (with
	 * one job in at a time, every one). */
	struct rs_job_own own;
};

void rs_server_init(struct rs_server *s, const char *name, uint32_t servers, rs_time_t now);
/* Serve for service_ns, then fn(sim, obj, arg, 0). */
void rs_server_submit(struct rs_sim *sim, struct rs_server *s, rs_time_t service_ns,
		      rs_job_fn *fn, void *obj, void *arg);
/* Busy servers / servers, averaged since the last restart. */
double rs_server_utilisation(const struct rs_server *s, rs_time_t now);
void rs_server_restart_stats(struct rs_server *s, rs_time_t now);

#endif
