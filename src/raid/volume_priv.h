/* Internals of the array device, shared by its source files:
 *   volume.c         parameters, building the members, reports
 *   volume_io.c      member operations, fan-out/fan-in, reads, plain and
 *                    mirrored writes, flush
 *   volume_mirror.c  which copy of a mirror serves a read
 *   volume_parity.c  RAID5/6 writes, one row (stripe) at a time
 *   member_fault.c   failed members, media errors, fail-slow: what a
 *                    finished member operation means under them
 *   degraded.c       reads and writes that avoid lost members
 *   rebuild.c        rebuilding a lost member onto a spare
 *   fault_script.c   the scenario's member faults, checked and scheduled */
#ifndef RS_RAID_VOLUME_PRIV_H
#define RS_RAID_VOLUME_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/server.h"
#include "kernel/pool.h"
#include "raid/mirror_pick.h"
#include "raid/volume.h"
#include "stats/tavg.h"

enum write_policy { WRITE_AUTO, WRITE_RMW, WRITE_RCW };
enum xor_location { XOR_HOST, XOR_ENGINE, XOR_NONE };
/* How a rebuild shares the members with foreground I/O: Linux md's speed
 * limits, or a hardware controller's priority (a share of member time). */
enum rebuild_priority { REBUILD_SPEED_LIMITS, REBUILD_LOW, REBUILD_MEDIUM, REBUILD_HIGH };

struct xor_params {
	int location;                 /* enum xor_location */
	double rate_bytes_s;
	rs_time_t cost_ns;
};

struct array_params {
	int level;                    /* enum rs_raid_level */
	uint64_t strip_bytes;
	int layout;                   /* enum rs_raid_layout */
	const struct rs_node *disks;
	const struct rs_node *members;
	int read_policy;              /* enum read_policy */
	bool sequential_balance;
	bool coalesce;                /* one command per member per request */
	uint64_t spares;              /* hot spares built after the members */
	uint64_t member_size;         /* bytes used of each member (0: all), md's --size */
	double speed_min, speed_max;  /* md's speed_limit_min/max, bytes/s per device */
	int rebuild_priority;         /* enum rebuild_priority */
	int write_policy;             /* enum write_policy */
	const struct rs_node *xor_node;
	struct xor_params xor;        /* bound from xor_node */
};

/* Recent read streams remembered per member: enough for a few interleaved
 * sequential streams (IOMeter runs one per worker). */
#define STREAMS_PER_MEMBER 4u

struct member_state {
	uint32_t outstanding;         /* member ops sent and not yet done */
	uint64_t head_lba;            /* where the last op sent leaves the head */
	uint64_t stream_end[STREAMS_PER_MEMBER];  /* next LBA of recent reads */
	uint32_t stream_next;         /* slot the next new stream replaces */
	uint32_t rr;                  /* rotation for the mirror group this is primary of */
};

struct stripe;

/* Member operation flags. */
enum {
	MOP_RECON = 1u,               /* a source read reconstructing member recon_of */
	MOP_REBUILD = 2u,             /* sent by the rebuild */
	MOP_SLOWED = 4u,              /* fail-slow delay already added */
	MOP_HELD = 8u,                /* holds its fail-slow drive (slot_state.busy) */
};

/* One member operation in flight: the child request's up.raid (what the
 * array needs back when the member is done). */
struct mop {
	struct array *a;
	struct stripe *st;            /* RAID5/6 write row, or NULL */
	uint32_t member;
	uint8_t kind;                 /* enum rs_array_op */
	uint8_t flags;                /* MOP_* */
	uint32_t epoch;               /* the member's failure epoch when sent */
	uint32_t recon_of;            /* MOP_RECON: the member being rebuilt from it */
};

/* Per member position (slot): the drive serving it and its faults. */
struct slot_state {
	uint32_t dev;                 /* index in dev->members of the drive serving it */
	uint32_t epoch;               /* bumped when it fails: older operations are void */
	double slow;                  /* fail-slow factor on its service times; 1 healthy */
	/* Fail-slow: commands waiting for the drive (linked by qnext, which
	 * is ours until the drive has them), and whether one holds it. */
	struct rs_io *wait_head, *wait_tail;
	bool busy;
	uint64_t ios;                 /* member operations sent */
	uint64_t fail_after;          /* fail once this many were sent; 0: never */
	bool replaced;                /* failed, and a new drive was put in */
};

