/* SPDX-License-Identifier: MIT */
/*
 * Order statistics of measurements: medians and interquartile ranges for
 * calibrate, nearest-rank percentiles for kernel-check (the rule of the
 * simulator's histograms, src/lib/hist.c, so that both sides of a
 * comparison are read alike).
 */
#ifndef CAL_STATS_H
#define CAL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct cal_stat {
	size_t n;
	double median;
	double q1, q3; /* quartiles */
	double iqr;    /* q3 - q1 */
	double min, max, mean;
};

/* Sort v ascending. */
void cal_sort(double *v, size_t n);

/*
 * Quantile q (0..1) of n sorted values by linear interpolation between
 * the order statistics at (n - 1) q (Hyndman and Fan's type 7, R's and
 * numpy's default): the median of 1 2 3 4 is 2.5, its first quartile
 * 1.75.  0 for n = 0.
 */
double cal_quantile(const double *sorted, size_t n, double q);

/* The statistics of v (sorted in place). */
void cal_stat_of(double *v, size_t n, struct cal_stat *out);

/* The spread as a percentage of the median: 100 iqr / median (0 when the
 * median is 0). */
double cal_spread_pct(const struct cal_stat *s);

/*
 * Nearest-rank percentile of n sorted samples: the smallest v[i] with
 * (i + 1) * 1000 >= permille * n, as the simulator's histograms take it
 * (p90 of 10 samples is the 9th).  0 for n = 0.
 */
int64_t cal_rank(const int64_t *sorted, size_t n, unsigned permille);

/* Sort v ascending. */
void cal_sort_i64(int64_t *v, size_t n);

#endif
