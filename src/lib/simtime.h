/* SPDX-License-Identifier: MIT */
/*
 * Checked simulated-time arithmetic: where a value a workload computes at
 * run time, as a sleep, a burst of work, a timeout or a timer period, becomes
 * a time on the clock.  One compare and a branch on the fast path.
 */
#ifndef EEVDF_SIMTIME_H
#define EEVDF_SIMTIME_H

#include "internal.h"

/*
 * *out = t + d when d >= 0 and the sum stays at or below EEVDF_TIME_MAX;
 * false (and *out untouched) otherwise.  t is a time of the clock, so at
 * most EEVDF_TIME_MAX itself, and the subtraction cannot overflow.
 */
static inline bool eevdf__time_add_checked(eevdf_time t, s64 d, eevdf_time *out)
{
	if (d < 0 || d > EEVDF_TIME_MAX - t)
		return false;
	*out = t + d;
	return true;
}

/*
 * Amounts of CPU time owed (costs, overheads) add and multiply with
 * saturation: an amount past EEVDF_TIME_MAX can never be burnt, and the
 * burst that tries fails the run with the checked add above, instead of
 * a wrapped sum passing for a small one.
 */
static inline u64 eevdf__ns_add_sat(u64 a, u64 b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline u64 eevdf__ns_mul_sat(u64 a, u64 b)
{
	u64 r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

#endif
