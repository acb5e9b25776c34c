/* SPDX-License-Identifier: MIT */
/* Tests of the histograms and schbench's percentile report (src/lib/hist.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "lib/hist.h"
#include "lib/rng.h"

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

static const enum eevdf_hist_kind kinds[] = {
	EEVDF_HIST_EXACT,
	EEVDF_HIST_FIO_PLAT8,
	EEVDF_HIST_HDR3,
};

static const unsigned int plist[] = EEVDF_HIST_SCHBENCH_PLIST;

static void add_all(struct eevdf_hist *h, const s64 *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK(eevdf__hist_add(h, v[i], 1) == 0);
}

START_TEST(hist_plat_index_and_value_by_hand)
{
	/*
	 * msb <= 8 (v < 512): idx = v, and idx < 512 reports idx.
	 * Otherwise eb = msb - 8, idx = ((eb + 1) << 8) + ((v >> eb) & 255),
	 * and idx reports 2^(eb + 8) + k * 2^eb + 2^(eb - 1) with
	 * eb = (idx >> 8) - 1, k = idx & 255.
	 *
	 *        v  msb eb  (v >> eb) & 255    idx  value
	 *        0   -   -        -              0      0
	 *        1   0   -        -              1      1
	 *      511   8   -        -            511    511
	 *      512   9   1  256 & 255 =   0    512    512 + 0 + 1 = 513
	 *      513   9   1  256 & 255 =   0    512    513
	 *     1023   9   1  511 & 255 = 255    767    512 + 510 + 1 = 1023
	 *     1024  10   2  256 & 255 =   0    768    1024 + 0 + 2 = 1026
	 *     2047  10   2  511 & 255 = 255   1023    1024 + 1020 + 2 = 2046
	 *    10000  13   5  312 & 255 =  56   1592    8192 + 1792 + 16 = 10000
	 *   100000  16   8  390 & 255 = 134   2438    65536 + 34304 + 128
	 *                                            = 99968
	 * 2^26 - 1  25  17  511 & 255 = 255   4863    2^25 + 255 * 2^17 + 2^16
	 *                                            = 67043328
	 *     2^26  26  18  base 19 << 8 = 4864 is past the end: 4863
	 */
	static const struct {
		u64 v;
		unsigned int idx;
		u64 val;
	} t[] = {
		{ 0, 0, 0 },
		{ 1, 1, 1 },
		{ 511, 511, 511 },
		{ 512, 512, 513 },
		{ 513, 512, 513 },
		{ 1023, 767, 1023 },
		{ 1024, 768, 1026 },
		{ 2047, 1023, 2046 },
		{ 10000, 1592, 10000 },
		{ 100000, 2438, 99968 },
		{ (1ULL << 26) - 1, 4863, 67043328 },
		{ 1ULL << 26, 4863, 67043328 },
		{ INT64_MAX, 4863, 67043328 },
		{ UINT64_MAX, 4863, 67043328 },
	};
	size_t i;

	ck_assert_uint_eq(EEVDF_PLAT_NR, 4864);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_uint_eq(eevdf__plat_val_to_idx(t[i].v), t[i].idx);
		ck_assert_uint_eq(eevdf__plat_idx_to_val(t[i].idx), t[i].val);
	}
}
END_TEST

START_TEST(hist_plat_buckets_tile_the_range_with_midpoints)
{
	/*
	 * Walking every value up to 2^20 (and sampled values beyond):
	 * indexes never decrease, every bucket is hit, and each bucket's
	 * value is the midpoint of the values it holds (their mean, rounded
	 * up as fio's + 0.5 does), off by at most 1/512 relative.
	 */
	unsigned int prev = 0, idx;
	u64 v, lo = 0, mid;

	for (v = 1; v <= (1u << 20); v++) {
		idx = eevdf__plat_val_to_idx(v);
		CHECK(idx == prev || idx == prev + 1);
		if (idx != prev) {
			/* Bucket prev held [lo, v - 1]. */
			CHECK(eevdf__plat_idx_to_val(prev) ==
			      (prev < 512 ? lo : (lo + v) / 2));
			lo = v;
			prev = idx;
		}
		mid = eevdf__plat_idx_to_val(idx);
		CHECK(512 * (mid > v ? mid - v : v - mid) <= v);
	}
}
END_TEST

