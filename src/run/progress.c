#include "run/progress.h"

#include <stdio.h>

static double elapsed_s(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void rs_progress_duration(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5);
	if (t < 60)
		snprintf(buf, n, "%lds", t);
	else if (t < 3600)
		snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, n, "%ldh%02ldm", t / 3600, t % 3600 / 60);
}

void rs_progress_start(struct rs_progress *p, bool on, size_t total, size_t resumed)
{
	p->on = on;
	p->total = total;
	p->done = resumed;
	p->resumed = resumed;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
}

void rs_progress_step(struct rs_progress *p)
{
	p->done++;
	if (!p->on || p->total == 0)
		return;
	/* The rate counts only the points run now: resumed ones took no time. */
	double el = elapsed_s(&p->t0);
	double rate = el > 0 ? (double)(p->done - p->resumed) / el : 0;
	char left[32], spent[32];
	rs_progress_duration(spent, sizeof(spent), el);
	if (rate > 0)
		rs_progress_duration(left, sizeof(left), (double)(p->total - p->done) / rate);
	else
		snprintf(left, sizeof(left), "?");
	fprintf(stderr, "\r[%zu/%zu] %5.1f%%  %.2f points/s  elapsed %s  left ~%s   ",
		p->done, p->total, 100.0 * (double)p->done / (double)p->total, rate, spent,
		left);
	if (p->done == p->total)
		fputc('\n', stderr);
	fflush(stderr);
}
