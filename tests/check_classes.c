/* SPDX-License-Identifier: MIT */
/*
 * The RT and deadline classes and the fair server, through the public
 * API with the library's zero cost table (no switch or syscall time), so
 * that every figure below is worked out by hand from the kernel's rules:
 * HZ 1000, ticks at every whole millisecond, the run's tasks started at
 * time 0 in the order they are added.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"

#define US 1000LL
#define MS 1000000LL
#define SEC 1000000000LL
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Runs 100 ms bursts for ever. */
static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 100 * MS, 0, 0 },
};

struct knobs {
	const char *kernel;
	int nr_cpus;
	const char *features;
	const char *sysctl[2][2]; /* NAME, VALUE */
};

static eevdf_sim *new_sim(const struct knobs *k)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];

	eevdf_config_init(&cfg);
	cfg.kernel = k->kernel;
	cfg.nr_cpus = k->nr_cpus ? k->nr_cpus : 1;
	cfg.check_invariants = true;
	if (k->features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, k->features,
							   err, sizeof(err)),
				 0);
	for (int i = 0; i < 2 && k->sysctl[i][0]; i++)
		ck_assert_msg(eevdf_config_set_sysctl(&cfg, k->sysctl[i][0],
						      k->sysctl[i][1], err,
						      sizeof(err)) == 0,
			      "%s", err);
	ck_assert_msg(eevdf_sim_new(&cfg, &sim, err, sizeof(err)) == 0, "%s",
		      err);
	return sim;
}

struct task {
	const char *name;
	enum eevdf_policy policy;
	unsigned int prio;
	eevdf_time runtime, deadline, period;
	const int *cpus;
	size_t nr_cpus;
	eevdf_time start;
	const struct eevdf_op *prog;
	size_t nr_ops;
};

static int add(eevdf_sim *sim, const struct task *t)
{
	struct eevdf_task_spec s;

	memset(&s, 0, sizeof(s));
	s.name = t->name;
	s.policy = t->policy;
	s.rt_priority = t->prio;
	s.dl_runtime = t->runtime;
	s.dl_deadline = t->deadline;
	s.dl_period = t->period;
	s.cpus = t->cpus;
	s.nr_cpus = t->nr_cpus;
	s.start = t->start;
	s.program = t->prog ? t->prog : hog;
	s.nr_ops = t->prog ? t->nr_ops : 2;
	return eevdf_sim_add_task(sim, &s);
}

static struct eevdf_task_stats stats(const eevdf_sim *sim, int pid)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, (size_t)pid - 1, &st), 0);
	return st;
}

static struct eevdf_class_stats classes(const eevdf_sim *sim)
{
	struct eevdf_class_stats cs;

	ck_assert_int_eq(eevdf_sim_class_stats(sim, &cs), 0);
	return cs;
}

static void run(eevdf_sim *sim, eevdf_time until)
{
	int r = eevdf_sim_run(sim, until);

	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
}

/* cpupri levels --------------------------------------------------------- */

START_TEST(cpupri_levels_are_the_kernels)
{
	struct eevdf_task_stats st;
	eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	int pid = add(sim, &(struct task){ .name = "rt",
					   .policy = EEVDF_POLICY_FIFO,
					   .prio = 99 });

	/* rt_priority 99 is kernel prio 0, the most important */
	run(sim, 10 * MS);
	st = stats(sim, pid);
	ck_assert_uint_eq(st.rt_priority, 99);
	ck_assert_str_eq(eevdf_policy_name(st.policy), "fifo");
	ck_assert_str_eq(eevdf_policy_class(st.policy), "rt");
	ck_assert_str_eq(eevdf_policy_class(EEVDF_POLICY_DEADLINE), "dl");
	ck_assert_str_eq(eevdf_policy_class(EEVDF_POLICY_IDLE), "fair");
	eevdf_sim_free(sim);
}
END_TEST

/* A FIFO hog against a fair hog on one CPU --------------------------------- */

/*
 * 6.12+: the fair server (50 ms of every 1 s, deferred) starts at time 0
 * (6.12: at the fair task's enqueue, 6.17+: from boot) with deadline 1 s
 * and its zero-laxity timer at deadline - runtime = 950 ms.  The FIFO hog
 * runs until then; the timer queues the server, which preempts it, and
 * runs the fair task 950..1000 ms, its 50 ms charged tick by tick until
 * the tick at 1000 ms throttles it.  It replenished a new period at 950
 * (50 ms / 50 ms left overflows 50 ms / 1 s), so its deadline is 1950 ms
 * and its next period begins there: 1950..2000 ms, and so on.  In 10 s
 * the fair task gets ten windows of 50 ms: 500 ms exactly, the RT hog
 * the other 9500 ms.
 */
