/* SPDX-License-Identifier: MIT */
/* Tests of the workload expression language: syntax, values and errors. */
#include <inttypes.h>
#include <string.h>

#include "suites.h"
#include "engine/expr.h"

/* ---- A resolver and a context standing in for the loader's ---- */

static const struct test_sym {
	const char *name;
	enum expr_sym_kind kind;
	int64_t value;
	uint32_t slot;
} test_syms[] = {
	{ "ncpus", EXPR_SYM_CONST, 8, 0 },
	{ "nllc", EXPR_SYM_CONST, 2, 0 },
	{ "m", EXPR_SYM_CONST, 3, 0 },
	{ "g", EXPR_SYM_CONST, 2, 0 },
	{ "groups", EXPR_SYM_CONST, 10, 0 },
	{ "fds", EXPR_SYM_CONST, 20, 0 },
	{ "runtime", EXPR_SYM_CONST, 2, 0 },
	{ "timelimit", EXPR_SYM_CONST, 600 * EEVDF_NSEC_PER_SEC, 0 },
	{ "OK", EXPR_SYM_CONST, 0, 0 },
	{ "TIMEOUT", EXPR_SYM_CONST, 1, 0 },
	{ "EINTR", EXPR_SYM_CONST, 2, 0 },
	{ "EOF", EXPR_SYM_CONST, 3, 0 },
	{ "now", EXPR_SYM_NOW, 0, 0 },
	{ "stop", EXPR_SYM_STOP, 0, 0 },
	{ "@x", EXPR_SYM_LOCAL, 0, 0 },
	{ "@y", EXPR_SYM_LOCAL, 0, 1 },
	{ "@m.resp", EXPR_SYM_LOCAL, 0, 2 },
	{ "@st", EXPR_SYM_LOCAL, 0, 3 },
	{ "@wake_time", EXPR_SYM_LOCAL, 0, 4 },
	{ "@size", EXPR_SYM_LOCAL, 0, 5 },
	{ "@payload", EXPR_SYM_LOCAL, 0, 6 },
	{ "@zero", EXPR_SYM_LOCAL, 0, 7 },
	{ "@one", EXPR_SYM_LOCAL, 0, 8 },
	{ "@big", EXPR_SYM_LOCAL, 0, 9 },
	{ "@min", EXPR_SYM_LOCAL, 0, 10 },
	{ "@minus1", EXPR_SYM_LOCAL, 0, 11 },
	{ "@bad", EXPR_SYM_LOCAL, 0, 99 },
	{ "@@first", EXPR_SYM_GLOBAL, 0, 0 },
	{ "@@g", EXPR_SYM_GLOBAL, 0, 1 },
	{ "@@bad", EXPR_SYM_GLOBAL, 0, 2 },
};

static const int64_t test_locals[] = {
	7,	    /* @x */
	-3,	    /* @y */
	4096,	    /* @m.resp */
	3,	    /* @st (EOF) */
	4999000999, /* @wake_time */
	8193,	    /* @size */
	100,	    /* @payload */
	0,	    /* @zero */
	1,	    /* @one */
	INT64_MAX,  /* @big */
	INT64_MIN,  /* @min */
	-1,	    /* @minus1 */
};

static const int64_t test_globals[] = { 3, 11 }; /* @@first, @@g */

static const struct expr_ctx test_ctx = {
	.locals = test_locals,
	.nr_locals = ARRAY_SIZE(test_locals),
	.globals = test_globals,
	.nr_globals = ARRAY_SIZE(test_globals),
	.now = 5000123456,
	.stop = false,
};

static int test_resolve(void *ud, const char *name, size_t len,
			struct expr_sym *sym)
{
	size_t i;

	(void)ud;
	for (i = 0; i < ARRAY_SIZE(test_syms); i++) {
		if (strlen(test_syms[i].name) == len &&
		    memcmp(test_syms[i].name, name, len) == 0) {
			sym->kind = test_syms[i].kind;
			sym->value = test_syms[i].value;
			sym->slot = test_syms[i].slot;
			return 0;
		}
	}
	return -1;
}

static struct expr *compile_ok(const char *src)
{
	struct expr *e = NULL;
	char err[256] = "";
	int rc;

	rc = eevdf__expr_compile(src, strlen(src), test_resolve, NULL, &e, err,
				 sizeof(err));
	ck_assert_msg(rc == 0, "\"%s\" failed to compile (%d): %s", src, rc,
		      err);
	ck_assert_ptr_nonnull(e);
	return e;
}

/* Compile and evaluate src in ctx, which must succeed. */
static int64_t eval_in(const char *src, const struct expr_ctx *ctx)
{
	struct expr *e = compile_ok(src);
	char err[256] = "";
	int64_t v = 0;
	int rc;

	rc = eevdf__expr_eval(e, ctx, &v, err, sizeof(err));
	ck_assert_msg(rc == 0, "\"%s\" failed to evaluate (%d): %s", src, rc,
		      err);
	eevdf__expr_free(e);
	return v;
}

static int64_t eval_ok(const char *src)
{
	return eval_in(src, &test_ctx);
}

/* Compile src, which must fail with rc; err receives the message. */
static void compile_fails(const char *src, int want, char *err, size_t len)
{
	struct expr *e = NULL;
	int rc;

	err[0] = '\0';
	rc = eevdf__expr_compile(src, strlen(src), test_resolve, NULL, &e, err,
				 len);
	ck_assert_msg(rc == want, "\"%s\" gave %d, want %d (%s)", src, rc, want,
		      err);
	ck_assert_ptr_null(e);
	ck_assert_msg(err[0] != '\0', "\"%s\" failed without a message", src);
}

/* Compile src fine, then evaluating it must fail with want. */
static void eval_fails(const char *src, int want, char *err, size_t len)
{
	struct expr *e = compile_ok(src);
	int64_t v = 12345;
	int rc;

	err[0] = '\0';
	rc = eevdf__expr_eval(e, &test_ctx, &v, err, len);
	ck_assert_msg(rc == want, "\"%s\" gave %d, want %d (%s)", src, rc, want,
		      err);
	ck_assert_msg(v == 12345, "\"%s\" wrote *out on failure", src);
	ck_assert_msg(err[0] != '\0', "\"%s\" failed without a message", src);
	eevdf__expr_free(e);
}

#define ck_assert_str_contains(s, sub)                                         \
	ck_assert_msg(strstr((s), (sub)) != NULL,                              \
		      "\"%s\" does not contain \"%s\"", (s), (sub))

/* ---- Precedence and associativity ---- */

