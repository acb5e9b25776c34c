/* SPDX-License-Identifier: MIT */
/* The calibrated machine file (machine_out.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "fit.h"
#include "hostinfo.h"
#include "machine_out.h"
#include "series.h"

/* Whether machines a and b give every CPU the same core, LLC and package. */
static bool same_machine(const eevdf_machine *a, const eevdf_machine *b)
{
	int n = eevdf_machine_nr_cpus(a);

	if (n != eevdf_machine_nr_cpus(b))
		return false;
	for (int i = 0; i < n; i++) {
		struct eevdf_cpu_desc x, y;

		if (eevdf_machine_cpu(a, i, &x) < 0 ||
		    eevdf_machine_cpu(b, i, &y) < 0 || x.core != y.core ||
		    x.llc != y.llc || x.package != y.package)
			return false;
	}
	return true;
}

int cal_topo_spec(const struct cal_topo *t, struct eevdf_machine_spec *spec,
		  struct eevdf_cpu_desc **cpus, bool *regular)
{
	struct eevdf_machine_spec r;
	eevdf_machine *list = NULL, *reg = NULL;
	int cores, llcs, pkgs, threads;

	memset(spec, 0, sizeof(*spec));
	*regular = false;
	*cpus = calloc((size_t)t->nr, sizeof(**cpus));
	if (!*cpus)
		return -1;
	for (int i = 0; i < t->nr; i++) {
		(*cpus)[i].core = t->cpu[i].core;
		(*cpus)[i].llc = t->cpu[i].llc;
		(*cpus)[i].package = t->cpu[i].package;
	}
	spec->cpus = *cpus;
	spec->nr_cpus = (size_t)t->nr;
	if (eevdf_machine_new(spec, &list, NULL, 0) < 0)
		return 0; /* the list is checked again where it is used */
	cal_topo_counts(t, &cores, &llcs, &pkgs, &threads);
	memset(&r, 0, sizeof(r));
	r.packages = pkgs;
	r.llcs_per_package = llcs / pkgs;
	r.cores_per_llc = cores / llcs;
	r.threads_per_core = threads;
	for (int num = 0; num < 2 && !*regular; num++) {
		r.numbering = num ? EEVDF_SMT_ADJACENT : EEVDF_SMT_SPLIT;
		if (r.packages * r.llcs_per_package * r.cores_per_llc *
			    r.threads_per_core !=
		    t->nr)
			break;
		if (eevdf_machine_new(&r, &reg, NULL, 0) == 0) {
			*regular = same_machine(list, reg);
			if (*regular)
				*spec = r;
			eevdf_machine_free(reg);
			reg = NULL;
		}
	}
	eevdf_machine_free(list);
	if (*regular) {
		free(*cpus);
		*cpus = NULL;
	}
	return 0;
}

/* A number of a measurement, rounded to what means something. */
static double tidy(double v, const char *unit)
{
	double q = strcmp(unit, "ns") == 0 ? 10 : 1000;

	return round(v * q) / q;
}

static cJSON *topology(const struct cal_topo *t)
{
	struct eevdf_machine_spec s;
	struct eevdf_cpu_desc *cpus = NULL;
	cJSON *o;
	bool regular;

	if (cal_topo_spec(t, &s, &cpus, &regular) < 0)
		return NULL;
	if (regular) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "packages", s.packages);
		cJSON_AddNumberToObject(o, "llcs_per_package",
					s.llcs_per_package);
		cJSON_AddNumberToObject(o, "cores_per_llc", s.cores_per_llc);
		cJSON_AddNumberToObject(o, "threads_per_core",
					s.threads_per_core);
		cJSON_AddStringToObject(o, "numbering",
					s.numbering == EEVDF_SMT_ADJACENT ?
						"adjacent" :
						"split");
		return o;
	}
	o = cJSON_CreateArray();
	for (int i = 0; o && i < t->nr; i++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "core", cpus[i].core);
		cJSON_AddNumberToObject(c, "llc", cpus[i].llc);
		cJSON_AddNumberToObject(c, "package", cpus[i].package);
		cJSON_AddItemToArray(o, c);
	}
	free(cpus);
	return o;
}

