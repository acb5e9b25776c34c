/* SPDX-License-Identifier: MIT */
/*
 * A sweep's files: where a point's results go, the run command of a
 * point, whether a results file is a point's, and the manifest that
 * merge reads.  cli/sweep.h describes the directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep.h"

void sweep_point_path(const char *dir, const char *id, bool error, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s/points/%.*s%s", dir, SWEEP_ID_CHARS, id,
		 error ? ".error.json" : ".json");
}

bool sweep_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(buf)) {
		cli_error("%s: not a usable directory name", path);
		return false;
	}
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST) {
			cli_error("cannot create the directory %s: %s", buf,
				  strerror(errno));
			return false;
		}
		buf[i] = path[i];
	}
	return true;
}

/* Room for the option words and their values. */
#define ARGV_MAX (24 + 2 * EEVDF_SWEEP_PARAMS_MAX)

char **sweep_point_argv(const struct eevdf_sweep_point *pt, int *argc)
{
	char nums[5][32];
	const char *w[ARGV_MAX];
	size_t n = 0, bytes = 0;
	char **v, *at;

	w[n++] = "run";
	w[n++] = pt->workload;
	if (pt->kernel) {
		w[n++] = "--kernel";
		w[n++] = pt->kernel;
	}
	if (pt->features[0]) {
		w[n++] = "--features";
		w[n++] = pt->features;
	}
	if (pt->features_allow_absent)
		w[n++] = "--features-allow-absent";
	for (size_t i = 0; i < pt->nr_params; i++) {
		w[n++] = "--param";
		w[n++] = pt->params[i];
	}
	if (pt->machine) {
		w[n++] = "--machine";
		w[n++] = pt->machine;
	}
	if (pt->cpus) {
		snprintf(nums[0], sizeof(nums[0]), "%d", pt->cpus);
		w[n++] = "--cpus";
		w[n++] = nums[0];
	}
	if (pt->hz) {
		snprintf(nums[1], sizeof(nums[1]), "%d", pt->hz);
		w[n++] = "--hz";
		w[n++] = nums[1];
	}
	if (pt->duration) {
		/* in the largest unit that keeps it whole: 500ms, not
		 * 500000000ns */
		static const struct {
			int64_t ns;
			const char *unit;
		} units[] = { { 1000000000, "s" },
			      { 1000000, "ms" },
			      { 1000, "us" },
			      { 1, "ns" } };
		size_t u = 0;

		while (pt->duration % units[u].ns)
			u++;
		snprintf(nums[2], sizeof(nums[2]), "%" PRId64 "%s",
			 pt->duration / units[u].ns, units[u].unit);
		w[n++] = "--duration";
		w[n++] = nums[2];
	}
	if (pt->have_seed) {
		snprintf(nums[3], sizeof(nums[3]), "%" PRIu64, pt->seed);
		w[n++] = "--seed";
		w[n++] = nums[3];
	}
	w[n++] = "--format";
	w[n++] = "json";
	for (size_t i = 0; i < n; i++)
		bytes += strlen(w[i]) + 1;
	/* one block: the pointers, then the strings they point to */
	v = malloc((n + 1) * sizeof(*v) + bytes);
	if (!v)
		return NULL;
	at = (char *)(v + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(w[i]) + 1;

		v[i] = memcpy(at, w[i], len);
		at += len;
	}
	v[n] = NULL;
	*argc = (int)n;
	return v;
}

void sweep_point_labels(const eevdf_sweep *sw, size_t k, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < eevdf_sweep_nr_axes(sw) && at < len; a++) {
		const char *name = eevdf_sweep_axis_name(sw, a);

		if (strncmp(name, "param.", 6) == 0)
			name += 6;
		at += (size_t)snprintf(
			buf + at, len - at, "%s%s=%s", at ? " " : "", name,
			eevdf_sweep_axis_label(
				sw, a, eevdf_sweep_point_value(sw, k, a)));
	}
}

static const char *config_string(const cJSON *config, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(config, key);

	return cJSON_IsString(it) ? it->valuestring : NULL;
}

