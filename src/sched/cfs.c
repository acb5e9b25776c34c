/* SPDX-License-Identifier: MIT */
/*
 * The CFS fair class of Linux 6.1-6.5 (kernel profile "cfs-6.1"), after
 * shared/reference/kernel-model.md section 9 (kernel/sched/fair.c read at
 * af4cf40470c2, the last CFS release), for one cfs_rq per CPU.
 *
 * Every task has a virtual runtime v (service scaled by NICE_0_LOAD / w);
 * the queue runs the entity with the smallest v, for a wall-clock slice of
 * the latency period proportional to its weight, and a monotonic
 * min_vruntime is the reference new and waking tasks are placed against.
 *
 * Modelled (section 9):
 *  - 9.1 the tunables with the LOG scaling factor (sim.c): latency 6 ms,
 *    min_granularity 0.75 ms (= the profile's base slice), wakeup
 *    granularity 1 ms, all x (1 + ilog2(min(ncpus, 8))); the unscaled
 *    SCHED_IDLE minimum; sched_nr_latency 8;
 *  - 9.2 __sched_period, sched_slice with ALT_PERIOD and BASE_SLICE (one
 *    level: the root is the task's own queue), sched_vslice;
 *  - 9.3 update_curr and the monotonic min_vruntime;
 *  - 9.4 placement: START_DEBIT at fork (on the parent's queue, relative,
 *    then re-based on the destination), the GENTLE_FAIR_SLEEPERS credit at
 *    wakeup, the 6.3 long-sleeper rule, and the min_vruntime
 *    normalisation across non-sleep dequeues and migrations;
 *  - 9.5 check_preempt_tick with the 6.3 cap of the ideal slice;
 *  - 9.6 check_preempt_wakeup with wakeup_gran, NEXT_BUDDY and LAST_BUDDY;
 *  - 9.7 pick_next_entity with the skip, next and last buddies, yield
 *    through the skip buddy, set_next_entity / put_prev_entity;
 *  - HRTICK at the end of sched_slice, and prio_changed_fair on a nice
 *    change.
 *
 * Group scheduling and CFS bandwidth are fair.c's hierarchy walks and
 * bandwidth.c, which call the entity-level hooks here per level.
 *
 * Simplified:
 *  - no sysctl_sched_child_runs_first (it is 0 by default);
 *  - tasks the workload creates have no parent task: they are placed as
 *    if forked by a parent sitting at the destination's min_vruntime,
 *    i.e. at min_vruntime + one vslice (START_DEBIT), after min_vruntime
 *    has been brought up to date.  A spawned task whose parent is running
 *    is placed from the parent's vruntime on the parent's queue;
 *  - re-weighting follows 6.5: the weight changes while the task is off
 *    the queue, and its (relative) vruntime is not rescaled;
 *  - the tree, its augmentation and the avg_vruntime sums are fair.c's:
 *    the tree is ordered by se->deadline, and a CFS entity stores its
 *    vruntime there whenever it is inserted.  Only curr's vruntime
 *    changes while it is queued and curr is never in the tree, so the key
 *    stays exact; the sums are kept but decide nothing under CFS.
 *    min_vruntime is the queue's v0 (profile v0 = V0_MIN_VRUNTIME), which
 *    fair.c's update_min_vruntime() moves monotonically as 9.3 says,
 *    re-basing the sums as it goes.
 */
#include "bandwidth.h"
#include "cfs.h"
#include "group.h"
#include "sched_state.h"

static inline const struct sched_params *params(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->rq->sp;
}

static inline u64 max_vruntime(u64 a, u64 b)
{
	return vruntime_before(a, b) ? b : a;
}

static inline struct sched_entity *node_se(const struct eevdf_rb_node *n)
{
	return n ? container_of(n, struct sched_entity, run_node) : NULL;
}

static struct sched_entity *pick_first_entity(const struct cfs_rq *cfs_rq)
{
	return node_se(eevdf__rb_first(&cfs_rq->tasks_timeline));
}

