/* SPDX-License-Identifier: MIT */
/*
 * The scheduler's own state, read while a simulation runs: every fair
 * entity's vruntime, lag, deadline and eligibility, each run queue's V,
 * and the rule behind each decision.
 *
 * Values are the model's exact integers (the kernel's u64 virtual times,
 * its s64 lags), read without changing anything: a run that reads its
 * state at every event gives the same results as one that never does.
 * The readers may be called at any time, also from inside the trace
 * callback (eevdf_config.trace), where they see the state of the moment
 * the event describes.  Values are as the model holds them: the running
 * entity's vruntime is the one of its last update_curr(), which runs at
 * every tick, wakeup, pick and dequeue on its CPU; curr_exec_ns says how
 * much it has run since.
 *
 * In the kernel's notation (kernel/sched/fair.c): each entity i has the
 * weight w_i, the virtual runtime v_i, the virtual deadline d_i; the run
 * queue's zero-lag point is V = \Sum w_i v_i / \Sum w_i (floored, as
 * avg_vruntime() does); lag_i = w_i (V - v_i); i is eligible when
 * lag_i >= 0 (entity_eligible()), and pick_eevdf() takes the eligible
 * entity with the earliest deadline.
 *
 * With task groups (eevdf/group.h) every group has a run queue per CPU
 * and an entity on its parent's: an entity's V, lag, deadline and
 * eligibility are relative to its own run queue (its group's), and a
 * pick walks down from the CPU's root queue, one pick_eevdf() per level.
 */
#ifndef EEVDF_STATE_H
#define EEVDF_STATE_H

#include <stdbool.h>

#include "eevdf/sim.h"

/*
 * Why the scheduler decided what it did: the rule of a decision event
 * (EEVDF_TRACE_DECISION) and of eevdf_sim_rq_pick().  Values are stable
 * (appended only); eevdf_rule_name() gives a short name,
 * eevdf_rule_text() a sentence.
 */
enum eevdf_rule {
	EEVDF_RULE_NONE = 0,
	/* pick_eevdf(): why it returned this entity */
	EEVDF_RULE_PICK_ONLY = 1,      /* the only entity on the queue */
	EEVDF_RULE_PICK_BUDDY = 2,     /* the next buddy, eligible */
	EEVDF_RULE_PICK_PROTECTED = 3, /* curr, eligible, inside its
					* protected slice (RUN_TO_PARITY) */
	EEVDF_RULE_PICK_EARLIEST = 4,  /* the eligible entity with the
					* earliest virtual deadline */
	EEVDF_RULE_PICK_CURR = 5,      /* curr: eligible, and no eligible
					* queued entity has an earlier deadline */
	EEVDF_RULE_PICK_DELAYED = 6,   /* a delayed entity came up: its
					* dequeue completes, the pick repeats */
	EEVDF_RULE_PICK_CLASS = 7,     /* a task of another class (RT, DL) */
	EEVDF_RULE_PICK_IDLE = 8,      /* nothing to run: the CPU idles */
	/* CFS (cfs-6.1) picks */
	EEVDF_RULE_CFS_LEFTMOST = 9, /* the smallest vruntime */
	EEVDF_RULE_CFS_SKIP = 10,    /* the leftmost yielded: the second */
	EEVDF_RULE_CFS_NEXT = 11,    /* the next buddy, within wakeup_gran */
	EEVDF_RULE_CFS_LAST = 12,    /* the last buddy, within wakeup_gran */
	/* wakeup preemption: the wakee preempts curr ... */
	EEVDF_RULE_WAKEUP_PREEMPT = 20, /* ... being the EEVDF pick */
	EEVDF_RULE_WAKEUP_SHORT = 21,	/* ... PREEMPT_SHORT: a shorter
					 * slice, curr's protection dropped */
	EEVDF_RULE_WAKEUP_IDLE_POLICY = 22, /* ... curr is SCHED_IDLE */
	EEVDF_RULE_WAKEUP_SYNC = 23, /* ... a sync wakeup with an earlier
				      * deadline, the waker past its
				      * migration cost */
	EEVDF_RULE_WAKEUP_CLASS = 24,	 /* ... from a higher class */
	EEVDF_RULE_WAKEUP_IDLE_CPU = 25, /* the CPU was idle */
	EEVDF_RULE_WAKEUP_CFS = 26, /* CFS: curr is more than wakeup_gran
				     * right of the wakee */
	/* wakeup preemption denied: curr keeps the CPU because ... */
	EEVDF_RULE_NO_PREEMPT_PROTECTED = 40, /* ... it is inside its
					       * protected slice
					       * (RUN_TO_PARITY) */
	EEVDF_RULE_NO_PREEMPT_NOT_PICK = 41,  /* ... the pick is not the
					       * wakee (pick_pid, pick_rule) */
	EEVDF_RULE_NO_PREEMPT_POLICY = 42,    /* ... the wakee is
					       * SCHED_BATCH or SCHED_IDLE */
	EEVDF_RULE_NO_PREEMPT_IDLE = 43, /* ... the wakee is SCHED_IDLE */
	EEVDF_RULE_NO_PREEMPT_FORK = 44, /* ... forks do not preempt */
	EEVDF_RULE_NO_PREEMPT_DELAYED = 45, /* ... the wakee was delayed */
	EEVDF_RULE_NO_PREEMPT_SYNC = 46,    /* ... a sync wakeup that does
					     * not qualify (next buddy set) */
	EEVDF_RULE_NO_PREEMPT_PENDING = 47, /* ... a reschedule is due
					     * anyway */
	EEVDF_RULE_NO_PREEMPT_OFF = 48,	    /* ... NO_WAKEUP_PREEMPTION */
	EEVDF_RULE_NO_PREEMPT_DEADLINE = 49, /* ... WAKEUP_DEADLINE: the
					      * wakee's deadline is not
					      * earlier */
	EEVDF_RULE_NO_PREEMPT_CLASS = 50,    /* ... it is of a higher
					      * class */
	EEVDF_RULE_NO_PREEMPT_CFS = 51,	     /* CFS: within wakeup_gran */
	EEVDF_RULE_NO_PREEMPT_THROTTLED = 52, /* ... the wakee's group is
					       * throttled (cpu.max) */
	/* curr is asked to reschedule (update_curr(), the tick) because ... */
	EEVDF_RULE_SLICE_EXPIRED = 60,	/* ... its request was served:
					 * vruntime reached the deadline,
					 * a new deadline is set */
	EEVDF_RULE_PROTECT_ENDED = 61,	/* ... its protected slice ended */
	EEVDF_RULE_SHORT_INELIGIBLE = 62, /* ... PREEMPT_SHORT cancelled its
					   * protection and it is no longer
					   * eligible (6.12-6.16) */
	EEVDF_RULE_HRTICK = 63,		  /* ... the hrtick ended its slice */
	EEVDF_RULE_CFS_SLICE_USED = 64,	  /* CFS: its sched_slice is used */
	EEVDF_RULE_CFS_AHEAD = 65, /* CFS: a slice ahead of the leftmost */
	/* other decisions of the fair class */
	EEVDF_RULE_DELAY_DEQUEUE = 80, /* going to sleep while ineligible:
					* kept queued as a delayed entity */
	EEVDF_RULE_DELAYED_WAKE = 81,  /* a delayed entity woken where it
					* is queued */
	EEVDF_RULE_YIELD = 82,	       /* sched_yield(): a later deadline
					* (from 6.18.2, vruntime forfeits the
					* rest of the request) */
};

