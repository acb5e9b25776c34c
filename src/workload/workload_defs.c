/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: the definitions of the file, instantiated: objects
 * (with the channel defaults of each kind), metrics, tasks and spawn
 * templates, whose programs are compiled in a second pass once every name
 * is known.
 */
#include <string.h>

#include "lib/cpulist.h"
#include "engine/sim.h"
#include "workload_impl.h"

#include "wl_short.h"

/* Objects -------------------------------------------------------------- */

#define OBJ_COMMON "type", "name", "for", "count"

static const char *const chan_keys[] = {
	OBJ_COMMON,    "kind",	      "capacity", "msg_overhead",
	"writer_wake", "reader_wake", "writers",  "readers",
};
static const char *const chan_later[] = { "slot" };
static const char *const sem_keys[] = { OBJ_COMMON, "initial", "max" };
static const char *const plain_keys[] = { OBJ_COMMON };
static const char *const mutex_keys[] = { OBJ_COMMON, "handoff", "spin_owner" };
static const char *const spin_keys[] = { OBJ_COMMON, "per_cpu" };
static const char *const barrier_keys[] = { OBJ_COMMON, "parties" };
static const char *const timer_keys[] = { OBJ_COMMON, "period", "mode",
					  "unique" };
static const char *const device_keys[] = {
	OBJ_COMMON,    "preset",       "queue_depth",	"nr_requests",
	"parallel",    "read_latency", "write_latency", "seek",
	"seq_latency", "read_mb_s",    "write_mb_s",	"flush_latency",
	"irq_cpu",     "multiqueue",   "major",		"minor",
};
static const char *const fs_keys[] = {
	OBJ_COMMON,
	"device",
	"partition",
	"memory",
	"dirty_background_ratio",
	"dirty_ratio",
	"dirty_expire",
	"writeback_interval",
	"commit",
	"journal",
	"dioread_nolock",
	"auto_da_alloc",
	"readahead",
};
static const char *const wq_keys[] = { OBJ_COMMON, "unbound", "highpri",
				       "max_active" };
static const char *const work_keys[] = { OBJ_COMMON, "workqueue", "cost",
					 "sleep",    "post",	  "wake",
					 "set" };
static const char *const irq_keys[] = { OBJ_COMMON, "period",  "first",
					"cpu",	    "handler", "work",
					"post",	    "wake",    "set" };

static const struct obj_type_def {
	const char *name;
	enum obj_type type;
	const char *const *keys;
	size_t nr_keys;
} obj_types[] = {
	{ "channel", OBJ_CHANNEL, chan_keys, ARRAY_SIZE(chan_keys) },
	{ "sem", OBJ_SEM, sem_keys, ARRAY_SIZE(sem_keys) },
	{ "latch", OBJ_LATCH, plain_keys, ARRAY_SIZE(plain_keys) },
	{ "event", OBJ_EVENT, plain_keys, ARRAY_SIZE(plain_keys) },
	{ "mutex", OBJ_MUTEX, mutex_keys, ARRAY_SIZE(mutex_keys) },
	{ "spinlock", OBJ_SPINLOCK, spin_keys, ARRAY_SIZE(spin_keys) },
	{ "barrier", OBJ_BARRIER, barrier_keys, ARRAY_SIZE(barrier_keys) },
	{ "list", OBJ_LIST, plain_keys, ARRAY_SIZE(plain_keys) },
	{ "timer", OBJ_TIMER, timer_keys, ARRAY_SIZE(timer_keys) },
	{ "device", OBJ_DEVICE, device_keys, ARRAY_SIZE(device_keys) },
	{ "filesystem", OBJ_FILESYSTEM, fs_keys, ARRAY_SIZE(fs_keys) },
	{ "workqueue", OBJ_WORKQUEUE, wq_keys, ARRAY_SIZE(wq_keys) },
	{ "work", OBJ_WORK, work_keys, ARRAY_SIZE(work_keys) },
	{ "irq", OBJ_IRQ, irq_keys, ARRAY_SIZE(irq_keys) },
};

/* Channel kinds and their defaults (workloads.md section 11.4). */
static const char *const chan_kind_names[] = {
	"pipe", "unix_stream", "tcp_loopback", "msgq", "ideal",
};
static const struct {
	enum chan_kind kind;
	u64 capacity;
	u64 overhead;
	enum writer_wake ww;
	bool writers_all;
	bool reader_sync;
} chan_defaults[] = {
	{ CHAN_PIPE, 65536, 0, WW_SLOT_FREED_IF_FULL, false, true },
	{ CHAN_UNIX_STREAM, 212992, 768, WW_QUARTER_FREE, true, true },
	{ CHAN_TCP_LOOPBACK, 4u << 20, 0, WW_ANY_SPACE, false, true },
	{ CHAN_MSGQ, 0, 0, WW_ANY_SPACE, false, false },
	{ CHAN_IDEAL, 0, 0, WW_ANY_SPACE, false, false },
};
static const char *const ww_names[] = {
	"slot_freed_if_full",
	"quarter_free",
	"any_space",
};
static const enum writer_wake ww_values[] = {
	WW_SLOT_FREED_IF_FULL,
	WW_QUARTER_FREE,
	WW_ANY_SPACE,
};
static const char *const reader_wake_names[] = { "sync", "normal" };
static const char *const who_names[] = { "exclusive", "all" };
static const char *const handoff_names[] = { "fifo", "barging" };
static const char *const timer_mode_names[] = { "relative", "absolute" };

/* An optional integer member in [lo, hi]; absent keeps *out. */
int eevdf__wl_opt_int(struct wl_parser *p, const cJSON *obj, const char *key,
		      s64 lo, s64 hi, s64 *out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_int(p, it, lo, hi, out);
	path_pop(p, old);
	return r;
}

static int channel_settings(struct wl_parser *p, const cJSON *def,
			    struct obj_channel *ch)
{
	int kind = 0, ww = -1, rw = -1, writers = -1, readers = 0;
	s64 v;
	int r;

