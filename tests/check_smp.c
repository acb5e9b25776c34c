/* SPDX-License-Identifier: MIT */
/*
 * SMP: domains built from machines, LinSched-style balancing scenarios
 * with exact expected shares and layouts, wakeup placement, affinity, the
 * rebalancing of a released imbalance, and the cost of crossing LLCs.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/machine.h"
#include "eevdf/workload.h"
#include "sched/fair.h"
#include "engine/sim.h"
#include "sched/smp.h"

#define MS 1000000LL
#define SEC 1000000000LL

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
};

static eevdf_machine *regular(int pkgs, int llcs, int cores, int threads)
{
	struct eevdf_machine_spec spec = {
		.name = "test",
		.packages = pkgs,
		.llcs_per_package = llcs,
		.cores_per_llc = cores,
		.threads_per_core = threads,
	};
	eevdf_machine *m;
	char err[256];

	ck_assert_msg(eevdf_machine_new(&spec, &m, err, sizeof(err)) == 0, "%s",
		      err);
	return m;
}

static eevdf_sim *sim_on(const eevdf_machine *m, int nr_cpus)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];

	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.nr_cpus = nr_cpus;
	cfg.check_invariants = true;
	ck_assert_msg(eevdf_sim_new(&cfg, &sim, err, sizeof(err)) == 0, "%s",
		      err);
	return sim;
}

static int add_hog(eevdf_sim *sim, const char *name, int nice, const int *cpus,
		   size_t nr)
{
	struct eevdf_task_spec s = {
		.name = name,
		.nice = nice,
		.program = hog,
		.nr_ops = 2,
		.cpus = cpus,
		.nr_cpus = nr,
	};
	int pid = eevdf_sim_add_task(sim, &s);

	ck_assert_msg(pid > 0, "%s", eevdf_sim_errmsg(sim));
	return pid;
}

static struct eevdf_task_stats stats(eevdf_sim *sim, int pid)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, (size_t)pid - 1, &st), 0);
	return st;
}

/* Domains ----------------------------------------------------------------- */

