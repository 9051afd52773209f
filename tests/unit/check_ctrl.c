/* Unit tests for the controller layer (src/ctrl): bus models, the shared
 * host bus capping several streams, PATA master/slave serialisation, the
 * write-back and write-through cache, read hits, sequential WT against WB
 * (TX4000-C7), and bad sections reported at their line and column.  Every
 * run ends with the conservation check.
 *
 * A small composite device (`rr`, below, never registered) stands in for
 * a RAID volume where the test needs several members behind the ports:
 * it builds N members with rs_dev_build_member and deals requests out
 * round-robin. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "ctrl/cache.h"
#include "ctrl/controller.h"
#include "ctrl/ctrl_priv.h"
#include "dev/build.h"
#include "dev/bus.h"
#include "dev/dev.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* ---- the test composite: round-robin over N members ---------------------- */

struct rr_params {
	uint64_t members;
	const struct rs_node *member;
};

static const struct rs_opt rr_opts[] = {
	{ "members", RS_OPT_UINT, offsetof(struct rr_params, members), "2",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 16, NULL, "members" },
	{ "member", RS_OPT_NODE, offsetof(struct rr_params, member), NULL, RS_OPT_REQUIRED, 0,
	  0, NULL, "section of every member" },
	RS_OPT_END
};

struct rr {
	size_t next;
};

static void rr_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct rr *r = dev->priv;
	/* The default fan-in completes the request here, through io->dev. */
	struct rs_io *c = rs_io_child(sim, io, io->op, io->lba, io->nblk, NULL, NULL);
	if (io->op == RS_FLUSH) {
		rs_dev_submit(sim, dev->members[0], c);
		return;
	}
	rs_dev_submit(sim, dev->members[r->next++ % dev->nmembers], c);
}

static int rr_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		   const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct rr_params *p = params;
	dev->priv = calloc(1, sizeof(struct rr));
	dev->members = calloc(p->members, sizeof(*dev->members));
	for (size_t i = 0; i < p->members; i++) {
		dev->members[i] = rs_dev_build_member(b, p->member, "disk", i);
		if (!dev->members[i])
			return -1;
		dev->nmembers++;
	}
	dev->capacity_blk = dev->members[0]->capacity_blk;
	return 0;
}

static void rr_destroy(struct rs_dev *dev) { free(dev->priv); }

static const struct rs_dev_type rr_type = {
	.name = "rr",
	.help = "test: round-robin over members",
	.opts = rr_opts,
	.params_size = sizeof(struct rr_params),
	.init = rr_init,
	.submit = rr_submit,
	.destroy = rr_destroy,
};

/* ---- running a scenario ------------------------------------------------- */

struct crun {
	struct rs_iostat_summary s;
	struct rs_dev_report rep;
	struct rs_ctrl_counters n;
	rs_time_t end;
	double host_ceiling;          /* modelled payload ceiling of the host bus */
	double host_busy_s;           /* whole-run busy time of the host bus */
	uint64_t host_bytes;
	double chan_busy_s[4];        /* whole-run busy time and its expected sum */
	double chan_xfer_s[4];
	double chan_ceiling;
};

static double busy_s(const struct rs_link *l, rs_time_t now)
{
	return rs_link_utilisation(l, RS_DIR_OUT, now) * (double)(now - l->ch[0].busy.t_start) /
	       1e9;
}

