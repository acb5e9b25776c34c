/* SPDX-License-Identifier: MIT */
/*
 * The engine and the public entry points: configuration, tasks, the event
 * loop and the clock.  The clock moves only when an event is dispatched,
 * and events leave the queue in (time, class, seq) order, so a run is a
 * pure function of its inputs.
 */
#include <stdarg.h>
#include <string.h>

#include "sched/deadline.h"
#include "sched/fair.h"
#include "sched/sched_state.h"
#include "sched/group.h"
#include "io.h"
#include "metrics.h"
#include "sim.h"
#include "task_pool.h"

#define MAX_DURATION ((eevdf_time)1000000000000000LL) /* 10^15 ns */

/*
 * The first failure of a run is the one reported: a later one is a
 * consequence.  The message is formatted apart from errmsg, so that it
 * may quote errmsg itself.
 */
int eevdf__sim_fail(struct eevdf_sim *sim, int code, const char *fmt, ...)
{
	char msg[sizeof(sim->sched.errmsg)];
	va_list ap;

	if (sim->sched.error)
		return sim->sched.error;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return eevdf__sched_fail(&sim->sched, code, "%s", msg);
}

/* Errors of a call that leave the simulation usable. */
#define sim_reject eevdf__sim_reject
#define sim_mutable eevdf__sim_mutable

int eevdf__sim_reject(struct eevdf_sim *sim, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sim->sched.errmsg, sizeof(sim->sched.errmsg), fmt, ap);
	va_end(ap);
	return code;
}

/* Configuration ---------------------------------------------------------- */

void eevdf_config_init(struct eevdf_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->seed = 1;
	cfg->nr_cpus = 1;
	cfg->hz = 1000;
}

int eevdf_config_set_features(struct eevdf_config *cfg, const char *list,
			      char *err, size_t errlen)
{
	if (!cfg)
		return EEVDF_EINVAL;
	return eevdf_features_parse(list, &cfg->feat_on, &cfg->feat_off, err,
				    errlen);
}

/*
 * The machine: the configuration's (copied) or the flat one of nr_cpus
 * CPUs at hz, and the scheduling domains built from it.
 */
static int sim_machine(struct eevdf_sim *sim, const struct eevdf_config *cfg,
		       char *err, size_t errlen)
{
	int ret;

	if (cfg->machine) {
		sim->machine = eevdf_machine_clone(cfg->machine);
		if (!sim->machine)
			return EEVDF_ENOMEM;
	} else {
		ret = eevdf_machine_new_flat(cfg->nr_cpus, &sim->machine, err,
					     errlen);
		if (ret)
			return ret;
		sim->machine->hz = cfg->hz;
	}
	sim->sched.nr_cpus = sim->machine->nr_cpus;
	sim->sched.hz = sim->machine->hz;
	/* the library's costs start at zero; a machine's own are its own */
	eevdf__machine_apply_costs(sim->machine, &sim->sched.costs);
	return eevdf__topology_build(&sim->sched.topo, sim->machine);
}

static unsigned int ilog2_u(unsigned int x)
{
	unsigned int r = 0;

	while (x >>= 1)
		r++;
	return r;
}

#define set_err eevdf__set_err

/*
 * The scheduler's parameters: the profile's release, the feature overrides
 * on top of its defaults, and the base slice scaled by the CPU count the
 * way the kernel's LOG tunable scaling does (factor 1 + ilog2(min(n, 8)):
 * 0.70, 1.40, 2.10, 2.80 ms).  A base slice given explicitly behaves like
 * a debugfs write: it is taken as is, and the unscaled value is
 * back-computed from it.
 */
int eevdf_config_check_features(const struct eevdf_config *cfg, char *err,
				size_t errlen)
{
	const struct eevdf_profile *prof;
	uint64_t absent;
	char have[128] = "";
	size_t i, n = 0;

	if (!cfg)
		return EEVDF_EINVAL;
	prof = eevdf__profile_find(cfg->kernel);
	if (!prof) {
		set_err(err, errlen, "unknown kernel profile '%s'",
			cfg->kernel);
		return EEVDF_EINVAL;
	}
	absent = (cfg->feat_on | cfg->feat_off) & ~prof->feat_present;
	if (!absent || cfg->allow_absent_features)
		return 0;
	for (i = 0; !((absent >> i) & 1u); i++)
		;
	for (size_t k = 0; k < eevdf_profile_count() && n < sizeof(have); k++)
		if (eevdf_feature_in_profile(eevdf_profile_name(k), i))
			n += (size_t)snprintf(have + n, sizeof(have) - n,
					      "%s%s", n ? ", " : "",
					      eevdf_profile_name(k));
	set_err(err, errlen,
		"%s is not a feature of kernel profile %s (it is in: %s)",
		eevdf_feature_name(i), prof->name, n ? have : "none");
	return EEVDF_EINVAL;
}

/*
 * The RT and deadline knobs, checked as their sysctl and debugfs handlers
 * check a write: sched_rt_handler() (period > 0, runtime -1 or within the
 * period), sched_rr_handler() (ms, kept in ticks, rounded up as
 * msecs_to_jiffies() does), sched_fair_server_write() (runtime within a
 * period of 100 us to 4.19 s).
 */
static int init_class_params(struct eevdf_sim *sim,
			     const struct eevdf_config *cfg, char *err,
			     size_t errlen)
{
	struct sched_params *sp = &sim->sched.sp;
	eevdf_time tick = (eevdf_time)sp->tick_nsec, rr;

	if (cfg->rt_period < 0 ||
	    (cfg->rt_period && cfg->rt_period < EEVDF_NSEC_PER_USEC) ||
	    cfg->rt_period > (eevdf_time)INT32_MAX * EEVDF_NSEC_PER_USEC) {
		set_err(err, errlen,
			"sched_rt_period_us must be 1..%d us (got %lld ns)",
			INT32_MAX,
			cfg->rt_period == EEVDF_KNOB_ZERO ?
				0 :
				(long long)cfg->rt_period);
		return EEVDF_EINVAL;
	}
	sp->rt_period = cfg->rt_period ? (u64)cfg->rt_period : 1000000000;
	sp->rt_runtime = cfg->rt_runtime == EEVDF_KNOB_ZERO ? 0 :
			 cfg->rt_runtime		    ? cfg->rt_runtime :
							      950000000;
	if ((sp->rt_runtime < 0 && sp->rt_runtime != -1) ||
	    (sp->rt_runtime > 0 && (u64)sp->rt_runtime > sp->rt_period)) {
		set_err(err, errlen,
			"sched_rt_runtime_us must be -1 (no limit) or within "
			"sched_rt_period_us (%llu ns), got %lld ns",
			(unsigned long long)sp->rt_period,
			(long long)sp->rt_runtime);
		return EEVDF_EINVAL;
	}
	/* sched_rr_handler(): <= 0 restores RR_TIMESLICE; whole ms in
	 * ticks, rounded up as msecs_to_jiffies() does */
	rr = cfg->rr_timeslice > 0 ? cfg->rr_timeslice :
				     100 * EEVDF_NSEC_PER_MSEC;
	rr = (rr / EEVDF_NSEC_PER_MSEC) * EEVDF_NSEC_PER_MSEC;
	if (rr <= 0 || rr > (eevdf_time)INT32_MAX * EEVDF_NSEC_PER_MSEC) {
		set_err(err, errlen,
			"sched_rr_timeslice_ms must be at most %d ms (got "
			"%lld ns)",
			INT32_MAX, (long long)cfg->rr_timeslice);
		return EEVDF_EINVAL;
	}
	sp->rr_timeslice = (unsigned int)((rr + tick - 1) / tick);
	sp->rt_bandwidth = sp->profile->dl_server == DL_SERVER_NONE;
	if (cfg->autogroup < -1 || cfg->autogroup > 1) {
		set_err(err, errlen,
			"autogroup must be 1 (on), -1 (off) or 0 (the default, "
			"on), not %d",
			cfg->autogroup);
		return EEVDF_EINVAL;
	}
	sp->autogroup = cfg->autogroup >= 0;
	sp->fair_server_period = cfg->fair_server_period ?
					 (u64)cfg->fair_server_period :
					 1000000000;
	sp->fair_server_runtime = cfg->fair_server_runtime == EEVDF_KNOB_ZERO ?
					  0 :
				  cfg->fair_server_runtime > 0 ?
					  (u64)cfg->fair_server_runtime :
					  50000000;
	/* sched_fair_server_write(): runtime within a 100 us .. 4.19 s
	 * period */
	if (cfg->fair_server_runtime < 0 &&
	    cfg->fair_server_runtime != EEVDF_KNOB_ZERO) {
		set_err(err, errlen, "the fair server's runtime is negative");
		return EEVDF_EINVAL;
	}
	if (cfg->fair_server_period < 0 ||
	    sp->fair_server_period < 100 * EEVDF_NSEC_PER_USEC ||
	    sp->fair_server_period > (1ull << 22) * EEVDF_NSEC_PER_USEC ||
	    sp->fair_server_runtime > sp->fair_server_period) {
		set_err(err, errlen,
			"fair server runtime %llu ns of period %llu ns: the "
			"period must be 100 us..4.19 s and the runtime within "
			"it",
			(unsigned long long)sp->fair_server_runtime,
			(unsigned long long)sp->fair_server_period);
		return EEVDF_EINVAL;
	}
	return 0;
}

