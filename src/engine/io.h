/* SPDX-License-Identifier: MIT */
/*
 * The I/O model: kernel threads, workqueues, interrupts and softirqs,
 * block devices, and a small ext4-like file system with its page cache,
 * writeback and jbd2 journal.  docs/io-model.md describes what each piece
 * mirrors in the kernel and what it leaves out.
 *
 *	kthread.c	kernel threads as tasks (kworkers, ksoftirqd, jbd2)
 *	workqueue.c	workqueues, worker pools, concurrency management
 *	irq.c		hard interrupts, softirqs, periodic sources
 *	blkdev.c	devices, requests, tags, completion
 *	fs_tree.c	directories, inodes, path lookup, i_rwsem
 *	pagecache.c	page states, LRU, reads and writes of pages
 *	writeback.c	dirty accounting, throttling, the flusher
 *	journal.c	jbd2: handles, transactions, commits
 *	fs_ops.c	the file syscalls the interpreter runs
 *	io.c		setup, events, statistics, freeing
 *
 * A simulation without I/O objects has no struct io (sim->io NULL), so
 * nothing here runs and no result of such a run changes.
 */
#ifndef EEVDF_IO_H
#define EEVDF_IO_H

#include "interp.h"
#include "io_cfg.h"
#include "sim.h"

#define PAGE_BYTES 4096u
/* A request's largest size, in pages (max_sectors_kb 512). */
#define REQ_MAX_PAGES 128u

/* Engine events of the I/O model (sim.h's are 20..23). */
enum io_event_type {
	SEV_BLK_DONE = 30,   /* a device finished a request */
	SEV_BLK_IRQ = 31,    /* ... its interrupt reaches an idle CPU */
	SEV_IO_TIMER = 32,   /* a delayed work's timer or the jbd2 timer */
	SEV_IRQ_SRC = 33,    /* a periodic interrupt source fires */
	SEV_SOFTIRQ = 34,    /* an IPI raising a softirq on another CPU */
	SEV_JBD2_TIMER = 35, /* a running transaction's commit time */
	SEV_DEV_IRQ = 36,    /* a single-queue device's interrupt */
};

struct kthread;
struct worker_pool;
struct pool_wq;
struct workqueue;
struct blkdev;
struct blk_req;
struct fsys;
struct inode;

/* Workqueues ------------------------------------------------------------ */

enum kwork_kind {
	KW_USER = 1,   /* a workload's work object */
	KW_BLK_RUN,    /* blk_mq_run_work_fn(): dispatch a device's queue */
	KW_CONVERSION, /* ext4_end_io_rsv_work(): unwritten to written */
	KW_WRITEBACK,  /* wb_workfn(): the flusher */
};

/* struct work_struct (and a delayed_work's timer, for the flusher). */
struct kwork {
	enum kwork_kind kind;
	bool pending;		 /* WORK_STRUCT_PENDING: queued, not started */
	struct kwork *next;	 /* on a worklist or an inactive list */
	struct workqueue *wq;	 /* the last one it was queued on */
	struct pool_wq *pwq;	 /* where it is queued or running */
	struct kthread *running; /* the worker running it, or NULL */
	bool again;  /* picked while running: its worker runs it again */
	void *owner; /* its device, inode, file system, cfg */
	struct eevdf_event timer; /* queue_delayed_work(): SEV_IO_TIMER */
	u64 nr_done;
};

struct worker_pool {
	int id;	 /* the kernel's pool id: names "kworker/u<id>:<n>" */
	int cpu; /* bound CPU, or -1 */
	int llc; /* unbound: the pod (LLC) it serves */
	bool highpri;
	int *cpus; /* the CPUs its workers may run on */
	size_t nr_cpus;
	struct kwork *head, *tail; /* worklist */
	u32 nr_running;		   /* bound: workers running work */
	u32 nr_workers, nr_idle;
	struct kthread *idle; /* idle list, most recently idle first */
	u32 next_id;	      /* the next worker's number */
};

/* The link of a workqueue to a pool: max_active counts here. */
struct pool_wq {
	struct workqueue *wq;
	struct worker_pool *pool;
	u32 nr_active;
	struct kwork *inact_head, *inact_tail;
};

