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
struct task;
struct sched_obs;
struct task_group;

#define NO_LOOP SIZE_MAX

/* Flags of the class hooks, named as kernel/sched/sched.h. */
/* enqueue flags */
#define ENQUEUE_WAKEUP 0x01u
#define ENQUEUE_RESTORE 0x02u /* == DEQUEUE_SAVE */
#define ENQUEUE_MOVE 0x04u    /* == DEQUEUE_MOVE */
#define ENQUEUE_MIGRATED 0x08u
#define ENQUEUE_DELAYED 0x10u
#define ENQUEUE_HEAD 0x20u	/* RT: to the head of its list */
#define ENQUEUE_REPLENISH 0x40u /* DL: a new period */
#define ENQUEUE_INITIAL 0x80u	/* a new task's first enqueue */

/* dequeue flags */
#define DEQUEUE_SLEEP 0x01u
#define DEQUEUE_SAVE 0x02u
#define DEQUEUE_MOVE 0x04u
#define DEQUEUE_SPECIAL 0x08u
#define DEQUEUE_DELAYED 0x10u

/* wake flags */
#define WF_TTWU 0x01u /* a real wakeup (try_to_wake_up) */
#define WF_FORK 0x02u /* wake_up_new_task */
#define WF_SYNC 0x04u /* the waker is about to sleep */
#define WF_MIGRATED 0x08u
#define WF_RQ_SELECTED 0x10u /* select_task_rq() ran */

/*
 * Kernel priorities (include/linux/sched/prio.h): a lower prio is more
 * important.  SCHED_DEADLINE tasks run at -1, SCHED_FIFO and SCHED_RR at
 * MAX_RT_PRIO - 1 - rt_priority (0..98 for rt_priority 99..1), fair tasks
 * at DEFAULT_PRIO + nice (100..139).
 */
#define MAX_RT_PRIO 100
#define MAX_DL_PRIO 0
#define DEFAULT_PRIO (MAX_RT_PRIO + 20)

/*
 * A scheduling class (kernel/sched/sched.h struct sched_class): the hooks
 * core.c calls for a task of the class, and the class's rank in the pick
 * order (stop > dl > rt > fair > idle: higher rank first).  The classes
 * are const tables in their files (fair.c, rt.c, deadline.c); a task
 * points at its own (task->sched_class).  The stop class (stop_machine's
 * migration threads) and the idle class (rq->curr == NULL here) run no
 * simulated work and have no table.
 */
struct sched_class {
	const char *name; /* "dl", "rt", "fair" */
	int rank;
	void (*enqueue_task)(struct rq *rq, struct task *p, unsigned int flags);
	/* false when the task stays queued (a delayed fair entity) */
	bool (*dequeue_task)(struct rq *rq, struct task *p, unsigned int flags);
	void (*yield_task)(struct rq *rq);
	/* p, just queued on rq, is of this class as rq->curr is */
	void (*wakeup_preempt)(struct rq *rq, struct task *p,
			       unsigned int wake_flags);
	/* before a pick, prev being of this class or above: pull work;
	 * true when this class or one above has a task to run */
	bool (*balance)(struct rq *rq, struct task *prev);
	struct task *(*pick_task)(struct rq *rq);
	void (*put_prev_task)(struct rq *rq, struct task *p, struct task *next);
	void (*set_next_task)(struct rq *rq, struct task *p, bool first);
	int (*select_task_rq)(struct scheduler *sched, struct task *p,
			      int prev_cpu, int this_cpu,
			      unsigned int wake_flags);
	void (*task_woken)(struct rq *rq, struct task *p);
	void (*task_tick)(struct rq *rq, struct task *p, bool queued);
	void (*switched_from)(struct rq *rq, struct task *p);
	void (*switched_to)(struct rq *rq, struct task *p);
	void (*prio_changed)(struct rq *rq, struct task *p, int oldprio);
	void (*update_curr)(struct rq *rq);
};

