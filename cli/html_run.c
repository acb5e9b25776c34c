/* SPDX-License-Identifier: MIT */
/*
 * 'run --html REPORT.html': the text report, the wakeup-latency CDF per
 * comm, the run's largest wakeup latency seen up close (what each CPU
 * ran around it, and the lags of the tasks queued where it happened,
 * from a second run through that window: the simulation is
 * deterministic, so it is the same run), the configuration and
 * provenance, and the workload file.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "html.h"
#include "plot_data.h"

/* The results' config and provenance, pretty-printed (free()). */
static char *config_text(const char *results)
{
	cJSON *root = cJSON_Parse(results), *keep;
	char *text;

	if (!root)
		return NULL;
	keep = cJSON_CreateObject();
	if (keep) {
		static const char *const keys[] = { "provenance", "config",
						    "complete", "incomplete" };

		for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
			cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(
				root, keys[i]);

			if (it)
				cJSON_AddItemToObject(keep, keys[i], it);
		}
	}
	text = keep ? cJSON_Print(keep) : NULL;
	cJSON_Delete(keep);
	cJSON_Delete(root);
	return text;
}

bool cli_html_run(const struct html_run *h)
{
	struct html_section s[7];
	struct plot_data_opts o = { .by_comm = true, .to = -1, .lag_cpu = -1 };
	struct plot_data *win = NULL;
	char *lat = NULL, *tl = NULL, *lag = NULL, *cfg = NULL, *wl = NULL;
	char title[256], note[512], worst[512];
	eevdf_time end, delay;
	int pid, cpu, n = 0;
	bool ok = false;

	snprintf(title, sizeof(title), PROG " run: %s", eevdf_sim_name(h->sim));
	if (plot_data_latency_svg(h->pd, "wakeup latency per comm", &lat)) {
		cli_error("--html %s: cannot draw the latencies", h->path);
		goto out;
	}
	s[n++] = (struct html_section){ .heading = "Report", .pre = h->text };
	s[n++] = (struct html_section){
		.heading = "Wakeup latency",
		.note = "From each wakeup to the task's next switch-in, per "
			"comm (the task's name less its [k]): the fraction of "
			"wakeups that waited at most x.",
		.svg = lat
	};
	if (plot_data_worst(h->pd, &pid, &cpu, &end, &delay)) {
		struct eevdf_task_stats st;

		plot_data_window(h->pd, h->end, &o.from, &o.to);
		o.lag_cpu = cpu;
		eevdf_sim_task_stats(h->sim, (size_t)pid - 1, &st);
		snprintf(worst, sizeof(worst),
			 "%s:%d waited %.3f ms on CPU %d for its wakeup, "
			 "which ended at %" PRId64 ".%06" PRId64
			 " s.  What each CPU ran from %.3f to %.3f ms, and "
			 "the lags (V - vruntime) of the tasks queued on CPU "
			 "%d meanwhile:",
			 st.name, pid, (double)delay / 1e6, cpu,
			 end / 1000000000, end / 1000 % 1000000,
			 (double)o.from / 1e6, (double)o.to / 1e6, cpu);
		if (plot_data_window_run(h->argc, h->argv, &o, &win) !=
			    EXIT_OK ||
		    plot_data_timeline_svg(win, "CPUs around it", &tl) ||
		    plot_data_lag_svg(win, "lags on its CPU", &lag)) {
			cli_error("--html %s: cannot draw the window of the "
				  "largest latency",
				  h->path);
			goto out;
		}
		s[n++] = (struct html_section){
			.heading = "The largest wakeup latency",
			.note = worst,
			.svg = tl
		};
		s[n++] = (struct html_section){ .heading = "Lags there",
						.svg = lag };
	}
	cfg = config_text(h->results);
	s[n++] = (struct html_section){ .heading = "Configuration",
					.note = "The results' provenance and "
						"configuration; " PROG
						" rerun takes the "
						"results file of this run.",
					.pre = cfg ? cfg : "(unavailable)" };
	if (h->workload && strcmp(h->workload, "-") != 0)
		wl = cli_read_text(h->workload, (size_t)4 << 20);
	if (wl)
		s[n++] = (struct html_section){ .heading = "The workload file",
						.pre = wl,
						.details = true };
	snprintf(note, sizeof(note), "%s", h->command_line);
	ok = cli_html_write(h->path, title, note, s, (size_t)n);
out:
	plot_data_free(win);
	free(lat);
	free(tl);
	free(lag);
	cJSON_free(cfg);
	free(wl);
	return ok;
}
