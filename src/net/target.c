/* Keys (all optional but capacity):
 *   uplink          Ethernet section of the gateway's switch ports
 *   uplinks         how many (aggregated); sessions spread over them
 *   latency         gateway store-and-forward and protocol conversion per I/O
 *   gateway_cost    gateway processor time per I/O (serialised)
 *   fc_links, fc_rate   Fibre Channel links to the storage (1 or 2 Gb/s)
 *   cache_cost      storage controller time per I/O
 *   controllers     storage controllers serving in parallel
 *   cache_size      region served from cache; beyond it, `disks`
 *   capacity        addressable size when there are no disks
 *   disks           device behind the cache (optional) */
#include "net/target.h"

#include <stdio.h>
#include <stdlib.h>

#include "dev/build.h"
#include "dev/server.h"
#include "kernel/assert.h"
#include "net/frame.h"

struct target_params {
	const struct rs_node *uplink;
	uint64_t uplinks;
	rs_time_t latency_ns;
	rs_time_t gateway_cost_ns;
	uint64_t fc_links;
	double fc_rate;
	rs_time_t cache_cost_ns;
	uint64_t controllers;
	uint64_t cache_bytes;
	uint64_t capacity_bytes;
	const struct rs_node *disks;
};

#define P(f) offsetof(struct target_params, f)
#define RANGE (RS_OPT_HAS_MIN | RS_OPT_HAS_MAX)
static const struct rs_opt target_opts[] = {
	{ "uplink", RS_OPT_NODE, P(uplink), NULL, 0, 0, 0, NULL,
	  "Ethernet section of the gateway's port(s) on the switch" },
	{ "uplinks", RS_OPT_UINT, P(uplinks), "1", RANGE, 1, 16, NULL,
	  "aggregated gateway ports; each session hashes to one" },
	{ "latency", RS_OPT_TIME, P(latency_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "gateway delay per I/O (pipelined: does not limit IOPS)" },
	{ "gateway_cost", RS_OPT_TIME, P(gateway_cost_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "gateway processor time per I/O (one processor: limits IOPS)" },
	{ "fc_links", RS_OPT_UINT, P(fc_links), "1", RANGE, 1, 16, NULL,
	  "Fibre Channel links from the gateway to the storage" },
	{ "fc_rate", RS_OPT_RATE, P(fc_rate), "100MB/s", RS_OPT_POSITIVE, 0, 0, NULL,
	  "payload rate of one FC link: ~100MB/s at 1 Gb/s, ~200MB/s at 2 Gb/s" },
	{ "cache_cost", RS_OPT_TIME, P(cache_cost_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "storage controller time per cached I/O" },
	{ "controllers", RS_OPT_UINT, P(controllers), "1", RANGE, 1, 64, NULL,
	  "storage controllers serving I/Os in parallel" },
	{ "cache_size", RS_OPT_SIZE, P(cache_bytes), "256MiB", 0, 0, 0, NULL,
	  "the first cache_size bytes are served from cache; beyond, the disks" },
	{ "capacity", RS_OPT_SIZE, P(capacity_bytes), "1TiB", RS_OPT_HAS_MIN, 512, 0, NULL,
	  "addressable size when no disks are given" },
	{ "disks", RS_OPT_NODE, P(disks), NULL, 0, 0, 0, NULL,
	  "device behind the cache: an array or a disk (optional)" },
	RS_OPT_END
};
#undef P

struct target {
	struct target_params p;
	struct rs_link *uplinks;
	struct rs_link *fc;
	uint32_t next_fc;
	struct rs_server gateway, storage;
	struct rs_dev *disks;
	uint64_t cache_blk;
	struct rs_dev *dev;
};

/* Stages of a request, counted in io->at.target_step. */
enum { ST_GATEWAY, ST_FC, ST_STORAGE };

static void step(struct rs_sim *sim, struct target *t, struct rs_io *io, int status);

static void job_done(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_io *io = arg;
	io->at.target_step++;
	step(sim, obj, io, status);
}

static void delay_done(struct rs_sim *sim, void *obj, void *arg)
{
	job_done(sim, obj, arg, 0);
}

/* The child-done hook: the request is back from the disks. */
static void disk_done(struct rs_sim *sim, struct rs_io *child)
{
	rs_io_child_finished(sim, child, 0);
}

static void step(struct rs_sim *sim, struct target *t, struct rs_io *io, int status)
{
	if (status) {
		rs_dev_complete(sim, t->dev, io, status);
		return;
	}
	switch (io->at.target_step) {
	case 0: /* gateway latency */
		rs_sched(sim, t->p.latency_ns, delay_done, t, io);
		return;
	case 1:
		if (t->p.gateway_cost_ns)
			rs_server_submit(sim, &t->gateway, t->p.gateway_cost_ns, job_done, t, io);
		else
			job_done(sim, t, io, 0);
		return;
	case 2: {
		struct rs_link *fc = &t->fc[t->next_fc++ % t->p.fc_links];
		rs_link_xfer(sim, fc, io->op == RS_WRITE ? RS_DIR_OUT : RS_DIR_IN,
			     rs_io_bytes(io), job_done, t, io);
		return;
	}
	case 3:
		if (t->p.cache_cost_ns)
			rs_server_submit(sim, &t->storage, t->p.cache_cost_ns, job_done, t, io);
		else
			job_done(sim, t, io, 0);
		return;
	default:
		if (t->disks && io->lba + io->nblk > t->cache_blk) {
			struct rs_io *c = rs_io_child(sim, io, io->op, io->lba, io->nblk, NULL,
						      NULL);
			rs_dev_submit(sim, t->disks, c);
			return;
		}
		rs_dev_complete(sim, t->dev, io, 0);
	}
}

static void target_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	io->at.target_step = 0;
	step(sim, dev->priv, io, 0);
}

static int target_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		       const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct target_params *p = params;
	rs_time_t now = sim ? rs_now(sim) : 0;
	struct target *t = calloc(1, sizeof(*t));
	RS_ASSERT(t);
	dev->priv = t;
	t->dev = dev;
	t->p = *p;
	struct rs_eth_params eth;
	if (rs_eth_bind(p->uplink, "uplink", &eth, d))
		return -1;
	t->uplinks = calloc(p->uplinks, sizeof(*t->uplinks));
	t->fc = calloc(p->fc_links, sizeof(*t->fc));
	RS_ASSERT(t->uplinks && t->fc);
	struct rs_link_params lp = {
		.rate_bytes_s = rs_eth_bytes_s(&eth),
		/* Messages take turns PDU by PDU, as on the initiator's port. */
		.burst_bytes = rs_iscsi_wire_bytes(&eth, eth.max_segment),
		.full_duplex = eth.full_duplex,
	};
	for (size_t i = 0; i < p->uplinks; i++)
		rs_link_init(&t->uplinks[i], "uplink", &lp, now);
	/* Frame overheads are in the payload rate.  Transfers go first come,
	 * first served: the gateway forwards frame by frame, so an I/O's FC
	 * leg and its Ethernet leg overlap instead of all I/Os in flight
	 * sharing the FC link and reaching the Ethernet side together. */
	struct rs_link_params fp = { .rate_bytes_s = p->fc_rate, .full_duplex = true };
	for (size_t i = 0; i < p->fc_links; i++)
		rs_link_init(&t->fc[i], "fc", &fp, now);
	rs_server_init(&t->gateway, "gateway", 1, now);
	rs_server_init(&t->storage, "storage", (uint32_t)p->controllers, now);
	t->cache_blk = p->cache_bytes / RS_BLOCK_BYTES;
	dev->capacity_blk = p->capacity_bytes / RS_BLOCK_BYTES;
	if (p->disks) {
		t->disks = rs_dev_build(b, p->disks, "disks", "disks");
		if (!t->disks)
			return -1;
		dev->members = calloc(1, sizeof(*dev->members));
		RS_ASSERT(dev->members);
		dev->members[0] = t->disks;
		dev->nmembers = 1;
		dev->capacity_blk = t->disks->capacity_blk;
	}
	(void)node;
	return 0;
}

static void target_restart(struct rs_dev *dev, rs_time_t now)
{
	struct target *t = dev->priv;
	rs_server_restart_stats(&t->gateway, now);
	rs_server_restart_stats(&t->storage, now);
	for (size_t i = 0; i < t->p.uplinks; i++)
		rs_link_restart_stats(&t->uplinks[i], now);
	for (size_t i = 0; i < t->p.fc_links; i++)
		rs_link_restart_stats(&t->fc[i], now);
}

static void target_destroy(struct rs_dev *dev)
{
	struct target *t = dev->priv;
	if (!t)
		return;
	free(t->uplinks);
	free(t->fc);
	free(t);
}

struct rs_link *rs_iscsi_target_uplink(struct rs_dev *dev, uint32_t session)
{
	if (!dev || dev->type != &rs_dev_iscsi_target)
		return NULL;
	struct target *t = dev->priv;
	return &t->uplinks[session % t->p.uplinks];
}

static void target_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			      struct rs_components *out)
{
	const struct target *t = dev->priv;
	char part[32];
	rs_components_add_server(out, name, "gateway", &t->gateway, now);
	rs_components_add_server(out, name, "storage", &t->storage, now);
	for (size_t i = 0; i < t->p.uplinks; i++) {
		snprintf(part, sizeof(part), "uplink%zu", i);
		rs_components_add_link(out, name, part, &t->uplinks[i], now);
	}
	for (size_t i = 0; i < t->p.fc_links; i++) {
		snprintf(part, sizeof(part), "fc%zu", i);
		rs_components_add_link(out, name, part, &t->fc[i], now);
	}
}

const struct rs_dev_type rs_dev_iscsi_target = {
	.name = "iscsi-target",
	.help = "iSCSI-to-FC gateway (latency, FC links) and a cached storage system",
	.opts = target_opts,
	.params_size = sizeof(struct target_params),
	.init = target_init,
	.submit = target_submit,
	.child_done = disk_done,
	.restart_stats = target_restart,
	.components = target_components,
	.destroy = target_destroy,
};
