/*
 * ps_arena.c - the PuzzleScript compiler's arena and name table (see
 * ps_arena.h).
 */
#include "ps_arena.h"

#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"

/* ---- arena ---- */

struct ps_arena_block {
	struct ps_arena_block *next;
	size_t cap;
	max_align_t data[];
};

void ps_arena_init(struct ps_arena *a)
{
	a->head = NULL;
	a->used = a->cap = 0;
}

void ps_arena_release(struct ps_arena *a)
{
	struct ps_arena_block *b = a->head;
	while (b) {
		struct ps_arena_block *next = b->next;
		free(b);
		b = next;
	}
	ps_arena_init(a);
}

void *ps_alloc(struct ps_arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	size = (size + align - 1) / align * align;
	if (!size)
		size = align;
	if (!a->head || a->used + size > a->cap) {
		size_t cap = size > 65536 ? size : 65536;
		struct ps_arena_block *b = lk_xmalloc(sizeof *b + cap);
		b->next = a->head;
		b->cap = cap;
		a->head = b;
		a->used = 0;
		a->cap = cap;
	}
	void *p = (char *)a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

void *ps_memdup(struct ps_arena *a, const void *p, size_t size)
{
	void *q = ps_alloc(a, size);
	if (size && p)
		memcpy(q, p, size);
	return q;
}

void *ps_memdup_pad(struct ps_arena *a, const void *p, size_t size, size_t pad)
{
	void *q = ps_alloc(a, size + pad);
	if (size && p)
		memcpy(q, p, size);
	return q;
}

char *ps_strndup(struct ps_arena *a, const char *s, size_t n)
{
	char *d = ps_alloc(a, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *ps_strdup(struct ps_arena *a, const char *s)
{
	return ps_strndup(a, s, strlen(s));
}

void ps_grow(struct ps_arena *a, void **array, size_t elem, size_t need, size_t *alloc)
{
	if (need <= *alloc)
		return;
	size_t n = *alloc ? *alloc * 2 : 4;
	while (n < need)
		n *= 2;
	void *p = ps_alloc(a, n * elem);
	if (*alloc)
		memcpy(p, *array, *alloc * elem);
	*array = p;
	*alloc = n;
}

/* ---- name table ---- */

void ps_symtab_init(struct ps_symtab *t, struct ps_arena *a)
{
	memset(t, 0, sizeof *t);
	lk_keyed_init(&t->index);
	t->arena = a;
}

void ps_symtab_release(struct ps_symtab *t)
{
	free(t->names);
	lk_keyed_release(&t->index);
	memset(t, 0, sizeof *t);
}

int ps_sym_find(const struct ps_symtab *t, const char *name)
{
	uint32_t id = lk_keyed_find(&t->index, name, strlen(name));
	return id == UINT32_MAX ? -1 : (int)id;
}

int ps_sym(struct ps_symtab *t, const char *name)
{
	bool added;
	int id = (int)lk_keyed_add(&t->index, name, strlen(name), &added);
	if (added) {
		LK_ALLOC_GROW(t->names, (size_t)id + 1, t->names_alloc);
		t->names[id] = ps_strdup(t->arena, name);
		t->count = id + 1;
	}
	return id;
}
