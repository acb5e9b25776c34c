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
		"Prints 'FILE: ok (N tasks)', with the groups and sessions the "
		"workload\n"
		"makes below it, or 'FILE: ok (machine ...)', or the\n"
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

/* cpu.max's period when a file sets none: the kernel's default, 100 ms. */
#define CPU_MAX_PERIOD_DFL_US 100000LL

/* One group's files as the workload writes them, "(defaults)" for none. */
static void print_group(const struct eevdf_group_spec *g)
{
	char buf[160] = "";
	size_t n = 0;

#define ADD(...)                                                               \
	n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,  \
			      __VA_ARGS__)
	if (g->weight)
		ADD(", cpu.weight %u", g->weight);
	if (g->set_weight_nice)
		ADD(", cpu.weight.nice %d", g->weight_nice);
	if (g->idle >= 0)
		ADD(", cpu.idle %d", g->idle);
	if (g->max_quota == EEVDF_GROUP_NO_QUOTA)
		ADD(", cpu.max max");
	else if (g->max_quota)
		ADD(", cpu.max %lld", (long long)g->max_quota / 1000);
	if (g->max_quota || g->max_period)
		ADD("%s %lld", g->max_quota ? "" : ", cpu.max max",
		    g->max_period ? (long long)g->max_period / 1000 :
				    CPU_MAX_PERIOD_DFL_US);
#undef ADD
	printf("  group %s: %s\n", g->path, n ? buf + 2 : "(defaults)");
}

/*
 * The groups the workload makes, in the order it makes them (the parents
 * it implies included), and its named sessions with their numbers.
 */
static void print_groups(const eevdf_workload *wl)
{
	for (size_t i = 0; i < eevdf_workload_nr_groups(wl); i++)
		print_group(eevdf_workload_group(wl, i));
	for (size_t i = 0; i < eevdf_workload_nr_sessions(wl); i++) {
		const struct eevdf_session_spec *s = eevdf_workload_session(wl,
									    i);

		if (s->set_nice)
			printf("  session %s (%u): nice %d\n", s->name,
			       s->session, s->nice);
		else
			printf("  session %s (%u)\n", s->name, s->session);
	}
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
	print_groups(wl);
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
