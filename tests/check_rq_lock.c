/* SPDX-License-Identifier: MIT */
/*
 * Run-queue locks and the wakeup paths through them (sched/rq_lock.c,
 * core.c's ttwu paths), against numbers worked out by hand from the cost
 * entries.  Every cost is zero but the ones a scenario names, so each
 * expected figure is a short sum of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/machine.h"
#include "eevdf/workload.h"
#include "engine/sim.h"
#include "machine/costs.h"

#define US 1000LL
#define MS 1000000LL

/* The costs used below, and what the rest of the table is: zero. */
enum {
	C = 400,
	L = 300,
	R = 500,
	E = 2000,
	X = 400,
	XC = 1000,
	W = 250, /* pipe_write */
	RD = 300 /* pipe_read */
};

/* "costs": every entry 0 (a percentage 100) but those extra names, as
 * "name": ns pairs. */
static void costs_json(char *buf, size_t len, const char *extra)
{
	size_t n = (size_t)snprintf(buf, len, "{");

	for (int i = 0; i < COST_NR_ENTRIES; i++) {
		char key[64];
		const char *at;
		long v = eevdf__costs_is_pct(i) ? 100 : 0;

		snprintf(key, sizeof(key), "\"%s\": ", eevdf__costs_name(i));
		at = strstr(extra, key);
		if (at)
			v = strtol(at + strlen(key), NULL, 10);
		n += (size_t)snprintf(buf + n, len - n, "%s%s%ld",
				      i ? ", " : "", key, v);
	}
	snprintf(buf + n, len - n, "}");
}

static eevdf_sim *run(const char *json, const char *features, eevdf_time until)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	char err[256];

	ck_assert_msg(eevdf_workload_parse(json, strlen(json), "<rq_lock>", &wl,
					   &d) == 0,
		      "%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.machine = eevdf_workload_machine(wl);
	cfg.check_invariants = true;
	if (features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, features, err,
							   sizeof(err)),
				 0);
	ck_assert_msg(eevdf_sim_new(&cfg, &sim, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, until), 0);
	eevdf_workload_free(wl);
	return sim;
}

/*
 * perf bench sched pipe's ping-pong, n round trips of a 4-byte token over
 * two pipes between CPU 0 and CPU 1 of a
 * two-CPU machine (llcs: 1 or 2 LLCs) at HZ 100, so that at most one
 * tick falls inside a run; the time it took.
 */
static eevdf_time ping_pong(int llcs, int n, const char *features)
{
	char costs[4096], json[8192];
	eevdf_time t;
	eevdf_sim *sim;

	costs_json(costs, sizeof(costs),
		   "\"ctxsw_thread\": 400, \"ttwu_local\": 300, "
		   "\"ttwu_remote\": 500, \"ipi\": 1500, \"idle_exit\": 2000, "
		   "\"rq_remote_llc\": 400, \"rq_remote_cross_llc\": 1000, "
		   "\"pipe_write\": 250, \"pipe_read\": 300");
	snprintf(
		json, sizeof(json),
		"{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"10s\","
		"\"stop\": {\"when\": \"all_exited\"},"
		"\"machine\": {\"hz\": 100, \"topology\": {\"packages\": 1,"
		" \"llcs_per_package\": %d, \"cores_per_llc\": %d,"
		" \"threads_per_core\": 1}},"
		"\"costs\": %s,"
		"\"objects\": [{\"type\": \"channel\", \"name\": \"a\","
		" \"kind\": \"pipe\"}, {\"type\": \"channel\", \"name\": \"b\","
		" \"kind\": \"pipe\"}],"
		"\"tasks\": ["
		"{\"name\": \"ping\", \"kind\": \"thread\", \"cpus\": [0],"
		" \"program\": [{\"loop\": {\"count\": %d, \"body\": ["
		" {\"send\": {\"chan\": \"b\", \"bytes\": 4}},"
		" {\"recv\": {\"chan\": \"a\", \"bytes\": 4}}]}}]},"
		"{\"name\": \"pong\", \"kind\": \"thread\", \"cpus\": [1],"
		" \"program\": [{\"loop\": {\"count\": %d, \"body\": ["
		" {\"recv\": {\"chan\": \"b\", \"bytes\": 4}},"
		" {\"send\": {\"chan\": \"a\", \"bytes\": 4}}]}}]}"
		"]}",
		llcs, 2 / llcs, costs, n, n);
	sim = run(json, features, 10 * 1000 * MS);
	ck_assert(eevdf_sim_done(sim));
	t = eevdf_sim_now(sim);
	eevdf_sim_free(sim);
	return t;
}

