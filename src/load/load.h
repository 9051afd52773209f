/* Workloads: what drives a device and measures it.
 *
 * A workload issues requests to one target device, counts only what
 * completes inside its measuring window (after the ramp-up, before the end
 * of the run), stops issuing at the end and lets the requests in flight
 * drain, so every request still completes exactly once.  Types (iometer,
 * trace replay, file copy, CrystalDiskMark, ATTO) are const tables found by
 * name, the same shape as device types. */
#ifndef RS_LOAD_LOAD_H
#define RS_LOAD_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/limits.h"
#include "config/node.h"
#include "config/schema.h"
#include "dev/dev.h"
#include "kernel/sim.h"
#include "stats/iostat.h"

struct rs_model_path;

struct rs_load;

/* A figure of the workload's own, reported as one more table column
 * (FC-Test's file MB/s, CrystalDiskMark's read and write MB/s...). */
#define RS_LOAD_MAX_FIGURES 8
struct rs_load_figure {
	const char *name;             /* a string literal: outlives the load */
	double value;
};

/* Fields every workload type has: the measuring window. */
struct rs_load_common {
	rs_time_t ramp_ns;
	rs_time_t run_ns;
	uint64_t max_ops;
};
#define RS_LOAD_COMMON_OPTS(type)                                                  \
	{ "ramp", RS_OPT_TIME, offsetof(type, common.ramp_ns), "0s", RS_OPT_HAS_MIN, 0, 0, \
	  NULL, "warm-up before measuring (not counted)" },                        \
	{ "run", RS_OPT_TIME, offsetof(type, common.run_ns), "10s", RS_OPT_POSITIVE, 0, 0,   \
	  NULL, "measured time, in simulated seconds" },                           \
	{ "count", RS_OPT_UINT, offsetof(type, common.max_ops), "0", 0, 0, 0, NULL,        \
	  "end the measurement after this many requests (0 = run time only)" }

struct rs_load_type {
	const char *name;
	const char *help;
	const struct rs_opt *opts;
	size_t params_size;
	int (*init)(struct rs_sim *sim, struct rs_load *load, const void *params,
		    const struct rs_node *node, struct rs_diag *d);
	/* Start issuing at the current time. */
	void (*start)(struct rs_sim *sim, struct rs_load *load);
	void (*destroy)(struct rs_load *load);
	/* `workload: {TYPE: FILE}` is allowed: init then gets the scalar
	 * node itself instead of a mapping bound to `opts`. */
	bool takes_file;
};

struct rs_load {
	const struct rs_load_type *type;
	void *params;
	void *priv;
	struct rs_dev *target;
	/* Where the scenario finds its models, for a workload that builds a
	 * device of its own (a file copier's page cache); NULL: the default
	 * folders only. */
	const struct rs_model_path *models;

	rs_time_t ramp_ns, run_ns;    /* measuring window: [ramp, ramp + run) */
	rs_time_t t0;                 /* when the workload started */
	uint64_t max_ops;             /* stop after this many measured ops; 0 = no limit */
	/* Measured ops and errors (what max_ops counts: stats.ops[RS_ST_ALL]
	 * + stats.errors) still to come before max_ops closes the window, or,
	 * without max_ops or above the cap `requests`, before the cap fails
	 * the run (rs_load_count_reached).  Set with the statistics' reset:
	 * one decrement a request where the sum and the compare were three
	 * loads. */
	uint64_t ops_to_go;
	/* Requests completed outside the window (the ramp, the drain) still
	 * allowed before the cap `requests` stops the run: a file may ask for
	 * a ramp of any length, and the window's count alone would not bound
	 * it.  Decremented only off the window's path. */
	uint64_t unmeasured_to_go;
	bool measuring;               /* inside the window */
	/* measuring, and no request log: rs_load_account's common case,
	 * one test where it was two.  Set and cleared with measuring. */
	bool measuring_plain;
	bool stopped;                 /* window over: issue nothing more */
	rs_time_t t_measure_end;
	uint64_t in_flight;
	struct rs_event_handle priv_close_ev;       /* the scheduled end of the window */