/* Latent sector errors: member blocks [lo, hi] of a drive return media
 * errors on reads.  A fixed table: faults are few, and the hot path must
 * not allocate. */
#define MAX_MEDIA_ERRORS 16u
struct media_error {
	uint32_t dev;                 /* drive (index in dev->members) */
	uint64_t lo, hi;
	rs_time_t from;               /* when the blocks went bad */
};

#define MAX_BAD_ROWS 64u

/* Rebuild: chunks of whole rows, sequential, a few in flight so the
 * reads of one overlap the write of the one before (as md's stripe cache
 * keeps several stripes in flight). */
#define REBUILD_WINDOW 2u
struct rebuild_chunk {
	struct array *a;
	uint64_t row, nrows;
	rs_time_t t_start;
	bool busy, writing;
};

struct rebuild {
	bool active;
	uint32_t slot;
	uint64_t rows_per_chunk;
	uint64_t next_row;            /* first row not yet started */
	uint64_t checkpoint;          /* rows below it are rebuilt */
	rs_time_t next_allowed;       /* pacing: no chunk starts before this */
	bool wake_pending;
	uint64_t fg_seen;             /* foreground arrivals at the last look */
	struct rebuild_chunk ch[REBUILD_WINDOW];
};

/* Extents mapped per call; longer requests are mapped in batches. */
#define EXTENT_BATCH 32u

struct array {
	struct rs_dev *dev;
	struct array_params p;
	struct rs_raid_geom g;
	struct member_state ms[RS_RAID_MAX_MEMBERS];
	struct rs_server xor;
	bool has_xor;
	double xor_ns_per_byte;
	struct rs_pool mops;          /* struct mop */
	struct rs_pool stripes;       /* struct stripe */
	struct rs_array_counters c;
	rs_array_trace_fn *trace;
	void *trace_ctx;

	/* Faults: all of this stays idle (and every output as before) unless
	 * the scenario names a member fault or the array has spares. */
	bool faulty;                  /* a member fault is configured */
	/* Not faulty and not traced (array_of and rs_array_set_trace keep
	 * it): the one test of the request path's common way.  Only a fault
	 * loses a member, marks a row bad or kills the array, so a quiet
	 * array has none of them either. */
	bool quiet;
	struct slot_state slot[RS_RAID_MAX_MEMBERS];
	uint64_t lost;                /* slots without valid data (bit per slot) */
	bool dead;                    /* lost beyond what the level survives */
	uint32_t spare_free[RS_RAID_MAX_MEMBERS];   /* unused spare drives */
	uint32_t nspare_free;
	struct media_error media[MAX_MEDIA_ERRORS];
	uint32_t nmedia;
	uint64_t fg_inflight, fg_arrivals;          /* host requests */
	uint64_t unit_blk;            /* rebuild and degraded bookkeeping unit (a row) */
	/* Rows a rebuild could not recover: reads of them fail with data
	 * loss from then on (md's bad block list).  The first MAX_BAD_ROWS
	 * are remembered; stripes_lost counts them all. */
	uint64_t bad_row[MAX_BAD_ROWS];
	uint32_t nbad;
	struct rebuild rb;
};

/* volume_io.c */
/* A rebuild phase is the array's own request: no device took it, so it
 * completes without the device accounting. */
static inline bool array_is_rebuild(const struct rs_io *io) { return io->dev == NULL; }
/* The array holds a request (rs_io_hold) while it still has work to start
 * for it (fan-out in progress, a row between its phases), so it cannot
 * complete early; release completes it at the last hold or child. */
void array_release(struct rs_sim *sim, struct array *a, struct rs_io *io);
/* Send one member operation on behalf of parent (and of row st). */
void array_issue(struct rs_sim *sim, struct array *a, struct rs_io *parent, struct stripe *st,
		 uint32_t member, enum rs_array_op kind, uint64_t member_lba, uint32_t nblk);
void array_issue_ex(struct rs_sim *sim, struct array *a, struct rs_io *parent, struct stripe *st,
		    uint32_t member, enum rs_array_op kind, uint64_t member_lba, uint32_t nblk,
		    uint8_t flags, uint32_t recon_of);
