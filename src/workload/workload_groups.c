/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: "groups" (cgroup v2 paths and the cpu controller's
 * files), "sessions" (autogroup's), and what tasks and templates say of
 * them ("cgroup", "session", "setsid").  Values are checked as the
 * kernel checks a write to each file (kernel/sched/core.c:
 * cpu_weight_write_u64(), cpu_weight_nice_write_s64(),
 * cpu_idle_write_s64(), cpu_max_write() with cpu_period_quota_parse() and
 * tg_set_cfs_bandwidth()), so that what loads is what
 * eevdf_sim_set_group() accepts.  The groups are made in order of their
 * paths and the sessions numbered in order of their names: results never
 * depend on the order of the keys in the file.
 */
#include <string.h>

#include "engine/sim.h"
#include "lib/strdist.h"
#include "workload_impl.h"

#include "wl_short.h"

/* More groups than this is a mistake (each has a run queue per CPU). */
#define WL_MAX_GROUPS 10000
/* cpu.max in us: the period 1 ms..1 s, the quota at least 1 ms and at
 * most max_cfs_runtime, MAX_BW = 2^(64 - BW_SHIFT) - 1 us */
#define CPU_MAX_MIN_US 1000ull
#define CPU_MAX_PERIOD_MAX_US 1000000ull
#define CPU_MAX_QUOTA_MAX_US ((1ull << 44) - 1)
#define NS_PER_US 1000ull
#define CPU_MAX_SYNTAX                                                         \
	"cpu.max is \"QUOTA PERIOD\" in microseconds, QUOTA \"max\" for no "   \
	"limit, PERIOD optional"

static const char *const group_files[] = {
	"cpu.weight",
	"cpu.weight.nice",
	"cpu.idle",
	"cpu.max",
};

/* Files of the cpu controller that users may reach for, and why not. */
static const struct {
	const char *key;
	const char *why;
} other_files[] = {
	{ "cpu.shares", "is cgroup v1's: v2's cpu.weight is 1..10000, 100 "
			"for v1's 1024" },
	{ "cpu.cfs_quota_us", "is cgroup v1's: v2 has the quota and the "
			      "period in cpu.max, \"QUOTA PERIOD\"" },
	{ "cpu.cfs_period_us", "is cgroup v1's: v2 has the quota and the "
			       "period in cpu.max, \"QUOTA PERIOD\"" },
	{ "cpu.max.burst", "is not modelled (CFS bandwidth without burst)" },
	{ "cpu.uclamp.min", "is not modelled (no uclamp)" },
	{ "cpu.uclamp.max", "is not modelled (no uclamp)" },
};

/* Paths ------------------------------------------------------------------ */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       c == '@' || c == ':' || c == '+';
}

/* The rules of the engine's check_path() (src/engine/groups.c). */
const char *eevdf__wl_group_path_why(const char *path)
{
	size_t len = strlen(path);
	int depth = 0;

	if (path[0] != '/')
		return "a path starts with '/'";
	if (len >= EEVDF_GROUP_PATH_MAX)
		return "longer than 255 bytes";
	for (const char *c = path + 1; *c;) {
		const char *end = strchr(c, '/');
		size_t n = end ? (size_t)(end - c) : strlen(c);

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return "an empty, '.' or '..' name";
		for (size_t i = 0; i < n; i++)
			if (!name_char(c[i]))
				return "a name has letters, digits and ._-@:+ "
				       "only";
		if (depth == 0 && n > 10 && strncmp(c, "autogroup-", 10) == 0)
			return "autogroup-* names are the kernel's";
		if (++depth > EEVDF_GROUP_DEPTH_MAX)
			return "deeper than 32 levels";
		c += n;
		if (*c == '/' && !c[1])
			return "a trailing '/'";
		if (*c == '/')
			c++;
	}
	return NULL;
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct wl_group *)a)->path,
		      ((const struct wl_group *)b)->path);
}

const struct wl_group *eevdf__wl_find_group(const struct eevdf_workload *wl,
					    const char *path)
{
	struct wl_group key;

	if (!wl->nr_groups)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.path = (char *)(uintptr_t)path;
	return bsearch(&key, wl->groups, wl->nr_groups, sizeof(key), cmp_group);
}

