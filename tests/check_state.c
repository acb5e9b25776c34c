/* SPDX-License-Identifier: MIT */
/*
 * Seeing inside the model (eevdf/state.h): the readers of an entity's and
 * a run queue's state against queues whose numbers are worked out by
 * hand here, the rules of pick_eevdf() and of the decisions a short run
 * takes, the STATE events, and that observing changes nothing.
 */
#include <stdlib.h>
#include <string.h>

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

/* A simulation whose CPU 0 queue the test fills by hand. */
static void h_init(struct h *h, const char *kernel)
{
	struct eevdf_config cfg;
	char err[512];

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &h->sim, err, sizeof(err)), 0);
	h->rq = &h->sim->sched.rqs[0];
	h->cfs = &h->rq->cfs;
	h->rq->clock = 1000 * MS;
	h->nr = 0;
}

/* The hand-made tasks leave the queue before the simulation goes. */
static void h_fini(struct h *h)
{
	h->cfs->curr = NULL;
	h->rq->curr = NULL;
	h->sim->sched.nr_tasks = 0;
	for (int i = 0; i < h->nr; i++)
		free(h->tasks[i]);
	eevdf_sim_free(h->sim);
}

/*
 * A task registered in the simulation's pid table (the public readers
 * find tasks there) and put on the queue with the vruntime and deadline
 * of the example.
 */
static struct task *h_insert(struct h *h, int nice, u64 v, u64 d)
{
	struct task *p = calloc(1, sizeof(*p));
	struct scheduler *s = &h->sim->sched;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_lt(h->nr, 8);
	h->tasks[h->nr++] = p;
	p->pid = h->nr;
	p->nice = nice;
	p->policy = EEVDF_POLICY_NORMAL;
	p->state = TASK_RUNNING;
	p->sched_class = &fair_sched_class;
	p->prio = DEFAULT_PRIO + nice;
	init_entity(h->rq, p);
	p->se.vruntime = v;
	p->se.deadline = d;
	eevdf__cfs_rq_insert_raw(h->cfs, &p->se);
	p->on_rq = true;
	h->rq->nr_running++;
	if (s->nr_tasks == s->cap_tasks) {
		s->cap_tasks = s->cap_tasks ? 2 * s->cap_tasks : 8;
		s->tasks = realloc(s->tasks, s->cap_tasks * sizeof(*s->tasks));
		ck_assert_ptr_nonnull(s->tasks);
	}
	s->tasks[s->nr_tasks++] = p;
	return p;
}

/* Make a queued task the running one, as a pick would (no protection
 * window is armed: the test sets vprot). */
static void h_run(struct h *h, struct task *p, u64 vprot)
{
	eevdf__tree_dequeue_entity(h->cfs, &p->se);
	h->cfs->curr = &p->se;
	h->rq->curr = p;
	p->on_cpu = true;
	p->se.exec_start = h->rq->clock;
	p->se.vprot = vprot;
}

/*
 * Three entities on zero_vruntime (6.18: v0 = 0, so the keys are the
 * vruntimes themselves):
 *   A nice 0  w 1024  v = V0          d = V0 + 700 us
 *   B nice 5  w  335  v = V0 + 3 ms   d = V0 + 5 ms
 *   C nice -5 w 3121  v = V0 - 1 ms   d = V0 - 1 ms + 224 us
 * L = 1024 + 335 + 3121 = 4480.
 * A = \Sum w (v - 0) = 4480 V0 + 335 * 3e6 - 3121 * 1e6
 *   = 4480 V0 - 2 116 000 000.
 * V = floor(A / L) = V0 + floor(-2 116 000 000 / 4480)
 *   = V0 + floor(-472 321.43) = V0 - 472 322.
 * vlag = V - v:  A -472 322, B -3 472 322, C +527 678.
 * lag = vlag * w: C 527 678 * 3121 = 1 646 883 038;
 *                 A -472 322 * 1024 = -483 657 728.
 * Eligible (lag >= 0): C only.  d - V: A 700 000 + 472 322 = 1 172 322;
 * C -1 000 000 + 224 000 + 472 322 = -303 678.
 * The pick: C, the only eligible entity (the earliest of the eligible).
 */
