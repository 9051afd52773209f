/* The progress line of a sweep on stderr: points done, the rate of this
 * run and the time left at that rate. */
#ifndef RS_RUN_PROGRESS_H
#define RS_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct rs_progress {
	bool on;
	size_t total;                 /* points of the sweep (or shard) */
	size_t done;                  /* finished, including resumed ones */
	size_t resumed;               /* found already done at the start */
	struct timespec t0;
};

void rs_progress_start(struct rs_progress *p, bool on, size_t total, size_t resumed);
/* One more point finished: redraw the line (ends it once all are done). */
void rs_progress_step(struct rs_progress *p);
/* Format seconds as "42s", "3m05s" or "2h07m". */
void rs_progress_duration(char *buf, size_t n, double s);

#endif
