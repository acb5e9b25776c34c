/* SPDX-License-Identifier: MIT */
/*
 * Where libeevdf gets its memory.
 *
 * Every allocation the library makes for itself (simulations, workloads,
 * machines, the text of reports while it is built) goes through one
 * allocator, by default the C library's.  A program may replace it, to
 * account for the library's memory, to cap it (eevdf-sim --max-memory),
 * or to make allocations fail on purpose (tests).
 *
 * The allocator is the library's one piece of process-wide state, as
 * cJSON's hooks are cJSON's: set it before creating any libeevdf object
 * and never while one exists, since an object must be freed by the
 * allocator that made it.  Its functions may be called from any thread
 * that uses the library.  The JSON parser's own allocations (cJSON, while
 * a file is read) go through cJSON's hooks, which only the program may
 * set (cJSON_InitHooks()).  Strings handed to the caller to free() (the
 * results, reports and plots of results.h, report.h and plot.h) are still
 * allocated with malloc().
 */
#ifndef EEVDF_ALLOC_H
#define EEVDF_ALLOC_H

#include "eevdf/types.h"

struct eevdf_allocator {
	/* malloc(), realloc() and free() of the C library, with ud; a
	 * failure returns NULL, which the library reports as EEVDF_ENOMEM */
	void *(*malloc_fn)(void *ud, size_t size);
	void *(*realloc_fn)(void *ud, void *ptr, size_t size);
	void (*free_fn)(void *ud, void *ptr);
	void *ud;
};

/*
 * Use a (copied) for every allocation from now on; NULL restores the C
 * library's.  0, or EEVDF_EINVAL when one of its functions is missing.
 */
EEVDF_API int eevdf_set_allocator(const struct eevdf_allocator *a);

#endif
