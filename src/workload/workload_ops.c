/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: ops and macros to the engine's compiled program (a flat
 * array of struct pop, structured ops owning the ops after them; see
 * program.h for each op's operands).
 */
#include <string.h>

#include "engine/sim.h"
#include "workload_impl.h"

#include "wl_short.h"
#define OP(p, at) (&(p)->prog->ops[at])
#define NO_OP UINT32_MAX
#define BIT(t) (1u << (t))

static int compile_ops(struct wl_parser *p, const cJSON *arr, int depth,
		       bool *adv);
#define emit eevdf__wl_emit
static int op_cost(struct wl_parser *p, const cJSON *op, const cJSON *v,
		   const char *name, u32 main, bool *adv);

int eevdf__wl_emit(struct wl_parser *p, enum popcode code, u32 *at)
{
	struct program *prog = p->prog;
	struct pop *op;

	if (prog->nr_ops >= WL_MAX_OPS)
		return fail(p,
			    "a program may have at most %d ops, loop "
			    "bodies and macros included",
			    WL_MAX_OPS);
	if (prog->nr_ops == p->cap_ops) {
		u32 cap = p->cap_ops ? 2 * p->cap_ops : 16;
		struct pop *n = realloc(prog->ops, cap * sizeof(*n));

		if (!n)
			return nomem(p);
		prog->ops = n;
		p->cap_ops = cap;
	}
	op = &prog->ops[prog->nr_ops];
	memset(op, 0, sizeof(*op));
	op->code = code;
	op->slot = NO_SLOT;
	op->obj.idx = OBJ_NONE;
	op->obj2.idx = OBJ_NONE;
	for (u32 k = 0; k < MSG_FIELDS; k++)
		op->field_slot[k] = NO_SLOT;
	/* where it was written, for the errors of a run */
	op->where = eevdf__wl_where(p);
	if (!op->where)
		return nomem(p);
	*at = prog->nr_ops++;
	return 0;
}

static bool is_const(const struct pval *v, s64 c)
{
	return v->kind == PV_NONE || (v->kind == PV_CONST && v->c == c);
}

/* Remember the objects a reference may name: barrier parties, checks. */
static int note_uses(struct wl_parser *p)
{
	for (u32 i = 0; i < p->nr_match; i++)
		if (eevdf__wl_push_u32(&p->uses, &p->nr_uses, &p->cap_uses,
				       p->match[i]))
			return nomem(p);
	return 0;
}

/* The object reference at obj.key into *out. */
static int ref_key(struct wl_parser *p, const cJSON *obj, const char *key,
		   u32 want, struct objref *out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	int r;

	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	r = eevdf__wl_objref(p, it, want, out);
	path_pop(p, old);
	return r ? r : note_uses(p);
}

/* A status variable at obj.key: slot and SLOT_GLOBAL flag. */
static int status_key(struct wl_parser *p, const cJSON *obj, const char *key,
		      struct pop *op)
{
	const cJSON *it = get(obj, key);
	size_t old;
	bool g = false;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = cJSON_IsString(it) ?
		    eevdf__wl_var(p, it->valuestring, true, &op->slot, &g) :
		    fail(p, "must be a variable name such as \"@s\"");
	path_pop(p, old);
	if (g)
		op->flags |= SLOT_GLOBAL;
	return r;
}

/* "interruptible": true: a signal ends the wait with status EINTR. */
static int intr_key(struct wl_parser *p, const cJSON *obj, struct pop *op)
{
	bool intr = false;
	int r = eevdf__wl_get_bool(p, obj, "interruptible", &intr);

	if (intr)
		op->flags |= SLEEP_INTR;
	return r;
}

/* The op's argument object: must be one, with only keys of known. */
static int args(struct wl_parser *p, const cJSON *v, const char *const *known,
		size_t n, const char *const *later, size_t nl)
{
	if (!cJSON_IsObject(v))
		return fail(p, "must be an object");
	return eevdf__wl_check_keys(p, v, known, n, later, nl);
}

/* Exactly one of two keys (wait's sem/latch, lock's mutex/spinlock). */
static int one_of(struct wl_parser *p, const cJSON *v, const char *a,
		  const char *b, const char **which)
{
	bool ha = get(v, a) != NULL, hb = get(v, b) != NULL;

	if (ha == hb)
		return fail(p, "needs exactly one of '%s' and '%s'", a, b);
	*which = ha ? a : b;
	return 0;
}

static int add_fixup(struct wl_parser *p, struct wl_fixup *f)
{
	if (p->nr_fix == p->cap_fix) {
		size_t cap = p->cap_fix ? 2 * p->cap_fix : 16;
		struct wl_fixup *n = realloc(p->fix, cap * sizeof(*n));

		if (!n)
			return EEVDF_ENOMEM;
		p->fix = n;
		p->cap_fix = cap;
	}
	p->fix[p->nr_fix++] = *f;
	return 0;
}

static int add_check(struct wl_parser *p, enum wl_check_kind kind, u32 obj)
{
	struct wl_check *c;

	if (p->nr_checks == p->cap_checks) {
		size_t cap = p->cap_checks ? 2 * p->cap_checks : 16;
		struct wl_check *n = realloc(p->checks, cap * sizeof(*n));

		if (!n)
			return nomem(p);
		p->checks = n;
		p->cap_checks = cap;
	}
	c = &p->checks[p->nr_checks];
	c->kind = kind;
	c->obj = obj;
	c->path = eevdf__wl_where(p);
	if (!c->path)
		return nomem(p);
	p->nr_checks++;
	return 0;
}

/* The matches of the last reference, copied for a fixup. */
static int copy_match(struct wl_parser *p, struct wl_fixup *f,
		      const struct objref *r)
{
	if (r->idx >= 0 || !p->nr_match)
		return 0;
	f->match = malloc(p->nr_match * sizeof(*f->match));
	if (!f->match)
		return nomem(p);
	memcpy(f->match, p->match, p->nr_match * sizeof(*f->match));
	f->nr_match = p->nr_match;
	return 0;
}

/*
 * A timeout with its slack (the op's "slack", else the task's
 * timer_slack): the engine has no slack for timeouts, and an hrtimer
 * with slack fires at its end, so the two add up.
 */
static int timeout_key(struct wl_parser *p, const cJSON *v, struct pval *out)
{
	const cJSON *t = get(v, "timeout"), *s = get(v, "slack");
	struct pval sl = { .kind = PV_NONE };
	char *ts = NULL, *ss = NULL, *text;
	size_t old;
	int r;

	memset(out, 0, sizeof(*out));
	if (!t) {
		if (!s)
			return 0;
		old = path_key(p, "slack");
		r = fail(p, "a slack needs a timeout");
		path_pop(p, old);
		return r;
	}
	old = path_key(p, "timeout");
	r = eevdf__wl_operand(p, t, VK_DUR, out, &ts);
	if (!r && out->kind == PV_CONST && out->c == 0)
		r = fail(p, "must be greater than 0 (omit it to wait without "
			    "a timeout)");
	path_pop(p, old);
	if (!r && s) {
		old = path_key(p, "slack");
		r = eevdf__wl_operand(p, s, VK_DUR, &sl, &ss);
		path_pop(p, old);
	} else if (!r && p->timer_slack) {
		sl.kind = PV_CONST;
		sl.c = p->timer_slack;
	}
	if (r || is_const(&sl, 0))
		goto out;
	if (out->kind == PV_CONST && sl.kind == PV_CONST) {
		out->c += sl.c;
		goto out;
	}
	if (out->kind == PV_DIST || sl.kind == PV_DIST) {
		r = fail(p, "a timeout with slack that is a distribution is "
			    "not supported by this version yet");
		goto out;
	}
	text = malloc((ts ? strlen(ts) : 24) + (ss ? strlen(ss) : 24) + 16);
	if (!text) {
		r = nomem(p);
		goto out;
	}
	if (ts)
		sprintf(text, "(%s) + ", ts);
	else
		sprintf(text, "%lld + ", (long long)out->c);
	if (ss)
		sprintf(text + strlen(text), "(%s)", ss);
	else
		sprintf(text + strlen(text), "%lld", (long long)sl.c);
	eevdf__wl_pval_free(out);
	r = eevdf__wl_compile_text(p, text, out);
	free(text);
out:
	eevdf__wl_pval_free(&sl);
	free(ts);
	free(ss);
	return r;
}