static int init_params(struct eevdf_sim *sim, const struct eevdf_config *cfg,
		       char *err, size_t errlen)
{
	struct sched_params *sp = &sim->sched.sp;
	const struct eevdf_profile *prof = eevdf__profile_find(cfg->kernel);
	unsigned int factor;
	uint64_t mask;

	if (!prof) {
		size_t n = 0;
		char names[128] = "";

		for (size_t i = 0;
		     i < eevdf_profile_count() && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n,
					      "%s%s", i ? ", " : "",
					      eevdf_profile_name(i));
		set_err(err, errlen, "unknown kernel profile '%s' (known: %s)",
			cfg->kernel, names);
		return EEVDF_EINVAL;
	}
	if (eevdf_config_check_features(cfg, err, errlen))
		return EEVDF_EINVAL;
	eevdf_profile_features(prof->name, &mask);
	sp->profile = prof;
	sp->features = ((mask | cfg->feat_on) & ~cfg->feat_off) &
		       prof->feat_present;
	factor = 1 + ilog2_u((unsigned int)(sim->sched.nr_cpus < 8 ?
						    sim->sched.nr_cpus :
						    8));
	if (cfg->base_slice) {
		if (cfg->base_slice < 100 * EEVDF_NSEC_PER_USEC ||
		    cfg->base_slice > 100 * EEVDF_NSEC_PER_MSEC) {
			set_err(err, errlen,
				"base slice %lld ns is outside "
				"100us..100ms",
				(long long)cfg->base_slice);
			return EEVDF_EINVAL;
		}
		sp->sysctl_sched_base_slice = (u64)cfg->base_slice;
		sp->normalized_base_slice = (u64)cfg->base_slice / factor;
	} else {
		sp->normalized_base_slice = prof->normalized_base_slice;
		sp->sysctl_sched_base_slice = prof->normalized_base_slice *
					      factor;
	}
	/*
	 * CFS (6.1-6.5): latency 6 ms and wakeup granularity 1 ms scale with
	 * the same factor as the minimum granularity (the base slice above);
	 * the SCHED_IDLE minimum does not (kernel-model.md 9.1).
	 */
	sp->sysctl_sched_latency = 6000000ull * factor;
	sp->sysctl_sched_wakeup_granularity = 1000000ull * factor;
	sp->sysctl_sched_idle_min_granularity = 750000;
	sp->tick_nsec = (u64)((EEVDF_NSEC_PER_SEC + sim->sched.hz / 2) /
			      sim->sched.hz);
	sp->migration_cost = 500000;
	sp->smp = sim->sched.nr_cpus > 1;
	return init_class_params(sim, cfg, err, errlen);
}

int eevdf_sim_new(const struct eevdf_config *cfg, eevdf_sim **out, char *err,
		  size_t errlen)
{
	struct eevdf_sim *sim;
	int ret;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!cfg) {
		set_err(err, errlen, "no configuration given");
		return EEVDF_EINVAL;
	}
	if (!cfg->machine &&
	    (cfg->nr_cpus < 1 || cfg->nr_cpus > EEVDF_MAX_CPUS)) {
		set_err(err, errlen, "nr_cpus %d is outside 1..%d",
			cfg->nr_cpus, EEVDF_MAX_CPUS);
		return EEVDF_EINVAL;
	}
	if (!cfg->machine &&
	    (cfg->hz < EEVDF_HZ_MIN || cfg->hz > EEVDF_HZ_MAX)) {
		set_err(err, errlen, "hz %d is outside %d..%d", cfg->hz,
			EEVDF_HZ_MIN, EEVDF_HZ_MAX);
		return EEVDF_EINVAL;
	}
#ifdef EEVDF_NO_INVARIANTS
	if (cfg->check_invariants) {
		set_err(err, errlen,
			"invariant checking is compiled out of "
			"this build (EEVDF_NO_INVARIANTS)");
		return EEVDF_EINVAL;
	}
#endif
	if (cfg->duration < 0 || cfg->duration > MAX_DURATION) {
		set_err(err, errlen, "duration %lld ns is outside 0..10^15",
			(long long)cfg->duration);
		return EEVDF_EINVAL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return EEVDF_ENOMEM;
	ret = sim_machine(sim, cfg, err, errlen);
	if (!ret)
		ret = init_params(sim, cfg, err, errlen);
	if (ret) {
		eevdf_sim_free(sim);
		return ret;
	}
	eevdf__eventq_init(&sim->sched.evq);
	/* struct rq is 64-byte aligned; calloc() promises 16 */
	sim->sched.rqs_block = calloc(
		1, (size_t)sim->sched.nr_cpus * sizeof(*sim->sched.rqs) +
			   _Alignof(struct rq));
	sim->sched.rqs = sim->sched.rqs_block ?
				 eevdf__align_up(sim->sched.rqs_block,
						 _Alignof(struct rq)) :
				 NULL;
	sim->sched.settle = calloc((size_t)sim->sched.nr_cpus,
				   sizeof(*sim->sched.settle));
	sim->sched.core_mark = calloc((size_t)sim->sched.topo.nr_cores,
				      sizeof(*sim->sched.core_mark));
	sim->sched.idle_map = calloc((size_t)sim->sched.nr_cpus, 1);
	sim->sched.core_running = calloc((size_t)sim->sched.topo.nr_cores, 1);
	sim->sched.idle_bits = calloc(sim->sched.topo.nr_words,
				      sizeof(*sim->sched.idle_bits));
	if (!sim->sched.rqs || !sim->sched.settle || !sim->sched.core_mark ||
	    !sim->sched.idle_map || !sim->sched.idle_bits ||
	    !sim->sched.core_running ||
	    eevdf__eventq_set_lanes(&sim->sched.evq, (u32)sim->sched.nr_cpus) ||
	    eevdf__sched_classes_init(&sim->sched)) {
		eevdf_sim_free(sim);
		return EEVDF_ENOMEM;
	}
	sim->seed = cfg->seed;
	sim->duration = cfg->duration;
	snprintf(sim->name, sizeof(sim->name), "%s",
		 cfg->name ? cfg->name : "");
	sim->check_invariants = cfg->check_invariants;
	sim->max_events = cfg->max_events;
	sim->guard_max = cfg->max_instant_ops ? cfg->max_instant_ops :
						EEVDF_MAX_INSTANT_OPS;
	sim->progress = cfg->progress;
	sim->progress_ud = cfg->progress_ud;
	sim->progress_every = cfg->progress_every ? cfg->progress_every : 65536;
	sim->next_progress = cfg->progress ? sim->progress_every : UINT64_MAX;
	sim->next_check = sim->next_progress;
	if (sim->max_events && sim->max_events < sim->next_check)
		sim->next_check = sim->max_events;
	sim->class_knobs_set = cfg->rt_runtime || cfg->rt_period ||
			       cfg->rr_timeslice || cfg->fair_server_runtime ||
			       cfg->fair_server_period;
	sim->sched.trace = cfg->trace;
	sim->sched.trace_ud = cfg->trace_ud;
	sim->sched.ttwu_waker = -1;
	sim->sched.irq_cpu = -1;
	sim->sched.ops = &eevdf__prog_ops;
	sim->guard_time = -1;
	sim->kill_at = -1;
	eevdf__no_dl_init(&sim->sched);
	eevdf__event_init(&sim->stop_ev, SEV_STOP, EVC_TICK);
	eevdf__event_init(&sim->warmup_ev, SEV_WARMUP, EVC_TICK);
	for (int i = 0; i < sim->sched.nr_cpus; i++)
		eevdf__core_init_rq(&sim->sched, &sim->sched.rqs[i], i);
	/* a run queue's first timers may fail to queue (out of memory):
	 * recorded in sched.error, which a new simulation must not carry */
	if (eevdf__tg_init(&sim->sched) || sim->sched.error) {
		ret = sim->sched.error ? sim->sched.error : EEVDF_ENOMEM;
		eevdf_sim_free(sim);
		return ret;
	}
	*out = sim;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * Every task's name, from its creation to the end of the run: the
 * pointers eevdf_sim_task_stats() hands out must outlive the task, which
 * may be compacted in between.  Names are packed into chunks, as short
 * as they are.
 */
#define NAME_CHUNK_BYTES 65536

struct name_chunk {
	struct name_chunk *next;
	size_t used;
	char buf[NAME_CHUNK_BYTES];
};

/* A copy of s cut to EEVDF_NAME_MAX - 1 bytes, or NULL (no memory). */
static const char *name_copy(struct eevdf_sim *sim, const char *s)
{
	struct name_chunk *c = sim->names;
	/* C11's memchr() stops at the first match, as a byte loop would */
	const char *nul = memchr(s, '\0', EEVDF_NAME_MAX - 1);
	size_t n = nul ? (size_t)(nul - s) : EEVDF_NAME_MAX - 1;
	char *d;

	if (!c || NAME_CHUNK_BYTES - c->used < n + 1) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->next = sim->names;
		c->used = 0;
		sim->names = c;
	}
	d = c->buf + c->used;
	memcpy(d, s, n);
	d[n] = '\0';
	c->used += n + 1;
	return d;
}

