/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim compare: one workload under two configurations, N seeds each,
 * and per figure a's mean, b's mean, the ratio b/a and the spread over the
 * seeds: the "DELAY_DEQUEUE 3246 MB/s vs NO_DELAY_DEQUEUE 3285 MB/s" table
 * of a mailing-list thread, without the reboots.
 *
 * Runs are independent simulations; with --jobs J they run in J forked
 * worker processes, and the results are gathered by run index, so the
 * output does not depend on J or on which worker finished first.  A run
 * that fails (a worker killed, a limit reached) is reported as failed
 * and the others go on; an interrupted compare stops its workers and
 * still writes the runs that finished.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"
#include "html.h"

#define MAX_RUNS 1000
#define MAX_JOBS 64
#define MAX_WORDS 128

struct config {
	const char *opts;     /* --a / --b text */
	const char *features; /* --features-a / --features-b */
	char *words[MAX_WORDS];
	size_t nr_words;
};

struct compare_opts {
	const char *workload;
	const char *machine; /* --machine: the machine of both */
	const char *common;  /* --opts: options of both configurations */
	char *common_words[MAX_WORDS];
	size_t nr_common;
	struct config cfg[2];
	int runs;
	int jobs;
	bool have_seed;
	uint64_t seed;
	bool json;
	/* run options given to compare itself, for both: --duration 5s */
	char *direct[MAX_WORDS];
	size_t nr_direct;
	int progress; /* -1: on a terminal; 0 never; 1 always */
	const char *metrics[CLI_METRICS_MAX]; /* --metric: more figures */
	size_t nr_metrics;
	const char *output; /* --output: the table or JSON, atomically */
	const char *html;   /* --html FILE */
};

/* What became of each run. */
enum run_state {
	RUN_PENDING = 0, /* not started, or cut off by a signal */
	RUN_DONE,
	RUN_FAILED,
};

struct run_slot {
	enum run_state state;
	char why[96]; /* RUN_FAILED: how */
};

