/* SPDX-License-Identifier: MIT */
/*
 * The machine file calibrate writes ("eevdf-sim-machine/1",
 * docs/machine-format.md): the host's topology, its HZ, the measured
 * costs, and the "calibration" object that says where each came from.
 */
#ifndef CAL_MACHINE_OUT_H
#define CAL_MACHINE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eevdf/eevdf.h"

struct cal_topo;
struct cal_set;
struct cal_fit;

struct cal_machine_info {
	const char *name;
	const char *tool;   /* "eevdf-sim 0.1.0" */
	const char *date;   /* "2025-12-02", or NULL */
	const char *kernel; /* uname -r */
	const char *host;   /* "model, N CPUs, virtualized" */
	bool quick;
	int hz;
	size_t hz_samples;
	const char *hz_method;
	int64_t slice_ns; /* 0: unknown */
	const char *slice_method;
};

/*
 * The machine file's text (malloc()ed, indented JSON and a final
 * newline), or NULL with err.  The text is read back with
 * eevdf_machine_parse() before it is returned, so a file calibrate
 * writes always loads.
 */
char *cal_machine_json(const struct cal_topo *t, const struct cal_fit *fit,
		       const struct cal_set *set,
		       const struct cal_machine_info *info, char *err,
		       size_t len);

/*
 * The machine of topology t as eevdf_machine_spec builds it: regular
 * ("topology") when it is one, else an explicit CPU list.  *regular
 * says which; the spec's cpus (when not regular) are malloc()ed in
 * *cpus.  0, or -1 when out of memory.
 */
int cal_topo_spec(const struct cal_topo *t, struct eevdf_machine_spec *spec,
		  struct eevdf_cpu_desc **cpus, bool *regular);

#endif
