/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim list: the shipped workloads, then the shipped machines, then
 * the shipped sweep specs, one line each (file name and the start of its
 * description), in file-name order.
 *
 * Where they are: --dir, else $EEVDF_WORKLOADS, else the source tree's
 * workloads/ beside the build directory of this binary, else the installed
 * $(prefix)/share/eevdf-sim/workloads next to its bin/; the machines in
 * machines/ inside that directory (the tree) or beside it (an install);
 * the sweep specs in sweeps/ inside it (both).
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
	{ "reports", no_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void list_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " list [--dir DIR] | --reports\n"
		"\n"
		"List the shipped workloads (file name and what it replays), "
		"then the\n"
		"shipped machines for --machine, then the sweep specs for "
		"sweep (with\n"
		"their number of runs).  The workloads are looked for in "
		"--dir, else\n"
		"$EEVDF_WORKLOADS, else workloads/ of the source tree this "
		"binary was\n"
		"built in, else PREFIX/share/eevdf-sim/workloads; the machines "
		"in\n"
		"$EEVDF_MACHINES, else machines/ inside or beside that "
		"directory; the\n"
		"sweep specs in sweeps/ inside it.\n"
		"\n"
		"Options:\n"
		"  --dir DIR   list the workloads in DIR\n"
		"  --reports   list the benchmark reports instead: each "
		"one's headline\n"
		"              numbers and the workload metrics it reads\n"
		"  -h, --help  show this help\n");
}

/* By the name shown, without ".json": "blogbench" before
 * "blogbench-coarse" ('.' sorts after '-'). */
static int by_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strlen(x) - 5, ly = strlen(y) - 5;
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c)
		return c;
	return (lx > ly) - (lx < ly);
}

/* The first clause of a description, cut to fit one line. */
static void summary_of(const char *desc, char *out, size_t len)
{
	size_t n = strcspn(desc, ":\n");

	if (!*desc) {
		snprintf(out, len, "(no description)");
		return;
	}
	if (desc[n] != ':' || n > LINE_WIDTH) {
		const char *dot = strstr(desc, ". ");

		n = dot ? (size_t)(dot - desc) : strlen(desc);
	}
	if (n > LINE_WIDTH)
		snprintf(out, len, "%.*s...", LINE_WIDTH - 3, desc);
	else
		snprintf(out, len, "%.*s", (int)n, desc);
}

