/* SPDX-License-Identifier: MIT */
/*
 * Load balancing (kernel-model.md sections 10.4-10.6; kernel/sched/fair.c
 * sched_balance_rq() and its helpers as of v6.17).
 *
 * Periodic balancing runs from the tick of a busy CPU when its
 * next_balance is due, walking its domains bottom-up at each domain's
 * interval.  Idle CPUs have no tick (NOHZ): a busy CPU with two or more
 * runnable tasks kicks NOHZ idle balancing, which balances on behalf of
 * every idle CPU whose next_balance is due.  A CPU about to go idle runs
 * newly-idle balancing.
 *
 * Simplified, and why it matters little for the shipped workloads: no
 * misfit, asym-packing or SMT-balance group types (homogeneous CPUs); no
 * active balancing (a running task is never pushed: only queued tasks
 * move); the cost of a balancing pass is the cost model's, not measured;
 * no util_est (util_avg stands in).
 */
#include <limits.h>

#include "bandwidth.h"
#include "fair.h"
#include "group.h"
#include "lb_stats.h"
#include "smp.h"

enum cpu_idle_type {
	CPU_IDLE,
	CPU_NOT_IDLE,
	CPU_NEWLY_IDLE
};
enum migration_type {
	migrate_load,
	migrate_util,
	migrate_task
};
enum lb_group_type {
	lb_has_spare,
	lb_fully_busy,
	lb_overloaded
};

struct sg_lb_stats {
	unsigned long avg_load, load, capacity, util, runnable;
	unsigned int sum_nr_running, sum_h_nr_running, idle_cpus, weight, cores;
	enum lb_group_type type;
};

struct lb_env {
	struct scheduler *sched;
	struct sched_domain *sd;
	struct rq *dst_rq, *src_rq;
	int dst_cpu;
	enum cpu_idle_type idle;
	long imbalance;
	enum migration_type type;
	unsigned int loop, loop_max;
	bool prefer_sibling;
	struct sg_lb_stats local, busiest;
	const struct sd_span *busiest_group;
	unsigned long total_load, total_capacity, sum_util;
};

static u64 jiffies(const struct scheduler *sched)
{
	return (u64)sched->now / sched->sp.tick_nsec;
}

/* msecs_to_jiffies(): rounding up. */
static u64 ms_to_jiffies(const struct scheduler *sched, u64 ms)
{
	return (ms * (u64)sched->hz + 999) / 1000;
}

/* Group statistics ----------------------------------------------------- */

/*
 * group_is_overloaded()'s and group_has_capacity()'s tests of util and
 * runnable against capacity, once more tasks than CPUs (or fewer) have
 * been ruled in or out: lb_classify() and the newly-idle pick share them.
 */
static inline bool lb_util_exceeds(unsigned long capacity, unsigned long util,
				   unsigned long runnable, u32 pct)
{
	return capacity * 100 < util * pct || capacity * pct < runnable * 100;
}

static inline bool lb_util_spare(unsigned long capacity, unsigned long util,
				 unsigned long runnable, u32 pct)
{
	return !(capacity * pct < runnable * 100) &&
	       capacity * 100 > util * pct;
}

/* Load per unit of capacity: a group's sgs->avg_load, the domain's
 * sds->avg_load. */
static inline unsigned long avg_load_of(unsigned long load,
					unsigned long capacity)
{
	return load * 1024 / capacity;
}

/* group_classify() of a group running nr tasks on weight CPUs. */
static inline enum lb_group_type
lb_type(u32 pct, unsigned int nr, unsigned int weight, unsigned long capacity,
	unsigned long util, unsigned long runnable)
{
	if (nr > weight && lb_util_exceeds(capacity, util, runnable, pct))
		return lb_overloaded;
	if (nr < weight || lb_util_spare(capacity, util, runnable, pct))
		return lb_has_spare;
	return lb_fully_busy;
}

static enum lb_group_type lb_classify(u32 pct, const struct sg_lb_stats *s)
{
	return lb_type(pct, s->sum_nr_running, s->weight, s->capacity, s->util,
		       s->runnable);
}

/*
 * The group's statistics.  They are the running sums of lb_stats.h when the
 * scheduler keeps them: a walk over every rq of every group was most of
 * the time of a near-saturated 256-CPU machine.  Otherwise (a test's
 * stub scheduler) the walk: the sums in locals (stores through s could
 * alias the rq fields and force reloads), each CPU's capacity read once
 * for the capacity sum and cpu_util()'s clamp.
 */
static void sg_lb_stats(struct lb_env *env, const struct sd_span *g,
			struct sg_lb_stats *s)
{
	const struct scheduler *sched = env->sched;
	const struct cpu_topo *topo = sched->topo.cpu;
	const struct rq *rqs = sched->rqs;
	unsigned long load = 0, util = 0, runnable = 0, capacity = 0;
	unsigned int nr = 0, h_nr = 0, idle = 0, cores = 0;
	int last_core = -1;

