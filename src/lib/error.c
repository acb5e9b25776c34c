/* SPDX-License-Identifier: MIT */
/* Error names and messages, expanded from EEVDF_ERRNO_MAP; version getters. */
#include <stdarg.h>

#include "internal.h"

const char *eevdf_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
#define XX(num, name, text)                                                    \
	case -(num):                                                           \
		return text;
		EEVDF_ERRNO_MAP(XX)
#undef XX
	default:
		return "unknown error";
	}
}

const char *eevdf_err_name(int code)
{
	switch (code) {
	case 0:
		return "OK";
#define XX(num, name, text)                                                    \
	case -(num):                                                           \
		return #name;
		EEVDF_ERRNO_MAP(XX)
#undef XX
	default:
		return "UNKNOWN";
	}
}

int eevdf_version(void)
{
	return EEVDF_VERSION_NUMBER;
}

const char *eevdf_version_string(void)
{
	return EEVDF_VERSION_STRING;
}

#ifdef EEVDF_TEST_ASSERTS
void eevdf__assert_fail(const char *cond, const char *file, int line)
{
	/*
	 * Only the test builds get here (see internal.h): there a broken
	 * invariant is reported where it broke and the test dies with it.
	 */
	fprintf(stderr, "libeevdf: internal invariant failed: %s (%s:%d)\n",
		cond, file, line);
	abort();
}
#endif

void eevdf__set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
