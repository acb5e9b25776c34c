/* SPDX-License-Identifier: MIT */
/* A workload text run on a machine through the public API (simrun.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "simrun.h"

int cal_sim_run(const struct cal_simrun *r, const char *name, const char *json,
		const char *const *params, size_t nr_params, cJSON **results,
		char *err, size_t len)
{
	struct eevdf_load_opts lo;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	char msg[512], *text = NULL;
	eevdf_time dur;
	int rc;

	*results = NULL;
	memset(&lo, 0, sizeof(lo));
	memset(&d, 0, sizeof(d));
	lo.ncpus = eevdf_machine_nr_cpus(r->machine);
	lo.nllc = eevdf_machine_nr_llcs(r->machine);
	lo.params = params;
	lo.nr_params = nr_params;
	rc = eevdf_workload_parse_opts(json, strlen(json), name, &lo, &wl, &d);
	if (rc < 0) {
		snprintf(err, len, "%s",
			 eevdf_diag_format(&d, msg, sizeof(msg)));
		return -1;
	}
	eevdf_config_init(&cfg);
	cfg.name = eevdf_workload_name(wl);
	cfg.machine = r->machine;
	cfg.nr_cpus = eevdf_machine_nr_cpus(r->machine);
	cfg.hz = eevdf_machine_hz(r->machine);
	cfg.kernel = r->kernel;
	cfg.feat_on = r->feat_on;
	cfg.feat_off = r->feat_off;
	cfg.base_slice = r->base_slice;
	cfg.trace = r->trace;
	cfg.trace_ud = r->trace_ud;
	dur = eevdf_workload_duration(wl);
	cfg.duration = dur;
	rc = eevdf_sim_new(&cfg, &sim, msg, sizeof(msg));
	if (rc < 0) {
		snprintf(err, len, "%s: cannot create the simulation: %s", name,
			 msg[0] ? msg : eevdf_strerror(rc));
		eevdf_workload_free(wl);
		return -1;
	}
	rc = eevdf_workload_add_tasks(wl, sim, &d);
	if (rc == 0)
		rc = eevdf_sim_run(sim, dur);
	if (rc == 0)
		rc = eevdf_sim_results_json(sim, &text);
	if (rc < 0)
		snprintf(err, len, "%s: simulation failed: %s", name,
			 d.msg[0] ? eevdf_diag_format(&d, msg, sizeof(msg)) :
				    eevdf_sim_errmsg(sim));
	else if (!(*results = cJSON_Parse(text)))
		snprintf(err, len, "%s: the results are not JSON", name);
	free(text);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return *results ? 0 : -1;
}

int cal_results_metric(const cJSON *results, const char *metric,
		       const char *field, double *out)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(results, "metrics");
	const cJSON *v;

	m = cJSON_GetObjectItemCaseSensitive(m, metric);
	v = cJSON_GetObjectItemCaseSensitive(m, field ? field : "value");
	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}
