/* SPDX-License-Identifier: MIT */
/*
 * The sizes of the public structs (eevdf_abi_sizeof()), so that a binding
 * that mirrors them (python/eevdf/_lib.py) can tell at load time that its
 * copies still match the library it found.
 */
#include <string.h>

#include "lib/internal.h"

#define SIZE(t)                                                                \
	{                                                                      \
#t, sizeof(struct t)                                           \
	}

static const struct {
	const char *name;
	size_t size;
} sizes[] = {
	SIZE(eevdf_config),	SIZE(eevdf_trace_event),
	SIZE(eevdf_task_spec),	SIZE(eevdf_task_stats),
	SIZE(eevdf_cpu_stats),	SIZE(eevdf_run_info),
	SIZE(eevdf_load_opts),	SIZE(eevdf_diag),
	SIZE(eevdf_headline),	SIZE(eevdf_entity_state),
	SIZE(eevdf_rq_state),	SIZE(eevdf_pick_level),
	SIZE(eevdf_plot_opts),	SIZE(eevdf_plot_point),
	SIZE(eevdf_plot_mark),	SIZE(eevdf_plot_series),
	SIZE(eevdf_plot_span),	SIZE(eevdf_plot_bar),
	SIZE(eevdf_group_spec), SIZE(eevdf_smp_stats),
};

size_t eevdf_abi_sizeof(const char *type)
{
	for (size_t i = 0; type && i < ARRAY_SIZE(sizes); i++)
		if (strcmp(sizes[i].name, type) == 0)
			return sizes[i].size;
	return 0;
}
