/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the EEVDF mechanisms on one cfs_rq, against the worked
 * numbers of shared/reference/kernel-model.md section 13 (TV-6 .. TV-13)
 * and kernel-6.18y.md section 4 (6.18.y changes, the fork and reaping
 * vectors), and simulator-notes.md TV-21.
 *
 * Each test builds the queue of a worked example directly: tasks are
 * created with init_entity(), queued through the kernel paths or, where
 * an example fixes vruntimes and deadlines, inserted as they are.  All
 * virtual times are offsets from an arbitrary base V0; decisions do not
 * depend on it.
 */
#include <stdlib.h>

#include "suites.h"
#include "sched/fair.h"
#include "engine/sim.h"

#define US 1000ull
#define MS 1000000ull
#define V0 (1000 * MS)

struct h {
	eevdf_sim *sim;
	struct rq *rq;
	struct cfs_rq *cfs;
	struct task *tasks[8];
	int nr;
};

static void h_init(struct h *h, const char *kernel, int nr_cpus, int hz,
		   eevdf_time base_slice, const char *features)
{
	struct eevdf_config cfg;
	char err[512];

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	cfg.nr_cpus = nr_cpus;
	cfg.hz = hz;
	cfg.base_slice = base_slice;
	if (features)
		ck_assert_int_eq(eevdf_config_set_features(&cfg, features, err,
							   sizeof(err)),
				 0);
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

static struct task *h_task(struct h *h, int nice, u64 custom_slice)
{
	struct task *p = calloc(1, sizeof(*p));

	ck_assert_ptr_nonnull(p);
	ck_assert_int_lt(h->nr, 8);
	h->tasks[h->nr++] = p;
	p->pid = h->nr;
	p->nice = nice;
	p->policy = EEVDF_POLICY_NORMAL;
	p->state = TASK_RUNNING;
	p->sched_class = &fair_sched_class;
	p->prio = DEFAULT_PRIO + nice;
	if (custom_slice) {
		p->se.custom_slice = true;
		p->se.slice = custom_slice;
	}
	init_entity(h->rq, p);
	return p;
}

/* enqueue_task_fair() with the given flags (a fork, a wakeup, ...). */
static void h_enqueue(struct h *h, struct task *p, unsigned int flags)
{
	enqueue_task_fair(h->rq, p, flags);
	p->on_rq = true;
}

/* Queue an entity with the vruntime, deadline and slice of an example. */
static void h_insert(struct h *h, struct task *p, u64 v, u64 d)
{
	p->se.vruntime = v;
	p->se.deadline = d;
	eevdf__cfs_rq_insert_raw(h->cfs, &p->se);
	p->on_rq = true;
	h->rq->nr_running++;
}

/* Make a queued task the running one, as a pick would. */
static void h_run(struct h *h, struct task *p)
{
	if (h->rq->curr)
		put_prev_entity(h->cfs, &h->rq->curr->se);
	set_next_entity(h->cfs, &p->se, true);
	h->rq->curr = p;
}

/* Fork a task onto the queue and make it the running one, as of now. */
static void h_start(struct h *h, struct task *p)
{
	h_enqueue(h, p, ENQUEUE_INITIAL);
	h_run(h, p);
	p->se.exec_start = h->rq->clock;
}

/* Give the running task the numbers of an example (curr is outside the
 * tree and the sums, so this needs no requeue). */
static void h_set_curr(struct task *p, u64 v, u64 d, u64 vprot)
{
	p->se.vruntime = v;
	p->se.deadline = d;
	p->se.vprot = vprot;
}

static void h_advance(struct h *h, u64 ns)
{
	h->rq->clock += ns;
}

/* The queue's invariants (the harness runs no ticks, so not the rq's). */
static void h_check(struct h *h)
{
	const char *err = eevdf__cfs_rq_check(h->cfs);

	ck_assert_msg(err == NULL, "invariant: %s", err ? err : "");
	ck_assert_uint_eq(h->rq->nr_running, h->cfs->nr_queued);
}

/* TV-6: V is the floor of the weighted mean; an entity at V is eligible. */
START_TEST(avg_vruntime_floors_the_mean)
{
	static const struct {
		s64 keys[3];
		int n;
		s64 v;
	} cases[] = {
		{ { -1, 0, 0 }, 2, -1 }, { { 1, 0, 0 }, 2, 0 },
		{ { -3, 0, 0 }, 3, -1 }, { { -2, 0, 0 }, 2, -1 },
		{ { -5, 1, 1 }, 3, -1 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct h h;
		u64 v0, v;

		h_init(&h, "6.17", 1, 1000, 0, NULL);
		v0 = h.cfs->v0;
		for (int i = 0; i < cases[c].n; i++) {
			struct task *p = h_task(&h, 0, 0);

			h_insert(&h, p, v0 + (u64)cases[c].keys[i],
				 v0 + 5 * MS);
		}
		v = avg_vruntime_peek(h.cfs);
		ck_assert_int_eq((s64)(v - v0), cases[c].v);
		/* the entity whose vruntime is exactly V is eligible */
		for (int i = 0; i < cases[c].n; i++) {
			struct sched_entity *se = &h.tasks[i]->se;

			ck_assert_int_eq(entity_eligible(h.cfs, se),
					 (s64)(se->vruntime - v) <= 0);
		}
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/* TV-7: placement inflates the saved lag by (W + w) / W. */
START_TEST(place_entity_inflates_lag_so_it_is_preserved)
{
	static const struct {
		int others; /* nice-0 entities already queued */
		int nice;   /* of the placed entity */
		s64 vlag;
		s64 placed; /* V - v after placement */
		s64 after;  /* V' - v after the insertion */
	} cases[] = {
		{ 1, 0, 1000000, 2000000, 1000000 },
		{ 1, 0, -2000000, -4000000, -2000000 },
		{ 2, 0, 1000000, 1500000, 1000000 },
		/* 1e6 * (1024 + 335) / 1024 = 1327148.4 */
		{ 1, 5, 1000000, 1327148, 999999 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct h h;
		struct task *curr, *p;
		u64 v;

		h_init(&h, "6.18", 8, 1000, 0, NULL);
		curr = h_task(&h, 0, 0);
		h_start(&h, curr);
		curr->se.vruntime = V0;
		if (cases[c].others == 2)
			h_insert(&h, h_task(&h, 0, 0), V0, V0 + 2 * MS);
		v = avg_vruntime_peek(h.cfs);
		ck_assert_uint_eq(v, V0);
		p = h_task(&h, cases[c].nice, 0);
		p->se.vlag = cases[c].vlag;
		h_enqueue(&h, p, ENQUEUE_WAKEUP);
		ck_assert_int_eq((s64)(v - p->se.vruntime), cases[c].placed);
		ck_assert_int_eq(
			(s64)(avg_vruntime_peek(h.cfs) - p->se.vruntime),
			cases[c].after);
		if (c == 0) /* with a 2.8 ms slice: d = V + 0.8 ms */
			ck_assert_uint_eq(p->se.deadline, V0 + 800 * US);
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/*
 * TV-7 clamps.  6.17: cdf(max(2 * slice, tick)); 6.18.17+:
 * cdf(max slice on the queue + tick).
 */
struct clamp_case {
	const char *kernel;
	int hz;
	eevdf_time base;
	int nice;
	s64 limit;
};

static const struct clamp_case clamp_cases[] = {
	{ "6.17", 1000, 0, 0, 5600000 },
	{ "6.17", 1000, 0, 5, 17117612 },
	{ "6.17", 1000, 0, -5, 1837359 },
	{ "6.17", 1000, 3000000, 0, 6000000 },
	{ "6.17", 1000, 3000000, 19, 409599999 },
	{ "6.17", 1000, 3000000, -20, 69219 },
	{ "6.19", 1000, 0, 0, 5600000 },
	{ "6.19", 250, 0, 5, 17117612 },
	{ "6.18", 1000, 0, 0, 3800000 },
	{ "6.18", 1000, 0, 5, 11615522 },
	{ "6.18", 1000, 0, -5, 1246779 },
	{ "6.18", 1000, 3000000, 0, 4000000 },
	{ "6.18", 1000, 3000000, 19, 273066666 },
	{ "6.18", 1000, 3000000, -20, 46146 },
	{ "6.18", 250, 0, 0, 6800000 },
	{ "6.18", 250, 0, 5, 20785671 },
	{ "6.18", 250, 3000000, 0, 7000000 },
};

START_TEST(update_entity_lag_clamps_per_profile)
{
	const struct clamp_case *c = &clamp_cases[_i];

	for (int sign = -1; sign <= 1; sign += 2) {
		struct h h;
		struct task *curr, *p;

		h_init(&h, c->kernel, 8, c->hz, c->base, NULL);
		curr = h_task(&h, 0, 0);
		h_start(&h, curr);
		curr->se.vruntime = V0;
		p = h_task(&h, c->nice, 0);
		/* far beyond any bound, on either side of V */
		h_insert(&h, p, V0 - (u64)(sign * 10000 * (s64)MS), V0);
		update_entity_lag(h.cfs, &p->se);
		ck_assert_int_eq(p->se.vlag, sign * c->limit);
		h_fini(&h);
	}
}
END_TEST

/*
 * The tree's slice bounds (32 bits each, see struct sched_entity) at the
 * clamp's limits: custom slices of 100 us and 100 ms, and between them.
 * Deadlines ascend, so each insert appends on the right and rotates: the
 * bounds must follow the rotations.  Expected: the min and max of the
 * slices inserted so far.
 */
START_TEST(tree_slice_bounds_follow_inserts_at_the_clamp_limits)
{
	static const u64 slice[] = { 3 * MS,   100 * US, 100 * MS, 750 * US,
				     100 * MS, 100 * US, 2 * MS,   50 * MS };
	static const u64 lo[] = { 3 * MS,   100 * US, 100 * US, 100 * US,
				  100 * US, 100 * US, 100 * US, 100 * US };
	static const u64 hi[] = { 3 * MS,   3 * MS,   100 * MS, 100 * MS,
				  100 * MS, 100 * MS, 100 * MS, 100 * MS };
	struct h h;

	h_init(&h, "6.18", 1, 1000, 0, NULL);
	for (int i = 0; i < 8; i++) {
		struct task *p = h_task(&h, 0, slice[i]);

		h_insert(&h, p, V0, V0 + (u64)(i + 1) * MS);
		ck_assert_uint_eq(cfs_rq_min_slice(h.cfs), lo[i]);
		ck_assert_uint_eq(cfs_rq_max_slice(h.cfs), hi[i]);
	}
	ck_assert_ptr_null(eevdf__cfs_rq_check(h.cfs));
	h_fini(&h);
}
END_TEST

/* TV-7: vlag -10 ms saved at a real sleep is clamped (DELAY_DEQUEUE off). */
START_TEST(sleep_saves_clamped_negative_lag)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.17", 8, 1000, 0, "NO_DELAY_DEQUEUE");
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, a);
	a->se.vruntime = V0 + 10 * MS;
	h_insert(&h, b, V0 - 10 * MS, V0);
	/* V = V0: a sleeps with vlag -10 ms, saved as -5.6 ms */
	ck_assert(dequeue_task_fair(h.rq, a, DEQUEUE_SLEEP));
	ck_assert_int_eq(a->se.vlag, -5600000);
	ck_assert(!a->se.on_rq);
	h_fini(&h);
}
END_TEST

/* TV-8: a new task's first deadline is half a request away. */
START_TEST(new_task_gets_half_a_slice_deadline)
{
	static const struct {
		eevdf_time base;
		int nice;
		const char *features;
		u64 d;
	} cases[] = {
		{ 0, 0, NULL, 1400000 },
		{ 3000000, 0, NULL, 1500000 },
		{ 0, 5, NULL, 4279403 },
		{ 0, -5, NULL, 459339 },
		{ 0, 0, "NO_PLACE_DEADLINE_INITIAL", 2800000 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct h h;
		struct task *curr, *p;

		h_init(&h, "6.18", 8, 1000, cases[c].base, cases[c].features);
		curr = h_task(&h, 0, 0);
		h_start(&h, curr);
		curr->se.vruntime = V0;
		p = h_task(&h, cases[c].nice, 0);
		h_enqueue(&h, p, ENQUEUE_INITIAL);
		ck_assert_uint_eq(p->se.vruntime, V0);
		ck_assert_uint_eq(p->se.deadline - V0, cases[c].d);
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/* NO_PLACE_LAG joins at V whatever the saved lag (strategy #2). */
START_TEST(no_place_lag_joins_at_v)
{
	struct h h;
	struct task *curr, *p;

	h_init(&h, "6.18", 8, 1000, 0, "NO_PLACE_LAG");
	curr = h_task(&h, 0, 0);
	h_start(&h, curr);
	curr->se.vruntime = V0;
	p = h_task(&h, 0, 0);
	p->se.vlag = -2 * (s64)MS;
	h_enqueue(&h, p, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(p->se.vruntime, V0);
	ck_assert_uint_eq(p->se.deadline, V0 + 2800 * US);
	h_fini(&h);
}
END_TEST

/*
 * TV-9 mechanics: an ineligible sleeper stays queued (delayed), still in
 * V and the load; a pick that chooses it completes the dequeue and
 * DELAY_ZERO drops the lag it gained.
 */
START_TEST(ineligible_sleeper_is_delayed_then_reaped_by_the_pick)
{
	struct h h;
	struct task *a, *b, *next;
	u64 v;

	h_init(&h, "6.18", 8, 1000, 3000000, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, a);
	h_insert(&h, b, V0 + 2 * MS, V0 + 5 * MS);
	/* t = 5: A (v = 3, d = 5) blocks with V = 2.5 */
	a->se.vruntime = V0 + 3 * MS;
	a->se.deadline = V0 + 5 * MS;
	a->se.exec_start = h.rq->clock;
	v = avg_vruntime_peek(h.cfs);
	ck_assert_uint_eq(v, V0 + 2500 * US);
	a->state = TASK_SLEEPING;
	ck_assert(!dequeue_task_fair(h.rq, a, DEQUEUE_SLEEP));
	ck_assert(a->se.sched_delayed && a->se.on_rq);
	ck_assert_uint_eq(avg_vruntime_peek(h.cfs), v);
	ck_assert_uint_eq(h.cfs->h_nr_runnable, 1);
	ck_assert_uint_eq(h.cfs->nr_queued, 2);
	next = pick_next_task_fair(h.rq, a);
	ck_assert_ptr_eq(next, b);
	h.rq->curr = b;
	h_check(&h);
	/* t = 8: B's v = 5 -> renewed; V = 4 so delayed A (v 3, d 5) is
	 * the EEVDF choice: reaped with vlag +1 ms, clipped to 0 */
	h_advance(&h, 3 * MS);
	update_curr(h.cfs);
	ck_assert_uint_eq(b->se.deadline, V0 + 8 * MS);
	ck_assert(h.rq->need_resched);
	next = pick_next_task_fair(h.rq, b);
	ck_assert_ptr_eq(next, b);
	ck_assert(!a->se.on_rq && !a->se.sched_delayed && !a->on_rq);
	ck_assert_int_eq(a->se.vlag, 0);
	ck_assert_uint_eq(h.cfs->nr_queued, 1);
	ck_assert_uint_eq(h.rq->nr_running, 1);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* Without DELAY_DEQUEUE the same sleep leaves at once with vlag -0.5 ms. */
START_TEST(no_delay_dequeue_carries_negative_lag)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.18", 8, 1000, 3000000, "NO_DELAY_DEQUEUE");
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, a);
	h_insert(&h, b, V0 + 2 * MS, V0 + 5 * MS);
	a->se.vruntime = V0 + 3 * MS;
	a->state = TASK_SLEEPING;
	ck_assert(dequeue_task_fair(h.rq, a, DEQUEUE_SLEEP));
	ck_assert_int_eq(a->se.vlag, -500000);
	/* woken later against B alone: placed 1 ms (inflated) behind V */
	a->state = TASK_RUNNING;
	put_prev_entity(h.cfs, &a->se);
	h.rq->curr = NULL;
	h_enqueue(&h, a, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(a->se.vruntime, V0 + 3 * MS);
	h_fini(&h);
}
END_TEST

/* Waking a delayed task keeps vruntime and deadline while ineligible. */
START_TEST(waking_a_delayed_ineligible_task_keeps_v_and_d)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.18", 8, 1000, 3000000, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, b);
	b->se.vruntime = V0;
	a->se.sched_delayed = true;
	h_insert(&h, a, V0 + 2 * MS, V0 + 4 * MS);
	ck_assert_uint_eq(h.cfs->h_nr_runnable, 1);
	enqueue_task_fair(h.rq, a, ENQUEUE_DELAYED);
	ck_assert(!a->se.sched_delayed);
	ck_assert_uint_eq(a->se.vruntime, V0 + 2 * MS);
	ck_assert_uint_eq(a->se.deadline, V0 + 4 * MS);
	ck_assert_uint_eq(h.cfs->h_nr_runnable, 2);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* ... and re-places it at V with zero lag once it became eligible. */
START_TEST(waking_a_delayed_eligible_task_replaces_it_at_v)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.18", 8, 1000, 3000000, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, b);
	b->se.vruntime = V0 + 4 * MS;
	a->se.sched_delayed = true;
	h_insert(&h, a, V0 + 2 * MS, V0 + 4 * MS);
	/* V = 3 ms: A's lag is +1 ms: dropped, placed at V (of B alone) */
	enqueue_task_fair(h.rq, a, ENQUEUE_DELAYED);
	ck_assert_int_eq(a->se.vlag, 0);
	ck_assert_uint_eq(a->se.vruntime, V0 + 4 * MS);
	ck_assert_uint_eq(a->se.deadline, V0 + 7 * MS);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/*
 * TV-3 / TV-4 mechanics: a queued entity beats curr on an equal deadline,
 * and equal deadlines in the tree are served in insertion order.
 */
START_TEST(pick_prefers_queued_over_curr_on_equal_deadline)
{
	struct h h;
	struct task *a, *b, *c;

	h_init(&h, "6.18", 8, 1000, 0, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	c = h_task(&h, 0, 0);
	h_start(&h, a);
	h_set_curr(a, V0, V0 + 4800 * US, V0);
	h_insert(&h, b, V0, V0 + 4800 * US);
	h_insert(&h, c, V0, V0 + 4800 * US);
	ck_assert_ptr_eq(pick_eevdf(h.cfs, true), &b->se);
	h_fini(&h);
}
END_TEST

/* The O(log n) walk finds the eligible entity with the earliest deadline. */
START_TEST(pick_walks_to_the_earliest_eligible_deadline)
{
	struct h h;
	struct task *p[6];
	/* (v - V0, d - V0) in ms; V = 3: eligible are v <= 3 */
	static const int vd[6][2] = {
		{ 6, 7 }, { 5, 8 }, { 1, 12 }, { 3, 10 }, { 2, 14 }, { 1, 16 },
	};

	h_init(&h, "6.18", 8, 1000, 0, NULL);
	for (int i = 0; i < 6; i++) {
		p[i] = h_task(&h, 0, 0);
		h_insert(&h, p[i], V0 + (u64)vd[i][0] * MS,
			 V0 + (u64)vd[i][1] * MS);
	}
	ck_assert_uint_eq(avg_vruntime_peek(h.cfs), V0 + 3 * MS);
	ck_assert_ptr_eq(pick_eevdf(h.cfs, true), &p[3]->se);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/* TV-10: a shorter-slice wakee cuts through RUN_TO_PARITY. */
START_TEST(preempt_short_wakee_cancels_protection)
{
	const char *kernel = _i ? "6.18" : "6.17";
	struct h h;
	struct task *a, *b;

	h_init(&h, kernel, 8, 1000, 0, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 500 * US);
	h_start(&h, a);
	h_set_curr(a, V0 + 9200 * US, V0 + 12 * MS, V0 + 12 * MS);
	h_advance(&h, 800 * US);
	h_enqueue(&h, b, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(a->se.vruntime, V0 + 10 * MS);
	ck_assert_uint_eq(b->se.vruntime, V0 + 10 * MS);
	ck_assert_uint_eq(b->se.deadline, V0 + 10500 * US);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(h.rq->need_resched);
	ck_assert_uint_eq(a->se.vprot, V0 + 10 * MS);
	h_fini(&h);
}
END_TEST

/* TV-10, second case: an ineligible short wakee only shrinks protection. */
START_TEST(ineligible_short_wakee_shrinks_protection)
{
	const char *kernel = _i ? "6.18" : "6.17";
	struct h h;
	struct task *a, *b;

	h_init(&h, kernel, 8, 1000, 0, NULL);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 500 * US);
	h_start(&h, a);
	h_set_curr(a, V0 + 9200 * US, V0 + 12 * MS, V0 + 12 * MS);
	h_advance(&h, 800 * US);
	b->se.vlag = -1 * (s64)MS;
	h_enqueue(&h, b, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(b->se.vruntime, V0 + 12 * MS);
	ck_assert_uint_eq(b->se.deadline, V0 + 12500 * US);
	ck_assert_uint_eq(avg_vruntime_peek(h.cfs), V0 + 11 * MS);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(!h.rq->need_resched);
	ck_assert_uint_eq(a->se.vprot, V0 + 10500 * US);
	/* ticks at v_A = 11: unprotected, re-picked (B ineligible) */
	h_advance(&h, 1 * MS);
	task_tick_fair(h.rq, a, false);
	ck_assert(h.rq->need_resched);
	h.rq->need_resched = false;
	ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), a);
	/* at v_A = 12 A renews (d = 14.8) and B (d = 12.5) is picked */
	h_advance(&h, 1 * MS);
	task_tick_fair(h.rq, a, false);
	ck_assert_uint_eq(a->se.deadline, V0 + 14800 * US);
	ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), b);
	h_fini(&h);
}
END_TEST

/*
 * TV-11: an equal-slice wakee waits for the end of protection under 6.17
 * and 6.18.y; with NEXT_BUDDY (6.19-rc behaviour) it becomes the buddy and
 * preempts at once, unless the wakeup is sync and its deadline is later.
 */
static void tv11_setup(struct h *h, const char *kernel, const char *features,
		       struct task **a, struct task **b)
{
	h_init(h, kernel, 8, 1000, 0, features);
	*a = h_task(h, 0, 0);
	*b = h_task(h, 0, 0);
	h_start(h, *a);
	h_set_curr(*a, V0 + 10 * MS, V0 + 12800 * US, V0 + 12800 * US);
	h_advance(h, 1 * MS);
	h_enqueue(h, *b, ENQUEUE_WAKEUP);
	ck_assert_uint_eq((*b)->se.vruntime, V0 + 11 * MS);
	ck_assert_uint_eq((*b)->se.deadline, V0 + 13800 * US);
}

START_TEST(equal_slice_wakee_waits_for_protection_end)
{
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };
	const char *kernel = kernels[_i];
	struct h h;
	struct task *a, *b;

	tv11_setup(&h, kernel, NULL, &a, &b);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(!h.rq->need_resched);
	ck_assert_uint_eq(a->se.vprot, V0 + 12800 * US);
	/* tick at v_A = 12: still protected */
	h_advance(&h, 1 * MS);
	task_tick_fair(h.rq, a, false);
	ck_assert(!h.rq->need_resched);
	/* tick at v_A = 13: renewed (d = 15.8); V = 12, B runs */
	h_advance(&h, 1 * MS);
	task_tick_fair(h.rq, a, false);
	ck_assert(h.rq->need_resched);
	ck_assert_uint_eq(a->se.deadline, V0 + 15800 * US);
	ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), b);
	h_fini(&h);
}
END_TEST

/*
 * Protection needs eligibility: TV-11 again, but B wakes with a positive
 * lag, as a kworker at blogbench's root queue does (docs/io-model.md).
 * A lone curr is at V; place_entity() inflates B's lag of 1 ms by (load
 * + w) / load = (1024 + 1024) / 1024 to 2 ms: v_B = 11 - 2 = 9, d_B = 9
 * + 2.8 = 11.8, and V = (11 + 9) / 2 = 10 < v_A = 11.  __pick_eevdf()
 * drops the ineligible A before it looks at A's protection (v_A 11 <
 * vprot 12.8), so B preempts with RUN_TO_PARITY, without it, and under
 * WAKEUP_DEADLINE, whose veto needs A's deadline (12.8) to be the
 * earlier one.
 */
START_TEST(a_wakee_with_lag_preempts_a_protected_curr_it_makes_ineligible)
{
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };
	static const char *const feats[] = { NULL, "NO_RUN_TO_PARITY",
					     "WAKEUP_DEADLINE" };
	struct h h;
	struct task *a, *b;

	h_init(&h, kernels[_i / 3], 8, 1000, 0, feats[_i % 3]);
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_start(&h, a);
	h_set_curr(a, V0 + 10 * MS, V0 + 12800 * US, V0 + 12800 * US);
	h_advance(&h, 1 * MS);
	b->se.vlag = (s64)MS;
	h_enqueue(&h, b, ENQUEUE_WAKEUP);
	ck_assert_uint_eq(a->se.vruntime, V0 + 11 * MS);
	ck_assert_uint_eq(b->se.vruntime, V0 + 9 * MS);
	ck_assert_uint_eq(b->se.deadline, V0 + 11800 * US);
	ck_assert_uint_eq(avg_vruntime_peek(h.cfs), V0 + 10 * MS);
	ck_assert(!entity_eligible(h.cfs, &a->se));
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(h.rq->need_resched);
	ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), b);
	h_fini(&h);
}
END_TEST

START_TEST(next_buddy_wakee_preempts_at_once)
{
	struct h h;
	struct task *a, *b;

	tv11_setup(&h, _i ? "6.19" : "6.18", "NEXT_BUDDY", &a, &b);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(h.rq->need_resched);
	ck_assert_ptr_eq(h.cfs->next, &b->se);
	h_fini(&h);
}
END_TEST

START_TEST(next_buddy_sync_wakee_with_later_deadline_waits)
{
	struct h h;
	struct task *a, *b;

	tv11_setup(&h, _i ? "6.19" : "6.18", "NEXT_BUDDY", &a, &b);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU | WF_SYNC);
	ck_assert(!h.rq->need_resched);
	ck_assert_ptr_eq(h.cfs->next, &b->se);
	/* picked as soon as A blocks */
	a->state = TASK_SLEEPING;
	dequeue_task_fair(h.rq, a, DEQUEUE_SLEEP);
	ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), b);
	h_fini(&h);
}
END_TEST

