/* SPDX-License-Identifier: MIT */
/* Workload metrics: counters, values and histograms, keyed or not. */
#include <string.h>

#include "metrics.h"
#include "sim.h"

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int eevdf__sim_add_metric(struct eevdf_sim *sim, const char *name,
			  enum metric_type type, enum eevdf_hist_kind quant,
			  bool keyed, bool per_task, bool reset_at_warmup)
{
	struct metric *m, **n;

	n = realloc(sim->metrics, (sim->nr_metrics + 1) * sizeof(*n));
	if (!n)
		return EEVDF_ENOMEM;
	sim->metrics = n;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->name = dup_str(name))) {
		free(m);
		return EEVDF_ENOMEM;
	}
	m->type = type;
	m->quant = quant;
	m->keyed = keyed;
	m->per_task = per_task;
	m->reset_at_warmup = reset_at_warmup;
	sim->metrics[sim->nr_metrics] = m;
	return (int)sim->nr_metrics++;
}

static void cell_free(struct metric_cell *c)
{
	if (c->hist) {
		eevdf__hist_free(c->hist);
		free(c->hist);
	}
	c->hist = NULL;
}

void eevdf__metric_snaps_free(struct metric_snaps *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].cells);
		free(s->v[i].tasks);
	}
	free(s->v);
	free(s);
}

void eevdf__metric_free(struct metric *m)
{
	if (!m)
		return;
	cell_free(&m->all);
	for (u32 i = 0; i < m->nr_cells; i++)
		cell_free(&m->cells[i]);
	free(m->cells);
	free(m->per_task_sum);
	free(m->name);
	free(m);
}

/* The cell of key (created in key order), or NULL when out of memory. */
static struct metric_cell *cell_of(struct metric *m, s64 key)
{
	u32 lo = 0, hi = m->nr_cells;

	if (!m->keyed)
		return &m->all;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->cells[mid].key == key)
			return &m->cells[mid];
		if (m->cells[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m->nr_cells == m->cap_cells) {
		u32 cap = m->cap_cells ? 2 * m->cap_cells : 8;
		struct metric_cell *n = realloc(m->cells, cap * sizeof(*n));

		if (!n)
			return NULL;
		m->cells = n;
		m->cap_cells = cap;
	}
	memmove(&m->cells[lo + 1], &m->cells[lo],
		(m->nr_cells - lo) * sizeof(m->cells[0]));
	memset(&m->cells[lo], 0, sizeof(m->cells[0]));
	m->cells[lo].key = key;
	m->nr_cells++;
	return &m->cells[lo];
}

static int hist_of(struct metric *m, struct metric_cell *c)
{
	if (c->hist)
		return 0;
	c->hist = calloc(1, sizeof(*c->hist));
	if (!c->hist)
		return EEVDF_ENOMEM;
	return eevdf__hist_init(c->hist, m->quant);
}

static void fail_metric(struct eevdf_sim *sim, struct metric *m, int err)
{
	eevdf__sim_fail(sim, err, "metric %s: %s", m->name,
			err == EEVDF_ERANGE ? "sample out of range" :
					      "out of memory");
}

/* A counter's sum would leave 64 bits: the run fails rather than wrap. */
static bool sum_add(struct eevdf_sim *sim, const struct metric *m,
		    const struct task *p, s64 *sum, s64 add)
{
	if (!__builtin_add_overflow(*sum, add, sum))
		return true;
	eevdf__sim_fail(sim, EEVDF_ERANGE,
			"task %s: metric %s: adding %lld would take its sum "
			"past the 64-bit range",
			p ? p->name : "?", m->name, (long long)add);
	return false;
}

int eevdf__sim_add_rate(struct eevdf_sim *sim, const char *name, u32 of,
			eevdf_time every, enum eevdf_hist_kind quant,
			bool reset_at_warmup)
{
	int idx;
	struct metric *m;

	if (of >= sim->nr_metrics || sim->metrics[of]->type != MET_COUNTER ||
	    every <= 0)
		return EEVDF_EINVAL;
	idx = eevdf__sim_add_metric(sim, name, MET_RATE, quant, false, false,
				    reset_at_warmup);
	if (idx < 0)
		return idx;
	m = sim->metrics[idx];
	m->of = of;
	m->every = every;
	eevdf__event_init(&m->ev, SEV_RATE, EVC_TICK);
	m->ev.time = every;
	if (eevdf__eventq_push(&sim->sched.evq, &m->ev))
		return EEVDF_ENOMEM;
	return idx;
}

