/* SPDX-License-Identifier: MIT */
/*
 * eevdf-bench: how fast libeevdf simulates.  Runs a fixed table of
 * scenarios through the public API only, each run in its own forked
 * child so that peak memory (ru_maxrss) is per run and a crash or a hang
 * in one scenario cannot take the others with it.  Prints a table and
 * writes the same numbers as JSON so that commits can be compared.
 *
 * This is not part of `make test`: timings depend on the machine.  The
 * bench-smoke target runs every scenario at a tiny size to check that the
 * program works and that its JSON is well formed.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MSEC EEVDF_NSEC_PER_MSEC
#define SEC EEVDF_NSEC_PER_SEC

/* A run that takes longer than this is a hang, not a slow library. */
#define TIMEOUT_FULL_S 900
#define TIMEOUT_SMOKE_S 120

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The run's process is single-threaded: its CPU time is the library's. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Scenarios ---------------------------------------------------------------- */

static struct scenario scenarios[16];
static size_t nr_scenarios;
static bool g_digests; /* forked runs inherit it */

static struct scenario *sc_new(const char *name, enum scenario_kind kind,
			       const char *what)
{
	struct scenario *sc = &scenarios[nr_scenarios++];

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	snprintf(sc->what, sizeof(sc->what), "%s", what);
	sc->kind = kind;
	sc->hz = 1000;
	sc->nllc = 1;
	return sc;
}

static void sc_param(struct scenario *sc, const char *p)
{
	if (sc->nr_params < BENCH_MAX_PARAMS)
		sc->params[sc->nr_params++] = p;
}

static void sc_scale(long hogs, long sleepers, const char *label, int cpus,
		     eevdf_time sim_ns)
{
	char name[48];
	struct scenario *sc;

	snprintf(name, sizeof(name), "scale-%s-%d", label, cpus);
	sc = sc_new(name, SC_SCALE, "");
	if (hogs)
		snprintf(sc->what, sizeof(sc->what),
			 "%ld always-running + %ld "
			 "run-1ms/sleep-3ms tasks on %d CPUs (LLCs of 16), "
			 "unpinned",
			 hogs, sleepers, cpus);
	else
		snprintf(sc->what, sizeof(sc->what),
			 "%ld run-1ms/sleep-3ms tasks on %d CPUs (LLCs of "
			 "16): near saturation",
			 sleepers, cpus);
	sc->n = hogs;
	sc->n_sleepers = sleepers;
	sc->nr_cpus = cpus;
	/* a real machine of that size has LLCs of 8 to 64 CPUs, not one */
	sc->llc_cpus = 16;
	sc->sim_ns = sim_ns;
}

/*
 * The scenario table.  --smoke keeps every scenario but makes it
 * tiny: the point there is that each code path runs, not how fast.
 *
 * The workload parameters use the names of reference/workloads.md section
 * 12 (schbench m/t/ops/locking, hackbench groups/fds/chan, tbench
 * nprocs/timelimit); a loader that rejects one says so, and the scenario
 * is reported as skipped with its diagnostic.
 */
