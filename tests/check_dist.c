/* SPDX-License-Identifier: MIT */
/* Tests of the workload value distributions (src/engine/dist.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "engine/dist.h"

/* math.h makes NAN and INFINITY floats; -Wdouble-promotion wants it said. */
#define DNAN ((double)NAN)
#define DINF ((double)INFINITY)

/*
 * ck_assert() records a mark point on every call, a pipe write when tests
 * fork; loops of 10^5 checks use this instead, which costs nothing until
 * it fails.
 */
#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond);  \
	} while (0)

#define SEED 2024
#define DRAWS 100000

static struct eevdf_rng stream(void)
{
	struct eevdf_rng r;

	eevdf__rng_seed(&r, SEED, "dist", EEVDF_RNG_BEHAVIOUR);
	return r;
}

/*
 * A generator whose next output is want (as in check_rng.c): xoshiro256**
 * outputs rotl(s1 * 5, 7) * 9, so s1 = rotr(want * inv(9), 7) * inv(5).
 */
static struct eevdf_rng rng_about_to_output(u64 want)
{
	const u64 inv5 = 0xCCCCCCCCCCCCCCCDULL, inv9 = 0x8E38E38E38E38E39ULL;
	struct eevdf_rng r = { { 0x0123456789abcdefULL, 0, 0xfeedULL, 42 } };
	u64 x = want * inv9;

	r.s[1] = ((x >> 7) | (x << 57)) * inv5;
	return r;
}

/*
 * A generator whose next two outputs are want1 and want2.  The update
 * sets s1 ^= s2 ^ s0 before the second output is taken from s1, so with
 * s0 fixed, s2 = s1 ^ s0 ^ (the s1 that outputs want2).
 */
static struct eevdf_rng rng_about_to_output2(u64 want1, u64 want2)
{
	struct eevdf_rng r = rng_about_to_output(want1);
	u64 next_s1 = rng_about_to_output(want2).s[1];

	r.s[2] = r.s[1] ^ r.s[0] ^ next_s1;
	return r;
}

/* Has r taken exactly n draws since it was twin? */
static bool advanced_by(const struct eevdf_rng *r, struct eevdf_rng twin, int n)
{
	while (n--)
		eevdf__rng_next(&twin);
	return memcmp(r, &twin, sizeof(twin)) == 0;
}

/*
 * The first five draws of each kind from seed 2024, key "dist", a fresh
 * stream per kind.  The stream's raw outputs, and u = (x >> 11) * 2^-53:
 *
 *	x0 = 0x6e79a7b1fa47cada	u = 0.43154380889089261
 *	x1 = 0xabb41c0859301fdc	u = 0.67071700290506475
 *	x2 = 0x048398f4dbeb149b	u = 0.01763301828388486
 *	x3 = 0xa569d0263ddb93ea	u = 0.64614582952149946
 *	x4 = 0x4edf6d6f9f2e1f38	u = 0.30809673285619288
 *	x5 = 0x264e99e1c0251166	u = 0.14963685761917511
 *	x6 = 0xfaa10f99d67df234	u = 0.9790200949269019
 *	x7 = 0x915d8d890d324fd4	u = 0.56783375354752608
 *	x8 = 0x6cec3b5ba0c4f888	u = 0.42547961222659925
 *	x9 = 0xf00a4283ff450771	u = 0.93765655253016078
 *
 * rng_below(b) is floor(x * b / 2^64) (no draw here is rejected: the low
 * half of x * b is never below b), which is floor(u * b) unless u * b is
 * within b * 2^-53 of an integer, and none is.
 */
