/* SPDX-License-Identifier: MIT */
/*
 * Tests of the PELT arithmetic (src/sched/pelt.c, kernel-model.md section 10.7).
 * Every expected number is the kernel's integer arithmetic worked by hand
 * (the decay table is sched-pelt.h's runnable_avg_yN_inv[]); the long runs
 * were also checked against an independent re-implementation.
 */
#include <string.h>

#include "suites.h"
#include "sched/pelt.h"

/* One PELT period in ns: 1024 units of 1024 ns. */
#define PERIOD_NS ((u64)1024 * 1024)
#define NICE_0_W 1024ul

/* ------------------------------------------------------------------ */
/* decay_load                                                          */

START_TEST(pelt_decay_load_by_one_half_life_halves_then_loses_a_unit)
{
	/*
	 * n = 32 is one whole half-life: 1024 >> 1 = 512, then the table's
	 * entry 0 (2^32 - 1, not 2^32) multiplies and shifts:
	 * 512 * (2^32 - 1) >> 32 = 512 - 512 / 2^32, floored = 511.
	 */
	ck_assert_uint_eq(decay_load(1024, LOAD_AVG_PERIOD), 511);
	/* two half-lives: 1024 >> 2 = 256, then the same unit lost */
	ck_assert_uint_eq(decay_load(1024, 2 * LOAD_AVG_PERIOD), 255);
}
END_TEST

START_TEST(pelt_decay_load_by_zero_periods_is_the_table_recipe_x_minus_1)
{
	/*
	 * The recipe multiplies by y^0 * 2^32 = 2^32 - 1 and shifts by 32, so
	 * for 0 < x <= 2^32 the result is (x * 2^32 - x) >> 32 = x - 1.  The
	 * kernel never calls it with n = 0 (only after a period boundary).
	 */
	ck_assert_uint_eq(decay_load(0, 0), 0);
	ck_assert_uint_eq(decay_load(1, 0), 0);
	ck_assert_uint_eq(decay_load(1000, 0), 999);
	ck_assert_uint_eq(decay_load(LOAD_AVG_MAX, 0), LOAD_AVG_MAX - 1);
	/* beyond 2^32 it loses ceil(x / 2^32): 2^40 - 2^8 */
	ck_assert_uint_eq(decay_load((u64)1 << 40, 0), ((u64)1 << 40) - 256);
}
END_TEST

START_TEST(pelt_decay_load_of_load_avg_max_by_one_period_is_the_min_divider)
{
	/*
	 * 47742 * 0xfa83b2da >> 32 = 46718: the identity
	 * LOAD_AVG_MAX * y == LOAD_AVG_MAX - 1024 that PELT_MIN_DIVIDER and
	 * the segment sum rely on holds exactly in the table.
	 */
	ck_assert_uint_eq(decay_load(LOAD_AVG_MAX, 1), PELT_MIN_DIVIDER);
	/* 47742 - 1001 - 1024: two periods, c2 = 1024 * y = 1001 */
	ck_assert_uint_eq(decay_load(LOAD_AVG_MAX, 2), 45717);
	ck_assert_uint_eq(decay_load(500, 1), 489);
	ck_assert_uint_eq(decay_load(524, 1), 512);
}
END_TEST

START_TEST(pelt_decay_load_uses_a_full_96_bit_product)
{
	/*
	 * floor((2^64 - 1) * 0xfa83b2da / 2^32): a 64-bit multiply would
	 * overflow; mul_u64_u32_shr() does not.
	 */
	ck_assert_uint_eq(decay_load(UINT64_MAX, 1), 18051468380803694591ULL);
}
END_TEST

