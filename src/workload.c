/* SPDX-License-Identifier: MIT */
/* Workload files: JSON to validated task specs, with diagnostics by path. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include <cJSON.h>

#include "internal.h"

#if defined(__GNUC__)
#define WL_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define WL_PRINTF(fmt, args)
#endif

#define WL_FORMAT "eevdf-sim-workload/1"
/* A workload is a few KiB; a bigger file is almost surely the wrong one. */
#define WL_MAX_FILE ((size_t)64 << 20)
/* 10^15 ns = 11.6 days: far beyond any run, far below int64 overflow. */
#define WL_MAX_DURATION ((eevdf_time)1000000000000000)
#define WL_MAX_DURATION_TEXT "1000000000000000 ns (1000000s)"
/* Integers above 2^53 are not exact in cJSON's double. */
#define WL_MAX_JSON_INT 9007199254740992.0
#define WL_NAME_LEN 40
/* An instance name is NAME[i] with i < WL_MAX_COUNT: 7 more bytes + NUL. */
#define WL_INST_EXTRA 8
#define WL_MAX_COUNT 100000
#define WL_MAX_DEPTH 16
#define WL_MAX_OPS 65536
#define WL_MAX_LOOP_COUNT ((int64_t)1 << 32)
/* sched_setattr() accepts sched_runtime in [100us, 100ms] for SCHED_OTHER. */
#define WL_SLICE_MIN (100 * EEVDF_NSEC_PER_USEC)
#define WL_SLICE_MAX (100 * EEVDF_NSEC_PER_MSEC)

_Static_assert(WL_NAME_LEN + WL_INST_EXTRA <= EEVDF_NAME_MAX,
	       "instance names must fit EEVDF_NAME_MAX");
_Static_assert(WL_MAX_COUNT <= 100000, "WL_INST_EXTRA fits [99999] only");

/* One task object of the file.  Its instances share program and cpus. */
struct wl_source {
	char name[WL_NAME_LEN + 1];
	size_t count;
	char *inst_names; /* count > 1: count names, inst_stride bytes apart */
	size_t inst_stride;
	int nice;
	enum eevdf_policy policy;
	eevdf_time slice;
	eevdf_time start;
	int *cpus;
	size_t nr_cpus;
	struct eevdf_op *ops;
	size_t nr_ops;
};

/* One task after count expansion. */
struct wl_task {
	struct eevdf_task_spec spec;
	size_t src; /* index of its task object in the file */
};

struct eevdf_workload {
	char file[sizeof(((struct eevdf_diag *)NULL)->file)];
	char *name;
	char *description;
	eevdf_time duration;
	bool has_seed;
	uint64_t seed;
	struct wl_source *srcs;
	size_t nr_srcs;
	struct wl_task *tasks;
	size_t nr_tasks;
};

/* Parsing state: where we are in the document and the program being built. */
struct wl_parser {
	struct eevdf_diag *diag;
	char path[sizeof(((struct eevdf_diag *)NULL)->path)];
	size_t plen;
	struct eevdf_op *ops; /* scratch, reused for every task */
	size_t nr_ops;
	size_t cap_ops;
};

/*
 * Known keys and ops.  The *_later lists are those of the full format
 * (DESIGN.md section 4) that this version does not implement yet: they get
 * their own message so that nobody hunts for a typo that is not there.
 */
static const char *const top_keys[] = {
	"format", "name", "description", "duration", "seed", "tasks",
};
static const char *const top_later[] = {
	"params", "warmup", "machine", "objects", "metrics", "report",
	"costs", "stop", "include", "macros", "templates", "kernel",
};
static const char *const task_keys[] = {
	"name", "count", "nice", "slice", "policy", "cpus", "start", "program",
};
static const char *const task_later[] = {
	"kind", "cgroup", "vars", "on_signal", "for", "timer_slack",
};
static const char *const loop_keys[] = { "count", "body" };
static const char *const op_later[] = {
	"spin", "sleep_until", "timer_wait", "send", "recv", "post", "wait",
	"set", "wake", "block", "wake_and_block", "lock", "unlock", "barrier",
	"push", "wake_list", "signal", "spawn", "exit", "join", "choose",
	"if", "let", "call", "setattr", "record", "count", "mark",
};

