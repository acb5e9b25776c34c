/* SPDX-License-Identifier: MIT */
/*
 * A strict RFC 8259 well-formedness check for bench-smoke, so that CI can
 * check build/bench.json on a machine without python3.  It only accepts
 * or rejects; it builds nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_DEPTH 64

struct jp {
	const char *s;
	size_t n, i;
	const char *err;
};

static void ws(struct jp *p)
{
	while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
		p->i++;
}

static bool eat(struct jp *p, char c)
{
	ws(p);
	if (p->i < p->n && p->s[p->i] == c) {
		p->i++;
		return true;
	}
	return false;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool string(struct jp *p)
{
	if (!eat(p, '"'))
		return false;
	while (p->i < p->n) {
		unsigned char c = (unsigned char)p->s[p->i++];

		if (c == '"')
			return true;
		if (c < 0x20) {
			p->err = "control character in a string";
			return false;
		}
		if (c != '\\')
			continue;
		if (p->i >= p->n)
			break;
		c = (unsigned char)p->s[p->i++];
		if (c == 'u') {
			for (int k = 0; k < 4; k++)
				if (p->i >= p->n || !is_hex(p->s[p->i++])) {
					p->err = "bad \\u escape";
					return false;
				}
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			p->err = "bad escape";
			return false;
		}
	}
	p->err = "unterminated string";
	return false;
}

static bool digits(struct jp *p)
{
	size_t start = p->i;

	while (p->i < p->n && is_digit(p->s[p->i]))
		p->i++;
	return p->i > start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number(struct jp *p)
{
	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0')
		p->i++;
	else if (!digits(p))
		goto bad;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (!digits(p))
			goto bad;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (!digits(p))
			goto bad;
	}
	return true;
bad:
	p->err = "malformed number";
	return false;
}

static bool word(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if (p->n - p->i >= n && !memcmp(p->s + p->i, w, n)) {
		p->i += n;
		return true;
	}
	p->err = "unexpected character";
	return false;
}

static bool value(struct jp *p, int depth)
{
	char c;

	if (depth > MAX_DEPTH) {
		p->err = "nested too deeply";
		return false;
	}
	ws(p);
	if (p->i >= p->n) {
		p->err = "unexpected end";
		return false;
	}
	c = p->s[p->i];
	if (c == '{') {
		p->i++;
		if (eat(p, '}'))
			return true;
		do {
			ws(p);
			if (!string(p) || !eat(p, ':') || !value(p, depth + 1))
				goto member;
		} while (eat(p, ','));
		if (eat(p, '}'))
			return true;
member:
		if (!p->err)
			p->err = "expected a member, ',' or '}'";
		return false;
	}
	if (c == '[') {
		p->i++;
		if (eat(p, ']'))
			return true;
		do {
			if (!value(p, depth + 1))
				return false;
		} while (eat(p, ','));
		if (eat(p, ']'))
			return true;
		p->err = "expected ',' or ']'";
		return false;
	}
	if (c == '"')
		return string(p);
	if (c == '-' || is_digit(c))
		return number(p);
	if (c == 't')
		return word(p, "true");
	if (c == 'f')
		return word(p, "false");
	return word(p, "null");
}

int bench_json_check_file(const char *path)
{
	struct jp p = { 0 };
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	bool ok;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		char *nb = realloc(buf, cap + 65536);
		size_t got;

		if (!nb) {
			free(buf);
			fclose(f);
			fprintf(stderr, "%s: out of memory\n", path);
			return -1;
		}
		buf = nb;
		got = fread(buf + cap, 1, 65536, f);
		cap += got;
		if (got < 65536)
			break;
	}
	fclose(f);
	p.s = buf;
	p.n = cap;
	ok = value(&p, 0);
	if (ok) {
		ws(&p);
		if (p.i != p.n) {
			p.err = "trailing characters after the value";
			ok = false;
		}
	}
	if (!ok)
		fprintf(stderr, "%s: byte %zu: not well-formed JSON: %s\n",
			path, p.i, p.err ? p.err : "syntax error");
	free(buf);
	return ok ? 0 : -1;
}
