#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# alloc_check.sh LIBEEVDF.a: every allocation of the library goes through
# its allocator (eevdf/alloc.h): only src/lib/alloc.c may call the C
# library's allocation functions, so that eevdf_set_allocator() sees all
# of them (eevdf-sim --max-memory, the allocation-failure loop).
set -u
lib=${1:?usage: alloc_check.sh LIBEEVDF.a}
if ! command -v nm >/dev/null; then
	echo "alloc_check: nm is not installed: skipped"
	exit 0
fi
fns='malloc|calloc|realloc|free|strdup|strndup|reallocarray|aligned_alloc|posix_memalign|memalign|valloc|asprintf|vasprintf|open_memstream|getline|getdelim|realpath'
bad=$(nm -A "$lib" | grep -E " U ($fns)$" | grep -v ':alloc\.o:')
if [ -n "$bad" ]; then
	echo "alloc_check: these objects allocate past the library's allocator:"
	echo "$bad"
	exit 1
fi
echo "alloc_check: only alloc.o calls the C library's allocator"
