/* SPDX-License-Identifier: MIT */
/*
 * Group scheduling: task groups, their weights, cpu.max, autogroup,
 * through the public API with the library's zero cost table, so that
 * every expected figure is worked out by hand from the kernel's rules
 * (kernel-model.md section 11): a group entity's weight on a CPU is its
 * share of the group's cpu.weight there (calc_group_shares), and each run
 * queue shares its CPU among its entities by weight, level by level.
 * HZ 1000; every run has the invariant checker on after every event,
 * which checks each cfs_rq, the hierarchical task counts and how the
 * groups' entities hang together.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"
#include "sched/group.h"
#include "sched/weights.h"
#include "engine/sim.h"

#define MS 1000000LL
#define SEC 1000000000LL
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Runs 100 ms bursts for ever. */
static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 100 * MS, 0, 0 },
};

/* Runs 3 ms, sleeps 7 ms, for ever. */
static const struct eevdf_op sleeper[] = {
	{ EEVDF_OP_LOOP, 0, 0, 2 },
	{ EEVDF_OP_RUN, 3 * MS, 0, 0 },
	{ EEVDF_OP_SLEEP, 7 * MS, 0, 0 },
};

static const char *const kernels[] = { "6.18", "6.19", "6.17",
				       "6.12", "6.8",  "cfs-6.1" };

static eevdf_sim *new_sim(const char *kernel, int nr_cpus, int autogroup)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	cfg.nr_cpus = nr_cpus;
	cfg.autogroup = autogroup;
	cfg.check_invariants = true;
	ck_assert_msg(eevdf_sim_new(&cfg, &sim, err, sizeof(err)) == 0, "%s",
		      err);
	return sim;
}

static void group(eevdf_sim *sim, const char *path, unsigned int weight)
{
	struct eevdf_group_spec g;

	eevdf_group_spec_init(&g, path);
	g.weight = weight;
	ck_assert_msg(eevdf_sim_set_group(sim, &g) == 0, "%s: %s", path,
		      eevdf_sim_errmsg(sim));
}

static void tasks(eevdf_sim *sim, const char *cgroup, int n,
		  unsigned int session, const struct eevdf_op *prog,
		  size_t nr_ops)
{
	for (int i = 0; i < n; i++) {
		struct eevdf_task_spec s;

		memset(&s, 0, sizeof(s));
		s.name = cgroup ? cgroup : "t";
		s.program = prog;
		s.nr_ops = nr_ops;
		s.cgroup = cgroup;
		s.session = session;
		ck_assert_msg(eevdf_sim_add_task(sim, &s) > 0, "%s",
			      eevdf_sim_errmsg(sim));
	}
}

static void hogs(eevdf_sim *sim, const char *cgroup, int n)
{
	tasks(sim, cgroup, n, 0, hog, ARRAY_LEN(hog));
}

static void run(eevdf_sim *sim, eevdf_time until)
{
	ck_assert_msg(eevdf_sim_run(sim, until) == 0, "%s",
		      eevdf_sim_errmsg(sim));
}

/* The group called path: its stats. */
static struct eevdf_group_stats stats_of(eevdf_sim *sim, const char *path)
{
	struct eevdf_group_stats g;

	for (size_t i = 0; i < eevdf_sim_nr_groups(sim); i++) {
		ck_assert_int_eq(eevdf_sim_group_stats(sim, i, &g), 0);
		if (strcmp(g.path, path) == 0)
			return g;
	}
	ck_abort_msg("no group %s", path);
	return g;
}

/* The group's share of the machine's CPU time so far. */
static double share(eevdf_sim *sim, const char *path)
{
	struct eevdf_group_stats g = stats_of(sim, path);

	return (double)g.cpu_ns /
	       ((double)eevdf_sim_now(sim) * eevdf_sim_nr_cpus(sim));
}

#define ck_assert_share(sim, path, expect, tol)                                \
	do {                                                                   \
		double s_ = share(sim, path);                                  \
		ck_assert_msg(s_ >= (expect) - (tol) &&                        \
				      s_ <= (expect) + (tol),                  \
			      "%s: share %.5f, expected %.5f +- %.4f", path,   \
			      s_, (double)(expect), (double)(tol));            \
	} while (0)

