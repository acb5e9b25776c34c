/* SPDX-License-Identifier: MIT */
/*
 * eevdf-bench output: the derived rates, the targets of the speed issue,
 * the fixed-width table and the JSON file (build/bench.json) that lets two
 * commits be compared.  The JSON is written to a temporary file and
 * renamed, so a reader never sees half a file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gen/git.h"

/*
 * What built this binary, for the JSON: two bench files compared
 * (bench/compare.sh) must say which code and which compiler each measured.
 */
#if defined(__clang__)
#define BENCH_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown"
#endif
#ifdef __OPTIMIZE__
#define BENCH_OPTIMIZED "true"
#else
#define BENCH_OPTIMIZED "false"
#endif
/* make's PGO=1 (BENCH_PGO=1, gcc's default): the library laid out by a
 * training run's profile (bench/pgo-train.sh) */
#if defined(BENCH_PGO) && BENCH_PGO
#define BENCH_PROFILE_GUIDED "true"
#define BENCH_PGO_NOTE ", profile-guided"
#else
#define BENCH_PROFILE_GUIDED "false"
#define BENCH_PGO_NOTE ""
#endif

/* The memory budget: per task (issue 19: 1 KiB) and per CPU
 * (the run queues and domains a CPU brings), beyond the baseline. */
#define MEM_PER_TASK 1024.0
#define MEM_PER_CPU 8192.0
/*
 * ru_maxrss also counts shared-library pages, and which of those a
 * process faults in (fault-around) varies by a few hundred KiB from one
 * process to the next.  A budget smaller than 8 times that cannot be
 * judged from RSS, so such scenarios get their figure but no verdict.
 */
#define MEM_MIN_JUDGED (2048.0 * 1024)

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

void bench_derive(struct bench_row *row, long baseline_kib)
{
	double events = (double)row->events;
	long delta = row->grow_kib - baseline_kib;

	if (row->status != RS_OK)
		return;
	row->switches_per_s = ratio((double)row->switches, row->wall_med);
	row->events_per_s = ratio(events, row->wall_med);
	row->ns_per_event = ratio(row->wall_med * 1e9, events);
	row->ns_per_event2 = ratio(row->wall2_med * 1e9, (double)row->events2);
	row->speed = ratio(row->sim_s, row->wall_med);
	row->ns_per_event_cpu = ratio(row->cpu_med * 1e9, events);
	row->ns_per_event2_cpu = ratio(row->cpu2_med * 1e9,
				       (double)row->events2);
	row->speed_cpu = ratio(row->sim_s, row->cpu_med);
	row->mem_bytes = delta > 0 ? (double)delta * 1024 : 0;
	row->bytes_per_task = ratio(row->mem_bytes, (double)row->nr_tasks);
	row->mem_budget = MEM_PER_TASK * (double)row->nr_tasks +
			  MEM_PER_CPU * row->nr_cpus;
}

static const struct bench_row *find(const struct bench_row *rows, size_t nr,
				    const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(rows[i].sc->name, name) && rows[i].status == RS_OK)
			return &rows[i];
	return NULL;
}

/* Targets ------------------------------------------------------------------ */

enum verdict {
	T_NOT_RUN,
	T_MET,
	T_MISSED,
	T_TOO_SMALL
};

struct target {
	char what[96];
	char value[64];
	char note[96];
	enum verdict v;
	double x, limit; /* the measured figure and its bound */
};

static const char *const verdict_name[] = {
	"not run",
	"met",
	"missed",
	"n/a",
};

static void t_set(struct target *t, double x, double limit, bool at_least,
		  const char *unit)
{
	t->x = x;
	t->limit = limit;
	t->v = (at_least ? x >= limit : x <= limit) ? T_MET : T_MISSED;
	/* Whole numbers for big figures (KiB, speeds), 3 digits for ratios. */
	snprintf(t->value, sizeof(t->value), "%.*f%s (limit %.*f%s)",
		 x >= 100 ? 0 : 2, x, unit, limit >= 100 ? 0 : 1, limit, unit);
}

