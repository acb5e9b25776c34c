/* SPDX-License-Identifier: MIT */
/*
 * hogs-pelt: the most the hogs scenario could reach, simulated seconds per
 * CPU second, if a tick cost nothing but the PELT arithmetic the kernel
 * does at every tick.  `make bench` prints it under the scenario table.
 *
 * Why a ceiling: at each tick task_tick_fair() calls entity_tick() for
 * every level of the running task's hierarchy, and entity_tick() calls
 * update_load_avg(), which updates the entity's averages and its cfs_rq's
 * (kernel/sched/fair.c @ 0b9ca2dcabc3c8816a6ee75599cab7bef3330609, 6.17).
 * With autogroup on (the default) a hog is two levels deep, so a tick
 * updates four sched_avg: the task's se and its group's cfs_rq, the
 * group's se and the root cfs_rq.
 * A 1 ms tick crosses a 1 024 us PELT period almost every time, so each
 * update decays its sums.  Each decay truncates (decay_load() is a
 * multiply and a shift), so k ticks' updates are not one update over k ms:
 * a simulator whose results equal the kernel's, byte for byte, does this
 * arithmetic at every tick, whether then or later, lazily.
 *
 * Two figures, each over the hogs run's 240 000 ticks (4 CPUs, 60 s, HZ
 * 1000), timed in CPU time, the median of RUNS runs of each, alternating:
 *   - the sums and the averages (what the simulator's tick does);
 *   - the sums alone (___update_load_sum()): the least any lazy scheme
 *     could keep, if nothing read an average between two switches.
 *
 * The weights are those of a CPU running one nice-0 and one nice-5 hog of
 * one autogroup; the arithmetic is the same whatever they are, though a
 * divide's latency can vary with its operands on some CPUs.  This is the
 * bench's only code below the public API (ARCHITECTURE.md): it times
 * library internals in isolation, the way the scenarios time the whole.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/pelt.h"

#define NR_CPUS 4
#define RUNS 15
#define TICK_NS 1000000ULL
/* the target of issue 19: hogs >= 10 000 simulated s per CPU s */
#define TARGET 10000.0

/* where the results go, so that the compiler keeps the work */
static volatile unsigned long sink;

struct cpu_avgs {
	struct sched_avg se, gcfs, gse, cfs;
};

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One run: ticks ticks on each of the NR_CPUS CPUs, in time order as the
 * simulator fires them.  Returns the CPU seconds.
 */
static double one_run(long ticks, bool sums_only)
{
	static struct cpu_avgs c[NR_CPUS];
	/* the group's share of tg->shares on a CPU: 1024 over 4 CPUs */
	const unsigned long w_task = 1024, w_group = 1024 + 335, w_gse = 256;
	double t0;

	memset(c, 0, sizeof(c));
	t0 = cpu_now();
	for (long t = 1; t <= ticks; t++) {
		u64 now = (u64)t * TICK_NS;

		for (int k = 0; k < NR_CPUS; k++) {
			struct cpu_avgs *a = &c[k];

			if (sums_only) {
				___update_load_sum(now, &a->se, 1, 1, 1);
				___update_load_sum(now, &a->gcfs, w_group, 2,
						   1);
				___update_load_sum(now, &a->gse, 1, 2, 1);
				___update_load_sum(now, &a->cfs, w_gse, 2, 1);
			} else {
				pelt_update_se(now, &a->se, w_task, true, 1,
					       true);
				pelt_update_cfs_rq(now, &a->gcfs, w_group, 2,
						   true);
				pelt_update_se(now, &a->gse, w_gse, true, 2,
					       true);
				pelt_update_cfs_rq(now, &a->cfs, w_gse, 2,
						   true);
			}
		}
	}
	t0 = cpu_now() - t0;
	for (int k = 0; k < NR_CPUS; k++)
		sink += (unsigned long)(c[k].se.load_sum + c[k].gcfs.util_sum +
					c[k].gse.runnable_sum +
					c[k].cfs.load_avg);
	return t0;
}

static double median(double *s, int n)
{
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return s[n / 2];
}

static void print_row(const char *what, double secs, long ticks)
{
	double ns = secs * 1e9 / (double)(ticks * NR_CPUS);
	double sim_s = (double)ticks * (double)TICK_NS * 1e-9;

	printf("  %-38s %6.1f ns a tick  at most %7.0f simulated s per "
	       "CPU s\n",
	       what, ns, secs > 0 ? sim_s / secs : 0);
}

int main(int argc, char **argv)
{
	bool smoke = argc > 1 && !strcmp(argv[1], "--smoke");
	/* the hogs scenario: 60 s at HZ 1000 (smoke: 0.5 s, one run) */
	long ticks = smoke ? 500 : 60000;
	int runs = smoke ? 1 : RUNS;
	double both[RUNS], sums[RUNS];

	if (argc > 2 || (argc == 2 && !smoke)) {
		fprintf(stderr, "usage: hogs-pelt [--smoke]\n");
		return 2;
	}
	one_run(ticks, false); /* warm-up */
	/* alternating, so that both medians sample the same stretch of a
	 * shared machine's noise */
	for (int i = 0; i < runs; i++) {
		both[i] = one_run(ticks, false);
		sums[i] = one_run(ticks, true);
	}
	printf("# hogs ceiling: a tick's PELT arithmetic alone (4 updates "
	       "a tick, %d CPUs x %ld ticks, median of %d, CPU time)\n",
	       NR_CPUS, ticks, runs);
	print_row("PELT sums and averages", median(both, runs), ticks);
	print_row("PELT sums alone (any lazy scheme)", median(sums, runs),
		  ticks);
	/* at TARGET simulated s per CPU s, TICK_NS of simulated time (one
	 * tick on each of the NR_CPUS CPUs) may take TICK_NS / TARGET */
	printf("  %-38s %6.1f ns a tick  for the whole tick\n",
	       "target hogs >= 10000", (double)TICK_NS / (TARGET * NR_CPUS));
	return 0;
}
