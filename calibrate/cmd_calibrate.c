/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim calibrate: measure this machine's costs and write a machine
 * file that simulates it (docs/calibration.md).
 *
 * The plan: the topology from sysfs, the base slice from
 * /proc/thread-self/sched, then rounds of every micro-benchmark
 * (bench.h), interleaved so that a burst of load from other processes
 * touches all of them a little rather than one of them entirely, then
 * two hogs for HZ.  Each cost is fitted from the medians (fit.h); a cost
 * whose inputs spread more than --max-spread, or that comes out negative,
 * is refused, and so is the file, unless --allow-noisy (a negative one is
 * then written as 0).  The written file is read back before it
 * is written, and the simulator runs the benchmarks on it to show how
 * far the model is from what was measured.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "bench.h"
#include "calibrate.h"
#include "fit.h"
#include "host.h"
#include "hostinfo.h"
#include "machine_out.h"
#include "model_check.h"
#include "out.h"
#include "series.h"

#define DEFAULT_SPREAD 20.0

struct opts {
	const char *output;
	const char *name;
	const char *cpus;
	const char *kernel;
	const char *fs_dir;
	double max_spread;
	int hz;
	bool quick, allow_noisy, verbose, boost;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " CAL_PROG " calibrate [-o FILE] [--name NAME] "
		"[--quick] [--cpus LIST]\n"
		"          [--max-spread PCT] [--allow-noisy] [--hz N] "
		"[--kernel PROFILE] [--boost]\n"
		"          [--fs-dir DIR] [-v]\n"
		"\n"
		"Measure this machine's costs with micro-benchmarks and "
		"write a machine file\n"
		"(\"eevdf-sim-machine/1\") that simulates it: "
		"--machine FILE then uses it.\n"
		"\n"
		"  -o, --output FILE   the machine file (default NAME.json; "
		"- for stdout)\n"
		"  --name NAME         the machine's name (default: the host "
		"name)\n"
		"  --quick             fewer samples: under 10 s instead of "
		"under a minute\n"
		"  --cpus LIST         the CPUs to use (default: every CPU "
		"this process may use)\n"
		"  --max-spread PCT    refuse a cost whose samples' "
		"interquartile range is more\n"
		"                      than PCT%% of their median (default "
		"%.0f)\n"
		"  --allow-noisy       write the file even then, saying so in "
		"each method\n"
		"  --hz N              take HZ as N instead of measuring it\n"
		"  --kernel PROFILE    the profile of the model checks "
		"(default: uname -r's)\n"
		"  --boost             raise this session's autogroup to nice "
		"-20 while measuring,\n"
		"                      so that other sessions take little of "
		"the CPUs (root)\n"
		"  --fs-dir DIR        time the file-system calls in a scratch "
		"directory under DIR\n"
		"                      (default: the output file's directory; "
		"'none' skips them)\n"
		"  -v, --verbose       print every benchmark's samples' "
		"statistics\n"
		"\n"
		"Run it on a quiet machine: other processes make the spread "
		"wide and the\n"
		"measurement is refused.  Exit status: 0 written, 1 refused "
		"(too noisy),\n"
		"2 usage error or failure.\n",
		DEFAULT_SPREAD);
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'q' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "max-spread", required_argument, NULL, 's' },
		{ "allow-noisy", no_argument, NULL, 'a' },
		{ "hz", required_argument, NULL, 'z' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "boost", no_argument, NULL, 'B' },
		{ "fs-dir", required_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->max_spread = DEFAULT_SPREAD;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:vh", lo, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'n':
			o->name = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'c':
			o->cpus = optarg;
			break;
		case 's':
			errno = 0;
			o->max_spread = strtod(optarg, &end);
			if (errno || *end || !(o->max_spread > 0) ||
			    o->max_spread > 1000) {
				cal_error("--max-spread: '%s' is not a "
					  "percentage above 0",
					  optarg);
				return -1;
			}
			break;
		case 'a':
			o->allow_noisy = true;
			break;
		case 'z': {
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || v < EEVDF_HZ_MIN ||
			    v > EEVDF_HZ_MAX) {
				cal_error("--hz: '%s' is not a tick rate "
					  "from %d to %d",
					  optarg, EEVDF_HZ_MIN, EEVDF_HZ_MAX);
				return -1;
			}
			o->hz = (int)v;
			break;
		}
		case 'k':
			o->kernel = optarg;
			break;
		case 'B':
			o->boost = true;
			break;
		case 'F':
			o->fs_dir = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			cal_error("option '%s' needs a value",
				  argv[optind - 1]);
			return -1;
		default:
			cal_error("unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		cal_error("calibrate takes no argument ('%s')", argv[optind]);
		return -1;
	}
	return 0;
}

