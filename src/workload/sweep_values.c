/* SPDX-License-Identifier: MIT */
/*
 * The values of one sweep setting: a fixed value, or an axis's list,
 * range, count (seeds) or named sets (features).  Each value gets its
 * label (what tables print), the text its run takes and its JSON in the
 * canonical configuration; values of one axis must differ in both.
 */
#include <string.h>

#include "sweep_impl.h"

/* cJSON's text of it, in our own allocation (free()). */
static char *json_text(const cJSON *it)
{
	char *t = cJSON_PrintUnformatted(it), *s;

	if (!t)
		return NULL;
	s = eevdf__wl_strdup(t);
	cJSON_free(t);
	return s;
}

static char *json_string(const char *str)
{
	cJSON *j = cJSON_CreateString(str);
	char *s = j ? json_text(j) : NULL;

	cJSON_Delete(j);
	return s;
}

/* x in decimal, with unit after it ("" or "ns"). */
static char *fmt_s64(s64 x, const char *unit)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%lld%s", (long long)x, unit);
	return eevdf__wl_strdup(buf);
}

static int set_strings(struct sw_parser *p, struct sweep_value *v, char *label,
		       char *text, char *canon)
{
	v->label = label;
	v->text = text;
	v->canon = canon;
	if (!label || !text || !canon)
		return eevdf__sw_nomem(p);
	return 0;
}

/* An integer JSON number in [lo, hi]. */
static int get_int(struct sw_parser *p, const cJSON *it, s64 lo, s64 hi,
		   const char *what, s64 *out)
{
	double d;

	if (!cJSON_IsNumber(it))
		return eevdf__sw_fail(p, "must be %s", what);
	d = it->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi) || d != (double)(s64)d)
		return eevdf__sw_fail(p, "must be %s from %lld to %lld", what,
				      (long long)lo, (long long)hi);
	*out = (s64)d;
	return 0;
}

static int value_kernel(struct sw_parser *p, const cJSON *it,
			struct sweep_value *v)
{
	const char *prof;

	if (!cJSON_IsString(it))
		return eevdf__sw_fail(p, "must be a kernel profile name, "
					 "e.g. \"6.18\"");
	prof = eevdf_profile_for_release(it->valuestring, NULL, 0);
	if (!prof) {
		char known[256] = "";
		size_t n = 0;

		for (size_t i = 0; i < eevdf_profile_count() && n < 200; i++)
			n += (size_t)snprintf(known + n, sizeof(known) - n,
					      "%s%s", i ? ", " : "",
					      eevdf_profile_name(i));
		return eevdf__sw_fail(p,
				      "unknown kernel profile '%s' (a profile, "
				      "or a release in one's range); known: %s",
				      it->valuestring, known);
	}
	return set_strings(p, v, eevdf__wl_strdup(it->valuestring),
			   eevdf__wl_strdup(prof), json_string(prof));
}

/* on/off as the kernel spells them, in the library's feature order. */
static char *features_text(u64 on, u64 off)
{
	size_t n = eevdf_feature_count(), len = 1;
	char *s;

	for (size_t i = 0; i < n && i < 64; i++)
		len += strlen(eevdf_feature_name(i)) + 4;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0, at = 0; i < n && i < 64; i++) {
		u64 bit = (u64)1 << i;

		if (!((on | off) & bit))
			continue;
		at += (size_t)snprintf(s + at, len - at, "%s%s%s",
				       at ? "," : "", off & bit ? "NO_" : "",
				       eevdf_feature_name(i));
	}
	return s;
}

