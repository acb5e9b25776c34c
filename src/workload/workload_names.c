/* SPDX-License-Identifier: MIT */
/*
 * The loaded workload's tables by name: the sorted indexes of objects and
 * tasks, and finding an object, task, metric or template.  The readers
 * of definitions (workload_defs.c), ops (workload_ops.c) and operands
 * (workload_values.c) all look names up here.
 */
#include <string.h>

#include "workload_impl.h"

/* Sort idx[0..n) by names[]: ties by index, so the order is total. */
struct name_ref {
	const char *name;
	u32 idx;
};

static int cmp_name_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Build the sorted index of n names (name(i) of entry i).  *dup receives
 * the first entry, in file order, that repeats an earlier name, and
 * *first that earlier one; *dup = UINT32_MAX when all differ.
 */
static int sort_names(size_t n, const char *(*name)(const void *, size_t),
		      const void *arr, u32 **out, u32 *dup, u32 *first)
{
	struct name_ref *v = malloc((n ? n : 1) * sizeof(*v));
	u32 *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t i, run = 0;

	if (!v || !idx) {
		free(v);
		free(idx);
		return EEVDF_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		v[i].name = name(arr, i);
		v[i].idx = (u32)i;
	}
	qsort(v, n, sizeof(*v), cmp_name_ref);
	*dup = UINT32_MAX;
	for (i = 0; i < n; i++) {
		idx[i] = v[i].idx;
		if (i && strcmp(v[i].name, v[i - 1].name) == 0) {
			if (v[i].idx < *dup) {
				*dup = v[i].idx;
				*first = v[run].idx;
			}
		} else {
			run = i;
		}
	}
	free(v);
	*out = idx;
	return 0;
}

static const char *obj_name(const void *arr, size_t i)
{
	return ((const struct wl_object *)arr)[i].tmpl.name;
}

static const char *task_name(const void *arr, size_t i)
{
	return ((const struct wl_task *)arr)[i].name;
}

static int find_sorted(const u32 *by, size_t n,
		       const char *(*name)(const void *, size_t),
		       const void *arr, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(key, name(arr, by[mid]));

		if (c == 0)
			return (int)by[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int eevdf__wl_find_object(const struct eevdf_workload *wl, const char *name)
{
	return find_sorted(wl->objs_by_name, wl->nr_objs, obj_name, wl->objs,
			   name);
}

int eevdf__wl_find_task(const struct eevdf_workload *wl, const char *name)
{
	return find_sorted(wl->tasks_by_name, wl->nr_tasks, task_name,
			   wl->tasks, name);
}

int eevdf__wl_index_objects(struct eevdf_workload *wl, u32 *dup, u32 *first)
{
	return sort_names(wl->nr_objs, obj_name, wl->objs, &wl->objs_by_name,
			  dup, first);
}

int eevdf__wl_index_tasks(struct eevdf_workload *wl, u32 *dup, u32 *first)
{
	return sort_names(wl->nr_tasks, task_name, wl->tasks,
			  &wl->tasks_by_name, dup, first);
}

int eevdf__wl_find_metric(const struct eevdf_workload *wl, const char *name)
{
	for (size_t i = 0; i < wl->nr_metrics; i++)
		if (strcmp(wl->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

int eevdf__wl_find_template(const struct eevdf_workload *wl, const char *name)
{
	for (size_t i = 0; i < wl->nr_tmpls; i++)
		if (strcmp(wl->tmpls[i].name, name) == 0)
			return (int)i;
	return -1;
}
