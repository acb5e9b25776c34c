/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim plot: self-contained SVG pictures of a run or of compared
 * runs (eevdf/plot.h draws them; plot_data.c gathers what a run's are
 * made of):
 *   latency   the wakeup-latency CDF per comm or per task, log x, with
 *             p50, p99, p99.9 and max marked;
 *   timeline  what each CPU ran in a window, a colour per task (as perf
 *             timechart);
 *   lag       vlag (V - vruntime) over a window of the tasks queued on
 *             one CPU;
 *   ratio     b/a of every figure of a 'compare --format json' file (or
 *             of a metric of a sweep's 'merge --format json'), with the
 *             spread over seeds.
 * Without --window, timeline and lag show the window around the run's
 * largest wakeup latency (a first run finds it; the run is
 * deterministic, so a second one to the window's end sees the same).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"
#include "plot_data.h"

enum kind {
	K_LATENCY,
	K_TIMELINE,
	K_LAG,
	K_RATIO
};

struct plot_opts {
	enum kind kind;
	const char *output; /* NULL or "-": stdout */
	const char *title;
	const char *metric; /* ratio of a merge file */
	bool by_pid;
	bool have_window;
	eevdf_time from, to;
	int cpu; /* lag: -1 the worst wakeup's */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " plot latency|timeline|lag WORKLOAD.json "
		"[OPTIONS] [run OPTIONS]\n"
		"       " PROG " plot ratio RESULTS.json [--metric NAME] "
		"[OPTIONS]\n"
		"\n"
		"Draw a self-contained SVG:\n"
		"  latency   the wakeup-latency CDF per comm (or --by pid), "
		"log x,\n"
		"            p50, p99, p99.9 and max marked\n"
		"  timeline  what each CPU ran in a window, a colour per task\n"
		"  lag       vlag (V - vruntime) of the tasks queued on a CPU "
		"over a\n"
		"            window, a gap while a task is off the queue\n"
		"  ratio     b/a of each figure of 'compare --format json', or "
		"of a\n"
		"            metric of 'merge --format json' against its "
		"baseline, with\n"
		"            the spread over seeds\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE the SVG (default: standard output)\n"
		"  --title TEXT      the title (default: what it shows)\n"
		"  --by comm|pid     latency: a line per comm (default) or "
		"per task\n"
		"  --window FROM:TO  timeline, lag: the window (default: "
		"around the\n"
		"                    largest wakeup latency of the run)\n"
		"  --cpu N           lag: the CPU (default: the largest "
		"latency's)\n"
		"  --metric NAME     ratio of a merge file: the metric "
		"(default: its first)\n"
		"  -h, --help        show this help\n"
		"\n"
		"latency, timeline and lag take any 'run' option that shapes "
		"the run.\n");
}

static bool parse_window(const char *v, struct plot_opts *p)
{
	const char *colon = strchr(v, ':');
	char a[64];

	if (!colon || (size_t)(colon - v) >= sizeof(a) || colon == v ||
	    !colon[1]) {
		cli_error("--window: expected FROM:TO (durations such as "
			  "1s:1.02s), got '%s'",
			  v);
		return false;
	}
	memcpy(a, v, (size_t)(colon - v));
	a[colon - v] = '\0';
	if (eevdf_parse_duration(a, INT64_MAX, &p->from) < 0 ||
	    eevdf_parse_duration(colon + 1, INT64_MAX, &p->to) < 0 ||
	    strspn(a, "0123456789") == strlen(a) ||
	    strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		cli_error("--window: '%s': FROM and TO need a unit "
			  "ns|us|ms|s, e.g. 1s:1.02s",
			  v);
		return false;
	}
	if (p->to <= p->from) {
		cli_error("--window: '%s' ends before it starts", v);
		return false;
	}
	p->have_window = true;
	return true;
}

/* plot's own options out of argv (from argv[2] on); the rest to rest. */
static int parse(int argc, char **argv, struct plot_opts *p, char **rest,
		 int *nrest)
{
	static const char *const opts[] = { "--output", "-o",	    "--title",
					    "--by",	"--window", "--cpu",
					    "--metric" };

	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	p->cpu = -1;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int k;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
		k = cli_own_option("plot", argc, argv, &i, opts,
				   ARRAY_LEN(opts), &v);
		if (k < 0)
			return EXIT_USAGE;
		if (k == (int)ARRAY_LEN(opts)) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (k <= 1) {
			p->output = v;
		} else if (k == 2) {
			p->title = v;
		} else if (k == 3) {
			if (strcmp(v, "pid") && strcmp(v, "comm")) {
				cli_error("--by: expected comm or pid, got "
					  "'%s'",
					  v);
				return EXIT_USAGE;
			}
			p->by_pid = v[0] == 'p';
		} else if (k == 4) {
			if (!parse_window(v, p))
				return EXIT_USAGE;
		} else if (k == 5) {
			char *end;
			long n = strtol(v, &end, 10);

			if (!*v || *end || n < 0 || n >= EEVDF_MAX_CPUS) {
				cli_error("--cpu: expected a CPU number, got "
					  "'%s'",
					  v);
				return EXIT_USAGE;
			}
			p->cpu = (int)n;
		} else {
			p->metric = v;
		}
	}
	return -1;
}

