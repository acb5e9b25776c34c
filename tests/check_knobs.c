/* SPDX-License-Identifier: MIT */
/*
 * The RFC knobs (WAKEUP_DEADLINE, PLACE_FUDGE, PLACE_BONUS): each moves behaviour the
 * way its posting claims on a scenario built for it, and changes nothing
 * where the posting says it should not.  They are settable on every
 * profile and in no release's feature list.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"

#define MS 1000000LL
#define SEC 1000000000LL

/* Run a workload file (from the source tree) or text under features. */
static eevdf_sim *run(const char *text, const char *file, int ncpus,
		      const char *const *params, size_t nr_params,
		      const char *features, eevdf_time until)
{
	struct eevdf_load_opts o = { .params = params,
				     .nr_params = nr_params,
				     .ncpus = ncpus };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	char err[256];
	int r;

	r = text ? eevdf_workload_parse_opts(text, strlen(text), "<knobs>", &o,
					     &wl, &d) :
		   eevdf_workload_load_file_opts(file, &o, &wl, &d);
	ck_assert_msg(r == 0, "%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.nr_cpus = ncpus;
	cfg.check_invariants = true;
	if (features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, features, err,
							   sizeof(err)),
				 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, until), 0);
	eevdf_workload_free(wl);
	return sim;
}

static uint64_t involuntary(const eevdf_sim *sim)
{
	uint64_t n = 0;

	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		struct eevdf_task_stats st;

		eevdf_sim_task_stats(sim, i, &st);
		n += st.involuntary;
	}
	return n;
}

/* Every task's runtime, switches and delays agree. */
static void same_tasks(const eevdf_sim *a, const eevdf_sim *b)
{
	ck_assert_uint_eq(eevdf_sim_nr_tasks(a), eevdf_sim_nr_tasks(b));
	for (size_t i = 0; i < eevdf_sim_nr_tasks(a); i++) {
		struct eevdf_task_stats x, y;

		eevdf_sim_task_stats(a, i, &x);
		eevdf_sim_task_stats(b, i, &y);
		ck_assert_int_eq(x.cpu_ns, y.cpu_ns);
		ck_assert_uint_eq(x.voluntary, y.voluntary);
		ck_assert_uint_eq(x.involuntary, y.involuntary);
		ck_assert_int_eq(x.delay_sum_ns, y.delay_sum_ns);
	}
}

START_TEST(rfc_knobs_are_in_no_release_list)
{
	int wd = eevdf_feature_index("WAKEUP_DEADLINE"),
	    pf = eevdf_feature_index("PLACE_FUDGE");

	ck_assert_int_ge(wd, 0);
	ck_assert_int_ge(pf, 0);
	ck_assert(eevdf_feature_is_rfc((size_t)wd));
	ck_assert(eevdf_feature_is_rfc((size_t)pf));
	ck_assert(!eevdf_feature_in_profile("6.18", (size_t)wd));
	ck_assert(!eevdf_feature_in_profile("6.12", (size_t)pf));
	ck_assert(!eevdf_feature_is_rfc(
		(size_t)eevdf_feature_index("RUN_TO_PARITY")));
}
END_TEST

/*
 * WAKEUP_DEADLINE vetoes a wakeup preemption unless the wakee's deadline
 * is earlier than curr's.  The sleeper of sleeper-vs-hog wakes with the
 * earlier deadline every time, so nothing changes there; blogbench's
 * wakeups (blogbench-coarse.json) also hit writers that overran their request (ineligible, with
 * the earlier deadline): those keep the CPU, so there are fewer
 * involuntary switches (one iteration, 0.5 s: 254 -> 252).
 */
START_TEST(wakeup_deadline_cuts_preemptions_only_of_an_earlier_deadline)
{
	static const char *const bb[] = { "iterations=1", "interval=500ms" };
	eevdf_sim *a, *b;

	a = run(NULL, "workloads/sleeper-vs-hog.json", 1, NULL, 0, NULL,
		2 * SEC);
	b = run(NULL, "workloads/sleeper-vs-hog.json", 1, NULL, 0,
		"WAKEUP_DEADLINE", 2 * SEC);
	same_tasks(a, b);
	eevdf_sim_free(a);
	eevdf_sim_free(b);

	a = run(NULL, "workloads/blogbench-coarse.json", 2, bb, 2, NULL,
		3 * SEC);
	b = run(NULL, "workloads/blogbench-coarse.json", 2, bb, 2,
		"WAKEUP_DEADLINE", 3 * SEC);
	ck_assert_msg(involuntary(b) < involuntary(a), "%llu vs %llu",
		      (unsigned long long)involuntary(b),
		      (unsigned long long)involuntary(a));
	eevdf_sim_free(a);
	eevdf_sim_free(b);
}
END_TEST

