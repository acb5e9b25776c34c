/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: the operands of ops.  Values become constants,
 * run-time expressions over task and global variables, or distributions;
 * object references become indices, a task's own semaphore, or a name
 * template resolved while the simulation runs ("ch[2][@j]").
 */
#include <string.h>

#include "engine/dist.h"
#include "engine/sim.h"
#include "sched/deadline.h"
#include "workload_impl.h"

#include "wl_short.h"

static bool same(const char *a, const char *b, size_t blen)
{
	return strlen(a) == blen && memcmp(a, b, blen) == 0;
}

/* The status constants, as program.c stores them. */
static const char *const status_names[] = { "OK",	 "TIMEOUT", "EINTR",
					    "EOF",	 "ENOENT",  "EEXIST",
					    "ENOTEMPTY", "EBADF" };

/*
 * What a run-time expression sees: "@x" (a task-local variable, one slot
 * per name across every program), "@@x" (a global), now, stop, the status
 * constants, and all that "${...}" sees.
 */
int eevdf__wl_rt_resolve(void *ud, const char *name, size_t len,
			 struct expr_sym *sym)
{
	struct wl_parser *p = ud;
	bool global = len > 1 && name[1] == '@';
	u32 id;

	if (name[0] == '@') {
		if (p->in_template && same("@pid", name, len)) {
			snprintf(p->why, sizeof(p->why),
				 "'@pid' is not "
				 "known in a template (spawned tasks start "
				 "with every variable at 0)");
			return -1;
		}
		if (!p->hidden_ok && len >= 3 &&
		    memcmp(name + (global ? 1 : 0), "@__", 3) == 0) {
			snprintf(p->why, sizeof(p->why),
				 "names starting with "
				 "'@__' are reserved");
			return -1;
		}
		if (eevdf__wl_names_add(global ? &p->wl->globals :
						 &p->wl->locals,
					name, len, &id)) {
			snprintf(p->why, sizeof(p->why), "out of memory");
			return -1;
		}
		sym->kind = global ? EXPR_SYM_GLOBAL : EXPR_SYM_LOCAL;
		sym->slot = id;
		return 0;
	}
	if (same("now", name, len)) {
		sym->kind = EXPR_SYM_NOW;
		return 0;
	}
	if (same("stop", name, len)) {
		sym->kind = EXPR_SYM_STOP;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++) {
		if (same(status_names[i], name, len)) {
			sym->kind = EXPR_SYM_CONST;
			sym->value = (s64)i;
			return 0;
		}
	}
	return eevdf__wl_lt_resolve(ud, name, len, sym);
}

void eevdf__wl_pval_free(struct pval *v)
{
	if (v->kind == PV_EXPR)
		eevdf__expr_free(v->expr);
	if (v->kind == PV_DIST && v->dist) {
		eevdf__dist_free(v->dist);
		free(v->dist);
	}
	memset(v, 0, sizeof(*v));
}

/* Compile text (already "${...}"-expanded) to a constant or expression. */
static int compile_rt(struct wl_parser *p, const char *what, const char *text,
		      struct pval *out)
{
	struct expr *x;
	char err[160];
	s64 c;
	int r;

	p->why[0] = '\0';
	r = eevdf__expr_compile(text, strlen(text), eevdf__wl_rt_resolve, p, &x,
				err, sizeof(err));
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r)
		return eevdf__wl_fail_compile(p, what, text, 0, err);
	if (eevdf__expr_is_const(x, &c)) {
		eevdf__expr_free(x);
		out->kind = PV_CONST;
		out->c = c;
		return 0;
	}
	out->kind = PV_EXPR;
	out->expr = x;
	out->slot = 0;
	out->c = 0;
	out->form = (uint8_t)eevdf__expr_form(x, &out->slot, &out->c);
	return 0;
}

int eevdf__wl_compile_text(struct wl_parser *p, const char *text,
			   struct pval *out)
{
	memset(out, 0, sizeof(*out));
	return compile_rt(p, "invalid expression", text, out);
}

/* Distributions ------------------------------------------------------- */

