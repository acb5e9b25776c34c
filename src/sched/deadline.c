/* SPDX-License-Identifier: MIT */
/*
 * The deadline class, after kernel/sched/deadline.c (read at 4ae8d9aa9f9d
 * for 6.17 and at ca1e8eede4fc for 6.19; 6.12 from 5f6bd380c7bd).
 *
 * Each SCHED_DEADLINE task is a constant bandwidth server (CBS): runtime
 * Q every period P with relative deadline D.  Runtime left and an absolute
 * deadline move as it runs; out of runtime it is throttled until its
 * replenishment timer (the next period) gives Q back and moves the
 * deadline a period on.  A waking task keeps its deadline and runtime
 * unless they would let it exceed its bandwidth (dl_entity_overflow()),
 * and a constrained task (D < P) woken past its deadline waits for its
 * next period.  The run queue is an rbtree by absolute deadline (EDF);
 * the leftmost runs.  Admission control keeps the sum of Q / P within
 * sched_rt_runtime_us / sched_rt_period_us of the machine's capacity.
 *
 * The fair server (rq->fair_server, 6.12+) is a deadline entity of
 * runtime 50 ms every 1 s in deferred mode: the time fair tasks run (and
 * the time the CPU idles) is charged to it "in background", and only
 * when fair tasks got less than its runtime by the zero-laxity instant
 * (deadline - runtime) does its timer queue it, so that it preempts RT
 * work and runs fair tasks for what is left of its runtime.  Its start
 * and stop rules differ by release (profile.h enum dl_server_rule).
 *
 * Not modelled: GRUB (SCHED_FLAG_RECLAIM) and the running_bw / inactive
 * timer bookkeeping, which only feed GRUB and schedutil; priority
 * inheritance boosting; frequency scaling (arch_scale_freq_capacity is
 * 1024).  cpudl's max-heap is a scan of the CPUs: among CPUs whose
 * earliest deadlines are equal the heap returns one of them, the scan
 * the lowest numbered.
 */
#include <string.h>

#include "core.h"
#include "cpupri.h"
#include "deadline.h"
#include "fair.h"
#include "rt.h"
#include "smp.h"

/* sysctl_sched_dl_period_min / _max (b4098bfc5efb, v5.9), in ns */
#define DL_PERIOD_MIN 100000ull
#define DL_PERIOD_MAX ((1ull << 22) * 1000ull)
/* a defer timer is not pushed for less than this (dl_server_min_res) */
#define DL_SERVER_MIN_RES 1000000ull

static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static inline struct task *dl_task_of(struct sched_dl_entity *dl_se)
{
	EEVDF_ASSERT(!dl_se->dl_server);
	return dl_se->task;
}

static inline struct rq *rq_of_dl_se(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_server)
		return dl_se->rq;
	return dl_task_of(dl_se)->se.cfs_rq->rq;
}

static inline bool is_dl_task(const struct task *p)
{
	return p && p->sched_class == &dl_sched_class;
}

/* dl_entity_preempt(): an earlier deadline wins. */
static inline bool dl_entity_preempt(const struct sched_dl_entity *a,
				     const struct sched_dl_entity *b)
{
	return dl_time_before(a->deadline, b->deadline);
}

static inline enum dl_server_rule rule_of(const struct rq *rq)
{
	return rq->sp->profile->dl_server;
}

u64 to_ratio(u64 period, u64 runtime)
{
	if (!period)
		return 0;
	return (runtime << BW_SHIFT) / period;
}

void init_dl_rq(struct rq *rq)
{
	struct dl_rq *dl_rq = &rq->dl;

	memset(dl_rq, 0, sizeof(*dl_rq));
	eevdf__rb_init(&dl_rq->root, NULL, NULL);
	eevdf__rb_init(&dl_rq->pushable, NULL, NULL);
}

/* Admission control ------------------------------------------------------ */

/* dl_b->bw: sched_rt_runtime_us of sched_rt_period_us, or -1. */
s64 eevdf__dl_bw_limit(const struct scheduler *sched)
{
	if (sched->sp.rt_runtime < 0)
		return -1;
	return (s64)to_ratio(sched->sp.rt_period, (u64)sched->sp.rt_runtime);
}

/* dl_bw_capacity(): the machine's CPUs, at their capacities. */
static u64 dl_bw_capacity(const struct scheduler *sched)
{
	u64 cap = 0;

	for (int i = 0; i < sched->nr_cpus; i++)
		cap += sched->topo.cpu[i].capacity;
	return cap;
}

/* __dl_overflow(): cap_scale(bw, cap) < total_bw - old_bw + new_bw. */
static bool dl_overflow(const struct scheduler *sched, u64 old_bw, u64 new_bw)
{
	s64 bw = eevdf__dl_bw_limit(sched);

	return bw != -1 && (((u64)bw * dl_bw_capacity(sched)) >> 10) <
				   sched->dl_total_bw - old_bw + new_bw;
}

const char *checkparam_dl(const struct dl_attr *attr)
{
	u64 period = attr->period ? attr->period : attr->deadline;

	if (!attr->deadline)
		return "the deadline must not be 0";
	if (attr->runtime < (1ull << DL_SCALE))
		return "the runtime must be at least 1024 ns (1 << DL_SCALE)";
	if ((attr->deadline | attr->period) >> 63)
		return "the deadline and period must be below 2^63 ns";
	if (period < attr->deadline || attr->deadline < attr->runtime)
		return "runtime <= deadline <= period must hold";
	if (period < DL_PERIOD_MIN || period > DL_PERIOD_MAX)
		return "the period must be within sched_deadline_period_min_us "
		       "(100 us) and sched_deadline_period_max_us (4.19 s)";
	return NULL;
}

