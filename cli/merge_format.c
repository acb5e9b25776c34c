/* SPDX-License-Identifier: MIT */
/*
 * merge's table in four formats.  Text and Markdown follow the layout of
 * the scheduler mailing list's tables: a block per metric, a row per
 * configuration, the spread over the seeds, and the ratio to the
 * baseline written as "vs BASE .940"; CSV has one row per configuration
 * and every statistic of every metric as columns; JSON has everything,
 * each value per seed too, for scripts.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* A figure as compare prints one: 6 significant digits, 10 from 10^6. */
static void fmt_fig(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*g", fabs(v) >= 1e6 ? 10 : 6, v);
}

/* A ratio as the mailing list writes it: .940, 1.012. */
static void fmt_ratio(double r, char *buf, size_t len)
{
	char tmp[64];

	if (isnan(r) || isinf(r)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.3f", r);
	snprintf(buf, len, "%s", strncmp(tmp, "0.", 2) == 0 ? tmp + 1 : tmp);
}

/* A CSV number: 10 significant digits, more than a simulated figure
 * means (the JSON has every bit); empty for none. */
static void fmt_csv(double v, char *buf, size_t len)
{
	if (isnan(v) || isinf(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.10g", v);
}

static double ratio_of(const struct merge *m, const struct merge_row *row,
		       size_t f)
{
	const struct merge_row *ref;

	if (row->ref < 0 || !row->st[f].n)
		return (double)NAN;
	ref = &m->rows[row->ref];
	if (!ref->st[f].n || ref->st[f].mean == 0)
		return (double)NAN;
	return row->st[f].mean / ref->st[f].mean;
}

/* The statistics' columns of a block. */
static const char *const stat_cols[] = { "n",	"mean", "stddev",
					 "min", "max",	"ci95 +-" };

/*
 * An axis's column title: param.nprocs is nprocs, unless another axis or
 * a statistic has that name.
 */
static const char *title(const struct merge *m, size_t a)
{
	const char *t = m->axes[a];

	if (strncmp(t, "param.", 6) != 0)
		return t;
	for (size_t b = 0; b < m->nr_axes; b++)
		if (strcmp(m->axes[b], t + 6) == 0)
			return t;
	for (size_t i = 0; i < ARRAY_LEN(stat_cols); i++)
		if (strcmp(stat_cols[i], t + 6) == 0)
			return t;
	return t + 6;
}

/* "cfs-6.1/default": the baseline's labels. */
static void base_name(const struct merge *m, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < m->nr_axes && at < len; a++)
		if (m->base[a])
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "/" : "", m->base[a]);
}

/* The lines above the tables; prefix and suffix make it Markdown. */
static void print_head(const struct merge *m, FILE *out, bool md)
{
	size_t configs = m->nr_rows;

	fprintf(out, "%s%s%s: %zu point%s", md ? "**" : "", m->sweep,
		md ? "**" : "", m->nr_points, m->nr_points == 1 ? "" : "s");
	if (m->seed_axis >= 0) {
		fprintf(out, ", %zu configuration%s x %zu seeds (", configs,
			configs == 1 ? "" : "s", m->nr_seeds);
		for (size_t i = 0; i < m->nr_seeds; i++)
			fprintf(out, "%s%s", i ? ", " : "", m->seeds[i]);
		fputc(')', out);
	} else {
		fprintf(out, ", %zu configuration%s, one run each", configs,
			configs == 1 ? "" : "s");
	}
	if (m->nr_found < m->nr_points)
		fprintf(out, ", %zu without results",
			m->nr_points - m->nr_found);
	fputs(md ? "  \n" : "\n", out);
	if (m->have_base) {
		bool any = false;

		fputs("baseline:", out);
		for (size_t a = 0; a < m->nr_axes; a++)
			if (m->base[a]) {
				fprintf(out, " %s=%s", m->axes[a], m->base[a]);
				any = true;
			}
		fputs(any ? "\n" : " none\n", out);
	}
}

/* A text or Markdown table: cells by row, the header row first. */
struct table {
	size_t ncol, nrow;
	char **cell; /* malloc'd; NULL is "" */
	size_t *width;
	bool *right; /* right-aligned: numbers */
	bool *text;  /* left-aligned even when it reads as numbers */
	bool nomem;
};

static bool table_init(struct table *t, size_t ncol, size_t nrow)
{
	t->ncol = ncol;
	t->nrow = nrow;
	t->nomem = false;
	t->cell = calloc(ncol * nrow, sizeof(*t->cell));
	t->width = calloc(ncol, sizeof(*t->width));
	t->right = calloc(ncol, sizeof(*t->right));
	t->text = calloc(ncol, sizeof(*t->text));
	return t->cell && t->width && t->right && t->text;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; t->cell && i < t->ncol * t->nrow; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->width);
	free(t->right);
	free(t->text);
}

