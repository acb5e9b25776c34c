/* SPDX-License-Identifier: MIT */
/*
 * Machine -> scheduling domains, after build_sched_domains() and sd_init()
 * (kernel/sched/topology.c; defaults checked against v6.17 sd_init: SMT
 * imbalance_pct 110 and cache_nice_tries 0, LLC 117 and 1, NUMA 117 and 2
 * without PREFER_SIBLING, any other level 117 and 1).
 *
 * The machine's levels nest: core within LLC within package within the
 * machine, so a level whose span is no wider than the last kept one adds
 * nothing (sd_degenerate / sd_parent_degenerate) and is dropped.  Packages
 * are NUMA nodes: a machine of several packages gets one NUMA level.
 */
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "topology.h"

const char *eevdf__sd_level_name(enum sd_level l)
{
	static const char *const names[NR_SD_LEVELS] = { "SMT", "MC", "PKG",
							 "NUMA" };

	return (unsigned)l < NR_SD_LEVELS ? names[l] : "?";
}

/* The id a CPU has at a level: its core, LLC, package, or 0. */
static int level_key(const struct eevdf_machine *m, int cpu, int level)
{
	switch (level) {
	case SD_LVL_SMT:
		return m->cpu[cpu].core;
	case SD_LVL_MC:
		return m->cpu[cpu].llc;
	case SD_LVL_PKG:
		return m->cpu[cpu].package;
	default:
		return 0;
	}
}

static int level_count(const struct eevdf_machine *m, int level)
{
	switch (level) {
	case SD_LVL_SMT:
		return m->nr_cores;
	case SD_LVL_MC:
		return m->nr_llcs;
	case SD_LVL_PKG:
		return m->nr_packages;
	default:
		return 1;
	}
}

static void sd_init(struct sched_domain *sd, const struct sd_span *span,
		    enum sd_level level)
{
	u32 w = span->weight;

	memset(sd, 0, sizeof(*sd));
	sd->span = span;
	sd->level = level;
	sd->span_weight = w;
	sd->min_interval = w;
	sd->max_interval = 2 * w;
	sd->balance_interval = w;
	sd->busy_factor = 16;
	sd->imbalance_pct = 117;
	sd->flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
		    SD_WAKE_AFFINE | SD_PREFER_SIBLING;
	switch (level) {
	case SD_LVL_SMT:
		sd->flags |= SD_SHARE_CPUCAPACITY | SD_SHARE_LLC;
		sd->imbalance_pct = 110;
		break;
	case SD_LVL_MC:
		sd->flags |= SD_SHARE_LLC;
		sd->cache_nice_tries = 1;
		break;
	case SD_LVL_NUMA:
		sd->flags |= SD_NUMA | SD_SERIALIZE;
		sd->flags &= ~(u32)SD_PREFER_SIBLING;
		sd->cache_nice_tries = 2;
		break;
	default:
		sd->cache_nice_tries = 1;
		break;
	}
}

/*
 * Spans: nr_cpus single-CPU spans first (the bottom groups), then each
 * level's spans in id order.  Every span lists its CPUs ascending and its
 * groups (the spans one level down) in order of their first CPU.
 */
