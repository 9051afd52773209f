/* Parameter sweeps: a scenario's `sweep:` mapping.
 *
 *   sweep:
 *     array.strip: [16KiB, 64KiB]
 *     workload.qdepth: [1, 4, 16]
 *
 * Each key is a dotted path into the scenario, each value the list of
 * values it takes; the points are the cartesian product, the first axis
 * varying slowest (the last key fastest), like nested loops written in the
 * order of the file. */
#ifndef RS_CONFIG_SWEEP_H
#define RS_CONFIG_SWEEP_H

#include <stddef.h>

#include "config/diag.h"
#include "config/node.h"

#define RS_SWEEP_MAX_AXES 64          /* callers may keep indices on the stack */

struct rs_sweep_axis {
	char *path;
	const struct rs_node *key;    /* the path's node in the file */
	size_t count;
	const struct rs_node **values; /* point into the sweep node */
};

/* A zeroed struct is a valid sweep with no axes and one point. */
struct rs_sweep {
	size_t naxes;
	struct rs_sweep_axis *axes;
};

/* sweep_node may be NULL (no sweep: one point).  The values point into
 * sweep_node, which must outlive the sweep.  Fails on a non-mapping, an
 * axis that is not a non-empty sequence, a bad, duplicate or overlapping
 * path, more than RS_SWEEP_MAX_AXES axes, an axis of more values than the
 * cap sweep_values or more points than the cap sweep_points (see
 * config/limits.h). */
int rs_sweep_parse(const struct rs_node *sweep_node, struct rs_sweep *out, struct rs_diag *d);
/* The product of the axis lengths; 1 with no axes. */
size_t rs_sweep_points(const struct rs_sweep *sw);
void rs_sweep_point_indices(const struct rs_sweep *sw, size_t point, size_t *idx_per_axis);
/* The scenario of one point: root without its `sweep` key, each axis
 * path set to its value (which keeps its own position, so an error in a
 * swept value points at the list item).  Caller frees. */
struct rs_node *rs_sweep_apply(const struct rs_sweep *sw, const struct rs_node *root,
			       size_t point, struct rs_diag *d);
void rs_sweep_free(struct rs_sweep *sw);

#endif
