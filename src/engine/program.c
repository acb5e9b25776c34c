/* SPDX-License-Identifier: MIT */
/*
 * The task program interpreter: what a task does while it holds a CPU,
 * and how it blocks on and wakes others through workload objects.
 *
 * An op goes through phases: its CPU cost is burnt first (PH_COST, as a
 * burst of work that preemption can interrupt), then it acts (PH_ACT):
 * RUN and SPIN start bursts of their own, blocking ops put the task to
 * sleep (PH_WAIT) until a waker hands it the result.  Re-entering an op at
 * its phase after any interruption is always correct, which keeps
 * preemption, migration and wakeups out of the op code.
 *
 * Object rules, each after the kernel code it mirrors:
 *  - sem: a post with waiters hands the unit to the first waiter (futex
 *    wake), else counts up to max; max 1 is schbench's futex flag;
 *  - latch: once set, every wait passes (hackbench's GO byte);
 *  - event: a wake with no waiter is lost (FUTEX_WAKE, condition vars);
 *  - mutex: FIFO hand-off on unlock;
 *  - spinlock: waiters burn CPU while on a CPU; the holder's unlock gives
 *    the lock to the first spinner that is running;
 *  - channel: a byte stream with capacity; writers block while it is full,
 *    readers while it is empty; readers are woken with WF_SYNC where the
 *    kernel does (pipes, unix sockets); blocked writers are woken per the
 *    kind's rule: pipe when a slot's worth of space is free (pipe_read
 *    since 2025), unix socket when usage drops to a quarter
 *    (unix_writable), tcp on any space.
 */
#include <stdarg.h>
#include <string.h>

#include "dist.h"
#include "expr.h"
#include "lib/simtime.h"
#include "sched/fair.h"
#include "sched/group.h"
#include "interp.h"
#include "io.h"
#include "metrics.h"
#include "nbench.h"
#include "sim.h"

/* Either an error from a call that started something, or stay. */
static inline int stay(int err)
{
	return err ? err : 1;
}

enum burst {
	B_NONE = 0,
	B_WORK,	    /* op_work_left: a RUN op or an op's cost */
	B_OVERHEAD, /* overhead_left: switch and wakeup costs */
	B_SPIN,	    /* until spin_until */
	B_SPINLOCK, /* spinning on a lock: no end event */
	/*
	 * Stopped, its TEV_BURST still queued (park_burst()): the next
	 * burst re-keys that event in place, the same as a cancel and then
	 * a push; leaving the CPU or blocking cancels it.  It lasts only
	 * while the event that stopped the burst settles.
	 */
	B_STALE,
};

#define PIPE_SLOT 4096u

/*
 * An op few workloads run, or a task runs once: kept out of exec_op() and
 * eevdf__prog_step(), so that the lines the common ops run are fewer and
 * closer together in the instruction cache.
 */
#define RARE __attribute__((noinline))

/* Values --------------------------------------------------------------- */

/*
 * The run fails in p's current op: the message names the task and where
 * the op was written (its JSON path, and a macro's call site), or its
 * index in a program built from the public op array.
 */
static int task_failf(struct eevdf_sim *sim, struct task *p, int code,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5), cold));

static int task_failf(struct eevdf_sim *sim, struct task *p, int code,
		      const char *fmt, ...)
{
	const char *where = p->pc < p->prog->nr_ops ?
				    p->prog->ops[p->pc].where :
				    NULL;
	const char *nl = where ? strchr(where, '\n') : NULL;
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!where)
		return eevdf__sim_fail(sim, code, "task %s: op %u: %s", p->name,
				       p->pc, what);
	if (!nl)
		return eevdf__sim_fail(sim, code, "task %s: %s: %s", p->name,
				       where, what);
	return eevdf__sim_fail(sim, code,
			       "task %s: %.*s (in the macro called at %s): %s",
			       p->name, (int)(nl - where), where, nl + 1, what);
}

static __attribute__((cold)) int
task_fail(struct eevdf_sim *sim, struct task *p, int code, const char *what)
{
	return task_failf(sim, p, code, "%s", what);
}

/*
 * A value of p's op (what, v ns) would put an event past the last
 * simulated time: the run ends here rather than wrap the clock.
 */
static __attribute__((cold)) int
time_overflow(struct eevdf_sim *sim, struct task *p, const char *what, s64 v)
{
	return task_failf(sim, p, EEVDF_ERANGE,
			  "%s of %lld ns at %lld ns would pass the last "
			  "simulated instant (EEVDF_TIME_MAX, %lld ns)",
			  what, (long long)v, (long long)sim->sched.now,
			  (long long)EEVDF_TIME_MAX);
}

/* What an expression of p's program reads. */
static inline void expr_ctx_of(struct eevdf_sim *sim, const struct task *p,
			       struct expr_ctx *ctx)
{
	ctx->locals = p->locals;
	ctx->nr_locals = p->prog->nr_locals;
	ctx->globals = sim->globals;
	ctx->nr_globals = sim->nr_globals;
	ctx->now = sim->sched.now;
	ctx->stop = sim->stop_flag;
}

/*
 * An expression failed: evaluate it again for its message (evaluation is
 * pure), so that the hot path carries no message buffer.
 */
static __attribute__((noinline, cold)) int
eval_fail(struct eevdf_sim *sim, struct task *p, const struct expr *e)
{
	struct expr_ctx ctx;
	char err[160] = "";
	s64 v;
	int ret;

	expr_ctx_of(sim, p, &ctx);
	ret = eevdf__expr_eval(e, &ctx, &v, err, sizeof(err));
	if (!ret)
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: an expression "
				 "failed once, not twice");
	return task_fail(sim, p, ret, err);
}

static int eval_slow(struct eevdf_sim *sim, struct task *p,
		     const struct pval *v, s64 *out)
{
	struct expr_ctx ctx;

	switch (v->kind) {
	case PV_NONE:
		*out = 0;
		return 0;
	case PV_CONST:
		*out = v->c;
		return 0;
	case PV_DIST:
		*out = eevdf__dist_sample(v->dist, &p->rng);
		return 0;
	case PV_EXPR:
		/* the common forms exactly as the evaluator computes them */
		switch ((enum expr_form)v->form) {
		case EXPR_FORM_LOCAL:
			if (v->slot >= p->prog->nr_locals)
				break; /* the evaluator says what is wrong */
			*out = p->locals[v->slot];
			return 0;
		case EXPR_FORM_NOW:
			*out = sim->sched.now;
			return 0;
		case EXPR_FORM_STOP:
			*out = sim->stop_flag;
			return 0;
		case EXPR_FORM_NOT_STOP:
			*out = !sim->stop_flag;
			return 0;
		case EXPR_FORM_SINCE:
			if (v->slot >= p->prog->nr_locals ||
			    __builtin_sub_overflow(sim->sched.now,
						   p->locals[v->slot], out))
				break;
			return 0;
		case EXPR_FORM_US_SINCE:
			if (v->slot >= p->prog->nr_locals)
				break;
			*out = eevdf__us_of(sim->sched.now) -
			       eevdf__us_of(p->locals[v->slot]);
			return 0;
		case EXPR_FORM_ADD_K:
			if (v->slot >= p->prog->nr_locals ||
			    __builtin_add_overflow(p->locals[v->slot], v->c,
						   out))
				break;
			return 0;
		case EXPR_FORM_EQ_K:
			if (v->slot >= p->prog->nr_locals)
				break;
			*out = p->locals[v->slot] == v->c;
			return 0;
		case EXPR_FORM_NONE:
			break;
		}
		expr_ctx_of(sim, p, &ctx);
		if (eevdf__expr_eval(v->expr, &ctx, out, NULL, 0))
			return eval_fail(sim, p, v->expr);
		return 0;
	}
	return task_fail(sim, p, EEVDF_EINTERNAL, "bad value kind");
}

/* A value of p's program: constants without a call. */
static inline int eval(struct eevdf_sim *sim, struct task *p,
		       const struct pval *v, s64 *out)
{
	if (v->kind == PV_CONST) {
		*out = v->c;
		return 0;
	}
	return eval_slow(sim, p, v, out);
}

/* A duration or count that must not be negative. */
static int eval_nonneg(struct eevdf_sim *sim, struct task *p,
		       const struct pval *v, s64 *out)
{
	int ret = eval(sim, p, v, out);

	if (!ret && *out < 0)
		return task_fail(sim, p, EEVDF_ERANGE,
				 "a duration or count came out negative");
	return ret;
}

static void store(struct eevdf_sim *sim, struct task *p, u32 slot, u32 flags,
		  s64 v)
{
	if (slot == NO_SLOT)
		return;
	if (flags & SLOT_GLOBAL)
		sim->globals[slot] = v;
	else
		p->locals[slot] = v;
}

/* Objects -------------------------------------------------------------- */

static int cmp_obj_name(const void *key, const struct sim_object *o)
{
	return strcmp((const char *)key, o->name);
}

/* Binary search of the sorted name index. */
static struct sim_object *find_object(struct eevdf_sim *sim, const char *name)
{
	size_t lo = 0, hi = sim->nr_objs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct sim_object *o = sim->objs[sim->objs_by_name[mid]];
		int c = cmp_obj_name(name, o);

		if (c == 0)
			return o;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* A task's own semaphore by task name ("worker[1][3].self"). */
static struct sim_object *find_task_self(struct eevdf_sim *sim,
					 const char *name)
{
	size_t len = strlen(name);

	if (len < 6 || strcmp(name + len - 5, ".self") != 0)
		return NULL;
	for (size_t i = 0; i < sim->sched.nr_tasks; i++) {
		const char *tn = eevdf__sim_task_name(sim, (int)i + 1);

		if (strlen(tn) == len - 5 && memcmp(tn, name, len - 5) == 0)
			return eevdf__sim_task_self(sim, (int)i + 1);
	}
	return NULL;
}

/* Bytes of a name resolve() builds: a longer one fails before its parts
 * are evaluated, so a table covers only names shorter than this. */
#define OBJ_NAME_BUF 256

/* Task pid's own semaphore, "<name>.self". */
static struct sim_object *self_of(struct eevdf_sim *sim, struct task *p,
				  s32 pid)
{
	struct sim_object *o;

	if (pid <= 0 || (size_t)pid > sim->sched.nr_tasks) {
		task_fail(sim, p, EEVDF_EINVAL, "no such task");
		return NULL;
	}
	o = eevdf__sim_task_self(sim, pid);
	if (!o)
		task_fail(sim, p, EEVDF_ENOMEM, "out of memory");
	return o;
}

/* resolve() for all but a fixed or bound object. */
static __attribute__((noinline)) struct sim_object *
resolve_slow(struct eevdf_sim *sim, struct task *p, const struct objref *r)
{
	char name[OBJ_NAME_BUF];
	size_t n = 0;
	struct sim_object *o;

	if (r->bind)
		return self_of(sim, p, -p->obj_bind[r->bind - 1]);
	if (r->table) {
		/* resolved at load time (eevdf__objref_resolve_once()) */
		struct pval v = { .kind = PV_EXPR, .expr = r->parts[0].expr };
		s64 x;
		u64 k;

		if (r->table_local < p->prog->nr_locals)
			x = p->locals[r->table_local];
		else if (eval(sim, p, &v, &x))
			return NULL;
		k = (u64)x - (u64)r->table_lo;
		if (x >= r->table_lo && k < r->table_n && r->table[k] >= 0)
			return sim->objs[r->table[k]];
		/* not an object the table knows: by name, as before */
	}
	if (r->idx == OBJ_SELF || r->task_pid > 0)
		return self_of(sim, p,
			       r->idx == OBJ_SELF ? p->pid : r->task_pid);
	for (u32 i = 0; i < r->nr_parts; i++) {
		const struct name_part *part = &r->parts[i];
		int w = snprintf(name + n, sizeof(name) - n, "%s", part->text);

		n += (size_t)w;
		if (part->expr && n < sizeof(name)) {
			struct pval v = { .kind = PV_EXPR, .expr = part->expr };
			s64 x;

			if (eval(sim, p, &v, &x))
				return NULL;
			n += (size_t)snprintf(name + n, sizeof(name) - n,
					      "%lld", (long long)x);
		}
		if (n >= sizeof(name)) {
			task_fail(sim, p, EEVDF_ERANGE, "object name too long");
			return NULL;
		}
	}
	o = find_object(sim, name);
	if (!o)
		o = find_task_self(sim, name);
	if (!o) {
		char msg[320];

		snprintf(msg, sizeof(msg), "no object named '%s' (from '%s')",
			 name, r->text ? r->text : "?");
		task_fail(sim, p, EEVDF_EINVAL, msg);
	}
	return o;
}

/*
 * The object index r names for p without a lookup: its binding, or its
 * fixed index; negative otherwise (a task's semaphore, a run-time name).
 */
static inline s32 fixed_index(const struct task *p, const struct objref *r)
{
	return r->bind ? p->obj_bind[r->bind - 1] : r->idx;
}

static inline struct sim_object *resolve(struct eevdf_sim *sim, struct task *p,
					 const struct objref *r)
{
	s32 k = fixed_index(p, r);

	if (k >= 0)
		return sim->objs[k];
	return resolve_slow(sim, p, r);
}

/* Bursts --------------------------------------------------------------- */

/*
 * Work runs at nominal speed unless the CPU's SMT sibling is busy too:
 * then both run at the cost model's smt_speed_pct (0 means no slowdown).
 * Spinning burns wall time, whatever the speed.
 */
static u32 cpu_speed(const struct eevdf_sim *sim, int cpu)
{
	const struct scheduler *sched = &sim->sched;
	u32 pct = (u32)sched->costs.smt_speed_pct;
	unsigned int others;

	if (!pct || pct >= 100 || !sched->topo.smt_active)
		return 100;
	/* a sibling runs: the core's count without this CPU's own task */
	others = sched->core_running[sched->topo.cpu[cpu].core] -
		 (sched->rqs[cpu].curr != NULL);
	return others ? pct : 100;
}

/*
 * The wall time of ns of work at speed per cent, rounded up; in 128 bits
 * only when the product could pass 64 (a burst that large then fails the
 * time check of its caller, as it must).
 */
static u64 work_to_wall(u64 ns, u32 speed)
{
	if (speed == 100)
		return ns;
	if (ns > (UINT64_MAX - 99) / 100)
		return (u64)(((u128)ns * 100 + speed - 1) / speed);
	return (ns * 100 + speed - 1) / speed;
}

static const char *const burst_what[] = {
	[B_NONE] = "burst", [B_WORK] = "CPU work", [B_OVERHEAD] = "overhead",
	[B_SPIN] = "spin",  [B_SPINLOCK] = "spin", [B_STALE] = "burst",
};

/*
 * Start a burst of ns: work and overhead at the CPU's speed, a spin in
 * wall time.  A burst that would end past EEVDF_TIME_MAX fails the run.
 */
static int start_burst(struct eevdf_sim *sim, struct task *p, enum burst b,
		       u64 ns)
{
	eevdf_time until;
	u64 wall = ns;

	if (eevdf__event_queued(&p->ev) && p->burst != B_STALE)
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: a burst started "
				 "with the task's event queued");
	p->burst_speed = 100;
	if (b == B_WORK || b == B_OVERHEAD) {
		p->burst_speed = cpu_speed(sim, p->cpu);
		wall = work_to_wall(ns, p->burst_speed);
	}
	if (wall > (u64)EEVDF_TIME_MAX ||
	    !eevdf__time_add_checked(sim->sched.now, (s64)wall, &until))
		return time_overflow(sim, p, burst_what[b],
				     ns > (u64)INT64_MAX ? INT64_MAX : (s64)ns);
	p->burst = b;
	p->run_since = sim->sched.now;
	p->ev.type = TEV_BURST;
	p->ev.class = EVC_TASK;
	return eevdf__queue_event_on(&sim->sched, &p->ev, until, p->cpu);
}

