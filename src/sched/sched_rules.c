/* SPDX-License-Identifier: MIT */
/*
 * The names and sentences of the decision rules (enum eevdf_rule in
 * eevdf/state.h), each as the kernel's code says it: the function and
 * feature that decide.
 */
#include "sched_state.h"

struct rule_info {
	int rule;
	const char *name;
	const char *text;
};

static const struct rule_info rules[] = {
	{ EEVDF_RULE_PICK_ONLY, "pick_only", "the only entity on the queue" },
	{ EEVDF_RULE_PICK_BUDDY, "pick_buddy",
	  "the next buddy, eligible (NEXT_BUDDY / PICK_BUDDY)" },
	{ EEVDF_RULE_PICK_PROTECTED, "pick_protected",
	  "curr is eligible and inside its protected slice (RUN_TO_PARITY)" },
	{ EEVDF_RULE_PICK_EARLIEST, "pick_earliest",
	  "the eligible entity with the earliest virtual deadline" },
	{ EEVDF_RULE_PICK_CURR, "pick_curr",
	  "curr: eligible, and no eligible queued entity has an earlier "
	  "deadline" },
	{ EEVDF_RULE_PICK_DELAYED, "pick_delayed",
	  "a delayed entity came up: its dequeue completes and the pick "
	  "runs again" },
	{ EEVDF_RULE_PICK_CLASS, "pick_class",
	  "a task of a higher class (RT or deadline)" },
	{ EEVDF_RULE_PICK_IDLE, "pick_idle", "nothing to run: the CPU idles" },
	{ EEVDF_RULE_CFS_LEFTMOST, "cfs_leftmost",
	  "CFS: the smallest vruntime" },
	{ EEVDF_RULE_CFS_SKIP, "cfs_skip",
	  "CFS: the leftmost yielded, the second is within wakeup_gran" },
	{ EEVDF_RULE_CFS_NEXT, "cfs_next",
	  "CFS: the next buddy, within wakeup_gran of the leftmost" },
	{ EEVDF_RULE_CFS_LAST, "cfs_last",
	  "CFS: the last buddy, within wakeup_gran of the leftmost" },
	{ EEVDF_RULE_WAKEUP_PREEMPT, "wakeup_preempt",
	  "wakeup preemption: the wakee is the EEVDF pick" },
	{ EEVDF_RULE_WAKEUP_SHORT, "wakeup_short",
	  "wakeup preemption by PREEMPT_SHORT: the wakee's slice is shorter, "
	  "curr's protection is cancelled and the wakee is the pick" },
	{ EEVDF_RULE_WAKEUP_IDLE_POLICY, "wakeup_idle_policy",
	  "wakeup preemption: curr is SCHED_IDLE, the wakee is not" },
	{ EEVDF_RULE_WAKEUP_SYNC, "wakeup_sync",
	  "wakeup preemption: a sync wakeup of the next buddy with an "
	  "earlier deadline, the waker past its migration cost" },
	{ EEVDF_RULE_WAKEUP_CLASS, "wakeup_class",
	  "wakeup preemption: the wakee is of a higher class" },
	{ EEVDF_RULE_WAKEUP_IDLE_CPU, "wakeup_idle_cpu",
	  "the CPU was idle: the wakee runs" },
	{ EEVDF_RULE_WAKEUP_CFS, "wakeup_cfs",
	  "CFS wakeup preemption: curr is more than wakeup_gran right of "
	  "the wakee" },
	{ EEVDF_RULE_NO_PREEMPT_PROTECTED, "no_preempt_protected",
	  "no wakeup preemption: curr is inside its protected slice "
	  "(RUN_TO_PARITY)" },
	{ EEVDF_RULE_NO_PREEMPT_NOT_PICK, "no_preempt_not_pick",
	  "no wakeup preemption: the EEVDF pick is not the wakee" },
	{ EEVDF_RULE_NO_PREEMPT_POLICY, "no_preempt_policy",
	  "no wakeup preemption: the wakee is SCHED_BATCH or SCHED_IDLE" },
	{ EEVDF_RULE_NO_PREEMPT_IDLE, "no_preempt_idle",
	  "no wakeup preemption: the wakee is SCHED_IDLE, curr is not" },
	{ EEVDF_RULE_NO_PREEMPT_FORK, "no_preempt_fork",
	  "no wakeup preemption: a new task does not preempt (6.18.32+)" },
	{ EEVDF_RULE_NO_PREEMPT_DELAYED, "no_preempt_delayed",
	  "no wakeup preemption: the wakee was a delayed entity" },
	{ EEVDF_RULE_NO_PREEMPT_SYNC, "no_preempt_sync",
	  "no wakeup preemption: a sync wakeup that does not qualify (the "
	  "wakee is the next buddy)" },
	{ EEVDF_RULE_NO_PREEMPT_PENDING, "no_preempt_pending",
	  "no wakeup check: a reschedule is due anyway" },
	{ EEVDF_RULE_NO_PREEMPT_OFF, "no_preempt_off",
	  "no wakeup preemption: NO_WAKEUP_PREEMPTION" },
	{ EEVDF_RULE_NO_PREEMPT_DEADLINE, "no_preempt_deadline",
	  "no wakeup preemption: WAKEUP_DEADLINE, the wakee's deadline is "
	  "not earlier than curr's" },
	{ EEVDF_RULE_NO_PREEMPT_CLASS, "no_preempt_class",
	  "no wakeup preemption: curr is of a higher class" },
	{ EEVDF_RULE_NO_PREEMPT_CFS, "no_preempt_cfs",
	  "no CFS wakeup preemption: curr is within wakeup_gran" },
	{ EEVDF_RULE_NO_PREEMPT_THROTTLED, "no_preempt_throttled",
	  "no wakeup preemption: the wakee's group is throttled (cpu.max)" },
	{ EEVDF_RULE_SLICE_EXPIRED, "slice_expired",
	  "curr's request is served (vruntime reached its deadline): a new "
	  "deadline, and a reschedule" },
	{ EEVDF_RULE_PROTECT_ENDED, "protect_ended",
	  "curr's protected slice is over: a reschedule" },
	{ EEVDF_RULE_SHORT_INELIGIBLE, "short_ineligible",
	  "PREEMPT_SHORT cancelled curr's protection and curr is no longer "
	  "eligible: a reschedule" },
	{ EEVDF_RULE_HRTICK, "hrtick",
	  "the hrtick ended curr's slice: a reschedule" },
	{ EEVDF_RULE_CFS_SLICE_USED, "cfs_slice_used",
	  "CFS: curr used its sched_slice: a reschedule" },
	{ EEVDF_RULE_CFS_AHEAD, "cfs_ahead",
	  "CFS: curr is more than a slice right of the leftmost: a "
	  "reschedule" },
	{ EEVDF_RULE_DELAY_DEQUEUE, "delay_dequeue",
	  "going to sleep while ineligible: kept queued as a delayed entity "
	  "(DELAY_DEQUEUE)" },
	{ EEVDF_RULE_DELAYED_WAKE, "delayed_wake",
	  "a delayed entity is woken where it is queued" },
	{ EEVDF_RULE_YIELD, "yield",
	  "sched_yield(): a later deadline (6.18.2+: vruntime forfeits the "
	  "rest of the request)" },
};

static const struct rule_info *find(enum eevdf_rule rule)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (rules[i].rule == (int)rule)
			return &rules[i];
	return NULL;
}

const char *eevdf_rule_name(enum eevdf_rule rule)
{
	const struct rule_info *r = find(rule);

	return r ? r->name : NULL;
}

const char *eevdf_rule_text(enum eevdf_rule rule)
{
	const struct rule_info *r = find(rule);

	return r ? r->text : NULL;
}