int eevdf__wl_no_group(struct wl_parser *p, const char *path)
{
	const struct eevdf_workload *wl = p->wl;
	const char *best = NULL;
	char sb[WL_SHOWN_MAX], bb[WL_SHOWN_MAX];
	size_t bd = 3;

	for (size_t i = 0; i < wl->nr_groups; i++) {
		size_t d = eevdf__strdist(path, wl->groups[i].path);

		if (d < bd) {
			bd = d;
			best = wl->groups[i].path;
		}
	}
	if (best)
		return fail(p,
			    "no group '%s' in \"groups\": did you mean '%s'?",
			    SHOWN(sb, path), SHOWN(bb, best));
	if (!wl->nr_groups)
		return fail(p,
			    "no group '%s': the workload has no \"groups\" "
			    "(\"/\" is the root)",
			    SHOWN(sb, path));
	return fail(p, "no group '%s' in \"groups\" (\"/\" is the root)",
		    SHOWN(sb, path));
}

/* The files of a group ---------------------------------------------------- */

/* An unknown file: a v1 or unmodelled one by name, else the nearest. */
static int unknown_file(struct wl_parser *p, const char *k)
{
	const char *best = NULL;
	char sb[WL_SHOWN_MAX];
	size_t bd = 3;

	for (size_t i = 0; i < ARRAY_SIZE(other_files); i++)
		if (strcmp(k, other_files[i].key) == 0)
			return fail(p, "'%s' %s", k, other_files[i].why);
	for (size_t i = 0; i < ARRAY_SIZE(group_files); i++) {
		size_t d = eevdf__strdist(k, group_files[i]);

		if (d < bd) {
			bd = d;
			best = group_files[i];
		}
	}
	if (best)
		return fail(p,
			    "unknown key '%s': did you mean '%s'? (valid: "
			    "cpu.weight, cpu.weight.nice, cpu.idle, cpu.max)",
			    SHOWN(sb, k), best);
	return fail(p,
		    "unknown key '%s' (valid: cpu.weight, cpu.weight.nice, "
		    "cpu.idle, cpu.max)",
		    SHOWN(sb, k));
}