static const char *const dist_names[] = {
	"const",  "uniform",   "uniform_int", "exp",
	"normal", "lognormal", "choice",      "empirical",
};

static const char *const dist_keys[][5] = {
	{ "dist", "value" },
	{ "dist", "min", "max" },
	{ "dist", "min", "max" },
	{ "dist", "mean" },
	{ "dist", "mean", "stddev", "min", "max" },
	{ "dist", "median", "sigma", "max" },
	{ "dist", "values", "weights" },
	{ "dist", "values" },
};

/* An integer parameter (a number, a duration or a "${...}"). */
static int dist_int(struct wl_parser *p, const cJSON *d, const char *key,
		    bool required, s64 *out, bool *has)
{
	const cJSON *it = get(d, key);
	size_t old;
	int r;

	if (has)
		*has = it != NULL;
	if (!it)
		return required ? fail(p, "missing key '%s'", key) : 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_number(p, it, out);
	path_pop(p, old);
	return r;
}

/* A real parameter: any JSON number, or what dist_int() takes. */
static int dist_real_item(struct wl_parser *p, const cJSON *it, double *out)
{
	s64 v;
	int r;

	if (cJSON_IsNumber(it)) {
		*out = it->valuedouble;
		return 0;
	}
	r = eevdf__wl_ld_number(p, it, &v);
	*out = (double)v;
	return r;
}

static int dist_real(struct wl_parser *p, const cJSON *d, const char *key,
		     double *out)
{
	const cJSON *it = get(d, key);
	size_t old;
	int r;

	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	r = dist_real_item(p, it, out);
	path_pop(p, old);
	return r;
}

/* "values" (and "weights" when w is not NULL), of equal lengths. */
static int dist_arrays(struct wl_parser *p, const cJSON *d, s64 **v, double **w,
		       size_t *n)
{
	const cJSON *va = get(d, "values"), *wa = get(d, "weights"), *it;
	size_t i, old, nw = 0;
	int r = 0;

	if (!va)
		return fail(p, "missing key 'values'");
	if (w && !wa)
		return fail(p, "missing key 'weights'");
	old = path_key(p, "values");
	if (!cJSON_IsArray(va) || !va->child)
		r = fail(p, "must be a non-empty array");
	path_pop(p, old);
	if (!r && w) {
		old = path_key(p, "weights");
		if (!cJSON_IsArray(wa) || !wa->child)
			r = fail(p, "must be a non-empty array");
		path_pop(p, old);
	}
	if (r)
		return r;
	*n = (size_t)cJSON_GetArraySize(va);
	if (w)
		nw = (size_t)cJSON_GetArraySize(wa);
	if (w && nw != *n)
		return fail(p, "'values' has %zu entries and 'weights' %zu", *n,
			    nw);
	*v = calloc(*n, sizeof(**v));
	if (w)
		*w = calloc(*n, sizeof(**w));
	if (!*v || (w && !*w))
		return nomem(p);
	old = path_key(p, "values");
	for (i = 0, it = va->child; !r && it; it = it->next, i++) {
		size_t o2 = path_index(p, i);

		r = eevdf__wl_ld_number(p, it, &(*v)[i]);
		path_pop(p, o2);
	}
	path_pop(p, old);
	if (r || !w)
		return r;
	old = path_key(p, "weights");
	for (i = 0, it = wa->child; !r && it; it = it->next, i++) {
		size_t o2 = path_index(p, i);

		r = dist_real_item(p, it, &(*w)[i]);
		path_pop(p, o2);
	}
	path_pop(p, old);
	return r;
}

static int dist_build(struct wl_parser *p, const cJSON *d, int kind,
		      struct eevdf_dist *out)
{
	s64 a = 0, b = 0, *vals = NULL;
	double x = 0, y = 0, *ws = NULL;
	bool ha = false, hb = false;
	char err[160] = "";
	size_t n = 0;
	int r = 0;

