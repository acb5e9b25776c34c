/* SPDX-License-Identifier: MIT */
/*
 * The real side of kernel-check: one thread per task of the experiment,
 * all pinned to one CPU, with their nice level, policy and custom slice
 * set by the thread itself, a timer slack of 1 ns, and a common start
 * instant.  They measure only with the vDSO clock: CLOCK_THREAD_CPUTIME_
 * ID would enter the kernel and call update_curr(), which moves slice
 * expiries and so the very behaviour under test.  A thread's CPU time is
 * the sum of its segments of uninterrupted clock readings.  The pipe's
 * two threads read their switch counts (getrusage) at the window's edges
 * only.
 *
 * The threads are of one process, hence of one session: on a kernel with
 * autogroup (distribution kernels) they share one task group, whose
 * run queue is the flat run queue the simulator models.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "host.h"
#include "kc.h"

struct pipe_pair {
	int p1[2], p2[2]; /* ping -> pong, pong -> ping */
	atomic_int stop;
};

struct thread_arg {
	const struct kc_task *task;
	struct kc_task_obs *obs;
	struct pipe_pair *pipe;
	int cpu;
	int64_t start, from, to, end; /* absolute */
	atomic_int *failed;	      /* a thread could not set itself up */
	int err;		      /* a negative errno of the set-up */
	const char *what;	      /* ... and what it was */
};

/* The thread's attributes, as the task asks. */
static int setup(struct thread_arg *a)
{
	const struct kc_task *t = a->task;
	int r;

	if ((r = cal_pin(a->cpu)) < 0) {
		a->what = "sched_setaffinity";
		return r;
	}
	cal_timer_slack_min();
	if (t->nice && (r = cal_set_nice(t->nice)) < 0) {
		a->what = "setpriority";
		return r;
	}
	if (t->idle && (r = cal_set_idle()) < 0) {
		a->what = "sched_setscheduler(SCHED_IDLE)";
		return r;
	}
	if (t->slice && (r = cal_set_slice(t->slice)) < 0) {
		a->what = "sched_setattr(sched_runtime)";
		return r;
	}
	return 0;
}

static bool in_window(const struct thread_arg *a, int64_t t)
{
	return t >= a->from && t < a->to;
}

/* Segments are kept relative to the start. */
static void push(struct thread_arg *a, int64_t s, int64_t e)
{
	tl_push(&a->obs->tl, s - a->start, e - a->start);
}

static void run_yielder(struct thread_arg *a)
{
	int64_t last = cal_now(), seg = last;

	for (;;) {
		int64_t now = cal_now();

		if (now - last > CAL_GAP_NS) {
			push(a, seg, last);
			seg = now;
		}
		last = now;
		if (now >= a->end)
			break;
		sched_yield();
		a->obs->yields += in_window(a, now);
	}
	push(a, seg, last);
}

/* Run ns of own CPU time: the clock's advance between readings, without
 * the jumps of being off the CPU. */
static int64_t run_for(struct thread_arg *a, int64_t ns, int64_t *seg)
{
	int64_t own = 0, last = cal_now();

	while (own < ns && last < a->end) {
		int64_t now = cal_now(), d = now - last;

		if (d > CAL_GAP_NS) {
			push(a, *seg, last);
			*seg = now;
		} else {
			own += d;
		}
		last = now;
	}
	return last;
}

static void run_sleeper(struct thread_arg *a)
{
	int64_t seg = cal_now();

	for (;;) {
		int64_t last = run_for(a, a->task->run, &seg), at, now;

		push(a, seg, last);
		if (last >= a->end)
			break;
		at = last + a->task->period;
		cal_sleep_until(at);
		now = cal_now();
		if (in_window(a, at))
			kc_obs_add_lat(a->obs, now - at);
		seg = now;
	}
}

static void run_periodic(struct thread_arg *a)
{
	int64_t next = a->start + a->task->period;

	while (next < a->end) {
		int64_t now;

		cal_sleep_until(next);
		now = cal_now();
		if (in_window(a, next))
			kc_obs_add_lat(a->obs, now - next);
		next += a->task->period;
		while (now > next)
			next += a->task->period;
	}
}