/* The tree: vruntime order through the shared deadline-keyed tree. */
static void cfs_enqueue_tree(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	se->deadline = se->vruntime;
	__enqueue_entity(cfs_rq, se);
}

/* Tunables, period and slice (9.1, 9.2) ------------------------------- */

u64 __sched_period(const struct sched_params *sp, u64 nr)
{
	if (nr > sched_nr_latency)
		return nr * sp->sysctl_sched_base_slice;
	return sp->sysctl_sched_latency;
}

/*
 * The entity's share of the period: period x w / W at its level and at
 * every level above (a group's share of its parent's), W counting an
 * entity even before it is queued (a task being forked or woken asks
 * what it would get).  With ALT_PERIOD the period is sized by the CPU's
 * whole runnable count.  BASE_SLICE keeps a light task from being
 * handed slices shorter than the minimum granularity (SCHED_IDLE
 * entities: the unscaled idle minimum, unless their queue is all idle).
 */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	const struct sched_params *sp = params(cfs_rq);
	u64 nr = sched_feat(sp->features, ALT_PERIOD) ?
			 cfs_rq->rq->cfs.h_nr_queued :
			 cfs_rq->nr_queued,
	    slice;
	struct sched_entity *init_se = se;

	slice = __sched_period(sp, nr + !se->on_rq);
	for_each_sched_entity(se)
	{
		struct load_weight lw = cfs_rq_of(se)->load;

		if (!se->on_rq)
			update_load_add(&lw, se->load.weight);
		slice = eevdf__calc_delta(slice, se->load.weight, &lw);
	}
	if (sched_feat(sp->features, BASE_SLICE)) {
		bool idle_rq = cfs_rq->nr_queued &&
			       cfs_rq->nr_queued == cfs_rq->idle_nr_queued;
		u64 min_gran = se_is_idle(init_se) && !idle_rq ?
				       sp->sysctl_sched_idle_min_granularity :
				       sp->sysctl_sched_base_slice;

		slice = max_u64(slice, min_gran);
	}
	return slice;
}

u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return calc_delta_fair(sched_slice(cfs_rq, se), se);
}

/* update_curr (9.3) --------------------------------------------------- */

void cfs_update_curr(struct cfs_rq *cfs_rq)
{
	s64 delta = update_curr_se(cfs_rq);

	if (!delta)
		return;
	update_min_vruntime(cfs_rq);
	account_cfs_rq_runtime(cfs_rq, (u64)delta);
}

/* Buddies (9.6, 9.7): each set at every level up the hierarchy -------- */

static void set_last_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se)
	{
		if (!se->on_rq || se_is_idle(se))
			return;
		cfs_rq_of(se)->last = se;
	}
}

static void set_skip_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se) cfs_rq_of(se)->skip = se;
}

/* __clear_buddies_{last,next,skip}(): up while the level points at the
 * chain. */
static void clear_buddy(struct sched_entity *se, size_t off)
{
	for_each_sched_entity(se)
	{
		struct sched_entity **b =
			(struct sched_entity **)(void *)((char *)cfs_rq_of(se) +
							 off);

		if (*b != se)
			break;
		*b = NULL;
	}
}

static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->last == se)
		clear_buddy(se, offsetof(struct cfs_rq, last));
	if (cfs_rq->next == se)
		clear_buddy(se, offsetof(struct cfs_rq, next));
	if (cfs_rq->skip == se)
		clear_buddy(se, offsetof(struct cfs_rq, skip));
}

/*
 * The granularity is converted with the wakee's weight: a lighter wakee
 * must be further left of curr (in its own, faster-running virtual time)
 * before it may preempt.
 */
u64 wakeup_gran(struct sched_entity *se)
{
	return calc_delta_fair(
		se->cfs_rq->rq->sp->sysctl_sched_wakeup_granularity, se);
}

int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se)
{
	s64 vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	if (vdiff > (s64)wakeup_gran(se))
		return 1;
	return 0;
}

