/* Trace replay: the requests of a recorded trace, issued to one target.
 *
 * format: disksim is open loop, as DiskSim replays its ASCII traces: each
 * request goes out at its recorded arrival time (times `scale`) after the
 * start, whatever the device is doing, so a slow device builds a queue
 * instead of slowing the arrivals down.
 *
 * format: msr, spc and blkparse are open loop too, with times counted from
 * their first request; `disk`, `asu` and `action` pick what to keep, and
 * `fit` what to do with addresses beyond the target.  `scale` is the
 * replay speed for every format (0.5 replays twice as fast).
 *
 * format: validate is closed loop, as DiskSim replays its drive-validation
 * traces: one request at a time, the next issued `gap_us` after the
 * previous one completed.  With a single request outstanding the response
 * time is the device's service time, which is what the trace measured on
 * the real drive; the per-request log writes the two side by side.
 *
 * The whole file is parsed at init (every error reported before the run,
 * at its line and column); replay walks the array without allocating.
 * The measuring window closes when the last request completes, unless
 * `run` or `count` close it earlier. */
#define _POSIX_C_SOURCE 200809L   /* strdup */
#include "load/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "load/trace_parse.h"

#define X(name, str) str,
static const char *const format_names[] = { RS_TRACE_FORMAT_LIST(X) NULL };
static const char *const fit_names[] = { RS_TRACE_FIT_LIST(X) NULL };
#undef X
static const char *const action_names[] = { "D", "Q", "C", NULL };
static const char action_letters[] = "DQC";

struct trace_params {
	struct rs_load_common common;
	const char *file;
	int format;                   /* enum rs_trace_format */
	double scale;
	uint64_t device;              /* used only when present */
	uint64_t disk;                /* msr: used only when present */
	uint64_t asu;                 /* spc: used only when present */
	int action;                   /* blkparse: index in action_names */
	int fit;                      /* enum rs_trace_fit */
	uint64_t repeat;
};

/* Not RS_LOAD_COMMON_OPTS: a trace runs until it ends, so `run` defaults
 * to far longer than any trace (about 11.6 simulated days). */
static const struct rs_opt trace_opts[] = {
	{ "ramp", RS_OPT_TIME, offsetof(struct trace_params, common.ramp_ns), "0s",
	  RS_OPT_HAS_MIN, 0, 0, NULL, "warm-up before measuring (not counted)" },
	{ "run", RS_OPT_TIME, offsetof(struct trace_params, common.run_ns), "1000000s",
	  RS_OPT_POSITIVE, 0, 0, NULL,
	  "measured time, in simulated seconds (default: until the trace ends)" },
	{ "count", RS_OPT_UINT, offsetof(struct trace_params, common.max_ops), "0", 0, 0, 0,
	  NULL, "end the measurement after this many requests (0 = the whole trace)" },
	{ "file", RS_OPT_STR, offsetof(struct trace_params, file), NULL, RS_OPT_REQUIRED, 0, 0,
	  NULL, "trace file, relative to the scenario file's directory" },
	{ "format", RS_OPT_ENUM, offsetof(struct trace_params, format), "disksim", 0, 0, 0,
	  format_names,
	  "disksim (arrival_ms device block size flags; open loop), validate "
	  "(R|W hit|miss block size service_us gap_us; closed loop), msr (MSR Cambridge "
	  "CSV), spc (SPC/UMass CSV) or blkparse (blkparse's text output); the last "
	  "three are open loop from their first request" },
	{ "scale", RS_OPT_DOUBLE, offsetof(struct trace_params, scale), "1", RS_OPT_POSITIVE,
	  0, 0, NULL, "multiply the trace's times (arrivals or gaps) by this factor" },
	{ "device", RS_OPT_UINT, offsetof(struct trace_params, device), "0",
	  RS_OPT_HAS_MAX, 0, 2147483647.0, NULL,
	  "disksim: replay only this device's requests (default: all)" },
	{ "disk", RS_OPT_UINT, offsetof(struct trace_params, disk), "0",
	  RS_OPT_HAS_MAX, 0, 2147483647.0, NULL,
	  "msr: replay only this DiskNumber's requests (default: all)" },
	{ "asu", RS_OPT_UINT, offsetof(struct trace_params, asu), "0",
	  RS_OPT_HAS_MAX, 0, 2147483647.0, NULL,
	  "spc: replay only this ASU's requests (default: all)" },
	{ "action", RS_OPT_ENUM, offsetof(struct trace_params, action), "D", 0, 0, 0,
	  action_names,
	  "blkparse: the event replayed, D (issued to the driver), Q (queued) or C "
	  "(completed)" },
	{ "fit", RS_OPT_ENUM, offsetof(struct trace_params, fit), "error", 0, 0, 0, fit_names,
	  "a request beyond the device: error (refused at its line), wrap (address modulo "
	  "the capacity) or scale (every address times capacity / the trace's highest)" },
	{ "repeat", RS_OPT_UINT, offsetof(struct trace_params, repeat), "1",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 1 << 30, NULL,
	  "replay the trace this many times back to back" },
	RS_OPT_END
};

