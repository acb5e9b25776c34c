/* SPDX-License-Identifier: MIT */
/*
 * The public face of task groups (eevdf/group.h): cgroup v2 paths and
 * files checked as the kernel's cpu controller checks a write
 * (kernel/sched/core.c: cpu_weight_write_u64(), cpu_weight_nice_write_s64(),
 * cpu_idle_write_s64(), cpu_max_write() with tg_set_cfs_bandwidth()),
 * sessions for autogroup, and each group's totals.  The scheduling is
 * src/sched/group.c and bandwidth.c.
 */
#include <string.h>

#include "sched/bandwidth.h"
#include "sched/core.h"
#include "sched/fair.h"
#include "sched/group.h"
#include "sim.h"

#define CGROUP_WEIGHT_MIN 1u
#define CGROUP_WEIGHT_DFL 100u
#define CGROUP_WEIGHT_MAX 10000u

void eevdf_group_spec_init(struct eevdf_group_spec *spec, const char *path)
{
	if (!spec)
		return;
	memset(spec, 0, sizeof(*spec));
	spec->path = path;
	spec->idle = -1;
}

/* sched_weight_from_cgroup(): cpu.weight 100 is NICE_0_LOAD's 1024. */
static u64 shares_of_weight(unsigned int weight)
{
	return scale_load(((u64)weight * 1024 + CGROUP_WEIGHT_DFL / 2) /
			  CGROUP_WEIGHT_DFL);
}

/* sched_weight_to_cgroup(): what cpu.weight reads back. */
static unsigned int weight_of_shares(u64 shares)
{
	u64 w = (scale_load_down(shares) * CGROUP_WEIGHT_DFL + 512) / 1024;

	return (unsigned int)(w < CGROUP_WEIGHT_MIN ? CGROUP_WEIGHT_MIN :
			      w > CGROUP_WEIGHT_MAX ? CGROUP_WEIGHT_MAX :
						      w);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       c == '@' || c == ':' || c == '+';
}

/*
 * An absolute path of names made of letters, digits and ._-@:+ (what
 * systemd and people name cgroups), none "." or "..", none "autogroup-*"
 * (those are the kernel's), within the length and depth limits.
 */
static int check_path(struct eevdf_sim *sim, const char *path)
{
	size_t len = strlen(path);
	int depth = 0;

	if (path[0] != '/')
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group '%s': a path starts with '/'",
					 path);
	if (len >= EEVDF_GROUP_PATH_MAX)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group '%.40s...': longer than %d "
					 "bytes",
					 path, EEVDF_GROUP_PATH_MAX - 1);
	for (const char *c = path + 1; *c;) {
		const char *end = strchr(c, '/');
		size_t n = end ? (size_t)(end - c) : strlen(c);

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return eevdf__sim_reject(
				sim, EEVDF_EINVAL,
				"group '%s': empty, '.' or '..' component",
				path);
		for (size_t i = 0; i < n; i++)
			if (!name_char(c[i]))
				return eevdf__sim_reject(
					sim, EEVDF_EINVAL,
					"group '%s': '%c' in a name (letters, "
					"digits and ._-@:+ only)",
					path, c[i]);
		if (depth == 0 && n > 10 && strncmp(c, "autogroup-", 10) == 0)
			return eevdf__sim_reject(
				sim, EEVDF_EINVAL,
				"group '%s': autogroup-* names "
				"are the kernel's",
				path);
		if (++depth > EEVDF_GROUP_DEPTH_MAX)
			return eevdf__sim_reject(sim, EEVDF_EINVAL,
						 "group '%s': deeper than %d",
						 path, EEVDF_GROUP_DEPTH_MAX);
		c += n;
		if (*c == '/' && !c[1])
			return eevdf__sim_reject(sim, EEVDF_EINVAL,
						 "group '%s': a trailing '/'",
						 path);
		if (*c == '/')
			c++;
	}
	return 0;
}

/* mkdir -p: the group at path, made with every missing parent. */
static struct task_group *make_path(struct eevdf_sim *sim, const char *path)
{
	struct task_group *tg = sim->sched.groups[0];
	char prefix[EEVDF_GROUP_PATH_MAX];
	size_t len = strlen(path);

