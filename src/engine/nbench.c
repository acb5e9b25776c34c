/* SPDX-License-Identifier: MIT */
/*
 * dbench's client: it replays an NBENCH load file line by line, for ever,
 * against the file system as dbench 4's fileio backend does (child.c's
 * child_run() and fileio.c, read for this model):
 *
 *  - paths are the load file's with "client1" replaced by the client's
 *    name ("client0" for the first); handles (fnum) map to descriptors;
 *  - most calls first resolve the name as dbench's resolve_name() does: a
 *    stat(), and when that fails a readdir() of the parent (an NTCreateX
 *    that creates a file lists its directory first);
 *  - NTCreateX opens with O_CREAT for FILE_CREATE and O_CREAT | O_TRUNC
 *    for FILE_OVERWRITE(_IF), mkdir()s first for FILE_DIRECTORY_FILE;
 *    ReadX and WriteX are pread() and pwrite(); Flush is fsync();
 *    FIND_FIRST with a wildcard reads the directory (at most maxcnt
 *    entries); QUERY_FILE_INFORMATION, QUERY_FS_INFORMATION and the
 *    byte-range locks (uncontended: every client has its own files) are
 *    a call's CPU; SET_FILE_INFORMATION's utime() logs the inode;
 *    Deltree removes a tree;
 *  - a line's latency is from its start to its end (finish_op()), kept
 *    per op name; ReadX and WriteX count their size in the bytes.
 *
 * Lines with timestamps are paced (nb_time_delay()); without, they run
 * back to back, as the stock client.txt does.  A call whose status
 * differs from the line's expectation does not stop the client.
 */
#include <string.h>

#include "io.h"
#include "metrics.h"
#include "nbench.h"

const char *const eevdf__nb_op_names[NB_NR_OPS] = {
	"NTCreateX",
	"Close",
	"ReadX",
	"WriteX",
	"QUERY_PATH_INFORMATION",
	"QUERY_FILE_INFORMATION",
	"QUERY_FS_INFORMATION",
	"SET_FILE_INFORMATION",
	"FIND_FIRST",
	"Unlink",
	"Rename",
	"Mkdir",
	"Rmdir",
	"Deltree",
	"Flush",
	"LockX",
	"UnlockX",
	"SLEEP",
};

void eevdf__nb_load_unref(struct nb_load *l)
{
	if (!l || --l->refs > 0)
		return;
	free(l->name);
	free(l->lines);
	free(l->pool);
	free(l);
}

/* A client's replay state, kept with its open files. */
struct nb_state {
	u32 line;
	u32 rep;
	u32 sub; /* which call of the line */
	bool busy;
	bool opened; /* the resolve's stat found the name */
	eevdf_time t0, base;
	s64 cur[NB_PARAMS], prev[NB_PARAMS];
	s64 *fnum, *fd; /* handle map */
	u32 nh, caph;
	s64 name_ids[NB_NR_OPS]; /* interned op names */
	bool ids;
};

int eevdf__sim_add_nb_load(struct eevdf_sim *sim, struct nb_load *l)
{
	struct io *io = sim->io;
	struct nb_load **n;

	if (!io)
		return EEVDF_EINVAL;
	n = realloc(io->loads, (io->nr_loads + 1) * sizeof(*n));
	if (!n)
		return EEVDF_ENOMEM;
	io->loads = n;
	l->refs++;
	io->loads[io->nr_loads] = l;
	return (int)io->nr_loads++;
}

static struct nb_state *state_of(struct eevdf_sim *sim, struct task *p)
{
	struct fdtable *t = eevdf__io_fdtable(sim, p);

	if (!t)
		return NULL;
	if (!t->nb)
		t->nb = calloc(1, sizeof(*t->nb));
	return t->nb;
}

void eevdf__nb_state_free(struct nb_state *s)
{
	if (!s)
		return;
	free(s->fnum);
	free(s->fd);
	free(s);
}

static s64 handle_fd(const struct nb_state *s, s64 fnum)
{
	for (u32 i = 0; i < s->nh; i++)
		if (s->fnum[i] == fnum)
			return s->fd[i];
	return -1;
}

static int handle_set(struct nb_state *s, s64 fnum, s64 fd)
{
	for (u32 i = 0; i < s->nh; i++)
		if (s->fnum[i] == fnum) {
			s->fd[i] = fd;
			return 0;
		}
	if (s->nh == s->caph) {
		u32 cap = s->caph ? 2 * s->caph : 16;
		s64 *a = realloc(s->fnum, cap * sizeof(*a)), *b;

		if (!a)
			return EEVDF_ENOMEM;
		s->fnum = a;
		b = realloc(s->fd, cap * sizeof(*b));
		if (!b)
			return EEVDF_ENOMEM;
		s->fd = b;
		s->caph = cap;
	}
	s->fnum[s->nh] = fnum;
	s->fd[s->nh++] = fd;
	return 0;
}

