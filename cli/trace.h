/* SPDX-License-Identifier: MIT */
/*
 * Trace sinks of 'eevdf-sim run', fed by the library's trace callback:
 * a Chrome trace event JSON file that Perfetto and chrome://tracing load
 * (--trace), and perf sched timehist's table (--timehist).
 */
#ifndef EEVDF_CLI_TRACE_H
#define EEVDF_CLI_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "eevdf/eevdf.h"

struct cli_trace;

/*
 * A sink for a machine of nr_cpus CPUs.  json (may be NULL) receives the
 * Chrome trace, timehist (may be NULL) the timehist rows; events outside
 * [from, to] are left out of the JSON (to < 0: no end).  NULL when out of
 * memory.
 */
struct cli_trace *cli_trace_new(int nr_cpus, FILE *json, FILE *timehist,
				eevdf_time from, eevdf_time to);

/* Tell the sink its simulation, for task names; before the first event. */
void cli_trace_attach(struct cli_trace *t, const eevdf_sim *sim);

/* The eevdf_trace_fn: ud is the struct cli_trace. */
void cli_trace_event(void *ud, const struct eevdf_trace_event *ev);

/*
 * End the trace at the simulation's final time: close the running slices,
 * write the track names and the JSON's closing bracket.  false when a
 * write failed (the caller discards the file).
 */
bool cli_trace_finish(struct cli_trace *t);

/* NULL is a no-op. */
void cli_trace_free(struct cli_trace *t);

#endif
