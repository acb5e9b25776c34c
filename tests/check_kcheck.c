/* SPDX-License-Identifier: MIT */
/*
 * Tests of eevdf-sim kernel-check's logic (calibrate/kc_*.c, timeline.c):
 * the segments analysis, a recorded kernel's runs read back and turned
 * into figures (tests/kernel-check/recording.json: excerpts of a
 * kernel-check --quick --save-real on the 2-vCPU Linux 6.18.44 VM while
 * other processes were busy, and of the pipe's counters of a default run
 * with --boost; every figure worked out by hand below), the
 * recording's errors, the verdicts, the table as text and JSON, and the
 * simulated side of the experiments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "suites.h"
#include "eevdf/eevdf.h"
#include "calibrate/kc.h"
#include "calibrate/timeline.h"

#define REC "tests/kernel-check/recording.json"

static void seg(struct tl_task *t, int64_t a, int64_t b)
{
	ck_assert(tl_push(t, a, b));
}

START_TEST(runs_are_cut_by_the_other_tasks_only)
{
	struct tl_task t[2];
	int64_t runs[4];

	memset(t, 0, sizeof(t));
	/* A ran 0-10 and 12-20 (an interrupt between), 50-60, 100-110;
	 * B 25-45 and 65-95 */
	seg(&t[0], 0, 10);
	seg(&t[0], 12, 20);
	seg(&t[0], 50, 60);
	seg(&t[0], 100, 110);
	seg(&t[1], 25, 45);
	seg(&t[1], 65, 95);
	/* A: 10 + 8 + 10 + 10; in [5, 55): 5 + 8 + 5 */
	ck_assert_int_eq(tl_cpu(&t[0], 0, 200), 38);
	ck_assert_int_eq(tl_cpu(&t[0], 5, 55), 18);
	/* the timeline: A 0-20 | B 25-45 | A 50-60 | B 65-95 | A 100-110;
	 * the first and the last run are cut by the record: A has one
	 * whole run, 50-60, B two, 20 and 30 long */
	ck_assert_uint_eq(tl_runs(t, 2, 0, 0, 200, runs, 4), 1);
	ck_assert_int_eq(runs[0], 10);
	ck_assert_uint_eq(tl_runs(t, 2, 1, 0, 200, runs, 4), 2);
	ck_assert(runs[0] == 20 && runs[1] == 30);
	/* a window that cuts B's second run leaves it out */
	ck_assert_uint_eq(tl_runs(t, 2, 1, 0, 90, runs, 4), 1);
	/* gaps of at least 10 in [0, 200): only 110-200 (the others are
	 * 2 and 5 long) */
	ck_assert_int_eq(tl_foreign(t, 2, 0, 200, 10), 90);
	/* at least 3: also the four gaps of 5 */
	ck_assert_int_eq(tl_foreign(t, 2, 0, 200, 3), 110);
	tl_free(&t[0]);
	tl_free(&t[1]);
}
END_TEST

static struct kc_recording rec;

static const struct kc_run *rec_run(const char *name)
{
	char err[512];

	if (!rec.nr_exp)
		ck_assert_msg(kc_record_load(REC, &rec, err, sizeof(err)) == 0,
			      "%s", err);
	for (size_t i = 0; i < rec.nr_exp; i++)
		if (strcmp(rec.exp[i]->name, name) == 0)
			return &rec.run[i][0];
	ck_abort_msg("no %s in " REC, name);
	return NULL;
}

static double figure(const char *exp, enum kc_stat s, int task)
{
	const struct kc_exp *e = kc_experiment_find(exp);
	struct kc_metric m = { s, task, KC_TOL_ABS, 0 };
	double v = -1;

	ck_assert_ptr_nonnull(e);
	ck_assert_msg(kc_metric_value(e, &m, rec_run(exp), &v),
		      "%s: no figure %d", exp, (int)s);
	return v;
}