	r = eevdf__wl_get_enum(p, def, "kind", chan_kind_names,
			       ARRAY_SIZE(chan_kind_names), &kind);
	if (r)
		return r;
	ch->kind = chan_defaults[kind].kind;
	ch->capacity = chan_defaults[kind].capacity;
	ch->overhead = chan_defaults[kind].overhead;
	ch->writer_wake = chan_defaults[kind].ww;
	ch->writers_all = chan_defaults[kind].writers_all;
	ch->reader_sync = chan_defaults[kind].reader_sync;
	if (ch->kind == CHAN_MSGQ && get(def, "capacity")) {
		size_t old = path_key(p, "capacity");

		r = fail(p, "a msgq capacity (in messages) is not supported "
			    "by this version yet");
		path_pop(p, old);
		return r;
	}
	v = (s64)ch->capacity;
	if ((r = eevdf__wl_opt_int(p, def, "capacity", 0, WL_MAX_INT, &v)))
		return r;
	ch->capacity = (u64)v;
	v = (s64)ch->overhead;
	if ((r = eevdf__wl_opt_int(p, def, "msg_overhead", 0, WL_MAX_INT, &v)))
		return r;
	ch->overhead = (u64)v;
	if ((r = eevdf__wl_get_enum(p, def, "writer_wake", ww_names,
				    ARRAY_SIZE(ww_names), &ww)) ||
	    (r = eevdf__wl_get_enum(p, def, "reader_wake", reader_wake_names,
				    ARRAY_SIZE(reader_wake_names), &rw)) ||
	    (r = eevdf__wl_get_enum(p, def, "writers", who_names,
				    ARRAY_SIZE(who_names), &writers)) ||
	    (r = eevdf__wl_get_enum(p, def, "readers", who_names,
				    ARRAY_SIZE(who_names), &readers)))
		return r;
	if (ww >= 0)
		ch->writer_wake = ww_values[ww];
	if (rw >= 0)
		ch->reader_sync = rw == 0;
	if (writers >= 0)
		ch->writers_all = writers == 1;
	if (readers == 1) {
		size_t old = path_key(p, "readers");

		r = fail(p, "\"readers\": \"all\" is not supported by this "
			    "version yet");
		path_pop(p, old);
	}
	return r;
}

/* rt-app's timer: a default period, a mode, one per task or shared. */
static int timer_settings(struct wl_parser *p, const cJSON *def,
			  struct wl_object *o)
{
	const cJSON *it = get(def, "period");
	int mode = 0, r = 0;
	size_t old;

	if (it) {
		old = path_key(p, "period");
		r = eevdf__wl_ld_duration(p, it, false, &o->timer_period, NULL);
		if (!r && o->timer_period == 0)
			r = fail(p, "must be greater than 0");
		path_pop(p, old);
	}
	if (!r)
		r = eevdf__wl_get_enum(p, def, "mode", timer_mode_names,
				       ARRAY_SIZE(timer_mode_names), &mode);
	if (!r)
		r = eevdf__wl_get_bool(p, def, "unique", &o->timer_unique);
	o->timer_absolute = mode == 1;
	return r;
}

static int object_settings(struct wl_parser *p, const cJSON *def,
			   struct wl_object *o)
{
	struct sim_object *t = &o->tmpl;
	const cJSON *it;
	bool b = false;
	size_t old;
	int h = 0, r = 0;
	s64 v;

	switch (t->type) {
	case OBJ_CHANNEL:
		return channel_settings(p, def, &t->u.chan);
	case OBJ_SEM:
		t->u.sem.max = -1;
		it = get(def, "max");
		if (it && !cJSON_IsNull(it) &&
		    (r = eevdf__wl_opt_int(p, def, "max", 1, WL_MAX_INT,
					   &t->u.sem.max)))
			return r;
		if ((r = eevdf__wl_opt_int(p, def, "initial", 0, WL_MAX_INT,
					   &t->u.sem.count)))
			return r;
		if (t->u.sem.max >= 0 && t->u.sem.count > t->u.sem.max) {
			old = path_key(p, "initial");
			r = fail(p, "must not be above max (%lld)",
				 (long long)t->u.sem.max);
			path_pop(p, old);
		}
		return r;
	case OBJ_MUTEX:
		if ((r = eevdf__wl_get_enum(p, def, "handoff", handoff_names,
					    ARRAY_SIZE(handoff_names), &h)) ||
		    (r = eevdf__wl_get_bool(p, def, "spin_owner", &b)))
			return r;
		old = path_key(p, h ? "handoff" : "spin_owner");
		if (h)
			r = fail(p, "\"handoff\": \"barging\" is not "
				    "supported by this version yet (mutexes "
				    "hand off in FIFO order)");
		else if (b)
			r = fail(p, "\"spin_owner\": true is not supported by "
				    "this version yet");
		path_pop(p, old);
		return r;
	case OBJ_SPINLOCK:
		return eevdf__wl_get_bool(p, def, "per_cpu",
					  &t->u.spin.per_cpu);
	case OBJ_BARRIER:
		v = 0;
		r = eevdf__wl_opt_int(p, def, "parties", 1, EEVDF_MAX_TASKS,
				      &v);
		t->u.barrier.parties = (u32)v;
		o->parties_set = v > 0;
		return r;
	case OBJ_TIMER:
		return timer_settings(p, def, o);
	case OBJ_LATCH:
	case OBJ_EVENT:
	case OBJ_LIST:
		break;
	case OBJ_DEVICE:
	case OBJ_FILESYSTEM:
	case OBJ_WORKQUEUE:
	case OBJ_WORK:
	case OBJ_IRQ:
		return eevdf__wl_io_settings(p, def, o);
	}
	return 0;
}

struct obj_def {
	const cJSON *json;
	enum obj_type type;
	size_t src;
};

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

static int object_inst(struct wl_parser *p, void *ud, const char *name)
{
	struct obj_def *d = ud;
	struct eevdf_workload *wl = p->wl;
	struct wl_object *o;
	size_t old;
	int r;

	if (wl->nr_objs >= WL_MAX_OBJECTS)
		return fail(p, "a workload may have at most %d objects",
			    WL_MAX_OBJECTS);
	if (strcmp(name, "self") == 0 || ends_with(name, ".self")) {
		old = path_key(p, "name");
		r = fail(p, "an object may not be called 'self' or end in "
			    "'.self' (those name the tasks' own semaphores)");
		path_pop(p, old);
		return r;
	}
	if (wl->nr_objs == wl->cap_objs) {
		size_t cap = wl->cap_objs ? 2 * wl->cap_objs : 16;
		struct wl_object *n = realloc(wl->objs, cap * sizeof(*n));

		if (!n)
			return nomem(p);
		wl->objs = n;
		wl->cap_objs = cap;
	}
	o = &wl->objs[wl->nr_objs++];
	memset(o, 0, sizeof(*o));
	o->src = d->src;
	o->tmpl.type = d->type;
	o->tmpl.name = eevdf__wl_strdup(name);
	if (!o->tmpl.name)
		return nomem(p);
	return object_settings(p, d->json, o);
}

