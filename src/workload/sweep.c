/* SPDX-License-Identifier: MIT */
/*
 * Sweep specs: the top level of the document, the fixed settings, zip
 * groups, metrics and baseline, and the accessors of include/eevdf/sweep.h.
 * The values of one setting are sweep_values.c's; the points
 * sweep_point.c's.
 */
#include <stdarg.h>
#include <string.h>

#include "lib/strdist.h"
#include "sweep_impl.h"

/* Diagnostics ---------------------------------------------------------- */

int eevdf__sw_fail(struct sw_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->diag->msg, sizeof(p->diag->msg), fmt, ap);
	va_end(ap);
	return EEVDF_EPARSE;
}

int eevdf__sw_nomem(struct sw_parser *p)
{
	eevdf__wl_set_str(p->diag->msg, sizeof(p->diag->msg), "out of memory");
	return EEVDF_ENOMEM;
}

/* The path grows in diag->path itself: an error leaves it where it was. */
size_t eevdf__sw_path_key(struct sw_parser *p, const char *key)
{
	size_t old = p->plen, cap = sizeof(p->diag->path);
	int n = snprintf(p->diag->path + p->plen, cap - p->plen, "%s%s",
			 p->plen ? "." : "", key);

	if (n > 0)
		p->plen = p->plen + (size_t)n < cap ? p->plen + (size_t)n :
						      cap - 1;
	return old;
}

size_t eevdf__sw_path_index(struct sw_parser *p, size_t i)
{
	size_t old = p->plen, cap = sizeof(p->diag->path);
	int n = snprintf(p->diag->path + p->plen, cap - p->plen, "[%zu]", i);

	if (n > 0)
		p->plen = p->plen + (size_t)n < cap ? p->plen + (size_t)n :
						      cap - 1;
	return old;
}

void eevdf__sw_path_pop(struct sw_parser *p, size_t old)
{
	p->plen = old;
	p->diag->path[old] = '\0';
}

/* "unknown key 'X'" with the nearest of known when it is close. */
static int unknown_key(struct sw_parser *p, const char *what, const char *k,
		       const char *const *known, size_t n)
{
	char sb[WL_SHOWN_MAX];
	size_t best = SIZE_MAX, bi = 0;

	for (size_t i = 0; i < n; i++) {
		size_t d = eevdf__strdist(k, known[i]);

		if (d < best) {
			best = d;
			bi = i;
		}
	}
	if (best <= 2)
		return eevdf__sw_fail(p, "unknown %s '%s' (did you mean '%s'?)",
				      what, eevdf__wl_shown(sb, sizeof(sb), k),
				      known[bi]);
	return eevdf__sw_fail(p, "unknown %s '%s'", what,
			      eevdf__wl_shown(sb, sizeof(sb), k));
}

/* Settings -------------------------------------------------------------- */

static const char *const setting_names[] = {
	"workload",   "kernel",
	"features",   "machine",
	"cpus",	      "hz",
	"duration",   "seed",
	"param.NAME", "features_allow_absent",
};

int eevdf__sw_key_of(const char *name)
{
	if (strncmp(name, "param.", 6) == 0)
		return SK_PARAM;
	for (size_t i = 0; i < ARRAY_SIZE(setting_names); i++)
		if (i != SK_PARAM && strcmp(name, setting_names[i]) == 0)
			return (int)i;
	return -1;
}

static struct sweep_setting *find_setting(struct sweep_setting *s, size_t n,
					  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0)
			return &s[i];
	return NULL;
}

static struct sweep_setting *find_key(eevdf_sweep *sw, enum sweep_key key)
{
	for (size_t i = 0; i < sw->nr_axes; i++)
		if (sw->axes[i].key == key)
			return &sw->axes[i];
	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == key)
			return &sw->fixed[i];
	return NULL;
}

void eevdf__sw_setting_free(struct sweep_setting *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].label);
		free(s->v[i].text);
		free(s->v[i].canon);
	}
	free(s->v);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

/* One setting of "fixed" or "axes" named it->string, into s. */
static int parse_setting(struct sw_parser *p, const cJSON *it, bool fixed,
			 struct sweep_setting *s)
{
	const char *name = it->string ? it->string : "";
	int key = eevdf__sw_key_of(name);
	size_t old = eevdf__sw_path_key(p, name);
	int r;

