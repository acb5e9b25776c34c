/* SPDX-License-Identifier: MIT */
/*
 * The RT class, after kernel/sched/rt.c (SCHED_FIFO and SCHED_RR, without
 * RT group scheduling, as distribution kernels build it).
 *
 * Per CPU: a FIFO list per priority and a bitmap of the non-empty ones,
 * so the pick is the first task of the lowest set bit; the pushable list
 * (queued RT tasks that may run elsewhere and are not running), whose
 * non-emptiness puts the CPU in the root domain's rto_mask (612f769edd06
 * "sched/rt: Make rt_rq->pushable_tasks updates drive rto_mask", v6.7; the
 * rt_nr_migratory count it replaced gave the same answer whenever a
 * pushable task exists).  Push and pull move tasks to and from CPUs
 * running less important work, found through cpupri.  SCHED_RR tasks
 * take turns every sched_rr_timeslice ticks.
 *
 * RT throttling (def_rt_bandwidth): in the profiles that still have it
 * by default (up to 6.11; 5f6bd380c7bd "sched/rt: Remove default
 * bandwidth control" ended it in 6.12, the fair server took over), the
 * RT tasks of a CPU may run sched_rt_runtime_us of every
 * sched_rt_period_us; past it the rt_rq is throttled: its tasks leave
 * rq->nr_running until the period timer gives the runtime back.
 *
 * Costs: a push or a pull takes the other CPU's rq lock from the CPU that
 * does it (double_lock_balance), for ttwu_local, charged to what that CPU
 * was running; RT_PUSH_IPI's irq_work costs an IPI to each CPU it visits.
 */
#include <string.h>

#include "core.h"
#include "cpupri.h"
#include "fair.h"
#include "rt.h"
#include "smp.h"

#define RUNTIME_INF (-1)

static inline struct task *rt_task_of(struct sched_rt_entity *rt_se)
{
	return container_of(rt_se, struct task, rt);
}

/* The priority of whatever rq->curr runs: the idle task is MAX_PRIO. */
static inline int curr_prio(const struct rq *rq)
{
	return rq->curr ? rq->curr->prio : MAX_RT_PRIO + 40;
}

static inline bool is_rt_task(const struct task *p)
{
	return p && p->prio < MAX_RT_PRIO; /* rt_or_dl_task() */
}

void init_rt_rq(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;

	memset(rt_rq, 0, sizeof(*rt_rq));
	rt_rq->highest_prio_curr = MAX_RT_PRIO - 1;
	rt_rq->highest_prio_next = MAX_RT_PRIO - 1;
	rt_rq->rt_runtime = rq->sp->rt_runtime;
	rq->cpupri = CPUPRI_INVALID;
	cpupri_set(rq->sched, rq, MAX_RT_PRIO - 1);
}

/* The priority lists --------------------------------------------------- */

static int first_prio(const struct rt_rq *rt_rq)
{
	if (rt_rq->bitmap[0])
		return __builtin_ctzll(rt_rq->bitmap[0]);
	if (rt_rq->bitmap[1])
		return 64 + __builtin_ctzll(rt_rq->bitmap[1]);
	return MAX_RT_PRIO;
}

static void list_add_rt(struct rt_rq *rt_rq, struct sched_rt_entity *rt_se,
			int prio, bool head)
{
	if (head) {
		rt_se->run_prev = NULL;
		rt_se->run_next = rt_rq->queue_head[prio];
		if (rt_se->run_next)
			rt_se->run_next->run_prev = rt_se;
		else
			rt_rq->queue_tail[prio] = rt_se;
		rt_rq->queue_head[prio] = rt_se;
	} else {
		rt_se->run_next = NULL;
		rt_se->run_prev = rt_rq->queue_tail[prio];
		if (rt_se->run_prev)
			rt_se->run_prev->run_next = rt_se;
		else
			rt_rq->queue_head[prio] = rt_se;
		rt_rq->queue_tail[prio] = rt_se;
	}
	rt_rq->bitmap[prio / 64] |= (u64)1 << (prio % 64);
}

static void list_del_rt(struct rt_rq *rt_rq, struct sched_rt_entity *rt_se,
			int prio)
{
	if (rt_se->run_prev)
		rt_se->run_prev->run_next = rt_se->run_next;
	else
		rt_rq->queue_head[prio] = rt_se->run_next;
	if (rt_se->run_next)
		rt_se->run_next->run_prev = rt_se->run_prev;
	else
		rt_rq->queue_tail[prio] = rt_se->run_prev;
	rt_se->run_next = rt_se->run_prev = NULL;
	if (!rt_rq->queue_head[prio])
		rt_rq->bitmap[prio / 64] &= ~((u64)1 << (prio % 64));
}

