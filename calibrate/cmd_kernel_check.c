/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim kernel-check: run each experiment (kc_exp.c) on this
 * machine's kernel and in the simulator, and print the table of what
 * each saw (docs/calibration.md).  Exit 0 when every judged figure
 * agrees within its tolerance, 1 when one differs beyond it (a DIFF), 2
 * on a usage error or a failure.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "calibrate.h"
#include "fit.h"
#include "host.h"
#include "hostinfo.h"
#include "kc.h"
#include "machine_out.h"
#include "out.h"

#define DEFAULT_RUNS 3
#define DEFAULT_DURATION (2 * CAL_NSEC_PER_SEC)
#define QUICK_DURATION (800 * CAL_NSEC_PER_MSEC)
#define DEFAULT_FOREIGN 5.0
#define MAX_ROWS (32 * KC_MAX_METRICS)

struct opts {
	const char *machine, *kernel, *features, *only, *format, *output;
	const char *save_real, *load_real, *save_workloads;
	int runs, cpu;
	int64_t duration;
	double max_foreign;
	bool quick, list, boost;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " CAL_PROG " kernel-check [--machine FILE] [--kernel "
		"PROFILE] [--features LIST]\n"
		"          [--only NAMES] [--quick] [--runs N] [--duration D] "
		"[--cpu N]\n"
		"          [--format text|json] [-o FILE] [--save-real FILE] "
		"[--load-real FILE]\n"
		"          [--save-workloads DIR] [--max-foreign PCT] [--boost] "
		"[--list]\n"
		"\n"
		"Run small scheduler experiments on this machine's kernel and "
		"in the simulator,\n"
		"and print what each saw: experiment, figure, kernel value "
		"(median of the runs,\n"
		"and their range), simulated value, difference, tolerance, "
		"verdict.\n"
		"\n"
		"  --machine FILE      the simulated machine: the file eevdf-sim "
		"calibrate wrote\n"
		"                      (default: this host's topology and HZ "
		"with default costs)\n"
		"  --kernel PROFILE    the profile simulated (default: the one "
		"of uname -r)\n"
		"  --features LIST     feature overrides of the simulation\n"
		"  --only NAMES        these experiments only (comma-separated; "
		"--list names them)\n"
		"  --quick             one run of 0.8 s per experiment (about "
		"10 s in all)\n"
		"  --runs N            runs per experiment on the kernel "
		"(default %d)\n"
		"  --duration D        each run's length (default 2s; its "
		"first fifth is left out)\n"
		"  --cpu N             the CPU to pin to (default: the last "
		"this process may use)\n"
		"  --format FMT        text (default) or json\n"
		"  -o, --output FILE   write the table there (default: "
		"standard output)\n"
		"  --save-real FILE    also save what the kernel's runs "
		"recorded\n"
		"  --load-real FILE    take the kernel's side from such a "
		"recording: no measuring\n"
		"  --save-workloads DIR  write each experiment's workload "
		"there (eevdf-sim run)\n"
		"  --max-foreign PCT   runs in which other tasks took more "
		"than PCT%% of the CPU\n"
		"                      count only if all did (default %.0f)\n"
		"  --boost             raise this session's autogroup to nice "
		"-20 while measuring,\n"
		"                      so that other sessions take little of "
		"the CPU (root)\n"
		"  --list              list the experiments and their figures\n"
		"\n"
		"Exit status: 0 every figure within tolerance, 1 a DIFF, 2 "
		"usage error or failure.\n",
		DEFAULT_RUNS, DEFAULT_FOREIGN);
}

