/* SPDX-License-Identifier: MIT */
/* What the results writers (JSON, CSV) spell and compute alike. */
#include <stdint.h>

#include "eevdf/eevdf.h"
#include "results_impl.h"

const char *eevdf__policy_name(enum eevdf_policy p)
{
	switch (p) {
	case EEVDF_POLICY_NORMAL:
		return "normal";
	case EEVDF_POLICY_BATCH:
		return "batch";
	case EEVDF_POLICY_IDLE:
		return "idle";
	}
	return "unknown";
}

const char *eevdf__state_name(enum eevdf_task_state s)
{
	switch (s) {
	case EEVDF_TASK_RUNNING:
		return "running";
	case EEVDF_TASK_SLEEPING:
		return "sleeping";
	case EEVDF_TASK_DEAD:
		return "dead";
	case EEVDF_TASK_NEW:
		return "new";
	}
	return "unknown";
}

/*
 * Mean delay, truncated toward zero like perf's total_lat / nb_atoms.  The
 * count is unsigned, so divide the magnitude in the unsigned domain: no
 * operand is ever converted out of range.
 */
int64_t eevdf__delay_avg(int64_t sum, uint64_t count)
{
	uint64_t q;

	if (count == 0)
		return 0;
	if (sum >= 0)
		return (int64_t)((uint64_t)sum / count);
	/* Delays are never negative; should one be, stay exact anyway. */
	q = ((uint64_t)0 - (uint64_t)sum) / count;
	return q > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)q;
}
