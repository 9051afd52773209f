#include "run/runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/assert.h"
#include "report/report.h"
#include "report/series.h"
#include "report/table.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

const char *const rs_metric_names[] = {
	"iops", "mib_s", "mb_s", "read_iops", "write_iops", "read_mib_s", "write_mib_s",
	"lat_mean_ms", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms",
	"read_lat_mean_ms", "write_lat_mean_ms", "read_lat_p99_ms", "write_lat_p99_ms",
	"qd", "util", "drive_qd", "drive_qd_max", "ops", "errors", NULL
};

/* One result row as text: the metric cells, tab-separated.  Formatting
 * happens in the process that ran the point, so all paths print alike. */
static void format_metrics(const struct rs_scenario *sc, const struct rs_point_result *r,
			   char *buf, size_t n)
{
	const struct rs_iostat_summary *s = &r->s;
	double v[] = { s->iops, s->mib_s, s->mb_s, s->read_iops, s->write_iops,
		       s->read_mib_s, s->write_mib_s, s->lat_mean_ms, s->lat_p50_ms,
		       s->lat_p90_ms, s->lat_p99_ms, s->lat_p999_ms, s->lat_max_ms,
		       s->read_lat_mean_ms, s->write_lat_mean_ms, s->read_lat_p99_ms,
		       s->write_lat_p99_ms, r->dev.queue_depth, r->dev.utilisation,
		       r->dev.drive_qd, r->dev.drive_qd_max };
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
	if (sc->dev_col) {
		char cell[64];
		if (r->dev.extra_name && strcmp(r->dev.extra_name, sc->dev_col) == 0)
			rs_fmt_double(cell, sizeof(cell), r->dev.extra);
		else
			snprintf(cell, sizeof(cell), "nan");
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "\t" : "", cell);
	}
}

/* The per-request log of point i goes to a temporary file renamed into
 * place once the point is done, so an interrupted run leaves no partial
 * log under the final name. */
static FILE *open_request_log(const struct rs_scenario *sc, const char *dir, size_t i,
			      char *final, size_t final_n, char *tmp, size_t tmp_n)
{
	snprintf(final, final_n, "%s/%s.requests.%zu.csv", dir, sc->out_name, i);
	if ((size_t)snprintf(tmp, tmp_n, "%.4000s.tmp.%ld", final, (long)getpid()) >= tmp_n)
		return NULL;
	FILE *f = fopen(tmp, "w");
	if (!f)
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", tmp, strerror(errno));
	return f;
}

static int make_dir(const char *dir);

/* NAME.series.POINT.tsv and its gnuplot script (report/series.h). */
static int write_series(const struct rs_scenario *sc, const char *out_dir, size_t i,
			struct rs_timeseries *ts)
{
	char tsv[4096], gp[4096], tsv_name[1024], png_name[1024], title[1100];
	snprintf(tsv_name, sizeof(tsv_name), "%s.series.%zu.tsv", sc->out_name, i);
	snprintf(png_name, sizeof(png_name), "%s.series.%zu.png", sc->out_name, i);
	snprintf(tsv, sizeof(tsv), "%s/%s", out_dir, tsv_name);
	snprintf(gp, sizeof(gp), "%s/%s.series.%zu.gp", out_dir, sc->out_name, i);
	snprintf(title, sizeof(title), "%s, point %zu", sc->name, i);
	struct rs_report_err err;
	snprintf(err.msg, sizeof(err.msg), "%s: cannot create the directory", out_dir);
	int rc = make_dir(out_dir) != 0 ||
		 rs_report_write_series_tsv(ts, tsv, &err) != 0 ||
		 rs_report_write_series_gnuplot(gp, tsv_name, png_name, title, &err) != 0;
	if (rc)
		fprintf(stderr, "raidsim: %s\n", err.msg);
	rs_ts_free(ts);
	return rc ? -1 : 0;
}

