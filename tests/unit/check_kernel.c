/* Unit tests for src/kernel: event order (time, then scheduling order),
 * cancellation anywhere in the heap, run-until and stop, a long random
 * schedule/cancel/fire sequence checked against a sorted-array model, pool
 * reuse (memory bounded by the peak in flight, not the run length) and the
 * random-stream derivation; the run failures (time that does not
 * advance, a clock overflow) that end a run instead of hanging it. */
#include <check.h>
#include <signal.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "io/io.h"
#include "kernel/pool.h"
#include "kernel/sim.h"
#include "testutil.h"

/* rs_rng_derive_seed of the first implementation (FNV-1a + splitmix64). */
#define PIN_OFFSETS_1_0 UINT64_C(0xb78503123f1c3176)
#define PIN_SERVICE_42_3 UINT64_C(0xf26cc364b45ca33a)

/* A log of fired events: each event's obj is its id. */
struct firelog {
	size_t n, cap;
	uintptr_t *id;
	rs_time_t *when;
};

static void log_init(struct firelog *l, size_t cap)
{
	l->n = 0;
	l->cap = cap;
	l->id = calloc(cap, sizeof(*l->id));
	l->when = calloc(cap, sizeof(*l->when));
	ck_assert_ptr_nonnull(l->id);
	ck_assert_ptr_nonnull(l->when);
}

static void log_free(struct firelog *l)
{
	free(l->id);
	free(l->when);
}

static void ev_log(struct rs_sim *sim, void *obj, void *arg)
{
	struct firelog *l = arg;
	ck_assert_uint_lt(l->n, l->cap);
	l->id[l->n] = (uintptr_t)obj;
	l->when[l->n] = rs_now(sim);
	l->n++;
}

static void ev_log_stop(struct rs_sim *sim, void *obj, void *arg)
{
	ev_log(sim, obj, arg);
	rs_sim_stop(sim);
}

/* Many events on few distinct times, scheduled in a shuffled order: they
 * must come out sorted by time, and among equal times in the order they
 * were scheduled. */
START_TEST(order_time_then_seq)
{
	enum { N = 5000 };
	struct rs_sim *sim = rs_sim_new(1);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 7);
	static rs_time_t t[N];
	struct firelog l;
	log_init(&l, N);
	for (uintptr_t i = 0; i < N; i++) {
		t[i] = (rs_time_t)gsl_rng_uniform_int(r, 50);   /* heavy ties */
		rs_sched_at(sim, t[i], ev_log, (void *)i, &l);
	}
	ck_assert_uint_eq(rs_sim_pending(sim), N);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), N);
	ck_assert_uint_eq(l.n, N);
	for (size_t k = 0; k < N; k++) {
		ck_assert_int_eq(l.when[k], t[l.id[k]]);
		if (k > 0) {
			ck_assert_int_le(l.when[k - 1], l.when[k]);
			if (l.when[k - 1] == l.when[k])
				ck_assert_uint_lt(l.id[k - 1], l.id[k]);
		}
	}
	ck_assert_int_eq(rs_now(sim), 49);
	ck_assert_uint_eq(sim->events_fired, N);
	ck_assert_uint_eq(rs_sim_events_out(sim), 0);
	log_free(&l);
	gsl_rng_free(r);
	rs_sim_free(sim);
}
END_TEST

/* An event scheduled from a callback for "now" runs after the events that
 * were already due at now (it has a later sequence number). */
static void ev_sched_now(struct rs_sim *sim, void *obj, void *arg)
{
	ev_log(sim, obj, arg);
	if ((uintptr_t)obj == 0)
		rs_sched(sim, 0, ev_log, (void *)99, arg);
}

START_TEST(order_zero_delay_from_callback)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 8);
	rs_sched_at(sim, 10, ev_sched_now, (void *)0, &l);
	rs_sched_at(sim, 10, ev_log, (void *)1, &l);
	rs_sched_at(sim, 11, ev_log, (void *)2, &l);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_uint_eq(l.id[0], 0);
	ck_assert_uint_eq(l.id[1], 1);
	ck_assert_uint_eq(l.id[2], 99);
	ck_assert_int_eq(l.when[2], 10);
	ck_assert_uint_eq(l.id[3], 2);
	log_free(&l);
	rs_sim_free(sim);
}
END_TEST

