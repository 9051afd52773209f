#include "ssd/ftl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

static void *alloc_or_die(size_t n, size_t size)
{
	void *p = malloc(n ? n * size : 1);
	RS_ASSERT(p != NULL);
	return p;
}

static void *zalloc_or_die(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	RS_ASSERT(p != NULL);
	return p;
}

/* ---- leaves ------------------------------------------------------------- */

#define LEAVES_PER_SLAB 256u

static void leaves_init(struct ftl_leaves *l, uint32_t len)
{
	memset(l, 0, sizeof(*l));
	l->len = len;
}

static void leaves_free(struct ftl_leaves *l)
{
	for (uint32_t i = 0; i < l->nslab; i++)
		free(l->slab[i]);
	free(l->slab);
	memset(l, 0, sizeof(*l));
}

static inline uint32_t *leaf_at(const struct ftl_leaves *l, uint32_t id)
{
	uint32_t i = id - 1;
	return l->slab[i / LEAVES_PER_SLAB] + (size_t)(i % LEAVES_PER_SLAB) * l->len;
}

/* A leaf id; its contents are the caller's to fill.  Allocates only when
 * every leaf handed out so far is in use. */
static uint32_t leaf_get(struct ftl_leaves *l)
{
	l->live++;
	if (l->free_head) {
		uint32_t id = l->free_head;
		l->free_head = leaf_at(l, id)[0];
		return id;
	}
	if (l->next == l->nslab * LEAVES_PER_SLAB) {
		if (l->nslab == l->slab_cap) {
			l->slab_cap = l->slab_cap ? 2 * l->slab_cap : 16;
			l->slab = realloc(l->slab, l->slab_cap * sizeof(*l->slab));
			RS_ASSERT(l->slab != NULL);
		}
		l->slab[l->nslab++] = alloc_or_die((size_t)LEAVES_PER_SLAB * l->len,
						    sizeof(uint32_t));
	}
	return ++l->next;
}

static void leaf_put(struct ftl_leaves *l, uint32_t id)
{
	leaf_at(l, id)[0] = l->free_head;
	l->free_head = id;
	l->live--;
}

static uint64_t leaves_bytes(const struct ftl_leaves *l)
{
	return (uint64_t)l->nslab * LEAVES_PER_SLAB * l->len * sizeof(uint32_t) +
	       (uint64_t)l->slab_cap * sizeof(uint32_t *);
}

/* ---- the starting layout -------------------------------------------------- */

static uint32_t global_block(const struct ftl *f, uint32_t die, uint32_t local)
{
	return die * f->g.blocks_per_die + local;
}

/* The steady layout deals the permutation's positions k to the dies in
 * runs: die d holds k in [start(d), start(d) + share(d)). */
static uint64_t die_share(const struct ftl *f, uint32_t d)
{
	uint64_t L = f->g.logical_units, n = f->g.ndies;
	return L / n + (d < L % n ? 1 : 0);
}

static uint64_t die_start(const struct ftl *f, uint32_t d)
{
	uint64_t L = f->g.logical_units, n = f->g.ndies;
	return d * (L / n) + (d < L % n ? d : L % n);
}

static uint32_t die_of_k(const struct ftl *f, uint64_t k)
{
	uint64_t L = f->g.logical_units, n = f->g.ndies, q = L / n, r = L % n;
	if (k < r * (q + 1))
		return (uint32_t)(k / (q + 1));
	return (uint32_t)(r + (k - r * (q + 1)) / q);
}

static uint32_t base_map(const struct ftl *f, uint32_t lpn)
{
	const struct rs_ssd_geom *g = &f->g;
	if (f->layout == FTL_LAYOUT_SEQ) {
		uint64_t page = lpn / g->units_per_page;
		uint32_t die = (uint32_t)(page % g->ndies);
		uint64_t slot = (page / g->ndies) * g->units_per_page + lpn % g->units_per_page;
		return die * ftl_units_per_die(f) + (uint32_t)slot;
	}
	if (f->layout == FTL_LAYOUT_STEADY) {
		uint64_t L = g->logical_units;
		uint64_t k = (lpn + L - f->perm_c) % L * f->perm_ainv % L;
		uint32_t d = die_of_k(f, k);
		uint64_t off = k - die_start(f, d);
		const uint32_t *pre = f->steady_prefix + (size_t)d * (f->steady_used + 1);
		/* The last block whose running sum is <= off. */
		uint32_t lo = 0, hi = f->steady_used;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (pre[mid] <= off)
				lo = mid;
			else
				hi = mid;
		}
		return global_block(f, d, lo) * g->units_per_block + (uint32_t)(off - pre[lo]);
	}
	return FTL_NONE;
}

