/* SPDX-License-Identifier: MIT */
/*
 * The HTML reports of 'run --html' and 'compare --html': one file, no
 * script, no external resource, the plots inline as SVG, to attach to a
 * bug or a pull request.  html.h.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static const char style[] =
	"body{font-family:sans-serif;max-width:1060px;margin:1em auto;"
	"padding:0 1em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;"
	"border-bottom:1px solid #ddd}"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto;"
	"font-size:12px;line-height:1.3}"
	"table{border-collapse:collapse;font-size:13px}"
	"th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}"
	"th:first-child,td:first-child{text-align:left}"
	".good{color:#2e7d32}.bad{color:#c62828}"
	"figure{margin:1em 0}figcaption{font-size:13px;color:#555}"
	"svg{max-width:100%;height:auto}";

bool cli_html_write(const char *path, const char *title, const char *lead,
		    const struct html_section *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool ok;

	if (!f) {
		cli_error("--html %s: out of memory", path);
		return false;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>",
	      f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	html_esc(f, title);
	fputs("</h1>\n", f);
	if (lead) {
		fputs("<p>", f);
		html_esc(f, lead);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i].details) {
			fputs("<details>\n<summary>", f);
			html_esc(f, s[i].heading);
			fputs("</summary>\n", f);
		} else {
			fputs("<h2>", f);
			html_esc(f, s[i].heading);
			fputs("</h2>\n", f);
		}
		if (s[i].note) {
			fputs("<p>", f);
			html_esc(f, s[i].note);
			fputs("</p>\n", f);
		}
		if (s[i].html)
			fputs(s[i].html, f);
		if (s[i].pre) {
			fputs("<pre>", f);
			html_esc(f, s[i].pre);
			fputs("</pre>\n", f);
		}
		if (s[i].svg) {
			fputs("<figure>\n", f);
			fputs(s[i].svg, f);
			fputs("</figure>\n", f);
		}
		if (s[i].details)
			fputs("</details>\n", f);
	}
	fputs("</body>\n</html>", f);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		cli_error("--html %s: out of memory", path);
		return false;
	}
	ok = cli_write_atomic(path, buf);
	free(buf);
	return ok;
}
