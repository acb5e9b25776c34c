/* SPDX-License-Identifier: MIT */
/*
 * The sweep spec's internals (include/eevdf/sweep.h), shared by:
 *
 *	sweep.c		entry points, the top level, "fixed", "zip",
 *			"baseline", "metrics" and the accessors
 *	sweep_values.c	one setting's values: kernels, feature sets,
 *			params, machines, numbers, ranges and seeds
 *	sweep_point.c	the expansion into points, each point's
 *			canonical configuration and its id
 *
 * A setting (kernel, features, param.NAME, ...) is held the same way
 * whether it is an axis or fixed: a list of values, one for a fixed
 * setting.  Fixed settings are hidden axes that never vary.
 */
#ifndef EEVDF_SWEEP_IMPL_H
#define EEVDF_SWEEP_IMPL_H

#include <cJSON.h>

#include "workload_impl.h"

#define SWEEP_FORMAT "eevdf-sim-sweep/1"
#define SWEEP_MAX_AXES 32
#define SWEEP_MAX_VALUES 100000

/* What a setting sets: one option of the point's run. */
enum sweep_key {
	SK_WORKLOAD,
	SK_KERNEL,
	SK_FEATURES,
	SK_MACHINE,
	SK_CPUS,
	SK_HZ,
	SK_DURATION,
	SK_SEED,
	SK_PARAM,
	SK_ALLOW_ABSENT, /* features_allow_absent: fixed only */
};

/* One value of a setting. */
struct sweep_value {
	char *label; /* what tables print */
	/*
	 * What the point's run takes: the path to open (workload, machine),
	 * the profile name, the feature list, "NAME=VALUE".
	 */
	char *text;
	/* the value in the canonical configuration, as JSON text */
	char *canon;
	s64 num;	       /* cpus, hz, duration ns, seed, bool */
	char sha256[65];       /* a workload or machine file's, else "" */
	u64 feat_on, feat_off; /* features, before the fixed ones merge */
};

struct sweep_setting {
	enum sweep_key key;
	char *name; /* "kernel", "param.nprocs" */
	struct sweep_value *v;
	size_t n;
	size_t group;  /* axes: the first axis of its zip group */
	size_t stride; /* axes: points between two of its values */
	int base;      /* axes: the baseline's value index, -1 for none */
};

struct eevdf_sweep {
	char *name, *description, *base_dir;
	char sha256[65];
	struct sweep_setting axes[SWEEP_MAX_AXES];
	size_t nr_axes;
	struct sweep_setting fixed[SWEEP_MAX_AXES];
	size_t nr_fixed;
	/* the expansion: one dimension per zip group, by its first axis */
	size_t dims[SWEEP_MAX_AXES];
	size_t nr_dims;
	size_t nr_points;
	char **metrics;
	size_t nr_metrics;
};

/* Where the parser is, for diagnostics by JSON path. */
struct sw_parser {
	struct eevdf_diag *diag;
	eevdf_sweep *sw;
	size_t plen;
};

int eevdf__sw_fail(struct sw_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int eevdf__sw_nomem(struct sw_parser *p);
size_t eevdf__sw_path_key(struct sw_parser *p, const char *key);
size_t eevdf__sw_path_index(struct sw_parser *p, size_t i);
void eevdf__sw_path_pop(struct sw_parser *p, size_t old);

/* The key of a setting's name ("param.nprocs" is SK_PARAM), or -1. */
int eevdf__sw_key_of(const char *name);
/* Parse the values of setting s from it (an axis's list or range, or a
 * fixed value when fixed). */
int eevdf__sw_parse_values(struct sw_parser *p, const cJSON *it, bool fixed,
			   struct sweep_setting *s);
/* The workloads ("workload") into s: a path, a list or named paths. */
int eevdf__sw_parse_workloads(struct sw_parser *p, const cJSON *it,
			      struct sweep_setting *s);
/* The fixed features merged into each feature set's text and canon. */
int eevdf__sw_merge_features(struct sw_parser *p, struct sweep_setting *axis,
			     const struct sweep_setting *fixed);
void eevdf__sw_setting_free(struct sweep_setting *s);
/* "tbench" for "../tbench.json": a file's name less its folder and
 * ".json", malloc'd; NULL on ENOMEM.  Labels a workload, names a spec. */
char *eevdf__sw_stem(const char *path);
/* base_dir joined to path (unless absolute), malloc'd; NULL on ENOMEM. */
char *eevdf__sw_join(const char *base_dir, const char *path);
/* The number of points, or 0 after failing when it is too many. */
int eevdf__sw_expand(struct sw_parser *p);

#endif