/* A whole number of microseconds of at most 19 digits. */
static bool us_token(const char *s, size_t n, u64 *out)
{
	u64 v = 0;

	if (!n || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (u64)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* A quota and a period in us (0: not given) against the kernel's limits. */
static int cpu_max_range(struct wl_parser *p, u64 quota_us, bool inf,
			 u64 period_us)
{
	if (period_us &&
	    (period_us < CPU_MAX_MIN_US || period_us > CPU_MAX_PERIOD_MAX_US))
		return fail(p,
			    "cpu.max period %llu us is outside 1000..1000000 "
			    "us (1 ms..1 s): the kernel refuses it (EINVAL)",
			    (unsigned long long)period_us);
	if (!inf && quota_us < CPU_MAX_MIN_US)
		return fail(p,
			    "cpu.max quota %llu us is below 1000 us (1 ms): "
			    "the kernel refuses it (EINVAL)",
			    (unsigned long long)quota_us);
	if (!inf && quota_us > CPU_MAX_QUOTA_MAX_US)
		return fail(p,
			    "cpu.max quota %llu us is above the kernel's "
			    "limit of %llu us (EINVAL)",
			    (unsigned long long)quota_us,
			    (unsigned long long)CPU_MAX_QUOTA_MAX_US);
	return 0;
}

static void cpu_max_set(struct eevdf_group_spec *g, bool has_quota,
			u64 quota_us, bool inf, u64 period_us)
{
	if (has_quota)
		g->max_quota = inf ? EEVDF_GROUP_NO_QUOTA :
				     (eevdf_time)(quota_us * NS_PER_US);
	if (period_us)
		g->max_period = (eevdf_time)(period_us * NS_PER_US);
}

/*
 * cpu.max in the file's syntax (cpu_period_quota_parse()): "QUOTA
 * PERIOD", "max PERIOD", "max" or "QUOTA" (the period kept), in us.
 */
static int cpu_max_text(struct wl_parser *p, const char *s,
			struct eevdf_group_spec *g)
{
	const char *t[3] = { NULL, NULL, NULL };
	size_t n[3] = { 0, 0, 0 }, k = 0;
	char sb[WL_SHOWN_MAX];
	u64 quota = 0, period = 0;
	bool inf;
	int r;

	for (const char *c = s; *c;) {
		while (blank(*c))
			c++;
		if (!*c)
			break;
		if (k < 3)
			t[k] = c;
		while (*c && !blank(*c))
			c++;
		if (k < 3)
			n[k] = (size_t)(c - t[k]);
		k++;
	}
	if (k == 0)
		return fail(p, "cpu.max is empty: " CPU_MAX_SYNTAX);
	if (k > 2)
		return fail(
			p,
			"bad cpu.max '%s': more than two fields (" CPU_MAX_SYNTAX
			")",
			SHOWN(sb, s));
	inf = n[0] == 3 && strncmp(t[0], "max", 3) == 0;
	if (!inf && !us_token(t[0], n[0], &quota))
		return fail(p,
			    "bad cpu.max '%s': QUOTA is a whole number of "
			    "microseconds or \"max\" (" CPU_MAX_SYNTAX ")",
			    SHOWN(sb, s));
	if (k == 2 && !us_token(t[1], n[1], &period))
		return fail(p,
			    "bad cpu.max '%s': PERIOD is a whole number of "
			    "microseconds (" CPU_MAX_SYNTAX ")",
			    SHOWN(sb, s));
	if (k == 2 && !period)
		return fail(p,
			    "cpu.max period 0 us is outside 1000..1000000 us "
			    "(1 ms..1 s): the kernel refuses it (EINVAL)");
	if ((r = cpu_max_range(p, quota, inf, period)))
		return r;
	cpu_max_set(g, true, quota, inf, period);
	return 0;
}

/* A duration of cpu.max's object form, in whole us; "max" for a quota. */
static int cpu_max_member(struct wl_parser *p, const cJSON *obj,
			  const char *key, bool *has, bool *inf, u64 *us)
{
	const cJSON *it = get(obj, key), *c = NULL;
	size_t old, o2;
	eevdf_time ns = 0;
	struct wl_value v;
	int r;

	*has = *inf = false;
	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_choose(p, it, &c, &o2);
	if (!r && cJSON_IsNull(c)) {
		/* unset */
	} else if (!r && cJSON_IsString(c) && !strcmp(key, "quota") &&
		   !(r = eevdf__wl_ld_value(p, c, &v))) {
		*inf = v.kind == WV_STR && strcmp(v.s, "max") == 0;
		eevdf__wl_value_free(&v);
	}
	if (!r && !cJSON_IsNull(c) && !*inf) {
		r = eevdf__wl_ld_duration(p, c, true, &ns, NULL);
		if (!r && ns % (eevdf_time)NS_PER_US)
			r = fail(p, "must be a whole number of microseconds "
				    "(cpu.max is in us)");
	}
	*has = !r && !cJSON_IsNull(c);
	*us = (u64)ns / NS_PER_US;
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

/* {"quota": DURATION | "max", "period": DURATION}. */
static int cpu_max_obj(struct wl_parser *p, const cJSON *obj,
		       struct eevdf_group_spec *g)
{
	static const char *const keys[] = { "quota", "period" };
	bool hq, inf, hp, pinf;
	u64 quota, period;
	int r;

	if ((r = eevdf__wl_check_keys(p, obj, keys, ARRAY_SIZE(keys), NULL,
				      0)) ||
	    (r = cpu_max_member(p, obj, "quota", &hq, &inf, &quota)) ||
	    (r = cpu_max_member(p, obj, "period", &hp, &pinf, &period)))
		return r;
	if (hp && !period)
		return fail(p,
			    "cpu.max period 0 us is outside 1000..1000000 us "
			    "(1 ms..1 s): the kernel refuses it (EINVAL)");
	if ((r = cpu_max_range(p, hq ? quota : CPU_MAX_MIN_US, inf || !hq,
			       hp ? period : 0)))
		return r;
	cpu_max_set(g, hq, quota, inf, hp ? period : 0);
	return 0;
}

/* The value of file key of group obj, a choice resolved; NULL: unset. */
static int file_value(struct wl_parser *p, const cJSON *obj, const char *key,
		      const cJSON **out, size_t *old, size_t *o2)
{
	const cJSON *it = get(obj, key);
	int r;

	*out = NULL;
	*old = *o2 = p->plen;
	if (!it)
		return 0;
	*old = eevdf__wl_path_quoted(p, key);
	r = eevdf__wl_choose(p, it, out, o2);
	if (!r && cJSON_IsNull(*out))
		*out = NULL;
	return r;
}

static void file_done(struct wl_parser *p, size_t old, size_t o2)
{
	path_pop(p, o2);
	path_pop(p, old);
}

/* cpu.idle: 0 or 1, or a JSON boolean. */
static int idle_value(struct wl_parser *p, const cJSON *v, int *out)
{
	s64 x = 0;
	int r = 0;

	if (cJSON_IsBool(v))
		x = cJSON_IsTrue(v);
	else if (cJSON_IsNumber(v) || cJSON_IsString(v))
		r = eevdf__wl_ld_int(p, v, 0, 1, &x);
	else
		r = fail(p, "must be 0 or 1 (or false or true)");
	*out = (int)x;
	return r;
}

/* Every file of one group, into g. */
static int parse_files(struct wl_parser *p, const cJSON *obj,
		       struct eevdf_group_spec *g)
{
	const cJSON *it, *jt, *v;
	size_t old, o2;
	s64 x;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of the group's files, "
			       "{\"cpu.weight\": 300} ({} for the defaults)");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(group_files); i++)
			known |= strcmp(k, group_files[i]) == 0;
		old = eevdf__wl_path_quoted(p, k);
		for (jt = obj->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate key '%s'", k);
		if (!r && !known)
			r = unknown_file(p, k);
		path_pop(p, old);
	}
	if (r)
		return r;
	if (!(r = file_value(p, obj, "cpu.weight", &v, &old, &o2)) && v &&
	    !(r = eevdf__wl_ld_int(p, v, 1, 10000, &x)))
		g->weight = (unsigned int)x;
	file_done(p, old, o2);
	if (!r && !(r = file_value(p, obj, "cpu.weight.nice", &v, &old, &o2)) &&
	    v && !(r = eevdf__wl_ld_int(p, v, -20, 19, &x))) {
		g->set_weight_nice = true;
		g->weight_nice = (int)x;
		if (g->weight)
			r = fail(p, "cpu.weight and cpu.weight.nice are the "
				    "same setting: give one");
	}
	file_done(p, old, o2);
	if (!r && !(r = file_value(p, obj, "cpu.idle", &v, &old, &o2)) && v)
		r = idle_value(p, v, &g->idle);
	file_done(p, old, o2);
	if (!r && g->idle == 1 && (g->weight || g->set_weight_nice)) {
		/* sched_group_set_shares() refuses an idle group's weight */
		old = eevdf__wl_path_quoted(p, g->weight ? "cpu.weight" :
							   "cpu.weight.nice");
		r = fail(p, "an idle group (cpu.idle 1) has no weight: the "
			    "kernel refuses the write (EINVAL)");
		path_pop(p, old);
	}
	if (r || (r = file_value(p, obj, "cpu.max", &v, &old, &o2)) || !v) {
		file_done(p, old, o2);
		return r;
	}
	if (cJSON_IsObject(v)) {
		r = cpu_max_obj(p, v, g);
	} else if (cJSON_IsString(v)) {
		char *s = NULL;

		if (!(r = eevdf__wl_ld_string(p, v, &s)))
			r = cpu_max_text(p, s, g);
		free(s);
	} else {
		r = fail(p, "must be a string, \"QUOTA PERIOD\" in "
			    "microseconds (QUOTA \"max\" for no limit), or "
			    "an object {\"quota\": DURATION, \"period\": "
			    "DURATION}");
	}
	file_done(p, old, o2);
	return r;
}

/* "groups" --------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every path the declared groups make, their parents included ("/a/b"
 * makes "/a" and "/a/b"), sorted and unique, into *out (owned strings);
 * *n their count.
 */
static int all_paths(struct wl_parser *p, const struct wl_group *decl,
		     size_t nd, char ***out, size_t *n)
{
	size_t cap = 0, k = 0, u = 0;
	char **v;

	/* a checked path has one '/' per name */
	for (size_t i = 0; i < nd; i++)
		for (const char *c = decl[i].path; (c = strchr(c, '/')); c++)
			cap++;
	v = calloc(cap ? cap : 1, sizeof(*v));
	if (!v)
		return nomem(p);
	for (size_t i = 0; i < nd; i++) {
		const char *path = decl[i].path;
		size_t len = strlen(path);

		for (size_t e = 1; e <= len; e++) {
			if (e < len && path[e] != '/')
				continue;
			if (!(v[k] = malloc(e + 1)))
				goto oom;
			memcpy(v[k], path, e);
			v[k++][e] = '\0';
		}
	}
	if (k < cap) {
oom:
		for (size_t i = 0; i < k; i++)
			free(v[i]);
		free(v);
		return nomem(p);
	}
	qsort(v, k, sizeof(*v), cmp_str);
	for (size_t i = 0; i < k; i++) {
		if (u && strcmp(v[u - 1], v[i]) == 0)
			free(v[i]);
		else
			v[u++] = v[i];
	}
	*out = v;
	*n = u;
	return 0;
}

static void groups_free(struct wl_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].path);
	free(g);
}

