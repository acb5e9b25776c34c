/* SPDX-License-Identifier: MIT */
/*
 * Readers of the model's state and the observer of its decisions
 * (sched_state.h, eevdf/state.h).  Nothing here changes the model: V is
 * avg_vruntime_peek(), eligibility entity_eligible(), protection
 * protect_slice(), and the pick is the model's own pick_eevdf() (or the
 * CFS policy's cfs_pick_next_entity()), which only read.
 */
#include <string.h>

#include "sched_state.h"
#include "cfs.h"
#include "fair.h"

/* u64 wrap-around products (the kernel's -fno-strict-overflow). */
static inline s64 mul_wrap(s64 a, s64 b)
{
	return (s64)((u64)a * (u64)b);
}

static inline bool eevdf_policy(const struct rq *rq)
{
	return rq->sp->profile->policy != POLICY_CFS;
}

/* An entity's pid: the task's, 0 for a group's entity, -1 for none. */
static inline int pid_of(const struct sched_entity *se)
{
	if (!se)
		return -1;
	return entity_is_task(se) ?
		       task_of((struct sched_entity *)(uintptr_t)se)->pid :
		       0;
}

static inline const char *group_of(const struct cfs_rq *cfs_rq)
{
	return cfs_rq && cfs_rq->tg ? cfs_rq->tg->path : "/";
}

/* Readers -------------------------------------------------------------- */

/* An entity's state relative to its own run queue. */
static void entity_state(const struct sched_entity *se, int pid, int cpu,
			 bool running_below, u64 now,
			 struct eevdf_entity_state *out)
{
	const struct cfs_rq *cfs_rq = se->cfs_rq;
	u64 w = scale_load_down(se->load.weight);

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	out->cpu = cpu;
	out->fair = true;
	out->group = group_of(cfs_rq);
	out->my_group = se->my_q ? group_of(se->my_q) : NULL;
	out->depth = se->depth;
	out->eevdf = eevdf_policy(cfs_rq->rq);
	out->on_rq = se->on_rq;
	out->running = cfs_rq->curr == se && se->on_rq;
	out->delayed = se->sched_delayed;
	out->custom_slice = se->custom_slice;
	out->next_buddy = cfs_rq->next == se;
	out->weight = w;
	out->vruntime = se->vruntime;
	out->deadline = se->deadline;
	out->vprot = se->vprot;
	out->slice = se->slice;
	out->V = avg_vruntime_peek(cfs_rq);
	out->sum_exec_runtime = se->sum_exec_runtime;
	if (cfs_rq->curr == se && running_below && now > se->exec_start)
		out->curr_exec_ns = (eevdf_time)(now - se->exec_start);
	if (se->on_rq) {
		out->vlag = (s64)(out->V - se->vruntime);
		out->deadline_v = (s64)(se->deadline - out->V);
		out->eligible = entity_eligible(cfs_rq, se);
		out->protected_slice = out->running && out->eevdf &&
				       protect_slice(se);
	} else {
		out->vlag = se->vlag;
	}
	out->lag = mul_wrap(out->vlag, (s64)w);
}

void eevdf__task_state(const struct task *p, u64 now,
		       struct eevdf_entity_state *out)
{
	const struct sched_entity *se = &p->se;

	if (p->sched_class != &fair_sched_class || !se->cfs_rq ||
	    p->state == TASK_NEW || p->state == TASK_DEAD) {
		memset(out, 0, sizeof(*out));
		out->pid = p->pid;
		out->cpu = p->cpu;
		out->group = p->sched_task_group ? p->sched_task_group->path :
						   "/";
		return;
	}
	entity_state(se, p->pid, p->cpu, p->on_cpu, now, out);
}

void eevdf__rq_state(const struct rq *rq, struct eevdf_rq_state *out)
{
	const struct cfs_rq *cfs_rq = &rq->cfs;

	memset(out, 0, sizeof(*out));
	out->cpu = rq->cpu;
	out->curr_pid = rq->curr ? rq->curr->pid : -1;
	out->fair_curr_pid = cfs_rq->curr && cfs_rq->curr->on_rq ?
				     pid_of(cfs_rq->curr) :
				     -1;
	out->next_pid = pid_of(cfs_rq->next);
	out->eevdf = eevdf_policy(rq);
	out->nr_running = rq->nr_running;
	out->nr_queued = cfs_rq->nr_queued;
	out->h_nr_queued = cfs_rq->h_nr_queued;
	out->h_nr_runnable = cfs_rq->h_nr_runnable;
	out->nr_delayed = cfs_rq->h_nr_queued - cfs_rq->h_nr_runnable;
	out->V = avg_vruntime_peek(cfs_rq);
	out->v0 = cfs_rq->v0;
	out->load = scale_load_down(cfs_rq->load.weight);
	out->min_slice = cfs_rq->nr_queued ? cfs_rq_min_slice(cfs_rq) : 0;
	out->clock = (eevdf_time)rq->clock;
}

struct walk {
	const struct rq *rq;
	int *pids;
	struct eevdf_entity_state *states;
	size_t max, nr;
	u64 now;
	bool all; /* groups' entities too */
};

