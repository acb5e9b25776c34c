/* SPDX-License-Identifier: MIT */
/*
 * Ping-pong between two threads: the caller sends a token, the peer
 * receives it and sends it back, as perf bench sched pipe does.  Over
 * pipes (4 bytes) or futexes, on one CPU or across two CPUs of one LLC,
 * those idle or busy with a SCHED_IDLE hog each (so that a wakeup
 * preempts a running task instead of waking a halted CPU).
 *
 * Besides the round trip, each batch records what the kernel did: both
 * sides' voluntary and involuntary switches (getrusage at the batch's
 * edges), so that the round trip can be split into its calls, wakeups
 * and switches as they really happened (on one CPU a woken task often
 * preempts the waker before it blocks, and then one wakeup serves a
 * round trip); and across CPUs the duration of the waker's write() and
 * the one-way time from just before it to just after the peer's read()
 * returns.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "bench.h"
#include "host.h"

enum pp_kind {
	PP_PIPE,
	PP_FUTEX
};

/* One direction. */
struct pp_chan {
	enum pp_kind kind;
	int fd[2];
	atomic_int word;
};

struct pp {
	struct pp_chan to_peer, to_main;
	int peer_cpu;
	long warm, k;
	int batches;
	int64_t *t_recv;    /* the peer's stamp after each receive */
	long (*peer_sw)[2]; /* the peer's switches at each batch edge */
	atomic_int ready;   /* 1 running, -1 failed */
};

