/* SPDX-License-Identifier: MIT */
/*
 * Running sums of the balancer's group statistics (see lb_stats.h).
 */
#include "lb_stats.h"
#include "smp.h"

/* cpu's share of its groups' sums, read as sg_lb_stats() read it. */
static struct lb_contrib contrib_of(const struct scheduler *sched, int cpu)
{
	const struct rq *rq = &sched->rqs[cpu];
	unsigned long cap = capacity_of(sched, cpu), u = rq->cfs.avg.util_avg;

	return (struct lb_contrib){
		.load = cpu_load(rq),
		.util = u < cap ? u : cap, /* cpu_util() */
		.runnable = rq->cfs.avg.runnable_avg,
		.nr_running = rq->nr_running,
		.h_nr_runnable = rq->cfs.h_nr_runnable,
		.idle = !rq->nr_running && available_idle_cpu(sched, cpu),
	};
}

/*
 * The fixed part of span s: its capacity, and its cores counted as
 * sg_lb_stats() counts them (a new core id in the ascending CPU list).
 */
static void static_sums(const struct scheduler *sched, const struct sd_span *s,
			struct lb_sums *out)
{
	int last_core = -1;

	out->capacity = 0;
	out->cores = 0;
	for (u32 i = 0; i < s->weight; i++) {
		const struct cpu_topo *ct = &sched->topo.cpu[s->cpus[i]];

		out->capacity += ct->capacity;
		if (ct->core != last_core) {
			last_core = ct->core;
			out->cores++;
		}
	}
}

int eevdf__lb_stats_init(struct scheduler *sched)
{
	struct lb_cache *c = &sched->lbc;
	const struct topology *t = &sched->topo;
	size_t n = (size_t)sched->nr_cpus;
	bool *is_group;

	*c = (struct lb_cache){ 0 };
	/* One CPU has nothing to balance; no spans, nothing to keep. */
	if (n < 2 || !t->nr_spans)
		return 0;
	/*
	 * When every group is a single CPU (one level: a small machine of
	 * one LLC), a group's sums are that CPU's own figures: the walk
	 * reads no more than the sums would, and keeping them would only
	 * add the upkeep.
	 */
	{
		bool wide = false;

		for (int cpu = 0; cpu < sched->nr_cpus && !wide; cpu++) {
			const struct sched_domain *sd;

			for_each_domain(t, cpu, sd)
			{
				for (u32 g = 0; g < sd->span->nr_groups; g++)
					if (sd->span->groups[g]->weight > 1)
						wide = true;
			}
		}
		if (!wide)
			return 0;
	}
	c->sums = calloc(t->nr_spans, sizeof(*c->sums));
	c->snap = calloc(n, sizeof(*c->snap));
	c->h_nr = calloc(n, sizeof(*c->h_nr));
	c->member = calloc(n * LB_MAX_MEMBER, sizeof(*c->member));
	c->nr_member = calloc(n, sizeof(*c->nr_member));
	c->dirty = calloc(n, sizeof(*c->dirty));
	if (!c->sums || !c->snap || !c->h_nr || !c->member || !c->nr_member ||
	    !c->dirty) {
		eevdf__lb_stats_free(sched);
		return EEVDF_ENOMEM;
	}
	/* only a group's sums are read: the top span's are not kept */
	is_group = calloc(t->nr_spans, sizeof(*is_group));
	if (!is_group) {
		eevdf__lb_stats_free(sched);
		return EEVDF_ENOMEM;
	}
	for (size_t k = 0; k < t->nr_spans; k++)
		for (u32 g = 0; g < t->spans[k].nr_groups; g++)
			is_group[t->spans[k].groups[g] - t->spans] = true;
	for (size_t k = 0; k < t->nr_spans; k++) {
		const struct sd_span *s = &t->spans[k];

		static_sums(sched, s, &c->sums[k]);
		if (!is_group[k])
			continue;
		for (u32 i = 0; i < s->weight; i++) {
			int cpu = s->cpus[i];

			if (c->nr_member[cpu] == LB_MAX_MEMBER) {
				/* more levels than the topology has:
				 * keep no sums, walk the CPUs instead */
				free(is_group);
				eevdf__lb_stats_free(sched);
				return 0;
			}
			c->member[(size_t)cpu * LB_MAX_MEMBER +
				  c->nr_member[cpu]++] = (u32)k;
		}
	}
	free(is_group);
	c->all_dirty = true;
	return 0;
}

