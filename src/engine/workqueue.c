/* SPDX-License-Identifier: MIT */
/*
 * Workqueues after kernel/workqueue.c (v6.6 - v6.18): per-CPU worker
 * pools (normal and WQ_HIGHPRI, nice -20), unbound pools per pod (the
 * LLC: WQ_AFFN_CACHE, the default affinity scope since v6.6), pool
 * workqueues with max_active, and concurrency management: a bound pool
 * keeps about one worker running (nr_running); when that worker sleeps in
 * its work, wq_worker_sleeping() wakes an idle one (kick_pool()), and a
 * worker that finds no idle one left creates one (manage_workers()).
 * Unbound workers are never counted (WORKER_UNBOUND is a NOT_RUNNING
 * flag), so an unbound pool wakes a worker per queued item.
 *
 * Pool ids name the workers: per-CPU pools get 2 * cpu and 2 * cpu + 1
 * at boot (worker_pool_assign_id() in CPU order), unbound ones the next
 * ids, so an 8-CPU machine's first unbound workers are kworker/u16:N.
 * With several LLCs the default pwq's all-CPU pool takes the first
 * unbound id and each pod's pool the following ones.
 */
#include <string.h>

#include "io.h"

static bool pool_unbound(const struct worker_pool *pool)
{
	return pool->cpu < 0;
}

/* need_more_worker(): work waits and nobody runs it. */
static bool need_more_worker(const struct worker_pool *pool)
{
	return pool->head && !pool->nr_running;
}

/* keep_working(): more work and at most this worker running. */
static bool keep_working(const struct worker_pool *pool)
{
	return pool->head && pool->nr_running <= 1;
}

/* WORKER_NOT_RUNNING: PREP or UNBOUND (no CPU_INTENSIVE, no REBOUND). */
static bool not_running(const struct kthread *kt)
{
	return kt->prep || pool_unbound(kt->pool);
}

static void worker_enter_idle(struct worker_pool *pool, struct kthread *kt)
{
	kt->idle = true;
	kt->idle_next = pool->idle;
	pool->idle = kt;
	pool->nr_idle++;
}

static void worker_leave_idle(struct worker_pool *pool, struct kthread *kt)
{
	struct kthread **pp = &pool->idle;

	if (!kt->idle)
		return;
	while (*pp && *pp != kt)
		pp = &(*pp)->idle_next;
	if (*pp)
		*pp = kt->idle_next;
	kt->idle_next = NULL;
	kt->idle = false;
	pool->nr_idle--;
}

/* kick_pool(): wake the first idle worker if work needs one. */
static void kick_pool(struct eevdf_sim *sim, struct worker_pool *pool)
{
	if (!need_more_worker(pool) || !pool->idle)
		return;
	eevdf__kthread_wake(sim, pool->idle);
}

static struct kthread *create_worker(struct eevdf_sim *sim,
				     struct worker_pool *pool)
{
	char name[EEVDF_NAME_MAX];
	struct kthread *kt;

	if (pool->cpu >= 0)
		snprintf(name, sizeof(name), "kworker/%d:%u%s", pool->cpu,
			 pool->next_id, pool->highpri ? "H" : "");
	else
		snprintf(name, sizeof(name), "kworker/u%d:%u", pool->id,
			 pool->next_id);
	kt = eevdf__kthread_create(sim, KT_WORKER, name,
				   pool->highpri ? -20 : 0, pool->cpus,
				   pool->nr_cpus);
	if (!kt)
		return NULL;
	pool->next_id++;
	pool->nr_workers++;
	kt->pool = pool;
	kt->prep = true;
	/* create_worker(): it enters the pool idle, then starts */
	worker_enter_idle(pool, kt);
	return kt;
}

static int pool_init(struct eevdf_sim *sim, struct worker_pool *pool, int id,
		     int cpu, int llc, bool highpri)
{
	int n = sim->sched.nr_cpus;

	memset(pool, 0, sizeof(*pool));
	pool->id = id;
	pool->cpu = cpu;
	pool->llc = llc;
	pool->highpri = highpri;
	pool->cpus = malloc((size_t)n * sizeof(int));
	if (!pool->cpus)
		return EEVDF_ENOMEM;
	if (cpu >= 0) {
		pool->cpus[0] = cpu;
		pool->nr_cpus = 1;
		return 0;
	}
	for (int c = 0; c < n; c++)
		if (sim->sched.topo.cpu[c].llc == llc)
			pool->cpus[pool->nr_cpus++] = c;
	return 0;
}

