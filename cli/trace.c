/* SPDX-License-Identifier: MIT */
/*
 * Trace sinks (see trace.h).  The trace has a process "machine" with a
 * track per CPU: a slice per stretch a task ran, an instant per wakeup
 * on the wakee's CPU with an arrow from the waker's running slice to the
 * wakee's next slice, a slice per spin on a run-queue lock, an instant
 * per IPI on the CPU it was sent to, and an nr_running counter per CPU;
 * and a process per task group (eevdf_sim_task_group()) with a track per
 * task: its "running" slices (on which CPU) and its "runnable" waits
 * (from becoming runnable to running: perf sched's delay).  --trace-state
 * adds the EEVDF state as counters (trace_state.c).  The file format is
 * the writer's (trace_out.h): Chrome JSON or Perfetto protobuf.
 *
 * timehist follows perf sched timehist: a row each time a task is
 * switched out (idle is left out, as perf does without -I), with the
 * time, the CPU, the task, its wait time (from its last switch-out to
 * this switch-in), its scheduling delay (from becoming runnable to this
 * switch-in) and its run time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace_out.h"
#include "trace_state.h"

struct cpu_track {
	int curr;	  /* pid running, -1 idle */
	eevdf_time since; /* when curr was switched in */
	int nr_running;	  /* tasks runnable here, the running one too */
	uint64_t flow;	  /* the arrow ending in curr's slice, 0 none */
};

struct task_track {
	eevdf_time last_out;	   /* last switch-out, -1 never ran */
	eevdf_time runnable;	   /* became runnable, -1 not waiting */
	eevdf_time wait;	   /* wait time of the current run */
	eevdf_time delay;	   /* sch delay of the current run */
	uint64_t flow;		   /* wakeup flow to end when it runs, 0 none */
	int cpu;		   /* where it is runnable */
	char name[EEVDF_NAME_MAX]; /* cached comm, "" until first needed */
};

struct cli_trace {
	eevdf_sim *sim;
	struct tr_out *out; /* NULL: no trace file */
	struct trace_state *state;
	unsigned state_mask;
	FILE *th;
	eevdf_time from, to, last;
	int nr_cpus;
	struct cpu_track *cpu;
	struct task_track *task;
	size_t nr_task;
	uint64_t next_flow;
	bool th_head; /* timehist header written */
	bool oom;
};

/* The track of pid, grown on demand; NULL when out of memory. */
static struct task_track *task_of(struct cli_trace *t, int pid)
{
	if (pid < 1)
		return NULL;
	if ((size_t)pid > t->nr_task) {
		size_t n = t->nr_task ? t->nr_task : 64;
		struct task_track *nt;

		while (n < (size_t)pid)
			n *= 2;
		nt = realloc(t->task, n * sizeof(*nt));
		if (!nt) {
			t->oom = true;
			return NULL;
		}
		for (size_t i = t->nr_task; i < n; i++)
			nt[i] = (struct task_track){ .last_out = -1,
						     .runnable = -1 };
		t->task = nt;
		t->nr_task = n;
	}
	return &t->task[pid - 1];
}

/* A task's name, looked up once and kept in its track. */
static const char *name_of(struct cli_trace *t, int pid, char *buf, size_t len)
{
	struct eevdf_task_stats st;
	struct task_track *k;

	if (pid < 0)
		return "<idle>";
	k = task_of(t, pid);
	if (k && k->name[0])
		return k->name;
	if (t->sim && eevdf_sim_task_stats(t->sim, (size_t)(pid - 1), &st) == 0)
		snprintf(buf, len, "%s", st.name);
	else
		snprintf(buf, len, "pid %d", pid);
	if (k && t->sim)
		snprintf(k->name, sizeof(k->name), "%s", buf);
	return buf;
}

/* The writers' view of names. */
static const char *writer_task_name(void *ud, int pid, char *buf, size_t len)
{
	return name_of(ud, pid, buf, len);
}

static const char *writer_group(void *ud, int pid)
{
	struct cli_trace *t = ud;

	return t->sim ? eevdf_sim_task_group(t->sim, pid) : "/";
}