START_TEST(state_of_a_worked_queue)
{
	struct h h;
	struct eevdf_entity_state a, b, c;
	struct eevdf_rq_state rs;
	enum eevdf_rule rule;
	int pids[8], pid;

	h_init(&h, "6.18");
	h_insert(&h, 0, V0, V0 + 700 * US);
	h_insert(&h, 5, V0 + 3 * MS, V0 + 5 * MS);
	h_insert(&h, -5, V0 - 1 * MS, V0 - 1 * MS + 224 * US);

	ck_assert_int_eq(eevdf_sim_rq_state(h.sim, 0, &rs), 0);
	ck_assert_uint_eq(rs.v0, 0);
	ck_assert_uint_eq(rs.load, 4480);
	ck_assert_uint_eq(rs.V, V0 - 472322);
	ck_assert_uint_eq(rs.nr_queued, 3);
	ck_assert_uint_eq(rs.nr_delayed, 0);
	ck_assert_int_eq(rs.curr_pid, -1);
	ck_assert(rs.eevdf);

	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 1, &a), 0);
	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 2, &b), 0);
	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 3, &c), 0);
	ck_assert(a.fair && a.on_rq && !a.running && !a.delayed);
	ck_assert_uint_eq(a.weight, 1024);
	ck_assert_uint_eq(b.weight, 335);
	ck_assert_uint_eq(c.weight, 3121);
	ck_assert_int_eq(a.vlag, -472322);
	ck_assert_int_eq(b.vlag, -3472322);
	ck_assert_int_eq(c.vlag, 527678);
	ck_assert_int_eq(a.lag, -483657728);
	ck_assert_int_eq(c.lag, 1646883038);
	ck_assert(!a.eligible && !b.eligible && c.eligible);
	ck_assert_int_eq(a.deadline_v, 1172322);
	ck_assert_int_eq(c.deadline_v, -303678);
	ck_assert_uint_eq(a.V, V0 - 472322);

	/* tree order: by deadline, C (V0 - 776 us), A, B */
	ck_assert_int_eq(eevdf_sim_rq_tasks(h.sim, 0, pids, 8), 3);
	ck_assert_int_eq(pids[0], 3);
	ck_assert_int_eq(pids[1], 1);
	ck_assert_int_eq(pids[2], 2);
	/* a short buffer still says how many there are */
	ck_assert_int_eq(eevdf_sim_rq_tasks(h.sim, 0, pids, 1), 3);
	ck_assert_int_eq(pids[0], 3);

	ck_assert_int_eq(eevdf_sim_rq_pick(h.sim, 0, &pid, &rule), 0);
	ck_assert_int_eq(pid, 3);
	ck_assert_int_eq(rule, EEVDF_RULE_PICK_EARLIEST);
	/* the pick changed nothing */
	ck_assert_ptr_null(h.sim->sched.obs);
	ck_assert_ptr_null(eevdf__cfs_rq_check(h.cfs));
	h_fini(&h);
}
END_TEST

/*
 * Protection.  Equal weights (nice 0), v0 = 0:
 *   A (curr) v = V0,          d = V0 + 700 us
 *   B        v = V0 + 100 us, d = V0 + 500 us
 *   C        v = V0 + 20 us,  d = V0 + 300 us
 * V = V0 + (0 + 100 + 20) / 3 us = V0 + 40 us.  Eligible: A (0 <= 40)
 * and C (20 <= 40); B is not.  With A's vprot at its deadline A is inside
 * its protected slice and pick_eevdf(protect) keeps it (RUN_TO_PARITY);
 * with vprot = vruntime the protection is over and C, the eligible
 * entity with the earliest deadline, wins.  If A had the earliest
 * deadline it would win as curr (PICK_CURR): d_A = V0 + 200 us.
 */
