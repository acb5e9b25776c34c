/* SPDX-License-Identifier: MIT */
/*
 * The core scheduler paths, after kernel/sched/core.c: wake_up_new_task
 * (with the fork balancer's choice of CPU), try_to_wake_up (select_task_rq,
 * the remote wake list, ttwu_runnable for delayed tasks), __schedule with
 * blocking, preemption and newly-idle balancing, the scheduler tick,
 * sched_yield, affinity changes and exit, and the task program that
 * drives them.  Placement and balancing live in smp.c and balance.c.
 *
 * A reschedule request takes effect as soon as the event that raised it has
 * been handled (full preemption, no IPI to the CPU itself); an idle CPU
 * first pays its exit latency from the cost model.
 *
 * Accounting follows perf sched latency (shared/reference/workloads.md
 * 8.1): a delay sample runs from the moment a task becomes runnable (by
 * wakeup, creation or preemption) to its next switch-in.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "core.h"
#include "cpupri.h"
#include "deadline.h"
#include "fair.h"
#include "group.h"
#include "lb_stats.h"
#include "rt.h"
#include "sched_state.h"
#include "smp.h"

int eevdf__sched_vfail(struct scheduler *sched, int code, const char *fmt,
		       va_list ap)
{
	vsnprintf(sched->errmsg, sizeof(sched->errmsg), fmt, ap);
	if (!sched->error)
		sched->error = code;
	return code;
}

int eevdf__sched_fail(struct scheduler *sched, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = eevdf__sched_vfail(sched, code, fmt, ap);
	va_end(ap);
	return code;
}

void eevdf__trace(struct scheduler *sched, enum eevdf_trace_kind kind, int cpu,
		  int pid, int prev_pid, enum eevdf_task_state prev_state)
{
	struct eevdf_trace_event ev;

	if (!sched->trace)
		return;
	ev.kind = kind;
	ev.time = sched->now;
	ev.cpu = cpu;
	ev.pid = pid;
	ev.prev_pid = prev_pid;
	ev.prev_state = prev_state;
	ev.orig_cpu = -1;
	ev.duration = 0;
	ev.rule = 0;
	ev.pick_pid = -1;
	ev.pick_rule = 0;
	ev.group = NULL;
	sched->trace(sched->trace_ud, &ev);
}

void eevdf__trace_spin(struct scheduler *sched, int cpu, int lock_cpu, u64 spin)
{
	struct eevdf_trace_event ev;

	if (!sched->trace || !spin)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = EEVDF_TRACE_SPIN;
	ev.time = sched->now;
	ev.cpu = cpu;
	ev.pid = -1;
	ev.prev_pid = -1;
	ev.pick_pid = -1;
	ev.orig_cpu = lock_cpu;
	ev.duration = (eevdf_time)spin;
	sched->trace(sched->trace_ud, &ev);
}

void eevdf__trace_ipi(struct scheduler *sched, int from, int to, int pid)
{
	struct eevdf_trace_event ev;

	if (!sched->trace)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = EEVDF_TRACE_IPI;
	ev.time = sched->now;
	ev.cpu = to;
	ev.pid = pid;
	ev.prev_pid = -1;
	ev.pick_pid = -1;
	ev.orig_cpu = from;
	sched->trace(sched->trace_ud, &ev);
}

void eevdf__trace_migrate(struct scheduler *sched, int pid, int from, int to)
{
	struct eevdf_trace_event ev;

	if (!sched->trace)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = EEVDF_TRACE_MIGRATE;
	ev.time = sched->now;
	ev.cpu = to;
	ev.pid = pid;
	ev.prev_pid = -1;
	ev.pick_pid = -1;
	ev.orig_cpu = from;
	sched->trace(sched->trace_ud, &ev);
}

static inline struct rq *task_rq(struct scheduler *sched, struct task *p)
{
	return &sched->rqs[p->cpu];
}

/* A queueing's outcome: a failure (the queue could not grow) ends the run. */
static int queued(struct scheduler *sched, int err)
{
	if (err)
		return eevdf__sched_fail(
			sched, EEVDF_ENOMEM,
			"out of memory growing the event queue");
	return 0;
}

int eevdf__queue_event(struct scheduler *sched, struct eevdf_event *ev,
		       eevdf_time when)
{
	return queued(sched, eevdf__eventq_requeue(&sched->evq, ev, when));
}

int eevdf__queue_event_on(struct scheduler *sched, struct eevdf_event *ev,
			  eevdf_time when, int cpu)
{
	return queued(sched, eevdf__eventq_requeue_lane(&sched->evq, ev, when,
							(u32)cpu));
}

/*
 * Where cpu counts itself overloaded for its lowest domain: that span's
 * count when its groups are single CPUs (what balance.c's quick answer
 * reads), else the spare last slot, which nothing reads.
 */
static unsigned int *lowest_overloaded(struct scheduler *sched, int cpu)
{
	const struct sched_domain *sd = sched->topo.cpu[cpu].sd;
	size_t k = sched->topo.nr_spans;

	if (sd && sd->span->cpu_groups)
		k = sd->span->index;
	return &sched->span_overloaded[k];
}

void eevdf__core_init_rq(struct scheduler *sched, struct rq *rq, int cpu)
{
	rq->cpu = cpu;
	rq->curr = NULL;
	rq->nr_running = 0;
	rq->need_resched = false;
	rq->clock = 0;
	rq->sp = &sched->sp;
	rq->sched = sched;
	init_cfs_rq(&rq->cfs, rq);
	init_rt_rq(rq);
	init_dl_rq(rq);
	rq->dl_server = NULL;
	rq->push_rt_pending = rq->pull_rt_pending = false;
	rq->push_dl_pending = rq->pull_dl_pending = false;
	rq->rt_distribute_prev = -1;
	eevdf__event_init(&rq->rt_push_ev, REV_RT_PUSH, EVC_TICK);
	rq->idle_exec_start = 0;
	eevdf__event_init(&rq->tick_ev, REV_TICK, EVC_TICK);
	eevdf__event_init(&rq->hrtick_ev, REV_HRTICK, EVC_TICK);
	eevdf__event_init(&rq->idle_exit_ev, REV_IDLE_EXIT, EVC_TICK);
	rq->cfs_tasks = rq->cfs_tasks_tail = NULL;
	rq->nr_overloaded = &sched->nr_overloaded;
	rq->sd_overloaded = lowest_overloaded(sched, cpu);
	/* without running sums, as if always on the dirty list: then
	 * lb_stats_dirty(), called at every run-queue change, returns at
	 * its first test instead of reading the scheduler's */
	rq->lb_dirty = !lb_stats_on(sched);
	rq->idle_slot = &sched->idle_map[cpu];
	rq->idle_word = sched->idle_bits ? &sched->idle_bits[cpu / 64] : NULL;
	rq->nr_wakelist = 0;
	rq->ipi_at = 0;
	rq->nr_ipi_batch = rq->ipi_landed = 0;
	rq->awake_at = -1;
	eevdf__rq_lock_init(&rq->lock);
	rq->next_balance = 0;
	rq->idle_stamp = 0;
	rq->idle_stamped = false;
	/* sched_init(): avg_idle = 2 x and max_idle_balance_cost = 1 x the
	 * migration cost */
	rq_idle_update(rq);
	rq->avg_idle = 2 * sched->sp.migration_cost;
	rq->max_idle_balance_cost = sched->sp.migration_cost;
	rq->busy_since = 0;
	rq->idle_since = 0;
	rq->busy_ns = rq->idle_ns = rq->switches = rq->ticks = 0;
	eevdf__fair_server_init(rq);
}

