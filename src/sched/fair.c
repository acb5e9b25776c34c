/* SPDX-License-Identifier: MIT */
/*
 * The EEVDF fair class, after kernel/sched/fair.c of Linux 6.17 / 6.18.y
 * (torvalds/linux @ 0b9ca2dcabc3 plus the 6.18.y backports listed in
 * shared/reference/kernel-6.18y.md), for one cfs_rq per CPU.
 *
 * The model in the kernel's notation: each entity i has weight w_i, virtual
 * runtime v_i (service / w_i) and a virtual deadline d_i = v_i + r_i / w_i
 * for its request (slice) r_i.  The zero-lag point is the weighted mean
 *
 *	V = \Sum w_i v_i / \Sum w_i
 *
 * over every entity on the queue (curr included while it is on the
 * queue, delayed entities included), and lag_i = w_i (V - v_i) sums to
 * zero.  An entity is eligible when lag_i >= 0, i.e. v_i <= V.  The pick
 * is the eligible entity with the earliest deadline.
 *
 * Invariants (checked by eevdf__cfs_rq_check()):
 *  - every queued entity except curr is in tasks_timeline, ordered by
 *    deadline, equal deadlines in insertion order;
 *  - each tree node's min_vruntime, min_slice and max_slice cover exactly
 *    its subtree;
 *  - sum_w_vruntime == \Sum (v_i - v0) * w_i and sum_weight == \Sum w_i over
 *    the tree (curr is added in explicitly by avg_vruntime());
 *  - 0 <= \Sum (v_i - v0) w_i - (V - v0) \Sum w_i < \Sum w_i over all queued
 *    entities: V is the floor of the mean, so lags sum to (-L, 0];
 *  - load.weight and nr_queued count queued entities, h_nr_runnable the
 *    ones that are not delayed.
 *
 * The cfs-6.1 profile runs the CFS policy of 6.1-6.5 instead (cfs.c):
 * each class entry point core.c calls (enqueue/dequeue_task_fair,
 * pick_next_task_fair, check_preempt_wakeup_fair, task_tick_fair,
 * yield_task_fair, sched_change_fair and so reweight_task_fair,
 * hrtick_start_fair, and init_entity's fork placement) hands the call to
 * its cfs_* counterpart when profile->policy is POLICY_CFS.  Both share
 * the tree, the sums, min_vruntime, PELT and the task-level upkeep
 * (enqueue/dequeue_task_upkeep), and the checker below.
 */
#include "bandwidth.h"
#include "cfs.h"
#include "deadline.h"
#include "fair.h"
#include "group.h"
#include "sched_state.h"
#include "smp.h"

/* The profile runs the CFS policy of 6.1-6.5: fair.c's entry points hand
 * the call to cfs.c. */
static inline bool cfs_policy(const struct rq *rq)
{
	return rq->sp->profile->policy == POLICY_CFS;
}

/* Virtual-time helpers ------------------------------------------------ */

static inline u64 min_vruntime(u64 a, u64 b)
{
	return vruntime_before(a, b) ? a : b;
}

static inline u64 max_vruntime(u64 a, u64 b)
{
	return vruntime_before(a, b) ? b : a;
}

/*
 * Products of a key and a weight, with the kernel's two's-complement
 * wrap-around (the kernel builds with -fno-strict-overflow) and without
 * undefined behaviour in C.
 */
static inline s64 mul_wrap(s64 a, s64 b)
{
	return (s64)((u64)a * (u64)b);
}

static inline const struct sched_params *params(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->rq->sp;
}

static inline u64 feats(const struct cfs_rq *cfs_rq)
{
	return params(cfs_rq)->features;
}

static inline s64 entity_key(const struct cfs_rq *cfs_rq,
			     const struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->v0);
}

static inline struct sched_entity *node_se(const struct eevdf_rb_node *n)
{
	return n ? container_of(n, struct sched_entity, run_node) : NULL;
}

static inline bool entity_before(const struct sched_entity *a,
				 const struct sched_entity *b)
{
	return vruntime_before(a->deadline, b->deadline);
}

void resched_curr(struct rq *rq)
{
	rq->need_resched = true;
}

/* The tree ------------------------------------------------------------- */

static bool less_deadline(const struct eevdf_rb_node *a,
			  const struct eevdf_rb_node *b)
{
	return entity_before(node_se(a), node_se(b));
}

/*
 * min_vruntime_update(): a node's aggregates are the min vruntime, min slice
 * and max slice over its subtree.  The min vruntime lets the pick skip whole
 * subtrees that hold no eligible entity; the slices give the protection
 * window and the 6.18.17+ lag clamp without a walk.
 */
static bool se_augment(struct eevdf_rb_node *node)
{
	struct sched_entity *se = node_se(node);
	struct sched_entity *l = node_se(node->left), *r = node_se(node->right);
	u64 mv = se->vruntime;
	u32 mins = (u32)se->slice, maxs = mins;
	bool changed;

	EEVDF_ASSERT(se->slice <= UINT32_MAX); /* see struct sched_entity */
	if (l) {
		mv = min_vruntime(mv, l->min_vruntime);
		mins = l->min_slice < mins ? l->min_slice : mins;
		maxs = l->max_slice > maxs ? l->max_slice : maxs;
	}
	if (r) {
		mv = min_vruntime(mv, r->min_vruntime);
		mins = r->min_slice < mins ? r->min_slice : mins;
		maxs = r->max_slice > maxs ? r->max_slice : maxs;
	}
	/* min_vruntime_update()'s "return se->min_vruntime == old" */
	changed = mv != se->min_vruntime || mins != se->min_slice ||
		  maxs != se->max_slice;
	se->min_vruntime = mv;
	se->min_slice = mins;
	se->max_slice = maxs;
	return changed;
}

static void se_augment_copy(struct eevdf_rb_node *to,
			    const struct eevdf_rb_node *from)
{
	struct sched_entity *t = node_se(to);
	const struct sched_entity *f = node_se(from);

	t->min_vruntime = f->min_vruntime;
	t->min_slice = f->min_slice;
	t->max_slice = f->max_slice;
}

void init_cfs_rq(struct cfs_rq *cfs_rq, struct rq *rq)
{
	cfs_rq->load.weight = 0;
	cfs_rq->load.inv_weight = 0;
	cfs_rq->nr_queued = 0;
	cfs_rq->h_nr_runnable = 0;
	cfs_rq->sum_w_vruntime = 0;
	cfs_rq->sum_weight = 0;
	cfs_rq->sum_w_slice = 0;
	cfs_rq->curr = NULL;
	cfs_rq->next = NULL;
	cfs_rq->last = NULL;
	cfs_rq->skip = NULL;
	cfs_rq->rq = rq;
	eevdf__rb_init(&cfs_rq->tasks_timeline, se_augment, se_augment_copy);
	/*
	 * min_vruntime starts just below the u64 wrap so that wrap bugs show
	 * early, as in the kernel; zero_vruntime starts at zero.
	 */
	if (rq->sp->profile->v0 == V0_MIN_VRUNTIME)
		cfs_rq->v0 = (u64)(-(s64)(1LL << 20));
	else
		cfs_rq->v0 = 0;
}

/* V -------------------------------------------------------------------- */

static void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 weight = scale_load_down(se->load.weight);

	cfs_rq->sum_w_vruntime += mul_wrap(entity_key(cfs_rq, se), (s64)weight);
	cfs_rq->sum_weight += weight;
	cfs_rq->sum_w_slice += weight * se->slice;
}

static void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 weight = scale_load_down(se->load.weight);

	cfs_rq->sum_w_vruntime -= mul_wrap(entity_key(cfs_rq, se), (s64)weight);
	cfs_rq->sum_weight -= weight;
	cfs_rq->sum_w_slice -= weight * se->slice;
}

/* v0 moves by delta: every key shrank by delta. */
static void move_v0(struct cfs_rq *cfs_rq, s64 delta)
{
	cfs_rq->sum_w_vruntime -= mul_wrap((s64)cfs_rq->sum_weight, delta);
	cfs_rq->v0 += (u64)delta;
}

/* (A, L) including curr when it is on the queue. */
static void avg_sums(const struct cfs_rq *cfs_rq, s64 *avg, s64 *load)
{
	const struct sched_entity *curr = cfs_rq->curr;

	*avg = cfs_rq->sum_w_vruntime;
	*load = (s64)cfs_rq->sum_weight;
	if (curr && curr->on_rq) {
		s64 w = (s64)scale_load_down(curr->load.weight);

		*avg += mul_wrap(entity_key(cfs_rq, curr), w);
		*load += w;
	}
}

/*
 * V - v0 = floor(A / L).  C division truncates toward zero; subtracting
 * L - 1 from a negative A turns it into a floor, which guarantees that an
 * entity placed exactly at V is eligible (kernel commit 650cad561cce).
 */
static s64 avg_vruntime_delta(const struct cfs_rq *cfs_rq)
{
	s64 avg, load;

	avg_sums(cfs_rq, &avg, &load);
	if (!load)
		return 0;
	if (avg < 0)
		avg -= (load - 1);
	return avg / load;
}

u64 avg_vruntime_peek(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->v0 + (u64)avg_vruntime_delta(cfs_rq);
}

/*
 * With zero_vruntime (6.18.17+, b3d99f43c72b) every call re-centres the
 * reference on V so that keys stay small even for a lone running task.
 * Decisions are invariant to v0: V and eligibility come out the same.
 */
u64 avg_vruntime(struct cfs_rq *cfs_rq)
{
	s64 delta = avg_vruntime_delta(cfs_rq);

	if (params(cfs_rq)->profile->v0 == V0_ZERO_VRUNTIME) {
		move_v0(cfs_rq, delta);
		return cfs_rq->v0;
	}
	return cfs_rq->v0 + (u64)delta;
}

/*
 * Eligible means v <= V, i.e. lag >= 0.  Comparing A >= (v - v0) * L
 * avoids the division, and so the rounding, of V itself.
 */
static bool vruntime_eligible(const struct cfs_rq *cfs_rq, u64 vruntime)
{
	s64 avg, load;

	avg_sums(cfs_rq, &avg, &load);
	return avg >= mul_wrap((s64)(vruntime - cfs_rq->v0), load);
}

