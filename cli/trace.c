/* SPDX-License-Identifier: MIT */
/*
 * Trace sinks (see trace.h).  The Chrome trace has one process "machine"
 * with a thread (track) per CPU: a complete event ("X") per stretch a
 * task ran, an instant per wakeup on the wakee's CPU with a flow arrow
 * from the waker's running slice to the wakee's next slice, a slice per
 * spin on a run-queue lock (nested in what the CPU ran), an instant per
 * IPI on the CPU it was sent to, and an nr_running counter per CPU.  Times are microseconds with three decimals:
 * the simulator's nanoseconds, exactly.
 *
 * timehist follows perf sched timehist: a row each time a task is
 * switched out (idle is left out, as perf does without -I), with the time, the CPU, the task, its wait time (from
 * its last switch-out to this switch-in), its scheduling delay (from
 * becoming runnable to this switch-in) and its run time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

struct cpu_track {
	int curr;	     /* pid running, -1 idle */
	eevdf_time since;    /* when curr was switched in */
	int nr_running;	     /* tasks runnable here, the running one too */
	uint64_t slice_flow; /* flow id to end in curr's slice, 0 none */
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
	const eevdf_sim *sim;
	FILE *json, *th;
	eevdf_time from, to, last;
	int nr_cpus;
	struct cpu_track *cpu;
	struct task_track *task;
	size_t nr_task;
	uint64_t next_flow;
	bool first;   /* no JSON event written yet */
	bool th_head; /* timehist header written */
	/*
	 * The JSON is formatted here by hand and written in 64 KiB blocks:
	 * printf-style formatting was most of the cost of a traced run.
	 */
	size_t jlen;
	char jbuf[65536];
};

static void jw_flush(struct cli_trace *t)
{
	if (t->jlen)
		fwrite(t->jbuf, 1, t->jlen, t->json);
	t->jlen = 0;
}

static void jw_mem(struct cli_trace *t, const char *s, size_t n)
{
	if (t->jlen + n > sizeof(t->jbuf))
		jw_flush(t);
	if (n > sizeof(t->jbuf)) {
		fwrite(s, 1, n, t->json);
		return;
	}
	memcpy(t->jbuf + t->jlen, s, n);
	t->jlen += n;
}

