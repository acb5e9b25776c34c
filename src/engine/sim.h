/* SPDX-License-Identifier: MIT */
/*
 * The simulation object and the engine/core interface.  sim.c owns the
 * clock, the event loop and the public entry points; core.c owns what
 * happens to tasks and CPUs at each event (the kernel's core.c paths).
 */
#ifndef EEVDF_SIM_INTERNAL_H
#define EEVDF_SIM_INTERNAL_H

#include "sched/sched.h"
#include "machine/costs.h"
#include "objects.h"
#include "program.h"
#include "machine/machine.h"
#include "sched/topology.h"

struct metric;

/* Tasks a join op waits for. */
struct join_set {
	u32 *pids;
	u32 nr;
};

/* JOIN's a.c for "the joiner's own children" (wait() for them all). */
#define JOIN_CHILDREN (-1)

/* What spawn creates: a task spec and its program. */
struct task_template {
	char *name;               /* instances are name[k] */
	struct eevdf_task_spec spec; /* spec.name unused; cpus owned */
	struct program *prog;     /* a reference */
	bool is_thread;
	u32 spawned;              /* instances so far, for their names */
};

struct eevdf_sim {
	struct sched_params sp;
	struct eevdf_eventq evq;
	eevdf_time now;

	struct eevdf_machine *machine; /* owned copy: the config's or a flat one */
	struct topology topo;
	u32 *core_mark;       /* select_idle_cpu(): cores already scanned */
	uint8_t *idle_map;        /* per CPU: available_idle_cpu() (rq_idle_update) */
	u32 mark_gen;
	u64 nohz_next_balance; /* jiffies: next NOHZ idle balance kick */
	unsigned int nr_overloaded; /* CPUs with more than one task queued */
	struct eevdf_smp_stats smp;
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

	bool check_invariants;
	eevdf_trace_fn trace;
	void *trace_ud;
	int ttwu_waker; /* pid of the task waking one now, -1: none (a timer) */
	uint64_t nr_events; /* events run so far */

	/*
	 * Programs built from public op arrays, shared by every task added
	 * with the same ops: a hundred thousand tasks of one kind hold one
	 * program, not a hundred thousand copies.
	 */
	struct prog_cache {
		struct eevdf_op *ops;  /* a copy of the public ops */
		size_t nr;
		struct program *prog;  /* a reference */
	} prog_cache[8];
	unsigned int prog_cache_next;

	/* Livelock guard: ops executed without the clock moving. */
	eevdf_time guard_time;
	u64 guard_ops;

	/* Workload engine (program.c). */
	struct sim_object **objs;
	size_t nr_objs, cap_objs;
	u32 *objs_by_name;   /* object indices sorted by name */
	bool objs_sorted;
	s64 *globals;
	size_t nr_globals;
	struct metric **metrics;
	size_t nr_metrics;
	struct join_set *join_sets;
	size_t nr_join_sets;
	struct task_template *templates;
	size_t nr_templates;
	struct waitq joiners;
	struct cost_table costs;
	bool stop_flag;            /* the workload's "stop" expression */
	eevdf_time kill_at;        /* stop mode kill: the run ends here */
	int end_on_exit_of;        /* pid whose exit ends the run, or 0 */
	bool ended;                /* the workload's stop condition held */
	struct eevdf_event stop_ev;
	struct eevdf_event warmup_ev;
	char **strings;            /* interned string constants (keys) */
	size_t nr_strings;

	/* CPUs whose state changed during the current event. */
	struct rq **settle;  /* a ring of nr_cpus slots */
	size_t settle_head, nr_settle;

	int error; /* sticky: once a run failed, it stays failed */
	char errmsg[256];
};

