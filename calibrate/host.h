/* SPDX-License-Identifier: MIT */
/*
 * calibrate/: the host side of eevdf-sim: `calibrate` measures this
 * machine's costs and writes a machine file, `kernel-check` runs small
 * scheduler experiments on the real kernel and in the simulator and
 * compares them (docs/calibration.md).  It is the only place where wall
 * clocks, threads, CPU affinity and sysfs are used: the library (src/)
 * stays deterministic.  It includes include/eevdf/ and the C library
 * only, never src/.
 *
 * host.h: what the measurements need from the running kernel: the clock,
 * pinning, scheduling attributes, and the file reads of /proc and /sys.
 */
#ifndef CAL_HOST_H
#define CAL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAL_NSEC_PER_SEC 1000000000LL
#define CAL_NSEC_PER_MSEC 1000000LL
#define CAL_NSEC_PER_USEC 1000LL
/* The CPUs a measurement may name; sysfs numbers above are ignored. */
#define CAL_MAX_CPUS 4096

/*
 * CLOCK_MONOTONIC in ns.  On x86 with the TSC (and on arm64) glibc reads
 * it in the vDSO, without entering the kernel: a reading never runs
 * update_curr() and so never moves a slice expiry.  cal_clock_is_vdso()
 * checks that the clocksource allows it.
 */
int64_t cal_now(void);

/*
 * Whether the current clocksource is one the vDSO reads (tsc, arm_arch_
 * counter, kvm-clock, hyperv_clocksource_tsc_page); *name gets it.
 */
bool cal_clock_is_vdso(char *name, size_t len);

/* Pin the calling thread to cpu.  0, or a negative errno. */
int cal_pin(int cpu);

/* The calling thread's nice level (setpriority() on its tid). */
int cal_set_nice(int nice);

/* The calling thread's policy: SCHED_IDLE. */
int cal_set_idle(void);

/*
 * A custom slice for the calling SCHED_NORMAL thread: sched_setattr()
 * with sched_runtime = ns (Linux 6.12 and later).  0, or a negative
 * errno (EINVAL on kernels without custom slices).
 */
int cal_set_slice(int64_t ns);

/* Timer slack of the calling thread: 1 ns, so that timers fire when set. */
void cal_timer_slack_min(void);

/* Sleep until CLOCK_MONOTONIC t (absolute).  0, or a negative errno. */
int cal_sleep_until(int64_t t);

/* The calling thread's id. */
int cal_gettid(void);

/* Context switches of the calling thread so far (getrusage). */
void cal_thread_switches(long *voluntary, long *involuntary);

/*
 * The CPUs this process may run on, in increasing order, into cpus (at
 * most max); their count, or a negative errno.
 */
int cal_allowed_cpus(int *cpus, int max);

/*
 * The whole of a small text file (a /proc or /sys file) into a malloc()ed
 * string, or NULL with errno set.
 */
char *cal_read_text(const char *path);

/*
 * Raise the weight of this process's autogroup (its session's task
 * group, /proc/self/autogroup) to nice -20 against the other sessions,
 * so that other processes take little of the CPUs while it measures.
 * *old gets the nice to restore with cal_unboost().  0, or a negative
 * errno: ENOENT without autogroup, EACCES/EPERM without CAP_SYS_NICE.
 */
int cal_boost(int *old);
void cal_unboost(int old);

/* `uname -r` into buf; false when uname fails. */
bool cal_uname_release(char *buf, size_t len);

#endif
