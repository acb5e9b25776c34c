/* SPDX-License-Identifier: MIT */
/*
 * Value distributions of workload files: int64 draws from a task's stream.
 *
 * A distribution is built once, at load time, by one of the
 * eevdf__dist_init_*() constructors, which validate every parameter and
 * say which field is bad.  After that eevdf__dist_sample() cannot fail: a
 * result that would not fit an int64 saturates, and one outside the
 * distribution's own min/max is clamped to it.
 *
 * Every kind consumes a fixed number of draws per sample, so that changing
 * a parameter never shifts the rest of a task's stream:
 *
 *	const		none
 *	uniform		one eevdf__rng_below()
 *	uniform_int	one eevdf__rng_below()
 *	exp		one eevdf__rng_double()
 *	normal		two eevdf__rng_double() (Box-Muller)
 *	lognormal	two eevdf__rng_double() (the same)
 *	choice		one eevdf__rng_double()
 *	empirical	one eevdf__rng_below()
 *
 * (eevdf__rng_below() itself redraws on the rare rejection that keeps it
 * unbiased, as every bounded integer draw of the library does.)
 *
 * Floating point is used only here, for workload draws, never for a
 * scheduling decision; dist.c explains why the draws are still identical
 * at every optimisation level.
 */
#ifndef EEVDF_DIST_H
#define EEVDF_DIST_H

#include "lib/rng.h"

enum eevdf_dist_kind {
	EEVDF_DIST_CONST,	/* value */
	EEVDF_DIST_UNIFORM,	/* min + rng_below(max - min): [min, max) */
	EEVDF_DIST_UNIFORM_INT, /* [min, max], both ends included */
	EEVDF_DIST_EXP,		/* round(-mean * log(1 - u)) */
	EEVDF_DIST_NORMAL,	/* round(mean + stddev * z), clamped */
	EEVDF_DIST_LOGNORMAL,	/* round(median * e^(sigma * z)), capped */
	EEVDF_DIST_CHOICE,	/* values[i] with odds weight[i] / sum */
	EEVDF_DIST_EMPIRICAL,	/* values[rng_below(n)] */
};

struct eevdf_dist {
	enum eevdf_dist_kind kind;
	/*
	 * CONST: value.  UNIFORM, UNIFORM_INT: the range.  NORMAL: the clamp
	 * when has_min / has_max.  LOGNORMAL: max when has_max (its min is
	 * always 0).
	 */
	s64 value;
	s64 min, max;
	bool has_min, has_max;
	/* EXP, NORMAL: mean; NORMAL: stddev; LOGNORMAL: median and sigma. */
	double mean, stddev;
	double median, sigma;
	/*
	 * CHOICE, EMPIRICAL: n values owned by the distribution.  CHOICE
	 * also owns cum[], the running sums of the weights (cum[n - 1] is
	 * the total), so that a draw is one binary search.
	 */
	size_t n;
	s64 *values;
	double *cum;
	/*
	 * Every draw of every kind is clamped to [lo, hi]: the range of the
	 * operand it feeds (0..10^15 ns for a duration), so that no draw
	 * leaves what the format documents.  The whole int64 range unless
	 * eevdf__dist_set_range() narrows it.
	 */
	s64 lo, hi;
};

/*
 * Constructors.  Each fully initialises *d, returns 0, or returns a
 * negative EEVDF_E* code with *d left safe to pass to eevdf__dist_free()
 * and, when err is not NULL, a message in err naming the bad field (as
 * snprintf: at most errlen bytes, always terminated).
 *
 * EEVDF_EINVAL: a parameter is out of its domain (see each function).
 * EEVDF_ENOMEM: the arrays could not be copied.
 */
int eevdf__dist_init_const(struct eevdf_dist *d, s64 value);

/* Clamp every later draw of d to [lo, hi] (lo <= hi). */
void eevdf__dist_set_range(struct eevdf_dist *d, s64 lo, s64 hi);

/* min < max; draws are integers in [min, max). */
int eevdf__dist_init_uniform(struct eevdf_dist *d, s64 min, s64 max, char *err,
			     size_t errlen);

/* min <= max; draws are integers in [min, max] (min == max is a
 * constant that still consumes its draw). */
int eevdf__dist_init_uniform_int(struct eevdf_dist *d, s64 min, s64 max,
				 char *err, size_t errlen);

/* 0 < mean < 2^63. */
int eevdf__dist_init_exp(struct eevdf_dist *d, double mean, char *err,
			 size_t errlen);

/*
 * mean finite and within int64, 0 <= stddev finite; min and/or max (when
 * has_min / has_max) clamp the draw, and min < max when both are given.
 */
int eevdf__dist_init_normal(struct eevdf_dist *d, double mean, double stddev,
			    bool has_min, s64 min, bool has_max, s64 max,
			    char *err, size_t errlen);

/* 0 < median < 2^63, 0 <= sigma finite; max > 0 when has_max. */
int eevdf__dist_init_lognormal(struct eevdf_dist *d, double median,
			       double sigma, bool has_max, s64 max, char *err,
			       size_t errlen);

/*
 * n >= 1 values and n weights, each finite and >= 0, with a positive and
 * finite sum.  The arrays are copied.
 */
int eevdf__dist_init_choice(struct eevdf_dist *d, const s64 *values,
			    const double *weights, size_t n, char *err,
			    size_t errlen);

/* n >= 1 values, each equally likely.  The array is copied. */
int eevdf__dist_init_empirical(struct eevdf_dist *d, const s64 *values,
			       size_t n, char *err, size_t errlen);

/* Draw one value from r.  Never fails; see the draw counts above. */
s64 eevdf__dist_sample(const struct eevdf_dist *d, struct eevdf_rng *r);

/*
 * The mean of the law, for documentation and tests: of the integer draws
 * for const, uniform, uniform_int, choice and empirical; of the real
 * variable before rounding and clamping for exp, normal and lognormal.
 */
double eevdf__dist_mean(const struct eevdf_dist *d);

/* "const", "uniform", ...: the workload file's spelling of kind. */
const char *eevdf__dist_kind_name(enum eevdf_dist_kind kind);

/*
 * True when a and b draw the same values from the same stream: same kind,
 * parameters (bit for bit), arrays and range; two NULLs are.
 */
bool eevdf__dist_same(const struct eevdf_dist *a, const struct eevdf_dist *b);

/* Release the arrays; d may be NULL or zero-filled, and is reset to a
 * const 0, so freeing twice is harmless. */
void eevdf__dist_free(struct eevdf_dist *d);

#endif