static void self_free(struct sim_object *o)
{
	if (o) {
		eevdf__object_free(o);
		free(o);
	}
}

static void task_free(struct eevdf_sim *sim, struct task *p)
{
	if (!p)
		return;
	eevdf__program_unref(p->prog);
	free(p->locals); /* and loop_left, in the same block */
	free(p->written);
	self_free(p->self);
	free(p->cpus_allowed);
	eevdf__task_dl_free(&sim->sched, p);
	eevdf__task_pool_put(&sim->task_pool, p);
}

void eevdf_sim_free(eevdf_sim *sim)
{
	if (!sim)
		return;
	/* first: it finds its requests among the queued events, some of
	 * which live in tasks */
	eevdf__io_free(sim);
	for (size_t i = 0; i < sim->sched.nr_tasks; i++)
		task_free(sim, sim->sched.tasks[i]);
	free(sim->sched.tasks);
	eevdf__task_pool_destroy(&sim->task_pool);
	for (size_t c = 0; c < sim->nr_rec_chunks; c++) {
		/* zero-filled: a slot never written has no semaphore */
		for (size_t k = 0; sim->recs[c] && k < TASK_RECS_PER_CHUNK; k++)
			self_free(sim->recs[c][k].self);
		free(sim->recs[c]);
	}
	free(sim->recs);
	free(sim->reap);
	while (sim->names) {
		struct name_chunk *next = sim->names->next;

		free(sim->names);
		sim->names = next;
	}
	for (size_t i = 0; i < sim->nr_objs; i++) {
		eevdf__object_free(sim->objs[i]);
		free(sim->objs[i]);
	}
	free(sim->objs);
	free(sim->objs_by_name);
	for (size_t i = 0; i < sim->nr_metrics; i++)
		eevdf__metric_free(sim->metrics[i]);
	eevdf__metric_snaps_free(sim->snaps);
	free(sim->metrics);
	for (size_t i = 0; i < sim->nr_join_sets; i++)
		free(sim->join_sets[i].pids);
	free(sim->join_sets);
	for (size_t i = 0; i < sim->nr_templates; i++) {
		free(sim->templates[i].name);
		free((void *)(uintptr_t)sim->templates[i].spec.cpus);
		eevdf__program_unref(sim->templates[i].prog);
	}
	free(sim->templates);
	free(sim->globals);
	for (size_t i = 0; i < sim->nr_strings; i++)
		free(sim->strings[i]);
	free(sim->strings);
	free(sim->sched.settle);
	free(sim->sched.rqs_block);
	free(sim->sched.core_mark);
	free(sim->sched.idle_map);
	free(sim->sched.idle_bits);
	free(sim->sched.core_running);
	eevdf__sched_classes_free(&sim->sched);
	eevdf__obs_free(&sim->sched);
	eevdf__tg_free(&sim->sched);
	for (size_t i = 0; i < ARRAY_SIZE(sim->prog_cache); i++) {
		eevdf__program_unref(sim->prog_cache[i].prog);
		free(sim->prog_cache[i].ops);
	}
	eevdf__topology_free(&sim->sched.topo);
	eevdf_machine_free(sim->machine);
	eevdf__eventq_destroy(&sim->sched.evq);
	free(sim);
}

/* Tasks ------------------------------------------------------------------ */

static bool op_takes_time(const struct eevdf_op *op)
{
	return (op->kind == EEVDF_OP_RUN || op->kind == EEVDF_OP_SLEEP) &&
	       op->duration > 0;
}

/*
 * A program is well formed when every loop body lies inside the program
 * and inside every loop enclosing it, and every forever loop can advance
 * the clock; otherwise it would spin at one instant for ever.
 */
static int check_program(struct eevdf_sim *sim, const char *name,
			 const struct eevdf_op *ops, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct eevdf_op *op = &ops[i];

		switch (op->kind) {
		case EEVDF_OP_RUN:
		case EEVDF_OP_SLEEP:
			if (op->duration < 0 || op->duration > MAX_DURATION)
				return sim_reject(sim, EEVDF_EINVAL,
						  "task %s: op %zu: duration "
						  "%lld ns is outside 0..10^15",
						  name, i,
						  (long long)op->duration);
			break;
		case EEVDF_OP_YIELD:
			break;
		case EEVDF_OP_LOOP: {
			size_t end = i + 1 + op->body_len;
			bool advances = false;

			if (op->body_len == 0 || end > nr)
				return sim_reject(sim, EEVDF_EINVAL,
						  "task %s: op %zu: loop body "
						  "of %u ops does not fit the "
						  "program",
						  name, i, op->body_len);
			for (size_t k = i + 1; k < end; k++) {
				const struct eevdf_op *in = &ops[k];

				if (in->kind == EEVDF_OP_LOOP &&
				    k + 1 + in->body_len > end)
					return sim_reject(sim, EEVDF_EINVAL,
							  "task %s: op %zu: "
							  "nested loop ends "
							  "outside its parent",
							  name, k);
				advances |= op_takes_time(in);
			}
			if (op->count == 0 && !advances)
				return sim_reject(sim, EEVDF_EINVAL,
						  "task %s: op %zu: a forever "
						  "loop needs a run or sleep "
						  "of non-zero duration",
						  name, i);
			break;
		}
		default:
			return sim_reject(sim, EEVDF_EINVAL,
					  "task %s: op %zu: unknown op kind %d",
					  name, i, (int)op->kind);
		}
	}
	return 0;
}

static int check_spec(struct eevdf_sim *sim, const struct eevdf_task_spec *s)
{
	size_t len;

	if (!s->name || !(len = strlen(s->name)) || len >= EEVDF_NAME_MAX)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task name must have "
				  "1..%d characters",
				  EEVDF_NAME_MAX - 1);
	if (s->nice < -20 || s->nice > 19)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: nice %d is "
				  "outside -20..19",
				  s->name, s->nice);
	if ((int)s->policy < EEVDF_POLICY_NORMAL ||
	    s->policy > EEVDF_POLICY_DEADLINE)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: unknown policy "
				  "%d",
				  s->name, (int)s->policy);
	if ((s->policy == EEVDF_POLICY_FIFO || s->policy == EEVDF_POLICY_RR) !=
	    (s->rt_priority != 0))
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: rt_priority %u: SCHED_FIFO and "
				  "SCHED_RR need 1..99, other policies 0",
				  s->name, s->rt_priority);
	if (s->rt_priority > 99)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: rt_priority %u is outside 1..99",
				  s->name, s->rt_priority);
	if (s->dl_runtime < 0 || s->dl_deadline < 0 || s->dl_period < 0)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: negative deadline parameter",
				  s->name);
	if (s->slice < 0)
		return sim_reject(sim, EEVDF_EINVAL, "task %s: negative slice",
				  s->name);
	if (s->start < 0 || s->start > MAX_DURATION)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: start %lld ns "
				  "is outside 0..10^15",
				  s->name, (long long)s->start);
	if (s->nr_ops && !s->program)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: nr_ops without "
				  "a program",
				  s->name);
	if (s->nr_ops > 65536)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: program of %zu "
				  "ops is longer than 65536",
				  s->name, s->nr_ops);
	if (s->nr_cpus && !s->cpus)
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: nr_cpus without "
				  "a cpu list",
				  s->name);
	for (size_t i = 0; i < s->nr_cpus; i++) {
		if (s->cpus[i] < 0 || s->cpus[i] >= sim->sched.nr_cpus)
			return sim_reject(sim, EEVDF_EINVAL,
					  "task %s: cpu %d "
					  "is not on this %d-CPU machine",
					  s->name, s->cpus[i],
					  sim->sched.nr_cpus);
		for (size_t j = 0; j < i; j++)
			if (s->cpus[j] == s->cpus[i])
				return sim_reject(sim, EEVDF_EINVAL,
						  "task %s: cpu %d is listed "
						  "twice",
						  s->name, s->cpus[i]);
	}
	return check_program(sim, s->name, s->program, s->nr_ops);
}

