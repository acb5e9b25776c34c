/* SPDX-License-Identifier: MIT */
/*
 * CFS bandwidth control (see bandwidth.h), from kernel/sched/fair.c of
 * v6.17 (torvalds/linux @ 0b9ca2dcabc3): __refill_cfs_bandwidth_runtime(),
 * __assign_cfs_rq_runtime(), __account_cfs_rq_runtime(),
 * throttle_cfs_rq(), unthrottle_cfs_rq(), distribute_cfs_runtime(),
 * do_sched_cfs_period_timer(), __return_cfs_rq_runtime(),
 * do_sched_cfs_slack_timer(), check_enqueue_throttle(),
 * check_cfs_rq_runtime(), sync_throttle(); and tg_set_cfs_bandwidth()
 * of kernel/sched/core.c.
 *
 * The two timers of a group are background events (they wake no task)
 * while none of its cfs_rqs is throttled; once one is, the period timer
 * is what will run it again, so both count as real events then.
 */
#include <stddef.h>
#include <string.h>

#include "bandwidth.h"
#include "core.h"
#include "deadline.h"
#include "fair.h"

/* a cfs_rq keeps at least 1 ms of its runtime (min_cfs_rq_runtime) */
#define MIN_CFS_RQ_RUNTIME 1000000ll
/* no slack is handed out within 2 ms of a refill (min_bandwidth_expiration) */
#define MIN_BANDWIDTH_EXPIRATION 2000000ull
/* the slack timer's delay (cfs_bandwidth_slack_period) */
#define CFS_BANDWIDTH_SLACK_PERIOD 5000000ull
/* max_cfs_runtime: MAX_BW us, MAX_BW = 2^(64 - BW_SHIFT) - 1 */
#define MAX_CFS_RUNTIME (((1ull << 44) - 1) * 1000ull)

static struct task_group *tg_of(struct cfs_bandwidth *cfs_b)
{
	return container_of(cfs_b, struct task_group, cfs_bandwidth);
}

static struct scheduler *sched_of(struct cfs_bandwidth *cfs_b)
{
	return tg_of(cfs_b)->rqs[0].sched;
}

void eevdf__cfs_bandwidth_init(struct cfs_bandwidth *cfs_b)
{
	memset(cfs_b, 0, sizeof(*cfs_b));
	cfs_b->quota = CFS_QUOTA_INF;
	cfs_b->period = CFS_PERIOD_DEFAULT;
	eevdf__event_init(&cfs_b->period_timer, REV_CFS_PERIOD, EVC_TICK);
	eevdf__event_init(&cfs_b->slack_timer, REV_CFS_SLACK, EVC_TICK);
}

/* Timers ---------------------------------------------------------------- */

/* Count each queued timer as background exactly while nothing is
 * throttled. */
static void sync_bg(struct scheduler *sched, struct cfs_bandwidth *cfs_b)
{
	bool bg = !cfs_b->throttled_head;
	struct {
		struct eevdf_event *ev;
		bool *flag;
	} t[2] = { { &cfs_b->period_timer, &cfs_b->period_bg },
		   { &cfs_b->slack_timer, &cfs_b->slack_bg } };

	for (int i = 0; i < 2; i++) {
		bool want = bg && eevdf__event_queued(t[i].ev);

		if (want == *t[i].flag)
			continue;
		if (want)
			sched->nr_bg_events++;
		else
			sched->nr_bg_events--;
		*t[i].flag = want;
	}
}

/* A timer is being dispatched: it is no longer queued. */
static void timer_fired(struct scheduler *sched, bool *flag)
{
	if (*flag) {
		sched->nr_bg_events--;
		*flag = false;
	}
}

/*
 * start_cfs_bandwidth(): the period timer keeps its phase across stops,
 * so it fires at the next multiple of the period after now (the kernel
 * starts the phase at a random offset; here it is 0).
 */
static void start_cfs_bandwidth(struct cfs_bandwidth *cfs_b)
{
	struct scheduler *sched = sched_of(cfs_b);
	u64 now = (u64)sched->now;

	if (cfs_b->period_active)
		return;
	cfs_b->period_active = true;
	eevdf__queue_event(
		sched, &cfs_b->period_timer,
		(eevdf_time)((now / cfs_b->period + 1) * cfs_b->period));
	sync_bg(sched, cfs_b);
}

