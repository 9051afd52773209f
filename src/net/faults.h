/* Scripted link faults: `faults: [{at: 120s, link: port1, state: down},
 * {at: 300s, link: port1, state: up}]`.  `link` names an adapter port
 * anywhere in the device tree (port1, port2 ... in the order of a
 * multipath device's paths).  Entries with `member:` are a RAID array's
 * drive faults (raid/fault_script.h). */
#ifndef RS_NET_FAULTS_H
#define RS_NET_FAULTS_H

#include "config/diag.h"
#include "config/node.h"
#include "dev/dev.h"
#include "kernel/sim.h"

/* Check the list against the device tree and, when sim is not NULL,
 * schedule each fault.  0 or -1 with d set. */
int rs_net_faults_apply(struct rs_sim *sim, struct rs_dev *dev, const struct rs_node *list,
			struct rs_diag *d);

#endif