/* The ratio chart of a compare file: per figure b/a, the spread the
 * per-seed ratios b_i/a_i (same seeds) span. */
static int bars_of_compare(const cJSON *root, struct eevdf_plot_bar **out,
			   size_t *n, const char *path)
{
	const cJSON *figs = cJSON_GetObjectItemCaseSensitive(root, "figures");
	const cJSON *f;
	size_t k = 0;

	*out = calloc((size_t)cJSON_GetArraySize(figs) + 1, sizeof(**out));
	if (!*out)
		return EEVDF_ENOMEM;
	cJSON_ArrayForEach(f, figs)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(f, "ratio");
		const cJSON *better = cJSON_GetObjectItemCaseSensitive(
			f, "better");
		const cJSON *av = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(f, "a"), "values");
		const cJSON *bv = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(f, "b"), "values");
		struct eevdf_plot_bar *bar = &(*out)[k];
		int nv = cJSON_GetArraySize(av);

		if (!cJSON_IsString(name) || !cJSON_IsArray(av) ||
		    !cJSON_IsArray(bv) || nv != cJSON_GetArraySize(bv)) {
			cli_error("%s: figures[%zu]: not a figure of "
				  "'compare --format json'",
				  path, k);
			return EEVDF_EINVAL;
		}
		if (!cJSON_IsNumber(r)) /* no ratio (a is 0): nothing to draw */
			continue;
		bar->label = name->valuestring;
		bar->value = r->valuedouble;
		bar->lo = bar->hi = r->valuedouble;
		bar->better = cJSON_IsNumber(better) ? better->valueint : 0;
		for (int i = 0; i < nv; i++) {
			double a = cJSON_GetArrayItem(av, i)->valuedouble;
			double b = cJSON_GetArrayItem(bv, i)->valuedouble;

			if (a == 0)
				continue;
			bar->lo = fmin(bar->lo, b / a);
			bar->hi = fmax(bar->hi, b / a);
		}
		k++;
	}
	*n = k;
	return 0;
}

/* The ratio chart of a merge file's metric against its baseline: each
 * row's ratio, the spread its seeds' min and max give it. */
