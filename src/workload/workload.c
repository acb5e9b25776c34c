/* SPDX-License-Identifier: MIT */
/*
 * Workload files: the entry points and the top level of the format, the
 * setup of a simulation from a loaded workload, and the accessors.  The
 * phases of loading live in workload_*.c (see workload_impl.h).
 */
#include <limits.h>
#include <string.h>

#include "machine/machine.h"
#include "rtapp.h"
#include "engine/sim.h"
#include "engine/nbench.h"
#include "workload_impl.h"

#define fail eevdf__wl_fail
#define nomem eevdf__wl_nomem
#define path_key eevdf__wl_path_key
#define path_pop eevdf__wl_path_pop
#define get eevdf__wl_get
#define SHOWN(buf, s) eevdf__wl_shown(buf, sizeof(buf), s)

/*
 * Known keys.  The *_later lists are keys of the full format that this
 * version does not implement yet: they get their own message so that
 * nobody hunts for a typo that is not there.
 */
static const char *const top_keys[] = {
	"format",  "name",   "description", "duration", "seed",
	"params",  "costs",  "objects",	    "macros",	"templates",
	"tasks",   "stop",   "warmup",	    "metrics",	"report",
	"machine", "kernel", "groups",	    "sessions",
};
static const char *const top_later[] = {
	"include",
};

/*
 * A workload as this file allocates it: with what an rt-app import adds,
 * the translation's notes and the native text it was loaded from
 * (eevdf_workload_note(), eevdf_workload_translation()).  The workload is
 * the first member, so a workload pointer is its box's.
 */
struct wl_box {
	struct eevdf_workload wl;
	struct eevdf_diag *notes; /* cJSON's allocator, as the translator's */
	size_t nr_notes;
	char *native; /* the translated text; NULL for a native file */
};

static const struct wl_box *box_of(const eevdf_workload *wl)
{
	return (const struct wl_box *)wl;
}

/* Top level ------------------------------------------------------------- */

/* "kernel": the profile the workload was written for, by a known name. */
static int parse_kernel(struct wl_parser *p, const cJSON *root)
{
	char names[160] = "", sb[24];
	const struct eevdf_profile *prof;
	size_t old, n = 0;
	int r;

	if ((r = eevdf__wl_get_opt_string(p, root, "kernel", &p->wl->kernel)))
		return r;
	if (!p->wl->kernel)
		return 0;
	prof = eevdf__profile_find(p->wl->kernel);
	if (prof) {
		/* store the canonical name: an alias reads as its profile */
		char *c = eevdf__wl_strdup(prof->name);

		if (!c)
			return nomem(p);
		free(p->wl->kernel);
		p->wl->kernel = c;
		return 0;
	}
	for (size_t i = 0; i < eevdf_profile_count() && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
				      i ? ", " : "", eevdf_profile_name(i));
	old = path_key(p, "kernel");
	r = fail(p, "unknown kernel profile '%s' (known: %s)",
		 SHOWN(sb, p->wl->kernel), names);
	path_pop(p, old);
	return r;
}

/*
 * The seed: a JSON number up to 2^53 (above that a double has already
 * lost digits), or a string of decimal digits for the full 64-bit range.
 */
static int get_seed(struct wl_parser *p, const cJSON *it, u64 *out)
{
	const char *s;
	u64 v = 0;
	size_t i;
	s64 x;

	if (cJSON_IsNumber(it)) {
		double d = it->valuedouble;

		if (d >= 0 && d <= WL_MAX_JSON_INT && d == (double)(s64)d) {
			*out = (u64)d;
			return 0;
		}
		if (d > WL_MAX_JSON_INT)
			return fail(p, "seeds above 2^53 must be written as a "
				       "string of digits");
		return fail(p, "must be a non-negative integer");
	}
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be a non-negative integer or a string of "
			       "decimal digits");
	s = it->valuestring;
	if (strstr(s, "${")) {
		int r = eevdf__wl_ld_int(p, it, 0, WL_MAX_INT, &x);

		*out = (u64)x;
		return r;
	}
	for (i = 0; s[i]; i++) {
		u64 dg = (u64)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - dg) / 10)
			break;
		v = v * 10 + dg;
	}
	if (i == 0 || s[i])
		return fail(p, "must be a string of decimal digits from 0 to "
			       "18446744073709551615");
	*out = v;
	return 0;
}

/* "costs": the workload's own overrides, layered over the machine's. */
static int parse_costs(struct wl_parser *p, const cJSON *obj)
{
	return eevdf__wl_parse_costs(p, obj, &p->wl->costs, &p->wl->cost_set);
}

static const char *const stop_keys[] = { "after", "mode", "when", "task" };

