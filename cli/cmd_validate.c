/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim validate: parse and check workload and machine files without
 * running them.
 */
#include <getopt.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"

#define MACHINE_FORMAT "eevdf-sim-machine/1"
/* As the library reads at most: a bigger file is no machine file. */
#define MAX_FILE ((size_t)64 << 20)

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'I' },
	{ "machine", required_argument, NULL, 'M' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void validate_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " validate [--input FMT] [--machine FILE] "
		"FILE...\n"
		"\n"
		"Parse and check each workload file as 'run' would, without "
		"simulating,\n"
		"and each machine file (\"format\": \"" MACHINE_FORMAT "\").\n"
		"Prints 'FILE: ok (N tasks)' or 'FILE: ok (machine ...)', or "
		"the\n"
		"diagnostics (file, JSON path, reason): every error of a "
		"machine and\n"
		"every task's program errors, not only the first.  Exits 0 "
		"when every\n"
		"file is valid, 2 otherwise.\n"
		"\n"
		"Options:\n"
		"  --input FMT     auto (default), native or rt-app: how to "
		"read the files\n"
		"  --machine FILE  the machine the workloads are read for "
		"(their ${ncpus}\n"
		"                  and ${nllc}); default: each workload's "
		"own, else 1 CPU\n"
		"  -h, --help      show this help\n");
}

#define MAX_ERRORS 50

/*
 * Whether file is a machine file: a JSON object whose "format" is the
 * machine format.  Anything else (unreadable, not JSON) is left to the
 * workload loader, which says what is wrong with it.
 */
static bool is_machine_file(const char *file)
{
	int err;
	cJSON *root = cli_read_json(file, MAX_FILE, &err);
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	bool yes = cJSON_IsString(fmt) && fmt->valuestring &&
		   strcmp(fmt->valuestring, MACHINE_FORMAT) == 0;

	cJSON_Delete(root);
	return yes;
}

/* Print the errors of a failed load: all of them when several. */
static void print_errors(const char *file, int rc,
			 const struct eevdf_diag *diag,
			 const struct eevdf_diag *errors, size_t nr)
{
	char buf[1024];

	if (nr > 1) {
		for (size_t i = 0; i < nr && i < MAX_ERRORS; i++)
			cli_error("%s", eevdf_diag_format(&errors[i], buf,
							  sizeof(buf)));
		if (nr > MAX_ERRORS)
			cli_error("%s: %zu more errors", file, nr - MAX_ERRORS);
		cli_error("%s: %zu errors", file, nr);
	} else if (diag->msg[0]) {
		cli_error("%s", eevdf_diag_format(diag, buf, sizeof(buf)));
	} else {
		cli_error("%s: %s", file, eevdf_strerror(rc));
	}
}

static bool validate_machine(const char *file)
{
	struct eevdf_diag errors[MAX_ERRORS], diag;
	size_t nr = 0;
	struct eevdf_load_opts lopts = {
		.errors = errors,
		.max_errors = MAX_ERRORS,
		.nr_errors = &nr,
	};
	eevdf_machine *m = NULL;
	char shape[128];
	int rc;

	memset(&diag, 0, sizeof(diag));
	rc = eevdf_machine_load_file_opts(file, &lopts, &m, &diag);
	if (rc < 0) {
		print_errors(file, rc, &diag, errors, nr);
		return false;
	}
	cli_machine_shape(m, shape, sizeof(shape));
	/* a calibrated machine says so: its costs were measured */
	printf("%s: ok (machine %s: %s, HZ %d%s)\n", file,
	       eevdf_machine_name(m), shape, eevdf_machine_hz(m),
	       eevdf_machine_calibration(m) ? ", calibrated" : "");
	eevdf_machine_free(m);
	return true;
}

/* Check one file, reporting every error the loader finds; true if valid. */
static bool validate_one(const char *file, enum eevdf_input input,
			 const eevdf_machine *m)
{
	struct eevdf_diag errors[MAX_ERRORS];
	size_t nr = 0;
	struct eevdf_load_opts lopts = {
		.input = input,
		.ncpus = eevdf_machine_nr_cpus(m),
		.nllc = eevdf_machine_nr_llcs(m),
		.errors = errors,
		.max_errors = MAX_ERRORS,
		.nr_errors = &nr,
	};
	struct eevdf_diag diag;
	eevdf_workload *wl = NULL;
	size_t n;
	int rc;

	if (input != EEVDF_INPUT_RTAPP && is_machine_file(file))
		return validate_machine(file);
	memset(&diag, 0, sizeof(diag));
	rc = eevdf_workload_load_file_opts(file, &lopts, &wl, &diag);
	if (rc < 0) {
		print_errors(file, rc, &diag, errors, nr);
		return false;
	}
	cli_warn_notes(wl);
	n = eevdf_workload_nr_tasks(wl);
	printf("%s: ok (%zu task%s)\n", file, n, n == 1 ? "" : "s");
	eevdf_workload_free(wl);
	return true;
}

int cmd_validate(int argc, char **argv)
{
	enum eevdf_input input = EEVDF_INPUT_AUTO;
	const char *machine = NULL;
	eevdf_machine *m = NULL;
	bool all_ok = true;
	int c;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			validate_usage(stdout);
			return EXIT_OK;
		case 'I':
			if (cli_parse_input(optarg, &input))
				return EXIT_USAGE;
			break;
		case 'M':
			machine = optarg;
			break;
		case ':':
			cli_error("validate: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
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
	if (machine && !cli_load_machine("--machine", machine, &m))
		return EXIT_USAGE;
	/* Check every file, even after a failure: report them all at once. */
	for (int i = optind; i < argc; i++)
		all_ok &= validate_one(argv[i], input, m);
	eevdf_machine_free(m);
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return all_ok ? EXIT_OK : EXIT_USAGE;
}