bool sched_dl_overflow(struct scheduler *sched, struct task *p, bool dl_policy,
		       const struct dl_attr *attr)
{
	u64 period = attr->period ? attr->period : attr->deadline;
	u64 new_bw = dl_policy ? to_ratio(period, attr->runtime) : 0;
	bool has_dl = p->sched_class == &dl_sched_class;

	if (has_dl && new_bw == p->dl->dl_bw)
		return true;
	if (dl_policy && !has_dl) {
		if (dl_overflow(sched, 0, new_bw))
			return false;
		sched->dl_total_bw += new_bw;
		return true;
	}
	if (dl_policy && has_dl) {
		if (dl_overflow(sched, p->dl->dl_bw, new_bw))
			return false;
		sched->dl_total_bw += new_bw - p->dl->dl_bw;
		return true;
	}
	/*
	 * Leaving the class: the kernel gives the bandwidth back at the
	 * task's 0-lag instant (switched_from_dl(), the inactive timer); with no
	 * GRUB bookkeeping it is given back here, at once.
	 */
	if (has_dl)
		sched->dl_total_bw -= p->dl->dl_bw;
	return true;
}

void eevdf__no_dl_init(struct scheduler *sched)
{
	memset(&sched->no_dl, 0, sizeof(sched->no_dl));
	eevdf__event_init(&sched->no_dl.dl_timer, REV_DL_TIMER, EVC_TICK);
}

bool eevdf__no_dl_pristine(const struct scheduler *sched)
{
	struct sched_dl_entity fresh;

	memset(&fresh, 0, sizeof(fresh));
	eevdf__event_init(&fresh.dl_timer, REV_DL_TIMER, EVC_TICK);
	return memcmp(&fresh, &sched->no_dl, sizeof(fresh)) == 0;
}

int eevdf__task_dl(struct scheduler *sched, struct task *p)
{
	struct sched_dl_entity *dl_se;

	if (p->dl != &sched->no_dl)
		return 0;
	dl_se = calloc(1, sizeof(*dl_se));
	if (!dl_se)
		return EEVDF_ENOMEM;
	eevdf__event_init(&dl_se->dl_timer, REV_DL_TIMER, EVC_TICK);
	dl_se->task = p;
	p->dl = dl_se;
	return 0;
}

void eevdf__task_dl_free(struct scheduler *sched, struct task *p)
{
	if (p->dl && p->dl != &sched->no_dl)
		free(p->dl);
	p->dl = &sched->no_dl;
}

void eevdf__setparam_dl(struct task *p, const struct dl_attr *attr)
{
	struct sched_dl_entity *dl_se = p->dl;

	dl_se->dl_runtime = attr->runtime;
	dl_se->dl_deadline = attr->deadline;
	dl_se->dl_period = attr->period ? attr->period : attr->deadline;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, dl_se->dl_runtime);
	dl_se->dl_density = to_ratio(dl_se->dl_deadline, dl_se->dl_runtime);
}

void eevdf__task_dead_dl(struct scheduler *sched, struct task *p)
{
	if (p->sched_class != &dl_sched_class)
		return;
	sched->dl_total_bw -= p->dl->dl_bw;
	/* a freed task must leave no timer behind */
	eevdf__eventq_cancel(&sched->evq, &p->dl->dl_timer);
}

/* Earliest deadlines, cpupri and overload -------------------------------- */

static inline struct sched_dl_entity *dl_node_se(struct eevdf_rb_node *n)
{
	return n ? container_of(n, struct sched_dl_entity, rb_node) : NULL;
}

static inline struct task *push_node_task(struct eevdf_rb_node *n)
{
	return n ? container_of(n, struct sched_dl_entity, push_node)->task :
		   NULL;
}

static bool dl_less(const struct eevdf_rb_node *a,
		    const struct eevdf_rb_node *b)
{
	return dl_time_before(
		container_of(a, struct sched_dl_entity, rb_node)->deadline,
		container_of(b, struct sched_dl_entity, rb_node)->deadline);
}

static bool push_less(const struct eevdf_rb_node *a,
		      const struct eevdf_rb_node *b)
{
	return dl_time_before(
		container_of(a, struct sched_dl_entity, push_node)->deadline,
		container_of(b, struct sched_dl_entity, push_node)->deadline);
}

/*
 * inc_dl_deadline() / dec_dl_deadline(): earliest_dl.curr, and the CPU's
 * cpupri level: CPUPRI_HIGHER while it has deadline entities, the fair
 * server's included; back to its RT level when the last one leaves.
 */
static void inc_dl_deadline(struct rq *rq, u64 deadline)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (!dl_rq->has_curr ||
	    dl_time_before(deadline, dl_rq->earliest_curr)) {
		if (!dl_rq->has_curr)
			cpupri_set(rq->sched, rq, MAX_RT_PRIO);
		dl_rq->has_curr = true;
		dl_rq->earliest_curr = deadline;
	}
}

static void dec_dl_deadline(struct rq *rq)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (!dl_rq->dl_nr_running) {
		dl_rq->has_curr = dl_rq->has_next = false;
		dl_rq->earliest_curr = dl_rq->earliest_next = 0;
		cpupri_set(rq->sched, rq, rq->rt.highest_prio_curr);
	} else {
		dl_rq->earliest_curr =
			dl_node_se(eevdf__rb_first(&dl_rq->root))->deadline;
	}
}

static void dl_set_overload(struct rq *rq, bool on)
{
	struct scheduler *sched = rq->sched;

	if (rq->dl.overloaded == on)
		return;
	rq->dl.overloaded = on;
	sched->dlo_mask[rq->cpu] = on;
	if (on)
		sched->dlo_count++;
	else
		sched->dlo_count--;
}

static void enqueue_pushable_dl_task(struct rq *rq, struct task *p)
{
	if (p->dl->on_push)
		return;
	eevdf__rb_insert(&rq->dl.pushable, &p->dl->push_node, push_less);
	p->dl->on_push = true;
	rq->dl.has_next = true;
	rq->dl.earliest_next =
		push_node_task(eevdf__rb_first(&rq->dl.pushable))->dl->deadline;
	dl_set_overload(rq, true);
}

