/* Device type `controller`: parameters, building the array behind it with
 * a port in front of every disk, and reports.  The request path is in
 * ctrl_io.c.
 *
 * Keys:
 *   host_bus          link section (bus model name or inline): the bus the
 *                     data crosses between host memory and the controller
 *   ports             channels (PATA channels, SATA ports)
 *   port_link         link section of each channel
 *   devices_per_port  1 (SATA) or 2 (PATA master and slave share their
 *                     channel, one command at a time); up to 15 on SCSI
 *   channel           ata | scsi: what the drives of a port share.  ata:
 *                     the channel and its queue, one command at a time
 *                     with two drives; scsi: only the bus (port_link,
 *                     required), held for the command, data and status
 *                     phases, while each drive has its own queue
 *   command_cost      processor time per host request (firmware or driver)
 *   cpu               host | card: where that time (and the RAID) runs
 *   cpus              processors that can run it in parallel
 *   queue_depth       commands a port lets out to its drive (1: TCQ/NCQ off)
 *   max_commands      host requests taken at once (0: no limit); the rest
 *                     wait in the host, in order
 *   bus_overlap       host-bus transfers overlap the drive's work (cut-through)
 *                     instead of following a read / preceding a write
 *   sg_entries,       scatter-gather entries one command's data may take, and
 *   sg_page           the host page one entry covers: a longer command is
 *                     split (0 entries: no limit)
 *   queue_policy      fifo | elevator | sstf | sptf | sptf-host: order of the
 *                     requests a port holds back beyond its tags (ctrl/hostq.h)
 *   host_service      the driver's reaction to a drive's service request
 *                     (legacy ATA TCQ), set on every hdd behind the ports
 *   queued_reads,     {read_policy, sequential_balance} the driver applies to
 *   unqueued_reads    a mirrored array with queuing on (queue_depth > 1) or
 *                     off: whether it hands reads to the drives at once or
 *                     keeps them and gives each to a free drive
 *   cache             {mode: none|write-through|write-back, size, line,
 *                     location: driver|card, high, low, idle_flush,
 *                     read_ahead, cost_hit, cost_miss, cost_per_dirty,
 *                     destage_depth,
 *                     destage_max}, or just the mode
 *   array             the device behind the controller (required)
 *   raid_levels       the RAID levels the controller offers ([jbod, raid0,
 *                     raid1, raid10] or as data sheets write them, [0, 1,
 *                     10, JBOD]); an array asking for another is refused.
 *                     Absent: every level (a generic controller)
 *   raid_levels_source  where the list comes from, quoted when refusing */
#include "ctrl/controller.h"

#include "config/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctrl/ctrl_priv.h"
#include "ctrl/hostq.h"
#include "ctrl/raid_levels.h"
#include "dev/bus.h"
#include "raid/volume.h"
#include "kernel/assert.h"

static const char *const cpu_names[] = { "host", "card", NULL };
static const char *const mode_names[] = { "none", "write-through", "write-back", NULL };
static const char *const location_names[] = { "driver", "card", NULL };
static const char *const wb_scope_names[] = { "any", "two-way", NULL };
static const char *const wb_streams_names[] = { "cache", "through", NULL };
static const char *const channel_names[] = { "ata", "scsi", NULL };

#define RANGE (RS_OPT_HAS_MIN | RS_OPT_HAS_MAX)
#define MIN0 RS_OPT_HAS_MIN, 0, 0