struct sched_entity {
	/*
	 * What a walk of the tree reads of every node it passes (the links
	 * with the colour packed in, the deadline that orders it, the
	 * aggregates the pick and the augment callback read of a child, and
	 * the vruntime and slice the augment callback reads of the node
	 * itself, the vruntime also the pick's eligibility test) fills
	 * exactly the first 64 bytes: a task is 64-byte aligned (the engine
	 * allocates it so and se is its first member), so a node costs one
	 * cache line, which is what a queue of a thousand tasks is bound by.
	 *
	 * The slice bounds fit 32 bits because every slice does: the
	 * base slice is at most 100 ms (eevdf_sim_new() checks a written
	 * one; the profiles' are a few ms), custom slices are clamped to
	 * 100 ms as sched_setattr() does, and a group entity's slice is one
	 * of those.  The kernel's are u64; the minimum and maximum of the
	 * same values are the same numbers.  With u64 bounds the slice sat
	 * in the second line, read by every node the augment callback
	 * passes: 3.7 second lines an event of 12 800 tasks on 64 CPUs
	 * (lackey).  Swapping slice with max_slice instead made it 5.7, the
	 * children off the path then read in their second lines too.
	 */
	struct eevdf_rb_node run_node;
	u64 deadline;
	u64 min_vruntime; /* augmented: min vruntime in this subtree */
	u64 vruntime;	  /* the pick's eligibility test, the augment's */
	u64 slice;
	u32 min_slice; /* augmented: min slice in this subtree */
	u32 max_slice; /* augmented: max slice in this subtree */
	/* second line */
	struct load_weight load;

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
	/*
	 * The kernel shares storage between vlag and vprot until 6.18.45; we
	 * keep two fields and model the one visible consequence (a running
	 * task's protection is lost when its attributes change) explicitly.
	 */
	s64 vlag;
	u64 vprot;
	struct cfs_rq *cfs_rq; /* the queue this entity is on (or was last) */
	struct sched_avg avg;  /* PELT (pelt.c) */
	/*
	 * Group scheduling (group.h): a task's entity sits on its group's
	 * cfs_rq of its CPU, below that group's entity (parent; NULL at the
	 * root); a group entity stands for its group's cfs_rq (my_q; NULL
	 * for a task) on the parent group's.  depth counts the levels
	 * above; runnable_weight is se_runnable() of a group entity, the
	 * runnable tasks below it.
	 */
	struct sched_entity *parent;
	struct cfs_rq *my_q;
	int depth;
	unsigned int runnable_weight;
};
_Static_assert(offsetof(struct sched_entity, vruntime) + sizeof(u64) <= 64,
	       "the tree's hot fields must fit the entity's first cache line");

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
	/*
	 * Group scheduling (group.h).  h_nr_queued counts the tasks queued
	 * here and in the groups below, delayed ones included, h_nr_idle
	 * those of them that are SCHED_IDLE or inside an idle group (the
	 * root's h_nr_runnable and h_nr_queued are the CPU's fair tasks).
	 * tg is the group this queue belongs to on its CPU.
	 */
	unsigned int h_nr_queued;
	unsigned int h_nr_idle;
	unsigned int idle_nr_queued; /* CFS: idle entities queued here */
	bool idle;		     /* the group's cpu.idle */
	struct task_group *tg;
	/* update_tg_load_avg(): this queue's share of tg->load_avg */
	long tg_load_avg_contrib;
	u64 last_update_tg_load_avg;
	/* PELT changes of the entities below, still to reach the parent */
	long prop_runnable_sum;
	bool propagate;
	/*
	 * CFS bandwidth (bandwidth.c): runtime_enabled: the group has a
	 * quota; throttled: this queue is out of runtime and its entity is
	 * off the parent; throttle_count: throttled here or above.  Beside
	 * propagate, in its line's padding: every enqueue, dequeue and
	 * update_curr() tests them, and nothing else of the next line is
	 * read outside balancing and bandwidth.
	 */
	bool runtime_enabled;
	bool throttled;
	bool on_throttled_list;
	int throttle_count;
	/* update_cfs_rq_h_load(): this queue's share of the CPU's load */
	unsigned long h_load;
	u64 last_h_load_update; /* jiffies + 1 of the last update, 0: none */
	struct sched_entity *h_load_next;
	/* runtime taken from the group's pool and left to spend */
	s64 runtime_remaining;
	u64 throttled_clock;	  /* when it was throttled with tasks queued */
	u64 throttled_clock_self; /* ... or when a parent's throttle began */
	u64 throttled_clock_self_time;
	struct cfs_rq *throttled_next; /* the group's throttled list */
};

