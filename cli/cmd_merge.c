/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim merge DIR: read a sweep's manifest and the results of its
 * points, group the points into configurations (every axis but the
 * seed), and tabulate each metric over the seeds with the ratio to the
 * baseline configuration.  Everything is read in the manifest's order of
 * points, so the table is the same bytes whichever engine ran the points,
 * with how many workers, in whatever order they finished.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* Points named when some are missing or failed. */
#define SHOW_MISSING 10

struct merge_opts {
	const char *dir;
	const char *output;
	enum merge_format format;
	const char *metrics[MERGE_METRICS_MAX];
	size_t nr_metrics;
	const char *baseline; /* AXIS=LABEL,...; "none" */
	bool allow_missing;
};

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "metric", required_argument, NULL, 'm' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "allow-missing", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void merge_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " merge DIR [OPTIONS]\n"
		"\n"
		"Tabulate the results of the sweep in DIR (what '" PROG
		" sweep' wrote,\n"
		"here or on a cluster): one row per configuration, every axis "
		"but the\n"
		"seed, and per metric the mean, sample standard deviation, "
		"min, max and\n"
		"95%% confidence interval of the mean over the seeds "
		"(Student's t), and\n"
		"the ratio of the mean to the baseline configuration's, "
		"'vs BASE .940'.\n"
		"\n"
		"Options:\n"
		"  --format FMT        text (default), md (Markdown, for a "
		"mail or a PR),\n"
		"                      csv (one row per configuration) or "
		"json\n"
		"  -o, --output FILE   write the table to FILE atomically "
		"(default stdout)\n"
		"  --metric NAME       tabulate NAME: a key of the results' "
		"summary or a\n"
		"                      workload metric (NAME, NAME.p99, "
		"NAME[KEY].mean);\n"
		"                      repeatable (default: the spec's "
		"\"metrics\", else the\n"
		"                      report's headlines, max_delay_ns and "
		"context_switches)\n"
		"  --baseline AXIS=LABEL[,AXIS=LABEL]  the configuration the "
		"ratios are\n"
		"                      against, on the axes it names (default: "
		"the spec's\n"
		"                      \"baseline\"); 'none' for no ratios\n"
		"  --allow-missing     tabulate what is there when points have "
		"no results\n"
		"                      (default: list them and fail)\n"
		"  -h, --help          show this help\n");
}