	struct rs_iostat stats;
	struct rs_iostat_summary summary;     /* filled when the window closes */
	struct rs_dev_report target_report;   /* idem */
	/* Optional: the device tree's parts are listed here when the window
	 * closes (dev/dev.h rs_dev_components); NULL = not wanted. */
	struct rs_components *components;
	/* Per-request log (CSV), optional. */
	FILE *request_log;
	/* Optional: append ",column..." to a request's log line (e.g. the
	 * service time a trace measured on the real drive).  NULL = none. */
	void (*log_extra)(const struct rs_load *load, const struct rs_io *io, FILE *out);
	const char *log_extra_header;         /* e.g. ",measured_s" */
	/* Optional: the workload's own figures, one table column each, in
	 * this order.  Names are declared when the workload is built (so a
	 * dry run knows the columns); values are final once rs_load_run
	 * returns, filled by the workload as it ends or by figures_fill,
	 * which rs_load_run calls after the drain (may be NULL). */
	struct rs_load_figure figures[RS_LOAD_MAX_FIGURES];
	size_t nfigures;
	void (*figures_fill)(struct rs_load *load);
	/* The generic columns (IOPS, MB/s, latency over the window) mean
	 * nothing for this workload (a benchmark of several phases, each with
	 * its own score): the table leaves them out and has only the
	 * figures. */
	bool figures_only;
	/* Flushes move no data: they are counted here, apart from the
	 * statistics of reads and writes, and reported as two more figures
	 * (flush_iops, flush_lat_ms) by a workload that declared them with
	 * rs_load_report_flushes. */
	uint64_t flushes;
	uint64_t flush_lat_ns;
	bool flush_figures;
	size_t flush_fig;             /* index of flush_iops; flush_lat_ms follows */
};

/* Declare the next figure (value 0 until filled); returns its index. */
size_t rs_load_add_figure(struct rs_load *load, const char *name);
/* Declare the flush figures: a workload that issues flushes (or may, as a
 * trace holding some) calls it when it is built, so the table has flush
 * columns only then and every other table stays as it was. */
void rs_load_report_flushes(struct rs_load *load);
/* A figure's value by name, or NaN if the workload has no such figure. */
double rs_load_figure_value(const struct rs_load *load, const char *name);

/* Write the per-request log's header line (CSV). */
void rs_load_log_header(const struct rs_load *load, FILE *out);

/* Build from `workload: { TYPE: {...} }`.  NULL on error. */
struct rs_load *rs_load_build(struct rs_sim *sim, const struct rs_node *section,
			      struct rs_dev *target, struct rs_diag *d);
/* The same, with the scenario's model path for models the workload names
 * itself (NULL: the default folders). */
struct rs_load *rs_load_build_with_models(struct rs_sim *sim, const struct rs_node *section,
					  struct rs_dev *target,
					  const struct rs_model_path *models, struct rs_diag *d);
/* Start the workload and run the simulation until it is over and drained.
 * 0, or -1 when the run failed (sim->failure says why: overloaded, time
 * that does not advance); the requests then left in flight are freed with
 * the sim. */
int rs_load_run(struct rs_sim *sim, struct rs_load *load);
/* When the measuring window ends: t0 + ramp + run, held at RS_TIME_MAX
 * when the sum would overflow. */
rs_time_t rs_load_window_end(const struct rs_load *load);
void rs_load_destroy(struct rs_load *load);

/* For workload types: */
/* Close the measuring window now (e.g. a trace has run out): nothing more
 * is issued, requests in flight drain.  Does nothing if already closed. */
void rs_load_finish(struct rs_sim *sim, struct rs_load *load);
/* ops_to_go reached 0: the window closes at the scenario's `count`, or,
 * without one, the run fails at the cap `requests`, which stands in for
 * `count` so that no file can ask for endless work. */
void rs_load_count_reached(struct rs_sim *sim, struct rs_load *load)
	__attribute__((noinline));