static const char *cell(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cell[r * t->ncol + c];

	return s ? s : "";
}

static void set_cell(struct table *t, size_t r, size_t c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set_cell(struct table *t, size_t r, size_t c, const char *fmt, ...)
{
	char **s = &t->cell[r * t->ncol + c];
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(s, fmt, ap) < 0) {
		*s = NULL;
		t->nomem = true;
	}
	va_end(ap);
}

/* Characters of UTF-8 text s (the ± of Markdown is two bytes, one
 * column). */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A column of labels that are all numbers reads best right-aligned. */
static bool numeric(const char *s)
{
	char *end;

	if (!*s)
		return false;
	(void)strtod(s, &end);
	return *end == '\0';
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void table_print(struct table *t, FILE *out, bool md)
{
	for (size_t c = 0; c < t->ncol; c++) {
		bool nums = t->nrow > 1;

		/* Markdown's alignment row needs three dashes or so */
		t->width[c] = md ? 3 : 0;
		for (size_t r = 0; r < t->nrow; r++) {
			if (columns(cell(t, r, c)) > t->width[c])
				t->width[c] = columns(cell(t, r, c));
			nums &= r == 0 || numeric(cell(t, r, c));
		}
		t->right[c] |= nums && !t->text[c];
	}
	for (size_t r = 0; r < t->nrow; r++) {
		for (size_t c = 0; c < t->ncol; c++) {
			const char *s = cell(t, r, c);
			size_t gap = t->width[c] - columns(s);

			if (md)
				fputs(c ? " | " : "| ", out);
			else if (c)
				fputs("  ", out);
			if (t->right[c])
				pad(out, gap);
			fputs(s, out);
			if (!t->right[c] && (md || c + 1 < t->ncol))
				pad(out, gap);
		}
		fputs(md ? " |\n" : "\n", out);
		if (md && r == 0) {
			/* the alignment row */
			for (size_t c = 0; c < t->ncol; c++) {
				size_t w = t->width[c];

				fputs(c ? " | " : "| ", out);
				if (!t->right[c])
					fputc(':', out);
				for (size_t i = 1; i < w; i++)
					fputc('-', out);
				if (t->right[c])
					fputc(':', out);
			}
			fputs(" |\n", out);
		}
	}
}

/* Metric f's block: one row per configuration. */
static bool print_block(const struct merge *m, size_t f, FILE *out, bool md)
{
	struct table t;
	size_t nax = m->nr_axes - (m->seed_axis >= 0), c = 0;
	size_t ncol = nax + ARRAY_LEN(stat_cols) + m->have_base;
	char base[256], v[5][48];
	bool ok;

	if (!table_init(&t, ncol, m->nr_rows + 1)) {
		table_free(&t);
		return false;
	}
	for (size_t a = 0; a < m->nr_axes; a++)
		if ((long)a != m->seed_axis) {
			/* 6.12 is a release, not a number */
			t.text[c] = strcmp(m->axes[a], "kernel") == 0;
			set_cell(&t, 0, c++, "%s", title(m, a));
		}
	for (size_t i = 0; i < ARRAY_LEN(stat_cols); i++) {
		t.right[c] = true;
		set_cell(&t, 0, c++, "%s",
			 md && i == 5 ? "95% CI" : stat_cols[i]);
	}
	if (m->have_base) {
		base_name(m, base, sizeof(base));
		t.right[c] = true;
		set_cell(&t, 0, c++, "vs %s", base);
	}
	for (size_t r = 0; r < m->nr_rows; r++) {
		const struct merge_row *row = &m->rows[r];
		const struct eevdf_stats *s = &row->st[f];
		double nan = (double)NAN;

		c = 0;
		for (size_t a = 0; a < m->nr_axes; a++)
			if ((long)a != m->seed_axis)
				set_cell(&t, r + 1, c++, "%s", row->labels[a]);
		fmt_fig(s->n ? s->mean : nan, v[0], sizeof(v[0]));
		fmt_fig(s->n ? s->stddev : nan, v[1], sizeof(v[1]));
		fmt_fig(s->n ? s->min : nan, v[2], sizeof(v[2]));
		fmt_fig(s->n ? s->max : nan, v[3], sizeof(v[3]));
		fmt_fig(s->n ? s->ci95 : nan, v[4], sizeof(v[4]));
		set_cell(&t, r + 1, c++, "%zu", s->n);
		for (size_t i = 0; i < 4; i++)
			set_cell(&t, r + 1, c++, "%s", v[i]);
		/* the half-width: +-, or ± in Markdown */
		set_cell(&t, r + 1, c++, "%s%s",
			 md && strcmp(v[4], "-") != 0 ? "±" : "", v[4]);
		if (m->have_base) {
			fmt_ratio(ratio_of(m, row, f), base, sizeof(base));
			set_cell(&t, r + 1, c++, "%s", base);
		}
	}
	fprintf(out, "\n%s%s%s\n%s", md ? "**" : "", m->metrics[f],
		md ? "**" : "", md ? "\n" : "");
	ok = !t.nomem;
	if (ok)
		table_print(&t, out, md);
	table_free(&t);
	return ok;
}

/* A CSV field: quoted when it holds a comma, a quote or a line end. */
static void csv_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
	char buf[64];

	fmt_csv(v, buf, sizeof(buf));
	csv_field(out, buf, false);
}

