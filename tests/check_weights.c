/* SPDX-License-Identifier: MIT */
/* Tests of load weights, __calc_delta() and the base slice (TV-1, TV-2). */
#include <string.h>

#include "suites.h"
#include "sched/weights.h"

/* calc_delta_fair() of a task at `nice`, through set_load_weight(). */
static u64 cdf(u64 delta, int nice)
{
	struct load_weight lw;

	eevdf__set_load_weight(&lw, nice, false);
	return eevdf__calc_delta_fair(delta, &lw);
}

struct cdf_case {
	int nice;
	u64 delta;
	u64 want;
};

/* kernel-model.md section 1.4 and TV-1 (integer model of the kernel). */
static const struct cdf_case tv1[] = {
	{ -20, 1000000, 11536 },	  { -5, 1000000, 328099 },
	{ 5, 1000000, 3056716 },	  { 19, 1000000, 68266666 },
	{ -20, 2800000, 32302 },	  { -5, 2800000, 918679 },
	{ 5, 2800000, 8558806 },	  { 19, 2800000, 191146666 },
	{ -20, 3000000, 34609 },	  { -5, 3000000, 984299 },
	{ 5, 3000000, 9170149 },	  { 19, 3000000, 204799999 },
	{ -1, 1000000000, 801879405 },	  { 1, 1000000000, 1248780488 },
	{ 5, 1000000000, 3056716442ULL },
};

START_TEST(weights_calc_delta_fair_matches_tv1)
{
	const struct cdf_case *c = &tv1[_i];

	ck_assert_msg(cdf(c->delta, c->nice) == c->want,
		      "cdf(%llu, nice %d) = %llu, want %llu",
		      (unsigned long long)c->delta, c->nice,
		      (unsigned long long)cdf(c->delta, c->nice),
		      (unsigned long long)c->want);
}
END_TEST

START_TEST(weights_calc_delta_fair_uses_table_inverse_not_a_recomputed_one)
{
	struct load_weight lw;

	/*
	 * nice -1: the table says 3363326; floor((2^32 - 1) / 1277) would be
	 * 3363325 and give 801879167 (TV-1).
	 */
	eevdf__set_load_weight(&lw, -1, false);
	ck_assert_uint_eq(lw.weight, 1277u << 10);
	ck_assert_uint_eq(lw.inv_weight, 3363326);
	ck_assert_uint_eq(eevdf__calc_delta_fair(1000000000, &lw), 801879405);
	ck_assert_uint_eq(lw.inv_weight, 3363326);
}
END_TEST

START_TEST(weights_calc_delta_fair_of_nice_0_returns_delta_unchanged)
{
	static const u64 deltas[] = {
		0, 1, 999, 1000000, 2800000, 1000000000, 123456789012345ULL
	};
	struct load_weight lw;
	size_t i;

	eevdf__set_load_weight(&lw, 0, false);
	ck_assert_uint_eq(lw.weight, NICE_0_LOAD);
	ck_assert_uint_eq(lw.weight, 1048576);
	ck_assert_uint_eq(lw.inv_weight, 4194304);
	for (i = 0; i < ARRAY_SIZE(deltas); i++)
		ck_assert_uint_eq(eevdf__calc_delta_fair(deltas[i], &lw),
				  deltas[i]);
}
END_TEST

START_TEST(weights_calc_delta_by_aggregate_computes_lazy_inverse)
{
	struct load_weight agg = { 2097152, 0 };

	/*
	 * section 1.3: inv = floor((2^32 - 1) / 2048) = 2097151; then
	 * 24e6 * (1024 * 2097151) >> 32 = 11999994 (TV-1).
	 */
	ck_assert_uint_eq(eevdf__calc_delta(24000000, 1048576, &agg), 11999994);
	ck_assert_uint_eq(agg.inv_weight, 2097151);
	ck_assert_uint_eq(agg.weight, 2097152);
	/* A cached inverse is kept, even a wrong one. */
	agg.inv_weight = 4194304; /* the inverse of 1024, not of 2048 */
	ck_assert_uint_eq(eevdf__calc_delta(24000000, 1048576, &agg), 24000000);
	ck_assert_uint_eq(agg.inv_weight, 4194304);
}
END_TEST

START_TEST(weights_aggregate_built_by_update_load_add_divides_like_the_kernel)
{
	struct load_weight agg = { 0, 0 };

	update_load_add(&agg, NICE_0_LOAD);
	update_load_add(&agg, NICE_0_LOAD);
	ck_assert_uint_eq(agg.weight, 2097152);
	ck_assert_uint_eq(eevdf__calc_delta(24000000, NICE_0_LOAD, &agg),
			  11999994);
	ck_assert_uint_eq(agg.inv_weight, 2097151);
	/*
	 * One nice-0 weight left: the lazy inverse is floor((2^32 - 1) /
	 * 1024) = 4194303, not the table's 4194304, so 24 ms comes out as
	 * 24e6 * 4294966272 >> 32 = 23999994 (by hand: 24e6 - 5.72).
	 */
	update_load_sub(&agg, NICE_0_LOAD);
	ck_assert_uint_eq(agg.inv_weight, 0);
	ck_assert_uint_eq(eevdf__calc_delta(24000000, NICE_0_LOAD, &agg),
			  23999994);
	ck_assert_uint_eq(agg.inv_weight, 4194303);
}
END_TEST

