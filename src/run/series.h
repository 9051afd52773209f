/* The time series of a run: every `interval` of simulated time, what the
 * workload completed in it (requests, bytes, errors), read from the
 * workload's own counters, so it works for any device and workload type.
 * Only the measuring window counts (a scenario with a time series usually
 * has no ramp). */
#ifndef RS_RUN_SERIES_H
#define RS_RUN_SERIES_H

#include <stdint.h>

#include "kernel/sim.h"
#include "load/load.h"
#include "stats/timeseries.h"

struct rs_series_sampler {
	struct rs_sim *sim;
	struct rs_load *load;
	struct rs_timeseries *ts;
	size_t next;                  /* index of the interval being filled */
	rs_time_t window;             /* the workload's window start last seen */
	uint64_t ops, bytes, errors;  /* its counters at the last tick */
};

/* Start sampling into ts (already initialised with its interval). */
void rs_series_start(struct rs_series_sampler *s, struct rs_sim *sim, struct rs_load *load,
		     struct rs_timeseries *ts);

#endif