int eevdf__sched_classes_init(struct scheduler *sched)
{
	size_t n = (size_t)sched->nr_cpus;

	sched->cpupri_count = calloc(CPUPRI_NR_PRIORITIES,
				     sizeof(*sched->cpupri_count));
	sched->rto_mask = calloc(n, 1);
	sched->dlo_mask = calloc(n, 1);
	sched->cpu_scratch = calloc(n, 1);
	sched->span_overloaded = calloc(sched->topo.nr_spans + 1,
					sizeof(*sched->span_overloaded));
	if (!sched->cpupri_count || !sched->rto_mask || !sched->dlo_mask ||
	    !sched->cpu_scratch || !sched->span_overloaded)
		return EEVDF_ENOMEM;
	sched->rto_cpu = -1;
	sched->rto_loop_again = false;
	eevdf__event_init(&sched->rt_period_ev, REV_RT_PERIOD, EVC_TICK);
	return eevdf__lb_stats_init(sched);
}

void eevdf__sched_classes_free(struct scheduler *sched)
{
	free(sched->cpupri_count);
	free(sched->rto_mask);
	free(sched->dlo_mask);
	free(sched->cpu_scratch);
	free(sched->span_overloaded);
	eevdf__lb_stats_free(sched);
}

const struct sched_class *eevdf__sched_class_of(enum eevdf_policy policy)
{
	switch (policy) {
	case EEVDF_POLICY_FIFO:
	case EEVDF_POLICY_RR:
		return &rt_sched_class;
	case EEVDF_POLICY_DEADLINE:
		return &dl_sched_class;
	case EEVDF_POLICY_NORMAL:
	case EEVDF_POLICY_BATCH:
	case EEVDF_POLICY_IDLE:
		break;
	}
	return &fair_sched_class;
}

/* normal_prio(): the kernel priority of a policy, rt_priority and nice. */
int eevdf__normal_prio(enum eevdf_policy policy, unsigned int rt_priority,
		       int nice)
{
	switch (policy) {
	case EEVDF_POLICY_DEADLINE:
		return MAX_DL_PRIO - 1;
	case EEVDF_POLICY_FIFO:
	case EEVDF_POLICY_RR:
		return MAX_RT_PRIO - 1 - (int)rt_priority;
	case EEVDF_POLICY_NORMAL:
	case EEVDF_POLICY_BATCH:
	case EEVDF_POLICY_IDLE:
		break;
	}
	return DEFAULT_PRIO + nice;
}

/*
 * update_curr_common(): charge the running task of a non-fair class the
 * time since its exec_start; the delta, <= 0 when there is none.
 */
s64 eevdf__update_curr_common(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se;
	s64 delta = (s64)(rq->clock - se->exec_start);

	if (delta <= 0)
		return delta;
	se->exec_start = rq->clock;
	se->sum_exec_runtime += (u64)delta;
	return delta;
}

void eevdf__rq_hrtick_arm(struct rq *rq, s64 delay)
{
	struct scheduler *sched = rq->sched;

	if (delay < 0) {
		eevdf__eventq_cancel(&sched->evq, &rq->hrtick_ev);
		return;
	}
	eevdf__queue_event(sched, &rq->hrtick_ev, sched->now + delay);
}

/* The periodic tick runs only while the CPU is busy (NOHZ idle). */
static void tick_start(struct scheduler *sched, struct rq *rq)
{
	eevdf_time tick = (eevdf_time)sched->sp.tick_nsec;

	if (!eevdf__event_queued(&rq->tick_ev))
		eevdf__queue_event(sched, &rq->tick_ev,
				   (sched->now / tick + 1) * tick);
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

static void switch_out(struct scheduler *sched, struct task *prev)
{
	eevdf_time now = sched->now;

	prev->on_cpu = false;
	sched->ops->switch_out(sched, prev);
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
	case TASK_WAKING:
		EEVDF_ASSERT(0);
		break;
	}
}

/* What the context switch itself costs, by what is switched in. */
static u64 ctxsw_cost(const struct scheduler *sched, const struct task *next)
{
	if (!next || next->is_thread)
		return sched->costs.ctxsw_thread;
	return sched->costs.ctxsw_process;
}

/*
 * The switch is charged to the task switched in (exec_start is taken at
 * set_next_entity), as the rest of __schedule(), which holds the CPU's
 * own rq lock from its start to finish_task_switch(): a remote waker
 * holding it makes the switch spin, and one that wrote the rq last makes
 * it pull the lines back.
 */
static void switch_in(struct scheduler *sched, struct rq *rq, struct task *next)
{
	eevdf_time now = sched->now;

	next->overhead_left += eevdf__rq_lock(sched, rq, rq->cpu,
					      ctxsw_cost(sched, next), NULL);
	next->on_cpu = true;
	next->st.wait_ns += (u64)(now - next->state_since);
	next->state_since = now;
	delay_sample(next, now);
	sched->ops->switch_in(sched, next);
}

/* __schedule() ---------------------------------------------------------- */

static void move_to_allowed(struct scheduler *sched, struct task *p);
static int settle_all(struct scheduler *sched);

/* This CPU went busy or idle: its SMT siblings' tasks change speed. */
static void smt_siblings_speed(struct scheduler *sched, struct rq *rq)
{
	const struct sd_span *smt = sched->topo.cpu[rq->cpu].smt;

	for (u32 i = 0; i < smt->weight; i++) {
		struct rq *s = &sched->rqs[smt->cpus[i]];

		if (s != rq && s->curr)
			sched->ops->speed_change(sched, s->curr);
	}
}

/* The class hooks through the task's class ------------------------------ */

static inline void enqueue_task(struct rq *rq, struct task *p,
				unsigned int flags)
{
	p->sched_class->enqueue_task(rq, p, flags);
}

/* false when the task stays queued (a delayed fair entity) */
static inline bool dequeue_task(struct rq *rq, struct task *p,
				unsigned int flags)
{
	return p->sched_class->dequeue_task(rq, p, flags);
}

static inline bool class_above(const struct sched_class *a,
			       const struct sched_class *b)
{
	return a->rank > b->rank;
}

/* The classes from the highest down, for the pick and balance loops. */
static const struct sched_class *const sched_classes[] = {
	&dl_sched_class,
	&rt_sched_class,
	&fair_sched_class,
};

/*
 * put_prev_task_balance(): before the pick, prev's class and those below
 * it may pull work (balance_dl's and balance_rt's pulls, balance_fair's
 * newly-idle balancing); the first that has something to run stops it.
 */
static void put_prev_task_balance(struct rq *rq, struct task *prev)
{
	for (size_t i = 0; i < ARRAY_SIZE(sched_classes); i++) {
		const struct sched_class *c = sched_classes[i];

		if (class_above(c, prev->sched_class))
			continue;
		if (c->balance(rq, prev))
			break;
	}
}

/*
 * __pick_next_task().  When prev is at most fair and every runnable task
 * is fair, pick_next_task_fair() decides alone (the kernel's fast path),
 * exactly as before there were other classes.  Otherwise the classes are
 * asked from the highest down, after the pre-pick balance; the chosen
 * task replaces prev through the classes' put and set hooks, which do
 * nothing when it is prev itself.
 */
static struct task *pick_next_task(struct scheduler *sched, struct rq *rq,
				   struct task *prev)
{
	struct task *next = NULL;

	rq->dl_server = NULL;
	if ((!prev || prev->sched_class == &fair_sched_class) &&
	    rq->nr_running == rq->cfs.h_nr_queued) {
		next = pick_next_task_fair(rq, prev);
		if (!next && sched->sp.smp && eevdf__balance_newidle(sched, rq))
			next = pick_next_task_fair(rq, NULL);
		return next;
	}
	if (prev)
		put_prev_task_balance(rq, prev);
	for (size_t i = 0; i < ARRAY_SIZE(sched_classes) && !next; i++) {
		const struct sched_class *c = sched_classes[i];

		if (c == &fair_sched_class) {
			/* a fair prev is put or kept by the fair pick itself */
			if (prev && prev->sched_class != &fair_sched_class) {
				if (!rq->cfs.nr_queued)
					break;
				prev->sched_class->put_prev_task(rq, prev,
								 NULL);
				prev = NULL;
			}
			return pick_next_task_fair(rq, prev);
		}
		next = c->pick_task(rq);
	}
	if (next == prev)
		return next;
	if (prev)
		prev->sched_class->put_prev_task(rq, prev, next);
	if (next)
		next->sched_class->set_next_task(rq, next, true);
	return next;
}

