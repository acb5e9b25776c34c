/* SPDX-License-Identifier: MIT */
/*
 * Error codes of libeevdf.
 *
 * Every function that can fail returns 0 on success or one of the negative
 * EEVDF_E* codes below.  The numbers are part of the ABI and never change
 * meaning; new codes are only appended.
 */
#ifndef EEVDF_ERROR_H
#define EEVDF_ERROR_H

#include "eevdf/types.h"

#define EEVDF_ERRNO_MAP(XX)                                                   \
	XX(1, EINVAL, "invalid argument")                                     \
	XX(2, ENOMEM, "out of memory")                                        \
	XX(3, EPARSE, "input could not be parsed")                            \
	XX(4, ERANGE, "value out of range")                                   \
	XX(5, EMISUSE, "library used incorrectly")                            \
	XX(6, EIO, "input/output error")                                      \
	XX(7, ELIVELOCK, "a task made no progress in simulated time")         \
	XX(8, ENOTSUP, "not supported by this version")                       \
	XX(9, EINTERNAL, "internal invariant broken (a libeevdf bug)")       \
	XX(10, EDEADLOCK, "every remaining task is blocked for ever")         \
	XX(11, EBUSY,                                                         \
	   "resource busy (deadline admission control, or a run or change "   \
	   "of the simulation from its own callback)")                        \
	XX(12, ELIMIT, "a limit of the run was reached")                      \
	XX(13, ECANCELED, "the run was stopped by its progress callback")

enum eevdf_err {
	EEVDF_OK = 0,
#define XX(num, name, text) EEVDF_##name = -(num),
	EEVDF_ERRNO_MAP(XX)
#undef XX
};

/* A static English description of code; "unknown error" for other values. */
EEVDF_API const char *eevdf_strerror(int code);

/* The code's name without the EEVDF_ prefix ("EINVAL"); "UNKNOWN" otherwise. */
EEVDF_API const char *eevdf_err_name(int code);

#endif
