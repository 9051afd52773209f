/* The IOMeter workload, as IOMeter's worker (Grunt) behaves: closed loop
 * with `outstanding` requests per target (a completion issues the next
 * request at once), the access-spec line chosen per request by its share,
 * read or write and random or sequential drawn per request, random offsets
 * aligned to the transfer size, sequential offsets continuing from the
 * previous request of the same target and wrapping at the end of the
 * range.  An open-loop mode issues at Poisson arrival times instead. */
#include "load/iometer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "kernel/assert.h"
#include "load/iometer_specs.h"

struct iometer_params {
	struct rs_load_common common;
	const char *spec;
	const struct rs_node *lines;
	double read, random;          /* overrides, used only when present */
	uint64_t size, align;         /* overrides, used only when present */
	uint64_t outstanding;
	double rate;                  /* open loop: requests/s; 0 = closed loop */
	uint64_t range, offset;
	bool sync;
	uint64_t flush_every;
};

static const struct rs_opt iometer_opts[] = {
	RS_LOAD_COMMON_OPTS(struct iometer_params),
	{ "spec", RS_OPT_STR, offsetof(struct iometer_params, spec), NULL, 0, 0, 0, NULL,
	  "named access spec: database, fileserver, webserver, workstation, seqread, "
	  "seqwrite, default" },
	{ "lines", RS_OPT_NODE, offsetof(struct iometer_params, lines), NULL, 0, 0, 0, NULL,
	  "inline access spec: list of {size, share, read, random, align}" },
	{ "read", RS_OPT_PERCENT, offsetof(struct iometer_params, read), "0%", 0, 0, 0, NULL,
	  "override the read share of every line" },
	{ "random", RS_OPT_PERCENT, offsetof(struct iometer_params, random), "0%", 0, 0, 0,
	  NULL, "override the random share of every line" },
	{ "size", RS_OPT_SIZE, offsetof(struct iometer_params, size), "512B",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1ull << 30, NULL,
	  "override the transfer size (single-line specs)" },
	{ "align", RS_OPT_SIZE, offsetof(struct iometer_params, align), "512B",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1ull << 30, NULL,
	  "override the alignment of random offsets (default: the transfer size)" },
	{ "outstanding", RS_OPT_UINT, offsetof(struct iometer_params, outstanding), "1",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 1 << 20, NULL,
	  "requests kept in flight (closed loop)" },
	{ "rate", RS_OPT_DOUBLE, offsetof(struct iometer_params, rate), "0", RS_OPT_HAS_MIN, 0,
	  0, NULL, "open loop: Poisson arrivals per second (0 = closed loop)" },
	{ "range", RS_OPT_SIZE, offsetof(struct iometer_params, range), "0B", 0, 0, 0, NULL,
	  "size of the address range tested (0 = the whole device)" },
	{ "offset", RS_OPT_SIZE, offsetof(struct iometer_params, offset), "0B", 0, 0, 0, NULL,
	  "start of the address range" },
	{ "sync", RS_OPT_BOOL, offsetof(struct iometer_params, sync), "false", 0, 0, 0, NULL,
	  "every write followed by a flush before the slot issues again (O_DSYNC; "
	  "closed loop)" },
	{ "flush_every", RS_OPT_UINT, offsetof(struct iometer_params, flush_every), "0", 0, 0,
	  0, NULL, "a flush after every N writes of a slot, waited for (0 = none; closed "
	  "loop)" },
	RS_OPT_END
};

struct line {
	uint32_t nblk;
	uint32_t align_blk;
	double cum_share;             /* cumulative, 0..100 */
	double read, random;
	uint64_t slots;               /* aligned random positions in the range */
};

/* One of the `outstanding` closed-loop issuers, as a thread of its own:
 * only needed to count its writes up to the next flush. */
struct slot {
	struct rs_load *load;
	uint64_t writes;
};

struct iometer {
	struct line lines[RS_SPEC_MAX_LINES];
	size_t nlines;
	uint64_t start_blk, range_blk;
	uint64_t seq_next;            /* next sequential LBA, shared by all slots */
	uint64_t outstanding;
	double rate;
	bool closed_loop;             /* rate == 0, tested once a request as a flag */
	struct rs_event_handle arrival;
	uint64_t flush_every;         /* 0: no flushes */
	struct slot *slots;           /* `outstanding` of them when flushing */
	gsl_rng *rng_line, *rng_mix, *rng_random, *rng_offset, *rng_arrival;
};

static void issue_one(struct rs_sim *sim, struct rs_load *load);

