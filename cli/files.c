/* SPDX-License-Identifier: MIT */
/*
 * Files of the front end: where the shipped workloads and machines are,
 * --machine FILE or NAME, a machine's shape in words, the warnings of a
 * loaded workload, and whole JSON files read for a look at them (check's
 * baseline, validate's format sniffing).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cli_workloads_dir(char *buf, size_t len)
{
	/* build/ and build/<variant>/ of the tree, then an install */
	static const char *const rel[] = { "/../workloads", "/../../workloads",
					   "/../share/eevdf-sim/workloads" };
	const char *env = getenv("EEVDF_WORKLOADS");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return true;
	}
	/* the directory of this binary, through /proc (Linux) */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(buf, len, "%s%s", exe, rel[i]) < len &&
		    is_dir(buf))
			return true;
	}
	return false;
}

bool cli_machines_dir(const char *workloads, char *buf, size_t len)
{
	/* the tree has workloads/machines/, an install share/.../machines/ */
	static const char *const rel[] = { "/machines", "/../machines" };
	const char *env = getenv("EEVDF_MACHINES");
	char wbuf[PATH_MAX];

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return true;
	}
	if (!workloads) {
		if (!cli_workloads_dir(wbuf, sizeof(wbuf)))
			return false;
		workloads = wbuf;
	}
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(buf, len, "%s%s", workloads, rel[i]) <
			    len &&
		    is_dir(buf))
			return true;
	}
	return false;
}

/* Levenshtein distance of a and b, for "did you mean"; both short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (la >= ARRAY_LEN(row) || lb >= ARRAY_LEN(row))
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * An unknown --machine NAME: every shipped machine, sorted, and the
 * nearest by edit distance when it is near enough to be a typo.
 */
static void unknown_machine(const char *opt, const char *arg, const char *dir)
{
	char *names[128], list[1024] = "", near[64] = "";
	size_t nr = 0, n = 0, best = SIZE_MAX;
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && nr < ARRAY_LEN(names) && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 5 && len < 64 &&
		    strcmp(de->d_name + len - 5, ".json") == 0 &&
		    (names[nr] = strndup(de->d_name, len - 5)))
			nr++;
	}
	if (d)
		closedir(d);
	qsort(names, nr, sizeof(*names), by_str);
	for (size_t i = 0; i < nr; i++) {
		size_t dist = edit_distance(arg, names[i]);

		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", i ? ", " : "", names[i]);
		if (dist < best) {
			best = dist;
			snprintf(near, sizeof(near), "%s", names[i]);
		}
		free(names[i]);
	}
	if (best > 2 && best > strlen(arg) / 3)
		near[0] = '\0';
	cli_error("%s: '%s' is neither a file nor a shipped machine%s%s%s "
		  "(shipped: %s)",
		  opt, arg, near[0] ? "; did you mean '" : "", near,
		  near[0] ? "'?" : "", nr ? list : "none found");
}

bool cli_load_machine(const char *opt, const char *arg, eevdf_machine **out)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], buf[1024];
	const char *file = arg;
	struct eevdf_diag diag;
	size_t n = strlen(arg);
	int rc;

	/* a bare name that is not a file here: a shipped machine */
	if (!strchr(arg, '/') && access(arg, F_OK) != 0 &&
	    cli_machines_dir(NULL, dir, sizeof(dir))) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, arg,
			 n > 5 && strcmp(arg + n - 5, ".json") == 0 ? "" :
								      ".json");
		if (access(path, F_OK) == 0) {
			file = path;
		} else {
			unknown_machine(opt, arg, dir);
			return false;
		}
	}
	memset(&diag, 0, sizeof(diag));
	rc = eevdf_machine_load_file(file, out, &diag);
	if (rc < 0) {
		cli_error("%s: %s", opt,
			  diag.msg[0] ?
				  eevdf_diag_format(&diag, buf, sizeof(buf)) :
				  eevdf_strerror(rc));
		return false;
	}
	return true;
}

void cli_warn_notes(const eevdf_workload *wl)
{
	char buf[1024];

	for (size_t i = 0; i < eevdf_workload_nr_notes(wl); i++)
		cli_error("warning: %s",
			  eevdf_diag_format(eevdf_workload_note(wl, i), buf,
					    sizeof(buf)));
}

