/* SPDX-License-Identifier: MIT */
/*
 * The split of measurements into the model's cost entries (fit.h).
 *
 * How the model charges, which the formulas invert (tests/
 * check_calibrate.c holds the simulator to each of these):
 *  - a sched_yield() that switches: syscall, then the switch, charged to
 *    the task switched in (ctxsw_thread or ctxsw_process by its kind);
 *  - a pipe write or read: pipe_write or pipe_read; waking the reader
 *    blocked on this CPU: ttwu_local to the waker; the switch: ctxsw;
 *  - a wakeup through an idle CPU's wake list: ttwu_remote to the waker,
 *    the wakee runs idle_exit later; a timer that wakes a task on an idle
 *    CPU: idle_exit, ttwu_local, then the switch;
 *  - spawn + exit + join: fork to the parent, exit to the child, one
 *    switch to the child and one back (ctxsw_process each), wait_reap.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fit.h"

/* One input of a formula: a series, by name, with its coefficient. */
struct term {
	const char *series;
	double coef;
};

static void note(struct cal_fit *fit, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct cal_fit *fit, const char *fmt, ...)
{
	va_list ap;

	if (fit->nr_notes >= CAL_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(fit->notes[fit->nr_notes++], sizeof(fit->notes[0]), fmt, ap);
	va_end(ap);
}

static double med(const struct cal_set *set, const char *name)
{
	const struct cal_series *s = cal_set_find(set, name);

	return s ? s->st.median : 0;
}

static bool have(const struct cal_set *set, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!cal_set_find(set, names[i]))
			return false;
	return true;
}

/*
 * Add entry name = value with the spread of its inputs: the IQR is the
 * sum of the inputs' IQRs weighted by how much each moves the value
 * (|coef|), a bound that needs no independence; the samples are the
 * fewest of any input.
 */