/* Simple ops ---------------------------------------------------------- */

/* run, spin: a duration of CPU work or of wall time. */
static int op_amount(struct wl_parser *p, const cJSON *v, enum popcode code,
		     bool *adv, u32 *main)
{
	int r = emit(p, code, main);

	if (!r)
		r = eevdf__wl_operand(p, v, VK_DUR, &OP(p, *main)->a, NULL);
	*adv = !r && !is_const(&OP(p, *main)->a, 0);
	return r;
}

static int op_run(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		  u32 *main)
{
	(void)depth;
	return op_amount(p, v, P_RUN, adv, main);
}

static int op_spin(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	(void)depth;
	return op_amount(p, v, P_SPIN, adv, main);
}

/* The op's slack, or the task's timer_slack. */
static int slack_key(struct wl_parser *p, const cJSON *v, struct pval *out)
{
	int r = 0;

	if (v && get(v, "slack"))
		r = eevdf__wl_operand_key(p, v, "slack", VK_DUR, out);
	else if (p->timer_slack) {
		out->kind = PV_CONST;
		out->c = p->timer_slack;
	}
	return r;
}

static int op_sleep(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		    u32 *main)
{
	static const char *const keys[] = { "for", "slack", "interruptible",
					    "status", "cost" };
	struct pop *op;
	int r;

	(void)depth;
	if ((r = emit(p, P_SLEEP, main)))
		return r;
	op = OP(p, *main);
	if (!cJSON_IsObject(v)) {
		r = eevdf__wl_operand(p, v, VK_DUR, &op->a, NULL);
		if (!r)
			r = slack_key(p, NULL, &op->b);
	} else {
		r = eevdf__wl_check_keys(p, v, keys, ARRAY_SIZE(keys), NULL, 0);
		if (!r && !get(v, "for"))
			r = fail(p, "missing key 'for'");
		if (!r)
			r = eevdf__wl_operand_key(p, v, "for", VK_DUR, &op->a);
		if (!r)
			r = slack_key(p, v, &op->b);
		if (!r)
			r = intr_key(p, v, op);
		if (!r)
			r = status_key(p, v, "status", op);
	}
	*adv = !r && !(is_const(&op->a, 0) && is_const(&op->b, 0));
	return r;
}

static int op_sleep_until(struct wl_parser *p, const cJSON *v, int depth,
			  bool *adv, u32 *main)
{
	static const char *const keys[] = { "at", "slack", "cost" };
	int r;

	(void)depth;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_SLEEP_UNTIL, main)))
		return r;
	if (!get(v, "at"))
		return fail(p, "missing key 'at'");
	r = eevdf__wl_operand_key(p, v, "at", VK_VALUE, &OP(p, *main)->a);
	if (!r)
		r = slack_key(p, v, &OP(p, *main)->b);
	*adv = true;
	return r;
}

/* yield and exit: {} or true, or {"cost": D}. */
static int op_flag(struct wl_parser *p, const cJSON *v, enum popcode code,
		   u32 *main)
{
	if (!cJSON_IsTrue(v) &&
	    !(cJSON_IsObject(v) &&
	      (!v->child ||
	       (!v->child->next && strcmp(v->child->string, "cost") == 0))))
		return fail(p, "must be {} or true (or {\"cost\": D})");
	return emit(p, code, main);
}

static int op_yield(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		    u32 *main)
{
	(void)depth;
	(void)adv;
	return op_flag(p, v, P_YIELD, main);
}

static int op_exit(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	(void)depth;
	*adv = true;
	return op_flag(p, v, P_EXIT, main);
}

static int op_mark(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	int r;

	(void)depth;
	(void)adv;
	if ((r = emit(p, P_MARK, main)))
		return r;
	return eevdf__wl_ld_string(p, v, &OP(p, *main)->text);
}

/* Objects -------------------------------------------------------------- */

static int op_post(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "sem", "n", "cost" };
	int r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_POST, main)) ||
	    (r = ref_key(p, v, "sem", BIT(OBJ_SEM), &OP(p, *main)->obj)))
		return r;
	for (u32 i = 0; i < p->nr_match; i++)
		p->wl->objs[p->match[i]].posted = true;
	return eevdf__wl_operand_key(p, v, "n", VK_COUNT, &OP(p, *main)->a);
}

static int op_wait(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "sem",   "latch",  "timeout",
					    "slack", "status", "interruptible",
					    "cost" };
	const char *which = "";
	struct pop *op;
	int r;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = one_of(p, v, "sem", "latch", &which)) ||
	    (r = emit(p, P_WAIT, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, which,
			 BIT(which[0] == 's' ? OBJ_SEM : OBJ_LATCH),
			 &op->obj)) ||
	    (r = timeout_key(p, v, &op->b)) ||
	    (r = status_key(p, v, "status", op)) || (r = intr_key(p, v, op)))
		return r;
	/* a signal may end an interruptible wait that no post ends */
	if (op->obj.idx >= 0 && op->b.kind == PV_NONE &&
	    !(op->flags & SLEEP_INTR) &&
	    p->wl->objs[op->obj.idx].tmpl.type == OBJ_SEM)
		return add_check(p, WL_CHECK_WAIT, (u32)op->obj.idx);
	return 0;
}

static int op_set(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		  u32 *main)
{
	static const char *const keys[] = { "latch", "cost" };
	int r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_SET, main)))
		return r;
	return ref_key(p, v, "latch", BIT(OBJ_LATCH), &OP(p, *main)->obj);
}

static int op_wake(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "event", "n", "cost" };
	const cJSON *n = get(v, "n");
	struct pop *op;
	int r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_WAKE, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, "event", BIT(OBJ_EVENT), &op->obj)))
		return r;
	if (cJSON_IsString(n) && strcmp(n->valuestring, "all") == 0)
		return 0;
	if (!n) {
		op->a.kind = PV_CONST;
		op->a.c = 1;
		return 0;
	}
	return eevdf__wl_operand_key(p, v, "n", VK_COUNT, &op->a);
}

static int op_block(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		    u32 *main)
{
	static const char *const keys[] = { "event",   "timeout",
					    "slack",   "status",
					    "release", "interruptible",
					    "cost" };
	struct pop *op;
	int r;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_BLOCK, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, "event", BIT(OBJ_EVENT), &op->obj)) ||
	    (r = timeout_key(p, v, &op->b)) ||
	    (r = status_key(p, v, "status", op)) || (r = intr_key(p, v, op)))
		return r;
	if (get(v, "release"))
		r = ref_key(p, v, "release", BIT(OBJ_MUTEX), &op->obj2);
	return r;
}

static int op_lock_common(struct wl_parser *p, const cJSON *v,
			  enum popcode code, u32 *main)
{
	static const char *const keys[] = { "mutex", "spinlock", "cost" };
	const char *which = "";
	int r;

	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = one_of(p, v, "mutex", "spinlock", &which)) ||
	    (r = emit(p, code, main)))
		return r;
	return ref_key(p, v, which,
		       BIT(which[0] == 'm' ? OBJ_MUTEX : OBJ_SPINLOCK),
		       &OP(p, *main)->obj);
}

static int op_lock(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	(void)depth;
	*adv = true;
	return op_lock_common(p, v, P_LOCK, main);
}

static int op_unlock(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		     u32 *main)
{
	(void)depth;
	(void)adv;
	return op_lock_common(p, v, P_UNLOCK, main);
}

static int op_barrier(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		      u32 *main)
{
	int r;

	(void)depth;
	*adv = true;
	if ((r = emit(p, P_BARRIER, main)) ||
	    (r = eevdf__wl_objref(p, v, BIT(OBJ_BARRIER), &OP(p, *main)->obj)))
		return r;
	return note_uses(p);
}

static int op_push(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "list", "cost" };
	int r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_PUSH, main)))
		return r;
	return ref_key(p, v, "list", BIT(OBJ_LIST), &OP(p, *main)->obj);
}

