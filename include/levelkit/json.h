/*
 * json.h - a small JSON reader: text to a tree of values.
 *
 * For reading records other programs write (the PuzzleScript test data,
 * JSON lines).  Strings are decoded to UTF-8 (\u escapes, surrogate pairs
 * included) and keep their length, numbers keep their double value and
 * their text.  Lifecycle: lk_json_parse fills a value, lk_json_release
 * frees what it holds.
 */
#ifndef LEVELKIT_JSON_H
#define LEVELKIT_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "levelkit/strbuf.h"

enum lk_json_type {
	LK_JSON_NULL,
	LK_JSON_BOOL,
	LK_JSON_NUMBER,
	LK_JSON_STRING,
	LK_JSON_ARRAY,
	LK_JSON_OBJECT
};

struct lk_json {
	enum lk_json_type type;
	bool boolean;
	double number;
	char *str;             /* string (UTF-8, NUL-terminated) or a number's text */
	size_t len;            /* bytes of str */
	struct lk_json *items; /* array elements or object values */
	char **keys;           /* object keys, parallel to items */
	size_t n;
};

/* Parse one JSON value from text (surrounding white space allowed).
 * Returns 0, or -1 with a lower-case message and the byte offset. */
int lk_json_parse(const char *text, size_t len, struct lk_json *out, struct lk_strbuf *err,
		  size_t *offset);
void lk_json_release(struct lk_json *v);

/* The member called key of an object, or NULL. */
const struct lk_json *lk_json_get(const struct lk_json *obj, const char *key);

#endif