void array_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);

/* volume_mirror.c */
/* The member that serves a read of extent e (its primary copy or a
 * mirror), and remember the read for stream detection. */
uint32_t array_pick_copy(struct array *a, const struct rs_raid_extent *e);

/* volume_parity.c */
size_t array_stripe_size(void);
/* Write [io->lba, io->lba + io->nblk) on RAID5/6, one row at a time. */
void array_parity_write(struct rs_sim *sim, struct array *a, struct rs_io *io);
/* A member operation of row st finished. */
void array_stripe_op_done(struct rs_sim *sim, struct stripe *st);
/* One more member operation for row st's current phase. */
void array_stripe_hold(struct stripe *st);

/* member_fault.c */
/* Whether lost slot m is still without row `row` (the rebuild has not
 * passed it). */
static inline bool slot_down_row(const struct array *a, uint32_t m, uint64_t row)
{
	if (!(a->lost >> m & 1u))
		return false;
	return !(a->rb.active && a->rb.slot == m && row < a->rb.checkpoint);
}
/* Whether slot m cannot serve row `row`: it is lost, or (RAID0+1, by the
 * survival rule of map.h) a member of its half is, which takes the whole
 * stripe set offline, so reads and writes go to the other half only. */
static inline bool slot_lost_row(const struct array *a, uint32_t m, uint64_t row)
{
	if (!a->lost)
		return false;
	if (slot_down_row(a, m, row))
		return true;
	if (a->g.level != RS_RAID_RAID01)
		return false;
	uint32_t h = a->g.nmembers / 2, first = m < h ? 0 : h;
	for (uint32_t f = first; f < first + h; f++)
		if (f != m && slot_down_row(a, f, row))
			return true;
	return false;
}
static inline uint64_t array_row_of(const struct array *a, uint64_t member_lba)
{
	return member_lba / a->unit_blk;
}
void array_faults_init(struct array *a);
void array_fail_slot(struct rs_sim *sim, struct array *a, uint32_t m);
/* The fault's view of a finished member operation: may rewrite its
 * status, send operations in its place, or hold it back (fail-slow): true
 * when it is held and mop_done must stop here. */
bool array_fault_filter(struct rs_sim *sim, struct array *a, struct mop *mo, struct rs_io *child);
/* Send mo's child to the drive of its slot; a fail-slow drive takes one
 * at a time (member_fault.c). */
void array_member_submit(struct rs_sim *sim, struct array *a, struct mop *mo,
			 struct rs_io *child);

/* Charge the XOR server a pass over `bytes` (its set-up cost plus its
 * rate), then fn(sim, obj, arg, 0).  Only with a->has_xor. */
void array_xor_submit(struct rs_sim *sim, struct array *a, uint64_t bytes, rs_job_fn *fn,
		      void *obj, void *arg);

/* degraded.c */
/* Sources of row `row` to reconstruct member `target` from: data members
 * first, then P, then Q, skipping lost ones and those in `exclude`; the
 * first ndata of them (mirrors: one surviving copy).  Returns how many
 * were found (fewer than needed: the data is lost). */
uint32_t array_recon_sources(const struct array *a, uint64_t row, uint32_t target,
			     uint64_t exclude, uint32_t *out);
uint32_t array_recon_needed(const struct array *a);
/* Read member blocks [lba, lba + nblk) of `target` without it: from a
 * surviving copy, or reconstructed; data loss otherwise. */
void array_read_without(struct rs_sim *sim, struct array *a, struct rs_io *parent,
			struct stripe *st, uint32_t target, uint64_t exclude, uint64_t lba,
			uint32_t nblk);
void array_degraded_read(struct rs_sim *sim, struct array *a, struct rs_io *io,
			 const struct rs_raid_extent *e);
void array_degraded_write(struct rs_sim *sim, struct array *a, struct rs_io *io,
			  const struct rs_raid_extent *e);
void array_data_lost(struct array *a, struct rs_io *io);
/* A rebuild could not recover row `row`; whether a row is so. */
void array_row_lost(struct array *a, uint64_t row);
bool array_row_bad(const struct array *a, uint64_t row);

/* rebuild.c */
void array_rebuild_maybe_start(struct rs_sim *sim, struct array *a);
void array_rebuild_abort(struct array *a);

#endif
