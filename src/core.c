/* SPDX-License-Identifier: MIT */
/*
 * The core scheduler paths of one CPU, after kernel/sched/core.c:
 * wake_up_new_task, try_to_wake_up (including ttwu_runnable for delayed
 * tasks), __schedule with blocking and preemption, the scheduler tick,
 * sched_yield and exit, and the task program that drives them.
 *
 * A reschedule request takes effect as soon as the event that raised it has
 * been handled (full preemption, no wakeup latency): the cost model that
 * stretches this comes with the machine model.  Until SMP placement lands,
 * a task stays on the CPU it was created on.
 *
 * Accounting follows perf sched latency (shared/reference/workloads.md
 * 8.1): a delay sample runs from the moment a task becomes runnable (by
 * wakeup, creation or preemption) to its next switch-in.
 */
#include "fair.h"
#include "sim.h"


static inline struct rq *task_rq(struct eevdf_sim *sim, struct task *p)
{
	return &sim->rqs[p->cpu];
}

int eevdf__queue_event(struct eevdf_sim *sim, struct eevdf_event *ev,
		       eevdf_time when)
{
	eevdf__eventq_cancel(&sim->evq, ev);
	ev->time = when;
	if (eevdf__eventq_push(&sim->evq, ev))
		return eevdf__sim_fail(sim, EEVDF_ENOMEM,
				       "out of memory growing the event queue");
	return 0;
}

void eevdf__core_init_rq(struct eevdf_sim *sim, struct rq *rq, int cpu)
{
	rq->cpu = cpu;
	rq->curr = NULL;
	rq->nr_running = 0;
	rq->need_resched = false;
	rq->clock = 0;
	rq->sp = &sim->sp;
	rq->sim = sim;
	init_cfs_rq(&rq->cfs, rq);
	eevdf__event_init(&rq->tick_ev, REV_TICK, EVC_TICK);
	eevdf__event_init(&rq->hrtick_ev, REV_HRTICK, EVC_TICK);
	rq->busy_since = 0;
	rq->idle_since = 0;
	rq->busy_ns = rq->idle_ns = rq->switches = rq->ticks = 0;
}

void eevdf__rq_hrtick_arm(struct rq *rq, s64 delay)
{
	struct eevdf_sim *sim = rq->sim;

	if (delay < 0) {
		eevdf__eventq_cancel(&sim->evq, &rq->hrtick_ev);
		return;
	}
	eevdf__queue_event(sim, &rq->hrtick_ev, sim->now + delay);
}

/* The periodic tick runs only while the CPU is busy (NOHZ idle). */
static void tick_start(struct eevdf_sim *sim, struct rq *rq)
{
	eevdf_time tick = (eevdf_time)sim->sp.tick_nsec;

	if (!eevdf__event_queued(&rq->tick_ev))
		eevdf__queue_event(sim, &rq->tick_ev, (sim->now / tick + 1) * tick);
}

/* Accounting ---------------------------------------------------------- */

static void delay_sample(struct task *p, eevdf_time now)
{
	u64 d;

	if (p->delay_since < 0)
		return;
	d = (u64)(now - p->delay_since);
	p->st.delay_count++;
	p->st.delay_sum += d;
	if (d > p->st.delay_max || p->st.delay_count == 1) {
		p->st.delay_max = d;
		p->st.delay_max_at = (u64)now;
	}
	p->delay_since = -1;
}

/* The task became runnable (created, woken): wait and a delay start. */
static void became_runnable(struct task *p, eevdf_time now)
{
	if (p->state == TASK_SLEEPING)
		p->st.sleep_ns += (u64)(now - p->state_since);
	p->state = TASK_RUNNING;
	p->state_since = now;
	p->delay_since = now;
}

static void switch_out(struct eevdf_sim *sim, struct task *prev)
{
	eevdf_time now = sim->now;

	prev->on_cpu = false;
	eevdf__prog_switch_out(sim, prev);
	switch (prev->state) {
	case TASK_RUNNING:
		/* Preempted or yielded: runnable, and perf starts a delay. */
		prev->st.nivcsw++;
		prev->state_since = now;
		prev->delay_since = now;
		break;
	case TASK_SLEEPING:
	case TASK_DEAD:
		prev->st.nvcsw++;
		prev->state_since = now;
		break;
	case TASK_NEW:
		EEVDF_ASSERT(0);
		break;
	}
}

static void switch_in(struct eevdf_sim *sim, struct task *next)
{
	eevdf_time now = sim->now;

	next->on_cpu = true;
	next->st.wait_ns += (u64)(now - next->state_since);
	next->state_since = now;
	delay_sample(next, now);
	eevdf__prog_switch_in(sim, next);
}

