/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: load-time values ("${...}" and params), and the
 * instantiation of definitions by "for" (a cross product of half-open
 * ranges) or "count".
 */
#include <string.h>

#include "lib/utf8.h"
#include "workload_impl.h"

#include "wl_short.h"

/* Names a param or a for variable may not take: expressions own them. */
static const char *const reserved[] = {
	"ncpus", "nllc", "now",	   "stop",   "OK",	  "TIMEOUT",
	"EINTR", "EOF",	 "ENOENT", "EEXIST", "ENOTEMPTY", "EBADF",
};

static bool is_reserved(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(reserved); i++)
		if (strlen(reserved[i]) == len &&
		    memcmp(reserved[i], s, len) == 0)
			return true;
	return false;
}

static bool same(const char *a, const char *b, size_t blen)
{
	return strlen(a) == blen && memcmp(a, b, blen) == 0;
}

static const struct wl_param *find_param(const struct eevdf_workload *wl,
					 const char *name, size_t len)
{
	for (size_t i = 0; i < wl->nr_params; i++)
		if (same(wl->params[i].name, name, len))
			return &wl->params[i];
	return NULL;
}

static int find_fv(const struct wl_parser *p, const char *name, size_t len)
{
	for (u32 i = p->nr_fv; i-- > 0;)
		if (same(p->fv[i].name, name, len))
			return (int)i;
	return -1;
}

/* Values -------------------------------------------------------------- */

/* Names quoted in resolver messages are cut to this. */
#define QLEN(len) ((int)((len) > 40 ? 40 : (len)))

/*
 * What "${...}" sees: for variables, params of number type, ncpus and
 * nllc.  Everything else is unknown; p->why says why when we know better
 * than "unknown name".
 */
int eevdf__wl_lt_resolve(void *ud, const char *name, size_t len,
			 struct expr_sym *sym)
{
	struct wl_parser *p = ud;
	const struct wl_param *pa;
	int i;

	if (p->literal) {
		snprintf(p->why, sizeof(p->why),
			 "a machine's values are "
			 "literal: '%.*s' is not known here",
			 QLEN(len), name);
		return -1;
	}
	i = find_fv(p, name, len);
	if (i >= 0) {
		p->used_for |= 1u << i;
		sym->kind = EXPR_SYM_CONST;
		sym->value = p->fv[i].v;
		return 0;
	}
	pa = find_param(p->wl, name, len);
	if (pa) {
		if (pa->v.kind == WV_INT) {
			sym->kind = EXPR_SYM_CONST;
			sym->value = pa->v.i;
			return 0;
		}
		snprintf(p->why, sizeof(p->why),
			 "param '%.*s' is %s, not a "
			 "number",
			 QLEN(len), name,
			 pa->v.kind == WV_NULL ? "null" : "a string");
		return -1;
	}
	if (same("ncpus", name, len) || same("nllc", name, len)) {
		sym->kind = EXPR_SYM_CONST;
		sym->value = name[1] == 'c' ? p->ncpus : p->nllc;
		return 0;
	}
	if (name[0] == '@' && p->in_dist)
		snprintf(p->why, sizeof(p->why),
			 "'%.*s' is only known at run "
			 "time: distribution parameters that change at run "
			 "time are not supported by this version yet",
			 QLEN(len), name);
	else if (name[0] == '@')
		snprintf(p->why, sizeof(p->why),
			 "'%.*s' is only known at run "
			 "time; \"${...}\" sees params, for variables, ncpus "
			 "and nllc",
			 QLEN(len), name);
	return -1;
}

