/* SPDX-License-Identifier: MIT */
/*
 * Recordings of the kernel's side of kernel-check
 * ("eevdf-sim-kernel-real/1", docs/calibration.md): kernel-check
 * --save-real writes what the threads saw, --load-real compares it with
 * the simulator again without measuring (after a model change, on
 * another machine, in the unit tests).  Reading one checks every field
 * and names the file, the JSON path and the reason of the first error.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "host.h"
#include "kc.h"

#define REC_FORMAT "eevdf-sim-kernel-real/1"
/* A recording is a few MiB at most: more is not one. */
#define REC_MAX_BYTES ((size_t)256 << 20)
/* Times in a recording: at most an hour. */
#define REC_MAX_NS (3600 * CAL_NSEC_PER_SEC)

static cJSON *int_array(const int64_t *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
	return a;
}

static cJSON *task_json(const char *name, const struct kc_task_obs *o)
{
	cJSON *t = cJSON_CreateObject(), *seg = cJSON_CreateArray();

	cJSON_AddStringToObject(t, "name", name);
	for (size_t i = 0; i < o->tl.n; i++) {
		cJSON_AddItemToArray(
			seg, cJSON_CreateNumber((double)o->tl.seg[i].start));
		cJSON_AddItemToArray(
			seg, cJSON_CreateNumber((double)o->tl.seg[i].end));
	}
	cJSON_AddItemToObject(t, "segments", seg);
	cJSON_AddItemToObject(t, "latencies", int_array(o->lat, o->nr_lat));
	cJSON_AddNumberToObject(t, "yields", (double)o->yields);
	cJSON_AddNumberToObject(t, "rts", (double)o->rts);
	cJSON_AddNumberToObject(t, "switches", (double)o->switches);
	cJSON_AddNumberToObject(t, "blocks", (double)o->blocks);
	return t;
}

char *kc_record_json(const struct kc_recording *rec)
{
	cJSON *root = cJSON_CreateObject(), *exps;
	char *text, *copy = NULL;

	cJSON_AddStringToObject(root, "format", REC_FORMAT);
	cJSON_AddStringToObject(root, "kernel", rec->release);
	cJSON_AddNumberToObject(root, "cpu", rec->cpu);
	cJSON_AddNumberToObject(root, "hz", rec->hz);
	cJSON_AddNumberToObject(root, "runs", rec->runs);
	cJSON_AddNumberToObject(root, "duration_ns",
				(double)rec->timing.duration);
	cJSON_AddNumberToObject(root, "warmup_ns", (double)rec->timing.warmup);
	cJSON_AddNumberToObject(root, "base_slice_ns", (double)rec->base_slice);
	exps = cJSON_AddArrayToObject(root, "experiments");
	for (size_t i = 0; i < rec->nr_exp; i++) {
		const struct kc_exp *e = rec->exp[i];
		cJSON *o = cJSON_CreateObject(), *runs;

		cJSON_AddStringToObject(o, "name", e->name);
		cJSON_AddNumberToObject(o, "duration_ns",
					(double)rec->exp_timing[i].duration);
		cJSON_AddNumberToObject(o, "warmup_ns",
					(double)rec->exp_timing[i].warmup);
		runs = cJSON_AddArrayToObject(o, "runs");
		for (int k = 0; k < rec->runs; k++) {
			const struct kc_run *r = &rec->run[i][k];
			cJSON *ro = cJSON_CreateObject(), *tasks;

			if (r->skipped[0]) {
				cJSON_AddStringToObject(ro, "skipped",
							r->skipped);
			} else {
				tasks = cJSON_AddArrayToObject(ro, "tasks");
				for (int t = 0; t < e->nr_tasks; t++)
					cJSON_AddItemToArray(
						tasks,
						task_json(e->task[t].name,
							  &r->task[t]));
			}
			cJSON_AddItemToArray(runs, ro);
		}
		cJSON_AddItemToArray(exps, o);
	}
	text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (text && (copy = malloc(strlen(text) + 2)))
		sprintf(copy, "%s\n", text);
	cJSON_free(text);
	return copy;
}