static const struct {
	const char *src;
	int64_t want;
} prec_table[] = {
	{ "1 + 2 * 3", 7 },
	{ "(1 + 2) * 3", 9 },
	{ "10 - 4 - 3", 3 },
	{ "2 << 3 + 1", 32 },
	{ "7 / 2", 3 },
	{ "-7 / 2", -3 },
	{ "-7 % 3", -1 },
	{ "7 % -3", 1 },
	{ "1 < 2 == 1", 1 },
	{ "!0 && 5", 1 },
	{ "0 || 0", 0 },
	{ "100 / 10 / 5", 2 },
	{ "2 * 3 % 4", 2 },
	{ "8 % 3 * 2", 4 },
	{ "1 << 2 << 3", 32 },
	{ "2 - 3 * 4 + 5", -5 },
	{ "(2 - 3) * (4 + 5)", -9 },
	{ "-2 * -3", 6 },
	{ "- -3", 3 },
	{ "!5", 0 },
	{ "!!5", 1 },
	{ "-!0", -1 },
	{ "1 + 2 < 4", 1 },
	{ "6 > 5 > 4", 0 },
	{ "5 >= 5 <= 0", 0 },
	{ "1 == 1 != 0", 1 },
	{ "1 || 0 && 0", 1 },
	{ "0 && 0 || 1", 1 },
	{ "3 && 4", 1 },
	{ "5 || 0", 1 },
	{ "2 + 3 == 5 && 4 < 5", 1 },
	{ "1 < 2 << 1", 1 },
	{ "7 >> 1", 3 },
	{ "-8 >> 1", -4 },
	{ "-7 >> 1", -4 },
	{ "1 << 62 >> 62", 1 },
	{ "\t1\n+\r2 ", 3 },
	{ "9223372036854775807", INT64_MAX },
	{ "-9223372036854775807 - 1", INT64_MIN },
	{ "-9223372036854775808", INT64_MIN },
};

/*
 * Rewrite every integer literal of src as a local "@vN" with vals[N] its
 * value, so that the same expression runs without constant folding.
 */
static void literals_to_locals(const char *src, char *out, size_t len,
			       int64_t *vals, size_t *n)
{
	size_t o = 0;

	*n = 0;
	while (*src) {
		if (*src >= '0' && *src <= '9') {
			int64_t v = 0;

			while (*src >= '0' && *src <= '9')
				v = v * 10 + (*src++ - '0');
			vals[*n] = v;
			o += (size_t)snprintf(out + o, len - o, "@v%zu", *n);
			(*n)++;
		} else {
			out[o++] = *src++;
		}
		ck_assert_uint_lt(o, len);
	}
	out[o] = '\0';
}

/* Resolves "@vN" to local slot N, and "@@vN" to global slot N. */
static int resolve_numbered(void *ud, const char *name, size_t len,
			    struct expr_sym *sym)
{
	size_t at = 0, slot = 0;

	(void)ud;
	while (at < len && name[at] == '@')
		at++;
	if (at == 0 || at > 2 || at + 1 >= len || name[at] != 'v')
		return -1;
	for (at++; at < len; at++) {
		if (name[at] < '0' || name[at] > '9')
			return -1;
		slot = slot * 10 + (size_t)(name[at] - '0');
	}
	sym->kind = name[1] == '@' ? EXPR_SYM_GLOBAL : EXPR_SYM_LOCAL;
	sym->slot = (uint32_t)slot;
	return 0;
}

START_TEST(expr_operators_follow_c_precedence_and_associativity)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prec_table); i++) {
		int64_t v = eval_ok(prec_table[i].src);

		ck_assert_msg(v == prec_table[i].want,
			      "\"%s\" = %" PRId64 ", want %" PRId64,
			      prec_table[i].src, v, prec_table[i].want);
	}
}
END_TEST

START_TEST(expr_run_time_evaluation_agrees_with_constant_folding)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(prec_table); i++) {
		struct expr_ctx ctx = { 0 };
		int64_t vals[16], v = 0;
		struct expr *e = NULL;
		char src[128], err[256] = "";

		/* 2^63 is only a literal under unary minus. */
		if (strstr(prec_table[i].src, "808"))
			continue;
		literals_to_locals(prec_table[i].src, src, sizeof(src), vals,
				   &n);
		ck_assert_int_eq(eevdf__expr_compile(src, strlen(src),
						     resolve_numbered, NULL, &e,
						     err, sizeof(err)),
				 0);
		ck_assert(!eevdf__expr_is_const(e, NULL));
		ctx.locals = vals;
		ctx.nr_locals = n;
		ck_assert_int_eq(
			eevdf__expr_eval(e, &ctx, &v, err, sizeof(err)), 0);
		ck_assert_msg(v == prec_table[i].want,
			      "\"%s\" = %" PRId64 ", want %" PRId64, src, v,
			      prec_table[i].want);
		eevdf__expr_free(e);
	}
}
END_TEST

/* ---- Literals ---- */

START_TEST(expr_durations_are_exact_nanoseconds)
{
	ck_assert_int_eq(eval_ok("1.5ms + 500us"), 2000000);
	ck_assert_int_eq(eval_ok("250ns"), 250);
	ck_assert_int_eq(eval_ok("100us"), 100000);
	ck_assert_int_eq(eval_ok("8ms"), 8000000);
	ck_assert_int_eq(eval_ok("1.5s"), 1500000000);
	ck_assert_int_eq(eval_ok("0.000000001s"), 1);
	ck_assert_int_eq(eval_ok("2s / 3"), 666666666);
	ck_assert_int_eq(eval_ok("-1us"), -1000);
	ck_assert_int_eq(eval_ok("9223372036854775807ns"), INT64_MAX);
}
END_TEST

START_TEST(expr_a_fraction_without_a_unit_is_rejected)
{
	char err[256];

	compile_fails("1.5", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: a fraction needs a unit "
			       "(ns, us, ms or s): '1.5'");
	compile_fails("2 * 0.25", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "column 5: a fraction needs a unit");
}
END_TEST

START_TEST(expr_malformed_literals_are_rejected_with_a_column)
{
	char err[256];

	compile_fails("2x", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err,
			  "column 2: unknown unit 'x' (use ns, us, ms or s)");
	compile_fails("1e9", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "unknown unit 'e9'");
	compile_fails("1 + 2MS", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "column 6: unknown unit 'MS'");
	compile_fails("0.5ns", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: duration '0.5ns' is not a whole "
			       "number of ns");
	compile_fails("1.", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err,
			  "column 2: a digit must follow the decimal point");
	compile_fails("99999999999s", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "out of range");
	compile_fails("9223372036854775808", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: integer '9223372036854775808' is "
			       "out of range");
	compile_fails("99999999999999999999", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "out of range");
	compile_fails(".5ms", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: unexpected character '.'");
}
END_TEST

/* ---- Names ---- */

START_TEST(expr_parameters_resolve_to_constants)
{
	struct expr *e = compile_ok("(ncpus + m - 1) / m");
	int64_t v = 0;

	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 3);
	eevdf__expr_free(e);
	ck_assert_int_eq(eval_ok("groups*fds*2"), 400);
	ck_assert_int_eq(eval_ok("timelimit/5"), 120 * EEVDF_NSEC_PER_SEC);
	ck_assert_int_eq(eval_ok("nllc"), 2);
	ck_assert_int_eq(eval_ok("TIMEOUT + EINTR + EOF + OK"), 6);
}
END_TEST

