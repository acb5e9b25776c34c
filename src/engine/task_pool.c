/* SPDX-License-Identifier: MIT */
/* Slabs of aligned task slots and their free list (task_pool.h). */
#include <string.h>

#include "task_pool.h"

#define TASK_ALIGN 64
/* The first slab holds a few tasks, so that a small run stays small;
 * each next one twice as many, up to this many. */
#define SLAB_FIRST 8
#define SLAB_MAX 256

static size_t slot_size(void)
{
	return (sizeof(struct task) + TASK_ALIGN - 1) / TASK_ALIGN * TASK_ALIGN;
}

void eevdf__task_pool_init(struct task_pool *pool)
{
	memset(pool, 0, sizeof(*pool));
}

void eevdf__task_pool_destroy(struct task_pool *pool)
{
	for (size_t i = 0; i < pool->nr_slabs; i++)
		free(pool->slabs[i]);
	free(pool->slabs);
	eevdf__task_pool_init(pool);
}

/* A new slab; the pool is unchanged on failure. */
static int pool_grow(struct task_pool *pool)
{
	size_t n = SLAB_FIRST;
	unsigned char *raw;

	for (size_t i = 0; i < pool->nr_slabs && n < SLAB_MAX; i++)
		n *= 2;
	if (pool->nr_slabs == pool->cap_slabs) {
		size_t cap = pool->cap_slabs ? 2 * pool->cap_slabs : 16;
		void **s = realloc(pool->slabs, cap * sizeof(*s));

		if (!s)
			return EEVDF_ENOMEM;
		pool->slabs = s;
		pool->cap_slabs = cap;
	}
	raw = malloc(n * slot_size() + TASK_ALIGN);
	if (!raw)
		return EEVDF_ENOMEM;
	pool->slabs[pool->nr_slabs++] = raw;
	pool->next = eevdf__align_up(raw, TASK_ALIGN);
	pool->left = n;
	return 0;
}

/* A freed slot: its first word links it to the next free one. */
struct free_slot {
	struct free_slot *next;
};

struct task *eevdf__task_pool_get(struct task_pool *pool)
{
	struct task *p = (struct task *)(void *)pool->free;

	if (p) {
		pool->free = pool->free->next;
	} else {
		if (!pool->left && pool_grow(pool))
			return NULL;
		p = (struct task *)(void *)pool->next;
		pool->next += slot_size();
		pool->left--;
	}
	memset(p, 0, slot_size());
	return p;
}

void eevdf__task_pool_put(struct task_pool *pool, struct task *p)
{
	struct free_slot *f = (struct free_slot *)(void *)p;

	if (!p)
		return;
	f->next = pool->free;
	pool->free = f;
}
