#include "disk/hdd_params.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disk/hdd_firmware.h"
#include "disk/hdd_protocol.h"
#include "disk/layout_gen.h"
#include "io/io.h"

#define P(f) offsetof(struct rs_hdd_params, f)
#define MIN0 RS_OPT_HAS_MIN, 0, 0
#define RANGE RS_OPT_HAS_MIN | RS_OPT_HAS_MAX

static const char *const slip_skew_names[] = { "none", "cylinder", "track", NULL };
static const char *const sched_names[] = { "fcfs", "sstf", "clook", "sptf", NULL };
/* The scheduler's names, index for index, after "scheduler" (RS_HDD_DESTAGE_AS_SCHEDULER). */
static const char *const destage_order_names[] = { "scheduler", "fcfs", "sstf", "clook", "sptf",
						   NULL };

const struct rs_opt rs_hdd_opts[] = {
	{ "rpm", RS_OPT_RPM, P(rpm), "7200rpm", RS_OPT_POSITIVE | RS_OPT_HAS_MAX, 0, 33000,
	  NULL, "spindle speed" },
	{ "capacity", RS_OPT_SIZE, P(capacity_bytes), "0B", MIN0, NULL,
	  "addressable size (0 = everything the zone table maps; required with zones:)" },
	{ "heads", RS_OPT_UINT, P(heads), "1", RANGE, 1, 255, NULL, "data surfaces" },
	{ "zones", RS_OPT_NODE, P(zones), NULL, 0, 0, 0, NULL,
	  "generated geometry: {count, outer_rate, inner_rate (sustained media rates, "
	  "switches included), track_switch, cyl_switch (skew times; 0 = head_switch / "
	  "seek track_to_track)}" },
	{ "zone_table", RS_OPT_NODE, P(zone_table), NULL, 0, 0, 0, NULL,
	  "explicit geometry: list of {first_cyl, last_cyl, sectors_per_track, "
	  "track_skew, cyl_skew, spares}, outer to inner" },
	{ "cylinders", RS_OPT_UINT, P(cylinders), "0", MIN0, NULL,
	  "cylinders of an explicit zone table (0 = last zone's last_cyl + 1)" },
	{ "spare_sectors_per_cylinder", RS_OPT_UINT, P(spare_sect_per_cyl), "0", MIN0, NULL,
	  "zone table: spare sectors at the end of every cylinder" },
	{ "spare_tracks_per_zone", RS_OPT_UINT, P(spare_tracks_per_zone), "0", MIN0, NULL,
	  "zone table: spare tracks at the end of every zone" },
	{ "spare_group_tracks", RS_OPT_UINT, P(spare_group_tracks), "0", RANGE, 0, UINT32_MAX,
	  NULL, "zone table: zone spares are per group of this many tracks, slips move data "
	  "only inside their group (0 = at the end of the zone)" },
	{ "slip_skew", RS_OPT_ENUM, P(slip_skew), "none", 0, 0, 0, slip_skew_names,
	  "zone table: each slip of a zone before a track's cylinder (cylinder) or before "
	  "the track (track) turns the track's start on by a sector (DiskSim's per-cylinder "
	  "and per-track sparing); none: skews ignore slips" },
	{ "slips", RS_OPT_NODE, P(slips), NULL, 0, 0, 0, NULL,
	  "zone table: slipped (defective) sectors, list of absolute PBNs, increasing" },
	{ "seek", RS_OPT_NODE, P(seek), NULL, 0, 0, 0, NULL,
	  "fitted seek curve: {track_to_track, average, full_stroke} read seek times" },
	{ "seek_hpl", RS_OPT_NODE, P(seek_hpl), NULL, 0, 0, 0, NULL,
	  "HPL's seek equation: {boundary, sqrt: [const, mult], linear: [const, mult], first: "
	  "[times of distances 1..]}" },
	{ "seek_table", RS_OPT_NODE, P(seek_table), NULL, 0, 0, 0, NULL,
	  "measured seek curve: list of [distance, time], distances increasing from 1" },
	{ "write_settle", RS_OPT_TIME, P(write_settle_ns), "0s", MIN0, NULL,
	  "extra settling before a write, on every nonzero seek and head switch" },
	{ "write_settle_early", RS_OPT_TIME, P(write_settle_early_ns), "0s", MIN0, NULL,
	  "a write may start this much before a read's seek or head switch would end (DiskSim's "
	  "negative write settling delay; never before the move began); excludes write_settle" },
	{ "head_switch", RS_OPT_TIME, P(head_switch_ns), "0.8ms", MIN0, NULL,
	  "time to switch to another surface (read)" },
	{ "overhead_read", RS_OPT_TIME, P(overhead_read_ns), "0.2ms", MIN0, NULL,
	  "firmware command overhead of a read that goes to the media" },
	{ "overhead_write", RS_OPT_TIME, P(overhead_write_ns), "0.2ms", MIN0, NULL,
	  "firmware command overhead of a write (cached or not)" },
	{ "overhead_hit", RS_OPT_TIME, P(overhead_hit_ns), "0.1ms", MIN0, NULL,
	  "firmware command overhead of a read served from the buffer" },
	{ "interface_rate", RS_OPT_RATE, P(interface_rate_bytes_s), "133MB/s",
	  RS_OPT_POSITIVE, 0, 0, NULL, "payload rate of the host interface" },
	{ "interface_block_time", RS_OPT_TIME, P(interface_block_ns), "0s", MIN0, NULL,
	  "bus time per 512-byte block (DiskSim's \"Bulk sector transfer time\"); when "
	  "set it replaces interface_rate" },
	{ "interface_block_time_write", RS_OPT_TIME, P(interface_block_write_ns), "0s", MIN0,
	  NULL, "bus time per 512-byte block of write data, when it differs from "
	  "interface_block_time (DiskSim's bus \"Write block transfer time\"); 0: the same" },
	{ "data_prep", RS_OPT_TIME, P(data_prep_ns), "0s", MIN0, NULL,
	  "firmware time before data moves on a connection: after the command overhead "
	  "of a hit or a write, after the reselection of a read miss (DiskSim's \"Data "
	  "preparation overhead\")" },
	{ "reselect", RS_OPT_TIME, P(reselect_ns), "0s", MIN0, NULL,
	  "a disconnected command winning the bus back: a read miss before its data, a "
	  "write before its completion (DiskSim's \"First reselect overhead\")" },
	{ "reselect_extra", RS_OPT_TIME, P(reselect_extra_ns), "0s", MIN0, NULL,
	  "the completion reselection of a write that disconnected an extra time "
	  "(DiskSim's \"Other reselect overhead\")" },
	{ "disconnect_read", RS_OPT_TIME, P(disconnect_read_ns[0]), "0s", MIN0, NULL,
	  "a read miss letting the bus go after its command overhead, after a read "
	  "(DiskSim's \"Read disconnect afterread\"); it reconnects no earlier" },
	{ "disconnect_read_after_write", RS_OPT_TIME, P(disconnect_read_ns[1]), "0s", MIN0,
	  NULL, "the same after a write (DiskSim's \"Read disconnect afterwrite\")" },
	{ "disconnect_write", RS_OPT_TIME, P(disconnect_write_ns), "0s", MIN0, NULL,
	  "a write letting the bus go once its data is in (DiskSim's \"Write disconnect "
	  "overhead\"); it reconnects for its completion no earlier" },
	{ "extra_write_disconnect", RS_OPT_BOOL, P(extra_write_disconnect), "false", 0, 0, 0,
	  NULL, "a write that follows a write and does not continue it disconnects before "
	  "taking its data (DiskSim's \"Extra write disconnect\"); its timing is the "
	  "extra_disconnect_* times" },
	{ "extra_disconnect_command", RS_OPT_TIME, P(xdisc_command_ns), "0s", MIN0, NULL,
	  "its command overhead, in place of write_miss (DiskSim's \"Extradisc command "
	  "overhead\")" },
	{ "extra_disconnect_first", RS_OPT_TIME, P(xdisc_first_ns), "0s", MIN0, NULL,
	  "its first disconnection (DiskSim's \"Extradisc disconnect overhead\")" },
	{ "extra_disconnect_gap", RS_OPT_TIME, P(xdisc_gap_ns), "0s", MIN0, NULL,
	  "from that disconnection to the reselection for its data (DiskSim's \"Extradisc "
	  "inter-disconnect delay\")" },
	{ "extra_disconnect_second", RS_OPT_TIME, P(xdisc_second_ns), "0s", MIN0, NULL,
	  "its disconnection once its data is in, in place of disconnect_write (DiskSim's "
	  "\"Extradisc 2nd disconnect overhead\")" },
	{ "extra_disconnect_seek_delta", RS_OPT_TIME, P(xdisc_seek_delta_ns), "0s", MIN0, NULL,
	  "from the end of its command overhead to the start of its seek (DiskSim's "
	  "\"Extradisc seek delta\")" },
	{ "write_seek_min", RS_OPT_TIME, P(write_seek_min_ns), "0s", MIN0, NULL,
	  "a write's positioning move (seek, head switch and settle, or none) takes at "
	  "least this long (DiskSim's \"Minimum seek delay\")" },
	{ "interface_overhead", RS_OPT_TIME, P(interface_overhead_ns), "0s", MIN0, NULL,
	  "interface cost per transaction (burst)" },
	{ "interface_burst", RS_OPT_SIZE, P(interface_burst_bytes), "64KiB", RANGE, 512,
	  1 << 30, NULL, "largest interface transaction" },
	{ "cache_size", RS_OPT_SIZE, P(cache_bytes), "2MiB", RANGE, 512, 1ull << 32, NULL,
	  "buffer size" },
	{ "segments", RS_OPT_UINT, P(segments), "16", RANGE, 1, 1024, NULL,
	  "read segments; each is cache_size/segments" },
	{ "read_ahead", RS_OPT_SIZE, P(read_ahead_bytes), "128KiB", MIN0, NULL,
	  "sequential read-ahead after a read (capped by the segment size; 0 = off)" },
	{ "prefetch", RS_OPT_ENUM, P(prefetch), "fixed", 0, 0, 0, rs_hdd_prefetch_names,
	  "how far read-ahead runs: fixed (read_ahead bytes), none, track (to the end "
	  "of the request's track), cylinder, segment (until the segment is full), "
	  "next-track (to the end of the track after the request, one more once a "
	  "stream spans tracks); in the track modes read_ahead is the most it runs" },
	{ "read_ahead_min", RS_OPT_SIZE, P(read_ahead_min_bytes), "0B", MIN0, NULL,
	  "prefetch track/cylinder/segment: the least read-ahead past the request" },
	{ "read_any_free", RS_OPT_BOOL, P(read_any_free), "false", 0, 0, 0, NULL,
	  "a read miss also keeps the sectors of its track that pass under the head "
	  "before its first one" },
	{ "read_ahead_over_request", RS_OPT_BOOL, P(read_ahead_over_request), "true", 0, 0, 0,
	  NULL, "read-ahead may replace the requested blocks in their segment (false: it "
	  "stops when the segment is full from the request's first block; DiskSim's "
	  "\"Read-ahead over requested\")" },
	{ "overheads", RS_OPT_NODE, P(overheads), NULL, 0, 0, 0, NULL,
	  "command overheads by kind and previous command: {read_hit, read_miss, "
	  "write_hit, write_miss}, each a time or [after a read, after a write]; "
	  "replaces overhead_read/_write/_hit for the kinds it names" },
	{ "read_ahead_stop_on_command", RS_OPT_BOOL, P(read_ahead_stop_on_command), "true",
	  0, 0, 0, NULL, "a new command stops read-ahead (false: read-ahead finishes first)" },
	{ "read_ahead_stop_in_sector", RS_OPT_BOOL, P(read_ahead_stop_in_sector), "true", 0, 0,
	  0, NULL, "read-ahead stopped for a command may leave the sector under the head "
	  "half read (false: the head is free once that sector is read; DiskSim's \"Stop "
	  "prefetch in sector\")" },
	{ "read_drop_request", RS_OPT_BOOL, P(read_drop_request), "false", 0, 0, 0, NULL,
	  "once a read's data has gone to the host its blocks leave the segment and only "
	  "the read-ahead after them stays (DiskSim's \"Read-ahead over requested\" = -1)" },
	{ "read_ahead_on_idle_hit", RS_OPT_BOOL, P(read_ahead_on_idle_hit), "false", 0, 0, 0,
	  NULL, "a read served wholly from the buffer while the head is idle starts "
	  "read-ahead after its segment's data, as a miss would (DiskSim's \"Read-ahead "
	  "on idle hit\")" },
	{ "read_watermark", RS_OPT_DOUBLE, P(read_watermark), "0", RANGE, 0, 1, NULL,
	  "share of a read (at most a segment) that must be in the buffer before its "
	  "data starts over the interface (0: from the first block, as the media delivers "
	  "it; 1: store and forward; DiskSim's \"High (read) water mark\" by request "
	  "size)" },
	{ "write_watermark", RS_OPT_DOUBLE, P(write_watermark), "0", RANGE, 0, 1, NULL,
	  "0: a write's whole data comes in before its media access; above 0, a write "
	  "larger than a segment takes a segment's worth, starts on the media, and "
	  "reconnects for more whenever the segment has drained to this share of it "
	  "(DiskSim's \"Low (write) water mark\"); writes that fit a segment are unchanged" },
	{ "read_hits_on_write_data", RS_OPT_BOOL, P(read_hits_on_write_data), "true", 0, 0, 0,
	  NULL, "a read of data a cached write left in the buffer is a hit (false: it goes "
	  "to the media; DiskSim's \"Allow read hits on write data\")" },
	{ "completion_read", RS_OPT_TIME, P(completion_read_ns), "0s", MIN0, NULL,
	  "firmware time between a read's last data and its completion (DiskSim's \"Read "
	  "completion overhead\")" },
	{ "completion_write", RS_OPT_TIME, P(completion_write_ns), "0s", MIN0, NULL,
	  "firmware time between a write's end (media, or buffer when cached) and its "
	  "completion (DiskSim's \"Write completion overhead\")" },
	{ "write_cache", RS_OPT_BOOL, P(write_cache), "false", 0, 0, 0, NULL,
	  "deferred writing: a write completes once its data is in the buffer" },
	{ "write_cache_appends_only", RS_OPT_BOOL, P(write_cache_appends_only), "false", 0, 0,
	  0, NULL, "the write cache takes only a write that continues write data still in "
	  "the buffer (a sequential stream); any other write completes on the media "
	  "(DiskSim's \"Fast write level\" 1)" },
	{ "write_cache_size", RS_OPT_SIZE, P(write_cache_bytes), "1MiB", RANGE, 512,
	  1ull << 32, NULL, "share of the buffer that may hold dirty data" },
	{ "destage_high", RS_OPT_PERCENT, P(destage_high_pct), "75%", 0, 0, 0, NULL,
	  "dirty share from which destaging competes with queued host commands in the "
	  "scheduler's order (below it, destaging waits until the head is idle)" },
	/* Default: the scheduler's own order.  Firmware positions all its media
	 * work with one routine, DiskSim (the reference the validated models
	 * follow) orders cached writes in the same queue as the rest, and the
	 * shipped models' figures assume it; a drive known to order its
	 * write-back differently says so.  Aging never applies to destaging:
	 * the host already has its answer, and an old extent costs only its
	 * room in the buffer (a flush still drains everything). */
	{ "destage_order", RS_OPT_ENUM, P(destage_order), "scheduler", 0, 0, 0,
	  destage_order_names,
	  "order in which dirty extents are written back: scheduler (the scheduler's "
	  "policy), fcfs, sstf, clook or sptf; never aged.  A run of contiguous dirty "
	  "data is written in one pass whatever the order" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), "1", RANGE, 1, 32, NULL,
	  "commands the drive accepts at once (TCQ/NCQ depth; 1 = no queuing)" },
	{ "scheduler", RS_OPT_ENUM, P(scheduler), "fcfs", 0, 0, 0, sched_names,
	  "order of queued commands: fcfs, sstf, clook, sptf" },
	{ "aging", RS_OPT_TIME, P(aging_ns), "0s", MIN0, NULL,
	  "a command waiting longer than this is served first (0 = off)" },
	{ "queued_overhead", RS_OPT_TIME, P(queued_overhead_ns), "0s", MIN0, NULL,
	  "extra firmware time per command while queuing is on (queue_depth > 1)" },
	{ "protocol", RS_OPT_ENUM, P(protocol), "ideal", 0, 0, 0, rs_hdd_protocol_names,
	  "queuing protocol and its per-command costs while queuing is on: ideal (none), "
	  "ata-tcq (legacy: bus release, SERVICE round trip through the host), ncq "
	  "(DMA Setup per data phase), scsi-tcq (disconnect, reselect)" },
	{ "tcq_release", RS_OPT_ENUM, P(tcq_release), "always", 0, 0, 0, rs_hdd_tcq_release_names,
	  "ata-tcq and scsi-tcq: when the drive releases the bus after a queued command: "
	  "always, or when-needed (only when it cannot move the data at once; a buffer "
	  "hit or a write the write cache takes at once moves its data right after the "
	  "command, without the release or the service round trip)" },
	{ "reorder_window", RS_OPT_UINT, P(reorder_window), "0", RANGE, 0, 32, NULL,
	  "how many of the oldest queued commands the firmware's scheduler weighs "
	  "(0 = all of them)" },
	{ "host_service", RS_OPT_TIME, P(host_service_ns), "0s", MIN0, NULL,
	  "ata-tcq: time the host takes to answer a service request (a controller "
	  "in front of the drive sets its own)" },
	{ "spindle_phase", RS_OPT_DOUBLE, P(spindle_phase), NULL, RANGE, 0, 1, NULL,
	  "angle at t=0 as a fraction of a turn (default: drawn from the seed's "
	  "'spindle' stream for this device name)" },
	RS_OPT_END
};