/* move_entity(): a save-and-restore without a move keeps its place. */
static inline bool move_entity(unsigned int flags)
{
	return (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE;
}

/* inc_rt_tasks() / dec_rt_tasks(): the count and highest_prio.curr, which
 * is the CPU's cpupri level. */
static void inc_rt_tasks(struct rq *rq, int prio)
{
	struct rt_rq *rt_rq = &rq->rt;

	rt_rq->rt_nr_running++;
	if (prio < rt_rq->highest_prio_curr) {
		rt_rq->highest_prio_curr = prio;
		cpupri_set(rq->sched, rq, prio);
	}
}

static void dec_rt_tasks(struct rq *rq, int prio)
{
	struct rt_rq *rt_rq = &rq->rt;
	int prev = rt_rq->highest_prio_curr;

	rt_rq->rt_nr_running--;
	if (!rt_rq->rt_nr_running)
		rt_rq->highest_prio_curr = MAX_RT_PRIO - 1;
	else if (prio == prev)
		rt_rq->highest_prio_curr = first_prio(rt_rq);
	if (rt_rq->highest_prio_curr != prev)
		cpupri_set(rq->sched, rq, rt_rq->highest_prio_curr);
}

/*
 * enqueue_top_rt_rq() / dequeue_top_rt_rq(): the RT tasks count in
 * rq->nr_running only while the rt_rq is not throttled.
 */
static void enqueue_top_rt_rq(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;

	if (rt_rq->rt_queued || rt_rq->rt_throttled || !rt_rq->rt_nr_running)
		return;
	add_nr_running(rq, rt_rq->rt_nr_running);
	rt_rq->rt_queued = true;
}

static void dequeue_top_rt_rq(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;

	if (!rt_rq->rt_queued)
		return;
	sub_nr_running(rq, rt_rq->rt_nr_running);
	rt_rq->rt_queued = false;
}

/* Pushable tasks and overload ------------------------------------------ */

static void rt_set_overload(struct scheduler *sched, struct rq *rq, bool on)
{
	if (rq->rt.overloaded == on)
		return;
	rq->rt.overloaded = on;
	sched->rto_mask[rq->cpu] = on;
	if (on)
		sched->rto_count++;
	else
		sched->rto_count--;
}

/* enqueue_pushable_task(): kept in prio order, FIFO among equals. */
static void enqueue_pushable_task(struct rq *rq, struct task *p)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct sched_rt_entity *rt_se = &p->rt, *pos = rt_rq->pushable;
	struct sched_rt_entity *prev = NULL;

	if (rt_se->on_push)
		return;
	while (pos && rt_task_of(pos)->prio <= p->prio) {
		prev = pos;
		pos = pos->push_next;
	}
	rt_se->push_prev = prev;
	rt_se->push_next = pos;
	if (prev)
		prev->push_next = rt_se;
	else
		rt_rq->pushable = rt_se;
	if (pos)
		pos->push_prev = rt_se;
	rt_se->on_push = true;
	if (p->prio < rt_rq->highest_prio_next)
		rt_rq->highest_prio_next = p->prio;
	rt_set_overload(rq->sched, rq, true);
}

static void dequeue_pushable_task(struct rq *rq, struct task *p)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct sched_rt_entity *rt_se = &p->rt;

	if (!rt_se->on_push)
		return;
	if (rt_se->push_prev)
		rt_se->push_prev->push_next = rt_se->push_next;
	else
		rt_rq->pushable = rt_se->push_next;
	if (rt_se->push_next)
		rt_se->push_next->push_prev = rt_se->push_prev;
	rt_se->push_next = rt_se->push_prev = NULL;
	rt_se->on_push = false;
	if (rt_rq->pushable) {
		rt_rq->highest_prio_next = rt_task_of(rt_rq->pushable)->prio;
	} else {
		rt_rq->highest_prio_next = MAX_RT_PRIO - 1;
		rt_set_overload(rq->sched, rq, false);
	}
}

/* Enqueue, dequeue, requeue -------------------------------------------- */

static void start_rt_bandwidth(struct scheduler *sched);

