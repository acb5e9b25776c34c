/* SPDX-License-Identifier: MIT */
/* Files calibrate and kernel-check write, and their messages. */
#ifndef CAL_OUT_H
#define CAL_OUT_H

#include <stdbool.h>
#include <stddef.h>

#define CAL_PROG "eevdf-sim"

/* Exit codes, as the rest of eevdf-sim (DESIGN.md section 4). */
enum {
	CAL_EXIT_OK = 0,
	CAL_EXIT_FAIL = 1,  /* a check failed: spread too wide, a DIFF */
	CAL_EXIT_USAGE = 2, /* usage or input error, or any failure */
};

/* "eevdf-sim: " + message + newline on stderr. */
void cal_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Write text to path ("-": stdout) through a temporary file in the same
 * directory, synced and renamed over it: never a partial file.  False
 * after printing why.
 */
bool cal_write_atomic(const char *path, const char *text);

/*
 * Whether path ("-": stdout) can be written, checked before a long
 * measurement; false after printing why.
 */
bool cal_can_write(const char *path);

/* The UTC date "YYYY-MM-DD" of now into buf. */
void cal_today(char *buf, size_t len);

#endif