/* `rr: true` builds the controller's array as the rr type above. */
static void run(struct crun *out, bool rr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void run(struct crun *out, bool rr, const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vopen(&p, "test.yaml", 1, fmt, ap);
	va_end(ap);
	if (rr) {
		p.dev = rs_ctrl_build(&p.b, tu_point_section(&p, "device"), "ctrl", &rr_type);
		tu_point_need(&p, p.dev);
	} else {
		tu_point_device(&p, "ctrl");
	}
	ck_assert_ptr_null(p.b.member_hook);
	tu_point_workload(&p);
	tu_point_need(&p, p.load);
	tu_point_go(&p);

	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->rep = p.load->target_report;
	out->n = *rs_ctrl_counters(p.dev);
	out->end = rs_now(p.sim);
	struct rs_link *h = rs_ctrl_host_bus(p.dev);
	if (h) {
		out->host_ceiling = rs_bus_ceiling_bytes_s(&h->p);
		out->host_busy_s = busy_s(h, out->end);
		out->host_bytes = h->ch[0].bytes_moved;
	}
	for (size_t i = 0; i < rs_ctrl_channel_count(p.dev) && i < 4; i++) {
		struct rs_link *l = rs_ctrl_channel_link(p.dev, i);
		if (!l)
			continue;
		out->chan_ceiling = rs_bus_ceiling_bytes_s(&l->p);
		out->chan_busy_s[i] = busy_s(l, out->end);
		out->chan_xfer_s[i] = (double)l->ch[0].bytes_moved / l->p.rate_bytes_s +
				      (double)l->ch[0].transactions * (double)l->p.overhead_ns / 1e9;
	}
	tu_point_free(&p);
}

/* ---- bus models ---------------------------------------------------------- */

struct bus_case {
	const char *section;
	double ceiling_mb_s;          /* what the model's comments derive */
	bool full_duplex;
};

static const struct bus_case bus_cases[] = {
	{ "pci-32-33", 109.4, false },
	{ "pci-32-66", 218.8, false },
	{ "pci-64-66", 437.6, false },
	{ "pcix-133", 812.7, false },
	{ "ata-100", 90.2, false },
	{ "ata-133", 123.0, false },
	{ "sata-1.5", 148.0, false },
	{ "sata-3", 296.0, false },
	{ "sata-6", 590.0, false },
	{ "pcie1-x1", 210.5, true },
	{ "pcie2-x4", 1684, true },
	{ "pcie3-x8", 6632, true },
	{ "dmi-2", 1684, true },
	{ "{model: pci-32-66, overhead: 0us}", 266.7, false },
	{ "{rate: 266MB/s, overhead: 0.5us, burst: 4KiB, duplex: full}", 257.6, true },
	{ "{rate: 1.5Gb/s, efficiency: 80%}", 150.0, false },
};

START_TEST(bus_models)
{
	const struct bus_case *bc = &bus_cases[_i];
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *n = rs_yaml_load_string("bus.yaml", bc->section, strlen(bc->section), &d);
	ck_assert_ptr_nonnull(n);
	struct rs_model_path mp;
	tu_model_path(&mp, &d);
	struct rs_link_params lp;
	int rc = rs_bus_params(&mp, n, "host_bus", &lp, &d);
	if (rc)
		rs_diag_print(&d, stderr);
	ck_assert_int_eq(rc, 0);
	double got = rs_bus_ceiling_bytes_s(&lp) / 1e6;
	printf("bus %-60s ceiling %8.1f MB/s\n", bc->section, got);
	tu_assert_rel(got, bc->ceiling_mb_s, 0.01);
	ck_assert(lp.full_duplex == bc->full_duplex);
	rs_model_path_free(&mp);
	rs_node_free(n);
}
END_TEST

/* ---- the shared host bus ---------------------------------------------------- */

/* Four fast drives on four SATA ports, sequential reads and writes of
 * 64 KiB at depth 16: each port could move 148 MB/s, together 592, but
 * the PCI 32/66 bus they share moves 219 at most. */
START_TEST(pci_caps_four_streams)
{
	static const char *const rw[] = { "seqread", "seqwrite" };
	struct crun r;
	run(&r, true,
	    "device:\n"
	    "  host_bus: pci-32-66\n  ports: 4\n  port_link: sata-1.5\n  queue_depth: 4\n"
	    "  array: {members: 4, member: {type: ideal, mean: 20us, bandwidth: 1GB/s,\n"
	    "          servers: 4, capacity: 10GB}}\n"
	    "workload: {iometer: {spec: %s, size: 64KiB, outstanding: 16, ramp: 0.05s, run: 0.5s}}\n",
	    rw[_i]);
	double bus_mb_s = r.host_bytes / r.host_busy_s / 1e6;
	printf("4 streams %s over PCI 32/66: %.1f MB/s (ceiling %.1f), bus busy %.1f%% of "
	       "the run, moving %.1f MB/s while busy\n", rw[_i], r.s.mb_s, r.host_ceiling / 1e6,
	       100 * r.host_busy_s * 1e9 / r.end, bus_mb_s);
	/* Never above the modelled payload rate (the workload counts a write
	 * when it completes, so up to the 16 requests in flight at the start
	 * of the window moved their data before it)... */
	ck_assert(r.s.mb_s <= r.host_ceiling / 1e6 * 1.001 + 16 * 65536 / r.s.seconds / 1e6);
	ck_assert(bus_mb_s <= r.host_ceiling / 1e6 * 1.001);
	/* ...and close to it: the bus, not the drives, is the limit. */
	ck_assert(r.s.mb_s >= 0.93 * r.host_ceiling / 1e6);
}
END_TEST

/* A card that keeps the data on board crosses the bus once per host
 * request; one that DMAs every disk command from host memory crosses it
 * per command: the same load on the same bus both ways. */
START_TEST(bus_at_card_or_ports)
{
	struct crun host, card;
	const char *fmt =
	    "device:\n"
	    "  host_bus: pci-32-66\n  ports: 2\n  port_link: sata-3\n  cpu: %s\n"
	    "  array: {members: 2, member: {type: ideal, mean: 50us, capacity: 10GB}}\n"
	    "workload: {iometer: {spec: seqwrite, size: 4KiB, outstanding: 4, ramp: 0.01s, "
	    "run: 0.2s}}\n";
	run(&host, true, fmt, "host");
	run(&card, true, fmt, "card");
	printf("bus bytes per host byte: host RAID %.3f, card %.3f\n",
	       host.host_bytes / (host.s.mb_s * 1e6 * host.s.seconds),
	       card.host_bytes / (card.s.mb_s * 1e6 * card.s.seconds));
	ck_assert(host.host_bytes > 0 && card.host_bytes > 0);
}
END_TEST

/* ---- PATA master and slave --------------------------------------------------- */

/* Two Maxtors doing random reads at depth 8: on one channel their commands
 * take turns, so together they do about what one drive does; on two
 * channels they do twice that.  The channel link's busy time equals the sum
 * of its transactions: no two ever overlapped. */
START_TEST(pata_master_slave_serialised)
{
	struct crun one, two;
	const char *fmt =
	    "device:\n"
	    "  host_bus: pci-32-66\n  ports: %d\n  devices_per_port: %d\n  port_link: ata-133\n"
	    "  array: {members: 2, member: {model: maxtor-6l020l0}}\n"
	    "workload: {iometer: {spec: default, size: 8KiB, read: 100%%, random: 100%%,\n"
	    "  outstanding: 8, ramp: 0.5s, run: 8s}}\n";
	run(&one, true, fmt, 1, 2);
	run(&two, true, fmt, 2, 1);
	printf("2 drives random 8 KiB reads: one channel (master+slave) %.1f IOPS, two "
	       "channels %.1f IOPS\n", one.s.iops, two.s.iops);
	printf("channel 0 busy %.6f s, sum of its transactions %.6f s\n", one.chan_busy_s[0],
	       one.chan_xfer_s[0]);
	ck_assert(two.s.iops > 1.7 * one.s.iops);
	tu_assert_rel(one.chan_busy_s[0], one.chan_xfer_s[0], 0.001);
	ck_assert(one.chan_busy_s[0] > 0);
}
END_TEST

/* Sequential reads from two fast drives on one ATA/133 channel: never
 * more than the channel moves. */
START_TEST(pata_channel_caps_two_drives)
{
	struct crun r;
	run(&r, true,
	    "device:\n"
	    "  host_bus: pci-32-66\n  ports: 1\n  devices_per_port: 2\n  port_link: ata-133\n"
	    "  array: {members: 2, member: {type: ideal, mean: 10us, bandwidth: 1GB/s,\n"
	    "          capacity: 10GB}}\n"
	    "workload: {iometer: {spec: seqread, size: 64KiB, outstanding: 8, ramp: 0.05s, "
	    "run: 0.5s}}\n");
	printf("2 fast drives on one ATA/133 channel: %.1f MB/s (channel ceiling %.1f)\n",
	       r.s.mb_s, r.chan_ceiling / 1e6);
	ck_assert(r.s.mb_s <= r.chan_ceiling / 1e6 * 1.001);
	tu_assert_rel(r.chan_busy_s[0], r.chan_xfer_s[0], 0.001);
}
END_TEST

/* ---- the cache, request by request ----------------------------------------- */

struct log {
	int n, cap;
	rs_time_t *lat;
	struct rs_sim *sim;
	struct rs_dev *dev;
	enum rs_op op;
	uint32_t nblk;
	uint64_t lba;
	int todo;
};

/* Issue the next request of a depth-1 stream when one completes. */
static void next(struct rs_sim *sim, struct log *l);

static void logged(struct rs_sim *sim, struct rs_io *io)
{
	struct log *l = io->done_ctx;
	ck_assert_int_eq(io->status, 0);
	ck_assert_int_lt(l->n, l->cap);
	l->lat[l->n++] = io->t_done - io->t_submit;
	rs_io_free(sim, io);
	next(sim, l);
}

static void next(struct rs_sim *sim, struct log *l)
{
	if (l->todo == 0)
		return;
	l->todo--;
	rs_dev_submit(sim, l->dev, rs_io_new(sim, l->op, l->lba, l->nblk, logged, l));
	l->lba += l->nblk;
}

struct rig {
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_sim *sim;
	struct rs_node *root;
	struct rs_dev *dev;
};

static void rig_up(struct rig *g, const char *text)
{
	rs_diag_init(&g->d);
	tu_model_path(&g->mp, &g->d);
	g->sim = rs_sim_new(1);
	g->root = rs_yaml_load_string("test.yaml", text, strlen(text), &g->d);
	ck_assert_ptr_nonnull(g->root);
	struct rs_build b = { .sim = g->sim, .types = rs_tree_types(), .models = &g->mp,
			      .diag = &g->d };
	g->dev = rs_dev_build(&b, g->root, "device", "ctrl");
	if (!g->dev)
		rs_diag_print(&g->d, stderr);
	ck_assert_ptr_nonnull(g->dev);
}

static void rig_down(struct rig *g)
{
	tu_check_conservation(g->sim);
	ck_assert_uint_eq(g->dev->submitted, g->dev->completed);
	rs_dev_destroy(g->dev);
	rs_sim_free(g->sim);
	rs_node_free(g->root);
	rs_model_path_free(&g->mp);
}

/* A depth-1 stream of `count` requests from lba; latencies into l. */
static void stream(struct rig *g, struct log *l, enum rs_op op, uint64_t lba, uint32_t nblk,
		   int count)
{
	free(l->lat);
	*l = (struct log){ .cap = count, .lat = calloc((size_t)count, sizeof(rs_time_t)),
			   .sim = g->sim, .dev = g->dev, .op = op, .nblk = nblk, .lba = lba,
			   .todo = count };
	next(g->sim, l);
	rs_sim_run(g->sim, RS_TIME_MAX);
	ck_assert_int_eq(l->n, count);
}

/* The array behind: one drive that takes 0.2 ms plus 64 KiB at 50 MB/s. */
#define ARRAY_50 "array: {type: ideal, mean: 0.2ms, bandwidth: 50MB/s, capacity: 10GB}\n"

static void fua_done(struct rs_sim *sim, struct rs_io *io)
{
	rs_time_t *lat = io->done_ctx;
	ck_assert_int_eq(io->status, 0);
	*lat = io->t_done - io->t_submit;
	rs_io_free(sim, io);
}

/* A FUA write must reach the array before it completes: the write-back
 * cache (no battery) takes it through, while a plain write is acknowledged
 * after the command cost. */
START_TEST(write_back_passes_fua_through)
{
	struct rig g;
	rig_up(&g, "type: controller\ncommand_cost: 20us\n"
		   "cache: {mode: write-back, size: 4MiB, line: 64KiB}\n" ARRAY_50);
	rs_time_t plain = 0, fua = 0;
	rs_dev_submit(g.sim, g.dev, rs_io_new(g.sim, RS_WRITE, 0, 8, fua_done, &plain));
	rs_sim_run(g.sim, RS_TIME_MAX);
	struct rs_io *io = rs_io_new(g.sim, RS_WRITE, 4096, 8, fua_done, &fua);
	io->fua = true;
	rs_dev_submit(g.sim, g.dev, io);
	rs_sim_run(g.sim, RS_TIME_MAX);
	ck_assert_int_le(plain, 21 * RS_US);
	ck_assert_int_ge(fua, 200 * RS_US);
	ck_assert_uint_eq(rs_ctrl_counters(g.dev)->bypassed, 1);
	rig_down(&g);
}
END_TEST

/* ---- the host request relayed through the controller, or a child of it ----
 * A layer above the controller (a host stage would be one) relays the
 * request to it or makes a child of it.  The controller relays what it
 * gets unless every relay of the request is taken already, when it makes
 * a child: so with `relay` (as many layers relaying as there are relays)
 * the controller takes its general path, without it the relay, and the
 * two runs make the same number of requests. */

struct lift {
	struct rs_dev *below;
	bool relay;
};

static void lift_back(struct rs_sim *sim, struct rs_io *io)
{
	rs_io_relay_finish(sim, io, 0);
}

static void lift_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct lift *l = dev->priv;
	if (l->relay) {
		rs_io_relay(io, dev, lift_back);
		rs_dev_submit(sim, l->below, io);
	} else {
		rs_dev_submit(sim, l->below,
			      rs_io_child(sim, io, io->op, io->lba, io->nblk, NULL, NULL));
	}
}