static const struct option long_opts[] = {
	{ "a", required_argument, NULL, 'a' },
	{ "b", required_argument, NULL, 'b' },
	{ "features-a", required_argument, NULL, 'A' },
	{ "features-b", required_argument, NULL, 'B' },
	{ "opts", required_argument, NULL, 'O' },
	{ "machine", required_argument, NULL, 'M' },
	{ "runs", required_argument, NULL, 'n' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "seed", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "progress", no_argument, NULL, 'p' },
	{ "metric", required_argument, NULL, 'm' },
	{ "no-progress", no_argument, NULL, 'P' },
	{ "output", required_argument, NULL, 'o' },
	{ "html", required_argument, NULL, 'W' },
	{ "help", no_argument, NULL, 'h' },
	/* the common run options, for both configurations (as --opts) */
	{ "duration", required_argument, NULL, 'r' },
	{ "cpus", required_argument, NULL, 'r' },
	{ "kernel", required_argument, NULL, 'r' },
	{ "param", required_argument, NULL, 'r' },
	{ "features", required_argument, NULL, 'r' },
	{ "hz", required_argument, NULL, 'r' },
	{ "input", required_argument, NULL, 'r' },
	{ "report", required_argument, NULL, 'r' },
	{ "features-allow-absent", no_argument, NULL, 'r' },
	{ "sysctl", required_argument, NULL, 'r' },
	{ "max-events", required_argument, NULL, 'r' },
	{ "max-wall", required_argument, NULL, 'r' },
	{ "max-memory", required_argument, NULL, 'r' },
	{ "max-input", required_argument, NULL, 'r' },
	{ "max-depth", required_argument, NULL, 'r' },
	{ "max-ops", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

static void compare_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " compare WORKLOAD.json [--a 'OPTIONS'] "
		"[--b 'OPTIONS'] [OPTIONS]\n"
		"\n"
		"Run WORKLOAD.json under configurations a and b, over N seeds "
		"each, and\n"
		"print per figure (the report's headline numbers, then the "
		"latency\n"
		"table's average and maximum delay, the context switches and "
		"the\n"
		"involuntary ones among them) a's mean, b's mean, the ratio "
		"b/a and\n"
		"the spread over the seeds.\n"
		"\n"
		"Options:\n"
		"  --a 'OPTIONS'        'run' options of configuration a, e.g. "
		"'--kernel 6.17'\n"
		"  --b 'OPTIONS'        'run' options of configuration b\n"
		"  --features-a LIST    shorthand for --a '--features LIST'\n"
		"  --features-b LIST    shorthand for --b '--features LIST'\n"
		"  --opts 'OPTIONS'     'run' options of both, e.g. '--cpus 4 "
		"--param nprocs=8'\n"
		"  --machine FILE       the machine of both: shorthand for "
		"--opts '--machine FILE'\n"
		"  --runs N             seeds per configuration, 1..%d "
		"(default 1)\n"
		"  --seed N             the first seed (default: the "
		"workload's, else 1);\n"
		"                       run i uses seed + i\n"
		"  --jobs J             worker processes, 1..%d (default 1)\n"
		"  --format text|json   a table (default) or JSON\n"
		"  --html FILE          also a one-file HTML report: the "
		"table, the ratio\n"
		"                       chart with the spread over seeds, "
		"every seed\n"
		"  -o, --output FILE    write it to FILE atomically ('-' = "
		"stdout), with\n"
		"                       the runs that finished even when "
		"interrupted\n"
		"  --metric NAME        a figure more: a key of the results' "
		"summary or a\n"
		"                       workload metric (NAME, NAME.p99, "
		"NAME[KEY].mean);\n"
		"                       repeatable\n"
		"  --progress           a line per finished run on stderr, "
		"also in logs\n"
		"  --no-progress        none, also on a terminal (default: on "
		"a terminal)\n"
		"  -h, --help           show this help\n"
		"\n"
		"The run options --duration, --cpus, --kernel, --param, "
		"--features, --hz,\n"
		"--input, --report, --sysctl, --features-allow-absent and the "
		"limits\n"
		"--max-events, --max-wall, --max-memory, --max-input, "
		"--max-depth and\n"
		"--max-ops may be given to compare directly: they apply to "
		"both\n"
		"configurations, as in --opts, before --a and --b (whose "
		"options win,\n"
		"as later ones do in run).\n"
		"\n"
		"OPTIONS are split at blanks; quote with '...' or \"...\".  "
		"--seed,\n"
		"--format and --output belong to compare; --quiet has no "
		"place here.\n"
		"A run that fails is reported and the others go on (exit "
		"2); SIGINT,\n"
		"SIGTERM and SIGHUP stop the workers and write the runs "
		"that finished\n"
		"(exit 130, 143, 129).\n"
		"Spread is the sample standard deviation over the seeds, in %% "
		"of the mean.\n",
		MAX_RUNS, MAX_JOBS);
}

/*
 * Split text at blanks into words (quotes group, a backslash escapes the
 * next byte), stored in a malloc'd copy that words[] point into.  Returns
 * the copy, or NULL after printing why.
 */
