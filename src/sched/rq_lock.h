/* SPDX-License-Identifier: MIT */
/*
 * Run-queue locks as contended resources: each CPU's rq->__lock, taken for
 * a hold time by every path that takes it in the kernel (schedule() on its
 * own CPU, a remote ttwu_do_activate() or ttwu_runnable(),
 * sched_ttwu_pending() on the target, load balancing, affinity changes).
 *
 * The kernel's raw spinlock is a queued spinlock: CPUs that find it held
 * wait in FIFO order (kernel/locking/qspinlock.c, a33fda35e3a7
 * "locking/qspinlock: Introduce a simple generic 4-byte queued spinlock").  Simulated time only moves forward and every
 * acquisition happens at the current time, so a FIFO queue is a timeline:
 * the lock is free from free_at on, an acquirer at now starts at
 * max(now, free_at), spins for the difference, and the next one queues
 * behind its hold.  Taking the lock also pulls the lock's cache line and
 * the rq data the holder touches from the CPU that last held it, a cost
 * that grows with the distance (inside an LLC, across LLCs, across
 * packages: the cost model's rq_remote_* entries).
 */
#ifndef EEVDF_RQ_LOCK_H
#define EEVDF_RQ_LOCK_H

#include "lib/internal.h"

struct rq;
struct scheduler;

struct rq_lock {
	eevdf_time free_at; /* the last queued holder lets go at this time */
	int last_cpu;	    /* whose cache has the lock and rq lines; -1 */
	u64 acquisitions;
	u64 contended; /* ... that found the lock held */
	u64 spin_ns;   /* time spent spinning on it, by every CPU */
	u64 spin_max;
	u64 hold_ns; /* time it was held, transfers included */
};

void eevdf__rq_lock_init(struct rq_lock *l);

/* What pulling the lock and rq lines last written on CPU from costs CPU
 * to: nothing on one core (SMT siblings share L1 and L2). */
u64 eevdf__rq_line_cost(const struct scheduler *sched, int from, int to);

/*
 * CPU cpu takes rq's lock now and holds it for hold ns of work: the time
 * the taker spends, spin + line transfer + hold, which the caller charges
 * to whatever the CPU was doing.  *spin, when not NULL, gets the spin.
 */
u64 eevdf__rq_lock(struct scheduler *sched, struct rq *rq, int cpu, u64 hold,
		   u64 *spin);

#endif