static void run_pipe(struct thread_arg *a, bool ping)
{
	struct pipe_pair *pp = a->pipe;
	long v0 = 0, iv0 = 0, v1, iv1;
	bool in = false;
	char tok[4] = "tok";

	for (;;) {
		int64_t now = cal_now();

		if (!in && now >= a->from) {
			in = true;
			cal_thread_switches(&v0, &iv0);
		}
		/* ping ends the exchange; pong follows until told to stop,
		 * or ping would wait for ever for its last token */
		if (ping && in && now >= a->to)
			break;
		if (ping) {
			if (write(pp->p1[1], tok, 4) != 4 ||
			    read(pp->p2[0], tok, 4) != 4)
				break;
			a->obs->rts += in;
		} else {
			if (read(pp->p1[0], tok, 4) != 4 ||
			    atomic_load(&pp->stop) ||
			    write(pp->p2[1], tok, 4) != 4)
				break;
		}
	}
	cal_thread_switches(&v1, &iv1);
	if (in) {
		a->obs->switches = (uint64_t)(v1 - v0 + iv1 - iv0);
		a->obs->blocks = (uint64_t)(v1 - v0);
	}
	if (ping) {
		/* wake the other end for the last time */
		atomic_store(&pp->stop, 1);
		if (write(pp->p1[1], tok, 4) != 4)
			a->err = -errno;
	}
}

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	int r = setup(a);

	a->err = r;
	if (r < 0)
		atomic_store(a->failed, 1);
	cal_sleep_until(a->start);
	/* all or none: a pipe's end alone would wait for ever */
	if (atomic_load(a->failed))
		return NULL;
	switch (a->task->role) {
	case KC_HOG:
		cal_hog_loop(&a->obs->tl, a->end, CAL_GAP_NS);
		/* the loop's segments are absolute: make them relative */
		for (size_t i = 0; i < a->obs->tl.n; i++) {
			a->obs->tl.seg[i].start -= a->start;
			a->obs->tl.seg[i].end -= a->start;
		}
		break;
	case KC_YIELDER:
		run_yielder(a);
		break;
	case KC_SLEEPER:
		run_sleeper(a);
		break;
	case KC_PERIODIC:
		run_periodic(a);
		break;
	case KC_PIPE_PING:
	case KC_PIPE_PONG:
		run_pipe(a, a->task->role == KC_PIPE_PING);
		break;
	}
	return NULL;
}

int kc_real_run(const struct kc_exp *e, int cpu, const struct kc_timing *t,
		struct kc_run *r, char *err, size_t len)
{
	struct thread_arg arg[KC_MAX_TASKS];
	pthread_t th[KC_MAX_TASKS];
	struct pipe_pair pp;
	atomic_int failed;
	int64_t start;
	int made = 0, rc = 0;

	memset(r, 0, sizeof(*r));
	memset(arg, 0, sizeof(arg));
	r->nr_tasks = e->nr_tasks;
	r->from = t->warmup;
	r->to = t->duration;
	atomic_init(&failed, 0);
	atomic_init(&pp.stop, 0);
	if (pipe(pp.p1) < 0 || pipe(pp.p2) < 0) {
		snprintf(err, len, "pipe(): %s", strerror(errno));
		return -1;
	}
	/* time enough for every thread to set itself up and sleep */
	start = cal_now() + 50 * CAL_NSEC_PER_MSEC;
	for (int i = 0; i < e->nr_tasks; i++) {
		struct thread_arg *a = &arg[i];

		a->task = &e->task[i];
		a->obs = &r->task[i];
		a->pipe = &pp;
		a->cpu = cpu;
		a->start = start;
		a->from = start + t->warmup;
		a->to = start + t->duration;
		a->end = a->to;
		a->failed = &failed;
		/* room for a segment per 100 us: no allocation while running */
		if (!tl_reserve(&a->obs->tl,
				(size_t)(t->duration / 100000) + 1024)) {
			snprintf(err, len, "out of memory");
			atomic_store(&failed, 1);
			rc = -1;
			break;
		}
		if ((rc = pthread_create(&th[i], NULL, thread_main, a))) {
			snprintf(err, len, "pthread_create: %s", strerror(rc));
			/* the threads made so far leave at the start */
			atomic_store(&failed, 1);
			rc = -1;
			break;
		}
		made++;
	}
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	close(pp.p1[0]);
	close(pp.p1[1]);
	close(pp.p2[0]);
	close(pp.p2[1]);
	if (rc < 0) {
		kc_run_free(r);
		return -1;
	}
	for (int i = 0; i < e->nr_tasks; i++) {
		if (arg[i].err < 0) {
			/* a kernel without the feature: the experiment is
			 * skipped, not failed */
			snprintf(r->skipped, sizeof(r->skipped), "%s: %s: %s",
				 e->task[i].name,
				 arg[i].what ? arg[i].what : "pipe",
				 strerror(-arg[i].err));
			return 0;
		}
		if (r->task[i].tl.overflow) {
			snprintf(err, len, "%s: out of memory for its record",
				 e->task[i].name);
			kc_run_free(r);
			return -1;
		}
	}
	return 0;
}
