/* SPDX-License-Identifier: MIT */
/*
 * The simulation: configuration, tasks, running, results.
 *
 * A simulation owns a simulated machine of nr_cpus CPUs, each with its own
 * run queue and periodic tick, and a set of tasks whose programs alternate
 * CPU work, sleeps and yields.  Everything is driven by a deterministic event
 * queue in integer nanoseconds: the same configuration, tasks and seed give
 * the same results on every build and every run.  Several simulations may
 * exist in one process; one simulation must not be used from two threads at
 * once.  The library keeps no global mutable state (but the allocator a
 * program may give it, eevdf/alloc.h), never prints and never
 * exits.
 */
#ifndef EEVDF_SIM_H
#define EEVDF_SIM_H

#include <stdbool.h>

#include "eevdf/types.h"

/* Largest machine a simulation accepts. */
#define EEVDF_MAX_CPUS 4096
/* Largest number of tasks one simulation accepts. */
#define EEVDF_MAX_TASKS 1000000
/* Range of eevdf_config.hz. */
#define EEVDF_HZ_MIN 100
#define EEVDF_HZ_MAX 10000
/* Ops at one instant before a livelock is called (eevdf_config). */
#define EEVDF_MAX_INSTANT_OPS 10000000ull
/* Longest task name, including the terminating NUL. */
#define EEVDF_NAME_MAX 64

enum eevdf_policy {
	EEVDF_POLICY_NORMAL = 0, /* SCHED_NORMAL (SCHED_OTHER) */
	EEVDF_POLICY_BATCH = 1,  /* SCHED_BATCH: never preempts on wakeup */
	EEVDF_POLICY_IDLE = 2,   /* SCHED_IDLE: weight 3, yields to others */
	EEVDF_POLICY_FIFO = 3,   /* SCHED_FIFO: rt_priority 1..99 */
	EEVDF_POLICY_RR = 4,     /* SCHED_RR: FIFO with sched_rr_timeslice */
	EEVDF_POLICY_DEADLINE = 5, /* SCHED_DEADLINE: runtime, deadline,
				    * period */
};

/* Trace events delivered to eevdf_config.trace, in simulated-time order. */
enum eevdf_trace_kind {
	EEVDF_TRACE_SWITCH = 1, /* cpu switched from prev_pid to next_pid */
	EEVDF_TRACE_WAKEUP = 2, /* pid became runnable (by wakeup) */
	EEVDF_TRACE_NEW = 3,    /* pid was created and became runnable */
	EEVDF_TRACE_EXIT = 4,   /* pid finished its program */
	EEVDF_TRACE_TICK = 5,   /* scheduler tick on cpu */
	EEVDF_TRACE_MIGRATE = 6, /* pid moved from orig_cpu to cpu */
	EEVDF_TRACE_SPIN = 7,    /* cpu spun for duration on orig_cpu's rq lock */
	EEVDF_TRACE_IPI = 8,     /* orig_cpu sent cpu an IPI for its wake list;
				  * pid: the first task of the batch */
	/*
	 * With eevdf_sim_trace_detail() (eevdf/state.h) only.  DECISION: a
	 * decision on cpu by rule (enum eevdf_rule): pid is the task picked,
	 * the wakee, or the task asked to reschedule (0: a group's entity);
	 * prev_pid the task running then (-1: none); for a wakeup, pick_pid
	 * and pick_rule are what pick_eevdf() chose; group the level that
	 * decided.  STATE: cpu's run queue changed during the event now
	 * over; read it with eevdf_sim_rq_state().
	 */
	EEVDF_TRACE_DECISION = 9,
	EEVDF_TRACE_STATE = 10,
};

/* State of the task switched out, in a SWITCH event (perf's prev_state). */
enum eevdf_task_state {
	EEVDF_TASK_RUNNING = 0,  /* preempted or yielded, still runnable */
	EEVDF_TASK_SLEEPING = 1, /* blocked */
	EEVDF_TASK_DEAD = 2,     /* exited */
	EEVDF_TASK_NEW = 3,      /* created, not started yet */
};