static void build_scenarios(bool smoke, const char *wdir)
{
	static char paths[5][512];
	struct scenario *sc;

	snprintf(paths[0], sizeof(paths[0]), "%s/schbench.json", wdir);
	snprintf(paths[1], sizeof(paths[1]), "%s/hackbench.json", wdir);
	snprintf(paths[2], sizeof(paths[2]), "%s/tbench.json", wdir);
	snprintf(paths[3], sizeof(paths[3]), "%s/machines/i7-4790.json", wdir);
	snprintf(paths[4], sizeof(paths[4]), "%s/machines/skl-server.json",
		 wdir);

	sc = sc_new("hogs", SC_HOGS,
		    "4 nice-0 + 4 nice-5 always-running "
		    "tasks on 4 CPUs, HZ 1000");
	sc->hogs0 = 4;
	sc->hogs5 = 4;
	sc->nr_cpus = 4;
	sc->sim_ns = smoke ? 500 * MSEC : 60 * SEC;

	/* schbench -m 4 -t 128 -n 0 -L on a 20-core single-LLC machine. */
	sc = sc_new("schbench-seed", SC_WORKLOAD,
		    "schbench -m 4 -t 128 -n 0 "
		    "-L, 20 CPUs, 1 LLC");
	sc->file = paths[0];
	sc->nr_cpus = 20;
	sc->nllc = 1;
	sc->sim_ns = smoke ? 10 * MSEC : 2 * SEC;
	sc_param(sc, "m=4");
	sc_param(sc, "t=128");
	sc_param(sc, "ops=0");
	sc_param(sc, "locking=0");
	sc_param(sc, smoke ? "runtime=10ms" : "runtime=2s");

	/* hackbench -g 10 -f 20 -p on an i7-4790: 4 cores x 2 SMT. */
	sc = sc_new("hackbench", SC_WORKLOAD,
		    "hackbench -g 10 -f 20 -p, "
		    "i7-4790 (8 CPUs, 1 LLC)");
	sc->file = paths[1];
	sc->machine = paths[3];
	sc->nr_cpus = 8;
	sc->nllc = 1;
	/* A fixed amount of work: the run ends when every task has exited
	 * (all_exited in the JSON); 600 s is only a cap. */
	sc->sim_ns = smoke ? 10 * MSEC : 600 * SEC;
	sc_param(sc, "groups=10");
	sc_param(sc, "fds=20");
	sc_param(sc, "chan=pipe");

	/* tbench 64 on skl-server: 2 sockets x 20 cores x 2 SMT. */
	sc = sc_new("tbench-64", SC_WORKLOAD,
		    "tbench 64 client/server pairs, "
		    "skl-server (80 CPUs, 2 LLCs)");
	sc->file = paths[2];
	sc->machine = paths[4];
	sc->nr_cpus = 80;
	sc->nllc = 2;
	sc->sim_ns = smoke ? 10 * MSEC : 2 * SEC;
	sc_param(sc, "nprocs=64");
	sc_param(sc, smoke ? "timelimit=10ms" : "timelimit=2s");

	/*
	 * The scale runs are long enough for the start-up burst (every task
	 * created at 0) to be a small part of the events measured.
	 */
	if (smoke) {
		sc_scale(10, 10, "10", 2, 200 * MSEC);
		sc_scale(100, 100, "100", 16, 200 * MSEC);
	} else {
		sc_scale(100, 100, "100", 8, 20 * SEC);
		/*
		 * Sleepers alone, each busy a quarter of the time: 250 CPUs
		 * of demand on 256, so CPUs go idle and newly-idle balance
		 * runs all the time (the near-saturation case).
		 */
		sc_scale(0, 1000, "1k", 256, 2 * SEC);
		sc_scale(10000, 10000, "10k", 256, 2 * SEC);
		sc_scale(100000, 100000, "100k", 1024, 1 * SEC);
	}
}

/* --only NAME selects NAME, or every NAME-* (so "scale" picks all sizes). */
static bool selected(const struct scenario *sc, char **only, int nr_only)
{
	if (!nr_only)
		return true;
	for (int i = 0; i < nr_only; i++) {
		size_t n = strlen(only[i]);

		if (!strcmp(sc->name, only[i]) ||
		    (!strncmp(sc->name, only[i], n) && sc->name[n] == '-'))
			return true;
	}
	return false;
}

/* The child: build, run, measure ----------------------------------------- */

static int fail(struct run_result *r, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct run_result *r, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->status = status;
	return -1;
}

static int new_sim(const struct scenario *sc, uint64_t seed, eevdf_sim **sim,
		   struct run_result *r)
{
	struct eevdf_config cfg;
	eevdf_machine *m = NULL;
	struct eevdf_diag diag;
	char err[256] = "";
	int ret;

