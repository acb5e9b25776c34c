/* SPDX-License-Identifier: MIT */
/*
 * compare: load a JSON workload and run it twice through the library, under
 * the kernel profile's defaults (a) and with a feature list applied (b),
 * then print per task the runtime and the perf-sched-latency delays side by
 * side with the ratio b/a.
 *
 *   compare WORKLOAD.json [FEATURES [NR_CPUS]]
 *   compare workloads/sleeper-vs-hog.json NO_DELAY_DEQUEUE
 *
 * FEATURES defaults to NO_DELAY_DEQUEUE, NR_CPUS to 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eevdf/eevdf.h>

#define DEFAULT_DURATION 10000000000LL /* 10 s, when the file sets none */

struct run {
	eevdf_sim *sim;
	eevdf_time until;
};

/* Build and run one configuration; 0 or -1 after printing why. */
static int run_one(const eevdf_workload *wl, const char *file,
		   const char *features, int nr_cpus, struct run *r)
{
	struct eevdf_config cfg;
	struct eevdf_diag diag;
	char err[512] = "";
	int rc;

	eevdf_config_init(&cfg);
	cfg.name = eevdf_workload_name(wl);
	cfg.nr_cpus = nr_cpus;
	eevdf_workload_seed(wl, &cfg.seed);
	r->until = eevdf_workload_duration(wl);
	if (r->until <= 0)
		r->until = DEFAULT_DURATION;
	cfg.duration = r->until;
	if (features &&
	    eevdf_config_set_features(&cfg, features, err, sizeof(err)) < 0) {
		fprintf(stderr, "compare: %s\n", err);
		return -1;
	}
	rc = eevdf_sim_new(&cfg, &r->sim, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "compare: %s\n",
			err[0] ? err : eevdf_strerror(rc));
		return -1;
	}
	memset(&diag, 0, sizeof(diag));
	if (eevdf_workload_add_tasks(wl, r->sim, &diag) < 0) {
		fprintf(stderr, "compare: %s: %s\n", file,
			diag.msg[0] ? diag.msg : eevdf_sim_errmsg(r->sim));
		return -1;
	}
	if (eevdf_sim_run(r->sim, r->until) < 0) {
		fprintf(stderr, "compare: %s: %s\n", file,
			eevdf_sim_errmsg(r->sim));
		return -1;
	}
	return 0;
}

static double ratio(double a, double b)
{
	return a > 0 ? b / a : 0;
}

int main(int argc, char **argv)
{
	const char *features = argc > 2 ? argv[2] : "NO_DELAY_DEQUEUE";
	int nr_cpus = argc > 3 ? atoi(argv[3]) : 1;
	struct eevdf_load_opts opts = { .ncpus = nr_cpus };
	struct run a = { 0 }, b = { 0 };
	struct eevdf_diag diag;
	eevdf_workload *wl = NULL;
	char msg[1024];
	int ret = 1;

	if (argc < 2 || argc > 4 || nr_cpus < 1) {
		fprintf(stderr, "usage: compare WORKLOAD.json [FEATURES "
				"[NR_CPUS]]\n");
		return 2;
	}
	memset(&diag, 0, sizeof(diag));
	if (eevdf_workload_load_file_opts(argv[1], &opts, &wl, &diag) < 0) {
		fprintf(stderr, "compare: %s\n",
			eevdf_diag_format(&diag, msg, sizeof(msg)));
		return 2;
	}
	if (run_one(wl, argv[1], NULL, nr_cpus, &a) < 0 ||
	    run_one(wl, argv[1], features, nr_cpus, &b) < 0)
		goto out;

	printf("%s on %d CPU%s, kernel %s: a = defaults, b = %s\n",
	       eevdf_workload_name(wl), nr_cpus, nr_cpus == 1 ? "" : "s",
	       eevdf_sim_kernel(a.sim), features);
	printf("%-16s %12s %12s %6s %12s %12s %6s\n", "task", "a cpu ms",
	       "b cpu ms", "b/a", "a avg delay", "b avg delay", "b/a");
	/* Both runs create the same tasks in the same order. */
	for (size_t i = 0;
	     i < eevdf_sim_nr_tasks(a.sim) && i < eevdf_sim_nr_tasks(b.sim);
	     i++) {
		struct eevdf_task_stats sa, sb;
		double da, db;

		eevdf_sim_task_stats(a.sim, i, &sa);
		eevdf_sim_task_stats(b.sim, i, &sb);
		da = sa.delay_count ? (double)sa.delay_sum_ns /
					      (double)sa.delay_count / 1e3 :
				      0;
		db = sb.delay_count ? (double)sb.delay_sum_ns /
					      (double)sb.delay_count / 1e3 :
				      0;
		printf("%-16s %12.3f %12.3f %6.3f %9.3f us %9.3f us %6.3f\n",
		       sa.name, (double)sa.cpu_ns / 1e6,
		       (double)sb.cpu_ns / 1e6,
		       ratio((double)sa.cpu_ns, (double)sb.cpu_ns), da, db,
		       ratio(da, db));
	}
	ret = 0;
out:
	eevdf_sim_free(a.sim);
	eevdf_sim_free(b.sim);
	eevdf_workload_free(wl);
	return ret;
}
