/* SPDX-License-Identifier: MIT */
/*
 * Perfetto's protobuf trace format for --trace (trace_out.h), encoded
 * here: a file of TracePacket messages (Trace.packet, field 1), each a
 * TrackDescriptor or a TrackEvent on one packet sequence with interned
 * event and argument names.  The few messages and field numbers used are
 * those of Perfetto's published schema (protos/perfetto/trace/
 * trace_packet.proto, track_event/track_event.proto,
 * track_event/track_descriptor.proto, interned_data/interned_data.proto);
 * tests/perfetto_trace.proto restates them for protoc --decode.
 *
 * Tracks: a "machine" track with a child per CPU (slices of what ran)
 * and under each CPU a "rq lock" track (spins); a process per task group
 * with a thread per task (tid = the pid); counter tracks under the CPU or
 * the thread they belong to.  Slices are a SLICE_BEGIN and a SLICE_END
 * written when the slice ends: Perfetto sorts a file's events by time
 * (TraceSorter extracts everything at the end of a file that has no
 * flush events).
 */
#include <stdlib.h>
#include <string.h>

#include "trace_out.h"

/* Field numbers of the published schema. */
enum {
	F_TRACE_PACKET = 1,
	/* TracePacket */
	F_PKT_TIMESTAMP = 8,
	F_PKT_SEQ_ID = 10,
	F_PKT_TRACK_EVENT = 11,
	F_PKT_INTERNED = 12,
	F_PKT_SEQ_FLAGS = 13,
	F_PKT_TRACK_DESC = 60,
	/* TrackDescriptor */
	F_TD_UUID = 1,
	F_TD_NAME = 2,
	F_TD_PROCESS = 3,
	F_TD_THREAD = 4,
	F_TD_PARENT = 5,
	F_TD_COUNTER = 8,
	/* ProcessDescriptor / ThreadDescriptor / CounterDescriptor */
	F_PD_PID = 1,
	F_PD_NAME = 6,
	F_THD_PID = 1,
	F_THD_TID = 2,
	F_THD_NAME = 5,
	F_CD_UNIT = 3,
	/* TrackEvent */
	F_TE_DEBUG = 4,
	F_TE_TYPE = 9,
	F_TE_NAME_IID = 10,
	F_TE_TRACK = 11,
	F_TE_CATEGORIES = 22,
	F_TE_COUNTER = 30,
	F_TE_FLOW = 47,
	F_TE_FLOW_END = 48,
	/* DebugAnnotation */
	F_DA_NAME_IID = 1,
	F_DA_INT = 4,
	F_DA_STRING = 6,
	/* InternedData and its entries (EventName, DebugAnnotationName) */
	F_ID_EVENT_NAMES = 2,
	F_ID_DEBUG_NAMES = 3,
	F_IN_IID = 1,
	F_IN_NAME = 2,
};

enum {
	TYPE_SLICE_BEGIN = 1,
	TYPE_SLICE_END = 2,
	TYPE_INSTANT = 3,
	TYPE_COUNTER = 4
};
enum {
	SEQ_CLEARED = 1,
	SEQ_NEEDS_STATE = 2
};
enum {
	UNIT_TIME_NS = 1,
	UNIT_COUNT = 2
};
enum {
	WIRE_VARINT = 0,
	WIRE_I64 = 1,
	WIRE_LEN = 2
};

/* Track uuids: fixed ranges, so that a trace's ids do not depend on
 * the order tracks are met. */
#define UUID_MACHINE 1ull
#define UUID_CPU(c) (0x1000ull + (uint64_t)(c))
#define UUID_LOCK(c) (0x100000ull + (uint64_t)(c))
#define UUID_GROUP(g) (0x200000ull + (uint64_t)(g))
#define UUID_TASK(p) (0x100000000ull + (uint64_t)(p))
#define UUID_COUNTER(owner, k) (0x200000000ull + (uint64_t)(owner)*16u + (k))
#define NR_COUNTER_NAMES 16
/* a group's queue's counter i on cpu (cpu < EEVDF_MAX_CPUS = 4096) */
#define UUID_GQ(i, cpu) (0x1000000000000ull + ((uint64_t)(i) << 12) + (cpu))