static void dequeue_pushable_dl_task(struct rq *rq, struct task *p)
{
	struct eevdf_rb_node *first;

	if (!p->dl->on_push)
		return;
	eevdf__rb_erase(&rq->dl.pushable, &p->dl->push_node);
	p->dl->on_push = false;
	first = eevdf__rb_first(&rq->dl.pushable);
	if (first) {
		rq->dl.earliest_next = push_node_task(first)->dl->deadline;
	} else {
		rq->dl.has_next = false;
		dl_set_overload(rq, false);
	}
}

/* The rbtree --------------------------------------------------------------- */

static void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	struct dl_rq *dl_rq = &rq->dl;

	EEVDF_ASSERT(!dl_se->on_rq);
	eevdf__rb_insert(&dl_rq->root, &dl_se->rb_node, dl_less);
	dl_se->on_rq = true;
	dl_rq->dl_nr_running++;
	/* 52d15521eb75 (6.17): the server no longer counts as a task */
	if (!dl_se->dl_server || rule_of(rq) == DL_SERVER_6_12)
		add_nr_running(rq, 1);
	inc_dl_deadline(rq, dl_se->deadline);
}

static void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	struct dl_rq *dl_rq = &rq->dl;

	if (!dl_se->on_rq)
		return;
	eevdf__rb_erase(&dl_rq->root, &dl_se->rb_node);
	dl_se->on_rq = false;
	dl_rq->dl_nr_running--;
	if (!dl_se->dl_server || rule_of(rq) == DL_SERVER_6_12)
		sub_nr_running(rq, 1);
	dec_dl_deadline(rq);
}

static inline bool is_leftmost(struct sched_dl_entity *dl_se,
			       const struct dl_rq *dl_rq)
{
	return eevdf__rb_first(&dl_rq->root) == &dl_se->rb_node;
}

/* CBS --------------------------------------------------------------------- */

/* replenish_dl_new_period(): a new job from now; a deferred server that is
 * not serving starvation waits for its zero-laxity instant. */
static void replenish_dl_new_period(struct sched_dl_entity *dl_se,
				    struct rq *rq)
{
	dl_se->deadline = rq->clock + dl_se->dl_deadline;
	dl_se->runtime = (s64)dl_se->dl_runtime;
	if (dl_se->dl_defer && !dl_se->dl_defer_running) {
		dl_se->dl_throttled = true;
		dl_se->dl_defer_armed = true;
	}
}

static void setup_new_dl_entity(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_throttled)
		return;
	replenish_dl_new_period(dl_se, rq_of_dl_se(dl_se));
}

void eevdf__dl_new_task(struct rq *rq, struct task *p)
{
	(void)rq;
	p->dl->dl_throttled = false;
	setup_new_dl_entity(p->dl);
}

/*
 * dl_entity_overflow(): runtime / (deadline - t) > dl_runtime /
 * dl_deadline, cross-multiplied in units of 1024 ns, with the kernel's
 * unsigned arithmetic.
 */
static bool dl_entity_overflow(const struct sched_dl_entity *dl_se, u64 t)
{
	u64 left = (dl_se->dl_deadline >> DL_SCALE) *
		   (u64)(dl_se->runtime >> DL_SCALE);
	u64 right = ((dl_se->deadline - t) >> DL_SCALE) *
		    (dl_se->dl_runtime >> DL_SCALE);

	return dl_time_before(right, left);
}

static inline bool dl_is_implicit(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_deadline == dl_se->dl_period;
}

static inline u64 dl_next_period(const struct sched_dl_entity *dl_se)
{
	return dl_se->deadline - dl_se->dl_deadline + dl_se->dl_period;
}

/*
 * The dl_timer of an entity.  The fair servers' timers are background
 * events (sched->nr_bg_events): they wake no task, so when only they are
 * left the engine knows that every remaining task is blocked for good.
 */
static void arm_dl_timer(struct sched_dl_entity *dl_se, eevdf_time when)
{
	struct scheduler *sched = rq_of_dl_se(dl_se)->sched;

	if (dl_se->dl_server && !eevdf__event_queued(&dl_se->dl_timer))
		sched->nr_bg_events++;
	eevdf__queue_event(sched, &dl_se->dl_timer, when);
}

static void cancel_dl_timer(struct sched_dl_entity *dl_se)
{
	struct scheduler *sched = rq_of_dl_se(dl_se)->sched;

	if (!eevdf__event_queued(&dl_se->dl_timer))
		return;
	if (dl_se->dl_server)
		sched->nr_bg_events--;
	eevdf__eventq_cancel(&sched->evq, &dl_se->dl_timer);
}

/*
 * start_dl_timer(): at the next period, or for an armed server at its
 * zero-laxity instant (deadline - runtime); false when that is past.
 */
static bool start_dl_timer(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	struct scheduler *sched = rq->sched;
	u64 act = dl_se->dl_defer_armed ?
			  dl_se->deadline - (u64)dl_se->runtime :
			  dl_next_period(dl_se);

	/* ktime_us_delta(act, now) < 0: past by a whole microsecond */
	if ((s64)(act - (u64)sched->now) / 1000 < 0)
		return false;
	/* hrtimer_start() of an expiry already passed fires at once */
	if (!eevdf__event_queued(&dl_se->dl_timer))
		arm_dl_timer(dl_se, (eevdf_time)act < sched->now ?
					    sched->now :
					    (eevdf_time)act);
	return true;
}

