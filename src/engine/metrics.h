/* SPDX-License-Identifier: MIT */
/*
 * Workload metrics: what `record` and `count` ops feed, and what the
 * benchmark reports print.  Counters sum (optionally per task); values keep
 * the last sample; histograms quantise samples as fio/schbench (or exactly,
 * or HdrHistogram-like).  Counters, values and histograms may be keyed
 * (tbench's per-operation latencies, massive_intr's per-task loop counts).
 */
#ifndef EEVDF_METRICS_H
#define EEVDF_METRICS_H

#include "lib/eventq.h"
#include "lib/hist.h"

struct eevdf_sim;
struct task;
struct metric_snaps;

enum metric_type {
	MET_COUNTER = 1,
	MET_VALUE,
	MET_HIST,
	MET_RATE, /* a counter's increase per `every`, sampled into a hist */
};

/* "counter", "value", "hist" or "rate": the spelling of the workload format. */
const char *eevdf__metric_type_name(enum metric_type t);

struct metric_cell {
	s64 key;
	s64 value; /* counter sum or last value */
	bool set;
	struct eevdf_hist *hist;
};

struct metric {
	char *name;
	enum metric_type type;
	enum eevdf_hist_kind quant;
	bool keyed;
	bool per_task;
	bool reset_at_warmup;
	bool drop_zero;		/* hist: samples <= 0 are dropped (schbench) */
	struct metric_cell all; /* the unkeyed cell */
	struct metric_cell *cells; /* keyed: sorted by key */
	u32 nr_cells, cap_cells;
	s64 *per_task_sum; /* per_task counters, by pid - 1 */
	size_t nr_per_task;
	/* MET_RATE */
	u32 of; /* the counter sampled */
	eevdf_time every;
	s64 last;     /* the counter at the last sample */
	s64 sample;   /* the last sample, per second (schbench's "current
			 * rps"); kept across the warmup */
	bool sampled; /* a sample was taken */
	struct eevdf_event ev;
};

/* Create a metric (the simulation owns it); returns its index or < 0. */
int eevdf__sim_add_metric(struct eevdf_sim *sim, const char *name,
			  enum metric_type type, enum eevdf_hist_kind quant,
			  bool keyed, bool per_task, bool reset_at_warmup);

/* Hist metric idx drops zero samples too (schbench's 0 us latencies). */
void eevdf__sim_metric_drop_zero(struct eevdf_sim *sim, int idx);

/* A rate metric: samples counter `of` every `every` ns (schbench's RPS,
 * scaled to per second); its index or < 0. */
int eevdf__sim_add_rate(struct eevdf_sim *sim, const char *name, u32 of,
			eevdf_time every, enum eevdf_hist_kind quant,
			bool reset_at_warmup);
/* The sampling event of a rate metric fired. */
void eevdf__metric_rate_tick(struct eevdf_sim *sim, struct metric *m);

void eevdf__metric_record(struct eevdf_sim *sim, u32 idx, struct task *p,
			  s64 key, s64 value);
void eevdf__metric_count(struct eevdf_sim *sim, u32 idx, struct task *p,
			 s64 add);
/* Zero every metric marked reset_at_warmup. */
void eevdf__metrics_warmup(struct eevdf_sim *sim);
void eevdf__metric_free(struct metric *m);

/*
 * Interval snapshots: what the benchmark reports print, kept at fixed
 * times during the run so that a report printed after it can show the
 * periodic blocks the real tool prints as it goes (schbench's -i).
 *
 * At each multiple of `every` up to `until`, the engine copies, for each
 * metric in index order, its unkeyed cell: a counter's or a value's value
 * and, for a hist or a rate, the summary a schbench block prints (count,
 * min, max, EEVDF_HIST_SCHBENCH_PLIST); a rate also keeps its last
 * sample.  Keyed cells are not kept.  It copies each task's schedstat
 * delay too (wait_ns and delay_count of eevdf_sim_task_stats(), live as
 * of the snapshot), from which a report averages any group of tasks.
 *
 * A snapshot at T sees every event of T that was queued before T, the
 * rate samples and the stop of T included: the clock fires once at T and
 * queues itself again behind them, as schbench's main loop takes its RPS
 * sample before it prints (sleep_for_runtime()).  Nothing the model
 * decides reads a snapshot.
 *
 * Memory is bounded: at most METRIC_SNAPS_MAX snapshots, set up front,
 * and at most METRIC_SNAPS_MAX_TASKS task entries over all of them (a run
 * that would pass it fails with an error saying so).  The snapshots are
 * freed with the metrics, in order of time.
 */
#define METRIC_SNAPS_MAX 10000
#define METRIC_SNAPS_MAX_TASKS ((size_t)1 << 20)

struct metric_snap_cell {
	s64 value; /* counter or value; a rate's last sample */
	bool set;  /* value holds something (a rate: it was sampled) */
	struct eevdf_hist_summary hist; /* hist and rate; count 0: empty */
};

/* A task's schedstat delay: run_delay and pcount, as /proc/PID/schedstat
 * gives them to schbench's read_sched_delay(). */
struct metric_snap_task {
	u64 wait_ns;
	u64 delay_count;
};

struct metric_snap {
	eevdf_time at;
	struct metric_snap_cell *cells; /* by metric index */
	size_t nr_cells;
	struct metric_snap_task *tasks; /* by pid - 1 */
	size_t nr_tasks;
};

struct metric_snaps {
	struct eevdf_event ev; /* SEV_SNAP: eevdf__metrics_snap_tick() */
	eevdf_time every, until;
	bool queued_again;     /* the clock fired once at its time */
	struct metric_snap *v; /* in order of time */
	size_t nr, cap;
	size_t nr_task_entries;
};

/*
 * Take a snapshot at every, 2 every, ... up to until (inclusive), at most
 * METRIC_SNAPS_MAX of them, kept in sim->snaps.  0, EEVDF_EINVAL (every
 * <= 0, too many, no metric, asked twice) or EEVDF_ENOMEM.
 */
int eevdf__metrics_snapshot_every(struct eevdf_sim *sim, eevdf_time every,
				  eevdf_time until);

/* The snapshot clock fired (its SEV_SNAP event). */
void eevdf__metrics_snap_tick(struct eevdf_sim *sim);

/* Free the snapshots (NULL is fine). */
void eevdf__metric_snaps_free(struct metric_snaps *s);

/* The snapshots taken so far, or NULL when none were asked for. */
const struct metric_snaps *eevdf__metric_snaps(const struct eevdf_sim *sim);

#endif
