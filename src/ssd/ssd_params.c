#include "ssd/ssd_params.h"

#include <stddef.h>

#include "config/limits.h"
#include "io/io.h"

#define P(f) offsetof(struct rs_ssd_params, f)
#define MIN0 RS_OPT_HAS_MIN, 0, 0
#define RANGE RS_OPT_HAS_MIN | RS_OPT_HAS_MAX

static const char *const state_names[] = { "fresh", "full", "steady", NULL };

const struct rs_opt rs_ssd_opts[] = {
	{ "capacity", RS_OPT_SIZE, P(capacity_bytes), "100GB", RS_OPT_HAS_MIN, 1 << 20, 0,
	  NULL, "user capacity (what the host can address)" },
	{ "channels", RS_OPT_UINT, P(channels), "8", RANGE, 1, 64, NULL,
	  "flash channels (independent buses)" },
	{ "dies_per_channel", RS_OPT_UINT, P(dies_per_channel), "2", RANGE, 1, 64, NULL,
	  "dies sharing one channel (packages x dies per package)" },
	{ "planes", RS_OPT_UINT, P(planes), "2", RANGE, 1, 8, NULL,
	  "planes per die, operated together (multi-plane read, program and erase)" },
	{ "blocks_per_plane", RS_OPT_UINT, P(blocks_per_plane), "2048", RANGE, 4, 1 << 20,
	  NULL, "erase blocks per plane" },
	{ "pages_per_block", RS_OPT_UINT, P(pages_per_block), "256", RANGE, 1, 4096, NULL,
	  "pages per erase block" },
	{ "page_size", RS_OPT_SIZE, P(page_bytes), "8KiB", RANGE, RS_SSD_UNIT_BYTES, 65536,
	  NULL, "flash page (a multiple of 4 KiB, the mapping unit)" },
	{ "reserved", RS_OPT_PERCENT, P(reserved_pct), "0%", RS_OPT_HAS_MAX, 0, 90, NULL,
	  "share of the blocks the FTL never uses (bad blocks, firmware, parity)" },
	{ "t_read", RS_OPT_TIME, P(t_read_ns), "50us", MIN0, NULL,
	  "page read: array to page register (tR)" },
	{ "t_prog", RS_OPT_TIME, P(t_prog_ns), "1.3ms", MIN0, NULL,
	  "page program: page register to array (tPROG)" },
	{ "t_erase", RS_OPT_TIME, P(t_erase_ns), "3ms", MIN0, NULL, "block erase (tBERS)" },
	{ "channel_rate", RS_OPT_RATE, P(channel_rate), "200MB/s", RS_OPT_POSITIVE, 0, 0,
	  NULL, "bytes per second on one flash bus" },
	{ "channel_overhead", RS_OPT_TIME, P(channel_overhead_ns), "0s", MIN0, NULL,
	  "command and address cycles of one bus transfer" },
	{ "command_cost", RS_OPT_TIME, P(command_cost_ns), "10us", MIN0, NULL,
	  "controller firmware time per host command" },
	{ "program_cost", RS_OPT_TIME, P(program_cost_ns), "0s", MIN0, NULL,
	  "controller firmware time per flash program or erase it issues (page allocation, "
	  "map and valid-count updates), for host data and garbage collection alike" },
	{ "controller_rate", RS_OPT_RATE, P(controller_rate), "0B/s", MIN0, NULL,
	  "the controller's data path: bytes/rate more of its time per unit read and per "
	  "write (0 = none)" },
	{ "controller_cores", RS_OPT_UINT, P(controller_cores), "1", RANGE, 1, 64, NULL,
	  "commands the controller works on at once" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), "32", RANGE, 1, 65536, NULL,
	  "commands the drive accepts at once per queue (SATA NCQ: 32; NVMe: up to 65536 "
	  "entries per submission queue); queue_depth x queue_pairs is bounded by the cap "
	  "queued_requests" },
	{ "queue_pairs", RS_OPT_UINT, P(queue_pairs), "1", RANGE, 1, 65535, NULL,
	  "NVMe submission/completion queue pairs (1 for SATA)" },
	{ "doorbell_cost", RS_OPT_TIME, P(doorbell_ns), "0s", MIN0, NULL,
	  "time from submission to the controller seeing the command (NVMe: doorbell write "
	  "and the fetch of the queue entry over the link); overlaps between commands" },
	{ "interrupt_cost", RS_OPT_TIME, P(interrupt_ns), "0s", MIN0, NULL,
	  "time from the drive finishing a command to the host seeing it (NVMe: completion "
	  "entry write and MSI-X interrupt); overlaps between commands" },
	{ "write_commit", RS_OPT_TIME, P(write_commit_ns), "0s", MIN0, NULL,
	  "time from a write's data being in the buffer to the drive acknowledging it "
	  "(firmware commit of data and map entries); overlaps between commands and holds "
	  "no controller core" },
	{ "power_loss_protection", RS_OPT_BOOL, P(plp), "true", 0, 0, 0, NULL,
	  "the write buffer survives a power loss (capacitors): a flush or FUA write need not "
	  "wait for flash; without it, a flush waits until the buffered data is programmed "
	  "and a FUA write is written through" },
	{ "merge_partial_writes", RS_OPT_BOOL, P(merge_partial), "false", 0, 0, 0, NULL,
	  "the FTL maps whole 4 KiB units: a write covering only part of a unit whose data is "
	  "on flash makes the drive read that unit and merge it before the unit can be "
	  "programmed (read-modify-write; the write itself completes in the buffer); false: "
	  "partial units cost nothing more than whole ones" },
	{ "write_buffer", RS_OPT_SIZE, P(write_buffer_bytes), "4MiB", RANGE, 65536,
	  1ull << 31, NULL,
	  "DRAM holding written data until it is programmed (a write completes there)" },
	{ "gc_low", RS_OPT_UINT, P(gc_low), "2", RANGE, 2, 1 << 20, NULL,
	  "free blocks per die below which GC goes before host writes" },
	{ "gc_high", RS_OPT_UINT, P(gc_high), "4", RANGE, 2, 1 << 20, NULL,
	  "free blocks per die below which GC takes turns with host programs (and an idle "
	  "die collects)" },
	{ "pe_cycles", RS_OPT_UINT, P(pe_cycles), "0", RANGE, 0, 1000000, NULL,
	  "program/erase cycles every block has at the start (a drive part way through its "
	  "life); the erases of the run add to them" },
	{ "data_age", RS_OPT_TIME, P(data_age_ns), "0s", MIN0, NULL,
	  "retention age of the starting state's data (time since it was written); data "
	  "written during the run is fresh" },
	{ "read_retries", RS_OPT_UINT, P(read_retries), "0", RANGE, 0, 64, NULL,
	  "most read retries of one page (re-reads with shifted reference voltages, each "
	  "another tR and transfer); 0 = a read always decodes at once" },
	{ "read_retry_p0", RS_OPT_DOUBLE, P(read_retry_p0), "0", RANGE, 0, 1, NULL,
	  "probability that a page read's first ECC decode fails, on an unworn block holding "
	  "fresh data" },
	{ "read_retry_wear", RS_OPT_DOUBLE, P(read_retry_wear), "1000", RS_OPT_POSITIVE, 0, 0,
	  NULL, "program/erase cycles of the block that double read_retry_p0" },
	{ "read_retry_age", RS_OPT_TIME, P(read_retry_age_ns), "720h", RS_OPT_POSITIVE, 0, 0,
	  NULL, "retention age of the data that doubles read_retry_p0" },
	{ "read_retry_again", RS_OPT_DOUBLE, P(read_retry_again), "0.5", RANGE, 0, 1, NULL,
	  "probability that a retry's decode fails too (then the next retry, up to "
	  "read_retries)" },
	{ "read_retry_cost", RS_OPT_TIME, P(read_retry_cost_ns), "0s", MIN0, NULL,
	  "time per retry beyond tR and the transfer (the failed decode, the commands that "
	  "shift the reference voltages)" },
	{ "wear_level_spread", RS_OPT_UINT, P(wl_spread), "0", RANGE, 0, 1000000, NULL,
	  "static wear levelling: when a die's most-worn block has this many more erases "
	  "than its least-worn block holding data, that block's data moves to a worn block "
	  "in idle time; 0 = none" },
	{ "state", RS_OPT_ENUM, P(state), "fresh", 0, 0, 0, state_names,
	  "starting state: fresh (erased), full (written once sequentially) or steady "
	  "(after random overwrites)" },
	{ "interface", RS_OPT_BOOL, P(interface), "true", 0, 0, 0, NULL,
	  "model the drive's own host link (behind a controller port the port's link is used)" },
	{ "interface_rate", RS_OPT_RATE, P(interface_rate), "600MB/s", RS_OPT_POSITIVE, 0, 0,
	  NULL, "payload rate of the host link" },
	{ "interface_overhead", RS_OPT_TIME, P(interface_overhead_ns), "0.23us", MIN0, NULL,
	  "host link cost per transaction (frame)" },
	{ "interface_burst", RS_OPT_SIZE, P(interface_burst_bytes), "8KiB", RANGE, 512,
	  1 << 30, NULL, "largest host link transaction (frame payload)" },
	{ "interface_bus", RS_OPT_NODE, P(interface_bus), NULL, 0, 0, 0, NULL,
	  "the host link as a bus model (pcie3-x4, sata-6...) or inline {rate, overhead, burst, "
	  "duplex}; replaces interface_rate, interface_overhead and interface_burst" },
	RS_OPT_END
};