static int op_wake_list(struct wl_parser *p, const cJSON *v, int depth,
			bool *adv, u32 *main)
{
	static const char *const keys[] = { "list", "stamp", "stamp_mode",
					    "cost" };
	const cJSON *st = get(v, "stamp"), *mode = get(v, "stamp_mode");
	struct pop *op;
	size_t old;
	int r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_WAKE_LIST, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, "list", BIT(OBJ_LIST), &op->obj)))
		return r;
	if (st) {
		old = path_key(p, "stamp");
		/* the woken tasks' variable: the same slot in every task */
		r = cJSON_IsString(st) ?
			    eevdf__wl_var(p, st->valuestring, false, &op->slot,
					  NULL) :
			    fail(p, "must be a variable name such as \"@t\"");
		path_pop(p, old);
		if (r)
			return r;
	}
	if (!mode)
		return 0;
	old = path_key(p, "stamp_mode");
	if (!st)
		r = fail(p, "a stamp_mode needs a stamp");
	else if (cJSON_IsString(mode) && strcmp(mode->valuestring, "each") == 0)
		op->flags |= STAMP_EACH;
	else if (!cJSON_IsString(mode) || strcmp(mode->valuestring, "once"))
		r = fail(p, "must be \"once\" or \"each\"");
	path_pop(p, old);
	return r;
}

/* Channels ------------------------------------------------------------- */

static int op_send(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "chan",	"bytes",  "fields",
					    "nonblock", "status", "cost" };
	const cJSON *fields = get(v, "fields"), *it;
	struct wl_fixup f;
	struct pop *op;
	bool nb = false;
	size_t old;
	int r;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_SEND, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, "chan", BIT(OBJ_CHANNEL), &op->obj)))
		return r;
	for (u32 i = 0; i < p->nr_match; i++)
		p->wl->objs[p->match[i]].sent = true;
	if (!get(v, "bytes"))
		return fail(p, "missing key 'bytes'");
	if ((r = eevdf__wl_operand_key(p, v, "bytes", VK_COUNT, &op->a)) ||
	    (r = eevdf__wl_get_bool(p, v, "nonblock", &nb)) ||
	    (r = status_key(p, v, "status", op)))
		return r;
	if (nb)
		op->flags |= SEND_NONBLOCK;
	if (!fields)
		return 0;
	/* fields in the order written; placed in the channel's order later */
	memset(&f, 0, sizeof(f));
	f.prog = (u32)p->wl->nr_progs;
	f.op = *main;
	old = path_key(p, "fields");
	if (!cJSON_IsObject(fields))
		r = fail(p, "must be an object of name: value");
	for (it = fields->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		size_t o2 = path_key(p, k);

		if (f.nr_names == MSG_FIELDS)
			r = fail(p, "a message has at most %d fields",
				 MSG_FIELDS);
		else if (!eevdf__wl_is_ident(k, strlen(k)))
			r = fail(p, "a field name must be an identifier");
		for (u32 j = 0; !r && j < f.nr_names; j++)
			if (strcmp(f.names[j], k) == 0)
				r = fail(p, "duplicate key '%s'", k);
		if (!r)
			r = eevdf__wl_operand(p, it, VK_VALUE,
					      &op->field[f.nr_names], NULL);
		if (!r && !(f.names[f.nr_names++] = eevdf__wl_strdup(k)))
			r = nomem(p);
		path_pop(p, o2);
	}
	op->nr_fields = f.nr_names;
	if (!r && !(f.path = eevdf__wl_where(p)))
		r = nomem(p);
	if (!r)
		r = copy_match(p, &f, &op->obj);
	path_pop(p, old);
	if (!r && add_fixup(p, &f))
		r = nomem(p);
	if (r) {
		for (u32 j = 0; j < f.nr_names; j++)
			free(f.names[j]);
		free(f.path);
		free(f.match);
	}
	return r;
}

static int op_recv(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "chan",    "bytes", "exact",
					    "message", "into",	"calls",
					    "status",  "cost" };
	const cJSON *into = get(v, "into");
	bool exact = false, msg = false;
	struct wl_fixup f;
	struct pop *op;
	size_t old;
	u32 slot;
	int r;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_RECV, main)))
		return r;
	op = OP(p, *main);
	if ((r = ref_key(p, v, "chan", BIT(OBJ_CHANNEL), &op->obj)) ||
	    (r = eevdf__wl_get_bool(p, v, "exact", &exact)) ||
	    (r = eevdf__wl_get_bool(p, v, "message", &msg)))
		return r;
	if (op->obj.idx >= 0 &&
	    (r = add_check(p, WL_CHECK_RECV, (u32)op->obj.idx)))
		return r;
	if (msg && get(v, "bytes"))
		return fail(p, "'bytes' has no meaning with 'message': a "
			       "message is read whole");
	if (msg && exact)
		return fail(p, "'exact' has no meaning with 'message'");
	if (!msg && !get(v, "bytes"))
		return fail(p, "missing key 'bytes' (or \"message\": true)");
	if (into && !msg)
		return fail(p, "'into' needs \"message\": true");
	op->flags |= (exact ? RECV_EXACT : 0) | (msg ? RECV_MESSAGE : 0);
	if ((r = eevdf__wl_operand_key(p, v, "bytes", VK_COUNT, &op->a)) ||
	    (r = eevdf__wl_operand_key(p, v, "calls", VK_COUNT, &op->b)) ||
	    (r = status_key(p, v, "status", op)))
		return r;
	if (op->b.kind != PV_NONE && (op->b.kind != PV_CONST || op->b.c < 1)) {
		old = path_key(p, "calls");
		r = fail(p, "must be a constant of at least 1");
		path_pop(p, old);
		return r;
	}
	if (!into)
		return 0;
	memset(&f, 0, sizeof(f));
	old = path_key(p, "into");
	r = cJSON_IsString(into) ?
		    eevdf__wl_var(p, into->valuestring, false, &slot, NULL) :
		    fail(p, "must be a variable name such as \"@m\"");
	f.prog = (u32)p->wl->nr_progs;
	f.op = *main;
	f.recv = true;
	if (!r && (!(f.into = eevdf__wl_strdup(into->valuestring)) ||
		   !(f.path = eevdf__wl_where(p))))
		r = nomem(p);
	if (!r)
		r = copy_match(p, &f, &op->obj);
	path_pop(p, old);
	if (!r && add_fixup(p, &f))
		r = nomem(p);
	if (r) {
		free(f.into);
		free(f.path);
		free(f.match);
	}
	return r;
}

/* Join ------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* "a[*],b": each comma-separated glob must match some task. */
static int join_set(struct wl_parser *p, const char *pat, struct wl_join *j)
{
	const struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX];
	const char *s = pat;
	u32 cap = 0, n = 0;

	while (1) {
		const char *e = strchr(s, ','), *a = s, *b;
		bool hit = false;

		if (!e)
			e = s + strlen(s);
		for (b = e; b > a && b[-1] == ' '; b--)
			;
		for (; a < b && *a == ' '; a++)
			;
		if (a == b)
			return fail(p, "empty pattern in '%s'", SHOWN(sb, pat));
		for (size_t i = 0; i < wl->nr_tasks; i++) {
			if (!eevdf__wl_glob(a, (size_t)(b - a),
					    wl->tasks[i].name))
				continue;
			hit = true;
			if (eevdf__wl_push_u32(&j->pids, &n, &cap, (u32)i + 1))
				return nomem(p);
		}
		if (!hit)
			return fail(p, "'%.*s' matches no task",
				    (int)((b - a) > 40 ? 40 : (b - a)), a);
		if (!*e)
			break;
		s = e + 1;
	}
	/* sorted, without repeats: the pids a join waits for */
	qsort(j->pids, n, sizeof(*j->pids), cmp_u32);
	j->nr = 0;
	for (u32 i = 0; i < n; i++)
		if (!j->nr || j->pids[j->nr - 1] != j->pids[i])
			j->pids[j->nr++] = j->pids[i];
	return 0;
}

/*
 * wait() or pthread_join(): for the tasks a pattern names, or for every
 * task this one spawned ("children", the instances still alive).
 */
