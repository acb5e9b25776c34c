/* SPDX-License-Identifier: MIT */
/*
 * Output files written atomically: into a temporary file beside the
 * destination, every write checked, then flushed, synced and renamed over
 * it, so that a reader sees the old file or the whole new one, never a
 * part.  A destination that is a symbolic link keeps its link: the file
 * it points to is the one replaced.  The temporary file is known to the
 * signal handler (cli/signals.c), which removes it when the command is
 * interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Links followed before giving up, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40

/*
 * The file path names once symbolic links are followed (to a file that
 * may not exist yet): a malloc'd path, or NULL with errno (ELOOP for a
 * cycle).  A relative link is taken from the directory of the link.
 */
static char *final_target(const char *path)
{
	char *cur = strdup(path);

	for (int hops = 0; cur; hops++) {
		char link[PATH_MAX], *next;
		struct stat st;
		ssize_t n;
		const char *slash;
		size_t dir;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur; /* a file, or none yet: write it here */
		if (hops == MAX_LINKS) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
		next = malloc(dir + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dir);
			memcpy(next + dir, link, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	errno = ENOMEM;
	return NULL;
}

/*
 * path with its directory made absolute and canonical ("./x" and "x" are
 * one name), for a file that need not exist yet: into buf.  The path as
 * it is when its directory cannot be resolved.
 */
static void canonical(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real)) {
		snprintf(buf, len, "%s", path);
		return;
	}
	snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "",
		 slash ? slash + 1 : path);
}

bool cli_same_file(const char *a, const char *b)
{
	char *ta = final_target(a), *tb = final_target(b);
	char ca[2 * PATH_MAX], cb[2 * PATH_MAX];
	struct stat sa, sb;
	bool same = false;

	if (ta && tb) {
		canonical(ta, ca, sizeof(ca));
		canonical(tb, cb, sizeof(cb));
		same = strcmp(ca, cb) == 0 ||
		       (stat(ta, &sa) == 0 && stat(tb, &sb) == 0 &&
			sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
	}
	free(ta);
	free(tb);
	return same;
}

/* Make the rename durable: sync the directory that holds path. */
static int sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd, err = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* some file systems cannot sync a directory: nothing to report */
	if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
		err = errno;
	close(fd);
	return err;
}

bool cli_out_open(struct cli_out *out, const char *opt, const char *path)
{
	static unsigned int serial; /* two outputs of one process differ */
	struct stat st;
	size_t len;
	sigset_t held;
	int fd;

	memset(out, 0, sizeof(*out));
	out->opt = opt;
	if (!path || strcmp(path, "-") == 0) {
		out->f = stdout;
		return true;
	}
	out->shown = path;
	out->target = final_target(path);
	if (!out->target) {
		cli_error("%s %s: %s", opt, path, strerror(errno));
		return false;
	}
	if (stat(out->target, &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_error("%s %s: it is a directory", opt, path);
		cli_out_abort(out);
		return false;
	}
	/*
	 * A device or a FIFO (/dev/null, /dev/stdout, a pipe) is written as
	 * it is: a rename over it would replace the device by a file.
	 */
	if (stat(out->target, &st) == 0 && !S_ISREG(st.st_mode)) {
		out->f = fopen(out->target, "w");
		if (!out->f) {
			cli_error("%s %s: %s", opt, path, strerror(errno));
			cli_out_abort(out);
			return false;
		}
		out->direct = true;
		return true;
	}
	len = strlen(out->target) + 48;
	out->tmp = malloc(len);
	if (!out->tmp) {
		cli_error("out of memory");
		cli_out_abort(out);
		return false;
	}
	snprintf(out->tmp, len, "%s.tmp.%ld.%u", out->target, (long)getpid(),
		 serial++);
	/*
	 * Exclusively, so that a stale or foreign file of that name is
	 * never clobbered, and in the target's directory: rename is only
	 * atomic within a file system.
	 */
	held = cli_signals_hold();
	fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int e = errno;

		cli_signals_release(&held);
		cli_error("%s %s: cannot create %s: %s", opt, path, out->tmp,
			  strerror(e));
		free(out->tmp);
		out->tmp = NULL;
		cli_out_abort(out);
		return false;
	}
	cli_tmp_register(out->tmp);
	cli_signals_release(&held);
	out->f = fdopen(fd, "w");
	if (!out->f) {
		cli_error("%s %s: %s", opt, path, strerror(errno));
		close(fd);
		cli_out_abort(out);
		return false;
	}
	return true;
}

bool cli_out_write(struct cli_out *out, const char *text)
{
	size_t n = strlen(text);

	if (out->err)
		return false;
	if (fwrite(text, 1, n, out->f) != n) {
		out->err = errno ? errno : EIO;
		return false;
	}
	return true;
}

void cli_out_abort(struct cli_out *out)
{
	if (out->direct && out->f)
		fclose(out->f);
	if (out->tmp) {
		if (out->f)
			fclose(out->f);
		unlink(out->tmp);
		cli_tmp_unregister(out->tmp);
		free(out->tmp);
	}
	free(out->target);
	out->tmp = NULL;
	out->target = NULL;
	out->f = NULL;
}

/*
 * Make the output durable and visible: every write already checked, then
 * flush, fsync, close and rename over the target (the file a link points
 * to), and sync its directory.  On any failure the temporary file is
 * removed and the error said with its reason.
 */
bool cli_out_commit(struct cli_out *out)
{
	const char *what = out->shown ? out->shown : "standard output";
	int err = out->err;

	if (out->direct) {
		errno = 0;
		if (!err && fflush(out->f) != 0)
			err = errno ? errno : EIO;
		if (!err && ferror(out->f))
			err = EIO;
		if (fclose(out->f) != 0 && !err)
			err = errno;
		out->f = NULL;
		if (err)
			cli_error("error writing %s: %s", what, strerror(err));
		return !err;
	}
	if (!out->tmp) {
		errno = 0;
		if (!err && fflush(stdout) != 0)
			err = errno ? errno : EIO;
		if (!err && ferror(stdout))
			err = EIO;
		if (err)
			cli_error("error writing %s: %s", what, strerror(err));
		return !err;
	}
	errno = 0;
	if (!err && fflush(out->f) != 0)
		err = errno ? errno : EIO;
	if (!err && ferror(out->f))
		err = EIO;
	if (!err && fsync(fileno(out->f)) != 0)
		err = errno;
	if (fclose(out->f) != 0 && !err)
		err = errno;
	out->f = NULL;
	if (!err && rename(out->tmp, out->target) != 0)
		err = errno;
	if (err) {
		cli_error("error writing %s: %s", what, strerror(err));
		cli_out_abort(out);
		return false;
	}
	cli_tmp_unregister(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	err = sync_dir(out->target);
	free(out->target);
	out->target = NULL;
	if (err) {
		cli_error("error writing %s: syncing its directory: %s", what,
			  strerror(err));
		return false;
	}
	return true;
}

bool cli_write_atomic(const char *path, const char *text)
{
	struct cli_out out;
	bool ok;

	if (!cli_out_open(&out, "cannot write", path))
		return false;
	ok = cli_out_write(&out, text) && cli_out_write(&out, "\n");
	ok = cli_out_commit(&out) && ok;
	cli_out_abort(&out);
	return ok;
}