/* A protobuf message under construction. */
struct pb {
	uint8_t *b;
	size_t len, cap;
	bool oom;
};

static void pb_grow(struct pb *p, size_t n)
{
	uint8_t *nb;
	size_t cap;

	cap = p->cap ? p->cap : 256;
	while (cap < p->len + n)
		cap *= 2;
	nb = realloc(p->b, cap);
	if (!nb) {
		p->oom = true;
		return;
	}
	p->b = nb;
	p->cap = cap;
}

/*
 * The checks inline, the growth out of line: every field of every event
 * comes through here, and as calls the varints alone were a fifth of a
 * traced tbench run's instructions.
 */
static inline void pb_room(struct pb *p, size_t n)
{
	if (p->len + n > p->cap)
		pb_grow(p, n);
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Written through a local cursor: a store through p->b could alias
 * p->len, which the compiler would reload after every byte. */
static inline void pb_varint(struct pb *p, uint64_t v)
{
	uint8_t *q;

	pb_room(p, 10);
	if (p->oom)
		return;
	q = p->b + p->len;
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	p->len = (size_t)(q - p->b);
}

static inline void pb_tag(struct pb *p, unsigned field, unsigned wire)
{
	pb_varint(p, ((uint64_t)field << 3) | wire);
}

static inline void pb_uint(struct pb *p, unsigned field, uint64_t v)
{
	pb_tag(p, field, WIRE_VARINT);
	pb_varint(p, v);
}

/* int32 / int64: two's complement as a 64-bit varint */
static inline void pb_int(struct pb *p, unsigned field, long long v)
{
	pb_uint(p, field, (uint64_t)v);
}

static void pb_fixed64(struct pb *p, unsigned field, uint64_t v)
{
	pb_tag(p, field, WIRE_I64);
	pb_room(p, 8);
	if (p->oom)
		return;
	for (int i = 0; i < 8; i++)
		p->b[p->len++] = (uint8_t)(v >> (8 * i));
}

static void pb_bytes(struct pb *p, unsigned field, const void *s, size_t n)
{
	pb_tag(p, field, WIRE_LEN);
	pb_varint(p, n);
	pb_room(p, n);
	if (p->oom)
		return;
	memcpy(p->b + p->len, s, n);
	p->len += n;
}

static void pb_str(struct pb *p, unsigned field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

/* A nested message: its tag, then a one-byte length slot that pb_end()
 * widens when the message turned out longer than 127 bytes. */
static inline size_t pb_begin(struct pb *p, unsigned field)
{
	pb_tag(p, field, WIRE_LEN);
	pb_room(p, 1);
	if (!p->oom)
		p->b[p->len++] = 0;
	return p->len;
}

static void pb_end_long(struct pb *p, size_t start, size_t n)
{
	size_t k = varint_len(n);

	pb_room(p, k - 1);
	if (p->oom)
		return;
	memmove(p->b + start + k - 1, p->b + start, n);
	p->len += k - 1;
	for (size_t i = 0; i < k; i++)
		p->b[start - 1 + i] = (uint8_t)((n >> (7 * i)) & 0x7f) |
				      (i + 1 < k ? 0x80 : 0);
}

/* Most messages are short: their length fits the slot as it is. */
static inline void pb_end(struct pb *p, size_t start)
{
	size_t n;

	if (p->oom)
		return;
	n = p->len - start;
	if (n < 0x80)
		p->b[start - 1] = (uint8_t)n;
	else
		pb_end_long(p, start, n);
}

/* Interned strings: iid by string, in the order first met. */
struct intern {
	char **key;
	uint64_t *iid;
	size_t cap, nr;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The iid of s; 0 with *fresh set when it is new (and now has one). */
static uint64_t intern(struct intern *t, const char *s, bool *fresh, bool *oom)
{
	size_t i;

	*fresh = false;
	if (t->nr * 2 >= t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		char **nk = calloc(cap, sizeof(*nk));
		uint64_t *ni = calloc(cap, sizeof(*ni));

		if (!nk || !ni) {
			free(nk);
			free(ni);
			*oom = true;
			return 0;
		}
		for (size_t j = 0; j < t->cap; j++) {
			if (!t->key[j])
				continue;
			i = hash_str(t->key[j]) & (cap - 1);
			while (nk[i])
				i = (i + 1) & (cap - 1);
			nk[i] = t->key[j];
			ni[i] = t->iid[j];
		}
		free(t->key);
		free(t->iid);
		t->key = nk;
		t->iid = ni;
		t->cap = cap;
	}
	i = hash_str(s) & (t->cap - 1);
	while (t->key[i]) {
		if (strcmp(t->key[i], s) == 0)
			return t->iid[i];
		i = (i + 1) & (t->cap - 1);
	}
	t->key[i] = malloc(strlen(s) + 1);
	if (!t->key[i]) {
		*oom = true;
		return 0;
	}
	strcpy(t->key[i], s);
	t->iid[i] = ++t->nr;
	*fresh = true;
	return t->iid[i];
}

static void intern_free(struct intern *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->key[i]);
	free(t->key);
	free(t->iid);
}

struct proto_group {
	char *name;
	int index; /* 1, 2, ...: its process is TR_TASK_TID_BASE + index */
};

struct tr_proto {
	struct tr_out base;
	FILE *f;
	struct pb pkt;		 /* the packet being built */
	struct pb intd;		 /* its interned data */
	struct pb out;		 /* packets not yet written (OUT_BLOCK) */
	size_t intd_ev, intd_da; /* open InternedData sub-lists, 0 none */
	struct intern names, args;
	bool started; /* the first packet (incremental state cleared) */
	bool oom;
	/* per CPU: its tracks were described */
	uint8_t *cpu_desc;
	/* per task: its group's index once its thread track exists */
	int *task_group;
	size_t nr_task;
	struct proto_group *groups;
	size_t nr_groups;
	/* counter names and, per owner, which counter tracks exist */
	const char *counter_names[NR_COUNTER_NAMES];
	size_t nr_counter_names;
	uint16_t *cpu_counters;	 /* per CPU: a bit per counter name */
	uint16_t *task_counters; /* per task */
	/* the groups' queues' counters ("V /autogroup-1"), in the order met,
	 * and per counter the CPUs whose track of it exists */
	struct proto_gq {
		char *name;
		uint8_t *cpu_desc;
	} * gq;
	size_t nr_gq;
};

/*
 * Packets gather in o->out and go to the file in blocks of about this
 * size: a fwrite() a packet (tens of bytes) cost more than building it.
 */
#define OUT_BLOCK 65536

static void out_flush(struct tr_proto *o)
{
	if (o->out.len)
		fwrite(o->out.b, 1, o->out.len, o->f);
	o->out.len = 0;
}

/* Add the packet built in o->pkt (with its interned data) to the output. */
static void emit_packet(struct tr_proto *o, eevdf_time ts, bool timed,
			bool uses_state)
{
	struct pb *out = &o->out;
	size_t m, start = out->len;

	m = pb_begin(out, F_TRACE_PACKET);
	if (timed)
		pb_uint(out, F_PKT_TIMESTAMP, (uint64_t)ts);
	pb_uint(out, F_PKT_SEQ_ID, 1);
	if (!o->started) {
		pb_uint(out, F_PKT_SEQ_FLAGS, SEQ_CLEARED);
		o->started = true;
	} else if (uses_state) {
		pb_uint(out, F_PKT_SEQ_FLAGS, SEQ_NEEDS_STATE);
	}
	if (o->intd.len) {
		size_t id = pb_begin(out, F_PKT_INTERNED);

		pb_room(out, o->intd.len);
		if (!out->oom) {
			memcpy(out->b + out->len, o->intd.b, o->intd.len);
			out->len += o->intd.len;
		}
		pb_end(out, id);
	}
	pb_room(out, o->pkt.len);
	if (!out->oom) {
		memcpy(out->b + out->len, o->pkt.b, o->pkt.len);
		out->len += o->pkt.len;
	}
	pb_end(out, m);
	if (out->oom || o->pkt.oom || o->intd.oom) {
		o->oom = true;
		out->len = start; /* the packet is dropped; the run fails */
	}
	if (out->len >= OUT_BLOCK)
		out_flush(o);
	o->pkt.len = 0;
	o->intd.len = 0;
}

/* The iid of an event name or an argument name, interning it into the
 * packet being built when new. */
static uint64_t iid_of(struct tr_proto *o, bool arg, const char *s)
{
	bool fresh;
	uint64_t iid = intern(arg ? &o->args : &o->names, s, &fresh, &o->oom);

	if (fresh) {
		size_t e = pb_begin(&o->intd,
				    arg ? F_ID_DEBUG_NAMES : F_ID_EVENT_NAMES);

		pb_uint(&o->intd, F_IN_IID, iid);
		pb_str(&o->intd, F_IN_NAME, s);
		pb_end(&o->intd, e);
	}
	return iid;
}

/* A TrackDescriptor packet: begin it, the caller adds fields, end it. */
static size_t desc_begin(struct tr_proto *o, uint64_t uuid, uint64_t parent,
			 const char *name)
{
	size_t d = pb_begin(&o->pkt, F_PKT_TRACK_DESC);

	pb_uint(&o->pkt, F_TD_UUID, uuid);
	if (parent)
		pb_uint(&o->pkt, F_TD_PARENT, parent);
	if (name)
		pb_str(&o->pkt, F_TD_NAME, name);
	return d;
}

static void desc_end(struct tr_proto *o, size_t d)
{
	pb_end(&o->pkt, d);
	emit_packet(o, 0, false, false);
}

static void describe_cpu(struct tr_proto *o, int cpu)
{
	char name[32];
	size_t d;

	if (o->cpu_desc[cpu])
		return;
	o->cpu_desc[cpu] = 1;
	snprintf(name, sizeof(name), "CPU %d", cpu);
	d = desc_begin(o, UUID_CPU(cpu), UUID_MACHINE, name);
	desc_end(o, d);
	d = desc_begin(o, UUID_LOCK(cpu), UUID_CPU(cpu), "rq lock");
	desc_end(o, d);
}

/* The group of pid and its thread track, described when first met. */
static bool describe_task(struct tr_proto *o, int pid)
{
	const char *g;
	char name[EEVDF_NAME_MAX + 16];
	size_t d, t;
	int gi = 0;

	if ((size_t)pid > o->nr_task) {
		size_t n = o->nr_task ? o->nr_task : 64;
		int *ng;
		uint16_t *nc;

		while (n < (size_t)pid)
			n *= 2;
		ng = realloc(o->task_group, n * sizeof(*ng));
		if (ng)
			o->task_group = ng;
		nc = realloc(o->task_counters, n * sizeof(*nc));
		if (nc)
			o->task_counters = nc;
		if (!ng || !nc) {
			o->oom = true;
			return false;
		}
		memset(ng + o->nr_task, 0, (n - o->nr_task) * sizeof(*ng));
		memset(nc + o->nr_task, 0, (n - o->nr_task) * sizeof(*nc));
		o->nr_task = n;
	}
	if (o->task_group[pid - 1])
		return true;
	g = o->base.names.group(o->base.names.ud, pid);
	if (!g)
		g = "?";
	for (size_t i = 0; i < o->nr_groups; i++)
		if (strcmp(o->groups[i].name, g) == 0)
			gi = o->groups[i].index;
	if (!gi) {
		struct proto_group *ng = realloc(
			o->groups, (o->nr_groups + 1) * sizeof(*ng));
		char *copy = malloc(strlen(g) + 1);

		if (ng)
			o->groups = ng;
		if (!ng || !copy) {
			free(copy);
			o->oom = true;
			return false;
		}
		strcpy(copy, g);
		gi = (int)o->nr_groups + 1;
		ng[o->nr_groups++] = (struct proto_group){ copy, gi };
		d = desc_begin(o, UUID_GROUP(gi), 0, NULL);
		t = pb_begin(&o->pkt, F_TD_PROCESS);
		pb_int(&o->pkt, F_PD_PID, TR_TASK_TID_BASE + gi);
		pb_str(&o->pkt, F_PD_NAME, g);
		pb_end(&o->pkt, t);
		desc_end(o, d);
	}
	o->task_group[pid - 1] = gi;
	/* a thread track joins its process by the pid, not by a parent */
	d = desc_begin(o, UUID_TASK(pid), 0, NULL);
	t = pb_begin(&o->pkt, F_TD_THREAD);
	pb_int(&o->pkt, F_THD_PID, TR_TASK_TID_BASE + gi);
	pb_int(&o->pkt, F_THD_TID, pid);
	pb_str(&o->pkt, F_THD_NAME,
	       o->base.names.task(o->base.names.ud, pid, name, sizeof(name)));
	pb_end(&o->pkt, t);
	desc_end(o, d);
	return true;
}

/* The uuid of track tr, described first when new; 0 when out of memory. */
static uint64_t track_uuid(struct tr_proto *o, struct tr_track tr)
{
	if (tr.kind == TR_CPU) {
		describe_cpu(o, tr.id);
		return UUID_CPU(tr.id);
	}
	return describe_task(o, tr.id) ? UUID_TASK(tr.id) : 0;
}

static void put_args(struct tr_proto *o, const struct tr_arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		size_t d;
		uint64_t iid = iid_of(o, true, a[i].key);

		d = pb_begin(&o->pkt, F_TE_DEBUG);
		pb_uint(&o->pkt, F_DA_NAME_IID, iid);
		if (a[i].str)
			pb_str(&o->pkt, F_DA_STRING, a[i].str);
		else
			pb_int(&o->pkt, F_DA_INT, a[i].num);
		pb_end(&o->pkt, d);
	}
}

/* A TrackEvent packet of type on the track uuid. */
static size_t event_begin(struct tr_proto *o, int type, uint64_t uuid)
{
	size_t e = pb_begin(&o->pkt, F_PKT_TRACK_EVENT);

	pb_uint(&o->pkt, F_TE_TYPE, (uint64_t)type);
	pb_uint(&o->pkt, F_TE_TRACK, uuid);
	return e;
}

static void named(struct tr_proto *o, const char *name, const char *cat)
{
	pb_uint(&o->pkt, F_TE_NAME_IID, iid_of(o, false, name));
	if (cat)
		pb_str(&o->pkt, F_TE_CATEGORIES, cat);
}

static void p_slice(struct tr_out *base, struct tr_track tr, eevdf_time a,
		    eevdf_time b, const char *name, const char *cat,
		    const struct tr_arg *args, int nargs, uint64_t flow_end)
{
	struct tr_proto *o = (struct tr_proto *)base;
	uint64_t uuid = track_uuid(o, tr);
	size_t e;

	if (!uuid)
		return;
	e = event_begin(o, TYPE_SLICE_BEGIN, uuid);
	named(o, name, cat);
	put_args(o, args, nargs);
	if (flow_end)
		pb_fixed64(&o->pkt, F_TE_FLOW_END, flow_end);
	pb_end(&o->pkt, e);
	emit_packet(o, a, true, true);
	e = event_begin(o, TYPE_SLICE_END, uuid);
	pb_end(&o->pkt, e);
	emit_packet(o, b, true, false);
}

/*
 * "name num" in label, truncated as snprintf(label, size, "%s %lld")
 * would: every wakeup instant names one, and the printf was 4 % of a
 * traced tbench run.  num >= 0; size > 0.
 */
static const char *label_num(char *label, size_t size, const char *name,
			     long long num)
{
	char digits[24];
	size_t nd = sizeof(digits), n = strlen(name), at;
	unsigned long long u = (unsigned long long)num;

	do {
		digits[--nd] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	at = n < size - 1 ? n : size - 1;
	memcpy(label, name, at);
	if (at < size - 1)
		label[at++] = ' ';
	for (size_t i = nd; i < sizeof(digits) && at < size - 1; i++)
		label[at++] = digits[i];
	label[at] = '\0';
	return label;
}

static void p_instant(struct tr_out *base, struct tr_track tr, eevdf_time t,
		      const char *name, long long num, const char *cat,
		      const struct tr_arg *args, int nargs)
{
	struct tr_proto *o = (struct tr_proto *)base;
	uint64_t uuid = track_uuid(o, tr);
	char label[64];
	size_t e;

	if (!uuid)
		return;
	if (num >= 0)
		name = label_num(label, sizeof(label), name, num);
	e = event_begin(o, TYPE_INSTANT, uuid);
	named(o, name, cat);
	put_args(o, args, nargs);
	pb_end(&o->pkt, e);
	emit_packet(o, t, true, true);
}

/* The arrow leaves from an instant in the waker's running slice. */
static void p_flow_start(struct tr_out *base, int cpu, eevdf_time t,
			 uint64_t id)
{
	struct tr_proto *o = (struct tr_proto *)base;
	uint64_t uuid = track_uuid(o, (struct tr_track){ TR_CPU, cpu });
	size_t e;

	e = event_begin(o, TYPE_INSTANT, uuid);
	named(o, "wakes", "sched");
	pb_fixed64(&o->pkt, F_TE_FLOW, id);
	pb_end(&o->pkt, e);
	emit_packet(o, t, true, true);
}

/* It ends in the wakee's slice, whose begin carries the id. */
static void p_flow_end(struct tr_out *base, int cpu, eevdf_time t, uint64_t id)
{
	(void)base;
	(void)cpu;
	(void)t;
	(void)id;
}

/* The counter track (owner, name), described when new. */
static uint64_t counter_uuid(struct tr_proto *o, struct tr_track owner,
			     const char *name, enum tr_unit unit)
{
	uint16_t *bits;
	size_t k, d, c;
	uint64_t ix;

	for (k = 0; k < o->nr_counter_names; k++)
		if (strcmp(o->counter_names[k], name) == 0)
			break;
	if (k == o->nr_counter_names) {
		if (k == NR_COUNTER_NAMES)
			return 0;
		o->counter_names[o->nr_counter_names++] = name;
	}
	if (!track_uuid(o, owner))
		return 0;
	if (owner.kind == TR_CPU) {
		bits = &o->cpu_counters[owner.id];
		ix = (uint64_t)owner.id;
	} else {
		bits = &o->task_counters[owner.id - 1];
		ix = (uint64_t)o->base.nr_cpus + (uint64_t)owner.id;
	}
	if (!(*bits & (1u << k))) {
		*bits |= (uint16_t)(1u << k);
		d = desc_begin(o, UUID_COUNTER(ix, k),
			       owner.kind == TR_CPU ? UUID_CPU(owner.id) :
						      UUID_TASK(owner.id),
			       name);
		c = pb_begin(&o->pkt, F_TD_COUNTER);
		pb_uint(&o->pkt, F_CD_UNIT,
			unit == TR_UNIT_NS ? UNIT_TIME_NS : UNIT_COUNT);
		pb_end(&o->pkt, c);
		desc_end(o, d);
	}
	return UUID_COUNTER(ix, k);
}

static void p_counter(struct tr_out *base, struct tr_track owner, eevdf_time t,
		      const char *name, enum tr_unit unit, long long value)
{
	struct tr_proto *o = (struct tr_proto *)base;
	uint64_t uuid = counter_uuid(o, owner, name, unit);
	size_t e;

	if (!uuid)
		return;
	e = event_begin(o, TYPE_COUNTER, uuid);
	pb_int(&o->pkt, F_TE_COUNTER, value);
	pb_end(&o->pkt, e);
	emit_packet(o, t, true, false);
}

/* The counter track of "name group" under cpu, described when new; 0
 * when out of memory. */
static uint64_t gq_uuid(struct tr_proto *o, int cpu, const char *group,
			const char *name, enum tr_unit unit)
{
	char full[EEVDF_NAME_MAX + 512];
	struct proto_gq *g = NULL;
	size_t i, d, c;

	snprintf(full, sizeof(full), "%s %s", name, group);
	for (i = 0; i < o->nr_gq; i++)
		if (strcmp(o->gq[i].name, full) == 0)
			break;
	if (i == o->nr_gq) {
		struct proto_gq *ng = realloc(o->gq, (i + 1) * sizeof(*ng));

		if (!ng)
			return 0;
		o->gq = ng;
		ng[i].name = malloc(strlen(full) + 1);
		ng[i].cpu_desc = calloc((size_t)o->base.nr_cpus, 1);
		if (!ng[i].name || !ng[i].cpu_desc) {
			free(ng[i].name);
			free(ng[i].cpu_desc);
			return 0;
		}
		strcpy(ng[i].name, full);
		o->nr_gq++;
	}
	g = &o->gq[i];
	describe_cpu(o, cpu);
	if (!g->cpu_desc[cpu]) {
		g->cpu_desc[cpu] = 1;
		d = desc_begin(o, UUID_GQ(i, cpu), UUID_CPU(cpu), g->name);
		c = pb_begin(&o->pkt, F_TD_COUNTER);
		pb_uint(&o->pkt, F_CD_UNIT,
			unit == TR_UNIT_NS ? UNIT_TIME_NS : UNIT_COUNT);
		pb_end(&o->pkt, c);
		desc_end(o, d);
	}
	return UUID_GQ(i, cpu);
}

static void p_group_counter(struct tr_out *base, int cpu, const char *group,
			    eevdf_time t, const char *name, enum tr_unit unit,
			    long long value)
{
	struct tr_proto *o = (struct tr_proto *)base;
	uint64_t uuid = gq_uuid(o, cpu, group, name, unit);
	size_t e;

	if (!uuid) {
		o->oom = true;
		return;
	}
	e = event_begin(o, TYPE_COUNTER, uuid);
	pb_int(&o->pkt, F_TE_COUNTER, value);
	pb_end(&o->pkt, e);
	emit_packet(o, t, true, false);
}

static void p_spin(struct tr_out *base, int cpu, eevdf_time a, eevdf_time b,
		   int lock_cpu)
{
	struct tr_proto *o = (struct tr_proto *)base;
	struct tr_arg arg = { "lock_cpu", NULL, lock_cpu };
	size_t e;

	describe_cpu(o, cpu);
	e = event_begin(o, TYPE_SLICE_BEGIN, UUID_LOCK(cpu));
	named(o, "rq lock spin", "lock");
	put_args(o, &arg, 1);
	pb_end(&o->pkt, e);
	emit_packet(o, a, true, true);
	e = event_begin(o, TYPE_SLICE_END, UUID_LOCK(cpu));
	pb_end(&o->pkt, e);
	emit_packet(o, b, true, false);
}

static bool p_finish(struct tr_out *base)
{
	struct tr_proto *o = (struct tr_proto *)base;

	/* CPUs that never ran anything still get their track */
	for (int c = 0; c < base->nr_cpus; c++)
		describe_cpu(o, c);
	out_flush(o);
	return !o->oom && fflush(o->f) == 0 && !ferror(o->f);
}

static void p_free(struct tr_out *base)
{
	struct tr_proto *o = (struct tr_proto *)base;

	intern_free(&o->names);
	intern_free(&o->args);
	for (size_t g = 0; g < o->nr_groups; g++)
		free(o->groups[g].name);
	free(o->groups);
	free(o->pkt.b);
	free(o->intd.b);
	free(o->out.b);
	free(o->cpu_desc);
	free(o->task_group);
	free(o->cpu_counters);
	free(o->task_counters);
	for (size_t i = 0; i < o->nr_gq; i++) {
		free(o->gq[i].name);
		free(o->gq[i].cpu_desc);
	}
	free(o->gq);
	free(o);
}

static const struct tr_out_ops proto_ops = {
	.slice = p_slice,
	.instant = p_instant,
	.flow_start = p_flow_start,
	.flow_end = p_flow_end,
	.counter = p_counter,
	.group_counter = p_group_counter,
	.spin = p_spin,
	.finish = p_finish,
	.free = p_free,
};

struct tr_out *tr_proto_new(FILE *f, int nr_cpus, const struct tr_names *n)
{
	struct tr_proto *o = calloc(1, sizeof(*o));
	size_t d;

	if (!o)
		return NULL;
	o->base.ops = &proto_ops;
	o->base.names = *n;
	o->base.nr_cpus = nr_cpus;
	o->f = f;
	/* whole blocks: see the JSON writer's tr_json_new() */
	setvbuf(f, NULL, _IONBF, 0);
	o->cpu_desc = calloc((size_t)nr_cpus, 1);
	o->cpu_counters = calloc((size_t)nr_cpus, sizeof(*o->cpu_counters));
	if (!o->cpu_desc || !o->cpu_counters) {
		p_free(&o->base);
		return NULL;
	}
	d = desc_begin(o, UUID_MACHINE, 0, "machine");
	desc_end(o, d);
	return &o->base;
}
