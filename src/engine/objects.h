/* SPDX-License-Identifier: MIT */
/*
 * Workload objects: the kernel primitives tasks block on and wake each
 * other through (pipes and sockets, futexes and semaphores, wait queues,
 * mutexes, spinlocks, barriers, schbench's waiter lists).
 *
 * Each object keeps its waiters in FIFO order (arrival order, never pointer
 * order).  Operations decide whether the caller proceeds or blocks, and
 * whom to wake; the program interpreter does the blocking and the core does
 * the wakeups, so the rules here read like the kernel code they mirror.
 */
#ifndef EEVDF_OBJECTS_H
#define EEVDF_OBJECTS_H

#include "lib/internal.h"

struct task;

enum obj_type {
	OBJ_CHANNEL = 1,
	OBJ_SEM,
	OBJ_LATCH,
	OBJ_EVENT,
	OBJ_MUTEX,
	OBJ_SPINLOCK,
	OBJ_BARRIER,
	OBJ_LIST,
	OBJ_TIMER, /* a shared periodic timer (rt-app "timer") */
	/* the I/O model (io.h): kernel objects with kernel threads behind */
	OBJ_DEVICE,	/* a block device */
	OBJ_FILESYSTEM, /* a file system on a device, with its page cache */
	OBJ_WORKQUEUE,	/* a workqueue (alloc_workqueue()) */
	OBJ_WORK,	/* a work item (struct work_struct) */
	OBJ_IRQ,	/* an interrupt source that fires periodically */
};

enum chan_kind {
	CHAN_PIPE = 1,
	CHAN_UNIX_STREAM,
	CHAN_TCP_LOOPBACK,
	CHAN_MSGQ,
	CHAN_IDEAL,
};

/* When a reader frees space, which blocked writers are woken. */
enum writer_wake {
	WW_SLOT_FREED_IF_FULL = 1, /* pipe_read(): only if it was full */
	WW_QUARTER_FREE,	   /* unix_writable(): used * 4 <= capacity */
	WW_ANY_SPACE,		   /* tcp: any freed space */
};

/* A FIFO of blocked tasks, linked through the tasks themselves. */
struct waitq {
	struct task *head;
	struct task *tail;
	u32 nr;
};

#define MSG_FIELDS_MAX 4

struct chan_msg {
	u64 bytes;  /* still unread */
	u64 charge; /* bytes charged against capacity (payload + overhead) */
	s64 field[MSG_FIELDS_MAX];
};

struct obj_channel {
	enum chan_kind kind;
	u64 capacity; /* bytes; 0 = unbounded */
	u64 overhead; /* bytes charged per message */
	enum writer_wake writer_wake;
	bool reader_sync; /* readers are woken with WF_SYNC */
	bool writers_all; /* wake every blocked writer (else one) */
	u64 used;	  /* bytes charged now */
	/* queued messages: a ring */
	struct chan_msg *msgs;
	u32 msg_head, msg_nr, msg_cap;
	u32 nr_writers; /* live tasks that have written: 0 after a write
			    * and all exits means end of file */
	bool written;
	struct waitq readers, writers;
	u64 msgs_total, bytes_total;
};

struct obj_sem {
	s64 count;
	s64 max; /* < 0: unbounded */
	struct waitq waiters;
};

struct obj_mutex {
	struct task *owner;
	struct waitq waiters;
};

struct obj_spinlock {
	bool per_cpu;
	struct task **owner; /* one per CPU when per_cpu, else one */
	struct waitq *spinners;
};

struct obj_barrier {
	u32 parties;
	u32 arrived;
	struct waitq waiters;
};

struct obj_list {
	struct task **members;
	u32 nr, cap;
};

/*
 * An I/O object (OBJ_DEVICE ... OBJ_IRQ).  A workload's template holds its
 * settings (cfg: struct dev_cfg, fs_cfg, wq_cfg, work_cfg or irq_cfg of
 * io_cfg.h, owned by the workload); once added to a simulation, rt is its
 * state there (owned by the simulation's I/O model) and cfg is NULL.
 */
struct obj_io {
	void *cfg;
	void *rt;
};

struct sim_object {
	enum obj_type type;
	char *name;
	union {
		struct obj_channel chan;
		struct obj_sem sem;
		struct obj_mutex mutex;
		struct obj_spinlock spin;
		struct obj_barrier barrier;
		struct obj_list list;
		struct obj_io io;
	} u;
	bool latch_set;	      /* OBJ_LATCH */
	s64 timer_next;	      /* OBJ_TIMER: next expiry, 0 = not started */
	struct waitq waiters; /* OBJ_LATCH, OBJ_EVENT */
};

/* What a blocked task waits for (for deadlock reports and timeouts). */
enum wait_kind {
	WAIT_NONE = 0,
	WAIT_SLEEP,
	WAIT_SEM,
	WAIT_LATCH,
	WAIT_EVENT,
	WAIT_MUTEX,
	WAIT_BARRIER,
	WAIT_CHAN_READ,
	WAIT_CHAN_WRITE,
	WAIT_JOIN,
	/* the I/O model's kernel waits (io.h) */
	WAIT_IO,      /* page or request I/O (io_schedule) */
	WAIT_RWSEM,   /* an inode's i_rwsem */
	WAIT_TAG,     /* a request tag of a block device */
	WAIT_JOURNAL, /* a jbd2 transaction: locked, or its commit */
	WAIT_WORK,    /* a kernel thread with nothing to do */
};

void eevdf__waitq_push(struct waitq *q, struct task *p);
struct task *eevdf__waitq_pop(struct waitq *q);
/* Remove p (a timeout or signal ended its wait); false if absent. */
bool eevdf__waitq_remove(struct waitq *q, struct task *p);

const char *eevdf__obj_type_name(enum obj_type t);
const char *eevdf__wait_kind_name(enum wait_kind k);

void eevdf__object_free(struct sim_object *o);

#endif