START_TEST(pick_rules_protection_and_curr)
{
	struct h h;
	struct task *a;
	struct eevdf_entity_state s;
	enum eevdf_rule rule;
	int pid;

	h_init(&h, "6.18");
	a = h_insert(&h, 0, V0, V0 + 700 * US);
	h_insert(&h, 0, V0 + 100 * US, V0 + 500 * US);
	h_insert(&h, 0, V0 + 20 * US, V0 + 300 * US);
	h_run(&h, a, V0 + 700 * US);

	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 1, &s), 0);
	ck_assert(s.running && s.eligible && s.protected_slice);
	ck_assert_uint_eq(s.V, V0 + 40 * US);
	ck_assert_int_eq(s.vlag, 40 * US);
	ck_assert_uint_eq(s.vprot, V0 + 700 * US);
	ck_assert_int_eq(eevdf_sim_rq_pick(h.sim, 0, &pid, &rule), 0);
	ck_assert_int_eq(pid, 1);
	ck_assert_int_eq(rule, EEVDF_RULE_PICK_PROTECTED);

	a->se.vprot = a->se.vruntime;
	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 1, &s), 0);
	ck_assert(!s.protected_slice);
	ck_assert_int_eq(eevdf_sim_rq_pick(h.sim, 0, &pid, &rule), 0);
	ck_assert_int_eq(pid, 3);
	ck_assert_int_eq(rule, EEVDF_RULE_PICK_EARLIEST);

	a->se.deadline = V0 + 200 * US;
	ck_assert_int_eq(eevdf_sim_rq_pick(h.sim, 0, &pid, &rule), 0);
	ck_assert_int_eq(pid, 1);
	ck_assert_int_eq(rule, EEVDF_RULE_PICK_CURR);

	ck_assert_int_eq(eevdf_sim_task_state(h.sim, 2, &s), 0);
	ck_assert(!s.eligible && !s.running);
	ck_assert_int_eq(s.vlag, -60 * (s64)US);
	h_fini(&h);
}
END_TEST

/* A run's decisions and state events, as the trace callback sees them. */
#define REC_MAX 256

struct drec {
	eevdf_time t;
	int kind, cpu, pid, prev, rule, pick_pid, pick_rule;
	char group[16]; /* the level that decided */
	/* at a DECISION: the subject's state, read from the callback */
	struct eevdf_entity_state s;
	struct eevdf_rq_state rq;
};

struct recorder {
	eevdf_sim *sim;
	struct drec r[REC_MAX];
	int n;
	uint64_t state_events;
};

static void rec_event(void *ud, const struct eevdf_trace_event *ev)
{
	struct recorder *r = ud;
	struct drec *d;

	if (ev->kind == EEVDF_TRACE_STATE) {
		ck_assert_int_eq(ev->time, eevdf_sim_now(r->sim));
		r->state_events++;
		return;
	}
	if (ev->kind != EEVDF_TRACE_DECISION || r->n == REC_MAX)
		return;
	d = &r->r[r->n++];
	d->t = ev->time;
	d->kind = ev->kind;
	d->cpu = ev->cpu;
	d->pid = ev->pid;
	d->prev = ev->prev_pid;
	d->rule = ev->rule;
	d->pick_pid = ev->pick_pid;
	d->pick_rule = ev->pick_rule;
	snprintf(d->group, sizeof(d->group), "%s", ev->group ? ev->group : "");
	if (ev->pid > 0)
		ck_assert_int_eq(eevdf_sim_task_state(r->sim, ev->pid, &d->s),
				 0);
	ck_assert_int_eq(eevdf_sim_rq_state(r->sim, ev->cpu, &d->rq), 0);
}

static const struct eevdf_op hog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * (eevdf_time)MS, 0, 0 },
};

