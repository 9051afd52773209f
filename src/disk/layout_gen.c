#include "disk/layout_gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/io.h"

static int fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

/* Whole sectors needed to cover a switch time.  The small slack keeps an
 * exact multiple (after floating-point noise) from rounding up. */
static uint32_t skew_sectors(rs_time_t switch_ns, double sector_ns)
{
	return (uint32_t)ceil((double)switch_ns / sector_ns - 1e-9);
}

int rs_layout_generate(struct rs_layout_params *out, struct rs_zone *zones,
		       const struct rs_layout_gen *gen, char *err, size_t errlen)
{
	if (gen->heads == 0 || gen->nzones == 0)
		return fail(err, errlen, "layout gen: heads and zones must be > 0");
	if (!(gen->rpm > 0) || !(gen->outer_rate_bytes_per_s > 0) ||
	    !(gen->inner_rate_bytes_per_s > 0))
		return fail(err, errlen, "layout gen: rpm and media rates must be > 0");
	if (gen->track_switch_ns < 0 || gen->cyl_switch_ns < 0)
		return fail(err, errlen, "layout gen: negative switch time");
	uint64_t cap_blk = gen->capacity_bytes / RS_BLOCK_BYTES;
	if (cap_blk == 0)
		return fail(err, errlen, "layout gen: capacity below one block");

	/* With several heads a cylinder switch also changes head (last head to
	 * head 0), and the two overlap: see rs_seek_reposition_time(). */
	rs_time_t cyl_ns = gen->cyl_switch_ns;
	if (gen->heads > 1 && gen->track_switch_ns > cyl_ns)
		cyl_ns = gen->track_switch_ns;
	double rev_per_s = gen->rpm / 60.0;
	double period_ns = 1e9 / rev_per_s;
	uint64_t spt_sum = 0;
	for (uint32_t i = 0; i < gen->nzones; i++) {
		double f = gen->nzones > 1 ? (double)i / (gen->nzones - 1) : 0.0;
		double rate = gen->outer_rate_bytes_per_s +
			f * (gen->inner_rate_bytes_per_s - gen->outer_rate_bytes_per_s);
		double spt = floor(rate / rev_per_s / RS_BLOCK_BYTES);
		if (spt < 1 || spt > UINT32_MAX)
			return fail(err, errlen, "layout gen: media rate gives no whole "
				    "sector per track");
		memset(&zones[i], 0, sizeof(zones[i]));
		zones[i].sectors_per_track = (uint32_t)spt;
		zones[i].media_rate_bytes_per_s = rate;
		double sector_ns = period_ns / spt;
		zones[i].track_skew = skew_sectors(gen->track_switch_ns, sector_ns);
		zones[i].cyl_skew = skew_sectors(cyl_ns, sector_ns);
		spt_sum += (uint64_t)spt;
	}
	uint64_t per_cyl_set = spt_sum * gen->heads;  /* one cylinder of each zone */
	uint64_t cyl_per_zone = (cap_blk + per_cyl_set - 1) / per_cyl_set;
	/* Compared by division: the product itself can overflow 64 bits for
	 * an absurd capacity on a one-sector track. */
	if (cyl_per_zone > UINT32_MAX / gen->nzones)
		return fail(err, errlen, "layout gen: too many cylinders: the capacity needs "
			    "more than 2^32 cylinders at these media rates (fewer bytes, more "
			    "heads or faster zones)");
	for (uint32_t i = 0; i < gen->nzones; i++) {
		zones[i].first_cyl = (uint32_t)(i * cyl_per_zone);
		zones[i].last_cyl = (uint32_t)((i + 1) * cyl_per_zone - 1);
	}
	memset(out, 0, sizeof(*out));
	out->heads = gen->heads;
	out->cylinders = (uint32_t)(cyl_per_zone * gen->nzones);
	out->zones = zones;
	out->nzones = gen->nzones;
	out->capacity_blk = cap_blk;
	return 0;
}