void cli_machine_shape(const eevdf_machine *m, char *buf, size_t len)
{
	int n = eevdf_machine_nr_cpus(m), c = eevdf_machine_nr_cores(m);
	int l = eevdf_machine_nr_llcs(m), p = eevdf_machine_nr_packages(m);

	snprintf(buf, len, "%d CPU%s (%d core%s, %d LLC%s, %d package%s)", n,
		 n == 1 ? "" : "s", c, c == 1 ? "" : "s", l, l == 1 ? "" : "s",
		 p, p == 1 ? "" : "s");
}

/* All of f, NUL-terminated, into *out and *outlen; 0 or an errno. */
static int read_stream(FILE *f, size_t max, char **out, size_t *outlen)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;

	*out = NULL;
	for (;;) {
		size_t n;

		if (len + 1 >= cap) {
			cap = cap ? 2 * cap : 65536;
			/* one byte over max is enough to know it is too big */
			if (max < SIZE_MAX - 1 && cap > max + 2)
				cap = max + 2;
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				return ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - 1 - len, f);
		len += n;
		if (len > max) {
			free(buf);
			return EFBIG;
		}
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return errno ? errno : EIO;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

/*
 * The whole of the regular file path, NUL-terminated, into *out and
 * *outlen; 0 or an errno (EISDIR for a directory, EINVAL for another
 * file that is not regular).  A FIFO opens without waiting for a writer
 * (O_NONBLOCK) and is refused, as the library refuses it: reading it
 * could block for ever.
 */
static int read_all(const char *path, size_t max, char **out, size_t *outlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	struct stat st;
	FILE *f;

	*out = NULL;
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    !(f = fdopen(fd, "rb"))) {
		err = errno;
		close(fd);
		return err;
	}
	err = read_stream(f, max, out, outlen);
	fclose(f);
	return err;
}

/* The cell of keyed metric m whose key prints as key, or NULL. */
static const cJSON *metric_cell(const cJSON *m, const char *key, size_t n)
{
	const cJSON *cells = cJSON_GetObjectItemCaseSensitive(m, "cells");
	const cJSON *c;
	char buf[64];

	cJSON_ArrayForEach(c, cells)
	{
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(c, "key");

		if (cJSON_IsString(k))
			snprintf(buf, sizeof(buf), "%s", k->valuestring);
		else if (cJSON_IsNumber(k))
			snprintf(buf, sizeof(buf), "%.0f", k->valuedouble);
		else
			continue;
		if (strlen(buf) == n && strncmp(buf, key, n) == 0)
			return c;
	}
	return NULL;
}

bool cli_results_figure(const cJSON *results, const char *name, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(results, "summary"), name);
	const cJSON *m;
	const char *br = strchr(name, '['), *close = NULL, *dot;
	char base[128];
	size_t n;

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return true;
	}
	/* NAME, NAME.STAT, NAME[KEY], NAME[KEY].STAT of "metrics"; a KEY
	 * may hold dots, so the STAT's is the last one after it */
	if (br && !(close = strchr(br, ']')))
		return false;
	dot = strrchr(close ? close : name, '.');
	n = br	? (size_t)(br - name) :
	    dot ? (size_t)(dot - name) :
		  strlen(name);
	if (n >= sizeof(base))
		return false;
	memcpy(base, name, n);
	base[n] = '\0';
	m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(results, "metrics"), base);
	if (m && br)
		m = metric_cell(m, br + 1, (size_t)(close - br - 1));
	if (!m)
		return false;
	v = cJSON_GetObjectItemCaseSensitive(m, dot ? dot + 1 : "value");
	if (!cJSON_IsNumber(v))
		return false;
	*out = v->valuedouble;
	return true;
}

char *cli_read_stdin(size_t max)
{
	char *buf;
	size_t len;
	int err = read_stream(stdin, max, &buf, &len);

	if (err)
		errno = err;
	return err ? NULL : buf;
}

char *cli_read_text(const char *path, size_t max)
{
	char *buf;
	size_t len;
	int err = read_all(path, max, &buf, &len);

	if (err)
		errno = err;
	return err ? NULL : buf;
}

cJSON *cli_read_json(const char *path, size_t max, int *err)
{
	cJSON *root;
	char *buf;
	size_t len;

	*err = read_all(path, max, &buf, &len);
	if (*err)
		return NULL;
	root = cJSON_ParseWithLength(buf, len);
	free(buf);
	return root;
}
