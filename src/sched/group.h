/* SPDX-License-Identifier: MIT */
/*
 * Group scheduling: task groups (the cgroup v2 cpu controller and
 * autogroup), their per-CPU entities and run queues, the group weight
 * (calc_group_shares), the PELT propagation through the hierarchy and
 * the hierarchical load the balancer reads (h_load).  After the
 * CONFIG_FAIR_GROUP_SCHED parts of kernel/sched/fair.c and
 * kernel/sched/core.c (v6.17, 0b9ca2dcabc3) and kernel/sched/autogroup.c;
 * kernel-model.md section 11.
 *
 * A group has, on every CPU, a cfs_rq holding its tasks and child groups'
 * entities, and an entity standing for that cfs_rq on the parent group's
 * cfs_rq of the same CPU.  The root group's cfs_rq is the CPU's rq->cfs
 * and it has no entity.  Every cfs_rq runs EEVDF (or CFS) on its own, with
 * its own V, lag and deadlines; a pick walks down from the root, an
 * enqueue or dequeue up from the task (fair.c).
 *
 * CFS bandwidth control (cpu.max) is bandwidth.c.
 */
#ifndef EEVDF_SCHED_GROUP_H
#define EEVDF_SCHED_GROUP_H

#include "sched.h"

/* Group weights, unscaled (kernel/sched/sched.h). */
#define MIN_SHARES 2u
#define MAX_SHARES (1u << 18)

/* cpu.max's "max": no quota (kernel/sched/sched.h RUNTIME_INF). */
#define CFS_QUOTA_INF (~(u64)0)

/*
 * A group's CFS bandwidth (struct cfs_bandwidth): quota ns of CPU time
 * per period, handed out to the group's cfs_rqs in slices from a pool
 * the period timer refills.
 */
struct cfs_bandwidth {
	u64 period;
	u64 quota;   /* CFS_QUOTA_INF: none */
	s64 runtime; /* left in the pool */
	bool period_active;
	bool idle;	    /* no runtime taken during the last period */
	bool slack_started; /* the slack timer is armed */
	/* which of the two timers count as background events (bandwidth.c) */
	bool period_bg, slack_bg;
	struct eevdf_event period_timer; /* REV_CFS_PERIOD */
	struct eevdf_event slack_timer;	 /* REV_CFS_SLACK */
	/* cfs_b->throttled_cfs_rq, oldest first */
	struct cfs_rq *throttled_head, *throttled_tail;
	/* cpu.stat */
	u64 nr_periods;
	u64 nr_throttled;
	u64 throttled_time; /* ns, summed over the group's cfs_rqs */
};

/* One CPU's part of a group. */
struct tg_cpu {
	struct sched_entity se;
	struct cfs_rq cfs_rq;
};

struct task_group {
	char *path; /* "/", "/system.slice/web", "/autogroup-3" */
	struct task_group *parent;
	/* children in creation order: walk_tg_tree() visits them so */
	struct task_group *first_child, *last_child, *next_sibling;
	unsigned int id; /* index in sched->groups; the root is 0 */
	int level;	 /* the root 0, its children 1, ... */
	u64 shares;	 /* scaled (tg->shares), clamped to MIN..MAX_SHARES */
	u64 user_shares; /* the weight set before cpu.idle overrode it */
	bool idle;	 /* cpu.idle */
	bool autogroup;
	u32 session;   /* autogroup: its session */
	int nice;      /* autogroup: /proc/PID/autogroup's nice */
	long load_avg; /* tg->load_avg: the cfs_rqs' contributions summed */
	struct tg_cpu *pcpu; /* per CPU; NULL for the root */
	struct rq *rqs;	     /* the machine's: the root's cfs_rqs */
	struct cfs_bandwidth cfs_bandwidth;
	u64 nr_tasks; /* tasks that were ever in the group */
};

static inline struct cfs_rq *tg_cfs_rq(const struct task_group *tg, int cpu)
{
	return tg->pcpu ? &tg->pcpu[cpu].cfs_rq : &tg->rqs[cpu].cfs;
}

static inline struct sched_entity *tg_se(const struct task_group *tg, int cpu)
{
	return tg->pcpu ? &tg->pcpu[cpu].se : NULL;
}

#define for_each_sched_entity(se) for (; (se); (se) = (se)->parent)

static inline bool entity_is_task(const struct sched_entity *se)
{
	return !se->my_q;
}

static inline struct cfs_rq *cfs_rq_of(const struct sched_entity *se)
{
	return se->cfs_rq;
}

static inline struct cfs_rq *group_cfs_rq(const struct sched_entity *se)
{
	return se->my_q;
}

