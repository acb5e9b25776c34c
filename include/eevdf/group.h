/* SPDX-License-Identifier: MIT */
/*
 * Task groups: the cgroup v2 cpu controller (cpu.weight, cpu.weight.nice,
 * cpu.idle, cpu.max) and autogroup.
 *
 * A simulation starts with the root group "/".  eevdf_sim_set_group()
 * makes a group (and any missing parent, as mkdir -p) and writes its
 * files; a task joins one with eevdf_task_spec.cgroup or, later, with
 * eevdf_sim_set_cgroup().  With autogroup on (eevdf_config.autogroup,
 * the default) the tasks of the root cgroup are grouped by session
 * instead: one hidden group "/autogroup-N" per session, below the root,
 * weighted by its nice.  Every group is scheduled as the kernel does it:
 * a group entity per CPU competes on the parent's run queue with a weight
 * that is the group's share of cpu.weight on that CPU, and its own run
 * queue runs EEVDF (or CFS) among its tasks and child groups.
 */
#ifndef EEVDF_GROUP_H
#define EEVDF_GROUP_H

#include <stdbool.h>

#include "eevdf/types.h"

/* Limits of a group's path: its length (NUL included) and depth. */
#define EEVDF_GROUP_PATH_MAX 256
#define EEVDF_GROUP_DEPTH_MAX 32

/* cpu.max's "max" (no quota) in eevdf_group_spec.max_quota. */
#define EEVDF_GROUP_NO_QUOTA ((eevdf_time)-1)

/*
 * What to write to a group's files.  eevdf_group_spec_init() leaves every
 * file as it is (for a new group: the kernel's defaults, cpu.weight 100,
 * cpu.idle 0, cpu.max "max 100000").
 */
struct eevdf_group_spec {
	const char *path; /* "/system.slice/web": absolute, no "." or ".." */
	unsigned int weight; /* cpu.weight 1..10000; 0: unchanged */
	bool set_weight_nice;
	int weight_nice; /* cpu.weight.nice -20..19, when set_weight_nice */
	int idle;	 /* cpu.idle 0 or 1; -1: unchanged */
	/* cpu.max: the quota per period in ns (at least 1 ms), or
	 * EEVDF_GROUP_NO_QUOTA for "max"; 0: unchanged */
	eevdf_time max_quota;
	eevdf_time max_period; /* 1 ms..1 s; 0: unchanged */
};

EEVDF_API void eevdf_group_spec_init(struct eevdf_group_spec *spec,
				     const char *path);

/*
 * Make the group (with any missing parent) and write its files now, as
 * the kernel checks the writes: EEVDF_EINVAL for a bad path or value, a
 * weight of an idle group (the kernel's EINVAL), the root's files.  0 on
 * success; the reason is in eevdf_sim_errmsg().
 */
EEVDF_API int eevdf_sim_set_group(eevdf_sim *sim,
				  const struct eevdf_group_spec *spec);

/*
 * Move a started or not yet started task to the cgroup at path (which
 * must exist; "/" is the root) now, as writing its pid to cgroup.procs
 * would: a queued task keeps its lag.  0, or EEVDF_EINVAL.
 */
EEVDF_API int eevdf_sim_set_cgroup(eevdf_sim *sim, int pid, const char *path);

/* A session's autogroup nice (/proc/PID/autogroup): -20..19. */
EEVDF_API int eevdf_sim_set_autogroup_nice(eevdf_sim *sim, unsigned int session,
					   int nice);

/* What a group is and did. */
struct eevdf_group_stats {
	const char *path;   /* owned by the simulation */
	const char *parent; /* NULL for the root */
	bool autogroup;
	unsigned int session; /* an autogroup's session */
	int nice;	      /* an autogroup's nice */
	unsigned int weight;  /* cpu.weight as it reads back */
	bool idle;
	eevdf_time max_quota; /* EEVDF_GROUP_NO_QUOTA: "max" */
	eevdf_time max_period;
	uint64_t nr_tasks; /* tasks that were ever in the group itself */
	/*
	 * CPU time run by the group's entities (its tasks and its child
	 * groups' of the fair class); for the root, every CPU's busy time.
	 */
	eevdf_time cpu_ns;
	/* cpu.stat: bandwidth periods, those that throttled, and the time
	 * its cfs_rqs spent throttled (summed over CPUs) */
	uint64_t nr_periods;
	uint64_t nr_throttled;
	eevdf_time throttled_ns;
	/* perf sched latency of the tasks in the group itself (by the group
	 * each task was last scheduled in before its exit) */
	uint64_t delay_count;
	eevdf_time delay_sum_ns;
	eevdf_time delay_max_ns;
};

/* Groups so far (the root, then in order of creation). */
EEVDF_API size_t eevdf_sim_nr_groups(const eevdf_sim *sim);
/* Group i; 0, or EEVDF_EINVAL. */
EEVDF_API int eevdf_sim_group_stats(const eevdf_sim *sim, size_t i,
				    struct eevdf_group_stats *out);

#endif
