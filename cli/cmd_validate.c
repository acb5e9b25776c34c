/* SPDX-License-Identifier: MIT */
/* eevdf-sim validate: parse and check workload files without running them. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'I' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void validate_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " validate [--input FMT] FILE...\n"
		"\n"
		"Parse and check each workload file as 'run' would, without "
		"simulating.\n"
		"Prints 'FILE: ok (N tasks)' or the diagnostics (file, JSON "
		"path, reason):\n"
		"every task's program errors, not only the first.\n"
		"exits 0 when every file is valid, 2 otherwise.\n"
		"\n"
		"Options:\n"
		"  --input FMT  auto (default), native or rt-app: how to read "
		"the files\n"
		"  -h, --help   show this help\n");
}

#define MAX_ERRORS 50

/* Check one file, reporting every error the loader finds; true if valid. */
static bool validate_one(const char *file, enum eevdf_input input)
{
	struct eevdf_diag errors[MAX_ERRORS];
	size_t nr = 0;
	struct eevdf_load_opts lopts = {
		.input = input,
		.errors = errors,
		.max_errors = MAX_ERRORS,
		.nr_errors = &nr,
	};
	struct eevdf_diag diag;
	eevdf_workload *wl = NULL;
	char buf[1024];
	size_t n;
	int rc;

	memset(&diag, 0, sizeof(diag));
	rc = eevdf_workload_load_file_opts(file, &lopts, &wl, &diag);
	if (rc < 0) {
		if (nr > 1) {
			for (size_t i = 0; i < nr && i < MAX_ERRORS; i++)
				cli_error("%s", eevdf_diag_format(
						  &errors[i], buf, sizeof(buf)));
			if (nr > MAX_ERRORS)
				cli_error("%s: %zu more errors", file,
					  nr - MAX_ERRORS);
			cli_error("%s: %zu errors", file, nr);
		} else if (diag.msg[0]) {
			cli_error("%s", eevdf_diag_format(&diag, buf,
							  sizeof(buf)));
		} else {
			cli_error("%s: %s", file, eevdf_strerror(rc));
		}
		return false;
	}
	n = eevdf_workload_nr_tasks(wl);
	printf("%s: ok (%zu task%s)\n", file, n, n == 1 ? "" : "s");
	eevdf_workload_free(wl);
	return true;
}

int cmd_validate(int argc, char **argv)
{
	enum eevdf_input input = EEVDF_INPUT_AUTO;
	bool all_ok = true;
	int c;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			validate_usage(stdout);
			return EXIT_OK;
		case 'I':
			if (cli_parse_input(optarg, &input))
				return EXIT_USAGE;
			break;
		default:
			cli_error("validate: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " validate --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("validate: missing FILE");
		validate_usage(stderr);
		return EXIT_USAGE;
	}
	/* Check every file, even after a failure: report them all at once. */
	for (int i = optind; i < argc; i++)
		all_ok &= validate_one(argv[i], input);
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return all_ok ? EXIT_OK : EXIT_USAGE;
}
