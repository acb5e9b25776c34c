/* SPDX-License-Identifier: MIT */
/*
 * PELT arithmetic (see pelt.h for what the simulator uses it for).
 *
 * Written from these kernel sources (repository torvalds/linux), read for
 * the constants, the order of operations and every integer type:
 *   kernel/sched/pelt.c       @ 0b119045b79a672bc6d8f18641c60fc8ce1b4585
 *       (h_nr_runnable era; same arithmetic as @ d5aa943f68f1a06ea30b...)
 *   kernel/sched/pelt.h       @ 57b2f3632b2f33677568b86f2679693c44f324cc
 *       (PELT_MIN_DIVIDER, get_pelt_divider)
 *   kernel/sched/sched-pelt.h @ 251c226c3504601320b1eef14494abf68589db86
 *       (runnable_avg_yN_inv[], LOAD_AVG_PERIOD, LOAD_AVG_MAX)
 *   kernel/sched/fair.c       @ 155213a2aed42c85361bf4f5c817f5cb68951c3b
 *       (6.17: init_entity_runnable_average, post_init_entity_util_avg,
 *       enqueue/dequeue_load_avg, sub_positive, attach/detach_entity_load_avg)
 *
 * The model is of a 64-bit kernel: unsigned long is 64 bits, and where the
 * kernel narrows to u32 (util_sum, the max_t(u32, ...) floors of detach,
 * accumulate_sum's return) we narrow at the same place.
 */
#include <string.h>

#include "pelt.h"

_Static_assert(sizeof(unsigned long) == sizeof(u64),
	       "PELT models a 64-bit kernel: unsigned long must be 64 bits");

/*
 * y^n * 2^32 for n = 0..31, y^32 = 1/2, as the kernel's generated
 * sched-pelt.h has them (entry 0 is 2^32 - 1, so even a "decay" by 0
 * periods loses a unit: the kernel never asks for that).
 */
static const u32 runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/* The kernel's mul_u64_u32_shr(): the full 96-bit product, shifted. */
static u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((u128)a * mul) >> shift);
}

/*
 * Whole half-lives are shifts; the rest of n (< 32) is one table multiply.
 * Past 63 half-lives any u64 is gone, and the kernel returns 0 outright.
 */
u64 decay_load(u64 val, u64 n)
{
	unsigned int rest;

	if (n > (u64)LOAD_AVG_PERIOD * 63)
		return 0;
	rest = (unsigned int)n;
	if (rest >= LOAD_AVG_PERIOD) {
		val >>= rest / LOAD_AVG_PERIOD;
		rest %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, runnable_avg_yN_inv[rest], 32);
}

/*
 * The new contribution when `periods` boundaries were crossed: d1, the
 * tail of the period that was open at the last update, decayed by all
 * `periods`; the full periods in between, 1024 * (y + ... + y^(periods-1)),
 * taken as a difference of the series' limit LOAD_AVG_MAX; d3, the head of
 * the now-open period, undecayed.  All u32 as in the kernel: for
 * periods == 1 the middle term is 47742 - 46718 - 1024 = 0.
 */
static u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1 = (u32)decay_load(d1, periods);
	u32 c2 = (u32)(LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024);

	return c1 + c2 + d3;
}

/* Step 1 of an update: age the old sums by whole periods. */
static void decay_sums(struct sched_avg *sa, u64 periods)
{
	sa->load_sum = decay_load(sa->load_sum, periods);
	sa->runnable_sum = decay_load(sa->runnable_sum, periods);
	sa->util_sum = (u32)decay_load(sa->util_sum, periods);
}

/*
 * Add `delta` units to the sums.  Within one period the contribution is
 * delta itself; across boundaries it is the three segments.  The segments
 * are only computed when load != 0: with load 0 the caller has cleared
 * runnable and running, so nothing is added.  load weighs load_sum
 * directly; runnable_sum and util_sum carry SCHED_CAPACITY_SHIFT more bits.
 * Returns the periods crossed, narrowed to u32 like the kernel's.
 */
