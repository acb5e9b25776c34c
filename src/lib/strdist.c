/* SPDX-License-Identifier: MIT */
/* Levenshtein distance of two short names, for "did you mean" messages. */
#include <string.h>

#include "strdist.h"

/*
 * One row of the dynamic-programming table at a time: row[j] is the
 * distance of a[0..i) and b[0..j).
 */
size_t eevdf__strdist(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[EEVDF_STRDIST_MAX + 1];

	if (la > EEVDF_STRDIST_MAX || lb > EEVDF_STRDIST_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}