/* ---- sub-sections ---------------------------------------------------- */

struct zones_gen {
	uint64_t count;
	double outer_rate, inner_rate;
	rs_time_t track_switch_ns, cyl_switch_ns;
};

static const struct rs_opt zones_opts[] = {
	{ "count", RS_OPT_UINT, offsetof(struct zones_gen, count), "16", RANGE, 1, 4096,
	  NULL, "number of zones" },
	{ "outer_rate", RS_OPT_RATE, offsetof(struct zones_gen, outer_rate), NULL,
	  RS_OPT_REQUIRED | RS_OPT_POSITIVE, 0, 0, NULL, "sustained rate, outer zone" },
	{ "inner_rate", RS_OPT_RATE, offsetof(struct zones_gen, inner_rate), NULL,
	  RS_OPT_REQUIRED | RS_OPT_POSITIVE, 0, 0, NULL, "sustained rate, inner zone" },
	{ "track_switch", RS_OPT_TIME, offsetof(struct zones_gen, track_switch_ns), "0s",
	  MIN0, NULL, "head switch the track skew covers (0 = head_switch)" },
	{ "cyl_switch", RS_OPT_TIME, offsetof(struct zones_gen, cyl_switch_ns), "0s", MIN0,
	  NULL, "cylinder switch the cylinder skew covers (0 = one-cylinder seek)" },
	RS_OPT_END
};