/* One "${...}" at s + at; *end receives the offset past its '}'. */
static int expand_piece(struct wl_parser *p, const char *s, size_t at,
			size_t *end, struct wl_value *v)
{
	const char *body = s + at + 2, *close = strchr(body, '}');
	const char *b, *e;
	const struct wl_param *pa;
	struct expr *x;
	char err[160], sb[WL_SHOWN_MAX];
	s64 val;
	int r;

	if (!close)
		return fail(p, "unterminated '${' in '%s'", SHOWN(sb, s));
	*end = (size_t)(close - s) + 1;
	for (b = body; b < close && *b == ' '; b++)
		;
	for (e = close; e > b && e[-1] == ' '; e--)
		;
	/* a string or null param stands for itself */
	if (eevdf__wl_is_ident(b, (size_t)(e - b)) &&
	    find_fv(p, b, (size_t)(e - b)) < 0 &&
	    (pa = find_param(p->wl, b, (size_t)(e - b))) &&
	    pa->v.kind != WV_INT) {
		v->kind = pa->v.kind;
		if (pa->v.kind == WV_STR && !(v->s = eevdf__wl_strdup(pa->v.s)))
			return nomem(p);
		return 0;
	}
	p->why[0] = '\0';
	r = eevdf__expr_compile(body, (size_t)(close - body),
				eevdf__wl_lt_resolve, p, &x, err, sizeof(err));
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r)
		return eevdf__wl_fail_compile(p, "invalid \"${...}\" in", s,
					      at + 2, err);
	/* the resolver only gives constants, so this folded */
	if (!eevdf__expr_is_const(x, &val)) {
		eevdf__expr_free(x);
		return fail(p, "\"${...}\" in '%s' is not constant",
			    SHOWN(sb, s));
	}
	eevdf__expr_free(x);
	v->kind = WV_INT;
	v->i = val;
	return 0;
}

/* Append n bytes to a growing string. */
static int sb_add(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = 2 * *cap + n + 16;
		char *nb = realloc(*buf, c);

		if (!nb)
			return EEVDF_ENOMEM;
		*buf = nb;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/*
 * Expand the "${...}" of s.  A string that is exactly one "${...}" stands
 * for its typed value (a number, or a string or null param); otherwise
 * each is replaced by its text, and the result is a string.
 */
int eevdf__wl_expand(struct wl_parser *p, const char *s, struct wl_value *out,
		     enum wl_form *form)
{
	const char *close;
	char *buf = NULL, num[24], sb[WL_SHOWN_MAX];
	size_t len = 0, cap = 0, i = 0, end = 0;
	enum wl_form f;
	int r;

	memset(out, 0, sizeof(*out));
	if (p->literal && strstr(s, "${"))
		return fail(p, "a machine's values are literal: no \"${...}\" "
			       "(the machine decides ${ncpus} and ${nllc})");
	if (!strstr(s, "${")) {
		f = WL_PLAIN;
		out->kind = WV_STR;
		out->s = eevdf__wl_strdup(s);
		if (!out->s)
			return nomem(p);
	} else if (s[0] == '$' && (close = strchr(s + 2, '}')) &&
		   close[1] == '\0') {
		f = WL_WHOLE;
		r = expand_piece(p, s, 0, &end, out);
		if (r)
			return r;
	} else {
		f = WL_MIXED;
		if (sb_add(&buf, &len, &cap, "", 0))
			return nomem(p);
		while (s[i]) {
			struct wl_value v;

			if (s[i] != '$' || s[i + 1] != '{') {
				if (sb_add(&buf, &len, &cap, s + i, 1))
					goto oom;
				i++;
				continue;
			}
			memset(&v, 0, sizeof(v));
			r = expand_piece(p, s, i, &end, &v);
			if (r) {
				free(buf);
				return r;
			}
			i = end;
			if (v.kind == WV_NULL) {
				free(buf);
				return fail(p,
					    "'%s': a null \"${...}\" cannot "
					    "be part of a string",
					    SHOWN(sb, s));
			}
			if (v.kind == WV_INT)
				snprintf(num, sizeof(num), "%lld",
					 (long long)v.i);
			r = sb_add(&buf, &len, &cap,
				   v.kind == WV_INT ? num : v.s,
				   strlen(v.kind == WV_INT ? num : v.s));
			eevdf__wl_value_free(&v);
			if (r)
				goto oom;
		}
		out->kind = WV_STR;
		out->s = buf;
	}
	if (form)
		*form = f;
	return 0;
oom:
	free(buf);
	return nomem(p);
}

/* A load-time value of any type: params, for ranges. */
int eevdf__wl_ld_value(struct wl_parser *p, const cJSON *it,
		       struct wl_value *out)
{
	double d;

	memset(out, 0, sizeof(*out));
	if (cJSON_IsNull(it))
		return 0;
	if (cJSON_IsBool(it)) {
		out->kind = WV_INT;
		out->i = cJSON_IsTrue(it);
		return 0;
	}
	if (cJSON_IsNumber(it)) {
		d = it->valuedouble;
		if (!(d >= -WL_MAX_JSON_INT && d <= WL_MAX_JSON_INT) ||
		    d != (double)(s64)d)
			return fail(p, "must be an integer (values are "
				       "integers, at most 2^53 in JSON)");
		out->kind = WV_INT;
		out->i = (s64)d;
		return 0;
	}
	if (cJSON_IsString(it) && it->valuestring)
		return eevdf__wl_expand(p, it->valuestring, out, NULL);
	return fail(p, "must be a number, a string or null");
}

/* Compile text as a load-time expression; *out its value. */
static int ld_expr(struct wl_parser *p, const char *what, const char *text,
		   s64 *out)
{
	struct expr *x;
	char err[160];
	int r;

	p->why[0] = '\0';
	r = eevdf__expr_compile(text, strlen(text), eevdf__wl_lt_resolve, p, &x,
				err, sizeof(err));
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r)
		return eevdf__wl_fail_compile(p, what, text, 0, err);
	if (!eevdf__expr_is_const(x, out)) {
		eevdf__expr_free(x);
		return fail(p, "%s: not a constant", what);
	}
	eevdf__expr_free(x);
	return 0;
}

