/* SPDX-License-Identifier: MIT */
/*
 * The edit distance behind "did you mean" messages: how far a misspelt
 * name (a cost, a feature flag) is from each valid one.
 */
#ifndef EEVDF_STRDIST_H
#define EEVDF_STRDIST_H

#include "internal.h"

/* The longest name eevdf__strdist() measures, in bytes. */
#define EEVDF_STRDIST_MAX 31

/*
 * Levenshtein distance of a and b: the fewest single-byte insertions,
 * deletions and substitutions that turn a into b, bytes compared exactly.
 * SIZE_MAX when either is longer than EEVDF_STRDIST_MAX (no name is).
 */
size_t eevdf__strdist(const char *a, const char *b);

#endif