/* Copy an array of n elements of size sz (n may be 0). */
static void *dup_array(const void *src, size_t n, size_t sz)
{
	void *p = malloc(n ? n * sz : 1);

	if (p && n)
		memcpy(p, src, n * sz);
	return p;
}

static struct sim_object *new_self_sem(const char *task_name)
{
	struct sim_object *o = calloc(1, sizeof(*o));
	size_t n = strlen(task_name) + sizeof(".self");

	if (!o)
		return NULL;
	o->type = OBJ_SEM;
	o->u.sem.max = 1;
	o->name = malloc(n);
	if (!o->name) {
		free(o);
		return NULL;
	}
	snprintf(o->name, n, "%s.self", task_name);
	return o;
}

/*
 * The common part of adding a task: spec is already checked; prog is a
 * reference the task takes over (dropped on failure).
 */
int eevdf__sim_add_task_prog(struct eevdf_sim *sim,
			     const struct eevdf_task_spec *spec,
			     struct program *prog, bool is_thread,
			     const s64 *local_init, const s32 *binds)
{
	struct task *p;

	if (sim->sched.nr_tasks == sim->sched.cap_tasks) {
		size_t cap = sim->sched.cap_tasks ? 2 * sim->sched.cap_tasks :
						    16;
		struct task **t = realloc(sim->sched.tasks, cap * sizeof(*t));

		if (!t) {
			eevdf__program_unref(prog);
			return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
		}
		sim->sched.tasks = t;
		sim->sched.cap_tasks = cap;
	}
	p = eevdf__task_pool_get(&sim->task_pool);
	if (!p) {
		eevdf__program_unref(prog);
		return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
	}
	p->prog = prog;
	/*
	 * One block: the locals, then the loops' counters.  The second
	 * allocation was 14 % of the instructions of adding a task (200 000
	 * tasks on 1 024 CPUs); task_free() frees the block through locals.
	 */
	_Static_assert(sizeof(*p->locals) == sizeof(*p->loop_left),
		       "the locals and the loop counters share one block");
	p->locals = calloc((size_t)prog->nr_locals + 1 + prog->nr_ops + 1,
			   sizeof(*p->locals));
	p->loop_left = p->locals ? (u64 *)(p->locals + prog->nr_locals + 1) :
				   NULL;
	/* no list means every CPU: nothing to store */
	p->cpus_allowed = spec->nr_cpus ? dup_array(spec->cpus, spec->nr_cpus,
						    sizeof(*p->cpus_allowed)) :
					  NULL;
	p->name = name_copy(sim, spec->name);
	if (!p->locals || !p->loop_left ||
	    (spec->nr_cpus && !p->cpus_allowed) || !p->name) {
		task_free(sim, p);
		return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
	}
	if (local_init)
		memcpy(p->locals, local_init,
		       prog->nr_locals * sizeof(*p->locals));
	if (binds)
		memcpy(p->obj_bind, binds, prog->nr_binds * sizeof(*binds));
	p->nr_cpus_allowed = spec->nr_cpus;
	p->is_thread = is_thread;
	p->pid = (int)sim->sched.nr_tasks + 1;
	p->nice = spec->nice;
	p->policy = spec->policy;
	p->rt_priority = spec->rt_priority;
	p->prio = eevdf__normal_prio(p->policy, p->rt_priority, p->nice);
	p->sched_class = eevdf__sched_class_of(p->policy);
	p->dl = &sim->sched.no_dl;
	if (p->policy == EEVDF_POLICY_DEADLINE) {
		struct dl_attr dl = { (u64)spec->dl_runtime,
				      (u64)spec->dl_deadline,
				      (u64)spec->dl_period };

		if (eevdf__task_dl(&sim->sched, p)) {
			task_free(sim, p);
			return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
		}
		eevdf__setparam_dl(p, &dl);
	}
	p->state = TASK_NEW;
	p->delay_since = -1;
	/* sched_setattr() clamps sched_runtime to 0.1..100 ms. */
	if (spec->slice) {
		p->se.custom_slice = true;
		p->se.slice = (u64)spec->slice;
		if (p->se.slice < 100000)
			p->se.slice = 100000;
		if (p->se.slice > 100000000)
			p->se.slice = 100000000;
	}
	/*
	 * The task is forked where the search for its CPU starts: its first
	 * allowed CPU (CPU 0 for most), the launcher's CPU.  The fork
	 * balancer chooses the CPU when it starts.
	 */
	if (p->nr_cpus_allowed > 1)
		qsort(p->cpus_allowed, p->nr_cpus_allowed, sizeof(int),
		      cmp_int);
	p->cpu = p->nr_cpus_allowed ? p->cpus_allowed[0] : 0;
	/* its cgroup and session (the run's own, as if started from one
	 * shell, unless told otherwise) decide its group */
	p->cgroup = sim->sched.groups[0];
	if (spec->cgroup && strcmp(spec->cgroup, "/") != 0 &&
	    !(p->cgroup = eevdf__tg_find(&sim->sched, spec->cgroup))) {
		task_free(sim, p);
		return sim_reject(sim, EEVDF_EINVAL,
				  "task %s: no cgroup '%s' (make it with "
				  "eevdf_sim_set_group(), or in the workload's "
				  "\"groups\")",
				  spec->name, spec->cgroup);
	}
	/* public session s is s + 1 here, 0 being none (init's) */
	p->session = spec->session == EEVDF_SESSION_NONE ? 0 :
							   spec->session + 1;
	eevdf__sim_session_used(sim, spec->session);
	p->sched_task_group = eevdf__task_group_of(&sim->sched, p);
	p->stats_group = p->sched_task_group;
	if (sim->sched.error) {
		task_free(sim, p);
		return sim_reject(sim, sim->sched.error, "%s",
				  sim->sched.errmsg);
	}
	eevdf__set_task_rq(p, p->cpu);
	p->recent_used_cpu = -1;
	p->wakelist_waker = -1;
	p->start = spec->start > sim->sched.now ? spec->start : sim->sched.now;
	/* a task of another class: as if it called sched_setattr() before
	 * it first ran (a deadline task's bandwidth is admitted here) */
	if (p->sched_class != &fair_sched_class) {
		char why[256];
		int r = eevdf__sched_admit_new(&sim->sched, p, why,
					       sizeof(why));

		if (r) {
			task_free(sim, p);
			return sim_reject(sim, r, "task %s: %s", spec->name,
					  why);
		}
	}
	eevdf__rng_seed(&p->rng, sim->seed, p->name, EEVDF_RNG_BEHAVIOUR);
	eevdf__event_init(&p->ev, TEV_START, EVC_WAKEUP);
	p->ev.time = p->start;
	if (eevdf__prog_open_channels(sim, p) ||
	    eevdf__eventq_push(&sim->sched.evq, &p->ev)) {
		/* close the write ends it had opened */
		for (u32 k = 0; k < p->nr_written; k++)
			p->written[k]->u.chan.nr_writers--;
		eevdf__task_dead_dl(&sim->sched, p);
		task_free(sim, p);
		return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
	}
	sim->sched.tasks[sim->sched.nr_tasks++] = p;
	return p->pid;
}

/* Exited tasks ------------------------------------------------------------ */

/*
 * A dead task is compacted into its record at the end of an event (reap())
 * once it is past the last EXITS_KEPT_WHOLE exits and nothing can refer to
 * it any more.  What could, and why that is safe then:
 *  - the pid table: the entry becomes NULL, and the engine's and the
 *    reports' readers go through eevdf__sim_rec() and its kin; the
 *    scheduler reads it only for a waker and for the parent of a task it
 *    starts, which are running, or pinned while a wake list in flight or a
 *    child not started yet will read them;
 *  - rq->curr, the cfs_rq's curr and buddies, rq->cfs_tasks and the event
 *    queue: the exit's switch-out took it off all of them (pinned()
 *    checks), so no later pick or balance sees it;
 *  - other tasks' last_wakee: a pid, never a pointer that a freed address
 *    could match again;
 *  - wait queues: a task exits running, so it waits on nothing; objects
 *    that hold a task (a mutex or spinlock it owns, a list it is on) pin
 *    it;
 *  - parents, children, join sets and signals: by pid, and a compacted
 *    task is dead;
 *  - its own semaphore, which others may name: the record keeps it unless
 *    it is as new, and a new one is made if it is named after that.
 */
static bool pinned(const struct task *p)
{
	return p->pins || p->spin_held || p->on_rq || p->on_cpu ||
	       eevdf__event_queued(&p->ev);
}