static int build_spans(struct topology *t, const struct eevdf_machine *m)
{
	int n = m->nr_cpus;
	size_t base[NR_SD_LEVELS + 1], k = 0, pool = 0, gpool = 0;
	size_t *fill;

	base[0] = (size_t)n;
	t->nr_spans = (size_t)n;
	for (int l = 0; l < NR_SD_LEVELS; l++) {
		base[l] = t->nr_spans;
		t->nr_spans += (size_t)level_count(m, l);
	}
	base[NR_SD_LEVELS] = t->nr_spans;
	t->spans = calloc(t->nr_spans, sizeof(*t->spans));
	t->cpu_pool = calloc((size_t)n * (NR_SD_LEVELS + 1), sizeof(int));
	t->group_pool = calloc(t->nr_spans, sizeof(*t->group_pool));
	fill = calloc(t->nr_spans, sizeof(*fill));
	if (!t->spans || !t->cpu_pool || !t->group_pool || !fill) {
		free(fill);
		return EEVDF_ENOMEM;
	}
	/* weights, then storage */
	for (int c = 0; c < n; c++) {
		t->spans[c].weight = 1;
		for (int l = 0; l < NR_SD_LEVELS; l++)
			t->spans[base[l] + (size_t)level_key(m, c, l)].weight++;
	}
	for (k = 0; k < t->nr_spans; k++) {
		t->spans[k].cpus = t->cpu_pool + pool;
		pool += t->spans[k].weight;
		t->spans[k].first_cpu = -1;
		t->spans[k].index = (u32)k;
	}
	for (int c = 0; c < n; c++) {
		struct sd_span *s = &t->spans[c];

		s->cpus[fill[c]++] = c;
		s->first_cpu = c;
		for (int l = 0; l < NR_SD_LEVELS; l++) {
			size_t i = base[l] + (size_t)level_key(m, c, l);

			s = &t->spans[i];
			s->cpus[fill[i]++] = c;
			if (s->first_cpu < 0)
				s->first_cpu = c;
		}
	}
	/* groups: the distinct child spans, by first CPU */
	for (int l = 0; l < NR_SD_LEVELS; l++) {
		for (size_t i = base[l]; i < base[l + 1]; i++) {
			struct sd_span *s = &t->spans[i];

			s->groups = t->group_pool + gpool;
			for (u32 j = 0; j < s->weight; j++) {
				int c = s->cpus[j];
				struct sd_span *g =
					l == 0 ?
						&t->spans[c] :
						&t->spans[base[l - 1] +
							  (size_t)level_key(
								  m, c, l - 1)];

				if (g->first_cpu == c)
					s->groups[s->nr_groups++] = g;
			}
			s->cpu_groups = s->nr_groups == s->weight;
			gpool += s->nr_groups;
		}
	}
	t->core_spans = &t->spans[base[SD_LVL_SMT]];
	free(fill);
	return 0;
}

/*
 * Each LLC's CPUs as a bitmap, from sd_llc's span: select_idle_cpu() ANDs
 * it with the idle bitmap instead of probing the span a CPU at a time.
 */
static int build_llc_cpus(struct topology *t)
{
	t->nr_words = ((u32)t->nr_cpus + 63) / 64;
	t->llc_cpus_pool = calloc((size_t)t->nr_llcs * t->nr_words,
				  sizeof(*t->llc_cpus_pool));
	if (!t->llc_cpus_pool) {
		eevdf__topology_free(t);
		return EEVDF_ENOMEM;
	}
	for (int c = 0; c < t->nr_cpus; c++) {
		const struct sched_domain *sd = t->cpu[c].sd_llc;
		int l = t->cpu[c].llc;
		u64 *w = &t->llc_cpus_pool[(size_t)l * t->nr_words];

		if (!sd || t->llc[l].cpus)
			continue;
		for (u32 i = 0; i < sd->span->weight; i++) {
			int cpu = sd->span->cpus[i];

			w[cpu / 64] |= (u64)1 << (cpu % 64);
		}
		t->llc[l].cpus = w;
	}
	return 0;
}

/*
 * imb_numa_nr (build_sched_domains, 5278ba412faf and later): the first
 * level above the LLC tolerates nr_llcs tasks of imbalance, or an eighth
 * of its CPUs when it holds a single LLC; higher levels scale that by
 * their size over the first NUMA level's.
 */
static void set_imb_numa_nr(struct sched_domain *sd)
{
	u32 imb = 0, imb_span = 1;

	for (; sd; sd = sd->parent) {
		struct sched_domain *child = sd->child, *top;

		if (!(sd->flags & SD_SHARE_LLC) && child &&
		    (child->flags & SD_SHARE_LLC)) {
			u32 nr_llcs = sd->span_weight / child->span_weight;

			imb = nr_llcs == 1 ? sd->span_weight >> 3 : nr_llcs;
			imb = imb ? imb : 1;
			sd->imb_numa_nr = imb;
			for (top = sd->parent; top && !(top->flags & SD_NUMA);
			     top = top->parent)
				;
			imb_span = top ? top->span_weight : sd->span_weight;
		} else if (imb) {
			u32 f = sd->span_weight / imb_span;

			sd->imb_numa_nr = imb * (f ? f : 1);
		}
	}
}