struct workqueue *eevdf__wq_alloc(struct eevdf_sim *sim, const char *name,
				  const char *desc, bool unbound, bool highpri,
				  u32 max_active)
{
	struct io *io = sim->io;
	struct workqueue *wq = calloc(1, sizeof(*wq)), **n;

	if (!wq)
		return NULL;
	n = realloc(io->wqs, (io->nr_wqs + 1) * sizeof(*n));
	wq->pwqs = calloc(io->nr_pools, sizeof(*wq->pwqs));
	if (!n || !wq->pwqs) {
		if (n)
			io->wqs = n;
		free(wq->pwqs);
		free(wq);
		return NULL;
	}
	io->wqs = n;
	io->wqs[io->nr_wqs++] = wq;
	snprintf(wq->name, sizeof(wq->name), "%s", name);
	snprintf(wq->desc, sizeof(wq->desc), "%s", desc ? desc : name);
	wq->unbound = unbound;
	wq->highpri = highpri;
	/* alloc_workqueue(): 0 is WQ_DFL_ACTIVE */
	wq->max_active = max_active ? max_active : 256;
	for (size_t i = 0; i < io->nr_pools; i++) {
		wq->pwqs[i].wq = wq;
		wq->pwqs[i].pool = &io->pools[i];
	}
	return wq;
}

/*
 * The pools of a machine at boot: normal and highpri per CPU (ids 2c,
 * 2c + 1), then the unbound ones; the system workqueues; and each
 * per-CPU pool's first worker (workqueue_init()).
 */
int eevdf__wq_init(struct eevdf_sim *sim)
{
	struct io *io = sim->io;
	int n = sim->sched.nr_cpus, nllc = sim->sched.topo.nr_llcs;
	int r = 0;

	io->nr_pools = 2 * (size_t)n + (size_t)nllc;
	io->pools = calloc(io->nr_pools, sizeof(*io->pools));
	if (!io->pools)
		return EEVDF_ENOMEM;
	for (int c = 0; c < n && !r; c++) {
		r = pool_init(sim, &io->pools[c], 2 * c, c, -1, false);
		if (!r)
			r = pool_init(sim, &io->pools[n + c], 2 * c + 1, c, -1,
				      true);
	}
	for (int l = 0; l < nllc && !r; l++)
		r = pool_init(sim, &io->pools[2 * n + l],
			      nllc == 1 ? 2 * n : 2 * n + 1 + l, -1, l, false);
	if (r)
		return r;
	io->system_wq = eevdf__wq_alloc(sim, "events", NULL, false, false, 0);
	io->system_highpri_wq = eevdf__wq_alloc(sim, "events_highpri", NULL,
						false, true, 0);
	io->system_unbound_wq = eevdf__wq_alloc(sim, "events_unbound", NULL,
						true, false, 512);
	/* blk_dev_init(): WQ_MEM_RECLAIM | WQ_HIGHPRI, per CPU */
	io->kblockd = eevdf__wq_alloc(sim, "kblockd", NULL, false, true, 0);
	if (!io->system_wq || !io->system_highpri_wq ||
	    !io->system_unbound_wq || !io->kblockd)
		return EEVDF_ENOMEM;
	return 0;
}

/* The first workers of every pool (workqueue_init(), get_unbound_pool()). */
static int wq_start(struct eevdf_sim *sim)
{
	struct io *io = sim->io;

	for (size_t i = 0; i < io->nr_pools; i++)
		if (!io->pools[i].nr_workers &&
		    !create_worker(sim, &io->pools[i]))
			return EEVDF_ENOMEM;
	return 0;
}

void eevdf__kwork_init(struct kwork *w, enum kwork_kind kind, void *owner)
{
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->owner = owner;
	eevdf__event_init(&w->timer, SEV_IO_TIMER, EVC_TICK);
}