	if (lb_stats_on(sched)) {
		/* the running sums, folded in by update_sd_lb_stats() */
		const struct lb_sums *c = lb_stats_of(sched, g);

		load = c->load;
		util = c->util;
		runnable = c->runnable;
		capacity = c->capacity;
		nr = c->nr_running;
		h_nr = c->h_nr_runnable;
		idle = c->idle_cpus;
		cores = c->cores;
	} else if (g->weight == 1) {
		/*
		 * A group of one CPU (the MC level of a machine without
		 * SMT): its figures are the CPU's own, without the walk's
		 * sums and core count.  The same values as the walk's.
		 */
		int cpu = g->cpus[0];
		const struct rq *rq = &rqs[cpu];
		unsigned long cap = topo[cpu].capacity,
			      u = rq->cfs.avg.util_avg;

		load = cpu_load(rq);
		util = u < cap ? u : cap;
		runnable = rq->cfs.avg.runnable_avg;
		nr = rq->nr_running;
		h_nr = rq->cfs.h_nr_runnable;
		capacity = cap;
		idle = !nr && available_idle_cpu(sched, cpu);
		cores = 1;
	} else {
		for (u32 i = 0; i < g->weight; i++) {
			int cpu = g->cpus[i];
			const struct rq *rq = &rqs[cpu];
			const struct cpu_topo *ct = &topo[cpu];
			unsigned long cap = ct->capacity,
				      u = rq->cfs.avg.util_avg;

			load += cpu_load(rq);
			util += u < cap ? u : cap; /* cpu_util() */
			runnable += rq->cfs.avg.runnable_avg;
			nr += rq->nr_running;
			h_nr += rq->cfs.h_nr_runnable;
			capacity += cap;
			if (!rq->nr_running && available_idle_cpu(sched, cpu))
				idle++;
			if (ct->core != last_core) {
				last_core = ct->core;
				cores++;
			}
		}
	}
	*s = (struct sg_lb_stats){
		.load = load,
		.util = util,
		.runnable = runnable,
		.capacity = capacity,
		.sum_nr_running = nr,
		.sum_h_nr_running = h_nr,
		.idle_cpus = idle,
		.weight = g->weight,
		.cores = cores,
	};
	s->type = lb_classify(env->sd->imbalance_pct, s);
	if (s->type == lb_overloaded) {
		EEVDF_ASSERT(s->capacity); /* a group has at least one CPU */
		s->avg_load = avg_load_of(s->load, s->capacity);
	}
}

/* What update_sd_pick_busiest() compares of two groups with fair tasks. */
struct sg_rank {
	enum lb_group_type type;
	unsigned long avg_load; /* computed for lb_overloaded only */
	unsigned int idle_cpus, sum_nr_running;
};

static inline struct sg_rank sg_rank_of(const struct sg_lb_stats *s)
{
	return (struct sg_rank){ s->type, s->avg_load, s->idle_cpus,
				 s->sum_nr_running };
}

/* Whether s is busier than busiest: the type, then within a type. */
static inline bool sg_busier(const struct sg_rank *busiest,
			     const struct sg_rank *s)
{
	if (s->type != busiest->type)
		return s->type > busiest->type;
	switch (s->type) {
	case lb_overloaded:
		return s->avg_load > busiest->avg_load;
	case lb_fully_busy:
		/* avg_load is not computed for these: the first one stays */
		return false;
	case lb_has_spare:
		if (s->idle_cpus > busiest->idle_cpus)
			return false;
		if (s->idle_cpus == busiest->idle_cpus &&
		    s->sum_nr_running <= busiest->sum_nr_running)
			return false;
		return true;
	}
	return false;
}

static bool update_sd_pick_busiest(const struct sg_lb_stats *busiest,
				   const struct sg_lb_stats *s, bool have)
{
	struct sg_rank b = sg_rank_of(busiest), r = sg_rank_of(s);

	if (!s->sum_h_nr_running)
		return false;
	return !have || sg_busier(&b, &r);
}

/*
 * SIS_UTIL's scan budget from the LLC's utilisation, refreshed by
 * periodic balancing of the LLC domain (update_idle_cpu_scan()).
 */
static void update_idle_cpu_scan(struct lb_env *env)
{
	struct scheduler *sched = env->sched;
	const struct cpu_topo *ct = &sched->topo.cpu[env->dst_cpu];
	u64 llc_weight = ct->sd_llc_size;

	if (!sched_feat(sched->sp.features, SIS_UTIL) ||
	    env->idle == CPU_NEWLY_IDLE || env->sd->span_weight != llc_weight)
		return;
	sched->topo.llc[ct->llc].nr_idle_scan = sis_util_nr_idle_scan(
		env->sum_util, llc_weight, env->sd->imbalance_pct);
}

/*
 * x = the LLC's average util per CPU; the scan shrinks with x squared
 * (times pct squared) and stops near 85 % busy (117 %).
 */
int sis_util_nr_idle_scan(u64 sum_util, u64 llc_weight, u64 pct)
{
	u64 x = sum_util / llc_weight, tmp;

	tmp = x * x * pct * pct / (10000 * 1024);
	if (tmp > 1024)
		tmp = 1024;
	return (int)((1024 - tmp) * llc_weight / 1024);
}

/*
 * Whether this is a newly-idle pass of an idle dst_cpu over its lowest
 * domain, whose groups are single CPUs: the case both quick answers below
 * (lowest_domain_quiet(), newidle_pick_busiest()) are exact for.
 * Lowest, it has no child, so prefer_sibling is false.
 */
