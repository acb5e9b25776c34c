/* SPDX-License-Identifier: MIT */
/* The run-queue lock timeline (rq_lock.h). */
#include "rq_lock.h"
#include "sched.h"
#include "core.h"

void eevdf__rq_lock_init(struct rq_lock *l)
{
	*l = (struct rq_lock){ .free_at = 0, .last_cpu = -1 };
}

u64 eevdf__rq_line_cost(const struct scheduler *sched, int from, int to)
{
	if (from < 0)
		return 0;
	switch (cpu_distance(&sched->topo, from, to)) {
	case CPU_SAME_CORE:
		return 0;
	case CPU_SAME_LLC:
		return sched->costs.rq_remote_llc;
	case CPU_SAME_PKG:
		return sched->costs.rq_remote_cross_llc;
	case CPU_OTHER_PKG:
		break;
	}
	return sched->costs.rq_remote_cross_pkg;
}

u64 eevdf__rq_lock(struct scheduler *sched, struct rq *rq, int cpu, u64 hold,
		   u64 *spin)
{
	struct rq_lock *l = &rq->lock;
	eevdf_time now = sched->now;
	/* a CPU's own earlier holds are its own sequential work, already
	 * paid: only another CPU's hold makes it spin */
	u64 s = l->last_cpu != cpu && l->free_at > now ?
			(u64)(l->free_at - now) :
			0;
	/* the holder pulls the lines before its work: both hold the lock */
	u64 held = eevdf__rq_line_cost(sched, l->last_cpu, cpu) + hold;

	l->acquisitions++;
	if (s) {
		l->contended++;
		l->spin_ns += s;
		if (s > l->spin_max)
			l->spin_max = s;
		eevdf__trace_spin(sched, cpu, rq->cpu, s);
	}
	l->last_cpu = cpu;
	l->free_at = now + (eevdf_time)(s + held);
	l->hold_ns += held;
	if (spin)
		*spin = s;
	return s + held;
}
