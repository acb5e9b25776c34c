/* SPDX-License-Identifier: MIT */
/*
 * The program interpreter and the workload objects, driven by programs
 * built directly in C: semaphore hand-off, latches, mutex FIFO order,
 * channels with their costs (the pipe ping-pong round trip), end of file,
 * join, if / choose, and deadlock detection.
 */
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "engine/expr.h"
#include "engine/metrics.h"
#include "engine/sim.h"

#define US 1000LL
#define MS 1000000LL
#define SEC_NS 1000000000LL

/* A program under construction. */
struct pb {
	struct program *prog;
	u32 cap;
};

static void pb_init(struct pb *b)
{
	b->prog = calloc(1, sizeof(*b->prog));
	ck_assert_ptr_nonnull(b->prog);
	b->prog->refs = 1;
	b->cap = 0;
}

static struct pop *pb_op(struct pb *b, enum popcode code)
{
	struct program *p = b->prog;
	struct pop *op;

	if (p->nr_ops == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		p->ops = realloc(p->ops, b->cap * sizeof(*p->ops));
		ck_assert_ptr_nonnull(p->ops);
	}
	op = &p->ops[p->nr_ops++];
	memset(op, 0, sizeof(*op));
	op->code = code;
	op->slot = NO_SLOT;
	op->obj.idx = OBJ_NONE;
	op->obj2.idx = OBJ_NONE;
	return op;
}

static void cval(struct pval *v, s64 c)
{
	v->kind = PV_CONST;
	v->c = c;
}

static struct pop *pb_objop(struct pb *b, enum popcode code, int obj)
{
	struct pop *op = pb_op(b, code);

	op->obj.idx = obj;
	return op;
}

static struct pop *pb_run(struct pb *b, s64 ns)
{
	struct pop *op = pb_op(b, P_RUN);

	cval(&op->a, ns);
	return op;
}

static struct program *pb_done(struct pb *b)
{
	ck_assert_int_eq(eevdf__program_index(b->prog), 0);
	return b->prog;
}

static eevdf_sim *new_sim(bool costs)
{
	struct eevdf_config cfg;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	if (costs)
		eevdf__costs_default(&sim->sched.costs);
	return sim;
}

static int add(eevdf_sim *sim, const char *name, struct program *prog)
{
	struct eevdf_task_spec s = { .name = name };
	int pid = eevdf__sim_add_task_prog(sim, &s, prog, false, NULL, NULL);

	ck_assert_msg(pid > 0, "%s", eevdf_sim_errmsg(sim));
	return pid;
}

static int add_obj(eevdf_sim *sim, enum obj_type type, const char *name)
{
	struct sim_object *o = calloc(1, sizeof(*o));
	int idx;

	ck_assert_ptr_nonnull(o);
	o->type = type;
	o->name = strdup(name);
	if (type == OBJ_SEM)
		o->u.sem.max = -1;
	idx = eevdf__sim_add_object(sim, o);
	ck_assert_int_ge(idx, 0);
	return idx;
}

static int add_chan(eevdf_sim *sim, const char *name, enum chan_kind kind,
		    u64 capacity, enum writer_wake ww)
{
	int idx = add_obj(sim, OBJ_CHANNEL, name);
	struct obj_channel *ch = &sim->objs[idx]->u.chan;

	ch->kind = kind;
	ch->capacity = capacity;
	ch->writer_wake = ww;
	ch->reader_sync = true;
	return idx;
}

static struct eevdf_task_stats stats(eevdf_sim *sim, int pid)
{
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_task_stats(sim, (size_t)pid - 1, &st), 0);
	return st;
}

/* A post hands the unit to the waiter: it wakes exactly then. */
START_TEST(post_hands_the_unit_to_the_waiter)
{
	eevdf_sim *sim = new_sim(false);
	int sem = add_obj(sim, OBJ_SEM, "s");
	struct pb w, p;
	int wp;

	pb_init(&w);
	pb_objop(&w, P_WAIT, sem);
	pb_run(&w, 1 * MS);
	pb_init(&p);
	pb_op(&p, P_SLEEP);
	cval(&p.prog->ops[0].a, 5 * MS);
	pb_objop(&p, P_POST, sem);
	wp = add(sim, "waiter", pb_done(&w));
	add(sim, "poster", pb_done(&p));
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 6 * MS);
	ck_assert_int_eq(stats(sim, wp).sleep_ns, 5 * MS);
	ck_assert_int_eq(sim->objs[sem]->u.sem.count, 0);
	eevdf_sim_free(sim);
}
END_TEST

/* A post before the wait is remembered (a semaphore has memory). */
START_TEST(early_post_is_not_lost)
{
	eevdf_sim *sim = new_sim(false);
	int sem = add_obj(sim, OBJ_SEM, "s");
	struct pb w, p;
	int wp;

	pb_init(&p);
	pb_objop(&p, P_POST, sem);
	pb_init(&w);
	pb_run(&w, 2 * MS);
	pb_objop(&w, P_WAIT, sem);
	add(sim, "poster", pb_done(&p));
	wp = add(sim, "waiter", pb_done(&w));
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(stats(sim, wp).sleep_ns, 0);
	eevdf_sim_free(sim);
}
END_TEST