static void request_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	struct iometer *im = load->priv;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (more && im->closed_loop)
		issue_one(sim, load);
}

/* The next request of the spec (the streams drawn in one fixed order).
 * Inlined in both its callers, once a request: its results then stay in
 * registers, and its own frame goes. */
static inline __attribute__((always_inline)) void next_request(struct rs_load *load,
							       enum rs_op *op,
							       uint64_t *lba_out,
							       uint32_t *nblk)
{
	struct iometer *im = load->priv;
	const struct line *ln = &im->lines[0];
	if (im->nlines > 1) {
		double u = gsl_rng_uniform(im->rng_line) * 100.0;
		size_t i = 0;
		while (i + 1 < im->nlines && u >= im->lines[i].cum_share)
			i++;
		ln = &im->lines[i];
	}
	bool is_read = ln->read >= 100 ||
		       (ln->read > 0 && gsl_rng_uniform(im->rng_mix) * 100.0 < ln->read);
	bool is_random = ln->random >= 100 ||
			 (ln->random > 0 && gsl_rng_uniform(im->rng_random) * 100.0 < ln->random);
	uint64_t lba;
	if (is_random) {
		lba = im->start_blk + rs_rng_uniform_u64(im->rng_offset, ln->slots) * ln->align_blk;
	} else {
		if (im->seq_next + ln->nblk > im->start_blk + im->range_blk)
			im->seq_next = im->start_blk;
		lba = im->seq_next;
		im->seq_next += ln->nblk;
	}
	*op = is_read ? RS_READ : RS_WRITE;
	*lba_out = lba;
	*nblk = ln->nblk;
}

static void slot_done(struct rs_sim *sim, struct rs_io *io);

static void issue_one(struct rs_sim *sim, struct rs_load *load)
{
	enum rs_op op;
	uint64_t lba;
	uint32_t nblk;
	next_request(load, &op, &lba, &nblk);
	rs_load_issue(sim, load, op, lba, nblk, request_done);
}

static void slot_issue(struct rs_sim *sim, struct slot *sl)
{
	enum rs_op op;
	uint64_t lba;
	uint32_t nblk;
	next_request(sl->load, &op, &lba, &nblk);
	rs_load_issue_ctx(sim, sl->load, op, lba, nblk, slot_done, sl);
}

/* A write of a flushing slot: its flush goes out once the write is done
 * and the slot issues nothing else until the flush is (the O_DSYNC
 * pattern: write, then fsync, then the next write). */
static void slot_done(struct rs_sim *sim, struct rs_io *io)
{
	struct slot *sl = io->done_ctx;
	struct rs_load *load = sl->load;
	const struct iometer *im = load->priv;
	bool wrote = io->op == RS_WRITE;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (!more)
		return;
	if (wrote && ++sl->writes % im->flush_every == 0)
		rs_load_issue_ctx(sim, load, RS_FLUSH, 0, 0, slot_done, sl);
	else
		slot_issue(sim, sl);
}



static void arrival(struct rs_sim *sim, void *obj, void *arg)
{
	struct rs_load *load = obj;
	struct iometer *im = load->priv;
	im->arrival = RS_NO_EVENT;
	if (load->stopped)
		return;
	issue_one(sim, load);
	double gap = gsl_ran_exponential(im->rng_arrival, 1e9 / im->rate);
	/* An arrival at or after the end of the window would find the
	 * workload stopped: it is not scheduled.  This also keeps the gap of a
	 * tiny rate (1e-11 per second is 1e20 ns) from overflowing the clock. */
	if (!(gap < (double)(rs_load_window_end(load) - sim->now)))
		return;
	im->arrival = rs_sched(sim, rs_ns_from_double(gap), arrival, load, NULL);
}

static void iometer_start(struct rs_sim *sim, struct rs_load *load)
{
	struct iometer *im = load->priv;
	im->seq_next = im->start_blk;
	if (im->rate > 0) {
		arrival(sim, load, NULL);
		return;
	}
	for (uint64_t i = 0; i < im->outstanding; i++) {
		if (im->slots)
			slot_issue(sim, &im->slots[i]);
		else
			issue_one(sim, load);
	}
}

/* Reading the spec: a named one or inline lines, with overrides. */
struct line_params {
	uint64_t size, align;
	double share, read, random;
};