/*
 * The steady state, from the difference of 2000 and 1000 round trips.
 * An op burns its cost before it acts, so a write (W) comes before the
 * wakeup it makes, and a read's cost (RD) is paid before its reader
 * blocks, off the critical path; the woken read goes on without paying
 * again.  Direct (NO_TTWU_QUEUE): the writer takes the reader's rq lock,
 * whose lines the reader's CPU wrote last (X), and enqueues (L); the
 * reader's idle CPU wakes after its exit latency (E), pulls its lines
 * back (X), switches (C) and writes back (W); the writer's hold ended
 * long before, so nobody spins.  A round trip is 2 (E + X + C + W);
 * across LLCs X is rq_remote_cross_llc.  Through the wake list
 * (TTWU_QUEUE, the reader's CPU idle): the idle CPU takes the wakeup
 * after E, enqueues under its own lock (L, no transfer) and switches (C):
 * 2 (E + L + C + W), inside an LLC or across.
 * At most one tick (HZ 100) per CPU can add a transfer, X or XC.
 */
START_TEST(a_ping_pong_costs_the_sum_of_its_path)
{
	static const struct {
		int llcs;
		const char *features;
		eevdf_time want, slack;
	} c[] = {
		{ 1, "NO_TTWU_QUEUE", 2 * (E + X + C + W), 2 * X },
		{ 2, "NO_TTWU_QUEUE", 2 * (E + XC + C + W), 2 * XC },
		{ 1, NULL, 2 * (E + L + C + W), 2 * X },
		{ 2, NULL, 2 * (E + L + C + W), 2 * XC },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		eevdf_time d = ping_pong(c[i].llcs, 2000, c[i].features) -
			       ping_pong(c[i].llcs, 1000, c[i].features);

		ck_assert_msg(llabs(d - 1000 * c[i].want) <= c[i].slack,
			      "%d LLC(s), %s: %lld ns for 1000 round trips, "
			      "want %lld",
			      c[i].llcs, c[i].features ? c[i].features : "-",
			      (long long)d, (long long)(1000 * c[i].want));
	}
}
END_TEST

/*
 * n wakers on CPUs 1..n post at the same instant to n tasks that sleep
 * on CPU 0; CPU 0 runs a hog, so each wakeup enqueues under CPU 0's lock
 * (the target is busy, ttwu_queue_cond() says no).  Switches and exit
 * latencies cost nothing here.  The first waker pulls the lock from CPU
 * 0 (X) and holds it for the enqueue (L); the k-th queues behind k - 1
 * holds of X + L each, then pulls the lines from the (k-1)-th: it pays
 * k (X + L).  CPU 0's lock: n - 1 contended takes, spin (X + L) n (n-1)
 * / 2 in all, the longest (n - 1)(X + L).  The sleepers are SCHED_BATCH,
 * so no wakeup preempts the hog and CPU 0 takes its lock for nothing
 * else meanwhile; they block at 0, before the hog starts.  Waker k then
 * runs k x 100 us, so that the balancing of its CPU once it is idle again
 * takes CPU 0's lock well apart from the others.
 */
static eevdf_sim *storm(int n, bool hog, const char *extra)
{
	char costs[4096], json[8192];

	costs_json(costs, sizeof(costs), extra);
	snprintf(json, sizeof(json),
		 "{\"format\": \"eevdf-sim-workload/1\", \"duration\": \"5ms\","
		 "\"machine\": {\"hz\": 100, \"topology\": {\"packages\": 1,"
		 " \"llcs_per_package\": 1, \"cores_per_llc\": %d,"
		 " \"threads_per_core\": 1}},"
		 "\"costs\": %s,"
		 "\"objects\": [{\"type\": \"sem\", \"name\": \"s[${i}]\","
		 " \"for\": {\"i\": [1, %d]}}],"
		 "\"tasks\": [%s"
		 "{\"name\": \"sleeper[${i}]\", \"for\": {\"i\": [1, %d]},"
		 " \"policy\": \"batch\", \"cpus\": [0], \"program\":"
		 " [{\"wait\": {\"sem\": \"s[${i}]\"}}, {\"run\": \"10ms\"}]},"
		 "{\"name\": \"waker[${i}]\", \"for\": {\"i\": [1, %d]},"
		 " \"cpus\": [\"${i}\"], \"start\": \"1500us\","
		 " \"program\": [{\"post\": {\"sem\": \"s[${i}]\"}},"
		 " {\"run\": \"${i}00us\"}]}]}",
		 n + 1, costs, n + 1,
		 hog ? "{\"name\": \"hog\", \"cpus\": [0], \"start\":"
		       " \"100us\", \"program\": [{\"run\": \"1s\"}]}," :
		       "",
		 n + 1, n + 1);
	return run(json, NULL, 5 * MS);
}

