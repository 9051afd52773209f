/* GSL's inline definitions of its generator calls (the same code as the
 * library's): a draw for every request then costs no call into the
 * library before the generator's own. */
#define HAVE_INLINE 1
#include "kernel/sim.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

struct rs_rng_node {
	struct rs_rng_node *next;
	gsl_rng *rng;
};

/* A 4-ary heap is shallower than a binary one (log4 n levels) and its four
 * children share a cache line or two, which wins at the event-set sizes a
 * storage model has (tens to thousands pending). */
#define ARITY 4

/* Times decide; a tie (common with fixed service times) is broken by the
 * scheduling order, read from the events themselves. */
static inline bool slot_less(const struct rs_heap_slot *a, const struct rs_heap_slot *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->ev->seq < b->ev->seq;
}

/* The time in the slot before heap[0]: compared as unsigned (times are
 * never negative, so the order among them is the same), it lies beyond
 * every time, RS_TIME_MAX included. */
#define SENTINEL_TIME ((rs_time_t)-1)

/* The heap array is placed so that slot 1 starts a cache line: the four
 * children 4i+1..4i+4 of any node then share one line, and choosing the
 * smallest costs one miss at most. */
#define HEAP_LINE 64
static void heap_alloc(struct rs_sim *sim, uint32_t cap)
{
	size_t lead = HEAP_LINE / sizeof(struct rs_heap_slot) - 1;
	void *mem = aligned_alloc(HEAP_LINE, ((cap + lead) * sizeof(struct rs_heap_slot) +
					     HEAP_LINE - 1) / HEAP_LINE * HEAP_LINE);
	if (!mem)
		rs_out_of_memory("the pending event set");
	struct rs_heap_slot *heap = (struct rs_heap_slot *)mem + lead;
	if (sim->heap_mem) {
		memcpy(heap, sim->heap, sim->heap_len * sizeof(*heap));
		free(sim->heap_mem);
	}
	sim->heap_mem = mem;
	sim->heap = heap;
	sim->heap_cap = cap;
	/* The sentinel of the sorted form's insertion (rs_sched_at, sim.h), in
	 * the slot before the first, which the heap never touches. */
	heap[-1] = (struct rs_heap_slot){ SENTINEL_TIME, NULL };
}

static inline void place(struct rs_sim *sim, uint32_t i, struct rs_heap_slot s)
{
	sim->heap[i] = s;
	s.ev->heap_index = i;
}

static void sift_up(struct rs_sim *sim, uint32_t i, struct rs_heap_slot s)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;
		if (!slot_less(&s, &sim->heap[parent]))
			break;
		place(sim, i, sim->heap[parent]);
		i = parent;
	}
	place(sim, i, s);
}

static void sift_down(struct rs_sim *sim, uint32_t i, struct rs_heap_slot s)
{
	struct rs_heap_slot *h = sim->heap;
	uint32_t n = sim->heap_len;
	for (;;) {
		uint32_t first = i * ARITY + 1;
		if (first >= n)
			break;
		uint32_t best;
		if (first + ARITY <= n) {
			/* A full family (one cache line): a tournament of the
			 * four, written so the compiler selects without branching
			 * unless two times tie. */
			uint32_t a = first + slot_less(&h[first + 1], &h[first]);
			uint32_t b = first + 2 + slot_less(&h[first + 3], &h[first + 2]);
			best = slot_less(&h[b], &h[a]) ? b : a;
		} else {
			best = first;
			for (uint32_t c = first + 1; c < n; c++)
				if (slot_less(&h[c], &h[best]))
					best = c;
		}
		if (!slot_less(&h[best], &s))
			break;
		place(sim, i, h[best]);
		i = best;
	}
	place(sim, i, s);
}

/* The few-events form (sim->small): heap[0..len) sorted latest first, so
 * the next event is the last slot and firing it is a decrement.  A new
 * event moves past only the events that fire before it, which with a
 * handful pending (a drive or two, the run's end) is none or one, cheaper
 * than a heap's sift.  Any exact order on (time, seq) fires the same
 * sequence, so the form in use never shows in the results. */