/* The CPUs to use: the process's, narrowed by --cpus. */
static int usable_cpus(const struct opts *o, const struct cal_topo *t,
		       int *cpus, int max)
{
	int allowed[CAL_MAX_CPUS], na, n = 0;
	int want[CAL_MAX_CPUS], nw = -1;

	na = cal_allowed_cpus(allowed, CAL_MAX_CPUS);
	if (na <= 0) {
		cal_error("cannot read this process's CPUs: %s",
			  strerror(na < 0 ? -na : EINVAL));
		return -1;
	}
	if (o->cpus) {
		nw = cal_parse_cpulist(o->cpus, want, CAL_MAX_CPUS);
		if (nw <= 0) {
			cal_error("--cpus: '%s' is not a CPU list (0-3,8)",
				  o->cpus);
			return -1;
		}
	}
	for (int i = 0; i < na && n < max; i++) {
		bool in = nw < 0;

		for (int j = 0; j < nw && !in; j++)
			in = want[j] == allowed[i];
		if (in && cal_topo_find(t, allowed[i]))
			cpus[n++] = allowed[i];
	}
	if (!n)
		cal_error("--cpus %s: none of them is online and allowed to "
			  "this process",
			  o->cpus);
	return n ? n : -1;
}

/*
 * Which CPUs play which part: the last usable CPU is the near side (CPU
 * 0 takes more of the machine's interrupts); the far sides are the
 * first usable CPU of each kind.
 */
static void choose_cpus(const struct cal_topo *t, const int *cpus, int n,
			struct cal_plan *p)
{
	const struct cal_cpu *a = cal_topo_find(t, cpus[n - 1]);

	p->cpu_a = a->cpu;
	p->cpu_b = p->cpu_other_llc = p->cpu_other_pkg = -1;
	p->smt_a = p->smt_b = -1;
	for (int i = 0; i < n; i++) {
		const struct cal_cpu *c = cal_topo_find(t, cpus[i]);

		if (c->cpu == a->cpu)
			continue;
		if (c->llc == a->llc && c->core != a->core && p->cpu_b < 0)
			p->cpu_b = c->cpu;
		if (c->package == a->package && c->llc != a->llc &&
		    p->cpu_other_llc < 0)
			p->cpu_other_llc = c->cpu;
		if (c->package != a->package && p->cpu_other_pkg < 0)
			p->cpu_other_pkg = c->cpu;
		if (c->core == a->core && p->smt_a < 0) {
			p->smt_a = a->cpu;
			p->smt_b = c->cpu;
		}
	}
}

/* The kernel's base slice, from our own /proc/PID/sched. */
static int64_t base_slice(char *method, size_t len)
{
	char path[64], *s;
	int64_t v = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", cal_gettid());
	s = cal_read_text(path);
	if (s && cal_parse_sched_field(s, "se.slice", &v) && v > 0) {
		snprintf(method, len,
			 "se.slice of /proc/self/task/TID/sched for a thread "
			 "without a custom slice: sysctl_sched_base_slice");
	} else {
		v = 0;
		snprintf(method, len, "not readable");
	}
	free(s);
	return v;
}

/* The profile of uname -r ("6.18.44-fc-v1045" is in 6.18's range). */
static const char *host_profile(const char *release)
{
	char num[64];

	cal_release_number(release, num, sizeof(num));
	return eevdf_profile_for_release(num, NULL, 0);
}

struct cpu_noise {
	struct cal_cpu_times t0, t1;
	bool ok;
};

/* The CPU time of every task on cpus and the hypervisor's steal. */
static void sample_stat(struct cpu_noise *nz, const int *cpus, int n, bool end)
{
	char *s = cal_read_text("/proc/stat");

	for (int i = 0; i < n; i++) {
		struct cal_cpu_times *t = end ? &nz[i].t1 : &nz[i].t0;

		nz[i].ok = s && cal_parse_stat_cpu(s, cpus[i], t) &&
			   (!end || nz[i].ok);
	}
	free(s);
}

