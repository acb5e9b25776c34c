/* SPDX-License-Identifier: MIT */
/* Workload expressions: lexer, folding compiler to postfix code, evaluator. */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "expr.h"

/*
 * Instructions.  Operands live on a stack; each instruction pops what it
 * needs and pushes one result, except the two jumps that implement && and
 * || without evaluating their right operand:
 *
 *	a && b:  <a> JFALSE L <b> BOOL L:
 *	a || b:  <a> JTRUE  L <b> BOOL L:
 *
 * JFALSE leaves the 0 in place and jumps when the top is 0, else pops it;
 * JTRUE turns a non-zero top into 1 and jumps, else pops.  Either way one
 * value (0/1) is on the stack at L.
 */
enum {
	OP_CONST, /* push arg */
	OP_LOCAL, /* push ctx->locals[arg] */
	OP_GLOBAL,
	OP_NOW,
	OP_STOP,
	/* unary */
	OP_NEG,
	OP_NOT,
	OP_BOOL,
	OP_ABS,
	OP_SEC,
	OP_US,
	/* binary */
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_SHL,
	OP_SHR,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_MIN,
	OP_MAX,
	OP_CEIL,
	OP_FLOOR,
	/* control */
	OP_JFALSE,
	OP_JTRUE,
};

/* How an operator is named in messages. */
static const char *const op_names[] = {
	[OP_NEG] = "unary '-'", [OP_ABS] = "abs()",	[OP_ADD] = "'+'",
	[OP_SUB] = "'-'",	[OP_MUL] = "'*'",	[OP_DIV] = "'/'",
	[OP_MOD] = "'%'",	[OP_SHL] = "'<<'",	[OP_SHR] = "'>>'",
	[OP_CEIL] = "ceil()",	[OP_FLOOR] = "floor()",
};

/*
 * 16 bytes: the source column fits in what would otherwise be padding, so
 * run-time errors can point at the operator for free.
 */
struct expr_insn {
	uint8_t op;
	u32 col;
	s64 arg; /* constant, slot, or jump target (an index into code) */
};

/*
 * The shapes most run-time expressions take ("now", "!stop", "@st == EOF",
 * "now - @t0", "us(now) - us(@t)"): one or two operands, each a constant
 * or a load under at most one unary operator, and a binary operator
 * joining two.  The compiler recognises them in the final code and the
 * evaluator computes them directly, without the stack machine's dispatch
 * loop; anything unusual on the way (an error to report, a missing
 * context) falls back to the stack machine, which then says what went
 * wrong exactly as it would have.
 */
struct expr_fast {
	uint8_t n;	 /* operands: 0 (no fast form), 1 or 2 */
	uint8_t bin;	 /* the binary operator when n == 2 */
	uint8_t load[2]; /* OP_CONST .. OP_STOP */
	uint8_t un[2];	 /* a unary operator, or OP_CONST for none */
	uint8_t post;	 /* then "op post_arg" ("(x - y) != 0"), or OP_CONST */
	s64 arg[2];	 /* the loads' arguments */
	s64 post_arg;
};

struct expr {
	u32 n;	       /* instructions */
	u32 depth;     /* stack slots evaluation needs */
	bool constant; /* folded: value is the result, code is one OP_CONST */
	s64 value;
	struct expr_fast fast;
	struct expr_insn code[];
};

/* Why an operation failed; the column and operator come from the insn. */
enum ek {
	EK_OK,
	EK_DIV0,
	EK_OVERFLOW,
	EK_SHIFT,
	EK_BADOP, /* an operator the compiler never emits: a bug */
};

#define seterr eevdf__set_err

