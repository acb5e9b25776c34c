/* SPDX-License-Identifier: MIT */
/*
 * Dirty pages and their writeback (fs/fs-writeback.c, mm/page-writeback.c,
 * ext4's writepages and end_io).
 *
 * An inode dirtied for the first time joins its flusher's b_dirty list,
 * stamped dirtied_when; when that list was empty the flusher's delayed
 * work is armed dirty_writeback_interval ahead (wb_wakeup_delayed()).
 * The flusher (wb_workfn() on the unbound "writeback" workqueue, shown as
 * kworker/uN:M-flush-8:0) writes inodes oldest first: all of them while
 * the dirty pages are over the background threshold, else those dirtied
 * more than dirty_expire ago (kupdate), and re-arms itself while dirty
 * inodes remain.  Writers are throttled in balance_dirty_pages() above
 * the middle of the background and hard thresholds.
 *
 * ext4 allocates blocks at writeback (delalloc): a journal handle, then
 * an extent after the last one (allocation is sequential here).  With
 * dioread_nolock (the default since v5.6) the blocks are unwritten until
 * the I/O is done: the bio's end_io queues the inode's conversion work on
 * the "ext4-rsv-conversion" workqueue, and the pages leave writeback only
 * once it ran (ext4_end_bio() defers ext4_finish_bio() to
 * ext4_end_io_rsv_work()), so an fsync waits for that kworker too.
 */
#include "io.h"

void eevdf__inode_dirtied(struct eevdf_sim *sim, struct inode *ino)
{
	struct fsys *fs = ino->fs;
	struct bdi_wb *wb = &fs->wb;
	bool was_empty = !wb->dirty_head;

	if (ino->on_dirty)
		return;
	ino->on_dirty = true;
	ino->dirtied_when = sim->sched.now;
	ino->dirty_next = NULL;
	ino->dirty_prev = wb->dirty_tail;
	if (wb->dirty_tail)
		wb->dirty_tail->dirty_next = ino;
	else
		wb->dirty_head = ino;
	wb->dirty_tail = ino;
	if (was_empty && !fs->dev->c.none)
		eevdf__queue_delayed_work(sim, sim->io->writeback, &wb->work,
					  fs->c.writeback_interval);
}

void eevdf__inode_clean(struct inode *ino)
{
	struct bdi_wb *wb = &ino->fs->wb;

	if (!ino->on_dirty)
		return;
	if (ino->dirty_prev)
		ino->dirty_prev->dirty_next = ino->dirty_next;
	else
		wb->dirty_head = ino->dirty_next;
	if (ino->dirty_next)
		ino->dirty_next->dirty_prev = ino->dirty_prev;
	else
		wb->dirty_tail = ino->dirty_prev;
	ino->dirty_prev = ino->dirty_next = NULL;
	ino->on_dirty = false;
}

static u32 file_pages(const struct inode *ino)
{
	return (u32)((ino->size + PAGE_BYTES - 1) / PAGE_BYTES);
}

/*
 * ext4_writepages() from p: a journal handle and an extent for pages not
 * on disk yet, then a request per run of dirty pages not under writeback
 * (WB_SYNC_NONE skips those; the caller comes back).  Re-entrant: its
 * progress is in the page states.
 */
int eevdf__inode_writepages(struct eevdf_sim *sim, struct rq *rq,
			    struct task *p, struct inode *ino, bool charge)
{
	struct fsys *fs = ino->fs;
	u32 npg = file_pages(ino);
	int r;

