/* SPDX-License-Identifier: MIT */
/*
 * A sweep's points, here: checked all at once before anything runs, then
 * run in worker processes (cli_pool_run()), each writing its results file
 * atomically, with a progress bar on a terminal.  A point whose results
 * are there already is skipped, so an interrupted sweep resumes where it
 * stopped; a point that fails leaves DIR/points/ID.error.json and the
 * others go on.  The wall clock paces the progress display only.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

/* Invalid points shown before "and N more". */
#define SHOW_INVALID 10
/* What of a failed point's messages the error file keeps. */
#define ERROR_TEXT_MAX 4096

/*
 * cli_run_check() on argv with standard error caught: its text in *text
 * (malloc'd, "" when it printed nothing).  An exit code.
 */
static int check_quietly(int argc, char **argv, bool warn, char **text)
{
	FILE *tmp = tmpfile();
	int saved, rc;
	long n;

	*text = NULL;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (!tmp || saved < 0 || dup2(fileno(tmp), STDERR_FILENO) < 0) {
		/* cannot catch it: let it through */
		if (tmp)
			fclose(tmp);
		if (saved >= 0)
			close(saved);
		return cli_run_check(argc, argv, warn);
	}
	rc = cli_run_check(argc, argv, warn);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = ftell(tmp);
	*text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
	if (*text && n > 0) {
		rewind(tmp);
		if (fread(*text, 1, (size_t)n, tmp) != (size_t)n)
			(*text)[0] = '\0';
	}
	fclose(tmp);
	return rc;
}

/* Each line of text on stderr, indented under a message about it. */
static void print_indented(const char *text)
{
	const char *s = text;

	while (*s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		fprintf(stderr, "    %.*s\n", len, s);
		s += len + (nl != NULL);
	}
}

/* Points between two values of the seed axis a (it is never zipped). */
static size_t stride_of(const eevdf_sweep *sw, size_t a)
{
	size_t stride = 1;

	for (size_t b = a + 1; b < eevdf_sweep_nr_axes(sw); b++)
		if (eevdf_sweep_axis_group(sw, b) == b)
			stride *= eevdf_sweep_axis_size(sw, b);
	return stride;
}