/* A feature list: "A,NO_B", or ["A", "NO_B"]. */
static int value_features(struct sw_parser *p, const cJSON *it,
			  const char *label, struct sweep_value *v)
{
	char err[1024], list[1024] = "", *text;
	size_t n = 0;

	if (cJSON_IsString(it)) {
		snprintf(list, sizeof(list), "%s", it->valuestring);
	} else if (cJSON_IsArray(it)) {
		const cJSON *f;

		cJSON_ArrayForEach(f, it)
		{
			if (!cJSON_IsString(f))
				return eevdf__sw_fail(p, "must be feature "
							 "names");
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", n ? "," : "",
					      f->valuestring);
			if (n >= sizeof(list))
				return eevdf__sw_fail(p, "too long a list");
		}
	} else {
		return eevdf__sw_fail(p, "must be a feature list: "
					 "\"NO_DELAY_DEQUEUE,RUN_TO_PARITY\" "
					 "or [\"NO_DELAY_DEQUEUE\"]");
	}
	if (eevdf_features_parse(list, &v->feat_on, &v->feat_off, err,
				 sizeof(err)) < 0)
		return eevdf__sw_fail(p, "%s", err);
	text = features_text(v->feat_on, v->feat_off);
	return set_strings(p, v,
			   eevdf__wl_strdup(label   ? label :
					    list[0] ? list :
						      "default"),
			   text, text ? json_string(text) : NULL);
}

static bool is_file(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (f)
		fclose(f);
	return f != NULL;
}

/*
 * A machine: a file (a path with a '/' or ending in .json, relative to
 * the spec, or a file of that name beside the spec) whose bytes are part
 * of the configuration, or the name of a shipped machine for the front
 * end to find.
 */
static int value_machine(struct sw_parser *p, const cJSON *it,
			 struct sweep_value *v)
{
	const char *s;
	size_t n;
	char *path;

	if (!cJSON_IsString(it) || !it->valuestring[0])
		return eevdf__sw_fail(p, "must be a machine file or the name "
					 "of a shipped machine");
	s = it->valuestring;
	n = strlen(s);
	path = eevdf__sw_join(p->sw->base_dir, s);
	if (!path)
		return eevdf__sw_nomem(p);
	if (strchr(s, '/') || (n > 5 && strcmp(s + n - 5, ".json") == 0) ||
	    is_file(path)) {
		struct eevdf_diag d;
		char *buf = NULL;
		size_t len = 0;

		eevdf__wl_diag_init(&d, path);
		if (eevdf__wl_read_file(path, &buf, &len, &d) < 0) {
			int r = eevdf__sw_fail(p, "%s: %s", path, d.msg);

			free(path);
			return r;
		}
		eevdf_sha256_hex(buf, len, v->sha256);
		free(buf);
	} else {
		free(path);
		path = eevdf__wl_strdup(s);
	}
	return set_strings(p, v, eevdf__wl_strdup(s), path, json_string(s));
}

static int value_number(struct sw_parser *p, const cJSON *it, s64 lo, s64 hi,
			const char *what, struct sweep_value *v)
{
	int r = get_int(p, it, lo, hi, what, &v->num);

	if (r)
		return r;
	return set_strings(p, v, fmt_s64(v->num, ""), fmt_s64(v->num, ""),
			   fmt_s64(v->num, ""));
}

static int value_duration(struct sw_parser *p, const cJSON *it,
			  struct sweep_value *v)
{
	char *label;

	if (cJSON_IsString(it)) {
		const char *t = it->valuestring;

		/* as run's --duration: "10" meant 10 ns and ran for nothing */
		if (*t && strspn(t, "0123456789") == strlen(t))
			return eevdf__sw_fail(
				p,
				"invalid duration '%s': it has no "
				"unit (%sns, %sus, %sms or %ss)",
				t, t, t, t, t);
		if (eevdf_parse_duration(it->valuestring, WL_MAX_DURATION,
					 &v->num) < 0)
			return eevdf__sw_fail(p,
					      "invalid duration '%s': a number "
					      "with a unit ns|us|ms|s, at most "
					      "%s",
					      it->valuestring,
					      WL_MAX_DURATION_TEXT);
		label = eevdf__wl_strdup(it->valuestring);
	} else {
		int r = get_int(p, it, 1, WL_MAX_DURATION,
				"a duration (ns, or a string with a unit)",
				&v->num);

		if (r)
			return r;
		label = fmt_s64(v->num, "ns");
	}
	if (v->num <= 0) {
		free(label);
		return eevdf__sw_fail(p, "a duration must be positive");
	}
	return set_strings(p, v, label, fmt_s64(v->num, "ns"),
			   fmt_s64(v->num, ""));
}

