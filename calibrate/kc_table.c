/* SPDX-License-Identifier: MIT */
/*
 * kernel-check's table: each figure of each experiment on both sides,
 * the difference, the tolerance and the verdict (kc.h), as text or JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "kc.h"
#include "stats.h"

/* The tolerance in the figure's unit. */
static double tol_abs(const struct kc_row *row)
{
	return row->tol_kind == KC_TOL_REL ?
		       row->tol / 100 * fabs(row->kernel) :
		       row->tol;
}

void kc_row_judge(struct kc_row *row)
{
	double d = fabs(row->diff), t = tol_abs(row);

	if (row->verdict && strcmp(row->verdict, "skipped") == 0)
		return;
	if (row->tol_kind == KC_TOL_INFO)
		row->verdict = "info";
	else if (d <= t)
		row->verdict = "ok";
	else if (d > t + (row->kmax - row->kmin) / 2 && !row->busy)
		row->verdict = "DIFF";
	else
		row->verdict = "noisy";
}

size_t kc_rows(const struct kc_exp *e, const struct kc_run *kruns, size_t nruns,
	       const struct kc_run *srun, double max_foreign, int64_t tick_ns,
	       struct kc_row *rows, size_t max)
{
	size_t n = 0, quiet = 0;
	const char *skipped = NULL;

	for (size_t k = 0; k < nruns; k++) {
		if (kruns[k].skipped[0])
			skipped = kruns[k].skipped;
		else if (kc_foreign_pct(&kruns[k]) <= max_foreign)
			quiet++;
	}
	for (int i = 0; i < e->nr_metrics && n < max; i++) {
		const struct kc_metric *m = &e->metric[i];
		struct kc_row *row = &rows[n++];
		double v[64];
		size_t nv = 0;

		memset(row, 0, sizeof(*row));
		row->exp = e->name;
		kc_metric_name(e, m, row->metric, sizeof(row->metric));
		row->unit = kc_stat_unit(m->stat);
		row->tol_kind = m->tol_kind;
		row->tol = m->tol;
		if (m->stat == KS_SHARE && srun->to > srun->from) {
			double floor = 100.0 * 2 * (double)tick_ns /
				       (double)(srun->to - srun->from);

			if (floor > row->tol)
				row->tol = floor;
		}
		/* the runs other tasks disturbed count only when all were */
		row->busy = quiet == 0;
		for (size_t k = 0; k < nruns && nv < 64; k++) {
			double x;

			if (kruns[k].skipped[0] ||
			    (quiet && kc_foreign_pct(&kruns[k]) > max_foreign))
				continue;
			if (kc_metric_value(e, m, &kruns[k], &x))
				v[nv++] = x;
		}
		if (!nv || !kc_metric_value(e, m, srun, &row->sim)) {
			row->verdict = "skipped";
			snprintf(row->why, sizeof(row->why), "%s",
				 skipped ? skipped :
				 !nv	 ? "the kernel's runs gave no value" :
					   "the simulation gave no value");
			continue;
		}
		cal_sort(v, nv);
		row->runs = nv;
		row->kernel = cal_quantile(v, nv, 0.5);
		row->kmin = v[0];
		row->kmax = v[nv - 1];
		row->diff = row->sim - row->kernel;
		kc_row_judge(row);
	}
	return n;
}

/* A figure with the digits that mean something for its size. */
static const char *num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	snprintf(buf, len,
		 a >= 1000 ? "%.0f" :
		 a >= 100  ? "%.1f" :
		 a >= 1	   ? "%.2f" :
			     "%.3f",
		 v);
	return buf;
}

static void tol_text(char *buf, size_t len, const struct kc_row *row)
{
	char b[16];

	if (row->tol_kind == KC_TOL_INFO)
		snprintf(buf, len, "-");
	else if (row->tol_kind == KC_TOL_REL)
		snprintf(buf, len, "%g%%", row->tol);
	else /* a share's is in percentage points */
		snprintf(buf, len, "%.15s%.4s", num(b, sizeof(b), row->tol),
			 strcmp(row->unit, "%") == 0 ? "pp" : row->unit);
}