	if (key < 0) {
		r = unknown_key(p, fixed ? "fixed setting" : "axis", name,
				setting_names, ARRAY_SIZE(setting_names));
		goto out;
	}
	if (key == SK_WORKLOAD) {
		r = eevdf__sw_fail(p, "the workload is the top-level "
				      "\"workload\": a path, a list of paths "
				      "or an object of named paths");
		goto out;
	}
	if (key == SK_ALLOW_ABSENT && !fixed) {
		r = eevdf__sw_fail(p, "features_allow_absent is a setting of "
				      "\"fixed\", not an axis");
		goto out;
	}
	if (key == SK_PARAM &&
	    !eevdf__wl_is_ident(name + 6, strlen(name + 6))) {
		r = eevdf__sw_fail(p,
				   "'%s': a param's name must be an "
				   "identifier (letters, digits, _)",
				   name);
		goto out;
	}
	s->key = (enum sweep_key)key;
	s->base = -1;
	s->name = eevdf__wl_strdup(name);
	if (!s->name) {
		r = eevdf__sw_nomem(p);
		goto out;
	}
	r = eevdf__sw_parse_values(p, it, fixed, s);
out:
	if (!r)
		eevdf__sw_path_pop(p, old);
	return r;
}

static int parse_fixed(struct sw_parser *p, const cJSON *obj)
{
	eevdf_sweep *sw = p->sw;
	size_t old = eevdf__sw_path_key(p, "fixed");
	const cJSON *it;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return eevdf__sw_fail(p, "must be an object of settings every "
					 "point shares: {\"kernel\": \"6.18\", "
					 "\"param.NAME\": VALUE, ...}");
	cJSON_ArrayForEach(it, obj)
	{
		if (find_setting(sw->fixed, sw->nr_fixed, it->string)) {
			eevdf__sw_path_key(p, it->string);
			return eevdf__sw_fail(p, "duplicate setting");
		}
		if (sw->nr_fixed == SWEEP_MAX_AXES)
			return eevdf__sw_fail(p, "at most %d settings",
					      SWEEP_MAX_AXES);
		r = parse_setting(p, it, true, &sw->fixed[sw->nr_fixed]);
		sw->nr_fixed++;
		if (r)
			return r;
	}
	eevdf__sw_path_pop(p, old);
	return 0;
}

static int parse_axes(struct sw_parser *p, const cJSON *obj)
{
	eevdf_sweep *sw = p->sw;
	size_t old = eevdf__sw_path_key(p, "axes");
	const cJSON *it;
	int r;

	if (!cJSON_IsObject(obj))
		return eevdf__sw_fail(p, "must be an object of axes: "
					 "{\"kernel\": [\"6.6\", \"6.18\"], "
					 "\"seed\": 3, ...}");
	cJSON_ArrayForEach(it, obj)
	{
		struct sweep_setting *s;

		if (find_setting(sw->axes, sw->nr_axes, it->string)) {
			eevdf__sw_path_key(p, it->string);
			return eevdf__sw_fail(p, "duplicate axis");
		}
		/* fixed features come first in every set of the axis */
		if (strcmp(it->string, "features") != 0 &&
		    find_setting(sw->fixed, sw->nr_fixed, it->string)) {
			eevdf__sw_path_key(p, it->string);
			return eevdf__sw_fail(p,
					      "'%s' is fixed too: a setting "
					      "is an axis or fixed, not both",
					      it->string);
		}
		if (sw->nr_axes == SWEEP_MAX_AXES)
			return eevdf__sw_fail(p, "at most %d axes",
					      SWEEP_MAX_AXES);
		s = &sw->axes[sw->nr_axes];
		r = parse_setting(p, it, false, s);
		sw->nr_axes++;
		if (r)
			return r;
		s->group = sw->nr_axes - 1;
	}
	eevdf__sw_path_pop(p, old);
	return 0;
}

