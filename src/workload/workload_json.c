/* SPDX-License-Identifier: MIT */
/* Workload loader: JSON access with diagnostics by path, names, globs. */
#include <stdarg.h>
#include <string.h>

#include "workload_impl.h"

char *eevdf__wl_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* Copy s into dst (size n), truncating; dst is always terminated. */
void eevdf__wl_set_str(char *dst, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * A user-supplied string made safe to embed in a message: control bytes
 * become '?' (they would garble a terminal) and long strings are cut with
 * "...".  Returns buf.
 */
const char *eevdf__wl_shown(char *buf, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	buf[i] = '\0';
	if (s[i] && n >= 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

/* Path handling: push returns the old length, to be handed to path_pop. */
static size_t path_advance(struct wl_parser *p, size_t old, int n)
{
	if (n > 0) {
		p->plen = old + (size_t)n;
		if (p->plen >= sizeof(p->path))
			p->plen = sizeof(p->path) - 1; /* truncated */
	}
	return old;
}

size_t eevdf__wl_path_key(struct wl_parser *p, const char *key)
{
	size_t old = p->plen;

	return path_advance(p, old,
			    snprintf(p->path + old, sizeof(p->path) - old,
				     old ? ".%s" : "%s", key));
}

size_t eevdf__wl_path_quoted(struct wl_parser *p, const char *key)
{
	char kb[WL_PATH_MAX];
	size_t old = p->plen;

	return path_advance(p, old,
			    snprintf(p->path + old, sizeof(p->path) - old,
				     "[\"%s\"]",
				     eevdf__wl_shown(kb, sizeof(kb), key)));
}

size_t eevdf__wl_path_index(struct wl_parser *p, size_t i)
{
	size_t old = p->plen;

	return path_advance(p, old,
			    snprintf(p->path + old, sizeof(p->path) - old,
				     "[%zu]", i));
}

void eevdf__wl_path_pop(struct wl_parser *p, size_t old)
{
	p->plen = old;
	p->path[old] = '\0';
}

/*
 * The current place for a later message: the path, then, for a macro
 * body, a newline and the call site.  NULL when out of memory.
 */
char *eevdf__wl_where(struct wl_parser *p)
{
	size_t a = strlen(p->path), b = strlen(p->via);
	char *s = malloc(a + b + 2);

	if (!s)
		return NULL;
	memcpy(s, p->path, a);
	s[a] = '\0';
	if (b) {
		s[a] = '\n';
		memcpy(s + a + 1, p->via, b + 1);
	}
	return s;
}

/*
 * Record the error at path (where came from eevdf__wl_where() when via is
 * NULL).  Only the first error is kept: the callers unwind on the first
 * failure, and a later message would describe a consequence.
 */
static int vfail(struct wl_parser *p, const char *path, const char *via,
		 const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static int vfail(struct wl_parser *p, const char *path, const char *via,
		 const char *fmt, va_list ap)
{
	struct eevdf_diag *d = p->diag;
	char where[WL_PATH_MAX];
	const char *nl;
	size_t n;

	if (d->msg[0])
		return EEVDF_EPARSE;
	nl = via ? NULL : strchr(path, '\n');
	if (nl) {
		n = (size_t)(nl - path) < sizeof(where) ? (size_t)(nl - path) :
							  sizeof(where) - 1;
		memcpy(where, path, n);
		where[n] = '\0';
		eevdf__wl_set_str(d->path, sizeof(d->path), where);
		via = nl + 1;
	} else {
		eevdf__wl_set_str(d->path, sizeof(d->path), path);
	}
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	n = strlen(d->msg);
	if (via && via[0])
		snprintf(d->msg + n, sizeof(d->msg) - n,
			 " (in the macro called at %s)", via);
	else if (p->inst[0])
		snprintf(d->msg + n, sizeof(d->msg) - n, " (in '%s')", p->inst);
	return EEVDF_EPARSE;
}

int eevdf__wl_fail(struct wl_parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, p->path, p->via, fmt, ap);
	va_end(ap);
	return r;
}

int eevdf__wl_fail_at(struct wl_parser *p, const char *path, const char *fmt,
		      ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfail(p, path ? path : "", NULL, fmt, ap);
	va_end(ap);
	return r;
}

int eevdf__wl_nomem(struct wl_parser *p)
{
	eevdf__wl_fail(p, "out of memory");
	return EEVDF_ENOMEM;
}

const cJSON *eevdf__wl_get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static int find_key(const char *const *keys, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], k) == 0)
			return (int)i;
	return -1;
}

/*
 * Check every key of obj: duplicates, keys of later versions and unknown
 * keys are errors.  Keys are checked before any value so that a typo is
 * reported as such rather than as a missing key.  At most 32 known keys.
 */
