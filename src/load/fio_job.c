#include "load/fio_job.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What fio does with these concerns the host, not the pattern on the
 * device: accepted and listed as ignored. */
static const char *const ignored_opts[] = {
	"ioengine", "filename", "name", "group_reporting", "directory", "description",
	"thread", "invalidate", "unlink", "create_serialize", "per_job_logs",
	"write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec", "lat_percentiles",
	"clat_percentiles", "percentile_list", "gtod_reduce", "disable_lat",
	"refill_buffers", "buffer_compress_percentage", "scramble_buffers", "randseed",
	"cpus_allowed", "exitall", "end_fsync", "overwrite", "fadvise_hint", "ioscheduler",
	"nice", "prio", "allow_mounted_write", "buffered", "file_service_type", "nrfiles",
	"openfiles", "lockfile", "output-format", "fallocate", "iodepth_batch",
	"iodepth_batch_complete", NULL,
};

static bool in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], key) == 0)
			return true;
	return false;
}

int rs_fio_parse_size(const char *s, unsigned base, uint64_t *bytes)
{
	char *end;
	errno = 0;
	if (!(*s >= '0' && *s <= '9'))
		return -1;
	double v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	static const char prefixes[] = "kmgtp";
	double mult = 1;
	if (*end) {
		const char *p = strchr(prefixes, (char)(*end | 0x20));
		bool iec = false;
		if (p) {
			end++;
			if (*end == 'i' || *end == 'I')
				iec = true, end++;
		}
		if (*end == 'b' || *end == 'B')
			end++;
		if (*end)
			return -1;
		/* fio's default kb_base=1024 turns the standards round: 4k and
		 * 4KB are 4096, 4KiB is 4000; kb_base=1000 puts them right. */
		unsigned b = (base == 1024) != iec ? 1024 : 1000;
		if (p)
			for (long n = p - prefixes; n >= 0; n--)
				mult *= b;
	}
	double r = v * mult;
	if (!(r >= 0) || r >= 1.8e19 || r != floor(r))
		return -1;
	*bytes = (uint64_t)r;
	return 0;
}

