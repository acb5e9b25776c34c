/* SPDX-License-Identifier: MIT */
/*
 * The tick-by-tick traces of kernel-model.md section 13 (TV-3, TV-4, TV-5,
 * TV-9), run end to end through the public API: tasks on CPU 0 of an
 * 8-CPU machine (so the base slice is 2.8 ms), HZ 1000, created at t = 0
 * in alphabetical order.  A trace letter says which task ran during each
 * 1 ms interval.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace_rec.h"
#include "eevdf/eevdf.h"

#define MS 1000000LL

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
};

static eevdf_sim *new_sim(struct rec *r, const char *kernel,
			  eevdf_time base_slice, const char *features)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[512];

	memset(r, 0, sizeof(*r));
	eevdf_config_init(&cfg);
	cfg.nr_cpus = 8;
	cfg.kernel = kernel;
	cfg.base_slice = base_slice;
	cfg.trace = record;
	cfg.trace_ud = r;
	cfg.check_invariants = true;
	if (features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, features, err,
							   sizeof(err)),
				 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	return sim;
}

static void add(eevdf_sim *sim, const char *name, int nice,
		const struct eevdf_op *prog, size_t n)
{
	static const int cpu0 = 0;
	struct eevdf_task_spec s = {
		.name = name,
		.nice = nice,
		.program = prog,
		.nr_ops = n,
		.cpus = &cpu0,
		.nr_cpus = 1,
	};

	ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
}

static void hogs_trace(const char *kernel, eevdf_time base,
		       const char *features, const int *nices, int n, char *out,
		       int nms)
{
	static const char *const names[] = { "A", "B", "C", "D" };
	struct rec *r = malloc(sizeof(*r));
	eevdf_sim *sim;

	ck_assert_ptr_nonnull(r);
	sim = new_sim(r, kernel, base, features);
	for (int i = 0; i < n; i++)
		add(sim, names[i], nices[i], hog, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, nms * MS), 0);
	trace_string(r, out, nms);
	eevdf_sim_free(sim);
	free(r);
}

static const char *const kernels[] = { "6.17", "6.18", "6.12" };

/* TV-3: two nice-0 tasks, 2.8 ms and 3.0 ms slices alike (6.12's
 * default is the 3.0 ms). */
START_TEST(tv3_two_equal_tasks_alternate_after_a_short_first_turn)
{
	static const int nices[] = { 0, 0 };
	char t[64];

	for (int b = 0; b < 2; b++) {
		hogs_trace(kernels[_i], b ? 3 * MS : 0, NULL, nices, 2, t, 20);
		ck_assert_str_eq(t, "AABBAAABBBAAABBBAAAB");
	}
	/* the 0.70 ms minimum quantum of NO_RUN_TO_PARITY is 6.17's */
	if (strcmp(kernels[_i], "6.12") == 0)
		return;
	hogs_trace(kernels[_i], 0, "NO_RUN_TO_PARITY", nices, 2, t, 12);
	ck_assert_str_eq(t, "ABABABABABAB");
}
END_TEST

/*
 * TV-3 and TV-4 under 6.6-6.11: a new task's enqueue redoes its fork-time
 * placement without ENQUEUE_INITIAL, so the first deadline is a full
 * request away and the first turns are as long as the others.
 */
START_TEST(tv3_tv4_full_first_requests_before_6_12)
{
	static const int nices[] = { 0, 0, 0 };
	char t[64];

	static const char *const old_kernels[] = { "6.6", "6.8" };

	for (int k = 0; k < 2; k++) {
		for (int b = 0; b < 2; b++) {
			hogs_trace(old_kernels[k], b ? 3 * MS : 0, NULL, nices,
				   2, t, 20);
			ck_assert_str_eq(t, "AAABBBAAABBBAAABBBAA");
			hogs_trace(old_kernels[k], b ? 3 * MS : 0, NULL, nices,
				   3, t, 24);
			ck_assert_str_eq(t, "AAABBBCCCAAABBBCCCAAABBB");
		}
	}
}
END_TEST

/* TV-4: three nice-0 tasks. */
START_TEST(tv4_three_equal_tasks_round_robin)
{
	static const int nices[] = { 0, 0, 0 };
	char t[64];

	for (int b = 0; b < 2; b++) {
		hogs_trace(kernels[_i], b ? 3 * MS : 0, NULL, nices, 3, t, 24);
		ck_assert_str_eq(t, "AABBCCAAABBBCCCAAABBBCCC");
	}
}
END_TEST

/*
 * TV-5: nice 0 against nice 5 with a 2.8 ms slice (6.12's own default is
 * 3.0 ms): the first 40 ms, then 100 s of shares.
 */