static int pp_send(struct pp_chan *c)
{
	static const char token[4] = { 't', 'o', 'k', 'n' };

	if (c->kind == PP_PIPE)
		return write(c->fd[1], token, 4) == 4 ? 0 : -1;
	atomic_store(&c->word, 1);
	syscall(SYS_futex, &c->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return 0;
}

static int pp_recv(struct pp_chan *c)
{
	char buf[4];

	if (c->kind == PP_PIPE)
		return read(c->fd[0], buf, 4) == 4 ? 0 : -1;
	while (atomic_exchange(&c->word, 0) == 0)
		syscall(SYS_futex, &c->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL,
			0);
	return 0;
}

static void *peer_main(void *a)
{
	struct pp *pp = a;

	if (cal_pin(pp->peer_cpu) < 0) {
		atomic_store(&pp->ready, -1);
		return NULL;
	}
	atomic_store(&pp->ready, 1);
	for (long i = 0; i < pp->warm; i++)
		if (pp_recv(&pp->to_peer) || pp_send(&pp->to_main))
			return NULL;
	cal_thread_switches(&pp->peer_sw[0][0], &pp->peer_sw[0][1]);
	for (int b = 0; b < pp->batches; b++) {
		for (long i = 0; i < pp->k; i++) {
			if (pp_recv(&pp->to_peer))
				return NULL;
			pp->t_recv[(long)b * pp->k + i] = cal_now();
			if (pp_send(&pp->to_main))
				return NULL;
		}
		cal_thread_switches(&pp->peer_sw[b + 1][0],
				    &pp->peer_sw[b + 1][1]);
	}
	return NULL;
}

static int chan_open(struct pp_chan *c, enum pp_kind kind)
{
	c->kind = kind;
	c->fd[0] = c->fd[1] = -1;
	atomic_init(&c->word, 0);
	return kind == PP_PIPE ? pipe(c->fd) : 0;
}

static void chan_close(struct pp_chan *c)
{
	if (c->kind == PP_PIPE) {
		close(c->fd[0]);
		close(c->fd[1]);
	}
}

/* What one variant writes: the series' names, NULL for none. */
struct pp_names {
	const char *rt, *switches, *blocks, *write, *oneway;
	const char *what; /* "over two pipes on CPU 1" */
};

static void describe(struct cal_set *set, const struct pp_names *nm, long k)
{
	struct cal_series *s;

	if ((s = cal_series_get(set, nm->rt, "ns")))
		cal_series_method(s,
				  "round trip of a token %s: one sample is a "
				  "batch of %ld round trips over their count",
				  nm->what, k);
	if (nm->switches && (s = cal_series_get(set, nm->switches, "switches")))
		cal_series_method(s,
				  "context switches per round trip, both "
				  "sides (getrusage voluntary + involuntary), "
				  "same batches");
	if (nm->blocks && (s = cal_series_get(set, nm->blocks, "blocks")))
		cal_series_method(s, "voluntary switches per round trip, both "
				     "sides: receives that blocked, each ended "
				     "by one wakeup");
	if (nm->write && (s = cal_series_get(set, nm->write, "ns")))
		cal_series_method(s, "duration of the caller's write() that "
				     "wakes the peer blocked on the other CPU, "
				     "batch mean");
	if (nm->oneway && (s = cal_series_get(set, nm->oneway, "ns")))
		cal_series_method(s,
				  "from just before the caller's write() to "
				  "just after the peer's read() returned on "
				  "the other CPU (one clock: CLOCK_MONOTONIC), "
				  "batch mean");
}

static int run_pp(const struct cal_plan *p, struct cal_set *set,
		  enum pp_kind kind, int peer_cpu, long k0,
		  const struct pp_names *nm, char *err, size_t len)
{
	struct pp pp;
	long k = k0 * p->scale / 100, (*me)[2] = NULL;
	int64_t *t_send = NULL, *t_sent = NULL;
	pthread_t t;
	int r, ret = -1;

	if (k < 1)
		k = 1;
	memset(&pp, 0, sizeof(pp));
	pp.peer_cpu = peer_cpu;
	pp.warm = k / 4 + 1;
	pp.k = k;
	pp.batches = p->batches;
	atomic_init(&pp.ready, 0);
	pp.t_recv = calloc((size_t)(k * p->batches), sizeof(int64_t));
	t_send = calloc((size_t)(k * p->batches), sizeof(int64_t));
	t_sent = calloc((size_t)(k * p->batches), sizeof(int64_t));
	pp.peer_sw = calloc((size_t)p->batches + 1, sizeof(*pp.peer_sw));
	me = calloc((size_t)p->batches + 1, sizeof(*me));
	if (!pp.t_recv || !t_send || !t_sent || !pp.peer_sw || !me) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	if (chan_open(&pp.to_peer, kind) < 0 ||
	    chan_open(&pp.to_main, kind) < 0) {
		snprintf(err, len, "pipe(): %s", strerror(errno));
		goto out;
	}
	if ((r = pthread_create(&t, NULL, peer_main, &pp))) {
		snprintf(err, len, "pthread_create: %s", strerror(r));
		goto close;
	}
	while (!atomic_load(&pp.ready))
		sched_yield();
	if (atomic_load(&pp.ready) < 0) {
		pthread_join(t, NULL);
		snprintf(err, len, "cannot pin a thread to CPU %d", peer_cpu);
		goto close;
	}
	for (long i = 0; i < pp.warm; i++)
		if (pp_send(&pp.to_peer) || pp_recv(&pp.to_main))
			break;
	cal_thread_switches(&me[0][0], &me[0][1]);
	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1;

		for (long i = 0; i < k; i++) {
			t_send[(long)b * k + i] = cal_now();
			if (pp_send(&pp.to_peer))
				break;
			t_sent[(long)b * k + i] = cal_now();
			if (pp_recv(&pp.to_main))
				break;
		}
		t1 = cal_now();
		cal_thread_switches(&me[b + 1][0], &me[b + 1][1]);
		cal_series_add(set, cal_series_get(set, nm->rt, "ns"),
			       (double)(t1 - t0) / (double)k);
	}
	pthread_join(t, NULL);
	describe(set, nm, k);
	for (int b = 0; b < p->batches; b++) {
		double vol = (double)(me[b + 1][0] - me[b][0] +
				      pp.peer_sw[b + 1][0] - pp.peer_sw[b][0]);
		double inv = (double)(me[b + 1][1] - me[b][1] +
				      pp.peer_sw[b + 1][1] - pp.peer_sw[b][1]);
		double w = 0, o = 0;

		for (long i = 0; i < k; i++) {
			long j = (long)b * k + i;

			w += (double)(t_sent[j] - t_send[j]);
			o += (double)(pp.t_recv[j] - t_send[j]);
		}
		if (nm->switches)
			cal_series_add(set,
				       cal_series_get(set, nm->switches,
						      "switches"),
				       (vol + inv) / (double)k);
		if (nm->blocks)
			cal_series_add(
				set, cal_series_get(set, nm->blocks, "blocks"),
				vol / (double)k);
		if (nm->write)
			cal_series_add(set,
				       cal_series_get(set, nm->write, "ns"),
				       w / (double)k);
		if (nm->oneway)
			cal_series_add(set,
				       cal_series_get(set, nm->oneway, "ns"),
				       o / (double)k);
	}
	ret = 0;
close:
	chan_close(&pp.to_peer);
	chan_close(&pp.to_main);
out:
	free(pp.t_recv);
	free(t_send);
	free(t_sent);
	free(pp.peer_sw);
	free(me);
	return ret;
}

