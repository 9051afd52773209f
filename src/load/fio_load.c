#include "load/fio_load.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"
#include "load/fio_job.h"
#include "load/fio_parse.h"

struct fio_params {
	const char *file;
	rs_time_t runtime;
};

static const struct rs_opt fio_opts[] = {
	{ "file", RS_OPT_STR, offsetof(struct fio_params, file), NULL, RS_OPT_REQUIRED, 0, 0,
	  NULL, "fio job file, relative to the scenario's folder ('fio: FILE' for short)" },
	{ "runtime", RS_OPT_TIME, offsetof(struct fio_params, runtime), "0s", RS_OPT_HAS_MIN,
	  0, 0, NULL, "every job's runtime instead of the file's (0 = the file's), to try a "
	  "long job briefly" },
	RS_OPT_END
};

struct clone;

/* One of a clone's iodepth requests in flight. */
struct slot {
	struct clone *cl;
};

struct clone {
	const struct rs_fio_job *job;
	struct rs_load *load;
	struct slot *slots;
	uint64_t start_blk, len_blk;
	uint32_t nblk[RS_SPEC_MAX_LINES];
	uint64_t positions[RS_SPEC_MAX_LINES];   /* aligned random offsets */
	double cum_share[RS_SPEC_MAX_LINES];
	uint64_t seq_next, run_left;
	uint64_t amount, issued;      /* bytes to move (not time_based), moved so far */
	uint64_t writes;
	rs_time_t deadline;           /* runtime's end; RS_TIME_MAX without one */
	rs_time_t next_allowed;       /* rate_iops */
	rs_time_t gap;                /* 1 s / rate_iops */
	uint64_t active;              /* slots with a request in flight or a wait */
	gsl_rng *rng_line, *rng_mix, *rng_offset;
};

/* What one stonewall group did inside the measuring window. */
struct group_result {
	rs_time_t t_start, t_end;     /* t_end 0 while it runs */
	uint64_t ops, bytes;
	size_t fig;                   /* its first figure */
};

struct fio {
	struct rs_fio_file file;
	struct rs_fio_jobs jobs;
	struct clone *clones;
	size_t nclones;
	unsigned group;               /* running */
	uint64_t group_active;        /* its clones still running */
	struct group_result groups[RS_FIO_MAX_JOBS];
	unsigned figs_per_group;      /* 0: the groups have no figures of their own */
};

static void slot_next(struct rs_sim *sim, struct slot *sl);

static bool clone_wants_more(const struct rs_sim *sim, const struct clone *cl)
{
	if (cl->load->stopped || sim->now >= cl->deadline)
		return false;
	return cl->job->time_based || cl->issued < cl->amount;
}

static void group_start(struct rs_sim *sim, struct rs_load *load);

static void slot_stop(struct rs_sim *sim, struct slot *sl)
{
	struct clone *cl = sl->cl;
	struct fio *f = cl->load->priv;
	RS_ASSERT(cl->active > 0);
	if (--cl->active > 0)
		return;
	RS_ASSERT(f->group_active > 0);
	if (--f->group_active > 0)
		return;
	f->groups[f->group].t_end = sim->now;
	f->group++;
	if (f->group < f->jobs.ngroups && !cl->load->stopped)
		group_start(sim, cl->load);
	else
		rs_load_finish(sim, cl->load);
}

static void slot_issue(struct rs_sim *sim, struct slot *sl);

static void wait_over(struct rs_sim *sim, void *obj, void *arg)
{
	struct slot *sl = obj;
	(void)arg;
	if (!clone_wants_more(sim, sl->cl)) {
		slot_stop(sim, sl);
		return;
	}
	slot_issue(sim, sl);
}