int eevdf__wl_parse_objects(struct wl_parser *p, const cJSON *arr)
{
	struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX];
	const cJSON *it;
	size_t i = 0, old;
	u32 dup, first;
	int r = 0;

	if (arr && !cJSON_IsArray(arr))
		return fail(p, "must be an array of objects");
	for (it = arr ? arr->child : NULL; it; it = it->next, i++) {
		const struct obj_type_def *td = NULL;
		struct obj_def d = { it, OBJ_CHANNEL, i };
		const cJSON *ty = get(it, "type");
		char *type = NULL;

		old = path_index(p, i);
		if (!cJSON_IsObject(it)) {
			r = fail(p, "an object must be a JSON object");
		} else if (!ty) {
			r = fail(p, "missing key 'type'");
		} else {
			size_t o2 = path_key(p, "type");

			r = eevdf__wl_ld_string(p, ty, &type);
			for (size_t k = 0; !r && k < ARRAY_SIZE(obj_types); k++)
				if (strcmp(type, obj_types[k].name) == 0)
					td = &obj_types[k];
			if (!r && !td)
				r = fail(p,
					 "unknown object type '%s' "
					 "(expected channel, sem, latch, "
					 "event, mutex, spinlock, barrier, "
					 "list, timer, device, filesystem, "
					 "workqueue, work or irq)",
					 SHOWN(sb, type));
			path_pop(p, o2);
			free(type);
		}
		if (!r) {
			bool ch;

			EEVDF_ASSERT(td); /* no type: r was set above */
			ch = td->type == OBJ_CHANNEL;

			r = eevdf__wl_check_keys(p, it, td->keys, td->nr_keys,
						 ch ? chan_later : NULL,
						 ch ? ARRAY_SIZE(chan_later) :
						      0);
		}
		if (!r) {
			d.type = td->type;
			r = eevdf__wl_instances(p, it, "object", object_inst,
						&d);
		}
		path_pop(p, old);
		if (r)
			return r;
	}
	if (eevdf__wl_index_objects(wl, &dup, &first))
		return nomem(p);
	if (dup != UINT32_MAX) {
		old = path_index(p, wl->objs[dup].src);
		path_key(p, "name");
		r = fail(p,
			 "duplicate object name '%s' (also used by "
			 "objects[%zu])",
			 wl->objs[dup].tmpl.name, wl->objs[first].src);
		path_pop(p, old);
	}
	return r ? r : eevdf__wl_io_link(p);
}

/* Metrics -------------------------------------------------------------- */

static const char *const met_keys[] = {
	"type",	 "unit",     "quantizer", "drop_zero", "reset_at_warmup",
	"keyed", "per_task", "of",	  "every",
};
static const char *const met_types[] = { "hist", "counter", "value", "rate" };
static const enum metric_type met_type_values[] = { MET_HIST, MET_COUNTER,
						    MET_VALUE, MET_RATE };
static const char *const met_later[] = { "span", "window_max", "builtin" };
static const char *const quant_names[] = { "exact", "fio_plat8", "hdr3" };
static const enum eevdf_hist_kind quant_values[] = {
	EEVDF_HIST_EXACT,
	EEVDF_HIST_FIO_PLAT8,
	EEVDF_HIST_HDR3,
};

/* A key that only some types take. */
static int only_for(struct wl_parser *p, const cJSON *m, const char *key,
		    bool ok, const char *types)
{
	size_t old;
	int r;

	if (ok || !get(m, key))
		return 0;
	old = path_key(p, key);
	r = fail(p, "'%s' is only for %s metrics", key, types);
	path_pop(p, old);
	return r;
}

static int parse_metric(struct wl_parser *p, const cJSON *m,
			struct wl_metric *out, int type)
{
	enum metric_type t = met_type_values[type];
	const cJSON *it;
	int q = 0, r;
	size_t old;

	out->type = t;
	if ((r = eevdf__wl_check_keys(p, m, met_keys, ARRAY_SIZE(met_keys),
				      NULL, 0)) ||
	    (r = only_for(p, m, "quantizer", t == MET_HIST || t == MET_RATE,
			  "hist and rate")) ||
	    (r = only_for(p, m, "drop_zero", t == MET_HIST, "hist")) ||
	    (r = only_for(p, m, "keyed", t == MET_HIST || t == MET_VALUE,
			  "hist and value")) ||
	    (r = only_for(p, m, "per_task", t == MET_COUNTER, "counter")) ||
	    (r = only_for(p, m, "of", t == MET_RATE, "rate")) ||
	    (r = only_for(p, m, "every", t == MET_RATE, "rate")) ||
	    (r = eevdf__wl_get_enum(p, m, "quantizer", quant_names,
				    ARRAY_SIZE(quant_names), &q)) ||
	    (r = eevdf__wl_get_bool(p, m, "drop_zero", &out->drop_zero)) ||
	    (r = eevdf__wl_get_bool(p, m, "reset_at_warmup",
				    &out->reset_at_warmup)) ||
	    (r = eevdf__wl_get_bool(p, m, "keyed", &out->keyed)) ||
	    (r = eevdf__wl_get_bool(p, m, "per_task", &out->per_task)))
		return r;
	out->quant = quant_values[q];
	it = get(m, "unit");
	if (it) {
		old = path_key(p, "unit");
		r = eevdf__wl_ld_string(p, it, &out->unit);
		path_pop(p, old);
		if (r)
			return r;
	}
	if (t != MET_RATE)
		return 0;
	if (!get(m, "of"))
		return fail(p, "missing key 'of' (the counter a rate samples)");
	if (!(it = get(m, "every")))
		return fail(p, "missing key 'every' (the sampling period)");
	old = path_key(p, "every");
	r = eevdf__wl_ld_duration(p, it, false, &out->every, NULL);
	if (!r && out->every == 0)
		r = fail(p, "must be greater than 0");
	path_pop(p, old);
	return r;
}