struct eevdf_trace_event {
	enum eevdf_trace_kind kind;
	eevdf_time time;
	int cpu;
	int pid;      /* WAKEUP/NEW/EXIT: the task; SWITCH: next (-1 = idle) */
	int prev_pid; /* SWITCH: previous task (-1 = idle); WAKEUP: the
			 waker (-1: a timer or the machine) */
	enum eevdf_task_state prev_state; /* SWITCH only */
	int orig_cpu; /* MIGRATE: the CPU the task left; SPIN: the lock's
			 CPU; IPI: the sender; else -1 */
	eevdf_time duration; /* SPIN: the spin, from time on; else 0 */
	int rule;      /* DECISION: enum eevdf_rule; else 0 */
	int pick_pid;  /* DECISION of a wakeup: pick_eevdf()'s choice, 0 a
			* group's entity; else -1 */
	int pick_rule; /* ... and its rule (enum eevdf_rule); else 0 */
	/*
	 * DECISION: the task group whose run queue on cpu decided ("/" the
	 * root's; owned by the simulation), NULL when none did.  With
	 * groups a decision may be about a group's entity: pid is then 0
	 * and prev_pid the task running below it.
	 */
	const char *group;
};

/*
 * Callbacks run inside eevdf_sim_run() and eevdf_sim_step(), between or
 * during events: they may read the simulation through the getters, but
 * the calls that change or advance it (eevdf_sim_run(), eevdf_sim_step(),
 * eevdf_sim_add_task(), eevdf_sim_set_nice(), eevdf_sim_set_affinity(),
 * eevdf_sim_set_group(), eevdf_sim_set_cgroup(),
 * eevdf_sim_set_autogroup_nice(), eevdf_workload_add_tasks()) return
 * EEVDF_EBUSY there, and
 * eevdf_sim_free() must not be called.
 */
typedef void (*eevdf_trace_fn)(void *ud, const struct eevdf_trace_event *ev);

/*
 * Called every eevdf_config.progress_every events; a non-zero return
 * stops the run: the run function returns EEVDF_ECANCELED, and the
 * simulation is then as after any failed run.  Where the run stops is
 * the caller's decision (a wall-clock limit, a user's interrupt); as
 * long as it returns 0, the run is the same as without the callback.
 */
typedef int (*eevdf_progress_fn)(void *ud, const eevdf_sim *sim);

