#include "host/host_stack.h"

#include <stddef.h>
#include <stdlib.h>

#include "dev/server.h"
#include "host/stage.h"
#include "kernel/assert.h"

struct host_params {
	uint64_t cpus;
	rs_time_t submit_ns, complete_ns, interrupt_ns;
	uint64_t coalesce_count;
	rs_time_t coalesce_ns;
	const struct rs_node *device;
};

#define P(f) offsetof(struct host_params, f)

static const struct rs_opt host_opts[] = {
	{ "cpus", RS_OPT_UINT, P(cpus), "1", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 4096, NULL,
	  "CPUs that submit and complete the device's I/O" },
	{ "submit_cost", RS_OPT_TIME, P(submit_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "CPU time per request on its way down (system call, block layer, driver, doorbell)" },
	{ "complete_cost", RS_OPT_TIME, P(complete_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "CPU time per request on its way back (driver, block layer, waking the submitter)" },
	{ "interrupt_cost", RS_OPT_TIME, P(interrupt_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "CPU time per interrupt (entry, handler, exit), shared by the completions it "
	  "delivers" },
	{ "coalesce_count", RS_OPT_UINT, P(coalesce_count), "1",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 256, NULL,
	  "completions that raise an interrupt at once (interrupt coalescing threshold)" },
	{ "coalesce_time", RS_OPT_TIME, P(coalesce_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "longest a completion waits for others before its interrupt (0: none waits, "
	  "whatever coalesce_count says)" },
	{ "device", RS_OPT_NODE, P(device), NULL, 0, 0, 0, NULL,
	  "the device behind the stack (an HBA, a drive, an array...)" },
	RS_OPT_END
};

struct host {
	struct host_params p;
	struct rs_server cpu;
	struct rs_io *batch_head, *batch_tail;  /* completions waiting for their interrupt */
	uint32_t batch_len;
	struct rs_event_handle timer; /* coalesce_time of the batch's first */
	uint64_t interrupts;
};

static void submitted(struct rs_sim *sim, void *obj, void *arg, int status);
static void back_from_device(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);
static const struct rs_stage_back back = { back_from_device };

static void host_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct host *h = dev->priv;
	rs_server_submit(sim, &h->cpu, h->p.submit_ns, submitted, dev, io);
}

static void submitted(struct rs_sim *sim, void *obj, void *arg, int status)
{
	rs_stage_forward(sim, obj, arg, &back);
}

/* The interrupt's handler ran: the batch goes back up, in completion
 * order. */
static void handled(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct rs_dev *dev = obj;
	struct rs_io *io = arg;
	while (io) {
		struct rs_io *next = io->qnext;
		io->qnext = NULL;
		rs_dev_complete(sim, dev, io, io->status);
		io = next;
	}
}

static void interrupt(struct rs_sim *sim, struct rs_dev *dev)
{
	struct host *h = dev->priv;
	if (h->timer.ev) {
		rs_cancel(sim, h->timer);
		h->timer = RS_NO_EVENT;
	}
	rs_time_t cost = h->p.interrupt_ns + (rs_time_t)h->batch_len * h->p.complete_ns;
	struct rs_io *batch = h->batch_head;
	h->batch_head = h->batch_tail = NULL;
	h->batch_len = 0;
	h->interrupts++;
	rs_server_submit(sim, &h->cpu, cost, handled, dev, batch);
}

static void timer_fired(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_dev *dev = obj;
	struct host *h = dev->priv;
	h->timer = RS_NO_EVENT;
	interrupt(sim, dev);
}

static void back_from_device(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct host *h = dev->priv;
	rs_io_fifo_push(&h->batch_head, &h->batch_tail, io);
	h->batch_len++;
	if (h->batch_len >= h->p.coalesce_count || h->p.coalesce_ns == 0) {
		interrupt(sim, dev);
		return;
	}
	if (!h->timer.ev)
		h->timer = rs_sched(sim, h->p.coalesce_ns, timer_fired, dev, NULL);
}

static int host_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		     const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct host_params *p = params;
	struct host *h = calloc(1, sizeof(*h));
	RS_ASSERT(h != NULL);
	dev->priv = h;
	h->p = *p;
	rs_server_init(&h->cpu, dev->name, (uint32_t)p->cpus, rs_now(sim));
	return rs_stage_build_inner(b, dev, node, p->device, d);
}

static void host_restart(struct rs_dev *dev, rs_time_t now)
{
	struct host *h = dev->priv;
	rs_server_restart_stats(&h->cpu, now);
}

static void host_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct host *h = dev->priv;
	r->utilisation = rs_server_utilisation(&h->cpu, now);
}

static void host_destroy(struct rs_dev *dev)
{
	free(dev->priv);
	dev->priv = NULL;
}

uint64_t rs_host_interrupts(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_host);
	return ((const struct host *)dev->priv)->interrupts;
}

const struct rs_dev_type rs_dev_host = {
	.name = "host",
	.help = "host storage stack in front of a device: CPU cost per I/O of block layer and "
		"driver, CPUs serving it, interrupt coalescing",
	.opts = host_opts,
	.params_size = sizeof(struct host_params),
	.init = host_init,
	.submit = host_submit,
	.restart_stats = host_restart,
	.report = host_report,
	.destroy = host_destroy,
};