/*
 * calc_group_shares() on the kernel's own example (kernel-model.md
 * 11.2), tg->shares = NICE_0_LOAD: this CPU's cfs_rq weighs 2048 with a
 * load_avg of 2048, and tg->load_avg is 4096 of which this CPU gave 2048:
 * load = max(2048, 2048), tg_weight = 4096 - 2048 + 2048 = 4096, shares =
 * 1048576 * 2048 / 4096 = 524288 (512 unscaled).  The only CPU with load
 * (tg->load_avg = its own 2048): 1048576 * 2048 / 2048, the whole
 * tg->shares.  An empty cfs_rq while the others carry 4096: 0, clamped to
 * MIN_SHARES, 2 raw units.
 */
START_TEST(calc_group_shares_follows_the_kernels_worked_example)
{
	struct task_group tg;
	struct cfs_rq cfs_rq;

	memset(&tg, 0, sizeof(tg));
	memset(&cfs_rq, 0, sizeof(cfs_rq));
	tg.shares = NICE_0_LOAD;
	cfs_rq.tg = &tg;
	cfs_rq.load.weight = scale_load(2048);
	cfs_rq.avg.load_avg = 2048;
	cfs_rq.tg_load_avg_contrib = 2048;
	tg.load_avg = 4096;
	ck_assert_int_eq(calc_group_shares(&cfs_rq), 524288);
	tg.load_avg = 2048;
	ck_assert_int_eq(calc_group_shares(&cfs_rq), 1048576);
	cfs_rq.load.weight = 0;
	cfs_rq.avg.load_avg = 0;
	cfs_rq.tg_load_avg_contrib = 0;
	tg.load_avg = 4096;
	ck_assert_int_eq(calc_group_shares(&cfs_rq), MIN_SHARES);
}
END_TEST

/*
 * cpu.weight -> shares is DIV_ROUND_CLOSEST(w * 1024, 100) (scaled), and
 * reading cpu.weight back is DIV_ROUND_CLOSEST(shares * 100, 1024)
 * clamped to 1..10000: 100 -> 1024 -> 100; 300 -> 3072 -> 300; 1 -> 10
 * (10.24 rounds down) -> 1 (0.98 rounds up); 150 -> 1536 -> 150;
 * 10000 -> 102400 -> 10000.  cpu.weight.nice 5 is the nice table's 335,
 * which reads back as 32.7 -> 33.  cpu.idle gives WEIGHT_IDLEPRIO (3),
 * which reads back as 0.29 -> 0, clamped to 1; leaving idle restores
 * NICE_0_LOAD, whatever the weight was (sched_group_set_idle()).
 */
