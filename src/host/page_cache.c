#include "host/page_cache.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config/models.h"
#include "config/schema.h"
#include "host/stage.h"
#include "kernel/assert.h"

struct pc_params {
	uint64_t memory;
	uint64_t dirty_threshold;
	uint64_t ra_granule;
	uint64_t ra_factor;
	rs_time_t lazy_period_ns;
	double lazy_fraction;
	uint64_t write_behind_io;
	uint64_t lazy_depth;
	const struct rs_node *device;
};

#define P(f) offsetof(struct pc_params, f)

static const struct rs_opt pc_opts[] = {
	{ "memory", RS_OPT_SIZE, P(memory), "512MiB", RS_OPT_HAS_MIN, 1 << 20, 0, NULL,
	  "memory the cache may use (dirty pages and read-ahead)" },
	{ "dirty_threshold", RS_OPT_SIZE, P(dirty_threshold), "192MiB", RS_OPT_HAS_MIN, 4096,
	  0, NULL, "dirty bytes beyond which writers are throttled (at most `memory`)" },
	{ "read_ahead_granularity", RS_OPT_SIZE, P(ra_granule), "64KiB",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1 << 30, NULL,
	  "read-ahead is issued in multiples of this" },
	{ "read_ahead_factor", RS_OPT_UINT, P(ra_factor), "3", RS_OPT_HAS_MAX, 0, 64, NULL,
	  "a sequential reader is read ahead this many times its request size (0: none)" },
	{ "lazy_period", RS_OPT_TIME, P(lazy_period_ns), "1s", RS_OPT_POSITIVE, 0, 0, NULL,
	  "the lazy writer wakes this often while pages are dirty" },
	{ "lazy_fraction", RS_OPT_DOUBLE, P(lazy_fraction), "0.125",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 0.0001, 1, NULL,
	  "share of the dirty bytes one lazy writer pass writes" },
	{ "write_behind_io", RS_OPT_SIZE, P(write_behind_io), "64KiB",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1 << 30, NULL,
	  "largest write-behind I/O (contiguous dirty runs are cut to it)" },
	{ "lazy_depth", RS_OPT_UINT, P(lazy_depth), "2", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1,
	  1024, NULL, "write-behind I/Os in flight at once" },
	{ "device", RS_OPT_NODE, P(device), NULL, 0, 0, 0, NULL,
	  "the device behind the cache" },
	RS_OPT_END
};

/* A run of dirty blocks, oldest first in a ring. */
struct extent {
	uint64_t lba;
	uint64_t nblk;
};

/* A sequential reader and what has been read ahead of it: [lo, valid)
 * has arrived, [valid, hi) is being fetched. */
#define NSTREAMS 8
struct pc_stream {
	uint64_t next;                /* where the reader's next read starts */
	uint64_t lo, valid, hi;
	uint64_t last_use;            /* for replacing the least recently used */
	bool used;
	bool fetching;                /* a fetch is in flight: it will land here */
	uint32_t fetch_req_blk;       /* the reader's request size when it left */
	struct rs_io *wait_head, *wait_tail;  /* reads waiting for the fetch */
};

struct page_cache {
	struct pc_params p;
	uint32_t granule_blk, max_io_blk;
	uint64_t threshold_blk;

	struct extent *ring;
	size_t ring_cap, ring_head, ring_n;
	uint64_t dirty_blk;           /* queued plus being written */
	uint64_t quota_blk;           /* the current pass still owes this much */
	uint64_t lazy_inflight;
	bool tick_armed;
	struct rs_io *thr_head, *thr_tail;    /* throttled writes, FIFO */
	struct rs_io *flush_head, *flush_tail;

	struct pc_stream s[NSTREAMS];
	uint64_t use_clock;

	struct rs_page_cache_counts c;
	bool borrowed;                /* the member belongs to someone else */
};

static void complete_now(struct rs_sim *sim, void *obj, void *arg)
{
	rs_dev_complete(sim, obj, arg, 0);
}

