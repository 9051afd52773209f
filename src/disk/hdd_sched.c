#include "disk/hdd_sched.h"

#include "kernel/assert.h"

void rs_hdd_sched_key(const struct rs_hdd_sched *s, rs_time_t now,
		      const struct rs_hdd_cand *c, struct rs_hdd_key *key,
		      struct rs_hdd_pos *pos)
{
	const struct rs_hdd_mech *m = s->mech;
	rs_hdd_mech_position(m, now, c->overhead_ns, c->lba, c->nblk, c->is_write, pos);
	key->aged = (s->aging_ns > 0 && now - c->arrived_ns > s->aging_ns) ? 0 : 1;
	key->arrived_ns = c->arrived_ns;
	key->lba = c->lba;
	if (key->aged == 0) {
		key->primary = (double)c->arrived_ns;
		return;
	}
	/* Only the seek-distance policies need the head's cylinder. */
	struct rs_head_state hs = { 0 };
	if (s->policy == RS_HDD_SSTF || s->policy == RS_HDD_CLOOK)
		rs_hdd_mech_head_at(m, now, &hs);
	uint32_t cyl = pos->pos.target.cyl;
	switch (s->policy) {
	case RS_HDD_FCFS:
		key->primary = (double)c->arrived_ns;
		break;
	case RS_HDD_SSTF:
		key->primary = cyl > hs.cyl ? cyl - hs.cyl : hs.cyl - cyl;
		break;
	case RS_HDD_CLOOK:
		/* Upwards from the head, then wrap to the lowest cylinder. */
		key->primary = cyl >= hs.cyl ? (double)(cyl - hs.cyl)
					     : (double)m->l->cylinders + cyl;
		break;
	case RS_HDD_SPTF:
		key->primary = (double)pos->start_ns;
		break;
	default:
		RS_UNREACHABLE();
	}
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

static struct rs_io *pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	struct rs_hdd_sched *s = ctx;
	struct rs_io *best = NULL;
	struct rs_hdd_key bk = { 0 }, k;
	struct rs_hdd_pos pos;
	for (struct rs_io *io = q->head; io; io = io->qnext) {
		bool w = io->op == RS_WRITE;
		struct rs_hdd_cand c = { io->lba, io->nblk, w, (rs_time_t)io->aux,
					 s->overhead_ns[w] };
		rs_hdd_sched_key(s, rs_now(sim), &c, &k, &pos);
		if (!best || rs_hdd_key_less(&k, &bk)) {
			best = io;
			bk = k;
			s->predicted = pos;
		}
		/* FCFS without aging needs no more than the head of the line. */
		if (s->policy == RS_HDD_FCFS && s->aging_ns == 0)
			break;
	}
	return best;
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
