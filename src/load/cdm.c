/* CrystalDiskMark 5.1, one row of its table per run.
 *
 * CrystalDiskMark runs Microsoft's DiskSpd on a test file: for each row it
 * runs the read test `passes` times for `pass_time` each, then the write
 * test likewise, and shows the best pass of each.  Here:
 *
 *   preparation  the test file is written once, sequentially, before the
 *                first read pass (CDM creates and fills it first); it is
 *                not measured and `prepare: false` skips it;
 *   passes       each is a timed phase (load/phase.h): `threads` threads
 *                keep `queue_depth` requests each in flight for
 *                `pass_time`; only requests completing inside that time
 *                count; the rest drain before the next pass, which starts
 *                after `interval` of idle time;
 *   scores       per phase, the pass with the most bytes: its MB/s
 *                (MB = 10^6 bytes, as CDM prints), its IOPS and its mean
 *                response time.
 *
 * The generic columns (IOPS and MB/s over the whole window) would mix the
 * preparation, both phases and the idle gaps, so the table has only this
 * workload's figures.  The request log still covers the whole run. */
#include "load/cdm.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

enum pattern { PAT_SEQUENTIAL, PAT_RANDOM };
static const char *const pattern_names[] = { "sequential", "random", NULL };

/* CrystalDiskMark 5.1's four rows, in its order. */
struct row {
	uint64_t block;
	enum pattern pattern;
	uint32_t queue_depth, threads;
};
static const char *const test_names[] = { "seq-q32t1", "4k-q32t1", "seq", "4k", NULL };
static const struct row rows[] = {
	{ 128 << 10, PAT_SEQUENTIAL, 32, 1 },
	{ 4 << 10, PAT_RANDOM, 32, 1 },
	{ 1 << 20, PAT_SEQUENTIAL, 1, 1 },
	{ 4 << 10, PAT_RANDOM, 1, 1 },
};

/* The preparation writes the file in 1 MiB requests, one at a time.
 * estimate: CDM's file creation is not documented; large sequential writes
 * through the file system, as any file copy of the time. */
#define PREP_BLOCK_BYTES (1u << 20)

struct cdm_params {
	int test;                     /* index into rows */
	uint64_t block, queue_depth, threads;   /* overrides, used only when present */
	int pattern;                  /* override */
	uint64_t passes;
	rs_time_t pass_time, interval;
	uint64_t file_size, offset;
	bool prepare;
};

#define P(f) offsetof(struct cdm_params, f)
static const struct rs_opt cdm_opts[] = {
	{ "test", RS_OPT_ENUM, P(test), "seq-q32t1", 0, 0, 0, test_names,
	  "the row: seq-q32t1 (128 KiB sequential, QD32), 4k-q32t1 (4 KiB random, QD32), "
	  "seq (1 MiB sequential, QD1), 4k (4 KiB random, QD1); one thread each" },
	{ "block", RS_OPT_SIZE, P(block), NULL, RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512,
	  1 << 30, NULL, "request size (default: the row's)" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), NULL, RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1,
	  1024, NULL, "requests in flight per thread (default: the row's)" },
	{ "threads", RS_OPT_UINT, P(threads), NULL, RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1,
	  RS_PHASE_MAX_THREADS, NULL,
	  "threads, each with its own queue and sequential cursor (default: the row's)" },
	{ "pattern", RS_OPT_ENUM, P(pattern), NULL, 0, 0, 0, pattern_names,
	  "sequential, or random offsets aligned to the request size (default: the row's)" },
	{ "passes", RS_OPT_UINT, P(passes), "5", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 1000,
	  NULL, "passes per phase; the best one is the score" },
	{ "pass_time", RS_OPT_TIME, P(pass_time), "5s", RS_OPT_POSITIVE | RS_OPT_HAS_MAX, 0,
	  3600e9, NULL, "length of one pass" },
	{ "interval", RS_OPT_TIME, P(interval), "0s", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 0,
	  3600e9, NULL, "idle time between passes (CDM's Interval setting)" },
	{ "file_size", RS_OPT_SIZE, P(file_size), "1000MiB", RS_OPT_HAS_MIN, 512, 0, NULL,
	  "size of the test file" },
	{ "offset", RS_OPT_SIZE, P(offset), "0B", 0, 0, 0, NULL,
	  "where the test file starts on the target" },
	{ "prepare", RS_OPT_BOOL, P(prepare), "true", 0, 0, 0, NULL,
	  "write the test file once before the read passes (not measured)" },
	RS_OPT_END
};
#undef P

