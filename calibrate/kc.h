/* SPDX-License-Identifier: MIT */
/*
 * kernel-check: small experiments that the real kernel and the simulator
 * both run, the way a kernel scheduler test would, and the comparison of
 * what each saw (docs/calibration.md).
 *
 * An experiment (kc_exp.c) is a few tasks pinned to one CPU, each with a
 * role (a hog, a yielder, a sleeper, a periodic task, the two ends of a
 * pipe), and the figures it is judged by, each with a tolerance.  One run
 * of it, on either side, is a struct kc_run: each task's segments of
 * running, its wakeup latencies and counters, all inside a window that
 * leaves out the start.  The real side (kc_real.c) measures them with
 * threads and the vDSO clock; the simulated side (kc_sim.c) runs the
 * same experiment as a workload and reads its switch trace and metrics;
 * kc_analysis.c computes the figures from either alike, and kc_table.c
 * sets them side by side.
 */
#ifndef CAL_KC_H
#define CAL_KC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eevdf/eevdf.h"
#include "timeline.h"

#define KC_MAX_TASKS 4
#define KC_MAX_METRICS 6

enum kc_role {
	KC_HOG,	      /* runs all the time */
	KC_YIELDER,   /* sched_yield() in a loop, counting the calls */
	KC_SLEEPER,   /* runs run ns of CPU, sleeps period ns, again */
	KC_PERIODIC,  /* wakes every period ns on an absolute grid */
	KC_PIPE_PING, /* sends a token over a pipe and waits for it back */
	KC_PIPE_PONG, /* the other end */
};

struct kc_task {
	const char *name;
	enum kc_role role;
	int nice;
	bool idle;	/* SCHED_IDLE */
	int64_t slice;	/* custom slice (sched_runtime), 0 for none */
	int64_t run;	/* KC_SLEEPER: CPU per cycle */
	int64_t period; /* KC_SLEEPER: the sleep; KC_PERIODIC: the period */
};

/* The figures an experiment is judged by. */
enum kc_stat {
	KS_SHARE,	    /* % of the experiment's CPU time */
	KS_RUN_P50,	    /* ms, median uninterrupted run */
	KS_RUN_MEAN,	    /* ms */
	KS_LAT_MEAN,	    /* us, wakeup latency */
	KS_LAT_P50,	    /* us */
	KS_LAT_P90,	    /* us */
	KS_LAT_P99,	    /* us */
	KS_LAT_MAX,	    /* us */
	KS_LAT_PROMPT,	    /* % of wakeups running within KC_PROMPT_NS */
	KS_YIELD_RATE,	    /* yields per second */
	KS_SWITCHES_PER_RT, /* context switches per round trip */
	KS_BLOCKS_PER_RT,   /* ... of them by a task that blocked */
	KS_RT,		    /* us per round trip */
	KS_SWITCH_RATE,	    /* context switches per second */
};

enum kc_tol {
	KC_TOL_ABS,  /* |sim - kernel| <= tol, in the figure's unit */
	KC_TOL_REL,  /* |sim - kernel| <= tol % of the kernel's */
	KC_TOL_INFO, /* shown, not judged */
};

/* A wakeup that runs within this of its instant did not wait for a tick. */
#define KC_PROMPT_NS 200000

struct kc_metric {
	enum kc_stat stat;
	int task; /* the task it is about (ignored for the pipe's) */
	enum kc_tol tol_kind;
	double tol;
};

struct kc_exp {
	const char *name;
	const char *what;
	int length; /* its runs are this many times the others' (0: 1) */
	int nr_tasks;
	struct kc_task task[KC_MAX_TASKS];
	int nr_metrics;
	struct kc_metric metric[KC_MAX_METRICS];
};

/* kc_exp.c: the experiments, in the order they run. */
size_t kc_nr_experiments(void);
const struct kc_exp *kc_experiment(size_t i);
const struct kc_exp *kc_experiment_find(const char *name);
const char *kc_stat_label(enum kc_stat s);
const char *kc_stat_unit(enum kc_stat s);
/* "share of nice5" and the like, into buf. */
void kc_metric_name(const struct kc_exp *e, const struct kc_metric *m,
		    char *buf, size_t len);

/* What one task did in one run, on either side. */
struct kc_task_obs {
	struct tl_task tl; /* segments, ns from the run's start */
	int64_t *lat;	   /* wakeup latencies (ns) of instants in the window */
	size_t nr_lat, cap_lat;
	uint64_t yields;   /* sched_yield() calls in the window */
	uint64_t rts;	   /* round trips completed in the window */
	uint64_t switches; /* context switches in the window */
	uint64_t blocks;   /* ... of them voluntary: the task blocked */
};

struct kc_run {
	int nr_tasks;
	struct kc_task_obs task[KC_MAX_TASKS];
	int64_t from, to;  /* the window, ns from the run's start */
	char skipped[200]; /* why the run could not be made; "" */
};

bool kc_obs_add_lat(struct kc_task_obs *o, int64_t ns);
void kc_run_free(struct kc_run *r);

