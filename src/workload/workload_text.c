/* SPDX-License-Identifier: MIT */
/*
 * The bytes of a document before cJSON reads them.  cJSON stops at 1000
 * levels of nesting and calls it a syntax error, copies any byte of a
 * string as it is (invalid UTF-8 then reaches results JSON that other
 * parsers reject), and decodes "\u0000" into a NUL that silently cuts a
 * name short.  One pass over the text finds each of these; for a string
 * at fault, a walk of the parsed document, which holds its strings in
 * the order of the text, names its JSON path.
 */
#include <limits.h>
#include <string.h>

#include "lib/utf8.h"
#include "workload_impl.h"

/*
 * cJSON fails alike on a syntax error and on an allocation failure.  When
 * it fails, this allocation-free check of the same text tells the two
 * apart: a value it accepts made cJSON fail for want of memory.  It follows
 * RFC 8259 with cJSON's limits (nesting below 1000, \u surrogates paired).
 */
struct jv {
	const char *s;
	size_t n, i;
};

static void jv_ws(struct jv *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
			       p->s[p->i] == '\r' || p->s[p->i] == '\n'))
		p->i++;
}

static bool jv_at(const struct jv *p, char c)
{
	return p->i < p->n && p->s[p->i] == c;
}

static bool jv_digits(struct jv *p)
{
	size_t start = p->i;

	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return p->i > start;
}

static bool jv_hex4(struct jv *p, unsigned *u)
{
	*u = 0;
	for (int k = 0; k < 4; k++, p->i++) {
		char c = p->i < p->n ? p->s[p->i] : '\0';

		if (c >= '0' && c <= '9')
			*u = *u * 16 + (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*u = *u * 16 + (unsigned)((c | 0x20) - 'a' + 10);
		else
			return false;
	}
	return true;
}

static bool jv_string(struct jv *p)
{
	unsigned u, lo;

	for (p->i++; p->i < p->n;) {
		char c = p->s[p->i++];

		if (c == '"')
			return true;
		if (c != '\\')
			continue;
		if (p->i >= p->n)
			return false;
		c = p->s[p->i++];
		if (c != 'u') {
			if (!c || !strchr("\"\\/bfnrt", c))
				return false;
			continue;
		}
		if (!jv_hex4(p, &u) || (u >= 0xdc00 && u <= 0xdfff))
			return false;
		if (u >= 0xd800 && u <= 0xdbff &&
		    (!jv_at(p, '\\') || p->i + 1 >= p->n ||
		     p->s[p->i + 1] != 'u' || (p->i += 2, !jv_hex4(p, &lo)) ||
		     lo < 0xdc00 || lo > 0xdfff))
			return false;
	}
	return false;
}

static bool jv_value(struct jv *p, int depth)
{
	char open, close;

	jv_ws(p);
	if (p->i >= p->n)
		return false;
	open = p->s[p->i];
	if (open == '"')
		return jv_string(p);
	if (open != '{' && open != '[') {
		static const char *const words[] = { "true", "false", "null" };

		for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
			size_t len = strlen(words[k]);

			if (p->n - p->i >= len &&
			    memcmp(p->s + p->i, words[k], len) == 0) {
				p->i += len;
				return true;
			}
		}
		if (jv_at(p, '-'))
			p->i++;
		if (jv_at(p, '0'))
			p->i++;
		else if (!jv_digits(p))
			return false;
		if (jv_at(p, '.') && (p->i++, !jv_digits(p)))
			return false;
		if (jv_at(p, 'e') || jv_at(p, 'E')) {
			p->i++;
			if (jv_at(p, '+') || jv_at(p, '-'))
				p->i++;
			if (!jv_digits(p))
				return false;
		}
		return true;
	}
	if (depth >= 1000)
		return false;
	close = open == '{' ? '}' : ']';
	p->i++;
	jv_ws(p);
	if (jv_at(p, close)) {
		p->i++;
		return true;
	}
	for (;;) {
		if (open == '{') {
			jv_ws(p);
			if (!jv_at(p, '"') || !jv_string(p))
				return false;
			jv_ws(p);
			if (!jv_at(p, ':'))
				return false;
			p->i++;
		}
		if (!jv_value(p, depth + 1))
			return false;
		jv_ws(p);
		if (jv_at(p, close)) {
			p->i++;
			return true;
		}
		if (!jv_at(p, ','))
			return false;
		p->i++;
	}
}

bool eevdf__wl_json_valid(const char *s, size_t n, bool whole)
{
	struct jv p = { s, n, 0 };

	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		p.i = 3;
	if (!jv_value(&p, 0))
		return false;
	/* whole: nothing may follow the value ("5s" is no JSON number) */
	jv_ws(&p);
	return !whole || p.i == p.n;
}

/* The problem found, and where. */
struct text_fault {
	const char *what; /* NULL: none */
	size_t pos;	  /* byte offset in the text */
	size_t string;	  /* 1 + the ordinal of the string it is in, or 0 */
};

static bool is_nul_escape(const char *s, size_t n)
{
	return n >= 5 && s[0] == 'u' && memcmp(s + 1, "0000", 4) == 0;
}

/*
 * The first fault of the text, scanning as JSON: strings and their
 * escapes apart, brackets counted outside them.  A text that is not JSON
 * may scan oddly; cJSON then reports its syntax error instead.
 */