/* The groups table from the declared ones: parents added, sorted. */
static int build_groups(struct wl_parser *p, struct wl_group *decl, size_t nd)
{
	struct eevdf_workload *wl = p->wl;
	char **paths = NULL;
	size_t n = 0;
	int r;

	qsort(decl, nd, sizeof(*decl), cmp_group);
	if ((r = all_paths(p, decl, nd, &paths, &n)))
		return r;
	if (n > WL_MAX_GROUPS) {
		for (size_t i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		return fail(p,
			    "%zu groups with the parents they imply: at most "
			    "%d",
			    n, WL_MAX_GROUPS);
	}
	wl->groups = calloc(n ? n : 1, sizeof(*wl->groups));
	if (!wl->groups) {
		for (size_t i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		return nomem(p);
	}
	for (size_t i = 0, d = 0; i < n; i++) {
		struct wl_group *g = &wl->groups[i];

		g->path = paths[i];
		if (d < nd && strcmp(decl[d].path, g->path) == 0) {
			g->spec = decl[d++].spec;
			g->declared = true;
		} else {
			eevdf_group_spec_init(&g->spec, NULL);
		}
		g->spec.path = g->path;
	}
	wl->nr_groups = n;
	free(paths);
	return 0;
}

int eevdf__wl_parse_groups(struct wl_parser *p, const cJSON *obj)
{
	const cJSON *it, *jt;
	struct wl_group *decl;
	char sb[WL_SHOWN_MAX];
	size_t n = 0, nd = 0, old;
	const char *why;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of cgroup path: files, "
			       "{\"/batch\": {\"cpu.weight\": 50}}");
	for (it = obj->child; it; it = it->next)
		n++;
	if (n > WL_MAX_GROUPS)
		return fail(p, "%zu groups: at most %d", n, WL_MAX_GROUPS);
	decl = calloc(n ? n : 1, sizeof(*decl));
	if (!decl)
		return nomem(p);
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		struct wl_group *g = &decl[nd];

		old = eevdf__wl_path_quoted(p, k);
		for (jt = obj->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate group '%s'",
					 SHOWN(sb, k));
		if (r) {
			/* reported */
		} else if (strcmp(k, "/") == 0) {
			r = fail(p, "the root group '/' has no cpu.weight, "
				    "cpu.idle or cpu.max to set");
		} else if ((why = eevdf__wl_group_path_why(k))) {
			r = fail(p, "bad cgroup path '%s': %s", SHOWN(sb, k),
				 why);
		} else if (!(g->path = eevdf__wl_strdup(k))) {
			r = nomem(p);
		} else {
			nd++;
			eevdf_group_spec_init(&g->spec, NULL);
			r = parse_files(p, it, &g->spec);
		}
		path_pop(p, old);
	}
	if (!r)
		r = build_groups(p, decl, nd);
	/* the table has copies of the paths (all_paths()) and the specs */
	groups_free(decl, nd);
	return r;
}