static inline struct sched_entity *parent_entity(const struct sched_entity *se)
{
	return se->parent;
}

static inline bool cfs_rq_is_idle(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->idle;
}

/* se_is_idle(): a SCHED_IDLE task, or the entity of an idle group. */
static inline bool se_is_idle(const struct sched_entity *se)
{
	if (entity_is_task(se))
		return task_of((struct sched_entity *)(uintptr_t)se)->policy ==
		       EEVDF_POLICY_IDLE;
	return cfs_rq_is_idle(group_cfs_rq(se));
}

/*
 * se_runnable(): what an entity adds to its queue's runnable signal:
 * 1 for a queued task that is not delayed, the runnable tasks below a
 * group entity (runnable_weight, cached by se_update_runnable()).
 */
static inline unsigned long se_runnable(const struct sched_entity *se)
{
	if (se->sched_delayed)
		return 0;
	if (entity_is_task(se))
		return se->on_rq;
	return se->runnable_weight;
}

static inline void se_update_runnable(struct sched_entity *se)
{
	if (!entity_is_task(se))
		se->runnable_weight = se->my_q->h_nr_runnable;
}

/* Both entities of a wakeup check walked up to siblings on one cfs_rq. */
void find_matching_se(struct sched_entity **se, struct sched_entity **pse);

/* The root group and the list of groups (sim lifetime). */
int eevdf__tg_init(struct scheduler *sched);
void eevdf__tg_free(struct scheduler *sched);

/*
 * A new group below parent, with the kernel's defaults (weight 100,
 * shares NICE_0_LOAD, no quota); its entities are attached on every
 * CPU.  NULL when out of memory (sched->error is set).
 */
struct task_group *eevdf__tg_create(struct scheduler *sched,
				    struct task_group *parent,
				    const char *path);
/* The group called path, or NULL. */
struct task_group *eevdf__tg_find(const struct scheduler *sched,
				  const char *path);

/*
 * sched_group_set_shares(): shares scaled, clamped to MIN..MAX_SHARES;
 * EEVDF_EINVAL for the root and for an idle group, as the kernel does.
 */
int eevdf__tg_set_shares(struct scheduler *sched, struct task_group *tg,
			 u64 shares);
/* sched_group_set_idle(): the group's entity becomes idle-ish. */
int eevdf__tg_set_idle(struct scheduler *sched, struct task_group *tg,
		       bool idle);

/*
 * The autogroup of a session, created on first use with nice 0 (shares
 * of nice 0); NULL when out of memory.  nice sets an existing one's
 * (autogroup_set_nice()).
 */
struct task_group *eevdf__autogroup_of(struct scheduler *sched, u32 session);
int eevdf__autogroup_set_nice(struct scheduler *sched, u32 session, int nice);

/*
 * The group p is scheduled in (sched_get_task_group() with
 * autogroup_task_group()): its cgroup, unless that is the root and
 * autogroup is on and p has a session, then the session's autogroup.
 */
struct task_group *eevdf__task_group_of(struct scheduler *sched,
					struct task *p);

/* set_task_rq(): p's entity joins its group's cfs_rq and entity of cpu. */
void eevdf__set_task_rq(struct task *p, int cpu);

/*
 * sched_move_task(): p changes cgroup now (dequeue with SAVE|MOVE, put,
 * new group, PELT detached and attached, enqueue, set, resched).
 */
void eevdf__sched_move_task(struct scheduler *sched, struct task *p,
			    struct task_group *cgroup);

/* calc_group_shares() of a group's cfs_rq, and update_cfs_group(se). */
long calc_group_shares(const struct cfs_rq *cfs_rq);
void update_cfs_group(struct sched_entity *se);

/*
 * PELT through the hierarchy: update_tg_load_avg() refreshes this
 * cfs_rq's share of tg->load_avg; add_tg_cfs_propagate() records a
 * change below a group for its entity to take up; and
 * propagate_entity_load_avg() does that when the group entity is next
 * updated (returns 1 if it did).
 */
void update_tg_load_avg(struct cfs_rq *cfs_rq);
void add_tg_cfs_propagate(struct cfs_rq *cfs_rq, long runnable_sum);
int propagate_entity_load_avg(struct sched_entity *se);

/* task_h_load(): p's load as a share of its CPU's root load. */
unsigned long task_h_load(struct task *p);

/*
 * Every cfs_rq of rq's CPU and how the groups' entities hang together;
 * NULL when all hold.  *nr_tasks: the tasks queued in them (throttled
 * ones included).
 */
const char *eevdf__groups_check(const struct rq *rq, unsigned int *nr_tasks);

#endif
