/* SPDX-License-Identifier: MIT */
/*
 * What the program interpreter (program.c) shares with the code that runs
 * in a task's name without being one of its program's plain ops: the I/O
 * model's system calls and kernel threads (io.h).  An op is re-entered at
 * its phase after every interruption; these are the phases, the results
 * an op returns, and the interpreter's ways to burn CPU, block and wake.
 */
#ifndef EEVDF_INTERP_H
#define EEVDF_INTERP_H

#include "sim.h"

/* A switch case that goes on into the next, for gcc and clang alike. */
#define fallthrough __attribute__((__fallthrough__))

enum phase {
	PH_START = 0, /* nothing done yet */
	PH_COST,      /* burning the op's CPU cost */
	PH_ACT,	      /* cost paid: acting (or running its own burst) */
	PH_WAIT,      /* blocked, or just woken with wake_result */
	PH_RELOCK,    /* block with release: re-taking the mutex */
};

enum wake_result {
	WR_NONE = 0,
	WR_DONE,  /* the waker completed the op for us */
	WR_RETRY, /* the condition may hold now: try again */
	WR_TIMEOUT,
	WR_EINTR, /* a signal interrupted the wait */
};

/* Values of status variables (the OK TIMEOUT EINTR EOF ... constants). */
#define STATUS_OK 0
#define STATUS_TIMEOUT 1
#define STATUS_EINTR 2
#define STATUS_EOF 3
#define STATUS_ENOENT 4
#define STATUS_EEXIST 5
#define STATUS_ENOTEMPTY 6
#define STATUS_EBADF 7

/* Op results (errors are negative EEVDF_E* codes). */
enum {
	R_NEXT = 0,  /* done: go to the next op */
	R_STAY = 1,  /* the task waits: a burst, a block, or it lost the CPU */
	R_AGAIN = 2, /* the op moved to another phase: execute it again */
};

/* An error of p's current op, with what went wrong. */
int eevdf__interp_fail(struct eevdf_sim *sim, struct task *p, int code,
		       const char *what) __attribute__((cold));
/* Evaluate a value of p's program. */
int eevdf__interp_eval(struct eevdf_sim *sim, struct task *p,
		       const struct pval *v, s64 *out);
/* Store v in a status or result variable (NO_SLOT: nowhere). */
void eevdf__interp_store(struct eevdf_sim *sim, struct task *p, u32 slot,
			 u32 flags, s64 v);
/*
 * Burn ns of CPU as the current step of p's op: call it with the step's
 * cost each time the op is entered at that step; R_NEXT once the work is
 * done (the step may act), else R_STAY (or an error) while it runs.
 */
int eevdf__interp_charge(struct eevdf_sim *sim, struct task *p, u64 ns);
/* Sleep on q (NULL: a plain sleep of timeout ns) until woken: R_STAY. */
int eevdf__interp_block(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			enum wait_kind kind, struct waitq *q, s64 timeout);
/* Wake w (blocked by eevdf__interp_block()); waker NULL: an interrupt or
 * a timer.  The waker pays what the wakeup cost its CPU. */
void eevdf__interp_wake(struct eevdf_sim *sim, struct task *waker,
			struct task *w);
/* Build the name of a run-time reference ("blog-{@b}") into buf. */
int eevdf__interp_name(struct eevdf_sim *sim, struct task *p,
		       const struct objref *r, char *buf, size_t len);

#endif
