/* SPDX-License-Identifier: MIT */
/*
 * The workload's own metrics as a text block, the same numbers as the
 * results JSON's "metrics" (results_json.c): one line per metric, or per
 * key of a keyed one, "name[key]".  Per-task sums stay in the JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "engine/metrics.h"
#include "engine/sim.h"
#include "lib/hist.h"
#include "lib/strbuf.h"
#include "results_impl.h"

/* The row name of a cell: the metric's, with "[key]" when keyed. */
static void cell_name(const struct eevdf_sim *sim, const struct metric *m,
		      const struct metric_cell *c, char *name, size_t len)
{
	if (m->keyed) {
		const char *k = eevdf__sim_string(sim, c->key);

		if (k)
			snprintf(name, len, "%s[%s]", m->name, k);
		else
			snprintf(name, len, "%s[%" PRId64 "]", m->name, c->key);
	} else {
		snprintf(name, len, "%s", m->name);
	}
}

static void cell_line(struct sb *t, const struct eevdf_sim *sim,
		      const struct metric *m, const struct metric_cell *c,
		      const char *unit, int width)
{
	char name[96], type[32];

	cell_name(sim, m, c, name, sizeof(name));
	snprintf(type, sizeof(type), "%s%s%s", eevdf__metric_type_name(m->type),
		 unit ? " " : "", unit ? unit : "");
	sb_printf(t, "  %-*s %-12s", width, name, type);
	if (m->type == MET_HIST || m->type == MET_RATE) {
		struct hist_summary s = { 0, 0, 0, 0, { 0 } };

		if (c->hist && eevdf__hist_summary(c->hist, &s)) {
			t->err = EEVDF_ENOMEM;
			return;
		}
		sb_printf(t, " count %" PRIu64, s.count);
		if (s.count) {
			sb_printf(t, ", min %" PRId64 ", mean %" PRId64, s.min,
				  s.mean);
			for (int i = 0; i < 4; i++)
				sb_printf(t, ", %s %" PRId64,
					  eevdf__summary_pct_names[i],
					  s.pct[i]);
			sb_printf(t, ", max %" PRId64, s.max);
		}
	} else {
		sb_printf(t, " %" PRId64, c->value);
	}
	sb_printf(t, "\n");
}

int eevdf_report_metrics(const eevdf_sim *sim, eevdf_report_opt_fn unit,
			 void *ud, char **out)
{
	struct sb t = { NULL, 0, 0, 0 };
	char name[96];
	int width = 16;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim)
		return EEVDF_EINVAL;
	sb_printf(&t, "%s", "");
	/* the names' column is as wide as the widest */
	for (size_t i = 0; i < sim->nr_metrics; i++) {
		const struct metric *m = sim->metrics[i];

		for (u32 k = 0; k < (m->keyed ? m->nr_cells : 1); k++) {
			cell_name(sim, m, m->keyed ? &m->cells[k] : &m->all,
				  name, sizeof(name));
			if ((int)strlen(name) > width)
				width = (int)strlen(name);
		}
	}
	if (sim->nr_metrics)
		sb_printf(&t, "Workload metrics:\n");
	for (size_t i = 0; i < sim->nr_metrics; i++) {
		const struct metric *m = sim->metrics[i];
		const char *u = unit ? unit(ud, m->name) : NULL;

		if (!m->keyed) {
			cell_line(&t, sim, m, &m->all, u, width);
			continue;
		}
		for (u32 k = 0; k < m->nr_cells; k++)
			cell_line(&t, sim, m, &m->cells[k], u, width);
	}
	if (t.err) {
		free(t.buf);
		return t.err;
	}
	/* the caller's to free(): see eevdf/alloc.h */
	*out = eevdf__user_strdup(t.buf ? t.buf : "");
	free(t.buf);
	return *out ? 0 : EEVDF_ENOMEM;
}