enum cli_trace_format cli_trace_format_of(const char *path)
{
	static const char *const ext[] = { ".pftrace", ".perfetto-trace", ".pb",
					   ".proto" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t e = strlen(ext[i]);

		if (n >= e && strcmp(path + n - e, ext[i]) == 0)
			return CLI_TRACE_PROTO;
	}
	return CLI_TRACE_JSON;
}

struct cli_trace *cli_trace_new(const struct cli_trace_opts *o)
{
	struct cli_trace *t = calloc(1, sizeof(*t));
	struct tr_names names = { writer_task_name, writer_group, NULL };

	if (!t)
		return NULL;
	names.ud = t;
	t->cpu = calloc((size_t)o->nr_cpus, sizeof(*t->cpu));
	if (!t->cpu)
		goto fail;
	for (int c = 0; c < o->nr_cpus; c++)
		t->cpu[c].curr = -1;
	t->nr_cpus = o->nr_cpus;
	t->th = o->timehist;
	t->from = o->from;
	t->to = o->to;
	t->next_flow = 1;
	if (o->file) {
		t->out = o->format == CLI_TRACE_PROTO ?
				 tr_proto_new(o->file, o->nr_cpus, &names) :
				 tr_json_new(o->file, o->nr_cpus, &names);
		if (!t->out)
			goto fail;
	}
	if (o->file && o->state) {
		t->state_mask = o->state;
		t->state = trace_state_new(o->state, o->nr_cpus);
		if (!t->state)
			goto fail;
	}
	return t;
fail:
	cli_trace_free(t);
	return NULL;
}

bool cli_trace_attach(struct cli_trace *t, eevdf_sim *sim)
{
	t->sim = sim;
	return !t->state ||
	       eevdf_sim_trace_detail(sim, EEVDF_DETAIL_STATE) == 0;
}

void cli_trace_free(struct cli_trace *t)
{
	if (!t)
		return;
	if (t->out)
		t->out->ops->free(t->out);
	trace_state_free(t->state);
	free(t->cpu);
	free(t->task);
	free(t);
}

static bool in_window(const struct cli_trace *t, eevdf_time a, eevdf_time b)
{
	return b >= t->from && (t->to < 0 || a <= t->to);
}

/* [a, b) clipped to the window; false when nothing is left. */
static bool clip(const struct cli_trace *t, eevdf_time *a, eevdf_time *b)
{
	if (*b <= *a || !in_window(t, *a, *b))
		return false;
	if (*a < t->from)
		*a = t->from;
	if (t->to >= 0 && *b > t->to)
		*b = t->to;
	return *b > *a;
}

/* The slices of whatever ran on cpu from its switch-in to now: on the
 * CPU's track and on the task's. */
static void close_slice(struct cli_trace *t, int cpu, eevdf_time now)
{
	struct cpu_track *c = &t->cpu[cpu];
	eevdf_time a = c->since, b = now;
	char name[EEVDF_NAME_MAX + 16];
	struct tr_arg arg;

	if (!t->out || c->curr < 0 || !clip(t, &a, &b))
		return;
	arg = (struct tr_arg){ "pid", NULL, c->curr };
	t->out->ops->slice(t->out, (struct tr_track){ TR_CPU, cpu }, a, b,
			   name_of(t, c->curr, name, sizeof(name)), NULL, &arg,
			   1, c->since >= t->from ? c->flow : 0);
	arg = (struct tr_arg){ "cpu", NULL, cpu };
	t->out->ops->slice(t->out, (struct tr_track){ TR_TASK, c->curr }, a, b,
			   "running", NULL, &arg, 1, 0);
}

static void counter(struct cli_trace *t, int cpu, eevdf_time now)
{
	if (!t->out || !in_window(t, now, now))
		return;
	t->out->ops->counter(t->out, (struct tr_track){ TR_CPU, cpu }, now,
			     "nr_running", TR_UNIT_COUNT,
			     t->cpu[cpu].nr_running);
}

