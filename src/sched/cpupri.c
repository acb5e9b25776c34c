/* SPDX-License-Identifier: MIT */
/*
 * cpupri (kernel/sched/cpupri.c): a count of CPUs per RT priority level
 * and the search for the CPUs of the lowest level an RT task could
 * preempt.  See cpupri.h.
 */
#include <string.h>

#include "cpupri.h"
#include "smp.h"

/*
 * convert_prio(): kernel prio 0..98 is level 99..1, 99 (no RT task) 0,
 * and MAX_RT_PRIO, which the deadline class sets while it has entities
 * queued, CPUPRI_HIGHER.
 */
int convert_prio(int prio)
{
	if (prio == MAX_RT_PRIO)
		return CPUPRI_HIGHER;
	if (prio < 0 || prio > MAX_RT_PRIO)
		return CPUPRI_INVALID;
	if (prio == MAX_RT_PRIO - 1)
		return CPUPRI_NORMAL;
	return MAX_RT_PRIO - 1 - prio;
}

void cpupri_set(struct scheduler *sched, struct rq *rq, int prio)
{
	int level = convert_prio(prio);

	if (level == rq->cpupri)
		return;
	if (rq->cpupri != CPUPRI_INVALID)
		sched->cpupri_count[rq->cpupri]--;
	if (level != CPUPRI_INVALID)
		sched->cpupri_count[level]++;
	rq->cpupri = level;
}

/* __cpupri_find(): p's CPUs at level idx, into mask; any? */
static bool cpupri_find_level(struct scheduler *sched, const struct task *p,
			      uint8_t *mask, int idx)
{
	bool any = false;

	if (!sched->cpupri_count[idx])
		return false;
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		mask[cpu] = sched->rqs[cpu].cpupri == idx &&
			    task_allowed(p, cpu);
		any |= mask[cpu];
	}
	return any;
}

bool cpupri_find(struct scheduler *sched, const struct task *p, uint8_t *mask)
{
	int task_pri = convert_prio(p->prio);

	for (int idx = 0; idx < task_pri; idx++)
		if (cpupri_find_level(sched, p, mask, idx))
			return true;
	memset(mask, 0, (size_t)sched->nr_cpus);
	return false;
}