/* "pick_earliest", ...; NULL for a value that is not a rule. */
EEVDF_API const char *eevdf_rule_name(enum eevdf_rule rule);
/* A sentence ("the eligible entity with the earliest virtual deadline"). */
EEVDF_API const char *eevdf_rule_text(enum eevdf_rule rule);

/* The fair-class state of one entity: a task's, or a group's. */
struct eevdf_entity_state {
	int pid;      /* the task; 0 for a group's entity */
	int cpu;      /* the CPU whose queue it is on, or was last */
	/* the group whose run queue it is on ("/" the CPU's root queue);
	 * for a group's entity also the group it stands for (else NULL):
	 * strings owned by the simulation */
	const char *group;
	const char *my_group;
	bool fair;    /* of the fair class: the fields below are valid */
	bool on_rq;   /* queued: running, waiting or delayed */
	bool running; /* the queue's curr */
	bool delayed; /* asleep, kept queued (DELAY_DEQUEUE) */
	bool eligible;	/* entity_eligible(): on_rq and lag >= 0 */
	bool protected_slice; /* running inside its protected slice
			       * (protect_slice()) */
	bool custom_slice; /* sched_attr.sched_runtime set the slice */
	bool next_buddy;   /* its queue's next buddy */
	bool eevdf; /* the kernel profile runs EEVDF (not cfs-6.1): deadline
		     * and eligibility decide */
	int depth;  /* 0: on the CPU's root run queue, 1 a group's below */
	uint64_t weight;   /* load weight, scaled down: nice 0 is 1024 */
	uint64_t vruntime; /* v_i, virtual ns */
	uint64_t deadline; /* d_i, virtual ns (cfs-6.1: the tree key) */
	uint64_t vprot;	   /* the protected slice ends at this vruntime */
	uint64_t slice;	   /* the request, ns */
	uint64_t V;	   /* its queue's V */
	/*
	 * V - v_i: the kernel's vlag (positive: owed service, eligible).
	 * Queued: from V now; not queued: the saved, clamped se->vlag it
	 * will be placed with.
	 */
	int64_t vlag;
	/* w_i (V - v_i) = vlag * weight: lag in ns x 1024 (divide by 1024
	 * for the ns of CPU time owed) */
	int64_t lag;
	int64_t deadline_v;	  /* d_i - V, virtual ns; queued only */
	uint64_t sum_exec_runtime; /* ns, as of its last update_curr() */
	eevdf_time curr_exec_ns;   /* running: ns run since then */
};