/* kc_analysis.c */
/* Metric m of run r of experiment e, in kc_stat_unit(); false when the
 * run holds nothing to compute it from. */
bool kc_metric_value(const struct kc_exp *e, const struct kc_metric *m,
		     const struct kc_run *r, double *out);
/* The % of the window in which no task of the experiment ran for at
 * least 50 us at a time: the CPU went to someone else. */
double kc_foreign_pct(const struct kc_run *r);

/* The length of the experiments' runs. */
struct kc_timing {
	int64_t duration; /* of a run */
	int64_t warmup;	  /* left out at its start */
};

/* The timing of experiment e's runs when the others' is base. */
struct kc_timing kc_exp_timing(const struct kc_exp *e,
			       const struct kc_timing *base);

/* kc_real.c: run e on CPU cpu of this machine.  0, or -1 with err (the
 * run is not made); a run that cannot be made on this kernel (custom
 * slices refused) returns 0 with r->skipped set. */
int kc_real_run(const struct kc_exp *e, int cpu, const struct kc_timing *t,
		struct kc_run *r, char *err, size_t len);

/* kc_sim.c */
struct kc_sim {
	const eevdf_machine *machine;
	const char *kernel; /* a profile name */
	uint64_t feat_on, feat_off;
	int64_t base_slice; /* 0: the profile's for the machine */
	int cpu;	    /* the machine's CPU the tasks are pinned to */
};
/* The workload of e as JSON (malloc()ed), or NULL when out of memory. */
char *kc_workload(const struct kc_exp *e, int cpu, const struct kc_timing *t);
/* Run e in the simulator.  0, or -1 with err. */
int kc_sim_run(const struct kc_exp *e, const struct kc_sim *s,
	       const struct kc_timing *t, struct kc_run *r, char *err,
	       size_t len);

/* kc_table.c: one figure of one experiment, both sides. */
struct kc_row {
	const char *exp;
	char metric[64];
	const char *unit;
	double kernel;	   /* the median of the kernel's runs */
	double kmin, kmax; /* their range */
	size_t runs;	   /* how many runs gave the figure */
	double sim;
	double diff; /* sim - kernel */
	enum kc_tol tol_kind;
	double tol;
	bool busy;	     /* other tasks took the CPU in every run */
	const char *verdict; /* ok, DIFF, noisy, info, skipped */
	char why[200];	     /* a skipped row's reason */
};

/*
 * The verdict of a row: "ok" within the tolerance, "DIFF" beyond it by
 * more than half the kernel's own range over its runs, "noisy" between
 * the two or when a DIFF came from runs in which other tasks took the
 * CPU, "info" for a figure without a tolerance.
 */
void kc_row_judge(struct kc_row *row);
/*
 * The rows of experiment e from its kernel runs and its simulated run.
 * tick_ns sets a floor under the tolerance of a share: a window of W ns
 * measures a share only to about two ticks in W (a run cut at each end).
 */
size_t kc_rows(const struct kc_exp *e, const struct kc_run *kruns, size_t nruns,
	       const struct kc_run *srun, double max_foreign, int64_t tick_ns,
	       struct kc_row *rows, size_t max);

struct kc_header {
	const char *release; /* uname -r */
	const char *profile; /* the kernel profile simulated */
	const char *machine; /* its name */
	bool calibrated;
	int cpu;
	int runs;
	struct kc_timing timing;
	int64_t base_slice; /* the kernel's */
	int64_t sim_slice;  /* the simulation's */
	int hz;
	bool boosted; /* measured with --boost */
};
/* What the real side of one experiment met. */
struct kc_exp_note {
	const char *exp;
	double foreign_max; /* the most any of its runs lost to others, % */
	int runs;	    /* its runs that gave figures */
};

/* The table as text, and the number of DIFF rows. */
size_t kc_table_text(FILE *f, const struct kc_header *h,
		     const struct kc_row *rows, size_t n,
		     const struct kc_exp_note *notes, size_t nr_notes);
/* The same as JSON ("eevdf-sim-kernel-check/1"), malloc()ed. */
char *kc_table_json(const struct kc_header *h, const struct kc_row *rows,
		    size_t n, const struct kc_exp_note *notes, size_t nr_notes);

/* kc_record.c: the kernel's runs saved and read back, for tests and for
 * comparing a recording with a changed model. */
struct kc_recording {
	char release[128];
	int cpu;
	int hz; /* the HZ the recording was compared at, 0 unknown */
	int runs;
	struct kc_timing timing; /* the base timing (kc_exp_timing()) */
	int64_t base_slice;
	size_t nr_exp;
	const struct kc_exp *exp[32];
	struct kc_timing exp_timing[32]; /* each experiment's own */
	struct kc_run *run[32];		 /* runs of each experiment */
};
char *kc_record_json(const struct kc_recording *rec);
/* Read a recording; 0, or -1 with err naming the file, the JSON path
 * and the reason. */
int kc_record_load(const char *path, struct kc_recording *rec, char *err,
		   size_t len);
void kc_record_free(struct kc_recording *rec);

#endif
