#include "run/scenario.h"

#include <stdlib.h>
#include <string.h>

#include "config/limits.h"
#include "dev/build.h"
#include "kernel/assert.h"
#include "net/faults.h"
#include "report/report.h"
#include "run/repeats.h"
#include "run/results.h"
#include "run/series.h"
#include "tree/tree.h"

struct top {
	uint64_t seed;
	const char *description;
	const struct rs_node *device, *workload, *sweep, *output, *faults;
};

static const struct rs_opt top_opts[] = {
	{ .name = "seed", .type = RS_OPT_UINT, .offset = offsetof(struct top, seed),
	  .def = "1",
	  .help = "seed of every random stream" },
	{ .name = "description", .type = RS_OPT_STR,
	  .offset = offsetof(struct top, description),
	  .help = "free text" },
	{ .name = "device", .type = RS_OPT_NODE, .offset = offsetof(struct top, device),
	  .flags = RS_OPT_REQUIRED,
	  .help = "the device under test: {model: NAME, ...} or {type: TYPE, ...}" },
	{ .name = "workload", .type = RS_OPT_NODE, .offset = offsetof(struct top, workload),
	  .flags = RS_OPT_REQUIRED,
	  .help = "the workload: {TYPE: {...}}, TYPE one of iometer, trace, filecopy, cdm, atto" },
	{ .name = "sweep", .type = RS_OPT_NODE, .offset = offsetof(struct top, sweep),
	  .help = "dotted path: [values...]; every combination is one point" },
	{ .name = "output", .type = RS_OPT_NODE, .offset = offsetof(struct top, output),
	  .help = "file names and the plot" },
	{ .name = "faults", .type = RS_OPT_NODE, .offset = offsetof(struct top, faults),
	  .help = "scripted faults of links and array members: [{at: 120s, link: port1, "
	  "state: down}, {at: 60s, member: disk2, state: failed}, ...]" },
	RS_OPT_END
};

struct output {
	const char *name, *x, *series, *y;
	int logx;
	bool requests;
	rs_time_t series_ns;
};
static const char *const logx_names[] = { "auto", "no", "yes", NULL };

static const struct rs_opt output_opts[] = {
	{ .name = "name", .type = RS_OPT_STR, .offset = offsetof(struct output, name),
	  .help = "base name of the table, JSON, gnuplot script and PNG (default: the scenario's)" },
	{ .name = "x", .type = RS_OPT_STR, .offset = offsetof(struct output, x),
	  .help = "plot: column on the x axis (default: the first sweep axis)" },
	{ .name = "series", .type = RS_OPT_STR, .offset = offsetof(struct output, series),
	  .help = "plot: one line per value of this column (default: the second sweep axis)" },
	{ .name = "y", .type = RS_OPT_STR, .offset = offsetof(struct output, y),
	  .help = "plot: the metric on the y axis (default: iops, or the workload's first figure "
	  "when it has only its own columns)" },
	{ .name = "logx", .type = RS_OPT_ENUM, .offset = offsetof(struct output, logx),
	  .def = "auto", .choices = logx_names,
	  .help = "plot: logarithmic x axis (auto: when x spans a factor of 16 or more)" },
	{ .name = "requests", .type = RS_OPT_BOOL, .offset = offsetof(struct output, requests),
	  .def = "false",
	  .help = "also write every measured request to NAME.requests.POINT.csv" },
	{ .name = "timeseries", .type = RS_OPT_TIME,
	  .offset = offsetof(struct output, series_ns), .def = "0s", .flags = RS_OPT_HAS_MIN,
	  .help = "also write per-interval IOPS, MiB/s and errors to NAME.series.POINT.tsv "
	  "(and a gnuplot script); the interval, 0 = none" },
	RS_OPT_END
};

static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	size_t n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".yaml") == 0)
		n -= 5;
	else if (n > 4 && strcmp(b + n - 4, ".yml") == 0)
		n -= 4;
	return strndup(b, n);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static bool pinned(const char *path, const struct rs_assignment *sets, size_t nsets)
{
	for (size_t i = 0; path && i < nsets; i++)
		if (!strcmp(sets[i].path, path))
			return true;
	return false;
}

/* The first sweep axis that is not `taken` (NULL if there is none). */
static const char *first_axis_except(const struct rs_sweep *sw, const char *taken)
{
	for (size_t a = 0; a < sw->naxes; a++)
		if (!taken || strcmp(sw->axes[a].path, taken))
			return sw->axes[a].path;
	return NULL;
}

