/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "utf8.h"

size_t eevdf__utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0; /* a continuation byte, C0, C1 (overlong) or F5+ */
	if (c == 0xe0)
		lo = 0xa0; /* overlong */
	else if (c == 0xed)
		hi = 0x9f; /* U+D800..U+DFFF, the surrogates */
	else if (c == 0xf0)
		lo = 0x90; /* overlong */
	else if (c == 0xf4)
		hi = 0x8f; /* above U+10FFFF */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool eevdf__utf8_valid(const char *s, size_t n, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (!(k = eevdf__utf8_seq(u + i, n - i))) {
			if (bad)
				*bad = i;
			return false;
		}
		i += k;
	}
	return true;
}

int eevdf__utf8_fix(const char *s, char **out)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0, k;
	char *d;

	*out = NULL;
	if (eevdf__utf8_valid(s, n, NULL))
		return 0;
	/* at most three bytes for each byte replaced */
	d = malloc(3 * n + 1);
	if (!d)
		return EEVDF_ENOMEM;
	while (i < n) {
		if ((k = eevdf__utf8_seq(u + i, n - i))) {
			memcpy(d + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(d + o, fffd, 3);
			o += 3;
			i++;
		}
	}
	d[o] = '\0';
	*out = d;
	return 0;
}
