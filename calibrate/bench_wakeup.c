/* SPDX-License-Identifier: MIT */
/*
 * The timer wakeup of an idle CPU: a thread alone on its CPU sleeps
 * until an absolute instant with a timer slack of 1 ns; how late it runs
 * is the interrupt, the CPU's exit from its idle state, the wakeup and
 * the switch from the idle task.  Measured against the instant asked
 * for, with the same clock.  Then the same on a CPU kept busy by a
 * SCHED_IDLE hog, which the woken thread preempts at once: the timer
 * interrupt's delivery to a running CPU (informative: the model fires a
 * busy CPU's timers at their instant).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "host.h"
#include "hostinfo.h"

/* How long each sleep is: long enough for the idle governor to pick the
 * state a CPU idle between two events of a millisecond workload gets. */
#define SLEEP_NS CAL_NSEC_PER_MSEC

/* The calling thread's sum_exec_runtime, as its /proc file says. */
static bool sum_exec(int64_t *ns)
{
	char path[64], *s;
	bool ok;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", cal_gettid());
	s = cal_read_text(path);
	ok = s && cal_parse_sched_ns(s, "se.sum_exec_runtime", ns);
	free(s);
	return ok;
}

/*
 * n wakeups per batch into series s; with charge, also the CPU time the
 * kernel charged the thread per sleep cycle (its sum_exec_runtime over
 * the batch, less what reading it costs: the advance between two reads
 * in a row).
 */
static int wakeups(const struct cal_plan *p, struct cal_set *set,
		   struct cal_series *s, struct cal_series *charge, int n,
		   char *err, size_t len)
{
	for (int b = 0; b < p->batches; b++) {
		int64_t c0 = 0, c1 = 0, c2 = 0;
		double sum = 0;
		bool ok = charge && sum_exec(&c0);

		for (int i = 0; i < n; i++) {
			int64_t at = cal_now() + SLEEP_NS;
			int r = cal_sleep_until(at);

			if (r < 0) {
				snprintf(err, len, "clock_nanosleep: %s",
					 strerror(-r));
				return -1;
			}
			sum += (double)(cal_now() - at);
		}
		cal_series_add(set, s, sum / n);
		if (ok && sum_exec(&c1) && sum_exec(&c2))
			cal_series_add(set, charge,
				       (double)(c1 - c0 - (c2 - c1)) / n);
	}
	return 0;
}

int cal_bench_idle_wakeup(const struct cal_plan *p, struct cal_set *set,
			  char *err, size_t len)
{
	struct cal_series *s = cal_series_get(set, "timer_wakeup_idle", "ns");
	struct cal_series *sb = cal_series_get(set, "timer_wakeup_busy", "ns");
	struct cal_series *sc = cal_series_get(set, "sleep_cycle_cpu", "ns");
	struct cal_idle_hog hog = { .cpu = p->cpu_a };
	int n = 4 * p->scale / 100, r;

	if (n < 1)
		n = 1;
	if ((r = cal_pin(p->cpu_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	cal_timer_slack_min();
	cal_series_method(s,
			  "a thread alone on CPU %d sleeps %lld us until an "
			  "absolute instant (clock_nanosleep, timer slack "
			  "1 ns) and reads the clock when it runs: how late; "
			  "one sample is the mean of %d wakeups",
			  p->cpu_a, (long long)(SLEEP_NS / CAL_NSEC_PER_USEC),
			  n);
	if (wakeups(p, set, s, NULL, n, err, len) < 0)
		return -1;
	cal_series_method(sb,
			  "the same on CPU %d kept busy by a SCHED_IDLE hog, "
			  "which the woken thread preempts: the timer "
			  "interrupt's delivery to a running CPU and the "
			  "switch; one sample is the mean of %d wakeups",
			  p->cpu_a, n);
	cal_series_method(
		sc,
		"the CPU time the kernel charged that thread per sleep "
		"cycle on the busy CPU (se.sum_exec_runtime of "
		"/proc/self/task/TID/sched over a batch of %d, less "
		"the cost of reading it): the switch in, the return "
		"from the sleep, the next sleep's entry and timer "
		"set-up, the switch out",
		n);
	if (cal_idle_hogs_start(&hog, 1, err, len) < 0)
		return -1;
	r = wakeups(p, set, sb, sc, n, err, len);
	if (!cal_idle_hogs_stop(&hog, 1) && r == 0) {
		snprintf(err, len, "cannot make a SCHED_IDLE hog on CPU %d",
			 p->cpu_a);
		return -1;
	}
	return r;
}
