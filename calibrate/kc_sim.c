/* SPDX-License-Identifier: MIT */
/*
 * The simulated side of kernel-check: the experiment as a workload (the
 * same tasks, pinned to one CPU, with the same nice levels, policies and
 * slices, and programs that do what the real threads do), run through
 * the public API.  Segments of running come from the switch trace,
 * latencies and counters from the workload's own metrics: each latency
 * is recorded by the task after it runs again, as the real thread reads
 * the clock after its sleep returns, so both include the switch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "kc.h"
#include "simrun.h"

/* "now >= FROM && now < TO" for a value of the window. */
static void window_cond(char *buf, size_t len, const char *what,
			const struct kc_timing *t)
{
	snprintf(buf, len, "%s >= %lld && %s < %lld", what,
		 (long long)t->warmup, what, (long long)t->duration);
}

static cJSON *op(const char *key, cJSON *arg)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, key, arg);
	return o;
}

static cJSON *op_str(const char *key, const char *k2, const char *v)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddStringToObject(a, k2, v);
	return op(key, a);
}

static cJSON *op_let(const char *var, const char *expr)
{
	return op_str("let", var, expr);
}

/* {"if": {"cond": cond, "then": [then]}} */
static cJSON *op_if(const char *cond, cJSON *then)
{
	cJSON *a = cJSON_CreateObject(), *arr = cJSON_CreateArray();

	cJSON_AddStringToObject(a, "cond", cond);
	cJSON_AddItemToArray(arr, then);
	cJSON_AddItemToObject(a, "then", arr);
	return op("if", a);
}

static cJSON *op_count(const char *metric)
{
	return op_str("count", "metric", metric);
}

static cJSON *op_chan(const char *key, const char *chan)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddStringToObject(a, "chan", chan);
	cJSON_AddNumberToObject(a, "bytes", 4);
	return op(key, a);
}

/* {"loop": {"body": body}} (forever) */
static cJSON *loop(cJSON *body)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddItemToObject(a, "body", body);
	return op("loop", a);
}

/* Record now - @at as the next sample of metric, when @at is in the
 * window. */
static cJSON *record_lat(const char *metric, const char *at,
			 const struct kc_timing *t)
{
	cJSON *rec = cJSON_CreateObject(), *body = cJSON_CreateArray();
	cJSON *a = cJSON_CreateObject();
	char cond[160], value[64];

	window_cond(cond, sizeof(cond), at, t);
	snprintf(value, sizeof(value), "now - %s", at);
	cJSON_AddStringToObject(rec, "metric", metric);
	cJSON_AddStringToObject(rec, "key", "@k");
	cJSON_AddStringToObject(rec, "value", value);
	cJSON_AddItemToArray(body, op("record", rec));
	cJSON_AddItemToArray(body, op_let("@k", "@k + 1"));
	cJSON_AddStringToObject(a, "cond", cond);
	cJSON_AddItemToObject(a, "then", body);
	return op("if", a);
}

