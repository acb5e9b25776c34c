/* SPDX-License-Identifier: MIT */
/*
 * What the build knows of itself, for the provenance results carry: the
 * Makefile writes gen/git.h with `git describe` of the checkout (and
 * rewrites it only when that changes, so nothing else rebuilds).
 */
#include "cli.h"
#include "gen/git.h"

const char *cli_git_describe(void)
{
	return CLI_GIT_DESCRIBE;
}
