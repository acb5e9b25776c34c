/* SPDX-License-Identifier: MIT */
/*
 * The allocation-failure loop (make oom-test), after SQLite's: for each
 * workload, run parse + run + report once to count its allocations, then
 * again failing the 1st, the 2nd, ... the Nth allocation, until a run
 * makes fewer than N (the failure was never reached).  Every run with a
 * failure must end in a clean error (EEVDF_ENOMEM, whose message says
 * so) or, where the library can do without what it asked for (a shared
 * program, compacting a dead task), succeed with the very results of the
 * run without failures; and each must give back every block it took.
 * Built with ASan, which catches what the count of live blocks cannot:
 * a use after free or a double free on an error path.
 *
 * Usage: oom_loop WORKLOAD.json [PARAM=VALUE...] [-- WORKLOAD ...]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "eevdf/eevdf.h"

/* The run of each workload: short, the failures are in setting it up. */
#define RUN_NS (20 * EEVDF_NSEC_PER_MSEC)

static struct {
	long calls;   /* allocations so far in this run */
	long fail_at; /* 0: none fails */
	bool failed;  /* the failure happened */
	long live;    /* blocks given and not given back */
} alloc;

/* One allocation: the fail_at-th fails; every block is counted. */
static bool take(void)
{
	if (alloc.fail_at && ++alloc.calls == alloc.fail_at) {
		alloc.failed = true;
		return false;
	}
	if (!alloc.fail_at)
		alloc.calls++;
	return true;
}

static void *o_malloc(void *ud, size_t n)
{
	void *p;

	(void)ud;
	if (!take() || !(p = malloc(n)))
		return NULL;
	alloc.live++;
	return p;
}

static void *o_realloc(void *ud, void *ptr, size_t n)
{
	(void)ud;
	if (!ptr)
		return o_malloc(ud, n);
	return take() ? realloc(ptr, n) : NULL;
}

static void o_free(void *ud, void *ptr)
{
	(void)ud;
	if (ptr) {
		alloc.live--;
		free(ptr);
	}
}

/* cJSON's hooks (the parse tree, the rt-app translation) count too. */
static void *c_malloc(size_t n)
{
	return o_malloc(NULL, n);
}

static void c_free(void *p)
{
	o_free(NULL, p);
}

struct job {
	const char *file;
	char *text; /* the workload's bytes, read once */
	size_t len;
	const char *params[16];
	size_t nr_params;
};

/*
 * Parse, run RUN_NS, report (the workload's report, its metrics, the
 * results JSON).  0 and *json (malloc'd, the caller's), or the first
 * error and its message in why.
 */
static int parse_run_report(const struct job *j, char **json, char *why,
			    size_t len)
{
	struct eevdf_load_opts o;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim = NULL;
	const char *report;
	char *text = NULL;
	int rc;

	*json = NULL;
	why[0] = '\0';
	memset(&o, 0, sizeof(o));
	memset(&d, 0, sizeof(d));
	o.params = j->params;
	o.nr_params = j->nr_params;
	rc = eevdf_workload_parse_opts(j->text, j->len, j->file, &o, &wl, &d);
	if (rc) {
		snprintf(why, len, "load: %s", d.msg);
		goto out;
	}
	eevdf_config_init(&cfg);
	cfg.machine = eevdf_workload_machine(wl);
	cfg.kernel = eevdf_workload_kernel(wl);
	eevdf_workload_seed(wl, &cfg.seed);
	cfg.duration = RUN_NS;
	rc = eevdf_sim_new(&cfg, &sim, why, len);
	if (rc)
		goto out;
	rc = eevdf_workload_add_tasks(wl, sim, &d);
	if (rc) {
		snprintf(why, len, "add_tasks: %s %s", d.msg,
			 eevdf_sim_errmsg(sim));
		goto out;
	}
	rc = eevdf_sim_run(sim, RUN_NS);
	if (rc) {
		snprintf(why, len, "run: %s", eevdf_sim_errmsg(sim));
		goto out;
	}
	report = eevdf_workload_report_format(wl);
	if (report && strcmp(report, "none") != 0 &&
	    strcmp(report, "perf_sched_latency") != 0) {
		rc = eevdf_report(sim, report, NULL, NULL, &text, why, len);
		free(text);
		if (rc)
			goto out;
	}
	rc = eevdf_report_metrics(sim, NULL, NULL, &text);
	free(text);
	if (!rc)
		rc = eevdf_sim_results_json(sim, json);
out:
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	return rc;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* The loop over one workload; the number of failures it injected, or -1. */
static long loop(const struct job *j)
{
	char *ref = NULL, *json, why[512];
	long total, n;
	int rc;

	memset(&alloc, 0, sizeof(alloc));
	rc = parse_run_report(j, &ref, why, sizeof(why));
	total = alloc.calls;
	if (rc || alloc.live) {
		fprintf(stderr,
			"%s: the run without failures failed (%s) or "
			"kept %ld blocks\n",
			j->file, rc ? why : "", alloc.live);
		free(ref);
		return -1;
	}
	for (n = 1;; n++) {
		memset(&alloc, 0, sizeof(alloc));
		alloc.fail_at = n;
		rc = parse_run_report(j, &json, why, sizeof(why));
		if (!alloc.failed) {
			/* past the last allocation: the loop is done */
			free(json);
			break;
		}
		if (alloc.live) {
			fprintf(stderr,
				"%s: allocation %ld failed: %ld blocks "
				"not given back\n",
				j->file, n, alloc.live);
			free(json);
			free(ref);
			return -1;
		}
		if (rc && rc != EEVDF_ENOMEM) {
			fprintf(stderr,
				"%s: allocation %ld failed: %s (%s), "
				"not EEVDF_ENOMEM\n",
				j->file, n, eevdf_err_name(rc), why);
			free(ref);
			return -1;
		}
		if (!rc && strcmp(json, ref) != 0) {
			fprintf(stderr,
				"%s: allocation %ld failed and the run "
				"went on with other results\n",
				j->file, n);
			free(json);
			free(ref);
			return -1;
		}
		free(json);
	}
	printf("%s: %ld allocations, each failed in turn: clean\n", j->file,
	       total);
	free(ref);
	return n - 1;
}

int main(int argc, char **argv)
{
	static const struct eevdf_allocator hook = { o_malloc, o_realloc,
						     o_free, NULL };
	cJSON_Hooks hooks = { c_malloc, c_free };
	long runs = 0;
	int i = 1;

	eevdf_set_allocator(&hook);
	cJSON_InitHooks(&hooks);
	while (i < argc) {
		struct job j;
		long r;

		memset(&j, 0, sizeof(j));
		j.file = argv[i++];
		while (i < argc && strcmp(argv[i], "--") != 0 &&
		       j.nr_params < 16)
			j.params[j.nr_params++] = argv[i++];
		if (i < argc)
			i++; /* the -- */
		j.text = read_file(j.file, &j.len);
		r = loop(&j);
		free(j.text);
		if (r < 0)
			return 1;
		runs += r + 1;
	}
	printf("oom-test: %ld runs\n", runs);
	return 0;
}