/* TV-12: yield. */
START_TEST(yield_pushes_deadline_or_forfeits_the_request)
{
	static const struct {
		const char *kernel;
		u64 other_v; /* the queued task; V is the mean with curr at 5 */
		u64 v, d;
	} cases[] = {
		{ "6.17", 6, 5000, 10600 }, { "6.17", 4, 5000, 10600 },
		{ "6.18", 6, 7800, 10600 }, /* eligible: forfeit */
		{ "6.18", 4, 5000, 7800 },  /* ineligible: nothing */
		{ "6.19", 6, 7800, 10600 }, { "6.19", 4, 5000, 7800 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct h h;
		struct task *a, *o;

		h_init(&h, cases[c].kernel, 8, 1000, 0, NULL);
		a = h_task(&h, 0, 0);
		o = h_task(&h, 0, 0);
		h_start(&h, a);
		a->se.vruntime = V0 + 5 * MS;
		a->se.deadline = V0 + 7800 * US;
		h_insert(&h, o, V0 + cases[c].other_v * MS, V0 + 9 * MS);
		yield_task_fair(h.rq);
		ck_assert_uint_eq(a->se.vruntime - V0, cases[c].v * US);
		ck_assert_uint_eq(a->se.deadline - V0, cases[c].d * US);
		h_fini(&h);
	}
}
END_TEST

/* A yield with nothing else queued does nothing. */
START_TEST(yield_alone_is_a_no_op)
{
	struct h h;
	struct task *a;

	h_init(&h, "6.18", 8, 1000, 0, NULL);
	a = h_task(&h, 0, 0);
	h_start(&h, a);
	a->se.vruntime = V0 + 5 * MS;
	a->se.deadline = V0 + 7800 * US;
	yield_task_fair(h.rq);
	ck_assert_uint_eq(a->se.vruntime, V0 + 5 * MS);
	ck_assert_uint_eq(a->se.deadline, V0 + 7800 * US);
	h_fini(&h);
}
END_TEST

/*
 * TV-13's setup: curr at v = 12 ms and x at v = 8 ms, d = 13 ms, both nice
 * 0, so V = 10 ms; then x goes to nice -3 (weight 1024 -> 1991).
 */
static struct task *tv13_reweight(struct h *h, const char *kernel)
{
	struct task *c, *x;

	h_init(h, kernel, 8, 1000, 0, NULL);
	c = h_task(h, 0, 0);
	x = h_task(h, 0, 0);
	h_start(h, c);
	c->se.vruntime = V0 + 12 * MS;
	h_insert(h, x, V0 + 8 * MS, V0 + 13 * MS);
	ck_assert_uint_eq(avg_vruntime_peek(h->cfs), V0 + 10 * MS);
	reweight_task_fair(h->rq, x, -3);
	ck_assert_uint_eq(x->se.load.weight, 1991u << 10);
	return x;
}

/*
 * TV-13 (6.13+ reweight): V = 10, v = 8, d = 13 ms, nice 0 -> -3 (weight
 * 1024 -> 1991).  vlag 2 ms -> floor(2e6 * 1024 / 1991) = 1028628; the
 * relative deadline 5 ms -> floor(5e6 * 1024 / 1991) = 2571572; placed
 * against curr alone (V = 12): lag 1028628 * 3015 / 1024 = 3028626, so
 * v = 12e6 - 3028626 = 8971374 and d = v + 2571572 = 11542946.
 */
START_TEST(reweight_preserves_lag_and_relative_deadline)
{
	struct h h;
	struct task *x = tv13_reweight(&h, "6.18");

	ck_assert_uint_eq(x->se.vruntime, V0 + 8971374);
	ck_assert_uint_eq(x->se.deadline, V0 + 11542946);
	ck_assert_int_eq((s64)(avg_vruntime_peek(h.cfs) - x->se.vruntime),
			 1028627);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/*
 * TV-13 under 6.7-6.12 (reweight_eevdf): the same entity keeps its place
 * around V = 10 ms: v' = V - (V - v) * 1024/1991 = 10e6 - 1028628 =
 * 8971372 and d' = V + (d - V) * 1024/1991 = 10e6 + 1542943 = 11542943
 * (divisions truncate), and V does not move: the sum w (v - V) changes
 * by 2048e6 - 1028628 * 1991 = 1652, less than the 3015 of weight.
 */
START_TEST(reweight_eevdf_keeps_v_and_scales_around_it)
{
	struct h h;
	struct task *x = tv13_reweight(&h, "6.12");

	ck_assert_uint_eq(x->se.vruntime, V0 + 8971372);
	ck_assert_uint_eq(x->se.deadline, V0 + 11542943);
	ck_assert_uint_eq(avg_vruntime_peek(h.cfs), V0 + 10 * MS);
	h_check(&h);
	h_fini(&h);
}
END_TEST

/*
 * A sleeping entity's saved lag is rescaled whatever its size: a product
 * past 64 bits takes the 128-bit division, a smaller one the 64-bit one,
 * with the same truncation toward zero.  nice 0 -> -3 scales by
 * 1024/1991: 2^62 * 1024 = 2^72 = 1991 * 2371856596117350684 + 1852, so
 * 2371856596117350684; back to nice 0 scales by 1991/1024, and -2^62 gives
 * -2^52 * 1991 = -8966666858094657536 exactly; 3e6 * 1024 / 1991 =
 * 1542943.2, so 1542943, and -1542943 * 1991 / 1024 = -3071999513 / 1024 =
 * -2999999.5 truncates to -2999999 (a floor would give -3000000).
 */
START_TEST(reweight_rescales_a_sleepers_lag_past_64_bits)
{
	static const char *const kernels[] = { "6.12", "6.18" };

	for (int k = 0; k < 2; k++) {
		struct h h;
		struct task *x;

		h_init(&h, kernels[k], 8, 1000, 0, NULL);
		x = h_task(&h, 0, 0);
		x->se.vlag = (s64)1 << 62;
		reweight_task_fair(h.rq, x, -3);
		ck_assert_int_eq(x->se.vlag, 2371856596117350684LL);
		x->se.vlag = -((s64)1 << 62);
		reweight_task_fair(h.rq, x, 0);
		ck_assert_int_eq(x->se.vlag, -8966666858094657536LL);
		x->se.vlag = 3 * MS;
		reweight_task_fair(h.rq, x, -3);
		ck_assert_int_eq(x->se.vlag, 1542943);
		x->se.vlag = -1542943;
		reweight_task_fair(h.rq, x, 0);
		ck_assert_int_eq(x->se.vlag, -2999999);
		h_fini(&h);
	}
}
END_TEST

/*
 * 6.18.17 (bcd74b2ffdd0): a nice change of the running task puts and sets
 * it again without a pick.  6.17 and 6.19 re-arm its protection there;
 * 6.18.y does not, and the lag written over vprot leaves it unprotected.
 */
START_TEST(nice_change_of_running_task_keeps_protection_only_before_6_18_17)
{
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };

	for (int k = 0; k < 3; k++) {
		struct h h;
		struct task *a, *b;

		h_init(&h, kernels[k], 8, 1000, 0, NULL);
		a = h_task(&h, 0, 0);
		b = h_task(&h, 0, 0);
		h_start(&h, a);
		h_set_curr(a, V0 + 10 * MS, V0 + 12 * MS, V0 + 12 * MS);
		h_insert(&h, b, V0 + 10 * MS, V0 + 12800 * US);
		ck_assert(protect_slice(&a->se));
		reweight_task_fair(h.rq, a, 1);
		ck_assert_ptr_eq(h.cfs->curr, &a->se);
		ck_assert_int_eq(protect_slice(&a->se), k != 1);
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/*
 * TV-21 (HZ 250, 1.4 ms base slice): a lone hog renewed at tick T; a
 * zero-lag wakee at T + x preempts only when x >= 1.4 ms, because only
 * then does the enqueue's update_curr renew the hog to the wakee's exact
 * deadline, and the queued entity wins the tie.
 */
START_TEST(deadline_tie_at_renewal_decides_wakeup_preemption)
{
	static const u64 xs[] = { 1000 * US, 1399 * US, 1400 * US, 2000 * US };

	for (size_t c = 0; c < sizeof(xs) / sizeof(xs[0]); c++) {
		struct h h;
		struct task *a, *b;
		bool preempt = xs[c] >= 1400 * US;

		h_init(&h, "6.18", 2, 250, 0, NULL);
		a = h_task(&h, 0, 0);
		b = h_task(&h, 0, 0);
		h_start(&h, a);
		/* the first tick renews the lone hog: d = v + 1.4 ms */
		h_advance(&h, 4 * MS);
		task_tick_fair(h.rq, a, false);
		ck_assert(!h.rq->need_resched);
		ck_assert_uint_eq(a->se.deadline - a->se.vruntime, 1400 * US);
		h_advance(&h, xs[c]);
		h_enqueue(&h, b, ENQUEUE_WAKEUP);
		check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
		ck_assert_int_eq(h.rq->need_resched, preempt);
		if (!preempt) {
			/* B waits for the next tick */
			h_advance(&h, 4 * MS - xs[c]);
			task_tick_fair(h.rq, a, false);
			ck_assert(h.rq->need_resched);
			ck_assert_ptr_eq(pick_next_task_fair(h.rq, a), b);
		}
		h_fini(&h);
	}
}
END_TEST

/*
 * kernel-6.18y.md section 4, fork: parent P alone (stale protection),
 * v = V = 10, d = 12 ms; the child gets v = 10, d = 11.4.  Up to 6.18.31
 * it preempts at once; in 6.19 and from 6.18.32 forks never preempt, and
 * the next tick (P unprotected) picks the child.
 */
START_TEST(fork_preempts_under_6_17_but_not_6_18)
{
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };

	for (int k = 0; k < 3; k++) {
		struct h h;
		struct task *p, *c;

		h_init(&h, kernels[k], 8, 1000, 0, NULL);
		p = h_task(&h, 0, 0);
		c = h_task(&h, 0, 0);
		h_start(&h, p);
		h_set_curr(p, V0 + 10 * MS, V0 + 12 * MS, V0 + 9 * MS);
		h_enqueue(&h, c, ENQUEUE_INITIAL);
		ck_assert_uint_eq(c->se.vruntime, V0 + 10 * MS);
		ck_assert_uint_eq(c->se.deadline, V0 + 11400 * US);
		check_preempt_wakeup_fair(h.rq, c, WF_FORK);
		ck_assert_int_eq(h.rq->need_resched, k == 0);
		if (k) {
			h_advance(&h, 1 * MS);
			task_tick_fair(h.rq, p, false);
			ck_assert(h.rq->need_resched);
			ck_assert_ptr_eq(pick_next_task_fair(h.rq, p), c);
		}
		h_fini(&h);
	}
}
END_TEST

/*
 * kernel-6.18y.md section 4, reaping at wakeup: A runs (v 10, d 12,
 * unprotected), D is delayed at v 7, d 9.8; B wakes with zero lag at
 * V = 8.5 (d 11.3).  The EEVDF choice is D.  6.17 stops there (no
 * preemption); 6.18.32+ reaps D inside the wakeup check, V moves to 9.25,
 * A is ineligible and B wins.
 */
START_TEST(wakeup_check_reaps_delayed_choice_under_6_18)
{
	/* v6.19 has the new wakeup rule but not the 7.1 reaping fix */
	static const char *const kernels[] = { "6.17", "6.18", "6.19" };

	for (int k = 0; k < 3; k++) {
		struct h h;
		struct task *a, *d, *b;

		h_init(&h, kernels[k], 8, 1000, 0, NULL);
		a = h_task(&h, 0, 0);
		d = h_task(&h, 0, 0);
		b = h_task(&h, 0, 0);
		h_start(&h, a);
		h_set_curr(a, V0 + 10 * MS, V0 + 12 * MS, V0);
		d->se.sched_delayed = true;
		d->state = TASK_SLEEPING;
		h_insert(&h, d, V0 + 7 * MS, V0 + 9800 * US);
		h_enqueue(&h, b, ENQUEUE_WAKEUP);
		ck_assert_uint_eq(b->se.vruntime, V0 + 8500 * US);
		ck_assert_uint_eq(b->se.deadline, V0 + 11300 * US);
		check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
		ck_assert_int_eq(h.rq->need_resched, k == 1);
		ck_assert_int_eq(d->se.on_rq, k != 1);
		if (k)
			ck_assert_int_eq(d->se.vlag, 0);
		h_check(&h);
		h_fini(&h);
	}
}
END_TEST

/* NO_WAKEUP_PREEMPTION: nothing preempts on wakeup. */
START_TEST(no_wakeup_preemption_never_preempts_on_wakeup)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.18", 8, 1000, 0, "NO_WAKEUP_PREEMPTION");
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 500 * US);
	h_start(&h, a);
	h_advance(&h, 100 * US);
	h_enqueue(&h, b, ENQUEUE_WAKEUP);
	check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
	ck_assert(!h.rq->need_resched);
	h_fini(&h);
}
END_TEST

