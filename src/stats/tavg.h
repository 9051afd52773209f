/* Time-weighted average of a level: queue depth, busy servers, a link's
 * occupancy.  The level is integrated over simulated time as it changes, so
 * the mean costs O(1) memory however long the run. */
#ifndef RS_STATS_TAVG_H
#define RS_STATS_TAVG_H

#include "kernel/assert.h"
#include "kernel/sim.h"

struct rs_tavg {
	rs_time_t t_start;            /* start of the measuring window */
	rs_time_t t_last;             /* last change of level */
	double level;
	double area;                  /* integral of level over [t_start, t_last] */
};

void rs_tavg_init(struct rs_tavg *t, rs_time_t now, double level);
/* Start a new window at now, keeping the current level (end of ramp-up). */
void rs_tavg_restart(struct rs_tavg *t, rs_time_t now);
/* Mean level over [t_start, now]; the current level if the window is empty. */
double rs_tavg_mean(const struct rs_tavg *t, rs_time_t now);

static inline void rs_tavg_set(struct rs_tavg *t, rs_time_t now, double level)
{
	/* A change at the instant of the last one (a completion and the
	 * next submission, a request handed down a layer) would add
	 * level * 0, which leaves the area as it is (it is never -0.0): a
	 * third of the changes on a request path skip the multiply.  The
	 * assertion that time does not go back is then the other branch of
	 * the same compare. */
	if (now > t->t_last) {
		t->area += t->level * (double)(now - t->t_last);
		t->t_last = now;
	} else {
		RS_ASSERT(now == t->t_last);
	}
	t->level = level;
}

static inline void rs_tavg_add(struct rs_tavg *t, rs_time_t now, double delta)
{
	rs_tavg_set(t, now, t->level + delta);
}

#endif
