/* SPDX-License-Identifier: MIT */
/*
 * The file system calls of a task's program: open (with O_CREAT,
 * O_TRUNC, O_EXCL), close, read, write, fsync, rename, unlink, mkdir,
 * rmdir, stat and readdir on the ext4-like model of io.h.
 *
 * Each call is a sequence of steps (task->op_step): CPU it burns (the
 * cost table's fs_* entries), locks it takes (a directory's i_rwsem for
 * writing to change it, for reading to list it; a file's to write it),
 * journal handles it starts, pages it reads or dirties, and waits.  A
 * step that sleeps is entered again when the task is woken: a lock's
 * waiter is handed the lock (woken), every other wait re-checks.  The
 * path is looked up again at every entry, as the kernel looks it up
 * again under the lock; looking up is lock-free (RCU walk).
 *
 * Results go to the op's status variable (OK, ENOENT, EEXIST, ENOTEMPTY,
 * EBADF); without one, an error ends the run with a message.
 */
#include <string.h>

#include "io.h"

#define PATH_BUF 256

static struct fsys *op_fs(struct eevdf_sim *sim, const struct pop *op)
{
	struct sim_object *o;

	if (op->a.c < 0 || (size_t)op->a.c >= sim->nr_objs)
		return NULL;
	o = sim->objs[op->a.c];
	return o->type == OBJ_FILESYSTEM ? o->u.io.rt : NULL;
}

static const char *status_name(s64 st)
{
	switch (st) {
	case STATUS_ENOENT:
		return "ENOENT (no such file or directory)";
	case STATUS_EEXIST:
		return "EEXIST (file exists)";
	case STATUS_ENOTEMPTY:
		return "ENOTEMPTY (directory not empty)";
	case STATUS_EBADF:
		return "EBADF (bad file descriptor)";
	default:
		return "an error";
	}
}

/* The call is over with status st. */
static int finish(struct eevdf_sim *sim, struct task *p, const struct pop *op,
		  s64 st)
{
	p->op_step = 0;
	p->op_begun = false;
	if (st != STATUS_OK && op->slot == NO_SLOT) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "%s failed: %s (give it a \"status\" variable to "
			 "handle it)",
			 op->obj.text ? op->obj.text : "file op",
			 status_name(st));
		return eevdf__interp_fail(sim, p, EEVDF_EINVAL, msg);
	}
	eevdf__interp_store(sim, p, op->slot, op->flags, st);
	return R_NEXT;
}

/* The directory and last name of a path operand (buf holds them). */
static int path_of(struct eevdf_sim *sim, struct task *p,
		   const struct objref *r, struct fsys *fs, char *buf,
		   struct inode **dir, const char **name)
{
	int err = eevdf__interp_name(sim, p, r, buf, PATH_BUF);

	if (err)
		return err;
	eevdf__fs_walk(fs, buf, dir, name);
	return 0;
}

struct fdtable *eevdf__io_fdtable(struct eevdf_sim *sim, struct task *p)
{
	struct io *io = sim->io;
	size_t i = (size_t)p->pid - 1;

	if (i >= io->nr_fdt) {
		size_t n = i + 1 > 2 * io->nr_fdt ? i + 1 : 2 * io->nr_fdt;
		struct fdtable *t = realloc(io->fdt, n * sizeof(*t));

		if (!t)
			return NULL;
		memset(t + io->nr_fdt, 0, (n - io->nr_fdt) * sizeof(*t));
		io->fdt = t;
		io->nr_fdt = n;
	}
	return &io->fdt[i];
}