START_TEST(hist_hdr3_index_and_bounds_by_hand)
{
	/*
	 * v < 2048: idx = v.  Otherwise b = msb - 10, idx = b * 1024 +
	 * (v >> b); the bucket holds [(v >> b) << b, + 2^b - 1].
	 *
	 *        v  msb  b  v >> b    idx     lowest   highest
	 *     2047   -   -    -      2047       2047      2047
	 *     2048  11   1  1024     2048       2048      2049
	 *     4095  11   1  2047     3071       4094      4095
	 *     4096  12   2  1024     3072       4096      4099
	 *    10000  13   3  1250     4322      10000     10007
	 *   100000  16   6  1562     7706      99968    100031
	 *     2^30  30  20  1024    21504       2^30  2^30+2^20-1
	 *  2^63-1   62  52  2047    55295  2047 << 52  2^63 - 1
	 */
	static const struct {
		u64 v;
		unsigned int idx;
		u64 lo, hi;
	} t[] = {
		{ 0, 0, 0, 0 },
		{ 2047, 2047, 2047, 2047 },
		{ 2048, 2048, 2048, 2049 },
		{ 2049, 2048, 2048, 2049 },
		{ 4095, 3071, 4094, 4095 },
		{ 4096, 3072, 4096, 4099 },
		{ 10000, 4322, 10000, 10007 },
		{ 100000, 7706, 99968, 100031 },
		{ 1ULL << 30, 21504, 1ULL << 30, (1ULL << 30) + (1 << 20) - 1 },
		{ INT64_MAX, 55295, 2047ULL << 52, INT64_MAX },
	};
	size_t i;

	ck_assert_uint_eq(EEVDF_HDR3_NR, 55296);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_uint_eq(eevdf__hdr3_val_to_idx(t[i].v), t[i].idx);
		ck_assert_uint_eq(eevdf__hdr3_idx_lowest(t[i].idx), t[i].lo);
		ck_assert_uint_eq(eevdf__hdr3_idx_highest(t[i].idx), t[i].hi);
	}
}
END_TEST

START_TEST(hist_hdr3_error_is_under_a_thousandth)
{
	struct eevdf_rng r;
	unsigned int idx;
	u64 v;
	int i;

	eevdf__rng_seed(&r, 3, "hdr3", EEVDF_RNG_BEHAVIOUR);
	for (i = 0; i < 200000; i++) {
		/* Values spread over every magnitude of int64. */
		v = eevdf__rng_next(&r) >> (1 + eevdf__rng_below(&r, 63));
		idx = eevdf__hdr3_val_to_idx(v);
		CHECK(idx < EEVDF_HDR3_NR);
		CHECK(eevdf__hdr3_idx_lowest(idx) <= v);
		CHECK(eevdf__hdr3_idx_highest(idx) >= v);
		/* (highest - lowest) / v < 1 / 1000, in integers. */
		CHECK((eevdf__hdr3_idx_highest(idx) -
		       eevdf__hdr3_idx_lowest(idx)) *
			      (u128)1000 <
		      (v ? v : 1));
	}
	/* Buckets abut: each one starts right after the previous one. */
	for (idx = 1; idx < EEVDF_HDR3_NR; idx++)
		CHECK(eevdf__hdr3_idx_lowest(idx) ==
		      eevdf__hdr3_idx_highest(idx - 1) + 1);
}
END_TEST

/*
 * Ten samples: 3, 3, 7, 600, 601, 1030, 1030, 5000, 100000, 2^30.
 *
 * FIO_PLAT8 buckets (value: count, cumulative): 3: 2, 2; 7: 1, 3;
 * 601 (600 and 601 share idx 556 = 512 + (300 & 255)): 2, 5; 1030: 2, 7;
 * 5000: 1, 8; 99968: 1, 9; 67043328 (2^30 is past the end): 1, 10.
 * EXACT: the samples themselves.  HDR3: values under 2048 are exact;
 * 5000 reports its bucket's top, 5003; 100000 reports 100031; 2^30 is its
 * bucket's lowest value and the bucket's top 2^30 + 2^20 - 1 is lowered
 * to the exact max, 2^30.
 *
 * The rule cum * 1000 >= p * 10: 20.0 needs cum >= 2, 50.0 cum >= 5,
 * 90.0 cum >= 9, 99.0 and 99.9 cum = 10.  The samples column is 2,
 * 5 - 2 = 3, 9 - 5 = 4, 10 - 9 = 1, 10 - 10 = 0 for every kind.
 */
static const s64 ten[] = { 3,	 3,    7,    600,    601,
			   1030, 1030, 5000, 100000, 1LL << 30 };