	switch (kind) {
	case 0:
		if (!(r = dist_int(p, d, "value", true, &a, NULL)))
			return eevdf__dist_init_const(out, a);
		return r;
	case 1:
	case 2:
		if ((r = dist_int(p, d, "min", true, &a, NULL)) ||
		    (r = dist_int(p, d, "max", true, &b, NULL)))
			return r;
		r = kind == 1 ? eevdf__dist_init_uniform(out, a, b, err,
							 sizeof(err)) :
				eevdf__dist_init_uniform_int(out, a, b, err,
							     sizeof(err));
		break;
	case 3:
		if ((r = dist_real(p, d, "mean", &x)))
			return r;
		r = eevdf__dist_init_exp(out, x, err, sizeof(err));
		break;
	case 4:
		if ((r = dist_real(p, d, "mean", &x)) ||
		    (r = dist_real(p, d, "stddev", &y)) ||
		    (r = dist_int(p, d, "min", false, &a, &ha)) ||
		    (r = dist_int(p, d, "max", false, &b, &hb)))
			return r;
		r = eevdf__dist_init_normal(out, x, y, ha, a, hb, b, err,
					    sizeof(err));
		break;
	case 5:
		if ((r = dist_real(p, d, "median", &x)) ||
		    (r = dist_real(p, d, "sigma", &y)) ||
		    (r = dist_int(p, d, "max", false, &b, &hb)))
			return r;
		r = eevdf__dist_init_lognormal(out, x, y, hb, b, err,
					       sizeof(err));
		break;
	case 6:
	case 7:
		r = dist_arrays(p, d, &vals, kind == 6 ? &ws : NULL, &n);
		if (!r)
			r = kind == 6 ?
				    eevdf__dist_init_choice(out, vals, ws, n,
							    err, sizeof(err)) :
				    eevdf__dist_init_empirical(
					    out, vals, n, err, sizeof(err));
		free(vals);
		free(ws);
		if (r && !err[0])
			return r;
		break;
	}
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r)
		return fail(p, "%s", err[0] ? err : "invalid distribution");
	return 0;
}

/* {"dist": KIND, ...}: parameters are known at load time. */
static int parse_dist(struct wl_parser *p, const cJSON *d,
		      struct eevdf_dist **out)
{
	const cJSON *k = get(d, "dist");
	struct eevdf_dist *dist;
	char sb[WL_SHOWN_MAX];
	size_t old, nk;
	int kind = -1, r;

	old = path_key(p, "dist");
	if (!cJSON_IsString(k) || !k->valuestring) {
		r = fail(p, "must be a string");
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(dist_names); i++)
			if (strcmp(k->valuestring, dist_names[i]) == 0)
				kind = (int)i;
		r = kind < 0 ? fail(p,
				    "unknown distribution '%s' (expected "
				    "const, uniform, uniform_int, exp, "
				    "normal, lognormal, choice or "
				    "empirical)",
				    SHOWN(sb, k->valuestring)) :
			       0;
	}
	path_pop(p, old);
	if (r)
		return r;
	for (nk = 0; nk < 5 && dist_keys[kind][nk]; nk++)
		;
	r = eevdf__wl_check_keys(p, d, dist_keys[kind], nk, NULL, 0);
	if (r)
		return r;
	dist = calloc(1, sizeof(*dist));
	if (!dist)
		return nomem(p);
	p->in_dist = true;
	r = dist_build(p, d, kind, dist);
	p->in_dist = false;
	if (r) {
		eevdf__dist_free(dist);
		free(dist);
		return r;
	}
	*out = dist;
	return 0;
}

/* Policies ------------------------------------------------------------ */

/* A policy name (a task's "policy", setattr's), as eevdf_policy_name()
 * spells them. */
int eevdf__wl_policy(struct wl_parser *p, const cJSON *it,
		     enum eevdf_policy *out)
{
	char *s = NULL, sb[WL_SHOWN_MAX];
	int r = eevdf__wl_ld_string(p, it, &s);