/*
 * The speed issue's targets.  Timings of --smoke runs are not compared
 * with them: those sizes are chosen to be quick, not representative.
 */
static size_t eval_targets(const struct bench_meta *m,
			   const struct bench_row *rows, size_t nr,
			   struct target *t)
{
	const struct bench_row *r, *a;
	size_t n = 0;

	if (m->smoke)
		return 0;
	/* The issue judges CPU time on one core: a busy machine stretches
	 * wall time, not the CPU time a run takes. */

	snprintf(t[n].what, sizeof(t[n].what),
		 "schbench-seed simulated s per CPU s >= 0.5");
	if ((r = find(rows, nr, "schbench-seed"))) {
		t_set(&t[n], r->speed_cpu, 0.5, true, "");
		snprintf(t[n].note, sizeof(t[n].note), "stretch 1.0: %s",
			 r->speed_cpu >= 1.0 ? "met" : "missed");
	}
	n++;

	snprintf(t[n].what, sizeof(t[n].what),
		 "hogs simulated s per CPU s >= 10000");
	if ((r = find(rows, nr, "hogs")))
		t_set(&t[n], r->speed_cpu, 10000, true, "");
	n++;

	snprintf(t[n].what, sizeof(t[n].what),
		 "scale per-event cost (100k, 1024) <= 2x (100, 8)");
	a = find(rows, nr, "scale-100-8");
	if ((r = find(rows, nr, "scale-100k-1024")) && a &&
	    a->ns_per_event_cpu > 0) {
		/* Judged on the whole run, the cost a user pays; the
		 * steady-state ratio shows how much the creation burst at
		 * time 0 accounts for. */
		t_set(&t[n], r->ns_per_event_cpu / a->ns_per_event_cpu, 2.0,
		      false, "x");
		if (a->ns_per_event2_cpu > 0 && r->ns_per_event2_cpu > 0)
			snprintf(t[n].note, sizeof(t[n].note),
				 "second half "
				 "only: %.4gx",
				 r->ns_per_event2_cpu / a->ns_per_event2_cpu);
	}
	n++;

	snprintf(t[n].what, sizeof(t[n].what),
		 "scale per-event cost (1k, 256) <= 2x (100, 8)");
	if ((r = find(rows, nr, "scale-1k-256")) && a &&
	    a->ns_per_event_cpu > 0)
		t_set(&t[n], r->ns_per_event_cpu / a->ns_per_event_cpu, 2.0,
		      false, "x");
	n++;

	/*
	 * Creating the 100k tasks (loading, adding: the setup column) costs
	 * no more a task than the steady state costs an event; both wall
	 * time of the same run.
	 */
	snprintf(t[n].what, sizeof(t[n].what),
		 "creating (100k, 1024): ns per task <= steady ns/event");
	if ((r = find(rows, nr, "scale-100k-1024")) && r->nr_tasks &&
	    r->ns_per_event2 > 0)
		t_set(&t[n], r->setup_med * 1e9 / (double)r->nr_tasks,
		      r->ns_per_event2, false, " ns");
	n++;

	/* Memory: only the scenarios built in code; a workload's own
	 * objects (channels, metrics, the parsed file) are outside the
	 * per-task budget and the bench cannot separate them. */
	for (size_t i = 0; i < nr; i++) {
		r = &rows[i];
		if (r->sc->kind == SC_WORKLOAD)
			continue;
		snprintf(t[n].what, sizeof(t[n].what),
			 "%s memory <= 1 KiB/"
			 "task + 8 KiB/CPU",
			 r->sc->name);
		if (r->status == RS_OK) {
			t_set(&t[n], r->mem_bytes / 1024, r->mem_budget / 1024,
			      false, " KiB");
			if (r->mem_budget < MEM_MIN_JUDGED) {
				t[n].v = T_TOO_SMALL;
				snprintf(t[n].note, sizeof(t[n].note),
					 "budget "
					 "below the RSS noise, not judged");
			}
		}
		n++;
	}
	return n;
}

