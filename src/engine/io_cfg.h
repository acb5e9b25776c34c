/* SPDX-License-Identifier: MIT */
/*
 * The settings of the I/O model's objects as a workload declares them
 * (docs/io-model.md): block devices and their presets, file systems,
 * workqueues, work items and interrupt sources.  The loader fills them
 * in; eevdf__io_setup() (io.c) builds the simulation's state from them.
 * Object references are indices in the simulation's object table (a
 * workload's objects keep their indices there), or -1.
 */
#ifndef EEVDF_IO_CFG_H
#define EEVDF_IO_CFG_H

#include "dist.h"

/* A block device (block/blk-mq.c's view of it, and the drive). */
struct dev_cfg {
	char preset[16]; /* "nvme", "sata-ssd", "hdd", "none" */
	u32 queue_depth; /* driver tags: requests the drive holds */
	u32 nr_requests; /* scheduler tags: beyond them submitters sleep */
	u32 parallel;	 /* requests the drive services at once */
	/*
	 * Per-request access latency (no "choice": a device owns no
	 * arrays).  With seek, a request that starts where the last one
	 * ended takes seq_lat instead (a disk head already there).
	 */
	struct eevdf_dist rlat, wlat;
	bool seek;
	u64 seq_lat;
	u64 read_bw, write_bw; /* bytes per second through the link */
	u64 flush_lat;	       /* a cache flush (REQ_PREFLUSH) */
	bool multiqueue;       /* one hardware queue per CPU (NVMe) */
	int irq_cpu;	       /* single queue: the CPU its interrupt hits */
	bool none;	       /* page cache only: no device I/O at all */
	u32 major, minor;      /* dev_t, as in "flush-8:0" */
};

/* A device preset's settings by name (blkdev.c); false if unknown. */
bool eevdf__blkdev_preset(const char *name, struct dev_cfg *c);
/* "nvme, sata-ssd, hdd, none": the names, for messages. */
const char *eevdf__blkdev_presets(void);

/* A file system (ext4 with jbd2) on a device, and the page cache. */
struct fs_cfg {
	int dev;       /* its device object */
	char part[24]; /* the partition: "sda1", in "jbd2/sda1-8" */
	u64 memory;    /* bytes the page cache may hold */
	u32 dirty_background_ratio, dirty_ratio; /* percent of memory */
	s64 dirty_expire;	/* dirty_expire_centisecs, ns */
	s64 writeback_interval; /* dirty_writeback_centisecs, ns */
	s64 commit_interval;	/* jbd2 j_commit_interval, ns */
	bool journal;		/* has a jbd2 journal */
	bool dioread_nolock;	/* unwritten extents, converted at end_io */
	bool auto_da_alloc;	/* flush on rename over a file */
	u32 ra_pages;		/* readahead window, pages */
};

/* A workqueue: alloc_workqueue(name, flags, max_active). */
struct wq_cfg {
	bool unbound;
	bool highpri;
	u32 max_active;
};

/*
 * A work item of the workload's: CPU work, then an optional sleep (the
 * worker blocks: concurrency management wakes another), then a post,
 * wake or set of an object.
 */
struct work_cfg {
	int wq; /* its workqueue object, or -1: system_wq */
	s64 cost;
	s64 sleep;
	int target; /* a sem (post), event (wake all) or latch (set) */
};

/* A periodic interrupt source (vblank, audio period, input). */
struct irq_cfg {
	s64 period;
	s64 first; /* first firing */
	int cpu;
	s64 handler; /* hardirq time, charged to whoever it interrupts */
	int work;    /* a work object it queues, or -1 */
	int target;  /* a sem, event or latch it posts from the handler */
};

#endif
