/* SPDX-License-Identifier: MIT */
/*
 * Results of a simulation: per-task and per-CPU accounting, read at any time
 * (values are as of eevdf_sim_now(); reading never changes the simulation).
 */
#ifndef EEVDF_RESULTS_H
#define EEVDF_RESULTS_H

#include "eevdf/report.h"
#include "eevdf/sim.h"

struct eevdf_task_stats {
	const char *name; /* owned by the simulation */
	int pid;
	int cpu; /* CPU the task is on (or last ran on) */
	int nice;
	enum eevdf_policy policy;
	enum eevdf_task_state state;
	eevdf_time cpu_ns;   /* runtime (sum_exec_runtime) */
	eevdf_time wait_ns;  /* runnable but not running */
	eevdf_time sleep_ns; /* blocked (including time spent delayed) */
	uint64_t switches;  /* context switches away: voluntary + involuntary */
	uint64_t voluntary; /* switched out because it blocked (nvcsw) */
	uint64_t involuntary; /* switched out while runnable (nivcsw) */
	uint64_t migrations;
	uint64_t yields; /* sched_yield() calls */
	/*
	 * perf sched latency: a delay sample runs from becoming runnable (by
	 * wakeup, creation or preemption) to being switched in.
	 */
	uint64_t delay_count;
	eevdf_time delay_sum_ns;
	eevdf_time delay_max_ns;
	eevdf_time delay_max_at; /* switch-in time of the largest delay */
	/* SCHED_FIFO / SCHED_RR: 1..99, else 0 */
	unsigned int rt_priority;
	/* SCHED_DEADLINE: runtime, deadline and period, else 0 */
	eevdf_time dl_runtime;
	eevdf_time dl_deadline;
	eevdf_time dl_period;
	/* the group it was last scheduled in (before it exited): its
	 * cgroup's path, or its session's "/autogroup-N"; owned by the
	 * simulation */
	const char *cgroup;
};

struct eevdf_cpu_stats {
	int cpu;
	eevdf_time busy_ns;
	eevdf_time idle_ns;
	uint64_t switches; /* context switches on this CPU (next != prev) */
	uint64_t ticks;
	/* This CPU's rq lock, taken by any CPU (the rq_remote_* costs). */
	uint64_t lock_acquisitions;
	uint64_t lock_contended; /* ... that found it held and spun */
	eevdf_time lock_spin_ns; /* every CPU's spin on it */
	eevdf_time lock_spin_max_ns;
	eevdf_time lock_hold_ns; /* held, line transfers included */
};

/* The policy as the workload format spells it ("normal", "fifo",
 * "deadline", ...) and its scheduling class ("fair", "rt", "dl"). */
EEVDF_API const char *eevdf_policy_name(enum eevdf_policy p);
EEVDF_API const char *eevdf_policy_class(enum eevdf_policy p);

EEVDF_API size_t eevdf_sim_nr_tasks(const eevdf_sim *sim);

/* Stats of the task with index i (0-based, pid i + 1).  EEVDF_EINVAL when
 * i is out of range. */
EEVDF_API int eevdf_sim_task_stats(const eevdf_sim *sim, size_t i,
				   struct eevdf_task_stats *out);

/* Stats of CPU cpu.  EEVDF_EINVAL when cpu is out of range. */
EEVDF_API int eevdf_sim_cpu_stats(const eevdf_sim *sim, int cpu,
				  struct eevdf_cpu_stats *out);

/*
 * The results as JSON ("format": "eevdf-sim-result/1"), a NUL-terminated
 * string allocated with malloc() that the caller frees with free().
 * Returns 0, EEVDF_EINVAL (sim or out NULL) or EEVDF_ENOMEM; on failure
 * *out is NULL.  Integers are exact over the full 64 bits.
 */
EEVDF_API int eevdf_sim_results_json(const eevdf_sim *sim, char **out);

/* SHA-256 of len bytes at data as 64 lowercase hex digits and a NUL. */
EEVDF_API void eevdf_sha256_hex(const void *data, size_t len, char hex[65]);

/*
 * The per-task results as CSV (RFC 4180): the header line "name,pid,cpu,
 * nice,policy,state,cpu_ns,wait_ns,sleep_ns,switches,voluntary,
 * involuntary,migrations,delay_count,delay_avg_ns,delay_max_ns,
 * delay_max_at_ns,delay_sum_ns", then one row per task in pid order, the
 * values of the JSON "tasks" entries.  Columns are only ever appended.
 * Same allocation and error contract as eevdf_sim_results_json().
 */
EEVDF_API int eevdf_sim_results_csv(const eevdf_sim *sim, char **out);

/*
 * The same with a report's headline numbers (eevdf_report_headlines())
 * added to "summary" under their names, after the built-in keys.
 * EEVDF_EINVAL also for a headline without a name, with a value that is
 * not finite, or whose name a summary key already has.
 */
EEVDF_API int
eevdf_sim_results_json_headlines(const eevdf_sim *sim,
				 const struct eevdf_headline *head,
				 size_t nr_head, char **out);

/*
 * What a run's results say beyond the simulation itself: the report's
 * headline numbers, whether the benchmark completed, and everything
 * needed to run it again.  Zero it and fill what is known: a NULL string
 * or a zero count is left out of the results.
 */
struct eevdf_run_info {
	const struct eevdf_headline *head; /* into "summary", as above */
	size_t nr_head;
	/* 1: the benchmark completed; 0: it did not, for the reason in
	 * incomplete; -1: unknown (no "complete" key) */
	int complete;
	const char *incomplete;
	/* provenance */
	const char *tool;	 /* "eevdf-sim 0.1.0" */
	const char *git;	 /* git describe of its build */
	const char *const *argv; /* the command line, argv[0] first */
	size_t argc;
	const char *workload_path;	/* as given */
	const char *workload_sha256;	/* of the file's bytes */
	const char *duration_param;	/* the param --duration sets */
	const char *const *param_names; /* every param, final values */
	const char *const *param_values;
	size_t nr_params;
};

/*
 * The results JSON with info: "complete" (and "incomplete") after
 * "format", then "provenance" {tool, library, git, command_line}, and in
 * "config" the workload's path and SHA-256, its params and the machine's
 * digest.  info NULL: as eevdf_sim_results_json().  Same contract.
 */
EEVDF_API int eevdf_sim_results_json_run(const eevdf_sim *sim,
					 const struct eevdf_run_info *info,
					 char **out);

/* Where the CSV puts the run's provenance. */
enum eevdf_csv_meta {
	EEVDF_CSV_META_NONE = 0, /* nowhere: eevdf_sim_results_csv() */
	EEVDF_CSV_META_COLUMNS,	 /* leading columns, the same in every row */
	EEVDF_CSV_META_COMMENTS, /* "# key: value" lines before the header */
};

/*
 * The CSV with the provenance of info: tool, library, git, workload,
 * workload_sha256, machine, machine_digest, kernel, features, seed,
 * params, complete (NAME=VALUE pairs and feature names separated by
 * spaces), placed as meta says.  Same contract as eevdf_sim_results_csv().
 */
EEVDF_API int eevdf_sim_results_csv_run(const eevdf_sim *sim,
					const struct eevdf_run_info *info,
					enum eevdf_csv_meta meta, char **out);

#endif