static const struct rs_node *at(const struct rs_node *node, const char *key)
{
	const struct rs_node *n = rs_node_get(node, key);
	return n ? n : node;
}

/* The key to blame for a pool too small for the capacity: of the keys
 * that size it, the first one set somewhere else than the model file (an
 * override: the device's `type` comes from the model when there is one);
 * else 'capacity'. */
static const struct rs_node *pool_culprit(const struct rs_node *node)
{
	static const char *const keys[] = { "capacity", "reserved", "blocks_per_plane",
					     "dies_per_channel", "channels", "planes",
					     "pages_per_block", "page_size", "gc_high", NULL };
	const struct rs_node *t = rs_node_get(node, "type");
	for (size_t i = 0; t && keys[i]; i++) {
		const struct rs_node *n = rs_node_get(node, keys[i]);
		if (n && n->file != t->file)
			return n;
	}
	return at(node, "capacity");
}

int rs_ssd_geom_derive(const struct rs_ssd_params *p, const struct rs_node *node,
		       struct rs_ssd_geom *g, struct rs_diag *d)
{
	if (p->page_bytes % RS_SSD_UNIT_BYTES)
		return rs_diag_node(d, at(node, "page_size"),
				    "'page_size' must be a multiple of 4KiB, got %llu bytes",
				    (unsigned long long)p->page_bytes);
	if (p->gc_high < p->gc_low)
		return rs_diag_node(d, at(node, "gc_high"),
				    "'gc_high' (%llu) must not be below 'gc_low' (%llu)",
				    (unsigned long long)p->gc_high, (unsigned long long)p->gc_low);
	g->ndies = (uint32_t)(p->channels * p->dies_per_channel);
	/* Tags take no memory, but the commands behind them are requests
	 * alive at once: the cap that bounds those bounds the tags too. */
	uint64_t tags = p->queue_depth * p->queue_pairs;
	if (tags > rs_limits()->queued_requests || tags > UINT32_MAX)
		return rs_diag_node(d, at(node, p->queue_pairs > 1 ? "queue_pairs" : "queue_depth"),
				    "'queue_depth' x 'queue_pairs' = %llu commands is more than the "
				    "cap (cap queued_requests=%llu; raise it with --limit "
				    "queued_requests=N)", (unsigned long long)tags,
				    (unsigned long long)rs_limits()->queued_requests);
	g->units_per_page = (uint32_t)(p->planes * (p->page_bytes / RS_SSD_UNIT_BYTES));
	uint64_t upb = (uint64_t)g->units_per_page * p->pages_per_block;
	if (upb > 65535)
		return rs_diag_node(d, at(node, "pages_per_block"),
				    "a block of %llu 4KiB units is too large (at most 65535: "
				    "planes x page_size x pages_per_block)", (unsigned long long)upb);
	g->units_per_block = (uint32_t)upb;
	/* Programs take whole multi-plane pages from the buffer: it must hold
	 * two, or a full buffer could wait for a page it cannot fill. */
	if (p->write_buffer_bytes / RS_SSD_UNIT_BYTES < 2ull * g->units_per_page)
		return rs_diag_node(d, at(node, "write_buffer"),
				    "'write_buffer' must hold at least two multi-plane pages "
				    "(%llu bytes: planes x page_size x 2)",
				    (unsigned long long)(2ull * g->units_per_page *
							 RS_SSD_UNIT_BYTES));
	g->blocks_per_die =
		(uint32_t)((double)p->blocks_per_plane * (1.0 - p->reserved_pct / 100.0));
	/* A capacity that is not a whole number of units ends in a partial
	 * one, mapped like the others. */
	g->logical_units = (p->capacity_bytes + RS_SSD_UNIT_BYTES - 1) / RS_SSD_UNIT_BYTES;
	g->physical_units = (uint64_t)g->ndies * g->blocks_per_die * g->units_per_block;
	if (g->physical_units >= 0x7fffffffull)
		return rs_diag_node(d, at(node, "blocks_per_plane"),
				    "the flash array holds %llu 4KiB units, more than the 2^31 the "
				    "map can address", (unsigned long long)g->physical_units);
	/* Every die keeps gc_high + 1 blocks free at most (GC's target and the
	 * open blocks); the rest must hold the user's data with room to spare,
	 * or garbage collection can never gain a block. */
	uint64_t per_die = (g->logical_units + g->ndies - 1) / g->ndies;
	uint64_t room = g->blocks_per_die > p->gc_high + 1
		? (uint64_t)(g->blocks_per_die - p->gc_high - 1) * g->units_per_block : 0;
	if (per_die + g->units_per_block > room)
		return rs_diag_node(d, pool_culprit(node),
				    "no spare blocks: %.4g GB of user capacity needs more than the "
				    "%.4g GB the flash array offers after the reserve and the GC "
				    "watermarks (add blocks, or lower capacity or 'reserved')",
				    (double)p->capacity_bytes / 1e9,
				    (double)room * g->ndies * RS_SSD_UNIT_BYTES / 1e9);
	return 0;
}