static int work(struct eevdf_sim *sim, struct task *p, u64 ns)
{
	p->op_work_left = ns;
	return start_burst(sim, p, B_WORK, ns);
}

/* What the burst in progress did, taken off the work it had left. */
static void burst_account(struct eevdf_sim *sim, struct task *p)
{
	u64 done = (u64)(sim->sched.now - p->run_since) * p->burst_speed / 100;

	if (p->burst == B_WORK)
		p->op_work_left -= done < p->op_work_left ? done :
							    p->op_work_left;
	else if (p->burst == B_OVERHEAD)
		p->overhead_left -= done < p->overhead_left ? done :
							      p->overhead_left;
}

/* Stop the burst in progress, keeping what is left of its work. */
static void stop_burst(struct eevdf_sim *sim, struct task *p)
{
	if (p->burst == B_SPINLOCK || p->burst == B_NONE)
		return;
	eevdf__eventq_cancel(&sim->sched.evq, &p->ev);
	if (p->burst != B_STALE)
		burst_account(sim, p);
	p->burst = B_NONE;
}

/*
 * Stop the work or overhead burst in progress, but leave its event queued
 * for the burst that follows at this instant to re-key in place
 * (eevdf__queue_event()), instead of a cancel now and a push then: the
 * event pops in the same order either way, since it gets the same seq.
 * Only for a burst certain to be followed before this event settles by
 * a new one (overhead is owed, and the step starts with it) or by a
 * switch-out (which cancels it).
 */
static void park_burst(struct eevdf_sim *sim, struct task *p)
{
	burst_account(sim, p);
	p->burst = B_STALE;
}

void eevdf__prog_switch_out(struct eevdf_sim *sim, struct task *p)
{
	stop_burst(sim, p);
}

/* The CPU's sibling started or stopped running: re-time p's burst. */
int eevdf__prog_speed_change(struct eevdf_sim *sim, struct task *p)
{
	enum burst b = (enum burst)p->burst;

	if ((b != B_WORK && b != B_OVERHEAD) ||
	    p->burst_speed == cpu_speed(sim, p->cpu))
		return 0;
	park_burst(sim, p);
	return start_burst(sim, p, b,
			   b == B_WORK ? p->op_work_left : p->overhead_left);
}

/* The scheduler charged the switch (core.c's switch_in()). */
void eevdf__prog_switch_in(struct eevdf_sim *sim, struct task *p)
{
	p->needs_step = true;
	/* sched_update_worker(): a worker back from a sleep counts again */
	if (p->kthread)
		eevdf__wq_worker_running(sim, p);
}

/*
 * An interrupt took ns of p's CPU: p pays it before the rest of its
 * work, so a burst in progress stops and resumes after it.  A spin burns
 * wall time, which the interrupt eats into without extending.
 */
void eevdf__prog_interrupt(struct eevdf_sim *sim, struct task *p, u64 ns)
{
	enum burst b = (enum burst)p->burst;

	if (b == B_SPIN || b == B_SPINLOCK)
		return;
	if (b == B_WORK || b == B_OVERHEAD) {
		/* the step this settle runs starts the overhead burst */
		if (ns)
			park_burst(sim, p);
		else
			stop_burst(sim, p);
		p->needs_step = true;
		eevdf__mark_settle(&sim->sched, &sim->sched.rqs[p->cpu]);
	}
	p->overhead_left += ns;
}

void eevdf__prog_burst_end(struct eevdf_sim *sim, struct task *p)
{
	switch ((enum burst)p->burst) {
	case B_WORK:
		p->op_work_left = 0;
		break;
	case B_OVERHEAD:
		p->overhead_left = 0;
		break;
	case B_STALE:
		/* park_burst()'s promise broken: say so, loudly */
		eevdf__sim_fail(sim, EEVDF_EINTERNAL,
				"internal invariant failed: task %s's stopped "
				"burst ended",
				p->name);
		return;
	case B_SPIN:
	case B_SPINLOCK:
	case B_NONE:
		break;
	}
	p->burst = B_NONE;
	p->needs_step = true;
}

/* Blocking and waking -------------------------------------------------- */

/*
 * Queue p on q (NULL for a plain sleep) and put it to sleep, for at most
 * timeout ns when that is positive (a timeout that would end past
 * EEVDF_TIME_MAX fails the run before anything changes).
 */
static int block(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		 enum wait_kind kind, struct sim_object *obj, struct waitq *q,
		 s64 timeout)
{
	eevdf_time until = 0;
	int ret = 0;

	if (timeout > 0 &&
	    !eevdf__time_add_checked(sim->sched.now, timeout, &until))
		return time_overflow(
			sim, p, kind == WAIT_SLEEP ? "a sleep" : "a timeout",
			timeout);
	if (p->burst == B_STALE)
		stop_burst(sim, p);
	p->wait_kind = kind;
	p->wait_obj = obj;
	p->wake_result = WR_NONE;
	p->op_phase = PH_WAIT;
	p->state = TASK_SLEEPING;
	p->wait_intr = p->pc < p->prog->nr_ops &&
		       (p->prog->ops[p->pc].flags & SLEEP_INTR);
	if (q)
		eevdf__waitq_push(q, p);
	if (timeout > 0) {
		p->ev.type = TEV_TIMER;
		p->ev.class = EVC_WAKEUP;
		ret = eevdf__queue_event(&sim->sched, &p->ev, until);
	}
	/* sched_submit_work(): a kworker going to sleep in its work may
	 * let its pool wake another (wq_worker_sleeping()) */
	if (p->kthread)
		eevdf__wq_worker_sleeping(sim, p);
	eevdf__schedule(&sim->sched, rq);
	return ret ? ret : R_STAY;
}

/* Hand w the outcome of its wait and wake it; the waker pays what the
 * wakeup cost its CPU (eevdf__ttwu()). */
static void wake(struct eevdf_sim *sim, struct task *waker, struct task *w,
		 enum wake_result result, unsigned int wf)
{
	u64 cost;

	w->wake_result = (int)result;
	w->wait_intr = false;
	w->wait_kind = WAIT_NONE;
	w->wait_obj = NULL;
	sim->sched.ttwu_waker = waker ? waker->pid : -1;
	cost = eevdf__ttwu(&sim->sched, w, wf | WF_TTWU);
	sim->sched.ttwu_waker = -1;
	if (waker)
		waker->overhead_left += cost;
	else if (sim->io && sim->sched.irq_cpu >= 0 && !sim->io->irq_woken &&
		 w->cpu == sim->sched.irq_cpu)
		/* the first task an interrupt woke onto its CPU pays the
		 * handler there if the CPU was idle (irq.c) */
		sim->io->irq_woken = w;
}

static void wake_all(struct eevdf_sim *sim, struct task *waker, struct waitq *q,
		     enum wake_result result, unsigned int wf)
{
	struct task *w;

	while ((w = eevdf__waitq_pop(q)))
		wake(sim, waker, w, result, wf);
}

/* The interpreter's services to the I/O model (interp.h) ------------ */

int eevdf__interp_fail(struct eevdf_sim *sim, struct task *p, int code,
		       const char *what)
{
	return task_fail(sim, p, code, what);
}

int eevdf__interp_eval(struct eevdf_sim *sim, struct task *p,
		       const struct pval *v, s64 *out)
{
	return eval(sim, p, v, out);
}

void eevdf__interp_store(struct eevdf_sim *sim, struct task *p, u32 slot,
			 u32 flags, s64 v)
{
	store(sim, p, slot, flags, v);
}

int eevdf__interp_charge(struct eevdf_sim *sim, struct task *p, u64 ns)
{
	if (!p->op_begun) {
		p->op_work_left = ns;
		p->op_begun = true;
	}
	if (p->op_work_left)
		return stay(work(sim, p, p->op_work_left));
	p->op_begun = false;
	return R_NEXT;
}

int eevdf__interp_block(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			enum wait_kind kind, struct waitq *q, s64 timeout)
{
	return block(sim, rq, p, kind, NULL, q, timeout);
}

void eevdf__interp_wake(struct eevdf_sim *sim, struct task *waker,
			struct task *w)
{
	wake(sim, waker, w, WR_DONE, 0);
}

int eevdf__interp_name(struct eevdf_sim *sim, struct task *p,
		       const struct objref *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!r->nr_parts) {
		if (!r->text || strlen(r->text) >= len)
			return task_fail(sim, p, EEVDF_ERANGE, "name too long");
		memcpy(buf, r->text, strlen(r->text) + 1);
		return 0;
	}
	for (u32 i = 0; i < r->nr_parts; i++) {
		const struct name_part *part = &r->parts[i];

		n += (size_t)snprintf(buf + n, len - n, "%s", part->text);
		if (part->expr && n < len) {
			struct pval v = { .kind = PV_EXPR, .expr = part->expr };
			s64 x;
			int err = eval(sim, p, &v, &x);

			if (err)
				return err;
			n += (size_t)snprintf(buf + n, len - n, "%lld",
					      (long long)x);
		}
		if (n >= len)
			return task_fail(sim, p, EEVDF_ERANGE, "name too long");
	}
	return 0;
}

/* The wait queue a blocked task is on. */
static struct waitq *wait_queue(struct eevdf_sim *sim, struct task *p)
{
	struct sim_object *o = p->wait_obj;

	switch ((enum wait_kind)p->wait_kind) {
	case WAIT_SEM:
		return &o->u.sem.waiters;
	case WAIT_LATCH:
	case WAIT_EVENT:
		return &o->waiters;
	case WAIT_MUTEX:
		return &o->u.mutex.waiters;
	case WAIT_BARRIER:
		return &o->u.barrier.waiters;
	case WAIT_CHAN_READ:
		return &o->u.chan.readers;
	case WAIT_CHAN_WRITE:
		return &o->u.chan.writers;
	case WAIT_JOIN:
		return &sim->joiners;
	case WAIT_NONE:
	case WAIT_SLEEP:
	/* the I/O model's waits are uninterruptible and have no timeout */
	case WAIT_IO:
	case WAIT_RWSEM:
	case WAIT_TAG:
	case WAIT_JOURNAL:
	case WAIT_WORK:
		break;
	}
	return NULL;
}