START_TEST(pelt_decay_load_beyond_63_half_lives_is_zero)
{
	/* 2015 = 62 * 32 + 31: (2^64-1) >> 62 = 3, 3 * 0x82cd8698 >> 32 = 1 */
	ck_assert_uint_eq(decay_load(UINT64_MAX, LOAD_AVG_PERIOD * 63 - 1), 1);
	/* 2016 = 63 * 32: (2^64-1) >> 63 = 1, 1 * (2^32-1) >> 32 = 0 */
	ck_assert_uint_eq(decay_load(UINT64_MAX, LOAD_AVG_PERIOD * 63), 0);
	/* past 2016 the kernel returns 0 without computing */
	ck_assert_uint_eq(decay_load(UINT64_MAX, LOAD_AVG_PERIOD * 63 + 1), 0);
	ck_assert_uint_eq(decay_load(UINT64_MAX, UINT64_MAX), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ___update_load_sum / ___update_load_avg                             */

START_TEST(pelt_update_within_one_period_adds_delta_and_keeps_the_averages)
{
	struct sched_avg sa;

	memset(&sa, 0, sizeof(sa));
	/* 500 units running: no boundary, so 0 and no new averages */
	ck_assert_int_eq(
		pelt_update_se(500 * 1024, &sa, NICE_0_W, true, true, true), 0);
	ck_assert_uint_eq(sa.load_sum, 500);
	ck_assert_uint_eq(sa.runnable_sum, 500 << 10);
	ck_assert_uint_eq(sa.util_sum, 500 << 10);
	ck_assert_uint_eq(sa.period_contrib, 500);
	ck_assert_uint_eq(sa.last_update_time, 500 * 1024);
	ck_assert_uint_eq(sa.load_avg, 0);
	ck_assert_uint_eq(sa.util_avg, 0);

	/* 1023 ns is less than a unit: nothing moves, not even the clock */
	ck_assert_int_eq(pelt_update_se(500 * 1024 + 1023, &sa, NICE_0_W, true,
					true, true),
			 0);
	ck_assert_uint_eq(sa.load_sum, 500);
	ck_assert_uint_eq(sa.last_update_time, 500 * 1024);
}
END_TEST

START_TEST(pelt_update_across_one_boundary_sums_the_three_segments)
{
	struct sched_avg sa;

	memset(&sa, 0, sizeof(sa));
	pelt_update_se(500 * 1024, &sa, NICE_0_W, true, true, true);
	/*
	 * +1024 units: 500 + 1024 = 1524, one period crossed, 500 into the
	 * new one.  Old sums decay by y: 500 -> 489, 512000 -> 501028.
	 * contrib = c1 + c2 + c3 = decay(1024 - 500, 1) + 0 + 500
	 *         = 512 + 0 + 500 = 1012.
	 * load_sum = 489 + 1012 = 1501; util_sum = 501028 + 1012 * 1024
	 * = 1537316; divider = 46718 + 500 = 47218;
	 * load_avg = 1024 * 1501 / 47218 = 32; util_avg = 1537316 / 47218 = 32.
	 */
	ck_assert_int_eq(pelt_update_se(1524 * 1024, &sa, NICE_0_W, true, true,
					true),
			 1);
	ck_assert_uint_eq(sa.load_sum, 1501);
	ck_assert_uint_eq(sa.util_sum, 1537316);
	ck_assert_uint_eq(sa.runnable_sum, 1537316);
	ck_assert_uint_eq(sa.period_contrib, 500);
	ck_assert_uint_eq(get_pelt_divider(&sa), 47218);
	ck_assert_uint_eq(sa.load_avg, 32);
	ck_assert_uint_eq(sa.util_avg, 32);
	ck_assert_uint_eq(sa.runnable_avg, 32);
}
END_TEST

START_TEST(pelt_update_without_load_neither_runs_nor_is_runnable)
{
	struct sched_avg sa;

	/* a curr that was already dequeued: load 0 clears the other two */
	memset(&sa, 0, sizeof(sa));
	ck_assert_int_eq(___update_load_sum(10 * PERIOD_NS, &sa, 0, 1, 1), 1);
	ck_assert_uint_eq(sa.load_sum, 0);
	ck_assert_uint_eq(sa.runnable_sum, 0);
	ck_assert_uint_eq(sa.util_sum, 0);
	ck_assert_uint_eq(sa.last_update_time, 10 * PERIOD_NS);
}
END_TEST

START_TEST(pelt_update_with_the_clock_going_backwards_only_resyncs)
{
	struct sched_avg sa;

	memset(&sa, 0, sizeof(sa));
	pelt_update_se(500 * 1024, &sa, NICE_0_W, true, true, true);
	ck_assert_int_eq(
		pelt_update_se(100 * 1024, &sa, NICE_0_W, true, true, true), 0);
	ck_assert_uint_eq(sa.last_update_time, 100 * 1024);
	ck_assert_uint_eq(sa.load_sum, 500);
	ck_assert_uint_eq(sa.period_contrib, 500);
}
END_TEST

/*
 * An always-running nice-0 entity updated every 1 ms (not a whole number
 * of units: the sub-unit remainder carries over) for 1 s, from nothing.
 */
START_TEST(pelt_always_running_entity_converges_to_the_kernel_steady_state)
{
	struct sched_avg sa;
	unsigned long lmin = ~0ul, lmax = 0, umin = ~0ul, umax = 0;

	memset(&sa, 0, sizeof(sa));
	for (u64 ms = 1; ms <= 1000; ms++) {
		pelt_update_se(ms * 1000000, &sa, NICE_0_W, true, true, true);
		if (ms < 400)
			continue;
		lmin = sa.load_avg < lmin ? sa.load_avg : lmin;
		lmax = sa.load_avg > lmax ? sa.load_avg : lmax;
		umin = sa.util_avg < umin ? sa.util_avg : umin;
		umax = sa.util_avg > umax ? sa.util_avg : umax;
	}
	/*
	 * At 1 s: 976562 whole units elapsed (last_update_time 999999488),
	 * 690 units into the current period, divider 46718 + 690 = 47408.
	 * load_sum gains 1 per unit and every period's decay floors away a
	 * fraction of a unit, so it settles a hair under the divider:
	 * 47407, and load_avg = 1024 * 47407 / 47408 = 1023 (1023.98).
	 * util_sum and runnable_sum carry 10 more bits, their floor losses
	 * are 1024 times smaller relatively: 48569730 / 47408 = 1024.
	 * So a fully busy nice-0 task shows load_avg 1023 or 1024 (with the
	 * position in the period) and util_avg 1024, as on a kernel.
	 */
	ck_assert_uint_eq(sa.last_update_time, 999999488);
	ck_assert_uint_eq(sa.period_contrib, 690);
	ck_assert_uint_eq(sa.load_sum, 47407);
	ck_assert_uint_eq(sa.util_sum, 48569730);
	ck_assert_uint_eq(sa.load_avg, 1023);
	ck_assert_uint_eq(sa.runnable_avg, 1024);
	ck_assert_uint_eq(sa.util_avg, 1024);
	/* from 400 ms on it has converged */
	ck_assert_uint_eq(lmin, 1023);
	ck_assert_uint_eq(lmax, 1024);
	ck_assert_uint_eq(umin, 1024);
	ck_assert_uint_eq(umax, 1024);
}
END_TEST

static bool in_duty_band(unsigned long util)
{
	return util >= 506 && util <= 518;
}

START_TEST(pelt_half_duty_cycle_gives_util_near_half_capacity)
{
	struct sched_avg sa;
	u64 t = 0;

	/*
	 * Run one period, sleep one period (dequeued: no load, not running),
	 * updating at each switch, 500 cycles (~1 s).  From cycle 200 on
	 * (12.5 half-lives: the start-up deficit is down to 512 / 2^12.5 < 1)
	 * the signal swings between 1024 / (1 + y) = 517.5 at the end of a
	 * run and y times that, 506.5, at the end of a sleep: 512 +- 6.
	 */
	memset(&sa, 0, sizeof(sa));
	for (int i = 0; i < 500; i++) {
		t += PERIOD_NS;
		pelt_update_se(t, &sa, NICE_0_W, true, true, true);
		ck_assert(i < 200 || in_duty_band(sa.util_avg));
		t += PERIOD_NS;
		pelt_update_se(t, &sa, NICE_0_W, false, false, false);
		ck_assert(i < 200 || in_duty_band(sa.util_avg));
	}
	/* the exact integer values at the end of the last sleep */
	ck_assert_uint_eq(sa.load_sum, 23101);
	ck_assert_uint_eq(sa.util_sum, 23682494);
	ck_assert_uint_eq(sa.load_avg, 506); /* 1024 * 23101 / 46718 */
	ck_assert_uint_eq(sa.util_avg, 506); /* 23682494 / 46718 */
	ck_assert_uint_eq(sa.runnable_avg, 506);
	ck_assert_uint_le(512 - sa.util_avg, 6);

	/* and at the end of one more run */
	t += PERIOD_NS;
	pelt_update_se(t, &sa, NICE_0_W, true, true, true);
	ck_assert_uint_eq(sa.load_avg, 517);
	ck_assert_uint_eq(sa.util_avg, 518);
	ck_assert_uint_le(sa.util_avg - 512, 6);
}
END_TEST

START_TEST(pelt_load_avg_halves_after_32_idle_periods)
{
	struct sched_avg sa;
	unsigned long before;

	/* 1000 periods on the queue, updated on period boundaries */
	memset(&sa, 0, sizeof(sa));
	for (u64 i = 1; i <= 1000; i++)
		pelt_update_se(i * PERIOD_NS, &sa, NICE_0_W, true, true, true);
	/*
	 * At a boundary period_contrib is 0 and the divider 46718; the sum
	 * settles 3 under it: load_avg = 1024 * 46715 / 46718 = 1023.
	 */
	ck_assert_uint_eq(sa.period_contrib, 0);
	ck_assert_uint_eq(sa.load_sum, 46715);
	before = sa.load_avg;
	ck_assert_uint_eq(before, 1023);

	/*
	 * 32 periods off the queue in one update: load_sum = decay(46715, 32)
	 * = (46715 >> 1) * (2^32 - 1) >> 32 = 23356, no new contribution;
	 * load_avg = 1024 * 23356 / 46718 = 511 = 1023 / 2, floored.
	 */
	ck_assert_int_eq(pelt_update_se(1032 * PERIOD_NS, &sa, NICE_0_W, false,
					false, false),
			 1);
	ck_assert_uint_eq(sa.load_sum, 23356);
	ck_assert_uint_eq(sa.load_avg, 511);
	/* half, +-1 */
	ck_assert(sa.load_avg + 1 >= before / 2);
	ck_assert(sa.load_avg <= before / 2 + 1);
	ck_assert_uint_eq(sa.util_avg, 512);
	ck_assert_uint_eq(sa.runnable_avg, 512);
}
END_TEST

START_TEST(pelt_cfs_rq_signal_weights_load_and_runnable_not_util)
{
	struct sched_avg cfs;

	/*
	 * Two always-runnable nice-0 tasks, one running: load 2048,
	 * h_nr_runnable 2, running.  1000 periods on boundaries.  The
	 * weighted sum floors away relatively less than an entity's and the
	 * table's 1024 * y rounds up (1002), so the cfs_rq's own signal ends
	 * above 2 * 1024: 95767264 / 46718 = 2049.  util is per CPU: 1024.
	 */
	memset(&cfs, 0, sizeof(cfs));
	for (u64 i = 1; i <= 1000; i++)
		pelt_update_cfs_rq(i * PERIOD_NS, &cfs, 2 * NICE_0_W, 2, true);
	ck_assert_uint_eq(cfs.load_sum, 95767264);
	ck_assert_uint_eq(cfs.runnable_sum, 95767264);
	ck_assert_uint_eq(cfs.util_sum, 47883609);
	ck_assert_uint_eq(cfs.load_avg, 2049);
	ck_assert_uint_eq(cfs.runnable_avg, 2049);
	ck_assert_uint_eq(cfs.util_avg, 1024);

	/* emptied, with curr still set: load 0 stops runnable and util too */
	ck_assert_int_eq(pelt_update_cfs_rq(1032 * PERIOD_NS, &cfs, 0, 1, true),
			 1);
	ck_assert_uint_eq(cfs.load_sum, decay_load(95767264, 32));
	ck_assert_uint_eq(cfs.util_sum, decay_load(47883609, 32));
}
END_TEST

/* ------------------------------------------------------------------ */
/* attach / detach                                                     */

/*
 * A cfs_rq 500 units into a period (divider 47218) with a consistent
 * history: 1024 * 47000 / 47218 = 1019 and (47000 << 10) / 47218 = 1019.
 */
static struct sched_avg cfs_fixture(void)
{
	struct sched_avg cfs = {
		.last_update_time = 123456 * 1024,
		.load_sum = 1024 * 47000,
		.runnable_sum = 47000 << 10,
		.util_sum = 47000 << 10,
		.period_contrib = 500,
		.load_avg = 1019,
		.runnable_avg = 1019,
		.util_avg = 1019,
	};
	return cfs;
}

START_TEST(pelt_attach_rebuilds_the_entity_sums_at_the_cfs_rq_divider)
{
	struct sched_avg cfs = cfs_fixture();
	struct sched_avg se;

	/* a nice -5 task (3121) with a history, from another CPU */
	memset(&se, 0, sizeof(se));
	se.last_update_time = 5;
	se.period_contrib = 7;
	se.load_avg = 600;
	se.runnable_avg = 400;
	se.util_avg = 300;
	pelt_attach(&cfs, &se, 3121);

	ck_assert_uint_eq(se.last_update_time, 123456 * 1024);
	ck_assert_uint_eq(se.period_contrib, 500);
	ck_assert_uint_eq(se.util_sum, 300 * 47218);	 /* 14165400 */
	ck_assert_uint_eq(se.runnable_sum, 400 * 47218); /* 18887200 */
	/* 600 * 47218 = 28330800, back to time units: / 3121 = 9077 */
	ck_assert_uint_eq(se.load_sum, 9077);
	ck_assert_uint_eq(se.load_avg, 600);

	ck_assert_uint_eq(cfs.load_avg, 1619);
	ck_assert_uint_eq(cfs.load_sum, 1024 * 47000 + 3121 * 9077);
	ck_assert_uint_eq(cfs.util_avg, 1319);
	ck_assert_uint_eq(cfs.util_sum, (47000 << 10) + 14165400);
	ck_assert_uint_eq(cfs.runnable_avg, 1419);
	ck_assert_uint_eq(cfs.runnable_sum, (47000 << 10) + 18887200);
}
END_TEST

START_TEST(pelt_attach_then_detach_restores_the_cfs_rq)
{
	const struct sched_avg orig = cfs_fixture();
	struct sched_avg cfs = orig;
	struct sched_avg se;

	memset(&se, 0, sizeof(se));
	se.load_avg = 600;
	se.runnable_avg = 400;
	se.util_avg = 300;
	pelt_attach(&cfs, &se, 3121);
	pelt_detach(&cfs, &se, 3121);
	/*
	 * Exact: every subtraction undoes an addition, and the original sums
	 * are above their floors (avg * 46718 = 47605642 < 48128000).
	 */
	ck_assert_mem_eq(&cfs, &orig, sizeof(cfs));
}
END_TEST

START_TEST(pelt_attach_of_a_zero_load_entity_still_counts_one_unit)
{
	struct sched_avg cfs, se;

	/* load_avg 0: the product 0 is not above the weight, so load_sum 1 */
	memset(&cfs, 0, sizeof(cfs));
	memset(&se, 0, sizeof(se));
	pelt_attach(&cfs, &se, NICE_0_W);
	ck_assert_uint_eq(se.load_sum, 1);
	ck_assert_uint_eq(cfs.load_sum, 1024);
	ck_assert_uint_eq(cfs.load_avg, 0);
	pelt_detach(&cfs, &se, NICE_0_W);
	ck_assert_uint_eq(cfs.load_sum, 0);
}
END_TEST

START_TEST(pelt_detach_clamps_at_zero_and_floors_sums_by_their_averages)
{
	struct sched_avg cfs, se;

	/* more than the cfs_rq holds: everything clamps to 0 */
	memset(&cfs, 0, sizeof(cfs));
	cfs.load_avg = 100;
	cfs.load_sum = 100 * 46718;
	cfs.util_avg = 50;
	cfs.util_sum = 50 * 46718;
	memset(&se, 0, sizeof(se));
	se.load_avg = 200;
	se.load_sum = 46718;
	se.util_avg = 60;
	se.util_sum = 60 * 46718;
	se.runnable_avg = 1;
	se.runnable_sum = 1;
	pelt_detach(&cfs, &se, 1024);
	ck_assert_uint_eq(cfs.load_avg, 0);
	ck_assert_uint_eq(cfs.load_sum, 0);
	ck_assert_uint_eq(cfs.util_avg, 0);
	ck_assert_uint_eq(cfs.util_sum, 0);
	ck_assert_uint_eq(cfs.runnable_avg, 0);
	ck_assert_uint_eq(cfs.runnable_sum, 0);

	/*
	 * A sum that rounding left short: util 10 - 2 = 8, util_sum
	 * 472180 - 200000 = 272180 < 8 * 46718 = 373744, raised to the floor.
	 */
	memset(&cfs, 0, sizeof(cfs));
	cfs.util_avg = 10;
	cfs.util_sum = 472180;
	memset(&se, 0, sizeof(se));
	se.util_avg = 2;
	se.util_sum = 200000;
	pelt_detach(&cfs, &se, 1024);
	ck_assert_uint_eq(cfs.util_avg, 8);
	ck_assert_uint_eq(cfs.util_sum, 373744);
}
END_TEST

/* ------------------------------------------------------------------ */
/* new tasks                                                           */

struct init_case {
	unsigned long weight, cfs_util, cfs_load, capacity, want_util;
};

/*
 * util = min(cfs_util * weight / (cfs_load + 1), (capacity - cfs_util) / 2),
 * or the cap alone when cfs_util is 0, or 0 when the cap is not positive.
 */
static const struct init_case init_cases[] = {
	{ 1024, 0, 0, 1024, 512 },	/* idle rq: half the capacity */
	{ 1024, 0, 0, 512, 256 },	/* a half-capacity CPU */
	{ 1024, 600, 1024, 1024, 212 }, /* 614400/1025 = 599 > cap 424/2 */
	{ 1024, 300, 2048, 1024, 149 }, /* 307200/2049 = 149 < cap 362 */
	{ 3121, 300, 2048, 1024, 362 }, /* nice -5: 936300/2049 = 456 > 362 */
	{ 1024, 1022, 1022, 1024, 1 },	/* cap (1024 - 1022) / 2 = 1 */
	{ 1024, 1023, 1023, 1024, 0 },	/* cap 1 / 2 = 0: no util */
	{ 1024, 1024, 1024, 1024, 0 },	/* full */
	{ 1024, 1100, 1024, 1024, 0 },	/* over-full: negative cap */
};

START_TEST(pelt_init_task_follows_post_init_entity_util_avg)
{
	const struct init_case *c = &init_cases[_i];
	struct sched_avg sa;

	memset(&sa, 0xa5, sizeof(sa));
	pelt_init_task(&sa, c->weight, c->cfs_util, c->cfs_load, c->capacity,
		       777 * 1024);
	ck_assert_msg(sa.util_avg == c->want_util,
		      "weight %lu cfs util %lu load %lu cap %lu: util %lu, "
		      "want %lu",
		      c->weight, c->cfs_util, c->cfs_load, c->capacity,
		      sa.util_avg, c->want_util);
	ck_assert_uint_eq(sa.runnable_avg, c->want_util);
	ck_assert_uint_eq(sa.load_avg, c->weight);
	ck_assert_uint_eq(sa.load_sum, 0);
	ck_assert_uint_eq(sa.runnable_sum, 0);
	ck_assert_uint_eq(sa.util_sum, 0);
	ck_assert_uint_eq(sa.period_contrib, 0);
	ck_assert_uint_eq(sa.last_update_time, 777 * 1024);
}
END_TEST

START_TEST(pelt_successive_forks_get_half_the_remaining_room)
{
	/* the series in the kernel's comment above post_init_entity_util_avg */
	static const unsigned long task[] = { 512, 256, 128, 64, 32, 16, 8 };
	static const unsigned long rq[] = {
		512, 768, 896, 960, 992, 1008, 1016,
	};
	struct sched_avg cfs, se;

	memset(&cfs, 0, sizeof(cfs));
	for (size_t i = 0; i < ARRAY_SIZE(task); i++) {
		pelt_init_task(&se, NICE_0_W, cfs.util_avg, cfs.load_avg,
			       SCHED_CAPACITY_SCALE, 0);
		ck_assert_uint_eq(se.util_avg, task[i]);
		pelt_attach(&cfs, &se, NICE_0_W);
		ck_assert_uint_eq(cfs.util_avg, rq[i]);
		ck_assert_uint_eq(cfs.load_avg, NICE_0_W * (i + 1));
	}
}
END_TEST

Suite *pelt_suite(void)
{
	Suite *s = suite_create("pelt");
	TCase *decay = tcase_create("decay_load");
	TCase *update = tcase_create("update");
	TCase *attach = tcase_create("attach_detach");
	TCase *init = tcase_create("init_task");

	tcase_add_test(
		decay,
		pelt_decay_load_by_one_half_life_halves_then_loses_a_unit);
	tcase_add_test(
		decay,
		pelt_decay_load_by_zero_periods_is_the_table_recipe_x_minus_1);
	tcase_add_test(
		decay,
		pelt_decay_load_of_load_avg_max_by_one_period_is_the_min_divider);
	tcase_add_test(decay, pelt_decay_load_uses_a_full_96_bit_product);
	tcase_add_test(decay, pelt_decay_load_beyond_63_half_lives_is_zero);
	suite_add_tcase(s, decay);

	tcase_add_test(
		update,
		pelt_update_within_one_period_adds_delta_and_keeps_the_averages);
	tcase_add_test(update,
		       pelt_update_across_one_boundary_sums_the_three_segments);
	tcase_add_test(update,
		       pelt_update_without_load_neither_runs_nor_is_runnable);
	tcase_add_test(update,
		       pelt_update_with_the_clock_going_backwards_only_resyncs);
	tcase_add_test(
		update,
		pelt_always_running_entity_converges_to_the_kernel_steady_state);
	tcase_add_test(update,
		       pelt_half_duty_cycle_gives_util_near_half_capacity);
	tcase_add_test(update, pelt_load_avg_halves_after_32_idle_periods);
	tcase_add_test(update,
		       pelt_cfs_rq_signal_weights_load_and_runnable_not_util);
	suite_add_tcase(s, update);

	tcase_add_test(
		attach,
		pelt_attach_rebuilds_the_entity_sums_at_the_cfs_rq_divider);
	tcase_add_test(attach, pelt_attach_then_detach_restores_the_cfs_rq);
	tcase_add_test(attach,
		       pelt_attach_of_a_zero_load_entity_still_counts_one_unit);
	tcase_add_test(
		attach,
		pelt_detach_clamps_at_zero_and_floors_sums_by_their_averages);
	suite_add_tcase(s, attach);

	tcase_add_loop_test(init,
			    pelt_init_task_follows_post_init_entity_util_avg, 0,
			    (int)ARRAY_SIZE(init_cases));
	tcase_add_test(init, pelt_successive_forks_get_half_the_remaining_room);
	suite_add_tcase(s, init);
	return s;
}
