/* The I/O request.
 *
 * One struct rs_io travels from the workload through every layer to a
 * device and back.  Layers that split a request (an array striping over its
 * members, a controller cutting a transfer into commands) create children
 * with rs_io_child(); the parent completes, through the device it was
 * submitted to, when its last child has (the fan-in below, one for every
 * layer).  Every request must complete exactly once: rs_io_complete()
 * enforces it, and the sim-wide counters let tests check that nothing
 * leaked or finished twice.
 *
 * Requests come from the sim's pool: no malloc on the hot path. */
#ifndef RS_IO_IO_H
#define RS_IO_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/assert.h"
#include "kernel/sim.h"

#define RS_BLOCK_BYTES 512u

/* X-macro lists keep enum, names and reports in step. */
#define RS_OP_LIST(X) X(READ, "read") X(WRITE, "write") X(FLUSH, "flush")
enum rs_op {
#define X(name, str) RS_##name,
	RS_OP_LIST(X)
#undef X
	RS_OP_COUNT
};
const char *rs_op_name(enum rs_op op);

/* Status codes: 0 is success; errors are negative. */
#define RS_ERR_LIST(X)                                                      \
	X(EIO, "I/O error")                                                 \
	X(ETIMEDOUT, "timed out")                                           \
	X(ENOPATH, "no path to device")                                     \
	X(ELINKDOWN, "link down")                                           \
	X(ERANGE, "address beyond device capacity")                         \
	X(EABORTED, "aborted")                                              \
	X(DATALOSS, "data lost: more array members failed than the level survives")
enum rs_err {
	RS_OK = 0,
#define X(name, str) RS_ERR_##name,
	RS_ERR_LIST(X)
#undef X
	RS_ERR_COUNT
};
/* Text for a status (0 or -RS_ERR_*). */
const char *rs_strerror(int status);

struct rs_io;
struct rs_dev;
/* Most layers that relay one request at once (dev/fanin.h): a controller,
 * its array and the array's port; a layer that finds them all taken makes
 * a child. */
#define RS_IO_RELAYS 3
/* Layers' per-request state (union rs_io_up), each defined by its layer. */
struct mop;
struct cmd;
struct rs_stage_back;
struct pc_stream;
typedef void rs_io_done_fn(struct rs_sim *sim, struct rs_io *io);

enum rs_io_state { RS_IO_FREE = 0, RS_IO_LIVE, RS_IO_DONE };

/* One layer's frame in a request's relays (struct rs_io). */
struct rs_io_relay {
	rs_io_done_fn *back;
	struct rs_dev *dev;
	/* The layer's own: what it changed in the request to hand it on (the
	 * array: the request's address, the member it went to and when), to
	 * be put back on the way up. */
	uint64_t lba;
	rs_time_t t_sent;
	uint32_t member;
};


struct rs_io {
	uint64_t id;
	enum rs_op op;
	uint8_t state;                /* enum rs_io_state */
	/* Forced unit access (a WRITE): complete only once the data is where a
	 * power loss cannot take it.  A drive with power-loss protection has it
	 * there already; one without writes it through its cache.  Children of
	 * a FUA write inherit it. */
	bool fua;
	uint64_t lba;                 /* in 512-byte blocks */
	uint32_t nblk;
	int status;                   /* 0 or -RS_ERR_* */

	rs_time_t t_submit;           /* entered the first layer */
	rs_time_t t_issue;            /* dispatched to the medium/server */
	rs_time_t t_done;

	struct rs_io *parent;         /* fan-out: parent of this child */
	uint32_t pending;             /* fan-in: children not yet complete, and holds */

	rs_io_done_fn *done;          /* called once, on completion */
	void *done_ctx;               /* for the owner of `done` */

	/* Intrusive links for whichever layer holds the request now; a
	 * request waits in at most one queue at a time. */
	struct rs_io *qnext, *qprev;
	/* The device the request was last submitted to (rs_dev_submit): the
	 * fan-in finds the parent's layer through it and completes the parent
	 * there.  NULL for a layer's own request that no device took (an
	 * array's rebuild phase), which completes without device accounting. */
	struct rs_dev *dev;
	/* The devices that handed this very request on to the one below
	 * instead of making a child (rs_io_relay, dev/fanin.h), the latest
	 * last: a completion runs the last one's `back` with the request back
	 * at that device, whose layer finishes its own work and completes it
	 * again, through its own accounting, to the layer before it (the
	 * next relay down the stack) or to whoever submitted it.  relay_top
	 * is the last frame in use, NULL when none is: a pointer, not a
	 * count, as every layer on the way reads its frame. */
	struct rs_io_relay *relay_top;
	struct rs_io_relay relays[RS_IO_RELAYS];