/* "stop"; a task name is resolved once the tasks are known. */
static int parse_stop(struct wl_parser *p, const cJSON *obj, const cJSON **task)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *after = get(obj, "after"), *mode = get(obj, "mode");
	const cJSON *when = get(obj, "when");
	size_t old;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object");
	if ((r = eevdf__wl_check_keys(p, obj, stop_keys, ARRAY_SIZE(stop_keys),
				      NULL, 0)))
		return r;
	if (!after == !when)
		return fail(p, "needs exactly one of 'after' and 'when'");
	if (after) {
		if (get(obj, "task"))
			return fail(p, "'task' goes with \"when\": "
				       "\"task_exited\"");
		old = path_key(p, "after");
		r = eevdf__wl_ld_duration(p, after, false, &wl->stop_after,
					  NULL);
		if (!r && wl->stop_after == 0)
			r = fail(p, "must be greater than 0");
		path_pop(p, old);
		if (r || !mode)
			goto done;
		old = path_key(p, "mode");
		if (cJSON_IsString(mode) && !strcmp(mode->valuestring, "kill"))
			wl->stop_kill = true;
		else if (!cJSON_IsString(mode) ||
			 strcmp(mode->valuestring, "flag"))
			r = fail(p, "must be \"flag\" or \"kill\"");
		path_pop(p, old);
done:
		wl->stop = WL_STOP_AFTER;
		return r;
	}
	if (mode)
		return fail(p, "'mode' goes with 'after'");
	old = path_key(p, "when");
	if (cJSON_IsString(when) && !strcmp(when->valuestring, "all_exited"))
		wl->stop = WL_STOP_ALL_EXITED;
	else if (cJSON_IsString(when) &&
		 !strcmp(when->valuestring, "task_exited"))
		wl->stop = WL_STOP_TASK_EXITED;
	else
		r = fail(p, "must be \"all_exited\" or \"task_exited\"");
	path_pop(p, old);
	if (r)
		return r;
	*task = get(obj, "task");
	if (wl->stop == WL_STOP_TASK_EXITED && !*task)
		return fail(p, "missing key 'task'");
	if (wl->stop != WL_STOP_TASK_EXITED && *task)
		return fail(p, "'task' goes with \"when\": \"task_exited\"");
	return 0;
}

static int stop_task(struct wl_parser *p, const cJSON *task)
{
	char *name = NULL, sb[WL_SHOWN_MAX];
	size_t old = path_key(p, "stop"), o2 = path_key(p, "task");
	int i = -1, r = eevdf__wl_ld_string(p, task, &name);

	if (!r && (i = eevdf__wl_find_task(p->wl, name)) < 0)
		r = fail(p, "no task named '%s'", SHOWN(sb, name));
	p->wl->stop_task = (u32)i;
	free(name);
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

/*
 * "report.interval": a duration > 0 (or null, none) at whose multiples up
 * to the workload's length the engine keeps what the report prints, for
 * schbench's periodic reports (-i).  The length must be known, and the
 * reports few enough that their memory is bounded.
 */
static int report_interval(struct wl_parser *p, const cJSON *it)
{
	struct eevdf_workload *wl = p->wl;
	eevdf_time iv = 0, len = wl->duration;
	bool null = false;
	int r = eevdf__wl_ld_duration(p, it, true, &iv, &null);

	if (r || null)
		return r;
	if (iv == 0)
		return fail(p, "must be greater than 0 (null for no interval "
			       "reports)");
	if (len <= 0)
		return fail(p, "interval reports need a workload of known "
			       "length (a \"duration\", or a \"stop\" "
			       "with \"after\")");
	if (len / iv > METRIC_SNAPS_MAX)
		return fail(p,
			    "%lld interval reports over the workload's %lld "
			    "ns, one every %lld ns; at most %d (choose a "
			    "longer interval)",
			    (long long)(len / iv), (long long)len,
			    (long long)iv, METRIC_SNAPS_MAX);
	wl->report_interval = iv;
	return 0;
}

/* "report": format and also; every other key is a formatter option. */
static int parse_report(struct wl_parser *p, const cJSON *obj)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it, *jt;
	size_t n = 0, old;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object");
	if (!get(obj, "format"))
		return fail(p, "missing key 'format'");
	for (it = obj->child; it; it = it->next)
		n++;
	wl->report_opts = calloc(n, sizeof(*wl->report_opts));
	if (!wl->report_opts)
		return nomem(p);
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		struct wl_option *o;

		old = path_key(p, k);
		for (jt = obj->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate key '%s'", k);
		if (r) {
			/* reported */
		} else if (strcmp(k, "format") == 0) {
			r = eevdf__wl_ld_string(p, it, &wl->report_format);
		} else if (strcmp(k, "interval") == 0 &&
			   ((r = report_interval(p, it)) ||
			    !wl->report_interval)) {
			/* an error; or null: no interval reports and, as for
			 * any option, no text (else kept as the others) */
		} else if (strcmp(k, "also") == 0) {
			size_t i = 0;

			if (!cJSON_IsArray(it))
				r = fail(p, "must be an array of report "
					    "names");
			n = cJSON_IsArray(it) ? (size_t)cJSON_GetArraySize(it) :
						0;
			wl->report_also = calloc(n ? n : 1,
						 sizeof(*wl->report_also));
			if (!r && !wl->report_also)
				r = nomem(p);
			for (jt = r ? NULL : it->child; !r && jt;
			     jt = jt->next, i++) {
				size_t o2 = eevdf__wl_path_index(p, i);

				r = eevdf__wl_ld_string(p, jt,
							&wl->report_also[i]);
				if (!r)
					wl->nr_also++;
				path_pop(p, o2);
			}
		} else if (!cJSON_IsNull(it)) {
			o = &wl->report_opts[wl->nr_report_opts];
			o->key = eevdf__wl_strdup(k);
			if (cJSON_IsString(it)) {
				r = eevdf__wl_ld_string(p, it, &o->value);
			} else {
				/* cJSON's allocator may not be ours: copy */
				char *j = cJSON_PrintUnformatted(it);

				o->value = j ? eevdf__wl_strdup(j) : NULL;
				cJSON_free(j);
				if (!o->value)
					r = nomem(p);
			}
			if (!o->key && !r)
				r = nomem(p);
			wl->nr_report_opts++;
		}
		path_pop(p, old);
	}
	return r;
}

