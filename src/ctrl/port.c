#include "ctrl/port.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctrl/hostq.h"
#include "kernel/assert.h"

struct port {
	struct rs_dev *member;
	struct rs_channel *ch;
	struct rs_link *host_bus;
	bool drive_moves_data;        /* the drive transfers over ch->link itself */
};

static const struct rs_dev_type port_type;

void rs_channel_init(struct rs_channel *ch, const char *name, const struct rs_link_params *lp,
		     uint32_t tags, int policy, rs_time_t now)
{
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->name, sizeof(ch->name), "%s", name);
	if (lp) {
		ch->has_link = true;
		rs_link_init(&ch->link, ch->name, lp, now);
		ch->bus = &ch->link;
	}
	rs_ioq_init(&ch->q, tags, rs_hostq_policy(policy), &ch->last_lba);
}

void rs_channel_init_scsi(struct rs_channel *ch, const char *name, struct rs_link *bus,
			  uint32_t tags, int policy, rs_time_t now)
{
	rs_channel_init(ch, name, NULL, tags, policy, now);
	ch->bus = bus;
	ch->scsi = true;
}

/* ---- the request path --------------------------------------------------
 * A command is the request itself, relayed to the member (dev/fanin.h),
 * when one command carries it and no host-bus transfer runs beside it;
 * else the port's children of the request, one per command (and one for
 * an overlapped transfer), whose parent was submitted to the port. */

static inline void dispatch(struct rs_sim *sim, struct rs_channel *ch);

/* A command the port relays has the port's frame last; a child of the
 * port is a fresh request that no layer relays. */
static bool relayed(const struct rs_io *cmd)
{
	return rs_io_relayed(cmd);
}

static struct port *port_of(const struct rs_io *cmd)
{
	return relayed(cmd) ? cmd->relay_top->dev->priv : cmd->parent->dev->priv;
}

/* A command is done.  Relayed, the request goes back to whoever submitted
 * it, as it came (the drive's dispatch time is the port's business); a
 * child folds into the request, which goes back when the last one is (the
 * command, and with bus overlap its host-bus transfer). */
static void command_done(struct rs_sim *sim, struct rs_io *cmd, int status)
{
	if (relayed(cmd)) {
		cmd->t_issue = 0;
		rs_io_relay_finish(sim, cmd, status);
		return;
	}
	rs_io_child_finished(sim, cmd, status);
}

static void bus_in_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	command_done(sim, arg, status);
}

/* The command left the channel: free its tag, then the data, if any,
 * crosses the host bus to memory. */
static void command_over(struct rs_sim *sim, struct port *pt, struct rs_io *child, int status)
{
	rs_ioq_release(&pt->ch->q);
	dispatch(sim, pt->ch);
	if (status == 0)
		status = child->status;
	if (pt->host_bus && status == 0 && child->op == RS_READ && child->nblk &&
	    !pt->ch->bus_overlap)
		rs_link_xfer(sim, pt->host_bus, RS_DIR_IN, rs_io_bytes(child), bus_in_done, pt,
			     child);
	else
		command_done(sim, child, status);
}

static void status_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	command_over(sim, obj, arg, status);
}

/* On a SCSI bus the drive reselects once more to return the status. */
static void status_phase(struct rs_sim *sim, struct port *pt, struct rs_io *child, int status)
{
	if (pt->ch->scsi && status == 0)
		rs_link_xfer(sim, pt->ch->bus, RS_DIR_IN, 0, status_done, pt, child);
	else
		command_over(sim, pt, child, status);
}

static void chan_in_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	status_phase(sim, obj, arg, status);
}

/* A command is back from the member: a read's data crosses the channel
 * unless the drive moved it itself, then the status. */
static inline void command_back(struct rs_sim *sim, struct port *pt, struct rs_io *child)
{
	if (!pt->drive_moves_data && pt->ch->bus && child->status == 0 &&
	    child->op == RS_READ && child->nblk)
		rs_link_xfer(sim, pt->ch->bus, RS_DIR_IN, rs_io_bytes(child), chan_in_done, pt,
			     child);
	else
		status_phase(sim, pt, child, 0);
}

/* The port's child-done hook: one of its commands is back. */
static void member_done(struct rs_sim *sim, struct rs_io *child)
{
	command_back(sim, child->parent->dev->priv, child);
}

/* A relayed command's way back: the port is the last relay's device (the
 * frame is there: this hook is reached only as its `back`). */
static void relayed_member_done(struct rs_sim *sim, struct rs_io *cmd)
{
	command_back(sim, cmd->relay_top->dev->priv, cmd);
}

