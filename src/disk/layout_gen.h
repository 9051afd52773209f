/* A zoned layout made up from datasheet figures, for drives whose real zone
 * table is unknown.
 *
 * Zones have equal radial width (the same number of cylinders) and their
 * sectors per track fall linearly from the outer to the inner media rate:
 * spt = floor(rate / (rpm / 60) / 512).  The cylinder count is the smallest
 * that holds the capacity; LBAs past capacity_bytes / 512 stay unmapped.
 * Skews are the switch times rounded up to whole sectors of each zone, so
 * a sequential read never misses the next track's first sector (the
 * cylinder skew covers the longer of the two switch times when there are
 * several heads, since the head changes along with the cylinder).  No
 * spares, no slips. */
#ifndef RS_DISK_LAYOUT_GEN_H
#define RS_DISK_LAYOUT_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "disk/layout.h"
#include "kernel/sim.h"

struct rs_layout_gen {
	uint64_t capacity_bytes;
	uint32_t heads;
	uint32_t nzones;
	double outer_rate_bytes_per_s;
	double inner_rate_bytes_per_s;
	double rpm;
	rs_time_t track_switch_ns;        /* head switch */
	rs_time_t cyl_switch_ns;          /* usually the single-cylinder seek */
};

/* Fill *out, with out->zones pointing at zones (gen->nzones entries, owned by
 * the caller).  Returns 0, or -1 with a message in err. */
int rs_layout_generate(struct rs_layout_params *out, struct rs_zone *zones,
		       const struct rs_layout_gen *gen, char *err, size_t errlen);

#endif