static const struct rs_dev_type lift_type = { .name = "lift", .submit = lift_submit };

#define LIFT_N 120

struct lift_run {
	size_t n;
	uint64_t lba[LIFT_N];
	rs_time_t t_done[LIFT_N];
	int status[LIFT_N];
	struct rs_ctrl_counters c;
	uint64_t ctrl_completed, array_completed, created;
	double ctrl_qd, array_qd;
	rs_time_t end;
};

static void lift_done(struct rs_sim *sim, struct rs_io *io)
{
	struct lift_run *r = io->done_ctx;
	ck_assert_uint_lt(r->n, LIFT_N);
	r->lba[r->n] = io->lba;
	r->t_done[r->n] = io->t_done;
	r->status[r->n] = io->status;
	r->n++;
	rs_io_free(sim, io);
}

#define LIFT_CACHED                                                                        \
	"type: controller\nports: 2\ncommand_cost: 5us\nmax_commands: 6\n"                   \
	"host_bus: {rate: 200MB/s}\n"                                                         \
	"cpu: card\n"                                                                         \
	"cache: {mode: write-back, size: 1MiB, line: 64KiB, read_ahead: 128KiB,\n"            \
	"        location: card}\n"                                                           \
	"array: {type: array, level: raid0, strip: 64KiB,\n"                                  \
	"        disks: {type: ideal, mean: 0.5ms, service: exponential,\n"                   \
	"                bandwidth: 80MB/s, capacity: 1GiB, count: 2}}\n"

/* `straight` false: the controller takes the way with its tests for a
 * cache and a host-bus crossing even when it has neither. */
static void lift_run_on(struct lift_run *r, const char *text, bool relay_above,
			bool straight)
{
	memset(r, 0, sizeof(*r));
	struct rig g;
	rig_up(&g, text);
	if (!straight)
		((struct ctrl *)g.dev->priv)->straight = false;
	/* Relaying, as many lifts as a request has relays, so none is left
	 * for the controller; else one lift that makes a child. */
	struct lift l[RS_IO_RELAYS];
	struct rs_dev lifts[RS_IO_RELAYS];
	int nlifts = relay_above ? RS_IO_RELAYS : 1;
	for (int i = nlifts - 1; i >= 0; i--) {
		l[i] = (struct lift){ .below = i == nlifts - 1 ? g.dev : &lifts[i + 1],
				      .relay = relay_above };
		lifts[i] = (struct rs_dev){ .type = &lift_type, .priv = &l[i] };
		rs_tavg_init(&lifts[i].inflight, 0, 0);
	}
	struct rs_dev *top = &lifts[0];
	uint64_t seed = 77;
	for (int i = 0; i < LIFT_N; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		enum rs_op op = i == 60 ? RS_FLUSH : (seed >> 62) == 0 ? RS_WRITE : RS_READ;
		/* Twice the cache's worth of addresses, so reads hit what
		 * earlier reads filled; a stream of reads in the middle for
		 * the read-ahead. */
		uint64_t lba = (seed >> 20) % 512 * 8;
		if (i >= 30 && i < 45)
			lba = 100000 + 16 * (uint64_t)(i - 30);
		uint32_t nblk = op == RS_FLUSH ? 0 : 16;
		rs_dev_submit(g.sim, top, rs_io_new(g.sim, op, lba, nblk, lift_done, r));
		if (i % 10 == 9)
			rs_sim_run(g.sim, g.sim->now + 3 * RS_MS);
	}
	rs_sim_run(g.sim, RS_TIME_MAX);
	r->end = rs_now(g.sim);
	r->c = *rs_ctrl_counters(g.dev);
	r->ctrl_completed = g.dev->completed;
	r->ctrl_qd = rs_tavg_mean(rs_dev_inflight(g.dev), r->end);
	r->array_completed = g.dev->members[0]->completed;
	r->array_qd = rs_tavg_mean(&g.dev->members[0]->inflight, r->end);
	r->created = rs_io_counters(g.sim)->created;
	for (int i = 0; i < nlifts; i++)
		ck_assert_uint_eq(lifts[i].submitted, lifts[i].completed);
	rig_down(&g);
}

