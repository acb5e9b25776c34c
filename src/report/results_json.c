/* SPDX-License-Identifier: MIT */
/*
 * eevdf_sim_results_json(): the results of a simulation as the
 * "eevdf-sim-result/1" JSON document, built from the public getters and,
 * for the workload metrics, from the metrics engine.
 *
 * cJSON keeps numbers as doubles, which are exact only up to 2^53; every
 * integer here is therefore emitted as a raw token printed from the 64-bit
 * value, so that readers which parse integers exactly (Python, jq 1.7) see
 * the very nanosecond the simulator counted.  No floating point is used.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "eevdf/eevdf.h"
#include "engine/metrics.h"
#include "lib/utf8.h"
#include "results_impl.h"
#include "engine/sim.h"

#define RESULT_FORMAT "eevdf-sim-result/1"

/*
 * A signed 128-bit accumulator (two's complement in hi:lo) for the summary
 * totals: a sum over up to EEVDF_MAX_TASKS tasks of 64-bit nanosecond
 * counts can exceed 2^63, and signed overflow would be undefined behaviour.
 */
struct acc128 {
	uint64_t lo;
	uint64_t hi;
};

static void acc_add_s64(struct acc128 *a, int64_t v)
{
	uint64_t old = a->lo;

	a->lo += (uint64_t)v;
	a->hi += (a->lo < old) + (v < 0 ? UINT64_MAX : 0);
}

static void acc_add_u64(struct acc128 *a, uint64_t v)
{
	uint64_t old = a->lo;

	a->lo += v;
	a->hi += a->lo < old;
}

/* Decimal text of a; buf must hold at least 41 bytes (sign, 39 digits). */
static void acc_format(const struct acc128 *a, char *buf)
{
	uint32_t limb[4];
	char digits[40];
	uint64_t hi = a->hi, lo = a->lo;
	bool neg = hi >> 63;
	size_t nd = 0;
	char *p = buf;

	if (neg) {
		/* Negate: invert and add one, carrying into the high word. */
		hi = ~hi;
		lo = ~lo + 1;
		hi += lo == 0;
	}
	limb[0] = (uint32_t)(hi >> 32);
	limb[1] = (uint32_t)hi;
	limb[2] = (uint32_t)(lo >> 32);
	limb[3] = (uint32_t)lo;

	/* Long division by 10, most significant limb first. */
	do {
		uint64_t rem = 0;
		bool zero = true;

		for (int i = 0; i < 4; i++) {
			uint64_t cur = rem << 32 | limb[i];

			limb[i] = (uint32_t)(cur / 10);
			rem = cur % 10;
			zero = zero && limb[i] == 0;
		}
		digits[nd++] = (char)('0' + rem);
		if (zero)
			break;
	} while (nd < sizeof(digits));

	if (neg)
		*p++ = '-';
	while (nd)
		*p++ = digits[--nd];
	*p = '\0';
}

/*
 * cJSON_AddItemToObject() neither frees the item on failure nor accepts
 * NULL gracefully for our purpose; this does both, so that every caller
 * can create-and-attach in one step and only ever owns the root.
 */