START_TEST(hist_percentiles_of_ten_samples_by_hand)
{
	static const s64 want[3][5] = {
		{ 3, 601, 100000, 1LL << 30, 1LL << 30 },
		{ 3, 601, 99968, 67043328, 67043328 },
		{ 3, 601, 100031, 1LL << 30, 1LL << 30 },
	};
	static const u64 samples[5] = { 2, 3, 4, 1, 0 };
	static const u64 cum[5] = { 2, 5, 9, 10, 10 };
	struct eevdf_hist_pct out[5];
	struct eevdf_hist h;
	size_t k, j;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		add_all(&h, ten, ARRAY_SIZE(ten));
		ck_assert_int_eq(eevdf__hist_percentiles(&h, plist, 5, out), 0);
		for (j = 0; j < 5; j++) {
			ck_assert_uint_eq(out[j].permille, plist[j]);
			ck_assert_int_eq(out[j].value, want[k][j]);
			ck_assert_uint_eq(out[j].cum, cum[j]);
			ck_assert_uint_eq(out[j].samples, samples[j]);
			ck_assert_int_eq(eevdf__hist_percentile(&h, plist[j]),
					 want[k][j]);
		}
		/* Whatever the quantizer, these are exact. */
		ck_assert_uint_eq(eevdf__hist_count(&h), 10);
		ck_assert_int_eq(eevdf__hist_min(&h), 3);
		ck_assert_int_eq(eevdf__hist_max(&h), 1LL << 30);
		/* 3+3+7+600+601+1030+1030+5000+100000+1073741824. */
		ck_assert_int_eq(eevdf__hist_sum(&h), 1073850098);
		ck_assert_int_eq(eevdf__hist_mean(&h), 107385009);
		eevdf__hist_free(&h);
	}
}
END_TEST

START_TEST(hist_percentile_edges)
{
	struct eevdf_hist h;
	size_t k;
	s64 i;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		/* Empty: every percentile is 0, as schbench prints. */
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 500), 0);
		ck_assert_int_eq(eevdf__hist_mean(&h), 0);
		ck_assert_int_eq(eevdf__hist_min(&h), 0);
		ck_assert_int_eq(eevdf__hist_max(&h), 0);

		/*
		 * 1..1000: 99.9 needs cum * 1000 >= 999 * 1000, so 999.
		 * (schbench's double 99.9 / 100.0 * 1000 is
		 * 999.0000000000001 and would answer 1000.)  100.0 is the
		 * max, and above 1000 per mille is taken as 1000.
		 */
		for (i = 1; i <= 1000; i++)
			ck_assert_int_eq(eevdf__hist_add(&h, i, 1), 0);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 999), 999);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 500), 500);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 1), 1);
		if (kinds[k] != EEVDF_HIST_FIO_PLAT8) {
			ck_assert_int_eq(eevdf__hist_percentile(&h, 1000),
					 1000);
			ck_assert_int_eq(eevdf__hist_percentile(&h, 5000),
					 1000);
		} else {
			/* 1000 is in the bucket [1000, 1001], midpoint
			 * 512 + 244 * 2 + 1 = 1001. */
			ck_assert_int_eq(eevdf__hist_percentile(&h, 1000),
					 1001);
		}
		/* p = 0: the first bucket.  fio's is bucket 0, value 0,
		 * empty or not; the others start at min. */
		ck_assert_int_eq(eevdf__hist_percentile(&h, 0),
				 kinds[k] == EEVDF_HIST_FIO_PLAT8 ? 0 : 1);
		eevdf__hist_free(&h);
	}
}
END_TEST

START_TEST(hist_samples_column_counts_from_the_unprinted_first)
{
	/*
	 * 100 samples, 1..100: 20.0 -> 20 (cum 20), 50.0 -> 50 (cum 50),
	 * 90.0 -> 90, 99.0 -> 99, 99.9 -> 100 (cum * 1000 >= 99900).
	 * Samples: 20, 30, 40, 9, 1.  A list with a repeat gives the
	 * repeat 0 samples.
	 */
	static const unsigned int rep[] = { 500, 500, 1000 };
	struct eevdf_hist_pct out[5];
	struct eevdf_hist h;
	s64 i;

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_EXACT), 0);
	for (i = 100; i >= 1; i--)
		ck_assert_int_eq(eevdf__hist_add(&h, i, 1), 0);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, plist, 5, out), 0);
	ck_assert_int_eq(out[0].value, 20);
	ck_assert_int_eq(out[1].value, 50);
	ck_assert_int_eq(out[2].value, 90);
	ck_assert_int_eq(out[3].value, 99);
	ck_assert_int_eq(out[4].value, 100);
	ck_assert_uint_eq(out[0].samples, 20);
	ck_assert_uint_eq(out[1].samples, 30);
	ck_assert_uint_eq(out[2].samples, 40);
	ck_assert_uint_eq(out[3].samples, 9);
	ck_assert_uint_eq(out[4].samples, 1);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, rep, 3, out), 0);
	ck_assert_uint_eq(out[0].samples, 50);
	ck_assert_uint_eq(out[1].samples, 0);
	ck_assert_uint_eq(out[2].samples, 50);
	eevdf__hist_free(&h);
}
END_TEST

