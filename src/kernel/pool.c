#include "kernel/pool.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

struct rs_pool_chunk {
	struct rs_pool_chunk *next;
	max_align_t data[];
};

void rs_pool_init(struct rs_pool *pool, size_t obj_size, size_t per_chunk)
{
	size_t align = sizeof(max_align_t);
	memset(pool, 0, sizeof(*pool));
	if (obj_size < sizeof(void *))
		obj_size = sizeof(void *);
	pool->obj_size = (obj_size + align - 1) / align * align;
	pool->per_chunk = per_chunk ? per_chunk : 256;
}

void rs_pool_destroy(struct rs_pool *pool)
{
	struct rs_pool_chunk *c = pool->chunks;
	while (c) {
		struct rs_pool_chunk *next = c->next;
		free(c);
		c = next;
	}
	memset(pool, 0, sizeof(*pool));
}

void rs_pool_grow(struct rs_pool *pool)
{
	/* Zeroed: objects may keep state across their lives in the pool past
	 * the free-list link (an event's generation), and it starts at 0. */
	struct rs_pool_chunk *c = calloc(1, sizeof(*c) + pool->obj_size * pool->per_chunk);
	if (!c)
		rs_out_of_memory("a pool of simulation objects");
	c->next = pool->chunks;
	pool->chunks = c;
	char *base = (char *)c->data;
	/* Thread the new objects so they are handed out in address order. */
	for (size_t i = pool->per_chunk; i-- > 0;) {
		void *obj = base + i * pool->obj_size;
		*(void **)obj = pool->free_list;
		pool->free_list = obj;
	}
	pool->capacity += pool->per_chunk;
}

uint64_t rs_pool_free_count(const struct rs_pool *pool)
{
	uint64_t n = 0;
	for (void *obj = pool->free_list; obj; obj = *(void **)obj)
		n++;
	return n;
}
