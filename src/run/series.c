#include "run/series.h"

static void tick(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_series_sampler *s = obj;
	const struct rs_iostat *st = &s->load->stats;
	if (st->t_start != s->window) {
		/* The window opened (end of ramp): the counters restarted. */
		s->window = st->t_start;
		s->ops = s->bytes = s->errors = 0;
	}
	uint64_t ops = st->ops[RS_ST_ALL], bytes = st->bytes[RS_ST_ALL], errors = st->errors;
	rs_ts_add(s->ts, s->next, ops - s->ops, bytes - s->bytes, errors - s->errors);
	s->ops = ops;
	s->bytes = bytes;
	s->errors = errors;
	s->next++;
	/* Stop with the workload, so the run can drain and end. */
	if (!s->load->stopped)
		rs_sched(sim, s->ts->interval_ns, tick, s, NULL);
}

void rs_series_start(struct rs_series_sampler *s, struct rs_sim *sim, struct rs_load *load,
		     struct rs_timeseries *ts)
{
	*s = (struct rs_series_sampler){ .sim = sim, .load = load, .ts = ts,
					 .window = load->stats.t_start };
	rs_sched(sim, ts->interval_ns, tick, s, NULL);
}
