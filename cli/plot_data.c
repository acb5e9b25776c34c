/* SPDX-License-Identifier: MIT */
/*
 * The plots' data (plot_data.h).  A wakeup latency runs from a task's
 * WAKEUP event to its next switch-in (a new task's first run and a
 * preempted task's return are not wakeups); samples are kept exactly
 * (8 bytes each) and sorted once, so percentiles are the nearest-rank
 * ones of every sample, and the CDF is drawn through at most
 * CDF_POINTS of them.  The timeline keeps the runs of the window; the
 * lags are read at every STATE event of the chosen CPU inside it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_data.h"

#define CDF_POINTS 400
#define MAX_CDF_SERIES 8
#define MAX_LAG_SERIES 10
#define MAX_ROWS 64

struct group {
	char name[EEVDF_NAME_MAX + 16];
	int64_t *s; /* samples, ns */
	size_t n, cap;
};

struct ptask {
	eevdf_time woke; /* the pending wakeup, -1 none */
	int group;	 /* its latency group + 1, 0 not yet known */
	int key;	 /* its timeline key + 1, 0 none */
	int lag;	 /* its lag series + 1, 0 none */
	bool queued;	 /* on the lag CPU's queue at the last sample */
};

struct span {
	int row, key;
	eevdf_time a, b;
};

struct lagpt {
	eevdf_time t;
	int64_t vlag;
	bool gap;
};

struct lagseries {
	int pid;
	struct lagpt *p;
	size_t n, cap;
};

struct plot_data {
	struct plot_data_opts o;
	eevdf_sim *sim;
	int nr_cpus;
	struct ptask *task;
	size_t nr_task;
	struct group *groups;
	size_t nr_groups;
	/* worst wakeup */
	bool have_worst;
	int worst_pid, worst_cpu;
	eevdf_time worst_end, worst_delay;
	/* timeline */
	int *curr;
	eevdf_time *since;
	struct span *spans;
	size_t nr_spans, cap_spans;
	int *key_pid; /* key -> pid */
	size_t nr_keys;
	/* lags */
	struct lagseries lags[MAX_LAG_SERIES];
	size_t nr_lags;
	int *scratch;
	size_t cap_scratch;
	bool oom;
	/* the simulation it came from, kept for the names (window runs) */
	struct cli_built built;
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	np = realloc(*p, c * size);
	if (!np)
		return false;
	*p = np;
	*cap = c;
	return true;
}

struct plot_data *plot_data_new(const struct plot_data_opts *o, int nr_cpus)
{
	struct plot_data *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return NULL;
	pd->o = *o;
	pd->nr_cpus = nr_cpus;
	pd->curr = malloc((size_t)nr_cpus * sizeof(*pd->curr));
	pd->since = calloc((size_t)nr_cpus, sizeof(*pd->since));
	if (!pd->curr || !pd->since) {
		plot_data_free(pd);
		return NULL;
	}
	for (int c = 0; c < nr_cpus; c++)
		pd->curr[c] = -1;
	return pd;
}

void plot_data_free(struct plot_data *pd)
{
	if (!pd)
		return;
	for (size_t g = 0; g < pd->nr_groups; g++)
		free(pd->groups[g].s);
	for (size_t i = 0; i < pd->nr_lags; i++)
		free(pd->lags[i].p);
	free(pd->groups);
	free(pd->task);
	free(pd->curr);
	free(pd->since);
	free(pd->spans);
	free(pd->key_pid);
	free(pd->scratch);
	cli_built_free(&pd->built);
	free(pd);
}

void plot_data_attach(struct plot_data *pd, eevdf_sim *sim)
{
	pd->sim = sim;
}

eevdf_sim *plot_data_sim(const struct plot_data *pd)
{
	return pd->built.sim;
}

bool plot_data_ok(const struct plot_data *pd)
{
	return !pd->oom;
}

static struct ptask *ptask(struct plot_data *pd, int pid)
{
	size_t old = pd->nr_task;