START_TEST(cpu_weight_maps_to_shares_as_the_kernel_does)
{
	static const unsigned int w[][2] = {
		{ 100, 100 }, { 300, 300 },	{ 1, 1 },
		{ 150, 150 }, { 10000, 10000 },
	};
	eevdf_sim *sim = new_sim("6.18", 1, -1);
	struct eevdf_group_spec g;

	for (size_t i = 0; i < ARRAY_LEN(w); i++) {
		group(sim, "/g", w[i][0]);
		ck_assert_uint_eq(stats_of(sim, "/g").weight, w[i][1]);
	}
	eevdf_group_spec_init(&g, "/g");
	g.set_weight_nice = true;
	g.weight_nice = 5;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	ck_assert_uint_eq(stats_of(sim, "/g").weight, 33);
	eevdf_group_spec_init(&g, "/g");
	g.idle = 1;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	ck_assert(stats_of(sim, "/g").idle);
	ck_assert_uint_eq(stats_of(sim, "/g").weight, 1);
	/* a weight of an idle group is the kernel's EINVAL */
	eevdf_group_spec_init(&g, "/g");
	g.weight = 200;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	eevdf_group_spec_init(&g, "/g");
	g.idle = 0;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	ck_assert_uint_eq(stats_of(sim, "/g").weight, 100);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Paths and values are checked as the cgroup files check a write, before
 * anything is made; a missing parent is made with the defaults.
 */
START_TEST(bad_paths_and_values_are_refused)
{
	static const char *const bad[] = {
		"a", "/a/", "//a", "/a/./b", "/a/../b", "/a b", "/autogroup-1",
	};
	eevdf_sim *sim = new_sim("6.18", 1, -1);
	struct eevdf_group_spec g;

	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		eevdf_group_spec_init(&g, bad[i]);
		ck_assert_msg(eevdf_sim_set_group(sim, &g) == EEVDF_EINVAL,
			      "%s accepted", bad[i]);
	}
	ck_assert_uint_eq(eevdf_sim_nr_groups(sim), 1);
	eevdf_group_spec_init(&g, "/x/y");
	g.weight = 10001;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	g.weight = 100;
	g.max_quota = MS / 2; /* below 1 ms */
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	g.max_quota = 0;
	g.max_period = 2 * SEC; /* above 1 s */
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	g.max_period = 0;
	g.set_weight_nice = true; /* with cpu.weight */
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	ck_assert_uint_eq(eevdf_sim_nr_groups(sim), 1);
	g.set_weight_nice = false;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	ck_assert_uint_eq(eevdf_sim_nr_groups(sim), 3); /* /, /x, /x/y */
	ck_assert_str_eq(stats_of(sim, "/x/y").parent, "/x");
	/* the root has no files to write */
	eevdf_group_spec_init(&g, "/");
	g.weight = 200;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), EEVDF_EINVAL);
	/* a task in a group that does not exist */
	{
		struct eevdf_task_spec s;

		memset(&s, 0, sizeof(s));
		s.name = "t";
		s.program = hog;
		s.nr_ops = 2;
		s.cgroup = "/nope";
		ck_assert_int_eq(eevdf_sim_add_task(sim, &s), EEVDF_EINVAL);
	}
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Two groups of equal weight on one CPU, one with 1 hog and one with 9:
 * each group's cfs_rq is on this CPU only, so each entity weighs the
 * whole tg->shares, 1024, and the root splits the CPU 1024:1024.  The
 * lone hog gets 50 %, the nine share the other 50 % (5.56 % each).  Over
 * 10 s the error of EEVDF's service is bounded by a slice and a tick.
 */
START_TEST(equal_groups_of_1_and_9_hogs_split_a_cpu_50_50)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);

	group(sim, "/a", 100);
	group(sim, "/b", 100);
	hogs(sim, "/a", 1);
	hogs(sim, "/b", 9);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/a", 0.5, 0.005);
	ck_assert_share(sim, "/b", 0.5, 0.005);
	eevdf_sim_free(sim);
}
END_TEST

/* Weights 100 and 300: shares 1024 and 3072, a 1:3 split: 25 / 75 %. */
START_TEST(weights_100_and_300_split_25_75)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);

	group(sim, "/a", 100);
	group(sim, "/b", 300);
	hogs(sim, "/a", 2);
	hogs(sim, "/b", 3);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/a", 0.25, 0.005);
	ck_assert_share(sim, "/b", 0.75, 0.005);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Nested groups multiply: /p and /q share the CPU 1:1, and inside /p,
 * /p/x and /p/y share /p's half 100:300, so /p/x gets 1/2 * 1/4 = 12.5 %
 * and /p/y 1/2 * 3/4 = 37.5 %, whatever the number of hogs in each.
 */
