/* Device type `iscsi-target`: the far end of an iSCSI path.
 *
 * An iSCSI-to-Fibre-Channel gateway (a per-I/O latency, an optional
 * per-I/O processing cost, FC links at 1 or 2 Gb/s) in front of a storage
 * system whose cache serves a region of `cache_size` bytes at a per-I/O
 * cost; requests beyond it fall through to `disks` (any device raidsim
 * models, usually an array), or are served by the cache alone when no
 * disks are given.  The gateway's Ethernet side is `uplinks` ports of the
 * switch (link aggregation: each session hashes to one of them); initiator
 * adapters move their PDUs over them (see adapter.h). */
#ifndef RS_NET_TARGET_H
#define RS_NET_TARGET_H

#include <stdint.h>

#include "dev/dev.h"
#include "dev/link.h"

extern const struct rs_dev_type rs_dev_iscsi_target;

/* The switch-to-gateway link a session uses, or NULL when `dev` is not an
 * iscsi-target (then only the initiator's own port is modelled). */
struct rs_link *rs_iscsi_target_uplink(struct rs_dev *dev, uint32_t session);

#endif
