/* SPDX-License-Identifier: MIT */
/*
 * Cache-line transfers and SMT contention.
 *
 * Two threads on two CPUs bounce one cache line: each waits for the
 * other's write and answers with its own, so every step is one modified
 * line moving between the CPUs' caches; a batch's time over its steps is
 * the one-way transfer.  Between cores of one LLC, of two LLCs of a
 * package, of two packages: the unit of the run-queue lock costs
 * (rq_remote_*) and of sis_probe.
 *
 * SMT: a fixed integer loop timed on one thread of a core while its
 * sibling idles, then while the sibling runs the same loop.
 */
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "host.h"

struct bounce {
	alignas(64) atomic_long line;
	alignas(64) atomic_int state; /* 1 running, -1 failed */
	atomic_int stop;
	int cpu;
	long steps;
};

/* The peer answers odd values with the next even one. */
static void *bounce_peer(void *a)
{
	struct bounce *b = a;

	if (cal_pin(b->cpu) < 0) {
		atomic_store(&b->state, -1);
		return NULL;
	}
	atomic_store(&b->state, 1);
	for (;;) {
		long v = atomic_load_explicit(&b->line, memory_order_acquire);

		if (v < 0)
			break;
		if (v & 1)
			atomic_store_explicit(&b->line, v + 1,
					      memory_order_release);
	}
	return NULL;
}

static int bounce(const struct cal_plan *p, struct cal_set *set, int cpu,
		  const char *name, const char *what, char *err, size_t len)
{
	struct bounce b;
	struct cal_series *s;
	long k = 2000L * p->scale / 100, v = 0;
	pthread_t t;
	int r;

	if (k < 1)
		k = 1;
	memset(&b, 0, sizeof(b));
	atomic_init(&b.line, 0);
	atomic_init(&b.state, 0);
	b.cpu = cpu;
	if ((r = pthread_create(&t, NULL, bounce_peer, &b))) {
		snprintf(err, len, "pthread_create: %s", strerror(r));
		return -1;
	}
	while (!atomic_load(&b.state))
		sched_yield();
	if (atomic_load(&b.state) < 0) {
		pthread_join(t, NULL);
		snprintf(err, len, "cannot pin a thread to CPU %d", cpu);
		return -1;
	}
	s = cal_series_get(set, name, "ns");
	cal_series_method(s,
			  "one cache line bounced between CPU %d and CPU %d "
			  "(%s), each side answering the other's write; one "
			  "sample is a batch's time over its %ld one-way "
			  "transfers",
			  p->cpu_a, cpu, what, 2 * k);
	for (int batch = -1; batch < p->batches; batch++) {
		int64_t t0 = cal_now(), t1;

		for (long i = 0; i < k; i++) {
			atomic_store_explicit(&b.line, ++v,
					      memory_order_release);
			while (atomic_load_explicit(&b.line,
						    memory_order_acquire) == v)
				;
			v++;
		}
		t1 = cal_now();
		if (batch >= 0) /* the first is a warm-up */
			cal_series_add(set, s,
				       (double)(t1 - t0) / (double)(2 * k));
	}
	atomic_store(&b.line, -1);
	pthread_join(t, NULL);
	return 0;
}

/* A loop of dependent integer work that stays in the core. */
static uint64_t spin_work(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

static void *smt_sibling(void *a)
{
	struct bounce *b = a;
	uint64_t x = 1;

	if (cal_pin(b->cpu) < 0) {
		atomic_store(&b->state, -1);
		return NULL;
	}
	atomic_store(&b->state, 1);
	while (!atomic_load_explicit(&b->stop, memory_order_relaxed))
		x = spin_work(1000, x);
	atomic_store(&b->line, (long)(x & 1));
	return NULL;
}

static int smt(const struct cal_plan *p, struct cal_set *set, char *err,
	       size_t len)
{
	uint64_t n = (uint64_t)100000 * (uint64_t)p->scale / 100, x = 1;
	struct cal_series *a = cal_series_get(set, "smt_loop_alone", "ns");
	struct cal_series *sh = cal_series_get(set, "smt_loop_shared", "ns");
	struct bounce b;
	pthread_t t;
	int r;

	if ((r = cal_pin(p->smt_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->smt_a,
			 strerror(-r));
		return -1;
	}
	cal_series_method(a,
			  "%llu steps of a dependent integer loop on CPU %d "
			  "while its SMT sibling CPU %d idles",
			  (unsigned long long)n, p->smt_a, p->smt_b);
	cal_series_method(sh,
			  "the same loop on CPU %d while CPU %d runs it too",
			  p->smt_a, p->smt_b);
	for (int batch = 0; batch < p->batches; batch++) {
		int64_t t0 = cal_now();

		x = spin_work(n, x);
		cal_series_add(set, a, (double)(cal_now() - t0));
	}
	memset(&b, 0, sizeof(b));
	atomic_init(&b.state, 0);
	atomic_init(&b.stop, 0);
	b.cpu = p->smt_b;
	if ((r = pthread_create(&t, NULL, smt_sibling, &b))) {
		snprintf(err, len, "pthread_create: %s", strerror(r));
		return -1;
	}
	while (!atomic_load(&b.state))
		sched_yield();
	for (int batch = 0; atomic_load(&b.state) > 0 && batch < p->batches;
	     batch++) {
		int64_t t0 = cal_now();

		x = spin_work(n, x);
		cal_series_add(set, sh, (double)(cal_now() - t0));
	}
	atomic_store(&b.stop, 1);
	pthread_join(t, NULL);
	/* keep the loops from being optimised away */
	if (x == 42)
		fputc('\n', stderr);
	return atomic_load(&b.state) > 0 ? 0 : -1;
}

int cal_bench_cache(const struct cal_plan *p, struct cal_set *set, char *err,
		    size_t len)
{
	int r;

	if (p->cpu_b >= 0 || p->cpu_other_llc >= 0 || p->cpu_other_pkg >= 0) {
		if ((r = cal_pin(p->cpu_a)) < 0) {
			snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
				 strerror(-r));
			return -1;
		}
	}
	if (p->cpu_b >= 0 && bounce(p, set, p->cpu_b, "cacheline_llc",
				    "another core of its LLC", err, len) < 0)
		return -1;
	if (p->cpu_other_llc >= 0 &&
	    bounce(p, set, p->cpu_other_llc, "cacheline_cross_llc",
		   "another LLC of its package", err, len) < 0)
		return -1;
	if (p->cpu_other_pkg >= 0 &&
	    bounce(p, set, p->cpu_other_pkg, "cacheline_cross_pkg",
		   "another package", err, len) < 0)
		return -1;
	if (p->smt_a >= 0 && smt(p, set, err, len) < 0)
		return -1;
	return 0;
}
