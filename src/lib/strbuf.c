/* SPDX-License-Identifier: MIT */
#include <stdarg.h>

#include "strbuf.h"

void sb_printf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf ? b->buf + b->len : NULL,
		      b->buf ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->err = EEVDF_EINVAL;
		return;
	}
	if (!b->buf || b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *nb;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			b->err = EEVDF_ENOMEM;
			return;
		}
		b->buf = nb;
		b->cap = cap;
		va_start(ap, fmt);
		vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}
