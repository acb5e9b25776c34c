/* SPDX-License-Identifier: MIT */
/* eevdf-sim run: load a workload, simulate it, print or write the results. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "html.h"
#include "plot_data.h"
#include "trace.h"
#include "trace_state.h"

/* Used when neither --duration nor the workload says how long to run. */
#define DEFAULT_DURATION (10 * EEVDF_NSEC_PER_SEC)
/* Used when neither --seed nor the workload gives one. */
#define DEFAULT_SEED 1

enum format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV
};

struct run_opts {
	const char *workload;
	const char *output;	  /* NULL or "-" = stdout */
	const char *machine_file; /* --machine FILE */
	/* The machine of the run, owned: --machine, else --cpus, else the
	 * workload's, else one CPU (set by load()). */
	eevdf_machine *machine;
	bool show_machine; /* from a file: the header names it */
	int nr_cpus;	   /* 0 = not given */
	int hz;		   /* 0 = not given */
	bool have_seed;
	uint64_t seed;
	eevdf_time duration; /* 0 = not given */
	enum format format;
	bool quiet;
	const char *params[64]; /* --param NAME=VALUE, in order */
	size_t nr_params;
	const char *report;	  /* --report NAME; NULL = the workload's */
	const char *latency_rows; /* --latency-rows pid|comm; NULL: workload */
	enum eevdf_input input;	  /* --input auto|native|rt-app */
	const char *trace;	  /* --trace FILE */
	eevdf_time trace_from, trace_to; /* --trace-window; to < 0: open */
	unsigned trace_state;		 /* --trace-state (trace_state.h) */
	const char *html;		 /* --html FILE */
	/* what parse_options() parsed: a second run of the same (--html) */
	int parse_argc;
	char **parse_argv;
	int trace_format; /* --trace-format: enum cli_trace_format, -1 by
			   * the file's name */
	bool timehist;	  /* --timehist */
	bool have_window;
	enum eevdf_csv_meta csv_meta; /* --csv-meta */
	int progress; /* --progress 1, --no-progress 0, -1: on a terminal */
	struct cli_limits limits; /* --max-events, --max-wall, ... */
	/* the command line the results record: argv as given, or what
	 * rerun replays (argv[0] is always PROG) */
	char **argv;
	int argc;
};

static const struct option long_opts[] = {
	{ "machine", required_argument, NULL, 'M' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "features", required_argument, NULL, 'F' },
	{ "features-allow-absent", no_argument, NULL, 'A' },
	{ "sysctl", required_argument, NULL, 'Y' },
	{ "duration", required_argument, NULL, 'd' },
	{ "seed", required_argument, NULL, 's' },
	{ "hz", required_argument, NULL, 'H' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "param", required_argument, NULL, 'P' },
	{ "report", required_argument, NULL, 'R' },
	{ "latency-rows", required_argument, NULL, 'L' },
	{ "input", required_argument, NULL, 'I' },
	{ "trace", required_argument, NULL, 'T' },
	{ "trace-window", required_argument, NULL, 'W' },
	{ "trace-state", required_argument, NULL, 'S' },
	{ "html", required_argument, NULL, 'Z' },
	{ "trace-format", required_argument, NULL, 'V' },
	{ "timehist", no_argument, NULL, 't' },
	{ "csv-meta", required_argument, NULL, 'C' },
	{ "progress", no_argument, NULL, 'g' },
	{ "no-progress", no_argument, NULL, 'G' },
	{ "max-events", required_argument, NULL, 'X' },
	{ "max-wall", required_argument, NULL, 'X' },
	{ "max-memory", required_argument, NULL, 'X' },
	{ "max-input", required_argument, NULL, 'X' },
	{ "max-depth", required_argument, NULL, 'X' },
	{ "max-ops", required_argument, NULL, 'X' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " run WORKLOAD.json|- [OPTIONS]\n"
		"\n"
		"Simulate WORKLOAD.json and print a perf-sched-latency table "
		"(or JSON).\n"
		"\n"
		"Options:\n"
		"  --machine FILE    the machine: a machine file, or the name "
		"of a\n"
		"                    shipped one ('" PROG " list'), e.g. "
		"i7-4790\n"
		"  --cpus N          a flat machine of N CPUs, 1..%d, in one "
		"LLC\n"
		"                    (--machine wins; default: the workload's "
		"machine,\n"
		"                    else 1 CPU)\n"
		"  --kernel PROFILE  kernel profile (default %s); see "
		"'" PROG " features'\n"
		"  --features LIST   feature overrides, kernel spelling, e.g.\n"
		"                    NO_DELAY_DEQUEUE,RUN_TO_PARITY "
		"(repeatable); a flag\n"
		"                    the profile does not have is an error\n"
		"  --features-allow-absent  accept such flags and leave them "
		"as the\n"
		"                    profile has them (sweeps that want the "
		"flat row)\n"
		"  --sysctl NAME=VALUE  a scheduling-class knob as the kernel "
		"spells it,\n"
		"                    in its unit (repeatable): "
		"kernel.sched_rt_runtime_us,\n"
		"                    kernel.sched_rt_period_us, "
		"kernel.sched_rr_timeslice_ms,\n"
		"                    sched/fair_server/runtime and /period "
		"(ns, every CPU),\n"
		"                    kernel.sched_autogroup_enabled (0 or 1; "
		"default 1)\n"
		"  --duration D      simulated time, a number with a unit "
		"ns|us|ms|s;\n"
		"                    a workload whose length is a param "
		"(schbench's\n"
		"                    runtime) takes it there, so its runtime, "
		"warmup\n"
		"                    and report agree (default: the "
		"workload's, else 10s)\n"
		"  --seed N          random seed (default: the workload's, "
		"else %d)\n"
		"  --hz N            tick frequency, %d..%d (default: the "
		"machine's)\n"
		"  --format FMT      text (default), json, or csv (one row per task)\n"
		"  --csv-meta WHERE  the run's provenance in the CSV: columns "
		"(leading,\n"
		"                    default), comments ('# key: value' "
		"lines first)\n"
		"                    or none\n"
		"  -o, --output FILE write the results to FILE atomically "
		"('-' = stdout)\n"
		"  -q, --quiet       text format: omit the header, print only "
		"the tables\n"
		"  --param NAME=VALUE  override a workload parameter "
		"(repeatable)\n"
		"  --report NAME     the benchmark report to print (default: "
		"the\n"
		"                    workload's; 'none' for only the latency "
		"table)\n"
		"  --latency-rows pid|comm|cgroup  one latency row per task, "
		"or merged\n"
		"                    per comm like perf's default "
		"(name:(n)), or per\n"
		"                    task group (/path:(n)); default: the\n"
		"                    workload's \"latency_rows\", else comm "
		"above 32 tasks\n"
		"                    and pid up to 32\n"
		"  --trace FILE      write a trace for ui.perfetto.dev: a "
		"track per CPU\n"
		"                    (a slice per run, wakeup arrows, "
		"nr_running) and\n"
		"                    per task (running, runnable) in a "
		"process per\n"
		"                    task group; Chrome JSON, or Perfetto "
		"protobuf when\n"
		"                    FILE ends in .pftrace (or --trace-format "
		"proto)\n"
		"  --trace-state LIST  EEVDF state counters in the trace, "
		"sampled at\n"
		"                    every change: vlag, deadline, eligible, "
		"delayed\n"
		"                    (per task), V, load, nr_queued, "
		"nr_delayed (per\n"
		"                    CPU), task, rq, all or none "
		"(comma-separated)\n"
		"  --trace-format json|proto  the trace's format (default: by "
		"FILE's name)\n"
		"  --trace-window FROM:TO  only that span of the trace "
		"(durations;\n"
		"                    either may be empty: '1s:', ':500ms')\n"
		"  --timehist        text format: first a perf sched timehist "
		"table\n"
		"  --html FILE       also a one-file HTML report: the text "
		"report, the\n"
		"                    wakeup-latency CDF, the largest latency "
		"up close\n"
		"                    (timeline, lags) and the configuration\n"
		"  --progress        progress on stderr also when it is not a "
		"terminal\n"
		"                    (a line per tenth of the run, for logs)\n"
		"  --no-progress     no progress, also on a terminal\n"
		"  --input FMT       auto (default), native or rt-app: how to "
		"read\n"
		"                    WORKLOAD.json (auto: rt-app when its "
		"\"tasks\" is\n"
		"                    an object and it has no \"format\")\n",
		EEVDF_MAX_CPUS, eevdf_profile_default(), DEFAULT_SEED,
		EEVDF_HZ_MIN, EEVDF_HZ_MAX);
	/* in two parts: C99 promises string literals of 4095 bytes */
	fprintf(f,
		"Limits (0: none; a run that reaches one fails, naming it):\n"
		"  --max-events N    events of the run (default %llu)\n"
		"  --max-wall D      wall-clock time of the run (default %llds)\n"
		"  --max-memory SIZE memory of the simulation, e.g. 512M, 8G "
		"(default\n"
		"                    4G, or half the machine's memory when "
		"less)\n"
		"  --max-input SIZE  size of the workload and machine files "
		"(default %lluM)\n"
		"  --max-depth N     JSON nesting of the files (default %d, at "
		"most %d)\n"
		"  --max-ops N       op slots of the tasks, the sum of their "
		"programs'\n"
		"                    lengths (default %llu)\n"
		"  -h, --help        show this help\n",
		(unsigned long long)CLI_MAX_EVENTS,
		(long long)(CLI_MAX_WALL / EEVDF_NSEC_PER_SEC),
		(unsigned long long)(EEVDF_LOAD_MAX_INPUT >> 20),
		EEVDF_LOAD_MAX_DEPTH, EEVDF_LOAD_MAX_DEPTH_TOP,
		(unsigned long long)EEVDF_LOAD_MAX_OPS);
}