START_TEST(hist_bad_percentile_lists_are_rejected)
{
	static const unsigned int down[] = { 500, 200 };
	static const unsigned int over[] = { 500, 1001 };
	unsigned int many[EEVDF_HIST_PLIST_MAX + 1] = { 0 };
	struct eevdf_hist_pct out[EEVDF_HIST_PLIST_MAX + 1];
	struct eevdf_hist h;

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_FIO_PLAT8), 0);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, down, 2, out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, over, 2, out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, plist, 0, out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, many, ARRAY_SIZE(many),
						 out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__hist_percentiles(&h, many, ARRAY_SIZE(many) - 1,
						 out),
			 0);
	eevdf__hist_free(&h);
	ck_assert_int_eq(eevdf__hist_init(&h, (enum eevdf_hist_kind)99),
			 EEVDF_EINVAL);
	eevdf__hist_free(&h);
}
END_TEST

START_TEST(hist_min_max_and_sum_are_exact)
{
	struct eevdf_hist h;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		/* 513 and 100001 are mid-bucket for fio and hdr3 alike. */
		ck_assert_int_eq(eevdf__hist_add(&h, 100001, 1), 0);
		ck_assert_int_eq(eevdf__hist_add(&h, 513, 3), 0);
		ck_assert_int_eq(eevdf__hist_add(&h, 7777, 0), 0);
		ck_assert_int_eq(eevdf__hist_min(&h), 513);
		ck_assert_int_eq(eevdf__hist_max(&h), 100001);
		ck_assert_uint_eq(eevdf__hist_count(&h), 4);
		ck_assert_int_eq(eevdf__hist_sum(&h), 100001 + 3 * 513);
		/* (100001 + 1539) / 4 = 25385. */
		ck_assert_int_eq(eevdf__hist_mean(&h), 25385);
		eevdf__hist_free(&h);
	}
}
END_TEST

START_TEST(hist_huge_values_and_counts)
{
	struct eevdf_hist h;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		ck_assert_int_eq(eevdf__hist_add(&h, -1, 1), EEVDF_ERANGE);
		ck_assert_int_eq(eevdf__hist_add(&h, INT64_MIN, 1),
				 EEVDF_ERANGE);
		ck_assert_uint_eq(eevdf__hist_count(&h), 0);
		ck_assert_int_eq(eevdf__hist_add(&h, INT64_MAX, 2), 0);
		/* Two of them overflow int64: the sum saturates, the mean
		 * comes from the exact 128-bit sum. */
		ck_assert_int_eq(eevdf__hist_sum(&h), INT64_MAX);
		ck_assert_int_eq(eevdf__hist_mean(&h), INT64_MAX);
		ck_assert_int_eq(eevdf__hist_max(&h), INT64_MAX);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 500),
				 kinds[k] == EEVDF_HIST_FIO_PLAT8 ? 67043328 :
								    INT64_MAX);

		/* A total past 2^64 - 1 is refused, and nothing changes. */
		ck_assert_int_eq(eevdf__hist_add(&h, 1, UINT64_MAX - 2), 0);
		ck_assert_int_eq(eevdf__hist_add(&h, 1, 1), EEVDF_ERANGE);
		ck_assert_uint_eq(eevdf__hist_count(&h), UINT64_MAX);
		/* cum * 1000 needs 128 bits here: 2^64 - 3 ones and two
		 * INT64_MAX.  99.9 is still a 1. */
		ck_assert_int_eq(eevdf__hist_percentile(&h, 999), 1);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 1000),
				 kinds[k] == EEVDF_HIST_FIO_PLAT8 ? 67043328 :
								    INT64_MAX);
		ck_assert_int_eq(eevdf__hist_min(&h), 1);
		eevdf__hist_free(&h);
	}
}
END_TEST

