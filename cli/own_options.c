/* SPDX-License-Identifier: MIT */
/*
 * A command's own options, picked out of an argument list whose other
 * words go on to the run options' parser (explain and plot take a
 * workload with every `run` option, plus a few of their own).
 */
#include <string.h>

#include "cli.h"

int cli_own_option(const char *cmd, int argc, char **argv, int *i,
		   const char *const *opts, size_t nr, const char **value)
{
	const char *a = argv[*i];

	for (size_t k = 0; k < nr; k++) {
		size_t n = strlen(opts[k]);

		/* --name=value; a short option (-o) takes no '=' form */
		if (strncmp(a, opts[k], n) != 0 ||
		    (a[n] != '\0' && (a[n] != '=' || n == 2)))
			continue;
		if (a[n] == '=') {
			*value = a + n + 1;
		} else if (*i + 1 < argc) {
			*value = argv[++*i];
		} else {
			cli_error("%s: option '%s' requires an argument", cmd,
				  a);
			return -1;
		}
		return (int)k;
	}
	return (int)nr;
}
