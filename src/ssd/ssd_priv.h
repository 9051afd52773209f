/* The ssd device's state, shared by its files (ssd.c: commands; ssd_sched.c:
 * what each die does next; ssd_gc.c: garbage collection). */
#ifndef RS_SSD_PRIV_H
#define RS_SSD_PRIV_H

#include <gsl/gsl_rng.h>

#include "dev/ioq.h"
#include "dev/link.h"
#include "dev/server.h"
#include "kernel/pool.h"
#include "ssd/flash.h"
#include "ssd/ftl.h"
#include "ssd/ssd.h"
#include "ssd/ssd_params.h"
#include "ssd/wbuf.h"

/* One 4 KiB unit of a read, from the die (if it is on flash) through the
 * controller's data path and the host link. */
struct flash_op {
	struct flash_op *next;
	struct rs_io *io;
	uint32_t ppn;
	uint32_t bytes;               /* of the request inside this unit */
	uint32_t retries;             /* read retries still to do (ssd_sched.c) */
	uint32_t slot;                /* a merge read (io NULL): the buffer slot it completes */
};

#define SSD_MAX_UNITS_PER_PAGE 128u

struct ssd {
	struct rs_dev *dev;
	struct rs_ssd_params p;
	struct rs_ssd_geom g;
	struct ftl ftl;
	struct wbuf buf;
	struct flash_array fa;
	struct rs_server ctrl;        /* controller firmware and data path */
	struct rs_ioq port;           /* host side; tags = queue_depth */
	struct rs_link link_own;      /* the drive's own host link */
	struct rs_link *link;         /* the link its data crosses: its own or a port's */
	bool has_link;
	bool check_only;              /* built for an input check: no flash state */
	struct rs_tavg held;          /* commands the drive holds (NCQ tags in use) */
	uint32_t held_max;
	struct rs_pool ops;           /* struct flash_op */
	struct rs_io *stall_head, *stall_tail;  /* writes waiting for buffer room */
	struct flash_die *bg_head, *bg_tail;    /* background GC copies waiting for an idle
						 * controller */
	struct rs_io *flush_head, *flush_tail;  /* flushes and FUA writes waiting for flash
						 * (no power-loss protection), oldest first */
	uint64_t units_pushed;        /* units ever put into the buffer */
	uint64_t units_taken;         /* ...and ever taken for a program */
	uint32_t next_die;            /* where an idle-die search starts (striping) */
	double ns_per_byte;
	uint32_t busy_dies, max_busy_dies;
	uint64_t win_host_units, win_gc_units;  /* ftl counters at restart_stats */
	uint64_t win_read_retries, win_wl_moves, win_merge_reads;/* ...and the device's */
	gsl_rng *retry_rng;           /* read retries' draws; NULL when the model has none */
	uint32_t scratch_lpn[SSD_MAX_UNITS_PER_PAGE], scratch_ppn[SSD_MAX_UNITS_PER_PAGE];
	struct rs_ssd_counters c;
};

/* ssd_sched.c */
void ssd_die_kick(struct rs_sim *sim, struct ssd *s, struct flash_die *die);
/* Offer buffered units to idle dies, starting after the last one used. */
void ssd_kick_idle(struct rs_sim *sim, struct ssd *s);
/* Queue the unit on the die holding op->ppn. */
void ssd_read_unit(struct rs_sim *sim, struct ssd *s, struct flash_op *op);
/* ssd_sched.c: the retries a read of the page holding ppn takes (a draw;
 * s->retry_rng must be set). */
uint32_t ssd_draw_retries(struct ssd *s, uint32_t ppn);
/* ssd.c: the unit's data is in the controller; on to the host (a read's)
 * or into the partial write waiting for it (a merge's). */
void ssd_unit_ready(struct rs_sim *sim, struct ssd *s, struct flash_op *op);
/* ssd.c: buffer room was freed. */
void ssd_admit_stalled(struct rs_sim *sim, struct ssd *s);

/* ssd.c: a program ended: complete the flushes it made durable. */
void ssd_flush_progress(struct rs_sim *sim, struct ssd *s);

/* Units the buffer must hold before a die programs them: a whole
 * multi-plane page, or while a flush waits for buffered data, any (the
 * page is programmed partly filled). */
static inline uint32_t ssd_program_min(const struct ssd *s)
{
	return s->flush_tail && s->flush_tail->at.ssd.unit > s->units_taken ? 1 : s->g.units_per_page;
}

/* ssd_sched.c: controller work nobody waits for (firmware bookkeeping). */
void ssd_ctrl_noop(struct rs_sim *sim, void *obj, void *arg, int status);

/* ssd_gc.c: make sure the die has a victim (the greedy choice); false if
 * no block is worth collecting. */
bool ssd_gc_victim(struct ssd *s, struct flash_die *die);
/* ssd_gc.c: one step of the die's collection (pick a victim, copy a page
 * of its valid units, or erase it).  False when there is nothing to do. */
bool ssd_gc_step(struct rs_sim *sim, struct ssd *s, struct flash_die *die, bool background);
/* ssd_wl.c: static wear levelling, idle-time work of a die with blocks to
 * spare: start moving its coldest block's data when the die's erase-count
 * spread passes wear_level_spread.  False when there is nothing to do. */
bool ssd_wl_step(struct rs_sim *sim, struct ssd *s, struct flash_die *die);

/* ssd_gc.c: give the controller, if idle, to the oldest background copy. */
void ssd_ctrl_idle(struct rs_sim *sim, struct ssd *s);
/* ssd_gc.c: a host read wants the die: its background copy waits no more. */
void ssd_gc_promote(struct rs_sim *sim, struct ssd *s, struct flash_die *die);

#endif