struct trace {
	struct rs_trace t;
	bool closed;                  /* validate: closed loop */
	uint64_t repeat;
	rs_time_t span;               /* open loop: time from one repetition to the next */

	/* Replay position. */
	size_t next;                  /* next request to issue */
	uint64_t pass;                /* repetition, from 0 */
	rs_time_t pass_t0;            /* open loop: time zero of this repetition */
	bool exhausted;               /* every request has been issued */
	size_t cur;                   /* closed loop: the request in flight */
	rs_time_t end;                /* end of the window: nothing is due after it */
	struct rs_event_handle ev;    /* pending arrival or end of gap */
};

/* Step to the following request, into the next repetition at the end;
 * false once the last request of the last repetition is passed. */
static bool advance(struct trace *tr)
{
	if (++tr->next < tr->t.n)
		return true;
	tr->next = 0;
	tr->pass++;
	tr->pass_t0 += tr->span;
	return tr->pass < tr->repeat;
}

/* Open loop. */

static void open_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	struct trace *tr = load->priv;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (!more) {
		/* Closed by `count`: drop the next arrival rather than let it
		 * hold the clock running. */
		rs_cancel(sim, tr->ev);
		tr->ev = RS_NO_EVENT;
		return;
	}
	if (tr->exhausted && load->in_flight == 0)
		rs_load_finish(sim, load);
}

static void arrive(struct rs_sim *sim, void *obj, void *arg);

static void schedule_arrival(struct rs_sim *sim, struct rs_load *load)
{
	struct trace *tr = load->priv;
	rs_time_t when = tr->pass_t0 + tr->t.req[tr->next].t_ns;
	/* The window end was scheduled first, so at an equal time it fires
	 * first and the arrival would find the workload stopped: a request
	 * due at or after the end is never issued, and is not scheduled. */
	if (when < tr->end)
		tr->ev = rs_sched_at(sim, when, arrive, load, NULL);
}

static void arrive(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	struct trace *tr = load->priv;
	tr->ev = RS_NO_EVENT;
	if (load->stopped)
		return;
	/* Everything due now goes out in file order: one event per instant,
	 * not per request. */
	do {
		const struct rs_trace_req *r = &tr->t.req[tr->next];
		tr->exhausted = !advance(tr);
		rs_load_issue(sim, load, r->op, r->lba, r->nblk, open_done);
	} while (!tr->exhausted && !load->stopped &&
		 tr->pass_t0 + tr->t.req[tr->next].t_ns <= sim->now);
	if (!tr->exhausted && !load->stopped)
		schedule_arrival(sim, load);
}

/* Closed loop. */

static void closed_done(struct rs_sim *sim, struct rs_io *io);

