/* SPDX-License-Identifier: MIT */
/*
 * Benchmark reports: each formatter prints the lines of the real tool
 * (shared/reference/workloads.md sections 1.6, 2.4, 3.1, 4.3, 5.1) from
 * the workload's metrics, so scripts that parse the real output parse
 * ours.  Floating point appears only here, in formatting.
 */
#include <stdarg.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/strbuf.h"
#include "engine/metrics.h"
#include "engine/sim.h"

struct rctx {
	const struct eevdf_sim *sim;
	eevdf_report_opt_fn opt;
	void *ud;
	struct sb out;
	char *err;
	size_t errlen;
	/* the headline numbers the formatter printed, in print order */
	struct eevdf_headline head[EEVDF_HEADLINES_MAX];
	size_t nr_head;
};

/*
 * Note a headline number next to the line that prints it, so the number a
 * script compares is the number the report shows.
 */
static void headline(struct rctx *c, const char *name, const char *unit,
		     int better, double value)
{
	if (c->nr_head == EEVDF_HEADLINES_MAX)
		return;
	c->head[c->nr_head++] = (struct eevdf_headline){
		.name = name,
		.unit = unit,
		.better = better,
		.value = value,
	};
}

/* The permille-th percentile of h, or 0 for an empty histogram. */
static double pct_of(struct eevdf_hist *h, unsigned int permille)
{
	struct eevdf_hist_pct p;

	if (!h || !eevdf__hist_count(h) ||
	    eevdf__hist_percentiles(h, &permille, 1, &p))
		return 0;
	return (double)p.value;
}

static int fail(struct rctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct rctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return EEVDF_EINVAL;
}

static long long opt_int(struct rctx *c, const char *key, long long dflt)
{
	const char *v = c->opt ? c->opt(c->ud, key) : NULL;
	char *end;
	long long x;

	if (!v || !*v)
		return dflt;
	x = strtoll(v, &end, 10);
	return *end ? dflt : x;
}

static const char *opt_str(struct rctx *c, const char *key, const char *dflt)
{
	const char *v = c->opt ? c->opt(c->ud, key) : NULL;

	return v && *v ? v : dflt;
}

static struct metric *metric(struct rctx *c, const char *name,
			     enum metric_type type, bool required, int *err)
{
	const struct eevdf_sim *sim = c->sim;

	/* report the first problem only */
	if (*err)
		return NULL;
	for (size_t i = 0; i < sim->nr_metrics; i++) {
		struct metric *m = sim->metrics[i];

		if (strcmp(m->name, name) != 0)
			continue;
		if (m->type != type) {
			*err = fail(c,
				    "metric '%s' has the wrong type for "
				    "this report",
				    name);
			return NULL;
		}
		return m;
	}
	if (required)
		*err = fail(c, "this report needs a metric '%s'", name);
	return NULL;
}

/* Glob match with '*' only, the workload format's task patterns. */
static bool glob(const char *pat, const char *s)
{
	if (!*pat)
		return !*s;
	if (*pat == '*')
		return glob(pat + 1, s) || (*s && glob(pat, s + 1));
	return *s == *pat && glob(pat + 1, s + 1);
}

/* Seconds and truncated milliseconds, as "%lu.%03lu". */
static void sb_secs_ms(struct sb *b, eevdf_time ns)
{
	sb_printf(b, "%lld.%03lld", (long long)(ns / EEVDF_NSEC_PER_SEC),
		  (long long)(ns % EEVDF_NSEC_PER_SEC / EEVDF_NSEC_PER_MSEC));
}

/* The same truncated to milliseconds, as a number. */
static double secs_ms(eevdf_time ns)
{
	/* NOLINTNEXTLINE(bugprone-integer-division): truncated on purpose */
	return (double)(ns / EEVDF_NSEC_PER_MSEC) / 1e3;
}

/* schbench ------------------------------------------------------------- */

/*
 * One schbench block (show_latencies()) from a histogram's summary: the
 * same code prints the blocks at the end, from the live histograms, and
 * those of the interval reports, from what the snapshots kept.
 */
