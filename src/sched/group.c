/* SPDX-License-Identifier: MIT */
/*
 * Task groups: their lifetime, weights (cpu.weight, cpu.idle, autogroup
 * nice), the group entity's share of the group weight on each CPU, PELT
 * through the hierarchy and h_load (see group.h).
 *
 * Written from kernel/sched/fair.c and kernel/sched/autogroup.c of v6.17
 * (torvalds/linux @ 0b9ca2dcabc3): calc_group_shares(), update_cfs_group(),
 * update_tg_load_avg(), add_tg_cfs_propagate(), propagate_entity_load_avg()
 * with update_tg_cfs_util/runnable/load(), update_cfs_rq_h_load(),
 * task_h_load(), init_tg_cfs_entry(), __sched_group_set_shares(),
 * sched_group_set_idle(), autogroup_create() and autogroup_set_nice().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "core.h"
#include "fair.h"
#include "group.h"

static char *str_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

static u64 jiffies_of(const struct rq *rq)
{
	return rq->clock / rq->sp->tick_nsec;
}

/* find_matching_se() ---------------------------------------------------- */

void find_matching_se(struct sched_entity **se, struct sched_entity **pse)
{
	int se_depth = (*se)->depth, pse_depth = (*pse)->depth;

	/* first up to the same depth, then up together to one cfs_rq */
	while (se_depth > pse_depth) {
		se_depth--;
		*se = parent_entity(*se);
	}
	while (pse_depth > se_depth) {
		pse_depth--;
		*pse = parent_entity(*pse);
	}
	while ((*se)->cfs_rq != (*pse)->cfs_rq) {
		*se = parent_entity(*se);
		*pse = parent_entity(*pse);
	}
}

/* Lifetime ------------------------------------------------------------- */

static int add_group(struct scheduler *sched, struct task_group *tg)
{
	if (sched->nr_groups == sched->cap_groups) {
		size_t cap = sched->cap_groups ? 2 * sched->cap_groups : 8;
		struct task_group **g = realloc(sched->groups,
						cap * sizeof(*g));

		if (!g)
			return EEVDF_ENOMEM;
		sched->groups = g;
		sched->cap_groups = cap;
	}
	tg->id = (unsigned int)sched->nr_groups;
	sched->groups[sched->nr_groups++] = tg;
	return 0;
}

int eevdf__tg_init(struct scheduler *sched)
{
	struct task_group *root = calloc(1, sizeof(*root));

	if (!root || !(root->path = str_dup("/"))) {
		free(root);
		return EEVDF_ENOMEM;
	}
	root->shares = NICE_0_LOAD;
	root->rqs = sched->rqs;
	eevdf__cfs_bandwidth_init(&root->cfs_bandwidth);
	if (add_group(sched, root)) {
		free(root->path);
		free(root);
		return EEVDF_ENOMEM;
	}
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++)
		sched->rqs[cpu].cfs.tg = root;
	return 0;
}

void eevdf__tg_free(struct scheduler *sched)
{
	for (size_t i = 0; i < sched->nr_groups; i++) {
		struct task_group *tg = sched->groups[i];

		/* Its timers die with the event queue, which the caller
		 * destroys: cancelling them here would sift events whose
		 * tasks are already freed. */
		free(tg->pcpu);
		free(tg->path);
		free(tg);
	}
	free(sched->groups);
	free(sched->autogroups);
	sched->groups = NULL;
	sched->autogroups = NULL;
	sched->nr_groups = sched->cap_groups = sched->nr_autogroups = 0;
}

/*
 * init_tg_cfs_entry() and online_fair_sched_group(): the group entity
 * starts with NICE_0_LOAD ("guarantee group entities always have
 * weight") and no load history, and is attached to the parent's PELT.
 */
static void init_tg_cpu(struct scheduler *sched, struct task_group *tg, int cpu)
{
	struct rq *rq = &sched->rqs[cpu];
	struct cfs_rq *cfs_rq = &tg->pcpu[cpu].cfs_rq;
	struct sched_entity *se = &tg->pcpu[cpu].se;
	struct sched_entity *parent = tg_se(tg->parent, cpu);

	init_cfs_rq(cfs_rq, rq);
	cfs_rq->tg = tg;
	se->my_q = cfs_rq;
	se->parent = parent;
	se->cfs_rq = tg_cfs_rq(tg->parent, cpu);
	se->depth = parent ? parent->depth + 1 : 0;
	se->load.weight = NICE_0_LOAD;
	se->load.inv_weight = 0;
	se->slice = sched->sp.sysctl_sched_base_slice;
	if (sched->sp.smp) {
		rq->clock = (u64)sched->now;
		attach_entity_cfs_rq(se);
	}
	sync_throttle(tg, cpu);
}