static void timehist_row(struct cli_trace *t, int cpu, int pid, eevdf_time now,
			 eevdf_time since)
{
	struct task_track *k = pid > 0 ? task_of(t, pid) : NULL;
	char name[EEVDF_NAME_MAX + 16], label[EEVDF_NAME_MAX + 32];
	eevdf_time wait = k ? k->wait : 0, delay = k ? k->delay : 0;
	eevdf_time run = now - since;

	/* idle stretches are left out, as perf prints them only with -I */
	if (!t->th || pid < 0)
		return;
	if (!t->th_head) {
		fprintf(t->th, "%15s %-6s %-30s %9s %9s %9s\n", "time", "cpu",
			"task name", "wait time", "sch delay", "run time");
		fprintf(t->th, "%15s %-6s %-30s %9s %9s %9s\n", "", "",
			"[tid/pid]", "(msec)", "(msec)", "(msec)");
		fprintf(t->th, "%15s %-6s %-30s %9s %9s %9s\n",
			"---------------", "------",
			"------------------------------", "---------",
			"---------", "---------");
		t->th_head = true;
	}
	snprintf(label, sizeof(label), "%s[%d]",
		 name_of(t, pid, name, sizeof(name)), pid);
	fprintf(t->th,
		"%8" PRId64 ".%06" PRId64 " [%04d] %-30s %5" PRId64
		".%03" PRId64 " %5" PRId64 ".%03" PRId64 " %5" PRId64
		".%03" PRId64 "\n",
		now / 1000000000, now / 1000 % 1000000, cpu, label,
		wait / 1000000, wait / 1000 % 1000, delay / 1000000,
		delay / 1000 % 1000, run / 1000000, run / 1000 % 1000);
}

static void on_switch(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct cpu_track *c = &t->cpu[ev->cpu];
	struct task_track *prev = task_of(t, ev->prev_pid);
	struct task_track *next = task_of(t, ev->pid);

	close_slice(t, ev->cpu, ev->time);
	timehist_row(t, ev->cpu, ev->prev_pid, ev->time, c->since);
	if (prev) {
		prev->last_out = ev->time;
		if (ev->prev_state == EEVDF_TASK_RUNNING) {
			prev->runnable = ev->time; /* preempted: waits */
		} else {
			prev->runnable = -1;
			c->nr_running--;
			counter(t, ev->cpu, ev->time);
		}
	}
	c->curr = ev->pid;
	c->since = ev->time;
	c->flow = 0;
	if (!next)
		return;
	next->wait = next->last_out >= 0 ? ev->time - next->last_out : 0;
	next->delay = next->runnable >= 0 ? ev->time - next->runnable : 0;
	if (t->out && next->runnable >= 0) {
		eevdf_time a = next->runnable, b = ev->time;
		struct tr_arg arg = { "cpu", NULL, ev->cpu };

		if (clip(t, &a, &b))
			t->out->ops->slice(
				t->out, (struct tr_track){ TR_TASK, ev->pid },
				a, b, "runnable", NULL, &arg, 1, 0);
	}
	next->runnable = -1;
	if (next->flow && t->out && in_window(t, ev->time, ev->time)) {
		/* the arrow ends in the slice starting now */
		t->out->ops->flow_end(t->out, ev->cpu, ev->time, next->flow);
		c->flow = next->flow;
	}
	next->flow = 0;
}

static void on_runnable(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct task_track *k = task_of(t, ev->pid);
	char name[EEVDF_NAME_MAX + 16];
	struct tr_arg args[3];

	if (!k)
		return;
	k->runnable = ev->time;
	k->cpu = ev->cpu;
	t->cpu[ev->cpu].nr_running++;
	if (!t->out || !in_window(t, ev->time, ev->time))
		return;

	args[0] = (struct tr_arg){ "pid", NULL, ev->pid };
	args[1] = (struct tr_arg){ "comm",
				   name_of(t, ev->pid, name, sizeof(name)), 0 };
	args[2] = (struct tr_arg){ "waker", NULL, ev->prev_pid };
	t->out->ops->instant(t->out, (struct tr_track){ TR_CPU, ev->cpu },
			     ev->time,
			     ev->kind == EEVDF_TRACE_NEW ? "new" : "wakeup",
			     ev->pid, NULL, args, 3);
	counter(t, ev->cpu, ev->time);
	/* an arrow from the waker's slice, if it is running somewhere */
	if (ev->kind == EEVDF_TRACE_WAKEUP && ev->prev_pid > 0) {
		for (int c = 0; c < t->nr_cpus; c++) {
			if (t->cpu[c].curr != ev->prev_pid)
				continue;
			k->flow = t->next_flow++;
			t->out->ops->flow_start(t->out, c, ev->time, k->flow);
			break;
		}
	}
}