static void schbench_block(struct rctx *c, const struct eevdf_hist_summary *sum,
			   const char *label, const char *units,
			   unsigned long long runtime, bool rps)
{
	struct eevdf_hist_report rep = {
		.label = label,
		.units = units,
		.runtime = runtime,
		.plist = NULL,
		.nplist = 0,
		.mask = rps ? EEVDF_HIST_SCHBENCH_MASK_RPS :
			      EEVDF_HIST_SCHBENCH_MASK_LAT,
		.star = rps ? EEVDF_HIST_SCHBENCH_STAR_RPS :
			      EEVDF_HIST_SCHBENCH_STAR_LAT,
	};
	int n = eevdf__hist_schbench_snprint_summary(NULL, 0, sum, &rep);
	char *tmp;

	if (n < 0) {
		c->out.err = n;
		return;
	}
	tmp = malloc((size_t)n + 1);
	if (!tmp) {
		c->out.err = EEVDF_ENOMEM;
		return;
	}
	eevdf__hist_schbench_snprint_summary(tmp, (size_t)n + 1, sum, &rep);
	sb_printf(&c->out, "%s", tmp);
	free(tmp);
}

/* The block of a metric as it is now; no sample yet is an empty block. */
static void schbench_live(struct rctx *c, struct metric *m, const char *label,
			  const char *units, unsigned long long runtime,
			  bool rps)
{
	struct eevdf_hist_summary sum;
	int r = eevdf__hist_summarize(m ? m->all.hist : NULL, NULL, 0, &sum);

	if (r) {
		c->out.err = r;
		return;
	}
	schbench_block(c, &sum, label, units, runtime, rps);
}

/*
 * schbench's collect_sched_delay(): each task's run_delay / pcount,
 * averaged over the tasks of the group, in us; the tasks' live stats, or
 * those of an interval snapshot.  Tasks that never waited are left out
 * (schbench would divide by their pcount of 0).
 */
static unsigned long long sched_delay_us(struct rctx *c, const char *pat,
					 const struct metric_snap *snap)
{
	size_t nt = snap ? snap->nr_tasks : c->sim->sched.nr_tasks;
	u64 sum = 0, n = 0;

	for (size_t i = 0; i < nt; i++) {
		struct eevdf_task_stats st;
		const char *name;
		u64 wait, count;

		if (snap) {
			name = eevdf__sim_task_name(c->sim, (int)i + 1);
			wait = snap->tasks[i].wait_ns;
			count = snap->tasks[i].delay_count;
		} else {
			eevdf_sim_task_stats(c->sim, i, &st);
			name = st.name;
			wait = (u64)st.wait_ns;
			count = st.delay_count;
		}
		if (!glob(pat, name) || !count)
			continue;
		sum += wait / count;
		n++;
	}
	return n ? (unsigned long long)(sum / n / 1000) : 0;
}

static void schbench_sched_delay(struct rctx *c, const struct metric_snap *snap)
{
	sb_printf(&c->out,
		  "sched delay: message %llu (usec) worker %llu "
		  "(usec)\n",
		  sched_delay_us(c, opt_str(c, "message_tasks", "msg*"), snap),
		  sched_delay_us(c, opt_str(c, "worker_tasks", "worker*"),
				 snap));
}

/* Where metric m, one of the simulation's, is among them: the index of
 * its cell in every snapshot. */
static size_t metric_index(struct rctx *c, const struct metric *m)
{
	size_t i = 0;

	while (i + 1 < c->sim->nr_metrics && c->sim->metrics[i] != m)
		i++;
	return i;
}

/*
 * The periodic report of schbench's sleep_for_runtime() at every interval
 * snapshot: the three blocks as at the end, with the elapsed seconds for
 * runtime, then the sched delay and "current rps", the RPS of the last
 * second (the rate's last sample; without a rate, the requests of the
 * last interval per second).  Wakeup and request latencies and the RPS
 * percentiles are cumulative, as schbench's are (its per-thread stats are
 * only zeroed at the warmup, and so are ours).
 */
static void schbench_interval(struct rctx *c, const struct metric_snap *snap,
			      const struct metric_snap *prev, size_t wake,
			      size_t req, const struct metric *rps, size_t reqs)
{
	unsigned long long secs = (unsigned long long)(snap->at /
						       EEVDF_NSEC_PER_SEC);
	double current = 0;

	schbench_block(c, &snap->cells[wake].hist, "Wakeup Latencies", "usec",
		       secs, false);
	schbench_block(c, &snap->cells[req].hist, "Request Latencies", "usec",
		       secs, false);
	if (rps)
		schbench_block(c, &snap->cells[metric_index(c, rps)].hist,
			       "RPS", "requests", secs, true);
	schbench_sched_delay(c, snap);
	if (rps) {
		current = (double)snap->cells[metric_index(c, rps)].value;
	} else {
		s64 d = snap->cells[reqs].value -
			(prev ? prev->cells[reqs].value : 0);
		eevdf_time dt = snap->at - (prev ? prev->at : 0);

		current = (double)d * 1e9 / (double)dt;
	}
	sb_printf(&c->out, "current rps: %.2f\n", current);
}