static void enqueue_task_rt(struct rq *rq, struct task *p, unsigned int flags)
{
	struct sched_rt_entity *rt_se = &p->rt;

	dequeue_top_rt_rq(rq);
	if (move_entity(flags))
		list_add_rt(&rq->rt, rt_se, p->prio, flags & ENQUEUE_HEAD);
	rt_se->on_rq = true;
	inc_rt_tasks(rq, p->prio);
	/* inc_rt_group(): the first RT task starts the period timer */
	start_rt_bandwidth(rq->sched);
	enqueue_top_rt_rq(rq);
	if (rq->curr != p && task_nr_allowed(rq->sched, p) > 1)
		enqueue_pushable_task(rq, p);
}

static bool dequeue_task_rt(struct rq *rq, struct task *p, unsigned int flags)
{
	struct sched_rt_entity *rt_se = &p->rt;

	update_curr_rt(rq);
	dequeue_top_rt_rq(rq);
	if (move_entity(flags))
		list_del_rt(&rq->rt, rt_se, p->prio);
	rt_se->on_rq = false;
	dec_rt_tasks(rq, p->prio);
	enqueue_top_rt_rq(rq);
	dequeue_pushable_task(rq, p);
	return true;
}

/* requeue_task_rt(): to the tail (or head) of its priority's list. */
static void requeue_task_rt(struct rq *rq, struct task *p, bool head)
{
	struct sched_rt_entity *rt_se = &p->rt;

	if (!rt_se->on_rq)
		return;
	list_del_rt(&rq->rt, rt_se, p->prio);
	list_add_rt(&rq->rt, rt_se, p->prio, head);
}

static void yield_task_rt(struct rq *rq)
{
	requeue_task_rt(rq, rq->curr, false);
}

/* Runtime and throttling ------------------------------------------------ */

static bool rt_bandwidth_enabled(const struct rq *rq)
{
	return rq->sp->rt_bandwidth && rq->sp->rt_runtime >= 0;
}

/*
 * do_start_rt_bandwidth(): hrtimer_forward_now(timer, 0) moves the expiry
 * just past now (one hrtimer resolution step, 1 ns), so the timer fires
 * at once and anchors the period grid there.
 */
static void do_start_rt_bandwidth(struct scheduler *sched)
{
	if (sched->rt_period_active)
		return;
	sched->rt_period_active = true;
	eevdf__queue_event(sched, &sched->rt_period_ev, sched->now + 1);
}

static void start_rt_bandwidth(struct scheduler *sched)
{
	const struct rq *rq = &sched->rqs[0];

	if (!rt_bandwidth_enabled(rq) ||
	    (u64)rq->sp->rt_runtime >= rq->sp->rt_period)
		return;
	do_start_rt_bandwidth(sched);
}

/*
 * balance_runtime() with RT_RUNTIME_SHARE: an rt_rq out of runtime
 * borrows from the others' unused runtime, each giving its spare divided
 * by the number of CPUs, up to a whole period.
 */
static void balance_runtime(struct rq *rq)
{
	struct scheduler *sched = rq->sched;
	struct rt_rq *rt_rq = &rq->rt;
	s64 period = (s64)rq->sp->rt_period;

	if (!sched_feat_rq(rq, RT_RUNTIME_SHARE) ||
	    rt_rq->rt_time <= (u64)rt_rq->rt_runtime)
		return;
	for (int i = 0; i < sched->nr_cpus; i++) {
		struct rt_rq *iter = &sched->rqs[i].rt;
		s64 diff;

		if (iter == rt_rq || iter->rt_runtime == RUNTIME_INF)
			continue;
		diff = iter->rt_runtime - (s64)iter->rt_time;
		if (diff <= 0)
			continue;
		diff /= sched->nr_cpus;
		if (rt_rq->rt_runtime + diff > period)
			diff = period - rt_rq->rt_runtime;
		iter->rt_runtime -= diff;
		rt_rq->rt_runtime += diff;
		if (rt_rq->rt_runtime == period)
			break;
	}
}

/* sched_rt_runtime_exceeded(): throttle the rt_rq once past its runtime. */
static bool sched_rt_runtime_exceeded(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;

	if (rt_rq->rt_throttled)
		return true;
	if (rt_rq->rt_runtime >= (s64)rq->sp->rt_period)
		return false;
	balance_runtime(rq);
	if (rt_rq->rt_runtime == RUNTIME_INF)
		return false;
	if (rt_rq->rt_time > (u64)rt_rq->rt_runtime) {
		/* a bandwidth of 0 is not enforced: its time is forgotten */
		if (!rq->sp->rt_runtime) {
			rt_rq->rt_time = 0;
			return false;
		}
		rt_rq->rt_throttled = true;
		rq->sched->nr_rt_throttles++;
		dequeue_top_rt_rq(rq);
		return true;
	}
	return false;
}