	/* Per-request state, typed by layer, so no layer borrows a field
	 * another one gives a different meaning.  `up` belongs to the layer
	 * that made the request with rs_io_child (its state per child); `at`
	 * to the device the request is submitted to, while it serves it. */
	union rs_io_up {
		struct mop *raid;                    /* array: the member operation */
		uint32_t raid_member;                /* array: a plain one's member */
		struct cmd *iscsi;                   /* iSCSI adapter: the command */
		const struct rs_stage_back *stage;   /* host stage: where it goes on */
		uint32_t mp_path;                    /* multipath: the path taken */
		struct pc_stream *page_cache;        /* page cache: the stream a fetch fills */
	} up;
	union rs_io_at {
		uint32_t mp_tries;                   /* multipath: paths tried after the first */
		uint32_t target_step;                /* iSCSI target: stages done */
		struct {
			uint32_t units_left;         /* units not yet sent to the host */
			uint64_t unit;               /* next unit to buffer; a flush's mark */
		} ssd;
		struct {
			uint32_t slot;               /* its command context + 1; 0: not held */
			rs_time_t arrived;           /* when the drive took it */
		} hdd;
	} at;
};

/* rs_io_init sets or zeroes every field by name (relays[] beyond
 * relay_top are never read): a new field must be added there too (and
 * this size updated with it). */
_Static_assert(sizeof(void *) != 8 || sizeof(struct rs_io) == 144 + 40 * RS_IO_RELAYS,
	       "a new field of struct rs_io needs its line in rs_io_init");

static inline uint64_t rs_io_bytes(const struct rs_io *io)
{
	return (uint64_t)io->nblk * RS_BLOCK_BYTES;
}

/* A first-in first-out list of requests through their qnext links, for a
 * layer that holds requests back (head and tail NULL when empty). */
static inline void rs_io_fifo_push(struct rs_io **head, struct rs_io **tail, struct rs_io *io)
{
	io->qnext = NULL;
	if (*tail)
		(*tail)->qnext = io;
	else
		*head = io;
	*tail = io;
}

static inline struct rs_io *rs_io_fifo_pop(struct rs_io **head, struct rs_io **tail)
{
	struct rs_io *io = *head;
	if (io) {
		*head = io->qnext;
		if (!*head)
			*tail = NULL;
		io->qnext = NULL;
	}
	return io;
}

/* Sim-wide accounting (struct in kernel/sim.h), for the exactly-once
 * invariant. */
const struct rs_io_counters *rs_io_counters(const struct rs_sim *sim);

/* A new top-level request; t_submit is now. */
struct rs_io *rs_io_new(struct rs_sim *sim, enum rs_op op, uint64_t lba, uint32_t nblk,
			rs_io_done_fn *done, void *done_ctx);

/* The bytes from field a to the end of field b of struct rs_io, for
 * rs_io_init's stores of neighbours that must lie back to back (the
 * assertions below say so). */
#define RS_IO_SPAN(a, b) (offsetof(struct rs_io, b) + sizeof(((struct rs_io *)0)->b) - \
			  offsetof(struct rs_io, a))
_Static_assert(RS_IO_SPAN(t_issue, t_done) == 2 * sizeof(rs_time_t),
	       "t_issue and t_done lie back to back");
_Static_assert(RS_IO_SPAN(qnext, relay_top) == 4 * sizeof(void *),
	       "qnext, qprev, dev and relay_top lie back to back");
_Static_assert(RS_IO_SPAN(up, at) == sizeof(union rs_io_up) + sizeof(union rs_io_at),
	       "up and at lie back to back");

/* A fresh request in io, from the pool: every field not set here is zero.
 * Field by field: a copy of a zero request (what this did before) loads
 * and stores all of it and then overwrites half; the pool's memset of a
 * size it learns at run time cost a call into the C library; a compound
 * literal or a memset of the known size is `rep stos` (a string
 * instruction slow to start).  A field rs_io gains needs its line here:
 * the assertion after the struct stops the build until it has one.  For
 * the constructors only. */
