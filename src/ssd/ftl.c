#define _GNU_SOURCE  /* madvise */
#include "ssd/ftl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel/assert.h"

static void *alloc_or_die(size_t n, size_t size)
{
	void *p = malloc(n * size);
	RS_ASSERT(p != NULL);
	return p;
}

/* The maps are hundreds of MB read at random, one lookup per unit: on
 * 2 MiB pages (where the kernel offers them) a lookup costs a cache miss
 * but rarely a TLB miss as well. */
static void *table_alloc(size_t n, size_t size)
{
	size_t bytes = n * size, huge = (size_t)2 << 20;
	if (bytes < huge)
		return alloc_or_die(n, size);
	void *p = NULL;
	RS_ASSERT(posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge) == 0);
#ifdef MADV_HUGEPAGE
	madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
	return p;
}

void ftl_init(struct ftl *f, const struct rs_ssd_geom *g)
{
	memset(f, 0, sizeof(*f));
	f->g = *g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die;
	f->map = table_alloc(g->logical_units, sizeof(*f->map));
	f->rmap = table_alloc(g->physical_units, sizeof(*f->rmap));
	f->valid = alloc_or_die(nblocks, sizeof(*f->valid));
	f->state = alloc_or_die(nblocks, sizeof(*f->state));
	f->die = calloc(g->ndies, sizeof(*f->die));
	RS_ASSERT(f->die != NULL);
	for (uint32_t d = 0; d < g->ndies; d++)
		f->die[d].free_blocks = alloc_or_die(g->blocks_per_die, sizeof(uint32_t));
}

void ftl_free(struct ftl *f)
{
	if (f->die)
		for (uint32_t d = 0; d < f->g.ndies; d++)
			free(f->die[d].free_blocks);
	free(f->die);
	free(f->map);
	free(f->rmap);
	free(f->valid);
	free(f->state);
	memset(f, 0, sizeof(*f));
}

/* ---- starting states ----------------------------------------------------- */

static uint32_t global_block(const struct ftl *f, uint32_t die, uint32_t local)
{
	return die * f->g.blocks_per_die + local;
}

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

static void reset(struct ftl *f)
{
	memset(f->map, 0xff, f->g.logical_units * sizeof(*f->map));
	memset(f->rmap, 0xff, f->g.physical_units * sizeof(*f->rmap));
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
 * channels). */
void ftl_fill_sequential(struct ftl *f, uint32_t free_target)
{
	reset(f);
	const struct rs_ssd_geom *g = &f->g;
	uint64_t pages = (g->logical_units + g->units_per_page - 1) / g->units_per_page;
	uint64_t pages_per_die = (pages + g->ndies - 1) / g->ndies;
	uint32_t used = (uint32_t)((pages_per_die * g->units_per_page + g->units_per_block - 1) /
				   g->units_per_block);
	RS_ASSERT(used + free_target <= g->blocks_per_die);
	for (uint32_t d = 0; d < g->ndies; d++)
		for (uint32_t b = 0; b < used; b++) {
			f->state[global_block(f, d, b)] = FTL_BLK_FULL;
			f->valid[global_block(f, d, b)] = 0;
		}
	for (uint64_t lpn = 0; lpn < g->logical_units; lpn++) {
		uint64_t page = lpn / g->units_per_page;
		uint32_t die = (uint32_t)(page % g->ndies);
		uint64_t slot = (page / g->ndies) * g->units_per_page + lpn % g->units_per_page;
		ftl_place(f, (uint32_t)lpn, die * ftl_units_per_die(f) + (uint32_t)slot);
	}
	for (uint32_t d = 0; d < g->ndies; d++) {
		struct ftl_die *fd = &f->die[d];
		fd->nfree = 0;
		for (uint32_t b = g->blocks_per_die; b-- > used;) {
			fd->free_blocks[fd->nfree++] = b;
			f->state[global_block(f, d, b)] = FTL_BLK_FREE;
			f->valid[global_block(f, d, b)] = 0;
		}
		fd->host_blk = fd->gc_blk = FTL_NONE;
	}
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

void ftl_fill_steady(struct ftl *f, uint32_t free_target, uint64_t seed)
{
	reset(f);
	const struct rs_ssd_geom *g = &f->g;
	uint32_t B = g->units_per_block;
	uint32_t used = g->blocks_per_die - free_target;
	uint64_t L = g->logical_units;
	/* The logical units are laid out by an affine permutation
	 * lpn = (a k + c) mod L with gcd(a, L) = 1: every unit exactly once,
	 * neighbours far apart, and nothing to allocate or shuffle. */
	uint64_t a = L / 3 + seed % (L / 3 + 1);
	while (gcd_u64(a, L) != 1)
		a++;
	uint64_t c = (seed >> 20) % L;
	uint64_t k = 0;
	uint32_t *count = alloc_or_die(used, sizeof(uint32_t));
	for (uint32_t d = 0; d < g->ndies; d++) {
		uint64_t share = L / g->ndies + (d < L % g->ndies ? 1 : 0);
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
		for (uint32_t b = 0; b < used; b++) {
			uint32_t gb = global_block(f, d, b);
			f->state[gb] = FTL_BLK_FULL;
			f->valid[gb] = 0;
			for (uint32_t i = 0; i < count[b]; i++, k++)
				ftl_place(f, (uint32_t)((a * k + c) % L), gb * B + i);
		}
	}
	free(count);
	RS_ASSERT(k == L);
	free_rest(f, used);
}

/* ---- the write path ---------------------------------------------------- */

void ftl_invalidate(struct ftl *f, uint32_t lpn)
{
	uint32_t ppn = f->map[lpn];
	if (!ftl_is_flash(ppn))
		return;
	uint32_t blk = ftl_ppn_block(f, ppn);
	RS_ASSERT(f->valid[blk] > 0);
	f->valid[blk]--;
	f->rmap[ppn] = FTL_NONE;
	f->map[lpn] = FTL_NONE;
}

void ftl_place(struct ftl *f, uint32_t lpn, uint32_t ppn)
{
	f->map[lpn] = ppn;
	f->rmap[ppn] = lpn;
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
		uint32_t lpn = f->rmap[ppn];
		if (lpn != FTL_NONE && f->map[lpn] == ppn) {
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
	uint32_t base = blk * f->g.units_per_block;
	for (uint32_t i = 0; i < f->g.units_per_block; i++)
		f->rmap[base + i] = FTL_NONE;
	f->state[blk] = FTL_BLK_FREE;
	fd->free_blocks[fd->nfree++] = blk - global_block(f, die, 0);
	f->erases++;
}

/* ---- checks ----------------------------------------------------------- */

uint64_t ftl_check(const struct ftl *f)
{
	const struct rs_ssd_geom *g = &f->g;
	uint64_t nblocks = (uint64_t)g->ndies * g->blocks_per_die, bad = 0;
	uint32_t *count = calloc(nblocks, sizeof(uint32_t));
	RS_ASSERT(count != NULL);
	for (uint64_t lpn = 0; lpn < g->logical_units; lpn++) {
		uint32_t e = f->map[lpn];
		if (!ftl_is_flash(e))
			continue;
		if (e >= g->physical_units || f->rmap[e] != lpn) {
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