static void lift_run(struct lift_run *r, bool relay_above)
{
	lift_run_on(r, LIFT_CACHED, relay_above, true);
}

/* Without a cache and with the host bus crossed at the ports (the host's
 * processor), the controller sends a request straight to the array and
 * back (struct ctrl's `straight`): the same as its way with the tests.
 * With max_commands, held requests go through admit; without, every one
 * takes rs_ctrl_submit's own straight way. */
#define STRAIGHT_TEXT(max)                                                                 \
	"type: controller\nports: 2\n" max "host_bus: {rate: 200MB/s}\ncpu: host\n"           \
	"array: {type: array, level: raid0, strip: 64KiB,\n"                                \
	"        disks: {type: ideal, mean: 0.5ms, service: exponential,\n"                 \
	"                bandwidth: 80MB/s, capacity: 1GiB, count: 2}}\n"

static void straight_as_tested(const char *text, bool held)
{
	struct rig g;
	rig_up(&g, text);
	ck_assert(((struct ctrl *)g.dev->priv)->straight);
	rig_down(&g);
	struct lift_run fast, tested;
	lift_run_on(&fast, text, false, true);
	lift_run_on(&tested, text, false, false);
	ck_assert_uint_eq(fast.n, LIFT_N);
	ck_assert_uint_eq(tested.n, LIFT_N);
	for (size_t i = 0; i < LIFT_N; i++) {
		ck_assert_uint_eq(fast.lba[i], tested.lba[i]);
		ck_assert_int_eq(fast.t_done[i], tested.t_done[i]);
		ck_assert_int_eq(fast.status[i], tested.status[i]);
	}
	ck_assert_int_eq(fast.end, tested.end);
	ck_assert_mem_eq(&fast.c, &tested.c, sizeof(fast.c));
	if (held)
		ck_assert_uint_gt(fast.c.held_back, 0);
	else
		ck_assert_uint_eq(fast.c.held_back, 0);
	ck_assert_uint_eq(fast.ctrl_completed, tested.ctrl_completed);
	ck_assert_double_eq(fast.ctrl_qd, tested.ctrl_qd);
	ck_assert_uint_eq(fast.array_completed, tested.array_completed);
	ck_assert_double_eq(fast.array_qd, tested.array_qd);
	ck_assert_uint_eq(fast.created, tested.created);
}

START_TEST(straight_controller_as_with_its_tests)
{
	straight_as_tested(STRAIGHT_TEXT("max_commands: 6\n"), true);
	straight_as_tested(STRAIGHT_TEXT(""), false);
}
END_TEST

/* A straight controller with no command cost and no max_commands reads
 * its in-flight average from its array (rs_ctrl_share_inflight), and
 * keeps none of its own: its figures must be those of the same controller
 * that keeps its own, to the bit.  A max_commands no load reaches makes
 * the same run take the way that keeps it. */
struct shared_run {
	const struct rs_dev *inflight_of, *array;
	double report_qd;             /* the load's report at the window's end */
	double qd_at_end, array_qd_at_end, own_qd_at_end;
	double ctrl_time_ms, ctrl_ops_s;
	uint64_t held_back;
};

static void shared_run(struct shared_run *r, const char *max_commands)
{
	struct tu_point p;
	ck_assert_int_eq(tu_point_buildf(&p, "test.yaml",
					 "device:\n  type: controller\n  ports: 4\n%s"
					 "  host_bus: {rate: 200MB/s}\n  cpu: host\n"
					 "  array: {type: array, level: raid0, strip: 64KiB,\n"
					 "          disks: {type: ideal, mean: 0.5ms, "
					 "service: exponential,\n"
					 "                  bandwidth: 80MB/s, capacity: 1GiB, "
					 "count: 4}}\n"
					 "workload: {iometer: {spec: database, outstanding: 16, "
					 "ramp: 50ms, run: 300ms}}\n",
					 max_commands),
			 0);
	tu_point_need(&p, p.load);
	tu_point_go(&p);
	rs_time_t now = rs_now(p.sim);
	r->inflight_of = p.dev->inflight_of;
	r->array = p.dev->members[0];
	r->report_qd = p.load->target_report.queue_depth;
	struct rs_dev_report rep;
	rs_dev_report(p.dev, now, &rep);
	r->qd_at_end = rep.queue_depth;
	r->array_qd_at_end = rs_tavg_mean(&r->array->inflight, now);
	r->own_qd_at_end = rs_tavg_mean(&p.dev->inflight, now);
	struct rs_components c = { 0 };
	rs_dev_components(p.dev, now, &c);
	ck_assert_uint_gt(c.n, 0);
	ck_assert_str_eq(c.v[0].name, "ctrl");
	r->ctrl_time_ms = c.v[0].time_ms;
	r->ctrl_ops_s = c.v[0].ops_s;
	rs_components_free(&c);
	r->held_back = rs_ctrl_counters(p.dev)->held_back;
	tu_point_free(&p);
}

START_TEST(straight_controller_shares_its_arrays_average)
{
	struct shared_run shared, own;
	shared_run(&shared, "");
	shared_run(&own, "  max_commands: 1000\n");
	ck_assert_ptr_nonnull(shared.inflight_of);
	ck_assert_ptr_null(own.inflight_of);
	ck_assert_uint_eq(own.held_back, 0);
	/* The fact the sharing rests on: a controller that keeps its own
	 * average has its array's, to the bit. */
	ck_assert_double_eq(own.own_qd_at_end, own.array_qd_at_end);
	ck_assert_double_gt(own.report_qd, 4);
	ck_assert_double_eq(shared.report_qd, own.report_qd);
	ck_assert_double_eq(shared.qd_at_end, own.qd_at_end);
	ck_assert_double_eq(shared.qd_at_end, shared.array_qd_at_end);
	ck_assert_double_eq(shared.ctrl_time_ms, own.ctrl_time_ms);
	ck_assert_double_eq(shared.ctrl_ops_s, own.ctrl_ops_s);
}
END_TEST

START_TEST(relayed_host_request_as_a_child_would)
{
	struct lift_run relay, child;
	lift_run(&relay, false);
	lift_run(&child, true);
	ck_assert_uint_eq(relay.n, LIFT_N);
	ck_assert_uint_eq(child.n, LIFT_N);
	for (size_t i = 0; i < LIFT_N; i++) {
		ck_assert_uint_eq(relay.lba[i], child.lba[i]);
		ck_assert_int_eq(relay.t_done[i], child.t_done[i]);
		ck_assert_int_eq(relay.status[i], child.status[i]);
	}
	ck_assert_int_eq(relay.end, child.end);
	ck_assert_mem_eq(&relay.c, &child.c, sizeof(relay.c));
	ck_assert_uint_gt(relay.c.hits, 0);
	ck_assert_uint_gt(relay.c.misses, 0);
	ck_assert_uint_gt(relay.c.absorbed, 0);
	ck_assert_uint_gt(relay.c.read_aheads, 0);
	ck_assert_uint_gt(relay.c.held_back, 0);
	ck_assert_uint_eq(relay.ctrl_completed, child.ctrl_completed);
	ck_assert_double_eq(relay.ctrl_qd, child.ctrl_qd);
	ck_assert_uint_eq(relay.array_completed, child.array_completed);
	ck_assert_double_eq(relay.array_qd, child.array_qd);
	ck_assert_uint_eq(relay.created, child.created);
}
END_TEST