struct workqueue {
	char name[32];
	char desc[32]; /* what a worker shows after its comm: "kblockd" */
	bool unbound, highpri;
	u32 max_active;
	struct pool_wq *pwqs; /* one per pool of io->pools */
};

/* Kernel threads ---------------------------------------------------------- */

enum kthread_kind {
	KT_WORKER = 1, /* kworker/N:M, kworker/N:MH, kworker/uN:M */
	KT_KSOFTIRQD,  /* ksoftirqd/N */
	KT_JBD2,       /* jbd2/sda1-8 */
};

struct kthread {
	enum kthread_kind kind;
	int idx; /* in io->kt */
	struct task *task;
	/* KT_WORKER */
	struct worker_pool *pool;
	struct kthread *idle_next;
	bool idle;     /* on the pool's idle list */
	bool prep;     /* WORKER_PREP: not counted in nr_running */
	bool sleeping; /* wq_worker_sleeping() took it out of nr_running */
	struct kwork *cur;
	const char *desc; /* the workqueue of the last work */
	/* KT_KSOFTIRQD */
	int cpu;
	/* KT_JBD2 */
	struct fsys *fs;
	u64 nr_runs;
	struct waitq idleq; /* itself, while it waits for work */
};

/* Interrupts ------------------------------------------------------------ */

/* A BLOCK_SOFTIRQ item: a request to complete. */
struct softirq_cpu {
	struct blk_req *head, *tail; /* pending completions */
	struct kthread *ksoftirqd;
	bool in_ksoftirqd; /* the pending list is ksoftirqd's to run */
	u64 nr_irqs, nr_softirqs, nr_deferred;
};

struct irq_src {
	const struct irq_cfg *cfg; /* a copy: see io.c */
	struct irq_cfg c;
	struct sim_object *target;
	struct kwork *work;
	struct eevdf_event ev; /* SEV_IRQ_SRC */
	u64 nr_fired;
};

struct user_work {
	struct work_cfg c;
	struct sim_object *obj;
	struct sim_object *target;
	struct kwork work;
};

/* Block devices ---------------------------------------------------------- */

enum req_op {
	REQ_READ = 1,
	REQ_WRITE,
};

enum req_end {
	END_READ = 1,  /* pages of an inode become uptodate */
	END_WRITEBACK, /* pages of an inode are written */
	END_JOURNAL,   /* jbd2's log blocks or commit block */
};

struct blk_req {
	struct eevdf_event ev; /* SEV_BLK_DONE, then SEV_BLK_IRQ */
	struct blkdev *dev;
	enum req_op op;
	bool flush; /* REQ_PREFLUSH | REQ_FUA: the commit block */
	u64 lba;    /* first 4 KiB block */
	u32 pages;
	int cpu; /* submitted from: its software queue */
	struct blk_req *next;
	enum req_end end;
	struct inode *inode;
	u32 first; /* END_READ / END_WRITEBACK: first page */
	struct fsys *fs;
	eevdf_time submitted, started;
	bool sched_tag; /* holds a scheduler tag */
	bool driver_tag;
};

struct blkdev {
	struct sim_object *obj;
	struct dev_cfg c;
	struct eevdf_rng rng; /* the device's own service-time stream */
	u32 sched_used;	      /* scheduler tags in use */
	u32 inflight;	      /* driver tags in use */
	u32 in_service;	      /* in the drive's latency stage */
	struct blk_req *q_head, *q_tail;   /* waiting for a driver tag */
	struct blk_req *dq_head, *dq_tail; /* in the drive, waiting */
	struct waitq tag_wait;		   /* submitters without a tag */
	eevdf_time chan_free;		   /* the link is busy until */
	u64 last_end;			   /* seek: where the head is */
	bool restart;			   /* SCHED_RESTART */
	struct kwork *run_work;		   /* per hctx: [nr_cpus] or [1] */
	/* a single-queue device's interrupt: the completions it will
	 * handle, all that finished before it is taken */
	struct blk_req *irq_head, *irq_tail;
	struct eevdf_event irq_ev;    /* SEV_DEV_IRQ */
	int next_cpu, next_cpu_batch; /* blk_mq_hctx_next_cpu() */
	/* statistics */
	u64 nr_reads, nr_writes, nr_flushes;
	u64 read_bytes, write_bytes;
	u64 wait_sum; /* submit to completion, ns */
	u64 wait_max;
	u64 nr_completed;
	u64 nr_irqs;
	eevdf_time busy_since;
	u64 busy_ns;
	u32 max_inflight;
	u64 nr_restarts;
};

