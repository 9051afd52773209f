/* The order in which a controller port's queue (the host driver's queue
 * for a drive) lets waiting requests out to the drive.
 *
 *   fifo      arrival order;
 *   elevator  C-LOOK on block addresses (dev/ioq.h);
 *   sstf      the nearest block address to where the last dispatched
 *             request ended (DiskSim's SSTF_LBN: the host knows addresses,
 *             not cylinders);
 *   sptf      the shortest positioning time: the drive's own estimate of
 *             seek and rotation from its head's state at the time of
 *             dispatch (the device interface's positioning), as DiskSim's
 *             driver SPTF asks its disk model.  A queue in front of a
 *             device without a head (no positioning) orders as sstf.
 *   sptf-host the same with the estimate DiskSim's driver makes from its
 *             own copy of the disk model: seek and rotation as if the move
 *             began at the head's last media event, without the drive's
 *             command overhead (positioning with host set); so it
 *             may pick a sector the drive, finishing the sector under the
 *             head first, then just misses by a turn.
 * Neither sstf nor sptf ages requests: DiskSim's plain SSTF_LBN and
 * SPTF_OPT do not, and these match them, so a far request can wait as long
 * as nearer ones keep arriving.  Ties go to the older request.  A flush is
 * a barrier: nothing that arrived after it overtakes it, and it goes when
 * it is the oldest. */
#ifndef RS_CTRL_HOSTQ_H
#define RS_CTRL_HOSTQ_H

#include <stdint.h>

#include "dev/ioq.h"

#define RS_HOSTQ_POLICY_LIST(X)                                             \
	X(FIFO, "fifo") X(ELEVATOR, "elevator") X(SSTF, "sstf") X(SPTF, "sptf") \
	X(SPTF_HOST, "sptf-host")
enum rs_hostq_policy {
#define X(name, str) RS_HOSTQ_##name,
	RS_HOSTQ_POLICY_LIST(X)
#undef X
};

/* The names above, in enum order, NULL-terminated (for the schema). */
extern const char *const rs_hostq_policy_names[];

/* The rs_ioq policy; its context is a uint64_t the queue's holder owns:
 * the elevator's last address, or where the last sstf/sptf pick ended. */
const struct rs_ioq_policy *rs_hostq_policy(int policy);

#endif