static bool newidle_over_cpus(const struct lb_env *env)
{
	return env->idle == CPU_NEWLY_IDLE && !env->sd->child &&
	       env->sd->span->cpu_groups && !env->dst_rq->nr_running;
}

/*
 * One CPU's figures, as sg_lb_stats() reads them for a group of that one
 * CPU: with running sums, the CPU's share as of the flush (the dense
 * per-CPU copy of what its single-CPU spans' sums hold), else its run
 * queue's; cpu_util() clamps util to the capacity in both.
 */
struct cpu_lb {
	unsigned long load, util, runnable, capacity;
	unsigned int nr_running, h_nr_running;
};

/* False, having read only the count, when the CPU runs fewer than min_nr
 * tasks; else true and its figures in *f. */
static inline bool cpu_lb_of(const struct lb_env *env, u32 k,
			     unsigned int min_nr, struct cpu_lb *f)
{
	const struct scheduler *sched = env->sched;
	/* cpu_groups: group k is the span's k-th CPU */
	int cpu = env->sd->span->cpus[k];
	unsigned long cap;

	if (lb_stats_on(sched)) {
		const struct lb_contrib *c = &sched->lbc.snap[cpu];

		if (c->nr_running < min_nr)
			return false;
		cap = sched->topo.cpu[cpu].capacity;
		*f = (struct cpu_lb){ c->load, c->util,	      c->runnable,
				      cap,     c->nr_running, c->h_nr_runnable };
	} else {
		const struct rq *rq = &sched->rqs[cpu];
		unsigned long u;

		if (rq->nr_running < min_nr)
			return false;
		cap = sched->topo.cpu[cpu].capacity;
		u = rq->cfs.avg.util_avg;
		*f = (struct cpu_lb){ cpu_load(rq),
				      u < cap ? u : cap,
				      rq->cfs.avg.runnable_avg,
				      cap,
				      rq->nr_running,
				      rq->cfs.h_nr_runnable };
	}
	return true;
}

/*
 * newidle_pick_busiest() when no CPU of the domain is lb_overloaded: the
 * walk's busiest is then the first lb_fully_busy CPU, else the
 * lb_has_spare one running the most tasks (the first of them), among the
 * CPUs with a runnable fair task: a CPU with one is never idle, so
 * update_sd_pick_busiest() compares no idle counts.
 */
static const struct sd_span *newidle_busiest_spare(const struct lb_env *env)
{
	const struct sd_span *span = env->sd->span;
	u32 best = span->nr_groups, best_nr = 0;

	for (u32 k = 0; k < span->nr_groups; k++) {
		struct cpu_lb f;

		if (k == env->sd->local_group || !cpu_lb_of(env, k, 1, &f) ||
		    !f.h_nr_running)
			continue;
		/* lb_classify() of one CPU with a task: fewer tasks than
		 * CPUs cannot make it lb_has_spare */
		if (!lb_util_spare(f.capacity, f.util, f.runnable,
				   env->sd->imbalance_pct))
			return span->groups[k];
		if (best == span->nr_groups || f.nr_running > best_nr) {
			best = k;
			best_nr = f.nr_running;
		}
	}
	return best < span->nr_groups ? span->groups[best] : NULL;
}

/*
 * The walk's busiest and local groups for a newly-idle pass over a domain
 * of single-CPU groups, or false (env untouched) for another pass.  The
 * local group is the idle dst_cpu: lb_has_spare, so calculate_imbalance()
 * reads no totals and they stay 0.  First the CPUs running two or more
 * tasks: only they can be lb_overloaded (more tasks than the group's one
 * CPU), the busiest type, so when one of them is, the walk's busiest is
 * the first of them with the most avg_load, which is what this pass
 * picks, in the same order with the same test.  Otherwise
 * newidle_busiest_spare().  Each CPU's few figures are read, not a full
 * sg_lb_stats() and its copy: only the busiest and local groups get
 * those, the walk's figures.  On a 20-CPU LLC under schbench the walk
 * built and compared every CPU's statistics at each idle transition, and
 * the quick pass before 56492e6 still did so for every CPU running two
 * tasks: reading only the few figures took 2.6 % off the instructions of
 * a 30 ms run.
 */
static bool newidle_pick_busiest(struct lb_env *env)
{
	const struct sd_span *span = env->sd->span;
	const struct sd_span *busiest = NULL;
	u32 pct = env->sd->imbalance_pct;
	unsigned long best_avg = 0;

	if (!newidle_over_cpus(env))
		return false;
	for (u32 k = 0; k < span->nr_groups; k++) {
		struct cpu_lb f;
		unsigned long avg;

		if (!cpu_lb_of(env, k, 2, &f))
			continue;
		/* lb_classify()'s lb_overloaded, with more tasks than CPUs */
		if (!f.h_nr_running ||
		    !lb_util_exceeds(f.capacity, f.util, f.runnable, pct))
			continue;
		avg = avg_load_of(f.load, f.capacity);
		if (!busiest || avg > best_avg) {
			busiest = span->groups[k];
			best_avg = avg;
		}
	}
	if (!busiest)
		busiest = newidle_busiest_spare(env);
	if (busiest) {
		sg_lb_stats(env, busiest, &env->busiest);
		env->busiest_group = busiest;
	}
	sg_lb_stats(env, span->groups[env->sd->local_group], &env->local);
	EEVDF_ASSERT(env->local.type == lb_has_spare);
	EEVDF_ASSERT(!busiest || env->busiest.sum_h_nr_running);
	return true;
}

