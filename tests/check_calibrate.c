/* SPDX-License-Identifier: MIT */
/*
 * Tests of eevdf-sim calibrate's pure parts (calibrate/): the order
 * statistics, the parsers of /proc and /sys (recorded files of a Linux
 * 6.18 VM in tests/calibrate/, and a sysfs tree made here), the split of
 * measurements into cost entries and HZ (fit.c, with every expected value
 * worked out by hand from the formulas), the machine file it writes, and
 * the simulator's charging that the formulas invert.
 *
 * The benchmarks themselves measure the host and are not unit-tested:
 * .ci/run runs calibrate --quick once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "suites.h"
#include "eevdf/eevdf.h"
#include "calibrate/fit.h"
#include "calibrate/host.h"
#include "calibrate/hostinfo.h"
#include "calibrate/machine_out.h"
#include "calibrate/model_check.h"
#include "calibrate/series.h"
#include "calibrate/simrun.h"
#include "calibrate/stats.h"

/* Order statistics ------------------------------------------------------ */

START_TEST(quartiles_interpolate_between_order_statistics)
{
	double v[] = { 4, 1, 3, 2 };
	struct cal_stat st;

	/*
	 * Sorted 1 2 3 4, n = 4: the median at (n - 1) 0.5 = 1.5, half
	 * way between 2 and 3: 2.5; q1 at 0.75: 1 + 0.75 = 1.75; q3 at
	 * 2.25: 3 + 0.25 = 3.25; iqr 1.5, 60% of the median.
	 */
	cal_stat_of(v, 4, &st);
	ck_assert_uint_eq(st.n, 4);
	ck_assert(fabs(st.median - 2.5) < 1e-12);
	ck_assert(fabs(st.q1 - 1.75) < 1e-12);
	ck_assert(fabs(st.q3 - 3.25) < 1e-12);
	ck_assert(fabs(st.iqr - 1.5) < 1e-12);
	ck_assert(fabs(cal_spread_pct(&st) - 60) < 1e-9);
	ck_assert(fabs(st.mean - 2.5) < 1e-12);
	ck_assert(st.min == 1 && st.max == 4);
	/* one sample: every quantile is it, no spread */
	v[0] = 7;
	cal_stat_of(v, 1, &st);
	ck_assert(st.median == 7 && st.iqr == 0 && cal_spread_pct(&st) == 0);
	/* none */
	cal_stat_of(v, 0, &st);
	ck_assert(st.median == 0 && st.n == 0);
}
END_TEST

