/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim sweep SPEC.json [DIR]: expand a sweep spec into its points,
 * check every one of them as run would before anything runs, then run
 * them here in worker processes (sweep_exec.c), or write what a cluster
 * runs them with (--emit slurm|parallel, sweep_emit.c), or run some of
 * them (--point, what each array task or parallel job does).
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

#define MAX_JOBS 256

struct sweep_opts {
	const char *spec;
	const char *dir;
	int jobs; /* 0: the CPUs this process may use */
	const char *points;
	bool force, list;
	int progress;
	struct sweep_emit_opts emit;
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "point", required_argument, NULL, 'p' },
	{ "force", no_argument, NULL, 'f' },
	{ "list", no_argument, NULL, 'l' },
	{ "emit", required_argument, NULL, 'e' },
	{ "chunk", required_argument, NULL, 'C' },
	{ "max-running", required_argument, NULL, 'R' },
	{ "cpus-per-task", required_argument, NULL, 'c' },
	{ "time", required_argument, NULL, 'T' },
	{ "mem", required_argument, NULL, 'm' },
	{ "partition", required_argument, NULL, 'P' },
	{ "account", required_argument, NULL, 'A' },
	{ "job-name", required_argument, NULL, 'J' },
	{ "sbatch", required_argument, NULL, 'S' },
	{ "progress", no_argument, NULL, 'g' },
	{ "no-progress", no_argument, NULL, 'G' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void sweep_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " sweep SPEC.json [DIR] [OPTIONS]\n"
		"\n"
		"Expand the sweep spec SPEC.json (docs/sweep-format.md) into "
		"its points,\n"
		"check them all, then run them in worker processes, one "
		"results file per\n"
		"point in DIR/points/ (default DIR: sweep-NAME).  A rerun "
		"skips the points\n"
		"whose results are there; a point that fails is recorded in "
		"DIR/points/\n"
		"ID.error.json and the others go on.  '" PROG " merge DIR' "
		"tabulates them.\n"
		"\n"
		"Options:\n"
		"  -o, --output DIR    the output directory (or DIR after "
		"SPEC.json)\n"
		"  -j, --jobs N        worker processes, 1..%d (default: the "
		"CPUs)\n"
		"  --point LIST        only these points: K, A-B, or a comma "
		"list of them\n"
		"                      (numbered from 0, as --list shows)\n"
		"  --force             run points again even when their "
		"results exist\n"
		"  --list              print the points (index, id, values) "
		"and stop\n"
		"  --progress          a line per finished point on stderr, "
		"also in logs\n"
		"  --no-progress       no progress bar, also on a terminal\n"
		"  -h, --help          show this help\n"
		"\n"
		"Cluster engines (nothing runs here: each array task or job "
		"runs\n"
		"'" PROG " sweep SPEC.json --point A-B DIR'):\n"
		"  --emit slurm        write DIR/sweep.sbatch, a Slurm job "
		"array\n"
		"  --emit parallel     write DIR/parallel.jobs, a GNU "
		"parallel job list\n"
		"  --chunk N           points per array task or job (default: "
		"slurm 1 per\n"
		"                      task up to 1000 tasks, parallel 1)\n"
		"  --max-running N     slurm: tasks running at once, the "
		"array's %% limit\n"
		"                      (default 32)\n"
		"  --cpus-per-task N   slurm: CPUs per task (its points run "
		"in as many\n"
		"                      workers; default 1)\n"
		"  --time T, --mem M, --partition P, --account A, --job-name "
		"NAME\n"
		"                      slurm: the #SBATCH requests of those "
		"names\n"
		"  --sbatch 'OPTION'   slurm: one more #SBATCH line, e.g. "
		"'--qos=short'\n"
		"                      (repeatable)\n"
		"\n"
		"Exit status: 0 every point has results, 2 a bad spec or "
		"option, or a\n"
		"point failed (its error is in DIR/points/ID.error.json).\n",
		MAX_JOBS);
}

static bool parse_count(const char *opt, const char *s, size_t lo, size_t hi,
			size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v < lo || v > hi) {
		cli_error("%s: expected an integer from %zu to %zu, got '%s'",
			  opt, lo, hi, s);
		return false;
	}
	*out = (size_t)v;
	return true;
}