#define P(f) offsetof(struct ctrl_params, f)
static const struct rs_opt ctrl_opts[] = {
	{ "host_bus", RS_OPT_NODE, P(host_bus), NULL, 0, 0, 0, NULL,
	  "host bus: a bus model name or an inline link; absent = not modelled" },
	{ "ports", RS_OPT_UINT, P(ports), "1", RANGE, 1, 64, NULL,
	  "channels (PATA channels, SATA ports)" },
	{ "port_link", RS_OPT_NODE, P(port_link), NULL, 0, 0, 0, NULL,
	  "link of each channel: a bus model name or inline; absent = not modelled" },
	{ "devices_per_port", RS_OPT_UINT, P(devices_per_port), "1", RANGE, 1, 15, NULL,
	  "drives per channel; 2 = PATA master and slave, commands serialised; up to 15 "
	  "on a SCSI bus" },
	{ "channel", RS_OPT_ENUM, P(channel), "ata", 0, 0, 0, channel_names,
	  "ata: drives on a port share its queue, one command at a time; scsi: they share "
	  "only the bus, held for command, data and status, each drive with its own queue" },
	{ "command_cost", RS_OPT_TIME, P(command_cost_ns), "0s", MIN0, NULL,
	  "processor time per host request (firmware or host driver)" },
	{ "cpu", RS_OPT_ENUM, P(cpu), "host", 0, 0, 0, cpu_names,
	  "where the command cost and the RAID run: host (driver) or card" },
	{ "cpus", RS_OPT_UINT, P(cpus), "1", RANGE, 1, 64, NULL,
	  "processors that run command costs in parallel" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), "1", RANGE, 1, 256, NULL,
	  "commands a port lets out to its drive (1 = TCQ/NCQ off)" },
	{ "max_commands", RS_OPT_UINT, P(max_commands), "0", RANGE, 0, 65536, NULL,
	  "host requests the driver takes at once (the queue depth the operating system "
	  "sees for the array); more wait in the host, in order; 0 = no limit" },
	{ "bus_overlap", RS_OPT_BOOL, P(bus_overlap), "false", 0, 0, 0, NULL,
	  "a drive's data crosses the host bus while the drive works (DMA streaming "
	  "into host memory) instead of after a read / before a write" },
	{ "sg_entries", RS_OPT_UINT, P(sg_entries), "0", RANGE, 0, 65535, NULL,
	  "scatter-gather entries (AHCI PRD entries) one command's data may take; a "
	  "longer command goes to the drive as several; 0 = no limit" },
	{ "sg_page", RS_OPT_SIZE, P(sg_page), "4KiB", RANGE, 512, 4194304, NULL,
	  "bytes one scatter-gather entry covers at most: the host page, as the "
	  "host's buffers are physically contiguous only page by page" },
	{ "queue_policy", RS_OPT_ENUM, P(queue_policy), "fifo", 0, 0, 0, rs_hostq_policy_names,
	  "order of requests waiting at a port beyond its tags: fifo, elevator (C-LOOK), "
	  "sstf (nearest address), sptf (shortest positioning, hdd members: the "
	  "drive's exact estimate) or sptf-host (a driver's estimate, as DiskSim's)" },
	{ "host_service", RS_OPT_TIME, P(host_service_ns), "0s", MIN0, NULL,
	  "legacy ATA TCQ: the driver's reaction to a drive's service request "
	  "(interrupt, service routine, SERVICE command), per data phase" },
	{ "queued_reads", RS_OPT_NODE, P(queued_reads), NULL, 0, 0, 0, NULL,
	  "{read_policy, sequential_balance} for a mirrored array while queuing is on "
	  "(queue_depth > 1); absent = the array's own" },
	{ "unqueued_reads", RS_OPT_NODE, P(unqueued_reads), NULL, 0, 0, 0, NULL,
	  "the same while queuing is off (queue_depth 1)" },
	{ "cache", RS_OPT_NODE, P(cache), NULL, 0, 0, 0, NULL,
	  "controller or driver cache: a mode or {mode, size, line, location, ...}" },
	{ "array", RS_OPT_NODE, P(array), NULL, 0, 0, 0, NULL,
	  "the device behind the controller, usually a RAID volume (required)" },
	{ "raid_levels", RS_OPT_NODE, P(raid_levels), NULL, 0, 0, 0, NULL,
	  "RAID levels the controller offers, e.g. [jbod, raid0, raid1, raid10]; "
	  "absent = every level" },
	{ "raid_levels_source", RS_OPT_STR, P(raid_levels_source), NULL, 0, 0, 0, NULL,
	  "where raid_levels comes from (a data sheet), quoted when a level is refused" },
	RS_OPT_END
};
#undef P

