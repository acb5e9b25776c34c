/* SPDX-License-Identifier: MIT */
/*
 * The CFS policy of Linux 6.1-6.5 (profile "cfs-6.1"), cfs.c.  fair.c's
 * class entry points and hierarchy walks call the cfs_* hooks below when
 * the profile's policy is POLICY_CFS; the rest is exposed for the tests'
 * worked examples.
 */
#ifndef EEVDF_CFS_H
#define EEVDF_CFS_H

#include "fair.h"

#define sched_nr_latency 8u

#define __sched_period eevdf__cfs_sched_period
#define sched_slice eevdf__cfs_sched_slice
#define sched_vslice eevdf__cfs_sched_vslice
#define wakeup_gran eevdf__cfs_wakeup_gran
#define wakeup_preempt_entity eevdf__cfs_wakeup_preempt_entity
#define cfs_update_curr eevdf__cfs_update_curr
#define cfs_place_entity eevdf__cfs_place_entity
#define cfs_pick_next_entity eevdf__cfs_pick_next_entity
#define cfs_migrate_task eevdf__cfs_migrate_task
#define cfs_task_fork eevdf__cfs_task_fork
#define cfs_enqueue_entity eevdf__cfs_enqueue_entity
#define cfs_dequeue_entity eevdf__cfs_dequeue_entity
#define cfs_set_next_entity eevdf__cfs_set_next_entity
#define cfs_put_prev_entity eevdf__cfs_put_prev_entity
#define cfs_entity_tick eevdf__cfs_entity_tick
#define cfs_check_preempt_wakeup eevdf__cfs_check_preempt_wakeup
#define cfs_yield_task eevdf__cfs_yield_task
#define cfs_sched_change eevdf__cfs_sched_change
#define cfs_hrtick_start eevdf__cfs_hrtick_start

/* The period that nr runnable tasks share (latency, or nr x min_gran). */
u64 __sched_period(const struct sched_params *sp, u64 nr);
/* The wall-clock slice of se on cfs_rq, and the same in virtual time. */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* The wakee-weighted wakeup granularity, and the buddy/wakeup test:
 * -1 when se is not left of curr, 1 when it is more than a granularity
 * left, 0 in between. */
u64 wakeup_gran(struct sched_entity *se);
int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se);

void cfs_update_curr(struct cfs_rq *cfs_rq);
void cfs_place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		      bool initial);
struct sched_entity *cfs_pick_next_entity(struct cfs_rq *cfs_rq,
					  struct sched_entity *curr);

/* migrate_task_rq_fair() for a task leaving src's queue (set_task_cpu). */
void cfs_migrate_task(struct rq *src, struct task *p);

/* One level's enqueue, dequeue, set, put and tick (fair.c's walks). */
void cfs_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			unsigned int flags);
void cfs_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			unsigned int flags);
void cfs_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void cfs_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);
void cfs_entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr,
		     bool queued);

/* Task-level hooks, called from fair.c's entry points. */
void cfs_task_fork(struct rq *rq, struct task *p);
void cfs_check_preempt_wakeup(struct rq *rq, struct task *p,
			      unsigned int wake_flags);
void cfs_yield_task(struct rq *rq);
void cfs_sched_change(struct rq *rq, struct task *p, int nice, int policy);
void cfs_hrtick_start(struct rq *rq, struct task *p);

#endif
