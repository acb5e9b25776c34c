/* SPDX-License-Identifier: MIT */
/*
 * The kernel profile table.  Sources: shared/reference/kernel-model.md
 * sections 0.2 and 8, and kernel-6.18y.md (the 6.18 stable line up to
 * 6.18.44).  Profiles of older releases and CFS join this table with the
 * CFS policy.
 */
#include <string.h>

#include "feature.h"
#include "profile.h"

#define EVERY_FEATURE                                                          \
	((EEVDF_FEAT_NR == 64) ? ~(u64)0 : (((u64)1 << EEVDF_FEAT_NR) - 1))
/* The flags only CFS (6.1-6.5) lists; no EEVDF profile has them. */
#define CFS_ONLY_FEATURES                                                      \
	(FEAT_BIT(GENTLE_FAIR_SLEEPERS) | FEAT_BIT(START_DEBIT) |              \
	 FEAT_BIT(LAST_BUDDY) | FEAT_BIT(ALT_PERIOD) | FEAT_BIT(BASE_SLICE) |  \
	 FEAT_BIT(UTIL_EST_FASTUP))
#define ALL_FEATURES (EVERY_FEATURE & ~CFS_ONLY_FEATURES)
/*
 * The 6.1-6.5 list (kernel-model.md 8.3 with the CFS-era 8.2 flags): no
 * EEVDF placement, protection, delayed dequeue or pick buddy; SIS_PROP and
 * DOUBLE_TICK still listed (off); the RFC knobs stay settable.
 */
#define FEATURES_CFS                                                           \
	((ALL_FEATURES | CFS_ONLY_FEATURES) & ~FEAT_BIT(PLACE_LAG) &           \
	 ~FEAT_BIT(PLACE_DEADLINE_INITIAL) & ~FEAT_BIT(PLACE_REL_DEADLINE) &   \
	 ~FEAT_BIT(RUN_TO_PARITY) & ~FEAT_BIT(PREEMPT_SHORT) &                 \
	 ~FEAT_BIT(PICK_BUDDY) & ~FEAT_BIT(DELAY_DEQUEUE) &                    \
	 ~FEAT_BIT(DELAY_ZERO))
/* The 6.14+ lists: DOUBLE_TICK went in 6.13, SIS_PROP in 6.12. */
#define FEATURES_6_14                                                          \
	(ALL_FEATURES & ~FEAT_BIT(DOUBLE_TICK) & ~FEAT_BIT(SIS_PROP))
/* 6.12-6.13: DOUBLE_TICK still there, PICK_BUDDY not yet (NEXT_BUDDY
 * gated both sides of the buddy). */
#define FEATURES_6_12                                                          \
	(ALL_FEATURES & ~FEAT_BIT(PICK_BUDDY) & ~FEAT_BIT(SIS_PROP))
/* 6.8-6.11: no delayed dequeue, PREEMPT_SHORT or PLACE_REL_DEADLINE yet;
 * SIS_PROP still listed (off). */
#define FEATURES_6_8                                                           \
	(ALL_FEATURES & ~FEAT_BIT(PICK_BUDDY) & ~FEAT_BIT(DELAY_DEQUEUE) &     \
	 ~FEAT_BIT(DELAY_ZERO) & ~FEAT_BIT(PREEMPT_SHORT) &                    \
	 ~FEAT_BIT(PLACE_REL_DEADLINE))

/* 6.6-6.7: the 6.8 list plus UTIL_EST_FASTUP (removed in 6.8). */
#define FEATURES_6_6 (FEATURES_6_8 | FEAT_BIT(UTIL_EST_FASTUP))

/*
 * What 6.6 to 6.11 share: 0.75 ms slices, min_vruntime, the 2 x slice lag
 * clamp, the 6.6 wakeup order, the vlag-stash protection, full first
 * requests, no custom slices, reweight_eevdf().  Their rows differ in the
 * feature list.
 */
#define EEVDF_6_6_TO_6_11                                                      \
	.policy = POLICY_EEVDF, .normalized_base_slice = 750000,               \
	.v0 = V0_MIN_VRUNTIME, .lag_clamp = LAG_CLAMP_2SLICE,                  \
	.wakeup = WAKEUP_6_6, .protect = PROTECT_VLAG_STASH,                   \
	.wakeup_pick_reaps = false, .yield_forfeit = false,                    \
	.protect_first_only = false, .new_task_initial = false,                \
	.custom_slices = false, .reweight_eevdf = true,                        \
	.group_keep_weight = false, .dl_server = DL_SERVER_NONE

