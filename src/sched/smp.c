/* SPDX-License-Identifier: MIT */
/*
 * Where a task runs: select_task_rq_fair() for wakeups and forks, with
 * wake_wide(), wake_affine() and select_idle_sibling() on the fast path and
 * the find-idlest descent on the fork path (kernel-model.md sections 10.2
 * and 10.3, kernel/sched/fair.c as of v6.17).
 *
 * Simplified: there are no per-CPU kthreads, no SCHED_IDLE-only CPUs
 * count as idle (sched_idle_cpu), no asymmetric capacity or energy model,
 * and no NUMA preferred node (NUMA balancing is off).
 */
#include <limits.h>
#include <stdlib.h>

#include "cfs.h"
#include "fair.h"
#include "group.h"
#include "lb_stats.h"
#include "sched_state.h"
#include "smp.h"

bool task_allowed(const struct task *p, int cpu)
{
	size_t lo = 0, hi = p->nr_cpus_allowed;

	if (!hi)
		return true;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->cpus_allowed[mid] == cpu)
			return true;
		if (p->cpus_allowed[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int task_nr_allowed(const struct scheduler *sched, const struct task *p)
{
	return p->nr_cpus_allowed ? (int)p->nr_cpus_allowed : sched->nr_cpus;
}

static u64 jiffies(const struct scheduler *sched)
{
	return (u64)sched->now / sched->sp.tick_nsec;
}

/* Does cpu's domain at sd's level also span other? */
static bool sd_spans(const struct scheduler *sched,
		     const struct sched_domain *sd, int cpu, int other)
{
	const struct cpu_topo *a = &sched->topo.cpu[cpu],
			      *b = &sched->topo.cpu[other];

	switch (sd->level) {
	case SD_LVL_SMT:
		return a->core == b->core;
	case SD_LVL_MC:
		return a->llc == b->llc;
	case SD_LVL_PKG:
		return a->package == b->package;
	default:
		return true;
	}
}

/* wake_wide() and record_wakee() ---------------------------------------- */

static void record_wakee(struct scheduler *sched, struct task *waker,
			 struct task *p)
{
	u64 j = jiffies(sched);

	/* the flips decay by half once a second */
	if (j > waker->wakee_flip_decay_ts + (u64)sched->hz) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay_ts = j;
	}
	if (waker->last_wakee != p->pid) {
		waker->last_wakee = p->pid;
		waker->wakee_flips++;
	}
}

/*
 * A waker that keeps waking many different tasks (and wakees that are
 * woken by many) is a 1:N pattern: spread them instead of pulling every
 * wakee next to the waker.
 */
bool wake_wide(const struct scheduler *sched, const struct task *waker,
	       const struct task *p, int this_cpu)
{
	u32 master = waker->wakee_flips, slave = p->wakee_flips;
	u32 factor = sched->topo.cpu[this_cpu].sd_llc_size;

	if (master < slave) {
		u32 t = master;

		master = slave;
		slave = t;
	}
	return !(slave < factor || master < (u64)slave * factor);
}

/* wake_affine() --------------------------------------------------------- */

#define NO_CPU (-1)

static int wake_affine_idle(const struct scheduler *sched, int this_cpu,
			    int prev_cpu, bool sync)
{
	const struct rq *this_rq = &sched->rqs[this_cpu];

	/* a cache-sharing idle waker CPU: prefer prev if it is idle too */
	if (available_idle_cpu(sched, this_cpu) &&
	    cpus_share_cache(&sched->topo, this_cpu, prev_cpu))
		return available_idle_cpu(sched, prev_cpu) ? prev_cpu :
							     this_cpu;
	/* a sync waker about to sleep leaves its CPU to the wakee (6.12+:
	 * delayed tasks do not count) */
	if (sync && this_rq->nr_running - (this_rq->cfs.h_nr_queued -
					   this_rq->cfs.h_nr_runnable) ==
			    1)
		return this_cpu;
	if (available_idle_cpu(sched, prev_cpu))
		return prev_cpu;
	return NO_CPU;
}

static int wake_affine_weight(const struct scheduler *sched,
			      const struct sched_domain *sd, struct task *p,
			      struct task *waker, int this_cpu, int prev_cpu,
			      bool sync)
{
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	this_eff_load = (s64)cpu_load(&sched->rqs[this_cpu]);
	if (sync && waker) {
		unsigned long current_load = task_h_load(waker);

		if ((s64)current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= (s64)current_load;
	}
	task_load = task_h_load(p);
	this_eff_load += (s64)task_load;
	if (sched_feat(sched->sp.features, WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= (s64)capacity_of(sched, prev_cpu);

	prev_eff_load = (s64)cpu_load(&sched->rqs[prev_cpu]);
	prev_eff_load -= (s64)task_load;
	if (sched_feat(sched->sp.features, WA_BIAS))
		prev_eff_load *= 100 + (s64)(sd->imbalance_pct - 100) / 2;
	prev_eff_load *= (s64)capacity_of(sched, this_cpu);
	/* a sync wakeup breaks the tie towards this CPU */
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : NO_CPU;
}

static int wake_affine(struct scheduler *sched, const struct sched_domain *sd,
		       struct task *p, struct task *waker, int this_cpu,
		       int prev_cpu, bool sync)
{
	int target = NO_CPU;

	if (sched_feat(sched->sp.features, WA_IDLE))
		target = wake_affine_idle(sched, this_cpu, prev_cpu, sync);
	if (sched_feat(sched->sp.features, WA_WEIGHT) && target == NO_CPU)
		target = wake_affine_weight(sched, sd, p, waker, this_cpu,
					    prev_cpu, sync);
	if (target != this_cpu)
		return prev_cpu;
	sched->smp.wakeups_affine++;
	return target;
}

/* select_idle_sibling() ------------------------------------------------- */

/*
 * Each CPU the wakeup's search looks at is a read of that CPU's rq (curr,
 * nr_running, ttwu_pending), a line another core writes: counted for the
 * cost model's sis_probe, which the waker pays.
 */
static bool probe(struct scheduler *sched, int cpu)
{
	sched->sis_probes++;
	return available_idle_cpu(sched, cpu);
}

static bool core_is_idle(const struct scheduler *sched, int cpu)
{
	const struct sd_span *smt = sched->topo.cpu[cpu].smt;

	for (u32 i = 0; i < smt->weight; i++)
		if (!available_idle_cpu(sched, smt->cpus[i]))
			return false;
	return true;
}

void update_idle_core(struct scheduler *sched, int cpu)
{
	if (sched->topo.smt_active && core_is_idle(sched, cpu))
		sched->topo.llc[sched->topo.cpu[cpu].llc].has_idle_cores = true;
}

/* An idle sibling of target's core inside sd, for a task p. */
static int select_idle_smt(struct scheduler *sched, const struct task *p,
			   int target)
{
	const struct sd_span *smt = sched->topo.cpu[target].smt;

	for (u32 i = 0; i < smt->weight; i++) {
		int cpu = smt->cpus[i];

		if (cpu != target && task_allowed(p, cpu) && probe(sched, cpu))
			return cpu;
	}
	return NO_CPU;
}

/* A fully idle core is returned by its scanned CPU; the first idle
 * sibling seen is remembered as the fallback. */
static int select_idle_core(struct scheduler *sched, const struct task *p,
			    int core_cpu, int *idle_cpu)
{
	const struct sd_span *smt = sched->topo.cpu[core_cpu].smt;
	bool idle = true;

	for (u32 i = 0; i < smt->weight; i++) {
		int cpu = smt->cpus[i];

		if (!probe(sched, cpu)) {
			idle = false;
			if (*idle_cpu == NO_CPU)
				continue;
			break;
		}
		if (*idle_cpu == NO_CPU && task_allowed(p, cpu))
			*idle_cpu = cpu;
	}
	return idle ? core_cpu : NO_CPU;
}

/* Word i of bitmap w without the bits below from (from <= 0: all). */
static u64 word_from(const u64 *w, u32 i, int from)
{
	return from <= 0 ? w[i] : from >= 64 ? 0 : w[i] & (~(u64)0 << from);
}

int eevdf__first_idle_after(const u64 *idle, const u64 *llc, u32 nw, int target,
			    u32 *before)
{
	u32 n = 0;

	/* pass 0: target + 1 .. the last CPU; pass 1: 0 .. target */
	for (int pass = 0; pass < 2; pass++) {
		for (u32 i = 0; i < nw; i++) {
			int lo = pass ? 0 : target + 1 - (int)(i * 64);
			int hi = pass ? target + 1 - (int)(i * 64) : 64;
			u64 span, hit;

			if (lo >= 64 || hi <= 0)
				continue;
			span = word_from(llc, i, lo);
			if (hi < 64)
				span &= ((u64)1 << hi) - 1;
			hit = span & idle[i];
			if (hit) {
				u64 below = span & ((hit & -hit) - 1);

				*before = n + (u32)popcount_u64(below);
				return (int)(i * 64) + __builtin_ctzll(hit);
			}
			n += (u32)popcount_u64(span);
		}
	}
	*before = n;
	return -1;
}

/*
 * select_idle_cpu()'s scan for a task that may run anywhere and no idle
 * core to look for, on the bitmaps: the CPU the walk below would return
 * and the probes it would count.  The walk probes CPUs in order until one
 * is idle, but stops (returning none) when nr runs out first: it probes
 * at most nr - 1.
 */
static int scan_idle_bits(struct scheduler *sched, const u64 *llc, int target,
			  u32 weight, int nr)
{
	u32 before;
	int cpu = eevdf__first_idle_after(
		sched->idle_bits, llc, sched->topo.nr_words, target, &before);
	u64 budget = (u64)nr - 1;

	if (cpu >= 0 && (u64)before + 1 <= budget) {
		sched->sis_probes += before + 1;
		return cpu;
	}
	sched->sis_probes += (u64)weight < budget ? weight : budget;
	return NO_CPU;
}

/*
 * Scan the LLC from target + 1, wrapping: for an idle core when the LLC
 * says it has one, else for an idle CPU within the SIS_UTIL budget.
 */
static int select_idle_cpu(struct scheduler *sched, const struct task *p,
			   const struct sched_domain *sd, bool has_idle_core,
			   int target)
{
	const struct sd_span *span = sd->span;
	struct llc_shared *shared =
		&sched->topo.llc[sched->topo.cpu[target].llc];
	int idle_cpu = NO_CPU, nr = INT32_MAX;
	u32 start = 0;

	if (sched_feat(sched->sp.features, SIS_UTIL)) {
		nr = shared->nr_idle_scan + 1;
		if (nr == 1)
			return NO_CPU;
	}
	if (!has_idle_core && !p->nr_cpus_allowed && shared->cpus &&
	    sched->idle_bits)
		return scan_idle_bits(sched, shared->cpus, target, span->weight,
				      nr);
	while (start < span->weight && span->cpus[start] <= target)
		start++;
	if (has_idle_core && ++sched->mark_gen == 0) {
		for (int c = 0; c < sched->topo.nr_cores; c++)
			sched->core_mark[c] = 0;
		sched->mark_gen = 1;
	}
	for (u32 k = 0; k < span->weight; k++) {
		u32 j = start + k;
		int cpu = span->cpus[j >= span->weight ? j - span->weight : j];

		if (!task_allowed(p, cpu))
			continue;
		if (has_idle_core) {
			int core = sched->topo.cpu[cpu].core, i;

			if (sched->core_mark[core] == sched->mark_gen)
				continue;
			sched->core_mark[core] = sched->mark_gen;
			i = select_idle_core(sched, p, cpu, &idle_cpu);
			if (i != NO_CPU)
				return i;
		} else {
			if (!--nr)
				return NO_CPU;
			if (probe(sched, cpu))
				return cpu;
		}
	}
	if (has_idle_core)
		shared->has_idle_cores = false;
	return idle_cpu;
}

int select_idle_sibling(struct scheduler *sched, struct task *p, int prev,
			int target)
{
	const struct topology *t = &sched->topo;
	const struct sched_domain *sd;
	bool has_idle_core = false;
	int recent, i;

	if (probe(sched, target))
		return target;
	if (prev != target && cpus_share_cache(t, prev, target) &&
	    probe(sched, prev))
		return prev;
	recent = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target &&
	    cpus_share_cache(t, recent, target) && probe(sched, recent) &&
	    task_allowed(p, recent))
		return recent;
	sd = t->cpu[target].sd_llc;
	if (!sd)
		return target;
	if (t->smt_active) {
		has_idle_core = t->llc[t->cpu[target].llc].has_idle_cores;
		if (!has_idle_core && cpus_share_cache(t, prev, target)) {
			i = select_idle_smt(sched, p, prev);
			if (i != NO_CPU)
				return i;
		}
	}
	i = select_idle_cpu(sched, p, sd, has_idle_core, target);
	return i != NO_CPU ? i : target;
}

/* The fork path: sched_balance_find_dst_cpu() --------------------------- */

enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_overloaded,
};

struct sg_wakeup_stats {
	unsigned long load, util, capacity, avg_load;
	unsigned int nr_running, idle_cpus, weight;
	enum group_type type;
};

/* group_is_overloaded() / group_has_capacity() on util and task count. */
static enum group_type group_classify(u32 pct, const struct sg_wakeup_stats *s)
{
	if (s->nr_running > s->weight && s->capacity * 100 < s->util * pct)
		return group_overloaded;
	if (s->nr_running < s->weight || s->capacity * 100 > s->util * pct)
		return group_has_spare;
	return group_fully_busy;
}

/* What cpu adds to a group's wakeup statistics, without p's share. */
static void cpu_wakeup_stats(const struct scheduler *sched, int cpu,
			     const struct task *p, bool without_p,
			     struct sg_wakeup_stats *s)
{
	const struct rq *rq = &sched->rqs[cpu];
	unsigned long load = cpu_load(rq), util = cpu_util(rq);
	unsigned int nr = rq->nr_running;

	if (without_p) {
		load -= load < p->se.avg.load_avg ? load : p->se.avg.load_avg;
		util -= util < p->se.avg.util_avg ? util : p->se.avg.util_avg;
		if (p->on_rq && nr)
			nr--;
	}
	s->load = load;
	s->util = util;
	s->nr_running = nr;
	s->idle_cpus = !nr && available_idle_cpu(sched, cpu);
}

/*
 * update_sg_wakeup_stats(): p's own contribution does not count.  With
 * the balancer's running sums (lb_stats.h, folded in by
 * find_idlest_group()) a group costs O(1): the sums are the walk's
 * figures, and in p's own group its CPU's share is swapped for the share
 * without p (unsigned, so the swap is exact).
 */
static void sg_wakeup_stats(const struct scheduler *sched,
			    const struct sched_domain *sd,
			    const struct sd_span *g, const struct task *p,
			    struct sg_wakeup_stats *s)
{
	bool adjust = p->state != TASK_NEW;

	*s = (struct sg_wakeup_stats){ 0 };
	s->weight = g->weight;
	if (lb_stats_on(sched)) {
		const struct lb_sums *c = lb_stats_of(sched, g);

		s->load = c->load;
		s->util = c->util;
		s->nr_running = c->nr_running;
		s->capacity = c->capacity;
		s->idle_cpus = c->idle_cpus;
		if (adjust && p->cpu >= 0 && p->cpu < sched->nr_cpus &&
		    lb_stats_cpu_in(sched, p->cpu, g)) {
			struct sg_wakeup_stats all, mine;

			cpu_wakeup_stats(sched, p->cpu, p, false, &all);
			cpu_wakeup_stats(sched, p->cpu, p, true, &mine);
			s->load += mine.load - all.load;
			s->util += mine.util - all.util;
			s->nr_running += mine.nr_running - all.nr_running;
			s->idle_cpus += mine.idle_cpus - all.idle_cpus;
		}
	} else {
		for (u32 i = 0; i < g->weight; i++) {
			int cpu = g->cpus[i];
			struct sg_wakeup_stats c;

			cpu_wakeup_stats(sched, cpu, p, adjust && p->cpu == cpu,
					 &c);
			s->load += c.load;
			s->util += c.util;
			s->nr_running += c.nr_running;
			s->capacity += capacity_of(sched, cpu);
			s->idle_cpus += c.idle_cpus;
		}
	}
	s->type = group_classify(sd->imbalance_pct, s);
	if (s->type != group_has_spare) {
		EEVDF_ASSERT(s->capacity); /* a group has at least one CPU */
		s->avg_load = s->load * 1024 / s->capacity;
	}
}

static bool group_allowed(const struct sd_span *g, const struct task *p)
{
	if (!p->nr_cpus_allowed) /* every CPU: most tasks, and every fork */
		return true;
	for (u32 i = 0; i < g->weight; i++)
		if (task_allowed(p, g->cpus[i]))
			return true;
	return false;
}

static bool update_pick_idlest(const struct sg_wakeup_stats *idlest,
			       const struct sg_wakeup_stats *s)
{
	if (s->type < idlest->type)
		return true;
	if (s->type > idlest->type)
		return false;
	if (s->type != group_has_spare)
		return s->avg_load < idlest->avg_load;
	if (idlest->idle_cpus > s->idle_cpus)
		return false;
	if (idlest->idle_cpus == s->idle_cpus && idlest->util <= s->util)
		return false;
	return true;
}

static const struct sd_span *find_idlest_group(struct scheduler *sched,
					       const struct sched_domain *sd,
					       const struct task *p,
					       int this_cpu)
{
	const struct sd_span *idlest = NULL, *local = NULL;
	struct sg_wakeup_stats ls = { 0 }, is = { 0 }, s;
	const struct sd_span *span = sd->span;

	/*
	 * sd is this_cpu's own domain (find_idlest_cpu() only ever walks
	 * the domains of the CPU it passes), so the group holding this_cpu
	 * is the one sd names: no search of each group's CPUs.  Placing
	 * 200 000 new tasks on 1 024 CPUs, that search was 12 % of the
	 * instructions.
	 */
	EEVDF_ASSERT(sd_span_has(span->groups[sd->local_group], this_cpu));
	if (lb_stats_on(sched))
		eevdf__lb_stats_flush(sched);
	for (u32 k = 0; k < span->nr_groups; k++) {
		const struct sd_span *g = span->groups[k];

		if (!group_allowed(g, p))
			continue;
		sg_wakeup_stats(sched, sd, g, p, &s);
		if (k == sd->local_group) {
			local = g;
			ls = s;
			continue;
		}
		if (!idlest || update_pick_idlest(&is, &s)) {
			idlest = g;
			is = s;
		}
	}
	if (!idlest)
		return NULL;
	if (!local || ls.type > is.type)
		return idlest;
	if (ls.type < is.type)
		return NULL;
	if (is.type != group_has_spare) {
		/* the idlest must be lighter by more than imbalance_pct */
		unsigned long imb = 1024 * (sd->imbalance_pct - 100) / 100;

		if (is.avg_load >= ls.avg_load + imb)
			return NULL;
		if (100 * ls.avg_load <= sd->imbalance_pct * is.avg_load)
			return NULL;
		return idlest;
	}
	if (sd->flags & SD_NUMA) {
		/* adjust_numa_imbalance(): stay on the local node while it
		 * runs few tasks and the difference is small */
		unsigned int imb = is.idle_cpus > ls.idle_cpus ?
					   is.idle_cpus - ls.idle_cpus :
					   ls.idle_cpus - is.idle_cpus;
		unsigned int nr_allowed = (unsigned)task_nr_allowed(sched, p);
		unsigned int imb_numa_nr = sd->imb_numa_nr < nr_allowed ?
						   sd->imb_numa_nr :
						   nr_allowed;

		if (ls.nr_running + 1 <= imb_numa_nr && imb <= 2)
			return NULL;
	}
	if (ls.idle_cpus >= is.idle_cpus)
		return NULL;
	return idlest;
}

/* The idlest CPU of a group: an idle one that went idle last (warmest
 * cache), else the least loaded. */
static int find_idlest_group_cpu(const struct scheduler *sched,
				 const struct sd_span *g, const struct task *p,
				 int this_cpu)
{
	unsigned long min_load = ULONG_MAX;
	eevdf_time latest = -1;
	int idle = NO_CPU, least = this_cpu;

	if (g->weight == 1)
		return g->cpus[0];
	for (u32 i = 0; i < g->weight; i++) {
		int cpu = g->cpus[i];
		const struct rq *rq = &sched->rqs[cpu];

		if (!task_allowed(p, cpu))
			continue;
		if (available_idle_cpu(sched, cpu)) {
			if (rq->idle_stamp > latest) {
				latest = rq->idle_stamp;
				idle = cpu;
			}
		} else if (idle == NO_CPU && cpu_load(rq) < min_load) {
			min_load = cpu_load(rq);
			least = cpu;
		}
	}
	return idle != NO_CPU ? idle : least;
}

static int find_idlest_cpu(struct scheduler *sched,
			   const struct sched_domain *sd, const struct task *p,
			   int cpu, int prev_cpu, u32 sd_flag)
{
	int new_cpu = cpu;

	if (!group_allowed(sd->span, p))
		return prev_cpu;
	while (sd) {
		const struct sd_span *g;
		const struct sched_domain *tmp;
		u32 weight;

		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		g = find_idlest_group(sched, sd, p, cpu);
		if (!g) {
			sd = sd->child;
			continue;
		}
		new_cpu = find_idlest_group_cpu(sched, g, p, cpu);
		if (new_cpu == cpu) {
			sd = sd->child;
			continue;
		}
		/* descend into the chosen CPU's domains below this level */
		cpu = new_cpu;
		weight = sd->span_weight;
		sd = NULL;
		for_each_domain(&sched->topo, cpu, tmp)
		{
			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & sd_flag)
				sd = tmp;
		}
	}
	return new_cpu;
}

/* select_task_rq_fair() ------------------------------------------------- */

int select_task_rq_fair(struct scheduler *sched, struct task *p, int prev_cpu,
			int this_cpu, struct task *waker,
			unsigned int wake_flags)
{
	bool sync = (wake_flags & WF_SYNC) && waker && !waker->exiting;
	u32 sd_flag = (wake_flags & WF_FORK) ? SD_BALANCE_FORK :
					       SD_BALANCE_WAKE;
	const struct sched_domain *tmp, *sd = NULL;
	int cpu = this_cpu, new_cpu = prev_cpu;
	bool want_affine = false;

	if ((wake_flags & WF_TTWU) && waker) {
		record_wakee(sched, waker, p);
		want_affine = !wake_wide(sched, waker, p, this_cpu) &&
			      task_allowed(p, cpu);
	}
	for_each_domain(&sched->topo, cpu, tmp)
	{
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) &&
		    sd_spans(sched, tmp, cpu, prev_cpu)) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine(sched, tmp, p, waker, cpu,
						      prev_cpu, sync);
			sd = NULL;
			break;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}
	if (sd)
		return find_idlest_cpu(sched, sd, p, cpu, prev_cpu, sd_flag);
	if (wake_flags & WF_TTWU)
		return select_idle_sibling(sched, p, prev_cpu, new_cpu);
	return new_cpu;
}

