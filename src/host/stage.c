#include "host/stage.h"

#include <stdlib.h>

#include "kernel/assert.h"

int rs_stage_build_inner(struct rs_build *b, struct rs_dev *dev, const struct rs_node *node,
			 const struct rs_node *section, struct rs_diag *d)
{
	if (!section)
		return rs_diag_node(d, node, "missing required key 'device' in %s (the device "
				    "behind it, e.g. device: {model: intel-dc-p3700-400g})",
				    dev->type->name);
	struct rs_dev *inner = rs_dev_build(b, section, "device", "device");
	if (!inner)
		return -1;
	dev->members = calloc(1, sizeof(*dev->members));
	RS_ASSERT(dev->members);
	dev->members[0] = inner;
	dev->nmembers = 1;
	dev->capacity_blk = inner->capacity_blk;
	return 0;
}

/* The stage is the device the parent was submitted to; the continuation
 * rides in the child (nothing to allocate). */
static void child_done(struct rs_sim *sim, struct rs_io *child)
{
	const struct rs_stage_back *back = child->up.stage;
	struct rs_io *io = rs_io_child_fold(sim, child, 0);
	back->fn(sim, io->dev, io);
}

void rs_stage_forward(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io,
		      const struct rs_stage_back *back)
{
	RS_ASSERT(io->dev == dev);
	struct rs_io *child = rs_io_child(sim, io, io->op, io->lba, io->nblk, child_done, NULL);
	child->up.stage = back;
	rs_dev_submit(sim, dev->members[0], child);
}