static int parse_options(int argc, char **argv, struct merge_opts *o)
{
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ho:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o->format = MERGE_TEXT;
			else if (strcmp(optarg, "csv") == 0)
				o->format = MERGE_CSV;
			else if (strcmp(optarg, "json") == 0)
				o->format = MERGE_JSON;
			else if (strcmp(optarg, "md") == 0 ||
				 strcmp(optarg, "markdown") == 0)
				o->format = MERGE_MD;
			else {
				cli_error("--format: unknown format '%s': "
					  "expected text, md, csv or json",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'm':
			if (o->nr_metrics == MERGE_METRICS_MAX) {
				cli_error("--metric: at most %d",
					  MERGE_METRICS_MAX);
				return EXIT_USAGE;
			}
			o->metrics[o->nr_metrics++] = optarg;
			break;
		case 'b':
			o->baseline = optarg;
			break;
		case 'a':
			o->allow_missing = true;
			break;
		case 'h':
			merge_usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("merge: option '%s' needs a value",
				  argv[optind - 1]);
			return EXIT_USAGE;
		default:
			cli_error("merge: unknown option '%s'",
				  argv[optind - 1]);
			fprintf(stderr, "Try '" PROG " merge --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("merge: missing DIR, the output directory of a "
			  "sweep");
		merge_usage(stderr);
		return EXIT_USAGE;
	}
	o->dir = argv[optind++];
	if (optind < argc) {
		cli_error("merge: unexpected argument '%s' (one DIR)",
			  argv[optind]);
		return EXIT_USAGE;
	}
	return -1;
}

static char *jstr(const cJSON *o, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* The axes of the manifest: names, and the seed axis's labels. */
static bool read_axes(const cJSON *man, const char *path, struct merge *m)
{
	const cJSON *axes = cJSON_GetObjectItemCaseSensitive(man, "axes"), *a;
	size_t i = 0;

	m->nr_axes = (size_t)cJSON_GetArraySize(axes);
	m->axes = calloc(m->nr_axes + 1, sizeof(*m->axes));
	m->base = calloc(m->nr_axes + 1, sizeof(*m->base));
	if (!m->axes || !m->base) {
		cli_error("out of memory");
		return false;
	}
	m->seed_axis = -1;
	cJSON_ArrayForEach(a, axes)
	{
		const char *name = jstr(a, "name");
		const cJSON *vals = cJSON_GetObjectItemCaseSensitive(a,
								     "values");

		if (!name || !cJSON_IsArray(vals)) {
			cli_error("%s: axes[%zu]: an axis has a name and "
				  "values",
				  path, i);
			return false;
		}
		m->axes[i] = name;
		if (strcmp(name, "seed") == 0) {
			const cJSON *v;
			size_t k = 0;

			m->seed_axis = (long)i;
			m->nr_seeds = (size_t)cJSON_GetArraySize(vals);
			m->seeds = calloc(m->nr_seeds + 1, sizeof(*m->seeds));
			if (!m->seeds) {
				cli_error("out of memory");
				return false;
			}
			cJSON_ArrayForEach(v, vals)
				m->seeds[k++] = cJSON_IsString(v) ?
							v->valuestring :
							"?";
		}
		i++;
	}
	return true;
}

/*
 * The baseline: --baseline AXIS=LABEL,... else the manifest's.  A label
 * must be one of its axis's values; the seed cannot be one.
 */
static bool read_baseline(const cJSON *man, const char *opt, struct merge *m)
{
	const cJSON *axes = cJSON_GetObjectItemCaseSensitive(man, "axes");
	char buf[1024], *save = NULL, *tok;

	if (opt && strcmp(opt, "none") == 0)
		return true;
	if (!opt) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(man,
								  "baseline");
		const cJSON *it;

		cJSON_ArrayForEach(it, b)
		{
			for (size_t a = 0; a < m->nr_axes; a++)
				if (cJSON_IsString(it) &&
				    strcmp(m->axes[a], it->string) == 0)
					m->base[a] = it->valuestring;
		}
		for (size_t a = 0; a < m->nr_axes; a++)
			m->have_base |= m->base[a] != NULL;
		return true;
	}
	snprintf(buf, sizeof(buf), "%s", opt);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const cJSON *ax = NULL, *v;
		size_t a;

		if (!eq) {
			cli_error(
				"--baseline: expected AXIS=LABEL[,AXIS=LABEL], "
				"got '%s'",
				opt);
			return false;
		}
		*eq = '\0';
		for (a = 0; a < m->nr_axes; a++)
			if (strcmp(m->axes[a], tok) == 0 ||
			    (strncmp(m->axes[a], "param.", 6) == 0 &&
			     strcmp(m->axes[a] + 6, tok) == 0))
				break;
		if (a == m->nr_axes || (long)a == m->seed_axis) {
			cli_error("--baseline: '%s' is %s", tok,
				  a == m->nr_axes ?
					  "not an axis of the sweep" :
					  "the seed: merge aggregates over it");
			return false;
		}
		ax = cJSON_GetArrayItem(axes, (int)a);
		cJSON_ArrayForEach(
			v, cJSON_GetObjectItemCaseSensitive(ax, "values"))
		{
			if (cJSON_IsString(v) &&
			    strcmp(v->valuestring, eq + 1) == 0)
				m->base[a] = v->valuestring;
		}
		if (!m->base[a]) {
			cli_error("--baseline: '%s' is not a value of axis "
				  "'%s'",
				  eq + 1, m->axes[a]);
			return false;
		}
		m->have_base = true;
	}
	return true;
}

/*
 * A zip group moves as one: a baseline value of one of its axes sets the
 * others to the same place in their lists.
 */
static void zip_baseline(const cJSON *man, struct merge *m)
{
	const cJSON *axes = cJSON_GetObjectItemCaseSensitive(man, "axes");

	for (size_t a = 0; a < m->nr_axes; a++) {
		const cJSON *ax = cJSON_GetArrayItem(axes, (int)a), *v;
		const char *zip = jstr(ax, "zip");
		int at = 0, pos = -1;

		if (!m->base[a] || !zip)
			continue;
		cJSON_ArrayForEach(
			v, cJSON_GetObjectItemCaseSensitive(ax, "values"))
		{
			if (pos < 0 && cJSON_IsString(v) &&
			    strcmp(v->valuestring, m->base[a]) == 0)
				pos = at;
			at++;
		}
		for (size_t b = 0; b < m->nr_axes && pos >= 0; b++) {
			const cJSON *bx = cJSON_GetArrayItem(axes, (int)b);
			const char *bz = jstr(bx, "zip");
			const cJSON *bv;

			if (b == a || m->base[b] || !bz || strcmp(bz, zip))
				continue;
			bv = cJSON_GetArrayItem(
				cJSON_GetObjectItemCaseSensitive(bx, "values"),
				pos);
			if (cJSON_IsString(bv))
				m->base[b] = bv->valuestring;
		}
	}
}

