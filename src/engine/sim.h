/* SPDX-License-Identifier: MIT */
/*
 * src/engine/: what makes a simulation run: the clock and event loop and
 * the public eevdf_sim API (sim.c), the task program interpreter
 * (program.c), the objects tasks block on (objects.c), workload metrics
 * (metrics.c), and the values programs compute with: expressions
 * (expr.c) and distributions (dist.c).  It includes sched/, machine/ and
 * lib/, and enters the scheduler only through sched/core.h (plus the
 * data of sched/sched.h, which the interpreter reads).
 *
 * sim.c and program.c call each other, as one subsystem: the loop runs
 * programs, and a program's spawn creates its task through the loop's
 * eevdf__sim_add_task_prog().
 *
 * The simulation object: the scheduler (sched/sched.h) and everything a
 * workload adds to it: objects, metrics, spawn templates, the stop and
 * warmup events.  sim.c owns the clock, the event loop and the public
 * entry points; the scheduler (sched/core.c) owns what happens to tasks
 * and CPUs at each event and calls back into the program interpreter
 * (program.c) through struct sched_task_ops.
 */
#ifndef EEVDF_SIM_INTERNAL_H
#define EEVDF_SIM_INTERNAL_H

#include "sched/core.h"
#include "machine/machine.h"
#include "objects.h"
#include "program.h"
#include "task_pool.h"

/* Events of the workload as a whole (sim.c); the scheduler's are < 20. */
enum sim_event_type {
	SEV_STOP = 20,
	SEV_WARMUP = 21,
	SEV_RATE = 22,
	SEV_SNAP = 23, /* an interval report's snapshot (metrics.c) */
};

struct metric;

/* Tasks a join op waits for. */
struct join_set {
	u32 *pids;
	u32 nr;
};

/* JOIN's a.c for "the joiner's own children" (wait() for them all). */
#define JOIN_CHILDREN (-1)

/*
 * An exited task stays whole (its struct task and everything it owns)
 * while anything may still refer to it (struct task's pins) and while it
 * is among the last EXITS_KEPT_WHOLE exits, so that whoever looks into a
 * finished run (a test, a debugger) finds its last tasks as they were.
 * After that it is compacted into a struct task_rec: the memory of a run
 * that forks for ever grows by one record per fork, not by one task.
 */
#define EXITS_KEPT_WHOLE 64

/*
 * What is left of a compacted task: exactly what its rows in the results
 * read (eevdf_sim_task_stats(), the results writers and the reports in
 * src/report/).  Its pid is its place in sim->recs; its state is
 * TASK_DEAD.
 */
struct task_rec {
	const char *name; /* the task's own, in the name arena */
	/* its own semaphore while it holds a count or has waiters (others
	 * may name it); NULL means one as new, made again when named */
	struct sim_object *self;
	struct task_stats st;
	u64 sum_exec_runtime;
	eevdf_time start;
	eevdf_time exited_at;
	int cpu;
	int8_t nice;
	uint8_t policy; /* enum eevdf_policy */
	uint8_t rt_priority;
	u64 dl_runtime, dl_deadline, dl_period; /* SCHED_DEADLINE */
	u32 group;				/* the id of its stats_group */
};

/* Records come in chunks that never move: their names stay put. */
#define TASK_RECS_PER_CHUNK 1024

struct name_chunk;

/* Where a template's instances go: the spawner's session, a named one, or
 * a new session each (setsid()). */
enum tmpl_session {
	TMPL_SESSION_INHERIT = 0,
	TMPL_SESSION_FIXED,
	TMPL_SESSION_NEW,
};

/* What spawn creates: a task spec and its program. */
struct task_template {
	char *name; /* instances are name[k] */
	/* spec.name, spec.cgroup and spec.session unused; cpus owned */
	struct eevdf_task_spec spec;
	struct program *prog; /* a reference */
	bool is_thread;
	u32 spawned; /* instances so far, for their names */
	/* the instances' cgroup (NULL: the spawner's) and session */
	struct task_group *cgroup;
	enum tmpl_session session_mode;
	u32 session; /* TMPL_SESSION_FIXED: the internal number */
};

struct eevdf_sim {
	struct scheduler sched;	    /* the clock, the CPUs, the tasks */
	struct task_pool task_pool; /* where the tasks live (zeroed: empty) */