static eevdf_sim *two_hogs(const char *kernel, struct recorder *r,
			   unsigned int detail)
{
	struct eevdf_config cfg;
	struct eevdf_task_spec t = { .name = "hog",
				     .program = hog,
				     .nr_ops = 2 };
	eevdf_sim *sim;
	char err[256];

	eevdf_config_init(&cfg);
	cfg.kernel = kernel;
	if (r) {
		cfg.trace = rec_event;
		cfg.trace_ud = r;
	}
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	if (r)
		r->sim = sim;
	ck_assert_int_eq(eevdf_sim_trace_detail(sim, detail), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 2);
	return sim;
}

/*
 * Two nice-0 hogs on one CPU, 6.18, HZ 1000, base slice 0.7 ms (one CPU:
 * no scaling).  Both start at 0:
 *  - A (pid 1) starts on the idle CPU: wakeup_idle_cpu, then the pick,
 *    A the only entity (pick_only).  Placed at V = 0 with half a slice
 *    (PLACE_DEADLINE_INITIAL): v_A = 0, d_A = 350 us.
 *  - B (pid 2) forks next: 6.18.32+ forks never preempt
 *    (no_preempt_fork).  v_B = V = 0, d_B = 350 us.
 *  - The tick at 1 ms: update_curr() charges A 1 ms: v_A = 1 ms >= d_A,
 *    a new request, d_A = 1 ms + 700 us (slice_expired).  The pick:
 *    V = (1 ms + 0) / 2 = 500 us; B is eligible (0 <= 500 us), A not:
 *    pick_earliest chooses B, whose vlag is then 500 us and d - V is
 *    350 - 500 = -150 us.
 * Autogroup is on (the default): all of it happens in /autogroup-1's
 * queue.  The CPU's root queue holds the group's entity alone, charged
 * the same 1 ms at weight 1024 (one CPU: the group's whole shares), so
 * at the pick the root V is its vruntime, 1 ms: nr_queued 1, two tasks
 * below.
 */
