/* SPDX-License-Identifier: MIT */
/*
 * The two file formats of --trace behind one interface: the Chrome trace
 * event JSON (trace_json.c) and Perfetto's protobuf trace
 * (trace_proto.c).  trace.c decides what goes on which track; a writer
 * only encodes it.
 *
 * Tracks: one per CPU (in a process "machine"), one per task (a thread of
 * the process of its task group), and counter tracks, each owned by a
 * CPU or a task and named by the counter.  Times are the simulation's
 * nanoseconds.  Events arrive in the order they happen, a slice when it
 * ends (with its start): a writer that needs them sorted by start leaves
 * that to the reader (Perfetto sorts a file's events by time).
 */
#ifndef EEVDF_CLI_TRACE_OUT_H
#define EEVDF_CLI_TRACE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eevdf/eevdf.h"

enum tr_kind {
	TR_CPU,	 /* id: the CPU */
	TR_TASK, /* id: the pid */
};

struct tr_track {
	enum tr_kind kind;
	int id;
};

/* An argument of an event: a string when str is not NULL, else num. */
struct tr_arg {
	const char *key;
	const char *str;
	long long num;
};

#define TR_ARGS_MAX 5

/* What a counter measures, for a reader that shows units. */
enum tr_unit {
	TR_UNIT_COUNT,
	TR_UNIT_NS,
};

struct tr_out;

struct tr_out_ops {
	/* a complete slice [a, b) on track */
	void (*slice)(struct tr_out *o, struct tr_track tr, eevdf_time a,
		      eevdf_time b, const char *name, const char *cat,
		      const struct tr_arg *args, int nargs, uint64_t flow_end);
	/* an instant on track, named name, or "name num" when num >= 0 (a
	 * pid: formatting it here spares a printf per event) */
	void (*instant)(struct tr_out *o, struct tr_track tr, eevdf_time t,
			const char *name, long long num, const char *cat,
			const struct tr_arg *args, int nargs);
	/* a wakeup arrow starts in what cpu runs at t, and ends in the
	 * slice starting at t on cpu (that slice's flow_end, later) */
	void (*flow_start)(struct tr_out *o, int cpu, eevdf_time t,
			   uint64_t id);
	void (*flow_end)(struct tr_out *o, int cpu, eevdf_time t, uint64_t id);
	/* a counter's new value; name is the counter's, under its owner */
	void (*counter)(struct tr_out *o, struct tr_track owner, eevdf_time t,
			const char *name, enum tr_unit unit, long long value);
	/* a counter of group's run queue on cpu (its cfs_rq there), under
	 * the CPU's track: name "V", group "/autogroup-1" */
	void (*group_counter)(struct tr_out *o, int cpu, const char *group,
			      eevdf_time t, const char *name, enum tr_unit unit,
			      long long value);
	/* a lock spin on cpu: a slice nested in what cpu ran */
	void (*spin)(struct tr_out *o, int cpu, eevdf_time a, eevdf_time b,
		     int lock_cpu);
	/* the end: name the tracks; false when a write failed */
	bool (*finish)(struct tr_out *o);
	void (*free)(struct tr_out *o);
};

/* What a writer asks of the trace for names: the task's and its group's. */
struct tr_names {
	const char *(*task)(void *ud, int pid, char *buf, size_t len);
	const char *(*group)(void *ud, int pid);
	void *ud;
};

struct tr_out {
	const struct tr_out_ops *ops;
	struct tr_names names;
	int nr_cpus;
};

/* The writers: NULL when out of memory.  f stays the caller's. */
struct tr_out *tr_json_new(FILE *f, int nr_cpus, const struct tr_names *n);
struct tr_out *tr_proto_new(FILE *f, int nr_cpus, const struct tr_names *n);

/*
 * The process id a task's group gets in the JSON: 1, 2, ... in the order
 * groups are first met (0 is the machine); task threads have tid
 * TR_TASK_TID_BASE + pid so that they never meet a CPU track's tid.
 */
#define TR_TASK_TID_BASE 1000000

#endif