/* "sessions" ------------------------------------------------------------- */

/* The key of a session in a path: .name, or ["name"] when it has dots. */
static size_t session_key(struct wl_parser *p, const char *name)
{
	return eevdf__wl_is_ident(name, strlen(name)) ?
		       path_key(p, name) :
		       eevdf__wl_path_quoted(p, name);
}

/* A new session called name, or NULL (out of memory, reported). */
static struct wl_session *add_session(struct wl_parser *p, const char *name)
{
	struct eevdf_workload *wl = p->wl;
	struct wl_session *s;

	if (wl->nr_sessions == wl->cap_sessions) {
		size_t cap = wl->cap_sessions ? 2 * wl->cap_sessions : 8;
		struct wl_session *v = realloc(wl->sessions, cap * sizeof(*v));

		if (!v) {
			nomem(p);
			return NULL;
		}
		wl->sessions = v;
		wl->cap_sessions = cap;
	}
	s = &wl->sessions[wl->nr_sessions];
	memset(s, 0, sizeof(*s));
	if (!(s->name = eevdf__wl_strdup(name))) {
		nomem(p);
		return NULL;
	}
	s->spec.name = s->name;
	wl->nr_sessions++;
	return s;
}

/* A session's "nice" (null: none), into s. */
static int session_nice(struct wl_parser *p, const cJSON *def,
			struct wl_session *s)
{
	const cJSON *v = get(def, "nice");
	size_t old, o2;
	s64 x;
	int r;

