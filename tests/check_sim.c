/* SPDX-License-Identifier: MIT */
/*
 * The public simulation API: lifecycle and errors, program semantics,
 * accounting of a hand-worked run, determinism in one process (byte
 * identical JSON, interleaved simulations), and the livelock guard.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"

#define US 1000LL
#define MS 1000000LL
#define SEC 1000000000LL

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
};

static eevdf_sim *sim_1cpu(void)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	return sim;
}

START_TEST(config_errors_are_reported_not_crashed)
{
	struct eevdf_config cfg;
	eevdf_sim *sim = (eevdf_sim *)&cfg;
	char err[256];

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 0;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(sim);
	ck_assert_ptr_nonnull(strstr(err, "nr_cpus"));
	cfg.nr_cpus = EEVDF_MAX_CPUS + 1;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
			 EEVDF_EINVAL);
	eevdf_config_init(&cfg);
	cfg.hz = 50;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "hz"));
	eevdf_config_init(&cfg);
	cfg.kernel = "5.0";
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "'5.0'"));
	ck_assert_ptr_nonnull(strstr(err, "6.18"));
	ck_assert_int_eq(eevdf_sim_new(NULL, &sim, NULL, 0), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_new(&cfg, NULL, NULL, 0), EEVDF_EINVAL);
	eevdf_sim_free(NULL);
}
END_TEST

START_TEST(bad_task_specs_are_rejected_with_a_message)
{
	eevdf_sim *sim = sim_1cpu();
	static const int cpu3 = 3;
	static const struct eevdf_op spin_forever[] = {
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
	};
	static const struct eevdf_op too_long_body[] = {
		{ EEVDF_OP_LOOP, 0, 2, 5 },
		{ EEVDF_OP_RUN, MS, 0, 0 },
	};
	static const struct eevdf_op crossing[] = {
		{ EEVDF_OP_LOOP, 0, 2, 2 }, { EEVDF_OP_RUN, MS, 0, 0 },
		{ EEVDF_OP_LOOP, 0, 2, 2 }, { EEVDF_OP_RUN, MS, 0, 0 },
		{ EEVDF_OP_RUN, MS, 0, 0 },
	};
	static const struct eevdf_op negative[] = {
		{ EEVDF_OP_SLEEP, -1, 0, 0 },
	};
	struct eevdf_task_spec s = { .name = "t", .program = hog, .nr_ops = 2 };

	s.nice = 20;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "nice 20"));
	s.nice = 0;
	s.cpus = &cpu3;
	s.nr_cpus = 1;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "cpu 3"));
	s.cpus = NULL;
	s.nr_cpus = 0;
	s.program = spin_forever;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "forever"));
	s.program = too_long_body;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	s.program = crossing;
	s.nr_ops = 5;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "outside"));
	s.program = negative;
	s.nr_ops = 1;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	s.program = hog;
	s.nr_ops = 2;
	s.name = "";
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	s.name = "t";
	s.start = -5;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	/* nothing was added, and the simulation is still usable */
	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 0);
	s.start = 0;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 5 * MS), EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A lone task: run 2 ms, sleep 3 ms, run 1 ms, exit.  Worked by hand:
 * 3 ms of CPU, 3 ms asleep, never waiting; switched out twice, both
 * voluntary (the sleep and the exit); two delay samples (creation and
 * wakeup), both zero; the run ends at 6 ms with the CPU idle after.
 */
START_TEST(accounting_of_a_lone_task_matches_hand_count)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_RUN, 2 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 3 * MS, 0, 0 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
	};
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = { .name = "lone",
				     .program = prog,
				     .nr_ops = 3 };
	struct eevdf_task_stats st;
	struct eevdf_cpu_stats cs;

	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
	ck_assert(!eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 6 * MS);
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 0, &st), 0);
	ck_assert_str_eq(st.name, "lone");
	ck_assert_int_eq(st.pid, 1);
	ck_assert_int_eq(st.state, EEVDF_TASK_DEAD);
	ck_assert_int_eq(st.cpu_ns, 3 * MS);
	ck_assert_int_eq(st.sleep_ns, 3 * MS);
	ck_assert_int_eq(st.wait_ns, 0);
	ck_assert_uint_eq(st.voluntary, 2);
	ck_assert_uint_eq(st.involuntary, 0);
	ck_assert_uint_eq(st.switches, 2);
	ck_assert_uint_eq(st.delay_count, 2);
	ck_assert_int_eq(st.delay_sum_ns, 0);
	ck_assert_int_eq(eevdf_sim_cpu_stats(sim, 0, &cs), 0);
	ck_assert_int_eq(cs.busy_ns, 3 * MS);
	ck_assert_int_eq(cs.idle_ns, 3 * MS);
	ck_assert_int_eq(eevdf_sim_cpu_stats(sim, 1, &cs), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 1, &st), EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * CSV: the lone task of the hand count above, and a name that needs
 * quoting (a comma and a quote) written as RFC 4180 says.
 */