/*
 * The balance callbacks queued under the lock (push_rt_tasks,
 * pull_rt_task and their DL twins), run as __schedule() or the
 * setscheduler path lets go of it.
 */
static void run_balance_callbacks(struct rq *rq)
{
	rq->clock = (u64)rq->sched->now;
	if (rq->push_dl_pending) {
		rq->push_dl_pending = false;
		eevdf__push_dl_tasks(rq);
	}
	if (rq->pull_dl_pending) {
		rq->pull_dl_pending = false;
		eevdf__pull_dl_task(rq);
	}
	if (rq->push_rt_pending) {
		rq->push_rt_pending = false;
		push_rt_tasks(rq);
	}
	if (rq->pull_rt_pending) {
		rq->pull_rt_pending = false;
		pull_rt_task(rq);
	}
}

/*
 * Pick the next task and switch to it.  A prev that is no longer
 * TASK_RUNNING blocks: it is dequeued with DEQUEUE_SLEEP, which may leave
 * a fair task queued as a delayed entity.  When the pick returns prev
 * itself nothing is switched and its protection window is not refreshed.
 */
void eevdf__schedule(struct scheduler *sched, struct rq *rq)
{
	struct task *prev = rq->curr, *next;

	bool evict;

	rq->clock = (u64)sched->now;
	eevdf__rq_hrtick_arm(rq, -1);
	if (prev && prev->state != TASK_RUNNING) {
		if (dequeue_task(rq, prev, DEQUEUE_SLEEP))
			prev->on_rq = false;
	}
	/* a running task whose affinity excludes this CPU is pushed off */
	evict = prev && prev->state == TASK_RUNNING && prev->on_rq &&
		!task_allowed(prev, rq->cpu);
	if (evict) {
		dequeue_task(rq, prev, 0);
		prev->on_rq = false;
	}
	next = pick_next_task(sched, rq, prev);
	trace_picked(rq, next);
	rq->need_resched = false;

	if (next != prev) {
		rq->switches++;
		if (prev) {
			switch_out(sched, prev);
		} else {
			/* put_prev_task_idle(): the idle time is the fair
			 * server's (6.12+ defer mode) */
			dl_server_update_idle_time(rq);
			rq->idle_ns += (u64)(sched->now - rq->idle_since);
			rq->busy_since = sched->now;
		}
		rq->curr = next;
		if (!prev != !next && sched->core_running)
			sched->core_running[sched->topo.cpu[rq->cpu].core] +=
				next ? 1 : (uint8_t)-1;
		rq_idle_update(rq);
		if (next) {
			switch_in(sched, rq, next);
			tick_start(sched, rq);
		} else {
			/* to the idle task: the lock is held, nobody pays */
			eevdf__rq_lock(sched, rq, rq->cpu,
				       ctxsw_cost(sched, NULL), NULL);
			rq->busy_ns += (u64)(sched->now - rq->busy_since);
			rq->idle_since = sched->now;
			rq->idle_stamp = sched->now;
			rq->idle_stamped = true;
			rq->idle_exec_start = (u64)sched->now;
			eevdf__eventq_cancel(&sched->evq, &rq->tick_ev);
			if (sched->sp.smp)
				update_idle_core(sched, rq->cpu);
		}
		if ((!prev || !next) && sched->topo.smt_active)
			smt_siblings_speed(sched, rq);
		eevdf__trace(sched, EEVDF_TRACE_SWITCH, rq->cpu,
			     next ? next->pid : -1, prev ? prev->pid : -1,
			     prev ? eevdf__public_state(prev->state) :
				    EEVDF_TASK_RUNNING);
		/* task_dead_fair(): an exiting task must not stay delayed;
		 * task_dead_dl(): its bandwidth is free again */
		if (prev && prev->state == TASK_DEAD) {
			if (prev->on_rq) {
				dequeue_task(rq, prev,
					     DEQUEUE_SLEEP | DEQUEUE_DELAYED);
				prev->on_rq = false;
			}
			eevdf__task_dead_dl(sched, prev);
		}
	}
	if (next && next->sched_class == &fair_sched_class &&
	    sched_feat_rq(rq, HRTICK))
		hrtick_start_fair(rq, next);
	if (evict)
		move_to_allowed(sched, prev);
	run_balance_callbacks(rq);
}

/*
 * wakeup_preempt(): an idle CPU always switches to the wakee, once it is
 * out of its idle state: a CPU idle since before now pays the cost
 * model's exit latency first (the CPU was just idle within this instant
 * when it has not left the idle loop yet).
 */
void eevdf__wakeup_preempt(struct rq *rq, struct task *p,
			   unsigned int wake_flags)
{
	struct scheduler *sched = rq->sched;

	if (rq->curr) {
		/* the same class decides; a higher class preempts at once */
		if (p->sched_class == rq->curr->sched_class) {
			p->sched_class->wakeup_preempt(rq, p, wake_flags);
		} else if (class_above(p->sched_class, rq->curr->sched_class)) {
			trace_wakeup(rq, EEVDF_RULE_WAKEUP_CLASS, p);
			resched_curr(rq);
		} else {
			trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_CLASS, p);
		}
		return;
	}
	trace_wakeup(rq, EEVDF_RULE_WAKEUP_IDLE_CPU, p);
	if (eevdf__event_queued(&rq->idle_exit_ev))
		return;
	/* awake_at: a wake list's landing already paid the exit */
	if (sched->costs.idle_exit && rq->idle_since < sched->now &&
	    rq->awake_at != sched->now) {
		eevdf__queue_event(sched, &rq->idle_exit_ev,
				   sched->now +
					   (eevdf_time)sched->costs.idle_exit);
		return;
	}
	resched_curr(rq);
}

/*
 * The CPU a wakeup runs on: the waker's; in an interrupt (a device's
 * completion) the CPU it hit; for a timer the CPU that armed it, which is
 * where the sleeper last ran.
 */
static int waking_cpu(struct scheduler *sched, const struct task *p)
{
	if (sched->ttwu_waker > 0)
		return sched->tasks[sched->ttwu_waker - 1]->cpu;
	if (sched->irq_cpu >= 0)
		return sched->irq_cpu;
	return p->cpu;
}

/* select_task_rq(): only tasks that may run on several CPUs choose, and a
 * choice outside the task's CPUs falls back to its first one. */
static int select_task_rq(struct scheduler *sched, struct task *p, int this_cpu,
			  unsigned int *wake_flags)
{
	int cpu;

	if (!sched->sp.smp || p->spin_held || p->spinning)
		return p->cpu;
	if (task_nr_allowed(sched, p) == 1)
		return p->nr_cpus_allowed ? p->cpus_allowed[0] : 0;
	cpu = p->sched_class->select_task_rq(sched, p, p->cpu, this_cpu,
					     *wake_flags);
	*wake_flags |= WF_RQ_SELECTED;
	if (!task_allowed(p, cpu))
		cpu = p->cpus_allowed[0];
	return cpu;
}

/*
 * wake_up_new_task(): the fork balancer picks the CPU (the parent's CPU,
 * or CPU 0 for the workload's own tasks, is where the search starts), and
 * the task is placed at V with half a request (ENQUEUE_INITIAL).
 */