/* Whether the metrics already name s. */
static bool have_metric(const struct merge *m, const char *s)
{
	for (size_t f = 0; f < m->nr_metrics; f++)
		if (strcmp(m->metrics[f], s) == 0)
			return true;
	return false;
}

/*
 * The default metrics: the headlines of every point's summary (several
 * workloads have several reports), in the order they come, then two of
 * the totals every run has.
 */
static void default_metrics(const cJSON *results, struct merge *m)
{
	static const char *const totals[] = { "total_cpu_ns",
					      "total_delay_sum_ns",
					      "max_delay_ns", "nr_tasks",
					      "context_switches" };
	const cJSON *it;

	cJSON_ArrayForEach(it,
			   cJSON_GetObjectItemCaseSensitive(results, "summary"))
	{
		bool total = false;

		for (size_t i = 0; i < ARRAY_LEN(totals); i++)
			total |= strcmp(it->string, totals[i]) == 0;
		if (!total && cJSON_IsNumber(it) &&
		    m->nr_metrics < MERGE_METRICS_MAX - 2 &&
		    !have_metric(m, it->string))
			m->metrics[m->nr_metrics++] = it->string;
	}
}

/* Row of the labels of point p (its values, but the seed's). */
static bool same_config(const struct merge *m, const struct merge_row *r,
			const char **labels)
{
	for (size_t a = 0; a < m->nr_axes; a++)
		if ((long)a != m->seed_axis &&
		    strcmp(r->labels[a], labels[a]) != 0)
			return false;
	return true;
}

static long find_row(const struct merge *m, const char **labels)
{
	for (size_t r = m->nr_rows; r-- > 0;)
		if (same_config(m, &m->rows[r], labels))
			return (long)r;
	return -1;
}

/* What merge keeps of one point. */
struct point {
	const cJSON *entry; /* the manifest's */
	cJSON *results;	    /* NULL: missing or failed */
	char *why;	    /* why it has none (malloc'd) */
	const char **labels;
};

/* Why p has no results, "a: b" (or a), kept for report_missing(). */
static void set_why(struct point *p, const char *a, const char *b)
{
	size_t n = strlen(a) + (b ? strlen(b) + 2 : 0) + 1;

	free(p->why);
	p->why = malloc(n);
	if (p->why)
		snprintf(p->why, n, "%s%s%s", a, b ? ": " : "", b ? b : "");
}

