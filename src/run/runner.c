#include "run/runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/assert.h"
#include "report/out_lock.h"
#include "report/out_set.h"
#include "report/out_stream.h"
#include "report/report.h"
#include "report/series.h"
#include "report/table.h"
#include "run/components.h"
#include "run/points.h"
#include "run/progress.h"
#include "run/results.h"
#include "run/result_set.h"
#include "run/shard.h"
#include "run/summary.h"

/* The metric columns of a result row that are real numbers, in order,
 * and where each comes from (s: the run's summary, r: the point's
 * result); the counts "ops" and "errors" follow them. */
#define METRIC_LIST(X)                                                      \
	X(iops, s->iops) X(mib_s, s->mib_s) X(mb_s, s->mb_s)                \
	X(read_iops, s->read_iops) X(write_iops, s->write_iops)             \
	X(read_mib_s, s->read_mib_s) X(write_mib_s, s->write_mib_s)         \
	X(lat_mean_ms, s->lat_mean_ms) X(lat_p50_ms, s->lat_p50_ms)         \
	X(lat_p90_ms, s->lat_p90_ms) X(lat_p99_ms, s->lat_p99_ms)           \
	X(lat_p999_ms, s->lat_p999_ms) X(lat_max_ms, s->lat_max_ms)         \
	X(read_lat_mean_ms, s->read_lat_mean_ms)                            \
	X(write_lat_mean_ms, s->write_lat_mean_ms)                          \
	X(read_lat_p99_ms, s->read_lat_p99_ms)                              \
	X(write_lat_p99_ms, s->write_lat_p99_ms)                            \
	X(qd, r->dev.queue_depth) X(util, r->dev.utilisation)               \
	X(drive_qd, r->dev.drive_qd) X(drive_qd_max, r->dev.drive_qd_max)

const char *const rs_metric_names[] = {
#define X(col, value) #col,
	METRIC_LIST(X)
#undef X
	"ops", "errors", NULL
};

/* One result row as text: the metric cells, tab-separated.  Formatting
 * happens in the process that ran the point, so all paths print alike. */
static void format_metrics(const struct rs_scenario *sc, const struct rs_point_result *r,
			   char *buf, size_t n)
{
	const struct rs_iostat_summary *s = &r->s;
	double v[] = {
#define X(col, value) value,
		METRIC_LIST(X)
#undef X
	};
	size_t used = 0;
	buf[0] = '\0';
	if (!sc->figures_only) {
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			char cell[64];
			rs_fmt_double(cell, sizeof(cell), v[i]);
			used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "\t" : "",
						 cell);
		}
		used += (size_t)snprintf(buf + used, n - used, "\t%llu\t%llu",
					 (unsigned long long)s->ops, (unsigned long long)s->errors);
	}
	for (size_t f = 0; f < sc->nfigure_cols; f++) {
		char cell[64];
		/* A point whose workload has no such figure says so. */
		snprintf(cell, sizeof(cell), "nan");
		for (size_t k = 0; k < r->nfigures; k++)
			if (strcmp(r->figures[k].name, sc->figure_cols[f]) == 0)
				rs_fmt_double(cell, sizeof(cell), r->figures[k].value);
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "\t" : "", cell);
	}
	for (size_t c = 0; c < sc->ndev_cols; c++) {
		char cell[64];
		/* A point whose device has no such figure says so. */
		snprintf(cell, sizeof(cell), "nan");
		for (uint32_t k = 0; k < r->dev.nextras; k++)
			if (strcmp(r->dev.extras[k].name, sc->dev_cols[c]) == 0)
				rs_fmt_double(cell, sizeof(cell), r->dev.extras[k].value);
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "\t" : "", cell);
	}
	if (!sc->figures_only)
		snprintf(buf + used, n - used, "\t%s", rs_limited_by(&r->components));
}

/* The per-request log of point i goes to a temporary file renamed into
 * place once the point is done, so an interrupted run leaves no partial
 * log under the final name. */
static int open_request_log(const struct rs_scenario *sc, const char *dir, size_t i,
			    struct rs_out_stream *log)
{
	char path[8400];
	struct rs_report_err err;
	snprintf(path, sizeof(path), "%s/%s.requests.%zu.csv", dir, sc->out_name, i);
	if (rs_out_stream_open(log, path, &err) == 0)
		return 0;
	fprintf(stderr, "raidsim: %s\n", err.msg);
	return -1;
}

