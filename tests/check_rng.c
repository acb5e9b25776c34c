/* SPDX-License-Identifier: MIT */
/* Tests of the seeded random streams: known answers, keying and ranges. */
#include <string.h>

#include "suites.h"
#include "lib/rng.h"

START_TEST(rng_splitmix64_matches_known_answers_from_zero)
{
	u64 state = 0;

	ck_assert_uint_eq(eevdf__splitmix64(&state), 0xE220A8397B1DCDAFULL);
	ck_assert_uint_eq(state, 0x9E3779B97F4A7C15ULL);
	ck_assert_uint_eq(eevdf__splitmix64(&state), 0x6E789E6AA1B965F4ULL);
	ck_assert_uint_eq(eevdf__splitmix64(&state), 0x06C45D188009454FULL);
	ck_assert_uint_eq(state, 3 * 0x9E3779B97F4A7C15ULL);
}
END_TEST

START_TEST(rng_fnv1a_matches_known_answers)
{
	/* "" is the offset basis itself; the others are published vectors. */
	ck_assert_uint_eq(eevdf__hash_str(""), 0xcbf29ce484222325ULL);
	ck_assert_uint_eq(eevdf__hash_str("a"), 0xaf63dc4c8601ec8cULL);
	ck_assert_uint_eq(eevdf__hash_str("foobar"), 0x85944171f73967e8ULL);
}
END_TEST

START_TEST(rng_fnv1a_hashes_high_bytes_as_unsigned)
{
	/* One round by hand: (offset ^ 0xff) * prime, modulo 2^64. */
	u64 want = (0xcbf29ce484222325ULL ^ 0xffu) * 1099511628211ULL;

	ck_assert_uint_eq(eevdf__hash_str("\xff"), want);
}
END_TEST

START_TEST(rng_xoshiro256ss_matches_reference_from_1_2_3_4)
{
	/*
	 * From state {1, 2, 3, 4}: the first output is rotl(2 * 5, 7) * 9 =
	 * 11520; the update leaves s[1] = 0, so the second is 0; the third
	 * is rotl(262149 * 5, 7) * 9 = 1509978240.  The fourth is the
	 * reference implementation's published value.
	 */
	struct eevdf_rng r = { { 1, 2, 3, 4 } };

	ck_assert_uint_eq(eevdf__rng_next(&r), 11520);
	ck_assert_uint_eq(eevdf__rng_next(&r), 0);
	ck_assert_uint_eq(eevdf__rng_next(&r), 1509978240);
	ck_assert_uint_eq(eevdf__rng_next(&r), 1215971899390074240ULL);
}
END_TEST

START_TEST(rng_same_seed_key_and_purpose_give_identical_sequences)
{
	struct eevdf_rng a, b;
	int i;

	eevdf__rng_seed(&a, 42, "worker", EEVDF_RNG_BEHAVIOUR);
	eevdf__rng_seed(&b, 42, "worker", EEVDF_RNG_BEHAVIOUR);
	ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
	for (i = 0; i < 1000; i++)
		ck_assert_uint_eq(eevdf__rng_next(&a), eevdf__rng_next(&b));
}
END_TEST

START_TEST(rng_seeded_state_is_never_all_zero)
{
	static const char *const keys[] = { "", "a", "task0" };
	struct eevdf_rng r;
	size_t k;
	u64 seed;

	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		for (seed = 0; seed < 64; seed++) {
			eevdf__rng_seed(&r, seed, keys[k], 0);
			ck_assert(r.s[0] | r.s[1] | r.s[2] | r.s[3]);
		}
	}
}
END_TEST

static u64 first_output(u64 seed, const char *key, u32 purpose)
{
	struct eevdf_rng r;

	eevdf__rng_seed(&r, seed, key, purpose);
	return eevdf__rng_next(&r);
}

START_TEST(rng_changing_seed_key_or_purpose_changes_stream)
{
	u64 base = first_output(1, "a", EEVDF_RNG_BEHAVIOUR);

	ck_assert_uint_ne(base, first_output(2, "a", EEVDF_RNG_BEHAVIOUR));
	ck_assert_uint_ne(base, first_output(1, "b", EEVDF_RNG_BEHAVIOUR));
	ck_assert_uint_ne(base, first_output(1, "", EEVDF_RNG_BEHAVIOUR));
	ck_assert_uint_ne(base, first_output(1, "a", EEVDF_RNG_COSTS));
}
END_TEST