static void build_domains(struct topology *t)
{
	int n = t->nr_cpus;
	size_t base = (size_t)n;

	for (int c = 0; c < n; c++) {
		struct cpu_topo *ct = &t->cpu[c];
		struct sched_domain *prev = NULL;
		u32 last_weight = 1;
		size_t lbase = base;

		for (int l = 0; l < NR_SD_LEVELS; l++) {
			int key = l == SD_LVL_SMT ? ct->core :
				  l == SD_LVL_MC  ? ct->llc :
				  l == SD_LVL_PKG ? ct->package :
						    0;
			const struct sd_span *s = &t->spans[lbase + (size_t)key];
			struct sched_domain *sd;

			lbase += l == SD_LVL_SMT ? (size_t)t->nr_cores :
				 l == SD_LVL_MC	 ? (size_t)t->nr_llcs :
				 l == SD_LVL_PKG ? (size_t)t->nr_packages :
						   1;
			if (s->weight <= last_weight)
				continue;
			sd = &t->domains[(size_t)c * NR_SD_LEVELS + (size_t)l];
			sd_init(sd, s, (enum sd_level)l);
			/* the groups partition the span: one holds c */
			while (sd->local_group + 1 < s->nr_groups &&
			       !sd_span_has(s->groups[sd->local_group], c))
				sd->local_group++;
			sd->child = prev;
			if (prev)
				prev->parent = sd;
			else
				ct->sd = sd;
			if (sd->flags & SD_SHARE_LLC) {
				ct->sd_llc = sd;
				ct->sd_llc_size = sd->span_weight;
			}
			prev = sd;
			last_weight = s->weight;
		}
		ct->smt = &t->core_spans[ct->core];
		set_imb_numa_nr(ct->sd);
		if (!ct->sd_llc_size)
			ct->sd_llc_size = 1;
	}
}

int eevdf__topology_build(struct topology *t, const struct eevdf_machine *m)
{
	int n = m->nr_cpus;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = n;
	t->nr_cores = m->nr_cores;
	t->nr_llcs = m->nr_llcs;
	t->nr_packages = m->nr_packages;
	t->smt_active = m->nr_cores < m->nr_cpus;
	t->cpu = calloc((size_t)n, sizeof(*t->cpu));
	t->domains = calloc((size_t)n * NR_SD_LEVELS, sizeof(*t->domains));
	t->llc = calloc((size_t)m->nr_llcs, sizeof(*t->llc));
	if (!t->cpu || !t->domains || !t->llc || build_spans(t, m)) {
		eevdf__topology_free(t);
		return EEVDF_ENOMEM;
	}
	for (int c = 0; c < n; c++) {
		t->cpu[c].core = m->cpu[c].core;
		t->cpu[c].llc = m->cpu[c].llc;
		t->cpu[c].package = m->cpu[c].package;
		t->cpu[c].capacity = m->cpu[c].capacity;
	}
	build_domains(t);
	/*
	 * Every CPU starts idle, its LLC with idle cores and the full
	 * SIS_UTIL scan budget an idle LLC's periodic balance computes: the
	 * state of a machine that has been idle for a while, where a
	 * benchmark starts, rather than the kernel's zeroed one at boot.
	 */
	for (int i = 0; i < t->nr_llcs; i++)
		t->llc[i].has_idle_cores = t->smt_active;
	for (int c = 0; c < n; c++)
		t->llc[t->cpu[c].llc].nr_idle_scan = (int)t->cpu[c].sd_llc_size;
	return build_llc_cpus(t);
}

void eevdf__topology_free(struct topology *t)
{
	free(t->llc_cpus_pool);
	free(t->cpu);
	free(t->domains);
	free(t->llc);
	free(t->spans);
	free(t->cpu_pool);
	free(t->group_pool);
	memset(t, 0, sizeof(*t));
}