START_TEST(nearest_rank_percentiles_are_the_simulators)
{
	int64_t v[10];
	static const int64_t three[] = { 10, 20, 30 };
	struct cal_simrun r = { 0 };
	eevdf_machine *m = NULL;
	cJSON *res = NULL;
	char err[512];
	double p;

	/* 1..10: p50 is the 5th (5 * 1000 >= 500 * 10), p90 the 9th,
	 * p99 the 10th (9 * 1000 < 9900), p100 the 10th */
	for (int i = 0; i < 10; i++)
		v[i] = 10 - i;
	cal_sort_i64(v, 10);
	ck_assert_int_eq(cal_rank(v, 10, 500), 5);
	ck_assert_int_eq(cal_rank(v, 10, 900), 9);
	ck_assert_int_eq(cal_rank(v, 10, 990), 10);
	ck_assert_int_eq(cal_rank(v, 10, 1000), 10);
	/* 3 samples: p50 needs 1500 <= (i + 1) 1000: the 2nd */
	ck_assert_int_eq(cal_rank(three, 3, 500), 20);
	ck_assert_int_eq(cal_rank(three, 0, 500), 0);

	/* the simulator's histograms take the same ranks of 1..10 */
	ck_assert_int_eq(eevdf_machine_new_flat(1, &m, NULL, 0), 0);
	r.machine = m;
	ck_assert_msg(
		cal_sim_run(&r, "ranks",
			    "{\"format\":\"eevdf-sim-workload/1\","
			    "\"duration\":\"1s\",\"tasks\":[{\"name\":\"t\","
			    "\"program\":[{\"loop\":{\"var\":\"@i\","
			    "\"count\":10,\"body\":[{\"record\":{\"metric\":"
			    "\"h\",\"value\":\"10 - @i\"}}]}}]}],"
			    "\"metrics\":{\"h\":{\"type\":\"hist\","
			    "\"quantizer\":\"exact\"}}}",
			    NULL, 0, &res, err, sizeof(err)) == 0,
		"%s", err);
	ck_assert(cal_results_metric(res, "h", "p50", &p) && p == 5);
	ck_assert(cal_results_metric(res, "h", "p90", &p) && p == 9);
	ck_assert(cal_results_metric(res, "h", "p99", &p) && p == 10);
	cJSON_Delete(res);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(series_keep_their_samples_by_name)
{
	struct cal_set set;
	struct cal_series *a;

	memset(&set, 0, sizeof(set));
	a = cal_series_get(&set, "a", "ns");
	/* many series: the first stays where it was */
	for (int i = 0; i < 100; i++) {
		char name[16];

		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_ptr_nonnull(cal_series_get(&set, name, "ns"));
	}
	ck_assert_ptr_eq(cal_series_get(&set, "a", "ns"), a);
	for (int i = 0; i < 1000; i++)
		ck_assert(cal_series_add(&set, a, i));
	cal_series_method(a, "%d samples", 1000);
	ck_assert_str_eq(a->method, "1000 samples");
	/* a series without samples is not found */
	ck_assert_ptr_null(cal_set_find(&set, "s3"));
	ck_assert_ptr_eq(cal_set_find(&set, "a"), a);
	cal_set_finish(&set);
	/* 0..999: the median at 499.5 */
	ck_assert(fabs(a->st.median - 499.5) < 1e-9);
	cal_set_free(&set);
}
END_TEST

/* The host's files ------------------------------------------------------- */

/* A recorded file of tests/calibrate/ (the tests run from the root). */
static char *fixture(const char *name)
{
	char path[256], *s;

	snprintf(path, sizeof(path), "tests/calibrate/%s", name);
	s = cal_read_text(path);
	ck_assert_msg(s != NULL, "%s: %s", path, strerror(errno));
	return s;
}

START_TEST(cpu_lists_are_read_as_sysfs_writes_them)
{
	int c[16];

	ck_assert_int_eq(cal_parse_cpulist("0-3,8,10-11\n", c, 16), 7);
	ck_assert(c[0] == 0 && c[3] == 3 && c[4] == 8 && c[6] == 11);
	ck_assert_int_eq(cal_parse_cpulist("1", c, 16), 1);
	ck_assert_int_eq(c[0], 1);
	/* an empty list (no CPU) */
	ck_assert_int_eq(cal_parse_cpulist("\n", c, 16), 0);
	/* what sysfs never writes */
	ck_assert_int_eq(cal_parse_cpulist("3-1", c, 16), -1);
	ck_assert_int_eq(cal_parse_cpulist("0-3,2", c, 16), -1);
	ck_assert_int_eq(cal_parse_cpulist("1,0", c, 16), -1);
	ck_assert_int_eq(cal_parse_cpulist("0,", c, 16), -1);
	ck_assert_int_eq(cal_parse_cpulist("a", c, 16), -1);
	ck_assert_int_eq(cal_parse_cpulist("0-20", c, 16), -1); /* room */
	ck_assert_int_eq(cal_cpulist_first("4-7,12"), 4);
	ck_assert_int_eq(cal_cpulist_first(""), -1);
}
END_TEST

START_TEST(proc_files_give_the_slice_hz_and_times)
{
	char *sched = fixture("proc-self-sched.txt");
	char *stat = fixture("proc-stat.txt");
	struct cal_cpu_times t;
	int64_t v = 0;
	char num[32];

	/* a 2-vCPU 6.18 VM: 0.70 ms x (1 + ilog2(2)) */
	ck_assert(cal_parse_sched_field(sched, "se.slice", &v));
	ck_assert_int_eq(v, 1400000);
	ck_assert(cal_parse_sched_field(sched, "prio", &v));
	ck_assert_int_eq(v, 120);
	/* times in ms with six decimals */
	ck_assert(cal_parse_sched_ns(sched, "se.exec_start", &v));
	ck_assert_int_eq(v, INT64_C(1503865572586));
	ck_assert(cal_parse_sched_ns(sched, "se.sum_exec_runtime", &v));
	ck_assert_int_eq(v, 0);
	ck_assert(!cal_parse_sched_ns(sched, "se.slice", &v));
	ck_assert(!cal_parse_sched_ns("x : 1.5\n", "x", &v));
	/* not an integer, a prefix of another name, absent */
	ck_assert(!cal_parse_sched_field(sched, "se.vruntime", &v));
	ck_assert(!cal_parse_sched_field(sched, "se.avg", &v));
	ck_assert(!cal_parse_sched_field(sched, "se.slices", &v));
	/* cpu1 37758 30773 7895 72813 637 0 155 1176: busy = user + nice
	 * + system + irq + softirq = 37758 + 30773 + 7895 + 0 + 155 =
	 * 76581, idle + iowait = 73450, steal 1176 */
	ck_assert(cal_parse_stat_cpu(stat, 1, &t));
	ck_assert_uint_eq(t.busy, 76581);
	ck_assert_uint_eq(t.idle, 73450);
	ck_assert_uint_eq(t.steal, 1176);
	ck_assert(!cal_parse_stat_cpu(stat, 2, &t));
	ck_assert_int_eq(cal_parse_config_hz(
				 "# CONFIG_HZ_100 is not set\n"
				 "CONFIG_HZ_250=y\nCONFIG_HZ=250\n"),
			 250);
	ck_assert_int_eq(cal_parse_config_hz("CONFIG_HZ_1000=y\n"), 0);
	cal_release_number("6.18.44-fc-v1045", num, sizeof(num));
	ck_assert_str_eq(num, "6.18.44");
	cal_release_number("6.19.", num, sizeof(num));
	ck_assert_str_eq(num, "6.19");
	free(sched);
	free(stat);
}
END_TEST

/* Write text to root/rel, making its directories. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void rm_tree(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * A sysfs tree: CPUs 0-3, two cores of two threads numbered as x86 does
 * (siblings 0,2 and 1,3), one L3 over all.
 */
static void smt_tree(const char *root)
{
	char rel[160], s[32];

	put(root, "sys/devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/"
			 "thread_siblings_list",
			 c);
		snprintf(s, sizeof(s), "%d,%d\n", c % 2, c % 2 + 2);
		put(root, rel, s);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/"
			 "physical_package_id",
			 c);
		put(root, rel, "0\n");
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index2/level", c);
		put(root, rel, "2\n");
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index2/"
			 "shared_cpu_list",
			 c);
		put(root, rel, s);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index3/level", c);
		put(root, rel, "3\n");
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index3/"
			 "shared_cpu_list",
			 c);
		put(root, rel, "0-3\n");
	}
}