static int cmp_u64(const void *pa, const void *pb)
{
	u64 a = *(const u64 *)pa, b = *(const u64 *)pb;

	return (a > b) - (a < b);
}

START_TEST(rng_nearby_seeds_keys_and_purposes_never_collide)
{
	/*
	 * 64 seeds x 16 names x 2 purposes: every first output distinct.
	 * Nearby inputs are where a weak mix (say seed ^ hash) would collide.
	 */
	enum {
		SEEDS = 64,
		KEYS = 16,
		PURPOSES = 2
	};
	static u64 out[SEEDS * KEYS * PURPOSES];
	char key[16];
	size_t n = 0, i;
	u64 seed;
	u32 k, p;

	for (seed = 0; seed < SEEDS; seed++) {
		for (k = 0; k < KEYS; k++) {
			snprintf(key, sizeof(key), "t%u", (unsigned int)k);
			for (p = 1; p <= PURPOSES; p++)
				out[n++] = first_output(seed, key, p);
		}
	}
	qsort(out, n, sizeof(out[0]), cmp_u64);
	for (i = 1; i < n; i++)
		ck_assert_uint_ne(out[i - 1], out[i]);
}
END_TEST

/*
 * A generator whose next output is want.  xoshiro256** outputs
 * rotl(s1 * 5, 7) * 9, so s1 = rotr(want * inv(9), 7) * inv(5), with the
 * inverses taken modulo 2^64.  The other words only shape later outputs.
 */
static struct eevdf_rng rng_about_to_output(u64 want)
{
	const u64 inv5 = 0xCCCCCCCCCCCCCCCDULL, inv9 = 0x8E38E38E38E38E39ULL;
	struct eevdf_rng r = { { 0x0123456789abcdefULL, 0, 0xfeedULL, 42 } };
	u64 x = want * inv9;

	ck_assert_uint_eq(5 * inv5, 1);
	ck_assert_uint_eq(9 * inv9, 1);
	r.s[1] = ((x >> 7) | (x << 57)) * inv5;
	return r;
}

START_TEST(rng_below_rejects_draws_in_the_biased_zone)
{
	/*
	 * bound = 2^63 + 1 leaves 2^64 mod bound = 2^63 - 1 values over, and
	 * a draw x is thrown away when the low half of x * bound, which is
	 * (x << 63) + x, is below that.  x = 2 gives low half 2: rejected
	 * (keeping it would answer 1).  The answer must come from the next
	 * draw, and exactly two draws must be used.
	 */
	const u64 bound = (1ULL << 63) + 1, threshold = (1ULL << 63) - 1;
	struct eevdf_rng r = rng_about_to_output(2), twin = r;
	u128 m;

	ck_assert_uint_eq(eevdf__rng_next(&twin), 2);
	m = (u128)eevdf__rng_next(&twin) * bound;
	ck_assert_uint_ge((u64)m, threshold); /* the second draw is kept */
	ck_assert_uint_ne((u64)(m >> 64), 1);
	ck_assert_uint_eq(eevdf__rng_below(&r, bound), (u64)(m >> 64));
	ck_assert(memcmp(&r, &twin, sizeof(r)) == 0);
}
END_TEST

START_TEST(rng_below_stays_under_bound)
{
	static const u64 bounds[] = {
		2,
		3,
		6,
		7,
		10,
		1000,
		1ULL << 32,
		(1ULL << 32) + 1,
		(1ULL << 63) - 1,
		(1ULL << 63) + 1,
		UINT64_MAX - 1,
		UINT64_MAX,
	};
	struct eevdf_rng r;
	size_t b;
	int i;

	eevdf__rng_seed(&r, 7, "below", EEVDF_RNG_BEHAVIOUR);
	for (b = 0; b < ARRAY_SIZE(bounds); b++)
		for (i = 0; i < 10000; i++)
			ck_assert_uint_lt(eevdf__rng_below(&r, bounds[b]),
					  bounds[b]);
}
END_TEST

START_TEST(rng_below_power_of_two_takes_top_bits)
{
	/*
	 * For bound 2^k the product x * 2^k has high half x >> (64 - k) and
	 * 2^64 mod 2^k == 0, so nothing is rejected: one draw, its top bits.
	 */
	struct eevdf_rng r, twin;
	unsigned int k;

	eevdf__rng_seed(&r, 99, "pow2", EEVDF_RNG_COSTS);
	twin = r;
	for (k = 1; k < 64; k++)
		ck_assert_uint_eq(eevdf__rng_below(&r, 1ULL << k),
				  eevdf__rng_next(&twin) >> (64 - k));
}
END_TEST