static char *copy_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* Copy s into dst (size n), truncating; dst is always terminated. */
static void set_str(char *dst, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * A user-supplied string made safe to embed in a message: control bytes
 * become '?' (they would garble a terminal) and long strings are cut with
 * "...".  Returns buf.
 */
static const char *shown(char *buf, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	buf[i] = '\0';
	if (s[i] && n >= 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

#define SHOWN_MAX 48

static int find_key(const char *const *keys, size_t n, const char *k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(keys[i], k) == 0)
			return (int)i;
	return -1;
}

/* Path handling: push returns the old length, to be handed to path_pop. */
static size_t path_advance(struct wl_parser *p, size_t old, int n)
{
	if (n > 0) {
		p->plen = old + (size_t)n;
		if (p->plen >= sizeof(p->path))
			p->plen = sizeof(p->path) - 1; /* truncated */
	}
	return old;
}

static size_t path_key(struct wl_parser *p, const char *key)
{
	size_t old = p->plen;

	return path_advance(p, old,
			    snprintf(p->path + old, sizeof(p->path) - old,
				     old ? ".%s" : "%s", key));
}

static size_t path_index(struct wl_parser *p, size_t i)
{
	size_t old = p->plen;

	return path_advance(p, old,
			    snprintf(p->path + old, sizeof(p->path) - old,
				     "[%zu]", i));
}

static void path_pop(struct wl_parser *p, size_t old)
{
	p->plen = old;
	p->path[old] = '\0';
}

static int fail(struct wl_parser *p, const char *fmt, ...) WL_PRINTF(2, 3);

/* Record the first error at the current path; returns EEVDF_EPARSE. */
static int fail(struct wl_parser *p, const char *fmt, ...)
{
	va_list ap;

	set_str(p->diag->path, sizeof(p->diag->path), p->path);
	va_start(ap, fmt);
	vsnprintf(p->diag->msg, sizeof(p->diag->msg), fmt, ap);
	va_end(ap);
	return EEVDF_EPARSE;
}

static int fail_nomem(struct wl_parser *p)
{
	fail(p, "out of memory");
	return EEVDF_ENOMEM;
}

/*
 * Check every key of obj: duplicates, keys of later versions and unknown
 * keys are errors.  Keys are checked before any value so that a typo is
 * reported as such rather than as a missing key.  At most 32 known keys.
 */
static int check_keys(struct wl_parser *p, const cJSON *obj,
		      const char *const *known, size_t nr_known,
		      const char *const *later, size_t nr_later)
{
	char kb[SHOWN_MAX];
	uint32_t seen = 0;
	const cJSON *it;

	EEVDF_ASSERT(nr_known <= 32);
	for (it = obj->child; it; it = it->next) {
		const char *k = it->string ? it->string : "";
		int i = find_key(known, nr_known, k);

		if (i >= 0) {
			if (seen & ((uint32_t)1 << i))
				return fail(p, "duplicate key '%s'", k);
			seen |= (uint32_t)1 << i;
		} else if (find_key(later, nr_later, k) >= 0) {
			return fail(p, "'%s' is not supported by this "
				       "version yet", k);
		} else {
			return fail(p, "unknown key '%s'",
				    shown(kb, sizeof(kb), k));
		}
	}
	return 0;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/*
 * An integer in [lo, hi] from a JSON number.  cJSON keeps numbers as
 * doubles; bounds within +-2^53 make the integral test exact.
 */
static int get_int(struct wl_parser *p, const cJSON *it, int64_t lo,
		   int64_t hi, int64_t *out)
{
	double d;

	if (!cJSON_IsNumber(it))
		return fail(p, "must be an integer");
	d = it->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi))
		return fail(p, "must be between %lld and %lld", (long long)lo,
			    (long long)hi);
	if (d != (double)(int64_t)d)
		return fail(p, "must be an integer");
	*out = (int64_t)d;
	return 0;
}

/* A duration: integer ns as a JSON number, or a string with a unit. */
static int get_duration(struct wl_parser *p, const cJSON *it,
			eevdf_time *out)
{
	char sb[SHOWN_MAX];
	eevdf_time tmp;
	const char *s;
	int r;

	if (cJSON_IsNumber(it)) {
		double d = it->valuedouble;

		if (d < 0)
			return fail(p, "must not be negative");
		if (!(d <= (double)WL_MAX_DURATION))
			return fail(p, "must be at most " WL_MAX_DURATION_TEXT);
		if (d != (double)(int64_t)d)
			return fail(p, "must be an integer number of ns or a "
				       "string with a unit");
		*out = (eevdf_time)d;
		return 0;
	}
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be an integer number of ns or a string "
			       "with a unit");
	s = it->valuestring;
	r = eevdf_parse_duration(s, WL_MAX_DURATION, out);
	if (r == 0)
		return 0;
	/* "-5ms" is a clear value with the wrong sign: say so. */
	if (s[0] == '-' &&
	    eevdf_parse_duration(s + 1, INT64_MAX, &tmp) != EEVDF_EINVAL)
		return fail(p, "must not be negative");
	if (r == EEVDF_ERANGE)
		return fail(p, "'%s' is above the maximum duration of "
			       WL_MAX_DURATION_TEXT, shown(sb, sizeof(sb), s));
	return fail(p, "invalid duration '%s' (expected integer ns, or a "
		       "number with unit ns, us, ms or s that makes whole ns)",
		    shown(sb, sizeof(sb), s));
}