START_TEST(cancel_positions)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 16);
	struct rs_event_handle ev[7];
	for (uintptr_t i = 0; i < 7; i++)
		ev[i] = rs_sched_at(sim, (rs_time_t)(10 * (i + 1)), ev_log, (void *)i, &l);
	ck_assert(!rs_cancel(sim, RS_NO_EVENT));
	ck_assert(rs_cancel(sim, ev[0]));     /* head */
	ck_assert(rs_cancel(sim, ev[3]));     /* middle */
	ck_assert(rs_cancel(sim, ev[6]));     /* last */
	ck_assert_uint_eq(rs_sim_pending(sim), 4);
	ck_assert_uint_eq(rs_sim_events_out(sim), 4);
	/* Re-schedule after cancel: the freed slot is reused, and the new event
	 * fires at its own time, not the cancelled one's. */
	struct rs_event_handle again = rs_sched_at(sim, 35, ev_log, (void *)33, &l);
	ck_assert_ptr_nonnull(again.ev);
	ck_assert_uint_eq(rs_sim_events_out(sim), 5);
	/* Equal time to a cancelled event: still fires. */
	rs_sched_at(sim, 70, ev_log, (void *)66, &l);
	rs_sim_run(sim, RS_TIME_MAX);
	const uintptr_t want[] = { 1, 2, 33, 4, 5, 66 };
	const rs_time_t want_t[] = { 20, 30, 35, 50, 60, 70 };
	ck_assert_uint_eq(l.n, 6);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_uint_eq(l.id[i], want[i]);
		ck_assert_int_eq(l.when[i], want_t[i]);
	}
	ck_assert_uint_eq(rs_sim_events_out(sim), 0);
	log_free(&l);
	rs_sim_free(sim);
}
END_TEST

/* A handle kept after its event fired, or was cancelled, is stale even
 * when the event's memory has been handed to a new event: cancelling it
 * would remove the new one.  rs_cancel asserts on rs_event_stale. */
START_TEST(stale_handle_detected)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 8);
	struct rs_event_handle fired = rs_sched_at(sim, 10, ev_log, (void *)1, &l);
	ck_assert(!rs_event_stale(fired));
	ck_assert(!rs_event_stale(RS_NO_EVENT));
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert(rs_event_stale(fired));
	/* The pool hands the same memory out again. */
	struct rs_event_handle next = rs_sched_at(sim, 20, ev_log, (void *)2, &l);
	ck_assert_ptr_eq(next.ev, fired.ev);
	ck_assert(rs_event_stale(fired));
	ck_assert(!rs_event_stale(next));
	/* Cancelled, then reused: the cancelled handle is stale too. */
	ck_assert(rs_cancel(sim, next));
	ck_assert(rs_event_stale(next));
	struct rs_event_handle third = rs_sched_at(sim, 30, ev_log, (void *)3, &l);
	ck_assert_ptr_eq(third.ev, next.ev);
	ck_assert(rs_event_stale(next) && rs_event_stale(fired));
	ck_assert(!rs_event_stale(third));
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.id[1], 3);
	log_free(&l);
	rs_sim_free(sim);
}
END_TEST

/* Cancelling a stale handle is our bug, not bad input: the assertion
 * aborts (run only where Check forks, so the abort stays in the child). */
START_TEST(stale_cancel_aborts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 8);
	struct rs_event_handle fired = rs_sched_at(sim, 10, ev_log, (void *)1, &l);
	rs_sim_run(sim, RS_TIME_MAX);
	rs_sched_at(sim, 20, ev_log, (void *)2, &l);
	rs_cancel(sim, fired);
}
END_TEST

/* A negative delay is our bug: rs_sched has no assertion of its own for it
 * and leaves it to rs_sched_at's (the event would lie before now), in the
 * few-events form (_i 0) and the heap form (_i 1) alike. */
START_TEST(negative_delay_aborts)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 64);
	rs_sched_at(sim, 100, ev_log, (void *)1, &l);
	rs_sim_run(sim, 50);
	for (int k = 0; k < (_i ? 40 : 2); k++)
		rs_sched(sim, 1000 + k, ev_log, (void *)2, &l);
	ck_assert_int_eq(sim->small, !_i);
	rs_sched(sim, -1, ev_log, (void *)3, &l);
}
END_TEST

/* rs_rng_uniform_u64 below 2^32 is gsl_rng_uniform_int's draw, and above
 * it the two-draw rejection (its own function), both the same draws as a
 * reference worked out here from an equally seeded generator. */
