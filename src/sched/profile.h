/* SPDX-License-Identifier: MIT */
/*
 * Kernel profiles: which release's fair scheduler to model.
 *
 * Each difference between releases is one field here, read at exactly one
 * place in the model, so that "what changed in 6.18.y" is a diff of two
 * table rows rather than version checks spread through fair.c.
 */
#ifndef EEVDF_PROFILE_H
#define EEVDF_PROFILE_H

#include "lib/internal.h"

/* Reference point v0 of the avg_vruntime sums (decision-neutral). */
enum v0_mode {
	/* min_vruntime, monotonic, updated by update_curr and dequeue [<=6.18.0] */
	V0_MIN_VRUNTIME,
	/*
	 * zero_vruntime, re-centred on V inside every avg_vruntime() call
	 * (79f3f9bedd14 + b3d99f43c72b, in 6.18.y from 6.18.17).
	 */
	V0_ZERO_VRUNTIME,
};

/* Bound of the lag saved by update_entity_lag(). */
enum lag_clamp {
	LAG_CLAMP_2SLICE, /* cdf(max(2 * se->slice, TICK_NSEC)) [6.6..6.19] */
	LAG_CLAMP_MAX_SLICE, /* cdf(max_slice on queue + TICK_NSEC) [6.18.17+] */
};

/* Slice protection (RUN_TO_PARITY), kernel-model.md section 4.3. */
enum protect_model {
	/*
	 * 6.6-6.16: the pick stashes the deadline in se->vlag; protected
	 * while vlag == deadline, i.e. until the deadline is renewed;
	 * PREEMPT_SHORT cancels it with vlag = deadline + 1.
	 */
	PROTECT_VLAG_STASH,
	/* 6.17+: se->vprot, the window shrinks to the queue's min slice. */
	PROTECT_VPROT,
};

/* check_preempt_wakeup_fair() generation. */
enum wakeup_rule {
	/*
	 * 6.6-6.11: the wakee preempts if it is the EEVDF pick; an idle
	 * curr gives way to a non-idle wakee before WAKEUP_PREEMPTION and
	 * the wakee's policy are looked at.
	 */
	WAKEUP_6_6,
	/*
	 * 6.12-6.16 (85e511df3cec): a shorter-slice eligible wakee that is
	 * ahead of curr (or curr is ineligible) cancels curr's protection;
	 * then the wakee preempts if it is the EEVDF pick.
	 */
	WAKEUP_6_12,
	WAKEUP_6_17, /* __pick_eevdf(!short) == pse [6.17 .. 6.18.31] */
	/*
	 * e837456fdca8 (6.19) with the rc7 revert 15257cc2f905: forks and
	 * delayed wakees do not preempt, an optional NEXT_BUDDY/WF_SYNC
	 * step, the next buddy is honoured inside the pick, and protection
	 * shrinks on every wakeup that does not preempt.
	 */
	WAKEUP_6_19,
};

/*
 * The fair deadline server (rq->fair_server), by release.  Up to 6.11
 * there is none and RT throttling (sched_rt_runtime_us) guards fair
 * tasks from RT starvation; 5f6bd380c7bd ("sched/rt: Remove default
 * bandwidth control", 6.12) made the server the guard instead.
 */
enum dl_server_rule {
	DL_SERVER_NONE,
	/*
	 * 6.12-6.16 (557a6bfc662c, a110a81c52a9, cea5a3472ac4): started when
	 * the CPU's fair tasks go 0 -> 1, stopped when they go back to 0;
	 * counted in rq->nr_running while queued; a pick that finds no fair
	 * task yields the period; its timer replenishes without queueing
	 * when no fair task is left.
	 */
	DL_SERVER_6_12,
	/*
	 * 6.17-6.18 (cccb45d7c429 "Less agressive dl_server handling",
	 * 52d15521eb75, 4ae8d9aa9f9d, a3a70caf7906): no stop on dequeue; the
	 * server stops when it is picked and finds no fair task; it no
	 * longer counts in rq->nr_running.
	 */
	DL_SERVER_6_17,
	/*
	 * 6.19 (e636ffb9e31b, f5a538c07df2, ca1e8eede4fc): as 6.17, and a
	 * server whose runtime idle time used up waits one period
	 * (dl_defer_idle) and then stops; idle time is charged through
	 * update_curr_dl_se().
	 */
	DL_SERVER_6_19,
};

/*
 * Which fair-class policy the release has: EEVDF (6.6+) or the CFS of
 * 6.1-6.5 (kernel-model.md section 9, src/sched/cfs.c).  fair.c's entry points
 * hand a CFS run queue to cfs.c; everything around them (core.c, SMP
 * placement, load balancing, PELT) is shared.
 */
enum sched_policy_kind {
	POLICY_EEVDF,
	POLICY_CFS,
};

struct eevdf_profile {
	const char *name;
	const char *alias; /* second accepted name, or NULL */
	const char *description;
	enum sched_policy_kind policy;
	/* ns, before tunable scaling; CFS: sysctl_sched_min_granularity */
	u64 normalized_base_slice;
	enum v0_mode v0;
	enum lag_clamp lag_clamp;
	enum wakeup_rule wakeup;
	enum protect_model protect;
	/*
	 * The wakeup check picks through pick_next_entity(), which reaps a
	 * delayed entity it chooses and picks again: ac8e69e69363 and
	 * 9f6d929ee2c6 (7.1), backported to 6.18.32.
	 */
	bool wakeup_pick_reaps;
	/* yield forfeits the rest of the request: 79104becf42b, 6.18.2 */
	bool yield_forfeit;
	/*
	 * Slice protection is set only at a real pick, not when a change of
	 * attributes puts and sets the running task again: bcd74b2ffdd0,
	 * 6.18.17.
	 */
	bool protect_first_only;
	/*
	 * 6.12+ (c40dd90ac045): a new task is placed once, at its first
	 * enqueue, with ENQUEUE_INITIAL (half a request to its first
	 * deadline).  Before, the fork-time placement was redone by the
	 * enqueue without it: a full request.
	 */
	bool new_task_initial;
	/* 6.12+ (857b158dc5e8): sched_attr.sched_runtime sets the slice. */
	bool custom_slices;
	/*
	 * 6.7-6.12 reweight_eevdf() (eab03c23c2a1): a queued entity's
	 * vruntime and deadline are rescaled around V in place; 6.13+
	 * (6d71a9c61604) takes it out, rescales lag and relative deadline
	 * and places it again.
	 */
	bool reweight_eevdf;
	/*
	 * 6.13+ (c70fc32f4443's series, kernel-model.md 11.2): a group
	 * whose cfs_rq empties keeps its entity's weight instead of
	 * dropping to MIN_SHARES, so a delayed group entity keeps its place.
	 */
	bool group_keep_weight;
	/* 1528c661c24b (6.7): a cfs_rq refreshes its share of tg->load_avg
	 * at most once a millisecond */
	bool tg_load_avg_ratelimit;
	enum dl_server_rule dl_server;
	/* 115135422562 "Fix 'stuck' dl_server" (6.18.9, 6.19): a lapsed
	 * server job re-arms instead of running at once */
	bool dl_server_fix_stuck;
	/* 14a857056466 (6.18.24, not in 6.19): the revised CBS wakeup rule
	 * applies to the deferred server too */
	bool dl_server_revised_wakeup;
	u64 feat_present; /* flags that exist in this release */
	u64 feat_default; /* their defaults */
};

/* The profile called name (or alias); NULL name = default; NULL if unknown. */
const struct eevdf_profile *eevdf__profile_find(const char *name);

#endif