	if (r)
		return r;
	r = -1;
	for (int i = EEVDF_POLICY_NORMAL; r && i <= EEVDF_POLICY_DEADLINE; i++)
		if (strcmp(s, eevdf_policy_name((enum eevdf_policy)i)) == 0) {
			*out = (enum eevdf_policy)i;
			r = 0;
		}
	if (r)
		r = fail(p,
			 "unknown policy '%s' (expected normal, batch, idle, "
			 "fifo, rr or deadline)",
			 SHOWN(sb, s));
	free(s);
	return r;
}

/*
 * A deadline reservation as __checkparam_dl() checks it: the kernel's rule
 * when it would refuse it.
 */
int eevdf__wl_check_dl(struct wl_parser *p, u64 runtime, u64 deadline,
		       u64 period)
{
	struct dl_attr a = { runtime, deadline, period };
	const char *why = checkparam_dl(&a);

	if (why)
		return fail(p,
			    "sched_setattr() would refuse this deadline "
			    "reservation with EINVAL: %s",
			    why);
	return 0;
}

/* Operands -------------------------------------------------------------- */

static int bad_type(struct wl_parser *p, enum wl_vk vk)
{
	switch (vk) {
	case VK_DUR:
		return fail(p, "must be an integer number of ns or a string "
			       "with a unit (or an expression or a "
			       "distribution)");
	case VK_COUNT:
		return fail(p, "must be a count: an integer, an expression "
			       "or a distribution");
	case VK_VALUE:
		return fail(p, "must be an integer, an expression, a "
			       "distribution or {\"str\": TEXT}");
	case VK_COND:
		break;
	}
	return fail(p, "must be a condition: an expression, a number or a "
		       "boolean");
}

/* {"str": TEXT}: the id of the string constant. */
static int str_const(struct wl_parser *p, const cJSON *it, struct pval *out)
{
	const cJSON *s = get(it, "str");
	char *text = NULL;
	size_t old = path_key(p, "str");
	u32 id;
	int r;

	r = (it->child != s || s->next) ?
		    fail(p, "a string constant is {\"str\": TEXT} alone") :
		    eevdf__wl_ld_string(p, s, &text);
	if (!r && eevdf__wl_names_add(&p->wl->strings, text, strlen(text), &id))
		r = nomem(p);
	free(text);
	path_pop(p, old);
	if (r)
		return r;
	out->kind = PV_CONST;
	out->c = STRING_ID_BASE + (s64)id;
	return 0;
}

/* Range checks of a constant operand. */
static int check_const(struct wl_parser *p, enum wl_vk vk, s64 c)
{
	if ((vk == VK_DUR || vk == VK_COUNT) && c < 0)
		return fail(p, "must not be negative");
	if (vk == VK_DUR && c > WL_MAX_DURATION)
		return fail(p, "must be at most " WL_MAX_DURATION_TEXT);
	return 0;
}

/*
 * An operand of kind vk.  *src (when asked) receives the expression's
 * text for a PV_EXPR, so that a caller can build a bigger expression.
 */
int eevdf__wl_operand(struct wl_parser *p, const cJSON *it, enum wl_vk vk,
		      struct pval *out, char **src)
{
	struct wl_value v;
	enum wl_form f;
	int r;