/* The record of pid, its chunk made on first use; NULL: no memory. */
static struct task_rec *rec_slot(struct eevdf_sim *sim, int pid)
{
	size_t i = (size_t)pid - 1, c = i / TASK_RECS_PER_CHUNK;

	if (c >= sim->nr_rec_chunks) {
		size_t n = 2 * sim->nr_rec_chunks > c ? 2 * sim->nr_rec_chunks :
							c + 1;
		struct task_rec **r = realloc(sim->recs, n * sizeof(*r));

		if (!r)
			return NULL;
		memset(r + sim->nr_rec_chunks, 0,
		       (n - sim->nr_rec_chunks) * sizeof(*r));
		sim->recs = r;
		sim->nr_rec_chunks = n;
	}
	if (!sim->recs[c])
		sim->recs[c] = calloc(TASK_RECS_PER_CHUNK, sizeof(**sim->recs));
	return sim->recs[c] ? &sim->recs[c][i % TASK_RECS_PER_CHUNK] : NULL;
}

const struct task_rec *eevdf__sim_rec(const struct eevdf_sim *sim, int pid)
{
	size_t i = (size_t)pid - 1;

	EEVDF_ASSERT(!sim->sched.tasks[i]);
	return &sim->recs[i / TASK_RECS_PER_CHUNK][i % TASK_RECS_PER_CHUNK];
}

const char *eevdf__sim_task_name(const struct eevdf_sim *sim, int pid)
{
	const struct task *p = sim->sched.tasks[pid - 1];

	return p ? p->name : eevdf__sim_rec(sim, pid)->name;
}

eevdf_time eevdf__sim_task_exited_at(const struct eevdf_sim *sim, int pid)
{
	const struct task *p = sim->sched.tasks[pid - 1];

	return p ? p->exited_at : eevdf__sim_rec(sim, pid)->exited_at;
}

struct sim_object *eevdf__sim_task_self(struct eevdf_sim *sim, int pid)
{
	struct task *p = sim->sched.tasks[pid - 1];
	struct task_rec *r;

	/*
	 * Made on first use, not at fork: most tasks never name their own
	 * semaphore, and at 100 000 tasks its 250 bytes a task were a sixth
	 * of the memory.  NULL when out of memory.
	 */
	if (p) {
		if (!p->self)
			p->self = new_self_sem(p->name);
		return p->self;
	}
	r = rec_slot(sim, pid); /* compacted: its chunk is there */
	if (!r->self)
		r->self = new_self_sem(r->name);
	return r->self;
}

/* Compact p at the end of this event; no memory: it stays whole. */
static void reap_later(struct eevdf_sim *sim, const struct task *p)
{
	if (sim->nr_reap == sim->cap_reap) {
		size_t cap = sim->cap_reap ? 2 * sim->cap_reap : 16;
		int *n = realloc(sim->reap, cap * sizeof(*n));

		if (!n)
			return;
		sim->reap = n;
		sim->cap_reap = cap;
	}
	sim->reap[sim->nr_reap++] = p->pid;
}

/* The newest exit joins the ring of those kept whole; the oldest leaves. */
void eevdf__sim_task_exited(struct eevdf_sim *sim, struct task *p)
{
	struct task *old;

	if (sim->nr_kept < EXITS_KEPT_WHOLE) {
		sim->kept[sim->nr_kept++] = p->pid;
		return;
	}
	/* whole: only a task that has left the ring is ever compacted */
	old = sim->sched.tasks[sim->kept[sim->kept_head] - 1];
	if (!old) {
		eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				"internal invariant failed: task %d left the "
				"ring of the last exits already compacted",
				sim->kept[sim->kept_head]);
		return;
	}
	sim->kept[sim->kept_head] = p->pid;
	sim->kept_head = (sim->kept_head + 1) % EXITS_KEPT_WHOLE;
	old->reapable = true;
	reap_later(sim, old);
}

void eevdf__sim_unpin(struct eevdf_sim *sim, struct task *p)
{
	if (!p->pins) {
		eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				"internal invariant failed: task %s unpinned "
				"more often than pinned",
				p->name);
		return;
	}
	if (!--p->pins && p->reapable)
		reap_later(sim, p);
}

/* Fold p into its record and free the task with all it owns. */
static void compact(struct eevdf_sim *sim, struct task *p)
{
	struct task_rec *r = rec_slot(sim, p->pid);
	const struct obj_sem *self = p->self ? &p->self->u.sem : NULL;

	if (p->state != TASK_DEAD) {
		eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				"internal invariant failed: task %s compacted "
				"alive",
				p->name);
		return;
	}
	if (!r)
		return; /* out of memory: it stays whole, which is only bigger */
	r->name = p->name;
	r->st = p->st;
	r->sum_exec_runtime = p->se.sum_exec_runtime;
	r->start = p->start;
	r->exited_at = p->exited_at;
	r->cpu = p->cpu;
	r->nice = (int8_t)p->nice;
	r->policy = (uint8_t)p->policy;
	r->rt_priority = (uint8_t)p->rt_priority;
	r->dl_runtime = p->dl->dl_runtime;
	r->dl_deadline = p->dl->dl_deadline;
	r->dl_period = p->dl->dl_period;
	r->group = p->stats_group->id;
	/* a semaphore as new is all a new one would be */
	if (self && (self->count || self->waiters.nr)) {
		r->self = p->self;
		p->self = NULL;
	}
	sim->sched.tasks[p->pid - 1] = NULL;
	task_free(sim, p);
}

static void reap(struct eevdf_sim *sim)
{
	for (size_t i = 0; i < sim->nr_reap; i++) {
		struct task *p = sim->sched.tasks[sim->reap[i] - 1];

		if (p && p->reapable && !pinned(p))
			compact(sim, p);
	}
	sim->nr_reap = 0;
}

size_t eevdf__sim_nr_whole_tasks(const struct eevdf_sim *sim)
{
	size_t n = 0;

	for (size_t i = 0; i < sim->sched.nr_tasks; i++)
		n += sim->sched.tasks[i] != NULL;
	return n;
}

static bool same_ops(const struct eevdf_op *a, const struct eevdf_op *b,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].duration != b[i].duration ||
		    a[i].count != b[i].count || a[i].body_len != b[i].body_len)
			return false;
	return true;
}

/*
 * The program of ops: a reference to the one built for the same ops
 * earlier (the last eight kinds are remembered), or a new one.
 */
static int shared_program(struct eevdf_sim *sim, const struct eevdf_op *ops,
			  size_t nr, struct program **out)
{
	struct prog_cache *c;
	struct eevdf_op *copy;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(sim->prog_cache); i++) {
		c = &sim->prog_cache[i];
		if (c->prog && c->nr == nr && same_ops(c->ops, ops, nr)) {
			c->prog->refs++;
			*out = c->prog;
			return 0;
		}
	}
	ret = eevdf__program_from_ops(ops, nr, out);
	if (ret)
		return ret;
	copy = dup_array(ops, nr, sizeof(*ops));
	if (!copy)
		return 0; /* not remembered: only sharing is lost */
	c = &sim->prog_cache[sim->prog_cache_next++ %
			     ARRAY_SIZE(sim->prog_cache)];
	eevdf__program_unref(c->prog);
	free(c->ops);
	c->ops = copy;
	c->nr = nr;
	c->prog = *out;
	c->prog->refs++;
	return 0;
}

/*
 * The checks every call that changes a simulation makes first: not from
 * its own callbacks (EEVDF_EBUSY), not after a failed run (EEVDF_EMISUSE,
 * the failure's message kept in errmsg).  0 when the call may go on.
 */
int eevdf__sim_mutable(struct eevdf_sim *sim, const char *call)
{
	if (sim->running)
		return sim_reject(sim, EEVDF_EBUSY,
				  "%s called from a callback of the running "
				  "simulation",
				  call);
	if (sim->sched.error) {
		char was[sizeof(sim->sched.errmsg)];

		snprintf(was, sizeof(was), "%s", sim->sched.errmsg);
		return sim_reject(sim, EEVDF_EMISUSE,
				  "%s after the simulation failed: %s", call,
				  was);
	}
	return 0;
}

int eevdf_sim_add_task(eevdf_sim *sim, const struct eevdf_task_spec *spec)
{
	struct program *prog;
	int ret;

	if (!sim)
		return EEVDF_EINVAL;
	if ((ret = sim_mutable(sim, "eevdf_sim_add_task()")))
		return ret;
	if (!spec)
		return sim_reject(sim, EEVDF_EINVAL, "no task spec (NULL)");
	if (sim->sched.nr_tasks >= EEVDF_MAX_TASKS)
		return sim_reject(sim, EEVDF_EINVAL, "more than %d tasks",
				  EEVDF_MAX_TASKS);
	ret = check_spec(sim, spec);
	if (ret)
		return ret;
	ret = shared_program(sim, spec->program, spec->nr_ops, &prog);
	if (ret)
		return sim_reject(sim, ret, "out of memory");
	return eevdf__sim_add_task_prog(sim, spec, prog, false, NULL, NULL);
}

