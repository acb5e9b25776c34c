/* SPDX-License-Identifier: MIT */
/*
 * Self-contained SVG plots (eevdf/plot.h): lines (CDFs, lag over time), a
 * timeline of boxes per CPU, and a ratio chart.  Written with nothing but
 * printf: axes with round-numbered ticks (1, 2 or 5 times a power of ten,
 * or the decades of a log axis), coordinates with two decimals.  Doubles
 * appear here only to draw, never in the model.
 */
#include <math.h>
#include <string.h>

#include "lib/strbuf.h"

#define DEF_W 800
#define DEF_H 450
#define M_LEFT 72
#define M_RIGHT 16
#define M_LEGEND 168
#define M_TOP_TITLE 36
#define M_TOP 16
#define M_BOTTOM 50
#define LEGEND_MAX 30

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#79706e", "#1f77b4", "#17becf",
};

#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))

/* An axis: its range [lo, hi], ticks k * step for k in [k0, k1]. */
struct axis {
	double lo, hi, step;
	long k0, k1;
	bool log; /* lo, hi are decades (log10 of the values) */
};

/* The plot area in pixels. */
struct frame {
	double x0, x1, y0, y1;
	int w, h;
};

static void esc(struct sb *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			sb_printf(b, "&amp;");
			break;
		case '<':
			sb_printf(b, "&lt;");
			break;
		case '>':
			sb_printf(b, "&gt;");
			break;
		case '"':
			sb_printf(b, "&quot;");
			break;
		case '\'':
			sb_printf(b, "&#39;");
			break;
		case '\n':
		case '\t':
			sb_printf(b, " ");
			break;
		default:
			/* other control characters are not XML: drop them */
			if ((unsigned char)*s >= 0x20)
				sb_printf(b, "%c", *s);
		}
	}
}

/* A step of 1, 2 or 5 times a power of ten giving about five ticks. */
static double nice_step(double span)
{
	double raw = span / 5, mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	if (norm <= 1)
		return mag;
	if (norm <= 2)
		return 2 * mag;
	if (norm <= 5)
		return 5 * mag;
	return 10 * mag;
}

/*
 * The axis over [min, max]: given (fixed) it is that range, with ticks
 * inside it; otherwise widened to whole steps.  A single value gets a
 * range around it.
 */
static void linear_axis(struct axis *a, double min, double max, bool fixed)
{
	if (max <= min) {
		double d = min != 0 ? fabs(min) * 0.1 : 1;

		min -= d;
		max += d;
	}
	a->log = false;
	a->step = nice_step(max - min);
	a->k0 = (long)(fixed ? ceil(min / a->step - 1e-9) :
			       floor(min / a->step + 1e-9));
	a->k1 = (long)(fixed ? floor(max / a->step + 1e-9) :
			       ceil(max / a->step - 1e-9));
	a->lo = fixed ? min : (double)a->k0 * a->step;
	a->hi = fixed ? max : (double)a->k1 * a->step;
}

/* A log10 axis over whole decades. */
static void log_axis(struct axis *a, double min, double max)
{
	a->log = true;
	a->k0 = (long)floor(log10(min) + 1e-9);
	a->k1 = (long)ceil(log10(max) - 1e-9);
	if (a->k1 <= a->k0)
		a->k1 = a->k0 + 1;
	a->lo = (double)a->k0;
	a->hi = (double)a->k1;
	a->step = 1;
}

static double axis_pos(const struct axis *a, double v)
{
	double t = a->log ? log10(v) : v;

	return (t - a->lo) / (a->hi - a->lo);
}

static double px(const struct frame *f, const struct axis *a, double v)
{
	return f->x0 + axis_pos(a, v) * (f->x1 - f->x0);
}

static double py(const struct frame *f, const struct axis *a, double v)
{
	return f->y1 - axis_pos(a, v) * (f->y1 - f->y0);
}

