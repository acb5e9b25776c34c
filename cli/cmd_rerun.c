/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim rerun RESULTS.json: run again what produced a results file,
 * from the command line it records ("provenance"), after checking that
 * the workload file is still the one it read (its SHA-256).  The
 * simulation is deterministic, so the same build prints the same bytes;
 * --verify says whether it did.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"

#define MAX_ARGS 256

static void rerun_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " rerun RESULTS.json [-o FILE] [--verify]\n"
		"\n"
		"Run again the run that wrote RESULTS.json (a results JSON of "
		"'run\n"
		"--format json'), with the command line it records, and "
		"print its\n"
		"results.  The workload file must be the one that run read "
		"(same\n"
		"SHA-256).  The run's own output and trace options are "
		"dropped.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  write the results to FILE atomically\n"
		"  --verify           compare the new results with "
		"RESULTS.json byte for\n"
		"                     byte: exit 0 when identical, 1 when "
		"they differ\n"
		"                     (the first line that does is shown)\n"
		"  -h, --help         show this help\n");
}

/* An option of run that names where output goes, and takes a value. */
static bool output_option(const char *a, bool *has_value)
{
	static const char *const with_value[] = { "-o",
						  "--output",
						  "--trace",
						  "--trace-window",
						  "--trace-state",
						  "--trace-format",
						  "--html" };

	*has_value = false;
	for (size_t i = 0; i < ARRAY_LEN(with_value); i++) {
		size_t n = strlen(with_value[i]);

		if (strcmp(a, with_value[i]) == 0) {
			*has_value = true;
			return true;
		}
		if (n > 2 && strncmp(a, with_value[i], n) == 0 && a[n] == '=')
			return true;
	}
	return strcmp(a, "--timehist") == 0;
}

/* The workload of the recorded run must still be the bytes it read. */
static bool same_workload(const cJSON *config, const char *results)
{
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(config,
							     "workload_path");
	const cJSON *sha = cJSON_GetObjectItemCaseSensitive(config,
							    "workload_sha256");
	eevdf_workload *wl = NULL;
	struct eevdf_diag d;
	bool same;

	if (!cJSON_IsString(path) || !cJSON_IsString(sha)) {
		cli_error("%s: config: no workload_path and workload_sha256 "
			  "(written by an eevdf-sim without provenance)",
			  results);
		return false;
	}
	if (strcmp(path->valuestring, "-") == 0) {
		cli_error("%s: the run read its workload from standard input, "
			  "which cannot be read again",
			  results);
		return false;
	}
	/* read as run reads it: an rt-app file's digest is of its bytes */
	if (eevdf_workload_load_file(path->valuestring, &wl, &d) < 0 &&
	    d.msg[0] && strstr(d.msg, "cannot read")) {
		cli_error("%s: %s", path->valuestring, d.msg);
		return false;
	}
	same = wl && strcmp(eevdf_workload_sha256(wl), sha->valuestring) == 0;
	if (!same)
		cli_error("%s: the workload %s is not the file that run read "
			  "(SHA-256 %.12s..., now %.12s...)",
			  results, path->valuestring, sha->valuestring,
			  wl ? eevdf_workload_sha256(wl) : "unreadable");
	eevdf_workload_free(wl);
	return same;
}