START_TEST(decisions_of_two_hogs)
{
	struct recorder *r = calloc(1, sizeof(*r));
	eevdf_sim *sim;
	int i = 0;

	ck_assert_ptr_nonnull(r);
	sim = two_hogs("6.18", r, EEVDF_DETAIL_DECISIONS);
	ck_assert_int_eq(eevdf_sim_run(sim, 1 * (eevdf_time)MS), 0);
	ck_assert_int_ge(r->n, 5);

	ck_assert_int_eq(r->r[i].rule, EEVDF_RULE_WAKEUP_IDLE_CPU);
	ck_assert_int_eq(r->r[i].pid, 1);
	i++;
	ck_assert_int_eq(r->r[i].rule, EEVDF_RULE_PICK_ONLY);
	ck_assert_int_eq(r->r[i].pid, 1);
	ck_assert_int_eq(r->r[i].prev, -1);
	ck_assert_uint_eq(r->r[i].s.deadline, 350 * US);
	i++;
	ck_assert_int_eq(r->r[i].rule, EEVDF_RULE_NO_PREEMPT_FORK);
	ck_assert_int_eq(r->r[i].pid, 2);
	ck_assert_int_eq(r->r[i].prev, 1);
	ck_assert_int_eq(r->r[i].t, 0);
	i++;
	ck_assert_int_eq(r->r[i].rule, EEVDF_RULE_SLICE_EXPIRED);
	ck_assert_int_eq(r->r[i].t, 1 * (eevdf_time)MS);
	ck_assert_int_eq(r->r[i].pid, 1);
	ck_assert_uint_eq(r->r[i].s.vruntime, 1 * MS);
	ck_assert_uint_eq(r->r[i].s.deadline, 1 * MS + 700 * US);
	i++;
	ck_assert_int_eq(r->r[i].rule, EEVDF_RULE_PICK_EARLIEST);
	ck_assert_int_eq(r->r[i].pid, 2);
	ck_assert_int_eq(r->r[i].prev, 1);
	ck_assert_str_eq(r->r[i].group, "/autogroup-1");
	ck_assert_uint_eq(r->r[i].s.V, 500 * US);
	ck_assert_int_eq(r->r[i].s.depth, 1);
	ck_assert_int_eq(r->r[i].s.vlag, 500 * (s64)US);
	ck_assert_int_eq(r->r[i].s.deadline_v, -150 * (s64)US);
	ck_assert(r->r[i].s.eligible);
	ck_assert_uint_eq(r->r[i].rq.V, 1 * MS);
	ck_assert_uint_eq(r->r[i].rq.nr_queued, 1);
	ck_assert_uint_eq(r->r[i].rq.h_nr_queued, 2);
	ck_assert_uint_eq(r->r[i].rq.load, 1024);
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

/*
 * 6.8 (6.6-6.11 wakeups, RUN_TO_PARITY consulted in the pick): a
 * sleeper woken while a hog runs inside its protected slice is denied by
 * RUN_TO_PARITY, and the decision names the pick that denied it: the
 * hog itself, for pick_protected.
 */
START_TEST(wakeup_denied_by_run_to_parity)
{
	static const struct eevdf_op sleeper[] = {
		{ EEVDF_OP_LOOP, 0, 0, 2 },
		{ EEVDF_OP_RUN, 100 * (eevdf_time)US, 0, 0 },
		{ EEVDF_OP_SLEEP, 1500 * (eevdf_time)US, 0, 0 },
	};
	struct eevdf_task_spec h = { .name = "hog",
				     .program = hog,
				     .nr_ops = 2 };
	struct eevdf_task_spec s = { .name = "sleeper",
				     .program = sleeper,
				     .nr_ops = 3 };
	struct recorder *r = calloc(1, sizeof(*r));
	struct eevdf_config cfg;
	eevdf_sim *sim;
	char err[256];
	int denied = 0;

	ck_assert_ptr_nonnull(r);
	eevdf_config_init(&cfg);
	cfg.kernel = "6.8";
	cfg.trace = rec_event;
	cfg.trace_ud = r;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	r->sim = sim;
	ck_assert_int_eq(eevdf_sim_trace_detail(sim, EEVDF_DETAIL_DECISIONS),
			 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &h), 1);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &s), 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 50 * (eevdf_time)MS), 0);
	for (int i = 0; i < r->n; i++) {
		const struct drec *d = &r->r[i];

		if (d->rule != EEVDF_RULE_NO_PREEMPT_PROTECTED)
			continue;
		denied++;
		/* the wakee is the sleeper, curr the hog, and the pick that
		 * denied it kept the hog for its protection */
		ck_assert_int_eq(d->pid, 2);
		ck_assert_int_eq(d->prev, 1);
		ck_assert_int_eq(d->pick_pid, 1);
		ck_assert_int_eq(d->pick_rule, EEVDF_RULE_PICK_PROTECTED);
	}
	ck_assert_int_gt(denied, 0);
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