struct eevdf_config {
	const char *name;    /* label printed in results (copied); may be NULL */
	uint64_t seed;       /* seed of every random stream */
	/*
	 * The machine (eevdf/machine.h), only read during eevdf_sim_new().
	 * When NULL, a flat machine of nr_cpus cores in one LLC ticking at hz.
	 * When set, nr_cpus and hz are ignored: the machine has its own.
	 */
	const eevdf_machine *machine;
	int nr_cpus;         /* CPUs of the machine, 1..EEVDF_MAX_CPUS */
	int hz;              /* tick frequency, EEVDF_HZ_MIN..EEVDF_HZ_MAX */
	const char *kernel;  /* kernel profile, NULL = eevdf_profile_default() */
	uint64_t feat_on;    /* features forced on (see features.h) */
	uint64_t feat_off;   /* features forced off; feat_off wins over feat_on */
	/*
	 * sysctl_sched_base_slice as if written to debugfs, in ns; 0 keeps the
	 * kernel default (0.70 ms scaled by 1 + ilog2(min(nr_cpus, 8))).
	 */
	eevdf_time base_slice;
	/*
	 * The RT and deadline knobs, in ns; 0 keeps the kernel default.
	 * rt_runtime and rt_period are sched_rt_runtime_us (950 ms, -1 for
	 * RUNTIME_INF) and sched_rt_period_us (1 s): RT throttling in the
	 * profiles that have it, and deadline admission control in all.
	 * rr_timeslice is sched_rr_timeslice_ms (100 ms, kept in ticks).
	 * fair_server_runtime and _period are debugfs
	 * sched/fair_server/cpuN/{runtime,period} (50 ms of 1 s) for every
	 * CPU in 6.12+.  A value the kernel takes as 0 is EEVDF_KNOB_ZERO
	 * here: rt_runtime 0 (no RT runtime, no DL bandwidth), the fair
	 * server's runtime 0 (off), sched_rr_timeslice_ms 0 (the default);
	 * a period of 0 is refused.  eevdf_config_set_sysctl() sets them
	 * by name.
	 */
	eevdf_time rt_runtime;
	eevdf_time rt_period;
	eevdf_time rr_timeslice;
	eevdf_time fair_server_runtime;
	eevdf_time fair_server_period;
	/*
	 * kernel.sched_autogroup_enabled: each session's tasks of the root
	 * cgroup share a task group (eevdf_task_spec.session).  0 keeps the
	 * default, on, as CONFIG_SCHED_AUTOGROUP kernels (every major
	 * distribution's) boot; 1 on, -1 off.
	 */
	int autogroup;
	eevdf_time duration; /* planned run length, reported in results */
	/*
	 * Recheck every run-queue invariant after every event (slow; tests).
	 * A library built with EEVDF_NO_INVARIANTS has no checker and
	 * refuses this with EEVDF_EINVAL.
	 */
	bool check_invariants;
	eevdf_trace_fn trace; /* optional trace sink */
	void *trace_ud;
	/*
	 * A feature in feat_on or feat_off that the kernel profile does not
	 * have (DELAY_DEQUEUE on 6.8) makes eevdf_sim_new() fail, as writing
	 * it to that kernel's debugfs would.  True accepts it and leaves it
	 * as the profile has it (off): sweeps that want the flat row.
	 */
	bool allow_absent_features;
	/*
	 * Limits (0: none).  After max_events events, running another one
	 * fails with EEVDF_ELIMIT: a run that needs exactly max_events
	 * events is not affected.
	 */
	uint64_t max_events;
	/*
	 * Ops the tasks may execute at one simulated instant (a
	 * loop that never lets the clock move) before the run fails with
	 * EEVDF_ELIVELOCK; 0 is EEVDF_MAX_INSTANT_OPS.
	 */
	uint64_t max_instant_ops;
	eevdf_progress_fn progress; /* optional, see eevdf_progress_fn */
	void *progress_ud;
	uint64_t progress_every; /* events between calls; 0 = 65536 */
};

/* A knob written as 0 (0 in eevdf_config keeps the default). */
#define EEVDF_KNOB_ZERO ((eevdf_time)-2)

/* Fill cfg with the defaults: 1 CPU, HZ 1000, seed 1, default profile. */
EEVDF_API void eevdf_config_init(struct eevdf_config *cfg);

/*
 * Apply a feature list ("NO_DELAY_DEQUEUE,RUN_TO_PARITY") to cfg's
 * overrides.  Same contract as eevdf_features_parse().
 */
EEVDF_API int eevdf_config_set_features(struct eevdf_config *cfg,
					const char *list, char *err,
					size_t errlen);

/*
 * Set a kernel knob of the scheduling classes by its name as the kernel
 * spells it, in its unit: "kernel.sched_rt_runtime_us" (-1 for no
 * limit), "kernel.sched_rt_period_us", "kernel.sched_rr_timeslice_ms"
 * ("kernel." may be left out), "sched/fair_server/runtime" and
 * "sched/fair_server/period" (ns, for every CPU).  0, or EEVDF_EINVAL
 * with the reason in err (an unknown name lists the known ones); ranges
 * are checked by eevdf_sim_new().
 */
EEVDF_API int eevdf_config_set_sysctl(struct eevdf_config *cfg,
				      const char *name, const char *value,
				      char *err, size_t errlen);
/* The knobs eevdf_config_set_sysctl() knows: names and one-line help. */
EEVDF_API size_t eevdf_sysctl_count(void);
EEVDF_API const char *eevdf_sysctl_name(size_t i);
EEVDF_API const char *eevdf_sysctl_help(size_t i);

/*
 * 0 when every feature cfg turns on or off is one its kernel profile has
 * (or cfg->allow_absent_features); else EEVDF_EINVAL and, in err, the
 * first that is not and the profiles that have it.  eevdf_sim_new() makes
 * the same check.
 */
EEVDF_API int eevdf_config_check_features(const struct eevdf_config *cfg,
					  char *err, size_t errlen);

