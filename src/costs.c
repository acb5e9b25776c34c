/* SPDX-License-Identifier: MIT */
/* The cost table: defaults and lookup by name, from EEVDF_COST_MAP. */
#include <string.h>

#include "costs.h"

void eevdf__costs_default(struct cost_table *c)
{
#define COST(name, dflt) c->name = (dflt);
	EEVDF_COST_MAP(COST)
#undef COST
}

bool eevdf__costs_set(struct cost_table *c, const char *name, u64 ns)
{
#define COST(n, dflt)                                                         \
	if (strcmp(name, #n) == 0) {                                          \
		c->n = ns;                                                    \
		return true;                                                  \
	}
	EEVDF_COST_MAP(COST)
#undef COST
	return false;
}
