/* SPDX-License-Identifier: MIT */
/*
 * Value distributions of workload files: validation and sampling.
 *
 * Why the draws are the same at -O0 and -O2 (and with gcc or clang on one
 * machine), although they use floating point:
 *  - The inputs are exact: eevdf__rng_double() scales 53 random bits by
 *    2^-53 without rounding, and the parameters are fixed at load time.
 *  - Every operation is a separate, correctly rounded IEEE-754 double
 *    operation (+ - * / and sqrt), because: the build is ISO C (-std=c11,
 *    not gnu11), which makes gcc default to -ffp-contract=off, and clang
 *    gets the same from the STDC FP_CONTRACT pragma below, so no a * b + c
 *    is fused into an fma at one level and not at another; there is no
 *    -ffast-math, so nothing is reassociated or replaced by a reciprocal;
 *    and x86-64 and arm64 evaluate double in double (FLT_EVAL_METHOD 0,
 *    SSE2 rather than x87), so no extended-precision intermediates appear
 *    or disappear with register allocation.
 *  - log, exp and cos are never constant-folded (their arguments are run
 *    time values), so they are always the same libm routines on the same
 *    machine.  glibc's log and exp (since 2.28) are deterministic, nearly
 *    correctly rounded table-driven codes, and its cos is the IBM
 *    accurate-math one; none of them depends on the caller's flags.
 * A different libm (musl, macOS, another glibc) may differ in the last
 * bit of log/exp/cos, which after rounding to an integer changes a draw
 * only when the result lies within an ulp of a half-integer.  That is why
 * the tests compare such draws against goldens computed by this very
 * code, and integer-only kinds (uniform, uniform_int, empirical, choice's
 * index) against values derived by hand.
 */
#include <math.h>
#include <string.h>

#include "dist.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* 2^63 as a double: the first real above every int64. */
#define TWO_POW_63 0x1p63
#define TWO_PI 6.283185307179586476925286766559005768

#define set_err eevdf__set_err

static void dist_zero(struct eevdf_dist *d)
{
	memset(d, 0, sizeof(*d));
	d->kind = EEVDF_DIST_CONST;
	d->lo = INT64_MIN;
	d->hi = INT64_MAX;
}

void eevdf__dist_set_range(struct eevdf_dist *d, s64 lo, s64 hi)
{
	d->lo = lo;
	d->hi = hi;
}

/*
 * base + off, for an off known to keep the sum within int64.  The sum is
 * formed in u64, where wrap-around is defined; converting a u64 above
 * INT64_MAX back to s64 is implementation-defined in C, so that case is
 * spelled out as the negative number it stands for.
 */
static s64 s64_add_u64(s64 base, u64 off)
{
	u64 x = (u64)base + off;

	if (x <= (u64)INT64_MAX)
		return (s64)x;
	return -(s64)(UINT64_MAX - x) - 1;
}

/*
 * Round to nearest (halves away from zero, as round() does) and saturate
 * to int64.  NaN cannot come out of validated parameters; it maps to 0
 * rather than to undefined behaviour.
 */
static s64 round_sat(double x)
{
	if (isnan(x))
		return 0;
	if (x >= TWO_POW_63)
		return INT64_MAX;
	if (x < -TWO_POW_63)
		return INT64_MIN;
	/* |x| < 2^63 here, and doubles that large are already integers, so
	 * round() cannot carry x up to 2^63. */
	return (s64)round(x);
}

/*
 * One standard normal deviate from two draws (Box-Muller, cosine branch).
 * 1 - u1 lies in (0, 1], so the log is finite; the sine branch would be an
 * independent second deviate, but caching it would make the draw count
 * per sample vary, so it is discarded.
 */
static double std_normal(struct eevdf_rng *r)
{
	double u1 = eevdf__rng_double(r);
	double u2 = eevdf__rng_double(r);
	double radius = sqrt(-2.0 * log(1.0 - u1));

	return radius * cos(TWO_PI * u2);
}

int eevdf__dist_init_const(struct eevdf_dist *d, s64 value)
{
	dist_zero(d);
	d->value = value;
	return 0;
}