	if (pid < 1)
		return NULL;
	if ((size_t)pid > pd->nr_task) {
		size_t cap = pd->nr_task;

		if (!grow((void **)&pd->task, &cap, (size_t)pid,
			  sizeof(*pd->task))) {
			pd->oom = true;
			return NULL;
		}
		pd->nr_task = cap;
		for (size_t i = old; i < cap; i++)
			pd->task[i] = (struct ptask){ .woke = -1 };
	}
	return &pd->task[pid - 1];
}

static void task_name(const struct plot_data *pd, int pid, char *buf,
		      size_t len)
{
	struct eevdf_task_stats st;

	if (pd->sim && eevdf_sim_task_stats(pd->sim, (size_t)pid - 1, &st) == 0)
		snprintf(buf, len, "%s", st.name);
	else
		snprintf(buf, len, "pid %d", pid);
}

/* A task's latency group: its comm (its name less trailing [k]s), or
 * the task itself. */
static struct group *group_of(struct plot_data *pd, int pid, struct ptask *k)
{
	char name[EEVDF_NAME_MAX + 16];
	size_t n;

	if (k->group)
		return &pd->groups[k->group - 1];
	task_name(pd, pid, name, sizeof(name));
	if (pd->o.by_comm) {
		n = strlen(name);
		while (n && name[n - 1] == ']') {
			char *open = memchr(name, '[', n);
			size_t i = n - 1;

			while (i > 0 && name[i] != '[')
				i--;
			if (!open || name[i] != '[' || i == 0)
				break;
			n = i;
		}
		name[n] = '\0';
	} else {
		size_t l = strlen(name);

		snprintf(name + l, sizeof(name) - l, ":%d", pid);
	}
	for (size_t g = 0; g < pd->nr_groups; g++)
		if (strcmp(pd->groups[g].name, name) == 0) {
			k->group = (int)g + 1;
			return &pd->groups[g];
		}
	{
		size_t cap = pd->nr_groups;

		if (!grow((void **)&pd->groups, &cap, pd->nr_groups + 1,
			  sizeof(*pd->groups))) {
			pd->oom = true;
			return NULL;
		}
		/* grow() doubles: keep nr_groups exact */
		memset(&pd->groups[pd->nr_groups], 0, sizeof(pd->groups[0]));
		snprintf(pd->groups[pd->nr_groups].name,
			 sizeof(pd->groups[0].name), "%s", name);
		k->group = (int)++pd->nr_groups;
		return &pd->groups[pd->nr_groups - 1];
	}
}

static bool in_window(const struct plot_data *pd, eevdf_time a, eevdf_time b)
{
	return pd->o.to >= 0 && b > pd->o.from && a < pd->o.to;
}

/* The run of cpu's curr up to now, if it overlaps the window. */
static void close_span(struct plot_data *pd, int cpu, eevdf_time now)
{
	int pid = pd->curr[cpu];
	eevdf_time a = pd->since[cpu], b = now;
	struct ptask *k;

	if (pid < 1 || !in_window(pd, a, b) || cpu >= MAX_ROWS)
		return;
	k = ptask(pd, pid);
	if (!k)
		return;
	if (!k->key) {
		size_t cap = pd->nr_keys;

		if (!grow((void **)&pd->key_pid, &cap, pd->nr_keys + 1,
			  sizeof(*pd->key_pid))) {
			pd->oom = true;
			return;
		}
		pd->key_pid[pd->nr_keys++] = pid;
		k->key = (int)pd->nr_keys;
	}
	if (!grow((void **)&pd->spans, &pd->cap_spans, pd->nr_spans + 1,
		  sizeof(*pd->spans))) {
		pd->oom = true;
		return;
	}
	pd->spans[pd->nr_spans++] = (struct span){
		cpu, k->key - 1, a < pd->o.from ? pd->o.from : a,
		b > pd->o.to ? pd->o.to : b
	};
}

static void lag_point(struct plot_data *pd, int pid, struct ptask *k,
		      eevdf_time t, int64_t vlag, bool gap)
{
	struct lagseries *s;

	if (!k->lag) {
		if (gap || pd->nr_lags == MAX_LAG_SERIES)
			return;
		pd->lags[pd->nr_lags].pid = pid;
		k->lag = (int)++pd->nr_lags;
	}
	s = &pd->lags[k->lag - 1];
	if (!grow((void **)&s->p, &s->cap, s->n + 1, sizeof(*s->p))) {
		pd->oom = true;
		return;
	}
	s->p[s->n++] = (struct lagpt){ t, vlag, gap };
}