START_TEST(weights_update_load_add_and_sub_reset_inverse)
{
	struct load_weight lw;

	eevdf__set_load_weight(&lw, 5, false);
	ck_assert_uint_eq(lw.inv_weight, 12820798);
	update_load_add(&lw, scale_load(1024));
	ck_assert_uint_eq(lw.weight, (335u + 1024u) << 10);
	ck_assert_uint_eq(lw.inv_weight, 0);
	lw.inv_weight = 77;
	update_load_sub(&lw, scale_load(1024));
	ck_assert_uint_eq(lw.weight, 335u << 10);
	ck_assert_uint_eq(lw.inv_weight, 0);
}
END_TEST

START_TEST(weights_lazy_inverse_handles_zero_and_huge_weights)
{
	struct load_weight zero = { 0, 0 };
	struct load_weight huge = { (u64)0xFFFFFFFFu << 10, 0 };

	/* section 1.3: w == 0 gives 2^32 - 1, w >= 2^32 - 1 gives 1. */
	eevdf__calc_delta(1000, NICE_0_LOAD, &zero);
	ck_assert_uint_eq(zero.inv_weight, 0xFFFFFFFFu);
	eevdf__calc_delta(1000, NICE_0_LOAD, &huge);
	ck_assert_uint_eq(huge.inv_weight, 1);
}
END_TEST

START_TEST(weights_sched_idle_gets_weight_3_whatever_the_nice)
{
	static const int nices[] = { -20, 0, 19 };
	struct load_weight lw;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		eevdf__set_load_weight(&lw, nices[i], true);
		ck_assert_uint_eq(lw.weight, scale_load(3));
		ck_assert_uint_eq(lw.weight, 3072);
		ck_assert_uint_eq(lw.inv_weight, 1431655765);
	}
}
END_TEST

START_TEST(weights_scale_load_down_floors_at_two)
{
	ck_assert_uint_eq(scale_load_down(0), 0);
	ck_assert_uint_eq(scale_load_down(1), 2);
	ck_assert_uint_eq(scale_load_down(1023), 2);
	ck_assert_uint_eq(scale_load_down(2047), 2);
	ck_assert_uint_eq(scale_load_down(3072), 3);
	ck_assert_uint_eq(scale_load_down(1048576), 1024);
	ck_assert_uint_eq(scale_load(1024), 1048576);
	ck_assert_uint_eq(scale_load_down(scale_load(88761)), 88761);
}
END_TEST

START_TEST(weights_tables_have_40_levels_centred_on_nice_0)
{
	ck_assert_uint_eq(ARRAY_SIZE(eevdf__prio_to_weight), 40);
	ck_assert_uint_eq(ARRAY_SIZE(eevdf__prio_to_wmult), 40);
	ck_assert_uint_eq(eevdf__prio_to_weight[20], 1024);
	ck_assert_uint_eq(eevdf__prio_to_wmult[20], 4194304);
	/* The ends of section 1.1's table. */
	ck_assert_uint_eq(eevdf__prio_to_weight[0], 88761);
	ck_assert_uint_eq(eevdf__prio_to_wmult[0], 48388);
	ck_assert_uint_eq(eevdf__prio_to_weight[39], 15);
	ck_assert_uint_eq(eevdf__prio_to_wmult[39], 286331153);
}
END_TEST

START_TEST(weights_adjacent_levels_differ_by_a_factor_of_1_2_to_1_3)
{
	size_t i;

	for (i = 0; i + 1 < 40; i++) {
		u64 hi = eevdf__prio_to_weight[i];
		u64 lo = eevdf__prio_to_weight[i + 1];

		/* 1.2 <= hi / lo <= 1.3, in integers. */
		ck_assert_msg(5 * hi >= 6 * lo && 10 * hi <= 13 * lo,
			      "nice %d / %d: %llu / %llu", (int)i - 20,
			      (int)i - 19, (unsigned long long)hi,
			      (unsigned long long)lo);
	}
}
END_TEST

START_TEST(weights_inverse_table_is_2_to_the_32_over_weight)
{
	size_t i;

	/* Within one step of 2^32 / w: |inv * w - 2^32| < w. */
	for (i = 0; i < 40; i++) {
		s64 w = eevdf__prio_to_weight[i];
		s64 err = (s64)eevdf__prio_to_wmult[i] * w - ((s64)1 << 32);

		ck_assert_msg(err > -w && err < w, "nice %d: inv %u, w %lld",
			      (int)i - 20, eevdf__prio_to_wmult[i],
			      (long long)w);
	}
}
END_TEST