static const char *const figure_names[RS_CDM_FIGURES] = {
#define X(name, str) str,
	RS_CDM_FIGURE_LIST(X)
#undef X
};

enum stage { ST_PREP, ST_READ, ST_WRITE };

struct cdm {
	struct rs_phase ph;
	struct rs_phase_spec prep_spec, pass_spec[2];
	size_t passes;
	rs_time_t interval;
	bool prepare;
	struct rs_event_handle idle;  /* the interval before the next pass */
	enum stage stage;
	size_t pass;                  /* within the stage */
	struct rs_phase_result prep;
	struct rs_phase_result *results;   /* [2 * passes]: read passes, then write passes */
	size_t best[2];
	uint64_t errors;
};

static void pass_start(struct rs_sim *sim, struct rs_load *load)
{
	struct cdm *c = load->priv;
	rs_phase_start(sim, &c->ph, &c->pass_spec[c->stage == ST_WRITE]);
}

static void idle_over(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	struct cdm *c = load->priv;
	c->idle = RS_NO_EVENT;
	if (!load->stopped)
		pass_start(sim, load);
}

/* The best pass moved the most bytes; the first of equals wins. */
static size_t best_pass(const struct rs_phase_result *r, size_t n)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (r[i].bytes > r[best].bytes)
			best = i;
	return best;
}

static void finish(struct rs_sim *sim, struct rs_load *load)
{
	struct cdm *c = load->priv;
	for (int w = 0; w < 2; w++) {
		const struct rs_phase_result *r = c->results + (size_t)w * c->passes;
		c->best[w] = best_pass(r, c->passes);
		const struct rs_phase_result *b = &r[c->best[w]];
		load->figures[RS_CDM_READ_MBPS + w].value = rs_phase_mb_s(b, 1e6);
		load->figures[RS_CDM_READ_IOPS + w].value = rs_phase_iops(b);
		load->figures[RS_CDM_READ_LAT_MS + w].value = rs_phase_lat_ms(b);
	}
	load->figures[RS_CDM_ERRORS].value = (double)c->errors;
	rs_load_finish(sim, load);
}

static void phase_done(struct rs_sim *sim, struct rs_phase *ph)
{
	struct rs_load *load = ph->ctx;
	struct cdm *c = load->priv;
	c->errors += ph->res.errors;
	if (c->stage == ST_PREP) {
		c->prep = ph->res;
		c->stage = ST_READ;
		c->pass = 0;
	} else {
		c->results[(c->stage == ST_WRITE ? c->passes : 0) + c->pass] = ph->res;
		if (++c->pass == c->passes) {
			if (c->stage == ST_WRITE) {
				finish(sim, load);
				return;
			}
			c->stage = ST_WRITE;
			c->pass = 0;
		}
		/* The window was cut short (by `run` at most): stop here. */
		if (load->stopped)
			return;
		if (c->interval > 0) {
			c->idle = rs_sched(sim, c->interval, idle_over, load, NULL);
			return;
		}
	}
	if (!load->stopped)
		pass_start(sim, load);
}

static void cdm_start(struct rs_sim *sim, struct rs_load *load)
{
	struct cdm *c = load->priv;
	c->pass = 0;
	c->errors = 0;
	if (c->prepare) {
		c->stage = ST_PREP;
		rs_phase_start(sim, &c->ph, &c->prep_spec);
	} else {
		c->stage = ST_READ;
		pass_start(sim, load);
	}
}

