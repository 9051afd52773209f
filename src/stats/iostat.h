/* Per-workload I/O results: what the reports print.
 *
 * Latency histograms and counters per op class, plus an ALL class so the
 * combined percentiles come from the combined distribution (percentiles of
 * reads and writes cannot be averaged).  Recording is allocation-free.
 *
 * The ALL histogram is not recorded: its buckets, count and extremes are
 * those of reads and writes together, summed when asked for
 * (rs_iostat_all), which saves a bucket search per request.  Only its sum
 * is kept per request, because a sum of doubles depends on the order of
 * its terms and the mean must not move. */
#ifndef RS_STATS_IOSTAT_H
#define RS_STATS_IOSTAT_H

#include <stdint.h>

#include "kernel/sim.h"
#include "stats/hist.h"

enum { RS_ST_READ = 0, RS_ST_WRITE = 1, RS_ST_ALL = 2, RS_ST_COUNT = 3 };

struct rs_iostat {
	rs_time_t t_start;            /* start of the measuring window */
	struct rs_hist lat[RS_ST_ALL];   /* READ and WRITE: see rs_iostat_all */
	double lat_sum_all;             /* latencies of both, in completion order */
	uint64_t ops[RS_ST_COUNT];
	uint64_t bytes[RS_ST_COUNT];
	uint64_t errors;
};

/* Empty the statistics and start the window at now (end of ramp-up). */
void rs_iostat_reset(struct rs_iostat *s, rs_time_t now);

/* One completed request.  A failed one (status != 0) only counts as an
 * error: it delivered no data, so it adds to neither ops, bytes nor
 * latency, and a fast-failing path cannot make the figures look better. */
static inline void rs_iostat_record(struct rs_iostat *s, int is_write,
				    uint64_t bytes, int64_t latency_ns, int status)
{
	if (status != 0) {
		s->errors++;
		return;
	}
	size_t c = is_write ? RS_ST_WRITE : RS_ST_READ;
	struct rs_hist *h = &s->lat[c];
	s->ops[c]++;
	s->ops[RS_ST_ALL]++;
	s->bytes[c] += bytes;
	s->bytes[RS_ST_ALL] += bytes;
	rs_hist_add(h, latency_ns);
	s->lat_sum_all += (double)latency_ns;
}
/* The latency histogram of reads and writes together, as if each request
 * had been recorded into it too. */
void rs_iostat_all(const struct rs_iostat *s, struct rs_hist *out);

/* dst += src; the window starts at the earlier of the two starts. */
void rs_iostat_merge(struct rs_iostat *dst, const struct rs_iostat *src);

struct rs_iostat_summary {
	double seconds;               /* length of the window */
	double iops, read_iops, write_iops;
	double mib_s, mb_s;           /* MiB = 2^20 bytes, MB = 10^6 */
	double read_mib_s, write_mib_s;
	double lat_mean_ms, lat_p50_ms, lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms;
	double read_lat_mean_ms, write_lat_mean_ms, read_lat_p99_ms, write_lat_p99_ms;
	uint64_t ops, errors;
};

/* Rates over [t_start, now]; rates are 0 for an empty window and
 * latencies 0 for a class without requests. */
void rs_iostat_summarize(const struct rs_iostat *s, rs_time_t now,
			 struct rs_iostat_summary *out);

#endif