/*
 * SCHED_FIFO / SCHED_RR (kernel/sched/rt.c).  A queued task is on its
 * priority's FIFO list; one that may run elsewhere and is not running is
 * also on the CPU's pushable list, sorted by prio (a plist in the kernel).
 */
struct sched_rt_entity {
	struct sched_rt_entity *run_next, *run_prev;
	struct sched_rt_entity *push_next, *push_prev;
	unsigned int time_slice; /* SCHED_RR: ticks left of its slice */
	bool on_rq;
	bool on_push;
};

struct rt_rq {
	u64 bitmap[2]; /* bit prio: queue[prio] is not empty */
	unsigned int rt_nr_running;
	/* highest_prio.curr: of the queued tasks; .next: of the pushable
	 * ones (MAX_RT_PRIO - 1 when none) */
	int highest_prio_curr, highest_prio_next;
	struct sched_rt_entity *pushable; /* most important first */
	bool overloaded;		  /* in the root domain's rto_mask */
	/*
	 * RT bandwidth (sched_rt_runtime_us of sched_rt_period_us) in the
	 * profiles that throttle: RT time of this period, and whether the
	 * class is throttled, its tasks taken out of rq->nr_running
	 * (rt_queued false) until the period timer gives runtime back.
	 */
	u64 rt_time;
	s64 rt_runtime; /* < 0: RUNTIME_INF */
	bool rt_throttled;
	bool rt_queued;
	/* last: 1.6 KiB that only RT tasks touch; the counters above are
	 * what every pick_next_task() reads, in the bitmap's line */
	struct sched_rt_entity *queue_head[MAX_RT_PRIO];
	struct sched_rt_entity *queue_tail[MAX_RT_PRIO];
};

/*
 * SCHED_DEADLINE (kernel/sched/deadline.c): a constant bandwidth server
 * per task, and per CPU the fair server (rq->fair_server), a deadline
 * entity whose "task" is the fair class.
 */
struct sched_dl_entity {
	/*
	 * First, in 56 bytes: what charging a running server or task reads
	 * and writes (update_curr_dl_se(), dl_server_update()), so that the
	 * fair server, charged at every fair update_curr(), costs one line
	 * of its rq instead of three.
	 */
	s64 runtime;  /* left in this period */
	u64 deadline; /* absolute */
	u64 dl_runtime;
	struct rq *rq;	   /* the server's CPU */
	struct task *task; /* whose it is; NULL for a server */
	bool on_rq;	   /* in dl_rq->root */
	bool on_push;
	bool dl_throttled;
	bool dl_yielded;
	bool dl_new;
	/* the fair server */
	bool dl_server;
	bool dl_server_active;
	bool dl_defer;
	bool dl_defer_armed;
	bool dl_defer_running;
	bool dl_defer_idle; /* 6.19: idle time used the runtime up */
	u64 dl_deadline;
	u64 dl_period;
	u64 dl_bw;		      /* dl_runtime / dl_period << BW_SHIFT */
	u64 dl_density;		      /* dl_runtime / dl_deadline << BW_SHIFT */
	struct eevdf_rb_node rb_node; /* dl_rq->root, by deadline */
	struct eevdf_rb_node push_node; /* dl_rq->pushable, by deadline */
	struct eevdf_event dl_timer;	/* replenishment (or defer) timer */
};