/* The table ---------------------------------------------------------------- */

void bench_print_table(FILE *f, const struct bench_meta *m,
		       struct bench_row *rows, size_t nr)
{
	struct target t[BENCH_MAX_TARGETS];
	size_t nt;

	memset(t, 0, sizeof(t));
	fprintf(f, "# eevdf-bench: libeevdf %s (%s), %s%s, %s\n",
		m->lib_version, CLI_GIT_DESCRIBE, BENCH_COMPILER,
		BENCH_PGO_NOTE,
		m->smoke ? "--smoke (tiny sizes, timings not meaningful)" :
			   "full sizes");
	fprintf(f,
		"# wall: eevdf_sim_run() only, median of %d run%s after "
		"%d warm-up; every run in its own forked process,\n"
		"#   the scenarios in turn, round by round\n",
		m->runs, m->runs == 1 ? "" : "s", m->warmup);
	fprintf(f,
		"# events: eevdf_sim_nr_events(), every timer, burst end, "
		"tick and wakeup the engine ran;\n"
		"#   ns/ev = wall / events; 2nd half: the same over the second "
		"half of the simulated time only\n"
		"#   (steady state, after the creation burst at 0)\n"
		"# cpu s: the run's CPU time (CLOCK_PROCESS_CPUTIME_ID), "
		"median; the targets are judged on it\n");
	fprintf(f,
		"# peak: ru_maxrss of the run's process; B/task: its "
		"growth after fork beyond the growth of a\n"
		"#   baseline child (empty sim + one 10 ms hog: %ld KiB, "
		"peak %ld KiB), per task\n\n",
		m->baseline_kib, m->baseline_peak_kib);
	fprintf(f,
		"%-16s %7s %5s %8s %8s %8s %8s %10s %10s %7s %8s %10s %9s "
		"%8s %6s\n",
		"scenario", "tasks", "cpus", "sim s", "wall s", "cpu s",
		"setup s", "switches/s", "events/s", "ns/ev", "2nd half",
		"sim s/wall", "sim s/cpu", "peak MiB", "B/task");
	for (size_t i = 0; i < nr; i++) {
		const struct bench_row *r = &rows[i];

		if (r->status != RS_OK) {
			fprintf(f, "%-16s %s: %s\n", r->sc->name,
				r->status == RS_SKIPPED ? "skipped" : "ERROR",
				r->msg);
			continue;
		}
		fprintf(f,
			"%-16s %7llu %5d %8.3f %8.4f %8.4f %8.4f %10.0f "
			"%10.0f %7.1f ",
			r->sc->name, (unsigned long long)r->nr_tasks,
			r->nr_cpus, r->sim_s, r->wall_med, r->cpu_med,
			r->setup_med, r->switches_per_s, r->events_per_s,
			r->ns_per_event);
		if (r->events2)
			fprintf(f, "%8.1f", r->ns_per_event2);
		else
			fprintf(f, "%8s", "-");
		fprintf(f, " %10.2f %9.2f %8.1f %6.0f\n", r->speed,
			r->speed_cpu, (double)r->maxrss_kib / 1024,
			r->bytes_per_task);
	}

	nt = eval_targets(m, rows, nr, t);
	if (!nt) {
		fprintf(f, "\n# targets: not evaluated with --smoke\n");
		return;
	}
	fprintf(f, "\n# targets\n");
	for (size_t i = 0; i < nt; i++)
		fprintf(f, "  %-52s %-7s %s%s%s\n", t[i].what,
			verdict_name[t[i].v],
			t[i].v == T_NOT_RUN ? "" : t[i].value,
			t[i].note[0] ? "; " : "", t[i].note);
}

/* JSON --------------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* JSON has no NaN or infinity: a figure that is not finite is null. */
static void json_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.9g", x);
	else
		fputs("null", f);
}

