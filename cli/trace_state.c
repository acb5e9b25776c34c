/* SPDX-License-Identifier: MIT */
/*
 * --trace-state: the EEVDF state as counters of the trace, sampled at
 * every change.  The library reports a STATE event for each CPU whose
 * run queue an event changed; this reads that queue (eevdf/state.h) and
 * writes each selected counter whose value moved since it was last
 * written: per task vlag (V - vruntime), deadline - V, eligible and
 * delayed, per CPU V, the queue's load, nr_queued and nr_delayed, and the
 * same four for each group's queue on the CPU ("V /autogroup-1").  A
 * task that left the queue gets eligible 0, delayed 0 and its saved lag
 * once; its other counters keep their last value.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_state.h"

struct task_last {
	long long v[TS_TASK_COUNTERS];
	unsigned written; /* bit k: counter k has been written */
	int cpu;	  /* the queue it was last seen on, -1 none */
};

/* A group's run queue on a CPU, as last written. */
struct gq_last {
	char *group;
	long long v[TS_RQ_COUNTERS];
	unsigned written;
	bool seen; /* queued entities at the last sample */
};

struct cpu_last {
	long long v[TS_RQ_COUNTERS];
	unsigned written;
	int *pids; /* queued at the last sample */
	size_t nr, cap;
	struct gq_last *gq; /* the groups' queues met here */
	size_t nr_gq;
};

struct trace_state {
	unsigned mask;
	int nr_cpus;
	struct cpu_last *cpu;
	struct task_last *task;
	size_t nr_task;
	int *scratch;
	size_t cap_scratch;
	struct eevdf_entity_state *ents;
	size_t cap_ents;
	bool oom;
};

static const struct {
	const char *name;
	unsigned bits;
} items[] = {
	{ "vlag", TS_VLAG },
	{ "deadline", TS_DEADLINE },
	{ "eligible", TS_ELIGIBLE },
	{ "delayed", TS_DELAYED },
	{ "V", TS_V },
	{ "load", TS_LOAD },
	{ "nr_queued", TS_NR_QUEUED },
	{ "nr_delayed", TS_NR_DELAYED },
	{ "task", TS_VLAG | TS_DEADLINE | TS_ELIGIBLE | TS_DELAYED },
	{ "rq", TS_V | TS_LOAD | TS_NR_QUEUED | TS_NR_DELAYED },
	{ "all", TS_ALL },
	{ "none", 0 },
};

/* Counter k of a task, of a queue: name, unit, bit. */
static const char *const task_names[TS_TASK_COUNTERS] = { "vlag", "deadline-V",
							  "eligible",
							  "delayed" };
static const unsigned task_bits[TS_TASK_COUNTERS] = { TS_VLAG, TS_DEADLINE,
						      TS_ELIGIBLE, TS_DELAYED };
static const char *const rq_names[TS_RQ_COUNTERS] = { "V", "load", "nr_queued",
						      "nr_delayed" };
static const unsigned rq_bits[TS_RQ_COUNTERS] = { TS_V, TS_LOAD, TS_NR_QUEUED,
						  TS_NR_DELAYED };

bool trace_state_parse(const char *list, unsigned *mask, char *err, size_t len)
{
	const char *p = list;

	*mask = 0;
	if (!*list) {
		snprintf(err, len, "an empty list");
		return false;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(items) / sizeof(items[0]); i++)
			if (strlen(items[i].name) == n &&
			    strncmp(items[i].name, p, n) == 0)
				break;
		if (i == sizeof(items) / sizeof(items[0])) {
			snprintf(err, len,
				 "unknown item '%.*s' (known: vlag, deadline, "
				 "eligible, delayed, V, load, nr_queued, "
				 "nr_delayed, task, rq, all, none)",
				 (int)n, p);
			return false;
		}
		*mask |= items[i].bits;
		p += n;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, len, "a trailing comma");
				return false;
			}
		}
	}
	return true;
}

struct trace_state *trace_state_new(unsigned mask, int nr_cpus)
{
	struct trace_state *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->mask = mask;
	s->nr_cpus = nr_cpus;
	s->cpu = calloc((size_t)nr_cpus, sizeof(*s->cpu));
	if (!s->cpu) {
		free(s);
		return NULL;
	}
	return s;
}

void trace_state_free(struct trace_state *s)
{
	if (!s)
		return;
	for (int c = 0; c < s->nr_cpus; c++) {
		free(s->cpu[c].pids);
		for (size_t g = 0; g < s->cpu[c].nr_gq; g++)
			free(s->cpu[c].gq[g].group);
		free(s->cpu[c].gq);
	}
	free(s->cpu);
	free(s->ents);
	free(s->task);
	free(s->scratch);
	free(s);
}

