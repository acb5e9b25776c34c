/* SPDX-License-Identifier: MIT */
/*
 * Whole-workload scenarios on one CPU: long-run shares against the weight
 * ratios, the lag bound at every event, a massive_intr-style sleeper
 * against a hog, yield under 6.17 and 6.18, HRTICK, SCHED_IDLE, nice
 * changes, and independent CPUs.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "sched/fair.h"
#include "engine/sim.h"

#define MS 1000000LL
#define SEC 1000000000LL

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
};

/* massive_intr: work 8 ms, sleep 1 ms, for ever */
static const struct eevdf_op sleeper[] = {
	{ EEVDF_OP_LOOP, 0, 0, 2 },
	{ EEVDF_OP_RUN, 8 * MS, 0, 0 },
	{ EEVDF_OP_SLEEP, 1 * MS, 0, 0 },
};

static eevdf_sim *make_sim(const char *kernel, int nr_cpus, int hz,
			   const char *features)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[512];

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	cfg.nr_cpus = nr_cpus;
	cfg.hz = hz;
	if (features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, features, err,
							   sizeof(err)),
				 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	return sim;
}

static int add_on(eevdf_sim *sim, const char *name, int nice,
		  enum eevdf_policy policy, const struct eevdf_op *prog,
		  size_t n, int cpu)
{
	struct eevdf_task_spec s = {
		.name = name,
		.nice = nice,
		.policy = policy,
		.program = prog,
		.nr_ops = n,
		.cpus = &cpu,
		.nr_cpus = 1,
	};
	int pid = eevdf_sim_add_task(sim, &s);

	ck_assert_msg(pid > 0, "%s", eevdf_sim_errmsg(sim));
	return pid;
}

static eevdf_time cpu_of(eevdf_sim *sim, size_t i)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
	return st.cpu_ns;
}

static u64 weight_of(int nice)
{
	return eevdf__prio_to_weight[nice + 20];
}

/* Two or three always-running tasks share the CPU as their weights. */
static const int share_cases[][3] = {
	{ 0, 0, 99 }, { 0, 5, 99 }, { -5, 0, 99 }, { 0, 10, 99 }, { -3, 3, 99 },
	{ 0, 0, 0 },  { 0, 5, 10 }, { -3, 0, 3 },  { 2, -2, 7 },
};

START_TEST(long_run_shares_follow_the_weights)
{
	static const char *const kernels[] = { "6.18", "6.17", "6.12", "6.8" };
	const int *nices = share_cases[_i / 4];
	const char *kernel = kernels[_i % 4];
	int n = nices[2] == 99 ? 2 : 3;
	eevdf_sim *sim = make_sim(kernel, 1, 1000, NULL);
	static const char *const names[] = { "t0", "t1", "t2" };
	eevdf_time total = 0;

	for (int i = 0; i < n; i++)
		add_on(sim, names[i], nices[i], EEVDF_POLICY_NORMAL, hog, 2, 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * SEC), 0);
	for (int i = 0; i < n; i++)
		total += cpu_of(sim, (size_t)i);
	ck_assert_int_eq(total, 100 * SEC);
	/* each pair's runtime ratio is its weight ratio within 0.1 % */
	for (int i = 1; i < n; i++) {
		double got = (double)cpu_of(sim, 0) /
			     (double)cpu_of(sim, (size_t)i);
		double want = (double)weight_of(nices[0]) /
			      (double)weight_of(nices[i]);

		ck_assert_msg(got / want > 0.999 && got / want < 1.001,
			      "nice %d vs %d: ratio %.6f, weights %.6f",
			      nices[0], nices[i], got, want);
	}
	eevdf_sim_free(sim);
}
END_TEST

/*
 * The EEVDF lag bound: in a steady system -r_max < lag < max(r_max, q),
 * lag in units of service.  Ticks quantise service, so a task can overrun
 * its request by up to one tick: we allow r_max + q on both sides, and
 * check every queued entity after every event of a mixed workload.
 */