/* Program ops.  A program is a flat array; a LOOP's body is the body_len ops
 * that follow it (loops nest by containing other LOOPs in their body). */
enum eevdf_op_kind {
	EEVDF_OP_RUN = 1,   /* consume `duration` ns of CPU work */
	EEVDF_OP_SLEEP = 2, /* block for `duration` ns (timer sleep) */
	EEVDF_OP_YIELD = 3, /* sched_yield() */
	EEVDF_OP_LOOP = 4,  /* repeat the body `count` times, 0 = forever */
};

struct eevdf_op {
	enum eevdf_op_kind kind;
	eevdf_time duration; /* RUN, SLEEP: >= 0 */
	uint64_t count;      /* LOOP: iterations, 0 = forever */
	uint32_t body_len;   /* LOOP: number of following ops in the body */
};

struct eevdf_task_spec {
	const char *name;   /* copied; at most EEVDF_NAME_MAX - 1 bytes */
	int nice;           /* -20..19 */
	enum eevdf_policy policy;
	/* Custom slice (sched_attr.sched_runtime), 0 = none.  Clamped to
	 * 0.1..100 ms as the kernel does. */
	eevdf_time slice;
	const int *cpus;    /* allowed CPUs (copied); NULL/0 = all */
	size_t nr_cpus;
	eevdf_time start;   /* creation time, >= 0 */
	const struct eevdf_op *program; /* copied */
	size_t nr_ops;
	/* SCHED_FIFO / SCHED_RR: the rt_priority, 1..99 */
	unsigned int rt_priority;
	/*
	 * SCHED_DEADLINE: runtime, relative deadline and period in ns
	 * (period 0: the deadline), checked and admitted as sched_setattr()
	 * would: eevdf_sim_add_task() fails with EEVDF_EINVAL or, when
	 * admission control refuses the bandwidth, EEVDF_EBUSY.
	 */
	eevdf_time dl_runtime;
	eevdf_time dl_deadline;
	eevdf_time dl_period;
	/*
	 * Group scheduling (eevdf/group.h): the cgroup the task starts in,
	 * which must exist (NULL or "/": the root); and its session, whose
	 * autogroup it joins while it is in the root cgroup and autogroup is
	 * on.  Session 0 is the run's own (every task, unless told otherwise,
	 * as if started from one shell), other numbers other sessions,
	 * EEVDF_SESSION_NONE none (init's, the root group: kernel threads).
	 */
	const char *cgroup;
	unsigned int session;
};

#define EEVDF_SESSION_NONE 0xffffffffu

/*
 * Create a simulation.  Returns 0 and sets *out, or EEVDF_EINVAL (bad
 * configuration; *out is NULL) or EEVDF_ENOMEM.  cfg is only read during the
 * call.  On EEVDF_EINVAL, if err is not NULL, a message is written there.
 */
EEVDF_API int eevdf_sim_new(const struct eevdf_config *cfg,
			    eevdf_sim **out, char *err, size_t errlen);

/* Free a simulation and everything it owns.  NULL is a no-op. */
EEVDF_API void eevdf_sim_free(eevdf_sim *sim);

/*
 * Add a task; it is created at spec->start (or now, if that has passed).
 * Returns the new task's pid (>= 1, in order of addition) or a negative
 * error: EEVDF_EINVAL for a bad spec or a NULL argument (see
 * eevdf_sim_errmsg()), EEVDF_ENOMEM, EEVDF_EMISUSE after a failed run,
 * EEVDF_EBUSY from a callback.
 */
EEVDF_API int eevdf_sim_add_task(eevdf_sim *sim,
				 const struct eevdf_task_spec *spec);

/*
 * Change a task's nice level now, as setpriority()/sched_setattr() would:
 * the task's lag and relative deadline are preserved (reweight).
 * Returns 0, or EEVDF_EINVAL for an unknown pid or nice out of range.
 */
EEVDF_API int eevdf_sim_set_nice(eevdf_sim *sim, int pid, int nice);

/*
 * sched_setaffinity() now: the task may run only on cpus[0 .. nr) (nr 0 =
 * every CPU).  A queued task outside its new CPUs moves to the first of
 * them at once, a running one as soon as its CPU reschedules (the
 * kernel's migration stopper), a sleeping one when it wakes.  Returns 0,
 * or EEVDF_EINVAL for an unknown pid or a bad CPU list.
 */
