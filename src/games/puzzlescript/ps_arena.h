/*
 * ps_util.h - helpers the PuzzleScript compiler shares: an arena for the
 * many small arrays of compilation, a table interning names, the list of
 * diagnostics, and the few Unicode facts the reference tokenizer relies on
 * (what is a letter, a space, and the lower case of a character).
 *
 * Compilation builds and rebuilds thousands of short-lived rule copies;
 * allocating them all from one arena freed at the end keeps that code free
 * of ownership bookkeeping.  Nothing here is used while a game runs.
 */
#ifndef LEVELKIT_PS_UTIL_H
#define LEVELKIT_PS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levelkit/hash.h"
#include "levelkit/strbuf.h"

/* ---- arena ---- */

struct ps_arena_block;
struct ps_arena {
	struct ps_arena_block *head;
	size_t used, cap;   /* of the head block */
};

void ps_arena_init(struct ps_arena *a);
void ps_arena_release(struct ps_arena *a);
void *ps_alloc(struct ps_arena *a, size_t size);          /* zeroed */
void *ps_memdup(struct ps_arena *a, const void *p, size_t size);
/* A copy of size bytes with pad zeroed bytes after them. */
void *ps_memdup_pad(struct ps_arena *a, const void *p, size_t size, size_t pad);
char *ps_strdup(struct ps_arena *a, const char *s);
char *ps_strndup(struct ps_arena *a, const char *s, size_t n);
/* Grow an arena array to hold need elements (old storage is abandoned). */
void ps_grow(struct ps_arena *a, void **array, size_t elem, size_t need, size_t *alloc);
#define PS_GROW(a, arr, need, alloc) ps_grow((a), (void **)&(arr), sizeof(*(arr)), (need), &(alloc))

/* ---- interned names: lower-case UTF-8 string <-> small integer ---- */

struct ps_symtab {
	char **names;        /* by id (in the arena) */
	int count;
	size_t names_alloc;
	struct lk_keyed index;   /* name -> id */
	struct ps_arena *arena;
};

void ps_symtab_init(struct ps_symtab *t, struct ps_arena *a);
void ps_symtab_release(struct ps_symtab *t);
int ps_sym(struct ps_symtab *t, const char *name);         /* intern */
int ps_sym_find(const struct ps_symtab *t, const char *name); /* -1 if absent */

/* ---- diagnostics ---- */

struct ps_diag {
	int line;        /* 1-based source line, 0 when the fault has none */
	bool is_error;
	char *msg;       /* lower-case, no full stop */
};

struct ps_diags {
	struct ps_diag *v;
	size_t n, alloc;
	size_t nerrors;
};

void ps_diags_init(struct ps_diags *d);
void ps_diags_release(struct ps_diags *d);
/* Record a message unless the very same one is already recorded. */
void ps_diag_add(struct ps_diags *d, bool is_error, int line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* ---- Unicode ---- */

/* Decode one UTF-8 sequence at s (of at most n bytes); bad bytes decode as
 * themselves.  *used receives the bytes consumed (>= 1). */
uint32_t ps_utf8_decode(const unsigned char *s, size_t n, size_t *used);
void ps_utf8_put(struct lk_strbuf *sb, uint32_t cp);
/* JavaScript's \s together with \p{Z}. */
bool ps_is_space(uint32_t cp);
/* \p{L} or \p{N}, or '_': the characters of an object name. */
bool ps_is_word(uint32_t cp);
/* String.prototype.toLowerCase for one character (common scripts). */
uint32_t ps_lower(uint32_t cp);

#endif