/* NAME.series.POINT.tsv and its gnuplot script (report/series.h). */
static int write_series(const struct rs_scenario *sc, const char *out_dir, size_t i,
			struct rs_timeseries *ts)
{
	char tsv[8400], gp[8400], tsv_name[1024], png_name[1024], title[1100];
	snprintf(tsv_name, sizeof(tsv_name), "%s.series.%zu.tsv", sc->out_name, i);
	snprintf(png_name, sizeof(png_name), "%s.series.%zu.png", sc->out_name, i);
	snprintf(tsv, sizeof(tsv), "%s/%s", out_dir, tsv_name);
	snprintf(gp, sizeof(gp), "%s/%s.series.%zu.gp", out_dir, sc->out_name, i);
	snprintf(title, sizeof(title), "%s, point %zu", sc->name, i);
	struct rs_report_err err;
	snprintf(err.msg, sizeof(err.msg), "%.400s: cannot create the directory", out_dir);
	int rc = rs_make_dir(out_dir) != 0 ||
		 rs_report_write_series_tsv(ts, tsv, &err) != 0 ||
		 rs_report_write_series_gnuplot(gp, tsv_name, png_name, title, &err) != 0;
	if (rc)
		fprintf(stderr, "raidsim: %s\n", err.msg);
	rs_ts_free(ts);
	return rc ? -1 : 0;
}

/* Runs per point, and the runs of the whole sweep (run/repeats.h). */
static size_t repeat_of(const struct rs_scenario *sc)
{
	return sc->repeat > 1 ? sc->repeat : 1;
}

static size_t runs_of(const struct rs_scenario *sc)
{
	return sc->npoints * repeat_of(sc);
}

/* What the counts in messages count: points, or runs when repeated. */
static const char *unit_of(const struct rs_scenario *sc)
{
	return sc->repeat > 1 ? "runs" : "points";
}

/* Run u: run u % repeat of point u / repeat.  Its request log and time
 * series are written by the point's first run only (the seed its row
 * names), under the point's index, so they are named as without
 * --repeat. */