int eevdf_sim_set_nice(eevdf_sim *sim, int pid, int nice)
{
	if (!sim)
		return EEVDF_EINVAL;
	if (sim->running)
		return sim_mutable(sim, "eevdf_sim_set_nice()");
	if (pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return sim_reject(sim, EEVDF_EINVAL, "no task with pid %d",
				  pid);
	if (nice < -20 || nice > 19)
		return sim_reject(sim, EEVDF_EINVAL,
				  "nice %d is outside "
				  "-20..19",
				  nice);
	if (sim->sched.error)
		return sim->sched.error;
	if (!sim->sched.tasks[pid - 1]) {
		/* compacted: dead, so only the nice it reports changes */
		rec_slot(sim, pid)->nice = (int8_t)nice;
		return 0;
	}
	eevdf__task_set_nice(&sim->sched, sim->sched.tasks[pid - 1], nice);
	return sim->sched.error;
}

int eevdf_sim_set_affinity(eevdf_sim *sim, int pid, const int *cpus, size_t nr)
{
	struct task *p;
	int *mask = NULL;

	if (!sim)
		return EEVDF_EINVAL;
	if (sim->running)
		return sim_mutable(sim, "eevdf_sim_set_affinity()");
	if (pid < 1 || (size_t)pid > sim->sched.nr_tasks)
		return sim_reject(sim, EEVDF_EINVAL, "no task with pid %d",
				  pid);
	if (nr && !cpus)
		return sim_reject(sim, EEVDF_EINVAL, "nr without a cpu list");
	for (size_t i = 0; i < nr; i++) {
		if (cpus[i] < 0 || cpus[i] >= sim->sched.nr_cpus)
			return sim_reject(sim, EEVDF_EINVAL,
					  "cpu %d is not on "
					  "this %d-CPU machine",
					  cpus[i], sim->sched.nr_cpus);
		for (size_t j = 0; j < i; j++)
			if (cpus[j] == cpus[i])
				return sim_reject(sim, EEVDF_EINVAL,
						  "cpu %d is listed twice",
						  cpus[i]);
	}
	if (sim->sched.error)
		return sim->sched.error;
	if (nr) {
		mask = dup_array(cpus, nr, sizeof(*mask));
		if (!mask)
			return sim_reject(sim, EEVDF_ENOMEM, "out of memory");
		qsort(mask, nr, sizeof(*mask), cmp_int);
	}
	p = sim->sched.tasks[pid - 1];
	if (!p) {
		/* compacted: dead, it will never run anywhere again */
		free(mask);
		return 0;
	}
	free(p->cpus_allowed);
	p->cpus_allowed = mask;
	p->nr_cpus_allowed = nr;
	eevdf__task_affinity_changed(&sim->sched, p);
	return sim->sched.error;
}

/* Workload setup --------------------------------------------------------- */

static int cmp_name_idx(const struct eevdf_sim *sim, u32 a, u32 b)
{
	return strcmp(sim->objs[a]->name, sim->objs[b]->name);
}

/* Keep objs_by_name sorted: an insertion step per added object. */
int eevdf__sim_add_object(struct eevdf_sim *sim, struct sim_object *o)
{
	u32 idx, k;

	if (sim->nr_objs == sim->cap_objs) {
		size_t cap = sim->cap_objs ? 2 * sim->cap_objs : 16;
		struct sim_object **n = realloc(sim->objs, cap * sizeof(*n));
		u32 *byn;

		if (!n)
			return EEVDF_ENOMEM;
		sim->objs = n;
		byn = realloc(sim->objs_by_name, cap * sizeof(*byn));
		if (!byn)
			return EEVDF_ENOMEM;
		sim->objs_by_name = byn;
		sim->cap_objs = cap;
	}
	if (o->type == OBJ_SPINLOCK) {
		size_t n = o->u.spin.per_cpu ? (size_t)sim->sched.nr_cpus : 1;

		o->u.spin.owner = calloc(n, sizeof(*o->u.spin.owner));
		o->u.spin.spinners = calloc(n, sizeof(*o->u.spin.spinners));
		if (!o->u.spin.owner || !o->u.spin.spinners)
			return EEVDF_ENOMEM;
	}
	idx = (u32)sim->nr_objs;
	sim->objs[sim->nr_objs++] = o;
	for (k = idx;
	     k > 0 && cmp_name_idx(sim, sim->objs_by_name[k - 1], idx) > 0; k--)
		sim->objs_by_name[k] = sim->objs_by_name[k - 1];
	sim->objs_by_name[k] = idx;
	return (int)idx;
}

int eevdf__sim_set_globals(struct eevdf_sim *sim, const s64 *init, size_t n)
{
	s64 *g = calloc(n ? n : 1, sizeof(*g));

	if (!g)
		return EEVDF_ENOMEM;
	if (n)
		memcpy(g, init, n * sizeof(*g));
	free(sim->globals);
	sim->globals = g;
	sim->nr_globals = n;
	return 0;
}

int eevdf__sim_add_join_set(struct eevdf_sim *sim, const u32 *pids, u32 nr)
{
	struct join_set *n;
	u32 *copy;

	n = realloc(sim->join_sets, (sim->nr_join_sets + 1) * sizeof(*n));
	if (!n)
		return EEVDF_ENOMEM;
	sim->join_sets = n;
	copy = dup_array(pids, nr, sizeof(*pids));
	if (!copy)
		return EEVDF_ENOMEM;
	n[sim->nr_join_sets].pids = copy;
	n[sim->nr_join_sets].nr = nr;
	return (int)sim->nr_join_sets++;
}

int eevdf__sim_set_stop(struct eevdf_sim *sim, eevdf_time after, bool kill)
{
	eevdf__event_init(&sim->stop_ev, SEV_STOP, EVC_TICK);
	sim->stop_ev.time = after;
	if (kill)
		sim->kill_at = after;
	return eevdf__eventq_push(&sim->sched.evq, &sim->stop_ev);
}

int eevdf__sim_set_warmup(struct eevdf_sim *sim, eevdf_time at)
{
	eevdf__event_init(&sim->warmup_ev, SEV_WARMUP, EVC_TICK);
	sim->warmup_ev.time = at;
	return eevdf__eventq_push(&sim->sched.evq, &sim->warmup_ev);
}

int eevdf__sim_add_template(struct eevdf_sim *sim, const char *name,
			    const struct eevdf_task_spec *spec,
			    struct program *prog, bool is_thread)
{
	struct task_template *n, *t;
	size_t len = strlen(name) + 1;

	n = realloc(sim->templates, (sim->nr_templates + 1) * sizeof(*n));
	if (!n) {
		eevdf__program_unref(prog);
		return EEVDF_ENOMEM;
	}
	sim->templates = n;
	t = &n[sim->nr_templates];
	memset(t, 0, sizeof(*t));
	t->spec = *spec;
	t->spec.name = NULL;
	t->spec.program = NULL;
	t->spec.nr_ops = 0;
	/* the instances' groups are eevdf__sim_template_groups()'s */
	t->spec.cgroup = NULL;
	t->spec.session = EEVDF_SESSION_NONE;
	t->name = malloc(len);
	t->spec.cpus = dup_array(spec->cpus, spec->nr_cpus, sizeof(int));
	if (!t->name || !t->spec.cpus) {
		free(t->name);
		free((void *)(uintptr_t)t->spec.cpus);
		eevdf__program_unref(prog);
		return EEVDF_ENOMEM;
	}
	memcpy(t->name, name, len);
	t->prog = prog;
	t->is_thread = is_thread;
	return (int)sim->nr_templates++;
}

void eevdf__sim_session_used(struct eevdf_sim *sim, unsigned int session)
{
	/* internal numbers are public + 1; the last one saturates */
	if (session == EEVDF_SESSION_NONE || session + 1 < sim->next_session)
		return;
	sim->next_session = session + 1 == UINT32_MAX ? UINT32_MAX :
							session + 2;
}

int eevdf__sim_template_groups(struct eevdf_sim *sim, size_t idx,
			       const char *cgroup, enum tmpl_session mode,
			       unsigned int session)
{
	struct task_template *t;
	struct task_group *tg = NULL;

	if (idx >= sim->nr_templates)
		return sim_reject(sim, EEVDF_EINVAL, "no template %zu", idx);
	t = &sim->templates[idx];
	if (cgroup && !(tg = strcmp(cgroup, "/") == 0 ?
				     sim->sched.groups[0] :
				     eevdf__tg_find(&sim->sched, cgroup)))
		return sim_reject(sim, EEVDF_EINVAL,
				  "template %s: no cgroup '%s' (make it with "
				  "eevdf_sim_set_group(), or in the workload's "
				  "\"groups\")",
				  t->name, cgroup);
	if (mode == TMPL_SESSION_FIXED && session == EEVDF_SESSION_NONE)
		return sim_reject(sim, EEVDF_EINVAL,
				  "template %s: a named session is a number",
				  t->name);
	t->cgroup = tg;
	t->session_mode = mode;
	t->session = mode == TMPL_SESSION_FIXED ? session + 1 : 0;
	if (mode == TMPL_SESSION_FIXED)
		eevdf__sim_session_used(sim, session);
	return 0;
}

int eevdf__sim_intern(struct eevdf_sim *sim, const char *s, s64 *id)
{
	char **n, *copy;
	size_t len;

	for (size_t i = 0; i < sim->nr_strings; i++) {
		if (strcmp(sim->strings[i], s) == 0) {
			*id = STRING_ID_BASE + (s64)i;
			return 0;
		}
	}
	n = realloc(sim->strings, (sim->nr_strings + 1) * sizeof(*n));
	if (!n)
		return EEVDF_ENOMEM;
	sim->strings = n;
	len = strlen(s) + 1;
	copy = malloc(len);
	if (!copy)
		return EEVDF_ENOMEM;
	memcpy(copy, s, len);
	n[sim->nr_strings] = copy;
	*id = STRING_ID_BASE + (s64)sim->nr_strings++;
	return 0;
}

const char *eevdf__sim_string(const struct eevdf_sim *sim, s64 v)
{
	if (v < STRING_ID_BASE || v - STRING_ID_BASE >= (s64)sim->nr_strings)
		return NULL;
	return sim->strings[v - STRING_ID_BASE];
}

/* Running ---------------------------------------------------------------- */

/*
 * The invariant checker; a build with EEVDF_NO_INVARIANTS (the speed
 * benchmark's) leaves it out entirely.
 */
#ifndef EEVDF_NO_INVARIANTS
static int check_all(struct eevdf_sim *sim)
{
	const char *lb = eevdf__lb_stats_check(&sim->sched);

	if (lb)
		return eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				       "invariant broken at %lld ns: %s",
				       (long long)sim->sched.now, lb);
	for (int i = 0; i < sim->sched.nr_cpus; i++) {
		const char *err = eevdf__rq_check(&sim->sched.rqs[i]);

		if (!err)
			err = eevdf__eventq_check_lane(&sim->sched.evq, (u32)i);
		if (err)
			return eevdf__sim_fail(sim, EEVDF_EINTERNAL,
					       "invariant broken on CPU %d at "
					       "%lld ns: %s",
					       i, (long long)sim->sched.now,
					       err);
	}
	return 0;
}
#endif

