/* SPDX-License-Identifier: MIT */
/*
 * Hardening (issue 22): checked simulated-time arithmetic, invariant
 * failures as errors, draws clamped to their operand's range, and the
 * library API under misuse.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "suites.h"
#include "engine/dist.h"
#include "engine/sim.h"
#include "lib/simtime.h"
#include "lib/utf8.h"

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

/* API: NULL-safety ---------------------------------------------------- */

/*
 * Every getter and call of the public API with NULL where an object or
 * an output goes: no crash, and the return its header documents.
 */
START_TEST(sim_api_is_null_safe)
{
	struct eevdf_task_stats ts;
	struct eevdf_cpu_stats cs;
	struct eevdf_smp_stats ss;
	char *out = NULL;

	ck_assert_int_eq(eevdf_sim_now(NULL), 0);
	ck_assert_uint_eq(eevdf_sim_nr_tasks(NULL), 0);
	ck_assert_uint_eq(eevdf_sim_nr_events(NULL), 0);
	ck_assert(!eevdf_sim_done(NULL));
	ck_assert_str_eq(eevdf_sim_errmsg(NULL), "no simulation");
	ck_assert_uint_eq(eevdf_sim_features(NULL), 0);
	ck_assert_str_eq(eevdf_sim_kernel(NULL), "");
	ck_assert_int_eq(eevdf_sim_base_slice(NULL), 0);
	ck_assert_int_eq(eevdf_sim_nr_cpus(NULL), 0);
	ck_assert_int_eq(eevdf_sim_hz(NULL), 0);
	ck_assert_uint_eq(eevdf_sim_seed(NULL), 0);
	ck_assert_int_eq(eevdf_sim_duration(NULL), 0);
	ck_assert_str_eq(eevdf_sim_name(NULL), "");
	ck_assert_int_eq(eevdf_sim_task_stats(NULL, 0, &ts), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_cpu_stats(NULL, 0, &cs), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_smp_stats(NULL, &ss), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_run(NULL, 1), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_step(NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_add_task(NULL, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_set_nice(NULL, 1, 0), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_set_affinity(NULL, 1, NULL, 0),
			 EEVDF_EINVAL);
	eevdf_sim_free(NULL);
	eevdf_config_init(NULL);
	ck_assert_int_eq(eevdf_config_set_features(NULL, "X", NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_config_check_features(NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_json(NULL, &out), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_csv(NULL, &out), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_json_headlines(NULL, NULL, 0, &out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_json_run(NULL, NULL, &out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_csv_run(NULL, NULL,
						   EEVDF_CSV_META_NONE, &out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_report(NULL, "pipe", NULL, NULL, &out, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_report_metrics(NULL, NULL, NULL, &out),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_report_headlines(NULL, "pipe", NULL, NULL, NULL,
						0, NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert(!eevdf_report_known(NULL));
}
END_TEST

/* The same with a live simulation and NULL outputs. */
START_TEST(sim_api_refuses_null_outputs)
{
	eevdf_sim *sim = new_sim();

	ck_assert_int_eq(eevdf_sim_task_stats(sim, 0, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_cpu_stats(sim, 0, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_smp_stats(sim, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_json(sim, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_csv(sim, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_results_json_run(sim, NULL, NULL),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_report(sim, NULL, NULL, NULL, NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_report_metrics(sim, NULL, NULL, NULL),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_new(NULL, NULL, NULL, 0), EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(workload_and_machine_api_is_null_safe)
{
	struct eevdf_diag d;
	struct eevdf_cpu_desc cd;
	eevdf_workload *wl = NULL;
	eevdf_machine *m = NULL;
	uint64_t seed = 7;
	char buf[64] = "x", hex[65];
	eevdf_time t = 5;

	memset(&d, 0, sizeof(d));
	ck_assert_str_eq(eevdf_workload_name(NULL), "");
	ck_assert_str_eq(eevdf_workload_description(NULL), "");
	ck_assert_uint_eq(eevdf_workload_nr_notes(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_note(NULL, 0));
	ck_assert_ptr_null(eevdf_workload_translation(NULL));
	ck_assert_int_eq(eevdf_workload_duration(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_sha256(NULL));
	ck_assert_ptr_null(eevdf_workload_duration_param(NULL));
	ck_assert_uint_eq(eevdf_workload_nr_params(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_param_name(NULL, 0));
	ck_assert_ptr_null(
		eevdf_workload_param_value(NULL, 0, buf, sizeof(buf)));
	ck_assert_int_eq(eevdf_workload_completed(NULL, NULL, buf, sizeof(buf)),
			 -1);
	ck_assert_ptr_null(eevdf_workload_machine(NULL));
	ck_assert_ptr_null(eevdf_workload_kernel(NULL));
	ck_assert(!eevdf_workload_seed(NULL, &seed));
	ck_assert_uint_eq(seed, 7);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_task(NULL, 0));
	ck_assert_int_eq(eevdf_workload_add_tasks(NULL, NULL, &d),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(eevdf_workload_report_format(NULL));
	ck_assert_uint_eq(eevdf_workload_report_also_count(NULL), 0);
	ck_assert_ptr_null(eevdf_workload_report_also(NULL, 0));
	ck_assert_ptr_null(eevdf_workload_report_option(NULL, "x"));
	ck_assert_ptr_null(eevdf_workload_metric_unit(NULL, "x"));
	eevdf_workload_free(NULL);
	ck_assert_int_eq(eevdf_workload_parse(NULL, 5, NULL, &wl, &d),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(wl);
	ck_assert_int_eq(eevdf_workload_parse("{}", 2, "x", NULL, &d),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_workload_load_file(NULL, &wl, &d), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_parse_duration(NULL, 10, &t), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_parse_duration("5ns", 10, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(t, 5);
	ck_assert_ptr_null(eevdf_diag_format(&d, NULL, 0));
	ck_assert_ptr_eq(eevdf_diag_format(NULL, buf, sizeof(buf)), buf);

	ck_assert_str_eq(eevdf_machine_name(NULL), "");
	ck_assert_str_eq(eevdf_machine_description(NULL), "");
	ck_assert_int_eq(eevdf_machine_nr_cpus(NULL), 0);
	ck_assert_int_eq(eevdf_machine_hz(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_cores(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_llcs(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_packages(NULL), 0);
	ck_assert_int_eq(eevdf_machine_cpu(NULL, 0, &cd), EEVDF_EINVAL);
	ck_assert_ptr_null(eevdf_machine_clone(NULL));
	ck_assert_int_eq(eevdf_machine_set_cost(NULL, "ipi", 1), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_hz(NULL, 100), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_digest(NULL, hex), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_new(NULL, &m, NULL, 0), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_new_flat(1, NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_parse(NULL, 5, NULL, &m, &d),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_load_file(NULL, &m, &d), EEVDF_EINVAL);
	eevdf_machine_free(NULL);

	ck_assert_int_eq(eevdf_feature_index(NULL), -1);
	ck_assert_ptr_null(eevdf_feature_name(100000));
	ck_assert_ptr_null(eevdf_profile_name(100000));
	ck_assert_ptr_null(eevdf_profile_description(100000));
	ck_assert_ptr_null(eevdf_profile_for_release(NULL, NULL, 0));
	ck_assert_int_eq(eevdf_profile_features(NULL, NULL), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_features_parse(NULL, NULL, NULL, NULL, 0),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(eevdf_report_info(100000));
}
END_TEST

/* API: errors, re-entry, limits --------------------------------------- */

static const struct eevdf_op hog_ms[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, MS, 0, 0 },
};

static const struct eevdf_task_spec hog_spec = { .name = "hog",
						 .program = hog_ms,
						 .nr_ops = 2 };

START_TEST(every_error_sets_errmsg)
{
	eevdf_sim *sim = new_sim();
	int cpus[] = { 5 };

	ck_assert_int_eq(eevdf_sim_add_task(sim, NULL), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim), "no task spec (NULL)");
	ck_assert_int_eq(eevdf_sim_set_nice(sim, 9, 0), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim), "no task with pid 9");
	ck_assert_int_eq(eevdf_sim_set_group(sim, NULL), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim),
			 "eevdf_sim_set_group(): no group spec (NULL)");
	ck_assert_int_eq(eevdf_sim_set_cgroup(sim, 1, NULL), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim),
			 "eevdf_sim_set_cgroup(): no cgroup path (NULL)");
	ck_assert_int_eq(eevdf_sim_add_task(sim, &hog_spec), 1);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, cpus, 1), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim),
			 "cpu 5 is not on this 1-CPU machine");
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, MS), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_errmsg(sim),
			 "cannot run back to 1000000 ns from 10000000 ns");
	eevdf_sim_free(sim);
}
END_TEST

/* After a failed run, a change is refused and the failure's message is
 * still there to read. */
START_TEST(a_failed_run_keeps_its_message)
{
	static const struct eevdf_op loop[] = {
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_SLEEP, PETA, 0, 0 },
	};
	struct eevdf_task_spec l = { .name = "l",
				     .program = loop,
				     .nr_ops = 2 };
	eevdf_sim *sim = new_sim();

	/* the run of a_run_stops_at_time_max_with_an_error */
	ck_assert_int_eq(eevdf_sim_add_task(sim, &l), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, INT64_MAX), EEVDF_ERANGE);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &hog_spec), EEVDF_EMISUSE);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim),
				     "eevdf_sim_add_task() after the "
				     "simulation failed: task l: op 1: a "
				     "sleep of 1000000000000000 ns"));
	eevdf_sim_free(sim);
}
END_TEST

struct reentry {
	eevdf_sim *sim;
	eevdf_workload *wl;
	int calls;
	int rc[9];
	char msg[3][256]; /* errmsg after the group calls */
	size_t nr_groups;
	eevdf_time now_before, now_after;
};

static void reenter(void *ud, const struct eevdf_trace_event *ev)
{
	struct reentry *r = ud;
	struct eevdf_diag d;
	struct eevdf_group_spec g;
	int cpus[] = { 0 };

	if (r->calls || ev->time < 5 * MS)
		return;
	r->calls++;
	r->now_before = eevdf_sim_now(r->sim);
	r->rc[0] = eevdf_sim_run(r->sim, 100 * MS);
	r->rc[1] = eevdf_sim_step(r->sim);
	r->rc[2] = eevdf_sim_add_task(r->sim, &hog_spec);
	r->rc[3] = eevdf_sim_set_nice(r->sim, 1, 5);
	r->rc[4] = eevdf_sim_set_affinity(r->sim, 1, cpus, 1);
	r->rc[5] = eevdf_workload_add_tasks(r->wl, r->sim, &d);
	/* the task groups' calls (main's group scheduling) as well */
	eevdf_group_spec_init(&g, "/h");
	g.weight = 200;
	r->rc[6] = eevdf_sim_set_group(r->sim, &g);
	snprintf(r->msg[0], sizeof(r->msg[0]), "%s", eevdf_sim_errmsg(r->sim));
	r->rc[7] = eevdf_sim_set_cgroup(r->sim, 1, "/g");
	snprintf(r->msg[1], sizeof(r->msg[1]), "%s", eevdf_sim_errmsg(r->sim));
	r->rc[8] = eevdf_sim_set_autogroup_nice(r->sim, 0, 5);
	snprintf(r->msg[2], sizeof(r->msg[2]), "%s", eevdf_sim_errmsg(r->sim));
	r->nr_groups = eevdf_sim_nr_groups(r->sim);
	r->now_after = eevdf_sim_now(r->sim);
}

/*
 * The trace callback runs inside an event: every call that would change
 * or advance the simulation is refused with EEVDF_EBUSY, the clock does
 * not move, and the run goes on to its end.
 */
START_TEST(callbacks_cannot_reenter_the_run)
{
	static const char text[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"w\", "
		"\"tasks\": [{\"name\": \"a\", \"program\": [{\"run\": "
		"\"1ms\"}]}]}";
	struct reentry r;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	struct eevdf_group_spec g;
	size_t groups;

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(eevdf_workload_parse(text, sizeof(text) - 1, "w",
					      &r.wl, &d),
			 0);
	eevdf_config_init(&cfg);
	cfg.trace = reenter;
	cfg.trace_ud = &r;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &r.sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(r.sim, &hog_spec), 1);
	eevdf_group_spec_init(&g, "/g");
	ck_assert_int_eq(eevdf_sim_set_group(r.sim, &g), 0);
	groups = eevdf_sim_nr_groups(r.sim);
	/* the first trace event at 5 ms or later reenters */
	ck_assert_int_eq(eevdf_sim_run(r.sim, 20 * MS), 0);
	ck_assert_int_eq(r.calls, 1);
	for (int i = 0; i < 9; i++)
		ck_assert_int_eq(r.rc[i], EEVDF_EBUSY);
	ck_assert_str_eq(r.msg[0], "eevdf_sim_set_group() called from a "
				   "callback of the running simulation");
	ck_assert_str_eq(r.msg[1], "eevdf_sim_set_cgroup() called from a "
				   "callback of the running simulation");
	ck_assert_str_eq(r.msg[2], "eevdf_sim_set_autogroup_nice() called "
				   "from a callback of the running "
				   "simulation");
	/* nothing was made: no "/h" */
	ck_assert_uint_eq(r.nr_groups, groups);
	ck_assert_int_eq(r.now_before, r.now_after);
	ck_assert_int_eq(eevdf_sim_now(r.sim), 20 * MS);
	ck_assert_uint_eq(eevdf_sim_nr_tasks(r.sim), 1);
	/* usable again once the run returned */
	ck_assert_int_eq(eevdf_sim_set_nice(r.sim, 1, 5), 0);
	eevdf_sim_free(r.sim);
	eevdf_workload_free(r.wl);
}
END_TEST

static uint64_t events_of_a_run(uint64_t max_events)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	uint64_t n;
	int rc;

	eevdf_config_init(&cfg);
	cfg.max_events = max_events;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &hog_spec), 1);
	rc = eevdf_sim_run(sim, 50 * MS);
	n = eevdf_sim_nr_events(sim);
	if (rc) {
		ck_assert_int_eq(rc, EEVDF_ELIMIT);
		ck_assert_ptr_nonnull(
			strstr(eevdf_sim_errmsg(sim), "limit of"));
		n = ~n; /* tell a limited run apart */
	}
	eevdf_sim_free(sim);
	return n;
}

/* max_events: a run of exactly that many events passes, one fewer
 * stops it after max_events events. */
START_TEST(max_events_is_exact)
{
	uint64_t e = events_of_a_run(0);

	ck_assert_uint_gt(e, 10);
	ck_assert_uint_eq(events_of_a_run(e), e);
	ck_assert_uint_eq(events_of_a_run(e + 1), e);
	ck_assert_uint_eq(~events_of_a_run(e - 1), e - 1);
	ck_assert_uint_eq(~events_of_a_run(3), 3);
}
END_TEST

struct prog_count {
	int calls, stop_at;
	uint64_t last;
};

static int count_progress(void *ud, const eevdf_sim *sim)
{
	struct prog_count *c = ud;

	c->calls++;
	c->last = eevdf_sim_nr_events(sim);
	return c->calls == c->stop_at;
}

/*
 * The progress callback runs every progress_every events, before the
 * next one: a run of E events calls it floor((E - 1) / 10) times at
 * every 10 (it is not called when no event is left).  Returning 0 leaves
 * the results byte-identical; non-zero stops the run after that many
 * events with EEVDF_ECANCELED.
 */
START_TEST(progress_callback_is_deterministic_and_can_stop)
{
	struct prog_count c = { 0, 0, 0 };
	struct eevdf_config cfg;
	eevdf_sim *a, *b;
	char *ja, *jb;
	uint64_t e;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &a, NULL, 0), 0);
	cfg.progress = count_progress;
	cfg.progress_ud = &c;
	cfg.progress_every = 10;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &b, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(a, &hog_spec), 1);
	ck_assert_int_eq(eevdf_sim_add_task(b, &hog_spec), 1);
	ck_assert_int_eq(eevdf_sim_run(a, 50 * MS), 0);
	ck_assert_int_eq(eevdf_sim_run(b, 50 * MS), 0);
	e = eevdf_sim_nr_events(a);
	ck_assert_uint_eq(eevdf_sim_nr_events(b), e);
	ck_assert_int_eq(c.calls, (int)((e - 1) / 10));
	ck_assert_uint_eq(c.last, (e - 1) / 10 * 10);
	ck_assert_int_eq(eevdf_sim_results_json(a, &ja), 0);
	ck_assert_int_eq(eevdf_sim_results_json(b, &jb), 0);
	ck_assert_str_eq(ja, jb);
	free(ja);
	free(jb);
	eevdf_sim_free(a);
	eevdf_sim_free(b);

	c.calls = 0;
	c.stop_at = 3;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &b, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(b, &hog_spec), 1);
	ck_assert_int_eq(eevdf_sim_run(b, 50 * MS), EEVDF_ECANCELED);
	ck_assert_uint_eq(eevdf_sim_nr_events(b), 30);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(b), "after 30 events"));
	ck_assert_int_eq(eevdf_sim_run(b, 50 * MS), EEVDF_ECANCELED);
	eevdf_sim_free(b);
}
END_TEST

/* The allocator hook and the load limits ------------------------------- */

/*
 * This file includes the library's internal headers, which map malloc()
 * and free() onto the library's allocator (lib/internal.h): the C
 * library's own are (malloc) and (free) here.
 */

struct counting {
	long allocs, frees, live;
	long fail_at; /* 0: never; n: the n-th allocation fails */
};

static struct counting counter;

static void *count_malloc(void *ud, size_t size)
{
	struct counting *c = ud;

	if (c->fail_at && ++c->allocs == c->fail_at)
		return NULL;
	if (!c->fail_at)
		c->allocs++;
	c->live++;
	return (malloc)(size);
}

static void *count_realloc(void *ud, void *ptr, size_t size)
{
	struct counting *c = ud;

	if (c->fail_at && ++c->allocs == c->fail_at)
		return NULL;
	if (!c->fail_at)
		c->allocs++;
	return (realloc)(ptr, size);
}

static void count_free(void *ud, void *ptr)
{
	struct counting *c = ud;

	if (!ptr) /* cJSON_free(NULL) reaches here */
		return;
	c->frees++;
	c->live--;
	(free)(ptr);
}

static const struct eevdf_allocator counting_alloc = { count_malloc,
						       count_realloc,
						       count_free, &counter };

/* cJSON's own allocations (the parse tree) through the same counter. */
static void *cjson_count_malloc(size_t size)
{
	return count_malloc(&counter, size);
}

static void cjson_count_free(void *ptr)
{
	count_free(&counter, ptr);
}

static const char small_wl[] =
	"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"w\", "
	"\"duration\": \"20ms\", \"tasks\": [{\"name\": \"a\", \"count\": 3, "
	"\"program\": [{\"loop\": {\"body\": [{\"run\": \"1ms\"}, "
	"{\"sleep\": \"1ms\"}]}}]}]}";

/* Load, run and report small_wl: 0, or the first error. */
static int load_run_report(void)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	char *json = NULL;
	int rc;

	rc = eevdf_workload_parse(small_wl, sizeof(small_wl) - 1, "w", &wl, &d);
	if (!rc) {
		eevdf_config_init(&cfg);
		rc = eevdf_sim_new(&cfg, &sim, NULL, 0);
	}
	if (!rc)
		rc = eevdf_workload_add_tasks(wl, sim, &d);
	if (!rc)
		rc = eevdf_sim_run(sim, 20 * MS);
	if (!rc)
		rc = eevdf_sim_results_json(sim, &json);
	(free)(json); /* the C library's, as results.h promises */
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return rc;
}

/*
 * Every allocation goes through the hook and is given back; failing the
 * n-th one, for each n up to the last, gives a clean error (or, where the
 * library can do without, success), never a crash or a leak of the
 * hook's memory.  cJSON's allocations count too: when one fails, the
 * loader says out of memory, not that the JSON has a syntax error.
 */
START_TEST(the_allocator_hook_sees_every_allocation)
{
	cJSON_Hooks hooks = { cjson_count_malloc, cjson_count_free };
	long total;

	memset(&counter, 0, sizeof(counter));
	ck_assert_int_eq(eevdf_set_allocator(&counting_alloc), 0);
	/* this test runs in a process of its own (libcheck forks) */
	cJSON_InitHooks(&hooks);
	ck_assert_int_eq(load_run_report(), 0);
	total = counter.allocs;
	ck_assert_int_gt(total, 20);
	ck_assert_int_eq(counter.live, 0);
	for (long n = 1; n <= total; n++) {
		int rc;

		memset(&counter, 0, sizeof(counter));
		counter.fail_at = n;
		rc = load_run_report();
		ck_assert_msg(rc == 0 || rc == EEVDF_ENOMEM,
			      "allocation %ld of %ld failed: %s", n, total,
			      eevdf_err_name(rc));
		ck_assert_msg(counter.live == 0,
			      "allocation %ld failed: %ld blocks left", n,
			      counter.live);
	}
	ck_assert_int_eq(eevdf_set_allocator(NULL), 0);
	cJSON_InitHooks(NULL);
	memset(&counter, 0, sizeof(counter));
	ck_assert_int_eq(load_run_report(), 0);
	ck_assert_int_eq(counter.allocs, 0); /* the C library's again */
}
END_TEST

/*
 * What the library hands the caller to free() comes from the C library
 * whatever allocator is installed: eevdf_sweep_point_config()'s text
 * came from the hook, so eevdf-sim sweep (whose --max-memory installs
 * one) crashed in free() ("free(): invalid pointer").  Here the hook
 * counts: the text must not be one of its blocks.
 */
START_TEST(a_sweep_config_is_the_callers_to_free)
{
	static const char spec[] =
		"{\"format\": \"eevdf-sim-sweep/1\", \"name\": \"s\", "
		"\"workload\": \"workloads/pipe.json\", "
		"\"axes\": {\"seed\": [1, 2]}}";
	struct eevdf_diag d;
	eevdf_sweep *sw = NULL;
	char *text = NULL;
	long live;

	memset(&counter, 0, sizeof(counter));
	ck_assert_int_eq(eevdf_set_allocator(&counting_alloc), 0);
	ck_assert_int_eq(eevdf_sweep_parse(spec, sizeof(spec) - 1, "s.json",
					   NULL, &sw, &d),
			 0);
	live = counter.live;
	ck_assert_int_eq(eevdf_sweep_point_config(sw, 1, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"seed\":2"));
	/* nothing of the hook's is left with the caller */
	ck_assert_int_eq(counter.live, live);
	(free)(text);
	eevdf_sweep_free(sw);
	ck_assert_int_eq(counter.live, 0);
	ck_assert_int_eq(eevdf_set_allocator(NULL), 0);
}
END_TEST

START_TEST(a_partial_allocator_is_refused)
{
	struct eevdf_allocator a = counting_alloc;

	a.realloc_fn = NULL;
	ck_assert_int_eq(eevdf_set_allocator(&a), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_set_allocator(NULL), 0);
}
END_TEST

/* The load limits of eevdf_load_opts: each an EEVDF_ELIMIT naming it. */
START_TEST(load_limits_are_errors_naming_their_field)
{
	struct eevdf_load_opts o;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	char deep[700];

	memset(&o, 0, sizeof(o));
	o.max_input = 100;
	ck_assert_int_eq(eevdf_workload_parse_opts(small_wl,
						   sizeof(small_wl) - 1, "w",
						   &o, &wl, &d),
			 EEVDF_ELIMIT);
	ck_assert_str_eq(d.msg, "the input is larger than the limit of 100 "
				"bytes (max_input)");
	/* count 3 x (loop, run, sleep) = 9 op slots */
	memset(&o, 0, sizeof(o));
	o.max_ops = 8;
	ck_assert_int_eq(eevdf_workload_parse_opts(small_wl,
						   sizeof(small_wl) - 1, "w",
						   &o, &wl, &d),
			 EEVDF_ELIMIT);
	ck_assert_ptr_nonnull(strstr(d.msg, "more than 8 op slots"));
	o.max_ops = 9;
	ck_assert_int_eq(eevdf_workload_parse_opts(small_wl,
						   sizeof(small_wl) - 1, "w",
						   &o, &wl, &d),
			 0);
	eevdf_workload_free(wl);
	/* 300 brackets: past the default 256, within max_depth 300 */
	memset(deep, '[', 300);
	memset(deep + 300, ']', 300);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(eevdf_workload_parse_opts(deep, 600, "w", &o, &wl, &d),
			 EEVDF_ELIMIT);
	ck_assert_str_eq(d.msg, "JSON nested deeper than 256 levels "
				"(max_depth)");
	o.max_depth = 300;
	ck_assert_int_eq(eevdf_workload_parse_opts(deep, 600, "w", &o, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.msg, "the top level must be an object");
	o.max_depth = 1001;
	ck_assert_int_eq(eevdf_workload_parse_opts(deep, 600, "w", &o, &wl, &d),
			 EEVDF_EINVAL);
}
END_TEST

/* UTF-8 -------------------------------------------------------------- */

START_TEST(utf8_sequences_follow_rfc3629)
{
	static const struct {
		const char *s;
		size_t len; /* of the first sequence; 0: ill-formed */
	} cases[] = {
		{ "a", 1 },
		{ "\xc3\xa9", 2 },	   /* e acute */
		{ "\xe2\x9c\x93", 3 },	   /* check mark */
		{ "\xf0\x9f\x98\x80", 4 }, /* an emoji, above the BMP */
		{ "\xc0\xaf", 0 },	   /* overlong '/' */
		{ "\xc1\xbf", 0 },	   /* overlong */
		{ "\xe0\x80\xaf", 0 },	   /* overlong, three bytes */
		{ "\xed\xa0\x80", 0 },	   /* U+D800, a surrogate */
		{ "\xed\x9f\xbf", 3 },	   /* U+D7FF, the last before */
		{ "\xf4\x90\x80\x80", 0 }, /* U+110000 */
		{ "\xf4\x8f\xbf\xbf", 4 }, /* U+10FFFF */
		{ "\xf5\x80\x80\x80", 0 },
		{ "\x80", 0 },	   /* a continuation alone */
		{ "\xe2\x9c", 0 }, /* cut short */
		{ "\xff", 0 },
	};
	char *fixed;
	size_t bad = 99;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(eevdf__utf8_seq((const unsigned char *)cases[i].s,
					      strlen(cases[i].s)) ==
				      cases[i].len,
			      "case %zu", i);
	ck_assert(eevdf__utf8_valid("ab\xc3\xa9", 4, &bad));
	ck_assert_uint_eq(bad, 99);
	ck_assert(!eevdf__utf8_valid("ab\xff\xc3\xa9", 5, &bad));
	ck_assert_uint_eq(bad, 2);
	/* each byte of no sequence becomes U+FFFD, the rest stays */
	ck_assert_int_eq(eevdf__utf8_fix("w\xff.json \xc3\xa9", &fixed), 0);
	ck_assert_str_eq(fixed, "w\xef\xbf\xbd.json \xc3\xa9");
	free(fixed);
	ck_assert_int_eq(eevdf__utf8_fix("\xe2\x9c", &fixed), 0);
	ck_assert_str_eq(fixed, "\xef\xbf\xbd\xef\xbf\xbd");
	free(fixed);
	ck_assert_int_eq(eevdf__utf8_fix("fine \xe2\x9c\x93", &fixed), 0);
	ck_assert_ptr_null(fixed);
}
END_TEST

/*
 * The loader names the string at fault by its path: the walk counts the
 * strings of the parsed document, keys first, in the order of the text:
 * "format" (1), its value (2), "name" (3), "x" (4), "tasks" (5), "name"
 * (6), "a\xff" (7), the string the scan stopped in.
 */
START_TEST(text_faults_name_their_string)
{
	static const char w[] =
		"{\"format\": \"eevdf-sim-workload/1\", "
		"\"name\": \"x\", \"tasks\": [{\"name\": "
		"\"a\xff\", \"program\": [{\"run\": \"1ms\"}]}]}";
	static const char z[] = "{\"name\": \"x\\u0000\"}";
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;

	ck_assert_int_eq(eevdf_workload_parse(w, sizeof(w) - 1, "w", &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.path, "tasks[0].name");
	/* bytes before the \xff: 35 up to "name", 13 to "tasks", 11 to its
	 * "name", 10 to the \xff: it is byte 69 */
	ck_assert_str_eq(d.msg, "bytes that are not UTF-8 at byte 69 (line 1)");
	ck_assert_int_eq(eevdf_workload_parse(z, sizeof(z) - 1, "z", &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.path, "name");
	/* the backslash of \u0000 is byte 11 */
	ck_assert_str_eq(d.msg, "a NUL character (\\u0000), which would cut "
				"the string short at byte 11 (line 1)");
	/* a raw NUL byte: no string to name, the byte */
	ck_assert_int_eq(eevdf_workload_parse("{\"a\":1}\0", 8, "n", &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.msg, "a NUL byte at byte 7: the file must be UTF-8 "
				"text");
}
END_TEST

/*
 * post n of 3 to a sem of count 0 with one waiter: the first post wakes
 * it (a futex wake, 1000 ns here), the second finds the count at 0 and
 * raises it (another futex wake), the third only raises it: the poster
 * pays 2 x 1000 = 2000 ns, every other cost being 0, and the count is 2,
 * so that its two waits after do not block.  (A post of any n raises the
 * count at once past that point: issue 22's post of 2^63 - 1 looped.)
 */
START_TEST(post_of_n_pays_as_n_posts)
{
	static const char w[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"p\", "
		"\"costs\": {\"syscall\": 0, \"futex_wake\": 1000, "
		"\"futex_wait\": 0, \"ttwu_local\": 0, \"ctxsw_thread\": 0, "
		"\"ctxsw_process\": 0, \"timer_arm\": 0, \"exit\": 0}, "
		"\"objects\": [{\"type\": \"sem\", \"name\": \"s\"}], "
		"\"tasks\": [{\"name\": \"w\", \"program\": [{\"wait\": "
		"{\"sem\": \"s\"}}]}, {\"name\": \"p\", \"program\": [{\"sleep\": "
		"\"1ms\"}, {\"post\": {\"sem\": \"s\", \"n\": 3}}, {\"wait\": "
		"{\"sem\": \"s\"}}, {\"wait\": {\"sem\": \"s\"}}]}]}";
	struct eevdf_task_stats st;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;

	ck_assert_int_eq(eevdf_workload_parse(w, sizeof(w) - 1, "p", &wl, &d),
			 0);
	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 1, &st), 0);
	ck_assert_str_eq(st.name, "p");
	ck_assert_int_eq(st.cpu_ns, 2000);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * The livelock guard's limit is the configuration's: 1000 zero-cost
 * yields in a counted loop (the library's costs are 0, so the clock never
 * moves) are 1001 ops at one instant with the loop's own, past a limit
 * of 100 and within one of 2000.
 */
START_TEST(the_livelock_guard_takes_its_limit_from_the_config)
{
	static const struct eevdf_op prog[] = {
		{ EEVDF_OP_LOOP, 0, 1000, 1 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
	};
	struct eevdf_task_spec t = { .name = "y",
				     .program = prog,
				     .nr_ops = 2 };
	struct eevdf_config cfg;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.max_instant_ops = 100;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, MS), EEVDF_ELIVELOCK);
	ck_assert_ptr_nonnull(
		strstr(eevdf_sim_errmsg(sim), "task y ran 100 ops at 0 ns"));
	eevdf_sim_free(sim);
	cfg.max_instant_ops = 2000;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	ck_assert_int_eq(eevdf_sim_run(sim, MS), 0);
	ck_assert(eevdf_sim_done(sim));
	eevdf_sim_free(sim);
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
	tcase_add_test(tc, post_of_n_pays_as_n_posts);
	suite_add_tcase(s, tc);
	tc = tcase_create("api");
	tcase_add_test(tc, sim_api_is_null_safe);
	tcase_add_test(tc, sim_api_refuses_null_outputs);
	tcase_add_test(tc, workload_and_machine_api_is_null_safe);
	tcase_add_test(tc, every_error_sets_errmsg);
	tcase_add_test(tc, a_failed_run_keeps_its_message);
	tcase_add_test(tc, callbacks_cannot_reenter_the_run);
	tcase_add_test(tc, max_events_is_exact);
	tcase_add_test(tc, progress_callback_is_deterministic_and_can_stop);
	tcase_add_test(tc, the_livelock_guard_takes_its_limit_from_the_config);
	tcase_add_test(tc, the_allocator_hook_sees_every_allocation);
	tcase_add_test(tc, a_partial_allocator_is_refused);
	tcase_add_test(tc, a_sweep_config_is_the_callers_to_free);
	tcase_add_test(tc, load_limits_are_errors_naming_their_field);
	suite_add_tcase(s, tc);
	tc = tcase_create("input");
	tcase_add_test(tc, utf8_sequences_follow_rfc3629);
	tcase_add_test(tc, text_faults_name_their_string);
	suite_add_tcase(s, tc);
	return s;
}
