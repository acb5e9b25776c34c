/* SPDX-License-Identifier: MIT */
/*
 * Scheduling domains built from the machine (kernel/sched/topology.c):
 * per CPU a bottom-up chain SMT -> MC -> PKG -> NUMA, each level spanning
 * the CPUs that share a core, an LLC, a package or the machine, with the
 * levels that add nothing over their child removed, and sd_init()'s
 * default parameters (kernel-model.md section 10.1).
 */
#ifndef EEVDF_TOPOLOGY_H
#define EEVDF_TOPOLOGY_H

#include "lib/internal.h"

struct eevdf_machine;

/* sd->flags, named as include/linux/sched/sd_flags.h. */
#define SD_BALANCE_NEWIDLE 0x0001
#define SD_BALANCE_EXEC 0x0002
#define SD_BALANCE_FORK 0x0004
#define SD_BALANCE_WAKE 0x0008
#define SD_WAKE_AFFINE 0x0010
#define SD_SHARE_CPUCAPACITY 0x0020
#define SD_SHARE_LLC 0x0040
#define SD_SERIALIZE 0x0080
#define SD_PREFER_SIBLING 0x0100
#define SD_NUMA 0x0200

enum sd_level {
	SD_LVL_SMT,
	SD_LVL_MC,
	SD_LVL_PKG,
	SD_LVL_NUMA,
	NR_SD_LEVELS
};

/*
 * A set of CPUs at one level (one core, one LLC, one package, or the
 * machine), shared by the domains of all its CPUs.  Its groups are the
 * spans of the level below, or single CPUs at the bottom.
 */
struct sd_span {
	int *cpus; /* ascending */
	u32 weight;
	/* its place in topo.spans: the balancer's sums of a group are
	 * read by it, with no pointer difference (a division by 40) */
	u32 index;
	struct sd_span **groups;
	u32 nr_groups;
	bool cpu_groups; /* every group is a single CPU */
	int first_cpu;	 /* group_balance_cpu() */
};

/* One CPU's domain at one level; the balance state is per CPU as in the
 * kernel. */
struct sched_domain {
	struct sched_domain *parent, *child;
	const struct sd_span *span;
	u32 local_group; /* span->groups[local_group] holds this CPU */
	enum sd_level level;
	u32 flags;
	u32 span_weight;
	u32 min_interval, max_interval; /* ms */
	u32 busy_factor;
	u32 imbalance_pct;
	u32 cache_nice_tries;
	u32 balance_interval; /* ms */
	u32 nr_balance_failed;
	u32 imb_numa_nr;	    /* NUMA: tolerated imbalance */
	u64 max_newidle_lb_cost;    /* ns: dearest newly-idle pass */
	u64 next_decay_max_lb_cost; /* jiffies */
	u64 last_balance;	    /* jiffies */
};

/* sd_llc_shared: per LLC, for select_idle_sibling. */
struct llc_shared {
	bool has_idle_cores;
	int nr_idle_scan;
	/* its CPUs (sd_llc's span) as a bitmap like scheduler.idle_bits;
	 * NULL when no CPU of it has an LLC domain */
	const u64 *cpus;
};

struct cpu_topo {
	int core, llc, package;
	u32 capacity;
	struct sched_domain *sd;     /* lowest domain, NULL: a 1-CPU machine */
	struct sched_domain *sd_llc; /* highest SD_SHARE_LLC domain or NULL */
	const struct sd_span *smt;   /* this CPU's core (>= 1 CPU) */
	u32 sd_llc_size;
};

struct topology {
	int nr_cpus;
	int nr_cores, nr_llcs, nr_packages;
	bool smt_active; /* some core has two or more threads */
	struct cpu_topo *cpu;
	struct sched_domain *domains; /* nr_cpus x NR_SD_LEVELS, used ones */
	struct sd_span *spans;	      /* every span of every level */
	size_t nr_spans;
	struct sd_span *core_spans;  /* per core (indexed by core id) */
	struct llc_shared *llc;	     /* per LLC */
	int *cpu_pool;		     /* storage of the spans' cpus */
	u64 *llc_cpus_pool;	     /* storage of llc[].cpus */
	u32 nr_words;		     /* u64 words of a CPU bitmap */
	struct sd_span **group_pool; /* storage of the spans' groups */
};

/* Build from m; 0 or EEVDF_ENOMEM. */
int eevdf__topology_build(struct topology *t, const struct eevdf_machine *m);
void eevdf__topology_free(struct topology *t);

static inline bool cpus_share_cache(const struct topology *t, int a, int b)
{
	return t->cpu[a].llc == t->cpu[b].llc;
}

/* How far apart two CPUs are, for the costs that grow with distance. */
enum cpu_distance {
	CPU_SAME_CORE = 0, /* one CPU, or SMT siblings: L1 and L2 shared */
	CPU_SAME_LLC,
	CPU_SAME_PKG,
	CPU_OTHER_PKG,
};

static inline enum cpu_distance cpu_distance(const struct topology *t, int a,
					     int b)
{
	const struct cpu_topo *x = &t->cpu[a], *y = &t->cpu[b];

	if (x->core == y->core)
		return CPU_SAME_CORE;
	if (x->llc == y->llc)
		return CPU_SAME_LLC;
	return x->package == y->package ? CPU_SAME_PKG : CPU_OTHER_PKG;
}

/* Is cpu in span?  (cpumask_test_cpu() on a domain's span) */
static inline bool sd_span_has(const struct sd_span *span, int cpu)
{
	u32 lo = 0, hi = span->weight;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (span->cpus[mid] == cpu)
			return true;
		if (span->cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The level's kernel name ("SMT", "MC", "PKG", "NUMA"). */
const char *eevdf__sd_level_name(enum sd_level l);

#define for_each_domain(t, c, d)                                               \
	for ((d) = (t)->cpu[c].sd; (d); (d) = (d)->parent)

#endif
