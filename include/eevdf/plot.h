/* SPDX-License-Identifier: MIT */
/*
 * Plots as self-contained SVG documents: one <svg> element, no script,
 * no font or image to fetch, so that a file opens anywhere and an HTML
 * report can hold it inline (as perf timechart writes its SVG).  The
 * caller gives the data in the units the axes show (us, ms, a ratio);
 * every function returns a NUL-terminated string allocated with malloc()
 * in *out, which the caller frees with free(), and 0, or EEVDF_EINVAL
 * (a NULL argument, a value that is not finite, an empty or inverted
 * range, a non-positive value on a log axis) or EEVDF_ENOMEM; on failure
 * *out is NULL.  The same data give the same bytes.
 *
 * Elements carry classes for readers and tests: "title", "xlabel",
 * "ylabel", "xtick" and "ytick" (axis numbers), "series" (a line, with
 * data-label), "mark" (a labelled point), "span" (a timeline box, with
 * data-row and data-key), "bar" (a ratio, with data-value), "legend".
 */
#ifndef EEVDF_PLOT_H
#define EEVDF_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "eevdf/types.h"

struct eevdf_plot_opts {
	const char *title;  /* may be NULL */
	const char *xlabel; /* may be NULL */
	const char *ylabel; /* may be NULL */
	bool logx;	    /* a log10 x axis (lines) */
	int width, height;  /* pixels; 0: 800 x 450 */
	/* the axes' ranges; min == max: from the data, widened to round
	 * numbers */
	double xmin, xmax, ymin, ymax;
};

struct eevdf_plot_point {
	double x, y;
};

/* A labelled point drawn on a series: a percentile of a CDF. */
struct eevdf_plot_mark {
	double x, y;
	const char *label;
};

struct eevdf_plot_series {
	const char *label;
	/* in x order; a point whose y is NaN breaks the line there (a task
	 * off its queue) */
	const struct eevdf_plot_point *pts;
	size_t n;
	bool steps; /* a step function (a CDF, a value held until the next) */
	const struct eevdf_plot_mark *marks;
	size_t nr_marks;
};

/* Lines on x/y axes: latency CDFs (steps, logx), lag over time. */
EEVDF_API int eevdf_plot_lines_svg(const struct eevdf_plot_opts *o,
				   const struct eevdf_plot_series *s, size_t n,
				   char **out);

/* A box of a timeline: row (0..nr_rows), [start, end), its key. */
struct eevdf_plot_span {
	int row;
	double start, end;
	int key; /* 0..nr_keys: its colour and legend entry */
};

/*
 * A timeline, one row per rows[i] (CPUs), each span a box in its key's
 * colour (a task), like perf timechart; x is time.
 */
EEVDF_API int eevdf_plot_timeline_svg(const struct eevdf_plot_opts *o,
				      const char *const *rows, size_t nr_rows,
				      const char *const *keys, size_t nr_keys,
				      const struct eevdf_plot_span *spans,
				      size_t n, char **out);

/* A ratio with its spread, one row of a ratio chart. */
struct eevdf_plot_bar {
	const char *label;
	double value;  /* b/a */
	double lo, hi; /* the spread (per-seed ratios' min and max) */
	int better;    /* +1 higher is better, -1 lower, 0 neither */
};

/*
 * Ratios against a reference line at 1: a dot at each value, a whisker
 * over its spread, green where b is better, red where it is worse.
 */
EEVDF_API int eevdf_plot_ratio_svg(const struct eevdf_plot_opts *o,
				   const struct eevdf_plot_bar *bars, size_t n,
				   char **out);

#endif
