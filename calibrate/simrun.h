/* SPDX-License-Identifier: MIT */
/*
 * The simulated side of calibrate's checks and of kernel-check: a
 * workload (JSON text, as the tools build them) run through the public
 * API on a machine and kernel profile, its results as a cJSON document.
 */
#ifndef CAL_SIMRUN_H
#define CAL_SIMRUN_H

#include <stddef.h>
#include <stdint.h>

#include "eevdf/eevdf.h"

struct cJSON;

struct cal_simrun {
	const eevdf_machine *machine; /* required */
	const char *kernel;	      /* NULL: the default profile */
	uint64_t feat_on, feat_off;
	int64_t base_slice; /* 0: the kernel default for the machine */
	eevdf_trace_fn trace;
	void *trace_ud;
};

/*
 * Run workload json (labelled name in messages) for its duration, with
 * nr_params "NAME=VALUE" overrides of its params.  0 and
 * *results (cJSON_Delete()), or -1 with err: the load's diagnostic (file,
 * JSON path, reason) or the simulation's error.
 */
int cal_sim_run(const struct cal_simrun *r, const char *name, const char *json,
		const char *const *params, size_t nr_params,
		struct cJSON **results, char *err, size_t len);

/*
 * A figure of a results document: summary.NAME, or metrics.NAME.FIELD
 * (a value's "value", a hist's "count", "mean", "p50", "p90", "p99",
 * "max"; a counter's "value").  False when absent.
 */
int cal_results_metric(const struct cJSON *results, const char *metric,
		       const char *field, double *out);

#endif
