/* SPDX-License-Identifier: MIT */
/*
 * Summary statistics of one figure over the seeds of a configuration, as
 * 'eevdf-sim compare' and 'eevdf-sim merge' print them: mean, sample
 * standard deviation, minimum, maximum and the 95 % confidence interval
 * of the mean from Student's t distribution.
 */
#ifndef EEVDF_STATS_H
#define EEVDF_STATS_H

#include "eevdf/types.h"

struct eevdf_stats {
	size_t n;	/* values */
	double mean;	/* sum / n, summed in order */
	double stddev;	/* sample standard deviation (n - 1); NAN when n < 2 */
	double min, max;
	double ci95;	/* half-width of the 95 % interval of the mean,
			 * t(0.975, n - 1) * stddev / sqrt(n); NAN when n < 2 */
};

/*
 * The statistics of v[0 .. n) into *out.  0, or EEVDF_EINVAL for a NULL
 * argument or n == 0 (*out is then zeroed when out is not NULL).  The
 * arithmetic is fixed (sum in order, then the squared deviations from
 * the mean in order) so that every build prints the same digits; values
 * all equal have exactly that mean and a stddev of 0, not rounding's.
 */
EEVDF_API int eevdf_stats_compute(const double *v, size_t n,
				  struct eevdf_stats *out);

/*
 * The 0.975 quantile of Student's t distribution with df degrees of
 * freedom: the factor of a two-sided 95 % interval.  From a table (NIST),
 * not computed: between two of its rows the smaller df's value, which is
 * the larger (a slightly wider interval, never a narrower one).  NAN for
 * df 0.
 */
EEVDF_API double eevdf_stats_t975(size_t df);

#endif