/* A CPU's run queue: its fair queue (cfs_rq) and the totals. */
struct eevdf_rq_state {
	int cpu;
	int curr_pid;	   /* running task, -1: idle (any class) */
	int fair_curr_pid; /* the fair queue's curr, -1: none */
	int next_pid;	   /* the next buddy, -1: none */
	bool eevdf;	   /* EEVDF (not cfs-6.1) */
	unsigned int nr_running;    /* tasks of every class, delayed ones
				     * included (rq->nr_running) */
	unsigned int nr_queued;	    /* entities queued on the root queue,
				     * delayed included (cfs_rq->nr_queued;
				     * a group counts one) */
	unsigned int h_nr_queued;   /* fair tasks queued in the whole
				     * hierarchy */
	unsigned int h_nr_runnable; /* ... not delayed */
	unsigned int nr_delayed;    /* ... delayed */
	uint64_t V;	 /* avg_vruntime(): the floored weighted mean */
	uint64_t v0;	 /* the sums' reference: min_vruntime (up to
			  * 6.18.16) or zero_vruntime */
	uint64_t load;	 /* \Sum w_i of the queued entities, scaled down */
	uint64_t min_slice; /* the shortest queued request, ns (0: none) */
	eevdf_time clock;   /* when the queue was last updated */
};

/*
 * The state of task pid (1..eevdf_sim_nr_tasks()).  0, or EEVDF_EINVAL
 * for a NULL argument or an unknown pid; a task that exited (and was
 * compacted) reads as not fair and not queued.
 */
EEVDF_API int eevdf_sim_task_state(const eevdf_sim *sim, int pid,
				   struct eevdf_entity_state *out);

/* The state of cpu's run queue.  0, or EEVDF_EINVAL. */
EEVDF_API int eevdf_sim_rq_state(const eevdf_sim *sim, int cpu,
				 struct eevdf_rq_state *out);

/*
 * The pids of the fair tasks queued on cpu: each run queue from the root
 * down, its curr first (when it is queued), then the others in the tree's
 * order (earliest deadline first; cfs-6.1: smallest vruntime first), a
 * group's entity standing for the tasks below it.  Writes at most max
 * pids to pids and returns how many there are (which may be more than
 * max), or EEVDF_EINVAL.
 */
EEVDF_API int eevdf_sim_rq_tasks(const eevdf_sim *sim, int cpu, int *pids,
				 size_t max);

/*
 * Every entity queued on cpu in the same order, groups' entities
 * included (each followed by what is queued below it, depth + 1): as
 * eevdf_sim_rq_tasks(), states instead of pids.
 */
EEVDF_API int eevdf_sim_rq_entities(const eevdf_sim *sim, int cpu,
				    struct eevdf_entity_state *out,
				    size_t max);

/*
 * What pick_eevdf() returns on cpu's queue now, and the rule that decided
 * it, computed by the model's own pick without changing anything (curr is
 * charged as of its last update_curr(); a delayed entity may come out, as
 * in the kernel, and ends the walk).  With groups the pick walks down,
 * one pick per level: *pid and *rule are the last level's (pid 0: it
 * ended at a delayed group's entity).  0 with *pid -1 when nothing fair
 * is queued, or EEVDF_EINVAL.  cfs-6.1 answers with its own pick.
 */
EEVDF_API int eevdf_sim_rq_pick(eevdf_sim *sim, int cpu, int *pid,
				enum eevdf_rule *rule);

/* One level of that walk: the queue, what it picked and why. */
struct eevdf_pick_level {
	const char *group; /* the queue's group ("/" the root) */
	int pid;	   /* the task picked, 0 a group's entity */
	const char *picked_group; /* ... that group, else NULL */
	enum eevdf_rule rule;
};

/* The walk level by level, root first: how many levels (written up to
 * max), or EEVDF_EINVAL. */
EEVDF_API int eevdf_sim_rq_pick_levels(eevdf_sim *sim, int cpu,
				       struct eevdf_pick_level *out,
				       size_t max);

/*
 * The task group pid is scheduled in: its cgroup's path, or its
 * session's autogroup ("/autogroup-N") when that is on; "/" for a task
 * that exited and was compacted.  NULL for an unknown pid.
 */
EEVDF_API const char *eevdf_sim_task_group(const eevdf_sim *sim, int pid);

/* What eevdf_sim_trace_detail() adds to the trace callback. */
enum eevdf_trace_detail {
	/* EEVDF_TRACE_DECISION events: every decision with its rule */
	EEVDF_DETAIL_DECISIONS = 1u << 0,
	/* EEVDF_TRACE_STATE events: a CPU's run queue changed (once per
	 * CPU and event, when the event is over) */
	EEVDF_DETAIL_STATE = 1u << 1,
};

/*
 * Turn the extra trace events of `what` (enum eevdf_trace_detail, OR-ed;
 * 0 turns them off) on from now on.  Without them the simulation does
 * exactly the work it would without this call.  0, EEVDF_EINVAL, or
 * EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_sim_trace_detail(eevdf_sim *sim, unsigned int what);

#endif
