/* SPDX-License-Identifier: MIT */
/*
 * The micro-benchmarks of eevdf-sim calibrate.  Each runs a number of
 * batches of pinned, warmed-up repetitions and adds one sample per batch
 * (the batch's mean) to named series (series.h); calibrate runs them in
 * several interleaved rounds so that a burst of noise from other
 * processes spreads over all of them instead of spoiling one, and reads
 * medians and interquartile ranges.  The series and what each sample is
 * are listed in docs/calibration.md.
 */
#ifndef CAL_BENCH_H
#define CAL_BENCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "series.h"

/* Which CPUs the benchmarks use and how much they do per round. */
struct cal_plan {
	int cpu_a;	   /* single-CPU benchmarks, and the near side */
	int cpu_b;	   /* another core of cpu_a's LLC, or -1 */
	int cpu_other_llc; /* a CPU of another LLC of cpu_a's package, or -1 */
	int cpu_other_pkg; /* a CPU of another package, or -1 */
	int smt_a, smt_b;  /* two SMT siblings of one core, or -1 */
	int batches;	   /* batches of each benchmark per round */
	int scale;	  /* repetitions per batch, in percent of the default */
	int64_t hog_ns;	  /* length of the two-hog run (HZ) */
	int64_t slice_ns; /* the kernel's base slice (HZ detection) */
	const char *fs_dir; /* where the file-system calls run; NULL: none */
};

/*
 * One round of each group.  0, or -1 with err (len bytes) saying what
 * failed (a thread or a pipe that could not be made).
 */
/* clock reads, getppid(), sched_yield() alone, an expired nanosleep,
 * non-blocking pipe, AF_UNIX and futex calls: one CPU, one thread */
int cal_bench_syscalls(const struct cal_plan *p, struct cal_set *set, char *err,
		       size_t len);
/* two threads, then two processes, yielding to each other on one CPU */
int cal_bench_yield_pairs(const struct cal_plan *p, struct cal_set *set,
			  char *err, size_t len);
/* ping-pong over pipes (one CPU, two CPUs idle and busy) and futexes */
int cal_bench_pingpong(const struct cal_plan *p, struct cal_set *set, char *err,
		       size_t len);
/* the timer wakeup of an idle CPU */
int cal_bench_idle_wakeup(const struct cal_plan *p, struct cal_set *set,
			  char *err, size_t len);
/* fork + exit + wait, and reaping a zombie */
int cal_bench_fork(const struct cal_plan *p, struct cal_set *set, char *err,
		   size_t len);
/* cache-line transfers between CPUs, and the SMT slowdown */
int cal_bench_cache(const struct cal_plan *p, struct cal_set *set, char *err,
		    size_t len);
/* file-system calls in a scratch directory under p->fs_dir, all in the
 * page cache: open, close, create, stat, rename, unlink, mkdir, reads,
 * writes, futimens, getdents64 (none when fs_dir is NULL) */
int cal_bench_fs(const struct cal_plan *p, struct cal_set *set, char *err,
		 size_t len);
/* two hogs on one CPU: their run lengths, for HZ (once, not per round) */
int cal_bench_hogs(const struct cal_plan *p, struct cal_set *set, char *err,
		   size_t len);

/*
 * A hog's loop: read the clock until end, recording in t the segments
 * of uninterrupted running (a jump of more than gap ns ends one).
 */
struct tl_task;
void cal_hog_loop(struct tl_task *t, int64_t end, int64_t gap);

/*
 * SCHED_IDLE hogs, one on each of n CPUs (h[i].cpu): a CPU kept busy
 * whose running task any wakee preempts at once.  0, or -1 with err;
 * stop returns false when one of them could not pin itself or take
 * SCHED_IDLE.
 */
struct cal_idle_hog {
	int cpu;
	atomic_int stop, state;
	pthread_t t;
};
int cal_idle_hogs_start(struct cal_idle_hog *h, int n, char *err, size_t len);
bool cal_idle_hogs_stop(struct cal_idle_hog *h, int n);

/* The gap that ends a segment: longer than a loop of clock reads (tens
 * of ns), shorter than a context switch and the other task's run. */
#define CAL_GAP_NS 2000

#endif