/* STATE events: once per CPU per event, at the event's time. */
START_TEST(state_events_once_per_event)
{
	struct recorder *r = calloc(1, sizeof(*r));
	eevdf_sim *sim;

	ck_assert_ptr_nonnull(r);
	sim = two_hogs("6.18", r, EEVDF_DETAIL_STATE);
	ck_assert_int_eq(eevdf_sim_run(sim, 10 * (eevdf_time)MS), 0);
	/* one CPU, and every event (two starts, ticks, burst ends) is about
	 * it: one STATE event each */
	ck_assert_uint_ge(r->state_events, 12);
	ck_assert_uint_eq(r->state_events, eevdf_sim_nr_events(sim));
	ck_assert_int_eq(r->n, 0); /* no decisions were asked for */
	/* turning it off mid-run stops them */
	r->state_events = 0;
	ck_assert_int_eq(eevdf_sim_trace_detail(sim, 0), 0);
	ck_assert_ptr_null(sim->sched.obs);
	ck_assert_int_eq(eevdf_sim_run(sim, 20 * (eevdf_time)MS), 0);
	ck_assert_uint_eq(r->state_events, 0);
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

/* Observing every decision and every state changes no result. */
START_TEST(observing_changes_nothing)
{
	struct recorder *r = calloc(1, sizeof(*r));
	eevdf_sim *a, *b;
	char *ja, *jb;

	ck_assert_ptr_nonnull(r);
	a = two_hogs("6.18", NULL, 0);
	b = two_hogs("6.18", r, EEVDF_DETAIL_DECISIONS | EEVDF_DETAIL_STATE);
	ck_assert_int_eq(eevdf_sim_run(a, 200 * (eevdf_time)MS), 0);
	ck_assert_int_eq(eevdf_sim_run(b, 200 * (eevdf_time)MS), 0);
	ck_assert_int_eq(eevdf_sim_results_json(a, &ja), 0);
	ck_assert_int_eq(eevdf_sim_results_json(b, &jb), 0);
	ck_assert_str_eq(ja, jb);
	free(ja);
	free(jb);
	eevdf_sim_free(a);
	eevdf_sim_free(b);
	free(r);
}
END_TEST

/*
 * Groups: hog a in /a, hogs b1, b2 in /b, one CPU, all started at 0.  The
 * run queue is a tree: the root queue holds the two groups' entities,
 * each group's queue its tasks.  The walk lists each queue's curr first,
 * then its tree, a group's entity followed by what is queued in it; the
 * pick walks down, one level at a time; every state is relative to its
 * own queue (depth 0 on the root's, 1 in a group's); decisions name the
 * group that decided.  With one CPU a group entity's weight is the whole
 * of its group's cpu.weight 100 shares: 1024, as a nice-0 task's.
 */
START_TEST(groups_walk_pick_and_decide)
{
	struct eevdf_group_spec ga, gb;
	struct eevdf_config cfg;
	struct eevdf_task_spec t = {
		.name = "a", .program = hog, .nr_ops = 2, .cgroup = "/a"
	};
	struct eevdf_entity_state e[8];
	struct eevdf_pick_level lv[4];
	struct recorder *r = calloc(1, sizeof(*r));
	eevdf_sim *sim;
	char err[256];
	int n, in_group = 0, groups = 0;

	ck_assert_ptr_nonnull(r);
	eevdf_config_init(&cfg);
	cfg.kernel = "6.18";
	cfg.trace = rec_event;
	cfg.trace_ud = r;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	r->sim = sim;
	eevdf_group_spec_init(&ga, "/a");
	eevdf_group_spec_init(&gb, "/b");
	ck_assert_int_eq(eevdf_sim_set_group(sim, &ga), 0);
	ck_assert_int_eq(eevdf_sim_set_group(sim, &gb), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 1);
	t.name = "b";
	t.cgroup = "/b";
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 2);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &t), 3);
	ck_assert_int_eq(eevdf_sim_trace_detail(sim, EEVDF_DETAIL_DECISIONS),
			 0);
	ck_assert_int_eq(eevdf_sim_run(sim, 5 * (eevdf_time)MS), 0);
	ck_assert_str_eq(eevdf_sim_task_group(sim, 1), "/a");
	ck_assert_str_eq(eevdf_sim_task_group(sim, 3), "/b");

	/* 2 group entities and 3 tasks; the tasks alone: 3 */
	n = eevdf_sim_rq_entities(sim, 0, e, 8);
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(eevdf_sim_rq_tasks(sim, 0, NULL, 0), 3);
	for (int i = 0; i < n; i++) {
		ck_assert(e[i].fair && e[i].on_rq);
		if (e[i].pid == 0) {
			groups++;
			ck_assert_int_eq(e[i].depth, 0);
			ck_assert_str_eq(e[i].group, "/");
			ck_assert_uint_eq(e[i].weight, 1024);
			ck_assert(strcmp(e[i].my_group, "/a") == 0 ||
				  strcmp(e[i].my_group, "/b") == 0);
			/* what follows a group's entity is queued in it */
			ck_assert_int_gt(e[i + 1].pid, 0);
			ck_assert_str_eq(e[i + 1].group, e[i].my_group);
		} else {
			in_group++;
			ck_assert_int_eq(e[i].depth, 1);
			ck_assert_ptr_null(e[i].my_group);
			ck_assert_str_eq(e[i].group,
					 e[i].pid == 1 ? "/a" : "/b");
		}
	}
	ck_assert_int_eq(groups, 2);
	ck_assert_int_eq(in_group, 3);
	/* the pick: a group at the root, then a task in it */
	n = eevdf_sim_rq_pick_levels(sim, 0, lv, 4);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(lv[0].group, "/");
	ck_assert_int_eq(lv[0].pid, 0);
	ck_assert_ptr_nonnull(lv[0].picked_group);
	ck_assert_str_eq(lv[1].group, lv[0].picked_group);
	ck_assert_int_gt(lv[1].pid, 0);
	ck_assert_ptr_null(lv[1].picked_group);
	/* some decisions were taken in the groups' queues, about tasks
	 * there, and some at the root about a group's entity (pid 0) */
	{
		int at_root_group = 0, in_b = 0;

		for (int i = 0; i < r->n; i++) {
			const struct drec *d = &r->r[i];

			if (d->rule == EEVDF_RULE_SLICE_EXPIRED &&
			    d->pid == 0) {
				ck_assert_str_eq(d->group, "/");
				at_root_group++;
			}
			if (d->pid >= 2 && d->pid <= 3 &&
			    d->rule == EEVDF_RULE_PICK_EARLIEST) {
				/* the task-level pick, in its group */
				ck_assert_str_eq(d->group, "/b");
				in_b++;
			}
		}
		ck_assert_int_gt(at_root_group, 0);
		ck_assert_int_gt(in_b, 0);
	}
	eevdf_sim_free(sim);
	free(r);
}
END_TEST