START_TEST(tv5_nice_0_against_nice_5)
{
	static const int nices[] = { 0, 5 };
	char t[64];

	hogs_trace(kernels[_i], 2800000, NULL, nices, 2, t, 40);
	ck_assert_str_eq(t, "AABBAAAAABBBAAAAAAAAABBBAAAAAAAAABBBAAAA");
	for (int f = 0; f < 2; f++) {
		struct eevdf_config cfg;
		struct eevdf_task_stats a, b;
		eevdf_sim *sim;
		static const int cpu0 = 0;
		struct eevdf_task_spec s = {
			.program = hog,
			.nr_ops = 2,
			.cpus = &cpu0,
			.nr_cpus = 1,
		};

		eevdf_config_init(&cfg);
		cfg.nr_cpus = 8;
		cfg.kernel = kernels[_i];
		if (f)
			eevdf_config_set_features(&cfg, "NO_RUN_TO_PARITY",
						  NULL, 0);
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
		s.name = "A";
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
		s.name = "B";
		s.nice = 5;
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 2);
		ck_assert_int_eq(eevdf_sim_run(sim, 100000 * MS), 0);
		eevdf_sim_task_stats(sim, 0, &a);
		eevdf_sim_task_stats(sim, 1, &b);
		/* TV-5: A 75349 ms, B 24651 ms; 1024 : 335 of 100 s is
		 * 75349.52 : 24650.48 ms, and the vector holds to 1 ms */
		ck_assert_int_eq(a.cpu_ns / MS, 75349);
		ck_assert_int_eq(b.cpu_ns / MS, 24651);
		ck_assert_int_le(llabs(a.cpu_ns - 75349521707LL), MS);
		ck_assert_int_eq(a.cpu_ns + b.cpu_ns, 100000 * MS);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * TV-9 (slice 3.0 ms): A runs 3 ms, then sleeps 4 ms; B is a hog.  At
 * t = 5 A blocks ineligible and is delayed; at t = 8 the pick reaps it;
 * at t = 9 it wakes at V without preempting B, whose stale protection
 * makes the t = 10 tick pick A (6.17 and 6.18 alike).
 */
START_TEST(tv9_delayed_dequeue_trace)
{
	static const struct eevdf_op sleeper[] = {
		{ EEVDF_OP_RUN, 3 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 4 * MS, 0, 0 },
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
	};
	struct rec *r = malloc(sizeof(*r));
	eevdf_sim *sim;
	char t[32];

	ck_assert_ptr_nonnull(r);
	sim = new_sim(r, kernels[_i], 3 * MS, NULL);
	add(sim, "A", 0, sleeper, 4);
	add(sim, "B", 0, hog, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 15 * MS), 0);
	trace_string(r, t, 15);
	ck_assert_str_eq(t, "AABBABBBBBAAABB");
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

/*
 * TV-9 under 6.12-6.16.  The re-pick of B at t = 8 skips set_next_entity,
 * so the vlag stash still holds B's old deadline: for did_preempt_short()
 * (85e511df3cec: PREEMPT_SHORT, vlag != deadline, curr ineligible) that
 * reads as cancelled protection, and the t = 10 tick, with B ineligible,
 * reschedules to A as 6.17 does.  kernel-model.md's TV-9 has A from t = 11
 * for 6.12-6.16: that is the trace without PREEMPT_SHORT, where only B's
 * deadline renewal ends its turn.
 */
START_TEST(tv9_delayed_dequeue_trace_6_12)
{
	static const struct eevdf_op sleeper[] = {
		{ EEVDF_OP_RUN, 3 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 4 * MS, 0, 0 },
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
	};
	static const char *const features[] = { NULL, "NO_PREEMPT_SHORT" };
	static const char *const want[] = { "AABBABBBBBAAABB",
					    "AABBABBBBBBAAAB" };
	struct rec *r = malloc(sizeof(*r));
	eevdf_sim *sim;
	char t[32];

	ck_assert_ptr_nonnull(r);
	sim = new_sim(r, "6.12", 3 * MS, features[_i]);
	add(sim, "A", 0, sleeper, 4);
	add(sim, "B", 0, hog, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 15 * MS), 0);
	trace_string(r, t, 15);
	ck_assert_str_eq(t, want[_i]);
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

Suite *vectors_suite(void)
{
	Suite *s = suite_create("vectors");
	TCase *tc = tcase_create("traces");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(
		tc, tv3_two_equal_tasks_alternate_after_a_short_first_turn, 0,
		3);
	tcase_add_loop_test(tc, tv4_three_equal_tasks_round_robin, 0, 3);
	tcase_add_loop_test(tc, tv5_nice_0_against_nice_5, 0, 3);
	tcase_add_loop_test(tc, tv9_delayed_dequeue_trace, 0, 2);
	tcase_add_test(tc, tv3_tv4_full_first_requests_before_6_12);
	tcase_add_loop_test(tc, tv9_delayed_dequeue_trace_6_12, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