START_TEST(a_recorded_kernel_run_gives_its_figures)
{
	const struct kc_run *r = rec_run("nice-2");
	const struct kc_exp *e = kc_experiment_find("sleeper");
	struct kc_metric share = { KS_SHARE, 0, KC_TOL_ABS, 0 };
	double v;

	ck_assert_str_eq(rec.release, "6.18.44-fc-v1045");
	ck_assert(rec.cpu == 1 && rec.hz == 250 && rec.runs == 1);
	ck_assert_int_eq(rec.base_slice, 1400000);
	ck_assert_int_eq(rec.exp_timing[0].duration, 30000000);
	ck_assert_int_eq(r->from, 0);
	ck_assert_int_eq(r->to, 30000000);
	/*
	 * nice-2, 30 ms of a busy CPU.  nice0's segments: 0 (one reading
	 * at 7998544), 9047542 - 8001512 = 1046030, 11292821 - 9104537 =
	 * 2188284, 11897707 - 11300188 = 597519, 0, 27897371 - 24008652 =
	 * 3888719, 29047471 - 27942888 = 1104583, 29415707 - 29087141 =
	 * 328566: 9153701 ns.  nice5's: 14036999 - 11949754 = 2087245,
	 * 15897476 - 14079230 = 1818246: 3905491.  Share of nice5:
	 * 3905491 / 13059192 = 29.906%.
	 */
	ck_assert(fabs(figure("nice-2", KS_SHARE, 1) - 29.90607) < 1e-4);
	ck_assert(fabs(figure("nice-2", KS_SHARE, 0) - 70.09393) < 1e-4);
	/* runs: nice0 7998544-11897707 | nice5 11949754-15897476 | nice0
	 * 24005268-29415707; the outer two are cut by the record, so
	 * nice5 has one run, 3947722 ns, and nice0 none */
	ck_assert(fabs(figure("nice-2", KS_RUN_P50, 1) - 3.947722) < 1e-9);
	ck_assert(fabs(figure("nice-2", KS_RUN_MEAN, 1) - 3.947722) < 1e-9);
	/* gaps of 50 us or more in [0, 30 ms): 0-7998544, 9047542-
	 * 9104537 (56995), 11897707-11949754 (52047), 15897476-24005268
	 * (8107792), 29415707-30000000 (584293): 16799671 ns, 55.999% */
	ck_assert(fabs(kc_foreign_pct(r) - 55.998903) < 1e-5);

	/*
	 * sleeper: ten wakeup latencies, sorted 50869 72356 2071517
	 * 3295360 3685265 3698211 3702034 3704088 4873207 11738314.  p50
	 * is the 5th, p90 the 9th, p99 and max the 10th; their sum
	 * 36891221, mean 3689122.1 ns; two under 200 us: 20% prompt.
	 */
	ck_assert(fabs(figure("sleeper", KS_LAT_P50, 0) - 3685.265) < 1e-9);
	ck_assert(fabs(figure("sleeper", KS_LAT_P90, 0) - 4873.207) < 1e-9);
	ck_assert(fabs(figure("sleeper", KS_LAT_P99, 0) - 11738.314) < 1e-9);
	ck_assert(fabs(figure("sleeper", KS_LAT_MAX, 0) - 11738.314) < 1e-9);
	ck_assert(fabs(figure("sleeper", KS_LAT_MEAN, 0) - 3689.1221) < 1e-9);
	ck_assert(fabs(figure("sleeper", KS_LAT_PROMPT, 0) - 20) < 1e-9);
	/* its segments were not kept: no share */
	ck_assert(!kc_metric_value(e, &share, rec_run("sleeper"), &v));

	/*
	 * pipe (a later recording, with the session boosted), window 2000
	 * - 400 = 1600 ms: 378952 round trips; 379043 + 379043 = 758086
	 * switches, 2.000480 per round trip; of them 211093 + 216045 =
	 * 427138 blocking, 1.127156 per round trip (the woken task
	 * preempted the waker in 87% of them); 1600000 us / 378952 =
	 * 4.222171 us each; 758086 / 1.6 s = 473803.75 switches a second.
	 */
	ck_assert(fabs(figure("pipe", KS_SWITCHES_PER_RT, 0) - 2.0004803) <
		  1e-6);
	ck_assert(fabs(figure("pipe", KS_BLOCKS_PER_RT, 0) - 1.1271559) < 1e-6);
	ck_assert(fabs(figure("pipe", KS_RT, 0) - 4.2221706) < 1e-6);
	ck_assert(fabs(figure("pipe", KS_SWITCH_RATE, 0) - 473803.75) < 1e-6);
	kc_record_free(&rec);
}
END_TEST