START_TEST(nested_groups_multiply)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);

	group(sim, "/p/x", 100);
	group(sim, "/p/y", 300);
	group(sim, "/q", 100);
	hogs(sim, "/p/x", 1);
	hogs(sim, "/p/y", 2);
	hogs(sim, "/q", 3);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/p", 0.5, 0.005);
	ck_assert_share(sim, "/p/x", 0.125, 0.005);
	ck_assert_share(sim, "/p/y", 0.375, 0.005);
	ck_assert_share(sim, "/q", 0.5, 0.005);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Four CPUs, /a with 2 hogs and /b with 6, equal weights.  Without groups
 * the balancer would even out the runnable counts, 2 hogs per CPU, and
 * /a's two would get a quarter of the machine.  With groups it balances
 * hierarchical load (task_h_load()): a CPU's load is its group entities'
 * load_avg, each the group's shares split by where its load is.  With
 * /a's hogs alone on CPUs 0 and 1 and /b's 3 + 3 on CPUs 2 and 3, each
 * group's entity weighs 512 on its two CPUs and every CPU carries 512:
 * balanced, and each group gets half the machine.  The balancer gets
 * there from the fork spread within the first second; over 10 s the
 * shares are within half a percent of 50 / 50.
 */
START_TEST(four_cpus_balance_by_h_load_to_a_50_50_split)
{
	eevdf_sim *sim = new_sim(kernels[_i], 4, -1);

	group(sim, "/a", 100);
	group(sim, "/b", 100);
	hogs(sim, "/a", 2);
	hogs(sim, "/b", 6);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/a", 0.5, 0.005);
	ck_assert_share(sim, "/b", 0.5, 0.005);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * cpu.max 20000 100000 (20 ms of every 100 ms) on a group with a hog,
 * next to a hog in the root.  Until it has used its 20 ms the group's
 * entity shares the CPU 1:1 with the root's hog, so it runs out 40 ms
 * into each period and is throttled for the 60 ms left: every one of the
 * 100 periods of 10 s throttles (the period timer first fires at 100 ms,
 * last at 10 s), 100 x 60 ms = 6 s throttled, give or take the tick by
 * which the last slice of a period overruns (it is paid back from the
 * next).  CFS (6.1) lets the unthrottled entity in with up to half a
 * latency period of sleeper credit (3 ms on one CPU), which it runs
 * alone before the 1:1 sharing, so it runs out up to 3 ms sooner: up to
 * 6.3 s throttled.  The group gets 20 % of the CPU, the other hog the
 * rest.
 */
START_TEST(cpu_max_20_of_100_ms_gets_20_percent_throttled_every_period)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);
	struct eevdf_group_spec g;
	struct eevdf_group_stats st;

	eevdf_group_spec_init(&g, "/lim");
	g.max_quota = 20 * MS;
	g.max_period = 100 * MS;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	hogs(sim, "/lim", 1);
	hogs(sim, NULL, 1);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/lim", 0.20, 0.001);
	st = stats_of(sim, "/lim");
	ck_assert_uint_eq(st.nr_periods, 100);
	ck_assert_uint_eq(st.nr_throttled, 100);
	ck_assert_msg(st.throttled_ns >= 6 * SEC - 100 * MS &&
			      st.throttled_ns <= 6 * SEC + (strcmp(kernels[_i],
								   "cfs-6.1") ?
								    100 * MS :
								    300 * MS),
		      "throttled %lld ns", (long long)st.throttled_ns);
	ck_assert_int_eq(st.max_quota, 20 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Autogroup: a session of 8 hogs (a make -j8) and a session of 1 hog get
 * a group each below the root, of nice 0: 1024 against 1024 on the one
 * CPU, 50 / 50.  Without autogroup the 9 hogs share the root queue by
 * their own weights: 8/9 and 1/9.
 */
START_TEST(autogroup_splits_two_sessions_50_50_and_off_8_to_1)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, 1);
	struct eevdf_task_stats t;
	eevdf_time make = 0, other = 0;

	tasks(sim, NULL, 8, 0, hog, ARRAY_LEN(hog));
	tasks(sim, NULL, 1, 1, hog, ARRAY_LEN(hog));
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/autogroup-1", 0.5, 0.005);
	ck_assert_share(sim, "/autogroup-2", 0.5, 0.005);
	eevdf_sim_free(sim);

	sim = new_sim(kernels[_i], 1, -1);
	tasks(sim, NULL, 8, 0, hog, ARRAY_LEN(hog));
	tasks(sim, NULL, 1, 1, hog, ARRAY_LEN(hog));
	run(sim, 10 * SEC);
	ck_assert_uint_eq(eevdf_sim_nr_groups(sim), 1);
	for (size_t i = 0; i < 9; i++) {
		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &t), 0);
		if (i < 8)
			make += t.cpu_ns;
		else
			other = t.cpu_ns;
	}
	ck_assert_msg(make >= 10 * SEC * 8 / 9 - 50 * MS &&
			      make <= 10 * SEC * 8 / 9 + 50 * MS,
		      "the 8 hogs ran %lld ns", (long long)make);
	ck_assert_msg(other >= 10 * SEC / 9 - 50 * MS &&
			      other <= 10 * SEC / 9 + 50 * MS,
		      "the lone hog ran %lld ns", (long long)other);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * An autogroup's nice is its weight: nice 5 is 335 against 1024, so the
 * sessions split 335 / 1359 = 24.65 % and 75.35 %.
 */
