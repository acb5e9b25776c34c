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
		out->group = "/";
		return 0;
	}
	eevdf__task_state(p, (u64)sim->sched.now, out);
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
	return eevdf__rq_walk(&sim->sched.rqs[cpu], pids, NULL, pids ? max : 0,
			      (u64)sim->sched.now, false);
}

int eevdf_sim_rq_entities(const eevdf_sim *sim, int cpu,
			  struct eevdf_entity_state *out, size_t max)
{
	if (!sim || (!out && max) || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	return eevdf__rq_walk(&sim->sched.rqs[cpu], NULL, out, out ? max : 0,
			      (u64)sim->sched.now, true);
}

int eevdf_sim_rq_pick_levels(eevdf_sim *sim, int cpu,
			     struct eevdf_pick_level *out, size_t max)
{
	if (!sim || (!out && max) || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	return eevdf__rq_pick(&sim->sched.rqs[cpu], out, max);
}

int eevdf_sim_rq_pick(eevdf_sim *sim, int cpu, int *pid, enum eevdf_rule *rule)
{
	struct eevdf_pick_level lv[EEVDF_GROUP_DEPTH_MAX + 2];
	int n;

	if (!sim || !pid || !rule || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	n = eevdf__rq_pick(&sim->sched.rqs[cpu], lv, ARRAY_SIZE(lv));
	if (n > (int)ARRAY_SIZE(lv))
		n = (int)ARRAY_SIZE(lv);
	*pid = n ? lv[n - 1].pid : -1;
	*rule = n ? lv[n - 1].rule : EEVDF_RULE_NONE;
	return 0;
}

/*
 * The group a task is scheduled in (its cgroup, or its session's
 * autogroup): the process its track belongs to in a trace.  A compacted
 * task kept no group: the root.
 */
const char *eevdf_sim_task_group(const eevdf_sim *sim, int pid)
{
	const struct task *p;

	if (!sim || pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return NULL;
	p = sim->sched.tasks[pid - 1];
	return p && p->sched_task_group ? p->sched_task_group->path : "/";
}

int eevdf_sim_trace_detail(eevdf_sim *sim, unsigned int what)
{
	if (!sim || (what & ~(unsigned int)(EEVDF_DETAIL_DECISIONS |
					    EEVDF_DETAIL_STATE)))
		return EEVDF_EINVAL;
	return eevdf__obs_set(&sim->sched, what);
}