static void json_row(FILE *f, const struct bench_row *r)
{
	const struct scenario *sc = r->sc;
	static const char *const st[] = { "ok", "skipped", "error" };

	fprintf(f, "\t\t{\n\t\t\t\"name\": ");
	json_str(f, sc->name);
	fprintf(f, ",\n\t\t\t\"description\": ");
	json_str(f, sc->what);
	fprintf(f, ",\n\t\t\t\"status\": \"%s\"", st[r->status]);
	if (sc->kind == SC_WORKLOAD) {
		fprintf(f, ",\n\t\t\t\"workload\": ");
		json_str(f, sc->file);
		fprintf(f, ",\n\t\t\t\"params\": [");
		for (size_t i = 0; i < sc->nr_params; i++) {
			fputs(i ? ", " : "", f);
			json_str(f, sc->params[i]);
		}
		fputc(']', f);
	}
	if (r->status != RS_OK) {
		fprintf(f, ",\n\t\t\t\"reason\": ");
		json_str(f, r->msg);
		fprintf(f, "\n\t\t}");
		return;
	}
	fprintf(f,
		",\n\t\t\t\"tasks\": %llu,\n\t\t\t\"cpus\": %d,\n"
		"\t\t\t\"hz\": %d,\n\t\t\t\"sim_ns\": %lld,\n"
		"\t\t\t\"all_exited\": %s,\n"
		"\t\t\t\"switches\": %llu,\n\t\t\t\"ticks\": %llu,\n"
		"\t\t\t\"events\": %llu,\n",
		(unsigned long long)r->nr_tasks, r->nr_cpus, sc->hz,
		(long long)r->sim_ns, r->all_exited ? "true" : "false",
		(unsigned long long)r->switches, (unsigned long long)r->ticks,
		(unsigned long long)r->events);
	if (r->digest)
		fprintf(f, "\t\t\t\"results_digest\": \"%016llx\",\n",
			(unsigned long long)r->digest);
	fprintf(f, "\t\t\t\"wall_s\": ");
	json_num(f, r->wall_med);
	fprintf(f, ",\n\t\t\t\"wall_s_min\": ");
	json_num(f, r->wall_min);
	fprintf(f, ",\n\t\t\t\"wall_s_max\": ");
	json_num(f, r->wall_max);
	fprintf(f, ",\n\t\t\t\"wall_s_runs\": [");
	for (int i = 0; i < r->nr_wall; i++) {
		fputs(i ? ", " : "", f);
		json_num(f, r->wall[i]);
	}
	fprintf(f, "],\n\t\t\t\"cpu_s\": ");
	json_num(f, r->cpu_med);
	fprintf(f, ",\n\t\t\t\"cpu_s_runs\": [");
	for (int i = 0; i < r->nr_wall; i++) {
		fputs(i ? ", " : "", f);
		json_num(f, r->cpu[i]);
	}
	fprintf(f, "],\n\t\t\t\"setup_s\": ");
	json_num(f, r->setup_med);
	fprintf(f, ",\n\t\t\t\"switches_per_s\": ");
	json_num(f, r->switches_per_s);
	fprintf(f, ",\n\t\t\t\"events_per_s\": ");
	json_num(f, r->events_per_s);
	fprintf(f, ",\n\t\t\t\"ns_per_event\": ");
	json_num(f, r->ns_per_event);
	fprintf(f,
		",\n\t\t\t\"second_half\": { \"events\": %llu, "
		"\"wall_s\": ",
		(unsigned long long)r->events2);
	json_num(f, r->wall2_med);
	fprintf(f, ", \"ns_per_event\": ");
	json_num(f, r->events2 ? r->ns_per_event2 : (double)NAN);
	fprintf(f, ", \"cpu_s\": ");
	json_num(f, r->cpu2_med);
	fprintf(f, ", \"ns_per_event_cpu\": ");
	json_num(f, r->events2 ? r->ns_per_event2_cpu : (double)NAN);
	fputs(" }", f);
	fprintf(f, ",\n\t\t\t\"sim_s_per_wall_s\": ");
	json_num(f, r->speed);
	fprintf(f, ",\n\t\t\t\"ns_per_event_cpu\": ");
	json_num(f, r->ns_per_event_cpu);
	fprintf(f, ",\n\t\t\t\"sim_s_per_cpu_s\": ");
	json_num(f, r->speed_cpu);
	fprintf(f,
		",\n\t\t\t\"peak_rss_kib\": %ld,\n\t\t\t\"rss_growth_kib\": "
		"%ld,\n\t\t\t\"mem_bytes\": ",
		r->maxrss_kib, r->grow_kib);
	json_num(f, r->mem_bytes);
	fprintf(f, ",\n\t\t\t\"bytes_per_task\": ");
	json_num(f, r->bytes_per_task);
	fprintf(f, ",\n\t\t\t\"mem_budget_bytes\": ");
	json_num(f, r->mem_budget);
	fprintf(f, "\n\t\t}");
}