START_TEST(csv_rows_hold_the_hand_counted_values)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_RUN, 2 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 3 * MS, 0, 0 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
	};
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = { .name = "lone",
				     .program = prog,
				     .nr_ops = 3 };
	char *csv = NULL;

	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
	s.name = "odd,\"name\"";
	s.start = 10 * MS;
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 2);
	ck_assert_int_eq(eevdf_sim_run(sim, SEC), 0);
	ck_assert_int_eq(eevdf_sim_results_csv(sim, &csv), 0);
	ck_assert_str_eq(
		csv,
		"name,pid,cpu,nice,policy,state,cpu_ns,wait_ns,sleep_ns,"
		"switches,voluntary,involuntary,migrations,delay_count,"
		"delay_avg_ns,delay_max_ns,delay_max_at_ns,delay_sum_ns,"
		"cgroup\n"
		"lone,1,0,0,normal,dead,3000000,0,3000000,2,2,0,0,2,0,0,0,0,"
		"/autogroup-1\n"
		"\"odd,\"\"name\"\"\",2,0,0,normal,dead,3000000,0,3000000,2,2,"
		"0,0,2,0,0,10000000,0,/autogroup-1\n");
	free(csv);
	ck_assert_int_eq(eevdf_sim_results_csv(sim, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_csv(NULL, &csv), EEVDF_EINVAL);
	ck_assert_ptr_null(csv);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Two hogs on one CPU (0.70 ms slice, HZ 1000) alternate every tick after
 * A's first 1 ms turn: every turn but the first is preceded by a 1 ms
 * wait, and B's first delay is 1 ms too.  Over 10 ms: A runs at 0, 2, 4,
 * 6, 8 and B at 1, 3, 5, 7, 9.
 */
START_TEST(perf_sched_latency_delays_count_preemption_waits)
{
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = { .program = hog, .nr_ops = 2 };
	struct eevdf_task_stats a, b;

	s.name = "A";
	eevdf_sim_add_task(sim, &s);
	s.name = "B";
	eevdf_sim_add_task(sim, &s);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS - 1), 0);
	eevdf_sim_task_stats(sim, 0, &a);
	eevdf_sim_task_stats(sim, 1, &b);
	ck_assert_int_eq(a.cpu_ns, 5 * MS);
	ck_assert_int_eq(b.cpu_ns, 5 * MS - 1);
	ck_assert_uint_eq(a.delay_count, 5);
	ck_assert_int_eq(a.delay_sum_ns, 4 * MS);
	ck_assert_int_eq(a.delay_max_ns, 1 * MS);
	ck_assert_uint_eq(b.delay_count, 5);
	ck_assert_int_eq(b.delay_sum_ns, 5 * MS);
	ck_assert_int_eq(b.delay_max_ns, 1 * MS);
	ck_assert_int_eq(b.delay_max_at, 1 * MS);
	ck_assert_uint_eq(a.involuntary, 5);
	ck_assert_uint_eq(a.voluntary, 0);
	/* A waited 1 ms after each of its 4 preemptions, plus 1 ms now
	 * being in the middle of B's fifth turn */
	ck_assert_int_eq(a.wait_ns, 5 * MS - 1);
	eevdf_sim_free(sim);
}
END_TEST