/* Placement (9.4) ----------------------------------------------------- */

/*
 * Sleeping longer than 2^63 / NICE_0 ns (~104 days) lets vruntime
 * comparisons wrap; 6.3 then trusts the placement outright instead of
 * keeping the old vruntime.  Simulations are far shorter, so this only
 * matters for a clock started near the wrap; modelled for completeness.
 * A migrated task has exec_start 0 and never counts.
 */
static bool entity_is_long_sleeper(const struct cfs_rq *cfs_rq,
				   const struct sched_entity *se)
{
	s64 sleep_time;

	if (se->exec_start == 0)
		return false;
	sleep_time = (s64)(cfs_rq->rq->clock - se->exec_start);
	return sleep_time >
	       (s64)(((u64)1 << 63) / scale_load_down(NICE_0_LOAD));
}

/*
 * A new task (initial) starts one vslice after min_vruntime so that
 * forking cannot be used to grab extra CPU (START_DEBIT); a waking task
 * is credited up to half a latency period (GENTLE_FAIR_SLEEPERS; a whole
 * one without it) so interactive tasks get in quickly, but never more:
 * an entity is never moved backwards from where it already is.
 */
void cfs_place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		      bool initial)
{
	const struct sched_params *sp = params(cfs_rq);
	u64 vruntime = cfs_rq->v0;

	if (initial && sched_feat(sp->features, START_DEBIT))
		vruntime += sched_vslice(cfs_rq, se);
	if (!initial) {
		u64 thresh = se_is_idle(se) ? sp->sysctl_sched_base_slice :
					      sp->sysctl_sched_latency;

		if (sched_feat(sp->features, GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		vruntime -= thresh;
	}
	if (entity_is_long_sleeper(cfs_rq, se))
		se->vruntime = vruntime;
	else
		se->vruntime = max_vruntime(se->vruntime, vruntime);
}

/*
 * task_fork_fair(): the child starts at its parent's vruntime on the
 * parent's queue, moved right to at least min_vruntime + vslice, and
 * leaves relative to that queue's min_vruntime; the enqueue on whatever
 * CPU the fork balancer chose adds that queue's min_vruntime back.
 */
void cfs_task_fork(struct rq *rq, struct task *p)
{
	struct scheduler *sched = rq->sched;
	struct sched_entity *se = &p->se, *parent_se = se->parent;
	struct cfs_rq *own = se->cfs_rq, *cfs_rq;
	struct task *parent = NULL;

	if (p->parent_pid > 0 && sched)
		parent = sched->tasks[p->parent_pid - 1];
	if (parent && parent->on_cpu && parent->se.on_rq) {
		struct rq *prq = &sched->rqs[parent->cpu];

		cfs_rq = parent->se.cfs_rq;
		prq->clock = (u64)sched->now;
		cfs_update_curr(cfs_rq);
		se->vruntime = parent->se.vruntime;
	} else {
		/* no parent task: one at the queue's up-to-date reference */
		cfs_rq = own;
		update_min_vruntime(cfs_rq);
		se->vruntime = cfs_rq->v0;
	}
	/* placed as a member of the parent's queue (START_DEBIT's slice) */
	se->cfs_rq = cfs_rq;
	se->parent = cfs_rq->tg == own->tg ?
			     tg_se(cfs_rq->tg, cfs_rq->rq->cpu) :
			     parent_se;
	cfs_place_entity(cfs_rq, se, true);
	se->vruntime -= cfs_rq->v0;
	se->vrel = true;
	se->cfs_rq = own;
	se->parent = parent_se;
}

/*
 * migrate_task_rq_fair() of a waking task: its vruntime was left absolute
 * by the sleep, so it leaves relative to its queue on this CPU.  A task
 * dequeued for a move is relative already.
 */
void cfs_migrate_task(struct rq *src, struct task *p)
{
	struct sched_entity *se = &p->se;

	(void)src;
	if (se->vrel)
		return;
	se->vruntime -= cfs_rq_of(se)->v0;
	se->vrel = true;
}

/* Enqueue and dequeue (9.4) ------------------------------------------ */

/*
 * A relative vruntime (new task, migration, attribute change) is re-based
 * on this queue: for curr before update_curr() moves min_vruntime, for
 * anyone else after, as the kernel does.  A wakeup then gets the sleeper
 * credit.
 */
void cfs_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			unsigned int flags)
{
	bool curr = cfs_rq->curr == se;

	if (se->vrel && curr) {
		se->vruntime += cfs_rq->v0;
		se->vrel = false;
	}
	cfs_update_curr(cfs_rq);
	if (se->vrel) {
		se->vruntime += cfs_rq->v0;
		se->vrel = false;
	}
	update_load_avg(cfs_rq, se, UPDATE_TG);
	se_update_runnable(se);
	update_cfs_group(se);
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued++;
	if (se_is_idle(se))
		cfs_rq->idle_nr_queued++;
	if (flags & ENQUEUE_WAKEUP)
		cfs_place_entity(cfs_rq, se, false);
	/* a migrated task is no longer cache hot here */
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		cfs_enqueue_tree(cfs_rq, se);
	se->on_rq = true;
	se->cfs_rq = cfs_rq;
	if (cfs_rq->nr_queued == 1)
		check_enqueue_throttle(cfs_rq);
}

/*
 * CFS has no delayed dequeue: the entity always leaves.  Anything but a
 * sleep keeps its vruntime relative to min_vruntime, so that wherever it
 * is enqueued next it keeps its distance to the pack.
 */
void cfs_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			unsigned int flags)
{
	cfs_update_curr(cfs_rq);
	update_load_avg(cfs_rq, se, UPDATE_TG);
	se_update_runnable(se);
	clear_buddies(cfs_rq, se);
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = false;
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued--;
	if (se_is_idle(se))
		cfs_rq->idle_nr_queued--;
	if (!(flags & DEQUEUE_SLEEP)) {
		se->vruntime -= cfs_rq->v0;
		se->vrel = true;
	}
	return_cfs_rq_runtime(cfs_rq);
	update_cfs_group(se);
	/* a save/restore pair must not move min_vruntime in between */
	if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(cfs_rq);
}