size_t kc_table_text(FILE *f, const struct kc_header *h,
		     const struct kc_row *rows, size_t n,
		     const struct kc_exp_note *notes, size_t nr_notes)
{
	size_t count[5] = { 0 }, diffs = 0;
	static const char *const kinds[] = { "ok", "DIFF", "noisy", "info",
					     "skipped" };

	fprintf(f,
		"# kernel-check: Linux %s against the simulator, kernel "
		"profile %s, machine %s%s\n",
		h->release, h->profile, h->machine,
		h->calibrated ? " (calibrated)" :
				" (default costs: run "
				"eevdf-sim calibrate)");
	fprintf(f,
		"# CPU %d, %d run%s of %.3f s per experiment (the first %.3f "
		"s left out), HZ %d, base slice %.3f ms (simulated %.3f ms)%s\n",
		h->cpu, h->runs, h->runs == 1 ? "" : "s",
		(double)h->timing.duration / 1e9,
		(double)h->timing.warmup / 1e9, h->hz,
		(double)h->base_slice / 1e6, (double)h->sim_slice / 1e6,
		h->boosted ? ", session boosted" : "");
	fprintf(f, "%-9s %-34s %10s %21s %10s %9s %7s  %s\n", "experiment",
		"figure", "kernel", "(runs' range)", "simulated", "diff", "tol",
		"verdict");
	for (size_t i = 0; i < n; i++) {
		const struct kc_row *r = &rows[i];
		char name[80], k[32], lo[32], hi[32], s[32], d[32], t[32];
		char range[48];

		snprintf(name, sizeof(name), "%s%s%s%s", r->metric,
			 r->unit[0] ? " (" : "", r->unit,
			 r->unit[0] ? ")" : "");
		for (size_t j = 0; j < 5; j++)
			count[j] += strcmp(r->verdict, kinds[j]) == 0;
		if (strcmp(r->verdict, "skipped") == 0) {
			fprintf(f,
				"%-9s %-34s %10s %21s %10s %9s %7s  %s: %s\n",
				r->exp, name, "-", "", "-", "-", "-",
				r->verdict, r->why);
			continue;
		}
		tol_text(t, sizeof(t), r);
		snprintf(range, sizeof(range), "(%.20s..%.20s)",
			 num(lo, sizeof(lo), r->kmin),
			 num(hi, sizeof(hi), r->kmax));
		fprintf(f, "%-9s %-34s %10s %21s %10s %9s %7s  %s%s\n", r->exp,
			name, num(k, sizeof(k), r->kernel), range,
			num(s, sizeof(s), r->sim), num(d, sizeof(d), r->diff),
			t, r->verdict, r->busy ? " (busy CPU)" : "");
	}
	diffs = count[1];
	fprintf(f, "# %zu ok, %zu DIFF, %zu noisy, %zu info, %zu skipped\n",
		count[0], count[1], count[2], count[3], count[4]);
	for (size_t i = 0; i < nr_notes; i++)
		if (notes[i].foreign_max >= 1)
			fprintf(f,
				"# %s: other tasks took up to %.1f%% of CPU %d "
				"in a run\n",
				notes[i].exp, notes[i].foreign_max, h->cpu);
	return diffs;
}

char *kc_table_json(const struct kc_header *h, const struct kc_row *rows,
		    size_t n, const struct kc_exp_note *notes, size_t nr_notes)
{
	cJSON *root = cJSON_CreateObject(), *arr, *o;
	char *text, *copy = NULL;

	cJSON_AddStringToObject(root, "format", "eevdf-sim-kernel-check/1");
	cJSON_AddStringToObject(root, "kernel", h->release);
	cJSON_AddStringToObject(root, "profile", h->profile);
	o = cJSON_AddObjectToObject(root, "machine");
	cJSON_AddStringToObject(o, "name", h->machine);
	cJSON_AddBoolToObject(o, "calibrated", h->calibrated);
	cJSON_AddNumberToObject(o, "hz", h->hz);
	cJSON_AddNumberToObject(root, "cpu", h->cpu);
	cJSON_AddNumberToObject(root, "runs", h->runs);
	cJSON_AddNumberToObject(root, "duration_ns",
				(double)h->timing.duration);
	cJSON_AddNumberToObject(root, "warmup_ns", (double)h->timing.warmup);
	cJSON_AddNumberToObject(root, "base_slice_ns", (double)h->base_slice);
	cJSON_AddNumberToObject(root, "sim_base_slice_ns",
				(double)h->sim_slice);
	cJSON_AddBoolToObject(root, "boosted", h->boosted);
	arr = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < n; i++) {
		const struct kc_row *r = &rows[i];
		bool skip = strcmp(r->verdict, "skipped") == 0;

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "experiment", r->exp);
		cJSON_AddStringToObject(o, "figure", r->metric);
		cJSON_AddStringToObject(o, "unit", r->unit);
		if (!skip) {
			cJSON_AddNumberToObject(o, "kernel", r->kernel);
			cJSON_AddNumberToObject(o, "kernel_min", r->kmin);
			cJSON_AddNumberToObject(o, "kernel_max", r->kmax);
			cJSON_AddNumberToObject(o, "kernel_runs",
						(double)r->runs);
			cJSON_AddNumberToObject(o, "simulated", r->sim);
			cJSON_AddNumberToObject(o, "difference", r->diff);
		}
		cJSON_AddStringToObject(o, "tolerance_kind",
					r->tol_kind == KC_TOL_ABS ? "absolute" :
					r->tol_kind == KC_TOL_REL ? "percent" :
								    "none");
		cJSON_AddNumberToObject(o, "tolerance", r->tol);
		cJSON_AddStringToObject(o, "verdict", r->verdict);
		if (r->busy)
			cJSON_AddBoolToObject(o, "busy", true);
		if (skip)
			cJSON_AddStringToObject(o, "why", r->why);
		cJSON_AddItemToArray(arr, o);
	}
	arr = cJSON_AddArrayToObject(root, "experiments");
	for (size_t i = 0; i < nr_notes; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", notes[i].exp);
		cJSON_AddNumberToObject(o, "runs", notes[i].runs);
		cJSON_AddNumberToObject(o, "foreign_max_pct",
					round(notes[i].foreign_max * 100) /
						100);
		cJSON_AddItemToArray(arr, o);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (text && (copy = malloc(strlen(text) + 2)))
		sprintf(copy, "%s\n", text);
	cJSON_free(text);
	return copy;
}