/*
 * Would the loader read text as something other than that string (a
 * number, true, a JSON string)?  Then the override quotes it.
 */
static bool needs_quotes(const char *text)
{
	cJSON *j = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, NULL, 1);
	bool q = j && (cJSON_IsNumber(j) || cJSON_IsBool(j) ||
		       cJSON_IsNull(j) || cJSON_IsString(j));

	cJSON_Delete(j);
	return q;
}

/* A param's value: an integer, a string, true, false or null. */
static int value_param(struct sw_parser *p, const char *name, const cJSON *it,
		       struct sweep_value *v)
{
	char *label, *quoted = NULL, *text;
	const char *shown;
	size_t n;

	if (cJSON_IsNumber(it)) {
		int r = get_int(p, it, -(s64)WL_MAX_INT, (s64)WL_MAX_INT,
				"an integer (params are integers, strings or "
				"durations)",
				&v->num);

		if (r)
			return r;
		label = fmt_s64(v->num, "");
	} else if (cJSON_IsString(it)) {
		label = eevdf__wl_strdup(it->valuestring);
	} else if (cJSON_IsBool(it)) {
		label = eevdf__wl_strdup(cJSON_IsTrue(it) ? "true" : "false");
	} else if (cJSON_IsNull(it)) {
		label = eevdf__wl_strdup("null");
	} else {
		return eevdf__sw_fail(p, "must be an integer, a string, true, "
					 "false or null");
	}
	if (!label)
		return eevdf__sw_nomem(p);
	shown = label;
	if (cJSON_IsString(it) && needs_quotes(label)) {
		quoted = json_string(label);
		if (!quoted) {
			free(label);
			return eevdf__sw_nomem(p);
		}
		shown = quoted;
	}
	n = strlen(name) + strlen(shown) + 2;
	text = malloc(n);
	if (text)
		snprintf(text, n, "%s=%s", name, shown);
	free(quoted);
	return set_strings(p, v, label, text, json_text(it));
}

static int value_bool(struct sw_parser *p, const cJSON *it,
		      struct sweep_value *v)
{
	if (!cJSON_IsBool(it))
		return eevdf__sw_fail(p, "must be true or false");
	v->num = cJSON_IsTrue(it);
	return set_strings(p, v, eevdf__wl_strdup(v->num ? "true" : "false"),
			   eevdf__wl_strdup(v->num ? "true" : "false"),
			   eevdf__wl_strdup(v->num ? "true" : "false"));
}

/* One value of setting s from it; label: a named set's name. */
static int parse_one(struct sw_parser *p, const struct sweep_setting *s,
		     const cJSON *it, const char *label, struct sweep_value *v)
{
	switch (s->key) {
	case SK_KERNEL:
		return value_kernel(p, it, v);
	case SK_FEATURES:
		return value_features(p, it, label, v);
	case SK_MACHINE:
		return value_machine(p, it, v);
	case SK_CPUS:
		return value_number(p, it, 1, EEVDF_MAX_CPUS, "a CPU count", v);
	case SK_HZ:
		return value_number(p, it, EEVDF_HZ_MIN, EEVDF_HZ_MAX,
				    "a tick rate", v);
	case SK_DURATION:
		return value_duration(p, it, v);
	case SK_SEED:
		return value_number(p, it, 0, WL_MAX_INT, "a seed", v);
	case SK_PARAM:
		return value_param(p, s->name + 6, it, v);
	case SK_ALLOW_ABSENT:
		return value_bool(p, it, v);
	case SK_WORKLOAD:
		break;
	}
	return eevdf__sw_fail(p, "not a setting here");
}