/* A latch set once lets every waiter, present and future, through. */
START_TEST(latch_releases_everyone)
{
	eevdf_sim *sim = new_sim(false);
	int go = add_obj(sim, OBJ_LATCH, "go");
	static const char *const names[] = { "w0", "w1", "w2" };
	struct pb w[3], s;

	for (int i = 0; i < 3; i++) {
		pb_init(&w[i]);
		pb_objop(&w[i], P_WAIT, go);
		pb_run(&w[i], 1 * MS);
		add(sim, names[i], pb_done(&w[i]));
	}
	pb_init(&s);
	pb_run(&s, 3 * MS);
	pb_objop(&s, P_SET, go);
	add(sim, "setter", pb_done(&s));
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	/* 3 ms of setter, then 3 x 1 ms of waiters */
	ck_assert_int_eq(eevdf_sim_now(sim), 6 * MS);
	for (int i = 1; i <= 3; i++)
		ck_assert_int_eq(stats(sim, i).cpu_ns, 1 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* Mutex waiters get the lock in arrival order (FIFO hand-off). */
START_TEST(mutex_hands_off_in_fifo_order)
{
	eevdf_sim *sim = new_sim(false);
	int m = add_obj(sim, OBJ_MUTEX, "m");
	static const char *const names[] = { "holder", "a", "b", "c" };

	for (int i = 0; i < 4; i++) {
		struct pb b;

		pb_init(&b);
		pb_run(&b, (s64)(i + 1) * 100 * US);
		pb_objop(&b, P_LOCK, m);
		pb_run(&b, 2 * MS);
		pb_objop(&b, P_UNLOCK, m);
		add(sim, names[i], pb_done(&b));
	}
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	/* each held the lock 2 ms in turn; the last leaves at ~8 ms */
	ck_assert_int_eq(stats(sim, 4).sleep_ns + stats(sim, 4).wait_ns +
				 stats(sim, 4).cpu_ns,
			 eevdf_sim_now(sim));
	ck_assert_int_lt(stats(sim, 2).sleep_ns, stats(sim, 3).sleep_ns);
	ck_assert_int_lt(stats(sim, 3).sleep_ns, stats(sim, 4).sleep_ns);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * perf bench sched pipe on one CPU with the default costs, nothing idle,
 * so N round trips take N x (the CPU cost of one).
 *
 * With NO_WAKEUP_PREEMPTION each side blocks in read() every time: a round
 * trip is 2 x (pipe_write + ttwu + pipe_read + process switch) =
 * 2 x (0.25 + 0.30 + 0.30 + 0.55) us = 2.8 us, the anchor of workloads.md
 * section 10.  With wakeup preemption the wakee, back with positive lag,
 * is placed before V, the waker becomes ineligible and is preempted inside
 * its write; when it runs again its reply is already there, so only one
 * side blocks and wakes per round trip: 2 x 0.25 + 2 x 0.30 + 0.30 +
 * 2 x 0.55 = 2.5 us, and the waker is preempted once per round trip.
 */
START_TEST(pipe_ping_pong_round_trip_is_the_sum_of_its_costs)
{
	static const char *const feats[] = { NULL, "NO_WAKEUP_PREEMPTION" };
	static const s64 per_trip[] = { 2500, 2800 };
	const s64 loops = 10000;

	for (int k = 0; k < 2; k++) {
		struct eevdf_config cfg;
		eevdf_sim *sim;
		int p1, p2;
		struct pb t0, t1;
		struct pop *op;
		eevdf_time t;

		eevdf_config_init(&cfg);
		if (feats[k])
			eevdf_config_set_features(&cfg, feats[k], NULL, 0);
		ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
		eevdf__costs_default(&sim->sched.costs);
		p1 = add_chan(sim, "p1", CHAN_PIPE, 65536,
			      WW_SLOT_FREED_IF_FULL);
		p2 = add_chan(sim, "p2", CHAN_PIPE, 65536,
			      WW_SLOT_FREED_IF_FULL);
		pb_init(&t0);
		op = pb_op(&t0, P_LOOP);
		cval(&op->a, loops);
		op->len = 2;
		op = pb_objop(&t0, P_RECV, p1);
		cval(&op->a, 4);
		op = pb_objop(&t0, P_SEND, p2);
		cval(&op->a, 4);
		pb_init(&t1);
		op = pb_op(&t1, P_LOOP);
		cval(&op->a, loops);
		op->len = 2;
		op = pb_objop(&t1, P_SEND, p1);
		cval(&op->a, 4);
		op = pb_objop(&t1, P_RECV, p2);
		cval(&op->a, 4);
		add(sim, "t0", pb_done(&t0));
		add(sim, "t1", pb_done(&t1));
		ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
		ck_assert(eevdf_sim_done(sim));
		/* less the two exits at the end */
		t = eevdf_sim_now(sim) - 2 * (eevdf_time)sim->sched.costs.exit;
		ck_assert_msg(llabs(t - loops * per_trip[k]) < 5 * US,
			      "%lld ns for %lld round trips", (long long)t,
			      (long long)loops);
		ck_assert_uint_eq(sim->objs[p1]->u.chan.msgs_total, (u64)loops);
		if (k == 0)
			ck_assert_uint_eq(stats(sim, 1).involuntary,
					  (u64)loops);
		else
			ck_assert_uint_eq(stats(sim, 1).involuntary, 0);
		eevdf_sim_free(sim);
	}
}
END_TEST

/* A reader of a channel whose writers all exited sees end of file. */
START_TEST(reader_sees_eof_when_writers_exit)
{
	eevdf_sim *sim = new_sim(false);
	int ch = add_chan(sim, "c", CHAN_UNIX_STREAM, 212992, WW_QUARTER_FREE);
	struct pb r, w;
	struct pop *op;
	int rp;

	pb_init(&r);
	op = pb_op(&r, P_LOOP);
	cval(&op->a, 4);
	op->len = 1;
	op = pb_objop(&r, P_RECV, ch);
	cval(&op->a, 100);
	op->flags = RECV_EXACT;
	op->slot = 0;
	r.prog->nr_locals = 1;
	pb_init(&w);
	op = pb_op(&w, P_LOOP);
	cval(&op->a, 3);
	op->len = 1;
	op = pb_objop(&w, P_SEND, ch);
	cval(&op->a, 100);
	rp = add(sim, "reader", pb_done(&r));
	add(sim, "writer", pb_done(&w));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	/* three messages, then the fourth recv returns EOF (status 3) */
	ck_assert_int_eq(sim->sched.tasks[rp - 1]->locals[0], 3);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A write end is held from the start, not from the first write: a writer
 * that exits before another has written must not end the reader's file
 * (found by hackbench, whose receivers stopped early).
 */
START_TEST(eof_waits_for_writers_that_have_not_written_yet)
{
	eevdf_sim *sim = new_sim(false);
	int ch = add_chan(sim, "c", CHAN_UNIX_STREAM, 212992, WW_QUARTER_FREE);
	struct pb r, a, b;
	struct pop *op;
	int rp;

	pb_init(&r);
	op = pb_objop(&r, P_RECV, ch);
	cval(&op->a, 100);
	op->flags = RECV_EXACT;
	op->slot = 0;
	op = pb_objop(&r, P_RECV, ch);
	cval(&op->a, 100);
	op->flags = RECV_EXACT;
	op->slot = 1;
	r.prog->nr_locals = 2;
	pb_init(&a);
	op = pb_objop(&a, P_SEND, ch);
	cval(&op->a, 100);
	pb_init(&b);
	op = pb_op(&b, P_SLEEP);
	cval(&op->a, 5 * MS);
	op = pb_objop(&b, P_SEND, ch);
	cval(&op->a, 100);
	rp = add(sim, "reader", pb_done(&r));
	add(sim, "a", pb_done(&a));
	add(sim, "b", pb_done(&b));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	/* both reads got a message (status OK = 0), the second at 5 ms */
	ck_assert_int_eq(sim->sched.tasks[rp - 1]->locals[0], 0);
	ck_assert_int_eq(sim->sched.tasks[rp - 1]->locals[1], 0);
	ck_assert_int_eq(eevdf_sim_now(sim), 5 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* join waits for every task of its set. */
START_TEST(join_waits_for_the_whole_set)
{
	eevdf_sim *sim = new_sim(false);
	struct pb m, c1, c2;
	struct pop *op;
	u32 set[2] = { 2, 3 };
	int js;

	js = eevdf__sim_add_join_set(sim, set, 2);
	ck_assert_int_eq(js, 0);
	pb_init(&m);
	op = pb_op(&m, P_JOIN);
	cval(&op->a, js);
	pb_run(&m, 1 * MS);
	pb_init(&c1);
	pb_op(&c1, P_SLEEP);
	cval(&c1.prog->ops[0].a, 3 * MS);
	pb_init(&c2);
	pb_op(&c2, P_SLEEP);
	cval(&c2.prog->ops[0].a, 7 * MS);
	add(sim, "main", pb_done(&m));
	add(sim, "c1", pb_done(&c1));
	add(sim, "c2", pb_done(&c2));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 8 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* Nothing left to happen while tasks wait: a deadlock, named. */
START_TEST(deadlock_names_the_blocked_tasks)
{
	eevdf_sim *sim = new_sim(false);
	int sem = add_obj(sim, OBJ_SEM, "never");
	struct pb w;

	pb_init(&w);
	pb_run(&w, 1 * MS);
	pb_objop(&w, P_WAIT, sem);
	add(sim, "stuck", pb_done(&w));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), EEVDF_EDEADLOCK);
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "stuck"));
	ck_assert_ptr_nonnull(strstr(eevdf_sim_errmsg(sim), "never"));
	eevdf_sim_free(sim);
}
END_TEST

/*
 * if and choose: a counted loop runs `if @i % 2 == 0` style logic through
 * constants here; choose with weights 1 : 3 over 4000 draws takes the
 * second branch about 3000 times (exactly, for this seed, the same count
 * twice).
 */
START_TEST(choose_follows_weights_and_is_repeatable)
{
	s64 counts[2];

	for (int k = 0; k < 2; k++) {
		eevdf_sim *sim = new_sim(false);
		int c = eevdf__sim_add_metric(sim, "branch", MET_COUNTER,
					      EEVDF_HIST_EXACT, false, false,
					      false);
		struct pb b;
		struct pop *op;

		pb_init(&b);
		op = pb_op(&b, P_LOOP);
		cval(&op->a, 4000);
		op->len = 6;
		op = pb_op(&b, P_CHOOSE);
		op->len = 4;
		op = pb_op(&b, P_BRANCH);
		cval(&op->a, 1);
		op->len = 1;
		op->len2 = 2;
		pb_run(&b, 1 * US);
		op = pb_op(&b, P_BRANCH);
		cval(&op->a, 3);
		op->len = 1;
		op = pb_op(&b, P_COUNT);
		op->slot = (u32)c;
		pb_run(&b, 1 * US);
		add(sim, "chooser", pb_done(&b));
		ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
		ck_assert(eevdf_sim_done(sim));
		counts[k] = sim->metrics[c]->all.value;
		{
			char *json, want[64];

			ck_assert_int_eq(eevdf_sim_results_json(sim, &json), 0);
			snprintf(want, sizeof(want), "\"value\":\t%lld",
				 (long long)counts[k]);
			ck_assert_ptr_nonnull(strstr(json, "\"branch\":"));
			ck_assert_ptr_nonnull(strstr(json, want));
			free(json);
		}
		/* 3/4 of 4000 within 5 standard deviations (27) */
		ck_assert_int_gt(counts[k], 3000 - 140);
		ck_assert_int_lt(counts[k], 3000 + 140);
		/* the second branch's count ops plus every loop's 1 us run */
		ck_assert_int_eq(stats(sim, 1).cpu_ns,
				 (4000 - counts[k]) * US + 4000 * US);
		eevdf_sim_free(sim);
	}
	ck_assert_int_eq(counts[0], counts[1]);
}
END_TEST

/*
 * A signal interrupts an interruptible sleep (status EINTR), its handler
 * runs before the next op, and a terminating signal without a handler
 * ends its target.
 */
START_TEST(signal_interrupts_sleep_and_runs_the_handler)
{
	eevdf_sim *sim = new_sim(false);
	int hits = eevdf__sim_add_metric(sim, "hits", MET_COUNTER,
					 EEVDF_HIST_EXACT, false, false, false);
	struct pb par, chi, vic;
	struct pop *op;
	int pp, vp;

	/* parent: sleep 10 s (interruptible) -> @0; on USR1: count hits */
	pb_init(&par);
	op = pb_op(&par, P_SLEEP);
	cval(&op->a, 10000 * MS);
	op->flags = SLEEP_INTR;
	op->slot = 0;
	par.prog->nr_locals = 1;
	par.prog->main_ops = 1;
	par.prog->handler[SIGNO_USR1] = 1 + 1;
	op = pb_op(&par, P_COUNT);
	op->slot = (u32)hits;
	pb_op(&par, P_SIGRETURN);
	/* child: run 5 ms, signal the parent (pid 1) and the victim (3) */
	pb_init(&chi);
	pb_run(&chi, 5 * MS);
	op = pb_op(&chi, P_SIGNAL);
	cval(&op->a, SIGNO_USR1);
	op->obj.task_pid = 1;
	op = pb_op(&chi, P_SIGNAL);
	cval(&op->a, SIGNO_TERM);
	op->obj.task_pid = 3;
	/* victim: sleeps interruptibly for ever, has no handler */
	pb_init(&vic);
	op = pb_op(&vic, P_SLEEP);
	cval(&op->a, 10000 * MS);
	op->flags = SLEEP_INTR;
	pp = add(sim, "parent", pb_done(&par));
	add(sim, "child", pb_done(&chi));
	vp = add(sim, "victim", pb_done(&vic));
	ck_assert_int_eq(eevdf_sim_run(sim, 20000 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	/* the child's 5 ms of work, shared with nobody once both sleep */
	ck_assert_int_eq(eevdf_sim_now(sim), 5 * MS);
	ck_assert_int_eq(sim->sched.tasks[pp - 1]->locals[0], 2 /* EINTR */);
	ck_assert_int_eq(sim->metrics[hits]->all.value, 1);
	ck_assert_int_eq(stats(sim, vp).state, EEVDF_TASK_DEAD);
	/* the victim got the CPU once, went to sleep, and was killed */
	ck_assert_int_gt(stats(sim, vp).sleep_ns, 0);
	ck_assert_int_lt(stats(sim, vp).sleep_ns, 5 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/* spawn + join children: fork/wait loops, a child at a time. */
START_TEST(spawn_and_join_children_loop)
{
	eevdf_sim *sim = new_sim(false);
	struct pb par, chi;
	struct pop *op;
	struct eevdf_task_spec tspec = { .name = NULL };
	int tmpl;

	pb_init(&chi);
	pb_run(&chi, 10 * US);
	tmpl = eevdf__sim_add_template(sim, "child", &tspec, pb_done(&chi),
				       false);
	ck_assert_int_eq(tmpl, 0);
	pb_init(&par);
	op = pb_op(&par, P_LOOP);
	cval(&op->a, 100);
	op->len = 2;
	op = pb_op(&par, P_SPAWN);
	cval(&op->a, tmpl);
	op = pb_op(&par, P_JOIN);
	cval(&op->a, JOIN_CHILDREN);
	add(sim, "spawner", pb_done(&par));
	ck_assert_int_eq(eevdf_sim_run(sim, 1000 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 101);
	ck_assert_int_eq(eevdf_sim_now(sim), 100 * 10 * US);
	ck_assert_str_eq(sim->sched.tasks[100]->name, "child[99]");
	ck_assert_int_eq(sim->sched.tasks[0]->live_children, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Exited tasks are compacted into their records: a fork/exit loop holds a
 * bounded number of whole tasks, and every pid's row stays exact.
 */
START_TEST(exited_tasks_are_compacted_and_their_rows_stay_exact)
{
	eevdf_sim *sim = new_sim(false);
	struct pb par, chi;
	struct pop *op;
	struct eevdf_task_spec tspec = { .name = NULL };
	size_t whole, most = 0;
	int ret;

	pb_init(&chi);
	pb_run(&chi, 10 * US);
	eevdf__sim_add_template(sim, "child", &tspec, pb_done(&chi), false);
	pb_init(&par);
	op = pb_op(&par, P_LOOP);
	cval(&op->a, 3000);
	op->len = 2;
	op = pb_op(&par, P_SPAWN);
	cval(&op->a, 0);
	op = pb_op(&par, P_JOIN);
	cval(&op->a, JOIN_CHILDREN);
	add(sim, "spawner", pb_done(&par));
	while ((ret = eevdf_sim_step(sim)) == 1) {
		whole = eevdf__sim_nr_whole_tasks(sim);
		most = whole > most ? whole : most;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert(eevdf_sim_done(sim));
	/* every op costs nothing: the children's 10 us back to back */
	ck_assert_int_eq(eevdf_sim_now(sim), 3000 * 10 * US);
	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 3001);
	ck_assert_uint_eq(sim->nr_exited, 3001);
	/*
	 * At most two tasks live at once (the spawner and one child), and the
	 * last EXITS_KEPT_WHOLE exits stay whole: the most is reached at each
	 * child's start once EXITS_KEPT_WHOLE tasks have exited.  At the end
	 * all 3001 have exited and only the last EXITS_KEPT_WHOLE are whole.
	 */
	ck_assert_uint_eq(most, 2 + EXITS_KEPT_WHOLE);
	ck_assert_uint_eq(eevdf__sim_nr_whole_tasks(sim), EXITS_KEPT_WHOLE);
	ck_assert_ptr_null(sim->sched.tasks[1]);
	ck_assert_ptr_nonnull(sim->sched.tasks[3000]);
	/*
	 * child[k] (pid k + 2) starts when child[k - 1] exits, at k * 10 us,
	 * on the idle CPU at once (a delay of 0), runs its 10 us and is
	 * switched out once, dead; compacted or whole, its row says so.
	 */
	for (int k = 0; k < 3000; k++) {
		struct eevdf_task_stats st = stats(sim, k + 2);
		char name[24];

		snprintf(name, sizeof(name), "child[%d]", k);
		ck_assert_str_eq(st.name, name);
		ck_assert_int_eq(st.pid, k + 2);
		ck_assert_int_eq(st.state, EEVDF_TASK_DEAD);
		ck_assert_int_eq(st.cpu, 0);
		ck_assert_int_eq(st.nice, 0);
		ck_assert_int_eq(st.cpu_ns, 10 * US);
		ck_assert_int_eq(st.wait_ns, 0);
		ck_assert_int_eq(st.sleep_ns, 0);
		ck_assert_uint_eq(st.voluntary, 1);
		ck_assert_uint_eq(st.involuntary, 0);
		ck_assert_uint_eq(st.delay_count, 1);
		ck_assert_int_eq(st.delay_sum_ns, 0);
		ck_assert_int_eq(st.delay_max_at, k * 10 * US);
	}
	/* the spawner blocked in each of its 3000 joins, then exited */
	ck_assert_uint_eq(stats(sim, 1).voluntary, 3001);
	ck_assert_int_eq(stats(sim, 1).cpu_ns, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A parent that exits before its children start stays whole until the
 * last has started (the start reads its parent), however many exits
 * come in between.
 */
START_TEST(a_parent_stays_whole_until_its_children_have_started)
{
	eevdf_sim *sim = new_sim(false);
	struct pb par, chi;
	struct pop *op;
	struct eevdf_task_spec tspec = { .name = NULL };
	size_t seen = 0;
	int ret;

	pb_init(&chi);
	pb_op(&chi, P_EXIT);
	eevdf__sim_add_template(sim, "child", &tspec, pb_done(&chi), false);
	pb_init(&par);
	op = pb_op(&par, P_SPAWN);
	cval(&op->a, 0);
	cval(&op->b, 200);
	add(sim, "parent", pb_done(&par));
	while ((ret = eevdf_sim_step(sim)) == 1) {
		size_t unstarted = 0;

		for (size_t i = 1; i < sim->sched.nr_tasks; i++)
			unstarted += sim->sched.tasks[i] &&
				     sim->sched.tasks[i]->state == TASK_NEW;
		ck_assert(!unstarted || sim->sched.tasks[0]);
		if (sim->sched.tasks[0])
			seen = sim->nr_exited;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert(eevdf_sim_done(sim));
	/*
	 * All at time 0: the parent spawns 200 and exits, then each child's
	 * start runs it to its exit at once.  After child[198]'s, 1 + 199
	 * tasks have exited and child[199] is still to start: the parent is
	 * whole, long past the EXITS_KEPT_WHOLE exits.  child[199]'s start
	 * releases it.  The last EXITS_KEPT_WHOLE exits are children.
	 */
	ck_assert_int_eq(eevdf_sim_now(sim), 0);
	ck_assert_uint_eq(seen, 200);
	ck_assert_ptr_null(sim->sched.tasks[0]);
	ck_assert_uint_eq(eevdf__sim_nr_whole_tasks(sim), EXITS_KEPT_WHOLE);
	ck_assert_str_eq(stats(sim, 1).name, "parent");
	ck_assert_int_eq(stats(sim, 1).state, EEVDF_TASK_DEAD);
	ck_assert_uint_eq(stats(sim, 1).voluntary, 1);
	ck_assert_str_eq(stats(sim, 201).name, "child[199]");
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A compacted task's own semaphore works on: a count posted before the
 * compaction is kept, and one that was as new is made again when named.
 */
START_TEST(a_compacted_tasks_semaphore_keeps_its_count)
{
	eevdf_sim *sim = new_sim(false);
	struct pb b;
	struct pop *op;
	char name[16];

	for (int i = 0; i < 2; i++) {
		pb_init(&b);
		pb_op(&b, P_EXIT);
		add(sim, i ? "fresh" : "kept", pb_done(&b));
	}
	/* pid 3: posts kept.self at 0, fresh.self at 1 ms */
	pb_init(&b);
	pb_op(&b, P_POST)->obj.task_pid = 1;
	op = pb_op(&b, P_SLEEP);
	cval(&op->a, 1 * MS);
	pb_op(&b, P_POST)->obj.task_pid = 2;
	add(sim, "poster", pb_done(&b));
	for (int i = 0; i < EXITS_KEPT_WHOLE; i++) {
		pb_init(&b);
		pb_op(&b, P_EXIT);
		snprintf(name, sizeof(name), "f%d", i);
		add(sim, name, pb_done(&b));
	}
	/* at 2 ms, takes both counts: without them it would wait for ever */
	pb_init(&b);
	op = pb_op(&b, P_SLEEP);
	cval(&op->a, 2 * MS);
	pb_op(&b, P_WAIT)->obj.task_pid = 1;
	pb_op(&b, P_WAIT)->obj.task_pid = 2;
	add(sim, "waiter", pb_done(&b));
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 2 * MS);
	/*
	 * kept and fresh exit first at 0, then the fillers: the 65th and
	 * 66th exits push them out of the EXITS_KEPT_WHOLE, kept holding the
	 * count the poster gave it, fresh as new.
	 */
	ck_assert_ptr_null(sim->sched.tasks[0]);
	ck_assert_ptr_null(sim->sched.tasks[1]);
	ck_assert_ptr_nonnull(eevdf__sim_rec(sim, 1)->self);
	ck_assert_ptr_nonnull(eevdf__sim_rec(sim, 2)->self);
	ck_assert_int_eq(eevdf__sim_rec(sim, 1)->self->u.sem.count, 0);
	ck_assert_int_eq(eevdf__sim_rec(sim, 2)->self->u.sem.count, 0);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A waker whose wakeup is on its way to another LLC's wake list stays
 * whole until it lands (the landing may read the waker), though it
 * exits and is pushed out of the EXITS_KEPT_WHOLE before that.
 */
START_TEST(a_waker_stays_whole_until_its_remote_wakeup_lands)
{
	static const int cpu0[] = { 0 }, cpu1[] = { 1 };
	struct eevdf_machine_spec ms = { .name = "2llc",
					 .packages = 1,
					 .llcs_per_package = 2,
					 .cores_per_llc = 1,
					 .threads_per_core = 1 };
	struct eevdf_task_spec s = { .name = "w", .cpus = cpu1, .nr_cpus = 1 };
	struct eevdf_smp_stats ss;
	struct eevdf_config cfg;
	eevdf_machine *m;
	eevdf_sim *sim;
	struct pb b;
	char name[16];
	bool seen = false;
	int sem, ret;

	ck_assert_int_eq(eevdf_machine_new(&ms, &m, NULL, 0), 0);
	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	memset(&sim->sched.costs, 0, sizeof(sim->sched.costs));
	sim->sched.costs.ipi = 5 * US;
	sim->sched.costs.idle_exit = 5 * US;
	sem = add_obj(sim, OBJ_SEM, "s");
	/* pid 1 on CPU 1 waits; pid 2 on CPU 0 posts and exits */
	pb_init(&b);
	pb_objop(&b, P_WAIT, sem);
	ck_assert_int_eq(eevdf__sim_add_task_prog(sim, &s, pb_done(&b), false,
						  NULL, NULL),
			 1);
	s.cpus = cpu0;
	s.name = "t";
	s.start = 1;
	pb_init(&b);
	pb_objop(&b, P_POST, sem);
	ck_assert_int_eq(eevdf__sim_add_task_prog(sim, &s, pb_done(&b), false,
						  NULL, NULL),
			 2);
	for (int i = 0; i < EXITS_KEPT_WHOLE; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		s.name = name;
		pb_init(&b);
		pb_op(&b, P_EXIT);
		ck_assert_int_gt(eevdf__sim_add_task_prog(sim, &s, pb_done(&b),
							  false, NULL, NULL),
				 0);
	}
	while ((ret = eevdf_sim_step(sim)) == 1) {
		const struct task *w = sim->sched.tasks[0];
		const struct task *t = sim->sched.tasks[1];

		if (w && w->state == TASK_WAKING) {
			ck_assert_ptr_nonnull(t);
			seen = seen || t->reapable;
		}
	}
	ck_assert_int_eq(ret, 0);
	ck_assert(eevdf_sim_done(sim));
	/*
	 * The poster starts at 1 ns on CPU 0, idle since 0, so it runs after
	 * CPU 0's 5 us exit latency.  Its post sends the wakeup to CPU 1's
	 * wake list (another LLC), the poster exits, then the 64 fillers on
	 * CPU 0: the 65th exit pushes the poster out while the wakeup is on
	 * its way.  CPU 1 is idle too: the wakeup reaches it after another
	 * 5 us of exit latency; the waiter runs and exits then, and the
	 * poster is compacted.
	 */
	ck_assert(seen);
	ck_assert_int_eq(eevdf_sim_now(sim), 2 * 5 * US + 1);
	ck_assert_int_eq(eevdf_sim_smp_stats(sim, &ss), 0);
	ck_assert_uint_eq(ss.wakeups_remote, 1);
	ck_assert_ptr_null(sim->sched.tasks[1]);
	ck_assert_str_eq(stats(sim, 2).name, "t");
	ck_assert_uint_eq(eevdf__sim_nr_whole_tasks(sim), EXITS_KEPT_WHOLE);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

/*
 * Objects that hold a task keep it whole after it exits: a mutex it
 * still owns (the owner is compared by address) for ever, a list it is
 * on until a wake_list takes it off (and writes to it).
 */
START_TEST(objects_that_hold_an_exited_task_keep_it_whole)
{
	eevdf_sim *sim = new_sim(false);
	int mtx = add_obj(sim, OBJ_MUTEX, "m");
	int list = add_obj(sim, OBJ_LIST, "l");
	struct pb b;
	struct pop *op;
	char name[16];
	bool checked = false;
	int ret;

	pb_init(&b);
	pb_objop(&b, P_LOCK, mtx);
	add(sim, "owner", pb_done(&b));
	pb_init(&b);
	pb_objop(&b, P_PUSH, list);
	add(sim, "member", pb_done(&b));
	for (int i = 0; i < EXITS_KEPT_WHOLE; i++) {
		pb_init(&b);
		pb_op(&b, P_EXIT);
		snprintf(name, sizeof(name), "f%d", i);
		add(sim, name, pb_done(&b));
	}
	pb_init(&b);
	op = pb_op(&b, P_SLEEP);
	cval(&op->a, 1 * MS);
	pb_objop(&b, P_WAKE_LIST, list);
	add(sim, "waker", pb_done(&b));
	while ((ret = eevdf_sim_step(sim)) == 1) {
		/* the 65th and 66th exits at 0 push owner and member out */
		if (eevdf_sim_now(sim) < 1 * MS &&
		    sim->nr_exited == 2 + EXITS_KEPT_WHOLE) {
			ck_assert(sim->sched.tasks[0]->reapable);
			ck_assert(sim->sched.tasks[1]->reapable);
			checked = true;
		}
	}
	ck_assert(checked);
	ck_assert_int_eq(ret, 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 1 * MS);
	/* the wake_list at 1 ms took member off the list: it is compacted,
	 * its semaphore kept with the count the wake posted */
	ck_assert_ptr_nonnull(sim->sched.tasks[0]);
	ck_assert_ptr_null(sim->sched.tasks[1]);
	ck_assert_int_eq(eevdf__sim_rec(sim, 2)->self->u.sem.count, 1);
	/* the owner, and the last EXITS_KEPT_WHOLE exits */
	ck_assert_uint_eq(eevdf__sim_nr_whole_tasks(sim), 1 + EXITS_KEPT_WHOLE);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * An if whose condition is a constant is folded away: the branch it
 * always takes stays in its place, the other goes, and every length,
 * the main program's end and the handlers' starts follow.
 */
START_TEST(constant_conditions_are_folded_into_the_branch_they_take)
{
	eevdf_sim *sim = new_sim(false);
	struct program *prog;
	struct pb b;
	struct pop *op;
	int pid;

	/*
	 * 0 loop 2 [ 1 if 1 [ 2 run 1 ms ] else [ 3 run 9 ms ]
	 *            4 if 0 [ 5 run 7 ms ] ]
	 * 6 run 2 ms;  7 if 0 [ 8 run 5 ms ] 9 sigreturn  (SIGUSR1's handler)
	 */
	pb_init(&b);
	op = pb_op(&b, P_LOOP);
	cval(&op->a, 2);
	op->len = 5;
	op = pb_op(&b, P_IF);
	cval(&op->a, 1);
	op->len = 1;
	op->len2 = 1;
	pb_run(&b, 1 * MS);
	pb_run(&b, 9 * MS);
	op = pb_op(&b, P_IF);
	cval(&op->a, 0);
	op->len = 1;
	pb_run(&b, 7 * MS);
	pb_run(&b, 2 * MS);
	b.prog->main_ops = 7;
	op = pb_op(&b, P_IF);
	cval(&op->a, 0);
	op->len = 1;
	pb_run(&b, 5 * MS);
	pb_op(&b, P_SIGRETURN);
	b.prog->handler[SIGNO_USR1] = 1 + 7;
	prog = pb_done(&b);
	ck_assert_int_eq(eevdf__program_fold(prog), 0);
	/* 0 loop 2 [ 1 run 1 ms ] 2 run 2 ms;  3 sigreturn */
	ck_assert_uint_eq(prog->nr_ops, 4);
	ck_assert_int_eq(prog->ops[0].code, P_LOOP);
	ck_assert_uint_eq(prog->ops[0].len, 1);
	ck_assert_int_eq(prog->ops[1].code, P_RUN);
	ck_assert_int_eq(prog->ops[1].a.c, 1 * MS);
	ck_assert_int_eq(prog->ops[2].code, P_RUN);
	ck_assert_int_eq(prog->ops[2].a.c, 2 * MS);
	ck_assert_int_eq(prog->ops[3].code, P_SIGRETURN);
	ck_assert_uint_eq(prog->main_ops, 3);
	ck_assert_uint_eq(prog->handler[SIGNO_USR1], 1 + 3);
	/* the loop closes at 2 (closer rebuilt), then the task exits */
	ck_assert_uint_eq(prog->closer[2], 0);
	/* it runs what the branches taken run: 2 x 1 ms + 2 ms */
	pid = add(sim, "folded", prog);
	ck_assert_int_eq(eevdf_sim_run(sim, SEC_NS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(stats(sim, pid).cpu_ns, 4 * MS);
	eevdf_sim_free(sim);

	/* an if with its own cost stays; so does one whose fold would leave
	 * a loop with an empty body (0 loop 3 [ 1 if 0 [ 2 run ] ]) */
	pb_init(&b);
	op = pb_op(&b, P_IF);
	cval(&op->a, 1);
	cval(&op->cost, 1 * US);
	op->len = 1;
	pb_run(&b, 1 * MS);
	prog = pb_done(&b);
	ck_assert_int_eq(eevdf__program_fold(prog), 0);
	ck_assert_uint_eq(prog->nr_ops, 2);
	eevdf__program_unref(prog);
	pb_init(&b);
	op = pb_op(&b, P_LOOP);
	cval(&op->a, 3);
	op->len = 2;
	op = pb_op(&b, P_IF);
	cval(&op->a, 0);
	op->len = 1;
	pb_run(&b, 1 * MS);
	prog = pb_done(&b);
	ck_assert_int_eq(eevdf__program_fold(prog), 0);
	ck_assert_uint_eq(prog->nr_ops, 3);
	ck_assert_int_eq(prog->ops[1].code, P_IF);
	eevdf__program_unref(prog);

	/* 0 loop 0 [ 1 run ] 2 run: the loop runs nothing, only 2 stays;
	 * a count of 0 tested after the body (it runs once) stays */
	pb_init(&b);
	op = pb_op(&b, P_LOOP);
	cval(&op->a, 0);
	op->len = 1;
	pb_run(&b, 1 * MS);
	pb_run(&b, 2 * MS);
	op = pb_op(&b, P_LOOP);
	cval(&op->a, 0);
	op->flags = LOOP_CHECK_AFTER;
	op->len = 1;
	pb_run(&b, 3 * MS);
	prog = pb_done(&b);
	ck_assert_int_eq(eevdf__program_fold(prog), 0);
	ck_assert_uint_eq(prog->nr_ops, 3);
	ck_assert_int_eq(prog->ops[0].a.c, 2 * MS);
	ck_assert_int_eq(prog->ops[1].code, P_LOOP);
	ck_assert_uint_eq(prog->ops[1].len, 1);
	eevdf__program_unref(prog);
}
END_TEST

/* "@j" is local slot 5. */
static int resolve_j(void *ud, const char *name, size_t len,
		     struct expr_sym *sym)
{
	(void)ud;
	if (len != 2 || memcmp(name, "@j", 2) != 0)
		return -1;
	sym->kind = EXPR_SYM_LOCAL;
	sym->slot = 5;
	return 0;
}

static const char *name_at(const void *ud, size_t i)
{
	return ((const char *const *)ud)[i];
}

/*
 * A name with one run-time part gets a table from the part's value to the
 * object that value names: exactly the names "%lld" of a value prints.
 */
/*
 * loop 2 [ post (bound 1), post (bound 2), run ].  Two such programs are
 * the same whatever their bound refs name, and each gives its own
 * bindings; an unbound object or an operand that differs makes them two.
 */
static struct program *bound_prog(int sem, int pid, int unbound, s64 ns)
{
	struct pb b;
	struct pop *op;

	pb_init(&b);
	cval(&pb_op(&b, P_LOOP)->a, 2);
	op = pb_objop(&b, P_POST, sem);
	op->obj.bind = 1;
	op = pb_op(&b, P_POST);
	op->obj.task_pid = pid;
	op->obj.bind = 2;
	pb_objop(&b, P_POST, unbound);
	b.prog->ops[0].len = 4;
	pb_run(&b, ns);
	b.prog->nr_binds = 2;
	return pb_done(&b);
}

START_TEST(programs_are_the_same_but_for_what_they_bind)
{
	struct program *a = bound_prog(3, 2, 7, MS);
	struct program *b = bound_prog(4, 5, 7, MS);
	struct program *c = bound_prog(3, 2, 8, MS);
	struct program *d = bound_prog(3, 2, 7, 2 * MS);
	struct program *e = bound_prog(3, 2, 7, MS);
	s32 binds[TASK_BINDS] = { 0 };

	ck_assert(eevdf__program_same(a, b));
	ck_assert(eevdf__program_same(b, a));
	ck_assert(!eevdf__program_same(a, c));
	ck_assert(!eevdf__program_same(a, d));
	eevdf__program_binds(a, binds);
	ck_assert_int_eq(binds[0], 3);
	ck_assert_int_eq(binds[1], -2);
	eevdf__program_binds(b, binds);
	ck_assert_int_eq(binds[0], 4);
	ck_assert_int_eq(binds[1], -5);
	/* a ref bound in one and not in the other, naming the same task */
	ck_assert(eevdf__program_same(a, e));
	e->ops[2].obj.bind = 0;
	ck_assert(!eevdf__program_same(a, e));
	eevdf__program_unref(e);
	eevdf__program_unref(a);
	eevdf__program_unref(b);
	eevdf__program_unref(c);
	eevdf__program_unref(d);
}
END_TEST

START_TEST(a_run_time_name_is_resolved_once_into_a_table)
{
	static const char *const names[] = {
		"s[0]", "s[01]", "s[-0]", "s[-2]",
		"s[x]", "t[1]",	 "s[3]",  "s[]",
	};
	static const char *const sparse[] = { "s[0]", "s[1000]" };
	char open[] = "s[", close[] = "]";
	struct name_part parts[2] = { { open, NULL }, { close, NULL } };
	struct objref r;
	char err[128];

	memset(&r, 0, sizeof(r));
	r.idx = OBJ_NONE;
	r.parts = parts;
	r.nr_parts = 2;
	/* "@j", local slot 5: read straight from the locals when it runs */
	ck_assert_int_eq(eevdf__expr_compile("@j", 2, resolve_j, NULL,
					     &parts[0].expr, err, sizeof(err)),
			 0);
	ck_assert_int_eq(eevdf__objref_resolve_once(&r, name_at, names,
						    ARRAY_SIZE(names)),
			 0);
	/* s[-2] (index 3), s[0] (0) and s[3] (6); "01", "-0", "x" and ""
	 * are not how a value prints, t[1] is another name: -2..3 */
	ck_assert_ptr_nonnull(r.table);
	ck_assert_int_eq(r.table_lo, -2);
	ck_assert_uint_eq(r.table_n, 6);
	ck_assert_int_eq(r.table[0], 3);
	ck_assert_int_eq(r.table[1], -1);
	ck_assert_int_eq(r.table[2], 0);
	ck_assert_int_eq(r.table[3], -1);
	ck_assert_int_eq(r.table[4], -1);
	ck_assert_int_eq(r.table[5], 6);
	ck_assert_uint_eq(r.table_local, 5);
	free(r.table);
	r.table = NULL;

	/* 1001 values for 2 objects: more than 4 * 2 + 64, no table */
	ck_assert_int_eq(eevdf__objref_resolve_once(&r, name_at, sparse, 2), 0);
	ck_assert_ptr_null(r.table);
	/* no object fits (a task's own semaphore, say): none either */
	ck_assert_int_eq(eevdf__objref_resolve_once(&r, name_at, names, 0), 0);
	ck_assert_ptr_null(r.table);
	/* two run-time parts are left to the name lookup */
	r.nr_parts = 1;
	ck_assert_int_eq(eevdf__objref_resolve_once(&r, name_at, names,
						    ARRAY_SIZE(names)),
			 0);
	ck_assert_ptr_null(r.table);
	eevdf__expr_free(parts[0].expr);
}
END_TEST

Suite *program_suite(void)
{
	Suite *s = suite_create("program");
	TCase *tc = tcase_create("objects");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, post_hands_the_unit_to_the_waiter);
	tcase_add_test(tc, early_post_is_not_lost);
	tcase_add_test(tc, latch_releases_everyone);
	tcase_add_test(tc, mutex_hands_off_in_fifo_order);
	tcase_add_test(tc, pipe_ping_pong_round_trip_is_the_sum_of_its_costs);
	tcase_add_test(tc, reader_sees_eof_when_writers_exit);
	tcase_add_test(tc, eof_waits_for_writers_that_have_not_written_yet);
	tcase_add_test(tc, join_waits_for_the_whole_set);
	tcase_add_test(tc, deadlock_names_the_blocked_tasks);
	tcase_add_test(tc, choose_follows_weights_and_is_repeatable);
	tcase_add_test(tc, signal_interrupts_sleep_and_runs_the_handler);
	tcase_add_test(tc, spawn_and_join_children_loop);
	tcase_add_test(tc,
		       exited_tasks_are_compacted_and_their_rows_stay_exact);
	tcase_add_test(tc,
		       a_parent_stays_whole_until_its_children_have_started);
	tcase_add_test(tc, a_compacted_tasks_semaphore_keeps_its_count);
	tcase_add_test(tc, a_waker_stays_whole_until_its_remote_wakeup_lands);
	tcase_add_test(tc, objects_that_hold_an_exited_task_keep_it_whole);
	tcase_add_test(tc, a_run_time_name_is_resolved_once_into_a_table);
	tcase_add_test(tc, programs_are_the_same_but_for_what_they_bind);
	tcase_add_test(
		tc, constant_conditions_are_folded_into_the_branch_they_take);
	suite_add_tcase(s, tc);
	return s;
}
