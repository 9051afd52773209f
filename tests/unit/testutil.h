/* Helpers shared by the unit tests (header-only: each check_* program is
 * one translation unit plus librs).
 *
 * The conservation check is the invariant every run must end with; the
 * scenario runner (define TU_WANT_SCENARIO before including) builds an
 * ideal device and an iometer workload from YAML text the way the real
 * front end does, so the queueing tests exercise the same path as a user's
 * scenario file. */
#ifndef RS_TESTS_TESTUTIL_H
#define RS_TESTS_TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "kernel/sim.h"

/* Everything created was completed and freed exactly once, nothing is left
 * scheduled and every pool is back to zero live objects. */
static inline void tu_check_conservation(const struct rs_sim *sim)
{
	const struct rs_io_counters *c = rs_io_counters(sim);
	ck_assert_uint_eq(c->created, c->completed);
	ck_assert_uint_eq(c->completed, c->freed);
	ck_assert_uint_eq(c->bytes_created, c->bytes_completed);
	ck_assert_uint_eq(rs_sim_pending(sim), 0);
	ck_assert_uint_eq(sim->events.live, 0);
	ck_assert_uint_eq(sim->ios.live, 0);
	ck_assert_uint_eq(sim->jobs.live, 0);
}

/* |got - want| <= rel * |want|, with both values in the failure message. */
#define tu_assert_rel(got, want, rel)                                               \
	do {                                                                        \
		double tu_g_ = (double)(got), tu_w_ = (double)(want);               \
		ck_assert_msg(fabs(tu_g_ - tu_w_) <= (rel) * fabs(tu_w_),           \
			      "%s = %.9g, expected %.9g within %.3g%% (off by %.4g%%)", \
			      #got, tu_g_, tu_w_, 100.0 * (rel),                    \
			      tu_w_ != 0 ? 100.0 * (tu_g_ - tu_w_) / tu_w_ : 0.0);  \
	} while (0)

#ifdef TU_WANT_SCENARIO
#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "load/load.h"

/* What one run produced. */
struct tu_run {
	struct rs_iostat_summary s;   /* the workload's measured window */
	struct rs_dev_report dev;
	struct rs_io_counters io;     /* sim-wide counters at the end */
	uint64_t events;
	rs_time_t end;                /* simulated time when everything drained */
};

/* Called with the built sim, device and workload before the run (tests use
 * it to attach a request log or peek at the device). */
typedef void tu_hook_fn(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load,
			void *arg);

/* Build `device:` and `workload:` from the YAML text (a whole scenario,
 * printf-formatted), run it to the end, check conservation and return the
 * results.  `seed:` at the top level is honoured (default 1). */
static inline void tu_run_hook(struct tu_run *out, tu_hook_fn *hook, void *arg,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void tu_run_hook(struct tu_run *out, tu_hook_fn *hook, void *arg,
			       const char *fmt, ...)
{
	char text[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ck_assert_int_lt(n, (int)sizeof(text));

	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *root = rs_yaml_load_string("test.yaml", text, (size_t)n, &d);
	if (!root)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(root);
	uint64_t seed = 1;
	const struct rs_node *sn = rs_node_get(root, "seed");
	if (sn)
		seed = strtoull(sn->str, NULL, 10);
	const struct rs_node *devn = rs_node_get(root, "device");
	const struct rs_node *wln = rs_node_get(root, "workload");
	ck_assert_ptr_nonnull(devn);
	ck_assert_ptr_nonnull(wln);

	struct rs_model_path mp;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(seed);
	struct rs_build b = { .sim = sim, .models = &mp, .diag = &d };
	struct rs_dev *dev = rs_dev_build(&b, devn, "device", "device");
	if (!dev)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(dev);
	struct rs_load *load = rs_load_build(sim, wln, dev, &d);
	if (!load)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(load);
	if (hook)
		hook(sim, dev, load, arg);

	rs_load_run(sim, load);
	tu_check_conservation(sim);
	ck_assert_uint_eq(load->in_flight, 0);
	ck_assert_uint_eq(dev->submitted, dev->completed);

	memset(out, 0, sizeof(*out));
	out->s = load->summary;
	out->dev = load->target_report;
	out->io = *rs_io_counters(sim);
	out->events = sim->events_fired;
	out->end = rs_now(sim);

	rs_load_destroy(load);
	rs_dev_destroy(dev);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
	rs_node_free(root);
}

#define tu_run(out, ...) tu_run_hook((out), NULL, NULL, __VA_ARGS__)
#endif /* TU_WANT_SCENARIO */

#endif
