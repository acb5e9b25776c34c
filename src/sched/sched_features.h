/* SPDX-License-Identifier: MIT */
/*
 * The scheduler feature flags: one entry per flag, in the order and with
 * the spelling of the kernel's kernel/sched/features.h (v6.19, torvalds/linux
 * @ aceccac58ad7), with the Linux 6.18 defaults.  Profiles for other
 * releases adjust defaults and presence in profile.c; nothing else may list
 * features.  Expand with EEVDF_FEAT(name, default) and #undef after use.
 *
 * Flags modelled by this version: PLACE_LAG, PLACE_DEADLINE_INITIAL,
 * PLACE_REL_DEADLINE, RUN_TO_PARITY, PREEMPT_SHORT, NEXT_BUDDY, PICK_BUDDY,
 * DELAY_DEQUEUE, DELAY_ZERO, WAKEUP_PREEMPTION, HRTICK, the RT and DL
 * classes' HRTICK_DL, RT_PUSH_IPI and RT_RUNTIME_SHARE, and the SMP ones
 * the placement and balancing model reads (TTWU_QUEUE, SIS_UTIL, WA_*,
 * LB_MIN, ATTACH_AGE_LOAD, CACHE_HOT_BUDDY).  The others are listed so
 * that kernel feature lists are accepted verbatim.
 *
 * Named sched_features.h (the kernel's 2.6-era name) so that it never
 * shadows the C library's <features.h> on an -Isrc include path.
 */

/* Preserve lag across sleep and wake (EEVDF placement strategy #1). */
EEVDF_FEAT(PLACE_LAG, true)
/* A new task's first deadline is half a slice away. */
EEVDF_FEAT(PLACE_DEADLINE_INITIAL, true)
/* Keep the deadline relative to vruntime across a non-sleep dequeue. */
EEVDF_FEAT(PLACE_REL_DEADLINE, true)
/* Protect the running task's slice from being cut short by a pick. */
EEVDF_FEAT(RUN_TO_PARITY, true)
/* A wakee with a shorter slice may cut through RUN_TO_PARITY. */
EEVDF_FEAT(PREEMPT_SHORT, true)
/* Make the wakee the next buddy (6.19-rc default on; 6.18 off). */
EEVDF_FEAT(NEXT_BUDDY, false)
/* Honour cfs_rq->next in the pick. */
EEVDF_FEAT(PICK_BUDDY, true)
/* The next buddy counts as cache hot for load balancing. */
EEVDF_FEAT(CACHE_HOT_BUDDY, true)
/* Ineligible tasks that sleep stay queued until picked or woken. */
EEVDF_FEAT(DELAY_DEQUEUE, true)
/* Clip positive lag to zero when a delayed task leaves the queue. */
EEVDF_FEAT(DELAY_ZERO, true)
/* Allow wakeup-time preemption of the running task. */
EEVDF_FEAT(WAKEUP_PREEMPTION, true)
/* High-resolution slice-end timer instead of tick-quantised slices. */
EEVDF_FEAT(HRTICK, false)
/* The same for SCHED_DEADLINE: a timer at the end of its runtime. */
EEVDF_FEAT(HRTICK_DL, false)
/* Reduce CPU capacity by time not spent running tasks. */
EEVDF_FEAT(NONTASK_CAPACITY, true)
/* Queue remote wakeups on the target CPU's wake list (IPI). */
EEVDF_FEAT(TTWU_QUEUE, true)
/* Limit the idle-CPU scan in the LLC by utilisation. */
EEVDF_FEAT(SIS_UTIL, true)
EEVDF_FEAT(WARN_DOUBLE_CLOCK, false)
/* RT pull by asking the overloaded CPUs to push (an irq_work IPI chain). */
EEVDF_FEAT(RT_PUSH_IPI, true)
/* A throttled CPU borrows the other CPUs' unused RT runtime. */
EEVDF_FEAT(RT_RUNTIME_SHARE, false)
/* Load balancing skips tasks of tiny load unless balancing failed. */
EEVDF_FEAT(LB_MIN, false)
EEVDF_FEAT(ATTACH_AGE_LOAD, true)
/* wake_affine: idle test, load test, prev-CPU bias. */
EEVDF_FEAT(WA_IDLE, true)
EEVDF_FEAT(WA_WEIGHT, true)
EEVDF_FEAT(WA_BIAS, true)
EEVDF_FEAT(UTIL_EST, true)
EEVDF_FEAT(LATENCY_WARN, false)