int rs_scenario_load(struct rs_scenario *sc, const char *path,
		     const struct rs_assignment *sets, size_t nsets,
		     const struct rs_model_path *models, struct rs_diag *d)
{
	return rs_scenario_load_repeat(sc, path, sets, nsets, models, 1, d);
}

/* Every run of every point is one saved result (run/points.h): the runs,
 * not the points, are what the sweep_points cap bounds. */
static int check_runs(const struct rs_scenario *sc, const struct rs_node *sweep,
		      struct rs_diag *d)
{
	uint64_t cap = rs_limits()->sweep_points;
	if (sc->repeat == 1 || (uint64_t)sc->npoints <= cap / sc->repeat)
		return 0;
	return rs_diag_node(d, sweep ? sweep : sc->root,
			    "%zu points run %u times each (--repeat %u) make %llu runs, more "
			    "than the cap sweep_points=%llu (raise it with --limit "
			    "sweep_points=N)", sc->npoints, sc->repeat, sc->repeat,
			    (unsigned long long)sc->npoints * sc->repeat,
			    (unsigned long long)cap);
}

/* The figures point r's device reports join the table's columns, each
 * once, in the order they first appear over the points. */
static void add_dev_cols(struct rs_scenario *sc, const struct rs_dev_report *r)
{
	for (uint32_t k = 0; k < r->nextras; k++) {
		size_t c = 0;
		while (c < sc->ndev_cols && strcmp(sc->dev_cols[c], r->extras[k].name) != 0)
			c++;
		if (c < sc->ndev_cols)
			continue;
		RS_ASSERT(c < RS_SCENARIO_DEV_COLS);
		sc->dev_cols[sc->ndev_cols++] = strdup(r->extras[k].name);
	}
}

int rs_scenario_load_repeat(struct rs_scenario *sc, const char *path,
			    const struct rs_assignment *sets, size_t nsets,
			    const struct rs_model_path *models, unsigned repeat,
			    struct rs_diag *d)
{
	RS_ASSERT(repeat >= 1 && repeat <= RS_REPEAT_MAX);
	memset(sc, 0, sizeof(*sc));
	sc->repeat = repeat;
	sc->path = path;
	sc->models = models;
	sc->name = base_name(path);
	sc->root = rs_yaml_load_file(path, d);
	if (!sc->root)
		return -1;
	if (sc->root->kind != RS_NODE_MAP)
		return rs_diag_node(d, sc->root, "expected a mapping at the top of a scenario");

	for (size_t i = 0; i < nsets; i++) {
		if (rs_node_set_path(sc->root, sets[i].path, rs_node_clone(sets[i].value),
				     sets[i].value, d) != 0)
			return -1;
		/* A value pinned on the command line wins over a sweep of it. */
		struct rs_node *sweep = rs_node_get(sc->root, "sweep");
		if (sweep && sweep->kind == RS_NODE_MAP)
			rs_node_remove(sweep, sets[i].path);
	}

	struct top top;
	if (rs_schema_bind(top_opts, sc->root, &top, sc->root, "scenario", NULL, d) != 0)
		return -1;
	if (top.sweep) {
		if (rs_sweep_parse(top.sweep, &sc->sweep, d) != 0)
			return -1;
	}
	sc->npoints = top.sweep ? rs_sweep_points(&sc->sweep) : 1;
	if (sc->npoints == 0)
		return rs_diag_node(d, top.sweep, "the sweep has no points");
	if (check_runs(sc, top.sweep, d) != 0)
		return -1;

	struct output out;
	if (top.output && top.output->kind != RS_NODE_MAP)
		return rs_diag_node(d, top.output, "expected a mapping for 'output'");
	if (rs_schema_bind(output_opts, top.output, &out, sc->root, "output", NULL, d) != 0)
		return -1;
	/* The name ends up in file names, gnuplot scripts and shells: a name
	 * someone chose must be plain; one taken from the scenario's file
	 * name (which nobody chose for that) is made plain. */
	if (out.name) {
		char why[512];
		if (rs_out_name_check(out.name, why, sizeof(why)) != 0)
			return rs_diag_node(d, rs_node_get(top.output, "name"), "'name' %s", why);
		sc->out_name = strdup(out.name);
	} else {
		sc->out_name = strdup(sc->name[0] ? sc->name : "scenario");
		rs_out_name_fit(sc->out_name);
	}
	RS_ASSERT(sc->out_name != NULL);
	/* An axis pinned by --set has no column any more: the plot moves on
	 * to the axes that remain instead of naming a column that is gone. */
	const char *x = pinned(out.x, sets, nsets) ? NULL : out.x;
	const char *series = pinned(out.series, sets, nsets) ? NULL : out.series;
	if (!x)
		x = first_axis_except(&sc->sweep, series);
	if (!out.series)
		series = first_axis_except(&sc->sweep, x);
	sc->plot_x = dup_or_null(x);
	sc->plot_series = dup_or_null(series);
	sc->plot_logx = out.logx - 1;
	sc->request_log = out.requests;
	sc->series_ns = out.series_ns;