START_TEST(fifo_hog_leaves_fair_the_fair_servers_50_ms_per_second)
{
	static const char *const kernels[] = { "6.12", "6.17", "6.18", "6.19" };

	for (size_t i = 0; i < ARRAY_LEN(kernels); i++) {
		eevdf_sim *sim = new_sim(
			&(struct knobs){ .kernel = kernels[i] });
		int rt = add(sim, &(struct task){ .name = "rt",
						  .policy = EEVDF_POLICY_FIFO,
						  .prio = 50 });
		int fair = add(sim, &(struct task){ .name = "fair" });
		struct eevdf_class_stats cs;

		run(sim, 10 * SEC);
		ck_assert_int_eq(stats(sim, fair).cpu_ns, 500 * MS);
		ck_assert_int_eq(stats(sim, rt).cpu_ns, 9500 * MS);
		cs = classes(sim);
		ck_assert(cs.fair_server);
		ck_assert(!cs.rt_throttling);
		ck_assert_int_eq(cs.fair_server_ns, 500 * MS);
		ck_assert_uint_eq(cs.rt_throttled, 0);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * Up to 6.11: RT throttling.  The hog's first enqueue starts the period
 * timer one hrtimer step (1 ns) ahead, which anchors the 1 s grid at
 * 1 ns, 1 s + 1 ns, ...  RT time is charged at each tick; at the 951 ms
 * tick rt_time = 951 ms > 950 ms: throttled, and the fair task runs until
 * the timer at 1 s + 1 ns takes a period's 950 ms off (rt_time 1 ms < 950
 * ms: unthrottled).  From then on the hog is throttled at the tick where
 * rt_time first exceeds 950 ms, 1950 ms (1 ms + 950 ms - 1 ns > 950 ms),
 * and unthrottled at 2 s + 1 ns: the fair task gets 49 ms + 1 ns first,
 * then 50 ms + 1 ns a second, and the last window, 9950..10000 ms, is cut
 * by the end of the run: 49 ms + 1 ns + 8 (50 ms + 1 ns) + 50 ms = 499 ms
 * + 9 ns.
 */
START_TEST(fifo_hog_is_throttled_to_950_ms_per_second_up_to_6_11)
{
	static const char *const kernels[] = { "cfs-6.1", "6.6", "6.8" };

	for (size_t i = 0; i < ARRAY_LEN(kernels); i++) {
		eevdf_sim *sim = new_sim(
			&(struct knobs){ .kernel = kernels[i] });
		int rt = add(sim, &(struct task){ .name = "rt",
						  .policy = EEVDF_POLICY_FIFO,
						  .prio = 50 });
		int fair = add(sim, &(struct task){ .name = "fair" });
		struct eevdf_class_stats cs;

		run(sim, 10 * SEC);
		ck_assert_int_eq(stats(sim, fair).cpu_ns, 499 * MS + 9);
		ck_assert_int_eq(stats(sim, rt).cpu_ns, 9501 * MS - 9);
		cs = classes(sim);
		ck_assert(cs.rt_throttling);
		ck_assert(!cs.fair_server);
		/* throttled at 951, 1950, ..., 9950 ms */
		ck_assert_uint_eq(cs.rt_throttled, 10);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * The knobs as written to procfs and debugfs: sched_rt_runtime_us -1
 * lifts throttling, the fair server's runtime 0 turns it off (the kernel
 * warns the system may starve): in both the fair task gets nothing.
 */
START_TEST(knobs_turn_throttling_and_the_fair_server_off)
{
	eevdf_sim *sim = new_sim(&(struct knobs){
		.kernel = "6.8",
		.sysctl = { { "kernel.sched_rt_runtime_us", "-1" } } });
	int fair;

	add(sim, &(struct task){ .name = "rt",
				 .policy = EEVDF_POLICY_FIFO,
				 .prio = 1 });
	fair = add(sim, &(struct task){ .name = "fair" });
	run(sim, 3 * SEC);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 0);
	ck_assert_int_eq(classes(sim).rt_runtime, -1);
	eevdf_sim_free(sim);

	sim = new_sim(&(struct knobs){
		.kernel = "6.18",
		.sysctl = { { "sched/fair_server/runtime", "0" } } });
	add(sim, &(struct task){ .name = "rt",
				 .policy = EEVDF_POLICY_FIFO,
				 .prio = 1 });
	fair = add(sim, &(struct task){ .name = "fair" });
	run(sim, 3 * SEC);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 0);
	ck_assert_int_eq(classes(sim).fair_server_runtime, 0);
	eevdf_sim_free(sim);

	/*
	 * A server of 100 ms every 500 ms: deadline 500 ms from boot, zero
	 * laxity at 400 ms; it runs the fair task 400..500 ms with a new
	 * period (deadline 900 ms) and then 900..1000, 1400..1500, ...:
	 * six windows of 100 ms in 3 s.
	 */
	sim = new_sim(&(struct knobs){
		.kernel = "6.18",
		.sysctl = { { "sched/fair_server/runtime", "100000000" },
			    { "sched/fair_server/period", "500000000" } } });
	add(sim, &(struct task){ .name = "rt",
				 .policy = EEVDF_POLICY_FIFO,
				 .prio = 1 });
	fair = add(sim, &(struct task){ .name = "fair" });
	run(sim, 3 * SEC);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 600 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * RT_RUNTIME_SHARE (off by default since 2586af1ac187): at 951 ms the
 * throttled CPU borrows from the idle one's unused runtime, diff =
 * (950 - 0) ms / 2 CPUs, capped at what fills its period, 50 ms: its
 * runtime becomes the whole period, so it is never throttled again, and
 * with the feature on the timer keeps the borrowed runtime.  The fair
 * task pinned beside the hog starves.
 */
START_TEST(rt_runtime_share_lets_a_hog_borrow_a_whole_period)
{
	static const int cpu0[] = { 0 };
	const char *const feats[] = { NULL, "RT_RUNTIME_SHARE" };
	const eevdf_time fair_ns[] = { 499 * MS + 9, 0 };

	for (int i = 0; i < 2; i++) {
		eevdf_sim *sim = new_sim(&(struct knobs){
			.kernel = "6.8", .nr_cpus = 2, .features = feats[i] });
		int fair;

		add(sim, &(struct task){ .name = "rt",
					 .policy = EEVDF_POLICY_FIFO,
					 .prio = 50,
					 .cpus = cpu0,
					 .nr_cpus = 1 });
		fair = add(sim, &(struct task){ .name = "fair",
						.cpus = cpu0,
						.nr_cpus = 1 });
		run(sim, 10 * SEC);
		ck_assert_int_eq(stats(sim, fair).cpu_ns, fair_ns[i]);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* FIFO and RR between themselves ----------------------------------------- */

/* Two FIFO tasks of one priority run in order: the first to its end. */
START_TEST(fifo_tasks_of_one_priority_run_in_order)
{
	static const struct eevdf_op once[] = { { EEVDF_OP_RUN, 100 * MS, 0,
						  0 } };
	eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	int a = add(sim, &(struct task){ .name = "a",
					 .policy = EEVDF_POLICY_FIFO,
					 .prio = 10,
					 .prog = once,
					 .nr_ops = 1 });
	int b = add(sim, &(struct task){ .name = "b",
					 .policy = EEVDF_POLICY_FIFO,
					 .prio = 10,
					 .prog = once,
					 .nr_ops = 1 });
	int h1, h2;

	run(sim, 1 * SEC);
	/* a 0..100 ms, b 100..200 ms, each switched in once */
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 200 * MS);
	ck_assert_int_eq(stats(sim, a).delay_max_ns, 0);
	ck_assert_int_eq(stats(sim, b).delay_max_ns, 100 * MS);
	ck_assert_uint_eq(stats(sim, a).involuntary, 0);
	eevdf_sim_free(sim);

	/* two hogs: the first never gives way, ticks do not rotate FIFO */
	sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	h1 = add(sim, &(struct task){ .name = "h1",
				      .policy = EEVDF_POLICY_FIFO,
				      .prio = 10 });
	h2 = add(sim, &(struct task){ .name = "h2",
				      .policy = EEVDF_POLICY_FIFO,
				      .prio = 10 });
	run(sim, 1 * SEC);
	ck_assert_int_eq(stats(sim, h1).cpu_ns, 1 * SEC);
	ck_assert_int_eq(stats(sim, h2).cpu_ns, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Two RR hogs: sched_rr_timeslice is 100 ticks at HZ 1000; a's first
 * tick is at 1 ms, its hundredth at 100 ms ends its slice and puts it
 * behind b: they alternate every 100 ms, 500 ms each in 1 s, a switched
 * out at 100, 300, 500, 700 and 900 ms, b at 200, 400, 600, 800 and, by
 * the tick at the run's last instant, 1000 ms.
 */
START_TEST(rr_tasks_take_turns_every_100_ms)
{
	eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	int a = add(sim, &(struct task){ .name = "a",
					 .policy = EEVDF_POLICY_RR,
					 .prio = 10 });
	int b = add(sim, &(struct task){ .name = "b",
					 .policy = EEVDF_POLICY_RR,
					 .prio = 10 });

	run(sim, 1 * SEC);
	ck_assert_int_eq(stats(sim, a).cpu_ns, 500 * MS);
	ck_assert_int_eq(stats(sim, b).cpu_ns, 500 * MS);
	ck_assert_uint_eq(stats(sim, a).involuntary, 5);
	ck_assert_uint_eq(stats(sim, b).involuntary, 5);
	ck_assert_int_eq(stats(sim, b).delay_max_ns, 100 * MS);
	ck_assert_int_eq(classes(sim).rr_timeslice, 100 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * sched_rr_timeslice_ms 30 at HZ 250 (4 ms ticks) is msecs_to_jiffies(30)
 * = 8 ticks, rounded up: 32 ms slices, a and b alternating every 32 ms:
 * in 256 ms, 4 slices each.
 */
START_TEST(rr_timeslice_sysctl_is_kept_in_ticks)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];
	int a, b;

	eevdf_config_init(&cfg);
	cfg.hz = 250;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_config_set_sysctl(&cfg, "sched_rr_timeslice_ms",
						 "30", err, sizeof(err)),
			 0);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	a = add(sim, &(struct task){ .name = "a",
				     .policy = EEVDF_POLICY_RR,
				     .prio = 10 });
	b = add(sim, &(struct task){ .name = "b",
				     .policy = EEVDF_POLICY_RR,
				     .prio = 10 });
	run(sim, 256 * MS);
	ck_assert_int_eq(classes(sim).rr_timeslice, 32 * MS);
	ck_assert_int_eq(stats(sim, a).cpu_ns, 128 * MS);
	ck_assert_int_eq(stats(sim, b).cpu_ns, 128 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* Placement, push and pull ------------------------------------------------ */

/*
 * An RT task woken where an RT task of its priority or better runs goes
 * to the CPU running the least important work (find_lowest_rq()): CPU 0
 * runs a FIFO 50 hog, CPU 1 a fair hog; a FIFO 10 task that runs 1 ms and
 * sleeps 9 ms starts on CPU 0 (its first allowed) but is placed on CPU 1,
 * where it preempts the fair task and stays: in 100 ms it runs 10 times,
 * 10 ms, and the fair task gets the other 90 ms of CPU 1.
 */
START_TEST(rt_task_woken_on_a_busy_cpu_goes_to_a_fair_cpu)
{
	static const int cpu0[] = { 0 }, cpu1[] = { 1 }, both[] = { 0, 1 };
	static const struct eevdf_op cyc[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 9 * MS, 0, 0 },
	};
	eevdf_sim *sim = new_sim(
		&(struct knobs){ .kernel = "6.18", .nr_cpus = 2 });
	int hi, fair, r;

	hi = add(sim, &(struct task){ .name = "hi",
				      .policy = EEVDF_POLICY_FIFO,
				      .prio = 50,
				      .cpus = cpu0,
				      .nr_cpus = 1 });
	fair = add(sim, &(struct task){
				.name = "fair", .cpus = cpu1, .nr_cpus = 1 });
	r = add(sim, &(struct task){ .name = "r",
				     .policy = EEVDF_POLICY_FIFO,
				     .prio = 10,
				     .cpus = both,
				     .nr_cpus = 2,
				     .prog = cyc,
				     .nr_ops = 3 });
	run(sim, 100 * MS);
	ck_assert_int_eq(stats(sim, r).cpu, 1);
	ck_assert_int_eq(stats(sim, r).cpu_ns, 10 * MS);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 90 * MS);
	ck_assert_int_eq(stats(sim, hi).cpu_ns, 100 * MS);
	/* never delayed: it always finds CPU 1 running only fair work */
	ck_assert_int_eq(stats(sim, r).delay_max_ns, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * push_rt_tasks(): r (FIFO 10) runs on CPU 0 from time 0, fair on CPU 1;
 * at 5 ms hi (FIFO 50, CPU 0 only) starts and preempts r, which becomes
 * pushable; the balance callback after the switch pushes it to CPU 1,
 * running only fair work, where it preempts the fair task.  r, 5 ms into
 * its 100 ms of work, ends at 100 ms; the fair task ran 0..5 ms and
 * 100..200 ms.
 */
START_TEST(a_preempted_rt_task_is_pushed_to_a_fair_cpu)
{
	static const int cpu0[] = { 0 }, cpu1[] = { 1 }, both[] = { 0, 1 };
	static const struct eevdf_op once[] = { { EEVDF_OP_RUN, 100 * MS, 0,
						  0 } };
	static const struct eevdf_op brief[] = { { EEVDF_OP_RUN, 50 * MS, 0,
						   0 } };
	eevdf_sim *sim = new_sim(
		&(struct knobs){ .kernel = "6.18", .nr_cpus = 2 });
	int r, fair;

	r = add(sim, &(struct task){ .name = "r",
				     .policy = EEVDF_POLICY_FIFO,
				     .prio = 10,
				     .cpus = both,
				     .nr_cpus = 2,
				     .prog = once,
				     .nr_ops = 1 });
	fair = add(sim, &(struct task){
				.name = "fair", .cpus = cpu1, .nr_cpus = 1 });
	add(sim, &(struct task){ .name = "hi",
				 .policy = EEVDF_POLICY_FIFO,
				 .prio = 50,
				 .cpus = cpu0,
				 .nr_cpus = 1,
				 .start = 5 * MS,
				 .prog = brief,
				 .nr_ops = 1 });
	run(sim, 200 * MS);
	ck_assert_int_eq(stats(sim, r).cpu, 1);
	ck_assert_uint_eq(stats(sim, r).migrations, 1);
	ck_assert_int_eq(stats(sim, r).cpu_ns, 100 * MS);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 105 * MS);
	ck_assert_uint_eq(classes(sim).rt_pushes, 1);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * pull_rt_task(): b (FIFO 50) hogs CPU 1 with c (FIFO 40) queued behind
 * it; at 1 ms c may run on CPU 0 too (pushable, CPU 1 overloaded).  a
 * (FIFO 60) runs CPU 0 for 10 ms and exits; CPU 0, lowering its RT
 * priority, pulls: with RT_PUSH_IPI by asking CPU 1 to push (an IPI of 0
 * ns here), without it by taking c itself.  Either way c runs on CPU 0
 * from 10 ms: 90 ms by 100 ms.
 */
START_TEST(a_cpu_lowering_its_priority_pulls_waiting_rt_work)
{
	static const int cpu0[] = { 0 }, cpu1[] = { 1 }, both[] = { 0, 1 };
	static const struct eevdf_op brief[] = { { EEVDF_OP_RUN, 10 * MS, 0,
						   0 } };
	const char *const feats[] = { "RT_PUSH_IPI", "NO_RT_PUSH_IPI" };

	for (int i = 0; i < 2; i++) {
		eevdf_sim *sim = new_sim(&(struct knobs){
			.kernel = "6.18", .nr_cpus = 2, .features = feats[i] });
		struct eevdf_class_stats cs;
		int c;

		add(sim, &(struct task){ .name = "a",
					 .policy = EEVDF_POLICY_FIFO,
					 .prio = 60,
					 .cpus = cpu0,
					 .nr_cpus = 1,
					 .prog = brief,
					 .nr_ops = 1 });
		add(sim, &(struct task){ .name = "b",
					 .policy = EEVDF_POLICY_FIFO,
					 .prio = 50,
					 .cpus = cpu1,
					 .nr_cpus = 1 });
		c = add(sim, &(struct task){ .name = "c",
					     .policy = EEVDF_POLICY_FIFO,
					     .prio = 40,
					     .cpus = cpu1,
					     .nr_cpus = 1 });
		run(sim, 1 * MS);
		ck_assert_int_eq(eevdf_sim_set_affinity(sim, c, both, 2), 0);
		run(sim, 100 * MS);
		ck_assert_int_eq(stats(sim, c).cpu, 0);
		ck_assert_int_eq(stats(sim, c).cpu_ns, 90 * MS);
		cs = classes(sim);
		ck_assert_uint_eq(i == 0 ? cs.rt_pushes : cs.rt_pulls, 1);
		ck_assert_uint_eq(i == 0 ? cs.rt_pulls : cs.rt_pushes, 0);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* Deadline ---------------------------------------------------------------- */

/*
 * A 10 ms / 100 ms reservation next to a fair hog: deadline 100 ms and
 * 10 ms of runtime at time 0; it runs 0..10 ms (the tick at 10 ms uses
 * the runtime up and throttles it), its timer at the next period, 100 ms,
 * gives it 10 ms and deadline 200 ms, and so on: 100 ms in 1 s.  The
 * same next to an RT hog: deadline tasks beat every RT task.
 */
START_TEST(deadline_task_gets_its_bandwidth_next_to_a_hog)
{
	const enum eevdf_policy other[] = { EEVDF_POLICY_NORMAL,
					    EEVDF_POLICY_FIFO };

	for (int i = 0; i < 2; i++) {
		eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
		int dl = add(sim,
			     &(struct task){ .name = "dl",
					     .policy = EEVDF_POLICY_DEADLINE,
					     .runtime = 10 * MS,
					     .deadline = 100 * MS,
					     .period = 100 * MS });
		int hog_pid = add(sim, &(struct task){ .name = "hog",
						       .policy = other[i],
						       .prio = i ? 99 : 0 });

		run(sim, 1 * SEC);
		ck_assert_int_eq(stats(sim, dl).cpu_ns, 100 * MS);
		ck_assert_int_eq(stats(sim, hog_pid).cpu_ns, 900 * MS);
		ck_assert_int_eq(stats(sim, dl).dl_runtime, 10 * MS);
		ck_assert_int_eq(stats(sim, dl).dl_period, 100 * MS);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * sched_yield() of a deadline task gives up the rest of its runtime until
 * its next period (yield_task_dl(), replenish_dl_entity() zeroes what is
 * left): 2 ms of work then a yield, each period: 20 ms in 1 s.
 */
START_TEST(deadline_yield_ends_the_period)
{
	static const struct eevdf_op work_yield[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 2 * MS, 0, 0 },
		{ EEVDF_OP_YIELD, 0, 0, 0 },
	};
	eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	int dl = add(sim, &(struct task){ .name = "dl",
					  .policy = EEVDF_POLICY_DEADLINE,
					  .runtime = 10 * MS,
					  .deadline = 100 * MS,
					  .prog = work_yield,
					  .nr_ops = 3 });
	int fair = add(sim, &(struct task){ .name = "fair" });

	run(sim, 1 * SEC);
	ck_assert_int_eq(stats(sim, dl).cpu_ns, 20 * MS);
	ck_assert_int_eq(stats(sim, fair).cpu_ns, 980 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Admission control: dl_b->bw = to_ratio(1 s, 950 ms) = 996147 per CPU,
 * and from 6.12 each CPU's fair server holds to_ratio(1 s, 50 ms) = 52428
 * of it.  On one CPU of 6.18: 50 ms / 100 ms (524288) + 40 ms / 100 ms
 * (419430) + 52428 = 996146 <= 996147 is admitted; another 1 ms / 100 ms
 * (10485) is not (EBUSY).  On 6.8 (no server) 50 + 45 ms (471859) =
 * 996147 fits exactly, 46 ms (482344) does not.
 */
START_TEST(admission_control_refuses_what_the_kernel_refuses)
{
	struct {
		const char *kernel;
		eevdf_time second, third;
	} c[] = { { "6.18", 40 * MS, 1 * MS }, { "6.8", 45 * MS, 1 * MS } };

	for (size_t i = 0; i < ARRAY_LEN(c); i++) {
		eevdf_sim *sim = new_sim(
			&(struct knobs){ .kernel = c[i].kernel });
		struct task t = { .name = "d1",
				  .policy = EEVDF_POLICY_DEADLINE,
				  .runtime = 50 * MS,
				  .deadline = 100 * MS };

		ck_assert_int_gt(add(sim, &t), 0);
		t.name = "d2";
		t.runtime = c[i].second;
		ck_assert_int_gt(add(sim, &t), 0);
		ck_assert_uint_eq(classes(sim).dl_bw, i == 0 ? 996146 : 996147);
		t.name = "d3";
		t.runtime = c[i].third;
		ck_assert_int_eq(add(sim, &t), EEVDF_EBUSY);
		ck_assert_ptr_nonnull(
			strstr(eevdf_sim_errmsg(sim), "admission control"));
		ck_assert_ptr_nonnull(
			strstr(eevdf_sim_errmsg(sim), "sched_rt_runtime_us"));
		/* the refused task took no bandwidth */
		ck_assert_uint_eq(classes(sim).dl_bw, i == 0 ? 996146 : 996147);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* The parameters __checkparam_dl() refuses, and the EPERM of affinity. */
START_TEST(deadline_parameters_are_checked)
{
	static const int cpu0[] = { 0 };
	eevdf_sim *sim = new_sim(
		&(struct knobs){ .kernel = "6.18", .nr_cpus = 2 });

	ck_assert_int_eq(add(sim,
			     &(struct task){ .name = "a",
					     .policy = EEVDF_POLICY_DEADLINE,
					     .runtime = 20 * MS,
					     .deadline = 10 * MS }),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "runtime <= "
							    "deadline"));
	ck_assert_int_eq(add(sim,
			     &(struct task){ .name = "b",
					     .policy = EEVDF_POLICY_DEADLINE,
					     .runtime = 1 * MS,
					     .deadline = 10 * MS,
					     .cpus = cpu0,
					     .nr_cpus = 1 }),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "EPERM"));
	ck_assert_int_eq(
		add(sim,
		    &(struct task){ .name = "c", .policy = EEVDF_POLICY_FIFO }),
		EEVDF_EINVAL);
	eevdf_sim_free(sim);
}
END_TEST

/* The fair server's start and stop rules ---------------------------------- */

/*
 * A fair task that runs 1 ms and sleeps 1 ms, five times, alone, then
 * exits: in 6.12-6.16 every sleep empties the CPU's fair queue and stops
 * the server (1, 3, 5, 7, 9 ms and the exit at 10 ms), every enqueue
 * starts it again (0, 2, 4, 6, 8, 10 ms): 6 starts, 6 stops.  From 6.17
 * the server is active from boot and nothing on the way stops it.
 */
START_TEST(fair_server_starts_and_stops_per_release)
{
	static const struct eevdf_op five[] = {
		{ EEVDF_OP_LOOP, 0, 5, 2 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 1 * MS, 0, 0 },
	};
	const char *const kernels[] = { "6.12", "6.17", "6.18" };
	const uint64_t starts[] = { 6, 0, 0 }, stops[] = { 6, 0, 0 };

	for (int i = 0; i < 3; i++) {
		eevdf_sim *sim = new_sim(
			&(struct knobs){ .kernel = kernels[i] });
		struct eevdf_class_stats cs;

		add(sim,
		    &(struct task){ .name = "f", .prog = five, .nr_ops = 3 });
		run(sim, 1 * SEC);
		cs = classes(sim);
		ck_assert_uint_eq(cs.fair_server_starts, starts[i]);
		ck_assert_uint_eq(cs.fair_server_stops, stops[i]);
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * A CPU idle for a whole period: the server's zero-laxity timer fires at
 * 950 ms.  6.17 queues it (it stays queued: the idle CPU's pick takes the
 * fair fast path); 6.19 first charges the 950 ms of idle time, which uses
 * the runtime up in background: a new period, marked idle
 * (dl_defer_idle), and the timer handler stops it at once (f5a538c07df2).
 * The task's wakeup at 2 s starts it again.
 */
START_TEST(fair_server_stops_after_an_idle_period_in_6_19)
{
	static const struct eevdf_op late[] = {
		{ EEVDF_OP_SLEEP, 2 * SEC, 0, 0 },
		{ EEVDF_OP_RUN, 1 * MS, 0, 0 },
	};
	const char *const kernels[] = { "6.17", "6.19" };

	for (int i = 0; i < 2; i++) {
		eevdf_sim *sim = new_sim(
			&(struct knobs){ .kernel = kernels[i] });
		struct eevdf_class_stats cs;

		add(sim,
		    &(struct task){ .name = "f", .prog = late, .nr_ops = 2 });
		run(sim, 3 * SEC);
		cs = classes(sim);
		ck_assert_uint_eq(cs.fair_server_stops, i ? 1 : 0);
		ck_assert_uint_eq(cs.fair_server_starts, i ? 1 : 0);
		/* the run ends at the task's exit, not at a server timer */
		ck_assert_int_eq(eevdf_sim_now(sim), 2 * SEC + 1 * MS);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* Load and run a workload text; the run's return code. */
static int run_text(const char *text, eevdf_sim **out, eevdf_time until)
{
	struct eevdf_load_opts o = { .ncpus = 1 };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	char err[256];
	int r;

	r = eevdf_workload_parse_opts(text, strlen(text), "<classes>", &o, &wl,
				      &d);
	ck_assert_msg(r == 0, "%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, out, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, *out, &d), 0);
	r = eevdf_sim_run(*out, until);
	eevdf_workload_free(wl);
	return r;
}

/*
 * __sched_setscheduler() does nothing when an RT task asks for the policy
 * and priority it has: a FIFO task that sets its own priority again keeps
 * its CPU (it is not requeued behind its equal), and is never switched out
 * while it runs its two bursts.
 */
START_TEST(setattr_of_the_same_rt_priority_changes_nothing)
{
	static const char text[] =
		"{\"format\":\"eevdf-sim-workload/1\",\"tasks\":["
		"{\"name\":\"a\",\"policy\":\"fifo\",\"priority\":10,"
		"\"program\":[{\"run\":\"10ms\"},{\"setattr\":{\"policy\":"
		"\"fifo\",\"priority\":10}},{\"run\":\"10ms\"}]},"
		"{\"name\":\"b\",\"policy\":\"fifo\",\"priority\":10,"
		"\"program\":[{\"run\":\"10ms\"}]}]}";
	eevdf_sim *sim;

	ck_assert_int_eq(run_text(text, &sim, 1 * SEC), 0);
	ck_assert_uint_eq(stats(sim, 1).involuntary, 0);
	ck_assert_int_ge(stats(sim, 2).delay_max_ns, 20 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* sched_fork() refuses to fork a SCHED_DEADLINE task (EAGAIN). */
START_TEST(a_deadline_task_cannot_spawn)
{
	static const char text[] =
		"{\"format\":\"eevdf-sim-workload/1\",\"templates\":{"
		"\"child\":{\"program\":[{\"run\":\"1ms\"}]}},\"tasks\":["
		"{\"name\":\"d\",\"policy\":\"deadline\",\"runtime\":"
		"\"1ms\",\"deadline\":\"10ms\",\"program\":[{\"spawn\":"
		"{\"template\":\"child\"}}]}]}";
	eevdf_sim *sim;

	ck_assert_int_eq(run_text(text, &sim, 1 * SEC), EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "cannot fork"));
	eevdf_sim_free(sim);
}
END_TEST

/* Fair-only runs never see the classes in their results. */
START_TEST(fair_only_runs_have_no_class_section)
{
	eevdf_sim *sim = new_sim(&(struct knobs){ .kernel = "6.18" });
	char *json = NULL;

	add(sim, &(struct task){ .name = "f" });
	run(sim, 100 * MS);
	ck_assert(!classes(sim).active);
	ck_assert_int_eq(eevdf_sim_results_json(sim, &json), 0);
	ck_assert_ptr_null(strstr(json, "\"classes\""));
	ck_assert_ptr_null(strstr(json, "\"class\""));
	free(json);
	eevdf_sim_free(sim);
}
END_TEST

Suite *classes_suite(void)
{
	Suite *s = suite_create("classes");
	TCase *tc = tcase_create("classes");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, cpupri_levels_are_the_kernels);
	tcase_add_test(tc,
		       fifo_hog_leaves_fair_the_fair_servers_50_ms_per_second);
	tcase_add_test(tc,
		       fifo_hog_is_throttled_to_950_ms_per_second_up_to_6_11);
	tcase_add_test(tc, knobs_turn_throttling_and_the_fair_server_off);
	tcase_add_test(tc, rt_runtime_share_lets_a_hog_borrow_a_whole_period);
	tcase_add_test(tc, fifo_tasks_of_one_priority_run_in_order);
	tcase_add_test(tc, rr_tasks_take_turns_every_100_ms);
	tcase_add_test(tc, rr_timeslice_sysctl_is_kept_in_ticks);
	tcase_add_test(tc, rt_task_woken_on_a_busy_cpu_goes_to_a_fair_cpu);
	tcase_add_test(tc, a_preempted_rt_task_is_pushed_to_a_fair_cpu);
	tcase_add_test(tc, a_cpu_lowering_its_priority_pulls_waiting_rt_work);
	tcase_add_test(tc, deadline_task_gets_its_bandwidth_next_to_a_hog);
	tcase_add_test(tc, deadline_yield_ends_the_period);
	tcase_add_test(tc, admission_control_refuses_what_the_kernel_refuses);
	tcase_add_test(tc, deadline_parameters_are_checked);
	tcase_add_test(tc, fair_server_starts_and_stops_per_release);
	tcase_add_test(tc, fair_server_stops_after_an_idle_period_in_6_19);
	tcase_add_test(tc, fair_only_runs_have_no_class_section);
	tcase_add_test(tc, setattr_of_the_same_rt_priority_changes_nothing);
	tcase_add_test(tc, a_deadline_task_cannot_spawn);
	suite_add_tcase(s, tc);
	return s;
}
