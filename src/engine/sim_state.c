/* SPDX-License-Identifier: MIT */
/*
 * The public readers of the model's state and the switch of the extra
 * trace events (eevdf/state.h): argument checks and the way from a pid
 * or a CPU to the scheduler's data; the reading itself is
 * sched/sched_state.c's.
 */
#include <string.h>

#include "sched/sched_state.h"
#include "sim.h"

/* The whole task of pid, or NULL (unknown, or compacted after exit). */
static const struct task *task_at(const eevdf_sim *sim, int pid)
{
	if (!sim || pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return NULL;
	return sim->sched.tasks[pid - 1];
}

int eevdf_sim_task_state(const eevdf_sim *sim, int pid,
			 struct eevdf_entity_state *out)
{
	const struct task *p;

	if (!sim || !out || pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return EEVDF_EINVAL;
	p = task_at(sim, pid);
	if (!p) {
		/* exited and compacted: what is left is where it last ran */
		memset(out, 0, sizeof(*out));
		out->pid = pid;
		out->cpu = eevdf__sim_rec(sim, pid)->cpu;
		return 0;
	}
	eevdf__entity_state(p, (u64)sim->sched.now, out);
	return 0;
}

int eevdf_sim_rq_state(const eevdf_sim *sim, int cpu,
		       struct eevdf_rq_state *out)
{
	if (!sim || !out || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	eevdf__rq_state(&sim->sched.rqs[cpu], out);
	return 0;
}

int eevdf_sim_rq_tasks(const eevdf_sim *sim, int cpu, int *pids, size_t max)
{
	if (!sim || (!pids && max) || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	return eevdf__rq_tasks(&sim->sched.rqs[cpu], pids, max);
}

int eevdf_sim_rq_pick(eevdf_sim *sim, int cpu, int *pid, enum eevdf_rule *rule)
{
	int r;

	if (!sim || !pid || !rule || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	eevdf__rq_pick(&sim->sched.rqs[cpu], pid, &r);
	*rule = (enum eevdf_rule)r;
	return 0;
}

/*
 * Every task is in the root group: the model has no group scheduling
 * yet.  This is the one place that says which group a task is in, so
 * that the trace's process per group follows it once it has.
 */
const char *eevdf_sim_task_group(const eevdf_sim *sim, int pid)
{
	if (!sim || pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return NULL;
	return "/";
}

int eevdf_sim_trace_detail(eevdf_sim *sim, unsigned int what)
{
	if (!sim || (what & ~(unsigned int)(EEVDF_DETAIL_DECISIONS |
					    EEVDF_DETAIL_STATE)))
		return EEVDF_EINVAL;
	return eevdf__obs_set(&sim->sched, what);
}