int cal_bench_pingpong(const struct cal_plan *p, struct cal_set *set, char *err,
		       size_t len)
{
	char w1[96], w2[96], w3[128], w4[128];
	struct pp_names same = { "pipe_rt_same_cpu",
				 "pipe_rt_same_cpu_switches",
				 "pipe_rt_same_cpu_blocks",
				 NULL,
				 NULL,
				 w1 };
	struct pp_names fsame = { "futex_rt_same_cpu",
				  "futex_rt_same_cpu_switches",
				  "futex_rt_same_cpu_blocks",
				  NULL,
				  NULL,
				  w2 };
	struct pp_names idle = {
		"pipe_rt_cross_idle", NULL, NULL, "pipe_write_wake_idle",
		"pipe_oneway_idle",   w3
	};
	struct pp_names busy = {
		"pipe_rt_cross_busy", NULL, NULL, "pipe_write_wake_busy",
		"pipe_oneway_busy",   w4
	};
	struct cal_idle_hog hogs[2];
	int r;

	snprintf(w1, sizeof(w1), "over two pipes between two threads on CPU %d",
		 p->cpu_a);
	snprintf(w2, sizeof(w2),
		 "through two futex words between two threads on CPU %d",
		 p->cpu_a);
	if ((r = cal_pin(p->cpu_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	if (run_pp(p, set, PP_PIPE, p->cpu_a, 200, &same, err, len) < 0 ||
	    run_pp(p, set, PP_FUTEX, p->cpu_a, 200, &fsame, err, len) < 0)
		return -1;
	if (p->cpu_b < 0)
		return 0;
	snprintf(w3, sizeof(w3),
		 "over two pipes between CPU %d and CPU %d, both otherwise "
		 "idle",
		 p->cpu_a, p->cpu_b);
	snprintf(w4, sizeof(w4),
		 "over two pipes between CPU %d and CPU %d, each busy with a "
		 "SCHED_IDLE hog",
		 p->cpu_a, p->cpu_b);
	if (run_pp(p, set, PP_PIPE, p->cpu_b, 20, &idle, err, len) < 0)
		return -1;
	hogs[0].cpu = p->cpu_a;
	hogs[1].cpu = p->cpu_b;
	if (cal_idle_hogs_start(hogs, 2, err, len) < 0)
		return -1;
	r = run_pp(p, set, PP_PIPE, p->cpu_b, 50, &busy, err, len);
	if (!cal_idle_hogs_stop(hogs, 2) && r == 0) {
		snprintf(err, len,
			 "cannot make a SCHED_IDLE hog on CPU %d or %d",
			 p->cpu_a, p->cpu_b);
		return -1;
	}
	return r;
}