static void handle_drop(struct nb_state *s, s64 fnum)
{
	for (u32 i = 0; i < s->nh; i++)
		if (s->fnum[i] == fnum) {
			s->fnum[i] = s->fnum[s->nh - 1];
			s->fd[i] = s->fd[s->nh - 1];
			s->nh--;
			return;
		}
}

/*
 * parse_special(): "*" a random 64-bit number, then "/y" align, "%y"
 * modulo, "+y" add; "+y" alone: the previous line's value plus y.
 */
static s64 special(struct task *p, const char *f, s64 prev)
{
	u64 num;

	if (*f == '+')
		return prev + strtoll(f + 1, NULL, 0);
	num = eevdf__rng_next(&p->rng);
	for (f++; *f;) {
		char q = *f++;
		char *end;
		long long v = strtoll(f, &end, 0);

		if (v <= 0)
			break;
		if (q == '/')
			num = num / (u64)v * (u64)v;
		else if (q == '%')
			num %= (u64)v;
		else if (q == '+')
			num += (u64)v;
		f = end;
	}
	return (s64)(num & INT64_MAX);
}

/* The line's path with "client1" made this client's name. */
static void client_path(const struct nb_load *l, u32 off, s64 client, char *buf,
			size_t len)
{
	const char *s = l->pool + off, *hit;
	char name[32];
	size_t n = 0;

	snprintf(name, sizeof(name), "client%lld", (long long)client);
	buf[0] = '\0';
	while (*s == '/')
		s++;
	while ((hit = strstr(s, "client1")) && n < len) {
		n += (size_t)snprintf(buf + n, len - n, "%.*s%s",
				      (int)(hit - s), s, name);
		s = hit + 7;
	}
	if (n < len)
		snprintf(buf + n, len - n, "%s", s);
}

static void parent_of(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash)
		*slash = '\0';
	else
		strcpy(path, ".");
}

/* An fs call as an op of the file system's (slot: status, fd var). */
static void call_init(struct pop *c, const struct pop *op, enum popcode code,
		      char *path, char *path2)
{
	memset(c, 0, sizeof(*c));
	c->code = code;
	c->a.kind = PV_CONST;
	c->a.c = op->c.c; /* the file system */
	c->obj.idx = OBJ_NONE;
	c->obj.text = path;
	c->obj2.idx = OBJ_NONE;
	c->obj2.text = path2;
	c->slot = op->field_slot[0];
	for (u32 k = 0; k < MSG_FIELDS; k++)
		c->field_slot[k] = NO_SLOT;
}

static void cval(struct pval *v, s64 x)
{
	v->kind = PV_CONST;
	v->c = x;
}

static s64 status_of(struct eevdf_sim *sim, struct task *p,
		     const struct pop *op)
{
	(void)sim;
	return op->field_slot[0] == NO_SLOT ? 0 : p->locals[op->field_slot[0]];
}

/* Deltree: every file and directory under dir goes, at once. */
static u64 deltree(struct fsys *fs, struct inode *dir)
{
	u64 n = 0;

	while (dir->nr_ents) {
		struct inode *c = dir->ents[dir->nr_ents - 1].inode;

		if (c->dir)
			n += deltree(fs, c);
		eevdf__fs_unlink_name(dir, dir->ents[dir->nr_ents - 1].name);
		if (c->nlink)
			c->nlink--;
		if (c->dir)
			c->nlink = 0;
		if (!c->nlink && !c->opens)
			eevdf__inode_evict(c);
		n++;
	}
	return n;
}

