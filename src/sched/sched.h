/* SPDX-License-Identifier: MIT */
/*
 * The scheduler model's data: sched_entity, cfs_rq, rq and task, named and
 * laid out after the kernel's (include/linux/sched.h, kernel/sched/sched.h)
 * so that code reading them reads like kernel/sched/fair.c.
 *
 * Time: the simulated clock is int64 ns; the model's clocks and virtual
 * times are u64 as in the kernel, and virtual times are compared
 * wrap-safely ((s64)(a - b) < 0).  No floating point anywhere here.
 */
#ifndef EEVDF_SCHED_H
#define EEVDF_SCHED_H

#include "lib/internal.h"
#include "lib/eventq.h"
#include "feature.h"
#include "profile.h"
#include "lib/rbtree.h"
#include "pelt.h"
#include "lib/rng.h"
#include "weights.h"
#include "topology.h"
#include "machine/costs.h"
#include "rq_lock.h"

struct rq;
struct scheduler;

#define NO_LOOP SIZE_MAX

struct sched_entity {
	struct load_weight load;
	struct eevdf_rb_node run_node;
	u64 deadline;
	u64 min_vruntime; /* augmented: min vruntime in this subtree */
	u64 min_slice;	  /* augmented: min slice in this subtree */
	u64 max_slice;	  /* augmented: max slice in this subtree */

	bool on_rq;
	bool sched_delayed;
	bool rel_deadline;
	bool custom_slice;
	/*
	 * CFS only: vruntime is relative to the min_vruntime of the queue it
	 * left (or is forked onto), between a dequeue that was not a sleep
	 * (or a wakeup's migration) and the next enqueue, which adds the new
	 * queue's min_vruntime back (kernel-model.md 9.4).
	 */
	bool vrel;

	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	u64 vruntime;
	/*
	 * The kernel shares storage between vlag and vprot until 6.18.45; we
	 * keep two fields and model the one visible consequence (a running
	 * task's protection is lost when its attributes change) explicitly.
	 */
	s64 vlag;
	u64 vprot;
	u64 slice;
	struct cfs_rq *cfs_rq; /* the queue this entity is on (or was last) */
	struct sched_avg avg;  /* PELT (pelt.c) */
};

struct cfs_rq {
	struct load_weight load;
	unsigned int nr_queued; /* entities on the queue, delayed included */
	unsigned int h_nr_runnable; /* queued and not delayed */
	/*
	 * Sum over tree entities of (v_i - v0) * w_i and of w_i (unscaled
	 * weights): V = v0 + sum_w_vruntime / sum_weight, with curr added in
	 * explicitly when it is on the queue.
	 */
	s64 sum_w_vruntime;
	u64 sum_weight;
	u64 sum_w_slice;      /* sum of slice * w_i: the PLACE_FUDGE average */
	u64 v0;		      /* min_vruntime or zero_vruntime, per profile */
	struct sched_avg avg; /* PELT of the queue: cpu_load(), cpu_util() */
	struct eevdf_rb_root tasks_timeline;
	struct sched_entity *curr;
	struct sched_entity *next; /* next buddy */
	struct sched_entity *last; /* CFS: the task a wakee preempted */
	struct sched_entity *skip; /* CFS: the task that yielded */
	struct rq *rq;
};

/* Everything the model reads but never changes while running. */
struct sched_params {
	u64 features;
	const struct eevdf_profile *profile;
	u64 sysctl_sched_base_slice; /* scaled by CPU count, or as written */
	u64 normalized_base_slice;   /* NO_RUN_TO_PARITY quantum */
	/* CFS (cfs.c) tunables, scaled by CPU count like the base slice;
	 * sysctl_sched_base_slice is CFS's sysctl_sched_min_granularity */
	u64 sysctl_sched_latency;
	u64 sysctl_sched_wakeup_granularity;
	u64 sysctl_sched_idle_min_granularity; /* not scaled */
	u64 tick_nsec;	    /* TICK_NSEC = (1e9 + HZ/2) / HZ */
	u64 migration_cost; /* sysctl_sched_migration_cost */
	bool smp;	    /* more than one CPU */
};

