/* SPDX-License-Identifier: MIT */
/*
 * Two tasks pinned to one CPU that call sched_yield() in a loop: with
 * both runnable, each yield is a system call and a switch to the other
 * task, which is the cleanest switch there is (no wakeup, no wait queue,
 * no data).  Two threads give the switch between threads of one process,
 * two processes the switch that also changes the address space.  The
 * caller counts its own switches (getrusage) to check that every yield
 * did switch.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "bench.h"
#include "host.h"

/* What the two sides share (a page shared by two processes, or memory
 * shared by two threads). */
struct yield_shared {
	atomic_long yields; /* the peer's yields so far */
	atomic_int ready;
	atomic_int stop;
};

static void peer_loop(struct yield_shared *sh)
{
	atomic_store(&sh->ready, 1);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		sched_yield();
		atomic_fetch_add_explicit(&sh->yields, 1, memory_order_relaxed);
	}
}

struct peer_arg {
	struct yield_shared *sh;
	int cpu;
};

static void *peer_thread(void *a)
{
	struct peer_arg *pa = a;

	if (cal_pin(pa->cpu) == 0)
		peer_loop(pa->sh);
	else
		atomic_store(&pa->sh->ready, -1);
	return NULL;
}

/* The batches of the caller against a running peer. */
static void measure(const struct cal_plan *p, struct cal_set *set,
		    struct yield_shared *sh, const char *name,
		    const char *ratio_name, const char *what)
{
	long k = 200L * p->scale / 100;
	struct cal_series *s = cal_series_get(set, name, "ns");
	struct cal_series *r = cal_series_get(set, ratio_name, "switches");

	if (k < 1)
		k = 1;
	cal_series_method(s,
			  "two %s pinned to CPU %d calling sched_yield() in a "
			  "loop; one sample is a batch's time over the yields "
			  "of both (%ld by the caller)",
			  what, p->cpu_a, k);
	cal_series_method(r,
			  "switches per yield in the same batches: twice the "
			  "caller's own switches (getrusage) over both sides' "
			  "yields; 1 when every yield switched");
	/* warm up: the peer is on the CPU and both are hot */
	for (long i = 0; i < k; i++)
		sched_yield();
	for (int b = 0; b < p->batches; b++) {
		long v0, iv0, v1, iv1, y0, y1;
		int64_t t0, t1;

		cal_thread_switches(&v0, &iv0);
		y0 = atomic_load(&sh->yields);
		t0 = cal_now();
		for (long i = 0; i < k; i++)
			sched_yield();
		t1 = cal_now();
		y1 = atomic_load(&sh->yields);
		cal_thread_switches(&v1, &iv1);
		cal_series_add(set, s,
			       (double)(t1 - t0) / (double)(k + y1 - y0));
		cal_series_add(set, r,
			       2.0 * (double)(v1 - v0 + iv1 - iv0) /
				       (double)(k + y1 - y0));
	}
}

static int thread_pair(const struct cal_plan *p, struct cal_set *set, char *err,
		       size_t len)
{
	struct yield_shared sh;
	struct peer_arg pa = { &sh, p->cpu_a };
	pthread_t t;
	int r;

	atomic_init(&sh.yields, 0);
	atomic_init(&sh.ready, 0);
	atomic_init(&sh.stop, 0);
	if ((r = pthread_create(&t, NULL, peer_thread, &pa))) {
		snprintf(err, len, "pthread_create: %s", strerror(r));
		return -1;
	}
	while (!atomic_load(&sh.ready))
		sched_yield();
	if (atomic_load(&sh.ready) > 0)
		measure(p, set, &sh, "yield_pair_thread",
			"yield_pair_thread_switches", "threads");
	atomic_store(&sh.stop, 1);
	pthread_join(t, NULL);
	if (atomic_load(&sh.ready) < 0) {
		snprintf(err, len, "cannot pin a thread to CPU %d", p->cpu_a);
		return -1;
	}
	return 0;
}

static int process_pair(const struct cal_plan *p, struct cal_set *set,
			char *err, size_t len)
{
	struct yield_shared *sh = mmap(NULL, sizeof(*sh),
				       PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	if (sh == MAP_FAILED) {
		snprintf(err, len, "mmap: %s", strerror(errno));
		return -1;
	}
	atomic_init(&sh->yields, 0);
	atomic_init(&sh->ready, 0);
	atomic_init(&sh->stop, 0);
	/* the child inherits the caller's pinning to cpu_a */
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		munmap(sh, sizeof(*sh));
		return -1;
	}
	if (pid == 0) {
		peer_loop(sh);
		_exit(0);
	}
	while (!atomic_load(&sh->ready))
		sched_yield();
	measure(p, set, sh, "yield_pair_process", "yield_pair_process_switches",
		"processes");
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	munmap(sh, sizeof(*sh));
	return 0;
}

int cal_bench_yield_pairs(const struct cal_plan *p, struct cal_set *set,
			  char *err, size_t len)
{
	int r = cal_pin(p->cpu_a);

	if (r < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	if (thread_pair(p, set, err, len) < 0)
		return -1;
	return process_pair(p, set, err, len);
}