/* One call of the current line; R_NEXT when the line is done. */
static int run_line(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		    const struct pop *op, const struct nb_load *l,
		    const struct nb_line *ln, struct nb_state *s, s64 client)
{
	char path[256], path2[256];
	struct pop c;
	s64 fd;
	int r;

	path[0] = path2[0] = '\0';
	if (ln->path)
		client_path(l, ln->path, client, path, sizeof(path));
	if (ln->path2)
		client_path(l, ln->path2, client, path2, sizeof(path2));
	/* resolve_name() first: stat, and a readdir of the parent if the
	 * name is not there */
	switch (ln->op) {
	case NB_NTCREATEX:
	case NB_UNLINK:
	case NB_RENAME:
	case NB_MKDIR:
	case NB_RMDIR:
	case NB_QPATHINFO:
	case NB_FINDFIRST:
		if (s->sub == 0) {
			call_init(&c, op, P_STAT, path, NULL);
			if ((r = eevdf__fs_exec(sim, rq, p, &c)) != R_NEXT)
				return r;
			s->opened = status_of(sim, p, op) == STATUS_OK;
			s->sub = s->opened || ln->op == NB_QPATHINFO ? 2 : 1;
		}
		if (s->sub == 1) {
			char dir[256];

			snprintf(dir, sizeof(dir), "%s", path);
			parent_of(dir);
			call_init(&c, op, P_READDIR, dir, NULL);
			if ((r = eevdf__fs_exec(sim, rq, p, &c)) != R_NEXT)
				return r;
			s->sub = 2;
		}
		break;
	default:
		if (s->sub < 2)
			s->sub = 2;
		break;
	}
	switch (ln->op) {
	case NB_NTCREATEX: {
		s64 disp = s->cur[1];
		bool dirf = s->cur[0] & 1;

		if (dirf && s->sub == 2) {
			call_init(&c, op, P_MKDIR, path, NULL);
			if ((r = eevdf__fs_exec(sim, rq, p, &c)) != R_NEXT)
				return r;
		}
		s->sub = 3;
		call_init(&c, op, P_OPEN, path, NULL);
		c.field_slot[0] = op->slot;
		if (!dirf && disp == 2)
			c.flags |= FS_CREAT;
		if (!dirf && (disp == 4 || disp == 5))
			c.flags |= FS_CREAT | FS_TRUNC;
		if ((r = eevdf__fs_exec(sim, rq, p, &c)) != R_NEXT)
			return r;
		if (status_of(sim, p, op) == STATUS_OK &&
		    handle_set(s, s->cur[2], p->locals[op->slot]))
			return eevdf__sim_fail(sim, EEVDF_ENOMEM,
					       "out of memory");
		return R_NEXT;
	}
	case NB_CLOSE:
	case NB_READX:
	case NB_WRITEX:
	case NB_FLUSH:
		fd = handle_fd(s, s->cur[0]);
		if (fd < 0)
			return R_NEXT; /* dbench would exit: "handle not found" */
		call_init(&c, op,
			  ln->op == NB_CLOSE  ? P_CLOSE :
			  ln->op == NB_READX  ? P_READ :
			  ln->op == NB_WRITEX ? P_WRITE :
						P_FSYNC,
			  NULL, NULL);
		cval(&c.b, fd);
		if (ln->op == NB_READX || ln->op == NB_WRITEX) {
			cval(&c.a, s->cur[2]);
			cval(&c.field[0], s->cur[1]);
		}
		if ((r = eevdf__fs_exec(sim, rq, p, &c)) != R_NEXT)
			return r;
		if (ln->op == NB_CLOSE)
			handle_drop(s, s->cur[0]);
		return R_NEXT;
	case NB_QPATHINFO:
		return R_NEXT; /* the resolve's stat was the call */
	case NB_FINDFIRST:
		if (!strpbrk(path, "<>*?\""))
			return R_NEXT;
		parent_of(path);
		call_init(&c, op, P_READDIR, path, NULL);
		cval(&c.c, s->cur[1]);
		return eevdf__fs_exec(sim, rq, p, &c);
	case NB_UNLINK:
	case NB_MKDIR:
	case NB_RMDIR:
		call_init(&c, op,
			  ln->op == NB_UNLINK ? P_UNLINK :
			  ln->op == NB_MKDIR  ? P_MKDIR :
						P_RMDIR,
			  path, NULL);
		return eevdf__fs_exec(sim, rq, p, &c);
	case NB_RENAME:
		call_init(&c, op, P_RENAME, path, path2);
		return eevdf__fs_exec(sim, rq, p, &c);
	case NB_SFILEINFO:
		/* fstat(), then utime() logs the inode */
		fd = handle_fd(s, s->cur[0]);
		if (fd >= 0 && s->sub == 2) {
			struct file *f = NULL;
			struct fdtable *t = eevdf__io_fdtable(sim, p);

			if (t && fd - FD_BASE < (s64)t->n)
				f = t->f[fd - FD_BASE];
			if (f) {
				r = eevdf__journal_start(
					sim, rq, p, f->inode->fs, f->inode, 1);
				if (r != R_NEXT)
					return r;
			}
		}
		s->sub = 3;
		return eevdf__interp_charge(
			sim, p,
			sim->sched.costs.fs_stat +
				sim->sched.costs.fs_dirty_inode);
	case NB_QFILEINFO:
	case NB_QFSINFO:
	case NB_LOCKX:
	case NB_UNLOCKX:
		return eevdf__interp_charge(sim, p, sim->sched.costs.fs_stat);
	case NB_DELTREE: {
		struct sim_object *o = sim->objs[op->c.c];
		struct fsys *fs = o->u.io.rt;
		struct inode *dir;
		const char *name;
		struct inode *t;

		if (s->sub == 2) {
			eevdf__fs_walk(fs, path, &dir, &name);
			t = dir ? eevdf__fs_lookup(fs, dir, name) : NULL;
			p->xfer_left = t && t->dir ? deltree(fs, t) : 0;
			s->sub = 3;
		}
		return eevdf__interp_charge(
			sim, p,
			sim->sched.costs.fs_stat +
				p->xfer_left * sim->sched.costs.fs_unlink);
	}
	default:
		return R_NEXT;
	}
}