/* Write text to a temporary file, return its path (static). */
static const char *tmp_file(const char *text)
{
	static char path[64];
	FILE *f;

	strcpy(path, "/tmp/eevdf-rec-XXXXXX");
	ck_assert_int_ge(mkstemp(path), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* A recording whose experiments part is exps. */
#define HEAD                                                                   \
	"{\"format\":\"eevdf-sim-kernel-real/1\",\"kernel\":\"6.18\","         \
	"\"cpu\":1,\"hz\":250,\"runs\":1,\"duration_ns\":1000,"                \
	"\"warmup_ns\":0,\"base_slice_ns\":1400000,\"experiments\":"
#define EXP(tasks)                                                             \
	HEAD "[{\"name\":\"nice-2\",\"duration_ns\":1000,\"warmup_ns\":0,"     \
	     "\"runs\":[{\"tasks\":[" tasks "]}]}]}"
#define TASK(name, segs)                                                       \
	"{\"name\":\"" name "\",\"segments\":[" segs "],\"latencies\":[],"     \
	"\"yields\":0,\"rts\":0,\"switches\":0,\"blocks\":0}"
#define GOOD5 TASK("nice5", "")

static void expect_bad(const char *text, const char *want)
{
	struct kc_recording r;
	char err[512] = "";
	const char *path = tmp_file(text);

	ck_assert_int_eq(kc_record_load(path, &r, err, sizeof(err)), -1);
	/* the message names the file, then the path and the reason */
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
	ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	unlink(path);
}

START_TEST(a_bad_recording_names_the_path_and_the_reason)
{
	struct kc_recording r;
	char err[512];
	const char *path = tmp_file(EXP(TASK("nice0", "1,2") "," GOOD5));

	/* the good one first */
	ck_assert_msg(kc_record_load(path, &r, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_uint_eq(r.run[0][0].task[0].tl.n, 1);
	kc_record_free(&r);
	unlink(path);

	expect_bad("[1]", "the top level must be an object");
	expect_bad("{", "not JSON");
	expect_bad("{\"format\":\"eevdf-sim-machine/1\"}",
		   "format: must be \"eevdf-sim-kernel-real/1\"");
	expect_bad(HEAD "[], \"extra\":1}", "unknown key 'extra'");
	expect_bad(HEAD "[]}",
		   "experiments: must be an array of 1 to 32 experiments");
	expect_bad("{\"format\":\"eevdf-sim-kernel-real/1\",\"kernel\":\"x\","
		   "\"cpu\":-1}",
		   "cpu: must be between 0 and 4095");
	expect_bad(HEAD "[{\"name\":\"nice-9\"}]}",
		   "experiments[0].name: unknown experiment 'nice-9'");
	expect_bad(HEAD "[{\"name\":\"nice-2\",\"duration_ns\":1000,"
			"\"warmup_ns\":1000,\"runs\":[]}]}",
		   "experiments[0].warmup_ns: must be between 0 and 999");
	expect_bad(HEAD "[{\"name\":\"nice-2\",\"duration_ns\":1000,"
			"\"warmup_ns\":0,\"runs\":[]}]}",
		   "experiments[0].runs: must be an array of 1 runs");
	expect_bad(EXP(TASK("nice0", "")),
		   "experiments[0].runs[0].tasks: must be an array of the "
		   "experiment's 2 tasks");
	expect_bad(EXP(TASK("nice1", "") "," GOOD5),
		   "experiments[0].runs[0].tasks[0].name: must be \"nice0\"");
	expect_bad(EXP(TASK("nice0", "1,2,3") "," GOOD5),
		   "tasks[0].segments: must hold start, end pairs: its length "
		   "is odd");
	expect_bad(EXP(TASK("nice0", "5,2") "," GOOD5),
		   "tasks[0].segments[1]: 2 is before 5: segments are in "
		   "time order");
	expect_bad(EXP(TASK("nice0", "1.5,2") "," GOOD5),
		   "tasks[0].segments[0]: must be an integer of ns");
	expect_bad(EXP(TASK("nice0", "-1,2") "," GOOD5),
		   "tasks[0].segments[0]: must be between 0 and");
	expect_bad(
		EXP("{\"name\":\"nice0\",\"segments\":[],\"latencies\":[],"
		    "\"yields\":-1,\"rts\":0,\"switches\":0,\"blocks\":0}," GOOD5),
		"tasks[0].yields: must be between 0 and");
	expect_bad(EXP("{\"name\":\"nice0\",\"segments\":[],\"latencies\":[],"
		       "\"yields\":0,\"rts\":0}," GOOD5),
		   "tasks[0].switches: missing");
	expect_bad(
		EXP("{\"name\":\"nice0\",\"segments\":[],\"latencies\":[],"
		    "\"yields\":0,\"rts\":0,\"switches\":3,\"blocks\":4}," GOOD5),
		"tasks[0].blocks: must be between 0 and 3");
	expect_bad(EXP("{\"name\":\"nice0\",\"segs\":[]}," GOOD5),
		   "tasks[0]: unknown key 'segs'");
	/* unreadable */
	ck_assert_int_eq(kc_record_load("/nonexistent/rec.json", &r, err,
					sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(
		err, "/nonexistent/rec.json: cannot read: No such file"));
}
END_TEST

static struct kc_row row(enum kc_tol kind, double tol, double kernel,
			 double kmin, double kmax, double sim, bool busy)
{
	struct kc_row r;

	memset(&r, 0, sizeof(r));
	r.tol_kind = kind;
	r.tol = tol;
	r.kernel = kernel;
	r.kmin = kmin;
	r.kmax = kmax;
	r.sim = sim;
	r.diff = sim - kernel;
	r.busy = busy;
	kc_row_judge(&r);
	return r;
}

START_TEST(verdicts_weigh_the_difference_against_tolerance_and_noise)
{
	/* 0.4 <= 0.5 */
	ck_assert_str_eq(row(KC_TOL_ABS, 0.5, 24, 24, 24, 24.4, false).verdict,
			 "ok");
	/* 0.6 > 0.5 + 0 / 2 */
	ck_assert_str_eq(row(KC_TOL_ABS, 0.5, 24, 24, 24, 24.6, false).verdict,
			 "DIFF");
	/* 0.6 <= 0.5 + (24.2 - 23.8) / 2 = 0.7: could be the kernel's own
	 * noise */
	ck_assert_str_eq(
		row(KC_TOL_ABS, 0.5, 24, 23.8, 24.2, 24.6, false).verdict,
		"noisy");
	/* 0.8 > 0.7 */
	ck_assert_str_eq(
		row(KC_TOL_ABS, 0.5, 24, 23.8, 24.2, 24.8, false).verdict,
		"DIFF");
	/* ... but every run was disturbed by other tasks */
	ck_assert_str_eq(
		row(KC_TOL_ABS, 0.5, 24, 23.8, 24.2, 24.8, true).verdict,
		"noisy");
	/* 10% of 4.0 ms is 0.4 ms: 4.35 is within, 3.5 is not */
	ck_assert_str_eq(
		row(KC_TOL_REL, 10, 4.0, 4.0, 4.0, 4.35, false).verdict, "ok");
	ck_assert_str_eq(row(KC_TOL_REL, 10, 4.0, 4.0, 4.0, 3.5, false).verdict,
			 "DIFF");
	/* shown only */
	ck_assert_str_eq(row(KC_TOL_INFO, 0, 4.0, 4, 4, 400, false).verdict,
			 "info");
}
END_TEST

START_TEST(the_table_sets_both_sides_side_by_side)
{
	const struct kc_exp *e = kc_experiment_find("nice-2");
	const struct kc_run *k = rec_run("nice-2");
	struct kc_run sim;
	struct kc_row rows[4];
	struct kc_exp_note note = { "nice-2", 0, 1 };
	struct kc_header h = {
		.release = "6.18.44-fc-v1045",
		.profile = "6.18",
		.machine = "vm",
		.calibrated = true,
		.cpu = 1,
		.runs = 1,
		.timing = { 30000000, 0 },
		.base_slice = 1400000,
		.sim_slice = 1400000,
		.hz = 250,
	};
	char *text, *json;
	size_t len, n;
	FILE *f;
	cJSON *root, *r0;

	/* the simulator's run: nice0 0-20 ms, nice5 20-30 ms: 33.333% */
	memset(&sim, 0, sizeof(sim));
	sim.nr_tasks = 2;
	sim.to = 30000000;
	seg(&sim.task[0].tl, 0, 20000000);
	seg(&sim.task[1].tl, 20000000, 30000000);
	note.foreign_max = kc_foreign_pct(k);
	/*
	 * Ticks of 4 ms: a 30 ms window measures a share to 2 x 4 / 30 =
	 * 26.7 pp, which is the tolerance then; the difference 33.333 -
	 * 29.906 = 3.427 is within it.
	 */
	n = kc_rows(e, k, 1, &sim, 5, 4000000, rows, 4);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rows[0].metric, "nice5 share");
	ck_assert(fabs(rows[0].tol - 26.6667) < 1e-4);
	ck_assert(fabs(rows[0].diff - 3.42726) < 1e-4);
	ck_assert_str_eq(rows[0].verdict, "ok");
	/* no tick floor: 3.427 > 0.5 but the only run lost 56% of the CPU
	 * to other tasks (more than 5): noisy, not a DIFF */
	n = kc_rows(e, k, 1, &sim, 5, 0, rows, 4);
	ck_assert(rows[0].busy);
	ck_assert_str_eq(rows[0].verdict, "noisy");
	/* taken as quiet enough (--max-foreign 60): a DIFF */
	n = kc_rows(e, k, 1, &sim, 60, 0, rows, 4);
	ck_assert(!rows[0].busy);
	ck_assert_str_eq(rows[0].verdict, "DIFF");

	f = open_memstream(&text, &len);
	ck_assert_uint_eq(kc_table_text(f, &h, rows, n, &note, 1), 1);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "# kernel-check: Linux "
					   "6.18.44-fc-v1045 against the "
					   "simulator, kernel profile 6.18, "
					   "machine vm (calibrated)\n"));
	ck_assert_ptr_nonnull(strstr(text, "HZ 250, base slice 1.400 ms"));
	ck_assert_ptr_nonnull(strstr(text, "nice5 share (%)"));
	ck_assert_ptr_nonnull(strstr(text, "29.91"));
	ck_assert_ptr_nonnull(strstr(text, "33.33"));
	ck_assert_ptr_nonnull(strstr(text, "0.500pp  DIFF\n"));
	ck_assert_ptr_nonnull(
		strstr(text, "# 0 ok, 1 DIFF, 0 noisy, 0 info, 0 skipped\n"));
	ck_assert_ptr_nonnull(strstr(text, "# nice-2: other tasks took up to "
					   "56.0% of CPU 1 in a run\n"));
	free(text);

	json = kc_table_json(&h, rows, n, &note, 1);
	root = cJSON_Parse(json);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "format")->valuestring,
			 "eevdf-sim-kernel-check/1");
	r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "rows"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(r0, "verdict")->valuestring,
			 "DIFF");
	ck_assert_str_eq(cJSON_GetObjectItem(r0, "tolerance_kind")->valuestring,
			 "absolute");
	ck_assert(fabs(cJSON_GetObjectItem(r0, "kernel")->valuedouble -
		       29.90607) < 1e-4);
	ck_assert(cJSON_GetObjectItem(r0, "simulated")->valuedouble > 33.33);
	cJSON_Delete(root);
	free(json);
	kc_run_free(&sim);
	kc_record_free(&rec);
}
END_TEST