/* A sleep expired, or a wait timed out. */
void eevdf__prog_timer(struct eevdf_sim *sim, struct task *p)
{
	struct waitq *q = wait_queue(sim, p);

	if (q) {
		eevdf__waitq_remove(q, p);
		p->wake_result = WR_TIMEOUT;
	} else {
		p->wake_result = WR_DONE;
	}
	p->wait_kind = WAIT_NONE;
	p->wait_obj = NULL;
	p->wait_intr = false;
	eevdf__ttwu(&sim->sched, p, WF_TTWU);
}

/* Structured control flow ---------------------------------------------- */

static bool loop_continues(struct eevdf_sim *sim, struct task *p,
			   const struct pop *op, u32 i, int *err)
{
	s64 v;

	if (op->a.kind != PV_NONE && p->loop_left[i] == 0)
		return false;
	if (op->b.kind != PV_NONE) {
		if ((*err = eval(sim, p, &op->b, &v)))
			return false;
		if (!v)
			return false;
	}
	if (op->c.kind != PV_NONE) {
		if ((*err = eval(sim, p, &op->c, &v)))
			return false;
		if (v)
			return false;
	}
	return true;
}

/*
 * Move past the op at pc, then close every structured op whose body ends
 * there: loops go round again or finish, a then-branch or a chosen branch
 * jumps to the end of its if or choose.
 */
static int close_from(struct eevdf_sim *sim, struct task *p, size_t j);

static int advance(struct eevdf_sim *sim, struct task *p)
{
	size_t j;

	p->op_phase = PH_START;
	j = p->prog->closer[++p->pc];
	/* most ops end no body */
	return j == NO_LOOP ? 0 : close_from(sim, p, j);
}

/* Close the chain of structured ops from j outwards (see advance()). */
static int close_from(struct eevdf_sim *sim, struct task *p, size_t j)
{
	const struct program *prog = p->prog;
	int err = 0;

	goto first;
again:
	j = prog->closer[p->pc];
first:
	for (; j != NO_LOOP; j = prog->outer_closer[j]) {
		const struct pop *op = &prog->ops[j];

		switch (op->code) {
		case P_LOOP:
			if (op->a.kind != PV_NONE)
				p->loop_left[j]--;
			if (op->slot != NO_SLOT) {
				s64 step, var = op->flags & SLOT_GLOBAL ?
							sim->globals[op->slot] :
							p->locals[op->slot];

				u32 pc = p->pc;

				/* errors name the loop, not the op after it */
				p->pc = (u32)j;
				if ((err = eval(sim, p, &op->field[1], &step)))
					return err;
				p->pc = pc;
				if (__builtin_add_overflow(var, step, &var)) {
					p->pc = (u32)j;
					return task_failf(
						sim, p, EEVDF_ERANGE,
						"the loop variable overflows: "
						"its step of %lld would take "
						"it past the 64-bit range",
						(long long)step);
				}
				store(sim, p, op->slot, op->flags, var);
			}
			if (loop_continues(sim, p, op, (u32)j, &err)) {
				p->pc = (u32)j + 1;
				return 0;
			}
			if (err)
				return err;
			break;
		case P_IF:
			/* end of the then-ops: skip the else-ops */
			p->pc = (u32)j + 1 + op->len + op->len2;
			goto again;
		case P_BRANCH:
			/* end of a chosen branch: leave the choose */
			p->pc = (u32)j + 1 + op->len + op->len2;
			goto again;
		default:
			break;
		}
	}
	return 0;
}

/* Continue at pos as if the op before it had just finished. */
static int jump_to(struct eevdf_sim *sim, struct task *p, u32 pos)
{
	p->pc = pos - 1;
	return advance(sim, p);
}

/*
 * Leave the loop at self without running its body (a count of 0, a false
 * first test): continue after it, closing only what encloses it.  The
 * loop and anything inside it that ends at the same place are not closed:
 * closing them would count an iteration that never ran.
 */
static int skip_loop(struct eevdf_sim *sim, struct task *p, u32 self)
{
	const struct program *prog = p->prog;
	u32 pos = self + 1 + prog->ops[self].len;
	size_t j = prog->closer[pos];

	while (j != NO_LOOP && j != self)
		j = prog->outer_closer[j];
	if (j != self)
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: a loop missing "
				 "from the closers of its end");
	p->op_phase = PH_START;
	p->pc = pos;
	return close_from(sim, p, prog->outer_closer[self]);
}

static int enter_loop(struct eevdf_sim *sim, struct task *p,
		      const struct pop *op)
{
	u32 i = p->pc;
	s64 count = 0, from;
	int err = 0;

	if (op->a.kind != PV_NONE &&
	    (err = eval_nonneg(sim, p, &op->a, &count)))
		return err;
	p->loop_left[i] = (u64)count;
	if (op->slot != NO_SLOT) {
		if ((err = eval(sim, p, &op->field[0], &from)))
			return err;
		store(sim, p, op->slot, op->flags, from);
	}
	p->op_phase = PH_START;
	if (!(op->flags & LOOP_CHECK_AFTER) &&
	    !loop_continues(sim, p, op, i, &err)) {
		if (err)
			return err;
		return skip_loop(sim, p, i);
	}
	p->pc = i + 1;
	return 0;
}

/*
 * Entering a branch goes straight to its first op; only finishing a body
 * runs the closers (an if's then-ops jump over the else-ops).
 */
static int enter_if(struct eevdf_sim *sim, struct task *p, const struct pop *op)
{
	u32 i = p->pc;
	s64 cond;
	int err;

	if ((err = eval(sim, p, &op->a, &cond)))
		return err;
	p->op_phase = PH_START;
	if (cond) {
		if (op->len) {
			p->pc = i + 1;
			return 0;
		}
		return jump_to(sim, p, i + 1 + op->len + op->len2);
	}
	if (op->len2) {
		p->pc = i + 1 + op->len;
		return 0;
	}
	return jump_to(sim, p, i + 1 + op->len);
}

static int enter_choose(struct eevdf_sim *sim, struct task *p,
			const struct pop *op)
{
	const struct program *prog = p->prog;
	const struct pop *ops = prog->ops;
	const struct choose_entry *tab = prog->choose_tab +
					 prog->choose_first[p->pc];
	u32 i = p->pc, b, end = i + 1 + op->len, lo = 0,
	    hi = prog->choose_nr[i], hi0 = hi;
	s64 total, r;

	/* weights are constants (checked when the program is built) */
	total = hi ? tab[hi - 1].cum : 0;
	if (total <= 0)
		return task_fail(sim, p, EEVDF_ERANGE,
				 "choose: the weights sum to zero");
	r = (s64)eevdf__rng_below(&p->rng, (u64)total);
	/* the first branch whose running sum exceeds r */
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (r < tab[mid].cum)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo >= hi0)
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: a choice past the "
				 "last branch");
	b = tab[lo].branch;
	if (b >= end)
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: a branch outside "
				 "its choose");
	p->op_phase = PH_START;
	if (ops[b].len) {
		p->pc = b + 1;
		return 0;
	}
	return jump_to(sim, p, end);
}

/* Channels ------------------------------------------------------------- */

static u64 chan_write_cost(const struct cost_table *c,
			   const struct obj_channel *ch)
{
	switch (ch->kind) {
	case CHAN_PIPE:
		return c->pipe_write;
	case CHAN_UNIX_STREAM:
		return c->unix_write;
	case CHAN_TCP_LOOPBACK:
		return c->tcp_send;
	case CHAN_MSGQ:
		return c->syscall;
	case CHAN_IDEAL:
		break;
	}
	return 0;
}

static u64 chan_read_cost(const struct cost_table *c,
			  const struct obj_channel *ch)
{
	switch (ch->kind) {
	case CHAN_PIPE:
		return c->pipe_read;
	case CHAN_UNIX_STREAM:
		return c->unix_read;
	case CHAN_TCP_LOOPBACK:
		return c->tcp_recv;
	case CHAN_MSGQ:
		return c->syscall;
	case CHAN_IDEAL:
		break;
	}
	return 0;
}

static bool chan_eof(const struct obj_channel *ch)
{
	return ch->msg_nr == 0 && ch->written && ch->nr_writers == 0;
}

static int chan_push(struct obj_channel *ch, u64 bytes, const s64 *fields,
		     u32 nr_fields)
{
	struct chan_msg *m;

	if (ch->msg_nr == ch->msg_cap) {
		u32 cap = ch->msg_cap ? 2 * ch->msg_cap : 16;
		struct chan_msg *n = malloc(cap * sizeof(*n));

		if (!n)
			return EEVDF_ENOMEM;
		for (u32 k = 0; k < ch->msg_nr; k++)
			n[k] = ch->msgs[(ch->msg_head + k) % ch->msg_cap];
		free(ch->msgs);
		ch->msgs = n;
		ch->msg_head = 0;
		ch->msg_cap = cap;
	}
	m = &ch->msgs[(ch->msg_head + ch->msg_nr) % ch->msg_cap];
	memset(m, 0, sizeof(*m));
	m->bytes = bytes;
	m->charge = bytes + ch->overhead;
	for (u32 k = 0; k < nr_fields && k < MSG_FIELDS_MAX; k++)
		m->field[k] = fields[k];
	ch->msg_nr++;
	ch->used += m->charge;
	ch->msgs_total++;
	ch->bytes_total += bytes;
	return 0;
}

/* Read up to want bytes from the front; returns the bytes read. */
static u64 chan_take(struct obj_channel *ch, u64 want)
{
	u64 got = 0;

	while (got < want && ch->msg_nr) {
		struct chan_msg *m = &ch->msgs[ch->msg_head];
		u64 n = m->bytes < want - got ? m->bytes : want - got;

		m->bytes -= n;
		got += n;
		if (m->bytes == 0) {
			ch->used -= m->charge;
			ch->msg_head = (ch->msg_head + 1) % ch->msg_cap;
			ch->msg_nr--;
		} else {
			/* a partial read frees what it read */
			m->charge -= n;
			ch->used -= n;
		}
	}
	return got;
}

/* Wake blocked writers after a read freed space, per the kind's rule. */
static void chan_wake_writers(struct eevdf_sim *sim, struct task *reader,
			      struct obj_channel *ch)
{
	u64 space = ch->capacity > ch->used ? ch->capacity - ch->used : 0;
	struct task *w;

	if (!ch->writers.nr)
		return;
	switch (ch->writer_wake) {
	case WW_SLOT_FREED_IF_FULL:
		/* a writer blocks only on a full pipe; wake one once a slot
		 * is free, it chains to the next after writing */
		if (ch->capacity && space < PIPE_SLOT)
			return;
		break;
	case WW_QUARTER_FREE:
		if (ch->capacity && ch->used * 4 > ch->capacity)
			return;
		break;
	case WW_ANY_SPACE:
		if (ch->capacity && space == 0)
			return;
		break;
	}
	if (ch->writers_all) {
		wake_all(sim, reader, &ch->writers, WR_RETRY, WF_SYNC);
		return;
	}
	w = eevdf__waitq_pop(&ch->writers);
	wake(sim, reader, w, WR_RETRY, WF_SYNC);
}

static void chan_wake_reader(struct eevdf_sim *sim, struct task *writer,
			     struct obj_channel *ch)
{
	struct task *r = eevdf__waitq_pop(&ch->readers);

	if (r)
		wake(sim, writer, r, WR_RETRY, ch->reader_sync ? WF_SYNC : 0);
}

static int op_send(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op, struct sim_object *o)
{
	struct obj_channel *ch = &o->u.chan;
	s64 bytes, fields[MSG_FIELDS_MAX];
	int err;

	if ((err = eval_nonneg(sim, p, &op->a, &bytes)))
		return err;
	for (u32 k = 0; k < op->nr_fields; k++)
		if ((err = eval(sim, p, &op->field[k], &fields[k])))
			return err;
	/* the channel's byte counts stay exact: no sum may pass 2^63 */
	if ((u64)bytes + ch->overhead > (u64)INT64_MAX - ch->used ||
	    (u64)bytes > (u64)INT64_MAX - ch->bytes_total)
		return task_failf(sim, p, EEVDF_ERANGE,
				  "a message of %lld bytes would take the "
				  "channel's byte count past 2^63",
				  (long long)bytes);
	/* A message larger than the whole buffer goes into an empty one. */
	if (ch->capacity && ch->used &&
	    ch->used + (u64)bytes + ch->overhead > ch->capacity) {
		if (op->flags & SEND_NONBLOCK) {
			store(sim, p, op->slot, op->flags, STATUS_TIMEOUT);
			return R_NEXT;
		}
		return block(sim, rq, p, WAIT_CHAN_WRITE, o, &ch->writers, 0);
	}
	if ((err = chan_push(ch, (u64)bytes, fields, op->nr_fields)))
		return eevdf__sim_fail(sim, err, "out of memory");
	chan_wake_reader(sim, p, ch);
	/* pipe writers are exclusive and chained: pass the space on */
	if (ch->writers.nr && ch->writer_wake == WW_SLOT_FREED_IF_FULL)
		chan_wake_writers(sim, p, ch);
	store(sim, p, op->slot, op->flags, STATUS_OK);
	return R_NEXT;
}

