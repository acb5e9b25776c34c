/* SPDX-License-Identifier: MIT */
/*
 * The Chrome trace event JSON writer of --trace (trace_out.h).  Process 0
 * "machine" has a thread per CPU (tid = the CPU); each task group is a
 * process (1, 2, ... in the order met) with a thread per task (tid
 * TR_TASK_TID_BASE + pid).  Slices are complete events ("X"), counters
 * "C" events named after their owner, arrows "s"/"f" pairs.  Times are
 * microseconds with three decimals: the simulator's nanoseconds, exactly.
 *
 * The JSON is formatted here by hand and written in 64 KiB blocks:
 * printf-style formatting was most of the cost of a traced run.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_out.h"

struct json_group {
	char *name;
	int pid; /* the JSON process id */
};

struct tr_json {
	struct tr_out base;
	FILE *f;
	bool first; /* no event written yet */
	/* per task: its group's process id once its track exists, else 0 */
	int *task_proc;
	size_t nr_task;
	struct json_group *groups;
	size_t nr_groups;
	bool oom;
	size_t len;
	char buf[65536];
};

static void flush(struct tr_json *j)
{
	if (j->len)
		fwrite(j->buf, 1, j->len, j->f);
	j->len = 0;
}

static void put(struct tr_json *j, const char *s, size_t n)
{
	if (j->len + n > sizeof(j->buf))
		flush(j);
	if (n > sizeof(j->buf)) {
		fwrite(s, 1, n, j->f);
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

#define LIT(j, lit) put((j), "" lit, sizeof(lit) - 1)

static void put_str(struct tr_json *j, const char *s)
{
	put(j, s, strlen(s));
}

static void put_int(struct tr_json *j, long long v)
{
	char tmp[24];
	size_t n = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
				       (unsigned long long)v;

	if (j->len + 24 > sizeof(j->buf))
		flush(j);
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		j->buf[j->len++] = '-';
	while (n)
		j->buf[j->len++] = tmp[--n];
}

/* ns as microseconds with three decimals, the format's unit. */
static void put_us(struct tr_json *j, eevdf_time ns)
{
	long long frac = (long long)(ns % 1000);

	if (ns < 0 && frac) {
		LIT(j, "-");
		ns = -ns;
		frac = -frac;
	}
	put_int(j, (long long)(ns / 1000));
	if (j->len + 4 > sizeof(j->buf))
		flush(j);
	j->buf[j->len++] = '.';
	j->buf[j->len++] = (char)('0' + frac / 100);
	j->buf[j->len++] = (char)('0' + frac / 10 % 10);
	j->buf[j->len++] = (char)('0' + frac % 10);
}

/* The inside of a JSON string: task names are plain, but be safe. */
static void put_jesc(struct tr_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (j->len + 6 > sizeof(j->buf))
			flush(j);
		if (c == '"' || c == '\\') {
			j->buf[j->len++] = '\\';
			j->buf[j->len++] = (char)c;
		} else if (c < 0x20) {
			memcpy(j->buf + j->len, "\\u00", 4);
			j->len += 4;
			j->buf[j->len++] = hex[c >> 4];
			j->buf[j->len++] = hex[c & 15];
		} else {
			j->buf[j->len++] = (char)c;
		}
	}
}

static void put_jstr(struct tr_json *j, const char *s)
{
	LIT(j, "\"");
	put_jesc(j, s);
	LIT(j, "\"");
}

/* The process of pid's group, made when first needed; 0 when out of
 * memory (the task then appears in the machine). */
static int task_proc(struct tr_json *j, int pid)
{
	const char *g;

	if ((size_t)pid > j->nr_task) {
		size_t n = j->nr_task ? j->nr_task : 64;
		int *np;

		while (n < (size_t)pid)
			n *= 2;
		np = realloc(j->task_proc, n * sizeof(*np));
		if (!np) {
			j->oom = true;
			return 0;
		}
		memset(np + j->nr_task, 0, (n - j->nr_task) * sizeof(*np));
		j->task_proc = np;
		j->nr_task = n;
	}
	if (j->task_proc[pid - 1])
		return j->task_proc[pid - 1];
	g = j->base.names.group(j->base.names.ud, pid);
	if (!g)
		g = "?";
	for (size_t i = 0; i < j->nr_groups; i++)
		if (strcmp(j->groups[i].name, g) == 0)
			return j->task_proc[pid - 1] = j->groups[i].pid;
	{
		struct json_group *ng = realloc(j->groups, (j->nr_groups + 1) *
								   sizeof(*ng));
		char *name = malloc(strlen(g) + 1);

		if (!ng || !name) {
			free(name);
			if (ng)
				j->groups = ng;
			j->oom = true;
			return 0;
		}
		j->groups = ng;
		strcpy(name, g);
		ng[j->nr_groups].name = name;
		ng[j->nr_groups].pid = (int)j->nr_groups + 1;
		j->task_proc[pid - 1] = ng[j->nr_groups].pid;
		return ng[j->nr_groups++].pid;
	}
}

/* Open an event: the separator, ph, pid, tid and ts. */
static void begin(struct tr_json *j, const char *ph, struct tr_track tr,
		  eevdf_time ts)
{
	put_str(j, j->first ? "{\"ph\": \"" : ",\n{\"ph\": \"");
	put_str(j, ph);
	LIT(j, "\", \"pid\": ");
	if (tr.kind == TR_CPU) {
		LIT(j, "0, \"tid\": ");
		put_int(j, tr.id);
	} else {
		put_int(j, task_proc(j, tr.id));
		LIT(j, ", \"tid\": ");
		put_int(j, TR_TASK_TID_BASE + tr.id);
	}
	LIT(j, ", \"ts\": ");
	put_us(j, ts);
	j->first = false;
}

static void put_args(struct tr_json *j, const struct tr_arg *a, int n)
{
	if (!n)
		return;
	LIT(j, ", \"args\": {");
	for (int i = 0; i < n; i++) {
		if (i)
			LIT(j, ", ");
		put_jstr(j, a[i].key);
		LIT(j, ": ");
		if (a[i].str)
			put_jstr(j, a[i].str);
		else
			put_int(j, a[i].num);
	}
	LIT(j, "}");
}

static void j_slice(struct tr_out *o, struct tr_track tr, eevdf_time a,
		    eevdf_time b, const char *name, const char *cat,
		    const struct tr_arg *args, int nargs, uint64_t flow_end)
{
	struct tr_json *j = (struct tr_json *)o;

	(void)flow_end; /* the "f" event was written at the slice's start */
	begin(j, "X", tr, a);
	LIT(j, ", \"dur\": ");
	put_us(j, b - a);
	LIT(j, ", \"name\": ");
	put_jstr(j, name);
	if (cat) {
		LIT(j, ", \"cat\": ");
		put_jstr(j, cat);
	}
	put_args(j, args, nargs);
	LIT(j, "}");
}

static void j_instant(struct tr_out *o, struct tr_track tr, eevdf_time t,
		      const char *name, long long num, const char *cat,
		      const struct tr_arg *args, int nargs)
{
	struct tr_json *j = (struct tr_json *)o;

	begin(j, "i", tr, t);
	LIT(j, ", \"s\": \"t\", \"name\": \"");
	put_jesc(j, name);
	if (num >= 0) {
		LIT(j, " ");
		put_int(j, num);
	}
	LIT(j, "\"");
	if (cat) {
		LIT(j, ", \"cat\": ");
		put_jstr(j, cat);
	}
	put_args(j, args, nargs);
	LIT(j, "}");
}

static void j_flow(struct tr_json *j, const char *ph, int cpu, eevdf_time t,
		   uint64_t id)
{
	begin(j, ph, (struct tr_track){ TR_CPU, cpu }, t);
	if (ph[0] == 'f')
		LIT(j, ", \"bp\": \"e\"");
	LIT(j, ", \"name\": \"wakeup\", \"cat\": \"sched\", \"id\": ");
	put_int(j, (long long)id);
	LIT(j, "}");
}

static void j_flow_start(struct tr_out *o, int cpu, eevdf_time t, uint64_t id)
{
	j_flow((struct tr_json *)o, "s", cpu, t, id);
}

static void j_flow_end(struct tr_out *o, int cpu, eevdf_time t, uint64_t id)
{
	j_flow((struct tr_json *)o, "f", cpu, t, id);
}

static void j_counter(struct tr_out *o, struct tr_track owner, eevdf_time t,
		      const char *name, enum tr_unit unit, long long value)
{
	struct tr_json *j = (struct tr_json *)o;
	char buf[EEVDF_NAME_MAX + 16];

	(void)unit;
	begin(j, "C", owner, t);
	LIT(j, ", \"name\": \"");
	if (owner.kind == TR_CPU) {
		put_str(j, name);
		LIT(j, " cpu");
		put_int(j, owner.id);
	} else {
		/* counters belong to the process: the task names its own */
		put_jesc(j, o->names.task(o->names.ud, owner.id, buf,
					  sizeof(buf)));
		LIT(j, ":");
		put_int(j, owner.id);
		LIT(j, " ");
		put_str(j, name);
	}
	LIT(j, "\", \"args\": {");
	put_jstr(j, name);
	LIT(j, ": ");
	put_int(j, value);
	LIT(j, "}}");
}

static void j_spin(struct tr_out *o, int cpu, eevdf_time a, eevdf_time b,
		   int lock_cpu)
{
	struct tr_arg arg = { "lock_cpu", NULL, lock_cpu };

	j_slice(o, (struct tr_track){ TR_CPU, cpu }, a, b, "rq lock spin",
		"lock", &arg, 1, 0);
}

/* Name the tracks, close the array. */
static bool j_finish(struct tr_out *o)
{
	struct tr_json *j = (struct tr_json *)o;
	char buf[EEVDF_NAME_MAX + 16];

	put_str(j, j->first ? "" : ",\n");
	LIT(j, "{\"ph\": \"M\", \"pid\": 0, \"name\": \"process_name\", "
	       "\"args\": {\"name\": \"machine\"}}");
	for (int c = 0; c < o->nr_cpus; c++) {
		LIT(j, ",\n{\"ph\": \"M\", \"pid\": 0, \"tid\": ");
		put_int(j, c);
		LIT(j, ", \"name\": \"thread_name\", \"args\": {\"name\": "
		       "\"CPU ");
		put_int(j, c);
		LIT(j, "\"}}");
	}
	for (size_t g = 0; g < j->nr_groups; g++) {
		LIT(j, ",\n{\"ph\": \"M\", \"pid\": ");
		put_int(j, j->groups[g].pid);
		LIT(j, ", \"name\": \"process_name\", \"args\": {\"name\": ");
		put_jstr(j, j->groups[g].name);
		LIT(j, "}}");
	}
	for (size_t p = 0; p < j->nr_task; p++) {
		if (!j->task_proc[p])
			continue;
		LIT(j, ",\n{\"ph\": \"M\", \"pid\": ");
		put_int(j, j->task_proc[p]);
		LIT(j, ", \"tid\": ");
		put_int(j, TR_TASK_TID_BASE + (long long)p + 1);
		LIT(j, ", \"name\": \"thread_name\", \"args\": {\"name\": ");
		put_jstr(j, o->names.task(o->names.ud, (int)p + 1, buf,
					  sizeof(buf)));
		LIT(j, "}}");
	}
	LIT(j, "\n]}\n");
	flush(j);
	return !ferror(j->f) && !j->oom;
}

static void j_free(struct tr_out *o)
{
	struct tr_json *j = (struct tr_json *)o;

	for (size_t g = 0; g < j->nr_groups; g++)
		free(j->groups[g].name);
	free(j->groups);
	free(j->task_proc);
	free(j);
}

static void j_group_counter(struct tr_out *o, int cpu, const char *group,
			    eevdf_time t, const char *name, enum tr_unit unit,
			    long long value)
{
	struct tr_json *j = (struct tr_json *)o;

	(void)unit;
	begin(j, "C", (struct tr_track){ TR_CPU, cpu }, t);
	LIT(j, ", \"name\": \"");
	put_str(j, name);
	LIT(j, " ");
	put_jesc(j, group);
	LIT(j, " cpu");
	put_int(j, cpu);
	LIT(j, "\", \"args\": {");
	put_jstr(j, name);
	LIT(j, ": ");
	put_int(j, value);
	LIT(j, "}}");
}

static const struct tr_out_ops json_ops = {
	.slice = j_slice,
	.instant = j_instant,
	.flow_start = j_flow_start,
	.flow_end = j_flow_end,
	.counter = j_counter,
	.group_counter = j_group_counter,
	.spin = j_spin,
	.finish = j_finish,
	.free = j_free,
};

struct tr_out *tr_json_new(FILE *f, int nr_cpus, const struct tr_names *n)
{
	struct tr_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->base.ops = &json_ops;
	j->base.names = *n;
	j->base.nr_cpus = nr_cpus;
	j->f = f;
	j->first = true;
	LIT(j, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	return &j->base;
}