int rs_fio_parse_time(const char *s, rs_time_t unit_ns, rs_time_t *ns)
{
	static const struct { const char *suffix; double ns; } units[] = {
		{ "us", 1e3 }, { "usec", 1e3 }, { "ms", 1e6 }, { "msec", 1e6 }, { "s", 1e9 },
		{ "sec", 1e9 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	char *end;
	errno = 0;
	if (!(*s >= '0' && *s <= '9'))
		return -1;
	double v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	double mult = (double)unit_ns;
	if (*end) {
		size_t i = 0, n = sizeof(units) / sizeof(units[0]);
		while (i < n && strcasecmp(end, units[i].suffix) != 0)
			i++;
		if (i == n)
			return -1;
		mult = units[i].ns;
	}
	double r = v * mult;
	if (!(r >= 0) || r >= 4e18)
		return -1;
	*ns = (rs_time_t)llround(r);
	return 0;
}

/* What reading one job needs besides the job. */
struct reader {
	const struct rs_fio_file *f;
	struct rs_diag *d;
	unsigned kb_base;
	struct rs_fio_jobs *out;
};

static int bad(const struct reader *r, const struct rs_fio_opt *o, const char *what)
{
	return rs_diag_at(r->d, r->f->path, o->line, o->val ? o->val_col : o->col,
			  "'%s': expected %s%s%s%s", o->key, what, o->val ? ", got '" : "",
			  o->val ? o->val : "", o->val ? "'" : "");
}

static int need_value(const struct reader *r, const struct rs_fio_opt *o)
{
	if (o->val)
		return 0;
	return rs_diag_at(r->d, r->f->path, o->line, o->col, "'%s' needs a value ('%s=...')",
			  o->key, o->key);
}

static int get_uint(const struct reader *r, const struct rs_fio_opt *o, uint64_t min,
		    uint64_t max, uint64_t *v)
{
	char *end;
	if (need_value(r, o))
		return -1;
	errno = 0;
	unsigned long long n = strtoull(o->val, &end, 10);
	if (o->val[0] < '0' || o->val[0] > '9' || *end || errno || n < min || n > max) {
		char what[96];
		snprintf(what, sizeof(what), "a whole number from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(r, o, what);
	}
	*v = n;
	return 0;
}

static int get_bool(const struct reader *r, const struct rs_fio_opt *o, bool *v)
{
	if (!o->val || strcmp(o->val, "1") == 0 || strcasecmp(o->val, "true") == 0) {
		*v = true;
		return 0;
	}
	if (strcmp(o->val, "0") == 0 || strcasecmp(o->val, "false") == 0) {
		*v = false;
		return 0;
	}
	return bad(r, o, "0 or 1");
}

static int get_size(const struct reader *r, const struct rs_fio_opt *o, uint64_t *v)
{
	if (need_value(r, o))
		return -1;
	if (strchr(o->val, ','))
		return bad(r, o, "one size (separate read and write values, 'r,w', are not "
				 "supported)");
	if (rs_fio_parse_size(o->val, r->kb_base, v) != 0)
		return bad(r, o, "a size such as 4k, 64KiB or 1g");
	return 0;
}

/* size=, offset=: bytes, or a percentage of the device. */
static int get_size_or_pct(const struct reader *r, const struct rs_fio_opt *o, uint64_t *v,
			   double *pct)
{
	if (need_value(r, o))
		return -1;
	size_t n = strlen(o->val);
	if (n > 1 && o->val[n - 1] == '%') {
		char *end;
		double p = strtod(o->val, &end);
		if (end != o->val + n - 1 || !(p > 0 && p <= 100))
			return bad(r, o, "a percentage of the device above 0% and at most 100%");
		*pct = p;
		*v = 0;
		return 0;
	}
	*pct = 0;
	return get_size(r, o, v);
}

static int get_time(const struct reader *r, const struct rs_fio_opt *o, rs_time_t unit,
		    rs_time_t *v)
{
	if (need_value(r, o))
		return -1;
	if (rs_fio_parse_time(o->val, unit, v) != 0)
		return bad(r, o, unit == 1000 ? "a time such as 100 (microseconds), 5ms or 1s"
					      : "a time such as 30 (seconds), 500ms or 2m");
	return 0;
}

static int get_rw(const struct reader *r, const struct rs_fio_opt *o, struct rs_fio_job *j)
{
	static const struct { const char *name; double read; bool random; } modes[] = {
		{ "read", 100, false }, { "write", 0, false }, { "randread", 100, true },
		{ "randwrite", 0, true }, { "rw", -1, false }, { "readwrite", -1, false },
		{ "randrw", -1, true },
	};
	if (need_value(r, o))
		return -1;
	const char *colon = strchr(o->val, ':');
	size_t len = colon ? (size_t)(colon - o->val) : strlen(o->val);
	size_t i = 0, n = sizeof(modes) / sizeof(modes[0]);
	while (i < n && !(strlen(modes[i].name) == len && strncmp(modes[i].name, o->val, len) == 0))
		i++;
	if (i == n)
		return bad(r, o, "read, write, randread, randwrite, rw, readwrite or randrw "
				 "(trim modes are not supported)");
	j->mode_read = modes[i].read;
	j->random = modes[i].random;
	j->seq_skip = 0;
	j->random_run = 0;
	if (colon) {
		uint64_t v;
		if (j->random) {
			char *end;
			errno = 0;
			unsigned long long k = strtoull(colon + 1, &end, 10);
			if (colon[1] < '0' || colon[1] > '9' || *end || errno || k < 1 ||
			    k > 1u << 20)
				return bad(r, o, "'randrw:N' with N from 1 to 1048576 (I/Os "
						 "before a new random offset)");
			j->random_run = k;
		} else {
			if (rs_fio_parse_size(colon + 1, r->kb_base, &v) != 0)
				return bad(r, o, "'write:N' with N a size skipped after each I/O");
			j->seq_skip = v;
		}
	}
	return 0;
}

/* bssplit=4k/10:64k/50:32k: sizes with their % of I/Os; sizes without a
 * share divide what the others leave, as fio does. */
static int get_bssplit(const struct reader *r, const struct rs_fio_opt *o, struct rs_fio_job *j)
{
	if (need_value(r, o))
		return -1;
	if (strchr(o->val, ','))
		return bad(r, o, "one split (separate read and write splits, 'r,w', are not "
				 "supported)");
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", o->val);
	size_t n = 0, unshared = 0;
	double given = 0;
	for (char *save = NULL, *item = strtok_r(buf, ":", &save); item;
	     item = strtok_r(NULL, ":", &save)) {
		if (n == RS_SPEC_MAX_LINES)
			return bad(r, o, "at most 32 block sizes");
		char *slash = strchr(item, '/');
		if (slash)
			*slash = '\0';
		if (rs_fio_parse_size(item, r->kb_base, &j->bs[n]) != 0 || j->bs[n] == 0)
			return bad(r, o, "SIZE/PERCENT items separated by ':', e.g. 4k/30:64k/70");
		j->share[n] = -1;
		if (slash && slash[1]) {
			char *end;
			double p = strtod(slash + 1, &end);
			if (*end || !(p >= 0 && p <= 100))
				return bad(r, o, "SIZE/PERCENT items with percentages from 0 to "
						 "100");
			j->share[n] = p;
			given += p;
		} else {
			unshared++;
		}
		n++;
	}
	if (n == 0 || given > 100 + 1e-9 || (unshared == 0 && fabs(given - 100) > 1e-6))
		return bad(r, o, "percentages adding up to 100");
	for (size_t i = 0; i < n; i++)
		if (j->share[i] < 0)
			j->share[i] = (100 - given) / (double)unshared;
	j->nlines = n;
	return 0;
}

/* bsrange=512-4k: every multiple of the smallest size up to the largest,
 * as fio draws them, each as likely. */
static int get_bsrange(const struct reader *r, const struct rs_fio_opt *o, struct rs_fio_job *j)
{
	if (need_value(r, o))
		return -1;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", o->val);
	char *dash = strchr(buf, '-');
	uint64_t lo, hi;
	if (strchr(buf, ',') || !dash)
		return bad(r, o, "MIN-MAX, e.g. 4k-64k");
	*dash = '\0';
	if (rs_fio_parse_size(buf, r->kb_base, &lo) != 0 ||
	    rs_fio_parse_size(dash + 1, r->kb_base, &hi) != 0 || lo == 0 || hi < lo)
		return bad(r, o, "MIN-MAX with 0 < MIN <= MAX, e.g. 4k-64k");
	uint64_t n = hi / lo;
	if (n > RS_SPEC_MAX_LINES)
		return bad(r, o, "a range of at most 32 multiples of its smallest size");
	for (uint64_t i = 0; i < n; i++) {
		j->bs[i] = lo * (i + 1);
		j->share[i] = 100.0 / (double)n;
	}
	j->nlines = n;
	return 0;
}

static int apply(struct reader *r, const struct rs_fio_opt *o, struct rs_fio_job *j)
{
	const char *k = o->key;
	uint64_t u;
	bool b;
	if (strcmp(k, "rw") == 0 || strcmp(k, "readwrite") == 0)
		return get_rw(r, o, j);
	if (strcmp(k, "rwmixread") == 0 || strcmp(k, "rwmixwrite") == 0) {
		if (get_uint(r, o, 0, 100, &u))
			return -1;
		j->mix_read = k[5] == 'r' ? (double)u : 100.0 - (double)u;
		return 0;
	}
	if (strcmp(k, "bs") == 0 || strcmp(k, "blocksize") == 0) {
		if (get_size(r, o, &u))
			return -1;
		if (u == 0)
			return bad(r, o, "a block size above 0");
		j->nlines = 1;
		j->bs[0] = u;
		j->share[0] = 100;
		return 0;
	}
	if (strcmp(k, "bsrange") == 0 || strcmp(k, "blocksize_range") == 0)
		return get_bsrange(r, o, j);
	if (strcmp(k, "bssplit") == 0)
		return get_bssplit(r, o, j);
	if (strcmp(k, "iodepth") == 0)
		return get_uint(r, o, 1, 65536, &j->iodepth);
	if (strcmp(k, "numjobs") == 0)
		return get_uint(r, o, 1, 1024, &j->numjobs);
	if (strcmp(k, "size") == 0)
		return get_size_or_pct(r, o, &j->size, &j->size_pct);
	if (strcmp(k, "offset") == 0)
		return get_size_or_pct(r, o, &j->offset, &j->offset_pct);
	if (strcmp(k, "filesize") == 0)
		return get_size(r, o, &j->filesize);
	if (strcmp(k, "runtime") == 0 || strcmp(k, "timeout") == 0)
		return get_time(r, o, 1000000000, &j->runtime);
	if (strcmp(k, "ramp_time") == 0)
		return get_time(r, o, 1000000000, &j->ramp);
	if (strcmp(k, "thinktime") == 0)
		return get_time(r, o, 1000, &j->thinktime);
	if (strcmp(k, "time_based") == 0)
		return get_bool(r, o, &j->time_based);
	if (strcmp(k, "rate_iops") == 0) {
		if (need_value(r, o))
			return -1;
		if (strchr(o->val, ','))
			return bad(r, o, "one rate (separate read and write rates are not "
					 "supported)");
		if (get_uint(r, o, 0, 100000000, &u))
			return -1;
		j->rate_iops = (double)u;
		return 0;
	}
	if (strcmp(k, "fsync") == 0 || strcmp(k, "fdatasync") == 0)
		return get_uint(r, o, 0, 1u << 30, &j->flush_every);
	if (strcmp(k, "sync") == 0) {
		if (o->val && (strcmp(o->val, "sync") == 0 || strcmp(o->val, "dsync") == 0)) {
			j->flush_every = 1;
			return 0;
		}
		if (o->val && strcmp(o->val, "none") == 0) {
			j->flush_every = 0;
			return 0;
		}
		if (get_bool(r, o, &b))
			return -1;
		j->flush_every = b ? 1 : 0;
		return 0;
	}
	/* The simulated device has no page cache: every I/O reaches it, as
	 * with direct=1; random offsets are drawn independently, as with
	 * norandommap; and every run is repeatable, as randrepeat asks. */
	if (strcmp(k, "direct") == 0 || strcmp(k, "randrepeat") == 0 ||
	    strcmp(k, "norandommap") == 0)
		return get_bool(r, o, &b);
	if (strcmp(k, "stonewall") == 0 || strcmp(k, "wait_for_previous") == 0)
		return 0;             /* read with the sections */
	if (strcmp(k, "kb_base") == 0) {
		if (get_uint(r, o, 1000, 1024, &u) || (u != 1000 && u != 1024))
			return bad(r, o, "1000 or 1024");
		r->kb_base = (unsigned)u;
		return 0;
	}
	if (in_list(ignored_opts, k)) {
		struct rs_fio_jobs *out = r->out;
		for (size_t i = 0; i < out->nignored; i++)
			if (strcmp(out->ignored[i], k) == 0)
				return 0;
		if (out->nignored < RS_FIO_MAX_IGNORED)
			out->ignored[out->nignored++] = k;
		return 0;
	}
	return rs_diag_at(r->d, r->f->path, o->line, o->col,
			  "unsupported fio option '%s' (it would change the I/O pattern in a way "
			  "raidsim does not model)", k);
}

static void job_defaults(struct rs_fio_job *j)
{
	memset(j, 0, sizeof(*j));
	j->nlines = 1;
	j->bs[0] = 4096;
	j->share[0] = 100;
	j->mode_read = 100;
	j->mix_read = 50;
	j->iodepth = 1;
	j->numjobs = 1;
}

/* rwmixread may come before or after rw: only a mixing mode takes it. */
static void settle_mix(struct rs_fio_job *j)
{
	j->read = j->mode_read >= 0 ? j->mode_read : j->mix_read;
}

static bool has_opt(const struct rs_fio_section *s, const char *key)
{
	for (size_t i = 0; i < s->nopts; i++)
		if (strcmp(s->opts[i].key, key) == 0)
			return true;
	return false;
}

int rs_fio_jobs_read(const struct rs_fio_file *f, struct rs_fio_jobs *out, struct rs_diag *d)
{
	memset(out, 0, sizeof(*out));
	struct reader r = { f, d, 1024, out };
	/* Options of the [global] sections seen so far, in order. */
	const struct rs_fio_section *globals[64];
	size_t nglobals = 0;
	unsigned group = 0;
	for (size_t s = 0; s < f->nsecs; s++) {
		const struct rs_fio_section *sec = &f->secs[s];
		if (strcmp(sec->name, "global") == 0) {
			if (nglobals == 64)
				return rs_diag_at(d, f->path, sec->line, sec->col,
						  "too many [global] sections (at most 64)");
			globals[nglobals++] = sec;
			/* Checked now, so an error points at the global option. */
			struct rs_fio_job scratch;
			job_defaults(&scratch);
			for (size_t g = 0; g < nglobals; g++)
				for (size_t i = 0; i < globals[g]->nopts; i++)
					if (apply(&r, &globals[g]->opts[i], &scratch) != 0)
						return -1;
			r.kb_base = 1024;
			continue;
		}
		if (out->njobs == RS_FIO_MAX_JOBS)
			return rs_diag_at(d, f->path, sec->line, sec->col,
					  "too many jobs (at most %d)", RS_FIO_MAX_JOBS);
		struct rs_fio_job *j = &out->job[out->njobs];
		job_defaults(j);
		j->name = sec->name;
		j->line = sec->line;
		j->col = sec->col;
		r.kb_base = 1024;
		bool wall = false;
		for (size_t g = 0; g < nglobals; g++) {
			wall = wall || has_opt(globals[g], "stonewall") ||
			       has_opt(globals[g], "wait_for_previous");
			for (size_t i = 0; i < globals[g]->nopts; i++)
				if (apply(&r, &globals[g]->opts[i], j) != 0)
					return -1;
		}
		for (size_t i = 0; i < sec->nopts; i++)
			if (apply(&r, &sec->opts[i], j) != 0)
				return -1;
		settle_mix(j);
		wall = wall || has_opt(sec, "stonewall") || has_opt(sec, "wait_for_previous");
		if (wall && out->njobs > 0)
			group++;
		j->group = group;
		if (j->time_based && j->runtime == 0)
			return rs_diag_at(d, f->path, sec->line, sec->col,
					  "job '%s' is time_based but has no runtime: it would "
					  "never end", j->name);
		out->njobs++;
	}
	if (out->njobs == 0)
		return rs_diag_at(d, f->path, f->nsecs ? f->secs[0].line : 1, 1,
				  "no job in the file (only [global] sections)");
	out->ngroups = group + 1;
	return 0;
}
