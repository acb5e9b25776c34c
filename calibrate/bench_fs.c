/* SPDX-License-Identifier: MIT */
/*
 * One thread on one CPU in a scratch directory of the file system under
 * test (--fs-dir, default "."): the CPU costs of the file-system calls
 * the I/O model charges (docs/machine-format.md, the fs_* entries).
 * Everything stays in the page cache: no call here waits for the device,
 * so each batch times K calls between two clock reads as the syscall
 * benchmarks do.  What each call needs (files to open, names to rename
 * over) is made before the batch and removed after it, untimed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "bench.h"
#include "host.h"

/* files of the open, stat and rename batches; entries of the readdir one */
#define FS_NAMES 50
#define FS_DIRENTS 500
#define FS_FILE_BYTES 65536

struct fs_ctx {
	const struct cal_plan *p;
	struct cal_set *set;
	char dir[PATH_MAX];
	char *err;
	size_t len;
};

/* K at the plan's scale, at least 1 and at most max. */
static int reps(const struct cal_plan *p, int k, int max)
{
	long n = (long)k * p->scale / 100;

	if (n < 1)
		n = 1;
	return n > max ? max : (int)n;
}

static void add(struct fs_ctx *c, const char *name, const char *method,
		int64_t ns, int k)
{
	struct cal_series *s = cal_series_get(c->set, name, "ns");

	if (s && !s->method[0])
		cal_series_method(s, "%s; one sample is the mean of %d calls",
				  method, k);
	cal_series_add(c->set, s, (double)ns / k);
}

static int fail(struct fs_ctx *c, const char *what, const char *path)
{
	snprintf(c->err, c->len, "file-system benchmark: %s %s: %s", what, path,
		 strerror(errno));
	return -1;
}

/* c->dir/prefix<i> into buf */
static void name_of(const struct fs_ctx *c, char *buf, size_t len,
		    const char *prefix, int i)
{
	snprintf(buf, len, "%s/%s%d", c->dir, prefix, i);
}

/* An empty file, or one of bytes bytes written now (in the cache). */
static int make_file(struct fs_ctx *c, const char *path, size_t bytes)
{
	static const char page[4096];
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	if (fd < 0)
		return fail(c, "cannot create", path);
	for (size_t done = 0; done < bytes; done += sizeof(page))
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
			close(fd);
			return fail(c, "cannot write", path);
		}
	close(fd);
	return 0;
}

/* Close the k descriptors; -1 with err naming the first that failed to
 * open (prefix<i>), or 0. */
static int close_all(struct fs_ctx *c, const int *fds, int k,
		     const char *prefix, const char *what)
{
	char path[PATH_MAX + 16];
	int bad = -1, err = 0;

	for (int i = 0; i < k; i++) {
		if (fds[i] >= 0) {
			close(fds[i]);
		} else if (bad < 0) {
			bad = i;
			err = errno;
		}
	}
	if (bad < 0)
		return 0;
	name_of(c, path, sizeof(path), prefix, bad);
	errno = err;
	return fail(c, what, path);
}

static void unlink_all(const struct fs_ctx *c, const char *prefix, int n)
{
	char path[PATH_MAX + 16];

	for (int i = 0; i < n; i++) {
		name_of(c, path, sizeof(path), prefix, i);
		(void)unlink(path);
	}
}

/*
 * open() of existing files by name (their dentries cached), then the
 * close() of each; stat() of them and of names that do not exist; a
 * create of new names (open with O_CREAT), their unlink(), mkdir() and
 * rmdir().
 */