int eevdf__dist_init_uniform(struct eevdf_dist *d, s64 min, s64 max, char *err,
			     size_t errlen)
{
	dist_zero(d);
	if (min >= max) {
		set_err(err, errlen,
			"uniform: min (%lld) must be less than max (%lld)",
			(long long)min, (long long)max);
		return EEVDF_EINVAL;
	}
	d->kind = EEVDF_DIST_UNIFORM;
	d->min = min;
	d->max = max;
	d->has_min = d->has_max = true;
	return 0;
}

int eevdf__dist_init_uniform_int(struct eevdf_dist *d, s64 min, s64 max,
				 char *err, size_t errlen)
{
	dist_zero(d);
	if (min > max) {
		set_err(err, errlen,
			"uniform_int: min (%lld) must not exceed max (%lld)",
			(long long)min, (long long)max);
		return EEVDF_EINVAL;
	}
	d->kind = EEVDF_DIST_UNIFORM_INT;
	d->min = min;
	d->max = max;
	d->has_min = d->has_max = true;
	return 0;
}

int eevdf__dist_init_exp(struct eevdf_dist *d, double mean, char *err,
			 size_t errlen)
{
	dist_zero(d);
	/* Written so that NaN fails too. */
	if (!(mean > 0.0 && mean < TWO_POW_63)) {
		set_err(err, errlen,
			"exp: mean (%g) must be > 0 and below 2^63", mean);
		return EEVDF_EINVAL;
	}
	d->kind = EEVDF_DIST_EXP;
	d->mean = mean;
	return 0;
}

int eevdf__dist_init_normal(struct eevdf_dist *d, double mean, double stddev,
			    bool has_min, s64 min, bool has_max, s64 max,
			    char *err, size_t errlen)
{
	dist_zero(d);
	if (!(mean >= -TWO_POW_63 && mean < TWO_POW_63)) {
		set_err(err, errlen,
			"normal: mean (%g) must be finite and within int64",
			mean);
		return EEVDF_EINVAL;
	}
	if (!(stddev >= 0.0 && isfinite(stddev))) {
		set_err(err, errlen,
			"normal: stddev (%g) must be finite and >= 0", stddev);
		return EEVDF_EINVAL;
	}
	if (has_min && has_max && min >= max) {
		set_err(err, errlen,
			"normal: min (%lld) must be less than max (%lld)",
			(long long)min, (long long)max);
		return EEVDF_EINVAL;
	}
	d->kind = EEVDF_DIST_NORMAL;
	d->mean = mean;
	d->stddev = stddev;
	d->has_min = has_min;
	d->min = has_min ? min : INT64_MIN;
	d->has_max = has_max;
	d->max = has_max ? max : INT64_MAX;
	return 0;
}

int eevdf__dist_init_lognormal(struct eevdf_dist *d, double median,
			       double sigma, bool has_max, s64 max, char *err,
			       size_t errlen)
{
	dist_zero(d);
	if (!(median > 0.0 && median < TWO_POW_63)) {
		set_err(err, errlen,
			"lognormal: median (%g) must be > 0 and below 2^63",
			median);
		return EEVDF_EINVAL;
	}
	if (!(sigma >= 0.0 && isfinite(sigma))) {
		set_err(err, errlen,
			"lognormal: sigma (%g) must be finite and >= 0", sigma);
		return EEVDF_EINVAL;
	}
	if (has_max && max <= 0) {
		set_err(err, errlen, "lognormal: max (%lld) must be > 0",
			(long long)max);
		return EEVDF_EINVAL;
	}
	d->kind = EEVDF_DIST_LOGNORMAL;
	d->median = median;
	d->sigma = sigma;
	d->has_min = true;
	d->min = 0;
	d->has_max = has_max;
	d->max = has_max ? max : INT64_MAX;
	return 0;
}

/* The shared checks and copy of CHOICE and EMPIRICAL's values. */
static int copy_values(struct eevdf_dist *d, const char *kind,
		       const s64 *values, size_t n, char *err, size_t errlen)
{
	if (n == 0 || !values) {
		set_err(err, errlen, "%s: values must not be empty", kind);
		return EEVDF_EINVAL;
	}
	if (n > SIZE_MAX / sizeof(*values)) {
		set_err(err, errlen, "%s: too many values", kind);
		return EEVDF_ENOMEM;
	}
	d->values = malloc(n * sizeof(*values));
	if (!d->values) {
		set_err(err, errlen, "%s: out of memory for %zu values", kind,
			n);
		return EEVDF_ENOMEM;
	}
	memcpy(d->values, values, n * sizeof(*values));
	d->n = n;
	return 0;
}