START_TEST(uniform_u64_draws)
{
	const uint64_t ns[] = { 1, 7, 1000, 0xffffffffull, 0x100000000ull, 3000000000000ull,
				UINT64_MAX };
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		gsl_rng *a = gsl_rng_alloc(gsl_rng_taus2), *b = gsl_rng_alloc(gsl_rng_taus2);
		gsl_rng_set(a, 99);
		gsl_rng_set(b, 99);
		uint64_t n = ns[i];
		for (int k = 0; k < 1000; k++) {
			uint64_t got = rs_rng_uniform_u64(a, n), want;
			if (n <= 0xffffffffull) {
				want = gsl_rng_uniform_int(b, (unsigned long)n);
			} else {
				uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
				do {
					uint64_t hi = gsl_rng_get(b);
					x = (hi << 32) ^ gsl_rng_get(b);
				} while (x >= limit);
				want = x % n;
			}
			ck_assert_uint_eq(got, want);
			ck_assert_uint_lt(got, n);
		}
		gsl_rng_free(a);
		gsl_rng_free(b);
	}
}
END_TEST

/* A callback cancels a later event: the classic timeout pattern. */
static struct rs_event_handle victim;
static void ev_cancel_victim(struct rs_sim *sim, void *obj, void *arg)
{
	ev_log(sim, obj, arg);
	ck_assert(rs_cancel(sim, victim));
	victim = RS_NO_EVENT;
}

START_TEST(cancel_from_callback)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 8);
	rs_sched_at(sim, 5, ev_cancel_victim, (void *)1, &l);
	victim = rs_sched_at(sim, 6, ev_log, (void *)2, &l);
	rs_sched_at(sim, 7, ev_log, (void *)3, &l);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 2);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.id[1], 3);
	log_free(&l);
	rs_sim_free(sim);
}
END_TEST

START_TEST(run_until)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct firelog l;
	log_init(&l, 8);
	rs_sched_at(sim, 10, ev_log, (void *)1, &l);
	rs_sched_at(sim, 20, ev_log, (void *)2, &l);
	rs_sched_at(sim, 25, ev_log, (void *)3, &l);  /* exactly at `until`: fires */
	rs_sched_at(sim, 30, ev_log, (void *)4, &l);
	ck_assert_uint_eq(rs_sim_run(sim, 25), 3);
	ck_assert_int_eq(rs_now(sim), 25);
	ck_assert_uint_eq(rs_sim_pending(sim), 1);
	/* Nothing due: the clock still moves to `until`. */
	ck_assert_uint_eq(rs_sim_run(sim, 28), 0);
	ck_assert_int_eq(rs_now(sim), 28);
	ck_assert_uint_eq(rs_sim_pending(sim), 1);
	/* A delay is relative to the advanced clock. */
	rs_sched(sim, 1, ev_log, (void *)5, &l);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 2);
	ck_assert_uint_eq(l.id[3], 5);
	ck_assert_int_eq(l.when[3], 29);
	ck_assert_int_eq(rs_now(sim), 30);
	/* An empty set with a finite `until` also advances the clock... */
	ck_assert_uint_eq(rs_sim_run(sim, 100), 0);
	ck_assert_int_eq(rs_now(sim), 100);
	/* ...but running to exhaustion does not jump to the end of time. */
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 0);
	ck_assert_int_eq(rs_now(sim), 100);
	log_free(&l);
	rs_sim_free(sim);
}
END_TEST

static void ev_count_stop(struct rs_sim *sim, void *obj, void *arg)
{
	int *n = arg;
	if (++*n == 3)
		rs_sim_stop(sim);
}

START_TEST(stop)
{
	struct rs_sim *sim = rs_sim_new(1);
	int n = 0;
	for (int i = 1; i <= 6; i++)
		rs_sched_at(sim, i * 100, ev_count_stop, NULL, &n);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 3);
	ck_assert_int_eq(rs_now(sim), 300);
	ck_assert_uint_eq(rs_sim_pending(sim), 3);
	/* A stop does not stick: the next run goes on. */
	ck_assert_uint_eq(rs_sim_run(sim, 450), 1);
	ck_assert_int_eq(rs_now(sim), 450);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 2);
	ck_assert_int_eq(n, 6);
	ck_assert_uint_eq(sim->events_fired, 6);
	rs_sim_free(sim);
}
END_TEST

/* A stop closes the sorted form for the rest of the run (rs_sim_stop):
 * the callback that stops may still schedule, in either form (_i 0: a
 * few, which stay sorted; _i 1: past the form's cap, into the heap); the
 * run returns after it, the next run fires what was scheduled in order,
 * and a stop before a run does not outlast that run's start. */
static void order_log(struct rs_sim *sim, void *obj, void *arg);

static void stop_and_schedule(struct rs_sim *sim, void *obj, void *arg)
{
	rs_sim_stop(sim);
	int k = (int)(intptr_t)arg;
	for (int i = 0; i < k; i++)
		rs_sched(sim, 10 * (k - i), order_log, obj, (void *)(intptr_t)('a' + k - 1 - i));
}