/* The "of" of a rate, once every other metric is known. */
static int rate_of(struct wl_parser *p, const cJSON *m, struct wl_metric *out)
{
	char *of = NULL, sb[WL_SHOWN_MAX];
	size_t old = path_key(p, "of");
	int i, r = eevdf__wl_ld_string(p, get(m, "of"), &of);

	if (!r) {
		i = eevdf__wl_find_metric(p->wl, of);
		if (i < 0)
			r = fail(p, "no metric named '%s'", SHOWN(sb, of));
		else if (p->wl->metrics[i].type != MET_COUNTER)
			r = fail(p, "metric '%s' is not a counter",
				 SHOWN(sb, of));
		else
			out->of = (u32)i;
	}
	free(of);
	path_pop(p, old);
	return r;
}

/*
 * "metrics": name -> definition.  Rates come after every other metric in
 * the engine's table, since a rate samples a counter added before it.
 */
int eevdf__wl_parse_metrics(struct wl_parser *p, const cJSON *obj)
{
	struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX];
	const cJSON *it;
	size_t n = 0, old;
	int r = 0;

	if (!obj)
		return 0;
	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of name: definition");
	for (it = obj->child; it; it = it->next)
		n++;
	wl->metrics = calloc(n ? n : 1, sizeof(*wl->metrics));
	if (!wl->metrics)
		return nomem(p);
	for (int pass = 0; pass < 2; pass++) {
		for (it = obj->child; !r && it; it = it->next) {
			const char *name = it->string ? it->string : "";
			const cJSON *ty = cJSON_IsObject(it) ? get(it, "type") :
							       NULL;
			struct wl_metric *m = &wl->metrics[wl->nr_metrics];
			int type = -1;

			old = path_key(p, name);
			if (!cJSON_IsObject(it))
				r = fail(p, "a metric must be an object");
			else if (!ty)
				r = fail(p, "missing key 'type'");
			if (!r) {
				size_t o2 = path_key(p, "type");

				EEVDF_ASSERT(ty); /* else r was set above */
				for (size_t k = 0; cJSON_IsString(ty) &&
						   k < ARRAY_SIZE(met_later);
				     k++)
					if (!strcmp(ty->valuestring,
						    met_later[k]))
						r = fail(p,
							 "metric type '%s' "
							 "is not supported "
							 "by this version "
							 "yet",
							 met_later[k]);
				path_pop(p, o2);
			}
			if (!r)
				r = eevdf__wl_get_enum(p, it, "type", met_types,
						       ARRAY_SIZE(met_types),
						       &type);
			if (r || (type == 3) != (pass == 1)) {
				path_pop(p, old);
				continue;
			}
			if (eevdf__wl_find_metric(wl, name) >= 0)
				r = fail(p, "duplicate metric '%s'",
					 SHOWN(sb, name));
			else
				r = eevdf__wl_check_name(p, name, "metric");
			if (!r) {
				m->name = eevdf__wl_strdup(name);
				wl->nr_metrics++;
				r = m->name ? parse_metric(p, it, m, type) :
					      nomem(p);
			}
			if (!r && pass == 1)
				r = rate_of(p, it, m);
			path_pop(p, old);
		}
	}
	return r;
}

/* Tasks ---------------------------------------------------------------- */

static const char *const task_keys[] = {
	"name",	       "for",	    "count",   "kind",	   "policy",
	"nice",	       "slice",	    "cpus",    "start",	   "vars",
	"timer_slack", "on_signal", "program", "priority", "runtime",
	"deadline",    "period",    "cgroup",  "session",  "setsid",
};

/* An array of CPU numbers, in its order (an affinity is a set, but the
 * public view gives the CPUs back as written). */
static int cpus_array(struct wl_parser *p, const cJSON *arr, int **out,
		      size_t *nr)
{
	struct eevdf_cpuset seen;
	const cJSON *it;
	size_t n = 0, old;
	s64 cpu;
	int r;

	if (!arr->child)
		return fail(p, "must not be empty (omit it to allow every "
			       "CPU)");
	for (it = arr->child; it; it = it->next)
		n++;
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return nomem(p);
	memset(&seen, 0, sizeof(seen));
	for (n = 0, it = arr->child; it; it = it->next, n++) {
		old = path_index(p, n);
		r = eevdf__wl_ld_int(p, it, 0, EEVDF_MAX_CPUS - 1, &cpu);
		if (!r && eevdf__cpuset_has(&seen, (int)cpu))
			r = fail(p, "duplicate CPU %d", (int)cpu);
		path_pop(p, old);
		if (r)
			return r;
		eevdf__cpuset_add(&seen, (int)cpu);
		(*out)[n] = (int)cpu;
	}
	*nr = n;
	return 0;
}

/* A kernel-style CPU list, "0-3,8": its CPUs in increasing order. */
static int cpus_text(struct wl_parser *p, const char *s, int **out, size_t *nr)
{
	struct eevdf_cpuset set;
	char why[128], sb[WL_SHOWN_MAX], wb[sizeof(why)];
	size_t n;

	if (eevdf__cpulist_parse(s, &set, why, sizeof(why)))
		return fail(p, "bad CPU list '%s': %s", SHOWN(sb, s),
			    eevdf__wl_shown(wb, sizeof(wb), why));
	n = eevdf__cpuset_count(&set);
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return nomem(p);
	for (size_t i = 0; i < n; i++)
		(*out)[i] = eevdf__cpuset_nth(&set, i);
	*nr = n;
	return 0;
}

/*
 * A CPU list: a string "0-3,8" (after "${...}": a number is one CPU, a
 * null param no list), an array of CPU numbers or one number.  *out is
 * NULL for null, which is refused unless null_ok.
 */