START_TEST(every_experiment_runs_in_the_simulator)
{
	struct kc_timing t = { 400000000, 80000000 };
	struct kc_sim s = { 0 };
	eevdf_machine *m = NULL;
	char err[512];

	ck_assert_int_eq(eevdf_machine_new_flat(2, &m, NULL, 0), 0);
	ck_assert_int_eq(eevdf_machine_set_hz(m, 250), 0);
	s.machine = m;
	s.kernel = "6.18";
	s.cpu = 1;
	for (size_t i = 0; i < kc_nr_experiments(); i++) {
		const struct kc_exp *e = kc_experiment(i);
		struct kc_timing et = kc_exp_timing(e, &t);
		struct kc_run r;

		ck_assert_msg(kc_sim_run(e, &s, &et, &r, err, sizeof(err)) == 0,
			      "%s: %s", e->name, err);
		for (int k = 0; k < e->nr_metrics; k++) {
			double v;

			/* SCHED_IDLE may not run in so short a window */
			if (e->metric[k].stat == KS_RUN_P50 &&
			    e->task[e->metric[k].task].idle)
				continue;
			ck_assert_msg(kc_metric_value(e, &e->metric[k], &r, &v),
				      "%s: no figure %d", e->name, k);
		}
		kc_run_free(&r);
	}
	eevdf_machine_free(m);
}
END_TEST