static int op_recv(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op, struct sim_object *o)
{
	struct obj_channel *ch = &o->u.chan;
	s64 want;
	int err;

	if (p->op_phase == PH_WAIT) {
		/*
		 * Woken.  A read that blocked with nothing read goes on in
		 * the same read() call; after a partial read (exact), the
		 * rest takes another call, and another read cost.
		 */
		p->op_phase = PH_ACT;
		if (p->partial) {
			p->op_phase = PH_COST;
			p->op_work_left =
				op->cost.kind == PV_NONE ?
					chan_read_cost(&sim->sched.costs, ch) :
					0;
			p->partial = false;
			return R_AGAIN;
		}
	}
	if (op->flags & RECV_MESSAGE) {
		if (ch->msg_nr) {
			struct chan_msg m = ch->msgs[ch->msg_head];

			chan_take(ch, m.bytes);
			for (u32 k = 0; k < op->nr_fields; k++)
				store(sim, p, op->field_slot[k], 0, m.field[k]);
			chan_wake_writers(sim, p, ch);
			store(sim, p, op->slot, op->flags, STATUS_OK);
			return R_NEXT;
		}
		goto empty;
	}
	if (!p->xfer_left) {
		if ((err = eval_nonneg(sim, p, &op->a, &want)))
			return err;
		if (want == 0)
			return R_NEXT;
		p->xfer_left = (u64)want;
	}
	if (ch->msg_nr) {
		u64 got = chan_take(ch, p->xfer_left);

		p->xfer_left -= got;
		chan_wake_writers(sim, p, ch);
		if (!p->xfer_left || !(op->flags & RECV_EXACT)) {
			p->xfer_left = 0;
			store(sim, p, op->slot, op->flags, STATUS_OK);
			return R_NEXT;
		}
		p->partial = true;
	}
empty:
	if (chan_eof(ch)) {
		p->xfer_left = 0;
		store(sim, p, op->slot, op->flags, STATUS_EOF);
		return R_NEXT;
	}
	return block(sim, rq, p, WAIT_CHAN_READ, o, &ch->readers, 0);
}

static int note_writer(struct task *p, struct sim_object *o)
{
	for (u32 k = 0; k < p->nr_written; k++)
		if (p->written[k] == o)
			return 0;
	if (p->nr_written == p->cap_written) {
		u32 cap = p->cap_written ? 2 * p->cap_written : 4;
		struct sim_object **n = realloc(p->written, cap * sizeof(*n));

		if (!n)
			return EEVDF_ENOMEM;
		p->written = n;
		p->cap_written = cap;
	}
	p->written[p->nr_written++] = o;
	o->u.chan.nr_writers++;
	o->u.chan.written = true;
	return 0;
}

/* Does name match the pieces of a run-time name (any text for each
 * expression part)? */
static bool parts_match(const struct name_part *parts, u32 nr, const char *name)
{
	size_t len;

	if (!nr)
		return !*name;
	len = strlen(parts->text);
	if (strncmp(name, parts->text, len) != 0)
		return false;
	name += len;
	if (!parts->expr)
		return nr == 1 ? !*name : parts_match(parts + 1, nr - 1, name);
	for (;; name++) {
		if (parts_match(parts + 1, nr - 1, name))
			return true;
		if (!*name)
			return false;
	}
}

/*
 * The write ends a task holds: every channel a send of its program can
 * name (a run-time name counts for every channel it can match).  A reader
 * sees end of file once the channel is empty and all of them exited, as
 * with real pipes and sockets, whose write ends the writers hold open
 * from the start, not from their first write.
 */
int eevdf__prog_open_channels(struct eevdf_sim *sim, struct task *p)
{
	const struct program *prog = p->prog;
	int err;

	for (u32 i = 0; i < prog->nr_ops; i++) {
		const struct pop *op = &prog->ops[i];
		s32 fixed;

		if (op->code != P_SEND)
			continue;
		fixed = fixed_index(p, &op->obj);
		if (fixed >= 0) {
			struct sim_object *o = sim->objs[fixed];

			if (o->type == OBJ_CHANNEL && (err = note_writer(p, o)))
				return err;
			continue;
		}
		for (size_t k = 0; op->obj.nr_parts && k < sim->nr_objs; k++) {
			struct sim_object *o = sim->objs[k];

			if (o->type == OBJ_CHANNEL &&
			    parts_match(op->obj.parts, op->obj.nr_parts,
					o->name) &&
			    (err = note_writer(p, o)))
				return err;
		}
	}
	return 0;
}

/* Semaphores, latches, events, mutexes, barriers ----------------------- */

/*
 * The end of a futex-style wait: the woken task pays the rest of its
 * futex_wait syscall, and learns whether it timed out.
 */
static int wait_done(struct eevdf_sim *sim, struct task *p,
		     const struct pop *op)
{
	s64 status = STATUS_OK;

	if (p->wake_result == WR_TIMEOUT)
		status = STATUS_TIMEOUT;
	else if (p->wake_result == WR_EINTR)
		status = STATUS_EINTR;
	if (op->cost.kind == PV_NONE)
		p->overhead_left += sim->sched.costs.futex_wait;
	store(sim, p, op->slot, op->flags, status);
	return R_NEXT;
}

static s64 timeout_of(struct eevdf_sim *sim, struct task *p,
		      const struct pop *op, int *err)
{
	s64 t = 0;

	if (op->b.kind != PV_NONE)
		*err = eval_nonneg(sim, p, &op->b, &t);
	return t;
}

static void sem_post(struct eevdf_sim *sim, struct task *p,
		     struct sim_object *o, bool charge)
{
	struct obj_sem *sem = &o->u.sem;
	struct task *w = eevdf__waitq_pop(&sem->waiters);

	/* a post that finds no count to raise pays the futex wake */
	if (charge && (w || sem->count == 0))
		p->overhead_left += sim->sched.costs.futex_wake;
	if (w) {
		wake(sim, p, w, WR_DONE, 0);
		return;
	}
	if (sem->max < 0 || sem->count < sem->max)
		sem->count++;
}

/* n posts that find no waiter and no charge to pay: the count rises by
 * n, up to max (or, unbounded, up to what an s64 holds). */
static void sem_count_up(struct obj_sem *sem, s64 n)
{
	s64 top = sem->max < 0 ? INT64_MAX : sem->max;

	if (sem->count < top)
		sem->count = n > top - sem->count ? top : sem->count + n;
}

/*
 * What an interrupt handler or a work item does to a workload's object:
 * up() a semaphore, wake_up_all() a wait queue, complete_all() a latch.
 * waker is NULL in interrupt context.
 */
void eevdf__io_poke(struct eevdf_sim *sim, struct task *waker,
		    struct sim_object *o)
{
	if (!o)
		return;
	switch (o->type) {
	case OBJ_SEM:
		sem_post(sim, waker, o, false);
		break;
	case OBJ_EVENT:
		wake_all(sim, waker, &o->waiters, WR_DONE, 0);
		break;
	case OBJ_LATCH:
		o->latch_set = true;
		wake_all(sim, waker, &o->waiters, WR_DONE, 0);
		break;
	default:
		break;
	}
}

static int op_post(struct eevdf_sim *sim, struct task *p, const struct pop *op,
		   struct sim_object *o)
{
	s64 n = 1;
	int err;

	if (o->type != OBJ_SEM)
		return task_fail(sim, p, EEVDF_EINVAL, "post needs a sem");
	if (op->a.kind != PV_NONE && (err = eval_nonneg(sim, p, &op->a, &n)))
		return err;
	/*
	 * One post at a time while each wakes someone or finds the count at
	 * 0 (and pays the futex wake); once the count is up, the rest only
	 * raise it, up to max, at once however large n is.  (A sem of max 0,
	 * which the loader never makes, would keep the count at 0: its
	 * posts only pay.)
	 */
	while (n > 0 && (o->u.sem.waiters.nr || o->u.sem.count == 0)) {
		if (!o->u.sem.waiters.nr && o->u.sem.max == 0) {
			if (op->cost.kind == PV_NONE)
				p->overhead_left = eevdf__ns_add_sat(
					p->overhead_left,
					eevdf__ns_mul_sat(
						(u64)n,
						sim->sched.costs.futex_wake));
			return R_NEXT;
		}
		sem_post(sim, p, o, op->cost.kind == PV_NONE);
		n--;
	}
	sem_count_up(&o->u.sem, n);
	return R_NEXT;
}

static int op_wait(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op, struct sim_object *o)
{
	int err = 0;
	s64 t;

	if (p->op_phase == PH_WAIT)
		return wait_done(sim, p, op);
	t = timeout_of(sim, p, op, &err);
	if (err)
		return err;
	if (o->type == OBJ_LATCH) {
		if (o->latch_set) {
			store(sim, p, op->slot, op->flags, STATUS_OK);
			return R_NEXT;
		}
		return block(sim, rq, p, WAIT_LATCH, o, &o->waiters, t);
	}
	if (o->type != OBJ_SEM)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "wait needs a sem or a latch");
	if (o->u.sem.count > 0) {
		o->u.sem.count--;
		store(sim, p, op->slot, op->flags, STATUS_OK);
		return R_NEXT;
	}
	return block(sim, rq, p, WAIT_SEM, o, &o->u.sem.waiters, t);
}

static int op_set(struct eevdf_sim *sim, struct task *p, const struct pop *op,
		  struct sim_object *o)
{
	if (o->type != OBJ_LATCH)
		return task_fail(sim, p, EEVDF_EINVAL, "set needs a latch");
	o->latch_set = true;
	if (o->waiters.nr && op->cost.kind == PV_NONE)
		p->overhead_left += sim->sched.costs.futex_wake;
	wake_all(sim, p, &o->waiters, WR_DONE, 0);
	return R_NEXT;
}

static int op_wake(struct eevdf_sim *sim, struct task *p, const struct pop *op,
		   struct sim_object *o)
{
	s64 n = -1;
	int err;

	if (o->type != OBJ_EVENT)
		return task_fail(sim, p, EEVDF_EINVAL, "wake needs an event");
	if (op->a.kind != PV_NONE && (err = eval_nonneg(sim, p, &op->a, &n)))
		return err;
	if (op->cost.kind == PV_NONE)
		p->overhead_left += sim->sched.costs.futex_wake;
	while (n != 0 && o->waiters.nr) {
		wake(sim, p, eevdf__waitq_pop(&o->waiters), WR_DONE, 0);
		if (n > 0)
			n--;
	}
	return R_NEXT;
}

/* Take a free mutex, or queue for the FIFO hand-off. */
static int mutex_lock(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct sim_object *m)
{
	if (!m->u.mutex.owner) {
		/* the owner is compared by address: it must not be freed */
		m->u.mutex.owner = p;
		p->pins++;
		return R_NEXT;
	}
	if (m->u.mutex.owner == p)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "locks a mutex it already holds");
	return block(sim, rq, p, WAIT_MUTEX, m, &m->u.mutex.waiters, 0);
}

static int mutex_unlock(struct eevdf_sim *sim, struct task *p,
			struct sim_object *m)
{
	struct task *w;

	if (m->u.mutex.owner != p)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "unlocks a mutex it does not hold");
	w = eevdf__waitq_pop(&m->u.mutex.waiters);
	m->u.mutex.owner = w;
	eevdf__sim_unpin(sim, p);
	if (w) {
		w->pins++;
		p->overhead_left += sim->sched.costs.futex_wake;
		wake(sim, p, w, WR_DONE, 0);
	}
	return R_NEXT;
}

static RARE int op_block(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			 const struct pop *op, struct sim_object *o)
{
	struct sim_object *m = NULL;
	int err = 0;
	s64 t;

	if (op->obj2.idx != OBJ_NONE || op->obj2.nr_parts ||
	    op->obj2.task_pid > 0) {
		m = resolve(sim, p, &op->obj2);
		if (!m)
			return sim->sched.error;
		if (m->type != OBJ_MUTEX)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "block can only release a mutex");
	}
	if (p->op_phase == PH_RELOCK) {
		/* only a block that released a mutex re-takes it */
		if (!m)
			return task_fail(sim, p, EEVDF_EINTERNAL,
					 "internal invariant failed: re-taking "
					 "a mutex the block did not release");
		/* handed the mutex while queued, or take it now */
		if (m->u.mutex.owner == p)
			return R_NEXT;
		return mutex_lock(sim, rq, p, m) == R_NEXT ? R_NEXT : R_STAY;
	}
	if (p->op_phase == PH_WAIT) {
		wait_done(sim, p, op);
		if (!m)
			return R_NEXT;
		p->op_phase = PH_RELOCK;
		return R_AGAIN;
	}
	if (o->type != OBJ_EVENT)
		return task_fail(sim, p, EEVDF_EINVAL, "block needs an event");
	t = timeout_of(sim, p, op, &err);
	if (err)
		return err;
	if (m && (err = mutex_unlock(sim, p, m)) < 0)
		return err;
	return block(sim, rq, p, WAIT_EVENT, o, &o->waiters, t);
}

