/* SPDX-License-Identifier: MIT */
/*
 * What the plots of a run need (plot_data.c), gathered from its trace
 * events: every wakeup latency per task or comm, the worst one, the CPU
 * timeline of a window and the lags of the tasks queued on a CPU there;
 * and the SVGs of them (eevdf/plot.h).
 */
#ifndef EEVDF_CLI_PLOT_DATA_H
#define EEVDF_CLI_PLOT_DATA_H

#include <stdbool.h>

#include "eevdf/eevdf.h"

struct plot_data_opts {
	bool by_comm;	     /* latency per comm (the name less "[k]") */
	eevdf_time from, to; /* the window of timeline and lags; to < 0:
			      * none */
	int lag_cpu;	     /* the CPU whose queue's lags are kept, -1
			      * none */
};

struct plot_data;

struct plot_data *plot_data_new(const struct plot_data_opts *o, int nr_cpus);
void plot_data_free(struct plot_data *pd);
/* Before the first event: the simulation, for names and state. */
void plot_data_attach(struct plot_data *pd, eevdf_sim *sim);
/* The eevdf_trace_fn: ud is the struct plot_data. */
void plot_data_event(void *ud, const struct eevdf_trace_event *ev);
/* The run is over at now: close what is open. */
void plot_data_end(struct plot_data *pd, eevdf_time now);
/* The simulation of a run plot_data_*_run() made (for its names). */
eevdf_sim *plot_data_sim(const struct plot_data *pd);
/* false when a sample could not be stored (out of memory) */
bool plot_data_ok(const struct plot_data *pd);

/* The largest wakeup latency: the task, its CPU, when it ended, how long;
 * false when there was no wakeup. */
bool plot_data_worst(const struct plot_data *pd, int *pid, int *cpu,
		     eevdf_time *end, eevdf_time *delay);
/* The window around the worst wakeup in a run of length duration. */
void plot_data_window(const struct plot_data *pd, eevdf_time duration,
		      eevdf_time *from, eevdf_time *to);

/* The SVGs: 0, or an error code (eevdf/plot.h). */
int plot_data_latency_svg(const struct plot_data *pd, const char *title,
			  char **svg);
int plot_data_timeline_svg(const struct plot_data *pd, const char *title,
			   char **svg);
int plot_data_lag_svg(const struct plot_data *pd, const char *title,
		      char **svg);

/*
 * Run argv as 'run' would (argv[0] the command's name) through
 * [o->from, o->to] with a collector for the timeline and the lags (the
 * lags with STATE events, asked for from o->from on only): *out, or an
 * exit code after printing why.
 */
int plot_data_window_run(int argc, char **argv, const struct plot_data_opts *o,
			 struct plot_data **out);

/* Run argv to its end with a collector of latencies: *out and when the
 * run ended, or an exit code after printing why. */
int plot_data_full_run(int argc, char **argv, const struct plot_data_opts *o,
		       struct plot_data **out, eevdf_time *duration);

#endif