START_TEST(domains_of_an_smt_desktop)
{
	eevdf_machine *m = regular(1, 1, 4, 2);
	eevdf_sim *sim = sim_on(m, 0);
	const struct cpu_topo *c0 = &sim->sched.topo.cpu[0];
	const struct sched_domain *smt = c0->sd, *mc = smt->parent;

	/* split numbering: CPU 0's sibling is CPU 4 */
	ck_assert_int_eq(sim->sched.topo.cpu[4].core, c0->core);
	ck_assert_int_eq(smt->level, SD_LVL_SMT);
	ck_assert_uint_eq(smt->span_weight, 2);
	ck_assert_uint_eq(smt->imbalance_pct, 110);
	ck_assert_uint_eq(smt->cache_nice_tries, 0);
	ck_assert_uint_eq(smt->span->nr_groups, 2);
	ck_assert_int_eq(mc->level, SD_LVL_MC);
	ck_assert_uint_eq(mc->span_weight, 8);
	ck_assert_uint_eq(mc->imbalance_pct, 117);
	ck_assert_uint_eq(mc->cache_nice_tries, 1);
	ck_assert_uint_eq(mc->min_interval, 8);
	ck_assert_uint_eq(mc->max_interval, 16);
	ck_assert_uint_eq(mc->busy_factor, 16);
	/* MC's groups are the four cores */
	ck_assert_uint_eq(mc->span->nr_groups, 4);
	ck_assert_ptr_null(mc->parent);
	ck_assert_ptr_eq(c0->sd_llc, mc);
	ck_assert_uint_eq(c0->sd_llc_size, 8);
	ck_assert(sim->sched.topo.smt_active);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(domains_of_a_two_socket_server)
{
	eevdf_machine *m = regular(2, 1, 20, 2);
	eevdf_sim *sim = sim_on(m, 0);
	const struct sched_domain *sd = sim->sched.topo.cpu[0].sd;

	ck_assert_int_eq(eevdf_sim_nr_cpus(sim), 80);
	ck_assert_int_eq(sd->level, SD_LVL_SMT);
	sd = sd->parent;
	ck_assert_int_eq(sd->level, SD_LVL_MC);
	ck_assert_uint_eq(sd->span_weight, 40);
	/* PKG spans what MC spans: dropped */
	sd = sd->parent;
	ck_assert_int_eq(sd->level, SD_LVL_NUMA);
	ck_assert_uint_eq(sd->span_weight, 80);
	ck_assert_uint_eq(sd->cache_nice_tries, 2);
	ck_assert(!(sd->flags & SD_PREFER_SIBLING));
	ck_assert(sd->flags & SD_SERIALIZE);
	/* two LLCs under the first level above the LLC: imbalance of 2 */
	ck_assert_uint_eq(sd->imb_numa_nr, 2);
	ck_assert_uint_eq(sd->span->nr_groups, 2);
	ck_assert_ptr_null(sd->parent);
	ck_assert(!cpus_share_cache(&sim->sched.topo, 0, 20));
	ck_assert(cpus_share_cache(&sim->sched.topo, 0, 40));
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

/*
 * Each domain knows which of its groups holds its CPU, the balancer's
 * local group.  Split numbering on 2 x 20 x 2: CPU n's sibling is n + 40,
 * socket 1 is CPUs 20-39 and 60-79, and groups are listed by first CPU.
 */
START_TEST(local_group_of_each_domain)
{
	eevdf_machine *m = regular(2, 1, 20, 2);
	eevdf_sim *sim = sim_on(m, 0);
	const struct sched_domain *sd = sim->sched.topo.cpu[61].sd;

	/* CPU 61: core 21 = {21, 61}; its MC groups are the cores
	 * {20, 60}, {21, 61}, ...; NUMA's are socket 0, then socket 1 */
	ck_assert_int_eq(sd->level, SD_LVL_SMT);
	ck_assert_uint_eq(sd->local_group, 1);
	ck_assert_uint_eq(sd->parent->local_group, 1);
	ck_assert_uint_eq(sd->parent->parent->local_group, 1);
	/* CPU 45: core 5 = {5, 45} of socket 0 */
	sd = sim->sched.topo.cpu[45].sd;
	ck_assert_uint_eq(sd->local_group, 1);
	ck_assert_uint_eq(sd->parent->local_group, 5);
	ck_assert_uint_eq(sd->parent->parent->local_group, 0);
	/* CPU 5: the first thread of the same core */
	sd = sim->sched.topo.cpu[5].sd;
	ck_assert_uint_eq(sd->local_group, 0);
	ck_assert_uint_eq(sd->parent->local_group, 5);
	ck_assert_uint_eq(sd->parent->parent->local_group, 0);
	for (int cpu = 0; cpu < 80; cpu++)
		for_each_domain(&sim->sched.topo, cpu, sd)
		{
			ck_assert_uint_lt(sd->local_group, sd->span->nr_groups);
			ck_assert(sd_span_has(sd->span->groups[sd->local_group],
					      cpu));
		}
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(domains_of_many_small_llcs)
{
	eevdf_machine *m = regular(1, 8, 8, 2);
	eevdf_sim *sim = sim_on(m, 0);
	const struct sched_domain *pkg =
		sim->sched.topo.cpu[0].sd->parent->parent;

	ck_assert_int_eq(pkg->level, SD_LVL_PKG);
	ck_assert_uint_eq(pkg->span_weight, 128);
	ck_assert_uint_eq(pkg->span->nr_groups, 8);
	ck_assert_uint_eq(pkg->imb_numa_nr, 8);
	ck_assert_uint_eq(sim->sched.topo.cpu[0].sd_llc_size, 16);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(a_flat_machine_of_one_cpu_has_no_domains)
{
	eevdf_sim *sim = sim_on(NULL, 1);

	ck_assert_ptr_null(sim->sched.topo.cpu[0].sd);
	ck_assert(!sim->sched.sp.smp);
	eevdf_sim_free(sim);
}
END_TEST

/* Balancing scenarios --------------------------------------------------- */

/*
 * 4 nice-0 and 4 nice-5 hogs on 4 CPUs: the weight-balanced layout is one
 * of each per CPU, so each nice-0 task gets 1024/(1024+335) of a CPU and
 * each nice-5 task 335/1359: the ratio is 1024/335 = 3.057.
 */
START_TEST(four_and_four_hogs_share_by_weight)
{
	eevdf_sim *sim = sim_on(NULL, 4);
	char name[16];
	eevdf_time n0 = 0, n5 = 0;
	double ratio;

	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		/* interleaved creation: the balancer, not luck, lays out */
		add_hog(sim, name, i % 2 ? 5 : 0, NULL, 0);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 20 * SEC), 0);
	for (int i = 0; i < 8; i++) {
		struct eevdf_task_stats st = stats(sim, i + 1);

		if (i % 2)
			n5 += st.cpu_ns;
		else
			n0 += st.cpu_ns;
	}
	ratio = (double)n0 / (double)n5;
	ck_assert_msg(ratio > 1024.0 / 335 * 0.98 &&
			      ratio < 1024.0 / 335 * 1.02,
		      "ratio %.4f", ratio);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * 3 nice-0 and 3 nice-5 hogs on 4 CPUs: total weight 4077, about 1019 a
 * CPU; the layout that gets closest is each nice-0 task alone and the
 * three nice-5 tasks (1005) together.  Each nice-5 task then has a third
 * of a CPU.
 */
START_TEST(three_and_three_hogs_settle_by_weight)
{
	eevdf_sim *sim = sim_on(NULL, 4);
	char name[16];
	int n5_cpu = -1;

	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		add_hog(sim, name, i % 2 ? 5 : 0, NULL, 0);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * SEC), 0);
	for (int i = 0; i < 6; i++) {
		struct eevdf_task_stats st = stats(sim, i + 1);

		if (i % 2) {
			if (n5_cpu < 0)
				n5_cpu = st.cpu;
			ck_assert_int_eq(st.cpu, n5_cpu);
		}
	}
	for (int i = 0; i < 6; i += 2) {
		struct eevdf_task_stats st = stats(sim, i + 1);

		ck_assert_int_ne(st.cpu, n5_cpu);
		for (int j = i + 2; j < 6; j += 2)
			ck_assert_int_ne(st.cpu, stats(sim, j + 1).cpu);
	}
	/* settled early: the last 9 s split the nice-5 CPU three ways */
	ck_assert_int_ge(stats(sim, 2).cpu_ns + stats(sim, 4).cpu_ns +
				 stats(sim, 6).cpu_ns,
			 9900 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* N hogs on N CPUs: each has a CPU, nothing ever moves. */
START_TEST(n_tasks_on_n_cpus_never_migrate)
{
	eevdf_machine *m = regular(1, 1, 4, 2);
	eevdf_sim *sim = sim_on(m, 0);
	struct eevdf_smp_stats ss;
	char name[16];

	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		add_hog(sim, name, 0, NULL, 0);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 5 * SEC), 0);
	for (int i = 0; i < 8; i++) {
		ck_assert_uint_eq(stats(sim, i + 1).migrations, 0);
		ck_assert_int_eq(stats(sim, i + 1).cpu_ns, 5 * SEC);
	}
	ck_assert_int_eq(eevdf_sim_smp_stats(sim, &ss), 0);
	ck_assert_uint_eq(ss.migrations, 0);
	ck_assert_uint_gt(ss.balance_runs, 0);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

/*
 * Four hogs pinned to CPU 0 of a 4-CPU machine, released at 1 s.  Idle
 * CPUs balance on the NOHZ kick of CPU 0's tick, each at most every
 * max_interval = 2 x 4 ms (CPU_IDLE: no busy factor), so a first round
 * within 8 ms + 1 tick and a second one for what the first left give a
 * bound of 2 x (8 + 1) = 18 ms: from 1.018 s on, every CPU is busy.
 */
START_TEST(released_pinning_is_balanced_within_two_intervals)
{
	eevdf_sim *sim = sim_on(NULL, 4);
	static const int cpu0[] = { 0 };
	struct eevdf_cpu_stats before[4], after;
	char name[16];

	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		add_hog(sim, name, 0, cpu0, 1);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 1 * SEC), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(stats(sim, i + 1).cpu, 0);
		ck_assert_int_eq(eevdf_sim_set_affinity(sim, i + 1, NULL, 0),
				 0);
	}
	ck_assert_int_eq(eevdf_sim_run(sim, 1018 * MS), 0);
	for (int c = 0; c < 4; c++)
		ck_assert_int_eq(eevdf_sim_cpu_stats(sim, c, &before[c]), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 3 * SEC), 0);
	for (int c = 0; c < 4; c++) {
		ck_assert_int_eq(eevdf_sim_cpu_stats(sim, c, &after), 0);
		ck_assert_msg(after.busy_ns - before[c].busy_ns ==
				      3 * SEC - 1018 * MS,
			      "cpu %d busy %lld", c,
			      (long long)(after.busy_ns - before[c].busy_ns));
	}
	eevdf_sim_free(sim);
}
END_TEST

