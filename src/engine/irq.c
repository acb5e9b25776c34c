/* SPDX-License-Identifier: MIT */
/*
 * Hard interrupts and softirqs (kernel/softirq.c, kernel/irq/).
 *
 * An interrupt takes the CPU it hits from whatever runs there: its
 * handler, and the softirqs run at irq_exit(), are billed to that task
 * (CONFIG_IRQ_TIME_ACCOUNTING off, the common distribution setting), as
 * eevdf__charge_cpu() bills a timer's wakeup.  On an idle CPU nobody
 * runs: the first task the interrupt woke there pays it before it starts,
 * since it cannot run before the handler returns.  Wakeups made in the
 * handler start from the interrupted CPU (try_to_wake_up() on this_cpu).
 *
 * irq_exit() runs pending softirqs in __do_softirq() for at most
 * MAX_SOFTIRQ_TIME (2 ms); what is left goes to ksoftirqd/N
 * (wakeup_softirqd()), a fair task of nice 0 pinned to the CPU.  The
 * kernel checks the budget between restarts of its loop over the pending
 * vectors; with one vector (BLOCK_SOFTIRQ) and its completions queued one
 * by one, we check it between completions.
 */
#include "io.h"

/* kernel/softirq.c: MAX_SOFTIRQ_TIME is 2 ms (msecs_to_jiffies(2)). */
#define MAX_SOFTIRQ_TIME 2000000

bool eevdf__cpu_idle_long(const struct eevdf_sim *sim, int cpu)
{
	const struct rq *rq = &sim->sched.rqs[cpu];

	return !rq->curr && sim->sched.costs.idle_exit &&
	       rq->idle_since < sim->sched.now &&
	       rq->awake_at != sim->sched.now;
}

void eevdf__irq_enter(struct eevdf_sim *sim, int cpu, u64 handler)
{
	struct io *io = sim->io;

	io->irq_saved = io->current;
	io->current = NULL;
	io->irq_woken = NULL;
	io->irq_cost = handler;
	sim->sched.irq_cpu = cpu;
	io->cpu[cpu].nr_irqs++;
}

static void softirq_run(struct eevdf_sim *sim, int cpu)
{
	struct io *io = sim->io;
	struct softirq_cpu *sc = &io->cpu[cpu];
	u64 spent = 0;

	if (!sc->head || sc->in_ksoftirqd)
		return;
	sc->nr_softirqs++;
	while (sc->head) {
		struct blk_req *req = sc->head;
		u64 c = sim->sched.costs.blk_complete;

		if (spent >= MAX_SOFTIRQ_TIME) {
			/* wakeup_softirqd(): the rest runs in task context */
			sc->in_ksoftirqd = true;
			sc->nr_deferred++;
			eevdf__kthread_wake(sim, sc->ksoftirqd);
			return;
		}
		sc->head = req->next;
		if (!sc->head)
			sc->tail = NULL;
		spent += c;
		io->irq_cost += c;
		eevdf__blk_complete(sim, cpu, req);
	}
}

void eevdf__irq_exit(struct eevdf_sim *sim, int cpu)
{
	struct io *io = sim->io;
	struct rq *rq = &sim->sched.rqs[cpu];
	struct task *woken;

	softirq_run(sim, cpu);
	woken = io->irq_woken;
	if (woken && woken->cpu != cpu)
		woken = NULL;
	eevdf__charge_cpu(&sim->sched, cpu, woken, io->irq_cost);
	io->irq_cost = 0;
	io->irq_woken = NULL;
	sim->sched.irq_cpu = -1;
	io->current = io->irq_saved;
	io->irq_saved = NULL;
	eevdf__mark_settle(&sim->sched, rq);
}

void eevdf__raise_block_softirq(struct eevdf_sim *sim, int cpu,
				struct blk_req *req)
{
	struct softirq_cpu *sc = &sim->io->cpu[cpu];

	req->next = NULL;
	if (sc->tail)
		sc->tail->next = req;
	else
		sc->head = req;
	sc->tail = req;
}

/* run_ksoftirqd(): the completions irq_exit() left, in task context. */
int eevdf__ksoftirqd_exec(struct eevdf_sim *sim, struct rq *rq,
			  struct kthread *kt)
{
	struct softirq_cpu *sc = &sim->io->cpu[kt->cpu];
	struct task *p = kt->task;
	int r;

	while (sc->in_ksoftirqd && sc->head) {
		struct blk_req *req = sc->head;

		r = eevdf__interp_charge(sim, p, sim->sched.costs.blk_complete);
		if (r != R_NEXT)
			return r;
		sc->head = req->next;
		if (!sc->head)
			sc->tail = NULL;
		kt->nr_runs++;
		eevdf__blk_complete(sim, kt->cpu, req);
	}
	sc->in_ksoftirqd = false;
	return eevdf__kthread_idle(sim, rq, kt);
}

/*
 * A periodic source (a display's vblank, a sound card's period, a
 * mouse): its handler posts its target or queues its work, from its CPU.
 */
void eevdf__irq_src_fire(struct eevdf_sim *sim, struct irq_src *s)
{
	int cpu = s->c.cpu;

	s->nr_fired++;
	eevdf__irq_enter(sim, cpu, (u64)s->c.handler);
	if (s->target)
		eevdf__io_poke(sim, NULL, s->target);
	if (s->work)
		eevdf__queue_work(sim, s->work->wq, s->work, cpu);
	eevdf__irq_exit(sim, cpu);
}