/* The pick (9.7) ------------------------------------------------------ */

/*
 * The leftmost entity (or curr when it is further left), unless a buddy
 * is preferred and not too unfair: the entity after a yielder, the
 * wakee that preempted (next), or the task it preempted (last), each only
 * while it is at most one wakeup granularity right of the leftmost.
 */
struct sched_entity *cfs_pick_next_entity(struct cfs_rq *cfs_rq,
					  struct sched_entity *curr)
{
	struct sched_entity *left = pick_first_entity(cfs_rq), *se;
	int rule = EEVDF_RULE_CFS_LEFTMOST;

	if (!left || (curr && vruntime_before(curr->vruntime, left->vruntime)))
		left = curr;
	if (!left)
		return NULL; /* nothing queued and nothing running */
	se = left;
	if (cfs_rq->skip && cfs_rq->skip == se) {
		struct sched_entity *second;

		if (se == curr) {
			second = pick_first_entity(cfs_rq);
		} else {
			second = node_se(eevdf__rb_next(&se->run_node));
			if (!second ||
			    (curr &&
			     vruntime_before(curr->vruntime, second->vruntime)))
				second = curr;
		}
		if (second && wakeup_preempt_entity(second, left) < 1) {
			se = second;
			rule = EEVDF_RULE_CFS_SKIP;
		}
	}
	if (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, left) < 1) {
		se = cfs_rq->next;
		rule = EEVDF_RULE_CFS_NEXT;
	} else if (cfs_rq->last &&
		   wakeup_preempt_entity(cfs_rq->last, left) < 1) {
		se = cfs_rq->last;
		rule = EEVDF_RULE_CFS_LAST;
	}
	return pick_rule(cfs_rq, se, rule);
}