static void replenish_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	/* a deferred server that could not run its runtime in background
	 * and would now overflow starts a new period */
	if (dl_se->dl_deadline == 0 ||
	    (dl_se->dl_defer_armed && dl_entity_overflow(dl_se, rq->clock))) {
		dl_se->deadline = rq->clock + dl_se->dl_deadline;
		dl_se->runtime = (s64)dl_se->dl_runtime;
	}
	if (dl_se->dl_yielded && dl_se->runtime > 0)
		dl_se->runtime = 0;
	/* push the deadline on until there is runtime: arbitrary overruns */
	while (dl_se->runtime <= 0) {
		dl_se->deadline += dl_se->dl_period;
		dl_se->runtime += (s64)dl_se->dl_runtime;
	}
	/* "sched: DL replenish lagged too much" */
	if (dl_time_before(dl_se->deadline, rq->clock))
		replenish_dl_new_period(dl_se, rq);
	dl_se->dl_yielded = false;
	dl_se->dl_throttled = false;
	if (dl_se->dl_defer_armed) {
		dl_se->dl_defer_armed = false;
		return;
	}
	/* a deferred server not serving starvation waits again */
	if (dl_se->dl_defer && !dl_se->dl_defer_running &&
	    dl_time_before(rq->clock, dl_se->deadline - (u64)dl_se->runtime)) {
		dl_se->dl_defer_armed = true;
		dl_se->dl_throttled = true;
		if (!start_dl_timer(dl_se)) {
			cancel_dl_timer(dl_se);
			dl_se->dl_defer_armed = false;
			dl_se->dl_throttled = false;
		}
	}
}

/* update_dl_revised_wakeup(): keep the deadline, cut the runtime to what
 * the density allows until it. */
static void update_dl_revised_wakeup(struct sched_dl_entity *dl_se,
				     struct rq *rq)
{
	u64 laxity = dl_se->deadline - rq->clock;

	dl_se->runtime = (s64)((dl_se->dl_density * laxity) >> BW_SHIFT);
}

/* update_dl_entity(): the CBS wakeup rule. */
static void update_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	const struct eevdf_profile *prof = rq->sp->profile;

	if (dl_time_before(dl_se->deadline, rq->clock) ||
	    dl_entity_overflow(dl_se, rq->clock)) {
		bool revised = !dl_is_implicit(dl_se) ||
			       (dl_se->dl_defer &&
				prof->dl_server_revised_wakeup);

		if (revised && !dl_time_before(dl_se->deadline, rq->clock)) {
			update_dl_revised_wakeup(dl_se, rq);
			return;
		}
		/* 115135422562: a lapsed server job re-arms */
		if (prof->dl_server_fix_stuck)
			dl_se->dl_defer_running = false;
		replenish_dl_new_period(dl_se, rq);
	} else if (dl_se->dl_server && dl_se->dl_defer &&
		   !dl_se->dl_defer_running) {
		/* it may keep its deadline, and waits for zero laxity */
		dl_se->dl_defer_armed = true;
		dl_se->dl_throttled = true;
	}
}

/*
 * dl_check_constrained_dl(): a constrained task woken after its deadline
 * but before its next period waits, throttled, for that period.
 */
static void dl_check_constrained_dl(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (dl_time_before(dl_se->deadline, rq->clock) &&
	    dl_time_before(rq->clock, dl_next_period(dl_se))) {
		if (!start_dl_timer(dl_se))
			return;
		dl_se->dl_throttled = true;
		if (dl_se->runtime > 0)
			dl_se->runtime = 0;
	}
}

static void enqueue_dl_entity(struct sched_dl_entity *dl_se, unsigned int flags)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (!dl_se->dl_throttled && !dl_is_implicit(dl_se))
		dl_check_constrained_dl(dl_se);
	/* throttled: the replenishment timer will queue it */
	if (!dl_se->dl_defer && dl_se->dl_throttled &&
	    !(flags & ENQUEUE_REPLENISH))
		return;
	if (flags & ENQUEUE_WAKEUP)
		update_dl_entity(dl_se);
	else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);
	else if ((flags & ENQUEUE_RESTORE) &&
		 dl_time_before(dl_se->deadline, rq->clock))
		setup_new_dl_entity(dl_se);
	/* a deferred server still waiting: not queued */
	if (dl_se->dl_throttled && start_dl_timer(dl_se))
		return;
	if (dl_se->dl_throttled) {
		cancel_dl_timer(dl_se);
		dl_se->dl_defer_armed = false;
		dl_se->dl_throttled = false;
	}
	__enqueue_dl_entity(dl_se);
}

static void dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	__dequeue_dl_entity(dl_se);
}

/* Accounting -------------------------------------------------------------- */

/* dl_scaled_delta_exec(): scaled by the CPU's capacity (frequency is the
 * nominal one). */
static s64 dl_scaled_delta_exec(const struct rq *rq, s64 delta)
{
	u64 cap = rq->sched->topo.cpu[rq->cpu].capacity;

	return (s64)(((u64)delta * cap) >> 10);
}

static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se,
			      s64 delta, bool idle);

/* The 6.19 idle rule: idle_rq() is an idle curr with nothing queued. */
static bool idle_rq(const struct rq *rq)
{
	return !rq->curr && !rq->nr_running && !rq->nr_wakelist;
}

static void throttle_dl_se(struct rq *rq, struct sched_dl_entity *dl_se)
{
	dl_se->dl_throttled = true;
	dequeue_dl_entity(dl_se);
	if (!dl_se->dl_server)
		dequeue_pushable_dl_task(rq, dl_task_of(dl_se));
	if (!start_dl_timer(dl_se)) {
		if (!dl_se->dl_server) {
			dl_sched_class.enqueue_task(rq, dl_task_of(dl_se),
						    ENQUEUE_REPLENISH);
		} else if (rule_of(rq) == DL_SERVER_6_12) {
			enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
		} else {
			/* 421fc59cf58c (6.17) */
			replenish_dl_new_period(dl_se, rq);
			start_dl_timer(dl_se);
		}
	}
	if (!is_leftmost(dl_se, &rq->dl))
		resched_curr(rq);
}

