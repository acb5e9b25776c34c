/* SPDX-License-Identifier: MIT */
/*
 * The "perf sched latency" table, per pid or merged per comm (perf's
 * default, "name:(n)"; the comm of "worker[3][1]" is "worker") or, which
 * perf cannot, per task group ("/system.slice/web:(n)"), in the
 * layout of Mike Galbraith's sum patch that the EEVDF commit messages
 * quote: Runtime, Switches (perf's count of delay samples), Avg, Max and
 * Sum delay and the time of the max delay, then a TOTAL line with the
 * global max and sum.  Doubles are used only here, to print milliseconds
 * with perf's own printf formats.
 *
 * "Max delay at" is perf's "max at: %13s s" (before perf split it into
 * max start and max end): the switch-in time of the task's largest delay,
 * its first if it recurs, in seconds with microseconds as perf's
 * timestamp__scnprintf_usec() prints them.  Galbraith's patch puts the
 * time columns after Sum and closes the table, under the TOTAL line that
 * has none, with a dash line that stops before them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char header[] =
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    "
	"| Max delay ms    | Sum delay ms     |";
/* The time column after it, as wide as its " max at: %13s s |". */
static const char header_at[] = " Max delay at            |";

/* perf pads "  comm:pid " to this many columns before the first '|'. */
#define NAME_COLUMNS 24

/*
 * With RT or deadline tasks in the run, a Class column follows the task:
 * "fair", "FIFO 50", "RR 10", "DL 10/100" (runtime / period in ms); a
 * merged row whose tasks differ says "mixed".  Without, the table is
 * perf's own.
 */
static const char header_class[] = " Class        |";

/* Room for any class text class_text() writes ("DL 4194/4194"). */
#define CLASS_LEN 48

static void class_text(char *buf, size_t len, const struct eevdf_task_stats *t)
{
	switch (t->policy) {
	case EEVDF_POLICY_FIFO:
		snprintf(buf, len, "FIFO %u", t->rt_priority);
		break;
	case EEVDF_POLICY_RR:
		snprintf(buf, len, "RR %u", t->rt_priority);
		break;
	case EEVDF_POLICY_DEADLINE:
		snprintf(buf, len, "DL %.4g/%.4g", (double)t->dl_runtime / 1e6,
			 (double)t->dl_period / 1e6);
		break;
	case EEVDF_POLICY_NORMAL:
	case EEVDF_POLICY_BATCH:
	case EEVDF_POLICY_IDLE:
		snprintf(buf, len, "fair");
		break;
	}
}

static bool has_classes(const struct eevdf_task_stats *stats, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(eevdf_policy_class(stats[i].policy), "fair") != 0)
			return true;
	return false;
}

