/* Helpers shared by the unit tests (header-only: each check_* program is
 * one translation unit plus librs).
 *
 * The conservation check is the invariant every run must end with.  The
 * scenario runner (define TU_WANT_SCENARIO before including) builds
 * `device:` and `workload:` from YAML text the way the real front end does,
 * models from the source tree included, so a test exercises the same path
 * as a user's scenario file: tu_point_run() for a whole run, its steps
 * (open, device, workload, go) for tests that build a part their own way,
 * look at a part before the run or expect a bad section to be refused, and
 * tu_run() for just the figures. */
#ifndef RS_TESTS_TESTUTIL_H
#define RS_TESTS_TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
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
	ck_assert_uint_eq(rs_sim_events_out(sim), 0);
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
#include "tree/tree.h"

/* ---- one point: a scenario built and run ------------------------------- */

/* As a seed: the scenario's top-level `seed:`, 1 when it has none. */
#define TU_SEED_FROM_TEXT UINT64_MAX

/* $top_srcdir/models (when set: make check exports it), then the default
 * model path, so a test finds the source tree's models before installed
 * ones. */
static inline void tu_model_path(struct rs_model_path *mp, struct rs_diag *d)
{
	rs_model_path_init(mp);
	const char *top = getenv("top_srcdir");
	if (top) {
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/models", top);
		ck_assert_int_eq(rs_model_path_add(mp, dir, d), 0);
	}
	rs_model_path_add_defaults(mp);
}

/* Everything one scenario built, for the test to read before
 * tu_point_free().  The request log is captured only after tu_point_log(). */
struct tu_point {
	struct rs_diag d;
	struct rs_model_path mp;
	struct rs_build b;
	struct rs_node *root;
	struct rs_sim *sim;
	struct rs_dev *dev;
	struct rs_load *load;
	FILE *logf;
	char *log;
	size_t log_len;
};

/* A build step that gave nothing fails the test, with the diagnostic. */
static inline void tu_point_need(const struct tu_point *p, const void *built)
{
	if (!built)
		rs_diag_print(&p->d, stderr);
	ck_assert_ptr_nonnull(built);
}

/* A top-level section the scenario must have (the builders take no NULL). */
static inline const struct rs_node *tu_point_section(const struct tu_point *p, const char *key)
{
	const struct rs_node *n = rs_node_get(p->root, key);
	ck_assert_msg(n != NULL, "the scenario has no '%s:' section", key);
	return n;
}

/* Parse the YAML text (diagnostics name it `file`), find the models and
 * start a sim with `seed` (or TU_SEED_FROM_TEXT), ready for the device. */
static inline void tu_point_open(struct tu_point *p, const char *file, const char *text,
				 size_t n, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	rs_diag_init(&p->d);
	p->root = rs_yaml_load_string(file, text, n, &p->d);
	tu_point_need(p, p->root);
	tu_model_path(&p->mp, &p->d);
	if (seed == TU_SEED_FROM_TEXT) {
		const struct rs_node *sn = rs_node_get(p->root, "seed");
		seed = sn ? strtoull(sn->str, NULL, 10) : 1;
	}
	p->sim = rs_sim_new(seed);
	p->b = (struct rs_build){ .sim = p->sim, .types = rs_tree_types(), .models = &p->mp,
				  .diag = &p->d };
}

/* tu_point_open() with the text printf-formatted. */
static inline void tu_point_vopen(struct tu_point *p, const char *file, uint64_t seed,
				  const char *fmt, va_list ap)
{
	char text[4096];
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	ck_assert_int_ge(n, 0);
	ck_assert_int_lt(n, (int)sizeof(text));
	tu_point_open(p, file, text, (size_t)n, seed);
}

/* `device:`, named `dev_name`; the test fails when it does not build. */
static inline void tu_point_device(struct tu_point *p, const char *dev_name)
{
	p->dev = rs_dev_build(&p->b, tu_point_section(p, "device"), "device", dev_name);
	tu_point_need(p, p->dev);
}

/* `workload:` on the device: 0, or -1 with p->d saying why (tests of bad
 * sections look at it). */
static inline int tu_point_workload(struct tu_point *p)
{
	p->load = rs_load_build(p->sim, tu_point_section(p, "workload"), p->dev, &p->d);
	return p->load ? 0 : -1;
}

/* Open, device and workload: 0, or -1 when the workload did not build. */
static inline int tu_point_build(struct tu_point *p, const char *file, const char *text, size_t n,
				 const char *dev_name, uint64_t seed)
{
	tu_point_open(p, file, text, n, seed);
	tu_point_device(p, dev_name);
	return tu_point_workload(p);
}