static void walk_queue(const struct cfs_rq *cfs_rq, struct walk *w);

static void visit(const struct sched_entity *se, struct walk *w)
{
	bool task = entity_is_task(se);

	if (w->all || task) {
		if (w->nr < w->max && w->states)
			entity_state(se, pid_of(se), w->rq->cpu,
				     w->rq->curr != NULL, w->now,
				     &w->states[w->nr]);
		else if (w->nr < w->max && w->pids)
			w->pids[w->nr] = pid_of(se);
		w->nr++;
	}
	if (!task)
		walk_queue(se->my_q, w);
}

static void walk_queue(const struct cfs_rq *cfs_rq, struct walk *w)
{
	const struct eevdf_rb_node *n;

	if (cfs_rq->curr && cfs_rq->curr->on_rq)
		visit(cfs_rq->curr, w);
	for (n = eevdf__rb_first(&cfs_rq->tasks_timeline); n;
	     n = eevdf__rb_next(n))
		visit(container_of(n, struct sched_entity, run_node), w);
}

int eevdf__rq_walk(const struct rq *rq, int *pids,
		   struct eevdf_entity_state *states, size_t max, u64 now,
		   bool all)
{
	struct walk w = { rq, pids, states, max, 0, now, all };

	walk_queue(&rq->cfs, &w);
	return (int)w.nr;
}

/*
 * The pick the next __schedule() would make on rq, without making it:
 * down from the root, each level's pick_next_entity() pick-side buddy
 * (before 6.18.32 it is tested ahead of pick_eevdf()) or pick_eevdf()
 * with protection, whose rule the observer notes; CFS's own pick.
 * Nothing is reaped, throttled, put or set: a delayed entity ends the
 * walk where the kernel would reap it and pick again.
 */
int eevdf__rq_pick(struct rq *rq, struct eevdf_pick_level *out, size_t max)
{
	struct scheduler *sched = rq->sched;
	struct sched_obs local, *saved = sched->obs;
	const struct eevdf_profile *pr = rq->sp->profile;
	struct cfs_rq *cfs_rq = &rq->cfs;
	int saved_rule = 0, saved_pid = -1;
	const char *saved_group = NULL;
	size_t n = 0;

	memset(&local, 0, sizeof(local));
	if (saved) {
		saved_rule = saved->last_pick_rule;
		saved_pid = saved->last_pick_pid;
		saved_group = saved->last_pick_group;
	} else {
		sched->obs = &local;
	}
	while (cfs_rq && cfs_rq->nr_queued) {
		struct sched_entity *se, *curr = cfs_rq->curr;

		if (curr && !curr->on_rq)
			curr = NULL;
		if (!eevdf_policy(rq)) {
			se = cfs_pick_next_entity(cfs_rq, curr);
		} else if (pr->wakeup != WAKEUP_6_19 &&
			   (pr->wakeup <= WAKEUP_6_12 ?
				    sched_feat_rq(rq, NEXT_BUDDY) :
				    sched_feat_rq(rq, PICK_BUDDY)) &&
			   cfs_rq->next &&
			   entity_eligible(cfs_rq, cfs_rq->next)) {
			se = pick_rule(cfs_rq, cfs_rq->next,
				       EEVDF_RULE_PICK_BUDDY);
		} else {
			se = pick_eevdf(cfs_rq, true);
		}
		if (!se)
			break;
		if (n < max)
			out[n] = (struct eevdf_pick_level){
				group_of(cfs_rq), pid_of(se),
				se->my_q ? group_of(se->my_q) : NULL,
				(enum eevdf_rule)sched->obs->last_pick_rule
			};
		n++;
		if (se->sched_delayed)
			break;
		cfs_rq = se->my_q;
	}
	if (saved) {
		saved->last_pick_rule = saved_rule;
		saved->last_pick_pid = saved_pid;
		saved->last_pick_group = saved_group;
	} else {
		sched->obs = NULL;
	}
	return (int)n;
}

/* The observer --------------------------------------------------------- */

/*
 * Observing stops for good once nothing is asked for and no trace
 * callback of ours is on the stack (a callback may turn it off).
 */
void eevdf__obs_reap(struct scheduler *sched)
{
	struct sched_obs *o = sched->obs;

	if (o && !o->detail && !o->in_trace && !o->nr_touched)
		eevdf__obs_free(sched);
}

int eevdf__obs_set(struct scheduler *sched, unsigned int detail)
{
	struct sched_obs *o = sched->obs;

	if (!detail) {
		if (o) {
			o->detail = 0;
			eevdf__obs_reap(sched);
		}
		return 0;
	}
	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return EEVDF_ENOMEM;
		o->dirty = calloc((size_t)sched->nr_cpus, sizeof(*o->dirty));
		o->touched = calloc((size_t)sched->nr_cpus,
				    sizeof(*o->touched));
		if (!o->dirty || !o->touched) {
			free(o->dirty);
			free(o->touched);
			free(o);
			return EEVDF_ENOMEM;
		}
		o->last_pick_pid = -1;
		sched->obs = o;
	}
	o->detail = detail;
	return 0;
}

