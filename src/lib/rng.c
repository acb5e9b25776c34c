/* SPDX-License-Identifier: MIT */
/*
 * Seeded random streams: splitmix64 for seeding, FNV-1a for keys and
 * xoshiro256** for the draws.  See rng.h.
 *
 * Only integer arithmetic with fully defined wrap-around is used (apart
 * from the final scaling in eevdf__rng_double), so every compiler, flag set
 * and platform produces the same streams.
 */
#include "rng.h"

#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ULL
#define SPLITMIX_MUL1 0xBF58476D1CE4E5B9ULL
#define SPLITMIX_MUL2 0x94D049BB133111EBULL

#define FNV1A_OFFSET 14695981039346656037ULL
#define FNV1A_PRIME 1099511628211ULL

/* k must be in 1..63: a shift by 64 would be undefined. */
static inline u64 rotl64(u64 x, unsigned int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 eevdf__splitmix64(u64 *state)
{
	u64 z;

	*state += SPLITMIX_GAMMA;
	z = *state;
	z = (z ^ (z >> 30)) * SPLITMIX_MUL1;
	z = (z ^ (z >> 27)) * SPLITMIX_MUL2;
	return z ^ (z >> 31);
}

u64 eevdf__hash_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	u64 h = FNV1A_OFFSET;

	/* Bytes, not chars, so the hash does not depend on char signedness. */
	while (*p) {
		h ^= *p++;
		h *= FNV1A_PRIME;
	}
	return h;
}

void eevdf__rng_seed(struct eevdf_rng *r, u64 seed, const char *key,
		     u32 purpose)
{
	u64 state;
	size_t i;

	/*
	 * Fold the three inputs in one at a time, with a splitmix64 step
	 * between them.  Each step is a bijection of the state, so changing
	 * one input alone (with a different hash, for the key) always gives
	 * a different state.  The steps are non-linear, so two inputs changed
	 * together do not cancel the way they would under a plain
	 * seed ^ hash ^ purpose, where seed 1 with key A could equal seed 2
	 * with key B.  FNV-1a of nearby names such as "t1" and "t2" differs
	 * in few bits; the step after the key spreads that over all 64.
	 */
	state = seed;
	state = eevdf__splitmix64(&state) ^ eevdf__hash_str(key);
	state = eevdf__splitmix64(&state) ^ ((u64)purpose * SPLITMIX_GAMMA);
	state = eevdf__splitmix64(&state);

	for (i = 0; i < ARRAY_SIZE(r->s); i++)
		r->s[i] = eevdf__splitmix64(&state);

	/*
	 * xoshiro's all-zero state is a fixed point that outputs only zeros.
	 * The four words come from four distinct splitmix64 states through a
	 * bijective finaliser, so at most one of them can be zero and this
	 * never triggers; it is kept so that the guarantee does not rest on
	 * that argument alone.
	 */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = SPLITMIX_GAMMA;
}

u64 eevdf__rng_next(struct eevdf_rng *r)
{
	u64 *s = r->s;
	u64 result = rotl64(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

/*
 * Lemire's multiply-and-reject method: the high half of x * bound is a
 * value in [0, bound); it is exactly uniform once the draws whose low half
 * falls below 2^64 mod bound are thrown away.  That threshold needs a
 * division, which is only computed when the low half is small enough that
 * a rejection is possible at all.
 */
u64 eevdf__rng_below(struct eevdf_rng *r, u64 bound)
{
	u128 m;
	u64 threshold;

	/* No draw is taken: an empty range has nothing to choose. */
	if (bound == 0)
		return 0;

	m = (u128)eevdf__rng_next(r) * bound;
	if ((u64)m < bound) {
		/* (2^64 - bound) mod bound == 2^64 mod bound. */
		threshold = (0 - bound) % bound;
		while ((u64)m < threshold)
			m = (u128)eevdf__rng_next(r) * bound;
	}
	return (u64)(m >> 64);
}

double eevdf__rng_double(struct eevdf_rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly: no rounding. */
	return (double)(eevdf__rng_next(r) >> 11) * 0x1.0p-53;
}