static u32 accumulate_sum(u64 delta, struct sched_avg *sa, unsigned long load,
			  unsigned long runnable, int running)
{
	u32 contrib = (u32)delta;
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		decay_sums(sa, periods);
		delta %= 1024;
		if (load)
			contrib = __accumulate_pelt_segments(
				periods, 1024 - sa->period_contrib, (u32)delta);
	}
	sa->period_contrib = (u32)delta;

	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << SCHED_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;
	return (u32)periods;
}

/*
 * A clock that went backwards (the kernel sees it at sched_clock init) only
 * resynchronises.  Less than 1024 ns is not a unit: nothing happens and the
 * remainder stays in (now - last_update_time) for next time, because
 * last_update_time advances by whole units only.  An entity with no load
 * cannot be runnable or running (the kernel meets curr == se after se was
 * dequeued), so those are cleared.
 */
int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load,
		       unsigned long runnable, int running)
{
	u64 delta = now - sa->last_update_time;

	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;

	if (!load) {
		runnable = 0;
		running = 0;
	}
	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

/*
 * Step 2: each average is its sum over the divider for this point of the
 * period; load_avg is also scaled by `load` (an entity's weight, since an
 * entity's load_sum only counts time on the queue; 1 for a cfs_rq, whose
 * load_sum is already weighted).
 *
 * Tried and measured, not kept: the three divides as multiplies by
 * ceil(2^64 / d) from a table of the 1 024 dividers (exact below 2^48).
 * perf put most of a PELT update's samples just after the divides, but
 * without them 8 hogs on 4 CPUs ran 6 % slower (12 alternating pairs,
 * twice) on 3 % more instructions: the quotients are only stored, so
 * the divides overlap the work that follows.
 */
void ___update_load_avg(struct sched_avg *sa, unsigned long load)
{
	u32 divider = get_pelt_divider(sa);

	sa->load_avg = (unsigned long)(load * sa->load_sum / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
}

int pelt_update_se_slow(u64 now, struct sched_avg *sa, unsigned long weight,
			bool on_rq, unsigned long runnable, bool running)
{
	if (!___update_load_sum(now, sa, on_rq, runnable, running))
		return 0;
	___update_load_avg(sa, weight);
	return 1;
}

int pelt_update_cfs_rq_slow(u64 now, struct sched_avg *sa,
			    unsigned long load_weight,
			    unsigned int h_nr_runnable, bool running)
{
	if (!___update_load_sum(now, sa, load_weight, h_nr_runnable, running))
		return 0;
	___update_load_avg(sa, 1);
	return 1;
}

/* The kernel's sub_positive(): an unsigned subtraction clamped at 0. */
static void sub_positive_ul(unsigned long *v, unsigned long dec)
{
	*v = *v >= dec ? *v - dec : 0;
}

static void sub_positive_u64(u64 *v, u64 dec)
{
	*v = *v >= dec ? *v - dec : 0;
}

static void sub_positive_u32(u32 *v, u32 dec)
{
	*v = *v >= dec ? *v - dec : 0;
}

/*
 * After a subtraction, a sum must not fall below what its average implies
 * at the smallest divider, or rounding could leave a zero sum under a
 * non-zero average.  The kernel takes this max as u32 for all three sums,
 * so a load_sum beyond 2^32 is truncated here as it is there.
 */
static u32 sum_floor(u64 sum, unsigned long avg)
{
	u32 s = (u32)sum;
	u32 f = (u32)(avg * PELT_MIN_DIVIDER);

	return s > f ? s : f;
}

/*
 * The entity takes the cfs_rq's clock and position in the period (the two
 * then decay in step), and its sums are rebuilt from its averages at the
 * cfs_rq's divider.  load_sum counts time, not weight, so it is the
 * weighted product divided back by the weight, and never less than 1.
 */
void pelt_attach(struct sched_avg *cfs, struct sched_avg *se,
		 unsigned long weight)
{
	u32 divider = get_pelt_divider(cfs);

	EEVDF_ASSERT(weight > 0);
	se->last_update_time = cfs->last_update_time;
	se->period_contrib = cfs->period_contrib;

	se->util_sum = (u32)(se->util_avg * divider);
	se->runnable_sum = (u64)se->runnable_avg * divider;
	se->load_sum = (u64)se->load_avg * divider;
	if (weight < se->load_sum)
		se->load_sum /= weight;
	else
		se->load_sum = 1;

	cfs->load_avg += se->load_avg;
	cfs->load_sum += weight * se->load_sum;
	cfs->util_avg += se->util_avg;
	cfs->util_sum += se->util_sum;
	cfs->runnable_avg += se->runnable_avg;
	cfs->runnable_sum += se->runnable_sum;
}

/* The reverse, each field clamped at 0 and each sum floored by its avg. */
void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se,
		 unsigned long weight)
{
	sub_positive_ul(&cfs->load_avg, se->load_avg);
	sub_positive_u64(&cfs->load_sum, weight * se->load_sum);
	cfs->load_sum = sum_floor(cfs->load_sum, cfs->load_avg);

	sub_positive_ul(&cfs->util_avg, se->util_avg);
	sub_positive_u32(&cfs->util_sum, se->util_sum);
	cfs->util_sum = sum_floor(cfs->util_sum, cfs->util_avg);

	sub_positive_ul(&cfs->runnable_avg, se->runnable_avg);
	sub_positive_u64(&cfs->runnable_sum, se->runnable_sum);
	cfs->runnable_sum = sum_floor(cfs->runnable_sum, cfs->runnable_avg);
}

void pelt_reweight(struct sched_avg *cfs, struct sched_avg *se,
		   unsigned long old_weight, unsigned long new_weight)
{
	sub_positive_ul(&cfs->load_avg, se->load_avg);
	sub_positive_u64(&cfs->load_sum, old_weight * se->load_sum);
	cfs->load_sum = sum_floor(cfs->load_sum, cfs->load_avg);
	se->load_avg = (unsigned long)(new_weight * se->load_sum /
				       get_pelt_divider(se));
	cfs->load_avg += se->load_avg;
	cfs->load_sum += new_weight * se->load_sum;
}

/*
 * A new task's util is the cfs_rq's util per unit of its load times the
 * task's weight (as if it behaved like the average of its run queue), and
 * at most half of the capacity the cfs_rq leaves: successive forks get
 * 1/2, 1/4, ... of the remaining room, so their sum cannot diverge.  On an
 * idle cfs_rq (util 0) it is that cap.  The kernel computes the cap as a
 * signed difference halved; an over-full cfs_rq (util >= capacity) leaves
 * no room, as its result <= 0 does there.
 */
static unsigned long new_task_util(unsigned long weight,
				   unsigned long cfs_util_avg,
				   unsigned long cfs_load_avg,
				   unsigned long capacity)
{
	unsigned long cap, util;

	if (cfs_util_avg >= capacity)
		return 0;
	cap = (capacity - cfs_util_avg) / 2;
	if (!cap || !cfs_util_avg)
		return cap;
	util = cfs_util_avg * weight / (cfs_load_avg + 1);
	return util < cap ? util : cap;
}

/*
 * last_update_time: the kernel leaves 0 here, its "never attached" marker
 * that update_load_avg() turns into attach_entity_load_avg() at the first
 * enqueue.  A simulated clock starts at 0, where that marker is ambiguous,
 * so callers track attachment themselves; we store now, which
 * pelt_attach() overwrites with the cfs_rq's clock anyway.
 */
void pelt_init_task(struct sched_avg *sa, unsigned long weight,
		    unsigned long cfs_util_avg, unsigned long cfs_load_avg,
		    unsigned long capacity, u64 now)
{
	memset(sa, 0, sizeof(*sa));
	sa->load_avg = weight;
	sa->util_avg = new_task_util(weight, cfs_util_avg, cfs_load_avg,
				     capacity);
	sa->runnable_avg = sa->util_avg;
	sa->last_update_time = now;
}
