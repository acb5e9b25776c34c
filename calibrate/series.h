/* SPDX-License-Identifier: MIT */
/*
 * Named series of measurements: each micro-benchmark adds its samples
 * (one per batch) under a name, a unit and the method that produced
 * them; calibrate then reads their medians and spreads by name.  The
 * names are those of the machine file's calibration.benchmarks.
 */
#ifndef CAL_SERIES_H
#define CAL_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

#define CAL_SERIES_NAME 48
#define CAL_METHOD_MAX 400

struct cal_series {
	char name[CAL_SERIES_NAME];
	char unit[16];
	char method[CAL_METHOD_MAX];
	double *v;
	size_t n, cap;
	struct cal_stat st; /* after cal_set_finish() */
};

struct cal_set {
	struct cal_series **s; /* each its own allocation: pointers stay */
	size_t n, cap;
	bool nomem; /* an allocation failed: samples were lost */
};

/* The series called name (created, with unit, when new), or NULL when out
 * of memory. */
struct cal_series *cal_series_get(struct cal_set *set, const char *name,
				  const char *unit);

/* Append a sample; false (and set->nomem) when out of memory. */
bool cal_series_add(struct cal_set *set, struct cal_series *s, double v);

/* What the samples are, printf-style. */
void cal_series_method(struct cal_series *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The series called name with at least one sample, or NULL. */
const struct cal_series *cal_set_find(const struct cal_set *set,
				      const char *name);

/* Compute every series' statistics. */
void cal_set_finish(struct cal_set *set);

void cal_set_free(struct cal_set *set);

#endif
