/* SPDX-License-Identifier: MIT */
/* Declarations shared by the eevdf-sim command-line front end. */
#ifndef EEVDF_CLI_H
#define EEVDF_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <sys/types.h>

#include "eevdf/eevdf.h"

#define PROG "eevdf-sim"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* git describe of the build, "" when it was not built from a checkout. */
const char *cli_git_describe(void);

/* Exit codes of DESIGN.md section 4: part of the CLI's interface. */
enum {
	EXIT_OK = 0,
	EXIT_REGRESSION = 1, /* check failed / regression */
	EXIT_USAGE = 2,	     /* usage or input error, or any failure */
	EXIT_INTERNAL = 3,   /* a broken invariant of libeevdf: a bug */
};

/*
 * The exit code of a failed library call rc whose message was msg (may be
 * NULL): EXIT_INTERNAL for EEVDF_EINTERNAL, after a line asking for a bug
 * report; else EXIT_USAGE, after a line naming the option that raises a
 * limit the call reached.
 */
int cli_exit_code(int rc, const char *msg);

/*
 * The limits of a run (cli/limits.c), the options that set them
 * (--max-events, --max-wall, --max-memory, --max-input, --max-depth,
 * --max-ops; 0 is no limit) and their defaults, which no shipped workload
 * reaches: blogbench, the busiest, runs 0.93e9 events in a minute here.
 */
#define CLI_MAX_EVENTS 4000000000ull
#define CLI_MAX_WALL (3600 * EEVDF_NSEC_PER_SEC)

struct cli_limits {
	uint64_t max_events; /* 0: none */
	eevdf_time max_wall; /* 0: none */
	uint64_t max_memory; /* bytes, 0: none */
	size_t max_input;    /* 0: the library's default; SIZE_MAX: none */
	int max_depth;	     /* 0: the library's default */
	uint64_t max_ops;    /* 0: the library's default; UINT64_MAX: none */
};

void cli_limits_init(struct cli_limits *l);
/* Set the limit of option opt ("--max-events") from arg: 0, or -1 after
 * printing why arg is wrong. */
int cli_limits_option(struct cli_limits *l, const char *opt, const char *arg);
/* The loader's limits into o. */
void cli_limits_load(const struct cli_limits *l, struct eevdf_load_opts *o);
/* Arm the run's limits: memory now, events and wall clock through cfg. */
void cli_limits_run(const struct cli_limits *l, struct eevdf_config *cfg);
/* Arm only the memory limit (loading, before the run). */
void cli_limits_memory(const struct cli_limits *l);
/* After a failure rc with message msg: the line naming the limit's
 * option, when a limit is why. */
void cli_limits_explain(int rc, const char *msg);
/* The counting allocator of libeevdf and cJSON: first thing in main(). */
void cli_memory_install(void);

/* A figure of one run: a report headline or a latency-table total. */
struct cli_figure {
	char name[32];
	char unit[16];
	int better; /* +1 higher is better, -1 lower, 0 neither */
	double value;
};

/* compare --metric: figures asked for by name, at most this many */
#define CLI_METRICS_MAX 8
/* the headlines, the four latency-table figures, then the --metric ones */
#define CLI_MEASURE_MAX (EEVDF_HEADLINES_MAX + 4 + CLI_METRICS_MAX)

/* What compare and check read of one run. */
struct cli_measure {
	uint64_t seed;
	char report[32]; /* the report the headlines are from; "" for none */
	struct cli_figure fig[CLI_MEASURE_MAX];
	size_t nr;
	size_t nr_head; /* fig[0..nr_head) are the report's headlines */
};

/*
 * Run the simulation 'eevdf-sim run' would for argv (argv[0] "run", the
 * options and the workload) and measure it instead of printing: the
 * report's headline numbers, then delay_avg_us, delay_max_us,
 * context_switches and involuntary_switches.  Returns EXIT_OK, or EXIT_USAGE after printing why.
 */
int cli_run_measure(int argc, char **argv, struct cli_measure *m);

/* The same, and the results JSON of the run in *json (free()) when json is
 * not NULL, as 'run --format json' prints it. */
int cli_run_results(int argc, char **argv, struct cli_measure *m, char **json);

/*
 * The simulation 'run' would build for argv (argv[0] the command's name,
 * used in messages; then run's options and the workload), with trace as
 * its trace sink, its tasks added, not yet run: for commands that drive
 * a run themselves.  run's output options (--trace, --timehist,
 * --output, --html) are refused, or with ignore_outputs ignored (a
 * second run of what 'run' ran).  EXIT_OK, or EXIT_USAGE after printing
 * why.
 */