static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se,
			      s64 delta, bool idle)
{
	bool v619 = rule_of(rq) == DL_SERVER_6_19;

	if (delta <= 0) {
		if (dl_se->dl_yielded)
			throttle_dl_se(rq, dl_se);
		return;
	}
	if (dl_se->dl_server && dl_se->dl_throttled && !dl_se->dl_defer)
		return;
	/* fair time the queued server runs counts as served */
	if (dl_se->dl_server && !dl_se->dl_throttled && dl_se->on_rq)
		rq->sched->fair_server_ns += (u64)delta;
	/* fc975cfb3639 (6.16): a server's time is not scaled */
	if (!dl_se->dl_server || rule_of(rq) == DL_SERVER_6_12)
		delta = dl_scaled_delta_exec(rq, delta);
	dl_se->runtime -= delta;
	if (v619 && dl_se->dl_defer_idle && !idle)
		dl_se->dl_defer_idle = false;
	/*
	 * A deferred server whose fair tasks (or idle time) used its runtime
	 * in background is not needed this period: a new one, pushing its
	 * activation on.
	 */
	if (dl_se->dl_defer && dl_se->dl_throttled && dl_se->runtime <= 0) {
		if (v619 && dl_se->dl_defer_idle && idle) {
			dl_se->runtime = 0;
			return;
		}
		dl_se->dl_defer_running = false;
		cancel_dl_timer(dl_se);
		replenish_dl_new_period(dl_se, rq);
		if (v619 && idle)
			dl_se->dl_defer_idle = true;
		start_dl_timer(dl_se);
		return;
	}
	if (dl_se->runtime <= 0 || dl_se->dl_yielded)
		throttle_dl_se(rq, dl_se);
	/* deadline tasks share the RT bandwidth in the throttling profiles */
	if (!dl_se->dl_server)
		eevdf__rt_account_dl(rq, (u64)delta);
}

static void update_curr_dl(struct rq *rq)
{
	struct task *curr = rq->curr;
	s64 delta;

	if (!is_dl_task(curr) || !curr->dl->on_rq)
		return;
	delta = eevdf__update_curr_common(rq);
	update_curr_dl_se(rq, curr->dl, delta, false);
}

/* The fair server ----------------------------------------------------------- */

static inline bool server_on(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_server && dl_se->dl_runtime;
}

void dl_server_update(struct sched_dl_entity *dl_se, s64 delta)
{
	/* c7f7e9c73178 (6.13, 6.12.y): only an active server is charged */
	if (server_on(dl_se) && dl_se->dl_server_active)
		update_curr_dl_se(dl_se->rq, dl_se, delta, false);
}

/*
 * What a start or stop of the server costs (an hrtimer programmed or
 * cancelled and the dl_rq's bandwidth updated, the fair_server_start and
 * fair_server_stop cost entries): the CPU's current task pays it, or, on
 * an idle CPU, p, the task whose enqueue started the server, before it
 * runs.
 */
static void server_cost(struct sched_dl_entity *dl_se, struct task *p, u64 ns)
{
	struct rq *rq = dl_se->rq;

	eevdf__charge_cpu(rq->sched, rq->cpu, p, ns);
}

void dl_server_start(struct sched_dl_entity *dl_se, struct task *p)
{
	struct rq *rq = dl_se->rq;

	if (rule_of(rq) == DL_SERVER_6_19)
		dl_se->dl_defer_idle = false;
	if (!server_on(dl_se) || dl_se->dl_server_active)
		return;
	/* e636ffb9e31b (6.19): the donor's time first */
	if (rule_of(rq) == DL_SERVER_6_19) {
		if (rq->curr)
			rq->curr->sched_class->update_curr(rq);
		else
			dl_server_update_idle_time(rq);
	}
	rq->sched->dl_server_starts++;
	server_cost(dl_se, p, rq->sched->costs.fair_server_start);
	dl_se->dl_server_active = true;
	enqueue_dl_entity(dl_se, ENQUEUE_WAKEUP);
	if (!is_dl_task(rq->curr) || dl_entity_preempt(dl_se, rq->curr->dl))
		resched_curr(rq);
}

void dl_server_stop(struct sched_dl_entity *dl_se, struct task *p)
{
	struct rq *rq = dl_se->rq;

	if (!server_on(dl_se) || !dl_se->dl_server_active)
		return;
	rq->sched->dl_server_stops++;
	server_cost(dl_se, p, rq->sched->costs.fair_server_stop);
	dequeue_dl_entity(dl_se);
	cancel_dl_timer(dl_se);
	dl_se->dl_defer_armed = false;
	dl_se->dl_throttled = false;
	dl_se->dl_defer_idle = false;
	dl_se->dl_server_active = false;
}

/*
 * The idle time since the idle task last ran, charged to the server:
 * 6.12-6.18's dl_server_update_idle_time() takes it off the runtime,
 * never below 0; 6.19's update_curr_idle() goes through
 * update_curr_dl_se(), which may push the period once and mark the
 * server idle.
 */
void dl_server_update_idle_time(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;
	s64 delta = (s64)(rq->clock - rq->idle_exec_start);

	if (!dl_se->dl_server || !dl_se->dl_defer)
		return;
	if (rule_of(rq) == DL_SERVER_6_19) {
		if (delta <= 0)
			return;
		rq->idle_exec_start = rq->clock;
		if (dl_se->dl_server_active && dl_se->dl_runtime)
			update_curr_dl_se(rq, dl_se, delta, idle_rq(rq));
		return;
	}
	if (dl_se->runtime < 0 || delta < 0)
		return;
	dl_se->runtime -= delta;
	if (dl_se->runtime < 0) {
		dl_se->dl_defer_running = false;
		dl_se->runtime = 0;
	}
	rq->idle_exec_start = rq->clock;
}

/*
 * dl_server_apply_params() and setup_new_dl_entity() at boot
 * (sched_init_dl_servers(), 9f239df55546; before it, 6.12's lazy first
 * dl_server_start() did the same), and dl_server_start() on every CPU:
 * the kernel threads of a booted machine have long started each CPU's
 * server, so a simulation begins with it active from time 0 in the
 * releases that keep it so (6.17+); in 6.12-6.16 it starts at the CPU's
 * first fair enqueue.
 */