	memset(out, 0, sizeof(*out));
	if (src)
		*src = NULL;
	if (cJSON_IsObject(it) && get(it, "dist")) {
		if (vk == VK_COND)
			return fail(p, "a condition cannot be a distribution");
		out->kind = PV_DIST;
		r = parse_dist(p, it, &out->dist);
		/* draws stay within what the operand documents */
		if (!r && vk == VK_DUR)
			eevdf__dist_set_range(out->dist, 0, WL_MAX_DURATION);
		else if (!r && vk == VK_COUNT)
			eevdf__dist_set_range(out->dist, 0, INT64_MAX);
		return r;
	}
	if (cJSON_IsObject(it) && get(it, "str")) {
		if (vk != VK_VALUE)
			return fail(p, "a string constant {\"str\": ...} is "
				       "only a value (let, record, fields)");
		return str_const(p, it, out);
	}
	if (cJSON_IsBool(it) && (vk == VK_COND || vk == VK_VALUE)) {
		out->kind = PV_CONST;
		out->c = cJSON_IsTrue(it);
		return 0;
	}
	if (cJSON_IsNumber(it)) {
		double d = it->valuedouble;

		if (!(d >= -WL_MAX_JSON_INT && d <= WL_MAX_JSON_INT) ||
		    d != (double)(s64)d)
			return vk == VK_DUR ? bad_type(p, vk) :
					      fail(p, "must be an integer");
		out->kind = PV_CONST;
		out->c = (s64)d;
		return check_const(p, vk, out->c);
	}
	if (cJSON_IsNull(it))
		return fail(p, "must not be null");
	if (!cJSON_IsString(it) || !it->valuestring)
		return bad_type(p, vk);
	r = eevdf__wl_expand(p, it->valuestring, &v, &f);
	if (r)
		return r;
	if (v.kind == WV_NULL) {
		r = fail(p, "must not be null");
	} else if (v.kind == WV_INT) {
		out->kind = PV_CONST;
		out->c = v.i;
	} else {
		r = compile_rt(p,
			       vk == VK_DUR ? "invalid duration" :
					      "invalid expression",
			       v.s, out);
		if (!r && out->kind == PV_EXPR && src) {
			*src = v.s;
			v.s = NULL;
		}
	}
	eevdf__wl_value_free(&v);
	if (!r && out->kind == PV_CONST)
		r = check_const(p, vk, out->c);
	return r;
}

/* The operand at obj.key, when present (else PV_NONE). */
int eevdf__wl_operand_key(struct wl_parser *p, const cJSON *obj,
			  const char *key, enum wl_vk vk, struct pval *out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r;

	memset(out, 0, sizeof(*out));
	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_operand(p, it, vk, out, NULL);
	path_pop(p, old);
	return r;
}

/* A variable to store into: "@x", or "@@x" when global_ok. */
int eevdf__wl_var(struct wl_parser *p, const char *s, bool global_ok, u32 *slot,
		  bool *global)
{
	size_t len = strlen(s);
	bool g = len > 1 && s[1] == '@';

	if (s[0] != '@' || !eevdf__wl_is_ident(s + 1 + g, len - 1 - g))
		return fail(p, "must be a variable name such as \"@x\"%s",
			    global_ok ? " or \"@@x\"" : "");
	if (g && !global_ok)
		return fail(p, "must be a task-local variable (\"@x\"), not "
			       "a global");
	if (strncmp(s + g, "@__", 3) == 0)
		return fail(p, "names starting with '@__' are reserved");
	if (eevdf__wl_names_add(g ? &p->wl->globals : &p->wl->locals, s, len,
				slot))
		return nomem(p);
	if (global)
		*global = g;
	return 0;
}

/* Object references ----------------------------------------------------- */

