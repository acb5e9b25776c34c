/* SPDX-License-Identifier: MIT */
/*
 * calibrate's micro-benchmarks as workloads: the simulator runs them on
 * the machine just calibrated, and each figure it predicts is set beside
 * the measured one.  The costs were fitted so that some of them agree by
 * construction (a yield pair, a timer wakeup, a fork cycle); the others
 * test the model: a one-CPU pipe round trip also depends on whether the
 * woken task preempts the waker, a futex round trip on the futex costs
 * measured alone, a cross-CPU round trip on the idle exits of both sides.
 */
#ifndef CAL_MODEL_CHECK_H
#define CAL_MODEL_CHECK_H

#include <stddef.h>

#include "eevdf/eevdf.h"

struct cal_set;

struct cal_check {
	const char *series; /* the measured series it is compared with */
	double measured;    /* its median */
	double model;	    /* what the simulator gives */
	const char *what;
};

#define CAL_NR_CHECKS 6

/*
 * The workload of check i (0 .. CAL_NR_CHECKS - 1): JSON with params n
 * (repetitions, default *n), a and b (the machine's CPUs; b only when
 * *cpus is 2), whose figure is the value metric "per_op" in ns; the
 * series it is compared with and what it is.  NULL past the end.
 */
const char *cal_check_workload(int i, const char **series, const char **what,
			       int *cpus, int *n);

/*
 * Run every check that applies on machine m (profile kernel, NULL for
 * the default) against the measured medians of set.  The checks made,
 * into out (at most CAL_NR_CHECKS); -1 with err when a simulation
 * failed.
 */
int cal_model_checks(const eevdf_machine *m, const char *kernel, int a, int b,
		     const struct cal_set *set, struct cal_check *out,
		     size_t *nr, char *err, size_t len);

#endif