/*
 * A non-negative decimal integer, the whole string.  strtoull alone would
 * accept leading blanks, a sign, and "-1" as 2^64 - 1: insist on a digit
 * first.  Returns 0, EINVAL (malformed) or ERANGE (above 2^64 - 1).
 */
static int scan_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		return EINVAL;
	if (errno == ERANGE)
		return ERANGE;
	*out = (uint64_t)v;
	return 0;
}

static bool parse_u64(const char *opt, const char *s, uint64_t *out)
{
	int rc = scan_u64(s, out);

	if (rc == EINVAL)
		cli_error("%s: invalid value '%s': expected a non-negative "
			  "integer",
			  opt, s);
	else if (rc == ERANGE)
		cli_error("%s: value '%s' is too large", opt, s);
	return rc == 0;
}

static bool parse_int_range(const char *opt, const char *s, int lo, int hi,
			    int *out)
{
	uint64_t v;
	int rc = scan_u64(s, &v);

	if (rc == EINVAL) {
		cli_error("%s: invalid value '%s': expected an integer %d..%d",
			  opt, s, lo, hi);
		return false;
	}
	if (rc == ERANGE || v < (uint64_t)lo || v > (uint64_t)hi) {
		cli_error("%s: %s is out of range %d..%d", opt, s, lo, hi);
		return false;
	}
	*out = (int)v;
	return true;
}

static bool parse_dur(const char *opt, const char *s, eevdf_time *out)
{
	int rc;

	/*
	 * A bare number is refused: "--duration 10" meant 10 ns and ran a
	 * benchmark for nothing.  Nanoseconds are written 10ns.
	 */
	if (*s && strspn(s, "0123456789") == strlen(s)) {
		cli_error("%s: '%s' has no unit: write %sns, %sus, %sms or %ss",
			  opt, s, s, s, s, s);
		return false;
	}
	rc = eevdf_parse_duration(s, INT64_MAX, out);

	if (rc == EEVDF_ERANGE) {
		cli_error("%s: duration '%s' is too large", opt, s);
		return false;
	}
	if (rc < 0) {
		cli_error("%s: invalid duration '%s': expected a number with "
			  "a unit ns|us|ms|s, e.g. 10s",
			  opt, s);
		return false;
	}
	if (*out == 0) {
		cli_error("%s: duration must be positive", opt);
		return false;
	}
	return true;
}

/* Error text of getopt_long, which we keep quiet to name options our way. */
/* --trace-window FROM:TO, durations, either side may be empty. */
static bool parse_window(const char *s, struct run_opts *o)
{
	const char *colon = strchr(s, ':');
	char from[64];
	size_t n;

	if (!colon || (n = (size_t)(colon - s)) >= sizeof(from)) {
		cli_error("--trace-window: expected FROM:TO (durations such "
			  "as 1s:2s, 500ms: or :1s), got '%s'",
			  s);
		return false;
	}
	memcpy(from, s, n);
	from[n] = '\0';
	o->trace_from = 0;
	o->trace_to = -1;
	if (n && !parse_dur("--trace-window", from, &o->trace_from))
		return false;
	if (colon[1] && !parse_dur("--trace-window", colon + 1, &o->trace_to))
		return false;
	if (o->trace_to >= 0 && o->trace_to < o->trace_from) {
		cli_error("--trace-window: '%s' ends before it starts", s);
		return false;
	}
	o->have_window = true;
	return true;
}

static void bad_option(int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";
	const char *cmd = argv[0]; /* run, or a command that runs as run */

	if (c == ':')
		cli_error("%s: option '%s' requires an argument", cmd, arg);
	else if (optopt)
		cli_error("%s: unknown option '-%c'", cmd, optopt);
	else
		cli_error("%s: unknown option '%s'", cmd, arg);
	fprintf(stderr, "Try '" PROG " %s --help'.\n", cmd);
}

/*
 * Parse argv into o and cfg.  Returns -1 to go on, or the exit code to
 * return at once (0 after --help).
 */
static int parse_options(int argc, char **argv, struct run_opts *o,
			 struct eevdf_config *cfg)
{
	char err[4096];
	int c, li = -1;