/* The lag CPU's queue changed: a point per task on it, a gap for those
 * that left. */
static void on_state(struct plot_data *pd, const struct eevdf_trace_event *ev)
{
	int n = eevdf_sim_rq_tasks(pd->sim, ev->cpu, NULL, 0);
	size_t cap = pd->cap_scratch;

	if (n < 0 || !grow((void **)&pd->scratch, &cap, (size_t)n + 1,
			   sizeof(*pd->scratch))) {
		pd->oom = n >= 0;
		return;
	}
	pd->cap_scratch = cap;
	eevdf_sim_rq_tasks(pd->sim, ev->cpu, pd->scratch, (size_t)n);
	for (size_t p = 0; p < pd->nr_lags; p++)
		pd->task[pd->lags[p].pid - 1].queued = false;
	for (int i = 0; i < n; i++) {
		struct eevdf_entity_state es;
		struct ptask *k = ptask(pd, pd->scratch[i]);

		if (!k || eevdf_sim_task_state(pd->sim, pd->scratch[i], &es))
			continue;
		lag_point(pd, es.pid, k, ev->time, es.vlag, false);
		k->queued = true;
	}
	for (size_t p = 0; p < pd->nr_lags; p++) {
		struct lagseries *s = &pd->lags[p];

		if (!pd->task[s->pid - 1].queued && s->n && !s->p[s->n - 1].gap)
			lag_point(pd, s->pid, &pd->task[s->pid - 1], ev->time,
				  0, true);
	}
}

void plot_data_event(void *ud, const struct eevdf_trace_event *ev)
{
	struct plot_data *pd = ud;
	struct ptask *k;

	if (ev->cpu < 0 || ev->cpu >= pd->nr_cpus)
		return;
	switch (ev->kind) {
	case EEVDF_TRACE_WAKEUP:
		if ((k = ptask(pd, ev->pid)))
			k->woke = ev->time;
		break;
	case EEVDF_TRACE_SWITCH:
		close_span(pd, ev->cpu, ev->time);
		pd->curr[ev->cpu] = ev->pid;
		pd->since[ev->cpu] = ev->time;
		k = ptask(pd, ev->pid);
		if (k && k->woke >= 0) {
			eevdf_time d = ev->time - k->woke;
			struct group *g = group_of(pd, ev->pid, k);

			k->woke = -1;
			if (!g)
				break;
			if (!grow((void **)&g->s, &g->cap, g->n + 1,
				  sizeof(*g->s))) {
				pd->oom = true;
				break;
			}
			g->s[g->n++] = d;
			if (!pd->have_worst || d > pd->worst_delay) {
				pd->have_worst = true;
				pd->worst_delay = d;
				pd->worst_end = ev->time;
				pd->worst_pid = ev->pid;
				pd->worst_cpu = ev->cpu;
			}
		}
		break;
	case EEVDF_TRACE_STATE:
		if (ev->cpu == pd->o.lag_cpu &&
		    in_window(pd, ev->time, ev->time + 1))
			on_state(pd, ev);
		break;
	default:
		break;
	}
}

void plot_data_end(struct plot_data *pd, eevdf_time now)
{
	for (int c = 0; c < pd->nr_cpus; c++) {
		close_span(pd, c, now);
		pd->curr[c] = -1;
	}
}

bool plot_data_worst(const struct plot_data *pd, int *pid, int *cpu,
		     eevdf_time *end, eevdf_time *delay)
{
	if (!pd->have_worst)
		return false;
	*pid = pd->worst_pid;
	*cpu = pd->worst_cpu;
	*end = pd->worst_end;
	*delay = pd->worst_delay;
	return true;
}

/*
 * From a little before the worst wakeup to a little after its end: the
 * delay itself plus half of it (at least 1 ms) on each side, so that the
 * picture shows what ran while the task waited and what came next.
 */