static void wake_up_new_task(struct scheduler *sched, struct task *p)
{
	unsigned int wf = WF_FORK;
	struct rq *rq;
	int this_cpu = p->parent_pid > 0 ?
			       sched->tasks[p->parent_pid - 1]->cpu :
			       p->cpu;

	/* __set_task_cpu(): a new task has no cache to lose */
	p->cpu = select_task_rq(sched, p, this_cpu, &wf);
	rq = task_rq(sched, p);
	rq->clock = (u64)sched->now;
	/* sched_fork(): weight and slice for every class, an RR slice; the
	 * entity joins its group's queue of this CPU */
	init_entity(rq, p);
	p->rt.time_slice = sched->sp.rr_timeslice;
	if (p->sched_class == &dl_sched_class)
		eevdf__dl_new_task(rq, p);
	if (sched->sp.smp && p->sched_class == &fair_sched_class) {
		/* post_init_entity_util_avg() from its own queue's signals */
		struct cfs_rq *cfs_rq = p->se.cfs_rq;

		pelt_update_cfs_rq(
			(u64)sched->now, &cfs_rq->avg,
			(unsigned long)scale_load_down(cfs_rq->load.weight),
			cfs_rq->h_nr_runnable, cfs_rq->curr != NULL);
		lb_stats_dirty(rq_of(cfs_rq));
		pelt_init_task(
			&p->se.avg,
			(unsigned long)scale_load_down(p->se.load.weight),
			cfs_rq->avg.util_avg, cfs_rq->avg.load_avg,
			capacity_of(sched, rq->cpu), (u64)sched->now);
		attach_entity_cfs_rq(&p->se);
	}
	p->sched_task_group->nr_tasks++;
	p->state_since = sched->now;
	became_runnable(p, sched->now);
	p->on_rq = true;
	eevdf__trace(sched, EEVDF_TRACE_NEW, rq->cpu, p->pid, -1,
		     EEVDF_TASK_RUNNING);
	enqueue_task(rq, p,
		     sched->sp.profile->new_task_initial ? ENQUEUE_INITIAL : 0);
	eevdf__wakeup_preempt(rq, p, wf);
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(rq, p);
	eevdf__mark_settle(sched, rq);
}

/*
 * try_to_wake_up().  A task still queued as a delayed entity is woken in
 * place by ttwu_runnable() (no CPU selection); any other is enqueued with
 * its saved lag.  A pending timer (a wait's timeout) is cancelled.
 *
 * Every path charges the CPU it runs on what the kernel's does there:
 * the CPUs select_idle_sibling() looks at (sis_probe each), a remote
 * run-queue lock with its line transfers and any spin behind other
 * holders (rq_lock.h), or the wake-list queueing and IPI send
 * (ttwu_remote).  The sum comes back in *cost.
 */
static void ttwu_do_activate(struct scheduler *sched, struct task *p,
			     unsigned int wake_flags);

/*
 * ttwu_queue_cond(): whether a wakeup onto cpu goes through its wake list
 * rather than an enqueue under its lock from here.  Another LLC's CPU
 * always does (317f394160e9 "sched: Move the second half of ttwu() to the
 * remote cpu"); this CPU never; an idle one does since f3dd3f674555
 * ("sched: Remove the limitation of WF_ON_CPU on wakelist if wakee cpu is
 * idle", v6.0) with 28156108fecb's nr_running test, which counts delayed
 * tasks as the kernel's does from 6.12 on; any other only
 * when def, which the 2025 RFC's TTWU_QUEUE_DEFAULT sets, and its
 * TTWU_QUEUE_DELAYED for a delayed wakee (msg 20250520101727.984171377).
 * A cost model without an IPI latency (the library's zero table) keeps
 * every wakeup direct, so hand-computed examples stay exact.
 */
static bool ttwu_queue_cond(struct scheduler *sched, const struct task *p,
			    int cpu, int this_cpu, bool def)
{
	if (!sched->sp.smp || !sched_feat(sched->sp.features, TTWU_QUEUE) ||
	    !sched->costs.ipi || !task_allowed(p, cpu))
		return false;
	if (!cpus_share_cache(&sched->topo, this_cpu, cpu))
		return true;
	if (cpu == this_cpu)
		return false;
	if (!sched->rqs[cpu].nr_running)
		return true;
	return def;
}

/*
 * Queue p on cpu's wake list: it becomes runnable when the IPI lands
 * (TASK_WAKING meanwhile).  delayed: p is a delayed-dequeue task whose
 * dequeue that CPU completes first (TTWU_QUEUE_DELAYED).  An entry queued
 * while an IPI is in flight rides on it (llist_add() onto a non-empty
 * list sends none); an idle CPU polls its flags in the idle loop, so the
 * wakeup reaches it after its exit latency instead of an IPI's.
 */
static void ttwu_queue_wakelist(struct scheduler *sched, struct task *p,
				int cpu, int this_cpu, unsigned int wake_flags,
				bool delayed, u64 *cost)
{
	struct rq *rq = &sched->rqs[cpu];
	eevdf_time when;

	sched->smp.wakeups_remote++;
	p->state = TASK_WAKING;
	p->wake_flags = wake_flags;
	p->wakelist_waker = sched->ttwu_waker;
	/* the landing reads the waker (select_task_rq_fair() and its
	 * wakee history), which may exit meanwhile: keep it whole */
	if (p->wakelist_waker > 0)
		sched->tasks[p->wakelist_waker - 1]->pins++;
	p->wakelist_delayed = delayed;
	if (rq->nr_ipi_batch && rq->ipi_at >= sched->now) {
		when = rq->ipi_at;
		rq->nr_ipi_batch++;
	} else {
		if (rq->curr)
			when = sched->now + (eevdf_time)sched->costs.ipi;
		else if (rq->idle_since < sched->now)
			when = sched->now + (eevdf_time)sched->costs.idle_exit;
		else
			when = sched->now; /* still in the idle loop */
		rq->ipi_at = when;
		rq->nr_ipi_batch = 1;
		rq->ipi_landed = 0;
		sched->smp.ipis++;
		eevdf__trace_ipi(sched, this_cpu, cpu, p->pid);
	}
	rq->nr_wakelist++;
	rq_idle_update(rq);
	p->ev.type = TEV_WAKELIST;
	p->ev.class = EVC_WAKEUP;
	eevdf__queue_event(sched, &p->ev, when);
	*cost += sched->costs.ttwu_remote;
}

/* The enqueue under cpu's lock, from this_cpu (ttwu_queue()'s else). */
static void ttwu_direct(struct scheduler *sched, struct task *p, int this_cpu,
			unsigned int wake_flags, u64 *cost)
{
	struct rq *rq = task_rq(sched, p);

	if (rq->cpu != this_cpu)
		sched->smp.wakeups_direct_remote++;
	*cost += eevdf__rq_lock(sched, rq, this_cpu, sched->costs.ttwu_local,
				NULL);
	ttwu_do_activate(sched, p, wake_flags);
}

/*
 * The path of a task that is off its queue: select_task_rq() (it may
 * migrate), then cpu's wake list when ttwu_queue_cond() says so, or the
 * enqueue under its lock now.
 */
static void ttwu_select(struct scheduler *sched, struct task *p, int this_cpu,
			unsigned int wake_flags, u64 *cost)
{
	int cpu;

	sched->sis_probes = 0;
	cpu = select_task_rq(sched, p, this_cpu, &wake_flags);
	sched->smp.sis_probes += sched->sis_probes;
	*cost += sched->sis_probes * sched->costs.sis_probe;
	if (cpu != p->cpu) {
		wake_flags |= WF_MIGRATED;
		sched->smp.migrations_wakeup++;
		set_task_cpu(sched, p, cpu);
	}
	if (available_idle_cpu(sched, cpu)) {
		sched->smp.wakeups_idle++;
		p->st.wakeups_idle++;
	}
	if (ttwu_queue_cond(sched, p, cpu, this_cpu,
			    sched_feat(sched->sp.features,
				       TTWU_QUEUE_DEFAULT))) {
		ttwu_queue_wakelist(sched, p, cpu, this_cpu, wake_flags, false,
				    cost);
		return;
	}
	ttwu_direct(sched, p, this_cpu, wake_flags, cost);
}

