/* SPDX-License-Identifier: MIT */
/*
 * Version of libeevdf.  Releases with the same major version are ABI
 * compatible: a program built against X.Y runs against any X.Z with Z >= Y.
 */
#ifndef EEVDF_VERSION_H
#define EEVDF_VERSION_H

#include "eevdf/types.h"

#define EEVDF_VERSION_MAJOR 0
#define EEVDF_VERSION_MINOR 1
#define EEVDF_VERSION_PATCH 0
#define EEVDF_VERSION_STRING "0.1.0"
#define EEVDF_VERSION_NUMBER                                                  \
	(EEVDF_VERSION_MAJOR * 1000000 + EEVDF_VERSION_MINOR * 1000 +         \
	 EEVDF_VERSION_PATCH)

/* EEVDF_VERSION_NUMBER of the library actually linked. */
EEVDF_API int eevdf_version(void);
/* EEVDF_VERSION_STRING of the library actually linked. */
EEVDF_API const char *eevdf_version_string(void);

/*
 * sizeof a public struct by its name ("eevdf_config",
 * "eevdf_trace_event", ...), 0 for a name it does not know: for bindings
 * that mirror the structs (the Python package checks its ctypes copies
 * against it when it loads the library).
 */
EEVDF_API size_t eevdf_abi_sizeof(const char *type);

#endif