struct task_group *eevdf__tg_create(struct scheduler *sched,
				    struct task_group *parent, const char *path)
{
	struct task_group *tg = calloc(1, sizeof(*tg));

	if (!tg || !(tg->path = str_dup(path)) ||
	    !(tg->pcpu = calloc((size_t)sched->nr_cpus, sizeof(*tg->pcpu))) ||
	    add_group(sched, tg)) {
		if (tg) {
			free(tg->pcpu);
			free(tg->path);
		}
		free(tg);
		eevdf__sched_fail(sched, EEVDF_ENOMEM,
				  "out of memory creating task group %s", path);
		return NULL;
	}
	tg->parent = parent;
	tg->level = parent->level + 1;
	tg->shares = NICE_0_LOAD;
	tg->rqs = sched->rqs;
	eevdf__cfs_bandwidth_init(&tg->cfs_bandwidth);
	if (parent->last_child)
		parent->last_child->next_sibling = tg;
	else
		parent->first_child = tg;
	parent->last_child = tg;
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++)
		init_tg_cpu(sched, tg, cpu);
	return tg;
}

struct task_group *eevdf__tg_find(const struct scheduler *sched,
				  const char *path)
{
	for (size_t i = 0; i < sched->nr_groups; i++)
		if (!sched->groups[i]->autogroup &&
		    strcmp(sched->groups[i]->path, path) == 0)
			return sched->groups[i];
	return NULL;
}

/* Weights ---------------------------------------------------------------- */

/*
 * __sched_group_set_shares(): every CPU's group entity is brought up to
 * date and re-weighted, up the hierarchy, now.
 */
static void tg_apply_shares(struct scheduler *sched, struct task_group *tg,
			    u64 shares)
{
	shares = max_u64(scale_load(MIN_SHARES),
			 min_u64(shares, scale_load(MAX_SHARES)));
	if (tg->shares == shares)
		return;
	tg->shares = shares;
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct sched_entity *se = tg_se(tg, cpu);

		sched->rqs[cpu].clock = (u64)sched->now;
		for_each_sched_entity(se)
		{
			update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
			update_cfs_group(se);
		}
	}
}

int eevdf__tg_set_shares(struct scheduler *sched, struct task_group *tg,
			 u64 shares)
{
	/* the root's weight is fixed; an idle group's is WEIGHT_IDLEPRIO */
	if (!tg->parent || tg->idle)
		return EEVDF_EINVAL;
	tg_apply_shares(sched, tg, shares);
	return 0;
}

/*
 * sched_group_set_idle(): the group's tasks count as idle for
 * sched_idle_rq() (h_nr_idle, up to the first idle level) and its
 * entity competes with WEIGHT_IDLEPRIO, or NICE_0_LOAD once it is not
 * idle any more.
 */
int eevdf__tg_set_idle(struct scheduler *sched, struct task_group *tg,
		       bool idle)
{
	if (!tg->parent)
		return EEVDF_EINVAL;
	if (tg->idle == idle)
		return 0;
	tg->idle = idle;
	for (int cpu = 0; cpu < sched->nr_cpus; cpu++) {
		struct cfs_rq *grp = tg_cfs_rq(tg, cpu);
		struct sched_entity *se = tg_se(tg, cpu);
		long delta = (long)grp->h_nr_queued - (long)grp->h_nr_idle;

		grp->idle = idle;
		/* CFS counts the idle entities of each queue
		 * (idle_nr_running) */
		if (se->on_rq && sched->sp.profile->policy == POLICY_CFS) {
			if (idle)
				cfs_rq_of(se)->idle_nr_queued++;
			else
				cfs_rq_of(se)->idle_nr_queued--;
		}
		if (!idle)
			delta = -delta;
		for_each_sched_entity(se)
		{
			struct cfs_rq *cfs_rq = cfs_rq_of(se);

			if (!se->on_rq)
				break;
			cfs_rq->h_nr_idle =
				(unsigned int)((long)cfs_rq->h_nr_idle + delta);
			if (cfs_rq_is_idle(cfs_rq))
				break;
		}
	}
	tg_apply_shares(sched, tg,
			idle ? scale_load(WEIGHT_IDLEPRIO) : NICE_0_LOAD);
	return 0;
}

