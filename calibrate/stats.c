/* SPDX-License-Identifier: MIT */
/* Medians, quartiles and nearest-rank percentiles (stats.h). */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void cal_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

void cal_sort_i64(int64_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_i64);
}

double cal_quantile(const double *sorted, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (!n)
		return 0;
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

void cal_stat_of(double *v, size_t n, struct cal_stat *out)
{
	double sum = 0;

	cal_sort(v, n);
	out->n = n;
	out->median = cal_quantile(v, n, 0.5);
	out->q1 = cal_quantile(v, n, 0.25);
	out->q3 = cal_quantile(v, n, 0.75);
	out->iqr = out->q3 - out->q1;
	out->min = n ? v[0] : 0;
	out->max = n ? v[n - 1] : 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = n ? sum / (double)n : 0;
}

double cal_spread_pct(const struct cal_stat *s)
{
	return s->median != 0 ? 100.0 * s->iqr / fabs(s->median) : 0;
}

int64_t cal_rank(const int64_t *sorted, size_t n, unsigned permille)
{
	/* the smallest i with (i + 1) * 1000 >= permille * n */
	size_t i;

	if (!n)
		return 0;
	i = ((size_t)permille * n + 999) / 1000;
	i = i ? i - 1 : 0;
	return sorted[i < n ? i : n - 1];
}
