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

/* One simulation: opaque, created by eevdf_sim_new(), freed by eevdf_sim_free(). */
typedef struct eevdf_sim eevdf_sim;

/* A parsed workload file: opaque, see workload.h. */
typedef struct eevdf_workload eevdf_workload;

/* A machine description (eevdf/machine.h). */
typedef struct eevdf_machine eevdf_machine;

#endif