#define SMALL_MAX 16      /* more than this pending: the heap */
#define SMALL_BACK 8      /* back to the sorted form at this many or fewer */

/* In this form the events' heap_index is not kept: a cancel (rare) finds
 * its slot among the few, and the heap sets them all when it takes over. */
static inline __attribute__((always_inline)) void small_insert(struct rs_sim *sim,
							   struct rs_heap_slot s)
{
	/* s is the newest event, so of the events at its time every one
	 * fires first: the times alone decide, and the events of this form
	 * carry no sequence number (small_to_heap gives them theirs). */
	struct rs_heap_slot *h = sim->heap;
	uint32_t i = sim->heap_len++;
	while (i > 0 && h[i - 1].time <= s.time) {
		h[i] = h[i - 1];
		i--;
	}
	h[i] = s;
}

static void small_remove(struct rs_sim *sim, const struct rs_event *ev)
{
	struct rs_heap_slot *h = sim->heap;
	uint32_t i = 0, n = sim->heap_len;
	while (i < n && h[i].ev != ev)
		i++;
	RS_ASSERT(i < n);
	sim->heap_len = --n;
	for (; i < n; i++)
		h[i] = h[i + 1];
}

/* Earliest first is a valid heap of any arity.  The sorted form orders
 * events by time and, at one time, by when they were scheduled, without
 * numbering them: numbered here in firing order, from the sequence on,
 * they keep that order in the heap, and every later event, numbered
 * after them, fires after those of its time. */
static __attribute__((noinline)) void small_to_heap(struct rs_sim *sim)
{
	struct rs_heap_slot *h = sim->heap;
	uint32_t n = sim->heap_len;
	for (uint32_t i = 0, j = n - 1; i < j; i++, j--) {
		struct rs_heap_slot t = h[i];
		h[i] = h[j];
		h[j] = t;
	}
	for (uint32_t i = 0; i < n; i++) {
		h[i].ev->heap_index = i;
		h[i].ev->seq = sim->seq++;
	}
	sim->small = false;
	sim->small_cap = 0;
}

static __attribute__((noinline)) void heap_to_small(struct rs_sim *sim)
{
	struct rs_heap_slot *h = sim->heap;
	uint32_t n = sim->heap_len;
	for (uint32_t k = 1; k < n; k++) {
		struct rs_heap_slot s = h[k];
		uint32_t j = k;
		while (j > 0 && slot_less(&h[j - 1], &s)) {
			h[j] = h[j - 1];
			j--;
		}
		h[j] = s;
	}
	sim->small = true;
	sim->small_cap = SMALL_MAX;
}

/* Events the pool adds at a time (the first chunk when the sim is made). */
#define EVENTS_PER_CHUNK 1024
_Static_assert(EVENTS_PER_CHUNK > SMALL_MAX,
	       "the sorted form's insertion relies on a free event (rs_sched_at)");

struct rs_sim *rs_sim_new(uint64_t seed)
{
	struct rs_sim *sim = calloc(1, sizeof(*sim));
	RS_ASSERT(sim != NULL);
	sim->seed = seed;
	sim->same_instant_max = RS_SIM_SAME_INSTANT_MAX;
	sim->small = true;
	sim->small_cap = SMALL_MAX;
	heap_alloc(sim, 1024);
	rs_pool_init(&sim->events, sizeof(struct rs_event), EVENTS_PER_CHUNK);
	/* A chunk at once, not at the first schedule: with more events in
	 * it than the sorted form holds, rs_sched_at's insertion always
	 * finds a free one (see there). */
	rs_pool_grow(&sim->events);
	return sim;
}

void rs_sim_pool_register(struct rs_sim *sim, struct rs_pool *pool, size_t obj_size,
			  size_t per_chunk)
{
	RS_ASSERT(pool->obj_size == 0);
	rs_pool_init(pool, obj_size, per_chunk);
}