static bool is_int_text(const char *s, size_t n)
{
	size_t i = s[0] == '-' ? 1 : 0;

	if (i >= n)
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * Whether name fits parts[k..]: each text literally, each expression as
 * an integer ("%lld", the form program.c prints).
 */
static bool match_parts(const struct name_part *parts, u32 k, u32 nr,
			const char *s)
{
	const struct name_part *pt = &parts[k];
	size_t n = strlen(pt->text);
	const char *q;

	if (strncmp(s, pt->text, n) != 0)
		return false;
	s += n;
	if (!pt->expr || k + 1 >= nr)
		return *s == '\0';
	q = s + (*s == '-');
	if (*q < '0' || *q > '9')
		return false;
	for (q++;; q++) {
		if (match_parts(parts, k + 1, nr, q))
			return true;
		if (*q < '0' || *q > '9')
			return false;
	}
}

static const char *want_names(u32 want)
{
	if (want == (1u << OBJ_SEM))
		return "sem";
	if (want == ((1u << OBJ_SEM) | (1u << OBJ_LATCH)))
		return "sem or latch";
	for (int t = OBJ_CHANNEL; t <= OBJ_TIMER; t++)
		if (want == (1u << t))
			return eevdf__obj_type_name((enum obj_type)t);
	return "object of the right type";
}

static int add_part(struct wl_parser *p, struct objref *out, char **text,
		    struct expr *x)
{
	struct name_part *n = realloc(out->parts,
				      (out->nr_parts + 1) * sizeof(*n));

	if (!n) {
		eevdf__expr_free(x);
		return nomem(p);
	}
	out->parts = n;
	n[out->nr_parts].text = *text;
	n[out->nr_parts].expr = x;
	out->nr_parts++;
	*text = NULL;
	return 0;
}

/* A growing string for split_name(). */
struct gstr {
	char *s;
	size_t n, cap;
};

static int gs_add(struct gstr *g, const char *s, size_t n)
{
	if (g->n + n + 1 > g->cap) {
		size_t cap = 2 * g->cap + n + 32;
		char *ns = realloc(g->s, cap);

		if (!ns)
			return EEVDF_ENOMEM;
		g->s = ns;
		g->cap = cap;
	}
	memcpy(g->s + g->n, s, n);
	g->n += n;
	g->s[g->n] = '\0';
	return 0;
}

/*
 * Split name into literal text and run-time bracket contents ("ch[2][@j]"
 * is "ch[2][" @j "]").  A bracket of constants is folded into the text.
 * Without run-time parts, *fixed receives the whole name.
 */
static int split_name(struct wl_parser *p, const char *name, struct objref *out,
		      char **fixed)
{
	struct gstr g = { NULL, 0, 0 };
	char sb[WL_SHOWN_MAX], num[24], *sub;
	size_t i = 0, len;
	struct pval v;
	int r = gs_add(&g, "", 0) ? nomem(p) : 0;

	while (!r && name[i]) {
		const char *close;

		if (gs_add(&g, name + i, 1)) {
			r = nomem(p);
			break;
		}
		if (name[i++] != '[')
			continue;
		close = strchr(name + i, ']');
		if (!close) {
			r = fail(p, "'%s': '[' without ']'", SHOWN(sb, name));
			break;
		}
		len = (size_t)(close - (name + i));
		if (is_int_text(name + i, len)) {
			if (gs_add(&g, name + i, len))
				r = nomem(p);
			i += len;
			continue;
		}
		sub = malloc(len + 1);
		if (!sub) {
			r = nomem(p);
			break;
		}
		memcpy(sub, name + i, len);
		sub[len] = '\0';
		memset(&v, 0, sizeof(v));
		r = compile_rt(p, "invalid name part", sub, &v);
		free(sub);
		i += len;
		if (r)
			break;
		if (v.kind == PV_CONST) {
			snprintf(num, sizeof(num), "%lld", (long long)v.c);
			if (gs_add(&g, num, strlen(num)))
				r = nomem(p);
			continue;
		}
		r = add_part(p, out, &g.s, v.expr);
		g.n = g.cap = 0;
		if (!r && gs_add(&g, "", 0))
			r = nomem(p);
	}
	if (r) {
		free(g.s);
		return r;
	}
	if (!out->nr_parts) {
		*fixed = g.s;
		return 0;
	}
	r = add_part(p, out, &g.s, NULL);
	if (r)
		free(g.s);
	return r;
}

static int push_match(struct wl_parser *p, u32 idx)
{
	if (eevdf__wl_push_u32(&p->match, &p->nr_match, &p->cap_match, idx))
		return nomem(p);
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

/* A name without run-time parts: an object, or "<task>.self". */
static int ref_fixed(struct wl_parser *p, const char *name, u32 want,
		     struct objref *out)
{
	const struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX], tn[EEVDF_NAME_MAX + 8];
	int i = eevdf__wl_find_object(wl, name);

	if (i >= 0) {
		enum obj_type t = wl->objs[i].tmpl.type;

		if (!(want & (1u << t)))
			return fail(p, "'%s' is a %s, not a %s",
				    SHOWN(sb, name), eevdf__obj_type_name(t),
				    want_names(want));
		out->idx = i;
		return push_match(p, (u32)i);
	}
	if (ends_with(name, ".self") && strlen(name) < sizeof(tn)) {
		memcpy(tn, name, strlen(name) - 5);
		tn[strlen(name) - 5] = '\0';
		i = eevdf__wl_find_task(wl, tn);
		if (i >= 0 && !(want & (1u << OBJ_SEM)))
			return fail(p,
				    "'%s' is a task's own semaphore, not a "
				    "%s",
				    SHOWN(sb, name), want_names(want));
		if (i >= 0) {
			out->task_pid = i + 1;
			return 0;
		}
		return fail(p, "no task named '%s' (for '%s')", SHOWN(sb, tn),
			    name);
	}
	return fail(p, "no object named '%s'", SHOWN(sb, name));
}

/* A name with run-time parts: some object or task must fit it. */
static int ref_dynamic(struct wl_parser *p, u32 want, struct objref *out)
{
	const struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX], tn[EEVDF_NAME_MAX + 8];
	bool wrong = false, task = false;
	int r;

	for (size_t i = 0; i < wl->nr_objs; i++) {
		if (!match_parts(out->parts, 0, out->nr_parts,
				 wl->objs[i].tmpl.name))
			continue;
		if (!(want & (1u << wl->objs[i].tmpl.type))) {
			wrong = true;
			continue;
		}
		if ((r = push_match(p, (u32)i)))
			return r;
	}
	for (size_t i = 0;
	     !p->nr_match && (want & (1u << OBJ_SEM)) && i < wl->nr_tasks;
	     i++) {
		snprintf(tn, sizeof(tn), "%s.self", wl->tasks[i].name);
		task = match_parts(out->parts, 0, out->nr_parts, tn);
		if (task)
			break;
	}
	if (p->nr_match || task)
		return 0;
	if (wrong)
		return fail(p, "'%s' fits only objects that are not a %s",
			    SHOWN(sb, out->text), want_names(want));
	return fail(p, "no object or task fits '%s'", SHOWN(sb, out->text));
}

