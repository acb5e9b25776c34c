/* SPDX-License-Identifier: MIT */
/*
 * src/report/: what a finished simulation prints: the benchmark-format
 * reports (report.c) and the results writers (results_json.c,
 * results_csv.c, results_common.c).  It reads the engine's simulation
 * and metrics, so it includes engine/, sched/ and lib/; nothing below
 * includes it.
 *
 * Shared by the results writers: results_json.c and results_csv.c.
 */
#ifndef EEVDF_RESULTS_IMPL_H
#define EEVDF_RESULTS_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "eevdf/sim.h"

/* "normal", "batch", "idle". */
/* "running", "sleeping", "dead", "new". */
const char *eevdf__state_name(enum eevdf_task_state s);
/* sum / count truncated toward zero, 0 for no samples; exact in 64 bits. */
int64_t eevdf__delay_avg(int64_t sum, uint64_t count);
/* The SHA-256 of the machine sim runs on (eevdf_machine_digest()). */
int eevdf__sim_machine_digest(const eevdf_sim *sim, char hex[65]);
/* Each feature of sim's release (and each RFC knob that is on) as the
 * results spell it, "NAME" or "NO_NAME", in list order, to emit; false
 * as soon as emit is. */
bool eevdf__feature_list(const eevdf_sim *sim,
			 bool (*emit)(void *ud, const char *name), void *ud);
/* A histogram as results show it: count, min, max, mean and the
 * percentiles of eevdf__summary_permille (only when count > 0). */
struct hist_summary {
	uint64_t count;
	int64_t min, max, mean;
	int64_t pct[4];
};
extern const unsigned int eevdf__summary_permille[4];
extern const char *const eevdf__summary_pct_names[4]; /* "p50", ... */
struct eevdf_hist;
/* 0, or EEVDF_ENOMEM. */
int eevdf__hist_summary(struct eevdf_hist *h, struct hist_summary *s);
/* s is a decimal integer as JSON writes one (no leading zero, sign -). */
bool eevdf__is_integer_text(const char *s);

#endif