START_TEST(write_back_absorbs_then_destage_speed)
{
	struct rig g;
	rig_up(&g, "type: controller\ncommand_cost: 20us\n"
		   "cache: {mode: write-back, size: 4MiB, line: 64KiB, high: 50%, low: 25%,\n"
		   "        idle_flush: 50ms}\n" ARRAY_50);
	struct log l = { 0 };
	int count = 600;
	stream(&g, &l, RS_WRITE, 0, 128, count);
	const struct rs_ctrl_counters *n = rs_ctrl_counters(g.dev);
	/* Until the cache is full, a write costs the command only. */
	for (int i = 0; i < 32; i++)
		ck_assert_int_le(l.lat[i], 21 * RS_US);
	/* Then writes wait for destaging: 600 x 64 KiB less the 4 MiB held
	 * go at the destage rate, about 50 MB/s less the per-destage 0.2 ms. */
	rs_time_t t = 0;
	for (int i = 200; i < count; i++)
		t += l.lat[i];
	double mb_s = 400.0 * 65536 / (t / 1e9) / 1e6;
	printf("write-back: first write %.1f us, steady state %.1f MB/s, %llu stalls, "
	       "%llu destages of %.0f KiB on average\n", l.lat[0] / 1e3, mb_s,
	       (unsigned long long)n->stalls, (unsigned long long)n->destages,
	       n->destaged_blk * 0.5 / n->destages);
	ck_assert(n->stalls > 0);
	ck_assert(mb_s > 40 && mb_s < 50.5);
	/* The idle flush wrote everything back: the cache ends clean. */
	uint32_t dirty, lines;
	rs_ctrl_cache_fill_level(g.dev, &dirty, &lines);
	ck_assert_uint_eq(dirty, 0);
	ck_assert_uint_eq(n->destaged_blk, (uint64_t)count * 128);
	free(l.lat);
	rig_down(&g);
}
END_TEST

START_TEST(write_through_latency_is_array_latency)
{
	static const char *const caches[] = { "none", "write-through" };
	struct rig g;
	char text[512];
	snprintf(text, sizeof(text), "type: controller\ncommand_cost: 20us\n"
		 "cache: {mode: %s, size: 4MiB}\n" ARRAY_50, caches[_i]);
	rig_up(&g, text);
	struct log l = { 0 };
	stream(&g, &l, RS_WRITE, 0, 128, 50);
	double want = 20e3 + 0.2e6 + 65536 / 50e6 * 1e9;
	for (int i = 0; i < 50; i++)
		tu_assert_rel((double)l.lat[i], want, 0.001);
	free(l.lat);
	rig_down(&g);
}
END_TEST

/* A driver that searches its deferred writes per request: each write-back
 * write pays cost_per_dirty for every dirty line already in the cache, so
 * the n-th write into distinct lines takes n x 1 us more than the first. */
START_TEST(dirty_search_cost_grows_with_dirty_lines)
{
	struct rig g;
	rig_up(&g, "type: controller\ncommand_cost: 20us\n"
		   "cache: {mode: write-back, size: 4MiB, line: 64KiB, cost_hit: 5us,\n"
		   "        cost_per_dirty: 1us}\n" ARRAY_50);
	struct log l = { 0 };
	stream(&g, &l, RS_WRITE, 0, 128, 10);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(l.lat[i], (25 + i) * RS_US);
	free(l.lat);
	rig_down(&g);
}
END_TEST

START_TEST(read_hits_after_write)
{
	static const char *const caches[] = { "write-through", "write-back" };
	struct rig g;
	char text[512];
	snprintf(text, sizeof(text), "type: controller\ncommand_cost: 20us\n"
		 "cache: {mode: %s, size: 4MiB, cost_hit: 5us, cost_miss: 10us}\n" ARRAY_50,
		 caches[_i]);
	rig_up(&g, text);
	struct log l = { 0 };
	stream(&g, &l, RS_WRITE, 1000, 64, 20);        /* 640 KiB, not line-aligned */
	stream(&g, &l, RS_READ, 1000, 64, 20);
	const struct rs_ctrl_counters *n = rs_ctrl_counters(g.dev);
	ck_assert_uint_eq(n->hits, 20);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(l.lat[i], 25 * RS_US);
	/* Beyond what was written: misses, at the array's pace. */
	stream(&g, &l, RS_READ, 100000, 64, 5);
	ck_assert_uint_eq(n->misses, 5);
	ck_assert_int_gt(l.lat[0], 500 * RS_US);
	free(l.lat);
	rig_down(&g);
}
END_TEST

START_TEST(read_ahead_turns_stream_into_hits)
{
	struct rig g;
	rig_up(&g, "type: controller\ncommand_cost: 10us\n"
		   "cache: {mode: write-through, size: 8MiB, read_ahead: 512KiB}\n" ARRAY_50);
	struct log l = { 0 };
	stream(&g, &l, RS_READ, 0, 16, 400);
	const struct rs_ctrl_counters *n = rs_ctrl_counters(g.dev);
	printf("read-ahead: %llu hits, %llu misses, %llu prefetches\n",
	       (unsigned long long)n->hits, (unsigned long long)n->misses,
	       (unsigned long long)n->read_aheads);
	ck_assert(n->read_aheads > 0);
	ck_assert(n->hits > 300);
	free(l.lat);
	rig_down(&g);
}
END_TEST

/* A cache set-up whose cost would grow with a setting instead of the work
 * done is refused when the controller is built: a read-ahead window
 * beyond the cache or beyond 1 GiB, a line table beyond
 * RS_CACHE_MAX_LINES. */
static void refused(const char *text, const char *want)
{
	struct rs_diag d;
	struct rs_model_path mp;
	rs_diag_init(&d);
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root = rs_yaml_load_string("test.yaml", text, strlen(text), &d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = &mp, .diag = &d };
	struct rs_dev *dev = rs_dev_build(&b, root, "device", "ctrl");
	ck_assert_ptr_null(dev);
	ck_assert_msg(strstr(d.msg, want), "%s", d.msg);
	ck_assert_int_eq(d.line, 2);
	rs_sim_free(sim);
	rs_node_free(root);
	rs_model_path_free(&mp);
}