/* The workloads: one is a fixed setting, several the first axis. */
static int parse_workload(struct sw_parser *p, const cJSON *it)
{
	eevdf_sweep *sw = p->sw;
	struct sweep_setting s;
	size_t old = eevdf__sw_path_key(p, "workload");
	int r;

	memset(&s, 0, sizeof(s));
	s.key = SK_WORKLOAD;
	s.base = -1;
	s.name = eevdf__wl_strdup("workload");
	if (!s.name)
		return eevdf__sw_nomem(p);
	r = eevdf__sw_parse_workloads(p, it, &s);
	if (r) {
		eevdf__sw_setting_free(&s);
		return r;
	}
	eevdf__sw_path_pop(p, old);
	if (s.n == 1) {
		sw->fixed[sw->nr_fixed++] = s;
	} else {
		memmove(&sw->axes[1], &sw->axes[0],
			sw->nr_axes * sizeof(sw->axes[0]));
		sw->axes[0] = s;
		sw->nr_axes++;
		for (size_t a = 0; a < sw->nr_axes; a++)
			sw->axes[a].group = a;
	}
	return 0;
}

/*
 * Settings that cannot go together, and what the library checks once
 * every setting is known: a machine excludes --cpus (run would take the
 * machine and ignore the count silently).
 */
static int check_combinations(struct sw_parser *p)
{
	eevdf_sweep *sw = p->sw;
	struct sweep_setting *f = NULL;
	size_t nparams = 0;

	if (find_key(sw, SK_MACHINE) && find_key(sw, SK_CPUS))
		return eevdf__sw_fail(p,
				      "\"machine\" and \"cpus\" exclude each "
				      "other: a machine has its CPUs (give "
				      "a flat machine of N CPUs as cpus)");
	for (size_t i = 0; i < sw->nr_fixed; i++)
		nparams += sw->fixed[i].key == SK_PARAM;
	for (size_t i = 0; i < sw->nr_axes; i++)
		nparams += sw->axes[i].key == SK_PARAM;
	if (nparams > EEVDF_SWEEP_PARAMS_MAX)
		return eevdf__sw_fail(p, "more than %d params",
				      EEVDF_SWEEP_PARAMS_MAX);
	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == SK_FEATURES)
			f = &sw->fixed[i];
	for (size_t i = 0; i < sw->nr_axes; i++) {
		int r;

		if (sw->axes[i].key != SK_FEATURES)
			continue;
		r = eevdf__sw_merge_features(p, &sw->axes[i], f);
		if (r)
			return r;
	}
	return 0;
}

/* The param settings' overrides of value index 0 of fixed ones. */
static size_t fixed_params(const eevdf_sweep *sw, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == SK_PARAM)
			out[n++] = sw->fixed[i].v[0].text;
	return n;
}

/*
 * Every workload must load with the fixed params (and the fixed
 * duration, which may be a param of it) and declare every param the
 * spec sets.  What a value of a param axis does to the workload is the
 * front end's to check, point by point, as the run would.
 */
static int check_workloads(struct sw_parser *p)
{
	eevdf_sweep *sw = p->sw;
	struct sweep_setting *w = find_key(sw, SK_WORKLOAD);
	struct sweep_setting *d = NULL;
	const char *params[EEVDF_SWEEP_PARAMS_MAX];
	struct eevdf_load_opts lo;
	bool axis = w == &sw->axes[0] && sw->nr_axes && w->n > 1;

	memset(&lo, 0, sizeof(lo));
	lo.params = params;
	lo.nr_params = fixed_params(sw, params);
	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == SK_DURATION)
			d = &sw->fixed[i];
	lo.duration = d ? d->v[0].num : 0;
	for (size_t i = 0; i < w->n; i++) {
		struct eevdf_diag wd;
		eevdf_workload *wl = NULL;
		char buf[sizeof(wd.msg) + sizeof(wd.path) + sizeof(wd.file) + 8];
		size_t old = eevdf__sw_path_key(p, "workload");
		int r;

		if (axis)
			eevdf__sw_path_index(p, i);
		memset(&wd, 0, sizeof(wd));
		r = eevdf_workload_load_file_opts(w->v[i].text, &lo, &wl, &wd);
		if (r == EEVDF_ENOMEM)
			return eevdf__sw_nomem(p);
		if (r < 0)
			return eevdf__sw_fail(p, "%s",
					      eevdf_diag_format(&wd, buf,
								sizeof(buf)));
		memcpy(w->v[i].sha256, eevdf_workload_sha256(wl), 65);
		for (size_t a = 0; a < sw->nr_axes + sw->nr_fixed; a++) {
			const struct sweep_setting *s =
				a < sw->nr_axes ? &sw->axes[a] :
						  &sw->fixed[a - sw->nr_axes];
			bool found = false;

			if (s->key != SK_PARAM)
				continue;
			for (size_t k = 0; k < eevdf_workload_nr_params(wl);
			     k++)
				found |= strcmp(eevdf_workload_param_name(wl,
									  k),
						s->name + 6) == 0;
			if (!found) {
				r = eevdf__sw_fail(p,
						   "%s has no param '%s' (%s "
						   "sets it)",
						   w->v[i].text, s->name + 6,
						   a < sw->nr_axes ? "an axis" :
								     "fixed");
				eevdf_workload_free(wl);
				return r;
			}
		}
		eevdf_workload_free(wl);
		eevdf__sw_path_pop(p, old);
	}
	return 0;
}