/* Floor division, b != 0 and not (INT64_MIN, -1): checked by callers. */
static s64 div_floor(s64 a, s64 b)
{
	s64 q = a / b;

	/*
	 * A non-zero remainder means |b| >= 2, so |q| <= |a| / 2 and the
	 * correction cannot overflow.
	 */
	if (a % b != 0 && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static s64 div_ceil(s64 a, s64 b)
{
	s64 q = a / b;

	if (a % b != 0 && ((a < 0) == (b < 0)))
		q++;
	return q;
}

/*
 * Shared by the folder and the evaluator, so both agree by construction.
 * Inline even in the fast form (run_fast()), where gcc kept it a call:
 * schbench's "us(now) - us(@t)" records make two calls an evaluation, and
 * inlining took 0.4 % off a 30 ms run's instructions.
 */
static inline __attribute__((always_inline)) enum ek apply_unary(uint8_t op,
								 s64 a, s64 *r)
{
	switch (op) {
	case OP_NEG:
		if (__builtin_sub_overflow((s64)0, a, r))
			return EK_OVERFLOW;
		return EK_OK;
	case OP_NOT:
		*r = !a;
		return EK_OK;
	case OP_BOOL:
		*r = a != 0;
		return EK_OK;
	case OP_ABS:
		if (a == INT64_MIN)
			return EK_OVERFLOW;
		*r = a < 0 ? -a : a;
		return EK_OK;
	case OP_SEC:
		*r = div_floor(a, EEVDF_NSEC_PER_SEC);
		return EK_OK;
	case OP_US:
		*r = eevdf__us_of(a);
		return EK_OK;
	}
	return EK_BADOP;
}

static enum ek apply_binary(uint8_t op, s64 a, s64 b, s64 *r)
{
	switch (op) {
	case OP_ADD:
		return __builtin_add_overflow(a, b, r) ? EK_OVERFLOW : EK_OK;
	case OP_SUB:
		return __builtin_sub_overflow(a, b, r) ? EK_OVERFLOW : EK_OK;
	case OP_MUL:
		return __builtin_mul_overflow(a, b, r) ? EK_OVERFLOW : EK_OK;
	case OP_DIV:
	case OP_CEIL:
	case OP_FLOOR:
		if (b == 0)
			return EK_DIV0;
		if (a == INT64_MIN && b == -1)
			return EK_OVERFLOW;
		*r = op == OP_DIV  ? a / b :
		     op == OP_CEIL ? div_ceil(a, b) :
				     div_floor(a, b);
		return EK_OK;
	case OP_MOD:
		if (b == 0)
			return EK_DIV0;
		/* INT64_MIN % -1 is undefined in C, but 0 mathematically. */
		*r = b == -1 ? 0 : a % b;
		return EK_OK;
	case OP_SHL:
		if (b < 0 || b > 63)
			return EK_SHIFT;
		/*
		 * a << b as the product a * 2^b, so that a shifted-out or
		 * sign-changing bit is an overflow rather than silent
		 * wrapping; 2^63 itself does not fit, so b = 63 is special.
		 */
		if (b == 63) {
			if (a != 0 && a != -1)
				return EK_OVERFLOW;
			*r = a == 0 ? 0 : INT64_MIN;
			return EK_OK;
		}
		return __builtin_mul_overflow(a, (s64)1 << b, r) ? EK_OVERFLOW :
								   EK_OK;
	case OP_SHR:
		if (b < 0 || b > 63)
			return EK_SHIFT;
		/* Arithmetic shift without implementation-defined >>. */
		*r = a >= 0 ? a >> b : ~(~a >> b);
		return EK_OK;
	case OP_LT:
		*r = a < b;
		return EK_OK;
	case OP_LE:
		*r = a <= b;
		return EK_OK;
	case OP_GT:
		*r = a > b;
		return EK_OK;
	case OP_GE:
		*r = a >= b;
		return EK_OK;
	case OP_EQ:
		*r = a == b;
		return EK_OK;
	case OP_NE:
		*r = a != b;
		return EK_OK;
	case OP_MIN:
		*r = a < b ? a : b;
		return EK_OK;
	case OP_MAX:
		*r = a > b ? a : b;
		return EK_OK;
	}
	return EK_BADOP;
}

/* The error code and message of a failed operation. */
static int op_error(enum ek k, const struct expr_insn *in, s64 b, char *err,
		    size_t errlen)
{
	const char *name = (size_t)in->op < ARRAY_SIZE(op_names) &&
					   op_names[in->op] ?
				   op_names[in->op] :
				   "?";

	switch (k) {
	case EK_DIV0:
		seterr(err, errlen,
		       "column %" PRIu32 ": division by zero in %s", in->col,
		       name);
		return EEVDF_EINVAL;
	case EK_SHIFT:
		seterr(err, errlen,
		       "column %" PRIu32 ": shift count %" PRId64
		       " is outside 0..63 in %s",
		       in->col, b, name);
		return EEVDF_ERANGE;
	case EK_BADOP:
		seterr(err, errlen,
		       "column %" PRIu32
		       ": internal invariant failed: unknown operator %u",
		       in->col, (unsigned int)in->op);
		return EEVDF_EINTERNAL;
	case EK_OVERFLOW:
	case EK_OK:
		break;
	}
	seterr(err, errlen, "column %" PRIu32 ": integer overflow in %s",
	       in->col, name);
	return EEVDF_ERANGE;
}

static bool is_unary_op(uint8_t op)
{
	return op >= OP_NEG && op <= OP_US;
}

static bool is_binary_op(uint8_t op)
{
	return op >= OP_ADD && op <= OP_FLOOR;
}

/* Run the code; e->depth <= EXPR_MAX_DEPTH was checked at compile time. */
static int run(const struct expr *e, const struct expr_ctx *ctx, s64 *out,
	       char *err, size_t errlen)
{
	s64 st[EXPR_MAX_DEPTH];
	size_t sp = 0;
	u32 pc = 0;
	enum ek k;

	while (pc < e->n) {
		const struct expr_insn *in = &e->code[pc++];
		s64 a, b;

		switch (in->op) {
		case OP_CONST:
			st[sp++] = in->arg;
			continue;
		case OP_LOCAL:
			if (!ctx || (u64)in->arg >= ctx->nr_locals)
				goto bad_slot;
			st[sp++] = ctx->locals[in->arg];
			continue;
		case OP_GLOBAL:
			if (!ctx || (u64)in->arg >= ctx->nr_globals)
				goto bad_slot;
			st[sp++] = ctx->globals[in->arg];
			continue;
		case OP_NOW:
		case OP_STOP:
			if (!ctx)
				goto bad_slot;
			st[sp++] = in->op == OP_NOW ? ctx->now : ctx->stop;
			continue;
		case OP_JFALSE:
			if (st[sp - 1] == 0)
				pc = (u32)in->arg;
			else
				sp--;
			continue;
		case OP_JTRUE:
			if (st[sp - 1] != 0) {
				st[sp - 1] = 1;
				pc = (u32)in->arg;
			} else {
				sp--;
			}
			continue;
		default:
			break;
		}
		if (is_unary_op(in->op)) {
			a = st[sp - 1];
			b = 0;
			k = apply_unary(in->op, a, &st[sp - 1]);
		} else {
			b = st[--sp];
			a = st[sp - 1];
			k = apply_binary(in->op, a, b, &st[sp - 1]);
		}
		if (k != EK_OK)
			return op_error(k, in, b, err, errlen);
	}
	if (sp != 1) {
		seterr(err, errlen,
		       "internal invariant failed: %u values left on the "
		       "stack",
		       (unsigned int)sp);
		return EEVDF_EINTERNAL;
	}
	*out = st[0];
	return 0;

bad_slot : {
	const struct expr_insn *in = &e->code[pc - 1];

	if (!ctx)
		seterr(err, errlen,
		       "column %" PRIu32 ": no context to read a variable from",
		       in->col);
	else
		seterr(err, errlen,
		       "column %" PRIu32 ": %s slot %" PRId64
		       " is out of range",
		       in->col, in->op == OP_LOCAL ? "local" : "global",
		       in->arg);
}
	return EEVDF_EINVAL;
}

/* A load of the fast form; false where run() would report an error. */
static inline bool fast_load(uint8_t op, s64 arg, const struct expr_ctx *ctx,
			     s64 *v)
{
	switch (op) {
	case OP_CONST:
		*v = arg;
		return true;
	case OP_LOCAL:
		if (!ctx || (u64)arg >= ctx->nr_locals)
			return false;
		*v = ctx->locals[arg];
		return true;
	case OP_GLOBAL:
		if (!ctx || (u64)arg >= ctx->nr_globals)
			return false;
		*v = ctx->globals[arg];
		return true;
	case OP_NOW:
		if (!ctx)
			return false;
		*v = ctx->now;
		return true;
	case OP_STOP:
		if (!ctx)
			return false;
		*v = ctx->stop;
		return true;
	}
	return false;
}

/* Operand k of the fast form, under its unary operator if any. */
static inline bool fast_operand(const struct expr_fast *f, unsigned k,
				const struct expr_ctx *ctx, s64 *v)
{
	if (!fast_load(f->load[k], f->arg[k], ctx, v))
		return false;
	return f->un[k] == OP_CONST || apply_unary(f->un[k], *v, v) == EK_OK;
}

/*
 * Evaluate e's fast form in the order run() would (left operand, then
 * right, then the operator): true with *out, or false, *out untouched,
 * when run() is to evaluate it and report what failed.
 */
static bool run_fast(const struct expr *e, const struct expr_ctx *ctx, s64 *out)
{
	const struct expr_fast *f = &e->fast;
	s64 a, b;

	if (!fast_operand(f, 0, ctx, &a))
		return false;
	if (f->n == 2 && (!fast_operand(f, 1, ctx, &b) ||
			  apply_binary(f->bin, a, b, &a) != EK_OK))
		return false;
	if (f->post != OP_CONST &&
	    apply_binary(f->post, a, f->post_arg, &a) != EK_OK)
		return false;
	*out = a;
	return true;
}

int eevdf__expr_eval(const struct expr *e, const struct expr_ctx *ctx,
		     int64_t *out, char *err, size_t errlen)
{
	if (!e || !out) {
		seterr(err, errlen, "no expression to evaluate");
		return EEVDF_EINVAL;
	}
	if (e->constant) {
		*out = e->value;
		return 0;
	}
	if (e->fast.n && run_fast(e, ctx, out))
		return 0;
	return run(e, ctx, out, err, errlen);
}

bool eevdf__expr_is_fast(const struct expr *e)
{
	return e && !e->constant && e->fast.n != 0;
}

/* Operand k of f loads a local (under any operator): true with its slot. */
static bool local_slot(const struct expr_fast *f, unsigned k, uint32_t *slot)
{
	if (f->load[k] != OP_LOCAL || f->arg[k] < 0 ||
	    f->arg[k] > (s64)UINT32_MAX)
		return false;
	*slot = (uint32_t)f->arg[k];
	return true;
}

/* Operand k of f is a local under no operator: true with its slot. */
static bool plain_local(const struct expr_fast *f, unsigned k, uint32_t *slot)
{
	return f->un[k] == OP_CONST && local_slot(f, k, slot);
}

bool eevdf__expr_is_local(const struct expr *e, uint32_t *slot)
{
	const struct expr_fast *f = e ? &e->fast : NULL;

	return f && !e->constant && f->n == 1 && f->post == OP_CONST &&
	       plain_local(f, 0, slot);
}

/* f is "@x op k" or "k op @x", op commutative: true with slot and k. */
static bool local_and_const(const struct expr_fast *f, uint32_t *slot,
			    int64_t *k)
{
	for (unsigned i = 0; i < 2; i++)
		if (plain_local(f, i, slot) && f->load[!i] == OP_CONST &&
		    f->un[!i] == OP_CONST) {
			*k = f->arg[!i];
			return true;
		}
	return false;
}

static enum expr_form two_operand_form(const struct expr_fast *f,
				       uint32_t *slot, int64_t *k)
{
	switch (f->bin) {
	case OP_SUB:
		if (f->load[0] != OP_NOW || f->un[0] != f->un[1] ||
		    !local_slot(f, 1, slot))
			return EXPR_FORM_NONE;
		if (f->un[0] == OP_CONST)
			return EXPR_FORM_SINCE;
		return f->un[0] == OP_US ? EXPR_FORM_US_SINCE : EXPR_FORM_NONE;
	case OP_ADD:
		return local_and_const(f, slot, k) ? EXPR_FORM_ADD_K :
						     EXPR_FORM_NONE;
	case OP_EQ:
		return local_and_const(f, slot, k) ? EXPR_FORM_EQ_K :
						     EXPR_FORM_NONE;
	}
	return EXPR_FORM_NONE;
}

enum expr_form eevdf__expr_form(const struct expr *e, uint32_t *slot,
				int64_t *k)
{
	const struct expr_fast *f = e ? &e->fast : NULL;

	if (!f || e->constant || !f->n || f->post != OP_CONST)
		return EXPR_FORM_NONE;
	if (f->n == 2)
		return two_operand_form(f, slot, k);
	switch (f->load[0]) {
	case OP_LOCAL:
		return plain_local(f, 0, slot) ? EXPR_FORM_LOCAL :
						 EXPR_FORM_NONE;
	case OP_NOW:
		return f->un[0] == OP_CONST ? EXPR_FORM_NOW : EXPR_FORM_NONE;
	case OP_STOP:
		if (f->un[0] == OP_CONST)
			return EXPR_FORM_STOP;
		return f->un[0] == OP_NOT ? EXPR_FORM_NOT_STOP : EXPR_FORM_NONE;
	}
	return EXPR_FORM_NONE;
}

bool eevdf__expr_is_const(const struct expr *e, int64_t *value)
{
	if (!e || !e->constant)
		return false;
	if (value)
		*value = e->value;
	return true;
}

bool eevdf__expr_same(const struct expr *a, const struct expr *b)
{
	const struct expr_fast *x, *y;

	if (!a || !b)
		return a == b;
	x = &a->fast;
	y = &b->fast;
	if (a->n != b->n || a->depth != b->depth ||
	    a->constant != b->constant || a->value != b->value ||
	    x->n != y->n || x->bin != y->bin || x->load[0] != y->load[0] ||
	    x->load[1] != y->load[1] || x->un[0] != y->un[0] ||
	    x->un[1] != y->un[1] || x->post != y->post ||
	    x->arg[0] != y->arg[0] || x->arg[1] != y->arg[1] ||
	    x->post_arg != y->post_arg)
		return false;
	/* field by field: the padding of an insn is not ours to compare */
	for (u32 i = 0; i < a->n; i++)
		if (a->code[i].op != b->code[i].op ||
		    a->code[i].col != b->code[i].col ||
		    a->code[i].arg != b->code[i].arg)
			return false;
	return true;
}

void eevdf__expr_free(struct expr *e)
{
	free(e);
}

/* ---- Lexer ---- */

enum tok_kind {
	T_END,
	T_NUM,	/* val; big when the literal is exactly 2^63 */
	T_NAME, /* identifier or @name, @@name, @name.field */
	T_FUNC, /* identifier directly followed by '(' (not consumed) */
	T_LPAREN,
	T_RPAREN,
	T_COMMA,
	T_NOT,
	T_BINOP, /* op, prec; '-' is T_BINOP and also unary */
};

struct tok {
	enum tok_kind kind;
	size_t start, len;
	s64 val;
	bool big;
	uint8_t op;
	uint8_t prec;
};

struct parser {
	const char *src;
	size_t len;
	size_t pos;
	size_t colbase; /* columns of src[0] are colbase + 1 */
	expr_resolve_fn resolve;
	void *ud;
	struct tok tok;
	struct expr *e;
	u32 cap;
	unsigned nesting;
	char *err;
	size_t errlen;
};

static u32 colof(const struct parser *p, size_t at)
{
	size_t c = p->colbase + at + 1;

	return c > UINT32_MAX ? UINT32_MAX : (u32)c;
}

/* Record a syntax error at src offset at and return EEVDF_EPARSE. */
__attribute__((format(printf, 3, 4))) static int
perr(struct parser *p, size_t at, const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	seterr(p->err, p->errlen, "column %" PRIu32 ": %s", colof(p, at), msg);
	return EEVDF_EPARSE;
}

/* At most this much of a token is quoted in a message. */
#define QUOTE_MAX 32

static int quote_len(size_t len)
{
	return len > QUOTE_MAX ? QUOTE_MAX : (int)len;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t skip_ident(const struct parser *p, size_t i)
{
	while (i < p->len && is_ident_char(p->src[i]))
		i++;
	return i;
}

static size_t skip_digits(const struct parser *p, size_t i)
{
	while (i < p->len && is_digit(p->src[i]))
		i++;
	return i;
}

/*
 * DIGITS [ "." DIGITS ] [ UNIT ].  The whole alphanumeric run after the
 * digits is taken as the unit, so "2x" and "1e9" are errors about the unit
 * instead of a number followed by a stray name.
 */
static int lex_number(struct parser *p, struct tok *t)
{
	size_t s = t->start, i = skip_digits(p, s), frac = 0, unit, end;
	char buf[64];
	eevdf_time ns;
	int rc;

	if (i < p->len && p->src[i] == '.') {
		frac = i;
		i = skip_digits(p, i + 1);
		if (i == frac + 1)
			return perr(p, frac,
				    "a digit must follow the decimal point");
	}
	unit = i;
	end = skip_ident(p, i);
	t->kind = T_NUM;
	t->len = end - s;

	if (unit == end) {
		u64 v = 0;

		if (frac)
			return perr(p, s,
				    "a fraction needs a unit (ns, us, ms or s)"
				    ": '%.*s'",
				    quote_len(t->len), p->src + s);
		/* Up to 2^63, which only unary minus can make sense of. */
		for (i = s; i < end; i++) {
			u64 d = (u64)(p->src[i] - '0');

			if (v > ((u64)INT64_MAX + 1 - d) / 10)
				return perr(p, s,
					    "integer '%.*s' is out of range",
					    quote_len(t->len), p->src + s);
			v = v * 10 + d;
		}
		t->big = v > (u64)INT64_MAX;
		t->val = t->big ? INT64_MIN : (s64)v;
		return 0;
	}

	if (!((end - unit == 1 && p->src[unit] == 's') ||
	      (end - unit == 2 && p->src[unit + 1] == 's' &&
	       strchr("num", p->src[unit]))))
		return perr(p, unit,
			    "unknown unit '%.*s' (use ns, us, ms or s)",
			    quote_len(end - unit), p->src + unit);
	if (t->len >= sizeof(buf))
		return perr(p, s, "duration '%.*s...' is too long",
			    quote_len(t->len), p->src + s);
	memcpy(buf, p->src + s, t->len);
	buf[t->len] = '\0';
	rc = eevdf_parse_duration(buf, INT64_MAX, &ns);
	if (rc == EEVDF_ERANGE)
		return perr(p, s, "duration '%s' is out of range", buf);
	if (rc)
		return perr(p, s, "duration '%s' is not a whole number of ns",
			    buf);
	t->val = ns;
	return 0;
}

/* "@name", "@@name", each optionally followed by ".field". */
static int lex_var(struct parser *p, struct tok *t)
{
	size_t i = t->start + 1, id;

	if (i < p->len && p->src[i] == '@')
		i++;
	id = i;
	if (i >= p->len || !is_ident_start(p->src[i]))
		return perr(p, id, "expected a name after '%.*s'",
			    (int)(id - t->start), p->src + t->start);
	i = skip_ident(p, i);
	if (i < p->len && p->src[i] == '.') {
		id = ++i;
		if (i >= p->len || !is_ident_start(p->src[i]))
			return perr(p, id, "expected a field name after '.'");
		i = skip_ident(p, i);
	}
	t->kind = T_NAME;
	t->len = i - t->start;
	return 0;
}

static const struct {
	char text[3];
	uint8_t op;
	uint8_t prec;
} binops[] = {
	/* Two-character operators first, so "<<" is not lexed as '<'. */
	{ "||", OP_JTRUE, 1 }, { "&&", OP_JFALSE, 2 }, { "==", OP_EQ, 3 },
	{ "!=", OP_NE, 3 },    { "<=", OP_LE, 4 },     { ">=", OP_GE, 4 },
	{ "<<", OP_SHL, 5 },   { ">>", OP_SHR, 5 },    { "<", OP_LT, 4 },
	{ ">", OP_GT, 4 },     { "+", OP_ADD, 6 },     { "-", OP_SUB, 6 },
	{ "*", OP_MUL, 7 },    { "/", OP_DIV, 7 },     { "%", OP_MOD, 7 },
};

/* Read the next token into p->tok. */
static int next(struct parser *p)
{
	struct tok *t = &p->tok;
	const char *s = p->src;
	size_t i = p->pos, k;
	char c;
	int rc;

	while (i < p->len && is_space(s[i]))
		i++;
	memset(t, 0, sizeof(*t));
	t->start = i;
	t->len = 1;
	if (i >= p->len) {
		t->kind = T_END;
		t->len = 0;
		p->pos = i;
		return 0;
	}
	c = s[i];
	if (is_digit(c)) {
		rc = lex_number(p, t);
	} else if (is_ident_start(c)) {
		size_t j = skip_ident(p, i);

		t->len = j - i;
		while (j < p->len && is_space(s[j]))
			j++;
		t->kind = j < p->len && s[j] == '(' ? T_FUNC : T_NAME;
		rc = 0;
	} else if (c == '@') {
		rc = lex_var(p, t);
	} else if (c == '(' || c == ')' || c == ',') {
		t->kind = c == '(' ? T_LPAREN : c == ')' ? T_RPAREN : T_COMMA;
		rc = 0;
	} else {
		for (k = 0; k < ARRAY_SIZE(binops); k++) {
			size_t n = strlen(binops[k].text);

			if (n <= p->len - i &&
			    memcmp(s + i, binops[k].text, n) == 0) {
				t->kind = T_BINOP;
				t->len = n;
				t->op = binops[k].op;
				t->prec = binops[k].prec;
				break;
			}
		}
		if (k < ARRAY_SIZE(binops)) {
			rc = 0;
		} else if (c == '!') {
			t->kind = T_NOT;
			rc = 0;
		} else if (c == '$' && i + 1 < p->len && s[i + 1] == '{') {
			rc = perr(p, i,
				  "'${' is expanded at load time: interpolate "
				  "the string before compiling it");
		} else if (c == '=' || c == '&' || c == '|') {
			rc = perr(p, i,
				  "unexpected '%c' (did you mean '%c%c'?)", c,
				  c, c);
		} else if (c > ' ' && c < 0x7f) {
			rc = perr(p, i, "unexpected character '%c'", c);
		} else {
			rc = perr(p, i, "unexpected byte 0x%02x",
				  (unsigned)(unsigned char)c);
		}
	}
	if (rc)
		return rc;
	p->pos = t->start + t->len;
	return 0;
}

/* "unexpected X" for the current token. */
static int unexpected(struct parser *p, const char *what)
{
	const struct tok *t = &p->tok;

	if (t->kind == T_END)
		return perr(p, t->start, "%s, found the end of the expression",
			    what);
	return perr(p, t->start, "%s, found '%.*s'", what, quote_len(t->len),
		    p->src + t->start);
}

/* ---- Code generation ---- */

static int emit(struct parser *p, uint8_t op, s64 arg, size_t at)
{
	struct expr *e = p->e;

	if (e->n == p->cap) {
		u32 cap = p->cap * 2;
		struct expr *ne;

		if (cap < p->cap || cap > UINT32_MAX / 2)
			return perr(p, at, "expression is too long");
		ne = realloc(e, sizeof(*e) + (size_t)cap * sizeof(e->code[0]));
		if (!ne) {
			seterr(p->err, p->errlen, "out of memory");
			return EEVDF_ENOMEM;
		}
		p->e = e = ne;
		p->cap = cap;
	}
	e->code[e->n].op = op;
	e->code[e->n].col = colof(p, at);
	e->code[e->n].arg = arg;
	e->n++;
	return 0;
}

/* Whether code[from..n) is one constant, i.e. a folded sub-expression. */
static bool const_at(const struct parser *p, u32 from)
{
	return p->e->n == from + 1 && p->e->code[from].op == OP_CONST;
}

/*
 * Emit a unary operator on the operand at code[from..n), folding a
 * constant operand.  A fold that fails (e.g. -INT64_MIN) is not an error
 * yet: the operation is emitted and fails when run, because it may sit on
 * the dead side of && or ||.
 */
static int emit_unary(struct parser *p, uint8_t op, u32 from, size_t at)
{
	struct expr_insn *c = &p->e->code[from];
	s64 r;

	if (const_at(p, from) && apply_unary(op, c->arg, &r) == EK_OK) {
		c->arg = r;
		return 0;
	}
	return emit(p, op, 0, at);
}

/* Operands at code[left..right) and code[right..n). */
static int emit_binary(struct parser *p, uint8_t op, u32 left, u32 right,
		       size_t at)
{
	struct expr_insn *c = &p->e->code[left];
	s64 r;

	if (right == left + 1 && c->op == OP_CONST && const_at(p, right) &&
	    apply_binary(op, c->arg, c[1].arg, &r) == EK_OK) {
		c->arg = r;
		p->e->n = left + 1;
		return 0;
	}
	return emit(p, op, 0, at);
}

static int parse_binary(struct parser *p, unsigned min_prec);

static int enter(struct parser *p, size_t at)
{
	if (++p->nesting > EXPR_MAX_NESTING)
		return perr(p, at, "nesting deeper than %d levels",
			    EXPR_MAX_NESTING);
	return 0;
}

static int resolve_name(struct parser *p)
{
	const struct tok *t = &p->tok;
	struct expr_sym sym;
	uint8_t op;

	memset(&sym, 0, sizeof(sym));
	if (p->resolve(p->ud, p->src + t->start, t->len, &sym) != 0)
		return perr(p, t->start, "unknown name '%.*s'",
			    quote_len(t->len), p->src + t->start);
	switch (sym.kind) {
	case EXPR_SYM_CONST:
		return emit(p, OP_CONST, sym.value, t->start);
	case EXPR_SYM_LOCAL:
		op = OP_LOCAL;
		break;
	case EXPR_SYM_GLOBAL:
		op = OP_GLOBAL;
		break;
	case EXPR_SYM_NOW:
		op = OP_NOW;
		break;
	case EXPR_SYM_STOP:
		op = OP_STOP;
		break;
	default:
		seterr(p->err, p->errlen,
		       "column %" PRIu32
		       ": the resolver gave '%.*s' an invalid kind %d",
		       colof(p, t->start), quote_len(t->len), p->src + t->start,
		       (int)sym.kind);
		return EEVDF_EINVAL;
	}
	return emit(p, op, sym.slot, t->start);
}

static const struct {
	const char *name;
	uint8_t op;
	uint8_t nargs;
} funcs[] = {
	{ "min", OP_MIN, 2 },	  { "max", OP_MAX, 2 }, { "ceil", OP_CEIL, 2 },
	{ "floor", OP_FLOOR, 2 }, { "abs", OP_ABS, 1 }, { "sec", OP_SEC, 1 },
	{ "us", OP_US, 1 },
};

/* name ( expr [, expr] ) with the current token the name. */
static int parse_call(struct parser *p)
{
	size_t at = p->tok.start, nlen = p->tok.len, paren;
	u32 args[2];
	unsigned k, i;
	int rc;

	for (k = 0; k < ARRAY_SIZE(funcs); k++)
		if (strlen(funcs[k].name) == nlen &&
		    memcmp(funcs[k].name, p->src + at, nlen) == 0)
			break;
	if (k == ARRAY_SIZE(funcs))
		return perr(p, at,
			    "unknown function '%.*s' (there are min, max, "
			    "ceil, floor, abs, sec and us)",
			    quote_len(nlen), p->src + at);
	if ((rc = next(p)))
		return rc;
	paren = p->tok.start;
	if ((rc = enter(p, paren)) || (rc = next(p)))
		return rc;
	for (i = 0; i < (unsigned)funcs[k].nargs; i++) {
		if (i > 0) {
			if (p->tok.kind != T_COMMA)
				goto arity;
			if ((rc = next(p)))
				return rc;
		}
		args[i] = p->e->n;
		if ((rc = parse_binary(p, 1)))
			return rc;
	}
	if (p->tok.kind == T_COMMA)
		goto arity;
	if (p->tok.kind != T_RPAREN)
		return unexpected(p, "expected ')' to close the call");
	p->nesting--;
	if ((rc = next(p)))
		return rc;
	if (funcs[k].nargs == 1)
		return emit_unary(p, funcs[k].op, args[0], at);
	return emit_binary(p, funcs[k].op, args[0], args[1], at);

arity:
	return perr(p, p->tok.start, "%s() takes %u argument%s", funcs[k].name,
		    (unsigned)funcs[k].nargs, funcs[k].nargs == 1 ? "" : "s");
}

static int parse_unary(struct parser *p)
{
	size_t at = p->tok.start;
	u32 from;
	uint8_t op;
	int rc;

	switch (p->tok.kind) {
	case T_NUM:
		if (p->tok.big)
			return perr(p, at, "integer '%.*s' is out of range",
				    quote_len(p->tok.len), p->src + at);
		if ((rc = emit(p, OP_CONST, p->tok.val, at)))
			return rc;
		return next(p);
	case T_NAME:
		if ((rc = resolve_name(p)))
			return rc;
		return next(p);
	case T_FUNC:
		return parse_call(p);
	case T_LPAREN:
		if ((rc = enter(p, at)) || (rc = next(p)) ||
		    (rc = parse_binary(p, 1)))
			return rc;
		if (p->tok.kind == T_END)
			return perr(p, p->tok.start,
				    "missing ')' for the '(' at column "
				    "%" PRIu32,
				    colof(p, at));
		if (p->tok.kind != T_RPAREN)
			return unexpected(p, "expected ')'");
		p->nesting--;
		return next(p);
	case T_NOT:
		op = OP_NOT;
		break;
	case T_BINOP:
		if (p->tok.op == OP_SUB) {
			op = OP_NEG;
			break;
		}
		return unexpected(p, "expected an operand");
	default:
		return unexpected(p, "expected an operand");
	}

	if ((rc = enter(p, at)) || (rc = next(p)))
		return rc;
	/* -9223372036854775808: the one literal that needs its sign. */
	if (op == OP_NEG && p->tok.kind == T_NUM && p->tok.big) {
		if ((rc = emit(p, OP_CONST, INT64_MIN, at)) || (rc = next(p)))
			return rc;
		p->nesting--;
		return 0;
	}
	from = p->e->n;
	if ((rc = parse_unary(p)))
		return rc;
	p->nesting--;
	return emit_unary(p, op, from, at);
}

/* && and || whose left operand is code[left..n). */
static int parse_logic(struct parser *p, uint8_t jop, uint8_t prec, u32 left)
{
	size_t at = p->tok.start;
	struct expr_insn *c;
	u32 jump;
	int rc;

	if ((rc = next(p)))
		return rc;
	if (const_at(p, left)) {
		c = &p->e->code[left];
		/*
		 * A constant left side decides statically.  The dead right
		 * side is still compiled, for its syntax and names, and then
		 * dropped, so "0 && 1/0" is the constant 0.
		 */
		if ((jop == OP_JFALSE) == (c->arg == 0)) {
			c->arg = jop == OP_JTRUE;
			rc = parse_binary(p, prec + 1u);
			p->e->n = left + 1;
			return rc;
		}
		p->e->n = left;
		if ((rc = parse_binary(p, prec + 1u)))
			return rc;
		return emit_unary(p, OP_BOOL, left, at);
	}
	jump = p->e->n;
	if ((rc = emit(p, jop, 0, at)) || (rc = parse_binary(p, prec + 1u)))
		return rc;
	if ((rc = emit_unary(p, OP_BOOL, jump + 1, at)))
		return rc;
	p->e->code[jump].arg = p->e->n;
	return 0;
}

/* Precedence climbing; every binary operator is left-associative. */
static int parse_binary(struct parser *p, unsigned min_prec)
{
	u32 left = p->e->n, right;
	int rc;

	if ((rc = parse_unary(p)))
		return rc;
	while (p->tok.kind == T_BINOP && (unsigned)p->tok.prec >= min_prec) {
		uint8_t op = p->tok.op, prec = p->tok.prec;
		size_t at = p->tok.start;

		if (op == OP_JFALSE || op == OP_JTRUE) {
			rc = parse_logic(p, op, prec, left);
		} else {
			right = p->e->n;
			if (!(rc = next(p)) &&
			    !(rc = parse_binary(p, prec + 1u)))
				rc = emit_binary(p, op, left, right, at);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The stack depth the code needs.  A jump leaves as many values as the
 * path it skips (see the instruction comment), so a linear scan sees every
 * depth any path reaches.
 */
static int check_depth(struct parser *p)
{
	const struct expr *e = p->e;
	u32 d = 0, max = 0, i;

	for (i = 0; i < e->n; i++) {
		uint8_t op = e->code[i].op;

		if (op <= OP_STOP)
			d++;
		else if (is_binary_op(op) || op == OP_JFALSE || op == OP_JTRUE)
			d--;
		if (d > max)
			max = d;
		if (max > EXPR_MAX_DEPTH) {
			seterr(p->err, p->errlen,
			       "column %" PRIu32
			       ": needs more than %d stack slots to evaluate",
			       e->code[i].col, EXPR_MAX_DEPTH);
			return EEVDF_EPARSE;
		}
	}
	if (d != 1) {
		seterr(p->err, p->errlen,
		       "internal invariant failed: the code leaves %u values",
		       d);
		return EEVDF_EINTERNAL;
	}
	p->e->depth = max;
	return 0;
}

/*
 * The first instruction that reads run-time state, or NULL.  Decided on
 * the final code, so a name on the dead side of a constant && or || ("0 &&
 * @x") does not make the expression variable.
 */
static const struct expr_insn *first_load(const struct expr *e)
{
	u32 i;

	for (i = 0; i < e->n; i++)
		if (e->code[i].op >= OP_LOCAL && e->code[i].op <= OP_STOP)
			return &e->code[i];
	return NULL;
}

/* Code at *i: a load, then at most one unary operator (operand k). */
static bool shape_operand(const struct expr *e, u32 *i, struct expr_fast *f,
			  unsigned k)
{
	if (*i >= e->n || e->code[*i].op > OP_STOP)
		return false;
	f->load[k] = e->code[*i].op;
	f->arg[k] = e->code[*i].arg;
	f->un[k] = OP_CONST;
	if (++*i < e->n && is_unary_op(e->code[*i].op))
		f->un[k] = e->code[(*i)++].op;
	return true;
}

/*
 * Give e its fast form when its code is exactly one of the shapes
 * (struct expr_fast): [load (unary)], or [load (unary) load (unary)
 * binary] and then perhaps [const binary]; otherwise leave it without
 * one.
 */
static void shape(struct expr *e)
{
	struct expr_fast f;
	u32 i = 0;

	memset(&f, 0, sizeof(f));
	if (!shape_operand(e, &i, &f, 0))
		return;
	f.n = 1;
	if (i < e->n) {
		if (!shape_operand(e, &i, &f, 1) || i >= e->n ||
		    !is_binary_op(e->code[i].op))
			return;
		f.bin = e->code[i++].op;
		f.n = 2;
	}
	f.post = OP_CONST;
	if (i + 2 == e->n && e->code[i].op == OP_CONST &&
	    is_binary_op(e->code[i + 1].op)) {
		f.post = e->code[i + 1].op;
		f.post_arg = e->code[i].arg;
		i += 2;
	}
	if (i != e->n)
		return;
	e->fast = f;
}

/*
 * Compile src[0..len), whose first byte is at column colbase + 1 of what
 * the user wrote.  On success, *var_col (if var_col) receives the column
 * of the first name read at run time, or 0, for the "must be constant"
 * message of ${...}.
 */
static int compile(const char *src, size_t len, size_t colbase,
		   expr_resolve_fn resolve, void *ud, struct expr **out,
		   u32 *var_col, char *err, size_t errlen)
{
	const struct expr_insn *load;
	struct expr *shrunk;
	struct parser p;
	s64 v;
	int rc;

	memset(&p, 0, sizeof(p));
	p.src = src;
	p.len = len;
	p.colbase = colbase;
	p.resolve = resolve;
	p.ud = ud;
	p.err = err;
	p.errlen = errlen;
	p.cap = 16;
	p.e = malloc(sizeof(*p.e) + p.cap * sizeof(p.e->code[0]));
	if (!p.e) {
		seterr(err, errlen, "out of memory");
		return EEVDF_ENOMEM;
	}
	p.e->n = 0;
	p.e->constant = false;
	p.e->value = 0; /* defined, for eevdf__expr_same() */
	memset(&p.e->fast, 0, sizeof(p.e->fast));

	rc = next(&p);
	if (!rc && p.tok.kind == T_END)
		rc = perr(&p, p.tok.start, "empty expression");
	if (!rc)
		rc = parse_binary(&p, 1);
	if (!rc && p.tok.kind != T_END)
		rc = p.tok.kind == T_RPAREN ?
			     perr(&p, p.tok.start, "unmatched ')'") :
			     unexpected(&p, "expected an operator");
	if (!rc)
		rc = check_depth(&p);
	if (rc)
		goto fail;

	load = first_load(p.e);
	if (var_col)
		*var_col = load ? load->col : 0;
	if (!load) {
		/*
		 * Only constants, yet not folded to one: some operation
		 * always fails.  Say which, now rather than at run time.
		 */
		rc = run(p.e, NULL, &v, err, errlen);
		if (rc) {
			rc = EEVDF_EPARSE;
			goto fail;
		}
		p.e->n = 1;
		p.e->code[0].op = OP_CONST;
		p.e->code[0].arg = v;
		p.e->depth = 1;
		p.e->constant = true;
		p.e->value = v;
	} else {
		shape(p.e);
	}
	/* Shrink to fit; failing to shrink is harmless. */
	shrunk = realloc(p.e,
			 sizeof(*p.e) + (size_t)p.e->n * sizeof(p.e->code[0]));
	if (shrunk)
		p.e = shrunk;
	*out = p.e;
	return 0;

fail:
	free(p.e);
	return rc;
}

int eevdf__expr_compile(const char *src, size_t len, expr_resolve_fn resolve,
			void *ud, struct expr **out, char *err, size_t errlen)
{
	if (!src || !resolve || !out) {
		seterr(err, errlen, "missing expression, resolver or output");
		return EEVDF_EINVAL;
	}
	return compile(src, len, 0, resolve, ud, out, NULL, err, errlen);
}

/* ---- ${...} expansion ---- */

/*
 * Compile and evaluate the inside of the "${" at s + at; *end receives the
 * offset just past its '}'.
 */
static int expand_one(const char *s, size_t at, expr_resolve_fn resolve,
		      void *ud, size_t *end, s64 *value, char *err,
		      size_t errlen)
{
	const char *body = s + at + 2, *close = strchr(body, '}');
	struct expr *e;
	size_t v, n;
	u32 col;
	int rc;

	if (!close) {
		seterr(err, errlen, "column %zu: unterminated '${'", at + 1);
		return EEVDF_EPARSE;
	}
	rc = compile(body, (size_t)(close - body), at + 2, resolve, ud, &e,
		     &col, err, errlen);
	if (rc)
		return rc;
	if (!eevdf__expr_is_const(e, value)) {
		/* Quote the name at that column: [@[@]]ident[.ident]. */
		v = col - 1;
		n = strspn(s + v, "@");
		n += strspn(s + v + n,
			    "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
		seterr(err, errlen,
		       "column %" PRIu32 ": '${...}' must be constant, but "
		       "'%.*s' is only known at run time",
		       col, quote_len(n), s + v);
		eevdf__expr_free(e);
		return EEVDF_EPARSE;
	}
	eevdf__expr_free(e);
	*end = (size_t)(close - s) + 1;
	return 0;
}

int eevdf__expr_interpolate(const char *s, expr_resolve_fn resolve, void *ud,
			    char **out, char *err, size_t errlen)
{
	size_t len, cap, n = 0, i = 0, end;
	char *buf, *nb;
	char num[24];
	s64 v;
	int rc, w;

	if (!s || !resolve || !out) {
		seterr(err, errlen, "missing string, resolver or output");
		return EEVDF_EINVAL;
	}
	len = strlen(s);
	cap = len + 1;
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	while (s[i]) {
		const char *piece = s + i;
		size_t plen = 1;

		if (s[i] == '$' && s[i + 1] == '{') {
			rc = expand_one(s, i, resolve, ud, &end, &v, err,
					errlen);
			if (rc) {
				free(buf);
				return rc;
			}
			w = snprintf(num, sizeof(num), "%" PRId64, v);
			piece = num;
			plen = (size_t)w;
			i = end;
		} else {
			i++;
		}
		/* A number can be longer than the "${x}" it replaces. */
		if (n + plen + 1 > cap) {
			cap = 2 * cap + plen;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				goto nomem;
			}
			buf = nb;
		}
		memcpy(buf + n, piece, plen);
		n += plen;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;

nomem:
	seterr(err, errlen, "out of memory");
	return EEVDF_ENOMEM;
}

int eevdf__expr_whole(const char *s, expr_resolve_fn resolve, void *ud,
		      bool *is_whole, int64_t *value, char *err, size_t errlen)
{
	const char *close;
	size_t end;
	s64 v;
	int rc;

	if (!s || !resolve || !is_whole || !value) {
		seterr(err, errlen, "missing string, resolver or output");
		return EEVDF_EINVAL;
	}
	*is_whole = false;
	if (s[0] != '$' || s[1] != '{')
		return 0;
	close = strchr(s + 2, '}');
	if (close && close[1] != '\0')
		return 0;
	/* Either exactly one "${...}", or an unterminated one: an error. */
	rc = expand_one(s, 0, resolve, ud, &end, &v, err, errlen);
	if (rc)
		return rc;
	*is_whole = true;
	*value = v;
	return 0;
}