START_TEST(stop_then_schedule)
{
	char log[64] = "";
	int k = _i ? 40 : 3;
	struct rs_sim *sim = rs_sim_new(1);
	rs_sched_at(sim, 5, stop_and_schedule, log, (void *)(intptr_t)k);
	rs_sched_at(sim, 7, order_log, log, (void *)'!');
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 1);
	ck_assert_int_eq(rs_now(sim), 5);
	ck_assert_uint_eq(rs_sim_pending(sim), (size_t)k + 1);
	ck_assert_int_eq(sim->small, !_i);
	ck_assert_str_eq(log, "");
	/* Stopped before the run: the run starts anew all the same. */
	rs_sim_stop(sim);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), (uint64_t)k + 1);
	char want[64] = "!";
	for (int i = 0; i < k; i++)
		want[i + 1] = (char)('a' + i);
	want[k + 1] = '\0';
	ck_assert_str_eq(log, want);
	/* And the sorted form takes new events inline again. */
	ck_assert(sim->small);
	ck_assert_uint_gt(sim->small_cap, 0);
	rs_sim_free(sim);
}
END_TEST

/* A run to exhaustion has a copy of rs_sim_run's loops of its own
 * (until = RS_TIME_MAX); a run to a bound beyond every event goes through
 * the general one.  Both fire the same events at the same times, in both
 * forms of the event set: callbacks that schedule a random number of
 * further events (up to past the sorted form's cap, and back), with many
 * ties and some at the instant. */
struct chain {
	gsl_rng *r;
	struct firelog *l;
	uint32_t next_id, budget;
};

static void chain_fire(struct rs_sim *sim, void *obj, void *arg)
{
	struct chain *c = arg;
	ev_log(sim, obj, c->l);
	uint32_t k = (uint32_t)gsl_rng_uniform_int(c->r, 5);
	for (uint32_t i = 0; i < k && c->budget > 0; i++, c->budget--)
		rs_sched(sim, (rs_time_t)gsl_rng_uniform_int(c->r, 4) * 10, chain_fire,
			 (void *)(uintptr_t)c->next_id++, c);
}

static void chain_run(rs_time_t until, struct firelog *l)
{
	struct rs_sim *sim = rs_sim_new(1);
	struct chain c = { gsl_rng_alloc(gsl_rng_taus2), l, 0, 20000 };
	gsl_rng_set(c.r, 11);
	for (int i = 0; i < 3; i++)
		rs_sched(sim, i, chain_fire, (void *)(uintptr_t)c.next_id++, &c);
	rs_sim_run(sim, until);
	ck_assert_uint_eq(rs_sim_pending(sim), 0);
	gsl_rng_free(c.r);
	rs_sim_free(sim);
}

START_TEST(run_to_exhaustion_matches_bounded_run)
{
	struct firelog a, b;
	log_init(&a, 30000);
	log_init(&b, 30000);
	chain_run(RS_TIME_MAX, &a);
	chain_run(RS_TIME_MAX - 1, &b);
	ck_assert_uint_gt(a.n, 20000);
	ck_assert_uint_eq(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_uint_eq(a.id[i], b.id[i]);
		ck_assert_int_eq(a.when[i], b.when[i]);
	}
	log_free(&a);
	log_free(&b);
}
END_TEST

/* The reference model: pending (time, seq, id), kept sorted. */
struct ref_ev {
	rs_time_t t;
	uint64_t seq;
	uint32_t id;
};

