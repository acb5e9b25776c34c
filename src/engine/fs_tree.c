/* SPDX-License-Identifier: MIT */
/*
 * The file system's name space: inodes, directories (entries sorted by
 * name, looked up by binary search: no hash order anywhere), paths, and
 * the inode's i_rwsem.
 *
 * Path walks are lock-free as the kernel's RCU walk is for cached
 * dentries; directory changes (create, rename, unlink, mkdir) hold the
 * parent's i_rwsem for writing, readdir holds it for reading, and a
 * buffered write() holds the file's (ext4_buffered_write_iter()).
 */
#include <string.h>

#include "io.h"

struct inode *eevdf__fs_new_inode(struct fsys *fs, bool dir)
{
	struct inode *ino = calloc(1, sizeof(*ino));

	if (!ino)
		return NULL;
	if (fs->nr_all == fs->cap_all) {
		size_t cap = fs->cap_all ? 2 * fs->cap_all : 64;
		struct inode **n = realloc(fs->all, cap * sizeof(*n));

		if (!n) {
			free(ino);
			return NULL;
		}
		fs->all = n;
		fs->cap_all = cap;
	}
	fs->all[fs->nr_all++] = ino;
	ino->ino = fs->next_ino++;
	ino->dir = dir;
	ino->fs = fs;
	eevdf__kwork_init(&ino->conv, KW_CONVERSION, ino);
	return ino;
}

static void inode_free(struct inode *ino)
{
	for (u32 i = 0; i < ino->nr_ents; i++)
		free(ino->ents[i].name);
	free(ino->ents);
	free(ino->pg);
	free(ino);
}

int eevdf__fs_init(struct eevdf_sim *sim, struct fsys *fs)
{
	(void)sim;
	fs->next_ino = 2; /* EXT4_ROOT_INO */
	fs->root = eevdf__fs_new_inode(fs, true);
	if (!fs->root)
		return EEVDF_ENOMEM;
	fs->root->nlink = 2;
	fs->root->parent = fs->root;
	fs->next_ino = 12; /* EXT4_GOOD_OLD_FIRST_INO: the first file's */
	fs->limit_pages = fs->c.memory / PAGE_BYTES;
	fs->bg_thresh = fs->limit_pages * fs->c.dirty_background_ratio / 100;
	fs->dirty_thresh = fs->limit_pages * fs->c.dirty_ratio / 100;
	/* the journal's area first (mke2fs puts it mid-disk; where does
	 * not matter but for seeks), then the data */
	fs->j.start = 1024;
	fs->j.blocks = 32768; /* a 128 MiB journal */
	fs->j.head = fs->j.start;
	fs->next_lba = fs->j.start + fs->j.blocks;
	return 0;
}

void eevdf__fs_free(struct fsys *fs)
{
	for (size_t i = 0; i < fs->nr_all; i++)
		inode_free(fs->all[i]);
	free(fs->all);
}

/* The index of name in dir's entries, or where it would go (~index). */
static long find(const struct inode *dir, const char *name)
{
	u32 lo = 0, hi = dir->nr_ents;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int c = strcmp(name, dir->ents[mid].name);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return ~(long)lo;
}

struct inode *eevdf__fs_lookup(struct fsys *fs, struct inode *dir,
			       const char *name)
{
	long i;

	(void)fs;
	if (!dir || !dir->dir)
		return NULL;
	if (strcmp(name, ".") == 0 || !*name)
		return dir;
	if (strcmp(name, "..") == 0)
		return dir->parent;
	i = find(dir, name);
	return i >= 0 ? dir->ents[i].inode : NULL;
}

int eevdf__fs_link(struct inode *dir, const char *name, struct inode *ino)
{
	long i = find(dir, name);
	size_t len = strlen(name) + 1;
	u32 at;

	if (i >= 0)
		return EEVDF_EINVAL;
	at = (u32)~i;
	if (dir->nr_ents == dir->cap_ents) {
		u32 cap = dir->cap_ents ? 2 * dir->cap_ents : 8;
		struct dentry *n = realloc(dir->ents, cap * sizeof(*n));

		if (!n)
			return EEVDF_ENOMEM;
		dir->ents = n;
		dir->cap_ents = cap;
	}
	memmove(dir->ents + at + 1, dir->ents + at,
		(dir->nr_ents - at) * sizeof(*dir->ents));
	dir->ents[at].name = malloc(len);
	if (!dir->ents[at].name) {
		memmove(dir->ents + at, dir->ents + at + 1,
			(dir->nr_ents - at) * sizeof(*dir->ents));
		return EEVDF_ENOMEM;
	}
	memcpy(dir->ents[at].name, name, len);
	dir->ents[at].inode = ino;
	dir->nr_ents++;
	if (ino->dir)
		ino->parent = dir;
	return 0;
}

void eevdf__fs_unlink_name(struct inode *dir, const char *name)
{
	long i = find(dir, name);

	if (i < 0)
		return;
	free(dir->ents[i].name);
	memmove(dir->ents + i, dir->ents + i + 1,
		(dir->nr_ents - (u32)i - 1) * sizeof(*dir->ents));
	dir->nr_ents--;
}

/*
 * Walk path (split in place at '/') to the directory holding its last
 * part: *dir is NULL when a middle part is missing or not a directory.
 * The number of parts walked is what the lookup costs.
 */
u32 eevdf__fs_walk(struct fsys *fs, char *path, struct inode **dir,
		   const char **name)
{
	struct inode *d = fs->root;
	char *s = path, *slash;
	u32 parts = 1;

	while (*s == '/')
		s++;
	while ((slash = strchr(s, '/'))) {
		*slash = '\0';
		if (d)
			d = eevdf__fs_lookup(fs, d, s);
		if (d && !d->dir)
			d = NULL;
		s = slash + 1;
		while (*s == '/')
			s++;
		parts++;
	}
	*dir = d;
	*name = s;
	return parts;
}

/*
 * rw_semaphore: taken at once when free (a reader also when readers hold
 * it) and nobody waits; else the caller queues in order and is handed
 * the lock: rwsem_mark_wake() gives it to the first waiter if that is a
 * writer, else to every waiting reader (since v5.3, not only those at
 * the front).  Optimistic spinning is not modelled: a waiter sleeps.
 * A waiter's mode is kept in its op_stamp while it waits.
 */
int eevdf__rwsem_down(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct rwsem *s, bool write)
{
	if (!s->wait.nr && (write ? s->count == 0 : s->count >= 0)) {
		s->count = write ? -1 : s->count + 1;
		return R_NEXT;
	}
	p->op_stamp = write;
	if (write)
		s->nr_wait_writers++;
	return eevdf__interp_block(sim, rq, p, WAIT_RWSEM, &s->wait, 0);
}

void eevdf__rwsem_up(struct eevdf_sim *sim, struct task *p, struct rwsem *s,
		     bool write)
{
	struct task *w, *next;

	(void)p;
	if (write)
		s->count = 0;
	else
		s->count--;
	if (s->count != 0 || !s->wait.head)
		return;
	w = s->wait.head;
	if (w->op_stamp) {
		eevdf__waitq_pop(&s->wait);
		s->nr_wait_writers--;
		s->count = -1;
		eevdf__interp_wake(sim, sim->io->current, w);
		return;
	}
	for (w = s->wait.head; w; w = next) {
		next = w->wait_next;
		if (w->op_stamp)
			continue;
		eevdf__waitq_remove(&s->wait, w);
		s->count++;
		eevdf__interp_wake(sim, sim->io->current, w);
	}
}