/*
 * An integer in [lo, hi]: a JSON number, or a string with "${...}" (a
 * plain string is refused: "nice": "5" is more likely a mistake than a
 * number).
 */
int eevdf__wl_ld_int(struct wl_parser *p, const cJSON *it, s64 lo, s64 hi,
		     s64 *out)
{
	struct wl_value v;
	enum wl_form f;
	char sb[WL_SHOWN_MAX];
	s64 x = 0;
	int r;

	if (cJSON_IsNumber(it))
		return eevdf__wl_get_int(p, it, lo, hi, out);
	if (!cJSON_IsString(it) || !it->valuestring ||
	    !strstr(it->valuestring, "${"))
		return fail(p, "must be an integer");
	r = eevdf__wl_expand(p, it->valuestring, &v, &f);
	if (r)
		return r;
	if (f == WL_MIXED)
		r = ld_expr(p, "invalid integer", v.s, &x);
	else if (v.kind == WV_INT)
		x = v.i;
	else if (v.kind == WV_NULL)
		r = fail(p, "must not be null");
	else
		r = fail(p, "must be an integer, not the string '%s'",
			 SHOWN(sb, v.s));
	eevdf__wl_value_free(&v);
	if (r)
		return r;
	if (x < lo || x > hi)
		return fail(p, "must be between %lld and %lld", (long long)lo,
			    (long long)hi);
	*out = x;
	return 0;
}

/*
 * A number or duration known at load time: a JSON integer, or a string
 * holding an integer, a duration ("8ms"), "${...}" or an expression of
 * params ("${a} + 1ms").  Negative values are allowed; null is not.
 */
static int ld_num(struct wl_parser *p, const cJSON *it, const char *what,
		  bool nullable, s64 *out, bool *is_null)
{
	struct wl_value v;
	enum wl_form f;
	s64 x = 0;
	int r;

	if (is_null)
		*is_null = false;
	if (cJSON_IsNull(it)) {
		if (!nullable)
			return fail(p, "must not be null");
		*is_null = true;
		*out = 0;
		return 0;
	}
	if (cJSON_IsNumber(it)) {
		double d = it->valuedouble;

		if (!(d >= -WL_MAX_JSON_INT && d <= WL_MAX_JSON_INT) ||
		    d != (double)(s64)d)
			return fail(p, "must be an integer number of ns or a "
				       "string with a unit");
		*out = (s64)d;
		return 0;
	}
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be an integer number of ns or a string "
			       "with a unit");
	r = eevdf__wl_expand(p, it->valuestring, &v, &f);
	if (r)
		return r;
	if (v.kind == WV_INT) {
		x = v.i;
	} else if (v.kind == WV_NULL) {
		if (nullable) {
			*is_null = true;
			x = 0;
		} else {
			r = fail(p, "must not be null");
		}
	} else if (eevdf_parse_duration(v.s, INT64_MAX, &x) != 0) {
		r = ld_expr(p, what, v.s, &x);
	}
	eevdf__wl_value_free(&v);
	if (!r)
		*out = x;
	return r;
}