	if (!v)
		return 0;
	old = path_key(p, "nice");
	r = eevdf__wl_choose(p, v, &v, &o2);
	if (!r && !cJSON_IsNull(v) &&
	    !(r = eevdf__wl_ld_int(p, v, -20, 19, &x))) {
		s->spec.set_nice = true;
		s->spec.nice = (int)x;
	}
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

int eevdf__wl_parse_sessions(struct wl_parser *p, const cJSON *obj)
{
	static const char *const keys[] = { "nice" };
	const cJSON *it, *jt;
	struct wl_session *s;
	size_t old;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of session name: "
			       "{\"nice\": N}");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";

		old = session_key(p, k);
		for (jt = obj->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate session '%s'", k);
		if (!r)
			r = eevdf__wl_check_name(p, k, "session");
		if (!r && !cJSON_IsObject(it))
			r = fail(p, "a session is an object, {\"nice\": 5} "
				    "({} for nice 0)");
		if (!r)
			r = eevdf__wl_check_keys(p, it, keys, ARRAY_SIZE(keys),
						 NULL, 0);
		if (!r)
			r = (s = add_session(p, k)) ? session_nice(p, it, s) :
						      EEVDF_ENOMEM;
		path_pop(p, old);
	}
	return r;
}

/* A task's keys ------------------------------------------------------------ */

/* A string member (a choice resolved, "${...}" expanded); NULL when absent
 * or null. */