static int op_join(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "tasks", "interruptible", "status",
					    "cost" };
	struct eevdf_workload *wl = p->wl;
	struct wl_join j = { NULL, 0, NULL, NULL };
	bool children = false;
	const cJSON *t;
	size_t old;
	int r;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!(t = get(v, "tasks")))
		return fail(p, "missing key 'tasks'");
	old = path_key(p, "tasks");
	r = eevdf__wl_ld_string(p, t, &j.pattern);
	if (!r && strcmp(j.pattern, "children") == 0)
		children = true;
	else if (!r)
		r = join_set(p, j.pattern, &j);
	if (!r && !children && !(j.path = eevdf__wl_where(p)))
		r = nomem(p);
	path_pop(p, old);
	if (!r && !children) {
		struct wl_join *n = realloc(wl->joins,
					    (wl->nr_joins + 1) * sizeof(*n));

		if (!n) {
			r = nomem(p);
		} else {
			wl->joins = n;
			n[wl->nr_joins++] = j;
		}
	}
	if (r || children) {
		free(j.pids);
		free(j.pattern);
		free(j.path);
		if (r)
			return r;
	}
	if ((r = emit(p, P_JOIN, main)))
		return r;
	OP(p, *main)->a.kind = PV_CONST;
	OP(p, *main)->a.c = children ? JOIN_CHILDREN : (s64)(wl->nr_joins - 1);
	if ((r = intr_key(p, v, OP(p, *main))))
		return r;
	return status_key(p, v, "status", OP(p, *main));
}

/* Signals, spawn, setattr ---------------------------------------------- */

static const struct {
	const char *name;
	int signo;
} sig_names[] = {
	{ "HUP", SIGNO_HUP },	{ "INT", SIGNO_INT },	{ "KILL", SIGNO_KILL },
	{ "USR1", SIGNO_USR1 }, { "USR2", SIGNO_USR2 }, { "ALRM", SIGNO_ALRM },
	{ "TERM", SIGNO_TERM },
};

#define SIG_EXPECTED                                                           \
	"expected HUP, INT, KILL, USR1, USR2, ALRM or TERM, "                  \
	"optionally with 'SIG' before"

int eevdf__wl_signo(const char *s)
{
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < ARRAY_SIZE(sig_names); i++)
		if (strcmp(s, sig_names[i].name) == 0)
			return sig_names[i].signo;
	return 0;
}

/* The one task a name ("${...}" expanded) names, as a pid. */
static int signal_target(struct wl_parser *p, const cJSON *it, s32 *pid)
{
	const struct eevdf_workload *wl = p->wl;
	char *name = NULL, sb[WL_SHOWN_MAX];
	const char *first = NULL;
	size_t len, n = 0;
	int i, r;

	if ((r = eevdf__wl_ld_string(p, it, &name)))
		return r;
	len = strlen(name);
	if ((i = eevdf__wl_find_task(wl, name)) >= 0) {
		*pid = i + 1;
		free(name);
		return 0;
	}
	/* a pattern, or the name of a definition of several instances */
	for (size_t k = 0; k < wl->nr_tasks; k++) {
		const char *t = wl->tasks[k].name;

		if (eevdf__wl_glob(name, len, t) ||
		    (strncmp(t, name, len) == 0 && t[len] == '[')) {
			first = first ? first : t;
			n++;
		}
	}
	if (n)
		r = fail(p,
			 "'%s' names %zu tasks ('%s'%s): a signal goes to "
			 "one task, named in full",
			 SHOWN(sb, name), n, first, n > 1 ? ", ..." : "");
	else if (strchr(name, '@'))
		r = fail(p,
			 "'%s': the target is a task named at load time "
			 "(run-time names are not supported)",
			 SHOWN(sb, name));
	else if (eevdf__wl_find_template(wl, name) >= 0)
		r = fail(p,
			 "'%s' is a template: its spawned instances cannot "
			 "be named at load time",
			 SHOWN(sb, name));
	else
		r = fail(p, "no task named '%s'", SHOWN(sb, name));
	free(name);
	return r;
}

/* A signal name at obj.key: its number. */
static int sig_key(struct wl_parser *p, const cJSON *obj, const char *key,
		   int *signo)
{
	const cJSON *it = get(obj, key);
	char *s = NULL, sb[WL_SHOWN_MAX];
	size_t old;
	int r;

	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	r = eevdf__wl_ld_string(p, it, &s);
	if (!r && !(*signo = eevdf__wl_signo(s)))
		r = fail(p, "unknown signal '%s' (" SIG_EXPECTED ")",
			 SHOWN(sb, s));
	free(s);
	path_pop(p, old);
	return r;
}

/* kill(): the target is resolved now; a pending signal coalesces. */
static int op_signal(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		     u32 *main)
{
	static const char *const keys[] = { "task", "sig", "cost" };
	const cJSON *t = get(v, "task");
	struct pop *op;
	size_t old;
	int sig = 0, r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!t)
		return fail(p, "missing key 'task'");
	if ((r = sig_key(p, v, "sig", &sig)) || (r = emit(p, P_SIGNAL, main)))
		return r;
	op = OP(p, *main);
	op->a.kind = PV_CONST;
	op->a.c = sig;
	old = path_key(p, "task");
	r = signal_target(p, t, &op->obj.task_pid);
	path_pop(p, old);
	return r;
}

/* fork() or pthread_create() of count instances of a template. */
static int op_spawn(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		    u32 *main)
{
	static const char *const keys[] = { "template", "count", "cost" };
	static const char *const later[] = { "vars" };
	const cJSON *t = get(v, "template");
	char *name = NULL, sb[WL_SHOWN_MAX];
	struct pop *op;
	size_t old;
	int i = -1, r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), later, ARRAY_SIZE(later))))
		return r;
	if (!t)
		return fail(p, "missing key 'template'");
	old = path_key(p, "template");
	r = eevdf__wl_ld_string(p, t, &name);
	if (!r && (i = eevdf__wl_find_template(p->wl, name)) < 0)
		r = fail(p,
			 "no template named '%s' (define it under "
			 "\"templates\")",
			 SHOWN(sb, name));
	free(name);
	path_pop(p, old);
	if (r || (r = emit(p, P_SPAWN, main)))
		return r;
	op = OP(p, *main);
	op->a.kind = PV_CONST;
	op->a.c = i;
	if ((r = eevdf__wl_operand_key(p, v, "count", VK_COUNT, &op->b)))
		return r;
	if (op->b.kind == PV_CONST && op->b.c > WL_MAX_COUNT) {
		old = path_key(p, "count");
		r = fail(p, "must be at most %d", WL_MAX_COUNT);
		path_pop(p, old);
	}
	return r;
}

/*
 * setattr's "cgroup": a group of "groups", or "/", kept as its path for
 * the engine to find when the op runs (the groups are made then).
 */
static int setattr_cgroup(struct wl_parser *p, const cJSON *it, struct pop *op)
{
	size_t old = path_key(p, "cgroup");
	char *path = NULL;
	int r = eevdf__wl_ld_string(p, it, &path);

	if (!r && strcmp(path, "/") != 0 && !eevdf__wl_find_group(p->wl, path))
		r = eevdf__wl_no_group(p, path);
	if (r)
		free(path);
	else
		op->text = path;
	path_pop(p, old);
	return r;
}

/*
 * sched_setattr() on the task itself: nice, slice, policy, and the
 * priority of fifo and rr or the runtime, deadline and period of
 * deadline; and a move to another cgroup.  Constant values are checked
 * here as the kernel would check them; computed ones when the op runs.
 */