struct zone_row {
	uint64_t first_cyl, last_cyl, spt, track_skew, cyl_skew, spares;
	uint64_t empty_front, first_offset, spare_tracks;
};

static const struct rs_opt zone_row_opts[] = {
	{ "first_cyl", RS_OPT_UINT, offsetof(struct zone_row, first_cyl), NULL,
	  RS_OPT_REQUIRED, 0, 0, NULL, "first cylinder" },
	{ "last_cyl", RS_OPT_UINT, offsetof(struct zone_row, last_cyl), NULL,
	  RS_OPT_REQUIRED, 0, 0, NULL, "last cylinder (inclusive)" },
	{ "sectors_per_track", RS_OPT_UINT, offsetof(struct zone_row, spt), NULL,
	  RS_OPT_REQUIRED | RANGE, 1, UINT32_MAX, NULL, "sectors per track" },
	{ "track_skew", RS_OPT_UINT, offsetof(struct zone_row, track_skew), "0", MIN0, NULL,
	  "sectors" },
	{ "cyl_skew", RS_OPT_UINT, offsetof(struct zone_row, cyl_skew), "0", MIN0, NULL,
	  "sectors" },
	{ "spares", RS_OPT_UINT, offsetof(struct zone_row, spares), "0", MIN0, NULL,
	  "spare sectors at the end of the zone (of each group with spare_group_tracks)" },
	{ "empty_front", RS_OPT_UINT, offsetof(struct zone_row, empty_front), "0", RANGE, 0,
	  UINT32_MAX, NULL, "sectors at the zone's front that would hold LBAs but stay empty" },
	{ "first_offset", RS_OPT_UINT, offsetof(struct zone_row, first_offset), "0", RANGE, 0,
	  UINT32_MAX, NULL, "sectors from angle 0 to the zone's first sector" },
	{ "spare_tracks", RS_OPT_UINT, offsetof(struct zone_row, spare_tracks), "0", RANGE, 0,
	  UINT32_MAX, NULL, "whole tracks at the end of the zone that hold no data" },
	RS_OPT_END
};

