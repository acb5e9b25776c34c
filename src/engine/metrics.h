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
	s64 last; /* the counter at the last sample */
	struct eevdf_event ev;
};

/* Create a metric (the simulation owns it); returns its index or < 0. */
int eevdf__sim_add_metric(struct eevdf_sim *sim, const char *name,
			  enum metric_type type, enum eevdf_hist_kind quant,
			  bool keyed, bool per_task, bool reset_at_warmup);

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

#endif