void rs_sim_free(struct rs_sim *sim)
{
	if (!sim)
		return;
	struct rs_rng_node *r = sim->rngs;
	while (r) {
		struct rs_rng_node *next = r->next;
		gsl_rng_free(r->rng);
		free(r);
		r = next;
	}
	rs_pool_destroy(&sim->events);
	rs_pool_destroy(&sim->ios);
	rs_pool_destroy(&sim->jobs);
	free(sim->heap_mem);
	free(sim);
}

/* Parameters that are valid one by one can add up past the clock (a
 * service time of 200 years queued behind another): that is bad input
 * seen at run time, not a bug. */
static void clock_overflow(struct rs_sim *sim, rs_time_t delay)
{
	rs_sim_fail(sim, "simulated time overflows: an event %.3g s after %.3g s lies beyond "
		    "the %.3g s the clock holds (a service time, rate or run length far out "
		    "of range)", (double)delay / 1e9, (double)sim->now / 1e9,
		    (double)RS_TIME_MAX / 1e9);
}

/* The generation must survive the pool's free list, which links through
 * the first word. */
_Static_assert(offsetof(struct rs_event, gen) >= sizeof(void *),
	       "the event's generation overlaps the pool's free-list link");

/* Back to the pool: handles to this scheduling go stale. */
static inline void release(struct rs_sim *sim, struct rs_event *ev)
{
	ev->gen++;
	rs_pool_put_uncounted(&sim->events, ev);
}

/* rs_sched_at's heap side, in rs_sched_slow (out of line): the sorted
 * insert of few events, inline in sim.h, then stays short. */
static inline __attribute__((always_inline)) void heap_insert(struct rs_sim *sim,
							      struct rs_heap_slot s)
{
	/* The sorted form (never with a vacant root) numbers its events
	 * only now, and s after them. */
	if (sim->small)
		small_to_heap(sim);
	s.ev->seq = sim->seq++;
	if (sim->root_vacant) {
		/* The event being fired is the minimum and at most s's time:
		 * the new one replaces it at the root and sinks to its place. */
		sim->root_vacant = false;
		sift_down(sim, 0, s);
		return;
	}
	if (sim->heap_len == sim->heap_cap)
		heap_alloc(sim, sim->heap_cap * 2);
	sift_up(sim, sim->heap_len++, s);
}

/* Fill a fresh event and put it in the set. */
static inline __attribute__((always_inline)) struct rs_event_handle
sched_into(struct rs_sim *sim, struct rs_event *ev, rs_time_t when, rs_event_fn *fn,
	   void *obj, void *arg)
{
	/* Every field is set here (heap_index by place(), in the heap form)
	 * but the generation, which the pool keeps (its chunks start zeroed):
	 * no zeroing. */
	ev->time = when;
	ev->fn = fn;
	ev->obj = obj;
	ev->arg = arg;
	struct rs_heap_slot s = { when, ev };
	if (sim->small && sim->heap_len < SMALL_MAX)
		small_insert(sim, s);
	else
		heap_insert(sim, s);
	return (struct rs_event_handle){ ev, ev->gen };
}

/* The schedules that call out (the heap, a pool that must grow). */
__attribute__((noinline)) struct rs_event_handle
rs_sched_slow(struct rs_sim *sim, rs_time_t when, rs_event_fn *fn, void *obj, void *arg)
{
	RS_ASSERT(when >= sim->now);
	RS_ASSERT(fn != NULL);
	if (!sim->events.free_list)
		rs_pool_grow(&sim->events);
	struct rs_event *ev = rs_pool_take_free_uncounted(&sim->events);
	return sched_into(sim, ev, when, fn, obj, arg);
}

struct rs_event_handle rs_sched_overflow(struct rs_sim *sim, rs_time_t delay,
					 rs_event_fn *fn, void *obj, void *arg)
{
	clock_overflow(sim, delay);
	return rs_sched_at(sim, RS_TIME_MAX, fn, obj, arg);
}

static void heap_remove(struct rs_sim *sim, uint32_t i)
{
	RS_ASSERT(i < sim->heap_len);
	struct rs_heap_slot last = sim->heap[--sim->heap_len];
	if (i == sim->heap_len)
		return;
	if (i > 0 && slot_less(&last, &sim->heap[(i - 1) / ARITY]))
		sift_up(sim, i, last);
	else
		sift_down(sim, i, last);
}