#define C(f) offsetof(struct cache_params, f)
static const struct rs_opt cache_opts[] = {
	{ "mode", RS_OPT_ENUM, C(mode), "none", 0, 0, 0, mode_names,
	  "none, write-through or write-back" },
	{ "size", RS_OPT_SIZE, C(size_bytes), "0B", 0, 0, 0, NULL, "cache capacity" },
	{ "line", RS_OPT_SIZE, C(line_bytes), "64KiB", RANGE, 512, 16 << 20, NULL,
	  "cache line (allocation unit), a multiple of 512 B" },
	{ "location", RS_OPT_ENUM, C(location), "driver", 0, 0, 0, location_names,
	  "driver: host memory (no bus crossing to hit or accept a write); card" },
	{ "high", RS_OPT_PERCENT, C(high_pct), "75%", 0, 0, 0, NULL,
	  "dirty share that starts destaging" },
	{ "low", RS_OPT_PERCENT, C(low_pct), "25%", 0, 0, 0, NULL,
	  "dirty share where destaging stops" },
	{ "idle_flush", RS_OPT_TIME, C(idle_flush_ns), "0s", MIN0, NULL,
	  "destage everything after this long without host requests; 0 = never" },
	{ "read_ahead", RS_OPT_SIZE, C(read_ahead_bytes), "0B", 0, 0, 0, NULL,
	  "prefetch window kept ahead of a sequential read stream; 0 = none" },
	{ "cost_hit", RS_OPT_TIME, C(cost_hit_ns), "0s", MIN0, NULL,
	  "extra processor time of a hit (or a write taken by write-back)" },
	{ "cost_miss", RS_OPT_TIME, C(cost_miss_ns), "0s", MIN0, NULL,
	  "extra processor time of a miss (or a write-through write)" },
	{ "cost_per_dirty", RS_OPT_TIME, C(cost_per_dirty_ns), "0s", MIN0, NULL,
	  "extra processor time per dirty line in the cache, paid by every read and write "
	  "that looks in it (a driver that searches its deferred writes per request)" },
	{ "destage_depth", RS_OPT_UINT, C(destage_depth), "4", RANGE, 1, 1024, NULL,
	  "destage writes in flight at once" },
	{ "destage_max", RS_OPT_SIZE, C(destage_max_bytes), "128KiB", RANGE, 512, 1 << 30, NULL,
	  "largest destage write (adjacent dirty lines coalesce up to this; 128 KiB = "
	  "256 sectors, the largest 28-bit ATA command)" },
	{ "write_back_arrays", RS_OPT_ENUM, C(wb_scope), "any", 0, 0, 0, wb_scope_names,
	  "arrays write-back acts on: any, or two-way (a mirror of two, or RAID0 of two "
	  "drives); the others are written through" },
	{ "write_back_streams", RS_OPT_ENUM, C(wb_streams), "cache", 0, 0, 0, wb_streams_names,
	  "a write-back write that starts where the previous write ended: cache, or through "
	  "(written through, as if the cache were write-through)" },
	RS_OPT_END
};
#undef C

/* The read-ahead window is fetched as one request and filled into the
 * cache line by line: a window beyond the cache evicts what it has just
 * read, and its cost grows with the setting instead of the work done.
 * 1 GiB is also the largest request any workload issues. */
#define READ_AHEAD_MAX (UINT64_C(1) << 30)

static int check_read_ahead(const struct rs_node *n, const struct cache_params *cp,
			    struct rs_diag *d)
{
	const struct rs_node *at = rs_node_get_or(n, "read_ahead");
	char got[32], lim[32];
	rs_format_size(cp->read_ahead_bytes, got, sizeof(got));
	if (cp->read_ahead_bytes > cp->size_bytes) {
		rs_format_size(cp->size_bytes, lim, sizeof(lim));
		return rs_diag_node(d, at, "cache 'read_ahead' %s is larger than the cache "
				    "(%s): expected at most the cache 'size'", got, lim);
	}
	if (cp->read_ahead_bytes > READ_AHEAD_MAX)
		return rs_diag_node(d, at, "cache 'read_ahead' %s is larger than 1GiB, the "
				    "largest request the simulator issues", got);
	return 0;
}