/* A SCHED_IDLE curr is preempted by any normal wakee; a batch wakee of a
 * normal curr never preempts. */
START_TEST(idle_and_batch_policies_at_wakeup)
{
	for (int k = 0; k < 2; k++) {
		struct h h;
		struct task *a, *b;

		h_init(&h, "6.18", 8, 1000, 0, NULL);
		a = h_task(&h, 0, 0);
		b = h_task(&h, 0, 100 * US);
		if (k == 0) {
			a->policy = EEVDF_POLICY_IDLE;
			init_entity(h.rq, a);
		} else {
			b->policy = EEVDF_POLICY_BATCH;
		}
		h_start(&h, a);
		h_advance(&h, 100 * US);
		h_enqueue(&h, b, ENQUEUE_WAKEUP);
		check_preempt_wakeup_fair(h.rq, b, WF_TTWU);
		ck_assert_int_eq(h.rq->need_resched, k == 0);
		if (k == 0)
			ck_assert_uint_eq(a->se.load.weight, 3u << 10);
		h_fini(&h);
	}
}
END_TEST

/* NO_RUN_TO_PARITY: protection lasts only the unscaled base slice. */
START_TEST(no_run_to_parity_protects_one_base_quantum)
{
	struct h h;
	struct task *a, *b;

	h_init(&h, "6.18", 8, 1000, 0, "NO_RUN_TO_PARITY");
	a = h_task(&h, 0, 0);
	b = h_task(&h, 0, 0);
	h_enqueue(&h, a, ENQUEUE_INITIAL);
	h_insert(&h, b, V0, V0 + 2 * MS);
	/* d = v + 1.4 ms (half a 2.8 ms request); the quantum is shorter */
	h_run(&h, a);
	ck_assert_uint_eq(a->se.deadline, a->se.vruntime + 1400 * US);
	ck_assert_uint_eq(a->se.vprot, a->se.vruntime + 700 * US);
	h_check(&h);
	h_fini(&h);
}
END_TEST

