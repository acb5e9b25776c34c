/* SPDX-License-Identifier: MIT */
/*
 * The "calibration" object of a machine file (docs/machine-format.md,
 * "Calibration"): where the machine's costs came from when `eevdf-sim
 * calibrate` measured them.  It changes nothing in a simulation: the
 * costs a run uses are the "costs" object's.  The loader checks it, so
 * that a file never claims a measurement it does not use, and keeps it as
 * compact JSON text (eevdf_machine_calibration()).
 *
 * Each entry of "calibration.costs" must name an entry the machine's
 * "costs" sets, with that value as its median: a hand edit of one without
 * the other is an error rather than a silent mismatch.
 */
#include <math.h>
#include <string.h>

#include "workload_impl.h"

#include "wl_short.h"

static const char *const calib_keys[] = {
	"tool", "date",	      "kernel", "host",	      "quick",
	"hz",	"base_slice", "costs",	"benchmarks",
};
static const char *const hz_keys[] = { "value", "samples", "method" };
static const char *const slice_keys[] = { "value", "method" };
static const char *const cost_keys[] = { "median", "iqr", "samples", "method" };
static const char *const bench_keys[] = { "median", "iqr", "samples", "unit",
					  "method" };

/* Samples of one figure: more than any run takes, and exact in a double. */
#define SAMPLES_MAX ((s64)1 << 31)
/* Longest benchmark name. */
#define BENCH_NAME_MAX 63

/* Optional string member that must not be empty when present. */
static int text_key(struct wl_parser *p, const cJSON *obj, const char *key,
		    bool required)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r = 0;

	if (!it)
		return required ? fail(p, "missing key '%s'", key) : 0;
	old = path_key(p, key);
	if (!cJSON_IsString(it) || !it->valuestring)
		r = fail(p, "must be a string");
	else if (!it->valuestring[0])
		r = fail(p, "must not be empty");
	path_pop(p, old);
	return r;
}

/* Integer member key in [lo, hi] into *out (required). */
static int int_member(struct wl_parser *p, const cJSON *obj, const char *key,
		      s64 lo, s64 hi, s64 *out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r;

	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	r = eevdf__wl_get_int(p, it, lo, hi, out);
	path_pop(p, old);
	return r;
}

/* A finite number >= 0 (a benchmark's median or spread). */
static int number_member(struct wl_parser *p, const cJSON *obj, const char *key)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r = 0;

	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		r = fail(p, "must be a number");
	else if (it->valuedouble < 0)
		r = fail(p, "must not be negative");
	path_pop(p, old);
	return r;
}

/* "hz": {"value", "samples", "method"}; value is the machine's HZ. */
static int parse_hz(struct wl_parser *p, const cJSON *obj, int hz)
{
	s64 v, n;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"value\": HZ, "
			       "\"samples\": N, \"method\": TEXT}");
	if ((r = eevdf__wl_check_keys(p, obj, hz_keys, ARRAY_SIZE(hz_keys),
				      NULL, 0)) ||
	    (r = int_member(p, obj, "value", EEVDF_HZ_MIN, EEVDF_HZ_MAX, &v)) ||
	    (r = int_member(p, obj, "samples", 1, SAMPLES_MAX, &n)) ||
	    (r = text_key(p, obj, "method", true)))
		return r;
	if (v != hz) {
		size_t old = path_key(p, "value");

		r = fail(p,
			 "%lld but the machine's hz is %d: a calibration "
			 "describes the values the machine uses",
			 (long long)v, hz);
		path_pop(p, old);
	}
	return r;
}

static int parse_slice(struct wl_parser *p, const cJSON *obj)
{
	s64 v;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"value\": NS, "
			       "\"method\": TEXT}");
	if ((r = eevdf__wl_check_keys(p, obj, slice_keys,
				      ARRAY_SIZE(slice_keys), NULL, 0)) ||
	    (r = int_member(p, obj, "value", 1, WL_MAX_DURATION, &v)))
		return r;
	return text_key(p, obj, "method", true);
}

/* One entry of "calibration.costs": cost i of the machine's table. */
static int parse_cost(struct wl_parser *p, const cJSON *obj, int i,
		      const struct cost_table *costs, u64 set)
{
	bool pct = eevdf__costs_is_pct(i);
	s64 hi = pct ? 100 : (s64)COST_MAX_NS, median, iqr, n;
	const char *name = eevdf__costs_name(i);
	struct cost_table c = *costs;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"median\": V, \"iqr\": V, "
			       "\"samples\": N, \"method\": TEXT}");
	if ((r = eevdf__wl_check_keys(p, obj, cost_keys, ARRAY_SIZE(cost_keys),
				      NULL, 0)) ||
	    (r = int_member(p, obj, "median", pct ? 1 : 0, hi, &median)) ||
	    (r = int_member(p, obj, "iqr", 0, hi, &iqr)) ||
	    (r = int_member(p, obj, "samples", 1, SAMPLES_MAX, &n)) ||
	    (r = text_key(p, obj, "method", true)))
		return r;
	if (!(set & ((u64)1 << i)))
		return fail(p,
			    "the machine's \"costs\" has no '%s': a calibrated "
			    "entry must be one the machine sets",
			    name);
	if ((u64)median != *eevdf__costs_at(&c, i)) {
		size_t old = path_key(p, "median");

		r = fail(p,
			 "%lld but costs.%s is %llu: a calibration describes "
			 "the values the machine uses",
			 (long long)median, name,
			 (unsigned long long)*eevdf__costs_at(&c, i));
		path_pop(p, old);
	}
	return r;
}