static const struct eevdf_profile profiles[] = {
	{
		/*
		 * The CFS of Linux 6.1-6.5 (kernel-model.md section 9, read
		 * at af4cf40470c2): vruntime order, sched_latency periods,
		 * sleeper credit, START_DEBIT and next/last/skip buddies,
		 * with the 6.3 cap of the tick's ideal slice.  src/sched/cfs.c.
		 * The EEVDF-only fields below are unused by this policy.
		 */
		.name = "cfs-6.1",
		.alias = NULL,
		.description = "Linux 6.1-6.5 CFS (pre-EEVDF): vruntime "
			       "order, 6 ms latency, sleeper credit",
		.policy = POLICY_CFS,
		.normalized_base_slice = 750000, /* min_granularity */
		.v0 = V0_MIN_VRUNTIME,		 /* CFS's own min_vruntime */
		.lag_clamp = LAG_CLAMP_2SLICE,
		.wakeup = WAKEUP_6_6,
		.protect = PROTECT_VLAG_STASH,
		.wakeup_pick_reaps = false,
		.yield_forfeit = false,
		.protect_first_only = false,
		/* CFS places a new task when it forks (cfs_task_fork) */
		.new_task_initial = false,
		.custom_slices = false,
		.group_keep_weight = false,
		.tg_load_avg_ratelimit = false,
		.dl_server = DL_SERVER_NONE,
		.feat_present = FEATURES_CFS,
		.feat_default = 0,
	},
	{
		/*
		 * v6.6 and v6.7, the first EEVDF releases (147f3efaa241,
		 * 5e963f2bd465): as 6.8 here, with 6.7's reweight_eevdf()
		 * and UTIL_EST_FASTUP (no effect) in the list.  Not modelled:
		 * the tree sorted by vruntime with a min_deadline
		 * augmentation (the pick's result set is the same, only ties
		 * between equal deadlines may break differently) and 6.6.0's
		 * re-weighting before eab03c23c2a1.
		 */
		.name = "6.6",
		.alias = NULL,
		.tg_load_avg_ratelimit = false,
		.description = "Linux 6.6 (6.6-6.7): the first EEVDF, as 6.8 "
			       "but for tie-breaking in the pick",
		EEVDF_6_6_TO_6_11,
		.feat_present = FEATURES_6_6,
		.feat_default = 0,
	},
	{
		/*
		 * v6.8 (the 6.8-6.11 behaviour): the deadline-sorted tree
		 * (2227a957e1d5), RUN_TO_PARITY with the vlag stash
		 * (63304558ba5d), resched only at a renewed request; no
		 * delayed dequeue, PREEMPT_SHORT, PLACE_REL_DEADLINE or
		 * custom slices; a new task's enqueue redoes its placement
		 * with a full request; reweight_eevdf().
		 */
		.name = "6.8",
		.alias = NULL,
		.tg_load_avg_ratelimit = true,
		.description = "Linux 6.8 (6.8-6.11): EEVDF without delayed "
			       "dequeue or PREEMPT_SHORT, 0.75 ms base slice",
		EEVDF_6_6_TO_6_11,
		.feat_present = FEATURES_6_8,
		.feat_default = 0,
	},
	{
		/*
		 * v6.12 (the 6.12-6.16 behaviour): DELAY_DEQUEUE and
		 * DELAY_ZERO (152e11f6df29, 54a58a787791), PREEMPT_SHORT
		 * (85e511df3cec) with the vlag-stash protection, custom
		 * slices, PLACE_REL_DEADLINE; min_vruntime; 0.75 ms base
		 * slice (0.70 came in 6.15, 2ae891b82695); the pick-side
		 * buddy under NEXT_BUDDY; reweight_eevdf() (6.7-6.12).
		 */
		.name = "6.12",
		.alias = NULL,
		.description = "Linux 6.12 (6.12-6.16): delayed dequeue, "
			       "PREEMPT_SHORT, vlag-stash slice protection, "
			       "0.75 ms base slice",
		.policy = POLICY_EEVDF,
		.normalized_base_slice = 750000,
		.v0 = V0_MIN_VRUNTIME,
		.lag_clamp = LAG_CLAMP_2SLICE,
		.wakeup = WAKEUP_6_12,
		.protect = PROTECT_VLAG_STASH,
		.wakeup_pick_reaps = false,
		.yield_forfeit = false,
		.protect_first_only = false,
		.new_task_initial = true,
		.custom_slices = true,
		.reweight_eevdf = true,
		/* the fair server's first release (5f6bd380c7bd) */
		.dl_server = DL_SERVER_6_12,
		.feat_present = FEATURES_6_12,
		.feat_default = 0,
	},
	{
		/*
		 * v6.17 and the v6.18 release: vprot slice protection
		 * (9cdb4fe20cd2 .. 0b9ca2dcabc3), min_vruntime, the
		 * 2 * slice lag clamp, yield pushes the deadline only.
		 */
		.name = "6.17",
		.alias = "6.18.0",
		.description = "Linux 6.17 and the 6.18.0 release (EEVDF, "
			       "vprot protection)",
		.policy = POLICY_EEVDF,
		.normalized_base_slice = 700000,
		.v0 = V0_MIN_VRUNTIME,
		.lag_clamp = LAG_CLAMP_2SLICE,
		.wakeup = WAKEUP_6_17,
		.protect = PROTECT_VPROT,
		.wakeup_pick_reaps = false,
		.yield_forfeit = false,
		.protect_first_only = false,
		.new_task_initial = true,
		.custom_slices = true,
		.reweight_eevdf = false,
		.group_keep_weight = true,
		.tg_load_avg_ratelimit = true,
		.dl_server = DL_SERVER_6_17,
		.feat_present = FEATURES_6_14,
		.feat_default = 0, /* filled from features.h below */
	},
	{
		/* The 6.18 long-term stable line as of 6.18.44. */
		.name = "6.18",
		.alias = "6.18.44",
		.description = "Linux 6.18.44 long-term stable (default): "
			       "6.17 plus yield forfeit, zero_vruntime, "
			       "max-slice lag clamp, 6.19 wakeup preemption",
		.policy = POLICY_EEVDF,
		.normalized_base_slice = 700000,
		.v0 = V0_ZERO_VRUNTIME,
		.lag_clamp = LAG_CLAMP_MAX_SLICE,
		.wakeup = WAKEUP_6_19,
		.protect = PROTECT_VPROT,
		.wakeup_pick_reaps = true,
		.yield_forfeit = true,
		.protect_first_only = true,
		.new_task_initial = true,
		.custom_slices = true,
		.reweight_eevdf = false,
		.group_keep_weight = true,
		.tg_load_avg_ratelimit = true,
		/* 6.17's server with the 6.18.9 and 6.18.24 backports */
		.dl_server = DL_SERVER_6_17,
		.dl_server_fix_stuck = true,
		.dl_server_revised_wakeup = true,
		.feat_present = FEATURES_6_14,
		.feat_default = 0,
	},
	{
		/*
		 * The v6.19 release: zero_vruntime (79f3f9bedd14), yield
		 * forfeit (79104becf42b), the NEXT_BUDDY rework
		 * (e837456fdca8) with NEXT_BUDDY turned off again and the
		 * forced resched reverted in rc7 (4f70f106bca1,
		 * 15257cc2f905).  The 7.0 lag clamp, protection-at-pick and
		 * the 7.1 reaping in the wakeup check came later.
		 * --features NEXT_BUDDY gives the 6.19-rc behaviour.
		 */
		.name = "6.19",
		.alias = NULL,
		.description = "Linux 6.19: 6.19 wakeup preemption without "
			       "the 7.x fixes, NEXT_BUDDY off",
		.policy = POLICY_EEVDF,
		.normalized_base_slice = 700000,
		.v0 = V0_ZERO_VRUNTIME,
		.lag_clamp = LAG_CLAMP_2SLICE,
		.wakeup = WAKEUP_6_19,
		.protect = PROTECT_VPROT,
		.wakeup_pick_reaps = false,
		.yield_forfeit = true,
		.protect_first_only = false,
		.new_task_initial = true,
		.custom_slices = true,
		.reweight_eevdf = false,
		.group_keep_weight = true,
		.tg_load_avg_ratelimit = true,
		.dl_server = DL_SERVER_6_19,
		.dl_server_fix_stuck = true,
		.feat_present = FEATURES_6_14,
		.feat_default = 0,
	},
};