/* Finish the sleep of a delayed task still on its queue. */
static void complete_delayed_dequeue(struct scheduler *sched, struct task *p)
{
	struct rq *rq = task_rq(sched, p);

	rq->clock = (u64)sched->now;
	dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
	p->on_rq = false;
	eevdf__mark_settle(sched, rq);
}

/*
 * A delayed task that wakes goes through wakeup CPU selection instead of
 * waking in place when TTWU_DEQUEUE says so (2025 RFC), or under
 * DEQUEUE_DELAYED (M. Galbraith, 2024-11-23) when its CPU has other work, it
 * may run elsewhere and waker and wakee are not a pair.
 */
static bool delayed_wakes_elsewhere(struct scheduler *sched, struct task *p)
{
	const struct task *w = sched->ttwu_waker > 0 ?
				       sched->tasks[sched->ttwu_waker - 1] :
				       NULL;

	if (sched_feat(sched->sp.features, TTWU_DEQUEUE))
		return true;
	return sched_feat(sched->sp.features, DEQUEUE_DELAYED) &&
	       task_rq(sched, p)->nr_running > 1 &&
	       task_nr_allowed(sched, p) > 1 &&
	       !(w && w->last_wakee == p->pid && p->last_wakee == w->pid);
}

/*
 * Charge ns of interrupt-context work to cpu: to its current task, which
 * the kernel bills for the IRQ time it interrupts, or, on an idle CPU,
 * to p, the task it is about to run.
 */
void eevdf__charge_cpu(struct scheduler *sched, int cpu, struct task *p, u64 ns)
{
	struct rq *rq = &sched->rqs[cpu];

	if (!ns)
		return;
	if (rq->curr && rq->curr != p)
		sched->ops->interrupt(sched, rq->curr, ns);
	else if (p)
		p->overhead_left += ns;
}

/* try_to_wake_up() from this_cpu; what it cost that CPU. */
static u64 try_to_wake_up(struct scheduler *sched, struct task *p, int this_cpu,
			  unsigned int wake_flags)
{
	u64 cost = 0;

	if (p->on_rq) {
		/*
		 * TTWU_QUEUE_DELAYED (2025 RFC): rather than lock the
		 * delayed task's queue from here, send it to its CPU's wake
		 * list; that CPU completes the dequeue and runs a normal
		 * wakeup, CPU selection included.
		 */
		if (sched_feat(sched->sp.features, TTWU_QUEUE_DELAYED) &&
		    ttwu_queue_cond(sched, p, p->cpu, this_cpu, true)) {
			ttwu_queue_wakelist(sched, p, p->cpu, this_cpu,
					    wake_flags, true, &cost);
			return cost;
		}
		if (!sched->sp.smp || !delayed_wakes_elsewhere(sched, p)) {
			/* ttwu_runnable(): a delayed task wakes where it is,
			 * under its rq's lock */
			ttwu_direct(sched, p, this_cpu, wake_flags, &cost);
			return cost;
		}
		cost += eevdf__rq_lock(sched, task_rq(sched, p), this_cpu,
				       sched->costs.ttwu_local, NULL);
		complete_delayed_dequeue(sched, p);
	}
	ttwu_select(sched, p, this_cpu, wake_flags, &cost);
	return cost;
}

u64 eevdf__ttwu(struct scheduler *sched, struct task *p,
		unsigned int wake_flags)
{
	int this_cpu;
	u64 cost;

	EEVDF_ASSERT(p->state == TASK_SLEEPING);
	if (eevdf__event_queued(&p->ev))
		eevdf__eventq_cancel(&sched->evq, &p->ev);
	sched->smp.wakeups++;
	p->st.wakeups++;
	this_cpu = waking_cpu(sched, p);
	cost = try_to_wake_up(sched, p, this_cpu, wake_flags);
	if (sched->ttwu_waker > 0)
		return cost;
	/* a timer's wakeup runs in the hrtimer interrupt of its CPU */
	eevdf__charge_cpu(sched, this_cpu, p, cost);
	return 0;
}

/* The enqueue half of a wakeup, on the task's (chosen) CPU. */
static void ttwu_do_activate(struct scheduler *sched, struct task *p,
			     unsigned int wake_flags)
{
	struct rq *rq = task_rq(sched, p);

	rq->clock = (u64)sched->now;
	/* how long the CPU stayed idle feeds newly-idle balancing's budget */
	if (rq->idle_stamped) {
		s64 delta = sched->now - rq->idle_stamp;
		u64 max = 2 * rq->max_idle_balance_cost;

		rq->avg_idle = (u64)((s64)rq->avg_idle +
				     (delta - (s64)rq->avg_idle) / 8);
		if (rq->avg_idle > max)
			rq->avg_idle = max;
		rq->idle_stamped = false;
	}
	became_runnable(p, sched->now);
	eevdf__trace(sched, EEVDF_TRACE_WAKEUP, rq->cpu, p->pid,
		     sched->ttwu_waker, EEVDF_TASK_RUNNING);
	if (p->on_rq) {
		EEVDF_ASSERT(p->se.sched_delayed);
		enqueue_task(rq, p, ENQUEUE_DELAYED);
	} else {
		enqueue_task(rq, p,
			     ENQUEUE_WAKEUP | ((wake_flags & WF_MIGRATED) ?
						       ENQUEUE_MIGRATED :
						       0));
		p->on_rq = true;
	}
	eevdf__wakeup_preempt(rq, p, wake_flags);
	/* task_woken_rt/_dl(): push it away if it cannot run here now */
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(rq, p);
	eevdf__mark_settle(sched, rq);
}

/*
 * The CPUs to settle form a FIFO ring: a CPU is in it at most once (while
 * settle_pending), so nr_cpus slots always suffice.
 */
void eevdf__mark_settle(struct scheduler *sched, struct rq *rq)
{
	size_t n = (size_t)sched->nr_cpus, tail;

	if (rq->settle_pending)
		return;
	rq->settle_pending = true;
	tail = sched->settle_head + sched->nr_settle;
	if (tail >= n)
		tail -= n;
	sched->settle[tail] = rq;
	sched->nr_settle++;
}

/*
 * Let a CPU act on what the last event changed: reschedule when asked, and
 * run the current task's program until it waits for simulated time.
 */