/* Narrowing the affinity of a running and of a queued task moves both. */
START_TEST(affinity_is_never_violated)
{
	eevdf_sim *sim = sim_on(NULL, 4);
	static const int cpu3[] = { 3 }, cpus12[] = { 1, 2 };

	add_hog(sim, "a", 0, NULL, 0);
	add_hog(sim, "b", 0, cpus12, 2);
	add_hog(sim, "c", 0, cpus12, 2);
	add_hog(sim, "d", 0, cpus12, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 500 * MS), 0);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, cpu3, 1), 0);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 2, cpu3, 1), 0);
	/* the invariant checker verifies every queued and running task */
	ck_assert_int_eq(eevdf_sim_run(sim, 2 * SEC), 0);
	ck_assert_int_eq(stats(sim, 1).cpu, 3);
	ck_assert_int_eq(stats(sim, 2).cpu, 3);
	ck_assert(stats(sim, 3).cpu == 1 || stats(sim, 3).cpu == 2);
	ck_assert(stats(sim, 4).cpu == 1 || stats(sim, 4).cpu == 2);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, cpu3, 0), 0);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 9, cpu3, 1), EEVDF_EINVAL);
	{
		static const int bad[] = { 4 }, twice[] = { 1, 1 };

		ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, bad, 1),
				 EEVDF_EINVAL);
		ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, twice, 2),
				 EEVDF_EINVAL);
	}
	eevdf_sim_free(sim);
}
END_TEST

