/* SPDX-License-Identifier: MIT */
/*
 * Sweep specs ("format": "eevdf-sim-sweep/1", see docs/sweep-format.md):
 * one or more workloads run over axes of kernel profiles, named feature
 * sets, params, machines, CPU counts, tick rates, durations and seeds.
 *
 * Loading validates the whole spec before anything runs: its keys and
 * types, every value (kernel profiles, feature names, CPU counts,
 * durations), each workload (it must load, and declare every param the
 * spec sets), zip groups of equal lengths, the baseline.  A diagnostic
 * names the file, the JSON path (axes.kernel[2]) and the reason.
 *
 * The Cartesian product of the axes (an axis zipped with others counts
 * once, their values moving together) is numbered in the order the axes
 * are written, the last one varying fastest: point k of n.  Each point has
 * a stable id, the SHA-256 of its canonical configuration (what the point
 * runs, with the workload's and a machine file's contents by digest):
 * the same configuration has the same id whatever the spelling ("2s" or
 * "2000ms", feature lists in any order), the order of the axes or the
 * spec file it came from, and any change to it changes the id.
 */
#ifndef EEVDF_SWEEP_H
#define EEVDF_SWEEP_H

#include <stdbool.h>

#include "eevdf/workload.h"

/* A loaded sweep spec: opaque, freed with eevdf_sweep_free(). */
typedef struct eevdf_sweep eevdf_sweep;

/* More params than this in one point is an error of the spec. */
#define EEVDF_SWEEP_PARAMS_MAX 64
/* Nor may a spec expand to more points than this. */
#define EEVDF_SWEEP_POINTS_MAX 1000000

/*
 * Read and validate the spec at path.  Relative workload and machine
 * paths in it are relative to the spec's directory.  0 and *out, or
 * EEVDF_EIO (cannot read it), EEVDF_EPARSE (diag says where and why),
 * EEVDF_EINVAL (a NULL argument), EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_sweep_load_file(const char *path, eevdf_sweep **out,
				    struct eevdf_diag *diag);

/*
 * The same from memory: len bytes, filename labels diagnostics, and
 * relative paths start from base_dir (NULL or "": the current
 * directory).
 */
EEVDF_API int eevdf_sweep_parse(const char *buf, size_t len,
				const char *filename, const char *base_dir,
				eevdf_sweep **out, struct eevdf_diag *diag);

/* NULL is a no-op. */
EEVDF_API void eevdf_sweep_free(eevdf_sweep *sw);

/* The spec's "name" (else its file name without ".json"), "description"
 * ("" when none), and the SHA-256 of its bytes, 64 hex digits. */
EEVDF_API const char *eevdf_sweep_name(const eevdf_sweep *sw);
EEVDF_API const char *eevdf_sweep_description(const eevdf_sweep *sw);
EEVDF_API const char *eevdf_sweep_sha256(const eevdf_sweep *sw);

/* Points of the expansion; 0 for NULL. */
EEVDF_API size_t eevdf_sweep_nr_points(const eevdf_sweep *sw);

/*
 * The axes in the order of the spec ("workload" first when the spec has
 * several workloads): their count, axis a's name ("kernel", "features",
 * "param.nprocs", "seed", ...), its number of values and the label of
 * value v (a feature set's name, a param's value as text, a seed in
 * decimal, a workload's name).  NULL or 0 out of range.
 */
EEVDF_API size_t eevdf_sweep_nr_axes(const eevdf_sweep *sw);
EEVDF_API const char *eevdf_sweep_axis_name(const eevdf_sweep *sw, size_t a);
EEVDF_API size_t eevdf_sweep_axis_size(const eevdf_sweep *sw, size_t a);
EEVDF_API const char *eevdf_sweep_axis_label(const eevdf_sweep *sw, size_t a,
					     size_t v);
/* The index of the axis called name, or -1. */
EEVDF_API int eevdf_sweep_axis_find(const eevdf_sweep *sw, const char *name);
/* The index of the value of axis a labelled label, or -1. */
EEVDF_API int eevdf_sweep_label_find(const eevdf_sweep *sw, size_t a,
				     const char *label);
/*
 * The zip group of axis a: the index of the first axis of its group (a
 * itself when a is not zipped).  Axes of one group move together.
 */
EEVDF_API size_t eevdf_sweep_axis_group(const eevdf_sweep *sw, size_t a);

/*
 * The "metrics" to tabulate: figure names of the results (a summary key,
 * or a workload metric: NAME, NAME.p99, NAME[KEY].mean); 0 when the spec
 * names none.
 */
EEVDF_API size_t eevdf_sweep_nr_metrics(const eevdf_sweep *sw);
EEVDF_API const char *eevdf_sweep_metric(const eevdf_sweep *sw, size_t i);

/*
 * The spec's "baseline": the label it gives axis a, or NULL when it
 * leaves a free (or has no baseline).
 */
EEVDF_API const char *eevdf_sweep_baseline(const eevdf_sweep *sw, size_t a);

/*
 * What point k runs, as options of one simulation.  Strings are owned by
 * the sweep.  workload and machine are paths to open (the spec's
 * directory joined to relative ones; machine may also be the name of a
 * shipped machine, as the spec gave it); kernel is the canonical profile
 * name; features the overrides in the library's feature order, NAME or
 * NO_NAME, comma-separated ("" for none); params "NAME=VALUE" as the
 * loader's overrides read them (eevdf_load_opts.params).
 */
struct eevdf_sweep_point {
	size_t index;
	char id[65]; /* SHA-256 of the canonical configuration, hex */
	const char *workload;
	const char *workload_sha256; /* of the workload file's bytes */
	const char *kernel;	     /* NULL: not set */
	const char *features; /* never NULL */
	bool features_allow_absent;
	const char *machine; /* NULL: not set */
	int cpus;	     /* 0: not set */
	int hz;		     /* 0: not set */
	eevdf_time duration; /* 0: not set */
	bool have_seed;
	uint64_t seed;
	const char *params[EEVDF_SWEEP_PARAMS_MAX];
	size_t nr_params;
};

/* Point k into *pt: 0, or EEVDF_EINVAL (NULL, k out of range). */
EEVDF_API int eevdf_sweep_point(const eevdf_sweep *sw, size_t k,
				struct eevdf_sweep_point *pt);

/* The value index of axis a at point k; 0 out of range. */
EEVDF_API size_t eevdf_sweep_point_value(const eevdf_sweep *sw, size_t k,
					 size_t a);

/*
 * The canonical configuration of point k: one line of JSON, keys sorted,
 * the values normalised (durations in ns, the profile's canonical name,
 * features as in the point), the workload's path as the spec gives it
 * and its SHA-256, and a machine file's.  Its SHA-256 is the point's id.
 * 0 and *out (free()), EEVDF_EINVAL or EEVDF_ENOMEM.
 */
EEVDF_API int eevdf_sweep_point_config(const eevdf_sweep *sw, size_t k,
				       char **out);

#endif