static int rq_settle(struct scheduler *sched, struct rq *rq)
{
	int ret;

	for (;;) {
		if (rq->need_resched) {
			eevdf__schedule(sched, rq);
			continue;
		}
		if (rq->curr && rq->curr->needs_step) {
			ret = sched->ops->step(sched, rq, rq->curr);
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
static int settle_all(struct scheduler *sched)
{
	size_t n = (size_t)sched->nr_cpus;
	int ret = 0;

	while (sched->nr_settle) {
		struct rq *rq = sched->settle[sched->settle_head];

		if (!ret)
			ret = rq_settle(sched, rq);
		rq->settle_pending = false;
		trace_touch(sched, rq->cpu);
		if (++sched->settle_head == n)
			sched->settle_head = 0;
		sched->nr_settle--;
	}
	trace_state_flush(sched);
	return ret;
}

int eevdf__core_settle(struct scheduler *sched)
{
	return settle_all(sched);
}

/* Events --------------------------------------------------------------- */

/*
 * The IPI landed: sched_ttwu_pending() on the target.  The batch's first
 * entry pays the interrupt (ipi_recv) and takes the CPU's own lock once
 * for every entry's activation; a delayed entry ends its dequeue here and
 * is woken as a normal wakeup from this CPU (TTWU_QUEUE_DELAYED), whose
 * CPU selection and further locks this CPU pays too.
 */
static void wakelist_land(struct scheduler *sched, struct rq *rq,
			  struct task *p)
{
	int waker = p->wakelist_waker;
	u64 cost = 0;

	rq->nr_wakelist--;
	rq_idle_update(rq);
	if (rq->nr_ipi_batch && ++rq->ipi_landed == 1) {
		if (rq->curr)
			cost += sched->costs.ipi_recv;
		else
			rq->awake_at = sched->now;
		cost += eevdf__rq_lock(
			sched, rq, rq->cpu,
			rq->nr_ipi_batch * sched->costs.ttwu_local, NULL);
	}
	if (rq->nr_ipi_batch && rq->ipi_landed >= rq->nr_ipi_batch) {
		sched->smp.wakelist_tasks += rq->nr_ipi_batch;
		if (rq->nr_ipi_batch > sched->smp.wakelist_batch_max)
			sched->smp.wakelist_batch_max = rq->nr_ipi_batch;
		rq->nr_ipi_batch = 0;
	}
	p->state = TASK_SLEEPING;
	sched->ttwu_waker = waker;
	if (p->wakelist_delayed) {
		/* the delayed dequeue ends here, then a normal wakeup from
		 * this CPU */
		p->wakelist_delayed = false;
		/* a pick may have reaped it meanwhile */
		if (p->on_rq)
			complete_delayed_dequeue(sched, p);
		ttwu_select(sched, p, rq->cpu, p->wake_flags, &cost);
	} else {
		/* its CPUs changed while the IPI was on its way */
		if (!task_allowed(p, p->cpu))
			set_task_cpu(sched, p, p->cpus_allowed[0]);
		ttwu_do_activate(sched, p, p->wake_flags);
	}
	sched->ttwu_waker = -1;
	eevdf__charge_cpu(sched, rq->cpu, p, cost);
	/* only now: the landing may have sent p to a wake list again, which
	 * pinned the waker anew */
	if (waker > 0)
		sched->tasks[waker - 1]->pins--;
}

static void task_event(struct scheduler *sched, struct task *p)
{
	struct rq *rq = task_rq(sched, p);

	switch ((enum task_event_type)p->ev.type) {
	case TEV_START:
		wake_up_new_task(sched, p);
		break;
	case TEV_TIMER:
		sched->ops->timer(sched, p);
		break;
	case TEV_BURST:
		EEVDF_ASSERT(rq->curr == p);
		sched->ops->burst_end(sched, p);
		break;
	case TEV_WAKELIST:
		wakelist_land(sched, rq, p);
		break;
	}
	eevdf__mark_settle(sched, rq);
}

static int rq_event(struct scheduler *sched, struct rq *rq,
		    struct eevdf_event *ev)
{
	rq->clock = (u64)sched->now;
	if (ev->type == REV_IDLE_EXIT) {
		/* out of the idle state: run what was queued meanwhile */
		if (!rq->curr && rq->nr_running)
			resched_curr(rq);
		eevdf__mark_settle(sched, rq);
		return 0;
	}
	EEVDF_ASSERT(rq->curr);
	if (ev->type == REV_TICK) {
		/* sched_tick() runs under the CPU's own lock: pulling it back
		 * from a remote waker is the interrupted task's to pay */
		u64 c = eevdf__rq_lock(sched, rq, rq->cpu, 0, NULL);

		if (c)
			sched->ops->interrupt(sched, rq->curr, c);
		rq->ticks++;
		eevdf__trace(sched, EEVDF_TRACE_TICK, rq->cpu, rq->curr->pid,
			     -1, EEVDF_TASK_RUNNING);
		rq->curr->sched_class->task_tick(rq, rq->curr, false);
		if (sched->sp.smp)
			eevdf__balance_tick(sched, rq);
		if (eevdf__queue_event(sched, &rq->tick_ev,
				       ev->time +
					       (eevdf_time)sched->sp.tick_nsec))
			return sched->error;
	} else {
		rq->curr->sched_class->task_tick(rq, rq->curr, true);
	}
	eevdf__mark_settle(sched, rq);
	return 0;
}

void eevdf__core_prefetch_next(const struct scheduler *sched)
{
	const struct eevdf_event *ev;

	if (sched->nr_tasks < TASK_PREFETCH_MIN)
		return;
	ev = eevdf__eventq_next_hint(&sched->evq);
	if (ev && ev->type >= TEV_START && ev->type <= TEV_WAKELIST)
		eevdf__prefetch(container_of(ev, struct task, ev),
				TASK_HOT_BYTES);
}

int eevdf__core_dispatch(struct scheduler *sched, struct eevdf_event *ev)
{
	int ret = 0;

	switch (ev->type) {
	case REV_DL_TIMER:
		eevdf__dl_timer(sched, container_of(ev, struct sched_dl_entity,
						    dl_timer));
		return settle_all(sched);
	case REV_RT_PERIOD:
		eevdf__rt_period_timer(sched);
		return settle_all(sched);
	case REV_RT_PUSH:
		eevdf__rt_push_irq_work(sched, container_of(ev, struct rq,
							    rt_push_ev));
		return settle_all(sched);
	case REV_CFS_PERIOD:
		eevdf__cfs_period_timer(sched,
					container_of(ev, struct cfs_bandwidth,
						     period_timer));
		return settle_all(sched);
	case REV_CFS_SLACK:
		eevdf__cfs_slack_timer(sched,
				       container_of(ev, struct cfs_bandwidth,
						    slack_timer));
		return settle_all(sched);
	default:
		break;
	}
	if (ev->type == REV_TICK || ev->type == REV_HRTICK ||
	    ev->type == REV_IDLE_EXIT) {
		struct rq *rq = ev->type == REV_TICK ?
					container_of(ev, struct rq, tick_ev) :
				ev->type == REV_HRTICK ?
					container_of(ev, struct rq, hrtick_ev) :
					container_of(ev, struct rq,
						     idle_exit_ev);
		ret = rq_event(sched, rq, ev);
	} else {
		task_event(sched, container_of(ev, struct task, ev));
	}
	return ret ? ret : settle_all(sched);
}

int eevdf__settle(struct scheduler *sched)
{
	return settle_all(sched);
}

/* do_sched_yield(): the class's yield_task, then __schedule(). */
void eevdf__sched_yield(struct scheduler *sched, struct rq *rq)
{
	rq->clock = (u64)sched->now;
	rq->curr->sched_class->yield_task(rq);
	eevdf__schedule(sched, rq);
}

static bool rt_policy(int policy)
{
	return policy == EEVDF_POLICY_FIFO || policy == EEVDF_POLICY_RR;
}

/*
 * The checks of __sched_setscheduler() for p taking policy with attr:
 * EINVAL for parameters the kernel refuses, EPERM (EINVAL here) for a
 * deadline task that may not use every CPU, EBUSY from admission
 * control, which, when it passes, has taken the new bandwidth.
 */
static int setattr_check(struct scheduler *sched, struct task *p, int policy,
			 unsigned int rt_priority, const struct dl_attr *dl,
			 char *err, size_t errlen)
{
	const char *why;

	if (rt_policy(policy) && (rt_priority < 1 || rt_priority > 99)) {
		snprintf(err, errlen,
			 "sched_setattr: rt_priority %u is outside 1..99 "
			 "(EINVAL)",
			 rt_priority);
		return EEVDF_EINVAL;
	}
	if (policy != EEVDF_POLICY_DEADLINE) {
		sched_dl_overflow(sched, p, false, dl);
		return 0;
	}
	if ((why = checkparam_dl(dl))) {
		snprintf(err, errlen,
			 "sched_setattr: SCHED_DEADLINE %s (EINVAL)", why);
		return EEVDF_EINVAL;
	}
	if (task_nr_allowed(sched, p) != sched->nr_cpus) {
		snprintf(err, errlen,
			 "sched_setattr: a SCHED_DEADLINE task must be allowed "
			 "on every CPU of its root domain (EPERM)");
		return EEVDF_EINVAL;
	}
	if (eevdf__dl_bw_limit(sched) == 0) {
		snprintf(err, errlen,
			 "sched_setattr: SCHED_DEADLINE needs deadline "
			 "bandwidth, and sched_rt_runtime_us 0 leaves none "
			 "(EPERM)");
		return EEVDF_EINVAL;
	}
	if (!sched_dl_overflow(sched, p, true, dl)) {
		s64 bw = eevdf__dl_bw_limit(sched);
		u64 per = dl->period ? dl->period : dl->deadline;
		u64 want = sched->dl_total_bw + to_ratio(per, dl->runtime) -
			   (p->sched_class == &dl_sched_class ? p->dl->dl_bw :
								0);

		snprintf(err, errlen,
			 "SCHED_DEADLINE admission control refuses %.3f ms "
			 "every %.3f ms (EBUSY): %.4f CPUs would exceed "
			 "sched_rt_runtime_us/sched_rt_period_us x %d CPUs = "
			 "%.4f%s",
			 (double)dl->runtime / 1e6, (double)per / 1e6,
			 (double)want / (double)BW_UNIT, sched->nr_cpus,
			 (double)bw * (double)sched->nr_cpus / (double)BW_UNIT,
			 sched->rqs[0].fair_server.dl_bw ?
				 " (the fair servers' share included)" :
				 "");
		return EEVDF_EBUSY;
	}
	return 0;
}

/* Count the tasks that ever joined the RT or the deadline class. */
static void class_joined(struct scheduler *sched, const struct sched_class *c)
{
	if (c == &rt_sched_class)
		sched->nr_rt_tasks++;
	else if (c == &dl_sched_class)
		sched->nr_dl_tasks++;
}

int eevdf__sched_admit_new(struct scheduler *sched, struct task *p, char *err,
			   size_t errlen)
{
	struct dl_attr dl = { p->dl->dl_runtime, p->dl->dl_deadline,
			      p->dl->dl_period };
	const struct sched_class *cls = p->sched_class;
	int ret;

	/* admitted as the fair task it is before its sched_setattr() */
	p->sched_class = &fair_sched_class;
	ret = setattr_check(sched, p, (int)p->policy, p->rt_priority, &dl, err,
			    errlen);
	p->sched_class = cls;
	if (!ret)
		class_joined(sched, cls);
	return ret;
}

/*
 * Apply attr to p: policy, priority, weight, slice and deadline
 * parameters (__setscheduler_params()).
 */
static void setattr_apply(struct rq *rq, struct task *p, int policy, int nice,
			  const struct sched_attr_req *a,
			  unsigned int rt_priority, const struct dl_attr *dl)
{
	p->policy = (enum eevdf_policy)policy;
	p->nice = nice;
	eevdf__set_load_weight(&p->se.load, nice,
			       p->policy == EEVDF_POLICY_IDLE);
	if (a->slice >= 0 && rq->sp->profile->custom_slices) {
		p->se.custom_slice = a->slice != 0;
		p->se.slice = a->slice ?
				      (u64)max_s64(100000, min_s64(a->slice,
								   100000000)) :
				      rq->sp->sysctl_sched_base_slice;
	}
	p->rt_priority = rt_policy(policy) ? rt_priority : 0;
	if (policy == EEVDF_POLICY_DEADLINE)
		eevdf__setparam_dl(p, dl);
	p->prio = eevdf__normal_prio(p->policy, p->rt_priority, p->nice);
	p->sched_class = eevdf__sched_class_of(p->policy);
}

int eevdf__sched_setattr(struct scheduler *sched, struct rq *rq, struct task *p,
			 const struct sched_attr_req *a)
{
	int policy = a->policy >= 0 ? a->policy : (int)p->policy;
	int nice = a->nice >= -20 ? a->nice : p->nice;
	unsigned int rt_priority = a->rt_priority >= 0 ?
					   (unsigned int)a->rt_priority :
					   p->rt_priority;
	struct dl_attr dl = {
		a->dl_runtime >= 0 ? (u64)a->dl_runtime : p->dl->dl_runtime,
		a->dl_deadline >= 0 ? (u64)a->dl_deadline : p->dl->dl_deadline,
		a->dl_period >= 0 ? (u64)a->dl_period : p->dl->dl_period,
	};
	const struct sched_class *prev_class = p->sched_class, *new_class;
	bool queued, running;
	int oldprio = p->prio, ret;

	rq->clock = (u64)sched->now;
	/*
	 * __sched_setscheduler() changes nothing when an RT or deadline task
	 * asks for the policy and parameters it has (the fair class's own
	 * path below decides for fair tasks).
	 */
	if (policy == (int)p->policy && p->sched_class != &fair_sched_class &&
	    (policy != EEVDF_POLICY_DEADLINE ?
		     rt_priority == p->rt_priority :
		     dl.runtime == p->dl->dl_runtime &&
			     dl.deadline == p->dl->dl_deadline &&
			     (dl.period ? dl.period : dl.deadline) ==
				     p->dl->dl_period))
		return 0;
	/* before the checks: admission control takes the bandwidth */
	if (policy == EEVDF_POLICY_DEADLINE && eevdf__task_dl(sched, p)) {
		snprintf(sched->errmsg, sizeof(sched->errmsg),
			 "sched_setattr: out of memory");
		return EEVDF_ENOMEM;
	}
	ret = setattr_check(sched, p, policy, rt_priority, &dl, sched->errmsg,
			    sizeof(sched->errmsg));
	if (ret)
		return ret;
	new_class = eevdf__sched_class_of((enum eevdf_policy)policy);
	if (prev_class == &fair_sched_class && new_class == prev_class) {
		/* within the fair class: reweight, lag and slice kept */
		sched_change_fair(rq, p, nice, a->slice, a->policy);
		eevdf__mark_settle(sched, rq);
		return 0;
	}
	queued = p->on_rq;
	running = rq->curr == p;
	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE);
	if (running)
		prev_class->put_prev_task(rq, p, NULL);
	setattr_apply(rq, p, policy, nice, a, rt_priority, &dl);
	/* a task whose priority rises goes to the tail, one that falls to
	 * the head of its new list */
	if (queued)
		enqueue_task(rq, p,
			     ENQUEUE_RESTORE | ENQUEUE_MOVE |
				     (oldprio < p->prio ? ENQUEUE_HEAD : 0));
	if (running)
		new_class->set_next_task(rq, p, false);
	/* check_class_changed() */
	if (prev_class != new_class) {
		class_joined(sched, new_class);
		prev_class->switched_from(rq, p);
		new_class->switched_to(rq, p);
	} else if ((oldprio != p->prio || new_class == &dl_sched_class) &&
		   new_class->prio_changed) {
		new_class->prio_changed(rq, p, oldprio);
	}
	run_balance_callbacks(rq);
	eevdf__mark_settle(sched, rq);
	return 0;
}

/* setpriority() on a task, now. */
void eevdf__task_set_nice(struct scheduler *sched, struct task *p, int nice)
{
	struct rq *rq = task_rq(sched, p);

	if (p->state == TASK_NEW || p->state == TASK_DEAD) {
		p->nice = nice;
		return;
	}
	/* set_user_nice() of an RT or DL task: only the static priority */
	if (p->sched_class != &fair_sched_class) {
		p->nice = nice;
		return;
	}
	rq->clock = (u64)sched->now;
	reweight_task_fair(rq, p, nice);
	eevdf__mark_settle(sched, rq);
	settle_all(sched);
}

/*
 * sched_move_task(): p joins cgroup (or, with autogroup, its session's
 * group follows from that) now.  A queued task leaves its old group's
 * hierarchy and joins the new one keeping its lag (DEQUEUE_SAVE |
 * DEQUEUE_MOVE, ENQUEUE_RESTORE | ENQUEUE_MOVE), a running one is put
 * and set again and reschedules; its load moves with it
 * (task_change_group_fair()).  A task not started yet only changes
 * group.
 */
void eevdf__sched_move_task(struct scheduler *sched, struct task *p,
			    struct task_group *cgroup)
{
	struct rq *rq = task_rq(sched, p);
	struct task_group *tg;
	bool queued, running;

	p->cgroup = cgroup;
	tg = eevdf__task_group_of(sched, p);
	if (tg == p->sched_task_group)
		return;
	if (!p->exiting)
		p->stats_group = tg;
	if (p->state == TASK_NEW || p->state == TASK_DEAD) {
		p->sched_task_group = tg;
		eevdf__set_task_rq(p, p->cpu);
		return;
	}
	if (!p->exiting)
		tg->nr_tasks++;
	rq->clock = (u64)sched->now;
	queued = p->on_rq;
	running = rq->curr == p;
	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE);
	if (running)
		p->sched_class->put_prev_task(rq, p, NULL);
	if (p->sched_class == &fair_sched_class)
		detach_entity_cfs_rq(&p->se);
	p->sched_task_group = tg;
	eevdf__set_task_rq(p, p->cpu);
	if (p->sched_class == &fair_sched_class)
		attach_entity_cfs_rq(&p->se);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE);
	if (running) {
		p->sched_class->set_next_task(rq, p, false);
		/* an exiting task's move shows at its last schedule(), as
		 * under the distributions' voluntary preemption */
		if (!p->exiting)
			resched_curr(rq);
	}
	eevdf__mark_settle(sched, rq);
}

