/* SPDX-License-Identifier: MIT */
/*
 * Kernel-style CPU lists ("0-3,8,10-11"): the grammar of the kernel's
 * bitmap_parselist() without its ":used/group" suffix, and that of
 * schbench's parse_cpuset() (masoncl/schbench schbench.c @ 24e32b8),
 * which reads the same N and N-M entries.
 */
#include <string.h>

#include "cpulist.h"

/* How much of the rest of the text an error quotes. */
#define CPULIST_QUOTE 16

/*
 * A CPU number at *s: decimal digits, below EEVDF_MAX_CPUS.  *s moves past
 * the digits.  Leading zeros are fine, as the kernel's kstrtouint() takes
 * them.
 */
static int cpu_number(const char **s, int *out, char *err, size_t errlen)
{
	const char *p = *s;
	long v = 0;

	if (*p < '0' || *p > '9') {
		if (*p)
			eevdf__set_err(err, errlen,
				       "expected a CPU number at '%.*s'",
				       CPULIST_QUOTE, p);
		else
			eevdf__set_err(err, errlen,
				       "expected a CPU number at the end");
		return EEVDF_EINVAL;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		/* saturate: the digits after a too big number only matter
		 * to the message, which quotes them */
		if (v < EEVDF_MAX_CPUS)
			v = v * 10 + (*p - '0');
	}
	if (v >= EEVDF_MAX_CPUS) {
		eevdf__set_err(
			err, errlen, "CPU %.*s is beyond the largest, %d",
			(int)(p - *s > CPULIST_QUOTE ? CPULIST_QUOTE : p - *s),
			*s, EEVDF_MAX_CPUS - 1);
		return EEVDF_EINVAL;
	}
	*s = p;
	*out = (int)v;
	return 0;
}

int eevdf__cpulist_parse(const char *s, struct eevdf_cpuset *out, char *err,
			 size_t errlen)
{
	const char *p = s;
	bool range;
	int lo, hi, r;

	memset(out, 0, sizeof(*out));
	if (!s || !*s) {
		eevdf__set_err(err, errlen, "the list is empty");
		return EEVDF_EINVAL;
	}
	for (;;) {
		if ((r = cpu_number(&p, &lo, err, errlen)))
			return r;
		hi = lo;
		range = *p == '-';
		if (range) {
			p++;
			if ((r = cpu_number(&p, &hi, err, errlen)))
				return r;
			if (hi < lo) {
				eevdf__set_err(err, errlen,
					       "the range %d-%d runs backwards",
					       lo, hi);
				return EEVDF_EINVAL;
			}
		}
		for (int c = lo; c <= hi; c++) {
			if (eevdf__cpuset_has(out, c)) {
				eevdf__set_err(err, errlen,
					       "CPU %d is listed twice", c);
				return EEVDF_EINVAL;
			}
			eevdf__cpuset_add(out, c);
		}
		if (!*p)
			return 0;
		if (*p != ',' && !range) {
			eevdf__set_err(err, errlen,
				       "expected ',' or '-' after %d at '%.*s'",
				       lo, CPULIST_QUOTE, p);
			return EEVDF_EINVAL;
		}
		if (*p != ',') {
			eevdf__set_err(err, errlen,
				       "expected ',' after %d-%d at '%.*s'", lo,
				       hi, CPULIST_QUOTE, p);
			return EEVDF_EINVAL;
		}
		p++;
	}
}

size_t eevdf__cpuset_count(const struct eevdf_cpuset *set)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(set->bits); i++)
		n += (size_t)popcount_u64(set->bits[i]);
	return n;
}

int eevdf__cpuset_nth(const struct eevdf_cpuset *set, size_t n)
{
	for (int c = 0; c < EEVDF_MAX_CPUS; c++) {
		if (!eevdf__cpuset_has(set, c))
			continue;
		if (!n--)
			return c;
	}
	return -1;
}