static void to_member(struct rs_sim *sim, struct port *pt, struct rs_io *child)
{
	rs_dev_submit(sim, pt->member, child);
}

/* A transfer before the member failed: the child completes through the
 * member's path, so the port's accounting sees it like any other. */
static void fail_before_member(struct rs_sim *sim, struct rs_io *child, int status)
{
	rs_io_complete(sim, child, status);
}

static void chan_out_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	if (status)
		fail_before_member(sim, arg, status);
	else
		to_member(sim, obj, arg);
}

static void bus_out_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct port *pt = obj;
	struct rs_io *child = arg;
	if (status == 0 && !pt->drive_moves_data && pt->ch->bus) {
		rs_link_xfer(sim, pt->ch->bus, RS_DIR_OUT, rs_io_bytes(child), chan_out_done,
			     pt, child);
		return;
	}
	chan_out_done(sim, pt, child, status);
}

/* Bus overlap: the data crosses the host bus while the drive works, as a
 * DMA engine streams it (cut-through); a second child of the parent stands
 * for that transfer, so the parent completes when both are done. */
static void overlap_child_done(struct rs_sim *sim, struct rs_io *xfer)
{
	rs_io_child_finished(sim, xfer, 0);
}

static void overlap_bus_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	rs_io_complete(sim, arg, status);
}

/* start's way for a write, or with bus overlap: data to move before or
 * beside the member's work.  Out of line, so a read without overlap (the
 * member's work first) saves no registers for it. */
static __attribute__((noinline)) void start_moving(struct rs_sim *sim, struct port *pt,
						   struct rs_io *child)
{
	if (pt->ch->bus_overlap && pt->host_bus && child->nblk && child->op != RS_FLUSH) {
		struct rs_io *xfer = rs_io_child(sim, child->parent, child->op, child->lba,
						 child->nblk, overlap_child_done, NULL);
		rs_link_xfer(sim, pt->host_bus, child->op == RS_WRITE ? RS_DIR_OUT : RS_DIR_IN,
			     rs_io_bytes(child), overlap_bus_done, pt, xfer);
		if (child->op == RS_WRITE)
			bus_out_done(sim, pt, child, 0);
		else
			to_member(sim, pt, child);
		return;
	}
	if (child->op != RS_WRITE || child->nblk == 0) {
		to_member(sim, pt, child);
		return;
	}
	if (pt->host_bus)
		rs_link_xfer(sim, pt->host_bus, RS_DIR_OUT, rs_io_bytes(child), bus_out_done, pt,
			     child);
	else
		bus_out_done(sim, pt, child, 0);
}

static inline void start(struct rs_sim *sim, struct port *pt, struct rs_io *child)
{
	if (child->op != RS_WRITE && !pt->ch->bus_overlap)
		to_member(sim, pt, child);
	else
		start_moving(sim, pt, child);
}

static void command_sent(struct rs_sim *sim, void *obj, void *arg, int status)
{
	if (status)
		fail_before_member(sim, arg, status);
	else
		start(sim, obj, arg);
}

/* A command has its tag: it goes. */
static inline void issue(struct rs_sim *sim, struct rs_channel *ch, struct port *pt,
			 struct rs_io *child)
{
	ch->commands++;
	child->t_issue = sim->now;
	/* The command phase: arbitration (the bus's overhead), the command,
	 * then the drive disconnects. */
	if (ch->scsi)
		rs_link_xfer(sim, ch->bus, RS_DIR_OUT, 0, command_sent, pt, child);
	else
		start(sim, pt, child);
}

static __attribute__((noinline)) void dispatch_loop(struct rs_sim *sim, struct rs_channel *ch,
						    struct rs_io *child)
{
	do
		issue(sim, ch, port_of(child), child);
	while ((child = rs_ioq_dispatch(sim, &ch->q)));
}

/* The first test inline: the port dispatches after every command it
 * finishes, and then nearly always finds nothing waiting, which the loop's
 * saved registers and the call cost more than. */
static inline void dispatch(struct rs_sim *sim, struct rs_channel *ch)
{
	struct rs_io *child = rs_ioq_dispatch(sim, &ch->q);
	if (child)
		dispatch_loop(sim, ch, child);
}

/* The most blocks one command carries: its scatter-gather list holds
 * sg_entries entries of at most a host page each.  Buffers are taken as
 * page-aligned (ATTO's and CrystalDiskMark's are), and strips are whole
 * pages, so a member command gathered from strips scattered over the
 * host's buffer needs no more entries than a contiguous one: entries are
 * pages either way. */