/* "zip": [["kernel", "machine"], ...]: axes that move together. */
static int parse_zip(struct sw_parser *p, const cJSON *arr)
{
	eevdf_sweep *sw = p->sw;
	size_t old = eevdf__sw_path_key(p, "zip"), gi = 0;
	bool zipped[SWEEP_MAX_AXES] = { false };
	const cJSON *g;

	if (!cJSON_IsArray(arr))
		return eevdf__sw_fail(p, "must be a list of groups of axis "
					 "names: [[\"kernel\", \"machine\"]]");
	cJSON_ArrayForEach(g, arr)
	{
		size_t o2 = eevdf__sw_path_index(p, gi++), first = SIZE_MAX;
		size_t k = 0;
		const cJSON *n;

		if (!cJSON_IsArray(g) || cJSON_GetArraySize(g) < 2)
			return eevdf__sw_fail(p, "a group is a list of two or "
						 "more axis names");
		cJSON_ArrayForEach(n, g)
		{
			size_t o3 = eevdf__sw_path_index(p, k++);
			int a;

			if (!cJSON_IsString(n))
				return eevdf__sw_fail(p,
						      "must be an axis name");
			a = eevdf_sweep_axis_find(sw, n->valuestring);
			if (a < 0)
				return eevdf__sw_fail(p, "'%s' is not an axis",
						      n->valuestring);
			if (sw->axes[a].key == SK_SEED)
				return eevdf__sw_fail(
					p, "the seed cannot be zipped: "
					   "merge aggregates over it");
			if (zipped[a])
				return eevdf__sw_fail(p,
						      "axis '%s' is in two "
						      "zip groups",
						      n->valuestring);
			zipped[a] = true;
			if (first == SIZE_MAX) {
				first = (size_t)a;
			} else if (sw->axes[a].n != sw->axes[first].n) {
				return eevdf__sw_fail(
					p,
					"axis '%s' has %zu values and '%s' "
					"%zu: zipped axes need as many",
					n->valuestring, sw->axes[a].n,
					sw->axes[first].name,
					sw->axes[first].n);
			}
			eevdf__sw_path_pop(p, o3);
		}
		/* the group's place is its earliest axis's */
		cJSON_ArrayForEach(n, g)
		{
			size_t a = (size_t)eevdf_sweep_axis_find(
				sw, n->valuestring);

			if (a < first)
				first = a;
		}
		cJSON_ArrayForEach(n, g)
		{
			size_t a = (size_t)eevdf_sweep_axis_find(
				sw, n->valuestring);

			sw->axes[a].group = first;
		}
		eevdf__sw_path_pop(p, o2);
	}
	eevdf__sw_path_pop(p, old);
	return 0;
}