bool entity_eligible(const struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/*
 * min_vruntime: monotonic, follows the smallest queued vruntime.  It is
 * also CFS's min_vruntime (kernel-model.md 9.3): there the tree is keyed
 * by vruntime, so the root's augmented minimum is the leftmost vruntime.
 */
void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = node_se(cfs_rq->tasks_timeline.root);
	struct sched_entity *curr = cfs_rq->curr;
	u64 vruntime = cfs_rq->v0;

	if (params(cfs_rq)->profile->v0 != V0_MIN_VRUNTIME)
		return;
	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}
	if (se) {
		if (!curr)
			vruntime = se->min_vruntime;
		else
			vruntime = min_vruntime(vruntime, se->min_vruntime);
	}
	vruntime = max_vruntime(cfs_rq->v0, vruntime);
	move_v0(cfs_rq, (s64)(vruntime - cfs_rq->v0));
}

/* Slices --------------------------------------------------------------- */

u64 cfs_rq_min_slice(const struct cfs_rq *cfs_rq)
{
	const struct sched_entity *root = node_se(cfs_rq->tasks_timeline.root);
	const struct sched_entity *curr = cfs_rq->curr;
	u64 min_slice = ~(u64)0;

	if (curr && curr->on_rq)
		min_slice = curr->slice;
	if (root)
		min_slice = min_u64(min_slice, root->min_slice);
	return min_slice;
}

u64 cfs_rq_max_slice(const struct cfs_rq *cfs_rq)
{
	const struct sched_entity *root = node_se(cfs_rq->tasks_timeline.root);
	const struct sched_entity *curr = cfs_rq->curr;
	u64 max_slice = 0;

	if (curr && curr->on_rq)
		max_slice = curr->slice;
	if (root)
		max_slice = max_u64(max_slice, root->max_slice);
	return max_slice;
}

/*
 * Lag saved at dequeue, clamped to what the EEVDF paper proves a steady
 * system can reach (-r_max < lag < max(r_max, q)).  6.17 bounds it by the
 * entity's own two slices; 6.18.17+ (7.0's "Increase max lag clamping")
 * by the largest slice on the queue plus a tick, which is wider at low HZ.
 */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	const struct sched_params *sp = params(cfs_rq);
	s64 vlag, limit;
	u64 span;

	EEVDF_ASSERT(se->on_rq);
	vlag = (s64)(avg_vruntime(cfs_rq) - se->vruntime);
	if (sp->profile->lag_clamp == LAG_CLAMP_MAX_SLICE)
		span = cfs_rq_max_slice(cfs_rq) + sp->tick_nsec;
	else
		span = max_u64(2 * se->slice, sp->tick_nsec);
	limit = (s64)calc_delta_fair(span, se);
	if (vlag < -limit)
		vlag = -limit;
	else if (vlag > limit)
		vlag = limit;
	se->vlag = vlag;
}

/*
 * A request ends when vruntime reaches the deadline; the next one starts
 * from the current vruntime (not from the old deadline), so the overshoot
 * of up to a tick is forgiven, as the kernel does.
 */
static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (vruntime_before(se->vruntime, se->deadline))
		return false;
	if (!se->custom_slice)
		se->slice = params(cfs_rq)->sysctl_sched_base_slice;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	return true;
}

/* Slice protection (6.17 vprot; 6.6-6.16 the vlag stash) ------------- */

/*
 * 6.6-6.16 keep the stash in se->vlag; here it lives in vprot, which the
 * vprot model does not use then, with the same meaning: protected while it
 * equals the deadline.
 */
static bool vlag_stash_model(const struct cfs_rq *cfs_rq)
{
	return params(cfs_rq)->profile->protect == PROTECT_VLAG_STASH;
}

bool protect_slice(const struct sched_entity *se)
{
	const struct cfs_rq *cfs_rq = se->cfs_rq;

	if (cfs_rq && vlag_stash_model(cfs_rq))
		return se->vprot == se->deadline;
	return vruntime_before(se->vruntime, se->vprot);
}

/*
 * At a pick the new curr is protected until its deadline, or for the
 * shortest slice on the queue when that is shorter, so short-slice tasks
 * get their turn within their own slice.  NO_RUN_TO_PARITY still grants
 * the unscaled base slice as a minimum quantum.
 */
static void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);

	if (vlag_stash_model(cfs_rq)) {
		se->vprot = se->deadline;
		return;
	}
	if (!sched_feat(feats(cfs_rq), RUN_TO_PARITY))
		slice = params(cfs_rq)->normalized_base_slice;
	slice = min_u64(slice, se->slice);
	if (slice != se->slice)
		se->vprot = min_vruntime(se->deadline,
					 se->vruntime +
						 calc_delta_fair(slice, se));
	else
		se->vprot = se->deadline;
}

/* A shorter-slice task arrived: shrink the window to its slice. */
static void update_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);

	se->vprot = min_vruntime(se->vprot,
				 se->vruntime + calc_delta_fair(slice, se));
}

static void cancel_protect_slice(struct sched_entity *se)
{
	if (!protect_slice(se))
		return;
	if (vlag_stash_model(se->cfs_rq))
		se->vprot = se->deadline + 1;
	else
		se->vprot = se->vruntime;
}

/* Buddies -------------------------------------------------------------- */

/*
 * set_next_buddy(): the entity and its group entities up to the first
 * idle one become the next buddies of their levels.
 */
void set_next_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se)
	{
		if (!se->on_rq || se_is_idle(se))
			return;
		cfs_rq_of(se)->next = se;
	}
}

/* Clear the buddy at this level and at each level above that points up
 * the same chain (__clear_buddies_next()). */
static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next != se)
		return;
	for_each_sched_entity(se)
	{
		if (cfs_rq_of(se)->next != se)
			break;
		cfs_rq_of(se)->next = NULL;
	}
}

/* update_curr ---------------------------------------------------------- */

/*
 * Charge the running entity for the time since it was last charged, renew
 * its request when it has been served, and ask for a reschedule when the
 * request ended or the protection window closed.  This is the only
 * tick-driven preemption EEVDF has: there is no check_preempt_tick.
 */
s64 update_curr_se(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	u64 now = cfs_rq->rq->clock;
	s64 delta_exec;

	if (!curr)
		return 0;
	delta_exec = (s64)(now - curr->exec_start);
	if (delta_exec <= 0)
		return 0;
	curr->exec_start = now;
	curr->sum_exec_runtime += (u64)delta_exec;
	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);
	return delta_exec;
}

void eevdf__update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct rq *rq = cfs_rq->rq;
	s64 delta;
	bool resched, renewed;

	if (!(delta = update_curr_se(cfs_rq)))
		return;
	resched = renewed = update_deadline(cfs_rq, curr);
	update_min_vruntime(cfs_rq);
	/*
	 * A task's fair time counts against the fair server whether it runs
	 * on the server's behalf or not, so that a CPU whose fair tasks get
	 * their share never needs the server (557a6bfc662c, c7f7e9c73178).
	 * Group entities are charged the same time at their own levels.
	 */
	if (entity_is_task(curr) && rq->fair_server.dl_server_active)
		dl_server_update(&rq->fair_server, delta);
	account_cfs_rq_runtime(cfs_rq, (u64)delta);

	if (cfs_rq->nr_queued == 1)
		return;
	if (vlag_stash_model(cfs_rq)) {
		/*
		 * 6.12-6.16: a renewed request, or did_preempt_short(): the
		 * protection was cancelled and curr is no longer eligible.
		 */
		if (!resched && sched_feat(feats(cfs_rq), PREEMPT_SHORT) &&
		    !protect_slice(curr) && !entity_eligible(cfs_rq, curr))
			resched = true;
	} else if (!protect_slice(curr)) {
		resched = true;
	}
	if (resched) {
		trace_entity(rq,
			     renewed ? EEVDF_RULE_SLICE_EXPIRED :
			     vlag_stash_model(cfs_rq) ?
				       EEVDF_RULE_SHORT_INELIGIBLE :
				       EEVDF_RULE_PROTECT_ENDED,
			     curr);
		resched_curr(cfs_rq->rq);
		clear_buddies(cfs_rq, curr);
	}
}

/* Placement ------------------------------------------------------------ */