/* The lowest free descriptor, as open() hands out. */
static int fd_install(struct eevdf_sim *sim, struct task *p, struct inode *ino,
		      s64 *fd)
{
	struct fdtable *t = eevdf__io_fdtable(sim, p);
	struct file *f;
	u32 i;

	if (!t)
		return EEVDF_ENOMEM;
	for (i = 0; i < t->n && t->f[i]; i++)
		;
	if (i == t->n) {
		u32 n = t->n ? 2 * t->n : 8;
		struct file **v = realloc(t->f, n * sizeof(*v));

		if (!v)
			return EEVDF_ENOMEM;
		memset(v + t->n, 0, (n - t->n) * sizeof(*v));
		t->f = v;
		t->n = n;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return EEVDF_ENOMEM;
	f->inode = ino;
	t->f[i] = f;
	ino->opens++;
	*fd = FD_BASE + (s64)i;
	return 0;
}

static struct file *fd_get(struct eevdf_sim *sim, struct task *p, s64 fd)
{
	struct fdtable *t = eevdf__io_fdtable(sim, p);

	if (!t || fd < FD_BASE || fd - FD_BASE >= (s64)t->n)
		return NULL;
	return t->f[fd - FD_BASE];
}

static int open_done(struct eevdf_sim *sim, struct task *p,
		     const struct pop *op, struct inode *ino)
{
	s64 fd;

	if (fd_install(sim, p, ino, &fd))
		return eevdf__sim_fail(sim, EEVDF_ENOMEM, "out of memory");
	eevdf__interp_store(sim, p, op->field_slot[0], 0, fd);
	return finish(sim, p, op, STATUS_OK);
}

static void drop_link(struct inode *ino)
{
	if (ino->nlink)
		ino->nlink--;
	if (!ino->nlink && !ino->opens)
		eevdf__inode_evict(ino);
}

static int lock_step(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     struct rwsem *s, bool write, bool *woken)
{
	if (*woken) {
		/* handed the lock while asleep */
		*woken = false;
		return R_NEXT;
	}
	return eevdf__rwsem_down(sim, rq, p, s, write);
}

/* open(path, flags): an existing file, or one created under the
 * directory's lock; O_TRUNC drops its pages under its own. */
static int fs_open(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op, struct fsys *fs, bool woken)
{
	char buf[PATH_BUF];
	struct fdtable *t;
	struct inode *dir, *ino;
	const char *name;
	int r;

	if ((r = path_of(sim, p, &op->obj, fs, buf, &dir, &name)))
		return r;
	ino = dir && *name ? eevdf__fs_lookup(fs, dir, name) : NULL;
	switch (p->op_step) {
	case 0:
		r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_open);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
		fallthrough;
	case 1:
		if (!dir || !*name)
			return finish(sim, p, op, STATUS_ENOENT);
		if (ino && (op->flags & FS_CREAT) && (op->flags & FS_EXCL))
			return finish(sim, p, op, STATUS_EEXIST);
		if (ino) {
			if ((op->flags & FS_TRUNC) && !ino->dir && ino->size) {
				p->op_step = 10;
				return R_AGAIN;
			}
			return open_done(sim, p, op, ino);
		}
		if (!(op->flags & FS_CREAT))
			return finish(sim, p, op, STATUS_ENOENT);
		p->op_step = 2;
		fallthrough;
	case 2:
		r = lock_step(sim, rq, p, &dir->i_rwsem, true, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 3;
		fallthrough;
	case 3:
		if (ino) {
			/* created by someone else while we waited */
			eevdf__rwsem_up(sim, p, &dir->i_rwsem, true);
			if (op->flags & FS_EXCL)
				return finish(sim, p, op, STATUS_EEXIST);
			if ((op->flags & FS_TRUNC) && !ino->dir && ino->size) {
				p->op_step = 10;
				return R_AGAIN;
			}
			return open_done(sim, p, op, ino);
		}
		r = eevdf__journal_start(sim, rq, p, fs, dir, 2);
		if (r != R_NEXT)
			return r;
		p->op_step = 4;
		fallthrough;
	case 4:
		r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_create);
		if (r != R_NEXT)
			return r;
		ino = eevdf__fs_new_inode(fs, false);
		if (!ino || eevdf__fs_link(dir, name, ino))
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		ino->nlink = 1;
		ino->meta_tid = fs->j.running_tid;
		eevdf__rwsem_up(sim, p, &dir->i_rwsem, true);
		return open_done(sim, p, op, ino);
	case 10:
		/* O_TRUNC: the inode found now is the one truncated, even if
		 * its name goes meanwhile */
		if (!ino)
			return finish(sim, p, op, STATUS_ENOENT);
		if (!(t = eevdf__io_fdtable(sim, p)))
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		t->held = ino;
		p->op_step = 11;
		fallthrough;
	case 11:
		t = eevdf__io_fdtable(sim, p);
		if (!t || !t->held)
			return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
						  "open lost its inode");
		ino = t->held;
		r = lock_step(sim, rq, p, &ino->i_rwsem, true, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 12;
		fallthrough;
	case 12:
		t = eevdf__io_fdtable(sim, p);
		if (!t || !t->held)
			return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
						  "open lost its inode");
		ino = t->held;
		r = eevdf__journal_start(sim, rq, p, fs, ino, 1);
		if (r != R_NEXT)
			return r;
		p->op_step = 13;
		fallthrough;
	case 13:
		t = eevdf__io_fdtable(sim, p);
		if (!t || !t->held)
			return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
						  "open lost its inode");
		ino = t->held;
		r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_unlink);
		if (r != R_NEXT)
			return r;
		t->held = NULL;
		eevdf__pages_drop(ino, 0);
		ino->size = 0;
		eevdf__rwsem_up(sim, p, &ino->i_rwsem, true);
		return open_done(sim, p, op, ino);
	default:
		break;
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad open step");
}