	struct eevdf_machine
		*machine; /* owned copy: the config's or a flat one */
	u64 seed;
	eevdf_time duration;
	char name[128];
	size_t nr_exited;

	bool check_invariants;
	bool running;	      /* inside eevdf_sim_run() or _step(): EBUSY */
	bool class_knobs_set; /* an RT or DL knob is not its default */
	uint64_t nr_events;   /* events run so far */
	/* limits: max_events (0: none), the progress callback */
	uint64_t max_events;
	eevdf_progress_fn progress;
	void *progress_ud;
	uint64_t progress_every;
	/* the next event count at which one of them is due (UINT64_MAX:
	 * none), so that the loop pays one compare per event for both */
	uint64_t next_check, next_progress;

	/*
	 * Programs built from public op arrays, shared by every task added
	 * with the same ops: a hundred thousand tasks of one kind hold one
	 * program, not a hundred thousand copies.
	 */
	struct prog_cache {
		struct eevdf_op *ops; /* a copy of the public ops */
		size_t nr;
		struct program *prog; /* a reference */
	} prog_cache[8];
	unsigned int prog_cache_next;

	/* Livelock guard: ops executed without the clock moving, and how
	 * many are allowed (eevdf_config.max_instant_ops) */
	eevdf_time guard_time;
	u64 guard_ops, guard_max;

	/* Workload engine (program.c). */
	struct sim_object **objs;
	size_t nr_objs, cap_objs;
	u32 *objs_by_name; /* object indices sorted by name */
	bool objs_sorted;
	s64 *globals;
	size_t nr_globals;
	struct metric **metrics;
	size_t nr_metrics;
	struct metric_snaps *snaps; /* interval reports' snapshots, or NULL */
	struct join_set *join_sets;
	size_t nr_join_sets;
	struct task_template *templates;
	size_t nr_templates;
	struct waitq joiners;
	bool stop_flag;	    /* the workload's "stop" expression */
	eevdf_time kill_at; /* stop mode kill: the run ends here */
	int end_on_exit_of; /* pid whose exit ends the run, or 0 */
	bool ended;	    /* the workload's stop condition held */
	struct eevdf_event stop_ev;
	struct eevdf_event warmup_ev;
	char **strings; /* interned string constants (keys) */
	size_t nr_strings;
	/*
	 * Sessions (internal numbers, 0 none): one above every session a
	 * task or template has had, the next that a spawn with setsid()
	 * starts.
	 */
	u32 next_session;

	/* Exited tasks (sim.c): see EXITS_KEPT_WHOLE. */
	int kept[EXITS_KEPT_WHOLE]; /* the pids of the last exits, a ring */
	u32 kept_head, nr_kept;
	int *reap; /* pids to compact once the current event is over */
	size_t nr_reap, cap_reap;
	struct task_rec **recs; /* by pid - 1, in chunks (NULL: none yet) */
	size_t nr_rec_chunks;
	struct name_chunk *names; /* every task's name, for the whole run */

	/* The I/O model (io.h), or NULL: a run without I/O objects. */
	struct io *io;
	size_t nr_kthreads; /* tasks that are kernel threads: never exit */
};

