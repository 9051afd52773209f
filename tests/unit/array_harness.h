/* A hand-driven array for check_degraded and check_rebuild: requests
 * submitted by hand (or by a closed loop) to an array of `ideal` members
 * with exact service times, every member operation watched through the
 * array's trace hook, and member faults fired at chosen times. */
#ifndef RS_TESTS_ARRAY_HARNESS_H
#define RS_TESTS_ARRAY_HARNESS_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/models.h"
#include "dev/build.h"
#include "raid/map.h"
#include "raid/volume.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

#define AH_MS ((rs_time_t)1000000)
#define AH_MAX_EV 700000
#define AH_MAX_DONE 100000

struct ah_done {
	uint64_t id;
	rs_time_t t_submit, t_done;
	int status;
};

struct ah {
	struct rs_sim *sim;
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *root;
	struct rs_dev *dev;
	struct rs_array_event *ev;
	size_t nev;
	struct ah_done *done;
	size_t ndone;
	/* Closed loop: `left` more requests, qd in flight, until `stop`. */
	uint32_t inflight, qd;
	uint64_t left;
	rs_time_t stop;
	enum rs_op op;
	bool mixed;                   /* alternate reads and writes */
	uint32_t nblk;
	uint64_t range_blk, rng, count;
};

static void ah_event(void *ctx, const struct rs_array_event *ev)
{
	struct ah *h = ctx;
	ck_assert_uint_lt(h->nev, AH_MAX_EV);
	h->ev[h->nev++] = *ev;
}

static struct rs_dev *ah_build(struct ah *h, const char *text)
{
	memset(h, 0, sizeof(*h));
	rs_diag_init(&h->d);
	h->root = rs_yaml_load_string("test.yaml", text, strlen(text), &h->d);
	ck_assert_ptr_nonnull(h->root);
	tu_model_path(&h->mp, &h->d);
	h->sim = rs_sim_new(1);
	struct rs_build b = { .sim = h->sim, .types = rs_tree_types(), .models = &h->mp,
			      .diag = &h->d };
	h->dev = rs_dev_build(&b, h->root, "device", "array");
	h->ev = calloc(AH_MAX_EV, sizeof(*h->ev));
	h->done = calloc(AH_MAX_DONE, sizeof(*h->done));
	h->stop = RS_TIME_MAX;
	h->rng = 88172645463325252ULL;
	ck_assert_msg(h->dev != NULL, "%s", h->d.msg);
	rs_array_set_trace(h->dev, ah_event, h);
	return h->dev;
}

static void ah_free(struct ah *h)
{
	rs_dev_destroy(h->dev);
	rs_sim_free(h->sim);
	rs_model_path_free(&h->mp);
	rs_node_free(h->root);
	free(h->ev);
	free(h->done);
}

static void ah_next(struct ah *h);

static void ah_on_done(struct rs_sim *sim, struct rs_io *io)
{
	struct ah *h = io->done_ctx;
	ck_assert_uint_lt(h->ndone, AH_MAX_DONE);
	h->done[h->ndone++] = (struct ah_done){ io->id, io->t_submit, io->t_done, io->status };
	h->inflight--;
	rs_io_free(sim, io);
	ah_next(h);
}

static void ah_submit(struct ah *h, enum rs_op op, uint64_t lba, uint32_t nblk)
{
	struct rs_io *io = rs_io_new(h->sim, op, lba, nblk, ah_on_done, h);
	h->inflight++;
	rs_dev_submit(h->sim, h->dev, io);
}

static uint64_t ah_rand(struct ah *h)
{
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return h->rng * 0x2545F4914F6CDD1DULL;
}

static void ah_next(struct ah *h)
{
	while (h->left > 0 && h->inflight < h->qd && h->sim->now < h->stop) {
		uint64_t lba = ah_rand(h) % (h->range_blk / h->nblk) * h->nblk;
		enum rs_op op = h->mixed ? (h->count % 3 == 0 ? RS_WRITE : RS_READ) : h->op;
		h->left--;
		h->count++;
		ah_submit(h, op, lba, h->nblk);
	}
}

/* Random requests of nblk blocks over the first range_blk blocks, qd at a
 * time, until n were sent or the clock passed `stop`. */
static void ah_load(struct ah *h, enum rs_op op, bool mixed, uint64_t n, uint32_t qd,
		    uint32_t nblk, uint64_t range_blk, rs_time_t stop)
{
	h->op = op;
	h->mixed = mixed;
	h->left = n;
	h->qd = qd;
	h->nblk = nblk;
	h->range_blk = range_blk;
	h->stop = stop;
	ah_next(h);
}

/* Run to the end; everything completed exactly once. */
static void ah_run(struct ah *h)
{
	rs_sim_run(h->sim, RS_TIME_MAX);
	ck_assert_uint_eq(h->inflight, 0);
	tu_check_conservation(h->sim);
	ck_assert_uint_eq(h->dev->submitted, h->dev->completed);
}

static void ah_fire_fail(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_fail_member(sim, obj, (uint32_t)(uintptr_t)arg);
}

static inline void ah_fail_at(struct ah *h, rs_time_t t, uint32_t m)
{
	rs_sched_at(h->sim, t, ah_fire_fail, h->dev, (void *)(uintptr_t)m);
}

static const struct rs_array_counters *ah_c(const struct ah *h)
{
	return rs_array_counters(h->dev);
}

/* Events of the member operations finished so far, from index `from`:
 * a bit per member touched. */
static inline uint64_t ah_members_touched(const struct ah *h, size_t from)
{
	uint64_t mask = 0;
	for (size_t i = from; i < h->nev; i++)
		mask |= 1ull << h->ev[i].member;
	return mask;
}

#endif