static int ref_cmp(const struct ref_ev *a, const struct ref_ev *b)
{
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Random schedules, cancels and firings checked against the model.  With
 * few_max > 0 the set stays at or below few_max pending, times drawn from
 * a narrow span (many ties), so it keeps crossing between the kernel's
 * sorted form for few events and its heap. */
static void random_against(unsigned long seed, size_t few_max, size_t *peak_out,
			   size_t *fired_out, size_t *cancelled_out);

START_TEST(random_against_model)
{
	size_t peak, fired, cancelled;
	random_against(2024, 0, &peak, &fired, &cancelled);
	/* The mix really exercised everything. */
	ck_assert_uint_gt(peak, 2000);
	ck_assert_uint_gt(fired, 10000);
	ck_assert_uint_gt(cancelled, 10000);
}
END_TEST

START_TEST(random_against_model_few)
{
	size_t peak, fired, cancelled;
	random_against(7, 24, &peak, &fired, &cancelled);
	ck_assert_uint_eq(peak, 24);
	ck_assert_uint_gt(fired, 10000);
	ck_assert_uint_gt(cancelled, 10000);
}
END_TEST

static void random_against(unsigned long seed, size_t few_max, size_t *peak_out,
			   size_t *fired_out, size_t *cancelled_out)
{
	enum { OPS = 100000, MAXID = OPS };
	struct rs_sim *sim = rs_sim_new(1);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, seed);
	struct ref_ev *ref = calloc(MAXID, sizeof(*ref));
	struct rs_event_handle *handle = calloc(MAXID, sizeof(*handle));
	ck_assert_ptr_nonnull(ref);
	ck_assert_ptr_nonnull(handle);
	size_t nref = 0;
	uint32_t next_id = 0;
	uint64_t seq = 0;
	struct firelog l;
	log_init(&l, OPS);
	size_t peak = 0, fired = 0, cancelled = 0;

	for (int op = 0; op < OPS; op++) {
		/* Bias towards scheduling in phases so the set both grows into
		 * the thousands (heap growth) and drains to empty. */
		double p_sched = (op / 10000) % 2 == 0 ? 0.6 : 0.35;
		if (few_max)  /* drift up to the cap and back down to empty */
			p_sched = (op / 200) % 2 == 0 ? 0.65 : 0.3;
		double u = gsl_rng_uniform(r);
		if ((u < p_sched && (few_max == 0 || nref < few_max)) || nref == 0) {
			unsigned long span = few_max ? 20 : 1000;
			struct ref_ev e = {
				rs_now(sim) + (rs_time_t)gsl_rng_uniform_int(r, span), seq++,
				next_id++ };
			handle[e.id] = rs_sched_at(sim, e.t, ev_log_stop, (void *)(uintptr_t)e.id, &l);
			size_t pos = nref;
			while (pos > 0 && ref_cmp(&ref[pos - 1], &e) > 0)
				pos--;
			memmove(&ref[pos + 1], &ref[pos], (nref - pos) * sizeof(*ref));
			ref[pos] = e;
			nref++;
		} else if (u < p_sched + 0.2) {
			size_t k = gsl_rng_uniform_int(r, nref);
			ck_assert(rs_cancel(sim, handle[ref[k].id]));
			handle[ref[k].id] = RS_NO_EVENT;
			memmove(&ref[k], &ref[k + 1], (nref - k - 1) * sizeof(*ref));
			nref--;
			cancelled++;
		} else {
			/* Fire exactly one: every callback stops the run. */
			size_t before = l.n;
			ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 1);
			ck_assert_uint_eq(l.n, before + 1);
			ck_assert_uint_eq(l.id[before], ref[0].id);
			ck_assert_int_eq(rs_now(sim), ref[0].t);
			handle[ref[0].id] = RS_NO_EVENT;
			memmove(&ref[0], &ref[1], (nref - 1) * sizeof(*ref));
			nref--;
			fired++;
		}
		ck_assert_uint_eq(rs_sim_pending(sim), nref);
		/* The pool's side (a walk of its free list) now and then. */
		if (op % 1024 == 0)
			ck_assert_uint_eq(rs_sim_events_out(sim), nref);
		if (nref > peak)
			peak = nref;
	}
	/* Drain: the rest come out in model order. */
	while (nref > 0) {
		size_t before = l.n;
		ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 1);
		ck_assert_uint_eq(l.id[before], ref[0].id);
		ck_assert_int_eq(rs_now(sim), ref[0].t);
		memmove(&ref[0], &ref[1], (nref - 1) * sizeof(*ref));
		nref--;
	}
	ck_assert_uint_eq(rs_sim_pending(sim), 0);
	ck_assert_uint_eq(rs_sim_events_out(sim), 0);
	*peak_out = peak;
	*fired_out = fired;
	*cancelled_out = cancelled;
	free(ref);
	free(handle);
	log_free(&l);
	gsl_rng_free(r);
	rs_sim_free(sim);
}

