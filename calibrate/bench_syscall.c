/* SPDX-License-Identifier: MIT */
/*
 * One thread on one CPU, nothing to wake: the costs of calls that do not
 * block.  Each batch times K calls between two clock reads (whose own
 * cost, about 20 ns, is spread over the K).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

#include "bench.h"
#include "host.h"

/* K at the plan's scale, at least 1. */
static int reps(const struct cal_plan *p, int k)
{
	long n = (long)k * p->scale / 100;

	return n > 0 ? (int)n : 1;
}

static void add(struct cal_set *set, const char *name, const char *method,
		int64_t ns, int k)
{
	struct cal_series *s = cal_series_get(set, name, "ns");

	if (s && !s->method[0])
		cal_series_method(s, "%s; one sample is the mean of %d calls",
				  method, k);
	cal_series_add(set, s, (double)ns / k);
}

static void clock_reads(const struct cal_plan *p, struct cal_set *set)
{
	int k = reps(p, 2000);

	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1;

		for (int i = 0; i < k; i++)
			(void)cal_now();
		t1 = cal_now();
		add(set, "clock_read",
		    "clock_gettime(CLOCK_MONOTONIC) in the vDSO, back to back",
		    t1 - t0, k);
	}
}

static void trivial_syscalls(const struct cal_plan *p, struct cal_set *set)
{
	int k = reps(p, 500);

	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1;

		for (int i = 0; i < k; i++)
			(void)syscall(SYS_getppid);
		t1 = cal_now();
		add(set, "syscall_getppid",
		    "getppid() through syscall(2): entry and exit of a "
		    "trivial system call",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++)
			sched_yield();
		t1 = cal_now();
		add(set, "yield_alone",
		    "sched_yield() with nothing else runnable on the CPU: the "
		    "call and a pick that keeps the caller",
		    t1 - t0, k);
	}
}

/*
 * Arming a timer: timerfd_settime() of a one-shot an hour away, again
 * and again (each call takes the pending hrtimer off and queues it anew,
 * as a sleep's entry queues its hrtimer).  A sleep to an instant already
 * past would measure the timer interrupt instead: the kernel still
 * queues the hrtimer and blocks until it fires.
 */
static int timer_arms(const struct cal_plan *p, struct cal_set *set)
{
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	int k = reps(p, 200), fd = timerfd_create(CLOCK_MONOTONIC, 0);

	if (fd < 0)
		return -1;
	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1;

		for (int i = 0; i < k; i++)
			timerfd_settime(fd, 0, &its, NULL);
		t1 = cal_now();
		add(set, "timerfd_arm_far",
		    "timerfd_settime() arming a one-shot CLOCK_MONOTONIC timer "
		    "an hour away (which replaces the one armed before): a "
		    "system call that queues an hrtimer, never the nearest "
		    "(informative: timer_arm comes from sleep_cycle_cpu)",
		    t1 - t0, k);
	}
	close(fd);
	return 0;
}

/*
 * K writes of size bytes into an empty stream nobody reads, then the K
 * reads that empty it: no wakeup, no blocking.
 */
static int stream_calls(const struct cal_plan *p, struct cal_set *set, int wfd,
			int rfd, size_t size, int k0, const char *wname,
			const char *rname, const char *what)
{
	char buf[128], m[160];
	int k = reps(p, k0);

	/* a full buffer must fail, not block the only reader */
	if (fcntl(wfd, F_SETFL, O_NONBLOCK) < 0 ||
	    fcntl(rfd, F_SETFL, O_NONBLOCK) < 0)
		return -1;
	memset(buf, 0x5a, sizeof(buf));
	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1, t2;

		for (int i = 0; i < k; i++)
			if (write(wfd, buf, size) != (ssize_t)size)
				return -1;
		t1 = cal_now();
		for (int i = 0; i < k; i++)
			if (read(rfd, buf, size) != (ssize_t)size)
				return -1;
		t2 = cal_now();
		snprintf(m, sizeof(m),
			 "a %zu-byte write() into %s that no reader waits on",
			 size, what);
		add(set, wname, m, t1 - t0, k);
		snprintf(m, sizeof(m),
			 "a %zu-byte read() from %s that holds the data", size,
			 what);
		add(set, rname, m, t2 - t1, k);
	}
	return 0;
}

static void futex_calls(const struct cal_plan *p, struct cal_set *set)
{
	int k = reps(p, 500);
	int word = 0;

	for (int b = 0; b < p->batches; b++) {
		int64_t t0 = cal_now(), t1, t2;

		for (int i = 0; i < k; i++)
			syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL,
				NULL, 0);
		t1 = cal_now();
		/* the word is not 1: the wait returns EAGAIN at once */
		for (int i = 0; i < k; i++)
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL,
				NULL, 0);
		t2 = cal_now();
		add(set, "futex_wake_nowaiter",
		    "FUTEX_WAKE on a word nobody waits on", t1 - t0, k);
		add(set, "futex_wait_eagain",
		    "FUTEX_WAIT whose value check fails (EAGAIN): the "
		    "call's entry and the hashed lookup",
		    t2 - t1, k);
	}
}

int cal_bench_syscalls(const struct cal_plan *p, struct cal_set *set, char *err,
		       size_t len)
{
	int fd[2], sv[2], r;

	if ((r = cal_pin(p->cpu_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	clock_reads(p, set);
	trivial_syscalls(p, set);
	if (timer_arms(p, set) < 0) {
		snprintf(err, len, "timerfd_create: %s", strerror(errno));
		return -1;
	}
	futex_calls(p, set);
	if (pipe(fd) < 0) {
		snprintf(err, len, "pipe(): %s", strerror(errno));
		return -1;
	}
	r = stream_calls(p, set, fd[1], fd[0], 4, 200, "pipe_write_nowake",
			 "pipe_read_ready", "a pipe");
	close(fd[0]);
	close(fd[1]);
	if (r < 0) {
		snprintf(err, len, "a pipe's write or read came up short");
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		snprintf(err, len, "socketpair(AF_UNIX): %s", strerror(errno));
		return -1;
	}
	/* 200 of them would fit: each skb counts about 1 KiB of 208 KiB */
	r = stream_calls(p, set, sv[0], sv[1], 100, 50, "unix_write_nowake",
			 "unix_read_ready", "an AF_UNIX stream socket");
	close(sv[0]);
	close(sv[1]);
	if (r < 0) {
		snprintf(err, len, "a socket's write or read came up short");
		return -1;
	}
	return 0;
}