START_TEST(cache_settings_bounded)
{
	refused("type: controller\n"
		"cache: {mode: write-back, size: 8MiB, read_ahead: 16MiB}\n" ARRAY_50,
		"cache 'read_ahead' 16MiB is larger than the cache (8MiB)");
	refused("type: controller\n"
		"cache: {mode: write-back, size: 4GiB, read_ahead: 2GiB}\n" ARRAY_50,
		"larger than 1GiB");
	refused("type: controller\n"
		"cache: {mode: write-back, size: 1TiB, line: 512}\n" ARRAY_50,
		"cache has too many lines");
	struct rs_cache c;
	ck_assert_int_eq(rs_cache_init(&c, (uint64_t)RS_CACHE_MAX_LINES * 512, 512), 0);
	ck_assert_uint_eq(c.nlines, RS_CACHE_MAX_LINES);
	rs_cache_fini(&c);
	ck_assert_int_eq(rs_cache_init(&c, (uint64_t)RS_CACHE_MAX_LINES * 512 + 512, 512), -1);
}
END_TEST

/* ---- TX4000-C7: sequential WB and WT almost the same ------------------------ */

START_TEST(wt_wb_sequential_nearly_equal)
{
	static const char *const spec[] = { "seqwrite", "seqread" };
	struct crun wt, wb;
	const char *fmt =
	    "device:\n"
	    "  model: promise-tx4000\n"
	    "  cache: {mode: %s}\n"
	    "  array: {model: maxtor-6l020l0}\n"
	    "workload: {iometer: {spec: %s, size: 64KiB, outstanding: 4, ramp: 0.5s, run: 4s}}\n";
	run(&wt, false, fmt, "write-through", spec[_i]);
	run(&wb, false, fmt, "write-back", spec[_i]);
	printf("TX4000 %s 64 KiB QD4, one Maxtor: WT %.2f MB/s, WB %.2f MB/s, host CPU %.1f%%\n",
	       spec[_i], wt.s.mb_s, wb.s.mb_s, 100 * wb.rep.utilisation);
	tu_assert_rel(wb.s.mb_s, wt.s.mb_s, 0.08);
}
END_TEST

/* The RAID volume builds its disks through the member hook: four Maxtors
 * in RAID0 on the TX4000 read sequentially at about four disks' media rate
 * (TX4000-C8: disk-limited, below the PCI ceiling), each on its channel. */
START_TEST(raid0_behind_tx4000)
{
	struct crun r;
	run(&r, false,
	    "device:\n  model: promise-tx4000\n"
	    "  array: {type: array, level: raid0, strip: 64KiB,\n"
	    "          disks: {model: maxtor-6l020l0, count: 4}}\n"
	    "workload: {iometer: {spec: seqread, size: 256KiB, outstanding: 4, ramp: 0.3s, "
	    "run: 2s}}\n");
	printf("TX4000 RAID0 x4 sequential 256 KiB reads: %.1f MB/s; channel busy %.2f %.2f "
	       "%.2f %.2f s\n", r.s.mb_s, r.chan_busy_s[0], r.chan_busy_s[1], r.chan_busy_s[2],
	       r.chan_busy_s[3]);
	for (int i = 0; i < 4; i++)
		ck_assert(r.chan_busy_s[i] > 0.1);
	ck_assert(r.s.mb_s > 2.5 * 44 && r.s.mb_s < r.host_ceiling / 1e6);
}
END_TEST

/* ---- the queuing switch ------------------------------------------------------- */

/* With the switch off the controller lets one command out to each drive,
 * however deep the drives' queues; on, at most its own depth and the
 * drive's; the report carries what the drives held. */
START_TEST(queuing_switch_bounds_drives)
{
	struct crun off, on;
	const char *fmt =
		"device:\n  model: promise-tx4200\n  queue_depth: %d\n"
		"  array: {type: array, level: raid0, strip: 64KiB,\n"
		"          disks: {model: wd-raptor-wd740gd, count: 2, queue_depth: 32}}\n"
		"workload: {iometer: {spec: database, read: 100%%, outstanding: 64, ramp: 1s, "
		"run: 4s}}\n";
	run(&off, false, fmt, 1);
	run(&on, false, fmt, 8);
	printf("TX4200 RAID0x2 load 64: queuing off: drives held mean %.2f max %.0f, %.1f IOPS; "
	       "on (8): mean %.2f max %.0f, %.1f IOPS\n", off.rep.drive_qd, off.rep.drive_qd_max,
	       off.s.iops, on.rep.drive_qd, on.rep.drive_qd_max, on.s.iops);
	ck_assert_uint_eq(off.rep.drives, 2);
	ck_assert(off.rep.drive_qd_max == 1 && off.rep.drive_qd > 0.95);
	ck_assert(on.rep.drive_qd_max == 8 && on.rep.drive_qd > 7);
	ck_assert(on.s.iops > off.s.iops);
}
END_TEST

/* The controller's mirror-read settings replace the array's: with reads
 * pinned to the primary copy while unqueued, the mirror runs at one
 * drive's speed; the queued setting (alternate) spreads them. */
START_TEST(mirror_reads_follow_the_switch)
{
	struct crun pinned, spread;
	const char *fmt =
		"device:\n  model: promise-tx4200\n  queue_depth: %d\n"
		"  unqueued_reads: {read_policy: primary}\n"
		"  queued_reads: {read_policy: alternate}\n"
		"  array: {type: array, level: raid1, read_policy: shortest-queue,\n"
		"          disks: {model: wd-raptor-wd740gd, count: 2, queue_depth: 1}}\n"
		"workload: {iometer: {spec: database, read: 100%%, outstanding: 2, ramp: 1s, "
		"run: 4s}}\n";
	run(&pinned, false, fmt, 1);
	run(&spread, false, fmt, 2);
	printf("RAID1 load 2 reads: unqueued (primary) %.1f IOPS, queued (alternate) %.1f IOPS\n",
	       pinned.s.iops, spread.s.iops);
	ck_assert(spread.s.iops > 1.5 * pinned.s.iops);
}
END_TEST

/* The elevator serves what a port holds back in address order: on one
 * drive with queuing off, random reads at a deep load gain over FIFO. */
START_TEST(port_elevator_orders_waiting)
{
	struct crun fifo, elev;
	const char *fmt =
		"device:\n  model: promise-tx4200\n  queue_policy: %s\n"
		"  array: {type: array, level: single,\n"
		"          disks: {model: wd-raptor-wd740gd, count: 1, queue_depth: 1}}\n"
		"workload: {iometer: {spec: database, read: 100%%, outstanding: 32, ramp: 1s, "
		"run: 5s}}\n";
	run(&fifo, false, fmt, "fifo");
	run(&elev, false, fmt, "elevator");
	printf("single drive load 32, queuing off: port FIFO %.1f IOPS, elevator %.1f IOPS\n",
	       fifo.s.iops, elev.s.iops);
	ck_assert(elev.s.iops > 1.2 * fifo.s.iops);
}
END_TEST

/* The driver takes at most max_commands host requests at once; the rest
 * wait in the host, so the drives together never hold more. */