enum task_state {
	TASK_NEW = 0,
	TASK_RUNNING = 1, /* runnable or running */
	TASK_SLEEPING = 2,
	TASK_DEAD = 3,
	/* Woken through a remote CPU's wake list; runnable when the IPI
	 * lands (TASK_WAKING in the kernel). */
	TASK_WAKING = 4,
};

/* Why a task's single event is queued. */
enum task_event_type {
	TEV_START = 1,	  /* creation (wake_up_new_task) */
	TEV_TIMER = 2,	  /* sleep expiry or a wait's timeout */
	TEV_BURST = 3,	  /* the current burst of CPU work ends, if on CPU */
	TEV_WAKELIST = 4, /* a queued remote wakeup reaches its CPU */
};

enum rq_event_type {
	REV_TICK = 10,
	REV_HRTICK = 11,
	REV_IDLE_EXIT = 12, /* an idle CPU that was handed work wakes up */
};

/* Event types 20 and up belong to the engine (engine/sim.h). */

/* Same-time order: a task's own step, then wakeups, then interrupts. */
enum event_class {
	EVC_TASK = 0,
	EVC_WAKEUP = 1,
	EVC_TICK = 2,
};

struct task_stats {
	u64 yields;
	u64 wakeups;	  /* ttwu of this task */
	u64 wakeups_idle; /* ... onto an idle CPU */
	u64 nvcsw;
	u64 nivcsw;
	u64 migrations;
	u64 wait_ns;
	u64 sleep_ns;
	u64 delay_count;
	u64 delay_sum;
	u64 delay_max;
	u64 delay_max_at;
};

struct task {
	struct sched_entity se; /* first: tests cast freely */
	int pid;
	int cpu;
	int nice;
	enum eevdf_policy policy;
	enum task_state state;
	bool on_rq;  /* task-level: queued (possibly delayed) */
	bool on_cpu; /* rq->curr == this */
	/* in the simulation's name arena: it outlives the task (sim.c) */
	const char *name;

	/* Program (program.c). */
	struct program *prog;
	s64 *locals;
	u64 *loop_left; /* per op index: iterations left of a LOOP */
	u32 pc;
	u32 op_phase;	  /* how far the op at pc has got */
	u32 burst;	  /* what the queued TEV_BURST ends */
	u32 burst_speed;  /* percent of nominal speed of the burst */
	u64 op_work_left; /* the op's RUN work or its cost still to do */
	eevdf_time spin_until;
	u64 overhead_left;    /* switch and wakeup costs still to burn */
	u64 xfer_left;	      /* exact recv: bytes still to come */
	bool needs_step;      /* on CPU and must execute its next op */
	bool is_thread;	      /* kind thread: cheaper switches */
	bool spinning;	      /* queued as a spinner on a spinlock */
	u32 spin_held;	      /* spinlocks held: no migration meanwhile */
	s64 op_stamp;	      /* wake_list: the splice's timestamp */
	bool op_begun;	      /* the op's operands were evaluated */
	bool partial;	      /* an exact recv read part of its bytes */
	bool exiting;	      /* paying for exit() at the end of its program */
	bool wait_intr;	      /* its wait ends early on a signal */
	bool in_handler;      /* running an on_signal handler */
	u32 sig_pending;      /* bit n: signal n is pending */
	u32 saved_pc;	      /* where the handler returns to */
	int parent_pid;	      /* the spawner, 0 for workload tasks */
	u32 live_children;    /* spawned and not yet exited */
	s32 join_set;	      /* the join set a joiner waits for */
	eevdf_time run_since; /* when the current burst started */

	/* Blocking (program.c, objects.c). */
	struct task *wait_next;
	u32 wait_kind; /* enum wait_kind */
	struct sim_object *wait_obj;
	int wake_result;
	struct sim_object *self;     /* binary semaphore, "<name>.self" */
	struct sim_object **written; /* channels written (end of file) */
	u32 nr_written, cap_written;