	if (!ino->nr_dirty)
		return R_NEXT;
	if (fs->dev->c.none) {
		/* page cache only: nothing is ever written */
		for (u32 i = 0; i < ino->cap_pg; i++)
			eevdf__page_clear(ino, i, PG_DIRTY);
		eevdf__inode_clean(ino);
		return R_NEXT;
	}
	if (ino->lba_pages < npg) {
		/* delalloc: the blocks are allocated now */
		if ((r = eevdf__journal_start(sim, rq, p, fs, ino, 2)) !=
		    R_NEXT)
			return r;
		ino->lba = fs->next_lba;
		ino->lba_pages = npg;
		fs->next_lba += npg;
		if (charge)
			p->overhead_left += sim->sched.costs.wb_inode;
	}
	for (u32 i = 0; i < npg && i < ino->cap_pg; i++) {
		struct blk_req *req;
		u32 run;

		if ((ino->pg[i] & (PG_DIRTY | PG_WRITEBACK)) != PG_DIRTY)
			continue;
		for (run = 1; i + run < npg && i + run < ino->cap_pg &&
			      run < REQ_MAX_PAGES;
		     run++)
			if ((ino->pg[i + run] & (PG_DIRTY | PG_WRITEBACK)) !=
			    PG_DIRTY)
				break;
		if ((r = eevdf__blk_get_tag(sim, rq, p, fs->dev)) != R_NEXT)
			return r;
		req = eevdf__blk_alloc(sim, fs->dev, REQ_WRITE, ino->lba + i,
				       run);
		if (!req)
			return sim->sched.error;
		req->sched_tag = true;
		req->end = END_WRITEBACK;
		req->inode = ino;
		req->first = i;
		req->fs = fs;
		for (u32 k = 0; k < run; k++) {
			eevdf__page_clear(ino, i + k, PG_DIRTY);
			eevdf__page_set(ino, i + k, PG_WRITEBACK);
		}
		fs->wb.nr_pages_written += run;
		p->overhead_left += sim->sched.costs.blk_submit +
				    run * sim->sched.costs.wb_page;
		eevdf__blk_submit(sim, rq, p, req);
		i += run - 1;
	}
	if (!ino->nr_dirty)
		eevdf__inode_clean(ino);
	return R_NEXT;
}

/* end_page_writeback() for the pages of req; fsync waiters may go. */
static void finish_pages(struct eevdf_sim *sim, struct blk_req *req)
{
	struct inode *ino = req->inode;
	struct task *w;

	for (u32 k = 0; k < req->pages && req->first + k < ino->cap_pg; k++)
		eevdf__page_clear(ino, req->first + k, PG_WRITEBACK);
	if (!ino->nr_wb)
		while ((w = eevdf__waitq_pop(&ino->wb_wait)))
			eevdf__interp_wake(sim, sim->io->current, w);
	eevdf__lru_touch(ino);
	eevdf__pagecache_shrink(ino->fs);
}

bool eevdf__writeback_done(struct eevdf_sim *sim, int cpu, struct blk_req *req)
{
	struct fsys *fs = req->fs;
	struct inode *ino = req->inode;

	if (!fs->c.dioread_nolock) {
		finish_pages(sim, req);
		return false;
	}
	/* ext4_add_complete_io(): the io_end waits for the conversion */
	req->next = NULL;
	if (ino->ioend_tail)
		ino->ioend_tail->next = req;
	else
		ino->ioend_head = req;
	ino->ioend_tail = req;
	eevdf__queue_work(sim, sim->io->conversion, &ino->conv, cpu);
	return true;
}

/* ext4_end_io_rsv_work(): convert every io_end of the inode, then end
 * their pages' writeback. */
int eevdf__conversion_workfn(struct eevdf_sim *sim, struct rq *rq,
			     struct task *p, struct inode *ino)
{
	u32 n = 0;
	int r;

	if (!ino->ioend_head)
		return R_NEXT;
	if (p->op_step == 0) {
		if ((r = eevdf__journal_start(sim, rq, p, ino->fs, ino, 1)) !=
		    R_NEXT)
			return r;
		p->op_step = 1;
	}
	for (struct blk_req *q = ino->ioend_head; q; q = q->next)
		n++;
	r = eevdf__interp_charge(sim, p,
				 sim->sched.costs.work_item +
					 n * sim->sched.costs.end_io);
	if (r != R_NEXT)
		return r;
	while (ino->ioend_head) {
		struct blk_req *req = ino->ioend_head;

		ino->ioend_head = req->next;
		if (!ino->ioend_head)
			ino->ioend_tail = NULL;
		finish_pages(sim, req);
		free(req);
	}
	return R_NEXT;
}