/*
 * Join at V minus the saved lag.  Adding an entity of weight w at lag vl
 * moves V by w * vl / (W + w) and leaves it only vl * W / (W + w) of lag,
 * so the saved lag is inflated by (W + w) / W first (EEVDF placement
 * strategy #1).  W is the load without the entity: place_entity runs before
 * the entity's weight is added to the sums.
 */
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		  unsigned int flags)
{
	u64 vslice, vruntime = avg_vruntime(cfs_rq), placed;
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = params(cfs_rq)->sysctl_sched_base_slice;
	vslice = calc_delta_fair(se->slice, se);

	if (sched_feat(feats(cfs_rq), PLACE_LAG) && cfs_rq->nr_queued &&
	    se->vlag) {
		struct sched_entity *curr = cfs_rq->curr;
		s64 load = (s64)cfs_rq->sum_weight;

		lag = se->vlag;
		if (curr && curr->on_rq)
			load += (s64)scale_load_down(curr->load.weight);
		/*
		 * PLACE_FUDGE (RFC): a task asking for less than the queue's
		 * weight-averaged slice gets up to one request of negative
		 * lag forgiven, never to more than zero lag.
		 */
		if (sched_feat(feats(cfs_rq), PLACE_FUDGE)) {
			u64 w_slice = cfs_rq->sum_w_slice, w = (u64)load;

			if (curr && curr->on_rq)
				w_slice += scale_load_down(curr->load.weight) *
					   curr->slice;
			if (w_slice > se->slice * w) {
				lag += (s64)vslice;
				if (lag > 0)
					lag = 0;
			}
		}
		lag = mul_wrap(lag,
			       load + (s64)scale_load_down(se->load.weight));
		if (!load)
			load = 1;
		lag /= load; /* div_s64: truncates toward zero */
	}
	vruntime -= (u64)lag;
	placed = vruntime;
	/*
	 * PLACE_BONUS (RFC, "[PATCH 15/17] [RFC] sched/eevdf: Sleeper
	 * bonus", 2023-03-28): a task waking on the CPU it slept on starts
	 * up to half its slice (raw ns) left of its placement, but not left
	 * of where it went to sleep; the deadline stays the one of the
	 * normal placement.  Strictly unfair: a 50% sleeper then matches a
	 * hog 50/50 instead of 33/67.
	 */
	if (sched_feat(feats(cfs_rq), PLACE_BONUS) &&
	    (flags & ENQUEUE_WAKEUP) && !(flags & ENQUEUE_MIGRATED) &&
	    vruntime_before(se->vruntime, vruntime)) {
		vruntime -= se->slice / 2;
		if (vruntime_before(vruntime, se->vruntime))
			vruntime = se->vruntime;
	}
	se->vruntime = vruntime;

	/* A dequeue that was not a sleep kept the deadline relative. */
	if (se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	/* New tasks ease into the competition with half a request. */
	if (sched_feat(feats(cfs_rq), PLACE_DEADLINE_INITIAL) &&
	    (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = placed + vslice;
}

void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	avg_vruntime_add(cfs_rq, se);
	eevdf__rb_insert(&cfs_rq->tasks_timeline, &se->run_node, less_deadline);
}

void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	eevdf__rb_erase(&cfs_rq->tasks_timeline, &se->run_node);
	avg_vruntime_sub(cfs_rq, se);
}

/*
 * curr is placed before update_curr() moves V (its own vruntime is part of
 * V); any other entity after, against the up-to-date V.
 */
/*
 * update_load_avg(): bring the entity's and the queue's PELT signals up to
 * now, take up what changed in a group entity's group (propagation), and
 * with UPDATE_TG refresh the queue's share of its group's load.  Only SMP
 * placement, balancing and group weights read them; a one-CPU machine
 * skips the work, its group weights coming out as tg->shares anyway.
 */
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	const struct rq *rq = rq_of(cfs_rq);
	u64 now = rq->clock;
	int decayed;

	if (!rq->sp->smp)
		return;
	pelt_update_se(now, &se->avg,
		       (unsigned long)scale_load_down(se->load.weight),
		       se->on_rq, se_runnable(se), cfs_rq->curr == se);
	decayed = pelt_update_cfs_rq(
		now, &cfs_rq->avg,
		(unsigned long)scale_load_down(cfs_rq->load.weight),
		cfs_rq->h_nr_runnable, cfs_rq->curr != NULL);
	decayed |= propagate_entity_load_avg(se);
	lb_stats_dirty(rq_of(cfs_rq));
	if (decayed && (flags & UPDATE_TG))
		update_tg_load_avg(cfs_rq);
}

/*
 * propagate_entity_cfs_rq(): an entity's load joined or left its cfs_rq
 * outside of an enqueue (a class or group change): the levels above
 * take it up now.
 */
static void propagate_entity_cfs_rq(struct sched_entity *se)
{
	if (cfs_rq_throttled(cfs_rq_of(se)))
		return;
	se = se->parent;
	for_each_sched_entity(se)
	{
		update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
		if (cfs_rq_throttled(cfs_rq_of(se)))
			break;
	}
}

/*
 * attach_entity_cfs_rq() / detach_entity_cfs_rq(): the entity's averages
 * join or leave its cfs_rq's sums (pelt_attach()/pelt_detach()), the
 * group's load and the levels above follow.  With ATTACH_AGE_LOAD the
 * entity's load decays over the time it was away first.
 */
static void entity_cfs_rq_pelt(struct sched_entity *se, bool attach)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	unsigned long w = (unsigned long)scale_load_down(se->load.weight);
	struct rq *rq = rq_of(cfs_rq);

	if (!rq->sp->smp)
		return;
	pelt_update_cfs_rq(rq->clock, &cfs_rq->avg,
			   (unsigned long)scale_load_down(cfs_rq->load.weight),
			   cfs_rq->h_nr_runnable, cfs_rq->curr != NULL);
	if (!attach || sched_feat_rq(rq, ATTACH_AGE_LOAD))
		pelt_update_se(rq->clock, &se->avg, w, false, 0, false);
	else
		se->avg.last_update_time = rq->clock;
	if (attach)
		pelt_attach(&cfs_rq->avg, &se->avg, w);
	else
		pelt_detach(&cfs_rq->avg, &se->avg, w);
	lb_stats_dirty(rq);
	add_tg_cfs_propagate(cfs_rq, attach ? (long)se->avg.load_sum :
					      -(long)se->avg.load_sum);
	update_tg_load_avg(cfs_rq);
	propagate_entity_cfs_rq(se);
}

void attach_entity_cfs_rq(struct sched_entity *se)
{
	entity_cfs_rq_pelt(se, true);
}

void detach_entity_cfs_rq(struct sched_entity *se)
{
	entity_cfs_rq_pelt(se, false);
}

/*
 * A group entity is re-weighted to its group's current share before it
 * is placed, so that its lag is applied at the weight it will have.
 */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		    unsigned int flags)
{
	bool curr = cfs_rq->curr == se;

	if (curr)
		place_entity(cfs_rq, se, flags);
	update_curr(cfs_rq);
	update_load_avg(cfs_rq, se, UPDATE_TG);
	se_update_runnable(se);
	update_cfs_group(se);
	if (!curr)
		place_entity(cfs_rq, se, flags);
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued++;
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = true;
	se->cfs_rq = cfs_rq;
	if (cfs_rq->nr_queued == 1)
		check_enqueue_throttle(cfs_rq);
}

/*
 * A delayed task stops counting as runnable at every level up to a
 * throttled one (the throttle took the rest out); a delayed group entity
 * holds no task and changes no count.
 */
static void set_delayed(struct sched_entity *se)
{
	se->sched_delayed = true;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se)
	{
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable--;
		lb_stats_dirty(rq_of(cfs_rq));
		if (cfs_rq_throttled(cfs_rq))
			break;
	}
}

static void clear_delayed(struct sched_entity *se)
{
	se->sched_delayed = false;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se)
	{
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable++;
		lb_stats_dirty(rq_of(cfs_rq));
		if (cfs_rq_throttled(cfs_rq))
			break;
	}
}

/*
 * Returns false when the entity stays on the queue as a delayed entity:
 * an ineligible task going to sleep keeps competing (and dragging V) until
 * it has burnt off its negative lag, instead of carrying the debt into its
 * next wakeup (DELAY_DEQUEUE, 6.12+).
 */
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
		    unsigned int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;

	update_curr(cfs_rq);
	clear_buddies(cfs_rq, se);

	if (flags & DEQUEUE_DELAYED) {
		EEVDF_ASSERT(se->sched_delayed);
	} else {
		bool delay = sleep && !(flags & DEQUEUE_SPECIAL);

		if (sched_feat(feats(cfs_rq), DELAY_DEQUEUE) && delay &&
		    !entity_eligible(cfs_rq, se)) {
			update_load_avg(cfs_rq, se, 0);
			set_delayed(se);
			trace_entity(cfs_rq->rq, EEVDF_RULE_DELAY_DEQUEUE, se);
			return false;
		}
	}
	update_load_avg(cfs_rq, se, UPDATE_TG);
	se_update_runnable(se);

	update_entity_lag(cfs_rq, se);
	if (sched_feat(feats(cfs_rq), PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = false;
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued--;
	return_cfs_rq_runtime(cfs_rq);
	update_cfs_group(se);

	if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(cfs_rq);

	if (flags & DEQUEUE_DELAYED) {
		clear_delayed(se);
		/* Lag gained while asleep is not kept (DELAY_ZERO). */
		if (sched_feat(feats(cfs_rq), DELAY_ZERO) && se->vlag > 0)
			se->vlag = 0;
	}
	return true;
}

/*
 * A delayed task is woken where it sleeps (ttwu_runnable).  If it became
 * eligible meanwhile its positive lag is dropped and it is re-placed at V;
 * otherwise it keeps both its vruntime and its deadline.  Deliberately no
 * update_curr() first: V is taken with curr's stale vruntime, as the
 * kernel does (shared/reference/simulator-notes.md section 3).
 */
void requeue_delayed_entity(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = se->cfs_rq;

	EEVDF_ASSERT(se->sched_delayed && se->on_rq);
	if (sched_feat(feats(cfs_rq), DELAY_ZERO)) {
		update_entity_lag(cfs_rq, se);
		if (se->vlag > 0) {
			cfs_rq->nr_queued--;
			if (se != cfs_rq->curr)
				__dequeue_entity(cfs_rq, se);
			se->vlag = 0;
			place_entity(cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(cfs_rq, se);
			cfs_rq->nr_queued++;
		}
	}
	update_load_avg(cfs_rq, se, 0);
	clear_delayed(se);
	trace_entity(cfs_rq->rq, EEVDF_RULE_DELAYED_WAKE, se);
}

/* The pick ------------------------------------------------------------- */

/*
 * The eligible entity with the earliest deadline, in O(log n): the tree is
 * ordered by deadline, so the leftmost eligible node is the answer.  A left
 * subtree holds an eligible entity iff its min_vruntime is eligible; the
 * walk goes left whenever it does, else takes the node if eligible, else
 * goes right.  curr (outside the tree) wins only with a strictly earlier
 * deadline, so a queued entity beats curr on a tie.
 */
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
	struct eevdf_rb_node *node = cfs_rq->tasks_timeline.root;
	struct sched_entity *se = node_se(
		eevdf__rb_first(&cfs_rq->tasks_timeline));
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;
	struct sched_entity *next = cfs_rq->next;

	/* A lone entity is always eligible: V is its own vruntime. */
	if (cfs_rq->nr_queued == 1)
		return pick_rule(cfs_rq, curr && curr->on_rq ? curr : se,
				 EEVDF_RULE_PICK_ONLY);

	/* 6.19 / 6.18.32+: the buddy test moved inside (e837456fdca8). */
	if (params(cfs_rq)->profile->wakeup == WAKEUP_6_19 &&
	    sched_feat(feats(cfs_rq), PICK_BUDDY) && next &&
	    entity_eligible(cfs_rq, next))
		return pick_rule(cfs_rq, next, EEVDF_RULE_PICK_BUDDY);

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;
	/* 6.6-6.16 consult RUN_TO_PARITY here; 6.17 when arming vprot */
	if (curr && protect && protect_slice(curr) &&
	    (!vlag_stash_model(cfs_rq) ||
	     sched_feat(feats(cfs_rq), RUN_TO_PARITY)))
		return pick_rule(cfs_rq, curr, EEVDF_RULE_PICK_PROTECTED);

	if (se && entity_eligible(cfs_rq, se)) {
		best = se;
		goto found;
	}
	while (node) {
		struct eevdf_rb_node *left = node->left;

		if (left &&
		    vruntime_eligible(cfs_rq, node_se(left)->min_vruntime)) {
			node = left;
			continue;
		}
		se = node_se(node);
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}
		node = node->right;
	}
found:
	if (!best || (curr && entity_before(curr, best)))
		return pick_rule(cfs_rq, curr, EEVDF_RULE_PICK_CURR);
	return pick_rule(cfs_rq, best, EEVDF_RULE_PICK_EARLIEST);
}

