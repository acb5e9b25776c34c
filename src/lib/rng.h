/* SPDX-License-Identifier: MIT */
/*
 * Seeded random streams: xoshiro256** seeded through splitmix64.
 *
 * Every stream is keyed by (run seed, a stable name such as the task's name,
 * a purpose constant), never by creation order, so adding a task never
 * changes the draws of another.
 */
#ifndef EEVDF_RNG_H
#define EEVDF_RNG_H

#include "internal.h"

struct eevdf_rng {
	u64 s[4];
};

/* Purposes, so one name can own several independent streams. */
enum eevdf_rng_purpose {
	EEVDF_RNG_BEHAVIOUR = 1, /* a task's program draws */
	EEVDF_RNG_COSTS = 2,	 /* jitter of the cost model */
};

/* One splitmix64 step: advances *state and returns the next output. */
u64 eevdf__splitmix64(u64 *state);

/* 64-bit FNV-1a hash of a NUL-terminated string. */
u64 eevdf__hash_str(const char *s);

/* Seed r from (seed, key, purpose).  key may be "" but not NULL. */
void eevdf__rng_seed(struct eevdf_rng *r, u64 seed, const char *key,
		     u32 purpose);

/* Next 64 random bits. */
u64 eevdf__rng_next(struct eevdf_rng *r);

/* Uniform integer in [0, bound) without modulo bias; bound 0 returns 0. */
u64 eevdf__rng_below(struct eevdf_rng *r, u64 bound);

/* Uniform double in [0, 1) with 53 random bits (for output-side draws and
 * distribution sampling, never for scheduling decisions). */
double eevdf__rng_double(struct eevdf_rng *r);

#endif