static int bars_of_merge(const cJSON *root, const char **metric,
			 struct eevdf_plot_bar **out, char (**labels)[160],
			 size_t *n, const char *path)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(root,
								"metrics");
	const cJSON *r;
	size_t k = 0, nr = (size_t)cJSON_GetArraySize(rows);

	if (!cJSON_IsObject(
		    cJSON_GetObjectItemCaseSensitive(root, "baseline"))) {
		cli_error("%s: baseline: none, so the merge has no ratios; "
			  "merge it again with --baseline AXIS=VALUE",
			  path);
		return EEVDF_EINVAL;
	}
	if (!*metric) {
		const cJSON *m0 = cJSON_GetArrayItem(metrics, 0);

		*metric = cJSON_IsString(m0) ? m0->valuestring : "";
	}
	*out = calloc(nr + 1, sizeof(**out));
	*labels = calloc(nr + 1, sizeof(**labels));
	if (!*out || !*labels)
		return EEVDF_ENOMEM;
	cJSON_ArrayForEach(r, rows)
	{
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(r, "metrics"),
			*metric);
		const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(r,
								    "config");
		const cJSON *vs = cJSON_GetObjectItemCaseSensitive(
			m, "vs_baseline");
		const cJSON *mean = cJSON_GetObjectItemCaseSensitive(m, "mean");
		const cJSON *mn = cJSON_GetObjectItemCaseSensitive(m, "min");
		const cJSON *mx = cJSON_GetObjectItemCaseSensitive(m, "max");
		const cJSON *c;
		size_t at = 0;

		if (!m) {
			cli_error("%s: rows[%zu].metrics: no metric '%s'", path,
				  k, *metric);
			return EEVDF_EINVAL;
		}
		if (!cJSON_IsNumber(vs) || !cJSON_IsNumber(mean))
			continue;
		cJSON_ArrayForEach(c, cfg)
		{
			if (cJSON_IsString(c) && at < sizeof((*labels)[0]))
				at += (size_t)snprintf(
					(*labels)[k] + at,
					sizeof((*labels)[0]) - at, "%s%s=%s",
					at ? " " : "", c->string,
					c->valuestring);
		}
		(*out)[k].label = (*labels)[k];
		(*out)[k].value = vs->valuedouble;
		(*out)[k].lo = (*out)[k].hi = vs->valuedouble;
		if (mean->valuedouble != 0 && cJSON_IsNumber(mn) &&
		    cJSON_IsNumber(mx)) {
			double f = vs->valuedouble / mean->valuedouble;

			(*out)[k].lo = fmin(vs->valuedouble,
					    mn->valuedouble * f);
			(*out)[k].hi = fmax(vs->valuedouble,
					    mx->valuedouble * f);
		}
		k++;
	}
	if (!k) {
		cli_error(
			"%s: rows: no row has a ratio of '%s' to the baseline",
			path, *metric);
		return EEVDF_EINVAL;
	}
	*n = k;
	return 0;
}

static int plot_ratio(const struct plot_opts *p, const char *path, char **svg)
{
	cJSON *root;
	const cJSON *fmt;
	struct eevdf_plot_bar *bars = NULL;
	char(*labels)[160] = NULL;
	char title[512];
	struct eevdf_plot_opts o = { 0 };
	size_t n = 0;
	int err = 0, rc;

	root = cli_read_json(path, (size_t)64 << 20, &err);
	if (!root) {
		cli_error("%s: %s", path,
			  err ? strerror(err) : "not a JSON document");
		return EXIT_USAGE;
	}
	fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (cJSON_IsString(fmt) &&
	    strcmp(fmt->valuestring, "eevdf-sim-compare/1") == 0) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "a");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "b");
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(root,
								  "workload");

		if (p->metric) {
			cli_error("--metric: a compare file has every figure; "
				  "it takes no --metric");
			cJSON_Delete(root);
			return EXIT_USAGE;
		}
		rc = bars_of_compare(root, &bars, &n, path);
		snprintf(title, sizeof(title), "%s: b/a, b = %s, a = %s",
			 cJSON_IsString(w) ? w->valuestring : "?",
			 cJSON_IsString(b) ? b->valuestring : "?",
			 cJSON_IsString(a) ? a->valuestring : "?");
	} else if (cJSON_IsString(fmt) &&
		   strcmp(fmt->valuestring, "eevdf-sim-merge/1") == 0) {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(root,
								  "sweep");

		const char *metric = p->metric;

		rc = bars_of_merge(root, &metric, &bars, &labels, &n, path);
		snprintf(title, sizeof(title), "%s: %s against the baseline",
			 cJSON_IsString(s) ? s->valuestring : "sweep",
			 metric ? metric : "?");
		o.xlabel = "ratio to the baseline (mean; min..max of the seeds)";
	} else {
		cli_error("%s: format: expected eevdf-sim-compare/1 ('compare "
			  "--format json') or eevdf-sim-merge/1 ('merge "
			  "--format json')",
			  path);
		cJSON_Delete(root);
		return EXIT_USAGE;
	}
	if (rc == 0) {
		o.title = p->title ? p->title : title;
		rc = eevdf_plot_ratio_svg(&o, bars, n, svg);
		if (rc < 0)
			cli_error("%s: cannot draw it: %s", path,
				  eevdf_strerror(rc));
	}
	free(bars);
	free(labels);
	cJSON_Delete(root);
	return rc == 0 ? EXIT_OK : EXIT_USAGE;
}

