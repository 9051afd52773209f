/* One phase of a disk benchmark: requests of one size and one direction
 * over a region of the target (the benchmark's test file), kept in flight
 * by `threads` issuers of `depth` requests each (a completion issues the
 * next request at once), in one of two shapes:
 *
 *   timed   issue for `duration` from the phase's start; only requests
 *           completing before start + duration count, then the requests in
 *           flight drain (CrystalDiskMark's pass, as DiskSpd runs it);
 *   sweep   move the region exactly once, sequentially, the last request
 *           cut to fit; every request counts (ATTO's write and read,
 *           CrystalDiskMark's preparation of its test file).
 *
 * Sequential timed phases give each thread its own cursor from the
 * region's start, wrapping at its end (DiskSpd's default: no stride between
 * threads); a sweep hands out one shared cursor.  Random offsets are
 * aligned to the request size from the region's start and uniform over
 * the region.  A phase allocates nothing: its state is embedded in the
 * workload's and its requests come from the sim's pool. */
#ifndef RS_LOAD_PHASE_H
#define RS_LOAD_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "load/load.h"

#define RS_PHASE_MAX_THREADS 64

struct rs_phase_spec {
	enum rs_op op;
	bool random;                  /* timed phases only */
	uint32_t nblk;                /* request size, blocks */
	uint64_t start_blk, len_blk;  /* the region; len_blk >= nblk */
	uint32_t threads, depth;      /* in flight: threads * depth */
	rs_time_t duration;           /* > 0: timed; 0: one sweep of the region */
};

struct rs_phase_result {
	rs_time_t t_start;            /* first request issued */
	rs_time_t t_end;              /* last request completed (the drain included) */
	rs_time_t t_measured;         /* what rates are over: the duration, or t_end - t_start */
	uint64_t ops, bytes;          /* counted, successful requests */
	uint64_t lat_sum_ns;          /* their response times */
	uint64_t errors;              /* failed requests, counted or not */
	uint64_t issued;              /* every request of the phase */
};

/* Rates of a finished phase: bytes per second in units of `mb` bytes,
 * requests per second, mean response time in ms (0 without requests). */
double rs_phase_mb_s(const struct rs_phase_result *r, double mb);
double rs_phase_iops(const struct rs_phase_result *r);
double rs_phase_lat_ms(const struct rs_phase_result *r);

struct rs_phase;
typedef void rs_phase_done_fn(struct rs_sim *sim, struct rs_phase *ph);

struct rs_phase_thread {
	struct rs_phase *ph;
	uint64_t seq_next;            /* timed sequential: this thread's cursor */
};

struct rs_phase {
	struct rs_load *load;
	gsl_rng *rng;                 /* random offsets */
	rs_phase_done_fn *done;
	void *ctx;                    /* for the owner */

	struct rs_phase_spec spec;
	struct rs_phase_result res;
	struct rs_phase_thread thread[RS_PHASE_MAX_THREADS];
	uint64_t sweep_next;          /* sweep: the shared cursor */
	uint64_t slots;               /* random: aligned positions in the region */
	uint64_t in_flight;
	bool running;
};

/* Once, at build time.  `done` is called when a phase has drained (or the
 * load's window closed under it), after which the owner may start the
 * next phase from inside the callback. */
void rs_phase_init(struct rs_phase *ph, struct rs_load *load, gsl_rng *rng,
		   rs_phase_done_fn *done, void *ctx);
/* Start a phase now.  The spec must be valid (see rs_phase_spec). */
void rs_phase_start(struct rs_sim *sim, struct rs_phase *ph, const struct rs_phase_spec *spec);

#endif