/*
 * An object reference: "self", a fixed name, "<task>.self", or a name
 * with run-time parts.  want is a mask of (1 << enum obj_type).  The
 * objects it may name are left in p->match.
 */
static int objref_of(struct wl_parser *p, const cJSON *it, u32 want,
		     struct objref *out)
{
	char *name = NULL, *fixed = NULL;
	int r;

	memset(out, 0, sizeof(*out));
	out->idx = OBJ_NONE;
	p->nr_match = 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(p, "must be the name of a %s", want_names(want));
	out->text = eevdf__wl_strdup(it->valuestring);
	if (!out->text)
		return nomem(p);
	r = eevdf__wl_ld_string(p, it, &name);
	if (r)
		return r;
	if (strcmp(name, "self") == 0) {
		free(name);
		if (!(want & (1u << OBJ_SEM)))
			return fail(p,
				    "'self' is the task's own semaphore, "
				    "not a %s",
				    want_names(want));
		out->idx = OBJ_SELF;
		return 0;
	}
	r = split_name(p, name, out, &fixed);
	free(name);
	if (r)
		return r;
	if (fixed) {
		r = ref_fixed(p, fixed, want, out);
		free(fixed);
		return r;
	}
	return ref_dynamic(p, want, out);
}

/*
 * A fixed name (an object, or "<task>.self": only ref_fixed() sets idx >= 0
 * or task_pid) that a for variable picks ("c2s[${i}]") is bound: the op
 * keeps this instance's object, and the ordinal of the binding, which is
 * the same in every instance, since the name is the only thing the
 * variable decides.  The variable then does not count as read, so that
 * the instances may share one program (the link's last step,
 * share_programs() in workload_link.c, checks that they came out the
 * same).
 */
int eevdf__wl_objref(struct wl_parser *p, const cJSON *it, u32 want,
		     struct objref *out)
{
	u32 before = p->used_for;
	int r = objref_of(p, it, want, out);

	if (r || p->used_for == before || !p->prog || p->in_template ||
	    p->prog->nr_binds == TASK_BINDS ||
	    !(out->idx >= 0 || out->task_pid > 0))
		return r;
	out->bind = ++p->prog->nr_binds;
	p->bound_for |= p->used_for & ~before;
	p->used_for = before;
	return 0;
}