static int plot_run(const struct plot_opts *p, int argc, char **argv,
		    char **svg)
{
	struct plot_data_opts o = { .by_comm = !p->by_pid,
				    .to = -1,
				    .lag_cpu = -1 };
	struct plot_data *pd = NULL;
	eevdf_time duration = 0;
	char title[256];
	int rc, pid = 0, cpu = 0;
	eevdf_time end, delay;

	if (p->kind == K_LATENCY || !p->have_window) {
		rc = plot_data_full_run(argc, argv, &o, &pd, &duration);
		if (rc != EXIT_OK)
			return rc;
	}
	if (p->kind == K_LATENCY) {
		snprintf(title, sizeof(title), "%s: wakeup latency per %s",
			 eevdf_sim_name(plot_data_sim(pd)),
			 p->by_pid ? "task" : "comm");
		rc = plot_data_latency_svg(pd, p->title ? p->title : title,
					   svg);
		plot_data_free(pd);
		return rc == 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (p->have_window) {
		o.from = p->from;
		o.to = p->to;
	} else {
		plot_data_window(pd, duration, &o.from, &o.to);
		if (plot_data_worst(pd, &pid, &cpu, &end, &delay))
			o.lag_cpu = cpu;
	}
	plot_data_free(pd);
	if (p->kind == K_LAG) {
		if (p->cpu >= 0)
			o.lag_cpu = p->cpu;
		else if (o.lag_cpu < 0)
			o.lag_cpu = 0;
	} else {
		o.lag_cpu = -1;
	}
	rc = plot_data_window_run(argc, argv, &o, &pd);
	if (rc != EXIT_OK)
		return rc;
	if (p->kind == K_TIMELINE) {
		snprintf(title, sizeof(title), "%s: CPUs from %.3f to %.3f ms",
			 eevdf_sim_name(plot_data_sim(pd)),
			 (double)o.from / 1e6, (double)o.to / 1e6);
		rc = plot_data_timeline_svg(pd, p->title ? p->title : title,
					    svg);
	} else {
		snprintf(title, sizeof(title),
			 "%s: lag of the tasks queued on CPU %d",
			 eevdf_sim_name(plot_data_sim(pd)), o.lag_cpu);
		rc = plot_data_lag_svg(pd, p->title ? p->title : title, svg);
	}
	plot_data_free(pd);
	if (rc < 0) {
		cli_error("cannot draw the plot: %s", eevdf_strerror(rc));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_plot(int argc, char **argv)
{
	static const char *const kinds[] = { "latency", "timeline", "lag",
					     "ratio" };
	struct plot_opts p;
	char **rest = NULL, *svg = NULL;
	int nrest = 0, rc = EXIT_USAGE;
	size_t k;

	memset(&p, 0, sizeof(p));
	if (argc < 2) {
		cli_error("plot: missing what to plot (latency, timeline, lag "
			  "or ratio)");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	for (k = 0; k < ARRAY_LEN(kinds); k++)
		if (strcmp(argv[1], kinds[k]) == 0)
			break;
	if (k == ARRAY_LEN(kinds)) {
		cli_error("plot: unknown plot '%s' (known: latency, timeline, "
			  "lag, ratio)",
			  argv[1]);
		return EXIT_USAGE;
	}
	p.kind = (enum kind)k;
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	rc = parse(argc, argv, &p, rest, &nrest);
	if (rc >= 0)
		goto out;
	rc = EXIT_USAGE;
	if (p.kind == K_RATIO) {
		if (nrest != 2) {
			cli_error("plot ratio: expected one RESULTS.json%s%s",
				  nrest > 2 ? ", got also " : "",
				  nrest > 2 ? rest[2] : "");
			goto out;
		}
		rc = plot_ratio(&p, rest[1], &svg);
	} else if (p.metric) {
		cli_error("--metric: only 'plot ratio' takes it");
	} else if (p.cpu >= 0 && p.kind != K_LAG) {
		cli_error("--cpu: only 'plot lag' takes it");
	} else if (p.have_window && p.kind == K_LATENCY) {
		cli_error("--window: 'plot latency' covers the whole run");
	} else {
		rc = plot_run(&p, nrest, rest, &svg);
	}
	if (rc == EXIT_OK) {
		/* the file ends with the SVG's own newline */
		size_t n = strlen(svg);

		if (n && svg[n - 1] == '\n')
			svg[n - 1] = '\0';
		if (!cli_write_atomic(p.output, svg))
			rc = EXIT_USAGE;
	}
out:
	free(svg);
	free(rest);
	return rc;
}