static char *split_words(const char *what, const char *text, char **words,
			 size_t *n)
{
	char *buf = strdup(text), *w = buf, *r = buf;

	if (!buf) {
		cli_error("out of memory");
		return NULL;
	}
	while (*r) {
		char quote = 0;

		while (*r == ' ' || *r == '\t' || *r == '\n')
			r++;
		if (!*r)
			break;
		if (*n == MAX_WORDS) {
			cli_error("%s: more than %d words", what, MAX_WORDS);
			free(buf);
			return NULL;
		}
		words[(*n)++] = w;
		while (*r &&
		       (quote || (*r != ' ' && *r != '\t' && *r != '\n'))) {
			if (quote && *r == quote) {
				quote = 0;
				r++;
			} else if (!quote && (*r == '\'' || *r == '"')) {
				quote = *r++;
			} else if (*r == '\\' && quote != '\'' && r[1]) {
				r++;
				*w++ = *r++;
			} else {
				*w++ = *r++;
			}
		}
		if (quote) {
			cli_error("%s: unterminated %c quote in '%s'", what,
				  quote, text);
			free(buf);
			return NULL;
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
	return buf;
}

/* Options compare keeps for itself: they make no sense per configuration. */
static bool reserved(const char *word)
{
	static const char *const own[] = { "--seed",  "--format", "--output",
					   "-o",      "--help",	  "-h",
					   "--quiet", "-q" };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		size_t len = strlen(own[i]);

		if (strncmp(word, own[i], len) == 0 &&
		    (word[len] == '\0' || word[len] == '='))
			return true;
	}
	return word[0] != '-';
}

static int parse_options(int argc, char **argv, struct compare_opts *o)
{
	uint64_t u;
	char *end;
	int c;

	int li;

	opterr = 0;
	optind = 0;
	o->progress = -1;
	while ((c = getopt_long(argc, argv, ":ho:", long_opts, &li)) != -1) {
		switch (c) {
		case 'W':
			o->html = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'r': {
			/* a run option for both: its word, and its value
			 * when that was a word of its own ("--cpus 4") */
			bool apart = optarg && optarg == argv[optind - 1];

			if (o->nr_direct + 2 > MAX_WORDS) {
				cli_error("compare: too many run options");
				return EXIT_USAGE;
			}
			o->direct[o->nr_direct++] = argv[optind - 1 - apart];
			if (apart)
				o->direct[o->nr_direct++] = optarg;
			break;
		}
		case 'p':
			o->progress = 1;
			break;
		case 'm':
			if (o->nr_metrics == CLI_METRICS_MAX) {
				cli_error("--metric: at most %d",
					  CLI_METRICS_MAX);
				return EXIT_USAGE;
			}
			o->metrics[o->nr_metrics++] = optarg;
			break;
		case 'P':
			o->progress = 0;
			break;
		case 'a':
			o->cfg[0].opts = optarg;
			break;
		case 'b':
			o->cfg[1].opts = optarg;
			break;
		case 'A':
			o->cfg[0].features = optarg;
			break;
		case 'B':
			o->cfg[1].features = optarg;
			break;
		case 'O':
			o->common = optarg;
			break;
		case 'M':
			o->machine = optarg;
			break;
		case 'n':
		case 'j':
			errno = 0;
			u = strtoull(optarg, &end, 10);
			if (optarg[0] < '0' || optarg[0] > '9' || *end ||
			    errno || u < 1 ||
			    u > (c == 'n' ? MAX_RUNS : MAX_JOBS)) {
				cli_error("%s: expected an integer from 1 to "
					  "%d, got '%s'",
					  c == 'n' ? "--runs" : "--jobs",
					  c == 'n' ? MAX_RUNS : MAX_JOBS,
					  optarg);
				return EXIT_USAGE;
			}
			*(c == 'n' ? &o->runs : &o->jobs) = (int)u;
			break;
		case 's':
			errno = 0;
			u = strtoull(optarg, &end, 10);
			if (optarg[0] < '0' || optarg[0] > '9' || *end ||
			    errno) {
				cli_error("--seed: expected a non-negative "
					  "integer, got '%s'",
					  optarg);
				return EXIT_USAGE;
			}
			o->seed = u;
			o->have_seed = true;
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0) {
				o->json = true;
			} else if (strcmp(optarg, "text") != 0) {
				cli_error("--format: unknown format '%s': "
					  "expected text or json",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			compare_usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("compare: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("compare: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " compare --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("compare: missing WORKLOAD.json");
		compare_usage(stderr);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		cli_error("compare: unexpected argument '%s' (one workload)",
			  argv[optind + 1]);
		return EXIT_USAGE;
	}
	o->workload = argv[optind];
	return -1;
}

/*
 * Build a run's argv: "run", the common options, the configuration's,
 * "--seed SEED" when seedbuf is not NULL (formatted there), the workload.
 */
static char **run_argv(const struct compare_opts *o, const struct config *k,
		       uint64_t seed, char *seedbuf, size_t seedlen, int *argc)
{
	static char run[] = "run", seedopt[] = "--seed", feat[] = "--features";
	static char mach[] = "--machine";
	char **v = calloc(o->nr_common + o->nr_direct + k->nr_words + 10,
			  sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = run;
	if (o->machine) {
		v[n++] = mach;
		v[n++] = (char *)(uintptr_t)o->machine;
	}
	for (size_t i = 0; i < o->nr_direct; i++)
		v[n++] = o->direct[i];
	for (size_t i = 0; i < o->nr_common; i++)
		v[n++] = o->common_words[i];
	for (size_t i = 0; i < k->nr_words; i++)
		v[n++] = k->words[i];
	if (k->features) {
		v[n++] = feat;
		v[n++] = (char *)(uintptr_t)k->features;
	}
	if (seedbuf) {
		snprintf(seedbuf, seedlen, "%llu", (unsigned long long)seed);
		v[n++] = seedopt;
		v[n++] = seedbuf;
	}
	v[n++] = (char *)(uintptr_t)o->workload;
	v[n] = NULL;
	*argc = n;
	return v;
}

/* Run i: configuration i % 2, seed number i / 2. */
static int measure_one(const struct compare_opts *o, int i, uint64_t seed0,
		       struct cli_measure *m)
{
	const struct config *k = &o->cfg[i % 2];
	uint64_t seed = seed0 + (uint64_t)(i / 2);
	char seedbuf[32];
	char **argv;
	int argc, rc;

	argv = run_argv(o, k, seed, seedbuf, sizeof(seedbuf), &argc);
	if (!argv) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	if (!o->nr_metrics) {
		rc = cli_run_measure(argc, argv, m);
	} else {
		/* the run's results, for the figures asked by name */
		char *json = NULL;
		cJSON *root;

		rc = cli_run_results(argc, argv, m, &json);
		root = rc == EXIT_OK ? cJSON_Parse(json) : NULL;
		for (size_t j = 0; rc == EXIT_OK && j < o->nr_metrics; j++) {
			struct cli_figure *f = &m->fig[m->nr];
			double v;

			if (!root ||
			    !cli_results_figure(root, o->metrics[j], &v)) {
				cli_error("--metric: '%s' is not a figure of "
					  "the results (a summary key, or a "
					  "metric: NAME, NAME.p99, "
					  "NAME[KEY].mean)",
					  o->metrics[j]);
				rc = EXIT_USAGE;
				break;
			}
			if (m->nr == CLI_MEASURE_MAX)
				break;
			snprintf(f->name, sizeof(f->name), "%s", o->metrics[j]);
			f->unit[0] = '\0';
			f->better = 0;
			f->value = v;
			m->nr++;
		}
		cJSON_Delete(root);
		free(json);
	}
	free(argv);
	return rc;
}

/*
 * "compare: 3 of 10 runs done" on stderr: redrawn in place on a terminal,
 * a line each in a log (--progress), nothing with --no-progress.
 */
static void progress(const struct compare_opts *o, int done, int nr)
{
	bool tty = isatty(STDERR_FILENO);

	if (o->progress == 0 || (o->progress < 0 && !tty))
		return;
	fprintf(stderr, "%s" PROG ": compare: %d of %d runs done%s",
		tty ? "\r" : "", done, nr,
		tty ? (done == nr ? "\r\033[K" : "") : "\n");
	fflush(stderr);
}

static void run_failed(struct run_slot *slot, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run_failed(struct run_slot *slot, const char *fmt, ...)
{
	va_list ap;

	slot->state = RUN_FAILED;
	va_start(ap, fmt);
	vsnprintf(slot->why, sizeof(slot->why), fmt, ap);
	va_end(ap);
}

/* What the workers of run_all() share. */
struct compare_pool {
	const struct compare_opts *o;
	uint64_t seed0;
	struct cli_measure *res;
	struct run_slot *slots;
	int nr, done;
};

/* In a worker: measure run i and send the struct to the parent. */
static int compare_child(size_t i, int fd, void *ud)
{
	const struct compare_pool *cp = ud;
	struct cli_measure m;
	int r = measure_one(cp->o, (int)i, cp->seed0, &m);

	if (r == EXIT_OK) {
		const char *p = (const char *)&m;
		size_t left = sizeof(m);

		while (left) {
			ssize_t w = write(fd, p, left);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return EXIT_USAGE;
			p += w;
			left -= (size_t)w;
		}
	}
	return r;
}

/* The end of run i's worker, with what it sent: the run's slot. */
static void compare_finished(size_t i, int status, const char *data, size_t len,
			     void *ud)
{
	struct compare_pool *cp = ud;
	struct run_slot *slot = &cp->slots[i];

	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_OK &&
	    len == sizeof(cp->res[i])) {
		memcpy(&cp->res[i], data, len);
		slot->state = RUN_DONE;
		progress(cp->o, ++cp->done, cp->nr);
	} else if (cli_signal_pending()) {
		slot->state = RUN_PENDING; /* stopped: not a failure */
	} else if (WIFSIGNALED(status)) {
		run_failed(slot, "its worker was killed by signal %d (%s)",
			   WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != EXIT_OK) {
		run_failed(slot, "its worker exited with status %d",
			   WEXITSTATUS(status));
	} else {
		run_failed(slot, "its worker sent %zu bytes of %zu", len,
			   sizeof(cp->res[i]));
	}
}

/*
 * Every run, in up to o->jobs forked workers (cli_pool_run()).  A run
 * that fails, or whose worker dies, is marked so in slots and the rest go
 * on; a signal (deferred, cli/signals.c) stops the workers, and the runs
 * not finished stay pending.  The workers die with compare
 * (PR_SET_PDEATHSIG, cli/workers.c).
 */
static void run_all(const struct compare_opts *o, uint64_t seed0,
		    struct cli_measure *res, struct run_slot *slots, int nr)
{
	static const struct cli_pool_ops ops = { compare_child,
						 compare_finished, NULL };
	struct compare_pool cp = { o, seed0, res, slots, nr, 0 };

	if (o->jobs <= 1) {
		for (int i = 0; i < nr && !cli_signal_pending(); i++) {
			if (measure_one(o, i, seed0, &res[i]) == EXIT_OK)
				slots[i].state = RUN_DONE;
			else if (!cli_signal_pending())
				run_failed(&slots[i], "it failed (the message "
						      "is above)");
			progress(o, i + 1, nr);
		}
		return;
	}
	/* a broken pipe or fork is printed; its runs stay pending */
	if (cli_pool_run((size_t)nr, o->jobs, true, &ops, &cp) < 0) {
		for (int i = 0; i < nr; i++)
			if (slots[i].state == RUN_PENDING)
				run_failed(&slots[i], "not started: a worker "
						      "could not be started");
	}
}

/* Figure f of configuration k over the seeds whose runs finished (n
 * of them): all NaN when none did; a single run has no spread, which
 * compare prints as 0. */
static struct eevdf_stats stats_of(const struct cli_measure *res,
				   const struct run_slot *slots, int runs,
				   int k, size_t f)
{
	double v[MAX_RUNS] = { 0 };
	struct eevdf_stats s;
	size_t n = 0;

	for (int r = 0; r < runs; r++)
		if (slots[2 * r + k].state == RUN_DONE)
			v[n++] = res[2 * r + k].fig[f].value;
	if (eevdf_stats_compute(v, n, &s) != 0) {
		s.mean = s.stddev = s.min = s.max = s.ci95 = (double)NAN;
		return s;
	}
	if (n < 2)
		s.stddev = 0;
	return s;
}

static double ratio(double a, double b)
{
	return a != 0 ? b / a : (b == 0 ? 1 : (double)NAN);
}

/* The options of both: compare's own run options, then --opts. */
static const char *both_text(const struct compare_opts *o, char *buf,
			     size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < o->nr_direct && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
				      o->direct[i]);
	if (o->common && n < len)
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", o->common);
	return buf;
}

static const char *describe(const struct config *k, char *buf, size_t len)
{
	if (k->opts && k->features)
		snprintf(buf, len, "%s --features %s", k->opts, k->features);
	else if (k->features)
		snprintf(buf, len, "--features %s", k->features);
	else if (k->opts && k->opts[0])
		snprintf(buf, len, "%s", k->opts);
	else
		snprintf(buf, len, "(defaults)");
	return buf;
}

/* What the output reads: the runs, what became of each, their seeds. */
struct view {
	const struct compare_opts *o;
	const struct cli_measure *res;
	const struct run_slot *slots;
	uint64_t seed0;
	int nr;
	int ref; /* a run that finished: the figures' names and units */
};

/* %.6g, or "-" for a NaN (a ratio, or a side with no finished run) */
static void print_num(FILE *f, double v, int width)
{
	if (isnan(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.*g", width, v >= 1e6 ? 10 : 6, v);
}

static void print_spread(FILE *f, struct eevdf_stats s)
{
	if (isnan(s.mean))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %8.1f%%",
			s.mean != 0 ? 100 * s.stddev / fabs(s.mean) : 0);
}

/* The runs that did not finish, one line each, and a closing count. */
static void print_missing(FILE *f, const struct view *v)
{
	int failed = 0, pending = 0;

	for (int i = 0; i < v->nr; i++) {
		const struct run_slot *s = &v->slots[i];
		unsigned long long seed = v->seed0 + (uint64_t)(i / 2);

		if (s->state == RUN_DONE)
			continue;
		if (s->state == RUN_FAILED)
			failed++;
		else
			pending++;
		fprintf(f, "run %d (%c, seed %llu): %s\n", i, 'a' + i % 2, seed,
			s->state == RUN_FAILED ?
				s->why :
				"not run: compare was stopped");
	}
	if (failed || pending)
		fprintf(f, "%d of %d runs finished; the figures are theirs\n",
			v->nr - failed - pending, v->nr);
}

static void print_text(FILE *f, const struct view *v)
{
	const struct compare_opts *o = v->o;
	char da[512], db[512], dboth[1024];
	const struct cli_measure *ref = v->ref >= 0 ? &v->res[v->ref] : NULL;

	fprintf(f, "%s: %d run%s per configuration, seeds %llu..%llu\n",
		o->workload, o->runs, o->runs == 1 ? "" : "s",
		(unsigned long long)v->seed0,
		(unsigned long long)(v->seed0 + (uint64_t)o->runs - 1));
	if (o->machine)
		fprintf(f, "  machine: %s\n", o->machine);
	if (o->common || o->nr_direct)
		fprintf(f, "  both: %s\n", both_text(o, dboth, sizeof(dboth)));
	fprintf(f, "  a: %s\n", describe(&o->cfg[0], da, sizeof(da)));
	fprintf(f, "  b: %s\n\n", describe(&o->cfg[1], db, sizeof(db)));
	if (ref) {
		fprintf(f, "%-20s %-6s %12s %12s %8s %9s %9s\n", "figure",
			"unit", "a", "b", "b/a", "spread a", "spread b");
		for (size_t i = 0; i < ref->nr; i++) {
			struct eevdf_stats a = stats_of(v->res, v->slots,
							o->runs, 0, i);
			struct eevdf_stats b = stats_of(v->res, v->slots,
							o->runs, 1, i);
			double r = ratio(a.mean, b.mean);

			fprintf(f, "%-20s %-6s", ref->fig[i].name,
				ref->fig[i].unit);
			print_num(f, a.mean, 12);
			print_num(f, b.mean, 12);
			if (isnan(r))
				fprintf(f, " %8s", "-");
			else
				fprintf(f, " %8.3f", r);
			print_spread(f, a);
			print_spread(f, b);
			fputc('\n', f);
		}
	}
	print_missing(f, v);
}

/* A number, or null for a NaN (JSON has none). */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static cJSON *side_json(const struct view *v, int k, size_t f)
{
	struct eevdf_stats s = stats_of(v->res, v->slots, v->o->runs, k, f);
	cJSON *o = cJSON_CreateObject(), *vals = cJSON_CreateArray();

	if (!o || !vals) {
		cJSON_Delete(o);
		cJSON_Delete(vals);
		return NULL;
	}
	add_num(o, "mean", s.mean);
	add_num(o, "stddev", s.stddev);
	add_num(o, "min", s.min);
	add_num(o, "max", s.max);
	/* by seed, as "seeds": null for a run that did not finish */
	for (int r = 0; r < v->o->runs; r++) {
		int i = 2 * r + k;

		cJSON_AddItemToArray(
			vals,
			v->slots[i].state == RUN_DONE ?
				cJSON_CreateNumber(v->res[i].fig[f].value) :
				cJSON_CreateNull());
	}
	cJSON_AddItemToObject(o, "values", vals);
	return o;
}

/* The runs that did not finish, for scripts. */
static void add_missing(cJSON *root, const struct view *v)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "failed");

	for (int i = 0; arr && i < v->nr; i++) {
		const struct run_slot *s = &v->slots[i];
		cJSON *x;
		char cfg[2] = { (char)('a' + i % 2), '\0' };

		if (s->state == RUN_DONE || !(x = cJSON_CreateObject()))
			continue;
		cJSON_AddItemToArray(arr, x);
		cJSON_AddNumberToObject(x, "run", i);
		cJSON_AddStringToObject(x, "config", cfg);
		cJSON_AddNumberToObject(x, "seed",
					(double)(v->seed0 + (uint64_t)(i / 2)));
		cJSON_AddStringToObject(x, "reason",
					s->state == RUN_FAILED ?
						s->why :
						"not run: compare was stopped");
	}
}

static int print_json(FILE *f, const struct view *v)
{
	const struct compare_opts *o = v->o;
	const struct cli_measure *ref = v->ref >= 0 ? &v->res[v->ref] : NULL;
	cJSON *root = cJSON_CreateObject(), *figs, *seeds;
	char da[512], db[512], dboth[1024];
	char *text;

	if (!root)
		return EXIT_USAGE;
	cJSON_AddStringToObject(root, "format", "eevdf-sim-compare/1");
	cJSON_AddStringToObject(root, "workload", o->workload);
	cJSON_AddStringToObject(root, "report", ref ? ref->report : "");
	cJSON_AddStringToObject(root, "machine", o->machine ? o->machine : "");
	cJSON_AddStringToObject(root, "both",
				both_text(o, dboth, sizeof(dboth)));
	cJSON_AddStringToObject(root, "a",
				describe(&o->cfg[0], da, sizeof(da)));
	cJSON_AddStringToObject(root, "b",
				describe(&o->cfg[1], db, sizeof(db)));
	cJSON_AddNumberToObject(root, "runs", o->runs);
	seeds = cJSON_AddArrayToObject(root, "seeds");
	for (int r = 0; seeds && r < o->runs; r++)
		cJSON_AddItemToArray(
			seeds,
			cJSON_CreateNumber((double)(v->seed0 + (uint64_t)r)));
	figs = cJSON_AddArrayToObject(root, "figures");
	for (size_t i = 0; ref && figs && i < ref->nr; i++) {
		cJSON *x = cJSON_CreateObject();
		double a = stats_of(v->res, v->slots, o->runs, 0, i).mean;
		double b = stats_of(v->res, v->slots, o->runs, 1, i).mean;

		if (!x)
			break;
		cJSON_AddItemToArray(figs, x);
		cJSON_AddStringToObject(x, "name", ref->fig[i].name);
		cJSON_AddStringToObject(x, "unit", ref->fig[i].unit);
		cJSON_AddNumberToObject(x, "better", ref->fig[i].better);
		cJSON_AddItemToObject(x, "a", side_json(v, 0, i));
		cJSON_AddItemToObject(x, "b", side_json(v, 1, i));
		add_num(x, "ratio", ratio(a, b));
	}
	for (int i = 0; i < v->nr; i++) {
		if (v->slots[i].state != RUN_DONE) {
			add_missing(root, v);
			break;
		}
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	fputs(text, f);
	fputc('\n', f);
	cJSON_free(text);
	return EXIT_OK;
}

/* --html: the same figures as a page (html_compare.c). */
static bool write_html(const struct compare_opts *o,
		       const struct cli_measure *res, uint64_t seed0, int argc,
		       char **argv)
{
	char da[512], db[512], dboth[1024], line[2048];
	struct html_compare h = { .path = o->html,
				  .command_line = line,
				  .workload = o->workload,
				  .machine = o->machine,
				  .both = both_text(o, dboth, sizeof(dboth)),
				  .a = describe(&o->cfg[0], da, sizeof(da)),
				  .b = describe(&o->cfg[1], db, sizeof(db)),
				  .res = res,
				  .runs = o->runs,
				  .seed0 = seed0 };
	size_t at = 0;

	line[0] = '\0';
	for (int i = 0; i < argc && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s",
				       i ? " " : PROG " ", argv[i]);
	return cli_html_compare(&h);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct cli_measure *res = NULL;
	struct run_slot *slots = NULL;
	struct cli_out out;
	struct view view;
	char *bufs[3] = { NULL, NULL, NULL };
	uint64_t seed0;
	int rc, nr, missing = 0;

	memset(&o, 0, sizeof(o));
	memset(&out, 0, sizeof(out));
	o.runs = 1;
	o.jobs = 1;
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;

	rc = EXIT_USAGE;
	if (o.common && !(bufs[2] = split_words("--opts", o.common,
						o.common_words, &o.nr_common)))
		goto out;
	for (int k = 0; k < 2; k++) {
		struct config *c = &o.cfg[k];

		if (c->opts &&
		    !(bufs[k] = split_words(k ? "--b" : "--a", c->opts,
					    c->words, &c->nr_words)))
			goto out;
	}
	/* compare owns seeds and output; OPTIONS are run's model options */
	for (int k = 0; k < 3; k++) {
		char **w = k < 2 ? o.cfg[k].words : o.common_words;
		size_t n = k < 2 ? o.cfg[k].nr_words : o.nr_common;
		const char *what = k == 0 ? "--a" : k == 1 ? "--b" : "--opts";

		for (size_t i = 0; i < n; i++) {
			bool takes = i + 1 < n && w[i][0] == '-' &&
				     !strchr(w[i], '=');

			if (reserved(w[i])) {
				cli_error("%s: '%s' is not a model option "
					  "(compare sets seeds and output; "
					  "the workload is compare's "
					  "argument)",
					  what, w[i]);
				goto out;
			}
			/* skip an option's separate value */
			if (takes && w[i + 1][0] != '-')
				i++;
		}
	}

	seed0 = o.seed;
	nr = 2 * o.runs;
	res = calloc((size_t)nr, sizeof(*res));
	slots = calloc((size_t)nr, sizeof(*slots));
	if (!res || !slots) {
		cli_error("out of memory");
		goto out;
	}
	/*
	 * Check both configurations (options, profile, workload) before any
	 * run, so an error is printed once, not by every worker; the first
	 * seed is --seed, else the workload's, else 1.
	 */
	for (int k = 0; k < 2; k++) {
		uint64_t seed;
		char **v;
		int n;

		v = run_argv(&o, &o.cfg[k], 0, NULL, 0, &n);
		if (!v) {
			cli_error("out of memory");
			goto out;
		}
		/* the workload's warnings once, not per configuration */
		rc = cli_run_seed(n, v, &seed, k == 0);
		free(v);
		if (rc != EXIT_OK)
			goto out;
		if (k == 0 && !o.have_seed)
			seed0 = seed;
	}
	/* a bad --output fails now, not after the runs */
	if (!cli_out_open(&out, "--output", o.output))
		goto out;
	cli_signals_defer(true);
	run_all(&o, seed0, res, slots, nr);
	memset(&view, 0, sizeof(view));
	view.o = &o;
	view.res = res;
	view.slots = slots;
	view.seed0 = seed0;
	view.nr = nr;
	view.ref = -1;
	for (int i = 0; i < nr; i++) {
		if (slots[i].state != RUN_DONE) {
			missing++;
			continue;
		}
		if (view.ref < 0) {
			view.ref = i;
		} else if (res[i].nr != res[view.ref].nr ||
			   strcmp(res[i].report, res[view.ref].report) != 0) {
			cli_error("compare: configurations a and b report "
				  "different figures (reports '%s' and "
				  "'%s'); compare needs the same report",
				  res[view.ref].report, res[i].report);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	/* the page draws every run: none for a partial comparison */
	if (o.html && missing)
		cli_error("--html %s: not written, %d of %d runs did not "
			  "finish",
			  o.html, missing, nr);
	else if (o.html && !write_html(&o, res, seed0, argc, argv)) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = o.json ? print_json(out.f, &view) :
		      (print_text(out.f, &view), EXIT_OK);
	if (!cli_out_commit(&out))
		rc = EXIT_USAGE;
	/* interrupted: what finished is written; exit as the signal says */
	cli_signal_exit();
	if (rc == EXIT_OK && missing)
		rc = EXIT_USAGE;
out:
	cli_out_abort(&out);
	cli_signals_defer(false);
	cli_signal_exit();
	free(res);
	free(slots);
	for (int k = 0; k < 3; k++)
		free(bufs[k]);
	return rc;
}
