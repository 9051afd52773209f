/* A time series of completed requests: per-interval counts of requests,
 * bytes and errors, so an event in the middle of a run (a pulled cable)
 * shows when it happens instead of vanishing in a run-long average.
 *
 * Buckets are allocated once for the expected length of the run; requests
 * completing later go to the last bucket, so memory never grows with the
 * run. */
#ifndef RS_STATS_TIMESERIES_H
#define RS_STATS_TIMESERIES_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/sim.h"

struct rs_ts_bucket {
	uint64_t ops, bytes, errors;
};

struct rs_timeseries {
	rs_time_t interval_ns;
	size_t n;                     /* buckets allocated */
	size_t used;                  /* 1 + the last bucket touched */
	struct rs_ts_bucket *b;
};

/* The intervals a run of `horizon` needs at `interval` (> 0), rounded up:
 * what rs_limits()->series_intervals bounds. */
uint64_t rs_ts_intervals(rs_time_t interval_ns, rs_time_t horizon_ns);
/* interval > 0; `horizon` is the run length the buckets must cover.
 * 0, or -1 (ts left empty) when the buckets cannot be allocated. */
int rs_ts_init(struct rs_timeseries *ts, rs_time_t interval_ns, rs_time_t horizon_ns);
void rs_ts_free(struct rs_timeseries *ts);
/* Counts for interval `index` at once (a sampler's tick). */
void rs_ts_add(struct rs_timeseries *ts, size_t index, uint64_t ops, uint64_t bytes,
	       uint64_t errors);

#endif