void eevdf__fair_server_init(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;
	const struct sched_params *sp = rq->sp;

	memset(dl_se, 0, sizeof(*dl_se));
	dl_se->rq = rq;
	eevdf__event_init(&dl_se->dl_timer, REV_DL_TIMER, EVC_TICK);
	if (rule_of(rq) == DL_SERVER_NONE)
		return;
	dl_se->dl_server = true;
	dl_se->dl_defer = true;
	dl_se->dl_runtime = sp->fair_server_runtime;
	dl_se->dl_deadline = dl_se->dl_period = sp->fair_server_period;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, dl_se->dl_runtime);
	dl_se->dl_density = to_ratio(dl_se->dl_deadline, dl_se->dl_runtime);
	rq->sched->dl_total_bw += dl_se->dl_bw;
	if (!dl_se->dl_runtime)
		return;
	setup_new_dl_entity(dl_se);
	if (rule_of(rq) == DL_SERVER_6_12)
		return;
	dl_se->dl_server_active = true;
	enqueue_dl_entity(dl_se, ENQUEUE_WAKEUP);
}

/* Timers ----------------------------------------------------------------- */

static void push_dl_tasks(struct rq *rq);

/* dl_server_timer(): zero laxity reached, or a new period. */
static void dl_server_timer(struct rq *rq, struct sched_dl_entity *dl_se)
{
	enum dl_server_rule rule = rule_of(rq);

	if (!dl_se->dl_throttled || !dl_se->dl_runtime)
		return;
	if (rule == DL_SERVER_6_19) {
		if (rq->curr)
			rq->curr->sched_class->update_curr(rq);
		else
			dl_server_update_idle_time(rq);
		if (dl_se->dl_defer_idle) {
			dl_server_stop(dl_se, NULL);
			return;
		}
	}
	/* 6.12-6.16: with no fair task left, replenish and stay off */
	if (rule == DL_SERVER_6_12 && !rq->cfs.nr_queued) {
		replenish_dl_entity(dl_se);
		return;
	}
	if (dl_se->dl_defer_armed) {
		/* fair time since arming: push the activation on */
		if (dl_time_before(rq->clock, dl_se->deadline -
						      (u64)dl_se->runtime -
						      DL_SERVER_MIN_RES)) {
			u64 fw = dl_se->deadline - rq->clock -
				 (u64)dl_se->runtime;

			arm_dl_timer(dl_se, rq->sched->now + (eevdf_time)fw);
			return;
		}
		dl_se->dl_defer_running = true;
	}
	enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
	if (!is_dl_task(rq->curr) || dl_entity_preempt(dl_se, rq->curr->dl))
		resched_curr(rq);
	if (rq->dl.has_next)
		push_dl_tasks(rq);
}

/* dl_task_timer(): a throttled task's next period. */
void eevdf__dl_timer(struct scheduler *sched, struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	struct task *p;

	rq->clock = (u64)sched->now;
	eevdf__mark_settle(sched, rq);
	if (dl_se->dl_server) {
		sched->nr_bg_events--; /* it fired */
		dl_server_timer(rq, dl_se);
		return;
	}
	p = dl_task_of(dl_se);
	if (!is_dl_task(p) || !dl_se->dl_throttled)
		return;
	/* throttled on its way to sleep: replenish, queue at wakeup */
	if (!p->on_rq) {
		replenish_dl_entity(dl_se);
		return;
	}
	dl_sched_class.enqueue_task(rq, p, ENQUEUE_REPLENISH);
	if (is_dl_task(rq->curr))
		dl_sched_class.wakeup_preempt(rq, p, 0);
	else
		resched_curr(rq);
	if (rq->dl.has_next)
		push_dl_tasks(rq);
}

/* The class hooks ---------------------------------------------------------- */

static void enqueue_task_dl(struct rq *rq, struct task *p, unsigned int flags)
{
	enqueue_dl_entity(p->dl, flags);
	if (rq->curr != p && !p->dl->dl_throttled && p->dl->on_rq &&
	    task_nr_allowed(rq->sched, p) > 1)
		enqueue_pushable_dl_task(rq, p);
}

static bool dequeue_task_dl(struct rq *rq, struct task *p, unsigned int flags)
{
	(void)flags;
	update_curr_dl(rq);
	dequeue_dl_entity(p->dl);
	if (!p->dl->dl_throttled)
		dequeue_pushable_dl_task(rq, p);
	return true;
}

/* yield_task_dl(): off the CPU until the next period, with no runtime. */
static void yield_task_dl(struct rq *rq)
{
	rq->curr->dl->dl_yielded = true;
	update_curr_dl(rq);
}

static struct task *pick_task_dl(struct rq *rq)
{
	struct sched_dl_entity *dl_se;
	struct task *p;

	for (;;) {
		dl_se = dl_node_se(eevdf__rb_first(&rq->dl.root));
		if (!dl_se)
			return NULL;
		if (!dl_se->dl_server)
			return dl_task_of(dl_se);
		p = pick_task_fair(rq);
		if (p) {
			rq->dl_server = dl_se;
			return p;
		}
		/* the server finds no fair task */
		if (rule_of(rq) == DL_SERVER_6_12) {
			dl_se->dl_yielded = true;
			update_curr_dl_se(rq, dl_se, 0, false);
		} else {
			dl_server_stop(dl_se, NULL);
		}
	}
}

static void set_next_task_dl(struct rq *rq, struct task *p, bool first)
{
	p->se.exec_start = rq->clock;
	dequeue_pushable_dl_task(rq, p);
	if (!first)
		return;
	if (rq->dl.has_next)
		rq->push_dl_pending = true;
	if (sched_feat_rq(rq, HRTICK_DL))
		eevdf__rq_hrtick_arm(
			rq, p->dl->runtime > 10000 ? p->dl->runtime : 10000);
}

static void put_prev_task_dl(struct rq *rq, struct task *p, struct task *next)
{
	(void)next;
	update_curr_dl(rq);
	if (p->dl->on_rq && task_nr_allowed(rq->sched, p) > 1)
		enqueue_pushable_dl_task(rq, p);
}

static void task_tick_dl(struct rq *rq, struct task *p, bool queued)
{
	update_curr_dl(rq);
	if (sched_feat_rq(rq, HRTICK_DL) && queued && p->dl->runtime > 0 &&
	    is_leftmost(p->dl, &rq->dl))
		eevdf__rq_hrtick_arm(
			rq, p->dl->runtime > 10000 ? p->dl->runtime : 10000);
}