/* Workloads on machines ------------------------------------------------- */

static eevdf_sim *run_workload(const char *json, const eevdf_machine *m,
			       eevdf_time until)
{
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	const eevdf_machine *wm;
	int r;

	r = eevdf_workload_parse(json, strlen(json), "<smp>", &wl, &d);
	ck_assert_msg(r == 0, "%s: %s", d.path, d.msg);
	wm = m ? m : eevdf_workload_machine(wl);
	sim = sim_on(wm, 1);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, until), 0);
	eevdf_workload_free(wl);
	return sim;
}

/*
 * A pipe ping-pong pair that may run anywhere on an SMT desktop: every
 * wakeup finds the partner's CPU busy and an idle CPU in the LLC, so the
 * wakee lands on an idle CPU (an SMT sibling or an idle core).
 */
START_TEST(a_ping_pong_pair_lands_on_idle_cpus_of_the_llc)
{
	static const char json[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"1s\","
		"\"machine\": {\"topology\": {\"packages\": 1,"
		" \"llcs_per_package\": 2, \"cores_per_llc\": 2,"
		" \"threads_per_core\": 2}},"
		"\"objects\": [{\"type\": \"channel\", \"kind\": \"pipe\", \"name\": \"ab\"},"
		" {\"type\": \"channel\", \"kind\": \"pipe\", \"name\": \"ba\"}],"
		"\"tasks\": ["
		"{\"name\": \"ping\", \"program\": [{\"loop\": {\"count\": 2000,"
		" \"body\": [{\"send\": {\"chan\": \"ab\", \"bytes\": 1}},"
		" {\"recv\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]},"
		"{\"name\": \"pong\", \"program\": [{\"loop\": {\"count\": 2000,"
		" \"body\": [{\"recv\": {\"chan\": \"ab\", \"bytes\": 1}},"
		" {\"send\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]}]}";
	eevdf_sim *sim = run_workload(json, NULL, 10 * SEC);
	struct eevdf_smp_stats ss;
	const struct task *a = sim->sched.tasks[0], *b = sim->sched.tasks[1];

	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_smp_stats(sim, &ss), 0);
	ck_assert_uint_ge(ss.wakeups, 3999);
	ck_assert_uint_eq(ss.wakeups_idle, ss.wakeups);
	/* wake_affine keeps the pair inside one LLC */
	ck_assert_int_eq(sim->sched.topo.cpu[a->cpu].llc,
			 sim->sched.topo.cpu[b->cpu].llc);
	ck_assert_int_ne(a->cpu, b->cpu);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A pinned ping-pong pair on CPUs a and b: one round trip in ns, and the
 * CPU time of ping (the sender of the first message) in *ping_ns.
 */
static eevdf_time round_trip(int a, int b, eevdf_time *ping_ns)
{
	char json[2048];
	eevdf_sim *sim;
	eevdf_time t;

	snprintf(
		json, sizeof(json),
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"1s\","
		"\"machine\": {\"topology\": {\"packages\": 1,"
		" \"llcs_per_package\": 2, \"cores_per_llc\": 4,"
		" \"threads_per_core\": 1}},"
		"\"objects\": [{\"type\": \"channel\", \"kind\": \"pipe\", \"name\": \"ab\"},"
		" {\"type\": \"channel\", \"kind\": \"pipe\", \"name\": \"ba\"}],"
		"\"tasks\": ["
		"{\"name\": \"ping\", \"cpus\": [%d], \"program\": [{\"loop\":"
		" {\"count\": 1000, \"body\": [{\"send\": {\"chan\": \"ab\","
		" \"bytes\": 1}}, {\"recv\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]},"
		"{\"name\": \"pong\", \"cpus\": [%d], \"program\": [{\"loop\":"
		" {\"count\": 1000, \"body\": [{\"recv\": {\"chan\": \"ab\","
		" \"bytes\": 1}}, {\"send\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]}]}",
		a, b);
	sim = run_workload(json, NULL, 10 * SEC);
	ck_assert(eevdf_sim_done(sim));
	t = eevdf_sim_now(sim);
	*ping_ns = stats(sim, 1).cpu_ns;
	eevdf_sim_free(sim);
	return t / 1000;
}

/*
 * Each wakeup finds its partner's CPU idle, so it goes through that CPU's
 * wake list whether the CPU shares the LLC (f3dd3f674555, v6.0) or not
 * (317f394160e9): the idle CPU polls, takes the wakeup after its exit
 * latency and activates the task under its own lock, whose lines it
 * last wrote itself.  Inside an LLC or across, a round trip and the
 * waker's CPU time are the same (tests/check_rq_lock.c derives them).
 */
START_TEST(a_ping_pong_to_an_idle_cpu_takes_its_wake_list)
{
	eevdf_time ping_local, ping_remote;
	eevdf_time local = round_trip(0, 1, &ping_local),
		   remote = round_trip(0, 4, &ping_remote);

	ck_assert_int_gt(local, 0);
	ck_assert_msg(remote == local, "local %lld ns, remote %lld ns",
		      (long long)local, (long long)remote);
	ck_assert_int_eq(ping_remote, ping_local);
}
END_TEST

/* A task moved mid-run finishes later by the refill cost of the move. */
static eevdf_time finish_after_move(int to)
{
	static const char json[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"1s\","
		"\"machine\": {\"topology\": {\"packages\": 2,"
		" \"llcs_per_package\": 2, \"cores_per_llc\": 2,"
		" \"threads_per_core\": 2, \"numbering\": \"adjacent\"}},"
		"\"tasks\": [{\"name\": \"w\", \"cpus\": [0], \"program\":"
		" [{\"run\": \"10ms\"}]}]}";
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	eevdf_time t;

	ck_assert_int_eq(
		eevdf_workload_parse(json, strlen(json), "<smp>", &wl, &d), 0);
	sim = sim_on(eevdf_workload_machine(wl), 1);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 5 * MS), 0);
	ck_assert_int_eq(eevdf_sim_set_affinity(sim, 1, &to, 1), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, SEC), 0);
	t = sim->sched.tasks[0]->exited_at;
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return t;
}

