/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the CLI's option parser, 'run' as compare and check call
 * it (cli_run_seed(): every option parsed, then the workload loaded with
 * its --param overrides, --machine, --input and the limits).  The input
 * is the options, one per line; a small workload file is the argument.
 * Nothing is simulated or written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_ARGS 32

static char workload[64];

static void remove_workload(void)
{
	unlink(workload);
}

/* The workload every input runs: a file made once, removed at exit. */
static const char *workload_path(void)
{
	static const char text[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"f\", "
		"\"params\": {\"n\": 2, \"d\": \"1ms\", \"s\": \"x\"}, "
		"\"duration\": \"10ms\", \"tasks\": [{\"name\": \"t\", "
		"\"count\": \"${n}\", \"program\": [{\"loop\": {\"body\": "
		"[{\"run\": \"${d}\"}, {\"sleep\": \"1ms\"}]}}]}]}";
	FILE *f;
	int fd;

	if (workload[0])
		return workload;
	snprintf(workload, sizeof(workload), "/tmp/eevdf-fuzz-cli-XXXXXX");
	fd = mkstemp(workload);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		abort();
	fputs(text, f);
	fclose(f);
	atexit(remove_workload);
	return workload;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 3], *line;
	char run[] = "run";
	int argc = 0;
	uint64_t seed;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = run;
	for (line = strtok(buf, "\n"); line && argc < MAX_ARGS + 1;
	     line = strtok(NULL, "\n"))
		argv[argc++] = line;
	argv[argc++] = (char *)(uintptr_t)workload_path();
	argv[argc] = NULL;
	cli_run_seed(argc, argv, &seed, false);
	free(buf);
	return 0;
}