/* The pool a work goes to from cpu: the CPU's own, or its pod's. */
static struct pool_wq *select_pwq(struct eevdf_sim *sim, struct workqueue *wq,
				  int cpu)
{
	int n = sim->sched.nr_cpus;

	if (wq->unbound)
		return &wq->pwqs[2 * n + sim->sched.topo.cpu[cpu].llc];
	return &wq->pwqs[(wq->highpri ? n : 0) + cpu];
}

static void append(struct kwork **head, struct kwork **tail, struct kwork *w)
{
	w->next = NULL;
	if (*tail)
		(*tail)->next = w;
	else
		*head = w;
	*tail = w;
}

static struct kwork *pop_first(struct kwork **head, struct kwork **tail)
{
	struct kwork *w = *head;

	if (w) {
		*head = w->next;
		if (!*head)
			*tail = NULL;
		w->next = NULL;
	}
	return w;
}

/*
 * __queue_work(): a pending work is not queued again; a work still
 * running on another pool goes there (non-reentrancy); past max_active
 * it waits on the pwq's inactive list.
 */
bool eevdf__queue_work(struct eevdf_sim *sim, struct workqueue *wq,
		       struct kwork *w, int cpu)
{
	struct pool_wq *pwq;

	if (w->pending)
		return false;
	w->pending = true;
	pwq = select_pwq(sim, wq, cpu);
	if (w->running && w->running->pool != pwq->pool && w->pwq &&
	    w->pwq->wq == wq)
		pwq = w->pwq;
	w->pwq = pwq;
	w->wq = wq;
	if (pwq->nr_active < wq->max_active) {
		pwq->nr_active++;
		append(&pwq->pool->head, &pwq->pool->tail, w);
		kick_pool(sim, pwq->pool);
	} else {
		append(&pwq->inact_head, &pwq->inact_tail, w);
	}
	return true;
}

void eevdf__queue_delayed_work(struct eevdf_sim *sim, struct workqueue *wq,
			       struct kwork *w, s64 delay)
{
	if (w->pending || eevdf__event_queued(&w->timer))
		return;
	w->wq = wq;
	if (delay <= 0) {
		eevdf__queue_work(sim, wq, w, 0);
		return;
	}
	eevdf__queue_event(&sim->sched, &w->timer, sim->sched.now + delay);
}

/* delayed_work_timer_fn(): queued from the timer interrupt's CPU, which
 * for an unbound workqueue only picks the pod. */
void eevdf__kwork_timer(struct eevdf_sim *sim, struct kwork *w)
{
	eevdf__queue_work(sim, w->wq, w, 0);
}

/* pwq_dec_nr_in_flight(): the slot frees; the next inactive work goes. */
static void pwq_dec(struct eevdf_sim *sim, struct pool_wq *pwq)
{
	struct kwork *w;

	pwq->nr_active--;
	if (pwq->nr_active >= pwq->wq->max_active)
		return;
	w = pop_first(&pwq->inact_head, &pwq->inact_tail);
	if (!w)
		return;
	pwq->nr_active++;
	append(&pwq->pool->head, &pwq->pool->tail, w);
	kick_pool(sim, pwq->pool);
}

void eevdf__wq_worker_sleeping(struct eevdf_sim *sim, struct task *p)
{
	struct kthread *kt = eevdf__kthread_of(sim, p);

	if (!kt || kt->kind != KT_WORKER || not_running(kt) || kt->sleeping)
		return;
	kt->sleeping = true;
	kt->pool->nr_running--;
	kick_pool(sim, kt->pool);
}

void eevdf__wq_worker_running(struct eevdf_sim *sim, struct task *p)
{
	struct kthread *kt = eevdf__kthread_of(sim, p);

	if (!kt || kt->kind != KT_WORKER || !kt->sleeping)
		return;
	if (!not_running(kt))
		kt->pool->nr_running++;
	kt->sleeping = false;
}

