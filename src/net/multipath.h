/* Device type `multipath`: two or more iSCSI adapters to one target, and
 * the path manager that spreads requests over them.
 *
 * Policies: failover (active/standby, as an adapter team: the first usable
 * path takes everything), round-robin (each request to the next usable
 * path) and load-balance (each request to the usable path with the fewest
 * requests in flight).  With `health: true` the manager notices a dead link
 * `detect` after it died and stops choosing it; with `false` it never does.
 * With `retry: true` a request that fails on one path is sent again on
 * another usable one; otherwise it fails with its error (counted by the
 * workload).  An adapter's own `on_path_loss` decides what its commands do
 * when its link dies; its `relogin` when it may be used again.
 *
 * `faults:` schedules cable pulls and restores by port name (port1 is the
 * first path's port; net/faults.h), as a scenario's top-level `faults:`
 * does. */
#ifndef RS_NET_MULTIPATH_H
#define RS_NET_MULTIPATH_H

#include <stdint.h>

#include "dev/dev.h"

extern const struct rs_dev_type rs_dev_multipath;

struct rs_multipath_counters {
	uint64_t retries;             /* requests re-sent on another path */
	uint64_t errors;              /* requests failed to the caller */
};


#endif