void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, bool first)
{
	clear_buddies(cfs_rq, se);
	/* curr is not kept in the tree. */
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		if (first || !params(cfs_rq)->profile->protect_first_only)
			set_protect_slice(cfs_rq, se);
	}
	cfs_rq->curr = se;
	se->exec_start = cfs_rq->rq->clock;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* A curr over its group's quota is throttled as it is put back. */
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq)
		update_curr(cfs_rq);
	check_cfs_rq_runtime(cfs_rq);
	if (prev->on_rq) {
		__enqueue_entity(cfs_rq, prev);
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/* Task-level hooks ---------------------------------------------------- */

/* __sched_fork() and the first slice: a child starts with zero lag. */
void init_entity(struct rq *rq, struct task *p)
{
	struct sched_entity *se = &p->se;
	u64 custom = se->slice;
	bool has_custom = se->custom_slice;

	se->on_rq = false;
	se->sched_delayed = false;
	se->rel_deadline = false;
	se->exec_start = 0;
	se->sum_exec_runtime = 0;
	se->prev_sum_exec_runtime = 0;
	se->vruntime = 0;
	se->vlag = 0;
	se->vprot = 0;
	se->deadline = 0;
	se->vrel = false;
	se->my_q = NULL;
	se->runnable_weight = 0;
	/* a task built without a group (the tests') is in the root */
	if (!p->sched_task_group)
		p->sched_task_group = p->cgroup = rq->cfs.tg;
	eevdf__set_task_rq(p, rq->cpu);
	/* before 6.12 the slice is always the base slice */
	if (!rq->sp->profile->custom_slices)
		has_custom = false;
	se->custom_slice = has_custom;
	se->slice = has_custom ? custom : rq->sp->sysctl_sched_base_slice;
	eevdf__set_load_weight(&se->load, p->nice,
			       p->policy == EEVDF_POLICY_IDLE);
	/* CFS places a child at fork time, before the enqueue (START_DEBIT) */
	if (cfs_policy(rq))
		cfs_task_fork(rq, p);
}

/* After an enqueue or dequeue the slice left may have changed. */
void hrtick_update(struct rq *rq)
{
	if (!sched_feat_rq(rq, HRTICK) || !rq->curr ||
	    rq->curr->state != TASK_RUNNING)
		return;
	hrtick_start_fair(rq, rq->curr);
}

/* The policy's entity operations: EEVDF here, CFS in cfs.c. */
void fair_enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			 unsigned int flags)
{
	if (cfs_policy(cfs_rq->rq))
		cfs_enqueue_entity(cfs_rq, se, flags);
	else
		enqueue_entity(cfs_rq, se, flags);
}

bool fair_dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
			 unsigned int flags)
{
	if (cfs_policy(cfs_rq->rq)) {
		cfs_dequeue_entity(cfs_rq, se, flags);
		return true;
	}
	return dequeue_entity(cfs_rq, se, flags);
}

static void fair_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se,
				 bool first)
{
	if (cfs_policy(cfs_rq->rq))
		cfs_set_next_entity(cfs_rq, se);
	else
		set_next_entity(cfs_rq, se, first);
}

static void fair_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_policy(cfs_rq->rq))
		cfs_put_prev_entity(cfs_rq, se);
	else
		put_prev_entity(cfs_rq, se);
}

/*
 * A group entity's request is the shortest slice queued below it
 * (aef6987d8954, 6.12, with custom slices): a queued entity's slice
 * feeds its queue's sum_w_slice and the tree's slice bounds, so both are
 * redone around the change (min_vruntime_cb_propagate()).
 */
static void set_group_slice(struct cfs_rq *cfs_rq, struct sched_entity *se,
			    u64 slice)
{
	u64 w = scale_load_down(se->load.weight);

	if (se->slice == slice)
		return;
	if (se->on_rq && se != cfs_rq->curr) {
		cfs_rq->sum_w_slice -= w * se->slice;
		se->slice = slice;
		cfs_rq->sum_w_slice += w * se->slice;
		eevdf__rb_propagate(&cfs_rq->tasks_timeline, &se->run_node);
		return;
	}
	se->slice = slice;
}

/*
 * enqueue_task_fair(): the task's entity and, up the hierarchy, every
 * group entity that was not queued yet (each a wakeup at its level);
 * the levels above that only update their load, weight and slice.  A
 * throttled level ends the walk: the task is queued in its group but not
 * runnable on the CPU until the group is unthrottled.
 */
void enqueue_task_fair(struct rq *rq, struct task *p, unsigned int flags)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq;
	unsigned int h_nr_idle = p->policy == EEVDF_POLICY_IDLE;
	unsigned int h_nr_runnable = 1;
	unsigned int rq_h_nr_queued = rq->cfs.h_nr_queued;
	bool group_slice = rq->sp->profile->custom_slices;
	u64 slice = 0;

	if (flags & ENQUEUE_DELAYED) {
		EEVDF_ASSERT(!cfs_policy(rq));
		requeue_delayed_entity(se);
		return;
	}
	/* a delayed task put back by a SAVE/RESTORE pair stays delayed */
	if (!(flags & ENQUEUE_WAKEUP) && se->sched_delayed)
		h_nr_runnable = 0;
	for_each_sched_entity(se)
	{
		if (se->on_rq) {
			if (se->sched_delayed)
				requeue_delayed_entity(se);
			break;
		}
		cfs_rq = cfs_rq_of(se);
		if (slice) {
			se->slice = slice;
			se->custom_slice = true;
		}
		fair_enqueue_entity(cfs_rq, se, flags);
		if (group_slice)
			slice = cfs_rq_min_slice(cfs_rq);
		cfs_rq->h_nr_runnable += h_nr_runnable;
		lb_stats_dirty(rq_of(cfs_rq));
		cfs_rq->h_nr_queued++;
		cfs_rq->h_nr_idle += h_nr_idle;
		if (cfs_rq_is_idle(cfs_rq))
			h_nr_idle = 1;
		if (cfs_rq_throttled(cfs_rq))
			goto throttled;
		flags = ENQUEUE_WAKEUP;
	}
	for_each_sched_entity(se)
	{
		cfs_rq = cfs_rq_of(se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		update_cfs_group(se);
		if (group_slice) {
			set_group_slice(cfs_rq, se, slice);
			slice = cfs_rq_min_slice(cfs_rq);
		}
		cfs_rq->h_nr_runnable += h_nr_runnable;
		lb_stats_dirty(rq_of(cfs_rq));
		cfs_rq->h_nr_queued++;
		cfs_rq->h_nr_idle += h_nr_idle;
		if (cfs_rq_is_idle(cfs_rq))
			h_nr_idle = 1;
		if (cfs_rq_throttled(cfs_rq))
			goto throttled;
	}
	/* the CPU's first fair task starts the fair server (6.12+), after
	 * the CPU's idle time is counted as the server's */
	if (!rq_h_nr_queued && rq->cfs.h_nr_queued &&
	    rq->fair_server.dl_server) {
		if (!rq->nr_running && !rq->curr)
			dl_server_update_idle_time(rq);
		dl_server_start(&rq->fair_server, p);
	}
	add_nr_running(rq, 1);
throttled:
	/* account_entity_enqueue(): the balancer's list; hrtick_update() */
	cfs_tasks_move_head(rq, p);
	hrtick_update(rq);
}

/*
 * dequeue_entities(): the entity and every group entity it leaves empty,
 * as sleeps above the first level; a level that keeps other entities
 * stops the walk (its entity only updates, and with a sleeping task it
 * becomes the next buddy: the "cgroup pick optimisation").  Returns -1
 * when the task stays queued as a delayed entity, 0 when a throttled
 * level ended the walk, 1 when it is done.
 */
