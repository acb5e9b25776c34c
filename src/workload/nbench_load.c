/* SPDX-License-Identifier: MIT */
/*
 * NBENCH load files (dbench's client.txt format) read into the engine's
 * struct nb_load, as dbench 4's child_run() reads them: one operation a
 * line, "\" made "/", tokens split at spaces with quotes grouping, an
 * optional leading timestamp, file names (the tokens that start with
 * "/"), numeric parameters ("*..." and "+..." ones evaluated when run),
 * and the expected status last (NT_STATUS_OK, 0x..., SUCCESS, ERROR or
 * "*").  "LOOP n" ... "ENDLOOP" repeat what they enclose, "REPEAT n"
 * repeats the next line, "SLEEP us" sleeps; "#" lines are comments.
 * SETSP, WAITSP and RANDOMSTRING are refused: they synchronise clients or
 * make random names, which this version does not model.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "engine/nbench.h"
#include "workload_impl.h"

/* Loads larger than this are refused (lines after LOOP expansion). */
#define NB_MAX_LINES ((size_t)20000000)

static int pool_add(struct nb_load *l, const char *s, u32 *off)
{
	size_t n = strlen(s) + 1;

	if (l->pool_len + n > l->pool_cap) {
		size_t cap = l->pool_cap ? 2 * l->pool_cap : 4096;
		char *m;

		while (cap < l->pool_len + n)
			cap *= 2;
		m = realloc(l->pool, cap);
		if (!m)
			return EEVDF_ENOMEM;
		l->pool = m;
		l->pool_cap = cap;
	}
	if (l->pool_len > UINT32_MAX - n)
		return EEVDF_ERANGE;
	memcpy(l->pool + l->pool_len, s, n);
	*off = (u32)l->pool_len;
	l->pool_len += n;
	return 0;
}

static struct nb_line *line_add(struct nb_load *l)
{
	if (l->nr >= NB_MAX_LINES)
		return NULL;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct nb_line *n = realloc(l->lines, cap * sizeof(*n));

		if (!n)
			return NULL;
		l->lines = n;
		l->cap = cap;
	}
	memset(&l->lines[l->nr], 0, sizeof(l->lines[0]));
	l->lines[l->nr].repeat = 1;
	return &l->lines[l->nr++];
}

