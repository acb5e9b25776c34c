/* SPDX-License-Identifier: MIT */
/* Fuzz target: the machine file parser (eevdf_machine_parse()). */
#include <string.h>

#include "eevdf/eevdf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eevdf_diag d;
	eevdf_machine *m = NULL, *c;
	char hex[65];

	if (eevdf_machine_parse((const char *)data, size, "fuzz.json", &m,
				&d) == 0) {
		eevdf_machine_digest(m, hex);
		c = eevdf_machine_clone(m);
		eevdf_machine_free(c);
		eevdf_machine_free(m);
	}
	return 0;
}
