/* SPDX-License-Identifier: MIT */
/*
 * Load weights and the kernel's fixed-point division (kernel-model.md
 * section 1).  Task weights are "scaled" (nice 0 = 1 << 20 on 64-bit
 * kernels); arithmetic on them follows kernel/sched/fair.c exactly so that
 * vruntimes match the kernel's to the nanosecond.
 */
#ifndef EEVDF_WEIGHTS_H
#define EEVDF_WEIGHTS_H

#include "lib/internal.h"

#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT (2 * SCHED_FIXEDPOINT_SHIFT)
#define NICE_0_LOAD ((u64)1 << NICE_0_LOAD_SHIFT)
#define WEIGHT_IDLEPRIO 3u
#define WMULT_IDLEPRIO 1431655765u
#define WMULT_CONST (~0u)

struct load_weight {
	u64 weight;	/* scaled */
	u32 inv_weight; /* ~2^32 / unscaled weight; 0 = not computed yet */
};

static inline u64 scale_load(u64 w)
{
	return w << SCHED_FIXEDPOINT_SHIFT;
}

/* The max(2, .) floor keeps tiny group shares from rounding to 0 or 1. */
static inline u64 scale_load_down(u64 w)
{
	u64 d = w >> SCHED_FIXEDPOINT_SHIFT;

	if (!w)
		return 0;
	return d < 2 ? 2 : d;
}

/* sched_prio_to_weight[nice + 20] and sched_prio_to_wmult[nice + 20]. */
extern const u32 eevdf__prio_to_weight[40];
extern const u32 eevdf__prio_to_wmult[40];

/*
 * set_load_weight(): a task's weight comes from the tables (the inverse is
 * the table value, rounded, not a floored recomputation).
 * SCHED_IDLE tasks get WEIGHT_IDLEPRIO whatever their nice.
 */
void eevdf__set_load_weight(struct load_weight *lw, int nice, bool idle);

/* Aggregates: add or remove a weight; the inverse becomes stale. */
static inline void update_load_add(struct load_weight *lw, u64 inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

static inline void update_load_sub(struct load_weight *lw, u64 dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

/* __calc_delta(): delta_exec * weight / lw->weight, the kernel's way. */
u64 eevdf__calc_delta(u64 delta_exec, u64 weight, struct load_weight *lw);

/* calc_delta_fair(): delta scaled to virtual time of an entity of lw. */
static inline u64 eevdf__calc_delta_fair(u64 delta, struct load_weight *lw)
{
	if (lw->weight != NICE_0_LOAD)
		delta = eevdf__calc_delta(delta, NICE_0_LOAD, lw);
	return delta;
}

#endif
