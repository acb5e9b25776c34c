/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim check: run a workload and compare the "summary" of its results
 * with a stored baseline (a results JSON that 'run --format json' or
 * 'check --update-baseline' wrote).  Exit 0 when every selected metric is
 * within tolerance, 1 with the list of regressions, 2 on any error: the
 * contract a CI job needs to fail a change that hurts a benchmark.
 *
 * The simulation is deterministic, so a difference is never noise: it is
 * a change of the model, the workload or the configuration.  The tolerance
 * says how much change is acceptable, not how much noise to ignore.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"

#define DEFAULT_TOLERANCE 2.0 /* percent */
#define MAX_METRICS 32
#define MAX_ARGS 256

struct metric_sel {
	const char *name;
	double tolerance; /* percent; < 0: the default */
};

struct check_opts {
	const char *baseline;
	double tolerance;
	struct metric_sel sel[MAX_METRICS];
	size_t nr_sel;
	bool update;
	bool allow_config_change;
	char *run_argv[MAX_ARGS];
	int run_argc;
};

/* Built-in summary keys: their direction (+1 higher is better, -1 lower,
 * 0 either way is a change). */
static const struct {
	const char *name;
	int better;
} builtin[] = {
	{ "total_cpu_ns", 0 },	   { "total_delay_sum_ns", -1 },
	{ "max_delay_ns", -1 },	   { "nr_tasks", 0 },
	{ "context_switches", 0 },
};

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " check WORKLOAD.json --baseline FILE "
		"[OPTIONS] [RUN OPTIONS]\n"
		"\n"
		"Run WORKLOAD.json as 'run' would and compare the summary of "
		"its results\n"
		"with the baseline FILE (a results JSON of 'run --format "
		"json').\n"
		"Exit 0 when every metric is within tolerance, 1 when one "
		"regressed\n"
		"(each is listed: metric, baseline, now, change), 2 on any "
		"error.\n"
		"\n"
		"Options:\n"
		"  --baseline FILE       the stored results to compare with "
		"(required)\n"
		"  --tolerance PCT       allowed change in %%, default %.0f\n"
		"  --metric NAME[:PCT]   check NAME (a key of the results' "
		"\"summary\", or a\n"
		"                        workload metric: NAME, NAME.p99, "
		"NAME[KEY].mean),\n"
		"                        with its own tolerance; repeatable.  "
		"Default: the\n"
		"                        report's headline numbers, else "
		"max_delay_ns and\n"
		"                        total_delay_sum_ns\n"
		"  --update-baseline     run and write FILE instead of "
		"checking (exit 0)\n"
		"  --allow-config-change  compare although the params, the "
		"workload's\n"
		"                        SHA-256, the machine, the kernel "
		"profile or the\n"
		"                        features differ from the baseline's "
		"(else exit 2)\n"
		"  -h, --help            show this help\n"
		"\n"
		"RUN OPTIONS are those of 'run' (--machine, --cpus, --kernel, "
		"--features,\n"
		"--param, --duration, --seed, ...), except the output ones.  A "
		"metric\n"
		"with a direction (higher or lower is better) regresses only "
		"that way;\n"
		"one without (context_switches) regresses when it moves either "
		"way.\n",
		DEFAULT_TOLERANCE);
}

