/* SPDX-License-Identifier: MIT */
/*
 * The EEVDF fair class, over the hierarchy of task groups (group.h).
 *
 * Functions keep the kernel's names (kernel/sched/fair.c); the macros below
 * give them the library's eevdf__ symbol prefix so that libeevdf.a never
 * clashes with a user's symbols, while the code still reads like fair.c.
 */
#ifndef EEVDF_FAIR_H
#define EEVDF_FAIR_H

#include "sched.h"

#define init_cfs_rq eevdf__init_cfs_rq
#define avg_vruntime eevdf__avg_vruntime
#define avg_vruntime_peek eevdf__avg_vruntime_peek
#define entity_eligible eevdf__entity_eligible
#define place_entity eevdf__place_entity
#define enqueue_entity eevdf__enqueue_entity
#define dequeue_entity eevdf__dequeue_entity
#define pick_eevdf eevdf__pick_eevdf
#define set_next_entity eevdf__set_next_entity
#define put_prev_entity eevdf__put_prev_entity
#define cfs_rq_min_slice eevdf__cfs_rq_min_slice
#define cfs_rq_max_slice eevdf__cfs_rq_max_slice
#define protect_slice eevdf__protect_slice
#define init_entity eevdf__init_entity
#define enqueue_task_fair eevdf__enqueue_task_fair
#define dequeue_task_fair eevdf__dequeue_task_fair
#define pick_next_task_fair eevdf__pick_next_task_fair
#define check_preempt_wakeup_fair eevdf__check_preempt_wakeup_fair
#define task_tick_fair eevdf__task_tick_fair
#define yield_task_fair eevdf__yield_task_fair
#define reweight_task_fair eevdf__reweight_task_fair
#define sched_change_fair eevdf__sched_change_fair
#define hrtick_start_fair eevdf__hrtick_start_fair
#define resched_curr eevdf__resched_curr
#define update_entity_lag eevdf__update_entity_lag
#define requeue_delayed_entity eevdf__requeue_delayed_entity
#define set_next_buddy eevdf__set_next_buddy
#define update_min_vruntime eevdf__update_min_vruntime
#define update_curr_se eevdf__update_curr_se
#define __enqueue_entity eevdf__tree_enqueue_entity
#define __dequeue_entity eevdf__tree_dequeue_entity
#define update_load_avg eevdf__update_load_avg
#define hrtick_update eevdf__hrtick_update
#define fair_enqueue_entity eevdf__fair_enqueue_entity
#define fair_dequeue_entity eevdf__fair_dequeue_entity
#define reweight_entity eevdf__reweight_entity
#define attach_entity_cfs_rq eevdf__attach_entity_cfs_rq
#define detach_entity_cfs_rq eevdf__detach_entity_cfs_rq
#define pick_task_fair eevdf__pick_task_fair
#define fair_sched_class eevdf__fair_sched_class

extern const struct sched_class fair_sched_class;

void init_cfs_rq(struct cfs_rq *cfs_rq, struct rq *rq);

/* V, the load-weighted mean vruntime.  avg_vruntime() is the kernel's
 * (it may re-centre zero_vruntime); avg_vruntime_peek() never changes
 * anything and is for checkers and reports. */
u64 avg_vruntime(struct cfs_rq *cfs_rq);
u64 avg_vruntime_peek(const struct cfs_rq *cfs_rq);
bool entity_eligible(const struct cfs_rq *cfs_rq,
		     const struct sched_entity *se);

/* update_curr() is a function, not a name macro like the others here, so
 * that struct sched_class's ->update_curr member keeps its kernel name. */
void eevdf__update_curr(struct cfs_rq *cfs_rq);
static inline void update_curr(struct cfs_rq *cfs_rq)
{
	eevdf__update_curr(cfs_rq);
}
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		  unsigned int flags);
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		    unsigned int flags);
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		    unsigned int flags);
void requeue_delayed_entity(struct sched_entity *se);
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect);
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		     bool first);
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);
void set_next_buddy(struct sched_entity *se);
u64 cfs_rq_min_slice(const struct cfs_rq *cfs_rq);
u64 cfs_rq_max_slice(const struct cfs_rq *cfs_rq);
bool protect_slice(const struct sched_entity *se);

/*
 * Shared with the CFS policy (cfs.c): the tree (keyed by se->deadline;
 * CFS stores its vruntime key there) with the avg_vruntime sums, the
 * monotonic min_vruntime, PELT, and the task-level upkeep every enqueue
 * and dequeue of a task does besides its entity's.
 */
void update_min_vruntime(struct cfs_rq *cfs_rq);
/* update_curr_se(): charge curr the time since exec_start; the time
 * charged, 0 when there is no curr or no time passed.  Both policies'
 * update_curr. */
s64 update_curr_se(struct cfs_rq *cfs_rq);
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void hrtick_update(struct rq *rq);

/* update_load_avg() flags (the kernel's) */
#define UPDATE_TG 0x1
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
/* An entity's load joins or leaves its cfs_rq's averages outside of an
 * enqueue (new task, class or group change, migration). */
void attach_entity_cfs_rq(struct sched_entity *se);
void detach_entity_cfs_rq(struct sched_entity *se);

/*
 * One level's enqueue and dequeue by the profile's policy (EEVDF, or
 * CFS in cfs.c), for the hierarchy walks here and in bandwidth.c;
 * dequeue returns false when the entity stays queued, delayed.
 */
void fair_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			 unsigned int flags);
bool fair_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			 unsigned int flags);
/* A task's weight changed on its queue: the group entities above follow. */
#define update_task_groups eevdf__update_task_groups
void update_task_groups(struct task *p);
/* Re-weight a group entity (update_cfs_group()), as its release does. */
void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		     u64 weight);

/* A new task's entity (__sched_fork + weight + slice). */
void init_entity(struct rq *rq, struct task *p);

/* Task-level class hooks, as core.c calls them. */
void enqueue_task_fair(struct rq *rq, struct task *p, unsigned int flags);
/* false when the task stays queued as a delayed entity */
bool dequeue_task_fair(struct rq *rq, struct task *p, unsigned int flags);
struct task *pick_next_task_fair(struct rq *rq, struct task *prev);
/* The pick alone, no put or set (the fair server's server_pick_task). */
struct task *pick_task_fair(struct rq *rq);
void check_preempt_wakeup_fair(struct rq *rq, struct task *p,
			       unsigned int wake_flags);
void task_tick_fair(struct rq *rq, struct task *curr, bool queued);
void yield_task_fair(struct rq *rq);
void reweight_task_fair(struct rq *rq, struct task *p, int nice);
/* sched_setattr(): new nice (-21: unchanged), slice (< 0: unchanged, 0:
 * base slice), policy (< 0: unchanged). */
void sched_change_fair(struct rq *rq, struct task *p, int nice, s64 slice,
		       int policy);
void hrtick_start_fair(struct rq *rq, struct task *p);
void resched_curr(struct rq *rq);

/*
 * Arm or cancel a CPU's hrtick timer (core.c owns the event queue).
 * delay < 0 cancels.
 */
void eevdf__rq_hrtick_arm(struct rq *rq, s64 delay);

/* Queue an entity as it is, no placement (tests build worked examples). */
void eevdf__cfs_rq_insert_raw(struct cfs_rq *cfs_rq, struct sched_entity *se);

/* Recompute every cfs_rq invariant from scratch; returns NULL when all
 * hold, else a static description of the first broken one. */
const char *eevdf__cfs_rq_check(const struct cfs_rq *cfs_rq);

static inline bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static inline u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	return eevdf__calc_delta_fair(delta, &se->load);
}

#endif