/* The file system --------------------------------------------------------- */

/* A page's state in the page cache. */
#define PG_UPTODATE 0x01u
#define PG_DIRTY 0x02u
#define PG_WRITEBACK 0x04u
#define PG_LOCKED 0x08u /* a read of it is in flight */

/* struct rw_semaphore: readers share, a writer excludes. */
struct rwsem {
	int count; /* > 0 readers, -1 a writer, 0 free */
	struct waitq wait;
	u32 nr_wait_writers; /* writers among the waiters */
};

struct dentry {
	char *name;
	struct inode *inode;
};

struct inode {
	u64 ino;
	bool dir;
	u32 nlink;
	u32 opens;
	struct fsys *fs;
	struct inode *parent; /* directories: its parent */
	struct rwsem i_rwsem;
	/* directories: entries sorted by name */
	struct dentry *ents;
	u32 nr_ents, cap_ents;
	/* files */
	u64 size;
	uint8_t *pg; /* PG_* per page */
	u32 cap_pg;
	u32 nr_cached, nr_dirty, nr_wb, nr_reading;
	u64 lba; /* its extent, allocated at writeback (delalloc) */
	u32 lba_pages;
	eevdf_time dirtied_when;
	struct inode *dirty_prev, *dirty_next; /* b_dirty, oldest first */
	bool on_dirty;
	struct inode *lru_prev, *lru_next; /* cached inodes, newest first */
	bool on_lru;
	struct waitq read_wait; /* readers of pages being read */
	struct waitq wb_wait;	/* fsync: until nr_wb is 0 */
	struct kwork conv;	/* ext4's i_rsv_conversion_work */
	struct blk_req *ioend_head, *ioend_tail; /* i_rsv_conversion_list */
	u64 meta_tid;	  /* last transaction that logged it */
	bool evicted;	  /* unlinked and closed: freed at once */
	bool atime_stale; /* written since last read: relatime
				   * updates the atime at the next read */
};

/* An open file. */
struct file {
	struct inode *inode;
	u64 pos;
};

/* jbd2: journal_t with its one running and one committing transaction. */
enum jstate {
	J_RUNNING = 0, /* no commit in progress */
	J_LOCKED,      /* T_LOCKED: new handles wait */
	J_LOG,	       /* writing the log blocks */
	J_COMMIT,      /* writing the commit block */
};

struct journal {
	struct kthread *kt;
	enum jstate state;
	u64 running_tid;    /* 0: no running transaction */
	u32 running_blocks; /* metadata blocks it logs */
	u32 running_units;  /* ... in sixteenths: a file's inode is 1 */
	u64 committing_tid;
	u32 committing_blocks;
	u32 log_left;		  /* log blocks of the commit still to submit */
	u64 commit_request;	  /* highest tid someone asked to commit */
	u64 commit_done;	  /* highest committed tid */
	struct eevdf_event timer; /* the running transaction's expiry */
	bool timer_armed;
	struct waitq locked_wait; /* wait_transaction_locked() */
	struct waitq done_wait;	  /* jbd2_log_wait_commit() */
	struct waitq io_wait;	  /* the jbd2 thread on its I/O */
	u32 io_pending;
	u64 head;	   /* next log block, in the journal's area */
	u64 start, blocks; /* the journal's area */
	u64 nr_commits, nr_log_blocks;
	u64 nr_handle_waits;
};

/* The flusher of a file system (struct bdi_writeback). */
struct bdi_wb {
	struct inode *dirty_head, *dirty_tail;
	struct kwork work; /* wb->dwork on the "writeback" workqueue */
	eevdf_time last_old_flush;
	u64 nr_pages_written, nr_background, nr_kupdate;
};

