/* SPDX-License-Identifier: MIT */
/*
 * Workload files ("format": "eevdf-sim-workload/1", see docs/workload-format.md).
 *
 * Loading validates the whole file against the format: malformed JSON,
 * unknown keys, wrong types and impossible values are rejected with a
 * diagnostic naming the file, the JSON path (tasks[3].program[2].run) and
 * the reason.
 */
#ifndef EEVDF_WORKLOAD_H
#define EEVDF_WORKLOAD_H

#include <stdbool.h>

#include "eevdf/group.h"
#include "eevdf/sim.h"

/* Where and why a workload was rejected; filled by the loader on error. */
struct eevdf_diag {
	char file[256]; /* file name as given, or "<memory>" */
	char path[320]; /* JSON path, "" for the whole document */
	int line;	/* 1-based line of a JSON syntax error, else 0 */
	char msg[256];	/* the reason */
};

/*
 * Format a diagnostic as "file: path: msg" (or "file:line: msg" for syntax
 * errors) into buf.  Returns buf.
 */
EEVDF_API char *eevdf_diag_format(const struct eevdf_diag *d, char *buf,
				  size_t len);

/*
 * What the loader takes from outside the file.  params are "NAME=VALUE"
 * overrides of the file's "params" (eevdf-sim run --param): VALUE is read
 * as a JSON number, null, true or false, a quoted JSON string, or else as
 * text (a duration such as "5ms" or a plain string).  An override of a
 * param the file does not declare is an error naming it.  ncpus and nllc
 * are the machine's CPUs and last-level caches as "${ncpus}" and
 * "${nllc}" see them; 0 means those of the file's own "machine"
 * (eevdf_workload_machine()), or 1 when it has none.  input says how to
 * read the file:
 * EEVDF_INPUT_AUTO (0) reads an rt-app file (a top-level "tasks" object and
 * no "format", docs/rtapp-import.md) as rt-app and anything else as a
 * native workload; the other two force one reading.
 */
enum eevdf_input {
	EEVDF_INPUT_AUTO = 0,
	EEVDF_INPUT_NATIVE,
	EEVDF_INPUT_RTAPP,
};

struct eevdf_load_opts {
	const char *const *params;
	size_t nr_params;
	int ncpus;
	int nllc;
	enum eevdf_input input;
	/*
	 * For validators: when errors is not NULL, an error in one task's
	 * program does not stop the loader, which goes on with the next task
	 * and reports every such error: the first in diag as always, and each
	 * of them, the first included, in errors[0 .. max_errors), their
	 * count in *nr_errors (which may exceed max_errors).  The load still
	 * fails.
	 */
	struct eevdf_diag *errors;
	size_t max_errors;
	size_t *nr_errors;
	/*
	 * The run's length from the command line (--duration), 0 for none.
	 * When the workload's length is one of its params ("duration":
	 * "${runtime}", or failing a "duration", "stop": {"after":
	 * "${runtime}"}), that param is set to it before anything is
	 * expanded, so the benchmark's own runtime, warmup and report agree
	 * with it; an explicit --param of another value for the same param
	 * is an error.  Otherwise it replaces the workload's "duration" and
	 * a fixed "stop": {"after": ...}; for a workload that stops when its
	 * tasks exit it is only the run's cap.
	 */
	eevdf_time duration;
};

/*
 * Parse a workload from memory (len bytes, need not be NUL-terminated).
 * filename only labels diagnostics; opts may be NULL (no overrides, one
 * CPU, one LLC).  Returns 0 and *out, or EEVDF_EPARSE (diag filled),
 * EEVDF_EINVAL (bad opts, diag filled), EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_workload_parse_opts(const char *buf, size_t len,
					const char *filename,
					const struct eevdf_load_opts *opts,
					eevdf_workload **out,
					struct eevdf_diag *diag);

/* eevdf_workload_parse_opts() with opts NULL. */
EEVDF_API int eevdf_workload_parse(const char *buf, size_t len,
				   const char *filename, eevdf_workload **out,
				   struct eevdf_diag *diag);

/* Read and parse a file.  A file that cannot be read gives EEVDF_EIO. */
EEVDF_API int eevdf_workload_load_file_opts(const char *path,
					    const struct eevdf_load_opts *opts,
					    eevdf_workload **out,
					    struct eevdf_diag *diag);

