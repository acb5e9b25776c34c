/* SPDX-License-Identifier: MIT */
/*
 * The CFS policy of Linux 6.1-6.5 (profile "cfs-6.1", src/sched/cfs.c) against
 * shared/reference/kernel-model.md section 9 and its test vectors TV-14,
 * TV-15, TV-16 and TV-20 (section 13), plus the feature list (8.3), the
 * buddies, yield, migration normalisation and a sleeper against a hog.
 *
 * Traces run end to end through the public API with HZ 1000, tasks
 * created at t = 0 in alphabetical order; a trace letter says which task
 * ran during each 1 ms interval.  Unit tests build one queue through the
 * class hooks, as tests/check_fair.c does for EEVDF.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace_rec.h"
#include "sched/cfs.h"
#include "sched/smp.h"
#include "engine/sim.h"

#define NS 1LL
#define MS 1000000LL
#define SEC 1000000000LL

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MS, 0, 0 },
};

static eevdf_sim *new_sim(const char *kernel, int nr_cpus, struct rec *r)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[512];

	eevdf_config_init(&cfg);
	cfg.nr_cpus = nr_cpus;
	cfg.kernel = kernel;
	cfg.check_invariants = true;
	if (r) {
		memset(r, 0, sizeof(*r));
		cfg.trace = record;
		cfg.trace_ud = r;
	}
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	return sim;
}

static void add(eevdf_sim *sim, const char *name, int nice,
		const struct eevdf_op *prog, size_t n)
{
	static const int cpu0 = 0;
	struct eevdf_task_spec s = {
		.name = name,
		.nice = nice,
		.program = prog,
		.nr_ops = n,
		.cpus = &cpu0,
		.nr_cpus = 1,
	};

	ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
}

static eevdf_time cpu_of(eevdf_sim *sim, size_t i)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
	return st.cpu_ns;
}

/* Hogs of the given nice values pinned to CPU 0 of an nr_cpus machine. */
static void hogs_trace(int nr_cpus, const int *nices, int n, char *out, int nms)
{
	static const char *const names[] = { "A", "B", "C", "D" };
	struct rec *r = malloc(sizeof(*r));
	eevdf_sim *sim;

	ck_assert_ptr_nonnull(r);
	sim = new_sim("cfs-6.1", nr_cpus, r);
	for (int i = 0; i < n; i++)
		add(sim, names[i], nices[i], hog, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, nms * MS), 0);
	trace_string(r, out, nms);
	eevdf_sim_free(sim);
	free(r);
}

/* One queue, built through the class hooks ---------------------------- */

struct h {
	eevdf_sim *sim;
	struct rq *rq;
	struct cfs_rq *cfs;
	struct task *tasks[16];
	int nr;
};

static void h_init(struct h *h, int nr_cpus)
{
	struct eevdf_config cfg;
	char err[512];

	eevdf_config_init(&cfg);
	cfg.kernel = "cfs-6.1";
	cfg.nr_cpus = nr_cpus;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &h->sim, err, sizeof(err)), 0);
	h->rq = &h->sim->sched.rqs[0];
	h->cfs = &h->rq->cfs;
	h->rq->clock = 1000 * MS;
	h->nr = 0;
}

static void h_fini(struct h *h)
{
	for (int i = 0; i < h->nr; i++)
		free(h->tasks[i]);
	eevdf_sim_free(h->sim);
}

/* A task forked onto rq (placed by init_entity, relative until queued). */
static struct task *h_task_on(struct h *h, struct rq *rq, int nice)
{
	struct task *p = calloc(1, sizeof(*p));

	ck_assert_ptr_nonnull(p);
	ck_assert_int_lt(h->nr, 16);
	h->tasks[h->nr++] = p;
	p->pid = h->nr;
	p->nice = nice;
	p->cpu = rq->cpu;
	p->policy = EEVDF_POLICY_NORMAL;
	p->sched_class = &fair_sched_class;
	p->prio = DEFAULT_PRIO + nice;
	p->state = TASK_RUNNING;
	init_entity(rq, p);
	return p;
}