/* The cap `requests` passed: the run fails with a message naming it. */
void rs_load_too_many(struct rs_sim *sim, struct rs_load *load)
	__attribute__((noinline, cold));
/* rs_load_account for a request completed inside the window, in full: a
 * flush, an error, the request log, then the count that ends the window. */
bool rs_load_account_measured(struct rs_sim *sim, struct rs_load *load,
			      const struct rs_io *io);
/* Record a completed request (counts it if inside the window) and return
 * whether the workload still wants to issue.  Inline for the common case,
 * a read or write without error and no request log, once a request. */
static inline bool rs_load_account(struct rs_sim *sim, struct rs_load *load,
				   const struct rs_io *io)
{
	/* in_flight > 0 is not asserted here, once a request: each request
	 * completes once (rs_io_complete asserts it), and rs_load_run
	 * asserts that the count is back to 0 at the end, which a completion
	 * counted twice would break. */
	load->in_flight--;
	if (load->measuring_plain && io->op != RS_FLUSH && io->status == 0) {
		rs_iostat_record(&load->stats, io->op == RS_WRITE, rs_io_bytes(io),
				 io->t_done - io->t_submit, 0);
		if (--load->ops_to_go == 0)
			rs_load_count_reached(sim, load);
	} else if (load->measuring) {
		return rs_load_account_measured(sim, load, io);
	} else if (--load->unmeasured_to_go == 0) {
		rs_load_too_many(sim, load);
	}
	return !load->stopped;
}
/* rs_load_issue_ctx's failure when the cap is passed (see there). */
void rs_load_overloaded(struct rs_sim *sim, struct rs_load *load)
	__attribute__((noinline, cold));
/* Issue one request to the target, with the request's done_ctx set to
 * `ctx` (e.g. the issuing thread's state; the done callback then passes
 * the load to rs_load_account itself); the type's done callback must call
 * rs_load_account and then rs_io_free.  More than
 * rs_limits()->queued_requests requests alive in the sim at once (the
 * workload's and the devices' own) fails the run with "overloaded"
 * (rs_sim_fail): the request is still issued, and the run stops after the
 * event being fired.  Inline: it runs once a request, and the call cost
 * more than its few lines. */
static inline struct rs_io *rs_load_issue_ctx(struct rs_sim *sim, struct rs_load *load,
					      enum rs_op op, uint64_t lba, uint32_t nblk,
					      rs_io_done_fn *done, void *ctx)
{
	struct rs_io *io = rs_io_new(sim, op, lba, nblk, done, ctx);
	load->in_flight++;
	if (sim->ios.live > rs_limits()->queued_requests)
		rs_load_overloaded(sim, load);
	rs_dev_submit(sim, load->target, io);
	return io;
}
/* The same with the load as done_ctx. */
static inline struct rs_io *rs_load_issue(struct rs_sim *sim, struct rs_load *load,
					  enum rs_op op, uint64_t lba, uint32_t nblk,
					  rs_io_done_fn *done)
{
	return rs_load_issue_ctx(sim, load, op, lba, nblk, done, load);
}

void rs_load_common_apply(struct rs_load *load, const struct rs_load_common *c);
/* A closed loop keeping `slots` requests in flight from the start: more
 * than the cap queued_requests could only stop as overloaded at time 0, so
 * it is refused where the file asks for it (`what` names what keeps them,
 * e.g. "the jobs (numjobs x iodepth)").  0, or -1 with the diagnostic. */
int rs_load_check_slots(struct rs_diag *d, const char *file, int line, int col,
			uint64_t slots, const char *what);
/* A size given under `key` must be whole sectors (512 B): 0, or -1 with a
 * diagnostic at the key's node (the section's when the key is absent). */
int rs_load_check_sectors(const struct rs_node *node, const char *key, uint64_t bytes,
			  struct rs_diag *d);

const struct rs_load_type *rs_load_type_find(const char *name);
size_t rs_load_type_count(void);
const struct rs_load_type *rs_load_type_at(size_t i);

#endif