/* A percentage: a non-negative finite number. */
static bool parse_pct(const char *what, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0 || v > 1e6) {
		cli_error("%s: expected a percentage (a number >= 0), got "
			  "'%s'",
			  what, s);
		return false;
	}
	*out = v;
	return true;
}

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"). */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
			     bool *matched)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	*matched = false;
	if (strncmp(a, name, len) != 0)
		return NULL;
	if (a[len] == '=') {
		*matched = true;
		return a + len + 1;
	}
	if (a[len] != '\0')
		return NULL;
	*matched = true;
	if (*i + 1 >= argc) {
		cli_error("check: option '%s' needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/*
 * check's own options are taken out; everything else goes to run, which
 * checks it.  Returns -1 to go on or an exit code.
 */
static int parse_options(int argc, char **argv, struct check_opts *o)
{
	static char run[] = "run";

	o->tolerance = DEFAULT_TOLERANCE;
	o->run_argv[o->run_argc++] = run;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool m;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			check_usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(a, "--update-baseline") == 0) {
			o->update = true;
			continue;
		}
		if (strcmp(a, "--allow-config-change") == 0) {
			o->allow_config_change = true;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--baseline", &m)) || m) {
			if (!v)
				return EXIT_USAGE;
			o->baseline = v;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--tolerance", &m)) || m) {
			if (!v || !parse_pct("--tolerance", v, &o->tolerance))
				return EXIT_USAGE;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--metric", &m)) || m) {
			struct metric_sel *s;
			char *colon;

			if (!v)
				return EXIT_USAGE;
			if (o->nr_sel == MAX_METRICS) {
				cli_error("--metric: at most %d", MAX_METRICS);
				return EXIT_USAGE;
			}
			s = &o->sel[o->nr_sel++];
			s->name = v;
			s->tolerance = -1;
			colon = strchr(v, ':');
			if (colon) {
				*colon = '\0'; /* argv is ours to edit */
				if (!parse_pct("--metric", colon + 1,
					       &s->tolerance))
					return EXIT_USAGE;
			}
			if (!s->name[0]) {
				cli_error("--metric: expected NAME[:PCT], got "
					  "'%s'",
					  v);
				return EXIT_USAGE;
			}
			continue;
		}
		if (strncmp(a, "--format", 8) == 0 ||
		    strncmp(a, "--output", 8) == 0 || strcmp(a, "-o") == 0 ||
		    strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			cli_error("check: '%s' is not an option of check (it "
				  "prints its own verdict)",
				  a);
			return EXIT_USAGE;
		}
		if (o->run_argc == MAX_ARGS - 1) {
			cli_error("check: too many arguments");
			return EXIT_USAGE;
		}
		o->run_argv[o->run_argc++] = argv[i];
	}
	o->run_argv[o->run_argc] = NULL;
	if (!o->baseline) {
		cli_error("check: missing --baseline FILE");
		fprintf(stderr, "Try '" PROG " check --help'.\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* Read and parse a results JSON; NULL after printing why. */
static cJSON *load_results(const char *path)
{
	const cJSON *fmt, *summary;
	int err;
	cJSON *root = cli_read_json(path, (size_t)256 << 20, &err);

	if (!root) {
		if (err == EFBIG || err == ENOMEM)
			cli_error("%s: baseline too large", path);
		else if (err)
			cli_error("%s: cannot read the baseline: %s", path,
				  strerror(err));
		else
			cli_error("%s: the baseline is not valid JSON", path);
		return NULL;
	}
	fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	summary = cJSON_GetObjectItemCaseSensitive(root, "summary");
	if (!cJSON_IsString(fmt) ||
	    strcmp(fmt->valuestring, "eevdf-sim-result/1") != 0) {
		cli_error("%s: format: not an eevdf-sim results file "
			  "(expected \"eevdf-sim-result/1\"; make one with "
			  "'run --format json' or 'check --update-baseline')",
			  path);
		cJSON_Delete(root);
		return NULL;
	}
	if (!cJSON_IsObject(summary)) {
		cli_error("%s: summary: missing or not an object", path);
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static int direction(const struct cli_measure *m, const char *name)
{
	for (size_t i = 0; i < m->nr_head; i++)
		if (strcmp(m->fig[i].name, name) == 0)
			return m->fig[i].better;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (strcmp(builtin[i].name, name) == 0)
			return builtin[i].better;
	return 0;
}

/* The strings of array a that array b lacks, space-separated, on f. */
static void print_missing(FILE *f, const cJSON *a, const cJSON *b)
{
	const cJSON *x, *y;

	cJSON_ArrayForEach(x, a)
	{
		bool found = false;

		cJSON_ArrayForEach(y, b) found |= cJSON_Compare(x, y, true);
		if (!found && cJSON_IsString(x))
			fprintf(f, " %s", x->valuestring);
	}
}

/* config.key of a results file, "machine.digest" reaching one level in. */
static const cJSON *config_item(const cJSON *results, const char *key)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(results, "config");
	const char *dot = strchr(key, '.');
	char head[32];

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(c, key);
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	return cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(c, head), dot + 1);
}

/*
 * How the baseline's configuration differs from this run's, one line
 * each: "error" for what makes the comparison one of different things
 * (the params, the workload's bytes, the machine, the profile, the
 * features), "note" for the rest.  Returns the number of errors.
 */
static size_t config_diff(const cJSON *base, const cJSON *now, bool allow)
{
	static const struct {
		const char *key;
		bool strict;
	} keys[] = {
		{ "params", true },	    { "workload_sha256", true },
		{ "machine.digest", true }, { "kernel", true },
		{ "features", true },	    { "workload", false },
		{ "machine", false },	    { "seed", false },
		{ "nr_cpus", false },	    { "hz", false },
		{ "duration_ns", false },
	};
	size_t errors = 0;

	for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
		const cJSON *b = config_item(base, keys[i].key);
		const cJSON *n = config_item(now, keys[i].key);
		bool error = keys[i].strict && !allow;
		/* what stops the check goes to stderr, with the error */
		FILE *f = error ? stderr : stdout;
		const char *what = error ? PROG ": check: error" : "note";
		char *bt, *nt;

		if (!b && keys[i].strict && n) {
			printf("note: the baseline has no %s (an older "
			       "eevdf-sim wrote it): not compared\n",
			       keys[i].key);
			continue;
		}
		if (!b || cJSON_Compare(b, n, true))
			continue;
		errors += keys[i].strict;
		if (cJSON_IsArray(b) && cJSON_IsArray(n)) {
			/* features: name the flags that differ */
			fprintf(f, "%s: the baseline's %s differ:", what,
				keys[i].key);
			print_missing(f, b, n);
			fprintf(f, ", now:");
			print_missing(f, n, b);
			fputc('\n', f);
			continue;
		}
		bt = cJSON_PrintUnformatted(b);
		nt = cJSON_PrintUnformatted(n);
		fprintf(f,
			"%s: the baseline's %s differs: %.300s, now %.300s\n",
			what, keys[i].key, bt ? bt : "?", nt ? nt : "?");
		cJSON_free(bt);
		cJSON_free(nt);
	}
	return allow ? 0 : errors;
}

/* A results file whose benchmark did not complete: why, else NULL. */
static const char *incomplete(const cJSON *results)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(results, "complete");
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(results,
							    "incomplete");

	if (!cJSON_IsFalse(c))
		return NULL;
	return cJSON_IsString(why) ? why->valuestring : "no reason given";
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o;
	struct cli_measure m;
	struct metric_sel def[MAX_METRICS];
	const struct metric_sel *sel;
	const cJSON *nsum;
	cJSON *base = NULL, *now = NULL;
	char *json = NULL;
	size_t nr_sel, regressed = 0;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (!o.update && !(base = load_results(o.baseline)))
		return EXIT_USAGE;
	rc = cli_run_results(o.run_argc, o.run_argv, &m, &json);
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_USAGE;
	if (o.update) {
		if (cli_write_atomic(o.baseline, json)) {
			printf("wrote the baseline %s\n", o.baseline);
			rc = EXIT_OK;
		}
		goto out;
	}
	now = cJSON_Parse(json);
	if (!now) {
		cli_error("out of memory");
		goto out;
	}
	nsum = cJSON_GetObjectItemCaseSensitive(now, "summary");

	/* the metrics: --metric, else the headlines, else the delays */
	if (o.nr_sel) {
		sel = o.sel;
		nr_sel = o.nr_sel;
	} else if (m.nr_head) {
		for (size_t i = 0; i < m.nr_head; i++)
			def[i] = (struct metric_sel){ m.fig[i].name, -1 };
		sel = def;
		nr_sel = m.nr_head;
	} else {
		def[0] = (struct metric_sel){ "max_delay_ns", -1 };
		def[1] = (struct metric_sel){ "total_delay_sum_ns", -1 };
		sel = def;
		nr_sel = 2;
	}
	for (size_t i = 0; i < nr_sel; i++) {
		double v;

		if (!cli_results_figure(now, sel[i].name, &v)) {
			const cJSON *k;

			cli_error("--metric: '%s' is not a number of this "
				  "run's summary or metrics; its summary "
				  "has:",
				  sel[i].name);
			cJSON_ArrayForEach(k, nsum)
				fprintf(stderr, " %s", k->string);
			fputs("; its metrics:", stderr);
			cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(
						      now, "metrics"))
				fprintf(stderr, " %s", k->string);
			fputs(" (NAME, NAME.p99, NAME[KEY].mean, ...)\n",
			      stderr);
			goto out;
		}
		if (!cli_results_figure(base, sel[i].name, &v)) {
			cli_error("%s: %s: missing from the baseline "
				  "(update it with --update-baseline)",
				  o.baseline, sel[i].name);
			goto out;
		}
	}

	if (incomplete(base)) {
		cli_error("%s: the baseline's benchmark did not complete (%s): "
			  "there is nothing to compare with; make it again "
			  "with --update-baseline and a long enough run",
			  o.baseline, incomplete(base));
		goto out;
	}
	if (incomplete(now)) {
		cli_error("check: this run's benchmark did not complete (%s): "
			  "its figures cannot be compared",
			  incomplete(now));
		goto out;
	}
	if (config_diff(base, now, o.allow_config_change)) {
		cli_error("check: the configuration differs from %s's (above): "
			  "the figures are not comparable; use the same "
			  "options, or --allow-config-change to compare "
			  "anyway",
			  o.baseline);
		goto out;
	}
	printf("%-20s %14s %14s %9s  %s\n", "metric", "baseline", "now",
	       "change", "verdict");
	for (size_t i = 0; i < nr_sel; i++) {
		double bv = 0, nv = 0, change;
		double tol = sel[i].tolerance >= 0 ? sel[i].tolerance :
						     o.tolerance;
		int better = direction(&m, sel[i].name);
		bool worse, improved;

		/* both are there: the loop above checked */
		cli_results_figure(base, sel[i].name, &bv);
		cli_results_figure(now, sel[i].name, &nv);
		change = bv != 0 ? 100 * (nv - bv) / fabs(bv) :
			 nv == 0 ? 0 :
			 nv > 0	 ? HUGE_VAL :
				   -HUGE_VAL;
		worse = better > 0 ? change < -tol :
			better < 0 ? change > tol :
				     fabs(change) > tol;
		improved = !worse && fabs(change) > tol;

		printf("%-20s %14.6g %14.6g %+8.2f%%  %s", sel[i].name, bv, nv,
		       change,
		       worse	? "REGRESSION" :
		       improved ? "improved" :
				  "ok");
		if (worse || improved)
			printf(" (%s, tolerance %g%%)",
			       better > 0 ? "higher is better" :
			       better < 0 ? "lower is better" :
					    "a change either way",
			       tol);
		putchar('\n');
		regressed += worse;
	}
	if (regressed)
		printf("%zu of %zu metrics regressed against %s\n", regressed,
		       nr_sel, o.baseline);
	else
		printf("all %zu metrics within tolerance of %s\n", nr_sel,
		       o.baseline);
	rc = regressed ? EXIT_REGRESSION : EXIT_OK;
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		rc = EXIT_USAGE;
	}
out:
	free(json);
	cJSON_Delete(base);
	cJSON_Delete(now);
	return rc;
}
