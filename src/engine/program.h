/* SPDX-License-Identifier: MIT */
/*
 * Task programs and workload objects: the compiled form of a workload file
 * that the engine executes.
 *
 * A program is a flat array of ops.  Structured ops own the ops that follow
 * them: a LOOP the next `len` ops, an IF `len` then-ops followed by `len2`
 * else-ops, a CHOOSE `len` BRANCH ops each owning its own `len` ops.  Values
 * are constants, compiled expressions over task and global variables, or
 * distributions drawn from the task's own random stream.  Objects are
 * referred to by index, or by a name template with run-time parts
 * ("ch[2][@j]") resolved against the sorted object table.
 *
 * The loader (workload.c) builds these; eevdf_sim_add_task() builds them
 * too from the public struct eevdf_op.  The engine never changes them, so
 * count-expanded tasks share one program, and so do instances that differ
 * only in the objects they name (struct objref's bind).
 */
#ifndef EEVDF_PROGRAM_H
#define EEVDF_PROGRAM_H

#include "lib/internal.h"

struct expr;
struct eevdf_dist;

enum pval_kind {
	PV_NONE = 0, /* absent (an optional operand) */
	PV_CONST,
	PV_EXPR,
	PV_DIST,
};

struct pval {
	enum pval_kind kind;
	/* PV_EXPR: the expression's enum expr_form, read without a call
	 * (EXPR_FORM_NONE: evaluate it), with the slot of the local it
	 * reads and c its constant (eevdf__expr_form()) */
	uint8_t form;
	u32 slot;
	s64 c;
	struct expr *expr;	 /* PV_EXPR, owned by the program */
	struct eevdf_dist *dist; /* PV_DIST, owned by the program */
};

/* A piece of a run-time object name: literal text, then an expression. */
struct name_part {
	char *text;
	struct expr *expr; /* NULL for the last piece */
};

#define OBJ_NONE (-1)
#define OBJ_SELF (-2) /* the executing task's own binary semaphore */

struct objref {
	s32 idx;		 /* >= 0, OBJ_SELF, or OBJ_NONE when dynamic */
	s32 task_pid;		 /* > 0: the own semaphore of that task */
	struct name_part *parts; /* dynamic: resolved at run time */
	u32 nr_parts;
	/*
	 * 1 + an index into the running task's obj_bind[]: the object is
	 * the task's own binding, not idx or task_pid (which hold the first
	 * instance's).  Set by the loader for a fixed name that only a for
	 * variable picks ("c2s[${i}]"), so that every instance of a task
	 * can run one program (eevdf__program_same()); 0: not bound.
	 */
	u32 bind;
	char *text; /* the reference as written, for messages */
	/*
	 * A name with one run-time part ("ch[3][@j]") resolved once, at
	 * load time, for every value that names an object: the part's
	 * value v names object table[v - table_lo] when v - table_lo <
	 * table_n and that entry is >= 0; any other value is looked up by
	 * name as before (and fails as before).  NULL: no table.
	 */
	s32 *table;
	s64 table_lo;
	u32 table_n;
	u32 table_local; /* the part is just this local ("@j"), or NO_SLOT */
};

