#include "disk/hdd_sched.h"

#include <stdlib.h>

#include "kernel/assert.h"

/* The key of c, whose position is pos; hs is the head's state (needed by
 * SSTF and C-LOOK only). */
static void key_of(const struct rs_hdd_sched *s, rs_time_t now, const struct rs_hdd_cand *c,
		   const struct rs_hdd_pos *pos, const struct rs_head_state *hs,
		   struct rs_hdd_key *key)
{
	key->aged = (s->aging_ns > 0 && now - c->arrived_ns > s->aging_ns) ? 0 : 1;
	key->arrived_ns = c->arrived_ns;
	key->lba = c->lba;
	if (key->aged == 0) {
		key->primary = (double)c->arrived_ns;
		return;
	}
	uint32_t cyl = pos->pos.target.cyl;
	switch (s->policy) {
	case RS_HDD_FCFS:
		key->primary = (double)c->arrived_ns;
		break;
	case RS_HDD_SSTF:
		key->primary = cyl > hs->cyl ? cyl - hs->cyl : hs->cyl - cyl;
		break;
	case RS_HDD_CLOOK:
		/* Upwards from the head, then wrap to the lowest cylinder. */
		key->primary = cyl >= hs->cyl ? (double)(cyl - hs->cyl)
					      : (double)s->mech->l->cylinders + cyl;
		break;
	case RS_HDD_SPTF:
		key->primary = (double)pos->start_ns;
		break;
	default:
		RS_UNREACHABLE();
	}
}

static bool needs_head(const struct rs_hdd_sched *s)
{
	/* Only the seek-distance policies need the head's cylinder. */
	return s->policy == RS_HDD_SSTF || s->policy == RS_HDD_CLOOK;
}

void rs_hdd_sched_key(const struct rs_hdd_sched *s, rs_time_t now,
		      const struct rs_hdd_cand *c, struct rs_hdd_key *key,
		      struct rs_hdd_pos *pos)
{
	const struct rs_hdd_mech *m = s->mech;
	rs_hdd_mech_position(m, now, c->overhead_ns, c->lba, c->nblk, c->is_write, pos);
	struct rs_head_state hs = { 0 };
	if (needs_head(s))
		rs_hdd_mech_head_at(m, now, &hs);
	key_of(s, now, c, pos, &hs, key);
}

bool rs_hdd_key_less(const struct rs_hdd_key *a, const struct rs_hdd_key *b)
{
	if (a->aged != b->aged)
		return a->aged < b->aged;
	if (a->primary != b->primary)
		return a->primary < b->primary;
	if (a->arrived_ns != b->arrived_ns)
		return a->arrived_ns < b->arrived_ns;
	return a->lba < b->lba;
}

void rs_hdd_sched_init_cmds(struct rs_hdd_sched *s, uint32_t n)
{
	s->cmd = calloc(n ? n : 1, sizeof(*s->cmd));
	s->free_cmd = calloc(n ? n : 1, sizeof(*s->free_cmd));
	RS_ASSERT(s->cmd != NULL && s->free_cmd != NULL);
	s->ncmd = s->nfree = n;
	/* Handed out from slot 0 up (the top of the stack is the end). */
	for (uint32_t i = 0; i < n; i++)
		s->free_cmd[i] = n - 1 - i;
}

void rs_hdd_sched_destroy(struct rs_hdd_sched *s)
{
	free(s->cmd);
	free(s->free_cmd);
	s->cmd = NULL;
	s->free_cmd = NULL;
	s->ncmd = s->nfree = 0;
}

/* io's target, mapped on its first pass; NULL for a command the drive does
 * not hold (a scheduler tried on its own). */
static const struct rs_hdd_target *target_of(struct rs_hdd_sched *s, const struct rs_io *io)
{
	if (!io->at.hdd.slot)
		return NULL;
	struct rs_hdd_cmd *c = rs_hdd_sched_cmd(s, io);
	if (!c->mapped) {
		rs_hdd_mech_target(s->mech, io->lba, &c->tgt);
		c->mapped = true;
	}
	return &c->tgt;
}

/* The pick among several candidates: each is positioned and weighed.  Out
 * of line, so that the lone pick below saves none of its registers. */
static __attribute__((noinline)) struct rs_io *pick_compared(struct rs_hdd_sched *s,
							      struct rs_ioq *q, rs_time_t now)
{
	struct rs_io *best = NULL;
	struct rs_hdd_key bk = { 0 }, k;
	struct rs_hdd_pos pos;
	/* Every candidate is positioned from the same head state at the same
	 * instant: what they share is worked out once, in the view. */
	struct rs_hdd_view v;
	rs_hdd_mech_view_init(&v, now);
	struct rs_head_state hs = { 0 };
	if (needs_head(s))
		rs_hdd_mech_head_at(s->mech, now, &hs);
	uint32_t seen = 0;
	for (struct rs_io *io = q->head; io; io = io->qnext) {
		/* A firmware that weighs only its oldest few commands (the
		 * queue is in arrival order) sees no further. */
		if (s->window && seen++ == s->window)
			break;
		bool w = io->op == RS_WRITE;
		struct rs_hdd_cand c = { io->lba, io->nblk, w, io->at.hdd.arrived,
					 s->overhead_ns[w] };
		const struct rs_hdd_target *t = target_of(s, io);
		if (t)
			rs_hdd_mech_position_fast(s->mech, &v, c.overhead_ns, t, c.nblk, w, &pos);
		else
			rs_hdd_mech_position(s->mech, now, c.overhead_ns, c.lba, c.nblk, w, &pos);
		key_of(s, now, &c, &pos, &hs, &k);
		if (!best || rs_hdd_key_less(&k, &bk)) {
			best = io;
			bk = k;
			s->predicted = pos;
		}
	}
	return best;
}

static struct rs_io *pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	struct rs_hdd_sched *s = ctx;
	rs_time_t now = rs_now(sim);
	s->predicted_exact = false;
	/* A lone candidate (or FCFS without aging, which looks no further
	 * than the head of the line) is positioned through the reference
	 * path, so that start of service can take the result as it is; it
	 * needs nothing the comparison of candidates does. */
	if (q->head && (!q->head->qnext || s->window == 1 ||
			(s->policy == RS_HDD_FCFS && s->aging_ns == 0))) {
		struct rs_io *io = q->head;
		bool w = io->op == RS_WRITE;
		rs_hdd_mech_position(s->mech, now, s->overhead_ns[w], io->lba, io->nblk, w,
				     &s->predicted);
		s->predicted_exact = true;
		s->predicted_io = io;
		s->predicted_at = now;
		return io;
	}
	return pick_compared(s, q, now);
}

static const struct rs_ioq_policy policies[] = {
	{ "hdd-fcfs", pick },
	{ "hdd-sstf", pick },
	{ "hdd-clook", pick },
	{ "hdd-sptf", pick },
};

const struct rs_ioq_policy *rs_hdd_sched_policy(int policy)
{
	RS_ASSERT(policy >= 0 && policy < (int)(sizeof(policies) / sizeof(policies[0])));
	return &policies[policy];
}