START_TEST(expr_locals_globals_now_and_stop_come_from_the_context)
{
	struct expr_ctx stopped = test_ctx;

	/* us(5000123456) = 5000123, us(4999000999) = 4999000. */
	ck_assert_int_eq(eval_ok("us(now) - us(@wake_time)"), 1123);
	/* sec(now) = 5, @@first = 3, runtime = 2. */
	ck_assert_int_eq(eval_ok("sec(now) - @@first >= runtime"), 1);
	ck_assert_int_eq(eval_ok("sec(now) - @@first >= runtime + 1"), 0);
	ck_assert_int_eq(eval_ok("@st == EOF"), 1);
	ck_assert_int_eq(eval_ok("@st == OK"), 0);
	ck_assert_int_eq(eval_ok("@m.resp"), 4096);
	ck_assert_int_eq(eval_ok("(@size + 8191) / 8192"), 2);
	ck_assert_int_eq(eval_ok("59 + @payload"), 159);
	ck_assert_int_eq(eval_ok("now - @x"), 5000123449);
	ck_assert_int_eq(eval_ok("@@g * @y"), -33);
	ck_assert_int_eq(eval_ok("!stop"), 1);
	ck_assert_int_eq(eval_ok("stop"), 0);
	stopped.stop = true;
	ck_assert_int_eq(eval_in("!stop", &stopped), 0);
	ck_assert_int_eq(eval_in("stop", &stopped), 1);
	ck_assert_int_eq(eval_in("stop * 5", &stopped), 5);
}
END_TEST

/*
 * The shapes of run-time expressions the workloads use most are evaluated
 * without the stack machine (eevdf__expr_is_fast()); the values and the
 * errors must be the ones the stack machine gives.
 */
/*
 * The forms the interpreter reads without evaluating (program.c): exactly
 * "@x", "now", "stop", "!stop", "now - @x", "us(now) - us(@x)", "@x + k"
 * and "@x == k" (either way round); any other operator or order, a
 * global, a second local or a comparison after is none of them.
 */
START_TEST(expr_form_names_exactly_the_inline_shapes)
{
	static const struct {
		const char *src;
		enum expr_form form;
		int64_t k;
	} cases[] = {
		{ "@y", EXPR_FORM_LOCAL, 0 },
		{ "now", EXPR_FORM_NOW, 0 },
		{ "stop", EXPR_FORM_STOP, 0 },
		{ "!stop", EXPR_FORM_NOT_STOP, 0 },
		{ "(stop)", EXPR_FORM_STOP, 0 },
		{ "now - @y", EXPR_FORM_SINCE, 0 },
		{ "us(now) - us(@y)", EXPR_FORM_US_SINCE, 0 },
		{ "@y + 0", EXPR_FORM_ADD_K, 0 },
		{ "@y + 3", EXPR_FORM_ADD_K, 3 },
		{ "-4 + @y", EXPR_FORM_ADD_K, -4 },
		{ "@y == EOF", EXPR_FORM_EQ_K, 3 },
		{ "2 == @y", EXPR_FORM_EQ_K, 2 },
		{ "-stop", EXPR_FORM_NONE, 0 },
		{ "!!stop", EXPR_FORM_NONE, 0 },
		{ "!now", EXPR_FORM_NONE, 0 },
		{ "-@y", EXPR_FORM_NONE, 0 },
		{ "@@g", EXPR_FORM_NONE, 0 },
		{ "now > 5", EXPR_FORM_NONE, 0 },
		{ "us(now)", EXPR_FORM_NONE, 0 },
		{ "ncpus", EXPR_FORM_NONE, 0 },
		{ "@y - now", EXPR_FORM_NONE, 0 },
		{ "now - @@g", EXPR_FORM_NONE, 0 },
		{ "now - -@y", EXPR_FORM_NONE, 0 },
		{ "us(now) - @y", EXPR_FORM_NONE, 0 },
		{ "sec(now) - sec(@y)", EXPR_FORM_NONE, 0 },
		{ "now - @y > 0", EXPR_FORM_NONE, 0 },
		{ "@y + @y", EXPR_FORM_NONE, 0 },
		{ "@y + now", EXPR_FORM_NONE, 0 },
		{ "@@g + 1", EXPR_FORM_NONE, 0 },
		{ "@y - 3", EXPR_FORM_NONE, 0 },
		{ "@y * 3", EXPR_FORM_NONE, 0 },
		{ "abs(@y) + 3", EXPR_FORM_NONE, 0 },
		{ "@y != 2", EXPR_FORM_NONE, 0 },
		{ "(@y == 2) == 1", EXPR_FORM_NONE, 0 },
	};
	uint32_t slot;
	int64_t k;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct expr *e = compile_ok(cases[i].src);
		enum expr_form form;

		slot = 99;
		k = 99;
		form = eevdf__expr_form(e, &slot, &k);
		ck_assert_msg(form == cases[i].form, "\"%s\": form %d, not %d",
			      cases[i].src, (int)form, (int)cases[i].form);
		/* "@y" is slot 1 of the test's resolver */
		if (form != EXPR_FORM_NONE && form != EXPR_FORM_NOW &&
		    form != EXPR_FORM_STOP && form != EXPR_FORM_NOT_STOP)
			ck_assert_uint_eq(slot, 1);
		if (form == EXPR_FORM_ADD_K || form == EXPR_FORM_EQ_K)
			ck_assert_int_eq(k, cases[i].k);
		eevdf__expr_free(e);
	}
	ck_assert_int_eq(eevdf__expr_form(NULL, &slot, &k), EXPR_FORM_NONE);
}
END_TEST

/*
 * us() rounds down, as floor division does, on both sides of zero: the
 * value the inline "us(now) - us(@x)" subtracts.
 */
START_TEST(us_of_rounds_toward_minus_infinity)
{
	ck_assert_int_eq(eevdf__us_of(0), 0);
	ck_assert_int_eq(eevdf__us_of(999), 0);
	ck_assert_int_eq(eevdf__us_of(1000), 1);
	ck_assert_int_eq(eevdf__us_of(1999), 1);
	ck_assert_int_eq(eevdf__us_of(-1), -1);
	ck_assert_int_eq(eevdf__us_of(-1000), -1);
	ck_assert_int_eq(eevdf__us_of(-1001), -2);
	ck_assert_int_eq(eevdf__us_of(INT64_MAX), INT64_MAX / 1000);
	ck_assert_int_eq(eevdf__us_of(INT64_MIN), INT64_MIN / 1000 - 1);
	ck_assert_int_eq(eval_ok("us(-1001)"), -2);
}
END_TEST

