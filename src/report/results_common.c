/* SPDX-License-Identifier: MIT */
/* What the results writers (JSON, CSV) spell and compute alike. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "engine/sim.h"
#include "lib/hist.h"
#include "results_impl.h"

int eevdf__sim_machine_digest(const eevdf_sim *sim, char hex[65])
{
	eevdf_machine *flat = NULL;
	int rc;

	if (sim->machine)
		return eevdf_machine_digest(sim->machine, hex);
	/* a library run without a machine: the flat one it ran on */
	rc = eevdf_machine_new_flat(eevdf_sim_nr_cpus(sim), &flat, NULL, 0);
	if (rc == 0)
		rc = eevdf_machine_set_hz(flat, eevdf_sim_hz(sim));
	if (rc == 0)
		rc = eevdf_machine_digest(flat, hex);
	eevdf_machine_free(flat);
	return rc;
}

bool eevdf__feature_list(const eevdf_sim *sim,
			 bool (*emit)(void *ud, const char *name), void *ud)
{
	const char *kernel = eevdf_sim_kernel(sim);
	uint64_t mask = eevdf_sim_features(sim);
	size_t n = eevdf_feature_count();
	char s[64];

	for (size_t i = 0; i < n && i < 64; i++) {
		const char *name = eevdf_feature_name(i);

		/* the release's list, and the RFC knobs that are on */
		if (!name || (!eevdf_feature_in_profile(kernel, i) &&
			      !(eevdf_feature_is_rfc(i) && ((mask >> i) & 1))))
			continue;
		snprintf(s, sizeof(s), "%s%s", (mask >> i) & 1 ? "" : "NO_",
			 name);
		if (!emit(ud, s))
			return false;
	}
	return true;
}

const unsigned int eevdf__summary_permille[4] = { 500, 900, 990, 999 };
const char *const eevdf__summary_pct_names[4] = { "p50", "p90", "p99",
						  "p99_9" };

int eevdf__hist_summary(struct eevdf_hist *h, struct hist_summary *s)
{
	struct eevdf_hist_pct pct[4];

	memset(s, 0, sizeof(*s));
	s->count = eevdf__hist_count(h);
	s->min = eevdf__hist_min(h);
	s->max = eevdf__hist_max(h);
	s->mean = eevdf__hist_mean(h);
	if (!s->count)
		return 0;
	if (eevdf__hist_percentiles(h, eevdf__summary_permille, 4, pct))
		return EEVDF_ENOMEM;
	for (int i = 0; i < 4; i++)
		s->pct[i] = pct[i].value;
	return 0;
}

bool eevdf__is_integer_text(const char *s)
{
	const char *p = s + (*s == '-');

	if (*p < '0' || *p > '9' || (*p == '0' && p[1]))
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return p - s <= 20;
}

const char *eevdf_policy_name(enum eevdf_policy p)
{
	switch (p) {
	case EEVDF_POLICY_NORMAL:
		return "normal";
	case EEVDF_POLICY_BATCH:
		return "batch";
	case EEVDF_POLICY_IDLE:
		return "idle";
	case EEVDF_POLICY_FIFO:
		return "fifo";
	case EEVDF_POLICY_RR:
		return "rr";
	case EEVDF_POLICY_DEADLINE:
		return "deadline";
	}
	return "unknown";
}

const char *eevdf_policy_class(enum eevdf_policy p)
{
	switch (p) {
	case EEVDF_POLICY_NORMAL:
	case EEVDF_POLICY_BATCH:
	case EEVDF_POLICY_IDLE:
		return "fair";
	case EEVDF_POLICY_FIFO:
	case EEVDF_POLICY_RR:
		return "rt";
	case EEVDF_POLICY_DEADLINE:
		return "dl";
	}
	return "unknown";
}

const char *eevdf__state_name(enum eevdf_task_state s)
{
	switch (s) {
	case EEVDF_TASK_RUNNING:
		return "running";
	case EEVDF_TASK_SLEEPING:
		return "sleeping";
	case EEVDF_TASK_DEAD:
		return "dead";
	case EEVDF_TASK_NEW:
		return "new";
	}
	return "unknown";
}

/*
 * Mean delay, truncated toward zero like perf's total_lat / nb_atoms.  The
 * count is unsigned, so divide the magnitude in the unsigned domain: no
 * operand is ever converted out of range.
 */
int64_t eevdf__delay_avg(int64_t sum, uint64_t count)
{
	uint64_t q;

	if (count == 0)
		return 0;
	if (sum >= 0)
		return (int64_t)((uint64_t)sum / count);
	/* Delays are never negative; should one be, stay exact anyway. */
	q = ((uint64_t)0 - (uint64_t)sum) / count;
	return q > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)q;
}