static int run_one(const struct rs_scenario *sc, const char *out_dir, size_t i, char *buf,
		   size_t n)
{
	struct rs_diag d;
	struct rs_point_result r;
	char final[4096], tmp[4200];  /* tmp = final + ".tmp.PID" */
	FILE *log = NULL;
	rs_diag_init(&d);
	if (sc->request_log) {
		log = open_request_log(sc, out_dir, i, final, sizeof(final), tmp, sizeof(tmp));
		if (!log)
			return -1;
	}
	struct rs_timeseries ts = { 0 };
	if (rs_scenario_run_point_series(sc, i, log, sc->series_ns ? &ts : NULL, &r, &d) != 0) {
		/* Every point was checked before the run; this is a model bug. */
		rs_diag_print(&d, stderr);
		if (log) {
			fclose(log);
			unlink(tmp);
		}
		return -1;
	}
	if (log) {
		if (fclose(log) != 0 || rename(tmp, final) != 0) {
			fprintf(stderr, "raidsim: cannot write '%s': %s\n", final, strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	format_metrics(sc, &r, buf, n);
	return sc->series_ns ? write_series(sc, out_dir, i, &ts) : 0;
}

struct progress {
	bool on;
	size_t total, done;
	struct timespec t0;
};

static double elapsed_s(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_show(struct progress *p)
{
	if (!p->on)
		return;
	double el = elapsed_s(&p->t0);
	double eta = p->done ? el / (double)p->done * (double)(p->total - p->done) : 0;
	fprintf(stderr, "\r[%zu/%zu] %5.1f%%  elapsed %.1fs  left ~%.1fs  ", p->done, p->total,
		100.0 * (double)p->done / (double)p->total, el, eta);
	if (p->done == p->total)
		fputc('\n', stderr);
	fflush(stderr);
}

/* Children write "index<TAB>cells\n" lines to a pipe; the parent files
 * them by index. */
static int run_parallel(const struct rs_scenario *sc, const char *out_dir, unsigned jobs,
			char **rows, struct progress *pg)
{
	pid_t pids[256];
	int fds[256];
	FILE *ins[256];
	if (jobs > 256)
		jobs = 256;
	fflush(NULL);
	for (unsigned k = 0; k < jobs; k++) {
		int pfd[2];
		if (pipe(pfd) != 0) {
			perror("raidsim: pipe");
			return -1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("raidsim: fork");
			return -1;
		}
		if (pid == 0) {
			close(pfd[0]);
			FILE *out = fdopen(pfd[1], "w");
			char buf[2048];
			for (size_t i = k; i < sc->npoints; i += jobs) {
				if (run_one(sc, out_dir, i, buf, sizeof(buf)) != 0)
					_exit(1);
				fprintf(out, "%zu\t%s\n", i, buf);
				fflush(out);
			}
			fclose(out);
			_exit(0);
		}
		close(pfd[1]);
		pids[k] = pid;
		fds[k] = pfd[0];
		ins[k] = fdopen(pfd[0], "r");
	}
	unsigned open_fds = jobs;
	struct pollfd pf[256];
	char line[4096];
	int rc = 0;
	while (open_fds > 0) {
		unsigned np = 0;
		for (unsigned k = 0; k < jobs; k++)
			if (ins[k]) {
				pf[np].fd = fds[k];
				pf[np].events = POLLIN;
				pf[np].revents = 0;
				np++;
			}
		if (poll(pf, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (unsigned k = 0; k < jobs; k++) {
			if (!ins[k])
				continue;
			bool ready = false;
			for (unsigned j = 0; j < np; j++)
				if (pf[j].fd == fds[k] && pf[j].revents)
					ready = true;
			if (!ready)
				continue;
			/* Children flush whole lines, so a ready pipe holds one. */
			if (!fgets(line, sizeof(line), ins[k])) {
				fclose(ins[k]);
				ins[k] = NULL;
				open_fds--;
				continue;
			}
			char *tab = strchr(line, '\t');
			size_t idx = strtoull(line, NULL, 10);
			if (!tab || idx >= sc->npoints || rows[idx]) {
				rc = -1;
				continue;
			}
			line[strcspn(line, "\n")] = '\0';
			rows[idx] = strdup(tab + 1);
			pg->done++;
			progress_show(pg);
		}
	}
	for (unsigned k = 0; k < jobs; k++) {
		int st;
		waitpid(pids[k], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = -1;
	}
	for (size_t i = 0; i < sc->npoints; i++)
		if (!rows[i])
			rc = -1;
	return rc;
}

static int make_dir(const char *dir)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static void axis_text(const char *in, char *out, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; in[i] && j + 1 < n; i++)
		out[j++] = (in[i] == '\t' || in[i] == '\n' || in[i] == '\r') ? ' ' : in[i];
	out[j] = '\0';
}

static int build_table(const struct rs_scenario *sc, char **rows, struct rs_table *t)
{
	rs_table_init(t);
	for (size_t a = 0; a < sc->sweep.naxes; a++)
		rs_table_add_col(t, sc->sweep.axes[a].path, 1);
	for (size_t m = 0; !sc->figures_only && rs_metric_names[m]; m++)
		rs_table_add_col(t, rs_metric_names[m], 0);
	for (size_t f = 0; f < sc->nfigure_cols; f++)
		rs_table_add_col(t, sc->figure_cols[f], 0);
	if (sc->dev_col)
		rs_table_add_col(t, sc->dev_col, 0);
	size_t idx[64];
	for (size_t i = 0; i < sc->npoints; i++) {
		size_t row = rs_table_add_row(t);
		rs_sweep_point_indices(&sc->sweep, i, idx);
		size_t col = 0;
		for (size_t a = 0; a < sc->sweep.naxes; a++) {
			char text[512];
			const struct rs_node *v = sc->sweep.axes[a].values[idx[a]];
			axis_text(v->kind == RS_NODE_SCALAR ? v->str : "(structured)", text,
				  sizeof(text));
			rs_table_set(t, row, col++, text);
		}
		char *save = NULL;
		for (char *cell = strtok_r(rows[i], "\t", &save); cell;
		     cell = strtok_r(NULL, "\t", &save))
			rs_table_set(t, row, col++, cell);
		if (col != t->ncols)
			return -1;
	}
	return 0;
}

/* Sizes and queue depths read best on a log axis: use one when the x
 * column is numeric and spans a factor of 16 or more. */
static int wide_numeric_range(const struct rs_table *t, const char *col)
{
	if (!col)
		return 0;
	long c = rs_table_find_col(t, col);
	if (c < 0 || t->nrows == 0)
		return 0;
	double lo = 0, hi = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double v;
		const char *text = rs_table_get(t, r, (size_t)c);
		if (!text || !rs_table_number(text, &v) || v <= 0)
			return 0;
		if (r == 0 || v < lo)
			lo = v;
		if (r == 0 || v > hi)
			hi = v;
	}
	return hi / lo >= 16;
}

int rs_runner_run(const struct rs_scenario *sc, const struct rs_run_opts *o)
{
	char **rows = calloc(sc->npoints, sizeof(*rows));
	RS_ASSERT(rows != NULL);
	struct progress pg = { .on = o->progress, .total = sc->npoints };
	clock_gettime(CLOCK_MONOTONIC, &pg.t0);
	int rc = 0;
	unsigned jobs = o->jobs ? o->jobs : 1;
	if (sc->request_log && make_dir(o->out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", o->out_dir, strerror(errno));
		free(rows);
		return 1;
	}
	if (jobs > sc->npoints)
		jobs = (unsigned)sc->npoints;
	if (jobs <= 1) {
		char buf[2048];
		for (size_t i = 0; i < sc->npoints && rc == 0; i++) {
			if (run_one(sc, o->out_dir, i, buf, sizeof(buf)) != 0) {
				rc = -1;
				break;
			}
			rows[i] = strdup(buf);
			pg.done++;
			progress_show(&pg);
		}
	} else {
		rc = run_parallel(sc, o->out_dir, jobs, rows, &pg);
	}
	struct rs_table t;
	memset(&t, 0, sizeof(t));
	if (rc == 0 && build_table(sc, rows, &t) != 0) {
		fprintf(stderr, "raidsim: internal error: malformed result row\n");
		rc = -1;
	}
	if (rc == 0 && make_dir(o->out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", o->out_dir, strerror(errno));
		rc = -1;
	}
	char tsv[4096], json[4096], gp[4096], png[4096], tsv_name[1024], png_name[1024];
	snprintf(tsv_name, sizeof(tsv_name), "%s.tsv", sc->out_name);
	snprintf(png_name, sizeof(png_name), "%s.png", sc->out_name);
	snprintf(tsv, sizeof(tsv), "%s/%s.tsv", o->out_dir, sc->out_name);
	snprintf(json, sizeof(json), "%s/%s.json", o->out_dir, sc->out_name);
	snprintf(gp, sizeof(gp), "%s/%s.gp", o->out_dir, sc->out_name);
	snprintf(png, sizeof(png), "%s/%s.png", o->out_dir, sc->out_name);
	if (rc == 0) {
		struct rs_report_meta meta = { PACKAGE_VERSION, sc->name, 0 };
		const struct rs_node *seed = rs_node_get(sc->root, "seed");
		meta.seed = seed && seed->kind == RS_NODE_SCALAR ? strtoull(seed->str, NULL, 10) : 1;
		struct rs_report_err err;
		if (rs_report_write_tsv(&t, tsv, &err) != 0 ||
		    rs_report_write_json(&t, json, &meta, &err) != 0) {
			fprintf(stderr, "raidsim: %s\n", err.msg);
			rc = -1;
		}
	}
	if (rc == 0) {
		struct rs_plot_spec ps = { 0 };
		ps.x_col = sc->plot_x;
		ps.series_col = sc->plot_series;
		ps.y_col = sc->plot_y;
		ps.title = sc->name;
		ps.logx = sc->plot_logx >= 0 ? sc->plot_logx : wide_numeric_range(&t, ps.x_col);
		struct rs_report_err err;
		if (rs_report_write_gnuplot(&t, gp, tsv_name, png_name, &ps, &err) != 0) {
			fprintf(stderr, "raidsim: %s\n", err.msg);
			rc = -1;
		} else if (o->plot) {
			char msg[512];
			/* gnuplot runs inside the output directory, so it is given
			 * the script's name there, not a path relative to ours. */
			char gp_name[1024];
			snprintf(gp_name, sizeof(gp_name), "%s.gp", sc->out_name);
			int pr = rs_report_render_png(gp_name, o->out_dir, msg, sizeof(msg));
			if (pr < 0) {
				fprintf(stderr, "raidsim: plot: %s\n", msg);
				rc = -1;
			} else if (pr > 0 && !o->quiet) {
				fprintf(stderr, "raidsim: gnuplot not found; wrote %s only\n", gp);
			}
		}
	}
	if (rc == 0 && !o->quiet) {
		printf("%s\n%s\n%s\n", tsv, json, gp);
		if (o->plot && access(png, F_OK) == 0)
			printf("%s\n", png);
	}
	rs_table_free(&t);
	for (size_t i = 0; i < sc->npoints; i++)
		free(rows[i]);
	free(rows);
	return rc == 0 ? 0 : 1;
}