int eevdf__dist_init_choice(struct eevdf_dist *d, const s64 *values,
			    const double *weights, size_t n, char *err,
			    size_t errlen)
{
	double total = 0.0;
	size_t i;
	int ret;

	dist_zero(d);
	if (n == 0 || !values) {
		set_err(err, errlen, "choice: values must not be empty");
		return EEVDF_EINVAL;
	}
	if (!weights) {
		set_err(err, errlen, "choice: weights are missing");
		return EEVDF_EINVAL;
	}
	/* Validate everything before allocating anything. */
	for (i = 0; i < n; i++) {
		if (!(weights[i] >= 0.0 && isfinite(weights[i]))) {
			set_err(err, errlen,
				"choice: weights[%zu] (%g) must be finite "
				"and >= 0",
				i, weights[i]);
			return EEVDF_EINVAL;
		}
		total += weights[i];
	}
	if (!isfinite(total)) {
		set_err(err, errlen, "choice: the weights' sum overflows");
		return EEVDF_EINVAL;
	}
	if (!(total > 0.0)) {
		set_err(err, errlen,
			"choice: weights must have a positive sum");
		return EEVDF_EINVAL;
	}
	ret = copy_values(d, "choice", values, n, err, errlen);
	if (ret)
		return ret;
	d->cum = malloc(n * sizeof(*d->cum));
	if (!d->cum) {
		eevdf__dist_free(d);
		set_err(err, errlen, "choice: out of memory for %zu weights",
			n);
		return EEVDF_ENOMEM;
	}
	/* The same left-to-right sums as the check above: cum[n-1] == total. */
	total = 0.0;
	for (i = 0; i < n; i++) {
		total += weights[i];
		d->cum[i] = total;
	}
	d->kind = EEVDF_DIST_CHOICE;
	return 0;
}

int eevdf__dist_init_empirical(struct eevdf_dist *d, const s64 *values,
			       size_t n, char *err, size_t errlen)
{
	int ret;

	dist_zero(d);
	ret = copy_values(d, "empirical", values, n, err, errlen);
	if (ret)
		return ret;
	d->kind = EEVDF_DIST_EMPIRICAL;
	return 0;
}

/*
 * The first i with u < cum[i]: the running sums split [0, total) into one
 * interval per value, as long as its weight, so a zero weight owns an
 * empty interval and is never chosen.  u = u01 * total stays below total
 * even after rounding: u01 <= 1 - 2^-53 puts the exact product at least
 * half an ulp of total below it, and exactly half only when total is a
 * power of two, where the product is representable.  So the search
 * always ends inside; were the rounding mode ever changed, the fallback
 * gives the top interval to its owner, the last positive weight.
 */
static s64 choice_pick(const struct eevdf_dist *d, double u01)
{
	double u = u01 * d->cum[d->n - 1];
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u < d->cum[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo == d->n) {
		lo = d->n - 1;
		while (lo > 0 && d->cum[lo - 1] == d->cum[lo])
			lo--;
	}
	return d->values[lo];
}

static s64 clamp_s64(const struct eevdf_dist *d, s64 v)
{
	if (d->has_min && v < d->min)
		return d->min;
	if (d->has_max && v > d->max)
		return d->max;
	return v;
}

