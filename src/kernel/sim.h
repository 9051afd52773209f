/* The discrete-event kernel.
 *
 * One struct rs_sim is one simulated world: a nanosecond clock, a pending
 * event set ordered by (time, sequence number) so that equal times fire in
 * the order they were scheduled (bit-reproducible runs), an event pool, the
 * random-number streams and the shared object pools.  There are no globals:
 * a test may build several worlds side by side. */
#ifndef RS_KERNEL_SIM_H
#define RS_KERNEL_SIM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "kernel/assert.h"
#include "kernel/pool.h"

typedef int64_t rs_time_t;            /* simulated nanoseconds */

#define RS_NS ((rs_time_t)1)
#define RS_US ((rs_time_t)1000)
#define RS_MS ((rs_time_t)1000000)
#define RS_SEC ((rs_time_t)1000000000)
#define RS_TIME_MAX INT64_MAX

struct rs_sim;
typedef void rs_event_fn(struct rs_sim *sim, void *obj, void *arg);

struct rs_event {
	rs_time_t time;
	uint64_t seq;
	rs_event_fn *fn;
	void *obj;
	void *arg;
	uint32_t heap_index;          /* position in the heap, for cancel (not kept in the
				       * sorted form for few events: see sim.c) */
	/* Moves on each time the event goes back to the pool (fired or
	 * cancelled), so a handle kept past that is recognised as stale.  Not
	 * the first word, which the pool's free list overwrites. */
	uint32_t gen;
};

/* What rs_sched returns: the event and its generation at the time.  A
 * handle kept after its event fired or was cancelled is stale: the memory
 * may by then hold another event, which cancelling the handle would remove
 * instead (a lost timer, never noticed).  rs_cancel asserts against that. */
struct rs_event_handle {
	struct rs_event *ev;          /* NULL: no event */
	uint32_t gen;
};

#define RS_NO_EVENT ((struct rs_event_handle){ NULL, 0 })

/* Has h's event fired or been cancelled since h was handed out? */
static inline bool rs_event_stale(struct rs_event_handle h)
{
	return h.ev != NULL && h.ev->gen != h.gen;
}

/* 16 bytes, so the four children of a node fill one 64-byte cache line
 * (see sim.c); the sequence number is read from the event only on a tie
 * of times, and only in the heap form (the sorted form of few events
 * leaves it unset until it turns into the heap). */
struct rs_heap_slot {
	rs_time_t time;
	struct rs_event *ev;
};

struct rs_rng_node;

/* Request accounting, kept here so every layer can reach it through the
 * sim; io/io.c is the only writer. */
struct rs_io_counters {
	uint64_t created;
	uint64_t completed;
	uint64_t freed;
	uint64_t bytes_created;       /* top-level requests only */
	uint64_t bytes_completed;     /* top-level requests only */
};

struct rs_sim {
	rs_time_t now;
	uint64_t seq;
	uint64_t seed;
	uint64_t events_fired;
	bool stopping;
	/* While a callback runs, heap[0] still holds the event being fired:
	 * the first event the callback schedules takes its place with one
	 * sift-down, instead of a pop (sift-down) plus a push (sift-up).  Any
	 * other heap operation first removes the stale root. */
	bool root_vacant;
	/* Few events pending: heap[] holds them sorted, the next to fire
	 * last, instead of as a heap (see sim.c); root_vacant is then false. */
	bool small;
	/* SMALL_MAX (see sim.c) in the few-events form, 0 in the heap form:
	 * whether a new event goes in sorted is then one compare. */
	uint32_t small_cap;
	/* A runtime failure (see rs_sim_fail): the run is over, the message
	 * says why.  Once set, rs_sim_run fires nothing more. */
	bool failed;
	char failure[512];
	/* The backstop against a model that loops at one instant (zero-time
	 * service, zero think time): events fired since the clock last moved,
	 * and how many may fire before the run fails. */
	uint64_t same_instant;
	uint64_t same_instant_max;

