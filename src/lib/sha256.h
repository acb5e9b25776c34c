/* SPDX-License-Identifier: MIT */
/* SHA-256 in pieces, for digests of what is not one buffer. */
#ifndef EEVDF_SHA256_H
#define EEVDF_SHA256_H

#include "internal.h"

struct eevdf_sha256 {
	uint32_t h[8];
	uint64_t len; /* bytes so far */
	unsigned char buf[64];
	size_t nbuf;
};

void eevdf__sha256_init(struct eevdf_sha256 *s);
void eevdf__sha256_update(struct eevdf_sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL; s is spent. */
void eevdf__sha256_final(struct eevdf_sha256 *s, char hex[65]);

#endif