static int parse_metrics(struct sw_parser *p, const cJSON *arr)
{
	eevdf_sweep *sw = p->sw;
	size_t old = eevdf__sw_path_key(p, "metrics"), i = 0;
	const cJSON *m;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1)
		return eevdf__sw_fail(p, "must be a non-empty list of figure "
					 "names: a key of the results' "
					 "summary, or a workload metric "
					 "(NAME, NAME.p99, NAME[KEY].mean)");
	sw->metrics = calloc((size_t)cJSON_GetArraySize(arr),
			     sizeof(*sw->metrics));
	if (!sw->metrics)
		return eevdf__sw_nomem(p);
	cJSON_ArrayForEach(m, arr)
	{
		size_t o2 = eevdf__sw_path_index(p, i++);

		if (!cJSON_IsString(m) || !m->valuestring[0])
			return eevdf__sw_fail(p, "must be a figure name");
		for (size_t k = 0; k < sw->nr_metrics; k++)
			if (strcmp(sw->metrics[k], m->valuestring) == 0)
				return eevdf__sw_fail(p, "'%s' is listed twice",
						      m->valuestring);
		sw->metrics[sw->nr_metrics] = eevdf__wl_strdup(m->valuestring);
		if (!sw->metrics[sw->nr_metrics++])
			return eevdf__sw_nomem(p);
		eevdf__sw_path_pop(p, o2);
	}
	eevdf__sw_path_pop(p, old);
	return 0;
}

/* "baseline": {"kernel": "6.6", ...}: the labels of some axes. */
static int parse_baseline(struct sw_parser *p, const cJSON *obj)
{
	eevdf_sweep *sw = p->sw;
	size_t old = eevdf__sw_path_key(p, "baseline");
	const cJSON *it;

	if (!cJSON_IsObject(obj) || !obj->child)
		return eevdf__sw_fail(p, "must be an object of axis: label, "
					 "e.g. {\"kernel\": \"6.6\"}");
	cJSON_ArrayForEach(it, obj)
	{
		size_t o2 = eevdf__sw_path_key(p, it->string);
		int a = eevdf_sweep_axis_find(sw, it->string), v;
		char num[32];
		const char *label = num;

		if (a < 0)
			return eevdf__sw_fail(p, "'%s' is not an axis",
					      it->string);
		if (sw->axes[a].key == SK_SEED)
			return eevdf__sw_fail(p, "the baseline is a "
						 "configuration: merge "
						 "aggregates over the seeds");
		if (cJSON_IsString(it))
			label = it->valuestring;
		else if (cJSON_IsNumber(it) &&
			 it->valuedouble == (double)(s64)it->valuedouble)
			snprintf(num, sizeof(num), "%lld",
				 (long long)it->valuedouble);
		else
			return eevdf__sw_fail(p, "must be a label of the axis");
		v = eevdf_sweep_label_find(sw, (size_t)a, label);
		if (v < 0)
			return eevdf__sw_fail(p,
					      "'%s' is not a value of axis "
					      "'%s'",
					      label, it->string);
		sw->axes[a].base = v;
		eevdf__sw_path_pop(p, o2);
	}
	/* a zip group moves as one: its axes agree, and all take it */
	for (size_t a = 0; a < sw->nr_axes; a++) {
		struct sweep_setting *g = &sw->axes[sw->axes[a].group];

		if (sw->axes[a].base < 0)
			continue;
		for (size_t b = 0; b < sw->nr_axes; b++) {
			struct sweep_setting *s = &sw->axes[b];

			if (&sw->axes[s->group] != g ||
			    s->base == sw->axes[a].base)
				continue;
			if (s->base >= 0)
				return eevdf__sw_fail(
					p,
					"axes '%s' and '%s' are zipped: "
					"'%s' and '%s' are not one of their "
					"pairs",
					sw->axes[a].name, s->name,
					sw->axes[a].v[sw->axes[a].base].label,
					s->v[s->base].label);
			s->base = sw->axes[a].base;
		}
	}
	eevdf__sw_path_pop(p, old);
	return 0;
}

/* Top level ------------------------------------------------------------ */

static const char *const top_keys[] = {
	"format", "name", "description", "workload", "fixed",
	"axes",	  "zip",  "metrics",	 "baseline",
};

static int opt_string(struct sw_parser *p, const cJSON *root, const char *key,
		      char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!it)
		return 0;
	if (!cJSON_IsString(it)) {
		eevdf__sw_path_key(p, key);
		return eevdf__sw_fail(p, "must be a string");
	}
	*out = eevdf__wl_strdup(it->valuestring);
	return *out ? 0 : eevdf__sw_nomem(p);
}

