/* SPDX-License-Identifier: MIT */
/* Tests of the task pool: aligned zeroed slots, slab sizes, reuse, failure. */
#include <string.h>

#include "suites.h"
#include "engine/task_pool.h"
#include "eevdf/alloc.h"

/* The slot stride: struct task rounded up to whole 64-byte lines. */
static size_t stride(void)
{
	return (sizeof(struct task) + 63) / 64 * 64;
}

/*
 * Slabs hold 8, then 16, 32, ... slots (task_pool.c).  By hand: the first
 * 8 gets come from one slab, 64-byte aligned, one stride apart; the 9th
 * opens a second slab, which serves the 9th to the 24th; the 25th opens a
 * third.
 */
START_TEST(slots_are_aligned_zeroed_and_come_in_doubling_slabs)
{
	struct task_pool pool;
	struct task *t[25];

	eevdf__task_pool_init(&pool);
	for (int i = 0; i < 25; i++) {
		const unsigned char *b;

		t[i] = eevdf__task_pool_get(&pool);
		ck_assert_ptr_nonnull(t[i]);
		ck_assert_uint_eq((uintptr_t)t[i] % 64, 0);
		b = (const unsigned char *)t[i];
		for (size_t k = 0; k < sizeof(struct task); k++)
			ck_assert_uint_eq(b[k], 0);
		/* scribble: the next get must not see it */
		memset(t[i], 0xa5, sizeof(struct task));
		if (i == 7)
			ck_assert_uint_eq(pool.nr_slabs, 1);
		if (i == 8 || i == 23)
			ck_assert_uint_eq(pool.nr_slabs, 2);
		if (i == 24)
			ck_assert_uint_eq(pool.nr_slabs, 3);
	}
	for (int i = 1; i < 8; i++)
		ck_assert_uint_eq((uintptr_t)t[i] - (uintptr_t)t[i - 1],
				  stride());
	for (int i = 10; i < 24; i++)
		ck_assert_uint_eq((uintptr_t)t[i] - (uintptr_t)t[i - 1],
				  stride());
	eevdf__task_pool_destroy(&pool);
	ck_assert_uint_eq(pool.nr_slabs, 0);
}
END_TEST

/* A slot given back is the next one handed out (last in, first out), and
 * it comes back zeroed; no new slab is taken for it. */
START_TEST(a_freed_slot_is_reused_first_and_zeroed)
{
	struct task_pool pool;
	struct task *a, *b, *c;

	eevdf__task_pool_init(&pool);
	a = eevdf__task_pool_get(&pool);
	b = eevdf__task_pool_get(&pool);
	a->pid = 7;
	b->pid = 8;
	eevdf__task_pool_put(&pool, a);
	eevdf__task_pool_put(&pool, b);
	eevdf__task_pool_put(&pool, NULL); /* a no-op */
	c = eevdf__task_pool_get(&pool);
	ck_assert_ptr_eq(c, b);
	ck_assert_int_eq(c->pid, 0);
	ck_assert_ptr_eq(eevdf__task_pool_get(&pool), a);
	ck_assert_int_eq(a->pid, 0);
	ck_assert_uint_eq(pool.nr_slabs, 1);
	eevdf__task_pool_destroy(&pool);
}
END_TEST

static int fail_after; /* allocations to allow before failing */

static void *failing_malloc(void *ud, size_t size)
{
	(void)ud;
	return fail_after-- > 0 ? (malloc)(size) : NULL;
}

static void *failing_realloc(void *ud, void *p, size_t size)
{
	(void)ud;
	return fail_after-- > 0 ? (realloc)(p, size) : NULL;
}

static void plain_free(void *ud, void *p)
{
	(void)ud;
	(free)(p);
}

/* Out of memory for a new slab: NULL, and the pool is as it was. */
START_TEST(a_slab_that_cannot_be_had_leaves_the_pool_unchanged)
{
	static const struct eevdf_allocator a = { failing_malloc,
						  failing_realloc, plain_free,
						  NULL };
	struct task_pool pool;

	ck_assert_int_eq(eevdf_set_allocator(&a), 0);
	eevdf__task_pool_init(&pool);
	/* the slab list, then the first slab */
	fail_after = 2;
	for (int i = 0; i < 8; i++)
		ck_assert_ptr_nonnull(eevdf__task_pool_get(&pool));
	ck_assert_ptr_null(eevdf__task_pool_get(&pool));
	ck_assert_uint_eq(pool.nr_slabs, 1);
	ck_assert_uint_eq(pool.left, 0);
	fail_after = 1;
	ck_assert_ptr_nonnull(eevdf__task_pool_get(&pool));
	ck_assert_uint_eq(pool.nr_slabs, 2);
	eevdf__task_pool_destroy(&pool);
	ck_assert_int_eq(eevdf_set_allocator(NULL), 0);
}
END_TEST

Suite *task_pool_suite(void)
{
	Suite *s = suite_create("task_pool");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, slots_are_aligned_zeroed_and_come_in_doubling_slabs);
	tcase_add_test(tc, a_freed_slot_is_reused_first_and_zeroed);
	tcase_add_test(tc, a_slab_that_cannot_be_had_leaves_the_pool_unchanged);
	suite_add_tcase(s, tc);
	return s;
}