/* The pool and the per-CPU runtime --------------------------------------- */

/* __refill_cfs_bandwidth_runtime() with no burst: a full quota. */
static void refill_runtime(struct cfs_bandwidth *cfs_b)
{
	if (cfs_b->quota == CFS_QUOTA_INF)
		return;
	cfs_b->runtime += (s64)cfs_b->quota;
	if (cfs_b->runtime > (s64)cfs_b->quota)
		cfs_b->runtime = (s64)cfs_b->quota;
}

/*
 * __assign_cfs_rq_runtime(): take what brings the cfs_rq up to target
 * from the pool (all of it when there is no quota); true if it now has
 * runtime left.
 */
static bool assign_runtime(struct cfs_bandwidth *cfs_b, struct cfs_rq *cfs_rq,
			   u64 target)
{
	u64 min_amount = (u64)((s64)target - cfs_rq->runtime_remaining);
	u64 amount = 0;

	if (cfs_b->quota == CFS_QUOTA_INF) {
		amount = min_amount;
	} else {
		start_cfs_bandwidth(cfs_b);
		if (cfs_b->runtime > 0) {
			amount = min_u64((u64)cfs_b->runtime, min_amount);
			cfs_b->runtime -= (s64)amount;
			cfs_b->idle = false;
		}
	}
	cfs_rq->runtime_remaining += (s64)amount;
	return cfs_rq->runtime_remaining > 0;
}

void __account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec)
{
	/* dock the time first: it may span periods */
	cfs_rq->runtime_remaining -= (s64)delta_exec;
	if (cfs_rq->runtime_remaining > 0 || cfs_rq->throttled)
		return;
	/* out of runtime: resched so that the put throttles the group */
	if (!assign_runtime(&cfs_rq->tg->cfs_bandwidth, cfs_rq,
			    CFS_BANDWIDTH_SLICE) &&
	    cfs_rq->curr)
		resched_curr(cfs_rq->rq);
}

/* Throttling --------------------------------------------------------------- */

static void throttled_list_add(struct cfs_bandwidth *cfs_b,
			       struct cfs_rq *cfs_rq)
{
	cfs_rq->throttled_next = NULL;
	if (cfs_b->throttled_tail)
		cfs_b->throttled_tail->throttled_next = cfs_rq;
	else
		cfs_b->throttled_head = cfs_rq;
	cfs_b->throttled_tail = cfs_rq;
	cfs_rq->on_throttled_list = true;
}

static void throttled_list_del(struct cfs_bandwidth *cfs_b,
			       struct cfs_rq *cfs_rq)
{
	struct cfs_rq **pp = &cfs_b->throttled_head, *prev = NULL;

	if (!cfs_rq->on_throttled_list)
		return;
	while (*pp != cfs_rq) {
		prev = *pp;
		pp = &(*pp)->throttled_next;
	}
	*pp = cfs_rq->throttled_next;
	if (cfs_b->throttled_tail == cfs_rq)
		cfs_b->throttled_tail = prev;
	cfs_rq->throttled_next = NULL;
	cfs_rq->on_throttled_list = false;
}

/*
 * tg_throttle_down() / tg_unthrottle_up() over the group and every group
 * below it on this CPU: the count of throttled levels at and above, and
 * the time each spent throttled (throttled_clock_self).
 */
static void throttle_down(struct task_group *tg, int cpu, u64 now)
{
	struct cfs_rq *cfs_rq = tg_cfs_rq(tg, cpu);

	if (!cfs_rq->throttle_count && cfs_rq->nr_queued)
		cfs_rq->throttled_clock_self = now;
	cfs_rq->throttle_count++;
	for (struct task_group *c = tg->first_child; c; c = c->next_sibling)
		throttle_down(c, cpu, now);
}

static void unthrottle_up(struct task_group *tg, int cpu, u64 now)
{
	struct cfs_rq *cfs_rq = tg_cfs_rq(tg, cpu);

	for (struct task_group *c = tg->first_child; c; c = c->next_sibling)
		unthrottle_up(c, cpu, now);
	if (--cfs_rq->throttle_count)
		return;
	if (cfs_rq->throttled_clock_self) {
		cfs_rq->throttled_clock_self_time +=
			now - cfs_rq->throttled_clock_self;
		cfs_rq->throttled_clock_self = 0;
	}
}

