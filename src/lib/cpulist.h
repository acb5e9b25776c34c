/* SPDX-License-Identifier: MIT */
/*
 * CPU lists in the kernel's text form, as taskset -c, cpuset.cpus and
 * schbench's -M and -W take them: comma-separated CPU numbers and
 * inclusive ranges, "0-3,8,10-11".  A list names a set: the order of its
 * entries does not matter, and the set is read back in increasing order.
 */
#ifndef EEVDF_CPULIST_H
#define EEVDF_CPULIST_H

#include "internal.h"

/* A set of CPUs 0 .. EEVDF_MAX_CPUS - 1, one bit each. */
struct eevdf_cpuset {
	u64 bits[EEVDF_MAX_CPUS / 64];
};

/*
 * Parse s into *out.  Entries are N or N-M (N <= M) with N, M decimal
 * numbers below EEVDF_MAX_CPUS, separated by single commas; nothing else
 * (no spaces, signs, empty entries or the kernel's ":stride/group"
 * suffix).  A CPU named twice, alone or inside two ranges, is an error
 * too: in a workload it is more likely a typo than meant.  Returns 0, or
 * EEVDF_EINVAL with the reason in err (without s, which the caller
 * quotes with its own context).
 */
int eevdf__cpulist_parse(const char *s, struct eevdf_cpuset *out, char *err,
			 size_t errlen);

static inline bool eevdf__cpuset_has(const struct eevdf_cpuset *set, int cpu)
{
	return (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void eevdf__cpuset_add(struct eevdf_cpuset *set, int cpu)
{
	set->bits[cpu / 64] |= (u64)1 << (cpu % 64);
}

/* How many CPUs the set holds. */
size_t eevdf__cpuset_count(const struct eevdf_cpuset *set);

/* The n-th CPU of the set in increasing order (n from 0), or -1. */
int eevdf__cpuset_nth(const struct eevdf_cpuset *set, size_t n);

#endif