/* "macros": name -> {"body": [...]}; bodies compile where called. */
static int parse_macros(struct wl_parser *p, const cJSON *obj)
{
	static const char *const keys[] = { "body" };
	const cJSON *it, *b;
	size_t old, o2;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of name: {\"body\": [...]}");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";

		old = path_key(p, k);
		if (!*k)
			r = fail(p, "a macro needs a name");
		else if (!cJSON_IsObject(it))
			r = fail(p, "a macro must be an object with a "
				    "\"body\"");
		else
			r = eevdf__wl_check_keys(p, it, keys, ARRAY_SIZE(keys),
						 NULL, 0);
		if (!r && !(b = get(it, "body"))) {
			r = fail(p, "missing key 'body'");
		} else if (!r) {
			o2 = path_key(p, "body");
			if (!cJSON_IsArray(b) || !b->child)
				r = fail(p, "must be a non-empty array of "
					    "ops");
			path_pop(p, o2);
		}
		for (const cJSON *jt = obj->child; !r && jt != it;
		     jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate macro '%s'", k);
		path_pop(p, old);
	}
	p->macros = obj;
	return r;
}

/* A member parsed by fn at its own path, when present. */
static int member(struct wl_parser *p, const cJSON *root, const char *key,
		  int (*fn)(struct wl_parser *, const cJSON *))
{
	const cJSON *it = get(root, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = fn(p, it);
	path_pop(p, old);
	return r;
}

static int parse_duration_key(struct wl_parser *p, const cJSON *root,
			      const char *key, eevdf_time *out, bool zero_ok)
{
	const cJSON *it = get(root, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_duration(p, it, false, out, NULL);
	if (!r && !zero_ok && *out == 0)
		r = fail(p, "must be greater than 0");
	path_pop(p, old);
	return r;
}

/*
 * The param that is the workload's length: its "duration" (else its
 * "stop": {"after": ...}) written as "${NAME}" alone, NAME one of its
 * "params".  --duration sets that param (eevdf_load_opts.duration).
 */
static void find_duration_param(struct wl_parser *p, const cJSON *root)
{
	const cJSON *d = get(root, "duration"), *stop = get(root, "stop");
	const cJSON *params = get(root, "params");
	const char *s, *e;
	size_t n;

	p->dur_param[0] = '\0';
	if (!d && cJSON_IsObject(stop))
		d = get(stop, "after");
	if (!d || !cJSON_IsString(d) || !d->valuestring ||
	    !cJSON_IsObject(params) || strncmp(d->valuestring, "${", 2) != 0)
		return;
	for (s = d->valuestring + 2; *s == ' '; s++)
		;
	for (e = s; *e == '_' || (*e >= 'a' && *e <= 'z') ||
		    (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9');
	     e++)
		;
	n = (size_t)(e - s);
	while (*e == ' ')
		e++;
	if (n == 0 || n > WL_IDENT_MAX || strcmp(e, "}") != 0)
		return;
	memcpy(p->dur_param, s, n);
	p->dur_param[n] = '\0';
	if (!get(params, p->dur_param))
		p->dur_param[0] = '\0';
}

static int parse_top(struct wl_parser *p, const cJSON *root)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it, *task = NULL, *tasks;
	size_t old;
	int r;

	if (!cJSON_IsObject(root))
		return fail(p, "the top level must be an object");

	/* The format first: a file of another format fails on that alone. */
	if ((r = eevdf__wl_check_format(p, root, WL_FORMAT, true)))
		return r;

	if ((r = eevdf__wl_check_keys(p, root, top_keys, ARRAY_SIZE(top_keys),
				      top_later, ARRAY_SIZE(top_later))) ||
	    (r = eevdf__wl_get_opt_string(p, root, "name", &wl->name)) ||
	    (r = eevdf__wl_get_opt_string(p, root, "description",
					  &wl->description)))
		return r;
	/* the machine before params: it decides ${ncpus} and ${nllc} */
	if ((it = get(root, "machine"))) {
		old = path_key(p, "machine");
		r = eevdf__wl_parse_machine(p, it, &wl->machine);
		path_pop(p, old);
		if (r)
			return r;
	}
	if ((r = parse_kernel(p, root)))
		return r;
	if (!p->ncpus)
		p->ncpus = wl->machine ? wl->machine->nr_cpus : 1;
	if (!p->nllc)
		p->nllc = wl->machine ? wl->machine->nr_llcs : 1;
	/* params next: everything else may use them */
	find_duration_param(p, root);
	if (p->dur_param[0] &&
	    !(wl->duration_param = eevdf__wl_strdup(p->dur_param)))
		return nomem(p);
	old = get(root, "params") ? path_key(p, "params") : p->plen;
	r = eevdf__wl_parse_params(p, get(root, "params"));
	path_pop(p, old);
	if (r)
		return r;
	if ((r = parse_duration_key(p, root, "duration", &wl->duration,
				    false)) ||
	    (r = parse_duration_key(p, root, "warmup", &wl->warmup, true)))
		return r;
	if ((it = get(root, "seed"))) {
		old = path_key(p, "seed");
		r = get_seed(p, it, &wl->seed);
		wl->has_seed = r == 0;
		path_pop(p, old);
		if (r)
			return r;
	}
	if ((it = get(root, "stop"))) {
		old = path_key(p, "stop");
		r = parse_stop(p, it, &task);
		path_pop(p, old);
		if (r)
			return r;
	}
	if (!wl->duration && wl->stop == WL_STOP_AFTER)
		wl->duration = wl->stop_after;
	/*
	 * --duration of a workload whose length is no param: its length, a
	 * fixed end ("stop": {"after": "2s"}, rt-app's "duration") included;
	 * for one that ends when its tasks exit, only the cap of the run.
	 */
	if (p->opts && p->opts->duration > 0 && !p->dur_param[0]) {
		wl->duration = p->opts->duration;
		if (wl->stop == WL_STOP_AFTER)
			wl->stop_after = p->opts->duration;
	}
	/* a validator's errors in "costs" end the load there */
	if ((r = member(p, root, "costs", parse_costs)) ||
	    (r = eevdf__wl_collected(p)) ||
	    (r = member(p, root, "report", parse_report)) ||
	    (r = member(p, root, "macros", parse_macros)) ||
	    (r = member(p, root, "metrics", eevdf__wl_parse_metrics)) ||
	    (r = member(p, root, "objects", eevdf__wl_parse_objects)) ||
	    (r = member(p, root, "groups", eevdf__wl_parse_groups)) ||
	    (r = member(p, root, "sessions", eevdf__wl_parse_sessions)))
		return r;
	/* a snapshot keeps the metrics; the engine hangs them on the first */
	if (wl->report_interval && !wl->nr_metrics) {
		old = path_key(p, "report");
		path_key(p, "interval");
		r = fail(p, "interval reports need the workload's metrics, and "
			    "it has none");
		path_pop(p, old);
		return r;
	}
	if (!(tasks = get(root, "tasks")))
		return fail(p, "missing key 'tasks'");
	old = path_key(p, "tasks");
	r = eevdf__wl_parse_tasks(p, tasks);
	path_pop(p, old);
	if (!r && task)
		r = stop_task(p, task);
	if (!r)
		r = member(p, root, "templates", eevdf__wl_parse_templates);
	if (!r)
		r = eevdf__wl_number_sessions(p);
	if (r)
		return r;
	old = path_key(p, "tasks");
	r = eevdf__wl_compile_tasks(p, tasks);
	path_pop(p, old);
	if (p->nr_errors) {
		/* a validator's run: diag gets the first of them back */
		*p->diag = p->first_diag;
		return r;
	}
	if (!r)
		r = member(p, root, "templates", eevdf__wl_compile_templates);
	return r ? r : eevdf__wl_link(p);
}

static void parser_free(struct wl_parser *p)
{
	for (size_t i = 0; i < p->nr_fix; i++) {
		for (u32 k = 0; k < p->fix[i].nr_names; k++)
			free(p->fix[i].names[k]);
		free(p->fix[i].into);
		free(p->fix[i].match);
		free(p->fix[i].path);
	}
	free(p->fix);
	for (size_t i = 0; i < p->nr_checks; i++)
		free(p->checks[i].path);
	free(p->checks);
	free(p->match);
	free(p->uses);
}

static int check_opts(struct wl_parser *p, const struct eevdf_load_opts *o)
{
	/* 0: the file's own machine decides, else 1 (parse_top) */
	p->ncpus = 0;
	p->nllc = 0;
	if (!o)
		return 0;
	if (o->ncpus < 0 || o->ncpus > EEVDF_MAX_CPUS || o->nllc < 0 ||
	    o->nllc > EEVDF_MAX_CPUS || (o->nr_params && !o->params) ||
	    o->input < EEVDF_INPUT_AUTO || o->input > EEVDF_INPUT_RTAPP ||
	    (o->errors && !o->nr_errors)) {
		eevdf__wl_set_str(p->diag->msg, sizeof(p->diag->msg),
				  "bad load options (ncpus and nllc must be "
				  "0..4096, params given with their count, "
				  "input auto, native or rt-app, errors "
				  "with nr_errors)");
		return EEVDF_EINVAL;
	}
	for (size_t i = 0; i < o->nr_params; i++) {
		if (!o->params[i]) {
			eevdf__wl_set_str(p->diag->msg, sizeof(p->diag->msg),
					  "bad load options: a NULL param");
			return EEVDF_EINVAL;
		}
	}
	p->ncpus = o->ncpus;
	p->nllc = o->nllc;
	return 0;
}

int eevdf_workload_parse_opts(const char *buf, size_t len, const char *filename,
			      const struct eevdf_load_opts *opts,
			      eevdf_workload **out, struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	struct eevdf_workload *wl;
	struct wl_box *box;
	struct wl_parser p;
	cJSON *root;
	int rtapp;
	u32 id;
	int r;

	if (!diag)
		diag = &scratch;
	eevdf__wl_diag_init(diag, filename);
	if (!out || (!buf && len))
		return EEVDF_EINVAL;
	*out = NULL;

	memset(&p, 0, sizeof(p));
	p.diag = diag;
	p.opts = opts;
	if ((r = check_opts(&p, opts)))
		return r;
	if (opts && opts->nr_errors)
		*opts->nr_errors = 0;
	if (len == 0) /* "the file is empty", before any rt-app guess */
		return eevdf__wl_parse_json(buf, len, opts, diag, &root);
	/* limits, UTF-8 and NUL, whatever the format (the rt-app reader's
	 * cJSON would take them as they are) */
	if ((r = eevdf__wl_check_text(buf, len, opts, diag)))
		return r;

	/*
	 * An rt-app file (a "tasks" object, no "format") is translated into
	 * native text first and that text is loaded instead; see
	 * docs/rtapp-import.md.  Errors in the translation name rt-app
	 * paths; the translated text is checked like any native workload.
	 */
	/*
	 * A piece of an rt-app file made to be merged ("global" or
	 * "resources" alone) goes to the translator too, which says so.
	 */
	if (opts && opts->input != EEVDF_INPUT_AUTO)
		rtapp = opts->input == EEVDF_INPUT_RTAPP;
	else
		rtapp = eevdf__rtapp_detect(buf, len) ||
			eevdf__rtapp_fragment(buf, len);
	if (rtapp) {
		struct eevdf_diag *notes = NULL;
		size_t nr_notes = 0;
		char *text = NULL;

		r = eevdf__rtapp_translate_notes(buf, len, filename, &text,
						 &notes, &nr_notes, diag);
		if (r)
			return r;
		r = eevdf_workload_parse_opts(
			text, strlen(text), filename,
			&(struct eevdf_load_opts){
				.ncpus = p.ncpus,
				.nllc = p.nllc,
				.params = opts ? opts->params : NULL,
				.nr_params = opts ? opts->nr_params : 0,
				.input = EEVDF_INPUT_NATIVE,
				.errors = opts ? opts->errors : NULL,
				.max_errors = opts ? opts->max_errors : 0,
				.nr_errors = opts ? opts->nr_errors : NULL,
				.duration = opts ? opts->duration : 0,
				.max_depth = opts ? opts->max_depth : 0,
				.max_ops = opts ? opts->max_ops : 0,
				/* the translation of an input within the
				 * limit is the loader's own text */
				.max_input = strlen(text) + 1,
			},
			out, diag);
		if (!r && *out) {
			box = (struct wl_box *)*out;
			box->notes = notes;
			box->nr_notes = nr_notes;
			box->native = text;
			/* the rt-app file's bytes, not those of its translation */
			eevdf_sha256_hex(buf, len, (*out)->sha256);
			return 0;
		}
		cJSON_free(text);
		cJSON_free(notes);
		return r;
	}

	/* checked above */
	if ((r = eevdf__wl_parse_json(buf, len, EEVDF__WL_CHECKED, diag,
				      &root)))
		return r;
	box = calloc(1, sizeof(*box));
	if (!box) {
		cJSON_Delete(root);
		return nomem(&p);
	}
	wl = &box->wl;
	p.wl = wl;
	eevdf__wl_set_str(wl->file, sizeof(wl->file), diag->file);
	/* "@pid" first: slot 0 in every task */
	if (eevdf__wl_names_add(&wl->locals, "@pid", 4, &id))
		r = nomem(&p);
	else
		r = parse_top(&p, root);
	cJSON_Delete(root);
	parser_free(&p);
	eevdf__wl_errors_done(&p, r);
	if (r) {
		eevdf_workload_free(wl);
		return r;
	}
	eevdf_sha256_hex(buf, len, wl->sha256);
	*out = wl;
	return 0;
}

int eevdf_workload_parse(const char *buf, size_t len, const char *filename,
			 eevdf_workload **out, struct eevdf_diag *diag)
{
	return eevdf_workload_parse_opts(buf, len, filename, NULL, out, diag);
}

int eevdf_workload_load_file_opts(const char *path,
				  const struct eevdf_load_opts *opts,
				  eevdf_workload **out, struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	size_t len = 0;
	char *buf = NULL;
	int r;

	if (out)
		*out = NULL;
	if ((r = eevdf__wl_load_begin(path, out != NULL, opts, &diag, &scratch,
				      &buf, &len)))
		return r;
	r = eevdf_workload_parse_opts(buf, len, path, opts, out, diag);
	free(buf);
	return r;
}

int eevdf_workload_load_file(const char *path, eevdf_workload **out,
			     struct eevdf_diag *diag)
{
	return eevdf_workload_load_file_opts(path, NULL, out, diag);
}

void eevdf_workload_free(eevdf_workload *wl)
{
	if (!wl)
		return;
	for (size_t i = 0; i < wl->nr_params; i++) {
		free(wl->params[i].name);
		eevdf__wl_value_free(&wl->params[i].v);
	}
	free(wl->params);
	for (size_t i = 0; i < wl->nr_nb_loads; i++)
		eevdf__nb_load_unref(wl->nb_loads[i]);
	free(wl->nb_loads);
	for (size_t i = 0; i < wl->nr_objs; i++) {
		eevdf__wl_io_free(&wl->objs[i]);
		free(wl->objs[i].tmpl.name);
		for (u32 k = 0; k < wl->objs[i].nr_fields; k++)
			free(wl->objs[i].fields[k]);
	}
	free(wl->objs);
	free(wl->objs_by_name);
	for (size_t i = 0; i < wl->nr_tasks; i++) {
		free(wl->tasks[i].name);
		free(wl->tasks[i].cpus);
		free(wl->tasks[i].init);
		free(wl->tasks[i].session);
	}
	free(wl->tasks);
	free(wl->tasks_by_name);
	for (size_t i = 0; i < wl->nr_tmpls; i++) {
		free(wl->tmpls[i].name);
		free(wl->tmpls[i].cpus);
		free(wl->tmpls[i].init);
		free(wl->tmpls[i].session);
	}
	free(wl->tmpls);
	for (size_t i = 0; i < wl->nr_groups; i++)
		free(wl->groups[i].path);
	free(wl->groups);
	for (size_t i = 0; i < wl->nr_sessions; i++)
		free(wl->sessions[i].name);
	free(wl->sessions);
	for (size_t i = 0; i < wl->nr_progs; i++) {
		/* the simulation may hold references of its own */
		eevdf__program_unref(wl->progs[i].prog);
		free(wl->progs[i].pub);
		free(wl->progs[i].objs);
	}
	free(wl->progs);
	for (size_t i = 0; i < wl->nr_metrics; i++) {
		free(wl->metrics[i].name);
		free(wl->metrics[i].unit);
	}
	free(wl->metrics);
	for (size_t i = 0; i < wl->nr_joins; i++) {
		free(wl->joins[i].pids);
		free(wl->joins[i].pattern);
		free(wl->joins[i].path);
	}
	free(wl->joins);
	eevdf__wl_names_free(&wl->locals);
	eevdf__wl_names_free(&wl->globals);
	eevdf__wl_names_free(&wl->strings);
	free(wl->report_format);
	for (size_t i = 0; i < wl->nr_also; i++)
		free(wl->report_also[i]);
	free(wl->report_also);
	for (size_t i = 0; i < wl->nr_report_opts; i++) {
		free(wl->report_opts[i].key);
		free(wl->report_opts[i].value);
	}
	free(wl->report_opts);
	eevdf_machine_free(wl->machine);
	free(wl->kernel);
	free(wl->duration_param);
	free(wl->name);
	free(wl->description);
	cJSON_free(box_of(wl)->notes);
	cJSON_free(box_of(wl)->native);
	free((struct wl_box *)wl);
}

char *eevdf_diag_format(const struct eevdf_diag *d, char *buf, size_t len)
{
	if (!buf || len == 0)
		return buf;
	if (!d)
		snprintf(buf, len, "(no diagnostic)");
	else if (d->path[0])
		snprintf(buf, len, "%s: %s: %s", d->file, d->path, d->msg);
	else if (d->line > 0)
		snprintf(buf, len, "%s:%d: %s", d->file, d->line, d->msg);
	else
		snprintf(buf, len, "%s: %s", d->file, d->msg);
	return buf;
}

/* Accessors --------------------------------------------------------------- */

const char *eevdf_workload_name(const eevdf_workload *wl)
{
	return wl && wl->name ? wl->name : "";
}

const char *eevdf_workload_description(const eevdf_workload *wl)
{
	return wl && wl->description ? wl->description : "";
}

size_t eevdf_workload_nr_notes(const eevdf_workload *wl)
{
	return wl ? box_of(wl)->nr_notes : 0;
}

const struct eevdf_diag *eevdf_workload_note(const eevdf_workload *wl, size_t i)
{
	return wl && i < box_of(wl)->nr_notes ? &box_of(wl)->notes[i] : NULL;
}

const char *eevdf_workload_translation(const eevdf_workload *wl)
{
	return wl ? box_of(wl)->native : NULL;
}

eevdf_time eevdf_workload_duration(const eevdf_workload *wl)
{
	return wl ? wl->duration : 0;
}

const char *eevdf_workload_sha256(const eevdf_workload *wl)
{
	return wl ? wl->sha256 : NULL;
}

const char *eevdf_workload_duration_param(const eevdf_workload *wl)
{
	return wl ? wl->duration_param : NULL;
}

size_t eevdf_workload_nr_params(const eevdf_workload *wl)
{
	return wl ? wl->nr_params : 0;
}

const char *eevdf_workload_param_name(const eevdf_workload *wl, size_t i)
{
	return wl && i < wl->nr_params ? wl->params[i].name : NULL;
}

const char *eevdf_workload_param_value(const eevdf_workload *wl, size_t i,
				       char *buf, size_t len)
{
	const struct wl_value *v;

	if (!wl || i >= wl->nr_params || !buf || !len)
		return NULL;
	v = &wl->params[i].v;
	if (v->kind == WV_INT)
		snprintf(buf, len, "%lld", (long long)v->i);
	else if (v->kind == WV_STR)
		snprintf(buf, len, "%s", v->s);
	else
		snprintf(buf, len, "null");
	return buf;
}

int eevdf_workload_completed(const eevdf_workload *wl, const eevdf_sim *sim,
			     char *why, size_t len)
{
	eevdf_time now, end;
	size_t n, running = 0;

	if (!wl || !sim)
		return -1;
	now = eevdf_sim_now(sim);
	if ((wl->stop == WL_STOP_ALL_EXITED ||
	     wl->stop == WL_STOP_TASK_EXITED) &&
	    !eevdf_sim_done(sim)) {
		n = eevdf_sim_nr_tasks(sim);
		for (size_t i = 0; i < n; i++) {
			struct eevdf_task_stats st;

			if (eevdf_sim_task_stats(sim, i, &st) == 0 &&
			    st.state != EEVDF_TASK_DEAD)
				running++;
		}
		eevdf__set_err(why, len,
			       "it did not finish: %zu of its %zu tasks "
			       "were still there when the run ended at "
			       "%.3f s",
			       running, n, (double)now / 1e9);
		return 0;
	}
	end = wl->stop == WL_STOP_AFTER ? wl->stop_after : 0;
	if (end && now < end) {
		eevdf__set_err(why, len,
			       "the run ended at %.3f s, before the "
			       "benchmark's own end at %.3f s",
			       (double)now / 1e9, (double)end / 1e9);
		return 0;
	}
	if (wl->warmup && now <= wl->warmup) {
		eevdf__set_err(why, len,
			       "the run ended at %.3f s, inside its %.3f s "
			       "warmup: nothing was measured",
			       (double)now / 1e9, (double)wl->warmup / 1e9);
		return 0;
	}
	if (why && len)
		why[0] = '\0';
	return 1;
}

bool eevdf_workload_seed(const eevdf_workload *wl, uint64_t *seed)
{
	if (!wl || !wl->has_seed)
		return false;
	if (seed)
		*seed = wl->seed;
	return true;
}

const char *eevdf_workload_kernel(const eevdf_workload *wl)
{
	return wl ? wl->kernel : NULL;
}

const eevdf_machine *eevdf_workload_machine(const eevdf_workload *wl)
{
	return wl ? wl->machine : NULL;
}

size_t eevdf_workload_nr_tasks(const eevdf_workload *wl)
{
	return wl ? wl->nr_tasks : 0;
}

/* NULL when i is out of range. */
const struct eevdf_task_spec *eevdf_workload_task(const eevdf_workload *wl,
						  size_t i)
{
	if (!wl || i >= wl->nr_tasks)
		return NULL;
	return &wl->tasks[i].spec;
}

const char *eevdf_workload_report_format(const eevdf_workload *wl)
{
	return wl ? wl->report_format : NULL;
}

size_t eevdf_workload_report_also_count(const eevdf_workload *wl)
{
	return wl ? wl->nr_also : 0;
}

const char *eevdf_workload_report_also(const eevdf_workload *wl, size_t i)
{
	return wl && i < wl->nr_also ? wl->report_also[i] : NULL;
}

const char *eevdf_workload_report_option(const eevdf_workload *wl,
					 const char *key)
{
	for (size_t i = 0; wl && key && i < wl->nr_report_opts; i++)
		if (strcmp(wl->report_opts[i].key, key) == 0)
			return wl->report_opts[i].value;
	return NULL;
}

const char *eevdf_workload_metric_unit(const eevdf_workload *wl,
				       const char *name)
{
	int i = wl && name ? eevdf__wl_find_metric(wl, name) : -1;

	return i >= 0 ? wl->metrics[i].unit : NULL;
}

const struct program *eevdf__workload_program(const eevdf_workload *wl,
					      size_t i)
{
	if (!wl || i >= wl->nr_tasks)
		return NULL;
	return wl->progs[wl->tasks[i].prog].prog;
}

const struct program *eevdf__workload_template_program(const eevdf_workload *wl,
						       const char *name)
{
	int i = wl && name ? eevdf__wl_find_template(wl, name) : -1;

	return i >= 0 ? wl->progs[wl->tmpls[i].prog].prog : NULL;
}

/* Simulation setup --------------------------------------------------------- */

static int setup_fail(const eevdf_workload *wl, struct eevdf_diag *diag,
		      const char *path, int code, const char *msg)
{
	eevdf__wl_diag_init(diag, wl->file);
	eevdf__wl_set_str(diag->path, sizeof(diag->path), path);
	eevdf__wl_set_str(diag->msg, sizeof(diag->msg), msg);
	return code;
}

static int add_objects(const eevdf_workload *wl, eevdf_sim *sim)
{
	int r;

	for (size_t i = 0; i < wl->nr_objs; i++) {
		struct sim_object *o = malloc(sizeof(*o));
		int idx;

		if (!o)
			return EEVDF_ENOMEM;
		*o = wl->objs[i].tmpl;
		o->name = eevdf__wl_strdup(wl->objs[i].tmpl.name);
		idx = o->name ? eevdf__sim_add_object(sim, o) : EEVDF_ENOMEM;
		if (idx < 0) {
			eevdf__object_free(o);
			free(o);
			return idx;
		}
		if ((size_t)idx != i)
			return EEVDF_EINTERNAL;
	}
	/* the I/O model's state, once every object it may name is there,
	 * and the load files its programs replay */
	if ((r = eevdf__io_setup(sim)))
		return r;
	for (size_t i = 0; i < wl->nr_nb_loads; i++) {
		int idx = eevdf__sim_add_nb_load(sim, wl->nb_loads[i]);

		if (idx < 0)
			return idx;
		if ((size_t)idx != i)
			return EEVDF_EINTERNAL;
	}
	return 0;
}

static int add_tables(const eevdf_workload *wl, eevdf_sim *sim)
{
	s64 *zeros = calloc(wl->globals.n ? wl->globals.n : 1, sizeof(s64));
	int r;

	if (!zeros)
		return EEVDF_ENOMEM;
	r = eevdf__sim_set_globals(sim, zeros, wl->globals.n);
	free(zeros);
	for (size_t i = 0; !r && i < wl->nr_metrics; i++) {
		const struct wl_metric *m = &wl->metrics[i];
		int idx = m->type == MET_RATE ?
				  eevdf__sim_add_rate(sim, m->name, m->of,
						      m->every, m->quant,
						      m->reset_at_warmup) :
				  eevdf__sim_add_metric(sim, m->name, m->type,
							m->quant, m->keyed,
							m->per_task,
							m->reset_at_warmup);

		r = idx < 0 ? idx : (size_t)idx != i ? EEVDF_EINTERNAL : 0;
		if (!r && m->drop_zero)
			eevdf__sim_metric_drop_zero(sim, idx);
	}
	for (size_t i = 0; !r && i < wl->nr_joins; i++) {
		int idx = eevdf__sim_add_join_set(sim, wl->joins[i].pids,
						  wl->joins[i].nr);

		r = idx < 0 ? idx : (size_t)idx != i ? EEVDF_EINTERNAL : 0;
	}
	/* string ids are positions in the workload's table */
	for (u32 i = 0; !r && i < wl->strings.n; i++) {
		s64 id;

		r = eevdf__sim_intern(sim, wl->strings.v[i], &id);
		if (!r && id != STRING_ID_BASE + (s64)i)
			r = EEVDF_EINTERNAL;
	}
	if (!r && wl->stop == WL_STOP_AFTER)
		r = eevdf__sim_set_stop(sim, wl->stop_after, wl->stop_kill);
	if (!r && wl->stop == WL_STOP_TASK_EXITED)
		sim->end_on_exit_of = (int)wl->stop_task + 1;
	if (!r && wl->warmup > 0)
		r = eevdf__sim_set_warmup(sim, wl->warmup);
	return r;
}

/* A CPU of t's "cpus" that the machine lacks: a message, else 0. */
static int check_cpus(const eevdf_workload *wl, const eevdf_sim *sim,
		      const struct wl_task *t, const char *what,
		      const char *path, struct eevdf_diag *diag)
{
	char msg[256], where[WL_PATH_MAX + sizeof(".cpus")];

	for (size_t k = 0; k < t->spec.nr_cpus; k++) {
		if (t->cpus[k] < sim->sched.nr_cpus)
			continue;
		snprintf(msg, sizeof(msg),
			 "%s %s: cpu %d is not on this "
			 "%d-CPU machine",
			 what, t->name, t->cpus[k], sim->sched.nr_cpus);
		/* cut at WL_PATH_MAX, as every path is */
		if (snprintf(where, sizeof(where), "%s.cpus", path) < 0)
			where[0] = '\0';
		return setup_fail(wl, diag, where, EEVDF_EINVAL, msg);
	}
	return 0;
}

/*
 * The spawn templates, numbered as the spawn ops name them.  Their
 * instances start with every variable at 0: the template's vars are set
 * by the first ops of its program.
 */
static int add_templates(const eevdf_workload *wl, eevdf_sim *sim,
			 struct eevdf_diag *diag)
{
	char path[WL_PATH_MAX];
	int r, idx;

	for (size_t i = 0; i < wl->nr_tmpls; i++) {
		const struct wl_task *t = &wl->tmpls[i];
		struct program *prog = wl->progs[t->prog].prog;

		snprintf(path, sizeof(path), "templates.%s", t->name);
		if ((r = check_cpus(wl, sim, t, "template", path, diag)))
			return r;
		/* the template holds a reference of its own */
		prog->refs++;
		idx = eevdf__sim_add_template(sim, t->name, &t->spec, prog,
					      t->is_thread);
		if (idx < 0)
			return setup_fail(wl, diag, path, idx, "out of memory");
		if ((size_t)idx != i)
			return setup_fail(wl, diag, path, EEVDF_EINTERNAL,
					  "the template got an unexpected "
					  "index");
		r = eevdf__sim_template_groups(
			sim, i, t->spec.cgroup,
			t->sess == WS_NAMED  ? TMPL_SESSION_FIXED :
			t->sess == WS_SETSID ? TMPL_SESSION_NEW :
					       TMPL_SESSION_INHERIT,
			t->spec.session);
		if (r)
			return setup_fail(wl, diag, path, r,
					  eevdf_sim_errmsg(sim));
	}
	return 0;
}

static int add_task(const eevdf_workload *wl, eevdf_sim *sim, size_t i,
		    struct eevdf_diag *diag)
{
	const struct wl_task *t = &wl->tasks[i];
	const struct wl_prog *w = &wl->progs[t->prog];
	struct program *prog = w->prog;
	char path[48];
	s64 *init;
	int pid, r;

	snprintf(path, sizeof(path), "tasks[%zu]", t->src);
	if ((r = check_cpus(wl, sim, t, "task", path, diag)))
		return r;
	init = calloc(wl->locals.n ? wl->locals.n : 1, sizeof(*init));
	if (!init)
		return setup_fail(wl, diag, path, EEVDF_ENOMEM,
				  "out of memory");
	init[0] = (s64)i + 1; /* "@pid" */
	for (u32 k = 0; k < t->nr_init; k++)
		init[t->init[k].slot] = t->init[k].v;
	/* the task takes a reference of its own */
	prog->refs++;
	pid = eevdf__sim_add_task_prog(sim, &t->spec, prog, t->is_thread, init,
				       prog->nr_binds ? w->binds : NULL);
	free(init);
	if (pid < 0)
		return setup_fail(wl, diag, path, pid, eevdf_sim_errmsg(sim));
	if ((size_t)pid != i + 1)
		return setup_fail(wl, diag, path, EEVDF_EINTERNAL,
				  "the task got an unexpected pid");
	return 0;
}

int eevdf_workload_add_tasks(const eevdf_workload *wl, eevdf_sim *sim,
			     struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	int r;

	if (!diag)
		diag = &scratch;
	if (!wl || !sim)
		return EEVDF_EINVAL;
	if (sim->running)
		return setup_fail(wl, diag, "", EEVDF_EBUSY,
				  "called from a callback of the running "
				  "simulation");
	if (sim->sched.error)
		return setup_fail(wl, diag, "", EEVDF_EMISUSE,
				  "the simulation failed earlier");
	/*
	 * pids, object indices, metric indices and string ids are compiled
	 * into the programs: they hold only in a simulation that has none
	 * of its own.
	 */
	if (sim->sched.nr_tasks || sim->nr_objs || sim->nr_metrics ||
	    sim->nr_join_sets || sim->nr_strings || sim->nr_templates)
		return setup_fail(wl, diag, "", EEVDF_EMISUSE,
				  "a workload's tasks must be the first of "
				  "the simulation (it already has tasks, "
				  "objects, metrics or templates)");
	/*
	 * Workloads always pay for their syscalls and switches: the
	 * documented defaults, then what the simulation's machine says
	 * about itself, then the workload's own "costs", which know best
	 * what the benchmark measured.
	 */
	eevdf__costs_default(&sim->sched.costs);
	eevdf__machine_apply_costs(sim->machine, &sim->sched.costs);
	eevdf__costs_apply(&sim->sched.costs, &wl->costs, wl->cost_set);
	/* the groups before any task: they start in them */
	if ((r = eevdf__wl_add_groups(wl, sim, diag)))
		return r;
	if ((r = add_objects(wl, sim)) || (r = add_tables(wl, sim)))
		return setup_fail(wl, diag, "", r,
				  r == EEVDF_ENOMEM ? "out of memory" :
						      "could not set up the "
						      "simulation");
	if ((r = add_templates(wl, sim, diag)))
		return r;
	for (size_t i = 0; i < wl->nr_tasks; i++)
		if ((r = add_task(wl, sim, i, diag)))
			return r;
	/* the kernel's threads come after the workload's tasks */
	if ((r = eevdf__io_start(sim)))
		return setup_fail(wl, diag, "objects", r,
				  "could not start the kernel threads");
	/* interval reports as far as the workload's length, as schbench
	 * prints them until its runtime is up */
	if (wl->report_interval &&
	    (r = eevdf__metrics_snapshot_every(sim, wl->report_interval,
					       wl->duration)))
		return setup_fail(wl, diag, "report.interval", r,
				  r == EEVDF_ENOMEM ?
					  "out of memory" :
					  "could not set up interval reports");
	return 0;
}