static int names(struct fs_ctx *c)
{
	int k = reps(c->p, FS_NAMES, FS_NAMES), fds[FS_NAMES];
	char path[PATH_MAX + 16];
	struct stat st;
	int64_t t0, t1;

	for (int i = 0; i < k; i++) {
		name_of(c, path, sizeof(path), "f", i);
		if (make_file(c, path, 0) < 0)
			return -1;
	}
	for (int b = 0; b < c->p->batches; b++) {
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "f", i);
			fds[i] = open(path, O_RDONLY);
		}
		t1 = cal_now();
		for (int i = 0; i < k; i++)
			if (fds[i] < 0)
				return close_all(c, fds, k, "f", "cannot open");
		add(c, "fs_open_existing",
		    "open(O_RDONLY) of an existing file by its path (directory "
		    "and name cached), the path formatted in the loop",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++)
			close(fds[i]);
		t1 = cal_now();
		add(c, "fs_close_file", "close() of a file opened read-only",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "f", i);
			(void)stat(path, &st);
		}
		t1 = cal_now();
		add(c, "fs_stat_existing", "stat() of an existing file by path",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "missing", i);
			(void)stat(path, &st);
		}
		t1 = cal_now();
		add(c, "fs_stat_missing",
		    "stat() of a name that does not exist (a failed lookup, "
		    "its negative dentry cached after the first batch)",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "n", i);
			fds[i] = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
		}
		t1 = cal_now();
		if (close_all(c, fds, k, "n", "cannot create") < 0)
			return -1;
		add(c, "fs_create_new",
		    "open(O_CREAT | O_TRUNC | O_WRONLY) of a name new in its "
		    "directory: a new inode and directory entry",
		    t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "n", i);
			(void)unlink(path);
		}
		t1 = cal_now();
		add(c, "fs_unlink_empty", "unlink() of an empty file", t1 - t0,
		    k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "d", i);
			(void)mkdir(path, 0700);
		}
		t1 = cal_now();
		add(c, "fs_mkdir", "mkdir() of a new directory", t1 - t0, k);
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, path, sizeof(path), "d", i);
			(void)rmdir(path);
		}
		t1 = cal_now();
		add(c, "fs_rmdir",
		    "rmdir() of an empty directory (informative)", t1 - t0, k);
	}
	unlink_all(c, "f", k);
	return 0;
}

/*
 * rename() of an empty name.tmp over an existing empty name, as
 * blogbench replaces its files (without the data, whose flush the model
 * charges to writeback): both made before each batch.
 */
static int renames(struct fs_ctx *c)
{
	int k = reps(c->p, FS_NAMES, FS_NAMES);
	char from[PATH_MAX + 16], to[PATH_MAX + 16];

	for (int b = 0; b < c->p->batches; b++) {
		int64_t t0, t1;

		for (int i = 0; i < k; i++) {
			name_of(c, from, sizeof(from), "t", i);
			name_of(c, to, sizeof(to), "r", i);
			if (make_file(c, from, 0) < 0 ||
			    make_file(c, to, 0) < 0)
				return -1;
		}
		t0 = cal_now();
		for (int i = 0; i < k; i++) {
			name_of(c, from, sizeof(from), "t", i);
			name_of(c, to, sizeof(to), "r", i);
			(void)rename(from, to);
		}
		t1 = cal_now();
		add(c, "fs_rename_over",
		    "rename() of an empty file over an existing empty file in "
		    "the same directory (the target's inode freed)",
		    t1 - t0, k);
		unlink_all(c, "r", k);
	}
	return 0;
}

/*
 * Reads of a cached file: 8 bytes at a time (blogbench 1.2) and a page
 * at a time; writes of 8 bytes into a page already in the cache, and
 * of whole new pages appended to an empty file; futimens(), which logs
 * the inode (ext4_dirty_inode()).
 */
static int data(struct fs_ctx *c)
{
	static char buf[4096];
	int k8 = reps(c->p, 2000, FS_FILE_BYTES / 8);
	int kp = reps(c->p, 16, FS_FILE_BYTES / 4096);
	int kw = reps(c->p, 64, 256), ku = reps(c->p, 200, 1000);
	char path[PATH_MAX + 16];
	int fd, wfd;
	int64_t t0, t1;

	name_of(c, path, sizeof(path), "data", 0);
	if (make_file(c, path, FS_FILE_BYTES) < 0)
		return -1;
	if ((fd = open(path, O_RDWR)) < 0)
		return fail(c, "cannot open", path);
	name_of(c, path, sizeof(path), "append", 0);
	if ((wfd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600)) < 0) {
		close(fd);
		return fail(c, "cannot create", path);
	}
	for (int b = 0; b < c->p->batches; b++) {
		(void)lseek(fd, 0, SEEK_SET);
		t0 = cal_now();
		for (int i = 0; i < k8; i++)
			(void)read(fd, buf, 8);
		t1 = cal_now();
		add(c, "fs_read_8",
		    "an 8-byte read() of a file in the page cache, going "
		    "forward",
		    t1 - t0, k8);
		t0 = cal_now();
		for (int i = 0; i < kp; i++)
			(void)pread(fd, buf, sizeof(buf), (off_t)i * 4096);
		t1 = cal_now();
		add(c, "fs_read_page", "a 4096-byte pread() of a cached page",
		    t1 - t0, kp);
		t0 = cal_now();
		for (int i = 0; i < k8; i++)
			(void)pwrite(fd, buf, 8, (off_t)(i % 512) * 8);
		t1 = cal_now();
		add(c, "fs_write_8_cached",
		    "an 8-byte pwrite() into the first page of a cached file",
		    t1 - t0, k8);
		t0 = cal_now();
		for (int i = 0; i < kw; i++)
			(void)write(wfd, buf, sizeof(buf));
		t1 = cal_now();
		add(c, "fs_write_page_new",
		    "a 4096-byte write() appending a new page to a file "
		    "(allocation, delayed-allocation reservation, copy, dirty)",
		    t1 - t0, kw);
		if (ftruncate(wfd, 0) < 0 || lseek(wfd, 0, SEEK_SET) < 0) {
			close(fd);
			close(wfd);
			return fail(c, "cannot truncate", path);
		}
		t0 = cal_now();
		for (int i = 0; i < ku; i++)
			(void)futimens(fd, NULL);
		t1 = cal_now();
		add(c, "fs_futimens",
		    "futimens(fd, NULL): a system call that sets the times "
		    "and logs the inode (ext4_dirty_inode() under a handle)",
		    t1 - t0, ku);
	}
	close(fd);
	close(wfd);
	unlink_all(c, "data", 1);
	unlink_all(c, "append", 1);
	return 0;
}

