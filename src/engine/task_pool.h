/* SPDX-License-Identifier: MIT */
/*
 * Where tasks live: slabs of 64-byte aligned task slots, taken from the
 * library's allocator, and a free list of the slots of freed tasks.
 *
 * A task's first cache line is its entity's tree node (sched.h), and a
 * tree walk of a queue reads one such line per node.  A malloc() per
 * task spent 80 of its 1 100 bytes on a header and the alignment, and
 * scattered the nodes over as many pages as tasks; slots packed in slabs
 * cost neither.  Slots are handed out zeroed.  The order slots are handed
 * out in depends on the order tasks are freed, never on addresses, and no
 * simulated decision reads an address: results do not depend on it.
 */
#ifndef EEVDF_TASK_POOL_H
#define EEVDF_TASK_POOL_H

#include "sched/sched.h"

struct task_pool {
	void **slabs; /* each as malloc() returned it */
	size_t nr_slabs, cap_slabs;
	unsigned char *next;	/* the newest slab's first unused slot */
	size_t left;		/* unused slots from next on */
	struct free_slot *free; /* freed slots, linked by their first word */
};

void eevdf__task_pool_init(struct task_pool *pool);
/* Free every slab: the tasks in them must be done with. */
void eevdf__task_pool_destroy(struct task_pool *pool);
/* A zeroed task slot, or NULL when out of memory. */
struct task *eevdf__task_pool_get(struct task_pool *pool);
/* Give p's slot back (NULL: a no-op). */
void eevdf__task_pool_put(struct task_pool *pool, struct task *p);

#endif
