/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim merge: a sweep's results gathered into one table, one row
 * per configuration (every axis but the seed), per metric the statistics
 * over the seeds and the ratio to a baseline configuration.
 * cmd_merge.c gathers, merge_format.c prints text, Markdown, CSV or JSON.
 */
#ifndef EEVDF_CLI_MERGE_H
#define EEVDF_CLI_MERGE_H

#include "sweep.h"

#define MERGE_METRICS_MAX 32

enum merge_format {
	MERGE_TEXT,
	MERGE_CSV,
	MERGE_JSON,
	MERGE_MD,
};

/* One configuration and its figures over the seeds. */
struct merge_row {
	const char **labels;	/* per axis; the seed axis's unused */
	size_t *points;		/* the points with results, seed order */
	size_t n;		/* how many */
	size_t expected;	/* points of the configuration */
	size_t incomplete;	/* of them, benchmarks that did not finish */
	double *values;		/* [metric * expected + i], i < st[metric].n */
	struct eevdf_stats *st; /* per metric; n 0: no figure */
	long ref;		/* the baseline's row, -1 for none */
};

struct merge {
	const char *sweep;
	size_t nr_points, nr_found;
	size_t nr_axes;
	const char **axes; /* names */
	long seed_axis;	   /* -1: no seed axis */
	const char **seeds;
	size_t nr_seeds;
	const char *metrics[MERGE_METRICS_MAX];
	size_t nr_metrics;
	const char **base; /* per axis, NULL: free */
	bool have_base;
	struct merge_row *rows;
	size_t nr_rows;
};

/* Print m in format f to out; false on a write error. */
bool merge_print(const struct merge *m, enum merge_format f, FILE *out);

#endif
