/* SPDX-License-Identifier: MIT */
/*
 * CFS bandwidth control: cgroup v2 cpu.max (quota and period), after the
 * CONFIG_CFS_BANDWIDTH parts of kernel/sched/fair.c (v6.17,
 * 0b9ca2dcabc3).  A group's quota is a pool refilled every period; each
 * of its cfs_rqs takes runtime from it in slices of
 * sched_cfs_bandwidth_slice_us (5 ms) and spends it as its tasks run; a
 * cfs_rq that cannot get more is throttled (its entity leaves the parent
 * queue) until the period timer refills the pool and hands it runtime.
 *
 * Modelled: account_cfs_rq_runtime() from update_curr(), the throttle
 * check at put_prev_entity() and in the pick, check_enqueue_throttle(),
 * throttle_cfs_rq() / unthrottle_cfs_rq() with the hierarchical
 * throttle_count, the period timer (do_sched_cfs_period_timer() and
 * distribute_cfs_runtime()), the return of slack runtime with its 5 ms
 * timer, and cpu.stat's nr_periods, nr_throttled and throttled_usec.
 *
 * Simplified: throttling is the classic per-cfs_rq kind of 6.17 and
 * earlier for every profile (6.18's task-based throttle, e1fad12dcb66,
 * dequeues a throttled group's tasks one by one at their return to user
 * space instead); no cpu.max.burst; the period timer starts at its first
 * use (the kernel adds a random offset); PELT keeps running while
 * throttled (the kernel stops the group's PELT clock); remote
 * unthrottles take effect at once (no CSD IPI).
 */
#ifndef EEVDF_BANDWIDTH_H
#define EEVDF_BANDWIDTH_H

#include "group.h"

/* sysctl_sched_cfs_bandwidth_slice_us (5 ms) */
#define CFS_BANDWIDTH_SLICE 5000000ull
/* cpu.max's limits: a quota or period of at least 1 ms, a period of at
 * most 1 s (min_cfs_quota_period, max_cfs_quota_period) */
#define CFS_QUOTA_PERIOD_MIN 1000000ull
#define CFS_QUOTA_PERIOD_MAX 1000000000ull
/* the default period: 100 ms */
#define CFS_PERIOD_DEFAULT 100000000ull

static inline bool cfs_rq_throttled(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->throttled;
}

/* throttled_hierarchy(): this cfs_rq or one above it is throttled. */
static inline bool throttled_hierarchy(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->throttle_count != 0;
}

void eevdf__cfs_bandwidth_init(struct cfs_bandwidth *cfs_b);

/*
 * tg_set_cfs_bandwidth(): quota (CFS_QUOTA_INF for "max") per period,
 * both ns; EEVDF_EINVAL outside the kernel's limits.
 */
int eevdf__tg_set_cfs_bandwidth(struct scheduler *sched, struct task_group *tg,
				u64 quota, u64 period);

/* account_cfs_rq_runtime(): cfs_rq's curr ran delta_exec ns. */
void __account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec);
static inline void account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec)
{
	if (cfs_rq->runtime_enabled)
		__account_cfs_rq_runtime(cfs_rq, delta_exec);
}

/* check_cfs_rq_runtime(): throttle cfs_rq if it is out of runtime; true
 * when it is throttled. */
bool check_cfs_rq_runtime(struct cfs_rq *cfs_rq);
/* check_enqueue_throttle(): a group that wakes with no runtime left. */
void check_enqueue_throttle(struct cfs_rq *cfs_rq);
/* return_cfs_rq_runtime(): an emptied cfs_rq gives back its surplus. */
void return_cfs_rq_runtime(struct cfs_rq *cfs_rq);
/* sync_throttle(): a new group's cfs_rq inherits its parent's count. */
void sync_throttle(struct task_group *tg, int cpu);

/* The period and slack timers (REV_CFS_PERIOD, REV_CFS_SLACK). */
void eevdf__cfs_period_timer(struct scheduler *sched,
			     struct cfs_bandwidth *cfs_b);
void eevdf__cfs_slack_timer(struct scheduler *sched,
			    struct cfs_bandwidth *cfs_b);

#endif