START_TEST(a_moved_task_pays_the_refill_of_its_move)
{
	/* adjacent numbering: 0-1 a core, 0-3 an LLC, 0-7 a package */
	eevdf_time sib = finish_after_move(1), llc = finish_after_move(2),
		   cross = finish_after_move(4), pkg = finish_after_move(8);

	ck_assert_int_eq(llc - sib, 2000);
	ck_assert_int_eq(cross - sib, 10000);
	ck_assert_int_eq(pkg - sib, 25000);
}
END_TEST

/* balance_runs of a pinned ping-pong next to an overloaded, pinned CPU. */
static u64 newidle_runs(const char *balance_cost)
{
	char json[2048];
	struct eevdf_smp_stats ss;
	eevdf_sim *sim;

	snprintf(
		json, sizeof(json),
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"1s\","
		"\"costs\": {\"balance_per_cpu\": %s},"
		"\"machine\": {\"topology\": {\"packages\": 1,"
		" \"llcs_per_package\": 1, \"cores_per_llc\": 8,"
		" \"threads_per_core\": 1}},"
		"\"objects\": [{\"type\": \"channel\", \"kind\": \"pipe\","
		" \"name\": \"ab\"}, {\"type\": \"channel\", \"kind\":"
		" \"pipe\", \"name\": \"ba\"}],"
		"\"tasks\": ["
		"{\"name\": \"hog\", \"count\": 3, \"cpus\": [0],"
		" \"program\": [{\"loop\": {\"body\": [{\"run\": \"1ms\"}]}}]},"
		"{\"name\": \"ping\", \"cpus\": [1], \"program\": [{\"loop\":"
		" {\"count\": 2000, \"body\": [{\"send\": {\"chan\": \"ab\","
		" \"bytes\": 1}}, {\"recv\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]},"
		"{\"name\": \"pong\", \"cpus\": [2], \"program\": [{\"loop\":"
		" {\"count\": 2000, \"body\": [{\"recv\": {\"chan\": \"ab\","
		" \"bytes\": 1}}, {\"send\": {\"chan\": \"ba\", \"bytes\": 1}}]}}]}]}",
		balance_cost);
	sim = run_workload(json, NULL, 30 * MS);
	ck_assert_int_eq(eevdf_sim_smp_stats(sim, &ss), 0);
	eevdf_sim_free(sim);
	return ss.balance_runs;
}