/* finish_op() and the throughput counters. */
static void line_done(struct eevdf_sim *sim, struct task *p,
		      const struct pop *op, const struct nb_line *ln,
		      struct nb_state *s)
{
	s64 lat = sim->sched.now - s->t0;

	if (!s->ids) {
		for (int k = 0; k < NB_NR_OPS; k++)
			if (eevdf__sim_intern(sim, eevdf__nb_op_names[k],
					      &s->name_ids[k]))
				return;
		s->ids = true;
	}
	if (op->field[0].c >= 0)
		eevdf__metric_record(sim, (u32)op->field[0].c, p,
				     s->name_ids[ln->op], lat);
	if (op->field[1].c >= 0 && (ln->op == NB_READX || ln->op == NB_WRITEX))
		eevdf__metric_count(sim, (u32)op->field[1].c, p, s->cur[2]);
	if (op->field[2].c >= 0)
		eevdf__metric_count(sim, (u32)op->field[2].c, p, 1);
	if (op->field[3].c >= 0)
		eevdf__metric_record(sim, (u32)op->field[3].c, p,
				     sim->sched.now / EEVDF_NSEC_PER_SEC, lat);
	if (op->len2 && (ln->op == NB_READX || ln->op == NB_WRITEX))
		eevdf__metric_record(sim, op->len2 - 1, p,
				     sim->sched.now / EEVDF_NSEC_PER_SEC,
				     s->cur[2]);
}

int eevdf__nbench_exec(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		       const struct pop *op)
{
	struct io *io = sim->io;
	struct nb_state *s = state_of(sim, p);
	const struct nb_load *l;
	struct task *saved;
	s64 client;
	int r;

	if (!s)
		return eevdf__sim_fail(sim, EEVDF_ENOMEM, "out of memory");
	if (op->a.c < 0 || (size_t)op->a.c >= io->nr_loads)
		return eevdf__interp_fail(sim, p, EEVDF_EINTERNAL,
					  "bad load file");
	l = io->loads[op->a.c];
	if ((r = eevdf__interp_eval(sim, p, &op->b, &client)))
		return r;
	if (p->op_phase == PH_WAIT && !s->busy)
		p->op_phase = PH_ACT; /* a SLEEP or pacing sleep is over */
	for (;;) {
		const struct nb_line *ln;

		if (!s->busy) {
			if (s->line >= l->nr) {
				/* gzrewind(): again from the top */
				s->line = 0;
				s->base = sim->sched.now;
			}
			if (!s->line && !s->rep && !s->base)
				s->base = sim->sched.now;
			ln = &l->lines[s->line];
			if (ln->op == NB_SLEEP) {
				s->line++;
				return eevdf__interp_block(sim, rq, p,
							   WAIT_SLEEP, NULL,
							   ln->p[0] * 1000);
			}
			if (ln->t > 0) {
				eevdf_time due = s->base +
						 (eevdf_time)(ln->t * 1e9);

				if (due > sim->sched.now)
					return eevdf__interp_block(
						sim, rq, p, WAIT_SLEEP, NULL,
						due - sim->sched.now);
			}
			for (int k = 0; k < NB_PARAMS; k++) {
				s->cur[k] = ln->special & (1u << k) ?
						    special(p,
							    l->pool + ln->p[k],
							    s->prev[k]) :
						    ln->p[k];
				s->prev[k] = s->cur[k];
			}
			s->busy = true;
			s->sub = 0;
			s->t0 = sim->sched.now;
			p->op_step = 0;
			p->op_begun = false;
		}
		ln = &l->lines[s->line];
		saved = io->current;
		io->current = p;
		r = run_line(sim, rq, p, op, l, ln, s, client);
		io->current = saved;
		if (r != R_NEXT)
			return r == R_AGAIN ? R_AGAIN : r;
		line_done(sim, p, op, ln, s);
		s->busy = false;
		p->op_step = 0;
		p->op_begun = false;
		if (++s->rep >= ln->repeat) {
			s->rep = 0;
			s->line++;
		}
		return R_AGAIN;
	}
}