START_TEST(the_topology_is_read_from_sysfs)
{
	char root[] = "/tmp/eevdf-sysfs-XXXXXX";
	struct eevdf_machine_spec spec;
	struct eevdf_cpu_desc *cpus = NULL;
	struct cal_topo t;
	int cores, llcs, pkgs, threads;
	bool regular;

	ck_assert_ptr_nonnull(mkdtemp(root));
	smt_tree(root);
	ck_assert_msg(cal_topo_read(root, &t) == 0, "%s", t.why);
	ck_assert_int_eq(t.nr, 4);
	/* the LLC is the highest level: L3, shared by all */
	ck_assert_int_eq(t.llc_level, 3);
	ck_assert_int_eq(t.cpu[0].core, 0);
	ck_assert_int_eq(t.cpu[1].core, 1);
	ck_assert_int_eq(t.cpu[2].core, 0);
	ck_assert_int_eq(t.cpu[3].core, 1);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(t.cpu[i].llc, 0);
	cal_topo_counts(&t, &cores, &llcs, &pkgs, &threads);
	ck_assert(cores == 2 && llcs == 1 && pkgs == 1 && threads == 2);
	/* a regular machine, siblings a core count apart: split */
	ck_assert_int_eq(cal_topo_spec(&t, &spec, &cpus, &regular), 0);
	ck_assert(regular);
	ck_assert_ptr_null(cpus);
	ck_assert(spec.packages == 1 && spec.llcs_per_package == 1 &&
		  spec.cores_per_llc == 2 && spec.threads_per_core == 2 &&
		  spec.numbering == EEVDF_SMT_SPLIT);
	cal_topo_free(&t);

	/* CPU 1 offline, no cache information: one LLC per package */
	rm_tree(root);
	strcpy(root, "/tmp/eevdf-sysfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "sys/devices/system/cpu/online", "0,2-3\n");
	put(root, "sys/devices/system/cpu/cpu0/topology/physical_package_id",
	    "0\n");
	put(root, "sys/devices/system/cpu/cpu2/topology/physical_package_id",
	    "1\n");
	put(root, "sys/devices/system/cpu/cpu3/topology/physical_package_id",
	    "1\n");
	ck_assert_int_eq(cal_topo_read(root, &t), 0);
	ck_assert_int_eq(t.nr, 3);
	ck_assert_ptr_nonnull(strstr(t.why, "one LLC per package assumed"));
	ck_assert_int_eq(t.cpu[1].cpu, 2);
	ck_assert_int_eq(t.cpu[1].llc, t.cpu[2].llc);
	ck_assert_int_ne(t.cpu[0].llc, t.cpu[1].llc);
	/* 1 core in package 0, 2 in package 1: not regular */
	ck_assert_int_eq(cal_topo_spec(&t, &spec, &cpus, &regular), 0);
	ck_assert(!regular);
	ck_assert_ptr_nonnull(cpus);
	ck_assert_uint_eq(spec.nr_cpus, 3);
	free(cpus);
	cal_topo_free(&t);
	rm_tree(root);

	/* no tree at all */
	ck_assert_int_eq(cal_topo_read("/nonexistent-root", &t), -1);
	ck_assert_ptr_nonnull(strstr(t.why, "cannot read"));
}
END_TEST

/* The fit ------------------------------------------------------------------ */

/* A series of one sample: its median is the value, its IQR 0. */
static void one(struct cal_set *set, const char *name, double v)
{
	struct cal_series *s = cal_series_get(set, name, "ns");

	cal_series_method(s, "recorded");
	ck_assert(cal_series_add(set, s, v));
}

/* Recorded medians (rounded) of a calibrate --quick on the 2-vCPU VM. */
static void recorded(struct cal_set *set)
{
	memset(set, 0, sizeof(*set));
	one(set, "clock_read", 29);
	one(set, "syscall_getppid", 100);
	one(set, "sleep_cycle_cpu", 30000);
	one(set, "pipe_write_nowake", 250);
	one(set, "pipe_read_ready", 250);
	one(set, "unix_write_nowake", 700);
	one(set, "unix_read_ready", 730);
	one(set, "futex_wake_nowaiter", 150);
	one(set, "futex_wait_eagain", 230);
	one(set, "yield_pair_thread", 700);
	one(set, "yield_pair_thread_switches", 1.0);
	one(set, "yield_pair_process", 900);
	one(set, "yield_pair_process_switches", 1.0);
	one(set, "pipe_rt_same_cpu", 2600);
	one(set, "pipe_rt_same_cpu_switches", 2.0);
	one(set, "pipe_rt_same_cpu_blocks", 1.2);
	one(set, "timer_wakeup_idle", 50000);
	one(set, "pipe_write_wake_idle", 18250);
	one(set, "pipe_oneway_busy", 30850);
	one(set, "fork_parent", 70000);
	one(set, "wait_reap_zombie", 2000);
	one(set, "fork_cycle", 220000);
	one(set, "cacheline_llc", 100);
}

static int64_t cost(const struct cal_fit *fit, const char *name)
{
	const struct cal_cost *c = cal_fit_find(fit, name);

	ck_assert_msg(c != NULL, "no %s", name);
	return c->value;
}

START_TEST(measurements_split_into_the_models_entries)
{
	struct cal_set set;
	struct cal_fit fit;
	char err[512];

	recorded(&set);
	cal_set_finish(&set);
	ck_assert_msg(cal_fit_costs(&set, &fit, false, NULL, err,
				    sizeof(err)) == 0,
		      "%s", err);
	/* one call each: the median */
	ck_assert_int_eq(cost(&fit, "gettimeofday"), 29);
	ck_assert_int_eq(cost(&fit, "syscall"), 100);
	ck_assert_int_eq(cost(&fit, "pipe_write"), 250);
	ck_assert_int_eq(cost(&fit, "unix_read"), 730);
	ck_assert_int_eq(cost(&fit, "futex_wait"), 230);
	ck_assert_int_eq(cost(&fit, "fork"), 70000);
	ck_assert_int_eq(cost(&fit, "wait_reap"), 2000);
	/* a yield that switches is syscall + ctxsw: (700 - 100) / 1 */
	ck_assert_int_eq(cost(&fit, "ctxsw_thread"), 600);
	/* (900 - 100) / 1 */
	ck_assert_int_eq(cost(&fit, "ctxsw_process"), 800);
	/* a sleep cycle's charge less the switch: 30000 - 600 */
	ck_assert_int_eq(cost(&fit, "timer_arm"), 29400);
	/* (2600 - 2 x 250 - 2 x 250 - 2 x 600) / 1.2 = 400 / 1.2 = 333.3 */
	ck_assert_int_eq(cost(&fit, "ttwu_local"), 333);
	/* 50000 - 333 - 600 */
	ck_assert_int_eq(cost(&fit, "idle_exit"), 49067);
	/* 18250 - 250 */
	ck_assert_int_eq(cost(&fit, "ttwu_remote"), 18000);
	/* 30850 - 250 - 600 */
	ck_assert_int_eq(cost(&fit, "ipi"), 30000);
	/* 220000 - 70000 - 2000 - 2 x 800 */
	ck_assert_int_eq(cost(&fit, "exit"), 146400);
	/* four lines, one line */
	ck_assert_int_eq(cost(&fit, "rq_remote_llc"), 400);
	ck_assert_int_eq(cost(&fit, "sis_probe"), 100);
	/* not measured here: noted, not written */
	ck_assert_ptr_null(cal_fit_find(&fit, "smt_speed_pct"));
	ck_assert_ptr_null(cal_fit_find(&fit, "rq_remote_cross_llc"));
	ck_assert_ptr_nonnull(
		strstr(fit.notes[0], "not measured") ? fit.notes[0] : NULL);
	ck_assert_ptr_nonnull(
		strstr(cal_fit_find(&fit, "ttwu_local")->method,
		       "(2600.0 - 500 - 500 - 2.00 x 600) / 1.20"));
	cal_set_free(&set);
}
END_TEST

/*
 * The file-system entries from their benchmarks (the model's charges are
 * in fit.c's fs_costs() and held by check_io.c): one call each for
 * open, close, stat, rename, unlink, mkdir and a readdir entry; a create
 * is an open and a create: 12000 - 2000 = 10000; a page read less an
 * 8-byte read is the copy of 4088 bytes: (761 - 250) x 4096 / 4088 =
 * 511 x 4096 / 4088 = 512, and the 8-byte read less its copy is the
 * call: 250 - 8 x 512 / 4096 = 249; 8 bytes written into a cached page
 * are the call and a page's copy: 812 - 512 = 300; a new page written is
 * the call and the page: 1300 - 300 = 1000; futimens() is a system call
 * that logs the inode: 400 - 100 = 300.
 */
START_TEST(file_system_calls_split_into_the_fs_entries)
{
	struct cal_set set;
	struct cal_fit fit;
	char err[512];

	recorded(&set);
	one(&set, "fs_open_existing", 2000);
	one(&set, "fs_close_file", 400);
	one(&set, "fs_stat_existing", 900);
	one(&set, "fs_rename_over", 7000);
	one(&set, "fs_unlink_empty", 5000);
	one(&set, "fs_mkdir", 20000);
	one(&set, "fs_readdir_entry", 250);
	one(&set, "fs_create_new", 12000);
	one(&set, "fs_read_8", 250);
	one(&set, "fs_read_page", 761);
	one(&set, "fs_write_8_cached", 812);
	one(&set, "fs_write_page_new", 1300);
	one(&set, "fs_futimens", 400);
	cal_set_finish(&set);
	ck_assert_msg(cal_fit_costs(&set, &fit, false, NULL, err,
				    sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(cost(&fit, "fs_open"), 2000);
	ck_assert_int_eq(cost(&fit, "fs_close"), 400);
	ck_assert_int_eq(cost(&fit, "fs_stat"), 900);
	ck_assert_int_eq(cost(&fit, "fs_rename"), 7000);
	ck_assert_int_eq(cost(&fit, "fs_unlink"), 5000);
	ck_assert_int_eq(cost(&fit, "fs_mkdir"), 20000);
	ck_assert_int_eq(cost(&fit, "fs_readdir_entry"), 250);
	ck_assert_int_eq(cost(&fit, "fs_create"), 10000);
	ck_assert_int_eq(cost(&fit, "fs_copy_page"), 512);
	ck_assert_int_eq(cost(&fit, "fs_read_call"), 249);
	ck_assert_int_eq(cost(&fit, "fs_write_call"), 300);
	ck_assert_int_eq(cost(&fit, "fs_write_page"), 1000);
	ck_assert_int_eq(cost(&fit, "fs_dirty_inode"), 300);
	/* what no user-space call isolates stays the default */
	ck_assert_ptr_null(cal_fit_find(&fit, "fs_fsync"));
	ck_assert_ptr_null(cal_fit_find(&fit, "jbd2_commit"));
	cal_set_free(&set);

	/* without the file-system benchmarks: none of them, and a note */
	recorded(&set);
	cal_set_finish(&set);
	ck_assert_int_eq(
		cal_fit_costs(&set, &fit, false, NULL, err, sizeof(err)), 0);
	ck_assert_ptr_null(cal_fit_find(&fit, "fs_open"));
	{
		bool noted = false;

		for (size_t i = 0; i < fit.nr_notes; i++)
			noted |= strncmp(fit.notes[i], "fs_*: not measured",
					 18) == 0;
		ck_assert(noted);
	}
	cal_set_free(&set);
}
END_TEST

START_TEST(a_cost_carries_the_spread_of_its_inputs)
{
	struct cal_set set;
	struct cal_fit fit;
	const struct cal_cost *c;
	struct cal_series *s;
	char err[512];

	recorded(&set);
	/* getppid: 90 100 110 120 130 instead of 100: median 110, q1
	 * 100, q3 120: iqr 20, 18.2% of the median */
	s = cal_series_get(&set, "syscall_getppid", "ns");
	s->n = 0;
	for (int i = 0; i < 5; i++)
		cal_series_add(&set, s, 90 + 10 * i);
	cal_set_finish(&set);
	ck_assert_msg(cal_fit_costs(&set, &fit, false, NULL, err,
				    sizeof(err)) == 0,
		      "%s", err);
	c = cal_fit_find(&fit, "ctxsw_thread");
	/* (700 - 110) / 1; its IQR: |1| x 0 + |1| x 20; the fewest
	 * samples, 1 (the yield pair's); the widest spread, getppid's */
	ck_assert_int_eq(c->value, 590);
	ck_assert_int_eq(c->iqr, 20);
	ck_assert_uint_eq(c->samples, 1);
	ck_assert(fabs(c->spread_pct - 100.0 * 20 / 110) < 1e-9);
	ck_assert_str_eq(c->widest, "syscall_getppid");
	cal_set_free(&set);
}
END_TEST

START_TEST(impossible_splits_are_refused)
{
	struct cal_set set;
	struct cal_fit fit;
	char err[512] = "";

	/* a round trip shorter than its parts: ttwu_local < 0 */
	recorded(&set);
	cal_series_get(&set, "pipe_rt_same_cpu", "ns")->v[0] = 1500;
	cal_set_finish(&set);
	ck_assert_int_eq(
		cal_fit_costs(&set, &fit, false, NULL, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "ttwu_local came out negative") != NULL, "%s",
		      err);
	cal_set_free(&set);
	/* --allow-noisy keeps it, as 0, and says what was measured */
	recorded(&set);
	cal_series_get(&set, "pipe_rt_same_cpu", "ns")->v[0] = 1500;
	cal_set_finish(&set);
	{
		size_t negative = 99;
		const struct cal_cost *c;

		ck_assert_msg(cal_fit_costs(&set, &fit, true, &negative, err,
					    sizeof(err)) == 0,
			      "%s", err);
		ck_assert_uint_eq(negative, 1);
		c = cal_fit_find(&fit, "ttwu_local");
		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(c->value, 0);
		ck_assert_msg(strstr(c->method, "[noisy: came out -") != NULL &&
				      strstr(c->method,
					     " ns, written as 0 by "
					     "--allow-noisy]") != NULL,
			      "%s", c->method);
	}
	cal_set_free(&set);
	/* yields that did not switch cannot price a switch */
	recorded(&set);
	cal_series_get(&set, "yield_pair_thread_switches", "switches")->v[0] =
		0.5;
	cal_set_finish(&set);
	ck_assert_int_eq(
		cal_fit_costs(&set, &fit, false, NULL, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "only 0.50 switches per yield") != NULL, "%s",
		      err);
	cal_set_free(&set);
}
END_TEST

START_TEST(hz_is_the_slice_rounded_up_to_ticks)
{
	struct cal_series s;
	char why[300];

	memset(&s, 0, sizeof(s));
	s.st.n = 100;
	/* slice 1.4 ms: HZ 250 runs 1 tick of 4 ms, HZ 1000 2 of 1 ms,
	 * HZ 300 1 of 3.33 ms, HZ 100 1 of 10 ms */
	s.st.median = 3.95e6;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 250);
	ck_assert_ptr_nonnull(strstr(why, "ticks of HZ 250"));
	s.st.median = 1.98e6;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 1000);
	s.st.median = 3.3e6;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 300);
	s.st.median = 9.9e6;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 100);
	/* slice 2.8 ms (8 CPUs) at HZ 1000: 3 ticks */
	s.st.median = 2.97e6;
	ck_assert_int_eq(cal_fit_hz(&s, 2800000, why, sizeof(why)), 1000);
	/* 7 ms is 43% from 4 and 30% from 10: none */
	s.st.median = 7e6;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "more than 15%"));
	s.st.n = 3;
	ck_assert_int_eq(cal_fit_hz(&s, 1400000, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "too few runs"));
	ck_assert_int_eq(cal_fit_hz(NULL, 1400000, why, sizeof(why)), 0);
}
END_TEST