/* set_task_cpu() -------------------------------------------------------- */

/*
 * The cache a moved task finds cold costs it extra work when it next runs
 * (the cost model's refill penalty): nothing between SMT siblings, which
 * share L1 and L2, more across LLCs and most across packages.
 */
static u64 refill_cost(const struct scheduler *sched, int from, int to)
{
	switch (cpu_distance(&sched->topo, from, to)) {
	case CPU_SAME_CORE:
		return 0;
	case CPU_SAME_LLC:
		return sched->costs.migrate_llc;
	case CPU_SAME_PKG:
		return sched->costs.migrate_cross_llc;
	case CPU_OTHER_PKG:
		break;
	}
	return sched->costs.migrate_cross_pkg;
}

void set_task_cpu(struct scheduler *sched, struct task *p, int new_cpu)
{
	struct rq *src = &sched->rqs[p->cpu], *dst = &sched->rqs[new_cpu];

	if (p->cpu == new_cpu)
		return;
	EEVDF_ASSERT(!p->se.on_rq);
	src->clock = dst->clock = (u64)sched->now;
	/* migrate_task_rq_fair(): the averages leave with the task */
	detach_entity_cfs_rq(&p->se);
	/* CFS: a waking task's vruntime leaves relative to its queue */
	if (sched->sp.profile->policy == POLICY_CFS)
		cfs_migrate_task(src, p);
	/* set_task_rq(): its group's queue and entity on the new CPU */
	eevdf__set_task_rq(p, new_cpu);
	attach_entity_cfs_rq(&p->se);
	/* the old exec_start means nothing on another CPU: cache-cold */
	p->se.exec_start = 0;
	p->st.migrations++;
	sched->smp.migrations++;
	p->overhead_left += refill_cost(sched, p->cpu, new_cpu);
	eevdf__trace_migrate(sched, p->pid, p->cpu, new_cpu);
	trace_touch(sched, p->cpu);
	p->cpu = new_cpu;
}
