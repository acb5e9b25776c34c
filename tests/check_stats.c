/* SPDX-License-Identifier: MIT */
/*
 * Summary statistics over seeds (src/lib/stats.c), as compare and merge
 * print them.  Every expected number is worked out by hand below.
 */
#include <math.h>

#include "eevdf/eevdf.h"
#include "suites.h"

START_TEST(eight_values_worked_by_hand)
{
	/*
	 * 2 4 4 4 5 5 7 9: sum 40, mean 40 / 8 = 5.  Deviations -3 -1 -1 -1
	 * 0 0 2 4, squares 9 1 1 1 0 0 4 16, sum 32.  Sample variance
	 * 32 / 7, stddev sqrt(32/7) = 2.1380899...  t(0.975, 7) = 2.365, so
	 * the half-width is 2.365 * sqrt(32/7) / sqrt(8) = 2.365 * sqrt(4/7)
	 * = 2.365 * 0.7559289... = 1.7877720...
	 */
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct eevdf_stats s;

	ck_assert_int_eq(eevdf_stats_compute(v, 8, &s), 0);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_double_eq(s.mean, 5.0);
	ck_assert_double_eq(s.min, 2.0);
	ck_assert_double_eq(s.max, 9.0);
	ck_assert_double_eq_tol(s.stddev, 2.1380899353, 1e-9);
	ck_assert_double_eq_tol(s.ci95, 1.7877719573, 1e-9);
}
END_TEST

START_TEST(three_seeds_as_a_sweep_has)
{
	/*
	 * 1010 990 1000: mean 3000 / 3 = 1000; squares 100 100 0, sum 200;
	 * variance 200 / 2 = 100, stddev 10.  t(0.975, 2) = 4.303: the
	 * half-width is 4.303 * 10 / sqrt(3) = 43.03 / 1.7320508 = 24.8433821...
	 * The interval is 1000 +- 24.84: with 3 seeds the mean is known to
	 * 2.5 %, not to the 1.1 % that 1.96 would claim.
	 */
	const double v[] = { 1010, 990, 1000 };
	struct eevdf_stats s;

	ck_assert_int_eq(eevdf_stats_compute(v, 3, &s), 0);
	ck_assert_double_eq(s.mean, 1000.0);
	ck_assert_double_eq(s.stddev, 10.0);
	ck_assert_double_eq(s.min, 990.0);
	ck_assert_double_eq(s.max, 1010.0);
	ck_assert_double_eq_tol(s.ci95, 24.8433821, 1e-6);
}
END_TEST

START_TEST(one_value_has_no_spread)
{
	/* n = 1: the mean is the value; no sample deviation, no interval */
	const double v[] = { 3.5 };
	struct eevdf_stats s;

	ck_assert_int_eq(eevdf_stats_compute(v, 1, &s), 0);
	ck_assert_double_eq(s.mean, 3.5);
	ck_assert_double_eq(s.min, 3.5);
	ck_assert_double_eq(s.max, 3.5);
	ck_assert(isnan(s.stddev));
	ck_assert(isnan(s.ci95));
}
END_TEST

START_TEST(equal_values_have_no_spread)
{
	/*
	 * 0.043723 three times: the sum 0.131169 is rounded, and / 3 gives
	 * 0.04372299999999999, one ulp off; the deviations of that would
	 * give a stddev of about 8e-18.  Equal values have mean 0.043723 and
	 * stddev 0 exactly, and so a zero interval.
	 */
	const double v[] = { 0.043723, 0.043723, 0.043723 };
	struct eevdf_stats s;

	ck_assert_int_eq(eevdf_stats_compute(v, 3, &s), 0);
	ck_assert(s.mean == 0.043723);
	ck_assert(s.stddev == 0);
	ck_assert(s.ci95 == 0);
}
END_TEST

START_TEST(no_values_is_an_error)
{
	const double v[] = { 1 };
	struct eevdf_stats s;

	ck_assert_int_eq(eevdf_stats_compute(v, 0, &s), EEVDF_EINVAL);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(eevdf_stats_compute(NULL, 1, &s), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_stats_compute(v, 1, NULL), EEVDF_EINVAL);
}
END_TEST

START_TEST(t_table_rows_and_between_them)
{
	/* NIST's 0.975 column: rows 1, 2, 30, 40, 100 as printed */
	ck_assert_double_eq(eevdf_stats_t975(1), 12.706);
	ck_assert_double_eq(eevdf_stats_t975(2), 4.303);
	ck_assert_double_eq(eevdf_stats_t975(30), 2.042);
	ck_assert_double_eq(eevdf_stats_t975(40), 2.021);
	ck_assert_double_eq(eevdf_stats_t975(100), 1.984);
	/* between rows, the smaller df's (wider) value: 35 reads row 30,
	 * 99 row 80, and past the table row 100 */
	ck_assert_double_eq(eevdf_stats_t975(35), 2.042);
	ck_assert_double_eq(eevdf_stats_t975(99), 1.990);
	ck_assert_double_eq(eevdf_stats_t975(100000), 1.984);
	ck_assert(isnan(eevdf_stats_t975(0)));
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, eight_values_worked_by_hand);
	tcase_add_test(tc, three_seeds_as_a_sweep_has);
	tcase_add_test(tc, one_value_has_no_spread);
	tcase_add_test(tc, equal_values_have_no_spread);
	tcase_add_test(tc, no_values_is_an_error);
	tcase_add_test(tc, t_table_rows_and_between_them);
	suite_add_tcase(s, tc);
	return s;
}