/*
 * throttle_cfs_rq(): unless a last 1 ns of runtime can still be had, the
 * group's entity leaves the parent queue (a sleep that is never delayed:
 * DEQUEUE_SPECIAL), and so does each parent left empty; the queued
 * counts up to the root drop by the group's, and so does nr_running.
 */
static bool throttle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = cfs_rq->rq;
	struct scheduler *sched = rq->sched;
	struct cfs_bandwidth *cfs_b = &cfs_rq->tg->cfs_bandwidth;
	struct sched_entity *se = tg_se(cfs_rq->tg, rq->cpu);
	unsigned int queued_delta, runnable_delta, idle_delta;
	unsigned int rq_h_nr_queued = rq->cfs.h_nr_queued;

	if (assign_runtime(cfs_b, cfs_rq, 1))
		return false;
	throttled_list_add(cfs_b, cfs_rq);
	sync_bg(sched, cfs_b);
	throttle_down(cfs_rq->tg, rq->cpu, rq->clock);

	queued_delta = cfs_rq->h_nr_queued;
	runnable_delta = cfs_rq->h_nr_runnable;
	idle_delta = cfs_rq->h_nr_idle;
	for_each_sched_entity(se)
	{
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);
		unsigned int flags = DEQUEUE_SLEEP | DEQUEUE_SPECIAL;

		if (!se->on_rq)
			goto done;
		if (se->sched_delayed)
			flags |= DEQUEUE_DELAYED;
		fair_dequeue_entity(qcfs_rq, se, flags);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle_delta = cfs_rq->h_nr_queued;
		qcfs_rq->h_nr_queued -= queued_delta;
		qcfs_rq->h_nr_runnable -= runnable_delta;
		qcfs_rq->h_nr_idle -= idle_delta;
		if (qcfs_rq->load.weight) {
			se = parent_entity(se);
			break;
		}
	}
	for_each_sched_entity(se)
	{
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		if (!se->on_rq)
			goto done;
		update_load_avg(qcfs_rq, se, 0);
		se_update_runnable(se);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle_delta = cfs_rq->h_nr_queued;
		qcfs_rq->h_nr_queued -= queued_delta;
		qcfs_rq->h_nr_runnable -= runnable_delta;
		qcfs_rq->h_nr_idle -= idle_delta;
	}
	sub_nr_running(rq, queued_delta);
	/* 6.12-6.16 stop the fair server when the CPU's last fair task
	 * goes (cea5a3472ac4) */
	if (rq->sp->profile->dl_server == DL_SERVER_6_12 && rq_h_nr_queued &&
	    !rq->cfs.h_nr_queued)
		dl_server_stop(&rq->fair_server, NULL);
done:
	cfs_rq->throttled = true;
	if (cfs_rq->nr_queued)
		cfs_rq->throttled_clock = rq->clock;
	return true;
}

/*
 * unthrottle_cfs_rq(): the group's entity comes back, and every parent
 * it had emptied; delayed entities met on the way finish their dequeue
 * first.  An idle CPU that got work reschedules.
 */