static int dequeue_entities(struct rq *rq, struct sched_entity *se,
			    unsigned int flags)
{
	bool task_sleep = flags & DEQUEUE_SLEEP;
	bool task_delayed = flags & DEQUEUE_DELAYED;
	bool group_slice = rq->sp->profile->custom_slices;
	unsigned int h_nr_idle = 0, h_nr_queued = 0, h_nr_runnable = 0;
	unsigned int rq_h_nr_queued = rq->cfs.h_nr_queued;
	struct task *p = NULL;
	struct cfs_rq *cfs_rq;
	u64 slice = 0;

	if (entity_is_task(se)) {
		p = task_of(se);
		h_nr_queued = 1;
		h_nr_idle = p->policy == EEVDF_POLICY_IDLE;
		if (task_sleep || task_delayed || !se->sched_delayed)
			h_nr_runnable = 1;
	}
	for_each_sched_entity(se)
	{
		cfs_rq = cfs_rq_of(se);
		if (!fair_dequeue_entity(cfs_rq, se, flags)) {
			if (p && &p->se == se)
				return -1;
			slice = cfs_rq_min_slice(cfs_rq);
			break;
		}
		cfs_rq->h_nr_runnable -= h_nr_runnable;
		lb_stats_dirty(rq_of(cfs_rq));
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->h_nr_idle -= h_nr_idle;
		if (cfs_rq_is_idle(cfs_rq))
			h_nr_idle = h_nr_queued;
		if (cfs_rq_throttled(cfs_rq))
			return 0;
		if (cfs_rq->load.weight) {
			slice = cfs_rq_min_slice(cfs_rq);
			se = parent_entity(se);
			if (task_sleep && se && !throttled_hierarchy(cfs_rq))
				set_next_buddy(se);
			break;
		}
		flags |= DEQUEUE_SLEEP;
		flags &= ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
	}
	for_each_sched_entity(se)
	{
		cfs_rq = cfs_rq_of(se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		update_cfs_group(se);
		if (group_slice) {
			set_group_slice(cfs_rq, se, slice);
			slice = cfs_rq_min_slice(cfs_rq);
		}
		cfs_rq->h_nr_runnable -= h_nr_runnable;
		lb_stats_dirty(rq_of(cfs_rq));
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->h_nr_idle -= h_nr_idle;
		if (cfs_rq_is_idle(cfs_rq))
			h_nr_idle = h_nr_queued;
		if (cfs_rq_throttled(cfs_rq))
			return 0;
	}
	sub_nr_running(rq, h_nr_queued);
	/* 6.12-6.16: the last fair task stops the fair server */
	if (rq_h_nr_queued && !rq->cfs.h_nr_queued &&
	    rq->sp->profile->dl_server == DL_SERVER_6_12)
		dl_server_stop(&rq->fair_server, p);
	return 1;
}

/*
 * dequeue_task_fair(): false when the task stays queued as a delayed
 * entity (the caller must then not block it).
 */
bool dequeue_task_fair(struct rq *rq, struct task *p, unsigned int flags)
{
	if (dequeue_entities(rq, &p->se, flags) < 0)
		return false;
	cfs_tasks_del(rq, p);
	hrtick_update(rq);
	return true;
}

/* __block_task() of a delayed task whose dequeue is completed. */
static void finish_delayed_task(struct rq *rq, struct sched_entity *se)
{
	struct task *p = task_of(se);

	dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
	p->on_rq = false;
}

/*
 * pick_next_entity(): the buddy if eligible (6.17 tests it here; 6.18.32+
 * inside the pick), then EEVDF.  A delayed entity chosen by EEVDF has
 * become eligible: its sleep is completed now and NULL tells the caller
 * to pick again.
 */
static struct sched_entity *
pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq, bool protect)
{
	struct sched_entity *se;

	/* the pick-side buddy: NEXT_BUDDY gates it until 6.13, PICK_BUDDY
	 * from 6.14 */
	if (rq->sp->profile->wakeup != WAKEUP_6_19 &&
	    (rq->sp->profile->wakeup <= WAKEUP_6_12 ?
		     sched_feat_rq(rq, NEXT_BUDDY) :
		     sched_feat_rq(rq, PICK_BUDDY)) &&
	    cfs_rq->next && entity_eligible(cfs_rq, cfs_rq->next))
		return pick_rule(cfs_rq, cfs_rq->next, EEVDF_RULE_PICK_BUDDY);
	se = pick_eevdf(cfs_rq, protect);
	EEVDF_ASSERT(se);
	if (se->sched_delayed) {
		trace_entity(rq, EEVDF_RULE_PICK_DELAYED, se);
		if (entity_is_task(se))
			finish_delayed_task(rq, se);
		else
			dequeue_entities(rq, se,
					 DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		return NULL;
	}
	return se;
}

/*
 * pick_task_fair(): down from the root, the entity each level picks,
 * without putting or setting anything (also the fair server's pick).  A
 * level out of bandwidth is throttled on the way, and a delayed entity
 * picked is reaped; either sends the walk back to the root.  CFS (6.1)
 * checks the bandwidth only of a level with a running entity.
 */
static struct sched_entity *pick_entity_fair(struct rq *rq)
{
	bool cfs = cfs_policy(rq);
	struct cfs_rq *cfs_rq;
	struct sched_entity *se;

again:
	cfs_rq = &rq->cfs;
	if (!cfs_rq->nr_queued)
		return NULL;
	do {
		struct sched_entity *curr = cfs_rq->curr;

		if (curr && !curr->on_rq)
			curr = NULL;
		if (cfs) {
			if (curr)
				cfs_update_curr(cfs_rq);
			if (cfs_rq->curr && check_cfs_rq_runtime(cfs_rq))
				goto again;
			se = cfs_pick_next_entity(cfs_rq, curr);
		} else {
			if (curr)
				update_curr(cfs_rq);
			if (check_cfs_rq_runtime(cfs_rq))
				goto again;
			se = pick_next_entity(rq, cfs_rq, true);
			if (!se)
				goto again;
		}
		/*
		 * The pick read the node's first line; the switch reads the
		 * rest of the entity, and of the task when it is one, which
		 * in a queue of many tasks is cold: ask for it all at once.
		 */
		task_prefetch(rq->sched, se);
		cfs_rq = group_cfs_rq(se);
	} while (cfs_rq);
	return se;
}

struct task *pick_task_fair(struct rq *rq)
{
	struct sched_entity *se = pick_entity_fair(rq);

	return se ? task_of(se) : NULL;
}

/* put_prev_task_fair(): every level of prev's hierarchy is put back. */
static void put_prev_task_fair(struct rq *rq, struct task *p, struct task *next)
{
	struct sched_entity *se = &p->se;

	(void)rq;
	(void)next;
	for_each_sched_entity(se) fair_put_prev_entity(cfs_rq_of(se), se);
}

/*
 * set_next_task_fair(): p's hierarchy becomes every level's curr (another
 * class's task ran, or a change of attributes put p back); each level
 * makes sure it has bandwidth for it.
 */
static void set_next_task_fair(struct rq *rq, struct task *p, bool first)
{
	struct sched_entity *se = &p->se;

	for_each_sched_entity(se)
	{
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		fair_set_next_entity(cfs_rq, se, first);
		account_cfs_rq_runtime(cfs_rq, 0);
	}
	cfs_tasks_move_head(rq, p);
}

/*
 * pick_next_task_fair(): pick, then switch prev's hierarchy for p's: from
 * the levels where they differ up to the first they share, prev's
 * entities are put and p's set (bottom-up, the deeper side first).  When
 * the pick is prev itself nothing is put or set, so its protection
 * window is not refreshed (kernel-model.md section 12, item 5).
 */
struct task *pick_next_task_fair(struct rq *rq, struct task *prev)
{
	struct sched_entity *se = pick_entity_fair(rq), *pse;
	struct cfs_rq *cfs_rq;
	struct task *p;

	if (!se) {
		if (prev)
			put_prev_task_fair(rq, prev, NULL);
		return NULL;
	}
	p = task_of(se);
	if (prev == p)
		return p;
	if (!prev) {
		set_next_task_fair(rq, p, true);
		return p;
	}
	pse = &prev->se;
	while (se->cfs_rq != pse->cfs_rq) {
		int se_depth = se->depth, pse_depth = pse->depth;

		if (se_depth <= pse_depth) {
			fair_put_prev_entity(cfs_rq_of(pse), pse);
			pse = parent_entity(pse);
		}
		if (se_depth >= pse_depth) {
			fair_set_next_entity(cfs_rq_of(se), se, true);
			se = parent_entity(se);
		}
	}
	cfs_rq = se->cfs_rq;
	fair_put_prev_entity(cfs_rq, pse);
	fair_set_next_entity(cfs_rq, se, true);
	cfs_tasks_move_head(rq, p);
	return p;
}

/*
 * HRTICK: end the slice exactly instead of at the next tick.  Armed for
 * what is left of the running task's slice when others are queued; the
 * kernel never arms it for less than 10 us.
 */
void hrtick_start_fair(struct rq *rq, struct task *p)
{
	struct sched_entity *se = &p->se;
	s64 delta;

	if (cfs_policy(rq)) {
		cfs_hrtick_start(rq, p);
		return;
	}
	if (rq->cfs.h_nr_queued <= 1 || rq->curr != p) {
		eevdf__rq_hrtick_arm(rq, -1);
		return;
	}
	delta = (s64)se->slice -
		(s64)(se->sum_exec_runtime - se->prev_sum_exec_runtime);
	if (delta < 0) {
		resched_curr(rq);
		return;
	}
	eevdf__rq_hrtick_arm(rq, max_s64(delta, 10000));
}

/*
 * entity_tick() at every level of the running task's hierarchy: charge
 * the time, refresh the load and the group weight.  An hrtick expiry
 * ends the slice unconditionally; CFS also checks its slice here.
 */
void task_tick_fair(struct rq *rq, struct task *curr, bool queued)
{
	struct sched_entity *se = &curr->se;

	for_each_sched_entity(se)
	{
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		EEVDF_ASSERT(cfs_rq->curr == se);
		if (cfs_policy(rq)) {
			cfs_entity_tick(cfs_rq, se, queued);
			continue;
		}
		update_curr(cfs_rq);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		update_cfs_group(se);
		if (queued) {
			trace_entity(rq, EEVDF_RULE_HRTICK, se);
			resched_curr(rq);
		}
	}
}

/*
 * WAKEUP_DEADLINE (RFC): whatever the rule decided, the wakee preempts
 * only with an earlier virtual deadline than the running task's; an
 * overrunning (ineligible) curr with the earlier deadline keeps the CPU.
 */
static bool wakeup_deadline_vetoes(const struct rq *rq,
				   const struct sched_entity *pse,
				   const struct sched_entity *se)
{
	return sched_feat_rq(rq, WAKEUP_DEADLINE) && !entity_before(pse, se);
}

/* set_preempt_buddy(): an older buddy with an earlier deadline stays. */
static bool set_preempt_buddy(struct cfs_rq *cfs_rq, struct sched_entity *pse)
{
	if (cfs_rq->next && entity_before(cfs_rq->next, pse))
		return false;
	set_next_buddy(pse);
	return true;
}

/*
 * preempt_sync(): a sync wakeup preempts only when the wakee's deadline is
 * earlier and the waker has run for at least the migration cost (a
 * quarter of it when the wakeup already chose the CPU).
 */
static bool preempt_sync(struct rq *rq, unsigned int wake_flags,
			 struct sched_entity *pse, struct sched_entity *se)
{
	u64 threshold = rq->sp->migration_cost;
	s64 delta = (s64)(rq->clock - se->exec_start);

	if (wake_flags & WF_RQ_SELECTED)
		threshold >>= 2;
	return entity_before(pse, se) && delta >= (s64)threshold;
}

enum preempt_action {
	ACT_PICK,
	ACT_SHORT
};

/*
 * Wakeup preemption as in v6.19 (kernel-model.md section 7.3 with the rc7
 * revert) and 6.18.32+ (the same plus the 7.1 delayed-entity fixes,
 * kernel-6.18y.md section 3.1).
 */
static void check_preempt_6_19(struct rq *rq, struct task *p,
			       unsigned int wake_flags)
{
	struct sched_entity *se = &rq->curr->se, *pse = &p->se, *nse;
	enum preempt_action action = ACT_PICK;
	struct cfs_rq *cfs_rq;
	bool cse_is_idle, pse_is_idle;
	int why = EEVDF_RULE_WAKEUP_PREEMPT;

	find_matching_se(&se, &pse);
	cfs_rq = cfs_rq_of(se);
	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);
	if (cse_is_idle && !pse_is_idle) {
		action = ACT_SHORT;
		why = EEVDF_RULE_WAKEUP_IDLE_POLICY;
		goto preempt;
	}
	if (cse_is_idle != pse_is_idle) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_IDLE, p);
		return;
	}
	if (p->policy != EEVDF_POLICY_NORMAL) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_POLICY, p);
		return;
	}
	update_curr(cfs_rq);

	if (sched_feat_rq(rq, PREEMPT_SHORT) && pse->slice < se->slice) {
		action = ACT_SHORT;
		why = EEVDF_RULE_WAKEUP_SHORT;
		goto pick;
	}
	if ((wake_flags & WF_FORK) || pse->sched_delayed) {
		trace_wakeup(rq,
			     pse->sched_delayed ?
				     EEVDF_RULE_NO_PREEMPT_DELAYED :
				     EEVDF_RULE_NO_PREEMPT_FORK,
			     p);
		return;
	}
	if (sched_feat_rq(rq, NEXT_BUDDY) && set_preempt_buddy(cfs_rq, pse) &&
	    (wake_flags & WF_SYNC)) {
		why = EEVDF_RULE_WAKEUP_SYNC;
		if (preempt_sync(rq, wake_flags, pse, se))
			goto preempt;
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_SYNC, p);
		return;
	}
