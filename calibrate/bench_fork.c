/* SPDX-License-Identifier: MIT */
/*
 * fork() + exit() + wait(), both sides on one CPU, as UnixBench's spawn
 * does: the parent forks a child that exits at once and waits for it.
 * Each cycle gives the fork call in the parent, the path from the
 * child's last clock reading through its exit to the parent's return
 * from waitpid(), and the whole cycle; a second kind of cycle lets the
 * child die first (waitid(WNOWAIT) waits without reaping) and times the
 * reap alone.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "bench.h"
#include "host.h"

int cal_bench_fork(const struct cal_plan *p, struct cal_set *set, char *err,
		   size_t len)
{
	int n = 2 * p->scale / 100, r;
	_Atomic int64_t *stamp;
	struct cal_series *sf, *se, *sc, *sr;

	if (n < 1)
		n = 1;
	if ((r = cal_pin(p->cpu_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	stamp = mmap(NULL, sizeof(*stamp), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stamp == MAP_FAILED) {
		snprintf(err, len, "mmap: %s", strerror(errno));
		return -1;
	}
	sf = cal_series_get(set, "fork_parent", "ns");
	se = cal_series_get(set, "fork_exit_path", "ns");
	sc = cal_series_get(set, "fork_cycle", "ns");
	sr = cal_series_get(set, "wait_reap_zombie", "ns");
	cal_series_method(sf,
			  "fork() of this process as its parent sees it, on "
			  "CPU %d; mean of %d",
			  p->cpu_a, n);
	cal_series_method(se,
			  "from the child's last clock reading before _exit() "
			  "to the parent's return from waitpid(): the exit, "
			  "the wakeup, the switch and the reap; mean of %d",
			  n);
	cal_series_method(sc,
			  "fork() + the child's _exit(0) + waitpid(), one "
			  "CPU, as UnixBench spawn; mean of %d",
			  n);
	cal_series_method(sr,
			  "waitpid(WNOHANG) of a child already a zombie "
			  "(waited for with waitid(WNOWAIT)); mean of %d",
			  n);
	for (int b = 0; b < p->batches; b++) {
		double f = 0, e = 0, c = 0, w = 0;

		for (int i = 0; i < n; i++) {
			int64_t t0 = cal_now(), t1, t2, t3, t4;
			siginfo_t si;
			pid_t pid = fork();

			if (pid == 0) {
				atomic_store(stamp, cal_now());
				_exit(0);
			}
			t1 = cal_now();
			if (pid < 0) {
				snprintf(err, len, "fork: %s", strerror(errno));
				munmap(stamp, sizeof(*stamp));
				return -1;
			}
			waitpid(pid, NULL, 0);
			t2 = cal_now();
			f += (double)(t1 - t0);
			e += (double)(t2 - atomic_load(stamp));
			c += (double)(t2 - t0);
			pid = fork();
			if (pid == 0)
				_exit(0);
			if (pid < 0) {
				snprintf(err, len, "fork: %s", strerror(errno));
				munmap(stamp, sizeof(*stamp));
				return -1;
			}
			waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
			t3 = cal_now();
			waitpid(pid, NULL, WNOHANG);
			t4 = cal_now();
			w += (double)(t4 - t3);
		}
		cal_series_add(set, sf, f / n);
		cal_series_add(set, se, e / n);
		cal_series_add(set, sc, c / n);
		cal_series_add(set, sr, w / n);
	}
	munmap(stamp, sizeof(*stamp));
	return 0;
}