struct fsys {
	struct sim_object *obj;
	struct fs_cfg c;
	struct blkdev *dev;
	struct inode *root;
	u64 next_ino;
	u64 next_lba; /* delalloc: the next free block */
	struct journal j;
	struct bdi_wb wb;
	char jname[48];	     /* "jbd2/sda1-8" */
	char flush_desc[32]; /* "flush-8:0" */
	/* page cache */
	u64 nr_cached, nr_dirty, nr_wb;
	u64 limit_pages;
	u64 bg_thresh, dirty_thresh; /* pages */
	struct inode *lru_head, *lru_tail;
	struct inode **all; /* every inode, for freeing */
	size_t nr_all, cap_all;
	/* statistics */
	u64 nr_hits, nr_misses, nr_evicted, nr_throttled;
	u64 throttle_ns;
};

/* The model of one simulation ------------------------------------------------ */

struct nb_state;

struct fdtable {
	struct file **f; /* fd - FD_BASE */
	u32 n;
	struct nb_state *nb; /* an NBENCH client's replay (nbench.c) */
	struct inode *held;  /* the inode whose lock a call holds */
};

#define FD_BASE 3

struct io {
	struct kthread **kt;
	size_t nr_kt, cap_kt;
	struct worker_pool *pools; /* [ncpu] normal, [ncpu] highpri, [nllc] */
	size_t nr_pools;
	struct workqueue **wqs;
	size_t nr_wqs;
	struct workqueue *system_wq, *system_highpri_wq, *system_unbound_wq;
	struct workqueue *kblockd, *writeback, *conversion;
	struct softirq_cpu *cpu;
	struct blkdev **devs;
	size_t nr_devs;
	struct fsys **fss;
	size_t nr_fss;
	struct irq_src **irqs;
	size_t nr_irqs;
	struct user_work **works;
	size_t nr_works;
	struct fdtable *fdt; /* by pid - 1 */
	size_t nr_fdt;
	struct nb_load **loads; /* NBENCH load files (nbench.h) */
	size_t nr_loads;
	/* the task in whose name kernel code runs now (the waker of what
	 * it wakes), NULL in interrupt context */
	struct task *current;
	/* the IRQ being handled: the first task it woke pays it on an idle
	 * CPU */
	struct task *irq_woken;
	struct task *irq_saved; /* io->current before the interrupt */
	u64 irq_cost;		/* the interrupt's time so far */
	bool started;		/* the kernel threads exist */
};

/* io.c */
/* Build the I/O model from the simulation's I/O objects (their cfg). */
int eevdf__io_setup(struct eevdf_sim *sim);
/* Create the kernel threads (after the workload's own tasks). */
int eevdf__io_start(struct eevdf_sim *sim);
void eevdf__io_free(struct eevdf_sim *sim);
/* An engine event of the I/O model (SEV_BLK_DONE ... SEV_SOFTIRQ). */
int eevdf__io_event(struct eevdf_sim *sim, struct eevdf_event *ev);
bool eevdf__io_event_type(u32 type);
/* p's open files; NULL when out of memory */
struct fdtable *eevdf__io_fdtable(struct eevdf_sim *sim, struct task *p);

/* kthread.c */
struct kthread *eevdf__kthread_create(struct eevdf_sim *sim,
				      enum kthread_kind kind, const char *name,
				      int nice, const int *cpus, size_t nr);
struct kthread *eevdf__kthread_of(struct eevdf_sim *sim, const struct task *p);
/* P_KTHREAD: the thread's main loop. */
int eevdf__kthread_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			const struct pop *op);
/* Wake a kernel thread that waits for work (no-op when it does not);
 * io->current is the waker. */
void eevdf__kthread_wake(struct eevdf_sim *sim, struct kthread *kt);
/* Put the current kernel thread to sleep until eevdf__kthread_wake(). */
int eevdf__kthread_idle(struct eevdf_sim *sim, struct rq *rq,
			struct kthread *kt);