	/* check_invariants stays false: it is a test aid, not the product. */
	eevdf_config_init(&cfg);
	cfg.name = sc->name;
	cfg.seed = seed;
	cfg.nr_cpus = sc->nr_cpus;
	cfg.hz = sc->hz;
	cfg.duration = sc->sim_ns;
	if (sc->machine) {
		if (eevdf_machine_load_file(sc->machine, &m, &diag))
			return fail(r, RS_ERROR, "%s",
				    eevdf_diag_format(&diag, err, sizeof(err)));
		cfg.machine = m;
	} else if (sc->llc_cpus && sc->nr_cpus > sc->llc_cpus) {
		int llcs = sc->nr_cpus / sc->llc_cpus;
		struct eevdf_machine_spec spec = {
			.name = "bench",
			.packages = llcs < 4 ? 1 : llcs / 4,
			.llcs_per_package = llcs < 4 ? llcs : 4,
			.cores_per_llc = sc->llc_cpus,
			.threads_per_core = 1,
		};

		ret = eevdf_machine_new(&spec, &m, err, sizeof(err));
		if (ret)
			return fail(r, RS_ERROR, "eevdf_machine_new: %s", err);
		cfg.machine = m;
	}
	ret = eevdf_sim_new(&cfg, sim, err, sizeof(err));
	eevdf_machine_free(m);
	if (ret)
		return fail(r, RS_ERROR, "eevdf_sim_new: %s: %s",
			    eevdf_strerror(ret), err);
	return 0;
}

static int add(eevdf_sim *sim, const struct eevdf_task_spec *t,
	       struct run_result *r)
{
	int ret = eevdf_sim_add_task(sim, t);

	if (ret < 0)
		return fail(r, RS_ERROR, "add task %s: %s", t->name,
			    eevdf_sim_errmsg(sim));
	return 0;
}

/*
 * Hogs loop on a 10 ms run, as the shipped workloads write them, so the
 * burst-end events a user's hog causes are part of what is measured.
 */
static const struct eevdf_op hog_prog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 1 },
	{ EEVDF_OP_RUN, 10 * MSEC, 0, 0 },
};

static const struct eevdf_op sleeper_prog[] = {
	{ EEVDF_OP_LOOP, 0, 0, 2 },
	{ EEVDF_OP_RUN, 1 * MSEC, 0, 0 },
	{ EEVDF_OP_SLEEP, 3 * MSEC, 0, 0 },
};

static int build_hogs(const struct scenario *sc, eevdf_sim **sim,
		      struct run_result *r)
{
	struct eevdf_task_spec t = { .program = hog_prog, .nr_ops = 2 };
	char name[32];

	if (new_sim(sc, 1, sim, r))
		return -1;
	t.name = name;
	for (int i = 0; i < sc->hogs0 + sc->hogs5; i++) {
		t.nice = i < sc->hogs0 ? 0 : 5;
		snprintf(name, sizeof(name), "hog%d[%d]", t.nice,
			 i < sc->hogs0 ? i : i - sc->hogs0);
		if (add(*sim, &t, r))
			return -1;
	}
	return 0;
}

/* All hogs first, then all sleepers; the fork balancer spreads them. */
static int build_scale(const struct scenario *sc, eevdf_sim **sim,
		       struct run_result *r)
{
	struct eevdf_task_spec t = { 0 };
	char name[32];

	if (new_sim(sc, 1, sim, r))
		return -1;
	t.name = name;
	for (long i = 0; i < sc->n; i++) {
		snprintf(name, sizeof(name), "spin[%ld]", i);
		t.program = hog_prog;
		t.nr_ops = 2;
		if (add(*sim, &t, r))
			return -1;
	}
	for (long i = 0; i < sc->n_sleepers; i++) {
		snprintf(name, sizeof(name), "sleep[%ld]", i);
		t.program = sleeper_prog;
		t.nr_ops = 3;
		if (add(*sim, &t, r))
			return -1;
	}
	return 0;
}

static int build_workload(const struct scenario *sc, eevdf_sim **sim,
			  struct run_result *r)
{
	struct eevdf_load_opts opts = {
		.params = sc->params,
		.nr_params = sc->nr_params,
		.ncpus = sc->nr_cpus,
		.nllc = sc->nllc,
	};
	struct eevdf_diag diag;
	eevdf_workload *wl = NULL;
	char buf[1024];
	uint64_t seed = 1;
	int ret;