	/* Check every point before running any, so a bad value anywhere in a
	 * sweep stops the run before a single result is written. */
	for (size_t i = 0; i < sc->npoints; i++) {
		struct rs_point_result r;
		if (rs_scenario_run_point(sc, i, true, NULL, &r, d) != 0)
			return -1;
		if (i == 0) {
			for (size_t f = 0; f < r.nfigures; f++)
				sc->figure_cols[f] = strdup(r.figures[f].name);
			sc->nfigure_cols = r.nfigures;
			sc->figures_only = r.figures_only && r.nfigures > 0;
		}
		add_dev_cols(sc, &r.dev);
	}
	sc->plot_y = strdup(out.y ? out.y : sc->figures_only ? sc->figure_cols[0] : "iops");

	/* A plot naming a column the table will not have would fail only
	 * after the whole sweep has run: check its columns now. */
	static const char *const keys[] = { "x", "series", "y" };
	const char *cols[] = { sc->plot_x, sc->plot_series, sc->plot_y };
	for (size_t k = 0; k < 3; k++) {
		if (!cols[k] || rs_results_has_column(sc, cols[k]))
			continue;
		const char *result = sc->figures_only ? sc->figure_cols[0] : "iops";
		const char *axis = k < 2 && sc->sweep.naxes > 0 ? sc->sweep.axes[0].path : NULL;
		return rs_diag_node(d, rs_node_get(top.output, keys[k]),
				    "output '%s': no column '%s' in the table (expected a sweep axis "
				    "or a result column, e.g. %s%s%s'%s')", keys[k], cols[k],
				    axis ? "'" : "", axis ? axis : "", axis ? "' or " : "", result);
	}
	return 0;
}

void rs_scenario_free(struct rs_scenario *sc)
{
	rs_node_free(sc->root);
	rs_sweep_free(&sc->sweep);
	free(sc->name);
	free(sc->out_name);
	free(sc->plot_x);
	free(sc->plot_series);
	free(sc->plot_y);
	for (size_t f = 0; f < sc->nfigure_cols; f++)
		free(sc->figure_cols[f]);
	for (size_t c = 0; c < sc->ndev_cols; c++)
		free(sc->dev_cols[c]);
	memset(sc, 0, sizeof(*sc));
}

static void check_conservation(const struct rs_sim *sim)
{
	const struct rs_io_counters *c = &sim->io_counters;
	RS_ASSERT(c->created == c->completed);
	RS_ASSERT(c->completed == c->freed);
	RS_ASSERT(c->bytes_created == c->bytes_completed);
	RS_ASSERT(rs_sim_pending(sim) == 0);
	RS_ASSERT(sim->ios.live == 0);
	RS_ASSERT(sim->jobs.live == 0);
}

static void copy_figures(const struct rs_load *load, struct rs_point_result *r)
{
	memcpy(r->figures, load->figures, sizeof(r->figures));
	r->nfigures = load->nfigures;
	r->figures_only = load->figures_only;
}

static int run_point(const struct rs_scenario *sc, size_t index, unsigned rep, bool dry,
		     FILE *request_log, struct rs_timeseries *series, struct rs_point_result *r,
		     struct rs_diag *d);

/* The run length a time series covers: the workload's ramp and run. */
static rs_time_t series_horizon(const struct rs_load *load)
{
	return rs_load_window_end(load) - load->t0;
}

/* One bucket per interval is allocated before the run and one event fires
 * per interval, so the interval count is capped like any other work. */
