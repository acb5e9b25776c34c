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

#include <stdint.h>

#include "eevdf/sim.h"

/* "normal", "batch", "idle". */
const char *eevdf__policy_name(enum eevdf_policy p);
/* "running", "sleeping", "dead", "new". */
const char *eevdf__state_name(enum eevdf_task_state s);
/* sum / count truncated toward zero, 0 for no samples; exact in 64 bits. */
int64_t eevdf__delay_avg(int64_t sum, uint64_t count);

#endif