static cJSON *program(const struct kc_task *k, int i, const struct kc_timing *t)
{
	cJSON *p = cJSON_CreateArray(), *body = cJSON_CreateArray(), *a;
	char cond[160], metric[16], ns[32];

	snprintf(metric, sizeof(metric), "lat%d", i);
	window_cond(cond, sizeof(cond), "now", t);
	switch (k->role) {
	case KC_HOG:
		cJSON_AddItemToArray(body,
				     op("run", cJSON_CreateString("10ms")));
		break;
	case KC_YIELDER:
		cJSON_AddItemToArray(body, op("yield", cJSON_CreateObject()));
		cJSON_AddItemToArray(body, op_if(cond, op_count("yields")));
		break;
	case KC_SLEEPER:
		snprintf(ns, sizeof(ns), "now + %lld", (long long)k->period);
		cJSON_AddItemToArray(p, op_let("@k", "0"));
		cJSON_AddItemToArray(
			body, op("run", cJSON_CreateNumber((double)k->run)));
		cJSON_AddItemToArray(body, op_let("@at", ns));
		cJSON_AddItemToArray(body, op_str("sleep_until", "at", "@at"));
		cJSON_AddItemToArray(body, record_lat(metric, "@at", t));
		break;
	case KC_PERIODIC: {
		cJSON *skip = cJSON_CreateObject(), *sb = cJSON_CreateArray();

		snprintf(ns, sizeof(ns), "@next + %lld", (long long)k->period);
		a = cJSON_CreateObject();
		cJSON_AddStringToObject(a, "@k", "0");
		cJSON_AddNumberToObject(a, "@next", (double)k->period);
		cJSON_AddItemToArray(p, op("let", a));
		cJSON_AddItemToArray(body,
				     op_str("sleep_until", "at", "@next"));
		cJSON_AddItemToArray(body, record_lat(metric, "@next", t));
		cJSON_AddItemToArray(body, op_let("@next", ns));
		cJSON_AddStringToObject(skip, "while", "now > @next");
		cJSON_AddItemToArray(sb, op_let("@next", ns));
		cJSON_AddItemToObject(skip, "body", sb);
		cJSON_AddItemToArray(body, op("loop", skip));
		break;
	}
	case KC_PIPE_PING:
		cJSON_AddItemToArray(body, op_chan("send", "p1"));
		cJSON_AddItemToArray(body, op_chan("recv", "p2"));
		cJSON_AddItemToArray(body, op_if(cond, op_count("rts")));
		break;
	case KC_PIPE_PONG:
		cJSON_AddItemToArray(body, op_chan("recv", "p1"));
		cJSON_AddItemToArray(body, op_chan("send", "p2"));
		break;
	}
	cJSON_AddItemToArray(p, loop(body));
	return p;
}

static void add_metric(cJSON *metrics, const char *name, const char *type,
		       bool keyed)
{
	cJSON *m = cJSON_AddObjectToObject(metrics, name);

	cJSON_AddStringToObject(m, "type", type);
	if (keyed) {
		cJSON_AddBoolToObject(m, "keyed", true);
		cJSON_AddStringToObject(m, "unit", "ns");
	}
}

char *kc_workload(const struct kc_exp *e, int cpu, const struct kc_timing *t)
{
	cJSON *w = cJSON_CreateObject(), *tasks, *metrics, *objs;
	char name[64], *text, *copy = NULL;
	bool pipe = false;

	snprintf(name, sizeof(name), "kernel-check-%s", e->name);
	cJSON_AddStringToObject(w, "format", "eevdf-sim-workload/1");
	cJSON_AddStringToObject(w, "name", name);
	cJSON_AddStringToObject(w, "description", e->what);
	cJSON_AddNumberToObject(w, "duration", (double)t->duration);
	tasks = cJSON_AddArrayToObject(w, "tasks");
	metrics = cJSON_CreateObject();
	for (int i = 0; i < e->nr_tasks; i++) {
		const struct kc_task *k = &e->task[i];
		cJSON *o = cJSON_CreateObject(), *cpus = cJSON_CreateArray();
		char metric[16];

		cJSON_AddStringToObject(o, "name", k->name);
		cJSON_AddStringToObject(o, "kind", "thread");
		cJSON_AddItemToArray(cpus, cJSON_CreateNumber(cpu));
		cJSON_AddItemToObject(o, "cpus", cpus);
		if (k->nice)
			cJSON_AddNumberToObject(o, "nice", k->nice);
		if (k->idle)
			cJSON_AddStringToObject(o, "policy", "idle");
		if (k->slice)
			cJSON_AddNumberToObject(o, "slice", (double)k->slice);
		cJSON_AddItemToObject(o, "program", program(k, i, t));
		cJSON_AddItemToArray(tasks, o);
		snprintf(metric, sizeof(metric), "lat%d", i);
		if (k->role == KC_SLEEPER || k->role == KC_PERIODIC)
			add_metric(metrics, metric, "value", true);
		if (k->role == KC_YIELDER)
			add_metric(metrics, "yields", "counter", false);
		if (k->role == KC_PIPE_PING) {
			add_metric(metrics, "rts", "counter", false);
			pipe = true;
		}
	}
	if (pipe) {
		objs = cJSON_AddArrayToObject(w, "objects");
		for (int i = 1; i <= 2; i++) {
			cJSON *c = cJSON_CreateObject();

			cJSON_AddStringToObject(c, "type", "channel");
			cJSON_AddStringToObject(c, "name",
						i == 1 ? "p1" : "p2");
			cJSON_AddStringToObject(c, "kind", "pipe");
			cJSON_AddItemToArray(objs, c);
		}
	}
	if (metrics->child)
		cJSON_AddItemToObject(w, "metrics", metrics);
	else
		cJSON_Delete(metrics);
	text = cJSON_Print(w);
	cJSON_Delete(w);
	/* cJSON's allocator may not be malloc(): hand back our own copy */
	if (text && (copy = malloc(strlen(text) + 1)))
		strcpy(copy, text);
	cJSON_free(text);
	return copy;
}