START_TEST(hist_merge_folds_counts_and_bounds)
{
	static const s64 a[] = { 5, 600, 600 }, b[] = { 1, 70000, 600 };
	struct eevdf_hist x, y, all, other;
	size_t k, i;
	unsigned int p;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&x, kinds[k]), 0);
		ck_assert_int_eq(eevdf__hist_init(&y, kinds[k]), 0);
		ck_assert_int_eq(eevdf__hist_init(&all, kinds[k]), 0);
		add_all(&x, a, 3);
		add_all(&y, b, 3);
		add_all(&all, a, 3);
		add_all(&all, b, 3);
		ck_assert_int_eq(eevdf__hist_merge(&x, &y), 0);
		ck_assert_uint_eq(eevdf__hist_count(&x), 6);
		ck_assert_int_eq(eevdf__hist_min(&x), 1);
		ck_assert_int_eq(eevdf__hist_max(&x), 70000);
		ck_assert_int_eq(eevdf__hist_sum(&x), 5 + 1800 + 1 + 70000);
		/* Merged equals added: every percentile agrees. */
		for (p = 0; p <= 1000; p += 50)
			ck_assert_int_eq(eevdf__hist_percentile(&x, p),
					 eevdf__hist_percentile(&all, p));
		/* Sorted: 1 5 600 600 600 70000; 50.0 needs cum >= 3. */
		ck_assert_int_eq(eevdf__hist_percentile(&x, 500),
				 kinds[k] == EEVDF_HIST_FIO_PLAT8 ? 601 : 600);

		/* Into itself: every count doubles. */
		ck_assert_int_eq(eevdf__hist_merge(&x, &x), 0);
		ck_assert_uint_eq(eevdf__hist_count(&x), 12);
		for (i = 0; i < 3; i++) {
			ck_assert_int_eq(eevdf__hist_add(&all, a[i], 1), 0);
			ck_assert_int_eq(eevdf__hist_add(&all, b[i], 1), 0);
		}
		for (p = 0; p <= 1000; p += 50)
			ck_assert_int_eq(eevdf__hist_percentile(&x, p),
					 eevdf__hist_percentile(&all, p));

		/* An empty source changes nothing, an empty target takes
		 * the source's min. */
		eevdf__hist_reset(&all);
		ck_assert_int_eq(eevdf__hist_merge(&x, &all), 0);
		ck_assert_uint_eq(eevdf__hist_count(&x), 12);
		ck_assert_int_eq(eevdf__hist_merge(&all, &y), 0);
		ck_assert_int_eq(eevdf__hist_min(&all), 1);
		ck_assert_int_eq(eevdf__hist_max(&all), 70000);

		/* Kinds must match. */
		ck_assert_int_eq(eevdf__hist_init(&other, kinds[(k + 1) % 3]),
				 0);
		ck_assert_int_eq(eevdf__hist_merge(&other, &x), EEVDF_EINVAL);
		ck_assert_uint_eq(eevdf__hist_count(&other), 0);
		eevdf__hist_free(&other);
		eevdf__hist_free(&x);
		eevdf__hist_free(&y);
		eevdf__hist_free(&all);
	}
}
END_TEST

START_TEST(hist_reset_forgets_everything)
{
	struct eevdf_hist h;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		add_all(&h, ten, ARRAY_SIZE(ten));
		eevdf__hist_reset(&h);
		ck_assert_uint_eq(eevdf__hist_count(&h), 0);
		ck_assert_int_eq(eevdf__hist_sum(&h), 0);
		ck_assert_int_eq(eevdf__hist_min(&h), 0);
		ck_assert_int_eq(eevdf__hist_max(&h), 0);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 990), 0);
		/* No old bucket survives: one new sample is every
		 * percentile, and min is the new one, not 3. */
		ck_assert_int_eq(eevdf__hist_add(&h, 1030, 1), 0);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 1), 1030);
		ck_assert_int_eq(eevdf__hist_percentile(&h, 1000), 1030);
		ck_assert_int_eq(eevdf__hist_min(&h), 1030);
		if (h.buckets) {
			u64 total = 0;
			size_t i;

			for (i = 0; i < h.nbuckets; i++)
				total += h.buckets[i];
			ck_assert_uint_eq(total, 1);
		}
		eevdf__hist_free(&h);
		eevdf__hist_free(&h);
	}
}
END_TEST

static int cmp_s64(const void *pa, const void *pb)
{
	s64 a = *(const s64 *)pa, b = *(const s64 *)pb;

	return (a > b) - (a < b);
}

START_TEST(hist_random_data_matches_a_sorted_array)
{
	/*
	 * 50000 samples with many distinct values, percentile queries
	 * interleaved with the adds (so EXACT merges its tail at odd
	 * moments).  EXACT must give the k-th smallest sample for k =
	 * ceil(p * N / 1000); the bucketed kinds must give that sample's
	 * bucket value, since buckets are ordered.
	 */
	enum {
		N = 50000
	};
	static s64 v[N], sorted[N];
	struct eevdf_hist h[3];
	struct eevdf_rng r;
	size_t i, k, n;
	unsigned int p;

	eevdf__rng_seed(&r, 9, "hist", EEVDF_RNG_BEHAVIOUR);
	for (k = 0; k < 3; k++)
		ck_assert_int_eq(eevdf__hist_init(&h[k], kinds[k]), 0);
	for (i = 0; i < N; i++) {
		/* Log-spread, plus some repeats. */
		v[i] = (s64)(eevdf__rng_next(&r) >>
			     (20 + eevdf__rng_below(&r, 44)));
		if (i % 3 == 0)
			v[i] = v[i] % 100;
		for (k = 0; k < 3; k++)
			CHECK(eevdf__hist_add(&h[k], v[i], 1) == 0);
		if (i % 7919 != 0 && i != N - 1)
			continue;
		n = i + 1;
		memcpy(sorted, v, n * sizeof(*v));
		qsort(sorted, n, sizeof(*v), cmp_s64);
		for (p = 0; p <= 1000; p += 37) {
			u64 need = ((u64)p * n + 999) / 1000;
			s64 want = sorted[need ? need - 1 : 0];
			u64 hi = eevdf__hdr3_idx_highest(
				eevdf__hdr3_val_to_idx((u64)want));

			ck_assert_int_eq(eevdf__hist_percentile(&h[0], p),
					 want);
			if (p)
				ck_assert_int_eq(eevdf__hist_percentile(&h[1],
									p),
						 (s64)eevdf__plat_idx_to_val(
							 eevdf__plat_val_to_idx(
								 (u64)want)));
			ck_assert_int_eq(eevdf__hist_percentile(&h[2], p),
					 hi < (u64)sorted[n - 1] ?
						 (s64)hi :
						 sorted[n - 1]);
		}
		for (k = 0; k < 3; k++) {
			ck_assert_int_eq(eevdf__hist_min(&h[k]), sorted[0]);
			ck_assert_int_eq(eevdf__hist_max(&h[k]), sorted[n - 1]);
		}
	}
	for (k = 0; k < 3; k++)
		eevdf__hist_free(&h[k]);
}
END_TEST