/* The walk over every group of the domain: what the kernel does. */
static void sd_lb_walk(struct lb_env *env)
{
	const struct sd_span *span = env->sd->span;
	struct sg_lb_stats s;
	bool have = false;

	for (u32 k = 0; k < span->nr_groups; k++) {
		const struct sd_span *g = span->groups[k];
		/* the groups are disjoint: one is dst_cpu's */
		bool local = k == env->sd->local_group;

		sg_lb_stats(env, g, &s);
		env->total_load += s.load;
		env->total_capacity += s.capacity;
		env->sum_util += s.util;
		if (local) {
			env->local = s;
			continue;
		}
		if (update_sd_pick_busiest(&env->busiest, &s, have)) {
			env->busiest = s;
			env->busiest_group = g;
			have = true;
		}
	}
}

/*
 * sd_lb_walk() over the running sums: each group's few figures are read
 * where the sums keep them, classified and ranked in place, and only the
 * busiest and local groups get a full sg_lb_stats() and its copy, the
 * walk's figures for them.  The totals are the same sums.  tbench-64 on
 * skl-server walks 19 core groups at each newly-idle pass of its MC
 * level: the struct built and copied per group was most of the walk.
 */
static void sd_lb_walk_sums(struct lb_env *env)
{
	const struct scheduler *sched = env->sched;
	const struct sd_span *span = env->sd->span;
	const struct sd_span *busiest = NULL;
	u32 pct = env->sd->imbalance_pct, local = env->sd->local_group;
	unsigned long load = 0, capacity = 0, util = 0;
	struct sg_rank best = { 0 };

	for (u32 k = 0; k < span->nr_groups; k++) {
		const struct sd_span *g = span->groups[k];
		const struct lb_sums *c = lb_stats_of(sched, g);
		struct sg_rank r;

		load += c->load;
		capacity += c->capacity;
		util += c->util;
		/* update_sd_pick_busiest() passes over a group with no
		 * fair task */
		if (k == local || !c->h_nr_runnable)
			continue;
		r = (struct sg_rank){
			.type = lb_type(pct, c->nr_running, g->weight,
					c->capacity, c->util, c->runnable),
			.idle_cpus = c->idle_cpus,
			.sum_nr_running = c->nr_running,
		};
		if (r.type == lb_overloaded)
			r.avg_load = avg_load_of(c->load, c->capacity);
		if (!busiest || sg_busier(&best, &r)) {
			best = r;
			busiest = g;
		}
	}
	env->total_load += load;
	env->total_capacity += capacity;
	env->sum_util += util;
	sg_lb_stats(env, span->groups[local], &env->local);
	if (busiest) {
		sg_lb_stats(env, busiest, &env->busiest);
		env->busiest_group = busiest;
	}
}

static bool same_sg_lb_stats(const struct sg_lb_stats *a,
			     const struct sg_lb_stats *b)
{
	return a->avg_load == b->avg_load && a->load == b->load &&
	       a->capacity == b->capacity && a->util == b->util &&
	       a->runnable == b->runnable &&
	       a->sum_nr_running == b->sum_nr_running &&
	       a->sum_h_nr_running == b->sum_h_nr_running &&
	       a->idle_cpus == b->idle_cpus && a->weight == b->weight &&
	       a->cores == b->cores && a->type == b->type;
}

/*
 * The test builds' proof that a quick pick (newidle_pick_busiest(),
 * sd_lb_walk_sums()) answered as the walk would: the walk again on a
 * copy of env as it was before the pick (before), compared field by
 * field; with_totals when the pick also sums the totals.
 */
static __attribute__((unused)) bool
pick_is_the_walks(const struct lb_env *env, const struct lb_env *before,
		  bool with_totals)
{
	struct lb_env w = *before;

	sd_lb_walk(&w);
	return w.busiest_group == env->busiest_group &&
	       same_sg_lb_stats(&w.busiest, &env->busiest) &&
	       same_sg_lb_stats(&w.local, &env->local) &&
	       (!with_totals || (w.total_load == env->total_load &&
				 w.total_capacity == env->total_capacity &&
				 w.sum_util == env->sum_util));
}

static void update_sd_lb_stats(struct lb_env *env)
{
	/* read by the test builds' checks only: dead code elsewhere */
	const struct lb_env before = *env;

	if (lb_stats_on(env->sched))
		eevdf__lb_stats_flush(env->sched);
	/* a lowest domain has no child: prefer_sibling stays false */
	if (newidle_pick_busiest(env)) {
		/* the walk it runs writes only its own copy of env */
		/* cppcheck-suppress assertWithSideEffect */
		EEVDF_ASSERT(pick_is_the_walks(env, &before, false));
		return;
	}
	if (lb_stats_on(env->sched)) {
		sd_lb_walk_sums(env);
		/* cppcheck-suppress assertWithSideEffect */
		EEVDF_ASSERT(pick_is_the_walks(env, &before, true));
	} else {
		sd_lb_walk(env);
	}
	env->prefer_sibling = env->sd->child &&
			      (env->sd->child->flags & SD_PREFER_SIBLING);
	update_idle_cpu_scan(env);
}