/* A request served from memory completes from the event loop, never
 * inside its own submit. */
static void complete_soon(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	rs_sched(sim, 0, complete_now, dev, io);
}

/* ---- write-behind ---------------------------------------------------------- */

static void lazy_issue(struct rs_sim *sim, struct rs_dev *dev);
static void arm_tick(struct rs_sim *sim, struct rs_dev *dev);

static bool fits(const struct page_cache *c, const struct rs_io *io)
{
	return c->dirty_blk + io->nblk <= c->threshold_blk && c->ring_n < c->ring_cap;
}

static void make_dirty(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct page_cache *c = dev->priv;
	struct extent *tail = c->ring_n
				      ? &c->ring[(c->ring_head + c->ring_n - 1) % c->ring_cap]
				      : NULL;
	if (tail && tail->lba + tail->nblk == io->lba) {
		tail->nblk += io->nblk;
	} else {
		struct extent *e = &c->ring[(c->ring_head + c->ring_n) % c->ring_cap];
		e->lba = io->lba;
		e->nblk = io->nblk;
		c->ring_n++;
	}
	c->dirty_blk += io->nblk;
	c->c.dirty_bytes = c->dirty_blk * RS_BLOCK_BYTES;
	arm_tick(sim, dev);
	complete_soon(sim, dev, io);
}

static void forward_flushes(struct rs_sim *sim, struct rs_dev *dev);

static void lazy_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_dev *dev = io->done_ctx;
	struct page_cache *c = dev->priv;
	/* A failed write-behind is lost data the writer was told was safe, as
	 * in the real cache; the pages are clean either way. */
	RS_ASSERT(c->dirty_blk >= io->nblk && c->lazy_inflight > 0);
	c->dirty_blk -= io->nblk;
	c->c.dirty_bytes = c->dirty_blk * RS_BLOCK_BYTES;
	c->lazy_inflight--;
	rs_io_free(sim, io);
	struct rs_io *w;
	while (c->thr_head && fits(c, c->thr_head)) {
		w = rs_io_fifo_pop(&c->thr_head, &c->thr_tail);
		make_dirty(sim, dev, w);
	}
	lazy_issue(sim, dev);
	forward_flushes(sim, dev);
}

/* Write from the oldest dirty run while the pass owes bytes (or writers
 * wait, or a flush does) and the lazy writer has room. */
static void lazy_issue(struct rs_sim *sim, struct rs_dev *dev)
{
	struct page_cache *c = dev->priv;
	while (c->ring_n && c->lazy_inflight < c->p.lazy_depth &&
	       (c->quota_blk > 0 || c->thr_head || c->flush_head)) {
		struct extent *e = &c->ring[c->ring_head];
		uint64_t n = e->nblk < c->max_io_blk ? e->nblk : c->max_io_blk;
		struct rs_io *io = rs_io_new(sim, RS_WRITE, e->lba, (uint32_t)n, lazy_done, dev);
		e->lba += n;
		e->nblk -= n;
		if (e->nblk == 0) {
			c->ring_head = (c->ring_head + 1) % c->ring_cap;
			c->ring_n--;
		}
		c->quota_blk = c->quota_blk > n ? c->quota_blk - n : 0;
		c->lazy_inflight++;
		c->c.lazy_ios++;
		if (n > c->c.max_io_blk)
			c->c.max_io_blk = n;
		rs_dev_submit(sim, dev->members[0], io);
	}
}

static void tick(struct rs_sim *sim, void *obj, void *arg)
{
	(void)arg;
	struct rs_dev *dev = obj;
	struct page_cache *c = dev->priv;
	c->tick_armed = false;
	c->c.lazy_passes++;
	/* This pass's share of what is dirty and not yet being written. */
	uint64_t queued = 0;
	for (size_t i = 0; i < c->ring_n; i++)
		queued += c->ring[(c->ring_head + i) % c->ring_cap].nblk;
	uint64_t share = (uint64_t)ceil((double)c->dirty_blk * c->p.lazy_fraction);
	c->quota_blk = share < queued ? share : queued;
	lazy_issue(sim, dev);
	arm_tick(sim, dev);
}