void eevdf__metric_rate_tick(struct eevdf_sim *sim, struct metric *m)
{
	struct metric *of;
	s64 now, delta;
	s128 d;
	int err;

	of = sim->metrics[m->of];

	now = of->all.value;
	d = (s128)now - m->last;
	m->last = now;
	/* per second, as schbench computes Δloops * 1e6 / Δus; a counter
	 * moved by more than int64 holds saturates */
	d = d * EEVDF_NSEC_PER_SEC / m->every;
	delta = d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : (s64)d;
	m->sample = delta < 0 ? 0 : delta;
	m->sampled = true;
	if ((err = hist_of(m, &m->all)) ||
	    (err = eevdf__hist_add(m->all.hist, delta < 0 ? 0 : delta, 1)))
		fail_metric(sim, m, err);
	m->ev.time += m->every;
	if (eevdf__eventq_push(&sim->sched.evq, &m->ev))
		fail_metric(sim, m, EEVDF_ENOMEM);
}

void eevdf__sim_metric_drop_zero(struct eevdf_sim *sim, int idx)
{
	sim->metrics[idx]->drop_zero = true;
}

void eevdf__metric_record(struct eevdf_sim *sim, u32 idx, struct task *p,
			  s64 key, s64 value)
{
	struct metric *m = sim->metrics[idx];
	struct metric_cell *c = cell_of(m, key);
	int err;

	if (!c) {
		fail_metric(sim, m, EEVDF_ENOMEM);
		return;
	}
	switch (m->type) {
	case MET_RATE:
		return;
	case MET_HIST:
		/* negative samples (clock steps) are dropped, as schbench
		 * drops non-positive latencies */
		if (value < 0 || (m->drop_zero && value == 0))
			return;
		if ((err = hist_of(m, c)) ||
		    (err = eevdf__hist_add(c->hist, value, 1)))
			fail_metric(sim, m, err);
		/* the last sample too (cyclictest's "Act") */
		c->value = value;
		c->set = true;
		return;
	case MET_VALUE:
		c->value = value;
		c->set = true;
		return;
	case MET_COUNTER:
		if (sum_add(sim, m, p, &c->value, value))
			c->set = true;
		return;
	}
}

void eevdf__metric_count(struct eevdf_sim *sim, u32 idx, struct task *p,
			 s64 add)
{
	struct metric *m = sim->metrics[idx];
	struct metric_cell *c = cell_of(m, 0);

	if (!c) {
		fail_metric(sim, m, EEVDF_ENOMEM);
		return;
	}
	if (!sum_add(sim, m, p, &c->value, add))
		return;
	c->set = true;
	if (m->per_task && p) {
		if (m->nr_per_task < sim->sched.nr_tasks) {
			s64 *n = realloc(m->per_task_sum,
					 sim->sched.nr_tasks * sizeof(*n));

			if (!n) {
				fail_metric(sim, m, EEVDF_ENOMEM);
				return;
			}
			memset(n + m->nr_per_task, 0,
			       (sim->sched.nr_tasks - m->nr_per_task) *
				       sizeof(*n));
			m->per_task_sum = n;
			m->nr_per_task = sim->sched.nr_tasks;
		}
		sum_add(sim, m, p, &m->per_task_sum[p->pid - 1], add);
	}
}

static void cell_reset(struct metric_cell *c)
{
	c->value = 0;
	c->set = false;
	if (c->hist)
		eevdf__hist_reset(c->hist);
}

void eevdf__metrics_warmup(struct eevdf_sim *sim)
{
	for (size_t i = 0; i < sim->nr_metrics; i++) {
		struct metric *m = sim->metrics[i];

		if (!m->reset_at_warmup)
			continue;
		cell_reset(&m->all);
		for (u32 k = 0; k < m->nr_cells; k++)
			cell_reset(&m->cells[k]);
		if (m->per_task_sum)
			memset(m->per_task_sum, 0,
			       m->nr_per_task * sizeof(*m->per_task_sum));
	}
}

/* Interval snapshots ---------------------------------------------------- */

int eevdf__metrics_snapshot_every(struct eevdf_sim *sim, eevdf_time every,
				  eevdf_time until)
{
	struct metric_snaps *s;

	if (every <= 0 || until < 0 || until / every > METRIC_SNAPS_MAX ||
	    !sim->nr_metrics || sim->snaps)
		return EEVDF_EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return EEVDF_ENOMEM;
	s->every = every;
	s->until = until;
	s->cap = (size_t)(until / every);
	s->v = calloc(s->cap ? s->cap : 1, sizeof(*s->v));
	if (!s->v) {
		free(s);
		return EEVDF_ENOMEM;
	}
	sim->snaps = s;
	if (!s->cap)
		return 0;
	eevdf__event_init(&s->ev, SEV_SNAP, EVC_TICK);
	s->ev.time = every;
	return eevdf__eventq_push(&sim->sched.evq, &s->ev);
}