START_TEST(lag_stays_within_the_eevdf_bound)
{
	static const struct eevdf_op short_sleeper[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 3 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 2 * MS, 0, 0 },
	};
	static const struct eevdf_op blip[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, MS / 2, 0, 0 },
		{ EEVDF_OP_SLEEP, 5 * MS, 0, 0 },
	};
	static const char *const kernels[] = { "6.18", "6.17", "6.12", "6.8" };
	const char *kernel = kernels[_i];
	eevdf_sim *sim = make_sim(kernel, 1, 1000, NULL);
	s64 bound, worst = 0;
	int ret;

	add_on(sim, "h0", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
	add_on(sim, "h5", 5, EEVDF_POLICY_NORMAL, hog, 2, 0);
	add_on(sim, "hm3", -3, EEVDF_POLICY_NORMAL, hog, 2, 0);
	add_on(sim, "s", 0, EEVDF_POLICY_NORMAL, short_sleeper, 3, 0);
	add_on(sim, "b", 2, EEVDF_POLICY_NORMAL, blip, 3, 0);
	bound = (s64)(sim->sched.sp.sysctl_sched_base_slice +
		      sim->sched.sp.tick_nsec);
	while ((ret = eevdf_sim_step(sim)) == 1 &&
	       eevdf_sim_now(sim) < 5 * SEC) {
		for (size_t i = 0; i < sim->sched.nr_tasks; i++) {
			struct sched_entity *se = &sim->sched.tasks[i]->se;
			u64 v;
			s64 lag;

			if (!se->on_rq)
				continue;
			/* against its own queue (the session's autogroup) */
			v = avg_vruntime_peek(se->cfs_rq);
			/* service lag: w_i / w_0 * (V - v_i) */
			lag = (s64)(v - se->vruntime) *
			      (s64)scale_load_down(se->load.weight) / 1024;
			if (llabs(lag) > worst)
				worst = llabs(lag);
			ck_assert_msg(llabs(lag) <= bound,
				      "%s: lag %lld ns beyond %lld at %lld ns",
				      sim->sched.tasks[i]->name, (long long)lag,
				      (long long)bound,
				      (long long)eevdf_sim_now(sim));
		}
	}
	ck_assert_int_eq(ret, 1);
	ck_assert_int_gt(worst, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * massive_intr against a hog: EEVDF gives no sleeper bonus.  The sleeper
 * gets at most the hog's share and, its sleeps being short, close to half.
 */
START_TEST(sleeper_gets_close_to_its_fair_share_and_no_bonus)
{
	static const char *const variants[] = { NULL, "NO_DELAY_DEQUEUE" };

	for (int v = 0; v < 2; v++) {
		eevdf_sim *sim = make_sim(_i ? "6.17" : "6.18", 1, 1000,
					  variants[v]);
		eevdf_time s, h;

		add_on(sim, "sleeper", 0, EEVDF_POLICY_NORMAL, sleeper, 3, 0);
		add_on(sim, "hog", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
		ck_assert_int_eq(eevdf_sim_run(sim, 20 * SEC), 0);
		s = cpu_of(sim, 0);
		h = cpu_of(sim, 1);
		ck_assert_int_eq(s + h, 20 * SEC);
		ck_assert_int_le(s, h);
		ck_assert_msg(s >= 9 * SEC, "sleeper got only %lld ns",
			      (long long)s);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * kernel-6.18y.md / issue "6.18.y": yield against a hog on a 2-CPU machine
 * at HZ 250.  From 6.18.2 each yield forfeits a 1.4 ms request, so the
 * yielder yields about once per 1.4 ms of the hog's service (714/s) and
 * gets almost no CPU.  Under 6.17 a yield only pushes the deadline: the
 * yielder stays the only eligible task and keeps running, half the CPU.
 */
START_TEST(yield_forfeits_a_request_per_yield_under_6_18)
{
	static const struct eevdf_op yielder[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
		{ EEVDF_OP_RUN, 1000, 0, 0 },
	};

	for (int k = 0; k < 2; k++) {
		eevdf_sim *sim = make_sim(k ? "6.17" : "6.18", 2, 250, NULL);
		struct eevdf_task_stats y;

		add_on(sim, "hog", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
		add_on(sim, "yielder", 0, EEVDF_POLICY_NORMAL, yielder, 3, 0);
		ck_assert_int_eq(eevdf_sim_run(sim, 20 * SEC), 0);
		ck_assert_int_eq(eevdf_sim_task_stats(sim, 1, &y), 0);
		if (k == 0) {
			/* 20 s / 1.4 ms = 14286 yields, within 2 % */
			ck_assert_msg(y.yields > 14000 && y.yields < 14572,
				      "%llu yields",
				      (unsigned long long)y.yields);
			ck_assert_int_lt(y.cpu_ns, 20 * SEC / 100);
		} else {
			ck_assert_int_gt(y.cpu_ns, 20 * SEC * 45 / 100);
		}
		eevdf_sim_free(sim);
	}
}
END_TEST

struct switch_log {
	int n;
	int off_tick; /* switches not on a 1 ms tick */
};

static void log_switch(void *ud, const struct eevdf_trace_event *ev)
{
	struct switch_log *l = ud;

	if (ev->kind != EEVDF_TRACE_SWITCH || ev->time == 0)
		return;
	l->n++;
	l->off_tick += ev->time % MS != 0;
}

/*
 * HRTICK ends a 2.8 ms request exactly instead of at the third tick: two
 * hogs switch every 2.8 ms (3571 times in 10 s) instead of every 3 ms
 * (3333 times), mostly between ticks.
 */
START_TEST(hrtick_ends_slices_between_ticks)
{
	for (int k = 0; k < 2; k++) {
		struct eevdf_config cfg;
		struct switch_log l = { 0, 0 };
		eevdf_sim *sim;

		eevdf_config_init(&cfg);
		cfg.nr_cpus = 8;
		cfg.trace = log_switch;
		cfg.trace_ud = &l;
		cfg.check_invariants = true;
		if (k)
			eevdf_config_set_features(&cfg, "HRTICK", NULL, 0);
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
		add_on(sim, "a", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
		add_on(sim, "b", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
		ck_assert_int_eq(eevdf_sim_run(sim, 10 * SEC), 0);
		if (k) {
			ck_assert_msg(l.n >= 3560 && l.n <= 3572, "%d", l.n);
			ck_assert_int_gt(l.off_tick, l.n / 2);
		} else {
			ck_assert_msg(l.n >= 3332 && l.n <= 3334, "%d", l.n);
			ck_assert_int_eq(l.off_tick, 0);
		}
		eevdf_sim_free(sim);
	}
}
END_TEST

struct first_run {
	int pid;
	eevdf_time at;
};

static void note_first_run(void *ud, const struct eevdf_trace_event *ev)
{
	struct first_run *f = ud;

	if (ev->kind == EEVDF_TRACE_SWITCH && ev->pid == f->pid && f->at < 0)
		f->at = ev->time;
}

/*
 * A fork in the middle of a tick (2.8 ms slice): the parent hog P, alone
 * since 0, renewed its deadline to 10.8 ms at t = 8; its child C arrives
 * at 8.5 ms with d = 8.5 + 1.4 ms.  Up to 6.18.31 the child preempts at
 * once (its deadline is earlier and P is past its stale protection);
 * 6.18.32+ and 6.19 never preempt on fork, so C waits for the 9 ms tick.
 */
START_TEST(fork_preempts_at_once_only_before_6_18_32)
{
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };
	static const eevdf_time first[] = { 8500000, 9 * MS, 9 * MS };

	for (int k = 0; k < 3; k++) {
		struct eevdf_config cfg;
		struct first_run f = { 2, -1 };
		eevdf_sim *sim;
		static const int cpu0 = 0;
		struct eevdf_task_spec s = {
			.name = "P",
			.program = hog,
			.nr_ops = 2,
			.cpus = &cpu0,
			.nr_cpus = 1,
		};

		eevdf_config_init(&cfg);
		cfg.nr_cpus = 8;
		cfg.kernel = kernels[k];
		cfg.trace = note_first_run;
		cfg.trace_ud = &f;
		cfg.check_invariants = true;
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
		s.name = "C";
		s.start = 8500000;
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 2);
		ck_assert_int_eq(eevdf_sim_run(sim, 20 * MS), 0);
		ck_assert_msg(f.at == first[k], "%s: child first ran at %lld",
			      kernels[k], (long long)f.at);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* SCHED_IDLE weighs 3: it gets 3/1027 of the CPU against a nice-0 hog. */
START_TEST(sched_idle_task_gets_its_tiny_weight)
{
	eevdf_sim *sim = make_sim("6.18", 1, 1000, NULL);
	double share;

	add_on(sim, "normal", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
	add_on(sim, "idle", 0, EEVDF_POLICY_IDLE, hog, 2, 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * SEC), 0);
	share = (double)cpu_of(sim, 1) / (double)(100 * SEC);
	ck_assert_msg(share > 0.9 * 3 / 1027 && share < 1.1 * 3 / 1027,
		      "idle share %.6f", share);
	eevdf_sim_free(sim);
}
END_TEST

/* A nice change mid-run re-weights: the next 20 s split 1024 : 335. */
START_TEST(nice_change_reweights_a_running_pair)
{
	eevdf_sim *sim = make_sim(_i ? "6.17" : "6.18", 1, 1000, NULL);
	eevdf_time a0, b0, a, b;
	double ratio;

	add_on(sim, "a", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
	add_on(sim, "b", 0, EEVDF_POLICY_NORMAL, hog, 2, 0);
	sim->check_invariants = true;
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * SEC + 300000), 0);
	a0 = cpu_of(sim, 0);
	b0 = cpu_of(sim, 1);
	ck_assert_int_eq(eevdf_sim_set_nice(sim, 2, 5), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 30 * SEC + 300000), 0);
	a = cpu_of(sim, 0) - a0;
	b = cpu_of(sim, 1) - b0;
	ratio = (double)a / (double)b;
	ck_assert_msg(ratio > 1024.0 / 335 * 0.995 &&
			      ratio < 1024.0 / 335 * 1.005,
		      "ratio %.5f", ratio);
	ck_assert_int_eq(eevdf_sim_set_nice(sim, 99, 0), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_set_nice(sim, 1, 20), EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Five hogs on two CPUs: 3 + 2 is as even as a layout gets, but once a
 * balance attempt has failed, a whole task (load 1024) passes the halved
 * bound (1024 >> 1 <= the imbalance of 512) and moves, so tasks rotate
 * between the CPUs and each ends near 2/5 of the machine, 4.8 s of 12 s,
 * as on a real kernel.  No CPU is ever idle.
 */
START_TEST(balancing_rotates_five_hogs_over_two_cpus)
{
	eevdf_sim *sim = make_sim("6.18", 2, 1000, NULL);
	struct eevdf_task_spec s = { .program = hog, .nr_ops = 2 };
	static const char *const names[] = { "w0", "w1", "w2", "w3", "w4" };
	u64 migrations = 0;

	for (int i = 0; i < 5; i++) {
		s.name = names[i];
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), i + 1);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 12 * SEC), 0);
	for (int i = 0; i < 5; i++) {
		struct eevdf_task_stats st;

		eevdf_sim_task_stats(sim, (size_t)i, &st);
		ck_assert_msg(llabs(st.cpu_ns - 4800 * MS) < 480 * MS,
			      "%s: %lld", st.name, (long long)st.cpu_ns);
		migrations += st.migrations;
	}
	ck_assert_uint_gt(migrations, 10);
	for (int c = 0; c < 2; c++) {
		struct eevdf_cpu_stats cs;

		ck_assert_int_eq(eevdf_sim_cpu_stats(sim, c, &cs), 0);
		ck_assert_int_eq(cs.busy_ns, 12 * SEC);
		ck_assert_int_eq(cs.idle_ns, 0);
		ck_assert_int_eq(cs.ticks, 12000);
	}
	eevdf_sim_free(sim);
}
END_TEST

Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("workloads");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(
		tc, long_run_shares_follow_the_weights, 0,
		4 * (int)(sizeof(share_cases) / sizeof(share_cases[0])));
	tcase_add_loop_test(tc, lag_stays_within_the_eevdf_bound, 0, 4);
	tcase_add_loop_test(
		tc, sleeper_gets_close_to_its_fair_share_and_no_bonus, 0, 2);
	tcase_add_test(tc, yield_forfeits_a_request_per_yield_under_6_18);
	tcase_add_test(tc, hrtick_ends_slices_between_ticks);
	tcase_add_test(tc, fork_preempts_at_once_only_before_6_18_32);
	tcase_add_test(tc, sched_idle_task_gets_its_tiny_weight);
	tcase_add_loop_test(tc, nice_change_reweights_a_running_pair, 0, 2);
	tcase_add_test(tc, balancing_rotates_five_hogs_over_two_cpus);
	suite_add_tcase(s, tc);
	return s;
}