/* A workload's work item: its CPU, its sleep, then its target. */
static int user_work(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     struct user_work *uw)
{
	int r;

	switch (p->op_step) {
	case 0:
		r = eevdf__interp_charge(
			sim, p, (u64)uw->c.cost + sim->sched.costs.work_item);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
		if (uw->c.sleep > 0)
			return eevdf__interp_block(sim, rq, p, WAIT_SLEEP, NULL,
						   uw->c.sleep);
		fallthrough;
	case 1:
		p->op_step = 2;
		eevdf__io_poke(sim, p, uw->target);
		break;
	default:
		break;
	}
	return R_NEXT;
}

/* blk_mq_run_work_fn(): dispatch what waited for a driver tag. */
static int blk_run_work(struct eevdf_sim *sim, struct task *p, struct kwork *w)
{
	struct blkdev *d = w->owner;
	u32 n;
	int r;

	if (p->op_step == 0) {
		u32 queued = 0, free_tags = d->c.queue_depth - d->inflight;

		for (struct blk_req *q = d->q_head; q; q = q->next)
			queued++;
		n = queued < free_tags ? queued : free_tags;
		p->op_step = 1;
		p->op_begun = false;
		p->xfer_left = n; /* what it will dispatch */
	}
	r = eevdf__interp_charge(sim, p,
				 sim->sched.costs.work_item +
					 p->xfer_left *
						 sim->sched.costs.blk_dispatch);
	if (r != R_NEXT)
		return r;
	p->xfer_left = 0;
	eevdf__blk_run_queue(sim, d, p->cpu);
	return R_NEXT;
}

static int run_work(struct eevdf_sim *sim, struct rq *rq, struct kthread *kt,
		    struct kwork *w)
{
	struct task *p = kt->task;

	switch (w->kind) {
	case KW_USER:
		return user_work(sim, rq, p, w->owner);
	case KW_BLK_RUN:
		return blk_run_work(sim, p, w);
	case KW_CONVERSION:
		return eevdf__conversion_workfn(sim, rq, p, w->owner);
	case KW_WRITEBACK:
		return eevdf__wb_workfn(sim, rq, p, w->owner);
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad work");
}

/* worker_thread() */
int eevdf__worker_exec(struct eevdf_sim *sim, struct rq *rq, struct kthread *kt)
{
	struct worker_pool *pool = kt->pool;
	struct task *p = kt->task;
	int r;

	for (;;) {
		struct kwork *w = kt->cur;

		if (!w && kt->prep) {
			/* woke_up: */
			worker_leave_idle(pool, kt);
			if (!need_more_worker(pool))
				goto sleep;
			/* may_start_working(): keep an idle worker ready */
			if (!pool->nr_idle && !create_worker(sim, pool))
				return eevdf__sim_fail(sim, EEVDF_ENOMEM,
						       "out of memory");
			kt->prep = false;
			if (!pool_unbound(pool))
				pool->nr_running++;
		}
		if (!w) {
			/* the next work of the worklist (keep_working()) */
			w = pop_first(&pool->head, &pool->tail);
			if (!w)
				goto idle;
			w->pending = false;
			if (w->running) {
				/* process_one_work(): a work already running
				 * here goes to that worker's scheduled list */
				w->again = true;
				continue;
			}
			w->running = kt;
			kt->cur = w;
			kt->desc =
				w->kind == KW_WRITEBACK ?
					((struct fsys *)w->owner)->flush_desc :
					w->wq->desc;
			kt->nr_runs++;
			p->op_step = 0;
			p->op_begun = false;
		}
		r = run_work(sim, rq, kt, w);
		if (r != R_NEXT)
			return r;
		/* process_one_work() is done with it */
		w->nr_done++;
		p->op_step = 0;
		p->op_begun = false;
		pwq_dec(sim, w->pwq);
		if (w->again) {
			/* queued again while it ran: once more, here */
			w->again = false;
			continue;
		}
		kt->cur = NULL;
		w->running = NULL;
		if (keep_working(pool))
			continue;
idle:
		kt->prep = true;
		if (!pool_unbound(pool))
			pool->nr_running--;
sleep:
		worker_enter_idle(pool, kt);
		return eevdf__kthread_idle(sim, rq, kt);
	}
}

int eevdf__io_start_workers(struct eevdf_sim *sim)
{
	return wq_start(sim);
}