void update_curr_rt(struct rq *rq)
{
	struct task *curr = rq->curr;
	s64 delta;

	if (!curr || curr->sched_class != &rt_sched_class)
		return;
	delta = eevdf__update_curr_common(rq);
	if (delta <= 0 || !rt_bandwidth_enabled(rq) ||
	    rq->rt.rt_runtime == RUNTIME_INF)
		return;
	rq->rt.rt_time += (u64)delta;
	if (sched_rt_runtime_exceeded(rq)) {
		resched_curr(rq);
		do_start_rt_bandwidth(rq->sched);
	}
}

/*
 * RT time that deadline tasks run is charged to the rt_rq too
 * (update_curr_dl_se(): they share the RT bandwidth), while the period
 * timer runs or the rt_rq has runtime left.
 */
void eevdf__rt_account_dl(struct rq *rq, u64 delta)
{
	if (!rt_bandwidth_enabled(rq))
		return;
	if (rq->sched->rt_period_active ||
	    rq->rt.rt_time < (u64)rq->sp->rt_runtime)
		rq->rt.rt_time += delta;
}

/*
 * do_sched_rt_period_timer(): each CPU's RT time drops by a period's
 * runtime, and a throttled rt_rq back under its runtime is unthrottled
 * and preempts what ran meanwhile.  Returns true when no CPU has RT time
 * or tasks left: the timer stops.
 */
static bool do_sched_rt_period_timer(struct scheduler *sched, u64 overrun)
{
	bool idle = true, throttled = false;

	for (int i = 0; i < sched->nr_cpus; i++) {
		struct rq *rq = &sched->rqs[i];
		struct rt_rq *rt_rq = &rq->rt;
		bool enqueue = false;

		if (!sched_feat_rq(rq, RT_RUNTIME_SHARE) &&
		    rt_rq->rt_runtime != RUNTIME_INF)
			rt_rq->rt_runtime = rq->sp->rt_runtime;
		if (!rt_rq->rt_time && !rt_rq->rt_nr_running)
			continue;
		rq->clock = (u64)sched->now;
		if (rt_rq->rt_time) {
			u64 runtime, dec;

			if (rt_rq->rt_throttled)
				balance_runtime(rq);
			runtime = (u64)rt_rq->rt_runtime;
			dec = overrun * runtime;
			rt_rq->rt_time -= rt_rq->rt_time < dec ?
						  rt_rq->rt_time :
						  dec;
			if (rt_rq->rt_throttled && rt_rq->rt_time < runtime) {
				rt_rq->rt_throttled = false;
				enqueue = true;
			}
			if (rt_rq->rt_time || rt_rq->rt_nr_running)
				idle = false;
		} else if (rt_rq->rt_nr_running) {
			idle = false;
			if (!rt_rq->rt_throttled)
				enqueue = true;
		}
		if (rt_rq->rt_throttled)
			throttled = true;
		/* sched_rt_rq_enqueue() */
		if (enqueue && rt_rq->rt_nr_running) {
			enqueue_top_rt_rq(rq);
			resched_curr(rq);
			eevdf__mark_settle(sched, rq);
		}
	}
	if (!throttled && (sched->rqs[0].sp->rt_runtime < 0))
		return true;
	return idle;
}

/* sched_rt_period_timer(): forward by whole periods, then account. */
void eevdf__rt_period_timer(struct scheduler *sched)
{
	u64 period = sched->sp.rt_period;
	eevdf_time next = sched->rt_period_ev.time + (eevdf_time)period;
	u64 overrun = 1;

	/* hrtimer_forward_now(): the periods that passed since the expiry */
	while (next <= sched->now) {
		next += (eevdf_time)period;
		overrun++;
	}
	if (do_sched_rt_period_timer(sched, overrun)) {
		sched->rt_period_active = false;
		return;
	}
	eevdf__queue_event(sched, &sched->rt_period_ev, next);
}

/* Pick, put, set -------------------------------------------------------- */