/* A call is refused: its reason in errmsg, the run goes on; returns code. */
int eevdf__sim_reject(struct eevdf_sim *sim, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The checks of every call that changes a simulation: EEVDF_EBUSY from
 * its own callbacks, EEVDF_EMISUSE after a failed run (its message kept).
 * 0 when the call may go on.
 */
int eevdf__sim_mutable(struct eevdf_sim *sim, const char *call);
/* Record an error (sticky) with a printf-style message; returns code.
 * Cold, as eevdf__sched_fail(). */
int eevdf__sim_fail(struct eevdf_sim *sim, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

/* The simulation that embeds sched. */
static inline struct eevdf_sim *sim_of(struct scheduler *sched)
{
	return container_of(sched, struct eevdf_sim, sched);
}

/* program.c: the task program interpreter. */
int eevdf__prog_step(struct eevdf_sim *sim, struct rq *rq, struct task *p);
void eevdf__prog_burst_end(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_timer(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_switch_out(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_switch_in(struct eevdf_sim *sim, struct task *p);
int eevdf__prog_speed_change(struct eevdf_sim *sim, struct task *p);
void eevdf__prog_interrupt(struct eevdf_sim *sim, struct task *p, u64 ns);
/* Workload setup (the loader's side of the engine). */
/* Add an object (ownership passes to the simulation); its index or < 0. */
int eevdf__sim_add_object(struct eevdf_sim *sim, struct sim_object *o);
int eevdf__sim_set_globals(struct eevdf_sim *sim, const s64 *init, size_t n);
/* A join set of pids (copied); its index or < 0. */
int eevdf__sim_add_join_set(struct eevdf_sim *sim, const u32 *pids, u32 nr);
/* "stop": set the stop flag at `after` (kill: end the run there). */
int eevdf__sim_set_stop(struct eevdf_sim *sim, eevdf_time after, bool kill);
int eevdf__sim_set_warmup(struct eevdf_sim *sim, eevdf_time at);
/* A spawn template (spec and cpus copied, a program reference taken
 * over); its index or < 0. */
int eevdf__sim_add_template(struct eevdf_sim *sim, const char *name,
			    const struct eevdf_task_spec *spec,
			    struct program *prog, bool is_thread);
/*
 * Intern a string constant (a metric key such as tbench's "ReadX"): 0 and
 * *id, or EEVDF_ENOMEM.  Ids start at STRING_ID_BASE so that reports can
 * tell a string key from a number such as a pid.
 */
#define STRING_ID_BASE ((s64)1 << 40)
int eevdf__sim_intern(struct eevdf_sim *sim, const char *s, s64 *id);
/* The string of an interned id, or NULL when v is not one. */
const char *eevdf__sim_string(const struct eevdf_sim *sim, s64 v);
/*
 * Exited tasks.  sched.tasks[pid - 1] is the task of pid while it is
 * whole and NULL once it has been compacted; these read either.
 */
const struct task_rec *eevdf__sim_rec(const struct eevdf_sim *sim, int pid);
const char *eevdf__sim_task_name(const struct eevdf_sim *sim, int pid);
eevdf_time eevdf__sim_task_exited_at(const struct eevdf_sim *sim, int pid);
/* The own semaphore of pid ("<name>.self"), or NULL when out of memory. */
struct sim_object *eevdf__sim_task_self(struct eevdf_sim *sim, int pid);
/* p has just exited (program.c's task_exit()). */
void eevdf__sim_task_exited(struct eevdf_sim *sim, struct task *p);
/* Drop a pin the engine took on p (struct task's pins). */
void eevdf__sim_unpin(struct eevdf_sim *sim, struct task *p);
/* Tests: how many struct task are allocated (not compacted). */
size_t eevdf__sim_nr_whole_tasks(const struct eevdf_sim *sim);
/*
 * Where template idx's instances go: cgroup (a path that must exist, "/"
 * the root) or NULL for the spawner's; a session as mode says, session
 * being the public number of TMPL_SESSION_FIXED.  0, or EEVDF_EINVAL with
 * the reason in the simulation's errmsg.
 */
int eevdf__sim_template_groups(struct eevdf_sim *sim, size_t idx,
			       const char *cgroup, enum tmpl_session mode,
			       unsigned int session);
/* Session s (public) is taken: a later setsid() starts another. */
void eevdf__sim_session_used(struct eevdf_sim *sim, unsigned int session);
/* Add a task running prog (its reference is taken over); local_init
 * (prog->nr_locals values, or NULL for zeros) seeds its variables, and
 * binds (prog->nr_binds values; NULL when there are none) are the
 * objects its bound objrefs name (program.h). */
int eevdf__sim_add_task_prog(struct eevdf_sim *sim,
			     const struct eevdf_task_spec *spec,
			     struct program *prog, bool is_thread,
			     const s64 *local_init, const s32 *binds);
/* Register the channels a new task's sends can name (end of file). */
int eevdf__prog_open_channels(struct eevdf_sim *sim, struct task *p);
/* Build a program from the public op array. */
int eevdf__program_from_ops(const struct eevdf_op *ops, size_t nr,
			    struct program **out);
/* The deadlock report: every blocked task and what it waits on. */
void eevdf__prog_describe_blocked(struct eevdf_sim *sim, char *buf, size_t len);
/* io.c: the I/O model's setup, after the objects and after the tasks. */
int eevdf__io_setup(struct eevdf_sim *sim);
int eevdf__io_start(struct eevdf_sim *sim);
/* The hooks the scheduler runs programs through. */
extern const struct sched_task_ops eevdf__prog_ops;

#endif
