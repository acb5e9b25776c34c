/* SPDX-License-Identifier: MIT */
/*
 * The page cache: a state byte per 4 KiB page of each file (uptodate,
 * dirty, under writeback, locked for a read), counts per inode and per
 * file system, and a least-recently-used list of inodes that hold pages.
 *
 * Simplifications (docs/io-model.md): the LRU is per inode, not per
 * page, with no active and inactive lists; reclaim drops the clean pages
 * of the coldest inodes until the cache is within its size, at once,
 * where the kernel's kswapd and direct reclaim would work in batches.
 * A read that misses reads the missing pages of its range, rounded up to
 * the readahead window, in one request per contiguous run, and sleeps
 * until they are in (filemap_read() and folio_wait_locked()).
 */
#include <string.h>

#include "io.h"

int eevdf__pages_reserve(struct inode *ino, u32 pages)
{
	u32 cap;
	uint8_t *n;

	if (pages <= ino->cap_pg)
		return 0;
	cap = ino->cap_pg ? ino->cap_pg : 4;
	while (cap < pages)
		cap *= 2;
	n = realloc(ino->pg, cap);
	if (!n)
		return EEVDF_ENOMEM;
	memset(n + ino->cap_pg, 0, cap - ino->cap_pg);
	ino->pg = n;
	ino->cap_pg = cap;
	return 0;
}

static void lru_del(struct inode *ino)
{
	struct fsys *fs = ino->fs;

	if (!ino->on_lru)
		return;
	if (ino->lru_prev)
		ino->lru_prev->lru_next = ino->lru_next;
	else
		fs->lru_head = ino->lru_next;
	if (ino->lru_next)
		ino->lru_next->lru_prev = ino->lru_prev;
	else
		fs->lru_tail = ino->lru_prev;
	ino->lru_prev = ino->lru_next = NULL;
	ino->on_lru = false;
}

void eevdf__lru_touch(struct inode *ino)
{
	struct fsys *fs = ino->fs;

	lru_del(ino);
	if (!ino->nr_cached)
		return;
	ino->lru_next = fs->lru_head;
	if (fs->lru_head)
		fs->lru_head->lru_prev = ino;
	else
		fs->lru_tail = ino;
	fs->lru_head = ino;
	ino->on_lru = true;
}

void eevdf__page_set(struct inode *ino, u32 i, uint8_t bits)
{
	struct fsys *fs = ino->fs;
	uint8_t old = ino->pg[i], add = bits & (uint8_t)~old;

	ino->pg[i] = old | bits;
	if (add & PG_UPTODATE) {
		ino->nr_cached++;
		fs->nr_cached++;
	}
	if (add & PG_DIRTY) {
		ino->nr_dirty++;
		fs->nr_dirty++;
	}
	if (add & PG_WRITEBACK) {
		ino->nr_wb++;
		fs->nr_wb++;
	}
	if (add & PG_LOCKED)
		ino->nr_reading++;
}

void eevdf__page_clear(struct inode *ino, u32 i, uint8_t bits)
{
	struct fsys *fs = ino->fs;
	uint8_t old = ino->pg[i], del = bits & old;

	ino->pg[i] = old & (uint8_t)~bits;
	if (del & PG_UPTODATE) {
		ino->nr_cached--;
		fs->nr_cached--;
	}
	if (del & PG_DIRTY) {
		ino->nr_dirty--;
		fs->nr_dirty--;
	}
	if (del & PG_WRITEBACK) {
		ino->nr_wb--;
		fs->nr_wb--;
	}
	if (del & PG_LOCKED)
		ino->nr_reading--;
}

/* A page reclaim may drop: uptodate, clean, no I/O on it. */
static bool evictable(uint8_t st)
{
	return (st & PG_UPTODATE) &&
	       !(st & (PG_DIRTY | PG_WRITEBACK | PG_LOCKED));
}

void eevdf__pagecache_shrink(struct fsys *fs)
{
	struct inode *ino = fs->lru_tail, *prev;

	while (fs->nr_cached > fs->limit_pages && ino) {
		prev = ino->lru_prev;
		for (u32 i = 0; i < ino->cap_pg; i++) {
			if (!evictable(ino->pg[i]))
				continue;
			eevdf__page_clear(ino, i, PG_UPTODATE);
			fs->nr_evicted++;
			if (fs->nr_cached <= fs->limit_pages)
				break;
		}
		if (!ino->nr_cached)
			lru_del(ino);
		ino = prev;
	}
}