static int same_label(const struct sweep_value *x, const struct sweep_value *y)
{
	return strcmp(x->label, y->label);
}

/* what a value runs: its canonical text, then a file's digest */
static int same_config(const struct sweep_value *x, const struct sweep_value *y)
{
	int c = strcmp(x->canon, y->canon);

	return c ? c : strcmp(x->sha256, y->sha256);
}

/* Sorted by a key, then by place in the axis (one array: address order
 * is index order), so that equal keys sit side by side, earliest first. */
static int by_label(const void *a, const void *b)
{
	const struct sweep_value *x = *(const struct sweep_value *const *)a;
	const struct sweep_value *y = *(const struct sweep_value *const *)b;
	int c = same_label(x, y);

	return c ? c : (x > y) - (x < y);
}

static int by_config(const void *a, const void *b)
{
	const struct sweep_value *x = *(const struct sweep_value *const *)a;
	const struct sweep_value *y = *(const struct sweep_value *const *)b;
	int c = same_config(x, y);

	return c ? c : (x > y) - (x < y);
}

/*
 * The first value (in the spec's order) whose key equals an earlier
 * one's, and that one, into *dup and *first; false when all differ.
 * Sorting makes it n log n: a range may have 10^5 values.
 */
static bool find_dup(const struct sweep_setting *s, struct sweep_value **tmp,
		     int (*sort)(const void *, const void *),
		     int (*key)(const struct sweep_value *,
				const struct sweep_value *),
		     size_t *first, size_t *dup)
{
	bool found = false;

	for (size_t i = 0; i < s->n; i++)
		tmp[i] = &s->v[i];
	qsort(tmp, s->n, sizeof(*tmp), sort);
	for (size_t i = 1; i < s->n; i++) {
		size_t b = (size_t)(tmp[i] - s->v);

		if (key(tmp[i - 1], tmp[i]) != 0 || (found && b >= *dup))
			continue;
		found = true;
		*first = (size_t)(tmp[i - 1] - s->v);
		*dup = b;
	}
	return found;
}

/* Two values of an axis may not share a label, nor run the same. */
static int check_distinct(struct sw_parser *p, const struct sweep_setting *s)
{
	struct sweep_value **tmp = calloc(s->n ? s->n : 1, sizeof(*tmp));
	size_t a = 0, b = 0;
	int r = 0;

	if (!tmp)
		return eevdf__sw_nomem(p);
	if (find_dup(s, tmp, by_label, same_label, &a, &b))
		r = eevdf__sw_fail(p, "'%s' is listed twice", s->v[b].label);
	else if (find_dup(s, tmp, by_config, same_config, &a, &b))
		r = eevdf__sw_fail(p,
				   "'%s' and '%s' are the same configuration "
				   "(%s)",
				   s->v[a].label, s->v[b].label, s->v[b].canon);
	free(tmp);
	return r;
}

static int alloc_values(struct sw_parser *p, struct sweep_setting *s, size_t n)
{
	if (n > SWEEP_MAX_VALUES)
		return eevdf__sw_fail(p, "more than %d values",
				      SWEEP_MAX_VALUES);
	s->v = calloc(n ? n : 1, sizeof(*s->v));
	return s->v ? 0 : eevdf__sw_nomem(p);
}

/* The value after *x in a range, false past to (never overflowing). */
static bool range_next(s64 *x, s64 to, s64 step, s64 mul)
{
	if (mul) {
		if (*x > to / mul)
			return false;
		*x *= mul;
	} else {
		if (*x > to - step)
			return false;
		*x += step;
	}
	return true;
}

/* {"from": A, "to": B, "step": S} or {"from": A, "to": B, "mul": M}. */
static int parse_range(struct sw_parser *p, const cJSON *obj,
		       struct sweep_setting *s)
{
	const cJSON *it;
	s64 from = 0, to = 0, step = 1, mul = 0, x;
	bool have_from = false, have_to = false, have_step = false;
	size_t n = 0;
	int r;