START_TEST(rules_have_names_and_bad_args_fail)
{
	struct eevdf_entity_state s;
	struct eevdf_rq_state rs;
	enum eevdf_rule rule;
	eevdf_sim *sim = two_hogs("6.18", NULL, 0);
	int pid;

	for (int k = 1; k <= EEVDF_RULE_YIELD; k++) {
		const char *n = eevdf_rule_name((enum eevdf_rule)k);

		ck_assert((n != NULL) ==
			  (eevdf_rule_text((enum eevdf_rule)k) != NULL));
	}
	ck_assert_str_eq(eevdf_rule_name(EEVDF_RULE_PICK_EARLIEST),
			 "pick_earliest");
	ck_assert_ptr_null(eevdf_rule_name(EEVDF_RULE_NONE));
	ck_assert_int_eq(eevdf_sim_task_state(NULL, 1, &s), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_task_state(sim, 3, &s), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_task_state(sim, 0, &s), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_rq_state(sim, 1, &rs), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_rq_pick(sim, -1, &pid, &rule), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_sim_rq_tasks(sim, 0, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_trace_detail(sim, 1u << 7), EEVDF_EINVAL);
	ck_assert_str_eq(eevdf_sim_task_group(sim, 1), "/autogroup-1");
	ck_assert_ptr_null(eevdf_sim_task_group(sim, 9));
	/* not started yet: not fair-queued, nothing to pick */
	ck_assert_int_eq(eevdf_sim_task_state(sim, 1, &s), 0);
	ck_assert(!s.fair && !s.on_rq);
	ck_assert_int_eq(eevdf_sim_rq_pick(sim, 0, &pid, &rule), 0);
	ck_assert_int_eq(pid, -1);
	ck_assert_int_eq(rule, EEVDF_RULE_NONE);
	eevdf_sim_free(sim);
}
END_TEST

Suite *state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, state_of_a_worked_queue);
	tcase_add_test(tc, pick_rules_protection_and_curr);
	tcase_add_test(tc, decisions_of_two_hogs);
	tcase_add_test(tc, wakeup_denied_by_run_to_parity);
	tcase_add_test(tc, state_events_once_per_event);
	tcase_add_test(tc, observing_changes_nothing);
	tcase_add_test(tc, groups_walk_pick_and_decide);
	tcase_add_test(tc, rules_have_names_and_bad_args_fail);
	suite_add_tcase(s, tc);
	return s;
}