/* The picked entity leaves the tree and starts a new slice. */
void cfs_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	clear_buddies(cfs_rq, se);
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
	}
	cfs_rq->curr = se;
	se->exec_start = cfs_rq->rq->clock;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* A curr over its group's quota is throttled as it is put back. */
void cfs_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq)
		cfs_update_curr(cfs_rq);
	check_cfs_rq_runtime(cfs_rq);
	if (prev->on_rq) {
		cfs_enqueue_tree(cfs_rq, prev);
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/* Tick preemption (9.5) ---------------------------------------------- */

/*
 * curr has had its slice (capped at one latency period since 6.3), or,
 * after at least the minimum granularity, has run more than a slice ahead
 * of the leftmost entity.  The second test compares virtual with
 * wall-clock nanoseconds, as the kernel does.
 */
static void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	const struct sched_params *sp = params(cfs_rq);
	u64 ideal_runtime, delta_exec;
	struct sched_entity *se;
	s64 delta;

	ideal_runtime = min_u64(sched_slice(cfs_rq, curr),
				sp->sysctl_sched_latency);
	delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
	if (delta_exec > ideal_runtime) {
		trace_entity(cfs_rq->rq, EEVDF_RULE_CFS_SLICE_USED, curr);
		resched_curr(cfs_rq->rq);
		clear_buddies(cfs_rq, curr);
		return;
	}
	if (delta_exec < sp->sysctl_sched_base_slice)
		return;
	se = pick_first_entity(cfs_rq);
	if (!se)
		return;
	delta = (s64)(curr->vruntime - se->vruntime);
	if (delta < 0)
		return;
	if ((u64)delta > ideal_runtime) {
		trace_entity(cfs_rq->rq, EEVDF_RULE_CFS_AHEAD, curr);
		resched_curr(cfs_rq->rq);
	}
}

/* entity_tick() of one level of the running task's hierarchy. */
void cfs_entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr,
		     bool queued)
{
	cfs_update_curr(cfs_rq);
	update_load_avg(cfs_rq, curr, UPDATE_TG);
	update_cfs_group(curr);
	/* an hrtick expiry is the end of the slice */
	if (queued) {
		trace_entity(cfs_rq->rq, EEVDF_RULE_HRTICK, curr);
		resched_curr(cfs_rq->rq);
		return;
	}
	if (cfs_rq->nr_queued > 1)
		check_preempt_tick(cfs_rq, curr);
}

/*
 * HRTICK: fire when curr's sched_slice is used up instead of at the next
 * tick; the kernel never arms it for less than 10 us.
 */
void cfs_hrtick_start(struct rq *rq, struct task *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	s64 delta;

	if (rq->cfs.h_nr_queued <= 1 || rq->curr != p) {
		eevdf__rq_hrtick_arm(rq, -1);
		return;
	}
	delta = (s64)sched_slice(cfs_rq, se) -
		(s64)(se->sum_exec_runtime - se->prev_sum_exec_runtime);
	if (delta < 0) {
		resched_curr(rq);
		return;
	}
	eevdf__rq_hrtick_arm(rq, max_s64(delta, 10000));
}

/* Wakeup preemption (9.6) -------------------------------------------- */

/*
 * The wakee preempts when it is more than a (wakee-weighted) wakeup
 * granularity left of curr; it then becomes the next buddy, and with a
 * crowded queue (>= sched_nr_latency) the preempted task becomes the
 * last buddy so that it gets the CPU back soon after.
 */
