/* SPDX-License-Identifier: MIT */
/*
 * libeevdf: a deterministic discrete-event simulator of the Linux fair
 * scheduler (EEVDF).  This umbrella header is the only one users need.
 *
 *	struct eevdf_config cfg;
 *	eevdf_sim *sim;
 *	eevdf_config_init(&cfg);
 *	if (eevdf_sim_new(&cfg, &sim, NULL, 0) == 0) {
 *		eevdf_sim_add_task(sim, &spec);
 *		eevdf_sim_run(sim, 10 * EEVDF_NSEC_PER_SEC);
 *		... eevdf_sim_task_stats() ...
 *		eevdf_sim_free(sim);
 *	}
 */
#ifndef EEVDF_EEVDF_H
#define EEVDF_EEVDF_H

#include "eevdf/types.h"
#include "eevdf/version.h"
#include "eevdf/error.h"
#include "eevdf/features.h"
#include "eevdf/sim.h"
#include "eevdf/group.h"
#include "eevdf/results.h"
#include "eevdf/report.h"
#include "eevdf/workload.h"
#include "eevdf/machine.h"
#include "eevdf/state.h"
#include "eevdf/plot.h"
#include "eevdf/stats.h"
#include "eevdf/sweep.h"

#endif