EEVDF_API int eevdf_sim_set_affinity(eevdf_sim *sim, int pid, const int *cpus,
				     size_t nr);

/*
 * Run events up to and including time `until`, then leave the clock at
 * `until` (or at the last event if every task has exited).  Returns 0, or a
 * negative error (the simulation is then unusable except for reading
 * results and eevdf_sim_errmsg()): among them EEVDF_ERANGE when a task's
 * program would take the clock past EEVDF_TIME_MAX, EEVDF_ELIMIT at
 * max_events, EEVDF_ECANCELED when the progress callback stopped it,
 * EEVDF_EINTERNAL for a bug of the library.  EEVDF_EINVAL for an until
 * before now and EEVDF_EBUSY from a callback leave it usable.
 */
EEVDF_API int eevdf_sim_run(eevdf_sim *sim, eevdf_time until);

/* Run exactly one event.  Returns 1 if one ran, 0 if none is left (the
 * fair servers' timers, which wake no task, do not count once they are
 * all that is left), or a negative error, as eevdf_sim_run(). */
EEVDF_API int eevdf_sim_step(eevdf_sim *sim);

/*
 * The getters below accept NULL: they then return 0, false or "" (the
 * errmsg, "no simulation"); those that fill a struct return EEVDF_EINVAL.
 */

/* Current simulated time. */
EEVDF_API eevdf_time eevdf_sim_now(const eevdf_sim *sim);

/* Placement and balancing totals of a run (SMP machines). */
struct eevdf_smp_stats {
	uint64_t wakeups;          /* try_to_wake_up() of a sleeping task */
	uint64_t wakeups_idle;     /* ... that picked an idle CPU */
	uint64_t wakeups_affine;   /* ... that moved to the waker's CPU side */
	uint64_t wakeups_remote;   /* ... sent to a CPU's wake list (another LLC's,
				    * or any with the TTWU_QUEUE_* knobs) */
	uint64_t migrations;       /* every move of a started task */
	uint64_t migrations_wakeup;  /* ... at wakeup */
	uint64_t migrations_balance; /* ... by periodic or NOHZ balancing */
	uint64_t migrations_newidle; /* ... by newly-idle balancing */
	uint64_t balance_runs;     /* sched_balance_rq() calls */
	uint64_t wakeups_direct_remote; /* ... activated under another CPU's
					 * rq lock by the waker */
	uint64_t ipis;             /* wake-list batches sent: one IPI (or a
				    * polling idle CPU's wake) each */
	uint64_t wakelist_tasks;   /* tasks those batches woke */
	uint64_t wakelist_batch_max; /* the largest batch */
	uint64_t sis_probes;       /* CPUs select_idle_sibling() looked at */
};

/* The totals so far; 0, or EEVDF_EINVAL for NULL arguments. */
EEVDF_API int eevdf_sim_smp_stats(const eevdf_sim *sim,
				  struct eevdf_smp_stats *out);

/*
 * The RT and deadline classes: the knobs in effect and what the classes
 * did.  active is false for a run that never had an RT or deadline task
 * and kept every knob at its default (the fair server runs anyway, its
 * totals are counted, and results leave the section out).
 */
struct eevdf_class_stats {
	bool active;
	/* knobs (eevdf_config) as the profile applies them */
	eevdf_time rt_runtime;	 /* sched_rt_runtime_us in ns, -1: no limit */
	eevdf_time rt_period;	 /* sched_rt_period_us in ns */
	eevdf_time rr_timeslice; /* in ns: whole ticks */
	bool rt_throttling;	 /* the profile throttles RT (up to 6.11) */
	bool fair_server;	 /* the profile has a fair server (6.12+) */
	eevdf_time fair_server_runtime; /* 0: the server is off */
	eevdf_time fair_server_period;
	/* tasks that were ever in the class */
	uint64_t rt_tasks;
	uint64_t dl_tasks;
	uint64_t rt_throttled; /* times an rt_rq was throttled */
	uint64_t rt_pushes, rt_pulls, dl_pushes, dl_pulls;
	uint64_t fair_server_starts, fair_server_stops;
	eevdf_time fair_server_ns; /* fair time run by the servers */
	/* the admitted deadline bandwidth and its limit, in CPUs << 20 */
	uint64_t dl_bw;
	int64_t dl_bw_limit; /* -1: no admission control */
};