static struct task *pick_task_rt(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	int prio;

	if (!rt_rq->rt_queued)
		return NULL;
	prio = first_prio(rt_rq);
	EEVDF_ASSERT(prio < MAX_RT_PRIO);
	return rt_task_of(rt_rq->queue_head[prio]);
}

static void set_next_task_rt(struct rq *rq, struct task *p, bool first)
{
	p->se.exec_start = rq->clock;
	dequeue_pushable_task(rq, p);
	if (!first)
		return;
	/* rt_queue_push_tasks(): once the switch is done, push what waits */
	if (rq->rt.pushable)
		rq->push_rt_pending = true;
}

static void put_prev_task_rt(struct rq *rq, struct task *p, struct task *next)
{
	(void)next;
	update_curr_rt(rq);
	/* still queued: it may be pushed elsewhere now */
	if (p->rt.on_rq && task_nr_allowed(rq->sched, p) > 1)
		enqueue_pushable_task(rq, p);
}

/* Preemption ------------------------------------------------------------ */

/*
 * check_preempt_equal_prio(): a wakee of curr's priority that cannot go
 * elsewhere while curr could goes to the head of the list and curr is
 * rescheduled, to be pushed away.
 */
static void check_preempt_equal_prio(struct rq *rq, struct task *p)
{
	struct scheduler *sched = rq->sched;

	if (task_nr_allowed(sched, rq->curr) == 1 ||
	    !cpupri_find(sched, rq->curr, sched->cpu_scratch))
		return;
	if (task_nr_allowed(sched, p) != 1 &&
	    cpupri_find(sched, p, sched->cpu_scratch))
		return;
	requeue_task_rt(rq, p, true);
	resched_curr(rq);
}

static void wakeup_preempt_rt(struct rq *rq, struct task *p,
			      unsigned int wake_flags)
{
	(void)wake_flags;
	if (p->prio < rq->curr->prio) {
		resched_curr(rq);
		return;
	}
	if (p->prio == rq->curr->prio && !rq->need_resched)
		check_preempt_equal_prio(rq, p);
}

/*
 * task_tick_rt(): charge the runtime; a SCHED_RR task that used up its
 * slice gets a new one and, when others of its priority wait, goes to
 * the back of the line.
 */
static void task_tick_rt(struct rq *rq, struct task *p, bool queued)
{
	(void)queued;
	update_curr_rt(rq);
	if (p->policy != EEVDF_POLICY_RR)
		return;
	if (--p->rt.time_slice)
		return;
	p->rt.time_slice = rq->sp->rr_timeslice;
	if (p->rt.run_prev || p->rt.run_next) {
		requeue_task_rt(rq, p, false);
		resched_curr(rq);
	}
}

/* Placement ------------------------------------------------------------- */

/* cpumask_any_and_distribute(): the first CPU of mask and span after the
 * last one this CPU handed out, wrapping around. */
static int any_and_distribute(struct scheduler *sched, int this_cpu,
			      const uint8_t *mask, const struct sd_span *span)
{
	struct rq *rq = &sched->rqs[this_cpu < 0 ? 0 : this_cpu];
	int prev = rq->rt_distribute_prev, first = -1;

	for (u32 i = 0; i < span->weight; i++) {
		int cpu = span->cpus[i];

		if (!mask[cpu])
			continue;
		if (first < 0)
			first = cpu;
		if (cpu > prev) {
			rq->rt_distribute_prev = cpu;
			return cpu;
		}
	}
	if (first >= 0)
		rq->rt_distribute_prev = first;
	return first;
}

int find_lowest_rq(struct scheduler *sched, struct task *p, int this_cpu)
{
	uint8_t *mask = sched->cpu_scratch;
	const struct sched_domain *sd;
	int cpu = p->cpu;

	if (task_nr_allowed(sched, p) == 1)
		return -1;
	if (!cpupri_find(sched, p, mask))
		return -1;
	/* the CPU it last ran on is the cache-hottest */
	if (mask[cpu])
		return cpu;
	if (this_cpu >= 0 && !mask[this_cpu])
		this_cpu = -1;
	for_each_domain(&sched->topo, cpu, sd)
	{
		int best;

		if (!(sd->flags & SD_WAKE_AFFINE))
			continue;
		if (this_cpu >= 0 && sd_span_has(sd->span, this_cpu))
			return this_cpu;
		best = any_and_distribute(sched, this_cpu, mask, sd->span);
		if (best >= 0)
			return best;
	}
	if (this_cpu >= 0)
		return this_cpu;
	for (int c = 0; c < sched->nr_cpus; c++)
		if (mask[c])
			return c;
	return -1;
}

