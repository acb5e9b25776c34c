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
 * printf-style formatting was most of the cost of a traced run.  What a
 * traced run takes beyond its CPU time is the page cache and the disk:
 * on a 1 s tbench-8 (680 MiB), starting the write-back every 8 MiB
 * (sync_file_range()) made it no faster in 5 alternating pairs, and
 * neither did leaving out the commit's fsync().
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

/* Room for n more bytes in the buffer (n <= its size). */
static inline void room(struct tr_json *j, size_t n)
{
	if (j->len + n > sizeof(j->buf))
		flush(j);
}

static void put_long(struct tr_json *j, const char *s, size_t n)
{
	flush(j);
	fwrite(s, 1, n, j->f);
}

/*
 * Inline, so that a literal's memcpy() is a few moves of a known size:
 * as a call per literal, put() and libc's memcpy() were a fifth of a
 * traced tbench run's instructions.
 */
static inline void put(struct tr_json *j, const char *s, size_t n)
{
	if (n > sizeof(j->buf)) {
		put_long(j, s, n);
		return;
	}
	room(j, n);
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

#define LIT(j, lit) put((j), "" lit, sizeof(lit) - 1)

static void put_str(struct tr_json *j, const char *s)
{
	put(j, s, strlen(s));
}

/* "00" "01" ... "99": two digits a division */
static const char digit_pairs[] = "0001020304050607080910111213141516171819"
				  "2021222324252627282930313233343536373839"
				  "4041424344454647484950515253545556575859"
				  "6061626364656667686970717273747576777879"
				  "8081828384858687888990919293949596979899";

/*
 * Formatting at a cursor: a room() for the most an item can take, the
 * bytes written through a local pointer, and the length stored once
 * (commit()).  Through j->buf itself, every byte stored could alias
 * j->len, which the compiler then reloaded after each.
 */
static inline char *reserve(struct tr_json *j, size_t n)
{
	room(j, n);
	return j->buf + j->len;
}

static inline void commit(struct tr_json *j, const char *p)
{
	j->len = (size_t)(p - j->buf);
}

static inline char *w_put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define WLIT(p, lit) w_put((p), "" lit, sizeof(lit) - 1)

/* the most bytes w_int() and w_us() write */
#define INT_MAX_CHARS 21
#define US_MAX_CHARS (INT_MAX_CHARS + 4)

/* u in decimal, no sign: its digits are counted first and then written
 * from the last, two at a time */
static char *w_uint(char *p, unsigned long long u)
{
	static const unsigned long long pow10[] = {
		10ULL,
		100ULL,
		1000ULL,
		10000ULL,
		100000ULL,
		1000000ULL,
		10000000ULL,
		100000000ULL,
		1000000000ULL,
		10000000000ULL,
		100000000000ULL,
		1000000000000ULL,
		10000000000000ULL,
		100000000000000ULL,
		1000000000000000ULL,
		10000000000000000ULL,
		100000000000000000ULL,
		1000000000000000000ULL,
		10000000000000000000ULL,
	};
	size_t n = 1;
	char *end;

	/* CPUs, process ids, counts: most numbers are one digit */
	if (u < 10) {
		*p = (char)('0' + u);
		return p + 1;
	}
	while (n <= sizeof(pow10) / sizeof(pow10[0]) && u >= pow10[n - 1])
		n++;
	end = p + n;
	p = end;
	while (u >= 100) {
		unsigned int r = (unsigned int)(u % 100);

		u /= 100;
		p -= 2;
		memcpy(p, digit_pairs + 2 * r, 2);
	}
	if (u >= 10)
		memcpy(p - 2, digit_pairs + 2 * u, 2);
	else
		p[-1] = (char)('0' + u);
	return end;
}

static char *w_int(char *p, long long v)
{
	if (v < 0) {
		*p++ = '-';
		return w_uint(p, 0ULL - (unsigned long long)v);
	}
	return w_uint(p, (unsigned long long)v);
}

/* ns as microseconds with three decimals, the format's unit: -1.5 us is
 * "-1.500", -0.5 us "-0.500" */
static char *w_us(char *p, eevdf_time ns)
{
	long long rem = ns % 1000;
	unsigned int frac = (unsigned int)(rem < 0 ? -rem : rem);

	if (ns < 0) {
		*p++ = '-';
		p = w_uint(p, 0ULL - (unsigned long long)(ns / 1000));
	} else {
		p = w_uint(p, (unsigned long long)(ns / 1000));
	}
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, digit_pairs + 2 * (frac % 100), 2);
	return p + 4;
}