/*
 * Newly-idle balancing is tried only while the CPU's average idle span
 * exceeds the dearest pass so far.  The ping-pong CPUs idle for about
 * 3.5 us at a time while CPU 0 is overloaded with tasks nobody may pull:
 * at 1 us a CPU a pass over the 8 CPUs costs 8 us, more than the idle
 * spans average once a few of them have pulled avg_idle (1 ms at first)
 * down, so attempts stop; at cost 0 every idle moment tries.
 */
START_TEST(newly_idle_balancing_respects_its_cost)
{
	u64 free_runs = newidle_runs("0"), costed = newidle_runs("\"1us\"");

	ck_assert_uint_gt(free_runs, 3000);
	ck_assert_msg(costed * 20 < free_runs, "costed %llu, free %llu",
		      (unsigned long long)costed,
		      (unsigned long long)free_runs);
}
END_TEST

/* Mechanisms --------------------------------------------------------- */

/* SIS_UTIL: (1024 - min(x^2 pct^2 / (10000 * 1024), 1024)) * w / 1024. */
START_TEST(sis_util_budget_shrinks_with_utilisation)
{
	/* idle LLC of 8: scan them all */
	ck_assert_int_eq(sis_util_nr_idle_scan(0, 8, 117), 8);
	/* x = 512: 512^2 * 117^2 / 10240000 = 350; 674 * 8 / 1024 = 5 */
	ck_assert_int_eq(sis_util_nr_idle_scan(8 * 512, 8, 117), 5);
	/* x = 700: 655; 369 * 8 / 1024 = 2 */
	ck_assert_int_eq(sis_util_nr_idle_scan(8 * 700, 8, 117), 2);
	/* x = 900: 1082 > 1024, no scan at all (about 85 % busy and up) */
	ck_assert_int_eq(sis_util_nr_idle_scan(8 * 900, 8, 117), 0);
	/* TV-17: sum_util 2048 -> 7 (x = 256: 87), 6144 -> 1 (x = 768: 788) */
	ck_assert_int_eq(sis_util_nr_idle_scan(2048, 8, 117), 7);
	ck_assert_int_eq(sis_util_nr_idle_scan(6144, 8, 117), 1);
}
END_TEST

