/* Internals of the array device, shared by its source files:
 *   volume.c         parameters, building the members, reports
 *   volume_io.c      member operations, fan-out/fan-in, reads, plain and
 *                    mirrored writes, flush
 *   volume_mirror.c  which copy of a mirror serves a read
 *   volume_parity.c  RAID5/6 writes, one row (stripe) at a time */
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
	int write_policy;             /* enum write_policy */
	const struct rs_node *xor_node;
	struct xor_params xor;        /* bound from xor_node */
};

/* Recent read streams remembered per member: enough for a few interleaved
 * sequential streams (IOMeter runs one per worker). */
#define STREAMS_PER_MEMBER 4u

struct member_state {
	uint32_t outstanding;         /* member ops sent and not yet done */
	struct rs_tavg depth;         /* ... averaged over time */
	uint64_t head_lba;            /* where the last op sent leaves the head */
	uint64_t stream_end[STREAMS_PER_MEMBER];  /* next LBA of recent reads */
	uint32_t stream_next;         /* slot the next new stream replaces */
	uint32_t rr;                  /* rotation for the mirror group this is primary of */
};

struct stripe;

/* One member operation in flight: the child request's done_ctx (the
 * member may use the request's scratch fields while it holds it, so what
 * we need back lives here). */
struct mop {
	struct array *a;
	struct stripe *st;            /* RAID5/6 write row, or NULL */
	uint32_t member;
	uint8_t kind;                 /* enum rs_array_op */
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
};

/* volume_io.c */
/* A reference the array holds on a request while it still has work to
 * start for it (fan-out in progress, a row between its phases), so the
 * request cannot complete early; release completes it at the last one. */
static inline void array_hold(struct rs_io *io) { io->pending++; }
void array_release(struct rs_sim *sim, struct array *a, struct rs_io *io);
/* Send one member operation on behalf of parent (and of row st). */
void array_issue(struct rs_sim *sim, struct array *a, struct rs_io *parent, struct stripe *st,
		 uint32_t member, enum rs_array_op kind, uint64_t member_lba, uint32_t nblk);
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

#endif