void eevdf__pages_drop(struct inode *ino, u32 from)
{
	for (u32 i = from; i < ino->cap_pg; i++)
		eevdf__page_clear(ino, i, PG_UPTODATE | PG_DIRTY);
	if (!ino->nr_dirty)
		eevdf__inode_clean(ino);
	if (!ino->nr_cached)
		lru_del(ino);
}

void eevdf__inode_evict(struct inode *ino)
{
	eevdf__pages_drop(ino, 0);
	ino->evicted = true;
	lru_del(ino);
}

static u32 file_pages(const struct inode *ino)
{
	return (u32)((ino->size + PAGE_BYTES - 1) / PAGE_BYTES);
}

/* Is page i on the disk (written back before)?  Else it is a hole. */
static bool on_disk(const struct inode *ino, u32 i)
{
	return ino->lba && i < ino->lba_pages;
}

int eevdf__pages_read(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct inode *ino, u32 first, u32 n)
{
	struct fsys *fs = ino->fs;
	u32 end = first + n, npg = file_pages(ino);
	bool wait = false;
	int r;

	if (end > npg)
		end = npg;
	if (end > first && eevdf__pages_reserve(ino, npg))
		return eevdf__sim_fail(sim, EEVDF_ENOMEM, "out of memory");
	for (u32 i = first; i < end; i++) {
		u32 run, ra_end;
		struct blk_req *req;

		if (ino->pg[i] & PG_LOCKED) {
			wait = true;
			continue;
		}
		if (ino->pg[i] & PG_UPTODATE)
			continue;
		if (!on_disk(ino, i) || fs->dev->c.none) {
			/* a hole reads as zeros, without I/O */
			eevdf__page_set(ino, i, PG_UPTODATE);
			continue;
		}
		/* a run of missing pages, stretched to the readahead window */
		ra_end = i +
			 (fs->c.ra_pages > end - i ? fs->c.ra_pages : end - i);
		if (ra_end > npg)
			ra_end = npg;
		if (ra_end > ino->lba_pages)
			ra_end = ino->lba_pages;
		for (run = 0; i + run < ra_end && run < REQ_MAX_PAGES; run++)
			if (ino->pg[i + run] & (PG_UPTODATE | PG_LOCKED))
				break;
		if ((r = eevdf__blk_get_tag(sim, rq, p, fs->dev)) != R_NEXT)
			return r;
		req = eevdf__blk_alloc(sim, fs->dev, REQ_READ, ino->lba + i,
				       run);
		if (!req)
			return sim->sched.error;
		req->sched_tag = true;
		req->end = END_READ;
		req->inode = ino;
		req->first = i;
		req->fs = fs;
		for (u32 k = 0; k < run; k++)
			eevdf__page_set(ino, i + k, PG_LOCKED);
		fs->nr_misses += run;
		p->overhead_left += sim->sched.costs.blk_submit;
		eevdf__blk_submit(sim, rq, p, req);
		wait = true;
		i += run - 1;
	}
	if (wait)
		return eevdf__interp_block(sim, rq, p, WAIT_IO, &ino->read_wait,
					   0);
	return R_NEXT;
}

void eevdf__read_done(struct eevdf_sim *sim, struct blk_req *req)
{
	struct inode *ino = req->inode;
	struct task *w;

	for (u32 k = 0; k < req->pages; k++) {
		u32 i = req->first + k;

		if (i >= ino->cap_pg)
			break;
		eevdf__page_clear(ino, i, PG_LOCKED);
		if (!ino->evicted)
			eevdf__page_set(ino, i, PG_UPTODATE);
	}
	/* folio_wake_bit(): every reader of these pages retries */
	while ((w = eevdf__waitq_pop(&ino->read_wait)))
		eevdf__interp_wake(sim, sim->io->current, w);
	eevdf__lru_touch(ino);
	eevdf__pagecache_shrink(ino->fs);
}