/* wake_wide(): wide iff min(flips) >= llc size and max >= min * size. */
START_TEST(wake_wide_needs_many_flips_on_both_sides)
{
	eevdf_machine *m = regular(1, 1, 4, 2);
	eevdf_sim *sim = sim_on(m, 0);
	struct task *waker, *wakee;

	add_hog(sim, "waker", 0, NULL, 0);
	add_hog(sim, "wakee", 0, NULL, 0);
	waker = sim->sched.tasks[0];
	wakee = sim->sched.tasks[1];
	/* the LLC has 8 CPUs */
	waker->wakee_flips = 64;
	wakee->wakee_flips = 7;
	ck_assert(!wake_wide(&sim->sched, waker, wakee, 0));
	wakee->wakee_flips = 8;
	ck_assert(wake_wide(&sim->sched, waker, wakee, 0));
	waker->wakee_flips = 63;
	ck_assert(!wake_wide(&sim->sched, waker, wakee, 0));
	/* symmetric: the wakee may be the one that flips */
	waker->wakee_flips = 8;
	wakee->wakee_flips = 64;
	ck_assert(wake_wide(&sim->sched, waker, wakee, 0));
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

/*
 * select_idle_sibling() on the i7 shape (siblings c and c + 4), CPUs 0
 * and 1 busy with pinned hogs, everything else idle.
 */
static eevdf_sim *two_busy_cpus(eevdf_machine **m, struct task **p)
{
	static const int c0[] = { 0 }, c1[] = { 1 };
	static const struct eevdf_op nap[] = {
		{ EEVDF_OP_SLEEP, 1000 * SEC, 0, 0 },
	};
	struct eevdf_task_spec s = { .name = "p", .program = nap, .nr_ops = 1 };
	eevdf_sim *sim;

	*m = regular(1, 1, 4, 2);
	sim = sim_on(*m, 0);
	add_hog(sim, "h0", 0, c0, 1);
	add_hog(sim, "h1", 0, c1, 1);
	ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	*p = sim->sched.tasks[2];
	ck_assert(!available_idle_cpu(&sim->sched, 0) &&
		  !available_idle_cpu(&sim->sched, 1));
	for (int c = 2; c < 8; c++)
		ck_assert(available_idle_cpu(&sim->sched, c));
	return sim;
}

START_TEST(select_idle_sibling_order)
{
	eevdf_machine *m;
	struct task *p;
	eevdf_sim *sim = two_busy_cpus(&m, &p);
	struct llc_shared *llc = &sim->sched.topo.llc[0];

	/* an idle target is taken as it is */
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 0, 3), 3);
	/* an idle prev that shares the cache comes next */
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 6, 0), 6);
	/* then recent_used_cpu, which the call replaces by prev */
	p->recent_used_cpu = 7;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 7);
	ck_assert_int_eq(p->recent_used_cpu, 1);
	/*
	 * With idle cores the scan from target + 1 wants a whole idle core:
	 * CPU 1's core {1, 5} is half busy, CPU 2's core {2, 6} is idle.
	 */
	llc->has_idle_cores = true;
	llc->nr_idle_scan = 8;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 0, 0), 2);
	/* without idle cores, prev's idle SMT sibling: 1's is 5, 0's is 4,
	 * whatever the scan budget */
	llc->has_idle_cores = false;
	llc->nr_idle_scan = 0;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 5);
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 0, 0), 4);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

/*
 * The scan itself, on 8 cores without SMT, CPUs 0 and 1 busy: it starts
 * at target + 1 and examines at most nr_idle_scan CPUs.
 */
