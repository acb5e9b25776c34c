/* SPDX-License-Identifier: MIT */
/*
 * The experiments of kernel-check, each with the figures it is judged by
 * and their tolerances.  docs/calibration.md justifies each tolerance: a
 * share is a policy outcome (the weights' ratio, reached within a slice
 * or so of lag), so it must agree within a fraction of a percent; a run
 * length is whole ticks, so a wrong one is off by a tick, far outside
 * 10%; latencies depend on interrupt and hypervisor noise and get wide
 * bands.
 */
#include <stdio.h>
#include <string.h>

#include "kc.h"

#define MS 1000000LL
#define US 1000LL

#define HOG(n, nc) { .name = (n), .role = KC_HOG, .nice = (nc) }
#define SHARE(t, tol) { KS_SHARE, (t), KC_TOL_ABS, (tol) }
#define RUNS(t) { KS_RUN_P50, (t), KC_TOL_REL, 10 }, \
		{ KS_RUN_MEAN, (t), KC_TOL_REL, 10 }

static const struct kc_exp exps[] = {
	{ "nice-2", "two hogs at nice 0 and 5 share one CPU by weight "
		    "(1024 : 335)",
	  1, 2, { HOG("nice0", 0), HOG("nice5", 5) },
	  1, { SHARE(1, 0.5) } },
	{ "nice-3", "three hogs at nice 0, 3 and 7 (1024 : 526 : 215)",
	  1, 3, { HOG("nice0", 0), HOG("nice3", 3), HOG("nice7", 7) },
	  2, { SHARE(1, 0.5), SHARE(2, 0.5) } },
	{ "hog-runs", "two nice-0 hogs: each runs until a tick finds its "
		      "slice used up",
	  1, 2, { HOG("hog0", 0), HOG("hog1", 0) },
	  2, { RUNS(0) } },
	/* a 12 ms run is cut by any other task that runs in it (a kernel
	 * thread, another session), which the model does not have: the
	 * median is judged, the mean only shown */
	{ "slice", "two hogs with 10 ms custom slices (sched_attr."
		   "sched_runtime): runs of whole ticks past 10 ms",
	  1, 2, { { .name = "slice0", .role = KC_HOG, .slice = 10 * MS },
		  { .name = "slice1", .role = KC_HOG, .slice = 10 * MS } },
	  2, { { KS_RUN_P50, 0, KC_TOL_REL, 10 },
	       { KS_RUN_MEAN, 0, KC_TOL_INFO, 0 } } },
	{ "slice-mix", "a hog with a 10 ms custom slice against one with "
		       "the default",
	  1, 2, { { .name = "slice10ms", .role = KC_HOG, .slice = 10 * MS },
		  HOG("default", 0) },
	  3, { { KS_RUN_P50, 0, KC_TOL_REL, 10 },
	       { KS_RUN_P50, 1, KC_TOL_REL, 10 }, SHARE(0, 1.0) } },
	{ "idle", "a SCHED_IDLE hog (weight 3) against a nice-0 hog, runs "
		  "three times as long",
	  3, 2, { { .name = "idle", .role = KC_HOG, .idle = true },
		  HOG("hog", 0) },
	  2, { SHARE(0, 0.1), { KS_RUN_P50, 0, KC_TOL_REL, 25 } } },
	{ "yield", "a task calling sched_yield() in a loop against a hog",
	  1, 2, { { .name = "yielder", .role = KC_YIELDER }, HOG("hog", 0) },
	  2, { SHARE(0, 0.5), { KS_YIELD_RATE, 0, KC_TOL_REL, 25 } } },
	{ "sleeper", "a task that runs 1 ms and sleeps 3.3 ms, against a hog",
	  1, 2, { { .name = "sleeper", .role = KC_SLEEPER, .run = 1 * MS,
		    .period = 3300 * US },
		  HOG("hog", 0) },
	  5, { SHARE(0, 2.0), { KS_LAT_PROMPT, 0, KC_TOL_ABS, 10 },
	       { KS_LAT_MEAN, 0, KC_TOL_REL, 25 },
	       { KS_LAT_P90, 0, KC_TOL_REL, 25 },
	       { KS_LAT_MAX, 0, KC_TOL_INFO, 0 } } },
	/* nearly every wakeup is prompt: the mean is the few that are not
	 * (about 20 a run, a sampling error of about 25%), so it is shown;
	 * the p50 is the prompt wakeup's own latency */
	{ "short-slice", "the same sleeper with a 0.1 ms custom slice: it "
			 "preempts the hog when it wakes (PREEMPT_SHORT)",
	  1, 2, { { .name = "sleeper", .role = KC_SLEEPER, .run = 1 * MS,
		    .period = 3300 * US, .slice = 100 * US },
		  HOG("hog", 0) },
	  5, { SHARE(0, 2.0), { KS_LAT_PROMPT, 0, KC_TOL_ABS, 10 },
	       { KS_LAT_P50, 0, KC_TOL_ABS, 50 },
	       { KS_LAT_MEAN, 0, KC_TOL_INFO, 0 },
	       { KS_LAT_MAX, 0, KC_TOL_INFO, 0 } } },
	{ "periodic", "a task woken every 1 ms on an absolute grid (as "
		      "cyclictest) next to two hogs",
	  1, 3, { { .name = "periodic", .role = KC_PERIODIC, .period = 1 * MS },
		  HOG("hog0", 0), HOG("hog1", 0) },
	  4, { { KS_LAT_PROMPT, 0, KC_TOL_ABS, 10 },
	       { KS_LAT_P50, 0, KC_TOL_ABS, 50 },
	       { KS_LAT_P99, 0, KC_TOL_REL, 50 },
	       { KS_LAT_MAX, 0, KC_TOL_INFO, 0 } } },
	{ "pipe", "two tasks ping-pong a 4-byte token over two pipes on one "
		  "CPU (perf bench sched pipe)",
	  1, 2, { { .name = "ping", .role = KC_PIPE_PING },
		  { .name = "pong", .role = KC_PIPE_PONG } },
	  4, { { KS_SWITCHES_PER_RT, 0, KC_TOL_REL, 5 },
	       { KS_BLOCKS_PER_RT, 0, KC_TOL_REL, 5 },
	       { KS_RT, 0, KC_TOL_REL, 15 },
	       { KS_SWITCH_RATE, 0, KC_TOL_REL, 15 } } },
};