static int run_one(const struct rs_scenario *sc, const char *dir, size_t u, char *buf,
		   size_t n)
{
	struct rs_diag d;
	struct rs_point_result r;
	struct rs_out_stream log;
	size_t i = u / repeat_of(sc);
	unsigned rep = (unsigned)(u % repeat_of(sc));
	bool request_log = sc->request_log && rep == 0, series = sc->series_ns && rep == 0;
	rs_diag_init(&d);
	if (request_log && open_request_log(sc, dir, i, &log) != 0)
		return -1;
	struct rs_timeseries ts = { 0 };
	if (rs_scenario_run_point_series(sc, i, rep, request_log ? log.f : NULL,
					 series ? &ts : NULL, &r, &d) != 0) {
		/* Every point was checked before the run; this is a model bug. */
		rs_diag_print(&d, stderr);
		if (request_log)
			rs_out_stream_abort(&log);
		return -1;
	}
	struct rs_report_err err;
	if (request_log && rs_out_stream_commit(&log, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	format_metrics(sc, &r, buf, n);
	/* The point's parts, from its first run (the seed its row names). */
	int rc = rep == 0 ? rs_components_save(dir, sc->out_name, i, &r.components) : 0;
	rs_components_free(&r.components);
	if (rc != 0) {
		if (series)
			rs_ts_free(&ts);
		return -1;
	}
	return series ? write_series(sc, dir, i, &ts) : 0;
}

/* ---- interruption ------------------------------------------------------
 * Points always run in worker processes, so this process stays free to
 * act on a signal.  The first SIGINT only raises a flag: no new point
 * starts, the running ones finish and are saved.  SIGTERM (what timeout(1)
 * and batch schedulers send at a time limit) and a second SIGINT stop at
 * once: the workers are killed, the points they were running are thrown
 * away, and the run ends with the points already saved and the status of
 * the signal (128 + its number), ready for --resume. */

#define MAX_JOBS 256

static volatile sig_atomic_t stop_sig;     /* no new points */
static volatile sig_atomic_t kill_sig;     /* stop now */
static pid_t workers[MAX_JOBS];
static volatile sig_atomic_t nworkers;

static void on_signal(int sig)
{
	if (sig == SIGINT && !stop_sig && !kill_sig) {
		stop_sig = sig;
		return;
	}
	if (!stop_sig)
		stop_sig = sig;
	kill_sig = sig;
	/* Their pipes close, which wakes the loop in run_points. */
	for (sig_atomic_t k = 0; k < nworkers; k++)
		if (workers[k] > 0)
			kill(workers[k], SIGKILL);
}

struct saved_signals {
	struct sigaction intr, term, pipe;
};

static void catch_signals(struct saved_signals *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() must return to notice the flag. */
	stop_sig = 0;
	kill_sig = 0;
	nworkers = 0;
	sigaction(SIGINT, &sa, &old->intr);
	sigaction(SIGTERM, &sa, &old->term);
	/* A worker that died must show up as EOF/EPIPE, not kill us. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old->pipe);
}

static void restore_signals(const struct saved_signals *old)
{
	sigaction(SIGINT, &old->intr, NULL);
	sigaction(SIGTERM, &old->term, NULL);
	sigaction(SIGPIPE, &old->pipe, NULL);
}

/* ---- running the points -------------------------------------------------- */

struct plan {
	const struct rs_scenario *sc;
	const char *stage;            /* where per-point files go */
	const struct rs_points *store;
	const size_t *todo;           /* runs still to run (points, unless repeated) */
	size_t ntodo;
	char **rows;
	struct rs_progress *pg;
};

#define ROW_MAX RS_POINT_ROW_MAX

/* A worker reads run indices (binary size_t) from `cmd` until EOF; for
 * each it runs it, saves it and writes "index<TAB>row\n" to `res`.
 * Signals are left to the parent, which decides when to stop. */
static void worker(const struct plan *p, int cmd, int res)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	FILE *out = fdopen(res, "w");
	char *buf = malloc(ROW_MAX);
	if (!out || !buf)
		_exit(1);
	size_t i;
	while (read(cmd, &i, sizeof(i)) == (ssize_t)sizeof(i)) {
		if (run_one(p->sc, p->stage, i, buf, ROW_MAX) != 0 ||
		    rs_points_save(p->store, i, buf) != 0)
			_exit(1);
		fprintf(out, "%zu\t%s\n", i, buf);
		if (fflush(out) != 0)
			_exit(1);
	}
	_exit(0);
}

struct slot {
	pid_t pid;
	int cmd;                      /* -1 once closed: the worker will exit */
	FILE *res;                    /* NULL once the worker is done */
	bool busy;
};

/* Hand the next point to a worker, or tell it to finish. */
static void dispatch(struct slot *w, const struct plan *p, size_t *next)
{
	if (!stop_sig && *next < p->ntodo &&
	    write(w->cmd, &p->todo[*next], sizeof(size_t)) == (ssize_t)sizeof(size_t)) {
		(*next)++;
		w->busy = true;
		return;
	}
	w->busy = false;
	if (w->cmd >= 0)
		close(w->cmd);
	w->cmd = -1;
}

static int run_points(const struct plan *p, unsigned jobs)
{
	struct slot w[MAX_JOBS];
	size_t next = 0;
	int rc = 0;
	fflush(NULL);
	for (unsigned k = 0; k < jobs && !kill_sig; k++) {
		int c[2], r[2];
		if (pipe(c) != 0 || pipe(r) != 0) {
			perror("raidsim: pipe");
			jobs = k;
			rc = -1;
			break;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("raidsim: fork");
			close(c[0]), close(c[1]), close(r[0]), close(r[1]);
			jobs = k;
			rc = -1;
			break;
		}
		if (pid == 0) {
			/* Only our own ends: a worker must see EOF when the parent
			 * closes its command pipe, so no sibling may hold it. */
			for (unsigned j = 0; j < k; j++) {
				if (w[j].cmd >= 0)
					close(w[j].cmd);
				fclose(w[j].res);
			}
			close(c[1]);
			close(r[0]);
			worker(p, c[0], r[1]);
		}
		close(c[0]);
		close(r[1]);
		w[k] = (struct slot){ .pid = pid, .cmd = c[1], .res = fdopen(r[0], "r") };
		workers[k] = pid;
		nworkers = (sig_atomic_t)(k + 1);
		/* A signal that came before the worker was on the list. */
		if (kill_sig)
			kill(pid, SIGKILL);
	}
	for (unsigned k = 0; k < jobs; k++)
		dispatch(&w[k], p, rc == 0 ? &next : &(size_t){ p->ntodo });
	char *line = malloc(ROW_MAX + 64);
	RS_ASSERT(line != NULL);
	for (;;) {
		struct pollfd pf[MAX_JOBS];
		unsigned who[MAX_JOBS], np = 0;
		for (unsigned k = 0; k < jobs; k++)
			if (w[k].res) {
				pf[np] = (struct pollfd){ .fd = fileno(w[k].res), .events = POLLIN };
				who[np++] = k;
			}
		if (np == 0)
			break;
		if (poll(pf, np, -1) < 0) {
			if (errno != EINTR) {
				perror("raidsim: poll");
				rc = -1;
				break;
			}
			continue;
		}
		for (unsigned j = 0; j < np; j++) {
			if (!pf[j].revents)
				continue;
			struct slot *s = &w[who[j]];
			/* A worker has one point at a time, so one line at most. */
			if (!fgets(line, ROW_MAX + 64, s->res)) {
				if (s->busy && !kill_sig)
					rc = -1;  /* died in the middle of a point */
				fclose(s->res);
				s->res = NULL;
				if (s->cmd >= 0)
					close(s->cmd);
				s->cmd = -1;
				continue;
			}
			char *tab = strchr(line, '\t');
			size_t idx = (size_t)strtoull(line, NULL, 10);
			if (!tab || idx >= runs_of(p->sc) || p->rows[idx]) {
				rc = -1;
				continue;
			}
			line[strcspn(line, "\n")] = '\0';
			p->rows[idx] = strdup(tab + 1);
			rs_progress_step(p->pg);
			dispatch(s, p, rc == 0 ? &next : &(size_t){ p->ntodo });
		}
	}
	free(line);
	for (unsigned k = 0; k < jobs; k++) {
		int st;
		/* Off the list first: a reaped pid may be reused. */
		workers[k] = 0;
		if (waitpid(w[k].pid, &st, 0) < 0 ||
		    (!kill_sig && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)))
			rc = -1;
	}
	nworkers = 0;
	return rc;
}

/* ---- the whole run -------------------------------------------------------- */

static void finish_message(const struct rs_scenario *sc, const struct rs_points *store,
			   size_t done, size_t total)
{
	fprintf(stderr,
		"raidsim: %s: stopped with %zu of %zu %s done, saved in %s; run again "
		"with --resume to finish\n", sc->name, done, total, unit_of(sc), store->dir);
}

/* The table, or the shard file, and everything staged, into out_dir. */
static int write_set(const struct rs_scenario *sc, const struct rs_run_opts *o,
		     const struct rs_points *store, char **rows)
{
	struct rs_results_meta meta;
	rs_results_meta_of(sc, &meta);
	if (o->shard_n)
		return rs_shard_write(sc, &meta, rows, o->shard_k, o->shard_n, store->out,
				      o->out_dir, o->quiet) == 0 ? 0 : -1;
	struct rs_table t, parts;
	size_t *point_of_row = malloc(sc->npoints * sizeof(*point_of_row) + 1);
	size_t *parts_row_of = NULL;
	RS_ASSERT(point_of_row != NULL);
	rs_table_init(&parts);
	int rc = 0;
	if (rs_results_table(sc, rows, &t, point_of_row) != 0) {
		fprintf(stderr, "raidsim: internal error: malformed result row\n");
		rc = -1;
	} else if (rs_components_gather(store->out, sc->out_name, &t, point_of_row, &parts,
					&parts_row_of) != 0) {
		rc = -1;
	} else {
		meta.parts = &parts;
		meta.parts_row_of = parts_row_of;
		rc = rs_result_set_write(&t, &meta, store->out, o->out_dir,
					 RS_OUT_TABLE | RS_OUT_POINT_FILES, o->plot, o->quiet);
		if (rc == 0)
			rs_summary_print(&t, sc->out_name, o->out_dir, o->formats);
	}
	rs_table_free(&t);
	rs_table_free(&parts);
	free(point_of_row);
	free(parts_row_of);
	return rc;
}

/* With the output folder locked: load what was saved, run the rest, write
 * the set. */
static int run_locked(const struct rs_scenario *sc, const struct rs_run_opts *o,
		      const char *tag, char **rows, size_t *todo)
{
	struct rs_points store;
	size_t found = 0;
	int pr = rs_points_open(&store, o->out_dir, tag, rs_scenario_fingerprint(sc),
				runs_of(sc), rs_results_run_cells(sc), o->resume, rows, &found);
	if (pr != 0)
		return pr == -2 ? 2 : 1;
	/* A point's first run saves its parts before its row: a saved row
	 * whose parts are gone (a file removed by hand, a run that ended
	 * meanwhile and cleared its folder) runs again, so the components
	 * stay those of the row's own run. */
	for (size_t i = 0; o->resume && i < runs_of(sc); i += repeat_of(sc)) {
		size_t point = i / repeat_of(sc);
		if (rows[i] && !rs_components_saved(store.out, sc->out_name, point)) {
			if (!o->quiet)
				fprintf(stderr, "raidsim: %s: point %zu has no saved components; "
					"running it again\n", sc->name, point);
			free(rows[i]);
			rows[i] = NULL;
		}
	}
	size_t ntodo = 0, total = 0, have = 0;
	for (size_t i = 0; i < runs_of(sc); i++) {
		/* A shard holds whole points: all the runs of each. */
		size_t point = i / repeat_of(sc);
		if (o->shard_n && point % o->shard_n != o->shard_k) {
			free(rows[i]);  /* not ours (cannot happen: own folder) */
			rows[i] = NULL;
			continue;
		}
		total++;
		if (rows[i])
			have++;
		else
			todo[ntodo++] = i;
	}
	if (o->resume && have && !o->quiet)
		fprintf(stderr, "raidsim: %s: resuming, %zu of %zu %s already done\n",
			sc->name, have, total, unit_of(sc));
	struct rs_progress pg;
	rs_progress_start(&pg, o->progress, total, have);
	struct plan plan = { sc, store.out, &store, todo, ntodo, rows, &pg };
	unsigned jobs = o->jobs ? o->jobs : 1;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if (jobs > ntodo)
		jobs = (unsigned)ntodo;
	struct saved_signals saved;
	catch_signals(&saved);
	int run_rc = run_points(&plan, jobs);
	int stopped_by = kill_sig ? kill_sig : stop_sig;
	restore_signals(&saved);
	if (pg.on && pg.done < pg.total)
		fputc('\n', stderr);
	if (kill_sig)
		rs_points_discard_partial(&store);
	if (run_rc != 0) {
		fprintf(stderr, "raidsim: %s: a point failed; %zu of %zu %s saved in %s\n",
			sc->name, pg.done, total, unit_of(sc), store.dir);
		return 1;
	}
	if (stopped_by && pg.done < total) {
		finish_message(sc, &store, pg.done, total);
		return 128 + stopped_by;
	}
	if (write_set(sc, o, &store, rows) != 0) {
		fprintf(stderr, "raidsim: %s: the results were not written, %s is as it was; "
				"the points are saved in %s, run again with --resume once the "
				"cause is fixed\n", sc->name, o->out_dir, store.dir);
		return 1;
	}
	rs_points_remove(&store);
	return 0;
}

int rs_runner_run(const struct rs_scenario *sc, const struct rs_run_opts *o)
{
	char **rows = calloc(runs_of(sc), sizeof(*rows));
	size_t *todo = malloc(runs_of(sc) * sizeof(*todo));
	RS_ASSERT(rows != NULL && todo != NULL);
	int rc = 0;
	char tag[1100] = "";
	if (o->shard_n)
		rs_shard_tag(tag, sizeof(tag), sc->out_name, o->shard_k, o->shard_n);
	else
		snprintf(tag, sizeof(tag), "%s", sc->out_name);
	struct rs_out_lock lock;
	if (rs_make_dir(o->out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", o->out_dir, strerror(errno));
		rc = 1;
	} else if (rs_out_lock_take(&lock, o->out_dir, tag) != 0) {
		rc = 1;
	} else {
		rc = run_locked(sc, o, tag, rows, todo);
		rs_out_lock_release(&lock);
	}
	for (size_t i = 0; i < runs_of(sc); i++)
		free(rows[i]);
	free(rows);
	free(todo);
	return rc;
}