static struct task *h_task(struct h *h, int nice)
{
	return h_task_on(h, h->rq, nice);
}

static void h_enqueue(struct h *h, struct task *p, unsigned int flags)
{
	enqueue_task_fair(h->rq, p, flags);
	p->on_rq = true;
}

/* Schedule as __schedule would: pick, and make the pick curr. */
static struct task *h_schedule(struct h *h)
{
	struct task *next = pick_next_task_fair(h->rq, h->rq->curr);

	h->rq->curr = next;
	h->rq->need_resched = false;
	return next;
}

static void h_check(struct h *h)
{
	const char *err = eevdf__cfs_rq_check(h->cfs);

	ck_assert_msg(err == NULL, "invariant: %s", err ? err : "");
	ck_assert_uint_eq(h->rq->nr_running, h->cfs->nr_queued);
}

/* Tunables, period, slice (9.1, 9.2, TV-2, TV-15) --------------------- */

START_TEST(cfs_tunables_scale_with_the_cpu_count)
{
	static const struct {
		int cpus;
		u64 latency, min_gran, wakeup_gran;
	} cases[] = {
		{ 1, 6000000, 750000, 1000000 },
		{ 2, 12000000, 1500000, 2000000 },
		{ 4, 18000000, 2250000, 3000000 },
		{ 8, 24000000, 3000000, 4000000 },
		{ 64, 24000000, 3000000, 4000000 },
	};
	struct h h;

	h_init(&h, cases[_i].cpus);
	ck_assert_uint_eq(h.rq->sp->sysctl_sched_latency, cases[_i].latency);
	ck_assert_uint_eq(h.rq->sp->sysctl_sched_base_slice,
			  cases[_i].min_gran);
	ck_assert_uint_eq(h.rq->sp->sysctl_sched_wakeup_granularity,
			  cases[_i].wakeup_gran);
	/* the SCHED_IDLE minimum is not scaled */
	ck_assert_uint_eq(h.rq->sp->sysctl_sched_idle_min_granularity, 750000);
	/* the period stretches beyond sched_nr_latency tasks */
	ck_assert_uint_eq(__sched_period(h.rq->sp, 8), cases[_i].latency);
	ck_assert_uint_eq(__sched_period(h.rq->sp, 9), 9 * cases[_i].min_gran);
	h_fini(&h);
}
END_TEST

/* TV-15: nice 0 + nice 5 on one queue of an 8-CPU machine split 24 ms
 * 1024 : 335; TV-14/15: two nice-0 tasks get 2999998 / 11999994 ns. */
START_TEST(cfs_sched_slice_splits_the_period_by_weight)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, 8);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	ck_assert_ptr_eq(h_schedule(&h), a);
	b = h_task(&h, 5);
	/* not yet queued: counted in as if it were (period for 2, W + w) */
	ck_assert_uint_eq(sched_slice(h.cfs, &b->se), 5916114);
	h_enqueue(&h, b, 0);
	ck_assert_uint_eq(sched_slice(h.cfs, &a->se), 18083885);
	ck_assert_uint_eq(sched_slice(h.cfs, &b->se), 5916114);
	/* the vslice is the slice in the task's virtual time */
	ck_assert_uint_eq(sched_vslice(h.cfs, &a->se), 18083885);
	ck_assert_uint_eq(sched_vslice(h.cfs, &b->se),
			  calc_delta_fair(5916114, &b->se));
	h_check(&h);
	h_fini(&h);

	h_init(&h, 8);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	b = h_task(&h, 0);
	h_enqueue(&h, b, 0);
	ck_assert_uint_eq(sched_slice(h.cfs, &a->se), 11999994);
	h_fini(&h);

	h_init(&h, 1);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	b = h_task(&h, 0);
	h_enqueue(&h, b, 0);
	ck_assert_uint_eq(sched_slice(h.cfs, &a->se), 2999998);
	h_fini(&h);
}
END_TEST