struct kc_timing kc_exp_timing(const struct kc_exp *e,
			       const struct kc_timing *base)
{
	struct kc_timing t = *base;
	int k = e->length > 0 ? e->length : 1;

	t.duration *= k;
	t.warmup *= k;
	return t;
}

size_t kc_nr_experiments(void)
{
	return sizeof(exps) / sizeof(exps[0]);
}

const struct kc_exp *kc_experiment(size_t i)
{
	return i < kc_nr_experiments() ? &exps[i] : NULL;
}

const struct kc_exp *kc_experiment_find(const char *name)
{
	for (size_t i = 0; i < kc_nr_experiments(); i++)
		if (strcmp(exps[i].name, name) == 0)
			return &exps[i];
	return NULL;
}

static const struct {
	const char *label, *unit;
	bool per_task;
} stats[] = {
	[KS_SHARE] = { "share", "%", true },
	[KS_RUN_P50] = { "run p50", "ms", true },
	[KS_RUN_MEAN] = { "run mean", "ms", true },
	[KS_LAT_MEAN] = { "wakeup latency mean", "us", true },
	[KS_LAT_P50] = { "wakeup latency p50", "us", true },
	[KS_LAT_P90] = { "wakeup latency p90", "us", true },
	[KS_LAT_P99] = { "wakeup latency p99", "us", true },
	[KS_LAT_MAX] = { "wakeup latency max", "us", true },
	[KS_LAT_PROMPT] = { "prompt wakeups (<200us)", "%", true },
	[KS_YIELD_RATE] = { "yields", "/s", true },
	[KS_SWITCHES_PER_RT] = { "switches per round trip", "", false },
	[KS_BLOCKS_PER_RT] = { "blocking switches per round trip", "", false },
	[KS_RT] = { "round trip", "us", false },
	[KS_SWITCH_RATE] = { "switches", "/s", false },
};

const char *kc_stat_label(enum kc_stat s)
{
	return stats[s].label;
}

const char *kc_stat_unit(enum kc_stat s)
{
	return stats[s].unit;
}

void kc_metric_name(const struct kc_exp *e, const struct kc_metric *m,
		    char *buf, size_t len)
{
	if (stats[m->stat].per_task && m->task < e->nr_tasks)
		snprintf(buf, len, "%s %s", e->task[m->task].name,
			 stats[m->stat].label);
	else
		snprintf(buf, len, "%s", stats[m->stat].label);
}