/* A tick's value as text: %g, and a log axis's decades as 10^k. */
static void tick_text(char *buf, size_t len, const struct axis *a, long k)
{
	double v = a->log ? pow(10, (double)k) : (double)k * a->step;

	if (a->log && (k >= 6 || k <= -4))
		snprintf(buf, len, "1e%ld", k);
	else
		snprintf(buf, len, "%g", fabs(v) < 1e-12 ? 0.0 : v);
}

static void svg_begin(struct sb *b, const struct frame *f, const char *title)
{
	sb_printf(b,
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		  "height=\"%d\" viewBox=\"0 0 %d %d\" "
		  "font-family=\"sans-serif\" font-size=\"12\">\n",
		  f->w, f->h, f->w, f->h);
	if (title) {
		sb_printf(b, "<title>");
		esc(b, title);
		sb_printf(b, "</title>\n");
	}
	sb_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		  f->w, f->h);
	if (title) {
		sb_printf(b,
			  "<text class=\"title\" x=\"%.2f\" y=\"22\" "
			  "text-anchor=\"middle\" font-size=\"15\">",
			  (double)f->w / 2);
		esc(b, title);
		sb_printf(b, "</text>\n");
	}
}

static void frame_init(struct frame *f, const struct eevdf_plot_opts *o,
		       int left, bool legend, int height)
{
	f->w = o->width > 0 ? o->width : DEF_W;
	f->h = o->height > 0 ? o->height : height;
	f->x0 = left;
	f->x1 = f->w - M_RIGHT - (legend ? M_LEGEND : 0);
	f->y0 = o->title ? M_TOP_TITLE : M_TOP;
	f->y1 = f->h - M_BOTTOM;
}

/* The x axis: grid lines, ticks and their numbers, the label. */
static void x_axis(struct sb *b, const struct frame *f, const struct axis *a,
		   const char *label)
{
	char t[32];

	for (long k = a->k0; k <= a->k1; k++) {
		double v = a->log ? pow(10, (double)k) : (double)k * a->step;
		double x = px(f, a, v);

		sb_printf(b,
			  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			  "y2=\"%.2f\" stroke=\"#e0e0e0\"/>\n",
			  x, f->y0, x, f->y1);
		tick_text(t, sizeof(t), a, k);
		sb_printf(b,
			  "<text class=\"xtick\" x=\"%.2f\" y=\"%.2f\" "
			  "text-anchor=\"middle\">%s</text>\n",
			  x, f->y1 + 16, t);
		/* the 2..9 of each decade, unlabelled */
		for (int m = 2; a->log && k < a->k1 && m < 10; m++) {
			double xm = px(f, a, m * v);

			sb_printf(b,
				  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
				  "y2=\"%.2f\" stroke=\"#f2f2f2\"/>\n",
				  xm, f->y0, xm, f->y1);
		}
	}
	sb_printf(b,
		  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		  "stroke=\"black\"/>\n",
		  f->x0, f->y1, f->x1, f->y1);
	if (label) {
		sb_printf(b,
			  "<text class=\"xlabel\" x=\"%.2f\" y=\"%.2f\" "
			  "text-anchor=\"middle\">",
			  (f->x0 + f->x1) / 2, f->y1 + 38);
		esc(b, label);
		sb_printf(b, "</text>\n");
	}
}

static void y_axis(struct sb *b, const struct frame *f, const struct axis *a,
		   const char *label)
{
	char t[32];

	for (long k = a->k0; k <= a->k1; k++) {
		double v = (double)k * a->step, y = py(f, a, v);

		sb_printf(b,
			  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			  "y2=\"%.2f\" stroke=\"#e0e0e0\"/>\n",
			  f->x0, y, f->x1, y);
		tick_text(t, sizeof(t), a, k);
		sb_printf(b,
			  "<text class=\"ytick\" x=\"%.2f\" y=\"%.2f\" "
			  "text-anchor=\"end\">%s</text>\n",
			  f->x0 - 6, y + 4, t);
	}
	sb_printf(b,
		  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		  "stroke=\"black\"/>\n",
		  f->x0, f->y0, f->x0, f->y1);
	if (label) {
		double y = (f->y0 + f->y1) / 2;

		sb_printf(b,
			  "<text class=\"ylabel\" x=\"16\" y=\"%.2f\" "
			  "text-anchor=\"middle\" "
			  "transform=\"rotate(-90 16 %.2f)\">",
			  y, y);
		esc(b, label);
		sb_printf(b, "</text>\n");
	}
}

