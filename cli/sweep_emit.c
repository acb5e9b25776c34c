/* SPDX-License-Identifier: MIT */
/*
 * --emit: a sweep for the engines clusters already have.  Slurm gets a
 * job-array script, one array task per chunk of points; GNU parallel a
 * job list, one line per chunk (parallel --joblog, --resume-failed and
 * --sshloginfile work on it as on any).  Either runs nothing but
 * 'eevdf-sim sweep SPEC --point A-B DIR' from the directory the sweep
 * was emitted in, so that every engine runs the same command lines and
 * writes the same bytes as a local run.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

/* Slurm's default MaxArraySize is 1001: tasks 0 .. 1000. */
#define SLURM_TASKS_MAX 1000
#define SLURM_RUNNING_DEFAULT 32
#define WORD_MAX 8192

/* This binary's absolute path, for the jobs to run; "eevdf-sim" (from
 * PATH) when it cannot be known. */
static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n <= 0 || (size_t)n >= len - 1)
		snprintf(buf, len, "%s", PROG);
	else
		buf[n] = '\0';
}

/* dir as an absolute path (it exists: the sweep made it). */
static bool abs_dir(const char *dir, char *buf, size_t len)
{
	char *r = realpath(dir, NULL);

	if (!r) {
		cli_error("%s: %s", dir, strerror(errno));
		return false;
	}
	snprintf(buf, len, "%s", r);
	free(r);
	return true;
}

/*
 * An #SBATCH option's value, which sbatch itself reads (its own parser
 * knows double quotes, not the shell's '\'' escapes): bare when safe,
 * else in double quotes.  False after printing why for a value double
 * quotes cannot hold.
 */
static bool sbatch_value(const char *what, const char *s, char *buf, size_t len)
{
	char q[WORD_MAX];

	sweep_shell_quote(s, q, sizeof(q));
	if (strcmp(q, s) == 0) {
		snprintf(buf, len, "%s", s);
		return true;
	}
	if (strpbrk(s, "\"\\$`\n")) {
		cli_error("--emit slurm: %s '%s' cannot be written in an "
			  "#SBATCH line (it holds a quote, a backslash, a $ "
			  "or a newline)",
			  what, s);
		return false;
	}
	snprintf(buf, len, "\"%s\"", s);
	return true;
}

/*
 * The command of one job: the binary, the range of points and the
 * workers as shell words already (numbers, or "$first-$last" in the
 * Slurm script), the spec and the directory as given to the sweep.
 */
static void job_command(FILE *f, const char *sim, const char *spec,
			const char *dir, const char *range, const char *jobs)
{
	char q[2][WORD_MAX];

	sweep_shell_quote(spec, q[0], sizeof(q[0]));
	sweep_shell_quote(dir, q[1], sizeof(q[1]));
	fprintf(f, "%s sweep %s --point %s --jobs %s --no-progress %s\n", sim,
		q[0], range, jobs, q[1]);
}

/*
 * f's text (an open_memstream of *text) into path, less its last
 * newline, which cli_write_atomic() writes.  False after printing why.
 */
static bool commit_text(FILE *f, char **text, size_t *len, const char *path)
{
	bool ok = fclose(f) == 0 && *text;

	if (!ok) {
		cli_error("out of memory");
		return false;
	}
	*len = strlen(*text);
	if (*len && (*text)[*len - 1] == '\n')
		(*text)[*len - 1] = '\0';
	return cli_write_atomic(path, *text);
}