static int report_schbench(struct rctx *c)
{
	int err = 0;
	struct metric *wake = metric(c, "wakeup", MET_HIST, true, &err);
	struct metric *req = metric(c, "request", MET_HIST, true, &err);
	struct metric *rps = metric(c, "rps", MET_RATE, false, &err);
	struct metric *reqs = metric(c, "requests", MET_COUNTER, true, &err);
	long long runtime = opt_int(c, "runtime",
				    c->sim->sched.now / EEVDF_NSEC_PER_SEC);
	const struct metric_snaps *snaps = eevdf__metric_snaps(c->sim);

	if (err)
		return err;
	for (size_t i = 0; snaps && i < snaps->nr; i++)
		schbench_interval(c, &snaps->v[i], i ? &snaps->v[i - 1] : NULL,
				  metric_index(c, wake), metric_index(c, req),
				  rps, metric_index(c, reqs));
	if (runtime <= 0)
		runtime = 1;
	schbench_live(c, wake, "Wakeup Latencies", "usec",
		      (unsigned long long)runtime, false);
	schbench_live(c, req, "Request Latencies", "usec",
		      (unsigned long long)runtime, false);
	if (rps)
		schbench_live(c, rps, "RPS", "requests",
			      (unsigned long long)runtime, true);
	/* loop_count is never reset at warmup, so neither is this */
	sb_printf(&c->out, "average rps: %.2f\n",
		  (double)reqs->all.value / (double)runtime);
	headline(c, "average_rps", "rps", +1,
		 (double)reqs->all.value / (double)runtime);
	headline(c, "wakeup_p99_us", "us", -1,
		 pct_of(wake ? wake->all.hist : NULL, 990));
	headline(c, "request_p99_us", "us", -1,
		 pct_of(req ? req->all.hist : NULL, 990));
	schbench_sched_delay(c, NULL);
	return 0;
}

/* hackbench and perf bench sched messaging ----------------------------- */

/* The measured time: the workload's "time" value, else the run. */
static eevdf_time measured(struct rctx *c)
{
	int err = 0;
	struct metric *t = metric(c, "time", MET_VALUE, false, &err);

	if (t && t->all.set)
		return t->all.value;
	return c->sim->sched.now;
}

static int report_hackbench(struct rctx *c)
{
	long long groups = opt_int(c, "groups", 10);
	long long fds = opt_int(c, "fds", 20);
	const char *mode = opt_str(c, "mode", "process");

	sb_printf(&c->out,
		  "Running in %s mode with %lld groups using %lld "
		  "file descriptors each (== %lld tasks)\n",
		  mode, groups, 2 * fds, groups * 2 * fds);
	sb_printf(&c->out,
		  "Each sender will pass %lld messages of %lld "
		  "bytes\n",
		  opt_int(c, "loops", 100), opt_int(c, "datasize", 100));
	sb_printf(&c->out, "Time: ");
	sb_secs_ms(&c->out, measured(c));
	sb_printf(&c->out, "\n");
	headline(c, "time_s", "s", -1, secs_ms(measured(c)));
	return 0;
}

static int report_perf_messaging(struct rctx *c)
{
	long long groups = opt_int(c, "groups", 10);
	long long fds = opt_int(c, "fds", 20);
	bool threads = strcmp(opt_str(c, "mode", "process"), "thread") == 0;
	const char *what = threads ? "threads" : "processes";

	sb_printf(&c->out, "# Running 'sched/messaging' benchmark:\n");
	sb_printf(&c->out, "# %lld sender and receiver %s per group\n", fds,
		  what);
	sb_printf(&c->out, "# %lld groups == %lld %s run\n\n", groups,
		  groups * 2 * fds, what);
	sb_printf(&c->out, "     Total time: ");
	sb_secs_ms(&c->out, measured(c));
	sb_printf(&c->out, " [sec]\n");
	headline(c, "time_s", "s", -1, secs_ms(measured(c)));
	return 0;
}

