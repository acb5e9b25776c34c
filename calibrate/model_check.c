/* SPDX-License-Identifier: MIT */
/* The micro-benchmarks in the simulator (model_check.h). */
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "model_check.h"
#include "series.h"
#include "simrun.h"

/* The common head: N operations, the time they took over N. */
#define HEAD(name)                                                                    \
	"{\"format\":\"eevdf-sim-workload/1\",\"name\":\"" name "\","                 \
	"\"params\":{\"n\":1000,\"a\":0,\"b\":0},\"stop\":{\"when\":\"all_exited\"}," \
	"\"duration\":\"60s\",\"metrics\":{\"per_op\":{\"type\":\"value\","           \
	"\"unit\":\"ns\"}},"
#define TIMED_BY(body, ops)                                                    \
	"[{\"let\":{\"@t0\":\"now\"}},{\"loop\":{\"count\":\"${n}\","          \
	"\"body\":" body "}},{\"record\":{\"metric\":\"per_op\","              \
	"\"value\":\"(now - @t0) / (" ops ")\"}}]"
#define TIMED(body) TIMED_BY(body, "${n}")
#define LOOP(body) "[{\"loop\":{\"count\":\"${n}\",\"body\":" body "}}]"

static const struct {
	const char *series, *what;
	int cpus; /* 1: on CPU a; 2: the second task on CPU b */
	int n;
	const char *json; /* params n (repetitions), a and b (CPUs) */
} checks[CAL_NR_CHECKS] = {
	{ "yield_pair_thread", "two threads yielding to each other", 1, 2000,
	  HEAD("yield-pair") "\"tasks\":["
			     "{\"name\":\"a\",\"kind\":\"thread\",\"cpus\":[\"${a}\"],"
			     "\"program\":" TIMED_BY(
				     "[{\"yield\":{}}]",
				     "2 * ${n}") "},"
						 "{\"name\":\"b\",\"kind\":\"thread\",\"cpus\":[\"${b}\"],"
						 "\"program\":" LOOP(
							 "[{\"yield\":{}}]") "}]}" },
	{ "pipe_rt_same_cpu", "pipe ping-pong on one CPU", 1, 2000,
	  HEAD("pipe-same-cpu") "\"objects\":["
				"{\"type\":\"channel\",\"name\":\"p1\"},"
				"{\"type\":\"channel\",\"name\":\"p2\"}],"
				"\"tasks\":["
				"{\"name\":\"a\",\"kind\":\"thread\",\"cpus\":[\"${a}\"],"
				"\"program\":" TIMED(
					"[{\"send\":{\"chan\":\"p1\",\"bytes\":4}},"
					"{\"recv\":{\"chan\":\"p2\",\"bytes\":4}}]") "},"
										     "{\"name\":\"b\",\"kind\":\"thread\",\"cpus\":[\"${b}\"],"
										     "\"program\":" LOOP(
											     "[{\"recv\":{\"chan\":\"p1\",\"bytes\":4}},"
											     "{\"send\":{\"chan\":\"p2\",\"bytes\":4}}]") "}]}" },
	{ "futex_rt_same_cpu", "futex ping-pong on one CPU", 1, 2000,
	  HEAD("futex-same-cpu") "\"objects\":["
				 "{\"type\":\"sem\",\"name\":\"f1\",\"max\":1},"
				 "{\"type\":\"sem\",\"name\":\"f2\",\"max\":1}],"
				 "\"tasks\":["
				 "{\"name\":\"a\",\"kind\":\"thread\",\"cpus\":[\"${a}\"],"
				 "\"program\":" TIMED(
					 "[{\"post\":{\"sem\":\"f1\"}},"
					 "{\"wait\":{\"sem\":\"f2\"}}]") "},"
									 "{\"name\":\"b\",\"kind\":\"thread\",\"cpus\":[\"${b}\"],"
									 "\"program\":" LOOP(
										 "[{\"wait\":{\"sem\":\"f1\"}},"
										 "{\"post\":{\"sem\":\"f2\"}}]") "}]}" },
	{ "timer_wakeup_idle", "a timer wakeup on an idle CPU", 1, 200,
	  HEAD("idle-wakeup") "\"tasks\":["
			      "{\"name\":\"a\",\"kind\":\"thread\",\"cpus\":[\"${a}\"],"
			      "\"program\":["
			      "{\"let\":{\"@sum\":0}},"
			      "{\"loop\":{\"count\":\"${n}\",\"body\":["
			      "{\"let\":{\"@at\":\"now + 1ms\"}},"
			      "{\"sleep_until\":{\"at\":\"@at\"}},"
			      "{\"let\":{\"@sum\":\"@sum + now - @at\"}}]}},"
			      "{\"record\":{\"metric\":\"per_op\","
			      "\"value\":\"@sum / ${n}\"}}]}]}" },
	{ "fork_cycle", "fork + exit + wait on one CPU", 1, 200,
	  HEAD("fork-cycle") "\"templates\":{\"child\":{\"kind\":\"process\","
			     "\"program\":[{\"exit\":{}}]}},"
			     "\"tasks\":["
			     "{\"name\":\"a\",\"kind\":\"process\",\"cpus\":[\"${a}\"],"
			     "\"program\":" TIMED(
				     "[{\"spawn\":{\"template\":\"child\"}},"
				     "{\"join\":{\"tasks\":\"children\"}}]") "}]}" },
	{ "pipe_rt_cross_idle", "pipe ping-pong across two idle CPUs", 2, 400,
	  HEAD("pipe-cross-cpu") "\"objects\":["
				 "{\"type\":\"channel\",\"name\":\"p1\"},"
				 "{\"type\":\"channel\",\"name\":\"p2\"}],"
				 "\"tasks\":["
				 "{\"name\":\"a\",\"kind\":\"thread\",\"cpus\":[\"${a}\"],"
				 "\"program\":" TIMED(
					 "[{\"send\":{\"chan\":\"p1\",\"bytes\":4}},"
					 "{\"recv\":{\"chan\":\"p2\",\"bytes\":4}}]") "},"
										      "{\"name\":\"b\",\"kind\":\"thread\",\"cpus\":[\"${b}\"],"
										      "\"program\":" LOOP(
											      "[{\"recv\":{\"chan\":\"p1\",\"bytes\":4}},"
											      "{\"send\":{\"chan\":\"p2\",\"bytes\":4}}]") "}]}" },
};