static void unthrottle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = cfs_rq->rq;
	struct scheduler *sched = rq->sched;
	struct cfs_bandwidth *cfs_b = &cfs_rq->tg->cfs_bandwidth;
	struct sched_entity *se = tg_se(cfs_rq->tg, rq->cpu);
	unsigned int queued_delta, runnable_delta, idle_delta;
	unsigned int rq_h_nr_queued = rq->cfs.h_nr_queued;

	rq->clock = (u64)sched->now;
	cfs_rq->throttled = false;
	if (cfs_rq->throttled_clock) {
		cfs_b->throttled_time += rq->clock - cfs_rq->throttled_clock;
		cfs_rq->throttled_clock = 0;
	}
	throttled_list_del(cfs_b, cfs_rq);
	sync_bg(sched, cfs_b);
	unthrottle_up(cfs_rq->tg, rq->cpu, rq->clock);
	if (!cfs_rq->load.weight)
		return;

	queued_delta = cfs_rq->h_nr_queued;
	runnable_delta = cfs_rq->h_nr_runnable;
	idle_delta = cfs_rq->h_nr_idle;
	for_each_sched_entity(se)
	{
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		if (se->sched_delayed)
			fair_dequeue_entity(qcfs_rq, se,
					    DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		else if (se->on_rq)
			break;
		fair_enqueue_entity(qcfs_rq, se, ENQUEUE_WAKEUP);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle_delta = cfs_rq->h_nr_queued;
		qcfs_rq->h_nr_queued += queued_delta;
		qcfs_rq->h_nr_runnable += runnable_delta;
		qcfs_rq->h_nr_idle += idle_delta;
		if (cfs_rq_throttled(qcfs_rq))
			goto out;
	}
	for_each_sched_entity(se)
	{
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		update_load_avg(qcfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle_delta = cfs_rq->h_nr_queued;
		qcfs_rq->h_nr_queued += queued_delta;
		qcfs_rq->h_nr_runnable += runnable_delta;
		qcfs_rq->h_nr_idle += idle_delta;
		if (cfs_rq_throttled(qcfs_rq))
			goto out;
	}
	if (!rq_h_nr_queued && rq->cfs.h_nr_queued && rq->fair_server.dl_server)
		dl_server_start(&rq->fair_server, NULL);
	add_nr_running(rq, queued_delta);
out:
	if (!rq->curr && rq->cfs.nr_queued)
		resched_curr(rq);
	eevdf__mark_settle(sched, rq);
}

bool check_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	if (!cfs_rq->runtime_enabled || cfs_rq->runtime_remaining > 0)
		return false;
	/* a throttled entity forced into running (set_curr_task) */
	if (cfs_rq_throttled(cfs_rq))
		return true;
	return throttle_cfs_rq(cfs_rq);
}

void check_enqueue_throttle(struct cfs_rq *cfs_rq)
{
	/* a running group is the update_curr() -> put path's to handle */
	if (!cfs_rq->runtime_enabled || cfs_rq->curr ||
	    cfs_rq_throttled(cfs_rq))
		return;
	account_cfs_rq_runtime(cfs_rq, 0);
	if (cfs_rq->runtime_remaining <= 0)
		throttle_cfs_rq(cfs_rq);
}

void sync_throttle(struct task_group *tg, int cpu)
{
	if (!tg->parent)
		return;
	tg_cfs_rq(tg, cpu)->throttle_count =
		tg_cfs_rq(tg->parent, cpu)->throttle_count;
}

/* Slack: runtime an emptied cfs_rq gives back ------------------------------ */

/* runtime_refresh_within(): the period timer fires within min_expire. */
static bool refresh_within(struct scheduler *sched,
			   const struct cfs_bandwidth *cfs_b, u64 min_expire)
{
	return eevdf__event_queued(&cfs_b->period_timer) &&
	       (u64)(cfs_b->period_timer.time - sched->now) < min_expire;
}

void return_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	struct cfs_bandwidth *cfs_b = &cfs_rq->tg->cfs_bandwidth;
	struct scheduler *sched = cfs_rq->rq->sched;
	s64 slack = cfs_rq->runtime_remaining - MIN_CFS_RQ_RUNTIME;

	if (!cfs_rq->runtime_enabled || cfs_rq->nr_queued || slack <= 0)
		return;
	if (cfs_b->quota != CFS_QUOTA_INF) {
		cfs_b->runtime += slack;
		/* under the rq lock: a timer hands it out (start_cfs_slack_
		 * bandwidth()), unless a refill comes first anyway */
		if (cfs_b->runtime > (s64)CFS_BANDWIDTH_SLICE &&
		    cfs_b->throttled_head &&
		    !refresh_within(sched, cfs_b,
				    CFS_BANDWIDTH_SLACK_PERIOD +
					    MIN_BANDWIDTH_EXPIRATION) &&
		    !cfs_b->slack_started) {
			cfs_b->slack_started = true;
			eevdf__queue_event(sched, &cfs_b->slack_timer,
					   sched->now +
						   CFS_BANDWIDTH_SLACK_PERIOD);
			sync_bg(sched, cfs_b);
		}
	}
	cfs_rq->runtime_remaining -= slack;
}