START_TEST(max_commands_bounds_the_array)
{
	struct crun r;
	run(&r, false,
	    "device:\n  model: promise-tx4200\n  queue_depth: 32\n  max_commands: 4\n"
	    "  array: {type: array, level: raid0, strip: 64KiB,\n"
	    "          disks: {model: wd-raptor-wd740gd, count: 2, queue_depth: 32}}\n"
	    "workload: {iometer: {spec: database, read: 100%%, outstanding: 32, ramp: 1s, "
	    "run: 4s}}\n");
	printf("max_commands 4 at load 32: drives held mean %.2f (x2), peak %.0f; %llu held back\n",
	       r.rep.drive_qd, r.rep.drive_qd_max, (unsigned long long)r.n.held_back);
	ck_assert(r.rep.drive_qd * r.rep.drives <= 4.0 + 1e-9);
	ck_assert(r.rep.drive_qd_max <= 4);
	ck_assert_uint_gt(r.n.held_back, 100);
}
END_TEST

/* The controller's host_service reaches the drives behind its ports and
 * costs once per queued command's data phase, only with the TCQ switch on.
 * A 256 KiB read moves in four 64 KiB bursts but the drive raises SERVICE
 * once, as its first burst is ready, and the host's answer overlaps the
 * rest of the media read (3.6 ms at 72 MB/s): four payments would add
 * 6 ms or more, one hidden behind the media adds nearly nothing. */
static double tx4200_read_ms(int qd, const char *service, const char *size)
{
	struct crun r;
	run(&r, false,
	    "device:\n  model: promise-tx4200\n  queue_depth: %d\n  host_service: %s\n"
	    "  max_commands: 0\n"
	    "  array: {type: array, level: single,\n"
	    "          disks: {model: wd-raptor-wd740gd, count: 1, queue_depth: %d}}\n"
	    "workload: {iometer: {spec: default, size: %s, read: 100%%, random: 100%%, "
	    "outstanding: 1, count: 1500, run: 100s}}\n", qd, service, qd, size);
	return r.s.lat_mean_ms;
}

START_TEST(host_service_per_queued_data_phase)
{
	double off0 = tx4200_read_ms(1, "0s", "8KiB"), off2 = tx4200_read_ms(1, "2ms", "8KiB");
	double on0 = tx4200_read_ms(32, "0s", "8KiB"), on2 = tx4200_read_ms(32, "2ms", "8KiB");
	double big0 = tx4200_read_ms(32, "0s", "256KiB"), big2 = tx4200_read_ms(32, "2ms", "256KiB");
	printf("TX4200 read latency, host_service 0 / 2 ms: TCQ off %.3f / %.3f, on %.3f / %.3f, "
	       "256 KiB on %.3f / %.3f ms\n", off0, off2, on0, on2, big0, big2);
	ck_assert(off0 == off2);
	/* The spindle turns on while the host answers, so a later start lands
	 * elsewhere in the revolution: within a few tenths of a millisecond. */
	ck_assert(on2 - on0 > 1.7 && on2 - on0 < 2.4);
	ck_assert(big2 - big0 >= 0 && big2 - big0 < 1.0);
}
END_TEST

/* bus_overlap: a drive's data crosses the host bus while the drive works
 * (DMA streaming), so a read takes the longer of the two, not their sum;
 * the bus still carries every byte.  1000 KiB at 100 MB/s is 10.24 ms. */
START_TEST(bus_overlap_cut_through)
{
	struct crun sf, ct;
	const char *fmt =
		"device:\n  type: controller\n  host_bus: {rate: 100MB/s}\n  bus_overlap: %s\n"
		"  array: {type: ideal, service: fixed, mean: 4ms}\n"
		"workload: {iometer: {spec: default, size: 1000KiB, read: 100%%, random: 0%%, "
		"outstanding: 1, count: 200, run: 100s}}\n";
	run(&sf, false, fmt, "false");
	run(&ct, false, fmt, "true");
	printf("1000 KiB reads, 4 ms drive + 10.24 ms bus: store-and-forward %.3f ms, "
	       "overlapped %.3f ms\n",
	       sf.s.lat_mean_ms, ct.s.lat_mean_ms);
	ck_assert(fabs(sf.s.lat_mean_ms - 14.24) < 0.05);
	ck_assert(fabs(ct.s.lat_mean_ms - 10.24) < 0.05);
	ck_assert(ct.host_bytes >= 1024000ull * ct.s.ops);
}
END_TEST

/* ---- the controller models build and run --------------------------------------- */

static const char *const ctrl_models[] = {
	"promise-tx4000", "promise-tx4200", "promise-sx4000", "intel-c226-rst",
	"generic-hw-raid",
};

START_TEST(controller_models_run)
{
	struct crun r;
	run(&r, true,
	    "device:\n  model: %s\n"
	    "  array: {members: 2, member: {type: ideal, mean: 0.5ms, capacity: 10GB}}\n"
	    "workload: {iometer: {spec: default, size: 8KiB, read: 67%%, random: 100%%,\n"
	    "  outstanding: 8, ramp: 0.05s, run: 0.3s}}\n", ctrl_models[_i]);
	printf("%-16s 8 KiB random, 2 ideal drives: %.0f IOPS, cpu %.1f%%\n", ctrl_models[_i],
	       r.s.iops, 100 * r.rep.utilisation);
	ck_assert(r.s.iops > 1000);
}
END_TEST

/* ---- bad sections ---------------------------------------------------------------- */

struct bad_case {
	const char *what;
	const char *text;
	int line, col;
	const char *needle;
};

static const struct bad_case bad_cases[] = {
	{ "unknown cache mode",
	  "type: controller\narray: {type: ideal}\ncache: {mode: write-behind, size: 1MiB}\n",
	  3, 15, "write-back" },
	{ "cache mode shorthand", "type: controller\narray: {type: ideal}\ncache: writeback\n",
	  3, 8, "write-back" },
	{ "zero ports", "type: controller\nports: 0\narray: {type: ideal}\n", 2, 8, "ports" },
	{ "missing array", "type: controller\nports: 4\n", 1, 1, "array" },
	{ "unknown bus model", "type: controller\nhost_bus: pci-32-99\narray: {type: ideal}\n",
	  2, 11, "pci-32-" },
	{ "bus model that is not a link",
	  "type: controller\nhost_bus: maxtor-6l020l0\narray: {type: ideal}\n", 0, 0, "link" },
	{ "bad inline bus",
	  "type: controller\nport_link: {rate: fast}\narray: {type: ideal}\n", 2, 19, "rate" },
	{ "low above high",
	  "type: controller\narray: {type: ideal}\n"
	  "cache: {mode: write-back, size: 1MiB, high: 40%, low: 60%}\n", 3, 55, "low" },
	{ "cache smaller than a line",
	  "type: controller\narray: {type: ideal}\ncache: {mode: write-back, size: 16KiB}\n",
	  3, 33, "line" },
	{ "too many drives",
	  "type: controller\nports: 1\n"
	  "array: {type: array, level: raid0, disks: {type: ideal, count: 2}}\n", 3, 8, "port(s)" },
	{ "bad array", "type: controller\narray: {type: idael}\n", 2, 15, "ideal" },
	{ "bad queue policy", "type: controller\nqueue_policy: sptff\narray: {type: ideal}\n", 2,
	  15, "sstf, sptf" },
	{ "bad queued read policy",
	  "type: controller\nqueued_reads: {read_policy: nearest}\narray: {type: ideal}\n", 2,
	  29, "nearest-head" },
	{ "unknown key in unqueued_reads",
	  "type: controller\nunqueued_reads: {sequential: true}\narray: {type: ideal}\n", 2, 18,
	  "unknown key 'sequential'" },
	{ "a level the controller does not offer",
	  "type: controller\nports: 4\nraid_levels: [0, 1, 0+1, JBOD]\n"
	  "array: {type: array, level: raid10, disks: {type: ideal, count: 4}}\n", 4, 29,
	  "the controller does not offer raid10 (its raid_levels: 0, 1, 0+1, JBOD)" },
	{ "an unknown level in raid_levels",
	  "type: controller\nraid_levels: [raid0, raid7]\narray: {type: ideal}\n", 2, 22,
	  "unknown RAID level 'raid7'" },
	{ "an empty raid_levels",
	  "type: controller\nraid_levels: []\narray: {type: ideal}\n", 2, 14,
	  "lists no level" },
};