int bench_write_json(const char *path, const struct bench_meta *m,
		     struct bench_row *rows, size_t nr)
{
	struct target t[BENCH_MAX_TARGETS];
	size_t nt, len = strlen(path) + 5;
	char *tmp = malloc(len);
	FILE *f;
	int bad;

	memset(t, 0, sizeof(t));
	if (!tmp)
		return -1;
	snprintf(tmp, len, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		free(tmp);
		return -1;
	}
	fprintf(f, "{\n\t\"format\": \"eevdf-bench/1\",\n\t\"libeevdf\": ");
	json_str(f, m->lib_version);
	fprintf(f, ",\n\t\"git\": ");
	json_str(f, CLI_GIT_DESCRIBE);
	fprintf(f, ",\n\t\"compiler\": ");
	json_str(f, BENCH_COMPILER);
	fprintf(f, ",\n\t\"optimized\": " BENCH_OPTIMIZED);
	fprintf(f, ",\n\t\"profile_guided\": " BENCH_PROFILE_GUIDED);
	fprintf(f,
		",\n\t\"smoke\": %s,\n\t\"runs\": %d,\n\t\"warmup\": %d,\n"
		"\t\"wall\": \"eevdf_sim_run() only, median of the runs\",\n"
		"\t\"events\": \"eevdf_sim_nr_events()\",\n"
		"\t\"workload_overrides\": %s,\n"
		"\t\"baseline_growth_kib\": %ld,\n"
		"\t\"baseline_peak_kib\": %ld,\n\t\"scenarios\": [\n",
		m->smoke ? "true" : "false", m->runs, m->warmup,
		m->have_load_opts ? "true" : "false", m->baseline_kib,
		m->baseline_peak_kib);
	for (size_t i = 0; i < nr; i++) {
		json_row(f, &rows[i]);
		fputs(i + 1 < nr ? ",\n" : "\n", f);
	}
	fprintf(f, "\t],\n\t\"targets\": [");
	nt = eval_targets(m, rows, nr, t);
	for (size_t i = 0; i < nt; i++) {
		fprintf(f, "%s\n\t\t{ \"target\": ", i ? "," : "");
		json_str(f, t[i].what);
		fprintf(f, ", \"result\": \"%s\"", verdict_name[t[i].v]);
		if (t[i].v != T_NOT_RUN) {
			fprintf(f, ", \"value\": ");
			json_num(f, t[i].x);
			fprintf(f, ", \"limit\": ");
			json_num(f, t[i].limit);
		}
		if (t[i].note[0]) {
			fprintf(f, ", \"note\": ");
			json_str(f, t[i].note);
		}
		fputs(" }", f);
	}
	fprintf(f, "%s]\n}\n", nt ? "\n\t" : "");
	bad = ferror(f);
	bad |= fclose(f);
	if (bad || rename(tmp, path)) {
		perror(path);
		remove(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
