/* SPDX-License-Identifier: MIT */
/* eevdf-sim: subcommand dispatch, --help, --version and shared helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "simulate a workload and report scheduling delays" },
	{ "features", cmd_features,
	  "list the scheduler features of a kernel profile" },
	{ "validate", cmd_validate,
	  "check workload and machine files without running" },
	{ "convert", cmd_convert,
	  "translate an rt-app file into a native workload" },
	{ "compare", cmd_compare,
	  "run a workload under two configurations and compare" },
	{ "check", cmd_check,
	  "run a workload and fail when it regressed from a baseline" },
	{ "list", cmd_list, "list the shipped workloads, machines and sweeps" },
	{ "rerun", cmd_rerun,
	  "run again what produced a results file, from its provenance" },
	{ "explain", cmd_explain,
	  "show a CPU's run queue at an instant and why the scheduler chose" },
	{ "plot", cmd_plot,
	  "draw latency CDFs, CPU timelines, lags or ratios as SVG" },
	{ "calibrate", cmd_calibrate,
	  "measure this machine's costs and write its machine file" },
	{ "kernel-check", cmd_kernel_check,
	  "run scheduler experiments on this kernel and in the simulator" },
	{ "sweep", cmd_sweep,
	  "run a sweep spec's points here, or emit them for a cluster" },
	{ "merge", cmd_merge,
	  "tabulate a sweep's results: statistics over seeds, ratios" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_exit_code(int rc, const char *msg)
{
	if (rc != EEVDF_EINTERNAL) {
		cli_limits_explain(rc, msg);
		return EXIT_USAGE;
	}
	cli_error("this is a bug in libeevdf %s: please report it with the "
		  "workload and the command line",
		  eevdf_version_string());
	return EXIT_INTERNAL;
}

bool cli_check_profile(const char **kernel)
{
	size_t n = eevdf_profile_count();
	const char *profile;
	char note[256];

	if (!*kernel)
		return true;
	profile = eevdf_profile_for_release(*kernel, note, sizeof(note));
	if (profile) {
		/* a release in a profile's range: say which one it is */
		if (note[0])
			fprintf(stderr, PROG ": note: %s\n", note);
		*kernel = profile;
		return true;
	}
	fprintf(stderr,
		PROG ": unknown kernel profile '%s' (a profile, or a release "
		     "in one's range such as 6.10); known profiles:",
		*kernel);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", eevdf_profile_name(i));
	fprintf(stderr, " (default %s)\n", eevdf_profile_default());
	return false;
}

int cli_parse_input(const char *s, enum eevdf_input *out)
{
	if (strcmp(s, "auto") == 0)
		*out = EEVDF_INPUT_AUTO;
	else if (strcmp(s, "native") == 0)
		*out = EEVDF_INPUT_NATIVE;
	else if (strcmp(s, "rt-app") == 0 || strcmp(s, "rtapp") == 0)
		*out = EEVDF_INPUT_RTAPP;
	else {
		cli_error("--input: unknown input format '%s': expected auto, "
			  "native or rt-app",
			  s);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " COMMAND [OPTIONS] [ARGS]\n"
		"       " PROG " --help | --version\n"
		"\n"
		"A deterministic discrete-event simulator of the Linux EEVDF "
		"scheduler.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-12s  %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f,
		"  %-12s  %s\n"
		"\n"
		"Run '" PROG " COMMAND --help' for the options of a command.\n"
		"Exit status: 0 success, 1 regression, 2 usage or input "
		"error, 3 a bug\nin libeevdf (an internal invariant broke).\n",
		"help", "show this help, or 'help COMMAND' for a command's");
}

static void version(void)
{
	/*
	 * The header version is what this binary was compiled against, the
	 * library's is what it runs with: they differ when a shared
	 * libeevdf was upgraded underneath.
	 */
	printf(PROG " %s\n", EEVDF_VERSION_STRING);
	printf("libeevdf %s (headers %s)\n", eevdf_version_string(),
	       EEVDF_VERSION_STRING);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* "help COMMAND" is "COMMAND --help". */
static int help_command(const char *name)
{
	const struct command *cmd = find_command(name);
	char cmd_name[32], help_opt[] = "--help";
	char *argv[3];

	if (!cmd) {
		cli_error("unknown command '%s'", name);
		usage(stderr);
		return EXIT_USAGE;
	}
	/* getopt_long wants mutable strings; the table's are const. */
	snprintf(cmd_name, sizeof(cmd_name), "%s", cmd->name);
	argv[0] = cmd_name;
	argv[1] = help_opt;
	argv[2] = NULL;
	return cmd->fn(2, argv);
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	const char *arg;

	/* before anything allocates: what it counts must be its own */
	cli_memory_install();
	cli_signals_install();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	arg = argv[1];
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0) {
		version();
		return EXIT_OK;
	}
	if (strcmp(arg, "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return EXIT_OK;
		}
		return help_command(argv[2]);
	}
	if (arg[0] == '-') {
		cli_error("unknown option '%s'", arg);
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = find_command(arg);
	if (!cmd) {
		cli_error("unknown command '%s'", arg);
		usage(stderr);
		return EXIT_USAGE;
	}
	/* The subcommand sees itself as argv[0], as getopt_long expects. */
	return cmd->fn(argc - 1, argv + 1);
}
