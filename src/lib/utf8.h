/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 (RFC 3629): what input must be, and what the results JSON and CSV
 * must be for the parsers that read them (Python's json rejects anything
 * else), whatever bytes a file name or a command line held.
 */
#ifndef EEVDF_UTF8_H
#define EEVDF_UTF8_H

#include "internal.h"

/*
 * The length of the well-formed sequence at s (n > 0 bytes left), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF.
 */
size_t eevdf__utf8_seq(const unsigned char *s, size_t n);

/* True when the n bytes of s are UTF-8; else false and *bad the offset of
 * the first byte that is not (bad may be NULL). */
bool eevdf__utf8_valid(const char *s, size_t n, size_t *bad);

/*
 * s with each byte that is not part of a well-formed sequence replaced by
 * U+FFFD, in *out (to free), or *out NULL when s is UTF-8 already.  0, or
 * EEVDF_ENOMEM.
 */
int eevdf__utf8_fix(const char *s, char **out);

#endif
