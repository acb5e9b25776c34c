/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim features: list a kernel profile's features and defaults, and
 * with --all the RFC knobs after them, each with the posting it comes from.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const struct option long_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "all", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * The posting each RFC knob comes from (subject, author, date and
 * Message-ID, as in docs/kernel-profiles.md), read from the list's
 * archive: none of them was merged.
 */
static const struct {
	const char *name;
	const char *source;
} rfc_sources[] = {
	{ "WAKEUP_DEADLINE",
	  "\"Re: [tip:sched/eevdf] [sched/fair] e0c2ff903c: "
	  "phoronix-test-suite.blogbench.Write.final_score -34.8% "
	  "regression\", Peter Zijlstra, 2023-08-14 "
	  "<20230814132935.GK776869@hirez.programming.kicks-ass.net>" },
	{ "PLACE_FUDGE",
	  "\"[PATCH 14/17] sched/eevdf: Better handle mixed slice length\", "
	  "Peter Zijlstra, 2023-03-28 "
	  "<20230328110354.562078801@infradead.org>" },
	{ "PLACE_BONUS",
	  "\"[PATCH 15/17] [RFC] sched/eevdf: Sleeper bonus\", Peter "
	  "Zijlstra, 2023-03-28 <20230328110354.641979416@infradead.org>" },
	{ "TTWU_QUEUE_DELAYED",
	  "\"[RFC][PATCH 5/5] sched: Add ttwu_queue support for delayed "
	  "tasks\", Peter Zijlstra, 2025-05-20 "
	  "<20250520101727.984171377@infradead.org>" },
	{ "TTWU_QUEUE_DEFAULT",
	  "\"[RFC][PATCH 4/5] sched: Add ttwu_queue controls\", Peter "
	  "Zijlstra, 2025-05-20 <20250520101727.874587738@infradead.org>" },
	{ "TTWU_DEQUEUE",
	  "\"Re: [RFC][PATCH 5/5] sched: Add ttwu_queue support for delayed "
	  "tasks\", Peter Zijlstra, 2025-06-16 "
	  "<20250616120125.GB1613200@noisy.programming.kicks-ass.net>" },
	{ "DEQUEUE_DELAYED",
	  "\"[PATCH V2] sched/fair: Dequeue sched_delayed tasks when waking "
	  "to a busy CPU\", Mike Galbraith, 2024-11-23 "
	  "<bf4f50886c462ee1f33cc404843944fea4817616.camel@gmx.de>" },
};

static const char *rfc_source(const char *name)
{
	for (size_t i = 0; i < sizeof(rfc_sources) / sizeof(rfc_sources[0]);
	     i++)
		if (strcmp(rfc_sources[i].name, name) == 0)
			return rfc_sources[i].source;
	return "(source not recorded)";
}

static void features_usage(FILE *f)
{
	size_t n = eevdf_profile_count();

	fprintf(f,
		"Usage: " PROG " features [--kernel PROFILE] [--all]\n"
		"\n"
		"List every scheduler feature of a kernel profile, one per "
		"line: NAME when\n"
		"it is on by default, NO_NAME when off (the spelling "
		"--features accepts).\n"
		"The RFC knobs (never merged, off by default, settable on "
		"every profile)\n"
		"are not in any release's list: a last line on standard error "
		"counts them.\n"
		"\n"
		"Options:\n"
		"  --kernel PROFILE  kernel profile (default %s)\n"
		"  --all             after the profile's features, the RFC "
		"knobs, each with\n"
		"                    the posting it comes from\n"
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

/* "NAME" or "NO_NAME" of feature i by its default in mask. */
static const char *no_prefix(uint64_t mask, size_t i)
{
	return (mask >> i) & 1 ? "" : "NO_";
}

/* The RFC knobs, NAME / NO_NAME padded to one column, then the source. */
static void print_rfc(uint64_t mask, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n && i < 64; i++) {
		int len;

		if (!eevdf_feature_is_rfc(i))
			continue;
		len = (int)(strlen(no_prefix(mask, i)) +
			    strlen(eevdf_feature_name(i)));
		if (len > width)
			width = len;
	}
	if (width == 0)
		return;
	printf("# RFC knobs: never merged, off by default, settable on every "
	       "profile\n");
	for (size_t i = 0; i < n && i < 64; i++) {
		const char *name = eevdf_feature_name(i);
		int len;

		if (!eevdf_feature_is_rfc(i))
			continue;
		len = printf("%s%s", no_prefix(mask, i), name);
		printf("%*s  %s\n", width - len, "", rfc_source(name));
	}
}

int cmd_features(int argc, char **argv)
{
	const char *kernel = NULL;
	bool all = false;
	size_t n, nr_rfc = 0;
	uint64_t mask;
	int c;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kernel = optarg;
			break;
		case 'a':
			all = true;
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
	if (!cli_check_profile(&kernel))
		return EXIT_USAGE;
	/* Cannot fail now: cli_check_profile() asked the same question. */
	if (eevdf_profile_features(kernel, &mask) < 0)
		return EXIT_USAGE;

	n = eevdf_feature_count();
	for (size_t i = 0; i < n && i < 64; i++) {
		nr_rfc += eevdf_feature_is_rfc(i);
		if (!eevdf_feature_in_profile(kernel, i))
			continue;
		printf("%s%s\n", no_prefix(mask, i), eevdf_feature_name(i));
	}
	if (all)
		print_rfc(mask, n);
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	/*
	 * The count goes to standard error, so that standard output stays
	 * the NAME / NO_NAME list that --features and scripts read.
	 */
	if (!all && nr_rfc > 0)
		fprintf(stderr,
			"%zu RFC knobs exist too (never merged, off by "
			"default): '" PROG " features --all' lists them.\n",
			nr_rfc);
	return EXIT_OK;
}