/* The next request now, or after thinktime or the gap rate_iops asks. */
static void slot_next(struct rs_sim *sim, struct slot *sl)
{
	struct clone *cl = sl->cl;
	rs_time_t at = sim->now + cl->job->thinktime;
	if (cl->gap && cl->next_allowed > at)
		at = cl->next_allowed;
	if (at > sim->now)
		rs_sched_at(sim, at, wait_over, sl, NULL);
	else
		slot_issue(sim, sl);
}

/* A write of a job that flushes: its flush goes out once the write is
 * done, and the slot issues nothing else until the flush is (write, then
 * fsync, then the next write). */
static void slot_done(struct rs_sim *sim, struct rs_io *io)
{
	struct slot *sl = io->done_ctx;
	struct clone *cl = sl->cl;
	struct fio *f = cl->load->priv;
	bool wrote = io->op == RS_WRITE;
	if (cl->load->measuring && io->status == 0 && io->op != RS_FLUSH) {
		f->groups[cl->job->group].ops++;
		f->groups[cl->job->group].bytes += rs_io_bytes(io);
	}
	bool more = rs_load_account(sim, cl->load, io);
	rs_io_free(sim, io);
	if (more && wrote && cl->job->flush_every && ++cl->writes % cl->job->flush_every == 0) {
		rs_load_issue_ctx(sim, cl->load, RS_FLUSH, 0, 0, slot_done, sl);
		return;
	}
	if (!more || !clone_wants_more(sim, cl)) {
		slot_stop(sim, sl);
		return;
	}
	slot_next(sim, sl);
}

/* The clone's next request, drawn as iometer draws (see fio_load.h). */
static void slot_issue(struct rs_sim *sim, struct slot *sl)
{
	struct clone *cl = sl->cl;
	const struct rs_fio_job *j = cl->job;
	size_t i = 0;
	if (j->nlines > 1) {
		double u = gsl_rng_uniform(cl->rng_line) * 100.0;
		while (i + 1 < j->nlines && u >= cl->cum_share[i])
			i++;
	}
	bool is_read = j->read >= 100 ||
		       (j->read > 0 && gsl_rng_uniform(cl->rng_mix) * 100.0 < j->read);
	uint32_t nblk = cl->nblk[i];
	uint64_t lba;
	if (j->random && cl->run_left == 0) {
		lba = cl->start_blk + rs_rng_uniform_u64(cl->rng_offset, cl->positions[i]) * nblk;
		if (j->random_run > 1) {
			cl->run_left = j->random_run - 1;
			cl->seq_next = lba + nblk;
		}
	} else {
		if (cl->run_left)
			cl->run_left--;
		if (cl->seq_next + nblk > cl->start_blk + cl->len_blk)
			cl->seq_next = cl->start_blk;
		lba = cl->seq_next;
		cl->seq_next += nblk + j->seq_skip / RS_BLOCK_BYTES;
	}
	cl->issued += (uint64_t)nblk * RS_BLOCK_BYTES;
	if (cl->gap)
		cl->next_allowed = (cl->next_allowed > sim->now ? cl->next_allowed : sim->now) +
				   cl->gap;
	rs_load_issue_ctx(sim, cl->load, is_read ? RS_READ : RS_WRITE, lba, nblk, slot_done, sl);
}

static void group_start(struct rs_sim *sim, struct rs_load *load)
{
	struct fio *f = load->priv;
	/* The last slot stopping at once starts the next group from inside
	 * the loop below: the loops keep to this one. */
	unsigned g = f->group;
	f->group_active = 0;
	f->groups[g].t_start = sim->now;
	for (size_t c = 0; c < f->nclones; c++) {
		struct clone *cl = &f->clones[c];
		if (cl->job->group != g)
			continue;
		/* The first group's runtime follows its ramp, as fio's does. */
		rs_time_t run = cl->job->runtime ? cl->job->runtime : RS_TIME_MAX;
		rs_time_t ramp = f->group == 0 ? load->ramp_ns : 0;
		cl->deadline = run >= RS_TIME_MAX - sim->now - ramp ? RS_TIME_MAX
								    : sim->now + ramp + run;
		cl->seq_next = cl->start_blk;
		cl->next_allowed = sim->now;
		cl->active = cl->job->iodepth;
		f->group_active++;
	}
	for (size_t c = 0; c < f->nclones; c++) {
		struct clone *cl = &f->clones[c];
		if (cl->job->group != g)
			continue;
		for (uint64_t k = 0; k < cl->job->iodepth; k++) {
			if (clone_wants_more(sim, cl))
				slot_issue(sim, &cl->slots[k]);
			else
				slot_stop(sim, &cl->slots[k]);
		}
	}
}

