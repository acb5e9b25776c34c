/* SPDX-License-Identifier: MIT */
/*
 * shares: build a workload in code, no JSON, and print each task's share.
 *
 * Three CPU hogs at nice -5, 0 and 5 and a task that runs 1 ms and sleeps
 * 4 ms share one CPU for 10 simulated seconds.  Whatever the sleeper
 * takes, the hogs split the rest by their weights (3121 : 1024 : 335): the
 * table prints each hog's part of the hogs' time next to weight / sum, and
 * the sleeper's part of all the time.
 *
 *   cc shares.c $(pkg-config --cflags --libs eevdf) -o shares && ./shares
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <eevdf/eevdf.h>

#define MS 1000000LL
#define SEC (1000 * MS)

static const struct eevdf_op hog[] = {
	{ .kind = EEVDF_OP_LOOP, .count = 0, .body_len = 1 },
	{ .kind = EEVDF_OP_RUN, .duration = 100 * MS },
};

static const struct eevdf_op sleeper[] = {
	{ .kind = EEVDF_OP_LOOP, .count = 0, .body_len = 2 },
	{ .kind = EEVDF_OP_RUN, .duration = 1 * MS },
	{ .kind = EEVDF_OP_SLEEP, .duration = 4 * MS },
};

/* The nice-to-weight table of the kernel (sched_prio_to_weight). */
static long weight_of(int nice)
{
	switch (nice) {
	case -5:
		return 3121;
	case 0:
		return 1024;
	case 5:
		return 335;
	}
	return 0;
}

int main(void)
{
	static const int nices[] = { -5, 0, 5 };
	struct eevdf_config cfg;
	struct eevdf_task_spec spec = { 0 };
	eevdf_sim *sim;
	char err[256] = "";
	long wsum = 0;
	double hog_cpu = 0;
	int rc;

	eevdf_config_init(&cfg);
	cfg.name = "shares";
	rc = eevdf_sim_new(&cfg, &sim, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "shares: %s\n",
			err[0] ? err : eevdf_strerror(rc));
		return 1;
	}
	for (size_t i = 0; i < sizeof(nices) / sizeof(nices[0]); i++) {
		char name[16];

		snprintf(name, sizeof(name), "hog%+d", nices[i]);
		spec.name = name;
		spec.nice = nices[i];
		spec.program = hog;
		spec.nr_ops = sizeof(hog) / sizeof(hog[0]);
		if (eevdf_sim_add_task(sim, &spec) < 0)
			goto fail;
		wsum += weight_of(nices[i]);
	}
	spec.name = "sleeper";
	spec.nice = 0;
	spec.program = sleeper;
	spec.nr_ops = sizeof(sleeper) / sizeof(sleeper[0]);
	if (eevdf_sim_add_task(sim, &spec) < 0)
		goto fail;
	if (eevdf_sim_run(sim, 10 * SEC) < 0)
		goto fail;

	printf("kernel %s, %.1f s simulated\n", eevdf_sim_kernel(sim),
	       (double)eevdf_sim_now(sim) / SEC);
	printf("%-10s %5s %10s %8s %10s\n", "task", "nice", "cpu ms", "share",
	       "by weight");
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		struct eevdf_task_stats st;

		if (eevdf_sim_task_stats(sim, i, &st) < 0)
			goto fail;
		if (i < 3)
			hog_cpu += (double)st.cpu_ns;
	}
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		struct eevdf_task_stats st;
		double share;

		eevdf_sim_task_stats(sim, i, &st);
		share = (double)st.cpu_ns / (double)eevdf_sim_now(sim);
		if (i < 3)
			/* of the hogs' CPU time, next to weight / sum */
			printf("%-10s %5d %10.1f %7.2f%% %9.2f%%\n", st.name,
			       st.nice, (double)st.cpu_ns / MS,
			       100.0 * (double)st.cpu_ns / hog_cpu,
			       100.0 * (double)weight_of(st.nice) /
				       (double)wsum);
		else
			printf("%-10s %5d %10.1f %7.2f%% %10s\n", st.name,
			       st.nice, (double)st.cpu_ns / MS, 100.0 * share,
			       "(of all)");
	}
	eevdf_sim_free(sim);
	return 0;
fail:
	fprintf(stderr, "shares: %s\n", eevdf_sim_errmsg(sim));
	eevdf_sim_free(sim);
	return 1;
}
