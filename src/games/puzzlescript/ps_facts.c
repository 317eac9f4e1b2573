/*
 * ps_facts.c - the facts a PuzzleScript move carries, for concept queries
 * (docs/concepts.md): `rule L` when a rule written on line L of the script
 * fired during the turn (its again turns included), `move NAME` when an
 * object called NAME moved a cell.  Rules are named by their line because
 * one written rule becomes several compiled ones (one per direction), and
 * the line is what a designer sees in the editor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/strbuf.h"
#include "ps.h"
#include "ps_game.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static char *fact_name(const char *fmt, const char *s, int n)
{
	struct lk_strbuf b = LK_STRBUF_INIT;
	if (s)
		lk_strbuf_addf(&b, fmt, s);
	else
		lk_strbuf_addf(&b, fmt, n);
	return lk_strbuf_detach(&b, NULL);
}

void ps_facts_init(struct ps_facts *f, const struct ps_game *g)
{
	memset(f, 0, sizeof *f);
	int nrules = ps_game_rule_count(g), nobjects = ps_game_object_count(g);
	int *lines = lk_xcalloc((size_t)nrules + 1, sizeof *lines);
	for (int r = 0; r < nrules; r++)
		lines[r] = ps_game_rule_line(g, r);
	qsort(lines, (size_t)nrules, sizeof *lines, cmp_int);
	int nlines = 0;
	for (int r = 0; r < nrules; r++)
		if (nlines == 0 || lines[nlines - 1] != lines[r])
			lines[nlines++] = lines[r];
	f->names = lk_xcalloc((size_t)nlines + (size_t)nobjects + 1, sizeof *f->names);
	for (int i = 0; i < nlines; i++)
		f->names[f->n++] = fact_name("rule %d", NULL, lines[i]);
	f->rule_fact = lk_xcalloc((size_t)nrules + 1, sizeof *f->rule_fact);
	for (int r = 0; r < nrules; r++) {
		int line = ps_game_rule_line(g, r);
		int *at = bsearch(&line, lines, (size_t)nlines, sizeof *lines, cmp_int);
		f->rule_fact[r] = (uint16_t)(at - lines);
	}
	free(lines);
	f->object_fact = lk_xcalloc((size_t)nobjects + 1, sizeof *f->object_fact);
	for (int id = 0; id < nobjects; id++) {
		const char *name = ps_game_object_name(g, id);
		f->object_fact[id] = name ? (int)f->n : -1;
		if (name)
			f->names[f->n++] = fact_name("move %s", name, 0);
	}
	f->nrules = nrules;
	f->nobjects = nobjects;
}

void ps_facts_release(struct ps_facts *f)
{
	for (unsigned i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	free(f->rule_fact);
	free(f->object_fact);
	memset(f, 0, sizeof *f);
}

static unsigned add_once(uint16_t *out, unsigned n, unsigned max, uint16_t fact)
{
	for (unsigned i = 0; i < n; i++)
		if (out[i] == fact)
			return n;
	if (n < max)
		out[n++] = fact;
	return n;
}

unsigned ps_facts_of_turn(const struct ps_facts *f, const struct ps_runtime *rt, uint16_t *out,
			  unsigned max)
{
	unsigned n = 0;
	for (int r = 0; r < f->nrules; r++)
		if (ps_rule_fired(rt, r))
			n = add_once(out, n, max, f->rule_fact[r]);
	for (int id = 0; id < f->nobjects; id++)
		if (f->object_fact[id] >= 0 && ps_object_moved(rt, id))
			n = add_once(out, n, max, (uint16_t)f->object_fact[id]);
	return n;
}
