/* SPDX-License-Identifier: MIT */
/*
 * What the host says about itself in /sys and /proc: the CPU topology,
 * the scheduler's base slice, steal and busy time.  The parsers take the
 * text (unit-tested with recorded files); the readers take a root
 * directory ("/" on the host, a fixture tree in the tests).
 */
#ifndef CAL_HOSTINFO_H
#define CAL_HOSTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One online CPU: labels as machine files take them (any ints). */
struct cal_cpu {
	int cpu;     /* the kernel's number */
	int core;    /* the lowest CPU of its thread_siblings_list */
	int llc;     /* the lowest CPU sharing its last-level cache */
	int package; /* physical_package_id */
};

struct cal_topo {
	int nr;
	struct cal_cpu *cpu; /* nr entries, by CPU number */
	int llc_level;	     /* the cache level taken as the LLC (3, or 2) */
	char why[160];	     /* what was assumed, "" when nothing */
};

/*
 * A kernel CPU list ("0-3,8,10-11") into cpus (at most max, increasing).
 * The count, or -1 for a malformed list.
 */
int cal_parse_cpulist(const char *s, int *cpus, int max);

/* The lowest CPU of a list, or -1. */
int cal_cpulist_first(const char *s);

/*
 * A "name : value" line of /proc/PID/sched (se.slice, nr_switches...):
 * the integer value of field into *out.  False when absent or not an
 * integer.
 */
bool cal_parse_sched_field(const char *text, const char *field, int64_t *out);

/*
 * A time field of /proc/PID/sched, printed in ms with six decimals
 * ("se.sum_exec_runtime : 12.345678"), into *ns.  False when absent or
 * malformed.
 */
bool cal_parse_sched_ns(const char *text, const char *field, int64_t *ns);

/* CONFIG_HZ of a kernel config text ("CONFIG_HZ=250"); 0 when absent. */
int cal_parse_config_hz(const char *text);

/* One line of /proc/stat: a CPU's times in USER_HZ ticks. */
struct cal_cpu_times {
	uint64_t busy;	/* user + nice + system + irq + softirq */
	uint64_t idle;	/* idle + iowait */
	uint64_t steal; /* time the hypervisor gave another guest */
};

/* The times of "cpuN" in a /proc/stat text; false when absent. */
bool cal_parse_stat_cpu(const char *text, int cpu, struct cal_cpu_times *out);

/*
 * The online CPUs of the tree at root ("/" for the host): their core,
 * LLC and package.  0, or -1 with why naming the file that failed.
 * Free with cal_topo_free().
 */
int cal_topo_read(const char *root, struct cal_topo *t);
void cal_topo_free(struct cal_topo *t);

/* The entry of CPU cpu, or NULL. */
const struct cal_cpu *cal_topo_find(const struct cal_topo *t, int cpu);

/*
 * The machine's numbers for the report: distinct cores, LLCs, packages,
 * and the most SMT threads of one core.
 */
void cal_topo_counts(const struct cal_topo *t, int *cores, int *llcs,
		     int *packages, int *threads);

/*
 * The numeric part of a kernel release ("6.18.44" of "6.18.44-fc-v1045")
 * into buf, for eevdf_profile_for_release().
 */
void cal_release_number(const char *release, char *buf, size_t len);

/* The first "model name" of /proc/cpuinfo, and whether a hypervisor is
 * announced there; buf "" when unknown. */
void cal_cpu_model(const char *root, char *buf, size_t len, bool *virt);

#endif