struct seek_fit_params {
	rs_time_t track_ns, avg_ns, full_ns;
};

static const struct rs_opt seek_fit_opts[] = {
	{ "track_to_track", RS_OPT_TIME, offsetof(struct seek_fit_params, track_ns), NULL,
	  RS_OPT_REQUIRED | RS_OPT_HAS_MIN, 0, 0, NULL, "one-cylinder read seek" },
	{ "average", RS_OPT_TIME, offsetof(struct seek_fit_params, avg_ns), NULL,
	  RS_OPT_REQUIRED | RS_OPT_HAS_MIN, 0, 0, NULL, "average read seek" },
	{ "full_stroke", RS_OPT_TIME, offsetof(struct seek_fit_params, full_ns), NULL,
	  RS_OPT_REQUIRED | RS_OPT_HAS_MIN, 0, 0, NULL, "full-stroke read seek" },
	RS_OPT_END
};

struct seek_hpl_params {
	uint64_t boundary;
	const struct rs_node *sqrt_terms, *lin_terms, *first;
};

static const struct rs_opt seek_hpl_opts[] = {
	{ "boundary", RS_OPT_UINT, offsetof(struct seek_hpl_params, boundary), NULL,
	  RS_OPT_REQUIRED | RANGE, 0, UINT32_MAX, NULL,
	  "distance (cylinders) from which the linear part applies" },
	{ "sqrt", RS_OPT_NODE, offsetof(struct seek_hpl_params, sqrt_terms), NULL,
	  RS_OPT_REQUIRED, 0, 0, NULL, "[const, mult]: const + mult * sqrt(distance)" },
	{ "linear", RS_OPT_NODE, offsetof(struct seek_hpl_params, lin_terms), NULL,
	  RS_OPT_REQUIRED, 0, 0, NULL, "[const, mult]: const + mult * distance" },
	{ "first", RS_OPT_NODE, offsetof(struct seek_hpl_params, first), NULL, 0, 0, 0, NULL,
	  "seek times of distances 1, 2, ... (at most 10), instead of the equation" },
	RS_OPT_END
};