	if (access(sc->file, R_OK))
		return fail(r, RS_SKIPPED, "%s: %s", sc->file, strerror(errno));
	memset(&diag, 0, sizeof(diag));
	ret = eevdf_workload_load_file_opts(sc->file, &opts, &wl, &diag);
	/*
	 * Skipped, not failed: the shipped workloads and their parameter
	 * names are still settling, and `make test` (eevdf-sim validate)
	 * is where a broken shipped file must fail.  The diagnostic says
	 * which parameter or key the loader refused.
	 */
	if (ret)
		return fail(r, RS_SKIPPED, "%s",
			    eevdf_diag_format(&diag, buf, sizeof(buf)));
	eevdf_workload_seed(wl, &seed);
	if (new_sim(sc, seed, sim, r))
		return -1;
	memset(&diag, 0, sizeof(diag));
	ret = eevdf_workload_add_tasks(wl, *sim, &diag);
	if (ret)
		return fail(r, RS_ERROR, "%s",
			    eevdf_diag_format(&diag, buf, sizeof(buf)));
	/* The workload stays allocated: its objects count as its memory. */
	return 0;
}

/*
 * FNV-1a over the results JSON: two builds that simulate the same thing
 * give the same digest, so an optimisation that changes a result shows.
 */
static uint64_t results_digest(const eevdf_sim *sim)
{
	uint64_t h = 14695981039346656037ULL;
	char *json = NULL;

	if (eevdf_sim_results_json(sim, &json))
		return 0;
	for (const unsigned char *c = (const unsigned char *)json; *c; c++) {
		h ^= *c;
		h *= 1099511628211ULL;
	}
	free(json);
	return h;
}

static void sum_cpu_stats(const eevdf_sim *sim, int nr_cpus, uint64_t *switches,
			  uint64_t *ticks)
{
	*switches = *ticks = 0;
	for (int c = 0; c < nr_cpus; c++) {
		struct eevdf_cpu_stats cs;

		if (eevdf_sim_cpu_stats(sim, c, &cs) == 0) {
			*switches += cs.switches;
			*ticks += cs.ticks;
		}
	}
}

static void child_measure(const struct scenario *sc, bool baseline,
			  struct run_result *r)
{
	eevdf_sim *sim = NULL;
	struct rusage ru;
	double t0;
	int ret;

	/*
	 * A child starts with the parent's resident pages as its high-water
	 * mark; what the run adds is measured from here, so the parent's own
	 * (slowly growing) footprint does not leak into the figures.
	 */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		r->startrss_kib = ru.ru_maxrss;
	t0 = wall_now();
	if (baseline) {
		/*
		 * The floor every run stands on: the process, the parent's
		 * pages it shares, and an empty 1-CPU simulation.  One hog
		 * runs on it for 10 ms because ru_maxrss also counts the
		 * library's code pages, faulted in lazily by each child:
		 * without them in the baseline, the first few KiB of code
		 * a run touches would be charged to its tasks.
		 */
		struct scenario empty = *sc;

		empty.nr_cpus = 1;
		empty.hogs0 = 1;
		empty.hogs5 = 0;
		empty.sim_ns = 10 * MSEC;
		if (build_hogs(&empty, &sim, r))
			return;
		if (eevdf_sim_run(sim, empty.sim_ns)) {
			fail(r, RS_ERROR, "eevdf_sim_run: %s",
			     eevdf_sim_errmsg(sim));
			return;
		}
	} else if (sc->kind == SC_HOGS) {
		if (build_hogs(sc, &sim, r))
			return;
	} else if (sc->kind == SC_SCALE) {
		if (build_scale(sc, &sim, r))
			return;
	} else if (build_workload(sc, &sim, r)) {
		return;
	}
	r->setup_s = wall_now() - t0;
	r->nr_tasks = eevdf_sim_nr_tasks(sim);
	r->nr_cpus = eevdf_sim_nr_cpus(sim);

