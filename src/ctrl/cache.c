#include "ctrl/cache.h"

#include <stdlib.h>

#include "kernel/assert.h"

enum line_state { L_FREE, L_CLEAN, L_DIRTY, L_DESTAGING };

/* Links are index + 1, so 0 is "none" and a zeroed table is empty. */
struct rs_cache_line {
	uint64_t key;                 /* line number: lba / line_blk */
	uint32_t hnext;
	uint32_t prev, next;          /* free, clean or dirty list */
	uint32_t vlo, vhi;            /* valid blocks, relative to the line */
	uint32_t dlo, dhi;            /* dirty blocks */
	uint8_t state;
	bool redirty;                 /* written while being destaged */
};

#define LN(c, i) (&(c)->l[(i) - 1])

static uint32_t hash(const struct rs_cache *c, uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & c->mask;
}

static uint32_t find(const struct rs_cache *c, uint64_t key)
{
	uint32_t i = c->bucket[hash(c, key)];
	while (i && LN(c, i)->key != key)
		i = LN(c, i)->hnext;
	return i;
}

static void hash_insert(struct rs_cache *c, uint32_t i)
{
	uint32_t *b = &c->bucket[hash(c, LN(c, i)->key)];
	LN(c, i)->hnext = *b;
	*b = i;
}

static void hash_remove(struct rs_cache *c, uint32_t i)
{
	uint32_t *p = &c->bucket[hash(c, LN(c, i)->key)];
	while (*p != i) {
		RS_ASSERT(*p != 0);
		p = &LN(c, *p)->hnext;
	}
	*p = LN(c, i)->hnext;
}

static void list_push(struct rs_cache *c, uint32_t *head, uint32_t *tail, uint32_t i)
{
	LN(c, i)->prev = *tail;
	LN(c, i)->next = 0;
	if (*tail)
		LN(c, *tail)->next = i;
	else
		*head = i;
	*tail = i;
}

static void list_remove(struct rs_cache *c, uint32_t *head, uint32_t *tail, uint32_t i)
{
	struct rs_cache_line *x = LN(c, i);
	if (x->prev)
		LN(c, x->prev)->next = x->next;
	else
		*head = x->next;
	if (x->next)
		LN(c, x->next)->prev = x->prev;
	else
		*tail = x->prev;
	x->prev = x->next = 0;
}

int rs_cache_init(struct rs_cache *c, uint64_t size_bytes, uint64_t line_bytes)
{
	*c = (struct rs_cache){ 0 };
	RS_ASSERT(line_bytes >= 512 && line_bytes % 512 == 0);
	uint64_t n = size_bytes / line_bytes;
	if (n == 0)
		n = 1;
	if (n > RS_CACHE_MAX_LINES)
		return -1;
	c->nlines = (uint32_t)n;
	c->line_blk = (uint32_t)(line_bytes / 512);
	uint32_t nb = 1;
	while (nb < 2 * c->nlines)
		nb <<= 1;
	c->mask = nb - 1;
	c->l = calloc(n, sizeof(*c->l));
	c->bucket = calloc(nb, sizeof(*c->bucket));
	if (!c->l || !c->bucket) {
		rs_cache_fini(c);
		return -1;
	}
	for (uint32_t i = c->nlines; i >= 1; i--) {
		LN(c, i)->next = c->free_head;
		c->free_head = i;
	}
	c->nfree = c->nlines;
	return 0;
}

void rs_cache_fini(struct rs_cache *c)
{
	free(c->l);
	free(c->bucket);
	*c = (struct rs_cache){ 0 };
}

/* A free line, or the least recently used clean one; 0 if all are dirty. */
static uint32_t take_line(struct rs_cache *c, uint64_t key)
{
	uint32_t i = c->free_head;
	if (i) {
		c->free_head = LN(c, i)->next;
		c->nfree--;
	} else if ((i = c->clean_head)) {
		list_remove(c, &c->clean_head, &c->clean_tail, i);
		hash_remove(c, i);
		c->nclean--;
	} else {
		return 0;
	}
	struct rs_cache_line *x = LN(c, i);
	*x = (struct rs_cache_line){ .key = key };
	hash_insert(c, i);
	return i;
}

