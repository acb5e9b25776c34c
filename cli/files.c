/* SPDX-License-Identifier: MIT */
/*
 * Files of the front end: where the shipped workloads and machines are,
 * --machine FILE or NAME, a machine's shape in words, and whole JSON files
 * read for a look at them (check's baseline, validate's format sniffing).
 */
#include <errno.h>
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
		if (access(path, F_OK) == 0)
			file = path;
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

void cli_machine_shape(const eevdf_machine *m, char *buf, size_t len)
{
	int n = eevdf_machine_nr_cpus(m), c = eevdf_machine_nr_cores(m);
	int l = eevdf_machine_nr_llcs(m), p = eevdf_machine_nr_packages(m);

	snprintf(buf, len, "%d CPU%s (%d core%s, %d LLC%s, %d package%s)", n,
		 n == 1 ? "" : "s", c, c == 1 ? "" : "s", l, l == 1 ? "" : "s",
		 p, p == 1 ? "" : "s");
}

cJSON *cli_read_json(const char *path, size_t max, int *err)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;
	cJSON *root;
	FILE *f = fopen(path, "rb");

	*err = 0;
	if (!f) {
		*err = errno;
		return NULL;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			/* one byte over max is enough to know it is too big */
			if (cap > max + 1)
				cap = max + 1;
			if (!(nb = realloc(buf, cap))) {
				*err = ENOMEM;
				break;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len > max) {
			*err = EFBIG;
			break;
		}
		if (n == 0) {
			if (ferror(f))
				*err = errno ? errno : EIO;
			break;
		}
	}
	fclose(f);
	root = *err ? NULL : cJSON_ParseWithLength(buf, len);
	free(buf);
	return root;
}