static int op_setattr(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		      u32 *main)
{
	static const char *const keys[] = {
		"nice",	   "slice",    "policy", "cost",   "priority",
		"runtime", "deadline", "period", "cgroup",
	};
	static const char *const cls_keys[] = { "priority", "runtime",
						"deadline", "period" };
	const cJSON *sl = get(v, "slice"), *pol = get(v, "policy");
	enum eevdf_policy policy = EEVDF_POLICY_NORMAL;
	struct pop *op;
	size_t old;
	int r;

	(void)depth;
	(void)adv;
	if (cJSON_IsObject(v) && get(v, "cpus")) {
		old = path_key(p, "cpus");
		r = fail(p, "changing 'cpus' is not supported by this version "
			    "yet (an affinity change needs migration)");
		path_pop(p, old);
		return r;
	}
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!get(v, "nice") && !sl && !pol && !get(v, "cgroup"))
		return fail(p, "needs at least one of 'nice', 'slice', "
			       "'policy' and 'cgroup'");
	if ((r = emit(p, P_SETATTR, main)))
		return r;
	op = OP(p, *main);
	if (get(v, "cgroup") && (r = setattr_cgroup(p, get(v, "cgroup"), op)))
		return r;
	if ((r = eevdf__wl_operand_key(p, v, "nice", VK_VALUE, &op->a)))
		return r;
	if (op->a.kind == PV_CONST && (op->a.c < -20 || op->a.c > 19)) {
		old = path_key(p, "nice");
		r = fail(p, "must be between -20 and 19");
		path_pop(p, old);
		return r;
	}
	if (cJSON_IsNull(sl)) {
		op->b.kind = PV_CONST;
		op->b.c = 0;
	} else if ((r = eevdf__wl_operand_key(p, v, "slice", VK_DUR, &op->b))) {
		return r;
	}
	if (op->b.kind == PV_CONST && op->b.c &&
	    (op->b.c < WL_SLICE_MIN || op->b.c > WL_SLICE_MAX)) {
		old = path_key(p, "slice");
		r = fail(p, "must be 0 or null (back to the base slice) or "
			    "between 100us and 100ms");
		path_pop(p, old);
		return r;
	}
	if (pol) {
		old = path_key(p, "policy");
		r = eevdf__wl_policy(p, pol, &policy);
		path_pop(p, old);
		if (r)
			return r;
		op->c.kind = PV_CONST;
		op->c.c = (s64)policy;
	}
	/* field[0]: priority, field[1..3]: runtime, deadline, period */
	op->nr_fields = ARRAY_SIZE(cls_keys);
	for (size_t i = 0; i < ARRAY_SIZE(cls_keys); i++) {
		bool want = i == 0 ? policy == EEVDF_POLICY_FIFO ||
					     policy == EEVDF_POLICY_RR :
				     policy == EEVDF_POLICY_DEADLINE;

		if (!get(v, cls_keys[i]))
			continue;
		old = path_key(p, cls_keys[i]);
		if (!want)
			r = fail(p, i == 0 ? "is the rt_priority of policies "
					     "fifo and rr: give 'policy' too" :
					     "is a parameter of policy "
					     "deadline: give 'policy' too");
		else
			r = eevdf__wl_operand_key(p, v, cls_keys[i],
						  i ? VK_DUR : VK_VALUE,
						  &op->field[i]);
		if (!r && i == 0 && op->field[0].kind == PV_CONST &&
		    (op->field[0].c < 1 || op->field[0].c > 99))
			r = fail(p, "must be between 1 and 99");
		path_pop(p, old);
		if (r)
			return r;
	}
	if ((policy == EEVDF_POLICY_FIFO || policy == EEVDF_POLICY_RR) &&
	    !get(v, "priority")) {
		old = path_key(p, "policy");
		r = fail(p,
			 "policy '%s' needs a 'priority' of 1..99 (its "
			 "rt_priority)",
			 eevdf_policy_name(policy));
		path_pop(p, old);
		return r;
	}
	if (policy == EEVDF_POLICY_DEADLINE) {
		if (!get(v, "runtime") || !get(v, "deadline"))
			return fail(p, "policy deadline needs 'runtime' and "
				       "'deadline' ('period' defaults to the "
				       "deadline)");
		if (op->field[1].kind == PV_CONST &&
		    op->field[2].kind == PV_CONST &&
		    op->field[3].kind != PV_EXPR &&
		    op->field[3].kind != PV_DIST)
			return eevdf__wl_check_dl(p, (u64)op->field[1].c,
						  (u64)op->field[2].c,
						  (u64)op->field[3].c);
	}
	return 0;
}

/* Timers and wake_and_block ----------------------------------------------- */

static const char *const timer_modes[] = { "relative", "absolute" };

/* The hidden task-local "next expiry" of the per-task timer name. */
static int timer_slot(struct wl_parser *p, const char *name, u32 *slot)
{
	size_t n = strlen(WL_TIMER_VAR) + strlen(name);
	char *var = malloc(n + 1);
	int r = 0;

	if (!var)
		return nomem(p);
	snprintf(var, n + 1, "%s%s", WL_TIMER_VAR, name);
	if (eevdf__wl_names_add(&p->wl->locals, var, n, slot))
		r = nomem(p);
	free(var);
	return r;
}

/*
 * The timer of a timer_wait: a per-task one (a timer object with
 * "unique", or a name "unique*" that no object has, as rt-app writes
 * "ref": "unique") in a hidden variable, else a shared timer object.
 * *period and *absolute receive the defaults the timer gives.
 */
static int timer_ref(struct wl_parser *p, const cJSON *it, struct pop *op,
		     eevdf_time *period, bool *absolute)
{
	const struct eevdf_workload *wl = p->wl;
	const struct wl_object *o;
	char *name = NULL, sb[WL_SHOWN_MAX];
	int r;

	if ((r = eevdf__wl_ld_string(p, it, &name)))
		return r;
	if (strncmp(name, "unique", 6) == 0 && !strpbrk(name, "[@") &&
	    eevdf__wl_find_object(wl, name) < 0) {
		r = timer_slot(p, name, &op->slot);
		free(name);
		return r;
	}
	free(name);
	if ((r = eevdf__wl_objref(p, it, BIT(OBJ_TIMER), &op->obj)) ||
	    (r = note_uses(p)))
		return r;
	for (u32 i = 0; i < p->nr_match; i++) {
		o = &wl->objs[p->match[i]];
		if (o->timer_unique && op->obj.idx < 0)
			return fail(p,
				    "'%s' fits timer '%s', which is one "
				    "per task: name such a timer without "
				    "run-time parts",
				    SHOWN(sb, op->obj.text), o->tmpl.name);
		/* the defaults, when every timer it may name agrees */
		if (i == 0) {
			*period = o->timer_period;
			*absolute = o->timer_absolute;
		}
		if (*period != o->timer_period)
			*period = 0;
		if (*absolute != o->timer_absolute)
			*absolute = false;
	}
	if (op->obj.idx >= 0 && wl->objs[op->obj.idx].timer_unique)
		return timer_slot(p, wl->objs[op->obj.idx].tmpl.name,
				  &op->slot);
	return 0;
}

/* rt-app's timer event: wait for the timer's next expiry. */
static int op_timer_wait(struct wl_parser *p, const cJSON *v, int depth,
			 bool *adv, u32 *main)
{
	static const char *const keys[] = { "timer", "period", "mode", "cost" };
	const cJSON *t = get(v, "timer");
	eevdf_time period = 0;
	bool absolute = false;
	struct pop *op;
	int mode = -1, r;
	size_t old;

	(void)depth;
	*adv = true;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!t)
		return fail(p, "missing key 'timer'");
	if ((r = emit(p, P_TIMER_WAIT, main)))
		return r;
	op = OP(p, *main);
	old = path_key(p, "timer");
	r = timer_ref(p, t, op, &period, &absolute);
	path_pop(p, old);
	if (r || (r = eevdf__wl_operand_key(p, v, "period", VK_DUR, &op->a)) ||
	    (r = eevdf__wl_get_enum(p, v, "mode", timer_modes,
				    ARRAY_SIZE(timer_modes), &mode)))
		return r;
	if (op->a.kind == PV_CONST && op->a.c == 0) {
		old = path_key(p, "period");
		r = fail(p, "must be greater than 0");
		path_pop(p, old);
		return r;
	}
	if (op->a.kind == PV_NONE && !period)
		return fail(p, "missing key 'period' (the timer gives none)");
	if (op->a.kind == PV_NONE) {
		op->a.kind = PV_CONST;
		op->a.c = period;
	}
	if (mode >= 0)
		absolute = mode == 1;
	if (absolute)
		op->flags |= TIMER_ABSOLUTE;
	return 0;
}

/*
 * rt-app's sync: a wake, then a block, as two ops; WAKE_THEN_BLOCK makes
 * the engine run the block at once after the wake (the wake's costs are
 * paid after the block), so the partner cannot run and wake back in
 * between: the pair is atomic, as a futex wake-and-wait is.
 */
static int op_wake_and_block(struct wl_parser *p, const cJSON *v, int depth,
			     bool *adv, u32 *main)
{
	static const char *const keys[] = { "wake", "block" };
	const cJSON *w = get(v, "wake"), *b = get(v, "block");
	bool a = false;
	u32 at = NO_OP;
	size_t old;
	int r;

	*main = NO_OP;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)))
		return r;
	if (!w)
		return fail(p, "missing key 'wake'");
	if (!b)
		return fail(p, "missing key 'block'");
	old = path_key(p, "wake");
	r = op_wake(p, w, depth, &a, &at);
	path_pop(p, old);
	if (!r)
		r = op_cost(p, NULL, w, "wake", at, &a);
	if (r)
		return r;
	OP(p, at)->flags |= WAKE_THEN_BLOCK;
	old = path_key(p, "block");
	r = op_block(p, b, depth, adv, &at);
	path_pop(p, old);
	if (!r)
		r = op_cost(p, NULL, b, "block", at, adv);
	return r;
}