int eevdf__wl_ld_number(struct wl_parser *p, const cJSON *it, s64 *out)
{
	return ld_num(p, it, "invalid value", false, out, NULL);
}

/* A duration in [0, WL_MAX_DURATION]; null allowed when nullable. */
int eevdf__wl_ld_duration(struct wl_parser *p, const cJSON *it, bool nullable,
			  eevdf_time *out, bool *is_null)
{
	bool n = false;
	s64 x = 0; /* null leaves it: a null duration reads as 0 */
	int r = ld_num(p, it, "invalid duration", nullable, &x, &n);

	if (r)
		return r;
	if (is_null)
		*is_null = n;
	if (x < 0)
		return fail(p, "must not be negative");
	if (x > WL_MAX_DURATION)
		return fail(p, "must be at most " WL_MAX_DURATION_TEXT);
	*out = x;
	return 0;
}

/* A string, "${...}" expanded. */
int eevdf__wl_ld_string(struct wl_parser *p, const cJSON *it, char **out)
{
	struct wl_value v;
	char num[24];
	int r;

	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be a string");
	r = eevdf__wl_expand(p, it->valuestring, &v, NULL);
	if (r)
		return r;
	if (v.kind == WV_NULL)
		return fail(p, "must not be null");
	if (v.kind == WV_INT) {
		snprintf(num, sizeof(num), "%lld", (long long)v.i);
		v.s = eevdf__wl_strdup(num);
		if (!v.s)
			return nomem(p);
	}
	*out = v.s;
	return 0;
}

/* Choices ------------------------------------------------------------- */

/* A load-time value for comparison: a string that reads as a duration is
 * its ns, as a param's is. */
static int cmp_value(struct wl_parser *p, const cJSON *it, struct wl_value *v)
{
	s64 d;
	int r = eevdf__wl_ld_value(p, it, v);

	if (!r && v->kind == WV_STR &&
	    eevdf_parse_duration(v->s, INT64_MAX, &d) == 0) {
		eevdf__wl_value_free(v);
		v->kind = WV_INT;
		v->i = d;
	}
	return r;
}

static bool same_value(const struct wl_value *a, const struct wl_value *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == WV_INT)
		return a->i == b->i;
	if (a->kind == WV_STR)
		return strcmp(a->s, b->s) == 0;
	return true;
}

/* Whether "if" holds: V equals "is", or, without "is", V is not 0. */
static int choice_holds(struct wl_parser *p, const cJSON *c, bool *holds)
{
	const cJSON *cond = get(c, "if"), *is = get(c, "is");
	struct wl_value a, b;
	size_t old = path_key(p, "if");
	int r;

	if (is) {
		r = cmp_value(p, cond, &a);
		path_pop(p, old);
		if (r)
			return r;
		old = path_key(p, "is");
		r = cmp_value(p, is, &b);
		path_pop(p, old);
		if (!r)
			*holds = same_value(&a, &b);
		eevdf__wl_value_free(&a);
		eevdf__wl_value_free(&b);
		return r;
	}
	r = eevdf__wl_ld_value(p, cond, &a);
	if (!r && a.kind != WV_INT)
		r = fail(p, "must be an integer or a boolean (or give 'is' to "
			    "compare it with a value)");
	if (!r)
		*holds = a.i != 0;
	eevdf__wl_value_free(&a);
	path_pop(p, old);
	return r;
}

bool eevdf__wl_is_choice(const cJSON *it)
{
	return cJSON_IsObject(it) && get(it, "if");
}

int eevdf__wl_choose(struct wl_parser *p, const cJSON *it, const cJSON **out,
		     size_t *old)
{
	static const char *const keys[] = { "if", "is", "then", "else" };
	int depth = 0, r;
	bool holds = false;

	*old = p->plen;
	*out = it;
	while (eevdf__wl_is_choice(it)) {
		if (++depth > WL_MAX_DEPTH)
			return fail(p, "choices nested more than %d deep",
				    WL_MAX_DEPTH);
		if ((r = eevdf__wl_check_keys(p, it, keys, ARRAY_SIZE(keys),
					      NULL, 0)))
			return r;
		if (!get(it, "then") || !get(it, "else"))
			return fail(p,
				    "missing key '%s' (a choice has both "
				    "'then' and 'else')",
				    get(it, "then") ? "else" : "then");
		if ((r = choice_holds(p, it, &holds)))
			return r;
		path_key(p, holds ? "then" : "else");
		it = get(it, holds ? "then" : "else");
		*out = it;
	}
	return 0;
}

