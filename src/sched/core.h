/* SPDX-License-Identifier: MIT */
/*
 * src/sched/: the kernel model.  One file per kernel file it mirrors,
 * with the kernel's names: core.c (wakeups, __schedule, the tick, the
 * class pick loop), fair.c (EEVDF), cfs.c (the CFS of 6.1-6.5), rt.c and
 * cpupri.c (SCHED_FIFO/RR), deadline.c (SCHED_DEADLINE and the fair
 * server), group.c (task groups: cgroups, autogroup, group weights,
 * hierarchical PELT and h_load), bandwidth.c (CFS bandwidth, cpu.max),
 * smp.c (select_task_rq),
 * balance.c (load balancing), pelt.c, topology.c (sched domains),
 * weights.c, feature.c and sched_features.h (the features.h list),
 * profile.c (what each kernel release does).  It may include lib/ and
 * machine/, never engine/, workload/ or report/: the one way up is
 * struct sched_task_ops, which the engine fills in.
 *
 * Inside the folder the files call each other as the kernel's do:
 * core.c calls the classes through their struct sched_class tables and
 * SMP placement and balancing
 * (smp.c, balance.c), which call back into core.c to mark a CPU for
 * rescheduling, to check preemption of a task they moved
 * (wakeup_preempt(), as attach_task() does) and to arm the hrtick; fair.c
 * walks the group hierarchy and hands each level of a CFS run queue to
 * cfs.c, which shares fair.c's tree and PELT upkeep; group.c re-weights
 * group entities through fair.c's reweight_entity(), and bandwidth.c
 * throttles through the same per-level enqueue and dequeue.  None of
 * these calls leaves the folder.
 *
 * This header is what the engine calls: the scheduler's entry points,
 * as the kernel's syscalls and interrupts enter kernel/sched/core.c.
 */
#ifndef EEVDF_SCHED_CORE_H
#define EEVDF_SCHED_CORE_H

#include <stdarg.h>

#include "sched.h"

/* Set up rq as CPU cpu of sched (sched_init() for one CPU). */
void eevdf__core_init_rq(struct scheduler *sched, struct rq *rq, int cpu);

/* Run one scheduler event (a task's or a CPU's), then settle every CPU it
 * touched; 0 or an error code. */
int eevdf__core_dispatch(struct scheduler *sched, struct eevdf_event *ev);
/*
 * Start loading the memory of the event most likely to pop next
 * (eevdf__eventq_next_hint()): a task's event reads the first lines of
 * its task, which in a simulation of many tasks have long left the
 * cache (task_prefetch()).  No effect on results.
 */
void eevdf__core_prefetch_next(const struct scheduler *sched);

/* Let every CPU an engine event touched act on it (settle_all()). */
int eevdf__core_settle(struct scheduler *sched);

/* Queue (or move) ev to fire at when. */
int eevdf__queue_event(struct scheduler *sched, struct eevdf_event *ev,
		       eevdf_time when);

/*
 * The same for the burst end of the task running on cpu, kept in cpu's
 * lane of the queue (struct eevdf_eventq): the same order, less work.
 */
int eevdf__queue_event_on(struct scheduler *sched, struct eevdf_event *ev,
			  eevdf_time when, int cpu);

/* __schedule() on rq: block curr if it is no longer runnable, pick, switch. */
void eevdf__schedule(struct scheduler *sched, struct rq *rq);

/*
 * try_to_wake_up() of a blocked task (its pending timer is cancelled), by
 * sched->ttwu_waker: what it cost the waker's CPU (CPU selection, locks,
 * wake list), for the waker to pay.  A timer's wakeup (no waker) charges
 * its CPU's current task itself, as IRQ time, and gives 0.
 */
u64 eevdf__ttwu(struct scheduler *sched, struct task *p,
		unsigned int wake_flags);

/* wakeup_preempt(): may p, just queued on rq, run now? */
void eevdf__wakeup_preempt(struct rq *rq, struct task *p,
			   unsigned int wake_flags);

/* Ask for rq to be settled before the current event is over. */
void eevdf__mark_settle(struct scheduler *sched, struct rq *rq);
/* Settle every CPU marked so, outside an event (a caller's change). */
int eevdf__settle(struct scheduler *sched);

/* do_sched_yield(): rq's curr yields its CPU, now. */
void eevdf__sched_yield(struct scheduler *sched, struct rq *rq);