static int opt_string(struct wl_parser *p, const cJSON *def, const char *key,
		      char **out)
{
	const cJSON *it = get(def, key), *c = NULL;
	size_t old, o2;
	int r;

	*out = NULL;
	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_choose(p, it, &c, &o2);
	if (!r && !cJSON_IsNull(c))
		r = eevdf__wl_ld_string(p, c, out);
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

/* "setsid": true or false, a 0/1 "${...}", or a choice of those. */
static int setsid_flag(struct wl_parser *p, const cJSON *def, bool *out)
{
	const cJSON *it = get(def, "setsid"), *c = NULL;
	size_t old, o2;
	s64 x = 0;
	int r;

	*out = false;
	if (!it)
		return 0;
	old = path_key(p, "setsid");
	r = eevdf__wl_choose(p, it, &c, &o2);
	if (r || cJSON_IsNull(c))
		x = 0;
	else if (cJSON_IsBool(c))
		x = cJSON_IsTrue(c);
	else if (cJSON_IsString(c) && strstr(c->valuestring, "${"))
		r = eevdf__wl_ld_int(p, c, 0, 1, &x);
	else
		r = fail(p, "must be true or false");
	*out = x != 0;
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

int eevdf__wl_task_groups(struct wl_parser *p, const cJSON *def,
			  struct wl_task *t)
{
	const struct wl_group *g;
	char *cg = NULL, *sess = NULL;
	bool setsid = false;
	size_t old;
	int r;

	if ((r = opt_string(p, def, "cgroup", &cg)))
		return r;
	if (cg && strcmp(cg, "/") == 0) {
		t->spec.cgroup = "/";
	} else if (cg && (g = eevdf__wl_find_group(p->wl, cg))) {
		t->spec.cgroup = g->path;
	} else if (cg) {
		old = path_key(p, "cgroup");
		r = eevdf__wl_no_group(p, cg);
		path_pop(p, old);
	}
	free(cg);
	if (r || (r = opt_string(p, def, "session", &sess)) ||
	    (r = setsid_flag(p, def, &setsid))) {
		free(sess);
		return r;
	}
	if (sess && setsid) {
		free(sess);
		old = path_key(p, "setsid");
		r = fail(p, "'setsid' and 'session' exclude each other: a task "
			    "starts a new session or joins a named one");
		path_pop(p, old);
		return r;
	}
	if (sess) {
		old = path_key(p, "session");
		r = eevdf__wl_check_name(p, sess, "session");
		path_pop(p, old);
		if (r) {
			free(sess);
			return r;
		}
	}
	free(t->session);
	t->session = sess;
	t->sess = sess ? WS_NAMED : setsid ? WS_SETSID : WS_DEFAULT;
	return 0;
}

/* Session numbers --------------------------------------------------------- */

static int cmp_session(const void *a, const void *b)
{
	return strcmp(((const struct wl_session *)a)->name,
		      ((const struct wl_session *)b)->name);
}

static struct wl_session *find_session(struct wl_session *v, size_t n,
				       const char *name)
{
	struct wl_session key;

	if (!n)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.name = (char *)(uintptr_t)name;
	return bsearch(&key, v, n, sizeof(key), cmp_session);
}

/* Add the session names of v[0..n) to names[*k..). */
static void collect_names(const struct wl_task *v, size_t n, const char **names,
			  size_t *k)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].sess == WS_NAMED)
			names[(*k)++] = v[i].session;
}

/* Each named session of v[0..n) by its number in all; used marked. */
static void set_numbers(struct wl_task *v, size_t n, struct wl_session *all,
			size_t nr)
{
	for (size_t i = 0; i < n; i++) {
		struct wl_session *s;

		if (v[i].sess != WS_NAMED)
			continue;
		s = find_session(all, nr, v[i].session);
		s->used = true;
		v[i].spec.session = s->spec.session;
	}
}

/*
 * The sessions of "sessions" and those tasks and templates name, sorted
 * by name and numbered 1, 2, ... in that order; then one more for each
 * task instance that calls setsid(), in task order.
 */