static int fs_close(struct eevdf_sim *sim, struct task *p, const struct pop *op)
{
	struct fdtable *t;
	struct file *f;
	s64 fd;
	int r;

	if ((r = eevdf__interp_eval(sim, p, &op->b, &fd)))
		return r;
	if (!(f = fd_get(sim, p, fd)))
		return finish(sim, p, op, STATUS_EBADF);
	r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_close);
	if (r != R_NEXT)
		return r;
	t = eevdf__io_fdtable(sim, p);
	t->f[fd - FD_BASE] = NULL;
	f->inode->opens--;
	if (!f->inode->nlink && !f->inode->opens)
		eevdf__inode_evict(f->inode);
	free(f);
	return finish(sim, p, op, STATUS_OK);
}

static u32 page_of(u64 off)
{
	return (u32)(off / PAGE_BYTES);
}

static u32 pages_spanned(u64 off, u64 len)
{
	return len ? page_of(off + len - 1) - page_of(off) + 1 : 0;
}

/*
 * read(): the range from the offset (pread) or the file position, up to
 * the bytes asked or the end of the file; in read() calls of chunk bytes
 * each (the last, returning 0, counts when reading to the end).  Missing
 * pages are read first, then the calls' CPU is burnt.
 */
static int fs_read(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op)
{
	struct file *f;
	struct inode *ino;
	s64 fd, v;
	u64 off, len, calls;
	int r;

	if ((r = eevdf__interp_eval(sim, p, &op->b, &fd)))
		return r;
	if (!(f = fd_get(sim, p, fd)))
		return finish(sim, p, op, STATUS_EBADF);
	ino = f->inode;
	if (!ino->fs->c.journal)
		ino->atime_stale = false;
	if (p->op_step == 0) {
		off = f->pos;
		if (op->field[0].kind != PV_NONE) {
			if ((r = eevdf__interp_eval(sim, p, &op->field[0], &v)))
				return r;
			off = v > 0 ? (u64)v : 0;
		}
		len = ino->size > off ? ino->size - off : 0;
		if (op->a.kind != PV_NONE) {
			if ((r = eevdf__interp_eval(sim, p, &op->a, &v)))
				return r;
			if (v >= 0 && (u64)v < len)
				len = (u64)v;
		}
		p->op_stamp = (s64)off;
		p->xfer_left = len;
		p->op_step = 1;
	}
	off = (u64)p->op_stamp;
	len = p->xfer_left;
	if (p->op_step == 1) {
		if (len && !ino->dir) {
			r = eevdf__pages_read(sim, rq, p, ino, page_of(off),
					      pages_spanned(off, len));
			if (r != R_NEXT)
				return r;
		}
		p->op_step = 2;
	}
	if (p->op_step == 2) {
		calls = 1;
		if (op->c.kind != PV_NONE) {
			if ((r = eevdf__interp_eval(sim, p, &op->c, &v)))
				return r;
			if (v > 0)
				calls = (len + (u64)v - 1) / (u64)v;
		}
		if (op->a.kind == PV_NONE || !len)
			calls++; /* the read() that returns 0 */
		r = eevdf__interp_charge(
			sim, p,
			calls * sim->sched.costs.fs_read_call +
				len * sim->sched.costs.fs_copy_page /
					PAGE_BYTES);
		if (r != R_NEXT)
			return r;
		p->op_step = 3;
	}
	/*
	 * file_accessed(): with relatime an atime older than the file's
	 * mtime is updated, and ext4_dirty_inode() logs the inode: the
	 * first read after each write starts a journal handle.
	 */
	if (ino->atime_stale && p->op_step == 3) {
		r = eevdf__journal_start(sim, rq, p, ino->fs, ino, 1);
		if (r != R_NEXT)
			return r;
		p->op_step = 4;
	}
	if (ino->atime_stale) {
		r = eevdf__interp_charge(sim, p,
					 sim->sched.costs.fs_dirty_inode);
		if (r != R_NEXT)
			return r;
		ino->atime_stale = false;
	}
	ino->fs->nr_hits += pages_spanned(off, len);
	if (op->field[0].kind == PV_NONE)
		f->pos = off + len;
	eevdf__interp_store(sim, p, op->field_slot[0], 0, (s64)len);
	eevdf__lru_touch(ino);
	return finish(sim, p, op, STATUS_OK);
}