/* The scan runs only while pages are dirty, so an idle cache lets the
 * simulation end. */
static void arm_tick(struct rs_sim *sim, struct rs_dev *dev)
{
	struct page_cache *c = dev->priv;
	if (c->tick_armed || c->ring_n == 0)
		return;
	c->tick_armed = true;
	rs_sched(sim, c->p.lazy_period_ns, tick, dev, NULL);
}

static void write_in(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct page_cache *c = dev->priv;
	if (c->thr_head || !fits(c, io)) {
		c->c.throttled++;
		rs_io_fifo_push(&c->thr_head, &c->thr_tail, io);
		lazy_issue(sim, dev);
		return;
	}
	make_dirty(sim, dev, io);
}

/* ---- flushes and pass-through ----------------------------------------------- */

static void passed(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	rs_dev_complete(sim, dev, io, io->status);
}
static const struct rs_stage_back back = { passed };

static void forward_flushes(struct rs_sim *sim, struct rs_dev *dev)
{
	struct page_cache *c = dev->priv;
	if (c->dirty_blk || c->thr_head)
		return;
	struct rs_io *f;
	while ((f = rs_io_fifo_pop(&c->flush_head, &c->flush_tail)))
		rs_stage_forward(sim, dev, f, &back);
}

static void flush_in(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct page_cache *c = dev->priv;
	rs_io_fifo_push(&c->flush_head, &c->flush_tail, io);
	lazy_issue(sim, dev);
	forward_flushes(sim, dev);
}

/* ---- read-ahead -------------------------------------------------------------- */

static void ensure_ahead(struct rs_sim *sim, struct rs_dev *dev, struct pc_stream *s,
			 uint32_t req_blk);

static struct pc_stream *find_stream(struct page_cache *c, uint64_t lba)
{
	for (int i = 0; i < NSTREAMS; i++)
		if (c->s[i].used && (c->s[i].next == lba || (lba >= c->s[i].lo && lba < c->s[i].hi)))
			return &c->s[i];
	return NULL;
}

static bool busy(const struct pc_stream *s) { return s->wait_head || s->fetching; }

static struct pc_stream *new_stream(struct page_cache *c)
{
	struct pc_stream *best = &c->s[0];
	for (int i = 0; i < NSTREAMS; i++) {
		if (!c->s[i].used) {
			best = &c->s[i];
			break;
		}
		/* Never drop a stream that reads wait on or a fetch will land in. */
		if (!busy(&c->s[i]) && (busy(best) || c->s[i].last_use < best->last_use))
			best = &c->s[i];
	}
	if (busy(best))
		return NULL;
	return best;
}

static void serve_waiters(struct rs_sim *sim, struct rs_dev *dev, struct pc_stream *s)
{
	struct page_cache *c = dev->priv;
	while (s->wait_head && s->wait_head->lba + s->wait_head->nblk <= s->valid) {
		struct rs_io *r = rs_io_fifo_pop(&s->wait_head, &s->wait_tail);
		c->c.read_hits++;
		complete_soon(sim, dev, r);
	}
}

static void fetch_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_dev *dev = io->done_ctx;
	struct pc_stream *s = io->up.page_cache;
	uint32_t req = s->fetch_req_blk;
	/* The stream was kept for this fetch: it still ends its window. */
	RS_ASSERT(s->fetching && io->lba + io->nblk == s->hi);
	s->valid = io->lba + io->nblk;
	s->fetching = false;
	rs_io_free(sim, io);
	serve_waiters(sim, dev, s);
	ensure_ahead(sim, dev, s, req);
}

/* Keep the reader's read-ahead window filled: one fetch at a time, of
 * whole granules, once a granule or more is missing. */