static int report_perf_pipe(struct rctx *c)
{
	long long loops = opt_int(c, "loops", 1000000);
	bool threads = strcmp(opt_str(c, "mode", "process"), "thread") == 0;
	eevdf_time t = measured(c);
	double usecs = (double)t / 1e3 / (double)(loops ? loops : 1);

	sb_printf(&c->out, "# Running 'sched/pipe' benchmark:\n");
	sb_printf(&c->out,
		  "# Executed %lld pipe operations between two "
		  "%s\n\n",
		  loops, threads ? "threads" : "processes");
	sb_printf(&c->out, "     Total time: ");
	sb_secs_ms(&c->out, t);
	sb_printf(&c->out, " [sec]\n\n");
	sb_printf(&c->out, "%15.6f usecs/op\n", usecs);
	sb_printf(&c->out, "%15lld ops/sec\n",
		  t ? (long long)((s128)loops * EEVDF_NSEC_PER_SEC / t) : 0);
	headline(c, "usecs_per_op", "us", -1, usecs);
	headline(c, "ops_per_sec", "ops/s", +1,
		 /* NOLINTNEXTLINE(bugprone-integer-division): whole ops/s */
		 t ? (double)((s128)loops * EEVDF_NSEC_PER_SEC / t) : 0);
	return 0;
}

/* tbench / dbench ------------------------------------------------------- */

/*
 * dbench's progress lines (sig_alarm()), from the per-second latency
 * hist and bytes counter the nbench op keeps: warmup lines each second,
 * none at the second the warmup ends (dbench resets its clock there),
 * then execute lines counted from the warmup's end.  Latency is the
 * longest op that finished in that second; MB/s is dbench's average
 * since the start (warmup) or since the warmup (execute).  Returns the
 * last execute line's MB/s, which dbench prints as its Throughput.
 */
static double dbench_progress(struct rctx *c, struct metric *lat,
			      struct metric *bytes, long long clients)
{
	long long warmup = opt_int(c, "warmup", 0), secs, lines = 0;
	s64 total = 0, since = 0;
	double mbs = 0;

	secs = (long long)(c->sim->sched.now / EEVDF_NSEC_PER_SEC);
	for (long long k = 1; k <= secs; k++) {
		s64 b = 0, lmax = 0;

		for (u32 i = 0; i < lat->nr_cells; i++)
			if (lat->cells[i].key == k - 1 && lat->cells[i].hist) {
				lines += (long long)eevdf__hist_count(
					lat->cells[i].hist);
				lmax = eevdf__hist_max(lat->cells[i].hist);
			}
		for (u32 i = 0; bytes && i < bytes->nr_cells; i++)
			if (bytes->cells[i].key == k - 1 &&
			    bytes->cells[i].hist)
				b = eevdf__hist_sum(bytes->cells[i].hist);
		total += b;
		if (k < warmup) {
			sb_printf(&c->out,
				  "%4lld  %8lld  %7.2f MB/sec  warmup %3.0f sec"
				  "  latency %.03f ms\n",
				  clients, clients ? lines / clients : 0,
				  1.0e-6 * (double)total / (double)k, (double)k,
				  (double)lmax / 1e6);
		} else if (k == warmup) {
			since = total;
		} else {
			mbs = 1.0e-6 * (double)(total - since) /
			      (double)(k - warmup);
			sb_printf(
				&c->out,
				"%4lld  %8lld  %7.2f MB/sec  execute %3.0f sec"
				"  latency %.03f ms\n",
				clients, clients ? lines / clients : 0, mbs,
				(double)(k - warmup), (double)lmax / 1e6);
		}
	}
	return mbs;
}

/*
 * dbench prints its table in its backend's op order (fileio.c's ops[]):
 * the j-th row is the cell of the j-th of those names the run has, then
 * any other names in key order.
 */
