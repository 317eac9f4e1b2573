/*
 * json.c - a recursive-descent JSON reader (see json.h).  Nesting is
 * bounded so that hostile input cannot exhaust the stack.
 */
#include "levelkit/json.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256

struct reader {
	const char *s;
	size_t len, pos;
	struct lk_strbuf *err;
	int depth;
};

static int fail(struct reader *r, const char *msg)
{
	if (r->err && !r->err->len)
		lk_strbuf_addstr(r->err, msg);
	return -1;
}

static void skip_ws(struct reader *r)
{
	while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' ||
				   r->s[r->pos] == '\n' || r->s[r->pos] == '\r'))
		r->pos++;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if (r->pos + n > r->len || memcmp(r->s + r->pos, word, n))
		return false;
	r->pos += n;
	return true;
}

static int hex4(struct reader *r, unsigned *out)
{
	if (r->pos + 4 > r->len)
		return fail(r, "truncated \\u escape");
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = r->s[r->pos++];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail(r, "bad \\u escape");
	}
	*out = v;
	return 0;
}

static void put_utf8(struct lk_strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		lk_strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		lk_strbuf_addch(sb, (char)(0xc0 | (cp >> 6)));
		lk_strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		lk_strbuf_addch(sb, (char)(0xe0 | (cp >> 12)));
		lk_strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		lk_strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		lk_strbuf_addch(sb, (char)(0xf0 | (cp >> 18)));
		lk_strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		lk_strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		lk_strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int read_string(struct reader *r, struct lk_strbuf *sb)
{
	r->pos++; /* the opening quote */
	for (;;) {
		if (r->pos >= r->len)
			return fail(r, "unterminated string");
		char c = r->s[r->pos++];
		if (c == '"')
			return 0;
		if ((unsigned char)c < 0x20)
			return fail(r, "control character in string");
		if (c != '\\') {
			lk_strbuf_addch(sb, c);
			continue;
		}
		if (r->pos >= r->len)
			return fail(r, "unterminated string");
		c = r->s[r->pos++];
		switch (c) {
		case '"': lk_strbuf_addch(sb, '"'); break;
		case '\\': lk_strbuf_addch(sb, '\\'); break;
		case '/': lk_strbuf_addch(sb, '/'); break;
		case 'b': lk_strbuf_addch(sb, '\b'); break;
		case 'f': lk_strbuf_addch(sb, '\f'); break;
		case 'n': lk_strbuf_addch(sb, '\n'); break;
		case 'r': lk_strbuf_addch(sb, '\r'); break;
		case 't': lk_strbuf_addch(sb, '\t'); break;
		case 'u': {
			unsigned cp, lo;
			if (hex4(r, &cp))
				return -1;
			if (cp >= 0xd800 && cp < 0xdc00 && r->pos + 1 < r->len && r->s[r->pos] == '\\' &&
			    r->s[r->pos + 1] == 'u') {
				size_t save = r->pos;
				r->pos += 2;
				if (hex4(r, &lo))
					return -1;
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					r->pos = save;
			}
			put_utf8(sb, cp);
			break;
		}
		default:
			return fail(r, "bad escape in string");
		}
	}
}

static int read_value(struct reader *r, struct lk_json *v);

static int read_array(struct reader *r, struct lk_json *v)
{
	size_t alloc = 0;
	v->type = LK_JSON_ARRAY;
	r->pos++;
	skip_ws(r);
	if (r->pos < r->len && r->s[r->pos] == ']') {
		r->pos++;
		return 0;
	}
	for (;;) {
		LK_ALLOC_GROW(v->items, v->n + 1, alloc);
		memset(&v->items[v->n], 0, sizeof v->items[0]);
		if (read_value(r, &v->items[v->n++]))
			return -1;
		skip_ws(r);
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->len && r->s[r->pos] == ']') {
			r->pos++;
			return 0;
		}
		return fail(r, "expected ',' or ']' in array");
	}
}