const struct metric_snaps *eevdf__metric_snaps(const struct eevdf_sim *sim)
{
	return sim->snaps;
}

static int snap_metric(struct eevdf_sim *sim, struct metric *m,
		       struct metric_snap_cell *c)
{
	int r = 0;

	c->value = m->type == MET_RATE ? m->sample : m->all.value;
	c->set = m->type == MET_RATE ? m->sampled : m->all.set;
	if (m->type == MET_HIST || m->type == MET_RATE)
		r = eevdf__hist_summarize(m->all.hist, NULL, 0, &c->hist);
	/* schbench's plist, which the summary is made for, is valid */
	if (r)
		return eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				       "internal invariant failed: metric %s "
				       "cannot be summarized (%s)",
				       m->name, eevdf_err_name(r));
	return 0;
}

static int snap_take(struct eevdf_sim *sim, struct metric_snaps *s)
{
	struct metric_snap *snap = &s->v[s->nr];
	size_t nt = sim->sched.nr_tasks;

	if (s->nr_task_entries + nt > METRIC_SNAPS_MAX_TASKS)
		return eevdf__sim_fail(sim, EEVDF_ERANGE,
				       "interval report at %lld ns: more than "
				       "%zu task entries in all the interval "
				       "reports (%zu tasks); choose a longer "
				       "interval",
				       (long long)sim->sched.now,
				       METRIC_SNAPS_MAX_TASKS, nt);
	snap->cells = calloc(sim->nr_metrics, sizeof(*snap->cells));
	snap->tasks = calloc(nt ? nt : 1, sizeof(*snap->tasks));
	if (!snap->cells || !snap->tasks) {
		free(snap->cells);
		free(snap->tasks);
		snap->cells = NULL;
		snap->tasks = NULL;
		return eevdf__sim_fail(sim, EEVDF_ENOMEM,
				       "interval report: out of memory");
	}
	snap->at = sim->sched.now;
	snap->nr_cells = sim->nr_metrics;
	for (size_t i = 0; i < sim->nr_metrics; i++)
		if (snap_metric(sim, sim->metrics[i], &snap->cells[i]))
			goto fail;
	snap->nr_tasks = nt;
	for (size_t i = 0; i < nt; i++) {
		struct eevdf_task_stats st;

		/* every index below nr_tasks has its stats */
		if (eevdf_sim_task_stats(sim, i, &st)) {
			eevdf__sim_fail(sim, EEVDF_EINTERNAL,
					"internal invariant failed: no stats "
					"for task %zu",
					i + 1);
			goto fail;
		}
		snap->tasks[i].wait_ns = (u64)st.wait_ns;
		snap->tasks[i].delay_count = st.delay_count;
	}
	s->nr_task_entries += nt;
	s->nr++;
	return 0;
fail:
	free(snap->cells);
	free(snap->tasks);
	snap->cells = NULL;
	snap->tasks = NULL;
	return sim->sched.error;
}

void eevdf__metrics_snap_tick(struct eevdf_sim *sim)
{
	struct metric_snaps *s = sim->snaps;

	/*
	 * First firing at T: queue again at T, behind the events of T queued
	 * so far (a rate sample of T queued a period ago, the stop), which
	 * the snapshot must see.
	 */
	if (!s->queued_again) {
		s->queued_again = true;
		if (eevdf__eventq_push(&sim->sched.evq, &s->ev))
			eevdf__sim_fail(sim, EEVDF_ENOMEM,
					"interval report: out of memory");
		return;
	}
	s->queued_again = false;
	if (s->nr == s->cap || snap_take(sim, s))
		return;
	if (s->ev.time > s->until - s->every)
		return;
	s->ev.time += s->every;
	if (eevdf__eventq_push(&sim->sched.evq, &s->ev))
		eevdf__sim_fail(sim, EEVDF_ENOMEM,
				"interval report: out of memory");
}

const char *eevdf__metric_type_name(enum metric_type t)
{
	switch (t) {
	case MET_COUNTER:
		return "counter";
	case MET_VALUE:
		return "value";
	case MET_HIST:
		return "hist";
	case MET_RATE:
		return "rate";
	}
	return "?";
}