	struct rs_heap_slot *heap;    /* 4-ary min-heap on (time, seq), or sorted (small) */
	void *heap_mem;               /* allocation heap points into */
	uint32_t heap_len;
	uint32_t heap_cap;

	/* Uncounted (its `live` stays 0): every event out of it is pending,
	 * which rs_sim_pending counts; rs_sim_events_out counts them from
	 * the pool's side, for tests. */
	struct rs_pool events;
	/* The pools of the modules above, each sized by the module that owns
	 * its type (rs_sim_pool_register) when it first takes an object; the
	 * sim only frees them. */
	struct rs_pool ios;           /* struct rs_io: io/ */
	struct rs_pool jobs;          /* struct rs_job: dev/ */
	struct rs_io_counters io_counters;
	struct rs_rng_node *rngs;     /* every stream handed out, freed with the sim */
};

struct rs_sim *rs_sim_new(uint64_t seed);
void rs_sim_free(struct rs_sim *sim);
/* Size one of the sim's pools of another module's objects (obj_size bytes,
 * per_chunk at a time); once per pool and sim, before its first object.
 * The sim frees it with the rest. */
void rs_sim_pool_register(struct rs_sim *sim, struct rs_pool *pool, size_t obj_size,
			  size_t per_chunk);

static inline rs_time_t rs_now(const struct rs_sim *sim) { return sim->now; }

/* A time computed in floating point (a service time from a rate, an
 * exponential draw) as whole nanoseconds, rounded, held in [0,
 * RS_TIME_MAX]: an absurd parameter (a rate of 1e-12 B/s) then gives an
 * event too late for the clock, which fails the run (see rs_sched_at),
 * instead of an integer overflow. */
/* llround(x) for 0 <= x < 2^63, in integers: the same value (halves go
 * up), without a call into libm on paths that run for every request.  The
 * truncation is exact, and so is x - i (x and i are within a factor of 2,
 * or i is 0). */
static inline int64_t rs_round_nonneg(double x)
{
	int64_t i = (int64_t)x;
	return x - (double)i >= 0.5 ? i + 1 : i;
}
/* floor(x) for |x| < 2^63, in the same spirit. */
static inline double rs_floor(double x)
{
	double t = (double)(int64_t)x;
	return t > x ? t - 1.0 : t;
}
static inline rs_time_t rs_ns_from_double(double ns)
{
	if (!(ns > 0))
		return 0;
	if (ns >= 9.2e18)
		return RS_TIME_MAX;
	return rs_round_nonneg(ns);
}
/* rs_sched_at's way for the heap form (out of line). */
struct rs_event_handle rs_sched_slow(struct rs_sim *sim, rs_time_t when, rs_event_fn *fn,
				     void *obj, void *arg);
/* Schedule fn(sim, obj, arg) at `when` (>= now).  The common case, few
 * events pending, is done inline, with no call: the sorted form (see
 * sim.c) takes a free event (there always is one in this form: every
 * event out of the pool is pending, fewer than SMALL_MAX of them, and the
 * pool has had a chunk of more since the sim was made) and inserts it
 * with a scan that needs no bound, stopped by the sentinel before the
 * first slot (heap[-1], later than any time as unsigned; rs_sim_run
 * checks it).  Whether the sorted form has room is one compare
 * (small_cap); the heap goes to rs_sched_slow. */
static inline struct rs_event_handle rs_sched_at(struct rs_sim *sim, rs_time_t when,
						 rs_event_fn *fn, void *obj, void *arg)
{
	if (sim->heap_len >= sim->small_cap)
		return rs_sched_slow(sim, when, fn, obj, arg);
	RS_ASSERT(when >= sim->now);
	RS_ASSERT(fn != NULL);
	struct rs_event *ev = (struct rs_event *)rs_pool_take_free_uncounted(&sim->events);
	ev->time = when;
	ev->fn = fn;
	ev->obj = obj;
	ev->arg = arg;
	struct rs_heap_slot *p = sim->heap + sim->heap_len++;
	while ((uint64_t)p[-1].time <= (uint64_t)when) {
		p[0] = p[-1];
		p--;
	}
	*p = (struct rs_heap_slot){ when, ev };
	return (struct rs_event_handle){ ev, ev->gen };
}
/* rs_sched's way out for a time beyond the clock (see above). */
struct rs_event_handle rs_sched_overflow(struct rs_sim *sim, rs_time_t delay,
					 rs_event_fn *fn, void *obj, void *arg);