/* Point p's results file, checked against the manifest's configuration. */
static void read_point(const char *dir, struct point *p)
{
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(p->entry,
							       "config");
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(config, "seed");
	const char *file = jstr(p->entry, "file"), *id = jstr(p->entry, "id");
	struct eevdf_sweep_point pt;
	char path[4096], why[256];
	cJSON *err;
	int e = 0;

	memset(&pt, 0, sizeof(pt));
	pt.workload_sha256 = jstr(config, "workload_sha256");
	pt.kernel = jstr(config, "kernel");
	pt.have_seed = cJSON_IsNumber(seed);
	pt.seed = pt.have_seed ? (uint64_t)seed->valuedouble : 0;
	if (!file || !id || !pt.workload_sha256) {
		set_why(p, "not a point of a manifest", NULL);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (sweep_result_ok(path, &pt, why, sizeof(why), &p->results))
		return;
	if (why[0]) {
		set_why(p, path, why);
		return;
	}
	/* no results: did it fail? */
	sweep_point_path(dir, id, true, path, sizeof(path));
	err = cli_read_json(path, SWEEP_RESULT_MAX, &e);
	if (err && jstr(err, "error")) {
		char *t = err->child ? jstr(err, "error") : NULL, *nl;

		nl = t ? strchr(t, '\n') : NULL;
		if (nl)
			*nl = '\0'; /* its first line */
		set_why(p, "failed", t ? t : "");
	} else {
		set_why(p, "no results yet", NULL);
	}
	cJSON_Delete(err);
}

/* Each point's values by axis name, in the manifest's order of axes. */
static bool point_labels(const struct merge *m, struct point *p)
{
	const cJSON *vals = cJSON_GetObjectItemCaseSensitive(p->entry,
							     "values");

	p->labels = calloc(m->nr_axes + 1, sizeof(*p->labels));
	if (!p->labels)
		return false;
	for (size_t a = 0; a < m->nr_axes; a++) {
		p->labels[a] = jstr(vals, m->axes[a]);
		if (!p->labels[a])
			return false;
	}
	return true;
}

/* The rows: configurations in the order their first point comes. */
static bool group_rows(struct merge *m, struct point *pts, size_t np)
{
	size_t per = m->seed_axis >= 0 ? m->nr_seeds : 1;

	m->rows = calloc(np ? np : 1, sizeof(*m->rows));
	if (!m->rows)
		return false;
	for (size_t k = 0; k < np; k++) {
		long r = find_row(m, pts[k].labels);
		struct merge_row *row;

		if (r < 0) {
			row = &m->rows[m->nr_rows++];
			row->labels = pts[k].labels;
			row->points = calloc(per, sizeof(*row->points));
			row->values = calloc(per * (m->nr_metrics + 1),
					     sizeof(*row->values));
			row->st = calloc(m->nr_metrics + 1, sizeof(*row->st));
			row->ref = -1;
			if (!row->points || !row->values || !row->st)
				return false;
		} else {
			row = &m->rows[r];
		}
		if (row->expected == per)
			return false; /* more points than seeds: not ours */
		row->expected++;
		if (pts[k].results)
			row->points[row->n++] = k;
	}
	return true;
}

/*
 * Each row's figures and their statistics; false after printing why.  A
 * figure some points lack (another workload's report) leaves their
 * cells empty; one that no point has is a misspelt name.
 */
static bool fill_rows(struct merge *m, struct point *pts, const char *dir)
{
	size_t missing[MERGE_METRICS_MAX] = { 0 };

	for (size_t r = 0; r < m->nr_rows; r++) {
		struct merge_row *row = &m->rows[r];
		size_t cnt[MERGE_METRICS_MAX] = { 0 };

		for (size_t i = 0; i < row->n; i++) {
			const cJSON *res = pts[row->points[i]].results;
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(
				res, "complete");

			row->incomplete += cJSON_IsFalse(c);
			for (size_t f = 0; f < m->nr_metrics; f++) {
				double v;

				if (!cli_results_figure(res, m->metrics[f],
							&v)) {
					missing[f]++;
					continue;
				}
				row->values[f * row->expected + cnt[f]++] = v;
			}
		}
		for (size_t f = 0; f < m->nr_metrics; f++)
			if (cnt[f])
				eevdf_stats_compute(
					&row->values[f * row->expected], cnt[f],
					&row->st[f]);
	}
	for (size_t f = 0; f < m->nr_metrics; f++) {
		if (missing[f] == m->nr_found && m->nr_found) {
			cli_error("merge: %s: no point has the figure '%s' (a "
				  "key of the results' summary, or a workload "
				  "metric: NAME, NAME.p99, NAME[KEY].mean)",
				  dir, m->metrics[f]);
			return false;
		}
		if (missing[f])
			cli_error("merge: note: %zu of %zu points have no "
				  "figure '%s' (another workload's report?): "
				  "their cells are empty",
				  missing[f], m->nr_found, m->metrics[f]);
	}
	return true;
}

/* Each row's baseline row: its labels with the baseline's put in. */
static void find_refs(struct merge *m)
{
	const char **want = calloc(m->nr_axes + 1, sizeof(*want));

	if (!want || !m->have_base) {
		free(want);
		return;
	}
	for (size_t r = 0; r < m->nr_rows; r++) {
		for (size_t a = 0; a < m->nr_axes; a++)
			want[a] = m->base[a] ? m->base[a] :
					       m->rows[r].labels[a];
		m->rows[r].ref = find_row(m, want);
	}
	free(want);
}

static void merge_free(struct merge *m, struct point *pts, size_t np)
{
	for (size_t r = 0; r < m->nr_rows; r++) {
		free(m->rows[r].points);
		free(m->rows[r].values);
		free(m->rows[r].st);
	}
	for (size_t k = 0; pts && k < np; k++) {
		cJSON_Delete(pts[k].results);
		free(pts[k].labels);
		free(pts[k].why);
	}
	free(pts);
	free(m->rows);
	free(m->axes);
	free(m->base);
	free(m->seeds);
}

/* Missing and failed points: listed; an error unless allowed. */
static bool report_missing(const struct merge *m, const struct point *pts,
			   size_t np, bool allow)
{
	size_t missing = np - m->nr_found, shown = 0;

	if (!missing)
		return true;
	for (size_t k = 0; k < np && shown < SHOW_MISSING; k++) {
		char labels[1024];
		size_t at = 0;

		if (pts[k].results)
			continue;
		for (size_t a = 0; a < m->nr_axes; a++)
			at += (size_t)snprintf(
				labels + at,
				at < sizeof(labels) ? sizeof(labels) - at : 0,
				"%s%s=%s", a ? " " : "", m->axes[a],
				pts[k].labels[a]);
		cli_error("merge: point %zu (%s): %s", k, labels,
			  pts[k].why ? pts[k].why : "no results");
		shown++;
	}
	if (missing > shown)
		cli_error("merge: ... and %zu more", missing - shown);
	cli_error("merge: %zu of %zu points have no results%s", missing, np,
		  allow ? ": the table has the others" :
			  " (--allow-missing tabulates the others)");
	return allow;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_opts o;
	struct merge m;
	struct point *pts = NULL;
	const cJSON *list, *e;
	cJSON *man = NULL;
	char path[4096], *text = NULL;
	size_t np = 0, incomplete = 0;
	FILE *out = NULL;
	int rc;

	memset(&o, 0, sizeof(o));
	memset(&m, 0, sizeof(m));
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = EXIT_USAGE;
	snprintf(path, sizeof(path), "%s/manifest.json", o.dir);
	man = sweep_manifest_read(o.dir);
	if (!man || !read_axes(man, path, &m) ||
	    !read_baseline(man, o.baseline, &m))
		goto out;
	zip_baseline(man, &m);
	m.sweep = jstr(man, "sweep") ? jstr(man, "sweep") : "sweep";
	list = cJSON_GetObjectItemCaseSensitive(man, "points");
	np = (size_t)cJSON_GetArraySize(list);
	m.nr_points = np;
	pts = calloc(np ? np : 1, sizeof(*pts));
	if (!pts) {
		cli_error("out of memory");
		goto out;
	}
	{
		size_t k = 0;

		cJSON_ArrayForEach(e, list)
		{
			pts[k].entry = e;
			if (!point_labels(&m, &pts[k])) {
				cli_error("%s: points[%zu]: its values do not "
					  "name every axis",
					  path, k);
				np = k + 1;
				goto out;
			}
			read_point(o.dir, &pts[k]);
			m.nr_found += pts[k].results != NULL;
			k++;
		}
	}
	if (!report_missing(&m, pts, np, o.allow_missing))
		goto out;
	for (size_t i = 0; i < o.nr_metrics; i++)
		m.metrics[m.nr_metrics++] = o.metrics[i];
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(man, "metrics"))
	{
		if (!o.nr_metrics && cJSON_IsString(e) &&
		    m.nr_metrics < MERGE_METRICS_MAX)
			m.metrics[m.nr_metrics++] = e->valuestring;
	}
	if (!m.nr_metrics) {
		for (size_t k = 0; k < np; k++)
			if (pts[k].results)
				default_metrics(pts[k].results, &m);
		m.metrics[m.nr_metrics++] = "max_delay_ns";
		m.metrics[m.nr_metrics++] = "context_switches";
	}
	if (!group_rows(&m, pts, np)) {
		cli_error("%s: its points are not one per configuration and "
			  "seed",
			  path);
		goto out;
	}
	if (!fill_rows(&m, pts, o.dir))
		goto out;
	find_refs(&m);
	for (size_t r = 0; r < m.nr_rows; r++)
		incomplete += m.rows[r].incomplete;
	if (incomplete)
		cli_error("merge: warning: %zu point%s did not complete (the "
			  "benchmark was cut short): their figures are those "
			  "of partial runs",
			  incomplete, incomplete == 1 ? "" : "s");
	{
		size_t len = 0;

		out = open_memstream(&text, &len);
		if (!out || !merge_print(&m, o.format, out) || fclose(out)) {
			cli_error("out of memory");
			out = NULL;
			goto out;
		}
		out = NULL;
		/* cli_write_atomic() ends it with the newline */
		if (len && text[len - 1] == '\n')
			text[len - 1] = '\0';
	}
	rc = cli_write_atomic(o.output, text) ? EXIT_OK : EXIT_USAGE;
out:
	if (out)
		fclose(out);
	free(text);
	merge_free(&m, pts, np);
	cJSON_Delete(man);
	return rc;
}