static double ns_to_ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* Max delay descending, then pid ascending: a total order. */
static int cmp_max_delay(const void *a, const void *b)
{
	const struct eevdf_task_stats *const *pa = a, *const *pb = b;
	const struct eevdf_task_stats *x = *pa, *y = *pb;

	if (x->delay_max_ns != y->delay_max_ns)
		return x->delay_max_ns > y->delay_max_ns ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* perf frames with a space, then dashes: width columns in all. */
static void dashes(FILE *f, size_t width)
{
	fputc(' ', f);
	for (size_t i = 1; i < width; i++)
		fputc('-', f);
	fputc('\n', f);
}

/*
 * A time in ns as perf's timestamp__scnprintf_usec() prints it: seconds,
 * a dot and six digits of microseconds, the nanoseconds dropped.  Integer
 * arithmetic only, so that the digits never depend on rounding.
 */
static void usec_stamp(char *buf, size_t len, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	snprintf(buf, len, "%" PRId64 ".%06" PRId64, ns / 1000000000,
		 ns % 1000000000 / 1000);
}

/* perf's avg is integer total_lat / nb_atoms, printed in ms. */
static int64_t avg_delay(const struct eevdf_task_stats *t)
{
	if (t->delay_count == 0 || t->delay_sum_ns < 0)
		return 0;
	return (int64_t)((uint64_t)t->delay_sum_ns / t->delay_count);
}

/*
 * In a merged row, switches holds how many tasks were merged.  A row
 * without a delay sample has no max delay to place: "-" for its time.
 */
static void row(FILE *f, const struct eevdf_task_stats *t, bool merged,
		const char *cls)
{
	char at[32] = "-";
	int len = merged ? fprintf(f, "  %s:(%" PRIu64 ") ", t->name,
				   t->switches) :
			   fprintf(f, "  %s:%d ", t->name ? t->name : "",
				   t->pid);

	for (; len >= 0 && len < NAME_COLUMNS; len++)
		fputc(' ', f);
	if (cls)
		fprintf(f, "| %-12s ", cls);
	if (t->delay_count > 0)
		usec_stamp(at, sizeof(at), t->delay_max_at);
	fprintf(f,
		"|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms "
		"| sum:%9.3f ms | max at: %13s s |\n",
		ns_to_ms(t->cpu_ns), t->delay_count, ns_to_ms(avg_delay(t)),
		ns_to_ms(t->delay_max_ns), ns_to_ms(t->delay_sum_ns), at);
}

/*
 * The comm a row merges by: a task name up to its first '['; kernel
 * threads with a per-CPU or per-pool number by their kind, so that every
 * kworker of a kind is one row: "kworker/N" for the bound ones of every
 * CPU, "kworker/NH" for the highpri ones, "kworker/uN" for the unbound
 * ones and "ksoftirqd/N", N standing for the number, as a star does in
 * the rows.  (perf itself keys by the full comm, where each kworker has
 * its own.)
 */
static const char *comm_key(const char *name, size_t *len)
{
	size_t n = strlen(name);

	if (strncmp(name, "kworker/u", 9) == 0) {
		*len = 10;
		return "kworker/u*";
	}
	if (strncmp(name, "kworker/", 8) == 0) {
		bool hi = n > 8 && name[n - 1] == 'H';

		*len = hi ? 10 : 9;
		return hi ? "kworker/*H" : "kworker/*";
	}
	if (strncmp(name, "ksoftirqd/", 10) == 0) {
		*len = 11;
		return "ksoftirqd/*";
	}
	*len = strcspn(name, "[");
	return name;
}

/*
 * Whether task t's largest delay is the one a merged row shows, against
 * best (NULL: none yet): the larger delay, then the earlier time, then the
 * lower pid, so that the row's "max at" never depends on the order of the
 * tasks.  A task without a delay sample has no max to offer.
 */
static bool max_beats(const struct eevdf_task_stats *t,
		      const struct eevdf_task_stats *best)
{
	if (t->delay_count == 0)
		return false;
	if (!best)
		return true;
	if (t->delay_max_ns != best->delay_max_ns)
		return t->delay_max_ns > best->delay_max_ns;
	if (t->delay_max_at != best->delay_max_at)
		return t->delay_max_at < best->delay_max_at;
	return t->pid < best->pid;
}

/*
 * Merge stats per comm, or per group when by_group, into out (at most n
 * entries; comm names pointing into names[], n * EEVDF_NAME_MAX bytes,
 * group paths into the simulation's strings; best[] n entries of
 * scratch); returns the number of rows.  Runtime, counts and sums add
 * up, the max and its time are those of the task max_beats() picks, and
 * the lowest pid orders ties, as perf merges its atoms per comm.
 */

static size_t merge_rows(const struct eevdf_task_stats *stats, size_t n,
			 bool by_group, struct eevdf_task_stats *out,
			 char *names, const struct eevdf_task_stats **best,
			 char (*cls)[CLASS_LEN])
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct eevdf_task_stats *t = &stats[i];
		size_t len, k;
		const char *key;

		if (by_group) {
			key = t->cgroup ? t->cgroup : "/";
			len = strlen(key);
		} else {
			key = comm_key(t->name, &len);
		}
		char c[CLASS_LEN];

		for (k = 0; k < m; k++)
			if (strlen(out[k].name) == len &&
			    memcmp(out[k].name, key, len) == 0)
				break;
		if (k == m) {
			char *nm = names + m * EEVDF_NAME_MAX;

			memset(&out[m], 0, sizeof(out[m]));
			if (by_group) {
				out[m].name = key;
			} else {
				memcpy(nm, key, len);
				nm[len] = '\0';
				out[m].name = nm;
			}
			out[m].pid = t->pid;
			best[m] = NULL;
			class_text(cls[m], CLASS_LEN, t);
			m++;
		}
		class_text(c, sizeof(c), t);
		if (strcmp(c, cls[k]) != 0)
			snprintf(cls[k], CLASS_LEN, "mixed");
		out[k].switches++;
		out[k].cpu_ns += t->cpu_ns;
		out[k].delay_count += t->delay_count;
		out[k].delay_sum_ns += t->delay_sum_ns;
		if (max_beats(t, best[k])) {
			best[k] = t;
			out[k].delay_max_ns = t->delay_max_ns;
			out[k].delay_max_at = t->delay_max_at;
		}
	}
	return m;
}