static int check_series_intervals(const struct rs_scenario *sc, const struct rs_load *load,
				  const struct rs_node *output, struct rs_diag *d)
{
	uint64_t n = rs_ts_intervals(sc->series_ns, series_horizon(load));
	uint64_t cap = rs_limits()->series_intervals;
	if (n <= cap)
		return 0;
	return rs_diag_node(d, rs_node_get(output, "timeseries"),
			    "'timeseries' every %.9g s over a run of %.9g s makes %llu intervals, "
			    "more than the cap series_intervals=%llu (use a longer interval or "
			    "a shorter run, or raise the cap with --limit series_intervals=N)",
			    (double)sc->series_ns / 1e9, (double)series_horizon(load) / 1e9,
			    (unsigned long long)n, (unsigned long long)cap);
}

/* A run that failed half-way (rs_sim_fail): a runtime error of the point,
 * not of a file position. */
static void run_failed(const struct rs_scenario *sc, size_t index, const struct rs_sim *sim,
		       struct rs_diag *d)
{
	if (sc->npoints > 1)
		rs_diag_at(d, NULL, 0, 0, "%s, point %zu: %s", sc->name, index, sim->failure);
	else
		rs_diag_at(d, NULL, 0, 0, "%s: %s", sc->name, sim->failure);
}

int rs_scenario_run_point(const struct rs_scenario *sc, size_t index, bool dry,
			  FILE *request_log, struct rs_point_result *r, struct rs_diag *d)
{
	return run_point(sc, index, 0, dry, request_log, NULL, r, d);
}

int rs_scenario_run_point_series(const struct rs_scenario *sc, size_t index, unsigned rep,
				 FILE *request_log, struct rs_timeseries *series,
				 struct rs_point_result *r, struct rs_diag *d)
{
	return run_point(sc, index, rep, false, request_log, series, r, d);
}

static int run_point(const struct rs_scenario *sc, size_t index, unsigned rep, bool dry,
		     FILE *request_log, struct rs_timeseries *series, struct rs_point_result *r,
		     struct rs_diag *d)
{
	struct rs_node *tree = rs_sweep_apply(&sc->sweep, sc->root, index, d);
	if (!tree)
		return -1;
	int rc = -1;
	struct top top;
	struct rs_sim *sim = NULL;
	struct rs_dev *dev = NULL;
	struct rs_load *load = NULL;
	if (rs_schema_bind(top_opts, tree, &top, tree, "scenario", NULL, d) != 0)
		goto out;
	/* Unsigned arithmetic: a seed near 2^64 wraps round to 0, 1, ... */
	top.seed += rep;
	sim = rs_sim_new(top.seed);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = sc->models,
			      .diag = d, .check_only = dry };
	dev = rs_dev_build(&b, top.device, "device", "device");
	if (!dev)
		goto out;
	load = rs_load_build_with_models(sim, top.workload, dev, sc->models, d);
	if (!load)
		goto out;
	if (rs_net_faults_apply(dry ? NULL : sim, dev, top.faults, d) != 0)
		goto out;
	if (sc->series_ns && check_series_intervals(sc, load, top.output, d) != 0)
		goto out;
	rc = 0;
	if (dry) {
		if (r) {
			memset(r, 0, sizeof(*r));
			copy_figures(load, r);
			rs_dev_report(dev, rs_now(sim), &r->dev);  /* for its column name */
		}
		goto out;
	}
	if (request_log) {
		load->request_log = request_log;
		rs_load_log_header(load, request_log);
	}
	struct rs_components parts = { 0 };
	load->components = &parts;
	struct rs_series_sampler sampler;
	if (series) {
		if (rs_ts_init(series, sc->series_ns, series_horizon(load)) != 0) {
			rs_diag_at(d, NULL, 0, 0, "%s: not enough memory for %llu time-series "
				   "intervals", sc->name,
				   (unsigned long long)rs_ts_intervals(sc->series_ns,
								       series_horizon(load)));
			rc = -1;
			goto out;
		}
		rs_series_start(&sampler, sim, load, series);
	}
	if (rs_load_run(sim, load) != 0) {
		run_failed(sc, index, sim, d);
		if (series)
			rs_ts_free(series);
		/* Requests are still inside the devices: destroy them as
		 * abandoned, so no type checks that it drained. */
		rs_dev_destroy_abandoned(dev);
		dev = NULL;
		rs_components_free(&parts);
		rc = -1;
		goto out;
	}
	check_conservation(sim);
	memset(r, 0, sizeof(*r));
	r->s = load->summary;
	r->dev = load->target_report;
	r->seed = top.seed;
	r->events = sim->events_fired;
	copy_figures(load, r);
	r->components = parts;
out:
	rs_load_destroy(load);
	rs_dev_destroy(dev);
	rs_sim_free(sim);
	rs_node_free(tree);
	return rc;
}