static cJSON *calibration(const struct cal_fit *fit, const struct cal_set *set,
			  const struct cal_machine_info *info)
{
	cJSON *c = cJSON_CreateObject(), *o, *e;

	cJSON_AddStringToObject(c, "tool", info->tool);
	if (info->date)
		cJSON_AddStringToObject(c, "date", info->date);
	if (info->kernel && info->kernel[0])
		cJSON_AddStringToObject(c, "kernel", info->kernel);
	if (info->host && info->host[0])
		cJSON_AddStringToObject(c, "host", info->host);
	cJSON_AddBoolToObject(c, "quick", info->quick);
	o = cJSON_AddObjectToObject(c, "hz");
	cJSON_AddNumberToObject(o, "value", info->hz);
	cJSON_AddNumberToObject(o, "samples",
				(double)(info->hz_samples ? info->hz_samples :
							    1));
	cJSON_AddStringToObject(o, "method", info->hz_method);
	if (info->slice_ns > 0) {
		o = cJSON_AddObjectToObject(c, "base_slice");
		cJSON_AddNumberToObject(o, "value", (double)info->slice_ns);
		cJSON_AddStringToObject(o, "method", info->slice_method);
	}
	o = cJSON_AddObjectToObject(c, "costs");
	for (size_t i = 0; i < fit->nr; i++) {
		const struct cal_cost *k = &fit->cost[i];

		e = cJSON_AddObjectToObject(o, k->name);
		cJSON_AddNumberToObject(e, "median", (double)k->value);
		cJSON_AddNumberToObject(e, "iqr", (double)k->iqr);
		cJSON_AddNumberToObject(e, "samples", (double)k->samples);
		cJSON_AddStringToObject(e, "method", k->method);
	}
	o = cJSON_AddObjectToObject(c, "benchmarks");
	for (size_t i = 0; i < set->n; i++) {
		const struct cal_series *s = set->s[i];

		if (!s->n)
			continue;
		e = cJSON_AddObjectToObject(o, s->name);
		cJSON_AddNumberToObject(e, "median",
					tidy(s->st.median, s->unit));
		cJSON_AddNumberToObject(e, "iqr", tidy(s->st.iqr, s->unit));
		cJSON_AddNumberToObject(e, "samples", (double)s->st.n);
		cJSON_AddStringToObject(e, "unit", s->unit);
		cJSON_AddStringToObject(
			e, "method", s->method[0] ? s->method : "unspecified");
	}
	return c;
}

char *cal_machine_json(const struct cal_topo *t, const struct cal_fit *fit,
		       const struct cal_set *set,
		       const struct cal_machine_info *info, char *err,
		       size_t len)
{
	cJSON *root = cJSON_CreateObject(), *costs, *topo;
	int cores, llcs, pkgs, threads;
	char desc[512], *text, *out = NULL;
	struct eevdf_diag d;
	eevdf_machine *m = NULL;
	bool regular;

	cal_topo_counts(t, &cores, &llcs, &pkgs, &threads);
	snprintf(desc, sizeof(desc),
		 "Calibrated by eevdf-sim calibrate%s%s on %s: %d CPUs (%d "
		 "cores, %d LLC%s, %d package%s), Linux %s, HZ %d%s.",
		 info->date ? " on " : "", info->date ? info->date : "",
		 info->host && info->host[0] ? info->host : "this host", t->nr,
		 cores, llcs, llcs == 1 ? "" : "s", pkgs, pkgs == 1 ? "" : "s",
		 info->kernel, info->hz,
		 info->quick ? " (--quick: fewer samples)" : "");
	cJSON_AddStringToObject(root, "format", "eevdf-sim-machine/1");
	cJSON_AddStringToObject(root, "name", info->name);
	cJSON_AddStringToObject(root, "description", desc);
	cJSON_AddNumberToObject(root, "hz", info->hz);
	topo = topology(t);
	regular = cJSON_IsObject(topo);
	cJSON_AddItemToObject(root, regular ? "topology" : "cpus", topo);
	costs = cJSON_AddObjectToObject(root, "costs");
	for (size_t i = 0; i < fit->nr; i++)
		cJSON_AddNumberToObject(costs, fit->cost[i].name,
					(double)fit->cost[i].value);
	cJSON_AddItemToObject(root, "calibration", calibration(fit, set, info));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text || !topo) {
		snprintf(err, len, "out of memory");
		cJSON_free(text);
		return NULL;
	}
	/* what we write must load: read it back as eevdf-sim will */
	memset(&d, 0, sizeof(d));
	if (eevdf_machine_parse(text, strlen(text), "calibrated machine", &m,
				&d) < 0) {
		char msg[512];

		snprintf(err, len, "the machine written does not load: %s",
			 eevdf_diag_format(&d, msg, sizeof(msg)));
	} else if ((out = malloc(strlen(text) + 2))) {
		sprintf(out, "%s\n", text);
	} else {
		snprintf(err, len, "out of memory");
	}
	eevdf_machine_free(m);
	cJSON_free(text);
	return out;
}