/* __schedule() ---------------------------------------------------------- */

/*
 * Pick the next task and switch to it.  A prev that is no longer
 * TASK_RUNNING blocks: it is dequeued with DEQUEUE_SLEEP, which may leave
 * it queued as a delayed entity.  When the pick returns prev itself nothing
 * is switched and its protection window is not refreshed.
 */
void eevdf__schedule(struct eevdf_sim *sim, struct rq *rq)
{
	struct task *prev = rq->curr, *next;

	rq->clock = (u64)sim->now;
	eevdf__rq_hrtick_arm(rq, -1);
	if (prev && prev->state != TASK_RUNNING) {
		if (dequeue_task_fair(rq, prev, DEQUEUE_SLEEP))
			prev->on_rq = false;
	}
	next = pick_next_task_fair(rq, prev);
	rq->need_resched = false;

	if (next != prev) {
		rq->switches++;
		if (prev) {
			switch_out(sim, prev);
		} else {
			rq->idle_ns += (u64)(sim->now - rq->idle_since);
			rq->busy_since = sim->now;
		}
		rq->curr = next;
		if (next) {
			switch_in(sim, next);
			tick_start(sim, rq);
		} else {
			rq->busy_ns += (u64)(sim->now - rq->busy_since);
			rq->idle_since = sim->now;
			eevdf__eventq_cancel(&sim->evq, &rq->tick_ev);
		}
		eevdf__trace(sim, EEVDF_TRACE_SWITCH, rq->cpu,
			     next ? next->pid : -1, prev ? prev->pid : -1,
			     prev ? eevdf__public_state(prev->state) :
				    EEVDF_TASK_RUNNING);
		/* task_dead_fair(): an exiting task must not stay delayed. */
		if (prev && prev->state == TASK_DEAD && prev->on_rq) {
			dequeue_task_fair(rq, prev,
					  DEQUEUE_SLEEP | DEQUEUE_DELAYED);
			prev->on_rq = false;
		}
	}
	if (next && sched_feat_rq(rq, HRTICK))
		hrtick_start_fair(rq, next);
}

/* wakeup_preempt(): an idle CPU always switches to the wakee. */
static void wakeup_preempt(struct rq *rq, struct task *p,
			   unsigned int wake_flags)
{
	if (!rq->curr)
		resched_curr(rq);
	else
		check_preempt_wakeup_fair(rq, p, wake_flags);
}

/* wake_up_new_task(): placed at V with half a request (ENQUEUE_INITIAL). */
static void wake_up_new_task(struct eevdf_sim *sim, struct task *p)
{
	struct rq *rq = task_rq(sim, p);

	rq->clock = (u64)sim->now;
	init_entity(rq, p);
	p->state_since = sim->now;
	became_runnable(p, sim->now);
	p->on_rq = true;
	eevdf__trace(sim, EEVDF_TRACE_NEW, rq->cpu, p->pid, -1,
		     EEVDF_TASK_RUNNING);
	enqueue_task_fair(rq, p, ENQUEUE_INITIAL);
	wakeup_preempt(rq, p, WF_FORK);
}

/*
 * try_to_wake_up().  A task still queued as a delayed entity is woken in
 * place by ttwu_runnable() (no CPU selection); any other is enqueued with
 * its saved lag.  A pending timer (a wait's timeout) is cancelled.
 */
void eevdf__ttwu(struct eevdf_sim *sim, struct task *p,
		 unsigned int wake_flags)
{
	struct rq *rq = task_rq(sim, p);

	EEVDF_ASSERT(p->state == TASK_SLEEPING);
	if (eevdf__event_queued(&p->ev))
		eevdf__eventq_cancel(&sim->evq, &p->ev);
	rq->clock = (u64)sim->now;
	became_runnable(p, sim->now);
	eevdf__trace(sim, EEVDF_TRACE_WAKEUP, rq->cpu, p->pid, sim->ttwu_waker,
		     EEVDF_TASK_RUNNING);
	if (p->on_rq) {
		EEVDF_ASSERT(p->se.sched_delayed);
		enqueue_task_fair(rq, p, ENQUEUE_DELAYED);
	} else {
		enqueue_task_fair(rq, p, ENQUEUE_WAKEUP);
		p->on_rq = true;
	}
	wakeup_preempt(rq, p, wake_flags);
	eevdf__mark_settle(sim, rq);
}

/*
 * The CPUs to settle form a FIFO ring: a CPU is in it at most once (while
 * settle_pending), so nr_cpus slots always suffice.
 */