static void print_csv(const struct merge *m, FILE *out)
{
	static const char *const stat[] = { "n",   "mean",    "stddev", "min",
					    "max", "ci95_lo", "ci95_hi" };
	bool first = true;

	for (size_t a = 0; a < m->nr_axes; a++)
		if ((long)a != m->seed_axis) {
			csv_field(out, m->axes[a], first);
			first = false;
		}
	for (size_t f = 0; f < m->nr_metrics; f++) {
		char name[256];

		for (size_t i = 0; i < ARRAY_LEN(stat); i++) {
			snprintf(name, sizeof(name), "%s.%s", m->metrics[f],
				 stat[i]);
			csv_field(out, name, first);
			first = false;
		}
		if (m->have_base) {
			snprintf(name, sizeof(name), "%s.vs_baseline",
				 m->metrics[f]);
			csv_field(out, name, false);
		}
	}
	fputc('\n', out);
	for (size_t r = 0; r < m->nr_rows; r++) {
		const struct merge_row *row = &m->rows[r];

		first = true;
		for (size_t a = 0; a < m->nr_axes; a++)
			if ((long)a != m->seed_axis) {
				csv_field(out, row->labels[a], first);
				first = false;
			}
		for (size_t f = 0; f < m->nr_metrics; f++) {
			const struct eevdf_stats *s = &row->st[f];
			double nan = (double)NAN;
			char n[32];

			snprintf(n, sizeof(n), "%zu", s->n);
			csv_field(out, n, first);
			first = false;
			csv_num(out, s->n ? s->mean : nan);
			csv_num(out, s->n ? s->stddev : nan);
			csv_num(out, s->n ? s->min : nan);
			csv_num(out, s->n ? s->max : nan);
			csv_num(out, s->n ? s->mean - s->ci95 : nan);
			csv_num(out, s->n ? s->mean + s->ci95 : nan);
			if (m->have_base)
				csv_num(out, ratio_of(m, row, f));
		}
		fputc('\n', out);
	}
}

