/* SPDX-License-Identifier: MIT */
/*
 * jbd2 (fs/jbd2/): handles join the running transaction, which logs each
 * metadata block once; the journal thread, jbd2/sda1-8 (kjournald2()),
 * commits it when its timer expires (j_commit_interval, 5 s after it
 * started) or when an fsync asks (jbd2_complete_transaction()).
 *
 * A commit: T_LOCKED, while new handles wait (wait_transaction_locked())
 * for the thread to switch to a new running transaction; then the log
 * blocks are written and waited for; then the commit block, with
 * REQ_PREFLUSH | REQ_FUA, waited for; then the fsyncs waiting for this
 * transaction are woken.  Handles here last no time, so T_LOCKED lasts
 * as long as the journal thread takes to get through it: longer when it
 * is preempted, which is what a scheduler changes.
 *
 * With dioread_nolock (no ordered data for unwritten extents) a commit
 * writes no file data.  Checkpointing is not modelled (the journal is
 * large enough for the runs we make).
 */
#include "io.h"

int eevdf__journal_start(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			 struct fsys *fs, struct inode *ino, u32 blocks)
{
	struct journal *j = &fs->j;

	if (!fs->c.journal)
		return R_NEXT;
	if (j->state == J_LOCKED) {
		j->nr_handle_waits++;
		return eevdf__interp_block(sim, rq, p, WAIT_JOURNAL,
					   &j->locked_wait, 0);
	}
	if (!j->running_tid) {
		/* a new transaction: its expiry is its commit time */
		j->running_tid = (j->committing_tid > j->commit_done ?
					  j->committing_tid :
					  j->commit_done) +
				 1;
		j->running_blocks = 0;
		j->running_units = 0;
		if (!j->timer_armed) {
			j->timer_armed = true;
			eevdf__queue_event(&sim->sched, &j->timer,
					   sim->sched.now +
						   fs->c.commit_interval);
		}
	}
	/*
	 * Each metadata block is logged once a transaction: a directory's
	 * blocks whole, a file's inode as a sixteenth of its inode table
	 * block (256-byte inodes: the inodes written together share it,
	 * as do the bitmaps their allocations touch).
	 */
	if (!ino || ino->meta_tid != j->running_tid) {
		j->running_units += ino && !ino->dir ? 1 : 16 * blocks;
		j->running_blocks = (j->running_units + 15) / 16;
	}
	if (ino)
		ino->meta_tid = j->running_tid;
	/* a transaction past a quarter of the journal commits now
	 * (jbd2_journal_start()'s j_max_transaction_buffers check) */
	if (j->running_blocks >= j->blocks / 4 &&
	    j->commit_request < j->running_tid) {
		j->commit_request = j->running_tid;
		eevdf__kthread_wake(sim, j->kt);
	}
	return R_NEXT;
}

int eevdf__journal_wait(struct eevdf_sim *sim, struct rq *rq, struct task *p,
			struct fsys *fs, u64 tid)
{
	struct journal *j = &fs->j;

	if (!fs->c.journal || !tid || j->commit_done >= tid)
		return R_NEXT;
	if (j->commit_request < tid) {
		j->commit_request = tid;
		eevdf__kthread_wake(sim, j->kt);
	}
	return eevdf__interp_block(sim, rq, p, WAIT_JOURNAL, &j->done_wait, 0);
}

void eevdf__journal_timer(struct eevdf_sim *sim, struct fsys *fs)
{
	struct journal *j = &fs->j;

	j->timer_armed = false;
	if (j->running_tid && j->commit_request < j->running_tid) {
		j->commit_request = j->running_tid;
		eevdf__kthread_wake(sim, j->kt);
	}
}

/* Submit a journal write of n blocks (the commit block: flush). */
static int log_write(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     struct fsys *fs, u32 n, bool flush)
{
	struct journal *j = &fs->j;
	struct blk_req *req;
	int r;

	if ((r = eevdf__blk_get_tag(sim, rq, p, fs->dev)) != R_NEXT)
		return r;
	if (j->head + n > j->start + j->blocks)
		j->head = j->start;
	req = eevdf__blk_alloc(sim, fs->dev, REQ_WRITE, j->head, n);
	if (!req)
		return sim->sched.error;
	j->head += n;
	req->sched_tag = true;
	req->flush = flush;
	req->end = END_JOURNAL;
	req->fs = fs;
	j->io_pending++;
	j->nr_log_blocks += n;
	p->overhead_left += sim->sched.costs.blk_submit;
	return eevdf__blk_submit(sim, rq, p, req);
}

