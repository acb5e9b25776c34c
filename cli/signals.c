/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP: an interrupted command leaves no temporary
 * file behind, takes its worker processes with it, and exits 128 + the
 * signal's number (130, 143, 129), as a shell reports a command a signal
 * ended.
 *
 * Most commands are simply ended in the handler, with what is safe there
 * (unlink(), kill(), _exit()).  A command with results worth keeping
 * (compare) defers: the handler only stops the workers and notes the
 * signal, and the command's loop, woken by the interrupted system call,
 * writes what it has and exits with cli_signal_exit().
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli.h"

#define MAX_TMP 8
#define MAX_PIDS 256 /* sweep --jobs goes up to 256 */

/*
 * What the handler reads: plain pointers and pids, each slot written
 * whole by the main flow before (or after) it matters.
 */
static const char *volatile tmp_files[MAX_TMP];
static volatile pid_t workers[MAX_PIDS];
static volatile sig_atomic_t pending, deferring;

void cli_tmp_register(const char *path)
{
	for (int i = 0; i < MAX_TMP; i++) {
		if (!tmp_files[i]) {
			tmp_files[i] = path;
			return;
		}
	}
}

void cli_tmp_unregister(const char *path)
{
	for (int i = 0; i < MAX_TMP; i++)
		if (tmp_files[i] == path)
			tmp_files[i] = NULL;
}

static void the_three(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

sigset_t cli_signals_hold(void)
{
	sigset_t set, old;

	the_three(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	return old;
}

void cli_signals_release(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void cli_worker_register(pid_t pid)
{
	for (int i = 0; i < MAX_PIDS; i++) {
		if (!workers[i]) {
			workers[i] = pid;
			return;
		}
	}
}

void cli_worker_unregister(pid_t pid)
{
	for (int i = 0; i < MAX_PIDS; i++)
		if (workers[i] == pid)
			workers[i] = 0;
}

/* Async-signal-safe: kill() and unlink() only. */
static void kill_workers(void)
{
	for (int i = 0; i < MAX_PIDS; i++)
		if (workers[i] > 0)
			kill(workers[i], SIGTERM);
}

static void remove_tmp_files(void)
{
	for (int i = 0; i < MAX_TMP; i++)
		if (tmp_files[i])
			unlink(tmp_files[i]);
}

static void on_signal(int sig)
{
	int saved = errno;

	kill_workers();
	if (!pending)
		pending = sig;
	if (!deferring) {
		remove_tmp_files();
		_exit(128 + sig);
	}
	errno = saved;
}

void cli_signals_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	/* no SA_RESTART: a deferring command's wait returns EINTR */
	sa.sa_flags = 0;
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++) {
		struct sigaction old;

		/* a signal ignored by whoever started us stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

void cli_signals_defer(bool on)
{
	deferring = on;
}

int cli_signal_pending(void)
{
	return pending;
}

void cli_signal_exit(void)
{
	if (pending) {
		remove_tmp_files();
		_exit(128 + pending);
	}
}

void cli_worker_started(pid_t parent)
{
	int i;

	/*
	 * A worker dies with its parent whatever kills it (SIGKILL
	 * included), rather than run on, reparented to init; a parent
	 * already gone before the request counts as dead too.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(128 + SIGKILL);
	/* the parent's files and workers are not the worker's to touch */
	for (i = 0; i < MAX_TMP; i++)
		tmp_files[i] = NULL;
	for (i = 0; i < MAX_PIDS; i++)
		workers[i] = 0;
	deferring = false;
	pending = 0;
}