static bool parse_int(const char *opt, const char *s, long lo, long hi,
		      int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		cal_error("%s: '%s' is not an integer from %ld to %ld", opt, s,
			  lo, hi);
		return false;
	}
	*out = (int)v;
	return true;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "features", required_argument, NULL, 'f' },
		{ "only", required_argument, NULL, 'O' },
		{ "quick", no_argument, NULL, 'q' },
		{ "runs", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "save-real", required_argument, NULL, 'S' },
		{ "load-real", required_argument, NULL, 'L' },
		{ "save-workloads", required_argument, NULL, 'W' },
		{ "max-foreign", required_argument, NULL, 'x' },
		{ "list", no_argument, NULL, 'l' },
		{ "boost", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, pct;

	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->max_foreign = DEFAULT_FOREIGN;
	o->format = "text";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->machine = optarg;
			break;
		case 'k':
			o->kernel = optarg;
			break;
		case 'f':
			o->features = optarg;
			break;
		case 'O':
			o->only = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'r':
			if (!parse_int("--runs", optarg, 1, 64, &o->runs))
				return -1;
			break;
		case 'd':
			if (eevdf_parse_duration(optarg,
						 3600 * CAL_NSEC_PER_SEC,
						 &o->duration) < 0 ||
			    o->duration < 100 * CAL_NSEC_PER_MSEC) {
				cal_error("--duration: '%s' is not a duration "
					  "from 100ms to 3600s (2s, 500ms)",
					  optarg);
				return -1;
			}
			break;
		case 'c':
			if (!parse_int("--cpu", optarg, 0, CAL_MAX_CPUS - 1,
				       &o->cpu))
				return -1;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				cal_error("--format: '%s' is not text or json",
					  optarg);
				return -1;
			}
			o->format = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'S':
			o->save_real = optarg;
			break;
		case 'L':
			o->load_real = optarg;
			break;
		case 'W':
			o->save_workloads = optarg;
			break;
		case 'x':
			if (!parse_int("--max-foreign", optarg, 0, 100, &pct))
				return -1;
			o->max_foreign = pct;
			break;
		case 'l':
			o->list = true;
			break;
		case 'B':
			o->boost = true;
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
		cal_error("kernel-check takes no argument ('%s')",
			  argv[optind]);
		return -1;
	}
	if (o->load_real && o->save_real) {
		cal_error("--load-real and --save-real exclude each other");
		return -1;
	}
	return 0;
}

static void list(void)
{
	for (size_t i = 0; i < kc_nr_experiments(); i++) {
		const struct kc_exp *e = kc_experiment(i);

		printf("%-9s %s\n", e->name, e->what);
		for (int k = 0; k < e->nr_metrics; k++) {
			const struct kc_metric *m = &e->metric[k];
			char name[80];

			kc_metric_name(e, m, name, sizeof(name));
			if (m->tol_kind == KC_TOL_INFO)
				printf("          %s (%s): shown, not judged\n",
				       name, kc_stat_unit(m->stat));
			else /* a share's absolute band is in points */
				printf("          %s (%s): within %g%s\n", name,
				       kc_stat_unit(m->stat), m->tol,
				       m->tol_kind == KC_TOL_REL ?
					       "%" :
				       strcmp(kc_stat_unit(m->stat), "%") == 0 ?
					       " pp" :
					       kc_stat_unit(m->stat));
		}
	}
}

/* The experiments of --only (all without it), into sel. */
static int select_exps(const char *only, const struct kc_exp **sel)
{
	char buf[512], *save = NULL, *tok;
	int n = 0;

	if (!only) {
		for (size_t i = 0; i < kc_nr_experiments(); i++)
			sel[n++] = kc_experiment(i);
		return n;
	}
	snprintf(buf, sizeof(buf), "%s", only);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct kc_exp *e = kc_experiment_find(tok);

		if (!e) {
			cal_error("--only: unknown experiment '%s' (--list "
				  "names them)",
				  tok);
			return -1;
		}
		for (int j = 0; j < n; j++)
			if (sel[j] == e)
				e = NULL;
		if (e && n < 32)
			sel[n++] = e;
	}
	return n;
}

/* The last CPU this process may use, or --cpu's if it may. */
static int pick_cpu(int want)
{
	int cpus[CAL_MAX_CPUS], n = cal_allowed_cpus(cpus, CAL_MAX_CPUS);

	if (n <= 0) {
		cal_error("cannot read this process's CPUs");
		return -1;
	}
	if (want < 0)
		return cpus[n - 1];
	for (int i = 0; i < n; i++)
		if (cpus[i] == want)
			return want;
	cal_error("--cpu %d: not a CPU this process may run on", want);
	return -1;
}

/* HZ of this kernel: its config when installed, else the hogs' runs. */
static int host_hz(const char *release, int cpu, int64_t slice, char *how,
		   size_t len)
{
	char path[256], *cfg;
	int hz = 0;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	if ((cfg = cal_read_text(path))) {
		hz = cal_parse_config_hz(cfg);
		free(cfg);
		if (hz) {
			snprintf(how, len, "CONFIG_HZ of %s", path);
			return hz;
		}
	}
	if (slice > 0) {
		struct cal_plan p = { .cpu_a = cpu,
				      .batches = 1,
				      .scale = 100,
				      .hog_ns = 600 * CAL_NSEC_PER_MSEC,
				      .slice_ns = slice };
		struct cal_set set;
		char err[256];

		memset(&set, 0, sizeof(set));
		if (cal_bench_hogs(&p, &set, err, sizeof(err)) == 0) {
			cal_set_finish(&set);
			hz = cal_fit_hz(cal_set_find(&set, "hog_run_length"),
					slice, how, len);
		}
		cal_set_free(&set);
	}
	return hz;
}