	cJSON_ArrayForEach(it, obj)
	{
		size_t old = eevdf__sw_path_key(p, it->string);
		s64 *dst = strcmp(it->string, "from") == 0 ? &from :
			   strcmp(it->string, "to") == 0   ? &to :
			   strcmp(it->string, "step") == 0 ? &step :
			   strcmp(it->string, "mul") == 0  ? &mul :
							     NULL;

		if (!dst)
			return eevdf__sw_fail(p, "unknown key in a range: "
						 "from, to, and step or mul");
		r = get_int(p, it, -(s64)WL_MAX_INT, (s64)WL_MAX_INT,
			    "an integer", dst);
		if (r)
			return r;
		have_from |= dst == &from;
		have_to |= dst == &to;
		have_step |= dst == &step;
		eevdf__sw_path_pop(p, old);
	}
	if (!have_from || !have_to || (have_step && mul) || to < from)
		return eevdf__sw_fail(p, "a range is {\"from\": A, \"to\": B} "
					 "with A <= B, and \"step\" (default "
					 "1) or \"mul\"");
	if (mul && (mul < 2 || from < 1))
		return eevdf__sw_fail(p, "a geometric range needs \"mul\" >= 2 "
					 "and \"from\" >= 1");
	if (step <= 0)
		return eevdf__sw_fail(p, "\"step\" must be positive");
	x = from;
	do
		n++;
	while (n <= SWEEP_MAX_VALUES && range_next(&x, to, step, mul));
	if ((r = alloc_values(p, s, n)))
		return r;
	x = from;
	do {
		cJSON *num = cJSON_CreateNumber((double)x);

		if (!num)
			return eevdf__sw_nomem(p);
		r = parse_one(p, s, num, NULL, &s->v[s->n++]);
		cJSON_Delete(num);
		if (r)
			return r;
	} while (range_next(&x, to, step, mul));
	return 0;
}

int eevdf__sw_parse_values(struct sw_parser *p, const cJSON *it, bool fixed,
			   struct sweep_setting *s)
{
	const cJSON *e;
	size_t i = 0;
	int r;

	if (fixed) {
		if ((r = alloc_values(p, s, 1)))
			return r;
		s->n = 1;
		return parse_one(p, s, it, NULL, &s->v[0]);
	}
	if (s->key == SK_SEED && cJSON_IsNumber(it)) {
		/* a count: seeds 1 .. N */
		s64 n = 0;
		cJSON *rng;

		if ((r = get_int(p, it, 1, SWEEP_MAX_VALUES,
				 "a count of seeds (1 .. N), a list or a range",
				 &n)))
			return r;
		rng = cJSON_CreateObject();
		if (!rng || !cJSON_AddNumberToObject(rng, "from", 1) ||
		    !cJSON_AddNumberToObject(rng, "to", (double)n)) {
			cJSON_Delete(rng);
			return eevdf__sw_nomem(p);
		}
		r = parse_range(p, rng, s);
		cJSON_Delete(rng);
		return r;
	}
	if (cJSON_IsObject(it) && s->key == SK_FEATURES) {
		if ((r = alloc_values(p, s, (size_t)cJSON_GetArraySize(it))))
			return r;
		cJSON_ArrayForEach(e, it)
		{
			size_t old = eevdf__sw_path_key(p, e->string);

			if (!e->string[0])
				return eevdf__sw_fail(p,
						      "a feature set needs a "
						      "name");
			if ((r = parse_one(p, s, e, e->string, &s->v[s->n++])))
				return r;
			eevdf__sw_path_pop(p, old);
		}
		return check_distinct(p, s);
	}
	if (cJSON_IsObject(it) && (s->key == SK_CPUS || s->key == SK_HZ ||
				   s->key == SK_SEED || s->key == SK_PARAM)) {
		if ((r = parse_range(p, it, s)))
			return r;
		return check_distinct(p, s);
	}
	if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) < 1)
		return eevdf__sw_fail(
			p, "an axis is a non-empty list of values%s",
			s->key == SK_FEATURES ? ", or an object of named "
						"feature lists" :
			s->key == SK_SEED     ? ", a count or a range" :
			s->key == SK_CPUS || s->key == SK_HZ ||
					s->key == SK_PARAM ?
					    ", or a range {\"from\", "
					    "\"to\", \"step\" or \"mul\"}" :
					    "");
	if ((r = alloc_values(p, s, (size_t)cJSON_GetArraySize(it))))
		return r;
	cJSON_ArrayForEach(e, it)
	{
		size_t old = eevdf__sw_path_index(p, i++);

		if ((r = parse_one(p, s, e, NULL, &s->v[s->n++])))
			return r;
		eevdf__sw_path_pop(p, old);
	}
	return check_distinct(p, s);
}