/*
 * balance_dirty_pages(), simplified: above the background threshold the
 * flusher is started; above the freerun ceiling (half way to the hard
 * threshold) the writer sleeps long enough for the device to write what
 * it dirtied, stretched as the dirty pages approach the hard threshold
 * (the kernel's pos_ratio), at most MAX_PAUSE (200 ms).  Pauses under a
 * millisecond are skipped, as the kernel lets small ones accumulate.
 */
s64 eevdf__dirty_pause(struct eevdf_sim *sim, struct fsys *fs, u32 dirtied)
{
	u64 nr = fs->nr_dirty + fs->nr_wb, freerun, bw_pages, pause;
	u64 span, left;

	if (fs->dev->c.none || !dirtied)
		return 0;
	if (fs->nr_dirty > fs->bg_thresh)
		eevdf__queue_work(sim, sim->io->writeback, &fs->wb.work,
				  sim->io->current ? sim->io->current->cpu : 0);
	freerun = (fs->bg_thresh + fs->dirty_thresh) / 2;
	if (nr <= freerun)
		return 0;
	bw_pages = fs->dev->c.write_bw / PAGE_BYTES;
	if (!bw_pages)
		bw_pages = 1;
	span = fs->dirty_thresh > freerun ? fs->dirty_thresh - freerun : 1;
	left = nr < fs->dirty_thresh ? fs->dirty_thresh - nr : 0;
	/* rate = bw * left / span, at least bw / 16 */
	if (left * 16 < span)
		left = span / 16;
	if (!left)
		left = 1;
	pause = (u64)dirtied * 1000000000u / bw_pages * span / left;
	if (pause > 200000000u)
		pause = 200000000u;
	if (pause < 1000000u)
		return 0;
	fs->nr_throttled++;
	fs->throttle_ns += pause;
	return (s64)pause;
}

/* Is the oldest dirty inode older than dirty_expire? */
static bool expired(struct eevdf_sim *sim, const struct fsys *fs)
{
	const struct inode *ino = fs->wb.dirty_head;

	return ino && ino->dirtied_when + fs->c.dirty_expire <= sim->sched.now;
}

/*
 * wb_workfn(): background writeback while over the threshold, then the
 * expired inodes; re-armed while dirty inodes remain.  The inode it
 * writes stays at the head of b_dirty until its pages are submitted.
 */
int eevdf__wb_workfn(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     struct fsys *fs)
{
	struct bdi_wb *wb = &fs->wb;
	int r;

	for (;;) {
		struct inode *ino = wb->dirty_head;
		bool bg = fs->nr_dirty > fs->bg_thresh;
		u64 before;

		if (!ino || (!bg && !expired(sim, fs)))
			break;
		if (p->op_step == 0) {
			r = eevdf__interp_charge(sim, p,
						 sim->sched.costs.wb_inode);
			if (r != R_NEXT)
				return r;
			p->op_step = 1;
			p->xfer_left = wb->nr_pages_written;
			if (bg)
				wb->nr_background++;
			else
				wb->nr_kupdate++;
		}
		before = p->xfer_left;
		r = eevdf__inode_writepages(sim, rq, p, ino, false);
		if (r != R_NEXT)
			return r;
		p->op_step = 0;
		if (ino->on_dirty && ino == wb->dirty_head) {
			/* redirty_tail(): pages dirtied again while under
			 * writeback wait for a later round; with nothing
			 * written this round, stop: a writer over the
			 * threshold queues the work again */
			eevdf__inode_clean(ino);
			eevdf__inode_dirtied(sim, ino);
			if (wb->nr_pages_written == before)
				break;
		}
	}
	wb->last_old_flush = sim->sched.now;
	if (wb->dirty_head)
		eevdf__queue_delayed_work(sim, sim->io->writeback, &wb->work,
					  fs->c.writeback_interval);
	return R_NEXT;
}