/* Autogroup -------------------------------------------------------------- */

struct task_group *eevdf__autogroup_of(struct scheduler *sched, u32 session)
{
	struct task_group *tg;
	char path[32];

	if (session >= sched->nr_autogroups) {
		size_t n = session + 1;
		struct task_group **a = realloc(sched->autogroups,
						n * sizeof(*a));

		if (!a) {
			eevdf__sched_fail(sched, EEVDF_ENOMEM,
					  "out of memory creating an "
					  "autogroup");
			return NULL;
		}
		memset(a + sched->nr_autogroups, 0,
		       (n - sched->nr_autogroups) * sizeof(*a));
		sched->autogroups = a;
		sched->nr_autogroups = n;
	}
	if ((tg = sched->autogroups[session]))
		return tg;
	/* autogroup_create(): "/autogroup-<id>" below the root, nice 0 */
	snprintf(path, sizeof(path), "/autogroup-%llu",
		 (unsigned long long)++sched->autogroup_seq);
	if (!(tg = eevdf__tg_create(sched, sched->groups[0], path)))
		return NULL;
	tg->autogroup = true;
	tg->session = session;
	sched->autogroups[session] = tg;
	return tg;
}

/* autogroup_set_nice(): the autogroup's weight is its nice's. */
int eevdf__autogroup_set_nice(struct scheduler *sched, u32 session, int nice)
{
	struct task_group *tg;

	if (nice < -20 || nice > 19)
		return EEVDF_EINVAL;
	if (!(tg = eevdf__autogroup_of(sched, session)))
		return sched->error;
	tg->nice = nice;
	tg_apply_shares(sched, tg,
			scale_load(eevdf__prio_to_weight[nice + 20]));
	return 0;
}

struct task_group *eevdf__task_group_of(struct scheduler *sched, struct task *p)
{
	struct task_group *tg;

	/* task_wants_autogroup(): only tasks of the root cgroup, and not
	 * once exiting (sched_autogroup_exit_task()) */
	if (p->cgroup->parent || !sched->sp.autogroup || !p->session ||
	    p->exiting)
		return p->cgroup;
	tg = eevdf__autogroup_of(sched, p->session);
	return tg ? tg : p->cgroup;
}

void eevdf__set_task_rq(struct task *p, int cpu)
{
	struct task_group *tg = p->sched_task_group;
	struct sched_entity *parent = tg_se(tg, cpu);

	p->se.cfs_rq = tg_cfs_rq(tg, cpu);
	p->se.parent = parent;
	p->se.depth = parent ? parent->depth + 1 : 0;
}

/* The group entity's weight ---------------------------------------------- */

/*
 * tg->shares x this CPU's share of the group's load, where the load is
 * the cfs_rq's weight or its PELT average, whichever is larger, and the
 * group's load is tg->load_avg with this CPU's stale contribution
 * replaced by that load ("shares_weight", the kernel's equation (6)):
 * on a machine where only this CPU has load it is tg->shares.  Clamped
 * to [MIN_SHARES, tg->shares] with MIN_SHARES unscaled, as the kernel
 * does, so a CPU with no load gets 2 scaled units.
 */
long calc_group_shares(const struct cfs_rq *cfs_rq)
{
	const struct task_group *tg = cfs_rq->tg;
	long tg_shares = (long)tg->shares, tg_weight, shares;
	long load = (long)max_u64(scale_load_down(cfs_rq->load.weight),
				  cfs_rq->avg.load_avg);

	tg_weight = tg->load_avg - cfs_rq->tg_load_avg_contrib + load;
	shares = tg_shares * load;
	if (tg_weight)
		shares /= tg_weight;
	if (shares < (long)MIN_SHARES)
		shares = MIN_SHARES;
	if (shares > tg_shares)
		shares = tg_shares;
	return shares;
}