const char *cal_check_workload(int i, const char **series, const char **what,
			       int *cpus, int *n)
{
	if (i < 0 || i >= CAL_NR_CHECKS)
		return NULL;
	*series = checks[i].series;
	*what = checks[i].what;
	*cpus = checks[i].cpus;
	*n = checks[i].n;
	return checks[i].json;
}

int cal_model_checks(const eevdf_machine *m, const char *kernel, int a, int b,
		     const struct cal_set *set, struct cal_check *out,
		     size_t *nr, char *err, size_t len)
{
	struct cal_simrun r = { .machine = m, .kernel = kernel };

	*nr = 0;
	for (int i = 0; i < CAL_NR_CHECKS; i++) {
		const struct cal_series *s;
		const char *series, *what, *json;
		char pa[32], pb[32], pn[32];
		const char *params[] = { pa, pb, pn };
		cJSON *res = NULL;
		int cpus, n;
		double v;

		json = cal_check_workload(i, &series, &what, &cpus, &n);
		s = cal_set_find(set, series);
		if (!s || (cpus == 2 && b < 0))
			continue;
		snprintf(pa, sizeof(pa), "a=%d", a);
		snprintf(pb, sizeof(pb), "b=%d", cpus == 2 ? b : a);
		snprintf(pn, sizeof(pn), "n=%d", n);
		if (cal_sim_run(&r, series, json, params, 3, &res, err, len) <
		    0)
			return -1;
		if (!cal_results_metric(res, "per_op", NULL, &v)) {
			cJSON_Delete(res);
			snprintf(err, len, "%s: no per_op in its results",
				 series);
			return -1;
		}
		cJSON_Delete(res);
		out[*nr].series = series;
		out[*nr].what = what;
		out[*nr].measured = s->st.median;
		out[*nr].model = v;
		(*nr)++;
	}
	return 0;
}
