/* SPDX-License-Identifier: MIT */
/* eevdf-sim features: list a kernel profile's features and defaults. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const struct option long_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void features_usage(FILE *f)
{
	size_t n = eevdf_profile_count();

	fprintf(f,
		"Usage: " PROG " features [--kernel PROFILE]\n"
		"\n"
		"List every scheduler feature of a kernel profile, one per "
		"line: NAME when\n"
		"it is on by default, NO_NAME when off (the spelling "
		"--features accepts).\n"
		"\n"
		"Options:\n"
		"  --kernel PROFILE  kernel profile (default %s)\n"
		"  -h, --help        show this help\n"
		"\n"
		"Profiles:\n",
		eevdf_profile_default());
	for (size_t i = 0; i < n; i++) {
		const char *desc = eevdf_profile_description(i);

		fprintf(f, "  %-10s  %s\n", eevdf_profile_name(i),
			desc ? desc : "");
	}
}

int cmd_features(int argc, char **argv)
{
	const char *kernel = NULL;
	uint64_t mask;
	size_t n;
	int c;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kernel = optarg;
			break;
		case 'h':
			features_usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("features: option '%s' requires an argument",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("features: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " features --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("features: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!cli_check_profile(kernel))
		return EXIT_USAGE;
	/* Cannot fail now: cli_check_profile() asked the same question. */
	if (eevdf_profile_features(kernel, &mask) < 0)
		return EXIT_USAGE;

	n = eevdf_feature_count();
	for (size_t i = 0; i < n && i < 64; i++) {
		if (!eevdf_feature_in_profile(kernel, i))
			continue;
		printf("%s%s\n", (mask >> i) & 1 ? "" : "NO_",
		       eevdf_feature_name(i));
	}
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
