/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the sweep spec parser (eevdf_sweep_parse(), main's
 * eevdf-sim-sweep/1), then the first points of its expansion and their
 * canonical configurations.  Relative workload paths start from the
 * directory the fuzzer runs in (the repository: tests/fuzz/run.sh), so
 * the shipped workloads it names are read and hashed as a sweep does.
 */
#include <stdlib.h>

#include "eevdf/eevdf.h"
#include "fuzz.h"

/* a spec may expand to 10^6 points: the first few test the expansion */
#define POINTS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eevdf_diag d;
	eevdf_sweep *sw = NULL;
	size_t n;

	if (eevdf_sweep_parse((const char *)data, size, "fuzz.json", NULL, &sw,
			      &d) != 0)
		return 0;
	n = eevdf_sweep_nr_points(sw);
	for (size_t k = 0; k < n && k < POINTS; k++) {
		struct eevdf_sweep_point pt;
		char *cfg = NULL;

		if (eevdf_sweep_point(sw, k, &pt) != 0)
			abort(); /* k is in range: it must succeed */
		if (eevdf_sweep_point_config(sw, k, &cfg) == 0)
			free(cfg);
	}
	for (size_t a = 0; a < eevdf_sweep_nr_axes(sw); a++)
		(void)eevdf_sweep_axis_label(sw, a, 0);
	eevdf_sweep_free(sw);
	return 0;
}
