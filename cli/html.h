/* SPDX-License-Identifier: MIT */
/* One-file HTML reports (html.c): sections of text, tables and SVGs. */
#ifndef EEVDF_CLI_HTML_H
#define EEVDF_CLI_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* A section: a heading, then any of a note, HTML, preformatted text and
 * an inline SVG, in that order; details folds it away. */
struct html_section {
	const char *heading;
	const char *note; /* a paragraph of text */
	const char *html; /* trusted markup (our own tables) */
	const char *pre;  /* text, escaped */
	const char *svg;  /* our own SVG, inline */
	bool details;
};

/* Text with &, <, > and " escaped. */
void html_esc(FILE *f, const char *s);

/* Write the report to path atomically; false after printing why. */
bool cli_html_write(const char *path, const char *title, const char *lead,
		    const struct html_section *s, size_t n);

struct plot_data;

/* What 'run --html' reports (html_run.c). */
struct html_run {
	const char *path;
	const eevdf_sim *sim;
	const char *workload;	  /* its path, "-" for stdin */
	const char *command_line; /* as the results record it */
	const char *text;	  /* the text report, as run prints it */
	const char *results;	  /* the results JSON, for the config */
	struct plot_data *pd;	  /* the run's latencies */
	eevdf_time end;		  /* when the run ended */
	int argc;		  /* run's arguments, to run it again */
	char **argv;		  /* through the largest latency's window */
};

/* false after printing why; nothing is left at path then. */
bool cli_html_run(const struct html_run *h);

/* What 'compare --html' reports (html_compare.c). */
struct html_compare {
	const char *path;
	const char *command_line;
	const char *workload, *machine, *both, *a, *b;
	const struct cli_measure *res; /* run r: a at 2r, b at 2r + 1 */
	int runs;
	uint64_t seed0;
};

bool cli_html_compare(const struct html_compare *c);

#endif