/* The switch trace of the experiment's CPU, as segments per task. */
struct tracer {
	struct kc_run *r;
	int cpu;
	int64_t open[KC_MAX_TASKS];
	bool on[KC_MAX_TASKS];
	bool nomem;
};

static void trace(void *ud, const struct eevdf_trace_event *ev)
{
	struct tracer *tr = ud;
	struct kc_run *r = tr->r;
	int prev = ev->prev_pid - 1, next = ev->pid - 1;

	if (ev->kind != EEVDF_TRACE_SWITCH || ev->cpu != tr->cpu)
		return;
	if (prev >= 0 && prev < r->nr_tasks && tr->on[prev]) {
		if (!tl_push(&r->task[prev].tl, tr->open[prev], ev->time))
			tr->nomem = true;
		tr->on[prev] = false;
		if (ev->time >= r->from && ev->time < r->to) {
			r->task[prev].switches++;
			r->task[prev].blocks += ev->prev_state ==
						EEVDF_TASK_SLEEPING;
		}
	}
	if (next >= 0 && next < r->nr_tasks) {
		tr->open[next] = ev->time;
		tr->on[next] = true;
	}
}

/* The samples of keyed value metric name into o. */
static bool samples(const cJSON *res, const char *name, struct kc_task_obs *o)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(res, "metrics"), name);
	const cJSON *cells = cJSON_GetObjectItemCaseSensitive(m, "cells"), *c;

	cJSON_ArrayForEach(c, cells)
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "value");

		if (cJSON_IsNumber(v) &&
		    !kc_obs_add_lat(o, (int64_t)v->valuedouble))
			return false;
	}
	return true;
}

int kc_sim_run(const struct kc_exp *e, const struct kc_sim *s,
	       const struct kc_timing *t, struct kc_run *r, char *err,
	       size_t len)
{
	struct tracer tr;
	struct cal_simrun sr = {
		.machine = s->machine,
		.kernel = s->kernel,
		.feat_on = s->feat_on,
		.feat_off = s->feat_off,
		.base_slice = s->base_slice,
		.trace = trace,
		.trace_ud = &tr,
	};
	char *json = kc_workload(e, s->cpu, t), name[64];
	cJSON *res = NULL;
	double v;
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&tr, 0, sizeof(tr));
	r->nr_tasks = e->nr_tasks;
	r->from = t->warmup;
	r->to = t->duration;
	tr.r = r;
	tr.cpu = s->cpu;
	if (!json) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	snprintf(name, sizeof(name), "kernel-check %s", e->name);
	rc = cal_sim_run(&sr, name, json, NULL, 0, &res, err, len);
	free(json);
	if (rc < 0) {
		kc_run_free(r);
		return -1;
	}
	for (int i = 0; i < e->nr_tasks; i++) {
		char metric[16];

		if (tr.on[i] &&
		    !tl_push(&r->task[i].tl, tr.open[i], t->duration))
			tr.nomem = true;
		snprintf(metric, sizeof(metric), "lat%d", i);
		if (!samples(res, metric, &r->task[i]))
			tr.nomem = true;
		if (e->task[i].role == KC_YIELDER &&
		    cal_results_metric(res, "yields", NULL, &v))
			r->task[i].yields = (uint64_t)v;
		if (e->task[i].role == KC_PIPE_PING &&
		    cal_results_metric(res, "rts", NULL, &v))
			r->task[i].rts = (uint64_t)v;
	}
	cJSON_Delete(res);
	if (tr.nomem) {
		snprintf(err, len, "out of memory");
		kc_run_free(r);
		return -1;
	}
	return 0;
}