/*
 * select_task_rq_rt(): stay on the task's CPU unless an RT (or DL) task
 * runs there that it would not preempt, or that cannot move; then the
 * CPU running the least important work, if that is less important than
 * the task.
 */
static int select_task_rq_rt(struct scheduler *sched, struct task *p,
			     int prev_cpu, int this_cpu,
			     unsigned int wake_flags)
{
	const struct task *curr = sched->rqs[prev_cpu].curr;
	int target;

	if (!(wake_flags & (WF_TTWU | WF_FORK)))
		return prev_cpu;
	if (!is_rt_task(curr) ||
	    !(task_nr_allowed(sched, curr) < 2 || curr->prio <= p->prio))
		return prev_cpu;
	target = find_lowest_rq(sched, p, this_cpu);
	if (target != -1 && p->prio < sched->rqs[target].rt.highest_prio_curr)
		return target;
	return prev_cpu;
}

/* Push and pull --------------------------------------------------------- */

/* move_queued_task_locked(): from src to dst, under both locks. */
static void move_queued_task(struct rq *src, struct rq *dst, struct task *p)
{
	struct scheduler *sched = src->sched;

	src->clock = dst->clock = (u64)sched->now;
	p->sched_class->dequeue_task(src, p, 0);
	set_task_cpu(sched, p, dst->cpu);
	p->sched_class->enqueue_task(dst, p, 0);
	eevdf__mark_settle(sched, src);
	eevdf__mark_settle(sched, dst);
}

/* double_lock_balance(): this CPU takes other's lock; what it cost. */
static u64 lock_other(struct scheduler *sched, struct rq *this_rq,
		      struct rq *other)
{
	return eevdf__rq_lock(sched, other, this_rq->cpu,
			      sched->costs.ttwu_local, NULL);
}

static struct task *pick_next_pushable_task(struct rq *rq)
{
	return rq->rt.pushable ? rt_task_of(rq->rt.pushable) : NULL;
}

/*
 * find_lock_lowest_rq(): the lowest CPU, unless it is this one or it
 * already has RT work at least as important as p.
 */
static struct rq *find_lock_lowest_rq(struct task *p, struct rq *rq)
{
	struct scheduler *sched = rq->sched;
	int cpu = find_lowest_rq(sched, p, rq->cpu);
	struct rq *lowest;

	if (cpu == -1 || cpu == rq->cpu)
		return NULL;
	lowest = &sched->rqs[cpu];
	if (lowest->rt.highest_prio_curr <= p->prio)
		return NULL;
	return lowest;
}

/* push_rt_task(): one pushable task to a CPU running less important work. */
static bool push_rt_task(struct rq *rq)
{
	struct scheduler *sched = rq->sched;
	struct task *next_task;
	struct rq *lowest;

	if (!rq->rt.overloaded)
		return false;
	next_task = pick_next_pushable_task(rq);
	if (!next_task)
		return false;
	/* it is more important than curr: it runs here */
	if (next_task->prio < curr_prio(rq)) {
		resched_curr(rq);
		eevdf__mark_settle(sched, rq);
		return false;
	}
	lowest = find_lock_lowest_rq(next_task, rq);
	if (!lowest)
		return false;
	eevdf__charge_cpu(sched, rq->cpu, NULL, lock_other(sched, rq, lowest));
	move_queued_task(rq, lowest, next_task);
	resched_curr(lowest);
	sched->rt_pushes++;
	return true;
}

void push_rt_tasks(struct rq *rq)
{
	while (push_rt_task(rq))
		;
}

/* rto_next_cpu(): the next CPU of the rto_mask, looping again while
 * pulls were asked for during the chain. */
static int rto_next_cpu(struct scheduler *sched)
{
	for (;;) {
		int cpu = sched->rto_cpu + 1;

		while (cpu < sched->nr_cpus && !sched->rto_mask[cpu])
			cpu++;
		if (cpu < sched->nr_cpus) {
			sched->rto_cpu = cpu;
			return cpu;
		}
		sched->rto_cpu = -1;
		if (!sched->rto_loop_again)
			return -1;
		sched->rto_loop_again = false;
	}
}