/* How many tasks to move so both groups run as many per core. */
static long sibling_imbalance(const struct lb_env *env)
{
	const struct sg_lb_stats *b = &env->busiest, *l = &env->local;
	long nb = b->cores, nl = l->cores, imb;

	if (env->idle == CPU_NOT_IDLE || !b->sum_nr_running)
		return 0;
	if (nb == nl) {
		imb = (long)b->sum_nr_running - (long)l->sum_nr_running;
		return imb > 0 ? imb : 0;
	}
	imb = nl * (long)b->sum_nr_running - nb * (long)l->sum_nr_running;
	if (imb < 0)
		imb = 0;
	imb = (2 * imb + nl + nb) / (nl + nb);
	if (imb <= 1 && !l->sum_nr_running && b->sum_nr_running > 1)
		imb = 2;
	return imb;
}

static void calculate_imbalance(struct lb_env *env)
{
	struct sg_lb_stats *l = &env->local, *b = &env->busiest;
	unsigned long sds_avg;

	if (l->type == lb_has_spare) {
		if (b->type > lb_fully_busy &&
		    !(env->sd->flags & SD_SHARE_LLC)) {
			/* fill the local group's spare capacity */
			unsigned long cap = l->capacity > l->util ?
						    l->capacity :
						    l->util;

			env->type = migrate_util;
			env->imbalance = (long)(cap - l->util);
			if (env->idle != CPU_NOT_IDLE && !env->imbalance) {
				env->type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		env->type = migrate_task;
		if (b->weight == 1 || env->prefer_sibling)
			env->imbalance = sibling_imbalance(env);
		else
			env->imbalance = l->idle_cpus > b->idle_cpus ?
						 (long)(l->idle_cpus -
							b->idle_cpus) :
						 0;
		if ((env->sd->flags & SD_NUMA) &&
		    l->sum_nr_running + 1 <= env->sd->imb_numa_nr &&
		    env->imbalance <= 2)
			env->imbalance = 0;
		env->imbalance >>= 1;
		return;
	}
	/* the domain's average: total_capacity holds l's, so it is not 0 */
	sds_avg = avg_load_of(env->total_load, env->total_capacity);
	if (l->type < lb_overloaded) {
		/* the local group would become overloaded */
		l->avg_load = avg_load_of(l->load, l->capacity);
		if (l->avg_load >= b->avg_load || l->avg_load >= sds_avg) {
			env->imbalance = 0;
			return;
		}
	}
	env->type = migrate_load;
	{
		unsigned long a = (b->avg_load - sds_avg) * b->capacity,
			      c = (sds_avg - l->avg_load) * l->capacity;

		env->imbalance = (long)((a < c ? a : c) / 1024);
	}
}

/* sched_balance_find_src_group(): false when the domain is balanced. */
static bool find_src_group(struct lb_env *env)
{
	struct sg_lb_stats *l = &env->local, *b = &env->busiest;

	update_sd_lb_stats(env);
	if (!env->busiest_group || !b->sum_h_nr_running)
		return false;
	if (l->type > b->type)
		return false;
	if (l->type == lb_overloaded) {
		unsigned long sds_avg = avg_load_of(env->total_load,
						    env->total_capacity);

		if (l->avg_load >= b->avg_load || l->avg_load >= sds_avg ||
		    100 * b->avg_load <= env->sd->imbalance_pct * l->avg_load)
			return false;
	}
	if (!(env->prefer_sibling && l->type == lb_has_spare &&
	      sibling_imbalance(env) > 1) &&
	    b->type != lb_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			return false;
		if (b->weight > 1 && l->idle_cpus <= b->idle_cpus + 1)
			return false;
		if (b->sum_h_nr_running == 1)
			return false;
	}
	calculate_imbalance(env);
	return env->imbalance > 0;
}

/*
 * migrate_task's busiest CPU: the first with the most runnable tasks, as
 * the loop below finds it, in two passes over the running sums' dense
 * per-CPU counts.  Near saturation almost every pass of a 256-CPU machine
 * moves tasks by count, over groups of 16 and 64 CPUs; the loop read a
 * 40-byte share and a capacity per CPU, and branched on each.
 */
static struct rq *find_src_rq_by_nr(struct lb_env *env)
{
	const struct sd_span *g = env->busiest_group;
	const unsigned int *h_nr = env->sched->lbc.h_nr;
	unsigned int most = 0;

	for (u32 i = 0; i < g->weight; i++) {
		unsigned int nr = h_nr[g->cpus[i]];

		most = nr > most ? nr : most;
	}
	if (!most)
		return NULL;
	for (u32 i = 0; i < g->weight; i++)
		if (h_nr[g->cpus[i]] == most)
			return &env->sched->rqs[g->cpus[i]];
	return NULL; /* not reached: some CPU holds the most */
}

/* sched_balance_find_src_rq(): the busiest CPU of the busiest group. */
static struct rq *find_src_rq(struct lb_env *env)
{
	struct scheduler *sched = env->sched;
	const struct sd_span *g = env->busiest_group;
	unsigned long busiest_load = 0, busiest_cap = 1, busiest_util = 0;
	unsigned int busiest_nr = 0;
	struct rq *busiest = NULL;
	/*
	 * With running sums, each CPU's share was just brought up to date
	 * by update_sd_lb_stats()'s flush: the same figures, from a dense
	 * array instead of a run queue (a cache line apart) per CPU.
	 */
	const struct lb_contrib *snap = lb_stats_on(sched) ? sched->lbc.snap :
							     NULL;

	if (snap && env->type == migrate_task)
		return find_src_rq_by_nr(env);

	for (u32 i = 0; i < g->weight; i++) {
		int cpu = g->cpus[i];
		struct rq *rq = &sched->rqs[cpu];
		unsigned int nr = snap ? snap[cpu].h_nr_runnable :
					 rq->cfs.h_nr_runnable;
		unsigned long cap = capacity_of(sched, cpu), v;

		if (!nr)
			continue;
		switch (env->type) {
		case migrate_load:
			v = snap ? snap[cpu].load : cpu_load(rq);
			if (nr == 1 && v > (unsigned long)env->imbalance)
				continue;
			if (v * busiest_cap > busiest_load * cap) {
				busiest_load = v;
				busiest_cap = cap;
				busiest = rq;
			}
			break;
		case migrate_util:
			v = snap ? snap[cpu].util : cpu_util(rq);
			if (nr <= 1)
				continue;
			if (busiest_util < v) {
				busiest_util = v;
				busiest = rq;
			}
			break;
		case migrate_task:
			if (busiest_nr < nr) {
				busiest_nr = nr;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/* Moving tasks --------------------------------------------------------- */

static bool task_hot(const struct lb_env *env, const struct task *p)
{
	const struct scheduler *sched = env->sched;
	s64 delta;

	if (p->policy == EEVDF_POLICY_IDLE)
		return false;
	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return false;
	/* a buddy is about to run here; CFS also has the last buddy (the
	 * task a wakee preempted), EEVDF never sets it */
	if (sched_feat(sched->sp.features, CACHE_HOT_BUDDY) &&
	    env->dst_rq->nr_running &&
	    (env->src_rq->cfs.next == &p->se ||
	     env->src_rq->cfs.last == &p->se))
		return true;
	if (!sched->sp.migration_cost)
		return false;
	delta = (s64)((u64)sched->now - p->se.exec_start);
	return delta < (s64)sched->sp.migration_cost;
}

static bool can_migrate_task(const struct lb_env *env, struct task *p)
{
	/* throttled_lb_pair(): a throttled group on either side */
	if (throttled_hierarchy(
		    tg_cfs_rq(p->sched_task_group, env->src_rq->cpu)) ||
	    throttled_hierarchy(tg_cfs_rq(p->sched_task_group, env->dst_cpu)))
		return false;
	/*
	 * The kernel moves a delayed (sleeping, still queued) task only for
	 * migrate_load and keeps it delayed on the new CPU; here it is never
	 * moved: it completes its dequeue or wakes where it is.
	 */
	if (p->se.sched_delayed)
		return false;
	/* 6.17: an ineligible task waits to become eligible where it is,
	 * rather than carrying its negative lag to a busy CPU (CFS has no
	 * lag: PLACE_LAG is absent from its profile) */
	if (sched_feat(env->sched->sp.features, PLACE_LAG) &&
	    env->dst_rq->cfs.nr_queued &&
	    !entity_eligible(cfs_rq_of(&p->se), &p->se) &&
	    !env->sd->nr_balance_failed)
		return false;
	if (!task_allowed(p, env->dst_cpu))
		return false;
	/* a spinlock's holder or spinner runs with migration disabled */
	if (p->on_cpu || p->spin_held || p->spinning)
		return false;
	return !task_hot(env, p) ||
	       env->sd->nr_balance_failed > env->sd->cache_nice_tries;
}

static unsigned long shr_bound(unsigned long v, unsigned int s)
{
	return s >= sizeof(v) * 8 ? 0 : v >> s;
}

/* detach_task() + attach_task(): dequeue, move, enqueue, preempt. */
static void move_task(struct lb_env *env, struct task *p)
{
	struct scheduler *sched = env->sched;

	env->src_rq->clock = (u64)sched->now;
	env->dst_rq->clock = (u64)sched->now;
	dequeue_task_fair(env->src_rq, p, 0);
	set_task_cpu(sched, p, env->dst_cpu);
	enqueue_task_fair(env->dst_rq, p, ENQUEUE_MIGRATED);
	if (env->idle == CPU_NEWLY_IDLE)
		sched->smp.migrations_newidle++;
	else
		sched->smp.migrations_balance++;
	eevdf__wakeup_preempt(env->dst_rq, p, 0);
	eevdf__mark_settle(sched, env->dst_rq);
}

static int detach_tasks(struct lb_env *env)
{
	struct rq *src = env->src_rq;
	int moved = 0;

	env->loop_max = src->nr_running < 32 ? src->nr_running : 32;
	while (src->cfs_tasks_tail && env->imbalance > 0) {
		struct task *p = src->cfs_tasks_tail;
		unsigned long v;

		if (env->idle != CPU_NOT_IDLE && src->nr_running <= 1)
			break;
		if (++env->loop > env->loop_max)
			break;
		if (!can_migrate_task(env, p))
			goto next;
		switch (env->type) {
		case migrate_load:
			v = task_h_load(p);
			if (!v)
				v = 1;
			if (sched_feat(env->sched->sp.features, LB_MIN) &&
			    v < 16 && !env->sd->nr_balance_failed)
				goto next;
			if (shr_bound(v, env->sd->nr_balance_failed) >
			    (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)v;
			break;
		case migrate_util:
			v = p->se.avg.util_avg;
			if (shr_bound(v, env->sd->nr_balance_failed) >
			    (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)v;
			break;
		case migrate_task:
			env->imbalance--;
			break;
		}
		move_task(env, p);
		moved++;
		/* a preemptible kernel stops a newly-idle pull after one */
		if (env->idle == CPU_NEWLY_IDLE)
			break;
		continue;
next:
		cfs_tasks_move_head(src, p);
	}
	return moved;
}

/*
 * Only one CPU of the local group balances a domain: the first idle one
 * (of an idle core when there is one), else the group's first CPU.
 */
static bool should_we_balance(const struct lb_env *env)
{
	const struct scheduler *sched = env->sched;
	const struct sd_span *local =
		env->sd->span->groups[env->sd->local_group];
	int idle_smt = -1;

	if (env->idle == CPU_NEWLY_IDLE)
		return !env->dst_rq->nr_running;
	for (u32 i = 0; i < local->weight; i++) {
		int cpu = local->cpus[i];
		const struct sd_span *smt = sched->topo.cpu[cpu].smt;
		bool core_idle = true;

		if (!available_idle_cpu(sched, cpu))
			continue;
		for (u32 j = 0; j < smt->weight; j++)
			if (!available_idle_cpu(sched, smt->cpus[j]))
				core_idle = false;
		if (!(env->sd->flags & SD_SHARE_CPUCAPACITY) &&
		    sched->topo.smt_active && !core_idle) {
			if (idle_smt < 0)
				idle_smt = cpu;
			continue;
		}
		return cpu == env->dst_cpu;
	}
	if (idle_smt >= 0)
		return idle_smt == env->dst_cpu;
	return local->first_cpu == env->dst_cpu;
}

/*
 * sched_balance_rq() takes the busiest CPU's lock around detach_tasks()
 * and then its own around attach_tasks(), one after the other: each
 * moved task is a dequeue or an enqueue under them (ttwu_local's work).
 * A busy CPU balances in softirq, billed to its current task; an idle
 * one's time is nobody's, but its holds still delay other takers.
 */
static void balance_locks(struct lb_env *env, int moved)
{
	struct scheduler *sched = env->sched;
	struct rq *rq = env->dst_rq;
	u64 per = sched->costs.ttwu_local, n = moved > 0 ? (u64)moved : 1;
	u64 cost = eevdf__rq_lock(sched, env->src_rq, rq->cpu, n * per, NULL);

	if (moved)
		cost += eevdf__rq_lock(sched, rq, rq->cpu, n * per, NULL);
	if (rq->curr)
		sched->ops->interrupt(sched, rq->curr, cost);
}

/*
 * Whether a newly-idle pass over dst's lowest domain is sure to find it
 * balanced without looking: when its groups are single CPUs (and, lowest,
 * it has no child to prefer), find_src_group() takes only a busiest group
 * that is overloaded (two or more tasks on its one CPU) or holds two
 * runnable fair tasks (h_nr_runnable <= nr_running, eevdf__rq_check()):
 * either way a CPU the span's overloaded count counts.  Near saturation on
 * 256 CPUs 57 % of these passes walked the LLC's 16 CPUs to find nothing.
 */
static bool lowest_domain_quiet(const struct lb_env *env)
{
	return newidle_over_cpus(env) && !*env->dst_rq->sd_overloaded;
}

/* sched_balance_rq(): balance one domain; the number of tasks moved. */
static int sched_balance_rq(struct scheduler *sched, struct rq *rq,
			    struct sched_domain *sd, enum cpu_idle_type idle)
{
	struct lb_env env = {
		.sched = sched,
		.sd = sd,
		.dst_rq = rq,
		.dst_cpu = rq->cpu,
		.idle = idle,
	};
	int moved = 0;

	sched->smp.balance_runs++;
	if (!should_we_balance(&env))
		return 0;
	if (lowest_domain_quiet(&env) || !find_src_group(&env) ||
	    !(env.src_rq = find_src_rq(&env)) || env.src_rq == rq) {
		sd->nr_balance_failed = 0;
		goto balanced;
	}
	if (env.src_rq->nr_running > 1) {
		moved = detach_tasks(&env);
		balance_locks(&env, moved);
	}
	if (!moved) {
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
	} else {
		sd->nr_balance_failed = 0;
	}
	/* we were unbalanced: balance again soon */
	sd->balance_interval = sd->min_interval;
	return moved;
balanced:
	if (idle != CPU_NEWLY_IDLE && sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return 0;
}

static u64 balance_interval(const struct scheduler *sched,
			    const struct sched_domain *sd, bool busy)
{
	u64 ms = sd->balance_interval, j, max;

	if (busy)
		ms *= sd->busy_factor;
	j = ms_to_jiffies(sched, ms);
	if (busy && j)
		j--;
	max = (u64)sched->hz * (u64)sched->nr_cpus / 10;
	if (j < 1)
		j = 1;
	if (j > max)
		j = max ? max : 1;
	return j;
}

static void update_newidle_cost(struct scheduler *sched,
				struct sched_domain *sd, u64 cost);

/* sched_balance_domains(): every due domain of one CPU, bottom-up. */
static void balance_domains(struct scheduler *sched, struct rq *rq,
			    enum cpu_idle_type idle)
{
	u64 j = jiffies(sched), next = j + 60 * (u64)sched->hz;
	struct sched_domain *sd;

	for_each_domain(&sched->topo, rq->cpu, sd)
	{
		bool busy = idle == CPU_NOT_IDLE;
		u64 iv = balance_interval(sched, sd, busy);

		if (j >= sd->last_balance + iv) {
			if (sched_balance_rq(sched, rq, sd, idle))
				idle = CPU_NOT_IDLE;
			sd->last_balance = j;
			iv = balance_interval(sched, sd, idle == CPU_NOT_IDLE);
		}
		if (sd->last_balance + iv < next)
			next = sd->last_balance + iv;
		update_newidle_cost(sched, sd, 0);
	}
	rq->next_balance = next;
}

/*
 * NOHZ idle balancing, kicked by a busy CPU with work to spare: balance
 * on behalf of every idle CPU that is due, in CPU order.
 */
static void nohz_idle_balance(struct scheduler *sched)
{
	u64 j = jiffies(sched), next = j + 60 * (u64)sched->hz;

	for (int c = 0; c < sched->nr_cpus; c++) {
		struct rq *rq = &sched->rqs[c];

		if (!available_idle_cpu(sched, c))
			continue;
		if (j >= rq->next_balance)
			balance_domains(sched, rq, CPU_IDLE);
		if (available_idle_cpu(sched, c) && rq->next_balance < next)
			next = rq->next_balance;
	}
	sched->nohz_next_balance = next > j ? next : j + 1;
}

void eevdf__balance_tick(struct scheduler *sched, struct rq *rq)
{
	u64 j = jiffies(sched);

	if (!rq->sched->topo.cpu[rq->cpu].sd)
		return;
	if (j >= rq->next_balance)
		balance_domains(sched, rq, rq->curr ? CPU_NOT_IDLE : CPU_IDLE);
	if (rq->cfs.h_nr_runnable >= 2 && j >= sched->nohz_next_balance)
		nohz_idle_balance(sched);
}

/*
 * update_newidle_cost(): a domain remembers its dearest newly-idle pass
 * and forgets 1/64 of it a second.  This is the form before 6.17's
 * "bump the cost of failing passes" (d206fbad9328), which was reverted
 * for 6.19 and tagged for stable (kernel-6.18y.md item 23).
 */
static void update_newidle_cost(struct scheduler *sched,
				struct sched_domain *sd, u64 cost)
{
	u64 j = jiffies(sched);

	if (cost > sd->max_newidle_lb_cost) {
		sd->max_newidle_lb_cost = cost;
		sd->next_decay_max_lb_cost = j + (u64)sched->hz;
	} else if (j > sd->next_decay_max_lb_cost) {
		sd->max_newidle_lb_cost = sd->max_newidle_lb_cost * 253 / 256;
		sd->next_decay_max_lb_cost = j + (u64)sched->hz;
	}
}

/*
 * sched_balance_newidle().  A pass is worth it only when the CPU expects
 * to stay idle longer than balancing costs: the cost of a pass is the
 * cost model's balance_per_cpu times the CPUs of the domain (the kernel
 * measures it with sched_clock).  The simulated CPU time of the pass
 * itself is not charged.
 */
int eevdf__balance_newidle(struct scheduler *sched, struct rq *rq)
{
	struct sched_domain *sd = sched->topo.cpu[rq->cpu].sd;
	u64 curr_cost = 0;
	int pulled = 0;

	rq->idle_stamp = sched->now;
	rq->idle_stamped = true;
	if (!sched->nr_overloaded || !sd ||
	    rq->avg_idle < sd->max_newidle_lb_cost)
		return 0;
	for (; sd; sd = sd->parent) {
		u64 cost;

		if (rq->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;
		if (sd->flags & SD_BALANCE_NEWIDLE) {
			pulled = sched_balance_rq(sched, rq, sd,
						  CPU_NEWLY_IDLE);
			cost = sched->costs.balance_per_cpu * sd->span_weight;
			curr_cost += cost;
			update_newidle_cost(sched, sd, cost);
		}
		if (pulled || rq->nr_running)
			break;
	}
	if (curr_cost > rq->max_idle_balance_cost)
		rq->max_idle_balance_cost = curr_cost;
	if (pulled)
		rq->idle_stamped = false;
	return pulled;
}
