/* SPDX-License-Identifier: MIT */
/*
 * Results as CSV (RFC 4180): a header line, then one row per task in pid
 * order, with the columns of the JSON "tasks" entries in the same order.
 * The column list is part of the interface: append, never reorder.  The
 * provenance of a run (eevdf_sim_results_csv_run()) comes before them, as
 * leading columns or as comment lines, never in between.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "engine/sim.h"
#include "results_impl.h"

static const char header[] =
	"name,pid,cpu,nice,policy,state,cpu_ns,wait_ns,sleep_ns,switches,"
	"voluntary,involuntary,migrations,delay_count,delay_avg_ns,"
	"delay_max_ns,delay_max_at_ns,delay_sum_ns,cgroup\n";

/* A growing string; err set once an allocation failed. */
struct buf {
	char *s;
	size_t len, cap;
	bool err;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *ns;

		while (cap < b->len + n + 1)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns) {
			b->err = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* A field, quoted when it holds a comma, a quote or a line break. */
static void put_field(struct buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		put(b, s, strlen(s));
		return;
	}
	put(b, "\"", 1);
	for (; *s; s++) {
		put(b, s, 1);
		if (*s == '"') /* a quote is doubled */
			put(b, "\"", 1);
	}
	put(b, "\"", 1);
}

/* The provenance columns, in order (eevdf_sim_results_csv_run()). */
static const char *const meta_keys[] = {
	"tool",	   "library",	     "git",    "workload", "workload_sha256",
	"machine", "machine_digest", "kernel", "features", "seed",
	"params",  "complete",
};

#define NR_META (sizeof(meta_keys) / sizeof(meta_keys[0]))

struct meta {
	const char *v[NR_META];
	char hex[65], seed[24], machine[32];
	struct buf feat, params;
};

static bool put_feature(void *ud, const char *name)
{
	struct buf *b = ud;

	if (b->len)
		put(b, " ", 1);
	put(b, name, strlen(name));
	return !b->err;
}

/* The values of meta_keys for sim and info into m; false when out of
 * memory. */
static bool meta_values(const eevdf_sim *sim, const struct eevdf_run_info *info,
			struct meta *m)
{
	static const char *const complete[] = { "false", "true" };
	const char *machine = sim->machine ? eevdf_machine_name(sim->machine) :
					     NULL;

	if (eevdf__sim_machine_digest(sim, m->hex) < 0)
		return false;
	eevdf__feature_list(sim, put_feature, &m->feat);
	for (size_t i = 0; i < info->nr_params; i++) {
		if (i)
			put(&m->params, " ", 1);
		put(&m->params, info->param_names[i],
		    strlen(info->param_names[i]));
		put(&m->params, "=", 1);
		put(&m->params, info->param_values[i],
		    strlen(info->param_values[i]));
	}
	if (m->feat.err || m->params.err)
		return false;
	snprintf(m->seed, sizeof(m->seed), "%" PRIu64, eevdf_sim_seed(sim));
	if (!machine) {
		snprintf(m->machine, sizeof(m->machine), "flat-%d",
			 eevdf_sim_nr_cpus(sim));
		machine = m->machine;
	}
	m->v[0] = info->tool ? info->tool : "";
	m->v[1] = eevdf_version_string();
	m->v[2] = info->git ? info->git : "";
	m->v[3] = info->workload_path ? info->workload_path :
					eevdf_sim_name(sim);
	m->v[4] = info->workload_sha256 ? info->workload_sha256 : "";
	m->v[5] = machine;
	m->v[6] = m->hex;
	m->v[7] = eevdf_sim_kernel(sim);
	m->v[8] = m->feat.s ? m->feat.s : "";
	m->v[9] = m->seed;
	m->v[10] = m->params.s ? m->params.s : "";
	m->v[11] = info->complete >= 0 ? complete[info->complete != 0] : "";
	return true;
}

static int results_csv(const eevdf_sim *sim, const struct eevdf_run_info *info,
		       enum eevdf_csv_meta mode, char **out)
{
	struct buf b = { NULL, 0, 0, false };
	struct meta m;
	size_t n;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim || mode < EEVDF_CSV_META_NONE ||
	    mode > EEVDF_CSV_META_COMMENTS || (mode && !info))
		return EEVDF_EINVAL;
	memset(&m, 0, sizeof(m));
	if (mode && !meta_values(sim, info, &m)) {
		free(m.feat.s);
		free(m.params.s);
		return EEVDF_ENOMEM;
	}
	for (size_t k = 0; mode == EEVDF_CSV_META_COMMENTS && k < NR_META;
	     k++) {
		/* a comment is one line: its value may not break it */
		put(&b, "# ", 2);
		put(&b, meta_keys[k], strlen(meta_keys[k]));
		put(&b, ": ", 2);
		for (const char *c = m.v[k]; *c; c++)
			put(&b, *c == '\n' || *c == '\r' ? " " : c, 1);
		put(&b, "\n", 1);
	}
	for (size_t k = 0; mode == EEVDF_CSV_META_COLUMNS && k < NR_META; k++) {
		put(&b, meta_keys[k], strlen(meta_keys[k]));
		put(&b, ",", 1);
	}
	put(&b, header, sizeof(header) - 1);
	n = eevdf_sim_nr_tasks(sim);
	for (size_t i = 0; i < n; i++) {
		struct eevdf_task_stats t;
		char row[512];
		int len;

		if (eevdf_sim_task_stats(sim, i, &t) < 0) {
			free(b.s);
			free(m.feat.s);
			free(m.params.s);
			return EEVDF_EINVAL;
		}
		for (size_t k = 0;
		     mode == EEVDF_CSV_META_COLUMNS && k < NR_META; k++) {
			put_field(&b, m.v[k]);
			put(&b, ",", 1);
		}
		put_field(&b, t.name);
		len = snprintf(row, sizeof(row),
			       ",%d,%d,%d,%s,%s,%" PRId64 ",%" PRId64
			       ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			       ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
			       ",%" PRId64 ",%" PRId64 ",",
			       t.pid, t.cpu, t.nice,
			       eevdf_policy_name(t.policy),
			       eevdf__state_name(t.state), t.cpu_ns, t.wait_ns,
			       t.sleep_ns, t.switches, t.voluntary,
			       t.involuntary, t.migrations, t.delay_count,
			       eevdf__delay_avg(t.delay_sum_ns, t.delay_count),
			       t.delay_max_ns, t.delay_max_at, t.delay_sum_ns);
		put(&b, row, (size_t)len);
		/* the group, the root's "/" too: a CSV has fixed columns */
		put_field(&b, t.cgroup ? t.cgroup : "/");
		put(&b, "\n", 1);
	}
	free(m.feat.s);
	free(m.params.s);
	if (b.err) {
		free(b.s);
		return EEVDF_ENOMEM;
	}
	*out = b.s;
	return 0;
}

int eevdf_sim_results_csv(const eevdf_sim *sim, char **out)
{
	return results_csv(sim, NULL, EEVDF_CSV_META_NONE, out);
}

int eevdf_sim_results_csv_run(const eevdf_sim *sim,
			      const struct eevdf_run_info *info,
			      enum eevdf_csv_meta meta, char **out)
{
	return results_csv(sim, info, meta, out);
}