/* Rows used to convert the scalars of sequences. */
static const struct rs_opt dist_row = { "seek_table distance", RS_OPT_UINT, 0, NULL,
					RANGE, 1, UINT32_MAX, NULL, NULL };
static const struct rs_opt time_row = { "seek_table time", RS_OPT_TIME, 0, NULL,
					RS_OPT_HAS_MIN, 0, 0, NULL, NULL };
static const struct rs_opt pbn_row = { "slips", RS_OPT_UINT, 0, NULL, 0, 0, 0, NULL, NULL };

/* ---- geometry -------------------------------------------------------- */

/* Where to blame a problem with an optional key: the key's value, else the
 * section. */
/* Datasheet rates are sustained: a sequential read loses the skew at every
 * track boundary.  The generator wants the raw per-track rate, so scale by
 * (revolution + mean switch per track) / revolution. */
static double raw_rate(double sustained, double period_ns, uint32_t heads,
		       rs_time_t track_ns, rs_time_t cyl_ns)
{
	double per_track = ((double)(heads - 1) * (double)track_ns + (double)cyl_ns) / heads;
	return sustained * (period_ns + per_track) / period_ns;
}

static int build_generated(struct rs_hdd_geom *g, const struct rs_hdd_params *p,
			   const struct rs_node *node, rs_time_t seek1_ns, struct rs_diag *d)
{
	struct zones_gen z;
	if (rs_schema_bind(zones_opts, p->zones, &z, p->zones, "device.zones", NULL, d))
		return -1;
	if (p->capacity_bytes < RS_BLOCK_BYTES)
		return rs_diag_node(d, rs_node_get_or(node, "capacity"),
				    "'capacity' is required with generated zones");
	rs_time_t track_ns = z.track_switch_ns ? z.track_switch_ns : p->head_switch_ns;
	rs_time_t cyl_ns = z.cyl_switch_ns ? z.cyl_switch_ns : seek1_ns;
	rs_time_t cyl_eff = (p->heads > 1 && track_ns > cyl_ns) ? track_ns : cyl_ns;
	double period_ns = 60e9 / p->rpm;
	struct rs_layout_gen gen = {
		.capacity_bytes = p->capacity_bytes,
		.heads = (uint32_t)p->heads,
		.nzones = (uint32_t)z.count,
		.outer_rate_bytes_per_s = raw_rate(z.outer_rate, period_ns, (uint32_t)p->heads,
						   track_ns, cyl_eff),
		.inner_rate_bytes_per_s = raw_rate(z.inner_rate, period_ns, (uint32_t)p->heads,
						   track_ns, cyl_eff),
		.rpm = p->rpm,
		.track_switch_ns = track_ns,
		.cyl_switch_ns = cyl_ns,
	};
	struct rs_zone *zones = calloc(z.count, sizeof(*zones));
	struct rs_layout_params lp;
	char err[256];
	int rc = rs_layout_generate(&lp, zones, &gen, err, sizeof(err));
	if (rc == 0)
		rc = rs_layout_init(&g->layout, &lp, err, sizeof(err));
	free(zones);
	if (rc)
		return rs_diag_node(d, p->zones, "%s", err);
	g->has_layout = true;
	return 0;
}