bool sweep_result_ok(const char *path, const struct eevdf_sweep_point *pt,
		     char *why, size_t len, cJSON **doc)
{
	const cJSON *fmt, *config, *seed;
	const char *s;
	cJSON *r;
	int err = 0;
	bool ok = false;

	why[0] = '\0';
	r = cli_read_json(path, SWEEP_RESULT_MAX, &err);
	if (!r) {
		if (err != ENOENT)
			snprintf(why, len, "%s",
				 err ? strerror(err) : "not JSON");
		return false;
	}
	fmt = cJSON_GetObjectItemCaseSensitive(r, "format");
	config = cJSON_GetObjectItemCaseSensitive(r, "config");
	seed = cJSON_GetObjectItemCaseSensitive(config, "seed");
	if (!cJSON_IsString(fmt) ||
	    strcmp(fmt->valuestring, "eevdf-sim-result/1") != 0 ||
	    !cJSON_IsObject(config))
		snprintf(why, len, "not an eevdf-sim-result/1 file");
	else if (!(s = config_string(config, "workload_sha256")) ||
		 strcmp(s, pt->workload_sha256) != 0)
		snprintf(why, len, "the results of another workload file");
	else if (pt->have_seed && (!cJSON_IsNumber(seed) ||
				   seed->valuedouble != (double)pt->seed))
		snprintf(why, len, "the results of another seed");
	else if (pt->kernel && (!(s = config_string(config, "kernel")) ||
				strcmp(s, pt->kernel) != 0))
		snprintf(why, len, "the results of another kernel profile");
	else
		ok = true;
	if (ok && doc)
		*doc = r;
	else
		cJSON_Delete(r);
	return ok;
}