START_TEST(hist_fixed_kinds_never_reallocate)
{
	struct eevdf_hist h;
	struct eevdf_rng r;
	u64 *buckets;
	size_t k;
	int i;

	eevdf__rng_seed(&r, 1, "alloc", EEVDF_RNG_BEHAVIOUR);
	for (k = 1; k < ARRAY_SIZE(kinds); k++) {
		ck_assert_int_eq(eevdf__hist_init(&h, kinds[k]), 0);
		buckets = h.buckets;
		for (i = 0; i < 10000; i++)
			CHECK(eevdf__hist_add(&h,
					      (s64)(eevdf__rng_next(&r) >> 1),
					      1) == 0);
		ck_assert_ptr_eq(h.buckets, buckets);
		ck_assert_ptr_null(h.sorted);
		ck_assert_ptr_null(h.tail);
		eevdf__hist_free(&h);
	}
}
END_TEST

static const char lat_block[] =
	"Wakeup Latencies percentiles (usec) runtime 30 (s) "
	"(10 total samples)\n"
	"\t  50.0th: 601        (3 samples)\n"
	"\t  90.0th: 99968      (4 samples)\n"
	"\t* 99.0th: 67043328   (1 samples)\n"
	"\t  99.9th: 67043328   (0 samples)\n"
	"\t  min=3, max=1073741824\n";

/*
 * The ten samples in FIO_PLAT8, printed as schbench prints its latency
 * blocks (PLIST_FOR_LAT, star on 99.0).  Written by hand from the
 * formats: "%-10u" pads 601 to ten columns, then " (" follows; the
 * 50.0th line counts 5 - 2 = 3 samples because the unprinted 20.0th
 * (cum 2) is still in the list.
 */
START_TEST(hist_schbench_latency_block_by_hand)
{
	struct eevdf_hist_report rep = {
		.label = "Wakeup Latencies",
		.units = "usec",
		.runtime = 30,
		.mask = EEVDF_HIST_SCHBENCH_MASK_LAT,
		.star = EEVDF_HIST_SCHBENCH_STAR_LAT,
	};
	struct eevdf_hist h;
	char buf[512], small[40];
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f;
	int n;

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_FIO_PLAT8), 0);
	add_all(&h, ten, ARRAY_SIZE(ten));
	n = eevdf__hist_schbench_snprint(buf, sizeof(buf), &h, &rep);
	ck_assert_str_eq(buf, lat_block);
	ck_assert_int_eq(n, (int)strlen(lat_block));

	/* Truncated like snprintf: a terminated prefix, full length. */
	n = eevdf__hist_schbench_snprint(small, sizeof(small), &h, &rep);
	ck_assert_int_eq(n, (int)strlen(lat_block));
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert(strncmp(small, lat_block, sizeof(small) - 1) == 0);
	ck_assert_int_eq(eevdf__hist_schbench_snprint(NULL, 0, &h, &rep),
			 (int)strlen(lat_block));

	/* The FILE * flavour writes the same bytes. */
	f = open_memstream(&mem, &memlen);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(eevdf__hist_schbench_fprint(f, &h, &rep), 0);
	fclose(f);
	ck_assert_str_eq(mem, lat_block);
	free(mem);

	/* A star outside the list is refused. */
	rep.star = 5;
	ck_assert_int_eq(eevdf__hist_schbench_snprint(buf, sizeof(buf), &h,
						      &rep),
			 EEVDF_EINVAL);
	eevdf__hist_free(&h);
}
END_TEST

/*
 * An RPS block (PLIST_FOR_RPS, star on 50.0) from six per-second rates,
 * 2990, 3000, 3001, 3007, 3008, 3020.  Above 2048, fio buckets are 8 wide
 * (eb 3) with midpoint lowest + 4: 2990 is in [2984, 2991] -> 2988;
 * 3000..3007 in [3000, 3007] -> 3004; 3008 -> 3012; 3020 in [3016, 3023]
 * -> 3020.  Cumulative 1, 4, 5, 6.  20.0 needs cum >= 1.2 -> 3004 (4),
 * 50.0 cum >= 3 -> 3004 again (4 - 4 = 0 samples), 90.0 cum >= 5.4 ->
 * 3020 (6 - 4 = 2).
 */