/*
 * update_cfs_group(): re-weight a group entity to its share.  A throttled
 * group keeps its weight; from 6.13 (66951e4860d3 "Fix update_cfs_group()
 * vs DELAY_DEQUEUE") so does one whose cfs_rq just emptied, so that a
 * delayed group entity keeps competing at its weight.
 */
void update_cfs_group(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);
	long shares;

	if (!gcfs_rq)
		return;
	if (!gcfs_rq->load.weight &&
	    gcfs_rq->rq->sp->profile->group_keep_weight)
		return;
	if (throttled_hierarchy(gcfs_rq))
		return;
	shares = calc_group_shares(gcfs_rq);
	if (se->load.weight != (u64)shares)
		reweight_entity(cfs_rq_of(se), se, (u64)shares);
}

/* PELT through the hierarchy --------------------------------------------- */

/*
 * The group's load_avg is the sum of its cfs_rqs' contributions, each
 * refreshed when the cfs_rq's load_avg moved by more than 1/64 of it
 * since, and (1528c661c24b, 6.7) at most once a millisecond per cfs_rq.
 * last_update_tg_load_avg holds the update's clock + 1, 0 for never:
 * the simulated clock starts at 0, where a real one never is.
 */
void update_tg_load_avg(struct cfs_rq *cfs_rq)
{
	u64 now = cfs_rq->rq->clock;
	long delta, contrib = cfs_rq->tg_load_avg_contrib;

	if (!cfs_rq->tg->parent)
		return;
	if (cfs_rq->rq->sp->profile->tg_load_avg_ratelimit &&
	    cfs_rq->last_update_tg_load_avg &&
	    now + 1 - cfs_rq->last_update_tg_load_avg < 1000000)
		return;
	delta = (long)cfs_rq->avg.load_avg - contrib;
	if ((delta < 0 ? -delta : delta) > contrib / 64) {
		cfs_rq->tg->load_avg += delta;
		cfs_rq->tg_load_avg_contrib = (long)cfs_rq->avg.load_avg;
		cfs_rq->last_update_tg_load_avg = now + 1;
	}
}

void add_tg_cfs_propagate(struct cfs_rq *cfs_rq, long runnable_sum)
{
	cfs_rq->propagate = true;
	cfs_rq->prop_runnable_sum += runnable_sum;
}

/* The kernel's add_positive(): a signed add, 0 where it would go below. */
static void add_positive_ul(unsigned long *v, long delta)
{
	unsigned long res = *v + (unsigned long)delta;

	if (delta < 0 && res > *v)
		res = 0;
	*v = res;
}

static void add_positive_u64(u64 *v, s64 delta)
{
	u64 res = *v + (u64)delta;

	if (delta < 0 && res > *v)
		res = 0;
	*v = res;
}

static void add_positive_u32(u32 *v, long delta)
{
	u32 res = (u32)((long)*v + delta);

	if (delta < 0 && res > *v)
		res = 0;
	*v = res;
}

static u32 floor_u32(u64 sum, unsigned long avg)
{
	u32 s = (u32)sum, f = (u32)(avg * PELT_MIN_DIVIDER);

	return s > f ? s : f;
}

/*
 * A group entity and its cfs_rq represent the same work, so their util
 * and runnable signals are taken over as they are (update_tg_cfs_util()
 * and update_tg_cfs_runnable(): copied averages, sums rebuilt at the
 * parent's divider, the difference added to the parent).
 */
static void update_tg_cfs_util(struct cfs_rq *cfs_rq, struct sched_entity *se,
			       const struct cfs_rq *gcfs_rq)
{
	long delta_avg = (long)gcfs_rq->avg.util_avg - (long)se->avg.util_avg;
	long delta_sum;
	u32 new_sum, divider;

	if (!delta_avg)
		return;
	divider = get_pelt_divider(&cfs_rq->avg);
	se->avg.util_avg = gcfs_rq->avg.util_avg;
	new_sum = (u32)(se->avg.util_avg * divider);
	delta_sum = (long)new_sum - (long)se->avg.util_sum;
	se->avg.util_sum = new_sum;
	add_positive_ul(&cfs_rq->avg.util_avg, delta_avg);
	add_positive_u32(&cfs_rq->avg.util_sum, delta_sum);
	cfs_rq->avg.util_sum = floor_u32(cfs_rq->avg.util_sum,
					 cfs_rq->avg.util_avg);
}