/* workqueue.c */
int eevdf__wq_init(struct eevdf_sim *sim);
/* The first worker of every pool. */
int eevdf__io_start_workers(struct eevdf_sim *sim);
struct workqueue *eevdf__wq_alloc(struct eevdf_sim *sim, const char *name,
				  const char *desc, bool unbound, bool highpri,
				  u32 max_active);
void eevdf__kwork_init(struct kwork *w, enum kwork_kind kind, void *owner);
/* queue_work_on(): cpu is where the caller runs; false if pending */
bool eevdf__queue_work(struct eevdf_sim *sim, struct workqueue *wq,
		       struct kwork *w, int cpu);
/* queue_delayed_work(): the timer, then queue_work() on cpu */
void eevdf__queue_delayed_work(struct eevdf_sim *sim, struct workqueue *wq,
			       struct kwork *w, s64 delay);
/* A worker's loop (KT_WORKER). */
int eevdf__worker_exec(struct eevdf_sim *sim, struct rq *rq,
		       struct kthread *kt);
/* wq_worker_sleeping() / wq_worker_running(): sched hooks */
void eevdf__wq_worker_sleeping(struct eevdf_sim *sim, struct task *p);
void eevdf__wq_worker_running(struct eevdf_sim *sim, struct task *p);
/* The delayed work timer fired. */
void eevdf__kwork_timer(struct eevdf_sim *sim, struct kwork *w);

/* irq.c */
/*
 * Enter hard interrupt context on cpu: the handler's ns are charged to
 * the task it interrupts (IRQ_TIME_ACCOUNTING off), wakeups it makes
 * start from cpu.  irq_exit() runs the softirqs raised meanwhile, or
 * leaves them to ksoftirqd past MAX_SOFTIRQ_TIME.
 */
void eevdf__irq_enter(struct eevdf_sim *sim, int cpu, u64 handler);
void eevdf__irq_exit(struct eevdf_sim *sim, int cpu);
/* raise BLOCK_SOFTIRQ for req on cpu (in interrupt context) */
void eevdf__raise_block_softirq(struct eevdf_sim *sim, int cpu,
				struct blk_req *req);
/* ksoftirqd's loop (KT_KSOFTIRQD). */
int eevdf__ksoftirqd_exec(struct eevdf_sim *sim, struct rq *rq,
			  struct kthread *kt);
void eevdf__irq_src_fire(struct eevdf_sim *sim, struct irq_src *s);
/* a work object's action: post, wake or set its target */
void eevdf__io_poke(struct eevdf_sim *sim, struct task *waker,
		    struct sim_object *o);
bool eevdf__cpu_idle_long(const struct eevdf_sim *sim, int cpu);

/* blkdev.c */
void eevdf__blkdev_init(struct blkdev *d, u64 seed);
/*
 * submit_bio() of a new request from p (NULL: interrupt context) on cpu:
 * R_NEXT when it went to the device or its queue, R_STAY when p must
 * wait for a scheduler tag (it is queued on the tag wait; retry after).
 */
/* A scheduler tag for a request p is about to build: R_NEXT when taken
 * (set the request's sched_tag), R_STAY while p sleeps for one. */
int eevdf__blk_get_tag(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		       struct blkdev *d);
struct blk_req *eevdf__blk_alloc(struct eevdf_sim *sim, struct blkdev *d,
				 enum req_op op, u64 lba, u32 pages);
int eevdf__blk_submit(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct blk_req *req);
/* A request finished in the drive (SEV_BLK_DONE) or its IRQ lands. */
void eevdf__blk_done(struct eevdf_sim *sim, struct blk_req *req);
void eevdf__blk_irq(struct eevdf_sim *sim, struct blk_req *req);
/* A single-queue device's interrupt: every completion it collected. */
void eevdf__blk_dev_irq(struct eevdf_sim *sim, struct blkdev *d);
/* __blk_mq_end_request(): in the context that completes it */
void eevdf__blk_complete(struct eevdf_sim *sim, int cpu, struct blk_req *req);
/* blk_mq_run_hw_queue() from kblockd: what it dispatched */
u32 eevdf__blk_run_queue(struct eevdf_sim *sim, struct blkdev *d, int cpu);

