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
/* Returns zeroed memory. */
void *rs_pool_get(struct rs_pool *pool);
void rs_pool_put(struct rs_pool *pool, void *obj);

#endif