static void closed_issue(struct rs_sim *sim, struct rs_load *load)
{
	struct trace *tr = load->priv;
	tr->cur = tr->next;
	const struct rs_trace_req *r = &tr->t.req[tr->cur];
	tr->exhausted = !advance(tr);
	rs_load_issue(sim, load, r->op, r->lba, r->nblk, closed_done);
}

static void gap_over(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	struct trace *tr = load->priv;
	tr->ev = RS_NO_EVENT;
	if (!load->stopped)
		closed_issue(sim, load);
}

static void closed_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	struct trace *tr = load->priv;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (!more)
		return;
	if (tr->exhausted) {
		rs_load_finish(sim, load);
		return;
	}
	/* The gap follows the request just completed (DiskSim reads it from
	 * the same line); after the last line it leads into the next
	 * repetition, as if the file were concatenated. */
	rs_time_t gap = tr->t.req[tr->cur].t_ns;
	if (gap == 0)
		closed_issue(sim, load);
	else if (gap < tr->end - sim->now)   /* not now + gap: a gap may near 2^63 */
		tr->ev = rs_sched(sim, gap, gap_over, load, NULL);
}

/* Exactly one request is in flight in closed loop, so the one completing
 * is tr->cur: no per-request state needs to ride on the rs_io. */
static void log_measured(const struct rs_load *load, const struct rs_io *io, FILE *out)
{
	const struct trace *tr = load->priv;
	const struct rs_trace_req *r = &tr->t.req[tr->cur];
	RS_ASSERT(io->lba == r->lba && io->nblk == r->nblk);
	fprintf(out, ",%.9f", (double)r->measured_ns / 1e9);
}

static void trace_start(struct rs_sim *sim, struct rs_load *load)
{
	struct trace *tr = load->priv;
	tr->next = 0;
	tr->pass = 0;
	tr->exhausted = false;
	tr->pass_t0 = sim->now;
	rs_time_t end = sim->now;
	end = RS_TIME_MAX - end < load->ramp_ns ? RS_TIME_MAX : end + load->ramp_ns;
	end = RS_TIME_MAX - end < load->run_ns ? RS_TIME_MAX : end + load->run_ns;
	tr->end = end;
	if (tr->closed)
		closed_issue(sim, load);
	else
		schedule_arrival(sim, load);
}

/* `file:` is relative to the directory of the file that wrote it (the
 * scenario), so a scenario and its traces move together.  A value from
 * the command line (file "--set") has no directory: relative to the
 * working directory. */
static char *resolve_path(const struct rs_node *at, const char *file)
{
	const char *base = at ? at->file : NULL;
	const char *slash = base ? strrchr(base, '/') : NULL;
	if (file[0] == '/' || !slash) {
		char *s = strdup(file);
		RS_ASSERT(s != NULL);
		return s;
	}
	size_t dl = (size_t)(slash - base) + 1, fl = strlen(file);
	char *s = malloc(dl + fl + 1);
	RS_ASSERT(s != NULL);
	memcpy(s, base, dl);
	memcpy(s + dl, file, fl + 1);
	return s;
}