/* A number, or null for none (NaN). */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static cJSON *row_json(const struct merge *m, const struct merge_row *row)
{
	cJSON *r = cJSON_CreateObject(), *config, *metrics;

	if (!r)
		return NULL;
	config = cJSON_AddObjectToObject(r, "config");
	for (size_t a = 0; config && a < m->nr_axes; a++)
		if ((long)a != m->seed_axis)
			cJSON_AddStringToObject(config, m->axes[a],
						row->labels[a]);
	cJSON_AddNumberToObject(r, "n", (double)row->n);
	cJSON_AddNumberToObject(r, "expected", (double)row->expected);
	cJSON_AddNumberToObject(r, "incomplete", (double)row->incomplete);
	metrics = cJSON_AddObjectToObject(r, "metrics");
	for (size_t f = 0; metrics && f < m->nr_metrics; f++) {
		const struct eevdf_stats *s = &row->st[f];
		cJSON *x = cJSON_AddObjectToObject(metrics, m->metrics[f]);
		cJSON *vals, *ci;
		double nan = (double)NAN;

		if (!x)
			break;
		cJSON_AddNumberToObject(x, "n", (double)s->n);
		add_num(x, "mean", s->n ? s->mean : nan);
		add_num(x, "stddev", s->n ? s->stddev : nan);
		add_num(x, "min", s->n ? s->min : nan);
		add_num(x, "max", s->n ? s->max : nan);
		if (s->n && !isnan(s->ci95)) {
			ci = cJSON_AddArrayToObject(x, "ci95");
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(s->mean - s->ci95));
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(s->mean + s->ci95));
		} else {
			cJSON_AddNullToObject(x, "ci95");
		}
		vals = cJSON_AddArrayToObject(x, "values");
		for (size_t i = 0; vals && i < s->n; i++)
			cJSON_AddItemToArray(
				vals,
				cJSON_CreateNumber(
					row->values[f * row->expected + i]));
		if (m->have_base)
			add_num(x, "vs_baseline", ratio_of(m, row, f));
	}
	return r;
}

static bool print_json(const struct merge *m, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *arr, *base;
	char *text;

	if (!root)
		return false;
	cJSON_AddStringToObject(root, "format", "eevdf-sim-merge/1");
	cJSON_AddStringToObject(root, "sweep", m->sweep);
	cJSON_AddNumberToObject(root, "points", (double)m->nr_points);
	cJSON_AddNumberToObject(root, "points_with_results",
				(double)m->nr_found);
	arr = cJSON_AddArrayToObject(root, "axes");
	for (size_t a = 0; arr && a < m->nr_axes; a++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(m->axes[a]));
	arr = cJSON_AddArrayToObject(root, "seeds");
	for (size_t i = 0; arr && i < m->nr_seeds; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(m->seeds[i]));
	arr = cJSON_AddArrayToObject(root, "metrics");
	for (size_t f = 0; arr && f < m->nr_metrics; f++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(m->metrics[f]));
	if (m->have_base) {
		base = cJSON_AddObjectToObject(root, "baseline");
		for (size_t a = 0; base && a < m->nr_axes; a++)
			if (m->base[a])
				cJSON_AddStringToObject(base, m->axes[a],
							m->base[a]);
	} else {
		cJSON_AddNullToObject(root, "baseline");
	}
	arr = cJSON_AddArrayToObject(root, "rows");
	for (size_t r = 0; arr && r < m->nr_rows; r++)
		cJSON_AddItemToArray(arr, row_json(m, &m->rows[r]));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return false;
	fputs(text, out);
	fputc('\n', out);
	cJSON_free(text);
	return true;
}

bool merge_print(const struct merge *m, enum merge_format f, FILE *out)
{
	switch (f) {
	case MERGE_CSV:
		print_csv(m, out);
		break;
	case MERGE_JSON:
		if (!print_json(m, out))
			return false;
		break;
	case MERGE_TEXT:
	case MERGE_MD:
		print_head(m, out, f == MERGE_MD);
		for (size_t i = 0; i < m->nr_metrics; i++)
			if (!print_block(m, i, out, f == MERGE_MD))
				return false;
		break;
	}
	return !ferror(out);
}
