/* SPDX-License-Identifier: MIT */
/*
 * Scheduler feature flags, spelled as the kernel's kernel/sched/features.h
 * spells them, and kernel profiles (which release's scheduler to model).
 *
 * A feature set is a 64-bit mask: bit i is feature i of the list returned by
 * eevdf_feature_name().  The defaults depend on the kernel profile; a user's
 * list ("NO_DELAY_DEQUEUE,RUN_TO_PARITY") is an override on top of them, the
 * way writing to /sys/kernel/debug/sched/features overrides a booted kernel.
 */
#ifndef EEVDF_FEATURES_H
#define EEVDF_FEATURES_H

#include <stdbool.h>

#include "eevdf/types.h"

/* Number of features known to this library. */
EEVDF_API size_t eevdf_feature_count(void);

/* Name of feature i (kernel spelling, no NO_ prefix); NULL when i is out of range. */
EEVDF_API const char *eevdf_feature_name(size_t i);

/* Index of the feature called name (exact, case-sensitive), or -1. */
EEVDF_API int eevdf_feature_index(const char *name);

/*
 * True when feature i is in kernel profile `kernel`'s list (NULL = the
 * default profile).  The RFC knobs are in no release's list.
 */
EEVDF_API bool eevdf_feature_in_profile(const char *kernel, size_t i);

/*
 * True for an RFC knob (WAKEUP_DEADLINE, PLACE_FUDGE): never merged,
 * settable on every profile, off unless asked for.
 */
EEVDF_API bool eevdf_feature_is_rfc(size_t i);

/*
 * Default feature mask of a kernel profile (NULL = the default profile).
 * Returns 0 and fills *mask, or EEVDF_EINVAL for an unknown profile name.
 */
EEVDF_API int eevdf_profile_features(const char *kernel, uint64_t *mask);

/*
 * Parse a comma-separated list of NAME / NO_NAME items and accumulate it as
 * overrides: NAME sets the bit in *on (and clears it in *off), NO_NAME the
 * reverse.  Empty items are ignored.  On an unknown name, or a NAME and its
 * NO_NAME in one list, returns EEVDF_EINVAL and writes a message naming the
 * item (and every valid name) into err (when err is not NULL, truncated to
 * errlen bytes, always NUL-terminated); *on and *off are then left
 * unchanged.  Separate lists still override each other, later ones winning.
 */
EEVDF_API int eevdf_features_parse(const char *list, uint64_t *on,
				   uint64_t *off, char *err, size_t errlen);

/* Number of kernel profiles, and the name of profile i ("6.18", ...). */
EEVDF_API size_t eevdf_profile_count(void);
EEVDF_API const char *eevdf_profile_name(size_t i);
/* One-line description of profile i; NULL when out of range. */
EEVDF_API const char *eevdf_profile_description(size_t i);

/*
 * The profile that models kernel release (a profile's own name, or a
 * release such as "6.10" or "6.18.20" in a profile's range), or NULL for
 * none; for a release that is not itself a profile's name, note (len
 * bytes, may be NULL) says which range it fell in.
 */
EEVDF_API const char *eevdf_profile_for_release(const char *release, char *note,
						size_t len);
/* Name of the default profile. */
EEVDF_API const char *eevdf_profile_default(void);

#endif