static struct task **spin_owner(struct sim_object *o, struct task *p)
{
	return &o->u.spin.owner[o->u.spin.per_cpu ? p->cpu : 0];
}

static struct waitq *spin_queue(struct sim_object *o, struct task *p)
{
	return &o->u.spin.spinners[o->u.spin.per_cpu ? p->cpu : 0];
}

static int op_lock(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op, struct sim_object *o)
{
	struct task **owner;

	if (o->type == OBJ_MUTEX) {
		if (p->op_phase == PH_WAIT)
			return wait_done(sim, p, op);
		return mutex_lock(sim, rq, p, o);
	}
	if (o->type != OBJ_SPINLOCK)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "lock needs a mutex or a spinlock");
	owner = spin_owner(o, p);
	if (*owner == p) {
		/* handed over by the unlock while we spun on a CPU */
		if (p->wake_result != WR_DONE)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "locks a spinlock it already holds");
		p->wake_result = WR_NONE;
		return R_NEXT;
	}
	if (!*owner) {
		if (p->spinning)
			eevdf__waitq_remove(spin_queue(o, p), p);
		p->spinning = false;
		p->burst = B_NONE;
		*owner = p;
		p->spin_held++;
		return R_NEXT;
	}
	/* spin: stay on the CPU, burning it, until the holder lets go */
	if (!p->spinning) {
		eevdf__waitq_push(spin_queue(o, p), p);
		p->spinning = true;
	}
	p->burst = B_SPINLOCK;
	return R_STAY;
}

static int op_unlock(struct eevdf_sim *sim, struct task *p,
		     const struct pop *op, struct sim_object *o)
{
	struct task **owner;
	struct waitq *q;

	(void)op;
	if (o->type == OBJ_MUTEX)
		return mutex_unlock(sim, p, o);
	if (o->type != OBJ_SPINLOCK)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "unlock needs a mutex or a spinlock");
	owner = spin_owner(o, p);
	if (*owner != p)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "unlocks a spinlock it does not hold");
	*owner = NULL;
	p->spin_held--;
	/* the first spinner that is running takes it at once */
	q = spin_queue(o, p);
	for (struct task *t = q->head; t; t = t->wait_next) {
		if (!t->on_cpu || t->burst != B_SPINLOCK)
			continue;
		eevdf__waitq_remove(q, t);
		*owner = t;
		t->spin_held++;
		t->spinning = false;
		t->burst = B_NONE;
		t->wake_result = WR_DONE;
		t->needs_step = true;
		eevdf__mark_settle(&sim->sched, &sim->sched.rqs[t->cpu]);
		break;
	}
	return R_NEXT;
}

static RARE int op_barrier(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			   const struct pop *op, struct sim_object *o)
{
	struct obj_barrier *b = &o->u.barrier;

	if (p->op_phase == PH_WAIT)
		return wait_done(sim, p, op);
	if (o->type != OBJ_BARRIER)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "barrier needs a barrier");
	if (++b->arrived >= b->parties) {
		b->arrived = 0;
		if (b->waiters.nr && op->cost.kind == PV_NONE)
			p->overhead_left += sim->sched.costs.futex_wake;
		wake_all(sim, p, &b->waiters, WR_DONE, 0);
		return R_NEXT;
	}
	return block(sim, rq, p, WAIT_BARRIER, o, &b->waiters, 0);
}

static int op_push(struct eevdf_sim *sim, struct task *p, struct sim_object *o)
{
	struct obj_list *l = &o->u.list;

	if (o->type != OBJ_LIST)
		return task_fail(sim, p, EEVDF_EINVAL, "push needs a list");
	if (l->nr == l->cap) {
		u32 cap = l->cap ? 2 * l->cap : 16;
		struct task **n = realloc(l->members, cap * sizeof(*n));

		if (!n)
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		l->members = n;
		l->cap = cap;
	}
	l->members[l->nr++] = p;
	p->pins++; /* the wake_list that takes it posts its semaphore */
	return R_NEXT;
}

/*
 * schbench's xlist_wake_all(): splice the list, then post each member's
 * futex flag one by one.  Each post is a futex wake the waker pays before
 * the next, so the k-th member's wakeup latency includes the k - 1 wakes
 * before it.  xfer_left counts the members of the splice still to wake.
 */
static int op_wake_list(struct eevdf_sim *sim, struct task *p,
			const struct pop *op, struct sim_object *o)
{
	struct obj_list *l = &o->u.list;
	struct sim_object *self;
	struct task *m;

	if (o->type != OBJ_LIST)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "wake_list needs a list");
	if (p->op_phase != PH_WAIT) {
		/* the splice */
		p->xfer_left = l->nr;
		p->op_stamp = sim->sched.now;
		p->op_phase = PH_WAIT;
	}
	if (!p->xfer_left)
		return R_NEXT;
	m = l->members[0];
	/* made on first use (sim.c): the member may not have waited yet */
	self = eevdf__sim_task_self(sim, m->pid);
	if (!self)
		return eevdf__sim_fail(sim, EEVDF_ENOMEM, "out of memory");
	memmove(l->members, l->members + 1, (l->nr - 1) * sizeof(*l->members));
	l->nr--;
	p->xfer_left--;
	if (op->slot != NO_SLOT)
		m->locals[op->slot] = (op->flags & STAMP_EACH) ?
					      sim->sched.now :
					      p->op_stamp;
	sem_post(sim, p, self, false);
	eevdf__sim_unpin(sim, m);
	if (op->cost.kind == PV_NONE)
		p->overhead_left += sim->sched.costs.futex_wake;
	return R_AGAIN;
}

/* Exit and join -------------------------------------------------------- */

static bool join_satisfied(struct eevdf_sim *sim, const struct join_set *js)
{
	for (u32 k = 0; k < js->nr; k++) {
		const struct task *t = sim->sched.tasks[js->pids[k] - 1];

		/* a compacted task (NULL) is dead */
		if (t && t->state != TASK_DEAD)
			return false;
	}
	return true;
}

static bool joined(struct eevdf_sim *sim, struct task *p, s64 set)
{
	if (set == JOIN_CHILDREN)
		return p->live_children == 0;
	return join_satisfied(sim, &sim->join_sets[set]);
}

static RARE int op_join(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			const struct pop *op)
{
	u32 reaped;

	if (op->a.c != JOIN_CHILDREN &&
	    (op->a.c < 0 || (size_t)op->a.c >= sim->nr_join_sets))
		return task_fail(sim, p, EEVDF_EINTERNAL, "bad join set");
	if (p->op_phase == PH_WAIT && p->wake_result == WR_EINTR) {
		store(sim, p, op->slot, op->flags, STATUS_EINTR);
		return R_NEXT;
	}
	if (p->op_phase == PH_WAIT || joined(sim, p, op->a.c)) {
		reaped = op->a.c == JOIN_CHILDREN ? 1 :
						    sim->join_sets[op->a.c].nr;
		if (op->cost.kind == PV_NONE)
			p->overhead_left = eevdf__ns_add_sat(
				p->overhead_left,
				eevdf__ns_mul_sat(sim->sched.costs.wait_reap,
						  reaped));
		store(sim, p, op->slot, op->flags, STATUS_OK);
		return R_NEXT;
	}
	p->join_set = (s32)op->a.c;
	return block(sim, rq, p, WAIT_JOIN, NULL, &sim->joiners, 0);
}

/*
 * The session of a new child of p from t: its parent's (copy_process()
 * shares the signal struct's session), the template's named one, or a new
 * one that setsid() starts, numbered after every session so far.
 */
static u32 child_session(struct eevdf_sim *sim, const struct task *p,
			 const struct task_template *t)
{
	switch (t->session_mode) {
	case TMPL_SESSION_FIXED:
		return t->session;
	case TMPL_SESSION_NEW:
		/* internal 1 is the run's own session: a new one is above */
		if (sim->next_session < 2)
			sim->next_session = 2;
		return sim->next_session == UINT32_MAX ? UINT32_MAX :
							 sim->next_session++;
	default:
		return p->session;
	}
}

/*
 * fork() / pthread_create(): the parent pays the fork, the child starts
 * at once as a new task (wake_up_new_task) named template[k], in its
 * parent's cgroup and session unless the template names others
 * (cgroup_fork() puts the child in its parent's css_set).
 */
static RARE int op_spawn(struct eevdf_sim *sim, struct task *p,
			 const struct pop *op)
{
	struct task_template *t;
	struct task *c;
	s64 n = 1;
	int err;

	if (op->a.c < 0 || (size_t)op->a.c >= sim->nr_templates)
		return task_fail(sim, p, EEVDF_EINTERNAL, "bad template");
	t = &sim->templates[op->a.c];
	if (op->b.kind != PV_NONE && (err = eval_nonneg(sim, p, &op->b, &n)))
		return err;
	/* sched_fork(): a SCHED_DEADLINE task may not fork (without
	 * SCHED_FLAG_RESET_ON_FORK, which the model has not) */
	if (p->policy == EEVDF_POLICY_DEADLINE && n > 0)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "spawn: a SCHED_DEADLINE task cannot fork: "
				 "sched_fork() refuses it (EAGAIN)");
	if ((u64)n > EEVDF_MAX_TASKS - sim->sched.nr_tasks)
		return task_failf(sim, p, EEVDF_ERANGE,
				  "spawning %lld tasks would pass the limit of "
				  "%d tasks in a simulation (%zu so far)",
				  (long long)n, EEVDF_MAX_TASKS,
				  sim->sched.nr_tasks);
	while (n-- > 0) {
		struct eevdf_task_spec spec = t->spec;
		char name[EEVDF_NAME_MAX];
		int pid;

		snprintf(name, sizeof(name), "%s[%u]", t->name, t->spawned++);
		spec.name = name;
		spec.start = sim->sched.now;
		/* no session yet: its group is set below, once known, so
		 * that no autogroup is made for a session it is not in */
		spec.cgroup = NULL;
		spec.session = EEVDF_SESSION_NONE;
		t->prog->refs++;
		pid = eevdf__sim_add_task_prog(sim, &spec, t->prog,
					       t->is_thread, NULL, NULL);
		if (pid < 0) {
			/* the reason is in errmsg, which the failure
			 * rewrites: take a copy first */
			char why[sizeof(sim->sched.errmsg)];

			snprintf(why, sizeof(why), "%s", sim->sched.errmsg);
			return task_failf(
				sim, p, pid,
				"cannot create task %s: %s (%zu tasks "
				"so far)",
				name, why, sim->sched.nr_tasks);
		}
		c = sim->sched.tasks[pid - 1];
		c->parent_pid = p->pid;
		c->session = child_session(sim, p, t);
		/* a new task only changes group (TASK_NEW) */
		eevdf__sched_move_task(&sim->sched, c,
				       t->cgroup ? t->cgroup : p->cgroup);
		if (sim->sched.error)
			return sim->sched.error;
		p->live_children++;
		/* the child's start reads its parent, which may exit first */
		p->pins++;
	}
	return R_NEXT;
}

/*
 * do_exit(): a writer's exit may leave a channel with no writers (readers
 * then see end of file), and may complete someone's join.
 */
static RARE void task_exit(struct eevdf_sim *sim, struct rq *rq, struct task *p)
{
	struct task *t, *next, *parent;

	p->state = TASK_DEAD;
	p->needs_step = false;
	p->exited_at = sim->sched.now;
	sim->nr_exited++;
	if (p->pid == sim->end_on_exit_of)
		sim->ended = true;
	eevdf__trace(&sim->sched, EEVDF_TRACE_EXIT, rq->cpu, p->pid, -1,
		     EEVDF_TASK_DEAD);
	for (u32 k = 0; k < p->nr_written; k++) {
		struct obj_channel *ch = &p->written[k]->u.chan;

		if (--ch->nr_writers == 0)
			wake_all(sim, NULL, &ch->readers, WR_RETRY, 0);
	}
	/* a compacted parent is dead: nobody joins its children now */
	parent = p->parent_pid > 0 ? sim->sched.tasks[p->parent_pid - 1] : NULL;
	if (parent)
		parent->live_children--;
	for (t = sim->joiners.head; t; t = next) {
		next = t->wait_next;
		if (joined(sim, t, t->join_set)) {
			eevdf__waitq_remove(&sim->joiners, t);
			wake(sim, NULL, t, WR_DONE, 0);
		}
	}
	eevdf__schedule(&sim->sched, rq);
	eevdf__sim_task_exited(sim, p);
}