struct cli_built {
	eevdf_sim *sim;
	eevdf_workload *wl;
	eevdf_machine *machine;
	eevdf_time duration;  /* how long 'run' would run it */
	const char *workload; /* the path as given */
};
int cli_run_build(int argc, char **argv, eevdf_trace_fn trace, void *ud,
		  bool ignore_outputs, struct cli_built *b);
void cli_built_free(struct cli_built *b);

/*
 * Check what 'eevdf-sim run' would for argv without running it: the
 * options, the workload (its warnings when warn), the machine, the
 * features against the profile, the simulation and its tasks.  EXIT_OK,
 * or EXIT_USAGE after printing why.
 */
int cli_run_check(int argc, char **argv, bool warn);

/* The results JSON of the run of argv in *json (free()), exactly as 'run
 * --format json' prints it (less the final newline), without the
 * workload's warnings.  EXIT_OK, or EXIT_USAGE after printing why. */
int cli_run_json(int argc, char **argv, char **json);

/*
 * The seed such a run would use (--seed, else the workload's, else 1),
 * without running it, and the load's warnings when warn.  EXIT_OK, or
 * EXIT_USAGE after printing why.
 */
int cli_run_seed(int argc, char **argv, uint64_t *seed, bool warn);

/*
 * An output written atomically (cli/atomic.c): stdout for NULL or "-";
 * else a temporary file beside the file path names (through its symbolic
 * links: the link stays a link), renamed over it at commit once every
 * write, the flush and the sync succeeded; a device or FIFO is written as
 * it is.  Every failure is said, with its reason, on stderr.
 */
struct cli_out {
	FILE *f;
	const char *opt;   /* the option, for messages ("--output") */
	const char *shown; /* the path as given, for messages */
	char *target;	   /* the file replaced (links followed) */
	char *tmp;	   /* the temporary file, or NULL */
	bool direct;	   /* a device or FIFO, written in place */
	int err;	   /* the first failed write's errno */
};

bool cli_out_open(struct cli_out *out, const char *opt, const char *path);
/* Write text; false (and the error kept for the commit) on failure. */
bool cli_out_write(struct cli_out *out, const char *text);
/* Flush, sync, rename; false after printing why (the file then is as
 * before). */
bool cli_out_commit(struct cli_out *out);
/* Drop an output not committed (stdout is left alone); idempotent. */
void cli_out_abort(struct cli_out *out);
/* True when a and b name one file, through links, existing or not. */
bool cli_same_file(const char *a, const char *b);

/*
 * Write text and a newline to path ("-" or NULL: stdout) through
 * cli_out_open(): never a partial file.  False after printing why.
 */
bool cli_write_atomic(const char *path, const char *text);

/*
 * Signals (cli/signals.c): SIGINT, SIGTERM and SIGHUP remove the
 * registered temporary files, stop the registered workers and exit 128 +
 * the signal, at once, or (cli_signals_defer()) when the command calls
 * cli_signal_exit() after keeping what it has.
 */
void cli_signals_install(void);
void cli_signals_defer(bool on);
/* The signal received (deferred), or 0. */
int cli_signal_pending(void);
/* Exit 128 + the pending signal, removing temporary files; else return. */
void cli_signal_exit(void);
/*
 * argv[*i] as one of cmd's own options opts[0..nr): its index, with its
 * value (--name value or --name=value; *i moves past a separate value);
 * nr when it is none of them; -1, said on stderr, when its value is
 * missing.
 */
int cli_own_option(const char *cmd, int argc, char **argv, int *i,
		   const char *const *opts, size_t nr, const char **value);
void cli_tmp_register(const char *path);
void cli_tmp_unregister(const char *path);
/*
 * Hold the three signals back (cli_signals_hold()) while a temporary file
 * is created and registered, and let them in again (cli_signals_release()
 * with what hold returned): a signal between the two would otherwise find
 * a file it does not know to remove.
 */
sigset_t cli_signals_hold(void);
void cli_signals_release(const sigset_t *old);
void cli_worker_register(pid_t pid);
void cli_worker_unregister(pid_t pid);
/* In a worker just forked by parent: die with it (PR_SET_PDEATHSIG). */
void cli_worker_started(pid_t parent);

/*
 * Worker processes (workers.c): cli_pool_run() runs items 0 .. nr - 1,
 * each in a forked child, up to jobs at a time.  A child runs
 * child(i, fd, ud), writes what the parent needs to fd and returns its
 * exit code; the parent gets finished(i, wait status, all the bytes the
 * child wrote) as each ends, in the order they end.  tick, when not
 * NULL, is called about once a second while children run.  Without
 * keep_going, no item starts after one failed.  Returns how many items
 * failed (a non-zero exit or a signal), or -1 when a pipe or a fork
 * failed (after printing why and waiting for the running ones).  The
 * workers are registered with the signal handler and die with the
 * parent; after a signal (deferred) no item starts.
 */