#define DEFAULT_PROFILE 5 /* "6.18" */

const struct eevdf_profile *eevdf__profile_find(const char *name)
{
	if (!name)
		return &profiles[DEFAULT_PROFILE];
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++) {
		const struct eevdf_profile *p = &profiles[i];

		if (strcmp(p->name, name) == 0 ||
		    (p->alias && strcmp(p->alias, name) == 0))
			return p;
	}
	return NULL;
}

/*
 * The modelled releases use the features.h (6.18) defaults unchanged;
 * releases that differ (6.19's NEXT_BUDDY, 6.12's missing PICK_BUDDY) will
 * store their own mask in the table.
 */
static u64 profile_defaults(const struct eevdf_profile *p)
{
	u64 mask = p->feat_default ? p->feat_default : eevdf__feat_defaults();

	return mask & p->feat_present;
}

int eevdf_profile_features(const char *kernel, uint64_t *mask)
{
	const struct eevdf_profile *p = eevdf__profile_find(kernel);

	if (!p || !mask)
		return EEVDF_EINVAL;
	*mask = profile_defaults(p);
	return 0;
}

bool eevdf_feature_in_profile(const char *kernel, size_t i)
{
	const struct eevdf_profile *p = eevdf__profile_find(kernel);

	return p && i < EEVDF_FEAT_NR && ((p->feat_present >> i) & 1u) &&
	       !((RFC_FEATURES >> i) & 1u);
}

bool eevdf_feature_is_rfc(size_t i)
{
	return i < EEVDF_FEAT_NR && ((RFC_FEATURES >> i) & 1u);
}

size_t eevdf_profile_count(void)
{
	return ARRAY_SIZE(profiles);
}

const char *eevdf_profile_name(size_t i)
{
	return i < ARRAY_SIZE(profiles) ? profiles[i].name : NULL;
}

const char *eevdf_profile_description(size_t i)
{
	return i < ARRAY_SIZE(profiles) ? profiles[i].description : NULL;
}

const char *eevdf_profile_default(void)
{
	return profiles[DEFAULT_PROFILE].name;
}