int eevdf__sw_merge_features(struct sw_parser *p, struct sweep_setting *axis,
			     const struct sweep_setting *fixed)
{
	size_t old = eevdf__sw_path_key(p, "axes");
	int r;

	if (!fixed)
		return 0;
	eevdf__sw_path_key(p, "features");
	for (size_t i = 0; i < axis->n; i++) {
		struct sweep_value *v = &axis->v[i];
		u64 on = (fixed->v[0].feat_on & ~v->feat_off) | v->feat_on;
		u64 off = (fixed->v[0].feat_off & ~v->feat_on) | v->feat_off;

		free(v->text);
		free(v->canon);
		v->canon = NULL;
		v->text = features_text(on, off);
		if (v->text)
			v->canon = json_string(v->text);
		if (!v->canon)
			return eevdf__sw_nomem(p);
	}
	if ((r = check_distinct(p, axis)))
		return r;
	eevdf__sw_path_pop(p, old);
	return 0;
}

char *eevdf__sw_stem(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = eevdf__wl_strdup(b ? b + 1 : path);
	size_t n = s ? strlen(s) : 0;

	if (s && n > 5 && strcmp(s + n - 5, ".json") == 0)
		s[n - 5] = '\0';
	return s;
}

static int one_workload(struct sw_parser *p, const cJSON *it, const char *label,
			struct sweep_value *v)
{
	if (!cJSON_IsString(it) || !it->valuestring[0])
		return eevdf__sw_fail(p, "must be the path of a workload file "
					 "(relative to the spec)");
	return set_strings(p, v,
			   label ? eevdf__wl_strdup(label) :
				   eevdf__sw_stem(it->valuestring),
			   eevdf__sw_join(p->sw->base_dir, it->valuestring),
			   json_string(it->valuestring));
}

int eevdf__sw_parse_workloads(struct sw_parser *p, const cJSON *it,
			      struct sweep_setting *s)
{
	const cJSON *e;
	size_t i = 0;
	int r;

	if (cJSON_IsString(it)) {
		if ((r = alloc_values(p, s, 1)))
			return r;
		s->n = 1;
		return one_workload(p, it, NULL, &s->v[0]);
	}
	if ((!cJSON_IsArray(it) && !cJSON_IsObject(it)) ||
	    cJSON_GetArraySize(it) < 1)
		return eevdf__sw_fail(p, "must be a workload file, a "
					 "non-empty list of them, or an "
					 "object of named ones");
	if ((r = alloc_values(p, s, (size_t)cJSON_GetArraySize(it))))
		return r;
	cJSON_ArrayForEach(e, it)
	{
		size_t old = cJSON_IsObject(it) ?
				     eevdf__sw_path_key(p, e->string) :
				     eevdf__sw_path_index(p, i);

		i++;
		if ((r = one_workload(p, e,
				      cJSON_IsObject(it) ? e->string : NULL,
				      &s->v[s->n++])))
			return r;
		eevdf__sw_path_pop(p, old);
	}
	/* the same file twice is caught by its label, or by its path */
	return check_distinct(p, s);
}