static void ensure_ahead(struct rs_sim *sim, struct rs_dev *dev, struct pc_stream *s,
			 uint32_t req_blk)
{
	struct page_cache *c = dev->priv;
	if (c->p.ra_factor == 0 || s->valid < s->hi)
		return;
	uint64_t want = c->p.ra_factor * req_blk;
	want = (want + c->granule_blk - 1) / c->granule_blk * c->granule_blk;
	uint64_t from = s->hi > s->next ? s->hi : s->next;
	uint64_t to = s->next + want;
	if (to > dev->capacity_blk)
		to = dev->capacity_blk;
	if (to <= from || to - from < c->granule_blk)
		return;
	uint64_t n = (to - from) / c->granule_blk * c->granule_blk;
	if (from == s->hi)
		;                     /* the window grows */
	else
		s->lo = s->valid = from;
	s->hi = from + n;
	struct rs_io *f = rs_io_new(sim, RS_READ, from, (uint32_t)n, fetch_done, dev);
	f->up.page_cache = s;
	s->fetch_req_blk = req_blk;
	s->fetching = true;
	c->c.read_ahead_ios++;
	rs_dev_submit(sim, dev->members[0], f);
}

static void read_in(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct page_cache *c = dev->priv;
	uint64_t end = io->lba + io->nblk;
	struct pc_stream *s = find_stream(c, io->lba);
	if (!s) {
		s = new_stream(c);
		if (s) {
			*s = (struct pc_stream){ .used = true };
			s->next = s->lo = s->valid = s->hi = end;
			s->last_use = ++c->use_clock;
		}
		rs_stage_forward(sim, dev, io, &back);
		return;
	}
	s->last_use = ++c->use_clock;
	bool sequential = s->next == io->lba;
	if (io->lba >= s->lo && end <= s->valid) {
		c->c.read_hits++;
		complete_soon(sim, dev, io);
	} else if (io->lba >= s->lo && end <= s->hi) {
		rs_io_fifo_push(&s->wait_head, &s->wait_tail, io);
	} else {
		rs_stage_forward(sim, dev, io, &back);
	}
	if (end > s->next || !sequential)
		s->next = end;
	if (s->lo < io->lba && io->lba <= s->valid)
		s->lo = io->lba;      /* pages read are not kept */
	if (sequential)
		ensure_ahead(sim, dev, s, io->nblk);
}

static void pc_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	switch (io->op) {
	case RS_READ:
		read_in(sim, dev, io);
		break;
	case RS_WRITE:
		if (io->fua)
			rs_stage_forward(sim, dev, io, &back);
		else
			write_in(sim, dev, io);
		break;
	case RS_FLUSH:
		flush_in(sim, dev, io);
		break;
	default:
		RS_ASSERT(!"unknown op");
	}
}

/* ---- building -------------------------------------------------------------- */

static int check(const struct pc_params *p, const struct rs_node *node, struct rs_diag *d)
{
	if (p->dirty_threshold > p->memory) {
		const struct rs_node *at = rs_node_get(node, "dirty_threshold");
		return rs_diag_node(d, at ? at : node, "'dirty_threshold' (%llu bytes) must not "
				    "exceed 'memory' (%llu bytes)",
				    (unsigned long long)p->dirty_threshold,
				    (unsigned long long)p->memory);
	}
	static const char *const whole[] = { "read_ahead_granularity", "write_behind_io", NULL };
	const uint64_t v[] = { p->ra_granule, p->write_behind_io };
	for (int i = 0; whole[i]; i++)
		if (v[i] % RS_BLOCK_BYTES) {
			const struct rs_node *at = rs_node_get(node, whole[i]);
			return rs_diag_node(d, at ? at : node, "'%s' must be a multiple of 512 "
					    "bytes, got %llu", whole[i], (unsigned long long)v[i]);
		}
	return 0;
}