static const struct rs_opt line_opts[] = {
	{ "size", RS_OPT_SIZE, offsetof(struct line_params, size), NULL,
	  RS_OPT_REQUIRED | RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1ull << 30, NULL,
	  "transfer size" },
	{ "share", RS_OPT_PERCENT, offsetof(struct line_params, share), "100%", 0, 0, 0, NULL,
	  "share of requests" },
	{ "read", RS_OPT_PERCENT, offsetof(struct line_params, read), "100%", 0, 0, 0, NULL,
	  "share of reads" },
	{ "random", RS_OPT_PERCENT, offsetof(struct line_params, random), "100%", 0, 0, 0, NULL,
	  "share of random offsets" },
	{ "align", RS_OPT_SIZE, offsetof(struct line_params, align), "0B", 0, 0, 0, NULL,
	  "alignment of random offsets (0 = the transfer size)" },
	RS_OPT_END
};

static int read_lines(const struct rs_node *lines, struct rs_spec *spec, struct rs_diag *d)
{
	if (lines->kind != RS_NODE_SEQ || lines->len == 0)
		return rs_diag_node(d, lines, "expected a non-empty list of access-spec lines "
					      "for 'lines'");
	if (lines->len > RS_SPEC_MAX_LINES)
		return rs_diag_node(d, lines, "too many access-spec lines (%zu, at most %d)",
				    lines->len, RS_SPEC_MAX_LINES);
	spec->nlines = lines->len;
	for (size_t i = 0; i < lines->len; i++) {
		struct line_params lp;
		if (lines->items[i]->kind != RS_NODE_MAP)
			return rs_diag_node(d, lines->items[i],
					    "expected a mapping {size, share, read, random} "
					    "for an access-spec line");
		if (rs_schema_bind(line_opts, lines->items[i], &lp, lines->items[i],
				   "access-spec line", NULL, d) != 0)
			return -1;
		spec->lines[i] = (struct rs_spec_line){ lp.size, lp.share, lp.read, lp.random,
							lp.align };
	}
	return 0;
}

static int check_multiple_of_block(const struct rs_node *at, const char *what, uint64_t bytes,
				   struct rs_diag *d)
{
	if (bytes % RS_BLOCK_BYTES)
		return rs_diag_node(d, at, "'%s' must be a multiple of 512 bytes, got %llu", what,
				    (unsigned long long)bytes);
	return 0;
}