/* BASE_SLICE: a light task on a crowded queue still gets min_gran. */
START_TEST(cfs_base_slice_floors_the_slice)
{
	struct h h;
	struct task *p[10];

	h_init(&h, 1);
	for (int i = 0; i < 10; i++) {
		p[i] = h_task(&h, i == 9 ? 19 : 0);
		h_enqueue(&h, p[i], 0);
	}
	/* 10 > sched_nr_latency: period 10 x 0.75 ms; nice 19 would get
	 * 7.5 ms x 15 / 9231 = 12186 ns */
	ck_assert_uint_eq(sched_slice(h.cfs, &p[9]->se), 750000);
	ck_assert_uint_gt(sched_slice(h.cfs, &p[0]->se), 750000);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* Placement (9.4, TV-14, TV-16) ---------------------------------------- */

/* TV-14: A runs at v; the task created next starts one vslice later. */
START_TEST(cfs_start_debit_places_a_new_task_one_vslice_right)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, 1);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	ck_assert_ptr_eq(h_schedule(&h), a);
	b = h_task(&h, 0);
	ck_assert(b->se.vrel);
	h_enqueue(&h, b, 0);
	ck_assert(!b->se.vrel);
	ck_assert_int_eq((s64)(b->se.vruntime - a->se.vruntime), 2999998);
	/* min_vruntime is A's */
	ck_assert_uint_eq(h.cfs->v0, a->se.vruntime);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/*
 * TV-16 on an 8-CPU machine: a task waking after a long sleep is placed
 * at min_vruntime - 12 ms (half of the 24 ms latency) and, curr being at
 * min_vruntime, preempts (12 ms > wakeup_gran 4 ms).  A nice-5 wakee
 * needs vdiff > 12226865 ns, so the same 12 ms credit is not enough.
 */
START_TEST(cfs_sleeper_credit_and_wakeup_preemption)
{
	struct h h;
	struct task *a, *b;
	u64 mv;

	for (int nice5 = 0; nice5 < 2; nice5++) {
		h_init(&h, 8);
		a = h_task(&h, 0);
		h_enqueue(&h, a, 0);
		b = h_task(&h, nice5 ? 5 : 0);
		h_enqueue(&h, b, 0);
		ck_assert_ptr_eq(h_schedule(&h), a);
		/* B sleeps for long while A runs */
		dequeue_task_fair(h.rq, b, DEQUEUE_SLEEP);
		b->on_rq = false;
		h.rq->clock += 500 * MS;
		task_tick_fair(h.rq, a, false);
		mv = h.cfs->v0;
		ck_assert_uint_eq(mv, a->se.vruntime);
		h_enqueue(&h, b, ENQUEUE_WAKEUP);
		ck_assert_int_eq((s64)(mv - b->se.vruntime), 12 * MS);
		check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
		ck_assert_int_eq(h.rq->need_resched, !nice5);
		if (!nice5) {
			/* the wakee is the next buddy; with 2 < 8 tasks the
			 * preempted curr is not remembered as last */
			ck_assert_ptr_eq(h.cfs->next, &b->se);
			ck_assert_ptr_null(h.cfs->last);
			ck_assert_ptr_eq(h_schedule(&h), b);
			ck_assert_ptr_null(h.cfs->next);
		} else {
			ck_assert_uint_eq(wakeup_gran(&b->se), 12226865);
		}
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/* wakeup_preempt_entity() at the nice-5 threshold of TV-16. */
START_TEST(cfs_wakeup_preempt_entity_thresholds)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, 8);
	a = h_task(&h, 0);
	b = h_task(&h, 5);
	a->se.vruntime = 100 * MS;
	b->se.vruntime = 100 * MS - 12226865;
	ck_assert_int_eq(wakeup_preempt_entity(&a->se, &b->se), 0);
	b->se.vruntime--;
	ck_assert_int_eq(wakeup_preempt_entity(&a->se, &b->se), 1);
	b->se.vruntime = 100 * MS;
	ck_assert_int_eq(wakeup_preempt_entity(&a->se, &b->se), -1);
	/* nice-0 wakee: 4 ms */
	ck_assert_uint_eq(wakeup_gran(&a->se), 4 * MS);
	h_fini(&h);
}
END_TEST