int report_latency(FILE *f, const struct eevdf_task_stats *stats, size_t n,
		   enum latency_rows rows)
{
	bool by_comm = rows != ROWS_PID;
	struct eevdf_task_stats *merged = NULL;
	char *names = NULL;
	const struct eevdf_task_stats **order, **best = NULL;
	/*
	 * Totals in ns as doubles: they are only printed, summing int64
	 * values over many tasks could overflow, and a double holds any sum
	 * below 2^53 ns (104 days) exactly.
	 */
	double runtime_ns = 0, sum_ns = 0;
	uint64_t count = 0;
	int64_t max = 0;
	bool classes = has_classes(stats, n);
	size_t wide = sizeof(header) - 1 + sizeof(header_at) - 1;
	char(*cls)[CLASS_LEN] = malloc((n ? n : 1) * sizeof(*cls));

	if (!cls)
		return EEVDF_ENOMEM;
	if (classes)
		wide += sizeof(header_class) - 1;
	if (by_comm) {
		merged = malloc((n ? n : 1) * sizeof(*merged));
		names = malloc((n ? n : 1) * EEVDF_NAME_MAX);
		best = malloc((n ? n : 1) * sizeof(*best));
		if (!merged || !names || !best) {
			free(merged);
			free(names);
			free(best);
			free(cls);
			return EEVDF_ENOMEM;
		}
		n = merge_rows(stats, n, rows == ROWS_CGROUP, merged, names,
			       best, cls);
		stats = merged;
		free(best);
	} else {
		for (size_t i = 0; i < n; i++)
			class_text(cls[i], CLASS_LEN, &stats[i]);
	}
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order) {
		free(merged);
		free(names);
		free(cls);
		return EEVDF_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = &stats[i];
	qsort(order, n, sizeof(*order), cmp_max_delay);

	dashes(f, wide);
	if (classes)
		/* the Class column after the Task column's '|' */
		fprintf(f, "%.*s%s%s%s\n", NAME_COLUMNS + 1, header,
			header_class, header + NAME_COLUMNS + 1, header_at);
	else
		fprintf(f, "%s%s\n", header, header_at);
	dashes(f, wide);
	for (size_t i = 0; i < n; i++) {
		const struct eevdf_task_stats *t = order[i];

		row(f, t, by_comm, classes ? cls[t - stats] : NULL);
		runtime_ns += (double)t->cpu_ns;
		sum_ns += (double)t->delay_sum_ns;
		count += t->delay_count;
		if (t->delay_max_ns > max)
			max = t->delay_max_ns;
	}
	dashes(f, wide);
	fprintf(f,
		"  TOTAL:                |%s%11.3f ms |%9" PRIu64
		" |                 |%13.3f ms |%14.3f ms |\n",
		classes ? "              |" : "", runtime_ns / 1e6, count,
		ns_to_ms(max), sum_ns / 1e6);
	dashes(f,
	       sizeof(header) - 1 + (classes ? sizeof(header_class) - 1 : 0));
	free(order);
	free(merged);
	free(names);
	free(cls);
	return 0;
}