/* Put a task that left rq (not queued anywhere now) on its first CPU. */
static void move_to_allowed(struct scheduler *sched, struct task *p)
{
	struct rq *dst;

	set_task_cpu(sched, p, p->cpus_allowed[0]);
	dst = task_rq(sched, p);
	/* move_queued_task(): the enqueue is under the destination's lock */
	eevdf__rq_lock(sched, dst, dst->cpu, sched->costs.ttwu_local, NULL);
	dst->clock = (u64)sched->now;
	enqueue_task(dst, p, ENQUEUE_MIGRATED);
	p->on_rq = true;
	eevdf__wakeup_preempt(dst, p, 0);
	eevdf__mark_settle(sched, dst);
}

/*
 * __set_cpus_allowed_ptr(): a queued task outside its CPUs moves now; a
 * running one is preempted and moved by __schedule(); a sleeping or new
 * one is placed when it wakes or starts.
 */
void eevdf__task_affinity_changed(struct scheduler *sched, struct task *p)
{
	struct rq *rq = task_rq(sched, p);

	if (task_allowed(p, p->cpu)) {
		/*
		 * __do_set_cpus_allowed() dequeues and enqueues a queued
		 * task with SAVE/RESTORE: for an RT or DL task that may make
		 * it pushable, or not.  (A fair task's re-enqueue would move
		 * its placement; it is left where it is.)
		 */
		if (p->on_rq && !p->on_cpu && p->state == TASK_RUNNING &&
		    p->sched_class != &fair_sched_class) {
			rq->clock = (u64)sched->now;
			dequeue_task(rq, p, DEQUEUE_SAVE);
			enqueue_task(rq, p, ENQUEUE_RESTORE);
			eevdf__mark_settle(sched, rq);
			settle_all(sched);
		}
		return;
	}
	if (p->state == TASK_NEW) {
		p->cpu = p->cpus_allowed[0];
		return;
	}
	if (!p->on_rq || p->state != TASK_RUNNING)
		return;
	/* task_rq_lock(): taken by the caller outside the simulation, held
	 * for the dequeue; the time is nobody's but delays other takers */
	eevdf__rq_lock(sched, rq, rq->cpu, sched->costs.ttwu_local, NULL);
	rq->clock = (u64)sched->now;
	if (p->on_cpu) {
		resched_curr(rq);
	} else {
		dequeue_task(rq, p, 0);
		p->on_rq = false;
		move_to_allowed(sched, p);
	}
	eevdf__mark_settle(sched, rq);
	settle_all(sched);
}

