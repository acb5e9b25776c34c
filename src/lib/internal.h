/* SPDX-License-Identifier: MIT */
/*
 * src/lib/: the foundation, with no knowledge of scheduling: the
 * integer types and asserts (this file), errors and version (error.c),
 * the allocator every allocation goes through (alloc.c), checked
 * simulated-time arithmetic (simtime.h),
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

/* p rounded up to a multiple of align (a power of two): the start of an
 * over-aligned array in a block malloc() gave with align bytes to spare */
static inline void *eevdf__align_up(void *p, size_t align)
{
	return (char *)p + (-(uintptr_t)p & (align - 1));
}

/*
 * Start loading the n bytes at p into the cache, one request per 64-byte
 * line, so that the misses of a cold object overlap instead of stalling
 * one after another.  A hint only: it never faults and changes no result.
 */
static inline void eevdf__prefetch(const void *p, size_t n)
{
	/* the callers' n is a constant: no loop left once unrolled */
#pragma GCC unroll 16
	for (size_t off = 0; off < n; off += 64)
		__builtin_prefetch((const char *)p + off);
}

/*
 * Broken internal invariants are bugs, not input errors, and the library
 * never exits its host: where a run can reach one, the code checks it
 * and fails the run with EEVDF_EINTERNAL and a message that names it
 * (the event loop's clock, the interpreter, the event queue, the
 * metrics), so that a simulator never keeps going on a corrupted state
 * to produce plausible-looking wrong numbers.
 *
 * EEVDF_ASSERT states the model's own invariants, those the invariant
 * checker (eevdf__rq_check(), config.check_invariants) also verifies as
 * a whole: it aborts at the line that broke only in the test builds
 * (EEVDF_TEST_ASSERTS: make asan, make clang, make coverage), where a
 * core dump is what a failing test wants, and compiles to nothing in the
 * library users link.
 */
#if defined(__CPPCHECK__) || defined(__clang_analyzer__)
/* make lint: cppcheck and clang-tidy take assert(cond) to mean that cond
 * holds from there on, which the test builds check by aborting. */
#include <assert.h>
#define EEVDF_ASSERT(cond) assert(cond)
#elif defined(EEVDF_TEST_ASSERTS)
#define EEVDF_ASSERT(cond)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			eevdf__assert_fail(#cond, __FILE__, __LINE__);         \
	} while (0)
_Noreturn void eevdf__assert_fail(const char *cond, const char *file, int line);
#else
/* still type-checked, never evaluated */
#define EEVDF_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/*
 * Memory (alloc.c): every allocation of the library goes through the
 * allocator of eevdf_set_allocator().  The C library's names are mapped
 * onto it here, for every file of the library (they all include this
 * header), so that code reads as plain C and no call can slip past;
 * tests/alloc_check.sh holds the archive to it.  Strings handed to the
 * caller to free() are made with eevdf__user_strdup().
 */
void *eevdf__malloc(size_t size);
void *eevdf__calloc(size_t n, size_t size);
void *eevdf__realloc(void *ptr, size_t size);
void eevdf__free(void *ptr);
/* A copy of s from the C library's malloc(), for the caller to free(). */
char *eevdf__user_strdup(const char *s);

#ifndef __CPPCHECK__ /* make lint: cppcheck knows malloc and free */
#define malloc(size) eevdf__malloc(size)
#define calloc(n, size) eevdf__calloc(n, size)
#define realloc(ptr, size) eevdf__realloc(ptr, size)
#define free(ptr) eevdf__free(ptr)
#endif

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

/*
 * The set bits of x.  x86-64's baseline has no popcnt instruction, so
 * __builtin_popcountll() is a call into libgcc there (__popcountdi2, 0.27 %
 * of a schbench run's instructions, from the idle-CPU scan); this is the
 * same count inline: pairs, nibbles and bytes summed in place, and the
 * bytes added up by one multiply (Hacker's Delight, section 5-1).
 */
static inline unsigned int popcount_u64(u64 x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

#endif
