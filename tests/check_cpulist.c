/* SPDX-License-Identifier: MIT */
/*
 * Kernel-style CPU lists (src/lib/cpulist.c): the sets they name, read
 * back in increasing order, and one test per kind of bad list with the
 * reason it gives.
 */
#include <string.h>

#include "suites.h"
#include "lib/cpulist.h"

/* The CPUs of s in increasing order, n of them, then -1. */
static void expect_set(const char *s, const int *want, size_t n)
{
	struct eevdf_cpuset set;
	char err[128] = "";

	ck_assert_msg(eevdf__cpulist_parse(s, &set, err, sizeof(err)) == 0,
		      "'%s': %s", s, err);
	ck_assert_uint_eq(eevdf__cpuset_count(&set), n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(eevdf__cpuset_nth(&set, i), want[i]);
		ck_assert(eevdf__cpuset_has(&set, want[i]));
	}
	ck_assert_int_eq(eevdf__cpuset_nth(&set, n), -1);
}

static void expect_bad(const char *s, const char *why)
{
	struct eevdf_cpuset set;
	char err[128] = "";

	ck_assert_int_eq(eevdf__cpulist_parse(s, &set, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_msg(strcmp(err, why) == 0, "'%s': '%s', want '%s'", s, err,
		      why);
}

START_TEST(lists_name_the_sets_taskset_takes)
{
	/* the brief's example: 0..3, 8, 10 and 11, seven CPUs */
	static const int a[] = { 0, 1, 2, 3, 8, 10, 11 };
	/* one CPU; a range of one; leading zeros, as kstrtouint() reads */
	static const int b[] = { 5 };
	static const int c[] = { 7 };
	/* a set: the order of the entries does not matter */
	static const int d[] = { 1, 3, 8, 9 };
	/* the largest CPU there can be, EEVDF_MAX_CPUS - 1 */
	static const int e[] = { 0, 4094, 4095 };
	/* 64 and 65 straddle the boundary of two words of the bitmap */
	static const int f[] = { 62, 63, 64, 65 };

	expect_set("0-3,8,10-11", a, 7);
	expect_set("5", b, 1);
	expect_set("5-5", b, 1);
	expect_set("007", c, 1);
	expect_set("8-9,3,1", d, 4);
	expect_set("4094-4095,0", e, 3);
	expect_set("62-65", f, 4);
}
END_TEST

START_TEST(bad_lists_say_why)
{
	expect_bad("", "the list is empty");
	expect_bad("3-1", "the range 3-1 runs backwards");
	expect_bad("1,1", "CPU 1 is listed twice");
	/* 2 is inside 0-3 already */
	expect_bad("0-3,2", "CPU 2 is listed twice");
	expect_bad("0-3,3-4", "CPU 3 is listed twice");
	expect_bad("4096", "CPU 4096 is beyond the largest, 4095");
	expect_bad("0-4096", "CPU 4096 is beyond the largest, 4095");
	expect_bad("99999999999999999999",
		   "CPU 9999999999999999 is beyond the largest, 4095");
	expect_bad("0,,1", "expected a CPU number at ',1'");
	expect_bad(",1", "expected a CPU number at ',1'");
	expect_bad("1,", "expected a CPU number at the end");
	expect_bad("1-", "expected a CPU number at the end");
	expect_bad("-1", "expected a CPU number at '-1'");
	expect_bad(" 1", "expected a CPU number at ' 1'");
	expect_bad("auto", "expected a CPU number at 'auto'");
	expect_bad("1x", "expected ',' or '-' after 1 at 'x'");
	expect_bad("1 ,2", "expected ',' or '-' after 1 at ' ,2'");
	/* the kernel's stride suffix is not taken */
	expect_bad("0-7:2/4", "expected ',' after 0-7 at ':2/4'");
	expect_bad("0-3-5", "expected ',' after 0-3 at '-5'");
}
END_TEST

/*
 * popcount_u64(), which counts the bitmaps' CPUs, against counts worked
 * out by hand: every bit position on its own, the byte sums that the
 * final multiply adds (a full byte in every lane is 64), and the patterns
 * whose pair and nibble sums carry.
 */
START_TEST(popcount_counts_the_set_bits)
{
	ck_assert_uint_eq(popcount_u64(0), 0);
	for (int b = 0; b < 64; b++)
		ck_assert_uint_eq(popcount_u64((u64)1 << b), 1);
	ck_assert_uint_eq(popcount_u64(UINT64_MAX), 64);
	/* 0x5 and 0xa are two bits a nibble: 16 nibbles */
	ck_assert_uint_eq(popcount_u64(0x5555555555555555ULL), 32);
	ck_assert_uint_eq(popcount_u64(0xaaaaaaaaaaaaaaaaULL), 32);
	/* one full byte, 0xff, in each of the 8 lanes but one */
	ck_assert_uint_eq(popcount_u64(0xff00ffffffffffffULL), 56);
	/* the top and bottom bits only, and 0x7 (3) + 0x8 (1) + 0x0f0 (4) */
	ck_assert_uint_eq(popcount_u64(0x8000000000000001ULL), 2);
	ck_assert_uint_eq(popcount_u64(0x78f0ULL), 8);
	/* CPUs 0-3, 8, 10 and 11 of the brief's example */
	ck_assert_uint_eq(popcount_u64(0xd0fULL), 7);
}
END_TEST

Suite *cpulist_suite(void)
{
	Suite *s = suite_create("cpulist");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, lists_name_the_sets_taskset_takes);
	tcase_add_test(tc, bad_lists_say_why);
	tcase_add_test(tc, popcount_counts_the_set_bits);
	suite_add_tcase(s, tc);
	return s;
}