static struct cal_cost *
add(struct cal_fit *fit, const struct cal_set *set, const char *name,
    double value, const struct term *in, size_t nr_in, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static struct cal_cost *add(struct cal_fit *fit, const struct cal_set *set,
			    const char *name, double value,
			    const struct term *in, size_t nr_in,
			    const char *fmt, ...)
{
	struct cal_cost *c;
	double iqr = 0;
	va_list ap;

	if (fit->nr >= CAL_MAX_COSTS)
		return NULL;
	c = &fit->cost[fit->nr++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->value = (int64_t)llround(value);
	c->samples = SIZE_MAX;
	for (size_t i = 0; i < nr_in; i++) {
		const struct cal_series *s = cal_set_find(set, in[i].series);
		double sp;

		if (!s)
			continue;
		iqr += fabs(in[i].coef) * s->st.iqr;
		if (s->st.n < c->samples)
			c->samples = s->st.n;
		sp = cal_spread_pct(&s->st);
		if (sp >= c->spread_pct) {
			c->spread_pct = sp;
			c->widest = s->name;
		}
	}
	c->iqr = (int64_t)llround(iqr);
	va_start(ap, fmt);
	vsnprintf(c->method, sizeof(c->method), fmt, ap);
	va_end(ap);
	return c;
}

const struct cal_cost *cal_fit_find(const struct cal_fit *fit, const char *name)
{
	for (size_t i = 0; i < fit->nr; i++)
		if (strcmp(fit->cost[i].name, name) == 0)
			return &fit->cost[i];
	return NULL;
}

static double val(const struct cal_fit *fit, const char *name)
{
	const struct cal_cost *c = cal_fit_find(fit, name);

	return c ? (double)c->value : 0;
}

/* The entries measured by one call each. */
static void direct(struct cal_fit *fit, const struct cal_set *set)
{
	static const struct {
		const char *cost, *series, *what;
	} one[] = {
		{ "gettimeofday", "clock_read",
		  "a clock_gettime() in the vDSO" },
		{ "syscall", "syscall_getppid", "getppid()" },
		{ "pipe_write", "pipe_write_nowake",
		  "a 4-byte pipe write() that wakes nobody" },
		{ "pipe_read", "pipe_read_ready",
		  "a 4-byte pipe read() of data already there" },
		{ "unix_write", "unix_write_nowake",
		  "a 100-byte AF_UNIX stream write() that wakes nobody" },
		{ "unix_read", "unix_read_ready",
		  "a 100-byte AF_UNIX stream read() of data already there" },
		{ "futex_wake", "futex_wake_nowaiter",
		  "FUTEX_WAKE with no waiter" },
		{ "futex_wait", "futex_wait_eagain",
		  "FUTEX_WAIT that returns EAGAIN (its entry cost)" },
		{ "fork", "fork_parent", "fork() in the parent" },
		{ "wait_reap", "wait_reap_zombie",
		  "waitpid() of a child already a zombie" },
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		struct term t = { one[i].series, 1 };

		if (!cal_set_find(set, one[i].series)) {
			note(fit, "%s: not measured (no %s)", one[i].cost,
			     one[i].series);
			continue;
		}
		add(fit, set, one[i].cost, med(set, one[i].series), &t, 1,
		    "median of %s: %s", one[i].series, one[i].what);
	}
}

/* ctxsw_*: a yield that switches is syscall + ctxsw. */
static int switches(struct cal_fit *fit, const struct cal_set *set, char *err,
		    size_t len)
{
	static const struct {
		const char *cost, *series, *ratio, *what;
	} sw[] = {
		{ "ctxsw_thread", "yield_pair_thread",
		  "yield_pair_thread_switches", "threads" },
		{ "ctxsw_process", "yield_pair_process",
		  "yield_pair_process_switches", "processes" },
	};

	for (size_t i = 0; i < 2; i++) {
		const char *need[] = { sw[i].series, sw[i].ratio,
				       "syscall_getppid" };
		double r = med(set, sw[i].ratio), y = med(set, sw[i].series);
		double sc = med(set, "syscall_getppid");
		struct term t[] = { { sw[i].series, 1 / r },
				    { "syscall_getppid", 1 / r } };

		if (!have(set, need, 3)) {
			note(fit, "%s: not measured", sw[i].cost);
			continue;
		}
		if (r < 0.8) {
			snprintf(err, len,
				 "%s: only %.2f switches per yield between two "
				 "%s on one CPU (1 expected): the kernel "
				 "kept the yielding task, so a yield does not "
				 "identify a switch here",
				 sw[i].cost, r, sw[i].what);
			return -1;
		}
		add(fit, set, sw[i].cost, (y - sc) / r, t, 2,
		    "(%s - syscall) / switches per yield = (%.1f - %.1f) / "
		    "%.3f: two %s on one CPU yielding to each other, each "
		    "yield a system call and a switch",
		    sw[i].series, y, sc, r, sw[i].what);
	}
	return 0;
}

/*
 * ttwu_local: the one-CPU pipe round trip less its calls and switches,
 * over the wakeups it took (the receives that blocked).
 */
static void local_wakeup(struct cal_fit *fit, const struct cal_set *set)
{
	const char *need[] = { "pipe_rt_same_cpu", "pipe_rt_same_cpu_switches",
			       "pipe_rt_same_cpu_blocks" };
	double rt = med(set, "pipe_rt_same_cpu");
	double s = med(set, "pipe_rt_same_cpu_switches");
	double b = med(set, "pipe_rt_same_cpu_blocks");
	double pw = val(fit, "pipe_write"), pr = val(fit, "pipe_read");
	double cs = val(fit, "ctxsw_thread");
	struct term t[5];

	if (!have(set, need, 3) || !cal_fit_find(fit, "pipe_write") ||
	    !cal_fit_find(fit, "pipe_read") ||
	    !cal_fit_find(fit, "ctxsw_thread")) {
		note(fit, "ttwu_local: not measured");
		return;
	}
	if (b < 0.5) {
		note(fit,
		     "ttwu_local: not measured (%.2f blocking receives per "
		     "round trip: too few wakeups to weigh)",
		     b);
		return;
	}
	t[0] = (struct term){ "pipe_rt_same_cpu", 1 / b };
	t[1] = (struct term){ "pipe_write_nowake", 2 / b };
	t[2] = (struct term){ "pipe_read_ready", 2 / b };
	t[3] = (struct term){ "yield_pair_thread", s / b };
	t[4] = (struct term){ "syscall_getppid", s / b };
	add(fit, set, "ttwu_local", (rt - 2 * pw - 2 * pr - s * cs) / b, t, 5,
	    "(pipe_rt_same_cpu - 2 pipe_write - 2 pipe_read - switches x "
	    "ctxsw_thread) / wakeups = (%.1f - %.0f - %.0f - %.2f x %.0f) / "
	    "%.2f: a one-CPU pipe ping-pong less its calls and switches, per "
	    "wakeup (the receives that blocked); it also holds what a "
	    "blocking read costs beyond a ready one",
	    rt, 2 * pw, 2 * pr, s, cs, b);
}

/*
 * timer_arm: what a timed sleep costs the sleeper beyond its switch.  The
 * model charges a sleep cycle timer_arm (the sleep op) and ctxsw_thread
 * (the switch in); the kernel's charge is the thread's sum_exec_runtime
 * per cycle.  Arming an hrtimer alone (the timerfd_arm_far series,
 * timerfd_settime() of a far timer) misses the clockevent's
 * reprogramming for the nearest timer, which a guest pays as a trap.
 */
static void timer_cost(struct cal_fit *fit, const struct cal_set *set)
{
	double c = med(set, "sleep_cycle_cpu"), cs = val(fit, "ctxsw_thread");
	struct term t[] = { { "sleep_cycle_cpu", 1 },
			    { "yield_pair_thread", 1 } };

	if (!cal_set_find(set, "sleep_cycle_cpu") ||
	    !cal_fit_find(fit, "ctxsw_thread")) {
		note(fit, "timer_arm: not measured (no per-thread CPU time "
			  "in /proc)");
		return;
	}
	add(fit, set, "timer_arm", c - cs, t, 2,
	    "sleep_cycle_cpu - ctxsw_thread = %.0f - %.0f: the CPU the "
	    "kernel charges a thread per 1 ms sleep on a busy CPU, less the "
	    "switch the model charges apart; it holds the next sleep's entry "
	    "and the clockevent's reprogramming",
	    c, cs);
}

/* idle_exit: an idle CPU's timer wakeup is idle_exit + ttwu_local +
 * ctxsw_thread in the model. */
static void idle_exit(struct cal_fit *fit, const struct cal_set *set)
{
	double w = med(set, "timer_wakeup_idle");
	double tl = val(fit, "ttwu_local"), cs = val(fit, "ctxsw_thread");
	struct term t[] = { { "timer_wakeup_idle", 1 },
			    { "pipe_rt_same_cpu", 1 },
			    { "yield_pair_thread", 1 } };

	if (!cal_set_find(set, "timer_wakeup_idle") ||
	    !cal_fit_find(fit, "ttwu_local") ||
	    !cal_fit_find(fit, "ctxsw_thread")) {
		note(fit, "idle_exit: not measured");
		return;
	}
	add(fit, set, "idle_exit", w - tl - cs, t, 3,
	    "timer_wakeup_idle - ttwu_local - ctxsw_thread = %.0f - %.0f - "
	    "%.0f: how late a timer wakes a thread alone on its CPU, less "
	    "what the model charges for the wakeup and the switch",
	    w, tl, cs);
}

/* The wakeups of another CPU: the waker's write() and the one-way time. */
static void remote(struct cal_fit *fit, const struct cal_set *set)
{
	double pw = val(fit, "pipe_write"), cs = val(fit, "ctxsw_thread");

	if (cal_set_find(set, "pipe_write_wake_idle") &&
	    cal_fit_find(fit, "pipe_write")) {
		double w = med(set, "pipe_write_wake_idle");
		struct term t[] = { { "pipe_write_wake_idle", 1 },
				    { "pipe_write_nowake", 1 } };

		add(fit, set, "ttwu_remote", w - pw, t, 2,
		    "pipe_write_wake_idle - pipe_write = %.0f - %.0f: the "
		    "write() that wakes a reader blocked on an idle CPU of "
		    "the LLC (wake list and IPI) less a write that wakes "
		    "nobody",
		    w, pw);
	} else {
		note(fit, "ttwu_remote: not measured (one CPU)");
	}
	if (cal_set_find(set, "pipe_oneway_busy") &&
	    cal_fit_find(fit, "ctxsw_thread")) {
		double o = med(set, "pipe_oneway_busy");
		struct term t[] = { { "pipe_oneway_busy", 1 },
				    { "pipe_write_nowake", 1 },
				    { "yield_pair_thread", 1 } };

		add(fit, set, "ipi", o - pw - cs, t, 3,
		    "pipe_oneway_busy - pipe_write - ctxsw_thread = %.0f - "
		    "%.0f - %.0f: from a write() to the reader's return on a "
		    "CPU busy with a SCHED_IDLE hog, less the write's own "
		    "work and the switch: the reschedule IPI's delivery and "
		    "the remote enqueue",
		    o, pw, cs);
	} else {
		note(fit, "ipi: not measured (one CPU)");
	}
}

/* exit: what is left of the fork cycle. */
static void exit_cost(struct cal_fit *fit, const struct cal_set *set)
{
	double c = med(set, "fork_cycle"), f = val(fit, "fork");
	double w = val(fit, "wait_reap"), cs = val(fit, "ctxsw_process");
	struct term t[] = { { "fork_cycle", 1 },
			    { "fork_parent", 1 },
			    { "wait_reap_zombie", 1 },
			    { "yield_pair_process", 2 } };

	if (!cal_set_find(set, "fork_cycle") || !cal_fit_find(fit, "fork") ||
	    !cal_fit_find(fit, "wait_reap") ||
	    !cal_fit_find(fit, "ctxsw_process")) {
		note(fit, "exit: not measured");
		return;
	}
	add(fit, set, "exit", c - f - w - 2 * cs, t, 4,
	    "fork_cycle - fork - wait_reap - 2 ctxsw_process = %.0f - %.0f - "
	    "%.0f - 2 x %.0f: the fork + exit + wait cycle less what the "
	    "model charges apart from the child's exit; it holds the "
	    "child's start too",
	    c, f, w, cs);
}

/* rq_remote_* and sis_probe: cache-line transfers. */
static void lines(struct cal_fit *fit, const struct cal_set *set)
{
	static const struct {
		const char *cost, *series;
	} l[] = {
		{ "rq_remote_llc", "cacheline_llc" },
		{ "rq_remote_cross_llc", "cacheline_cross_llc" },
		{ "rq_remote_cross_pkg", "cacheline_cross_pkg" },
	};

	for (size_t i = 0; i < 3; i++) {
		double x = med(set, l[i].series);
		struct term t = { l[i].series, 4 };

		if (!cal_set_find(set, l[i].series)) {
			note(fit, "%s: not measured (no such pair of CPUs)",
			     l[i].cost);
			continue;
		}
		add(fit, set, l[i].cost, 4 * x, &t, 1,
		    "4 x %s = 4 x %.1f: the lock's line and the three or so "
		    "lines of rq and cfs_rq data a remote enqueue touches, "
		    "moved one after another",
		    l[i].series, x);
		if (i == 0) {
			t.coef = 1;
			add(fit, set, "sis_probe", x, &t, 1,
			    "cacheline_llc = %.1f: reading one CPU's run-queue "
			    "state, a line another core writes",
			    x);
		}
	}
}

static void smt(struct cal_fit *fit, const struct cal_set *set)
{
	double a = med(set, "smt_loop_alone"), s = med(set, "smt_loop_shared");
	struct term t[] = { { "smt_loop_alone", 0 }, { "smt_loop_shared", 0 } };
	struct cal_cost *c;
	double pct;

	if (!cal_set_find(set, "smt_loop_alone") ||
	    !cal_set_find(set, "smt_loop_shared") || s <= 0) {
		note(fit, "smt_speed_pct: not measured (no SMT siblings)");
		return;
	}
	pct = 100 * a / s;
	pct = pct < 1 ? 1 : pct > 100 ? 100 : pct;
	c = add(fit, set, "smt_speed_pct", pct, t, 2,
		"100 x smt_loop_alone / smt_loop_shared = 100 x %.0f / %.0f: "
		"the speed of a busy thread while its sibling is busy too",
		a, s);
	/* a ratio's relative spread is about the sum of its parts' */
	if (c) {
		double ra = cal_spread_pct(
			&cal_set_find(set, "smt_loop_alone")->st);
		double rs = cal_spread_pct(
			&cal_set_find(set, "smt_loop_shared")->st);

		c->iqr = (int64_t)llround(pct * (ra + rs) / 100);
	}
}

/*
 * The file-system entries, as the I/O model charges its ops
 * (src/engine/fs_ops.c): an open fs_open, a create fs_open + fs_create,
 * a read of L bytes in C calls C x fs_read_call + L x fs_copy_page /
 * 4096, a write C x fs_write_call + a fs_write_page per new page + a
 * fs_copy_page per page already there, a logged inode fs_dirty_inode;
 * close, stat, rename, unlink, mkdir and each readdir entry one entry.
 */
static void fs_costs(struct cal_fit *fit, const struct cal_set *set)
{
	static const struct {
		const char *cost, *series, *what;
	} one[] = {
		{ "fs_open", "fs_open_existing",
		  "open() of an existing file by path" },
		{ "fs_close", "fs_close_file", "close()" },
		{ "fs_stat", "fs_stat_existing", "stat() of an existing file" },
		{ "fs_rename", "fs_rename_over",
		  "rename() of an empty file over another" },
		{ "fs_unlink", "fs_unlink_empty", "unlink() of an empty file" },
		{ "fs_mkdir", "fs_mkdir", "mkdir()" },
		{ "fs_readdir_entry", "fs_readdir_entry",
		  "getdents64() of a whole directory, per entry" },
	};
	const char *need[] = { "fs_open_existing",  "fs_create_new",
			       "fs_read_8",	    "fs_read_page",
			       "fs_write_8_cached", "fs_write_page_new",
			       "fs_futimens",	    "syscall_getppid" };
	double r8, rp, copy, call, wcall;

	if (!have(set, need, sizeof(need) / sizeof(need[0]))) {
		note(fit, "fs_*: not measured (no file-system benchmarks: "
			  "--fs-dir none, or a recording without them)");
		return;
	}
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		struct term t = { one[i].series, 1 };

		if (cal_set_find(set, one[i].series))
			add(fit, set, one[i].cost, med(set, one[i].series), &t,
			    1, "median of %s: %s", one[i].series, one[i].what);
	}
	{
		struct term t[] = { { "fs_create_new", 1 },
				    { "fs_open_existing", 1 } };

		add(fit, set, "fs_create",
		    med(set, "fs_create_new") - med(set, "fs_open_existing"), t,
		    2,
		    "fs_create_new - fs_open_existing = %.1f - %.1f: the "
		    "model charges a create as an open and a create",
		    med(set, "fs_create_new"), med(set, "fs_open_existing"));
	}
	/* r8 = call + 8 copy / 4096, rp = call + copy */
	r8 = med(set, "fs_read_8");
	rp = med(set, "fs_read_page");
	copy = (rp - r8) * 4096 / 4088;
	call = r8 - copy * 8 / 4096;
	{
		struct term t[] = { { "fs_read_page", 4096.0 / 4088 },
				    { "fs_read_8", 4096.0 / 4088 } };

		add(fit, set, "fs_copy_page", copy, t, 2,
		    "(fs_read_page - fs_read_8) x 4096 / 4088 = (%.1f - %.1f) "
		    "x 4096 / 4088: a page read less an 8-byte read is the "
		    "copy of the other 4088 bytes",
		    rp, r8);
		t[0].coef = 8.0 / 4088;
		t[1].coef = 1 + 8.0 / 4088;
		add(fit, set, "fs_read_call", call, t, 2,
		    "fs_read_8 - 8 x fs_copy_page / 4096 = %.1f - 8 x %.1f / "
		    "4096: one read() of 8 cached bytes, less their copy",
		    r8, copy);
	}
	wcall = med(set, "fs_write_8_cached") - copy;
	{
		struct term t[] = { { "fs_write_8_cached", 1 },
				    { "fs_read_page", 4096.0 / 4088 },
				    { "fs_read_8", 4096.0 / 4088 } };

		add(fit, set, "fs_write_call", wcall, t, 3,
		    "fs_write_8_cached - fs_copy_page = %.1f - %.1f: the model "
		    "charges a write into a cached page the call and the "
		    "page's copy",
		    med(set, "fs_write_8_cached"), copy);
		struct term tp[] = { { "fs_write_page_new", 1 },
				     { "fs_write_8_cached", 1 },
				     { "fs_read_page", 4096.0 / 4088 },
				     { "fs_read_8", 4096.0 / 4088 } };

		add(fit, set, "fs_write_page",
		    med(set, "fs_write_page_new") - wcall, tp, 4,
		    "fs_write_page_new - fs_write_call = %.1f - %.1f: a write "
		    "of a new page is the call and the new page",
		    med(set, "fs_write_page_new"), wcall);
	}
	{
		struct term t[] = { { "fs_futimens", 1 },
				    { "syscall_getppid", 1 } };

		add(fit, set, "fs_dirty_inode",
		    med(set, "fs_futimens") - med(set, "syscall_getppid"), t, 2,
		    "fs_futimens - syscall = %.1f - %.1f: futimens() is a "
		    "system call that logs the inode",
		    med(set, "fs_futimens"), med(set, "syscall_getppid"));
	}
	note(fit, "fs_fsync, work_item, irq_entry, blk_*, wb_*, end_io, "
		  "jbd2_*: not measured (defaults kept: kernel paths a "
		  "user-space benchmark cannot time alone)");
}

int cal_fit_costs(const struct cal_set *set, struct cal_fit *fit,
		  bool keep_negative, size_t *nr_negative, char *err,
		  size_t len)
{
	memset(fit, 0, sizeof(*fit));
	if (nr_negative)
		*nr_negative = 0;
	direct(fit, set);
	if (switches(fit, set, err, len) < 0)
		return -1;
	timer_cost(fit, set);
	local_wakeup(fit, set);
	idle_exit(fit, set);
	remote(fit, set);
	exit_cost(fit, set);
	lines(fit, set);
	smt(fit, set);
	fs_costs(fit, set);
	note(fit, "ipi_recv, signal_*, tcp_*, migrate_*, balance_per_cpu: "
		  "not measured (defaults kept)");
	if (cal_set_find(set, "timer_wakeup_busy"))
		note(fit,
		     "timer_wakeup_busy %.0f ns: a timer on a busy CPU is that "
		     "late here; the model has no entry for it (it fires such "
		     "timers at their instant)",
		     med(set, "timer_wakeup_busy"));
	for (size_t i = 0; i < fit->nr; i++) {
		struct cal_cost *c = &fit->cost[i];
		size_t n = strlen(c->method);

		if (c->value >= 0)
			continue;
		if (!keep_negative) {
			snprintf(err, len,
				 "%s came out negative (%lld ns): %s; the "
				 "parts it is measured against vary more than "
				 "it does, which a busy machine does",
				 c->name, (long long)c->value, c->method);
			return -1;
		}
		/* the noise is larger than the cost: 0 is the closest a
		 * cost can be to what was measured */
		snprintf(c->method + n, sizeof(c->method) - n,
			 " [noisy: came out %lld ns, written as 0 by "
			 "--allow-noisy]",
			 (long long)c->value);
		c->value = 0;
		if (nr_negative)
			(*nr_negative)++;
	}
	return 0;
}

int cal_fit_hz(const struct cal_series *runs, int64_t slice_ns, char *why,
	       size_t len)
{
	static const int hz[] = { 100, 250, 300, 1000 };
	double m, best = 1e300;
	int pick = 0;

	if (!runs || runs->st.n < 5) {
		snprintf(why, len,
			 "too few runs of the two hogs (%zu) to read HZ from",
			 runs ? runs->st.n : (size_t)0);
		return 0;
	}
	m = runs->st.median;
	for (size_t i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		int64_t tick = 1000000000LL / hz[i];
		int64_t ticks = (slice_ns + tick - 1) / tick;
		double want = (double)(ticks > 0 ? ticks : 1) * (double)tick;
		double d = fabs(m - want) / want;

		if (d < best) {
			best = d;
			pick = hz[i];
		}
	}
	if (best > 0.15) {
		snprintf(why, len,
			 "the hogs' median run is %.3f ms, more than 15%% from "
			 "the run of any HZ (the base slice %.3f ms rounded up "
			 "to ticks of HZ 100, 250, 300 or 1000)",
			 m / 1e6, (double)slice_ns / 1e6);
		return 0;
	}
	snprintf(why, len,
		 "median run of two nice-0 hogs on one CPU %.3f ms (%zu runs): "
		 "the base slice %.3f ms rounded up to ticks of HZ %d",
		 m / 1e6, runs->st.n, (double)slice_ns / 1e6, pick);
	return pick;
}
