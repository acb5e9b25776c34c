/* SPDX-License-Identifier: MIT */
/*
 * The library's allocator (eevdf/alloc.h): the C library's unless the
 * program set another.  This is the one file that calls malloc() and
 * free() themselves, as (malloc) and (free), past internal.h's mapping.
 */
#include <string.h>

#include "internal.h"

static void *libc_malloc(void *ud, size_t size)
{
	(void)ud;
	return (malloc)(size);
}

static void *libc_realloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	return (realloc)(ptr, size);
}

static void libc_free(void *ud, void *ptr)
{
	(void)ud;
	(free)(ptr);
}

/*
 * Process-wide, as cJSON's hooks are (eevdf/alloc.h says why): written
 * only by eevdf_set_allocator(), before any object exists.
 */
static struct eevdf_allocator alloc_hooks = { libc_malloc, libc_realloc,
					      libc_free, NULL };

int eevdf_set_allocator(const struct eevdf_allocator *a)
{
	static const struct eevdf_allocator libc = { libc_malloc, libc_realloc,
						     libc_free, NULL };

	if (!a) {
		alloc_hooks = libc;
		return 0;
	}
	if (!a->malloc_fn || !a->realloc_fn || !a->free_fn)
		return EEVDF_EINVAL;
	alloc_hooks = *a;
	return 0;
}

/* A size of 0 asks for 1 byte: a NULL return then always means failure. */
void *eevdf__malloc(size_t size)
{
	return alloc_hooks.malloc_fn(alloc_hooks.ud, size ? size : 1);
}

void *eevdf__calloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	p = eevdf__malloc(bytes);
	if (p)
		memset(p, 0, bytes ? bytes : 1);
	return p;
}

void *eevdf__realloc(void *ptr, size_t size)
{
	if (!ptr)
		return eevdf__malloc(size);
	return alloc_hooks.realloc_fn(alloc_hooks.ud, ptr, size ? size : 1);
}

void eevdf__free(void *ptr)
{
	if (ptr)
		alloc_hooks.free_fn(alloc_hooks.ud, ptr);
}

char *eevdf__user_strdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = (malloc)(len);

	if (d)
		memcpy(d, s, len);
	return d;
}