static int cache_bind(const struct rs_node *n, struct cache_params *cp, struct rs_diag *d)
{
	if (!n || n->kind == RS_NODE_SCALAR) {
		/* `cache: write-back` is short for {mode: write-back}. */
		if (rs_schema_bind(cache_opts, NULL, cp, n, "cache", NULL, d))
			return -1;
		return n ? rs_schema_convert(&cache_opts[0], n, cp, d) : 0;
	}
	if (rs_schema_bind(cache_opts, n, cp, n, "cache", NULL, d))
		return -1;
	if (cp->mode == CACHE_NONE)
		return 0;
	const struct rs_node *at = rs_node_get_or(n, "size");
	if (cp->size_bytes < cp->line_bytes)
		return rs_diag_node(d, at, "cache 'size' must hold at least one line (%llu B)",
				    (unsigned long long)cp->line_bytes);
	if (cp->line_bytes % 512)
		return rs_diag_node(d, rs_node_get_or(n, "line"),
				    "cache 'line' must be a multiple of 512 B");
	if (check_read_ahead(n, cp, d) != 0)
		return -1;
	if (cp->low_pct > cp->high_pct)
		return rs_diag_node(d, rs_node_get_or(n, "low"),
				    "cache 'low' (%g%%) must not exceed 'high' (%g%%)",
				    cp->low_pct, cp->high_pct);
	return 0;
}

/* ---- ports -------------------------------------------------------------- */

static struct rs_link *port_bus(struct ctrl *c)
{
	return c->has_host && !c->bus_at_top ? &c->host : NULL;
}

/* The one place the controller tells a device what it is attached behind
 * (struct rs_dev_attach): the drives behind its ports and the array it
 * drives.  ch is the channel of the device's port, NULL for the array
 * behind the ports; drive says it is one the array built (the driver's
 * service reaction then replaces the drive's own).  Returns the device as
 * the controller holds it: in its port, or the array itself. */
static struct rs_dev *attach(struct ctrl *c, struct rs_dev *dev, struct rs_channel *ch,
			     size_t index, bool drive, rs_time_t now)
{
	/* The driver's way with mirror reads depends on the queuing switch;
	 * every channel lets out the same number of commands. */
	bool queued = c->ch[0].q.tags > 1;
	int rank = ch ? rs_channel_join(ch) : 0;
	struct rs_dev_attach at = {
		.link = ch ? ch->bus : NULL,
		.shared_bus = ch && ch->scsi,
		.bus_rank = rank,
		.host_service = drive,
		.host_service_ns = c->p.host_service_ns,
		.mirror_reads = queued ? c->p.queued_reads : c->p.unqueued_reads,
	};
	struct rs_dev *held = ch ? rs_port_wrap(dev, ch, port_bus(c), index, rank, now) : dev;
	bool moves = dev->type->attach && dev->type->attach(dev, &at);
	if (ch)
		rs_port_drive_moves_data(held, moves);
	return held;
}

static struct rs_dev *member_hook(struct rs_build *b, struct rs_dev *member, size_t index,
				  void *ctx)
{
	struct ctrl *c = ctx;
	uint64_t slots = c->p.ports * c->p.devices_per_port;
	if (index >= slots) {
		rs_diag_node(b->diag, c->p.array, "the array has more than %llu drives, but the "
			     "controller has %llu port(s) with %llu device(s) each",
			     (unsigned long long)slots, (unsigned long long)c->p.ports,
			     (unsigned long long)c->p.devices_per_port);
		return NULL;
	}
	c->nwrapped++;
	/* A SCSI drive has a queue of its own; ATA drives share their port's. */
	size_t ch = c->p.channel == CHANNEL_SCSI ? index : index / c->p.devices_per_port;
	return attach(c, member, &c->ch[ch], index, true, b->sim ? rs_now(b->sim) : 0);
}

/* ---- building ------------------------------------------------------------ */

static const char *const reserved_keys[] = { "type", "model", "description", NULL };