START_TEST(dist_golden_first_five_draws)
{
	static const s64 cv[] = { 10, 20, 30 }, ev[] = { 5, 50, 500 };
	static const double cw[] = { 1, 2, 1 };
	static const struct {
		const char *name;
		s64 want[5];
	} gold[] = {
		/* 7, no draw. */
		{ "const", { 7, 7, 7, 7, 7 } },
		/* 100 + floor(10u): 4.315, 6.707, 0.176, 6.461, 3.081. */
		{ "uniform", { 104, 106, 100, 106, 103 } },
		/* 1 + floor(6u): 2.589, 4.024, 0.106, 3.877, 1.849. */
		{ "uniform_int", { 3, 5, 1, 4, 2 } },
		/* -5 + floor(11u): 4.747, 7.378, 0.194, 7.108, 3.389. */
		{ "uniform_int_neg", { -1, 2, -5, 2, -2 } },
		/*
		 * round(-1000 ln(1 - u)): -1000 ln 0.568456 = 564.83,
		 * -1000 ln 0.329283 = 1110.84, -1000 ln 0.982367 = 17.79,
		 * -1000 ln 0.353854 = 1038.87, -1000 ln 0.691903 = 368.31.
		 */
		{ "exp", { 565, 1111, 18, 1039, 368 } },
		/*
		 * z = sqrt(-2 ln(1 - u1)) cos(2 pi u2) on the pairs (x0, x1),
		 * (x2, x3), ...: 1.06286 * cos(241.46 deg) = -0.50783,
		 * 0.18863 * cos(232.61 deg) = -0.11454, 0.85826 *
		 * cos(53.87 deg) = 0.50606, 2.78000 * cos(204.42 deg) =
		 * -2.53129, 1.05282 * cos(337.56 deg) = 0.97308; then
		 * round(1000 + 100 z): 949.22, 988.55, 1050.61, 746.87,
		 * 1097.31.
		 */
		{ "normal", { 949, 989, 1051, 747, 1097 } },
		/* round(1000 exp(z / 2)), same z: 775.76, 944.34, 1287.92,
		 * 282.06, 1626.68. */
		{ "lognormal", { 776, 944, 1288, 282, 1627 } },
		/*
		 * cum = {1, 3, 4}; 4u < 1 picks 10, < 3 picks 20, else 30.
		 * 4u is exact, and u < 1/4 iff x < 2^62, u < 3/4 iff x <
		 * 3 * 2^62: the top two bits of x decide, 00 -> 10, 01 or 10
		 * -> 20, 11 -> 30.  x0..x4 start 0x6 (01), 0xa (10), 0x0
		 * (00), 0xa (10), 0x4 (01).
		 */
		{ "choice", { 20, 20, 10, 20, 20 } },
		/* values[floor(3u)]: 1.295, 2.012, 0.053, 1.938, 0.924. */
		{ "empirical", { 50, 500, 5, 50, 5 } },
	};
	struct eevdf_dist d[ARRAY_SIZE(gold)];
	struct eevdf_rng r;
	size_t k;
	int i;

	ck_assert_int_eq(eevdf__dist_init_const(&d[0], 7), 0);
	ck_assert_int_eq(eevdf__dist_init_uniform(&d[1], 100, 110, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_uniform_int(&d[2], 1, 6, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_uniform_int(&d[3], -5, 5, NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_init_exp(&d[4], 1000, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_normal(&d[5], 1000, 100, false, 0,
						 false, 0, NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_init_lognormal(&d[6], 1000, 0.5, false, 0,
						    NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_init_choice(&d[7], cv, cw, 3, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_empirical(&d[8], ev, 3, NULL, 0), 0);

	/* The raw outputs quoted above. */
	r = stream();
	ck_assert_uint_eq(eevdf__rng_next(&r), 0x6e79a7b1fa47cadaULL);
	ck_assert_uint_eq(eevdf__rng_next(&r), 0xabb41c0859301fdcULL);
	ck_assert_uint_eq(eevdf__rng_next(&r), 0x048398f4dbeb149bULL);
	ck_assert_uint_eq(eevdf__rng_next(&r), 0xa569d0263ddb93eaULL);
	ck_assert_uint_eq(eevdf__rng_next(&r), 0x4edf6d6f9f2e1f38ULL);

	for (k = 0; k < ARRAY_SIZE(gold); k++) {
		r = stream();
		for (i = 0; i < 5; i++)
			ck_assert_msg(eevdf__dist_sample(&d[k], &r) ==
					      gold[k].want[i],
				      "%s draw %d", gold[k].name, i);
		eevdf__dist_free(&d[k]);
	}
}
END_TEST

START_TEST(dist_const_returns_its_value_without_a_draw)
{
	struct eevdf_rng r = stream(), twin = r;
	struct eevdf_dist d;
	int i;

	ck_assert_int_eq(eevdf__dist_init_const(&d, -42), 0);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(eevdf__dist_sample(&d, &r), -42);
	ck_assert(advanced_by(&r, twin, 0));
	ck_assert(eevdf__dist_mean(&d) == -42.0);
	eevdf__dist_free(&d);
}
END_TEST

START_TEST(dist_each_kind_takes_its_fixed_number_of_draws)
{
	static const s64 v[] = { 1, 2, 3 };
	static const double w[] = { 1, 1, 1 };
	struct {
		struct eevdf_dist d;
		int draws;
	} k[7];
	struct eevdf_rng r = stream(), twin;
	size_t i;
	int j;

	eevdf__dist_init_uniform(&k[0].d, 0, 1000, NULL, 0);
	k[0].draws = 1;
	eevdf__dist_init_uniform_int(&k[1].d, 0, 1000, NULL, 0);
	k[1].draws = 1;
	eevdf__dist_init_exp(&k[2].d, 50, NULL, 0);
	k[2].draws = 1;
	eevdf__dist_init_normal(&k[3].d, 0, 1, true, -1, true, 1, NULL, 0);
	k[3].draws = 2;
	eevdf__dist_init_lognormal(&k[4].d, 10, 1, true, 20, NULL, 0);
	k[4].draws = 2;
	eevdf__dist_init_choice(&k[5].d, v, w, 3, NULL, 0);
	k[5].draws = 1;
	eevdf__dist_init_empirical(&k[6].d, v, 3, NULL, 0);
	k[6].draws = 1;
	/* Clamped draws too: the count never depends on the value. */
	for (i = 0; i < ARRAY_SIZE(k); i++) {
		for (j = 0; j < 1000; j++) {
			twin = r;
			eevdf__dist_sample(&k[i].d, &r);
			if (!advanced_by(&r, twin, k[i].draws))
				ck_abort_msg("%s draw %d",
					     eevdf__dist_kind_name(k[i].d.kind),
					     j);
		}
		eevdf__dist_free(&k[i].d);
	}
}
END_TEST

START_TEST(dist_same_seed_gives_same_sequence)
{
	static const s64 v[] = { -3, 0, 9, 1000 };
	static const double w[] = { 0.5, 0, 2.5, 1 };
	struct eevdf_dist d[6];
	struct eevdf_rng a, b, c;
	s64 first[6][64];
	size_t k;
	int i, same;

	eevdf__dist_init_uniform(&d[0], -1000000, 1000000, NULL, 0);
	eevdf__dist_init_exp(&d[1], 123456.5, NULL, 0);
	eevdf__dist_init_normal(&d[2], 0, 1e6, false, 0, false, 0, NULL, 0);
	eevdf__dist_init_lognormal(&d[3], 5000, 2, false, 0, NULL, 0);
	eevdf__dist_init_choice(&d[4], v, w, 4, NULL, 0);
	eevdf__dist_init_empirical(&d[5], v, 4, NULL, 0);
	for (k = 0; k < ARRAY_SIZE(d); k++) {
		a = stream();
		b = stream();
		eevdf__rng_seed(&c, SEED + 1, "dist", EEVDF_RNG_BEHAVIOUR);
		same = 0;
		for (i = 0; i < 64; i++) {
			first[k][i] = eevdf__dist_sample(&d[k], &a);
			ck_assert_int_eq(first[k][i],
					 eevdf__dist_sample(&d[k], &b));
			same += first[k][i] == eevdf__dist_sample(&d[k], &c);
		}
		/* Another seed is another sequence (choice and empirical
		 * agree by chance often, but not 64 times in a row). */
		ck_assert_int_lt(same, 64);
		eevdf__dist_free(&d[k]);
	}
}
END_TEST

START_TEST(dist_draws_stay_in_range)
{
	struct eevdf_rng r = stream();
	struct eevdf_dist u, ui, ex, no, nmin, ln, lnmax;
	int i;

	eevdf__dist_init_uniform(&u, -7, 3, NULL, 0);
	eevdf__dist_init_uniform_int(&ui, -7, 3, NULL, 0);
	eevdf__dist_init_exp(&ex, 0.25, NULL, 0);
	/* A wide normal clamped to a narrow window hits both edges. */
	eevdf__dist_init_normal(&no, 0, 1e6, true, -10, true, 10, NULL, 0);
	eevdf__dist_init_normal(&nmin, 5, 10, true, 0, false, 0, NULL, 0);
	eevdf__dist_init_lognormal(&ln, 1000, 1, false, 0, NULL, 0);
	eevdf__dist_init_lognormal(&lnmax, 1000, 3, true, 2000, NULL, 0);
	for (i = 0; i < DRAWS; i++) {
		s64 x;

		x = eevdf__dist_sample(&u, &r);
		CHECK(x >= -7 && x < 3);
		x = eevdf__dist_sample(&ui, &r);
		CHECK(x >= -7 && x <= 3);
		CHECK(eevdf__dist_sample(&ex, &r) >= 0);
		x = eevdf__dist_sample(&no, &r);
		CHECK(x >= -10 && x <= 10);
		CHECK(eevdf__dist_sample(&nmin, &r) >= 0);
		CHECK(eevdf__dist_sample(&ln, &r) >= 0);
		x = eevdf__dist_sample(&lnmax, &r);
		CHECK(x >= 0 && x <= 2000);
	}
}
END_TEST

START_TEST(dist_uniform_ranges_reach_both_ends)
{
	struct eevdf_rng r = stream();
	struct eevdf_dist u, ui;
	bool seen[2][11] = { { false } };
	int i, k;

	eevdf__dist_init_uniform(&u, -5, 5, NULL, 0);
	eevdf__dist_init_uniform_int(&ui, -5, 5, NULL, 0);
	for (i = 0; i < 10000; i++) {
		seen[0][eevdf__dist_sample(&u, &r) + 5] = true;
		seen[1][eevdf__dist_sample(&ui, &r) + 5] = true;
	}
	/* Half-open: -5..4 but never 5; inclusive: -5..5. */
	for (k = 0; k < 10; k++)
		ck_assert(seen[0][k]);
	ck_assert(!seen[0][10]);
	for (k = 0; k <= 10; k++)
		ck_assert(seen[1][k]);
}
END_TEST

START_TEST(dist_extreme_ranges_do_not_overflow)
{
	struct eevdf_rng r = stream(), twin;
	struct eevdf_dist d;
	bool neg = false, pos = false;
	int i;

	/* Span 2^64 - 1: the whole of int64 except INT64_MAX. */
	ck_assert_int_eq(
		eevdf__dist_init_uniform(&d, INT64_MIN, INT64_MAX, NULL, 0), 0);
	for (i = 0; i < 1000; i++) {
		s64 x = eevdf__dist_sample(&d, &r);

		CHECK(x < INT64_MAX);
		neg |= x < 0;
		pos |= x > 0;
	}
	ck_assert(neg && pos);

	/* Span 2^64: a raw draw, offset from INT64_MIN. */
	ck_assert_int_eq(eevdf__dist_init_uniform_int(&d, INT64_MIN, INT64_MAX,
						      NULL, 0),
			 0);
	r = rng_about_to_output(0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MIN);
	r = rng_about_to_output(UINT64_MAX);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MAX);
	r = rng_about_to_output(1ULL << 63);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 0);

	/* min == max: a constant that still takes its draw. */
	ck_assert_int_eq(eevdf__dist_init_uniform_int(&d, INT64_MAX, INT64_MAX,
						      NULL, 0),
			 0);
	r = stream();
	twin = r;
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MAX);
	ck_assert(advanced_by(&r, twin, 1));
}
END_TEST

START_TEST(dist_real_kinds_saturate_and_round)
{
	struct eevdf_rng r;
	struct eevdf_dist d;

	/*
	 * The top draw, u = 1 - 2^-53: -ln(2^-53) = 53 ln 2 = 36.74, times
	 * a mean of 2^62 is far past INT64_MAX.
	 */
	ck_assert_int_eq(eevdf__dist_init_exp(&d, 0x1p62, NULL, 0), 0);
	r = rng_about_to_output(UINT64_MAX);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MAX);
	/* u = 0: -mean * ln(1) = -0, which rounds to 0. */
	r = rng_about_to_output(0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 0);
	/* And the top draw at mean 1: round(36.7368) = 37. */
	ck_assert_int_eq(eevdf__dist_init_exp(&d, 1, NULL, 0), 0);
	r = rng_about_to_output(UINT64_MAX);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 37);

	/*
	 * Normal from u1 = 1 - 2^-53 and u2 = 0: z = sqrt(-2 ln 2^-53) =
	 * sqrt(106 ln 2) = 8.571674, so stddev 1000 gives round(8571.674)
	 * = 8572; with u2 = 1/2, cos(pi) = -1 and -8572.  At stddev 2e18
	 * the value is 1.7e19, past either end of int64.
	 */
	ck_assert_int_eq(eevdf__dist_init_normal(&d, 0, 1000, false, 0, false,
						 0, NULL, 0),
			 0);
	r = rng_about_to_output2(UINT64_MAX, 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 8572);
	r = rng_about_to_output2(UINT64_MAX, 1ULL << 63);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), -8572);
	ck_assert_int_eq(eevdf__dist_init_normal(&d, 0, 2e18, false, 0, false,
						 0, NULL, 0),
			 0);
	r = rng_about_to_output2(UINT64_MAX, 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MAX);
	r = rng_about_to_output2(UINT64_MAX, 1ULL << 63);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MIN);
	/* The same z through lognormal: 1 * e^8.571674 = 5279.963, and with
	 * sigma 10 e^85.7 saturates. */
	ck_assert_int_eq(
		eevdf__dist_init_lognormal(&d, 1, 1, false, 0, NULL, 0), 0);
	r = rng_about_to_output2(UINT64_MAX, 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 5280);
	ck_assert_int_eq(
		eevdf__dist_init_lognormal(&d, 1, 10, false, 0, NULL, 0), 0);
	r = rng_about_to_output2(UINT64_MAX, 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MAX);
	/* Lognormal at sigma 0 is its median, whatever the draws. */
	ck_assert_int_eq(eevdf__dist_init_lognormal(&d, 1234.4, 0, false, 0,
						    NULL, 0),
			 0);
	r = stream();
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 1234);
	ck_assert_int_eq(eevdf__dist_init_lognormal(&d, 1234.5, 0, false, 0,
						    NULL, 0),
			 0);
	/* Halves round away from zero. */
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 1235);
	/* Normal at stddev 0 is its mean, and a clamp still applies. */
	ck_assert_int_eq(eevdf__dist_init_normal(&d, -2.5, 0, false, 0, false,
						 0, NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), -3);
	ck_assert_int_eq(eevdf__dist_init_normal(&d, 50, 0, false, 0, true, 7,
						 NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 7);
}
END_TEST