static int emit_slurm(const eevdf_sweep *sw, const char *spec, const char *dir,
		      const struct sweep_emit_opts *eo, const char *cwd,
		      const char *sim)
{
	size_t np = eevdf_sweep_nr_points(sw), chunk = eo->chunk, tasks;
	size_t running = eo->max_running ? eo->max_running :
					   SLURM_RUNNING_DEFAULT;
	char adir[PATH_MAX], logs[PATH_MAX + 16], path[PATH_MAX + 16];
	char q[WORD_MAX], sq[WORD_MAX];
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	bool ok;

	if (!chunk)
		chunk = (np + SLURM_TASKS_MAX - 1) / SLURM_TASKS_MAX;
	tasks = (np + chunk - 1) / chunk;
	snprintf(logs, sizeof(logs), "%s/slurm", dir);
	if (!sweep_mkdirs(logs) || !abs_dir(dir, adir, sizeof(adir)))
		return EXIT_USAGE;
	f = open_memstream(&text, &len);
	if (!f) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	fprintf(f, "#!/bin/sh\n");
	snprintf(logs, sizeof(logs), "%s/slurm/%%A_%%a", adir);
	/* %A the array's job id, %a the task's index */
	if (!sbatch_value("the job name",
			  eo->job_name ? eo->job_name : eevdf_sweep_name(sw), q,
			  sizeof(q)) ||
	    !sbatch_value("the directory", logs, sq, sizeof(sq))) {
		fclose(f);
		free(text);
		return EXIT_USAGE;
	}
	fprintf(f, "#SBATCH --job-name=%s\n", q);
	fprintf(f, "#SBATCH --array=0-%zu%%%zu\n", tasks - 1, running);
	/* "DIR/slurm/%A_%a" with .out or .err inside its quotes */
	fprintf(f, "#SBATCH --output=%.*s.out%s\n",
		(int)strlen(sq) - (sq[0] == '"'), sq, sq[0] == '"' ? "\"" : "");
	fprintf(f, "#SBATCH --error=%.*s.err%s\n",
		(int)strlen(sq) - (sq[0] == '"'), sq, sq[0] == '"' ? "\"" : "");
	if (!sbatch_value("the directory", cwd, q, sizeof(q))) {
		fclose(f);
		free(text);
		return EXIT_USAGE;
	}
	fprintf(f, "#SBATCH --chdir=%s\n", q);
	fprintf(f, "#SBATCH --ntasks=1\n");
	fprintf(f, "#SBATCH --cpus-per-task=%d\n",
		eo->cpus_per_task ? eo->cpus_per_task : 1);
	if (eo->time)
		fprintf(f, "#SBATCH --time=%s\n", eo->time);
	if (eo->mem)
		fprintf(f, "#SBATCH --mem=%s\n", eo->mem);
	if (eo->partition)
		fprintf(f, "#SBATCH --partition=%s\n", eo->partition);
	if (eo->account)
		fprintf(f, "#SBATCH --account=%s\n", eo->account);
	for (size_t i = 0; i < eo->nr_sbatch; i++)
		fprintf(f, "#SBATCH %s\n", eo->sbatch[i]);
	sweep_shell_quote(spec, sq, sizeof(sq));
	snprintf(path, sizeof(path), "%s/sweep.sbatch", adir);
	sweep_shell_quote(path, q, sizeof(q));
	sweep_shell_quote(adir, logs, sizeof(logs));
	fprintf(f,
		"#\n"
		"# Sweep %s: %zu points, %zu per array task, %zu tasks, at "
		"most %zu\n"
		"# running; written by " PROG " %s from %s.\n"
		"#   submit: sbatch %s\n"
		"#   then:   " PROG " merge %s\n"
		"# A point whose results exist is skipped: submitting again "
		"runs only\n"
		"# what is missing or failed.  EEVDF_SIM names another "
		"binary.\n"
		"set -eu\n",
		eevdf_sweep_name(sw), np, chunk, tasks, running,
		EEVDF_VERSION_STRING, sq, q, logs);
	sweep_shell_quote(sim, q, sizeof(q));
	fprintf(f, "EEVDF_SIM=${EEVDF_SIM:-%s}\n", q);
	fprintf(f,
		"task=${SLURM_ARRAY_TASK_ID:?submit this script with "
		"sbatch}\n"
		"first=$((task * %zu))\n"
		"last=$((first + %zu))\n"
		"if [ \"$last\" -gt %zu ]; then last=%zu; fi\n"
		"exec ",
		chunk, chunk - 1, np - 1, np - 1);
	job_command(f, "\"$EEVDF_SIM\"", spec, dir, "\"$first-$last\"",
		    "\"${SLURM_CPUS_PER_TASK:-1}\"");
	snprintf(path, sizeof(path), "%s/sweep.sbatch", dir);
	if ((ok = commit_text(f, &text, &len, path))) {
		printf("wrote %s: %zu points in %zu array task%s of %zu, at "
		       "most %zu running\n",
		       path, np, tasks, tasks == 1 ? "" : "s", chunk, running);
		sweep_shell_quote(path, q, sizeof(q));
		sweep_shell_quote(dir, sq, sizeof(sq));
		printf("  submit: sbatch %s\n", q);
		printf("  then:   " PROG " merge %s\n", sq);
	}
	free(text);
	return ok ? EXIT_OK : EXIT_USAGE;
}