	int *cpus_allowed; /* ascending; nr 0 = every CPU */
	size_t nr_cpus_allowed;
	/* SMP (smp.c): wakeup placement history, the balancer's list. */
	int recent_used_cpu;
	/*
	 * The kernel's last_wakee pointer as a pid: pids are never reused,
	 * so comparing them compares tasks, even once a wakee has exited and
	 * its struct has been freed (a freed address can be handed out again).
	 */
	int last_wakee;
	u32 wakee_flips;
	u64 wakee_flip_decay_ts;	      /* jiffies */
	struct task *tasks_prev, *tasks_next; /* rq->cfs_tasks, MRU first */
	unsigned int wake_flags; /* of a wakeup in flight (TASK_WAKING) */
	int wakelist_waker;	 /* ... and its waker's pid, or -1 */
	bool wakelist_delayed; /* ... of a delayed task (TTWU_QUEUE_DELAYED) */
	eevdf_time start;
	eevdf_time exited_at;
	/*
	 * Lifetime (sim.c): references that may still read or write this task
	 * after it has exited: wake-list wakeups it sent that have not landed
	 * (taken and dropped by core.c), its children that have not started,
	 * the mutexes it holds and the lists it is on (by the engine).  A
	 * dead task is freed only once this is 0.
	 */
	u32 pins;
	bool reapable; /* dead, and past the exits sim.c keeps whole */

	struct eevdf_event ev;
	struct eevdf_rng rng;

	/* Accounting. */
	struct task_stats st;
	eevdf_time state_since; /* start of the current wait/sleep span */
	eevdf_time delay_since; /* perf atom: runnable since; -1 = none */
};

struct rq {
	int cpu;
	bool settle_pending; /* on the scheduler's settle ring */
	struct cfs_rq cfs;
	struct task *curr;	 /* NULL = idle */
	unsigned int nr_running; /* tasks on this rq, delayed included */
	bool need_resched;
	u64 clock; /* rq_clock_task: simulated now */
	const struct sched_params *sp;
	struct scheduler *sched;

	struct eevdf_event tick_ev;
	struct eevdf_event hrtick_ev;

	/* SMP (smp.c, balance.c) */
	struct task *cfs_tasks; /* head: most recently enqueued/picked */
	struct task *cfs_tasks_tail;
	unsigned int *nr_overloaded; /* the machine's count (root domain) */
	uint8_t *idle_slot;	     /* its byte of the machine's idle map */
	struct eevdf_event idle_exit_ev;
	unsigned int nr_wakelist; /* remote wakeups in flight to here */
	/* The IPI in flight (nr_ipi_batch > 0): when it lands and how many
	 * wake-list entries it carries; entries queued meanwhile join it,
	 * as llist_add() onto a non-empty list sends no IPI. */
	eevdf_time ipi_at;
	unsigned int nr_ipi_batch;
	unsigned int ipi_landed;   /* entries of that batch landed so far */
	eevdf_time awake_at;	   /* left its idle state at this time */
	struct rq_lock lock;	   /* rq->__lock (rq_lock.h) */
	u64 next_balance;	   /* jiffies */
	eevdf_time idle_stamp;	   /* when it last went idle */
	bool idle_stamped;	   /* idle_stamp is set (cleared on wakeup) */
	u64 avg_idle;		   /* ns: average idle span */
	u64 max_idle_balance_cost; /* ns */

	eevdf_time busy_since; /* start of the current busy span */
	eevdf_time idle_since;
	u64 busy_ns, idle_ns, switches, ticks;
};

/*
 * The task's own code, which lives above the scheduler (the engine's
 * program interpreter): the scheduler calls into it through these hooks
 * when a task's CPU time or its timer says so, as the kernel returns to
 * user space.  A hook is the only way the scheduler reaches the engine,
 * so the model can be linked and tested with stubs.
 */
struct sched_task_ops {
	/* p is on rq's CPU and must run its next operation */
	int (*step)(struct scheduler *sched, struct rq *rq, struct task *p);
	/* p's burst of CPU work (its TEV_BURST) is over */
	void (*burst_end)(struct scheduler *sched, struct task *p);
	/* p's sleep or wait timed out (its TEV_TIMER) */
	void (*timer)(struct scheduler *sched, struct task *p);
	/* p leaves or gets its CPU (context switch) */
	void (*switch_out)(struct scheduler *sched, struct task *p);
	void (*switch_in)(struct scheduler *sched, struct task *p);
	/* p's CPU changed speed (an SMT sibling went busy or idle) */
	int (*speed_change)(struct scheduler *sched, struct task *p);
	/* an interrupt on p's CPU took ns of it while p was current: p pays
	 * (the kernel accounts IRQ time to the task it interrupts) */
	void (*interrupt)(struct scheduler *sched, struct task *p, u64 ns);
};

