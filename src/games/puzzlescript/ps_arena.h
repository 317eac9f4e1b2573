/*
 * ps_arena.h - the PuzzleScript compiler's memory and names: an arena for
 * the many small arrays of compilation, and a table interning names.
 *
 * Compilation builds and rebuilds thousands of short-lived rule copies;
 * allocating them all from one arena freed at the end keeps that code free
 * of ownership bookkeeping.  Nothing here is used while a game runs.
 */
#ifndef LEVELKIT_PS_ARENA_H
#define LEVELKIT_PS_ARENA_H

#include <stddef.h>

#include "levelkit/hash.h"

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

#endif