static int parse_top(struct sw_parser *p, const cJSON *root,
		     const char *filename)
{
	eevdf_sweep *sw = p->sw;
	const cJSON *it, *fmt;
	int r;

	if (!cJSON_IsObject(root))
		return eevdf__sw_fail(p, "a sweep spec is a JSON object");
	cJSON_ArrayForEach(it, root)
	{
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(top_keys); i++)
			known |= strcmp(it->string, top_keys[i]) == 0;
		if (!known)
			return unknown_key(p, "key", it->string, top_keys,
					   ARRAY_SIZE(top_keys));
		for (const cJSON *o = it->next; o; o = o->next)
			if (strcmp(o->string, it->string) == 0) {
				eevdf__sw_path_key(p, it->string);
				return eevdf__sw_fail(p, "duplicate key");
			}
	}
	fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (!fmt)
		return eevdf__sw_fail(p, "missing \"format\": \"" SWEEP_FORMAT
					 "\"");
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, SWEEP_FORMAT)) {
		eevdf__sw_path_key(p, "format");
		return eevdf__sw_fail(p, "must be \"" SWEEP_FORMAT "\"");
	}
	if ((r = opt_string(p, root, "name", &sw->name)) ||
	    (r = opt_string(p, root, "description", &sw->description)))
		return r;
	if (!sw->name && !(sw->name = eevdf__sw_stem(filename)))
		return eevdf__sw_nomem(p);
	if (!sw->description && !(sw->description = eevdf__wl_strdup("")))
		return eevdf__sw_nomem(p);
	if ((it = cJSON_GetObjectItemCaseSensitive(root, "fixed")) &&
	    (r = parse_fixed(p, it)))
		return r;
	if ((it = cJSON_GetObjectItemCaseSensitive(root, "axes")) &&
	    (r = parse_axes(p, it)))
		return r;
	it = cJSON_GetObjectItemCaseSensitive(root, "workload");
	if (!it)
		return eevdf__sw_fail(p, "missing \"workload\": the workload "
					 "file (a path relative to the spec), "
					 "a list of them or named ones");
	if ((r = parse_workload(p, it)) || (r = check_combinations(p)) ||
	    (r = check_workloads(p)))
		return r;
	if ((it = cJSON_GetObjectItemCaseSensitive(root, "zip")) &&
	    (r = parse_zip(p, it)))
		return r;
	if ((r = eevdf__sw_expand(p)))
		return r;
	if ((it = cJSON_GetObjectItemCaseSensitive(root, "metrics")) &&
	    (r = parse_metrics(p, it)))
		return r;
	if ((it = cJSON_GetObjectItemCaseSensitive(root, "baseline")) &&
	    (r = parse_baseline(p, it)))
		return r;
	return 0;
}

/* Entry points ---------------------------------------------------------- */

char *eevdf__sw_join(const char *base_dir, const char *path)
{
	size_t nb, np = strlen(path);
	char *s;

	if (path[0] == '/' || !base_dir || !base_dir[0] ||
	    strcmp(base_dir, ".") == 0)
		return eevdf__wl_strdup(path);
	nb = strlen(base_dir);
	s = malloc(nb + np + 2);
	if (!s)
		return NULL;
	memcpy(s, base_dir, nb);
	s[nb] = '/';
	memcpy(s + nb + 1, path, np + 1);
	return s;
}

int eevdf_sweep_parse(const char *buf, size_t len, const char *filename,
		      const char *base_dir, eevdf_sweep **out,
		      struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	struct sw_parser p;
	cJSON *root = NULL;
	int r;

	if (!diag)
		diag = &scratch;
	eevdf__wl_diag_init(diag, filename);
	if (!out || !buf)
		return EEVDF_EINVAL;
	*out = NULL;
	memset(&p, 0, sizeof(p));
	p.diag = diag;
	p.sw = calloc(1, sizeof(*p.sw));
	if (!p.sw)
		return eevdf__sw_nomem(&p);
	p.sw->base_dir = eevdf__wl_strdup(base_dir ? base_dir : "");
	if (!p.sw->base_dir) {
		eevdf_sweep_free(p.sw);
		return eevdf__sw_nomem(&p);
	}
	eevdf_sha256_hex(buf, len, p.sw->sha256);
	r = eevdf__wl_parse_json(buf, len, diag, &root);
	if (!r)
		r = parse_top(&p, root, filename ? filename : "sweep");
	cJSON_Delete(root);
	if (r) {
		eevdf_sweep_free(p.sw);
		return r;
	}
	diag->path[0] = '\0';
	*out = p.sw;
	return 0;
}