/* A task with a start time is created then, not before. */
START_TEST(start_time_delays_creation)
{
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = {
		.name = "late", .program = hog, .nr_ops = 2, .start = 7 * MS
	};
	struct eevdf_task_stats st;

	eevdf_sim_add_task(sim, &s);
	ck_assert_int_eq(eevdf_sim_run(sim, 5 * MS), 0);
	eevdf_sim_task_stats(sim, 0, &st);
	ck_assert_int_eq(st.state, EEVDF_TASK_NEW);
	ck_assert_int_eq(st.cpu_ns, 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	eevdf_sim_task_stats(sim, 0, &st);
	ck_assert_int_eq(st.cpu_ns, 3 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* Counted and nested loops run exactly count times: 2 x (3 x 1 ms + 1 ms). */
START_TEST(nested_counted_loops_run_exactly)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_LOOP, 0, 2, 3 },
		{ EEVDF_OP_LOOP, 0, 3, 1 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
		{ EEVDF_OP_RUN, 500 * US, 0, 0 },
	};
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = { .name = "n",
				     .program = prog,
				     .nr_ops = 5 };
	struct eevdf_task_stats st;

	eevdf_sim_add_task(sim, &s);
	ck_assert_int_eq(eevdf_sim_run(sim, SEC), 0);
	eevdf_sim_task_stats(sim, 0, &st);
	ck_assert_int_eq(st.cpu_ns, 8 * MS + 500 * US);
	ck_assert(eevdf_sim_done(sim));
	eevdf_sim_free(sim);
}
END_TEST

/* Two loops ending at the same op: the inner one closes first. */
START_TEST(loops_ending_together_both_count)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_LOOP, 0, 4, 3 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
		{ EEVDF_OP_LOOP, 0, 5, 1 },
		{ EEVDF_OP_RUN, 2 * MS, 0, 0 },
	};
	eevdf_sim *sim = sim_1cpu();
	struct eevdf_task_spec s = { .name = "n",
				     .program = prog,
				     .nr_ops = 4 };
	struct eevdf_task_stats st;

	eevdf_sim_add_task(sim, &s);
	ck_assert_int_eq(eevdf_sim_run(sim, SEC), 0);
	eevdf_sim_task_stats(sim, 0, &st);
	/* 4 x (1 + 5 x 2) ms */
	ck_assert_int_eq(st.cpu_ns, 44 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* Zero-cost yields in a long counted loop trip the livelock guard. */
START_TEST(zero_time_yield_storm_is_reported_as_livelock)
{
	static const struct eevdf_op storm[] = {
		{ EEVDF_OP_LOOP, 0, 100000000, 1 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
	};
	struct eevdf_config cfg;
	eevdf_sim *sim;
	struct eevdf_task_spec s = { .name = "storm",
				     .program = storm,
				     .nr_ops = 2 };
	int ret;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	eevdf_sim_add_task(sim, &s);
	s.name = "storm2";
	eevdf_sim_add_task(sim, &s);
	ret = eevdf_sim_run(sim, SEC);
	ck_assert_int_eq(ret, EEVDF_ELIVELOCK);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "storm"));
	/* the failure is sticky */
	ck_assert_int_eq(eevdf_sim_run(sim, 2 * SEC), EEVDF_ELIVELOCK);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EMISUSE);
	eevdf_sim_free(sim);
}
END_TEST