pick:
	if (rq->sp->profile->wakeup_pick_reaps) {
		/* Reaping a delayed choice moves V: pick again. */
		do {
			nse = pick_next_entity(rq, cfs_rq, action != ACT_SHORT);
		} while (!nse && cfs_rq->nr_queued);
	} else {
		nse = pick_eevdf(cfs_rq, action != ACT_SHORT);
	}
	if (nse == pse)
		goto preempt;
	trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_NOT_PICK, p);
	if (sched_feat_rq(rq, RUN_TO_PARITY))
		update_protect_slice(cfs_rq, se);
	return;
preempt:
	/* the idle-policy rule is not an EEVDF decision: no veto there */
	if (!(cse_is_idle && !pse_is_idle) &&
	    wakeup_deadline_vetoes(rq, pse, se)) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_DEADLINE, p);
		return;
	}
	if (action == ACT_SHORT)
		cancel_protect_slice(se);
	trace_wakeup(rq, why, p);
	resched_curr(rq);
}

/* Wakeup preemption as in 6.17 / 6.18.0 (kernel-model.md section 7.3). */
static void check_preempt_6_17(struct rq *rq, struct task *p,
			       unsigned int wake_flags)
{
	struct sched_entity *se = &rq->curr->se, *pse = &p->se;
	bool cse_is_idle, pse_is_idle, do_preempt_short;
	struct cfs_rq *cfs_rq;

	if (sched_feat_rq(rq, NEXT_BUDDY) && !(wake_flags & WF_FORK) &&
	    !pse->sched_delayed)
		set_next_buddy(pse);
	if (rq->need_resched) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_PENDING, p);
		return;
	}
	if (!sched_feat_rq(rq, WAKEUP_PREEMPTION)) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_OFF, p);
		return;
	}
	find_matching_se(&se, &pse);
	cfs_rq = cfs_rq_of(se);
	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);
	if (cse_is_idle && !pse_is_idle) {
		/* f553741ac8c0: an idle curr loses its protection */
		cancel_protect_slice(se);
		trace_wakeup(rq, EEVDF_RULE_WAKEUP_IDLE_POLICY, p);
		resched_curr(rq);
		return;
	}
	if (cse_is_idle != pse_is_idle) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_IDLE, p);
		return;
	}
	if (p->policy != EEVDF_POLICY_NORMAL) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_POLICY, p);
		return;
	}
	update_curr(cfs_rq);

	do_preempt_short = sched_feat_rq(rq, PREEMPT_SHORT) &&
			   pse->slice < se->slice;
	if (pick_eevdf(cfs_rq, !do_preempt_short) == pse) {
		if (wakeup_deadline_vetoes(rq, pse, se)) {
			trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_DEADLINE, p);
			return;
		}
		if (do_preempt_short)
			cancel_protect_slice(se);
		trace_wakeup(rq,
			     do_preempt_short ? EEVDF_RULE_WAKEUP_SHORT :
						EEVDF_RULE_WAKEUP_PREEMPT,
			     p);
		resched_curr(rq);
	} else {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_NOT_PICK, p);
		if (sched_feat_rq(rq, RUN_TO_PARITY) && do_preempt_short)
			update_protect_slice(cfs_rq, se);
	}
}

/*
 * Wakeup preemption as in 6.6-6.11 and 6.12-6.16 (85e511df3cec,
 * kernel-model.md 7.3): 6.12's do_preempt_short() cancels a protected
 * curr's window; then the wakee preempts when it is the EEVDF pick.
 */
static void check_preempt_6_12(struct rq *rq, struct task *p,
			       unsigned int wake_flags)
{
	struct sched_entity *se = &rq->curr->se, *pse = &p->se;
	bool v6_6 = rq->sp->profile->wakeup == WAKEUP_6_6;
	bool cse_is_idle, pse_is_idle, short_pre = false;
	struct cfs_rq *cfs_rq;

	if (sched_feat_rq(rq, NEXT_BUDDY) && !(wake_flags & WF_FORK) &&
	    !pse->sched_delayed)
		set_next_buddy(pse);
	if (rq->need_resched) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_PENDING, p);
		return;
	}
	if (v6_6) {
		/* 6.6 tests the two tasks' policies before the hierarchy */
		if (rq->curr->policy == EEVDF_POLICY_IDLE &&
		    p->policy != EEVDF_POLICY_IDLE) {
			trace_wakeup(rq, EEVDF_RULE_WAKEUP_IDLE_POLICY, p);
			resched_curr(rq);
			return;
		}
		if (p->policy != EEVDF_POLICY_NORMAL ||
		    !sched_feat_rq(rq, WAKEUP_PREEMPTION)) {
			trace_wakeup(rq,
				     p->policy != EEVDF_POLICY_NORMAL ?
					     EEVDF_RULE_NO_PREEMPT_POLICY :
					     EEVDF_RULE_NO_PREEMPT_OFF,
				     p);
			return;
		}
	} else if (!sched_feat_rq(rq, WAKEUP_PREEMPTION)) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_OFF, p);
		return;
	}
	find_matching_se(&se, &pse);
	cfs_rq = cfs_rq_of(se);
	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);
	if (cse_is_idle && !pse_is_idle) {
		trace_wakeup(rq, EEVDF_RULE_WAKEUP_IDLE_POLICY, p);
		resched_curr(rq);
		return;
	}
	if (cse_is_idle != pse_is_idle) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_IDLE, p);
		return;
	}
	if (p->policy != EEVDF_POLICY_NORMAL) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_POLICY, p);
		return;
	}
	update_curr(cfs_rq);
	/* do_preempt_short() */
	if (sched_feat_rq(rq, PREEMPT_SHORT) && pse->slice < se->slice &&
	    entity_eligible(cfs_rq, pse) &&
	    (entity_before(pse, se) || !entity_eligible(cfs_rq, se))) {
		short_pre = true;
		cancel_protect_slice(se);
	}
	if (pick_eevdf(cfs_rq, true) != pse) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_NOT_PICK, p);
	} else if (wakeup_deadline_vetoes(rq, pse, se)) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_DEADLINE, p);
	} else {
		trace_wakeup(rq,
			     short_pre ? EEVDF_RULE_WAKEUP_SHORT :
					 EEVDF_RULE_WAKEUP_PREEMPT,
			     p);
		resched_curr(rq);
	}
}

/*
 * wakeup_preempt() of the fair class.  The wakee and the running task
 * are compared where their hierarchies meet (find_matching_se()): a
 * wakee in another group competes with curr's group entity, at that
 * level's V, deadlines and slices.  A wakee in a throttled group cannot
 * run and is not looked at.
 */
void check_preempt_wakeup_fair(struct rq *rq, struct task *p,
			       unsigned int wake_flags)
{
	if (&rq->curr->se == &p->se)
		return;
	if (throttled_hierarchy(cfs_rq_of(&p->se))) {
		trace_wakeup(rq, EEVDF_RULE_NO_PREEMPT_THROTTLED, p);
		return;
	}
	if (cfs_policy(rq)) {
		cfs_check_preempt_wakeup(rq, p, wake_flags);
		return;
	}
	if (rq->sp->profile->wakeup == WAKEUP_6_12 ||
	    rq->sp->profile->wakeup == WAKEUP_6_6) {
		check_preempt_6_12(rq, p, wake_flags);
		return;
	}
	if (rq->sp->profile->wakeup == WAKEUP_6_17) {
		check_preempt_6_17(rq, p, wake_flags);
		return;
	}
	if (rq->need_resched || !sched_feat_rq(rq, WAKEUP_PREEMPTION)) {
		trace_wakeup(rq,
			     rq->need_resched ? EEVDF_RULE_NO_PREEMPT_PENDING :
						EEVDF_RULE_NO_PREEMPT_OFF,
			     p);
		return;
	}
	check_preempt_6_19(rq, p, wake_flags);
}

/*
 * sched_yield().  Up to 6.18.1 the yielder only pushed its deadline one
 * request later; from 6.18.2 (79104becf42b) an eligible yielder forfeits
 * the rest of its request (vruntime jumps to the deadline) before the new
 * request starts, so a yield costs it real service.
 */