	for (size_t i = 1; i <= len; i++) {
		struct task_group *t;

		if (i < len && path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		if (!(t = eevdf__tg_find(&sim->sched, prefix)))
			t = eevdf__tg_create(&sim->sched, tg, prefix);
		if (!t)
			return NULL;
		tg = t;
	}
	return tg;
}

static int check_values(struct eevdf_sim *sim,
			const struct eevdf_group_spec *spec)
{
	const char *p = spec->path;

	if (spec->weight && (spec->weight < CGROUP_WEIGHT_MIN ||
			     spec->weight > CGROUP_WEIGHT_MAX))
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group %s: cpu.weight %u is outside "
					 "1..10000",
					 p, spec->weight);
	if (spec->set_weight_nice &&
	    (spec->weight_nice < -20 || spec->weight_nice > 19))
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group %s: cpu.weight.nice %d is "
					 "outside -20..19",
					 p, spec->weight_nice);
	if (spec->weight && spec->set_weight_nice)
		return eevdf__sim_reject(
			sim, EEVDF_EINVAL,
			"group %s: cpu.weight and "
			"cpu.weight.nice are the same setting: "
			"give one",
			p);
	if (spec->idle < -1 || spec->idle > 1)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group %s: cpu.idle %d is not 0 or 1",
					 p, spec->idle);
	if (spec->max_quota && spec->max_quota != EEVDF_GROUP_NO_QUOTA &&
	    spec->max_quota < (eevdf_time)CFS_QUOTA_PERIOD_MIN)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group %s: cpu.max quota %lld ns is "
					 "below 1 ms (or negative)",
					 p, (long long)spec->max_quota);
	if (spec->max_period &&
	    (spec->max_period < (eevdf_time)CFS_QUOTA_PERIOD_MIN ||
	     spec->max_period > (eevdf_time)CFS_QUOTA_PERIOD_MAX))
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "group %s: cpu.max period %lld ns is "
					 "outside 1 ms..1 s",
					 p, (long long)spec->max_period);
	return 0;
}

static bool writes_anything(const struct eevdf_group_spec *spec)
{
	return spec->weight || spec->set_weight_nice || spec->idle >= 0 ||
	       spec->max_quota || spec->max_period;
}

int eevdf_sim_set_group(eevdf_sim *sim, const struct eevdf_group_spec *spec)
{
	struct cfs_bandwidth *cfs_b;
	struct task_group *tg;
	int ret;

	if (!sim || !spec || !spec->path)
		return EEVDF_EINVAL;
	if (sim->sched.error)
		return sim->sched.error;
	if (strcmp(spec->path, "/") == 0)
		return writes_anything(spec) ?
			       eevdf__sim_reject(sim, EEVDF_EINVAL,
						 "group /: the root group has "
						 "no cpu.weight, cpu.idle or "
						 "cpu.max") :
			       0;
	if ((ret = check_path(sim, spec->path)) ||
	    (ret = check_values(sim, spec)))
		return ret;
	if (!(tg = make_path(sim, spec->path)))
		return sim->sched.error;
	if (spec->idle == 0 &&
	    (ret = eevdf__tg_set_idle(&sim->sched, tg, false)))
		return ret;
	if ((spec->weight || spec->set_weight_nice) && tg->idle)
		return eevdf__sim_reject(
			sim, EEVDF_EINVAL,
			"group %s: cpu.weight of an idle group "
			"(cpu.idle 1) is refused (EINVAL)",
			spec->path);
	if (spec->weight)
		eevdf__tg_set_shares(&sim->sched, tg,
				     shares_of_weight(spec->weight));
	if (spec->set_weight_nice)
		eevdf__tg_set_shares(
			&sim->sched, tg,
			scale_load(
				eevdf__prio_to_weight[spec->weight_nice + 20]));
	if (spec->idle == 1 &&
	    (ret = eevdf__tg_set_idle(&sim->sched, tg, true)))
		return ret;
	cfs_b = &tg->cfs_bandwidth;
	if (spec->max_quota || spec->max_period) {
		u64 quota = spec->max_quota == EEVDF_GROUP_NO_QUOTA ?
				    CFS_QUOTA_INF :
			    spec->max_quota ? (u64)spec->max_quota :
					      cfs_b->quota;
		u64 period = spec->max_period ? (u64)spec->max_period :
						cfs_b->period;

		if (eevdf__tg_set_cfs_bandwidth(&sim->sched, tg, quota, period))
			return eevdf__sim_reject(sim, EEVDF_EINVAL,
						 "group %s: cpu.max refused",
						 spec->path);
	}
	eevdf__settle(&sim->sched);
	return sim->sched.error;
}

int eevdf_sim_set_cgroup(eevdf_sim *sim, int pid, const char *path)
{
	struct task_group *tg;
	struct task *p;

	if (!sim || !path)
		return EEVDF_EINVAL;
	if (sim->sched.error)
		return sim->sched.error;
	if (pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "no task with pid %d", pid);
	tg = strcmp(path, "/") == 0 ? sim->sched.groups[0] :
				      eevdf__tg_find(&sim->sched, path);
	if (!tg)
		return eevdf__sim_reject(sim, EEVDF_EINVAL, "no cgroup '%s'",
					 path);
	p = sim->sched.tasks[pid - 1];
	if (!p || p->state == TASK_DEAD)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "task %d has exited (ESRCH)", pid);
	eevdf__sched_move_task(&sim->sched, p, tg);
	eevdf__settle(&sim->sched);
	return sim->sched.error;
}