/* How many legend entries of one line fit in the picture's height. */
static size_t legend_room(const struct frame *f)
{
	double n = floor((f->h - 8 - (f->y0 + 4)) / 18);

	return n < 2 ? 1 : (size_t)n - 1;
}

/*
 * One legend entry in the column right of the plot, at height *y (moved
 * past it): its first line by the colour's square, and each further
 * line of text (after a '\n') smaller below it.
 */
static void legend_entry(struct sb *b, const struct frame *f, double *y,
			 const char *colour, const char *text)
{
	double x = f->x1 + 16;
	const char *nl = strchr(text, '\n');

	sb_printf(b, "<g class=\"legend\">");
	if (colour)
		sb_printf(b,
			  "<rect x=\"%.2f\" y=\"%.2f\" width=\"12\" "
			  "height=\"12\" fill=\"%s\"/>",
			  x, *y, colour);
	sb_printf(b, "<text x=\"%.2f\" y=\"%.2f\">", x + 18, *y + 10);
	while (nl) {
		char line[256];
		size_t n = (size_t)(nl - text);

		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		esc(b, line);
		sb_printf(b,
			  "</text><text x=\"%.2f\" y=\"%.2f\" "
			  "font-size=\"10\">",
			  x + 18, *y + 23);
		*y += 13;
		text = nl + 1;
		nl = strchr(text, '\n');
	}
	esc(b, text);
	sb_printf(b, "</text></g>\n");
	*y += 18;
}

static char *finish(struct sb *b, int *rc)
{
	sb_printf(b, "</svg>\n");
	if (b->err) {
		*rc = b->err;
		free(b->buf);
		return NULL;
	}
	*rc = 0;
	return b->buf;
}

static bool ok(double v)
{
	return isfinite(v);
}