static int emit_parallel(const eevdf_sweep *sw, const char *spec,
			 const char *dir, const struct sweep_emit_opts *eo,
			 const char *cwd, const char *sim)
{
	size_t np = eevdf_sweep_nr_points(sw),
	       chunk = eo->chunk ? eo->chunk : 1;
	char path[PATH_MAX + 16], q[WORD_MAX], qsim[WORD_MAX];
	char *text = NULL;
	size_t len = 0, jobs = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok;

	if (!f) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	sweep_shell_quote(cwd, q, sizeof(q));
	sweep_shell_quote(sim, qsim, sizeof(qsim));
	for (size_t first = 0; first < np; first += chunk, jobs++) {
		size_t last = first + chunk - 1 < np ? first + chunk - 1 :
						       np - 1;
		char range[64];

		snprintf(range, sizeof(range), "%zu-%zu", first, last);
		/* each line stands alone: on another host too (--sshlogin) */
		fprintf(f, "cd %s && ", q);
		job_command(f, qsim, spec, dir, range, "1");
	}
	snprintf(path, sizeof(path), "%s/parallel.jobs", dir);
	if ((ok = commit_text(f, &text, &len, path))) {
		char qlog[WORD_MAX], log[PATH_MAX + 16];

		printf("wrote %s: %zu points in %zu job%s of %zu\n", path, np,
		       jobs, jobs == 1 ? "" : "s", chunk);
		snprintf(log, sizeof(log), "%s/parallel.log", dir);
		sweep_shell_quote(log, qlog, sizeof(qlog));
		sweep_shell_quote(path, q, sizeof(q));
		printf("  run here:     parallel --will-cite --joblog %s "
		       "--jobs 2 < %s\n",
		       qlog, q);
		printf("  across hosts: parallel --will-cite --joblog %s "
		       "--sshloginfile HOSTS < %s\n",
		       qlog, q);
		printf("                (the same paths on every host: a "
		       "shared file system)\n");
		printf("  what failed:  the same with --resume-failed\n");
		sweep_shell_quote(dir, q, sizeof(q));
		printf("  then:         " PROG " merge %s\n", q);
	}
	free(text);
	return ok ? EXIT_OK : EXIT_USAGE;
}

int sweep_emit(const eevdf_sweep *sw, const char *spec, const char *dir,
	       const struct sweep_emit_opts *eo)
{
	char cwd[PATH_MAX], sim[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd))) {
		cli_error("cannot tell the current directory: %s",
			  strerror(errno));
		return EXIT_USAGE;
	}
	self_path(sim, sizeof(sim));
	if (strcmp(eo->engine, "slurm") == 0)
		return emit_slurm(sw, spec, dir, eo, cwd, sim);
	return emit_parallel(sw, spec, dir, eo, cwd, sim);
}