/* Schedule fn(sim, obj, arg) after delay (>= 0) nanoseconds.  The returned
 * handle may be cancelled until the event fires or is cancelled.  A time
 * beyond what the clock holds (about 292 years) fails the run
 * (rs_sim_fail): the event is kept, at RS_TIME_MAX, and never fires.
 * Inline: a call saved on every schedule. */
static inline struct rs_event_handle rs_sched(struct rs_sim *sim, rs_time_t delay,
					      rs_event_fn *fn, void *obj, void *arg)
{
	/* now + delay overflows exactly when delay > RS_TIME_MAX - now (now
	 * is never negative): the add's own overflow flag tests it.  A
	 * negative delay never overflows it and is caught by rs_sched_at's
	 * assertion that the event is not in the past. */
	rs_time_t when;
	if (__builtin_add_overflow(sim->now, delay, &when))
		return rs_sched_overflow(sim, delay, fn, obj, arg);
	return rs_sched_at(sim, when, fn, obj, arg);
}
/* Remove a pending event; returns false for RS_NO_EVENT.  A stale handle
 * (rs_event_stale) is a bug of the caller's: asserted. */
bool rs_cancel(struct rs_sim *sim, struct rs_event_handle h);

/* Fire events in order until the set is empty, rs_sim_stop() is called, or
 * the next event lies beyond `until` (then the clock is left at `until`).
 * Pass RS_TIME_MAX to run to exhaustion.  Returns the number fired. */
uint64_t rs_sim_run(struct rs_sim *sim, rs_time_t until);
/* Make rs_sim_run return after the event being fired. */
void rs_sim_stop(struct rs_sim *sim);

/* Events that may fire at one simulated instant before the run fails with
 * "simulated time does not advance".  Far above what any model does at
 * one instant (a closed loop of a million outstanding requests through a
 * controller and an array is a few tens of millions), and reached in a
 * few seconds by a loop that would otherwise spin forever. */
#define RS_SIM_SAME_INSTANT_MAX (UINT64_C(1) << 25)

/* End the run with a runtime failure (bad input that only shows while it
 * runs: an open-loop rate the device cannot drain, time that does not
 * advance).  Keeps the first message; rs_sim_run returns after the event
 * being fired and fires nothing more.  The caller reports sim->failure and
 * exits 1. */
void rs_sim_fail(struct rs_sim *sim, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline size_t rs_sim_pending(const struct rs_sim *sim)
{
	return sim->heap_len - (sim->root_vacant ? 1 : 0);
}
/* Events taken from the pool and not given back, counted by walking its
 * free list (slow; for tests): rs_sim_pending unless an event leaked. */
uint64_t rs_sim_events_out(const struct rs_sim *sim);

/* A random stream for one purpose ("offsets", "sizes", "mix", "arrivals",
 * "service", ...) and instance (worker or device index), seeded from a hash
 * of the scenario seed, the purpose and the instance.  Changing how many
 * numbers one purpose draws leaves every other stream unchanged.  Owned by
 * the sim.  Call at build time, not on the hot path. */
gsl_rng *rs_sim_rng(struct rs_sim *sim, const char *purpose, uint32_t instance);

/* The 64-bit seed a stream would get; exposed for tests. */
uint64_t rs_rng_derive_seed(uint64_t seed, const char *purpose, uint32_t instance);
/* Uniform integer in [0, n), n > 0, also for n beyond the 32 bits one
 * draw of a GSL generator gives (rejection keeps it unbiased). */
uint64_t rs_rng_uniform_u64(gsl_rng *r, uint64_t n);

#endif