int eevdf_plot_lines_svg(const struct eevdf_plot_opts *o,
			 const struct eevdf_plot_series *s, size_t n,
			 char **out)
{
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL,
	       ymax = -HUGE_VAL;
	struct sb b = { NULL, 0, 0, 0 };
	struct axis ax, ay;
	struct frame f;
	bool legend = false;
	double ly;
	int rc;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!o || (!s && n))
		return EEVDF_EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!s[i].pts && s[i].n)
			return EEVDF_EINVAL;
		legend |= s[i].label != NULL;
		for (size_t k = 0; k < s[i].n + s[i].nr_marks; k++) {
			double x = k < s[i].n ? s[i].pts[k].x :
						s[i].marks[k - s[i].n].x;
			double y = k < s[i].n ? s[i].pts[k].y :
						s[i].marks[k - s[i].n].y;

			/* a point with y NaN breaks the line */
			if (k < s[i].n && isnan(y) && ok(x))
				continue;
			if (!ok(x) || !ok(y) || (o->logx && x <= 0))
				return EEVDF_EINVAL;
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
		}
	}
	if (o->xmin != o->xmax) {
		if (!ok(o->xmin) || !ok(o->xmax) || o->xmin > o->xmax ||
		    (o->logx && o->xmin <= 0))
			return EEVDF_EINVAL;
		xmin = o->xmin;
		xmax = o->xmax;
	}
	if (o->ymin != o->ymax) {
		if (!ok(o->ymin) || !ok(o->ymax) || o->ymin > o->ymax)
			return EEVDF_EINVAL;
		ymin = o->ymin;
		ymax = o->ymax;
	}
	if (xmin > xmax) { /* no data: an empty frame */
		xmin = o->logx ? 1 : 0;
		xmax = o->logx ? 10 : 1;
		ymin = 0;
		ymax = 1;
	}
	if (o->logx)
		log_axis(&ax, xmin, xmax);
	else
		linear_axis(&ax, xmin, xmax, o->xmin != o->xmax);
	linear_axis(&ay, ymin, ymax, o->ymin != o->ymax);
	frame_init(&f, o, M_LEFT, legend, DEF_H);
	svg_begin(&b, &f, o->title);
	x_axis(&b, &f, &ax, o->xlabel);
	y_axis(&b, &f, &ay, o->ylabel);
	ly = f.y0 + 4;
	for (size_t i = 0; i < n; i++) {
		const char *c = palette[i % NR_COLOURS];
		bool clip = o->xmin != o->xmax || o->ymin != o->ymax;

		sb_printf(&b, "<path class=\"series\" data-label=\"");
		esc(&b, s[i].label ? s[i].label : "");
		sb_printf(&b,
			  "\" fill=\"none\" stroke=\"%s\" "
			  "stroke-width=\"1.5\" d=\"",
			  c);
		bool pen_up = true;

		for (size_t k = 0; k < s[i].n; k++) {
			double x = px(&f, &ax, s[i].pts[k].x), y;

			if (isnan(s[i].pts[k].y)) {
				/* a gap: a step line ends where it breaks */
				if (!pen_up && s[i].steps)
					sb_printf(&b, "H%.2f",
						  clip ? fmin(fmax(x, f.x0),
							      f.x1) :
							 x);
				pen_up = true;
				continue;
			}
			y = py(&f, &ay, s[i].pts[k].y);
			if (clip) {
				x = fmin(fmax(x, f.x0), f.x1);
				y = fmin(fmax(y, f.y0), f.y1);
			}
			if (pen_up)
				sb_printf(&b, "%sM%.2f %.2f", k ? " " : "", x,
					  y);
			else if (s[i].steps)
				sb_printf(&b, "H%.2fV%.2f", x, y);
			else
				sb_printf(&b, "L%.2f %.2f", x, y);
			pen_up = false;
		}
		sb_printf(&b, "\"/>\n");
		for (size_t k = 0; k < s[i].nr_marks; k++) {
			const struct eevdf_plot_mark *m = &s[i].marks[k];
			double x = px(&f, &ax, m->x), y = py(&f, &ay, m->y);

			sb_printf(&b,
				  "<g class=\"mark\"><circle cx=\"%.2f\" "
				  "cy=\"%.2f\" r=\"3\" fill=\"%s\"/>",
				  x, y, c);
			if (m->label) {
				bool left = x > f.x1 - 60;

				sb_printf(&b,
					  "<text x=\"%.2f\" y=\"%.2f\" "
					  "font-size=\"10\"%s>",
					  left ? x - 5 : x + 5, y + 12,
					  left ? " text-anchor=\"end\"" : "");
				esc(&b, m->label);
				sb_printf(&b, "</text>");
			}
			sb_printf(&b, "</g>\n");
		}
		if (legend && i < LEGEND_MAX)
			legend_entry(&b, &f, &ly, c,
				     s[i].label ? s[i].label : "");
	}
	if (legend && n > LEGEND_MAX) {
		char more[48];

		snprintf(more, sizeof(more), "... and %zu more",
			 n - LEGEND_MAX);
		legend_entry(&b, &f, &ly, NULL, more);
	}
	*out = finish(&b, &rc);
	return rc;
}

/* A pixel column of a timeline row, for runs narrower than a pixel. */
struct tl_col {
	double len; /* of the longest run in it, pixels */
	int key;
	double start, end;
};