int eevdf__wl_check_keys(struct wl_parser *p, const cJSON *obj,
			 const char *const *known, size_t nr_known,
			 const char *const *later, size_t nr_later)
{
	char kb[WL_SHOWN_MAX];
	uint32_t seen = 0;
	const cJSON *it;

	EEVDF_ASSERT(nr_known <= 32);
	for (it = obj->child; it; it = it->next) {
		const char *k = it->string ? it->string : "";
		int i = find_key(known, nr_known, k);

		if (i >= 0) {
			if (seen & ((uint32_t)1 << i))
				return eevdf__wl_fail(p, "duplicate key '%s'",
						      k);
			seen |= (uint32_t)1 << i;
		} else if (later && find_key(later, nr_later, k) >= 0) {
			return eevdf__wl_fail(p,
					      "'%s' is not supported by "
					      "this version yet",
					      k);
		} else {
			return eevdf__wl_fail(p, "unknown key '%s'",
					      eevdf__wl_shown(kb, sizeof(kb),
							      k));
		}
	}
	return 0;
}

/*
 * An integer in [lo, hi] from a JSON number.  cJSON keeps numbers as
 * doubles; bounds within +-2^53 make the integral test exact.
 */
int eevdf__wl_get_int(struct wl_parser *p, const cJSON *it, s64 lo, s64 hi,
		      s64 *out)
{
	double d;

	if (!cJSON_IsNumber(it))
		return eevdf__wl_fail(p, "must be an integer");
	d = it->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi))
		return eevdf__wl_fail(p, "must be between %lld and %lld",
				      (long long)lo, (long long)hi);
	if (d != (double)(s64)d)
		return eevdf__wl_fail(p, "must be an integer");
	*out = (s64)d;
	return 0;
}

