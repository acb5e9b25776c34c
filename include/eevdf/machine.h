/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine: CPUs grouped into SMT cores, last-level caches
 * (LLCs) and packages, the tick rate, per-CPU capacity and the cost model
 * (docs/machine-format.md).
 *
 * A machine is built once and then only read: any number of simulations
 * may be created from one machine (eevdf_config.machine), and the machine
 * may be freed as soon as eevdf_sim_new() returned.  The scheduling
 * domains (SMT, MC, PKG, NUMA) are derived from it when a simulation is
 * created, with the kernel's default parameters.
 */
#ifndef EEVDF_MACHINE_H
#define EEVDF_MACHINE_H

#include <stddef.h>

#include "eevdf/types.h"
#include "eevdf/workload.h"

/* One CPU of an explicit CPU list. */
struct eevdf_cpu_desc {
	int core;	   /* SMT siblings share a core id */
	int llc;	   /* CPUs sharing a last-level cache */
	int package;	   /* socket */
	unsigned capacity; /* 1..1024; 0 means 1024 (SCHED_CAPACITY_SCALE) */
};

/* How a regular machine numbers its SMT siblings. */
enum eevdf_smt_numbering {
	/*
	 * x86 style: the first thread of every core first (CPU 0..cores-1),
	 * then the second threads, so siblings are cpu and cpu + nr_cores.
	 */
	EEVDF_SMT_SPLIT = 0,
	/* Siblings are adjacent: core c has CPUs c*threads .. +threads-1. */
	EEVDF_SMT_ADJACENT = 1,
};

struct eevdf_machine_spec {
	const char *name;	 /* copied; NULL = "" */
	const char *description; /* copied; NULL = "" */
	/*
	 * A regular machine: packages x llcs_per_package x cores_per_llc x
	 * threads_per_core CPUs, all of capacity 1024.  Ignored when cpus is
	 * not NULL.
	 */
	int packages;
	int llcs_per_package;
	int cores_per_llc;
	int threads_per_core;
	enum eevdf_smt_numbering numbering;
	/*
	 * An explicit machine: CPU i is cpus[i].  Ids are any non-negative
	 * integers; a core must lie inside one LLC and an LLC inside one
	 * package.
	 */
	const struct eevdf_cpu_desc *cpus;
	size_t nr_cpus;
	int hz; /* tick rate, EEVDF_HZ_MIN..EEVDF_HZ_MAX; 0 = 1000 */
};

/*
 * Build a machine.  Returns 0 and *out, EEVDF_EINVAL with a message in err
 * (a bad spec: counts out of range, more than EEVDF_MAX_CPUS CPUs, a core
 * split across LLCs, ...), or EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_machine_new(const struct eevdf_machine_spec *spec,
				eevdf_machine **out, char *err, size_t errlen);

/* The built-in machine of --cpus N: N cores, one LLC, one package, no SMT,
 * HZ 1000, no cost overrides. */
EEVDF_API int eevdf_machine_new_flat(int nr_cpus, eevdf_machine **out,
				     char *err, size_t errlen);

/* NULL is a no-op. */
EEVDF_API void eevdf_machine_free(eevdf_machine *m);

/* A copy, or NULL when out of memory. */
EEVDF_API eevdf_machine *eevdf_machine_clone(const eevdf_machine *m);

/*
 * Override one entry of the cost model (the names of the workload's
 * "costs" object, docs/machine-format.md), in ns, or in percent for the
 * entries whose name ends in "_pct".  Returns 0, or EEVDF_EINVAL for an
 * unknown name or a value out of range (a _pct entry must be 1..100).
 */
EEVDF_API int eevdf_machine_set_cost(eevdf_machine *m, const char *name,
				     uint64_t value);

/*
 * The documented default of cost entry name (ns, or percent for a _pct
 * entry): what a run charges when neither its machine nor its workload
 * sets it.  0, or EEVDF_EINVAL for an unknown name or a NULL argument.
 */
EEVDF_API int eevdf_cost_default(const char *name, uint64_t *value);

/* The name of cost entry i, in the order docs/machine-format.md lists the
 * table; NULL past the end. */
EEVDF_API const char *eevdf_cost_name(size_t i);

/* Set the tick rate; EEVDF_EINVAL when outside EEVDF_HZ_MIN..MAX. */
EEVDF_API int eevdf_machine_set_hz(eevdf_machine *m, int hz);

/*
 * SHA-256 of what m is (name, HZ, every CPU's place and capacity, its cost
 * overrides; not its description) as 64 hex digits in hex: the "digest"
 * results carry.  0, or EEVDF_EINVAL.
 */
EEVDF_API int eevdf_machine_digest(const eevdf_machine *m, char hex[65]);

EEVDF_API const char *eevdf_machine_name(const eevdf_machine *m);
EEVDF_API const char *eevdf_machine_description(const eevdf_machine *m);
/*
 * The "calibration" object of the machine file m was read from (written
 * by eevdf-sim calibrate: where each cost was measured, its median,
 * spread, sample count and method; docs/machine-format.md), as compact
 * JSON text owned by m; NULL when it has none, and for NULL.  It is not
 * part of the digest: it says where the costs came from, not what the
 * machine is.
 */
EEVDF_API const char *eevdf_machine_calibration(const eevdf_machine *m);
EEVDF_API int eevdf_machine_nr_cpus(const eevdf_machine *m);
EEVDF_API int eevdf_machine_hz(const eevdf_machine *m);
/* Distinct cores, LLCs and packages. */
EEVDF_API int eevdf_machine_nr_cores(const eevdf_machine *m);
EEVDF_API int eevdf_machine_nr_llcs(const eevdf_machine *m);
EEVDF_API int eevdf_machine_nr_packages(const eevdf_machine *m);
/* CPU i's ids and capacity; EEVDF_EINVAL for a CPU out of range. */
EEVDF_API int eevdf_machine_cpu(const eevdf_machine *m, int cpu,
				struct eevdf_cpu_desc *out);

/*
 * Machine files ("format": "eevdf-sim-machine/1").  Errors are reported as
 * for workloads: the file, the JSON path and the reason.  Returns 0 and
 * *out, EEVDF_EPARSE (diag filled), EEVDF_EIO (unreadable file) or
 * EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_machine_parse(const char *buf, size_t len,
				  const char *filename, eevdf_machine **out,
				  struct eevdf_diag *diag);
EEVDF_API int eevdf_machine_load_file(const char *path, eevdf_machine **out,
				      struct eevdf_diag *diag);

/*
 * The same for validators: with opts->errors set (eevdf_load_opts, whose
 * other fields are ignored here), an error in one part of the machine (a
 * key of "topology", a CPU of "cpus", a cost, the name or hz) does not
 * stop the reader; every such error is reported as eevdf_load_opts
 * describes, and the load still fails.  opts may be NULL.
 */
EEVDF_API int eevdf_machine_parse_opts(const char *buf, size_t len,
				       const char *filename,
				       const struct eevdf_load_opts *opts,
				       eevdf_machine **out,
				       struct eevdf_diag *diag);
EEVDF_API int eevdf_machine_load_file_opts(const char *path,
					   const struct eevdf_load_opts *opts,
					   eevdf_machine **out,
					   struct eevdf_diag *diag);

#endif