static void update_tg_cfs_runnable(struct cfs_rq *cfs_rq,
				   struct sched_entity *se,
				   const struct cfs_rq *gcfs_rq)
{
	long delta_avg = (long)gcfs_rq->avg.runnable_avg -
			 (long)se->avg.runnable_avg;
	long delta_sum;
	u32 new_sum, divider;

	if (!delta_avg)
		return;
	divider = get_pelt_divider(&cfs_rq->avg);
	se->avg.runnable_avg = gcfs_rq->avg.runnable_avg;
	new_sum = (u32)(se->avg.runnable_avg * divider);
	delta_sum = (long)new_sum - (long)se->avg.runnable_sum;
	se->avg.runnable_sum = new_sum;
	add_positive_ul(&cfs_rq->avg.runnable_avg, delta_avg);
	add_positive_u64(&cfs_rq->avg.runnable_sum, delta_sum);
	cfs_rq->avg.runnable_sum = floor_u32(cfs_rq->avg.runnable_sum,
					     cfs_rq->avg.runnable_avg);
}

/*
 * The load cannot be copied: a group entity's load_avg is its weight
 * times its runnable fraction.  What was added below raises the entity's
 * runnable sum (at most to the divider: "minimal overlap"); what was
 * removed lowers it to the cfs_rq's load_sum per unit of weight, as if
 * every task were equally runnable; never below the running sum.
 */
static void update_tg_cfs_load(struct cfs_rq *cfs_rq, struct sched_entity *se,
			       struct cfs_rq *gcfs_rq)
{
	long runnable_sum = gcfs_rq->prop_runnable_sum, running_sum;
	long delta_avg;
	unsigned long load_avg;
	u64 load_sum = 0, weight = scale_load_down(se->load.weight);
	s64 delta_sum;
	u32 divider;

	if (!runnable_sum)
		return;
	gcfs_rq->prop_runnable_sum = 0;
	divider = get_pelt_divider(&cfs_rq->avg);
	if (runnable_sum >= 0) {
		runnable_sum += (long)se->avg.load_sum;
		if (runnable_sum > (long)divider)
			runnable_sum = (long)divider;
	} else {
		u64 gw = scale_load_down(gcfs_rq->load.weight);

		if (gw)
			load_sum = gcfs_rq->avg.load_sum / gw;
		runnable_sum = (long)min_u64(se->avg.load_sum, load_sum);
	}
	running_sum = (long)(se->avg.util_sum >> SCHED_CAPACITY_SHIFT);
	if (running_sum > runnable_sum)
		runnable_sum = running_sum;

	load_sum = weight * (u64)runnable_sum;
	load_avg = (unsigned long)(load_sum / divider);
	delta_avg = (long)load_avg - (long)se->avg.load_avg;
	if (!delta_avg)
		return;
	delta_sum = (s64)load_sum - (s64)(weight * se->avg.load_sum);
	se->avg.load_sum = (u64)runnable_sum;
	se->avg.load_avg = load_avg;
	add_positive_ul(&cfs_rq->avg.load_avg, delta_avg);
	add_positive_u64(&cfs_rq->avg.load_sum, delta_sum);
	cfs_rq->avg.load_sum = floor_u32(cfs_rq->avg.load_sum,
					 cfs_rq->avg.load_avg);
}

int propagate_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se), *cfs_rq;

	if (!gcfs_rq || !gcfs_rq->propagate)
		return 0;
	gcfs_rq->propagate = false;
	cfs_rq = cfs_rq_of(se);
	add_tg_cfs_propagate(cfs_rq, gcfs_rq->prop_runnable_sum);
	update_tg_cfs_util(cfs_rq, se, gcfs_rq);
	update_tg_cfs_runnable(cfs_rq, se, gcfs_rq);
	update_tg_cfs_load(cfs_rq, se, gcfs_rq);
	return 1;
}

/* h_load ------------------------------------------------------------------ */

/*
 * update_cfs_rq_h_load(): a cfs_rq's share of its CPU's root load, the
 * root's load_avg scaled at each level by the group entity's part of its
 * queue's load_avg; top-down, and at most once a jiffy per cfs_rq (an
 * h_load computed earlier in the jiffy is reused, however the loads
 * moved since).
 */