struct dl_rq {
	struct eevdf_rb_root root;
	unsigned int dl_nr_running;
	/* earliest_dl.curr / .next: of the queued tasks and of the
	 * pushable ones; valid when has_curr / has_next */
	u64 earliest_curr, earliest_next;
	bool has_curr, has_next;
	struct eevdf_rb_root pushable;
	bool overloaded; /* in the root domain's dlo_mask */
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
	/* sched_rt_runtime_us / sched_rt_period_us in ns (runtime < 0:
	 * unlimited), sched_rr_timeslice in ticks */
	s64 rt_runtime;
	u64 rt_period;
	unsigned int rr_timeslice;
	/* RT throttling, in the profiles that still have it by default */
	bool rt_bandwidth;
	/* the fair server's runtime and period (debugfs fair_server/cpuN);
	 * runtime 0 turns it off */
	u64 fair_server_runtime;
	u64 fair_server_period;
	/* kernel.sched_autogroup_enabled: a group per session */
	bool autogroup;
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
	REV_IDLE_EXIT = 12,  /* an idle CPU that was handed work wakes up */
	REV_DL_TIMER = 13,   /* a deadline entity's dl_timer (a task's, or a
			     * CPU's fair server) */
	REV_RT_PERIOD = 14,  /* def_rt_bandwidth's period timer */
	REV_RT_PUSH = 15,    /* RT_PUSH_IPI: the push irq_work lands */
	REV_CFS_PERIOD = 16, /* a group's CFS bandwidth period timer */
	REV_CFS_SLACK = 17,  /* ... and its slack timer */
};

/* Event types 20 and up belong to the engine (engine/sim.h). */

/* Same-time order: a task's own step, then wakeups, then interrupts. */
enum event_class {
	EVC_TASK = 0,
	EVC_WAKEUP = 1,
	EVC_TICK = 2,
};

/*
 * Tried and measured, not kept: a voluntary switch's counters (nvcsw to
 * delay_max) last, in delay_since's line.  lackey's task lines an event
 * went from 18.38 to 18.46: the line before was touched less (0.67 ->
 * 0.42), delay_since's more (0.67 -> 1.00), the switch's counters and
 * delay_since mostly being other tasks' (next's and prev's).
 */
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

/* Objects a task binds for a program shared with its sibling instances. */
#define TASK_BINDS 4

struct task {
	struct sched_entity se; /* first: tests cast freely */
	/*
	 * The rest is in two parts.  First what a task's every sleep and
	 * wakeup touches (its state, its program's place, its blocking, the
	 * balancer's list, its event and its accounting), then what is read
	 * rarely or only by some workloads.  A simulation of a thousand
	 * tasks and more misses the cache on each task it wakes, once per
	 * line touched: measured with DHAT on run/sleep tasks, the first
	 * part fills the task's first eight lines (TASK_HOT_BYTES), where
	 * the old order had a cycle touch all thirteen.
	 */
	int pid;
	int cpu;
	enum eevdf_policy policy;
	enum task_state state;
	/* the class of policy: fair, rt or dl (core.c's sched_class_of()) */
	const struct sched_class *sched_class;
	bool on_rq;	 /* task-level: queued (possibly delayed) */
	bool on_cpu;	 /* rq->curr == this */
	bool needs_step; /* on CPU and must execute its next op */
	bool is_thread;	 /* kind thread: cheaper switches */
	bool spinning;	 /* queued as a spinner on a spinlock */
	bool op_begun;	 /* the op's operands were evaluated */
	bool wait_intr;	 /* its wait ends early on a signal */

	/* Program (program.c). */
	struct program *prog;
	u32 pc;
	u32 op_phase;	      /* how far the op at pc has got */
	u32 burst;	      /* what the queued TEV_BURST ends */
	u32 burst_speed;      /* percent of nominal speed of the burst */
	u64 op_work_left;     /* the op's RUN work or its cost still to do */
	u64 overhead_left;    /* switch and wakeup costs still to burn */
	eevdf_time run_since; /* when the current burst started */
	u32 sig_pending;      /* bit n: signal n is pending */
	int kthread;	      /* a kernel thread: 1 + its index (engine/io.h) */

	/* Blocking (program.c, objects.c). */
	u32 wait_kind; /* enum wait_kind */
	int wake_result;
	struct sim_object *wait_obj;

	/*
	 * One line (offsets 320-383): what every event of a task touches
	 * past its program (the balancer's list, the state's start, the
	 * event, whose heap index a sift rewrites in the tasks it moves).
	 * On 12 800 run/sleep tasks on 64 CPUs (lackey), the index alone
	 * in the next line had that line touched 3.0 times an event, and
	 * state_since alone kept the one after hot (1.0 an event); both
	 * are now 0.67, the accounting's.
	 */
	/* SMP (smp.c): wakeup placement history, the balancer's list. */
	int recent_used_cpu;
	u32 spin_held; /* spinlocks held: no migration meanwhile */
	struct task *tasks_prev, *tasks_next; /* rq->cfs_tasks, MRU first */
	eevdf_time state_since; /* start of the current wait/sleep span */
	struct eevdf_event ev;