static int parse_costs(struct wl_parser *p, const cJSON *obj,
		       const struct cost_table *costs, u64 set)
{
	const cJSON *it;
	u64 seen = 0;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of cost name: measurement");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		int i = eevdf__costs_index(k);
		size_t old = path_key(p, k);

		if (i < 0)
			r = eevdf__wl_unknown_cost(p, k);
		else if (seen & ((u64)1 << i))
			r = fail(p, "duplicate key '%s'", k);
		else
			r = parse_cost(p, it, i, costs, set);
		if (i >= 0)
			seen |= (u64)1 << i;
		path_pop(p, old);
		if (r && eevdf__wl_collect(p, r))
			r = 0;
	}
	return r;
}

/* A benchmark's name: [a-z0-9_], a letter first. */
static bool bench_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > BENCH_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static int parse_bench(struct wl_parser *p, const cJSON *obj)
{
	s64 n;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"median\": X, \"iqr\": X, "
			       "\"samples\": N, \"unit\": TEXT, \"method\": "
			       "TEXT}");
	if ((r = eevdf__wl_check_keys(p, obj, bench_keys,
				      ARRAY_SIZE(bench_keys), NULL, 0)) ||
	    (r = number_member(p, obj, "median")) ||
	    (r = number_member(p, obj, "iqr")) ||
	    (r = int_member(p, obj, "samples", 1, SAMPLES_MAX, &n)) ||
	    (r = text_key(p, obj, "unit", true)))
		return r;
	return text_key(p, obj, "method", true);
}

static int parse_benchmarks(struct wl_parser *p, const cJSON *obj)
{
	const cJSON *it;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of benchmark name: "
			       "measurement");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		size_t old = path_key(p, k);

		if (!bench_name_ok(k))
			r = fail(p,
				 "a benchmark's name is 1 to %d of a-z, "
				 "0-9 and _, starting with a letter",
				 BENCH_NAME_MAX);
		else
			r = parse_bench(p, it);
		path_pop(p, old);
		if (r && eevdf__wl_collect(p, r))
			r = 0;
	}
	return r;
}

/* Member key of obj through fn(p, member), at its path. */
static int member(struct wl_parser *p, const cJSON *obj, const char *key,
		  int (*fn)(struct wl_parser *, const cJSON *))
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = fn(p, it);
	path_pop(p, old);
	return r;
}

int eevdf__wl_parse_calibration(struct wl_parser *p, const cJSON *obj, int hz,
				const struct cost_table *costs, u64 set,
				char **text)
{
	const cJSON *it;
	bool quick = false;
	char *out;
	size_t old;
	int r;

	*text = NULL;
	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object (written by eevdf-sim "
			       "calibrate: docs/calibration.md)");
	if ((r = eevdf__wl_check_keys(p, obj, calib_keys,
				      ARRAY_SIZE(calib_keys), NULL, 0)) ||
	    (r = text_key(p, obj, "tool", true)) ||
	    (r = text_key(p, obj, "date", false)) ||
	    (r = text_key(p, obj, "kernel", false)) ||
	    (r = text_key(p, obj, "host", false)) ||
	    (r = eevdf__wl_get_bool(p, obj, "quick", &quick)))
		return r;
	if ((it = get(obj, "hz"))) {
		old = path_key(p, "hz");
		r = parse_hz(p, it, hz);
		path_pop(p, old);
	}
	if (!r)
		r = member(p, obj, "base_slice", parse_slice);
	if (!r && (it = get(obj, "costs"))) {
		old = path_key(p, "costs");
		r = parse_costs(p, it, costs, set);
		path_pop(p, old);
	}
	if (!r)
		r = member(p, obj, "benchmarks", parse_benchmarks);
	if (r)
		return r;
	/* cJSON allocates through hooks a program may replace: the
	 * machine frees with free(), so keep a copy made with malloc() */
	if (!(out = cJSON_PrintUnformatted(obj)))
		return nomem(p);
	*text = eevdf__wl_strdup(out);
	cJSON_free(out);
	return *text ? 0 : nomem(p);
}