/* What else ran during the measurement, as the report says it. */
static void report_noise(FILE *f, const struct cpu_noise *nz, int n,
			 double wall_s)
{
	struct rusage self, kids;
	double ours, busy = 0, steal = 0, ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	ours = (double)self.ru_utime.tv_sec + (double)self.ru_stime.tv_sec +
	       ((double)self.ru_utime.tv_usec + (double)self.ru_stime.tv_usec) /
		       1e6 +
	       (double)kids.ru_utime.tv_sec + (double)kids.ru_stime.tv_sec;
	for (int i = 0; i < n; i++) {
		if (!nz[i].ok)
			return;
		busy += (double)(nz[i].t1.busy - nz[i].t0.busy);
		steal += (double)(nz[i].t1.steal - nz[i].t0.steal);
		ticks += (double)(nz[i].t1.busy - nz[i].t0.busy +
				  nz[i].t1.idle - nz[i].t0.idle +
				  nz[i].t1.steal - nz[i].t0.steal);
	}
	if (hz <= 0 || ticks <= 0)
		return;
	busy /= (double)hz;
	fprintf(f,
		"# other load on the CPUs used: %.1f%% of their time (busy "
		"%.1f s, this run %.1f s of %d CPUs x %.1f s); steal %.1f%%\n",
		100 * fmax(0, busy - ours) / ((double)n * wall_s), busy, ours,
		n, wall_s, 100 * steal / ticks);
}

static void print_series(FILE *f, const struct cal_set *set)
{
	fprintf(f, "# %-28s %12s %10s %7s %5s  %s\n", "benchmark", "median",
		"iqr", "spread", "n", "unit");
	for (size_t i = 0; i < set->n; i++) {
		const struct cal_series *s = set->s[i];

		fprintf(f, "# %-28s %12.3f %10.3f %6.1f%% %5zu  %s\n", s->name,
			s->st.median, s->st.iqr, cal_spread_pct(&s->st),
			s->st.n, s->unit);
	}
}

static void print_costs(FILE *f, const struct cal_fit *fit, double limit)
{
	fprintf(f, "%-20s %10s %8s %7s %6s %10s %8s\n", "cost", "measured",
		"iqr", "spread", "n", "default", "x dflt");
	for (size_t i = 0; i < fit->nr; i++) {
		const struct cal_cost *c = &fit->cost[i];
		uint64_t d = 0;
		bool pct = strstr(c->name, "_pct") != NULL;

		eevdf_cost_default(c->name, &d);
		fprintf(f,
			"%-20s %8lld%s %6lld%s %6.1f%% %6zu %8llu%s %8.2f%s\n",
			c->name, (long long)c->value, pct ? " %" : "ns",
			(long long)c->iqr, pct ? " %" : "ns", c->spread_pct,
			c->samples, (unsigned long long)d, pct ? " %" : "ns",
			d ? (double)c->value / (double)d : 0,
			c->spread_pct > limit ? "  TOO NOISY" : "");
	}
	for (size_t i = 0; i < fit->nr_notes; i++)
		fprintf(f, "# %s\n", fit->notes[i]);
}