struct cli_pool_ops {
	int (*child)(size_t i, int fd, void *ud);
	void (*finished)(size_t i, int status, const char *data, size_t len,
			 void *ud);
	void (*tick)(void *ud);
};
int cli_pool_run(size_t nr, int jobs, bool keep_going,
		 const struct cli_pool_ops *ops, void *ud);

/* Subcommands: argv[0] is the subcommand's name; each returns an exit code. */
int cmd_run(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_rerun(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_plot(int argc, char **argv);
/* Host measurements, defined in calibrate/ (calibrate/calibrate.h). */
int cmd_calibrate(int argc, char **argv);
int cmd_kernel_check(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/*
 * cmd_run() on argv, with rec_argv (the command line after PROG) as the
 * command line its results record: rerun replays a recorded run with its
 * own output options and the original command line in the results.
 */
int cli_run_replay(int argc, char **argv, int rec_argc, char **rec_argv);

/* "eevdf-sim: " + message + newline, on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The workload's notes (what its rt-app import ignored or approximated),
 * one "eevdf-sim: warning: FILE: PATH: MESSAGE" line each, on stderr.
 */
void cli_warn_notes(const eevdf_workload *wl);

/*
 * Check a kernel profile name (NULL = the default).  A release in a
 * profile's range (6.10) becomes that profile's name in *kernel, with a
 * note on stderr.  Returns true when the library knows it; otherwise
 * prints an error that lists every profile.
 */
bool cli_check_profile(const char **kernel);

/*
 * Parse an --input value: auto, native or rt-app (also rtapp).  Returns 0,
 * or -1 after printing an error naming the accepted values.
 */
int cli_parse_input(const char *s, enum eevdf_input *out);

/*
 * The shipped workloads' directory into buf: $EEVDF_WORKLOADS, else the
 * source tree's workloads/ beside the build directory of this binary,
 * else the installed PREFIX/share/eevdf-sim/workloads.  False if none.
 */
bool cli_workloads_dir(char *buf, size_t len);

/*
 * The shipped machines' directory: $EEVDF_MACHINES, else machines/ in
 * the workloads directory (workloads, or the one above when NULL) as in
 * the source tree, else machines/ beside it as installed.  False if none.
 */
bool cli_machines_dir(const char *workloads, char *buf, size_t len);

/*
 * Load the machine of option opt: a file, or the name of a shipped
 * machine ("i7-4790") when no such file exists here.  False after
 * printing why (file, JSON path, reason).
 */
bool cli_load_machine(const char *opt, const char *arg, eevdf_machine **out);

/* "8 CPUs (4 cores, 1 LLC, 1 package)". */
void cli_machine_shape(const eevdf_machine *m, char *buf, size_t len);

/*
 * The JSON document of the file path (at most max bytes), or NULL with
 * *err: an errno of reading it (EFBIG: larger than max), or 0 when it was
 * read but is not JSON.
 */
struct cJSON;
struct cJSON *cli_read_json(const char *path, size_t max, int *err);
/* The whole of a file of at most max bytes as a string (free()); NULL
 * with errno set when it cannot be read. */
char *cli_read_text(const char *path, size_t max);
/* All of standard input as a string (free()); NULL with errno set. */
char *cli_read_stdin(size_t max);
/*
 * The figure name of a results JSON: a key of its "summary", else one of
 * its workload "metrics": NAME (a counter's or value's), NAME.STAT (count,
 * min, max, mean, p50, p90, p99, p99_9 of a hist or rate), NAME[KEY] and
 * NAME[KEY].STAT for a keyed one.  False when it has no such figure.
 */
bool cli_results_figure(const struct cJSON *results, const char *name,
			double *out);

/* The rows of the latency table. */
enum latency_rows {
	ROWS_PID,    /* one per task: name:pid */
	ROWS_COMM,   /* merged per comm, perf's default: name:(n) */
	ROWS_CGROUP, /* merged per task group: /path:(n) */
};

/*
 * The perf sched latency table in Mike Galbraith's "sum" layout, one row
 * per task (name:pid) or per merged comm or group, sorted by max delay
 * descending then pid ascending, followed by the TOTAL line.  stats is
 * not modified.  Returns 0, or EEVDF_ENOMEM (nothing printed) when a
 * buffer cannot be allocated.
 */
int report_latency(FILE *f, const struct eevdf_task_stats *stats, size_t n,
		   enum latency_rows rows);

/*
 * The task groups' table (eevdf/group.h), when the run had a group
 * besides the root: weight, cpu.max, share of the machine's CPU time,
 * tasks, delays and throttling per group.
 */
void report_groups(FILE *f, const eevdf_sim *sim);

#endif
