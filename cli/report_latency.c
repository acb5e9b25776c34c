/* SPDX-License-Identifier: MIT */
/*
 * The "perf sched latency" table, per pid, in the layout of Mike
 * Galbraith's sum patch that the EEVDF commit messages quote: Runtime,
 * Switches (perf's count of delay samples), Avg, Max and Sum delay, then a
 * TOTAL line with the global max and sum.  Doubles are used only here, to
 * print milliseconds with perf's own printf formats.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char header[] =
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    "
	"| Max delay ms    | Sum delay ms     |";

/* perf pads "  comm:pid " to this many columns before the first '|'. */
#define NAME_COLUMNS 24

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

static void dashes(FILE *f)
{
	/* perf frames with a space, then dashes to the header's width. */
	fputc(' ', f);
	for (size_t i = 1; i < sizeof(header) - 1; i++)
		fputc('-', f);
	fputc('\n', f);
}

/* perf's avg is integer total_lat / nb_atoms, printed in ms. */
static int64_t avg_delay(const struct eevdf_task_stats *t)
{
	if (t->delay_count == 0 || t->delay_sum_ns < 0)
		return 0;
	return (int64_t)((uint64_t)t->delay_sum_ns / t->delay_count);
}

static void row(FILE *f, const struct eevdf_task_stats *t)
{
	int len = fprintf(f, "  %s:%d ", t->name ? t->name : "", t->pid);

	for (; len >= 0 && len < NAME_COLUMNS; len++)
		fputc(' ', f);
	fprintf(f,
		"|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms "
		"| sum:%9.3f ms |\n",
		ns_to_ms(t->cpu_ns), t->delay_count,
		ns_to_ms(avg_delay(t)), ns_to_ms(t->delay_max_ns),
		ns_to_ms(t->delay_sum_ns));
}

int report_latency(FILE *f, const struct eevdf_task_stats *stats, size_t n)
{
	const struct eevdf_task_stats **order;
	/*
	 * Totals in ns as doubles: they are only printed, summing int64
	 * values over many tasks could overflow, and a double holds any sum
	 * below 2^53 ns (104 days) exactly.
	 */
	double runtime_ns = 0, sum_ns = 0;
	uint64_t count = 0;
	int64_t max = 0;

	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return EEVDF_ENOMEM;
	for (size_t i = 0; i < n; i++)
		order[i] = &stats[i];
	qsort(order, n, sizeof(*order), cmp_max_delay);

	dashes(f);
	fprintf(f, "%s\n", header);
	dashes(f);
	for (size_t i = 0; i < n; i++) {
		const struct eevdf_task_stats *t = order[i];

		row(f, t);
		runtime_ns += (double)t->cpu_ns;
		sum_ns += (double)t->delay_sum_ns;
		count += t->delay_count;
		if (t->delay_max_ns > max)
			max = t->delay_max_ns;
	}
	dashes(f);
	fprintf(f,
		"  TOTAL:                |%11.3f ms |%9" PRIu64
		" |                 |%13.3f ms |%14.3f ms |\n",
		runtime_ns / 1e6, count, ns_to_ms(max), sum_ns / 1e6);
	dashes(f);
	free(order);
	return 0;
}