/* The machine file --------------------------------------------------------- */

START_TEST(the_machine_written_loads_with_its_calibration)
{
	struct cal_cpu cpus[2] = { { 0, 0, 0, 0 }, { 1, 1, 0, 0 } };
	struct cal_topo t = { .nr = 2, .cpu = cpus, .llc_level = 3 };
	struct cal_machine_info info = {
		.name = "box",
		.tool = "eevdf-sim test",
		.date = "2025-12-02",
		.kernel = "6.18.44",
		.host = "a VM",
		.hz = 250,
		.hz_samples = 120,
		.hz_method = "hogs",
		.slice_ns = 1400000,
		.slice_method = "/proc",
	};
	struct eevdf_diag d;
	struct cal_set set;
	struct cal_fit fit;
	eevdf_machine *m = NULL;
	char err[512], *text;
	cJSON *root, *c;
	uint64_t dflt;

	recorded(&set);
	cal_set_finish(&set);
	ck_assert_int_eq(
		cal_fit_costs(&set, &fit, false, NULL, err, sizeof(err)), 0);
	text = cal_machine_json(&t, &fit, &set, &info, err, sizeof(err));
	ck_assert_msg(text != NULL, "%s", err);
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(
		eevdf_machine_parse(text, strlen(text), "box.json", &m, &d), 0);
	ck_assert_str_eq(eevdf_machine_name(m), "box");
	ck_assert_int_eq(eevdf_machine_hz(m), 250);
	ck_assert_int_eq(eevdf_machine_nr_cpus(m), 2);
	ck_assert_int_eq(eevdf_machine_nr_cores(m), 2);
	ck_assert_ptr_nonnull(eevdf_machine_calibration(m));
	root = cJSON_Parse(text);
	/* two cores in one LLC: a regular topology */
	ck_assert(cJSON_IsObject(cJSON_GetObjectItem(root, "topology")));
	c = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "costs"),
				"ttwu_local");
	ck_assert(cJSON_IsNumber(c) && c->valuedouble == 333);
	c = cJSON_GetObjectItem(
		cJSON_GetObjectItem(
			cJSON_GetObjectItem(cJSON_GetObjectItem(root,
								"calibration"),
					    "costs"),
			"ttwu_local"),
		"method");
	ck_assert(cJSON_IsString(c) && strstr(c->valuestring, "per wakeup"));
	/* benchmarks keep a tenth of a ns */
	c = cJSON_GetObjectItem(
		cJSON_GetObjectItem(
			cJSON_GetObjectItem(cJSON_GetObjectItem(root,
								"calibration"),
					    "benchmarks"),
			"pipe_rt_same_cpu_blocks"),
		"median");
	ck_assert(cJSON_IsNumber(c) && c->valuedouble == 1.2);
	cJSON_Delete(root);
	/* the defaults the report sets beside the measured costs */
	ck_assert_int_eq(eevdf_cost_default("ttwu_local", &dflt), 0);
	ck_assert_uint_eq(dflt, 300);
	ck_assert_int_eq(eevdf_cost_default("smt_speed_pct", &dflt), 0);
	ck_assert_uint_eq(dflt, 62);
	ck_assert_int_eq(eevdf_cost_default("nope", &dflt), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_cost_name(0), "syscall");
	ck_assert_ptr_null(eevdf_cost_name(1000));
	free(text);
	eevdf_machine_free(m);
	cal_set_free(&set);
}
END_TEST