int eevdf__wl_number_sessions(struct wl_parser *p)
{
	struct eevdf_workload *wl = p->wl;
	size_t nd = wl->nr_sessions, n = nd, k = 0, u = 0;
	struct wl_session *all;
	const char **names;
	bool oom = false;

	for (size_t i = 0; i < wl->nr_tasks; i++)
		n += wl->tasks[i].sess == WS_NAMED;
	for (size_t i = 0; i < wl->nr_tmpls; i++)
		n += wl->tmpls[i].sess == WS_NAMED;
	names = malloc((n ? n : 1) * sizeof(*names));
	all = calloc(n ? n : 1, sizeof(*all));
	if (!names || !all) {
		free(names);
		free(all);
		return nomem(p);
	}
	if (nd)
		qsort(wl->sessions, nd, sizeof(*wl->sessions), cmp_session);
	for (size_t i = 0; i < nd; i++)
		names[k++] = wl->sessions[i].name;
	collect_names(wl->tasks, wl->nr_tasks, names, &k);
	collect_names(wl->tmpls, wl->nr_tmpls, names, &k);
	qsort(names, k, sizeof(*names), cmp_str);
	for (size_t i = 0; !oom && i < k; i++) {
		struct wl_session *d, *s = &all[u];

		if (u && strcmp(all[u - 1].name, names[i]) == 0)
			continue;
		if (!(s->name = eevdf__wl_strdup(names[i]))) {
			oom = true;
			continue;
		}
		/* a declared one has its nice */
		if ((d = find_session(wl->sessions, nd, names[i])))
			s->spec = d->spec;
		s->spec.name = s->name;
		s->spec.session = (unsigned int)++u;
	}
	free(names);
	for (size_t i = 0; i < nd; i++)
		free(wl->sessions[i].name);
	free(wl->sessions);
	wl->sessions = all;
	wl->nr_sessions = wl->cap_sessions = u;
	if (oom)
		return nomem(p);
	set_numbers(wl->tasks, wl->nr_tasks, all, u);
	set_numbers(wl->tmpls, wl->nr_tmpls, all, u);
	/* each task that calls setsid() leads a session of its own */
	for (size_t i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].sess == WS_SETSID)
			wl->tasks[i].spec.session =
				(unsigned int)(u + ++wl->nr_setsid);
	return 0;
}

/* Simulation setup -------------------------------------------------------- */

static int add_fail(const eevdf_workload *wl, struct eevdf_diag *diag,
		    const char *what, const char *key, int code,
		    const char *msg)
{
	eevdf__wl_diag_init(diag, wl->file);
	snprintf(diag->path, sizeof(diag->path), "%s[\"%s\"]", what, key);
	eevdf__wl_set_str(diag->msg, sizeof(diag->msg), msg);
	return code;
}

int eevdf__wl_add_groups(const eevdf_workload *wl, eevdf_sim *sim,
			 struct eevdf_diag *diag)
{
	int r;

	for (size_t i = 0; i < wl->nr_groups; i++)
		if ((r = eevdf_sim_set_group(sim, &wl->groups[i].spec)))
			return add_fail(wl, diag, "groups", wl->groups[i].path,
					r, eevdf_sim_errmsg(sim));
	/*
	 * With autogroup off no session has a group: a nice would make one
	 * that nobody is in.  So would a session that no task or template
	 * joins.
	 */
	for (size_t i = 0; sim->sched.sp.autogroup && i < wl->nr_sessions;
	     i++) {
		const struct wl_session *s = &wl->sessions[i];

		if (s->used && s->spec.set_nice &&
		    (r = eevdf_sim_set_autogroup_nice(sim, s->spec.session,
						      s->spec.nice)))
			return add_fail(wl, diag, "sessions", s->name, r,
					eevdf_sim_errmsg(sim));
	}
	/* a setsid() at run time starts a session after all of these */
	eevdf__sim_session_used(
		sim, (unsigned int)(wl->nr_sessions + wl->nr_setsid));
	return 0;
}

/* Accessors --------------------------------------------------------------- */

size_t eevdf_workload_nr_groups(const eevdf_workload *wl)
{
	return wl ? wl->nr_groups : 0;
}

const struct eevdf_group_spec *eevdf_workload_group(const eevdf_workload *wl,
						    size_t i)
{
	return wl && i < wl->nr_groups ? &wl->groups[i].spec : NULL;
}

size_t eevdf_workload_nr_sessions(const eevdf_workload *wl)
{
	return wl ? wl->nr_sessions : 0;
}

const struct eevdf_session_spec *
eevdf_workload_session(const eevdf_workload *wl, size_t i)
{
	return wl && i < wl->nr_sessions ? &wl->sessions[i].spec : NULL;
}