static int cpus_list(struct wl_parser *p, const cJSON *it, bool null_ok,
		     int **out, size_t *nr)
{
	struct wl_value v;
	enum wl_vkind kind;
	s64 cpu = 0;
	int r;

	*out = NULL;
	*nr = 0;
	if (cJSON_IsArray(it))
		return cpus_array(p, it, out, nr);
	if (cJSON_IsNull(it) && null_ok)
		return 0;
	if (cJSON_IsNumber(it)) {
		if ((r = eevdf__wl_get_int(p, it, 0, EEVDF_MAX_CPUS - 1, &cpu)))
			return r;
	} else if (cJSON_IsString(it)) {
		if ((r = eevdf__wl_ld_value(p, it, &v)))
			return r;
		kind = v.kind;
		cpu = v.i;
		if (kind == WV_STR)
			r = cpus_text(p, v.s, out, nr);
		else if (kind == WV_NULL && !null_ok)
			r = fail(p, "must not be null");
		else if (kind == WV_INT && (cpu < 0 || cpu >= EEVDF_MAX_CPUS))
			r = fail(p, "CPU %lld is not between 0 and %d",
				 (long long)cpu, EEVDF_MAX_CPUS - 1);
		eevdf__wl_value_free(&v);
		if (r || kind != WV_INT)
			return r;
	} else {
		return fail(p,
			    "must be a CPU list: a string such as \"0-3,8\", "
			    "a CPU number or an array of them%s",
			    null_ok ? ", or null" : "");
	}
	if (!(*out = malloc(sizeof(**out))))
		return nomem(p);
	(*out)[0] = (int)cpu;
	*nr = 1;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * {"list": L, "pick": N}: the CPU at position N mod n of the n CPUs of L
 * in increasing order, schbench's round robin of message threads over -M
 * (pin_message_cpu() takes find_nth_set_bit(cpus, index % CPU_COUNT)).
 */
static int cpus_pick(struct wl_parser *p, const cJSON *obj, int **out,
		     size_t *nr)
{
	static const char *const keys[] = { "list", "pick" };
	int *list = NULL;
	size_t n = 0, old;
	s64 k = 0;
	int r;

	if ((r = eevdf__wl_check_keys(p, obj, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!get(obj, "list") || !get(obj, "pick"))
		return fail(p, "missing key '%s'",
			    get(obj, "list") ? "pick" : "list");
	old = path_key(p, "list");
	r = cpus_list(p, get(obj, "list"), false, &list, &n);
	path_pop(p, old);
	if (!r) {
		old = path_key(p, "pick");
		r = eevdf__wl_ld_int(p, get(obj, "pick"), 0, WL_MAX_INT, &k);
		path_pop(p, old);
	}
	if (r) {
		free(list);
		return r;
	}
	/* a list that is not null has a CPU at least */
	EEVDF_ASSERT(list && n);
	qsort(list, n, sizeof(*list), cmp_int);
	/* the list's memory holds the one CPU picked */
	list[0] = list[(size_t)k % n];
	*out = list;
	*nr = 1;
	return 0;
}

/*
 * "cpus": a CPU list, null (every CPU, as without it), the pick of one CPU
 * of a list, or a choice of those.
 */
static int task_cpus(struct wl_parser *p, const cJSON *it, struct wl_task *t)
{
	const cJSON *c = NULL;
	size_t old, n = 0;
	int *cpus = NULL;
	int r = eevdf__wl_choose(p, it, &c, &old);

	if (!r && cJSON_IsObject(c))
		r = cpus_pick(p, c, &cpus, &n);
	else if (!r)
		r = cpus_list(p, c, true, &cpus, &n);
	path_pop(p, old);
	if (r) {
		free(cpus);
		return r;
	}
	free(t->cpus);
	t->cpus = cpus;
	t->spec.cpus = cpus;
	t->spec.nr_cpus = n;
	return 0;
}

/* "vars": {"@x": value}: initial values of task-local variables. */
static int task_vars(struct wl_parser *p, const cJSON *obj, struct wl_task *t)
{
	const cJSON *it, *jt;
	size_t n = 0, old;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of \"@variable\": value");
	for (it = obj->child; it; it = it->next)
		n++;
	t->init = calloc(n ? n : 1, sizeof(*t->init));
	if (!t->init)
		return nomem(p);
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		struct wl_init *in = &t->init[t->nr_init];
		const cJSON *str = cJSON_IsObject(it) ? get(it, "str") : NULL;

		old = path_key(p, k);
		if (k[0] != '@' || k[1] == '@' ||
		    !eevdf__wl_is_ident(k + 1, strlen(k + 1)))
			r = fail(p, "a task variable is '@' and an "
				    "identifier (globals, '@@x', are set "
				    "with let)");
		else if (strcmp(k, "@pid") == 0)
			r = fail(p, "'@pid' is set by the loader");
		for (jt = obj->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate key '%s'", k);
		if (!r && eevdf__wl_names_add(&p->wl->locals, k, strlen(k),
					      &in->slot))
			r = nomem(p);
		if (r) {
			/* nothing to do */
		} else if (str && cJSON_IsString(str) && !str->next &&
			   str == it->child) {
			u32 id;

			if (eevdf__wl_names_add(&p->wl->strings,
						str->valuestring,
						strlen(str->valuestring), &id))
				r = nomem(p);
			in->v = STRING_ID_BASE + (s64)id;
		} else {
			r = eevdf__wl_ld_number(p, it, &in->v);
		}
		if (!r)
			t->nr_init++;
		path_pop(p, old);
	}
	return r;
}

/*
 * "priority", "runtime", "deadline" and "period": the rt_priority of
 * policies fifo and rr, the reservation of policy deadline, checked as
 * sched_setattr() checks them (what it would refuse is an error here).
 */
static int task_class_attrs(struct wl_parser *p, const cJSON *def,
			    struct wl_task *t)
{
	static const char *const dl_keys[] = { "runtime", "deadline",
					       "period" };
	eevdf_time *dl[] = { &t->spec.dl_runtime, &t->spec.dl_deadline,
			     &t->spec.dl_period };
	bool rt = t->spec.policy == EEVDF_POLICY_FIFO ||
		  t->spec.policy == EEVDF_POLICY_RR;
	const cJSON *it = get(def, "priority"), *c = NULL;
	size_t old, old2;
	s64 v = 0;
	int r = 0;

	/* a choice may leave the priority out: null */
	if (it) {
		old = path_key(p, "priority");
		r = eevdf__wl_choose(p, it, &c, &old2);
		if (!r && cJSON_IsNull(c))
			c = NULL;
		else if (!r && !rt)
			r = fail(p,
				 "is the rt_priority of policies fifo and "
				 "rr (a fair task's priority is its 'nice')");
		else if (!r)
			r = eevdf__wl_ld_int(p, c, 1, 99, &v);
		t->spec.rt_priority = (unsigned int)v;
		path_pop(p, old2);
		path_pop(p, old);
		if (r)
			return r;
	}
	if (!c && rt) {
		old = path_key(p, "policy");
		r = fail(p,
			 "policy '%s' needs a 'priority' of 1..99 (its "
			 "rt_priority)",
			 eevdf_policy_name(t->spec.policy));
		path_pop(p, old);
	}
	for (size_t i = 0; !r && i < ARRAY_SIZE(dl_keys); i++) {
		if (!(it = get(def, dl_keys[i])))
			continue;
		old = path_key(p, dl_keys[i]);
		if (t->spec.policy != EEVDF_POLICY_DEADLINE)
			r = fail(p, "is a parameter of policy deadline (a fair "
				    "task's request is its 'slice')");
		else
			r = eevdf__wl_ld_duration(p, it, false, dl[i], NULL);
		path_pop(p, old);
	}
	if (r || t->spec.policy != EEVDF_POLICY_DEADLINE)
		return r;
	if (!get(def, "runtime") || !get(def, "deadline"))
		return fail(p, "policy deadline needs 'runtime' and 'deadline' "
			       "('period' defaults to the deadline)");
	if (get(def, "cpus")) {
		old = path_key(p, "cpus");
		r = fail(p, "a deadline task must be allowed on every CPU of "
			    "its root domain (sched_setattr() refuses it "
			    "with EPERM)");
		path_pop(p, old);
		return r;
	}
	return eevdf__wl_check_dl(p, (u64)t->spec.dl_runtime,
				  (u64)t->spec.dl_deadline,
				  (u64)t->spec.dl_period);
}

/* The attributes of one task instance (everything but its program). */
static int task_attrs(struct wl_parser *p, const cJSON *def, struct wl_task *t)
{
	const cJSON *it;
	size_t old;
	s64 v;
	int r = 0;
	bool null;

	if ((it = get(def, "nice"))) {
		old = path_key(p, "nice");
		r = eevdf__wl_ld_int(p, it, -20, 19, &v);
		t->spec.nice = (int)v;
		path_pop(p, old);
	}
	if (!r && (it = get(def, "policy"))) {
		const cJSON *c = NULL;
		size_t old2;

		old = path_key(p, "policy");
		r = eevdf__wl_choose(p, it, &c, &old2);
		if (!r)
			r = eevdf__wl_policy(p, c, &t->spec.policy);
		path_pop(p, old2);
		path_pop(p, old);
	}
	if (!r && (it = get(def, "slice"))) {
		old = path_key(p, "slice");
		r = eevdf__wl_ld_duration(p, it, true, &t->spec.slice, &null);
		if (!r && !null &&
		    (t->spec.slice < WL_SLICE_MIN ||
		     t->spec.slice > WL_SLICE_MAX))
			r = fail(p, "must be between 100us and 100ms (the "
				    "kernel's sched_runtime range); omit it "
				    "or use null for the default slice");
		path_pop(p, old);
	}
	if (!r && (it = get(def, "cpus"))) {
		old = path_key(p, "cpus");
		r = task_cpus(p, it, t);
		path_pop(p, old);
	}
	if (!r && (it = get(def, "start"))) {
		old = path_key(p, "start");
		r = eevdf__wl_ld_duration(p, it, false, &t->spec.start, NULL);
		path_pop(p, old);
	}
	if (!r && get(def, "kind")) {
		static const char *const kinds[] = { "process", "thread" };
		int k = 0;

		r = eevdf__wl_get_enum(p, def, "kind", kinds, ARRAY_SIZE(kinds),
				       &k);
		t->is_thread = k == 1;
	}
	if (!r && (it = get(def, "vars"))) {
		old = path_key(p, "vars");
		r = task_vars(p, it, t);
		path_pop(p, old);
	}
	if (!r)
		r = task_class_attrs(p, def, t);
	if (!r)
		r = eevdf__wl_task_groups(p, def, t);
	return r;
}

/* Programs a task definition's instances may share (pass 2). */
#define WL_SHARE_MAX 64

struct share {
	u32 prog;
	s64 v[WL_MAX_FOR_VARS]; /* the for variables it was compiled for */
};

struct task_def {
	const cJSON *json;
	size_t src;
	bool by_count; /* where a too-many-tasks error points */
	/* pass 2: the for variables the program reads (mask; umask: not
	 * counting those that only name bound objects), and the programs
	 * compiled so far with their values of those */
	bool mask_set;
	u32 mask, umask;
	u32 nr_share;
	struct share share[WL_SHARE_MAX];
};

static int task_inst(struct wl_parser *p, void *ud, const char *name)
{
	struct task_def *d = ud;
	struct eevdf_workload *wl = p->wl;
	struct wl_task *t;
	size_t old;
	int r;

	if (wl->nr_tasks >= EEVDF_MAX_TASKS) {
		old = path_key(p, d->by_count ? "count" : "for");
		r = fail(p,
			 "the workload has more than %d tasks after "
			 "expansion",
			 EEVDF_MAX_TASKS);
		path_pop(p, old);
		return r;
	}
	if (wl->nr_tasks == wl->cap_tasks) {
		size_t cap = wl->cap_tasks ? 2 * wl->cap_tasks : 16;
		struct wl_task *n = realloc(wl->tasks, cap * sizeof(*n));

		if (!n)
			return nomem(p);
		wl->tasks = n;
		wl->cap_tasks = cap;
	}
	t = &wl->tasks[wl->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->src = d->src;
	t->name = eevdf__wl_strdup(name);
	if (!t->name)
		return nomem(p);
	t->spec.name = t->name;
	t->spec.policy = EEVDF_POLICY_NORMAL;
	return task_attrs(p, d->json, t);
}

/*
 * The tasks of the file in order, from a quick sum of plain "count"s: a
 * file asking for more than the maximum fails before anything is built.
 */
static int precount(struct wl_parser *p, const cJSON *arr)
{
	const cJSON *it, *c;
	size_t i = 0, old;
	double total = 0;
	int r = 0;

	for (it = arr->child; it; it = it->next, i++) {
		c = cJSON_IsObject(it) ? get(it, "count") : NULL;
		if (c && cJSON_IsNumber(c) && c->valuedouble >= 1 &&
		    c->valuedouble <= WL_MAX_COUNT)
			total += c->valuedouble;
		else if (!cJSON_IsObject(it) || !get(it, "for"))
			total += 1;
		if (total > EEVDF_MAX_TASKS && c) {
			old = path_index(p, i);
			path_key(p, "count");
			r = fail(p,
				 "the workload has more than %d tasks after "
				 "expansion",
				 EEVDF_MAX_TASKS);
			path_pop(p, old);
			break;
		}
	}
	return r;
}

/* Pass 1: every task instance with its name and attributes. */
int eevdf__wl_parse_tasks(struct wl_parser *p, const cJSON *arr)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it, *prog = NULL;
	size_t i = 0, old;
	u32 dup, first;
	int r = 0;

	if (!cJSON_IsArray(arr))
		return fail(p, "must be an array of task objects");
	if (!arr->child)
		return fail(p, "must not be empty");
	if ((r = precount(p, arr)))
		return r;
	for (it = arr->child; it; it = it->next, i++) {
		struct task_def d;

		memset(&d, 0, sizeof(d));
		d.json = it;
		d.src = i;
		d.by_count = get(it, "count") != NULL;
		old = path_index(p, i);
		if (!cJSON_IsObject(it))
			r = fail(p, "a task must be an object");
		else
			r = eevdf__wl_check_keys(p, it, task_keys,
						 ARRAY_SIZE(task_keys), NULL,
						 0);
		if (!r && !get(it, "name"))
			r = fail(p, "missing key 'name'");
		if (!r && !(prog = get(it, "program"))) {
			r = fail(p, "missing key 'program'");
		} else if (!r) {
			size_t o2 = path_key(p, "program");

			if (!cJSON_IsArray(prog))
				r = fail(p, "must be an array of ops");
			else if (!prog->child)
				r = fail(p, "must not be empty");
			path_pop(p, o2);
		}
		if (!r)
			r = eevdf__wl_instances(p, it, "task", task_inst, &d);
		path_pop(p, old);
		if (r)
			return r;
	}
	if (!wl->nr_tasks)
		return fail(p, "no task is left after expansion (every 'for' "
			       "range is empty)");
	if (eevdf__wl_index_tasks(wl, &dup, &first))
		return nomem(p);
	if (dup != UINT32_MAX) {
		old = path_index(p, wl->tasks[dup].src);
		path_key(p, "name");
		r = fail(p,
			 "duplicate task name '%s' (also used by "
			 "tasks[%zu])",
			 wl->tasks[dup].name, wl->tasks[first].src);
		path_pop(p, old);
	}
	return r;
}

static int add_prog(struct wl_parser *p, struct program *prog)
{
	struct eevdf_workload *wl = p->wl;
	struct wl_prog *w;

	if (wl->nr_progs == wl->cap_progs) {
		size_t cap = wl->cap_progs ? 2 * wl->cap_progs : 16;
		struct wl_prog *n = realloc(wl->progs, cap * sizeof(*n));

		if (!n) {
			eevdf__program_unref(prog);
			return nomem(p);
		}
		wl->progs = n;
		wl->cap_progs = cap;
	}
	w = &wl->progs[wl->nr_progs++];
	memset(w, 0, sizeof(*w));
	w->prog = prog;
	w->objs = p->uses;
	w->nr_objs = p->nr_uses;
	w->cap_objs = p->cap_uses;
	p->uses = NULL;
	p->nr_uses = p->cap_uses = 0;
	return 0;
}

/* A program compiled for the same values of the variables in mask. */
static int shared_prog(const struct wl_parser *p, const struct task_def *d,
		       u32 mask)
{
	for (u32 i = 0; d->mask_set && i < d->nr_share; i++) {
		bool same = true;

		for (u32 k = 0; same && k < p->nr_fv; k++)
			if (mask & (1u << k))
				same = d->share[i].v[k] == p->fv[k].v;
		if (same)
			return (int)d->share[i].prog;
	}
	return -1;
}

/*
 * Every task holds a slot per op of its program (a loop counter), shared
 * program or not, and every program compiled holds its ops: max_ops caps
 * their sum, checked as each task is compiled, so that a file that would
 * expand past it stops before it takes the memory.
 */
static int count_ops(struct wl_parser *p, const struct program *prog)
{
	u64 max = eevdf__wl_max_ops(p->opts);

	p->ops += prog->nr_ops;
	if (p->ops <= max)
		return 0;
	return eevdf__wl_fail_code(p, EEVDF_ELIMIT,
				   "the tasks expand to more than %llu op "
				   "slots (tasks x program length, "
				   "max_ops): this one's %u ops pass it",
				   (unsigned long long)max, prog->nr_ops);
}

/*
 * Pass 2, per instance: compile its program, unless an earlier instance's
 * program read the same values of the for variables (every worker of
 * schbench's message thread i runs the same program): then share it.
 * An instance that differs from an earlier one only in the objects its
 * bound names pick (tbench's client i, with channels c2s[i] and s2c[i])
 * is compiled for its own objects, and its program is dropped for the
 * earlier one's once the link has checked it (workload_link.c).
 */
static int task_compile(struct wl_parser *p, void *ud, const char *name)
{
	struct task_def *d = ud;
	struct eevdf_workload *wl = p->wl;
	const cJSON *slack = get(d->json, "timer_slack");
	struct wl_task *t = &wl->tasks[p->next_task++];
	struct program *prog = NULL;
	int shared = shared_prog(p, d, d->mask), bound = -1;
	size_t old;
	int r = 0;

	(void)name;
	if (shared >= 0) {
		t->prog = (u32)shared;
		return count_ops(p, wl->progs[shared].prog);
	}
	shared = shared_prog(p, d, d->umask);
	if (shared >= 0 && wl->progs[shared].prog->nr_binds)
		bound = wl->progs[shared].share_with ?
				(int)wl->progs[shared].share_with - 1 :
				shared;
	p->used_for = 0;
	p->bound_for = 0;
	p->timer_slack = 0;
	p->task = (size_t)(t - wl->tasks);
	if (slack) {
		old = path_key(p, "timer_slack");
		r = eevdf__wl_ld_duration(p, slack, false, &p->timer_slack,
					  NULL);
		path_pop(p, old);
	}
	if (!r)
		r = eevdf__wl_compile_program(p, d->json, NULL, 0, &prog);
	if (!r)
		r = add_prog(p, prog);
	if (r)
		return r;
	t->prog = (u32)(wl->nr_progs - 1);
	if ((r = count_ops(p, prog)))
		return r;
	if (bound >= 0)
		wl->progs[t->prog].share_with = (u32)bound + 1;
	if (!d->mask_set) {
		d->mask = p->used_for | p->bound_for;
		d->umask = p->used_for;
		d->mask_set = true;
	}
	if ((p->used_for | p->bound_for) == d->mask &&
	    p->used_for == d->umask && d->nr_share < WL_SHARE_MAX) {
		struct share *sh = &d->share[d->nr_share++];

		sh->prog = t->prog;
		for (u32 k = 0; k < p->nr_fv; k++)
			sh->v[k] = p->fv[k].v;
	}
	return 0;
}

/* Pass 2: the programs, once every task, object and metric is known. */
int eevdf__wl_compile_tasks(struct wl_parser *p, const cJSON *arr)
{
	const cJSON *it;
	size_t i = 0, old;
	int r = 0;

	p->next_task = 0;
	for (it = arr->child; it; it = it->next, i++) {
		struct task_def d;

		memset(&d, 0, sizeof(d));
		d.json = it;
		d.src = i;
		old = path_index(p, i);
		r = eevdf__wl_instances(p, it, "task", task_compile, &d);
		path_pop(p, old);
		if (!r)
			continue;
		if (!eevdf__wl_collect(p, r))
			return r;
		/* go on with the first instance of the next task */
		while (p->next_task < p->wl->nr_tasks &&
		       p->wl->tasks[p->next_task].src <= i)
			p->next_task++;
	}
	return p->nr_errors ? p->first_error : 0;
}

/* Templates ------------------------------------------------------------ */

static const char *const tmpl_keys[] = {
	"kind",	   "policy",   "nice",	      "slice",
	"cpus",	   "vars",     "timer_slack", "on_signal",
	"program", "priority", "runtime",     "deadline",
	"period",  "cgroup",   "session",     "setsid",
};

/* A task named NAME or NAME[...], like the instances of template NAME. */
static int tmpl_clash(const struct eevdf_workload *wl, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < wl->nr_tasks; i++) {
		const char *t = wl->tasks[i].name;

		if (strncmp(t, name, n) == 0 && (t[n] == '\0' || t[n] == '['))
			return (int)i;
	}
	return -1;
}

/* The keys a task has and a template has not, each with its reason. */
static int tmpl_no_key(struct wl_parser *p, const cJSON *def)
{
	static const struct {
		const char *key;
		const char *why;
	} no[] = {
		{ "name", "it is named by its key; spawn names its instances "
			  "NAME[0], NAME[1], ..." },
		{ "for", "spawn's 'count' makes several instances" },
		{ "count", "spawn's 'count' makes several instances" },
		{ "start", "its instances start when they are spawned" },
	};
	size_t old;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		if (!get(def, no[i].key))
			continue;
		old = path_key(p, no[i].key);
		r = fail(p, "a template has no '%s': %s", no[i].key, no[i].why);
		path_pop(p, old);
		return r;
	}
	return 0;
}