/* Params -------------------------------------------------------------- */

static bool has_key(const cJSON *obj, const char *k, size_t len)
{
	for (const cJSON *it = obj ? obj->child : NULL; it; it = it->next)
		if (it->string && same(it->string, k, len))
			return true;
	return false;
}

/* The value of an override "NAME=VALUE" (VALUE as the file would say). */
static int override_value(struct wl_parser *p, const char *arg,
			  struct wl_value *v)
{
	const char *text = strchr(arg, '=') + 1, *end = NULL;
	char sb[WL_SHOWN_MAX];
	size_t bad = 0;
	cJSON *j;
	int r = 0;

	memset(v, 0, sizeof(*v));
	/* a command line may hold any byte; a value is text, as a file is */
	if (!eevdf__utf8_valid(text, strlen(text), &bad))
		return fail(p, "--param %s: the value is not UTF-8 (byte %zu)",
			    SHOWN(sb, arg), bad);
	if (strstr(text, "\\u0000"))
		return fail(p,
			    "--param %s: a NUL character (\\u0000) would "
			    "cut the value short",
			    SHOWN(sb, arg));
	/* the length counts the NUL: cJSON then checks nothing follows */
	j = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, &end, 1);
	/* a failed parse of JSON text was for want of memory, not text */
	if (!j && eevdf__wl_json_valid(text, strlen(text), true))
		return nomem(p);
	if (j && cJSON_IsNumber(j)) {
		double d = j->valuedouble;

		if (!(d >= -WL_MAX_JSON_INT && d <= WL_MAX_JSON_INT) ||
		    d != (double)(s64)d) {
			r = fail(p, "--param %s: the value must be an integer",
				 SHOWN(sb, arg));
		} else {
			v->kind = WV_INT;
			v->i = (s64)d;
		}
	} else if (j && cJSON_IsNull(j)) {
		v->kind = WV_NULL;
	} else if (j && cJSON_IsBool(j)) {
		v->kind = WV_INT;
		v->i = cJSON_IsTrue(j);
	} else if (j && cJSON_IsString(j) && j->valuestring) {
		r = eevdf__wl_expand(p, j->valuestring, v, NULL);
	} else {
		r = eevdf__wl_expand(p, text, v, NULL);
	}
	cJSON_Delete(j);
	return r;
}

/* The last --param for name wins, as later options do on a command line. */
static const char *find_override(const struct wl_parser *p, const char *name)
{
	const char *hit = NULL;

	for (size_t k = 0; p->opts && k < p->opts->nr_params; k++) {
		const char *a = p->opts->params[k];
		const char *eq = strchr(a, '=');

		if (same(name, a, (size_t)(eq - a)))
			hit = a;
	}
	return hit;
}

/*
 * --duration of a workload whose length is param name: the param takes
 * it, so that runtime, warmup and report follow.  An explicit --param of
 * that name (ov) must agree.
 */
static int set_duration_param(struct wl_parser *p, const char *name,
			      const char *ov, struct wl_value *v)
{
	eevdf_time d = p->opts->duration;

	if (ov && !(v->kind == WV_INT && v->i == d)) {
		eevdf__wl_value_free(v);
		return fail(p,
			    "--duration %lld ns and --param %s disagree: "
			    "the workload's length is its param '%s'; give "
			    "one of them",
			    (long long)d, ov, name);
	}
	eevdf__wl_value_free(v);
	v->kind = WV_INT;
	v->i = d;
	v->s = NULL;
	return 0;
}

static int check_overrides(struct wl_parser *p, const cJSON *params)
{
	char sb[WL_SHOWN_MAX];

	for (size_t k = 0; p->opts && k < p->opts->nr_params; k++) {
		const char *a = p->opts->params[k];
		const char *eq = a ? strchr(a, '=') : NULL;

		if (!eq || eq == a)
			return fail(p, "--param '%s': expected NAME=VALUE",
				    a ? SHOWN(sb, a) : "(null)");
		if (!has_key(params, a, (size_t)(eq - a)))
			return fail(p,
				    "--param %.*s: the workload has no "
				    "param '%.*s'",
				    QLEN(eq - a), a, QLEN(eq - a), a);
	}
	return 0;
}