START_TEST(pool_reuse)
{
	struct rs_pool p;
	rs_pool_init(&p, 3, 4);       /* tiny objects still hold the free link */
	ck_assert_uint_ge(p.obj_size, sizeof(void *));
	ck_assert_uint_eq(p.obj_size % sizeof(void *), 0);
	void *o[10];
	for (int i = 0; i < 10; i++) {
		o[i] = rs_pool_get(&p);
		memset(o[i], 0xa5, 3);
		for (int j = 0; j < i; j++)
			ck_assert_ptr_ne(o[i], o[j]);
	}
	ck_assert_uint_eq(p.live, 10);
	ck_assert_uint_eq(p.capacity, 12);
	for (int i = 0; i < 10; i++)
		rs_pool_put(&p, o[i]);
	ck_assert_uint_eq(p.live, 0);
	/* Reused objects come back zeroed, without growing the pool. */
	for (int i = 0; i < 10; i++) {
		unsigned char *b = rs_pool_get(&p);
		for (int k = 0; k < 3; k++)
			ck_assert_uint_eq(b[k], 0);
		o[i] = b;
	}
	ck_assert_uint_eq(p.capacity, 12);
	for (int i = 0; i < 10; i++)
		rs_pool_put(&p, o[i]);
	rs_pool_destroy(&p);
}
END_TEST

/* A steady-state loop: a fixed number of event chains, each firing and
 * rescheduling itself, and one request per firing created and completed.
 * Pools must stop growing after the warm-up: memory is bounded by what is
 * in flight, not by how long the run is. */
static void io_done_free(struct rs_sim *sim, struct rs_io *io) { rs_io_free(sim, io); }

static void ev_chain(struct rs_sim *sim, void *obj, void *arg)
{
	uint64_t *left = arg;
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, io_done_free, NULL);
	rs_io_complete(sim, io, 0);
	if (*left > 0) {
		--*left;
		rs_sched(sim, 1 + (rs_time_t)((uintptr_t)obj % 97), ev_chain, obj, arg);
	}
}

START_TEST(pool_steady_state)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t left = 10000;
	for (uintptr_t i = 0; i < 3000; i++)
		rs_sched(sim, (rs_time_t)i, ev_chain, (void *)i, &left);
	rs_sim_run(sim, RS_TIME_MAX);
	uint64_t cap_ev = sim->events.capacity, cap_io = sim->ios.capacity;
	uint32_t cap_heap = sim->heap_cap;
	left = 2000000;
	for (uintptr_t i = 0; i < 3000; i++)
		rs_sched(sim, (rs_time_t)i, ev_chain, (void *)i, &left);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(sim->events.capacity, cap_ev);
	ck_assert_uint_eq(sim->ios.capacity, cap_io);
	ck_assert_uint_eq(sim->heap_cap, cap_heap);
	ck_assert_uint_ge(cap_ev, 3000);
	ck_assert_uint_le(cap_ev, 3000 + 1024);
	ck_assert_uint_eq(sim->events_fired, 2 * 3000 + 10000 + 2000000);
	tu_check_conservation(sim);
	ck_assert_uint_eq(rs_io_counters(sim)->created, 2 * 3000 + 10000 + 2000000);
	rs_sim_free(sim);
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

START_TEST(rng_derive)
{
	uint64_t a = rs_rng_derive_seed(1, "offsets", 0);
	ck_assert_uint_ne(a, rs_rng_derive_seed(1, "sizes", 0));
	ck_assert_uint_ne(a, rs_rng_derive_seed(1, "offsets", 1));
	ck_assert_uint_ne(a, rs_rng_derive_seed(2, "offsets", 0));
	ck_assert_uint_ne(rs_rng_derive_seed(1, "service", 0),
			  rs_rng_derive_seed(1, "service", 1));
	/* Pinned: a change here silently changes every published result, so
	 * it must be deliberate. */
	ck_assert_uint_eq(rs_rng_derive_seed(1, "offsets", 0), PIN_OFFSETS_1_0);
	ck_assert_uint_eq(rs_rng_derive_seed(42, "service", 3), PIN_SERVICE_42_3);
	/* Pure function. */
	ck_assert_uint_eq(rs_rng_derive_seed(42, "service", 3), rs_rng_derive_seed(42, "service", 3));
	/* Many instances of one purpose: no collisions among the low 32 bits
	 * the generator is seeded with. */
	enum { NI = 4096 };
	static uint32_t lo[NI];
	for (uint32_t i = 0; i < NI; i++)
		lo[i] = (uint32_t)rs_rng_derive_seed(7, "offsets", i);
	qsort(lo, NI, sizeof(lo[0]), cmp_u32);
	for (uint32_t i = 1; i < NI; i++)
		ck_assert_uint_ne(lo[i - 1], lo[i]);
}
END_TEST