/* The model the formulas invert -------------------------------------------- */

/* Check workload i on a 2-CPU machine with costs, its per_op. */
static double model(int i, const char *costs)
{
	char doc[512], err[512], pa[] = "a=0", pb[] = "b=1", pn[32];
	const char *params[] = { pa, pb, pn }, *series, *what, *json;
	struct cal_simrun r = { 0 };
	struct eevdf_diag d;
	eevdf_machine *m = NULL;
	cJSON *res = NULL;
	int cpus, n;
	double v = -1;

	snprintf(doc, sizeof(doc),
		 "{\"format\":\"eevdf-sim-machine/1\",\"hz\":250,"
		 "\"topology\":{\"cores_per_llc\":2},\"costs\":{%s}}",
		 costs);
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(eevdf_machine_parse(doc, strlen(doc), "m", &m, &d), 0);
	json = cal_check_workload(i, &series, &what, &cpus, &n);
	ck_assert_ptr_nonnull(json);
	snprintf(pn, sizeof(pn), "n=%d", n);
	/* the second task on the first CPU, unless the check needs two */
	pb[2] = cpus == 2 ? '1' : '0';
	r.machine = m;
	ck_assert_msg(cal_sim_run(&r, series, json, params, 3, &res, err,
				  sizeof(err)) == 0,
		      "%s", err);
	ck_assert(cal_results_metric(res, "per_op", NULL, &v));
	cJSON_Delete(res);
	eevdf_machine_free(m);
	return v;
}

