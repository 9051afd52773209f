#include "load/load.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config/limits.h"
#include "kernel/assert.h"

/* The window ends at the scenario's `count`: there is one, within the cap
 * `requests`.  Otherwise the cap ends it, as a failure. */
static bool ends_at_count(const struct rs_load *load)
{
	return load->max_ops && load->max_ops <= rs_limits()->requests;
}

/* Empty the statistics, and with them the count toward max_ops (or the
 * cap). */
static void stats_reset(struct rs_load *load, rs_time_t now)
{
	rs_iostat_reset(&load->stats, now);
	load->ops_to_go = ends_at_count(load) ? load->max_ops : rs_limits()->requests;
}

static void window_open(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	/* The workload may have finished during the ramp (a short trace). */
	if (load->stopped)
		return;
	load->measuring = true;
	load->measuring_plain = load->request_log == NULL;
	stats_reset(load, sim->now);
	rs_dev_restart_stats(load->target, sim->now);
}

static void window_close(struct rs_sim *sim, struct rs_load *load)
{
	if (load->stopped)
		return;
	load->measuring = false;
	load->measuring_plain = false;
	load->stopped = true;
	load->t_measure_end = sim->now;
	rs_iostat_summarize(&load->stats, sim->now, &load->summary);
	rs_dev_report(load->target, sim->now, &load->target_report);
	if (load->components)
		rs_dev_components(load->target, sim->now, load->components);
}

static void window_end(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	load->priv_close_ev = RS_NO_EVENT;
	window_close(sim, load);
}

bool rs_load_account_measured(struct rs_sim *sim, struct rs_load *load, const struct rs_io *io)
{
	if (io->op != RS_FLUSH) {
		rs_iostat_record(&load->stats, io->op == RS_WRITE, rs_io_bytes(io),
				 io->t_done - io->t_submit, io->status);
	} else if (io->status != 0) {
		load->stats.errors++;
	} else {
		load->flushes++;
		load->flush_lat_ns += (uint64_t)(io->t_done - io->t_submit);
	}
	if (load->request_log) {
		fprintf(load->request_log, "%.9f,%s,%llu,%u,%.9f,%d",
			(double)io->t_submit / 1e9, rs_op_name(io->op),
			(unsigned long long)io->lba, io->nblk,
			(double)(io->t_done - io->t_submit) / 1e9, io->status);
		if (load->log_extra)
			load->log_extra(load, io, load->request_log);
		fputc('\n', load->request_log);
	}
	/* Everything but a flush that succeeded counts toward max_ops. */
	if ((io->op != RS_FLUSH || io->status != 0) && --load->ops_to_go == 0)
		rs_load_count_reached(sim, load);
	return !load->stopped;
}

void rs_load_count_reached(struct rs_sim *sim, struct rs_load *load)
{
	if (ends_at_count(load))
		rs_load_finish(sim, load);
	else
		rs_load_too_many(sim, load);
}

void rs_load_too_many(struct rs_sim *sim, struct rs_load *load)
{
	/* Stop issuing too: the run ends after this event either way. */
	load->stopped = true;
	rs_sim_fail(sim, "more than %llu requests %s at %.6f s of simulated time (cap "
		    "requests=%llu; raise it with --limit requests=N, or shorten the run)",
		    (unsigned long long)rs_limits()->requests,
		    load->measuring ? "measured" : "completed before or after the measured window",
		    (double)(sim->now - load->t0) / 1e9,
		    (unsigned long long)rs_limits()->requests);
}

void rs_load_finish(struct rs_sim *sim, struct rs_load *load)
{
	rs_cancel(sim, load->priv_close_ev);
	load->priv_close_ev = RS_NO_EVENT;
	window_close(sim, load);
}

/* Arrivals that outrun the device grow the queues without bound (memory
 * grows with simulated time).  What is counted is every request alive in
 * the sim, the devices' own (a RAID5 write's reads and writes) included,
 * so the cap bounds memory whatever the stack: about 200 bytes a request.
 * Stop there with the figures that tell the user what happened. */
void rs_load_overloaded(struct rs_sim *sim, struct rs_load *load)
{
	rs_sim_fail(sim, "overloaded: %llu requests queued (%llu issued by the workload and "
		    "not completed, %llu completed) at %.6f s of simulated time: the workload "
		    "issues faster than the device completes (cap queued_requests=%llu; raise "
		    "it with --limit queued_requests=N)",
		    (unsigned long long)sim->ios.live, (unsigned long long)load->in_flight,
		    (unsigned long long)load->target->completed,
		    (double)(sim->now - load->t0) / 1e9,
		    (unsigned long long)rs_limits()->queued_requests);
}

size_t rs_load_add_figure(struct rs_load *load, const char *name)
{
	RS_ASSERT(load->nfigures < RS_LOAD_MAX_FIGURES);
	load->figures[load->nfigures] = (struct rs_load_figure){ name, 0 };
	return load->nfigures++;
}

void rs_load_report_flushes(struct rs_load *load)
{
	if (load->flush_figures)
		return;
	load->flush_figures = true;
	load->flush_fig = rs_load_add_figure(load, "flush_iops");
	rs_load_add_figure(load, "flush_lat_ms");
}

static rs_time_t add_saturated(rs_time_t a, rs_time_t b)
{
	return a > RS_TIME_MAX - b ? RS_TIME_MAX : a + b;
}

