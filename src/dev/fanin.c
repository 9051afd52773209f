#include "dev/fanin.h"

#include "dev/dev.h"

static void default_child_done(struct rs_sim *sim, struct rs_io *child)
{
	rs_io_child_finished(sim, child, 0);
}

struct rs_io *rs_io_child(struct rs_sim *sim, struct rs_io *parent, enum rs_op op,
			  uint64_t lba, uint32_t nblk, rs_io_done_fn *done, void *done_ctx)
{
	RS_ASSERT(parent && parent->state == RS_IO_LIVE);
	/* The hook is looked up once here, not at every completion. */
	if (!done)
		done = parent->dev && parent->dev->type->child_done ? parent->dev->type->child_done
								     : default_child_done;
	return rs_io_new_child(sim, parent, op, lba, nblk, done, done_ctx);
}

void rs_io_finish(struct rs_sim *sim, struct rs_io *io, int status)
{
	if (io->dev)
		rs_dev_complete(sim, io->dev, io, status);
	else
		rs_io_complete(sim, io, status);
}

void rs_io_release(struct rs_sim *sim, struct rs_io *io)
{
	RS_ASSERT(io->pending > 0);
	if (--io->pending == 0)
		rs_io_finish(sim, io, io->status);
}
