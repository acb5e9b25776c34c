/* SPDX-License-Identifier: MIT */
/* Named series of samples (series.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

struct cal_series *cal_series_get(struct cal_set *set, const char *name,
				  const char *unit)
{
	struct cal_series *s;

	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->s[i]->name, name) == 0)
			return set->s[i];
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 32;
		struct cal_series **more = realloc(set->s, cap * sizeof(*more));

		if (!more) {
			set->nomem = true;
			return NULL;
		}
		set->s = more;
		set->cap = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		set->nomem = true;
		return NULL;
	}
	set->s[set->n++] = s;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	return s;
}

bool cal_series_add(struct cal_set *set, struct cal_series *s, double v)
{
	if (!s)
		return false;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *more = realloc(s->v, cap * sizeof(*more));

		if (!more) {
			set->nomem = true;
			return false;
		}
		s->v = more;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return true;
}

void cal_series_method(struct cal_series *s, const char *fmt, ...)
{
	va_list ap;

	if (!s)
		return;
	va_start(ap, fmt);
	vsnprintf(s->method, sizeof(s->method), fmt, ap);
	va_end(ap);
}

const struct cal_series *cal_set_find(const struct cal_set *set,
				      const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->s[i]->n && strcmp(set->s[i]->name, name) == 0)
			return set->s[i];
	return NULL;
}

void cal_set_finish(struct cal_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		cal_stat_of(set->s[i]->v, set->s[i]->n, &set->s[i]->st);
}

void cal_set_free(struct cal_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i]->v);
		free(set->s[i]);
	}
	free(set->s);
	memset(set, 0, sizeof(*set));
}