void eevdf__obs_free(struct scheduler *sched)
{
	struct sched_obs *o = sched->obs;

	if (!o)
		return;
	free(o->dirty);
	free(o->touched);
	free(o);
	sched->obs = NULL;
}

void eevdf__obs_pick(const struct cfs_rq *cfs_rq, const struct sched_entity *se,
		     int rule)
{
	struct sched_obs *o = cfs_rq->rq->sched->obs;

	o->last_pick_rule = rule;
	o->last_pick_pid = pid_of(se);
	o->last_pick_group = group_of(cfs_rq);
}

static void emit(struct rq *rq, int rule, int pid, const char *group,
		 int pick_pid, int pick_rule)
{
	struct scheduler *sched = rq->sched;
	struct eevdf_trace_event ev;

	if (!(sched->obs->detail & EEVDF_DETAIL_DECISIONS) || !sched->trace)
		return;
	sched->obs->in_trace++;
	memset(&ev, 0, sizeof(ev));
	ev.kind = EEVDF_TRACE_DECISION;
	ev.time = sched->now;
	ev.cpu = rq->cpu;
	ev.pid = pid;
	ev.prev_pid = rq->curr ? rq->curr->pid : -1;
	ev.orig_cpu = -1;
	ev.rule = rule;
	ev.pick_pid = pick_pid;
	ev.pick_rule = pick_rule;
	ev.group = group;
	sched->trace(sched->trace_ud, &ev);
	sched->obs->in_trace--;
	eevdf__obs_reap(sched);
}

void eevdf__obs_decision(struct rq *rq, int rule, const struct task *p)
{
	emit(rq, rule, p ? p->pid : -1, p ? group_of(p->se.cfs_rq) : NULL, -1,
	     EEVDF_RULE_NONE);
}

void eevdf__obs_entity(struct rq *rq, int rule, const struct sched_entity *se)
{
	emit(rq, rule, pid_of(se), group_of(se->cfs_rq), -1, EEVDF_RULE_NONE);
}

/*
 * A wakeup's outcome, with the pick it consulted: a denial because the
 * pick kept a protected curr is RUN_TO_PARITY's, and says so.
 */
void eevdf__obs_wakeup(struct rq *rq, int rule, const struct task *p)
{
	const struct sched_obs *o = rq->sched->obs;
	bool consulted = rule == EEVDF_RULE_WAKEUP_PREEMPT ||
			 rule == EEVDF_RULE_WAKEUP_SHORT ||
			 rule == EEVDF_RULE_NO_PREEMPT_NOT_PICK ||
			 rule == EEVDF_RULE_NO_PREEMPT_DEADLINE;

	if (rule == EEVDF_RULE_NO_PREEMPT_NOT_PICK &&
	    o->last_pick_rule == EEVDF_RULE_PICK_PROTECTED)
		rule = EEVDF_RULE_NO_PREEMPT_PROTECTED;
	if (consulted)
		emit(rq, rule, p->pid, o->last_pick_group, o->last_pick_pid,
		     o->last_pick_rule);
	else
		emit(rq, rule, p->pid, group_of(p->se.cfs_rq), -1,
		     EEVDF_RULE_NONE);
}

/* __schedule()'s pick: the fair class's rule, or another class's task. */
void eevdf__obs_picked(struct rq *rq, const struct task *next)
{
	const struct sched_obs *o = rq->sched->obs;
	int rule;

	if (!next)
		rule = EEVDF_RULE_PICK_IDLE;
	else if (next->sched_class != &fair_sched_class)
		rule = EEVDF_RULE_PICK_CLASS;
	else
		rule = o->last_pick_rule;
	emit(rq, rule, next ? next->pid : -1,
	     next && next->sched_class == &fair_sched_class ?
		     o->last_pick_group :
		     NULL,
	     -1, EEVDF_RULE_NONE);
}

void eevdf__obs_touch(struct scheduler *sched, int cpu)
{
	struct sched_obs *o = sched->obs;

	if (!(o->detail & EEVDF_DETAIL_STATE) || o->dirty[cpu])
		return;
	o->dirty[cpu] = 1;
	o->touched[o->nr_touched++] = cpu;
}

void eevdf__obs_flush(struct scheduler *sched)
{
	struct sched_obs *o = sched->obs;
	struct eevdf_trace_event ev;

	o->in_trace++;
	for (size_t i = 0; i < o->nr_touched; i++) {
		int cpu = o->touched[i];

		o->dirty[cpu] = 0;
		if (!sched->trace || !(o->detail & EEVDF_DETAIL_STATE))
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.kind = EEVDF_TRACE_STATE;
		ev.time = sched->now;
		ev.cpu = cpu;
		ev.pid = -1;
		ev.prev_pid = -1;
		ev.orig_cpu = -1;
		ev.pick_pid = -1;
		sched->trace(sched->trace_ud, &ev);
	}
	o->nr_touched = 0;
	o->in_trace--;
	eevdf__obs_reap(sched);
}
