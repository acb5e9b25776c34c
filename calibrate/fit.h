/* SPDX-License-Identifier: MIT */
/*
 * From measurements to the cost model: each entry of the simulator's
 * cost table (src/machine/costs.h, docs/machine-format.md) that a
 * benchmark identifies, with the formula that splits the measurement
 * into the model's entries as the model charges them.  Where a
 * measurement holds several entries (a round trip is calls, wakeups and
 * switches), the others are measured on their own first and the entry
 * is what is left: the model then reproduces the measurement exactly.
 * docs/calibration.md lists every formula and why it is identifiable.
 */
#ifndef CAL_FIT_H
#define CAL_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "series.h"

#define CAL_MAX_COSTS 40
#define CAL_MAX_NOTES 16

struct cal_cost {
	char name[32];	    /* the cost entry */
	int64_t value;	    /* ns, or percent for a _pct entry */
	int64_t iqr;	    /* its spread, from its inputs' */
	size_t samples;	    /* the fewest samples of its inputs */
	double spread_pct;  /* the widest relative spread of its inputs */
	const char *widest; /* ... and which input that was */
	char method[600];
};

struct cal_fit {
	struct cal_cost cost[CAL_MAX_COSTS];
	size_t nr;
	/* costs left at their defaults, and why ("ipi_recv: ...") */
	char notes[CAL_MAX_NOTES][200];
	size_t nr_notes;
	/* a prediction of the fitted model against a measurement not used */
	char checks[CAL_MAX_NOTES][200];
	size_t nr_checks;
};

/*
 * The costs the series of set identify (after cal_set_finish()).  An
 * entry whose inputs are missing is left out with a note.  One that comes
 * out negative is a failure (0, or -1 with err saying which and why),
 * unless keep_negative (--allow-noisy): it is then written as 0, its
 * method saying what was measured, and counted in *nr_negative.
 */
int cal_fit_costs(const struct cal_set *set, struct cal_fit *fit,
		  bool keep_negative, size_t *nr_negative, char *err,
		  size_t len);

/* The entry called name, or NULL. */
const struct cal_cost *cal_fit_find(const struct cal_fit *fit,
				    const char *name);

/*
 * HZ from the run lengths of two hogs (series hog_run_length) and the
 * base slice: a run ends at the first tick after the slice has run out,
 * so its length is the slice rounded up to whole ticks.  Of the HZ
 * values Linux offers (100, 250, 300, 1000) the one whose run length is
 * nearest the median, within 15%.  The HZ, or 0 with why.
 */
int cal_fit_hz(const struct cal_series *runs, int64_t slice_ns, char *why,
	       size_t len);

#endif
