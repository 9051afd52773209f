#include "stats/tavg.h"

void rs_tavg_init(struct rs_tavg *t, rs_time_t now, double level)
{
	t->t_start = now;
	t->t_last = now;
	t->level = level;
	t->area = 0.0;
}

void rs_tavg_restart(struct rs_tavg *t, rs_time_t now)
{
	RS_ASSERT(now >= t->t_last);
	t->t_start = now;
	t->t_last = now;
	t->area = 0.0;
}

double rs_tavg_mean(const struct rs_tavg *t, rs_time_t now)
{
	RS_ASSERT(now >= t->t_last);
	if (now == t->t_start)
		return t->level;
	double area = t->area + t->level * (double)(now - t->t_last);
	return area / (double)(now - t->t_start);
}
