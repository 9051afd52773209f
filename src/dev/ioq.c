#include "dev/ioq.h"

#include <string.h>

#include "kernel/assert.h"

static struct rs_io *fifo_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	return q->head;
}

const struct rs_ioq_policy rs_ioq_fifo = { "fifo", fifo_pick };

/* C-LOOK on block addresses: the lowest address at or above the last one
 * dispatched, else the lowest of all (one sweep up, then back to the
 * start), ties to the older.  ctx is the uint64_t that holds the last
 * dispatched address. */
static struct rs_io *elevator_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	uint64_t *last = ctx;
	struct rs_io *up = NULL, *low = NULL;
	for (struct rs_io *io = q->head; io; io = io->qnext) {
		if (io->lba >= *last && (!up || io->lba < up->lba))
			up = io;
		if (!low || io->lba < low->lba)
			low = io;
	}
	struct rs_io *pick = up ? up : low;
	*last = pick->lba;
	return pick;
}

const struct rs_ioq_policy rs_ioq_elevator = { "elevator", elevator_pick };

static const struct rs_ioq_policy *const policies[] = { &rs_ioq_fifo, &rs_ioq_elevator };

const struct rs_ioq_policy *rs_ioq_policy_find(const char *name)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

void rs_ioq_init(struct rs_ioq *q, uint32_t tags, const struct rs_ioq_policy *policy,
		 void *policy_ctx)
{
	*q = (struct rs_ioq){ .tags = tags, .limit = tags ? tags : UINT32_MAX,
			      .policy = policy ? policy : &rs_ioq_fifo,
			      .policy_ctx = policy_ctx };
}

void rs_ioq_unlink(struct rs_ioq *q, struct rs_io *io)
{
	RS_ASSERT(q->len > 0);
	if (io->qprev)
		io->qprev->qnext = io->qnext;
	else
		q->head = io->qnext;
	if (io->qnext)
		io->qnext->qprev = io->qprev;
	else
		q->tail = io->qprev;
	io->qnext = io->qprev = NULL;
	q->len--;
}

struct rs_io *rs_ioq_take(struct rs_sim *sim, struct rs_ioq *q)
{
	/* rs_ioq_dispatch, its only caller, has seen a free tag and a
	 * waiting request (rs_ioq_unlink asserts the latter again), and takes
	 * the fifo policy's head itself. */
	struct rs_io *io = q->policy->pick(sim, q, q->policy_ctx);
	RS_ASSERT(io != NULL);
	rs_ioq_unlink(q, io);
	q->busy++;
	return io;
}