/* Core invariants of one CPU on top of its cfs_rqs' own. */
const char *eevdf__rq_check(const struct rq *rq)
{
	const struct task *curr = rq->curr;
	unsigned int dl_tasks, fair_tasks = 0;
	const char *err;

	if ((err = eevdf__groups_check(rq, &fair_tasks)))
		return err;
	if ((err = eevdf__rt_rq_check(rq)) || (err = eevdf__dl_rq_check(rq)))
		return err;
	/* the fair server counts as a task only in 6.12-6.16 */
	dl_tasks = rq->dl.dl_nr_running;
	if (rq->fair_server.on_rq &&
	    rq->sp->profile->dl_server != DL_SERVER_6_12)
		dl_tasks--;
	if (rq->nr_running !=
	    rq->cfs.h_nr_queued +
		    (rq->rt.rt_queued ? rq->rt.rt_nr_running : 0) + dl_tasks)
		return "rq->nr_running is not the classes' runnable tasks";
	if (curr && curr->sched_class == &fair_sched_class) {
		const struct sched_entity *se = &curr->se;

		if (curr->state != TASK_RUNNING)
			return "rq->curr is a fair task that is not running";
		for_each_sched_entity(
			se) if (cfs_rq_of(se)->curr != se ||
				!se->on_rq) return "rq->curr's hierarchy is not every "
						   "level's queued cfs_rq->curr";
	}
	if (curr && curr->sched_class == &rt_sched_class &&
	    (!curr->rt.on_rq || curr->state != TASK_RUNNING))
		return "rq->curr is an RT task not on its list";
	if (curr && curr->sched_class == &dl_sched_class &&
	    (!curr->dl->on_rq || curr->state != TASK_RUNNING))
		return "rq->curr is a deadline task not on its tree";
	if ((!curr || curr->sched_class != &fair_sched_class) && rq->cfs.curr)
		return "a CPU not running a fair task has a cfs_rq->curr";
	if (rq->dl.dl_nr_running == 0 &&
	    rq->cpupri != convert_prio(rq->rt.highest_prio_curr))
		return "the CPU's cpupri level is not its RT priority";
	if (curr && !eevdf__event_queued(&rq->tick_ev))
		return "busy CPU has no tick";
	if (!curr && eevdf__event_queued(&rq->tick_ev))
		return "idle CPU has a tick";
	if (*rq->idle_slot != (!curr && !rq->nr_running && !rq->nr_wakelist))
		return "the idle map disagrees with the run queue";
	if (rq->sched->core_running) {
		const struct scheduler *sched = rq->sched;
		const struct sd_span *smt = sched->topo.cpu[rq->cpu].smt;
		unsigned int running = 0;

		for (u32 i = 0; i < smt->weight; i++)
			running += sched->rqs[smt->cpus[i]].curr != NULL;
		if (running !=
		    sched->core_running[sched->topo.cpu[rq->cpu].core])
			return "the core's running count disagrees with its "
			       "CPUs";
	}
	if (rq->idle_word &&
	    !!(*rq->idle_word & (u64)1 << (rq->cpu & 63)) != *rq->idle_slot)
		return "the idle bitmap disagrees with the idle map";
	if (curr && !task_allowed(curr, rq->cpu))
		return "a task runs on a CPU outside its affinity";
	{
		unsigned int n = 0;

		for (const struct task *p = rq->cfs_tasks; p;
		     p = p->tasks_next) {
			if (p->cpu != rq->cpu || !p->on_rq)
				return "rq->cfs_tasks holds a task of another "
				       "CPU or one not queued";
			if (!task_allowed(p, rq->cpu))
				return "a task is queued on a CPU outside its "
				       "affinity";
			n++;
		}
		if (n != fair_tasks)
			return "rq->cfs_tasks does not list every queued fair "
			       "task";
	}
	return NULL;
}