START_TEST(the_simulator_charges_what_the_formulas_invert)
{
	const char *series, *what;
	int cpus, n;

	/* yield pair: each yield is syscall + ctxsw_thread = 100 + 500 */
	ck_assert_str_eq(
		cal_check_workload(0, &series, &what, &cpus, &n) ? series : "",
		"yield_pair_thread");
	ck_assert(model(0, "\"syscall\":100,\"ctxsw_thread\":500") == 600);
	/* a timer on an idle CPU: idle_exit + ttwu_local + ctxsw_thread =
	 * 50000 + 300 + 500 */
	ck_assert_str_eq(
		cal_check_workload(3, &series, &what, &cpus, &n) ? series : "",
		"timer_wakeup_idle");
	ck_assert(model(3, "\"idle_exit\":50000,\"ttwu_local\":300,"
			   "\"ctxsw_thread\":500") == 50800);
	/* spawn + exit + join: fork + exit + wait_reap + 2 ctxsw_process =
	 * 30000 + 20000 + 5000 + 2 x 700 (ttwu_local is not charged) */
	ck_assert_str_eq(
		cal_check_workload(4, &series, &what, &cpus, &n) ? series : "",
		"fork_cycle");
	ck_assert(model(4,
			"\"fork\":30000,\"exit\":20000,\"wait_reap\":5000,"
			"\"ctxsw_process\":700,\"ttwu_local\":300") == 56400);
	ck_assert_ptr_null(
		cal_check_workload(CAL_NR_CHECKS, &series, &what, &cpus, &n));
}
END_TEST

Suite *calibrate_suite(void)
{
	Suite *s = suite_create("calibrate");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, quartiles_interpolate_between_order_statistics);
	tcase_add_test(tc, nearest_rank_percentiles_are_the_simulators);
	tcase_add_test(tc, series_keep_their_samples_by_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("host");
	tcase_add_test(tc, cpu_lists_are_read_as_sysfs_writes_them);
	tcase_add_test(tc, proc_files_give_the_slice_hz_and_times);
	tcase_add_test(tc, the_topology_is_read_from_sysfs);
	suite_add_tcase(s, tc);

	tc = tcase_create("fit");
	tcase_add_test(tc, measurements_split_into_the_models_entries);
	tcase_add_test(tc, file_system_calls_split_into_the_fs_entries);
	tcase_add_test(tc, a_cost_carries_the_spread_of_its_inputs);
	tcase_add_test(tc, impossible_splits_are_refused);
	tcase_add_test(tc, hz_is_the_slice_rounded_up_to_ticks);
	tcase_add_test(tc, the_machine_written_loads_with_its_calibration);
	tcase_add_test(tc, the_simulator_charges_what_the_formulas_invert);
	suite_add_tcase(s, tc);
	return s;
}
