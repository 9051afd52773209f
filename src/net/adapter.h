/* Device type `iscsi-adapter`: an iSCSI initiator host adapter with a TCP
 * offload engine (TOE), its host bus and its Ethernet port, in front of an
 * iSCSI target.
 *
 * Every command runs on the adapter's processor ("engine", a server) for
 * per-PDU and per-byte costs of its path (read or write), crosses the host
 * bus (write data before sending, read data after receiving), and crosses
 * the network as Ethernet frames (net/frame.h) on the adapter's port and, in
 * parallel, the target's switch uplink (a store-and-forward switch adds one
 * frame time and its latency).  TCP acknowledgements load the reverse
 * direction.  `shared_work` says how much of each command's processor time
 * is spent on the processor both paths use (100%: they take turns on one)
 * and how much on its path's own engine (0%: a processor each), so a part
 * of the work can overlap between reads and writes.  `byte_engine` can move
 * the per-byte work off the processor onto data engines (one shared, or one
 * per path) that run beside it, so PDU and data work of different commands
 * overlap.
 *
 * The port can be pulled and restored (rs_iscsi_adapter_set_link, or a
 * scenario's `faults:`).  A command that loses its path is, as the adapter's
 * `on_path_loss` says: failed at once (`fail`: a multipath layer above may
 * retry it elsewhere), or held (`hold`) until the session logs in again and
 * then re-issued, or failed with a timeout `io_timeout` after it was issued
 * if the session is not back by then (so every command ends, even on a
 * link that never returns).  With `session_timeout`, the driver gives a
 * dead session up that long after the link went: what it held fails, and
 * later commands fail after `fail_delay` without reaching the card (the
 * fail-fast path).  A failed command is re-issued `retries` times first, as
 * the host's disk class driver does.  The session logs in again `relogin`
 * after the link returns. */
#ifndef RS_NET_ADAPTER_H
#define RS_NET_ADAPTER_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/dev.h"
#include "dev/link.h"

extern const struct rs_dev_type rs_dev_iscsi_adapter;

struct rs_iscsi_adapter_counters {
	uint64_t lost;                /* commands whose path failed under them */
	uint64_t timeouts;            /* of those, failed after io_timeout */
	uint64_t resumed;             /* of those, re-issued after a re-login */
	uint64_t logins;              /* session re-logins */
};

/* Connect an adapter built without `target:` to a shared target (what a
 * multipath device does); `session` picks the target's uplink. */
void rs_iscsi_adapter_attach(struct rs_dev *dev, struct rs_dev *target, uint32_t session);
/* Name of the adapter's port, for faults ("port1"...). */
void rs_iscsi_adapter_set_port_name(struct rs_dev *dev, const char *name);
const char *rs_iscsi_adapter_port_name(const struct rs_dev *dev);
/* Pull (up = false) or restore the port's cable now. */
void rs_iscsi_adapter_set_link(struct rs_sim *sim, struct rs_dev *dev, bool up);
/* Whether a path manager that needs `detect` to notice a dead link still
 * takes this path as usable at `now`. */
bool rs_iscsi_adapter_usable(const struct rs_dev *dev, rs_time_t now, rs_time_t detect);
struct rs_link *rs_iscsi_adapter_port(struct rs_dev *dev);

#endif