/*
 * PLACE_FUDGE forgives a shorter-than-average-slice task up to one
 * request of negative lag (and drops a positive one) when it is placed.
 * A 0.3 ms-slice task that overruns (1.5 ms of work, then a 1 ms sleep)
 * next to two hogs with the base slice wakes closer to V: its worst wakeup
 * delay falls from 3 ms to 2 ms.  With every slice equal the condition
 * never holds, and nothing changes.
 */
START_TEST(place_fudge_helps_short_slices_only)
{
	static const char mixed[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"5s\","
		"\"tasks\": ["
		"{\"name\": \"hog\", \"count\": 2, \"program\": [{\"loop\":"
		" {\"body\": [{\"run\": \"10ms\"}]}}]},"
		"{\"name\": \"short\", \"slice\": \"300us\", \"program\":"
		" [{\"loop\": {\"body\": [{\"run\": \"1500us\"},"
		" {\"sleep\": \"1ms\"}]}}]}]}";
	static const char equal[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"5s\","
		"\"tasks\": ["
		"{\"name\": \"hog\", \"count\": 2, \"program\": [{\"loop\":"
		" {\"body\": [{\"run\": \"10ms\"}]}}]},"
		"{\"name\": \"sleeper\", \"program\":"
		" [{\"loop\": {\"body\": [{\"run\": \"1500us\"},"
		" {\"sleep\": \"1ms\"}]}}]}]}";
	struct eevdf_task_stats sa, sb;
	eevdf_sim *a, *b;

	a = run(mixed, NULL, 1, NULL, 0, NULL, 5 * SEC);
	b = run(mixed, NULL, 1, NULL, 0, "PLACE_FUDGE", 5 * SEC);
	eevdf_sim_task_stats(a, 2, &sa);
	eevdf_sim_task_stats(b, 2, &sb);
	ck_assert_int_eq(sa.delay_max_ns, 3 * MS);
	ck_assert_int_eq(sb.delay_max_ns, 2 * MS);
	eevdf_sim_free(a);
	eevdf_sim_free(b);

	a = run(equal, NULL, 1, NULL, 0, NULL, 5 * SEC);
	b = run(equal, NULL, 1, NULL, 0, "PLACE_FUDGE", 5 * SEC);
	same_tasks(a, b);
	eevdf_sim_free(a);
	eevdf_sim_free(b);
}
END_TEST

static eevdf_time cpu_of(const eevdf_sim *sim, size_t i)
{
	struct eevdf_task_stats st;

	eevdf_sim_task_stats(sim, i, &st);
	return st.cpu_ns;
}

/*
 * PLACE_BONUS: a waking task starts up to half a slice left of its lag
 * placement (never left of its vruntime at sleep), so a 50 % sleeper
 * (5 ms run, 5 ms sleep) against a hog moves from the fair third towards
 * half of the CPU, more with the longer slices of a bigger machine (2.8
 * ms on 8 CPUs, both tasks on CPU 0): on 1 CPU it gets 1/3 of the 10 s
 * without the bonus (equal weights, and it sleeps half of what it would
 * run) and more with it, never more than half.  Tasks that never sleep
 * see no change.
 */
START_TEST(place_bonus_moves_a_sleeper_towards_half)
{
	static const char pair[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"10s\","
		"\"tasks\": ["
		"{\"name\": \"hog\", \"cpus\": [0], \"program\": [{\"loop\":"
		" {\"body\": [{\"run\": \"10ms\"}]}}]},"
		"{\"name\": \"sleeper\", \"cpus\": [0], \"program\":"
		" [{\"loop\": {\"body\": [{\"run\": \"5ms\"},"
		" {\"sleep\": \"5ms\"}]}}]}]}";
	static const char hogs[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"5s\","
		"\"tasks\": [{\"name\": \"hog\", \"count\": 3, \"nice\": 0,"
		" \"program\": [{\"loop\": {\"body\": [{\"run\": \"3ms\"}]}}]}]}";
	static const int ncpus[] = { 1, 8 };
	eevdf_sim *a, *b;

	for (int k = 0; k < 2; k++) {
		a = run(pair, NULL, ncpus[k], NULL, 0, NULL, 10 * SEC);
		b = run(pair, NULL, ncpus[k], NULL, 0, "PLACE_BONUS", 10 * SEC);
		/* the fair third, within the switch and wakeup costs */
		if (k == 0)
			ck_assert_msg(llabs(cpu_of(a, 1) - 10 * SEC / 3) <
					      20 * MS,
				      "%lld", (long long)cpu_of(a, 1));
		ck_assert_msg(cpu_of(b, 1) > cpu_of(a, 1) + 10 * MS &&
				      cpu_of(b, 1) <= 5 * SEC,
			      "%d CPUs: %lld -> %lld", ncpus[k],
			      (long long)cpu_of(a, 1), (long long)cpu_of(b, 1));
		eevdf_sim_free(a);
		eevdf_sim_free(b);
	}
	a = run(hogs, NULL, 1, NULL, 0, NULL, 5 * SEC);
	b = run(hogs, NULL, 1, NULL, 0, "PLACE_BONUS", 5 * SEC);
	same_tasks(a, b);
	eevdf_sim_free(a);
	eevdf_sim_free(b);
}
END_TEST

/*
 * The 2025 wakeup knobs on a flat 8-CPU machine, one LLC (schbench, two
 * message threads of eight workers, invariants checked): TTWU_DEQUEUE and
 * DEQUEUE_DELAYED let woken delayed tasks go through CPU selection, so
 * more wakeups migrate; TTWU_QUEUE_DEFAULT and TTWU_QUEUE_DELAYED send
 * wakeups through wake lists inside an LLC too.  Off, none of this.
 */
START_TEST(wakeup_knobs_of_2025_move_delayed_wakees)
{
	static const char *const sch[] = { "m=2", "t=8", "runtime=1s" };
	static const char *const knobs[] = {
		"TTWU_DEQUEUE",
		"DEQUEUE_DELAYED",
		"TTWU_QUEUE_DEFAULT",
		"TTWU_QUEUE_DELAYED",
	};
	struct eevdf_smp_stats base, st;
	eevdf_sim *a, *b;

	a = run(NULL, "workloads/schbench.json", 8, sch, 3, NULL, 2 * SEC);
	eevdf_sim_smp_stats(a, &base);
	/* inside one LLC only wakeups onto an idle CPU take a wake list
	 * (f3dd3f674555): some do, but not all */
	ck_assert_uint_gt(base.wakeups_remote, 0);
	ck_assert_uint_lt(base.wakeups_remote, base.wakeups);
	for (size_t k = 0; k < 4; k++) {
		b = run(NULL, "workloads/schbench.json", 8, sch, 3, knobs[k],
			2 * SEC);
		eevdf_sim_smp_stats(b, &st);
		if (k < 2)
			ck_assert_msg(
				st.migrations_wakeup > base.migrations_wakeup,
				"%s: %llu vs %llu", knobs[k],
				(unsigned long long)st.migrations_wakeup,
				(unsigned long long)base.migrations_wakeup);
		else
			ck_assert_msg(st.wakeups_remote > base.wakeups_remote,
				      "%s: %llu vs %llu", knobs[k],
				      (unsigned long long)st.wakeups_remote,
				      (unsigned long long)base.wakeups_remote);
		eevdf_sim_free(b);
	}
	eevdf_sim_free(a);
}
END_TEST

/*
 * DELAY_DEQUEUE came with 6.12 (152e11f6df29): on 6.8 turning it on or
 * off is refused, as that kernel's debugfs would, naming the profiles
 * that have it; allow_absent_features takes it and leaves it off.
 */
START_TEST(a_feature_the_profile_lacks_is_refused)
{
	struct eevdf_config cfg;
	eevdf_sim *sim = NULL;
	char err[256] = "";
	uint64_t want;

	eevdf_config_init(&cfg);
	cfg.kernel = "6.8";
	ck_assert_int_eq(eevdf_config_set_features(&cfg, "NO_DELAY_DEQUEUE",
						   err, sizeof(err)),
			 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(sim);
	ck_assert_str_eq(err, "DELAY_DEQUEUE is not a feature of kernel "
			      "profile 6.8 (it is in: 6.12, 6.17, 6.18, "
			      "6.19)");
	cfg.allow_absent_features = true;
	ck_assert_int_eq(eevdf_config_check_features(&cfg, err, sizeof(err)),
			 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_profile_features("6.8", &want), 0);
	ck_assert_uint_eq(eevdf_sim_features(sim), want);
	eevdf_sim_free(sim);
	/* an RFC knob is settable everywhere */
	cfg.allow_absent_features = false;
	cfg.feat_off = 0;
	ck_assert_int_eq(eevdf_config_set_features(&cfg, "PLACE_BONUS", err,
						   sizeof(err)),
			 0);
	ck_assert_int_eq(eevdf_config_check_features(&cfg, err, sizeof(err)),
			 0);
}
END_TEST

Suite *knobs_suite(void)
{
	Suite *s = suite_create("knobs");
	TCase *tc = tcase_create("rfc");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rfc_knobs_are_in_no_release_list);
	tcase_add_test(
		tc,
		wakeup_deadline_cuts_preemptions_only_of_an_earlier_deadline);
	tcase_add_test(tc, place_fudge_helps_short_slices_only);
	tcase_add_test(tc, place_bonus_moves_a_sleeper_towards_half);
	tcase_add_test(tc, wakeup_knobs_of_2025_move_delayed_wakees);
	tcase_add_test(tc, a_feature_the_profile_lacks_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