static int iometer_init(struct rs_sim *sim, struct rs_load *load, const void *params,
			const struct rs_node *node, struct rs_diag *d)
{
	const struct iometer_params *p = params;
	struct rs_spec spec = { 0 };
	const struct rs_node *spec_node = rs_node_get(node, "spec");
	if (p->spec && p->lines)
		return rs_diag_node(d, rs_node_get(node, "lines"),
				    "give either 'spec' or 'lines', not both");
	if (p->spec) {
		const struct rs_spec *named = rs_spec_find(p->spec);
		if (!named) {
			const char *names[32];
			size_t n = rs_spec_count();
			for (size_t i = 0; i < n; i++)
				names[i] = rs_spec_at(i)->name;
			const char *near = rs_closest_name(p->spec, names, n);
			if (near)
				return rs_diag_node(d, spec_node,
						    "unknown access spec '%s' (did you mean '%s'?)",
						    p->spec, near);
			return rs_diag_node(d, spec_node, "unknown access spec '%s'", p->spec);
		}
		spec = *named;
	} else if (p->lines) {
		if (read_lines(p->lines, &spec, d) != 0)
			return -1;
	} else {
		return rs_diag_node(d, node, "workload.iometer needs 'spec' or 'lines'");
	}
	const struct rs_node *n;
	if ((n = rs_node_get(node, "size"))) {
		if (spec.nlines != 1)
			return rs_diag_node(d, n, "'size' applies only to single-line specs; "
						  "'%s' has %zu lines", spec.name ? spec.name : "lines",
					    spec.nlines);
		spec.lines[0].size_bytes = p->size;
	}
	for (size_t i = 0; i < spec.nlines; i++) {
		if (rs_node_get(node, "read"))
			spec.lines[i].read = p->read;
		if (rs_node_get(node, "random"))
			spec.lines[i].random = p->random;
		if (rs_node_get(node, "align"))
			spec.lines[i].align_bytes = p->align;
	}

	double total = 0;
	for (size_t i = 0; i < spec.nlines; i++)
		total += spec.lines[i].share;
	if (fabs(total - 100.0) > 1e-6)
		return rs_diag_node(d, p->lines ? p->lines : node,
				    "access-spec shares add up to %g%%, expected 100%%", total);

	uint64_t cap_bytes = load->target->capacity_blk * RS_BLOCK_BYTES;
	uint64_t range = p->range ? p->range : cap_bytes - (p->offset < cap_bytes ? p->offset : 0);
	const struct rs_node *range_node = rs_node_get(node, "range");
	const struct rs_node *offset_node = rs_node_get(node, "offset");
	if (check_multiple_of_block(offset_node ? offset_node : node, "offset", p->offset, d) ||
	    check_multiple_of_block(range_node ? range_node : node, "range", range, d))
		return -1;
	if (p->offset >= cap_bytes || range > cap_bytes - p->offset)
		return rs_diag_node(d, range_node ? range_node : offset_node ? offset_node : node,
				    "address range ends beyond the device (%llu bytes)",
				    (unsigned long long)cap_bytes);

	struct iometer *im = calloc(1, sizeof(*im));
	RS_ASSERT(im != NULL);
	load->priv = im;
	im->start_blk = p->offset / RS_BLOCK_BYTES;
	im->range_blk = range / RS_BLOCK_BYTES;
	im->outstanding = p->outstanding;
	im->rate = p->rate;
	im->closed_loop = p->rate == 0;
	const struct rs_node *slots_at = rs_node_get_or(node, "outstanding");
	if (im->closed_loop && rs_load_check_slots(d, slots_at->file, slots_at->line, slots_at->col,
						   im->outstanding, "the outstanding slots") != 0)
		return -1;
	im->nlines = spec.nlines;
	double cum = 0;
	for (size_t i = 0; i < spec.nlines; i++) {
		const struct rs_spec_line *sl = &spec.lines[i];
		const struct rs_node *at = p->lines ? p->lines->items[i] : node;
		if (check_multiple_of_block(at, "size", sl->size_bytes, d) ||
		    check_multiple_of_block(at, "align", sl->align_bytes, d))
			return -1;
		struct line *ln = &im->lines[i];
		ln->nblk = (uint32_t)(sl->size_bytes / RS_BLOCK_BYTES);
		ln->align_blk = (uint32_t)((sl->align_bytes ? sl->align_bytes : sl->size_bytes) /
					   RS_BLOCK_BYTES);
		if (ln->nblk > im->range_blk)
			return rs_diag_node(d, at, "transfer size %llu bytes exceeds the address "
						   "range (%llu bytes)",
					    (unsigned long long)sl->size_bytes,
					    (unsigned long long)range);
		ln->slots = (im->range_blk - ln->nblk) / ln->align_blk + 1;
		cum += sl->share;
		ln->cum_share = cum;
		ln->read = sl->read;
		ln->random = sl->random;
	}
	const struct rs_node *sync_node = rs_node_get(node, "sync");
	const struct rs_node *every_node = rs_node_get(node, "flush_every");
	if (p->sync && every_node)
		return rs_diag_node(d, every_node, "give either 'sync: true' (a flush after "
						   "every write) or 'flush_every', not both");
	im->flush_every = p->sync ? 1 : p->flush_every;
	if (im->flush_every && im->rate > 0)
		return rs_diag_node(d, p->sync ? sync_node : every_node,
				    "'%s' waits for each flush, which needs the closed loop: "
				    "drop 'rate' or the flushes", p->sync ? "sync" : "flush_every");
	if (im->flush_every) {
		im->slots = calloc(im->outstanding, sizeof(*im->slots));
		RS_ASSERT(im->slots != NULL);
		for (uint64_t i = 0; i < im->outstanding; i++)
			im->slots[i].load = load;
		rs_load_report_flushes(load);
	}
	im->rng_line = rs_sim_rng(sim, "iometer.line", 0);
	im->rng_mix = rs_sim_rng(sim, "iometer.mix", 0);
	im->rng_random = rs_sim_rng(sim, "iometer.random", 0);
	im->rng_offset = rs_sim_rng(sim, "iometer.offset", 0);
	im->rng_arrival = rs_sim_rng(sim, "iometer.arrival", 0);
	rs_load_common_apply(load, &p->common);
	return 0;
}

static void iometer_destroy(struct rs_load *load)
{
	struct iometer *im = load->priv;
	if (im)
		free(im->slots);
	free(im);
}

const struct rs_load_type rs_load_iometer = {
	.name = "iometer",
	.help = "IOMeter access specs, closed loop (outstanding I/Os) or open loop (rate)",
	.opts = iometer_opts,
	.params_size = sizeof(struct iometer_params),
	.init = iometer_init,
	.start = iometer_start,
	.destroy = iometer_destroy,
};
