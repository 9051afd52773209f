/* Member faults in a scenario's `faults:` list (next to the link faults of
 * net/faults.h):
 *
 *   {at: 60s, member: disk2, state: failed}     the drive dies
 *   {after_ios: 5000, member: disk2, state: failed}
 *                                               ... once it was sent 5000
 *                                               commands by the array
 *   {at: 600s, member: disk2, state: replaced}  a new drive in its place
 *                                               (rebuilt onto)
 *   {member: disk1, lba: [1000, 1999], error: media}
 *                                               latent sector errors:
 *                                               reads of those member
 *                                               blocks fail (from `at`)
 *   {at: 30s, member: disk3, slow: 5}           fail-slow: its service
 *                                               times are 5 times longer
 *
 * `member` names a drive of an array anywhere in the device tree by the
 * name it was built with (disk0, disk1, ...). */
#ifndef RS_RAID_FAULT_SCRIPT_H
#define RS_RAID_FAULT_SCRIPT_H

#include "config/diag.h"
#include "config/node.h"
#include "dev/dev.h"
#include "kernel/sim.h"

/* Check one fault entry (a map with `member:`) against the device tree
 * and, when sim is not NULL, schedule it.  0 or -1 with d set. */
int rs_raid_member_fault_apply(struct rs_sim *sim, struct rs_dev *root, const struct rs_node *e,
			       struct rs_diag *d);

#endif
