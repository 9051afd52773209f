/* A request queue with a tag limit and a pluggable ordering policy.
 *
 * The tag limit is the number of commands the holder may have out at once
 * (a drive's TCQ/NCQ depth, a port's queue); the policy picks which waiting
 * request goes next.  FIFO lives here; disk schedulers (SSTF, C-LOOK, SPTF)
 * register their own policies with a context that knows head position. */
#ifndef RS_DEV_IOQ_H
#define RS_DEV_IOQ_H

#include <stdbool.h>
#include <stdint.h>

#include "io/io.h"

struct rs_ioq;

struct rs_ioq_policy {
	const char *name;
	/* Choose one of the waiting requests (q->head... via qnext); never NULL
	 * when the queue is non-empty. */
	struct rs_io *(*pick)(struct rs_sim *sim, struct rs_ioq *q, void *ctx);
};

extern const struct rs_ioq_policy rs_ioq_fifo;
/* Block-address elevator (C-LOOK); its context is a uint64_t holding the
 * last dispatched address, owned by the queue's holder. */
extern const struct rs_ioq_policy rs_ioq_elevator;

struct rs_ioq {
	struct rs_io *head, *tail;    /* waiting, in arrival order */
	uint32_t len;
	uint32_t tags;                /* 0 = unlimited */
	uint32_t busy;                /* tags in use */
	/* tags, or UINT32_MAX for unlimited (set by rs_ioq_init, as tags):
	 * whether a tag is free is then one compare on every dispatch. */
	uint32_t limit;
	const struct rs_ioq_policy *policy;
	void *policy_ctx;
};

void rs_ioq_init(struct rs_ioq *q, uint32_t tags, const struct rs_ioq_policy *policy,
		 void *policy_ctx);
/* Push and release are inline: each runs once a request per queue, and is
 * a few stores. */
static inline void rs_ioq_push(struct rs_ioq *q, struct rs_io *io)
{
	io->qnext = NULL;
	io->qprev = q->tail;
	if (q->tail)
		q->tail->qnext = io;
	else
		q->head = io;
	q->tail = io;
	q->len++;
}
/* rs_ioq_dispatch once a tag is free and a request waits, for a queue
 * whose policy is not fifo (for it alone). */
struct rs_io *rs_ioq_take(struct rs_sim *sim, struct rs_ioq *q);
/* Next request to dispatch, if a tag is free and one is waiting; takes a
 * tag.  The test is inline: a dispatch loop ends with it, on nearly every
 * request, and then calls nothing.  So is the fifo policy's take, the
 * head unlinked as the head (no call through the policy, none of the
 * tests for a request in the middle): a call and its saved registers
 * cost more than the few stores. */
static inline struct rs_io *rs_ioq_dispatch(struct rs_sim *sim, struct rs_ioq *q)
{
	if (q->len == 0 || q->busy >= q->limit)
		return NULL;
	if (q->policy != &rs_ioq_fifo)
		return rs_ioq_take(sim, q);
	struct rs_io *io = q->head;
	q->head = io->qnext;
	if (q->head)
		q->head->qprev = NULL;
	else
		q->tail = NULL;
	io->qnext = NULL;
	q->len--;
	q->busy++;
	return io;
}
/* A dispatched request finished: give its tag back. */
static inline void rs_ioq_release(struct rs_ioq *q)
{
	RS_ASSERT(q->busy > 0);
	q->busy--;
}
/* Unlink a waiting request (for policies: it is about to be dispatched). */
void rs_ioq_unlink(struct rs_ioq *q, struct rs_io *io);
static inline bool rs_ioq_empty(const struct rs_ioq *q) { return q->len == 0 && q->busy == 0; }

/* Look a policy up among those registered (fifo plus any added by disk
 * schedulers through rs_ioq_policies); NULL if unknown. */
const struct rs_ioq_policy *rs_ioq_policy_find(const char *name);

#endif
