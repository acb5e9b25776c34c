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

#define HOG(n, nc)                                                             \
	{                                                                      \
		.name = (n), .role = KC_HOG, .nice = (nc)                      \
	}
/* A figure of task t with its tolerance. */
#define FIG(s, t, kind, tl)                                                    \
	{                                                                      \
		.stat = (s), .task = (t), .tol_kind = (kind), .tol = (tl)      \
	}
#define SHARE(t, tl) FIG(KS_SHARE, (t), KC_TOL_ABS, (tl))
#define SHOWN(s, t) FIG((s), (t), KC_TOL_INFO, 0)

static const struct kc_exp exps[] = {
	{
		.name = "nice-2",
		.what = "two hogs at nice 0 and 5 share one CPU by weight "
			"(1024 : 335)",
		.nr_tasks = 2,
		.task = { HOG("nice0", 0), HOG("nice5", 5) },
		.nr_metrics = 1,
		.metric = { SHARE(1, 0.5) },
	},
	{
		.name = "nice-3",
		.what = "three hogs at nice 0, 3 and 7 (1024 : 526 : 215)",
		.nr_tasks = 3,
		.task = { HOG("nice0", 0), HOG("nice3", 3), HOG("nice7", 7) },
		.nr_metrics = 2,
		.metric = { SHARE(1, 0.5), SHARE(2, 0.5) },
	},
	{
		.name = "hog-runs",
		.what = "two nice-0 hogs: each runs until a tick finds its "
			"slice used up",
		.nr_tasks = 2,
		.task = { HOG("hog0", 0), HOG("hog1", 0) },
		.nr_metrics = 2,
		.metric = { FIG(KS_RUN_P50, 0, KC_TOL_REL, 10),
			    FIG(KS_RUN_MEAN, 0, KC_TOL_REL, 10) },
	},
	/* a 12 ms run is cut by any other task that runs in it (a kernel
	 * thread, another session), which the model does not have: the
	 * median is judged, the mean only shown */
	{
		.name = "slice",
		.what = "two hogs with 10 ms custom slices (sched_attr."
			"sched_runtime): runs of whole ticks past 10 ms",
		.nr_tasks = 2,
		.task = { { .name = "slice0", .role = KC_HOG, .slice = 10 * MS },
			  { .name = "slice1",
			    .role = KC_HOG,
			    .slice = 10 * MS } },
		.nr_metrics = 2,
		.metric = { FIG(KS_RUN_P50, 0, KC_TOL_REL, 10),
			    SHOWN(KS_RUN_MEAN, 0) },
	},
	{
		.name = "slice-mix",
		.what = "a hog with a 10 ms custom slice against one with the "
			"default",
		.nr_tasks = 2,
		.task = { { .name = "slice10ms",
			    .role = KC_HOG,
			    .slice = 10 * MS },
			  HOG("default", 0) },
		.nr_metrics = 3,
		.metric = { FIG(KS_RUN_P50, 0, KC_TOL_REL, 10),
			    FIG(KS_RUN_P50, 1, KC_TOL_REL, 10), SHARE(0, 1.0) },
	},
	{
		.name = "idle",
		.what = "a SCHED_IDLE hog (weight 3) against a nice-0 hog, "
			"runs three times as long",
		.length = 3,
		.nr_tasks = 2,
		.task = { { .name = "idle", .role = KC_HOG, .idle = true },
			  HOG("hog", 0) },
		.nr_metrics = 2,
		.metric = { SHARE(0, 0.1), FIG(KS_RUN_P50, 0, KC_TOL_REL, 25) },
	},
	{
		.name = "yield",
		.what = "a task calling sched_yield() in a loop against a hog",
		.nr_tasks = 2,
		.task = { { .name = "yielder", .role = KC_YIELDER },
			  HOG("hog", 0) },
		.nr_metrics = 2,
		.metric = { SHARE(0, 0.5),
			    FIG(KS_YIELD_RATE, 0, KC_TOL_REL, 25) },
	},
	{
		.name = "sleeper",
		.what = "a task that runs 1 ms and sleeps 3.3 ms, against a "
			"hog",
		.nr_tasks = 2,
		.task = { { .name = "sleeper",
			    .role = KC_SLEEPER,
			    .run = 1 * MS,
			    .period = 3300 * US },
			  HOG("hog", 0) },
		.nr_metrics = 5,
		.metric = { SHARE(0, 2.0),
			    FIG(KS_LAT_PROMPT, 0, KC_TOL_ABS, 10),
			    FIG(KS_LAT_MEAN, 0, KC_TOL_REL, 25),
			    FIG(KS_LAT_P90, 0, KC_TOL_REL, 25),
			    SHOWN(KS_LAT_MAX, 0) },
	},
	/* nearly every wakeup is prompt: the mean is the few that are not
	 * (about 20 a run, a sampling error of about 25%), so it is shown;
	 * the p50 is the prompt wakeup's own latency */
	{
		.name = "short-slice",
		.what = "the same sleeper with a 0.1 ms custom slice: it "
			"preempts the hog when it wakes (PREEMPT_SHORT)",
		.nr_tasks = 2,
		.task = { { .name = "sleeper",
			    .role = KC_SLEEPER,
			    .run = 1 * MS,
			    .period = 3300 * US,
			    .slice = 100 * US },
			  HOG("hog", 0) },
		.nr_metrics = 5,
		.metric = { SHARE(0, 2.0),
			    FIG(KS_LAT_PROMPT, 0, KC_TOL_ABS, 10),
			    FIG(KS_LAT_P50, 0, KC_TOL_ABS, 50),
			    SHOWN(KS_LAT_MEAN, 0), SHOWN(KS_LAT_MAX, 0) },
	},
	{
		.name = "periodic",
		.what = "a task woken every 1 ms on an absolute grid (as "
			"cyclictest) next to two hogs",
		.nr_tasks = 3,
		.task = { { .name = "periodic",
			    .role = KC_PERIODIC,
			    .period = 1 * MS },
			  HOG("hog0", 0),
			  HOG("hog1", 0) },
		.nr_metrics = 4,
		.metric = { FIG(KS_LAT_PROMPT, 0, KC_TOL_ABS, 10),
			    FIG(KS_LAT_P50, 0, KC_TOL_ABS, 50),
			    FIG(KS_LAT_P99, 0, KC_TOL_REL, 50),
			    SHOWN(KS_LAT_MAX, 0) },
	},
	{
		.name = "pipe",
		.what = "two tasks ping-pong a 4-byte token over two pipes on "
			"one CPU (perf bench sched pipe)",
		.nr_tasks = 2,
		.task = { { .name = "ping", .role = KC_PIPE_PING },
			  { .name = "pong", .role = KC_PIPE_PONG } },
		.nr_metrics = 4,
		.metric = { FIG(KS_SWITCHES_PER_RT, 0, KC_TOL_REL, 5),
			    FIG(KS_BLOCKS_PER_RT, 0, KC_TOL_REL, 5),
			    FIG(KS_RT, 0, KC_TOL_REL, 15),
			    FIG(KS_SWITCH_RATE, 0, KC_TOL_REL, 15) },
	},
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