/* cpudl_find(): the CPUs without deadline work that p may use; else the
 * CPU whose earliest deadline is the latest, if later than p's. */
static bool cpudl_find(struct scheduler *sched, const struct task *p,
		       uint8_t *mask)
{
	int best = -1;

	if (mask) {
		bool any = false;

		for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
			mask[cpu] = !sched->rqs[cpu].dl.has_curr &&
				    task_allowed(p, cpu);
			any |= mask[cpu];
		}
		if (any)
			return true;
	}
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		const struct dl_rq *d = &sched->rqs[cpu].dl;

		if (d->has_curr &&
		    (best < 0 ||
		     dl_time_before(sched->rqs[best].dl.earliest_curr,
				    d->earliest_curr)))
			best = cpu;
	}
	if (best < 0 || !task_allowed(p, best) ||
	    !dl_time_before(p->dl->deadline, sched->rqs[best].dl.earliest_curr))
		return false;
	if (mask) {
		memset(mask, 0, (size_t)sched->nr_cpus);
		mask[best] = 1;
	}
	return true;
}

/* find_later_rq(): as find_lowest_rq() over cpudl's answer. */
static int find_later_rq(struct scheduler *sched, struct task *p, int this_cpu)
{
	uint8_t *mask = sched->cpu_scratch;
	const struct sched_domain *sd;
	int cpu = p->cpu;

	if (task_nr_allowed(sched, p) == 1)
		return -1;
	if (!cpudl_find(sched, p, mask))
		return -1;
	if (mask[cpu])
		return cpu;
	if (this_cpu >= 0 && !mask[this_cpu])
		this_cpu = -1;
	for_each_domain(&sched->topo, cpu, sd)
	{
		if (!(sd->flags & SD_WAKE_AFFINE))
			continue;
		if (this_cpu >= 0 && sd_span_has(sd->span, this_cpu))
			return this_cpu;
		for (u32 i = 0; i < sd->span->weight; i++)
			if (mask[sd->span->cpus[i]])
				return sd->span->cpus[i];
	}
	if (this_cpu >= 0)
		return this_cpu;
	for (int c = 0; c < sched->nr_cpus; c++)
		if (mask[c])
			return c;
	return -1;
}

static inline bool dl_task_is_earliest_deadline(const struct task *p,
						const struct rq *rq)
{
	return !rq->dl.dl_nr_running ||
	       dl_time_before(p->dl->deadline, rq->dl.earliest_curr);
}

static int select_task_rq_dl(struct scheduler *sched, struct task *p,
			     int prev_cpu, int this_cpu,
			     unsigned int wake_flags)
{
	const struct task *curr = sched->rqs[prev_cpu].curr;
	int target;

	if (!(wake_flags & WF_TTWU))
		return prev_cpu;
	if (!(is_dl_task(curr) &&
	      (task_nr_allowed(sched, curr) < 2 ||
	       !dl_entity_preempt(p->dl, curr->dl)) &&
	      task_nr_allowed(sched, p) > 1))
		return prev_cpu;
	target = find_later_rq(sched, p, this_cpu);
	if (target != -1 &&
	    dl_task_is_earliest_deadline(p, &sched->rqs[target]))
		return target;
	return prev_cpu;
}

static void check_preempt_equal_dl(struct rq *rq, struct task *p)
{
	struct scheduler *sched = rq->sched;

	if (task_nr_allowed(sched, rq->curr) == 1 ||
	    !cpudl_find(sched, rq->curr, NULL))
		return;
	if (task_nr_allowed(sched, p) != 1 && cpudl_find(sched, p, NULL))
		return;
	resched_curr(rq);
}

static void wakeup_preempt_dl(struct rq *rq, struct task *p,
			      unsigned int wake_flags)
{
	(void)wake_flags;
	if (dl_entity_preempt(p->dl, rq->curr->dl)) {
		resched_curr(rq);
		return;
	}
	if (p->dl->deadline == rq->curr->dl->deadline && !rq->need_resched)
		check_preempt_equal_dl(rq, p);
}

/* Push and pull -------------------------------------------------------------- */

static void move_task(struct rq *src, struct rq *dst, struct task *p)
{
	struct scheduler *sched = src->sched;

	eevdf__charge_cpu(sched, src->cpu, NULL,
			  eevdf__rq_lock(sched, dst, src->cpu,
					 sched->costs.ttwu_local, NULL));
	src->clock = dst->clock = (u64)sched->now;
	dequeue_task_dl(src, p, 0);
	set_task_cpu(sched, p, dst->cpu);
	enqueue_task_dl(dst, p, 0);
	eevdf__mark_settle(sched, src);
	eevdf__mark_settle(sched, dst);
}

static bool push_dl_task(struct rq *rq)
{
	struct scheduler *sched = rq->sched;
	struct task *next;
	struct rq *later;
	int cpu;

	next = push_node_task(eevdf__rb_first(&rq->dl.pushable));
	if (!next)
		return false;
	/* it preempts a curr that could move: reschedule instead */
	if (is_dl_task(rq->curr) &&
	    dl_time_before(next->dl->deadline, rq->curr->dl->deadline) &&
	    task_nr_allowed(sched, rq->curr) > 1) {
		resched_curr(rq);
		eevdf__mark_settle(sched, rq);
		return false;
	}
	cpu = find_later_rq(sched, next, rq->cpu);
	if (cpu == -1 || cpu == rq->cpu)
		return false;
	later = &sched->rqs[cpu];
	if (!dl_task_is_earliest_deadline(next, later))
		return false;
	move_task(rq, later, next);
	resched_curr(later);
	sched->dl_pushes++;
	return true;
}

static void push_dl_tasks(struct rq *rq)
{
	while (push_dl_task(rq))
		;
}

void eevdf__push_dl_tasks(struct rq *rq)
{
	push_dl_tasks(rq);
}