	size_t nr_cpus_allowed;
	/* the group it is scheduled in: see cgroup below (group.c) */
	struct task_group *sched_task_group;

	/* Accounting. */
	struct task_stats st;
	eevdf_time delay_since; /* perf atom: runnable since; -1 = none */

	/* What follows is read rarely, or only by some workloads
	 * (TASK_HOT_BYTES marks the split). */
	int nice;
	int prio; /* kernel prio: -1 DL, 0..98 RT, 100..139 fair */
	/*
	 * The task's cgroup (root when none) and its session; the group it
	 * is scheduled in is the cgroup, or the session's autogroup when
	 * the cgroup is the root and autogroup is enabled (group.c).
	 */
	struct task_group *cgroup;
	/* the group it is reported in: sched_task_group, except that an
	 * exiting task's move out of its autogroup does not count */
	struct task_group *stats_group;
	u32 session; /* 0: init's session, the root group's tasks */
	unsigned int rt_priority; /* SCHED_FIFO / SCHED_RR: 1..99 */
	struct sched_rt_entity rt;
	/*
	 * A deadline task's entity, or the scheduler's shared no_dl (zero
	 * parameters, never queued, never written) for every other task:
	 * 160 bytes that a hundred thousand fair tasks would carry unused.
	 * Made when the task first takes SCHED_DEADLINE (eevdf__task_dl()).
	 */
	struct sched_dl_entity *dl;
	/* in the simulation's name arena: it outlives the task (sim.c) */
	const char *name;

	s64 *locals;
	u64 *loop_left; /* per op index: iterations left of a LOOP */
	/* the objects its program's bound objrefs name (engine/program.h) */
	s32 obj_bind[TASK_BINDS];
	eevdf_time spin_until;
	u64 xfer_left;	   /* exact recv: bytes still to come */
	s64 op_stamp;	   /* wake_list: the splice's timestamp */
	bool partial;	   /* an exact recv read part of its bytes */
	bool exiting;	   /* paying for exit() at the end of its program */
	bool in_handler;   /* running an on_signal handler */
	u32 saved_pc;	   /* where the handler returns to */
	int parent_pid;	   /* the spawner, 0 for workload tasks */
	u32 live_children; /* spawned and not yet exited */
	s32 join_set;	   /* the join set a joiner waits for */
	u32 op_step;	   /* a system call's step (engine/fs_ops.c) */

	struct task *wait_next;
	struct sim_object *self;     /* binary semaphore, "<name>.self" */
	struct sim_object **written; /* channels written (end of file) */
	u32 nr_written, cap_written;

	int *cpus_allowed; /* ascending; nr 0 = every CPU */
	/*
	 * The kernel's last_wakee pointer as a pid: pids are never reused,
	 * so comparing them compares tasks, even once a wakee has exited and
	 * its struct has been freed (a freed address can be handed out again).
	 */
	int last_wakee;
	u32 wakee_flips;
	u64 wakee_flip_decay_ts; /* jiffies */
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

	struct eevdf_rng rng;
};

/* The bytes of a task that its every sleep and wakeup touches. */
#define TASK_HOT_BYTES offsetof(struct task, nice)
_Static_assert(TASK_HOT_BYTES <= 8 * 64,
	       "a task's hot part must fit its first eight cache lines: "
	       "put a field every wakeup touches there only in place of one");
_Static_assert(offsetof(struct task, recent_used_cpu) % 64 == 0 &&
		       offsetof(struct task, ev) + sizeof(struct eevdf_event) -
				       offsetof(struct task, recent_used_cpu) <=
			       64,
	       "the list, state_since and the event share one cache line");