START_TEST(dist_choice_never_picks_a_zero_weight)
{
	static const s64 v[] = { 1, 2, 3, 4 };
	static const double w[] = { 0, 1, 1, 0 };
	struct eevdf_rng r = stream();
	struct eevdf_dist d;
	int i;

	ck_assert_int_eq(eevdf__dist_init_choice(&d, v, w, 4, NULL, 0), 0);
	for (i = 0; i < 10000; i++) {
		s64 x = eevdf__dist_sample(&d, &r);

		CHECK(x == 2 || x == 3);
	}
	/* The extreme draws: u = 0 picks the first positive weight, u = 1 -
	 * 2^-53 (2u = 2 - 2^-52 < cum[2] = 2) the last one. */
	r = rng_about_to_output(0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 2);
	r = rng_about_to_output(UINT64_MAX);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 3);
	ck_assert(eevdf__dist_mean(&d) == 2.5);
	eevdf__dist_free(&d);
}
END_TEST

START_TEST(dist_choice_top_draw_stays_below_total)
{
	/*
	 * Totals that are not powers of two: (1 - 2^-53) * total must round
	 * below total, so the last positive weight is picked by the search
	 * itself.  Checked over many totals, values and zero tails.
	 */
	static const double totals[] = { 3,	5,	   7,
					 0.1,	0.3,	   1e-300,
					 1e300, 12345.678, 6.0000000000000009 };
	static const s64 v[] = { 10, 20, 30 };
	struct eevdf_rng r;
	struct eevdf_dist d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(totals); i++) {
		double w[3] = { totals[i] / 2, totals[i] / 2, 0 };

		ck_assert_int_eq(eevdf__dist_init_choice(&d, v, w, 3, NULL, 0),
				 0);
		ck_assert(0x1.fffffffffffffp-1 * d.cum[2] < d.cum[2]);
		r = rng_about_to_output(UINT64_MAX);
		ck_assert_int_eq(eevdf__dist_sample(&d, &r), 20);
		eevdf__dist_free(&d);
	}
}
END_TEST