/* A param's value as the file gives it: a value or a choice of values. */
static int param_value(struct wl_parser *p, const cJSON *it, struct wl_value *v)
{
	const cJSON *c = NULL;
	size_t old;
	int r = eevdf__wl_choose(p, it, &c, &old);

	memset(v, 0, sizeof(*v));
	if (!r)
		r = eevdf__wl_ld_value(p, c, v);
	path_pop(p, old);
	return r;
}

/*
 * "params": name -> value, evaluated in file order (a param may use the
 * ones before it), each replaced first by its --param override if any.
 * A string that reads as a duration is a duration, i.e. a number of ns.
 */
int eevdf__wl_parse_params(struct wl_parser *p, const cJSON *params)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it;
	size_t n = 0, old;
	int r;

	if (params && !cJSON_IsObject(params))
		return fail(p, "must be an object of name: value");
	r = check_overrides(p, params);
	if (r || !params)
		return r;
	for (it = params->child; it; it = it->next)
		n++;
	wl->params = calloc(n ? n : 1, sizeof(*wl->params));
	if (!wl->params)
		return nomem(p);
	for (it = params->child; it; it = it->next) {
		const char *name = it->string ? it->string : "";
		const char *ov = find_override(p, name);
		struct wl_value v;
		s64 d;

		old = path_key(p, name);
		if (!eevdf__wl_is_ident(name, strlen(name)))
			r = fail(p,
				 "a param name must be an identifier of "
				 "at most %d characters (letters, digits, "
				 "_)",
				 WL_IDENT_MAX);
		else if (is_reserved(name, strlen(name)))
			r = fail(p, "'%s' is a built-in name", name);
		else if (find_param(wl, name, strlen(name)))
			r = fail(p, "duplicate param '%s'", name);
		else if (ov)
			r = override_value(p, ov, &v);
		else
			r = param_value(p, it, &v);
		path_pop(p, old);
		if (r)
			return r;
		if (v.kind == WV_STR &&
		    eevdf_parse_duration(v.s, INT64_MAX, &d) == 0) {
			eevdf__wl_value_free(&v);
			v.kind = WV_INT;
			v.i = d;
		}
		if (p->opts && p->opts->duration > 0 &&
		    strcmp(name, p->dur_param) == 0 &&
		    (r = set_duration_param(p, name, ov, &v)))
			return r;
		wl->params[wl->nr_params].name = eevdf__wl_strdup(name);
		wl->params[wl->nr_params].v = v;
		if (!wl->params[wl->nr_params++].name)
			return nomem(p);
	}
	return 0;
}

/* Instantiation -------------------------------------------------------- */

struct inst {
	const cJSON *def;
	const char *what; /* "task", "object" */
	eevdf__wl_inst_fn fn;
	void *ud;
	bool multi; /* more than one instance: name it in messages */
};

static int inst_leaf(struct wl_parser *p, const struct inst *in, s64 idx)
{
	char *name = NULL;
	size_t old = path_key(p, "name");
	int r = eevdf__wl_ld_string(p, get(in->def, "name"), &name);

	if (!r && idx >= 0) {
		size_t n = strlen(name) + 24;
		char *s = malloc(n);

		if (!s) {
			r = nomem(p);
		} else {
			snprintf(s, n, "%s[%lld]", name, (long long)idx);
			free(name);
			name = s;
		}
	}
	if (!r)
		r = eevdf__wl_check_name(p, name, in->what);
	path_pop(p, old);
	if (!r) {
		if (in->multi)
			eevdf__wl_set_str(p->inst, sizeof(p->inst), name);
		r = in->fn(p, in->ud, name);
		p->inst[0] = '\0';
	}
	free(name);
	return r;
}

