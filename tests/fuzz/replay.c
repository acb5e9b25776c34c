/* SPDX-License-Identifier: MIT */
/*
 * A main() for a fuzz target without libFuzzer: feed it each file named on
 * the command line (the crash regressions of tests/fuzz/regress/ and the
 * seed corpus), built with the normal compiler and sanitizers, so that
 * make test and make asan replay every input a fuzzer once broke.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len == cap) {
				unsigned char *nb;

				cap = cap ? 2 * cap : 4096;
				nb = realloc(buf, cap);
				if (!nb) {
					fclose(f);
					free(buf);
					return 2;
				}
				buf = nb;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	printf("replayed %d input%s\n", argc - 1, argc == 2 ? "" : "s");
	return 0;
}