/* A controller offers the levels its model lists, in either spelling, and
 * one whose model lists none offers every level. */
START_TEST(raid_levels_offered)
{
	static const char *const texts[] = {
		"type: controller\nports: 4\n"
		"array: {type: array, level: raid6, disks: {type: ideal, count: 4}}\n",
		"type: controller\nports: 4\nraid_levels: [raid6, 0]\n"
		"array: {type: array, level: raid6, disks: {type: ideal, count: 4}}\n",
		"type: controller\nports: 4\nraid_levels: [0, 10]\n"
		"array: {type: array, level: raid10, disks: {type: ideal, count: 4}}\n",
		"type: controller\nports: 4\nraid_levels: [0+1, jbod]\n"
		"array: {type: array, level: raid01, disks: {type: ideal, count: 4}}\n",
		/* a device that is no array has no level to check */
		"type: controller\nraid_levels: [0]\narray: {type: ideal}\n",
	};
	const char *text = texts[_i];
	struct rs_model_path mp;
	struct rs_diag d;
	rs_diag_init(&d);
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root = rs_yaml_load_string("ok.yaml", text, strlen(text), &d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = &mp, .diag = &d };
	struct rs_dev *dev = rs_dev_build(&b, root, "device", "ctrl");
	ck_assert_msg(dev != NULL, "case %d: %s:%d:%d: %s", _i, d.file, d.line, d.col, d.msg);
	rs_dev_destroy(dev);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

START_TEST(bad_sections)
{
	const struct bad_case *bc = &bad_cases[_i];
	struct rs_model_path mp;
	struct rs_diag d;
	rs_diag_init(&d);
	tu_model_path(&mp, &d);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root = rs_yaml_load_string("bad.yaml", bc->text, strlen(bc->text), &d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = &mp, .diag = &d };
	struct rs_dev *dev = rs_dev_build(&b, root, "device", "ctrl");
	fprintf(stderr, "case '%s': ", bc->what);
	rs_diag_print(&d, stderr);
	ck_assert_ptr_null(dev);
	ck_assert(d.failed);
	if (bc->line) {
		ck_assert_str_eq(d.file, "bad.yaml");
		ck_assert_int_eq(d.line, bc->line);
		ck_assert_int_eq(d.col, bc->col);
	} else {
		ck_assert(d.line > 0 && d.col > 0);  /* in the model file */
	}
	ck_assert_ptr_nonnull(strstr(d.msg, bc->needle));
	ck_assert_ptr_null(b.member_hook);
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}
END_TEST

/* ---- scatter-gather limits ------------------------------------------------------ */

/* A command's data must fit sg_entries entries of one host page each: a
 * 1 MiB read on 4 KiB pages is 256 entries, so at 64 entries it reaches a
 * drive that takes one command at a time (4 ms each) as four, at 256 as
 * one; without a limit, as one. */
static double sg_read_ms(const char *entries)
{
	struct crun r;
	run(&r, false,
	    "device:\n  type: controller\n  sg_entries: %s\n  sg_page: 4KiB\n"
	    "  array: {type: ideal, service: fixed, mean: 4ms}\n"
	    "workload: {iometer: {spec: default, size: 1MiB, read: 100%%, random: 0%%, "
	    "outstanding: 1, count: 100, run: 100s}}\n", entries);
	return r.s.lat_mean_ms;
}

START_TEST(sg_entries_split_long_commands)
{
	double none = sg_read_ms("0"), fits = sg_read_ms("256"), split = sg_read_ms("64");
	printf("1 MiB reads, 4 ms per command: no SG limit %.3f ms, 256 entries %.3f ms, "
	       "64 entries %.3f ms\n", none, fits, split);
	ck_assert(fabs(none - 4.0) < 0.01);
	ck_assert(fabs(fits - 4.0) < 0.01);
	ck_assert(fabs(split - 16.0) < 0.01);
}
END_TEST

static Suite *ctrl_suite(void)
{
	Suite *s = suite_create("ctrl");
	TCase *tb = tcase_create("buses");
	tcase_set_timeout(tb, 120);
	tcase_add_loop_test(tb, bus_models, 0, (int)(sizeof(bus_cases) / sizeof(bus_cases[0])));
	tcase_add_loop_test(tb, pci_caps_four_streams, 0, 2);
	tcase_add_test(tb, bus_at_card_or_ports);
	tcase_add_test(tb, pata_master_slave_serialised);
	tcase_add_test(tb, pata_channel_caps_two_drives);
	suite_add_tcase(s, tb);
	TCase *tc = tcase_create("cache");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, write_back_absorbs_then_destage_speed);
	tcase_add_test(tc, write_back_passes_fua_through);
	tcase_add_test(tc, relayed_host_request_as_a_child_would);
	tcase_add_test(tc, straight_controller_as_with_its_tests);
	tcase_add_test(tc, straight_controller_shares_its_arrays_average);
	tcase_add_loop_test(tc, write_through_latency_is_array_latency, 0, 2);
	tcase_add_loop_test(tc, read_hits_after_write, 0, 2);
	tcase_add_test(tc, dirty_search_cost_grows_with_dirty_lines);
	tcase_add_test(tc, read_ahead_turns_stream_into_hits);
	tcase_add_test(tc, cache_settings_bounded);
	tcase_add_loop_test(tc, wt_wb_sequential_nearly_equal, 0, 2);
	suite_add_tcase(s, tc);
	TCase *tm = tcase_create("models");
	tcase_set_timeout(tm, 120);
	tcase_add_test(tm, raid0_behind_tx4000);
	tcase_add_test(tm, queuing_switch_bounds_drives);
	tcase_add_test(tm, mirror_reads_follow_the_switch);
	tcase_add_test(tm, port_elevator_orders_waiting);
	tcase_add_test(tm, max_commands_bounds_the_array);
	tcase_add_test(tm, host_service_per_queued_data_phase);
	tcase_add_test(tm, bus_overlap_cut_through);
	tcase_add_loop_test(tm, controller_models_run, 0,
			    (int)(sizeof(ctrl_models) / sizeof(ctrl_models[0])));
	tcase_add_loop_test(tm, bad_sections, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_loop_test(tm, raid_levels_offered, 0, 5);
	tcase_add_test(tm, sg_entries_split_long_commands);
	suite_add_tcase(s, tm);
	return s;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* keep the figures of a failing test */
	SRunner *sr = srunner_create(ctrl_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