void eevdf__journal_io_done(struct eevdf_sim *sim, struct blk_req *req)
{
	struct journal *j = &req->fs->j;
	struct task *w;

	if (--j->io_pending)
		return;
	if ((w = eevdf__waitq_pop(&j->io_wait)))
		eevdf__interp_wake(sim, sim->io->current, w);
}

static int wait_io(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   struct journal *j)
{
	if (!j->io_pending)
		return R_NEXT;
	return eevdf__interp_block(sim, rq, p, WAIT_IO, &j->io_wait, 0);
}

/* kjournald2() and jbd2_journal_commit_transaction(). */
int eevdf__jbd2_exec(struct eevdf_sim *sim, struct rq *rq, struct kthread *kt)
{
	struct fsys *fs = kt->fs;
	struct journal *j = &fs->j;
	struct task *p = kt->task;
	bool none = fs->dev->c.none;
	struct task *w;
	int r;

	for (;;) {
		switch (p->op_step) {
		case 0:
			/* a commit is due: lock the running transaction */
			if (!j->running_tid ||
			    j->commit_request < j->running_tid)
				return eevdf__kthread_idle(sim, rq, kt);
			j->committing_tid = j->running_tid;
			j->committing_blocks = j->running_blocks;
			j->log_left = j->running_blocks;
			j->running_tid = 0;
			j->running_blocks = 0;
			j->running_units = 0;
			if (j->timer_armed) {
				eevdf__eventq_cancel(&sim->sched.evq,
						     &j->timer);
				j->timer_armed = false;
			}
			j->state = J_LOCKED;
			kt->nr_runs++;
			p->op_step = 1;
			fallthrough;
		case 1:
			r = eevdf__interp_charge(sim, p,
						 sim->sched.costs.jbd2_lock);
			if (r != R_NEXT)
				return r;
			/* T_FLUSH: a new running transaction may open */
			j->state = J_LOG;
			while ((w = eevdf__waitq_pop(&j->locked_wait)))
				eevdf__interp_wake(sim, p, w);
			p->op_step = 2;
			fallthrough;
		case 2:
			r = eevdf__interp_charge(
				sim, p,
				(u64)j->committing_blocks *
					sim->sched.costs.jbd2_block);
			if (r != R_NEXT)
				return r;
			p->op_step = 3;
			fallthrough;
		case 3:
			/* the log blocks, in requests of at most
			 * REQ_MAX_PAGES (the plug merges the buffers) */
			if (none)
				j->log_left = 0;
			while (j->log_left) {
				u32 n = j->log_left < REQ_MAX_PAGES ?
						j->log_left :
						REQ_MAX_PAGES;

				r = log_write(sim, rq, p, fs, n, false);
				if (r != R_NEXT)
					return r;
				j->log_left -= n;
			}
			p->op_step = 4;
			fallthrough;
		case 4:
			if ((r = wait_io(sim, rq, p, j)) != R_NEXT)
				return r;
			j->state = J_COMMIT;
			p->op_step = 5;
			fallthrough;
		case 5:
			if (!none) {
				r = log_write(sim, rq, p, fs, 1, true);
				if (r != R_NEXT)
					return r;
			}
			p->op_step = 6;
			fallthrough;
		case 6:
			if ((r = wait_io(sim, rq, p, j)) != R_NEXT)
				return r;
			p->op_step = 7;
			fallthrough;
		case 7:
			r = eevdf__interp_charge(sim, p,
						 sim->sched.costs.jbd2_commit);
			if (r != R_NEXT)
				return r;
			j->commit_done = j->committing_tid;
			j->committing_tid = 0;
			j->state = J_RUNNING;
			j->nr_commits++;
			while ((w = eevdf__waitq_pop(&j->done_wait)))
				eevdf__interp_wake(sim, p, w);
			p->op_step = 0;
			break;
		default:
			return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
						  "bad jbd2 step");
		}
	}
}
