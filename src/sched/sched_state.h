/* SPDX-License-Identifier: MIT */
/*
 * Seeing inside the model (eevdf/state.h): readers of an entity's and a
 * run queue's state, and the observer that turns the model's decisions
 * into trace events with the rule that made them.
 *
 * The readers only read.  The observer is reached through one pointer,
 * sched->obs, NULL unless someone asked for decisions or state
 * (eevdf_sim_trace_detail()); every hook the model calls tests it first,
 * so a simulation nobody observes does exactly the work it did before the
 * hooks existed.
 */
#ifndef EEVDF_SCHED_STATE_H
#define EEVDF_SCHED_STATE_H

#include "group.h"

struct sched_obs {
	unsigned int detail; /* enum eevdf_trace_detail */
	/* what the last pick_eevdf() (or CFS pick) chose, why, and where:
	 * the pid, 0 for a group's entity */
	int last_pick_rule;
	int last_pick_pid;
	const char *last_pick_group;
	/* EEVDF_DETAIL_STATE: CPUs whose queue changed in this event, in
	 * the order they were touched */
	uint8_t *dirty;
	int *touched;
	size_t nr_touched;
	unsigned int in_trace; /* our trace callbacks on the stack */
};

/* Hook bodies (sched_state.c); the inline wrappers below are the hooks. */
void eevdf__obs_pick(const struct cfs_rq *cfs_rq, const struct sched_entity *se,
		     int rule);
void eevdf__obs_decision(struct rq *rq, int rule, const struct task *p);
void eevdf__obs_entity(struct rq *rq, int rule, const struct sched_entity *se);
void eevdf__obs_wakeup(struct rq *rq, int rule, const struct task *p);
void eevdf__obs_picked(struct rq *rq, const struct task *next);
void eevdf__obs_touch(struct scheduler *sched, int cpu);
void eevdf__obs_flush(struct scheduler *sched);

/*
 * pick_eevdf() returns se because of rule: note it (a wakeup's decision
 * and the schedule's pick report it).  Returns se, so that a pick can
 * end in "return pick_rule(cfs_rq, se, RULE);".
 */
static inline struct sched_entity *pick_rule(const struct cfs_rq *cfs_rq,
					     struct sched_entity *se, int rule)
{
	if (cfs_rq->rq->sched->obs)
		eevdf__obs_pick(cfs_rq, se, rule);
	return se;
}

/* A decision on rq by rule about task p (NULL: none). */
static inline void trace_decision(struct rq *rq, int rule, const struct task *p)
{
	if (rq->sched->obs)
		eevdf__obs_decision(rq, rule, p);
}

/* A decision on rq by rule about an entity, a task's or a group's. */
static inline void trace_entity(struct rq *rq, int rule,
				const struct sched_entity *se)
{
	if (rq->sched->obs)
		eevdf__obs_entity(rq, rule, se);
}

/* The outcome of a wakeup-preemption check of wakee p on rq. */
static inline void trace_wakeup(struct rq *rq, int rule, const struct task *p)
{
	if (rq->sched->obs)
		eevdf__obs_wakeup(rq, rule, p);
}

/* __schedule() on rq picked next (NULL: idle). */
static inline void trace_picked(struct rq *rq, const struct task *next)
{
	if (rq->sched->obs)
		eevdf__obs_picked(rq, next);
}

/* cpu's queue changed; its state is reported when the event is over. */
static inline void trace_touch(struct scheduler *sched, int cpu)
{
	if (sched->obs)
		eevdf__obs_touch(sched, cpu);
}

/* The event is over: one STATE trace event per touched CPU. */
static inline void trace_state_flush(struct scheduler *sched)
{
	if (sched->obs)
		eevdf__obs_flush(sched);
}

/* Readers (eevdf/state.h's contract). */
void eevdf__task_state(const struct task *p, u64 now,
		       struct eevdf_entity_state *out);
void eevdf__rq_state(const struct rq *rq, struct eevdf_rq_state *out);
/* The queued entities of rq from the root down (eevdf_sim_rq_entities()):
 * how many tasks, or with all how many entities, and their pids or
 * states up to max. */
int eevdf__rq_walk(const struct rq *rq, int *pids,
		   struct eevdf_entity_state *states, size_t max, u64 now,
		   bool all);
/* The pick of rq's fair queues now, level by level, without side
 * effects: how many levels (written up to max). */
int eevdf__rq_pick(struct rq *rq, struct eevdf_pick_level *out, size_t max);

/* Start or stop observing: 0 or EEVDF_ENOMEM. */
int eevdf__obs_set(struct scheduler *sched, unsigned int detail);
/* Free the observer once it is off and unused (see eevdf__obs_set()). */
void eevdf__obs_reap(struct scheduler *sched);
/* Free it now (the simulation's end). */
void eevdf__obs_free(struct scheduler *sched);

#endif