static void update_cfs_rq_h_load(struct cfs_rq *cfs_rq)
{
	u64 now = jiffies_of(cfs_rq->rq) + 1;
	struct sched_entity *se = tg_se(cfs_rq->tg, cfs_rq->rq->cpu);

	if (cfs_rq->last_h_load_update == now)
		return;
	cfs_rq->h_load_next = NULL;
	for_each_sched_entity(se)
	{
		cfs_rq = cfs_rq_of(se);
		cfs_rq->h_load_next = se;
		if (cfs_rq->last_h_load_update == now)
			break;
	}
	if (!se) {
		cfs_rq->h_load = cfs_rq->avg.load_avg;
		cfs_rq->last_h_load_update = now;
	}
	while ((se = cfs_rq->h_load_next)) {
		unsigned long load = cfs_rq->h_load;

		load = (unsigned long)((u64)load * se->avg.load_avg /
				       (cfs_rq->avg.load_avg + 1));
		cfs_rq = group_cfs_rq(se);
		cfs_rq->h_load = load;
		cfs_rq->last_h_load_update = now;
	}
}

unsigned long task_h_load(struct task *p)
{
	struct cfs_rq *cfs_rq = p->se.cfs_rq;

	update_cfs_rq_h_load(cfs_rq);
	return (unsigned long)((u64)p->se.avg.load_avg * cfs_rq->h_load /
			       (cfs_rq->avg.load_avg + 1));
}

/* Invariants ---------------------------------------------------------------- */

static unsigned int count_tasks(const struct eevdf_rb_node *n)
{
	const struct sched_entity *se;

	if (!n)
		return 0;
	se = container_of(n, struct sched_entity, run_node);
	return count_tasks(n->left) + count_tasks(n->right) +
	       entity_is_task(se);
}

/*
 * Every group's cfs_rq of this CPU checked on its own, then how it hangs
 * together: a group entity stands for its group's queue one level up, is
 * queued exactly while its queue has entities (or it is delayed) and is
 * not throttled, and no level has a curr unless a fair task runs.  The
 * tasks queued in all of them are counted for the caller.
 */
const char *eevdf__groups_check(const struct rq *rq, unsigned int *nr_tasks)
{
	const struct scheduler *sched = rq->sched;
	bool fair_curr = rq->curr && rq->curr->sched_class == &fair_sched_class;
	const char *err;

	*nr_tasks = 0;
	for (size_t i = 0; i < sched->nr_groups; i++) {
		const struct task_group *tg = sched->groups[i];
		const struct cfs_rq *cfs_rq = tg_cfs_rq(tg, rq->cpu);
		const struct sched_entity *se = tg_se(tg, rq->cpu);

		if ((err = eevdf__cfs_rq_check(cfs_rq)))
			return err;
		if (cfs_rq->tg != tg || cfs_rq->rq != rq)
			return "a group's cfs_rq belongs to another group or CPU";
		*nr_tasks += count_tasks(cfs_rq->tasks_timeline.root);
		if (cfs_rq->curr && cfs_rq->curr->on_rq &&
		    entity_is_task(cfs_rq->curr))
			(*nr_tasks)++;
		if (!fair_curr && cfs_rq->curr)
			return "a CPU not running a fair task has a "
			       "cfs_rq->curr";
		if (cfs_rq->throttle_count < 0 ||
		    (tg->parent &&
		     cfs_rq->throttle_count !=
			     tg_cfs_rq(tg->parent, rq->cpu)->throttle_count +
				     cfs_rq->throttled))
			return "a cfs_rq's throttle_count is not the throttled "
			       "levels at and above it";
		if (!se || !tg->parent)
			continue;
		if (se->my_q != cfs_rq ||
		    se->cfs_rq != tg_cfs_rq(tg->parent, rq->cpu) ||
		    se->parent != tg_se(tg->parent, rq->cpu))
			return "a group entity is not wired to its group and "
			       "parent";
		if (se->on_rq && !se->sched_delayed && !cfs_rq->nr_queued)
			return "a queued group entity stands for an empty "
			       "cfs_rq";
		if (cfs_rq->throttled && se->on_rq)
			return "a throttled group's entity is still queued";
		if (cfs_rq->nr_queued && !cfs_rq->throttled && !se->on_rq)
			return "a group with queued entities is not queued "
			       "itself";
	}
	return NULL;
}