static void scan(const char *buf, size_t len, int max_depth,
		 struct text_fault *f)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t strings = 0, i = 0;
	bool in_str = false;
	int depth = 0;

	memset(f, 0, sizeof(*f));
	while (i < len) {
		unsigned char c = s[i];
		size_t k;

		if (c == 0) {
			f->what = "a NUL byte";
			break;
		}
		if (!in_str) {
			if (c == '"') {
				in_str = true;
				strings++;
			} else if (c == '[' || c == '{') {
				if (++depth > max_depth) {
					f->what = "nesting";
					break;
				}
			} else if (c == ']' || c == '}') {
				depth--;
			}
			i++;
			continue;
		}
		if (c == '"') {
			in_str = false;
			i++;
		} else if (c == '\\') {
			if (i + 1 < len &&
			    is_nul_escape(buf + i + 1, len - i - 1)) {
				f->what = "\\u0000";
				f->string = strings;
				break;
			}
			i += 2;
		} else if (!(k = eevdf__utf8_seq(s + i, len - i))) {
			f->what = "utf8";
			f->string = strings;
			break;
		} else {
			i += k;
		}
	}
	f->pos = i;
}

/* Path building for the walk: "tasks[0].name", as the loader writes. */
struct walk {
	size_t want; /* the ordinal sought, 1-based */
	size_t seen;
	char path[WL_PATH_MAX];
	bool key; /* the string is a key of the object at path */
	bool found;
};

static void path_push(char *path, size_t *n, const char *key, size_t idx)
{
	int w;

	if (key)
		w = snprintf(path + *n, WL_PATH_MAX - *n, "%s%s", *n ? "." : "",
			     key);
	else
		w = snprintf(path + *n, WL_PATH_MAX - *n, "[%zu]", idx);
	if (w > 0)
		*n = *n + (size_t)w < WL_PATH_MAX ? *n + (size_t)w :
						    WL_PATH_MAX - 1;
}

/* Visit v's strings in the order of the text, keys before values. */
static void walk(const cJSON *v, struct walk *w, size_t n)
{
	const cJSON *c;
	size_t i = 0;

	if (cJSON_IsString(v) && ++w->seen == w->want) {
		w->found = true;
		return;
	}
	if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
		return;
	for (c = v->child; c && !w->found; c = c->next, i++) {
		size_t m = n;

		if (cJSON_IsObject(v) && ++w->seen == w->want) {
			w->found = true;
			w->key = true;
			return;
		}
		path_push(w->path, &m, cJSON_IsObject(v) ? c->string : NULL, i);
		walk(c, w, m);
		if (!w->found)
			w->path[n] = '\0';
	}
}

static int line_at(const char *buf, size_t pos)
{
	int line = 1;

	for (size_t i = 0; i < pos; i++)
		if (buf[i] == '\n' && line < INT_MAX)
			line++;
	return line;
}

int eevdf__wl_check_text(const char *buf, size_t len,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag *diag)
{
	size_t max = eevdf__wl_max_input(opts);
	int depth = eevdf__wl_max_depth(opts);
	struct text_fault f;
	struct walk w;
	const char *end = NULL;
	const char *what;
	char sz[32];
	cJSON *root;

	if (len > max) {
		eevdf__wl_size_text(sz, sizeof(sz), max);
		snprintf(diag->msg, sizeof(diag->msg),
			 "the input is larger than the limit of %s "
			 "(max_input)",
			 sz);
		return EEVDF_ELIMIT;
	}
	if (depth < 1 || depth > EEVDF_LOAD_MAX_DEPTH_TOP) {
		snprintf(diag->msg, sizeof(diag->msg),
			 "bad load options: max_depth %d is outside 1..%d",
			 depth, EEVDF_LOAD_MAX_DEPTH_TOP);
		return EEVDF_EINVAL;
	}
	scan(buf, len, depth, &f);
	if (!f.what)
		return 0;
	diag->path[0] = '\0';
	diag->line = line_at(buf, f.pos);
	if (strcmp(f.what, "nesting") == 0) {
		snprintf(diag->msg, sizeof(diag->msg),
			 "JSON nested deeper than %d levels (max_depth)",
			 depth);
		return EEVDF_ELIMIT;
	}
	what = strcmp(f.what, "utf8") == 0 ? "bytes that are not UTF-8" :
	       f.string ? "a NUL character (\\u0000), which would cut the "
			  "string short" :
			  "a NUL byte";
	if (!f.string) {
		snprintf(diag->msg, sizeof(diag->msg),
			 "%s at byte %zu: the file must be UTF-8 text", what,
			 f.pos);
		return EEVDF_EPARSE;
	}
	/* name the string by its path, once the document is known to parse */
	root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!root && eevdf__wl_json_valid(buf, len, false)) {
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "out of memory");
		return EEVDF_ENOMEM;
	}
	if (!root)
		return eevdf__wl_syntax_error(diag, buf, len,
					      end ? (size_t)(end - buf) : 0,
					      "JSON syntax error");
	memset(&w, 0, sizeof(w));
	w.want = f.string;
	walk(root, &w, 0);
	cJSON_Delete(root);
	if (w.found) {
		diag->line = 0;
		eevdf__wl_set_str(diag->path, sizeof(diag->path), w.path);
	}
	snprintf(diag->msg, sizeof(diag->msg), "%s%s at byte %zu (line %d)",
		 w.key ? "a key holds " : "", what, f.pos, line_at(buf, f.pos));
	return EEVDF_EPARSE;
}