/* The workload's stop time and warmup end. */
static void sim_event(struct eevdf_sim *sim, struct eevdf_event *ev)
{
	if (ev->type == SEV_STOP) {
		sim->stop_flag = true;
		if (sim->kill_at == ev->time)
			sim->ended = true;
	} else {
		eevdf__metrics_warmup(sim);
	}
}

/*
 * A task's start and a wake list's landing are the last reads of the
 * parent and of the waker that pinned them (struct task's pins): the
 * task whose pin this event drops, read before the event runs.
 */
static int pin_released_by(const struct eevdf_event *ev)
{
	const struct task *p;

	if (ev->type != TEV_START && ev->type != TEV_WAKELIST)
		return 0;
	p = container_of(ev, struct task, ev);
	return ev->type == TEV_START ? p->parent_pid : p->wakelist_waker;
}

/* Run ev, the earliest event, which eevdf__eventq_peek() just returned. */
static int step_one(struct eevdf_sim *sim, struct eevdf_event *ev)
{
	u32 type = eevdf__eventq_take(&sim->sched.evq, ev)->type;
	int ret = 0, holder = 0;

	/* checked arithmetic keeps every event at or after now; were one
	 * ever earlier, the clock must not run backwards */
	if (ev->time < sim->sched.now)
		return eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				       "internal invariant failed: an event of "
				       "type %u at %lld ns, before the clock "
				       "(%lld ns)",
				       type, (long long)ev->time,
				       (long long)sim->sched.now);
	sim->sched.now = ev->time;
	sim->nr_events++;
	eevdf__core_prefetch_next(&sim->sched);
	if (type == SEV_RATE) {
		eevdf__metric_rate_tick(sim,
					container_of(ev, struct metric, ev));
	} else if (type == SEV_SNAP) {
		eevdf__metrics_snap_tick(sim);
	} else if (type == SEV_STOP || type == SEV_WARMUP) {
		sim_event(sim, ev);
	} else if (eevdf__io_event_type(type)) {
		ret = eevdf__io_event(sim, ev);
	} else {
		holder = pin_released_by(ev);
		ret = eevdf__core_dispatch(&sim->sched, ev);
	}
	/* a failure deep in the model (an event that could not be queued)
	 * is recorded in sim->sched.error */
	if (!ret)
		ret = sim->sched.error;
#ifndef EEVDF_NO_INVARIANTS
	if (!ret && sim->check_invariants)
		ret = check_all(sim);
#endif
	/* the parent's pin is the engine's; core.c dropped the waker's */
	if (holder > 0 && type == TEV_START)
		eevdf__sim_unpin(sim, sim->sched.tasks[holder - 1]);
	else if (holder > 0 && sim->sched.tasks[holder - 1]->reapable)
		reap_later(sim, sim->sched.tasks[holder - 1]);
	reap(sim);
	return ret;
}

/*
 * The limits, when the event count says one is due: max_events reached,
 * or the progress callback's turn (it may stop the run).  0 to go on.
 */
static int check_limits(struct eevdf_sim *sim)
{
	if (sim->max_events && sim->nr_events >= sim->max_events)
		return eevdf__sim_fail(sim, EEVDF_ELIMIT,
				       "the run reached its limit of %llu "
				       "events (max_events) at %lld ns",
				       (unsigned long long)sim->max_events,
				       (long long)sim->sched.now);
	if (sim->progress && sim->nr_events >= sim->next_progress) {
		sim->next_progress += sim->progress_every;
		if (sim->progress(sim->progress_ud, sim))
			return eevdf__sim_fail(
				sim, EEVDF_ECANCELED,
				"the progress callback stopped "
				"the run at %lld ns, after %llu "
				"events",
				(long long)sim->sched.now,
				(unsigned long long)sim->nr_events);
	}
	sim->next_check = sim->next_progress;
	if (sim->max_events && sim->max_events < sim->next_check)
		sim->next_check = sim->max_events;
	return 0;
}

int eevdf_sim_step(eevdf_sim *sim)
{
	int ret;

	if (!sim)
		return EEVDF_EINVAL;
	if (sim->running)
		return sim_mutable(sim, "eevdf_sim_step()");
	if (sim->sched.error)
		return sim->sched.error;
	/* only background events left: nothing more can happen to a task */
	if (sim->ended ||
	    eevdf__eventq_size(&sim->sched.evq) == sim->sched.nr_bg_events)
		return 0;
	sim->running = true;
	ret = sim->nr_events >= sim->next_check ? check_limits(sim) : 0;
	if (!ret)
		ret = step_one(sim, eevdf__eventq_peek(&sim->sched.evq));
	sim->running = false;
	return ret ? ret : 1;
}

/* Nothing left to happen, yet tasks remain: they wait for ever. */
static int deadlock(struct eevdf_sim *sim)
{
	char who[200];

	eevdf__prog_describe_blocked(sim, who, sizeof(who));
	return eevdf__sim_fail(sim, EEVDF_EDEADLOCK,
			       "deadlock at %lld ns: "
			       "every remaining task is blocked: %s",
			       (long long)sim->sched.now, who);
}

int eevdf_sim_run(eevdf_sim *sim, eevdf_time until)
{
	struct eevdf_event *ev;

	if (!sim)
		return EEVDF_EINVAL;
	if (sim->running)
		return sim_mutable(sim, "eevdf_sim_run()");
	if (sim->sched.error)
		return sim->sched.error;
	if (until < sim->sched.now)
		return sim_reject(sim, EEVDF_EINVAL,
				  "cannot run back to %lld "
				  "ns from %lld ns",
				  (long long)until, (long long)sim->sched.now);
	/* the callbacks (trace, progress) run inside: no re-entry */
	sim->running = true;
	/*
	 * Background events (the fair servers' timers) wake no task: when
	 * only they are left, the run is over or every task is blocked.
	 */
	while (!sim->ended && (ev = eevdf__eventq_peek(&sim->sched.evq)) &&
	       ev->time <= until &&
	       eevdf__eventq_size(&sim->sched.evq) > sim->sched.nr_bg_events) {
		int ret;

		if ((sim->nr_events >= sim->next_check &&
		     (ret = check_limits(sim))) ||
		    (ret = step_one(sim, ev))) {
			sim->running = false;
			return ret;
		}
	}
	sim->running = false;
	if (eevdf_sim_done(sim))
		return 0;
	if (eevdf__eventq_size(&sim->sched.evq) == sim->sched.nr_bg_events &&
	    sim->sched.nr_tasks)
		return deadlock(sim);
	sim->sched.now = until;
	return 0;
}

