/* SPDX-License-Identifier: MIT */
/* Segments of running, runs and foreign time (timeline.h). */
#include <stdlib.h>

#include "timeline.h"

bool tl_reserve(struct tl_task *t, size_t n)
{
	struct tl_seg *more;

	if (n <= t->cap)
		return true;
	more = realloc(t->seg, n * sizeof(*more));
	if (!more)
		return false;
	t->seg = more;
	t->cap = n;
	return true;
}

bool tl_push(struct tl_task *t, int64_t start, int64_t end)
{
	if (t->n == t->cap && !tl_reserve(t, t->cap ? 2 * t->cap : 256)) {
		t->overflow = true;
		return false;
	}
	t->seg[t->n].start = start;
	t->seg[t->n].end = end;
	t->n++;
	return true;
}

void tl_free(struct tl_task *t)
{
	free(t->seg);
	t->seg = NULL;
	t->n = t->cap = 0;
}

int64_t tl_cpu(const struct tl_task *t, int64_t from, int64_t to)
{
	int64_t sum = 0;

	for (size_t k = 0; k < t->n; k++) {
		int64_t a = t->seg[k].start > from ? t->seg[k].start : from;
		int64_t b = t->seg[k].end < to ? t->seg[k].end : to;

		if (b > a)
			sum += b - a;
	}
	return sum;
}

/* A segment and its task, for the merged timeline. */
struct owned {
	int64_t start, end;
	size_t task;
};

static int by_start(const void *a, const void *b)
{
	const struct owned *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->task > y->task) - (x->task < y->task);
}

/* Every segment of the nr tasks in time order (free()); NULL when out of
 * memory or when there is none. */
static struct owned *merged(const struct tl_task *tasks, size_t nr, size_t *n)
{
	struct owned *m;
	size_t k = 0;

	*n = 0;
	for (size_t i = 0; i < nr; i++)
		*n += tasks[i].n;
	if (!*n || !(m = malloc(*n * sizeof(*m))))
		return NULL;
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < tasks[i].n; j++) {
			m[k].start = tasks[i].seg[j].start;
			m[k].end = tasks[i].seg[j].end;
			m[k++].task = i;
		}
	qsort(m, *n, sizeof(*m), by_start);
	return m;
}

size_t tl_runs(const struct tl_task *tasks, size_t nr, size_t i, int64_t from,
	       int64_t to, int64_t *out, size_t max)
{
	size_t n, runs = 0, k = 0;
	struct owned *m = merged(tasks, nr, &n);

	if (!m)
		return 0;
	while (k < n) {
		size_t j = k;

		/* the run of m[k].task: its segments up to another's */
		while (j + 1 < n && m[j + 1].task == m[k].task)
			j++;
		/* a run cut by the start or the end of the record is not
		 * a whole one: neither is one cut by the window */
		if (m[k].task == i && k > 0 && j + 1 < n &&
		    m[k].start >= from && m[j].end <= to) {
			if (out && runs < max)
				out[runs] = m[j].end - m[k].start;
			runs++;
		}
		k = j + 1;
	}
	free(m);
	return runs;
}

int64_t tl_foreign(const struct tl_task *tasks, size_t nr, int64_t from,
		   int64_t to, int64_t min_gap)
{
	size_t n;
	struct owned *m = merged(tasks, nr, &n);
	int64_t sum = 0, last = from;

	if (!m)
		return to > from ? to - from : 0;
	for (size_t k = 0; k <= n; k++) {
		int64_t s = k < n ? m[k].start : to;
		int64_t a = last > from ? last : from, b = s < to ? s : to;

		if (b - a >= min_gap)
			sum += b - a;
		if (k < n && m[k].end > last)
			last = m[k].end;
	}
	free(m);
	return sum;
}