START_TEST(rng_below_six_is_fair_within_five_sigma)
{
	/*
	 * 60000 rolls: each face count is binomial with mean 10000 and
	 * variance 60000 * 1/6 * 5/6 = 25000 / 3.  Within five sigma means
	 * (c - 10000)^2 <= 25 * 25000 / 3, kept in integers by scaling by 3.
	 * The stream is fixed, so this either always or never passes.
	 */
	struct eevdf_rng r;
	s64 count[6] = { 0 };
	u64 face;
	size_t i;

	eevdf__rng_seed(&r, 2024, "die", EEVDF_RNG_BEHAVIOUR);
	for (i = 0; i < 60000; i++) {
		face = eevdf__rng_below(&r, 6);
		ck_assert_uint_lt(face, 6);
		count[face]++;
	}
	for (i = 0; i < 6; i++) {
		s64 d = count[i] - 10000;

		ck_assert_msg(3 * d * d <= 25 * 25000,
			      "face %zu came up %lld times", i,
			      (long long)count[i]);
	}
}
END_TEST

START_TEST(rng_below_zero_and_one_return_zero)
{
	struct eevdf_rng r, twin;
	int i;

	eevdf__rng_seed(&r, 3, "tiny", EEVDF_RNG_BEHAVIOUR);
	twin = r;
	for (i = 0; i < 100; i++) {
		ck_assert_uint_eq(eevdf__rng_below(&r, 0), 0);
		ck_assert_uint_eq(eevdf__rng_below(&r, 1), 0);
	}
	/* Bound 0 takes no draw; bound 1 takes exactly one. */
	for (i = 0; i < 100; i++)
		eevdf__rng_next(&twin);
	ck_assert_uint_eq(eevdf__rng_next(&r), eevdf__rng_next(&twin));
}
END_TEST

START_TEST(rng_double_lies_in_unit_interval)
{
	struct eevdf_rng r, twin;
	double d;
	int i;

	eevdf__rng_seed(&r, 5, "double", EEVDF_RNG_COSTS);
	twin = r;
	for (i = 0; i < 10000; i++) {
		d = eevdf__rng_double(&r);
		ck_assert(d >= 0.0 && d < 1.0);
		/* Exactly the top 53 bits scaled by 2^-53. */
		ck_assert(d ==
			  (double)(eevdf__rng_next(&twin) >> 11) * 0x1.0p-53);
	}
}
END_TEST

START_TEST(rng_double_extremes_are_zero_and_just_below_one)
{
	struct eevdf_rng r = rng_about_to_output(0);

	ck_assert(eevdf__rng_double(&r) == 0.0);
	r = rng_about_to_output(UINT64_MAX);
	ck_assert(eevdf__rng_double(&r) == 1.0 - 0x1.0p-53);
}
END_TEST

Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *known = tcase_create("known_answers");
	TCase *keys = tcase_create("keying");
	TCase *ranges = tcase_create("ranges");

	tcase_add_test(known, rng_splitmix64_matches_known_answers_from_zero);
	tcase_add_test(known, rng_fnv1a_matches_known_answers);
	tcase_add_test(known, rng_fnv1a_hashes_high_bytes_as_unsigned);
	tcase_add_test(known, rng_xoshiro256ss_matches_reference_from_1_2_3_4);
	suite_add_tcase(s, known);

	tcase_add_test(keys,
		       rng_same_seed_key_and_purpose_give_identical_sequences);
	tcase_add_test(keys, rng_seeded_state_is_never_all_zero);
	tcase_add_test(keys, rng_changing_seed_key_or_purpose_changes_stream);
	tcase_add_test(keys, rng_nearby_seeds_keys_and_purposes_never_collide);
	suite_add_tcase(s, keys);

	tcase_add_test(ranges, rng_below_stays_under_bound);
	tcase_add_test(ranges, rng_below_power_of_two_takes_top_bits);
	tcase_add_test(ranges, rng_below_rejects_draws_in_the_biased_zone);
	tcase_add_test(ranges, rng_below_six_is_fair_within_five_sigma);
	tcase_add_test(ranges, rng_below_zero_and_one_return_zero);
	tcase_add_test(ranges, rng_double_lies_in_unit_interval);
	tcase_add_test(ranges, rng_double_extremes_are_zero_and_just_below_one);
	suite_add_tcase(s, ranges);
	return s;
}