/*
 * sched_setattr() on itself: a nice (a), a custom slice (b, 0 = back to
 * the base slice), a policy (c), and for the RT and deadline classes the
 * rt_priority (field[0]) and runtime, deadline, period (field[1..3]) take
 * effect at once; so does a move to the cgroup whose path is text.  What
 * the kernel refuses (EINVAL, EBUSY) ends the run with the kernel's rule.
 */
static RARE int op_setattr(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			   const struct pop *op)
{
	struct sched_attr_req a = { -21, -1, -1, -1, -1, -1, -1 };
	s64 nice = -21, policy = -1, v[4] = { -1, -1, -1, -1 };
	int err;

	/*
	 * The cgroup first, as writing the pid to cgroup.procs would
	 * (sched_move_task()); the path was checked at load time.
	 */
	if (op->text) {
		struct task_group *tg = strcmp(op->text, "/") == 0 ?
						sim->sched.groups[0] :
						eevdf__tg_find(&sim->sched,
							       op->text);

		if (!tg) {
			char msg[EEVDF_GROUP_PATH_MAX + 32];

			snprintf(msg, sizeof(msg), "setattr: no cgroup '%s'",
				 op->text);
			return task_fail(sim, p, EEVDF_EINVAL, msg);
		}
		eevdf__sched_move_task(&sim->sched, p, tg);
		if (sim->sched.error)
			return sim->sched.error;
		if (op->a.kind == PV_NONE && op->b.kind == PV_NONE &&
		    op->c.kind == PV_NONE)
			return R_NEXT;
	}
	if (op->a.kind != PV_NONE && (err = eval(sim, p, &op->a, &nice)))
		return err;
	if (op->b.kind != PV_NONE &&
	    (err = eval_nonneg(sim, p, &op->b, &a.slice)))
		return err;
	if (op->c.kind != PV_NONE && (err = eval(sim, p, &op->c, &policy)))
		return err;
	for (u32 i = 0; i < op->nr_fields && i < 4; i++)
		if (op->field[i].kind != PV_NONE &&
		    (err = eval_nonneg(sim, p, &op->field[i], &v[i])))
			return err;
	/* sched_attr.sched_period 0 means the deadline */
	if (policy == EEVDF_POLICY_DEADLINE && v[3] < 0)
		v[3] = 0;
	if ((op->a.kind != PV_NONE && (nice < -20 || nice > 19)) ||
	    (op->c.kind != PV_NONE &&
	     (policy < 0 || policy > EEVDF_POLICY_DEADLINE)) ||
	    v[0] > 99)
		return task_fail(sim, p, EEVDF_ERANGE,
				 "setattr: nice, policy or priority out of "
				 "range");
	a.nice = (int)nice;
	a.policy = (int)policy;
	a.rt_priority = (int)v[0];
	a.dl_runtime = v[1];
	a.dl_deadline = v[2];
	a.dl_period = v[3];
	err = eevdf__sched_setattr(&sim->sched, rq, p, &a);
	if (err) {
		char msg[sizeof(sim->sched.errmsg)];

		snprintf(msg, sizeof(msg), "%s", sim->sched.errmsg);
		return task_fail(sim, p, err, msg);
	}
	return R_NEXT;
}

/*
 * rt-app's timer event: sleep until the timer's next expiry, which then
 * moves one period on, so periods resist preemption drift.  The first use
 * starts the grid at now + period.  After a miss (the expiry already
 * passed) a relative timer restarts from now, an absolute one keeps its
 * grid and the next activations come late.
 */
static RARE int op_timer_wait(struct eevdf_sim *sim, struct rq *rq,
			      struct task *p, const struct pop *op)
{
	s64 period, *next, t;
	int err;

	if (p->op_phase == PH_WAIT)
		return R_NEXT;
	if ((err = eval_nonneg(sim, p, &op->a, &period)))
		return err;
	if (period <= 0)
		return task_fail(sim, p, EEVDF_ERANGE,
				 "timer_wait: the period must be positive");
	if (op->slot != NO_SLOT) {
		next = &p->locals[op->slot];
	} else {
		struct sim_object *o = resolve(sim, p, &op->obj);

		if (!o)
			return sim->sched.error;
		if (o->type != OBJ_TIMER)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "timer_wait needs a timer");
		next = &o->timer_next;
	}
	/* expiries are times of the clock: each one period on, checked */
	if (!*next && !eevdf__time_add_checked(sim->sched.now, period, next))
		return time_overflow(sim, p, "a timer period", period);
	t = *next;
	if (!eevdf__time_add_checked((op->flags & TIMER_ABSOLUTE) ||
						     t > sim->sched.now ?
					     t :
					     sim->sched.now,
				     period, next))
		return time_overflow(sim, p, "a timer period", period);
	if (t <= sim->sched.now)
		return R_NEXT;
	return block(sim, rq, p, WAIT_SLEEP, NULL, NULL, t - sim->sched.now);
}

/* Signals -------------------------------------------------------------- */

/*
 * kill(): mark the signal pending (a pending signal coalesces with a new
 * one); a target asleep in an interruptible wait is woken with EINTR.
 * Delivery happens when the target next returns to its program.
 */
static RARE int op_signal(struct eevdf_sim *sim, struct task *p,
			  const struct pop *op)
{
	struct task *t;
	struct waitq *q;
	u32 bit;

	if (op->obj.task_pid <= 0 ||
	    (size_t)op->obj.task_pid > sim->sched.nr_tasks)
		return task_fail(sim, p, EEVDF_EINVAL,
				 "signal to an unknown task");
	if (op->a.c <= 0 || op->a.c >= SIG_NR)
		return task_fail(sim, p, EEVDF_EINVAL, "bad signal number");
	t = sim->sched.tasks[op->obj.task_pid - 1];
	bit = 1u << op->a.c;
	/* a compacted task (NULL) is dead */
	if (!t || t->state == TASK_DEAD || t->state == TASK_NEW ||
	    (t->sig_pending & bit))
		return R_NEXT;
	t->sig_pending |= bit;
	if (t->state == TASK_SLEEPING && t->wait_intr) {
		q = wait_queue(sim, t);
		if (q)
			eevdf__waitq_remove(q, t);
		wake(sim, p, t, WR_EINTR, 0);
	}
	return R_NEXT;
}

/*
 * At an op boundary, outside a handler: run the handler of the lowest
 * pending signal, or take the default action (the terminating signals
 * end the task; the others are ignored).  Returns true when the task
 * exited.
 */
static RARE bool deliver_signal(struct eevdf_sim *sim, struct rq *rq,
				struct task *p)
{
	u32 sig;

	for (sig = 1; sig < SIG_NR; sig++)
		if (p->sig_pending & (1u << sig))
			break;
	/* op_signal() sets bits 1..SIG_NR-1 only, and we run when one is */
	if (sig == SIG_NR) {
		task_fail(sim, p, EEVDF_EINTERNAL,
			  "internal invariant failed: a pending signal 0");
		return true;
	}
	p->sig_pending &= ~(1u << sig);
	if (p->prog->handler[sig]) {
		p->overhead_left += sim->sched.costs.signal_deliver;
		p->saved_pc = p->pc;
		p->pc = p->prog->handler[sig] - 1;
		p->in_handler = true;
		return false;
	}
	switch (sig) {
	case SIGNO_HUP:
	case SIGNO_INT:
	case SIGNO_KILL:
	case SIGNO_USR1:
	case SIGNO_USR2:
	case SIGNO_ALRM:
	case SIGNO_TERM:
		task_exit(sim, rq, p);
		return true;
	default:
		return false;
	}
}

/* The dispatcher -------------------------------------------------------- */

u64 eevdf__op_default_cost(const struct cost_table *c, enum popcode code)
{
	switch (code) {
	case P_SLEEP:
	case P_SLEEP_UNTIL:
	case P_TIMER_WAIT:
		return c->timer_arm;
	case P_YIELD:
		return c->syscall;
	case P_EXIT:
		return c->exit;
	case P_SIGNAL:
		return c->signal_send;
	case P_SPAWN:
		return c->fork;
	case P_SETATTR:
	case P_QUEUE_WORK:
		return c->syscall;
	default:
		return 0;
	}
}

static u64 default_cost(struct eevdf_sim *sim, const struct pop *op,
			const struct sim_object *o)
{
	const struct cost_table *c = &sim->sched.costs;
	s64 calls = 1;

	switch (op->code) {
	case P_SEND:
		return chan_write_cost(c, &o->u.chan);
	case P_RECV:
		if (op->b.kind == PV_CONST)
			calls = op->b.c;
		return eevdf__ns_mul_sat((u64)calls,
					 chan_read_cost(c, &o->u.chan));
	default:
		return eevdf__op_default_cost(c, op->code);
	}
}

static bool uses_object(enum popcode code)
{
	switch (code) {
	case P_SEND:
	case P_RECV:
	case P_POST:
	case P_WAIT:
	case P_SET:
	case P_WAKE:
	case P_BLOCK:
	case P_LOCK:
	case P_UNLOCK:
	case P_BARRIER:
	case P_PUSH:
	case P_WAKE_LIST:
	case P_QUEUE_WORK:
		return true;
	default:
		return false;
	}
}

/*
 * The ops that act at once, with nothing to wait for: a plain op (struct
 * pop's plain) straight from the step, or one of these whose own cost
 * is paid.  Loops, ifs and chooses move pc themselves (R_AGAIN: execute
 * whatever is there now).
 */
static int exec_plain(struct eevdf_sim *sim, struct task *p,
		      const struct pop *op)
{
	s64 v, w;
	int err;

	switch (op->code) {
	case P_LOOP:
		err = enter_loop(sim, p, op);
		return err ? err : R_AGAIN;
	case P_IF:
		err = enter_if(sim, p, op);
		return err ? err : R_AGAIN;
	case P_CHOOSE:
		err = enter_choose(sim, p, op);
		return err ? err : R_AGAIN;
	case P_LET:
		if ((err = eval(sim, p, &op->a, &v)))
			return err;
		store(sim, p, op->slot, op->flags, v);
		return R_NEXT;
	case P_RECORD:
		if ((err = eval(sim, p, &op->a, &v)))
			return err;
		w = 0;
		if (op->b.kind != PV_NONE && (err = eval(sim, p, &op->b, &w)))
			return err;
		eevdf__metric_record(sim, op->slot, p, w, v);
		return R_NEXT;
	case P_COUNT:
		v = 1;
		if (op->a.kind != PV_NONE && (err = eval(sim, p, &op->a, &v)))
			return err;
		eevdf__metric_count(sim, op->slot, p, v);
		return R_NEXT;
	case P_MARK:
		return R_NEXT;
	default:
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "internal invariant failed: a plain op that "
				 "is not");
	}
}

