/*
 * strbuf.h - a growable, always NUL-terminated byte string.
 *
 * Used wherever levelkit builds text of unknown length: solutions, error
 * messages, output records.  Lifecycle follows git's strbuf: _init, use,
 * _release (frees and re-initialises, so the buffer can be reused).
 */
#ifndef LEVELKIT_STRBUF_H
#define LEVELKIT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct lk_strbuf {
	char *buf;     /* always a valid C string once initialised */
	size_t len;    /* bytes used, excluding the terminating NUL */
	size_t alloc;  /* bytes allocated; 0 means buf points at a static "" */
};

#define LK_STRBUF_INIT { (char *)lk_strbuf_empty, 0, 0 }
extern const char lk_strbuf_empty[1];

void lk_strbuf_init(struct lk_strbuf *sb);
void lk_strbuf_release(struct lk_strbuf *sb);
/* Ensure room for extra more bytes (plus the NUL). */
void lk_strbuf_grow(struct lk_strbuf *sb, size_t extra);
void lk_strbuf_reset(struct lk_strbuf *sb);
void lk_strbuf_add(struct lk_strbuf *sb, const void *data, size_t len);
void lk_strbuf_addstr(struct lk_strbuf *sb, const char *s);
void lk_strbuf_addch(struct lk_strbuf *sb, char c);
void lk_strbuf_addf(struct lk_strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void lk_strbuf_vaddf(struct lk_strbuf *sb, const char *fmt, va_list ap);
/* Detach the buffer: the caller owns (and frees) the returned string. */
/* Append data made safe to print on a terminal: control bytes become
 * \r, \t, \n or \xNN, bytes that are not valid UTF-8 (and a byte order
 * mark) \xNN; printable ASCII and valid UTF-8 are kept. */
void lk_strbuf_add_escaped(struct lk_strbuf *sb, const char *data, size_t len);
/* Append the whole file at path: 0, or -1 with errno set (nothing opened,
 * or a read error after part of it was appended).  What is not a regular
 * file (a pipe, a device) is read up to 64 MiB: beyond, -1 with EFBIG. */
int lk_strbuf_read_file(struct lk_strbuf *sb, const char *path);
char *lk_strbuf_detach(struct lk_strbuf *sb, size_t *len);

/* Allocation helpers that abort with a message when memory is exhausted.
 * Searches never use them for their state tables, which are budgeted. */
/* The name those messages start with ("levelkit" until set: the commands
 * set their own, so that solve's message says "solve: "). */
void lk_set_program_name(const char *name);
void *lk_xmalloc(size_t size);
void *lk_xcalloc(size_t n, size_t size);
void *lk_xrealloc(void *p, size_t size);
char *lk_xstrdup(const char *s);
char *lk_xstrndup(const char *s, size_t n);
/* Grow *array (of element size elem) so that it holds at least need
 * elements; *alloc is updated.  Doubling keeps appends amortised O(1). */
void lk_grow_array(void **array, size_t elem, size_t need, size_t *alloc);
#define LK_ALLOC_GROW(arr, need, alloc) \
	lk_grow_array((void **)&(arr), sizeof(*(arr)), (need), &(alloc))

#endif