/*
 * The seed: a JSON number up to 2^53 (above that a double has already
 * lost digits), or a string of decimal digits for the full 64-bit range.
 */
static int get_seed(struct wl_parser *p, const cJSON *it, uint64_t *out)
{
	const char *s;
	uint64_t v = 0;
	size_t i;

	if (cJSON_IsNumber(it)) {
		double d = it->valuedouble;

		if (d >= 0 && d <= WL_MAX_JSON_INT &&
		    d == (double)(int64_t)d) {
			*out = (uint64_t)d;
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
	for (i = 0; s[i]; i++) {
		uint64_t dg = (uint64_t)(s[i] - '0');

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

/* Optional string member; *out is a fresh copy, or untouched if absent. */
static int get_opt_string(struct wl_parser *p, const cJSON *obj,
			  const char *key, char **out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r = 0;

	if (!it)
		return 0;
	old = path_key(p, key);
	if (!cJSON_IsString(it) || !it->valuestring) {
		r = fail(p, "must be a string");
	} else {
		*out = copy_str(it->valuestring);
		if (!*out)
			r = fail_nomem(p);
	}
	path_pop(p, old);
	return r;
}

static int ops_push(struct wl_parser *p, enum eevdf_op_kind kind,
		    eevdf_time duration)
{
	struct eevdf_op *op;

	if (p->nr_ops >= WL_MAX_OPS)
		return fail(p, "a program may have at most %d ops, loop bodies "
			       "included", WL_MAX_OPS);
	if (p->nr_ops == p->cap_ops) {
		size_t cap = p->cap_ops ? 2 * p->cap_ops : 16;
		struct eevdf_op *n = realloc(p->ops, cap * sizeof(*n));

		if (!n)
			return fail_nomem(p);
		p->ops = n;
		p->cap_ops = cap;
	}
	op = &p->ops[p->nr_ops++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->duration = duration;
	return 0;
}

static int parse_ops(struct wl_parser *p, const cJSON *arr, int depth,
		     bool *advances);

/*
 * {"loop": {"count": N, "body": [...]}}, its LOOP op already pushed at
 * index at.  The op is followed by its flattened body; body_len is only
 * known once the body is parsed, so the op is addressed by index (the
 * array may move while the body grows).
 */
static int parse_loop(struct wl_parser *p, const cJSON *v, int depth,
		      size_t at, bool *advances)
{
	const cJSON *count, *body;
	int64_t n = 0;
	size_t old;
	bool body_adv = false;
	int r;

	if (!cJSON_IsObject(v))
		return fail(p, "must be an object with \"body\" and an "
			       "optional \"count\"");
	if (depth >= WL_MAX_DEPTH)
		return fail(p, "loops may nest at most %d deep", WL_MAX_DEPTH);
	r = check_keys(p, v, loop_keys, ARRAY_SIZE(loop_keys), NULL, 0);
	if (r)
		return r;
	count = get(v, "count");
	if (count) {
		old = path_key(p, "count");
		r = get_int(p, count, 1, WL_MAX_LOOP_COUNT, &n);
		path_pop(p, old);
		if (r)
			return r;
	}
	body = get(v, "body");
	if (!body)
		return fail(p, "missing key 'body'");
	old = path_key(p, "body");
	if (!cJSON_IsArray(body))
		r = fail(p, "must be an array of ops");
	else if (!body->child)
		r = fail(p, "must not be empty");
	else
		r = parse_ops(p, body, depth + 1, &body_adv);
	path_pop(p, old);
	if (r)
		return r;
	p->ops[at].count = (uint64_t)n;
	p->ops[at].body_len = (uint32_t)(p->nr_ops - at - 1);
	/*
	 * A forever loop that never consumes time would spin the event
	 * loop at one instant.  A counted loop runs its body at least once,
	 * so it advances time exactly when its body does.
	 */
	if (n == 0 && !body_adv)
		return fail(p, "a loop without count must contain a run or "
			       "sleep of non-zero duration (it would never "
			       "advance time)");
	*advances = body_adv;
	return 0;
}

static int parse_op(struct wl_parser *p, const cJSON *op, int depth,
		    bool *advances)
{
	enum eevdf_op_kind kind;
	char kb[SHOWN_MAX];
	const cJSON *v;
	const char *k;
	eevdf_time d = 0;
	size_t old, at;
	int r;

	*advances = false;
	if (!cJSON_IsObject(op) || !op->child || op->child->next)
		return fail(p, "an op must be an object with exactly one key");
	v = op->child;
	k = v->string ? v->string : "";
	if (strcmp(k, "run") == 0) {
		kind = EEVDF_OP_RUN;
	} else if (strcmp(k, "sleep") == 0) {
		kind = EEVDF_OP_SLEEP;
	} else if (strcmp(k, "yield") == 0) {
		kind = EEVDF_OP_YIELD;
	} else if (strcmp(k, "loop") == 0) {
		kind = EEVDF_OP_LOOP;
	} else if (find_key(op_later, ARRAY_SIZE(op_later), k) >= 0) {
		return fail(p, "op '%s' is not supported by this version yet",
			    k);
	} else {
		return fail(p, "unknown op '%s'", shown(kb, sizeof(kb), k));
	}

	if (kind == EEVDF_OP_LOOP) {
		at = p->nr_ops;
		r = ops_push(p, kind, 0);
		if (r)
			return r;
		old = path_key(p, k);
		r = parse_loop(p, v, depth, at, advances);
		path_pop(p, old);
		return r;
	}

	old = path_key(p, k);
	if (kind != EEVDF_OP_YIELD)
		r = get_duration(p, v, &d);
	else if (cJSON_IsTrue(v) || (cJSON_IsObject(v) && !v->child))
		r = 0; /* {} leaves room for options; true is shorthand */
	else
		r = fail(p, "must be {} or true");
	path_pop(p, old);
	if (r)
		return r;
	*advances = d > 0;
	return ops_push(p, kind, d);
}

static int parse_ops(struct wl_parser *p, const cJSON *arr, int depth,
		     bool *advances)
{
	const cJSON *it;
	size_t i = 0, old;
	bool adv;
	int r;

	for (it = arr->child; it; it = it->next, i++) {
		old = path_index(p, i);
		r = parse_op(p, it, depth, &adv);
		path_pop(p, old);
		if (r)
			return r;
		if (adv)
			*advances = true;
	}
	return 0;
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

static int parse_task_name(struct wl_parser *p, const cJSON *it,
			   struct wl_source *src)
{
	const char *s;
	size_t i, len;

	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be a string");
	s = it->valuestring;
	len = strlen(s);
	if (len < 1 || len > WL_NAME_LEN)
		return fail(p, "must be 1 to %d characters long", WL_NAME_LEN);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (name_char_ok(s[i]))
			continue;
		if (c >= 0x20 && c < 0x7f)
			return fail(p, "invalid character '%c' (a name may "
				       "use A-Z a-z 0-9 _ . : -)", s[i]);
		return fail(p, "invalid byte 0x%02x (a name may use A-Z a-z "
			       "0-9 _ . : -)", c);
	}
	memcpy(src->name, s, len + 1);
	return 0;
}

static int parse_policy(struct wl_parser *p, const cJSON *it,
			enum eevdf_policy *out)
{
	char sb[SHOWN_MAX];

	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be one of \"normal\", \"batch\", "
			       "\"idle\"");
	if (strcmp(it->valuestring, "normal") == 0)
		*out = EEVDF_POLICY_NORMAL;
	else if (strcmp(it->valuestring, "batch") == 0)
		*out = EEVDF_POLICY_BATCH;
	else if (strcmp(it->valuestring, "idle") == 0)
		*out = EEVDF_POLICY_IDLE;
	else
		return fail(p, "unknown policy '%s' (expected normal, batch or "
			       "idle)", shown(sb, sizeof(sb), it->valuestring));
	return 0;
}

static int parse_cpus(struct wl_parser *p, const cJSON *arr,
		      struct wl_source *src)
{
	unsigned char seen[EEVDF_MAX_CPUS / 8] = { 0 };
	const cJSON *it;
	size_t n = 0, old;
	int64_t cpu;
	int r;

	if (!cJSON_IsArray(arr))
		return fail(p, "must be an array of CPU numbers");
	if (!arr->child)
		return fail(p, "must not be empty (omit it to allow every "
			       "CPU)");
	for (it = arr->child; it; it = it->next, n++) {
		old = path_index(p, n);
		r = get_int(p, it, 0, EEVDF_MAX_CPUS - 1, &cpu);
		if (!r && (seen[cpu / 8] & (1u << (cpu % 8))))
			r = fail(p, "duplicate CPU %d", (int)cpu);
		path_pop(p, old);
		if (r)
			return r;
		seen[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
	}
	/* Distinct and in range, so n <= EEVDF_MAX_CPUS. */
	src->cpus = malloc(n * sizeof(*src->cpus));
	if (!src->cpus)
		return fail_nomem(p);
	for (n = 0, it = arr->child; it; it = it->next)
		src->cpus[n++] = (int)it->valuedouble;
	src->nr_cpus = n;
	return 0;
}

/* The members of a task object other than name and program. */
static int parse_task_attrs(struct wl_parser *p, const cJSON *obj,
			    struct wl_source *src)
{
	const cJSON *it;
	int64_t v;
	size_t old;
	int r = 0;

	it = get(obj, "count");
	if (it) {
		old = path_key(p, "count");
		r = get_int(p, it, 1, WL_MAX_COUNT, &v);
		path_pop(p, old);
		if (r)
			return r;
		src->count = (size_t)v;
	}
	it = get(obj, "nice");
	if (it) {
		old = path_key(p, "nice");
		r = get_int(p, it, -20, 19, &v);
		path_pop(p, old);
		if (r)
			return r;
		src->nice = (int)v;
	}
	it = get(obj, "slice");
	if (it) {
		old = path_key(p, "slice");
		r = get_duration(p, it, &src->slice);
		if (!r && (src->slice < WL_SLICE_MIN ||
			   src->slice > WL_SLICE_MAX))
			r = fail(p, "must be between 100us and 100ms (the "
				    "kernel's sched_runtime range); omit it "
				    "for the default slice");
		path_pop(p, old);
		if (r)
			return r;
	}
	it = get(obj, "policy");
	if (it) {
		old = path_key(p, "policy");
		r = parse_policy(p, it, &src->policy);
		path_pop(p, old);
		if (r)
			return r;
	}
	it = get(obj, "cpus");
	if (it) {
		old = path_key(p, "cpus");
		r = parse_cpus(p, it, src);
		path_pop(p, old);
		if (r)
			return r;
	}
	it = get(obj, "start");
	if (it) {
		old = path_key(p, "start");
		r = get_duration(p, it, &src->start);
		path_pop(p, old);
	}
	return r;
}

static int parse_task(struct wl_parser *p, const cJSON *obj,
		      struct wl_source *src)
{
	const cJSON *it;
	bool adv = false;
	size_t old;
	int r;

	if (!cJSON_IsObject(obj))
		return fail(p, "a task must be an object");
	r = check_keys(p, obj, task_keys, ARRAY_SIZE(task_keys), task_later,
		       ARRAY_SIZE(task_later));
	if (r)
		return r;

	it = get(obj, "name");
	if (!it)
		return fail(p, "missing key 'name'");
	old = path_key(p, "name");
	r = parse_task_name(p, it, src);
	path_pop(p, old);
	if (r)
		return r;

	src->count = 1;
	src->policy = EEVDF_POLICY_NORMAL;
	r = parse_task_attrs(p, obj, src);
	if (r)
		return r;

	it = get(obj, "program");
	if (!it)
		return fail(p, "missing key 'program'");
	old = path_key(p, "program");
	p->nr_ops = 0;
	if (!cJSON_IsArray(it))
		r = fail(p, "must be an array of ops");
	else if (!it->child)
		r = fail(p, "must not be empty");
	else
		r = parse_ops(p, it, 0, &adv);
	path_pop(p, old);
	if (r)
		return r;

	src->ops = malloc(p->nr_ops * sizeof(*src->ops));
	if (!src->ops)
		return fail_nomem(p);
	memcpy(src->ops, p->ops, p->nr_ops * sizeof(*src->ops));
	src->nr_ops = p->nr_ops;
	return 0;
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * Expanded names must be unique.  An open-addressing set over the names in
 * task order finds the first task that repeats an earlier name; the table
 * is only probed, never iterated, so the answer does not depend on it.
 */
static int check_unique_names(struct wl_parser *p, struct eevdf_workload *wl)
{
	size_t cap = 16, i, mask, h;
	size_t *slot; /* task index + 1, 0 = empty */

	while (cap < 2 * wl->nr_tasks)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return fail_nomem(p);
	mask = cap - 1;
	for (i = 0; i < wl->nr_tasks; i++) {
		const char *name = wl->tasks[i].spec.name;

		for (h = (size_t)name_hash(name) & mask; slot[h];
		     h = (h + 1) & mask) {
			const struct wl_task *o = &wl->tasks[slot[h] - 1];

			if (strcmp(o->spec.name, name) == 0) {
				path_pop(p, 0);
				path_key(p, "tasks");
				path_index(p, wl->tasks[i].src);
				path_key(p, "name");
				free(slot);
				return fail(p, "duplicate task name '%s' (also "
					       "used by tasks[%zu])",
					    name, o->src);
			}
		}
		slot[h] = i + 1;
	}
	free(slot);
	return 0;
}

/* Count expansion: task objects to the flat list of tasks. */
static int expand_tasks(struct wl_parser *p, struct eevdf_workload *wl,
			size_t total)
{
	size_t s, j, k = 0;

	wl->tasks = calloc(total, sizeof(*wl->tasks));
	if (!wl->tasks)
		return fail_nomem(p);
	for (s = 0; s < wl->nr_srcs; s++) {
		struct wl_source *src = &wl->srcs[s];

		if (src->count > 1) {
			src->inst_stride = strlen(src->name) + WL_INST_EXTRA;
			src->inst_names = malloc(src->count * src->inst_stride);
			if (!src->inst_names)
				return fail_nomem(p);
		}
		for (j = 0; j < src->count; j++, k++) {
			struct wl_task *t = &wl->tasks[k];

			if (src->count > 1) {
				char *n = src->inst_names +
					  j * src->inst_stride;

				snprintf(n, src->inst_stride, "%s[%zu]",
					 src->name, j);
				t->spec.name = n;
			} else {
				t->spec.name = src->name;
			}
			t->spec.nice = src->nice;
			t->spec.policy = src->policy;
			t->spec.slice = src->slice;
			t->spec.cpus = src->cpus;
			t->spec.nr_cpus = src->nr_cpus;
			t->spec.start = src->start;
			t->spec.program = src->ops;
			t->spec.nr_ops = src->nr_ops;
			t->src = s;
		}
	}
	wl->nr_tasks = total;
	return check_unique_names(p, wl);
}

static int parse_tasks(struct wl_parser *p, const cJSON *arr,
		       struct eevdf_workload *wl)
{
	const cJSON *it;
	size_t n = 0, total = 0, old;
	int r;

	if (!cJSON_IsArray(arr))
		return fail(p, "must be an array of task objects");
	if (!arr->child)
		return fail(p, "must not be empty");
	for (it = arr->child; it; it = it->next)
		n++;
	if (n > EEVDF_MAX_TASKS)
		return fail(p, "a workload may have at most %d tasks",
			    EEVDF_MAX_TASKS);
	wl->srcs = calloc(n, sizeof(*wl->srcs));
	if (!wl->srcs)
		return fail_nomem(p);
	wl->nr_srcs = n;

	for (n = 0, it = arr->child; it; it = it->next, n++) {
		old = path_index(p, n);
		r = parse_task(p, it, &wl->srcs[n]);
		total += wl->srcs[n].count;
		if (!r && total > EEVDF_MAX_TASKS) {
			path_key(p, "count");
			r = fail(p, "the workload has more than %d tasks after "
				    "count expansion", EEVDF_MAX_TASKS);
		}
		path_pop(p, old);
		if (r)
			return r;
	}
	return expand_tasks(p, wl, total);
}

static int parse_top(struct wl_parser *p, const cJSON *root,
		     struct eevdf_workload *wl)
{
	char sb[SHOWN_MAX];
	const cJSON *it;
	size_t old;
	int r;

	if (!cJSON_IsObject(root))
		return fail(p, "the top level must be an object");

	/* The format first: a file of another format fails on that alone. */
	it = get(root, "format");
	if (!it)
		return fail(p, "missing key 'format' (expected \"" WL_FORMAT
			       "\")");
	old = path_key(p, "format");
	if (!cJSON_IsString(it) || !it->valuestring)
		r = fail(p, "must be the string \"" WL_FORMAT "\"");
	else if (strcmp(it->valuestring, WL_FORMAT) != 0)
		r = fail(p, "unsupported format '%s' (this version reads "
			    "'%s')", shown(sb, sizeof(sb), it->valuestring),
			 WL_FORMAT);
	else
		r = 0;
	path_pop(p, old);
	if (r)
		return r;

	r = check_keys(p, root, top_keys, ARRAY_SIZE(top_keys), top_later,
		       ARRAY_SIZE(top_later));
	if (!r)
		r = get_opt_string(p, root, "name", &wl->name);
	if (!r)
		r = get_opt_string(p, root, "description", &wl->description);
	if (r)
		return r;

	it = get(root, "duration");
	if (it) {
		old = path_key(p, "duration");
		r = get_duration(p, it, &wl->duration);
		if (!r && wl->duration == 0)
			r = fail(p, "must be greater than 0");
		path_pop(p, old);
		if (r)
			return r;
	}
	it = get(root, "seed");
	if (it) {
		old = path_key(p, "seed");
		r = get_seed(p, it, &wl->seed);
		wl->has_seed = r == 0;
		path_pop(p, old);
		if (r)
			return r;
	}

	it = get(root, "tasks");
	if (!it)
		return fail(p, "missing key 'tasks'");
	old = path_key(p, "tasks");
	r = parse_tasks(p, it, wl);
	path_pop(p, old);
	return r;
}

/* 1-based line of byte pos. */
static int line_of(const char *buf, size_t pos)
{
	int line = 1;
	size_t i;

	for (i = 0; i < pos; i++)
		if (buf[i] == '\n' && line < INT_MAX)
			line++;
	return line;
}

static int syntax_error(struct wl_parser *p, const char *buf, size_t len,
			size_t pos, const char *what)
{
	char near[24];
	size_t i;

	p->diag->path[0] = '\0';
	p->diag->line = line_of(buf, pos);
	/* cJSON reports a truncated document at its last byte. */
	for (i = pos; i < len && (buf[i] == ' ' || buf[i] == '\t' ||
				  buf[i] == '\r' || buf[i] == '\n'); i++)
		;
	if (i == len) {
		snprintf(p->diag->msg, sizeof(p->diag->msg),
			 "%s: unexpected end of file", what);
		return EEVDF_EPARSE;
	}
	for (i = 0; i + 1 < sizeof(near) && pos + i < len; i++) {
		unsigned char c = (unsigned char)buf[pos + i];

		if (c == '\n' || c == '\r')
			break;
		near[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	near[i] = '\0';
	if (i)
		snprintf(p->diag->msg, sizeof(p->diag->msg), "%s near '%s'",
			 what, near);
	else
		snprintf(p->diag->msg, sizeof(p->diag->msg), "%s", what);
	return EEVDF_EPARSE;
}

static void diag_init(struct eevdf_diag *d, const char *filename)
{
	memset(d, 0, sizeof(*d));
	set_str(d->file, sizeof(d->file), filename ? filename : "<memory>");
}

int eevdf_workload_parse(const char *buf, size_t len, const char *filename,
			 eevdf_workload **out, struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	struct eevdf_workload *wl;
	struct wl_parser p;
	const char *end = NULL;
	cJSON *root;
	int r;

	if (!diag)
		diag = &scratch;
	diag_init(diag, filename);
	if (!out || (!buf && len))
		return EEVDF_EINVAL;
	*out = NULL;

	memset(&p, 0, sizeof(p));
	p.diag = diag;
	if (len == 0) {
		diag->line = 1;
		set_str(diag->msg, sizeof(diag->msg), "the file is empty");
		return EEVDF_EPARSE;
	}

	/*
	 * cJSON's own error position is a process-wide variable; the
	 * return_parse_end pointer gives the same position without it.
	 */
	root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!root) {
		size_t pos = end ? (size_t)(end - buf) : 0;

		return syntax_error(&p, buf, len, pos, "JSON syntax error");
	}
	/* Trailing text is silently ignored by cJSON: reject it here. */
	while (end && end < buf + len &&
	       (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
		end++;
	if (end && end < buf + len) {
		cJSON_Delete(root);
		return syntax_error(&p, buf, len, (size_t)(end - buf),
				    "unexpected text after the JSON value");
	}

	wl = calloc(1, sizeof(*wl));
	if (!wl) {
		cJSON_Delete(root);
		return fail_nomem(&p);
	}
	set_str(wl->file, sizeof(wl->file), diag->file);
	r = parse_top(&p, root, wl);
	cJSON_Delete(root);
	free(p.ops);
	if (r) {
		eevdf_workload_free(wl);
		return r;
	}
	*out = wl;
	return 0;
}

int eevdf_workload_load_file(const char *path, eevdf_workload **out,
			     struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f;
	int r, err;

	if (!diag)
		diag = &scratch;
	diag_init(diag, path);
	if (!path || !out)
		return EEVDF_EINVAL;
	*out = NULL;

	f = fopen(path, "rb");
	if (!f) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot read: %s",
			 strerror(errno));
		return EEVDF_EIO;
	}
	/*
	 * Read to EOF rather than trusting a size from fseek/ftell, which
	 * pipes and /dev/stdin do not have.  One byte over the limit is
	 * enough to know the file is too big.
	 */
	for (;;) {
		size_t n;

		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			char *nb;

			if (ncap > WL_MAX_FILE + 1)
				ncap = WL_MAX_FILE + 1;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				set_str(diag->msg, sizeof(diag->msg),
					"out of memory");
				return EEVDF_ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len > WL_MAX_FILE || n == 0)
			break;
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err || len > WL_MAX_FILE) {
		free(buf);
		if (err)
			snprintf(diag->msg, sizeof(diag->msg),
				 "cannot read: %s", strerror(err));
		else
			set_str(diag->msg, sizeof(diag->msg),
				"cannot read: the file is larger than 64 MiB");
		return EEVDF_EIO;
	}
	r = eevdf_workload_parse(buf, len, path, out, diag);
	free(buf);
	return r;
}

void eevdf_workload_free(eevdf_workload *wl)
{
	size_t i;

	if (!wl)
		return;
	for (i = 0; i < wl->nr_srcs; i++) {
		free(wl->srcs[i].inst_names);
		free(wl->srcs[i].cpus);
		free(wl->srcs[i].ops);
	}
	free(wl->srcs);
	free(wl->tasks);
	free(wl->name);
	free(wl->description);
	free(wl);
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

const char *eevdf_workload_name(const eevdf_workload *wl)
{
	return wl && wl->name ? wl->name : "";
}

const char *eevdf_workload_description(const eevdf_workload *wl)
{
	return wl && wl->description ? wl->description : "";
}

eevdf_time eevdf_workload_duration(const eevdf_workload *wl)
{
	return wl ? wl->duration : 0;
}

bool eevdf_workload_seed(const eevdf_workload *wl, uint64_t *seed)
{
	if (!wl || !wl->has_seed)
		return false;
	if (seed)
		*seed = wl->seed;
	return true;
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

int eevdf_workload_add_tasks(const eevdf_workload *wl, eevdf_sim *sim,
			     struct eevdf_diag *diag)
{
	size_t i;
	int r;

	if (!wl || !sim)
		return EEVDF_EINVAL;
	for (i = 0; i < wl->nr_tasks; i++) {
		r = eevdf_sim_add_task(sim, &wl->tasks[i].spec);
		if (r >= 0)
			continue;
		if (diag) {
			diag_init(diag, wl->file);
			snprintf(diag->path, sizeof(diag->path), "tasks[%zu]",
				 wl->tasks[i].src);
			set_str(diag->msg, sizeof(diag->msg),
				eevdf_sim_errmsg(sim));
		}
		return r;
	}
	return 0;
}