void eevdf__pull_dl_task(struct rq *this_rq)
{
	struct scheduler *sched = this_rq->sched;
	u64 dmin = (u64)INT64_MAX;
	bool resched = false;

	if (!sched->dlo_count)
		return;
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct rq *src = &sched->rqs[cpu];
		struct task *p = NULL;

		if (cpu == this_rq->cpu || !sched->dlo_mask[cpu])
			continue;
		if (this_rq->dl.dl_nr_running &&
		    dl_time_before(this_rq->dl.earliest_curr,
				   src->dl.earliest_next))
			continue;
		eevdf__charge_cpu(sched, this_rq->cpu, NULL,
				  eevdf__rq_lock(sched, src, this_rq->cpu,
						 sched->costs.ttwu_local,
						 NULL));
		if (src->dl.dl_nr_running <= 1)
			continue;
		for (struct eevdf_rb_node *n =
			     eevdf__rb_first(&src->dl.pushable);
		     n; n = eevdf__rb_next(n)) {
			struct task *t = push_node_task(n);

			if (src->curr != t && task_allowed(t, this_rq->cpu)) {
				p = t;
				break;
			}
		}
		if (!p || !dl_time_before(p->dl->deadline, dmin) ||
		    !dl_task_is_earliest_deadline(p, this_rq))
			continue;
		/* it is about to run where it is */
		if (is_dl_task(src->curr) &&
		    dl_time_before(p->dl->deadline, src->curr->dl->deadline))
			continue;
		move_task(src, this_rq, p);
		dmin = p->dl->deadline;
		sched->dl_pulls++;
		resched = true;
	}
	if (resched)
		resched_curr(this_rq);
}

static bool balance_dl(struct rq *rq, struct task *prev)
{
	if (!prev->dl->on_rq && is_dl_task(prev))
		eevdf__pull_dl_task(rq);
	return rq->dl.dl_nr_running != 0;
}

static void task_woken_dl(struct rq *rq, struct task *p)
{
	if (rq->curr != p && !rq->need_resched &&
	    task_nr_allowed(rq->sched, p) > 1 && is_dl_task(rq->curr) &&
	    (task_nr_allowed(rq->sched, rq->curr) < 2 ||
	     !dl_entity_preempt(p->dl, rq->curr->dl)))
		push_dl_tasks(rq);
}

static void switched_from_dl(struct rq *rq, struct task *p)
{
	if (!p->on_rq || rq->dl.dl_nr_running)
		return;
	rq->pull_dl_pending = true;
}

static void switched_to_dl(struct rq *rq, struct task *p)
{
	if (!p->on_rq || rq->curr == p)
		return;
	if (task_nr_allowed(rq->sched, p) > 1 && rq->dl.overloaded)
		rq->push_dl_pending = true;
	if (is_dl_task(rq->curr))
		wakeup_preempt_dl(rq, p, 0);
	else
		resched_curr(rq);
}

static void prio_changed_dl(struct rq *rq, struct task *p, int oldprio)
{
	(void)oldprio;
	if (!p->on_rq)
		return;
	if (!rq->dl.overloaded)
		rq->pull_dl_pending = true;
	if (rq->curr == p) {
		if (dl_time_before(rq->dl.earliest_curr, p->dl->deadline))
			resched_curr(rq);
	} else if (!is_dl_task(rq->curr) ||
		   dl_time_before(p->dl->deadline, rq->curr->dl->deadline)) {
		resched_curr(rq);
	}
}

const struct sched_class dl_sched_class = {
	.name = "dl",
	.rank = 3,
	.enqueue_task = enqueue_task_dl,
	.dequeue_task = dequeue_task_dl,
	.yield_task = yield_task_dl,
	.wakeup_preempt = wakeup_preempt_dl,
	.balance = balance_dl,
	.pick_task = pick_task_dl,
	.put_prev_task = put_prev_task_dl,
	.set_next_task = set_next_task_dl,
	.select_task_rq = select_task_rq_dl,
	.task_woken = task_woken_dl,
	.task_tick = task_tick_dl,
	.switched_from = switched_from_dl,
	.switched_to = switched_to_dl,
	.prio_changed = prio_changed_dl,
	.update_curr = update_curr_dl,
};

/* Invariants ------------------------------------------------------------------ */

const char *eevdf__dl_rq_check(const struct rq *rq)
{
	const struct dl_rq *dl_rq = &rq->dl;
	unsigned int n = 0;
	u64 prev = 0;

	if (eevdf__rb_check(&dl_rq->root) < 0 ||
	    eevdf__rb_check(&dl_rq->pushable) < 0)
		return "a deadline rbtree is broken";
	if (rq->cpu == 0 && !eevdf__no_dl_pristine(rq->sched))
		return "the shared entity of non-deadline tasks was written";
	for (struct eevdf_rb_node *node = eevdf__rb_first(&dl_rq->root); node;
	     node = eevdf__rb_next(node)) {
		const struct sched_dl_entity *dl_se = container_of(
			node, struct sched_dl_entity, rb_node);

		if (n && dl_time_before(dl_se->deadline, prev))
			return "the deadline tree is out of order";
		if (!dl_se->on_rq || dl_se->dl_throttled)
			return "a queued deadline entity is throttled or "
			       "not marked queued";
		if (dl_se->dl_server ? dl_se->rq != rq :
				       dl_se->task->cpu != rq->cpu)
			return "a deadline entity is queued on another CPU";
		prev = dl_se->deadline;
		n++;
	}
	if (n != dl_rq->dl_nr_running)
		return "dl_nr_running does not count the queued entities";
	if (dl_rq->has_curr != (n != 0) ||
	    (n && dl_rq->earliest_curr !=
			  dl_node_se(eevdf__rb_first(&dl_rq->root))->deadline))
		return "earliest_dl.curr is not the leftmost deadline";
	if (dl_rq->overloaded != (eevdf__rb_first(&dl_rq->pushable) != NULL) ||
	    (bool)rq->sched->dlo_mask[rq->cpu] != dl_rq->overloaded)
		return "dl overload disagrees with the pushable tree";
	return NULL;
}
