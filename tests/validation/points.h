/* A study's experiments as its scenario files define them (header-only,
 * like validation.h).
 *
 * vd_scenario() loads scenarios/STUDY/FILE through the real scenario loader
 * (run/scenario.h) with assignments applied exactly as `raidsim run --set
 * PATH=VALUE` applies them -- the sweep axes a point needs pinned, the
 * variant's values set, `seed` set last -- and runs the one point that is
 * left.  So the validation programs measure what the scenarios say and a
 * change to a scenario file shows in the verdicts; nothing is written out
 * a second time here.
 *
 * The scenario folder is $RS_VALIDATION_SCENARIOS when set (a test points
 * it at a changed copy), else $top_srcdir/scenarios, else ./scenarios.
 * Results are kept for the life of the process (the programs run their
 * tests in one process), so a point several findings share runs once per
 * seed. */
#ifndef RS_TESTS_VALIDATION_POINTS_H
#define RS_TESTS_VALIDATION_POINTS_H

#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "run/scenario.h"
#include "run/series.h"
#include "stats/iostat.h"
#define TU_WANT_SCENARIO
#include "../unit/testutil.h"

/* The folder holding the studies' scenario folders. */
static inline const char *vd_scenarios_dir(void)
{
	static char dir[4096];
	const char *env = getenv("RS_VALIDATION_SCENARIOS");
	const char *top = getenv("top_srcdir");
	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else
		snprintf(dir, sizeof(dir), "%s/scenarios", top ? top : ".");
	return dir;
}

/* The `--set` assignments of one point, printf-formatted one by one. */
#define VD_MAX_SETS 16
struct vd_sets {
	char a[VD_MAX_SETS][192];
	size_t n;
};