static uint32_t base_rmap(const struct ftl *f, uint32_t ppn)
{
	const struct rs_ssd_geom *g = &f->g;
	uint32_t die = ftl_ppn_die(f, ppn), slot = ppn % ftl_units_per_die(f);
	if (f->layout == FTL_LAYOUT_SEQ) {
		uint64_t page = (uint64_t)(slot / g->units_per_page) * g->ndies + die;
		uint64_t lpn = page * g->units_per_page + slot % g->units_per_page;
		return lpn < g->logical_units ? (uint32_t)lpn : FTL_NONE;
	}
	if (f->layout == FTL_LAYOUT_STEADY) {
		uint32_t b = slot / g->units_per_block, i = slot % g->units_per_block;
		const uint32_t *pre = f->steady_prefix + (size_t)die * (f->steady_used + 1);
		if (b >= f->steady_used || i >= pre[b + 1] - pre[b])
			return FTL_NONE;
		uint64_t k = die_start(f, die) + pre[b] + i;
		return (uint32_t)((f->perm_a * k + f->perm_c) % g->logical_units);
	}
	return FTL_NONE;
}

/* ---- the maps ------------------------------------------------------------ */

/* A leaf entry not written since the start: the layout's formula holds.
 * (FTL_BUF | 0x7ffffffe: no buffer has that many slots.) */
#define MAP_AS_STARTED 0xfffffffeu

#define MOVED_EMPTY UINT32_MAX
#define MOVED_FIRST_CAP 4096u

static inline uint64_t moved_slot(const struct ftl *f, uint32_t lpn)
{
	return ((uint64_t)lpn * 0x9e3779b97f4a7c15ull >> 20) & (f->moved_cap - 1);
}

uint32_t ftl_map_get(const struct ftl *f, uint32_t lpn)
{
	uint32_t e = MAP_AS_STARTED;
	if (f->flat) {
		e = f->flat[lpn];
	} else if (f->moved_count) {
		for (uint64_t i = moved_slot(f, lpn);; i = (i + 1) & (f->moved_cap - 1)) {
			if (f->moved_key[i] == lpn) {
				e = f->moved_val[i];
				break;
			}
			if (f->moved_key[i] == MOVED_EMPTY)
				break;
		}
	}
	return e != MAP_AS_STARTED ? e : base_map(f, lpn);
}

static void moved_put(struct ftl *f, uint32_t lpn, uint32_t e)
{
	uint64_t i = moved_slot(f, lpn);
	while (f->moved_key[i] != MOVED_EMPTY && f->moved_key[i] != lpn)
		i = (i + 1) & (f->moved_cap - 1);
	if (f->moved_key[i] == MOVED_EMPTY) {
		f->moved_key[i] = lpn;
		f->moved_count++;
	}
	f->moved_val[i] = e;
}

static void moved_alloc(struct ftl *f, uint64_t cap)
{
	f->moved_cap = cap;
	f->moved_count = 0;
	f->moved_key = alloc_or_die(cap, sizeof(uint32_t));
	f->moved_val = alloc_or_die(cap, sizeof(uint32_t));
	memset(f->moved_key, 0xff, cap * sizeof(uint32_t));
}

/* The table is full to 70 %: double it, or, if a flat table of every unit
 * would be no larger, turn into that. */
static void moved_grow(struct ftl *f)
{
	uint32_t *key = f->moved_key, *val = f->moved_val;
	uint64_t cap = f->moved_cap;
	if (2 * cap * 2 * sizeof(uint32_t) >= f->g.logical_units * sizeof(uint32_t)) {
		f->flat = alloc_or_die(f->g.logical_units, sizeof(uint32_t));
		for (uint64_t u = 0; u < f->g.logical_units; u++)
			f->flat[u] = MAP_AS_STARTED;
		for (uint64_t i = 0; i < cap; i++)
			if (key[i] != MOVED_EMPTY)
				f->flat[key[i]] = val[i];
		f->moved_key = f->moved_val = NULL;
		f->moved_cap = f->moved_count = 0;
	} else {
		moved_alloc(f, 2 * cap);
		for (uint64_t i = 0; i < cap; i++)
			if (key[i] != MOVED_EMPTY)
				moved_put(f, key[i], val[i]);
	}
	free(key);
	free(val);
}

