/* SPDX-License-Identifier: MIT */
/*
 * cpupri: every CPU's RT priority level, so that an RT task looking for a
 * CPU finds the CPUs running the least important work first
 * (kernel/sched/cpupri.c).  Level 0 (CPUPRI_NORMAL) is a CPU with no RT
 * task queued, idle or running fair tasks alike: find_lowest_rq() does
 * not prefer an idle CPU over a busy fair one (934fc3314b39 "sched/cpupri:
 * Remove CPUPRI_IDLE" merged the two, v5.8).  Levels 1..99 are the
 * rt_priority of the CPU's most important queued RT task; a CPU with
 * deadline entities queued, the fair server's included, is at
 * CPUPRI_HIGHER until an RT enqueue or dequeue sets its RT level again
 * (inc_dl_deadline(), inc_rt_prio_smp(): the last writer wins).
 *
 * The kernel keeps a cpumask per level; here each rq holds its level and
 * the scheduler a count per level, and the search walks the CPUs of a
 * level it knows to be populated, in CPU order, which is the order the
 * kernel's cpumask_and() leaves them in.
 */
#ifndef EEVDF_CPUPRI_H
#define EEVDF_CPUPRI_H

#include "sched.h"

#define CPUPRI_NR_PRIORITIES (MAX_RT_PRIO + 1)
#define CPUPRI_INVALID (-1)
#define CPUPRI_NORMAL 0
#define CPUPRI_HIGHER 100 /* deadline work queued */

#define cpupri_set eevdf__cpupri_set
#define cpupri_find eevdf__cpupri_find
#define convert_prio eevdf__convert_prio

/* The cpupri level of an rt_rq whose most important queued task has
 * kernel priority prio (MAX_RT_PRIO - 1 when it has none). */
int convert_prio(int prio);

/* rq's most important RT priority is now prio (rt.highest_prio.curr). */
void cpupri_set(struct scheduler *sched, struct rq *rq, int prio);

/*
 * cpupri_find(): the lowest populated level below p's own that holds a
 * CPU p may run on; mask[cpu] is set for the CPUs of p's at that level.
 * False when every CPU p may use runs RT work at least as important.
 */
bool cpupri_find(struct scheduler *sched, const struct task *p, uint8_t *mask);

#endif