/* What a sched_setattr() asks for; a field < 0 (nice: -21) stays. */
struct sched_attr_req {
	int nice;	 /* -21: unchanged */
	s64 slice;	 /* < 0: unchanged, 0: back to the base slice */
	int policy;	 /* enum eevdf_policy, < 0: unchanged */
	int rt_priority; /* SCHED_FIFO / SCHED_RR: 1..99 */
	/* SCHED_DEADLINE, ns (period 0: the deadline) */
	s64 dl_runtime, dl_deadline, dl_period;
};

/*
 * __sched_setscheduler() of p by itself, on rq: checks what the kernel
 * checks (EINVAL: bad parameters; EBUSY: deadline admission control;
 * EPERM, here EINVAL: a deadline task confined to some CPUs), then
 * changes class, priority, weight and slice at once.  0, or the error
 * with the kernel's rule in sched->errmsg (the run goes on).
 */
int eevdf__sched_setattr(struct scheduler *sched, struct rq *rq, struct task *p,
			 const struct sched_attr_req *attr);

/*
 * The checks of eevdf__sched_setattr() for a task about to be created
 * with policy (sched_setattr() before it first runs): 0, or the error with
 * the rule in err.  Admits a deadline task's bandwidth.
 */
int eevdf__sched_admit_new(struct scheduler *sched, struct task *p, char *err,
			   size_t errlen);

/* setpriority() on a task, now. */
void eevdf__task_set_nice(struct scheduler *sched, struct task *p, int nice);

/*
 * p moves to cgroup now (its scheduling group follows: the cgroup, or
 * its session's autogroup); also how an exiting task leaves its
 * autogroup (sched_autogroup_exit_task(): call after setting
 * p->exiting, with p->cgroup).
 */
void eevdf__sched_move_task(struct scheduler *sched, struct task *p,
			    struct task_group *cgroup);

/* p's CPUs changed: move it off a CPU it may no longer use. */
void eevdf__task_affinity_changed(struct scheduler *sched, struct task *p);

/* The scheduling classes' machine-wide state; 0 or EEVDF_ENOMEM. */
int eevdf__sched_classes_init(struct scheduler *sched);
void eevdf__sched_classes_free(struct scheduler *sched);

/* The class of a policy, and the kernel priority of a task. */
const struct sched_class *eevdf__sched_class_of(enum eevdf_policy policy);
int eevdf__normal_prio(enum eevdf_policy policy, unsigned int rt_priority,
		       int nice);

/* For the classes: charge a non-fair curr its runtime (update_curr_common)
 * and bill ns of work done on cpu for p's sake (to cpu's curr, or to p
 * when cpu is idle; p may be NULL). */
s64 eevdf__update_curr_common(struct rq *rq);
void eevdf__charge_cpu(struct scheduler *sched, int cpu, struct task *p,
		       u64 ns);

/* Core invariants of one CPU on top of its cfs_rq's; NULL when all hold. */
const char *eevdf__rq_check(const struct rq *rq);
/* The balancer's running group sums and overloaded counts against a fresh
 * count (lb_stats.h). */
const char *eevdf__lb_stats_check(struct scheduler *sched);

/*
 * Record a run's error (sticky) with a printf-style message; returns code.
 * Cold: the compiler moves the paths that fail out of the hot functions'
 * code, which the instruction cache then holds less of.
 */
int eevdf__sched_fail(struct scheduler *sched, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
int eevdf__sched_vfail(struct scheduler *sched, int code, const char *fmt,
		       va_list ap) __attribute__((format(printf, 3, 0), cold));

/* Emit a trace event if a sink is configured. */
void eevdf__trace(struct scheduler *sched, enum eevdf_trace_kind kind, int cpu,
		  int pid, int prev_pid, enum eevdf_task_state prev_state);

/* A MIGRATE trace event. */
void eevdf__trace_migrate(struct scheduler *sched, int pid, int from, int to);
/* cpu spun for spin ns on lock_cpu's rq lock, from now on (none if 0) */
void eevdf__trace_spin(struct scheduler *sched, int cpu, int lock_cpu,
		       u64 spin);
/* from sent to an IPI for its wake list, whose first task is pid */
void eevdf__trace_ipi(struct scheduler *sched, int from, int to, int pid);

#endif
