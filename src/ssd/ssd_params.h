/* Parameters of the `ssd` device type: the flash array's geometry and
 * timing, the controller, the write buffer, the FTL's garbage-collection
 * watermarks and the starting state, bound through one schema table. */
#ifndef RS_SSD_PARAMS_H
#define RS_SSD_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/node.h"
#include "config/schema.h"
#include "kernel/sim.h"

/* The FTL maps 4 KiB units: the host's sector size of 2012 drives and the
 * granularity of the S3700's flat indirection table. */
#define RS_SSD_UNIT_BYTES 4096u

enum rs_ssd_state {
	RS_SSD_FRESH,                 /* every block erased, nothing mapped */
	RS_SSD_FULL,                  /* written once sequentially: every unit mapped, no stale data */
	RS_SSD_STEADY,                /* after random overwrites: the greedy-GC steady state */
};

struct rs_ssd_params {
	uint64_t capacity_bytes;      /* user (logical) capacity */
	uint64_t channels;
	uint64_t dies_per_channel;
	uint64_t planes;
	uint64_t blocks_per_plane;
	uint64_t pages_per_block;
	uint64_t page_bytes;
	double reserved_pct;          /* blocks kept out of the FTL's pool (bad blocks, firmware) */
	rs_time_t t_read_ns, t_prog_ns, t_erase_ns;
	double channel_rate;          /* bytes/s on one flash bus */
	rs_time_t channel_overhead_ns;/* command and address cycles per transfer */
	rs_time_t command_cost_ns;    /* controller firmware, per command */
	rs_time_t program_cost_ns;    /* controller firmware, per flash program or erase issued */
	double controller_rate;       /* bytes/s the controller's data path adds per command; 0 = none */
	uint64_t controller_cores;
	uint64_t queue_depth;         /* per queue pair */
	uint64_t queue_pairs;         /* NVMe submission/completion queue pairs (1: SATA NCQ) */
	rs_time_t doorbell_ns;        /* a command's way in: doorbell write and entry fetch */
	rs_time_t interrupt_ns;       /* a completion's way out: entry write and interrupt */
	rs_time_t write_commit_ns;    /* from a write's data in the buffer to its acknowledgement */
	bool plp;                     /* power-loss protection: the write buffer is safe */
	bool merge_partial;           /* a write into part of a 4 KiB unit on flash reads the
				       * unit first (read-modify-write) */
	uint64_t write_buffer_bytes;
	uint64_t gc_low, gc_high;     /* free blocks per die: GC first below low, takes turns with
				       * host programs below high, runs when idle below high */
	int state;                    /* enum rs_ssd_state */
	/* wear and what it costs (ssd_sched.c: read retries; ssd_wl.c) */
	uint64_t pe_cycles;           /* program/erase cycles every block has at the start */
	rs_time_t data_age_ns;        /* retention age of the starting state's data */
	uint64_t read_retries;        /* most retries of one page read; 0 = none */
	double read_retry_p0;         /* first decode fails: unworn block, fresh data */
	double read_retry_wear;       /* P/E cycles that double that probability */
	rs_time_t read_retry_age_ns;  /* retention age that doubles it */
	double read_retry_again;      /* a retry's decode fails too */
	rs_time_t read_retry_cost_ns; /* per retry, beyond tR and the transfer */
	uint64_t wl_spread;           /* erase-count spread that starts static wear
				       * levelling on a die; 0 = none */
	bool interface;               /* its own host link (off when behind a controller port) */
	double interface_rate;
	rs_time_t interface_overhead_ns;
	uint64_t interface_burst_bytes;
	const struct rs_node *interface_bus;  /* a bus model or inline link; NULL = the three above */
};

extern const struct rs_opt rs_ssd_opts[];

/* Derived sizes, in 4 KiB units and (super)blocks. */
struct rs_ssd_geom {
	uint32_t ndies;
	uint32_t units_per_page;      /* one multi-plane page: planes x page / 4 KiB */
	uint32_t units_per_block;     /* one multi-plane block (the erase unit) */
	uint32_t blocks_per_die;      /* usable multi-plane blocks, after the reserve */
	uint64_t logical_units;
	uint64_t physical_units;
};

/* Check the cross-field constraints (blaming the key at fault in `node`)
 * and work out the geometry.  0 or -1 with d set. */
int rs_ssd_geom_derive(const struct rs_ssd_params *p, const struct rs_node *node,
		       struct rs_ssd_geom *g, struct rs_diag *d);

#endif