/* The reader: the file, the path of the value at hand, the first error. */
struct reader {
	const char *file;
	char path[256];
	char *err;
	size_t len;
};

static int bad(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct reader *rd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->path[0])
		snprintf(rd->err, rd->len, "%s: %s: %s", rd->file, rd->path,
			 msg);
	else
		snprintf(rd->err, rd->len, "%s: %s", rd->file, msg);
	return -1;
}

static size_t push_key(struct reader *rd, const char *key)
{
	size_t old = strlen(rd->path);

	snprintf(rd->path + old, sizeof(rd->path) - old, "%s%s", old ? "." : "",
		 key);
	return old;
}

static size_t push_index(struct reader *rd, size_t i)
{
	size_t old = strlen(rd->path);

	snprintf(rd->path + old, sizeof(rd->path) - old, "[%zu]", i);
	return old;
}

static void pop(struct reader *rd, size_t old)
{
	rd->path[old] = '\0';
}

/* An integer in [lo, hi] that is the member key of obj. */
static int get_int(struct reader *rd, const cJSON *obj, const char *key,
		   int64_t lo, int64_t hi, int64_t *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t old = push_key(rd, key);
	int r = 0;

	if (!it)
		r = bad(rd, "missing");
	else if (!cJSON_IsNumber(it) ||
		 it->valuedouble != floor(it->valuedouble))
		r = bad(rd, "must be an integer");
	else if (it->valuedouble < (double)lo || it->valuedouble > (double)hi)
		r = bad(rd, "must be between %lld and %lld", (long long)lo,
			(long long)hi);
	else
		*out = (int64_t)it->valuedouble;
	pop(rd, old);
	return r;
}

static int check_keys(struct reader *rd, const cJSON *obj,
		      const char *const *keys, size_t n)
{
	const cJSON *it;

	if (!cJSON_IsObject(obj))
		return bad(rd, "must be an object");
	cJSON_ArrayForEach(it, obj)
	{
		bool known = false;

		for (size_t i = 0; i < n && !known; i++)
			known = it->string && strcmp(it->string, keys[i]) == 0;
		if (!known)
			return bad(rd, "unknown key '%s'",
				   it->string ? it->string : "");
	}
	return 0;
}

/* An array of integers in [0, REC_MAX_NS] of key; segments in pairs,
 * each starting at or after the last ended. */
static int get_times(struct reader *rd, const cJSON *obj, const char *key,
		     struct kc_task_obs *o, bool segments)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
	size_t old = push_key(rd, key), i = 0;
	int64_t prev = 0, start = 0;

	if (!cJSON_IsArray(arr)) {
		int r = bad(rd, arr ? "must be an array" : "missing");

		pop(rd, old);
		return r;
	}
	if (segments && cJSON_GetArraySize(arr) % 2) {
		int r = bad(rd, "must hold start, end pairs: its length is "
				"odd");

		pop(rd, old);
		return r;
	}
	cJSON_ArrayForEach(it, arr)
	{
		size_t o2 = push_index(rd, i);
		int64_t v;
		int r = 0;

		if (!cJSON_IsNumber(it) ||
		    it->valuedouble != floor(it->valuedouble))
			r = bad(rd, "must be an integer of ns");
		else if (it->valuedouble < 0 ||
			 it->valuedouble > (double)REC_MAX_NS)
			r = bad(rd, "must be between 0 and %lld",
				(long long)REC_MAX_NS);
		v = (int64_t)it->valuedouble;
		if (!r && segments && v < prev)
			r = bad(rd,
				"%lld is before %lld: segments are in "
				"time order",
				(long long)v, (long long)prev);
		if (!r && segments && i % 2 && !tl_push(&o->tl, start, v))
			r = bad(rd, "out of memory");
		if (!r && !segments && !kc_obs_add_lat(o, v))
			r = bad(rd, "out of memory");
		pop(rd, o2);
		if (r) {
			pop(rd, old);
			return r;
		}
		start = v;
		prev = v;
		i++;
	}
	pop(rd, old);
	return 0;
}