/* eevdf_workload_load_file_opts() with opts NULL. */
EEVDF_API int eevdf_workload_load_file(const char *path, eevdf_workload **out,
				       struct eevdf_diag *diag);

/* NULL is a no-op. */
EEVDF_API void eevdf_workload_free(eevdf_workload *wl);

/* The workload's "name" and "description" (never NULL; may be ""). */
EEVDF_API const char *eevdf_workload_name(const eevdf_workload *wl);
EEVDF_API const char *eevdf_workload_description(const eevdf_workload *wl);

/*
 * What the rt-app import (docs/rtapp-import.md) ignored or approximated
 * in the file the workload was read from: one note per key or value, in
 * the order the translation met them, each with the file, the rt-app JSON
 * path ("global.calibration", "tasks.t.phases.p.mem"), line 0 and what
 * was ignored or approximated and how ("ignored: ...", "approximated:
 * ..."); eevdf_diag_format() writes one as "file: path: message".  A
 * native workload has none.  The notes never make a load fail.
 * eevdf_workload_nr_notes() is 0 for NULL; eevdf_workload_note() returns
 * NULL for NULL or i out of range.  Owned by the workload.
 */
EEVDF_API size_t eevdf_workload_nr_notes(const eevdf_workload *wl);
EEVDF_API const struct eevdf_diag *eevdf_workload_note(const eevdf_workload *wl,
						       size_t i);

/*
 * The native workload ("format": "eevdf-sim-workload/1", indented JSON,
 * no final newline) that an rt-app file was translated into and the
 * workload loaded from: parsing this text gives the same workload, with
 * the same results.  NULL for a native file, and for NULL.  Owned by the
 * workload.
 */
EEVDF_API const char *eevdf_workload_translation(const eevdf_workload *wl);

/*
 * The workload's "duration" in ns; when the file sets none, its
 * "stop": {"after": D}; else 0.
 */
EEVDF_API eevdf_time eevdf_workload_duration(const eevdf_workload *wl);

/* SHA-256 of the bytes the workload was read from, 64 hex digits (of
 * the rt-app file, for one translated from rt-app). */
EEVDF_API const char *eevdf_workload_sha256(const eevdf_workload *wl);

/* The param that sets the workload's length (see eevdf_load_opts.duration),
 * or NULL when its length is not one param. */
EEVDF_API const char *eevdf_workload_duration_param(const eevdf_workload *wl);

/* The params after overrides: their count, and param i's name and value
 * as text (an integer in decimal, a string as is, "null"); NULL past the
 * end.  A duration param's value is its ns. */
EEVDF_API size_t eevdf_workload_nr_params(const eevdf_workload *wl);
EEVDF_API const char *eevdf_workload_param_name(const eevdf_workload *wl,
						size_t i);
EEVDF_API const char *eevdf_workload_param_value(const eevdf_workload *wl,
						 size_t i, char *buf,
						 size_t len);

/*
 * Whether the benchmark of wl, run in sim, completed: 1, or 0 with the
 * reason in why (len bytes).  A workload that ends when its tasks exit
 * completed when they did; one that ends at a time completed when the
 * run reached it; one with a warmup needs the run to outlast it.  -1 for
 * a NULL argument.
 */
EEVDF_API int eevdf_workload_completed(const eevdf_workload *wl,
				       const eevdf_sim *sim, char *why,
				       size_t len);

/*
 * The file's "machine" (docs/machine-format.md), or NULL when it has
 * none.  Owned by the workload.  It is only a suggestion: the simulation
 * runs on eevdf_config.machine, which a front end sets to this machine
 * when the user named no other.
 */
EEVDF_API const eevdf_machine *eevdf_workload_machine(const eevdf_workload *wl);

/*
 * The kernel profile the file names ("kernel"), by its canonical name (an
 * alias such as "6.18.0" reads as "6.17"), or NULL.  The loader rejects
 * a name no profile has.
 */
EEVDF_API const char *eevdf_workload_kernel(const eevdf_workload *wl);

/* True (and *seed set) when the file sets "seed". */
EEVDF_API bool eevdf_workload_seed(const eevdf_workload *wl, uint64_t *seed);