	if (!baseline) {
		uint64_t ev1;
		double t1, c0, c1;

		/*
		 * Two halves: the whole run is what a user waits for; the
		 * second half alone is the steady state, without the burst
		 * of every task being created at time 0.
		 */
		c0 = cpu_now();
		t0 = wall_now();
		ret = eevdf_sim_run(sim, sc->sim_ns / 2);
		t1 = wall_now();
		c1 = cpu_now();
		ev1 = eevdf_sim_nr_events(sim);
		if (!ret)
			ret = eevdf_sim_run(sim, sc->sim_ns);
		r->wall_s = wall_now() - t0;
		r->cpu_s = cpu_now() - c0;
		r->wall2_s = r->wall_s - (t1 - t0);
		r->cpu2_s = r->cpu_s - (c1 - c0);
		if (ret) {
			fail(r, RS_ERROR, "eevdf_sim_run: %s: %s",
			     eevdf_strerror(ret), eevdf_sim_errmsg(sim));
			return;
		}
		r->sim_ns = eevdf_sim_now(sim);
		r->all_exited = eevdf_sim_done(sim);
		sum_cpu_stats(sim, r->nr_cpus, &r->switches, &r->ticks);
		r->events = eevdf_sim_nr_events(sim);
		r->events2 = r->events - ev1;
		if (g_digests)
			r->digest = results_digest(sim);
	}
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		r->maxrss_kib = ru.ru_maxrss; /* KiB on Linux */
	r->status = RS_OK;
	/* No eevdf_sim_free(): the process ends here and freeing 200k tasks
	 * would only slow the benchmark down. */
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static size_t read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* One measured run of sc in a fresh child process. */
static void run_forked(const struct scenario *sc, bool baseline,
		       unsigned int timeout_s, struct run_result *r)
{
	int fds[2], st;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(NULL);
	if (pipe(fds)) {
		fail(r, RS_ERROR, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		fail(r, RS_ERROR, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		alarm(timeout_s);
		child_measure(sc, baseline, r);
		_exit(write_all(fds[1], r, sizeof(*r)) ? 3 : 0);
	}
	close(fds[1]);
	if (read_all(fds[0], r, sizeof(*r)) != sizeof(*r))
		memset(r, 0, sizeof(*r));
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		fail(r, RS_ERROR, "the run was killed by signal %d%s",
		     WTERMSIG(st),
		     WTERMSIG(st) == SIGALRM ? " (timed out)" : "");
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail(r, RS_ERROR, "the run exited with status %d",
		     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	r->msg[sizeof(r->msg) - 1] = '\0';
}

/* The parent: runs, medians, output -------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[BENCH_MAX_RUNS];

	if (n <= 0)
		return 0;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * One run of row's scenario: a warm-up is only printed; a measured run's
 * figures join the row's.  A row that failed runs no more.
 */
static void bench_run(struct bench_row *row, const struct bench_meta *m,
		      bool warm)
{
	unsigned int timeout = m->smoke ? TIMEOUT_SMOKE_S : TIMEOUT_FULL_S;
	struct run_result r;

	if (row->status != RS_OK)
		return;
	run_forked(row->sc, false, timeout, &r);
	if (r.status != RS_OK) {
		row->status = r.status;
		memcpy(row->msg, r.msg, sizeof(row->msg));
		fprintf(stderr, "bench: %-16s %s: %s\n", row->sc->name,
			r.status == RS_SKIPPED ? "skipped" : "error", r.msg);
		return;
	}
	fprintf(stderr, "bench: %-16s %s%.3gs\n", row->sc->name,
		warm ? "(warm-up) " : "", r.wall_s);
	if (warm)
		return;
	/* The simulation is deterministic: every run must agree. */
	if (row->nr_wall &&
	    (r.sim_ns != row->sim_ns || r.switches != row->switches ||
	     r.ticks != row->ticks || r.events != row->events ||
	     r.events2 != row->events2 || r.digest != row->digest ||
	     r.nr_tasks != row->nr_tasks))
		row->nondeterministic = true;
	row->nr_tasks = r.nr_tasks;
	row->nr_cpus = r.nr_cpus;
	row->sim_ns = r.sim_ns;
	row->all_exited = r.all_exited;
	row->sim_s = (double)r.sim_ns / 1e9;
	row->switches = r.switches;
	row->ticks = r.ticks;
	row->events = r.events;
	row->events2 = r.events2;
	row->digest = r.digest;
	row->setup[row->nr_wall] = r.setup_s;
	row->wall2[row->nr_wall] = r.wall2_s;
	row->cpu[row->nr_wall] = r.cpu_s;
	row->cpu2[row->nr_wall] = r.cpu2_s;
	row->wall[row->nr_wall++] = r.wall_s;
	if (r.maxrss_kib > row->maxrss_kib)
		row->maxrss_kib = r.maxrss_kib;
	if (r.maxrss_kib - r.startrss_kib > row->grow_kib)
		row->grow_kib = r.maxrss_kib - r.startrss_kib;
}

/* The medians and spread of a row whose runs are done. */
static void bench_finish(struct bench_row *row)
{
	if (row->status != RS_OK)
		return;
	row->wall_med = median(row->wall, row->nr_wall);
	row->setup_med = median(row->setup, row->nr_wall);
	row->wall2_med = median(row->wall2, row->nr_wall);
	row->cpu_med = median(row->cpu, row->nr_wall);
	row->cpu2_med = median(row->cpu2, row->nr_wall);
	row->wall_min = row->wall_max = row->wall[0];
	for (int i = 1; i < row->nr_wall; i++) {
		if (row->wall[i] < row->wall_min)
			row->wall_min = row->wall[i];
		if (row->wall[i] > row->wall_max)
			row->wall_max = row->wall[i];
	}
	if (row->nondeterministic) {
		row->status = RS_ERROR;
		snprintf(row->msg, sizeof(row->msg),
			 "runs disagree on the "
			 "simulated result (determinism broken)");
	}
}

/*
 * Every scenario's runs, in rounds: each round runs each scenario once,
 * in order.  The ratio targets compare two scenarios' medians, so both
 * sample the same stretch of a shared machine's noise; run one scenario
 * after another, a slow minute fell on one side of a ratio only: the
 * (100k, 1024) / (100, 8) ratio read 3.60x and then 2.17x in two bench
 * runs on nearly the same code, its denominator at 196 and 350 ns an
 * event.
 */
static void bench_all(struct bench_row *rows, size_t n,
		      const struct bench_meta *m)
{
	for (int i = 0; i < m->warmup + m->runs; i++)
		for (size_t k = 0; k < n; k++)
			bench_run(&rows[k], m, i < m->warmup);
	for (size_t k = 0; k < n; k++)
		bench_finish(&rows[k]);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: eevdf-bench [--smoke] [--only NAME]... [--runs N] "
		"[--digests F | --write-digests F] "
		"[--json FILE]\n"
		"                   [--workloads DIR] [--list]\n"
		"       eevdf-bench --check-json FILE\n"
		"  --smoke        every scenario at a tiny size, 1 run, no "
		"warm-up\n"
		"  --only NAME    run NAME (or every NAME-*, e.g. scale); "
		"repeatable\n"
		"  --runs N       measured runs per scenario (default 5, after "
		"1 warm-up)\n"
		"  --json FILE    where to write the JSON (default "
		"build/bench.json)\n"
		"  --workloads D  directory of schbench.json, hackbench.json, "
		"tbench.json\n"
		"  --list         print the scenario names and exit\n"
		"  --check-json F exit 0 when F is well-formed JSON\n"
		"  --digests F    fail unless every scenario's results digest "
		"equals F's\n"
		"  --write-digests F  store the results digests in F\n");
}

/*
 * --digests FILE: every scenario's results digest must equal the one FILE
 * stores for it ("NAME HEX" lines); --write-digests FILE stores them.
 */
static int digests_write(const char *path, const struct bench_row *rows,
			 size_t nr)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "# eevdf-bench --smoke results digests (FNV-1a of each "
		   "scenario's results JSON)\n");
	for (size_t i = 0; i < nr; i++)
		if (rows[i].status == RS_OK)
			fprintf(f, "%s %016llx\n", rows[i].sc->name,
				(unsigned long long)rows[i].digest);
	return fclose(f) ? 1 : 0;
}

/* line is "NAME HEX-DIGEST" for scenario name: the digest in *out. */
static bool digest_line(const char *line, const char *name,
			unsigned long long *out)
{
	size_t n = strlen(name);
	char *end;

	if (strncmp(line, name, n) != 0 || line[n] != ' ')
		return false;
	errno = 0;
	*out = strtoull(line + n + 1, &end, 16);
	return end != line + n + 1 && errno == 0;
}

static int digests_check(const char *path, const struct bench_row *rows,
			 size_t nr)
{
	char line[256];
	unsigned long long want = 0;
	int bad = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return 1;
	}
	for (size_t i = 0; i < nr; i++) {
		bool found = false;

		if (rows[i].status != RS_OK)
			continue;
		rewind(f);
		while (fgets(line, sizeof(line), f))
			if (digest_line(line, rows[i].sc->name, &want)) {
				found = true;
				break;
			}
		if (!found) {
			fprintf(stderr, "eevdf-bench: %s: no digest for %s\n",
				path, rows[i].sc->name);
			bad = 1;
		} else if (want != rows[i].digest) {
			fprintf(stderr,
				"eevdf-bench: %s: results changed: "
				"digest %016llx, stored %016llx\n",
				rows[i].sc->name,
				(unsigned long long)rows[i].digest, want);
			bad = 1;
		} else {
			printf("digest %-16s %016llx ok\n", rows[i].sc->name,
			       want);
		}
	}
	fclose(f);
	return bad;
}