/* next_token(): at most max tokens of s (modified), quotes group. */
static int tokens(char *s, char **tok, int max)
{
	int n = 0;

	while (n < max) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (*s == '"') {
			char *end = strchr(s + 1, '"');

			tok[n++] = s + 1;
			if (!end)
				break;
			*end = '\0';
			s = end + 1;
			continue;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static bool status_ok(const char *s)
{
	return strcmp(s, "NT_STATUS_OK") == 0 || strcmp(s, "SUCCESS") == 0 ||
	       strcmp(s, "*") == 0 ||
	       (strncmp(s, "0x", 2) == 0 && strtoul(s, NULL, 16) == 0);
}

static bool status_valid(const char *s)
{
	return strncmp(s, "NT_STATUS_", 10) == 0 || strncmp(s, "0x", 2) == 0 ||
	       strncmp(s, "SUCCESS", 7) == 0 || strncmp(s, "ERROR", 5) == 0 ||
	       s[0] == '*';
}

/* "WORD n": n, read as dbench's sscanf("WORD %u") reads it; false if
 * there is no number. */
static bool keyword_num(const char *s, size_t kw, long long *out)
{
	char *end;

	*out = strtoll(s + kw, &end, 10);
	return end != s + kw;
}

#define NB_ERR(...)                                                            \
	do {                                                                   \
		snprintf(err, errlen, __VA_ARGS__);                            \
		r = EEVDF_EINVAL;                                              \
		goto out;                                                      \
	} while (0)

int eevdf__wl_nbench_parse(const char *text, size_t len, const char *name,
			   struct nb_load **out, char *err, size_t errlen,
			   size_t *lineno)
{
	struct nb_load *l = calloc(1, sizeof(*l));
	size_t loop_start = 0, loop_line = 0;
	u32 loop_count = 0, repeat = 1, zero;
	bool in_loop = false;
	char *buf = NULL;
	int r = 0;

	*out = NULL;
	*lineno = 0;
	if (l)
		l->refs = 1;
	if (!l || !(l->name = eevdf__wl_strdup(name)) ||
	    pool_add(l, "", &zero)) {
		r = EEVDF_ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	buf = malloc(len + 1);
	if (!buf) {
		r = EEVDF_ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (char *s = buf, *next; s && *s; s = next) {
		char *tok[20], *nl = strchr(s, '\n');
		struct nb_line *ln;
		int n, k, op = -1, first;
		double t = 0;

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		(*lineno)++;
		if (nl && nl > s && nl[-1] == '\r')
			nl[-1] = '\0';
		if (strncmp(s, "LOOP", 4) == 0 &&
		    !isalpha((unsigned char)s[4])) {
			if (in_loop)
				NB_ERR("LOOP inside a LOOP");
			long long v;

			if (!keyword_num(s, 4, &v) || v < 0 || v > UINT32_MAX)
				NB_ERR("incorrect LOOP");
			loop_count = (u32)v;
			in_loop = true;
			loop_start = l->nr;
			loop_line = *lineno;
			continue;
		}
		if (strncmp(s, "ENDLOOP", 7) == 0) {
			size_t body;

			if (!in_loop)
				NB_ERR("ENDLOOP without LOOP");
			in_loop = false;
			body = l->nr - loop_start;
			for (u32 i = 1; i < loop_count; i++)
				for (size_t j = 0; j < body; j++) {
					struct nb_line *c = line_add(l);

					if (!c)
						NB_ERR("the load file is too "
						       "large (more than %zu "
						       "lines once LOOPs are "
						       "unrolled)",
						       NB_MAX_LINES);
					*c = l->lines[loop_start + j];
				}
			if (!loop_count)
				l->nr = loop_start;
			continue;
		}
		if (strncmp(s, "REPEAT", 6) == 0) {
			long long v;

			if (!keyword_num(s, 6, &v) || v < 1 || v > UINT32_MAX)
				NB_ERR("incorrect REPEAT");
			repeat = (u32)v;
			continue;
		}
		if (strncmp(s, "SLEEP", 5) == 0) {
			long long us;

			if (!keyword_num(s, 5, &us) || us < 0 ||
			    us > 1000000000LL)
				NB_ERR("incorrect SLEEP");
			if (!(ln = line_add(l)))
				NB_ERR("the load file is too large");
			ln->op = NB_SLEEP;
			ln->p[0] = us;
			continue;
		}
		if (strncmp(s, "WRITEPATTERN", 12) == 0)
			continue;
		if (strncmp(s, "SETSP", 5) == 0 ||
		    strncmp(s, "WAITSP", 6) == 0 ||
		    strncmp(s, "RANDOMSTRING", 12) == 0)
			NB_ERR("%.12s is not supported by this version",
			       strtok(s, " "));
		for (char *c = s; *c; c++)
			if (*c == '\\')
				*c = '/';
		n = tokens(s, tok, 19);
		if (n < 2 || tok[0][0] == '#')
			continue;
		if (strncmp(tok[0], "SMB", 3) == 0)
			NB_ERR("this is a dbench 1 load file");
		first = 0;
		if (isdigit((unsigned char)tok[0][0])) {
			t = strtod(tok[0], NULL);
			first = 1;
			if (n < 3)
				continue;
		}
		for (k = 0; k < NB_SLEEP; k++)
			if (strcasecmp(tok[first], eevdf__nb_op_names[k]) == 0)
				op = k;
		if (op < 0)
			NB_ERR("unknown operation '%.40s'", tok[first]);
		if (!status_valid(tok[n - 1]))
			NB_ERR("badly formed status '%.40s'", tok[n - 1]);
		if (!(ln = line_add(l)))
			NB_ERR("the load file is too large");
		ln->op = (uint8_t)op;
		ln->t = t;
		ln->repeat = repeat;
		repeat = 1;
		ln->expect_fail = !status_ok(tok[n - 1]);
		k = first + 1;
		if (k < n - 1 && tok[k][0] == '/') {
			if (pool_add(l, tok[k], &ln->path))
				NB_ERR("out of memory");
			k++;
		}
		if (k < n - 1 && tok[k][0] == '/') {
			if (pool_add(l, tok[k], &ln->path2))
				NB_ERR("out of memory");
			k++;
		}
		for (int i = 0; k < n - 1 && i < NB_PARAMS; k++, i++) {
			if (tok[k][0] == '*' || tok[k][0] == '+') {
				u32 off;

				if (pool_add(l, tok[k], &off))
					NB_ERR("out of memory");
				ln->p[i] = off;
				ln->special |= (uint8_t)(1u << i);
			} else {
				ln->p[i] = strtoll(tok[k], NULL, 0);
			}
		}
	}
	if (in_loop) {
		*lineno = loop_line;
		NB_ERR("LOOP without ENDLOOP");
	}
	if (!l->nr)
		NB_ERR("no operations in the load file");
	for (size_t i = 0; i < l->nr; i++)
		l->nr_by_op[l->lines[i].op] += l->lines[i].repeat;
	*lineno = 0;
out:
	free(buf);
	if (r) {
		eevdf__nb_load_unref(l);
		return r;
	}
	*out = l;
	return 0;
}