START_TEST(the_simulated_side_of_two_hogs_is_the_models)
{
	const struct kc_exp *e = kc_experiment_find("hog-runs");
	struct kc_timing t = { 1000000000, 200000000 };
	struct kc_metric p50 = { KS_RUN_P50, 0, KC_TOL_REL, 10 };
	struct kc_metric share = { KS_SHARE, 1, KC_TOL_ABS, 0.5 };
	struct kc_sim s = { 0 };
	eevdf_machine *m = NULL;
	struct kc_run r;
	char err[512];
	double v;

	/* HZ 250, one CPU: slice 0.70 ms x (1 + ilog2(1)); the running
	 * hog's deadline has passed at the first tick after it, so each
	 * hog runs one tick, 4 ms (a switch moves exactly at a tick) */
	ck_assert_int_eq(eevdf_machine_new_flat(1, &m, NULL, 0), 0);
	ck_assert_int_eq(eevdf_machine_set_hz(m, 250), 0);
	s.machine = m;
	s.kernel = "6.18";
	ck_assert_msg(kc_sim_run(e, &s, &t, &r, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert(kc_metric_value(e, &p50, &r, &v));
	ck_assert(fabs(v - 4.0) < 1e-9);
	/* equal weights, alternating whole ticks over 800 ms: 50% */
	ck_assert(kc_metric_value(e, &share, &r, &v));
	ck_assert(fabs(v - 50) < 1e-9);
	/* the workload kernel-check runs says what it is */
	{
		struct kc_timing w = { 2000000000, 400000000 };
		char *json = kc_workload(kc_experiment_find("slice-mix"), 1,
					 &w);

		ck_assert_ptr_nonnull(
			strstr(json, "\"name\":\t\"kernel-check-slice-mix\""));
		ck_assert_ptr_nonnull(strstr(json, "\"slice\":\t10000000"));
		ck_assert_ptr_nonnull(strstr(json, "\"cpus\":\t[1]"));
		free(json);
	}
	kc_run_free(&r);
	eevdf_machine_free(m);
}
END_TEST

Suite *kcheck_suite(void)
{
	Suite *s = suite_create("kernel_check");
	TCase *tc = tcase_create("analysis");

	tcase_add_test(tc, runs_are_cut_by_the_other_tasks_only);
	tcase_add_test(tc, a_recorded_kernel_run_gives_its_figures);
	tcase_add_test(tc, a_bad_recording_names_the_path_and_the_reason);
	tcase_add_test(
		tc, verdicts_weigh_the_difference_against_tolerance_and_noise);
	tcase_add_test(tc, the_table_sets_both_sides_side_by_side);
	suite_add_tcase(s, tc);

	tc = tcase_create("simulated");
	tcase_add_test(tc, every_experiment_runs_in_the_simulator);
	tcase_add_test(tc, the_simulated_side_of_two_hogs_is_the_models);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