enum popcode {
	P_RUN = 1,     /* a: CPU work */
	P_SPIN,	       /* a: wall time to burn */
	P_SLEEP,       /* a: duration, b: slack */
	P_SLEEP_UNTIL, /* a: absolute time, b: slack */
	P_YIELD,
	P_LOOP,	  /* a: count (PV_NONE = forever), b: while cond,
			  * c: until cond; slot: loop variable or NO_SLOT;
			  * flags: LOOP_CHECK_AFTER; len: body */
	P_IF,	  /* a: cond; len then-ops, len2 else-ops */
	P_CHOOSE, /* len: BRANCH ops (with their bodies) */
	P_BRANCH, /* a: weight; len: body */
	P_LET,	  /* slot (LOCAL or GLOBAL flag): a */
	P_SEND,	  /* obj channel, a: bytes, msg fields */
	P_RECV,	  /* obj channel, a: bytes, b: calls; slot: status */
	P_POST,	  /* obj sem, a: n */
	P_WAIT,	  /* obj sem or latch; b: timeout; slot: status */
	P_SET,	  /* obj latch */
	P_WAKE,	  /* obj event, a: n (PV_NONE = all) */
	P_BLOCK,  /* obj event; b: timeout; slot: status;
			  * obj2: mutex to release and re-take */
	P_LOCK,	  /* obj mutex or spinlock */
	P_UNLOCK,
	P_BARRIER,   /* obj barrier */
	P_PUSH,	     /* obj list */
	P_WAKE_LIST, /* obj list; slot: stamp variable (in the woken) */
	P_SIGNAL,    /* a: signal number; obj.task_pid: the target */
	P_SPAWN,     /* template index in a; b: count */
	P_EXIT,
	P_JOIN,	   /* join set index in a */
	P_SETATTR, /* a: nice, b: slice, c: policy; field[0..3]: priority,
		    * runtime, deadline, period; text: a cgroup's path */
	P_RECORD,  /* metric index in slot; a: value; b: key */
	P_COUNT,   /* metric index in slot; a: add */
	P_MARK,
	P_SIGRETURN,  /* end of an on_signal handler body */
	P_TIMER_WAIT, /* rt-app timer: a = period; flags TIMER_ABSOLUTE;
			  * slot: a task-local "next expiry" (a unique
			  * timer), else obj: a shared OBJ_TIMER */
	/*
	 * File system calls (fs_ops.c).  a.c: the file system's object
	 * index; obj: the path (its run-time parts "{@k}"), obj2: rename's
	 * new path; b: the fd; slot: a status variable (OK, ENOENT, ...).
	 */
	P_OPEN,	      /* flags FS_CREAT, FS_TRUNC, FS_EXCL; field_slot[0]: fd */
	P_CLOSE,      /* b: fd */
	P_READ,	      /* b: fd; a: bytes (none: to end of file); c: bytes per
		    * read() call (none: one call); field[0]: offset (none:
		    * the file position); field_slot[0]: bytes read */
	P_WRITE,      /* b: fd; a: bytes; c: bytes per write() call;
		    * field[0]: offset (none: the file position) */
	P_FSYNC,      /* b: fd */
	P_RENAME,     /* obj to obj2 */
	P_UNLINK,     /* obj */
	P_MKDIR,      /* obj */
	P_RMDIR,      /* obj */
	P_STAT,	      /* obj */
	P_READDIR,    /* obj; c: entries at most (none: all);
		    * field_slot[0]: entries read */
	P_QUEUE_WORK, /* obj: a work object */
	P_KTHREAD,    /* a.c: the kernel thread (io.h): its main loop */
	P_NBENCH,     /* replay an NBENCH load file (engine/nbench.h);
		       * len2: 1 + a keyed per-second bytes hist, or 0 */
};

/* Signals a workload can send (Linux numbers). */
#define SIG_NR 32
#define SIGNO_HUP 1
#define SIGNO_INT 2
#define SIGNO_KILL 9
#define SIGNO_USR1 10
#define SIGNO_USR2 12
#define SIGNO_ALRM 14
#define SIGNO_TERM 15

/* op flags */
#define LOOP_CHECK_AFTER 0x01u
#define SLOT_GLOBAL 0x02u /* slot names a global variable */
#define RECV_EXACT 0x04u
#define RECV_MESSAGE 0x08u
#define SEND_NONBLOCK 0x10u
#define SLEEP_INTR                                                             \
	0x20u		     /* interruptible: a signal ends the wait
				* (sleep, wait, block, join) with EINTR */
#define STAMP_EACH 0x40u     /* wake_list: one timestamp per member */
#define TIMER_ABSOLUTE 0x80u /* timer_wait: keep the grid after a miss */
#define WAKE_THEN_BLOCK                                                        \
	0x100u		/* wake: run the next op (a block) at once,
				 * before any cost or preemption */
#define FS_CREAT 0x200u /* open: O_CREAT */
#define FS_TRUNC 0x400u /* open: O_TRUNC */
#define FS_EXCL 0x800u	/* open: O_EXCL */
#define NO_SLOT UINT32_MAX

/* Message fields carried by tcp_loopback / msgq messages. */
#define MSG_FIELDS 4

/*
 * The fields an op's execution reads first (code, the lengths, its
 * result's slot, plain, the first operand, the cost) lead, so that most
 * ops are read from one or two cache lines: at 440 bytes an op spans
 * seven, and with plain at the end every op touched three.  tbench's 128
 * programs do not fit in a core's L2; cachegrind put a tenth of its L2
 * read misses on the load of plain alone.
 */
