#include "host/hba.h"

#include <stddef.h>
#include <stdlib.h>

#include "config/limits.h"
#include "dev/ioq.h"
#include "dev/link.h"
#include "dev/server.h"
#include "host/stage.h"
#include "kernel/assert.h"

struct hba_params {
	double iops;
	double bandwidth;
	rs_time_t latency_ns;
	uint64_t queue_depth;
	const struct rs_node *device;
};

#define P(f) offsetof(struct hba_params, f)

static const struct rs_opt hba_opts[] = {
	{ "iops", RS_OPT_DOUBLE, P(iops), "0", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "commands the adapter starts per second at most (0: no limit)" },
	{ "bandwidth", RS_OPT_RATE, P(bandwidth), "0B/s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "bytes per second per direction through the adapter (0: no limit)" },
	{ "command_latency", RS_OPT_TIME, P(latency_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "latency the adapter adds to each command, overlapping between commands" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), "1024", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX,
	  1, 1 << 20, NULL, "commands inside the adapter at once (bounded by the cap "
	  "queued_requests)" },
	{ "device", RS_OPT_NODE, P(device), NULL, 0, 0, 0, NULL,
	  "the device behind the adapter" },
	RS_OPT_END
};

struct hba {
	struct hba_params p;
	struct rs_ioq q;
	struct rs_server fw;
	struct rs_link link;
	bool has_fw, has_link;
	rs_time_t fw_ns;
};

static void started(struct rs_sim *sim, void *obj, void *arg, int status);
static void data_out(struct rs_sim *sim, void *obj, void *arg, int status);
static void back_from_device(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);
static const struct rs_stage_back back = { back_from_device };

static void pump(struct rs_sim *sim, struct rs_dev *dev)
{
	struct hba *a = dev->priv;
	struct rs_io *io;
	while ((io = rs_ioq_dispatch(sim, &a->q))) {
		if (a->has_fw)
			rs_server_submit(sim, &a->fw, a->fw_ns, started, dev, io);
		else
			started(sim, dev, io, 0);
	}
}

static void hba_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct hba *a = dev->priv;
	rs_ioq_push(&a->q, io);
	pump(sim, dev);
}

static void forward(struct rs_sim *sim, void *obj, void *arg)
{
	rs_stage_forward(sim, obj, arg, &back);
}

static void data_out(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_dev *dev = obj;
	struct hba *a = dev->priv;
	struct rs_io *io = arg;
	if (status && !io->status)
		io->status = status;
	if (a->p.latency_ns > 0)
		rs_sched(sim, a->p.latency_ns, forward, dev, io);
	else
		forward(sim, dev, io);
}

static void started(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_dev *dev = obj;
	struct hba *a = dev->priv;
	struct rs_io *io = arg;
	if (a->has_link && io->op == RS_WRITE)
		rs_link_xfer(sim, &a->link, RS_DIR_OUT, rs_io_bytes(io), data_out, dev, io);
	else
		data_out(sim, dev, io, 0);
}

static void finished(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_dev *dev = obj;
	struct hba *a = dev->priv;
	struct rs_io *io = arg;
	if (status && !io->status)
		io->status = status;
	rs_ioq_release(&a->q);
	pump(sim, dev);
	rs_dev_complete(sim, dev, io, io->status);
}

static void back_from_device(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct hba *a = dev->priv;
	if (a->has_link && io->op == RS_READ && io->status == 0)
		rs_link_xfer(sim, &a->link, RS_DIR_IN, rs_io_bytes(io), finished, dev, io);
	else
		finished(sim, dev, io, 0);
}

static int hba_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct hba_params *p = params;
	if (p->queue_depth > rs_limits()->queued_requests) {
		const struct rs_node *at = rs_node_get(node, "queue_depth");
		return rs_diag_node(d, at ? at : node, "'queue_depth' %llu is more than the cap "
				    "(cap queued_requests=%llu; raise it with --limit "
				    "queued_requests=N)", (unsigned long long)p->queue_depth,
				    (unsigned long long)rs_limits()->queued_requests);
	}
	struct hba *a = calloc(1, sizeof(*a));
	RS_ASSERT(a != NULL);
	dev->priv = a;
	a->p = *p;
	rs_time_t now = rs_now(sim);
	rs_ioq_init(&a->q, (uint32_t)p->queue_depth, &rs_ioq_fifo, NULL);
	a->has_fw = p->iops > 0;
	a->fw_ns = a->has_fw ? rs_ns_from_double(1e9 / p->iops) : 0;
	rs_server_init(&a->fw, dev->name, 1, now);
	a->has_link = p->bandwidth > 0;
	struct rs_link_params lp = { a->has_link ? p->bandwidth : 1, 0, 0, true };
	rs_link_init(&a->link, dev->name, &lp, now);
	return rs_stage_build_inner(b, dev, node, p->device, d);
}

static void hba_restart(struct rs_dev *dev, rs_time_t now)
{
	struct hba *a = dev->priv;
	rs_server_restart_stats(&a->fw, now);
	rs_link_restart_stats(&a->link, now);
}

static void hba_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct hba *a = dev->priv;
	double u = a->has_fw ? rs_server_utilisation(&a->fw, now) : 0;
	for (int dir = 0; a->has_link && dir < 2; dir++) {
		double l = rs_link_utilisation(&a->link, (enum rs_dir)dir, now);
		if (l > u)
			u = l;
	}
	r->utilisation = u;
}

static void hba_destroy(struct rs_dev *dev)
{
	free(dev->priv);
	dev->priv = NULL;
}

const struct rs_dev_type rs_dev_hba = {
	.name = "hba",
	.help = "host bus adapter in front of a device: IOPS and bandwidth ceilings, "
		"per-command latency, queue depth",
	.opts = hba_opts,
	.params_size = sizeof(struct hba_params),
	.init = hba_init,
	.submit = hba_submit,
	.restart_stats = hba_restart,
	.report = hba_report,
	.destroy = hba_destroy,
};