/* Record an error (sticky) with a printf-style message; returns code. */
int eevdf__sim_fail(struct eevdf_sim *sim, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Emit a trace event if a sink is configured. */
void eevdf__trace(struct eevdf_sim *sim, enum eevdf_trace_kind kind, int cpu,
		  int pid, int prev_pid, enum eevdf_task_state prev_state);

/* A MIGRATE trace event. */
void eevdf__trace_migrate(struct eevdf_sim *sim, int pid, int from, int to);

/* core.c: event handlers and the settle loop, each returning 0 or an
 * error code. */
int eevdf__core_dispatch(struct eevdf_sim *sim, struct eevdf_event *ev);
int eevdf__queue_event(struct eevdf_sim *sim, struct eevdf_event *ev,
		       eevdf_time when);
/* __schedule() on rq: block curr if it is no longer runnable, pick, switch. */
void eevdf__schedule(struct eevdf_sim *sim, struct rq *rq);
/*
 * try_to_wake_up() of a blocked task (its pending timer is cancelled).
 * True when the wakeup went to another LLC's wake list (the waker pays
 * ttwu_remote instead of ttwu_local).
 */
bool eevdf__ttwu(struct eevdf_sim *sim, struct task *p,
		 unsigned int wake_flags);
/* wakeup_preempt(): may p, just queued on rq, run now? */
void eevdf__wakeup_preempt(struct rq *rq, struct task *p,
			   unsigned int wake_flags);
/* Ask for rq to be settled before the current event is over. */
void eevdf__mark_settle(struct eevdf_sim *sim, struct rq *rq);

/* program.c: the task program interpreter. */
int eevdf__prog_step(struct eevdf_sim *sim, struct rq *rq, struct task *p);
void eevdf__prog_burst_end(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_timer(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_switch_out(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_switch_in(struct eevdf_sim *sim, struct task *p);
int eevdf__prog_speed_change(struct eevdf_sim *sim, struct task *p);
/* Workload setup (the loader's side of the engine). */
/* Add an object (ownership passes to the simulation); its index or < 0. */
int eevdf__sim_add_object(struct eevdf_sim *sim, struct sim_object *o);
int eevdf__sim_set_globals(struct eevdf_sim *sim, const s64 *init, size_t n);
/* A join set of pids (copied); its index or < 0. */
int eevdf__sim_add_join_set(struct eevdf_sim *sim, const u32 *pids, u32 nr);
/* "stop": set the stop flag at `after` (kill: end the run there). */
int eevdf__sim_set_stop(struct eevdf_sim *sim, eevdf_time after, bool kill);
int eevdf__sim_set_warmup(struct eevdf_sim *sim, eevdf_time at);
/* A spawn template (spec and cpus copied, a program reference taken
 * over); its index or < 0. */
int eevdf__sim_add_template(struct eevdf_sim *sim, const char *name,
			    const struct eevdf_task_spec *spec,
			    struct program *prog, bool is_thread);
/*
 * Intern a string constant (a metric key such as tbench's "ReadX"): 0 and
 * *id, or EEVDF_ENOMEM.  Ids start at STRING_ID_BASE so that reports can
 * tell a string key from a number such as a pid.
 */
#define STRING_ID_BASE ((s64)1 << 40)
int eevdf__sim_intern(struct eevdf_sim *sim, const char *s, s64 *id);
/* The string of an interned id, or NULL when v is not one. */
const char *eevdf__sim_string(const struct eevdf_sim *sim, s64 v);
/* Add a task running prog (its reference is taken over); local_init
 * (prog->nr_locals values, or NULL for zeros) seeds its variables. */
int eevdf__sim_add_task_prog(struct eevdf_sim *sim,
			     const struct eevdf_task_spec *spec,
			     struct program *prog, bool is_thread,
			     const s64 *local_init);
/* Register the channels a new task's sends can name (end of file). */
int eevdf__prog_open_channels(struct eevdf_sim *sim, struct task *p);
/* Build a program from the public op array. */
int eevdf__program_from_ops(const struct eevdf_op *ops, size_t nr,
			    struct program **out);
/* The deadlock report: every blocked task and what it waits on. */
void eevdf__prog_describe_blocked(struct eevdf_sim *sim, char *buf,
				  size_t len);
void eevdf__core_init_rq(struct eevdf_sim *sim, struct rq *rq, int cpu);
void eevdf__task_set_nice(struct eevdf_sim *sim, struct task *p, int nice);
/* p's CPUs changed: move it off a CPU it may no longer use. */
void eevdf__task_affinity_changed(struct eevdf_sim *sim, struct task *p);
const char *eevdf__rq_check(const struct rq *rq);

#endif
