/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim list: the shipped workloads, one line each (file name and the
 * start of its description), in file-name order.
 *
 * Where they are: --dir, else $EEVDF_WORKLOADS, else the source tree's
 * workloads/ beside the build directory of this binary, else the installed
 * $(prefix)/share/eevdf-sim/workloads next to its bin/.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define LINE_WIDTH 64 /* of the description column */

static const struct option long_opts[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void list_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " list [--dir DIR]\n"
		"\n"
		"List the shipped workloads: file name and what it replays.  "
		"They are\n"
		"looked for in --dir, else $EEVDF_WORKLOADS, else workloads/ "
		"of the\n"
		"source tree this binary was built in, else "
		"PREFIX/share/eevdf-sim/workloads.\n"
		"\n"
		"Options:\n"
		"  --dir DIR   list the workloads in DIR\n"
		"  -h, --help  show this help\n");
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The default directory into buf, or false. */
static bool find_dir(char *buf, size_t len)
{
	/* build/ and build/<variant>/ of the tree, then an install */
	static const char *const rel[] = { "/../workloads",
					   "/../../workloads",
					   "/../share/eevdf-sim/workloads" };
	const char *env = getenv("EEVDF_WORKLOADS");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return true;
	}
	/* the directory of this binary, through /proc (Linux) */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(buf, len, "%s%s", exe, rel[i]) < len &&
		    is_dir(buf))
			return true;
	}
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first clause of a description, cut to fit one line. */
static void summary_of(const char *desc, char *out, size_t len)
{
	size_t n = strcspn(desc, ":\n");

	if (desc[n] != ':' || n > LINE_WIDTH) {
		const char *dot = strstr(desc, ". ");

		n = dot ? (size_t)(dot - desc) : strlen(desc);
	}
	if (n > LINE_WIDTH)
		snprintf(out, len, "%.*s...", LINE_WIDTH - 3, desc);
	else
		snprintf(out, len, "%.*s", (int)n, desc);
}

int cmd_list(int argc, char **argv)
{
	char dirbuf[PATH_MAX], path[PATH_MAX + 256], line[LINE_WIDTH + 8];
	const char *dir = NULL;
	char **names = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *de;
	bool all_ok = true;
	DIR *d;
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'h':
			list_usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("list: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("list: unknown option '%s'",
				  argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("list: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!dir) {
		if (!find_dir(dirbuf, sizeof(dirbuf))) {
			cli_error("list: no workloads directory found; give "
				  "one with --dir or $EEVDF_WORKLOADS");
			return EXIT_USAGE;
		}
		dir = dirbuf;
	}
	/* show where they really are: build/../workloads is workloads */
	if (realpath(dir, dirbuf))
		dir = dirbuf;
	d = opendir(dir);
	if (!d) {
		cli_error("list: %s: %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if (nr == cap) {
			char **nn;

			cap = cap ? 2 * cap : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		if (!(names[nr] = strdup(de->d_name)))
			break;
		nr++;
	}
	closedir(d);
	/* readdir's order is the file system's: sort for a stable list */
	if (nr)
		qsort(names, nr, sizeof(*names), by_name);
	printf("workloads in %s:\n", dir);
	for (size_t i = 0; i < nr; i++) {
		struct eevdf_diag diag;
		eevdf_workload *wl = NULL;
		size_t len = strlen(names[i]) - 5;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		memset(&diag, 0, sizeof(diag));
		if (eevdf_workload_load_file(path, &wl, &diag) < 0) {
			char msg[1024];

			printf("  %-16.*s (invalid: %s)\n", (int)len, names[i],
			       eevdf_diag_format(&diag, msg, sizeof(msg)));
			all_ok = false;
		} else {
			summary_of(eevdf_workload_description(wl), line,
				   sizeof(line));
			printf("  %-16.*s %s\n", (int)len, names[i], line);
		}
		eevdf_workload_free(wl);
		free(names[i]);
	}
	free(names);
	if (!nr)
		printf("  (none)\n");
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return all_ok ? EXIT_OK : EXIT_USAGE;
}