int eevdf_sim_set_autogroup_nice(eevdf_sim *sim, unsigned int session, int nice)
{
	if (!sim)
		return EEVDF_EINVAL;
	if (sim->sched.error)
		return sim->sched.error;
	if (session == EEVDF_SESSION_NONE)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "no session has no autogroup");
	if (nice < -20 || nice > 19)
		return eevdf__sim_reject(sim, EEVDF_EINVAL,
					 "autogroup nice %d is outside -20..19",
					 nice);
	if (eevdf__autogroup_set_nice(&sim->sched, session + 1, nice))
		return sim->sched.error ? sim->sched.error : EEVDF_EINVAL;
	eevdf__settle(&sim->sched);
	return sim->sched.error;
}

size_t eevdf_sim_nr_groups(const eevdf_sim *sim)
{
	return sim ? sim->sched.nr_groups : 0;
}

/* The fair time the group's entities ran, the running ones' included. */
static eevdf_time group_cpu_ns(const struct eevdf_sim *sim,
			       const struct task_group *tg)
{
	eevdf_time ns = 0;

	for (int cpu = 0; cpu < sim->sched.nr_cpus; cpu++) {
		const struct rq *rq = &sim->sched.rqs[cpu];
		const struct sched_entity *se = tg_se(tg, cpu);

		if (!se) {
			/* the root: the CPU's busy time */
			ns += (eevdf_time)rq->busy_ns;
			if (rq->curr)
				ns += sim->sched.now - rq->busy_since;
			continue;
		}
		ns += (eevdf_time)se->sum_exec_runtime;
		if (se->cfs_rq->curr == se && rq->curr &&
		    rq->curr->sched_class == &fair_sched_class)
			ns += sim->sched.now - (eevdf_time)se->exec_start;
	}
	return ns;
}

int eevdf_sim_group_stats(const eevdf_sim *sim, size_t i,
			  struct eevdf_group_stats *out)
{
	const struct task_group *tg;
	const struct cfs_bandwidth *cfs_b;

	if (!sim || !out || i >= sim->sched.nr_groups)
		return EEVDF_EINVAL;
	tg = sim->sched.groups[i];
	cfs_b = &tg->cfs_bandwidth;
	memset(out, 0, sizeof(*out));
	out->path = tg->path;
	out->parent = tg->parent ? tg->parent->path : NULL;
	out->autogroup = tg->autogroup;
	out->session = tg->autogroup ? tg->session - 1 : 0;
	out->nice = tg->nice;
	out->weight = weight_of_shares(tg->shares);
	out->idle = tg->idle;
	out->max_quota = cfs_b->quota == CFS_QUOTA_INF ?
				 EEVDF_GROUP_NO_QUOTA :
				 (eevdf_time)cfs_b->quota;
	out->max_period = (eevdf_time)cfs_b->period;
	out->nr_tasks = tg->nr_tasks;
	out->cpu_ns = group_cpu_ns(sim, tg);
	out->nr_periods = cfs_b->nr_periods;
	out->nr_throttled = cfs_b->nr_throttled;
	out->throttled_ns = (eevdf_time)cfs_b->throttled_time;
	for (int cpu = 0; cpu < sim->sched.nr_cpus && tg->parent; cpu++) {
		const struct cfs_rq *cfs_rq = tg_cfs_rq(tg, cpu);

		if (cfs_rq->throttled_clock)
			out->throttled_ns += sim->sched.now -
					     (eevdf_time)cfs_rq->throttled_clock;
	}
	for (size_t t = 0; t < sim->sched.nr_tasks; t++) {
		const struct task *p = sim->sched.tasks[t];
		const struct task_stats *st;
		unsigned int id;

		if (p) {
			id = p->stats_group->id;
			st = &p->st;
		} else {
			const struct task_rec *r = eevdf__sim_rec(sim,
								  (int)t + 1);

			id = r->group;
			st = &r->st;
		}
		if (id != tg->id)
			continue;
		out->delay_count += st->delay_count;
		out->delay_sum_ns += (eevdf_time)st->delay_sum;
		if ((eevdf_time)st->delay_max > out->delay_max_ns)
			out->delay_max_ns = (eevdf_time)st->delay_max;
	}
	return 0;
}