static u32 fileio_order(const struct eevdf_sim *sim, const struct metric *m,
			u32 j)
{
	static const char *const order[] = {
		"Deltree",
		"Flush",
		"Close",
		"LockX",
		"Rmdir",
		"Mkdir",
		"Rename",
		"ReadX",
		"WriteX",
		"Unlink",
		"UnlockX",
		"FIND_FIRST",
		"SET_FILE_INFORMATION",
		"QUERY_FILE_INFORMATION",
		"QUERY_PATH_INFORMATION",
		"QUERY_FS_INFORMATION",
		"NTCreateX",
	};
	u32 seen = 0;

	for (size_t o = 0; o < ARRAY_SIZE(order); o++)
		for (u32 k = 0; k < m->nr_cells; k++) {
			const char *n = eevdf__sim_string(sim, m->cells[k].key);

			if (n && strcmp(n, order[o]) == 0 && seen++ == j)
				return k;
		}
	for (u32 k = 0; k < m->nr_cells; k++) {
		const char *n = eevdf__sim_string(sim, m->cells[k].key);
		bool listed = false;

		for (size_t o = 0; n && o < ARRAY_SIZE(order); o++)
			listed |= strcmp(n, order[o]) == 0;
		if (!listed && seen++ == j)
			return k;
	}
	return j;
}

static int report_dbench(struct rctx *c)
{
	int err = 0;
	struct metric *bytes = metric(c, "bytes", MET_COUNTER, true, &err);
	struct metric *oplat = metric(c, "oplat", MET_HIST, true, &err);
	struct metric *sec = metric(c, "per_second", MET_HIST, false, &err);
	struct metric *secb = metric(c, "per_second_bytes", MET_HIST, false,
				     &err);
	const struct eevdf_sim *sim = c->sim;
	long long clients = opt_int(c, "clients", 1);
	const char *loadfile = opt_str(c, "loadfile", NULL);
	eevdf_time since = sim->warmup_ev.time, span;
	s64 maxlat = 0;
	double mbs, last = -1;

	if (err)
		return err;
	if (loadfile) {
		/* dbench 4's own lines (dbench.c main(), create_procs()) */
		sb_printf(&c->out,
			  "dbench version 4.00 - Copyright Andrew Tridgell "
			  "1999-2004\n\n"
			  "Running for %lld seconds with load '%s' and minimum "
			  "warmup %lld secs\n"
			  "Waiting for child processes to finish setup.\n"
			  "Releasing clients\n",
			  opt_int(c, "timelimit", 0), loadfile,
			  opt_int(c, "warmup", 0));
		if (sec)
			last = dbench_progress(c, sec, secb, clients);
	}
	span = sim->sched.now - since;
	sb_printf(&c->out,
		  "\n Operation                Count    AvgLat    "
		  "MaxLat\n --------------------------------------------"
		  "------\n");
	for (u32 j = 0; j < oplat->nr_cells; j++) {
		u32 k = loadfile ? fileio_order(sim, oplat, j) : j;
		struct metric_cell *cell = &oplat->cells[k];
		struct eevdf_hist *h = cell->hist;
		const char *name = eevdf__sim_string(sim, cell->key);

		if (!h || !eevdf__hist_count(h))
			continue;
		sb_printf(&c->out, " %-22s %7llu %9.03f %9.03f\n",
			  name ? name : "?",
			  (unsigned long long)eevdf__hist_count(h),
			  (double)eevdf__hist_mean(h) / 1e6,
			  (double)eevdf__hist_max(h) / 1e6);
		if (eevdf__hist_max(h) > maxlat)
			maxlat = eevdf__hist_max(h);
	}
	mbs = span > 0 ? (double)bytes->all.value / 1e6 / ((double)span / 1e9) :
			 0.0;
	/* dbench's Throughput is its last execute line's figure */
	if (last >= 0)
		mbs = last;
	sb_printf(&c->out,
		  "\nThroughput %g MB/sec  %lld clients  %lld procs "
		  " max_latency=%.03f ms\n",
		  mbs, clients, clients, (double)maxlat / 1e6);
	headline(c, "throughput_mb_s", "MB/s", +1, mbs);
	headline(c, "max_latency_ms", "ms", -1, (double)maxlat / 1e6);
	return 0;
}

/* massive_intr ----------------------------------------------------------- */

/* When the task of pid key exited; 0 for a key that is not a pid. */
static eevdf_time exit_time(const struct eevdf_sim *sim, s64 key)
{
	if (key <= 0 || (size_t)key > sim->sched.nr_tasks)
		return 0;
	return eevdf__sim_task_exited_at(sim, (int)key);
}

