/* SPDX-License-Identifier: MIT */
/*
 * Kernel threads as tasks of the fair class, named as the kernel names
 * them (kworker/0:1, kworker/0:1H, kworker/u16:0, ksoftirqd/0,
 * jbd2/sda1-8).  Each runs a one-op program, P_KTHREAD, whose execution
 * is the thread's main loop: worker_thread(), run_ksoftirqd(),
 * kjournald2().  The loops burn CPU and sleep through the interpreter
 * (interp.h), so a kernel thread is scheduled, preempted, woken and
 * counted exactly like any task.
 */
#include <string.h>

#include "io.h"

/* A program of one op: P_KTHREAD of kernel thread idx. */
static struct program *kthread_program(size_t idx)
{
	struct program *prog = calloc(1, sizeof(*prog));
	struct pop *op;

	if (!prog)
		return NULL;
	prog->refs = 1;
	prog->ops = calloc(1, sizeof(*prog->ops));
	if (!prog->ops) {
		free(prog);
		return NULL;
	}
	prog->nr_ops = 1;
	op = &prog->ops[0];
	op->code = P_KTHREAD;
	op->a.kind = PV_CONST;
	op->a.c = (s64)idx;
	op->obj.idx = OBJ_NONE;
	op->obj2.idx = OBJ_NONE;
	op->slot = NO_SLOT;
	for (u32 k = 0; k < MSG_FIELDS; k++)
		op->field_slot[k] = NO_SLOT;
	if (eevdf__program_index(prog)) {
		eevdf__program_unref(prog);
		return NULL;
	}
	return prog;
}

/*
 * kthread_create_on_node() and wake_up_process(): the thread starts now,
 * finds nothing to do and sleeps, or finds work that was queued for it.
 * Kernel threads share the kernel's mm, so switching to one is a thread
 * switch (lazy TLB).
 */
struct kthread *eevdf__kthread_create(struct eevdf_sim *sim,
				      enum kthread_kind kind, const char *name,
				      int nice, const int *cpus, size_t nr)
{
	struct io *io = sim->io;
	struct eevdf_task_spec spec;
	struct kthread *kt;
	struct program *prog;
	int pid;

	if (io->nr_kt == io->cap_kt) {
		size_t cap = io->cap_kt ? 2 * io->cap_kt : 16;
		struct kthread **n = realloc(io->kt, cap * sizeof(*n));

		if (!n)
			return NULL;
		io->kt = n;
		io->cap_kt = cap;
	}
	kt = calloc(1, sizeof(*kt));
	prog = kthread_program(io->nr_kt);
	if (!kt || !prog) {
		free(kt);
		eevdf__program_unref(prog);
		return NULL;
	}
	memset(&spec, 0, sizeof(spec));
	spec.name = name;
	spec.nice = nice;
	spec.cpus = cpus;
	spec.nr_cpus = nr;
	spec.start = sim->sched.now;
	/*
	 * No session: kthreadd and its children are forked from init_task,
	 * whose signal->autogroup is autogroup_default, the root task group
	 * (autogroup_init(), sched_autogroup_fork(); 5091faa449ee), so a
	 * kernel thread is never in a user's autogroup.
	 */
	spec.session = EEVDF_SESSION_NONE;
	pid = eevdf__sim_add_task_prog(sim, &spec, prog, true, NULL, NULL);
	if (pid < 0) {
		free(kt);
		return NULL;
	}
	kt->kind = kind;
	kt->idx = (int)io->nr_kt;
	kt->task = sim->sched.tasks[pid - 1];
	kt->task->kthread = kt->idx + 1;
	kt->cpu = -1;
	io->kt[io->nr_kt++] = kt;
	sim->nr_kthreads++;
	return kt;
}

struct kthread *eevdf__kthread_of(struct eevdf_sim *sim, const struct task *p)
{
	if (!sim->io || p->kthread <= 0 || (size_t)p->kthread > sim->io->nr_kt)
		return NULL;
	return sim->io->kt[p->kthread - 1];
}

int eevdf__kthread_idle(struct eevdf_sim *sim, struct rq *rq,
			struct kthread *kt)
{
	return eevdf__interp_block(sim, rq, kt->task, WAIT_WORK, &kt->idleq, 0);
}

void eevdf__kthread_wake(struct eevdf_sim *sim, struct kthread *kt)
{
	struct task *p = kt->task;

	if (p->state != TASK_SLEEPING || p->wait_kind != WAIT_WORK)
		return;
	eevdf__waitq_remove(&kt->idleq, p);
	eevdf__interp_wake(sim, sim->io->current, p);
}

int eevdf__kthread_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			const struct pop *op)
{
	struct io *io = sim->io;
	struct kthread *kt;
	struct task *saved;
	int r = 0;

	if (!io || op->a.c < 0 || (size_t)op->a.c >= io->nr_kt)
		return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
					  "not a kernel thread");
	kt = io->kt[op->a.c];
	/* woken: back to work */
	if (p->op_phase == PH_WAIT)
		p->op_phase = PH_ACT;
	saved = io->current;
	io->current = p;
	switch (kt->kind) {
	case KT_WORKER:
		r = eevdf__worker_exec(sim, rq, kt);
		break;
	case KT_KSOFTIRQD:
		r = eevdf__ksoftirqd_exec(sim, rq, kt);
		break;
	case KT_JBD2:
		r = eevdf__jbd2_exec(sim, rq, kt);
		break;
	}
	io->current = saved;
	/* a kernel thread's loop never ends */
	return r == R_NEXT ? R_AGAIN : r;
}