/* irq_work_queue_on(): the push work lands on cpu after an IPI. */
static void rto_push_send(struct scheduler *sched, int from, int cpu)
{
	struct rq *rq = &sched->rqs[cpu];
	eevdf_time when = sched->now;

	if (cpu != from)
		when += (eevdf_time)sched->costs.ipi;
	eevdf__queue_event(sched, &rq->rt_push_ev, when);
}

/* tell_cpu_to_push(): start the IPI chain, or have the running one go
 * round once more. */
static void tell_cpu_to_push(struct rq *rq)
{
	struct scheduler *sched = rq->sched;
	int cpu;

	if (sched->rto_cpu >= 0) {
		sched->rto_loop_again = true;
		return;
	}
	cpu = rto_next_cpu(sched);
	if (cpu >= 0)
		rto_push_send(sched, rq->cpu, cpu);
}

/* rto_push_irq_work_func() on rq, then on to the next overloaded CPU. */
void eevdf__rt_push_irq_work(struct scheduler *sched, struct rq *rq)
{
	int cpu;

	rq->clock = (u64)sched->now;
	if (rq->curr && sched->costs.ipi_recv)
		sched->ops->interrupt(sched, rq->curr, sched->costs.ipi_recv);
	if (rq->rt.pushable)
		push_rt_tasks(rq);
	eevdf__mark_settle(sched, rq);
	cpu = rto_next_cpu(sched);
	if (cpu >= 0)
		rto_push_send(sched, rq->cpu, cpu);
}

/* pick_highest_pushable_task(): the first pushable task that may run on
 * cpu. */
static struct task *pick_highest_pushable_task(struct rq *rq, int cpu)
{
	for (struct sched_rt_entity *rt_se = rq->rt.pushable; rt_se;
	     rt_se = rt_se->push_next) {
		struct task *p = rt_task_of(rt_se);

		if (rq->curr != p && task_allowed(p, cpu))
			return p;
	}
	return NULL;
}

void pull_rt_task(struct rq *this_rq)
{
	struct scheduler *sched = this_rq->sched;
	bool resched = false;

	if (!sched->rto_count)
		return;
	/* the only overloaded CPU is this one */
	if (sched->rto_count == 1 && sched->rto_mask[this_rq->cpu])
		return;
	if (sched_feat_rq(this_rq, RT_PUSH_IPI)) {
		tell_cpu_to_push(this_rq);
		return;
	}
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct rq *src = &sched->rqs[cpu];
		struct task *p;

		if (cpu == this_rq->cpu || !sched->rto_mask[cpu])
			continue;
		/* its next task would not beat ours: not worth the lock */
		if (src->rt.highest_prio_next >= this_rq->rt.highest_prio_curr)
			continue;
		eevdf__charge_cpu(sched, this_rq->cpu, NULL,
				  lock_other(sched, this_rq, src));
		p = pick_highest_pushable_task(src, this_rq->cpu);
		if (!p || p->prio >= this_rq->rt.highest_prio_curr)
			continue;
		/* it is about to run where it is */
		if (p->prio < curr_prio(src))
			continue;
		move_queued_task(src, this_rq, p);
		sched->rt_pulls++;
		resched = true;
	}
	if (resched)
		resched_curr(this_rq);
}

/*
 * balance_rt(): before the pick, a CPU whose RT task left pulls what
 * waits elsewhere, if that lowers its priority; true when a class from RT
 * up has something to run.
 */
static bool balance_rt(struct rq *rq, struct task *prev)
{
	if (!prev->rt.on_rq && rq->rt.highest_prio_curr > prev->prio)
		pull_rt_task(rq);
	return rq->dl.dl_nr_running || rq->rt.rt_queued;
}

/*
 * task_woken_rt(): a wakee that will not run at once here, behind an RT
 * or DL curr it does not beat, is pushed at once.
 */
static void task_woken_rt(struct rq *rq, struct task *p)
{
	struct task *curr = rq->curr;

	if (rq->curr != p && !rq->need_resched &&
	    task_nr_allowed(rq->sched, p) > 1 && is_rt_task(curr) &&
	    (task_nr_allowed(rq->sched, curr) < 2 || curr->prio <= p->prio))
		push_rt_tasks(rq);
}

/* Class changes ---------------------------------------------------------- */

/* switched_from_rt(): the last RT task left; pull what waits elsewhere. */
static void switched_from_rt(struct rq *rq, struct task *p)
{
	if (!p->on_rq || rq->rt.rt_nr_running)
		return;
	rq->pull_rt_pending = true;
}

