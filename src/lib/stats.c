/* SPDX-License-Identifier: MIT */
/*
 * Mean, sample standard deviation, extremes and a Student-t confidence
 * interval of a handful of values (one figure over a configuration's
 * seeds).  A sweep has 3 to 10 seeds where a normal approximation's 1.96
 * would make the interval far too narrow, hence t.
 */
#include <math.h>

#include "internal.h"

/*
 * t(0.975, df), two-sided 95 %: NIST/SEMATECH e-Handbook of Statistical
 * Methods, section 1.3.6.7.2, "Critical values of the Student's t
 * distribution", the 0.975 column, rows 1 to 30 and 40, 50, 60, 80, 100.
 */
static const struct {
	unsigned df;
	double t;
} t975[] = {
	{ 1, 12.706 }, { 2, 4.303 },  { 3, 3.182 },   { 4, 2.776 },
	{ 5, 2.571 },  { 6, 2.447 },  { 7, 2.365 },   { 8, 2.306 },
	{ 9, 2.262 },  { 10, 2.228 }, { 11, 2.201 },  { 12, 2.179 },
	{ 13, 2.160 }, { 14, 2.145 }, { 15, 2.131 },  { 16, 2.120 },
	{ 17, 2.110 }, { 18, 2.101 }, { 19, 2.093 },  { 20, 2.086 },
	{ 21, 2.080 }, { 22, 2.074 }, { 23, 2.069 },  { 24, 2.064 },
	{ 25, 2.060 }, { 26, 2.056 }, { 27, 2.052 },  { 28, 2.048 },
	{ 29, 2.045 }, { 30, 2.042 }, { 40, 2.021 },  { 50, 2.009 },
	{ 60, 2.000 }, { 80, 1.990 }, { 100, 1.984 },
};

double eevdf_stats_t975(size_t df)
{
	size_t i;

	if (df == 0)
		return (double)NAN;
	/* the last row at or below df: conservative between rows */
	for (i = ARRAY_SIZE(t975); i-- > 1;)
		if (t975[i].df <= df)
			break;
	return t975[i].t;
}

int eevdf_stats_compute(const double *v, size_t n, struct eevdf_stats *out)
{
	double sum = 0, sq = 0;

	if (out) {
		out->n = 0;
		out->mean = out->stddev = out->min = out->max = 0;
		out->ci95 = 0;
	}
	if (!v || !out || n == 0)
		return EEVDF_EINVAL;
	out->n = n;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = sum / (double)n;
	/*
	 * Equal values have that mean and no spread, exactly: sum / n of
	 * three 0.043723 is 0.04372299999999999, whose deviations would
	 * make a stddev of 8e-18 out of rounding alone.
	 */
	if (out->min == out->max)
		out->mean = out->min;
	if (n < 2) {
		out->stddev = out->ci95 = (double)NAN;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - out->mean;

		sq += d * d;
	}
	out->stddev = out->min == out->max ? 0 : sqrt(sq / (double)(n - 1));
	out->ci95 = eevdf_stats_t975(n - 1) * out->stddev / sqrt((double)n);
	return 0;
}