static int read_task(struct reader *rd, const cJSON *obj,
		     const struct kc_task *task, struct kc_task_obs *o)
{
	static const char *const keys[] = { "name",   "segments", "latencies",
					    "yields", "rts",	  "switches",
					    "blocks" };
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
	int64_t y, r, s, b;

	if (check_keys(rd, obj, keys, sizeof(keys) / sizeof(keys[0])))
		return -1;
	if (!cJSON_IsString(name) || strcmp(name->valuestring, task->name)) {
		size_t old = push_key(rd, "name");

		bad(rd, "must be \"%s\" (the experiment's task in this place)",
		    task->name);
		pop(rd, old);
		return -1;
	}
	if (get_times(rd, obj, "segments", o, true) ||
	    get_times(rd, obj, "latencies", o, false) ||
	    get_int(rd, obj, "yields", 0, INT64_C(1) << 50, &y) ||
	    get_int(rd, obj, "rts", 0, INT64_C(1) << 50, &r) ||
	    get_int(rd, obj, "switches", 0, INT64_C(1) << 50, &s) ||
	    get_int(rd, obj, "blocks", 0, s, &b))
		return -1;
	o->blocks = (uint64_t)b;
	o->yields = (uint64_t)y;
	o->rts = (uint64_t)r;
	o->switches = (uint64_t)s;
	return 0;
}

static int read_run(struct reader *rd, const cJSON *obj, const struct kc_exp *e,
		    const struct kc_timing *t, struct kc_run *run)
{
	static const char *const keys[] = { "tasks", "skipped" };
	const cJSON *sk = cJSON_GetObjectItemCaseSensitive(obj, "skipped");
	const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(obj, "tasks");
	size_t old;
	int i = 0;

	memset(run, 0, sizeof(*run));
	run->nr_tasks = e->nr_tasks;
	run->from = t->warmup;
	run->to = t->duration;
	if (check_keys(rd, obj, keys, 2))
		return -1;
	if (sk) {
		old = push_key(rd, "skipped");
		if (!cJSON_IsString(sk) || !sk->valuestring[0])
			return bad(rd, "must be a non-empty string");
		pop(rd, old);
		snprintf(run->skipped, sizeof(run->skipped), "%s",
			 sk->valuestring);
		return 0;
	}
	old = push_key(rd, "tasks");
	if (!cJSON_IsArray(tasks) || cJSON_GetArraySize(tasks) != e->nr_tasks)
		return bad(rd, "must be an array of the experiment's %d tasks",
			   e->nr_tasks);
	for (const cJSON *it = tasks->child; it; it = it->next, i++) {
		size_t o2 = push_index(rd, (size_t)i);

		if (read_task(rd, it, &e->task[i], &run->task[i]))
			return -1;
		pop(rd, o2);
	}
	pop(rd, old);
	return 0;
}

static int read_exp(struct reader *rd, const cJSON *obj,
		    struct kc_recording *rec, size_t k)
{
	static const char *const keys[] = { "name", "duration_ns", "warmup_ns",
					    "runs" };
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(obj, "runs");
	const struct kc_exp *e;
	int64_t d, w;
	size_t old;
	int i = 0;

	if (check_keys(rd, obj, keys, 4))
		return -1;
	old = push_key(rd, "name");
	if (!cJSON_IsString(name))
		return bad(rd, name ? "must be a string" : "missing");
	if (!(e = kc_experiment_find(name->valuestring)))
		return bad(rd,
			   "unknown experiment '%s' (eevdf-sim kernel-check "
			   "--list names them)",
			   name->valuestring);
	pop(rd, old);
	for (size_t j = 0; j < k; j++)
		if (rec->exp[j] == e)
			return bad(rd, "experiment '%s' is there twice",
				   e->name);
	rec->exp[k] = e;
	if (get_int(rd, obj, "duration_ns", 1, REC_MAX_NS, &d) ||
	    get_int(rd, obj, "warmup_ns", 0, d - 1, &w))
		return -1;
	rec->exp_timing[k].duration = d;
	rec->exp_timing[k].warmup = w;
	old = push_key(rd, "runs");
	if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) != rec->runs)
		return bad(rd, "must be an array of %d runs (\"runs\")",
			   rec->runs);
	rec->run[k] = calloc((size_t)rec->runs, sizeof(struct kc_run));
	if (!rec->run[k])
		return bad(rd, "out of memory");
	for (const cJSON *it = runs->child; it; it = it->next, i++) {
		size_t o2 = push_index(rd, (size_t)i);

		if (read_run(rd, it, e, &rec->exp_timing[k], &rec->run[k][i]))
			return -1;
		pop(rd, o2);
	}
	pop(rd, old);
	return 0;
}