START_TEST(rng_streams)
{
	struct rs_sim *s1 = rs_sim_new(99), *s2 = rs_sim_new(99), *s3 = rs_sim_new(100);
	gsl_rng *a = rs_sim_rng(s1, "arrivals", 0);
	gsl_rng *other = rs_sim_rng(s1, "service", 0);
	gsl_rng *b = rs_sim_rng(s2, "arrivals", 0);
	gsl_rng *c = rs_sim_rng(s3, "arrivals", 0);
	int same_c = 0, same_other = 0;
	for (int i = 0; i < 1000; i++) {
		unsigned long x = gsl_rng_get(a), y = gsl_rng_get(b), z = gsl_rng_get(c);
		/* Drawing from another purpose must not disturb this one. */
		if (i % 3 == 0)
			(void)gsl_rng_get(other);
		ck_assert_uint_eq(x, y);
		same_c += x == z;
		same_other += x == gsl_rng_get(other);
	}
	ck_assert_int_lt(same_c, 3);
	ck_assert_int_lt(same_other, 3);
	rs_sim_free(s1);
	rs_sim_free(s2);
	rs_sim_free(s3);
}
END_TEST

/* ---- runs that fail instead of hanging or aborting -------------------- */

/* A callback that schedules itself with no delay: time never moves. */
static void ev_spin(struct rs_sim *sim, void *obj, void *arg)
{
	(*(uint64_t *)obj)++;
	rs_sched(sim, 0, ev_spin, obj, arg);
}

START_TEST(same_instant_backstop)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t fired = 0;
	ck_assert_uint_eq(sim->same_instant_max, RS_SIM_SAME_INSTANT_MAX);
	sim->same_instant_max = 10000;
	rs_sched(sim, 5 * RS_MS, ev_spin, &fired, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert(sim->failed);
	ck_assert_uint_eq(fired, 10001);
	ck_assert_int_eq(rs_now(sim), 5 * RS_MS);
	ck_assert_msg(strstr(sim->failure, "simulated time does not advance: 10001 events at "
					   "0.005000000 s"), "%s", sim->failure);
	/* A failed sim stays stopped. */
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 0);
	ck_assert_uint_eq(fired, 10001);
	rs_sim_free(sim);
}
END_TEST

/* Many events at one instant followed by progress is fine: the count
 * restarts whenever the clock moves. */
static void ev_step(struct rs_sim *sim, void *obj, void *arg)
{
	uint64_t *n = obj;
	if (++*n < 100000)
		rs_sched(sim, *n % 50 ? 0 : 1, ev_step, obj, arg);
}

START_TEST(same_instant_resets_when_time_moves)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t n = 0;
	sim->same_instant_max = 100;
	rs_sched(sim, 0, ev_step, &n, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert(!sim->failed);
	ck_assert_uint_eq(n, 100000);
	rs_sim_free(sim);
}
END_TEST

START_TEST(fail_keeps_first_message)
{
	struct rs_sim *sim = rs_sim_new(1);
	rs_sim_fail(sim, "first %d", 1);
	rs_sim_fail(sim, "second %d", 2);
	ck_assert(sim->failed);
	ck_assert_str_eq(sim->failure, "first 1");
	rs_sim_free(sim);
}
END_TEST

static void ev_count(struct rs_sim *sim, void *obj, void *arg)
{
	(void)sim, (void)arg;
	(*(uint64_t *)obj)++;
}

/* A delay past what the clock holds fails the run; the event never fires. */
START_TEST(clock_overflow_fails)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t fired = 0;
	rs_sched(sim, RS_SEC, ev_count, &fired, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(fired, 1);
	rs_sched(sim, RS_TIME_MAX - 10, ev_count, &fired, NULL);
	ck_assert(sim->failed);
	ck_assert_msg(strstr(sim->failure, "simulated time overflows"), "%s", sim->failure);
	rs_sim_run(sim, RS_TIME_MAX);
	ck_assert_uint_eq(fired, 1);
	rs_sim_free(sim);
}
END_TEST

/* The overflow test is the add's own: a delay that lands exactly on
 * RS_TIME_MAX is kept, one nanosecond more fails the run. */
START_TEST(clock_overflow_boundary)
{
	struct rs_sim *sim = rs_sim_new(1);
	uint64_t fired = 0;
	rs_sched(sim, RS_SEC, ev_count, &fired, NULL);
	rs_sim_run(sim, RS_TIME_MAX);
	rs_sched(sim, RS_TIME_MAX - RS_SEC, ev_count, &fired, NULL);
	ck_assert(!sim->failed);
	ck_assert_uint_eq(rs_sim_pending(sim), 1);
	rs_sched(sim, RS_TIME_MAX - RS_SEC + 1, ev_count, &fired, NULL);
	ck_assert(sim->failed);
	ck_assert_msg(strstr(sim->failure, "simulated time overflows"), "%s", sim->failure);
	rs_sim_free(sim);
}
END_TEST

