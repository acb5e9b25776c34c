/* SPDX-License-Identifier: MIT */
/*
 * What eevdf-sim sweep and merge share: the layout of a sweep's output
 * directory and the files in it.
 *
 *	DIR/manifest.json	every point: index, id, the label of each
 *				axis, canonical configuration, run command
 *				(format eevdf-sim-sweep-manifest/1)
 *	DIR/points/ID.json	point ID's results, exactly what 'eevdf-sim
 *				run ... --format json' prints; ID is the
 *				first 16 hex digits of the point's id
 *	DIR/points/ID.error.json  why point ID failed, when it did
 *	DIR/sweep.sbatch, DIR/slurm/	--emit slurm: the job-array
 *				script and each task's output and error
 *	DIR/parallel.jobs	--emit parallel: one command per line
 *
 * Every file is written atomically (a temporary file renamed over it), and
 * the temporary files (NAME.tmp.PID) never have the names the readers
 * open, so an interrupted point leaves no result behind.
 */
#ifndef EEVDF_CLI_SWEEP_H
#define EEVDF_CLI_SWEEP_H

#include <cJSON.h>

#include "cli.h"

#define SWEEP_MANIFEST_FORMAT "eevdf-sim-sweep-manifest/1"
#define SWEEP_ERROR_FORMAT "eevdf-sim-sweep-error/1"
#define SWEEP_ID_CHARS 16
/* A manifest of EEVDF_SWEEP_POINTS_MAX points is about 1 GiB. */
#define SWEEP_MANIFEST_MAX ((size_t)1 << 30)
/* A results file: schbench's histograms make the largest ones. */
#define SWEEP_RESULT_MAX ((size_t)256 << 20)

/* A point's file: DIR/points/ID.json, or ID.error.json with error. */
void sweep_point_path(const char *dir, const char *id, bool error, char *buf,
		      size_t len);

/*
 * The run options of point pt, as argv for cli_run_*(): "run", the
 * workload, then --kernel, --features, --param ..., --machine or --cpus,
 * --hz, --duration, --seed, and --format json, so that its results record
 * the command 'eevdf-sim run' with these options.  malloc'd, with its
 * strings; free() it.  NULL when out of memory.
 */
char **sweep_point_argv(const struct eevdf_sweep_point *pt, int *argc);

/* "kernel=6.6 features=no-dd nprocs=4": point k's labels, for messages. */
void sweep_point_labels(const eevdf_sweep *sw, size_t k, char *buf, size_t len);

/*
 * True when path holds results of point pt: a results JSON whose
 * configuration has the point's workload digest, seed and profile; then
 * the document in *doc when doc is not NULL (cJSON_Delete() it).
 * Otherwise false, and why (len bytes): "" when there is no such file.
 */
bool sweep_result_ok(const char *path, const struct eevdf_sweep_point *pt,
		     char *why, size_t len, cJSON **doc);

/*
 * The manifest of sw (spec: the spec's path as given) as JSON text
 * (free()), or NULL after printing why.
 */
char *sweep_manifest_text(const eevdf_sweep *sw, const char *spec);

/* DIR/manifest.json read and checked, or NULL after printing why. */
cJSON *sweep_manifest_read(const char *dir);

/* mkdir -p of path; false after printing why. */
bool sweep_mkdirs(const char *path);

/* Sweep's parts: emit (sweep_emit.c) and merge (cmd_merge.c). */
struct sweep_emit_opts {
	const char *engine; /* "slurm" or "parallel" */
	size_t chunk;	    /* points per array task or job; 0: default */
	size_t max_running; /* slurm: the array's % limit; 0: default */
	int cpus_per_task;
	const char *time, *mem, *partition, *account, *job_name;
	const char *sbatch[16]; /* --sbatch: more #SBATCH lines */
	size_t nr_sbatch;
};

/*
 * Write the job-array script or the job list for points 0 .. n - 1 of sw
 * into dir, next to the manifest, for the spec at spec and print how to
 * run them.  An exit code.
 */
int sweep_emit(const eevdf_sweep *sw, const char *spec, const char *dir,
	       const struct sweep_emit_opts *eo);

/*
 * Check points sel[0 .. n) of sw as run would (one per configuration:
 * the seed cannot make one fail), before anything runs; print why each
 * that cannot run cannot (ten at most).  False when any cannot.
 */
bool sweep_check_points(const eevdf_sweep *sw, const char *spec,
			const size_t *sel, size_t n);

/*
 * Run points sel[0 .. n) of sw into dir in up to jobs worker processes,
 * skipping those whose results are there (all of them with force);
 * progress: 1 lines, 0 none, -1 a bar on a terminal.  own: the whole
 * sweep runs here, so temporary files of dead processes may go.  An exit
 * code: EXIT_USAGE when a point failed.
 */
int sweep_run_local(const eevdf_sweep *sw, const char *dir, const size_t *sel,
		    size_t n, int jobs, bool force, int progress, bool own);

/* The shell word of s: itself when safe, else in single quotes. */
void sweep_shell_quote(const char *s, char *buf, size_t len);

#endif