static double sample_mean(const struct eevdf_dist *d, double *sd)
{
	struct eevdf_rng r = stream();
	double sum = 0, sq = 0, m;
	int i;

	for (i = 0; i < DRAWS; i++) {
		double x = (double)eevdf__dist_sample(d, &r);

		sum += x;
		sq += x * x;
	}
	m = sum / DRAWS;
	if (sd)
		*sd = sqrt(sq / DRAWS - m * m);
	return m;
}

/* |mean - want| within 5 standard errors of a law with deviation sigma. */
static void check_mean(const struct eevdf_dist *d, double want, double sigma)
{
	double se = sigma / sqrt(DRAWS), got = sample_mean(d, NULL);

	ck_assert_msg(fabs(got - want) < 5 * se, "%s: mean %f, want %f +- %f",
		      eevdf__dist_kind_name(d->kind), got, want, 5 * se);
	ck_assert_msg(fabs(eevdf__dist_mean(d) - want) < 1e-9 * fabs(want),
		      "%s: eevdf__dist_mean %f, want %f",
		      eevdf__dist_kind_name(d->kind), eevdf__dist_mean(d),
		      want);
}

START_TEST(dist_sample_means_match_theory)
{
	struct eevdf_dist d;
	double sd;

	/* Integers 0..999: mean 499.5, variance (1000^2 - 1) / 12. */
	eevdf__dist_init_uniform(&d, 0, 1000, NULL, 0);
	check_mean(&d, 499.5, sqrt((1000.0 * 1000 - 1) / 12));
	/* A die: 3.5 and 35 / 12. */
	eevdf__dist_init_uniform_int(&d, 1, 6, NULL, 0);
	check_mean(&d, 3.5, sqrt(35.0 / 12));
	/* Exponential: sigma = mean.  Rounding moves the mean by under
	 * 0.001 here, far inside the 5 standard errors of 15.8. */
	eevdf__dist_init_exp(&d, 1000, NULL, 0);
	check_mean(&d, 1000, 1000);
	/* Normal: also the spread, within 2%. */
	eevdf__dist_init_normal(&d, 1000, 100, false, 0, false, 0, NULL, 0);
	check_mean(&d, 1000, 100);
	sample_mean(&d, &sd);
	ck_assert_msg(fabs(sd - 100) < 2, "normal sd %f", sd);
	/* Lognormal: mean median * e^(sigma^2 / 2), deviation mean *
	 * sqrt(e^(sigma^2) - 1). */
	eevdf__dist_init_lognormal(&d, 1000, 0.5, false, 0, NULL, 0);
	check_mean(&d, 1000 * exp(0.125),
		   1000 * exp(0.125) * sqrt(exp(0.25) - 1));
}
END_TEST