START_TEST(ns_from_double)
{
	ck_assert_int_eq(rs_ns_from_double(0.0), 0);
	ck_assert_int_eq(rs_ns_from_double(-5.0), 0);
	ck_assert_int_eq(rs_ns_from_double(NAN), 0);
	ck_assert_int_eq(rs_ns_from_double(1.5), 2);
	ck_assert_int_eq(rs_ns_from_double(1e20), RS_TIME_MAX);
	ck_assert_int_eq(rs_ns_from_double(INFINITY), RS_TIME_MAX);
	ck_assert_int_eq(rs_ns_from_double(123456789.4), 123456789);
}
END_TEST

static void order_log(struct rs_sim *sim, void *obj, void *arg)
{
	char *log = obj;
	size_t n = strlen(log);
	log[n] = (char)(uintptr_t)arg;
	log[n + 1] = '\0';
}

/* The few-events form's insertion stops at a sentinel before its first
 * slot, later than every time: events at RS_TIME_MAX itself still fire in
 * the order they were scheduled, after every other. */
START_TEST(order_at_time_max)
{
	char log[16] = "";
	struct rs_sim *sim = rs_sim_new(1);
	rs_sched_at(sim, RS_TIME_MAX, order_log, log, (void *)'c');
	rs_sched_at(sim, RS_TIME_MAX - 1, order_log, log, (void *)'b');
	rs_sched_at(sim, RS_TIME_MAX, order_log, log, (void *)'d');
	rs_sched_at(sim, 5, order_log, log, (void *)'a');
	rs_sched_at(sim, RS_TIME_MAX, order_log, log, (void *)'e');
	rs_sched_at(sim, 0, order_log, log, (void *)'0');
	ck_assert(sim->small);
	ck_assert_uint_eq(rs_sim_run(sim, RS_TIME_MAX), 6);
	ck_assert_str_eq(log, "0abcde");
	rs_sim_free(sim);
}
END_TEST

/* The sentinel is checked once a run, not on every schedule: a run that
 * finds it overwritten aborts before firing anything. */
START_TEST(sentinel_checked_by_run)
{
	struct rs_sim *sim = rs_sim_new(1);
	char log[4] = "";
	rs_sched_at(sim, 5, order_log, log, (void *)'a');
	sim->heap[-1].time = 7;
	rs_sim_run(sim, RS_TIME_MAX);
}
END_TEST

static Suite *kernel_suite(void)
{
	Suite *s = suite_create("kernel");
	TCase *tc = tcase_create("events");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, order_time_then_seq);
	tcase_add_test(tc, order_zero_delay_from_callback);
	tcase_add_test(tc, cancel_positions);
	tcase_add_test(tc, cancel_from_callback);
	tcase_add_test(tc, stale_handle_detected);
	/* The abort must happen in a child of Check's; CK_FORK=no runs the
	 * tests in this process. */
	const char *fork_mode = getenv("CK_FORK");
	if (!fork_mode || strcmp(fork_mode, "no") != 0)
		tcase_add_test_raise_signal(tc, stale_cancel_aborts, SIGABRT);
	if (!fork_mode || strcmp(fork_mode, "no") != 0)
		tcase_add_test_raise_signal(tc, sentinel_checked_by_run, SIGABRT);
	if (!fork_mode || strcmp(fork_mode, "no") != 0)
		tcase_add_loop_test_raise_signal(tc, negative_delay_aborts, SIGABRT, 0, 2);
	tcase_add_test(tc, run_until);
	tcase_add_test(tc, stop);
	tcase_add_test(tc, run_to_exhaustion_matches_bounded_run);
	tcase_add_loop_test(tc, stop_then_schedule, 0, 2);
	tcase_add_test(tc, random_against_model);
	tcase_add_test(tc, random_against_model_few);
	tcase_add_test(tc, order_at_time_max);
	tcase_add_test(tc, uniform_u64_draws);
	suite_add_tcase(s, tc);
	tc = tcase_create("pool");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pool_reuse);
	tcase_add_test(tc, pool_steady_state);
	suite_add_tcase(s, tc);
	tc = tcase_create("failures");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, same_instant_backstop);
	tcase_add_test(tc, same_instant_resets_when_time_moves);
	tcase_add_test(tc, fail_keeps_first_message);
	tcase_add_test(tc, clock_overflow_fails);
	tcase_add_test(tc, clock_overflow_boundary);
	tcase_add_test(tc, ns_from_double);
	suite_add_tcase(s, tc);
	tc = tcase_create("rng");
	tcase_add_test(tc, rng_derive);
	tcase_add_test(tc, rng_streams);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kernel_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