/* This host as a machine: its topology, hz, no costs. */
static eevdf_machine *host_machine(int hz)
{
	struct eevdf_machine_spec s;
	struct eevdf_cpu_desc *cpus = NULL;
	struct cal_topo t;
	eevdf_machine *m = NULL;
	bool regular;

	if (cal_topo_read("/", &t) < 0) {
		cal_error("cannot read the CPU topology: %s", t.why);
		return NULL;
	}
	if (cal_topo_spec(&t, &s, &cpus, &regular) == 0) {
		s.name = "this-host";
		s.description = "this host's topology, default costs";
		s.hz = hz;
		if (eevdf_machine_new(&s, &m, NULL, 0) < 0)
			m = NULL;
	}
	free(cpus);
	cal_topo_free(&t);
	if (!m)
		cal_error("cannot make a machine of this host's topology");
	return m;
}

/* The index of host CPU cpu among the online CPUs (the machine's CPU
 * numbering), or 0 when the machine is not this host's shape. */
static int machine_cpu(const eevdf_machine *m, int cpu)
{
	struct cal_topo t;
	int idx = 0;

	if (cal_topo_read("/", &t) == 0) {
		for (int i = 0; i < t.nr; i++)
			if (t.cpu[i].cpu == cpu)
				idx = i;
		cal_topo_free(&t);
	}
	return idx < eevdf_machine_nr_cpus(m) ? idx : 0;
}

static int64_t host_slice(void)
{
	char path[64], *s;
	int64_t v = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", cal_gettid());
	if ((s = cal_read_text(path)) &&
	    !cal_parse_sched_field(s, "se.slice", &v))
		v = 0;
	free(s);
	return v;
}

/* The base slice a simulation on m with profile kernel has. */
static int64_t sim_slice(const eevdf_machine *m, const char *kernel)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;
	int64_t v = 0;

	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.kernel = kernel;
	if (eevdf_sim_new(&cfg, &sim, NULL, 0) == 0) {
		v = eevdf_sim_base_slice(sim);
		eevdf_sim_free(sim);
	}
	return v;
}

static bool save_workloads(const char *dir, const struct kc_exp *const *sel,
			   int n, int cpu, const struct kc_timing *t)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		cal_error("--save-workloads: cannot make %s: %s", dir,
			  strerror(errno));
		return false;
	}
	for (int i = 0; i < n; i++) {
		struct kc_timing et = kc_exp_timing(sel[i], t);
		char *json = kc_workload(sel[i], cpu, &et), path[1024];
		bool ok;

		snprintf(path, sizeof(path), "%s/kernel-check-%s.json", dir,
			 sel[i]->name);
		if (!json) {
			cal_error("out of memory");
			return false;
		}
		ok = cal_write_atomic(path, json);
		free(json);
		if (!ok)
			return false;
	}
	return true;
}