/* Compare two texts; print the first line that differs.  True if equal. */
static bool same_text(const char *a, const char *b, const char *what)
{
	size_t line = 1;
	const char *la = a, *lb = b;

	for (; *a && *a == *b; a++, b++) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
	}
	if (*a == *b)
		return true;
	printf("%s differs from line %zu:\n-%.*s\n+%.*s\n", what, line,
	       (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
	return false;
}

int cmd_rerun(int argc, char **argv)
{
	const char *results = NULL, *output = NULL;
	char *run_argv[MAX_ARGS], *rec_argv[MAX_ARGS], *old = NULL;
	char tmp[] = "/tmp/eevdf-rerun.XXXXXX";
	const cJSON *prov, *cmd, *it;
	int run_argc = 0, rec_argc = 0, rc = EXIT_USAGE, fd = -1;
	bool verify = false;
	cJSON *root = NULL;
	int err;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			rerun_usage(stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--verify") == 0) {
			verify = true;
		} else if (strcmp(argv[i], "-o") == 0 ||
			   strcmp(argv[i], "--output") == 0) {
			if (++i == argc) {
				cli_error("rerun: %s needs a FILE",
					  argv[i - 1]);
				return EXIT_USAGE;
			}
			output = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("rerun: unknown option '%s'", argv[i]);
			fprintf(stderr, "Try '" PROG " rerun --help'.\n");
			return EXIT_USAGE;
		} else if (results) {
			cli_error("rerun: one results file at a time");
			return EXIT_USAGE;
		} else {
			results = argv[i];
		}
	}
	if (!results) {
		cli_error("rerun: missing RESULTS.json");
		rerun_usage(stderr);
		return EXIT_USAGE;
	}
	if (verify && output) {
		cli_error("rerun: --verify prints a verdict, not results: "
			  "drop -o");
		return EXIT_USAGE;
	}
	root = cli_read_json(results, (size_t)256 << 20, &err);
	if (!root) {
		cli_error("%s: %s", results,
			  err ? strerror(err) : "not valid JSON");
		return EXIT_USAGE;
	}
	prov = cJSON_GetObjectItemCaseSensitive(root, "provenance");
	cmd = cJSON_GetObjectItemCaseSensitive(prov, "command_line");
	if (!cJSON_IsArray(cmd) || cJSON_GetArraySize(cmd) < 3 ||
	    cJSON_GetArraySize(cmd) >= MAX_ARGS - 3) {
		cli_error("%s: provenance.command_line: missing or not the "
			  "command line of a run (results of an eevdf-sim "
			  "without provenance, or not a results file)",
			  results);
		goto out;
	}
	cJSON_ArrayForEach(it, cmd)
	{
		if (!cJSON_IsString(it)) {
			cli_error("%s: provenance.command_line: not all "
				  "strings",
				  results);
			goto out;
		}
		rec_argv[rec_argc++] = it->valuestring;
	}
	if (strcmp(rec_argv[1], "run") != 0) {
		cli_error("%s: provenance.command_line: the results of '%s', "
			  "not of a run",
			  results, rec_argv[1]);
		goto out;
	}
	if (!same_workload(cJSON_GetObjectItemCaseSensitive(root, "config"),
			   results))
		goto out;
	/* run's argv: the recorded one without its outputs, then ours */
	for (int i = 1; i < rec_argc; i++) {
		bool has_value;

		if (output_option(rec_argv[i], &has_value)) {
			i += has_value;
			continue;
		}
		run_argv[run_argc++] = rec_argv[i];
	}
	if (verify) {
		fd = mkstemp(tmp);
		if (fd < 0) {
			cli_error("rerun: %s: %s", tmp, strerror(errno));
			goto out;
		}
		output = tmp;
	}
	if (output) {
		static char opt_o[] = "-o";

		run_argv[run_argc++] = opt_o;
		run_argv[run_argc++] = (char *)(uintptr_t)output;
	}
	run_argv[run_argc] = NULL;
	rc = cli_run_replay(run_argc, run_argv, rec_argc - 1, rec_argv + 1);
	if (rc != EXIT_OK || !verify)
		goto out;
	rc = EXIT_USAGE;
	if (!(old = cli_read_text(results, (size_t)256 << 20))) {
		cli_error("%s: cannot read it again", results);
		goto out;
	}
	{
		char *now = cli_read_text(tmp, (size_t)256 << 20);

		if (!now) {
			cli_error("rerun: cannot read the new results");
			goto out;
		}
		if (same_text(old, now, "the rerun's results")) {
			printf("identical: %s reproduces byte for byte\n",
			       results);
			rc = EXIT_OK;
		} else {
			rc = EXIT_REGRESSION;
		}
		free(now);
	}
out:
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(old);
	cJSON_Delete(root);
	return rc;
}