/* A short sleeper keeps its vruntime: the credit never moves it left. */
START_TEST(cfs_short_sleeper_keeps_its_vruntime)
{
	struct h h;
	struct task *a, *b;
	u64 v;

	h_init(&h, 8);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	b = h_task(&h, 0);
	h_enqueue(&h, b, 0);
	ck_assert_ptr_eq(h_schedule(&h), a);
	dequeue_task_fair(h.rq, b, DEQUEUE_SLEEP);
	b->on_rq = false;
	v = b->se.vruntime;
	h.rq->clock += 2 * MS;
	h_enqueue(&h, b, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(b->se.vruntime, v);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* 9.4: a move keeps the distance to min_vruntime, not the vruntime. */
START_TEST(cfs_migration_is_relative_to_min_vruntime)
{
	struct h h;
	struct rq *dst;
	struct task *a, *b, *c;
	s64 rel;

	h_init(&h, 2);
	dst = &h.sim->sched.rqs[1];
	dst->clock = h.rq->clock;
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	b = h_task(&h, 0);
	h_enqueue(&h, b, 0);
	ck_assert_ptr_eq(h_schedule(&h), a);
	h.rq->clock += 5 * MS;
	task_tick_fair(h.rq, a, false);
	rel = (s64)(b->se.vruntime - h.cfs->v0);
	/* load-balancer style: dequeue, set_task_cpu, enqueue */
	dequeue_task_fair(h.rq, b, 0);
	ck_assert(b->se.vrel);
	ck_assert_int_eq((s64)b->se.vruntime, rel);
	set_task_cpu(&h.sim->sched, b, 1);
	ck_assert_int_eq((s64)b->se.vruntime, rel);
	enqueue_task_fair(dst, b, ENQUEUE_MIGRATED);
	ck_assert(!b->se.vrel);
	ck_assert_int_eq((s64)(b->se.vruntime - dst->cfs.v0), rel);
	ck_assert_uint_eq(b->se.exec_start, 0);
	ck_assert_ptr_null(eevdf__cfs_rq_check(&dst->cfs));

	/* a sleeper migrated at wakeup: absolute until set_task_cpu() */
	c = h_task(&h, 0);
	h_enqueue(&h, c, 0);
	dequeue_task_fair(h.rq, c, DEQUEUE_SLEEP);
	c->on_rq = false;
	ck_assert(!c->se.vrel);
	rel = (s64)(c->se.vruntime - h.cfs->v0);
	set_task_cpu(&h.sim->sched, c, 1);
	ck_assert(c->se.vrel);
	ck_assert_int_eq((s64)c->se.vruntime, rel);
	enqueue_task_fair(dst, c, ENQUEUE_WAKEUP | ENQUEUE_MIGRATED);
	/* re-based, then the sleeper credit floor (6 ms on 2 CPUs) */
	ck_assert_int_eq((s64)(c->se.vruntime - dst->cfs.v0),
			 rel > -6 * MS ? rel : -6 * MS);
	ck_assert_ptr_null(eevdf__cfs_rq_check(&dst->cfs));
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* Pick with buddies (9.7) ---------------------------------------------- */

/* yield(): the next pick skips the yielder for the entity after it. */
START_TEST(cfs_yield_makes_the_yielder_the_skip_buddy)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, 1);
	a = h_task(&h, 0);
	h_enqueue(&h, a, 0);
	b = h_task(&h, 0);
	h_enqueue(&h, b, 0);
	ck_assert_ptr_eq(h_schedule(&h), a);
	/* A is far left of B (B started one vslice right) */
	yield_task_fair(h.rq);
	ck_assert_ptr_eq(h.cfs->skip, &a->se);
	/* B is 2999998 ns right of A, more than the 1 ms granularity:
	 * the skip is refused as too unfair */
	ck_assert_ptr_eq(h_schedule(&h), a);
	h.rq->clock += 2500000;
	task_tick_fair(h.rq, a, false);
	/* now B is within a granularity of A: the yield takes effect */
	yield_task_fair(h.rq);
	ck_assert_ptr_eq(h_schedule(&h), b);
	/* the skip buddy stays until its task is picked or leaves */
	ck_assert_ptr_eq(h.cfs->skip, &a->se);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/*
 * With >= sched_nr_latency tasks a preempting wakee becomes next and the
 * preempted task last (TV-16); next wins the pick while within a
 * granularity of the leftmost.  The tasks start 0.1 ms apart.
 */
START_TEST(cfs_next_and_last_buddies_on_a_crowded_queue)
{
	struct h h;
	struct task *p[8], *w;

	h_init(&h, 8);
	for (int i = 0; i < 8; i++) {
		p[i] = h_task(&h, 0);
		/* relative to min_vruntime until the enqueue */
		p[i]->se.vruntime = (u64)i * 100000;
		h_enqueue(&h, p[i], 0);
	}
	ck_assert_ptr_eq(h_schedule(&h), p[0]);
	w = p[7];
	dequeue_task_fair(h.rq, w, DEQUEUE_SLEEP);
	w->on_rq = false;
	h.rq->clock += 10 * MS;
	task_tick_fair(h.rq, p[0], false);
	/* the tick found curr 10 ms ahead after 10 ms > ideal 3 ms */
	ck_assert(h.rq->need_resched);
	h.rq->need_resched = false;
	h_enqueue(&h, w, ENQUEUE_WAKEUP);
	/* a short sleep: no credit, w keeps its place 0.7 ms right */
	ck_assert_int_eq((s64)(w->se.vruntime - p[1]->se.vruntime), 600000);
	check_preempt_wakeup_fair(h.rq, w, WF_TTWU);
	ck_assert(h.rq->need_resched);
	ck_assert_ptr_eq(h.cfs->next, &w->se);
	ck_assert_ptr_eq(h.cfs->last, &p[0]->se);
	/* next is 0.6 ms right of the leftmost (p[1]): within 4 ms */
	ck_assert_ptr_eq(h_schedule(&h), w);
	ck_assert_ptr_null(h.cfs->next);
	ck_assert_ptr_eq(h.cfs->last, &p[0]->se);
	h_check(&h);
	/* the last buddy leaves with its task */
	dequeue_task_fair(h.rq, p[0], 0);
	p[0]->on_rq = false;
	ck_assert_ptr_null(h.cfs->last);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* End-to-end traces (TV-14, TV-15) -------------------------------------- */

/* TV-14, one CPU: latency 6 ms, 3-tick turns (3000000 > 2999998). */
START_TEST(tv14_two_equal_tasks_on_one_cpu)
{
	static const int nices[] = { 0, 0 };
	char t[64];

	hogs_trace(1, nices, 2, t, 24);
	ck_assert_str_eq(t, "AAABBBAAABBBAAABBBAAABBB");
}
END_TEST

START_TEST(tv14_nice_0_against_nice_5_on_one_cpu)
{
	static const int nices[] = { 0, 5 };
	char t[64];

	hogs_trace(1, nices, 2, t, 26);
	ck_assert_str_eq(t, "AAAAABAAAAABBAAAAABAAAAABB");
}
END_TEST

/* TV-15: 8-CPU machine, both pinned to CPU 0: ideal 11999994 ns, so each
 * runs 12 ticks (12 ms > ideal, 11 ms is not). */
START_TEST(tv15_two_equal_tasks_on_an_eight_cpu_machine)
{
	static const int nices[] = { 0, 0 };
	char t[64], want[64];

	for (int k = 0; k < 48; k++)
		want[k] = (k / 12) % 2 ? 'B' : 'A';
	want[48] = '\0';
	hogs_trace(8, nices, 2, t, 48);
	ck_assert_str_eq(t, want);
}
END_TEST

/* Long-run shares (TV-14, TV-20) ---------------------------------------- */

static const int share_pairs[][2] = {
	{ 0, 5 }, { 0, 0 }, { -5, 0 }, { 0, 10 }, { -3, 3 }, { 0, 1 },
};

/*
 * TV-20: two always-runnable tasks converge to their weight ratio under
 * CFS as under EEVDF (TV-14: nice 0 vs 5 is 75.35 %), within 0.1 %, over
 * 100 s on one CPU and on CPU 0 of an 8-CPU machine.
 */
START_TEST(tv20_cfs_shares_follow_the_weights)
{
	const int *nices = share_pairs[_i / 2];
	int cpus = _i % 2 ? 8 : 1;
	eevdf_sim *sim = new_sim("cfs-6.1", cpus, NULL);
	eevdf_time a, b;
	double got, want;

	add(sim, "A", nices[0], hog, 2);
	add(sim, "B", nices[1], hog, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * SEC), 0);
	a = cpu_of(sim, 0);
	b = cpu_of(sim, 1);
	ck_assert_int_eq(a + b, 100 * SEC);
	got = (double)a / (double)(a + b);
	want = (double)eevdf__prio_to_weight[nices[0] + 20] /
	       (double)(eevdf__prio_to_weight[nices[0] + 20] +
			eevdf__prio_to_weight[nices[1] + 20]);
	ck_assert_msg(got / want > 0.999 && got / want < 1.001,
		      "nice %d vs %d on %d CPUs: share %.6f, weights %.6f",
		      nices[0], nices[1], cpus, got, want);
	if (nices[0] == 0 && nices[1] == 5) {
		/* TV-14: 75.35 % */
		ck_assert_msg(got > 0.7535 - 0.001 && got < 0.7535 + 0.001,
			      "share %.6f", got);
	}
	eevdf_sim_free(sim);
}
END_TEST

/* Run workloads/sleeper-vs-hog.json on one CPU for 20 s: the sleeper's
 * CPU time. */
static eevdf_time sleeper_vs_hog(const char *kernel)
{
	struct eevdf_load_opts o = { .ncpus = 1 };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	char err[256];
	eevdf_time s, hg;

	ck_assert_msg(
		eevdf_workload_load_file_opts("workloads/sleeper-vs-hog.json",
					      &o, &wl, &d) == 0,
		"%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.nr_cpus = 1;
	cfg.kernel = kernel;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 20 * SEC), 0);
	s = cpu_of(sim, 0);
	hg = cpu_of(sim, 1);
	ck_assert_int_eq(s + hg, 20 * SEC);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return s;
}

/*
 * massive_intr (run 8 ms, sleep 1 ms) against a hog on one CPU.
 *
 * 6.18 gives no sleeper bonus: the sleeper keeps its lag across its short
 * sleeps, and while it sleeps the hog runs alone and ahead, so the
 * sleeper ends up a little below half: 9415 ms of 20 s (47.1 %, close to
 * 8/17, i.e. the sleeper's 8 ms of work against about 9 ms of the hog's
 * per cycle).
 *
 * CFS credits a wakeup with up to half a latency period against
 * min_vruntime (GENTLE_FAIR_SLEEPERS), and the hog drags min_vruntime
 * along while the sleeper sleeps; a 1 ms sleep therefore costs the sleeper
 * no standing at all: it wakes at or left of the hog, and the two split
 * the CPU evenly (10001 ms; the hog has 3-tick turns at 6 ms latency, the
 * sleeper waits at most 3 ms).
 */
START_TEST(cfs_sleeper_against_a_hog_gets_half)
{
	eevdf_time cfs = sleeper_vs_hog("cfs-6.1"),
		   eevdf = sleeper_vs_hog("6.18");

	ck_assert_msg(cfs > 9990 * MS && cfs < 10010 * MS,
		      "CFS sleeper got %lld ns", (long long)cfs);
	ck_assert_msg(eevdf > 9380 * MS && eevdf < 9450 * MS,
		      "6.18 sleeper got %lld ns", (long long)eevdf);
}
END_TEST

/* Feature list (8.3) ---------------------------------------------------- */

START_TEST(cfs_profile_lists_exactly_the_cfs_era_features)
{
	static const struct {
		const char *name;
		bool on;
	} want[] = {
		{ "GENTLE_FAIR_SLEEPERS", true },
		{ "START_DEBIT", true },
		{ "NEXT_BUDDY", false },
		{ "LAST_BUDDY", true },
		{ "CACHE_HOT_BUDDY", true },
		{ "WAKEUP_PREEMPTION", true },
		{ "HRTICK", false },
		{ "HRTICK_DL", false },
		{ "DOUBLE_TICK", false },
		{ "NONTASK_CAPACITY", true },
		{ "TTWU_QUEUE", true },
		{ "SIS_PROP", false },
		{ "SIS_UTIL", true },
		{ "WARN_DOUBLE_CLOCK", false },
		{ "RT_PUSH_IPI", true },
		{ "RT_RUNTIME_SHARE", false },
		{ "LB_MIN", false },
		{ "ATTACH_AGE_LOAD", true },
		{ "WA_IDLE", true },
		{ "WA_WEIGHT", true },
		{ "WA_BIAS", true },
		{ "UTIL_EST", true },
		{ "UTIL_EST_FASTUP", true },
		{ "LATENCY_WARN", false },
		{ "ALT_PERIOD", true },
		{ "BASE_SLICE", true },
	};
	uint64_t mask;
	size_t listed = 0;

	ck_assert_int_eq(eevdf_profile_features("cfs-6.1", &mask), 0);
	for (size_t i = 0; i < eevdf_feature_count(); i++)
		listed += eevdf_feature_in_profile("cfs-6.1", i);
	ck_assert_uint_eq(listed, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		int k = eevdf_feature_index(want[i].name);

		ck_assert_msg(k >= 0, "%s", want[i].name);
		ck_assert_msg(eevdf_feature_in_profile("cfs-6.1", (size_t)k),
			      "%s not listed", want[i].name);
		ck_assert_msg(((mask >> k) & 1u) == want[i].on, "%s default",
			      want[i].name);
	}
	/* and the CFS-only flags are in no EEVDF profile */
	for (size_t i = 0; i < eevdf_profile_count(); i++) {
		const char *k = eevdf_profile_name(i);

		if (strcmp(k, "cfs-6.1") == 0)
			continue;
		ck_assert(!eevdf_feature_in_profile(
			k, (size_t)eevdf_feature_index("START_DEBIT")));
		ck_assert(!eevdf_feature_in_profile(
			k,
			(size_t)eevdf_feature_index("GENTLE_FAIR_SLEEPERS")));
	}
	ck_assert_str_eq(eevdf_profile_default(), "6.18");
}
END_TEST

/* Invariants hold through an SMP workload with balancing and migration. */
START_TEST(cfs_invariants_hold_on_a_busy_smp_machine)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[512];
	static const struct eevdf_op bursty[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 3 * MS, 0, 0 },
		{ EEVDF_OP_SLEEP, 2 * MS, 0, 0 },
	};

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 4;
	cfg.kernel = "cfs-6.1";
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	for (int i = 0; i < 10; i++) {
		struct eevdf_task_spec s = {
			.name = "t",
			.nice = i % 3 - 1,
			.program = i % 2 ? hog : bursty,
			.nr_ops = i % 2 ? 2 : 3,
		};

		ck_assert_int_gt(eevdf_sim_add_task(sim, &s), 0);
	}
	ck_assert_msg(eevdf_sim_run(sim, 2 * SEC) == 0, "%s",
		      eevdf_sim_errmsg(sim));
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Every shipped workload runs under cfs-6.1 with the invariant checker on
 * after every event (run queues, trees, buddies, relative vruntimes):
 * forks, sleeps, wakeups across CPUs, balancing, affinity, yield, nice
 * changes.  Short runs on 1, 4 and 8 CPUs.
 */