/* Getters ----------------------------------------------------------------- */

eevdf_time eevdf_sim_now(const eevdf_sim *sim)
{
	return sim ? sim->sched.now : 0;
}

int eevdf_sim_smp_stats(const eevdf_sim *sim, struct eevdf_smp_stats *out)
{
	if (!sim || !out)
		return EEVDF_EINVAL;
	*out = sim->sched.smp;
	return 0;
}

int eevdf_sim_class_stats(const eevdf_sim *sim, struct eevdf_class_stats *out)
{
	const struct scheduler *s;
	const struct sched_params *sp;

	if (!sim || !out)
		return EEVDF_EINVAL;
	s = &sim->sched;
	sp = &s->sp;
	memset(out, 0, sizeof(*out));
	out->rt_runtime = sp->rt_runtime;
	out->rt_period = (eevdf_time)sp->rt_period;
	out->rr_timeslice = (eevdf_time)(sp->rr_timeslice * sp->tick_nsec);
	out->rt_throttling = sp->rt_bandwidth;
	out->fair_server = sp->profile->dl_server != DL_SERVER_NONE;
	out->fair_server_runtime = (eevdf_time)sp->fair_server_runtime;
	out->fair_server_period = (eevdf_time)sp->fair_server_period;
	out->rt_tasks = s->nr_rt_tasks;
	out->dl_tasks = s->nr_dl_tasks;
	out->rt_throttled = s->nr_rt_throttles;
	out->rt_pushes = s->rt_pushes;
	out->rt_pulls = s->rt_pulls;
	out->dl_pushes = s->dl_pushes;
	out->dl_pulls = s->dl_pulls;
	out->fair_server_starts = s->dl_server_starts;
	out->fair_server_stops = s->dl_server_stops;
	out->fair_server_ns = (eevdf_time)s->fair_server_ns;
	out->dl_bw = s->dl_total_bw;
	out->dl_bw_limit = eevdf__dl_bw_limit(s);
	out->active = s->nr_rt_tasks || s->nr_dl_tasks || sim->class_knobs_set;
	return 0;
}

uint64_t eevdf_sim_nr_events(const eevdf_sim *sim)
{
	return sim ? sim->nr_events : 0;
}

/* Kernel threads never exit: a run is done when every other task has. */
bool eevdf_sim_done(const eevdf_sim *sim)
{
	return sim && (sim->ended || (sim->sched.nr_tasks > sim->nr_kthreads &&
				      sim->nr_exited + sim->nr_kthreads ==
					      sim->sched.nr_tasks));
}

const char *eevdf_sim_errmsg(const eevdf_sim *sim)
{
	if (!sim)
		return "no simulation";
	return sim->sched.errmsg[0] ? sim->sched.errmsg : "no error";
}

uint64_t eevdf_sim_features(const eevdf_sim *sim)
{
	return sim ? sim->sched.sp.features : 0;
}

const char *eevdf_sim_kernel(const eevdf_sim *sim)
{
	return sim ? sim->sched.sp.profile->name : "";
}

eevdf_time eevdf_sim_base_slice(const eevdf_sim *sim)
{
	return sim ? (eevdf_time)sim->sched.sp.sysctl_sched_base_slice : 0;
}

int eevdf_sim_nr_cpus(const eevdf_sim *sim)
{
	return sim ? sim->sched.nr_cpus : 0;
}

int eevdf_sim_hz(const eevdf_sim *sim)
{
	return sim ? sim->sched.hz : 0;
}

uint64_t eevdf_sim_seed(const eevdf_sim *sim)
{
	return sim ? sim->seed : 0;
}

eevdf_time eevdf_sim_duration(const eevdf_sim *sim)
{
	return sim ? sim->duration : 0;
}

bool eevdf_sim_autogroup(const eevdf_sim *sim)
{
	return sim && sim->sched.sp.autogroup;
}

const char *eevdf_sim_name(const eevdf_sim *sim)
{
	return sim ? sim->name : "";
}

size_t eevdf_sim_nr_tasks(const eevdf_sim *sim)
{
	return sim ? sim->sched.nr_tasks : 0;
}

/* The counters of struct task_stats as a results row has them. */
static void counters(const struct task_stats *st, struct eevdf_task_stats *out)
{
	out->wait_ns = (eevdf_time)st->wait_ns;
	out->sleep_ns = (eevdf_time)st->sleep_ns;
	out->voluntary = st->nvcsw;
	out->involuntary = st->nivcsw;
	out->switches = st->nvcsw + st->nivcsw;
	out->yields = st->yields;
	out->migrations = st->migrations;
	out->delay_count = st->delay_count;
	out->delay_sum_ns = (eevdf_time)st->delay_sum;
	out->delay_max_ns = (eevdf_time)st->delay_max;
	out->delay_max_at = (eevdf_time)st->delay_max_at;
}

/*
 * Live values as of now, computed without touching the model: calling
 * update_curr() here would renew deadlines at moments the kernel never
 * does and change the rest of the run.  A compacted task is dead: its
 * record holds its final values.
 */
int eevdf_sim_task_stats(const eevdf_sim *sim, size_t i,
			 struct eevdf_task_stats *out)
{
	const struct task_rec *r;
	const struct task *p;
	eevdf_time now;

	if (!sim || !out || i >= sim->sched.nr_tasks)
		return EEVDF_EINVAL;
	p = sim->sched.tasks[i];
	now = sim->sched.now;
	memset(out, 0, sizeof(*out));
	out->pid = (int)i + 1;
	if (!p) {
		r = eevdf__sim_rec(sim, (int)i + 1);
		out->name = r->name;
		out->cpu = r->cpu;
		out->nice = r->nice;
		out->policy = (enum eevdf_policy)r->policy;
		out->rt_priority = r->rt_priority;
		out->dl_runtime = (eevdf_time)r->dl_runtime;
		out->dl_deadline = (eevdf_time)r->dl_deadline;
		out->dl_period = (eevdf_time)r->dl_period;
		out->state = EEVDF_TASK_DEAD;
		out->cpu_ns = (eevdf_time)r->sum_exec_runtime;
		out->cgroup = sim->sched.groups[r->group]->path;
		counters(&r->st, out);
		return 0;
	}
	out->name = p->name;
	out->cgroup = p->stats_group->path;
	out->cpu = p->cpu;
	out->nice = p->nice;
	out->policy = p->policy;
	out->rt_priority = p->rt_priority;
	if (p->policy == EEVDF_POLICY_DEADLINE) {
		out->dl_runtime = (eevdf_time)p->dl->dl_runtime;
		out->dl_deadline = (eevdf_time)p->dl->dl_deadline;
		out->dl_period = (eevdf_time)p->dl->dl_period;
	}
	out->state = eevdf__public_state(p->state);
	out->cpu_ns = (eevdf_time)p->se.sum_exec_runtime;
	if (p->on_cpu)
		out->cpu_ns += now - (eevdf_time)p->se.exec_start;
	counters(&p->st, out);
	if (p->state == TASK_RUNNING && !p->on_cpu)
		out->wait_ns += now - p->state_since;
	else if (p->state == TASK_SLEEPING)
		out->sleep_ns += now - p->state_since;
	return 0;
}

int eevdf_sim_cpu_stats(const eevdf_sim *sim, int cpu,
			struct eevdf_cpu_stats *out)
{
	const struct rq *rq;

	if (!sim || !out || cpu < 0 || cpu >= sim->sched.nr_cpus)
		return EEVDF_EINVAL;
	rq = &sim->sched.rqs[cpu];
	out->cpu = cpu;
	out->busy_ns = (eevdf_time)rq->busy_ns;
	out->idle_ns = (eevdf_time)rq->idle_ns;
	if (rq->curr)
		out->busy_ns += sim->sched.now - rq->busy_since;
	else
		out->idle_ns += sim->sched.now - rq->idle_since;
	out->switches = rq->switches;
	out->ticks = rq->ticks;
	out->lock_acquisitions = rq->lock.acquisitions;
	out->lock_contended = rq->lock.contended;
	out->lock_spin_ns = (eevdf_time)rq->lock.spin_ns;
	out->lock_spin_max_ns = (eevdf_time)rq->lock.spin_max;
	out->lock_hold_ns = (eevdf_time)rq->lock.hold_ns;
	return 0;
}