static inline int tu_point_vbuild(struct tu_point *p, const char *file, const char *dev_name,
				  uint64_t seed, const char *fmt, va_list ap)
{
	tu_point_vopen(p, file, seed, fmt, ap);
	tu_point_device(p, dev_name);
	return tu_point_workload(p);
}

/* tu_point_vbuild() of instance "device" with the text printf-formatted
 * (diagnostics name it `file`; `seed:` honoured).  0, or -1 with p->d set. */
static inline int tu_point_buildf(struct tu_point *p, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int tu_point_buildf(struct tu_point *p, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = tu_point_vbuild(p, file, "device", TU_SEED_FROM_TEXT, fmt, ap);
	va_end(ap);
	return rc;
}

#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L
/* Capture the workload's request log in memory (p->log after the run). */
static inline void tu_point_log(struct tu_point *p)
{
	p->logf = open_memstream(&p->log, &p->log_len);
	ck_assert_ptr_nonnull(p->logf);
	p->load->request_log = p->logf;
}
#endif

/* Run to the end, then the invariants every run ends with: conservation,
 * nothing left in flight, the device completed all it was given. */
static inline void tu_point_go(struct tu_point *p)
{
	rs_load_run(p->sim, p->load);
	tu_check_conservation(p->sim);
	ck_assert_uint_eq(p->load->in_flight, 0);
	ck_assert_uint_eq(p->dev->submitted, p->dev->completed);
	if (p->logf)
		fflush(p->logf);
}

/* Build `device:` (instance `dev_name`) and `workload:` from the YAML text,
 * run to the end and check the invariants; a part that does not build
 * fails the test with its diagnostic. */
static inline void tu_point_run(struct tu_point *p, const char *file, const char *text, size_t n,
				const char *dev_name, uint64_t seed)
{
	tu_point_build(p, file, text, n, dev_name, seed);
	tu_point_need(p, p->load);
	tu_point_go(p);
}

static inline void tu_point_vrun(struct tu_point *p, const char *file, const char *dev_name,
				 uint64_t seed, const char *fmt, va_list ap)
{
	tu_point_vbuild(p, file, dev_name, seed, fmt, ap);
	tu_point_need(p, p->load);
	tu_point_go(p);
}

/* tu_point_run() with the text printf-formatted. */
static inline void tu_point_runf(struct tu_point *p, const char *file, const char *dev_name,
				 uint64_t seed, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static inline void tu_point_runf(struct tu_point *p, const char *file, const char *dev_name,
				 uint64_t seed, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tu_point_vrun(p, file, dev_name, seed, fmt, ap);
	va_end(ap);
}

/* Frees whatever was built (any part may be missing). */
static inline void tu_point_free(struct tu_point *p)
{
	if (p->logf)
		fclose(p->logf);
	free(p->log);
	rs_load_destroy(p->load);
	rs_dev_destroy(p->dev);
	rs_sim_free(p->sim);
	rs_model_path_free(&p->mp);
	rs_node_free(p->root);
	memset(p, 0, sizeof(*p));
}

/* ---- the short form: a run's figures ----------------------------------- */

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
 * printf-formatted), run it to the end, check the invariants and return
 * the results.  `seed:` at the top level is honoured (default 1). */
static inline void tu_run_hook(struct tu_run *out, tu_hook_fn *hook, void *arg,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void tu_run_hook(struct tu_run *out, tu_hook_fn *hook, void *arg,
			       const char *fmt, ...)
{
	struct tu_point p;
	va_list ap;
	va_start(ap, fmt);
	tu_point_vbuild(&p, "test.yaml", "device", TU_SEED_FROM_TEXT, fmt, ap);
	va_end(ap);
	tu_point_need(&p, p.load);
	if (hook)
		hook(p.sim, p.dev, p.load, arg);
	tu_point_go(&p);

	memset(out, 0, sizeof(*out));
	out->s = p.load->summary;
	out->dev = p.load->target_report;
	out->io = *rs_io_counters(p.sim);
	out->events = p.sim->events_fired;
	out->end = rs_now(p.sim);
	tu_point_free(&p);
}

#define tu_run(out, ...) tu_run_hook((out), NULL, NULL, __VA_ARGS__)
/* Build one device from a YAML section given as text (diagnostics name it
 * "bad.yaml"), the way a scenario's `device:` is built.  NULL with d set
 * when it does not build; *root is the caller's to free. */
static inline struct rs_dev *tu_build_text(struct rs_sim *sim, struct rs_model_path *mp,
					   const char *text, const char *name,
					   struct rs_node **root, struct rs_diag *d)
{
	rs_diag_init(d);
	*root = rs_yaml_load_string("bad.yaml", text, strlen(text), d);
	ck_assert_ptr_nonnull(*root);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = mp, .diag = d };
	return rs_dev_build(&b, *root, "device", name);
}

/* A device section that must not build, and the diagnostic it must give:
 * bad.yaml:line:col, with `needle` (when not NULL) in the message.  The
 * diagnostic is printed when it differs, or always with TU_SHOW_DIAG set. */
struct tu_bad_device {
	const char *what;
	const char *text;
	int line, col;
	const char *needle;
};

static inline void tu_expect_bad_device(const struct tu_bad_device *bc, const char *name)
{
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_node *root;
	struct rs_diag d;
	struct rs_dev *dev = tu_build_text(sim, &mp, bc->text, name, &root, &d);
	if (getenv("TU_SHOW_DIAG") || dev || d.line != bc->line || d.col != bc->col ||
	    (bc->needle && !strstr(d.msg, bc->needle)))
		fprintf(stderr, "case '%s': ", bc->what), rs_diag_print(&d, stderr);
	ck_assert_ptr_null(dev);
	ck_assert(d.failed);
	ck_assert_str_eq(d.file, "bad.yaml");
	ck_assert_int_eq(d.line, bc->line);
	ck_assert_int_eq(d.col, bc->col);
	if (bc->needle)
		ck_assert_ptr_nonnull(strstr(d.msg, bc->needle));
	rs_node_free(root);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
}

/* A diagnostic a bad case must give: `msg` in its message and, when line
 * is not 0, file:line:col.  `what` names the case in failure messages. */
static inline void tu_expect_diag(const struct rs_diag *d, int what, const char *msg,
				  const char *file, int line, int col)
{
	ck_assert(d->failed);
	ck_assert_msg(strstr(d->msg, msg), "case %d: '%s' lacks '%s'", what, d->msg, msg);
	if (line) {
		ck_assert_str_eq(d->file, file);
		ck_assert_msg(d->line == line && d->col == col, "case %d: at %d:%d, want %d:%d (%s)",
			      what, d->line, d->col, line, col, d->msg);
	}
}

#endif /* TU_WANT_SCENARIO */

#ifdef TU_WANT_RECORDER
#include "dev/dev.h"

/* ---- recording what a device is asked ----------------------------------
 * tu_rec_attach() wraps a built device's submit so every request it gets
 * is recorded (time, address, length, op) up to `cap`, and the most
 * requests it held at once is kept; tu_rec_detach() restores it. */
struct tu_rec {
	rs_time_t t;
	uint64_t lba;
	uint32_t nblk;
	uint8_t op;
};

static struct {
	struct tu_rec *r;
	size_t n, cap;
	uint64_t max_in_flight;
	const struct rs_dev_type *orig;
	struct rs_dev_type wrapped;
} tu_seen;

static inline void tu_rec_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	ck_assert_uint_lt(tu_seen.n, tu_seen.cap);
	tu_seen.r[tu_seen.n++] = (struct tu_rec){ sim->now, io->lba, io->nblk, (uint8_t)io->op };
	/* rs_dev_submit counted this one already. */
	uint64_t in_flight = dev->submitted - dev->completed;
	if (in_flight > tu_seen.max_in_flight)
		tu_seen.max_in_flight = in_flight;
	tu_seen.orig->submit(sim, dev, io);
}

static inline void tu_rec_attach(struct rs_dev *dev, size_t cap)
{
	free(tu_seen.r);
	memset(&tu_seen, 0, sizeof(tu_seen));
	tu_seen.r = calloc(cap, sizeof(*tu_seen.r));
	ck_assert_ptr_nonnull(tu_seen.r);
	tu_seen.cap = cap;
	tu_seen.orig = dev->type;
	tu_seen.wrapped = *dev->type;
	tu_seen.wrapped.submit = tu_rec_submit;
	dev->type = &tu_seen.wrapped;
}

static inline void tu_rec_detach(struct rs_dev *dev)
{
	dev->type = tu_seen.orig;
	free(tu_seen.r);
	memset(&tu_seen, 0, sizeof(tu_seen));
}
#endif /* TU_WANT_RECORDER */

#endif