/* Metrics --------------------------------------------------------------- */

static int metric_key(struct wl_parser *p, const cJSON *v, int *idx)
{
	const cJSON *it = get(v, "metric");
	char *name = NULL, sb[WL_SHOWN_MAX];
	size_t old;
	int r;

	if (!it)
		return fail(p, "missing key 'metric'");
	old = path_key(p, "metric");
	r = eevdf__wl_ld_string(p, it, &name);
	if (!r && (*idx = eevdf__wl_find_metric(p->wl, name)) < 0)
		r = fail(p,
			 "no metric named '%s' (define it under "
			 "\"metrics\")",
			 SHOWN(sb, name));
	free(name);
	path_pop(p, old);
	return r;
}

/*
 * drop_zero: the engine drops negative and zero samples itself
 * (eevdf__metric_record()); a record that also pays a cost or evaluates a
 * key skips both for a zero by recording under an if.  A drawn sample is
 * then drawn once, into a hidden local, so the test and the record see
 * the same value.
 */
static int drop_zero_guard(struct wl_parser *p, struct pval *val,
			   const char *src)
{
	struct pval cond = { .kind = PV_NONE };
	u32 at, slot;
	char *text;
	int r;

	if (val->kind == PV_CONST) {
		cond.kind = PV_CONST;
		cond.c = val->c != 0;
	} else if (val->kind == PV_EXPR) {
		text = malloc(strlen(src) + 16);
		if (!text)
			return nomem(p);
		sprintf(text, "(%s) != 0", src);
		r = eevdf__wl_compile_text(p, text, &cond);
		free(text);
		if (r)
			return r;
	} else {
		if (eevdf__wl_names_add(&p->wl->locals, WL_SAMPLE_VAR,
					strlen(WL_SAMPLE_VAR), &slot))
			return nomem(p);
		if ((r = emit(p, P_LET, &at)))
			return r;
		OP(p, at)->slot = slot;
		OP(p, at)->a = *val;
		memset(val, 0, sizeof(*val));
		p->hidden_ok = true;
		r = eevdf__wl_compile_text(p, WL_SAMPLE_VAR, val);
		if (!r)
			r = eevdf__wl_compile_text(p, WL_SAMPLE_VAR " != 0",
						   &cond);
		p->hidden_ok = false;
		if (r)
			return r;
	}
	if ((r = emit(p, P_IF, &at))) {
		eevdf__wl_pval_free(&cond);
		return r;
	}
	OP(p, at)->a = cond;
	OP(p, at)->len = 1;
	return 0;
}

static int op_record(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		     u32 *main)
{
	static const char *const keys[] = { "metric", "value", "key", "cost" };
	struct pval val = { .kind = PV_NONE }, key = val;
	const struct wl_metric *m;
	char *src = NULL;
	size_t old;
	int idx, r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = metric_key(p, v, &idx)))
		return r;
	m = &p->wl->metrics[idx];
	if (m->type != MET_HIST && m->type != MET_VALUE)
		return fail(p,
			    "metric '%s' is a %s: record takes a hist or "
			    "value metric%s",
			    m->name, eevdf__metric_type_name(m->type),
			    m->type == MET_COUNTER ? " (use count)" : "");
	if (get(v, "key") && !m->keyed) {
		old = path_key(p, "key");
		r = fail(p, "metric '%s' is not keyed", m->name);
		path_pop(p, old);
		return r;
	}
	if (!get(v, "value"))
		return fail(p, "missing key 'value'");
	old = path_key(p, "value");
	r = eevdf__wl_operand(p, get(v, "value"), VK_VALUE, &val, &src);
	path_pop(p, old);
	if (!r)
		r = eevdf__wl_operand_key(p, v, "key", VK_VALUE, &key);
	/*
	 * Without a cost or a key, the guard would change nothing the
	 * engine's own drop does not: it cost a second evaluation of the
	 * value and an if (schbench's two latencies: 3 % of its
	 * instructions).
	 */
	if (!r && m->drop_zero && m->type == MET_HIST &&
	    (get(v, "key") || get(v, "cost")))
		r = drop_zero_guard(p, &val, src);
	free(src);
	if (!r)
		r = emit(p, P_RECORD, main);
	if (r) {
		eevdf__wl_pval_free(&val);
		eevdf__wl_pval_free(&key);
		return r;
	}
	OP(p, *main)->slot = (u32)idx;
	OP(p, *main)->a = val;
	OP(p, *main)->b = key;
	return 0;
}

static int op_count(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		    u32 *main)
{
	static const char *const keys[] = { "metric", "add", "cost" };
	const struct wl_metric *m;
	int idx, r;

	(void)depth;
	(void)adv;
	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = metric_key(p, v, &idx)))
		return r;
	m = &p->wl->metrics[idx];
	if (m->type != MET_COUNTER)
		return fail(p, "metric '%s' is a %s: count takes a counter%s",
			    m->name, eevdf__metric_type_name(m->type),
			    m->type == MET_RATE ? "" : " (use record)");
	if ((r = emit(p, P_COUNT, main)))
		return r;
	OP(p, *main)->slot = (u32)idx;
	return eevdf__wl_operand_key(p, v, "add", VK_VALUE, &OP(p, *main)->a);
}

/* Variables ------------------------------------------------------------- */

/* {"@x": E, "@@g": E}: one LET per key, in order; *first the first. */
static int lets(struct wl_parser *p, const cJSON *v, u32 *first)
{
	const cJSON *it;
	u32 at = 0;
	int r = 0;

	*first = NO_OP;
	if (!cJSON_IsObject(v))
		return fail(p, "must be an object of \"@variable\": value");
	if (!v->child)
		return fail(p, "must set at least one variable");
	for (it = v->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		size_t old = path_key(p, k);
		bool g = false;

		for (const cJSON *jt = v->child; !r && jt != it; jt = jt->next)
			if (strcmp(jt->string, k) == 0)
				r = fail(p, "duplicate key '%s'", k);
		if (!r)
			r = emit(p, P_LET, &at);
		if (!r)
			r = eevdf__wl_var(p, k, true, &OP(p, at)->slot, &g);
		if (!r && g)
			OP(p, at)->flags |= SLOT_GLOBAL;
		if (!r)
			r = eevdf__wl_operand(p, it, VK_VALUE, &OP(p, at)->a,
					      NULL);
		if (!r && *first == NO_OP)
			*first = at;
		path_pop(p, old);
	}
	return r;
}

static int op_let(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		  u32 *main)
{
	(void)depth;
	(void)adv;
	return lets(p, v, main);
}

/* Structured ops --------------------------------------------------------- */

static int check_depth(struct wl_parser *p, int depth)
{
	if (depth >= WL_MAX_DEPTH)
		return fail(p,
			    "loops may nest at most %d deep, counting if, "
			    "choose and call bodies",
			    WL_MAX_DEPTH);
	return 0;
}

/* A body array at obj.key (may be empty when empty_ok). */
static int body_key(struct wl_parser *p, const cJSON *obj, const char *key,
		    int depth, bool empty_ok, bool *adv)
{
	const cJSON *b = get(obj, key);
	size_t old;
	int r;

	if (!b)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	if (!cJSON_IsArray(b))
		r = fail(p, "must be an array of ops");
	else if (!b->child && !empty_ok)
		r = fail(p, "must not be empty");
	else
		r = compile_ops(p, b, depth + 1, adv);
	path_pop(p, old);
	return r;
}

static int loop_count(struct wl_parser *p, const cJSON *v, struct pop *op,
		      bool *forever)
{
	const cJSON *c = get(v, "count");
	size_t old;
	int r;

	*forever = !c;
	if (!c)
		return 0;
	old = path_key(p, "count");
	if (cJSON_IsString(c) && strcmp(c->valuestring, "forever") == 0) {
		*forever = true;
		r = 0;
	} else {
		r = eevdf__wl_operand(p, c, VK_VALUE, &op->a, NULL);
		if (!r && op->a.kind == PV_CONST &&
		    (op->a.c < 0 || op->a.c > WL_MAX_LOOP_COUNT))
			r = fail(p, "must be between 0 and %lld",
				 (long long)WL_MAX_LOOP_COUNT);
	}
	path_pop(p, old);
	return r;
}

