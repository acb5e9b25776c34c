/* SPDX-License-Identifier: MIT */
/*
 * Nice-to-weight tables and __calc_delta().
 *
 * The tables are the kernel's sched_prio_to_weight[] and
 * sched_prio_to_wmult[] (kernel/sched/core.c), values as listed in
 * kernel-model.md section 1.1: each nice step is a factor of about 1.25,
 * and the inverse is 2^32 / weight rounded.
 */
#include "weights.h"

const u32 eevdf__prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,	 7620,	6100,  4904,  3906,
	/*  -5 */ 3121,	 2501,	1991,  1586,  1277,
	/*   0 */ 1024,	 820,	655,   526,   423,
	/*   5 */ 335,	 272,	215,   172,   137,
	/*  10 */ 110,	 87,	70,    56,    45,
	/*  15 */ 36,	 29,	23,    18,    15,
};

const u32 eevdf__prio_to_wmult[40] = {
	/* -20 */ 48388,
	59856,
	76040,
	92818,
	118348,
	/* -15 */ 147320,
	184698,
	229616,
	287308,
	360437,
	/* -10 */ 449829,
	563644,
	704093,
	875809,
	1099582,
	/*  -5 */ 1376151,
	1717300,
	2157191,
	2708050,
	3363326,
	/*   0 */ 4194304,
	5237765,
	6557202,
	8165337,
	10153587,
	/*   5 */ 12820798,
	15790321,
	19976592,
	24970740,
	31350126,
	/*  10 */ 39045157,
	49367440,
	61356676,
	76695844,
	95443717,
	/*  15 */ 119304647,
	148102320,
	186737708,
	238609294,
	286331153,
};

void eevdf__set_load_weight(struct load_weight *lw, int nice, bool idle)
{
	EEVDF_ASSERT(nice >= -20 && nice <= 19);
	if (idle) {
		lw->weight = scale_load(WEIGHT_IDLEPRIO);
		lw->inv_weight = WMULT_IDLEPRIO;
		return;
	}
	lw->weight = scale_load(eevdf__prio_to_weight[nice + 20]);
	lw->inv_weight = eevdf__prio_to_wmult[nice + 20];
}

/* __update_inv_weight(): the lazy inverse of an aggregate weight. */
static void update_inv_weight(struct load_weight *lw)
{
	u64 w;

	if (lw->inv_weight)
		return;
	w = scale_load_down(lw->weight);
	if (w >= WMULT_CONST)
		lw->inv_weight = 1;
	else if (!w)
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = (u32)(WMULT_CONST / w);
}

/* Number of significant bits of x (fls64), x != 0: one instruction
 * where a shift loop took three a bit (calc_delta() was 1.4 % of a
 * schbench run). */
static unsigned int fls64(u64 x)
{
	return 64 - (unsigned int)__builtin_clzll(x);
}

/*
 * delta_exec * weight / lw->weight computed as
 * (delta_exec * (weight * lw->inv_weight)) >> 32, keeping the product of
 * the two factors within 32 bits by shifting both it and the final shift
 * down.  The truncations are the kernel's: simulated vruntimes lose the
 * same nanoseconds a real kernel loses.
 */
u64 eevdf__calc_delta(u64 delta_exec, u64 weight, struct load_weight *lw)
{
	u64 fact = scale_load_down(weight);
	u32 fact_hi = (u32)(fact >> 32);
	int shift = 32;
	unsigned int bits;

	update_inv_weight(lw);
	if (fact_hi) {
		bits = fls64(fact_hi);
		fact >>= bits;
		shift -= (int)bits;
	}
	fact = (u64)(u32)fact * lw->inv_weight;
	fact_hi = (u32)(fact >> 32);
	if (fact_hi) {
		bits = fls64(fact_hi);
		fact >>= bits;
		shift -= (int)bits;
	}
	/* mul_u64_u32_shr(): a 96-bit product, shifted back down. */
	return (u64)(((u128)delta_exec * (u32)fact) >> shift);
}