START_TEST(autogroup_nice_weighs_the_session)
{
	eevdf_sim *sim = new_sim("6.18", 1, 1);

	tasks(sim, NULL, 2, 0, hog, ARRAY_LEN(hog));
	tasks(sim, NULL, 2, 1, hog, ARRAY_LEN(hog));
	ck_assert_int_eq(eevdf_sim_set_autogroup_nice(sim, 0, 5), 0);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/autogroup-1", 335.0 / 1359, 0.005);
	ck_assert_share(sim, "/autogroup-2", 1024.0 / 1359, 0.005);
	ck_assert_int_eq(stats_of(sim, "/autogroup-1").nice, 5);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * An idle group (cpu.idle 1) weighs WEIGHT_IDLEPRIO, 3 against a root
 * hog's 1024: 3 / 1027 = 0.29 % of the CPU, its hog preempted by the
 * other at once (an idle entity gives way to a non-idle one).
 */
START_TEST(idle_group_gets_the_idle_weight)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);
	struct eevdf_group_spec g;

	eevdf_group_spec_init(&g, "/batch");
	g.idle = 1;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	hogs(sim, "/batch", 2);
	hogs(sim, NULL, 1);
	run(sim, 10 * SEC);
	ck_assert_share(sim, "/batch", 3.0 / 1027, 0.002);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * From 6.12 a group entity's request is the shortest slice queued below
 * it (aef6987d8954): a 0.5 ms task in the group makes the group entity's
 * slice 0.5 ms; 6.8 has no custom slices and the entity keeps the base
 * slice, 0.75 ms (one CPU: factor 1).
 */
