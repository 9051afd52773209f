/* The flash array's timing: dies on channels.
 *
 * A die does one operation at a time and is busy for all of it; a channel
 * (an rs_link) moves one die's data at a time.  Every operation is the
 * same three steps, any of which may be empty:
 *
 *     array time (tR, or tBERS)  ->  bus transfer  ->  array time (tPROG)
 *
 * so a read is tR then data out of the page register, a program is data in
 * then tPROG, an erase is tBERS, and a GC copy is tR, data out and back in
 * (the controller checks and re-encodes it) and tPROG.  While a die senses
 * or programs, its channel is free for the other dies' transfers: that is
 * die interleaving.  A read holds its die until the data is out, since the
 * page register is in use until then.
 *
 * A die also remembers which multi-plane page its registers hold: a read of
 * a unit of that page skips tR (until the die does anything else). */
#ifndef RS_SSD_FLASH_H
#define RS_SSD_FLASH_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/link.h"
#include "kernel/sim.h"
#include "stats/tavg.h"

struct flash_op;

struct flash_die {
	uint32_t index, channel;
	bool busy;
	bool held;                    /* between the halves of a GC copy: data in the controller */
	uint32_t reg_page;            /* multi-plane page in the registers, or UINT32_MAX */
	/* the running operation */
	rs_time_t post_ns;
	uint64_t bytes;
	uint8_t dir;                  /* enum rs_dir of the transfer */
	rs_event_fn *fn;
	void *fn_obj, *fn_arg;
	/* the device's per-die scheduling state */
	struct flash_op *rq_head, *rq_tail;   /* host reads waiting for this die */
	bool gc_background;           /* the running GC step is idle-time work */
	struct flash_die *bg_next;    /* waiting for an idle controller (held) */
	double gc_debt;               /* units GC owes for the host's programs below gc_high */
	double gc_ratio;              /* copies per unit freed of the current victim */
	uint32_t victim, victim_scan; /* block being collected, or UINT32_MAX */
	bool victim_wl;               /* ...for wear levelling, not for space */
	bool wl_due;                  /* erased since wear levelling last looked */
	uint32_t batch;               /* units in the running program or copy */
	uint64_t batch_seq;           /* a host program: its first unit's place in the buffer's
				       * order (ssd.c: units_taken) */
	bool batch_gc;
};

struct flash_array {
	uint32_t ndies, nchannels;
	struct flash_die *die;        /* die d is on channel d % nchannels */
	struct rs_link *chan;
	char (*chan_name)[24];
	struct rs_tavg busy;          /* busy dies */
	uint64_t reads, reg_hits, programs, copies, erases;
};

void flash_init(struct flash_array *fa, uint32_t nchannels, uint32_t dies_per_channel,
		const struct rs_link_params *bus, rs_time_t now);
void flash_free(struct flash_array *fa);
void flash_restart_stats(struct flash_array *fa, rs_time_t now);

/* Run one operation on an idle die: pre_ns of array time, `bytes` over the
 * channel in direction dir (RS_DIR_IN = to the controller), post_ns of
 * array time; then fn(sim, obj, arg) with the die idle again.  `page` is
 * the multi-plane page the registers hold afterwards (UINT32_MAX: none). */
void flash_run(struct rs_sim *sim, struct flash_array *fa, struct flash_die *die,
	       rs_time_t pre_ns, uint64_t bytes, enum rs_dir dir, rs_time_t post_ns,
	       uint32_t page, rs_event_fn *fn, void *obj, void *arg);

#endif