struct rq {
	/*
	 * 64-byte aligned (sim.c aligns the array), so that each CPU's rq
	 * splits into lines at the same offsets: the cfs_rq's hot fields,
	 * then the fields of every switch and tick, and the fair server's
	 * head in a line each.
	 */
	_Alignas(64) int cpu;
	/*
	 * nr_running sits beside cfs's counters and PELT sums: a balancing
	 * pass over a domain of hundreds of CPUs reads just these from each
	 * rq, so they share as few cache lines as the layout allows.
	 */
	unsigned int nr_running; /* tasks on this rq, delayed included */
	bool settle_pending;	 /* on the scheduler's settle ring */
	bool lb_dirty;		 /* on the balancer's dirty list (lb_stats.h) */
	struct cfs_rq cfs;
	struct task *curr; /* NULL = idle */
	bool need_resched;
	u64 clock; /* rq_clock_task: simulated now */
	const struct sched_params *sp;
	struct scheduler *sched;
	uint8_t *idle_slot; /* its byte of the machine's idle map */
	u64 *idle_word;	    /* its word of idle_bits (NULL: none) */
	u64 ticks;	    /* in curr's line, which a tick reads anyway */
	/* a line each (asserted below the struct): another CPU's sift
	 * rewrites tick_ev's heap_index, and a lock is taken whole */
	struct eevdf_event tick_ev;
	struct eevdf_event hrtick_ev;
	struct rq_lock lock; /* rq->__lock (rq_lock.h) */
	u64 next_balance;    /* jiffies */

	/*
	 * One line (asserted below the struct): what a switch, a wakeup or
	 * a pick touches besides the cfs_rq and the lines above.  The idle
	 * transitions' figures follow it.
	 */
	struct task *cfs_tasks; /* head: most recently enqueued/picked */
	struct task *cfs_tasks_tail;
	unsigned int *nr_overloaded; /* the machine's count (root domain) */
	unsigned int *sd_overloaded; /* the same over its lowest domain
				      * of single-CPU groups (core.c) */
	eevdf_time idle_stamp;	     /* when it last went idle */
	bool idle_stamped;	     /* idle_stamp is set (cleared on wakeup) */
	/* balance callbacks queued under the lock, run when __schedule()
	 * or the setscheduler path lets go of it */
	bool push_rt_pending, pull_rt_pending;
	bool push_dl_pending, pull_dl_pending;
	/* the deadline server whose pick is running now (rq->dl_server) */
	struct sched_dl_entity *dl_server;
	u64 switches;

	u64 avg_idle;		   /* ns: average idle span */
	u64 max_idle_balance_cost; /* ns */
	eevdf_time busy_since;	   /* start of the current busy span */
	eevdf_time idle_since;
	u64 busy_ns, idle_ns;
	int cpupri;		/* this CPU's cpupri level (cpupri.h) */
	int rt_distribute_prev; /* cpumask_any_and_distribute()'s cursor */
	struct eevdf_event rt_push_ev; /* RT_PUSH_IPI: the push irq_work */
	u64 idle_exec_start; /* the idle task's exec_start (fair server) */
	struct eevdf_event idle_exit_ev;
	unsigned int nr_wakelist; /* remote wakeups in flight to here */
	/* The IPI in flight (nr_ipi_batch > 0): when it lands and how many
	 * wake-list entries it carries; entries queued meanwhile join it,
	 * as llist_add() onto a non-empty list sends no IPI. */
	eevdf_time ipi_at;
	unsigned int nr_ipi_batch;
	unsigned int ipi_landed; /* entries of that batch landed so far */
	eevdf_time awake_at;	 /* left its idle state at this time */

	/*
	 * The other classes last: the fair server in a line of its own
	 * (its hot head, see struct sched_dl_entity), then the deadline and
	 * RT queues, the RT queue arrays at the very end.
	 */
	_Alignas(64) struct sched_dl_entity fair_server;
	struct dl_rq dl;
	struct rt_rq rt;
};

_Static_assert(offsetof(struct rq, tick_ev) % 64 == 0 &&
		       offsetof(struct rq, hrtick_ev) ==
			       offsetof(struct rq, tick_ev) + 32 &&
		       offsetof(struct rq, lock) % 64 == 0 &&
		       offsetof(struct rq, next_balance) -
				       offsetof(struct rq, lock) <
			       64,
	       "rq: the two tick events share a line, the lock and "
	       "next_balance another: move a field past them, not between");
