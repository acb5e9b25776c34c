/* SPDX-License-Identifier: MIT */
/*
 * A kernel release to the profile that models it: "--kernel 6.10" means
 * the 6.8 profile, whose behaviour 6.8 to 6.11 share (the ranges of
 * docs/kernel-profiles.md and of each row of profile.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

/* "MAJOR.MINOR[.PATCH]" with nothing else; patch -1 when absent. */
static bool parse_release(const char *s, long *major, long *minor, long *patch)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*major = strtol(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return false;
	*minor = strtol(end + 1, &end, 10);
	*patch = -1;
	if (*end == '.') {
		if (end[1] < '0' || end[1] > '9')
			return false;
		*patch = strtol(end + 1, &end, 10);
	}
	return *end == '\0' && *major < 100 && *minor < 1000 && *patch < 100000;
}

const char *eevdf_profile_for_release(const char *release, char *note,
				      size_t len)
{
	static const struct {
		long lo, hi; /* minor releases of 6.x */
		const char *profile, *range;
	} ranges[] = {
		{ 1, 5, "cfs-6.1", "6.1-6.5" },
		{ 6, 7, "6.6", "6.6-6.7" },
		{ 8, 11, "6.8", "6.8-6.11" },
		{ 12, 16, "6.12", "6.12-6.16" },
		{ 17, 17, "6.17", "6.17-6.18.0" },
		{ 19, 19, "6.19", "6.19" },
	};
	long major, minor, patch;

	if (note && len)
		note[0] = '\0';
	if (!release)
		return NULL;
	if (eevdf__profile_find(release))
		return eevdf__profile_find(release)->name;
	if (!parse_release(release, &major, &minor, &patch) || major != 6)
		return NULL;
	if (minor == 18) {
		/* 6.18.0 is the 6.17 core; the stable line is modelled at
		 * 6.18.44, with the backports of kernel-6.18y.md */
		if (patch <= 0) {
			eevdf__set_err(note, len,
				       "kernel %s is the v6.18 release, which "
				       "has the 6.17 core: profile 6.17",
				       release);
			return "6.17";
		}
		eevdf__set_err(note, len,
			       "kernel %s is in the 6.18 stable line, which "
			       "profile 6.18 models as of 6.18.44 (earlier "
			       "releases lack some of its backports)",
			       release);
		return "6.18";
	}
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		if (minor < ranges[i].lo || minor > ranges[i].hi)
			continue;
		eevdf__set_err(note, len,
			       "kernel %s is in the range %s of profile %s",
			       release, ranges[i].range, ranges[i].profile);
		return ranges[i].profile;
	}
	return NULL;
}