static inline __attribute__((always_inline)) struct rs_io *
rs_io_init(struct rs_sim *sim, struct rs_io *io, enum rs_op op, uint64_t lba, uint32_t nblk,
	   struct rs_io *parent, rs_io_done_fn *done, void *done_ctx)
{
	io->id = sim->io_counters.created++;
	io->status = 0;
	/* Neighbours zeroed as one (a 16-byte store each, where the
	 * fields one by one are two). */
	memset(&io->t_issue, 0, RS_IO_SPAN(t_issue, t_done));
	io->pending = 0;
	memset(&io->qnext, 0, RS_IO_SPAN(qnext, relay_top));
	memset(&io->up, 0, RS_IO_SPAN(up, at));
	io->state = RS_IO_LIVE;
	io->t_submit = sim->now;
	io->op = op;
	io->lba = lba;
	io->nblk = nblk;
	io->parent = parent;
	io->fua = parent && parent->fua && op == RS_WRITE;
	io->done = done;
	io->done_ctx = done_ctx;
	return io;
}

/* The constructors' way when the pool's free list is empty (the pool is
 * still to be sized, or must grow): out of line. */
struct rs_io *rs_io_new_slow(struct rs_sim *sim, enum rs_op op, uint64_t lba, uint32_t nblk,
			     struct rs_io *parent, rs_io_done_fn *done, void *done_ctx);

/* Both constructors' allocation: from a non-empty free list inline, else
 * (a pool not yet sized has an empty one too) out of line. */
static inline struct rs_io *rs_io_make(struct rs_sim *sim, enum rs_op op, uint64_t lba,
				       uint32_t nblk, struct rs_io *parent,
				       rs_io_done_fn *done, void *done_ctx)
{
	if (!sim->ios.free_list)
		return rs_io_new_slow(sim, op, lba, nblk, parent, done, done_ctx);
	return rs_io_init(sim, rs_pool_take_free(&sim->ios), op, lba, nblk, parent, done,
			  done_ctx);
}

/* A child of parent with its hook `done` (not NULL) and its context: the
 * primitive under the fan-in of dev/fanin.h, which chooses the hook.
 * Inline: every layer of a request tree makes one per request, and a call
 * would cost as much as the rest. */
static inline struct rs_io *rs_io_new_child(struct rs_sim *sim, struct rs_io *parent,
					    enum rs_op op, uint64_t lba, uint32_t nblk,
					    rs_io_done_fn *done, void *done_ctx)
{
	RS_ASSERT(parent && parent->state == RS_IO_LIVE && done);
	parent->pending++;
	return rs_io_make(sim, op, lba, nblk, parent, done, done_ctx);
}

/* The end of rs_io_complete for a request no layer relays: done, counted,
 * io->done called.  Out of line. */
void rs_io_end(struct rs_sim *sim, struct rs_io *io);

/* rs_io_complete without its assertions, for a request whose first
 * completion made them already (a relayed request a layer finishes:
 * rs_dev_complete_relayed, dev/dev.h).  A relayed request goes back to its
 * last relay first (io->relays), still live: it completes it once more
 * (rs_io_relay_finish, which takes its frame off first) when its own work
 * is done, and io->dev still says which device gave it back (the layer's
 * own, or one below).  That is inline, the end is not. */
static inline void rs_io_recomplete(struct rs_sim *sim, struct rs_io *io, int status)
{
	if (io->status == 0)
		io->status = status;
	if (io->relay_top) {
		io->relay_top->back(sim, io);
		return;
	}
	rs_io_end(sim, io);
}
/* Complete a request with a status; asserts it has not completed before.
 * Calls io->done, which usually frees the request (see rs_io_recomplete
 * for a relayed one). */
static inline void rs_io_complete(struct rs_sim *sim, struct rs_io *io, int status)
{
	RS_ASSERT(io->state == RS_IO_LIVE);
	RS_ASSERT(io->pending == 0);
	rs_io_recomplete(sim, io, status);
}
/* Give a completed request back to the pool.  Inline, as the pool's get:
 * every request and every child is freed once, and the call cost more
 * than these few stores. */
static inline void rs_io_free(struct rs_sim *sim, struct rs_io *io)
{
	RS_ASSERT(io->state == RS_IO_DONE);
	io->state = RS_IO_FREE;
	sim->io_counters.freed++;
	rs_pool_put(&sim->ios, io);
}

#endif
