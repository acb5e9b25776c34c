/* SPDX-License-Identifier: MIT */
/* A growing output string, for the text the reports build. */
#ifndef EEVDF_STRBUF_H
#define EEVDF_STRBUF_H

#include "internal.h"

struct sb {
	char *buf; /* NUL-terminated once anything was written; malloc() */
	size_t len, cap;
	int err; /* sticky: EEVDF_ENOMEM or EEVDF_EINVAL, then no more */
};

#define sb_printf eevdf__sb_printf

/* Append printf-style text to b, growing it; a failure sets b->err. */
void sb_printf(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
