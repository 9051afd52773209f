#include "ctrl/hostq.h"

#include <stdbool.h>

#include "ctrl/port.h"
#include "kernel/assert.h"

const char *const rs_hostq_policy_names[] = {
#define X(name, str) str,
	RS_HOSTQ_POLICY_LIST(X)
#undef X
	NULL
};

static uint64_t distance(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

/* The waiting requests a pick may choose from end before the first flush;
 * a flush at the head goes first.  Returns that flush, or NULL. */
static struct rs_io *barrier(struct rs_ioq *q)
{
	return q->head->op == RS_FLUSH ? q->head : NULL;
}

static struct rs_io *take(uint64_t *last, struct rs_io *io)
{
	*last = io->lba + io->nblk;
	return io;
}

static struct rs_io *sstf_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	uint64_t *last = ctx;
	struct rs_io *best = barrier(q);
	if (best)
		return best;
	uint64_t best_d = 0;
	for (struct rs_io *io = q->head; io && io->op != RS_FLUSH; io = io->qnext) {
		uint64_t d = distance(io->lba, *last);
		if (!best || d < best_d) {
			best = io;
			best_d = d;
		}
	}
	return take(last, best);
}

/* Every candidate must be behind a drive with a head to position
 * (rs_dev_type.positioning) for positioning times to compare; otherwise
 * the whole pick orders by address. */
static bool all_positioned(struct rs_ioq *q)
{
	for (struct rs_io *io = q->head; io && io->op != RS_FLUSH; io = io->qnext)
		if (!rs_port_member_of(io)->type->positioning)
			return false;
	return true;
}

/* host: the host's estimate rather than the drive's own. */
static struct rs_io *sptf_pick_by(struct rs_sim *sim, struct rs_ioq *q, void *ctx, bool host)
{
	uint64_t *last = ctx;
	struct rs_io *best = barrier(q);
	if (best)
		return best;
	if (!all_positioned(q))
		return sstf_pick(sim, q, ctx);
	rs_time_t best_t = 0;
	for (struct rs_io *io = q->head; io && io->op != RS_FLUSH; io = io->qnext) {
		const struct rs_dev *drive = rs_port_member_of(io);
		rs_time_t t = drive->type->positioning(drive, io->lba, io->nblk,
						       io->op == RS_WRITE, sim->now, host);
		if (!best || t < best_t) {
			best = io;
			best_t = t;
		}
	}
	return take(last, best);
}

/* The drive's own estimate, as it will then take the command. */
static struct rs_io *sptf_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	return sptf_pick_by(sim, q, ctx, false);
}

/* The host's estimate from its copy of the disk model (DiskSim's driver). */
static struct rs_io *sptf_host_pick(struct rs_sim *sim, struct rs_ioq *q, void *ctx)
{
	return sptf_pick_by(sim, q, ctx, true);
}

static const struct rs_ioq_policy sstf = { "sstf", sstf_pick };
static const struct rs_ioq_policy sptf = { "sptf", sptf_pick };
static const struct rs_ioq_policy sptf_host = { "sptf-host", sptf_host_pick };

const struct rs_ioq_policy *rs_hostq_policy(int policy)
{
	switch ((enum rs_hostq_policy)policy) {
	case RS_HOSTQ_FIFO:
		return &rs_ioq_fifo;
	case RS_HOSTQ_ELEVATOR:
		return &rs_ioq_elevator;
	case RS_HOSTQ_SSTF:
		return &sstf;
	case RS_HOSTQ_SPTF:
		return &sptf;
	case RS_HOSTQ_SPTF_HOST:
		return &sptf_host;
	}
	RS_UNREACHABLE();
}
