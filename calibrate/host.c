/* SPDX-License-Identifier: MIT */
/* The host's clock, CPUs and scheduling attributes (host.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "host.h"

int64_t cal_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * CAL_NSEC_PER_SEC + ts.tv_nsec;
}

bool cal_clock_is_vdso(char *name, size_t len)
{
	/* the clocksources whose vdso_clock_mode is not VDSO_CLOCKMODE_NONE */
	static const char *const vdso[] = {
		"tsc",
		"arch_sys_counter",
		"kvm-clock",
		"hyperv_clocksource_tsc_page",
		"riscv_clocksource",
	};
	char *s = cal_read_text("/sys/devices/system/clocksource/"
				"clocksource0/current_clocksource");
	bool ok = false;

	if (len)
		name[0] = '\0';
	if (!s)
		return false;
	s[strcspn(s, "\n")] = '\0';
	snprintf(name, len, "%s", s);
	for (size_t i = 0; i < sizeof(vdso) / sizeof(vdso[0]); i++)
		if (strcmp(s, vdso[i]) == 0)
			ok = true;
	free(s);
	return ok;
}

int cal_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	/* the move happens at the next switch: make it now */
	sched_yield();
	return 0;
}

int cal_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

int cal_set_nice(int nice)
{
	if (setpriority(PRIO_PROCESS, (id_t)cal_gettid(), nice) < 0)
		return -errno;
	return 0;
}

int cal_set_idle(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (sched_setscheduler(0, SCHED_IDLE, &sp) < 0)
		return -errno;
	return 0;
}

/* include/uapi/linux/sched/types.h: the first version of the struct */
struct cal_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

int cal_set_slice(int64_t ns)
{
#ifdef SYS_sched_setattr
	struct cal_sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_OTHER;
	errno = 0;
	a.sched_nice = getpriority(PRIO_PROCESS, (id_t)cal_gettid());
	if (errno)
		return -errno;
	a.sched_runtime = (uint64_t)ns;
	if (syscall(SYS_sched_setattr, 0, &a, 0) < 0)
		return -errno;
	return 0;
#else
	(void)ns;
	return -ENOSYS;
#endif
}

void cal_timer_slack_min(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

int cal_sleep_until(int64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / CAL_NSEC_PER_SEC),
		.tv_nsec = (long)(t % CAL_NSEC_PER_SEC),
	};
	int r;

	while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				    NULL)) == EINTR)
		;
	return -r;
}

void cal_thread_switches(long *voluntary, long *involuntary)
{
	struct rusage ru;

	memset(&ru, 0, sizeof(ru));
	getrusage(RUSAGE_THREAD, &ru);
	*voluntary = ru.ru_nvcsw;
	*involuntary = ru.ru_nivcsw;
}

int cal_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

char *cal_read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		char *more;

		len += n;
		if (len + 1 < cap)
			break;
		/* /proc files can be larger than a page: grow */
		cap *= 2;
		more = realloc(buf, cap);
		if (!more) {
			free(buf);
			buf = NULL;
			errno = ENOMEM;
		}
		buf = more;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

bool cal_uname_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		return false;
	snprintf(buf, len, "%s", u.release);
	return true;
}

/* "/autogroup-7 nice 0" */
static int autogroup_nice(int *nice)
{
	char *s = cal_read_text("/proc/self/autogroup"), *p, *end;
	bool ok;
	long v;

	if (!s)
		return -errno;
	p = strstr(s, " nice ");
	v = p ? strtol(p + 6, &end, 10) : 0;
	ok = p && end != p + 6;
	free(s);
	if (!ok)
		return -EINVAL;
	*nice = (int)v;
	return 0;
}

static int autogroup_set(int nice)
{
	FILE *f = fopen("/proc/self/autogroup", "w");
	int r = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%d\n", nice) < 0)
		r = -EIO;
	if (fclose(f) != 0 && !r)
		r = -errno;
	return r;
}

/*
 * What a signal that ends the process writes back first: the autogroup
 * is the whole session's, and must not stay boosted after us.  Only
 * async-signal-safe calls (open, write, close, raise).
 */
static char restore_text[16];
static size_t restore_len;

static void restore_on_signal(int sig)
{
	int fd = open("/proc/self/autogroup", O_WRONLY);

	if (fd >= 0) {
		ssize_t n = write(fd, restore_text, restore_len);

		(void)n;
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int cal_boost(int *old)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	int r = autogroup_nice(old);

	if (r < 0)
		return r;
	restore_len = (size_t)snprintf(restore_text, sizeof(restore_text),
				       "%d\n", *old);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], restore_on_signal);
	return autogroup_set(-20);
}

void cal_unboost(int old)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	autogroup_set(old);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}
