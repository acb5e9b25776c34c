/* SPDX-License-Identifier: MIT */
/* Declarations shared by the eevdf-sim command-line front end. */
#ifndef EEVDF_CLI_H
#define EEVDF_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "eevdf/eevdf.h"

#define PROG "eevdf-sim"

/* Exit codes of DESIGN.md section 4: part of the CLI's interface. */
enum {
	EXIT_OK = 0,
	EXIT_REGRESSION = 1, /* check failed / regression */
	EXIT_USAGE = 2,      /* usage or input error, or any failure */
};

/* Subcommands: argv[0] is the subcommand's name; each returns an exit code. */
int cmd_run(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* "eevdf-sim: " + message + newline, on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Check a kernel profile name (NULL = the default).  Returns true when the
 * library knows it; otherwise prints an error that lists every profile.
 */
bool cli_check_profile(const char *kernel);

/*
 * Parse an --input value: auto, native or rt-app (also rtapp).  Returns 0,
 * or -1 after printing an error naming the accepted values.
 */
int cli_parse_input(const char *s, enum eevdf_input *out);

/*
 * The perf sched latency table in Mike Galbraith's "sum" layout, one row
 * per task (name:pid), sorted by max delay descending then pid ascending,
 * followed by the TOTAL line.  stats is not modified.  Returns 0, or
 * EEVDF_ENOMEM (nothing printed) when the sort buffer cannot be allocated.
 */
/* The perf sched latency table, per pid or merged per comm. */
int report_latency(FILE *f, const struct eevdf_task_stats *stats, size_t n,
		   bool by_comm);

#endif