static void tl_box(struct sb *b, const struct frame *f, double rh, int row,
		   int key, double x0, double x1, const char *name,
		   double start, double end)
{
	sb_printf(b,
		  "<rect class=\"span\" data-row=\"%d\" data-key=\"%d\" "
		  "x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		  "fill=\"%s\"><title>",
		  row, key, x0, f->y0 + rh * row + 2, fmax(x1 - x0, 0.5),
		  fmax(rh - 4, 1), palette[(size_t)key % NR_COLOURS]);
	esc(b, name);
	sb_printf(b, " %g to %g</title></rect>\n", start, end);
}

int eevdf_plot_timeline_svg(const struct eevdf_plot_opts *o,
			    const char *const *rows, size_t nr_rows,
			    const char *const *keys, size_t nr_keys,
			    const struct eevdf_plot_span *spans, size_t n,
			    char **out)
{
	double xmin = HUGE_VAL, xmax = -HUGE_VAL, rh, ly;
	struct sb b = { NULL, 0, 0, 0 };
	struct axis ax;
	struct frame f;
	bool fixed = o && o->xmin != o->xmax;
	struct tl_col *cols;
	size_t ncol, lmax;
	int rc;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!o || !rows || !nr_rows || (!keys && nr_keys) || (!spans && n))
		return EEVDF_EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (spans[i].row < 0 || (size_t)spans[i].row >= nr_rows ||
		    spans[i].key < 0 || (size_t)spans[i].key >= nr_keys ||
		    !ok(spans[i].start) || !ok(spans[i].end) ||
		    spans[i].end < spans[i].start)
			return EEVDF_EINVAL;
		xmin = fmin(xmin, spans[i].start);
		xmax = fmax(xmax, spans[i].end);
	}
	if (fixed) {
		if (!ok(o->xmin) || !ok(o->xmax) || o->xmin > o->xmax)
			return EEVDF_EINVAL;
		xmin = o->xmin;
		xmax = o->xmax;
	} else if (xmin > xmax) {
		xmin = 0;
		xmax = 1;
	}
	linear_axis(&ax, xmin, xmax, fixed);
	frame_init(&f, o, M_LEFT, nr_keys > 0,
		   (int)fmax(DEF_H / 2.0, 100 + 28 * (double)nr_rows));
	rh = (f.y1 - f.y0) / (double)nr_rows;
	svg_begin(&b, &f, o->title);
	x_axis(&b, &f, &ax, o->xlabel);
	for (size_t r = 0; r < nr_rows; r++) {
		sb_printf(&b,
			  "<text class=\"ytick\" x=\"%.2f\" y=\"%.2f\" "
			  "text-anchor=\"end\">",
			  f.x0 - 6, f.y0 + rh * ((double)r + 0.5) + 4);
		esc(&b, rows[r]);
		sb_printf(&b, "</text>\n");
	}
	ncol = (size_t)ceil(f.x1 - f.x0) + 1;
	cols = calloc(nr_rows * ncol, sizeof(*cols));
	if (!cols) {
		free(b.buf);
		return EEVDF_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct eevdf_plot_span *sp = &spans[i];
		double a = fmax(sp->start, ax.lo), e = fmin(sp->end, ax.hi);
		double x0, x1;

		if (e <= a)
			continue;
		x0 = px(&f, &ax, a);
		x1 = px(&f, &ax, e);
		if (x1 - x0 < 1) {
			/* narrower than a pixel: its column shows the
			 * longest such run in it */
			struct tl_col *c = &cols[(size_t)sp->row * ncol +
						 (size_t)(x0 - f.x0)];

			if (x1 - x0 > c->len) {
				c->len = x1 - x0;
				c->key = sp->key;
				c->start = sp->start;
				c->end = sp->end;
			}
			continue;
		}
		tl_box(&b, &f, rh, sp->row, sp->key, x0, x1, keys[sp->key],
		       sp->start, sp->end);
	}
	/* (a span has a key, so there are keys when there are spans) */
	for (size_t r = 0; keys && r < nr_rows; r++)
		for (size_t c = 0; c < ncol; c++) {
			const struct tl_col *k = &cols[r * ncol + c];

			if (k->len > 0)
				tl_box(&b, &f, rh, (int)r, k->key,
				       f.x0 + (double)c, f.x0 + (double)c + 1,
				       keys[k->key], k->start, k->end);
		}
	free(cols);
	ly = f.y0 + 4;
	lmax = legend_room(&f) < LEGEND_MAX ? legend_room(&f) : LEGEND_MAX;
	for (size_t k = 0; k < nr_keys && k < lmax; k++)
		legend_entry(&b, &f, &ly, palette[k % NR_COLOURS], keys[k]);
	if (nr_keys > lmax) {
		char more[48];

		snprintf(more, sizeof(more), "... and %zu more",
			 nr_keys - lmax);
		legend_entry(&b, &f, &ly, NULL, more);
	}
	*out = finish(&b, &rc);
	return rc;
}