static s64 draw(const struct eevdf_dist *d, struct eevdf_rng *r)
{
	u64 span;
	double x;

	switch (d->kind) {
	case EEVDF_DIST_CONST:
		return d->value;
	case EEVDF_DIST_UNIFORM:
		/* max > min, so the span is 1..2^64-1 and fits a u64. */
		span = (u64)d->max - (u64)d->min;
		return s64_add_u64(d->min, eevdf__rng_below(r, span));
	case EEVDF_DIST_UNIFORM_INT:
		/* The full int64 range has 2^64 values: its span wraps to 0,
		 * and a raw 64-bit draw is exactly uniform over it. */
		span = (u64)d->max - (u64)d->min + 1;
		if (span == 0)
			return s64_add_u64(d->min, eevdf__rng_next(r));
		return s64_add_u64(d->min, eevdf__rng_below(r, span));
	case EEVDF_DIST_EXP:
		/* Inversion; 1 - u lies in (0, 1], so the log is finite. */
		x = -d->mean * log(1.0 - eevdf__rng_double(r));
		return round_sat(x);
	case EEVDF_DIST_NORMAL:
		x = d->mean + d->stddev * std_normal(r);
		return clamp_s64(d, round_sat(x));
	case EEVDF_DIST_LOGNORMAL:
		x = d->median * exp(d->sigma * std_normal(r));
		return clamp_s64(d, round_sat(x));
	case EEVDF_DIST_CHOICE:
		return choice_pick(d, eevdf__rng_double(r));
	case EEVDF_DIST_EMPIRICAL:
		return d->values[eevdf__rng_below(r, d->n)];
	}
	return 0; /* the kinds above are all there are */
}

s64 eevdf__dist_sample(const struct eevdf_dist *d, struct eevdf_rng *r)
{
	s64 v = draw(d, r);

	return v < d->lo ? d->lo : v > d->hi ? d->hi : v;
}

double eevdf__dist_mean(const struct eevdf_dist *d)
{
	double acc = 0.0, prev = 0.0;
	size_t i;

	switch (d->kind) {
	case EEVDF_DIST_CONST:
		return (double)d->value;
	case EEVDF_DIST_UNIFORM:
		/* The integers min .. max - 1. */
		return ((double)d->min + ((double)d->max - 1.0)) / 2.0;
	case EEVDF_DIST_UNIFORM_INT:
		return ((double)d->min + (double)d->max) / 2.0;
	case EEVDF_DIST_EXP:
	case EEVDF_DIST_NORMAL:
		return d->mean;
	case EEVDF_DIST_LOGNORMAL:
		return d->median * exp(d->sigma * d->sigma / 2.0);
	case EEVDF_DIST_CHOICE:
		/* Each weight is the step of the running sums. */
		for (i = 0; i < d->n; i++) {
			acc += (double)d->values[i] * (d->cum[i] - prev);
			prev = d->cum[i];
		}
		return acc / d->cum[d->n - 1];
	case EEVDF_DIST_EMPIRICAL:
		for (i = 0; i < d->n; i++)
			acc += (double)d->values[i];
		return acc / (double)d->n;
	}
	return 0.0; /* the kinds above are all there are */
}

const char *eevdf__dist_kind_name(enum eevdf_dist_kind kind)
{
	switch (kind) {
	case EEVDF_DIST_CONST:
		return "const";
	case EEVDF_DIST_UNIFORM:
		return "uniform";
	case EEVDF_DIST_UNIFORM_INT:
		return "uniform_int";
	case EEVDF_DIST_EXP:
		return "exp";
	case EEVDF_DIST_NORMAL:
		return "normal";
	case EEVDF_DIST_LOGNORMAL:
		return "lognormal";
	case EEVDF_DIST_CHOICE:
		return "choice";
	case EEVDF_DIST_EMPIRICAL:
		return "empirical";
	}
	return "unknown";
}

static bool same_bits(double x, double y)
{
	return memcmp(&x, &y, sizeof(x)) == 0;
}

bool eevdf__dist_same(const struct eevdf_dist *a, const struct eevdf_dist *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->value != b->value || a->min != b->min ||
	    a->max != b->max || a->has_min != b->has_min ||
	    a->has_max != b->has_max || !same_bits(a->mean, b->mean) ||
	    !same_bits(a->stddev, b->stddev) ||
	    !same_bits(a->median, b->median) ||
	    !same_bits(a->sigma, b->sigma) || a->n != b->n || a->lo != b->lo ||
	    a->hi != b->hi || !a->values != !b->values || !a->cum != !b->cum)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if ((a->values && a->values[i] != b->values[i]) ||
		    (a->cum && !same_bits(a->cum[i], b->cum[i])))
			return false;
	return true;
}

void eevdf__dist_free(struct eevdf_dist *d)
{
	if (!d)
		return;
	free(d->values);
	free(d->cum);
	dist_zero(d);
}