static bool attach(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObject(obj, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static bool append(cJSON *arr, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToArray(arr, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static bool add_raw(cJSON *obj, const char *key, const char *text)
{
	return cJSON_AddRawToObject(obj, key, text) != NULL;
}

static bool add_s64(cJSON *obj, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return add_raw(obj, key, buf);
}

static bool add_u64(cJSON *obj, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return add_raw(obj, key, buf);
}

static bool add_acc(cJSON *obj, const char *key, const struct acc128 *a)
{
	char buf[48];

	acc_format(a, buf);
	return add_raw(obj, key, buf);
}

static bool add_str(cJSON *obj, const char *key, const char *s)
{
	return cJSON_AddStringToObject(obj, key, s ? s : "") != NULL;
}

/* The effective feature set, in list order, of the features the profile has. */
static bool append_str(void *arr, const char *s)
{
	return append(arr, cJSON_CreateString(s));
}

static bool add_features(cJSON *config, const eevdf_sim *sim)
{
	cJSON *arr = cJSON_CreateArray();

	return attach(config, "features", arr) &&
	       eevdf__feature_list(sim, append_str, arr);
}

/*
 * The machine the run had: its name and shape.  A simulation without one
 * of its own ran on the flat machine of its CPU count, so the results say
 * that, in the name --cpus N gives it.
 */
static bool add_machine(cJSON *config, const eevdf_sim *sim, bool digest)
{
	const struct eevdf_machine *m = sim->machine;
	int n = eevdf_sim_nr_cpus(sim);
	cJSON *o = cJSON_CreateObject();
	char flat[32], hex[65];

	snprintf(flat, sizeof(flat), "flat-%d", n);
	if (digest && eevdf__sim_machine_digest(sim, hex) < 0)
		return false;
	return attach(config, "machine", o) &&
	       (!digest || add_str(o, "digest", hex)) &&
	       add_str(o, "name", m ? eevdf_machine_name(m) : flat) &&
	       add_s64(o, "cpus", n) &&
	       add_s64(o, "cores", m ? eevdf_machine_nr_cores(m) : n) &&
	       add_s64(o, "llcs", m ? eevdf_machine_nr_llcs(m) : 1) &&
	       add_s64(o, "packages", m ? eevdf_machine_nr_packages(m) : 1) &&
	       add_s64(o, "hz", eevdf_sim_hz(sim));
}

/* Placement and balancing totals (struct eevdf_smp_stats). */
static bool add_smp(cJSON *root, const eevdf_sim *sim)
{
	struct eevdf_smp_stats st;
	cJSON *o = cJSON_CreateObject();

	eevdf_sim_smp_stats(sim, &st);
	return attach(root, "smp", o) && add_u64(o, "wakeups", st.wakeups) &&
	       add_u64(o, "wakeups_idle", st.wakeups_idle) &&
	       add_u64(o, "wakeups_affine", st.wakeups_affine) &&
	       add_u64(o, "wakeups_remote", st.wakeups_remote) &&
	       add_u64(o, "migrations", st.migrations) &&
	       add_u64(o, "migrations_wakeup", st.migrations_wakeup) &&
	       add_u64(o, "migrations_balance", st.migrations_balance) &&
	       add_u64(o, "migrations_newidle", st.migrations_newidle) &&
	       add_u64(o, "balance_runs", st.balance_runs) &&
	       add_u64(o, "wakeups_direct_remote", st.wakeups_direct_remote) &&
	       add_u64(o, "sis_probes", st.sis_probes) &&
	       add_u64(o, "ipis", st.ipis) &&
	       add_u64(o, "wakelist_tasks", st.wakelist_tasks) &&
	       add_u64(o, "wakelist_batch_max", st.wakelist_batch_max);
}

/*
 * The I/O model's devices and file systems: only in runs that have them,
 * so that other results stay as they were.
 */
static bool add_io(cJSON *root, const eevdf_sim *sim)
{
	size_t nd = eevdf_sim_nr_devices(sim),
	       nf = eevdf_sim_nr_filesystems(sim);
	cJSON *devs, *fss;

	if (!nd && !nf)
		return true;
	devs = cJSON_CreateArray();
	if (!attach(root, "devices", devs))
		return false;
	for (size_t i = 0; i < nd; i++) {
		struct eevdf_device_stats st;
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(devs, o) ||
		    eevdf_sim_device_stats(sim, i, &st))
			return false;
		if (!add_str(o, "name", st.name) ||
		    !add_str(o, "preset", st.preset) ||
		    !add_u64(o, "reads", st.reads) ||
		    !add_u64(o, "writes", st.writes) ||
		    !add_u64(o, "flushes", st.flushes) ||
		    !add_u64(o, "read_bytes", st.read_bytes) ||
		    !add_u64(o, "write_bytes", st.write_bytes) ||
		    !add_s64(o, "busy_ns", st.busy_ns) ||
		    !add_u64(o, "completed", st.completed) ||
		    !add_s64(o, "wait_avg_ns",
			     st.completed ?
				     st.wait_sum_ns / (eevdf_time)st.completed :
				     0) ||
		    !add_s64(o, "wait_max_ns", st.wait_max_ns) ||
		    !add_u64(o, "max_inflight", st.max_inflight) ||
		    !add_u64(o, "restarts", st.restarts) ||
		    !add_u64(o, "irqs", st.irqs) ||
		    !add_u64(o, "softirq_deferred", st.softirq_deferred))
			return false;
	}
	fss = cJSON_CreateArray();
	if (!attach(root, "filesystems", fss))
		return false;
	for (size_t i = 0; i < nf; i++) {
		struct eevdf_fs_stats st;
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(fss, o) ||
		    eevdf_sim_fs_stats(sim, i, &st))
			return false;
		if (!add_str(o, "name", st.name) ||
		    !add_str(o, "device", st.device) ||
		    !add_u64(o, "cache_hits", st.cache_hits) ||
		    !add_u64(o, "cache_misses", st.cache_misses) ||
		    !add_u64(o, "evicted", st.evicted) ||
		    !add_u64(o, "written_back", st.written_back) ||
		    !add_u64(o, "background_passes", st.background_passes) ||
		    !add_u64(o, "kupdate_passes", st.kupdate_passes) ||
		    !add_u64(o, "commits", st.commits) ||
		    !add_u64(o, "handle_waits", st.handle_waits) ||
		    !add_u64(o, "throttled", st.throttled) ||
		    !add_s64(o, "throttle_ns", st.throttle_ns))
			return false;
	}
	return true;
}

/*
 * The RT and deadline classes (struct eevdf_class_stats): only in runs that
 * had such tasks or changed a knob, so that fair-only results stay as
 * they were.
 */
static bool add_classes(cJSON *root, const eevdf_sim *sim)
{
	struct eevdf_class_stats st;
	cJSON *o, *k;

	eevdf_sim_class_stats(sim, &st);
	if (!st.active)
		return true;
	/* k made once o is held: a failed attach of o must not leave k */
	o = cJSON_CreateObject();
	if (!attach(root, "classes", o))
		return false;
	k = cJSON_CreateObject();
	return attach(o, "knobs", k) &&
	       add_s64(k, "sched_rt_runtime_ns", st.rt_runtime) &&
	       add_s64(k, "sched_rt_period_ns", st.rt_period) &&
	       add_s64(k, "sched_rr_timeslice_ns", st.rr_timeslice) &&
	       attach(k, "rt_throttling", cJSON_CreateBool(st.rt_throttling)) &&
	       attach(k, "fair_server", cJSON_CreateBool(st.fair_server)) &&
	       add_s64(k, "fair_server_runtime_ns", st.fair_server_runtime) &&
	       add_s64(k, "fair_server_period_ns", st.fair_server_period) &&
	       add_u64(o, "rt_tasks", st.rt_tasks) &&
	       add_u64(o, "dl_tasks", st.dl_tasks) &&
	       add_u64(o, "rt_throttled", st.rt_throttled) &&
	       add_u64(o, "rt_pushes", st.rt_pushes) &&
	       add_u64(o, "rt_pulls", st.rt_pulls) &&
	       add_u64(o, "dl_pushes", st.dl_pushes) &&
	       add_u64(o, "dl_pulls", st.dl_pulls) &&
	       add_u64(o, "fair_server_starts", st.fair_server_starts) &&
	       add_u64(o, "fair_server_stops", st.fair_server_stops) &&
	       add_s64(o, "fair_server_ns", st.fair_server_ns) &&
	       add_u64(o, "dl_bw", st.dl_bw) &&
	       add_s64(o, "dl_bw_limit", st.dl_bw_limit);
}

/*
 * The task groups (struct eevdf_group_stats), when the run had one besides
 * the root: autogroup's switch, then each group as its cgroup files and
 * cpu.stat read, with its tasks' delays.
 */
static bool add_group(cJSON *arr, const struct eevdf_group_stats *g)
{
	cJSON *o = cJSON_CreateObject();

	if (!append(arr, o) || !add_str(o, "path", g->path) ||
	    (g->parent && !add_str(o, "parent", g->parent)))
		return false;
	if (g->autogroup && (!attach(o, "autogroup", cJSON_CreateBool(true)) ||
			     !add_u64(o, "session", g->session) ||
			     !add_s64(o, "nice", g->nice)))
		return false;
	if (g->parent && !add_u64(o, "cpu_weight", g->weight))
		return false;
	/* an autogroup has a nice, not the cgroup files */
	if (g->parent && !g->autogroup &&
	    (!attach(o, "cpu_idle", cJSON_CreateBool(g->idle)) ||
	     !(g->max_quota == EEVDF_GROUP_NO_QUOTA ?
		       add_str(o, "cpu_max_quota", "max") :
		       add_s64(o, "cpu_max_quota_ns", g->max_quota)) ||
	     !add_s64(o, "cpu_max_period_ns", g->max_period)))
		return false;
	return add_u64(o, "nr_tasks", g->nr_tasks) &&
	       add_s64(o, "cpu_ns", g->cpu_ns) &&
	       add_u64(o, "nr_periods", g->nr_periods) &&
	       add_u64(o, "nr_throttled", g->nr_throttled) &&
	       add_s64(o, "throttled_ns", g->throttled_ns) &&
	       add_u64(o, "delay_count", g->delay_count) &&
	       add_s64(o, "delay_avg_ns",
		       eevdf__delay_avg(g->delay_sum_ns, g->delay_count)) &&
	       add_s64(o, "delay_max_ns", g->delay_max_ns) &&
	       add_s64(o, "delay_sum_ns", g->delay_sum_ns);
}

static bool add_groups(cJSON *root, const eevdf_sim *sim)
{
	size_t n = eevdf_sim_nr_groups(sim);
	cJSON *o, *arr;

	if (n < 2)
		return true;
	/* each made once its parent holds it: a failed attach frees it,
	 * and nothing made earlier is left loose (allocation-failure loop) */
	o = cJSON_CreateObject();
	if (!attach(root, "groups", o) ||
	    !attach(o, "autogroup", cJSON_CreateBool(eevdf_sim_autogroup(sim))))
		return false;
	arr = cJSON_CreateArray();
	if (!attach(o, "list", arr))
		return false;
	for (size_t i = 0; i < n; i++) {
		struct eevdf_group_stats g;

		if (eevdf_sim_group_stats(sim, i, &g) || !add_group(arr, &g))
			return false;
	}
	return true;
}

/* The workload's params, each a number when it reads as one. */
static bool add_params(cJSON *config, const struct eevdf_run_info *info)
{
	cJSON *o = cJSON_CreateObject();

	if (!attach(config, "params", o))
		return false;
	for (size_t i = 0; i < info->nr_params; i++) {
		const char *v = info->param_values[i];

		if (!(eevdf__is_integer_text(v) ?
			      add_raw(o, info->param_names[i], v) :
			      add_str(o, info->param_names[i], v)))
			return false;
	}
	return true;
}

static bool add_opt_str(cJSON *o, const char *key, const char *s)
{
	return !s || add_str(o, key, s);
}

static bool add_config(cJSON *root, const eevdf_sim *sim,
		       const struct eevdf_run_info *info)
{
	cJSON *c = cJSON_CreateObject();

	return attach(root, "config", c) &&
	       add_str(c, "workload", eevdf_sim_name(sim)) &&
	       (!info ||
		(add_opt_str(c, "workload_path", info->workload_path) &&
		 add_opt_str(c, "workload_sha256", info->workload_sha256) &&
		 add_opt_str(c, "duration_param", info->duration_param) &&
		 (!info->nr_params || add_params(c, info)))) &&
	       add_str(c, "kernel", eevdf_sim_kernel(sim)) &&
	       add_features(c, sim) &&
	       add_u64(c, "seed", eevdf_sim_seed(sim)) &&
	       add_s64(c, "duration_ns", eevdf_sim_duration(sim)) &&
	       add_s64(c, "simulated_ns", eevdf_sim_now(sim)) &&
	       add_s64(c, "nr_cpus", eevdf_sim_nr_cpus(sim)) &&
	       add_s64(c, "hz", eevdf_sim_hz(sim)) &&
	       attach(c, "autogroup",
		      cJSON_CreateBool(eevdf_sim_autogroup(sim))) &&
	       add_machine(c, sim, info != NULL) &&
	       add_s64(c, "base_slice_ns", eevdf_sim_base_slice(sim));
}

/* An RT or deadline task's class and parameters (a fair task has none:
 * its class is "fair", left out so that fair-only results stay as they
 * were). */
static bool add_class(cJSON *o, const struct eevdf_task_stats *t)
{
	if (t->policy == EEVDF_POLICY_FIFO || t->policy == EEVDF_POLICY_RR)
		return add_str(o, "class", "rt") &&
		       add_u64(o, "rt_priority", t->rt_priority);
	if (t->policy == EEVDF_POLICY_DEADLINE)
		return add_str(o, "class", "dl") &&
		       add_s64(o, "dl_runtime_ns", t->dl_runtime) &&
		       add_s64(o, "dl_deadline_ns", t->dl_deadline) &&
		       add_s64(o, "dl_period_ns", t->dl_period);
	return true;
}

/* A task's group, left out for the root's so that runs without groups
 * read as they did; last, as in the CSV, whose columns before it are
 * fixed. */
static bool add_cgroup(cJSON *o, const struct eevdf_task_stats *t)
{
	return !t->cgroup || strcmp(t->cgroup, "/") == 0 ||
	       add_str(o, "cgroup", t->cgroup);
}

static bool add_task(cJSON *arr, const struct eevdf_task_stats *t)
{
	cJSON *o = cJSON_CreateObject();

	return append(arr, o) && add_str(o, "name", t->name) &&
	       add_s64(o, "pid", t->pid) && add_s64(o, "cpu", t->cpu) &&
	       add_s64(o, "nice", t->nice) &&
	       add_str(o, "policy", eevdf_policy_name(t->policy)) &&
	       add_class(o, t) &&
	       add_str(o, "state", eevdf__state_name(t->state)) &&
	       add_s64(o, "cpu_ns", t->cpu_ns) &&
	       add_s64(o, "wait_ns", t->wait_ns) &&
	       add_s64(o, "sleep_ns", t->sleep_ns) &&
	       add_u64(o, "switches", t->switches) &&
	       add_u64(o, "voluntary", t->voluntary) &&
	       add_u64(o, "involuntary", t->involuntary) &&
	       add_u64(o, "migrations", t->migrations) &&
	       add_u64(o, "delay_count", t->delay_count) &&
	       add_s64(o, "delay_avg_ns",
		       eevdf__delay_avg(t->delay_sum_ns, t->delay_count)) &&
	       add_s64(o, "delay_max_ns", t->delay_max_ns) &&
	       add_s64(o, "delay_max_at_ns", t->delay_max_at) &&
	       add_s64(o, "delay_sum_ns", t->delay_sum_ns) && add_cgroup(o, t);
}

/* The CPU's rq lock: taken how often, how often contended, spin. */
static bool add_lock(cJSON *cpu, const struct eevdf_cpu_stats *c)
{
	cJSON *o = cJSON_CreateObject();

	return attach(cpu, "rq_lock", o) &&
	       add_u64(o, "acquisitions", c->lock_acquisitions) &&
	       add_u64(o, "contended", c->lock_contended) &&
	       add_s64(o, "spin_ns", c->lock_spin_ns) &&
	       add_s64(o, "spin_max_ns", c->lock_spin_max_ns) &&
	       add_s64(o, "hold_ns", c->lock_hold_ns);
}

static bool add_cpu(cJSON *arr, const struct eevdf_cpu_stats *c)
{
	cJSON *o = cJSON_CreateObject();

	return append(arr, o) && add_s64(o, "cpu", c->cpu) &&
	       add_s64(o, "busy_ns", c->busy_ns) &&
	       add_s64(o, "idle_ns", c->idle_ns) &&
	       add_u64(o, "switches", c->switches) &&
	       add_u64(o, "ticks", c->ticks) && add_lock(o, c);
}

/* count, min, max, mean and schbench's percentiles of a histogram. */
static bool add_hist(cJSON *o, struct eevdf_hist *h)
{
	struct hist_summary s;
	bool ok;

	if (eevdf__hist_summary(h, &s))
		return false;
	ok = add_u64(o, "count", s.count) && add_s64(o, "min", s.min) &&
	     add_s64(o, "max", s.max) && add_s64(o, "mean", s.mean);
	for (int i = 0; i < 4 && ok && s.count; i++)
		ok = add_s64(o, eevdf__summary_pct_names[i], s.pct[i]);
	return ok;
}

static bool add_cell(cJSON *o, const struct eevdf_sim *sim,
		     const struct metric *m, const struct metric_cell *c)
{
	if (m->keyed) {
		const char *name = eevdf__sim_string(sim, c->key);

		if (!(name ? add_str(o, "key", name) :
			     add_s64(o, "key", c->key)))
			return false;
	}
	if (m->type == MET_HIST || m->type == MET_RATE) {
		if (c->hist)
			return add_hist(o, c->hist);
		return add_u64(o, "count", 0);
	}
	return add_s64(o, "value", c->value);
}

/* The workload's metrics, by name, in the order the workload lists them. */
static bool add_metrics(cJSON *root, const struct eevdf_sim *sim)
{
	cJSON *all = cJSON_CreateObject();

	if (!attach(root, "metrics", all))
		return false;
	for (size_t i = 0; i < sim->nr_metrics; i++) {
		const struct metric *m = sim->metrics[i];
		cJSON *o = cJSON_CreateObject();

		if (!attach(all, m->name, o) ||
		    !add_str(o, "type", eevdf__metric_type_name(m->type)))
			return false;
		if (m->keyed) {
			cJSON *cells = cJSON_CreateArray();

			if (!attach(o, "cells", cells))
				return false;
			for (u32 k = 0; k < m->nr_cells; k++) {
				cJSON *c = cJSON_CreateObject();

				if (!append(cells, c) ||
				    !add_cell(c, sim, m, &m->cells[k]))
					return false;
			}
		} else if (!add_cell(o, sim, m, &m->all)) {
			return false;
		}
		if (m->per_task && m->per_task_sum) {
			cJSON *pt = cJSON_CreateObject();

			if (!attach(o, "per_task", pt))
				return false;
			for (size_t t = 0; t < m->nr_per_task; t++)
				if (!add_s64(pt,
					     eevdf__sim_task_name(sim,
								  (int)t + 1),
					     m->per_task_sum[t]))
					return false;
		}
	}
	return true;
}

/*
 * Build the whole document under root.  Returns 0, EEVDF_ENOMEM, or the
 * error of a getter (which cannot fail for indices it reported itself).
 */
/* Where the run came from: enough to run it again (eevdf-sim rerun). */
static bool add_provenance(cJSON *root, const struct eevdf_run_info *info)
{
	cJSON *o = cJSON_CreateObject(), *argv;

	if (!attach(root, "provenance", o) ||
	    !add_opt_str(o, "tool", info->tool) ||
	    !add_str(o, "library", eevdf_version_string()) ||
	    !add_opt_str(o, "git", info->git))
		return false;
	if (!info->argc)
		return true;
	argv = cJSON_CreateArray();
	if (!attach(o, "command_line", argv))
		return false;
	for (size_t i = 0; i < info->argc; i++)
		if (!append(argv, cJSON_CreateString(info->argv[i])))
			return false;
	return true;
}

/* info: the provenance to write, or NULL; head: the summary's extras. */
static int build(cJSON *root, const eevdf_sim *sim,
		 const struct eevdf_run_info *info,
		 const struct eevdf_headline *head, size_t nr_head)
{
	struct acc128 cpu_total = { 0, 0 }, delay_total = { 0, 0 };
	struct acc128 nr_switches = { 0, 0 };
	int64_t max_delay = 0;
	size_t nr_tasks = eevdf_sim_nr_tasks(sim);
	int nr_cpus = eevdf_sim_nr_cpus(sim);
	cJSON *tasks, *cpus, *summary;
	int rc;

	if (!add_str(root, "format", RESULT_FORMAT))
		return EEVDF_ENOMEM;
	if (info && info->complete >= 0 &&
	    (!attach(root, "complete", cJSON_CreateBool(info->complete)) ||
	     (!info->complete &&
	      !add_str(root, "incomplete",
		       info->incomplete ? info->incomplete : ""))))
		return EEVDF_ENOMEM;
	if ((info && !add_provenance(root, info)) ||
	    !add_config(root, sim, info))
		return EEVDF_ENOMEM;

	tasks = cJSON_CreateArray();
	if (!attach(root, "tasks", tasks))
		return EEVDF_ENOMEM;
	for (size_t i = 0; i < nr_tasks; i++) {
		struct eevdf_task_stats t;

		rc = eevdf_sim_task_stats(sim, i, &t);
		if (rc < 0)
			return rc;
		if (!add_task(tasks, &t))
			return EEVDF_ENOMEM;
		acc_add_s64(&cpu_total, t.cpu_ns);
		acc_add_s64(&delay_total, t.delay_sum_ns);
		if (t.delay_max_ns > max_delay)
			max_delay = t.delay_max_ns;
	}

	cpus = cJSON_CreateArray();
	if (!attach(root, "cpus", cpus))
		return EEVDF_ENOMEM;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct eevdf_cpu_stats c;

		rc = eevdf_sim_cpu_stats(sim, cpu, &c);
		if (rc < 0)
			return rc;
		if (!add_cpu(cpus, &c))
			return EEVDF_ENOMEM;
		acc_add_u64(&nr_switches, c.switches);
	}

	if (!add_metrics(root, sim) || !add_smp(root, sim) ||
	    !add_classes(root, sim) || !add_groups(root, sim) ||
	    !add_io(root, sim))
		return EEVDF_ENOMEM;

	summary = cJSON_CreateObject();
	if (!attach(root, "summary", summary) ||
	    !add_acc(summary, "total_cpu_ns", &cpu_total) ||
	    !add_acc(summary, "total_delay_sum_ns", &delay_total) ||
	    !add_s64(summary, "max_delay_ns", max_delay) ||
	    !add_u64(summary, "nr_tasks", (uint64_t)nr_tasks) ||
	    !add_acc(summary, "context_switches", &nr_switches))
		return EEVDF_ENOMEM;
	/* the report's headline numbers, after the built-in ones */
	for (size_t i = 0; i < nr_head; i++) {
		cJSON *num = cJSON_CreateNumber(head[i].value);

		if (cJSON_GetObjectItemCaseSensitive(summary, head[i].name)) {
			cJSON_Delete(num);
			return EEVDF_EINVAL;
		}
		if (!attach(summary, head[i].name, num))
			return EEVDF_ENOMEM;
	}
	return 0;
}

/*
 * Every string of the results is UTF-8: one that was not (a file name or
 * an argument: Linux names are bytes) gets U+FFFD for each byte that is
 * not part of a sequence, so that every JSON parser reads the results.
 * The loader refuses such text in the files themselves.
 */
static bool utf8_strings(cJSON *v)
{
	char *fixed;
	bool ok;

	for (cJSON *c = v->child; c; c = c->next)
		if (!utf8_strings(c))
			return false;
	if (!cJSON_IsString(v) || !v->valuestring)
		return true;
	if (eevdf__utf8_fix(v->valuestring, &fixed))
		return false;
	if (!fixed)
		return true;
	ok = cJSON_SetValuestring(v, fixed) != NULL;
	free(fixed);
	return ok;
}

int eevdf_sim_results_json(const eevdf_sim *sim, char **out)
{
	return eevdf_sim_results_json_headlines(sim, NULL, 0, out);
}

static int results_json(const eevdf_sim *sim, const struct eevdf_run_info *info,
			bool full, char **out);

int eevdf_sim_results_json_headlines(const eevdf_sim *sim,
				     const struct eevdf_headline *head,
				     size_t nr_head, char **out)
{
	struct eevdf_run_info info;

	memset(&info, 0, sizeof(info));
	info.head = head;
	info.nr_head = nr_head;
	info.complete = -1;
	return results_json(sim, &info, false, out);
}

int eevdf_sim_results_json_run(const eevdf_sim *sim,
			       const struct eevdf_run_info *info, char **out)
{
	return results_json(sim, info, info != NULL, out);
}

/* A run_info whose counts come with their arrays. */
static bool info_ok(const struct eevdf_run_info *info)
{
	if (!info)
		return true;
	if ((info->nr_head && !info->head) || (info->argc && !info->argv) ||
	    (info->nr_params && (!info->param_names || !info->param_values)))
		return false;
	for (size_t i = 0; i < info->nr_head; i++)
		if (!info->head[i].name || !info->head[i].name[0] ||
		    !isfinite(info->head[i].value))
			return false;
	for (size_t i = 0; i < info->argc; i++)
		if (!info->argv[i])
			return false;
	for (size_t i = 0; i < info->nr_params; i++)
		if (!info->param_names[i] || !info->param_names[i][0] ||
		    !info->param_values[i])
			return false;
	return true;
}

/* full: a run_info's provenance too; else only its headlines. */
static int results_json(const eevdf_sim *sim, const struct eevdf_run_info *info,
			bool full, char **out)
{
	cJSON *root;
	char *text, *copy;
	int rc;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim || !info_ok(info))
		return EEVDF_EINVAL;

	root = cJSON_CreateObject();
	if (!root)
		return EEVDF_ENOMEM;
	rc = build(root, sim, full ? info : NULL, info ? info->head : NULL,
		   info ? info->nr_head : 0);
	if (!rc && !utf8_strings(root))
		rc = EEVDF_ENOMEM;
	if (rc < 0) {
		cJSON_Delete(root);
		return rc;
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return EEVDF_ENOMEM;

	/*
	 * cJSON allocates through its process-wide hooks, which a program
	 * linking us may have replaced (cJSON_InitHooks); our contract says
	 * free(), so hand back a copy made with malloc() (eevdf/alloc.h).
	 */
	copy = eevdf__user_strdup(text);
	cJSON_free(text);
	if (!copy)
		return EEVDF_ENOMEM;
	*out = copy;
	return 0;
}