static int cmp_s64(const void *pa, const void *pb)
{
	s64 a = *(const s64 *)pa, b = *(const s64 *)pb;

	return (a > b) - (a < b);
}

START_TEST(dist_lognormal_median_matches)
{
	/*
	 * The sample median's standard error is 1 / (2 f(m) sqrt(n)), with
	 * the density at the median f(m) = 1 / (m sigma sqrt(2 pi)): 1.98
	 * for m = 1000, sigma = 0.5, n = 100000.
	 */
	static s64 x[DRAWS];
	struct eevdf_rng r = stream();
	struct eevdf_dist d;
	double se = 1000 * 0.5 * sqrt(2 * M_PI) / (2 * sqrt(DRAWS));
	int i;

	eevdf__dist_init_lognormal(&d, 1000, 0.5, false, 0, NULL, 0);
	for (i = 0; i < DRAWS; i++)
		x[i] = eevdf__dist_sample(&d, &r);
	qsort(x, DRAWS, sizeof(x[0]), cmp_s64);
	ck_assert_msg(fabs((double)x[DRAWS / 2] - 1000) < 5 * se, "median %lld",
		      (long long)x[DRAWS / 2]);
}
END_TEST

START_TEST(dist_choice_and_empirical_frequencies_match)
{
	static const s64 v[] = { 10, 20, 30 };
	static const double w[] = { 1, 2, 1 };
	static const double p[] = { 0.25, 0.5, 0.25 };
	struct eevdf_rng r = stream();
	struct eevdf_dist c, e;
	long n[2][3] = { { 0 } };
	int i, k;

	eevdf__dist_init_choice(&c, v, w, 3, NULL, 0);
	eevdf__dist_init_empirical(&e, v, 3, NULL, 0);
	for (i = 0; i < DRAWS; i++) {
		n[0][eevdf__dist_sample(&c, &r) / 10 - 1]++;
		n[1][eevdf__dist_sample(&e, &r) / 10 - 1]++;
	}
	for (k = 0; k < 3; k++) {
		double se0 = sqrt(p[k] * (1 - p[k]) / DRAWS);
		double se1 = sqrt(1.0 / 3 * 2.0 / 3 / DRAWS);

		ck_assert_msg(fabs((double)n[0][k] / DRAWS - p[k]) < 5 * se0,
			      "choice %d: %ld", k, n[0][k]);
		ck_assert_msg(fabs((double)n[1][k] / DRAWS - 1.0 / 3) < 5 * se1,
			      "empirical %d: %ld", k, n[1][k]);
	}
	ck_assert(eevdf__dist_mean(&c) == 20.0);
	ck_assert(eevdf__dist_mean(&e) == 20.0);
	eevdf__dist_free(&c);
	eevdf__dist_free(&e);
}
END_TEST