/* Drop the stale root left by the event being fired (see root_vacant). */
static inline void settle(struct rs_sim *sim)
{
	if (sim->root_vacant) {
		sim->root_vacant = false;
		heap_remove(sim, 0);
		/* Only here and in a cancel does the heap shrink. */
		if (sim->heap_len <= SMALL_BACK)
			heap_to_small(sim);
	}
}

bool rs_cancel(struct rs_sim *sim, struct rs_event_handle h)
{
	if (!h.ev)
		return false;
	RS_ASSERT(!rs_event_stale(h));
	struct rs_event *ev = h.ev;
	settle(sim);
	if (sim->small) {
		small_remove(sim, ev);
	} else {
		RS_ASSERT(ev->heap_index < sim->heap_len && sim->heap[ev->heap_index].ev == ev);
		heap_remove(sim, ev->heap_index);
	}
	release(sim, ev);
	return true;
}

/* May the next event, at t, fire?  Not past `until` (the clock is left
 * there), nor beyond the backstop against a loop at one instant.  The
 * backstop counts down, in a local of rs_sim_run's (*left), the events
 * that may still fire at this instant: sim->same_instant, counted up,
 * cost a load, an add and a store on every event at the clock's instant. */
static inline bool may_fire(struct rs_sim *sim, rs_time_t t, rs_time_t until, uint64_t *left)
{
	if (t > until) {
		sim->now = until;
		return false;
	}
	if (t != sim->now) {
		*left = sim->same_instant_max;
	} else if (*left == 0) {
		rs_sim_fail(sim, "simulated time does not advance: %llu events at %.9f s "
			    "without the clock moving (a zero-time loop: a device or "
			    "link that takes no time, or a workload that never waits)",
			    (unsigned long long)sim->same_instant_max + 1,
			    (double)sim->now / 1e9);
		return false;
	} else {
		--*left;
	}
	return true;
}

/* rs_sim_run's body, made twice (see there). */
static inline __attribute__((always_inline)) uint64_t run(struct rs_sim *sim, rs_time_t until)
{
	uint64_t fired = 0;
	uint64_t left = sim->same_instant < sim->same_instant_max ?
				sim->same_instant_max - sim->same_instant : 0;
	/* The sorted insertion's sentinel (heap_alloc writes it, nothing
	 * else touches the slot): checked once a run rather than on every
	 * schedule, where it cost three instructions an event. */
	RS_ASSERT(sim->heap[-1].time == SENTINEL_TIME);
	sim->stopping = sim->failed;
	sim->small_cap = sim->small ? SMALL_MAX : 0;
	/* One loop per form of the pending set, so neither pays for the
	 * other's test on every event; a callback may switch the form (a
	 * schedule past SMALL_MAX, a fall to SMALL_BACK), and the outer loop
	 * then goes on with the other. */
	while (sim->heap_len > 0 && !sim->stopping) {
		/* Some events pending, in the sorted form, and no stop (see
		 * rs_sim_stop): one compare, as small_cap is 0 in the heap form,
		 * which it never outgrows, and once the run must stop. */
		while (sim->heap_len - 1 < sim->small_cap) {
			struct rs_heap_slot top = sim->heap[sim->heap_len - 1];
			if (!may_fire(sim, top.time, until, &left))
				goto out;
			struct rs_event *ev = top.ev;
			rs_event_fn *fn = ev->fn;
			void *obj = ev->obj, *arg = ev->arg;
			/* The event and its slot (the last) are free before the
			 * callback, which may reuse both. */
			release(sim, ev);
			sim->heap_len--;
			sim->now = top.time;
			fn(sim, obj, arg);
			fired++;
		}
		while (!sim->small && sim->heap_len > 0 && !sim->stopping) {
			struct rs_heap_slot top = sim->heap[0];
			if (!may_fire(sim, top.time, until, &left))
				goto out;
			struct rs_event *ev = top.ev;
			rs_event_fn *fn = ev->fn;
			void *obj = ev->obj, *arg = ev->arg;
			/* Return the event before calling, so the callback can
			 * reuse it; its heap slot stays until the callback
			 * schedules or returns. */
			release(sim, ev);
			sim->root_vacant = true;
			sim->now = top.time;
			fn(sim, obj, arg);
			settle(sim);
			fired++;
		}
	}
out:
	sim->same_instant = sim->same_instant_max - left;
	/* Schedules after the run take the sorted form again (see
	 * rs_sim_stop). */
	sim->small_cap = sim->small ? SMALL_MAX : 0;
	if (sim->heap_len == 0 && until != RS_TIME_MAX && !sim->stopping && sim->now < until)
		sim->now = until;
	sim->events_fired += fired;
	return fired;
}

