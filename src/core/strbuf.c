/*
 * strbuf.c - growable strings and the aborting allocation helpers.
 */
#define _POSIX_C_SOURCE 200809L
#include "levelkit/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What lk_strbuf_read_file reads of a file that is not a regular file (a
 * pipe, a device): its size is not known, and /dev/zero has no end. */
#define READ_STREAM_MAX ((size_t)1 << 26)

const char lk_strbuf_empty[1];

static const char *program_name = "levelkit";

void lk_set_program_name(const char *name)
{
	program_name = name;
}

static void die_oom(size_t size)
{
	fprintf(stderr, "%s: out of memory allocating %zu bytes\n", program_name, size);
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

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned min;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	if (s[0] < 0xe0)
		len = 2, min = 0x80;
	else if (s[0] < 0xf0)
		len = 3, min = 0x800;
	else
		len = 4, min = 0x10000;
	if (n < len)
		return 0;
	unsigned cp = s[0] & (0xffu >> (len + 1));
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfeff)
		return 0;
	return len;
}

void lk_strbuf_add_escaped(struct lk_strbuf *sb, const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t u;
		if (c >= 0x20 && c < 0x7f) {
			lk_strbuf_addch(sb, (char)c);
			i++;
		} else if (c >= 0x80 && (u = utf8_length(s + i, len - i)) > 0) {
			lk_strbuf_add(sb, s + i, u);
			i += u;
		} else {
			switch (c) {
			case '\n': lk_strbuf_addstr(sb, "\\n"); break;
			case '\r': lk_strbuf_addstr(sb, "\\r"); break;
			case '\t': lk_strbuf_addstr(sb, "\\t"); break;
			default: lk_strbuf_addf(sb, "\\x%02x", c); break;
			}
			i++;
		}
	}
}

int lk_strbuf_read_file(struct lk_strbuf *sb, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return -1;
	struct stat st;
	bool stream = fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode);
	char buf[65536];
	size_t n, total = 0;
	int rc = 0, saved;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
		total += n;
		if (stream && total > READ_STREAM_MAX) {
			rc = -1;
			break;
		}
		lk_strbuf_add(sb, buf, n);
	}
	if (rc < 0) {
		saved = EFBIG;
	} else {
		rc = ferror(fp) ? -1 : 0;
		saved = errno;
	}
	fclose(fp);
	errno = saved;
	return rc;
}