/*
 * write(): under the file's i_rwsem, a partly written page that is on
 * the disk but not in the cache is read first; a journal handle
 * (file_update_time() dirties the inode); the calls' CPU; then the pages
 * are dirty and balance_dirty_pages() may make the writer sleep, still
 * holding the lock, as generic_perform_write() does.
 */
static int fs_write(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		    const struct pop *op, bool woken)
{
	struct file *f;
	struct inode *ino;
	struct fsys *fs;
	s64 fd, v;
	u64 off, len, calls;
	u32 first, n, npg, fresh = 0;
	int r;

	if ((r = eevdf__interp_eval(sim, p, &op->b, &fd)))
		return r;
	if (!(f = fd_get(sim, p, fd)))
		return finish(sim, p, op, STATUS_EBADF);
	ino = f->inode;
	fs = ino->fs;
	if (p->op_step == 0) {
		off = f->pos;
		if (op->field[0].kind != PV_NONE) {
			if ((r = eevdf__interp_eval(sim, p, &op->field[0], &v)))
				return r;
			off = v > 0 ? (u64)v : 0;
		}
		if ((r = eevdf__interp_eval(sim, p, &op->a, &v)))
			return r;
		p->op_stamp = (s64)off;
		p->xfer_left = v > 0 ? (u64)v : 0;
		p->op_step = 1;
	}
	off = (u64)p->op_stamp;
	len = p->xfer_left;
	first = page_of(off);
	n = pages_spanned(off, len);
	npg = (u32)((ino->size + PAGE_BYTES - 1) / PAGE_BYTES);
	switch (p->op_step) {
	case 1:
		r = lock_step(sim, rq, p, &ino->i_rwsem, true, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 2;
		fallthrough;
	case 2:
		/* read-modify-write of partial pages already in the file */
		if (n && off % PAGE_BYTES && first < npg) {
			r = eevdf__pages_read(sim, rq, p, ino, first, 1);
			if (r != R_NEXT)
				return r;
		}
		if (n && (off + len) % PAGE_BYTES && first + n - 1 < npg) {
			r = eevdf__pages_read(sim, rq, p, ino, first + n - 1,
					      1);
			if (r != R_NEXT)
				return r;
		}
		p->op_step = 3;
		fallthrough;
	case 3:
		r = eevdf__journal_start(sim, rq, p, fs, ino, 1);
		if (r != R_NEXT)
			return r;
		p->op_step = 4;
		fallthrough;
	case 4:
		calls = 1;
		if (op->c.kind != PV_NONE) {
			if ((r = eevdf__interp_eval(sim, p, &op->c, &v)))
				return r;
			if (v > 0 && len)
				calls = (len + (u64)v - 1) / (u64)v;
		}
		for (u32 i = first; i < first + n; i++)
			fresh += i >= ino->cap_pg ||
				 !(ino->pg[i] & PG_UPTODATE);
		r = eevdf__interp_charge(
			sim, p,
			calls * sim->sched.costs.fs_write_call +
				fresh * sim->sched.costs.fs_write_page +
				(n - fresh) * sim->sched.costs.fs_copy_page);
		if (r != R_NEXT)
			return r;
		if (eevdf__pages_reserve(ino, first + n))
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		fresh = 0;
		for (u32 i = first; i < first + n; i++) {
			fresh += !(ino->pg[i] & PG_DIRTY);
			eevdf__page_set(ino, i, PG_UPTODATE | PG_DIRTY);
		}
		if (off + len > ino->size)
			ino->size = off + len;
		if (op->field[0].kind == PV_NONE)
			f->pos = off + len;
		ino->atime_stale = true; /* mtime is now after atime */
		if (fresh)
			eevdf__inode_dirtied(sim, ino);
		eevdf__lru_touch(ino);
		eevdf__pagecache_shrink(fs);
		p->op_step = 5;
		v = eevdf__dirty_pause(sim, fs, fresh);
		if (v > 0)
			return eevdf__interp_block(sim, rq, p, WAIT_SLEEP, NULL,
						   v);
		fallthrough;
	case 5:
		eevdf__rwsem_up(sim, p, &ino->i_rwsem, true);
		return finish(sim, p, op, STATUS_OK);
	default:
		break;
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad write step");
}

/*
 * fsync(): ext4_sync_file() writes the file's dirty pages from the
 * caller, waits until none is under writeback (with dioread_nolock that
 * includes the conversion work), then waits for the commit of the
 * transaction that last logged the inode.
 */
static int fs_fsync(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		    const struct pop *op)
{
	struct file *f;
	struct inode *ino;
	s64 fd;
	int r;

	if ((r = eevdf__interp_eval(sim, p, &op->b, &fd)))
		return r;
	if (!(f = fd_get(sim, p, fd)))
		return finish(sim, p, op, STATUS_EBADF);
	ino = f->inode;
	switch (p->op_step) {
	case 0:
		r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_fsync);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
		fallthrough;
	case 1:
		r = eevdf__inode_writepages(sim, rq, p, ino, true);
		if (r != R_NEXT)
			return r;
		p->op_step = 2;
		fallthrough;
	case 2:
		if (ino->nr_wb || ino->ioend_head)
			return eevdf__interp_block(sim, rq, p, WAIT_IO,
						   &ino->wb_wait, 0);
		if (ino->nr_dirty) {
			p->op_step = 1;
			return R_AGAIN;
		}
		p->op_step = 3;
		fallthrough;
	case 3:
		r = eevdf__journal_wait(sim, rq, p, ino->fs, ino->meta_tid);
		if (r != R_NEXT)
			return r;
		return finish(sim, p, op, STATUS_OK);
	default:
		break;
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad fsync step");
}

/*
 * rename(): lock_rename() takes both directories (the lower inode first
 * here, for a fixed order); a file renamed over another has its delayed
 * allocation flushed first (ext4's auto_da_alloc: ext4_alloc_da_blocks()
 * in ext4_rename()), from the caller and under the locks.
 */
static int fs_rename(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		     const struct pop *op, struct fsys *fs, bool woken)
{
	char sbuf[PATH_BUF], dbuf[PATH_BUF];
	struct inode *sdir, *ddir, *a, *b, *src, *tgt;
	const char *sname, *dname;
	int r;

	if ((r = path_of(sim, p, &op->obj, fs, sbuf, &sdir, &sname)) ||
	    (r = path_of(sim, p, &op->obj2, fs, dbuf, &ddir, &dname)))
		return r;
	if (!sdir || !ddir || !*sname || !*dname)
		return finish(sim, p, op, STATUS_ENOENT);
	a = sdir->ino <= ddir->ino ? sdir : ddir;
	b = a == sdir ? ddir : sdir;
	src = eevdf__fs_lookup(fs, sdir, sname);
	tgt = eevdf__fs_lookup(fs, ddir, dname);
	switch (p->op_step) {
	case 0:
		r = lock_step(sim, rq, p, &a->i_rwsem, true, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
		fallthrough;
	case 1:
		if (b != a) {
			r = lock_step(sim, rq, p, &b->i_rwsem, true, &woken);
			if (r != R_NEXT)
				return r;
		}
		p->op_step = 2;
		fallthrough;
	case 2:
		if (!src || src == tgt) {
			if (b != a)
				eevdf__rwsem_up(sim, p, &b->i_rwsem, true);
			eevdf__rwsem_up(sim, p, &a->i_rwsem, true);
			return finish(sim, p, op,
				      src ? STATUS_OK : STATUS_ENOENT);
		}
		if (tgt && !src->dir && src->nr_dirty && fs->c.auto_da_alloc) {
			r = eevdf__inode_writepages(sim, rq, p, src, true);
			if (r != R_NEXT)
				return r;
		}
		p->op_step = 3;
		fallthrough;
	case 3:
		r = eevdf__journal_start(sim, rq, p, fs, sdir, 2);
		if (r == R_NEXT && ddir != sdir)
			r = eevdf__journal_start(sim, rq, p, fs, ddir, 1);
		if (r != R_NEXT)
			return r;
		p->op_step = 4;
		fallthrough;
	case 4:
		r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_rename);
		if (r != R_NEXT)
			return r;
		if (tgt) {
			eevdf__fs_unlink_name(ddir, dname);
			drop_link(tgt);
		}
		eevdf__fs_unlink_name(sdir, sname);
		if (eevdf__fs_link(ddir, dname, src))
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		if (b != a)
			eevdf__rwsem_up(sim, p, &b->i_rwsem, true);
		eevdf__rwsem_up(sim, p, &a->i_rwsem, true);
		return finish(sim, p, op, STATUS_OK);
	default:
		break;
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad rename step");
}

/* unlink(), mkdir(), rmdir(): one change of a directory, under its lock. */
static int fs_dirop(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		    const struct pop *op, struct fsys *fs, bool woken)
{
	char buf[PATH_BUF];
	struct inode *dir, *ino;
	const char *name;
	u64 cost = op->code == P_MKDIR ? sim->sched.costs.fs_mkdir :
					 sim->sched.costs.fs_unlink;
	int r;

	if ((r = path_of(sim, p, &op->obj, fs, buf, &dir, &name)))
		return r;
	if (!dir || !*name)
		return finish(sim, p, op, STATUS_ENOENT);
	ino = eevdf__fs_lookup(fs, dir, name);
	switch (p->op_step) {
	case 0:
		r = lock_step(sim, rq, p, &dir->i_rwsem, true, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
		fallthrough;
	case 1: {
		s64 st = STATUS_OK;

		if (op->code == P_MKDIR && ino)
			st = STATUS_EEXIST;
		else if (op->code != P_MKDIR &&
			 (!ino || (op->code == P_UNLINK) == ino->dir))
			st = STATUS_ENOENT;
		else if (op->code == P_RMDIR && ino->nr_ents)
			st = STATUS_ENOTEMPTY;
		if (st != STATUS_OK) {
			eevdf__rwsem_up(sim, p, &dir->i_rwsem, true);
			return finish(sim, p, op, st);
		}
		r = eevdf__journal_start(sim, rq, p, fs, dir,
					 op->code == P_MKDIR ? 3 : 2);
		if (r != R_NEXT)
			return r;
		p->op_step = 2;
	}
		fallthrough;
	case 2:
		r = eevdf__interp_charge(sim, p, cost);
		if (r != R_NEXT)
			return r;
		if (op->code == P_MKDIR) {
			ino = eevdf__fs_new_inode(fs, true);
			if (!ino || eevdf__fs_link(dir, name, ino))
				return eevdf__sim_fail(sim, EEVDF_ENOMEM,
						       "out of memory");
			ino->nlink = 2;
		} else {
			eevdf__fs_unlink_name(dir, name);
			if (ino->dir)
				ino->nlink = 1;
			drop_link(ino);
		}
		eevdf__rwsem_up(sim, p, &dir->i_rwsem, true);
		return finish(sim, p, op, STATUS_OK);
	default:
		break;
	}
	return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL, "bad step");
}

static int fs_stat(struct eevdf_sim *sim, struct task *p, const struct pop *op,
		   struct fsys *fs)
{
	char buf[PATH_BUF];
	struct inode *dir;
	const char *name;
	int r = eevdf__interp_charge(sim, p, sim->sched.costs.fs_stat);

	if (r != R_NEXT)
		return r;
	if ((r = path_of(sim, p, &op->obj, fs, buf, &dir, &name)))
		return r;
	return finish(sim, p, op,
		      dir && eevdf__fs_lookup(fs, dir, name) ? STATUS_OK :
							       STATUS_ENOENT);
}

/* opendir(), readdir() to the end (or max entries), closedir(), under
 * the directory's i_rwsem for reading (iterate_dir()). */
static int fs_readdir(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      const struct pop *op, struct fsys *fs, bool woken)
{
	char buf[PATH_BUF];
	struct inode *dir, *d;
	const char *name;
	s64 max = -1;
	u64 n;
	int r;

	if ((r = path_of(sim, p, &op->obj, fs, buf, &dir, &name)))
		return r;
	d = dir ? eevdf__fs_lookup(fs, dir, name) : NULL;
	if (!d || !d->dir)
		return finish(sim, p, op, STATUS_ENOENT);
	if (p->op_step == 0) {
		r = lock_step(sim, rq, p, &d->i_rwsem, false, &woken);
		if (r != R_NEXT)
			return r;
		p->op_step = 1;
	}
	if (op->c.kind != PV_NONE &&
	    (r = eevdf__interp_eval(sim, p, &op->c, &max)))
		return r;
	n = (u64)d->nr_ents + 2; /* "." and ".." */
	if (max >= 0 && (u64)max < n)
		n = (u64)max;
	r = eevdf__interp_charge(sim, p,
				 sim->sched.costs.fs_open +
					 sim->sched.costs.fs_close +
					 n * sim->sched.costs.fs_readdir_entry);
	if (r != R_NEXT)
		return r;
	eevdf__rwsem_up(sim, p, &d->i_rwsem, false);
	eevdf__interp_store(sim, p, op->field_slot[0], 0, (s64)n);
	return finish(sim, p, op, STATUS_OK);
}

int eevdf__fs_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		   const struct pop *op)
{
	struct io *io = sim->io;
	bool woken = p->op_phase == PH_WAIT;
	struct fsys *fs = NULL;
	struct task *saved = io->current;
	int r;

	p->op_phase = PH_ACT;
	if (op->code != P_CLOSE && op->code != P_READ && op->code != P_WRITE &&
	    op->code != P_FSYNC && !(fs = op_fs(sim, op)))
		return eevdf__interp_fail(sim, p, EEVDF_EINVAL,
					  "a file op needs a filesystem");
	io->current = p;
	switch (op->code) {
	case P_OPEN:
		r = fs_open(sim, rq, p, op, fs, woken);
		break;
	case P_CLOSE:
		r = fs_close(sim, p, op);
		break;
	case P_READ:
		r = fs_read(sim, rq, p, op);
		break;
	case P_WRITE:
		r = fs_write(sim, rq, p, op, woken);
		break;
	case P_FSYNC:
		r = fs_fsync(sim, rq, p, op);
		break;
	case P_RENAME:
		r = fs_rename(sim, rq, p, op, fs, woken);
		break;
	case P_UNLINK:
	case P_MKDIR:
	case P_RMDIR:
		r = fs_dirop(sim, rq, p, op, fs, woken);
		break;
	case P_STAT:
		r = fs_stat(sim, p, op, fs);
		break;
	case P_READDIR:
		r = fs_readdir(sim, rq, p, op, fs, woken);
		break;
	default:
		r = eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
				       "not a file op");
		break;
	}
	io->current = saved;
	return r;
}

int eevdf__queue_work_exec(struct eevdf_sim *sim, struct task *p,
			   const struct pop *op, struct sim_object *o)
{
	struct user_work *uw = o->u.io.rt;
	struct task *saved = sim->io->current;

	(void)op;
	sim->io->current = p;
	eevdf__queue_work(sim, uw->work.wq, &uw->work, p->cpu);
	sim->io->current = saved;
	return R_NEXT;
}
