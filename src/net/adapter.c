/* Keys:
 *   port            Ethernet section (net/frame.h): rate, duplex, mtu, ...
 *   host_bus        link section (a bus model, e.g. pci-64-66); absent = none
 *   shared_work     share of each command's processor time spent on the one
 *                   processor both paths use; the rest runs on its path's own
 *                   engine (100% = one shared processor, 0% = one per path)
 *   read_pdu_cost, write_pdu_cost    processor time per PDU of each path
 *   read_rate, write_rate            processor bytes/s of each path (0 = free)
 *   byte_engine     where the per-byte work runs: on the processor with the
 *                   per-PDU work (processor), or on a data engine of its own
 *                   that overlaps it, one for both paths (shared) or one per
 *                   path (per-path)
 *   switch_latency  switch delay beyond one store-and-forward frame time
 *   on_path_loss    fail | hold
 *   io_timeout      with `hold`: how long after issue a command may wait
 *   relogin         session re-login time after the link returns
 *   fail_delay      time to report a command failed on a dead path
 *   session_timeout with `hold`: how long after the link is lost the driver
 *                   gives the session up; from then on held and new commands
 *                   fail after fail_delay (0 = never: they wait io_timeout)
 *   retries         times the host's class driver re-issues a failed command
 *                   before its error reaches the application
 *   target          the target device (a multipath device sets `multipath`
 *                   and attaches the target its paths share)
 *
 * PDUs per command: a read is a SCSI Command and Data-In PDUs (the last one
 * carrying the status, phase-collapsed); a write is a SCSI Command with its
 * data as unsolicited Data-Out PDUs (no R2T round trip) and a SCSI Response.
 * A header-only read of 0 bytes still has one Data-In/status PDU. */
#include "net/adapter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/bus.h"
#include "dev/build.h"
#include "dev/server.h"
#include "kernel/assert.h"
#include "kernel/pool.h"
#include "net/frame.h"
#include "net/target.h"

enum { LOSS_FAIL, LOSS_HOLD };
/* The processor both paths share, then each path's own engine, then the
 * data engines that take the per-byte work off the processor. */
enum { SHARED, READ_OWN, WRITE_OWN, BYTES_SHARED, BYTES_READ, BYTES_WRITE, NENGINES };
static const char *const loss_names[] = { "fail", "hold", NULL };
enum { BYTES_ON_PROCESSOR, BYTES_ON_SHARED, BYTES_PER_PATH };
static const char *const byte_engine_names[] = { "processor", "shared", "per-path", NULL };

struct adapter_params {
	const struct rs_node *port, *host_bus, *target;
	double shared_work;           /* percent */
	rs_time_t read_pdu_ns, write_pdu_ns;
	double read_rate, write_rate;
	int byte_engine;
	rs_time_t switch_latency_ns;
	int on_loss;
	rs_time_t io_timeout_ns;
	rs_time_t relogin_ns;
	rs_time_t fail_delay_ns;
	rs_time_t session_timeout_ns;
	int64_t retries;
};