static void switched_to_rt(struct rq *rq, struct task *p)
{
	if (rq->curr == p || !p->on_rq)
		return;
	p->rt.time_slice = rq->sp->rr_timeslice;
	if (task_nr_allowed(rq->sched, p) > 1 && rq->rt.overloaded)
		rq->push_rt_pending = true;
	if (p->prio < curr_prio(rq))
		resched_curr(rq);
}

static void prio_changed_rt(struct rq *rq, struct task *p, int oldprio)
{
	if (!p->on_rq)
		return;
	if (rq->curr == p) {
		/* lower priority: others may be pulled here */
		if (oldprio < p->prio)
			rq->pull_rt_pending = true;
		if (p->prio > rq->rt.highest_prio_curr)
			resched_curr(rq);
	} else if (p->prio < curr_prio(rq)) {
		resched_curr(rq);
	}
}

static void update_curr_rt_hook(struct rq *rq)
{
	update_curr_rt(rq);
}

const struct sched_class rt_sched_class = {
	.name = "rt",
	.rank = 2,
	.enqueue_task = enqueue_task_rt,
	.dequeue_task = dequeue_task_rt,
	.yield_task = yield_task_rt,
	.wakeup_preempt = wakeup_preempt_rt,
	.balance = balance_rt,
	.pick_task = pick_task_rt,
	.put_prev_task = put_prev_task_rt,
	.set_next_task = set_next_task_rt,
	.select_task_rq = select_task_rq_rt,
	.task_woken = task_woken_rt,
	.task_tick = task_tick_rt,
	.switched_from = switched_from_rt,
	.switched_to = switched_to_rt,
	.prio_changed = prio_changed_rt,
	.update_curr = update_curr_rt_hook,
};

/* Invariants ------------------------------------------------------------- */

const char *eevdf__rt_rq_check(const struct rq *rq)
{
	const struct rt_rq *rt_rq = &rq->rt;
	unsigned int n = 0;
	int best = MAX_RT_PRIO - 1, next = MAX_RT_PRIO - 1, last = -1;

	/* the common case, a CPU without RT tasks, in O(1) */
	if (!rt_rq->rt_nr_running && !rt_rq->bitmap[0] && !rt_rq->bitmap[1] &&
	    !rt_rq->pushable && !rt_rq->overloaded &&
	    !rq->sched->rto_mask[rq->cpu] && !rt_rq->rt_queued &&
	    rt_rq->highest_prio_curr == MAX_RT_PRIO - 1 &&
	    rt_rq->highest_prio_next == MAX_RT_PRIO - 1)
		return NULL;
	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		bool bit = rt_rq->bitmap[prio / 64] >> (prio % 64) & 1;
		const struct sched_rt_entity *prev = NULL;

		if (bit != (rt_rq->queue_head[prio] != NULL))
			return "rt bitmap disagrees with the priority lists";
		for (const struct sched_rt_entity *e = rt_rq->queue_head[prio];
		     e; e = e->run_next) {
			const struct task *p = container_of(e, struct task, rt);

			if (e->run_prev != prev || p->prio != prio ||
			    !e->on_rq || p->cpu != rq->cpu)
				return "an rt priority list is broken";
			if (prio < best)
				best = prio;
			prev = e;
			n++;
		}
		if (rt_rq->queue_tail[prio] != prev)
			return "an rt priority list's tail is wrong";
	}
	if (n != rt_rq->rt_nr_running)
		return "rt_nr_running does not count the listed tasks";
	if (best != rt_rq->highest_prio_curr)
		return "rt highest_prio.curr is not the best listed priority";
	for (const struct sched_rt_entity *e = rt_rq->pushable; e;
	     e = e->push_next) {
		const struct task *p = container_of(e, struct task, rt);

		if (!e->on_push || !e->on_rq || rq->curr == p || p->prio < last)
			return "the pushable list is broken";
		if (last < 0)
			next = p->prio;
		last = p->prio;
	}
	if (next != rt_rq->highest_prio_next)
		return "rt highest_prio.next is not the best pushable priority";
	if (rt_rq->overloaded != (rt_rq->pushable != NULL) ||
	    (bool)rq->sched->rto_mask[rq->cpu] != rt_rq->overloaded)
		return "rt overload disagrees with the pushable list";
	if (rt_rq->rt_queued != (rt_rq->rt_nr_running && !rt_rq->rt_throttled))
		return "rt_queued disagrees with the count and throttling";
	return NULL;
}
