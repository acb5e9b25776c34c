/* SPDX-License-Identifier: MIT */
/*
 * The task groups' table of a run (eevdf_sim_group_stats()): each group
 * with its weight (cpu.weight as it reads back, "idle" for cpu.idle),
 * cpu.max, the share of the machine's CPU time its entities ran (the
 * root: every CPU's busy time), the tasks it had, their perf-sched-latency
 * delays, and cpu.stat's throttling.  Groups are listed in the order they
 * were made, below their parents, indented by depth.  Runs with the root
 * group alone print nothing, so that their output is as before.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static int depth_of(const char *path)
{
	int d = 0;

	if (strcmp(path, "/") == 0)
		return 0;
	for (; *path; path++)
		d += *path == '/';
	return d;
}

static void max_text(char *buf, size_t len, const struct eevdf_group_stats *g)
{
	if (!g->parent || g->autogroup)
		snprintf(buf, len, "-");
	else if (g->max_quota == EEVDF_GROUP_NO_QUOTA)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%g/%g ms", (double)g->max_quota / 1e6,
			 (double)g->max_period / 1e6);
}

void report_groups(FILE *f, const eevdf_sim *sim)
{
	size_t n = eevdf_sim_nr_groups(sim);
	double machine_ns = (double)eevdf_sim_now(sim) * eevdf_sim_nr_cpus(sim);

	if (n < 2)
		return;
	fprintf(f, " %-28s | %6s | %-16s | %7s | %6s | %12s | %12s | %s\n",
		"Group", "Weight", "cpu.max", "CPU %", "Tasks", "Avg delay ms",
		"Max delay ms", "Throttled");
	for (size_t i = 0; i < n; i++) {
		struct eevdf_group_stats g;
		char name[300], weight[16], max[40];
		int d;

		if (eevdf_sim_group_stats(sim, i, &g))
			continue;
		d = depth_of(g.path);
		if (g.autogroup)
			snprintf(name, sizeof(name), "%*s%s (session %u)",
				 2 * d, "", g.path, g.session);
		else
			snprintf(name, sizeof(name), "%*s%s", 2 * d, "",
				 g.path);
		if (!g.parent)
			snprintf(weight, sizeof(weight), "-");
		else if (g.idle)
			snprintf(weight, sizeof(weight), "idle");
		else
			snprintf(weight, sizeof(weight), "%u", g.weight);
		max_text(max, sizeof(max), &g);
		fprintf(f,
			" %-28s | %6s | %-16s | %7.2f | %6" PRIu64
			" | %12.3f | %12.3f | ",
			name, weight, max,
			machine_ns > 0 ? 100.0 * (double)g.cpu_ns / machine_ns :
					 0.0,
			g.nr_tasks,
			g.delay_count ? (double)g.delay_sum_ns /
						(double)g.delay_count / 1e6 :
					0.0,
			(double)g.delay_max_ns / 1e6);
		if (g.nr_periods)
			fprintf(f,
				"%" PRIu64 " of %" PRIu64 " periods, %.3f ms\n",
				g.nr_throttled, g.nr_periods,
				(double)g.throttled_ns / 1e6);
		else
			fprintf(f, "-\n");
	}
	fputc('\n', f);
}