static struct task_last *task_last(struct trace_state *s, int pid)
{
	if ((size_t)pid > s->nr_task) {
		size_t n = s->nr_task ? s->nr_task : 64;
		struct task_last *nt;

		while (n < (size_t)pid)
			n *= 2;
		nt = realloc(s->task, n * sizeof(*nt));
		if (!nt) {
			s->oom = true;
			return NULL;
		}
		for (size_t i = s->nr_task; i < n; i++)
			nt[i] = (struct task_last){ .cpu = -1 };
		s->task = nt;
		s->nr_task = n;
	}
	return &s->task[pid - 1];
}

/* Write counter k of a task when selected and changed. */
static void put_task(struct trace_state *s, struct tr_out *o, int pid,
		     struct task_last *k, int i, long long v, eevdf_time t,
		     bool emit)
{
	if (!(s->mask & task_bits[i]) || !emit)
		return;
	if ((k->written & (1u << i)) && k->v[i] == v)
		return;
	k->v[i] = v;
	k->written |= 1u << i;
	o->ops->counter(o, (struct tr_track){ TR_TASK, pid }, t, task_names[i],
			i < 2 ? TR_UNIT_NS : TR_UNIT_COUNT, v);
}

static void put_rq(struct trace_state *s, struct tr_out *o, int cpu, int i,
		   long long v, eevdf_time t, bool emit)
{
	struct cpu_last *c = &s->cpu[cpu];

	if (!(s->mask & rq_bits[i]) || !emit)
		return;
	if ((c->written & (1u << i)) && c->v[i] == v)
		return;
	c->v[i] = v;
	c->written |= 1u << i;
	o->ops->counter(o, (struct tr_track){ TR_CPU, cpu }, t, rq_names[i],
			i == 0 ? TR_UNIT_NS : TR_UNIT_COUNT, v);
}

/* The last values of group's queue on c, made when first met. */
static struct gq_last *gq_of(struct trace_state *s, struct cpu_last *c,
			     const char *group)
{
	struct gq_last *ng;

	for (size_t i = 0; i < c->nr_gq; i++)
		if (strcmp(c->gq[i].group, group) == 0)
			return &c->gq[i];
	ng = realloc(c->gq, (c->nr_gq + 1) * sizeof(*ng));
	if (!ng) {
		s->oom = true;
		return NULL;
	}
	c->gq = ng;
	ng = &c->gq[c->nr_gq];
	*ng = (struct gq_last){ .group = malloc(strlen(group) + 1) };
	if (!ng->group) {
		s->oom = true;
		return NULL;
	}
	strcpy(ng->group, group);
	c->nr_gq++;
	return ng;
}

static void put_gq(struct trace_state *s, struct tr_out *o, int cpu,
		   struct gq_last *g, int i, long long v, eevdf_time t,
		   bool emit)
{
	if (!(s->mask & rq_bits[i]) || !emit)
		return;
	if ((g->written & (1u << i)) && g->v[i] == v)
		return;
	g->v[i] = v;
	g->written |= 1u << i;
	o->ops->group_counter(o, cpu, g->group, t, rq_names[i],
			      i == 0 ? TR_UNIT_NS : TR_UNIT_COUNT, v);
}

/*
 * The queues of the groups below cpu's root queue: V, load, nr_queued
 * and nr_delayed of each, from the entities queued on it (a group's
 * entity is followed by what is queued in its queue, one level deeper).
 * A queue that emptied since the last sample gets load, nr_queued and
 * nr_delayed 0 once; its V keeps its last value.
 */