static void jw_raw(struct cli_trace *t, const char *s)
{
	jw_mem(t, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define JW_LIT(t, lit) jw_mem((t), "" lit, sizeof(lit) - 1)

static void jw_int(struct cli_trace *t, long long v)
{
	char tmp[24];
	size_t n = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
				       (unsigned long long)v;

	if (t->jlen + 24 > sizeof(t->jbuf))
		jw_flush(t);
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		t->jbuf[t->jlen++] = '-';
	while (n)
		t->jbuf[t->jlen++] = tmp[--n];
}

/* ns as microseconds with three decimals, the trace format's unit. */
static void jw_us(struct cli_trace *t, eevdf_time ns)
{
	long long frac = (long long)(ns % 1000);

	if (ns < 0 && frac) {
		JW_LIT(t, "-");
		ns = -ns;
		frac = -frac;
	}
	jw_int(t, (long long)(ns / 1000));
	if (t->jlen + 4 > sizeof(t->jbuf))
		jw_flush(t);
	t->jbuf[t->jlen++] = '.';
	t->jbuf[t->jlen++] = (char)('0' + frac / 100);
	t->jbuf[t->jlen++] = (char)('0' + frac / 10 % 10);
	t->jbuf[t->jlen++] = (char)('0' + frac % 10);
}

/* A JSON string: task names are plain, but be safe. */
static void jw_jstr(struct cli_trace *t, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	JW_LIT(t, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (t->jlen + 6 > sizeof(t->jbuf))
			jw_flush(t);
		if (c == '"' || c == '\\') {
			t->jbuf[t->jlen++] = '\\';
			t->jbuf[t->jlen++] = (char)c;
		} else if (c < 0x20) {
			memcpy(t->jbuf + t->jlen, "\\u00", 4);
			t->jlen += 4;
			t->jbuf[t->jlen++] = hex[c >> 4];
			t->jbuf[t->jlen++] = hex[c & 15];
		} else {
			t->jbuf[t->jlen++] = (char)c;
		}
	}
	JW_LIT(t, "\"");
}

struct cli_trace *cli_trace_new(int nr_cpus, FILE *json, FILE *timehist,
				eevdf_time from, eevdf_time to)
{
	struct cli_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cpu = calloc((size_t)nr_cpus, sizeof(*t->cpu));
	if (!t->cpu) {
		free(t);
		return NULL;
	}
	for (int c = 0; c < nr_cpus; c++)
		t->cpu[c].curr = -1;
	t->nr_cpus = nr_cpus;
	t->json = json;
	t->th = timehist;
	t->from = from;
	t->to = to;
	t->first = true;
	t->next_flow = 1;
	if (json)
		JW_LIT(t, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	return t;
}

void cli_trace_attach(struct cli_trace *t, const eevdf_sim *sim)
{
	t->sim = sim;
}

void cli_trace_free(struct cli_trace *t)
{
	if (!t)
		return;
	free(t->cpu);
	free(t->task);
	free(t);
}

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
		if (!nt)
			return NULL;
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

static bool in_window(const struct cli_trace *t, eevdf_time a, eevdf_time b)
{
	return b >= t->from && (t->to < 0 || a <= t->to);
}

/* Start a JSON event object: the separator and the common fields. */
static void ev_begin(struct cli_trace *t, const char *ph, int cpu,
		     eevdf_time ts)
{
	jw_raw(t, t->first ? "{\"ph\": \"" : ",\n{\"ph\": \"");
	jw_raw(t, ph);
	JW_LIT(t, "\", \"pid\": 0, \"tid\": ");
	jw_int(t, cpu);
	JW_LIT(t, ", \"ts\": ");
	jw_us(t, ts);
	t->first = false;
}

/* The slice of whatever ran on cpu from its switch-in to now. */
static void close_slice(struct cli_trace *t, int cpu, eevdf_time now)
{
	struct cpu_track *c = &t->cpu[cpu];
	eevdf_time a = c->since, b = now;
	char name[EEVDF_NAME_MAX + 16];

	if (!t->json || c->curr < 0 || b <= a || !in_window(t, a, b))
		return;
	if (a < t->from)
		a = t->from;
	if (t->to >= 0 && b > t->to)
		b = t->to;
	ev_begin(t, "X", cpu, a);
	JW_LIT(t, ", \"dur\": ");
	jw_us(t, b - a);
	JW_LIT(t, ", \"name\": ");
	jw_jstr(t, name_of(t, c->curr, name, sizeof(name)));
	JW_LIT(t, ", \"args\": {\"pid\": ");
	jw_int(t, c->curr);
	JW_LIT(t, "}}");
}

static void counter(struct cli_trace *t, int cpu, eevdf_time now)
{
	if (!t->json || !in_window(t, now, now))
		return;
	ev_begin(t, "C", cpu, now);
	JW_LIT(t, ", \"name\": \"nr_running cpu");
	jw_int(t, cpu);
	JW_LIT(t, "\", \"args\": {\"nr_running\": ");
	jw_int(t, t->cpu[cpu].nr_running);
	JW_LIT(t, "}}");
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
	if (next) {
		next->wait = next->last_out >= 0 ? ev->time - next->last_out :
						   0;
		next->delay = next->runnable >= 0 ? ev->time - next->runnable :
						    0;
		next->runnable = -1;
		if (next->flow && t->json && in_window(t, ev->time, ev->time)) {
			/* the arrow ends in the slice starting now */
			ev_begin(t, "f", ev->cpu, ev->time);
			JW_LIT(t, ", \"bp\": \"e\", \"name\": \"wakeup\", "
				  "\"cat\": \"sched\", \"id\": ");
			jw_int(t, (long long)next->flow);
			JW_LIT(t, "}");
		}
		next->flow = 0;
	}
}

static void on_runnable(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct task_track *k = task_of(t, ev->pid);
	char name[EEVDF_NAME_MAX + 16];

	if (!k)
		return;
	k->runnable = ev->time;
	k->cpu = ev->cpu;
	t->cpu[ev->cpu].nr_running++;
	if (!t->json || !in_window(t, ev->time, ev->time))
		return;
	ev_begin(t, "i", ev->cpu, ev->time);
	jw_raw(t, ev->kind == EEVDF_TRACE_NEW ?
			  ", \"s\": \"t\", \"name\": \"new " :
			  ", \"s\": \"t\", \"name\": \"wakeup ");
	jw_int(t, ev->pid);
	JW_LIT(t, "\", \"args\": {\"pid\": ");
	jw_int(t, ev->pid);
	JW_LIT(t, ", \"comm\": ");
	jw_jstr(t, name_of(t, ev->pid, name, sizeof(name)));
	JW_LIT(t, ", \"waker\": ");
	jw_int(t, ev->prev_pid);
	JW_LIT(t, "}}");
	counter(t, ev->cpu, ev->time);
	/* an arrow from the waker's slice, if it is running somewhere */
	if (ev->kind == EEVDF_TRACE_WAKEUP && ev->prev_pid > 0) {
		for (int c = 0; c < t->nr_cpus; c++) {
			if (t->cpu[c].curr != ev->prev_pid)
				continue;
			k->flow = t->next_flow++;
			ev_begin(t, "s", c, ev->time);
			JW_LIT(t, ", \"name\": \"wakeup\", \"cat\": "
				  "\"sched\", \"id\": ");
			jw_int(t, (long long)k->flow);
			JW_LIT(t, "}");
			break;
		}
	}
}

/* An instant on the CPU the task arrives at; a queued task's count moves. */
static void on_migrate(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	struct task_track *k = task_of(t, ev->pid);
	char name[EEVDF_NAME_MAX + 16];
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
	if (!t->json || !in_window(t, ev->time, ev->time))
		return;
	ev_begin(t, "i", ev->cpu, ev->time);
	JW_LIT(t, ", \"s\": \"t\", \"name\": \"migrate ");
	jw_int(t, ev->pid);
	JW_LIT(t, "\", \"args\": {\"pid\": ");
	jw_int(t, ev->pid);
	JW_LIT(t, ", \"comm\": ");
	jw_jstr(t, name_of(t, ev->pid, name, sizeof(name)));
	JW_LIT(t, ", \"orig_cpu\": ");
	jw_int(t, from);
	JW_LIT(t, ", \"dest_cpu\": ");
	jw_int(t, ev->cpu);
	JW_LIT(t, "}}");
}

/* A slice on the spinning CPU's track, inside whatever ran there. */
static void on_spin(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	if (!t->json || !in_window(t, ev->time, ev->time + ev->duration))
		return;
	ev_begin(t, "X", ev->cpu, ev->time);
	JW_LIT(t, ", \"dur\": ");
	jw_us(t, ev->duration);
	JW_LIT(t, ", \"name\": \"rq lock spin\", \"cat\": \"lock\", "
		  "\"args\": {\"lock_cpu\": ");
	jw_int(t, ev->orig_cpu);
	JW_LIT(t, "}}");
}

/* An instant on the CPU an IPI (one wake-list batch) was sent to. */
static void on_ipi(struct cli_trace *t, const struct eevdf_trace_event *ev)
{
	if (!t->json || !in_window(t, ev->time, ev->time))
		return;
	ev_begin(t, "i", ev->cpu, ev->time);
	JW_LIT(t, ", \"s\": \"t\", \"name\": \"ipi\", \"cat\": \"sched\", "
		  "\"args\": {\"from_cpu\": ");
	jw_int(t, ev->orig_cpu);
	JW_LIT(t, ", \"first_pid\": ");
	jw_int(t, ev->pid);
	JW_LIT(t, "}}");
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
	case EEVDF_TRACE_EXIT:
	case EEVDF_TRACE_TICK:
	case EEVDF_TRACE_DECISION:
	case EEVDF_TRACE_STATE:
		break;
	}
}

bool cli_trace_finish(struct cli_trace *t)
{
	eevdf_time end = t->sim ? eevdf_sim_now(t->sim) : t->last;

	for (int c = 0; c < t->nr_cpus; c++)
		close_slice(t, c, end);
	if (t->json) {
		/* name the tracks: "CPU n", in CPU order */
		jw_raw(t, t->first ? "" : ",\n");
		JW_LIT(t, "{\"ph\": \"M\", \"pid\": 0, \"name\": "
			  "\"process_name\", \"args\": {\"name\": "
			  "\"machine\"}}");
		for (int c = 0; c < t->nr_cpus; c++) {
			JW_LIT(t, ",\n{\"ph\": \"M\", \"pid\": 0, \"tid\": ");
			jw_int(t, c);
			JW_LIT(t, ", \"name\": \"thread_name\", \"args\": "
				  "{\"name\": \"CPU ");
			jw_int(t, c);
			JW_LIT(t, "\"}}");
		}
		JW_LIT(t, "\n]}\n");
		jw_flush(t);
		if (ferror(t->json))
			return false;
	}
	return !t->th || !ferror(t->th);
}
