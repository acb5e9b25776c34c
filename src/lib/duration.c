/* SPDX-License-Identifier: MIT */
/* Duration strings ("8ms", "1.5s", "250ns") to integer nanoseconds. */
#include <string.h>

#include "internal.h"

/* Scan a run of decimal digits; returns the first byte after it. */
static const char *skip_digits(const char *s)
{
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/*
 * The unit's power of ten, or -1.  Units are case-sensitive: "MS" and "Ms"
 * are rejected rather than guessed at, and no unit means ns.
 */
static int unit_exp(const char *u)
{
	if (u[0] == '\0' || strcmp(u, "ns") == 0)
		return 0;
	if (strcmp(u, "us") == 0)
		return 3;
	if (strcmp(u, "ms") == 0)
		return 6;
	if (strcmp(u, "s") == 0)
		return 9;
	return -1;
}

/*
 * Grammar: DIGITS [ "." DIGITS ] [ UNIT ], where the fractional form needs a
 * unit and no unit means ns.  Like a JSON number, there must be a digit on
 * each side of the point: ".5ms" and "5.ms" are rejected (EINVAL), so a
 * typo never silently becomes a valid value.  No spaces, no '+', no
 * exponent.  A leading '-' is rejected as negative (EINVAL).
 *
 * Everything is exact integer arithmetic: value = int * 10^e + frac
 * scaled to ns, and a fraction finer than 1 ns ("0.0005us") is EINVAL
 * instead of being rounded.  Anything above max, including values that do
 * not fit 64 bits at all, is EEVDF_ERANGE.  *out is written only on
 * success.
 */
int eevdf_parse_duration(const char *s, eevdf_time max, eevdf_time *out)
{
	const char *int_end, *frac, *frac_end, *unit;
	u64 ipart = 0, fpart = 0, mult = 1, total;
	size_t nfrac;
	int e, i;

	if (!s || !out || max < 0)
		return EEVDF_EINVAL;
	if (s[0] == '-')
		return EEVDF_EINVAL; /* negative */

	/* Syntax first, so that "999...9x" is EINVAL, not ERANGE. */
	int_end = skip_digits(s);
	if (int_end == s)
		return EEVDF_EINVAL;
	frac = frac_end = int_end;
	if (*int_end == '.') {
		frac = int_end + 1;
		frac_end = skip_digits(frac);
		if (frac_end == frac)
			return EEVDF_EINVAL;
	}
	unit = frac_end;
	e = unit_exp(unit);
	if (e < 0)
		return EEVDF_EINVAL;
	if (frac_end != int_end && unit[0] == '\0')
		return EEVDF_EINVAL; /* "1.5": a fraction of what? */

	for (i = 0; i < e; i++)
		mult *= 10;

	/*
	 * Trailing zeros of the fraction carry no value.  What remains is
	 * f / 10^nfrac with f's last digit non-zero, so f is not a multiple
	 * of 10 and f * 10^e / 10^nfrac is whole exactly when nfrac <= e.
	 * That also bounds f below 10^9: no overflow.
	 */
	while (frac_end > frac && frac_end[-1] == '0')
		frac_end--;
	nfrac = (size_t)(frac_end - frac);
	if (nfrac > (size_t)e)
		return EEVDF_EINVAL; /* a fraction of a nanosecond */
	for (; frac < frac_end; frac++)
		fpart = fpart * 10 + (u64)(*frac - '0');
	for (i = (int)nfrac; i < e; i++)
		fpart *= 10;

	for (; s < int_end; s++) {
		u64 d = (u64)(*s - '0');

		if (ipart > (UINT64_MAX - d) / 10)
			return EEVDF_ERANGE;
		ipart = ipart * 10 + d;
	}
	if (ipart > (UINT64_MAX - fpart) / mult)
		return EEVDF_ERANGE;
	total = ipart * mult + fpart;
	if (total > (u64)max)
		return EEVDF_ERANGE;
	*out = (eevdf_time)total;
	return 0;
}