static int trace_init(struct rs_sim *sim, struct rs_load *load, const void *params,
		      const struct rs_node *node, struct rs_diag *d)
{
	const struct trace_params *p = params;
	const struct rs_node *file_node = rs_node_get(node, "file");
	const struct rs_node *dev_node = rs_node_get(node, "device");
	const struct rs_node *repeat_node = rs_node_get(node, "repeat");
	const struct rs_node *disk_node = rs_node_get(node, "disk");
	const struct rs_node *asu_node = rs_node_get(node, "asu");
	const struct rs_node *action_node = rs_node_get(node, "action");
	bool closed = p->format == RS_TRACE_VALIDATE;
	if (dev_node && p->format != RS_TRACE_DISKSIM)
		return rs_diag_node(d, dev_node, "'device' applies only to format disksim "
						 "(msr has 'disk', spc has 'asu')");
	if (disk_node && p->format != RS_TRACE_MSR)
		return rs_diag_node(d, disk_node, "'disk' applies only to format msr");
	if (asu_node && p->format != RS_TRACE_SPC)
		return rs_diag_node(d, asu_node, "'asu' applies only to format spc");
	if (action_node && p->format != RS_TRACE_BLKPARSE)
		return rs_diag_node(d, action_node, "'action' applies only to format blkparse");
	if (p->file[0] == '\0')
		return rs_diag_node(d, file_node, "empty trace file name");

	const struct rs_node *filter = dev_node ? dev_node : disk_node ? disk_node : asu_node;
	uint64_t keep = dev_node ? p->device : disk_node ? p->disk : p->asu;
	struct rs_trace_opts o = {
		.format = (enum rs_trace_format)p->format,
		.device = filter ? (int64_t)keep : -1,
		.capacity_blk = load->target->capacity_blk,
		.fit = (enum rs_trace_fit)p->fit,
		.action = action_letters[p->action],
	};
	char *path = resolve_path(file_node, p->file);
	struct rs_trace t;
	int rc = rs_trace_parse_file(path, &o, &t, file_node, d);
	if (rc == 0 && t.n == 0) {
		if (filter)
			rs_diag_node(d, filter, "trace file '%s' holds no requests for %s %llu",
				     path, dev_node ? "device" : disk_node ? "disk" : "ASU",
				     (unsigned long long)keep);
		else
			rs_diag_node(d, file_node, "trace file '%s' holds no requests", path);
		rc = -1;
	}
	free(path);
	if (rc != 0)
		return -1;

	/* Times are scaled once here so replay does integer arithmetic only. */
	if (p->scale != 1.0) {
		for (size_t i = 0; i < t.n; i++) {
			double v = (double)t.req[i].t_ns * p->scale;
			if (v >= 4e18) {
				rs_trace_free(&t);
				return rs_diag_node(d, rs_node_get(node, "scale"),
						    "scaled trace times exceed the simulated "
						    "time range");
			}
			t.req[i].t_ns = (int64_t)llround(v);
		}
	}
	/* Open loop repetitions follow each other by the trace's length plus
	 * its mean inter-arrival time, so the arrival process carries on
	 * without the first request of one repetition landing on the same
	 * instant as the last of the previous one. */
	rs_time_t span = 0;
	if (!closed) {
		rs_time_t first = t.req[0].t_ns, last = t.req[t.n - 1].t_ns;
		rs_time_t mean_gap = t.n > 1 ? (last - first) / (rs_time_t)(t.n - 1) : first;
		span = last + mean_gap;
		if ((double)span * (double)(p->repeat - 1) + (double)last >= 4e18) {
			rs_trace_free(&t);
			return rs_diag_node(d, repeat_node, "%llu repetitions of this trace exceed "
							    "the simulated time range",
					    (unsigned long long)p->repeat);
		}
	}

	struct trace *tr = calloc(1, sizeof(*tr));
	RS_ASSERT(tr != NULL);
	tr->t = t;
	tr->closed = closed;
	tr->repeat = p->repeat;
	tr->span = span;
	load->priv = tr;
	for (size_t i = 0; i < t.n; i++) {
		if (t.req[i].op == RS_FLUSH) {
			rs_load_report_flushes(load);
			break;
		}
	}
	load->log_extra = closed ? log_measured : NULL;
	load->log_extra_header = closed ? ",measured_s" : NULL;
	rs_load_common_apply(load, &p->common);
	return 0;
}

static void trace_destroy(struct rs_load *load)
{
	struct trace *tr = load->priv;
	if (!tr)
		return;
	rs_trace_free(&tr->t);
	free(tr);
	load->priv = NULL;
}

const struct rs_load_type rs_load_trace = {
	.name = "trace",
	.help = "replay a block trace: disksim, msr, spc or blkparse (open loop, at the "
		"recorded arrival times) or validate (closed loop, with the drive's measured "
		"service times)",
	.opts = trace_opts,
	.params_size = sizeof(struct trace_params),
	.init = trace_init,
	.start = trace_start,
	.destroy = trace_destroy,
};