static int read_object(struct reader *r, struct lk_json *v)
{
	size_t alloc = 0, kalloc = 0;
	v->type = LK_JSON_OBJECT;
	r->pos++;
	skip_ws(r);
	if (r->pos < r->len && r->s[r->pos] == '}') {
		r->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(r);
		if (r->pos >= r->len || r->s[r->pos] != '"')
			return fail(r, "expected a string key in object");
		struct lk_strbuf key = LK_STRBUF_INIT;
		if (read_string(r, &key)) {
			lk_strbuf_release(&key);
			return -1;
		}
		LK_ALLOC_GROW(v->keys, v->n + 1, kalloc);
		LK_ALLOC_GROW(v->items, v->n + 1, alloc);
		v->keys[v->n] = lk_strbuf_detach(&key, NULL);
		memset(&v->items[v->n], 0, sizeof v->items[0]);
		v->n++;
		skip_ws(r);
		if (r->pos >= r->len || r->s[r->pos] != ':')
			return fail(r, "expected ':' in object");
		r->pos++;
		if (read_value(r, &v->items[v->n - 1]))
			return -1;
		skip_ws(r);
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->len && r->s[r->pos] == '}') {
			r->pos++;
			return 0;
		}
		return fail(r, "expected ',' or '}' in object");
	}
}

static int read_number(struct reader *r, struct lk_json *v)
{
	size_t start = r->pos;
	if (r->pos < r->len && r->s[r->pos] == '-')
		r->pos++;
	size_t digits = r->pos;
	while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9')
		r->pos++;
	if (r->pos == digits)
		return fail(r, "unexpected character");
	if (r->pos < r->len && r->s[r->pos] == '.') {
		r->pos++;
		while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9')
			r->pos++;
	}
	if (r->pos < r->len && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->len && (r->s[r->pos] == '+' || r->s[r->pos] == '-'))
			r->pos++;
		while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9')
			r->pos++;
	}
	v->type = LK_JSON_NUMBER;
	v->len = r->pos - start;
	v->str = lk_xstrndup(r->s + start, v->len);
	v->number = strtod(v->str, NULL);
	return 0;
}

static int read_value(struct reader *r, struct lk_json *v)
{
	skip_ws(r);
	if (r->pos >= r->len)
		return fail(r, "unexpected end of input");
	if (++r->depth > MAX_DEPTH)
		return fail(r, "nesting too deep");
	int rc;
	char c = r->s[r->pos];
	if (c == '{') {
		rc = read_object(r, v);
	} else if (c == '[') {
		rc = read_array(r, v);
	} else if (c == '"') {
		struct lk_strbuf sb = LK_STRBUF_INIT;
		rc = read_string(r, &sb);
		v->type = LK_JSON_STRING;
		v->len = sb.len;
		v->str = lk_strbuf_detach(&sb, NULL);
	} else if (literal(r, "null")) {
		v->type = LK_JSON_NULL;
		rc = 0;
	} else if (literal(r, "true")) {
		v->type = LK_JSON_BOOL;
		v->boolean = true;
		rc = 0;
	} else if (literal(r, "false")) {
		v->type = LK_JSON_BOOL;
		rc = 0;
	} else {
		rc = read_number(r, v);
	}
	r->depth--;
	return rc;
}

int lk_json_parse(const char *text, size_t len, struct lk_json *out, struct lk_strbuf *err,
		  size_t *offset)
{
	struct reader r = {text, len, 0, err, 0};
	memset(out, 0, sizeof *out);
	if (err)
		lk_strbuf_reset(err);
	int rc = read_value(&r, out);
	if (!rc) {
		skip_ws(&r);
		if (r.pos != len)
			rc = fail(&r, "trailing characters after the value");
	}
	if (rc) {
		lk_json_release(out);
		if (offset)
			*offset = r.pos;
	}
	return rc;
}

void lk_json_release(struct lk_json *v)
{
	for (size_t i = 0; i < v->n; i++) {
		lk_json_release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

const struct lk_json *lk_json_get(const struct lk_json *obj, const char *key)
{
	if (!obj || obj->type != LK_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}
