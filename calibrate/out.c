/* SPDX-License-Identifier: MIT */
/* Atomic output files and messages (out.h). */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "out.h"

void cal_error(const char *fmt, ...)
{
	va_list ap;

	fputs(CAL_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool cal_write_atomic(const char *path, const char *text)
{
	size_t n = strlen(text);
	char *tmp;
	FILE *f;
	int fd;

	if (strcmp(path, "-") == 0) {
		if (fwrite(text, 1, n, stdout) != n || fflush(stdout) != 0) {
			cal_error("cannot write to standard output: %s",
				  strerror(errno));
			return false;
		}
		return true;
	}
	tmp = malloc(strlen(path) + 16);
	if (!tmp) {
		cal_error("%s: out of memory", path);
		return false;
	}
	sprintf(tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		cal_error("cannot create %s: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	f = fdopen(fd, "w");
	if (!f || fwrite(text, 1, n, f) != n || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0) {
		cal_error("cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		free(tmp);
		return false;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		cal_error("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

bool cal_can_write(const char *path)
{
	char *dir;
	struct stat st;
	bool ok;

	if (strcmp(path, "-") == 0)
		return true;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		cal_error("cannot write %s: it is a directory", path);
		return false;
	}
	dir = strdup(path);
	if (!dir) {
		cal_error("%s: out of memory", path);
		return false;
	}
	ok = access(dirname(dir), W_OK) == 0;
	if (!ok)
		cal_error("cannot write %s: %s", path, strerror(errno));
	free(dir);
	return ok;
}

void cal_today(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%d", &tm);
	else
		snprintf(buf, len, "unknown");
}