static const char *const shipped[] = {
	"blogbench",	  "blogbench-coarse",
	"cyclictest",	  "dbench",
	"desktop",	  "desktop-video",
	"hackbench",	  "massive_intr",
	"nice-mix",	  "pipe",
	"rtapp-mixed",	  "schbench",
	"sleeper-vs-hog", "spawn",
	"starve",	  "stress-futex",
	"tbench",	  "two-hogs",
};

START_TEST(cfs_runs_every_shipped_workload_with_invariants)
{
	static const int ncpus[] = { 1, 4, 8 };
	/*
	 * One workload on one CPU count per iteration, so each run has the
	 * case's whole timeout.  blogbench-coarse reads with blogbench
	 * 1.1's 64 KiB buffer: its default 8-byte reads (1.2) are 0.3 us
	 * run ops that make 7 million events on 8 CPUs, every one followed
	 * by the full check (40 s of CPU under ASan, past the timeout on a
	 * busy machine), and 64 KiB reads run the same ops, fewer times.
	 */
	static const char *const coarse_params[] = { "read_chunk=65536" };
	const char *name = shipped[_i / (int)ARRAY_SIZE(ncpus)];
	int nr_cpus = ncpus[_i % (int)ARRAY_SIZE(ncpus)];
	struct eevdf_load_opts o = { .ncpus = nr_cpus };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	char path[128];
	char err[256];
	eevdf_time until;

	if (strcmp(name, "blogbench-coarse") == 0) {
		o.params = coarse_params;
		o.nr_params = ARRAY_SIZE(coarse_params);
	}
	snprintf(path, sizeof(path), "workloads/%s.json", name);
	ck_assert_msg(eevdf_workload_load_file_opts(path, &o, &wl, &d) == 0,
		      "%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.nr_cpus = nr_cpus;
	cfg.kernel = "cfs-6.1";
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	until = eevdf_workload_duration(wl);
	if (until <= 0 || until > 300 * MS)
		until = 300 * MS;
	ck_assert_msg(eevdf_sim_run(sim, until) == 0, "%s, %d CPUs: %s", name,
		      nr_cpus, eevdf_sim_errmsg(sim));
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

Suite *cfs_suite(void)
{
	Suite *s = suite_create("cfs");
	TCase *tc = tcase_create("cfs");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, cfs_tunables_scale_with_the_cpu_count, 0, 5);
	tcase_add_test(tc, cfs_sched_slice_splits_the_period_by_weight);
	tcase_add_test(tc, cfs_base_slice_floors_the_slice);
	tcase_add_test(tc, cfs_start_debit_places_a_new_task_one_vslice_right);
	tcase_add_test(tc, cfs_sleeper_credit_and_wakeup_preemption);
	tcase_add_test(tc, cfs_wakeup_preempt_entity_thresholds);
	tcase_add_test(tc, cfs_short_sleeper_keeps_its_vruntime);
	tcase_add_test(tc, cfs_migration_is_relative_to_min_vruntime);
	tcase_add_test(tc, cfs_yield_makes_the_yielder_the_skip_buddy);
	tcase_add_test(tc, cfs_next_and_last_buddies_on_a_crowded_queue);
	tcase_add_test(tc, tv14_two_equal_tasks_on_one_cpu);
	tcase_add_test(tc, tv14_nice_0_against_nice_5_on_one_cpu);
	tcase_add_test(tc, tv15_two_equal_tasks_on_an_eight_cpu_machine);
	tcase_add_loop_test(tc, tv20_cfs_shares_follow_the_weights, 0,
			    2 * (int)ARRAY_SIZE(share_pairs));
	tcase_add_test(tc, cfs_sleeper_against_a_hog_gets_half);
	tcase_add_test(tc, cfs_profile_lists_exactly_the_cfs_era_features);
	tcase_add_test(tc, cfs_invariants_hold_on_a_busy_smp_machine);
	tcase_add_loop_test(tc, cfs_runs_every_shipped_workload_with_invariants,
			    0, 3 * (int)ARRAY_SIZE(shipped));
	suite_add_tcase(s, tc);
	return s;
}