void ftl_map_set(struct ftl *f, uint32_t lpn, uint32_t e)
{
	if (f->flat) {
		f->flat[lpn] = e;
		return;
	}
	if (10 * (f->moved_count + 1) > 7 * f->moved_cap)
		moved_grow(f);
	if (f->flat)
		f->flat[lpn] = e;
	else
		moved_put(f, lpn, e);
}

/* The logical unit last written at ppn since its block's erase, or
 * FTL_NONE; stale unless the map points back. */
static uint32_t ftl_rmap_get(const struct ftl *f, uint32_t ppn)
{
	uint32_t blk = ftl_ppn_block(f, ppn);
	uint32_t id = f->rmap_dir[blk];
	if (id)
		return leaf_at(&f->rmap_leaves, id)[ppn % f->g.units_per_block];
	return f->orig[blk] ? base_rmap(f, ppn) : FTL_NONE;
}

static void rmap_set(struct ftl *f, uint32_t ppn, uint32_t lpn)
{
	uint32_t blk = ftl_ppn_block(f, ppn);
	uint32_t *id = &f->rmap_dir[blk];
	if (!*id) {
		/* Only blocks erased since the start are written (a block of
		 * the starting layout is full), so a new leaf starts empty. */
		RS_ASSERT(!f->orig[blk]);
		*id = leaf_get(&f->rmap_leaves);
		uint32_t *leaf = leaf_at(&f->rmap_leaves, *id);
		for (uint32_t i = 0; i < f->g.units_per_block; i++)
			leaf[i] = FTL_NONE;
	}
	leaf_at(&f->rmap_leaves, *id)[ppn % f->g.units_per_block] = lpn;
}

uint64_t ftl_heap_bytes(const struct ftl *f)
{
	const struct rs_ssd_geom *g = &f->g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die;
	uint64_t dirs = nblocks * 4 + f->moved_cap * 8 + (f->flat ? g->logical_units * 4 : 0);
	uint64_t blocks = nblocks * (sizeof(*f->valid) + sizeof(*f->state) + 1 + 4);
	uint64_t prefix = f->steady_prefix ? (uint64_t)g->ndies * (f->steady_used + 1) * 4 : 0;
	uint64_t wear = f->erase_count ? nblocks * sizeof(*f->erase_count) : 0;
	return dirs + blocks + prefix + wear + leaves_bytes(&f->rmap_leaves);
}

void ftl_init(struct ftl *f, const struct rs_ssd_geom *g)
{
	memset(f, 0, sizeof(*f));
	f->g = *g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die;
	moved_alloc(f, MOVED_FIRST_CAP);
	f->rmap_dir = zalloc_or_die(nblocks, sizeof(*f->rmap_dir));
	f->orig = zalloc_or_die(nblocks, sizeof(*f->orig));
	leaves_init(&f->rmap_leaves, g->units_per_block);
	f->valid = alloc_or_die(nblocks, sizeof(*f->valid));
	f->state = alloc_or_die(nblocks, sizeof(*f->state));
	f->die = zalloc_or_die(g->ndies, sizeof(*f->die));
	for (uint32_t d = 0; d < g->ndies; d++)
		f->die[d].free_blocks = alloc_or_die(g->blocks_per_die, sizeof(uint32_t));
}

void ftl_free(struct ftl *f)
{
	if (f->die)
		for (uint32_t d = 0; d < f->g.ndies; d++)
			free(f->die[d].free_blocks);
	free(f->die);
	free(f->moved_key);
	free(f->moved_val);
	free(f->flat);
	free(f->rmap_dir);
	free(f->orig);
	free(f->steady_prefix);
	free(f->erase_count);
	leaves_free(&f->rmap_leaves);
	free(f->valid);
	free(f->state);
	memset(f, 0, sizeof(*f));
}

/* ---- starting states ----------------------------------------------------- */

/* Mark blocks [used, blocks_per_die) of every die free, lowest on top of
 * the stack, and the frontiers closed. */