int cmd_calibrate(int argc, char **argv)
{
	struct opts o;
	struct cal_topo topo;
	struct cal_plan plan;
	struct cal_set set;
	struct cal_fit fit;
	struct cal_check checks[CAL_NR_CHECKS];
	struct cal_machine_info info;
	struct cpu_noise *nz = NULL;
	int cpus[CAL_MAX_CPUS], ncpu, rounds, r, ret = CAL_EXIT_USAGE,
						 noisy = 0;
	size_t negative = 0;
	char err[1024], release[128] = "", clk[64], model[160], host[256];
	char slice_method[200], hz_method[300], today[32], hostname[128];
	char *text = NULL, outpath[300], outdir[300];
	const char *profile;
	size_t nchecks = 0;
	int64_t t_start;
	bool virt, boosted = false;
	int old_nice = 0;
	FILE *rep;

	if ((r = parse(argc, argv, &o)))
		return r > 0 ? CAL_EXIT_OK : CAL_EXIT_USAGE;
	memset(&set, 0, sizeof(set));
	if (cal_topo_read("/", &topo) < 0) {
		cal_error("cannot read the CPU topology: %s", topo.why);
		return CAL_EXIT_USAGE;
	}
	if ((ncpu = usable_cpus(&o, &topo, cpus, CAL_MAX_CPUS)) < 0)
		goto out;
	cal_uname_release(release, sizeof(release));
	profile = o.kernel ? o.kernel : host_profile(release);
	if (o.kernel && !eevdf_profile_for_release(o.kernel, NULL, 0)) {
		cal_error("--kernel: unknown kernel profile '%s'", o.kernel);
		goto out;
	}
	if (o.kernel)
		profile = eevdf_profile_for_release(o.kernel, NULL, 0);
	if (!cal_clock_is_vdso(clk, sizeof(clk)))
		fprintf(stderr,
			CAL_PROG ": warning: clocksource '%s' is not read in "
				 "the vDSO: every clock reading is a system "
				 "call and the timings include it\n",
			clk);
	if (gethostname(hostname, sizeof(hostname)) < 0 || !hostname[0])
		snprintf(hostname, sizeof(hostname), "host");
	hostname[sizeof(hostname) - 1] = '\0';
	if (!o.name)
		o.name = hostname;
	if (!o.output) {
		snprintf(outpath, sizeof(outpath), "%.250s.json", o.name);
		o.output = outpath;
	}
	if (!cal_can_write(o.output))
		goto out;
	if (o.fs_dir && strcmp(o.fs_dir, "none") != 0) {
		struct stat st;

		if (stat(o.fs_dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    access(o.fs_dir, W_OK | X_OK) < 0) {
			cal_error("--fs-dir: '%s' is not a directory this "
				  "process may write in",
				  o.fs_dir);
			goto out;
		}
	}
	rep = strcmp(o.output, "-") == 0 ? stderr : stdout;

	memset(&plan, 0, sizeof(plan));
	choose_cpus(&topo, cpus, ncpu, &plan);
	plan.slice_ns = base_slice(slice_method, sizeof(slice_method));
	plan.batches = o.quick ? 10 : 20;
	plan.scale = 100;
	plan.hog_ns = (o.quick ? 600 : 2000) * CAL_NSEC_PER_MSEC;
	/* by default the file system the machine file goes to */
	snprintf(outdir, sizeof(outdir), "%s",
		 strcmp(o.output, "-") ? o.output : "./-");
	if (strrchr(outdir, '/'))
		*strrchr(outdir, '/') = '\0';
	else
		snprintf(outdir, sizeof(outdir), ".");
	plan.fs_dir = !o.fs_dir		       ? (outdir[0] ? outdir : "/") :
		      strcmp(o.fs_dir, "none") ? o.fs_dir :
						 NULL;
	rounds = o.quick ? 4 : 30;
	fprintf(stderr,
		CAL_PROG ": calibrating on CPU %d%s%s (%d rounds of %d "
			 "batches)\n",
		plan.cpu_a, plan.cpu_b >= 0 ? " and " : "",
		plan.cpu_b >= 0 ? "another core of its LLC" : "", rounds,
		plan.batches);
	if (o.boost) {
		if ((r = cal_boost(&old_nice)) < 0)
			fprintf(stderr,
				CAL_PROG ": warning: --boost: cannot raise "
					 "this session's autogroup (%s): "
					 "measuring without\n",
				strerror(-r));
		else
			boosted = true;
	}
	nz = calloc((size_t)ncpu, sizeof(*nz));
	if (!nz) {
		cal_error("out of memory");
		goto out;
	}
	t_start = cal_now();
	sample_stat(nz, cpus, ncpu, false);
	for (int k = 0; k < rounds; k++) {
		static int (*const group[])(const struct cal_plan *,
					    struct cal_set *, char *,
					    size_t) = {
			cal_bench_syscalls, cal_bench_yield_pairs,
			cal_bench_pingpong, cal_bench_idle_wakeup,
			cal_bench_fork,	    cal_bench_cache,
			cal_bench_fs,
		};

		fprintf(stderr, CAL_PROG ": round %d of %d\n", k + 1, rounds);
		for (size_t g = 0; g < sizeof(group) / sizeof(group[0]); g++) {
			if (group[g](&plan, &set, err, sizeof(err)) < 0) {
				cal_error("calibrate: %s", err);
				goto out;
			}
		}
	}
	if (!o.hz && plan.slice_ns <= 0) {
		cal_error("cannot read the base slice (%s) to read HZ from "
			  "the hogs: give --hz",
			  slice_method);
		goto out;
	}
	if (!o.hz && cal_bench_hogs(&plan, &set, err, sizeof(err)) < 0) {
		cal_error("calibrate: %s", err);
		goto out;
	}
	sample_stat(nz, cpus, ncpu, true);
	if (boosted) {
		cal_unboost(old_nice);
		boosted = false;
	}
	if (set.nomem) {
		cal_error("out of memory while measuring");
		goto out;
	}
	cal_set_finish(&set);
	if (o.verbose)
		print_series(rep, &set);
	report_noise(rep, nz, ncpu,
		     (double)(cal_now() - t_start) / CAL_NSEC_PER_SEC);

	memset(&info, 0, sizeof(info));
	if (o.hz) {
		info.hz = o.hz;
		info.hz_samples = 1;
		snprintf(hz_method, sizeof(hz_method), "given: --hz %d", o.hz);
	} else {
		const struct cal_series *runs = cal_set_find(&set,
							     "hog_run_length");

		info.hz = cal_fit_hz(runs, plan.slice_ns, hz_method,
				     sizeof(hz_method));
		info.hz_samples = runs ? runs->st.n : 0;
		if (!info.hz) {
			cal_error("cannot read HZ: %s; give --hz (CONFIG_HZ "
				  "of this kernel)",
				  hz_method);
			ret = CAL_EXIT_FAIL;
			goto out;
		}
	}
	if (cal_fit_costs(&set, &fit, o.allow_noisy, &negative, err,
			  sizeof(err)) < 0) {
		cal_error("refused: %s", err);
		ret = CAL_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < fit.nr; i++) {
		struct cal_cost *c = &fit.cost[i];

		if (c->spread_pct <= o.max_spread)
			continue;
		noisy++;
		if (o.allow_noisy) {
			size_t n = strlen(c->method);

			snprintf(c->method + n, sizeof(c->method) - n,
				 " [noisy: %s spread %.1f%% > %.0f%%, kept "
				 "by --allow-noisy]",
				 c->widest, c->spread_pct, o.max_spread);
		}
	}
	print_costs(rep, &fit, o.max_spread);
	if (negative)
		fprintf(rep,
			"# %zu cost%s came out negative, written as 0 "
			"(--allow-noisy): the machine was too busy to tell "
			"%s from %s parts; rerun on a quiet one\n",
			negative, negative == 1 ? "" : "s",
			negative == 1 ? "it" : "them",
			negative == 1 ? "its" : "their");
	fprintf(rep, "# HZ %d: %s\n", info.hz, hz_method);
	if (plan.slice_ns > 0)
		fprintf(rep, "# base slice %.3f ms: %s\n",
			(double)plan.slice_ns / 1e6, slice_method);
	if (noisy && !o.allow_noisy) {
		cal_error("refused: %d cost%s spread more than %.0f%% of "
			  "their median (marked TOO NOISY above): other "
			  "processes or the hypervisor took the CPUs.  Rerun "
			  "on a quiet machine (or with --boost), or accept it "
			  "with --max-spread or --allow-noisy.  Nothing "
			  "written.",
			  noisy, noisy == 1 ? "" : "s", o.max_spread);
		ret = CAL_EXIT_FAIL;
		goto out;
	}

	cal_cpu_model("/", model, sizeof(model), &virt);
	snprintf(host, sizeof(host), "%s, %d CPUs%s",
		 model[0] ? model : "unknown CPU", topo.nr,
		 virt ? ", virtualized" : "");
	cal_today(today, sizeof(today));
	info.name = o.name;
	info.tool = CAL_PROG " " EEVDF_VERSION_STRING " calibrate";
	info.date = today;
	info.kernel = release;
	info.host = host;
	info.quick = o.quick;
	info.hz_method = hz_method;
	info.slice_ns = plan.slice_ns;
	info.slice_method = slice_method;
	text = cal_machine_json(&topo, &fit, &set, &info, err, sizeof(err));
	if (!text) {
		cal_error("%s", err);
		goto out;
	}
	{
		eevdf_machine *m = NULL;
		struct eevdf_diag d;
		int a = 0, b = -1;

		for (int i = 0; i < topo.nr; i++) {
			if (topo.cpu[i].cpu == plan.cpu_a)
				a = i;
			if (topo.cpu[i].cpu == plan.cpu_b)
				b = i;
		}
		memset(&d, 0, sizeof(d));
		if (eevdf_machine_parse(text, strlen(text), o.output, &m, &d) ==
			    0 &&
		    cal_model_checks(m, profile, a, b, &set, checks, &nchecks,
				     err, sizeof(err)) == 0) {
			fprintf(rep,
				"# the model on this machine (kernel "
				"profile %s) against the measurements:\n",
				profile ? profile : eevdf_profile_default());
			for (size_t i = 0; i < nchecks; i++)
				fprintf(rep,
					"#   %-22s measured %10.1f ns, model "
					"%10.1f ns (%+.1f%%): %s\n",
					checks[i].series, checks[i].measured,
					checks[i].model,
					100 *
						(checks[i].model -
						 checks[i].measured) /
						checks[i].measured,
					checks[i].what);
		} else {
			fprintf(rep, "# model checks not run: %s\n", err);
		}
		eevdf_machine_free(m);
	}
	if (!cal_write_atomic(o.output, text))
		goto out;
	if (strcmp(o.output, "-") != 0)
		fprintf(rep, "wrote %s: use it with --machine %s\n", o.output,
			o.output);
	ret = CAL_EXIT_OK;
out:
	if (boosted)
		cal_unboost(old_nice);
	free(text);
	free(nz);
	cal_set_free(&set);
	cal_topo_free(&topo);
	return ret;
}
