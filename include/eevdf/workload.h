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

#include "eevdf/sim.h"

/* Where and why a workload was rejected; filled by the loader on error. */
struct eevdf_diag {
	char file[256]; /* file name as given, or "<memory>" */
	char path[320]; /* JSON path, "" for the whole document */
	int line;       /* 1-based line of a JSON syntax error, else 0 */
	char msg[256];  /* the reason */
};

/*
 * Format a diagnostic as "file: path: msg" (or "file:line: msg" for syntax
 * errors) into buf.  Returns buf.
 */
EEVDF_API char *eevdf_diag_format(const struct eevdf_diag *d, char *buf,
				  size_t len);

/*
 * Parse a workload from memory (len bytes, need not be NUL-terminated).
 * filename only labels diagnostics.  Returns 0 and *out, or EEVDF_EPARSE
 * (diag filled), EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_workload_parse(const char *buf, size_t len,
				   const char *filename,
				   eevdf_workload **out, struct eevdf_diag *diag);

/* Read and parse a file.  A file that cannot be read gives EEVDF_EIO. */
EEVDF_API int eevdf_workload_load_file(const char *path,
				       eevdf_workload **out,
				       struct eevdf_diag *diag);

/* NULL is a no-op. */
EEVDF_API void eevdf_workload_free(eevdf_workload *wl);

/* The workload's "name" and "description" (never NULL; may be ""). */
EEVDF_API const char *eevdf_workload_name(const eevdf_workload *wl);
EEVDF_API const char *eevdf_workload_description(const eevdf_workload *wl);

/* The workload's "duration" in ns, or 0 when the file sets none. */
EEVDF_API eevdf_time eevdf_workload_duration(const eevdf_workload *wl);

/* True (and *seed set) when the file sets "seed". */
EEVDF_API bool eevdf_workload_seed(const eevdf_workload *wl, uint64_t *seed);

/*
 * Number of tasks after "count" expansion, and task i.  A task with count N
 * > 1 expands to N tasks named name[0] .. name[N-1].  The returned spec and
 * everything it points to are owned by the workload.
 */
EEVDF_API size_t eevdf_workload_nr_tasks(const eevdf_workload *wl);
EEVDF_API const struct eevdf_task_spec *
eevdf_workload_task(const eevdf_workload *wl, size_t i);

/*
 * Add every task to sim.  Returns 0, or the first eevdf_sim_add_task()
 * error (a task that names a CPU the machine lacks gives EEVDF_EINVAL with
 * diag naming the task).
 */
EEVDF_API int eevdf_workload_add_tasks(const eevdf_workload *wl,
				       eevdf_sim *sim,
				       struct eevdf_diag *diag);

/*
 * Parse a duration: a non-negative integer of ns, or a string of a decimal
 * number with a unit ns|us|ms|s ("8ms", "1.5s", "250ns").  Returns 0 and
 * *out, or EEVDF_EINVAL (malformed, negative, fraction of a ns) or
 * EEVDF_ERANGE (above max).  Exposed for front ends (--duration).
 */
EEVDF_API int eevdf_parse_duration(const char *s, eevdf_time max,
				   eevdf_time *out);

#endif
