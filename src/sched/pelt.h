/* SPDX-License-Identifier: MIT */
/*
 * PELT, per-entity load tracking (kernel/sched/pelt.c and the PELT parts of
 * kernel/sched/fair.c; kernel-model.md section 10.7).
 *
 * The simulator needs PELT wherever the kernel decides with load averages
 * rather than with the instantaneous queue: wake_affine_weight() compares
 * the cfs_rq load_avg of the waker's and the previous CPU, the periodic and
 * newly-idle load balancers classify groups by load, util and runnable
 * averages and size the imbalance from them, and a new task's first util is
 * extrapolated from its run queue's.  Those decisions flip on a unit of
 * load, so the arithmetic here is the kernel's, integer for integer.
 *
 * Time is counted in 1024 ns units; 1024 units make a period (~1 ms); every
 * period decays history by y, y^32 = 1/2.  The module is standalone: it works
 * on struct sched_avg and plain integers, never on our sched structs.  No
 * frequency or capacity invariance: the PELT clock is the task clock and
 * every CPU has full capacity (SCHED_CAPACITY_SCALE).
 *
 * Kernel names are kept; the macros below give the non-static ones the
 * library's eevdf__ symbol prefix, as src/sched/fair.h does.
 */
#ifndef EEVDF_PELT_H
#define EEVDF_PELT_H

#include "lib/internal.h"

#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)

/* The kernel's struct sched_avg without util_est (not modelled). */
struct sched_avg {
	u64 last_update_time; /* ns of the PELT clock */
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib; /* 1024 ns units into the current period */
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
};

#define decay_load eevdf__decay_load
#define ___update_load_sum eevdf__pelt_update_load_sum
#define ___update_load_avg eevdf__pelt_update_load_avg
#define pelt_update_se_slow eevdf__pelt_update_se
#define pelt_update_cfs_rq_slow eevdf__pelt_update_cfs_rq
#define pelt_attach eevdf__pelt_attach
#define pelt_detach eevdf__pelt_detach
#define pelt_init_task eevdf__pelt_init_task
#define pelt_reweight eevdf__pelt_reweight

/* val * y^n, y^32 = 1/2, by the kernel's table recipe (0 beyond 2016). */
u64 decay_load(u64 val, u64 n);

/*
 * Accumulate from sa->last_update_time to now (ns).  load, runnable and
 * running weight the contributions as the kernel's callers pass them.
 * Returns 1 when at least one period boundary was crossed, i.e. when the
 * averages are due to be recomputed.
 */
int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load,
		       unsigned long runnable, int running);

/* The averages from the sums; load scales load_avg (an entity's weight). */
void ___update_load_avg(struct sched_avg *sa, unsigned long load);

/*
 * The maximum a sum can hold at this point of the period: the full
 * LOAD_AVG_MAX * y of the history plus the part of the current period
 * already elapsed.  Dividing by it keeps an always-running signal at the
 * top of its range instead of sagging while a period fills.
 */
static inline u32 get_pelt_divider(const struct sched_avg *sa)
{
	return PELT_MIN_DIVIDER + sa->period_contrib;
}

/*
 * Whether an update at now does anything: ___update_load_sum() returns at
 * once, changing nothing, when now is less than one 1024 ns unit past
 * the clock (and not behind it).  650 k of the 1.53 M updates of a 30 ms
 * schbench run are such, several to a context switch: the inline
 * wrappers below test it without a call.
 */
static inline bool pelt_unit_elapsed(u64 now, const struct sched_avg *sa)
{
	u64 delta = now - sa->last_update_time;

	return (s64)delta < 0 || delta >= 1024;
}

int pelt_update_se_slow(u64 now, struct sched_avg *sa, unsigned long weight,
			bool on_rq, unsigned long runnable, bool running);
int pelt_update_cfs_rq_slow(u64 now, struct sched_avg *sa,
			    unsigned long load_weight,
			    unsigned int h_nr_runnable, bool running);

/*
 * __update_load_avg_se(): an entity.  weight is scale_load_down()'d (1024
 * for nice 0); runnable is se_runnable() (on_rq and not delayed for a task,
 * the runnable tasks below it for a group entity);
 * running is cfs_rq->curr == se.  A blocked entity's catch-up
 * (__update_load_avg_blocked_se) is this with on_rq = runnable = running =
 * false.  Returns 1 if the averages were updated.
 */
static inline int pelt_update_se(u64 now, struct sched_avg *sa,
				 unsigned long weight, bool on_rq,
				 unsigned long runnable, bool running)
{
	if (!pelt_unit_elapsed(now, sa))
		return 0;
	return pelt_update_se_slow(now, sa, weight, on_rq, runnable, running);
}

/*
 * __update_load_avg_cfs_rq(): a run queue.  load_weight is
 * scale_load_down(cfs_rq->load.weight), runnable h_nr_runnable, running
 * cfs_rq->curr != NULL.  Returns 1 if the averages were updated.
 */
static inline int pelt_update_cfs_rq(u64 now, struct sched_avg *sa,
				     unsigned long load_weight,
				     unsigned int h_nr_runnable, bool running)
{
	if (!pelt_unit_elapsed(now, sa))
		return 0;
	return pelt_update_cfs_rq_slow(now, sa, load_weight, h_nr_runnable,
				       running);
}

/*
 * attach_entity_load_avg() / detach_entity_load_avg(): an entity joins or
 * leaves a cfs_rq's sums (fork, migration).  weight is the entity's
 * scale_load_down()'d weight: the cfs_rq's load_sum holds weight-scaled
 * entity sums.  Both expect the cfs_rq updated to now first.  Attach aligns
 * the entity to the cfs_rq's clock and period and rebuilds its sums from
 * its averages.
 */
void pelt_attach(struct sched_avg *cfs, struct sched_avg *se,
		 unsigned long weight);
void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se,
		 unsigned long weight);

/*
 * The PELT part of reweight_entity(): the entity's load leaves the
 * cfs_rq's sums (dequeue_load_avg()), its load_avg is recomputed from its
 * load_sum at the new weight, and it joins them again
 * (enqueue_load_avg()).  Weights are scale_load_down()'d.
 */
void pelt_reweight(struct sched_avg *cfs, struct sched_avg *se,
		   unsigned long old_weight, unsigned long new_weight);

/*
 * init_entity_runnable_average() + post_init_entity_util_avg() for a new
 * fair task: load_avg = weight (a newcomer counts as heavy until it has a
 * history), util_avg extrapolated from the cfs_rq's util and load and
 * capped at half the capacity the cfs_rq leaves, runnable_avg = util_avg.
 * The sums stay 0: pelt_attach(), at the first enqueue, derives them.
 * last_update_time = now (see pelt.c).
 */
void pelt_init_task(struct sched_avg *sa, unsigned long weight,
		    unsigned long cfs_util_avg, unsigned long cfs_load_avg,
		    unsigned long capacity, u64 now);

#endif