static int op_loop(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "count", "var",   "from",
					    "step",  "while", "until",
					    "check", "body",  "cost" };
	const cJSON *var = get(v, "var"), *chk = get(v, "check");
	bool forever, g = false, body_adv = false;
	struct pop *op;
	size_t old;
	int r;

	if (!cJSON_IsObject(v))
		return fail(p, "must be an object with \"body\" and an "
			       "optional \"count\"");
	if ((r = check_depth(p, depth)) ||
	    (r = eevdf__wl_check_keys(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = emit(p, P_LOOP, main)))
		return r;
	op = OP(p, *main);
	if ((r = loop_count(p, v, op, &forever)) ||
	    (r = eevdf__wl_operand_key(p, v, "while", VK_COND, &op->b)) ||
	    (r = eevdf__wl_operand_key(p, v, "until", VK_COND, &op->c)))
		return r;
	if (var) {
		old = path_key(p, "var");
		r = cJSON_IsString(var) ?
			    eevdf__wl_var(p, var->valuestring, true, &op->slot,
					  &g) :
			    fail(p, "must be a variable name such as \"@i\"");
		path_pop(p, old);
		if (g)
			op->flags |= SLOT_GLOBAL;
		if (!r &&
		    !(r = eevdf__wl_operand_key(p, v, "from", VK_VALUE,
						&op->field[0])) &&
		    op->field[0].kind == PV_NONE)
			op->field[0].kind = PV_CONST;
		if (!r &&
		    !(r = eevdf__wl_operand_key(p, v, "step", VK_VALUE,
						&op->field[1])) &&
		    op->field[1].kind == PV_NONE) {
			op->field[1].kind = PV_CONST;
			op->field[1].c = 1;
		}
	} else if (get(v, "from") || get(v, "step")) {
		r = fail(p, "'from' and 'step' need a 'var'");
	}
	if (r)
		return r;
	if (chk) {
		old = path_key(p, "check");
		if (cJSON_IsString(chk) &&
		    strcmp(chk->valuestring, "after") == 0)
			op->flags |= LOOP_CHECK_AFTER;
		else if (!cJSON_IsString(chk) ||
			 strcmp(chk->valuestring, "before") != 0)
			r = fail(p, "must be \"before\" or \"after\"");
		path_pop(p, old);
		if (r)
			return r;
	}
	if ((r = body_key(p, v, "body", depth, false, &body_adv)))
		return r;
	op = OP(p, *main);
	op->len = p->prog->nr_ops - *main - 1;
	/*
	 * A loop with no end that never consumes time would spin the event
	 * loop at one instant for ever.
	 */
	if (forever && op->b.kind == PV_NONE && op->c.kind == PV_NONE &&
	    !body_adv)
		return fail(p, "a loop without count, while or until must "
			       "contain a run, spin or sleep of non-zero "
			       "duration, a blocking op or an op that costs "
			       "CPU (yield, signal, spawn, setattr, or a "
			       "\"cost\") (it would never advance time)");
	*adv = body_adv;
	return 0;
}

static int op_if(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		 u32 *main)
{
	static const char *const keys[] = { "cond", "then", "else", "cost" };
	bool a1 = false, a2 = false;
	u32 mid;
	int r;

	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = check_depth(p, depth)))
		return r;
	if (!get(v, "cond"))
		return fail(p, "missing key 'cond'");
	if (!get(v, "then") && !get(v, "else"))
		return fail(p, "missing key 'then'");
	if ((r = emit(p, P_IF, main)) ||
	    (r = eevdf__wl_operand_key(p, v, "cond", VK_COND,
				       &OP(p, *main)->a)))
		return r;
	if (get(v, "then") && (r = body_key(p, v, "then", depth, true, &a1)))
		return r;
	mid = p->prog->nr_ops;
	if (get(v, "else") && (r = body_key(p, v, "else", depth, true, &a2)))
		return r;
	OP(p, *main)->len = mid - *main - 1;
	OP(p, *main)->len2 = p->prog->nr_ops - mid;
	*adv = a1 || a2;
	return 0;
}

static int op_choose(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		     u32 *main)
{
	static const char *const keys[] = { "weight", "body" };
	const cJSON *it;
	s64 total = 0, w;
	size_t i = 0, old;
	u32 at = 0, end;
	int r;

	if (!cJSON_IsArray(v) || !v->child)
		return fail(p, "must be a non-empty array of {\"weight\": W, "
			       "\"body\": [...]}");
	if ((r = check_depth(p, depth)) || (r = emit(p, P_CHOOSE, main)))
		return r;
	for (it = v->child; it; it = it->next, i++) {
		bool a = false;

		old = path_index(p, i);
		if (!cJSON_IsObject(it))
			r = fail(p, "a branch must be an object");
		if (!r)
			r = eevdf__wl_check_keys(p, it, keys, ARRAY_SIZE(keys),
						 NULL, 0);
		if (!r && !get(it, "weight"))
			r = fail(p, "missing key 'weight'");
		if (!r) {
			size_t o2 = path_key(p, "weight");

			r = eevdf__wl_ld_int(p, get(it, "weight"), 0,
					     WL_MAX_INT, &w);
			path_pop(p, o2);
		}
		if (!r)
			r = emit(p, P_BRANCH, &at);
		if (!r) {
			OP(p, at)->a.kind = PV_CONST;
			OP(p, at)->a.c = w;
			total += w;
			if (total > (s64)1 << 62)
				r = fail(p, "the weights add up to more than "
					    "2^62");
		}
		if (!r)
			r = body_key(p, it, "body", depth, true, &a);
		if (!r)
			OP(p, at)->len = p->prog->nr_ops - at - 1;
		path_pop(p, old);
		if (r)
			return r;
		*adv = *adv || a;
	}
	if (total == 0)
		return fail(p, "the weights add up to 0");
	end = p->prog->nr_ops;
	OP(p, *main)->len = end - *main - 1;
	for (at = *main + 1; at < end; at += 1 + OP(p, at)->len)
		OP(p, at)->len2 = end - (at + 1 + OP(p, at)->len);
	return 0;
}

/* {"macro": N, "args": {"@x": E}}: the args as lets, then the body. */
static int op_call(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		   u32 *main)
{
	static const char *const keys[] = { "macro", "args" };
	const cJSON *m = get(v, "macro"), *a = get(v, "args"), *def = NULL;
	char name[WL_PATH_MAX], sb[WL_SHOWN_MAX], *path, *via = NULL;
	size_t old, plen;
	u32 first;
	int r;

	if ((r = args(p, v, keys, ARRAY_SIZE(keys), NULL, 0)) ||
	    (r = check_depth(p, depth)))
		return r;
	if (!m)
		return fail(p, "missing key 'macro'");
	old = path_key(p, "macro");
	if (!cJSON_IsString(m) || !m->valuestring)
		r = fail(p, "must be the name of a macro");
	else if (!(def = get(p->macros, m->valuestring)))
		r = fail(p, "no macro named '%s'", SHOWN(sb, m->valuestring));
	for (u32 i = 0; !r && i < p->nr_calls; i++)
		if (strcmp(p->calls[i], m->valuestring) == 0)
			r = fail(p, "macro '%s' calls itself", p->calls[i]);
	path_pop(p, old);
	if (r)
		return r;
	if (a) {
		old = path_key(p, "args");
		r = lets(p, a, &first);
		path_pop(p, old);
		if (r)
			return r;
	}
	*main = NO_OP;
	/* compile the body where it is written, saying where it is called */
	path = eevdf__wl_strdup(p->path);
	if (!path)
		return nomem(p);
	plen = p->plen;
	if (!p->via[0]) {
		via = path;
		eevdf__wl_set_str(p->via, sizeof(p->via), path);
	}
	snprintf(name, sizeof(name), "macros.%s", m->valuestring);
	eevdf__wl_set_str(p->path, sizeof(p->path), name);
	p->plen = strlen(p->path);
	p->calls[p->nr_calls++] = m->valuestring;
	r = body_key(p, def, "body", depth, false, adv);
	p->nr_calls--;
	eevdf__wl_set_str(p->path, sizeof(p->path), path);
	p->plen = plen;
	if (via)
		p->via[0] = '\0';
	free(path);
	return r;
}

/* Dispatch --------------------------------------------------------------- */

typedef int (*op_fn)(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		     u32 *main);