int eevdf_sweep_load_file(const char *path, eevdf_sweep **out,
			  struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	const char *slash;
	char *buf = NULL, *dir;
	size_t len = 0;
	int r;

	if (!diag)
		diag = &scratch;
	eevdf__wl_diag_init(diag, path);
	if (!path || !out)
		return EEVDF_EINVAL;
	r = eevdf__wl_read_file(path, &buf, &len, diag);
	if (r)
		return r;
	slash = strrchr(path, '/');
	dir = malloc(slash ? (size_t)(slash - path) + 2 : 1);
	if (!dir) {
		free(buf);
		return EEVDF_ENOMEM;
	}
	if (slash == path)
		strcpy(dir, "/");
	else if (slash)
		snprintf(dir, (size_t)(slash - path) + 1, "%s", path);
	else
		dir[0] = '\0';
	r = eevdf_sweep_parse(buf, len, path, dir, out, diag);
	free(dir);
	free(buf);
	return r;
}

void eevdf_sweep_free(eevdf_sweep *sw)
{
	if (!sw)
		return;
	for (size_t i = 0; i < sw->nr_axes; i++)
		eevdf__sw_setting_free(&sw->axes[i]);
	for (size_t i = 0; i < sw->nr_fixed; i++)
		eevdf__sw_setting_free(&sw->fixed[i]);
	for (size_t i = 0; i < sw->nr_metrics; i++)
		free(sw->metrics[i]);
	free(sw->metrics);
	free(sw->name);
	free(sw->description);
	free(sw->base_dir);
	free(sw);
}

/* Accessors ------------------------------------------------------------- */

const char *eevdf_sweep_name(const eevdf_sweep *sw)
{
	return sw ? sw->name : NULL;
}

const char *eevdf_sweep_description(const eevdf_sweep *sw)
{
	return sw ? sw->description : NULL;
}

const char *eevdf_sweep_sha256(const eevdf_sweep *sw)
{
	return sw ? sw->sha256 : NULL;
}

size_t eevdf_sweep_nr_points(const eevdf_sweep *sw)
{
	return sw ? sw->nr_points : 0;
}

size_t eevdf_sweep_nr_axes(const eevdf_sweep *sw)
{
	return sw ? sw->nr_axes : 0;
}

const char *eevdf_sweep_axis_name(const eevdf_sweep *sw, size_t a)
{
	return sw && a < sw->nr_axes ? sw->axes[a].name : NULL;
}

size_t eevdf_sweep_axis_size(const eevdf_sweep *sw, size_t a)
{
	return sw && a < sw->nr_axes ? sw->axes[a].n : 0;
}

const char *eevdf_sweep_axis_label(const eevdf_sweep *sw, size_t a, size_t v)
{
	if (!sw || a >= sw->nr_axes || v >= sw->axes[a].n)
		return NULL;
	return sw->axes[a].v[v].label;
}

int eevdf_sweep_axis_find(const eevdf_sweep *sw, const char *name)
{
	for (size_t a = 0; sw && name && a < sw->nr_axes; a++)
		if (strcmp(sw->axes[a].name, name) == 0)
			return (int)a;
	return -1;
}

int eevdf_sweep_label_find(const eevdf_sweep *sw, size_t a, const char *label)
{
	if (!sw || !label || a >= sw->nr_axes)
		return -1;
	for (size_t v = 0; v < sw->axes[a].n; v++)
		if (strcmp(sw->axes[a].v[v].label, label) == 0)
			return (int)v;
	return -1;
}

size_t eevdf_sweep_axis_group(const eevdf_sweep *sw, size_t a)
{
	return sw && a < sw->nr_axes ? sw->axes[a].group : 0;
}

size_t eevdf_sweep_nr_metrics(const eevdf_sweep *sw)
{
	return sw ? sw->nr_metrics : 0;
}

const char *eevdf_sweep_metric(const eevdf_sweep *sw, size_t i)
{
	return sw && i < sw->nr_metrics ? sw->metrics[i] : NULL;
}

const char *eevdf_sweep_baseline(const eevdf_sweep *sw, size_t a)
{
	if (!sw || a >= sw->nr_axes || sw->axes[a].base < 0)
		return NULL;
	return sw->axes[a].v[sw->axes[a].base].label;
}