/* rc is EINVAL and the message names field. */
static void check_rejects(int rc, const char *err, const char *field)
{
	ck_assert_int_eq(rc, EEVDF_EINVAL);
	ck_assert_msg(strstr(err, field) != NULL, "'%s' lacks '%s'", err,
		      field);
}

START_TEST(dist_bad_parameters_are_rejected_by_name)
{
	static const s64 v[] = { 1, 2 };
	double w[2];
	struct eevdf_dist d;
	char err[128];

#define E err, sizeof(err)
	check_rejects(eevdf__dist_init_uniform(&d, 5, 5, E), err, "min");
	check_rejects(eevdf__dist_init_uniform(&d, 6, 5, E), err, "max");
	check_rejects(eevdf__dist_init_uniform_int(&d, 6, 5, E), err, "min");
	check_rejects(eevdf__dist_init_exp(&d, 0, E), err, "mean");
	check_rejects(eevdf__dist_init_exp(&d, -1, E), err, "mean");
	check_rejects(eevdf__dist_init_exp(&d, DNAN, E), err, "mean");
	check_rejects(eevdf__dist_init_exp(&d, DINF, E), err, "mean");
	check_rejects(eevdf__dist_init_exp(&d, 0x1p63, E), err, "mean");
	check_rejects(eevdf__dist_init_normal(&d, DNAN, 1, false, 0, false, 0,
					      E),
		      err, "mean");
	check_rejects(eevdf__dist_init_normal(&d, 1e19, 1, false, 0, false, 0,
					      E),
		      err, "mean");
	check_rejects(eevdf__dist_init_normal(&d, 0, -1, false, 0, false, 0, E),
		      err, "stddev");
	check_rejects(eevdf__dist_init_normal(&d, 0, DINF, false, 0, false, 0,
					      E),
		      err, "stddev");
	check_rejects(eevdf__dist_init_normal(&d, 0, 1, true, 3, true, 3, E),
		      err, "min");
	check_rejects(eevdf__dist_init_lognormal(&d, 0, 1, false, 0, E), err,
		      "median");
	check_rejects(eevdf__dist_init_lognormal(&d, 1, -0.1, false, 0, E), err,
		      "sigma");
	check_rejects(eevdf__dist_init_lognormal(&d, 1, 1, true, 0, E), err,
		      "max");
	check_rejects(eevdf__dist_init_choice(&d, v, w, 0, E), err, "values");
	w[0] = 1;
	w[1] = -1;
	check_rejects(eevdf__dist_init_choice(&d, v, w, 2, E), err,
		      "weights[1]");
	w[1] = DNAN;
	check_rejects(eevdf__dist_init_choice(&d, v, w, 2, E), err,
		      "weights[1]");
	w[0] = 0;
	w[1] = 0;
	check_rejects(eevdf__dist_init_choice(&d, v, w, 2, E), err, "weights");
	w[0] = 1e308;
	w[1] = 1e308;
	check_rejects(eevdf__dist_init_choice(&d, v, w, 2, E), err, "weights");
	check_rejects(eevdf__dist_init_choice(&d, v, NULL, 2, E), err,
		      "weights");
	check_rejects(eevdf__dist_init_empirical(&d, v, 0, E), err, "values");
	check_rejects(eevdf__dist_init_empirical(&d, NULL, 2, E), err,
		      "values");
#undef E
	/* No message buffer is fine, and a failed init is safe to free. */
	ck_assert_int_eq(eevdf__dist_init_exp(&d, -1, NULL, 0), EEVDF_EINVAL);
	eevdf__dist_free(&d);
	eevdf__dist_free(&d);
	eevdf__dist_free(NULL);
}
END_TEST

