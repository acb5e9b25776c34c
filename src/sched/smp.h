/* SPDX-License-Identifier: MIT */
/*
 * SMP: wakeup and fork CPU selection (smp.c) and load balancing
 * (balance.c), after kernel/sched/fair.c (kernel-model.md section 10).
 */
#ifndef EEVDF_SMP_H
#define EEVDF_SMP_H

#include "core.h"

/* May p run on cpu? */
bool task_allowed(const struct task *p, int cpu);
/* CPUs p may run on. */
int task_nr_allowed(const struct scheduler *sched, const struct task *p);

/* Nothing running, nothing queued, no wakeup in flight. */
static inline bool available_idle_cpu(const struct scheduler *sched, int cpu)
{
	return sched->idle_map[cpu];
}

static inline unsigned long cpu_load(const struct rq *rq)
{
	return rq->cfs.avg.load_avg;
}

static inline unsigned long cpu_util(const struct rq *rq)
{
	unsigned long u = rq->cfs.avg.util_avg;
	unsigned long cap = rq->sched->topo.cpu[rq->cpu].capacity;

	return u < cap ? u : cap;
}

static inline unsigned long capacity_of(const struct scheduler *sched, int cpu)
{
	return sched->topo.cpu[cpu].capacity;
}

/*
 * select_task_rq_fair(): the CPU p should be woken (WF_TTWU) or started
 * (WF_FORK) on.  this_cpu is where the wakeup runs: the waker's CPU, or
 * prev_cpu for a timer.
 */
int select_task_rq_fair(struct scheduler *sched, struct task *p, int prev_cpu,
			int this_cpu, struct task *waker,
			unsigned int wake_flags);

/* The pieces of select_task_rq_fair(), for the tests. */
bool wake_wide(const struct scheduler *sched, const struct task *waker,
	       const struct task *p, int this_cpu);
int select_idle_sibling(struct scheduler *sched, struct task *p, int prev,
			int target);
/* SIS_UTIL's scan budget of an LLC of llc_weight CPUs whose utilisation
 * sums to sum_util, with the LLC domain's imbalance_pct. */
int sis_util_nr_idle_scan(u64 sum_util, u64 llc_weight, u64 pct);

/* A CPU just went idle: maybe its whole core is idle now. */
void update_idle_core(struct scheduler *sched, int cpu);

/*
 * Move a task that is not queued anywhere (sleeping or new) to new_cpu:
 * PELT detach/attach, the migration count and the cache refill cost.
 */
void set_task_cpu(struct scheduler *sched, struct task *p, int new_cpu);

/* balance.c */
/* The tick's sched_balance_trigger(): periodic and NOHZ idle balancing. */
void eevdf__balance_tick(struct scheduler *sched, struct rq *rq);
/* sched_balance_newidle(): rq is about to go idle; pull work.  Returns
 * the number of tasks pulled. */
int eevdf__balance_newidle(struct scheduler *sched, struct rq *rq);

/*
 * select_idle_cpu()'s scan on bitmaps of nw words (CPU n at bit n % 64 of
 * word n / 64): the first CPU of llc after target in the scan's order
 * (ascending from target + 1, wrapping, target last) whose idle bit is
 * set, or -1; *before is how many of llc's CPUs come before it in that
 * order (all of them when -1).
 */
int eevdf__first_idle_after(const u64 *idle, const u64 *llc, u32 nw, int target,
			    u32 *before);

#endif