/* fs_tree.c */
int eevdf__fs_init(struct eevdf_sim *sim, struct fsys *fs);
void eevdf__fs_free(struct fsys *fs);
struct inode *eevdf__fs_lookup(struct fsys *fs, struct inode *dir,
			       const char *name);
struct inode *eevdf__fs_new_inode(struct fsys *fs, bool dir);
int eevdf__fs_link(struct inode *dir, const char *name, struct inode *ino);
void eevdf__fs_unlink_name(struct inode *dir, const char *name);
/* The directory and last name of path: *dir NULL when a middle part is
 * missing; name points into path. */
u32 eevdf__fs_walk(struct fsys *fs, char *path, struct inode **dir,
		   const char **name);
/* Take or drop an rwsem: R_NEXT when taken, else p waits (R_STAY). */
int eevdf__rwsem_down(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct rwsem *s, bool write);
void eevdf__rwsem_up(struct eevdf_sim *sim, struct task *p, struct rwsem *s,
		     bool write);

/* pagecache.c */
int eevdf__pages_reserve(struct inode *ino, u32 pages);
void eevdf__page_set(struct inode *ino, u32 i, uint8_t bits);
void eevdf__page_clear(struct inode *ino, u32 i, uint8_t bits);
void eevdf__lru_touch(struct inode *ino);
/* Drop clean pages from the least recently used inodes. */
void eevdf__pagecache_shrink(struct fsys *fs);
/* Drop every page of ino from `from` on (truncate, eviction). */
void eevdf__pages_drop(struct inode *ino, u32 from);
/* Missing pages of [first, first + n): start reads; R_STAY when p must
 * wait for some (on ino->pg_wait), R_NEXT when all are uptodate. */
int eevdf__pages_read(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct inode *ino, u32 first, u32 n);
void eevdf__read_done(struct eevdf_sim *sim, struct blk_req *req);
/* Unlinked and closed: its pages go, it leaves every list. */
void eevdf__inode_evict(struct inode *ino);

/* writeback.c */
void eevdf__inode_dirtied(struct eevdf_sim *sim, struct inode *ino);
void eevdf__inode_clean(struct inode *ino);
/* Write the dirty pages of ino from p's context (fsync, filemap_flush):
 * R_NEXT when all are submitted, R_STAY when waiting for a tag. */
int eevdf__inode_writepages(struct eevdf_sim *sim, struct rq *rq,
			    struct task *p, struct inode *ino, bool charge);
/* A writeback request completed: true when it was kept (its io_end waits
 * for the unwritten-extent conversion). */
bool eevdf__writeback_done(struct eevdf_sim *sim, int cpu, struct blk_req *req);
/* balance_dirty_pages(): the pause p sleeps after dirtying, 0: none */
s64 eevdf__dirty_pause(struct eevdf_sim *sim, struct fsys *fs, u32 dirtied);
/* The flusher's work function. */
int eevdf__wb_workfn(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     struct fsys *fs);
/* ext4_end_io_rsv_work() */
int eevdf__conversion_workfn(struct eevdf_sim *sim, struct rq *rq,
			     struct task *p, struct inode *ino);

/* journal.c */
/* jbd2_journal_start(): R_NEXT with blocks logged in the running
 * transaction, R_STAY when p waits for the locked one to go. */
int eevdf__journal_start(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			 struct fsys *fs, struct inode *ino, u32 blocks);
/* jbd2_complete_transaction(): R_NEXT once tid is committed */
int eevdf__journal_wait(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			struct fsys *fs, u64 tid);
int eevdf__jbd2_exec(struct eevdf_sim *sim, struct rq *rq, struct kthread *kt);
void eevdf__journal_timer(struct eevdf_sim *sim, struct fsys *fs);
void eevdf__journal_io_done(struct eevdf_sim *sim, struct blk_req *req);

/* nbench.c */
void eevdf__nb_state_free(struct nb_state *s);

/* fs_ops.c */
int eevdf__fs_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op);
int eevdf__queue_work_exec(struct eevdf_sim *sim, struct task *p,
			   const struct pop *op, struct sim_object *o);

#endif