START_TEST(select_idle_cpu_scans_within_its_budget)
{
	static const int c0[] = { 0 }, c1[] = { 1 };
	static const struct eevdf_op nap[] = {
		{ EEVDF_OP_SLEEP, 1000 * SEC, 0, 0 },
	};
	struct eevdf_task_spec s = { .name = "p", .program = nap, .nr_ops = 1 };
	eevdf_sim *sim = sim_on(NULL, 8);
	struct llc_shared *llc = &sim->sched.topo.llc[0];
	struct task *p;

	add_hog(sim, "h0", 0, c0, 1);
	add_hog(sim, "h1", 0, c1, 1);
	ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * MS), 0);
	p = sim->sched.tasks[2];
	/* from CPU 1 (busy) on, CPU 2 is the first idle one */
	llc->nr_idle_scan = 8;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 2);
	/* a budget of 2 examines CPUs 1 and 2 */
	llc->nr_idle_scan = 2;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 2);
	/* a budget of 1 examines CPU 1 only: no idle CPU, target stays */
	llc->nr_idle_scan = 1;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 0);
	/* a budget of 0 (an LLC that looked busy) scans nothing */
	llc->nr_idle_scan = 0;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 0), 0);
	/* prev == target (busy): the scan from target + 1 finds CPU 2 */
	llc->nr_idle_scan = 8;
	p->recent_used_cpu = -1;
	ck_assert_int_eq(select_idle_sibling(&sim->sched, p, 1, 1), 2);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * The scan on bitmaps, by hand, on two words (CPUs 0..127).  The LLC is
 * CPUs 60..69 (bits 60..63 of word 0, 0..5 of word 1); idle are 62, 66,
 * and 100 (outside the LLC).  From target 63 the order is 64, 65, ...,
 * 69, 60, 61, 62, 63: 66 comes first, after 64 and 65 (2 before it).
 * From target 66: 67, 68, 69, 60, 61, 62: 62, after 5.  From target 61:
 * 62 at once (0 before).  With 62 and 66 busy, none: -1 after all 10.
 */
START_TEST(idle_scan_on_bitmaps_follows_the_scan_order)
{
	u64 llc[2] = { (u64)0xf << 60, 0x3f };
	u64 idle[2] = { (u64)1 << 62, (u64)1 << 2 | (u64)1 << 36 };
	u32 before = 99;

	ck_assert_int_eq(eevdf__first_idle_after(idle, llc, 2, 63, &before),
			 66);
	ck_assert_uint_eq(before, 2);
	ck_assert_int_eq(eevdf__first_idle_after(idle, llc, 2, 66, &before),
			 62);
	ck_assert_uint_eq(before, 5);
	ck_assert_int_eq(eevdf__first_idle_after(idle, llc, 2, 61, &before),
			 62);
	ck_assert_uint_eq(before, 0);
	idle[0] = 0;
	idle[1] = (u64)1 << 36;
	ck_assert_int_eq(eevdf__first_idle_after(idle, llc, 2, 63, &before),
			 -1);
	ck_assert_uint_eq(before, 10);
	/* the target itself is the last one looked at */
	idle[0] = (u64)1 << 63;
	ck_assert_int_eq(eevdf__first_idle_after(idle, llc, 2, 63, &before),
			 63);
	ck_assert_uint_eq(before, 9);
}
END_TEST

Suite *smp_suite(void)
{
	Suite *s = suite_create("smp");
	TCase *tc = tcase_create("domains");

	tcase_add_test(tc, domains_of_an_smt_desktop);
	tcase_add_test(tc, domains_of_a_two_socket_server);
	tcase_add_test(tc, domains_of_many_small_llcs);
	tcase_add_test(tc, local_group_of_each_domain);
	tcase_add_test(tc, a_flat_machine_of_one_cpu_has_no_domains);
	suite_add_tcase(s, tc);
	tc = tcase_create("mechanisms");
	tcase_add_test(tc, sis_util_budget_shrinks_with_utilisation);
	tcase_add_test(tc, wake_wide_needs_many_flips_on_both_sides);
	tcase_add_test(tc, select_idle_sibling_order);
	tcase_add_test(tc, select_idle_cpu_scans_within_its_budget);
	tcase_add_test(tc, idle_scan_on_bitmaps_follows_the_scan_order);
	suite_add_tcase(s, tc);
	tc = tcase_create("balance");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, four_and_four_hogs_share_by_weight);
	tcase_add_test(tc, three_and_three_hogs_settle_by_weight);
	tcase_add_test(tc, n_tasks_on_n_cpus_never_migrate);
	tcase_add_test(tc, released_pinning_is_balanced_within_two_intervals);
	tcase_add_test(tc, affinity_is_never_violated);
	tcase_add_test(tc, newly_idle_balancing_respects_its_cost);
	suite_add_tcase(s, tc);
	tc = tcase_create("placement");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_ping_pong_pair_lands_on_idle_cpus_of_the_llc);
	tcase_add_test(tc, a_ping_pong_to_an_idle_cpu_takes_its_wake_list);
	tcase_add_test(tc, a_moved_task_pays_the_refill_of_its_move);
	suite_add_tcase(s, tc);
	return s;
}