/* The totals so far; 0, or EEVDF_EINVAL for NULL arguments. */
EEVDF_API int eevdf_sim_class_stats(const eevdf_sim *sim,
				    struct eevdf_class_stats *out);

/*
 * The I/O model (docs/io-model.md): each block device and each file
 * system of the run.  A run without them has none (eevdf_sim_nr_devices()
 * is 0), and results leave the sections out.
 */
struct eevdf_device_stats {
	const char *name;   /* the workload's object name, "sda" */
	const char *preset; /* "nvme", "sata-ssd", "hdd", "none" */
	uint64_t reads, writes, flushes; /* requests submitted */
	uint64_t read_bytes, write_bytes;
	eevdf_time busy_ns;	/* time with a request in the drive */
	eevdf_time wait_sum_ns; /* submission to completion, summed */
	eevdf_time wait_max_ns;
	uint64_t completed;
	uint32_t max_inflight;	/* most requests in the drive at once */
	uint64_t restarts;	/* queue runs handed to kblockd */
	uint64_t irqs;		   /* its completion interrupts */
	uint64_t softirq_deferred; /* times irq_exit() left softirqs to
				    * ksoftirqd, on every CPU */
};

struct eevdf_fs_stats {
	const char *name;
	const char *device;
	uint64_t cache_hits;	/* pages read from the page cache */
	uint64_t cache_misses;	/* pages read from the device */
	uint64_t evicted;	/* clean pages reclaimed */
	uint64_t written_back;	/* pages written by writeback and fsync */
	uint64_t background_passes, kupdate_passes;
	uint64_t commits;	/* jbd2 commits */
	uint64_t handle_waits;	/* handles that waited for a locked commit */
	uint64_t throttled;	/* balance_dirty_pages() pauses */
	eevdf_time throttle_ns; /* ... their total */
};

EEVDF_API size_t eevdf_sim_nr_devices(const eevdf_sim *sim);
/* Device i; 0, or EEVDF_EINVAL (NULL, or i out of range). */
EEVDF_API int eevdf_sim_device_stats(const eevdf_sim *sim, size_t i,
				     struct eevdf_device_stats *out);
EEVDF_API size_t eevdf_sim_nr_filesystems(const eevdf_sim *sim);
EEVDF_API int eevdf_sim_fs_stats(const eevdf_sim *sim, size_t i,
				 struct eevdf_fs_stats *out);

/* Events run so far (a measure of the work done, for progress and speed). */
EEVDF_API uint64_t eevdf_sim_nr_events(const eevdf_sim *sim);

/* True when every task added so far has exited. */
EEVDF_API bool eevdf_sim_done(const eevdf_sim *sim);

/* Message of the last error on this simulation; valid until the next call
 * on it.  Never NULL. */
EEVDF_API const char *eevdf_sim_errmsg(const eevdf_sim *sim);

/* Effective settings, after the profile and overrides were applied. */
EEVDF_API uint64_t eevdf_sim_features(const eevdf_sim *sim);
EEVDF_API const char *eevdf_sim_kernel(const eevdf_sim *sim);
EEVDF_API eevdf_time eevdf_sim_base_slice(const eevdf_sim *sim);
EEVDF_API int eevdf_sim_nr_cpus(const eevdf_sim *sim);
EEVDF_API int eevdf_sim_hz(const eevdf_sim *sim);
EEVDF_API uint64_t eevdf_sim_seed(const eevdf_sim *sim);
EEVDF_API eevdf_time eevdf_sim_duration(const eevdf_sim *sim);
/* kernel.sched_autogroup_enabled as the run has it. */
EEVDF_API bool eevdf_sim_autogroup(const eevdf_sim *sim);
/* The configuration's name ("" when none was given). */
EEVDF_API const char *eevdf_sim_name(const eevdf_sim *sim);

#endif
