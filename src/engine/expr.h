/* SPDX-License-Identifier: MIT */
/*
 * The workload format's integer expression language: compiled once to a
 * postfix code array, evaluated without allocation on the hot path.
 *
 * Syntax (C precedence and associativity, loosest first):
 *
 *	||   &&   == !=   < <= > >=   << >>   + -   * / %   unary - !
 *
 * plus parentheses and the functions min(a,b), max(a,b), abs(a),
 * ceil(a,b), floor(a,b), sec(t) and us(t).  Every value is an int64_t:
 * there is no floating point, so ceil() and floor() take a divisor and are
 * ceiling and floor *division* (ceil(7,2) = 4, floor(-7,2) = -4).
 * sec(t) = floor(t / 1e9) and us(t) = floor(t / 1000) round towards minus
 * infinity (us(-1) = -1), which on a positive clock is the truncation a
 * benchmark's seconds and microseconds fields show.  '/' and '%' truncate
 * towards zero as in C.
 * Comparisons, '!', '&&' and '||' yield 0 or 1; '&&' and '||'
 * short-circuit.  Overflow, a shift count outside 0..63 and division by
 * zero are errors, never wrapped or undefined.
 *
 * Operands are decimal integers ("42"), durations with a unit ("8ms",
 * "1.5s", "250ns", "100us", exact ns as eevdf_parse_duration() gives; a
 * fraction needs a unit) and names, resolved once at compile time by a
 * caller-supplied callback: identifiers (params, ncpus, now, stop, EOF..),
 * "@local", "@@global" and field accesses "@m.resp".  An identifier right
 * before '(' is a function call, never a name.
 *
 * "${...}" is load-time syntax: eevdf__expr_interpolate() and
 * eevdf__expr_whole() expand it; eevdf__expr_compile() rejects it, so a
 * run-time expression such as "sec(now) - @@first >= ${runtime}" is
 * interpolated first and compiled afterwards.
 *
 * Nothing here keeps global state; compiled expressions are immutable and
 * may be evaluated from any number of contexts.
 */
#ifndef EEVDF_EXPR_H
#define EEVDF_EXPR_H

#include "lib/internal.h"

/* Evaluation stack slots; an expression needing more fails to compile. */
#define EXPR_MAX_DEPTH 64
/* Nested parentheses, calls and unary operators; more fails to compile. */
#define EXPR_MAX_NESTING 64

/* What a name stands for, as the resolver says. */
enum expr_sym_kind {
	EXPR_SYM_CONST,	 /* value */
	EXPR_SYM_LOCAL,	 /* ctx->locals[slot] */
	EXPR_SYM_GLOBAL, /* ctx->globals[slot] */
	EXPR_SYM_NOW,	 /* ctx->now */
	EXPR_SYM_STOP,	 /* ctx->stop as 0 or 1 */
};

struct expr_sym {
	enum expr_sym_kind kind;
	int64_t value; /* EXPR_SYM_CONST */
	uint32_t slot; /* EXPR_SYM_LOCAL and EXPR_SYM_GLOBAL */
};

/*
 * Resolve the name src[0..len) (not NUL-terminated; "ncpus", "@x", "@@g",
 * "@m.resp") for the compiler: return 0 and fill *sym, or -1 when the name
 * is unknown, which fails the compilation with a message naming it.
 */
typedef int (*expr_resolve_fn)(void *ud, const char *name, size_t len,
			       struct expr_sym *sym);

/* A compiled expression; opaque outside expr.c. */
struct expr;

/* What a run-time expression reads.  ctx->locals[i] is slot i, etc. */
struct expr_ctx {
	const int64_t *locals;
	size_t nr_locals;
	const int64_t *globals;
	size_t nr_globals;
	int64_t now;
	bool stop;
};

/*
 * Compile src[0..len) (need not be NUL-terminated).  Every name is resolved
 * now, through resolve(ud, ...), and sub-expressions of constants are
 * folded.  On success returns 0 and *out, owned by the caller (release with
 * eevdf__expr_free()).  On failure *out is untouched and err (if errlen >
 * 0) receives "column N: what", N 1-based in src:
 *   EEVDF_EPARSE  syntax error, unknown name or function, bad literal,
 *                 nesting or stack deeper than the limits above, or an
 *                 expression of constants only that always fails
 *                 ("1/0": the message says why);
 *   EEVDF_ENOMEM  out of memory;
 *   EEVDF_EINVAL  src, resolve or out is NULL, or the resolver returned
 *                 an invalid kind.
 */
int eevdf__expr_compile(const char *src, size_t len, expr_resolve_fn resolve,
			void *ud, struct expr **out, char *err, size_t errlen);

/* Release e.  NULL is a no-op. */
void eevdf__expr_free(struct expr *e);

/*
 * True when a and b are the same compiled expression, instruction for
 * instruction (source columns too, which messages quote); two NULLs are.
 */
bool eevdf__expr_same(const struct expr *a, const struct expr *b);

