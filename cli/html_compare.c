/* SPDX-License-Identifier: MIT */
/*
 * 'compare --html REPORT.html': the configurations, a table of every
 * figure (a's and b's means, b/a, the spread over seeds), the ratio chart
 * with each figure's per-seed ratios as its spread, and every seed's
 * values.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* Mean and sample standard deviation of figure f of configuration k. */
static void stats(const struct html_compare *c, int k, size_t f, double *mean,
		  double *sd)
{
	double s = 0, q = 0;

	for (int r = 0; r < c->runs; r++)
		s += c->res[2 * r + k].fig[f].value;
	*mean = s / c->runs;
	for (int r = 0; r < c->runs; r++) {
		double d = c->res[2 * r + k].fig[f].value - *mean;

		q += d * d;
	}
	*sd = c->runs > 1 ? sqrt(q / (c->runs - 1)) : 0;
}

static void num(FILE *f, double v)
{
	if (isnan(v))
		fputs("-", f);
	else
		fprintf(f, "%.6g", v);
}

bool cli_html_compare(const struct html_compare *c)
{
	size_t nf = c->res[0].nr;
	struct eevdf_plot_bar *bars = calloc(nf + 1, sizeof(*bars));
	struct eevdf_plot_opts po = { .title = "b/a per figure" };
	struct html_section s[4];
	char *table = NULL, *seeds = NULL, *svg = NULL, title[256], cfg[2048];
	size_t len = 0, nb = 0;
	FILE *f;
	bool ok = false;

	if (!bars)
		goto oom;
	f = open_memstream(&table, &len);
	if (!f)
		goto oom;
	fputs("<table>\n<tr><th>figure</th><th>unit</th><th>a</th>"
	      "<th>b</th><th>b/a</th><th>spread a</th><th>spread b</th>"
	      "</tr>\n",
	      f);
	for (size_t i = 0; i < nf; i++) {
		const struct cli_figure *fig = &c->res[0].fig[i];
		double ma, sa, mb, sb, r;
		const char *cls = "";

		stats(c, 0, i, &ma, &sa);
		stats(c, 1, i, &mb, &sb);
		r = ma != 0 ? mb / ma : (mb == 0 ? 1 : (double)NAN);
		if (!isnan(r) && fig->better && r != 1)
			cls = (r > 1) == (fig->better > 0) ? " class=\"good\"" :
							     " class=\"bad\"";
		fputs("<tr><td>", f);
		html_esc(f, fig->name);
		fputs("</td><td>", f);
		html_esc(f, fig->unit);
		fputs("</td><td>", f);
		num(f, ma);
		fputs("</td><td>", f);
		num(f, mb);
		fprintf(f, "</td><td%s>", cls);
		if (isnan(r))
			fputs("-", f);
		else
			fprintf(f, "%.3f", r);
		fprintf(f, "</td><td>%.1f%%</td><td>%.1f%%</td></tr>\n",
			ma != 0 ? 100 * sa / fabs(ma) : 0,
			mb != 0 ? 100 * sb / fabs(mb) : 0);
		if (isnan(r))
			continue;
		/* the spread: the per-seed ratios (the same seeds in a, b) */
		bars[nb] = (struct eevdf_plot_bar){ fig->name, r, r, r,
						    fig->better };
		for (int k = 0; k < c->runs; k++) {
			double a = c->res[2 * k].fig[i].value;
			double b = c->res[2 * k + 1].fig[i].value;

			if (a == 0)
				continue;
			bars[nb].lo = fmin(bars[nb].lo, b / a);
			bars[nb].hi = fmax(bars[nb].hi, b / a);
		}
		nb++;
	}
	fputs("</table>\n", f);
	if (fclose(f) != 0 || !table)
		goto oom;
	f = open_memstream(&seeds, &len);
	if (!f)
		goto oom;
	fputs("<table>\n<tr><th>figure</th><th>seed</th><th>a</th><th>b</th>"
	      "</tr>\n",
	      f);
	for (size_t i = 0; i < nf; i++)
		for (int k = 0; k < c->runs; k++) {
			fputs("<tr><td>", f);
			html_esc(f, c->res[0].fig[i].name);
			fprintf(f, "</td><td>%" PRIu64 "</td><td>",
				c->seed0 + (uint64_t)k);
			num(f, c->res[2 * k].fig[i].value);
			fputs("</td><td>", f);
			num(f, c->res[2 * k + 1].fig[i].value);
			fputs("</td></tr>\n", f);
		}
	fputs("</table>\n", f);
	if (fclose(f) != 0 || !seeds)
		goto oom;
	if (eevdf_plot_ratio_svg(&po, bars, nb, &svg) < 0)
		goto oom;
	snprintf(cfg, sizeof(cfg),
		 "workload: %s\nmachine: %s\nboth: %s\na: %s\nb: %s\n"
		 "seeds: %" PRIu64 "..%" PRIu64 " (%d per configuration)\n"
		 "report: %s\n",
		 c->workload, c->machine ? c->machine : "(the run options')",
		 c->both && c->both[0] ? c->both : "(none)", c->a, c->b,
		 c->seed0, c->seed0 + (uint64_t)c->runs - 1, c->runs,
		 c->res[0].report[0] ? c->res[0].report : "(none)");
	s[0] = (struct html_section){ .heading = "Configurations", .pre = cfg };
	s[1] = (struct html_section){
		.heading = "Figures",
		.note = "Means over the seeds, b/a (green: b is better, red: "
			"worse) and the spread (sample standard deviation, % "
			"of the mean).",
		.html = table
	};
	s[2] = (struct html_section){
		.heading = "Ratios",
		.note = "Each figure's b/a, its whisker the per-seed ratios' "
			"range (the same seeds run in a and b).",
		.svg = svg
	};
	s[3] = (struct html_section){ .heading = "Every seed",
				      .html = seeds,
				      .details = true };
	snprintf(title, sizeof(title), PROG " compare: %s", c->workload);
	ok = cli_html_write(c->path, title, c->command_line, s, 4);
	goto out;
oom:
	cli_error("--html %s: out of memory", c->path);
out:
	free(bars);
	free(table);
	free(seeds);
	free(svg);
	return ok;
}