START_TEST(hist_schbench_rps_block_by_hand)
{
	static const s64 rps[] = { 3020, 3000, 2990, 3007, 3001, 3008 };
	static const char want[] =
		"RPS percentiles (requests) runtime 30 (s) (6 total samples)\n"
		"\t  20.0th: 3004       (4 samples)\n"
		"\t* 50.0th: 3004       (0 samples)\n"
		"\t  90.0th: 3020       (2 samples)\n"
		"\t  min=2990, max=3020\n";
	struct eevdf_hist_report rep = {
		.label = "RPS",
		.units = "requests",
		.runtime = 30,
		.mask = EEVDF_HIST_SCHBENCH_MASK_RPS,
		.star = EEVDF_HIST_SCHBENCH_STAR_RPS,
	};
	struct eevdf_hist h;
	char buf[512];

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_FIO_PLAT8), 0);
	add_all(&h, rps, ARRAY_SIZE(rps));
	eevdf__hist_schbench_snprint(buf, sizeof(buf), &h, &rep);
	ck_assert_str_eq(buf, want);
	eevdf__hist_free(&h);
}
END_TEST

START_TEST(hist_schbench_empty_block_and_custom_list)
{
	/* schbench prints an empty histogram's block in full, with zeros. */
	static const char empty[] =
		"Request Latencies percentiles (usec) runtime 0 (s) "
		"(0 total samples)\n"
		"\t  50.0th: 0          (0 samples)\n"
		"\t  90.0th: 0          (0 samples)\n"
		"\t* 99.0th: 0          (0 samples)\n"
		"\t  99.9th: 0          (0 samples)\n"
		"\t  min=0, max=0\n";
	/*
	 * A custom list {0.5, 75, 100} over 1..4, no star, all printed:
	 * 0.5 needs cum * 1000 >= 5 * 4, so cum >= 1 -> 1; 75 cum >= 3
	 * -> 3; 100 cum >= 4 -> 4.  "%2.1f" of 0.5 is "0.5".
	 */
	static const unsigned int custom[] = { 5, 750, 1000 };
	static const char four[] =
		"Lat percentiles (nsec) runtime 12345678901 (s) "
		"(4 total samples)\n"
		"\t  0.5th: 1          (1 samples)\n"
		"\t  75.0th: 3          (2 samples)\n"
		"\t  100.0th: 4          (1 samples)\n"
		"\t  min=1, max=4\n";
	static const s64 v[] = { 4, 3, 2, 1 };
	struct eevdf_hist_report rep = {
		.label = "Request Latencies",
		.units = "usec",
		.runtime = 0,
		.mask = EEVDF_HIST_SCHBENCH_MASK_LAT,
		.star = EEVDF_HIST_SCHBENCH_STAR_LAT,
	};
	struct eevdf_hist h;
	char buf[512];

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_EXACT), 0);
	eevdf__hist_schbench_snprint(buf, sizeof(buf), &h, &rep);
	ck_assert_str_eq(buf, empty);

	add_all(&h, v, ARRAY_SIZE(v));
	rep.label = "Lat";
	rep.units = "nsec";
	rep.runtime = 12345678901ULL;
	rep.plist = custom;
	rep.nplist = ARRAY_SIZE(custom);
	rep.mask = 0x7;
	rep.star = -1;
	eevdf__hist_schbench_snprint(buf, sizeof(buf), &h, &rep);
	ck_assert_str_eq(buf, four);
	eevdf__hist_free(&h);
}
END_TEST

/*
 * A summary keeps what a block prints: the ten samples' count, min, max
 * and percentiles (the hand count above: 3, 601, 99968, 67043328 twice
 * in FIO_PLAT8, samples 2, 3, 4, 1, 0), and prints lat_block byte for
 * byte.  No histogram summarises as an empty one, printed with zeros.
 */
