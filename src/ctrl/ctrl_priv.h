/* What controller.c (set-up) and ctrl_io.c (the request path) share. */
#ifndef RS_CTRL_CTRL_PRIV_H
#define RS_CTRL_CTRL_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "ctrl/cache.h"
#include "ctrl/controller.h"
#include "ctrl/port.h"
#include "dev/server.h"

enum ctrl_cache_mode { CACHE_NONE, CACHE_WT, CACHE_WB };
enum ctrl_location { LOC_DRIVER, LOC_CARD };
enum ctrl_cpu { CPU_HOST, CPU_CARD };
enum ctrl_channel { CHANNEL_ATA, CHANNEL_SCSI };

struct ctrl_params {
	const struct rs_node *host_bus;
	uint64_t ports;
	const struct rs_node *port_link;
	uint64_t devices_per_port;
	int channel;                  /* enum ctrl_channel */
	rs_time_t command_cost_ns;
	int cpu;                      /* enum ctrl_cpu */
	uint64_t cpus;
	uint64_t queue_depth;
	int queue_policy;             /* enum rs_hostq_policy */
	bool bus_overlap;
	uint64_t sg_entries;          /* per command; 0 = no limit */
	uint64_t sg_page;             /* bytes one entry covers at most */
	uint64_t max_commands;        /* host requests taken at once; 0 = no limit */
	rs_time_t host_service_ns;
	const struct rs_node *queued_reads;
	const struct rs_node *unqueued_reads;
	const struct rs_node *cache;
	const struct rs_node *array;
	const struct rs_node *raid_levels;      /* NULL: every level */
	const char *raid_levels_source;
	const struct rs_dev_type *array_type;   /* not a key: rs_ctrl_build */
};

struct cache_params {
	int mode;                     /* enum ctrl_cache_mode */
	uint64_t size_bytes;
	uint64_t line_bytes;
	int location;                 /* enum ctrl_location */
	double high_pct, low_pct;
	rs_time_t idle_flush_ns;
	uint64_t read_ahead_bytes;
	rs_time_t cost_hit_ns, cost_miss_ns;
	rs_time_t cost_per_dirty_ns;  /* searching the deferred writes, per dirty line */
	uint64_t destage_depth;
	uint64_t destage_max_bytes;
	int wb_scope;                 /* enum rs_cache_wb_scope */
	int wb_streams;               /* enum rs_cache_wb_streams */
};

struct ctrl {
	struct rs_dev *dev;
	struct ctrl_params p;
	struct cache_params cp;
	struct rs_server cpu;
	bool has_host;
	struct rs_link host;
	/* The data crosses the host bus once per host request, at the
	 * controller (RAID or cache on the card), instead of once per disk
	 * command, at the ports (the host driver does RAID from host memory). */
	bool bus_at_top;
	struct rs_channel *ch;
	size_t nch;
	struct rs_link *scsi;         /* SCSI: one shared bus per port */
	size_t nwrapped;              /* ports the member hook made */
	struct rs_dev *array;         /* where requests go (maybe a port) */

	/* No cache and no host-bus crossing at the controller: a request
	 * goes from the processor to the array and back from it with
	 * nothing between (to_array and array_done have nothing to do). */
	bool straight;
	/* The way back of a straight request without max_commands: the
	 * relay's end, with or without the controller's own in-flight update
	 * (rs_ctrl_share_inflight). */
	rs_io_done_fn *unheld_back;
	bool cached;
	bool write_back;              /* mode write-back and the array in its scope */
	struct rs_cache cache;
	uint32_t high_lines, low_lines;
	uint32_t ra_blk, destage_max_blk;
	struct rs_io *stall_head, *stall_tail;   /* writes waiting for room */
	struct rs_io *flush_head, *flush_tail;   /* flushes waiting for a clean cache */
	uint32_t destaging;           /* destage writes in flight */
	bool draining;                /* above the high mark until below the low */
	bool flushing;                /* idle: destage everything */
	rs_time_t last_host_ns;
	struct rs_event_handle idle_ev;
	uint64_t next_seq_lba, ra_end;
	uint64_t next_write_lba;      /* where the last write ended */
	uint32_t ra_inflight;
	struct rs_ctrl_counters n;
	uint64_t admitted;            /* host requests taken, not yet complete */
	struct rs_io *held_head, *held_tail;     /* waiting for max_commands */
};

void rs_ctrl_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);
void rs_ctrl_child_done(struct rs_sim *sim, struct rs_io *ch);
/* Decide, once built, whether the controller's in-flight average is its
 * array's (dev->inflight_of) and set unheld_back to match. */
void rs_ctrl_share_inflight(struct ctrl *c);

#endif