START_TEST(dist_borderline_parameters_are_accepted)
{
	static const s64 v[] = { 7 };
	static const double w[] = { 0.5 };
	struct eevdf_dist d;
	struct eevdf_rng r = stream();

	ck_assert_int_eq(eevdf__dist_init_uniform(&d, -1, 0, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), -1);
	ck_assert_int_eq(eevdf__dist_init_normal(&d, -0x1p63, 0, false, 0,
						 false, 0, NULL, 0),
			 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), INT64_MIN);
	ck_assert_int_eq(eevdf__dist_init_exp(&d, 1e-300, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 0);
	ck_assert_int_eq(eevdf__dist_init_choice(&d, v, w, 1, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 7);
	eevdf__dist_free(&d);
	ck_assert_int_eq(eevdf__dist_init_empirical(&d, v, 1, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 7);
	eevdf__dist_free(&d);
}
END_TEST

START_TEST(dist_copies_its_arrays)
{
	s64 v[] = { 1, 2 };
	double w[] = { 1, 0 };
	struct eevdf_rng r = stream();
	struct eevdf_dist d;

	ck_assert_int_eq(eevdf__dist_init_choice(&d, v, w, 2, NULL, 0), 0);
	v[0] = 99;
	w[0] = 0;
	w[1] = 1;
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 1);
	eevdf__dist_free(&d);
}
END_TEST

START_TEST(dist_same_compares_kind_parameters_and_arrays)
{
	static const s64 v[] = { 1, 2 }, v2[] = { 1, 3 };
	static const double w[] = { 1, 3 }, w2[] = { 1, 2 };
	struct eevdf_dist a, b, c;

	ck_assert_int_eq(eevdf__dist_init_choice(&a, v, w, 2, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_choice(&b, v, w, 2, NULL, 0), 0);
	ck_assert(eevdf__dist_same(&a, &b));
	eevdf__dist_set_range(&b, 0, 10);
	ck_assert(!eevdf__dist_same(&a, &b));
	eevdf__dist_free(&b);
	ck_assert_int_eq(eevdf__dist_init_choice(&b, v2, w, 2, NULL, 0), 0);
	ck_assert(!eevdf__dist_same(&a, &b));
	eevdf__dist_free(&b);
	ck_assert_int_eq(eevdf__dist_init_choice(&b, v, w2, 2, NULL, 0), 0);
	ck_assert(!eevdf__dist_same(&a, &b));
	/* the same values, equally likely, drawn another way */
	ck_assert_int_eq(eevdf__dist_init_empirical(&c, v, 2, NULL, 0), 0);
	ck_assert(!eevdf__dist_same(&a, &c));
	ck_assert(!eevdf__dist_same(&a, NULL));
	ck_assert(eevdf__dist_same(NULL, NULL));
	eevdf__dist_free(&b);
	eevdf__dist_free(&c);
	ck_assert_int_eq(eevdf__dist_init_exp(&b, 1000.0, NULL, 0), 0);
	ck_assert_int_eq(eevdf__dist_init_exp(&c, 1000.0, NULL, 0), 0);
	ck_assert(eevdf__dist_same(&b, &c));
	ck_assert_int_eq(eevdf__dist_init_exp(&c, 1000.5, NULL, 0), 0);
	ck_assert(!eevdf__dist_same(&b, &c));
	eevdf__dist_free(&a);
	eevdf__dist_free(&b);
	eevdf__dist_free(&c);
}
END_TEST

START_TEST(dist_means_and_names)
{
	static const s64 v[] = { 5, 50, 500 };
	struct eevdf_dist d;

	eevdf__dist_init_uniform(&d, 100, 110, NULL, 0);
	ck_assert(eevdf__dist_mean(&d) == 104.5);
	eevdf__dist_init_uniform_int(&d, 100, 110, NULL, 0);
	ck_assert(eevdf__dist_mean(&d) == 105.0);
	eevdf__dist_init_empirical(&d, v, 3, NULL, 0);
	ck_assert(eevdf__dist_mean(&d) == 185.0);
	eevdf__dist_free(&d);

	ck_assert_str_eq(eevdf__dist_kind_name(EEVDF_DIST_CONST), "const");
	ck_assert_str_eq(eevdf__dist_kind_name(EEVDF_DIST_UNIFORM_INT),
			 "uniform_int");
	ck_assert_str_eq(eevdf__dist_kind_name(EEVDF_DIST_LOGNORMAL),
			 "lognormal");
	ck_assert_str_eq(eevdf__dist_kind_name(EEVDF_DIST_EMPIRICAL),
			 "empirical");
}
END_TEST

Suite *dist_suite(void)
{
	Suite *s = suite_create("dist");
	TCase *known = tcase_create("known_answers");
	TCase *range = tcase_create("ranges");
	TCase *stats = tcase_create("statistics");
	TCase *params = tcase_create("parameters");

	tcase_add_test(known, dist_golden_first_five_draws);
	tcase_add_test(known, dist_const_returns_its_value_without_a_draw);
	tcase_add_test(known, dist_each_kind_takes_its_fixed_number_of_draws);
	tcase_add_test(known, dist_same_seed_gives_same_sequence);
	suite_add_tcase(s, known);

	tcase_add_test(range, dist_draws_stay_in_range);
	tcase_add_test(range, dist_uniform_ranges_reach_both_ends);
	tcase_add_test(range, dist_extreme_ranges_do_not_overflow);
	tcase_add_test(range, dist_real_kinds_saturate_and_round);
	tcase_add_test(range, dist_choice_never_picks_a_zero_weight);
	tcase_add_test(range, dist_choice_top_draw_stays_below_total);
	suite_add_tcase(s, range);

	tcase_add_test(stats, dist_sample_means_match_theory);
	tcase_add_test(stats, dist_lognormal_median_matches);
	tcase_add_test(stats, dist_choice_and_empirical_frequencies_match);
	suite_add_tcase(s, stats);

	tcase_add_test(params, dist_bad_parameters_are_rejected_by_name);
	tcase_add_test(params, dist_borderline_parameters_are_accepted);
	tcase_add_test(params, dist_copies_its_arrays);
	tcase_add_test(params, dist_same_compares_kind_parameters_and_arrays);
	tcase_add_test(params, dist_means_and_names);
	suite_add_tcase(s, params);
	return s;
}