static uint32_t command_max_blocks(const struct rs_channel *ch)
{
	if (ch->sg_entries == 0)
		return UINT32_MAX;
	uint64_t blocks = (uint64_t)ch->sg_entries * ch->sg_page / RS_BLOCK_BYTES;
	return blocks > UINT32_MAX ? UINT32_MAX : (uint32_t)blocks;
}

/* One command per sg_entries pages of the request (at most `most`
 * blocks), all queued before any is dispatched so that the parent cannot
 * complete with a piece still to come.  Out of line: the relayed way
 * saves none of the loop's registers. */
static __attribute__((noinline)) void submit_children(struct rs_sim *sim, struct port *pt,
						      struct rs_io *io, uint32_t most)
{
	uint32_t left = io->nblk;
	uint64_t lba = io->lba;
	do {
		uint32_t n = left < most ? left : most;
		/* The port's own hook, which rs_io_child would look up in
		 * io's device type, named here: a lookup and a call less per
		 * command. */
		struct rs_io *child = rs_io_new_child(sim, io, io->op, lba, n, member_done, NULL);
		rs_ioq_push(&pt->ch->q, child);
		lba += n;
		left -= n;
	} while (left);
	dispatch(sim, pt->ch);
}

static void port_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct port *pt = dev->priv;
	uint32_t most = command_max_blocks(pt->ch);
	/* One command, nothing beside it on the host bus, a request with a
	 * relay to spare (the layers above may relay it too) and not yet
	 * dispatched anywhere (command_done gives it back so): the command
	 * is the request itself. */
	if (io->nblk <= most && !(pt->ch->bus_overlap && pt->host_bus) && rs_io_relayable(io) &&
	    io->t_issue == 0) {
		rs_io_relay(io, dev, relayed_member_done);
		rs_ioq_push(&pt->ch->q, io);
		dispatch(sim, pt->ch);
		return;
	}
	submit_children(sim, pt, io, most);
}

static void port_destroy(struct rs_dev *dev) { free(dev->priv); }

static const struct rs_dev_type port_type = {
	.name = "port",
	.help = "controller port (internal): channel queue and the buses in front of a drive",
	.submit = port_submit,
	.child_done = member_done,
	.destroy = port_destroy,
};

/* SCSI arbitration: of the devices waiting for a free bus the highest ID
 * wins -- 7 (the host adapter) first, then 6 down to 0, then on a wide bus
 * 15 down to 8.  Drives take IDs in the order they join the bus, 0 up,
 * leaving 7 to the host.  The host arbitrates to send a command; a drive
 * to reselect for its data and status. */
#define SCSI_HOST_ID 7

static int scsi_rank(int id)
{
	return id < 8 ? id + 8 : id - 8;
}

int rs_channel_join(struct rs_channel *ch)
{
	if (!ch->scsi)
		return 0;
	uint32_t n = ch->bus->targets++;
	int id = n < SCSI_HOST_ID ? (int)n : (int)n + 1;
	return scsi_rank(id);
}

struct rs_dev *rs_port_wrap(struct rs_dev *member, struct rs_channel *ch,
			    struct rs_link *host_bus, size_t index, int rank, rs_time_t now)
{
	struct rs_dev *dev = calloc(1, sizeof(*dev));
	struct port *pt = calloc(1, sizeof(*pt));
	char name[96];
	RS_ASSERT(dev && pt);
	snprintf(name, sizeof(name), "port%zu.%s", index, member->name);
	dev->type = &port_type;
	dev->name = strdup(name);
	RS_ASSERT(dev->name);
	dev->capacity_blk = member->capacity_blk;
	dev->members = calloc(1, sizeof(*dev->members));
	RS_ASSERT(dev->members);
	dev->members[0] = member;
	dev->nmembers = 1;
	dev->priv = pt;
	rs_tavg_init(&dev->inflight, now, 0);
	*pt = (struct port){ .member = member, .ch = ch, .host_bus = host_bus };
	if (ch->scsi) {
		rs_link_add_priority(ch->bus, pt, RS_DIR_OUT, scsi_rank(SCSI_HOST_ID));
		rs_link_add_priority(ch->bus, pt, RS_DIR_IN, rank);
	}
	return dev;
}

void rs_port_drive_moves_data(struct rs_dev *dev, bool moves)
{
	RS_ASSERT(dev->type == &port_type);
	((struct port *)dev->priv)->drive_moves_data = moves;
}

struct rs_dev *rs_port_member_of(const struct rs_io *waiting)
{
	return port_of(waiting)->member;
}
