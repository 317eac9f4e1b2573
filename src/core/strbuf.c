/*
 * strbuf.c - growable strings and the aborting allocation helpers.
 */
#include "levelkit/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char lk_strbuf_empty[1];

static void die_oom(size_t size)
{
	fprintf(stderr, "levelkit: out of memory allocating %zu bytes\n", size);
	abort();
}

void *lk_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_oom(size);
	return p;
}

void *lk_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom(n * size);
	return p;
}

void *lk_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		die_oom(size);
	return q;
}

char *lk_xstrndup(const char *s, size_t n)
{
	char *d = lk_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *lk_xstrdup(const char *s)
{
	return lk_xstrndup(s, strlen(s));
}

void lk_grow_array(void **array, size_t elem, size_t need, size_t *alloc)
{
	if (need <= *alloc)
		return;
	size_t n = *alloc ? *alloc : 8;
	while (n < need)
		n = n + n / 2 + 8;
	*array = lk_xrealloc(*array, n * elem);
	*alloc = n;
}

void lk_strbuf_init(struct lk_strbuf *sb)
{
	sb->buf = (char *)lk_strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void lk_strbuf_release(struct lk_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	lk_strbuf_init(sb);
}

void lk_strbuf_grow(struct lk_strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 32;
	while (n < need)
		n *= 2;
	if (sb->alloc) {
		sb->buf = lk_xrealloc(sb->buf, n);
	} else {
		sb->buf = lk_xmalloc(n);
		sb->buf[0] = '\0';
	}
	sb->alloc = n;
}

void lk_strbuf_reset(struct lk_strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void lk_strbuf_add(struct lk_strbuf *sb, const void *data, size_t len)
{
	lk_strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void lk_strbuf_addstr(struct lk_strbuf *sb, const char *s)
{
	lk_strbuf_add(sb, s, strlen(s));
}

void lk_strbuf_addch(struct lk_strbuf *sb, char c)
{
	lk_strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void lk_strbuf_vaddf(struct lk_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	lk_strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void lk_strbuf_addf(struct lk_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lk_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *lk_strbuf_detach(struct lk_strbuf *sb, size_t *len)
{
	char *s;
	if (len)
		*len = sb->len;
	if (sb->alloc)
		s = sb->buf;
	else
		s = lk_xstrdup("");
	lk_strbuf_init(sb);
	return s;
}