int cmd_kernel_check(int argc, char **argv)
{
	const struct kc_exp *sel[32];
	struct kc_recording rec;
	struct kc_row *rows = NULL;
	struct kc_exp_note notes[32];
	struct kc_header h;
	struct kc_sim sim;
	struct opts o;
	eevdf_machine *m = NULL;
	char err[1024], num[64], how[300] = "", clk[64];
	char *text = NULL;
	const char *profile;
	size_t nrows = 0, diffs;
	int nsel, r, ret = CAL_EXIT_USAGE, old_nice = 0;
	bool boosted = false, busy = false;

	if ((r = parse(argc, argv, &o)))
		return r > 0 ? CAL_EXIT_OK : CAL_EXIT_USAGE;
	if (o.list) {
		list();
		return CAL_EXIT_OK;
	}
	memset(&rec, 0, sizeof(rec));
	memset(&sim, 0, sizeof(sim));
	memset(&h, 0, sizeof(h));
	if ((nsel = select_exps(o.only, sel)) < 0)
		return CAL_EXIT_USAGE;
	/* before measuring for a minute: the files can be written */
	if ((o.output && !cal_can_write(o.output)) ||
	    (o.save_real && !cal_can_write(o.save_real)))
		return CAL_EXIT_USAGE;
	if (o.features &&
	    eevdf_features_parse(o.features, &sim.feat_on, &sim.feat_off, err,
				 sizeof(err)) < 0) {
		cal_error("--features: %s", err);
		return CAL_EXIT_USAGE;
	}

	/* the kernel's side: a recording, or the set-up to measure */
	if (o.load_real) {
		if (kc_record_load(o.load_real, &rec, err, sizeof(err)) < 0) {
			cal_error("%s", err);
			return CAL_EXIT_USAGE;
		}
		if (o.only) {
			for (int i = 0; i < nsel; i++) {
				bool in = false;

				for (size_t k = 0; k < rec.nr_exp; k++)
					in = in || rec.exp[k] == sel[i];
				if (!in) {
					cal_error("--only: %s has no "
						  "experiment '%s'",
						  o.load_real, sel[i]->name);
					goto out;
				}
			}
		} else {
			nsel = (int)rec.nr_exp;
			memcpy(sel, rec.exp, rec.nr_exp * sizeof(sel[0]));
		}
	} else {
		rec.runs = o.runs ? o.runs : o.quick ? 1 : DEFAULT_RUNS;
		rec.timing.duration = o.duration ? o.duration :
				      o.quick	 ? QUICK_DURATION :
						   DEFAULT_DURATION;
		rec.timing.warmup = rec.timing.duration / 5;
		if ((rec.cpu = pick_cpu(o.cpu)) < 0)
			goto out;
		cal_uname_release(rec.release, sizeof(rec.release));
		rec.base_slice = host_slice();
		if (!cal_clock_is_vdso(clk, sizeof(clk)))
			fprintf(stderr,
				CAL_PROG ": warning: clocksource '%s' is not "
					 "read in the vDSO: the threads' clock "
					 "readings enter the kernel\n",
				clk);
	}

	/* the simulated side */
	if (o.machine) {
		struct eevdf_diag d;
		char msg[512];

		memset(&d, 0, sizeof(d));
		if (eevdf_machine_load_file(o.machine, &m, &d) < 0) {
			cal_error("--machine: %s",
				  eevdf_diag_format(&d, msg, sizeof(msg)));
			goto out;
		}
	} else {
		int hz = rec.hz;

		if (!hz && !o.load_real)
			hz = host_hz(rec.release, rec.cpu, rec.base_slice, how,
				     sizeof(how));
		if (!hz) {
			cal_error("cannot tell this kernel's HZ%s%s: give "
				  "--machine (eevdf-sim calibrate writes one)",
				  how[0] ? ": " : "", how);
			goto out;
		}
		if (!(m = host_machine(hz)))
			goto out;
	}
	rec.hz = eevdf_machine_hz(m);
	cal_release_number(rec.release, num, sizeof(num));
	if (o.kernel) {
		profile = eevdf_profile_for_release(o.kernel, NULL, 0);
		if (!profile) {
			cal_error("--kernel: unknown kernel profile '%s'",
				  o.kernel);
			goto out;
		}
	} else if (!(profile = eevdf_profile_for_release(num, NULL, 0))) {
		profile = eevdf_profile_default();
		fprintf(stderr,
			CAL_PROG ": note: no profile models kernel %s: "
				 "simulating %s (--kernel chooses)\n",
			rec.release, profile);
	}
	sim.machine = m;
	sim.kernel = profile;
	sim.cpu = machine_cpu(m, rec.cpu);
	h.sim_slice = sim_slice(m, profile);
	if (rec.base_slice > 0 && rec.base_slice != h.sim_slice) {
		fprintf(stderr,
			CAL_PROG ": note: the kernel's base slice is %.3f ms, "
				 "the simulation's %.3f ms: simulating the "
				 "kernel's\n",
			(double)rec.base_slice / 1e6,
			(double)h.sim_slice / 1e6);
		sim.base_slice = rec.base_slice;
		h.sim_slice = rec.base_slice;
	}
	if (o.save_workloads &&
	    !save_workloads(o.save_workloads, sel, nsel, sim.cpu, &rec.timing))
		goto out;

	rows = calloc(MAX_ROWS, sizeof(*rows));
	if (!rows) {
		cal_error("out of memory");
		goto out;
	}
	if (o.boost && !o.load_real) {
		if ((r = cal_boost(&old_nice)) < 0)
			fprintf(stderr,
				CAL_PROG ": warning: --boost: cannot raise "
					 "this session's autogroup (%s): "
					 "measuring without\n",
				strerror(-r));
		else
			boosted = true;
	}
	for (int i = 0; i < nsel; i++) {
		const struct kc_exp *e = sel[i];
		struct kc_run srun, *kruns = NULL;
		size_t k;

		for (k = 0; k < rec.nr_exp && rec.exp[k] != e; k++)
			;
		if (k == rec.nr_exp) {
			/* measure it now */
			rec.exp[k] = e;
			rec.exp_timing[k] = kc_exp_timing(e, &rec.timing);
			rec.run[k] = calloc((size_t)rec.runs, sizeof(*kruns));
			if (!rec.run[k]) {
				cal_error("out of memory");
				goto out;
			}
			rec.nr_exp++;
			for (int n = 0; n < rec.runs; n++) {
				fprintf(stderr,
					CAL_PROG ": %s: run %d of %d on CPU "
						 "%d\n",
					e->name, n + 1, rec.runs, rec.cpu);
				if (kc_real_run(e, rec.cpu, &rec.exp_timing[k],
						&rec.run[k][n], err,
						sizeof(err)) < 0) {
					cal_error("%s: %s", e->name, err);
					goto out;
				}
			}
		}
		kruns = rec.run[k];
		if (kc_sim_run(e, &sim, &rec.exp_timing[k], &srun, err,
			       sizeof(err)) < 0) {
			cal_error("%s", err);
			goto out;
		}
		nrows += kc_rows(e, kruns, (size_t)rec.runs, &srun,
				 o.max_foreign,
				 CAL_NSEC_PER_SEC / eevdf_machine_hz(m),
				 rows + nrows, MAX_ROWS - nrows);
		notes[i].exp = e->name;
		notes[i].foreign_max = 0;
		notes[i].runs = 0;
		for (int n = 0; n < rec.runs; n++) {
			double f = kc_foreign_pct(&kruns[n]);

			if (kruns[n].skipped[0])
				continue;
			notes[i].runs++;
			if (f > notes[i].foreign_max)
				notes[i].foreign_max = f;
			busy = busy || f > o.max_foreign;
		}
		kc_run_free(&srun);
	}
	if (boosted) {
		cal_unboost(old_nice);
		boosted = false;
	}

	h.release = rec.release;
	h.profile = profile;
	h.machine = eevdf_machine_name(m);
	h.calibrated = eevdf_machine_calibration(m) != NULL;
	h.cpu = rec.cpu;
	h.runs = rec.runs;
	h.timing = rec.timing;
	h.base_slice = rec.base_slice;
	h.hz = eevdf_machine_hz(m);
	h.boosted = o.boost && !o.load_real;
	if (busy && !o.load_real)
		fprintf(stderr,
			CAL_PROG ": note: other tasks took more than %.0f%% of "
				 "CPU %d in some runs: rerun on a quiet "
				 "machine%s\n",
			o.max_foreign, rec.cpu,
			o.boost ? "" : ", or with --boost");
	if (strcmp(o.format, "json") == 0) {
		text = kc_table_json(&h, rows, nrows, notes, (size_t)nsel);
		if (!text || !cal_write_atomic(o.output ? o.output : "-", text))
			goto out;
		diffs = 0;
		for (size_t i = 0; i < nrows; i++)
			diffs += strcmp(rows[i].verdict, "DIFF") == 0;
	} else if (o.output) {
		FILE *f = tmpfile();
		long n;

		if (!f) {
			cal_error("cannot make a temporary file: %s",
				  strerror(errno));
			goto out;
		}
		diffs = kc_table_text(f, &h, rows, nrows, notes, (size_t)nsel);
		n = ftell(f);
		rewind(f);
		text = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
		if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
			fclose(f);
			cal_error("out of memory");
			goto out;
		}
		fclose(f);
		if (!cal_write_atomic(o.output, text))
			goto out;
	} else {
		diffs = kc_table_text(stdout, &h, rows, nrows, notes,
				      (size_t)nsel);
	}
	if (o.save_real) {
		free(text);
		text = kc_record_json(&rec);
		if (!text || !cal_write_atomic(o.save_real, text))
			goto out;
	}
	ret = diffs ? CAL_EXIT_FAIL : CAL_EXIT_OK;
out:
	if (boosted)
		cal_unboost(old_nice);
	free(text);
	free(rows);
	kc_record_free(&rec);
	eevdf_machine_free(m);
	return ret;
}