/* A run to exhaustion (every run of a scenario) gets a copy of the loops
 * of its own, with RS_TIME_MAX for `until`: may_fire's test of the next
 * time against it, never true, then goes from every event. */
uint64_t rs_sim_run(struct rs_sim *sim, rs_time_t until)
{
	if (until == RS_TIME_MAX)
		return run(sim, RS_TIME_MAX);
	return run(sim, until);
}

/* The stop also closes the sorted form (small_cap 0), which ends
 * rs_sim_run's loop over it after the event being fired with no test of
 * `stopping` on every event.  A schedule meanwhile goes through
 * rs_sched_slow, which still inserts into the sorted form while it has
 * room; rs_sim_run gives the form its cap back. */
void rs_sim_stop(struct rs_sim *sim)
{
	sim->stopping = true;
	sim->small_cap = 0;
}

uint64_t rs_sim_events_out(const struct rs_sim *sim)
{
	return sim->events.capacity - rs_pool_free_count(&sim->events);
}

void rs_sim_fail(struct rs_sim *sim, const char *fmt, ...)
{
	rs_sim_stop(sim);
	if (sim->failed)
		return;
	sim->failed = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sim->failure, sizeof(sim->failure), fmt, ap);
	va_end(ap);
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t rs_rng_derive_seed(uint64_t seed, const char *purpose, uint32_t instance)
{
	/* FNV-1a over the purpose name, then mixed with seed and instance. */
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const char *p = purpose; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	return splitmix64(splitmix64(seed ^ h) + instance);
}

gsl_rng *rs_sim_rng(struct rs_sim *sim, const char *purpose, uint32_t instance)
{
	struct rs_rng_node *node = malloc(sizeof(*node));
	RS_ASSERT(node != NULL);
	/* taus2: fast, small state, passes the usual batteries; plenty for
	 * choosing offsets and service times. */
	node->rng = gsl_rng_alloc(gsl_rng_taus2);
	RS_ASSERT(node->rng != NULL);
	uint64_t s = rs_rng_derive_seed(sim->seed, purpose, instance);
	unsigned long s32 = (unsigned long)(s & 0xffffffffUL);
	if (s32 == 0)
		s32 = 1;
	gsl_rng_set(node->rng, s32);
	node->next = sim->rngs;
	sim->rngs = node;
	return node->rng;
}

/* Two 32-bit draws (the generators used give 32 bits each), keeping only
 * the values below the largest multiple of n.  Out of line, so that the
 * common draw below 2^32 saves none of the registers this loop needs. */
static __attribute__((noinline)) uint64_t uniform_wide(gsl_rng *r, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	for (;;) {
		/* The high half first, in two statements: within one
		 * expression the order of the two draws is unspecified, and
		 * another compiler could take them the other way round. */
		uint64_t hi = gsl_rng_get(r);
		uint64_t x = (hi << 32) ^ (uint64_t)gsl_rng_get(r);
		if (x < limit)
			return x % n;
	}
}

uint64_t rs_rng_uniform_u64(gsl_rng *r, uint64_t n)
{
	RS_ASSERT(n > 0);
	if (n <= 0xffffffffull)
		return gsl_rng_uniform_int(r, (unsigned long)n);
	return uniform_wide(r, n);
}