/* TV-2: 0.70 ms times 1 + ilog2(min(nr_cpus, 8)). */
struct slice_case {
	int nr_cpus;
	eevdf_time want;
};

static const struct slice_case tv2[] = {
	{ 1, 700000 },	{ 2, 1400000 }, { 3, 1400000 },	 { 4, 2100000 },
	{ 7, 2100000 }, { 8, 2800000 }, { 64, 2800000 },
};

static eevdf_time sim_base_slice(const char *kernel, int nr_cpus,
				 eevdf_time base_slice)
{
	struct eevdf_config cfg;
	eevdf_sim *sim = NULL;
	char err[256] = "";
	eevdf_time slice;
	int ret;

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	cfg.nr_cpus = nr_cpus;
	cfg.base_slice = base_slice;
	ret = eevdf_sim_new(&cfg, &sim, err, sizeof(err));
	ck_assert_msg(ret == 0, "eevdf_sim_new: %d %s", ret, err);
	slice = eevdf_sim_base_slice(sim);
	eevdf_sim_free(sim);
	return slice;
}

START_TEST(weights_base_slice_scales_with_log2_of_cpus)
{
	const struct slice_case *c = &tv2[_i];

	ck_assert_int_eq(sim_base_slice(NULL, c->nr_cpus, 0), c->want);
	ck_assert_int_eq(sim_base_slice("6.18", c->nr_cpus, 0), c->want);
	ck_assert_int_eq(sim_base_slice("6.17", c->nr_cpus, 0), c->want);
}
END_TEST

START_TEST(weights_explicit_base_slice_is_used_as_is)
{
	ck_assert_int_eq(sim_base_slice(NULL, 1, 3000000), 3000000);
	ck_assert_int_eq(sim_base_slice(NULL, 8, 3000000), 3000000);
	ck_assert_int_eq(sim_base_slice("6.17", 4, 3000000), 3000000);
	/* The bounds 100 us and 100 ms themselves are accepted. */
	ck_assert_int_eq(sim_base_slice(NULL, 1, 100000), 100000);
	ck_assert_int_eq(sim_base_slice(NULL, 1, 100000000), 100000000);
}
END_TEST

START_TEST(weights_base_slice_below_100us_is_rejected)
{
	static const eevdf_time bad[] = { 50000, 99999, 100000001, -1 };
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		eevdf_config_init(&cfg);
		cfg.base_slice = bad[i];
		sim = (eevdf_sim *)&cfg; /* must be overwritten with NULL */
		err[0] = '\0';
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
				 EEVDF_EINVAL);
		ck_assert_ptr_null(sim);
		ck_assert_msg(strlen(err) > 0, "no message for %lld",
			      (long long)bad[i]);
	}
	/* The message names the rejected value. */
	eevdf_config_init(&cfg);
	cfg.base_slice = 50000;
	eevdf_sim_new(&cfg, &sim, err, sizeof(err));
	ck_assert_msg(strstr(err, "50000") != NULL, "message: %s", err);
}
END_TEST

Suite *weights_suite(void)
{
	Suite *s = suite_create("weights");
	TCase *fixed = tcase_create("fixed_point");
	TCase *tables = tcase_create("tables");
	TCase *slice = tcase_create("base_slice");

	tcase_add_loop_test(fixed, weights_calc_delta_fair_matches_tv1, 0,
			    (int)ARRAY_SIZE(tv1));
	tcase_add_test(
		fixed,
		weights_calc_delta_fair_uses_table_inverse_not_a_recomputed_one);
	tcase_add_test(
		fixed,
		weights_calc_delta_fair_of_nice_0_returns_delta_unchanged);
	tcase_add_test(fixed,
		       weights_calc_delta_by_aggregate_computes_lazy_inverse);
	tcase_add_test(
		fixed,
		weights_aggregate_built_by_update_load_add_divides_like_the_kernel);
	tcase_add_test(fixed, weights_update_load_add_and_sub_reset_inverse);
	tcase_add_test(fixed,
		       weights_lazy_inverse_handles_zero_and_huge_weights);
	suite_add_tcase(s, fixed);

	tcase_add_test(tables,
		       weights_sched_idle_gets_weight_3_whatever_the_nice);
	tcase_add_test(tables, weights_scale_load_down_floors_at_two);
	tcase_add_test(tables, weights_tables_have_40_levels_centred_on_nice_0);
	tcase_add_test(
		tables,
		weights_adjacent_levels_differ_by_a_factor_of_1_2_to_1_3);
	tcase_add_test(tables,
		       weights_inverse_table_is_2_to_the_32_over_weight);
	suite_add_tcase(s, tables);

	tcase_add_loop_test(slice, weights_base_slice_scales_with_log2_of_cpus,
			    0, (int)ARRAY_SIZE(tv2));
	tcase_add_test(slice, weights_explicit_base_slice_is_used_as_is);
	tcase_add_test(slice, weights_base_slice_below_100us_is_rejected);
	suite_add_tcase(s, slice);
	return s;
}