static eevdf_sim *mixed_sim(uint64_t seed)
{
	static const struct eevdf_op sl[] = {
		{ EEVDF_OP_LOOP, 0, 0, 3 },
		{ EEVDF_OP_RUN, 3 * MS + 17, 0, 0 },
		{ EEVDF_OP_SLEEP, 1 * MS + 333, 0, 0 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
	};
	struct eevdf_config cfg;
	eevdf_sim *sim;
	struct eevdf_task_spec s = { .program = hog, .nr_ops = 2 };

	eevdf_config_init(&cfg);
	cfg.seed = seed;
	cfg.nr_cpus = 2;
	cfg.name = "mixed";
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	s.name = "h0";
	eevdf_sim_add_task(sim, &s);
	s.name = "h1";
	s.nice = 3;
	eevdf_sim_add_task(sim, &s);
	s.name = "s0";
	s.nice = -2;
	s.program = sl;
	s.nr_ops = 4;
	eevdf_sim_add_task(sim, &s);
	s.name = "s1";
	s.slice = 300 * US;
	eevdf_sim_add_task(sim, &s);
	return sim;
}

/* The same inputs give byte-identical results JSON, twice in a process. */
START_TEST(same_inputs_give_identical_json)
{
	char *out[2];

	for (int k = 0; k < 2; k++) {
		eevdf_sim *sim = mixed_sim(7);

		ck_assert_int_eq(eevdf_sim_run(sim, 2 * SEC), 0);
		ck_assert_int_eq(eevdf_sim_results_json(sim, &out[k]), 0);
		eevdf_sim_free(sim);
	}
	ck_assert_str_eq(out[0], out[1]);
	ck_assert_ptr_nonnull(strstr(out[0], "\"eevdf-sim-result/1\""));
	free(out[0]);
	free(out[1]);
}
END_TEST

/*
 * Two simulations stepped alternately in one process end exactly where a
 * simulation run alone ends: no state is shared between them.
 */
START_TEST(interleaved_simulations_do_not_interfere)
{
	eevdf_sim *a = mixed_sim(1), *b = mixed_sim(1), *c = mixed_sim(1);
	char *ja, *jb, *jc;
	int ra = 1, rb = 1;

	ck_assert_int_eq(eevdf_sim_run(c, SEC), 0);
	while (ra == 1 || rb == 1) {
		if (ra == 1 && eevdf_sim_now(a) < SEC)
			ra = eevdf_sim_step(a);
		else
			ra = 0;
		if (rb == 1 && eevdf_sim_now(b) < SEC)
			rb = eevdf_sim_step(b);
		else
			rb = 0;
	}
	/* stepping stopped at the first event past 1 s; finish together */
	ck_assert_int_eq(eevdf_sim_run(a, 2 * SEC), 0);
	ck_assert_int_eq(eevdf_sim_run(b, 2 * SEC), 0);
	ck_assert_int_eq(eevdf_sim_run(c, 2 * SEC), 0);
	eevdf_sim_results_json(a, &ja);
	eevdf_sim_results_json(b, &jb);
	eevdf_sim_results_json(c, &jc);
	ck_assert_str_eq(ja, jc);
	ck_assert_str_eq(jb, jc);
	free(ja);
	free(jb);
	free(jc);
	eevdf_sim_free(a);
	eevdf_sim_free(b);
	eevdf_sim_free(c);
}
END_TEST

/* Running in pieces gives the same result as running at once: reading
 * results and pausing never touch the model. */
START_TEST(running_in_pieces_equals_running_at_once)
{
	eevdf_sim *a = mixed_sim(3), *b = mixed_sim(3);
	char *ja, *jb;
	struct eevdf_task_stats st;

	for (eevdf_time t = 1234567; t < SEC; t += 7654321) {
		ck_assert_int_eq(eevdf_sim_run(a, t), 0);
		for (size_t i = 0; i < eevdf_sim_nr_tasks(a); i++)
			eevdf_sim_task_stats(a, i, &st);
	}
	ck_assert_int_eq(eevdf_sim_run(a, SEC), 0);
	ck_assert_int_eq(eevdf_sim_run(b, SEC), 0);
	eevdf_sim_results_json(a, &ja);
	eevdf_sim_results_json(b, &jb);
	ck_assert_str_eq(ja, jb);
	free(ja);
	free(jb);
	eevdf_sim_free(a);
	eevdf_sim_free(b);
}
END_TEST

/* Trace events arrive in time order, and switches name real tasks. */
static void check_order(void *ud, const struct eevdf_trace_event *ev)
{
	eevdf_time *last = ud;

	ck_assert_int_ge(ev->time, *last);
	*last = ev->time;
	if (ev->kind == EEVDF_TRACE_SWITCH)
		ck_assert(ev->pid != ev->prev_pid);
}

START_TEST(trace_events_are_in_time_order)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	eevdf_time last = 0;
	struct eevdf_task_spec s = { .name = "a", .program = hog, .nr_ops = 2 };

	eevdf_config_init(&cfg);
	cfg.trace = check_order;
	cfg.trace_ud = &last;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	eevdf_sim_add_task(sim, &s);
	s.name = "b";
	eevdf_sim_add_task(sim, &s);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), 0);
	ck_assert_int_gt(last, 90 * MS);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(error_names_and_strings_cover_every_code)
{
	ck_assert_str_eq(eevdf_err_name(EEVDF_EINVAL), "EINVAL");
	ck_assert_str_eq(eevdf_err_name(EEVDF_ELIVELOCK), "ELIVELOCK");
	ck_assert_str_eq(eevdf_err_name(0), "OK");
	ck_assert_str_eq(eevdf_err_name(-999), "UNKNOWN");
	ck_assert_str_eq(eevdf_strerror(EEVDF_ENOMEM), "out of memory");
	ck_assert_str_eq(eevdf_strerror(12345), "unknown error");
	ck_assert_int_eq(eevdf_version(), EEVDF_VERSION_NUMBER);
	ck_assert_str_eq(eevdf_version_string(), EEVDF_VERSION_STRING);
}
END_TEST

Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("api");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, config_errors_are_reported_not_crashed);
	tcase_add_test(tc, bad_task_specs_are_rejected_with_a_message);
	tcase_add_test(tc, accounting_of_a_lone_task_matches_hand_count);
	tcase_add_test(tc, csv_rows_hold_the_hand_counted_values);
	tcase_add_test(tc, perf_sched_latency_delays_count_preemption_waits);
	tcase_add_test(tc, start_time_delays_creation);
	tcase_add_test(tc, nested_counted_loops_run_exactly);
	tcase_add_test(tc, loops_ending_together_both_count);
	tcase_add_test(tc, zero_time_yield_storm_is_reported_as_livelock);
	tcase_add_test(tc, same_inputs_give_identical_json);
	tcase_add_test(tc, interleaved_simulations_do_not_interfere);
	tcase_add_test(tc, running_in_pieces_equals_running_at_once);
	tcase_add_test(tc, trace_events_are_in_time_order);
	tcase_add_test(tc, error_names_and_strings_cover_every_code);
	suite_add_tcase(s, tc);
	return s;
}