static void free_rest(struct ftl *f, uint32_t used)
{
	for (uint32_t d = 0; d < f->g.ndies; d++) {
		struct ftl_die *fd = &f->die[d];
		fd->nfree = 0;
		for (uint32_t b = f->g.blocks_per_die; b-- > used;) {
			fd->free_blocks[fd->nfree++] = b;
			f->state[global_block(f, d, b)] = FTL_BLK_FREE;
			f->valid[global_block(f, d, b)] = 0;
		}
		fd->host_blk = fd->gc_blk = FTL_NONE;
		fd->host_next = fd->gc_next = 0;
	}
}

/* Back to a fresh layout with nothing written since. */
static void reset(struct ftl *f)
{
	const struct rs_ssd_geom *g = &f->g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die;
	leaves_free(&f->rmap_leaves);
	leaves_init(&f->rmap_leaves, g->units_per_block);
	free(f->moved_key);
	free(f->moved_val);
	free(f->flat);
	f->flat = NULL;
	moved_alloc(f, MOVED_FIRST_CAP);
	memset(f->rmap_dir, 0, nblocks * sizeof(*f->rmap_dir));
	memset(f->orig, 0, nblocks);
	free(f->steady_prefix);
	f->steady_prefix = NULL;
	f->layout = FTL_LAYOUT_NONE;
	f->host_units = f->gc_units = f->erases = 0;
}

void ftl_fresh(struct ftl *f)
{
	reset(f);
	free_rest(f, 0);
}

/* Written once from the first unit to the last: multi-plane page k of the
 * sequence goes to die k mod ndies, so a sequential stream is striped
 * over the dies (and, dies being numbered across channels first, over the
 * channels).  Each die's units fill its blocks from the first. */
void ftl_fill_sequential(struct ftl *f, uint32_t free_target)
{
	reset(f);
	const struct rs_ssd_geom *g = &f->g;
	uint64_t pages = (g->logical_units + g->units_per_page - 1) / g->units_per_page;
	uint64_t pages_per_die = (pages + g->ndies - 1) / g->ndies;
	uint32_t used = (uint32_t)((pages_per_die * g->units_per_page + g->units_per_block - 1) /
				   g->units_per_block);
	RS_ASSERT(used + free_target <= g->blocks_per_die);
	uint32_t tail = (uint32_t)(g->logical_units % g->units_per_page);
	for (uint32_t d = 0; d < g->ndies; d++) {
		uint64_t units = (pages / g->ndies + (d < pages % g->ndies ? 1 : 0)) *
				 g->units_per_page;
		if (tail && (pages - 1) % g->ndies == d)
			units -= g->units_per_page - tail;
		for (uint32_t b = 0; b < used; b++) {
			uint32_t gb = global_block(f, d, b);
			uint64_t here = units < g->units_per_block ? units : g->units_per_block;
			f->state[gb] = FTL_BLK_FULL;
			f->valid[gb] = (uint16_t)here;
			f->orig[gb] = 1;
			units -= here;
		}
	}
	f->layout = FTL_LAYOUT_SEQ;
	free_rest(f, used);
}

/* Valid fraction v of the oldest block when the blocks' valid fractions
 * fall geometrically with age from 1 to v and their mean is alpha:
 * (v - 1) / ln v = alpha.  Under uniform random overwrites a unit written
 * t writes ago is still valid with probability exp(-t / logical units),
 * so valid fractions do fall geometrically with a block's age; that is
 * exactly the FIFO (LRU) cleaner's steady state of Desnoyers' analysis.
 * Greedy cleaning ends a little better (it picks the emptiest block, not
 * the oldest); the simulation moves from this state to its own within a
 * few block writes per die, which the ramp-up of a run covers. */