Suite *fair_suite(void)
{
	Suite *s = suite_create("fair");
	TCase *tc = tcase_create("mechanisms");

	tcase_add_test(tc, avg_vruntime_floors_the_mean);
	tcase_add_test(tc, place_entity_inflates_lag_so_it_is_preserved);
	tcase_add_loop_test(
		tc, update_entity_lag_clamps_per_profile, 0,
		(int)(sizeof(clamp_cases) / sizeof(clamp_cases[0])));
	tcase_add_test(tc,
		       tree_slice_bounds_follow_inserts_at_the_clamp_limits);
	tcase_add_test(tc, sleep_saves_clamped_negative_lag);
	tcase_add_test(tc, new_task_gets_half_a_slice_deadline);
	tcase_add_test(tc, no_place_lag_joins_at_v);
	tcase_add_test(tc,
		       ineligible_sleeper_is_delayed_then_reaped_by_the_pick);
	tcase_add_test(tc, no_delay_dequeue_carries_negative_lag);
	tcase_add_test(tc, waking_a_delayed_ineligible_task_keeps_v_and_d);
	tcase_add_test(tc, waking_a_delayed_eligible_task_replaces_it_at_v);
	tcase_add_test(tc, pick_prefers_queued_over_curr_on_equal_deadline);
	tcase_add_test(tc, pick_walks_to_the_earliest_eligible_deadline);
	tcase_add_loop_test(tc, preempt_short_wakee_cancels_protection, 0, 2);
	tcase_add_loop_test(tc, ineligible_short_wakee_shrinks_protection, 0,
			    2);
	tcase_add_loop_test(tc, equal_slice_wakee_waits_for_protection_end, 0,
			    3);
	tcase_add_loop_test(
		tc,
		a_wakee_with_lag_preempts_a_protected_curr_it_makes_ineligible,
		0, 9);
	tcase_add_loop_test(tc, next_buddy_wakee_preempts_at_once, 0, 2);
	tcase_add_loop_test(tc, next_buddy_sync_wakee_with_later_deadline_waits,
			    0, 2);
	tcase_add_test(tc, yield_pushes_deadline_or_forfeits_the_request);
	tcase_add_test(tc, yield_alone_is_a_no_op);
	tcase_add_test(tc, reweight_preserves_lag_and_relative_deadline);
	tcase_add_test(tc, reweight_eevdf_keeps_v_and_scales_around_it);
	tcase_add_test(tc, reweight_rescales_a_sleepers_lag_past_64_bits);
	tcase_add_test(
		tc,
		nice_change_of_running_task_keeps_protection_only_before_6_18_17);
	tcase_add_test(tc, deadline_tie_at_renewal_decides_wakeup_preemption);
	tcase_add_test(tc, fork_preempts_under_6_17_but_not_6_18);
	tcase_add_test(tc, wakeup_check_reaps_delayed_choice_under_6_18);
	tcase_add_test(tc, no_wakeup_preemption_never_preempts_on_wakeup);
	tcase_add_test(tc, idle_and_batch_policies_at_wakeup);
	tcase_add_test(tc, no_run_to_parity_protects_one_base_quantum);
	suite_add_tcase(s, tc);
	return s;
}
