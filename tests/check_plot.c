/* SPDX-License-Identifier: MIT */
/*
 * The SVG plots (eevdf/plot.h) on hand-made data: where the ticks go and
 * what they say, worked out from the layout (plot_svg.c: 800 x 450, the
 * plot area from x 72 to the width less 16, or less 184 with a legend,
 * and from y 36 with a title, 16 without, to the height less 50), the
 * colours of a ratio chart, escaping and bad input.  tests/cli_seeing.sh
 * parses the CLI's SVG with a real XML parser.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "eevdf/eevdf.h"

static bool has(const char *svg, const char *needle)
{
	return strstr(svg, needle) != NULL;
}

static size_t count(const char *svg, const char *needle)
{
	size_t n = 0;

	for (const char *p = svg; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * One labelled series (0, 0) - (10, 1), with a title: the legend takes
 * 168 px, so the area is x 72..616 (544 px) and y 36..400 (364 px).
 * x: span 10, raw step 2, 2 x 10^0: ticks 0, 2, ..., 10; the tick 2 sits
 * at 72 + 2/10 * 544 = 180.80, its number 16 px below the axis, y 416.
 * y: span 1, raw 0.2, 2 x 10^-1: ticks 0, 0.2, ..., 1; 0.2 sits at
 * 400 - 0.2 * 364 = 327.20, its number 6 px left of the axis (66) and
 * 4 px down (331.20).  The line runs from (72, 400) to (616, 36).
 */
START_TEST(lines_axes_by_hand)
{
	const struct eevdf_plot_point pts[] = { { 0, 0 }, { 10, 1 } };
	const struct eevdf_plot_mark mk = { 5, 0.5, "p50 5" };
	struct eevdf_plot_series s = {
		.label = "task", .pts = pts, .n = 2, .marks = &mk, .nr_marks = 1
	};
	struct eevdf_plot_opts o = { .title = "t",
				     .xlabel = "time (ms)",
				     .ylabel = "fraction" };
	char *svg;

	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), 0);
	ck_assert(has(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			   "width=\"800\" height=\"450\""));
	ck_assert(has(svg, "<text class=\"xtick\" x=\"180.80\" y=\"416.00\" "
			   "text-anchor=\"middle\">2</text>"));
	ck_assert(has(svg, "<text class=\"xtick\" x=\"616.00\" y=\"416.00\" "
			   "text-anchor=\"middle\">10</text>"));
	ck_assert(has(svg, "<text class=\"ytick\" x=\"66.00\" y=\"331.20\" "
			   "text-anchor=\"end\">0.2</text>"));
	ck_assert_uint_eq(count(svg, "class=\"xtick\""), 6);
	ck_assert_uint_eq(count(svg, "class=\"ytick\""), 6);
	ck_assert(has(svg, "d=\"M72.00 400.00L616.00 36.00\""));
	/* the mark at (5, 0.5): x 72 + 272 = 344, y 400 - 182 = 218 */
	ck_assert(has(svg, "<circle cx=\"344.00\" cy=\"218.00\" r=\"3\""));
	ck_assert(has(svg, ">p50 5</text>"));
	ck_assert(has(svg, ">time (ms)</text>"));
	ck_assert(has(svg, "class=\"legend\""));
	ck_assert(has(svg, "</svg>\n"));
	free(svg);
}
END_TEST

/*
 * A CDF on a log axis: x from 3 to 2500 covers the decades 10^0..10^4:
 * ticks 1, 10, 100, 1000, 10000.  No label, no legend, no title: the
 * area is x 72..784 (712 px), y 16..400; 100 is two decades of four in:
 * 72 + 356 = 428.  y spans the data, 0.5 to 1: raw step 0.1, ticks
 * 0.5, 0.6, ..., 1, so 0.5 is the bottom (400) and 1 the top (16).
 * Steps hold each value: "H" then "V".
 */
START_TEST(log_axis_by_hand)
{
	const struct eevdf_plot_point pts[] = { { 3, 0.5 }, { 2500, 1 } };
	struct eevdf_plot_series s = { .pts = pts, .n = 2, .steps = true };
	struct eevdf_plot_opts o = { .logx = true };
	char *svg;

	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), 0);
	ck_assert(has(svg, "<text class=\"xtick\" x=\"428.00\" y=\"416.00\" "
			   "text-anchor=\"middle\">100</text>"));
	ck_assert(has(svg, ">10000</text>"));
	ck_assert(has(svg, ">1</text>"));
	ck_assert_uint_eq(count(svg, "class=\"xtick\""), 5);
	ck_assert(!has(svg, "class=\"legend\""));
	ck_assert(!has(svg, "class=\"title\""));
	/* log10(3) = 0.4771: 72 + 0.4771 / 4 * 712 = 156.93; then across
	 * to 2500 (log10 3.3979: 676.83) and up to 1 (y 16) */
	ck_assert(has(svg, "d=\"M156.93 400.00H676.83V16.00\""));
	ck_assert_uint_eq(count(svg, "class=\"ytick\""), 6);
	free(svg);
}
END_TEST