bool sweep_check_points(const eevdf_sweep *sw, const char *spec,
			const size_t *sel, size_t n)
{
	size_t np = eevdf_sweep_nr_points(sw), bad = 0, nw = 0;
	int seed = eevdf_sweep_axis_find(sw, "seed");
	size_t stride = seed >= 0 ? stride_of(sw, (size_t)seed) : 0;
	const char *warned[64];
	bool *checked = calloc(np, sizeof(*checked));

	if (!checked) {
		cli_error("out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		struct eevdf_sweep_point pt;
		size_t k = sel[i], rep = k;
		char **argv, *text = NULL, labels[1024];
		bool warn = true;
		int argc, rc;

		/* the same configuration under another seed: checked */
		if (seed >= 0)
			rep = k - eevdf_sweep_point_value(sw, k, (size_t)seed) *
					  stride;
		if (checked[rep])
			continue;
		checked[rep] = true;
		eevdf_sweep_point(sw, k, &pt);
		/* a workload's warnings (an rt-app file's) once */
		for (size_t w = 0; w < nw; w++)
			warn &= strcmp(warned[w], pt.workload) != 0;
		if (warn && nw < ARRAY_LEN(warned))
			warned[nw++] = pt.workload;
		argv = sweep_point_argv(&pt, &argc);
		if (!argv) {
			cli_error("out of memory");
			free(checked);
			return false;
		}
		rc = check_quietly(argc, argv, warn, &text);
		free(argv);
		if (rc == EXIT_OK) {
			/* warnings pass through */
			if (text && text[0])
				fputs(text, stderr);
		} else if (++bad <= SHOW_INVALID) {
			sweep_point_labels(sw, k, labels, sizeof(labels));
			cli_error("sweep: %s: point %zu (%s) cannot run:", spec,
				  k, labels);
			print_indented(text ? text : "");
		}
		free(text);
	}
	free(checked);
	if (bad > SHOW_INVALID)
		cli_error("sweep: ... and %zu more configurations",
			  bad - SHOW_INVALID);
	if (bad)
		cli_error("sweep: %s: %zu configuration%s cannot run; nothing "
			  "was run",
			  spec, bad, bad == 1 ? "" : "s");
	return bad == 0;
}

/* A local run in progress. */
struct local {
	const eevdf_sweep *sw;
	const char *dir;
	const size_t *todo; /* the points to run, by item */
	size_t nr_todo, nr_sel, skipped;
	size_t done, failed;
	int jobs;
	int progress;	   /* 1 lines, 0 none, 2 a bar */
	size_t kill_after; /* the test hook below; 0: none */
	double start;
	bool drawn;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * "[#######.............] 24/72, 1 failed, 2 running, 0:42 left" on a
 * terminal, redrawn in place; the estimate is the rate so far.
 */
static void draw_bar(struct local *l)
{
	size_t fin = l->done + l->failed, total = l->nr_todo + l->skipped;
	size_t shown = l->skipped + fin, running, width = 24, fill;
	double el = now_s() - l->start;
	char bar[32], eta[32] = "--:--";

	if (l->progress != 2)
		return;
	running = l->nr_todo - fin < (size_t)l->jobs ? l->nr_todo - fin :
						       (size_t)l->jobs;
	fill = total ? width * shown / total : width;
	for (size_t i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	if (fin) {
		double left = el / (double)fin * (double)(l->nr_todo - fin);
		long s = (long)(left + 0.5);

		snprintf(eta, sizeof(eta), "%ld:%02ld", s / 60, s % 60);
	}
	fprintf(stderr,
		"\r" PROG ": sweep: [%s] %zu/%zu, %zu failed, %zu "
		"running, %s left\033[K",
		bar, shown, total, l->failed, running, eta);
	fflush(stderr);
	l->drawn = true;
}

static void clear_bar(struct local *l)
{
	if (l->drawn) {
		fputs("\r\033[K", stderr);
		l->drawn = false;
	}
}

/* In a worker: run point todo[i], its messages down fd to the parent. */
static int point_child(size_t i, int fd, void *ud)
{
	const struct local *l = ud;
	struct eevdf_sweep_point pt;
	char path[4096], **argv, *json = NULL;
	int argc, rc;

	dup2(fd, STDERR_FILENO);
	close(fd);
	eevdf_sweep_point(l->sw, l->todo[i], &pt);
	argv = sweep_point_argv(&pt, &argc);
	if (!argv) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	rc = cli_run_json(argc, argv, &json);
	free(argv);
	if (rc == EXIT_OK) {
		sweep_point_path(l->dir, pt.id, false, path, sizeof(path));
		if (!cli_write_atomic(path, json))
			rc = EXIT_USAGE;
	}
	free(json);
	if (rc == EXIT_OK) {
		/* an old failure of this point is history now */
		sweep_point_path(l->dir, pt.id, true, path, sizeof(path));
		if (unlink(path) < 0 && errno != ENOENT)
			cli_error("%s: %s", path, strerror(errno));
	}
	return rc;
}

/* DIR/points/ID.error.json: what failed and why. */
static void write_error(const struct local *l, size_t k, int status,
			const char *text)
{
	struct eevdf_sweep_point pt;
	cJSON *e = cJSON_CreateObject(), *cmd;
	char path[4096], **argv = NULL, *out = NULL;
	int argc = 0;

	eevdf_sweep_point(l->sw, k, &pt);
	sweep_point_path(l->dir, pt.id, true, path, sizeof(path));
	argv = sweep_point_argv(&pt, &argc);
	if (!e || !argv)
		goto out;
	cJSON_AddStringToObject(e, "format", SWEEP_ERROR_FORMAT);
	cJSON_AddNumberToObject(e, "index", (double)k);
	cJSON_AddStringToObject(e, "id", pt.id);
	cmd = cJSON_AddArrayToObject(e, "command_line");
	cJSON_AddItemToArray(cmd, cJSON_CreateString(PROG));
	for (int i = 0; cmd && i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	if (WIFEXITED(status))
		cJSON_AddNumberToObject(e, "exit_status", WEXITSTATUS(status));
	else
		cJSON_AddNullToObject(e, "exit_status");
	if (WIFSIGNALED(status))
		cJSON_AddNumberToObject(e, "signal", WTERMSIG(status));
	else
		cJSON_AddNullToObject(e, "signal");
	cJSON_AddStringToObject(e, "error", text);
	out = cJSON_Print(e);
	if (out)
		cli_write_atomic(path, out);
out:
	if (!out)
		cli_error("%s: cannot record the failure: out of memory", path);
	cJSON_free(out);
	cJSON_Delete(e);
	free(argv);
}

static void point_finished(size_t i, int status, const char *data, size_t len,
			   void *ud)
{
	struct local *l = ud;
	size_t k = l->todo[i];
	char labels[1024], text[ERROR_TEXT_MAX];
	bool ok = WIFEXITED(status) && WEXITSTATUS(status) == EXIT_OK;

	(void)len;
	clear_bar(l);
	sweep_point_labels(l->sw, k, labels, sizeof(labels));
	if (ok) {
		l->done++;
		/* what the run printed anyway (nothing, normally) */
		if (data[0])
			fputs(data, stderr);
		if (l->progress == 1)
			fprintf(stderr,
				PROG ": sweep: point %zu done (%zu of "
				     "%zu): %s\n",
				k, l->skipped + l->done + l->failed, l->nr_sel,
				labels);
	} else {
		l->failed++;
		if (WIFSIGNALED(status))
			snprintf(text, sizeof(text),
				 "%s" PROG ": the run died of signal %d (%s)",
				 data, WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else
			snprintf(text, sizeof(text), "%s", data);
		/* the message without its final newline */
		for (size_t n = strlen(text); n && text[n - 1] == '\n';)
			text[--n] = '\0';
		write_error(l, k, status, text);
		cli_error("sweep: point %zu (%s) failed:", k, labels);
		print_indented(text);
	}
	draw_bar(l);
	/*
	 * Test hook (tests/cli_sweep.sh): after this many points, die at
	 * once with the workers still running, as a node going down would,
	 * so that the resume test stops at a known place.  Only a sweep
	 * that leads its own process group (setsid) takes its workers.
	 */
	if (l->kill_after && l->done + l->failed == l->kill_after) {
		fflush(NULL);
		kill(getpgrp() == getpid() ? 0 : getpid(), SIGKILL);
	}
}

static void point_tick(void *ud)
{
	draw_bar(ud);
}

/*
 * Whether process pid is gone: no such process, or a zombie that nobody
 * reaped yet (a worker whose sweep was killed with it).
 */
static bool dead(long pid)
{
	char path[64], stat[256];
	const char *close_paren;
	size_t n;
	FILE *f;

	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	/* "PID (COMM) STATE ...": COMM may hold anything but ends at the
	 * last parenthesis */
	close_paren = strrchr(stat, ')');
	return close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
}

/*
 * Temporary files (NAME.tmp.PID, or NAME.tmp.PID.N from cli_out_open())
 * of processes that died: a killed sweep
 * leaves one per point it was writing.  Only when this run owns the
 * directory: on a cluster, another node's PIDs mean nothing here.
 */
static void remove_stale(const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/points", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *t = strstr(e->d_name, ".tmp.");
		char *end;
		long pid;

		if (!t)
			continue;
		errno = 0;
		pid = strtol(t + 5, &end, 10);
		if (*end == '.' && end[1])
			(void)strtol(end + 1, &end, 10);
		if (*end || errno || pid <= 0 || !dead(pid))
			continue;
		snprintf(path, sizeof(path), "%s/points/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

int sweep_run_local(const eevdf_sweep *sw, const char *dir, const size_t *sel,
		    size_t n, int jobs, bool force, int progress, bool own)
{
	static const struct cli_pool_ops ops = { point_child, point_finished,
						 point_tick };
	struct local l;
	size_t *todo = calloc(n ? n : 1, sizeof(*todo));
	int nfail;

	if (!todo) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	memset(&l, 0, sizeof(l));
	l.sw = sw;
	l.dir = dir;
	l.todo = todo;
	l.nr_sel = n;
	l.jobs = jobs;
	l.progress = progress == 1			   ? 1 :
		     progress < 0 && isatty(STDERR_FILENO) ? 2 :
							     0;
	if (getenv("EEVDF_SWEEP_TEST_KILL_AFTER"))
		l.kill_after = strtoul(getenv("EEVDF_SWEEP_TEST_KILL_AFTER"),
				       NULL, 10);
	if (own)
		remove_stale(dir);
	for (size_t i = 0; i < n; i++) {
		struct eevdf_sweep_point pt;
		char path[4096], why[256];

		eevdf_sweep_point(sw, sel[i], &pt);
		sweep_point_path(dir, pt.id, false, path, sizeof(path));
		if (!force &&
		    sweep_result_ok(path, &pt, why, sizeof(why), NULL)) {
			l.skipped++;
			continue;
		}
		if (!force && why[0])
			cli_error("sweep: %s: %s: running point %zu again",
				  path, why, sel[i]);
		todo[l.nr_todo++] = sel[i];
	}
	l.start = now_s();
	draw_bar(&l);
	nfail = cli_pool_run(l.nr_todo, jobs, true, &ops, &l);
	clear_bar(&l);
	free(todo);
	if (nfail < 0)
		return EXIT_USAGE;
	cli_error("sweep %s: %zu point%s: %zu ran, %zu %s already done, %zu "
		  "failed; results in %s",
		  eevdf_sweep_name(sw), n, n == 1 ? "" : "s", l.done, l.skipped,
		  l.skipped == 1 ? "was" : "were", l.failed, dir);
	if (l.failed) {
		cli_error("sweep: %zu point%s failed: the errors are in "
			  "%s/points/*.error.json; a rerun tries them again",
			  l.failed, l.failed == 1 ? "" : "s", dir);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