/* rs_dev_build with the type given rather than looked up. */
static struct rs_dev *build_typed(struct rs_build *b, const struct rs_node *section,
				  const char *what, const char *name,
				  const struct rs_dev_type *type,
				  const struct rs_dev_type *array_type)
{
	if (rs_node_expect_map(section, what, b->diag))
		return NULL;
	struct rs_node *merged = rs_model_resolve(b->models, section, b->diag);
	if (!merged)
		return NULL;
	void *params = calloc(1, type->params_size ? type->params_size : 1);
	RS_ASSERT(params);
	if (rs_schema_bind(type->opts, merged, params, section, what, reserved_keys,
			   b->diag)) {
		free(params);
		rs_node_free(merged);
		return NULL;
	}
	if (type == &rs_dev_controller)
		((struct ctrl_params *)params)->array_type = array_type;
	struct rs_dev *dev = calloc(1, sizeof(*dev));
	RS_ASSERT(dev);
	dev->type = type;
	dev->name = strdup(name);
	RS_ASSERT(dev->name);
	dev->params = params;
	dev->tree = merged;
	rs_tavg_init(&dev->inflight, b->sim ? rs_now(b->sim) : 0, 0);
	if (type->init(b->sim, dev, params, merged, b, b->diag)) {
		rs_dev_destroy(dev);
		return NULL;
	}
	return dev;
}

struct rs_dev *rs_ctrl_build(struct rs_build *b, const struct rs_node *section,
			     const char *name, const struct rs_dev_type *array_type)
{
	return build_typed(b, section, "device", name, &rs_dev_controller, array_type);
}

static int set_up_cache(struct ctrl *c, const struct rs_node *node, struct rs_diag *d)
{
	c->cached = c->cp.mode != CACHE_NONE;
	c->next_write_lba = UINT64_MAX; /* no write yet, so the first starts no stream */
	if (!c->cached)
		return 0;
	if (rs_cache_init(&c->cache, c->cp.size_bytes, c->cp.line_bytes))
		return rs_diag_node(d, c->p.cache ? c->p.cache : node,
				    "cache has too many lines (%llu, at most %u: make 'line' larger "
				    "or 'size' smaller)",
				    (unsigned long long)(c->cp.size_bytes / c->cp.line_bytes),
				    RS_CACHE_MAX_LINES);
	double n = c->cache.nlines;
	c->high_lines = (uint32_t)floor(n * c->cp.high_pct / 100.0);
	c->low_lines = (uint32_t)floor(n * c->cp.low_pct / 100.0);
	c->ra_blk = (uint32_t)(c->cp.read_ahead_bytes / RS_BLOCK_BYTES);
	c->destage_max_blk = (uint32_t)(c->cp.destage_max_bytes / RS_BLOCK_BYTES);
	if (c->destage_max_blk < c->cache.line_blk)
		c->destage_max_blk = c->cache.line_blk;
	return 0;
}

/* A device that is not an array (one drive) splits nothing two ways. */
static bool write_back_applies(const struct ctrl *c, const struct rs_dev *array)
{
	if (c->cp.wb_scope == RS_CACHE_WB_ANY)
		return true;
	if (array->type != &rs_dev_array)
		return false;
	const struct rs_raid_geom *g = rs_array_geom(array);
	return rs_cache_wb_applies(c->cp.wb_scope, rs_raid_ncopies(g), g->ndata);
}

/* What the drives of a port share must be something they can share. */
static int check_channel(const struct ctrl_params *p, const struct rs_link_params *lp,
			 const struct rs_node *node, struct rs_diag *d)
{
	if (p->channel == CHANNEL_ATA) {
		if (p->devices_per_port > 2)
			return rs_diag_node(d, rs_node_get_or(node, "devices_per_port"),
					    "an ATA channel has at most 2 devices (master and slave), "
					    "got %llu: drives sharing a bus need 'channel: scsi'",
					    (unsigned long long)p->devices_per_port);
		return 0;
	}
	if (!p->port_link)
		return rs_diag_node(d, rs_node_get_or(node, "channel"),
				    "a SCSI channel needs 'port_link': the bus its drives share "
				    "(rate, and arbitration time as its overhead)");
	if (lp->full_duplex)
		return rs_diag_node(d, p->port_link, "a SCSI bus is one half-duplex path its drives "
				    "take turns on: expected a port_link with duplex: half");
	return 0;
}

/* The channels: one per port (ATA), or one queue per drive slot sharing
 * its port's bus (SCSI), each with the same number of tags. */
