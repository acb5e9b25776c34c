/* SPDX-License-Identifier: MIT */
/* Fuzz target: the rt-app import (the loader with --input rt-app). */
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
	o.input = EEVDF_INPUT_RTAPP;
	o.max_ops = FUZZ_MAX_OPS;
	if (eevdf_workload_parse_opts((const char *)data, size, "fuzz.json", &o,
				      &wl, &d) == 0) {
		/* the translation must load as it is: it is native text */
		const char *text = eevdf_workload_translation(wl);
		eevdf_workload *again = NULL;

		o.input = EEVDF_INPUT_NATIVE;
		if (text && eevdf_workload_parse_opts(text, strlen(text), "t",
						      &o, &again, &d) != 0)
			__builtin_trap(); /* a translation the loader refuses */
		eevdf_workload_free(again);
		for (size_t i = 0; i < eevdf_workload_nr_notes(wl); i++)
			eevdf_diag_format(eevdf_workload_note(wl, i), buf,
					  sizeof(buf));
		eevdf_workload_free(wl);
	}
	return 0;
}