void eevdf__mark_settle(struct eevdf_sim *sim, struct rq *rq)
{
	size_t n = (size_t)sim->nr_cpus, tail;

	if (rq->settle_pending)
		return;
	rq->settle_pending = true;
	tail = sim->settle_head + sim->nr_settle;
	if (tail >= n)
		tail -= n;
	sim->settle[tail] = rq;
	sim->nr_settle++;
}

/*
 * Let a CPU act on what the last event changed: reschedule when asked, and
 * run the current task's program until it waits for simulated time.
 */
static int rq_settle(struct eevdf_sim *sim, struct rq *rq)
{
	int ret;

	for (;;) {
		if (rq->need_resched) {
			eevdf__schedule(sim, rq);
			continue;
		}
		if (rq->curr && rq->curr->needs_step) {
			ret = eevdf__prog_step(sim, rq, rq->curr);
			if (ret)
				return ret;
			continue;
		}
		return 0;
	}
}

/*
 * Settle every CPU the event touched, in the order they were touched.  A
 * CPU stays marked while it settles (its own loop sees whatever happens to
 * it meanwhile); a CPU settled earlier that is touched again re-joins.
 */
static int settle_all(struct eevdf_sim *sim)
{
	size_t n = (size_t)sim->nr_cpus;
	int ret = 0;

	while (sim->nr_settle) {
		struct rq *rq = sim->settle[sim->settle_head];

		if (!ret)
			ret = rq_settle(sim, rq);
		rq->settle_pending = false;
		if (++sim->settle_head == n)
			sim->settle_head = 0;
		sim->nr_settle--;
	}
	return ret;
}

/* Events --------------------------------------------------------------- */

static void task_event(struct eevdf_sim *sim, struct task *p)
{
	struct rq *rq = task_rq(sim, p);

	switch ((enum task_event_type)p->ev.type) {
	case TEV_START:
		wake_up_new_task(sim, p);
		break;
	case TEV_TIMER:
		eevdf__prog_timer(sim, p);
		break;
	case TEV_BURST:
		EEVDF_ASSERT(rq->curr == p);
		eevdf__prog_burst_end(sim, p);
		break;
	}
	eevdf__mark_settle(sim, rq);
}

static int rq_event(struct eevdf_sim *sim, struct rq *rq,
		    struct eevdf_event *ev)
{
	rq->clock = (u64)sim->now;
	EEVDF_ASSERT(rq->curr);
	if (ev->type == REV_TICK) {
		rq->ticks++;
		eevdf__trace(sim, EEVDF_TRACE_TICK, rq->cpu, rq->curr->pid, -1,
			     EEVDF_TASK_RUNNING);
		task_tick_fair(rq, rq->curr, false);
		if (eevdf__queue_event(sim, &rq->tick_ev,
				       ev->time +
					       (eevdf_time)sim->sp.tick_nsec))
			return sim->error;
	} else {
		task_tick_fair(rq, rq->curr, true);
	}
	eevdf__mark_settle(sim, rq);
	return 0;
}

int eevdf__core_dispatch(struct eevdf_sim *sim, struct eevdf_event *ev)
{
	int ret = 0;

	if (ev->type == REV_TICK || ev->type == REV_HRTICK) {
		struct rq *rq = ev->type == REV_TICK ?
			container_of(ev, struct rq, tick_ev) :
			container_of(ev, struct rq, hrtick_ev);
		ret = rq_event(sim, rq, ev);
	} else {
		task_event(sim, container_of(ev, struct task, ev));
	}
	return ret ? ret : settle_all(sim);
}

/* setpriority() on a task, now. */
void eevdf__task_set_nice(struct eevdf_sim *sim, struct task *p, int nice)
{
	struct rq *rq = task_rq(sim, p);

	if (p->state == TASK_NEW || p->state == TASK_DEAD) {
		p->nice = nice;
		return;
	}
	rq->clock = (u64)sim->now;
	reweight_task_fair(rq, p, nice);
	eevdf__mark_settle(sim, rq);
	settle_all(sim);
}

/* Core invariants of one CPU on top of the cfs_rq's own. */
const char *eevdf__rq_check(const struct rq *rq)
{
	const char *err = eevdf__cfs_rq_check(&rq->cfs);
	const struct task *curr = rq->curr;

	if (err)
		return err;
	if (rq->nr_running != rq->cfs.nr_queued)
		return "rq->nr_running differs from the cfs_rq's nr_queued";
	if (curr && (&curr->se != rq->cfs.curr || !curr->se.on_rq ||
		     curr->state != TASK_RUNNING))
		return "rq->curr is not the running cfs_rq->curr";
	if (!curr && rq->cfs.curr)
		return "idle CPU has a cfs_rq->curr";
	if (curr && !eevdf__event_queued(&rq->tick_ev))
		return "busy CPU has no tick";
	return NULL;
}
