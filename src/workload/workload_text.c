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