/*
 * Older releases' flags, appended so that every other flag keeps its bit.
 * DOUBLE_TICK (6.6-6.12, removed by e31488c9df27 in 6.13): with HRTICK,
 * also act on the periodic tick; EEVDF's entity_tick had nothing left to
 * do after the early return it guarded, so it changes nothing here.
 */
EEVDF_FEAT(DOUBLE_TICK, false)
/*
 * SIS_PROP (6.6-6.11 lists, off since 6.0): the proportional idle-scan
 * budget SIS_UTIL replaced; listed for the older profiles, not modelled.
 */
EEVDF_FEAT(SIS_PROP, false)

/*
 * RFC knobs from the mailing-list debates, never merged: accepted on every
 * profile, off by default, and not part of any release's feature list
 * (RFC_FEATURES in feature.h).  docs/kernel-profiles.md gives their source.
 *
 * WAKEUP_DEADLINE: a wakee preempts only when its virtual deadline is
 * earlier than the running task's (P. Zijlstra's suggestion in the
 * blogbench regression thread, 2023-08-14).
 */
EEVDF_FEAT(WAKEUP_DEADLINE, false)
/*
 * PLACE_FUDGE (2023 RFC "sched/eevdf: Better handle mixed slice length"): a
 * task whose slice is shorter than the queue's weight-averaged slice is
 * forgiven up to one request of negative lag when it is placed.
 */
EEVDF_FEAT(PLACE_FUDGE, false)
/*
 * PLACE_BONUS ("[PATCH 15/17] [RFC] sched/eevdf: Sleeper bonus", Peter
 * Zijlstra, 2023-03-28): a waking task starts up to half a slice left of
 * its lag placement, never left of its vruntime at sleep.
 */
EEVDF_FEAT(PLACE_BONUS, false)

/*
 * The CFS-era flags of Linux 6.1-6.5 (kernel-model.md section 8.3),
 * appended after everything else so that no flag of the EEVDF releases
 * changes its bit.  Present only in the cfs-6.1 profile.
 *
 * GENTLE_FAIR_SLEEPERS: a waking sleeper is credited half of
 * sched_latency instead of all of it.
 */
EEVDF_FEAT(GENTLE_FAIR_SLEEPERS, true)
/* A new task starts one vslice after min_vruntime (removed in 6.6). */
EEVDF_FEAT(START_DEBIT, true)
/* On wakeup preemption, remember the preempted task to return to. */
EEVDF_FEAT(LAST_BUDDY, true)
/* sched_slice() sizes the period by the CPU's whole runnable count. */
EEVDF_FEAT(ALT_PERIOD, true)
/* sched_slice() never goes below the minimum granularity. */
EEVDF_FEAT(BASE_SLICE, true)
/* util_est follows increases at once (PELT detail; listed, not modelled). */
EEVDF_FEAT(UTIL_EST_FASTUP, true)
/*
 * The 2025 "Try and address some recent-ish regressions" series (Peter
 * Zijlstra, RFC May 2025, v2 July 2025; kernel-model.md 6.6), not merged:
 * TTWU_QUEUE_DELAYED sends a delayed-dequeue wakee to its CPU's wake list,
 * where the dequeue completes and a normal wakeup (with CPU selection)
 * follows; TTWU_QUEUE_DEFAULT uses the wake list for cache-sharing targets
 * too; TTWU_DEQUEUE completes a delayed task's dequeue at wakeup and takes
 * the normal path.
 */
EEVDF_FEAT(TTWU_QUEUE_DELAYED, false)
EEVDF_FEAT(TTWU_QUEUE_DEFAULT, false)
EEVDF_FEAT(TTWU_DEQUEUE, false)
/*
 * DEQUEUE_DELAYED (M. Galbraith, "[PATCH V2] sched/fair: Dequeue
 * sched_delayed tasks when waking to a busy CPU", 2024-11-23, not
 * merged): complete a delayed task's dequeue at wakeup when its CPU has
 * other work, it may run elsewhere, and waker and wakee are not a pair.
 */
EEVDF_FEAT(DEQUEUE_DELAYED, false)
