/* SPDX-License-Identifier: MIT */
/*
 * Trace sinks of 'eevdf-sim run', fed by the library's trace callback:
 * a trace that Perfetto loads (--trace), as Chrome trace event JSON or
 * as Perfetto's protobuf format, with the EEVDF state as counters
 * (--trace-state), and perf sched timehist's table (--timehist).
 */
#ifndef EEVDF_CLI_TRACE_H
#define EEVDF_CLI_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "eevdf/eevdf.h"

struct cli_trace;

enum cli_trace_format {
	CLI_TRACE_JSON,
	CLI_TRACE_PROTO,
};

struct cli_trace_opts {
	int nr_cpus;
	FILE *file; /* the trace, or NULL */
	enum cli_trace_format format;
	unsigned state;	 /* --trace-state (trace_state.h), 0 none */
	FILE *timehist;	 /* the timehist rows, or NULL */
	eevdf_time from; /* events outside [from, to] are left out */
	eevdf_time to;	 /* < 0: no end */
};

/* A sink; NULL when out of memory. */
struct cli_trace *cli_trace_new(const struct cli_trace_opts *o);

/*
 * Tell the sink its simulation, for task names and state; before the
 * first event.  With a --trace-state selection it asks the library for
 * STATE events (eevdf_sim_trace_detail()); false when it cannot.
 */
bool cli_trace_attach(struct cli_trace *t, eevdf_sim *sim);

/* The eevdf_trace_fn: ud is the struct cli_trace. */
void cli_trace_event(void *ud, const struct eevdf_trace_event *ev);

/*
 * End the trace at the simulation's final time: close the running slices,
 * name the tracks.  false when a write failed (the caller discards the
 * file).
 */
bool cli_trace_finish(struct cli_trace *t);

/* NULL is a no-op. */
void cli_trace_free(struct cli_trace *t);

/* The format a trace file's name asks for: .pftrace, .perfetto-trace,
 * .pb and .proto are protobuf, anything else JSON. */
enum cli_trace_format cli_trace_format_of(const char *path);

#endif