static void set_up_channels(struct ctrl *c, const struct rs_link_params *lp, rs_time_t now)
{
	const struct ctrl_params *p = &c->p;
	bool scsi = p->channel == CHANNEL_SCSI;
	/* Two drives on one PATA channel: one command on the channel at a
	 * time (no ATA overlap), whatever the queue depth. */
	uint32_t tags = !scsi && p->devices_per_port > 1 ? 1 : (uint32_t)p->queue_depth;
	c->nch = scsi ? p->ports * p->devices_per_port : p->ports;
	c->ch = calloc(c->nch, sizeof(*c->ch));
	RS_ASSERT(c->ch);
	if (scsi) {
		c->scsi = calloc(p->ports, sizeof(*c->scsi));
		RS_ASSERT(c->scsi);
		for (size_t i = 0; i < p->ports; i++)
			rs_link_init(&c->scsi[i], "scsi_bus", lp, now);
	}
	for (size_t i = 0; i < c->nch; i++) {
		char name[32];
		snprintf(name, sizeof(name), "channel%zu", i);
		if (scsi)
			rs_channel_init_scsi(&c->ch[i], name, &c->scsi[i / p->devices_per_port], tags,
					     p->queue_policy, now);
		else
			rs_channel_init(&c->ch[i], name, lp, tags, p->queue_policy, now);
		c->ch[i].bus_overlap = p->bus_overlap;
		c->ch[i].sg_entries = (uint32_t)p->sg_entries;
		c->ch[i].sg_page = (uint32_t)p->sg_page;
	}
}

static int ctrl_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		     const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct ctrl_params *p = params;
	rs_time_t now = sim ? rs_now(sim) : 0;
	struct ctrl *c = calloc(1, sizeof(*c));
	RS_ASSERT(c);
	dev->priv = c;
	c->dev = dev;
	c->p = *p;
	/* Not in the schema: a controller model cannot name the disks a
	 * scenario will put behind it. */
	if (!p->array)
		return rs_diag_node(d, node, "missing required key 'array' in controller "
				    "(the device behind it, e.g. array: {type: array, level: raid0, ...})");
	if (rs_ctrl_check_raid_level(b->models, p->raid_levels, p->raid_levels_source, p->array,
				     d))
		return -1;
	if (cache_bind(p->cache, &c->cp, d))
		return -1;
	if (p->queued_reads && rs_array_check_mirror_reads(p->queued_reads, "queued_reads", d))
		return -1;
	if (p->unqueued_reads &&
	    rs_array_check_mirror_reads(p->unqueued_reads, "unqueued_reads", d))
		return -1;
	if (p->cpu == CPU_CARD && c->cp.mode != CACHE_NONE && c->cp.location == LOC_DRIVER)
		return rs_diag_node(d, p->cache, "a controller that runs on the card "
				    "(cpu: card) keeps its cache on the card (location: card)");
	struct rs_link_params lp;
	if (p->host_bus) {
		if (rs_bus_params(b->models, p->host_bus, "host_bus", &lp, d))
			return -1;
		rs_link_init(&c->host, "host_bus", &lp, now);
		c->has_host = true;
	}
	bool has_port_link = p->port_link != NULL;
	if (has_port_link && rs_bus_params(b->models, p->port_link, "port_link", &lp, d))
		return -1;
	if (check_channel(p, &lp, node, d))
		return -1;
	set_up_channels(c, has_port_link ? &lp : NULL, now);
	rs_server_init(&c->cpu, p->cpu == CPU_CARD ? "card_cpu" : "host_cpu",
		       (uint32_t)p->cpus, now);
	if (set_up_cache(c, node, d))
		return -1;
	c->bus_at_top = p->cpu == CPU_CARD || (c->cached && c->cp.location == LOC_CARD);
	c->straight = !c->cached && !(c->bus_at_top && c->has_host);

	rs_member_hook *saved_hook = b->member_hook;
	void *saved_ctx = b->member_ctx;
	b->member_hook = member_hook;
	b->member_ctx = c;
	struct rs_dev *array = p->array_type ?
		build_typed(b, p->array, "array", "array", p->array_type, NULL) :
		rs_dev_build(b, p->array, "array", "array");
	b->member_hook = saved_hook;
	b->member_ctx = saved_ctx;
	if (!array)
		return -1;
	c->write_back = c->cp.mode == CACHE_WB && write_back_applies(c, array);
	/* A single device (no members of its own) gets one port itself; it
	 * keeps its own service reaction, as it always has. */
	c->array = c->nwrapped ? attach(c, array, NULL, 0, false, now) :
				 attach(c, array, &c->ch[0], 0, false, now);
	dev->members = calloc(1, sizeof(*dev->members));
	RS_ASSERT(dev->members);
	dev->members[0] = c->array;
	dev->nmembers = 1;
	dev->capacity_blk = array->capacity_blk;
	rs_ctrl_share_inflight(c);
	return 0;
}

