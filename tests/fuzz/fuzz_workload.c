/* SPDX-License-Identifier: MIT */
/* Fuzz target: the native workload parser (eevdf_workload_parse_opts()). */
#include <string.h>

#include "eevdf/eevdf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eevdf_load_opts o;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	char buf[1024];

	memset(&o, 0, sizeof(o));
	o.input = EEVDF_INPUT_NATIVE;
	o.max_ops = FUZZ_MAX_OPS;
	if (eevdf_workload_parse_opts((const char *)data, size, "fuzz.json", &o,
				      &wl, &d) == 0) {
		/* what a front end reads of a loaded workload */
		for (size_t i = 0; i < eevdf_workload_nr_tasks(wl); i++)
			eevdf_workload_task(wl, i);
		for (size_t i = 0; i < eevdf_workload_nr_params(wl); i++)
			eevdf_workload_param_value(wl, i, buf, sizeof(buf));
		eevdf_workload_free(wl);
	} else {
		eevdf_diag_format(&d, buf, sizeof(buf));
	}
	return 0;
}