/* The *.json files of dir, sorted; NULL (after printing why) on error. */
static char **json_files(const char *dir, size_t *nr)
{
	char **names = NULL, **nn;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	*nr = 0;
	d = opendir(dir);
	if (!d) {
		cli_error("list: %s: %s", dir, strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if (*nr + 1 >= cap) {
			cap = cap ? 2 * cap : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		if (!(names[*nr] = strdup(de->d_name)))
			break;
		(*nr)++;
	}
	closedir(d);
	if (!names)
		names = calloc(1, sizeof(*names));
	if (!names) {
		cli_error("out of memory");
		return NULL;
	}
	/* readdir's order is the file system's: sort for a stable list */
	if (*nr)
		qsort(names, *nr, sizeof(*names), by_name);
	return names;
}

/* What a section lists, and its heading. */
enum section {
	SEC_WORKLOADS,
	SEC_MACHINES,
	SEC_SWEEPS
};

static const char *const section_names[] = { "workloads", "machines",
					     "sweeps" };

/* Load path as kind; its one-line summary in line (and the spec's number
 * of runs for a sweep), or false with diag filled. */
static bool summary_of_file(enum section kind, const char *path, char *line,
			    size_t len, struct eevdf_diag *diag)
{
	eevdf_workload *wl = NULL;
	eevdf_machine *m = NULL;
	eevdf_sweep *sw = NULL;
	bool ok = false;

	switch (kind) {
	case SEC_WORKLOADS:
		if (eevdf_workload_load_file(path, &wl, diag) >= 0) {
			summary_of(eevdf_workload_description(wl), line, len);
			ok = true;
		}
		break;
	case SEC_MACHINES:
		if (eevdf_machine_load_file(path, &m, diag) >= 0) {
			summary_of(eevdf_machine_description(m), line, len);
			ok = true;
		}
		break;
	case SEC_SWEEPS:
		if (eevdf_sweep_load_file(path, &sw, diag) >= 0) {
			char head[LINE_WIDTH + 8];
			size_t runs = eevdf_sweep_nr_points(sw);

			summary_of(eevdf_sweep_description(sw), head,
				   sizeof(head));
			snprintf(line, len, "%s (%zu run%s)", head, runs,
				 runs == 1 ? "" : "s");
			ok = true;
		}
		break;
	}
	eevdf_workload_free(wl);
	eevdf_machine_free(m);
	eevdf_sweep_free(sw);
	return ok;
}

/*
 * One section: "what in DIR:" and a line per file, loaded as a machine,
 * a workload or a sweep spec.  False when a file is invalid or the
 * directory could not be read.
 */
static bool list_section(enum section kind, const char *dir)
{
	char path[PATH_MAX + 256], line[LINE_WIDTH + 40], msg[1024];
	bool all_ok = true;
	size_t nr;
	char **names = json_files(dir, &nr);

	if (!names)
		return false;
	printf("%s in %s:\n", section_names[kind], dir);
	for (size_t i = 0; i < nr; i++) {
		struct eevdf_diag diag;
		size_t len = strlen(names[i]) - 5;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		memset(&diag, 0, sizeof(diag));
		if (summary_of_file(kind, path, line, sizeof(line), &diag)) {
			printf("  %-16.*s %s\n", (int)len, names[i], line);
		} else {
			printf("  %-16.*s (invalid: %s)\n", (int)len, names[i],
			       eevdf_diag_format(&diag, msg, sizeof(msg)));
			all_ok = false;
		}
		free(names[i]);
	}
	free(names);
	if (!nr)
		printf("  (none)\n");
	return all_ok;
}

/* --reports: each report, its headline numbers and the metrics it reads. */
static int list_reports(void)
{
	for (size_t i = 0; i < eevdf_report_count(); i++) {
		const struct eevdf_report_info *r = eevdf_report_info(i);

		printf("%s%s\n  %s\n  headlines: %s\n  reads: %s\n",
		       i ? "\n" : "", r->name, r->description, r->headlines,
		       r->metrics);
	}
	printf("\nEvery run also has the summary keys total_cpu_ns, "
	       "total_delay_sum_ns,\nmax_delay_ns, nr_tasks and "
	       "context_switches, and each metric of its workload\nby name "
	       "(compare --metric, check --metric).\n");
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_list(int argc, char **argv)
{
	char dirbuf[PATH_MAX], mraw[PATH_MAX], mbuf[PATH_MAX], real[PATH_MAX];
	char sraw[PATH_MAX + 8];
	struct stat st;
	const char *dir = NULL;
	bool all_ok, reports = false;
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'r':
			reports = true;
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
	if (reports)
		return list_reports();
	if (!dir) {
		if (!cli_workloads_dir(dirbuf, sizeof(dirbuf))) {
			cli_error("list: no workloads directory found; give "
				  "one with --dir or $EEVDF_WORKLOADS");
			return EXIT_USAGE;
		}
		dir = dirbuf;
	}
	/* show where they really are: build/../workloads is workloads */
	if (realpath(dir, real))
		dir = real;
	all_ok = list_section(SEC_WORKLOADS, dir);
	/* a directory without machines beside it lists only workloads */
	if (cli_machines_dir(dir, mraw, sizeof(mraw))) {
		const char *mdir = realpath(mraw, mbuf) ? mbuf : mraw;

		putchar('\n');
		all_ok &= list_section(SEC_MACHINES, mdir);
	}
	/* and one without sweeps/ lists no sweep specs */
	if (snprintf(sraw, sizeof(sraw), "%s/sweeps", dir) <
		    (int)sizeof(sraw) &&
	    stat(sraw, &st) == 0 && S_ISDIR(st.st_mode)) {
		putchar('\n');
		all_ok &= list_section(SEC_SWEEPS, sraw);
	}
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		return EXIT_USAGE;
	}
	return all_ok ? EXIT_OK : EXIT_USAGE;
}
