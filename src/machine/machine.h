/* SPDX-License-Identifier: MIT */
/*
 * src/machine/: the simulated hardware: CPUs, SMT siblings, LLCs and
 * packages with their capacities and HZ (machine.c), and the cost model
 * of every operation (costs.c).  It includes lib/ only.
 *
 * The machine description behind the public eevdf_machine (machine.c
 * builds and checks it, machine_json.c reads it from a file, topology.c
 * turns it into scheduling domains for a simulation).
 */
#ifndef EEVDF_MACHINE_INTERNAL_H
#define EEVDF_MACHINE_INTERNAL_H

#include "eevdf/machine.h"
#include "costs.h"
#include "lib/internal.h"

struct machine_cpu {
	int core;     /* dense ids 0..nr_cores-1, in order of first CPU */
	int llc;      /* dense 0..nr_llcs-1 */
	int package;  /* dense 0..nr_packages-1 */
	u32 capacity; /* 1..1024 */
};

/* Bit n of cost_set: entry n of EEVDF_COST_MAP was overridden. */
enum cost_index {
#define COST(name, dflt) COST_IDX_##name,
	EEVDF_COST_MAP(COST)
#undef COST
	NR_COSTS
};

/* CONFIG_HZ of a machine that names none. */
#define MACHINE_DEFAULT_HZ 1000

struct eevdf_machine {
	char *name;
	char *description;
	/* a machine file's "calibration" as compact JSON text, or NULL: kept,
	 * never simulated (src/workload/machine_calib.c) */
	char *calibration;
	int nr_cpus;
	int hz;
	int nr_cores, nr_llcs, nr_packages;
	struct machine_cpu *cpu;
	u64 cost_set;		 /* overridden entries of costs */
	struct cost_table costs; /* the overrides' values */
};

/* Apply m's cost overrides on top of *c. */
void eevdf__machine_apply_costs(const struct eevdf_machine *m,
				struct cost_table *c);

/*
 * eevdf_machine_new(), but the message does not name the CPU at fault:
 * *bad_cpu is its index in spec->cpus (-1 when the error is not about one
 * CPU), so that the JSON reader can give the path "cpus[i]" instead.
 */
int eevdf__machine_build(const struct eevdf_machine_spec *spec,
			 eevdf_machine **out, char *err, size_t errlen,
			 int *bad_cpu);

/*
 * Whether value is allowed for cost entry i (eevdf__costs_index()): 1..100
 * for a percentage, at most COST_MAX_NS for a time.  0, EEVDF_ERANGE, or
 * EEVDF_EINVAL for no such entry.
 */
int eevdf__machine_check_cost(int i, uint64_t value);

#endif
