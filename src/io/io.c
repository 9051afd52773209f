#include "io/io.h"

#include <string.h>

#include "kernel/assert.h"

static const char *const op_names[] = {
#define X(name, str) str,
	RS_OP_LIST(X)
#undef X
};

const char *rs_op_name(enum rs_op op)
{
	RS_ASSERT(op < RS_OP_COUNT);
	return op_names[op];
}

static const char *const err_names[] = {
	"success",
#define X(name, str) str,
	RS_ERR_LIST(X)
#undef X
};

const char *rs_strerror(int status)
{
	int e = -status;
	if (e < 0 || e >= RS_ERR_COUNT)
		return "unknown status";
	return err_names[e];
}

const struct rs_io_counters *rs_io_counters(const struct rs_sim *sim)
{
	return &sim->io_counters;
}

/* A request from a pool that may have to be sized or grown first: out of
 * line, so the constructors, which take from a non-empty free list
 * nearly always, call nothing and save no registers. */
struct rs_io *rs_io_new_slow(struct rs_sim *sim, enum rs_op op, uint64_t lba, uint32_t nblk,
			     struct rs_io *parent, rs_io_done_fn *done, void *done_ctx)
{
	/* The requests' pool is sized here, by the module that owns the type. */
	if (!sim->ios.obj_size)
		rs_sim_pool_register(sim, &sim->ios, sizeof(struct rs_io), 256);
	return rs_io_init(sim, rs_pool_get_raw(&sim->ios), op, lba, nblk, parent, done,
			  done_ctx);
}

struct rs_io *rs_io_new(struct rs_sim *sim, enum rs_op op, uint64_t lba, uint32_t nblk,
			rs_io_done_fn *done, void *done_ctx)
{
	sim->io_counters.bytes_created += (uint64_t)nblk * RS_BLOCK_BYTES;
	return rs_io_make(sim, op, lba, nblk, NULL, done, done_ctx);
}

void rs_io_end(struct rs_sim *sim, struct rs_io *io)
{
	io->state = RS_IO_DONE;
	io->t_done = sim->now;
	sim->io_counters.completed++;
	if (!io->parent)
		sim->io_counters.bytes_completed += rs_io_bytes(io);
	if (io->done)
		io->done(sim, io);
}