static int parse_template(struct wl_parser *p, const char *name,
			  const cJSON *def, struct wl_task *t)
{
	char sb[WL_SHOWN_MAX];
	const cJSON *prog;
	size_t old;
	int r, i;

	if (!cJSON_IsObject(def))
		return fail(p, "a template must be an object of task keys");
	if ((r = tmpl_no_key(p, def)) ||
	    (r = eevdf__wl_check_keys(p, def, tmpl_keys, ARRAY_SIZE(tmpl_keys),
				      NULL, 0)) ||
	    (r = eevdf__wl_check_name(p, name, "template")))
		return r;
	if (strlen(name) > WL_NAME_MAX - WL_INST_SUFFIX)
		return fail(p,
			    "a template name is at most %d characters (its "
			    "instances add \"[k]\")",
			    WL_NAME_MAX - WL_INST_SUFFIX);
	if ((i = tmpl_clash(p->wl, name)) >= 0)
		return fail(p,
			    "template '%s' would name its instances like "
			    "task '%s'",
			    SHOWN(sb, name), p->wl->tasks[i].name);
	if (!(prog = get(def, "program")))
		return fail(p, "missing key 'program'");
	old = path_key(p, "program");
	if (!cJSON_IsArray(prog))
		r = fail(p, "must be an array of ops");
	else if (!prog->child)
		r = fail(p, "must not be empty");
	path_pop(p, old);
	if (r)
		return r;
	t->name = eevdf__wl_strdup(name);
	if (!t->name)
		return nomem(p);
	t->spec.name = t->name;
	t->spec.policy = EEVDF_POLICY_NORMAL;
	return task_attrs(p, def, t);
}

