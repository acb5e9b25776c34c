/* SPDX-License-Identifier: MIT */
/* The cost table: defaults and lookup by name, from EEVDF_COST_MAP. */
#include <string.h>

#include "costs.h"

/* Where each entry lives, by position in EEVDF_COST_MAP. */
static const size_t cost_off[] = {
#define COST(n, dflt) offsetof(struct cost_table, n),
	EEVDF_COST_MAP(COST)
#undef COST
};

static const char *const cost_name[] = {
#define COST(n, dflt) #n,
	EEVDF_COST_MAP(COST)
#undef COST
};

/* Sets of overridden entries are u64 bitmasks. */
_Static_assert(ARRAY_SIZE(cost_off) == COST_NR_ENTRIES && COST_NR_ENTRIES <= 64,
	       "a set of cost entries must fit in 64 bits");

void eevdf__costs_default(struct cost_table *c)
{
#define COST(name, dflt) c->name = (dflt);
	EEVDF_COST_MAP(COST)
#undef COST
}

int eevdf__costs_index(const char *name)
{
	for (int i = 0; i < COST_NR_ENTRIES; i++)
		if (strcmp(name, cost_name[i]) == 0)
			return i;
	return -1;
}

const char *eevdf__costs_name(int i)
{
	return i >= 0 && i < COST_NR_ENTRIES ? cost_name[i] : NULL;
}

u64 *eevdf__costs_at(struct cost_table *c, int i)
{
	EEVDF_ASSERT(i >= 0 && i < COST_NR_ENTRIES);
	return (u64 *)(void *)((char *)c + cost_off[i]);
}

static u64 entry(const struct cost_table *c, int i)
{
	return *(const u64 *)(const void *)((const char *)c + cost_off[i]);
}

bool eevdf__costs_set(struct cost_table *c, const char *name, u64 ns)
{
	int i = eevdf__costs_index(name);

	if (i < 0)
		return false;
	*eevdf__costs_at(c, i) = ns;
	return true;
}

bool eevdf__costs_is_pct(int i)
{
	const char *n = eevdf__costs_name(i);
	size_t len = n ? strlen(n) : 0;

	return len > 4 && strcmp(n + len - 4, "_pct") == 0;
}

void eevdf__costs_apply(struct cost_table *dst, const struct cost_table *src,
			u64 set)
{
	for (int i = 0; i < COST_NR_ENTRIES; i++)
		if (set & ((u64)1 << i))
			*eevdf__costs_at(dst, i) = entry(src, i);
}

/* ", syscall, pipe_write, ...": the list starts after the first ", ". */
#define COST_LIST(n, dflt) ", " #n
static const char cost_list[] = EEVDF_COST_MAP(COST_LIST);
#undef COST_LIST

const char *eevdf__costs_list(void)
{
	return cost_list + 2;
}