START_TEST(group_entity_slice_is_the_min_slice_below)
{
	static const struct {
		const char *kernel;
		u64 slice;
	} c[] = { { "6.18", 500000 }, { "6.12", 500000 }, { "6.8", 750000 } };

	for (size_t i = 0; i < ARRAY_LEN(c); i++) {
		eevdf_sim *sim = new_sim(c[i].kernel, 1, -1);
		struct eevdf_task_spec s;
		struct task_group *tg;

		group(sim, "/g", 100);
		memset(&s, 0, sizeof(s));
		s.name = "short";
		s.program = hog;
		s.nr_ops = 2;
		s.cgroup = "/g";
		s.slice = 500000;
		ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
		hogs(sim, "/g", 1);
		run(sim, 10 * MS);
		tg = eevdf__tg_find(&sim->sched, "/g");
		ck_assert_ptr_nonnull(tg);
		ck_assert_uint_eq(tg_se(tg, 0)->slice, c[i].slice);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * A task moved between groups while it runs, sleeps or waits: the
 * invariants hold after every event, the tasks are counted in the groups
 * they were in, and the groups' CPU time adds up to the CPU's (the run
 * never idles: two hogs stay on the one CPU).
 */
START_TEST(tasks_move_between_groups_while_running_sleeping_and_queued)
{
	eevdf_sim *sim = new_sim(kernels[_i], 1, -1);
	eevdf_time t = 0;

	group(sim, "/a", 100);
	group(sim, "/b/c", 300);
	hogs(sim, "/a", 2);
	tasks(sim, "/b/c", 2, 0, sleeper, ARRAY_LEN(sleeper));
	for (int i = 0; i < 40; i++) {
		static const char *const dst[] = { "/", "/a", "/b", "/b/c" };

		t += 25 * MS + i * MS;
		run(sim, t);
		ck_assert_int_eq(
			eevdf_sim_set_cgroup(sim, 1 + i % 4, dst[i % 4]), 0);
		ck_assert_int_eq(eevdf_sim_set_cgroup(sim, 1 + (i + 1) % 4,
						      dst[(i + 2) % 4]),
				 0);
	}
	run(sim, t + SEC);
	ck_assert_int_eq(stats_of(sim, "/").cpu_ns, eevdf_sim_now(sim));
	ck_assert_int_eq(eevdf_sim_set_cgroup(sim, 99, "/a"), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_set_cgroup(sim, 1, "/nope"), EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Groups under load on four CPUs with wakeups, forks, balancing, a quota
 * and an idle group, every profile: the invariant checker's run.
 */
START_TEST(groups_hold_their_invariants_under_load)
{
	static const struct eevdf_op spawner[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 2 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 1 * MS, 0, 0 },
	};
	eevdf_sim *sim = new_sim(kernels[_i], 4, 1);
	struct eevdf_group_spec g;

	group(sim, "/srv/web", 200);
	group(sim, "/srv/db", 100);
	eevdf_group_spec_init(&g, "/srv/db");
	g.max_quota = 30 * MS;
	g.max_period = 50 * MS;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	eevdf_group_spec_init(&g, "/idle");
	g.idle = 1;
	ck_assert_int_eq(eevdf_sim_set_group(sim, &g), 0);
	tasks(sim, "/srv/web", 6, 0, sleeper, ARRAY_LEN(sleeper));
	tasks(sim, "/srv/db", 3, 0, spawner, ARRAY_LEN(spawner));
	hogs(sim, "/idle", 2);
	tasks(sim, NULL, 3, 0, sleeper, ARRAY_LEN(sleeper));
	tasks(sim, NULL, 2, 7, hog, ARRAY_LEN(hog));
	run(sim, 2 * SEC);
	ck_assert_uint_gt(stats_of(sim, "/srv/db").nr_throttled, 0);
	eevdf_sim_free(sim);
}
END_TEST

Suite *groups_suite(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = tcase_create("groups");
	int nk = (int)ARRAY_LEN(kernels);

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc,
		       calc_group_shares_follows_the_kernels_worked_example);
	tcase_add_test(tc, cpu_weight_maps_to_shares_as_the_kernel_does);
	tcase_add_test(tc, bad_paths_and_values_are_refused);
	tcase_add_loop_test(tc, equal_groups_of_1_and_9_hogs_split_a_cpu_50_50,
			    0, nk);
	tcase_add_loop_test(tc, weights_100_and_300_split_25_75, 0, nk);
	tcase_add_loop_test(tc, nested_groups_multiply, 0, nk);
	tcase_add_loop_test(tc, four_cpus_balance_by_h_load_to_a_50_50_split, 0,
			    nk);
	tcase_add_loop_test(
		tc, cpu_max_20_of_100_ms_gets_20_percent_throttled_every_period,
		0, nk);
	tcase_add_loop_test(
		tc, autogroup_splits_two_sessions_50_50_and_off_8_to_1, 0, nk);
	tcase_add_test(tc, autogroup_nice_weighs_the_session);
	tcase_add_loop_test(tc, idle_group_gets_the_idle_weight, 0, nk);
	tcase_add_test(tc, group_entity_slice_is_the_min_slice_below);
	tcase_add_loop_test(
		tc, tasks_move_between_groups_while_running_sleeping_and_queued,
		0, nk);
	tcase_add_loop_test(tc, groups_hold_their_invariants_under_load, 0, nk);
	suite_add_tcase(s, tc);
	return s;
}