START_TEST(expr_common_shapes_take_the_direct_path_with_the_same_results)
{
	static const char *const fast[] = {
		"now",
		"!stop",
		"@st == EOF",
		"59 + @payload",
		"now - @x > 5",
		"-@y",
		"@@g * @y",
		"(@size + 8191) / 8192",
		"us(now) - us(@wake_time)",
		"(us(now) - us(@wake_time)) != 0",
	};
	static const char *const slow[] = {
		"@x + @y + @x", "-(@x + @y)", "!!stop", "@x && @y", "@x || 0",
	};
	struct expr *e;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(fast); i++) {
		e = compile_ok(fast[i]);
		ck_assert_msg(eevdf__expr_is_fast(e), "\"%s\" is not direct",
			      fast[i]);
		eevdf__expr_free(e);
	}
	for (size_t i = 0; i < ARRAY_SIZE(slow); i++) {
		e = compile_ok(slow[i]);
		ck_assert_msg(!eevdf__expr_is_fast(e), "\"%s\" is direct",
			      slow[i]);
		eevdf__expr_free(e);
	}
	/* a constant is folded, not a shape */
	e = compile_ok("ncpus * 2");
	ck_assert(!eevdf__expr_is_fast(e));
	eevdf__expr_free(e);
	/* a lone local is the one an object name's table reads directly:
	 * "@y" is slot 1; "-@y", "@y + 0", "@@g" and "now" are not one */
	{
		static const char *const not_local[] = { "-@y", "@y + 0", "@@g",
							 "now" };
		uint32_t slot = 99;

		e = compile_ok("@y");
		ck_assert(eevdf__expr_is_local(e, &slot));
		ck_assert_uint_eq(slot, 1);
		eevdf__expr_free(e);
		for (size_t i = 0; i < ARRAY_SIZE(not_local); i++) {
			e = compile_ok(not_local[i]);
			ck_assert_msg(!eevdf__expr_is_local(e, &slot), "%s",
				      not_local[i]);
			eevdf__expr_free(e);
		}
	}

	/* values: us(5000123456) - us(4999000999) = 5000123 - 4999000 = 1123,
	 * which is != 0; now - @x = 5000123449 > 5; -@y = 3; @@g * @y =
	 * 11 * -3 = -33; (8193 + 8191) / 8192 = 16384 / 8192 = 2; the
	 * three operands of "@x + @y + @x" give 7 - 3 + 7 = 11 */
	ck_assert_int_eq(eval_ok("(us(now) - us(@wake_time)) != 0"), 1);
	ck_assert_int_eq(eval_ok("now - @x > 5"), 1);
	ck_assert_int_eq(eval_ok("-@y"), 3);
	ck_assert_int_eq(eval_ok("@@g * @y"), -33);
	ck_assert_int_eq(eval_ok("(@size + 8191) / 8192"), 2);
	ck_assert_int_eq(eval_ok("@x + @y + @x"), 11);

	/* errors come from the stack machine, at the operator's column */
	eval_fails("@x / @zero", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: division by zero in '/'");
	eval_fails("@big + @one", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: integer overflow in '+'");
	eval_fails("(@x - @x) / 0", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 11: division by zero in '/'");
	eval_fails("-@min", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: integer overflow in unary '-'");
}
END_TEST

START_TEST(expr_a_slot_beyond_the_context_is_einval)
{
	char err[256];

	eval_fails("@x + @bad", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: local slot 99 is out of range");
	eval_fails("@@bad", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: global slot 2 is out of range");
}
END_TEST

START_TEST(expr_a_variable_needs_a_context)
{
	struct expr *e = compile_ok("@x + 1");
	char err[256] = "";
	int64_t v = 0;

	ck_assert_int_eq(eevdf__expr_eval(e, NULL, &v, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_pstr_eq(err, "column 1: no context to read a variable from");
	eevdf__expr_free(e);
}
END_TEST

START_TEST(expr_unknown_names_are_named_in_the_message)
{
	char err[256];

	compile_fails("ncpus + bogus", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 9: unknown name 'bogus'");
	compile_fails("1 - @m.reqs", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 5: unknown name '@m.reqs'");
	compile_fails("@@nope", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: unknown name '@@nope'");
	compile_fails("@ x", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 2: expected a name after '@'");
	compile_fails("@m.", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: expected a field name after '.'");
}
END_TEST

/* ---- Functions ---- */

START_TEST(expr_sec_and_us_round_towards_minus_infinity)
{
	ck_assert_int_eq(eval_ok("us(-1)"), -1);
	ck_assert_int_eq(eval_ok("us(-1000)"), -1);
	ck_assert_int_eq(eval_ok("us(-1001)"), -2);
	ck_assert_int_eq(eval_ok("us(999)"), 0);
	ck_assert_int_eq(eval_ok("us(1000)"), 1);
	ck_assert_int_eq(eval_ok("sec(1999999999)"), 1);
	ck_assert_int_eq(eval_ok("sec(2s)"), 2);
	ck_assert_int_eq(eval_ok("sec(-1)"), -1);
	ck_assert_int_eq(eval_ok("sec(-1s)"), -1);
	ck_assert_int_eq(eval_ok("sec(-1s - 1)"), -2);
	/* INT64_MIN = -9223372036854775808 ns: -9223372036.85... s. */
	ck_assert_int_eq(eval_ok("sec(@min)"), -9223372037);
	ck_assert_int_eq(eval_ok("us(@min)"), -9223372036854776);
}
END_TEST

START_TEST(expr_ceil_and_floor_are_divisions)
{
	ck_assert_int_eq(eval_ok("ceil(7, 2)"), 4);
	ck_assert_int_eq(eval_ok("floor(-7, 2)"), -4);
	ck_assert_int_eq(eval_ok("ceil(-7, 2)"), -3);
	ck_assert_int_eq(eval_ok("floor(7, 2)"), 3);
	ck_assert_int_eq(eval_ok("ceil(6, 2)"), 3);
	ck_assert_int_eq(eval_ok("floor(6, -2)"), -3);
	ck_assert_int_eq(eval_ok("floor(7, -2)"), -4);
	ck_assert_int_eq(eval_ok("ceil(7, -2)"), -3);
	ck_assert_int_eq(eval_ok("ceil(-7, -2)"), 4);
	ck_assert_int_eq(eval_ok("ceil(ncpus, m)"), 3);
}
END_TEST

START_TEST(expr_min_max_and_abs)
{
	ck_assert_int_eq(eval_ok("min(3, -4)"), -4);
	ck_assert_int_eq(eval_ok("max(3, -4)"), 3);
	ck_assert_int_eq(eval_ok("min(max(1, 2), 3)"), 2);
	ck_assert_int_eq(eval_ok("max(@x - 10, 0)"), 0);
	ck_assert_int_eq(eval_ok("abs(-5)"), 5);
	ck_assert_int_eq(eval_ok("abs(5)"), 5);
	ck_assert_int_eq(eval_ok("abs(@y)"), 3);
	ck_assert_int_eq(eval_ok("max (1, 2)"), 2);
}
END_TEST

START_TEST(expr_functions_check_their_name_and_arguments)
{
	char err[256];

	compile_fails("min(1)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: min() takes 2 arguments");
	compile_fails("abs(1, 2)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: abs() takes 1 argument");
	compile_fails("max(1, 2, 3)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 9: max() takes 2 arguments");
	compile_fails("sqrt(4)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "column 1: unknown function 'sqrt'");
	compile_fails("min(1, 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 9: expected ')' to close the call, "
			       "found the end of the expression");
}
END_TEST

/* ---- Short-circuit ---- */

START_TEST(expr_and_skips_its_right_side_when_the_left_is_false)
{
	struct expr *e = compile_ok("0 && 1/0");
	int64_t v = -1;

	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 0);
	eevdf__expr_free(e);
	ck_assert_int_eq(eval_ok("@zero && 1 / @zero"), 0);
	ck_assert_int_eq(eval_ok("@one && @x / @one"), 1);
	ck_assert_int_eq(eval_ok("@one && @zero"), 0);
	ck_assert_int_eq(eval_ok("1 && @x"), 1);
}
END_TEST

START_TEST(expr_or_skips_its_right_side_when_the_left_is_true)
{
	struct expr *e = compile_ok("1 || 1/0");
	int64_t v = -1;

	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 1);
	eevdf__expr_free(e);
	ck_assert_int_eq(eval_ok("@x || 1 / @zero"), 1);
	ck_assert_int_eq(eval_ok("@zero || @x"), 1);
	ck_assert_int_eq(eval_ok("@zero || @zero"), 0);
	ck_assert_int_eq(eval_ok("0 || @y"), 1);
	ck_assert_int_eq(eval_ok("@zero || @zero || @x && @one"), 1);
}
END_TEST

/* ---- Run-time errors ---- */

START_TEST(expr_division_by_zero_at_run_time_is_einval)
{
	char err[256];

	eval_fails("@x / @zero", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: division by zero in '/'");
	eval_fails("@x % @zero", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: division by zero in '%'");
	eval_fails("1 + ceil(@x, @zero)", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 5: division by zero in ceil()");
	eval_fails("floor(@x, @zero)", EEVDF_EINVAL, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: division by zero in floor()");
	eval_fails("@one && 1 / @zero", EEVDF_EINVAL, err, sizeof(err));
}
END_TEST

START_TEST(expr_signed_overflow_at_run_time_is_erange)
{
	char err[256];

	eval_fails("@big + 1", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: integer overflow in '+'");
	eval_fails("-@min", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: integer overflow in unary '-'");
	eval_fails("@min - 1", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("@big * 2", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("@min * -1", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("@min / -1", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("floor(@min, -1)", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("abs(@min)", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: integer overflow in abs()");
	eval_fails("@big << 1", EEVDF_ERANGE, err, sizeof(err));
	eval_fails("@minus1 << 62 << 2", EEVDF_ERANGE, err, sizeof(err));
	/* The edges that do fit. */
	ck_assert_int_eq(eval_ok("@min % -1"), 0);
	ck_assert_int_eq(eval_ok("@big + @min"), -1);
	ck_assert_int_eq(eval_ok("-@big - 1"), INT64_MIN);
	ck_assert_int_eq(eval_ok("@minus1 << 63"), INT64_MIN);
	ck_assert_int_eq(eval_ok("@min >> 63"), -1);
}
END_TEST

START_TEST(expr_constant_overflow_fails_at_compile_time)
{
	char err[256];

	compile_fails("9223372036854775807 + 1", EEVDF_EPARSE, err,
		      sizeof(err));
	ck_assert_pstr_eq(err, "column 21: integer overflow in '+'");
	compile_fails("-(-9223372036854775807 - 1)", EEVDF_EPARSE, err,
		      sizeof(err));
	ck_assert_pstr_eq(err, "column 1: integer overflow in unary '-'");
	compile_fails("ncpus / (m - 3)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 7: division by zero in '/'");
}
END_TEST

START_TEST(expr_shift_count_must_be_within_0_to_63)
{
	char err[256];

	eval_fails("@one << 64", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err,
			  "column 6: shift count 64 is outside 0..63 in '<<'");
	eval_fails("@one >> -1", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err,
			  "column 6: shift count -1 is outside 0..63 in '>>'");
	eval_fails("@one << 63", EEVDF_ERANGE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: integer overflow in '<<'");
	ck_assert_int_eq(eval_ok("@one << 62"), INT64_C(1) << 62);
	ck_assert_int_eq(eval_ok("@big >> 63"), 0);
	compile_fails("1 << 64", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "shift count 64");
}
END_TEST

/* ---- Compile errors ---- */

START_TEST(expr_unbalanced_parentheses_are_reported_with_a_column)
{
	char err[256];

	compile_fails("(1 + 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 7: missing ')' for the '(' at column 1");
	compile_fails("1 + 2)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 6: unmatched ')'");
	compile_fails("((1) * (2 + 3)", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err,
			  "column 15: missing ')' for the '(' at column 1");
	compile_fails("()", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 2: expected an operand, found ')'");
}
END_TEST

START_TEST(expr_trailing_garbage_is_rejected)
{
	char err[256];

	compile_fails("1 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 3: expected an operator, found '2'");
	compile_fails("ncpus m", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 7: expected an operator, found 'm'");
	compile_fails("1 + 2 ;", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 7: unexpected character ';'");
	compile_fails("1 = 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 3: unexpected '=' (did you mean '=='?)");
	compile_fails("1 & 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 3: unexpected '&' (did you mean '&&'?)");
}
END_TEST

START_TEST(expr_missing_operands_are_rejected)
{
	char err[256];

	compile_fails("1 +", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: expected an operand, found the end "
			       "of the expression");
	compile_fails("* 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: expected an operand, found '*'");
	compile_fails("1 + * 2", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 5: expected an operand, found '*'");
}
END_TEST

START_TEST(expr_empty_expression_is_rejected)
{
	char err[256];

	compile_fails("", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 1: empty expression");
	compile_fails("  \t", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 4: empty expression");
}
END_TEST

START_TEST(expr_dollar_brace_must_be_interpolated_first)
{
	char err[256];

	compile_fails("sec(now) >= ${runtime}", EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "column 13: '${' is expanded at load time");
}
END_TEST

/* "(((...(x)...)))" with n pairs. */
static void nested_parens(char *buf, size_t len, unsigned n, const char *x)
{
	size_t o = 0;
	unsigned i;

	ck_assert_uint_lt(2 * n + strlen(x), len);
	for (i = 0; i < n; i++)
		buf[o++] = '(';
	o += (size_t)sprintf(buf + o, "%s", x);
	for (i = 0; i < n; i++)
		buf[o++] = ')';
	buf[o] = '\0';
}

START_TEST(expr_too_deep_nesting_is_rejected)
{
	char src[512], err[256];

	nested_parens(src, sizeof(src), EXPR_MAX_NESTING, "@x");
	ck_assert_int_eq(eval_ok(src), 7);
	nested_parens(src, sizeof(src), EXPR_MAX_NESTING + 1, "@x");
	compile_fails(src, EEVDF_EPARSE, err, sizeof(err));
	ck_assert_pstr_eq(err, "column 65: nesting deeper than 64 levels");
	nested_parens(src, sizeof(src), 200, "1");
	compile_fails(src, EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "nesting deeper than 64 levels");
}
END_TEST

/* n levels of "@one == @one < @one << @one + @one * (...)". */
static void deep_stack(char *buf, size_t len, unsigned n)
{
	static const char level[] = "@one == @one < @one << @one + @one * (";
	size_t o = 0;
	unsigned i;

	ck_assert_uint_lt(n * (sizeof(level) + 1) + 8, len);
	for (i = 0; i < n; i++)
		o += (size_t)sprintf(buf + o, "%s", level);
	o += (size_t)sprintf(buf + o, "@one");
	for (i = 0; i < n; i++)
		buf[o++] = ')';
	buf[o] = '\0';
}

START_TEST(expr_a_stack_deeper_than_the_limit_is_rejected)
{
	char src[1024], err[256];

	/* Five operands wait per level: 12 levels need 61 slots... */
	deep_stack(src, sizeof(src), 12);
	ck_assert_int_eq(eval_ok(src), 1);
	/* ...and 13 need 66. */
	deep_stack(src, sizeof(src), 13);
	compile_fails(src, EEVDF_EPARSE, err, sizeof(err));
	ck_assert_str_contains(err, "needs more than 64 stack slots");
}
END_TEST

START_TEST(expr_compile_rejects_null_arguments)
{
	struct expr *e = NULL;
	char err[64];

	ck_assert_int_eq(eevdf__expr_compile(NULL, 0, test_resolve, NULL, &e,
					     err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf__expr_compile("1", 1, NULL, NULL, &e, err,
					     sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(e);
	/* No error buffer is fine too. */
	ck_assert_int_eq(eevdf__expr_compile("1 +", 3, test_resolve, NULL, &e,
					     NULL, 0),
			 EEVDF_EPARSE);
	eevdf__expr_free(NULL);
}
END_TEST

START_TEST(expr_compile_reads_only_len_bytes)
{
	struct expr *e = NULL;
	int64_t v = 0;

	/* "12" out of "123": the source need not be NUL-terminated. */
	ck_assert_int_eq(eevdf__expr_compile("123", 2, test_resolve, NULL, &e,
					     NULL, 0),
			 0);
	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 12);
	eevdf__expr_free(e);
	ck_assert_int_eq(eevdf__expr_compile("ncpusX", 5, test_resolve, NULL,
					     &e, NULL, 0),
			 0);
	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 8);
	eevdf__expr_free(e);
}
END_TEST

/* ---- Constants ---- */

/* Same source, same code; any difference in code or column is not. */
START_TEST(expr_same_compares_the_compiled_code)
{
	struct expr *a = compile_ok("@x + 1");
	struct expr *b = compile_ok("@x + 1");
	struct expr *c = compile_ok("@x + 2");
	struct expr *d = compile_ok("@x  + 1"); /* the '+' one column on */
	struct expr *e = compile_ok("@y + 1");
	struct expr *k = compile_ok("3 * 4");
	struct expr *l = compile_ok("12");

	ck_assert(eevdf__expr_same(a, b));
	ck_assert(eevdf__expr_same(b, a));
	ck_assert(!eevdf__expr_same(a, c));
	ck_assert(!eevdf__expr_same(a, d));
	ck_assert(!eevdf__expr_same(a, e));
	ck_assert(!eevdf__expr_same(a, NULL));
	ck_assert(eevdf__expr_same(NULL, NULL));
	/* folded constants: the same value at the same column */
	ck_assert(eevdf__expr_same(k, l));
	eevdf__expr_free(a);
	eevdf__expr_free(b);
	eevdf__expr_free(c);
	eevdf__expr_free(d);
	eevdf__expr_free(e);
	eevdf__expr_free(k);
	eevdf__expr_free(l);
}
END_TEST

START_TEST(expr_constant_expressions_are_reported_constant)
{
	struct expr *e;
	int64_t v = 0;

	e = compile_ok("2 * (ncpus + 1) - 1.5ms / 1us");
	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 18 - 1500);
	/* A constant needs no context. */
	v = 0;
	ck_assert_int_eq(eevdf__expr_eval(e, NULL, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 18 - 1500);
	eevdf__expr_free(e);

	e = compile_ok("2 * @x");
	ck_assert(!eevdf__expr_is_const(e, &v));
	eevdf__expr_free(e);
	e = compile_ok("now");
	ck_assert(!eevdf__expr_is_const(e, NULL));
	eevdf__expr_free(e);
	e = compile_ok("stop || 0");
	ck_assert(!eevdf__expr_is_const(e, NULL));
	eevdf__expr_free(e);

	/* A variable on the dead side of a constant && does not count. */
	e = compile_ok("0 && @x");
	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 0);
	eevdf__expr_free(e);
	e = compile_ok("1 || @@g");
	ck_assert(eevdf__expr_is_const(e, &v));
	ck_assert_int_eq(v, 1);
	eevdf__expr_free(e);
	ck_assert(!eevdf__expr_is_const(NULL, &v));
}
END_TEST

/* ---- ${...} ---- */

static char *interp_ok(const char *s)
{
	char err[256] = "", *out = NULL;
	int rc;

	rc = eevdf__expr_interpolate(s, test_resolve, NULL, &out, err,
				     sizeof(err));
	ck_assert_msg(rc == 0, "\"%s\" failed (%d): %s", s, rc, err);
	ck_assert_ptr_nonnull(out);
	return out;
}

#define ck_assert_interp(s, want)                                              \
	do {                                                                   \
		char *got_ = interp_ok(s);                                     \
		ck_assert_pstr_eq(got_, (want));                               \
		free(got_);                                                    \
	} while (0)

START_TEST(expr_interpolate_replaces_each_expansion_with_its_value)
{
	ck_assert_interp("ch[${g}][@j]", "ch[2][@j]");
	ck_assert_interp("worker[${m - 1}][${ncpus*2}]", "worker[2][16]");
	ck_assert_interp("${timelimit/5}", "120000000000");
	ck_assert_interp("${1}${2}${3}", "123");
	/* Longer than what it replaces, to make the buffer grow. */
	ck_assert_interp("${-9223372036854775807 - 1}", "-9223372036854775808");
	ck_assert_interp("a${1s}b${1s}c${1s}",
			 "a1000000000b1000000000c1000000000");
}
END_TEST

START_TEST(expr_interpolate_copies_text_outside_expansions)
{
	ck_assert_interp("", "");
	ck_assert_interp("no dollars", "no dollars");
	ck_assert_interp("cost $5 {x} $", "cost $5 {x} $");
	/* A run-time expression keeps its variables for later. */
	ck_assert_interp("${m} + @x * ${g}", "3 + @x * 2");
}
END_TEST

START_TEST(expr_interpolate_rejects_bad_expansions)
{
	char err[256], *out = NULL;

	ck_assert_int_eq(eevdf__expr_interpolate("x${m", test_resolve, NULL,
						 &out, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 2: unterminated '${'");
	ck_assert_int_eq(eevdf__expr_interpolate("ab${m + bogus}", test_resolve,
						 NULL, &out, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 9: unknown name 'bogus'");
	ck_assert_int_eq(eevdf__expr_interpolate("ch[${@x + 1}]", test_resolve,
						 NULL, &out, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 6: '${...}' must be constant, but "
			       "'@x' is only known at run time");
	ck_assert_int_eq(eevdf__expr_interpolate("n${}", test_resolve, NULL,
						 &out, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 4: empty expression");
	ck_assert_int_eq(eevdf__expr_interpolate("${1/0}", test_resolve, NULL,
						 &out, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 4: division by zero in '/'");
	ck_assert_ptr_null(out);
}
END_TEST

START_TEST(expr_whole_string_expansion_gives_a_typed_value)
{
	bool whole = false;
	int64_t v = -1;
	char err[256];

	ck_assert_int_eq(eevdf__expr_whole("${m * 2}", test_resolve, NULL,
					   &whole, &v, err, sizeof(err)),
			 0);
	ck_assert(whole);
	ck_assert_int_eq(v, 6);
	ck_assert_int_eq(eevdf__expr_whole("${timelimit}", test_resolve, NULL,
					   &whole, &v, err, sizeof(err)),
			 0);
	ck_assert(whole);
	ck_assert_int_eq(v, 600 * EEVDF_NSEC_PER_SEC);

	v = -1;
	ck_assert_int_eq(eevdf__expr_whole("x${m}", test_resolve, NULL, &whole,
					   &v, err, sizeof(err)),
			 0);
	ck_assert(!whole);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(eevdf__expr_whole("${m}x", test_resolve, NULL, &whole,
					   &v, err, sizeof(err)),
			 0);
	ck_assert(!whole);
	ck_assert_int_eq(eevdf__expr_whole("${m}${m}", test_resolve, NULL,
					   &whole, &v, err, sizeof(err)),
			 0);
	ck_assert(!whole);
	ck_assert_int_eq(eevdf__expr_whole("8ms", test_resolve, NULL, &whole,
					   &v, err, sizeof(err)),
			 0);
	ck_assert(!whole);
	ck_assert_int_eq(v, -1);
}
END_TEST

START_TEST(expr_whole_rejects_unterminated_and_non_constant)
{
	bool whole = true;
	int64_t v = -1;
	char err[256];

	ck_assert_int_eq(eevdf__expr_whole("${m", test_resolve, NULL, &whole,
					   &v, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 1: unterminated '${'");
	ck_assert_int_eq(eevdf__expr_whole("${now}", test_resolve, NULL, &whole,
					   &v, err, sizeof(err)),
			 EEVDF_EPARSE);
	ck_assert_pstr_eq(err, "column 3: '${...}' must be constant, but "
			       "'now' is only known at run time");
	ck_assert_int_eq(v, -1);
}
END_TEST

/* ---- Random trees against a direct evaluation ---- */

enum {
	N_LEAF,
	N_UNARY,
	N_BINARY
};

struct node {
	int kind;
	int op; /* index into un_ops or bin_ops */
	int64_t val;
	int a, b;
};

static const char *const un_ops[] = { "-", "!", "abs", "sec", "us" };
static const char *const bin_ops[] = {
	"+",  "-",  "*",  "/",	"%",  "<<",  ">>",  "<",    ">",     "<=",
	"==", "!=", ">=", "&&", "||", "min", "max", "ceil", "floor",
};

/* Tree results: a value, or the class of error the library must give. */
enum {
	R_OK,
	R_DIV0,
	R_RANGE
};

struct tree {
	struct node n[128];
	int nr;
	unsigned leaves;
	uint64_t lcg;
};

static uint32_t lcg_next(struct tree *t)
{
	/* Knuth's MMIX constants; the high half has the good bits. */
	t->lcg = t->lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(t->lcg >> 33);
}

static int gen(struct tree *t, int depth)
{
	static const int64_t bigs[] = {
		63,	    64,		1000,	   999999999,
		1000000000, 3000000007, INT64_MAX, INT64_C(1) << 62,
	};
	int i = t->nr++;
	struct node *n = &t->n[i];
	uint32_t r = lcg_next(t) % 10;

	ck_assert_int_lt(t->nr, (int)ARRAY_SIZE(t->n));
	if (depth == 0 || r < 3) {
		n->kind = N_LEAF;
		if (lcg_next(t) % 5)
			n->val = lcg_next(t) % 10;
		else
			n->val = bigs[lcg_next(t) % ARRAY_SIZE(bigs)];
		t->leaves++;
	} else if (r < 5) {
		n->kind = N_UNARY;
		n->op = (int)(lcg_next(t) % ARRAY_SIZE(un_ops));
		n->a = gen(t, depth - 1);
	} else {
		n->kind = N_BINARY;
		n->op = (int)(lcg_next(t) % ARRAY_SIZE(bin_ops));
		n->a = gen(t, depth - 1);
		n->b = gen(t, depth - 1);
	}
	return i;
}

/*
 * Print node i fully parenthesised.  Leaf k (in print order) is a literal,
 * or "@vK"/"@@vK" when vars says so, with vals[K] its value.
 */
static void print_tree(const struct tree *t, int i, const bool *vars,
		       int64_t *vals, unsigned *leaf, char *buf, size_t *o,
		       size_t len)
{
	const struct node *n = &t->n[i];

	ck_assert_uint_lt(*o + 64, len);
	switch (n->kind) {
	case N_LEAF:
		vals[*leaf] = n->val;
		if (vars[*leaf])
			*o += (size_t)sprintf(buf + *o, "%sv%u",
					      *leaf % 2 ? "@@" : "@", *leaf);
		else
			*o += (size_t)sprintf(buf + *o, "%" PRId64, n->val);
		(*leaf)++;
		return;
	case N_UNARY:
		if (n->op < 2)
			*o += (size_t)sprintf(buf + *o, "(%s", un_ops[n->op]);
		else
			*o += (size_t)sprintf(buf + *o, "%s(", un_ops[n->op]);
		print_tree(t, n->a, vars, vals, leaf, buf, o, len);
		buf[(*o)++] = ')';
		return;
	default:
		break;
	}
	if (n->op >= 15) {
		*o += (size_t)sprintf(buf + *o, "%s(", bin_ops[n->op]);
		print_tree(t, n->a, vars, vals, leaf, buf, o, len);
		*o += (size_t)sprintf(buf + *o, ", ");
	} else {
		buf[(*o)++] = '(';
		print_tree(t, n->a, vars, vals, leaf, buf, o, len);
		*o += (size_t)sprintf(buf + *o, " %s ", bin_ops[n->op]);
	}
	print_tree(t, n->b, vars, vals, leaf, buf, o, len);
	buf[(*o)++] = ')';
	buf[*o] = '\0';
}

/* Floor division spelled differently from the library's, on purpose. */
static s128 ref_floor_div(s128 a, s128 b)
{
	s128 q = a / b, r = a - q * b;

	return r != 0 && (r < 0) != (b < 0) ? q - 1 : q;
}

static int ref_fits(s128 v, int64_t *out)
{
	if (v < INT64_MIN || v > INT64_MAX)
		return R_RANGE;
	*out = (int64_t)v;
	return R_OK;
}

/* Evaluate node i directly, in 128 bits, with C's short-circuit order. */
static int ref_eval(const struct tree *t, int i, int64_t *out)
{
	const struct node *n = &t->n[i];
	int64_t a, b;
	int rc;

	if (n->kind == N_LEAF) {
		*out = n->val;
		return R_OK;
	}
	if ((rc = ref_eval(t, n->a, &a)))
		return rc;
	if (n->kind == N_UNARY) {
		switch (n->op) {
		case 0:
			return ref_fits(-(s128)a, out);
		case 1:
			*out = a == 0;
			return R_OK;
		case 2:
			return ref_fits(a < 0 ? -(s128)a : a, out);
		case 3:
			return ref_fits(ref_floor_div(a, 1000000000), out);
		default:
			return ref_fits(ref_floor_div(a, 1000), out);
		}
	}
	/* && and || decide before looking at their right side. */
	if (n->op == 13 && a == 0) {
		*out = 0;
		return R_OK;
	}
	if (n->op == 14 && a != 0) {
		*out = 1;
		return R_OK;
	}
	if ((rc = ref_eval(t, n->b, &b)))
		return rc;
	switch (n->op) {
	case 0:
		return ref_fits((s128)a + b, out);
	case 1:
		return ref_fits((s128)a - b, out);
	case 2:
		return ref_fits((s128)a * b, out);
	case 3:
	case 4:
	case 17:
	case 18:
		if (b == 0)
			return R_DIV0;
		if (n->op == 3)
			return ref_fits((s128)a / b, out);
		if (n->op == 4)
			return ref_fits((s128)a % b, out);
		if (n->op == 17)
			return ref_fits(-ref_floor_div(-(s128)a, b), out);
		return ref_fits(ref_floor_div(a, b), out);
	case 5:
	case 6:
		if (b < 0 || b > 63)
			return R_RANGE;
		if (n->op == 5)
			return ref_fits((s128)a * ((s128)1 << b), out);
		return ref_fits(ref_floor_div(a, (s128)1 << b), out);
	case 7:
		*out = a < b;
		return R_OK;
	case 8:
		*out = a > b;
		return R_OK;
	case 9:
		*out = a <= b;
		return R_OK;
	case 10:
		*out = a == b;
		return R_OK;
	case 11:
		*out = a != b;
		return R_OK;
	case 12:
		*out = a >= b;
		return R_OK;
	case 13:
	case 14:
		*out = b != 0;
		return R_OK;
	case 15:
		*out = a < b ? a : b;
		return R_OK;
	default:
		*out = a > b ? a : b;
		return R_OK;
	}
}

/*
 * One tree, printed with each leaf a literal or a variable as vars says;
 * the library must agree with ref_eval on the value or the error class.
 * Returns whether the expression evaluated.
 */
static bool check_tree(const struct tree *t, const bool *vars, bool all_vars,
		       int want_rc, int64_t want)
{
	int64_t vals[128], v = 0;
	struct expr_ctx ctx = { 0 };
	char src[8192], err[256] = "";
	struct expr *e = NULL;
	unsigned leaf = 0;
	size_t o = 0;
	int rc;

	print_tree(t, 0, vars, vals, &leaf, src, &o, sizeof(src));
	src[o] = '\0';
	/* Odd leaves are globals, even ones locals: share one array. */
	ctx.locals = vals;
	ctx.nr_locals = leaf;
	ctx.globals = vals;
	ctx.nr_globals = leaf;

	rc = eevdf__expr_compile(src, strlen(src), resolve_numbered, NULL, &e,
				 err, sizeof(err));
	if (rc) {
		/* Only an always-failing constant (sub)expression may. */
		ck_assert_msg(rc == EEVDF_EPARSE && want_rc != R_OK,
			      "%s: compile gave %d (%s), want %" PRId64, src,
			      rc, err, want);
		ck_assert_msg(!all_vars, "%s: nothing to fold, yet %s", src,
			      err);
		return false;
	}
	rc = eevdf__expr_eval(e, &ctx, &v, err, sizeof(err));
	eevdf__expr_free(e);
	if (want_rc == R_OK) {
		ck_assert_msg(rc == 0 && v == want,
			      "%s: got %d/%" PRId64 " (%s), want %" PRId64, src,
			      rc, v, err, want);
		return true;
	}
	ck_assert_msg(rc == (want_rc == R_DIV0 ? EEVDF_EINVAL : EEVDF_ERANGE),
		      "%s: got %d/%" PRId64 " (%s), want error class %d", src,
		      rc, v, err, want_rc);
	return false;
}

START_TEST(expr_random_trees_match_direct_evaluation)
{
	struct tree t;
	bool vars[128];
	unsigned iter, i, ok = 0, failed = 0;

	memset(&t, 0, sizeof(t));
	t.lcg = 0x5eed;
	for (iter = 0; iter < 4000; iter++) {
		int64_t want = 0;
		int want_rc;

		t.nr = 0;
		t.leaves = 0;
		gen(&t, 1 + (int)(lcg_next(&t) % 6));
		want_rc = ref_eval(&t, 0, &want);

		/* All literals: folded at compile time. */
		memset(vars, 0, sizeof(vars));
		ok += check_tree(&t, vars, false, want_rc, want);
		/* All variables: evaluated at run time, nothing folded. */
		memset(vars, 1, sizeof(vars));
		ok += check_tree(&t, vars, true, want_rc, want);
		/* A mix: partial folding next to run-time code. */
		for (i = 0; i < t.leaves; i++)
			vars[i] = lcg_next(&t) % 2;
		ok += check_tree(&t, vars, false, want_rc, want);
		failed += want_rc != R_OK;
	}
	/* Both outcomes must be well represented for the test to mean much. */
	ck_assert_uint_gt(ok, 3 * 2000);
	ck_assert_uint_gt(failed, 200);
}
END_TEST

Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *syntax = tcase_create("syntax");
	TCase *values = tcase_create("values");
	TCase *errors = tcase_create("errors");
	TCase *interp = tcase_create("interpolation");
	TCase *random = tcase_create("random");

	tcase_add_test(syntax,
		       expr_operators_follow_c_precedence_and_associativity);
	tcase_add_test(syntax,
		       expr_run_time_evaluation_agrees_with_constant_folding);
	tcase_add_test(syntax, expr_durations_are_exact_nanoseconds);
	tcase_add_test(syntax, expr_a_fraction_without_a_unit_is_rejected);
	tcase_add_test(syntax,
		       expr_malformed_literals_are_rejected_with_a_column);
	tcase_add_test(syntax,
		       expr_unbalanced_parentheses_are_reported_with_a_column);
	tcase_add_test(syntax, expr_trailing_garbage_is_rejected);
	tcase_add_test(syntax, expr_missing_operands_are_rejected);
	tcase_add_test(syntax, expr_empty_expression_is_rejected);
	tcase_add_test(syntax, expr_dollar_brace_must_be_interpolated_first);
	tcase_add_test(syntax, expr_too_deep_nesting_is_rejected);
	tcase_add_test(syntax, expr_a_stack_deeper_than_the_limit_is_rejected);
	tcase_add_test(syntax, expr_compile_rejects_null_arguments);
	tcase_add_test(syntax, expr_compile_reads_only_len_bytes);
	suite_add_tcase(s, syntax);

	tcase_add_test(values, expr_parameters_resolve_to_constants);
	tcase_add_test(values,
		       expr_locals_globals_now_and_stop_come_from_the_context);
	tcase_add_test(values, expr_unknown_names_are_named_in_the_message);
	tcase_add_test(values, expr_sec_and_us_round_towards_minus_infinity);
	tcase_add_test(values, expr_ceil_and_floor_are_divisions);
	tcase_add_test(values, expr_min_max_and_abs);
	tcase_add_test(values, expr_functions_check_their_name_and_arguments);
	tcase_add_test(values,
		       expr_and_skips_its_right_side_when_the_left_is_false);
	tcase_add_test(values,
		       expr_or_skips_its_right_side_when_the_left_is_true);
	tcase_add_test(values, expr_constant_expressions_are_reported_constant);
	tcase_add_test(values, expr_same_compares_the_compiled_code);
	tcase_add_test(
		values,
		expr_common_shapes_take_the_direct_path_with_the_same_results);
	tcase_add_test(values, expr_form_names_exactly_the_inline_shapes);
	tcase_add_test(values, us_of_rounds_toward_minus_infinity);
	suite_add_tcase(s, values);

	tcase_add_test(errors, expr_division_by_zero_at_run_time_is_einval);
	tcase_add_test(errors, expr_signed_overflow_at_run_time_is_erange);
	tcase_add_test(errors, expr_constant_overflow_fails_at_compile_time);
	tcase_add_test(errors, expr_shift_count_must_be_within_0_to_63);
	tcase_add_test(errors, expr_a_slot_beyond_the_context_is_einval);
	tcase_add_test(errors, expr_a_variable_needs_a_context);
	suite_add_tcase(s, errors);

	tcase_add_test(interp,
		       expr_interpolate_replaces_each_expansion_with_its_value);
	tcase_add_test(interp, expr_interpolate_copies_text_outside_expansions);
	tcase_add_test(interp, expr_interpolate_rejects_bad_expansions);
	tcase_add_test(interp, expr_whole_string_expansion_gives_a_typed_value);
	tcase_add_test(interp,
		       expr_whole_rejects_unterminated_and_non_constant);
	suite_add_tcase(s, interp);

	tcase_add_test(random, expr_random_trees_match_direct_evaluation);
	suite_add_tcase(s, random);
	return s;
}
