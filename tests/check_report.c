/* SPDX-License-Identifier: MIT */
/*
 * Benchmark report formatters, fed metrics set by hand: each prints the
 * real tool's lines (workloads.md 1.6, 2.4, 3.1, 4.3, 5.1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "engine/metrics.h"
#include "engine/sim.h"

#define MS 1000000LL

struct opts {
	const char *const *kv; /* key, value, key, value, ..., NULL */
};

static const char *get(void *ud, const char *key)
{
	const struct opts *o = ud;

	for (size_t i = 0; o->kv[i]; i += 2)
		if (strcmp(o->kv[i], key) == 0)
			return o->kv[i + 1];
	return NULL;
}

static eevdf_sim *bare_sim(void)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	return sim;
}

static char *report(eevdf_sim *sim, const char *fmt, const char *const *kv)
{
	struct opts o = { kv };
	char err[256] = "";
	char *out = NULL;
	int ret = eevdf_report(sim, fmt, get, &o, &out, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s: %s", fmt, err);
	return out;
}

START_TEST(hackbench_prints_its_three_lines)
{
	eevdf_sim *sim = bare_sim();
	int t = eevdf__sim_add_metric(sim, "time", MET_VALUE, EEVDF_HIST_EXACT,
				      false, false, false);
	static const char *const kv[] = { "groups",   "10",    "fds",
					  "20",	      "loops", "100",
					  "datasize", "100",   "mode",
					  "process",  NULL };
	char *out;

	/* %lu.%03lu with the milliseconds truncated: 0.123 */
	eevdf__metric_record(sim, (u32)t, NULL, 0, 123999999);
	out = report(sim, "hackbench", kv);
	ck_assert_str_eq(out,
			 "Running in process mode with 10 groups using 40 "
			 "file descriptors each (== 400 tasks)\n"
			 "Each sender will pass 100 messages of 100 bytes\n"
			 "Time: 0.123\n");
	free(out);
	out = report(sim, "perf-bench-messaging", kv);
	ck_assert_str_eq(out, "# Running 'sched/messaging' benchmark:\n"
			      "# 20 sender and receiver processes per group\n"
			      "# 10 groups == 400 processes run\n\n"
			      "     Total time: 0.123 [sec]\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(pipe_prints_usecs_per_op_and_ops_per_sec)
{
	eevdf_sim *sim = bare_sim();
	int t = eevdf__sim_add_metric(sim, "time", MET_VALUE, EEVDF_HIST_EXACT,
				      false, false, false);
	static const char *const kv[] = { "loops", "1000000", NULL };
	char *out;

	/* 2.790614 s for a million loops: 2.790614 us/op, 358344 ops/s */
	eevdf__metric_record(sim, (u32)t, NULL, 0, 2790614000LL);
	out = report(sim, "perf-bench-sched-pipe", kv);
	ck_assert_str_eq(out, "# Running 'sched/pipe' benchmark:\n"
			      "# Executed 1000000 pipe operations between two "
			      "processes\n\n"
			      "     Total time: 2.790 [sec]\n\n"
			      "       2.790614 usecs/op\n"
			      "         358344 ops/sec\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(dbench_prints_ops_and_throughput)
{
	eevdf_sim *sim = bare_sim();
	int bytes = eevdf__sim_add_metric(sim, "bytes", MET_COUNTER,
					  EEVDF_HIST_EXACT, false, false, true);
	int lat = eevdf__sim_add_metric(sim, "oplat", MET_HIST,
					EEVDF_HIST_EXACT, true, false, true);
	s64 readx, close_;
	static const char *const kv[] = { "clients", "4", NULL };
	char *out;

	ck_assert_int_eq(eevdf__sim_intern(sim, "ReadX", &readx), 0);
	ck_assert_int_eq(eevdf__sim_intern(sim, "Close", &close_), 0);
	ck_assert_int_eq(eevdf__sim_set_warmup(sim, 0), 0);
	sim->sched.now = 2 * 1000 * MS;
	/* 1140 MB over 2 s: 570 MB/sec */
	eevdf__metric_count(sim, (u32)bytes, NULL, 1140000000LL);
	eevdf__metric_record(sim, (u32)lat, NULL, readx, 8000);
	eevdf__metric_record(sim, (u32)lat, NULL, readx, 10000);
	eevdf__metric_record(sim, (u32)lat, NULL, close_, 140000);
	out = report(sim, "dbench", kv);
	/* keys print in key order: ReadX was interned first */
	ck_assert_str_eq(
		out, "\n Operation                Count    AvgLat    MaxLat\n"
		     " ------------------------------------------------"
		     "--\n"
		     " ReadX                        2     0.009     0.010\n"
		     " Close                        1     0.140     0.140\n"
		     "\nThroughput 570 MB/sec  4 clients  4 procs  "
		     "max_latency=0.140 ms\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(massive_intr_prints_counts_by_pid)
{
	eevdf_sim *sim = bare_sim();
	int loops = eevdf__sim_add_metric(sim, "loops", MET_VALUE,
					  EEVDF_HIST_EXACT, true, false, false);
	static const char *const none[] = { NULL };
	char *out;

	eevdf__metric_record(sim, (u32)loops, NULL, 3, 1234);
	eevdf__metric_record(sim, (u32)loops, NULL, 2, 987);
	out = report(sim, "massive_intr", none);
	ck_assert_str_eq(out, "000002\t00000987\n000003\t00001234\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(schbench_prints_blocks_average_rps_and_sched_delay)
{
	eevdf_sim *sim = bare_sim();
	int wake = eevdf__sim_add_metric(sim, "wakeup", MET_HIST,
					 EEVDF_HIST_FIO_PLAT8, false, false,
					 true);
	int req = eevdf__sim_add_metric(sim, "request", MET_HIST,
					EEVDF_HIST_FIO_PLAT8, false, false,
					true);
	int reqs = eevdf__sim_add_metric(sim, "requests", MET_COUNTER,
					 EEVDF_HIST_EXACT, false, false, false);
	static const char *const kv[] = { "runtime", "30", NULL };
	char *out;

	/* ten samples 1..10 us: exact buckets below 512 */
	for (int v = 1; v <= 10; v++) {
		eevdf__metric_record(sim, (u32)wake, NULL, 0, v);
		eevdf__metric_record(sim, (u32)req, NULL, 0, 100 * v);
	}
	eevdf__metric_count(sim, (u32)reqs, NULL, 90273);
	out = report(sim, "schbench", kv);
	ck_assert_ptr_nonnull(strstr(out, "Wakeup Latencies percentiles "
					  "(usec) runtime 30 (s) (10 total "
					  "samples)\n"));
	/* 50th: the first value whose cumulative count reaches 5 */
	ck_assert_ptr_nonnull(strstr(out, "\t  50.0th: 5          (3 "
					  "samples)\n"));
	ck_assert_ptr_nonnull(strstr(out, "\t* 99.0th: 10"));
	ck_assert_ptr_nonnull(strstr(out, "\t  min=1, max=10\n"));
	ck_assert_ptr_nonnull(strstr(out, "Request Latencies percentiles"));
	ck_assert_ptr_nonnull(strstr(out, "\t  min=100, max=1000\n"));
	/* 90273 requests / 30 s */
	ck_assert_ptr_nonnull(strstr(out, "average rps: 3009.10\n"));
	ck_assert_ptr_nonnull(strstr(out, "sched delay: message 0 (usec) "
					  "worker 0 (usec)\n"));
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

/* Two hogs, A and B, on the one CPU of a bare simulation. */
static void add_two_hogs(eevdf_sim *sim)
{
	static const struct eevdf_op hog[] = {
		{ EEVDF_OP_LOOP, 0, 0, 1 },
		{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
	};
	struct eevdf_task_spec s = { .program = hog, .nr_ops = 2 };

	s.name = "A";
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 1);
	s.name = "B";
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 2);
}

/*
 * schbench's periodic reports (-i 1 -r 2), worked by hand.
 *
 * Tasks: two hogs on one CPU at HZ 1000 with no costs (a bare simulation)
 * alternate at every tick, A first (check_sim.c's
 * perf_sched_latency_delays_count_preemption_waits): A runs in the even
 * milliseconds, B in the odd ones, and each waits 1 ms between turns.  A
 * snapshot at T comes after the tick of T, so at T = 1000 ms A has just
 * been switched in for the 501st time (0, 2, .., 1000) after 500 waits of
 * 1 ms, and B has had 500 turns (1, 3, .., 999) after 500 waits of 1 ms
 * (the first from its creation at 0 to 1 ms; the one begun at 1000 is 0
 * long yet).  sched delay is run_delay / pcount in us, truncated:
 *	1 s: A 500 ms / 501 = 998003 ns -> 998, B 500 ms / 500 -> 1000
 *	2 s: A 1000 ms / 1001 = 999000 ns -> 999, B 1000 ms / 1000 -> 1000
 *
 * Metrics, set by hand between runs: wakeup 7 and request 20 with 3
 * requests before 1 s, wakeup 9 and request 30 with 4 more before 2 s.
 * The rate samples requests every second: 3, then 4 (per second, as the
 * period is 1 s), and the rate is added after the snapshots are set up,
 * so its sample of each second is queued behind the snapshot's first
 * firing: the snapshot sees it only because it queues itself again.
 *
 * Percentiles over schbench's list {20, 50, 90, 99, 99.9}: p is the first
 * value whose cumulative count c has c * 1000 >= p * N (exact buckets
 * below 512), and "(N samples)" is c minus the previous entry's c.
 *	{7}:	every p gives 7 at c = 1: 20th 1 sample, the others 0
 *	{7, 9}:	20th and 50th give 7 (c = 1, since 1000 >= 500 * 2), 90th,
 *		99th and 99.9th 9 (c = 2): 90th 1 sample, 99th, 99.9th 0
 *	{3}, {3, 4} (RPS: 20th, 50th, 90th): likewise
 * current rps is the last sample; average rps 7 requests / 2 s = 3.50.
 */
START_TEST(schbench_interval_reports_worked_by_hand)
{
	eevdf_sim *sim = bare_sim();
	int wake = eevdf__sim_add_metric(sim, "wakeup", MET_HIST,
					 EEVDF_HIST_FIO_PLAT8, false, false,
					 true);
	int req = eevdf__sim_add_metric(sim, "request", MET_HIST,
					EEVDF_HIST_FIO_PLAT8, false, false,
					true);
	int reqs = eevdf__sim_add_metric(sim, "requests", MET_COUNTER,
					 EEVDF_HIST_EXACT, false, false, false);
	static const char *const kv[] = {
		"runtime", "2", "message_tasks", "A", "worker_tasks", "B", NULL
	};
	const struct metric_snaps *snaps;
	char *out;

	add_two_hogs(sim);
	ck_assert_int_eq(
		eevdf__metrics_snapshot_every(sim, 1000 * MS, 2000 * MS), 0);
	ck_assert_int_ge(eevdf__sim_add_rate(sim, "rps", (u32)reqs, 1000 * MS,
					     EEVDF_HIST_FIO_PLAT8, true),
			 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 500 * MS), 0);
	eevdf__metric_record(sim, (u32)wake, NULL, 0, 7);
	eevdf__metric_record(sim, (u32)req, NULL, 0, 20);
	eevdf__metric_count(sim, (u32)reqs, NULL, 3);
	ck_assert_int_eq(eevdf_sim_run(sim, 1500 * MS), 0);
	eevdf__metric_record(sim, (u32)wake, NULL, 0, 9);
	eevdf__metric_record(sim, (u32)req, NULL, 0, 30);
	eevdf__metric_count(sim, (u32)reqs, NULL, 4);
	ck_assert_int_eq(eevdf_sim_run(sim, 2000 * MS), 0);

	snaps = eevdf__metric_snaps(sim);
	ck_assert_ptr_nonnull(snaps);
	ck_assert_uint_eq(snaps->nr, 2);
	ck_assert_int_eq(snaps->v[0].at, 1000 * MS);
	ck_assert_int_eq(snaps->v[1].at, 2000 * MS);
	/* A at 1 s: 500 waits of 1 ms over 501 switch-ins */
	ck_assert_uint_eq(snaps->v[0].tasks[0].wait_ns, 500 * MS);
	ck_assert_uint_eq(snaps->v[0].tasks[0].delay_count, 501);
	ck_assert_uint_eq(snaps->v[1].tasks[1].wait_ns, 1000 * MS);
	ck_assert_uint_eq(snaps->v[1].tasks[1].delay_count, 1000);
	ck_assert_int_eq(snaps->v[0].cells[reqs].value, 3);
	ck_assert_int_eq(snaps->v[1].cells[reqs].value, 7);

	out = report(sim, "schbench", kv);
	ck_assert_str_eq(
		out,
		"Wakeup Latencies percentiles (usec) runtime 1 (s) (1 total "
		"samples)\n"
		"\t  50.0th: 7          (0 samples)\n"
		"\t  90.0th: 7          (0 samples)\n"
		"\t* 99.0th: 7          (0 samples)\n"
		"\t  99.9th: 7          (0 samples)\n"
		"\t  min=7, max=7\n"
		"Request Latencies percentiles (usec) runtime 1 (s) (1 total "
		"samples)\n"
		"\t  50.0th: 20         (0 samples)\n"
		"\t  90.0th: 20         (0 samples)\n"
		"\t* 99.0th: 20         (0 samples)\n"
		"\t  99.9th: 20         (0 samples)\n"
		"\t  min=20, max=20\n"
		"RPS percentiles (requests) runtime 1 (s) (1 total samples)\n"
		"\t  20.0th: 3          (1 samples)\n"
		"\t* 50.0th: 3          (0 samples)\n"
		"\t  90.0th: 3          (0 samples)\n"
		"\t  min=3, max=3\n"
		"sched delay: message 998 (usec) worker 1000 (usec)\n"
		"current rps: 3.00\n"
		"Wakeup Latencies percentiles (usec) runtime 2 (s) (2 total "
		"samples)\n"
		"\t  50.0th: 7          (0 samples)\n"
		"\t  90.0th: 9          (1 samples)\n"
		"\t* 99.0th: 9          (0 samples)\n"
		"\t  99.9th: 9          (0 samples)\n"
		"\t  min=7, max=9\n"
		"Request Latencies percentiles (usec) runtime 2 (s) (2 total "
		"samples)\n"
		"\t  50.0th: 20         (0 samples)\n"
		"\t  90.0th: 30         (1 samples)\n"
		"\t* 99.0th: 30         (0 samples)\n"
		"\t  99.9th: 30         (0 samples)\n"
		"\t  min=20, max=30\n"
		"RPS percentiles (requests) runtime 2 (s) (2 total samples)\n"
		"\t  20.0th: 3          (1 samples)\n"
		"\t* 50.0th: 3          (0 samples)\n"
		"\t  90.0th: 4          (1 samples)\n"
		"\t  min=3, max=4\n"
		"sched delay: message 999 (usec) worker 1000 (usec)\n"
		"current rps: 4.00\n"
		/* the final report, as without interval reports */
		"Wakeup Latencies percentiles (usec) runtime 2 (s) (2 total "
		"samples)\n"
		"\t  50.0th: 7          (0 samples)\n"
		"\t  90.0th: 9          (1 samples)\n"
		"\t* 99.0th: 9          (0 samples)\n"
		"\t  99.9th: 9          (0 samples)\n"
		"\t  min=7, max=9\n"
		"Request Latencies percentiles (usec) runtime 2 (s) (2 total "
		"samples)\n"
		"\t  50.0th: 20         (0 samples)\n"
		"\t  90.0th: 30         (1 samples)\n"
		"\t* 99.0th: 30         (0 samples)\n"
		"\t  99.9th: 30         (0 samples)\n"
		"\t  min=20, max=30\n"
		"RPS percentiles (requests) runtime 2 (s) (2 total samples)\n"
		"\t  20.0th: 3          (1 samples)\n"
		"\t* 50.0th: 3          (0 samples)\n"
		"\t  90.0th: 4          (1 samples)\n"
		"\t  min=3, max=4\n"
		"average rps: 3.50\n"
		"sched delay: message 999 (usec) worker 1000 (usec)\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Without a rate, current rps is the requests of the interval per
 * second: 5 by 500 ms, 6 more by 1000 ms -> 10.00, then 12.00.  A
 * metric with no sample by the first snapshot prints schbench's empty
 * block, all zeros.  Snapshots stop at the workload's length: none at
 * 1500 ms for a length of 1400 ms.
 */
START_TEST(schbench_interval_reports_without_a_rate)
{
	eevdf_sim *sim = bare_sim();
	int wake = eevdf__sim_add_metric(sim, "wakeup", MET_HIST,
					 EEVDF_HIST_FIO_PLAT8, false, false,
					 true);
	int reqs;
	static const char *const kv[] = { "runtime", "1", NULL };
	const struct metric_snaps *snaps;
	char *out;

	ck_assert_int_ge(eevdf__sim_add_metric(sim, "request", MET_HIST,
					       EEVDF_HIST_FIO_PLAT8, false,
					       false, true),
			 0);
	reqs = eevdf__sim_add_metric(sim, "requests", MET_COUNTER,
				     EEVDF_HIST_EXACT, false, false, false);
	add_two_hogs(sim);
	ck_assert_int_eq(
		eevdf__metrics_snapshot_every(sim, 500 * MS, 1400 * MS), 0);
	/* asked twice, or without a period: refused */
	ck_assert_int_eq(eevdf__metrics_snapshot_every(sim, 500 * MS,
						       1400 * MS),
			 EEVDF_EINVAL);
	eevdf__metric_count(sim, (u32)reqs, NULL, 5);
	ck_assert_int_eq(eevdf_sim_run(sim, 700 * MS), 0);
	eevdf__metric_record(sim, (u32)wake, NULL, 0, 3);
	eevdf__metric_count(sim, (u32)reqs, NULL, 6);
	ck_assert_int_eq(eevdf_sim_run(sim, 2000 * MS), 0);
	snaps = eevdf__metric_snaps(sim);
	ck_assert_uint_eq(snaps->nr, 2);
	out = report(sim, "schbench", kv);
	ck_assert_ptr_nonnull(strstr(out,
				     "Wakeup Latencies percentiles "
				     "(usec) runtime 0 (s) (0 total "
				     "samples)\n"
				     "\t  50.0th: 0          (0 samples)\n"));
	ck_assert_ptr_nonnull(strstr(out, "current rps: 10.00\n"
					  "Wakeup Latencies percentiles "
					  "(usec) runtime 1 (s) (1 total "
					  "samples)\n"));
	ck_assert_ptr_nonnull(strstr(out, "current rps: 12.00\n"
					  "Wakeup Latencies percentiles "
					  "(usec) runtime 1 (s) (1 total "
					  "samples)\n"));
	ck_assert_ptr_null(strstr(out, "RPS percentiles"));
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(cyclictest_blogbench_unixbench_starve_and_stress_ng_lines)
{
	eevdf_sim *sim = bare_sim();
	int lat = eevdf__sim_add_metric(sim, "lat", MET_HIST, EEVDF_HIST_EXACT,
					true, false, false);
	int w = eevdf__sim_add_metric(sim, "blogs_written", MET_COUNTER,
				      EEVDF_HIST_EXACT, false, false, false);
	int r = eevdf__sim_add_metric(sim, "blogs_read", MET_COUNTER,
				      EEVDF_HIST_EXACT, false, false, false);
	int it = eevdf__sim_add_metric(sim, "iter", MET_COUNTER,
				       EEVDF_HIST_EXACT, false, false, false);
	int ops = eevdf__sim_add_metric(sim, "bogo_ops", MET_COUNTER,
					EEVDF_HIST_EXACT, false, false, false);
	static const char *const none[] = { NULL };
	static const char *const futex[] = { "stressor", "futex", NULL };
	static const char *const sig[] = { "signals", "1000", NULL };
	char *out;

	/* thread 0: samples 6, 728, 492 us: min 6, act 492 (the last),
	 * avg floor(1226 / 3) = 408, max 728 */
	eevdf__metric_record(sim, (u32)lat, NULL, 0, 6);
	eevdf__metric_record(sim, (u32)lat, NULL, 0, 728);
	eevdf__metric_record(sim, (u32)lat, NULL, 0, 492);
	out = report(sim, "cyclictest", none);
	ck_assert_str_eq(out, "T: 0 (    0) P: 0 I:1000 C:      3 "
			      "Min:      6 Act:  492 Avg:  408 Max:     728\n");
	free(out);
	eevdf__metric_count(sim, (u32)w, NULL, 256);
	eevdf__metric_count(sim, (u32)r, NULL, 123456);
	out = report(sim, "blogbench", none);
	ck_assert_str_eq(out, "\nFinal score for writes:           256\n"
			      "Final score for reads :        123456\n");
	free(out);
	/* 300000 iterations in 30 s: 10000.0 lps */
	sim->sched.now = 30000 * MS;
	eevdf__metric_count(sim, (u32)it, NULL, 300000);
	out = report(sim, "unixbench", none);
	/* "%-40s %12.1f %-5s": 24 + 1 + 5 spaces after the label */
	ck_assert_str_eq(out, "Process Creation"
			      "                        "
			      " "
			      "     "
			      "10000.0 lps   (30.0 s, 1 samples)\n");
	free(out);
	/* 24.4 s of run: real 0m24.400s */
	sim->sched.now = 24400 * MS;
	out = report(sim, "starve", sig);
	ck_assert_str_eq(out, "expecting to receive 1000 signals\n\n"
			      "real\t0m24.400s\n");
	free(out);
	sim->sched.now = 15000 * MS;
	eevdf__metric_count(sim, (u32)ops, NULL, 1234567);
	out = report(sim, "stress-ng", futex);
	/* "%-13s %9lld %9.2f": 8 + 1 + 2 spaces after the name */
	ck_assert_ptr_nonnull(strstr(out, "stress-ng: metrc: [1] futex"
					  "           1234567     15.00"));
	/* no task ran: 1234567 / 15 s = 82304.47 per s */
	ck_assert_ptr_nonnull(strstr(out, "82304.47"));
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(video_prints_frames_drops_and_lateness)
{
	eevdf_sim *sim = bare_sim();
	int late = eevdf__sim_add_metric(sim, "frame_late", MET_HIST,
					 EEVDF_HIST_FIO_PLAT8, false, false,
					 false);
	int frames = eevdf__sim_add_metric(sim, "frames", MET_COUNTER,
					   EEVDF_HIST_EXACT, false, false,
					   false);
	int dropped = eevdf__sim_add_metric(sim, "dropped", MET_COUNTER,
					    EEVDF_HIST_EXACT, false, false,
					    false);
	static const char *const kv[] = { "fps", "60", NULL };
	char *out;

	/* 100 frames late by 1..100 us: p50 50, p90 90, p99 99, p99.9 100 */
	for (int v = 1; v <= 100; v++)
		eevdf__metric_record(sim, (u32)late, NULL, 0, v);
	eevdf__metric_count(sim, (u32)frames, NULL, 100);
	eevdf__metric_count(sim, (u32)dropped, NULL, 2);
	out = report(sim, "video", kv);
	ck_assert_str_eq(out, "frames: 100 at 60 fps, dropped: 2\n"
			      "lateness (usec): p50 50  p90 90  p99 99  "
			      "p99.9 100  max 100\n");
	free(out);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(report_errors_name_the_problem)
{
	eevdf_sim *sim = bare_sim();
	char err[256] = "";
	char *out = (char *)1;

	ck_assert_int_eq(eevdf_report(sim, "nope", NULL, NULL, &out, err,
				      sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(out);
	ck_assert_ptr_nonnull(strstr(err, "'nope'"));
	ck_assert_ptr_nonnull(strstr(err, "schbench"));
	ck_assert_int_eq(eevdf_report(sim, "dbench", NULL, NULL, &out, err,
				      sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "'bytes'"));
	ck_assert(eevdf_report_known("tbench"));
	ck_assert(!eevdf_report_known("tbench2"));
	eevdf_sim_free(sim);
}
END_TEST

/* The headline numbers are the figures the report prints. */
static size_t heads(eevdf_sim *sim, const char *fmt, const char *const *kv,
		    struct eevdf_headline *h)
{
	struct opts o = { kv };
	char err[256] = "";
	size_t n = 99;
	int ret = eevdf_report_headlines(sim, fmt, get, &o, h,
					 EEVDF_HEADLINES_MAX, &n, err,
					 sizeof(err));

	ck_assert_msg(ret == 0, "%s: %s", fmt, err);
	return n;
}

START_TEST(headlines_are_the_printed_figures)
{
	eevdf_sim *sim = bare_sim();
	int t = eevdf__sim_add_metric(sim, "time", MET_VALUE, EEVDF_HIST_EXACT,
				      false, false, false);
	int loops = eevdf__sim_add_metric(sim, "loops", MET_VALUE,
					  EEVDF_HIST_EXACT, true, false, false);
	static const char *const kv[] = { "loops", "1000000", NULL };
	struct eevdf_headline h[EEVDF_HEADLINES_MAX];
	char *json = NULL;

	/* hackbench: Time 2.790 (truncated ms), lower is better */
	eevdf__metric_record(sim, (u32)t, NULL, 0, 2790614000LL);
	ck_assert_uint_eq(heads(sim, "hackbench", kv, h), 1);
	ck_assert_str_eq(h[0].name, "time_s");
	ck_assert_str_eq(h[0].unit, "s");
	ck_assert_int_eq(h[0].better, -1);
	ck_assert_double_eq_tol(h[0].value, 2.790, 1e-12);
	/* pipe: 2.790614 us/op and 358344 ops/s */
	ck_assert_uint_eq(heads(sim, "perf-bench-sched-pipe", kv, h), 2);
	ck_assert_str_eq(h[0].name, "usecs_per_op");
	ck_assert_double_eq_tol(h[0].value, 2.790614, 1e-9);
	ck_assert_str_eq(h[1].name, "ops_per_sec");
	ck_assert_int_eq(h[1].better, +1);
	ck_assert_double_eq(h[1].value, 358344);
	/* massive_intr: 987 + 1234 loops, min 987, spread 247 */
	eevdf__metric_record(sim, (u32)loops, NULL, 3, 1234);
	eevdf__metric_record(sim, (u32)loops, NULL, 2, 987);
	ck_assert_uint_eq(heads(sim, "massive_intr", kv, h), 3);
	ck_assert_str_eq(h[0].name, "loops_total");
	ck_assert_double_eq(h[0].value, 2221);
	ck_assert_double_eq(h[1].value, 987);
	ck_assert_str_eq(h[2].name, "loops_spread");
	ck_assert_double_eq(h[2].value, 247);
	ck_assert_int_eq(h[2].better, -1);

	/* in the results JSON they follow the built-in summary keys */
	ck_assert_int_eq(eevdf_sim_results_json_headlines(sim, h, 3, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"context_switches\":"));
	ck_assert_ptr_nonnull(strstr(json, "\"loops_total\":\t2221,"));
	ck_assert_ptr_nonnull(strstr(json, "\"loops_spread\":\t247\n"));
	ck_assert(strstr(json, "\"context_switches\":") <
		  strstr(json, "\"loops_total\":"));
	free(json);
	/* a name the summary already has, or a non-finite value: refused */
	h[0].name = "nr_tasks";
	ck_assert_int_eq(eevdf_sim_results_json_headlines(sim, h, 1, &json),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(json);
	h[0].name = "x";
	h[0].value = HUGE_VAL;
	ck_assert_int_eq(eevdf_sim_results_json_headlines(sim, h, 1, &json),
			 EEVDF_EINVAL);
	/* an unknown format: an error and no headlines */
	{
		size_t n = 5;
		char err[128] = "";

		ck_assert_int_eq(eevdf_report_headlines(sim, "nope", NULL, NULL,
							h, 8, &n, err,
							sizeof(err)),
				 EEVDF_EINVAL);
		ck_assert_uint_eq(n, 0);
		ck_assert_ptr_nonnull(strstr(err, "nope"));
	}
	eevdf_sim_free(sim);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, hackbench_prints_its_three_lines);
	tcase_add_test(tc, pipe_prints_usecs_per_op_and_ops_per_sec);
	tcase_add_test(tc, dbench_prints_ops_and_throughput);
	tcase_add_test(tc, massive_intr_prints_counts_by_pid);
	tcase_add_test(tc, schbench_prints_blocks_average_rps_and_sched_delay);
	tcase_add_test(tc, schbench_interval_reports_worked_by_hand);
	tcase_add_test(tc, schbench_interval_reports_without_a_rate);
	tcase_add_test(
		tc, cyclictest_blogbench_unixbench_starve_and_stress_ng_lines);
	tcase_add_test(tc, video_prints_frames_drops_and_lateness);
	tcase_add_test(tc, report_errors_name_the_problem);
	tcase_add_test(tc, headlines_are_the_printed_figures);
	suite_add_tcase(s, tc);
	return s;
}