static double oldest_valid_fraction(double alpha)
{
	double lo = 1e-9, hi = 1.0 - 1e-12;
	for (int i = 0; i < 200; i++) {
		double v = 0.5 * (lo + hi);
		if ((v - 1.0) / log(v) < alpha)
			lo = v;
		else
			hi = v;
	}
	return 0.5 * (lo + hi);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The inverse of a modulo m (gcd(a, m) = 1). */
static uint64_t mod_inverse(uint64_t a, uint64_t m)
{
	int64_t t = 0, nt = 1, r = (int64_t)m, nr = (int64_t)(a % m);
	while (nr) {
		int64_t q = r / nr, x;
		x = t - q * nt;
		t = nt;
		nt = x;
		x = r - q * nr;
		r = nr;
		nr = x;
	}
	return (uint64_t)(t < 0 ? t + (int64_t)m : t);
}

void ftl_fill_steady(struct ftl *f, uint32_t free_target, uint64_t seed)
{
	reset(f);
	const struct rs_ssd_geom *g = &f->g;
	uint32_t B = g->units_per_block;
	uint32_t used = g->blocks_per_die - free_target;
	uint64_t L = g->logical_units;
	/* The logical units are laid out by an affine permutation
	 * lpn = (a k + c) mod L with gcd(a, L) = 1: every unit exactly once,
	 * neighbours far apart, and nothing to store but a, c and the valid
	 * counts (position k lands in the die and block whose running sum
	 * of valid units covers it). */
	uint64_t a = L / 3 + seed % (L / 3 + 1);
	while (gcd_u64(a, L) != 1)
		a++;
	f->perm_a = a;
	f->perm_c = (seed >> 20) % L;
	f->perm_ainv = L > 1 ? mod_inverse(a, L) : 0;
	f->steady_used = used;
	f->steady_prefix = alloc_or_die((size_t)g->ndies * (used + 1), sizeof(uint32_t));
	uint32_t *count = alloc_or_die(used, sizeof(uint32_t));
	for (uint32_t d = 0; d < g->ndies; d++) {
		uint64_t share = die_share(f, d);
		double alpha = (double)share / ((double)used * B);
		RS_ASSERT(alpha < 1.0);
		double v = oldest_valid_fraction(alpha);
		uint64_t sum = 0;
		for (uint32_t b = 0; b < used; b++) {
			double age = used > 1 ? (double)b / (double)(used - 1) : 0.0;
			count[b] = (uint32_t)floor((double)B * pow(v, age));
			if (count[b] > B)
				count[b] = B;
			sum += count[b];
		}
		/* Round to the die's exact share, oldest blocks first. */
		for (uint32_t b = used; sum < share; b = b ? b - 1 : used - 1)
			if (b < used && count[b] < B) {
				count[b]++;
				sum++;
			}
		for (uint32_t b = 0; sum > share; b = (b + 1) % used)
			if (count[b] > 0) {
				count[b]--;
				sum--;
			}
		uint32_t *pre = f->steady_prefix + (size_t)d * (used + 1);
		pre[0] = 0;
		for (uint32_t b = 0; b < used; b++) {
			uint32_t gb = global_block(f, d, b);
			f->state[gb] = FTL_BLK_FULL;
			f->valid[gb] = (uint16_t)count[b];
			f->orig[gb] = 1;
			pre[b + 1] = pre[b] + count[b];
		}
	}
	free(count);
	f->layout = FTL_LAYOUT_STEADY;
	free_rest(f, used);
}

/* ---- the write path ---------------------------------------------------- */

/* The reverse map keeps the stale entry: GC tells stale from valid by
 * whether the map points back (ftl_collect), so invalidating a unit
 * touches only the map. */
void ftl_invalidate(struct ftl *f, uint32_t lpn)
{
	uint32_t ppn = ftl_map_get(f, lpn);
	if (!ftl_is_flash(ppn))
		return;
	uint32_t blk = ftl_ppn_block(f, ppn);
	RS_ASSERT(f->valid[blk] > 0);
	f->valid[blk]--;
	ftl_map_set(f, lpn, FTL_NONE);
}

void ftl_place(struct ftl *f, uint32_t lpn, uint32_t ppn)
{
	ftl_map_set(f, lpn, ppn);
	rmap_set(f, ppn, lpn);
	f->valid[ftl_ppn_block(f, ppn)]++;
}

bool ftl_host_can_write(const struct ftl *f, uint32_t die)
{
	const struct ftl_die *fd = &f->die[die];
	return (fd->host_blk != FTL_NONE && fd->host_next < f->g.units_per_block) ||
	       fd->nfree > 1;
}

uint32_t ftl_next_page(struct ftl *f, uint32_t die, bool gc)
{
	struct ftl_die *fd = &f->die[die];
	uint32_t *blk = gc ? &fd->gc_blk : &fd->host_blk;
	uint32_t *next = gc ? &fd->gc_next : &fd->host_next;
	if (*blk == FTL_NONE || *next >= f->g.units_per_block) {
		if (*blk != FTL_NONE)
			f->state[*blk] = FTL_BLK_FULL;
		/* The host never takes the last free block: GC needs it to
		 * relocate into, or no block could ever be freed again. */
		if (fd->nfree == 0 || (!gc && fd->nfree == 1)) {
			*blk = FTL_NONE;
			return FTL_NONE;
		}
		if (gc && f->gc_takes_worn)
			ftl_worn_free_on_top(f, die);
		*blk = global_block(f, die, fd->free_blocks[--fd->nfree]);
		f->state[*blk] = FTL_BLK_OPEN;
		*next = 0;
	}
	uint32_t ppn = *blk * f->g.units_per_block + *next;
	*next += f->g.units_per_page;
	return ppn;
}

/* ---- garbage collection -------------------------------------------------- */

uint32_t ftl_pick_victim(struct ftl *f, uint32_t die)
{
	uint32_t first = global_block(f, die, 0), best = FTL_NONE;
	uint32_t best_valid = f->g.units_per_block - f->g.units_per_page + 1;
	for (uint32_t b = first; b < first + f->g.blocks_per_die; b++)
		if (f->state[b] == FTL_BLK_FULL && f->valid[b] < best_valid) {
			best = b;
			best_valid = f->valid[b];
			if (best_valid == 0)
				break;
		}
	if (best != FTL_NONE)
		f->state[best] = FTL_BLK_VICTIM;
	return best;
}

uint32_t ftl_collect(const struct ftl *f, uint32_t blk, uint32_t *scan, uint32_t *lpns,
		     uint32_t *ppns, uint32_t max)
{
	uint32_t n = 0, base = blk * f->g.units_per_block;
	while (*scan < f->g.units_per_block && n < max) {
		uint32_t ppn = base + (*scan)++;
		uint32_t lpn = ftl_rmap_get(f, ppn);
		if (lpn != FTL_NONE && ftl_map_get(f, lpn) == ppn) {
			lpns[n] = lpn;
			ppns[n] = ppn;
			n++;
		}
	}
	return n;
}

void ftl_erase(struct ftl *f, uint32_t blk)
{
	RS_ASSERT(f->valid[blk] == 0);
	uint32_t die = blk / f->g.blocks_per_die;
	struct ftl_die *fd = &f->die[die];
	if (f->rmap_dir[blk]) {
		leaf_put(&f->rmap_leaves, f->rmap_dir[blk]);
		f->rmap_dir[blk] = 0;
	}
	f->orig[blk] = 0;
	f->state[blk] = FTL_BLK_FREE;
	fd->free_blocks[fd->nfree++] = blk - global_block(f, die, 0);
	f->erases++;
	if (f->erase_count)
		f->erase_count[blk]++;
}

/* ---- checks ----------------------------------------------------------- */

uint64_t ftl_check(const struct ftl *f)
{
	const struct rs_ssd_geom *g = &f->g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die, bad = 0;
	uint32_t *count = calloc(nblocks, sizeof(uint32_t));
	RS_ASSERT(count != NULL);
	for (uint64_t lpn = 0; lpn < g->logical_units; lpn++) {
		uint32_t e = ftl_map_get(f, (uint32_t)lpn);
		if (!ftl_is_flash(e))
			continue;
		if (e >= g->physical_units || ftl_rmap_get(f, e) != lpn) {
			bad++;
			continue;
		}
		count[ftl_ppn_block(f, e)]++;
	}
	for (uint64_t b = 0; b < nblocks; b++) {
		if (count[b] != f->valid[b])
			bad++;
		if (f->state[b] == FTL_BLK_FREE && f->valid[b] != 0)
			bad++;
	}
	for (uint32_t d = 0; d < g->ndies; d++) {
		const struct ftl_die *fd = &f->die[d];
		for (uint32_t i = 0; i < fd->nfree; i++)
			if (f->state[global_block(f, d, fd->free_blocks[i])] != FTL_BLK_FREE)
				bad++;
	}
	free(count);
	return bad;
}

double ftl_write_amp(const struct ftl *f)
{
	if (f->host_units == 0)
		return 1.0;
	return (double)(f->host_units + f->gc_units) / (double)f->host_units;
}
