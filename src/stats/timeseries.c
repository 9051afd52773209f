#include "stats/timeseries.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel/assert.h"

uint64_t rs_ts_intervals(rs_time_t interval_ns, rs_time_t horizon_ns)
{
	RS_ASSERT(interval_ns > 0);
	uint64_t h = horizon_ns > 0 ? (uint64_t)horizon_ns : 0;
	return h / (uint64_t)interval_ns + (h % (uint64_t)interval_ns != 0);
}

int rs_ts_init(struct rs_timeseries *ts, rs_time_t interval_ns, rs_time_t horizon_ns)
{
	RS_ASSERT(interval_ns > 0);
	*ts = (struct rs_timeseries){ .interval_ns = interval_ns };
	uint64_t n = (uint64_t)(horizon_ns > 0 ? horizon_ns : 0) / (uint64_t)interval_ns + 2;
	ts->b = n <= SIZE_MAX / sizeof(*ts->b) ? calloc((size_t)n, sizeof(*ts->b)) : NULL;
	if (!ts->b)
		return -1;
	ts->n = (size_t)n;
	return 0;
}

void rs_ts_free(struct rs_timeseries *ts)
{
	free(ts->b);
	ts->b = NULL;
	ts->n = ts->used = 0;
}

void rs_ts_add(struct rs_timeseries *ts, size_t index, uint64_t ops, uint64_t bytes,
	       uint64_t errors)
{
	if (index >= ts->n)
		index = ts->n - 1;
	if (index + 1 > ts->used)
		ts->used = index + 1;
	ts->b[index].ops += ops;
	ts->b[index].bytes += bytes;
	ts->b[index].errors += errors;
}