#define P(f) offsetof(struct adapter_params, f)
static const struct rs_opt adapter_opts[] = {
	{ "port", RS_OPT_NODE, P(port), NULL, 0, 0, 0, NULL,
	  "Ethernet port: {rate, duplex, mtu, timestamps, header_digest, data_digest, "
	  "max_segment, ack_every}" },
	{ "host_bus", RS_OPT_NODE, P(host_bus), NULL, 0, 0, 0, NULL,
	  "host bus: a bus model name or an inline link; absent = not modelled" },
	{ "shared_work", RS_OPT_PERCENT, P(shared_work), "100%", 0, 0, 0, NULL,
	  "share of each command's processor work done on the processor reads and writes "
	  "share; the rest runs on the path's own engine (100%: one processor, 0%: one per path)" },
	{ "read_pdu_cost", RS_OPT_TIME, P(read_pdu_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "processor time per PDU of a read" },
	{ "write_pdu_cost", RS_OPT_TIME, P(write_pdu_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "processor time per PDU of a write" },
	{ "read_rate", RS_OPT_RATE, P(read_rate), "0B/s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "processor data rate of reads (per-byte cost); 0 = no per-byte cost" },
	{ "write_rate", RS_OPT_RATE, P(write_rate), "0B/s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "processor data rate of writes (per-byte cost); 0 = no per-byte cost" },
	{ "byte_engine", RS_OPT_ENUM, P(byte_engine), "processor", 0, 0, 0, byte_engine_names,
	  "where per-byte work runs: processor (with the per-PDU work), shared (one data "
	  "engine for both paths, overlapping the processor) or per-path (one per path)" },
	{ "switch_latency", RS_OPT_TIME, P(switch_latency_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "switch delay per message beyond one store-and-forward frame time" },
	{ "on_path_loss", RS_OPT_ENUM, P(on_loss), "fail", 0, 0, 0, loss_names,
	  "a command whose path dies: fail now, or hold it for a re-login (at most io_timeout)" },
	{ "io_timeout", RS_OPT_TIME, P(io_timeout_ns), "30s", RS_OPT_POSITIVE, 0, 0, NULL,
	  "on_path_loss: hold: how long after issue a command may wait, then it fails" },
	{ "relogin", RS_OPT_TIME, P(relogin_ns), "2s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "session re-login time after the link returns" },
	{ "fail_delay", RS_OPT_TIME, P(fail_delay_ns), "1ms", RS_OPT_POSITIVE, 0, 0, NULL,
	  "time to report a command failed on a dead path (driver error path)" },
	{ "session_timeout", RS_OPT_TIME, P(session_timeout_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "on_path_loss: hold: time after the link is lost when the session is given up and "
	  "commands fail after fail_delay; 0 = never (they wait io_timeout)" },
	{ "retries", RS_OPT_INT, P(retries), "0", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 0, 100, NULL,
	  "times a failed command is re-issued (the host's class driver) before it fails" },
	{ "target", RS_OPT_NODE, P(target), NULL, 0, 0, 0, NULL,
	  "the target device (e.g. type: iscsi-target); under multipath, the shared one" },
	RS_OPT_END
};
#undef P

/* One command in the adapter.  The first word is the pool's free link. */
struct cmd {
	struct cmd *next, *prev;      /* parked list */
	struct adapter *a;
	struct rs_io *io;
	struct rs_event_handle timer;
	rs_time_t t_start;
	rs_time_t own_ns;             /* processor time left for the path's own engine */
	rs_time_t bytes_ns;           /* data engine time (byte_engine not processor) */
	uint8_t stage;
	uint8_t tries;                /* re-issues after a failure so far */
	uint8_t pending;
	int status;
};

struct adapter {
	struct adapter_params p;
	struct rs_eth_params eth;
	struct rs_dev *dev;
	struct rs_link port;
	struct rs_link bus;
	bool has_bus;
	struct rs_server engine[NENGINES];
	struct rs_dev *target;
	struct rs_link *uplink;
	rs_time_t hop_ns;             /* switch: one frame + latency */
	bool online;
	bool session_failed;          /* given up: commands fail fast */
	rs_time_t t_down;
	struct rs_event_handle login_ev;
	struct rs_event_handle give_up_ev;
	struct cmd parked;            /* list head */
	struct rs_pool cmds;
	char port_name[16];
	double read_ns_per_byte, write_ns_per_byte;
	double shared_frac;           /* shared_work as a fraction */
	struct rs_iscsi_adapter_counters n;
};

enum kind { K_SHARED, K_OWN, K_BYTES, K_BUS, K_OUT, K_TARGET, K_IN, K_DONE };
static const uint8_t read_plan[] = { K_SHARED, K_OWN, K_BYTES, K_OUT, K_TARGET, K_IN, K_BUS,
				     K_DONE };
static const uint8_t write_plan[] = { K_SHARED, K_OWN, K_BYTES, K_BUS, K_OUT, K_TARGET, K_IN,
				      K_DONE };

static void run(struct rs_sim *sim, struct cmd *c);

static void finish(struct rs_sim *sim, struct cmd *c, int status)
{
	struct adapter *a = c->a;
	struct rs_io *io = c->io;
	rs_pool_put(&a->cmds, c);
	rs_dev_complete(sim, a->dev, io, status);
}

static void park(struct cmd *c)
{
	struct adapter *a = c->a;
	c->next = &a->parked;
	c->prev = a->parked.prev;
	a->parked.prev->next = c;
	a->parked.prev = c;
}

static void unpark(struct cmd *c)
{
	c->prev->next = c->next;
	c->next->prev = c->prev;
	c->next = c->prev = NULL;
}

static void failed_later(struct rs_sim *sim, void *obj, void *arg)
{
	struct cmd *c = arg;
	/* The class driver above re-issues a failed command a few times
	 * before the application sees the error. */
	if (c->tries < c->a->p.retries) {
		c->tries++;
		c->stage = 0;
		c->status = 0;
		c->t_start = sim->now;
		run(sim, c);
		return;
	}
	finish(sim, c, c->status);
}

static void fail_soon(struct rs_sim *sim, struct cmd *c, int status)
{
	/* Never at once: a caller that re-issues on every error would
	 * otherwise spin without simulated time passing. */
	c->status = status;
	rs_sched(sim, c->a->p.fail_delay_ns, failed_later, c->a, c);
}

static void timed_out(struct rs_sim *sim, void *obj, void *arg)
{
	struct cmd *c = arg;
	c->timer = RS_NO_EVENT;
	unpark(c);
	c->a->n.timeouts++;
	c->status = -RS_ERR_ETIMEDOUT;
	failed_later(sim, c->a, c);
}

/* The command's path failed under it. */
static void lost(struct rs_sim *sim, struct cmd *c, int status)
{
	struct adapter *a = c->a;
	a->n.lost++;
	if (a->p.on_loss == LOSS_FAIL || a->session_failed) {
		fail_soon(sim, c, status);
		return;
	}
	{
		park(c);
		rs_time_t at = c->t_start + a->p.io_timeout_ns;
		c->timer = rs_sched_at(sim, at > sim->now ? at : sim->now, timed_out, a, c);
	}
}

static void advance(struct rs_sim *sim, struct cmd *c, int status)
{
	if (status) {
		lost(sim, c, status);
		return;
	}
	c->stage++;
	run(sim, c);
}

static void job_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	advance(sim, arg, status);
}

static void hop_done(struct rs_sim *sim, void *obj, void *arg)
{
	advance(sim, arg, 0);
}

/* Both links of a network crossing (port and uplink) report here. */
static void wire_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct cmd *c = arg;
	if (status && !c->status)
		c->status = status;
	if (--c->pending)
		return;
	status = c->status;
	c->status = 0;
	if (status)
		lost(sim, c, status);
	else
		rs_sched(sim, c->a->hop_ns, hop_done, c->a, c);
}

static void ack_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	/* ACKs carry no request; one lost with a pulled cable is no matter. */
}

/* The child-done hook: the command is back from the target. */
static void target_done(struct rs_sim *sim, struct rs_io *child)
{
	struct cmd *c = child->up.iscsi;
	advance(sim, c, rs_io_child_detach(sim, child));
}

/* TCP stream bytes of the messages of one crossing. */
static uint64_t crossing_stream(const struct adapter *a, const struct rs_io *io, bool out)
{
	uint64_t bytes = rs_io_bytes(io);
	if (io->op == RS_READ)
		return rs_iscsi_stream_bytes(&a->eth, out ? 0 : bytes);
	if (!out)
		return rs_iscsi_stream_bytes(&a->eth, 0);
	/* The command and its unsolicited data, one stream. */
	return rs_iscsi_stream_bytes(&a->eth, 0) + (bytes ? rs_iscsi_stream_bytes(&a->eth, bytes) : 0);
}

static void cross(struct rs_sim *sim, struct cmd *c, bool out)
{
	struct adapter *a = c->a;
	if (!a->online) {
		lost(sim, c, -RS_ERR_ELINKDOWN);
		return;
	}
	uint64_t stream = crossing_stream(a, c->io, out);
	uint64_t wire = rs_eth_wire_bytes(&a->eth, stream);
	enum rs_dir dir = out ? RS_DIR_OUT : RS_DIR_IN;
	enum rs_dir back = out ? RS_DIR_IN : RS_DIR_OUT;
	/* A one-segment message's ACK rides on the reply; longer ones are
	 * acknowledged every ack_every segments. */
	uint64_t segs = rs_eth_segments(&a->eth, stream);
	uint64_t acks = segs >= a->eth.segments_per_ack ? rs_eth_ack_wire_bytes(&a->eth, segs) : 0;
	c->pending = a->uplink ? 2 : 1;
	c->status = 0;
	rs_link_xfer(sim, &a->port, dir, wire, wire_done, a, c);
	if (acks)
		rs_link_xfer(sim, &a->port, back, acks, ack_done, NULL, NULL);
	if (a->uplink) {
		rs_link_xfer(sim, a->uplink, dir, wire, wire_done, a, c);
		if (acks)
			rs_link_xfer(sim, a->uplink, back, acks, ack_done, NULL, NULL);
	}
}

static rs_time_t pdu_time(const struct adapter *a, const struct rs_io *io)
{
	uint64_t pdus = rs_iscsi_pdus(&a->eth, rs_io_bytes(io));
	if (io->op == RS_READ)
		return (rs_time_t)(pdus + 1) * a->p.read_pdu_ns;
	return (rs_time_t)(pdus + 2) * a->p.write_pdu_ns;
}

static rs_time_t byte_time(const struct adapter *a, const struct rs_io *io)
{
	double per = io->op == RS_READ ? a->read_ns_per_byte : a->write_ns_per_byte;
	return (rs_time_t)((double)rs_io_bytes(io) * per + 0.5);
}

static struct rs_server *byte_engine(struct adapter *a, bool is_read)
{
	if (a->p.byte_engine == BYTES_ON_SHARED)
		return &a->engine[BYTES_SHARED];
	return &a->engine[is_read ? BYTES_READ : BYTES_WRITE];
}

static void run(struct rs_sim *sim, struct cmd *c)
{
	struct adapter *a = c->a;
	struct rs_io *io = c->io;
	bool is_read = io->op == RS_READ;
	switch ((is_read ? read_plan : write_plan)[c->stage]) {
	case K_SHARED: {
		/* A given-up session: the driver fails the command without
		 * handing it to the card. */
		if (a->session_failed) {
			lost(sim, c, -RS_ERR_ELINKDOWN);
			return;
		}
		/* The shared part first, then the path's own (K_OWN); a part that
		 * takes no time is skipped, so 100% and 0% cost one job each. */
		rs_time_t all = pdu_time(a, io);
		c->bytes_ns = byte_time(a, io);
		if (a->p.byte_engine == BYTES_ON_PROCESSOR) {
			all += c->bytes_ns;
			c->bytes_ns = 0;
		}
		rs_time_t shared = (rs_time_t)((double)all * a->shared_frac + 0.5);
		c->own_ns = all - shared;
		if (shared == 0)
			advance(sim, c, 0);
		else
			rs_server_submit(sim, &a->engine[SHARED], shared, job_done, a, c);
		return;
	}
	case K_OWN:
		if (c->own_ns == 0)
			advance(sim, c, 0);
		else
			rs_server_submit(sim, &a->engine[is_read ? READ_OWN : WRITE_OWN], c->own_ns,
					 job_done, a, c);
		return;
	case K_BYTES:
		/* A command's data work follows its PDU work; other commands'
		 * PDU work overlaps it on the processor. */
		if (c->bytes_ns == 0)
			advance(sim, c, 0);
		else
			rs_server_submit(sim, byte_engine(a, is_read), c->bytes_ns, job_done, a, c);
		return;
	case K_BUS:
		if (a->has_bus && rs_io_bytes(io))
			rs_link_xfer(sim, &a->bus, is_read ? RS_DIR_IN : RS_DIR_OUT,
				     rs_io_bytes(io), job_done, a, c);
		else
			advance(sim, c, 0);
		return;
	case K_OUT:
	case K_IN:
		cross(sim, c, (is_read ? read_plan : write_plan)[c->stage] == K_OUT);
		return;
	case K_TARGET: {
		struct rs_io *child = rs_io_child(sim, io, io->op, io->lba, io->nblk, NULL,
						  NULL);
		child->up.iscsi = c;
		rs_dev_submit(sim, a->target, child);
		return;
	}
	default:
		finish(sim, c, 0);
	}
}

static void adapter_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct adapter *a = dev->priv;
	RS_ASSERT(a->target);   /* set at build time or by the multipath device */
	struct cmd *c = rs_pool_get(&a->cmds);
	c->a = a;
	c->io = io;
	c->t_start = sim->now;
	c->stage = 0;
	c->tries = 0;
	c->status = 0;
	run(sim, c);
}

/* ---- the session --------------------------------------------------------- */

static void logged_in(struct rs_sim *sim, void *obj, void *arg)
{
	struct adapter *a = obj;
	a->login_ev = RS_NO_EVENT;
	a->online = true;
	a->session_failed = false;
	a->n.logins++;
	/* Re-issue what waited, oldest first. */
	while (a->parked.next != &a->parked) {
		struct cmd *c = a->parked.next;
		unpark(c);
		if (c->timer.ev) {
			rs_cancel(sim, c->timer);
			c->timer = RS_NO_EVENT;
		}
		a->n.resumed++;
		c->stage = 0;
		run(sim, c);
	}
}

/* The driver gives the session up: what it held fails now, and new
 * commands fail fast until the next login. */
static void give_up(struct rs_sim *sim, void *obj, void *arg)
{
	struct adapter *a = obj;
	a->give_up_ev = RS_NO_EVENT;
	a->session_failed = true;
	while (a->parked.next != &a->parked) {
		struct cmd *c = a->parked.next;
		unpark(c);
		if (c->timer.ev) {
			rs_cancel(sim, c->timer);
			c->timer = RS_NO_EVENT;
		}
		fail_soon(sim, c, -RS_ERR_ELINKDOWN);
	}
}

void rs_iscsi_adapter_set_link(struct rs_sim *sim, struct rs_dev *dev, bool up)
{
	struct adapter *a = dev->priv;
	if (a->port.up == up)
		return;
	if (up) {
		if (a->give_up_ev.ev) {
			rs_cancel(sim, a->give_up_ev);
			a->give_up_ev = RS_NO_EVENT;
		}
		rs_link_set_up(sim, &a->port, true);
		a->login_ev = rs_sched(sim, a->p.relogin_ns, logged_in, a, NULL);
		return;
	}
	a->online = false;
	a->t_down = sim->now;
	if (a->login_ev.ev) {
		rs_cancel(sim, a->login_ev);
		a->login_ev = RS_NO_EVENT;
	}
	if (a->p.on_loss == LOSS_HOLD && a->p.session_timeout_ns > 0 && !a->session_failed &&
	    !a->give_up_ev.ev)
		a->give_up_ev = rs_sched(sim, a->p.session_timeout_ns, give_up, a, NULL);
	rs_link_set_up(sim, &a->port, false);
}

bool rs_iscsi_adapter_usable(const struct rs_dev *dev, rs_time_t now, rs_time_t detect)
{
	const struct adapter *a = dev->priv;
	if (a->online)
		return true;
	/* Down, but the path manager has not noticed yet. */
	return !a->port.up && now - a->t_down < detect;
}

struct rs_link *rs_iscsi_adapter_port(struct rs_dev *dev)
{
	return &((struct adapter *)dev->priv)->port;
}

void rs_iscsi_adapter_attach(struct rs_dev *dev, struct rs_dev *target, uint32_t session)
{
	struct adapter *a = dev->priv;
	a->target = target;
	a->uplink = rs_iscsi_target_uplink(target, session);
	dev->capacity_blk = target->capacity_blk;
}

void rs_iscsi_adapter_set_port_name(struct rs_dev *dev, const char *name)
{
	struct adapter *a = dev->priv;
	snprintf(a->port_name, sizeof(a->port_name), "%s", name);
	a->port.name = a->port_name;
}

const char *rs_iscsi_adapter_port_name(const struct rs_dev *dev)
{
	return ((const struct adapter *)dev->priv)->port_name;
}

/* ---- building ------------------------------------------------------------ */

static int adapter_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
			const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct adapter_params *p = params;
	rs_time_t now = sim ? rs_now(sim) : 0;
	struct adapter *a = calloc(1, sizeof(*a));
	RS_ASSERT(a);
	dev->priv = a;
	a->dev = dev;
	a->p = *p;
	a->parked.next = a->parked.prev = &a->parked;
	rs_pool_init(&a->cmds, sizeof(struct cmd), 256);
	if (rs_eth_bind(p->port, "port", &a->eth, d))
		return -1;
	struct rs_link_params lp = {
		.rate_bytes_s = rs_eth_bytes_s(&a->eth),
		/* A session is one TCP connection: PDUs go into its byte stream
		 * whole, so messages of different commands take turns PDU by
		 * PDU. */
		.burst_bytes = rs_iscsi_wire_bytes(&a->eth, a->eth.max_segment),
		.full_duplex = a->eth.full_duplex,
	};
	snprintf(a->port_name, sizeof(a->port_name), "port1");
	rs_link_init(&a->port, a->port_name, &lp, now);
	if (p->host_bus) {
		struct rs_link_params bp;
		if (rs_bus_params(b->models, p->host_bus, "host_bus", &bp, d))
			return -1;
		rs_link_init(&a->bus, "host_bus", &bp, now);
		a->has_bus = true;
	}
	rs_server_init(&a->engine[SHARED], "engine", 1, now);
	rs_server_init(&a->engine[READ_OWN], "read_engine", 1, now);
	rs_server_init(&a->engine[WRITE_OWN], "write_engine", 1, now);
	rs_server_init(&a->engine[BYTES_SHARED], "data_engine", 1, now);
	rs_server_init(&a->engine[BYTES_READ], "read_data_engine", 1, now);
	rs_server_init(&a->engine[BYTES_WRITE], "write_data_engine", 1, now);
	a->shared_frac = p->shared_work / 100.0;
	a->read_ns_per_byte = p->read_rate > 0 ? 1e9 / p->read_rate : 0;
	a->write_ns_per_byte = p->write_rate > 0 ? 1e9 / p->write_rate : 0;
	a->hop_ns = rs_eth_frame_ns(&a->eth) + p->switch_latency_ns;
	a->online = true;
	if (!p->target)
		return rs_diag_node(d, node, "missing required key 'target' in iscsi-adapter "
				    "(the device it reaches, e.g. target: {type: iscsi-target})");
	if (p->target->kind == RS_NODE_SCALAR && strcmp(p->target->str, "multipath") == 0)
		return 0;  /* a multipath device attaches its shared target */
	struct rs_dev *t = rs_dev_build(b, p->target, "target", "target");
	if (!t)
		return -1;
	dev->members = calloc(1, sizeof(*dev->members));
	RS_ASSERT(dev->members);
	dev->members[0] = t;
	dev->nmembers = 1;
	rs_iscsi_adapter_attach(dev, t, 0);
	return 0;
}

static void adapter_restart(struct rs_dev *dev, rs_time_t now)
{
	struct adapter *a = dev->priv;
	rs_link_restart_stats(&a->port, now);
	if (a->has_bus)
		rs_link_restart_stats(&a->bus, now);
	for (size_t e = 0; e < NENGINES; e++)
		rs_server_restart_stats(&a->engine[e], now);
}

static void adapter_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct adapter *a = dev->priv;
	r->utilisation = 0;
	for (size_t e = 0; e < NENGINES; e++) {
		double u = rs_server_utilisation(&a->engine[e], now);
		if (u > r->utilisation)
			r->utilisation = u;
	}
	r->queue_depth = rs_tavg_mean(&dev->inflight, now);
}

static void adapter_destroy(struct rs_dev *dev)
{
	struct adapter *a = dev->priv;
	if (!a)
		return;
	rs_pool_destroy(&a->cmds);
	free(a);
}

static void adapter_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			       struct rs_components *out)
{
	const struct adapter *a = dev->priv;
	rs_components_add_link(out, name, "port", &a->port, now);
	if (a->has_bus)
		rs_components_add_link(out, name, "bus", &a->bus, now);
	for (size_t e = 0; e < NENGINES; e++)
		rs_components_add_server(out, name, a->engine[e].name, &a->engine[e], now);
}

const struct rs_dev_type rs_dev_iscsi_adapter = {
	.name = "iscsi-adapter",
	.help = "iSCSI initiator with TCP offload: per-PDU/per-byte costs, host bus, GbE port",
	.opts = adapter_opts,
	.params_size = sizeof(struct adapter_params),
	.init = adapter_init,
	.submit = adapter_submit,
	.child_done = target_done,
	.restart_stats = adapter_restart,
	.report = adapter_report,
	.components = adapter_components,
	.destroy = adapter_destroy,
};