static int parse_options(int argc, char **argv, struct sweep_opts *o)
{
	size_t v;
	int c;

	opterr = 0;
	optind = 0;
	o->progress = -1;
	while ((c = getopt_long(argc, argv, ":ho:j:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->dir = optarg;
			break;
		case 'j':
			if (!parse_count("--jobs", optarg, 1, MAX_JOBS, &v))
				return EXIT_USAGE;
			o->jobs = (int)v;
			break;
		case 'p':
			o->points = optarg;
			break;
		case 'f':
			o->force = true;
			break;
		case 'l':
			o->list = true;
			break;
		case 'e':
			if (strcmp(optarg, "slurm") != 0 &&
			    strcmp(optarg, "parallel") != 0) {
				cli_error("--emit: unknown engine '%s': "
					  "expected slurm or parallel",
					  optarg);
				return EXIT_USAGE;
			}
			o->emit.engine = optarg;
			break;
		case 'C':
			if (!parse_count("--chunk", optarg, 1,
					 EEVDF_SWEEP_POINTS_MAX,
					 &o->emit.chunk))
				return EXIT_USAGE;
			break;
		case 'R':
			if (!parse_count("--max-running", optarg, 1, 100000,
					 &o->emit.max_running))
				return EXIT_USAGE;
			break;
		case 'c':
			if (!parse_count("--cpus-per-task", optarg, 1, MAX_JOBS,
					 &v))
				return EXIT_USAGE;
			o->emit.cpus_per_task = (int)v;
			break;
		case 'T':
			o->emit.time = optarg;
			break;
		case 'm':
			o->emit.mem = optarg;
			break;
		case 'P':
			o->emit.partition = optarg;
			break;
		case 'A':
			o->emit.account = optarg;
			break;
		case 'J':
			o->emit.job_name = optarg;
			break;
		case 'S':
			if (o->emit.nr_sbatch == ARRAY_LEN(o->emit.sbatch)) {
				cli_error("--sbatch: at most %zu",
					  ARRAY_LEN(o->emit.sbatch));
				return EXIT_USAGE;
			}
			o->emit.sbatch[o->emit.nr_sbatch++] = optarg;
			break;
		case 'g':
			o->progress = 1;
			break;
		case 'G':
			o->progress = 0;
			break;
		case 'h':
			sweep_usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("sweep: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("sweep: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " sweep --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("sweep: missing SPEC.json");
		sweep_usage(stderr);
		return EXIT_USAGE;
	}
	o->spec = argv[optind++];
	if (optind < argc) {
		if (o->dir) {
			cli_error("sweep: the output directory is given twice "
				  "('%s' and -o %s)",
				  argv[optind], o->dir);
			return EXIT_USAGE;
		}
		o->dir = argv[optind++];
	}
	if (optind < argc) {
		cli_error("sweep: unexpected argument '%s' (SPEC.json [DIR])",
			  argv[optind]);
		return EXIT_USAGE;
	}
	if (!o->emit.engine &&
	    (o->emit.chunk || o->emit.max_running || o->emit.cpus_per_task ||
	     o->emit.time || o->emit.mem || o->emit.partition ||
	     o->emit.account || o->emit.job_name || o->emit.nr_sbatch)) {
		cli_error("sweep: --chunk, --max-running, --cpus-per-task, "
			  "--time, --mem, --partition, --account, --job-name "
			  "and --sbatch go with --emit");
		return EXIT_USAGE;
	}
	if (o->emit.engine && (o->points || o->force || o->list)) {
		cli_error("sweep: --emit writes the jobs of every point; "
			  "--point, --force and --list do not go with it");
		return EXIT_USAGE;
	}
	if (o->emit.engine && strcmp(o->emit.engine, "parallel") == 0 &&
	    (o->emit.max_running || o->emit.cpus_per_task || o->emit.time ||
	     o->emit.mem || o->emit.partition || o->emit.account ||
	     o->emit.job_name || o->emit.nr_sbatch)) {
		cli_error("sweep: --emit parallel takes --chunk only: GNU "
			  "parallel's own options (--jobs, --sshloginfile) "
			  "say where and how many");
		return EXIT_USAGE;
	}
	return -1;
}

/*
 * --point LIST into sel (one flag per point): "3", "0-5", "1,4,7-9".
 * False after printing why.
 */
static bool parse_points(const char *list, size_t n, bool *sel)
{
	const char *s = list;

	while (*s) {
		unsigned long long a, b;
		char *end;

		errno = 0;
		a = strtoull(s, &end, 10);
		b = a;
		if (end != s && *end == '-' && end[1] >= '0' && end[1] <= '9') {
			s = end + 1;
			b = strtoull(s, &end, 10);
		}
		if (end == s || *s < '0' || *s > '9' || errno ||
		    (*end && *end != ',') || b < a) {
			cli_error("--point: expected K, A-B or a comma list of "
				  "them (A <= B), got '%s'",
				  list);
			return false;
		}
		if (b >= n) {
			cli_error("--point: point %llu does not exist: the "
				  "sweep has %zu points, 0 to %zu",
				  b, n, n - 1);
			return false;
		}
		for (unsigned long long k = a; k <= b; k++)
			sel[k] = true;
		s = *end ? end + 1 : end;
		if (*end && !*s) {
			cli_error("--point: '%s' ends with a comma", list);
			return false;
		}
	}
	return true;
}

/* The CPUs this process may run on, for the default --jobs. */
static int nr_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set))
		return CPU_COUNT(&set) > MAX_JOBS ? MAX_JOBS : CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

static void print_list(const eevdf_sweep *sw, const size_t *sel, size_t n)
{
	printf("%s: %zu point%s\n", eevdf_sweep_name(sw),
	       eevdf_sweep_nr_points(sw),
	       eevdf_sweep_nr_points(sw) == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		struct eevdf_sweep_point pt;
		char labels[1024];

		eevdf_sweep_point(sw, sel[i], &pt);
		sweep_point_labels(sw, sel[i], labels, sizeof(labels));
		printf("%6zu  %.*s  %s\n", sel[i], SWEEP_ID_CHARS, pt.id,
		       labels);
	}
}

/* The spec, with its diagnostics; NULL after printing why. */
static eevdf_sweep *load_spec(const char *path)
{
	struct eevdf_diag diag;
	eevdf_sweep *sw = NULL;
	char buf[1024];
	int rc;

	memset(&diag, 0, sizeof(diag));
	rc = eevdf_sweep_load_file(path, &sw, &diag);
	if (rc < 0) {
		if (diag.msg[0])
			cli_error("%s",
				  eevdf_diag_format(&diag, buf, sizeof(buf)));
		else
			cli_error("%s: %s", path, eevdf_strerror(rc));
		return NULL;
	}
	return sw;
}

/*
 * The manifest of the output directory: written when there is none or
 * when own (a local run of the whole sweep, which owns the directory);
 * otherwise it must be of this very spec, as --point runs on a cluster
 * share the one --emit wrote.
 */
static bool manifest(const eevdf_sweep *sw, const char *spec, const char *dir,
		     bool own)
{
	char path[4096];
	cJSON *old;
	char *text;
	bool ok;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (!own && access(path, F_OK) == 0) {
		const cJSON *sha;

		old = sweep_manifest_read(dir);
		if (!old)
			return false;
		sha = cJSON_GetObjectItemCaseSensitive(old, "spec_sha256");
		ok = cJSON_IsString(sha) &&
		     strcmp(sha->valuestring, eevdf_sweep_sha256(sw)) == 0;
		cJSON_Delete(old);
		if (!ok)
			cli_error("%s: written for another version of %s: its "
				  "points may not be these; sweep into "
				  "another directory, or run the whole "
				  "sweep here again",
				  path, spec);
		return ok;
	}
	text = sweep_manifest_text(sw, spec);
	if (!text)
		return false;
	ok = cli_write_atomic(path, text);
	cJSON_free(text);
	return ok;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o;
	eevdf_sweep *sw = NULL;
	char defdir[512];
	bool *flags = NULL;
	size_t *sel = NULL, nsel = 0, np;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = EXIT_USAGE;
	sw = load_spec(o.spec);
	if (!sw)
		goto out;
	np = eevdf_sweep_nr_points(sw);
	flags = calloc(np, sizeof(*flags));
	sel = calloc(np, sizeof(*sel));
	if (!flags || !sel) {
		cli_error("out of memory");
		goto out;
	}
	if (o.points) {
		if (!parse_points(o.points, np, flags))
			goto out;
	} else {
		memset(flags, 1, np * sizeof(*flags));
	}
	for (size_t k = 0; k < np; k++)
		if (flags[k])
			sel[nsel++] = k;
	if (o.list) {
		print_list(sw, sel, nsel);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (!o.dir) {
		snprintf(defdir, sizeof(defdir), "sweep-%s",
			 eevdf_sweep_name(sw));
		o.dir = defdir;
	}
	if (!sweep_check_points(sw, o.spec, sel, nsel))
		goto out;
	{
		char points[4096];

		snprintf(points, sizeof(points), "%s/points", o.dir);
		if (!sweep_mkdirs(points))
			goto out;
	}
	if (!manifest(sw, o.spec, o.dir, !o.points))
		goto out;
	if (o.emit.engine) {
		rc = sweep_emit(sw, o.spec, o.dir, &o.emit);
		goto out;
	}
	rc = sweep_run_local(sw, o.dir, sel, nsel, o.jobs ? o.jobs : nr_cpus(),
			     o.force, o.progress, !o.points);
out:
	free(flags);
	free(sel);
	eevdf_sweep_free(sw);
	return rc;
}