	opterr = 0;
	optind = 0; /* full reinitialisation (GNU and musl) */
	cli_limits_init(&o->limits);
	while ((c = getopt_long(argc, argv, ":ho:q", long_opts, &li)) != -1) {
		switch (c) {
		case 'X': {
			char opt[32];

			snprintf(opt, sizeof(opt), "--%s", long_opts[li].name);
			if (cli_limits_option(&o->limits, opt, optarg))
				return EXIT_USAGE;
			break;
		}
		case 'M':
			o->machine_file = optarg;
			break;
		case 'c':
			if (!parse_int_range("--cpus", optarg, 1,
					     EEVDF_MAX_CPUS, &o->nr_cpus))
				return EXIT_USAGE;
			break;
		case 'k':
			cfg->kernel = optarg;
			break;
		case 'A':
			cfg->allow_absent_features = true;
			break;
		case 'Y': {
			char *eq = strchr(optarg, '='), name[128];

			if (!eq || eq == optarg ||
			    (size_t)(eq - optarg) >= sizeof(name)) {
				cli_error("--sysctl: expected NAME=VALUE, got "
					  "'%s'",
					  optarg);
				return EXIT_USAGE;
			}
			memcpy(name, optarg, (size_t)(eq - optarg));
			name[eq - optarg] = '\0';
			if (eevdf_config_set_sysctl(cfg, name, eq + 1, err,
						    sizeof(err)) < 0) {
				cli_error("--sysctl: %s", err);
				return EXIT_USAGE;
			}
			break;
		}
		case 'F':
			if (eevdf_config_set_features(cfg, optarg, err,
						      sizeof(err)) < 0) {
				cli_error("--features: %s", err);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			if (!parse_dur("--duration", optarg, &o->duration))
				return EXIT_USAGE;
			break;
		case 's':
			if (!parse_u64("--seed", optarg, &o->seed))
				return EXIT_USAGE;
			o->have_seed = true;
			break;
		case 'H':
			if (!parse_int_range("--hz", optarg, EEVDF_HZ_MIN,
					     EEVDF_HZ_MAX, &o->hz))
				return EXIT_USAGE;
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0) {
				o->format = FORMAT_TEXT;
			} else if (strcmp(optarg, "json") == 0) {
				o->format = FORMAT_JSON;
			} else if (strcmp(optarg, "csv") == 0) {
				o->format = FORMAT_CSV;
			} else {
				cli_error("--format: unknown format '%s': "
					  "expected text, json or csv",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'P':
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				cli_error("--param: expected NAME=VALUE, got "
					  "'%s'",
					  optarg);
				return EXIT_USAGE;
			}
			if (o->nr_params ==
			    sizeof(o->params) / sizeof(o->params[0])) {
				cli_error("--param: at most %zu overrides",
					  o->nr_params);
				return EXIT_USAGE;
			}
			o->params[o->nr_params++] = optarg;
			break;
		case 'L':
			if (strcmp(optarg, "pid") != 0 &&
			    strcmp(optarg, "comm") != 0 &&
			    strcmp(optarg, "cgroup") != 0) {
				cli_error(
					"--latency-rows: expected pid, comm or "
					"cgroup, got '%s'",
					optarg);
				return EXIT_USAGE;
			}
			o->latency_rows = optarg;
			break;
		case 'I':
			if (cli_parse_input(optarg, &o->input))
				return EXIT_USAGE;
			break;
		case 'T':
			o->trace = optarg;
			break;
		case 't':
			o->timehist = true;
			break;
		case 'W':
			if (!parse_window(optarg, o))
				return EXIT_USAGE;
			break;
		case 'Z':
			o->html = optarg;
			break;
		case 'S':
			if (!trace_state_parse(optarg, &o->trace_state, err,
					       sizeof(err))) {
				cli_error("--trace-state: %s", err);
				return EXIT_USAGE;
			}
			break;
		case 'V':
			if (strcmp(optarg, "json") == 0) {
				o->trace_format = CLI_TRACE_JSON;
			} else if (strcmp(optarg, "proto") == 0) {
				o->trace_format = CLI_TRACE_PROTO;
			} else {
				cli_error("--trace-format: expected json or "
					  "proto, got '%s'",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'g':
			o->progress = 1;
			break;
		case 'G':
			o->progress = 0;
			break;
		case 'C':
			if (strcmp(optarg, "columns") == 0) {
				o->csv_meta = EEVDF_CSV_META_COLUMNS;
			} else if (strcmp(optarg, "comments") == 0) {
				o->csv_meta = EEVDF_CSV_META_COMMENTS;
			} else if (strcmp(optarg, "none") == 0) {
				o->csv_meta = EEVDF_CSV_META_NONE;
			} else {
				cli_error("--csv-meta: expected columns, "
					  "comments or none, got '%s'",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'R':
			if (strcmp(optarg, "none") != 0 &&
			    !eevdf_report_known(optarg)) {
				cli_error("--report: unknown report '%s' "
					  "(known: %s, none)",
					  optarg, eevdf_report_formats());
				return EXIT_USAGE;
			}
			o->report = optarg;
			break;
		case 'h':
			run_usage(stdout);
			return EXIT_OK;
		default:
			bad_option(c, argv);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("%s: missing WORKLOAD.json", argv[0]);
		run_usage(stderr);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		cli_error("%s: unexpected argument '%s' (one workload per "
			  "run)",
			  argv[0], argv[optind + 1]);
		return EXIT_USAGE;
	}
	o->workload = argv[optind];
	if (cfg->kernel && !cli_check_profile(&cfg->kernel))
		return EXIT_USAGE;
	if (o->timehist && o->format != FORMAT_TEXT) {
		cli_error("--timehist: a text table; it cannot go with "
			  "--format json or csv");
		return EXIT_USAGE;
	}
	if (o->have_window && !o->trace) {
		cli_error("--trace-window: there is no --trace to limit");
		return EXIT_USAGE;
	}
	if (o->trace_state && !o->trace) {
		cli_error("--trace-state: there is no --trace to add it to");
		return EXIT_USAGE;
	}
	if (o->trace_format >= 0 && !o->trace) {
		cli_error("--trace-format: there is no --trace");
		return EXIT_USAGE;
	}
	return -1;
}

static void print_diag(const struct eevdf_diag *d, const char *file, int rc)
{
	char buf[1024];

	if (d->msg[0])
		cli_error("%s", eevdf_diag_format(d, buf, sizeof(buf)));
	else
		cli_error("%s: %s", file, eevdf_strerror(rc));
}

/* The overrides the user asked for, in kernel spelling and list order. */
static void print_overrides(FILE *f, const struct eevdf_config *cfg)
{
	size_t n = eevdf_feature_count();
	bool any = false;

	for (size_t i = 0; i < n && i < 64; i++) {
		uint64_t bit = (uint64_t)1 << i;
		const char *prefix;

		/* feat_off wins over feat_on, as in the library. */
		if (cfg->feat_off & bit)
			prefix = "NO_";
		else if (cfg->feat_on & bit)
			prefix = "";
		else
			continue;
		fprintf(f, "%s%s%s", any ? "," : "# features: ", prefix,
			eevdf_feature_name(i));
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* Where wakeups went and how often tasks moved, per simulated second. */
static void print_smp(FILE *f, const eevdf_sim *sim)
{
	struct eevdf_smp_stats st;
	double secs = (double)eevdf_sim_now(sim) / 1e9, w;

	eevdf_sim_smp_stats(sim, &st);
	w = st.wakeups ? (double)st.wakeups : 1;
	fprintf(f,
		"# smp: %" PRIu64 " wakeups, %.1f%% to an idle CPU, %.1f%% "
		"affine, %.1f%% via wake lists; %" PRIu64 " migrations, %.1f/s "
		"(wakeup %" PRIu64 ", balance %" PRIu64 ", newidle %" PRIu64
		")\n",
		st.wakeups, 100.0 * (double)st.wakeups_idle / w,
		100.0 * (double)st.wakeups_affine / w,
		100.0 * (double)st.wakeups_remote / w, st.migrations,
		secs > 0 ? (double)st.migrations / secs : 0.0,
		st.migrations_wakeup, st.migrations_balance,
		st.migrations_newidle);
	if (st.ipis)
		fprintf(f,
			"# wake lists: %" PRIu64 " IPIs, %.2f tasks each "
			"(max %" PRIu64 "); %.1f%% of wakeups enqueued under a "
			"remote rq lock\n",
			st.ipis, (double)st.wakelist_tasks / (double)st.ipis,
			st.wakelist_batch_max,
			100.0 * (double)st.wakeups_direct_remote / w);
}

/*
 * Every CPU's rq lock together: how often taken, how often a taker found
 * it held, and the spin that cost (mean over the contended takes).
 */
static void print_rq_locks(FILE *f, const eevdf_sim *sim)
{
	uint64_t acq = 0, cont = 0;
	eevdf_time spin = 0, max = 0;
	int worst = 0;

	for (int c = 0; c < eevdf_sim_nr_cpus(sim); c++) {
		struct eevdf_cpu_stats cs;

		eevdf_sim_cpu_stats(sim, c, &cs);
		acq += cs.lock_acquisitions;
		cont += cs.lock_contended;
		spin += cs.lock_spin_ns;
		if (cs.lock_spin_max_ns > max) {
			max = cs.lock_spin_max_ns;
			worst = c;
		}
	}
	if (!acq)
		return;
	fprintf(f,
		"# rq locks: %" PRIu64 " acquisitions, %.2f%% contended, "
		"spin mean %.3f us, max %.3f us (CPU %d)\n",
		acq, 100.0 * (double)cont / (double)acq,
		cont ? (double)spin / (double)cont / 1e3 : 0.0,
		(double)max / 1e3, worst);
}

/*
 * The I/O model, when the run has devices: a line per device (requests,
 * bytes, how busy, how long a request took from submission to
 * completion) and per file system (page cache, writeback, journal).
 */
static void print_io(FILE *f, const eevdf_sim *sim)
{
	double secs = (double)eevdf_sim_now(sim) / 1e9;

	for (size_t i = 0; i < eevdf_sim_nr_devices(sim); i++) {
		struct eevdf_device_stats st;

		if (eevdf_sim_device_stats(sim, i, &st))
			continue;
		fprintf(f,
			"# device %s (%s): %" PRIu64 " reads %.1f MB, %" PRIu64
			" writes %.1f MB, %" PRIu64 " flushes; busy %.1f%%, "
			"await %.3f ms (max %.3f), %" PRIu64 " IRQs, %" PRIu64
			" kblockd runs\n",
			st.name, st.preset, st.reads,
			(double)st.read_bytes / 1e6, st.writes,
			(double)st.write_bytes / 1e6, st.flushes,
			secs > 0 ? 100.0 * (double)st.busy_ns / 1e9 / secs :
				   0.0,
			st.completed ? (double)st.wait_sum_ns /
					       (double)st.completed / 1e6 :
				       0.0,
			(double)st.wait_max_ns / 1e6, st.irqs, st.restarts);
	}
	for (size_t i = 0; i < eevdf_sim_nr_filesystems(sim); i++) {
		struct eevdf_fs_stats st;

		if (eevdf_sim_fs_stats(sim, i, &st))
			continue;
		fprintf(f,
			"# fs %s on %s: %" PRIu64
			" pages from the cache, %" PRIu64
			" from the device, %" PRIu64 " evicted; %" PRIu64
			" written back; %" PRIu64 " commits, %" PRIu64
			" handle waits; %" PRIu64 " throttles (%.3f s)\n",
			st.name, st.device, st.cache_hits, st.cache_misses,
			st.evicted, st.written_back, st.commits,
			st.handle_waits, st.throttled,
			(double)st.throttle_ns / 1e9);
	}
}

/*
 * The RT and deadline classes, when the run had such tasks or changed a
 * knob: what throttled them, what moved them, what the fair server did.
 */
static void print_classes(FILE *f, const eevdf_sim *sim)
{
	struct eevdf_class_stats st;
	int cpus = eevdf_sim_nr_cpus(sim);

	eevdf_sim_class_stats(sim, &st);
	if (!st.active)
		return;
	fprintf(f, "# rt: %" PRIu64 " task%s, ", st.rt_tasks,
		st.rt_tasks == 1 ? "" : "s");
	if (!st.rt_throttling)
		fprintf(f, "no throttling");
	else if (st.rt_runtime < 0)
		fprintf(f, "throttling off (sched_rt_runtime_us -1)");
	else
		fprintf(f,
			"throttled %" PRIu64 " times (%.3f ms of every "
			"%.3f ms)",
			st.rt_throttled, (double)st.rt_runtime / 1e6,
			(double)st.rt_period / 1e6);
	fprintf(f,
		", RR slice %.3f ms; %" PRIu64 " pushes, %" PRIu64 " pulls\n",
		(double)st.rr_timeslice / 1e6, st.rt_pushes, st.rt_pulls);
	fprintf(f,
		"# dl: %" PRIu64
		" task%s, admitted %.4f of %.4f CPUs%s; %" PRIu64
		" pushes, %" PRIu64 " pulls\n",
		st.dl_tasks, st.dl_tasks == 1 ? "" : "s",
		(double)st.dl_bw / (double)(1 << 20),
		st.dl_bw_limit < 0 ?
			(double)cpus :
			(double)st.dl_bw_limit * cpus / (double)(1 << 20),
		st.fair_server && st.fair_server_runtime ?
			" (the fair servers' included)" :
			"",
		st.dl_pushes, st.dl_pulls);
	if (!st.fair_server)
		return;
	if (!st.fair_server_runtime) {
		fprintf(f, "# fair server: off (runtime 0)\n");
		return;
	}
	fprintf(f,
		"# fair server: %.3f ms of every %.3f ms; %" PRIu64
		" starts, %" PRIu64 " stops; it ran fair tasks %.3f ms\n",
		(double)st.fair_server_runtime / 1e6,
		(double)st.fair_server_period / 1e6, st.fair_server_starts,
		st.fair_server_stops, (double)st.fair_server_ns / 1e6);
}

/*
 * shown: the machine to name on a line of its own, NULL for none (a flat
 * machine of --cpus: the kernel line says all there is to say).
 */
static void print_header(FILE *f, const eevdf_sim *sim,
			 const struct eevdf_config *cfg,
			 const eevdf_machine *shown)
{
	int nr_cpus = eevdf_sim_nr_cpus(sim);
	char shape[128];

	fprintf(f, "# " PROG " %s (libeevdf %s)\n", EEVDF_VERSION_STRING,
		eevdf_version_string());
	fprintf(f, "# workload: %s\n", eevdf_sim_name(sim));
	fprintf(f,
		"# kernel %s, %d CPU%s, HZ %d, seed %" PRIu64
		", base slice %.3f ms\n",
		eevdf_sim_kernel(sim), nr_cpus, nr_cpus == 1 ? "" : "s",
		eevdf_sim_hz(sim), eevdf_sim_seed(sim),
		(double)eevdf_sim_base_slice(sim) / 1e6);
	if (shown) {
		cli_machine_shape(shown, shape, sizeof(shape));
		fprintf(f, "# machine %s: %s\n",
			eevdf_machine_name(shown)[0] ?
				eevdf_machine_name(shown) :
				"(unnamed)",
			shape);
	}
	fprintf(f, "# simulated %.3f s of %.3f s%s\n",
		(double)eevdf_sim_now(sim) / 1e9,
		(double)eevdf_sim_duration(sim) / 1e9,
		eevdf_sim_done(sim) ? " (every task exited)" : "");
	if (nr_cpus > 1) {
		print_smp(f, sim);
		print_rq_locks(f, sim);
	}
	print_classes(f, sim);
	print_io(f, sim);
	print_overrides(f, cfg);
	fputc('\n', f);
}

static const char *wl_option(void *ud, const char *key)
{
	return eevdf_workload_report_option(ud, key);
}

static const char *wl_unit(void *ud, const char *metric)
{
	return eevdf_workload_metric_unit(ud, metric);
}

/* The workload's metrics block, after its report; an error code. */
static int emit_metrics(FILE *f, const eevdf_sim *sim, const eevdf_workload *wl)
{
	char *text;
	int rc = eevdf_report_metrics(sim, wl_unit, (void *)(uintptr_t)wl,
				      &text);

	if (rc < 0)
		return rc;
	if (text[0]) {
		fputs(text, f);
		fputc('\n', f);
	}
	free(text);
	return 0;
}

/* The report a run prints: --report, else the workload's; NULL for none. */
static const char *report_name(const eevdf_workload *wl, const char *name)
{
	if (!name)
		name = eevdf_workload_report_format(wl);
	if (!name || strcmp(name, "none") == 0 ||
	    strcmp(name, "perf_sched_latency") == 0)
		return NULL;
	return name;
}

/*
 * The benchmark's own report (--report, else the workload's "report"
 * format), then the perf sched latency table every run prints.
 */
static int emit_report(FILE *f, const eevdf_sim *sim, const eevdf_workload *wl,
		       const char *name)
{
	char err[256] = "";
	char *text;
	int rc;

	name = report_name(wl, name);
	if (!name)
		return 0;
	rc = eevdf_report(sim, name, wl_option, (void *)(uintptr_t)wl, &text,
			  err, sizeof(err));
	if (rc < 0) {
		cli_error("report %s: %s", name,
			  err[0] ? err : eevdf_strerror(rc));
		return rc;
	}
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return 0;
}

static int emit_text(FILE *f, const eevdf_sim *sim,
		     const struct eevdf_config *cfg, const struct run_opts *o,
		     const eevdf_workload *wl)
{
	size_t n = eevdf_sim_nr_tasks(sim);
	struct eevdf_task_stats *stats;
	int rc = 0;

	stats = calloc(n ? n : 1, sizeof(*stats));
	if (!stats)
		return EEVDF_ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = eevdf_sim_task_stats(sim, i, &stats[i]);
	if (rc == 0) {
		if (!o->quiet)
			print_header(f, sim, cfg,
				     o->show_machine ? o->machine : NULL);
		rc = emit_report(f, sim, wl, o->report);
		if (rc == 0)
			rc = emit_metrics(f, sim, wl);
	}
	if (rc == 0) {
		/*
		 * --latency-rows, else the workload's report option, else
		 * per comm above 32 tasks (what people read perf's default
		 * as) and per pid up to 32, where each task is worth a row.
		 */
		const size_t comm_rows_above = 32;
		const char *rows = o->latency_rows ?
					   o->latency_rows :
					   eevdf_workload_report_option(
						   wl, "latency_rows");
		enum latency_rows lr = n > comm_rows_above ? ROWS_COMM :
							     ROWS_PID;

		if (rows && strcmp(rows, "pid") == 0)
			lr = ROWS_PID;
		else if (rows && strcmp(rows, "comm") == 0)
			lr = ROWS_COMM;
		else if (rows && strcmp(rows, "cgroup") == 0)
			lr = ROWS_CGROUP;
		else if (rows)
			rc = EEVDF_EINVAL;
		if (rc) {
			cli_error("the workload's report.latency_rows is "
				  "'%s': expected pid, comm or cgroup",
				  rows);
		} else {
			report_groups(f, sim);
			rc = report_latency(f, stats, n, lr);
		}
	}
	free(stats);
	return rc;
}

/*
 * What the results say beyond the simulation (struct eevdf_run_info):
 * the report's headlines, whether the benchmark completed, and the
 * provenance a rerun needs.  The strings live here.
 */
struct run_meta {
	struct eevdf_run_info info;
	struct eevdf_headline head[EEVDF_HEADLINES_MAX];
	const char *argv[256];
	const char **names, **values;
	char *value_buf; /* the params' values, NUL-separated */
	char why[256];
	char tool[64];
};

/* The report's headline numbers of sim into m->head; an error code. */
static int meta_headlines(struct run_meta *m, const eevdf_sim *sim,
			  const eevdf_workload *wl, const char *report)
{
	const char *name = report_name(wl, report);
	char err[256] = "";
	int rc;

	if (!name)
		return 0;
	rc = eevdf_report_headlines(sim, name, wl_option, (void *)(uintptr_t)wl,
				    m->head, EEVDF_HEADLINES_MAX,
				    &m->info.nr_head, err, sizeof(err));
	if (rc < 0)
		cli_error("report %s: %s", name,
			  err[0] ? err : eevdf_strerror(rc));
	m->info.head = m->head;
	return rc;
}

static void meta_free(struct run_meta *m)
{
	free(m->names);
	free(m->values);
	free(m->value_buf);
}

/* Fill m for the run of o; 0 or an error code (m is freed then). */
static int meta_init(struct run_meta *m, const struct run_opts *o,
		     const eevdf_sim *sim, const eevdf_workload *wl)
{
	size_t np = eevdf_workload_nr_params(wl), at = 0;
	char val[4096]; /* a param's text: a string param's, or a number */
	int rc;

	memset(m, 0, sizeof(*m));
	m->info.complete = eevdf_workload_completed(wl, sim, m->why,
						    sizeof(m->why));
	m->info.incomplete = m->info.complete == 0 ? m->why : NULL;
	snprintf(m->tool, sizeof(m->tool), PROG " %s", EEVDF_VERSION_STRING);
	m->info.tool = m->tool;
	m->info.git = cli_git_describe();
	/*
	 * The command line less where the results were written (-o FILE),
	 * which cannot change them: the same run gives the same bytes
	 * wherever it writes them.
	 */
	m->argv[m->info.argc++] = PROG;
	for (int i = 0; i < o->argc && m->info.argc < ARRAY_LEN(m->argv); i++) {
		const char *a = o->argv[i];

		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			i++;
			continue;
		}
		if (strncmp(a, "--output=", 9) == 0 ||
		    (strncmp(a, "-o", 2) == 0 && a[2]))
			continue;
		m->argv[m->info.argc++] = a;
	}
	m->info.argv = m->argv;
	m->info.workload_path = o->workload;
	m->info.workload_sha256 = eevdf_workload_sha256(wl);
	m->info.duration_param = eevdf_workload_duration_param(wl);
	m->names = calloc(np ? np : 1, sizeof(*m->names));
	m->values = calloc(np ? np : 1, sizeof(*m->values));
	/* the values as text, one buffer for them all */
	for (size_t i = 0; i < np; i++)
		at += strlen(eevdf_workload_param_value(wl, i, val,
							sizeof(val))) +
		      1;
	m->value_buf = malloc(at ? at : 1);
	if (!m->names || !m->values || !m->value_buf) {
		meta_free(m);
		return EEVDF_ENOMEM;
	}
	at = 0;
	for (size_t i = 0; i < np; i++) {
		size_t n = strlen(
			eevdf_workload_param_value(wl, i, val, sizeof(val)));

		m->names[i] = eevdf_workload_param_name(wl, i);
		m->values[i] = memcpy(m->value_buf + at, val, n + 1);
		at += n + 1;
	}
	m->info.param_names = m->names;
	m->info.param_values = m->values;
	m->info.nr_params = np;
	rc = meta_headlines(m, sim, wl, o->report);
	if (rc < 0)
		meta_free(m);
	return rc;
}

/* The results JSON, with the report's headline numbers in "summary" and
 * the run's completion and provenance. */
static int emit_json(FILE *f, const eevdf_sim *sim, const eevdf_workload *wl,
		     const struct run_opts *o)
{
	struct run_meta m;
	char *json;
	int rc;

	if ((rc = meta_init(&m, o, sim, wl)) < 0)
		return rc;
	rc = eevdf_sim_results_json_run(sim, &m.info, &json);
	meta_free(&m);
	if (rc < 0)
		return rc;
	fputs(json, f);
	fputc('\n', f);
	free(json);
	return 0;
}

static int emit_csv(FILE *f, const eevdf_sim *sim, const eevdf_workload *wl,
		    const struct run_opts *o)
{
	struct run_meta m;
	char *csv = NULL;
	int rc;

	if ((rc = meta_init(&m, o, sim, wl)) < 0)
		return rc;
	rc = eevdf_sim_results_csv_run(sim, &m.info, o->csv_meta, &csv);
	meta_free(&m);
	if (rc == 0)
		fputs(csv, f);
	free(csv);
	return rc;
}

/* A benchmark that did not finish says so, on its own line. */
static void emit_incomplete(FILE *f, const eevdf_sim *sim,
			    const eevdf_workload *wl)
{
	char why[256];

	if (eevdf_workload_completed(wl, sim, why, sizeof(why)) == 0)
		fprintf(f,
			"\nINCOMPLETE: %s; the figures above are those of a "
			"partial run\n",
			why);
}

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Run sim to `until`; with show, in pieces, with a progress line on stderr
 * (simulated time, share done, events per second of wall time) redrawn at
 * most five times a second and erased at the end on a terminal, or (show
 * 2, --progress into a log) written as a line at each tenth of the run.
 * Running in pieces ends exactly where one run does (tests/check_sim.c),
 * and the wall clock only paces the display.
 */
static int run_progress(eevdf_sim *sim, eevdf_time until, int show)
{
	int tenth = 0;

	eevdf_time step = until / 200 > EEVDF_NSEC_PER_MSEC ?
				  until / 200 :
				  EEVDF_NSEC_PER_MSEC;
	double start, shown = 0;
	bool drawn = false;
	int rc = 0;

	if (!show)
		return eevdf_sim_run(sim, until);
	start = wall_seconds();
	while (rc == 0 && eevdf_sim_now(sim) < until && !eevdf_sim_done(sim)) {
		eevdf_time to = until - eevdf_sim_now(sim) > step ?
					eevdf_sim_now(sim) + step :
					until;
		double now;

		rc = eevdf_sim_run(sim, to);
		now = wall_seconds();
		if (show == 2) {
			int t = (int)(10 * eevdf_sim_now(sim) / until);

			if (t > tenth) {
				tenth = t;
				fprintf(stderr,
					PROG ": simulated %.3f s of %.3f s "
					     "(%d%%)\n",
					(double)eevdf_sim_now(sim) / 1e9,
					(double)until / 1e9, 10 * t);
			}
			continue;
		}
		if (now - shown >= 0.2) {
			double el = now - start;

			fprintf(stderr,
				"\r" PROG ": simulated %.3f s of %.3f s "
				"(%3.0f%%), %.0f events/s ",
				(double)eevdf_sim_now(sim) / 1e9,
				(double)until / 1e9,
				100.0 * (double)eevdf_sim_now(sim) /
					(double)until,
				el > 0 ? (double)eevdf_sim_nr_events(sim) / el :
					 0.0);
			shown = now;
			drawn = true;
		}
	}
	if (drawn)
		fputs("\r\033[K", stderr);
	return rc;
}

/* Where a run's output goes: the results, and the trace sinks. */
struct run_io {
	struct cli_out out;   /* --output or stdout */
	struct cli_out trace; /* --trace */
	struct cli_trace *sink;
	struct plot_data *plot; /* --html's latencies */
};

/* Both sinks on the one trace callback. */
static void io_event(void *ud, const struct eevdf_trace_event *ev)
{
	struct run_io *io = ud;

	if (io->sink)
		cli_trace_event(io->sink, ev);
	plot_data_event(io->plot, ev);
}

static void io_abort(struct run_io *io)
{
	cli_out_abort(&io->out);
	cli_out_abort(&io->trace);
	cli_trace_free(io->sink);
	io->sink = NULL;
	plot_data_free(io->plot);
	io->plot = NULL;
}

/*
 * Open io's files and trace sinks for o before a possibly long run, so a
 * bad path fails at once; hook the sink into cfg.  False after printing
 * why.
 */
static bool io_open(struct run_io *io, const struct run_opts *o,
		    struct eevdf_config *cfg)
{
	struct cli_trace_opts to = {
		.nr_cpus = cfg->nr_cpus,
		.state = o->trace_state,
		.from = o->have_window ? o->trace_from : 0,
		.to = o->have_window ? o->trace_to : -1,
	};
	struct plot_data_opts po = { .by_comm = true, .to = -1, .lag_cpu = -1 };

	if (o->trace && o->output && strcmp(o->output, "-") != 0 &&
	    cli_same_file(o->trace, o->output)) {
		cli_error("--trace %s and --output %s name the same file: "
			  "give each its own",
			  o->trace, o->output);
		return false;
	}
	if (!cli_out_open(&io->out, "--output", o->output))
		return false;
	if (o->trace && !cli_out_open(&io->trace, "--trace", o->trace))
		return false;
	to.file = o->trace ? io->trace.f : NULL;
	to.timehist = o->timehist ? io->out.f : NULL;
	to.format = o->trace_format >= 0 ?
			    (enum cli_trace_format)o->trace_format :
		    o->trace ? cli_trace_format_of(o->trace) :
			       CLI_TRACE_JSON;
	if ((o->trace || o->timehist) && !(io->sink = cli_trace_new(&to))) {
		cli_error("out of memory");
		return false;
	}
	if (o->html && !(io->plot = plot_data_new(&po, cfg->nr_cpus))) {
		cli_error("out of memory");
		return false;
	}
	if (io->plot) {
		cfg->trace = io_event;
		cfg->trace_ud = io;
	} else if (io->sink) {
		cfg->trace = cli_trace_event;
		cfg->trace_ud = io->sink;
	}
	return true;
}

/*
 * Build the simulation of wl under o and cfg, its tasks added, ready to
 * run for *duration: 0 and *out, or an exit code after printing why (*out
 * NULL).  io, when not NULL, is opened first and its trace sinks hooked.
 */
static int build_sim(const struct run_opts *o, struct eevdf_config *cfg,
		     const eevdf_workload *wl, struct run_io *io,
		     eevdf_sim **out, eevdf_time *duration)
{
	struct eevdf_diag diag;
	eevdf_sim *sim = NULL;
	char err[1024] = "";
	int rc;

	*out = NULL;
	*duration = o->duration ? o->duration : eevdf_workload_duration(wl);
	if (*duration <= 0)
		*duration = DEFAULT_DURATION;
	/* Results need a label: an unnamed workload goes by its file. */
	cfg->name = eevdf_workload_name(wl);
	if (!cfg->name[0])
		cfg->name = o->workload;
	if (o->have_seed)
		cfg->seed = o->seed;
	else if (!eevdf_workload_seed(wl, &cfg->seed))
		cfg->seed = DEFAULT_SEED;
	/* the workload's kernel unless --kernel chose one */
	if (!cfg->kernel)
		cfg->kernel = eevdf_workload_kernel(wl);
	/* nr_cpus and hz too, for a library that reads only those */
	cfg->machine = o->machine;
	cfg->nr_cpus = eevdf_machine_nr_cpus(o->machine);
	cfg->hz = eevdf_machine_hz(o->machine);
	cfg->duration = *duration;
	if (eevdf_config_check_features(cfg, err, sizeof(err)) < 0) {
		cli_error("--features: %s (--features-allow-absent accepts it "
			  "and leaves it as the profile has it)",
			  err);
		return EXIT_USAGE;
	}
	if (io && !io_open(io, o, cfg))
		return EXIT_USAGE;
	cli_limits_run(&o->limits, cfg);

	rc = eevdf_sim_new(cfg, &sim, err, sizeof(err));
	if (rc < 0) {
		cli_error("cannot create the simulation: %s",
			  err[0] ? err : eevdf_strerror(rc));
		return EXIT_USAGE;
	}
	if (io && io->sink && !cli_trace_attach(io->sink, sim)) {
		cli_error("out of memory");
		eevdf_sim_free(sim);
		return EXIT_USAGE;
	}
	if (io && io->plot)
		plot_data_attach(io->plot, sim);
	memset(&diag, 0, sizeof(diag));
	rc = eevdf_workload_add_tasks(wl, sim, &diag);
	if (rc < 0) {
		if (diag.msg[0])
			print_diag(&diag, o->workload, rc);
		else
			cli_error("%s: %s", o->workload, eevdf_sim_errmsg(sim));
		rc = cli_exit_code(rc, eevdf_sim_errmsg(sim));
		eevdf_sim_free(sim);
		return rc;
	}
	*out = sim;
	return EXIT_OK;
}

/*
 * Build the simulation of wl under o and cfg and run it to its end: 0 and
 * *out, or an exit code after printing why (*out NULL).  io, when not
 * NULL, is opened before the run and its trace sinks fed during it.
 */
static int build_and_run(const struct run_opts *o, struct eevdf_config *cfg,
			 const eevdf_workload *wl, struct run_io *io,
			 eevdf_sim **out)
{
	eevdf_sim *sim = NULL;
	eevdf_time duration;
	int rc;

	*out = NULL;
	rc = build_sim(o, cfg, wl, io, &sim, &duration);
	if (rc != EXIT_OK)
		return rc;
	rc = run_progress(sim, duration,
			  !io || o->progress == 0 ? 0 :
			  isatty(STDERR_FILENO)	  ? 1 :
			  o->progress == 1	  ? 2 :
						    0);
	if (rc < 0) {
		cli_error("%s: simulation failed at %" PRId64 " ns: %s (%s)",
			  o->workload, eevdf_sim_now(sim),
			  eevdf_sim_errmsg(sim), eevdf_err_name(rc));
		rc = cli_exit_code(rc, eevdf_sim_errmsg(sim));
		eevdf_sim_free(sim);
		return rc;
	}
	if (io && io->sink && !cli_trace_finish(io->sink)) {
		cli_error("error writing the trace");
		eevdf_sim_free(sim);
		return EXIT_USAGE;
	}
	*out = sim;
	return EXIT_OK;
}

/*
 * --html: the text report and the results JSON as run makes them, and
 * the latencies the run gathered, to html_run.c; false after printing
 * why.
 */
static bool write_html(const struct run_opts *o, const struct eevdf_config *cfg,
		       const eevdf_sim *sim, const eevdf_workload *wl,
		       struct plot_data *pd)
{
	struct html_run h = { .path = o->html,
			      .sim = sim,
			      .workload = o->workload,
			      .pd = pd,
			      .end = eevdf_sim_now(sim),
			      .argc = o->parse_argc,
			      .argv = o->parse_argv };
	struct run_opts text_opts = *o;
	char *text = NULL, *json = NULL, line[2048];
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok;

	if (!f) {
		cli_error("--html: out of memory");
		return false;
	}
	text_opts.quiet = false;
	ok = emit_text(f, sim, cfg, &text_opts, wl) == 0;
	if (ok)
		emit_incomplete(f, sim, wl);
	if (fclose(f) != 0 || !text)
		ok = false;
	if (ok) {
		f = open_memstream(&json, &len);
		ok = f && emit_json(f, sim, wl, o) == 0;
		if (f && fclose(f) != 0)
			ok = false;
	}
	line[0] = '\0';
	for (int i = 0; i < o->argc && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s",
				       i ? " " : PROG " ", o->argv[i]);
	h.text = text;
	h.results = json;
	h.command_line = line;
	if (ok)
		ok = cli_html_run(&h);
	else
		cli_error("--html %s: cannot format the report", o->html);
	free(text);
	free(json);
	return ok;
}

/* Build the simulation, run it and write the results; an exit code. */
static int simulate(const struct run_opts *o, struct eevdf_config *cfg,
		    const eevdf_workload *wl)
{
	struct run_io io;
	eevdf_sim *sim = NULL;
	int rc, ret;

	memset(&io, 0, sizeof(io));
	ret = build_and_run(o, cfg, wl, &io, &sim);
	if (ret != EXIT_OK)
		goto out;
	ret = EXIT_USAGE;
	if (o->format == FORMAT_JSON) {
		rc = emit_json(io.out.f, sim, wl, o);
	} else if (o->format == FORMAT_CSV) {
		rc = emit_csv(io.out.f, sim, wl, o);
	} else {
		if (o->timehist)
			fputc('\n', io.out.f);
		rc = emit_text(io.out.f, sim, cfg, o, wl);
		if (rc == 0)
			emit_incomplete(io.out.f, sim, wl);
	}
	if (rc < 0) {
		cli_error("cannot format the results: %s", eevdf_strerror(rc));
		ret = cli_exit_code(rc, NULL);
		goto out;
	}
	if (o->html && !write_html(o, cfg, sim, wl, io.plot))
		goto out;
	/* the trace first: the results appear only with a complete trace */
	if ((!o->trace || cli_out_commit(&io.trace)) && cli_out_commit(&io.out))
		ret = EXIT_OK;
out:
	io_abort(&io);
	eevdf_sim_free(sim);
	return ret;
}

/*
 * Load o's workload and choose the machine of the run, o->machine:
 * --machine, else --cpus (a flat machine), else the workload's own, else
 * one CPU; then --hz.  The workload's ${ncpus} and ${nllc} are the
 * chosen machine's (the loader takes the workload's own when we have
 * none yet).  With warn, the workload's notes (an rt-app file's ignored
 * and approximate keys) go to stderr as warnings.  An exit code after
 * printing why.
 */
static int load(struct run_opts *o, eevdf_workload **wl, bool warn)
{
	struct eevdf_load_opts lopts = {
		.params = o->params,
		.nr_params = o->nr_params,
		.input = o->input,
		.duration = o->duration,
	};
	struct eevdf_diag diag;
	const eevdf_machine *own;
	char err[256], buf[1024];
	int rc;

	cli_limits_load(&o->limits, &lopts);
	cli_limits_memory(&o->limits);
	if (o->machine_file) {
		if (!cli_load_machine("--machine", o->machine_file,
				      &o->machine))
			return EXIT_USAGE;
		o->show_machine = true;
	} else if (o->nr_cpus && eevdf_machine_new_flat(o->nr_cpus, &o->machine,
							err, sizeof(err)) < 0) {
		cli_error("--cpus: %s", err);
		return EXIT_USAGE;
	}
	lopts.ncpus = eevdf_machine_nr_cpus(o->machine);
	lopts.nllc = eevdf_machine_nr_llcs(o->machine);
	memset(&diag, 0, sizeof(diag));
	if (strcmp(o->workload, "-") == 0) {
		/* run -: the workload on standard input (relative machine
		 * paths then start from the current directory) */
		size_t max = o->limits.max_input ? o->limits.max_input :
						   EEVDF_LOAD_MAX_INPUT;
		char *text = cli_read_stdin(max);

		if (!text && errno == EFBIG) {
			cli_error(
				"-: standard input is larger than the limit "
				"of %zu bytes: --max-input SIZE raises it (0: "
				"no limit)",
				max);
			return EXIT_USAGE;
		}
		if (!text) {
			cli_error("-: cannot read the workload from standard "
				  "input: %s",
				  strerror(errno));
			return EXIT_USAGE;
		}
		rc = eevdf_workload_parse_opts(text, strlen(text), "<stdin>",
					       &lopts, wl, &diag);
		free(text);
	} else {
		rc = eevdf_workload_load_file_opts(o->workload, &lopts, wl,
						   &diag);
	}
	if (rc < 0) {
		print_diag(&diag, o->workload, rc);
		return cli_exit_code(rc, eevdf_diag_format(&diag, buf,
							   sizeof(buf)));
	}
	if (warn)
		cli_warn_notes(*wl);
	if (!o->machine && (own = eevdf_workload_machine(*wl))) {
		o->machine = eevdf_machine_clone(own);
		o->show_machine = true;
	} else if (!o->machine) {
		eevdf_machine_new_flat(1, &o->machine, err, sizeof(err));
	}
	if (!o->machine) {
		cli_error("out of memory");
		eevdf_workload_free(*wl);
		*wl = NULL;
		return EXIT_USAGE;
	}
	/* in range: parse_options checked it */
	if (o->hz)
		eevdf_machine_set_hz(o->machine, o->hz);
	return EXIT_OK;
}

/* A named figure of a measured run. */
static void measure_add(struct cli_measure *m, const char *name,
			const char *unit, int better, double value)
{
	struct cli_figure *f;

	if (m->nr == CLI_MEASURE_MAX)
		return;
	f = &m->fig[m->nr++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
	f->better = better;
	f->value = value;
}

/*
 * Parse argv into o and cfg and load its workload into *wl (o->machine
 * too): EXIT_OK, or an exit code after printing why (--help is not a
 * run here).  The caller frees *wl and o->machine either way.
 */
static int prepare(int argc, char **argv, struct run_opts *o,
		   struct eevdf_config *cfg, eevdf_workload **wl, bool warn)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->trace_format = -1;
	o->argv = argv;
	o->argc = argc;
	eevdf_config_init(cfg);
	rc = parse_options(argc, argv, o, cfg);
	if (rc >= 0)
		return rc == EXIT_OK ? EXIT_USAGE : rc;
	return load(o, wl, warn);
}

int cli_run_seed(int argc, char **argv, uint64_t *seed, bool warn)
{
	struct run_opts o;
	struct eevdf_config cfg;
	eevdf_workload *wl = NULL;
	/* loaded even with --seed: its warnings once, before any run */
	int rc = prepare(argc, argv, &o, &cfg, &wl, warn);

	if (rc == EXIT_OK && o.have_seed)
		*seed = o.seed;
	else if (rc == EXIT_OK && !eevdf_workload_seed(wl, seed))
		*seed = DEFAULT_SEED;
	eevdf_workload_free(wl);
	eevdf_machine_free(o.machine);
	return rc;
}

/* A measured run; with warn, the workload's warnings (see load()). */
static int run_results(int argc, char **argv, struct cli_measure *m,
		       char **json, bool warn)
{
	struct eevdf_headline head[EEVDF_HEADLINES_MAX];
	struct run_opts o;
	struct eevdf_config cfg;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	const char *name;
	uint64_t count = 0, switches = 0, involuntary = 0;
	double sum = 0, max = 0;
	char err[256] = "";
	size_t n = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	if (json)
		*json = NULL;
	if ((rc = prepare(argc, argv, &o, &cfg, &wl, warn)) != EXIT_OK)
		goto out;
	rc = build_and_run(&o, &cfg, wl, NULL, &sim);
	if (rc != EXIT_OK)
		goto out;
	m->seed = eevdf_sim_seed(sim);
	name = report_name(wl, o.report);
	if (name) {
		if (eevdf_report_headlines(
			    sim, name, wl_option, (void *)(uintptr_t)wl, head,
			    EEVDF_HEADLINES_MAX, &n, err, sizeof(err)) < 0) {
			cli_error("report %s: %s", name, err);
			rc = EXIT_USAGE;
			goto out;
		}
		snprintf(m->report, sizeof(m->report), "%s", name);
	}
	for (size_t i = 0; i < n; i++)
		measure_add(m, head[i].name, head[i].unit, head[i].better,
			    head[i].value);
	m->nr_head = m->nr;
	/* and what perf sched latency's TOTAL line says, for every workload */
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		struct eevdf_task_stats st;

		eevdf_sim_task_stats(sim, i, &st);
		count += st.delay_count;
		sum += (double)st.delay_sum_ns;
		if ((double)st.delay_max_ns > max)
			max = (double)st.delay_max_ns;
		switches += st.switches;
		involuntary += st.involuntary;
	}
	measure_add(m, "delay_avg_us", "us", -1,
		    count ? sum / (double)count / 1e3 : 0);
	measure_add(m, "delay_max_us", "us", -1, max / 1e3);
	measure_add(m, "context_switches", "", 0, (double)switches);
	/*
	 * The preemptions among them (nivcsw): where a preemption policy
	 * shows, when most switches are sleeps that follow the work (a
	 * kworker per I/O completion) whatever the policy decides.
	 */
	measure_add(m, "involuntary_switches", "", 0, (double)involuntary);
	rc = EXIT_OK;
	if (json) {
		struct run_meta meta;
		int jr = meta_init(&meta, &o, sim, wl);

		if (jr == 0) {
			jr = eevdf_sim_results_json_run(sim, &meta.info, json);
			meta_free(&meta);
		}
		if (jr < 0) {
			cli_error("cannot format the results: %s",
				  eevdf_strerror(jr));
			rc = EXIT_USAGE;
		}
	}
out:
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	eevdf_machine_free(o.machine);
	return rc;
}

int cli_run_check(int argc, char **argv, bool warn)
{
	struct run_opts o;
	struct eevdf_config cfg;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	eevdf_time duration;
	int rc = prepare(argc, argv, &o, &cfg, &wl, warn);

	if (rc == EXIT_OK)
		rc = build_sim(&o, &cfg, wl, NULL, &sim, &duration);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	eevdf_machine_free(o.machine);
	return rc;
}

/* a sweep's points: the sweep printed the warnings when it checked them */
int cli_run_json(int argc, char **argv, char **json)
{
	struct cli_measure m;

	return run_results(argc, argv, &m, json, false);
}

/* compare's runs: its cli_run_seed() printed the warnings already */
int cli_run_measure(int argc, char **argv, struct cli_measure *m)
{
	return run_results(argc, argv, m, NULL, false);
}

int cli_run_results(int argc, char **argv, struct cli_measure *m, char **json)
{
	return run_results(argc, argv, m, json, true);
}

int cmd_run(int argc, char **argv)
{
	return cli_run_replay(argc, argv, argc, argv);
}

int cli_run_replay(int argc, char **argv, int rec_argc, char **rec_argv)
{
	struct run_opts o;
	struct eevdf_config cfg;
	eevdf_workload *wl = NULL;
	int rc;

	memset(&o, 0, sizeof(o));
	o.trace_format = -1;
	o.format = FORMAT_TEXT;
	o.csv_meta = EEVDF_CSV_META_COLUMNS;
	o.progress = -1;
	o.argv = rec_argv;
	o.argc = rec_argc;
	o.parse_argc = argc;
	o.parse_argv = argv;
	eevdf_config_init(&cfg);
	rc = parse_options(argc, argv, &o, &cfg);
	if (rc >= 0)
		return rc;
	if ((rc = load(&o, &wl, true)) == EXIT_OK)
		rc = simulate(&o, &cfg, wl);
	eevdf_workload_free(wl);
	eevdf_machine_free(o.machine);
	return rc;
}

int cli_run_build(int argc, char **argv, eevdf_trace_fn trace, void *ud,
		  bool ignore_outputs, struct cli_built *b)
{
	struct run_opts o;
	struct eevdf_config cfg;
	int rc;

	memset(b, 0, sizeof(*b));
	memset(&o, 0, sizeof(o));
	o.trace_format = -1;
	o.argv = argv;
	o.argc = argc;
	eevdf_config_init(&cfg);
	rc = parse_options(argc, argv, &o, &cfg);
	if (rc >= 0)
		return rc == EXIT_OK ? EXIT_USAGE : rc;
	if (!ignore_outputs && (o.trace || o.timehist || o.output || o.html)) {
		cli_error("%s: --trace, --timehist, --output and --html belong "
			  "to 'run'",
			  argv[0]);
		return EXIT_USAGE;
	}
	rc = load(&o, &b->wl, true);
	if (rc == EXIT_OK) {
		cfg.trace = trace;
		cfg.trace_ud = ud;
		rc = build_sim(&o, &cfg, b->wl, NULL, &b->sim, &b->duration);
	}
	b->machine = o.machine;
	b->workload = o.workload;
	if (rc != EXIT_OK)
		cli_built_free(b);
	return rc;
}

void cli_built_free(struct cli_built *b)
{
	eevdf_sim_free(b->sim);
	eevdf_workload_free(b->wl);
	eevdf_machine_free(b->machine);
	memset(b, 0, sizeof(*b));
}