int main(int argc, char **argv)
{
	const char *check_digests = NULL, *write_digests = NULL;
	static struct bench_row rows[16];
	struct bench_meta m = { .runs = 5, .warmup = 1 };
	const char *json = "build/bench.json", *wdir = "workloads";
	char *only[16];
	int nr_only = 0, nr_err = 0;
	bool list = false, runs_set = false;
	size_t nr_rows = 0;
	struct run_result base;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--smoke")) {
			m.smoke = true;
		} else if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (v && !strcmp(a, "--check-json")) {
			return bench_json_check_file(v) ? 1 : 0;
		} else if (v && !strcmp(a, "--only") && nr_only < 16) {
			only[nr_only++] = argv[++i];
		} else if (v && !strcmp(a, "--json")) {
			json = argv[++i];
		} else if (v && !strcmp(a, "--digests")) {
			check_digests = argv[++i];
		} else if (v && !strcmp(a, "--write-digests")) {
			write_digests = argv[++i];
		} else if (v && !strcmp(a, "--workloads")) {
			wdir = argv[++i];
		} else if (v && !strcmp(a, "--runs")) {
			char *end;
			long n = strtol(v, &end, 10);

			if (*end || n < 1 || n > BENCH_MAX_RUNS) {
				fprintf(stderr,
					"eevdf-bench: --runs wants "
					"1..%d\n",
					BENCH_MAX_RUNS);
				return 2;
			}
			m.runs = (int)n;
			runs_set = true;
			i++;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (m.smoke) {
		m.warmup = 0;
		if (!runs_set)
			m.runs = 1;
	}
	g_digests = check_digests || write_digests;
	m.digests = g_digests;
	m.lib_version = eevdf_version_string();
	m.have_load_opts = true;
	build_scenarios(m.smoke, wdir);
	if (list) {
		for (size_t i = 0; i < nr_scenarios; i++)
			printf("%-16s %s\n", scenarios[i].name,
			       scenarios[i].what);
		return 0;
	}
	for (int i = 0; i < nr_only; i++) {
		bool any = false;

		for (size_t k = 0; k < nr_scenarios; k++)
			any |= selected(&scenarios[k], &only[i], 1);
		if (!any) {
			fprintf(stderr,
				"eevdf-bench: no scenario '%s' (see "
				"--list)\n",
				only[i]);
			return 2;
		}
	}

	run_forked(&scenarios[0], true, TIMEOUT_SMOKE_S, &base);
	if (base.status != RS_OK) {
		fprintf(stderr, "eevdf-bench: baseline run failed: %s\n",
			base.msg);
		return 1;
	}
	m.baseline_kib = base.maxrss_kib - base.startrss_kib;
	m.baseline_peak_kib = base.maxrss_kib;

	for (size_t i = 0; i < nr_scenarios; i++) {
		if (!selected(&scenarios[i], only, nr_only))
			continue;
		rows[nr_rows++] = (struct bench_row){ .sc = &scenarios[i],
						      .status = RS_OK };
	}
	bench_all(rows, nr_rows, &m);
	for (size_t k = 0; k < nr_rows; k++) {
		bench_derive(&rows[k], m.baseline_kib);
		if (rows[k].status == RS_ERROR)
			nr_err++;
	}
	bench_print_table(stdout, &m, rows, nr_rows);
	if (bench_write_json(json, &m, rows, nr_rows))
		return 1;
	printf("# JSON: %s\n", json);
	if (write_digests && digests_write(write_digests, rows, nr_rows))
		return 1;
	if (check_digests && digests_check(check_digests, rows, nr_rows))
		return 1;
	return nr_err ? 1 : 0;
}