static void fio_start(struct rs_sim *sim, struct rs_load *load)
{
	struct fio *f = load->priv;
	f->group = 0;
	group_start(sim, load);
}

static char *resolve_path(const struct rs_node *at, const char *file)
{
	const char *base = at->file;
	const char *slash = base ? strrchr(base, '/') : NULL;
	size_t dl = file[0] == '/' || !slash ? 0 : (size_t)(slash - base) + 1;
	size_t fl = strlen(file);
	char *s = malloc(dl + fl + 1);
	RS_ASSERT(s != NULL);
	memcpy(s, base, dl);
	memcpy(s + dl, file, fl + 1);
	return s;
}

static int job_error(struct rs_diag *d, const char *path, const struct rs_fio_job *j,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int job_error(struct rs_diag *d, const char *path, const struct rs_fio_job *j,
		     const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rs_diag_at(d, path, j->line, j->col, "job '%s': %s", j->name, msg);
}

/* The region and sizes of one job on this target: 0, or -1 with d set. */
static int clone_setup(struct clone *cl, const struct rs_fio_job *j, uint64_t cap,
		       const char *path, struct rs_diag *d)
{
	uint64_t offset = j->offset_pct > 0 ? (uint64_t)((double)cap * j->offset_pct / 100) :
					      j->offset;
	offset -= offset % RS_BLOCK_BYTES;
	if (offset >= cap)
		return job_error(d, path, j, "offset %llu is beyond the device (%llu bytes)",
				 (unsigned long long)offset, (unsigned long long)cap);
	uint64_t size = j->size_pct > 0 ? (uint64_t)((double)cap * j->size_pct / 100) : j->size;
	uint64_t region = j->filesize ? j->filesize : size ? size : cap - offset;
	region -= region % RS_BLOCK_BYTES;
	if (region > cap - offset)
		return job_error(d, path, j, "offset plus size (%llu bytes) ends beyond the "
				 "device (%llu bytes)", (unsigned long long)(offset + region),
				 (unsigned long long)cap);
	cl->job = j;
	cl->start_blk = offset / RS_BLOCK_BYTES;
	cl->len_blk = region / RS_BLOCK_BYTES;
	cl->amount = size ? size : region;
	double cum = 0;
	for (size_t i = 0; i < j->nlines; i++) {
		if (j->bs[i] % RS_BLOCK_BYTES)
			return job_error(d, path, j, "block size %llu is not a multiple of 512 "
					 "bytes", (unsigned long long)j->bs[i]);
		if (j->bs[i] > region || j->bs[i] > (1ull << 30))
			return job_error(d, path, j, "block size %llu is larger than its region "
					 "(%llu bytes) or 1 GiB", (unsigned long long)j->bs[i],
					 (unsigned long long)region);
		cl->nblk[i] = (uint32_t)(j->bs[i] / RS_BLOCK_BYTES);
		cl->positions[i] = (cl->len_blk - cl->nblk[i]) / cl->nblk[i] + 1;
		cum += j->share[i];
		cl->cum_share[i] = cum;
	}
	if (j->seq_skip % RS_BLOCK_BYTES)
		return job_error(d, path, j, "the skip of 'rw=...:N' must be a multiple of 512 "
				 "bytes");
	cl->gap = j->rate_iops > 0 ? rs_ns_from_double(1e9 / j->rate_iops) : 0;
	return 0;
}

/* A file of several groups (fio's report has one section each) gets
 * NAME_iops and NAME_mb_s per group, NAME its first job's, over the part
 * of the group inside the window; IOPS only when both do not fit. */
static void declare_group_figures(struct rs_load *load, struct fio *f)
{
	unsigned n = f->jobs.ngroups;
	size_t room = RS_LOAD_MAX_FIGURES - load->nfigures;
	f->figs_per_group = n < 2 ? 0 : 2 * n <= room ? 2 : n <= room ? 1 : 0;
	for (unsigned g = 0; g < n && f->figs_per_group; g++) {
		const char *name = NULL;
		for (size_t i = 0; i < f->jobs.njobs && !name; i++)
			if (f->jobs.job[i].group == g)
				name = f->jobs.job[i].name;
		/* A job's name may hold anything but ']': the column keeps
		 * letters, digits, '-', '.' and '_' (a tab would split the
		 * table). */
		char base[128], col[160];
		size_t len = 0;
		for (const char *c = name; *c && len < sizeof(base) - 1; c++)
			base[len++] = isalnum((unsigned char)*c) || strchr("-._", *c) ? *c : '_';
		base[len] = '\0';
		snprintf(col, sizeof(col), "%s_iops", base);
		f->groups[g].fig = rs_load_add_figure(load, rs_intern(col));
		if (f->figs_per_group == 2) {
			snprintf(col, sizeof(col), "%s_mb_s", base);
			rs_load_add_figure(load, rs_intern(col));
		}
	}
}

static void fill_group_figures(struct rs_load *load)
{
	struct fio *f = load->priv;
	rs_time_t open = load->t0 + load->ramp_ns, close = load->t_measure_end;
	for (unsigned g = 0; g < f->jobs.ngroups && f->figs_per_group; g++) {
		const struct group_result *gr = &f->groups[g];
		rs_time_t t0 = gr->t_start > open ? gr->t_start : open;
		rs_time_t t1 = gr->t_end && gr->t_end < close ? gr->t_end : close;
		double secs = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
		load->figures[gr->fig].value = secs > 0 ? (double)gr->ops / secs : 0;
		if (f->figs_per_group == 2)
			load->figures[gr->fig + 1].value = secs > 0 ? (double)gr->bytes / 1e6 / secs
								    : 0;
	}
}

static bool quiet;

void rs_fio_quiet(bool q) { quiet = q; }

/* Listed once per process: every point of a sweep builds the workload. */
static void list_ignored(const struct fio *f)
{
	static bool listed;
	if (quiet || listed || f->jobs.nignored == 0)
		return;
	listed = true;
	fprintf(stderr, "raidsim: %s: ignored (they do not change the I/O pattern):",
		f->file.path);
	for (size_t i = 0; i < f->jobs.nignored; i++)
		fprintf(stderr, "%s %s", i ? "," : "", f->jobs.ignored[i]);
	fputc('\n', stderr);
}

static int fio_init(struct rs_sim *sim, struct rs_load *load, const void *params,
		    const struct rs_node *node, struct rs_diag *d)
{
	const struct fio_params *p = params;
	const struct rs_node *file_node = node->kind == RS_NODE_SCALAR ? node
									: rs_node_get(node, "file");
	const char *name = node->kind == RS_NODE_SCALAR ? node->str : p->file;
	if (!name || !name[0])
		return rs_diag_node(d, file_node ? file_node : node, "empty fio job file name");
	struct fio *f = calloc(1, sizeof(*f));
	RS_ASSERT(f != NULL);
	load->priv = f;
	/* The path outlives the parse: diagnostics and the ignored list
	 * name it. */
	char *path = resolve_path(file_node, name);
	FILE *probe = fopen(path, "rb");
	if (!probe) {
		rs_diag_node(d, file_node, "cannot open fio job file '%s': %s", path,
			     strerror(errno));
		free(path);
		return -1;
	}
	fclose(probe);
	if (rs_fio_read(path, &f->file, d) != 0 || rs_fio_jobs_read(&f->file, &f->jobs, d) != 0) {
		f->file.path = NULL;
		free(path);
		return -1;
	}
	uint64_t cap = load->target->capacity_blk * RS_BLOCK_BYTES;
	uint64_t slots = 0;
	for (size_t i = 0; i < f->jobs.njobs; i++)
		slots += f->jobs.job[i].numjobs * f->jobs.job[i].iodepth;
	const struct rs_fio_job *j0 = &f->jobs.job[0];
	if (rs_load_check_slots(d, path, j0->line, j0->col, slots,
				"the jobs (numjobs x iodepth)") != 0)
		return -1;            /* the path is f->file's now */
	for (size_t i = 0; i < f->jobs.njobs; i++) {
		f->nclones += f->jobs.job[i].numjobs;
		if (node->kind == RS_NODE_MAP && p->runtime > 0)
			f->jobs.job[i].runtime = p->runtime;
	}
	f->clones = calloc(f->nclones, sizeof(*f->clones));
	RS_ASSERT(f->clones != NULL);
	size_t c = 0;
	bool flushes = false;
	for (size_t i = 0; i < f->jobs.njobs; i++) {
		const struct rs_fio_job *j = &f->jobs.job[i];
		flushes = flushes || j->flush_every;
		for (uint64_t k = 0; k < j->numjobs; k++, c++) {
			struct clone *cl = &f->clones[c];
			cl->load = load;
			if (clone_setup(cl, j, cap, path, d) != 0)
				return -1;
			cl->slots = calloc(j->iodepth, sizeof(*cl->slots));
			RS_ASSERT(cl->slots != NULL);
			for (uint64_t s = 0; s < j->iodepth; s++)
				cl->slots[s].cl = cl;
			/* The streams of the first clone are iometer's. */
			cl->rng_line = rs_sim_rng(sim, "iometer.line", (uint32_t)c);
			cl->rng_mix = rs_sim_rng(sim, "iometer.mix", (uint32_t)c);
			cl->rng_offset = rs_sim_rng(sim, "iometer.offset", (uint32_t)c);
		}
	}
	/* One group of time_based jobs has a known window, as iometer's:
	 * ramp, then the longest runtime.  Otherwise the window stays open
	 * until the last group is done. */
	const struct rs_fio_job *first = &f->jobs.job[0];
	load->ramp_ns = first->ramp;
	load->run_ns = RS_TIME_MAX;
	bool timed = f->jobs.ngroups == 1;
	rs_time_t longest = 0;
	for (size_t i = 0; i < f->jobs.njobs; i++) {
		const struct rs_fio_job *j = &f->jobs.job[i];
		timed = timed && j->time_based;
		longest = j->runtime > longest ? j->runtime : longest;
		if (j->group == 0 && j->ramp > load->ramp_ns)
			load->ramp_ns = j->ramp;
	}
	if (timed)
		load->run_ns = longest;
	if (flushes)
		rs_load_report_flushes(load);
	declare_group_figures(load, f);
	load->figures_fill = fill_group_figures;
	list_ignored(f);
	return 0;
}

static void fio_destroy(struct rs_load *load)
{
	struct fio *f = load->priv;
	if (!f)
		return;
	for (size_t c = 0; c < f->nclones; c++)
		free(f->clones[c].slots);
	free(f->clones);
	free((char *)f->file.path);
	rs_fio_free(&f->file);
	free(f);
}

const struct rs_load_type rs_load_fio = {
	.name = "fio",
	.help = "a fio job file: 'fio: job.fio' (its jobs, numjobs and iodepth, stonewall "
		"groups one after the other)",
	.opts = fio_opts,
	.params_size = sizeof(struct fio_params),
	.init = fio_init,
	.start = fio_start,
	.destroy = fio_destroy,
	.takes_file = true,
};