static int build_table(struct rs_hdd_geom *g, const struct rs_hdd_params *p,
		       const struct rs_node *node, struct rs_diag *d)
{
	const struct rs_node *t = p->zone_table;
	if (t->kind != RS_NODE_SEQ || t->len == 0)
		return rs_diag_node(d, t, "'zone_table' must be a non-empty list of zones");
	struct rs_zone *zones = calloc(t->len, sizeof(*zones));
	uint64_t *slips = NULL;
	size_t nslips = 0;
	int rc = -1;
	uint64_t next = 0;
	for (size_t i = 0; i < t->len; i++) {
		struct zone_row r;
		const struct rs_node *item = t->items[i];
		if (rs_schema_bind(zone_row_opts, item, &r, item, "zone_table entry", NULL, d))
			goto out;
		const struct rs_node *fc = rs_node_get(item, "first_cyl");
		if (r.first_cyl < next) {
			rs_diag_node(d, fc, "zone starts at cylinder %" PRIu64 ", overlapping the "
				     "previous zone (which ends at %" PRIu64 ")", r.first_cyl, next - 1);
			goto out;
		}
		if (r.first_cyl > next) {
			rs_diag_node(d, fc, "zone starts at cylinder %" PRIu64 ", leaving "
				     "cylinders %" PRIu64 "..%" PRIu64 " in no zone", r.first_cyl,
				     next, r.first_cyl - 1);
			goto out;
		}
		if (r.last_cyl < r.first_cyl || r.last_cyl >= UINT32_MAX) {
			rs_diag_node(d, rs_node_get(item, "last_cyl"), "last_cyl %" PRIu64
				     " is before first_cyl %" PRIu64, r.last_cyl, r.first_cyl);
			goto out;
		}
		zones[i] = (struct rs_zone){ (uint32_t)r.first_cyl, (uint32_t)r.last_cyl,
					     (uint32_t)r.spt, (uint32_t)r.track_skew,
					     (uint32_t)r.cyl_skew, (uint32_t)r.spares, 0,
					     (uint32_t)r.empty_front, (uint32_t)r.first_offset,
					     (uint32_t)r.spare_tracks };
		next = r.last_cyl + 1;
	}
	uint64_t cyls = p->cylinders ? p->cylinders : next;
	if (cyls != next) {
		rs_diag_node(d, rs_node_get_or(node, "cylinders"), "the zones cover cylinders 0..%" PRIu64
			     " but 'cylinders' is %" PRIu64, next - 1, cyls);
		goto out;
	}
	if (p->slips) {
		if (p->slips->kind != RS_NODE_SEQ) {
			rs_diag_node(d, p->slips, "'slips' must be a list of PBNs");
			goto out;
		}
		slips = calloc(p->slips->len + 1, sizeof(*slips));
		for (size_t i = 0; i < p->slips->len; i++) {
			if (rs_schema_convert(&pbn_row, p->slips->items[i], &slips[i], d))
				goto out;
			if (i > 0 && slips[i] <= slips[i - 1]) {
				rs_diag_node(d, p->slips->items[i], "slips must be strictly "
					     "increasing: %" PRIu64 " after %" PRIu64, slips[i],
					     slips[i - 1]);
				goto out;
			}
		}
		nslips = p->slips->len;
	}
	struct rs_layout_params lp = {
		.heads = (uint32_t)p->heads,
		.cylinders = (uint32_t)cyls,
		.zones = zones,
		.nzones = (uint32_t)t->len,
		.spare_sect_per_cyl = (uint32_t)p->spare_sect_per_cyl,
		.spare_tracks_per_zone = (uint32_t)p->spare_tracks_per_zone,
		.spare_group_tracks = (uint32_t)p->spare_group_tracks,
		.slip_skew = (enum rs_slip_skew)p->slip_skew,
		.slips = slips,
		.nslips = nslips,
		.capacity_blk = 0,
	};
	char err[256];
	if (rs_layout_init(&g->layout, &lp, err, sizeof(err))) {
		rs_diag_node(d, t, "%s", err);
		goto out;
	}
	g->has_layout = true;
	uint64_t want = p->capacity_bytes / RS_BLOCK_BYTES;
	if (want > g->layout.mappable_blk) {
		rs_diag_node(d, rs_node_get_or(node, "capacity"), "capacity of %" PRIu64 " blocks is "
			     "larger than the %" PRIu64 " blocks the zone table maps", want,
			     g->layout.mappable_blk);
		goto out;
	}
	if (want)
		g->layout.capacity_blk = want;
	rc = 0;
out:
	free(zones);
	free(slips);
	return rc;
}