static inline void vd_set(struct vd_sets *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void vd_set(struct vd_sets *v, const char *fmt, ...)
{
	ck_assert_uint_lt(v->n, VD_MAX_SETS);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(v->a[v->n], sizeof(v->a[0]), fmt, ap);
	va_end(ap);
	ck_assert_int_lt(n, (int)sizeof(v->a[0]));
	v->n++;
}

/* What one point gave. */
struct vd_point {
	struct rs_iostat_summary s;
	struct rs_load_figure fig[RS_LOAD_MAX_FIGURES];   /* names are literals */
	size_t nfig;
};

static inline double vd_figure(const struct vd_point *p, const char *name)
{
	for (size_t i = 0; i < p->nfig; i++)
		if (strcmp(p->fig[i].name, name) == 0)
			return p->fig[i].value;
	ck_abort_msg("the point has no figure '%s'", name);
	return 0;
}

/* Load STUDY/FILE with the assignments and `seed`, which must leave one
 * point (a validation point pins every sweep axis it depends on). */
static inline void vd_scenario_load(struct rs_scenario *sc, struct rs_model_path *mp,
				    char *path, size_t pathn, const char *file, uint64_t seed,
				    const struct vd_sets *v)
{
	struct rs_diag d;
	rs_diag_init(&d);
	snprintf(path, pathn, "%s/%s", vd_scenarios_dir(), file);
	tu_model_path(mp, &d);
	struct rs_assignment sets[VD_MAX_SETS + 1];
	size_t n = 0;
	char seed_arg[64];
	snprintf(seed_arg, sizeof(seed_arg), "seed=%llu", (unsigned long long)seed);
	for (size_t i = 0; i <= (v ? v->n : 0); i++) {
		const char *arg = v && i < v->n ? v->a[i] : seed_arg;
		if (rs_node_parse_assignment(arg, &sets[n].path, &sets[n].value, &d) != 0) {
			rs_diag_print(&d, stderr);
			ck_abort_msg("bad assignment '%s'", arg);
		}
		n++;
	}
	int rc = rs_scenario_load(sc, path, sets, n, mp, &d);
	for (size_t i = 0; i < n; i++) {
		free(sets[i].path);
		rs_node_free(sets[i].value);
	}
	if (rc != 0)
		rs_diag_print(&d, stderr);
	ck_assert_msg(rc == 0, "%s does not load with the validation's assignments", path);
	ck_assert_msg(sc->npoints == 1, "%s: %zu points left; pin every sweep axis", path,
		      sc->npoints);
}

/* ---- the memo: key (file, assignments, seed) -> point ------------------- */

#define VD_MEMO_SLOTS 32768u      /* power of two; well above any study's points x seeds */
static struct {
	char *key;
	struct vd_point p;
} vd_memo[VD_MEMO_SLOTS];
static size_t vd_memo_used;

static inline uint32_t vd_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static inline void vd_key(char *key, size_t n, const char *file, uint64_t seed,
			  const struct vd_sets *v)
{
	int used = snprintf(key, n, "%s|%llu", file, (unsigned long long)seed);
	for (size_t i = 0; v && i < v->n && used > 0 && (size_t)used < n; i++)
		used += snprintf(key + used, n - (size_t)used, "|%s", v->a[i]);
	ck_assert_msg(used > 0 && (size_t)used < n, "memo key too long");
}

/* One point of STUDY/FILE (e.g. "tx4000/database.yaml") at `seed` with the
 * assignments; the result stays valid for the life of the process. */
static inline const struct vd_point *vd_scenario(const char *file, uint64_t seed,
						 const struct vd_sets *v)
{
	char key[VD_MAX_SETS * 200];
	vd_key(key, sizeof(key), file, seed, v);
	uint32_t slot = vd_hash(key) & (VD_MEMO_SLOTS - 1);
	while (vd_memo[slot].key) {
		if (strcmp(vd_memo[slot].key, key) == 0)
			return &vd_memo[slot].p;
		slot = (slot + 1) & (VD_MEMO_SLOTS - 1);
	}
	ck_assert_msg(vd_memo_used < VD_MEMO_SLOTS / 2, "validation memo full");

	struct rs_scenario sc;
	struct rs_model_path mp;
	char path[4300];
	vd_scenario_load(&sc, &mp, path, sizeof(path), file, seed, v);
	struct rs_point_result r;
	struct rs_diag d;
	rs_diag_init(&d);
	int rc = rs_scenario_run_point(&sc, 0, false, NULL, &r, &d);
	if (rc != 0)
		rs_diag_print(&d, stderr);
	ck_assert_msg(rc == 0, "%s: the point did not run", path);
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);

	struct vd_point *p = &vd_memo[slot].p;
	p->s = r.s;
	p->nfig = r.nfigures;
	memcpy(p->fig, r.figures, sizeof(p->fig));
	if (!r.figures_only)
		ck_assert_uint_gt(p->s.ops, 0);
	vd_memo[slot].key = strdup(key);
	ck_assert_ptr_nonnull(vd_memo[slot].key);
	vd_memo_used++;
	return p;
}

/* The point run with its scenario's `output: {timeseries: ...}` sampling
 * into ts (the caller frees it with rs_ts_free).  Not memoised. */
static inline struct rs_iostat_summary vd_scenario_series(const char *file, uint64_t seed,
							  const struct vd_sets *v,
							  struct rs_timeseries *ts)
{
	struct rs_scenario sc;
	struct rs_model_path mp;
	char path[4300];
	vd_scenario_load(&sc, &mp, path, sizeof(path), file, seed, v);
	ck_assert_msg(sc.series_ns > 0, "%s: no output.timeseries", path);
	struct rs_point_result r;
	struct rs_diag d;
	rs_diag_init(&d);
	int rc = rs_scenario_run_point_series(&sc, 0, 0, NULL, ts, &r, &d);
	if (rc != 0)
		rs_diag_print(&d, stderr);
	ck_assert_msg(rc == 0, "%s: the point did not run", path);
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
	return r.s;
}

#endif