/* Optional boolean member; *out untouched when absent. */
int eevdf__wl_get_bool(struct wl_parser *p, const cJSON *obj, const char *key,
		       bool *out)
{
	const cJSON *it = eevdf__wl_get(obj, key);
	size_t old;
	int r = 0;

	if (!it)
		return 0;
	old = eevdf__wl_path_key(p, key);
	if (cJSON_IsBool(it))
		*out = cJSON_IsTrue(it);
	else
		r = eevdf__wl_fail(p, "must be true or false");
	eevdf__wl_path_pop(p, old);
	return r;
}

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool eevdf__wl_is_ident(const char *s, size_t len)
{
	if (len == 0 || len > WL_IDENT_MAX || !ident_start(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!ident_start(s[i]) && !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return true;
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-' || c == '[' || c == ']';
}

/* A task or object name after expansion. */
int eevdf__wl_check_name(struct wl_parser *p, const char *s, const char *what)
{
	char sb[WL_SHOWN_MAX];
	size_t len = strlen(s);

	if (len < 1 || len > WL_NAME_MAX)
		return eevdf__wl_fail(p,
				      "%s '%s' must be 1 to %d characters "
				      "long",
				      what, eevdf__wl_shown(sb, sizeof(sb), s),
				      WL_NAME_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (name_char_ok(s[i]))
			continue;
		if (c >= 0x20 && c < 0x7f)
			return eevdf__wl_fail(
				p,
				"invalid character '%c' in "
				"%s '%s' (a name may use A-Z "
				"a-z 0-9 _ . : - [ ])",
				s[i], what, eevdf__wl_shown(sb, sizeof(sb), s));
		return eevdf__wl_fail(p,
				      "invalid byte 0x%02x in %s (a name "
				      "may use A-Z a-z 0-9 _ . : - [ ])",
				      c, what);
	}
	return 0;
}

/* Whether s matches pat[0..plen): '*' is any run of characters. */
bool eevdf__wl_glob(const char *pat, size_t plen, const char *s)
{
	size_t i = 0, star = SIZE_MAX;
	const char *mark = NULL;

	while (*s) {
		if (i < plen && pat[i] == '*') {
			star = i++;
			mark = s;
		} else if (i < plen && pat[i] == *s) {
			i++;
			s++;
		} else if (star != SIZE_MAX) {
			i = star + 1;
			s = ++mark;
		} else {
			return false;
		}
	}
	while (i < plen && pat[i] == '*')
		i++;
	return i == plen;
}

int eevdf__wl_names_find(const struct wl_names *t, const char *s, size_t len)
{
	for (u32 i = 0; i < t->n; i++)
		if (strlen(t->v[i]) == len && memcmp(t->v[i], s, len) == 0)
			return (int)i;
	return -1;
}

/* The id of s[0..len), added when new; EEVDF_ENOMEM. */
int eevdf__wl_names_add(struct wl_names *t, const char *s, size_t len, u32 *id)
{
	int i = eevdf__wl_names_find(t, s, len);
	char *c;

	if (i >= 0) {
		*id = (u32)i;
		return 0;
	}
	if (t->n == t->cap) {
		u32 cap = t->cap ? 2 * t->cap : 16;
		char **n = realloc(t->v, cap * sizeof(*n));

		if (!n)
			return EEVDF_ENOMEM;
		t->v = n;
		t->cap = cap;
	}
	c = malloc(len + 1);
	if (!c)
		return EEVDF_ENOMEM;
	memcpy(c, s, len);
	c[len] = '\0';
	t->v[t->n] = c;
	*id = t->n++;
	return 0;
}

void eevdf__wl_names_free(struct wl_names *t)
{
	for (u32 i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void eevdf__wl_value_free(struct wl_value *v)
{
	free(v->s);
	memset(v, 0, sizeof(*v));
}

int eevdf__wl_push_u32(u32 **v, u32 *n, u32 *cap, u32 x)
{
	if (*n == *cap) {
		u32 c = *cap ? 2 * *cap : 8;
		u32 *nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return EEVDF_ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/*
 * A failed compile of s, quoted: err says "column N: what" counting from
 * s + off.  A resolver's own reason (why a name is not usable here) is
 * clearer than the compiler's "unknown name", so it wins.
 */
int eevdf__wl_fail_compile(struct wl_parser *p, const char *what, const char *s,
			   size_t off, const char *err)
{
	char sb[WL_SHOWN_MAX], *end;
	unsigned long col;

	eevdf__wl_shown(sb, sizeof(sb), s);
	if (p->why[0])
		return eevdf__wl_fail(p, "%s '%s': %s", what, sb, p->why);
	/* the compiler writes "column %zu: ..." (expr.c) */
	if (strncmp(err, "column ", 7) == 0 && err[7] >= '0' && err[7] <= '9') {
		col = strtoul(err + 7, &end, 10);
		if (*end == ':') {
			for (end++; *end == ' '; end++)
				;
			return eevdf__wl_fail(p, "%s '%s': column %zu: %s",
					      what, sb, (size_t)col + off, end);
		}
	}
	return eevdf__wl_fail(p, "%s '%s': %s", what, sb, err);
}

/* Optional string member; *out is a fresh copy, or untouched if absent. */
int eevdf__wl_get_opt_string(struct wl_parser *p, const cJSON *obj,
			     const char *key, char **out)
{
	const cJSON *it = eevdf__wl_get(obj, key);
	size_t old;
	int r = 0;

	if (!it)
		return 0;
	old = eevdf__wl_path_key(p, key);
	if (!cJSON_IsString(it) || !it->valuestring) {
		r = eevdf__wl_fail(p, "must be a string");
	} else {
		*out = eevdf__wl_strdup(it->valuestring);
		if (!*out)
			r = eevdf__wl_nomem(p);
	}
	eevdf__wl_path_pop(p, old);
	return r;
}

/*
 * With opts->errors (a validator), record the error just made and let the
 * caller go on: true.  The first error is kept to be restored in diag at
 * the end.  Without, or for an allocation failure, false: stop here.
 */
bool eevdf__wl_collect(struct wl_parser *p, int r)
{
	const struct eevdf_load_opts *o = p->opts;

	if (!o || !o->errors || r == EEVDF_ENOMEM)
		return false;
	if (p->nr_errors < o->max_errors)
		o->errors[p->nr_errors] = *p->diag;
	if (p->nr_errors++ == 0) {
		p->first_error = r;
		p->first_diag = *p->diag;
	}
	p->diag->msg[0] = '\0';
	p->diag->path[0] = '\0';
	p->diag->line = 0;
	return true;
}

int eevdf__wl_collected(struct wl_parser *p)
{
	if (!p->nr_errors)
		return 0;
	*p->diag = p->first_diag;
	return p->first_error;
}

void eevdf__wl_errors_done(const struct wl_parser *p, int r)
{
	const struct eevdf_load_opts *o = p->opts;

	if (!o || !o->errors || !o->nr_errors)
		return;
	/* every error, or the one that stopped the loader */
	if (r && !p->nr_errors && o->max_errors)
		o->errors[0] = *p->diag;
	*o->nr_errors = p->nr_errors ? p->nr_errors : r != 0;
}

/*
 * The "format" of a document: want, or an error naming what it is.  A
 * machine file given as a workload (or the other way round) says so.
 */
int eevdf__wl_check_format(struct wl_parser *p, const cJSON *obj,
			   const char *want, bool required)
{
	static const char *const known[][2] = {
		{ WL_FORMAT, "a workload" },
		{ MACHINE_FORMAT, "a machine" },
	};
	const cJSON *it = eevdf__wl_get(obj, "format");
	const char *is = NULL, *wanted = NULL;
	char sb[WL_SHOWN_MAX];
	size_t old;
	int r = 0;

	if (!it)
		return required ? eevdf__wl_fail(p,
						 "missing key 'format' "
						 "(expected \"%s\")",
						 want) :
				  0;
	old = eevdf__wl_path_key(p, "format");
	if (!cJSON_IsString(it) || !it->valuestring) {
		r = eevdf__wl_fail(p, "must be the string \"%s\"", want);
	} else if (strcmp(it->valuestring, want) != 0) {
		for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
			if (strcmp(it->valuestring, known[i][0]) == 0)
				is = known[i][1];
			if (strcmp(want, known[i][0]) == 0)
				wanted = known[i][1];
		}
		if (is && wanted)
			r = eevdf__wl_fail(p, "this is %s file, not %s", is,
					   wanted);
		else
			r = eevdf__wl_fail(p,
					   "unsupported format '%s' (this "
					   "version reads '%s')",
					   eevdf__wl_shown(sb, sizeof(sb),
							   it->valuestring),
					   want);
	}
	eevdf__wl_path_pop(p, old);
	return r;
}