static void sample_groups(struct trace_state *s, const eevdf_sim *sim, int cpu,
			  eevdf_time t, struct tr_out *o, bool emit)
{
	struct cpu_last *c = &s->cpu[cpu];
	int n = eevdf_sim_rq_entities(sim, cpu, NULL, 0);
	size_t at = 0;

	if (n < 0)
		return;
	if ((size_t)n > s->cap_ents) {
		struct eevdf_entity_state *ne = realloc(
			s->ents, (size_t)n * sizeof(*ne));

		if (!ne) {
			s->oom = true;
			return;
		}
		s->ents = ne;
		s->cap_ents = (size_t)n;
	}
	n = eevdf_sim_rq_entities(sim, cpu, s->ents, s->cap_ents);
	if (n < 0 || (size_t)n > s->cap_ents)
		return;
	for (size_t i = 0; i < c->nr_gq; i++)
		c->gq[i].seen = false;
	/* each queue's entities are listed together, after its group's
	 * entity and before the next entity of the level above; a queue
	 * may come back after its subgroups' queues, so sum by queue */
	while (at < (size_t)n) {
		const struct eevdf_entity_state *e = &s->ents[at];
		long long load = 0, nr = 0, nr_delayed = 0;
		struct gq_last *g;

		at++;
		if (e->depth == 0 || !e->group)
			continue;
		g = gq_of(s, c, e->group);
		if (!g)
			return;
		if (g->seen)
			continue;
		g->seen = true;
		for (size_t k = at - 1; k < (size_t)n; k++) {
			const struct eevdf_entity_state *q = &s->ents[k];

			if (q->depth != e->depth || !q->group ||
			    strcmp(q->group, e->group) != 0)
				continue;
			load += (long long)q->weight;
			nr++;
			nr_delayed += q->delayed;
		}
		put_gq(s, o, cpu, g, 0, (long long)(int64_t)e->V, t, emit);
		put_gq(s, o, cpu, g, 1, load, t, emit);
		put_gq(s, o, cpu, g, 2, nr, t, emit);
		put_gq(s, o, cpu, g, 3, nr_delayed, t, emit);
	}
	for (size_t i = 0; i < c->nr_gq; i++) {
		struct gq_last *g = &c->gq[i];

		if (g->seen || !(g->written & ~1u))
			continue;
		put_gq(s, o, cpu, g, 1, 0, t, emit);
		put_gq(s, o, cpu, g, 2, 0, t, emit);
		put_gq(s, o, cpu, g, 3, 0, t, emit);
	}
}

static bool grow(int **a, size_t *cap, size_t n)
{
	int *na;
	size_t c = *cap ? *cap : 16;

	if (n <= *cap)
		return true;
	while (c < n)
		c *= 2;
	na = realloc(*a, c * sizeof(*na));
	if (!na)
		return false;
	*a = na;
	*cap = c;
	return true;
}

void trace_state_sample(struct trace_state *s, const eevdf_sim *sim, int cpu,
			eevdf_time t, struct tr_out *o, bool emit)
{
	struct cpu_last *c = &s->cpu[cpu];
	struct eevdf_rq_state rs;
	int n;

	if (!s->mask || s->oom || eevdf_sim_rq_state(sim, cpu, &rs) < 0)
		return;
	put_rq(s, o, cpu, 0, (long long)(int64_t)rs.V, t, emit);
	put_rq(s, o, cpu, 1, (long long)rs.load, t, emit);
	put_rq(s, o, cpu, 2, rs.nr_queued, t, emit);
	put_rq(s, o, cpu, 3, rs.nr_delayed, t, emit);
	if (s->mask & TS_RQ_ALL)
		sample_groups(s, sim, cpu, t, o, emit);
	if (!(s->mask & TS_TASK_ALL))
		return;
	n = eevdf_sim_rq_tasks(sim, cpu, NULL, 0);
	if (n < 0)
		return;
	if (!grow(&s->scratch, &s->cap_scratch, (size_t)n)) {
		s->oom = true;
		return;
	}
	eevdf_sim_rq_tasks(sim, cpu, s->scratch, (size_t)n);
	for (int i = 0; i < n; i++) {
		struct eevdf_entity_state es;
		struct task_last *k = task_last(s, s->scratch[i]);

		if (!k || eevdf_sim_task_state(sim, s->scratch[i], &es) < 0)
			continue;
		k->cpu = cpu;
		put_task(s, o, es.pid, k, 0, es.vlag, t, emit);
		put_task(s, o, es.pid, k, 1, es.deadline_v, t, emit);
		put_task(s, o, es.pid, k, 2, es.eligible, t, emit);
		put_task(s, o, es.pid, k, 3, es.delayed, t, emit);
	}
	/* those queued here last time and gone now */
	for (size_t i = 0; i < c->nr; i++) {
		struct eevdf_entity_state es;
		struct task_last *k = task_last(s, c->pids[i]);

		if (!k || k->cpu != cpu)
			continue;
		if (eevdf_sim_task_state(sim, c->pids[i], &es) < 0 ||
		    (es.on_rq && es.cpu == cpu))
			continue;
		k->cpu = -1;
		put_task(s, o, es.pid, k, 0, es.vlag, t, emit && es.fair);
		put_task(s, o, es.pid, k, 2, 0, t, emit);
		put_task(s, o, es.pid, k, 3, 0, t, emit);
	}
	if (!grow(&c->pids, &c->cap, (size_t)n)) {
		s->oom = true;
		return;
	}
	memcpy(c->pids, s->scratch, (size_t)n * sizeof(*c->pids));
	c->nr = (size_t)n;
}