static int report_massive_intr(struct rctx *c)
{
	int err = 0;
	struct metric *loops = metric(c, "loops", MET_VALUE, true, &err);
	const struct eevdf_sim *sim = c->sim;
	s64 total = 0, lo = 0, hi = 0;
	u32 *order;
	u32 n = 0;

	if (err)
		return err;
	order = malloc((loops->nr_cells + 1) * sizeof(*order));
	if (!order)
		return EEVDF_ENOMEM;
	for (u32 k = 0; k < loops->nr_cells; k++)
		order[n++] = k;
	/* in exit order, as the children print under their semaphore */
	for (u32 i = 1; i < n; i++) {
		u32 x = order[i], j = i;
		s64 kx = loops->cells[x].key;
		eevdf_time tx = exit_time(sim, kx);

		while (j > 0) {
			s64 ky = loops->cells[order[j - 1]].key;
			eevdf_time ty = exit_time(sim, ky);

			if (ty < tx || (ty == tx && ky < kx))
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	for (u32 i = 0; i < n; i++) {
		s64 v = loops->cells[order[i]].value;

		sb_printf(&c->out, "%06lld\t%08lld\n",
			  (long long)loops->cells[order[i]].key, (long long)v);
		total += v;
		lo = i == 0 || v < lo ? v : lo;
		hi = i == 0 || v > hi ? v : hi;
	}
	free(order);
	/* massive_intr is read for fairness: the spread matters most */
	headline(c, "loops_total", "loops", +1, (double)total);
	headline(c, "loops_min", "loops", +1, (double)lo);
	headline(c, "loops_spread", "loops", -1, (double)(hi - lo));
	return 0;
}

/* cyclictest ------------------------------------------------------------ */

/*
 * One line per thread, from the keyed "lat" histogram (key = thread
 * index, samples in us): T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld
 * Act:%5ld Avg:%5ld Max:%8ld.
 */
static int report_cyclictest(struct rctx *c)
{
	int err = 0;
	struct metric *lat = metric(c, "lat", MET_HIST, true, &err);
	long long interval = opt_int(c, "interval_us", 1000);
	long long distance = opt_int(c, "distance_us", 500);
	const char *tname = opt_str(c, "tasks", "cyclictest*");
	long long prio = opt_int(c, "priority", 0);
	s64 max = 0;
	double avg = 0; /* the worst thread's */

	if (err)
		return err;
	for (u32 k = 0; k < lat->nr_cells; k++) {
		struct metric_cell *cell = &lat->cells[k];
		struct eevdf_hist *h = cell->hist;
		long long pid = 0;
		size_t seen = 0;

		/* the k-th task of the pattern is thread k */
		for (size_t i = 0; i < c->sim->sched.nr_tasks; i++) {
			if (!glob(tname,
				  eevdf__sim_task_name(c->sim, (int)i + 1)))
				continue;
			if (seen++ == (size_t)cell->key) {
				pid = (long long)i + 1;
				break;
			}
		}
		sb_printf(&c->out,
			  "T:%2lld (%5lld) P:%2lld I:%lld C:%7llu "
			  "Min:%7lld Act:%5lld Avg:%5lld Max:%8lld\n",
			  (long long)cell->key, pid, prio,
			  interval + cell->key * distance,
			  h ? (unsigned long long)eevdf__hist_count(h) : 0ull,
			  h ? (long long)eevdf__hist_min(h) : 0,
			  (long long)cell->value,
			  h ? (long long)eevdf__hist_mean(h) : 0,
			  h ? (long long)eevdf__hist_max(h) : 0);
		if (h && eevdf__hist_max(h) > max)
			max = eevdf__hist_max(h);
		if (h && (double)eevdf__hist_mean(h) > avg)
			avg = (double)eevdf__hist_mean(h);
	}
	headline(c, "latency_max_us", "us", -1, (double)max);
	headline(c, "latency_avg_us", "us", -1, avg);
	return 0;
}

/* starve: its own line, then the real/user/sys lines a shell's timing
 * of it prints. */
static int report_starve(struct rctx *c)
{
	int err = 0;
	struct metric *el = metric(c, "elapsed", MET_VALUE, false, &err);
	eevdf_time t = el && el->all.set ? el->all.value : c->sim->sched.now;

	if (err)
		return err;
	sb_printf(&c->out, "expecting to receive %lld signals\n",
		  opt_int(c, "signals", 10000000));
	sb_printf(&c->out, "\nreal\t%lldm%.3fs\n",
		  (long long)(t / (60 * EEVDF_NSEC_PER_SEC)),
		  (double)(t % (60 * EEVDF_NSEC_PER_SEC)) / 1e9);
	headline(c, "real_s", "s", -1, (double)t / 1e9);
	return 0;
}

/*
 * stress-ng --metrics-brief.  The simulator does not split user and system
 * time: all of the stressor's CPU time is shown as system time.
 */
static int report_stress_ng(struct rctx *c)
{
	int err = 0;
	struct metric *ops = metric(c, "bogo_ops", MET_COUNTER, true, &err);
	const char *name = opt_str(c, "stressor", "stressor");
	double real = (double)c->sim->sched.now / 1e9, cpu = 0;

	if (err)
		return err;
	for (size_t i = 0; i < c->sim->sched.nr_tasks; i++) {
		struct eevdf_task_stats st;

		eevdf_sim_task_stats(c->sim, i, &st);
		cpu += (double)st.cpu_ns / 1e9;
	}
	sb_printf(&c->out,
		  "stress-ng: metrc: [1] %-13s %9.9s %9.9s %9.9s "
		  "%9.9s %12s %14s\n",
		  "stressor", "bogo ops", "real time", "usr time", "sys time",
		  "bogo ops/s", "bogo ops/s");
	sb_printf(&c->out,
		  "stress-ng: metrc: [1] %-13s %9.9s %9.9s %9.9s "
		  "%9.9s %12s %14s\n",
		  "", "", "(secs)", "(secs)", "(secs)", "(real time)",
		  "(usr+sys time)");
	sb_printf(&c->out,
		  "stress-ng: metrc: [1] %-13s %9lld %9.2f %9.2f "
		  "%9.2f %12.2f %14.2f\n",
		  name, (long long)ops->all.value, real, 0.0, cpu,
		  real > 0 ? (double)ops->all.value / real : 0.0,
		  cpu > 0 ? (double)ops->all.value / cpu : 0.0);
	headline(c, "bogo_ops_per_s", "ops/s", +1,
		 real > 0 ? (double)ops->all.value / real : 0.0);
	return 0;
}

/* UnixBench's Run script line for a counted test (spawn: "iter"). */
static int report_unixbench(struct rctx *c)
{
	int err = 0;
	struct metric *it = metric(c, "iter", MET_COUNTER, true, &err);
	double secs = (double)c->sim->sched.now / 1e9;

	if (err)
		return err;
	sb_printf(&c->out, "%-40s %12.1f %-5s (%.1f s, %d samples)\n",
		  opt_str(c, "test", "Process Creation"),
		  secs > 0 ? (double)it->all.value / secs : 0.0,
		  opt_str(c, "unit", "lps"), secs, 1);
	headline(c, "score", opt_str(c, "unit", "lps"), +1,
		 secs > 0 ? (double)it->all.value / secs : 0.0);
	return 0;
}

/* blogbench's final scores: blogs written and blogs read. */
static int report_blogbench(struct rctx *c)
{
	int err = 0;
	struct metric *w = metric(c, "blogs_written", MET_COUNTER, true, &err);
	struct metric *r = metric(c, "blogs_read", MET_COUNTER, true, &err);

	if (err)
		return err;
	sb_printf(&c->out, "\nFinal score for writes: %13lld\n",
		  (long long)w->all.value);
	sb_printf(&c->out, "Final score for reads : %13lld\n",
		  (long long)r->all.value);
	headline(c, "writes", "blogs", +1, (double)w->all.value);
	headline(c, "reads", "blogs", +1, (double)r->all.value);
	return 0;
}

/*
 * desktop-video: frames presented, frames dropped (presented more than a
 * period late) and the lateness percentiles, in the style of a frame-time
 * log summary.
 */
static int report_video(struct rctx *c)
{
	static const unsigned int plist[] = { 500, 900, 990, 999 };
	int err = 0;
	struct metric *late = metric(c, "frame_late", MET_HIST, true, &err);
	struct metric *frames = metric(c, "frames", MET_COUNTER, true, &err);
	struct metric *dropped = metric(c, "dropped", MET_COUNTER, false, &err);
	struct eevdf_hist_pct pct[4];
	struct eevdf_hist *h;

	if (err)
		return err;
	h = late->all.hist;
	sb_printf(&c->out, "frames: %lld at %lld fps, dropped: %lld\n",
		  (long long)frames->all.value, opt_int(c, "fps", 60),
		  dropped ? (long long)dropped->all.value : 0);
	headline(c, "frames", "frames", +1, (double)frames->all.value);
	headline(c, "dropped", "frames", -1,
		 dropped ? (double)dropped->all.value : 0);
	headline(c, "late_p99_us", "us", -1, pct_of(h, 990));
	if (!h || !eevdf__hist_count(h))
		return 0;
	if (eevdf__hist_percentiles(h, plist, 4, pct))
		return EEVDF_EINVAL;
	sb_printf(&c->out,
		  "lateness (usec): p50 %lld  p90 %lld  p99 %lld  "
		  "p99.9 %lld  max %lld\n",
		  (long long)pct[0].value, (long long)pct[1].value,
		  (long long)pct[2].value, (long long)pct[3].value,
		  (long long)eevdf__hist_max(h));
	return 0;
}

/* Dispatch -------------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(struct rctx *c);
} formats[] = {
	{ "schbench", report_schbench },
	{ "hackbench", report_hackbench },
	{ "perf-bench-messaging", report_perf_messaging },
	{ "perf-bench-sched-pipe", report_perf_pipe },
	{ "dbench", report_dbench },
	{ "tbench", report_dbench },
	{ "massive_intr", report_massive_intr },
	{ "cyclictest", report_cyclictest },
	{ "starve", report_starve },
	{ "stress-ng", report_stress_ng },
	{ "unixbench", report_unixbench },
	{ "blogbench", report_blogbench },
	{ "video", report_video },
};

bool eevdf_report_known(const char *format)
{
	for (size_t i = 0; format && i < ARRAY_SIZE(formats); i++)
		if (strcmp(formats[i].name, format) == 0)
			return true;
	return false;
}

const char *eevdf_report_formats(void)
{
	return "schbench, hackbench, perf-bench-messaging, "
	       "perf-bench-sched-pipe, dbench, tbench, massive_intr, "
	       "cyclictest, starve, stress-ng, unixbench, blogbench, video";
}

/* Run the formatter of format into c; 0 or an error with c->err set. */
static int run_format(struct rctx *c, const char *format)
{
	int ret = EEVDF_EINVAL;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (strcmp(formats[i].name, format) == 0)
			ret = formats[i].fn(c);
	if (ret == EEVDF_EINVAL && !eevdf_report_known(format))
		fail(c, "unknown report format '%s' (known: %s)", format,
		     eevdf_report_formats());
	if (!ret && c->out.err)
		ret = c->out.err;
	if (!ret && !c->out.buf)
		sb_printf(&c->out, "%s", "");
	if (!ret && c->out.err)
		ret = c->out.err;
	return ret;
}

int eevdf_report(const eevdf_sim *sim, const char *format,
		 eevdf_report_opt_fn opt, void *ud, char **out, char *err,
		 size_t errlen)
{
	struct rctx c = {
		.sim = sim, .opt = opt, .ud = ud, .err = err, .errlen = errlen
	};
	int ret;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim || !format)
		return EEVDF_EINVAL;
	ret = run_format(&c, format);
	if (ret) {
		free(c.out.buf);
		return ret;
	}
	/* the caller's to free(): see eevdf/alloc.h */
	*out = eevdf__user_strdup(c.out.buf ? c.out.buf : "");
	free(c.out.buf);
	return *out ? 0 : EEVDF_ENOMEM;
}

int eevdf_report_headlines(const eevdf_sim *sim, const char *format,
			   eevdf_report_opt_fn opt, void *ud,
			   struct eevdf_headline *out, size_t max, size_t *n,
			   char *err, size_t errlen)
{
	struct rctx c = {
		.sim = sim, .opt = opt, .ud = ud, .err = err, .errlen = errlen
	};
	int ret;

	if (!n || (max && !out))
		return EEVDF_EINVAL;
	*n = 0;
	if (!sim || !format)
		return EEVDF_EINVAL;
	ret = run_format(&c, format);
	free(c.out.buf);
	if (ret)
		return ret;
	*n = c.nr_head < max ? c.nr_head : max;
	memcpy(out, c.head, *n * sizeof(*out));
	return 0;
}