/*
 * True when e reads no local, global, now or stop, i.e. it was folded to a
 * single value at compile time; *value (if not NULL) receives it.
 */
bool eevdf__expr_is_const(const struct expr *e, int64_t *value);

/*
 * True when e is not constant but has one of the common shapes that are
 * evaluated without the stack machine: one or two operands, each a
 * constant, local, global, now or stop under at most one unary operator,
 * joined by one binary operator ("now", "!stop", "@st == EOF",
 * "us(now) - us(@t)").  The value and any error are the same either way.
 */
bool eevdf__expr_is_fast(const struct expr *e);

/*
 * The shapes most values of a running program take, which the interpreter
 * reads straight from the task and the simulation, without an evaluation
 * context or a call (program.c's eval_slow()).  Measured on a 30 ms
 * schbench: "now", "stop" and "!stop" were 151 000 of its 300 000
 * run-time evaluations, and its two latencies, "us(now) - us(@t)", 166 000
 * of the rest; on tbench-64, "@x" alone was 58 %.  The two-operand forms
 * give the evaluator's value; where that would be an error (an overflow, a
 * slot out of range) the interpreter evaluates them instead, which then
 * says what is wrong.
 */
enum expr_form {
	EXPR_FORM_NONE = 0, /* anything else: eevdf__expr_eval() */
	EXPR_FORM_LOCAL,    /* "@x": ctx->locals[slot] */
	EXPR_FORM_NOW,	    /* "now": ctx->now */
	EXPR_FORM_STOP,	    /* "stop": ctx->stop, 0 or 1 */
	EXPR_FORM_NOT_STOP, /* "!stop": 1 or 0 */
	EXPR_FORM_SINCE,    /* "now - @x" */
	EXPR_FORM_US_SINCE, /* "us(now) - us(@x)": never overflows */
	EXPR_FORM_ADD_K,    /* "@x + k" or "k + @x" */
	EXPR_FORM_EQ_K,	    /* "@x == k" or "k == @x": 1 or 0 */
};

/*
 * e's form; for the forms that read a local, *slot receives its slot (whose
 * value is ctx->locals[*slot] when it is in range: else eevdf__expr_eval()
 * says what is wrong), and for EXPR_FORM_ADD_K and EXPR_FORM_EQ_K, *k the
 * constant.  EXPR_FORM_NONE for NULL and for a constant.
 */
enum expr_form eevdf__expr_form(const struct expr *e, uint32_t *slot,
				int64_t *k);

/* us(): whole microseconds of ns, rounded down as floor division does. */
static inline int64_t eevdf__us_of(int64_t ns)
{
	int64_t q = ns / 1000;

	return ns % 1000 < 0 ? q - 1 : q;
}

/*
 * True when e is exactly one local variable ("@j"), whose slot *slot
 * receives: its value is then ctx->locals[*slot] when the slot is in
 * range (and eevdf__expr_eval() says what is wrong when it is not).
 */
bool eevdf__expr_is_local(const struct expr *e, uint32_t *slot);

/*
 * Evaluate e in ctx without allocating.  ctx may be NULL for a constant
 * expression.  Returns 0 and *out, or, with "column N: what" in err and
 * *out untouched:
 *   EEVDF_ERANGE  signed overflow in + - * << unary - abs() or a division
 *                 (INT64_MIN / -1), or a shift count outside 0..63;
 *   EEVDF_EINVAL  division or modulo by zero, a slot beyond ctx's arrays,
 *                 or a NULL ctx for an expression that needs one.
 */
int eevdf__expr_eval(const struct expr *e, const struct expr_ctx *ctx,
		     int64_t *out, char *err, size_t errlen);

/*
 * Expand every "${...}" in the NUL-terminated s: each must compile (with
 * resolve) to a constant, and its decimal value replaces it; other text,
 * including a '$' not followed by '{', is copied as is.  "ch[${g}][@j]"
 * with g = 2 gives "ch[2][@j]".  Returns 0 and a malloc'd string in *out
 * (the caller frees it), or EEVDF_EPARSE (an unterminated "${", a compile
 * error, or a non-constant expansion; columns in err count from the start
 * of s), EEVDF_ENOMEM, EEVDF_EINVAL (NULL argument).
 */
int eevdf__expr_interpolate(const char *s, expr_resolve_fn resolve, void *ud,
			    char **out, char *err, size_t errlen);

/*
 * Whether s is exactly one "${...}" and nothing else, so that it stands
 * for a typed value rather than a string.  If so, compiles it (it must be
 * constant) and returns 0 with *is_whole = true and *value.  Otherwise
 * returns 0 with *is_whole = false and *value untouched ("x${m}", "${a}${b}"
 * and plain text are not whole; eevdf__expr_interpolate() handles them).
 * Errors as eevdf__expr_interpolate(), including a string that starts with
 * "${" and never closes it.
 */
int eevdf__expr_whole(const char *s, expr_resolve_fn resolve, void *ud,
		      bool *is_whole, int64_t *value, char *err, size_t errlen);

#endif