static int cdm_init(struct rs_sim *sim, struct rs_load *load, const void *params,
		    const struct rs_node *node, struct rs_diag *d)
{
	const struct cdm_params *p = params;
	struct row row = rows[p->test];
	if (rs_node_get(node, "block"))
		row.block = p->block;
	if (rs_node_get(node, "queue_depth"))
		row.queue_depth = (uint32_t)p->queue_depth;
	if (rs_node_get(node, "threads"))
		row.threads = (uint32_t)p->threads;
	if (rs_node_get(node, "pattern"))
		row.pattern = (enum pattern)p->pattern;

	if (rs_load_check_sectors(node, "block", row.block, d) || rs_load_check_sectors(node, "file_size", p->file_size, d) ||
	    rs_load_check_sectors(node, "offset", p->offset, d))
		return -1;
	if (row.block > p->file_size)
		return rs_diag_node(d, rs_node_get_or(node, "file_size"),
				    "'file_size' (%llu bytes) is smaller than one request (%llu bytes)",
				    (unsigned long long)p->file_size, (unsigned long long)row.block);
	uint64_t cap = load->target->capacity_blk * RS_BLOCK_BYTES;
	if (p->offset >= cap || p->file_size > cap - p->offset)
		return rs_diag_node(d, rs_node_get_or(node, rs_node_get(node, "file_size") ? "file_size" : "offset"),
				    "test file of %llu bytes at offset %llu ends beyond the device "
				    "(%llu bytes)",
				    (unsigned long long)p->file_size, (unsigned long long)p->offset,
				    (unsigned long long)cap);

	struct cdm *c = calloc(1, sizeof(*c));
	RS_ASSERT(c != NULL);
	load->priv = c;
	c->passes = (size_t)p->passes;
	c->results = calloc(2 * c->passes, sizeof(*c->results));
	RS_ASSERT(c->results != NULL);
	c->interval = p->interval;
	c->prepare = p->prepare;

	struct rs_phase_spec pass = {
		.random = row.pattern == PAT_RANDOM,
		.nblk = (uint32_t)(row.block / RS_BLOCK_BYTES),
		.start_blk = p->offset / RS_BLOCK_BYTES,
		.len_blk = p->file_size / RS_BLOCK_BYTES,
		.threads = row.threads,
		.depth = row.queue_depth,
		.duration = p->pass_time,
	};
	c->pass_spec[0] = pass;
	c->pass_spec[0].op = RS_READ;
	c->pass_spec[1] = pass;
	c->pass_spec[1].op = RS_WRITE;
	c->prep_spec = (struct rs_phase_spec){
		.op = RS_WRITE,
		.nblk = PREP_BLOCK_BYTES / RS_BLOCK_BYTES,
		.start_blk = pass.start_blk,
		.len_blk = pass.len_blk,
		.threads = 1,
		.depth = 1,
	};
	/* A file smaller than one preparation request is written at once. */
	if (c->prep_spec.nblk > c->prep_spec.len_blk)
		c->prep_spec.nblk = (uint32_t)c->prep_spec.len_blk;
	rs_phase_init(&c->ph, load, rs_sim_rng(sim, "cdm.offset", 0), phase_done, load);

	/* The run ends when the last pass has drained: no ramp, and a `run`
	 * far beyond any sensible benchmark (about 115 simulated days). */
	load->ramp_ns = 0;
	load->run_ns = (rs_time_t)1e16;
	load->max_ops = 0;
	for (size_t i = 0; i < RS_CDM_FIGURES; i++)
		rs_load_add_figure(load, figure_names[i]);
	load->figures_only = true;
	return 0;
}

static void cdm_destroy(struct rs_load *load)
{
	struct cdm *c = load->priv;
	if (!c)
		return;
	free(c->results);
	free(c);
	load->priv = NULL;
}

void rs_cdm_info(const struct rs_load *load, struct rs_cdm_info *out)
{
	RS_ASSERT(load->type == &rs_load_cdm);
	const struct cdm *c = load->priv;
	memset(out, 0, sizeof(*out));
	out->read = c->pass_spec[0];
	out->write = c->pass_spec[1];
	out->passes = c->passes;
	out->best[0] = c->best[0];
	out->best[1] = c->best[1];
	out->prepared = c->prepare;
	out->prep = c->prep;
}

const struct rs_phase_result *rs_cdm_pass(const struct rs_load *load, int write, size_t pass)
{
	RS_ASSERT(load->type == &rs_load_cdm);
	const struct cdm *c = load->priv;
	RS_ASSERT(pass < c->passes);
	return &c->results[(write ? c->passes : 0) + pass];
}

const struct rs_load_type rs_load_cdm = {
	.name = "cdm",
	.help = "CrystalDiskMark 5.1: one row (test: seq-q32t1, 4k-q32t1, seq, 4k), the test "
		"file written once, then read and write, each the best of `passes` timed passes; "
		"columns read_MBps/write_MBps (MB = 10^6 B, as CDM), read_iops/write_iops, "
		"read_lat_ms/write_lat_ms (mean response time of the best pass) and errors "
		"(failed requests); the generic iops/mb_s/latency columns are left out",
	.opts = cdm_opts,
	.params_size = sizeof(struct cdm_params),
	.init = cdm_init,
	.start = cdm_start,
	.destroy = cdm_destroy,
};