void plot_data_window(const struct plot_data *pd, eevdf_time duration,
		      eevdf_time *from, eevdf_time *to)
{
	const eevdf_time ms = EEVDF_NSEC_PER_MSEC;
	eevdf_time pad;

	if (!pd->have_worst) {
		*from = 0;
		*to = duration < 20 * ms ? duration : 20 * ms;
		return;
	}
	pad = pd->worst_delay / 2 > ms ? pd->worst_delay / 2 : ms;
	*from = pd->worst_end - pd->worst_delay - pad;
	*to = pd->worst_end + pad;
	if (*from < 0)
		*from = 0;
	if (*to > duration)
		*to = duration;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Groups by samples, most first, then by name: the ones drawn. */
static int cmp_groups(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* A delay in ns as text: us below 10 ms, else ms. */
static void fmt_delay(char *buf, size_t len, int64_t ns)
{
	if (ns < 10 * EEVDF_NSEC_PER_MSEC)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
}

/* The nearest-rank percentile p (0..1] of n sorted samples. */
static int64_t percentile(const int64_t *s, size_t n, double p)
{
	size_t r = (size_t)ceil(p * (double)n);

	return s[r ? r - 1 : 0];
}

int plot_data_latency_svg(const struct plot_data *pd, const char *title,
			  char **svg)
{
	static const double ps[] = { 0.5, 0.99, 0.999, 1.0 };
	static const char *const pn[] = { "p50", "p99", "p99.9", "max" };
	struct eevdf_plot_opts o = { .title = title,
				     .xlabel = "wakeup latency (us, log)",
				     .ylabel = "fraction of wakeups",
				     .logx = true,
				     .ymin = 0,
				     .ymax = 1 };
	struct group **order = calloc(pd->nr_groups + 1, sizeof(*order));
	size_t ns = pd->nr_groups < MAX_CDF_SERIES ? pd->nr_groups :
						     MAX_CDF_SERIES;
	struct eevdf_plot_series *s = calloc(ns + 1, sizeof(*s));
	struct eevdf_plot_point *pts = calloc((ns + 1) * (CDF_POINTS + 1),
					      sizeof(*pts));
	struct eevdf_plot_mark *marks = calloc((ns + 1) * 4, sizeof(*marks));
	char(*labels)[160] = calloc(ns + 1, sizeof(*labels));
	int rc = EEVDF_ENOMEM;

	*svg = NULL;
	if (!order || !s || !pts || !marks || !labels)
		goto out;
	for (size_t g = 0; g < pd->nr_groups; g++) {
		order[g] = &pd->groups[g];
		qsort(order[g]->s, order[g]->n, sizeof(int64_t), cmp_i64);
	}
	qsort(order, pd->nr_groups, sizeof(*order), cmp_groups);
	for (size_t i = 0; i < ns; i++) {
		const struct group *g = order[i];
		struct eevdf_plot_point *p = pts + i * (CDF_POINTS + 1);
		size_t m = g->n < CDF_POINTS ? g->n : CDF_POINTS, nm = 0;

		/* a 0 ns delay (woken and run at one instant) is drawn at
		 * 1 ns: a log axis has no 0 */
		/* from 0 at the first sample up, step by step */
		if (g->n) {
			p[0].x = (double)(g->s[0] > 0 ? g->s[0] : 1) / 1e3;
			p[0].y = 0;
		}
		for (size_t k = 0; k < m; k++) {
			size_t idx = m == g->n ? k :
						 (size_t)((double)(k + 1) *
							  (double)g->n /
							  (double)m) -
							 1;

			p[k + 1].x = (double)(g->s[idx] > 0 ? g->s[idx] : 1) /
				     1e3;
			p[k + 1].y = (double)(idx + 1) / (double)g->n;
		}
		{
			char d[4][32];
			size_t at;

			/* the marks on the curve, their values in the legend */
			for (size_t q = 0; q < 4 && g->n; q++) {
				int64_t v = percentile(g->s, g->n, ps[q]);

				fmt_delay(d[q], sizeof(d[q]), v);
				if (ps[q] == 0.999 && g->n < 1000)
					continue;
				marks[i * 4 + nm++] = (struct eevdf_plot_mark){
					(double)(v > 0 ? v : 1) / 1e3, ps[q],
					NULL
				};
			}
			at = (size_t)snprintf(labels[i], sizeof(labels[0]),
					      "%s (%zu)\n%s %s, %s %s", g->name,
					      g->n, pn[0], d[0], pn[1], d[1]);
			if (at < sizeof(labels[0]))
				snprintf(labels[i] + at, sizeof(labels[0]) - at,
					 "\n%s%s%s%s%s %s",
					 g->n >= 1000 ? pn[2] : "",
					 g->n >= 1000 ? " " : "",
					 g->n >= 1000 ? d[2] : "",
					 g->n >= 1000 ? ", " : "", pn[3], d[3]);
		}
		s[i] = (struct eevdf_plot_series){ labels[i],	  p,
						   m + 1,	  true,
						   marks + i * 4, nm };
	}
	rc = eevdf_plot_lines_svg(&o, s, ns, svg);
out:
	free(order);
	free(s);
	free(pts);
	free(marks);
	free(labels);
	return rc;
}

int plot_data_timeline_svg(const struct plot_data *pd, const char *title,
			   char **svg)
{
	struct eevdf_plot_opts o = { .title = title,
				     .xlabel = "time (ms)",
				     .xmin = (double)pd->o.from / 1e6,
				     .xmax = (double)pd->o.to / 1e6 };
	int rows = pd->nr_cpus < MAX_ROWS ? pd->nr_cpus : MAX_ROWS;
	char(*rowname)[16] = calloc((size_t)rows, sizeof(*rowname));
	const char **rowp = calloc((size_t)rows, sizeof(*rowp));
	char(*keyname)[EEVDF_NAME_MAX + 16] = calloc(pd->nr_keys + 1,
						     sizeof(*keyname));
	const char **keyp = calloc(pd->nr_keys + 1, sizeof(*keyp));
	struct eevdf_plot_span *sp = calloc(pd->nr_spans + 1, sizeof(*sp));
	int rc = EEVDF_ENOMEM;

	*svg = NULL;
	if (!rowname || !rowp || !keyname || !keyp || !sp)
		goto out;
	for (int r = 0; r < rows; r++) {
		snprintf(rowname[r], sizeof(rowname[0]), "CPU %d", r);
		rowp[r] = rowname[r];
	}
	for (size_t k = 0; k < pd->nr_keys; k++) {
		char n[EEVDF_NAME_MAX + 8];

		task_name(pd, pd->key_pid[k], n, sizeof(n));
		snprintf(keyname[k], sizeof(keyname[0]), "%s:%d", n,
			 pd->key_pid[k]);
		keyp[k] = keyname[k];
	}
	for (size_t i = 0; i < pd->nr_spans; i++)
		sp[i] = (struct eevdf_plot_span){ pd->spans[i].row,
						  (double)pd->spans[i].a / 1e6,
						  (double)pd->spans[i].b / 1e6,
						  pd->spans[i].key };
	if (o.xmax <= o.xmin)
		o.xmax = o.xmin + 1e-3;
	rc = eevdf_plot_timeline_svg(&o, rowp, (size_t)rows, keyp, pd->nr_keys,
				     sp, pd->nr_spans, svg);
out:
	free(rowname);
	free(rowp);
	free(keyname);
	free(keyp);
	free(sp);
	return rc;
}

int plot_data_lag_svg(const struct plot_data *pd, const char *title, char **svg)
{
	struct eevdf_plot_opts o = { .title = title,
				     .xlabel = "time (ms)",
				     .ylabel = "vlag = V - vruntime (us)",
				     .xmin = (double)pd->o.from / 1e6,
				     .xmax = (double)pd->o.to / 1e6 };
	struct eevdf_plot_series s[MAX_LAG_SERIES];
	char labels[MAX_LAG_SERIES][EEVDF_NAME_MAX + 16];
	struct eevdf_plot_point *pts[MAX_LAG_SERIES] = { NULL };
	int rc = EEVDF_ENOMEM;

	*svg = NULL;
	for (size_t i = 0; i < pd->nr_lags; i++) {
		const struct lagseries *l = &pd->lags[i];
		char n[EEVDF_NAME_MAX + 8];

		size_t m = l->n;

		pts[i] = calloc(l->n + 2, sizeof(**pts));
		if (!pts[i])
			goto out;
		for (size_t k = 0; k < l->n; k++)
			pts[i][k] = (struct eevdf_plot_point){
				(double)l->p[k].t / 1e6,
				l->p[k].gap ? (double)NAN :
					      (double)l->p[k].vlag / 1e3
			};
		/* the last value holds to the window's end */
		if (m && !l->p[m - 1].gap && l->p[m - 1].t < pd->o.to) {
			pts[i][m] = pts[i][m - 1];
			pts[i][m++].x = (double)pd->o.to / 1e6;
		}
		task_name(pd, l->pid, n, sizeof(n));
		snprintf(labels[i], sizeof(labels[0]), "%s:%d", n, l->pid);
		s[i] = (struct eevdf_plot_series){
			.label = labels[i], .pts = pts[i], .n = m, .steps = true
		};
	}
	if (o.xmax <= o.xmin)
		o.xmax = o.xmin + 1e-3;
	rc = eevdf_plot_lines_svg(&o, s, pd->nr_lags, svg);
out:
	for (size_t i = 0; i < pd->nr_lags; i++)
		free(pts[i]);
	return rc;
}

/* Build the run of argv with a fresh collector; an exit code. */
static int build(int argc, char **argv, const struct plot_data_opts *o,
		 struct plot_data **out)
{
	struct plot_data *pd = plot_data_new(o, EEVDF_MAX_CPUS);
	int rc;

	*out = NULL;
	if (!pd) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	rc = cli_run_build(argc, argv, plot_data_event, pd, true, &pd->built);
	if (rc != EXIT_OK) {
		plot_data_free(pd);
		return rc;
	}
	pd->nr_cpus = eevdf_sim_nr_cpus(pd->built.sim);
	plot_data_attach(pd, pd->built.sim);
	*out = pd;
	return EXIT_OK;
}

/* Run pd's simulation to until; false after printing why. */
static bool run_to(struct plot_data *pd, eevdf_time until)
{
	if (eevdf_sim_run(pd->built.sim, until) == 0)
		return true;
	cli_error("%s: simulation failed at %" PRId64 " ns: %s",
		  pd->built.workload, eevdf_sim_now(pd->built.sim),
		  eevdf_sim_errmsg(pd->built.sim));
	return false;
}

static int end_run(struct plot_data *pd, struct plot_data **out)
{
	plot_data_end(pd, eevdf_sim_now(pd->built.sim));
	if (!plot_data_ok(pd)) {
		cli_error("out of memory");
		plot_data_free(pd);
		return EXIT_USAGE;
	}
	*out = pd;
	return EXIT_OK;
}

int plot_data_window_run(int argc, char **argv, const struct plot_data_opts *o,
			 struct plot_data **out)
{
	struct plot_data *pd;
	int rc = build(argc, argv, o, &pd);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	if (o->lag_cpu >= pd->nr_cpus) {
		cli_error("--cpu: the machine has CPUs 0..%d, not %d",
			  pd->nr_cpus - 1, o->lag_cpu);
	} else if (o->to > pd->built.duration) {
		cli_error("--window: it ends after the run's end at %" PRId64
			  " ns (--duration sets it)",
			  pd->built.duration);
	} else if (o->from > 0 && !run_to(pd, o->from - 1)) {
		/* the events at from itself are the window's */
	} else if (o->lag_cpu >= 0 &&
		   eevdf_sim_trace_detail(pd->built.sim, EEVDF_DETAIL_STATE)) {
		cli_error("out of memory");
	} else if (run_to(pd, o->to)) {
		return end_run(pd, out);
	}
	plot_data_free(pd);
	return EXIT_USAGE;
}

int plot_data_full_run(int argc, char **argv, const struct plot_data_opts *o,
		       struct plot_data **out, eevdf_time *duration)
{
	struct plot_data *pd;
	int rc = build(argc, argv, o, &pd);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	if (!run_to(pd, pd->built.duration)) {
		plot_data_free(pd);
		return EXIT_USAGE;
	}
	/* where it ended: the run's length, or earlier when every task
	 * exited */
	*duration = eevdf_sim_now(pd->built.sim);
	return end_run(pd, out);
}
