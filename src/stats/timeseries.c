#include "stats/timeseries.h"

#include <stdlib.h>

#include "kernel/assert.h"

void rs_ts_init(struct rs_timeseries *ts, rs_time_t interval_ns, rs_time_t horizon_ns)
{
	RS_ASSERT(interval_ns > 0);
	ts->interval_ns = interval_ns;
	ts->n = (size_t)(horizon_ns / interval_ns) + 2;
	ts->used = 0;
	ts->b = calloc(ts->n, sizeof(*ts->b));
	RS_ASSERT(ts->b);
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
