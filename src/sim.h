/* SPDX-License-Identifier: MIT */
/*
 * The simulation object and the engine/core interface.  sim.c owns the
 * clock, the event loop and the public entry points; core.c owns what
 * happens to tasks and CPUs at each event (the kernel's core.c paths).
 */
#ifndef EEVDF_SIM_INTERNAL_H
#define EEVDF_SIM_INTERNAL_H

#include "sched.h"

struct eevdf_sim {
	struct sched_params sp;
	struct eevdf_eventq evq;
	eevdf_time now;

	struct rq *rqs;
	int nr_cpus;
	int hz;
	u64 seed;
	eevdf_time duration;
	char name[128];

	struct task **tasks;
	size_t nr_tasks;
	size_t cap_tasks;
	size_t nr_exited;
	unsigned int rr_next; /* round-robin start placement */

	bool check_invariants;
	eevdf_trace_fn trace;
	void *trace_ud;

	/* Livelock guard: ops executed without the clock moving. */
	eevdf_time guard_time;
	u64 guard_ops;

	int error; /* sticky: once a run failed, it stays failed */
	char errmsg[256];
};

/* Record an error (sticky) with a printf-style message; returns code. */
int eevdf__sim_fail(struct eevdf_sim *sim, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Emit a trace event if a sink is configured. */
void eevdf__trace(struct eevdf_sim *sim, enum eevdf_trace_kind kind, int cpu,
		  int pid, int prev_pid, enum eevdf_task_state prev_state);

/* core.c: event handlers and the settle loop, each returning 0 or an
 * error code. */
int eevdf__core_dispatch(struct eevdf_sim *sim, struct eevdf_event *ev);
void eevdf__core_init_rq(struct eevdf_sim *sim, struct rq *rq, int cpu);
void eevdf__task_set_nice(struct eevdf_sim *sim, struct task *p, int nice);
const char *eevdf__rq_check(const struct rq *rq);

#endif