void eevdf__lb_stats_free(struct scheduler *sched)
{
	struct lb_cache *c = &sched->lbc;

	free(c->sums);
	free(c->snap);
	free(c->h_nr);
	free(c->member);
	free(c->nr_member);
	free(c->dirty);
	*c = (struct lb_cache){ 0 };
}

/*
 * Fold cpu's change since its last fold into each of its groups.  Tried
 * and measured, not kept: skipping the groups when every difference is
 * zero.  A dirty CPU's PELT figures have almost always moved: a 10 ms
 * tbench-64 ran 0.3 % more instructions with the test.
 */
static void fold_cpu(struct scheduler *sched, int cpu)
{
	struct lb_cache *c = &sched->lbc;
	struct lb_contrib now = contrib_of(sched, cpu), *old = &c->snap[cpu];
	const u32 *m = &c->member[(size_t)cpu * LB_MAX_MEMBER];
	/* unsigned differences: adding them wraps back to the exact sum */
	unsigned long d_load = now.load - old->load,
		      d_util = now.util - old->util,
		      d_runnable = now.runnable - old->runnable;
	unsigned int d_nr = now.nr_running - old->nr_running,
		     d_h_nr = now.h_nr_runnable - old->h_nr_runnable,
		     d_idle = now.idle - old->idle;

	for (u32 i = 0; i < c->nr_member[cpu]; i++) {
		struct lb_sums *s = &c->sums[m[i]];

		s->load += d_load;
		s->util += d_util;
		s->runnable += d_runnable;
		s->nr_running += d_nr;
		s->h_nr_runnable += d_h_nr;
		s->idle_cpus += d_idle;
	}
	*old = now;
	c->h_nr[cpu] = now.h_nr_runnable;
	sched->rqs[cpu].lb_dirty = false;
}

void eevdf__lb_stats_flush(struct scheduler *sched)
{
	struct lb_cache *c = &sched->lbc;

	if (c->all_dirty) {
		for (int cpu = 0; cpu < sched->nr_cpus; cpu++)
			fold_cpu(sched, cpu);
		c->all_dirty = false;
	} else {
		for (size_t i = 0; i < c->nr_dirty; i++)
			fold_cpu(sched, c->dirty[i]);
	}
	c->nr_dirty = 0;
}

/*
 * The overloaded counts add_nr_running() and sub_nr_running() keep, the
 * machine's and each lowest domain's of single-CPU groups, against a
 * count of the CPUs with two or more tasks.
 */
static const char *overloaded_check(const struct scheduler *sched)
{
	const struct topology *t = &sched->topo;
	unsigned int all = 0;

	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		const struct sched_domain *sd = t->cpu[cpu].sd;
		unsigned int here = 0;

		all += sched->rqs[cpu].nr_running >= 2;
		if (!sd || !sd->span->cpu_groups || sd->span->first_cpu != cpu)
			continue;
		for (u32 i = 0; i < sd->span->weight; i++)
			here += sched->rqs[sd->span->cpus[i]].nr_running >= 2;
		if (here != sched->span_overloaded[sd->span->index])
			return "a lowest domain's count of overloaded CPUs is "
			       "not its CPUs' count";
	}
	if (all != sched->nr_overloaded)
		return "the machine's count of overloaded CPUs is not its "
		       "CPUs' count";
	return NULL;
}

/*
 * After a fold, every CPU's remembered share must be what it adds now: a
 * run-queue change without lb_stats_dirty() shows as a difference.  The
 * sums themselves are the shares' sums by construction (fold_cpu() adds
 * each difference to every span of the CPU), so one read a CPU an event
 * checks them without a walk over every span.
 */
const char *eevdf__lb_stats_check(struct scheduler *sched)
{
	const char *err = overloaded_check(sched);

	if (err || !lb_stats_on(sched))
		return err;
	eevdf__lb_stats_flush(sched);
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct lb_contrib now = contrib_of(sched, cpu);
		const struct lb_contrib *had = &sched->lbc.snap[cpu];

		if (now.load != had->load || now.util != had->util ||
		    now.runnable != had->runnable ||
		    now.nr_running != had->nr_running ||
		    now.h_nr_runnable != had->h_nr_runnable ||
		    now.h_nr_runnable != sched->lbc.h_nr[cpu] ||
		    now.idle != had->idle)
			return "the balancer's running group sums missed a "
			       "run-queue change (a write without "
			       "lb_stats_dirty())";
	}
	return NULL;
}
