/* SPDX-License-Identifier: MIT */
/*
 * The figures of a run, from its observations (kc.h): the same code reads
 * the kernel's runs and the simulator's, so that a difference between
 * them is one of behaviour, not of bookkeeping.  Percentiles are nearest
 * rank, as the simulator's histograms take them (stats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kc.h"
#include "stats.h"

/* Gaps shorter than this are switches and interrupts, not other tasks. */
#define FOREIGN_GAP_NS 50000

bool kc_obs_add_lat(struct kc_task_obs *o, int64_t ns)
{
	if (o->nr_lat == o->cap_lat) {
		size_t cap = o->cap_lat ? 2 * o->cap_lat : 256;
		int64_t *more = realloc(o->lat, cap * sizeof(*more));

		if (!more)
			return false;
		o->lat = more;
		o->cap_lat = cap;
	}
	o->lat[o->nr_lat++] = ns;
	return true;
}

void kc_run_free(struct kc_run *r)
{
	for (int i = 0; i < KC_MAX_TASKS; i++) {
		tl_free(&r->task[i].tl);
		free(r->task[i].lat);
	}
	memset(r, 0, sizeof(*r));
}

static struct tl_task *tasks_of(const struct kc_run *r, struct tl_task *tl)
{
	for (int i = 0; i < r->nr_tasks; i++)
		tl[i] = r->task[i].tl;
	return tl;
}

static bool share(const struct kc_run *r, int t, double *out)
{
	int64_t all = 0, mine = 0;

	for (int i = 0; i < r->nr_tasks; i++) {
		int64_t c = tl_cpu(&r->task[i].tl, r->from, r->to);

		all += c;
		if (i == t)
			mine = c;
	}
	if (all <= 0)
		return false;
	*out = 100.0 * (double)mine / (double)all;
	return true;
}

static bool runs(const struct kc_run *r, int t, bool mean, double *out)
{
	struct tl_task tl[KC_MAX_TASKS];
	size_t n = tl_runs(tasks_of(r, tl), (size_t)r->nr_tasks, (size_t)t,
			   r->from, r->to, NULL, 0);
	int64_t *v;
	double sum = 0;

	if (!n || !(v = malloc(n * sizeof(*v))))
		return false;
	tl_runs(tl, (size_t)r->nr_tasks, (size_t)t, r->from, r->to, v, n);
	cal_sort_i64(v, n);
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	*out = (mean ? sum / (double)n : (double)cal_rank(v, n, 500)) / 1e6;
	free(v);
	return true;
}

static bool latency(const struct kc_task_obs *o, enum kc_stat s, double *out)
{
	static const unsigned permille[] = {
		[KS_LAT_P50] = 500,
		[KS_LAT_P90] = 900,
		[KS_LAT_P99] = 990,
		[KS_LAT_MAX] = 1000,
	};
	size_t n = o->nr_lat, prompt = 0;
	int64_t *v;
	double sum = 0;

	if (!n || !(v = malloc(n * sizeof(*v))))
		return false;
	memcpy(v, o->lat, n * sizeof(*v));
	cal_sort_i64(v, n);
	for (size_t i = 0; i < n; i++) {
		sum += (double)v[i];
		prompt += v[i] < KC_PROMPT_NS;
	}
	if (s == KS_LAT_MEAN)
		*out = sum / (double)n / 1e3;
	else if (s == KS_LAT_PROMPT)
		*out = 100.0 * (double)prompt / (double)n;
	else
		*out = (double)cal_rank(v, n, permille[s]) / 1e3;
	free(v);
	return true;
}

/* The pipe's ping task (its round trips) and the switches of both. */
static bool pipe_figure(const struct kc_run *r, enum kc_stat s, double *out)
{
	double window = (double)(r->to - r->from) / 1e9;
	uint64_t rts = 0, sw = 0, bl = 0;

	for (int i = 0; i < r->nr_tasks; i++) {
		rts += r->task[i].rts;
		sw += r->task[i].switches;
		bl += r->task[i].blocks;
	}
	if (!rts || window <= 0)
		return false;
	if (s == KS_SWITCHES_PER_RT)
		*out = (double)sw / (double)rts;
	else if (s == KS_BLOCKS_PER_RT)
		*out = (double)bl / (double)rts;
	else if (s == KS_RT)
		*out = window * 1e6 / (double)rts;
	else
		*out = (double)sw / window;
	return true;
}

bool kc_metric_value(const struct kc_exp *e, const struct kc_metric *m,
		     const struct kc_run *r, double *out)
{
	const struct kc_task_obs *o;
	double window = (double)(r->to - r->from) / 1e9;

	if (r->skipped[0] || m->task >= e->nr_tasks || m->task >= r->nr_tasks)
		return false;
	o = &r->task[m->task];
	switch (m->stat) {
	case KS_SHARE:
		return share(r, m->task, out);
	case KS_RUN_P50:
	case KS_RUN_MEAN:
		return runs(r, m->task, m->stat == KS_RUN_MEAN, out);
	case KS_LAT_MEAN:
	case KS_LAT_P50:
	case KS_LAT_P90:
	case KS_LAT_P99:
	case KS_LAT_MAX:
	case KS_LAT_PROMPT:
		return latency(o, m->stat, out);
	case KS_YIELD_RATE:
		if (window <= 0)
			return false;
		*out = (double)o->yields / window;
		return true;
	case KS_SWITCHES_PER_RT:
	case KS_BLOCKS_PER_RT:
	case KS_RT:
	case KS_SWITCH_RATE:
		return pipe_figure(r, m->stat, out);
	}
	return false;
}

double kc_foreign_pct(const struct kc_run *r)
{
	struct tl_task tl[KC_MAX_TASKS];
	size_t with = 0;

	/* only tasks that record their running tell who had the CPU */
	for (int i = 0; i < r->nr_tasks; i++)
		if (r->task[i].tl.n)
			tl[with++] = r->task[i].tl;
	if (!with || r->to <= r->from)
		return 0;
	return 100.0 *
	       (double)tl_foreign(tl, with, r->from, r->to, FOREIGN_GAP_NS) /
	       (double)(r->to - r->from);
}
