/* SPDX-License-Identifier: MIT */
/*
 * Load-balance group statistics kept as running sums (balance.c's
 * sg_lb_stats()).  A newly-idle pass over a domain of hundreds of CPUs
 * used to read every CPU's run queue for every group; at 256 CPUs near
 * saturation that was most of the simulation's time.  Instead each CPU
 * remembers what it last added to the sums of the groups it belongs to
 * (one a level), a change to a CPU's run queue puts the CPU on a dirty
 * list (lb_stats_dirty() in sched.h), and a balancing pass first folds
 * the dirty CPUs' differences into their groups' sums.
 *
 * The sums are unsigned, so adding (new - old) wraps exactly as adding
 * new alone would: the figures are those of a fresh walk over the CPUs,
 * bit for bit.  With check_invariants every event checks that no CPU's
 * share changed unseen (eevdf__lb_stats_check()).
 */
#ifndef EEVDF_LB_STATS_H
#define EEVDF_LB_STATS_H

#include "sched.h"

/* What one CPU adds to the sums of its spans. */
struct lb_contrib {
	unsigned long load, util, runnable;
	unsigned int nr_running, h_nr_runnable, idle;
};

/* A span's sums; capacity and cores are fixed by the topology. */
struct lb_sums {
	unsigned long load, util, runnable, capacity;
	unsigned int nr_running, h_nr_runnable, idle_cpus, cores;
};

/* Allocate for sched->topo (built) and sched->nr_cpus; 0 or EEVDF_ENOMEM. */
int eevdf__lb_stats_init(struct scheduler *sched);
void eevdf__lb_stats_free(struct scheduler *sched);

/* Fold every dirty CPU into its spans' sums. */
void eevdf__lb_stats_flush(struct scheduler *sched);

/* Whether sched keeps the sums (a 1-CPU machine or a test stub may not). */
static inline bool lb_stats_on(const struct scheduler *sched)
{
	return sched->lbc.sums != NULL;
}

/*
 * The sums of span g, as of the flush.  g must be a group (a span another
 * span lists in its groups): every reader walks groups, so the sums of a
 * span that is no group (the top level's) are not kept, which spares
 * each fold one span in four on a machine with SMT.
 */
static inline const struct lb_sums *lb_stats_of(const struct scheduler *sched,
						const struct sd_span *g)
{
	return &sched->lbc.sums[g->index];
}

/* Whether cpu is one of group g's CPUs: its groups are listed per CPU. */
static inline bool lb_stats_cpu_in(const struct scheduler *sched, int cpu,
				   const struct sd_span *g)
{
	const struct lb_cache *c = &sched->lbc;
	u32 k = g->index;

	for (u32 i = 0; i < c->nr_member[cpu]; i++)
		if (c->member[(size_t)cpu * LB_MAX_MEMBER + i] == k)
			return true;
	return false;
}

#endif