struct pop {
	enum popcode code;
	u32 flags;
	u32 len;
	u32 len2;
	u32 slot;
	/*
	 * Set by eevdf__program_index(): an op that names no object, costs
	 * nothing by default and gives none of its own (let, if, loop,
	 * choose, record, count, mark), so it acts at once, without the
	 * cost phase.
	 */
	bool plain;
	struct pval a;
	struct pval cost; /* PV_NONE: the cost table's default */
	struct pval b, c;
	struct objref obj;
	struct objref obj2;
	u32 nr_fields;
	u32 field_slot[MSG_FIELDS]; /* SEND: field values from a-fields */
	struct pval field[MSG_FIELDS];
	char *text; /* MARK text; SETATTR: a cgroup, or NULL */
	/*
	 * Where the op was written, for run-time errors: its JSON path
	 * ("tasks[0].program[2].sleep"), then for an op of a macro body a
	 * newline and the call site; NULL for programs built from the
	 * public op array (messages then give the op's index).
	 */
	char *where;
};

struct program {
	int refs; /* tasks share a program; the last frees it */
	struct pop *ops;
	u32 nr_ops;
	u32 nr_locals;
	u32 nr_binds; /* objrefs bound to a task's obj_bind[] (<= TASK_BINDS) */
	/*
	 * Zero-filled means "no handlers, the whole array is the main
	 * program", so a calloc'd program is valid.  handler[n] is 1 + the
	 * pc of signal n's on_signal body (which ends in a P_SIGRETURN), or
	 * 0 for the default action; handler bodies follow the main program,
	 * which ends at main_ops (0: at nr_ops).
	 */
	u32 handler[SIG_NR];
	u32 main_ops;
	size_t *closer;	      /* per pc: innermost structured op ending there */
	size_t *outer_closer; /* per op: next one ending at the same pc */
	/*
	 * Every choose's branches as running weight sums, so that a choice
	 * is a binary search over a few contiguous entries instead of a walk
	 * through the branch ops: a CHOOSE at pc has choose_nr[pc] entries
	 * from choose_first[pc].
	 */
	struct choose_entry {
		s64 cum;    /* sum of the weights up to this branch */
		u32 branch; /* its BRANCH op */
	} * choose_tab;
	u32 *choose_first; /* per op (CHOOSE only) */
	u32 *choose_nr;
};

/*
 * The bindings prog's own objrefs hold, in out[0 .. prog->nr_binds - 1]:
 * what a task running prog with that instance's objects binds, each an
 * object index (>= 0) or minus the pid of a task whose own semaphore it
 * is ("msg[3].self").
 */
void eevdf__program_binds(const struct program *prog, s32 *out);

/*
 * Whether a and b are the same program but for what their bound objrefs
 * name: every op, operand, expression, distribution, name and table
 * equal.  Then a task of b runs a with b's bindings exactly as it would
 * run b.
 */
bool eevdf__program_same(const struct program *a, const struct program *b);

/* Drop a reference; the last frees everything the program owns. */
void eevdf__program_unref(struct program *prog);

/*
 * The CPU an op charges when it gives no "cost" and needs no object to
 * price it (timer arming, yield, exit, signal, fork, setattr); 0 for the
 * others.  Channel ops are priced by their channel.
 */
u64 eevdf__op_default_cost(const struct cost_table *c, enum popcode code);

/* Build closer[] and outer_closer[] for prog->ops; EEVDF_EINVAL when a
 * body runs past the end, EEVDF_ENOMEM. */
int eevdf__program_index(struct program *prog);

/*
 * Fold prog's constant conditions: an if whose condition is a constant
 * (and that has no cost of its own) is replaced by the branch it always
 * takes, so that "if ${locking}" costs nothing at run time, and a loop
 * with a constant count of 0 (no variable, tested first, no cost) goes
 * with its body; closer[] and the choice tables are rebuilt.  A fold that would leave a loop body or
 * the main program empty is not made.  0, or EEVDF_ENOMEM (prog can
 * then only be released).
 */
int eevdf__program_fold(struct program *prog);

/*
 * Resolve r's run-time name once (struct objref's table) against the
 * objects name(ud, 0) .. name(ud, nr - 1), which must be the run's
 * objects at the same indices.  Only a name with exactly one run-time
 * part gets a table, and only when its values are dense enough; other
 * references are left as they are.  0, or EEVDF_ENOMEM.
 */
int eevdf__objref_resolve_once(struct objref *r,
			       const char *(*name)(const void *ud, size_t i),
			       const void *ud, size_t nr);

#endif