void yield_task_fair(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (cfs_policy(rq)) {
		cfs_yield_task(rq);
		return;
	}
	if (rq->nr_running == 1)
		return;
	clear_buddies(cfs_rq, se);
	update_curr(cfs_rq);
	trace_decision(rq, EEVDF_RULE_YIELD, rq->curr);
	if (rq->sp->profile->yield_forfeit) {
		if (entity_eligible(cfs_rq, se)) {
			se->vruntime = se->deadline;
			se->deadline += calc_delta_fair(se->slice, se);
		}
		return;
	}
	se->deadline += calc_delta_fair(se->slice, se);
}

/*
 * set_user_nice() / sched_setattr(): the task is taken off the queue
 * keeping its lag and a relative deadline (DEQUEUE_SAVE), lag and deadline
 * are rescaled to the new weight, the slice changes (a custom slice is
 * clamped to 0.1..100 ms; 0 restores the base slice), and the task is put
 * back with ENQUEUE_RESTORE, which re-applies the lag against the others.
 * A delayed task keeps its delayed state.  Fields < 0 stay unchanged.
 */
static void prio_changed(struct rq *rq, struct task *p, bool queued,
			 bool running, u64 old_weight);

/*
 * The slice fields of sched_setattr(): 0 restores the base slice, a value
 * sets a custom one clamped to 0.1..100 ms, < 0 leaves them (and before
 * 6.12 there are no custom slices).
 */
static void set_slice(struct rq *rq, struct sched_entity *se, s64 slice)
{
	if (!rq->sp->profile->custom_slices)
		return;
	if (slice == 0) {
		se->custom_slice = false;
		se->slice = rq->sp->sysctl_sched_base_slice;
	} else if (slice > 0) {
		se->custom_slice = true;
		se->slice = (u64)max_s64(100000, min_s64(slice, 100000000));
	}
}

/*
 * v * old_weight / new_weight, truncated toward zero, as the kernel's
 * div_s64() of the product; we take the product in 128 bits, so that a
 * huge lag or deadline rescales rather than wraps.  When the product fits
 * in 64 bits the quotient is the same from a 64-bit division, which
 * avoids the 128-bit one (a libgcc call, __divti3: 0.3 % of a schbench
 * run's instructions, from its group entities' reweights).
 */
static s64 rescale(s64 v, u64 old_weight, u64 new_weight)
{
	s64 prod;

	if (old_weight <= INT64_MAX && new_weight <= INT64_MAX &&
	    !__builtin_mul_overflow(v, (s64)old_weight, &prod))
		return prod / (s64)new_weight;
	return (s64)(((s128)v * (s128)old_weight) / (s128)new_weight);
}

/*
 * reweight_eevdf() of 6.7-6.12 (eab03c23c2a1, kernel-model.md 5.5): a
 * queued entity keeps its place relative to V, v' = V - (V - v) w / w'
 * and d' = V + (d - V) w / w', which leaves V unchanged; off the queue
 * only the saved lag is rescaled.  curr stays curr: nothing is put or
 * set, so a 6.6-6.16 protection stash no longer matches the moved
 * deadline.
 */
static void reweight_eevdf_inplace(struct cfs_rq *cfs_rq,
				   struct sched_entity *se,
				   const struct load_weight *lw)
{
	bool queued = se->on_rq, running = cfs_rq->curr == se;
	u64 old_weight = se->load.weight, avruntime = 0;

	if (queued) {
		update_curr(cfs_rq);
		avruntime = avg_vruntime(cfs_rq);
		if (!running)
			__dequeue_entity(cfs_rq, se);
		update_load_sub(&cfs_rq->load, se->load.weight);
		if (avruntime != se->vruntime) {
			s64 vlag = (s64)(avruntime - se->vruntime);

			vlag = rescale(vlag, old_weight, lw->weight);
			se->vruntime = avruntime - (u64)vlag;
		}
		se->deadline = avruntime +
			       (u64)rescale((s64)(se->deadline - avruntime),
					    old_weight, lw->weight);
	} else {
		se->vlag = rescale(se->vlag, old_weight, lw->weight);
	}
	se->load = *lw;
	if (queued) {
		update_load_add(&cfs_rq->load, se->load.weight);
		if (!running)
			__enqueue_entity(cfs_rq, se);
		update_min_vruntime(cfs_rq);
	}
}

/*
 * reweight_entity() of 6.13+ (6d71a9c61604, c70fc32f4443): a queued
 * entity leaves with its (clamped) lag and a relative deadline, both are
 * rescaled to the new weight, and it is placed again.  6.18.17+
 * (ff38424030f9) carries a running entity's live protection window
 * across the same way, relative and rescaled.
 */
static void reweight_eevdf_place(struct cfs_rq *cfs_rq, struct sched_entity *se,
				 u64 weight)
{
	bool curr = cfs_rq->curr == se, rel_vprot = false;
	u64 old_weight = se->load.weight;
	s64 vprot = 0;

	if (se->on_rq) {
		update_curr(cfs_rq);
		update_entity_lag(cfs_rq, se);
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
		if (params(cfs_rq)->profile->protect_first_only && curr &&
		    protect_slice(se)) {
			vprot = (s64)(se->vprot - se->vruntime);
			rel_vprot = true;
		}
		cfs_rq->nr_queued--;
		if (!curr)
			__dequeue_entity(cfs_rq, se);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	se->vlag = rescale(se->vlag, old_weight, weight);
	if (se->rel_deadline)
		se->deadline = (u64)rescale((s64)se->deadline, old_weight,
					    weight);
	if (rel_vprot)
		vprot = rescale(vprot, old_weight, weight);
	se->load.weight = weight;
	se->load.inv_weight = 0;
	if (se->on_rq) {
		place_entity(cfs_rq, se, 0);
		if (rel_vprot)
			se->vprot = se->vruntime + (u64)vprot;
		update_load_add(&cfs_rq->load, se->load.weight);
		if (!curr)
			__enqueue_entity(cfs_rq, se);
		cfs_rq->nr_queued++;
		update_min_vruntime(cfs_rq);
	}
}

/*
 * CFS (6.1-6.5): only the weight changes; vruntime and the tree stay (the
 * avg_vruntime sums, which decide nothing under CFS, are kept exact).
 */
static void reweight_cfs(struct cfs_rq *cfs_rq, struct sched_entity *se,
			 u64 weight)
{
	bool in_tree = se->on_rq && se != cfs_rq->curr;

	if (se->on_rq) {
		if (cfs_rq->curr == se)
			cfs_update_curr(cfs_rq);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	if (in_tree)
		avg_vruntime_sub(cfs_rq, se);
	se->load.weight = weight;
	se->load.inv_weight = 0;
	if (in_tree)
		avg_vruntime_add(cfs_rq, se);
	if (se->on_rq)
		update_load_add(&cfs_rq->load, se->load.weight);
}

/*
 * reweight_entity() of a group entity (update_cfs_group()), by release,
 * with the PELT part common to all: the entity's load leaves its
 * queue's sums, is recomputed at the new weight and joins them again.
 */
void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, u64 weight)
{
	const struct eevdf_profile *prof = params(cfs_rq)->profile;
	unsigned long old_w = (unsigned long)scale_load_down(se->load.weight);

	if (prof->policy == POLICY_CFS) {
		reweight_cfs(cfs_rq, se, weight);
	} else if (prof->reweight_eevdf) {
		struct load_weight lw = { weight, 0 };

		reweight_eevdf_inplace(cfs_rq, se, &lw);
	} else {
		reweight_eevdf_place(cfs_rq, se, weight);
	}
	if (params(cfs_rq)->smp) {
		pelt_reweight(&cfs_rq->avg, &se->avg, old_w,
			      (unsigned long)scale_load_down(se->load.weight));
		lb_stats_dirty(rq_of(cfs_rq));
	}
}

/*
 * After a task's weight changed on its own queue, the group entities
 * above it take the new load and share at once (the kernel's full
 * dequeue and enqueue of the task's hierarchy does this on the way).
 */
void update_task_groups(struct task *p)
{
	struct sched_entity *se = p->se.parent;

	for_each_sched_entity(se)
	{
		update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
		update_cfs_group(se);
	}
}

static void reweight_eevdf_task(struct rq *rq, struct task *p, int nice,
				s64 slice, int policy)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);
	struct sched_entity *se = &p->se;
	bool queued = se->on_rq, running = rq->curr == p;
	u64 old_weight = se->load.weight;
	struct load_weight lw;

	if (policy >= 0)
		p->policy = (enum eevdf_policy)policy;
	eevdf__set_load_weight(&lw, nice, p->policy == EEVDF_POLICY_IDLE);
	reweight_eevdf_inplace(cfs_rq, se, &lw);
	p->nice = nice;
	set_slice(rq, se, slice);
	update_task_groups(p);
	prio_changed(rq, p, queued, running, old_weight);
}

void sched_change_fair(struct rq *rq, struct task *p, int nice, s64 slice,
		       int policy)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	bool queued = se->on_rq, running = rq->curr == p;
	u64 old_weight = se->load.weight;
	struct load_weight lw;

	if (cfs_policy(rq)) {
		cfs_sched_change(rq, p, nice, policy);
		return;
	}
	if (nice < -20)
		nice = p->nice;
	if (rq->sp->profile->reweight_eevdf) {
		reweight_eevdf_task(rq, p, nice, slice, policy);
		return;
	}
	if (queued)
		dequeue_entity(cfs_rq, se, DEQUEUE_SAVE);
	if (running)
		put_prev_entity(cfs_rq, se);

	if (policy >= 0)
		p->policy = (enum eevdf_policy)policy;
	eevdf__set_load_weight(&lw, nice, p->policy == EEVDF_POLICY_IDLE);
	se->vlag = rescale(se->vlag, old_weight, lw.weight);
	if (se->rel_deadline)
		se->deadline = (u64)rescale((s64)se->deadline, old_weight,
					    lw.weight);
	se->load = lw;
	p->nice = nice;
	set_slice(rq, se, slice);

	/* A delayed entity stays delayed: the runnable counts do not move. */
	if (queued)
		enqueue_entity(cfs_rq, se, ENQUEUE_RESTORE);
	if (running) {
		set_next_entity(cfs_rq, se, false);
		/*
		 * In 6.18.y vprot shares storage with vlag, which the dequeue
		 * just overwrote with the lag; not re-arming it at this
		 * non-pick (bcd74b2ffdd0) leaves a value below vruntime,
		 * i.e. no protection.  Model that outcome directly.
		 */
		if (rq->sp->profile->protect_first_only)
			se->vprot = se->vruntime;
	}
	update_task_groups(p);
	prio_changed(rq, p, queued, running, old_weight);
}