/*
 * distribute_cfs_runtime(): the throttled cfs_rqs, oldest first, get what
 * clears their debt plus 1 ns while the pool lasts, and are unthrottled.
 * Returns true if some stay throttled.
 */
static bool distribute_cfs_runtime(struct cfs_bandwidth *cfs_b)
{
	struct cfs_rq *cfs_rq = cfs_b->throttled_head, *next;
	bool throttled = false;
	s64 remaining = 1;

	for (; cfs_rq; cfs_rq = next) {
		s64 runtime;

		next = cfs_rq->throttled_next;
		if (!remaining) {
			throttled = true;
			break;
		}
		runtime = -cfs_rq->runtime_remaining + 1;
		if (runtime > cfs_b->runtime)
			runtime = cfs_b->runtime;
		cfs_b->runtime -= runtime;
		remaining = cfs_b->runtime;
		cfs_rq->runtime_remaining += runtime;
		if (cfs_rq->runtime_remaining > 0)
			unthrottle_cfs_rq(cfs_rq);
		else
			throttled = true;
	}
	return throttled;
}

/*
 * sched_cfs_period_timer() with do_sched_cfs_period_timer(): refill the
 * pool, count the period (and, if anything was throttled, a throttled
 * period), hand the runtime out; a group that stayed idle for a whole
 * period stops its timer.
 */
void eevdf__cfs_period_timer(struct scheduler *sched,
			     struct cfs_bandwidth *cfs_b)
{
	bool throttled, idle = false;

	timer_fired(sched, &cfs_b->period_bg);
	if (cfs_b->quota == CFS_QUOTA_INF) {
		idle = true;
	} else {
		throttled = cfs_b->throttled_head != NULL;
		cfs_b->nr_periods++;
		refill_runtime(cfs_b);
		if (cfs_b->idle && !throttled) {
			idle = true;
		} else if (!throttled) {
			cfs_b->idle = true;
		} else {
			cfs_b->nr_throttled++;
			while (throttled && cfs_b->runtime > 0)
				throttled = distribute_cfs_runtime(cfs_b);
			cfs_b->idle = false;
		}
	}
	if (idle) {
		cfs_b->period_active = false;
	} else {
		eevdf__queue_event(sched, &cfs_b->period_timer,
				   sched->now + (eevdf_time)cfs_b->period);
	}
	sync_bg(sched, cfs_b);
}

/* do_sched_cfs_slack_timer(): hand out returned runtime, unless a
 * refill is due anyway. */
void eevdf__cfs_slack_timer(struct scheduler *sched,
			    struct cfs_bandwidth *cfs_b)
{
	timer_fired(sched, &cfs_b->slack_bg);
	cfs_b->slack_started = false;
	if (!refresh_within(sched, cfs_b, MIN_BANDWIDTH_EXPIRATION) &&
	    cfs_b->quota != CFS_QUOTA_INF &&
	    cfs_b->runtime > (s64)CFS_BANDWIDTH_SLICE)
		distribute_cfs_runtime(cfs_b);
	sync_bg(sched, cfs_b);
}

/* cpu.max ------------------------------------------------------------------- */

int eevdf__tg_set_cfs_bandwidth(struct scheduler *sched, struct task_group *tg,
				u64 quota, u64 period)
{
	struct cfs_bandwidth *cfs_b = &tg->cfs_bandwidth;
	bool enabled = quota != CFS_QUOTA_INF;

	if (!tg->parent || period < CFS_QUOTA_PERIOD_MIN ||
	    period > CFS_QUOTA_PERIOD_MAX ||
	    (enabled &&
	     (quota < CFS_QUOTA_PERIOD_MIN || quota > MAX_CFS_RUNTIME)))
		return EEVDF_EINVAL;
	cfs_b->period = period;
	cfs_b->quota = quota;
	refill_runtime(cfs_b);
	/* a running timer keeps its phase, now with the new period */
	if (enabled)
		start_cfs_bandwidth(cfs_b);
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct cfs_rq *cfs_rq = tg_cfs_rq(tg, cpu);

		cfs_rq->rq->clock = (u64)sched->now;
		cfs_rq->runtime_enabled = enabled;
		cfs_rq->runtime_remaining = 0;
		if (cfs_rq->throttled)
			unthrottle_cfs_rq(cfs_rq);
	}
	return 0;
}
