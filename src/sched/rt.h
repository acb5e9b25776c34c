/* SPDX-License-Identifier: MIT */
/*
 * The RT class: SCHED_FIFO and SCHED_RR (kernel/sched/rt.c).  Per CPU a
 * FIFO list per priority with a bitmap of the busy ones, the pushable
 * list, push and pull between CPUs through cpupri (find_lowest_rq), and,
 * in the profiles that still have it by default, RT throttling
 * (sched_rt_runtime_us of every sched_rt_period_us).
 */
#ifndef EEVDF_RT_H
#define EEVDF_RT_H

#include "sched.h"

#define rt_sched_class eevdf__rt_sched_class
#define init_rt_rq eevdf__init_rt_rq
#define push_rt_tasks eevdf__push_rt_tasks
#define pull_rt_task eevdf__pull_rt_task
#define find_lowest_rq eevdf__find_lowest_rq
#define update_curr_rt eevdf__update_curr_rt

extern const struct sched_class rt_sched_class;

void init_rt_rq(struct rq *rq);

/* Move pushable RT tasks of rq to CPUs running less important work. */
void push_rt_tasks(struct rq *rq);
/* rq lowered its priority: pull RT tasks waiting elsewhere. */
void pull_rt_task(struct rq *rq);
/*
 * find_lowest_rq(): the CPU running the least important work that p may
 * use, preferring p's own CPU, then this_cpu, then the nearest domain;
 * -1 when there is none.
 */
int find_lowest_rq(struct scheduler *sched, struct task *p, int this_cpu);

void update_curr_rt(struct rq *rq);
/* Deadline tasks' runtime counts against the RT bandwidth too. */
void eevdf__rt_account_dl(struct rq *rq, u64 delta);

/* The machine's RT period timer fired (def_rt_bandwidth). */
void eevdf__rt_period_timer(struct scheduler *sched);
/* RT_PUSH_IPI: the push irq_work reached rq. */
void eevdf__rt_push_irq_work(struct scheduler *sched, struct rq *rq);

/* The rt_rq's own invariants; NULL when they hold. */
const char *eevdf__rt_rq_check(const struct rq *rq);

#endif