int eevdf_plot_ratio_svg(const struct eevdf_plot_opts *o,
			 const struct eevdf_plot_bar *bars, size_t n,
			 char **out)
{
	double xmin = 1, xmax = 1, rh;
	struct sb b = { NULL, 0, 0, 0 };
	struct axis ax;
	struct frame f;
	int rc;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!o || (!bars && n))
		return EEVDF_EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!ok(bars[i].value) || !ok(bars[i].lo) || !ok(bars[i].hi) ||
		    bars[i].lo > bars[i].hi)
			return EEVDF_EINVAL;
		xmin = fmin(xmin, fmin(bars[i].lo, bars[i].value));
		xmax = fmax(xmax, fmax(bars[i].hi, bars[i].value));
	}
	if (o->xmin != o->xmax) {
		if (!ok(o->xmin) || !ok(o->xmax) || o->xmin > o->xmax)
			return EEVDF_EINVAL;
		xmin = o->xmin;
		xmax = o->xmax;
	}
	linear_axis(&ax, xmin, xmax, o->xmin != o->xmax);
	frame_init(&f, o, 200, false, 100 + 30 * (int)(n ? n : 1));
	rh = (f.y1 - f.y0) / (double)(n ? n : 1);
	svg_begin(&b, &f, o->title);
	x_axis(&b, &f, &ax, o->xlabel ? o->xlabel : "ratio b/a");
	sb_printf(&b,
		  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		  "stroke=\"black\" stroke-dasharray=\"4 3\"/>\n",
		  px(&f, &ax, 1), f.y0, px(&f, &ax, 1), f.y1);
	for (size_t i = 0; i < n; i++) {
		const struct eevdf_plot_bar *r = &bars[i];
		double y = f.y0 + rh * ((double)i + 0.5);
		const char *c = "#79706e";

		if ((r->value > 1 && r->better > 0) ||
		    (r->value < 1 && r->better < 0))
			c = "#59a14f";
		else if ((r->value < 1 && r->better > 0) ||
			 (r->value > 1 && r->better < 0))
			c = "#e15759";
		sb_printf(&b,
			  "<text class=\"ytick\" x=\"%.2f\" y=\"%.2f\" "
			  "text-anchor=\"end\">",
			  f.x0 - 8, y + 4);
		esc(&b, r->label ? r->label : "");
		sb_printf(&b, "</text>\n");
		sb_printf(&b,
			  "<g class=\"bar\" data-value=\"%.6g\"><line "
			  "x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
			  "stroke=\"%s\" stroke-width=\"2\"/><circle "
			  "cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\"/>"
			  "<text x=\"%.2f\" y=\"%.2f\">%.3f</text></g>\n",
			  r->value, px(&f, &ax, fmax(r->lo, ax.lo)), y,
			  px(&f, &ax, fmin(r->hi, ax.hi)), y, c,
			  px(&f, &ax, r->value), y, c,
			  fmin(px(&f, &ax, fmin(r->hi, ax.hi)) + 8, f.x1 - 30),
			  y - 8, r->value);
	}
	*out = finish(&b, &rc);
	return rc;
}