/* An instant on the CPU the task arrives at; a queued task's count moves. */
static void on_migrate(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct task_track *k = task_of(t, ev->pid);
	char name[EEVDF_NAME_MAX + 16];
	struct tr_arg args[4];
	int from = ev->orig_cpu;

	if (!k || from < 0 || from >= t->nr_cpus)
		return;
	k->cpu = ev->cpu;
	if (k->runnable >= 0) {
		t->cpu[from].nr_running--;
		t->cpu[ev->cpu].nr_running++;
		counter(t, from, ev->time);
		counter(t, ev->cpu, ev->time);
	}
	if (!t->out || !in_window(t, ev->time, ev->time))
		return;
	args[0] = (struct tr_arg){ "pid", NULL, ev->pid };
	args[1] = (struct tr_arg){ "comm",
				   name_of(t, ev->pid, name, sizeof(name)), 0 };
	args[2] = (struct tr_arg){ "orig_cpu", NULL, from };
	args[3] = (struct tr_arg){ "dest_cpu", NULL, ev->cpu };
	t->out->ops->instant(t->out, (struct tr_track){ TR_CPU, ev->cpu },
			     ev->time, "migrate", ev->pid, NULL, args, 4);
}

/* A slice on the spinning CPU's track, inside whatever ran there. */
static void on_spin(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	if (!t->out || !in_window(t, ev->time, ev->time + ev->duration))
		return;
	t->out->ops->spin(t->out, ev->cpu, ev->time, ev->time + ev->duration,
			  ev->orig_cpu);
}

/* An instant on the CPU an IPI (one wake-list batch) was sent to. */
static void on_ipi(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct tr_arg args[2];

	if (!t->out || !in_window(t, ev->time, ev->time))
		return;
	args[0] = (struct tr_arg){ "from_cpu", NULL, ev->orig_cpu };
	args[1] = (struct tr_arg){ "first_pid", NULL, ev->pid };
	t->out->ops->instant(t->out, (struct tr_track){ TR_CPU, ev->cpu },
			     ev->time, "ipi", -1, "sched", args, 2);
}

void cli_trace_event(void *ud, const struct eevdf_trace_event *ev)
{
	struct cli_trace *t = ud;

	if (ev->cpu < 0 || ev->cpu >= t->nr_cpus)
		return;
	t->last = ev->time;
	switch (ev->kind) {
	case EEVDF_TRACE_SWITCH:
		on_switch(t, ev);
		break;
	case EEVDF_TRACE_WAKEUP:
	case EEVDF_TRACE_NEW:
		on_runnable(t, ev);
		break;
	case EEVDF_TRACE_MIGRATE:
		on_migrate(t, ev);
		break;
	case EEVDF_TRACE_SPIN:
		on_spin(t, ev);
		break;
	case EEVDF_TRACE_IPI:
		on_ipi(t, ev);
		break;
	case EEVDF_TRACE_STATE:
		if (t->state)
			trace_state_sample(t->state, t->sim, ev->cpu, ev->time,
					   t->out,
					   in_window(t, ev->time, ev->time));
		break;
	case EEVDF_TRACE_EXIT:
	case EEVDF_TRACE_TICK:
	case EEVDF_TRACE_DECISION:
		break;
	}
}

bool cli_trace_finish(struct cli_trace *t)
{
	eevdf_time end = t->sim ? eevdf_sim_now(t->sim) : t->last;
	bool ok = !t->oom;

	for (int c = 0; c < t->nr_cpus; c++)
		close_slice(t, c, end);
	if (t->out && !t->out->ops->finish(t->out))
		ok = false;
	return ok && (!t->th || !ferror(t->th));
}
