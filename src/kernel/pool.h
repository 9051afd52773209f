/* Fixed-size object pool.
 *
 * Every hot-path object (events, requests, transfer jobs) comes from a pool.
 * The pool grows in chunks the first time the simulation needs more objects
 * in flight than ever before, and never shrinks; after the warm-up the hot
 * path does no malloc at all, and memory depends on the peak number of
 * objects alive, not on how long the run is. */
#ifndef RS_KERNEL_POOL_H
#define RS_KERNEL_POOL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/assert.h"

struct rs_pool_chunk;

struct rs_pool {
	size_t obj_size;             /* rounded up to pointer alignment */
	size_t per_chunk;
	void *free_list;             /* singly linked through the object's first word */
	struct rs_pool_chunk *chunks;
	uint64_t live;               /* objects handed out and not returned */
	uint64_t capacity;           /* objects allocated in all chunks */
};

void rs_pool_init(struct rs_pool *pool, size_t obj_size, size_t per_chunk);
void rs_pool_destroy(struct rs_pool *pool);
/* Add a chunk to the free list (the slow path of rs_pool_get). */
void rs_pool_grow(struct rs_pool *pool);

/* Get and put are inline: they are a few instructions, and they run for
 * every event and request. */

/* rs_pool_get_raw for a caller that has seen the free list non-empty: no
 * call to grow it, so the caller may need no saved registers. */
static inline void *rs_pool_take_free(struct rs_pool *pool)
{
	void *obj = pool->free_list;
	pool->free_list = *(void **)obj;
	pool->live++;
	return obj;
}

/* Returns memory as the object was last put back (zeroed the first time),
 * but for its first word, which held the free-list link: for callers that
 * set every field anyway, or keep some across lives (the event kernel). */
static inline void *rs_pool_get_raw(struct rs_pool *pool)
{
	if (!pool->free_list)
		rs_pool_grow(pool);
	return rs_pool_take_free(pool);
}

/* Returns zeroed memory. */
static inline void *rs_pool_get(struct rs_pool *pool)
{
	void *obj = rs_pool_get_raw(pool);
	memset(obj, 0, pool->obj_size);
	return obj;
}

/* Take and put for a pool whose holder knows its objects out another way
 * (the event kernel: every event out of its pool is pending, and counted
 * there): `live` is left alone, which saves its update and check on each. */
static inline void *rs_pool_take_free_uncounted(struct rs_pool *pool)
{
	void *obj = pool->free_list;
	pool->free_list = *(void **)obj;
	return obj;
}

static inline void rs_pool_put_uncounted(struct rs_pool *pool, void *obj)
{
	*(void **)obj = pool->free_list;
	pool->free_list = obj;
}

/* Objects on the free list, counted by walking it (tests, and holders of
 * uncounted pools). */
uint64_t rs_pool_free_count(const struct rs_pool *pool);

static inline void rs_pool_put(struct rs_pool *pool, void *obj)
{
	RS_ASSERT(pool->live > 0);
	*(void **)obj = pool->free_list;
	pool->free_list = obj;
	pool->live--;
}

#endif