static void setup(struct rs_dev *dev, const struct pc_params *p)
{
	struct page_cache *c = calloc(1, sizeof(*c));
	RS_ASSERT(c != NULL);
	dev->priv = c;
	c->p = *p;
	c->granule_blk = (uint32_t)(p->ra_granule / RS_BLOCK_BYTES);
	c->max_io_blk = (uint32_t)(p->write_behind_io / RS_BLOCK_BYTES);
	c->threshold_blk = p->dirty_threshold / RS_BLOCK_BYTES;
	/* Every accepted write adds a block at least, so one extent per
	 * threshold block always fits; page-sized writes need one per page. */
	c->ring_cap = (size_t)(p->dirty_threshold / 4096) + 1;
	c->ring = calloc(c->ring_cap, sizeof(*c->ring));
	RS_ASSERT(c->ring != NULL);
}

static int pc_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		   const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	(void)sim;
	const struct pc_params *p = params;
	if (check(p, node, d))
		return -1;
	setup(dev, p);
	return rs_stage_build_inner(b, dev, node, p->device, d);
}

static void pc_destroy(struct rs_dev *dev)
{
	struct page_cache *c = dev->priv;
	if (!c)
		return;
	RS_ASSERT(dev->abandoned || (c->lazy_inflight == 0 && !c->thr_head && !c->flush_head));
	free(c->ring);
	free(c);
	dev->priv = NULL;
}

const struct rs_dev_type rs_dev_page_cache = {
	.name = "page_cache",
	.help = "host page cache in front of a device: read-ahead for sequential readers, "
		"write-behind by a lazy writer, dirty-page throttling",
	.opts = pc_opts,
	.params_size = sizeof(struct pc_params),
	.init = pc_init,
	.submit = pc_submit,
	.destroy = pc_destroy,
};

void rs_page_cache_counts(const struct rs_dev *dev, struct rs_page_cache_counts *out)
{
	RS_ASSERT(dev->type == &rs_dev_page_cache);
	const struct page_cache *c = dev->priv;
	*out = c->c;
}

struct rs_dev *rs_page_cache_wrap(struct rs_sim *sim, const struct rs_node *section,
				  struct rs_dev *lower, const struct rs_model_path *models,
				  struct rs_diag *d)
{
	struct rs_node *tree;
	if (models) {
		tree = rs_model_resolve(models, section, d);
	} else {
		struct rs_model_path mp;
		rs_model_path_init(&mp);
		rs_model_path_add_defaults(&mp);
		tree = rs_model_resolve(&mp, section, d);
		rs_model_path_free(&mp);
	}
	if (!tree)
		return NULL;
	const struct rs_node *type = rs_node_get(tree, "type");
	const char *tname = type && type->kind == RS_NODE_SCALAR ? type->str : NULL;
	if (!tname || strcmp(tname, rs_dev_page_cache.name) != 0) {
		rs_diag_node(d, section, "expected a page cache here (type: page_cache, or a "
			     "model of that type such as windows-xp-cache-manager)");
		rs_node_free(tree);
		return NULL;
	}
	static const char *const ignore[] = { "type", "model", "description", "device", NULL };
	struct pc_params p;
	if (rs_schema_bind(pc_opts, tree, &p, section, "page_cache", ignore, d) ||
	    check(&p, tree, d)) {
		rs_node_free(tree);
		return NULL;
	}
	p.device = NULL;
	struct rs_dev *dev = calloc(1, sizeof(*dev));
	RS_ASSERT(dev != NULL);
	dev->type = &rs_dev_page_cache;
	dev->name = strdup("page_cache");
	RS_ASSERT(dev->name != NULL);
	dev->tree = tree;
	rs_tavg_init(&dev->inflight, rs_now(sim), 0);
	setup(dev, &p);
	((struct page_cache *)dev->priv)->borrowed = true;
	dev->members = calloc(1, sizeof(*dev->members));
	RS_ASSERT(dev->members != NULL);
	dev->members[0] = lower;
	dev->nmembers = 1;
	dev->capacity_blk = lower->capacity_blk;
	return dev;
}

void rs_page_cache_unwrap(struct rs_dev *cache)
{
	if (!cache)
		return;
	RS_ASSERT(cache->type == &rs_dev_page_cache);
	pc_destroy(cache);
	free(cache->members);
	rs_node_free(cache->tree);
	free(cache->name);
	free(cache);
}