static int read_doc(struct reader *rd, const cJSON *root,
		    struct kc_recording *rec)
{
	static const char *const keys[] = { "format",	  "kernel",
					    "cpu",	  "hz",
					    "runs",	  "duration_ns",
					    "warmup_ns",  "base_slice_ns",
					    "experiments" };
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	const cJSON *kern = cJSON_GetObjectItemCaseSensitive(root, "kernel");
	const cJSON *exps = cJSON_GetObjectItemCaseSensitive(root,
							     "experiments");
	int64_t cpu, hz, runs, d, w, s;
	size_t old, i = 0;

	if (!cJSON_IsObject(root))
		return bad(rd, "the top level must be an object");
	old = push_key(rd, "format");
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, REC_FORMAT))
		return bad(rd, "must be \"" REC_FORMAT "\" (a recording of "
			       "kernel-check --save-real)");
	pop(rd, old);
	if (check_keys(rd, root, keys, sizeof(keys) / sizeof(keys[0])))
		return -1;
	old = push_key(rd, "kernel");
	if (!cJSON_IsString(kern))
		return bad(rd, kern ? "must be a string" : "missing");
	snprintf(rec->release, sizeof(rec->release), "%s", kern->valuestring);
	pop(rd, old);
	if (get_int(rd, root, "cpu", 0, CAL_MAX_CPUS - 1, &cpu) ||
	    get_int(rd, root, "hz", 0, EEVDF_HZ_MAX, &hz) ||
	    get_int(rd, root, "runs", 1, 64, &runs) ||
	    get_int(rd, root, "duration_ns", 1, REC_MAX_NS, &d) ||
	    get_int(rd, root, "warmup_ns", 0, d - 1, &w) ||
	    get_int(rd, root, "base_slice_ns", 0, CAL_NSEC_PER_SEC, &s))
		return -1;
	rec->cpu = (int)cpu;
	rec->hz = (int)hz;
	rec->runs = (int)runs;
	rec->timing.duration = d;
	rec->timing.warmup = w;
	rec->base_slice = s;
	old = push_key(rd, "experiments");
	if (!cJSON_IsArray(exps) || !exps->child ||
	    cJSON_GetArraySize(exps) > 32)
		return bad(rd, "must be an array of 1 to 32 experiments");
	for (const cJSON *it = exps->child; it; it = it->next, i++) {
		size_t o2 = push_index(rd, i);

		rec->nr_exp = i + 1;
		if (read_exp(rd, it, rec, i))
			return -1;
		pop(rd, o2);
	}
	pop(rd, old);
	return 0;
}

int kc_record_load(const char *path, struct kc_recording *rec, char *err,
		   size_t len)
{
	struct reader rd = { .file = path, .err = err, .len = len };
	char *text;
	cJSON *root;
	int r;

	memset(rec, 0, sizeof(*rec));
	errno = 0;
	if (!(text = cal_read_text(path)))
		return bad(&rd, "cannot read: %s",
			   strerror(errno ? errno : EIO));
	if (strlen(text) > REC_MAX_BYTES) {
		free(text);
		return bad(&rd, "larger than a recording can be");
	}
	root = cJSON_Parse(text);
	free(text);
	if (!root)
		return bad(&rd, "not JSON");
	r = read_doc(&rd, root, rec);
	cJSON_Delete(root);
	if (r)
		kc_record_free(rec);
	return r;
}

void kc_record_free(struct kc_recording *rec)
{
	for (size_t i = 0; i < rec->nr_exp; i++) {
		for (int k = 0; rec->run[i] && k < rec->runs; k++)
			kc_run_free(&rec->run[i][k]);
		free(rec->run[i]);
	}
	memset(rec, 0, sizeof(*rec));
}