/* Execute the op at pc as far as it goes now. */
static int exec_op(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op)
{
	struct sim_object *o = NULL;
	s64 v, w;
	int err;

	if (uses_object(op->code)) {
		o = resolve(sim, p, &op->obj);
		if (!o)
			return sim->sched.error;
		if ((op->code == P_SEND || op->code == P_RECV) &&
		    o->type != OBJ_CHANNEL)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "send and recv need a channel");
	}
	if (p->op_phase == PH_START) {
		u64 cost;

		if (op->cost.kind != PV_NONE) {
			if ((err = eval_nonneg(sim, p, &op->cost, &v)))
				return err;
			cost = (u64)v;
		} else {
			cost = default_cost(sim, op, o);
		}
		p->op_phase = PH_COST;
		p->op_work_left = cost;
	}
	if (p->op_phase == PH_COST) {
		if (p->op_work_left)
			return stay(work(sim, p, p->op_work_left));
		p->op_phase = PH_ACT;
		p->op_begun = false;
	}
	switch (op->code) {
	case P_RUN:
		if (!p->op_begun) {
			if ((err = eval_nonneg(sim, p, &op->a, &v)))
				return err;
			p->op_work_left = (u64)v;
			p->op_begun = true;
		}
		if (!p->op_work_left)
			return R_NEXT;
		return stay(work(sim, p, p->op_work_left));
	case P_SPIN:
		if (!p->op_begun) {
			if ((err = eval_nonneg(sim, p, &op->a, &v)))
				return err;
			if (!eevdf__time_add_checked(sim->sched.now, v,
						     &p->spin_until))
				return time_overflow(sim, p, "spin", v);
			p->op_begun = true;
		}
		if (sim->sched.now >= p->spin_until)
			return R_NEXT;
		return stay(start_burst(sim, p, B_SPIN,
					(u64)(p->spin_until - sim->sched.now)));
	case P_SLEEP:
	case P_SLEEP_UNTIL:
		if (p->op_phase == PH_WAIT) {
			store(sim, p, op->slot, op->flags,
			      p->wake_result == WR_EINTR ? STATUS_EINTR :
							   STATUS_OK);
			return R_NEXT;
		}
		if ((err = eval(sim, p, &op->a, &v)))
			return err;
		w = 0;
		if (op->b.kind != PV_NONE &&
		    (err = eval_nonneg(sim, p, &op->b, &w)))
			return err;
		/* a time that far in the past is no sleep, slack or not */
		if (op->code == P_SLEEP_UNTIL &&
		    __builtin_sub_overflow(v, sim->sched.now, &v))
			v = INT64_MIN;
		if (v < 0 && op->code == P_SLEEP)
			return task_fail(sim, p, EEVDF_ERANGE,
					 "sleep came out negative");
		if (__builtin_add_overflow(v, w, &v))
			return time_overflow(sim, p, "a sleep plus its slack",
					     INT64_MAX);
		if (v <= 0)
			return R_NEXT;
		return block(sim, rq, p, WAIT_SLEEP, NULL, NULL, v);
	case P_YIELD:
		if ((err = advance(sim, p)))
			return err;
		p->needs_step = true;
		p->st.yields++;
		eevdf__sched_yield(&sim->sched, rq);
		return R_STAY;
	case P_LOOP:
	case P_IF:
	case P_CHOOSE:
	case P_LET:
	case P_RECORD:
	case P_COUNT:
	case P_MARK:
		return exec_plain(sim, p, op);
	case P_BRANCH:
		return task_fail(sim, p, EEVDF_EINTERNAL,
				 "fell into a choose branch");
	case P_SEND:
		return op_send(sim, rq, p, op, o);
	case P_RECV:
		return op_recv(sim, rq, p, op, o);
	case P_POST:
		return op_post(sim, p, op, o);
	case P_WAIT:
		return op_wait(sim, rq, p, op, o);
	case P_SET:
		return op_set(sim, p, op, o);
	case P_WAKE:
		err = op_wake(sim, p, op, o);
		if (err != R_NEXT || !(op->flags & WAKE_THEN_BLOCK))
			return err;
		/*
		 * wake_and_block: the block follows with nothing between, as
		 * inside one syscall; its own cost is paid on wakeup.
		 */
		if ((err = advance(sim, p)))
			return err;
		op = &p->prog->ops[p->pc];
		if (op->cost.kind != PV_NONE) {
			if ((err = eval_nonneg(sim, p, &op->cost, &v)))
				return err;
			p->overhead_left = eevdf__ns_add_sat(p->overhead_left,
							     (u64)v);
		}
		p->op_phase = PH_ACT;
		return exec_op(sim, rq, p, op);
	case P_BLOCK:
		return op_block(sim, rq, p, op, o);
	case P_LOCK:
		return op_lock(sim, rq, p, op, o);
	case P_UNLOCK:
		return op_unlock(sim, p, op, o);
	case P_BARRIER:
		return op_barrier(sim, rq, p, op, o);
	case P_PUSH:
		return op_push(sim, p, o);
	case P_WAKE_LIST:
		return op_wake_list(sim, p, op, o);
	case P_JOIN:
		return op_join(sim, rq, p, op);
	case P_EXIT:
		task_exit(sim, rq, p);
		return R_STAY;
	case P_SIGNAL:
		return op_signal(sim, p, op);
	case P_SIGRETURN:
		p->pc = p->saved_pc;
		p->in_handler = false;
		p->op_phase = PH_START;
		return R_AGAIN;
	case P_SPAWN:
		return op_spawn(sim, p, op);
	case P_TIMER_WAIT:
		return op_timer_wait(sim, rq, p, op);
	case P_SETATTR:
		return op_setattr(sim, rq, p, op);
	case P_OPEN:
	case P_CLOSE:
	case P_READ:
	case P_WRITE:
	case P_FSYNC:
	case P_RENAME:
	case P_UNLINK:
	case P_MKDIR:
	case P_RMDIR:
	case P_STAT:
	case P_READDIR:
		if (!sim->io)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "a file op needs a filesystem");
		return eevdf__fs_exec(sim, rq, p, op);
	case P_QUEUE_WORK:
		if (o->type != OBJ_WORK || !sim->io)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "queue_work needs a work object");
		return eevdf__queue_work_exec(sim, p, op, o);
	case P_KTHREAD:
		return eevdf__kthread_exec(sim, rq, p, op);
	case P_NBENCH:
		if (!sim->io)
			return task_fail(sim, p, EEVDF_EINVAL,
					 "nbench needs a filesystem");
		return eevdf__nbench_exec(sim, rq, p, op);
	}
	return task_fail(sim, p, EEVDF_ENOTSUP, "op not supported yet");
}

/*
 * Run the current task's program until it waits for simulated time: a
 * burst of CPU work, a sleep or block, or the loss of its CPU.
 */
int eevdf__prog_step(struct eevdf_sim *sim, struct rq *rq, struct task *p)
{
	const struct program *prog = p->prog;
	u32 end = prog->main_ops ? prog->main_ops : prog->nr_ops;

	p->needs_step = false;
	/* simulated time stands still while a step runs */
	if (sim->guard_time != sim->sched.now) {
		sim->guard_time = sim->sched.now;
		sim->guard_ops = 0;
	}
	for (;;) {
		const struct pop *op;
		int ret;

		/* ops at one instant before we call it a livelock */
		if (++sim->guard_ops > sim->guard_max)
			return eevdf__sim_fail(
				sim, EEVDF_ELIVELOCK,
				"task %s ran %llu ops at %lld "
				"ns without simulated time "
				"advancing",
				p->name, (unsigned long long)sim->guard_max,
				(long long)sim->sched.now);
		if (rq->curr != p || p->state != TASK_RUNNING)
			return 0;
		/* costs owed from switches and wakeups come first */
		if (p->overhead_left)
			return start_burst(sim, p, B_OVERHEAD,
					   p->overhead_left);
		if (p->sig_pending && !p->in_handler &&
		    p->op_phase == PH_START && deliver_signal(sim, rq, p))
			return 0;
		if (p->pc >= end && !p->in_handler) {
			/* falling off the end is exit(): pay for it first */
			if (!p->exiting && sim->sched.costs.exit) {
				p->exiting = true;
				p->overhead_left += sim->sched.costs.exit;
				/* sched_autogroup_exit_task(): an exiting
				 * task leaves its session's group */
				if (p->sched_task_group->autogroup)
					eevdf__sched_move_task(&sim->sched, p,
							       p->cgroup);
				continue;
			}
			task_exit(sim, rq, p);
			return 0;
		}
		op = &prog->ops[p->pc];
		if (op->plain) {
			/* what exec_op()'s phases come to without a cost */
			p->op_phase = PH_ACT;
			p->op_work_left = 0;
			p->op_begun = false;
			ret = exec_plain(sim, p, op);
		} else {
			ret = exec_op(sim, rq, p, op);
		}
		if (ret < 0)
			return ret;
		if (ret == R_STAY)
			return 0;
		if (ret == R_NEXT && (ret = advance(sim, p)))
			return ret;
		/*
		 * A reschedule raised by this op (a wakeup that preempts, a
		 * nice change) takes effect on the way back to user space,
		 * before the next op.
		 */
		if (rq->need_resched) {
			p->needs_step = true;
			return 0;
		}
	}
}

/* Programs ------------------------------------------------------------- */

static void pval_free(struct pval *v)
{
	if (v->kind == PV_EXPR)
		eevdf__expr_free(v->expr);
	if (v->kind == PV_DIST && v->dist) {
		eevdf__dist_free(v->dist);
		free(v->dist);
	}
	memset(v, 0, sizeof(*v));
}

static void objref_free(struct objref *r)
{
	for (u32 i = 0; i < r->nr_parts; i++) {
		free(r->parts[i].text);
		eevdf__expr_free(r->parts[i].expr);
	}
	free(r->parts);
	free(r->text);
	free(r->table);
	memset(r, 0, sizeof(*r));
}

/* Release what an op owns. */
static void op_free(struct pop *op)
{
	pval_free(&op->a);
	pval_free(&op->b);
	pval_free(&op->c);
	pval_free(&op->cost);
	for (u32 k = 0; k < MSG_FIELDS; k++)
		pval_free(&op->field[k]);
	objref_free(&op->obj);
	objref_free(&op->obj2);
	free(op->text);
	free(op->where);
}

/*
 * The value v for which text + "%lld" of v + tail is name, if any: the
 * middle must be exactly how "%lld" prints some s64.
 */
static bool name_value(const char *name, const char *text, const char *tail,
		       s64 *v)
{
	size_t n = strlen(name), a = strlen(text), b = strlen(tail), i;
	char buf[24], back[24];
	bool neg;
	u64 m = 0;

	if (n <= a + b || n - a - b >= sizeof(buf) ||
	    strncmp(name, text, a) != 0 || strcmp(name + n - b, tail) != 0)
		return false;
	memcpy(buf, name + a, n - a - b);
	buf[n - a - b] = '\0';
	neg = buf[0] == '-';
	for (i = neg; buf[i]; i++) {
		if (buf[i] < '0' || buf[i] > '9' ||
		    m > ((u64)INT64_MAX + 1 - (u64)(buf[i] - '0')) / 10)
			return false;
		m = m * 10 + (u64)(buf[i] - '0');
	}
	if (i == (size_t)neg || (!neg && m > (u64)INT64_MAX))
		return false;
	*v = neg ? (s64)(0 - m) : (s64)m;
	/* no "01" or "-0": printing v must give the same text back */
	snprintf(back, sizeof(back), "%lld", (long long)*v);
	return strcmp(back, buf) == 0;
}

int eevdf__objref_resolve_once(struct objref *r,
			       const char *(*name)(const void *ud, size_t i),
			       const void *ud, size_t nr)
{
	const char *text, *tail;
	s64 lo = INT64_MAX, hi = INT64_MIN, v;
	size_t hits = 0;
	u64 span;

	if (r->table || r->nr_parts != 2 || !r->parts[0].expr ||
	    r->parts[1].expr)
		return 0;
	text = r->parts[0].text;
	tail = r->parts[1].text;
	/* room for any value: the name-too-long error cannot come first */
	if (strlen(text) + strlen(tail) + 21 >= OBJ_NAME_BUF)
		return 0;
	for (size_t i = 0; i < nr && i <= INT32_MAX; i++) {
		if (!name_value(name(ud, i), text, tail, &v))
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		hits++;
	}
	if (!hits)
		return 0;
	/* dense enough to be worth a table: the objects of a "for" are */
	span = (u64)hi - (u64)lo + 1;
	if (span == 0 || span > 4 * (u64)hits + 64 || span > (u64)1 << 20)
		return 0;
	r->table = malloc(span * sizeof(*r->table));
	if (!r->table)
		return EEVDF_ENOMEM;
	for (u64 k = 0; k < span; k++)
		r->table[k] = -1;
	for (size_t i = 0; i < nr && i <= INT32_MAX; i++)
		if (name_value(name(ud, i), text, tail, &v))
			/* names are unique, so no value is seen twice */
			r->table[(u64)v - (u64)lo] = (s32)i;
	r->table_lo = lo;
	r->table_n = (u32)span;
	if (!eevdf__expr_is_local(r->parts[0].expr, &r->table_local))
		r->table_local = NO_SLOT;
	return 0;
}

