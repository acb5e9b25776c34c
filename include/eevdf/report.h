/* SPDX-License-Identifier: MIT */
/*
 * Benchmark reports: the lines the real benchmark prints (schbench,
 * hackbench, perf bench sched messaging and pipe, tbench/dbench,
 * massive_intr), computed from a finished simulation's workload metrics.
 *
 * A formatter reads its options (group counts, message sizes, the
 * runtime) through a callback, normally the workload's "report" object;
 * options it does not get take the benchmark's defaults.
 */
#ifndef EEVDF_REPORT_H
#define EEVDF_REPORT_H

#include <stdbool.h>

#include "eevdf/sim.h"

/* The value of report option key as text, or NULL when not set. */
typedef const char *(*eevdf_report_opt_fn)(void *ud, const char *key);

/* True when format names a report this library can print. */
EEVDF_API bool eevdf_report_known(const char *format);

/* The known formats, for messages: "schbench, hackbench, ...". */
EEVDF_API const char *eevdf_report_formats(void);

/*
 * The workload's metrics as text, one line each (per key of a keyed one):
 * the numbers of the results JSON's "metrics", with the unit unit(ud,
 * NAME) gives (unit may be NULL).  "" for a workload without metrics.
 * 0 and *out (free()), EEVDF_EINVAL or EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_report_metrics(const eevdf_sim *sim,
				   eevdf_report_opt_fn unit, void *ud,
				   char **out);

/* What a report says and reads (eevdf-sim list --reports). */
struct eevdf_report_info {
	const char *name; /* as "report": {"format": ...} names it */
	const char *description;
	const char *headlines; /* "name (unit, better), ...": its summary */
	const char *metrics;   /* "name (type, ...), ...": what it reads */
};

/* The reports, in the order of eevdf_report_formats(); i past the end:
 * NULL. */
EEVDF_API size_t eevdf_report_count(void);
EEVDF_API const struct eevdf_report_info *eevdf_report_info(size_t i);

/*
 * Format report `format` of sim into a malloc'd string (*out, freed with
 * free(); NULL on failure).  opt may be NULL.  Returns 0, EEVDF_EINVAL
 * (an unknown format, or a metric the report needs is missing or of the
 * wrong type; err, when not NULL, says which) or EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_report(const eevdf_sim *sim, const char *format,
			   eevdf_report_opt_fn opt, void *ud, char **out,
			   char *err, size_t errlen);

/*
 * A headline number of a report: the figure the benchmark's summary line
 * gives (schbench's average rps, hackbench's Time, tbench's Throughput),
 * named as in the results JSON "summary" ("average_rps", "time_s",
 * "throughput_mb_s").  name and unit are static strings.
 */
struct eevdf_headline {
	const char *name;
	const char *unit;
	int better; /* +1: higher is better; -1: lower is better */
	double value;
};

/* No report has more headline numbers than this. */
#define EEVDF_HEADLINES_MAX 8

/*
 * The headline numbers of report `format` of sim, in the order the report
 * prints them: up to max into out, their count in *n.  Same options and
 * errors as eevdf_report(); *n is 0 on error.
 */
EEVDF_API int eevdf_report_headlines(const eevdf_sim *sim, const char *format,
				     eevdf_report_opt_fn opt, void *ud,
				     struct eevdf_headline *out, size_t max,
				     size_t *n, char *err, size_t errlen);

#endif
