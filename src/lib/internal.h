/* SPDX-License-Identifier: MIT */
/*
 * src/lib/: the foundation, with no knowledge of scheduling: the
 * integer types and asserts (this file), errors and version (error.c),
 * durations (duration.c), seeded random streams (rng.c), the augmented
 * red-black tree (rbtree.c, the kernel's lib/rbtree.c), the event queue
 * ordered by (time, class, seq) (eventq.c), latency histograms (hist.c),
 * the edit distance of "did you mean" messages (strdist.c), SHA-256 for
 * the digests results carry (sha256.c), a growing string (strbuf.c),
 * kernel-style CPU lists (cpulist.c) and statistics over seeds (stats.c).
 * It includes only the C library and include/eevdf/.
 *
 * Helpers shared by the library's internals.  Nothing here is API.
 * Internal non-static functions are prefixed eevdf__ so that libeevdf.a
 * never clashes with a user's symbols.
 */
#ifndef EEVDF_INTERNAL_H
#define EEVDF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "eevdf/eevdf.h"

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
/* 128-bit intermediates, as the kernel's mul_u64_u32_shr() uses. */
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

#define container_of(ptr, type, member)                                        \
	((type *)(uintptr_t)((const char *)(ptr)-offsetof(type, member)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Broken internal invariants are bugs, not input errors: they abort in
 * every build (a simulator that keeps going on a corrupted run queue only
 * produces plausible-looking wrong numbers).
 */
#ifdef __CPPCHECK__
/* make lint: cppcheck takes assert(cond) to mean that cond holds from
 * there on, which EEVDF_ASSERT guarantees by aborting otherwise. */
#include <assert.h>
#define EEVDF_ASSERT(cond) assert(cond)
#else
#define EEVDF_ASSERT(cond)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			eevdf__assert_fail(#cond, __FILE__, __LINE__);         \
	} while (0)
#endif

_Noreturn void eevdf__assert_fail(const char *cond, const char *file, int line);

/*
 * Format a message into the caller's err buffer of errlen bytes (the
 * err/errlen pair of eevdf_sim_new() and the parsers); NULL or 0: none.
 */
void eevdf__set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}
static inline u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}
static inline s64 min_s64(s64 a, s64 b)
{
	return a < b ? a : b;
}
static inline s64 max_s64(s64 a, s64 b)
{
	return a > b ? a : b;
}

#endif
