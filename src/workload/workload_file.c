/* SPDX-License-Identifier: MIT */
/*
 * Workload, machine and rt-app files alike: reading a file's bytes,
 * parsing them as one JSON document, and naming a syntax error by line.
 * Below the three readers, so that none of them depends on another's
 * file for this.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "workload_impl.h"

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
int eevdf__wl_parse_json(const char *buf, size_t len, struct eevdf_diag *diag,
			 cJSON **root)
{
	const char *end = NULL;

	*root = NULL;
	if (len == 0) {
		diag->line = 1;
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "the file is empty");
		return EEVDF_EPARSE;
	}
	*root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
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
			 struct eevdf_diag **diag, struct eevdf_diag *scratch,
			 char **buf, size_t *len)
{
	if (!*diag)
		*diag = scratch;
	eevdf__wl_diag_init(*diag, path);
	if (!path || !have_out)
		return EEVDF_EINVAL;
	return eevdf__wl_read_file(path, buf, len, *diag);
}

int eevdf__wl_read_file(const char *path, char **out, size_t *outlen,
			struct eevdf_diag *diag)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f;
	int err;

	*out = NULL;
	*outlen = 0;
	f = fopen(path, "rb");
	if (!f) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot read: %s",
			 strerror(errno));
		return EEVDF_EIO;
	}
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

			if (ncap > WL_MAX_FILE + 1)
				ncap = WL_MAX_FILE + 1;
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
		if (len > WL_MAX_FILE || n == 0)
			break;
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err || len > WL_MAX_FILE) {
		free(buf);
		if (err)
			snprintf(diag->msg, sizeof(diag->msg),
				 "cannot read: %s", strerror(err));
		else
			eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
					  "cannot read: the file is larger "
					  "than 64 MiB");
		return EEVDF_EIO;
	}
	*out = buf;
	*outlen = len;
	return 0;
}