_Static_assert(offsetof(struct rq, cfs.throttle_count) / 64 ==
			       offsetof(struct rq, cfs.h_nr_queued) / 64 &&
		       offsetof(struct rq, ticks) / 64 ==
			       offsetof(struct rq, curr) / 64 &&
		       offsetof(struct rq, cfs_tasks) % 64 == 0 &&
		       offsetof(struct rq, switches) / 64 ==
			       offsetof(struct rq, cfs_tasks) / 64,
	       "rq: the throttle flags, ticks and the switch line's fields "
	       "each share a line with what they are read beside");

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
/*
 * lb_stats.h: the running sums of every span for the balancer, and the
 * CPUs whose run queue changed since they were last folded in.
 */
#define LB_MAX_MEMBER (NR_SD_LEVELS + 1) /* spans a CPU is in: 1 a level */
struct lb_contrib;
struct lb_sums;
struct lb_cache {
	struct lb_sums *sums;	 /* per span of topo.spans; NULL: off */
	struct lb_contrib *snap; /* per CPU: what it last added */
	unsigned int *h_nr;	 /* per CPU: snap's h_nr_runnable, dense */
	u32 *member;	    /* per CPU: the groups it is in (span indices) */
	uint8_t *nr_member; /* per CPU: how many of them are used */
	int *dirty;	    /* CPUs to fold in, each once */
	size_t nr_dirty;
	bool all_dirty; /* every CPU: the first fold after init */
};

struct scheduler {
	struct sched_params sp;
	/* every non-deadline task's p->dl: zero, never queued, read only */
	struct sched_dl_entity no_dl;
	struct eevdf_eventq evq; /* timers: ticks, hrticks, wakeups, ... */
	eevdf_time now;		 /* moved by the engine's event loop only */

	struct topology topo;
	struct lb_cache lbc;
	u32 *core_mark; /* select_idle_cpu(): cores already scanned */
	/* per core: its CPUs running a task (rq->curr set): the engine's
	 * SMT speed asks whether a sibling runs, per burst */
	uint8_t *core_running;
	uint8_t *idle_map; /* per CPU: available_idle_cpu() (rq_idle_update) */
	u64 *idle_bits;	   /* the same as a bitmap, CPU n at bit n % 64 of
			    * word n / 64: select_idle_cpu()'s scan */
	u32 mark_gen;
	u64 nohz_next_balance;	    /* jiffies: next NOHZ idle balance kick */
	unsigned int nr_overloaded; /* CPUs with more than one task queued */
	/* the same per lowest domain of single-CPU groups, by its span's
	 * index in topo.spans; the last slot counts the other CPUs */
	unsigned int *span_overloaded;
	struct eevdf_smp_stats smp;
	/*
	 * The root domain's RT and DL state (one root domain: there are no
	 * cpusets): cpupri's count of CPUs per level, the CPUs with a
	 * pushable RT task (rto_mask) or DL task (dlo_mask), the admitted
	 * deadline bandwidth, and the RT_PUSH_IPI chain.
	 */
	unsigned int *cpupri_count; /* CPUPRI_NR_PRIORITIES levels */
	uint8_t *rto_mask;
	unsigned int rto_count;
	int rto_cpu; /* RT_PUSH_IPI: the chain is at this CPU; -1: idle */
	bool rto_loop_again; /* a pull asked while the chain ran */
	uint8_t *dlo_mask;
	unsigned int dlo_count;
	u64 dl_total_bw; /* admitted, BW_SHIFT fixed point */
	/* queued events that wake no task: the fair servers' timers */
	size_t nr_bg_events;
	uint8_t *cpu_scratch; /* a per-CPU mask for the searches */
	/* def_rt_bandwidth's period timer: one for the machine */
	struct eevdf_event rt_period_ev;
	bool rt_period_active;
	/* what the classes did, for the results */
	u64 nr_rt_throttles; /* times an rt_rq was throttled */
	u64 rt_pushes, rt_pulls, dl_pushes, dl_pulls;
	u64 dl_server_starts, dl_server_stops;
	u64 fair_server_ns;	      /* fair time the servers ran (state D) */
	u64 nr_rt_tasks, nr_dl_tasks; /* tasks that joined the class */
	/*
	 * Task groups (group.h): groups[0] is the root; autogroups[s] is
	 * session s's autogroup, created on first use.
	 */
	struct task_group **groups;
	size_t nr_groups, cap_groups;
	struct task_group **autogroups;
	size_t nr_autogroups;
	u64 autogroup_seq; /* autogroup ids, as /proc/PID/autogroup shows */
	struct rq *rqs;	   /* 64-byte aligned, in rqs_block */
	void *rqs_block;   /* as calloc() returned it, for free() */
	int nr_cpus;
	int hz;
	struct cost_table costs;

