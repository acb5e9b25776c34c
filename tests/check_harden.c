/* SPDX-License-Identifier: MIT */
/*
 * Hardening (issue 22): checked simulated-time arithmetic, invariant
 * failures as errors, draws clamped to their operand's range, and the
 * library API under misuse.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "engine/dist.h"
#include "engine/sim.h"
#include "lib/simtime.h"

#define MS 1000000LL
#define PETA 1000000000000000LL /* 10^15 ns, the longest op duration */

static eevdf_sim *new_sim(void)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	return sim;
}

START_TEST(time_add_checked_stops_at_time_max)
{
	eevdf_time t = -1;

	/* EEVDF_TIME_MAX = 2^62 - 1 = 4611686018427387903 */
	ck_assert_int_eq(EEVDF_TIME_MAX, 4611686018427387903LL);
	ck_assert(eevdf__time_add_checked(100, 23, &t));
	ck_assert_int_eq(t, 123);
	/* 0 + TIME_MAX is the last time there is; one more is not */
	ck_assert(eevdf__time_add_checked(0, EEVDF_TIME_MAX, &t));
	ck_assert_int_eq(t, EEVDF_TIME_MAX);
	t = 7;
	ck_assert(!eevdf__time_add_checked(1, EEVDF_TIME_MAX, &t));
	ck_assert(!eevdf__time_add_checked(EEVDF_TIME_MAX, 1, &t));
	ck_assert(!eevdf__time_add_checked(0, INT64_MAX, &t));
	/* a negative duration is never a time */
	ck_assert(!eevdf__time_add_checked(100, -1, &t));
	ck_assert_int_eq(t, 7); /* untouched on failure */
	ck_assert(eevdf__time_add_checked(EEVDF_TIME_MAX, 0, &t));
	ck_assert_int_eq(t, EEVDF_TIME_MAX);
}
END_TEST

START_TEST(cpu_amounts_saturate)
{
	ck_assert_uint_eq(eevdf__ns_add_sat(2, 3), 5);
	ck_assert_uint_eq(eevdf__ns_add_sat(UINT64_MAX - 1, 1), UINT64_MAX);
	ck_assert_uint_eq(eevdf__ns_add_sat(UINT64_MAX - 1, 2), UINT64_MAX);
	ck_assert_uint_eq(eevdf__ns_mul_sat(1000, 1000), 1000000);
	/* 2^32 * 2^32 = 2^64: one past the top */
	ck_assert_uint_eq(eevdf__ns_mul_sat(1ull << 32, 1ull << 32),
			  UINT64_MAX);
	ck_assert_uint_eq(eevdf__ns_mul_sat(0, UINT64_MAX), 0);
}
END_TEST

/*
 * A task sleeping 10^15 ns for ever, run with no end: the library's costs
 * are zero, so it wakes at k * 10^15.  The sleep from k * 10^15 ends at
 * (k + 1) * 10^15, past EEVDF_TIME_MAX = 4611686018427387903 once
 * k + 1 > 4611.686..., so k = 4611: the run fails at 4611 * 10^15 ns in
 * op 1 (the sleep; op 0 is the loop).
 */
START_TEST(a_run_stops_at_time_max_with_an_error)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_SLEEP, PETA, 0, 0 },
	};
	struct eevdf_task_spec t = { .name = "sleeper",
				     .program = prog,
				     .nr_ops = 2 };
	eevdf_sim *sim = new_sim();
	const char *msg;

	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, INT64_MAX), EEVDF_ERANGE);
	ck_assert_int_eq(eevdf_sim_now(sim), 4611 * PETA);
	msg = eevdf_sim_errmsg(sim);
	ck_assert_ptr_nonnull(strstr(msg, "task sleeper: op 1: a sleep of "
					  "1000000000000000 ns at "
					  "4611000000000000000 ns"));
	ck_assert_ptr_nonnull(strstr(msg, "EEVDF_TIME_MAX"));
	/* sticky: the same error, the clock where it stopped */
	ck_assert_int_eq(eevdf_sim_run(sim, INT64_MAX), EEVDF_ERANGE);
	ck_assert_int_eq(eevdf_sim_step(sim), EEVDF_ERANGE);
	ck_assert_int_eq(eevdf_sim_now(sim), 4611 * PETA);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * An event before the clock is a broken invariant: the step fails with
 * EEVDF_EINTERNAL and a message, the clock does not run backwards, and
 * nothing aborts.  The warmup event, queued by hand at 0 after the clock
 * reached 1 ms, is such an event.
 */
START_TEST(an_event_before_the_clock_is_an_internal_error)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_RUN, MS, 0, 0 },
	};
	struct eevdf_task_spec t = { .name = "hog",
				     .program = prog,
				     .nr_ops = 2 };
	eevdf_sim *sim = new_sim();

	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, MS), 0);
	ck_assert_int_eq(eevdf__sim_set_warmup(sim, 0), 0);
	ck_assert_int_eq(eevdf_sim_step(sim), EEVDF_EINTERNAL);
	ck_assert_int_eq(eevdf_sim_now(sim), MS);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim),
				     "internal invariant failed: an event of "
				     "type 21 at 0 ns, before the clock "
				     "(1000000 ns)"));
	ck_assert_int_eq(eevdf_sim_run(sim, 2 * MS), EEVDF_EINTERNAL);
	eevdf_sim_free(sim);
}
END_TEST

/* Every draw of every kind lands in the range set on the distribution. */
START_TEST(draws_are_clamped_to_the_operand_range)
{
	struct eevdf_dist d;
	struct eevdf_rng r;
	char err[128];

	eevdf__rng_seed(&r, 1, "clamp", EEVDF_RNG_BEHAVIOUR);
	/* const 5 within [0, 3] is 3; const -5 is 0 */
	eevdf__dist_init_const(&d, 5);
	eevdf__dist_set_range(&d, 0, 3);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 3);
	eevdf__dist_init_const(&d, -5);
	eevdf__dist_set_range(&d, 0, 3);
	ck_assert_int_eq(eevdf__dist_sample(&d, &r), 0);
	/* a normal of stddev 1e300 rounds to +-INT64_MAX or so: always an
	 * end of [0, 10^15] */
	ck_assert_int_eq(eevdf__dist_init_normal(&d, 1.0, 1e300, false, 0,
						 false, 0, err, sizeof(err)),
			 0);
	eevdf__dist_set_range(&d, 0, PETA);
	for (int i = 0; i < 1000; i++) {
		s64 v = eevdf__dist_sample(&d, &r);

		ck_assert(v == 0 || v == PETA);
	}
	/* uniform over all of int64 within [-1, 1] */
	ck_assert_int_eq(eevdf__dist_init_uniform_int(&d, INT64_MIN, INT64_MAX,
						      err, sizeof(err)),
			 0);
	eevdf__dist_set_range(&d, -1, 1);
	for (int i = 0; i < 1000; i++) {
		s64 v = eevdf__dist_sample(&d, &r);

		ck_assert(v >= -1 && v <= 1);
	}
	eevdf__dist_free(&d);
}
END_TEST

Suite *harden_suite(void)
{
	Suite *s = suite_create("harden");
	TCase *tc = tcase_create("time");

	tcase_add_test(tc, time_add_checked_stops_at_time_max);
	tcase_add_test(tc, cpu_amounts_saturate);
	tcase_add_test(tc, a_run_stops_at_time_max_with_an_error);
	tcase_add_test(tc, an_event_before_the_clock_is_an_internal_error);
	tcase_add_test(tc, draws_are_clamped_to_the_operand_range);
	suite_add_tcase(s, tc);
	return s;
}