/*
 * Number of tasks after "for" and "count" expansion, and task i.  A task
 * with count N > 1 expands to N tasks named name[0] .. name[N-1]; "for"
 * names each instance from its "name" pattern.  The returned spec and
 * everything it points to are owned by the workload.  Its program is the
 * task's program as public ops when it uses only run, sleep, yield and
 * counted or forever loops of constant durations; otherwise program is
 * NULL and nr_ops 0 (the compiled form is internal: add the workload's
 * tasks with eevdf_workload_add_tasks()).
 */
EEVDF_API size_t eevdf_workload_nr_tasks(const eevdf_workload *wl);
EEVDF_API const struct eevdf_task_spec *
eevdf_workload_task(const eevdf_workload *wl, size_t i);

/*
 * The groups the workload makes (its "groups", and the parents they
 * imply, which write no file), sorted by path: the order in which
 * eevdf_workload_add_tasks() makes them with eevdf_sim_set_group().
 * eevdf_workload_nr_groups() is 0 for NULL; eevdf_workload_group()
 * returns NULL for NULL or i out of range.  Owned by the workload.
 */
EEVDF_API size_t eevdf_workload_nr_groups(const eevdf_workload *wl);
EEVDF_API const struct eevdf_group_spec *
eevdf_workload_group(const eevdf_workload *wl, size_t i);

/*
 * A named session of the workload: in its "sessions" or named by a task's
 * or template's "session".  Sessions are numbered 1, 2, ... in the order
 * of their names (eevdf_task_spec.session); 0 is the run's own.
 */
struct eevdf_session_spec {
	const char *name;
	unsigned int session;
	bool set_nice; /* "nice" given: eevdf_sim_set_autogroup_nice() */
	int nice;
};

/* The named sessions, by name; as eevdf_workload_group() for NULL. */
EEVDF_API size_t eevdf_workload_nr_sessions(const eevdf_workload *wl);
EEVDF_API const struct eevdf_session_spec *
eevdf_workload_session(const eevdf_workload *wl, size_t i);

/*
 * Set sim up for the workload and add every task: the cost table (the
 * defaults, then the overrides of the simulation's machine, then the
 * file's "costs"), the groups (eevdf_workload_group(), in that order) and,
 * with autogroup on, the sessions' nice, objects, variables, metrics, join
 * sets, stop and warmup, the spawn templates, then the tasks in order.
 * The workload's tasks must be the first ones of the simulation (their
 * pids are 1, 2, ... in task order, which "@pid", "<task>.self", join
 * sets and signal targets rely on): a sim that already has tasks,
 * objects, metrics or templates gives EEVDF_EMISUSE.  A task or template
 * that names a CPU the machine lacks gives EEVDF_EINVAL with diag naming
 * it.  On error the simulation is left half set up: free it.  The
 * simulation shares the compiled programs; the workload may be freed
 * before it.
 */
EEVDF_API int eevdf_workload_add_tasks(const eevdf_workload *wl, eevdf_sim *sim,
				       struct eevdf_diag *diag);

/*
 * The "report" object: its "format" (NULL when the file has no report),
 * its "also" list, and any other key as text (strings with "${...}"
 * expanded, numbers and booleans as JSON writes them), or NULL when the
 * key is not set.
 */
EEVDF_API const char *eevdf_workload_report_format(const eevdf_workload *wl);
EEVDF_API size_t eevdf_workload_report_also_count(const eevdf_workload *wl);
EEVDF_API const char *eevdf_workload_report_also(const eevdf_workload *wl,
						 size_t i);
EEVDF_API const char *eevdf_workload_report_option(const eevdf_workload *wl,
						   const char *key);

/* The "unit" of metric name, or NULL when it has none or there is none. */
EEVDF_API const char *eevdf_workload_metric_unit(const eevdf_workload *wl,
						 const char *name);

/*
 * Parse a duration: a non-negative integer of ns, or a string of a decimal
 * number with a unit ns|us|ms|s ("8ms", "1.5s", "250ns").  Returns 0 and
 * *out, or EEVDF_EINVAL (malformed, negative, fraction of a ns) or
 * EEVDF_ERANGE (above max).  Exposed for front ends (--duration).
 */
EEVDF_API int eevdf_parse_duration(const char *s, eevdf_time max,
				   eevdf_time *out);

#endif