static int seek_table_points(const struct rs_node *t, struct rs_seek_point **out,
			     size_t *n, struct rs_diag *d)
{
	if (t->kind != RS_NODE_SEQ || t->len == 0)
		return rs_diag_node(d, t, "'seek_table' must be a non-empty list of "
				    "[distance, time] pairs");
	struct rs_seek_point *pts = calloc(t->len, sizeof(*pts));
	for (size_t i = 0; i < t->len; i++) {
		const struct rs_node *it = t->items[i];
		uint64_t dist;
		if (it->kind != RS_NODE_SEQ || it->len != 2) {
			free(pts);
			return rs_diag_node(d, it, "seek_table entries are [distance, time]");
		}
		if (rs_schema_convert(&dist_row, it->items[0], &dist, d) ||
		    rs_schema_convert(&time_row, it->items[1], &pts[i].time_ns, d)) {
			free(pts);
			return -1;
		}
		if (i == 0 && dist != 1) {
			free(pts);
			return rs_diag_node(d, it->items[0], "the seek table must start at "
					    "distance 1, got %" PRIu64, dist);
		}
		if (i > 0 && dist <= pts[i - 1].distance) {
			uint32_t prev = pts[i - 1].distance;
			free(pts);
			return rs_diag_node(d, it->items[0], "seek_table distances must "
					    "increase: %" PRIu64 " after %" PRIu32, dist, prev);
		}
		pts[i].distance = (uint32_t)dist;
	}
	*out = pts;
	*n = t->len;
	return 0;
}

static const struct rs_opt hpl_row = { "seek_hpl time", RS_OPT_TIME, 0, NULL,
				       RS_OPT_HAS_MIN, 0, 0, NULL, NULL };

/* Two times [const, mult] of a seek_hpl part. */
static int hpl_pair(const struct rs_node *n, double *c, double *m, struct rs_diag *d)
{
	if (n->kind != RS_NODE_SEQ || n->len != 2)
		return rs_diag_node(d, n, "expected [const, mult], two times");
	rs_time_t a, b;
	if (rs_schema_convert(&hpl_row, n->items[0], &a, d) ||
	    rs_schema_convert(&hpl_row, n->items[1], &b, d))
		return -1;
	*c = (double)a;
	*m = (double)b;
	return 0;
}

static int seek_hpl_read(const struct rs_node *n, struct rs_seek_hpl *h, struct rs_diag *d)
{
	struct seek_hpl_params f;
	memset(h, 0, sizeof(*h));
	if (rs_schema_bind(seek_hpl_opts, n, &f, n, "device.seek_hpl", NULL, d))
		return -1;
	h->boundary = (uint32_t)f.boundary;
	if (hpl_pair(f.sqrt_terms, &h->sqrt_const_ns, &h->sqrt_mult_ns, d) ||
	    hpl_pair(f.lin_terms, &h->lin_const_ns, &h->lin_mult_ns, d))
		return -1;
	if (f.first) {
		if (f.first->kind != RS_NODE_SEQ || f.first->len == 0 ||
		    f.first->len > RS_SEEK_HPL_FIRST_MAX)
			return rs_diag_node(d, f.first, "'first' must list 1 to %d seek times",
					    RS_SEEK_HPL_FIRST_MAX);
		for (size_t i = 0; i < f.first->len; i++)
			if (rs_schema_convert(&hpl_row, f.first->items[i], &h->first_ns[i], d))
				return -1;
		h->nfirst = (uint32_t)f.first->len;
	}
	return 0;
}