	/* Tasks by pid - 1 (pids are never reused). */
	struct task **tasks;
	size_t nr_tasks;
	size_t cap_tasks;

	eevdf_trace_fn trace;
	void *trace_ud;
	/* decisions and state for eevdf/state.h; NULL: nobody observes
	 * (sched_state.h) */
	struct sched_obs *obs;
	int ttwu_waker; /* pid of the task waking one now, -1: none (a timer) */
	int irq_cpu;	/* in an interrupt on this CPU (its wakeups start
			 * there), or -1 */
	u64 sis_probes; /* CPUs the current wakeup's placement looked at */
	const struct sched_task_ops *ops;

	/* CPUs whose state changed during the current event. */
	struct rq **settle; /* a ring of nr_cpus slots */
	size_t settle_head, nr_settle;

	int error; /* sticky: once a run failed, it stays failed */
	char errmsg[512];
};

/*
 * From this many tasks on, a task's lines have likely left the cache by
 * the time it is picked or its event fires (1 024 tasks of 832 bytes are
 * more than the L2 of most machines), and a prefetch of its hot part
 * saves more than it costs; below it the prefetches are wasted
 * instructions (3.6 % more on scale-100-8).
 */
#define TASK_PREFETCH_MIN 1024

/* Prefetch the task-sized hot part at p (a task, or an entity). */
static inline void task_prefetch(const struct scheduler *sched, const void *p)
{
	if (sched->nr_tasks >= TASK_PREFETCH_MIN)
		eevdf__prefetch(p, TASK_HOT_BYTES);
}

/*
 * rq's load, util, runnable, nr_running, h_nr_runnable or idle state may
 * have changed: the balancer's sums must take it in before their next use
 * (lb_stats.h).  Call it where any of them is written.
 */
static inline void lb_stats_dirty(struct rq *rq)
{
	struct scheduler *sched = rq->sched;

	if (rq->lb_dirty || !sched || !sched->lbc.dirty)
		return;
	rq->lb_dirty = true;
	sched->lbc.dirty[sched->lbc.nr_dirty++] = rq->cpu;
}

/*
 * available_idle_cpu() as one byte per CPU, so that an LLC scan reads a
 * few cache lines instead of one run queue per CPU: call after curr,
 * nr_running or nr_wakelist change.
 */
static inline void rq_idle_update(struct rq *rq)
{
	bool idle = !rq->curr && !rq->nr_running && !rq->nr_wakelist;

	*rq->idle_slot = idle;
	if (rq->idle_word) {
		u64 bit = (u64)1 << (rq->cpu & 63);

		*rq->idle_word = (*rq->idle_word & ~bit) | (idle ? bit : 0);
	}
	lb_stats_dirty(rq);
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

/*
 * add_nr_running() / sub_nr_running(): every class's runnable tasks count
 * in rq->nr_running; a CPU with two or more is overloaded for the fair
 * balancer (the root domain's overload flag).
 */
static inline void add_nr_running(struct rq *rq, unsigned int n)
{
	unsigned int prev = rq->nr_running;

	rq->nr_running += n;
	if (prev < 2 && rq->nr_running >= 2) {
		(*rq->nr_overloaded)++;
		(*rq->sd_overloaded)++;
	}
	rq_idle_update(rq);
}

static inline void sub_nr_running(struct rq *rq, unsigned int n)
{
	unsigned int prev = rq->nr_running;

	rq->nr_running -= n;
	if (prev >= 2 && rq->nr_running < 2) {
		(*rq->nr_overloaded)--;
		(*rq->sd_overloaded)--;
	}
	rq_idle_update(rq);
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