START_TEST(hist_summary_prints_as_its_histogram)
{
	static const s64 want[5] = { 3, 601, 99968, 67043328, 67043328 };
	static const u64 samples[5] = { 2, 3, 4, 1, 0 };
	static const unsigned int nine[9] = { 100, 200, 300, 400, 500,
					      600, 700, 800, 900 };
	struct eevdf_hist_report rep = {
		.label = "Wakeup Latencies",
		.units = "usec",
		.runtime = 30,
		.mask = EEVDF_HIST_SCHBENCH_MASK_LAT,
		.star = EEVDF_HIST_SCHBENCH_STAR_LAT,
	};
	struct eevdf_hist_summary sum;
	struct eevdf_hist h;
	char buf[512];

	ck_assert_int_eq(eevdf__hist_init(&h, EEVDF_HIST_FIO_PLAT8), 0);
	add_all(&h, ten, ARRAY_SIZE(ten));
	ck_assert_int_eq(eevdf__hist_summarize(&h, NULL, 0, &sum), 0);
	ck_assert_uint_eq(sum.count, 10);
	ck_assert_int_eq(sum.min, 3);
	ck_assert_int_eq(sum.max, 1LL << 30);
	ck_assert_uint_eq(sum.n, 5);
	for (size_t j = 0; j < 5; j++) {
		ck_assert_uint_eq(sum.pct[j].permille, plist[j]);
		ck_assert_int_eq(sum.pct[j].value, want[j]);
		ck_assert_uint_eq(sum.pct[j].samples, samples[j]);
	}
	ck_assert_int_eq(eevdf__hist_schbench_snprint_summary(buf, sizeof(buf),
							      &sum, &rep),
			 (int)strlen(lat_block));
	ck_assert_str_eq(buf, lat_block);
	ck_assert_int_eq(eevdf__hist_schbench_snprint_summary(NULL, 0, &sum,
							      &rep),
			 (int)strlen(lat_block));
	/* the summary's own list is printed: another one is refused */
	rep.plist = plist;
	rep.nplist = 5;
	ck_assert_int_eq(eevdf__hist_schbench_snprint_summary(buf, sizeof(buf),
							      &sum, &rep),
			 EEVDF_EINVAL);
	/* more entries than a summary holds */
	ck_assert_int_eq(eevdf__hist_summarize(&h, nine, 9, &sum),
			 EEVDF_EINVAL);
	eevdf__hist_free(&h);

	ck_assert_int_eq(eevdf__hist_summarize(NULL, NULL, 0, &sum), 0);
	rep.plist = NULL;
	rep.nplist = 0;
	rep.label = "Request Latencies";
	rep.runtime = 0;
	eevdf__hist_schbench_snprint_summary(buf, sizeof(buf), &sum, &rep);
	ck_assert_str_eq(buf,
			 "Request Latencies percentiles (usec) runtime 0 (s) "
			 "(0 total samples)\n"
			 "\t  50.0th: 0          (0 samples)\n"
			 "\t  90.0th: 0          (0 samples)\n"
			 "\t* 99.0th: 0          (0 samples)\n"
			 "\t  99.9th: 0          (0 samples)\n"
			 "\t  min=0, max=0\n");
}
END_TEST

START_TEST(hist_schbench_label_matches_printf_2_1f)
{
	/* "%u.%u" of the per-mille value is "%2.1f" of the percent. */
	unsigned int p;
	char a[32], b[32];

	for (p = 0; p <= 1000; p++) {
		snprintf(a, sizeof(a), "%u.%u", p / 10, p % 10);
		snprintf(b, sizeof(b), "%2.1f", p / 10.0);
		ck_assert_str_eq(a, b);
	}
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *quant = tcase_create("quantizers");
	TCase *pct = tcase_create("percentiles");
	TCase *ops = tcase_create("operations");
	TCase *fmt = tcase_create("schbench_format");

	tcase_add_test(quant, hist_plat_index_and_value_by_hand);
	tcase_add_test(quant, hist_plat_buckets_tile_the_range_with_midpoints);
	tcase_add_test(quant, hist_hdr3_index_and_bounds_by_hand);
	tcase_add_test(quant, hist_hdr3_error_is_under_a_thousandth);
	suite_add_tcase(s, quant);

	tcase_add_test(pct, hist_percentiles_of_ten_samples_by_hand);
	tcase_add_test(pct, hist_percentile_edges);
	tcase_add_test(pct,
		       hist_samples_column_counts_from_the_unprinted_first);
	tcase_add_test(pct, hist_bad_percentile_lists_are_rejected);
	tcase_add_test(pct, hist_random_data_matches_a_sorted_array);
	suite_add_tcase(s, pct);

	tcase_add_test(ops, hist_min_max_and_sum_are_exact);
	tcase_add_test(ops, hist_huge_values_and_counts);
	tcase_add_test(ops, hist_merge_folds_counts_and_bounds);
	tcase_add_test(ops, hist_reset_forgets_everything);
	tcase_add_test(ops, hist_fixed_kinds_never_reallocate);
	suite_add_tcase(s, ops);

	tcase_add_test(fmt, hist_schbench_latency_block_by_hand);
	tcase_add_test(fmt, hist_schbench_rps_block_by_hand);
	tcase_add_test(fmt, hist_schbench_empty_block_and_custom_list);
	tcase_add_test(fmt, hist_schbench_label_matches_printf_2_1f);
	tcase_add_test(fmt, hist_summary_prints_as_its_histogram);
	suite_add_tcase(s, fmt);
	return s;
}
