/* SPDX-License-Identifier: MIT */
/*
 * eevdf-bench: the speed benchmark of libeevdf.  Shared declarations of
 * bench.c (scenarios, the forked runs), output.c (table and JSON) and
 * json_check.c (the well-formedness check that bench-smoke runs).
 */
#ifndef EEVDF_BENCH_H
#define EEVDF_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eevdf/eevdf.h"

#define BENCH_MAX_RUNS 101
#define BENCH_MAX_PARAMS 8
/* targets: 5 fixed and one memory line per code-built scenario */
#define BENCH_MAX_TARGETS 24

enum scenario_kind {
	SC_HOGS,     /* nice-0 and nice-5 hogs, built in code */
	SC_SCALE,    /* N hogs + N periodic sleepers, built in code */
	SC_WORKLOAD, /* a shipped workload file with parameter overrides */
};

struct scenario {
	char name[48];
	enum scenario_kind kind;
	char what[96]; /* one-line description for the JSON */
	int nr_cpus;
	int nllc;	     /* LLCs, for the workload loader's ${nllc} */
	const char *machine; /* machine file, or NULL for a flat machine */
	int llc_cpus;	     /* no file: LLCs of this many CPUs, 4 LLCs a
				 * package (0: one LLC) */
	int hz;
	eevdf_time sim_ns; /* run until this simulated time */
	long n;		   /* SC_SCALE: how many hogs */
	long n_sleepers;   /* SC_SCALE: and how many sleepers */
	int hogs0, hogs5;  /* SC_HOGS: how many at nice 0 and nice 5 */
	const char *file;  /* SC_WORKLOAD: path of the workload */
	const char *params[BENCH_MAX_PARAMS];
	size_t nr_params;
};

enum run_status {
	RS_OK = 0,
	RS_SKIPPED = 1, /* the scenario cannot run in this tree (yet) */
	RS_ERROR = 2,	/* it should have run and did not: a failure */
};

/* What one forked run sends back to the parent through a pipe. */
struct run_result {
	int status;
	char msg[320];
	uint64_t nr_tasks;
	int nr_cpus;
	eevdf_time sim_ns; /* eevdf_sim_now() at the end */
	bool all_exited;   /* eevdf_sim_done(): the run ended early */
	uint64_t switches; /* sum of eevdf_cpu_stats.switches */
	uint64_t ticks;	   /* sum of eevdf_cpu_stats.ticks */
	double setup_s;	   /* wall time of loading and adding tasks */
	double wall_s;	   /* wall time of eevdf_sim_run() alone */
	double wall2_s;	   /* ... of its second half (steady state) */
	double cpu_s;	   /* the child's CPU time in eevdf_sim_run() */
	double cpu2_s;	   /* ... in its second half */
	uint64_t events;   /* eevdf_sim_nr_events() at the end */
	uint64_t events2;  /* ... of the second half */
	uint64_t digest;   /* FNV-1a of the results JSON (--digests) */
	long maxrss_kib;   /* getrusage(RUSAGE_SELF).ru_maxrss of the child */
	long startrss_kib; /* the same at the child's start: what it
			     * inherited from the parent at fork */
};

/* One scenario's summary over its measured runs. */
struct bench_row {
	const struct scenario *sc;
	int status;
	char msg[320];
	uint64_t nr_tasks;
	int nr_cpus;
	eevdf_time sim_ns;
	bool all_exited;
	double sim_s;
	uint64_t switches, ticks;
	double wall[BENCH_MAX_RUNS];
	int nr_wall;
	double wall_med, wall_min, wall_max;
	double wall2[BENCH_MAX_RUNS]; /* second halves */
	double wall2_med;
	/* CPU time of the same runs: what the targets are judged
	 * on, and less disturbed than wall time by a busy machine */
	double cpu[BENCH_MAX_RUNS], cpu2[BENCH_MAX_RUNS];
	double cpu_med, cpu2_med;
	uint64_t events, events2;
	uint64_t digest;
	double setup[BENCH_MAX_RUNS]; /* eevdf_sim_new() and the tasks */
	double setup_med;
	long maxrss_kib;       /* the largest over the runs */
	long grow_kib;	       /* the largest maxrss - startrss */
	bool nondeterministic; /* two runs disagreed on a simulated count */

	/* Derived (output.c fills them). */
	double switches_per_s;
	double events_per_s; /* events per wall second */
	double ns_per_event;
	double ns_per_event2; /* second half only: the steady state */
	double speed;	      /* simulated seconds per wall second */
	double ns_per_event_cpu, ns_per_event2_cpu; /* the same in CPU time */
	double speed_cpu; /* simulated seconds per CPU second */
	double mem_bytes; /* growth beyond the baseline's, >= 0 */
	double bytes_per_task;
	double mem_budget; /* 1 KiB per task + 8 KiB per CPU */
};

struct bench_meta {
	bool smoke;
	bool digests; /* compute each run's results digest */
	int runs;
	int warmup;
	long baseline_kib;	/* the baseline child's growth */
	long baseline_peak_kib; /* and its ru_maxrss */
	const char *lib_version;
	bool have_load_opts;
};

/* output.c */
void bench_derive(struct bench_row *row, long baseline_kib);
void bench_print_table(FILE *f, const struct bench_meta *m,
		       struct bench_row *rows, size_t nr);
int bench_write_json(const char *path, const struct bench_meta *m,
		     struct bench_row *rows, size_t nr);

/* json_check.c: 0 when path holds one well-formed JSON value (RFC 8259),
 * else -1 with a message naming the byte offset on stderr. */
int bench_json_check_file(const char *path);

#endif
