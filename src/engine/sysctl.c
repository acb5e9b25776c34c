/* SPDX-License-Identifier: MIT */
/*
 * The kernel knobs of the scheduling classes by the names a user writes
 * them under: the sysctls of /proc/sys/kernel (in their units) and the
 * fair server's debugfs files (sched/fair_server/cpuN/{runtime,period},
 * in ns, set here for every CPU).  eevdf_config_set_sysctl() turns one
 * NAME=VALUE into the configuration's field; the range checks are
 * eevdf_sim_new()'s, as the kernel's handlers check a write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct knob {
	const char *name; /* as /proc/sys/kernel or debugfs sched/ spell it */
	const char *unit; /* "us", "ms", "ns"; NULL: a 0/1 switch */
	int64_t scale;	  /* ns per unit */
	size_t off;	  /* offsetof() the eevdf_config field */
	bool minus_one;	  /* -1 is a value (RUNTIME_INF) */
	const char *what;
};

#define FIELD(f) offsetof(struct eevdf_config, f)
/* a 0/1 sysctl, kept in an int field as -1 (off) or 1 (on) */
#define SWITCH(name, f, what)                                                  \
	{                                                                      \
		name, NULL, 0, FIELD(f), false, what                           \
	}

static const struct knob knobs[] = {
	{ "kernel.sched_rt_runtime_us", "us", 1000, FIELD(rt_runtime), true,
	  "RT tasks' runtime per period (RT throttling up to 6.11, deadline "
	  "admission control in all; -1: no limit)" },
	{ "kernel.sched_rt_period_us", "us", 1000, FIELD(rt_period), false,
	  "the period of sched_rt_runtime_us" },
	{ "kernel.sched_rr_timeslice_ms", "ms", 1000000, FIELD(rr_timeslice),
	  false, "SCHED_RR's time slice (kept in ticks)" },
	{ "sched/fair_server/runtime", "ns", 1, FIELD(fair_server_runtime),
	  false, "the fair server's runtime on every CPU (6.12+; 0: off)" },
	{ "sched/fair_server/period", "ns", 1, FIELD(fair_server_period), false,
	  "the fair server's period on every CPU (6.12+)" },
	SWITCH("kernel.sched_autogroup_enabled", autogroup,
	       "1: each session's tasks of the root cgroup form a task "
	       "group (autogroup, the default); 0: off"),
};

size_t eevdf_sysctl_count(void)
{
	return ARRAY_SIZE(knobs);
}

const char *eevdf_sysctl_name(size_t i)
{
	return i < ARRAY_SIZE(knobs) ? knobs[i].name : NULL;
}

const char *eevdf_sysctl_help(size_t i)
{
	return i < ARRAY_SIZE(knobs) ? knobs[i].what : NULL;
}

/* The knob called name, "kernel." optional for the sysctls. */
static const struct knob *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		const char *k = knobs[i].name;

		if (strcmp(name, k) == 0 ||
		    (strncmp(k, "kernel.", 7) == 0 && strcmp(name, k + 7) == 0))
			return &knobs[i];
	}
	return NULL;
}

int eevdf_config_set_sysctl(struct eevdf_config *cfg, const char *name,
			    const char *value, char *err, size_t errlen)
{
	const struct knob *k;
	long long v;
	char *end;
	int64_t *field;

	if (!cfg || !name || !value)
		return EEVDF_EINVAL;
	if (!(k = find(name))) {
		size_t n = 0;
		char known[256] = "";

		for (size_t i = 0; i < ARRAY_SIZE(knobs) && n < sizeof(known);
		     i++)
			n += (size_t)snprintf(known + n, sizeof(known) - n,
					      "%s%s", i ? ", " : "",
					      knobs[i].name);
		if (err)
			snprintf(err, errlen, "unknown knob '%s' (known: %s)",
				 name, known);
		return EEVDF_EINVAL;
	}
	errno = 0;
	v = strtoll(value, &end, 10);
	if (!k->unit) {
		if (end == value || *end || (v != 0 && v != 1)) {
			if (err)
				snprintf(err, errlen, "%s: '%s' is not 0 or 1",
					 k->name, value);
			return EEVDF_EINVAL;
		}
		*(int *)(void *)((char *)cfg + k->off) = v ? 1 : -1;
		return 0;
	}
	if (end == value || *end || errno == ERANGE ||
	    (v < 0 && !(k->minus_one && v == -1)) || v > INT64_MAX / k->scale) {
		if (err)
			snprintf(err, errlen, "%s: '%s' is not %s in %s",
				 k->name, value,
				 k->minus_one ? "-1 or a whole number" :
						"a whole number",
				 k->unit);
		return EEVDF_EINVAL;
	}
	field = (int64_t *)(void *)((char *)cfg + k->off);
	/* 0 in the configuration keeps the default: a written 0 is
	 * EEVDF_KNOB_ZERO, which eevdf_sim_new() reads as the kernel does */
	*field = v == 0 ? EEVDF_KNOB_ZERO : v == -1 ? -1 : v * k->scale;
	return 0;
}
