/* SPDX-License-Identifier: MIT */
/* Basic types shared by every libeevdf header. */
#ifndef EEVDF_TYPES_H
#define EEVDF_TYPES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && !defined(EEVDF_STATIC_NOEXPORT)
#define EEVDF_API __attribute__((visibility("default")))
#else
#define EEVDF_API
#endif

/* Simulated time and durations: signed 64-bit nanoseconds. */
typedef int64_t eevdf_time;

#define EEVDF_NSEC_PER_USEC ((eevdf_time)1000)
#define EEVDF_NSEC_PER_MSEC ((eevdf_time)1000000)
#define EEVDF_NSEC_PER_SEC ((eevdf_time)1000000000)

/*
 * The latest simulated time a run may reach, 2^62 - 1 ns (about 146
 * years).  A run whose program would put an event later (a sleep, a burst
 * of work, a timeout of such a size) fails with EEVDF_ERANGE naming the
 * task, the op and the value; the margin up to INT64_MAX is what lets the
 * model add a tick or a slice to any time without overflow.
 */
#define EEVDF_TIME_MAX ((eevdf_time)0x3fffffffffffffff)

/* One simulation: opaque, created by eevdf_sim_new(), freed by eevdf_sim_free(). */
typedef struct eevdf_sim eevdf_sim;

/* A parsed workload file: opaque, see workload.h. */
typedef struct eevdf_workload eevdf_workload;

/* A machine description (eevdf/machine.h). */
typedef struct eevdf_machine eevdf_machine;

#endif