void cfs_check_preempt_wakeup(struct rq *rq, struct task *p,
			      unsigned int wake_flags)
{
	struct task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	bool scale = cfs_rq_of(se)->nr_queued >= sched_nr_latency;
	bool next_buddy_marked = false;
	bool cse_is_idle, pse_is_idle;
	int why = EEVDF_RULE_WAKEUP_CFS;

	if (se == pse)
		return;
	if (sched_feat_rq(rq, NEXT_BUDDY) && scale && !(wake_flags & WF_FORK)) {
		set_next_buddy(pse);
		next_buddy_marked = true;
	}
	if (rq->need_resched) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_PENDING, p);
		return;
	}
	/* SCHED_IDLE tasks are preempted by anything else */
	if (curr->policy == EEVDF_POLICY_IDLE &&
	    p->policy != EEVDF_POLICY_IDLE) {
		why = EEVDF_RULE_WAKEUP_IDLE_POLICY;
		goto preempt;
	}
	/* batch and idle wakees never preempt: the tick does */
	if (p->policy != EEVDF_POLICY_NORMAL ||
	    !sched_feat_rq(rq, WAKEUP_PREEMPTION)) {
		trace_wakeup(rq,
			     p->policy != EEVDF_POLICY_NORMAL ?
				     EEVDF_RULE_NO_PREEMPT_POLICY :
				     EEVDF_RULE_NO_PREEMPT_OFF,
			     p);
		return;
	}
	/* the two compete where their hierarchies meet; an idle group's
	 * entity gives way to a non-idle one as an idle task does */
	find_matching_se(&se, &pse);
	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);
	if (cse_is_idle && !pse_is_idle) {
		why = EEVDF_RULE_WAKEUP_IDLE_POLICY;
		goto preempt;
	}
	if (cse_is_idle != pse_is_idle) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_IDLE, p);
		return;
	}
	cfs_update_curr(cfs_rq_of(se));
	if (wakeup_preempt_entity(se, pse) == 1) {
		if (!next_buddy_marked)
			set_next_buddy(pse);
		goto preempt;
	}
	trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_CFS, p);
	return;
preempt:
	trace_wakeup(rq, why, p);
	resched_curr(rq);
	if (!se->on_rq)
		return;
	if (sched_feat_rq(rq, LAST_BUDDY) && scale && entity_is_task(se))
		set_last_buddy(se);
}

/* Yield and attribute changes ---------------------------------------- */

/* sched_yield(): the yielder becomes the skip buddy for the next pick. */
void cfs_yield_task(struct rq *rq)
{
	struct task *curr = rq->curr;
	struct sched_entity *se = &curr->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (rq->nr_running == 1)
		return;
	clear_buddies(cfs_rq, se);
	if (curr->policy != EEVDF_POLICY_BATCH)
		cfs_update_curr(cfs_rq);
	trace_decision(rq, EEVDF_RULE_YIELD, curr);
	set_skip_buddy(se);
}

/*
 * set_user_nice() / sched_setattr() in 6.5: off the queue with
 * DEQUEUE_SAVE (vruntime relative, not rescaled), new weight and policy,
 * back with ENQUEUE_RESTORE, then prio_changed_fair(): a running task
 * that became lighter reschedules, a queued one is checked like a wakee.
 * sched_runtime has no meaning before 6.12.
 */
void cfs_sched_change(struct rq *rq, struct task *p, int nice, int policy)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	bool queued = se->on_rq, running = rq->curr == p;
	u64 old_weight = se->load.weight;

	if (nice < -20)
		nice = p->nice;
	if (queued)
		cfs_dequeue_entity(cfs_rq, se, DEQUEUE_SAVE);
	if (running)
		cfs_put_prev_entity(cfs_rq, se);
	if (policy >= 0)
		p->policy = (enum eevdf_policy)policy;
	eevdf__set_load_weight(&se->load, nice, p->policy == EEVDF_POLICY_IDLE);
	p->nice = nice;
	if (queued)
		cfs_enqueue_entity(cfs_rq, se, ENQUEUE_RESTORE);
	if (running)
		cfs_set_next_entity(cfs_rq, se);
	update_task_groups(p);
	if (!queued || rq->cfs.nr_queued == 1)
		return;
	if (running) {
		if (se->load.weight < old_weight)
			resched_curr(rq);
	} else if (rq->curr) {
		cfs_check_preempt_wakeup(rq, p, 0);
	} else {
		resched_curr(rq);
	}
}