/*
 * Pass 1 of "templates": name -> task keys.  After the tasks, whose names
 * the instances must not take; before any program, since spawn names a
 * template.
 */
int eevdf__wl_parse_templates(struct wl_parser *p, const cJSON *obj)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it;
	size_t n = 0, old;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of name: template");
	for (it = obj->child; it; it = it->next)
		n++;
	wl->tmpls = calloc(n ? n : 1, sizeof(*wl->tmpls));
	if (!wl->tmpls)
		return nomem(p);
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";

		old = path_key(p, k);
		if (eevdf__wl_find_template(wl, k) >= 0)
			r = fail(p, "duplicate template '%s'", k);
		else
			r = parse_template(p, k, it, &wl->tmpls[wl->nr_tmpls]);
		/* counted once named: eevdf_workload_free() frees it */
		if (wl->tmpls[wl->nr_tmpls].name)
			wl->nr_tmpls++;
		path_pop(p, old);
	}
	return r;
}

/* Pass 2 of "templates": their programs, as the tasks'. */
int eevdf__wl_compile_templates(struct wl_parser *p, const cJSON *obj)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it, *slack;
	size_t i = 0, old, o2;
	int r = 0;

	for (it = obj ? obj->child : NULL; !r && it; it = it->next, i++) {
		struct wl_task *t = &wl->tmpls[i];
		struct program *prog = NULL;

		old = path_key(p, it->string);
		p->timer_slack = 0;
		if ((slack = get(it, "timer_slack"))) {
			o2 = path_key(p, "timer_slack");
			r = eevdf__wl_ld_duration(p, slack, false,
						  &p->timer_slack, NULL);
			path_pop(p, o2);
		}
		p->in_template = true;
		if (!r)
			r = eevdf__wl_compile_program(p, it, t->init,
						      t->nr_init, &prog);
		p->in_template = false;
		if (!r)
			r = add_prog(p, prog);
		if (!r)
			t->prog = (u32)(wl->nr_progs - 1);
		path_pop(p, old);
	}
	return r;
}