static const struct {
	const char *name;
	op_fn fn;
} op_table[] = {
	{ "run", op_run },
	{ "spin", op_spin },
	{ "sleep", op_sleep },
	{ "sleep_until", op_sleep_until },
	{ "yield", op_yield },
	{ "send", op_send },
	{ "recv", op_recv },
	{ "post", op_post },
	{ "wait", op_wait },
	{ "set", op_set },
	{ "wake", op_wake },
	{ "block", op_block },
	{ "lock", op_lock },
	{ "unlock", op_unlock },
	{ "barrier", op_barrier },
	{ "push", op_push },
	{ "wake_list", op_wake_list },
	{ "exit", op_exit },
	{ "join", op_join },
	{ "loop", op_loop },
	{ "choose", op_choose },
	{ "if", op_if },
	{ "let", op_let },
	{ "call", op_call },
	{ "record", op_record },
	{ "count", op_count },
	{ "mark", op_mark },
	{ "signal", op_signal },
	{ "spawn", op_spawn },
	{ "setattr", op_setattr },
	{ "timer_wait", op_timer_wait },
	{ "wake_and_block", op_wake_and_block },
	/* the I/O model's (workload_io.c) */
	{ "open", eevdf__wl_op_open },
	{ "close", eevdf__wl_op_close },
	{ "read", eevdf__wl_op_read },
	{ "write", eevdf__wl_op_write },
	{ "fsync", eevdf__wl_op_fsync },
	{ "rename", eevdf__wl_op_rename },
	{ "unlink", eevdf__wl_op_unlink },
	{ "mkdir", eevdf__wl_op_mkdir },
	{ "rmdir", eevdf__wl_op_rmdir },
	{ "stat", eevdf__wl_op_stat },
	{ "readdir", eevdf__wl_op_readdir },
	{ "queue_work", eevdf__wl_op_queue_work },
	{ "nbench", eevdf__wl_op_nbench },
};

/* The op's "cost": beside the op key, or inside its argument object. */
static int op_cost(struct wl_parser *p, const cJSON *op, const cJSON *v,
		   const char *name, u32 main, bool *adv)
{
	const cJSON *c = get(op, "cost"),
		    *in = cJSON_IsObject(v) && strcmp(name, "let") ?
				  get(v, "cost") :
				  NULL;
	size_t old, o2;
	int r;

	if (!c && !in)
		return 0;
	if (c && in)
		return fail(p, "'cost' is given twice");
	if (main == NO_OP)
		return fail(p,
			    "'cost' is not allowed on %s (put it on the "
			    "%s)",
			    name,
			    strcmp(name, "call") ? "'wake' or the 'block'" :
						   "ops of the macro");
	old = c ? 0 : path_key(p, name);
	o2 = path_key(p, "cost");
	r = eevdf__wl_operand(p, c ? c : in, VK_DUR, &OP(p, main)->cost, NULL);
	path_pop(p, o2);
	if (!c)
		path_pop(p, old);
	if (!r && !is_const(&OP(p, main)->cost, 0))
		*adv = true;
	return r;
}

/*
 * True when the engine charges CPU by default for an op that neither
 * blocks nor runs: with it a loop of them advances time.  The machine of
 * the run is not known yet: this judges by the defaults and the file's
 * own "costs" (a machine that zeroes such a cost meets the run's
 * livelock guard instead).
 */
static bool costs_by_default(const struct wl_parser *p, enum popcode code)
{
	struct cost_table c;

	/* sched_yield() is a syscall: a loop of yields spends CPU (the
	 * 6.18 yield forfeit is about exactly such a loop) */
	if (code != P_SIGNAL && code != P_SPAWN && code != P_SETATTR &&
	    code != P_YIELD)
		return false;
	eevdf__costs_default(&c);
	eevdf__costs_apply(&c, &p->wl->costs, p->wl->cost_set);
	return eevdf__op_default_cost(&c, code) > 0;
}

static int compile_op(struct wl_parser *p, const cJSON *op, int depth,
		      bool *adv)
{
	const cJSON *v = NULL;
	char kb[WL_SHOWN_MAX];
	const char *k = "";
	u32 main = NO_OP;
	int keys = 0, costs = 0;
	size_t old;
	int r;

	*adv = false;
	for (const cJSON *it = cJSON_IsObject(op) ? op->child : NULL; it;
	     it = it->next) {
		if (it->string && strcmp(it->string, "cost") == 0) {
			costs++;
		} else {
			v = it;
			keys++;
		}
	}
	if (keys != 1 || costs > 1)
		return fail(p, "an op must be an object with exactly one key "
			       "(and optionally \"cost\")");
	k = v->string;
	if (p->prog->nr_ops >= WL_MAX_OPS)
		return fail(p,
			    "a program may have at most %d ops, loop "
			    "bodies and macros included",
			    WL_MAX_OPS);
	for (size_t i = 0; i < ARRAY_SIZE(op_table); i++) {
		if (strcmp(k, op_table[i].name) != 0)
			continue;
		old = path_key(p, k);
		r = op_table[i].fn(p, v, depth, adv, &main);
		path_pop(p, old);
		if (r || (r = op_cost(p, op, v, k, main, adv)))
			return r;
		if (main != NO_OP && OP(p, main)->cost.kind == PV_NONE &&
		    costs_by_default(p, OP(p, main)->code))
			*adv = true;
		return 0;
	}
	return fail(p, "unknown op '%s'", SHOWN(kb, k));
}

static int compile_ops(struct wl_parser *p, const cJSON *arr, int depth,
		       bool *adv)
{
	const cJSON *it;
	size_t i = 0, old;
	bool a;
	int r;

	for (it = arr->child; it; it = it->next, i++) {
		old = path_index(p, i);
		r = compile_op(p, it, depth, &a);
		path_pop(p, old);
		if (r)
			return r;
		*adv = *adv || a;
	}
	return 0;
}

/*
 * "on_signal": each handler body after the main program (which ends at
 * main_ops), closed by a SIGRETURN; handler[sig] is 1 + its first pc.
 */
static int compile_handlers(struct wl_parser *p, const cJSON *obj)
{
	struct program *prog = p->prog;
	const cJSON *it;
	char sb[WL_SHOWN_MAX];
	bool adv = false;
	size_t old;
	u32 at, end;
	int sig, r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of signal: [ops]");
	prog->main_ops = prog->nr_ops;
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";

		old = path_key(p, k);
		sig = eevdf__wl_signo(k);
		if (!sig)
			r = fail(p, "unknown signal '%s' (" SIG_EXPECTED ")",
				 SHOWN(sb, k));
		else if (sig == SIGNO_KILL)
			r = fail(p, "SIGKILL cannot be caught");
		else if (prog->handler[sig])
			r = fail(p, "a second handler for SIG%s",
				 k[0] == 'S' ? k + 3 : k);
		else if (!cJSON_IsArray(it))
			r = fail(p, "must be an array of ops (empty: the "
				    "signal is ignored)");
		at = prog->nr_ops;
		if (!r)
			r = compile_ops(p, it, 0, &adv);
		if (!r)
			r = emit(p, P_SIGRETURN, &end);
		if (!r)
			prog->handler[sig] = at + 1;
		path_pop(p, old);
	}
	return r;
}

int eevdf__wl_compile_program(struct wl_parser *p, const cJSON *def,
			      const struct wl_init *init, u32 nr_init,
			      struct program **out)
{
	struct program *prog = calloc(1, sizeof(*prog));
	const cJSON *h = get(def, "on_signal");
	bool adv = false;
	size_t old;
	u32 at;
	int r = 0;

	if (!prog)
		return nomem(p);
	prog->refs = 1;
	p->prog = prog;
	p->cap_ops = 0;
	for (u32 k = 0; !r && k < nr_init; k++) {
		r = emit(p, P_LET, &at);
		if (!r) {
			OP(p, at)->slot = init[k].slot;
			OP(p, at)->a.kind = PV_CONST;
			OP(p, at)->a.c = init[k].v;
		}
	}
	if (!r) {
		old = path_key(p, "program");
		r = compile_ops(p, get(def, "program"), 0, &adv);
		path_pop(p, old);
	}
	if (!r && h) {
		old = path_key(p, "on_signal");
		r = compile_handlers(p, h);
		path_pop(p, old);
	}
	if (!r && eevdf__program_index(prog))
		r = nomem(p);
	p->prog = NULL;
	if (r) {
		eevdf__program_unref(prog);
		return r;
	}
	*out = prog;
	return 0;
}