rs_time_t rs_load_window_end(const struct rs_load *load)
{
	return add_saturated(add_saturated(load->t0, load->ramp_ns), load->run_ns);
}

int rs_load_run(struct rs_sim *sim, struct rs_load *load)
{
	load->t0 = sim->now;
	stats_reset(load, sim->now);
	load->unmeasured_to_go = rs_limits()->requests;
	if (load->ramp_ns > 0)
		rs_sched_at(sim, add_saturated(sim->now, load->ramp_ns), window_open, load, NULL);
	else
		window_open(sim, load, NULL);
	load->priv_close_ev = rs_sched_at(sim, rs_load_window_end(load), window_end, load, NULL);
	load->type->start(sim, load);
	rs_sim_run(sim, RS_TIME_MAX);
	if (sim->failed)
		return -1;
	/* Everything drained: the window must have closed and nothing may be
	 * left in flight. */
	RS_ASSERT(load->stopped);
	RS_ASSERT(load->in_flight == 0);
	if (load->figures_fill)
		load->figures_fill(load);
	if (load->flush_figures) {
		double secs = load->summary.seconds;
		load->figures[load->flush_fig].value = secs > 0 ? (double)load->flushes / secs : 0;
		load->figures[load->flush_fig + 1].value =
			load->flushes ? (double)load->flush_lat_ns / (double)load->flushes / 1e6 : 0;
	}
	return 0;
}

struct rs_load *rs_load_build(struct rs_sim *sim, const struct rs_node *section,
			      struct rs_dev *target, struct rs_diag *d)
{
	return rs_load_build_with_models(sim, section, target, NULL, d);
}

struct rs_load *rs_load_build_with_models(struct rs_sim *sim, const struct rs_node *section,
					  struct rs_dev *target,
					  const struct rs_model_path *models, struct rs_diag *d)
{
	if (section->kind != RS_NODE_MAP) {
		rs_diag_node(d, section, "expected a mapping for 'workload'");
		return NULL;
	}
	if (section->len != 1) {
		const struct rs_node *at = section->len ? section->keys[1] : section;
		rs_diag_node(d, at, "'workload' takes exactly one workload type, e.g. 'iometer:'");
		return NULL;
	}
	const struct rs_node *key = section->keys[0];
	const struct rs_node *body = section->items[0];
	const struct rs_load_type *type = rs_load_type_find(key->str);
	if (!type) {
		const char *names[32];
		size_t n = rs_load_type_count();
		for (size_t i = 0; i < n && i < 32; i++)
			names[i] = rs_load_type_at(i)->name;
		const char *near = rs_closest_name(key->str, names, n);
		if (near)
			rs_diag_node(d, key, "unknown workload type '%s' (did you mean '%s'?)",
				     key->str, near);
		else
			rs_diag_node(d, key, "unknown workload type '%s'", key->str);
		return NULL;
	}
	bool file_only = type->takes_file && body->kind == RS_NODE_SCALAR;
	if (body->kind != RS_NODE_MAP && !file_only) {
		rs_diag_node(d, body, "expected a mapping for 'workload.%s'%s", type->name,
			     type->takes_file ? " or a file name" : "");
		return NULL;
	}
	struct rs_load *load = calloc(1, sizeof(*load));
	RS_ASSERT(load != NULL);
	load->type = type;
	load->target = target;
	load->models = models;
	load->params = calloc(1, type->params_size);
	RS_ASSERT(load->params != NULL);
	char ctx[64];
	snprintf(ctx, sizeof(ctx), "workload.%s", type->name);
	if ((!file_only && rs_schema_bind(type->opts, body, load->params, key, ctx, NULL, d) != 0) ||
	    type->init(sim, load, load->params, body, d) != 0) {
		rs_load_destroy(load);
		return NULL;
	}
	return load;
}

void rs_load_destroy(struct rs_load *load)
{
	if (!load)
		return;
	if (load->type && load->type->destroy)
		load->type->destroy(load);
	free(load->params);
	free(load);
}

void rs_load_common_apply(struct rs_load *load, const struct rs_load_common *c)
{
	load->ramp_ns = c->ramp_ns;
	load->run_ns = c->run_ns;
	load->max_ops = c->max_ops;
}

void rs_load_log_header(const struct rs_load *load, FILE *out)
{
	fprintf(out, "issue_s,op,block,blocks,response_s,status%s\n",
		load->log_extra_header ? load->log_extra_header : "");
}

int rs_load_check_slots(struct rs_diag *d, const char *file, int line, int col,
			uint64_t slots, const char *what)
{
	uint64_t cap = rs_limits()->queued_requests;
	if (slots <= cap)
		return 0;
	return rs_diag_at(d, file, line, col, "%s keep %llu requests in flight, more than the "
			  "cap queued_requests=%llu (raise it with --limit queued_requests=N)",
			  what, (unsigned long long)slots, (unsigned long long)cap);
}

int rs_load_check_sectors(const struct rs_node *node, const char *key, uint64_t bytes,
			  struct rs_diag *d)
{
	if (bytes % RS_BLOCK_BYTES)
		return rs_diag_node(d, rs_node_get_or(node, key),
				    "'%s' must be a multiple of 512 bytes, got %llu", key,
				    (unsigned long long)bytes);
	return 0;
}

double rs_load_figure_value(const struct rs_load *load, const char *name)
{
	for (size_t i = 0; i < load->nfigures; i++)
		if (strcmp(load->figures[i].name, name) == 0)
			return load->figures[i].value;
	return NAN;
}
