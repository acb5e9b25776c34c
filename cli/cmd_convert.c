/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim convert: translate an rt-app file into the native workload
 * that run would load from it, and write that as a file of its own.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void convert_usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " convert FILE [-o OUT]\n"
		   "\n"
		   "Translate the rt-app file FILE (docs/rtapp-import.md) into "
		   "the native\n"
		   "workload (\"format\": \"eevdf-sim-workload/1\") that 'run "
		   "FILE' loads, and\n"
		   "write it as indented JSON: running it gives the same "
		   "results as running\n"
		   "FILE.  What the translation ignored or approximated is "
		   "printed as\n"
		   "warnings on stderr and kept in the workload's "
		   "\"description\".  A file\n"
		   "that is already native, or that does not load, is an error "
		   "(exit 2) and\n"
		   "writes nothing.\n"
		   "\n"
		   "Options:\n"
		   "  -o, --output OUT  write to OUT atomically (default and "
		   "'-': stdout)\n"
		   "  -h, --help        show this help\n");
}

int cmd_convert(int argc, char **argv)
{
	const char *output = NULL, *file, *text;
	struct eevdf_diag diag;
	eevdf_workload *wl = NULL;
	char buf[1024];
	int c, rc;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	while ((c = getopt_long(argc, argv, ":ho:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			convert_usage(stdout);
			return EXIT_OK;
		case 'o':
			output = optarg;
			break;
		case ':':
			cli_error("convert: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("convert: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " convert --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("convert: missing FILE");
		convert_usage(stderr);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		cli_error("convert: unexpected argument '%s' (one file)",
			  argv[optind + 1]);
		return EXIT_USAGE;
	}
	file = argv[optind];

	/* loaded as run loads it: the translation is checked in full */
	memset(&diag, 0, sizeof(diag));
	rc = eevdf_workload_load_file(file, &wl, &diag);
	if (rc < 0) {
		if (diag.msg[0])
			cli_error("%s",
				  eevdf_diag_format(&diag, buf, sizeof(buf)));
		else
			cli_error("%s: %s", file, eevdf_strerror(rc));
		return EXIT_USAGE;
	}
	text = eevdf_workload_translation(wl);
	if (!text) {
		cli_error("%s: already a native workload (\"format\": "
			  "\"eevdf-sim-workload/1\"): there is nothing to "
			  "convert; run it as it is",
			  file);
		eevdf_workload_free(wl);
		return EXIT_USAGE;
	}
	cli_warn_notes(wl);
	rc = cli_write_atomic(output, text) ? EXIT_OK : EXIT_USAGE;
	eevdf_workload_free(wl);
	return rc;
}
