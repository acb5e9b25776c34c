/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: parse, then run a few milliseconds, then report: what the
 * workload computes while it runs (the issue-22 overflows lived there),
 * the engine and the model under it, with the invariant checker on, and
 * the results writers.  A run may fail (a deadlock, an overflow, a
 * limit); it must not crash, leak, or break an invariant.
 */
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "fuzz.h"

#define RUN_NS (5 * EEVDF_NSEC_PER_MSEC)
#define MAX_CPUS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eevdf_load_opts o;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	const eevdf_machine *m;
	char *text = NULL;
	const char *report;
	int rc;

	memset(&o, 0, sizeof(o));
	o.max_ops = FUZZ_MAX_OPS;
	if (eevdf_workload_parse_opts((const char *)data, size, "fuzz.json", &o,
				      &wl, &d) != 0)
		return 0;
	eevdf_config_init(&cfg);
	m = eevdf_workload_machine(wl);
	/* a 4096-CPU machine is valid, and slow to tick: keep inputs quick */
	if (m && eevdf_machine_nr_cpus(m) > MAX_CPUS)
		goto out;
	cfg.machine = m;
	cfg.kernel = eevdf_workload_kernel(wl);
	eevdf_workload_seed(wl, &cfg.seed);
	cfg.check_invariants = true;
	cfg.max_events = FUZZ_MAX_EVENTS;
	/* a zero-time loop ends in ms, not the 10^7 ops (seconds here) of
	 * the default livelock guard */
	cfg.max_instant_ops = 100000;
	cfg.duration = RUN_NS;
	if (eevdf_sim_new(&cfg, &sim, NULL, 0) != 0)
		goto out;
	if (eevdf_workload_add_tasks(wl, sim, &d) != 0)
		goto out;
	rc = eevdf_sim_run(sim, RUN_NS);
	if (rc == EEVDF_EINTERNAL)
		__builtin_trap(); /* an invariant broke: a bug to find */
	if (eevdf_sim_results_json(sim, &text) == 0)
		free(text);
	if (eevdf_sim_results_csv(sim, &text) == 0)
		free(text);
	report = eevdf_workload_report_format(wl);
	if (report &&
	    eevdf_report(sim, report, NULL, NULL, &text, NULL, 0) == 0)
		free(text);
	if (eevdf_report_metrics(sim, NULL, NULL, &text) == 0)
		free(text);
out:
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return 0;
}
