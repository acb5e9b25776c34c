/* SPDX-License-Identifier: MIT */
/*
 * Two nice-0 hogs pinned to one CPU: the kernel switches between them
 * when the running one's slice has expired, which it notices at a tick,
 * so their run lengths are whole tick periods (the base slice rounded up
 * to ticks).  calibrate reads HZ from them (fit.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "host.h"
#include "timeline.h"

void cal_hog_loop(struct tl_task *t, int64_t end, int64_t gap)
{
	int64_t last = cal_now(), start = last;

	for (;;) {
		int64_t now = cal_now();

		if (now - last > gap) {
			tl_push(t, start, last);
			start = now;
		}
		last = now;
		if (now >= end)
			break;
	}
	tl_push(t, start, last);
}

struct hog {
	struct tl_task tl;
	int cpu;
	int64_t start, end;
	atomic_int state;
};

static void *hog_main(void *a)
{
	struct hog *h = a;

	if (cal_pin(h->cpu) < 0) {
		atomic_store(&h->state, -1);
		return NULL;
	}
	atomic_store(&h->state, 1);
	cal_sleep_until(h->start);
	cal_hog_loop(&h->tl, h->end, CAL_GAP_NS);
	return NULL;
}

int cal_bench_hogs(const struct cal_plan *p, struct cal_set *set, char *err,
		   size_t len)
{
	struct hog h[2];
	struct tl_task tl[2];
	pthread_t t[2];
	int64_t start = cal_now() + 20 * CAL_NSEC_PER_MSEC;
	/* the first and last 10% are ramp-up and stragglers */
	int64_t from = start + p->hog_ns / 10, to = start + p->hog_ns * 9 / 10;
	struct cal_series *s = cal_series_get(set, "hog_run_length", "ns");
	int64_t runs[4096];
	int ok = 0, r;

	memset(h, 0, sizeof(h));
	for (int i = 0; i < 2; i++) {
		h[i].cpu = p->cpu_a;
		h[i].start = start;
		h[i].end = start + p->hog_ns;
		atomic_init(&h[i].state, 0);
		/* a segment per tick and per switch at most, with room */
		if (!tl_reserve(&h[i].tl, (size_t)(p->hog_ns /
						   (100 * CAL_NSEC_PER_USEC)) +
						  1024)) {
			snprintf(err, len, "out of memory");
			tl_free(&h[0].tl);
			return -1;
		}
	}
	for (int i = 0; i < 2; i++) {
		if ((r = pthread_create(&t[i], NULL, hog_main, &h[i]))) {
			snprintf(err, len, "pthread_create: %s", strerror(r));
			for (int j = 0; j < i; j++)
				pthread_join(t[j], NULL);
			tl_free(&h[0].tl);
			tl_free(&h[1].tl);
			return -1;
		}
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		ok += atomic_load(&h[i].state) > 0 && !h[i].tl.overflow;
		tl[i] = h[i].tl;
	}
	if (ok == 2) {
		for (size_t i = 0; i < 2; i++) {
			size_t n = tl_runs(tl, 2, i, from, to, runs, 4096);

			for (size_t k = 0; k < n && k < 4096; k++)
				cal_series_add(set, s, (double)runs[k]);
		}
		cal_series_method(s,
				  "two nice-0 threads pinned to CPU %d, each "
				  "reading the vDSO clock in a loop for %lld "
				  "ms; one sample is one uninterrupted run of "
				  "either, from its first reading after the "
				  "other ran to its last before the other ran "
				  "again",
				  p->cpu_a,
				  (long long)(p->hog_ns / CAL_NSEC_PER_MSEC));
	} else {
		snprintf(err, len, "cannot run two hogs on CPU %d", p->cpu_a);
	}
	tl_free(&h[0].tl);
	tl_free(&h[1].tl);
	return ok == 2 ? 0 : -1;
}

static void *idle_hog_main(void *a)
{
	struct cal_idle_hog *h = a;

	if (cal_pin(h->cpu) < 0 || cal_set_idle() < 0) {
		atomic_store(&h->state, -1);
		return NULL;
	}
	atomic_store(&h->state, 1);
	while (!atomic_load_explicit(&h->stop, memory_order_relaxed))
		;
	return NULL;
}

int cal_idle_hogs_start(struct cal_idle_hog *h, int n, char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		int r;

		atomic_init(&h[i].stop, 0);
		atomic_init(&h[i].state, 0);
		if ((r = pthread_create(&h[i].t, NULL, idle_hog_main, &h[i]))) {
			snprintf(err, len, "pthread_create: %s", strerror(r));
			for (int j = 0; j < i; j++) {
				atomic_store(&h[j].stop, 1);
				pthread_join(h[j].t, NULL);
			}
			return -1;
		}
	}
	for (int i = 0; i < n; i++)
		while (!atomic_load(&h[i].state))
			sched_yield();
	return 0;
}

bool cal_idle_hogs_stop(struct cal_idle_hog *h, int n)
{
	bool ok = true;

	for (int i = 0; i < n; i++) {
		atomic_store(&h[i].stop, 1);
		pthread_join(h[i].t, NULL);
		ok = ok && atomic_load(&h[i].state) > 0;
	}
	return ok;
}