/* Walk the lines of a range: key, and [lo, hi) inside the line. */
#define FOR_LINES(c, lba, nblk, key, lo, hi)                                         \
	for (uint64_t key = (lba) / (c)->line_blk, end_ = (lba) + (nblk), lo, hi;    \
	     key * (c)->line_blk < end_ &&                                          \
	     (lo = ((lba) > key * (c)->line_blk ? (lba) - key * (c)->line_blk : 0),  \
	      hi = (end_ < (key + 1) * (c)->line_blk ? end_ - key * (c)->line_blk :  \
		    (c)->line_blk), 1);                                             \
	     key++)

static void widen(uint32_t *a, uint32_t *b, uint64_t lo, uint64_t hi)
{
	if (*a == *b) {
		*a = (uint32_t)lo;
		*b = (uint32_t)hi;
		return;
	}
	if (lo < *a)
		*a = (uint32_t)lo;
	if (hi > *b)
		*b = (uint32_t)hi;
}

uint64_t rs_cache_span(const struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	if (nblk == 0)
		return 0;
	return (lba + nblk - 1) / c->line_blk - lba / c->line_blk + 1;
}

bool rs_cache_lookup(struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	if (nblk == 0)
		return false;
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		if (!i || LN(c, i)->vlo > lo || LN(c, i)->vhi < hi)
			return false;
	}
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		(void)lo, (void)hi;
		if (LN(c, i)->state == L_CLEAN) {
			list_remove(c, &c->clean_head, &c->clean_tail, i);
			list_push(c, &c->clean_head, &c->clean_tail, i);
		}
	}
	return true;
}

void rs_cache_fill(struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		if (!i) {
			if (!(i = take_line(c, key)))
				continue;     /* everything dirty: the data is not kept */
			LN(c, i)->state = L_CLEAN;
			LN(c, i)->vlo = (uint32_t)lo;
			LN(c, i)->vhi = (uint32_t)hi;
			list_push(c, &c->clean_head, &c->clean_tail, i);
			c->nclean++;
			continue;
		}
		struct rs_cache_line *x = LN(c, i);
		if (x->state == L_CLEAN && (hi < x->vlo || lo > x->vhi)) {
			/* Disjoint from what the line holds: keep the newer piece. */
			x->vlo = (uint32_t)lo;
			x->vhi = (uint32_t)hi;
		} else {
			widen(&x->vlo, &x->vhi, lo, hi);
		}
		if (x->state == L_CLEAN) {
			list_remove(c, &c->clean_head, &c->clean_tail, i);
			list_push(c, &c->clean_head, &c->clean_tail, i);
		}
	}
}

/* Could a write of [lba, lba+nblk) find lines now? */
static bool rs_cache_room(const struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	uint64_t absent = 0, own_clean = 0;
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		(void)lo, (void)hi;
		if (!i)
			absent++;
		else if (LN(c, i)->state == L_CLEAN)
			own_clean++;
	}
	return absent <= (uint64_t)c->nfree + c->nclean - own_clean;
}

bool rs_cache_write(struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	if (!rs_cache_room(c, lba, nblk))
		return false;
	/* Lines already present first, so the allocations below cannot take
	 * a clean line this very write is about to dirty. */
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		if (!i)
			continue;
		struct rs_cache_line *x = LN(c, i);
		widen(&x->vlo, &x->vhi, lo, hi);
		switch (x->state) {
		case L_CLEAN:
			list_remove(c, &c->clean_head, &c->clean_tail, i);
			c->nclean--;
			x->state = L_DIRTY;
			x->dlo = (uint32_t)lo;
			x->dhi = (uint32_t)hi;
			list_push(c, &c->dirty_head, &c->dirty_tail, i);
			c->ndirty++;
			break;
		case L_DIRTY:
			widen(&x->dlo, &x->dhi, lo, hi);
			break;
		case L_DESTAGING:
			if (!x->redirty) {
				x->redirty = true;
				x->dlo = x->dhi = 0;
			}
			widen(&x->dlo, &x->dhi, lo, hi);
			break;
		default:
			RS_UNREACHABLE();
		}
	}
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		if (find(c, key))
			continue;
		uint32_t i = take_line(c, key);
		RS_ASSERT(i != 0);    /* rs_cache_room said so */
		struct rs_cache_line *x = LN(c, i);
		x->state = L_DIRTY;
		x->vlo = x->dlo = (uint32_t)lo;
		x->vhi = x->dhi = (uint32_t)hi;
		list_push(c, &c->dirty_head, &c->dirty_tail, i);
		c->ndirty++;
	}
	return true;
}

