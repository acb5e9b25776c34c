/* SPDX-License-Identifier: MIT */
/*
 * The fuzz targets of tests/fuzz/: each defines LLVMFuzzerTestOneInput(),
 * which libFuzzer drives (make fuzz) and replay.c feeds the regression
 * inputs and the seed corpus (make test).  A target must return 0 and
 * must not leak; anything else it finds is a crash.
 */
#ifndef EEVDF_FUZZ_H
#define EEVDF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Load limits small enough that one input is quick and its memory small,
 * large enough for every shipped workload: what a fuzzer should explore
 * is the checks, not the memory of a million tasks.
 */
#define FUZZ_MAX_OPS (1u << 16)
#define FUZZ_MAX_EVENTS 200000u

#endif
