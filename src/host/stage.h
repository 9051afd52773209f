/* What the host-side stages (host_stack.c, hba.c) share: a request goes
 * down as one child to the device behind the stage, and the stage picks
 * it up again when the child completes. */
#ifndef RS_HOST_STAGE_H
#define RS_HOST_STAGE_H

#include "config/diag.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "io/io.h"

/* Build the device a stage stands in front of from its `device` section,
 * as the stage's one member; its capacity is the stage's.  0, or -1 with
 * d set. */
int rs_stage_build_inner(struct rs_build *b, struct rs_dev *dev, const struct rs_node *node,
			 const struct rs_node *section, struct rs_diag *d);

/* Send `io` to the stage's member as a child; back->fn(sim, dev, io)
 * runs when the child is done, with io->status holding its status.  (A
 * struct, so the child's scratch pointer can carry it.) */
struct rs_stage_back {
	void (*fn)(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);
};
void rs_stage_forward(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io,
		      const struct rs_stage_back *back);

#endif
