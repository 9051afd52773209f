/* The solid-state drive: device type `ssd`.
 *
 * Commands enter through the host-side queue (queue_depth tags, NCQ) and
 * are served concurrently.  Each first takes the controller (a server of
 * controller_cores: command_cost plus bytes / controller_rate), then:
 *  - a read asks each of its 4 KiB units from where the map says it is:
 *    the write buffer or nowhere (no flash work), or its die (tR, then the
 *    unit over the die's channel); each unit then takes the controller's
 *    data path (bytes / controller_rate) and crosses the host link, and
 *    the read completes with its last unit;
 *  - a write crosses the host link, then its units go into the DRAM write
 *    buffer, waiting for room when it is full; the write completes there
 *    (the buffer is power-loss protected); idle dies program the buffer's
 *    oldest units a multi-plane page at a time;
 *  - a flush completes after the controller when the buffer is power-loss
 *    protected; without protection it waits until every unit buffered
 *    before it is programmed (partly filled pages if need be), and a FUA
 *    write does the same after its own units are in.
 * NVMe: queue_pairs x queue_depth tags, and each command pays
 * doorbell_cost on its way in and interrupt_cost on its way out.
 * Each die collects garbage on its own (ssd_gc.c): greedily, before host
 * programs when its free blocks fall below gc_low, and when idle below
 * gc_high; so write amplification comes out of the simulation.
 * Wear, when the model sets it: a page read (the host's or the
 * collector's) retries with a probability that grows with its block's
 * erase count and its data's age (ssd_sched.c), and an idle die moves its
 * least-worn block's data to a worn block once the spread of erase counts
 * passes wear_level_spread (ssd_wl.c).
 *
 * Behind a controller port the drive moves its data over the port's link
 * instead of its own (the device interface's attach), unit by unit as each
 * leaves its die. */
#ifndef RS_SSD_SSD_H
#define RS_SSD_SSD_H

#include <stdint.h>

#include "dev/dev.h"
#include "dev/link.h"

extern const struct rs_dev_type rs_dev_ssd;

/* Whole-run counters, for tests and reports. */
struct rs_ssd_counters {
	uint64_t host_units_written;  /* 4 KiB units the host wrote (before coalescing) */
	uint64_t coalesced;           /* ...that replaced a unit still in the buffer */
	uint64_t units_read_flash;    /* read units served by a die */
	uint64_t units_read_buffer;   /* ...from the write buffer */
	uint64_t units_read_unmapped; /* ...never written: no flash work */
	uint64_t stalls;              /* writes that waited for buffer room */
	uint64_t merge_reads;         /* flash reads of units a partial write merged into */
	uint64_t gc_victims;
	uint64_t gc_copies;           /* GC page copies (each through the controller) */
	uint64_t gc_copies_deferred;  /* ...done in idle time that waited for an idle controller */
	uint64_t flushes;             /* flush commands */
	uint64_t fua_through;         /* FUA writes written through (no power-loss protection) */
	uint64_t partial_programs;    /* programs of a partly filled page, for a flush */
	uint64_t reads_retried;       /* page reads whose first ECC decode failed */
	uint64_t read_retries;        /* ...and the re-reads they took */
	uint64_t wl_victims;          /* blocks static wear levelling emptied */
	uint64_t wl_moves;            /* ...the valid units it moved to worn blocks */
	uint32_t wl_least_spread;     /* the smallest erase-count spread a move started at */
	uint32_t max_commands;        /* most commands inside the drive at once */
};

struct ftl;
const struct rs_ssd_counters *rs_ssd_counters(const struct rs_dev *dev);
const struct ftl *rs_ssd_ftl(const struct rs_dev *dev);
/* Most dies ever busy at once, and most transfers on one channel at once
 * (must stay 1). */
uint32_t rs_ssd_max_busy_dies(const struct rs_dev *dev);
/* Warnings printed so far about reads of never-written data on a fresh
 * drive (at most one per process). */
unsigned rs_ssd_unmapped_warnings(void);

#endif