/* The for variables from var on, for the values of those before it. */
static int for_level(struct wl_parser *p, const struct inst *in,
		     const cJSON *var)
{
	const cJSON *a, *b;
	size_t old, old2, k;
	s64 lo = 0, hi = 0;
	int r;

	if (!var)
		return inst_leaf(p, in, -1);
	old = path_key(p, "for");
	old2 = path_key(p, var->string);
	a = cJSON_IsArray(var) ? var->child : NULL;
	b = a ? a->next : NULL;
	if (!a || !b || b->next) {
		r = fail(p, "must be [FROM, TO]: a half-open range of "
			    "integers");
	} else {
		k = path_index(p, 0);
		r = eevdf__wl_ld_int(p, a, -WL_MAX_INT, WL_MAX_INT, &lo);
		path_pop(p, k);
		k = path_index(p, 1);
		if (!r)
			r = eevdf__wl_ld_int(p, b, -WL_MAX_INT, WL_MAX_INT,
					     &hi);
		path_pop(p, k);
		if (!r && hi < lo)
			r = fail(p, "the range [%lld, %lld) runs backwards",
				 (long long)lo, (long long)hi);
	}
	path_pop(p, old2);
	path_pop(p, old);
	if (r)
		return r;
	k = p->nr_fv++;
	eevdf__wl_set_str(p->fv[k].name, sizeof(p->fv[k].name), var->string);
	for (s64 v = lo; v < hi && !r; v++) {
		p->fv[k].v = v;
		r = for_level(p, in, var->next);
	}
	p->nr_fv--;
	return r;
}

/* The "for" object's keys, checked once before any range is evaluated. */
static int check_for(struct wl_parser *p, const cJSON *f)
{
	const cJSON *it, *jt;
	size_t old = path_key(p, "for"), n = 0;
	int r = 0;

	if (!cJSON_IsObject(f) || !f->child)
		r = fail(p, "must be an object of variable: [FROM, TO]");
	for (it = f->child; !r && it; it = it->next, n++) {
		const char *k = it->string ? it->string : "";

		if (n == WL_MAX_FOR_VARS)
			r = fail(p, "at most %d for variables",
				 WL_MAX_FOR_VARS);
		else if (!eevdf__wl_is_ident(k, strlen(k)))
			r = fail(p,
				 "'%s' is not a valid variable name (an "
				 "identifier, without '@')",
				 k);
		else if (is_reserved(k, strlen(k)) ||
			 find_param(p->wl, k, strlen(k)))
			r = fail(p, "for variable '%s' would hide %s", k,
				 is_reserved(k, strlen(k)) ? "a built-in name" :
							     "a param");
		for (jt = f->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate key '%s'", k);
	}
	path_pop(p, old);
	return r;
}

/*
 * Call fn for every instance of def: the cross product of its "for"
 * ranges (the first key outermost), "count" instances NAME[i], or one.
 */
int eevdf__wl_instances(struct wl_parser *p, const cJSON *def, const char *what,
			eevdf__wl_inst_fn fn, void *ud)
{
	const cJSON *f = get(def, "for"), *c = get(def, "count");
	struct inst in = { def, what, fn, ud, false };
	size_t old;
	s64 n = 1;
	int r;

	if (!get(def, "name"))
		return fail(p, "missing key 'name'");
	if (f && c)
		return fail(p, "use either 'for' or 'count', not both");
	if (f) {
		r = check_for(p, f);
		if (r)
			return r;
		in.multi = true;
		return for_level(p, &in, f->child);
	}
	if (c) {
		old = path_key(p, "count");
		r = eevdf__wl_ld_int(p, c, 1, WL_MAX_COUNT, &n);
		path_pop(p, old);
		if (r)
			return r;
	}
	if (n == 1)
		return inst_leaf(p, &in, -1);
	in.multi = true;
	for (s64 i = 0; i < n; i++) {
		r = inst_leaf(p, &in, i);
		if (r)
			return r;
	}
	return 0;
}

/* A choice among names: *out is the index; absent keeps *out. */
int eevdf__wl_get_enum(struct wl_parser *p, const cJSON *obj, const char *key,
		       const char *const *names, size_t n, int *out)
{
	const cJSON *it = get(obj, key);
	char list[160] = "", sb[WL_SHOWN_MAX];
	char *s = NULL;
	size_t old, len = 0, i;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_string(p, it, &s);
	for (i = 0; !r && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			break;
	if (!r && i < n) {
		*out = (int)i;
	} else if (!r) {
		for (i = 0; i < n && len < sizeof(list); i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s",
						!i	   ? "" :
						i + 1 == n ? " or " :
							     ", ",
						names[i]);
		r = fail(p, "unknown %s '%s' (expected %s)", key, SHOWN(sb, s),
			 list);
	}
	free(s);
	path_pop(p, old);
	return r;
}