static void put_int(struct tr_json *j, long long v)
{
	commit(j, w_int(reserve(j, INT_MAX_CHARS), v));
}

/* The bytes a JSON string cannot hold as they are, and its end: the
 * controls, '"' and '\\'.  One load a byte, and plain runs copied whole:
 * escaping byte by byte was 7 % of a traced tbench run. */
static const unsigned char json_stop[256] = {
	[0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1,
	[0x06] = 1, [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1,
	[0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1,
	[0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
	[0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1,
	[0x1e] = 1, [0x1f] = 1, ['"'] = 1,  ['\\'] = 1,
};

/* The inside of a JSON string: task names are plain, but be safe.  Runs
 * of plain bytes are copied whole. */
static void put_jesc(struct tr_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (;;) {
		size_t n = 0;
		unsigned char c;

		while (!json_stop[(unsigned char)s[n]])
			n++;
		put(j, s, n);
		s += n;
		c = (unsigned char)*s++;
		if (!c)
			return;
		room(j, 6);
		if (c == '"' || c == '\\') {
			j->buf[j->len++] = '\\';
			j->buf[j->len++] = (char)c;
		} else {
			memcpy(j->buf + j->len, "\\u00", 4);
			j->len += 4;
			j->buf[j->len++] = hex[c >> 4];
			j->buf[j->len++] = hex[c & 15];
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
static void begin(struct tr_json *j, char ph, struct tr_track tr, eevdf_time ts)
{
	/* the group's process first: it may grow j's tables */
	int proc = tr.kind == TR_CPU ? 0 : task_proc(j, tr.id);
	char *p = reserve(j, 64 + 2 * INT_MAX_CHARS + US_MAX_CHARS);

	if (j->first)
		p = WLIT(p, "{\"ph\": \"");
	else
		p = WLIT(p, ",\n{\"ph\": \"");
	*p++ = ph;
	p = WLIT(p, "\", \"pid\": ");
	if (tr.kind == TR_CPU) {
		p = WLIT(p, "0, \"tid\": ");
		p = w_int(p, tr.id);
	} else {
		p = w_int(p, proc);
		p = WLIT(p, ", \"tid\": ");
		p = w_int(p, TR_TASK_TID_BASE + (long long)tr.id);
	}
	p = WLIT(p, ", \"ts\": ");
	p = w_us(p, ts);
	commit(j, p);
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
	char *p;

	(void)flow_end; /* the "f" event was written at the slice's start */
	begin(j, 'X', tr, a);
	p = reserve(j, 32 + US_MAX_CHARS);
	p = WLIT(p, ", \"dur\": ");
	p = w_us(p, b - a);
	p = WLIT(p, ", \"name\": \"");
	commit(j, p);
	put_jesc(j, name);
	LIT(j, "\"");
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

	begin(j, 'i', tr, t);
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

static void j_flow(struct tr_json *j, char ph, int cpu, eevdf_time t,
		   uint64_t id)
{
	begin(j, ph, (struct tr_track){ TR_CPU, cpu }, t);
	if (ph == 'f')
		LIT(j, ", \"bp\": \"e\"");
	LIT(j, ", \"name\": \"wakeup\", \"cat\": \"sched\", \"id\": ");
	put_int(j, (long long)id);
	LIT(j, "}");
}

static void j_flow_start(struct tr_out *o, int cpu, eevdf_time t, uint64_t id)
{
	j_flow((struct tr_json *)o, 's', cpu, t, id);
}

static void j_flow_end(struct tr_out *o, int cpu, eevdf_time t, uint64_t id)
{
	j_flow((struct tr_json *)o, 'f', cpu, t, id);
}

static void j_counter(struct tr_out *o, struct tr_track owner, eevdf_time t,
		      const char *name, enum tr_unit unit, long long value)
{
	struct tr_json *j = (struct tr_json *)o;
	char buf[EEVDF_NAME_MAX + 16];

	(void)unit;
	begin(j, 'C', owner, t);
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
	begin(j, 'C', (struct tr_track){ TR_CPU, cpu }, t);
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
	/*
	 * The writer hands stdio whole 64 KiB blocks, and f is new (nothing
	 * has gone through it yet).  Buffered, stdio split every block into a
	 * 4 KiB write that filled its own buffer and a 60 KiB one.
	 */
	setvbuf(f, NULL, _IONBF, 0);
	j->first = true;
	LIT(j, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	return &j->base;
}
