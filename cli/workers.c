/* SPDX-License-Identifier: MIT */
/*
 * Worker processes for compare's runs and a sweep's points: each item runs
 * in a forked child that writes what the parent needs down a pipe; the
 * parent keeps up to `jobs` children busy and hands each item's bytes and
 * exit status back as it ends, whichever ends first.  The callers place
 * results by item index, so what they print does not depend on the number
 * of workers or on the order in which they finish.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

struct worker {
	pid_t pid;
	int fd;
	size_t item;
	char *data; /* what the child wrote so far */
	size_t len, cap;
};

/* Read what is there of w's pipe; false at EOF or on an error. */
static bool drain(struct worker *w)
{
	for (;;) {
		ssize_t r;

		if (w->cap - w->len < 4096) {
			size_t cap = w->cap ? 2 * w->cap : 8192;
			char *d = realloc(w->data, cap);

			if (!d)
				return false;
			w->data = d;
			w->cap = cap;
		}
		r = read(w->fd, w->data + w->len, w->cap - w->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		w->len += (size_t)r;
		/* one read per poll wakeup: the pipe may hold no more */
		return true;
	}
}

static bool start(struct worker *w, size_t item, const struct cli_pool_ops *ops,
		  void *ud)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) < 0) {
		cli_error("pipe: %s", strerror(errno));
		return false;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cli_error("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		int r;

		close(fds[0]);
		r = ops->child(item, fds[1], ud);
		fflush(NULL);
		_exit(r);
	}
	close(fds[1]);
	memset(w, 0, sizeof(*w));
	w->pid = pid;
	w->fd = fds[0];
	w->item = item;
	return true;
}

/* w's child closed its pipe: reap it and report; its wait status. */
static int finish(struct worker *w, const struct cli_pool_ops *ops, void *ud)
{
	int status = 0;
	pid_t r;

	close(w->fd);
	while ((r = waitpid(w->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (r < 0)
		status = EXIT_USAGE << 8; /* as an exit with EXIT_USAGE */
	if (w->data)
		w->data[w->len] = '\0';
	ops->finished(w->item, status, w->data ? w->data : "", w->len, ud);
	free(w->data);
	w->data = NULL;
	return status;
}

static bool failed(int status)
{
	return !WIFEXITED(status) || WEXITSTATUS(status) != EXIT_OK;
}

int cli_pool_run(size_t nr, int jobs, bool keep_going,
		 const struct cli_pool_ops *ops, void *ud)
{
	struct worker *w;
	struct pollfd *pfd;
	size_t next = 0, active = 0;
	int nfail = 0;
	bool broken = false;

	if (jobs < 1)
		jobs = 1;
	w = calloc((size_t)jobs, sizeof(*w));
	pfd = calloc((size_t)jobs, sizeof(*pfd));
	if (!w || !pfd) {
		free(w);
		free(pfd);
		cli_error("out of memory");
		return -1;
	}
	while (next < nr || active) {
		int n;

		/* after a failure without keep_going, or a broken fork, no
		 * more starts: the running ones are waited for */
		while (!broken && next < nr && active < (size_t)jobs &&
		       (keep_going || nfail == 0)) {
			if (!start(&w[active], next, ops, ud)) {
				broken = true;
				break;
			}
			next++;
			active++;
		}
		if (!active)
			break;
		for (size_t i = 0; i < active; i++)
			pfd[i] = (struct pollfd){ w[i].fd, POLLIN, 0 };
		n = poll(pfd, active, ops->tick ? 1000 : -1);
		if (n < 0) {
			if (errno != EINTR) {
				cli_error("poll: %s", strerror(errno));
				broken = true;
			}
			continue;
		}
		if (n == 0 && ops->tick)
			ops->tick(ud);
		/* from the top, so that moving the last into a finished
		 * slot never skips one that is ready */
		for (size_t i = active; n > 0 && i-- > 0;) {
			struct worker done;

			if (!pfd[i].revents || drain(&w[i]))
				continue;
			done = w[i];
			w[i] = w[--active];
			pfd[i] = pfd[active];
			if (failed(finish(&done, ops, ud)))
				nfail++;
		}
	}
	free(w);
	free(pfd);
	return broken ? -1 : nfail;
}
