/* SPDX-License-Identifier: MIT */
/*
 * Workload, machine and rt-app files alike: reading a file's bytes,
 * parsing them as one JSON document, and naming a syntax error by line.
 * Below the three readers, so that none of them depends on another's
 * file for this.
 */
/* open(), fstat(), fdopen(): POSIX, of which the rest of the library
 * needs nothing */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload_impl.h"

const struct eevdf_load_opts eevdf__wl_checked;

size_t eevdf__wl_max_input(const struct eevdf_load_opts *o)
{
	return o && o->max_input ? o->max_input : EEVDF_LOAD_MAX_INPUT;
}

int eevdf__wl_max_depth(const struct eevdf_load_opts *o)
{
	return o && o->max_depth ? o->max_depth : EEVDF_LOAD_MAX_DEPTH;
}

u64 eevdf__wl_max_ops(const struct eevdf_load_opts *o)
{
	return o && o->max_ops ? o->max_ops : EEVDF_LOAD_MAX_OPS;
}

/* "64 MiB", "1.5 KiB", "100 bytes": a size as the messages give it. */
void eevdf__wl_size_text(char *buf, size_t len, u64 n)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	int u = -1;
	u64 whole = n, rest = 0;

	while (whole >= 1024 && u < 3) {
		rest = whole % 1024;
		whole /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	else if (rest)
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)whole,
			 (unsigned long long)(rest * 10 / 1024), unit[u]);
	else
		snprintf(buf, len, "%llu %s", (unsigned long long)whole,
			 unit[u]);
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (a pipe)";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * path opened for reading if it is a regular file; else NULL with diag's
 * message.  O_NONBLOCK lets the open of a FIFO return at once (a plain
 * open waits for a writer, for ever if none comes); fstat then tells.
 */
static FILE *open_regular(const char *path, struct eevdf_diag *diag)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f;

	if (fd < 0) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot read: %s",
			 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot read: %s",
			 strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(diag->msg, sizeof(diag->msg),
			 "cannot read: it is %s, not a regular file (a "
			 "workload on standard input is '-')",
			 file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    !(f = fdopen(fd, "rb"))) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot read: %s",
			 strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}

/* 1-based line of byte pos. */
static int line_of(const char *buf, size_t pos)
{
	int line = 1;

	for (size_t i = 0; i < pos; i++)
		if (buf[i] == '\n' && line < INT_MAX)
			line++;
	return line;
}

int eevdf__wl_syntax_error(struct eevdf_diag *d, const char *buf, size_t len,
			   size_t pos, const char *what)
{
	char near[24];
	size_t i;

	d->path[0] = '\0';
	d->line = line_of(buf, pos);
	/* cJSON reports a truncated document at its last byte. */
	for (i = pos; i < len && (buf[i] == ' ' || buf[i] == '\t' ||
				  buf[i] == '\r' || buf[i] == '\n');
	     i++)
		;
	if (i == len) {
		snprintf(d->msg, sizeof(d->msg), "%s: unexpected end of file",
			 what);
		return EEVDF_EPARSE;
	}
	for (i = 0; i + 1 < sizeof(near) && pos + i < len; i++) {
		unsigned char c = (unsigned char)buf[pos + i];

		if (c == '\n' || c == '\r')
			break;
		near[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	near[i] = '\0';
	if (i)
		snprintf(d->msg, sizeof(d->msg), "%s near '%s'", what, near);
	else
		snprintf(d->msg, sizeof(d->msg), "%s", what);
	return EEVDF_EPARSE;
}

void eevdf__wl_diag_init(struct eevdf_diag *d, const char *filename)
{
	memset(d, 0, sizeof(*d));
	eevdf__wl_set_str(d->file, sizeof(d->file),
			  filename ? filename : "<memory>");
}

/*
 * The JSON document of buf: the whole of it, or a syntax error at its
 * line.  cJSON's own error position is a process-wide variable; the
 * return_parse_end pointer gives the same position without it.
 */
int eevdf__wl_parse_json(const char *buf, size_t len,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag *diag, cJSON **root)
{
	const char *end = NULL;
	int r;

	*root = NULL;
	if (len == 0) {
		diag->line = 1;
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "the file is empty");
		return EEVDF_EPARSE;
	}
	if (opts != EEVDF__WL_CHECKED &&
	    (r = eevdf__wl_check_text(buf, len, opts, diag)))
		return r;
	*root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	/* cJSON fails alike for want of memory: valid text tells */
	if (!*root && eevdf__wl_json_valid(buf, len, false)) {
		diag->line = 0;
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "out of memory");
		return EEVDF_ENOMEM;
	}
	if (!*root) {
		size_t pos = end ? (size_t)(end - buf) : 0;

		return eevdf__wl_syntax_error(diag, buf, len, pos,
					      "JSON syntax error");
	}
	/* Trailing text is silently ignored by cJSON: reject it here. */
	while (end && end < buf + len &&
	       (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
		end++;
	if (end && end < buf + len) {
		cJSON_Delete(*root);
		*root = NULL;
		return eevdf__wl_syntax_error(diag, buf, len,
					      (size_t)(end - buf),
					      "unexpected text after the JSON "
					      "value");
	}
	return 0;
}

int eevdf__wl_load_begin(const char *path, bool have_out,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag **diag, struct eevdf_diag *scratch,
			 char **buf, size_t *len)
{
	if (!*diag)
		*diag = scratch;
	eevdf__wl_diag_init(*diag, path);
	if (!path || !have_out)
		return EEVDF_EINVAL;
	return eevdf__wl_read_file(path, eevdf__wl_max_input(opts), buf, len,
				   *diag);
}

int eevdf__wl_read_file(const char *path, size_t max, char **out,
			size_t *outlen, struct eevdf_diag *diag)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f;
	int err;

	*out = NULL;
	*outlen = 0;
	f = open_regular(path, diag);
	if (!f)
		return EEVDF_EIO;
	/*
	 * Read to EOF rather than trusting a size from fseek/ftell, which
	 * pipes and /dev/stdin do not have.  One byte over the limit is
	 * enough to know the file is too big.
	 */
	for (;;) {
		size_t n;

		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			char *nb;

			/* one byte over max tells a file that is too big */
			if (max < SIZE_MAX && ncap > max + 1)
				ncap = max + 1;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
						  "out of memory");
				return EEVDF_ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len > max || n == 0)
			break;
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err || len > max) {
		char sz[32];

		free(buf);
		if (err) {
			snprintf(diag->msg, sizeof(diag->msg),
				 "cannot read: %s", strerror(err));
			return EEVDF_EIO;
		}
		eevdf__wl_size_text(sz, sizeof(sz), max);
		snprintf(diag->msg, sizeof(diag->msg),
			 "the file is larger than the limit of %s (max_input)",
			 sz);
		return EEVDF_ELIMIT;
	}
	*out = buf;
	*outlen = len;
	return 0;
}