/*
 * The whole machine as the scheduler sees it: every CPU's rq, the sched
 * domains, the idle map and NOHZ state (the kernel's per-CPU runqueues,
 * sched_domain tree and nohz struct), the pid table, the cost model, and
 * the clock and timers it reads and arms.  The engine embeds it in its
 * struct eevdf_sim and is the only one that moves the clock.
 */
struct scheduler {
	struct sched_params sp;
	struct eevdf_eventq evq; /* timers: ticks, hrticks, wakeups, ... */
	eevdf_time now;		 /* moved by the engine's event loop only */

	struct topology topo;
	u32 *core_mark;	   /* select_idle_cpu(): cores already scanned */
	uint8_t *idle_map; /* per CPU: available_idle_cpu() (rq_idle_update) */
	u32 mark_gen;
	u64 nohz_next_balance;	    /* jiffies: next NOHZ idle balance kick */
	unsigned int nr_overloaded; /* CPUs with more than one task queued */
	struct eevdf_smp_stats smp;
	struct rq *rqs;
	int nr_cpus;
	int hz;
	struct cost_table costs;

	/* Tasks by pid - 1 (pids are never reused). */
	struct task **tasks;
	size_t nr_tasks;
	size_t cap_tasks;

	eevdf_trace_fn trace;
	void *trace_ud;
	int ttwu_waker; /* pid of the task waking one now, -1: none (a timer) */
	u64 sis_probes; /* CPUs the current wakeup's placement looked at */
	const struct sched_task_ops *ops;

	/* CPUs whose state changed during the current event. */
	struct rq **settle; /* a ring of nr_cpus slots */
	size_t settle_head, nr_settle;

	int error; /* sticky: once a run failed, it stays failed */
	char errmsg[512];
};

/*
 * available_idle_cpu() as one byte per CPU, so that an LLC scan reads a
 * few cache lines instead of one run queue per CPU: call after curr,
 * nr_running or nr_wakelist change.
 */
static inline void rq_idle_update(struct rq *rq)
{
	*rq->idle_slot = !rq->curr && !rq->nr_running && !rq->nr_wakelist;
}

/*
 * rq->cfs_tasks upkeep: enqueue and pick move a task to the head (the
 * kernel's list_move(&se->group_node, &rq->cfs_tasks) in fair.c), so the
 * balancer, which takes from the tail, moves the coldest.
 */
static inline void cfs_tasks_del(struct rq *rq, struct task *p)
{
	if (p->tasks_prev)
		p->tasks_prev->tasks_next = p->tasks_next;
	else if (rq->cfs_tasks == p)
		rq->cfs_tasks = p->tasks_next;
	else
		return; /* not on the list */
	if (p->tasks_next)
		p->tasks_next->tasks_prev = p->tasks_prev;
	else
		rq->cfs_tasks_tail = p->tasks_prev;
	p->tasks_prev = p->tasks_next = NULL;
}

static inline void cfs_tasks_move_head(struct rq *rq, struct task *p)
{
	cfs_tasks_del(rq, p);
	p->tasks_next = rq->cfs_tasks;
	if (rq->cfs_tasks)
		rq->cfs_tasks->tasks_prev = p;
	else
		rq->cfs_tasks_tail = p;
	rq->cfs_tasks = p;
}

/* The public name of a task state (trace events, stats). */
static inline enum eevdf_task_state eevdf__public_state(enum task_state s)
{
	switch (s) {
	case TASK_NEW:
		return EEVDF_TASK_NEW;
	case TASK_RUNNING:
	case TASK_WAKING:
		return EEVDF_TASK_RUNNING;
	case TASK_SLEEPING:
		return EEVDF_TASK_SLEEPING;
	case TASK_DEAD:
		return EEVDF_TASK_DEAD;
	}
	return EEVDF_TASK_DEAD;
}

static inline struct task *task_of(struct sched_entity *se)
{
	return container_of(se, struct task, se);
}

static inline struct rq *rq_of(struct cfs_rq *cfs_rq)
{
	return cfs_rq->rq;
}

#define sched_feat_rq(rq, name) sched_feat((rq)->sp->features, name)

#endif
