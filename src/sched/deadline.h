/* SPDX-License-Identifier: MIT */
/*
 * The deadline class (kernel/sched/deadline.c): SCHED_DEADLINE tasks as
 * constant bandwidth servers scheduled earliest deadline first, global
 * admission control, push and pull between CPUs, and the fair server
 * (rq->fair_server), the per-CPU deadline entity that runs fair tasks when
 * RT work starves them, in the rules of each release (profile.h, enum
 * dl_server_rule).
 */
#ifndef EEVDF_DEADLINE_H
#define EEVDF_DEADLINE_H

#include "sched.h"

#define BW_SHIFT 20
#define BW_UNIT ((u64)1 << BW_SHIFT)
#define DL_SCALE 10

#define dl_sched_class eevdf__dl_sched_class
#define init_dl_rq eevdf__init_dl_rq
#define to_ratio eevdf__to_ratio
#define dl_server_update eevdf__dl_server_update
#define dl_server_start eevdf__dl_server_start
#define dl_server_stop eevdf__dl_server_stop
#define dl_server_update_idle_time eevdf__dl_server_update_idle_time
#define sched_dl_overflow eevdf__sched_dl_overflow
#define checkparam_dl eevdf__checkparam_dl

extern const struct sched_class dl_sched_class;

/* to_ratio(period, runtime): runtime / period << BW_SHIFT. */
u64 to_ratio(u64 period, u64 runtime);

void init_dl_rq(struct rq *rq);

/* The sched_attr of a SCHED_DEADLINE request, in ns (period 0: the
 * deadline). */
struct dl_attr {
	u64 runtime, deadline, period;
};

/*
 * __checkparam_dl(): NULL when the kernel accepts attr, else the rule it
 * breaks (sched_setattr() fails with EINVAL).
 */
const char *checkparam_dl(const struct dl_attr *attr);

/*
 * sched_dl_overflow(): admit p (new_bw of attr, or 0 when it leaves the
 * class) against the root domain's bandwidth, taking it into total_bw;
 * false when the kernel refuses with EBUSY.
 */
bool sched_dl_overflow(struct scheduler *sched, struct task *p, bool dl_policy,
		       const struct dl_attr *attr);

/*
 * Make p->dl p's own entity if it is still the shared no_dl (before p
 * first takes SCHED_DEADLINE); 0 or EEVDF_ENOMEM, p unchanged then.
 */
int eevdf__task_dl(struct scheduler *sched, struct task *p);
/* Free p's own entity, if it has one (the task is being freed). */
void eevdf__task_dl_free(struct scheduler *sched, struct task *p);
/* The shared entity of tasks that never took SCHED_DEADLINE. */
void eevdf__no_dl_init(struct scheduler *sched);
/* false when something wrote to the shared entity (invariant check) */
bool eevdf__no_dl_pristine(const struct scheduler *sched);

/* __setparam_dl(): the task's static deadline parameters. */
void eevdf__setparam_dl(struct task *p, const struct dl_attr *attr);

/* The admission limit: bw of the root domain, -1 when unlimited. */
s64 eevdf__dl_bw_limit(const struct scheduler *sched);

/* A new task created SCHED_DEADLINE: its first job starts now. */
void eevdf__dl_new_task(struct rq *rq, struct task *p);

/* The fair server (6.12+). */
void eevdf__fair_server_init(struct rq *rq);
void dl_server_update(struct sched_dl_entity *dl_se, s64 delta);
/* p: the task whose enqueue or dequeue starts or stops it, which pays
 * for it on an idle CPU (NULL: none) */
void dl_server_start(struct sched_dl_entity *dl_se, struct task *p);
void dl_server_stop(struct sched_dl_entity *dl_se, struct task *p);
/* The idle time up to now counts as the fair server's (defer mode). */
void dl_server_update_idle_time(struct rq *rq);

/* Balance callbacks: push waiting DL tasks away, pull earlier ones. */
void eevdf__push_dl_tasks(struct rq *rq);
void eevdf__pull_dl_task(struct rq *rq);

/* A deadline entity's replenishment timer fired. */
void eevdf__dl_timer(struct scheduler *sched, struct sched_dl_entity *dl_se);

/* An exiting DL task gives its bandwidth back (task_dead_dl). */
void eevdf__task_dead_dl(struct scheduler *sched, struct task *p);

const char *eevdf__dl_rq_check(const struct rq *rq);

#endif