/* getdents64() over a directory of FS_DIRENTS entries, per entry. */
static int listing(struct fs_ctx *c)
{
	static char buf[32768];
	char path[PATH_MAX + 16], sub[PATH_MAX + 40];
	int n = reps(c->p, FS_DIRENTS, FS_DIRENTS), fd;

	snprintf(path, sizeof(path), "%s/list", c->dir);
	if (mkdir(path, 0700) < 0)
		return fail(c, "cannot make", path);
	for (int i = 0; i < n; i++) {
		name_of(c, sub, sizeof(sub), "list/e", i);
		if (make_file(c, sub, 0) < 0)
			return -1;
	}
	if ((fd = open(path, O_RDONLY | O_DIRECTORY)) < 0)
		return fail(c, "cannot open", path);
	for (int b = 0; b < c->p->batches; b++) {
		int64_t t0 = cal_now(), t1;

		(void)lseek(fd, 0, SEEK_SET);
		while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
			;
		t1 = cal_now();
		add(c, "fs_readdir_entry",
		    "a whole listing by getdents64() (32 KiB buffers) of a "
		    "directory of empty files, per entry",
		    t1 - t0, n + 2);
	}
	close(fd);
	unlink_all(c, "list/e", n);
	(void)rmdir(path);
	return 0;
}

int cal_bench_fs(const struct cal_plan *p, struct cal_set *set, char *err,
		 size_t len)
{
	struct fs_ctx c = { .p = p, .set = set, .err = err, .len = len };
	int r;

	if (!p->fs_dir)
		return 0;
	if ((r = cal_pin(p->cpu_a)) < 0) {
		snprintf(err, len, "cannot pin to CPU %d: %s", p->cpu_a,
			 strerror(-r));
		return -1;
	}
	if ((size_t)snprintf(c.dir, sizeof(c.dir), "%s/eevdf-calibrate.XXXXXX",
			     p->fs_dir) >= sizeof(c.dir)) {
		snprintf(err, len, "--fs-dir: '%s' is too long", p->fs_dir);
		return -1;
	}
	if (!mkdtemp(c.dir))
		return fail(&c, "cannot make a directory in", p->fs_dir);
	r = names(&c);
	if (!r)
		r = renames(&c);
	if (!r)
		r = data(&c);
	if (!r)
		r = listing(&c);
	/* whatever failed, leave nothing behind */
	unlink_all(&c, "list/e", FS_DIRENTS);
	unlink_all(&c, "data", 1);
	unlink_all(&c, "append", 1);
	unlink_all(&c, "f", FS_NAMES);
	unlink_all(&c, "n", FS_NAMES);
	unlink_all(&c, "t", FS_NAMES);
	unlink_all(&c, "r", FS_NAMES);
	for (int i = 0; i < FS_NAMES; i++) {
		char path[PATH_MAX + 16];

		name_of(&c, path, sizeof(path), "d", i);
		(void)rmdir(path);
	}
	snprintf(c.dir + strlen(c.dir), sizeof(c.dir) - strlen(c.dir), "/list");
	(void)rmdir(c.dir);
	*strrchr(c.dir, '/') = '\0';
	(void)rmdir(c.dir);
	return r;
}
