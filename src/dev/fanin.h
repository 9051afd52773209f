/* The fan-in: one completion path for every layer.
 *
 * It lives in dev/, not io/, because it completes a request through the
 * device the request was submitted to (io->dev: the device's accounting)
 * and finds a layer's child-done hook in that device's type; io/ sits
 * below dev/ and knows requests only. */
#ifndef RS_DEV_FANIN_H
#define RS_DEV_FANIN_H

#include "io/io.h"
#include "kernel/assert.h"
#include "kernel/sim.h"

/* ---- fan-out and fan-in: one completion path for every layer -------------
 * A layer splits a request submitted to it into children (rs_io_child).  A
 * child's completion calls its child-done hook: the `done` given to
 * rs_io_child or, when that is NULL, the child_done of the device type the
 * parent was submitted to (parent->dev), or else the default fan-in.  The
 * hook does the layer's own work (a link transfer, a cache fill, a retry)
 * and ends in rs_io_child_finished, which folds the child into the parent
 * and completes the parent through its device once nothing holds it.
 * A layer that keeps the parent open when no child is out (a RAID row
 * between its read and write phases, a cache) holds it (rs_io_hold) and
 * lets go (rs_io_release); holds and children are one count, `pending`. */

/* A child of parent covering [lba, lba+nblk) on some lower device, with
 * its hook as above (done_ctx for an explicit `done`). */
struct rs_io *rs_io_child(struct rs_sim *sim, struct rs_io *parent, enum rs_op op,
			  uint64_t lba, uint32_t nblk, rs_io_done_fn *done, void *done_ctx);
/* The child is done with: free it and drop it from its parent's count,
 * which the layer then finishes its own way.  Returns the child's status;
 * nothing is recorded in the parent (a multipath retry forgets a failed
 * path's error). */
static inline int rs_io_child_detach(struct rs_sim *sim, struct rs_io *child);
/* rs_io_child_detach, keeping the first error in the parent (`status` if
 * not 0, else the child's).  Returns the parent, for a layer that goes on
 * with it. */
static inline struct rs_io *rs_io_child_fold(struct rs_sim *sim, struct rs_io *child,
					     int status);
/* rs_io_child_fold, then rs_io_finish the parent if that was its last
 * child and nothing holds it. */
static inline void rs_io_child_finished(struct rs_sim *sim, struct rs_io *child, int status);
/* Keep io open after its children: it completes only after a release. */
static inline void rs_io_hold(struct rs_io *io)
{
	io->pending++;
}
/* The relay: a layer that would make one child of io, the same blocks
 * and operation, hands io itself on instead (the child, its creation, its
 * fold and its second completion are the cost of a layer on the common
 * path).  rs_io_relay marks io, which was submitted to dev, so that its
 * next completion, by whichever device below completes it or by the
 * layer itself, runs `back` (io->dev: the device that completed it); the
 * layer then completes io through dev with rs_io_relay_finish.  Layers
 * relay a request one inside another, up to RS_IO_RELAYS of them
 * (rs_io_relayable); a layer's frame is the last one while io is at or
 * below it (rs_io_relay_top). */
static inline bool rs_io_relayable(const struct rs_io *io)
{
	return io->relay_top != &io->relays[RS_IO_RELAYS - 1];
}
/* io must be relayable and submitted to dev: every caller is the submit
 * path of dev's own type (so io->dev is dev) and has just asked
 * rs_io_relayable to choose between a relay and a child, so neither is
 * asked again here, once a layer on the common path. */
static inline struct rs_io_relay *rs_io_relay(struct rs_io *io, struct rs_dev *dev,
					      rs_io_done_fn *back)
{
	struct rs_io_relay *r = io->relay_top ? io->relay_top + 1 : io->relays;
	io->relay_top = r;
	r->back = back;
	r->dev = dev;
	return r;
}
/* io is relayed (by the layer whose hook or path has it now). */
static inline bool rs_io_relayed(const struct rs_io *io)
{
	return io->relay_top != NULL;
}
/* How many layers relay io. */
static inline unsigned rs_io_relays(const struct rs_io *io)
{
	return io->relay_top ? (unsigned)(io->relay_top - io->relays) + 1 : 0;
}
static inline struct rs_io_relay *rs_io_relay_top(const struct rs_io *io)
{
	RS_ASSERT(io->relay_top);
	return io->relay_top;
}
/* The last relay of io ends without completing it: io is again a request
 * submitted to that layer's device, as if it had never been handed on. */
static inline struct rs_dev *rs_io_relay_end(struct rs_io *io)
{
	/* Not rs_io_relay_top: its callers are a relay's own `back` and
	 * paths that hold the frame already, so the frame is there. */
	struct rs_io_relay *r = io->relay_top;
	struct rs_dev *dev = r->dev;
	io->relay_top = r == io->relays ? NULL : r - 1;
	io->dev = dev;
	return dev;
}
/* The relayed io is done at its layer: complete it through that device
 * (status kept if io has none yet) to whoever submitted it, or to the
 * relay before.  Its relay ends here, so a layer above may relay it
 * again.  Inline (below): each layer that relays a request calls this
 * once. */
static inline void rs_io_relay_finish(struct rs_sim *sim, struct rs_io *io, int status);
/* Drop a hold; finishes io when nothing else holds it. */
void rs_io_release(struct rs_sim *sim, struct rs_io *io);
/* Complete io through the device it was submitted to (its accounting),
 * or as a layer's own request if none. */
void rs_io_finish(struct rs_sim *sim, struct rs_io *io, int status);


/* dev/dev.h defines both, after this header (which it includes first, as
 * the device's type needs the request's hooks): declared here for
 * rs_io_relay_finish, which every user of this header reaches through
 * dev/dev.h. */
static inline void rs_dev_complete(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io,
				   int status);
static inline void rs_dev_complete_relayed(struct rs_sim *sim, struct rs_dev *dev,
					   struct rs_io *io, int status);

static inline void rs_io_relay_finish(struct rs_sim *sim, struct rs_io *io, int status)
{
	struct rs_dev *dev = rs_io_relay_end(io);
	rs_dev_complete_relayed(sim, dev, io, status);
}

/* The fan-in runs for every child: inline, as the pool's get and put. */
static inline int rs_io_child_detach(struct rs_sim *sim, struct rs_io *child)
{
	struct rs_io *parent = child->parent;
	RS_ASSERT(parent && parent->pending > 0);
	int status = child->status;
	rs_io_free(sim, child);
	parent->pending--;
	return status;
}

static inline struct rs_io *rs_io_child_fold(struct rs_sim *sim, struct rs_io *child,
					     int status)
{
	struct rs_io *parent = child->parent;
	int child_status = rs_io_child_detach(sim, child);
	if (status == 0)
		status = child_status;
	if (status != 0 && parent->status == 0)
		parent->status = status;
	return parent;
}

static inline void rs_io_child_finished(struct rs_sim *sim, struct rs_io *child, int status)
{
	struct rs_io *parent = rs_io_child_fold(sim, child, status);
	if (parent->pending == 0)
		rs_io_finish(sim, parent, parent->status);
}

#endif