/* The manifest's entry of point k. */
static cJSON *point_json(const eevdf_sweep *sw, size_t k)
{
	struct eevdf_sweep_point pt;
	cJSON *p = cJSON_CreateObject(), *vals, *cmd, *config = NULL;
	char file[64], *canon = NULL, **argv = NULL;
	int argc = 0;

	if (!p || eevdf_sweep_point(sw, k, &pt) < 0 ||
	    eevdf_sweep_point_config(sw, k, &canon) < 0 ||
	    !(config = cJSON_Parse(canon)) ||
	    !(argv = sweep_point_argv(&pt, &argc)))
		goto fail;
	snprintf(file, sizeof(file), "points/%.*s.json", SWEEP_ID_CHARS, pt.id);
	cJSON_AddNumberToObject(p, "index", (double)k);
	cJSON_AddStringToObject(p, "id", pt.id);
	cJSON_AddStringToObject(p, "file", file);
	vals = cJSON_AddObjectToObject(p, "values");
	for (size_t a = 0; vals && a < eevdf_sweep_nr_axes(sw); a++)
		cJSON_AddStringToObject(
			vals, eevdf_sweep_axis_name(sw, a),
			eevdf_sweep_axis_label(
				sw, a, eevdf_sweep_point_value(sw, k, a)));
	cJSON_AddItemToObject(p, "config", config);
	config = NULL;
	cmd = cJSON_AddArrayToObject(p, "command_line");
	cJSON_AddItemToArray(cmd, cJSON_CreateString(PROG));
	for (int i = 0; cmd && i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	free(argv);
	free(canon);
	return p;
fail:
	free(argv);
	free(canon);
	cJSON_Delete(config);
	cJSON_Delete(p);
	return NULL;
}

char *sweep_manifest_text(const eevdf_sweep *sw, const char *spec)
{
	cJSON *root = cJSON_CreateObject(), *axes, *metrics, *base, *points;
	size_t na = eevdf_sweep_nr_axes(sw);
	char *text = NULL;

	if (!root)
		goto nomem;
	cJSON_AddStringToObject(root, "format", SWEEP_MANIFEST_FORMAT);
	cJSON_AddStringToObject(root, "sweep", eevdf_sweep_name(sw));
	cJSON_AddStringToObject(root, "description",
				eevdf_sweep_description(sw));
	cJSON_AddStringToObject(root, "spec", spec);
	cJSON_AddStringToObject(root, "spec_sha256", eevdf_sweep_sha256(sw));
	cJSON_AddNumberToObject(root, "nr_points",
				(double)eevdf_sweep_nr_points(sw));
	axes = cJSON_AddArrayToObject(root, "axes");
	for (size_t a = 0; axes && a < na; a++) {
		cJSON *x = cJSON_CreateObject(), *v;

		if (!x)
			goto nomem;
		cJSON_AddItemToArray(axes, x);
		cJSON_AddStringToObject(x, "name",
					eevdf_sweep_axis_name(sw, a));
		cJSON_AddStringToObject(
			x, "zip",
			eevdf_sweep_axis_name(sw,
					      eevdf_sweep_axis_group(sw, a)));
		v = cJSON_AddArrayToObject(x, "values");
		for (size_t i = 0; v && i < eevdf_sweep_axis_size(sw, a); i++)
			cJSON_AddItemToArray(
				v, cJSON_CreateString(
					   eevdf_sweep_axis_label(sw, a, i)));
	}
	metrics = cJSON_AddArrayToObject(root, "metrics");
	for (size_t i = 0; metrics && i < eevdf_sweep_nr_metrics(sw); i++)
		cJSON_AddItemToArray(
			metrics, cJSON_CreateString(eevdf_sweep_metric(sw, i)));
	base = cJSON_AddObjectToObject(root, "baseline");
	for (size_t a = 0; base && a < na; a++)
		if (eevdf_sweep_baseline(sw, a))
			cJSON_AddStringToObject(base,
						eevdf_sweep_axis_name(sw, a),
						eevdf_sweep_baseline(sw, a));
	points = cJSON_AddArrayToObject(root, "points");
	for (size_t k = 0; points && k < eevdf_sweep_nr_points(sw); k++) {
		cJSON *p = point_json(sw, k);

		if (!p)
			goto nomem;
		cJSON_AddItemToArray(points, p);
	}
	text = cJSON_Print(root);
	if (!text)
		goto nomem;
	cJSON_Delete(root);
	return text;
nomem:
	cJSON_Delete(root);
	cli_error("out of memory");
	return NULL;
}

cJSON *sweep_manifest_read(const char *dir)
{
	char path[4096];
	const cJSON *fmt;
	cJSON *m;
	int err = 0;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = cli_read_json(path, SWEEP_MANIFEST_MAX, &err);
	if (!m) {
		if (err == ENOENT)
			cli_error("%s: no manifest.json: not the output "
				  "directory of a sweep ('" PROG " sweep "
				  "SPEC.json %s' makes one)",
				  dir, dir);
		else
			cli_error("%s: %s", path,
				  err ? strerror(err) : "not JSON");
		return NULL;
	}
	fmt = cJSON_GetObjectItemCaseSensitive(m, "format");
	if (!cJSON_IsString(fmt) ||
	    strcmp(fmt->valuestring, SWEEP_MANIFEST_FORMAT) != 0 ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(m, "points")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(m, "axes"))) {
		cli_error("%s: format: not an " SWEEP_MANIFEST_FORMAT " file",
			  path);
		cJSON_Delete(m);
		return NULL;
	}
	return m;
}

void sweep_shell_quote(const char *s, char *buf, size_t len)
{
	size_t at = 0;
	bool safe = s[0] != '\0';

	for (const char *c = s; *c; c++)
		safe &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("/._-+=,:@%", *c);
	if (safe) {
		snprintf(buf, len, "%s", s);
		return;
	}
	/* 'it'\''s': a quote closes, an escaped one, and it reopens */
	if (at + 1 < len)
		buf[at++] = '\'';
	for (const char *c = s; *c && at + 5 < len; c++) {
		if (*c == '\'') {
			memcpy(buf + at, "'\\''", 4);
			at += 4;
		} else {
			buf[at++] = *c;
		}
	}
	if (at + 1 < len)
		buf[at++] = '\'';
	buf[at < len ? at : len - 1] = '\0';
}
