/* Parameters of the `hdd` device type: the schema rows, and the geometry
 * (layout, seek curve, spindle) built from them with diagnostics that
 * point at the offending YAML node.
 *
 * Geometry is either generated from datasheet figures (`zones:`) or given
 * as an explicit zone table (`zone_table:`, DiskSim style); the seek curve
 * is either fitted to three datasheet times (`seek:`) or a measured table
 * (`seek_table:`).  Exactly one of each pair must be present. */
#ifndef RS_DISK_HDD_PARAMS_H
#define RS_DISK_HDD_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/node.h"
#include "config/schema.h"
#include "disk/layout.h"
#include "disk/seek.h"
#include "disk/spindle.h"
#include "kernel/sim.h"

enum rs_hdd_sched_policy { RS_HDD_FCFS = 0, RS_HDD_SSTF, RS_HDD_CLOOK, RS_HDD_SPTF };
/* destage_order: the scheduler's policy, or 1 + an rs_hdd_sched_policy. */
#define RS_HDD_DESTAGE_AS_SCHEDULER 0

struct rs_hdd_params {
	double rpm;
	uint64_t capacity_bytes;          /* 0: everything the layout maps */
	uint64_t heads;
	const struct rs_node *zones;      /* generated geometry */
	const struct rs_node *zone_table; /* explicit geometry */
	uint64_t cylinders;               /* explicit geometry; 0 = from the table */
	uint64_t spare_sect_per_cyl;
	uint64_t spare_tracks_per_zone;
	uint64_t spare_group_tracks;
	int slip_skew;                    /* enum rs_slip_skew */
	const struct rs_node *slips;
	const struct rs_node *seek;       /* {track_to_track, average, full_stroke} */
	const struct rs_node *seek_table; /* [[distance, time], ...] */
	const struct rs_node *seek_hpl;   /* HPL's seek equation */
	rs_time_t write_settle_ns;
	rs_time_t write_settle_early_ns;
	rs_time_t head_switch_ns;
	rs_time_t overhead_read_ns;
	rs_time_t overhead_write_ns;
	rs_time_t overhead_hit_ns;
	double interface_rate_bytes_s;
	rs_time_t interface_block_ns;     /* > 0: per-block bus time, replaces the rate */
	rs_time_t interface_block_write_ns; /* > 0: per-block bus time of write data */
	/* SCSI connection overheads (DiskSim's disconnect/reselect model). */
	rs_time_t data_prep_ns;           /* before data moves on a connection */
	rs_time_t reselect_ns;            /* reconnecting after a disconnect */
	rs_time_t reselect_extra_ns;      /* ... the last time, for an extra-disconnect write */
	rs_time_t disconnect_read_ns[2];  /* a read miss letting the bus go, after a read/write */
	rs_time_t disconnect_write_ns;    /* a write letting the bus go once its data is in */
	bool extra_write_disconnect;      /* a scattered write after a write disconnects first */
	rs_time_t xdisc_command_ns;
	rs_time_t xdisc_first_ns;
	rs_time_t xdisc_gap_ns;
	rs_time_t xdisc_second_ns;
	rs_time_t xdisc_seek_delta_ns;
	rs_time_t write_seek_min_ns;      /* a write's move takes at least this */
	rs_time_t interface_overhead_ns;
	uint64_t interface_burst_bytes;
	uint64_t cache_bytes;
	uint64_t segments;
	uint64_t read_ahead_bytes;
	uint64_t read_ahead_min_bytes;
	int prefetch;                     /* enum rs_hdd_prefetch (hdd_firmware.h) */
	bool read_any_free;
	bool read_ahead_over_request;   /* read-ahead may push the request out of its segment */
	const struct rs_node *overheads;  /* by hit/miss and previous command */
	bool read_ahead_stop_on_command;
	bool read_ahead_stop_in_sector;   /* false: a stopped read-ahead finishes its sector */
	bool read_drop_request;           /* a read's blocks leave the buffer once delivered */
	bool read_ahead_on_idle_hit;      /* a hit on an idle drive restarts read-ahead */
	double read_watermark;            /* share of a read in the buffer before data moves */
	double write_watermark;           /* > 0: a write past a segment streams its data in */
	bool read_hits_on_write_data;     /* cached write data serves reads */
	rs_time_t completion_read_ns;     /* after a read's last data, before its status */
	rs_time_t completion_write_ns;
	bool write_cache;
	bool write_cache_appends_only;    /* only writes that continue cached write data */
	uint64_t write_cache_bytes;
	double destage_high_pct;
	int destage_order;                /* RS_HDD_DESTAGE_AS_SCHEDULER or 1 + policy */
	uint64_t queue_depth;
	int scheduler;                    /* enum rs_hdd_sched_policy */
	rs_time_t aging_ns;
	rs_time_t queued_overhead_ns;
	int protocol;                     /* enum rs_hdd_protocol */
	int tcq_release;                  /* enum rs_hdd_tcq_release */
	uint64_t reorder_window;          /* oldest queued commands the scheduler weighs; 0 = all */
	rs_time_t host_service_ns;        /* host's reaction to a service request (ata-tcq) */
	double spindle_phase;             /* only when the key is present */
};

extern const struct rs_opt rs_hdd_opts[];

/* The mechanics the parameters describe. */
struct rs_hdd_geom {
	struct rs_layout layout;
	struct rs_seek seek;
	struct rs_spindle spindle;
	bool has_layout, has_seek;
};

/* Build layout, seek and spindle from bound params; `node` is the device's
 * merged section (for diagnostics).  Returns 0, or -1 with d set at the
 * offending node; g is then destroyed. */
int rs_hdd_geom_build(struct rs_hdd_geom *g, const struct rs_hdd_params *p,
		      const struct rs_node *node, double phase, struct rs_diag *d);
void rs_hdd_geom_destroy(struct rs_hdd_geom *g);

#endif
