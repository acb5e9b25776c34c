/* SPDX-License-Identifier: MIT */
/* --trace-state: EEVDF state counters in the trace (trace_state.c). */
#ifndef EEVDF_CLI_TRACE_STATE_H
#define EEVDF_CLI_TRACE_STATE_H

#include "trace_out.h"

/* What --trace-state selects. */
enum {
	TS_VLAG = 1u << 0,     /* per task: V - vruntime */
	TS_DEADLINE = 1u << 1, /* per task: deadline - V */
	TS_ELIGIBLE = 1u << 2, /* per task: 1 eligible, 0 not (or not queued) */
	TS_DELAYED = 1u << 3,  /* per task: 1 delayed (DELAY_DEQUEUE) */
	TS_V = 1u << 4,	       /* per CPU and group queue: V */
	TS_LOAD = 1u << 5,     /* ... the queued weight */
	TS_NR_QUEUED = 1u << 6,
	TS_NR_DELAYED = 1u << 7,
	TS_TASK_ALL = 0x0fu,
	TS_RQ_ALL = 0xf0u,
	TS_ALL = 0xffu,
	TS_TASK_COUNTERS = 4,
	TS_RQ_COUNTERS = 4,
};

/* --trace-state LIST into *mask; false with the reason in err. */
bool trace_state_parse(const char *list, unsigned *mask, char *err, size_t len);

struct trace_state;

struct trace_state *trace_state_new(unsigned mask, int nr_cpus);
void trace_state_free(struct trace_state *s);

/*
 * cpu's queue changed at t (a STATE event): read it from sim and write to
 * o the selected counters whose value moved.  With emit false (outside
 * the trace window) nothing is written, so the first sample inside the
 * window writes every counter it reads.
 */
void trace_state_sample(struct trace_state *s, const eevdf_sim *sim, int cpu,
			eevdf_time t, struct tr_out *o, bool emit);

#endif