/* prio_changed_fair(): a lighter running task gives way; a queued one
 * may now preempt. */
static void prio_changed(struct rq *rq, struct task *p, bool queued,
			 bool running, u64 old_weight)
{
	if (!queued || rq->cfs.nr_queued == 1)
		return;
	if (running) {
		if (p->se.load.weight < old_weight)
			resched_curr(rq);
	} else if (rq->curr) {
		check_preempt_wakeup_fair(rq, p, 0);
	} else {
		resched_curr(rq);
	}
}

void reweight_task_fair(struct rq *rq, struct task *p, int nice)
{
	sched_change_fair(rq, p, nice, -1, -1);
}

/* The class ------------------------------------------------------------ */

/* balance_fair(): nothing queued at all: newly-idle balancing. */
static bool balance_fair(struct rq *rq, struct task *prev)
{
	(void)prev;
	if (rq->nr_running)
		return true;
	return rq->sp->smp && eevdf__balance_newidle(rq->sched, rq) != 0;
}

static int select_task_rq_fair_class(struct scheduler *sched, struct task *p,
				     int prev_cpu, int this_cpu,
				     unsigned int wake_flags)
{
	struct task *waker = sched->ttwu_waker > 0 ?
				     sched->tasks[sched->ttwu_waker - 1] :
				     NULL;

	return select_task_rq_fair(sched, p, prev_cpu, this_cpu, waker,
				   wake_flags);
}

/*
 * switched_from_fair() / switched_to_fair(): the task's load leaves the
 * CPU's averages when it becomes RT or DL and joins them again when it
 * comes back (detach_task_cfs_rq(), attach_task_cfs_rq()); a queued task
 * coming back may preempt, a running one is rescheduled.
 */
static void switched_from_fair(struct rq *rq, struct task *p)
{
	(void)rq;
	detach_entity_cfs_rq(&p->se);
}

static void switched_to_fair(struct rq *rq, struct task *p)
{
	attach_entity_cfs_rq(&p->se);
	if (!p->on_rq)
		return;
	if (rq->curr == p)
		resched_curr(rq);
	else
		eevdf__wakeup_preempt(rq, p, 0);
}

/* update_curr_fair(): the running task's own level only. */
static void update_curr_fair(struct rq *rq)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&rq->curr->se);

	if (cfs_policy(rq))
		cfs_update_curr(cfs_rq);
	else
		update_curr(cfs_rq);
}

const struct sched_class fair_sched_class = {
	.name = "fair",
	.rank = 1,
	.enqueue_task = enqueue_task_fair,
	.dequeue_task = dequeue_task_fair,
	.yield_task = yield_task_fair,
	.wakeup_preempt = check_preempt_wakeup_fair,
	.balance = balance_fair,
	.pick_task = pick_task_fair,
	.put_prev_task = put_prev_task_fair,
	.set_next_task = set_next_task_fair,
	.select_task_rq = select_task_rq_fair_class,
	.task_woken = NULL,
	.task_tick = task_tick_fair,
	.switched_from = switched_from_fair,
	.switched_to = switched_to_fair,
	.prio_changed = NULL,
	.update_curr = update_curr_fair,
};

/* Invariant checker ---------------------------------------------------- */

struct subtree_sums {
	s64 sum_w_vruntime;
	u64 sum_weight;
	u64 sum_w_slice;
	unsigned int nr;
	u64 load;
	/* the tasks below: queued, runnable, idle */
	unsigned int h_queued, h_runnable, h_idle;
};

/* What an entity adds to its queue's hierarchical task counts. */
static void add_h_counts(const struct sched_entity *se, struct subtree_sums *s)
{
	const struct cfs_rq *q = se->my_q;

	if (!q) {
		s->h_queued++;
		s->h_runnable += !se->sched_delayed;
		s->h_idle +=
			task_of((struct sched_entity *)(uintptr_t)se)->policy ==
			EEVDF_POLICY_IDLE;
		return;
	}
	s->h_queued += q->h_nr_queued;
	s->h_runnable += q->h_nr_runnable;
	s->h_idle += q->idle ? q->h_nr_queued : q->h_nr_idle;
}

static const char *check_subtree(const struct cfs_rq *cfs_rq,
				 const struct eevdf_rb_node *node,
				 struct subtree_sums *s)
{
	const struct sched_entity *se = node_se(node);
	const struct sched_entity *l = node_se(node->left);
	const struct sched_entity *r = node_se(node->right);
	/* the subtree's minimum and maximum slice start at its root's */
	u64 mv = se->vruntime, mins = se->slice, maxs = mins;
	const char *err;

	if (!se->on_rq)
		return "entity in the tree is not on_rq";
	/* CFS keys its entities by vruntime through the deadline field */
	if (cfs_policy(cfs_rq->rq) && se->deadline != se->vruntime)
		return "CFS tree key is not the entity's vruntime";
	if (se->vrel)
		return "a queued entity has a relative vruntime";
	if (se == cfs_rq->curr)
		return "curr is in the tree";
	if (l) {
		if (entity_before(se, l))
			return "tree order: left child has a later deadline";
		if ((err = check_subtree(cfs_rq, node->left, s)))
			return err;
		mv = min_vruntime(mv, l->min_vruntime);
		mins = min_u64(mins, l->min_slice);
		maxs = max_u64(maxs, l->max_slice);
	}
	if (r) {
		if (entity_before(r, se))
			return "tree order: right child has an earlier deadline";
		if ((err = check_subtree(cfs_rq, node->right, s)))
			return err;
		mv = min_vruntime(mv, r->min_vruntime);
		mins = min_u64(mins, r->min_slice);
		maxs = max_u64(maxs, r->max_slice);
	}
	if (mv != se->min_vruntime)
		return "augmented min_vruntime is stale";
	if (mins != se->min_slice || maxs != se->max_slice)
		return "augmented min_slice/max_slice is stale";
	s->sum_w_vruntime += mul_wrap(entity_key(cfs_rq, se),
				      (s64)scale_load_down(se->load.weight));
	s->sum_weight += scale_load_down(se->load.weight);
	s->sum_w_slice += scale_load_down(se->load.weight) * se->slice;
	s->nr++;
	s->load += se->load.weight;
	add_h_counts(se, s);
	return NULL;
}

const char *eevdf__cfs_rq_check(const struct cfs_rq *cfs_rq)
{
	const struct eevdf_rb_root *t = &cfs_rq->tasks_timeline;
	const struct sched_entity *curr = cfs_rq->curr;
	struct subtree_sums s = { 0, 0, 0, 0, 0, 0, 0, 0 };
	s64 avg, load, v;
	const char *err;

	if (eevdf__rb_check(t) < 0)
		return "red-black tree structure is broken";
	if (t->root && (err = check_subtree(cfs_rq, t->root, &s)))
		return err;
	if (s.sum_w_vruntime != cfs_rq->sum_w_vruntime ||
	    s.sum_weight != cfs_rq->sum_weight ||
	    s.sum_w_slice != cfs_rq->sum_w_slice)
		return "sum_w_vruntime/sum_weight/sum_w_slice do not match "
		       "the tree";
	if (curr && curr->on_rq) {
		s.nr++;
		s.load += curr->load.weight;
		add_h_counts(curr, &s);
	}
	if (s.nr != cfs_rq->nr_queued)
		return "nr_queued does not match the queued entities";
	if (s.h_queued != cfs_rq->h_nr_queued)
		return "h_nr_queued does not match the tasks queued below";
	if (s.h_runnable != cfs_rq->h_nr_runnable)
		return "h_nr_runnable does not match the non-delayed tasks "
		       "below";
	if (s.h_idle != cfs_rq->h_nr_idle)
		return "h_nr_idle does not match the idle tasks below";
	if (s.load != cfs_rq->load.weight)
		return "load.weight does not match the queued entities";
	/*
	 * Lag conservation: with V the floored mean, the lags sum to (-L, 0].
	 * This is a property of the sums and of V's rounding, not of the
	 * policy, so it holds under CFS too, whose decisions never read V.
	 * The EEVDF-only bounds (lag clamp, slice protection) are not checked
	 * here; tests/check_scenario.c checks the lag bound on EEVDF runs.
	 */
	avg_sums(cfs_rq, &avg, &load);
	if (load) {
		v = avg_vruntime_delta(cfs_rq);
		if (avg - mul_wrap(v, load) < 0 ||
		    avg - mul_wrap(v, load) >= load)
			return "lags do not sum to zero";
	}
	if (cfs_rq->next && !cfs_rq->next->on_rq)
		return "next buddy is not on the queue";
	if (cfs_rq->last && !cfs_rq->last->on_rq)
		return "last buddy is not on the queue";
	if (cfs_rq->skip && !cfs_rq->skip->on_rq)
		return "skip buddy is not on the queue";
	if (!cfs_policy(cfs_rq->rq) && (cfs_rq->last || cfs_rq->skip))
		return "EEVDF queue has a CFS buddy";
	if (curr && curr->on_rq && curr->vrel)
		return "the running entity has a relative vruntime";
	return NULL;
}

/*
 * Put an entity on the queue exactly as it is, without placement: for
 * tests that build a queue from the numbers of a worked example.
 */
void eevdf__cfs_rq_insert_raw(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	EEVDF_ASSERT(!se->on_rq);
	se->cfs_rq = cfs_rq;
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued++;
	cfs_rq->h_nr_queued++;
	if (!se->sched_delayed)
		cfs_rq->h_nr_runnable++;
	lb_stats_dirty(rq_of(cfs_rq));
	if (task_of(se)->policy == EEVDF_POLICY_IDLE)
		cfs_rq->h_nr_idle++;
	__enqueue_entity(cfs_rq, se);
	se->on_rq = true;
}
