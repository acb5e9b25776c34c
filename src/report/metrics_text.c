/* SPDX-License-Identifier: MIT */
/*
 * The workload's own metrics as a text block, the same numbers as the
 * results JSON's "metrics" (results_json.c): one line per metric, or per
 * key of a keyed one, "name[key]".  Per-task sums stay in the JSON.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "engine/metrics.h"
#include "engine/sim.h"
#include "lib/hist.h"
#include "results_impl.h"

struct text {
	char *s;
	size_t len, cap;
	bool err;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = t->cap - t->len;

		if (t->err)
			return;
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt,
			      ap);
		va_end(ap);
		if (n < 0) {
			t->err = true;
			return;
		}
		if (t->s && (size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		{
			size_t cap = 2 * t->cap + (size_t)n + 256;
			char *s = realloc(t->s, cap);

			if (!s) {
				t->err = true;
				return;
			}
			t->s = s;
			t->cap = cap;
		}
	}
}

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

static void cell_line(struct text *t, const struct eevdf_sim *sim,
		      const struct metric *m, const struct metric_cell *c,
		      const char *unit, int width)
{
	char name[96], type[32];

	cell_name(sim, m, c, name, sizeof(name));
	snprintf(type, sizeof(type), "%s%s%s", eevdf__metric_type_name(m->type),
		 unit ? " " : "", unit ? unit : "");
	add(t, "  %-*s %-12s", width, name, type);
	if (m->type == MET_HIST || m->type == MET_RATE) {
		struct hist_summary s = { 0, 0, 0, 0, { 0 } };

		if (c->hist && eevdf__hist_summary(c->hist, &s)) {
			t->err = true;
			return;
		}
		add(t, " count %" PRIu64, s.count);
		if (s.count) {
			add(t, ", min %" PRId64 ", mean %" PRId64, s.min,
			    s.mean);
			for (int i = 0; i < 4; i++)
				add(t, ", %s %" PRId64,
				    eevdf__summary_pct_names[i], s.pct[i]);
			add(t, ", max %" PRId64, s.max);
		}
	} else {
		add(t, " %" PRId64, c->value);
	}
	add(t, "\n");
}

int eevdf_report_metrics(const eevdf_sim *sim, eevdf_report_opt_fn unit,
			 void *ud, char **out)
{
	struct text t = { NULL, 0, 0, false };
	char name[96];
	int width = 16;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim)
		return EEVDF_EINVAL;
	add(&t, "%s", "");
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
		add(&t, "Workload metrics:\n");
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
		free(t.s);
		return EEVDF_ENOMEM;
	}
	*out = t.s;
	return 0;
}