void eevdf__program_binds(const struct program *prog, s32 *out)
{
	for (u32 i = 0; i < prog->nr_ops; i++) {
		const struct objref *r[2] = { &prog->ops[i].obj,
					      &prog->ops[i].obj2 };

		for (int k = 0; k < 2; k++)
			if (r[k]->bind)
				out[r[k]->bind - 1] = r[k]->idx >= 0 ?
							      r[k]->idx :
							      -r[k]->task_pid;
	}
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static bool same_pval(const struct pval *a, const struct pval *b)
{
	return a->kind == b->kind && a->c == b->c &&
	       eevdf__expr_same(a->expr, b->expr) &&
	       eevdf__dist_same(a->dist, b->dist);
}

/* Bound refs are the same when they take the same binding. */
static bool same_objref(const struct objref *a, const struct objref *b)
{
	if (a->bind != b->bind || a->nr_parts != b->nr_parts ||
	    !same_str(a->text, b->text) || a->table_lo != b->table_lo ||
	    a->table_n != b->table_n || a->table_local != b->table_local ||
	    !a->table != !b->table)
		return false;
	if (!a->bind && (a->idx != b->idx || a->task_pid != b->task_pid))
		return false;
	for (u32 i = 0; i < a->nr_parts; i++)
		if (!same_str(a->parts[i].text, b->parts[i].text) ||
		    !eevdf__expr_same(a->parts[i].expr, b->parts[i].expr))
			return false;
	for (u32 i = 0; a->table && i < a->table_n; i++)
		if (a->table[i] != b->table[i])
			return false;
	return true;
}

static bool same_op(const struct pop *a, const struct pop *b)
{
	if (a->code != b->code || a->flags != b->flags || a->len != b->len ||
	    a->len2 != b->len2 || a->slot != b->slot || a->plain != b->plain ||
	    !same_pval(&a->a, &b->a) || !same_pval(&a->cost, &b->cost) ||
	    !same_pval(&a->b, &b->b) || !same_pval(&a->c, &b->c) ||
	    !same_objref(&a->obj, &b->obj) ||
	    !same_objref(&a->obj2, &b->obj2) || a->nr_fields != b->nr_fields ||
	    !same_str(a->text, b->text) || !same_str(a->where, b->where))
		return false;
	for (u32 k = 0; k < MSG_FIELDS; k++)
		if (a->field_slot[k] != b->field_slot[k] ||
		    !same_pval(&a->field[k], &b->field[k]))
			return false;
	return true;
}

bool eevdf__program_same(const struct program *a, const struct program *b)
{
	u32 n = a->nr_ops, nr_branches = 0;

	if (n != b->nr_ops || a->nr_locals != b->nr_locals ||
	    a->nr_binds != b->nr_binds || a->main_ops != b->main_ops ||
	    memcmp(a->handler, b->handler, sizeof(a->handler)) != 0 ||
	    !a->closer != !b->closer || !a->choose_tab != !b->choose_tab)
		return false;
	for (u32 i = 0; i < n; i++) {
		if (!same_op(&a->ops[i], &b->ops[i]))
			return false;
		nr_branches += a->ops[i].code == P_BRANCH;
	}
	/* the indexes follow from the ops; compared all the same */
	if (a->closer &&
	    (memcmp(a->closer, b->closer, (n + 1) * sizeof(*a->closer)) ||
	     memcmp(a->outer_closer, b->outer_closer,
		    (n + 1) * sizeof(*a->outer_closer))))
		return false;
	if (a->choose_tab && (memcmp(a->choose_first, b->choose_first,
				     (n + 1) * sizeof(*a->choose_first)) ||
			      memcmp(a->choose_nr, b->choose_nr,
				     (n + 1) * sizeof(*a->choose_nr))))
		return false;
	for (u32 i = 0; a->choose_tab && i < nr_branches; i++)
		if (a->choose_tab[i].cum != b->choose_tab[i].cum ||
		    a->choose_tab[i].branch != b->choose_tab[i].branch)
			return false;
	return true;
}

void eevdf__program_unref(struct program *prog)
{
	if (!prog || --prog->refs > 0)
		return;
	for (u32 i = 0; prog->ops && i < prog->nr_ops; i++)
		op_free(&prog->ops[i]);
	free(prog->ops);
	free(prog->closer);
	free(prog->outer_closer);
	free(prog->choose_tab);
	free(prog->choose_first);
	free(prog->choose_nr);
	free(prog);
}

/* The running weight sums of every choose (see struct program). */
static int index_choices(struct program *prog)
{
	u32 n = prog->nr_ops, nr = 0, k = 0;

	for (u32 i = 0; i < n; i++)
		nr += prog->ops[i].code == P_BRANCH;
	prog->choose_first = calloc(n + 1, sizeof(*prog->choose_first));
	prog->choose_nr = calloc(n + 1, sizeof(*prog->choose_nr));
	prog->choose_tab = calloc(nr ? nr : 1, sizeof(*prog->choose_tab));
	if (!prog->choose_first || !prog->choose_nr || !prog->choose_tab)
		return EEVDF_ENOMEM;
	for (u32 i = 0; i < n; i++) {
		const struct pop *op = &prog->ops[i];
		u32 end = i + 1 + op->len;
		s64 cum = 0;

		if (op->code != P_CHOOSE)
			continue;
		prog->choose_first[i] = k;
		for (u32 b = i + 1; b < end && b < n;
		     b += 1 + prog->ops[b].len) {
			cum += prog->ops[b].a.c;
			prog->choose_tab[k].cum = cum;
			prog->choose_tab[k++].branch = b;
		}
		prog->choose_nr[i] = k - prog->choose_first[i];
	}
	return 0;
}

/* See struct pop's plain. */
static bool op_is_plain(const struct pop *op)
{
	if (op->cost.kind != PV_NONE)
		return false;
	switch (op->code) {
	case P_LET:
	case P_IF:
	case P_LOOP:
	case P_CHOOSE:
	case P_RECORD:
	case P_COUNT:
	case P_MARK:
		return true;
	default:
		return false;
	}
}

/*
 * closer[pos] chains the structured ops whose body ends at pos, innermost
 * first: a loop's body end, a then-branch followed by else-ops, a choose
 * branch followed by more branches.  Structured ops nest properly, so a
 * later (inner) op ending at the same place goes in front.
 */
int eevdf__program_index(struct program *prog)
{
	u32 n = prog->nr_ops;

	prog->closer = malloc((n + 1) * sizeof(*prog->closer));
	prog->outer_closer = malloc((n + 1) * sizeof(*prog->outer_closer));
	if (!prog->closer || !prog->outer_closer)
		return EEVDF_ENOMEM;
	for (u32 i = 0; i <= n; i++) {
		prog->closer[i] = NO_LOOP;
		prog->outer_closer[i] = NO_LOOP;
	}
	for (u32 j = 0; j < n; j++) {
		struct pop *op = &prog->ops[j];
		size_t end;

		op->plain = op_is_plain(op);
		if (op->code == P_LOOP)
			end = j + 1 + op->len;
		else if ((op->code == P_IF || op->code == P_BRANCH) &&
			 op->len && op->len2)
			end = j + 1 + op->len;
		else
			continue;
		if (end > n)
			return EEVDF_EINVAL;
		prog->outer_closer[j] = prog->closer[end];
		prog->closer[end] = j;
	}
	return index_choices(prog);
}

/* A structured op's lengths after the fold: kept ops in the same ranges. */
static void fold_lengths(struct pop *op, u32 i, const u32 *at)
{
	u32 body = i + 1, rest = i + 1 + op->len;

	switch (op->code) {
	case P_IF:
	case P_BRANCH:
		op->len2 = at[rest + op->len2] - at[rest];
		fallthrough;
	case P_LOOP:
	case P_CHOOSE:
		op->len = at[rest] - at[body];
		break;
	default:
		break;
	}
}

/* Whether the fold that keeps keep[] leaves a loop's body empty, or the
 * main program empty (main_ops 0 would then mean the whole array). */
static bool fold_breaks(const struct program *prog, const u32 *at)
{
	for (u32 i = 0; i < prog->nr_ops; i++) {
		const struct pop *op = &prog->ops[i];

		if (op->code == P_LOOP && at[i + 1] != at[i] && op->len &&
		    at[i + 1 + op->len] == at[i + 1])
			return true;
	}
	return prog->main_ops && !at[prog->main_ops];
}

int eevdf__program_fold(struct program *prog)
{
	u32 n = prog->nr_ops, k = 0;
	bool *keep = malloc((n ? n : 1) * sizeof(*keep));
	u32 *at = malloc((n + 1) * sizeof(*at));
	int err = 0;

	if (!keep || !at) {
		err = EEVDF_ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < n; i++)
		keep[i] = true;
	/* outer ops first: one inside a dropped body goes with it */
	for (u32 i = 0; i < n; i++) {
		const struct pop *op = &prog->ops[i];
		u32 from, to;

		if (!keep[i] || op->a.kind != PV_CONST ||
		    op->cost.kind != PV_NONE)
			continue;
		if (op->code == P_IF && !op->flags) {
			from = op->a.c ? i + 1 + op->len : i + 1;
			to = op->a.c ? from + op->len2 : from + op->len;
		} else if (op->code == P_LOOP && op->a.c == 0 && !op->flags &&
			   op->slot == NO_SLOT) {
			/* a count of 0 tests nothing and runs nothing */
			from = i + 1;
			to = from + op->len;
		} else {
			continue;
		}
		keep[i] = false;
		for (u32 j = from; j < to && j < n; j++)
			keep[j] = false;
	}
	at[0] = 0;
	for (u32 i = 0; i < n; i++)
		at[i + 1] = at[i] + keep[i];
	if (at[n] == n || fold_breaks(prog, at))
		goto out;
	for (u32 i = 0; i < n; i++) {
		if (!keep[i]) {
			op_free(&prog->ops[i]);
			continue;
		}
		fold_lengths(&prog->ops[i], i, at);
		prog->ops[k++] = prog->ops[i];
	}
	prog->nr_ops = k;
	for (u32 s = 0; s < SIG_NR; s++)
		if (prog->handler[s])
			prog->handler[s] = 1 + at[prog->handler[s] - 1];
	prog->main_ops = at[prog->main_ops];
	free(prog->closer);
	free(prog->outer_closer);
	free(prog->choose_tab);
	free(prog->choose_first);
	free(prog->choose_nr);
	prog->closer = prog->outer_closer = NULL;
	prog->choose_tab = NULL;
	prog->choose_first = prog->choose_nr = NULL;
	err = eevdf__program_index(prog);
out:
	free(keep);
	free(at);
	return err;
}

/* A program from the public op array (run, sleep, yield, counted loops). */
int eevdf__program_from_ops(const struct eevdf_op *ops, size_t nr,
			    struct program **out)
{
	struct program *prog = calloc(1, sizeof(*prog));
	int err;

	if (!prog)
		return EEVDF_ENOMEM;
	prog->refs = 1;
	prog->ops = calloc(nr ? nr : 1, sizeof(*prog->ops));
	if (!prog->ops) {
		free(prog);
		return EEVDF_ENOMEM;
	}
	prog->nr_ops = (u32)nr;
	for (size_t i = 0; i < nr; i++) {
		struct pop *op = &prog->ops[i];

		op->obj.idx = OBJ_NONE;
		op->obj2.idx = OBJ_NONE;
		op->slot = NO_SLOT;
		switch (ops[i].kind) {
		case EEVDF_OP_RUN:
			op->code = P_RUN;
			op->a.kind = PV_CONST;
			op->a.c = ops[i].duration;
			break;
		case EEVDF_OP_SLEEP:
			op->code = P_SLEEP;
			op->a.kind = PV_CONST;
			op->a.c = ops[i].duration;
			break;
		case EEVDF_OP_YIELD:
			op->code = P_YIELD;
			break;
		case EEVDF_OP_LOOP:
			op->code = P_LOOP;
			op->len = ops[i].body_len;
			if (ops[i].count) {
				op->a.kind = PV_CONST;
				op->a.c = (s64)ops[i].count;
			}
			break;
		}
	}
	err = eevdf__program_index(prog);
	if (err) {
		eevdf__program_unref(prog);
		return err;
	}
	*out = prog;
	return 0;
}

/* What each blocked task waits on, for the deadlock report. */
void eevdf__prog_describe_blocked(struct eevdf_sim *sim, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int shown = 0, total = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sim->sched.nr_tasks; i++) {
		struct task *t = sim->sched.tasks[i];

		if (!t || t->state != TASK_SLEEPING)
			continue;
		total++;
		if (shown >= 8 || n >= len)
			continue;
		n += (size_t)snprintf(
			buf + n, len - n, "%s%s (%s%s%s)", shown ? "; " : "",
			t->name,
			eevdf__wait_kind_name((enum wait_kind)t->wait_kind),
			t->wait_obj ? " " : "",
			t->wait_obj ? t->wait_obj->name : "");
		shown++;
	}
	if (total > shown && n < len)
		snprintf(buf + n, len - n, "; and %u more", total - shown);
}

/* The scheduler's way into the interpreter (struct sched_task_ops). */
static int hook_step(struct scheduler *sched, struct rq *rq, struct task *p)
{
	return eevdf__prog_step(sim_of(sched), rq, p);
}

static void hook_burst_end(struct scheduler *sched, struct task *p)
{
	eevdf__prog_burst_end(sim_of(sched), p);
}

static void hook_timer(struct scheduler *sched, struct task *p)
{
	eevdf__prog_timer(sim_of(sched), p);
}

static void hook_switch_out(struct scheduler *sched, struct task *p)
{
	eevdf__prog_switch_out(sim_of(sched), p);
}

static void hook_switch_in(struct scheduler *sched, struct task *p)
{
	eevdf__prog_switch_in(sim_of(sched), p);
}

static int hook_speed_change(struct scheduler *sched, struct task *p)
{
	return eevdf__prog_speed_change(sim_of(sched), p);
}

static void hook_interrupt(struct scheduler *sched, struct task *p, u64 ns)
{
	eevdf__prog_interrupt(sim_of(sched), p, ns);
}

const struct sched_task_ops eevdf__prog_ops = {
	.step = hook_step,
	.burst_end = hook_burst_end,
	.timer = hook_timer,
	.switch_out = hook_switch_out,
	.switch_in = hook_switch_in,
	.speed_change = hook_speed_change,
	.interrupt = hook_interrupt,
};