/* The one-cylinder read seek, needed for the generated cylinder skew before
 * the seek curve (which needs the cylinder count) exists. */
static int seek1(const struct rs_hdd_params *p, rs_time_t *out, struct rs_diag *d)
{
	if (p->seek) {
		struct seek_fit_params f;
		if (rs_schema_bind(seek_fit_opts, p->seek, &f, p->seek, "device.seek", NULL, d))
			return -1;
		*out = f.track_ns;
		return 0;
	}
	if (p->seek_hpl) {
		struct rs_seek_hpl h;
		if (seek_hpl_read(p->seek_hpl, &h, d))
			return -1;
		*out = h.nfirst ? h.first_ns[0] : (rs_time_t)llround(h.boundary > 1 ?
			h.sqrt_const_ns + h.sqrt_mult_ns : h.lin_const_ns + h.lin_mult_ns);
		return 0;
	}
	struct rs_seek_point *pts;
	size_t n;
	if (seek_table_points(p->seek_table, &pts, &n, d))
		return -1;
	*out = pts[0].time_ns;
	free(pts);
	return 0;
}

static int build_seek(struct rs_hdd_geom *g, const struct rs_hdd_params *p,
		      const struct rs_node *node, struct rs_diag *d)
{
	struct rs_seek_params sp = {
		.cylinders = g->layout.cylinders,
		.settle_read_ns = 0,
		.write_extra_ns = p->write_settle_ns - p->write_settle_early_ns,
		.head_switch_ns = p->head_switch_ns,
		.write_min_ns = p->write_seek_min_ns,
	};
	char err[256];
	if (p->write_settle_ns && p->write_settle_early_ns)
		return rs_diag_node(d, rs_node_get_or(node, "write_settle_early"), "give "
				    "'write_settle' or 'write_settle_early', not both");
	if (p->seek_hpl) {
		struct rs_seek_hpl h;
		if (seek_hpl_read(p->seek_hpl, &h, d))
			return -1;
		if (rs_seek_init_hpl(&g->seek, &sp, &h, err, sizeof(err)))
			return rs_diag_node(d, p->seek_hpl, "%s", err);
	} else if (p->seek) {
		struct seek_fit_params f;
		if (rs_schema_bind(seek_fit_opts, p->seek, &f, p->seek, "device.seek", NULL, d))
			return -1;
		struct rs_seek_fit fit = { f.track_ns, f.avg_ns, f.full_ns };
		if (rs_seek_init_fit(&g->seek, &sp, &fit, err, sizeof(err)))
			return rs_diag_node(d, p->seek, "%s", err);
	} else {
		struct rs_seek_point *pts;
		size_t n;
		if (seek_table_points(p->seek_table, &pts, &n, d))
			return -1;
		int rc = rs_seek_init_table(&g->seek, &sp, pts, n, err, sizeof(err));
		free(pts);
		if (rc)
			return rs_diag_node(d, p->seek_table, "%s", err);
	}
	g->has_seek = true;
	return 0;
}

int rs_hdd_geom_build(struct rs_hdd_geom *g, const struct rs_hdd_params *p,
		      const struct rs_node *node, double phase, struct rs_diag *d)
{
	memset(g, 0, sizeof(*g));
	char err[256];
	if (rs_spindle_init(&g->spindle, p->rpm, phase, err, sizeof(err)))
		return rs_diag_node(d, rs_node_get_or(node, "rpm"), "%s", err);
	if (p->zones && p->zone_table)
		return rs_diag_node(d, p->zone_table, "give either 'zones' (generated) or "
				    "'zone_table' (explicit), not both");
	if (!p->zones && !p->zone_table)
		return rs_diag_node(d, node, "missing geometry: give 'zones' or 'zone_table'");
	if (!!p->seek + !!p->seek_table + !!p->seek_hpl > 1)
		return rs_diag_node(d, p->seek_table ? p->seek_table : p->seek_hpl, "give "
				    "either 'seek' (fitted), 'seek_table' (measured) or 'seek_hpl' "
				    "(HPL's equation), not several");
	if (!p->seek && !p->seek_table && !p->seek_hpl)
		return rs_diag_node(d, node, "missing seek curve: give 'seek', 'seek_table' or "
				    "'seek_hpl'");
	rs_time_t s1 = 0;
	if (seek1(p, &s1, d))
		return -1;
	int rc = p->zones ? build_generated(g, p, node, s1, d) : build_table(g, p, node, d);
	if (rc == 0)
		rc = build_seek(g, p, node, d);
	if (rc)
		rs_hdd_geom_destroy(g);
	return rc;
}

void rs_hdd_geom_destroy(struct rs_hdd_geom *g)
{
	if (g->has_layout)
		rs_layout_destroy(&g->layout);
	if (g->has_seek)
		rs_seek_destroy(&g->seek);
	g->has_layout = g->has_seek = false;
}