/*
 * Two ratios: 0.9 (0.85..0.95, higher is better: worse, red) and 0.5
 * (0.4..0.6, lower is better: better, green).  The range covers 1 and
 * 0.4: span 0.6, raw 0.12, step 0.2: ticks 0.4, 0.6, 0.8, 1.
 */
START_TEST(ratio_colours_and_ticks)
{
	const struct eevdf_plot_bar bars[] = {
		{ "throughput", 0.9, 0.85, 0.95, +1 },
		{ "latency", 0.5, 0.4, 0.6, -1 },
		{ "switches", 1.2, 1.1, 1.3, 0 },
	};
	struct eevdf_plot_opts o = { 0 };
	char *svg;

	ck_assert_int_eq(eevdf_plot_ratio_svg(&o, bars, 3, &svg), 0);
	ck_assert(has(svg, "data-value=\"0.9\""));
	ck_assert(has(svg, "data-value=\"0.5\""));
	ck_assert(has(svg, "r=\"5\" fill=\"#e15759\""));
	ck_assert(has(svg, "r=\"5\" fill=\"#59a14f\""));
	ck_assert(has(svg, "r=\"5\" fill=\"#79706e\""));
	/* 1.2 widens the range to 1.4: 0.4, 0.6, ..., 1.4 */
	ck_assert_uint_eq(count(svg, "class=\"xtick\""), 6);
	ck_assert(has(svg, ">0.4</text>"));
	ck_assert(has(svg, ">1.4</text>"));
	ck_assert(has(svg, ">0.900</text>"));
	ck_assert(has(svg, ">throughput</text>"));
	ck_assert(has(svg, "stroke-dasharray"));
	free(svg);
}
END_TEST

START_TEST(timeline_spans_and_legend)
{
	const char *const rows[] = { "CPU 0", "CPU 1" };
	const char *const keys[] = { "hog:1", "sleeper:2" };
	const struct eevdf_plot_span sp[] = {
		{ 0, 0, 1, 0 },
		{ 1, 0.5, 2, 1 },
		{ 0, 1, 2, 1 },
	};
	const struct eevdf_plot_span bad = { 2, 0, 1, 0 };
	struct eevdf_plot_opts o = { .xmin = 0, .xmax = 2 };
	char *svg;

	ck_assert_int_eq(
		eevdf_plot_timeline_svg(&o, rows, 2, keys, 2, sp, 3, &svg), 0);
	ck_assert_uint_eq(count(svg, "class=\"span\""), 3);
	ck_assert(has(svg, "data-row=\"1\" data-key=\"1\""));
	ck_assert(has(svg, "<title>sleeper:2 0.5 to 2</title>"));
	ck_assert_uint_eq(count(svg, "class=\"legend\""), 2);
	ck_assert(has(svg, ">CPU 1</text>"));
	free(svg);
	ck_assert_int_eq(eevdf_plot_timeline_svg(&o, rows, 2, keys, 2, &bad, 1,
						 &svg),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(svg);
}
END_TEST

START_TEST(escaping_and_bad_input)
{
	const struct eevdf_plot_point nan_pt[] = { { (double)NAN, 1 } };
	/* a NaN y is a gap: no title or legend, x 72..784 over 0..2 (step
	 * 0.5), y 16..400 over 0.9..1.1 (a single value widened by 10 %,
	 * step 0.05): 1 is at y 208, x 0, 1, 2 at 72, 428, 784 */
	const struct eevdf_plot_point gap[] = { { 0, 1 },
						{ 1, (double)NAN },
						{ 2, 1 } };
	struct eevdf_plot_series g = { .pts = gap, .n = 3, .steps = true };
	struct eevdf_plot_opts plain = { 0 };
	const struct eevdf_plot_point zero[] = { { 0, 1 } };
	struct eevdf_plot_series s = { .label = "a\"b", .pts = zero, .n = 1 };
	struct eevdf_plot_opts o = { .title = "a<b & c" };
	char *svg;

	ck_assert_int_eq(eevdf_plot_lines_svg(&plain, &g, 1, &svg), 0);
	ck_assert(has(svg, "d=\"M72.00 208.00H428.00 M784.00 208.00\""));
	free(svg);
	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), 0);
	ck_assert(has(svg, ">a&lt;b &amp; c</text>"));
	ck_assert(has(svg, "data-label=\"a&quot;b\""));
	free(svg);
	o.logx = true; /* 0 has no logarithm */
	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), EEVDF_EINVAL);
	ck_assert_ptr_null(svg);
	o.logx = false;
	s.pts = nan_pt;
	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_plot_lines_svg(NULL, &s, 1, &svg), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, NULL), EEVDF_EINVAL);
	o.xmin = 2;
	o.xmax = 1;
	s.pts = zero;
	ck_assert_int_eq(eevdf_plot_lines_svg(&o, &s, 1, &svg), EEVDF_EINVAL);
}
END_TEST

Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");

	tcase_add_test(tc, lines_axes_by_hand);
	tcase_add_test(tc, log_axis_by_hand);
	tcase_add_test(tc, ratio_colours_and_ticks);
	tcase_add_test(tc, timeline_spans_and_legend);
	tcase_add_test(tc, escaping_and_bad_input);
	suite_add_tcase(s, tc);
	return s;
}