static const struct eevdf_task_stats *
task(const eevdf_sim *sim, const char *name, struct eevdf_task_stats *st)
{
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		eevdf_sim_task_stats(sim, i, st);
		if (strcmp(st->name, name) == 0)
			return st;
	}
	ck_abort_msg("no task %s", name);
	return NULL;
}

START_TEST(a_wakeup_storm_queues_on_the_target_lock)
{
	const eevdf_time h = X + L;
	struct eevdf_cpu_stats cs;
	struct eevdf_task_stats st;
	char name[32];
	eevdf_sim *sim;

	for (int n = 1; n <= 4; n++) {
		sim = storm(n, true,
			    "\"ttwu_local\": 300, \"rq_remote_llc\": 400, "
			    "\"ipi\": 1500");
		eevdf_sim_cpu_stats(sim, 0, &cs);
		ck_assert_uint_eq(cs.lock_contended, (uint64_t)(n - 1));
		ck_assert_int_eq(cs.lock_spin_ns, h * n * (n - 1) / 2);
		ck_assert_int_eq(cs.lock_spin_max_ns, h * (n - 1));
		for (int k = 1; k <= n; k++) {
			snprintf(name, sizeof(name), "waker[%d]", k);
			ck_assert_int_eq(task(sim, name, &st)->cpu_ns,
					 k * h + k * 100 * US);
		}
		eevdf_sim_free(sim);
	}
}
END_TEST

/*
 * The same storm onto an idle CPU 0 takes its wake list (it is idle:
 * f3dd3f674555): the first waker sends the one IPI, the three others
 * ride on it (llist_add() onto a non-empty list sends none), each paying
 * ttwu_remote only.  CPU 0 takes the batch after its exit latency and
 * activates all four under one take of its own lock: 4 L, which the
 * first sleeper pays on top of nothing else.
 */
START_TEST(a_wake_list_batches_wakeups_behind_one_ipi)
{
	struct eevdf_smp_stats ss;
	struct eevdf_cpu_stats cs;
	struct eevdf_task_stats st;
	char name[32];
	eevdf_sim *sim = storm(4, false,
			       "\"ttwu_local\": 300, \"ttwu_remote\": 500, "
			       "\"rq_remote_llc\": 400, \"ipi\": 1500, "
			       "\"idle_exit\": 2000");

	eevdf_sim_smp_stats(sim, &ss);
	ck_assert_uint_eq(ss.ipis, 1);
	ck_assert_uint_eq(ss.wakelist_tasks, 4);
	ck_assert_uint_eq(ss.wakelist_batch_max, 4);
	ck_assert_uint_eq(ss.wakeups_direct_remote, 0);
	for (int k = 1; k <= 4; k++) {
		snprintf(name, sizeof(name), "waker[%d]", k);
		ck_assert_int_eq(task(sim, name, &st)->cpu_ns,
				 R + k * 100 * US);
	}
	eevdf_sim_cpu_stats(sim, 0, &cs);
	ck_assert_uint_eq(cs.lock_contended, 0);
	eevdf_sim_free(sim);
}
END_TEST

Suite *rq_lock_suite(void)
{
	Suite *s = suite_create("rq_lock");
	TCase *tc = tcase_create("paths");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_ping_pong_costs_the_sum_of_its_path);
	tcase_add_test(tc, a_wakeup_storm_queues_on_the_target_lock);
	tcase_add_test(tc, a_wake_list_batches_wakeups_behind_one_ipi);
	suite_add_tcase(s, tc);
	return s;
}