static uint32_t dirty_line(const struct rs_cache *c, uint64_t key)
{
	uint32_t i = find(c, key);
	return i && LN(c, i)->state == L_DIRTY ? i : 0;
}

bool rs_cache_destage_pick(struct rs_cache *c, uint32_t max_blk, uint64_t *lba,
			   uint32_t *nblk)
{
	uint32_t h = c->dirty_head;
	if (!h)
		return false;
	uint64_t lb = c->line_blk;
	uint64_t kf = LN(c, h)->key, kl = kf;
	uint64_t start = kf * lb + LN(c, h)->dlo, end = kf * lb + LN(c, h)->dhi;
	/* Coalesce: neighbours whose dirty blocks continue the extent. */
	for (;;) {
		uint32_t p = kf > 0 ? dirty_line(c, kf - 1) : 0;
		if (!p || LN(c, p)->dhi != lb || start != kf * lb ||
		    end - ((kf - 1) * lb + LN(c, p)->dlo) > max_blk)
			break;
		kf--;
		start = kf * lb + LN(c, p)->dlo;
	}
	for (;;) {
		uint32_t n = dirty_line(c, kl + 1);
		if (!n || LN(c, n)->dlo != 0 || end != (kl + 1) * lb ||
		    (kl + 1) * lb + LN(c, n)->dhi - start > max_blk)
			break;
		kl++;
		end = kl * lb + LN(c, n)->dhi;
	}
	for (uint64_t k = kf; k <= kl; k++) {
		uint32_t i = find(c, k);
		list_remove(c, &c->dirty_head, &c->dirty_tail, i);
		c->ndirty--;
		LN(c, i)->state = L_DESTAGING;
		LN(c, i)->redirty = false;
		c->ndestaging++;
	}
	*lba = start;
	*nblk = (uint32_t)(end - start);
	return true;
}

void rs_cache_destage_done(struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		(void)lo, (void)hi;
		RS_ASSERT(i && LN(c, i)->state == L_DESTAGING);
		struct rs_cache_line *x = LN(c, i);
		c->ndestaging--;
		if (x->redirty) {
			x->redirty = false;
			x->state = L_DIRTY;
			list_push(c, &c->dirty_head, &c->dirty_tail, i);
			c->ndirty++;
		} else {
			x->state = L_CLEAN;
			x->dlo = x->dhi = 0;
			list_push(c, &c->clean_head, &c->clean_tail, i);
			c->nclean++;
		}
	}
}

void rs_cache_invalidate(struct rs_cache *c, uint64_t lba, uint32_t nblk)
{
	FOR_LINES(c, lba, nblk, key, lo, hi) {
		uint32_t i = find(c, key);
		(void)lo, (void)hi;
		if (!i || LN(c, i)->state != L_CLEAN)
			continue;
		list_remove(c, &c->clean_head, &c->clean_tail, i);
		hash_remove(c, i);
		c->nclean--;
		LN(c, i)->state = L_FREE;
		LN(c, i)->next = c->free_head;
		c->free_head = i;
		c->nfree++;
	}
}

/* The Promise FastTrak TX4000 driver is the reason for TWO_WAY: its
 * write-back switch changed nothing on one drive or on RAID0 of three and
 * four, and acted on RAID0 of two, RAID1 and RAID01 (a mirror of two
 * stripe sets), which the study's author reads as caching written for
 * pairs of drives. */
bool rs_cache_wb_applies(int scope, uint32_t copies, uint32_t ndata)
{
	if (scope == RS_CACHE_WB_ANY)
		return true;
	return copies == 2 || (copies == 1 && ndata == 2);
}