static void ctrl_restart(struct rs_dev *dev, rs_time_t now)
{
	struct ctrl *c = dev->priv;
	rs_server_restart_stats(&c->cpu, now);
	if (c->has_host)
		rs_link_restart_stats(&c->host, now);
	for (size_t i = 0; i < c->nch; i++) {
		if (c->ch[i].has_link)
			rs_link_restart_stats(&c->ch[i].link, now);
	}
	for (size_t i = 0; c->scsi && i < c->p.ports; i++)
		rs_link_restart_stats(&c->scsi[i], now);
}

static void ctrl_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct ctrl *c = dev->priv;
	r->utilisation = rs_server_utilisation(&c->cpu, now);
}

static void ctrl_destroy(struct rs_dev *dev)
{
	struct ctrl *c = dev->priv;
	if (!c)
		return;
	if (c->cached)
		rs_cache_fini(&c->cache);
	free(c->ch);
	for (size_t i = 0; c->scsi && i < c->p.ports; i++)
		rs_link_destroy(&c->scsi[i]);
	free(c->scsi);
	free(c);
}

/* The processor is the controller's own entry; its buses are parts. */
static void ctrl_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			    struct rs_components *out)
{
	const struct ctrl *c = dev->priv;
	if (c->has_host)
		rs_components_add_link(out, name, "bus", &c->host, now);
	for (size_t i = 0; i < c->nch; i++)
		if (c->ch[i].has_link)
			rs_components_add_link(out, name, c->ch[i].name, &c->ch[i].link, now);
	for (size_t i = 0; c->scsi && i < c->p.ports; i++) {
		char part[32];
		snprintf(part, sizeof(part), "scsi%zu", i);
		rs_components_add_link(out, name, part, &c->scsi[i], now);
	}
}

const struct rs_dev_type rs_dev_controller = {
	.name = "controller",
	.help = "host adapter: command cost, WB/WT cache, ports with TCQ/NCQ depth, buses",
	.opts = ctrl_opts,
	.params_size = sizeof(struct ctrl_params),
	.init = ctrl_init,
	.submit = rs_ctrl_submit,
	.child_done = rs_ctrl_child_done,
	.restart_stats = ctrl_restart,
	.report = ctrl_report,
	.components = ctrl_components,
	.destroy = ctrl_destroy,
};

/* ---- for tests and reports ------------------------------------------------ */

const struct rs_ctrl_counters *rs_ctrl_counters(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_controller);
	return &((const struct ctrl *)dev->priv)->n;
}

struct rs_link *rs_ctrl_host_bus(struct rs_dev *dev)
{
	struct ctrl *c = dev->priv;
	return c->has_host ? &c->host : NULL;
}

size_t rs_ctrl_channel_count(const struct rs_dev *dev)
{
	return ((const struct ctrl *)dev->priv)->nch;
}

struct rs_link *rs_ctrl_channel_link(struct rs_dev *dev, size_t i)
{
	struct ctrl *c = dev->priv;
	RS_ASSERT(i < c->nch);
	return c->ch[i].bus;
}

void rs_ctrl_cache_fill_level(const struct rs_dev *dev, uint32_t *dirty, uint32_t *lines)
{
	const struct ctrl *c = dev->priv;
	*dirty = c->cache.ndirty + c->cache.ndestaging;
	*lines = c->cache.nlines;
}
