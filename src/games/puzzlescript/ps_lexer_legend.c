/*
 * ps_lexer_legend.c - the tokenizer's readers for LEGEND, SOUNDS and
 * COLLISIONLAYERS, which gather a line's words and act on the whole line.
 *
 * A legend line becomes a synonym (a = b), an aggregate (a = b and c) or a
 * property (a = b or c); like the reference, names on the right are
 * resolved at once (synonyms followed to their object, properties
 * flattened), so a legend line can only use names defined above it.
 */
#include <string.h>

#include "ps_parse.h"
#include "ps_unicode.h"

static const char *const keywords[] = {
	"objects", "collisionlayers", "legend", "sounds", "rules", "...", "winconditions", "levels",
	"|", "[", "]", "up", "down", "left", "right", "late", "rigid", "^", "v", ">", "<", "no",
	"randomdir", "random", "horizontal", "vertical", "any", "all", "some", "moving",
	"stationary", "parallel", "perpendicular", "action", "message", "move", "create", "destroy",
	"cantmove", "sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8", "sfx9",
	"sfx10", "cancel", "restart", "win", "again", "undo", "titlescreen", "startgame", "endgame",
	"startlevel", "endlevel", "showmessage", "closemessage", NULL,
};

static bool is_keyword(const char *s)
{
	for (size_t i = 0; keywords[i]; i++)
		if (!strcmp(keywords[i], s))
			return true;
	return false;
}

static void wip_push(struct ps_parse *p, const char *s, enum ps_sound_tok kind)
{
	PS_GROW(p->arena, p->wip, p->nwip + 1, p->wip_alloc);
	PS_GROW(p->arena, p->wip_kind, p->nwip + 1, p->wip_kind_alloc);
	p->wip[p->nwip] = ps_strdup(p->arena, s);
	p->wip_kind[p->nwip] = kind;
	p->nwip++;
}

/* ---- legend ---- */

void ps_lex_legend(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	(void)sol;
	struct lk_strbuf w = LK_STRBUF_INIT;
	if (p->token_index == 0) {
		size_t start = st->pos;
		while (st->pos < st->len && st->s[st->pos] != '=' && !ps_is_space(st->s[st->pos]) &&
		       st->s[st->pos] != '(')
			st->pos++;
		ps_st_text_trim(st, start, st->pos, true, &w);
		p->legend_display = ps_strdup(p->arena, w.buf);
		ps_st_text_trim(st, start, st->pos, false, &w);
		p->token_index++;
		wip_push(p, w.buf, PS_ST_NAME);
	} else if (p->token_index == 1) {
		if (st->pos < st->len && st->s[st->pos] == '=') {
			st->pos++;
			wip_push(p, "=", PS_ST_NAME);
		} else {
			ps_diag_add(p->diags, true, p->line,
				    "in the legend, define new items using the equals symbol - declarations must look like \"a = b\", \"a = b or c [ or d ...]\", \"a = b and c [ and d ...]\"");
			ps_st_match_not_comment(st, true, NULL);
			wip_push(p, "ERROR", PS_ST_ERROR);
		}
		ps_st_eat_spaces_only(st);
		p->token_index++;
	} else if (p->token_index >= 3 && p->token_index % 2 == 1) {
		if (!ps_st_match_name(st, &w)) {
			ps_diag_add(p->diags, true, p->line, "something bad's happening in the legend");
			if (!ps_st_match_not_comment(st, true, NULL))
				st->pos++;
		} else {
			if (!strcmp(w.buf, "and") || !strcmp(w.buf, "or")) {
				if (p->token_index >= 5 && p->nwip > 3 && strcmp(w.buf, p->wip[3]))
					ps_diag_add(p->diags, true, p->line,
						    "hey! you can't go mixing ands and ors in a single legend entry");
			} else {
				ps_diag_add(p->diags, true, p->line,
					    "expected an 'and' or an 'or' here, but got \"%s\" instead; declarations must look like 'a = b' or 'a = b and c' or 'a = b or c'",
					    w.buf);
			}
			wip_push(p, w.buf, PS_ST_NAME);
		}
		p->token_index++;
	} else {
		if (!ps_st_match_name(st, &w)) {
			ps_diag_add(p->diags, true, p->line, "something bad's happening in the legend");
			if (!ps_st_match_not_comment(st, true, NULL))
				st->pos++;
		} else {
			wip_push(p, w.buf, PS_ST_NAME);
			p->token_index++;
		}
	}
	lk_strbuf_release(&w);
	if (ps_st_eol(st))
		ps_lex_legend_eol(p);
}

struct symlist {
	int *v;
	size_t n, alloc;
};

static void symlist_push(struct ps_parse *p, struct symlist *l, int sym)
{
	PS_GROW(p->arena, l->v, l->n + 1, l->alloc);
	l->v[l->n++] = sym;
}

/* An aggregate's parts: objects, aggregates spliced in. */
static void aggregate_parts(struct ps_parse *p, int sym, struct symlist *out, bool *ok, int depth)
{
	int end;
	const struct ps_plegend *e;
	switch (ps_parse_lookup(p, sym, &end, &e)) {
	case PS_K_AGGREGATE:
		if (depth < 32)
			for (size_t i = 0; i < e->nitems; i++)
				aggregate_parts(p, e->items[i], out, ok, depth + 1);
		return;
	case PS_K_PROPERTY:
		ps_diag_add(p->diags, true, p->line,
			    "cannot define an aggregate (using 'and') in terms of properties (something that uses 'or')");
		*ok = false;
		symlist_push(p, out, end);
		return;
	default:
		symlist_push(p, out, end);
		return;
	}
}

/* A property's members: objects, properties flattened (without themselves). */
static void property_members(struct ps_parse *p, int owner, int sym, struct symlist *out, int depth)
{
	int end;
	const struct ps_plegend *e;
	switch (ps_parse_lookup(p, sym, &end, &e)) {
	case PS_K_AGGREGATE:
		ps_diag_add(p->diags, true, p->line,
			    "cannot define a property (something defined in terms of 'or') in terms of an aggregate (something that uses 'and'); you can't define \"%s\" in terms of \"%s\"",
			    p->syms->names[owner], p->syms->names[end]);
		return;
	case PS_K_PROPERTY:
		if (depth < 32)
			for (size_t i = 0; i < e->nitems; i++)
				if (e->items[i] != end)
					property_members(p, owner, e->items[i], out, depth + 1);
		return;
	default:
		symlist_push(p, out, end);
		return;
	}
}

static void add_entry(struct ps_parse *p, struct ps_plegend **v, size_t *n, size_t *alloc, int sym,
		      const int *items, size_t nitems)
{
	PS_GROW(p->arena, *v, *n + 1, *alloc);
	struct ps_plegend *e = &(*v)[(*n)++];
	memset(e, 0, sizeof *e);
	e->sym = sym;
	e->line = p->line;
	e->display = p->legend_display;
	e->items = ps_memdup(p->arena, items, nitems * sizeof *items);
	e->nitems = e->items_alloc = nitems;
}

void ps_lex_legend_eol(struct ps_parse *p)
{
	size_t n = p->nwip;
	char **s = p->wip;
	if (n == 0)
		return;
	if (n == 1) {
		ps_diag_add(p->diags, true, p->line,
			    "incorrect format of legend - should be one of \"a = b\", \"a = b or c [ or d ...]\", \"a = b and c [ and d ...]\"");
		return;
	}
	if (n % 2 == 0) {
		ps_diag_add(p->diags, true, p->line,
			    "incorrect format of legend - should be one of \"a = b\", \"a = b or c [ or d ...]\", \"a = b and c [ and d ...]\", but it looks like you have a dangling \"%s\"",
			    s[n - 1]);
		return;
	}
	bool ok = true;
	const char *cand = s[0];
	int cand_sym = ps_sym(p->syms, cand);
	int line;
	if (ps_parse_declared(p, cand_sym, &line)) {
		ps_diag_add(p->diags, true, p->line, "name \"%s\" already in use (on line %d)", cand, line);
		ok = false;
	}
	if (is_keyword(cand))
		ps_diag_add(p->diags, false, p->line, "you named an object \"%s\", but this is a keyword; don't do that",
			    cand);
	for (size_t i = 2; i < n; i += 2) {
		if (!strcmp(s[i], cand)) {
			ps_diag_add(p->diags, true, p->line, "you can't define object \"%s\" in terms of itself", cand);
			ok = false;
			/* drop every self-reference with its joining word */
			for (;;) {
				size_t at = 0;
				for (size_t k = 2; k < n; k++)
					if (!strcmp(s[k], cand)) {
						at = k;
						break;
					}
				if (!at)
					break;
				size_t from = at >= 4 ? at - 1 : at;
				size_t cut = from + 2 <= n ? 2 : n - from;
				memmove(s + from, s + from + cut, (n - from - cut) * sizeof *s);
				n -= cut;
			}
			if (i >= n)
				break;
		}
		for (size_t j = 2; j < i; j += 2)
			if (!strcmp(s[j], s[i]))
				ps_diag_add(p->diags, false, p->line,
					    "you're repeating the object \"%s\" here multiple times on the right-hand side",
					    s[j]);
	}
	for (size_t i = 2; i < n; i += 2) {
		if (strcmp(s[i], cand) && !ps_parse_declared(p, ps_sym(p->syms, s[i]), NULL))
			ps_diag_add(p->diags, true, p->line, "you're talking about \"%s\" but it's not defined anywhere",
				    s[i]);
	}
	struct symlist items = {NULL, 0, 0};
	if (n == 3) {
		int t = ps_sym(p->syms, s[2]);
		add_entry(p, &p->synonyms, &p->nsynonyms, &p->synonyms_alloc, cand_sym, &t, 1);
	} else if (n > 3 && !strcmp(s[3], "and")) {
		for (size_t i = 2; i < n; i += 2)
			aggregate_parts(p, ps_sym(p->syms, s[i]), &items, &ok, 0);
		add_entry(p, &p->aggregates, &p->naggregates, &p->aggregates_alloc, cand_sym, items.v,
			  items.n);
	} else if (n > 3 && !strcmp(s[3], "or")) {
		bool malformed = false;
		for (size_t i = 5; i < n; i += 2)
			if (strcmp(s[i], "or"))
				malformed = true;
		if (!malformed) {
			for (size_t i = 2; i < n; i += 2)
				property_members(p, cand_sym, ps_sym(p->syms, s[i]), &items, 0);
			if (items.n > 0)
				add_entry(p, &p->properties, &p->nproperties, &p->properties_alloc, cand_sym,
					  items.v, items.n);
		}
	} else if (ok) {
		ps_diag_add(p->diags, true, p->line,
			    "this legend-entry is incorrectly-formatted - it should be one of a = b, a = b or c ( or d ...), a = b and c (and d ...)");
	}
}

/* ---- sounds ---- */

static const char *const sound_events[] = {
	"undo", "restart", "titlescreen", "startgame", "cancel", "endgame", "startlevel", "endlevel",
	"showmessage", "closemessage", "sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6",
	"sfx7", "sfx8", "sfx9", "sfx10", NULL,
};
static const char *const sound_verbs[] = {"move", "action", "create", "destroy", "cantmove", NULL};
static const char *const sound_dirs[] = {
	"up", "down", "left", "right", "horizontal", "vertical", "orthogonal", NULL,
};

static bool match_one_of(struct ps_stream *st, const char *const *words, struct lk_strbuf *out)
{
	for (size_t i = 0; words[i]; i++)
		if (ps_st_match_word(st, words[i], true)) {
			lk_strbuf_reset(out);
			lk_strbuf_addstr(out, words[i]);
			ps_st_eat_spaces_only(st);
			return true;
		}
	return false;
}

static bool match_direction(struct ps_stream *st, struct lk_strbuf *out)
{
	size_t save = st->pos;
	ps_st_eat_spaces_only(st);
	if (match_one_of(st, sound_dirs, out))
		return true;
	st->pos = save;
	return false;
}

/* \d+\b */
static bool match_seed(struct ps_stream *st, struct lk_strbuf *out)
{
	size_t q = st->pos;
	while (q < st->len && st->s[q] >= '0' && st->s[q] <= '9')
		q++;
	if (q == st->pos || (q < st->len && ps_is_word(st->s[q])))
		return false;
	ps_st_text(st, st->pos, q, false, out);
	st->pos = q;
	return true;
}

static void fallback(struct ps_stream *st, struct lk_strbuf *out)
{
	if (!ps_st_match_until_space(st, out)) {
		size_t start = st->pos;
		if (!ps_st_match_not_comment(st, true, NULL))
			st->pos++;
		ps_st_text(st, start, st->pos, false, out);
	}
}

void ps_lex_sounds(struct ps_parse *p, struct ps_stream *st)
{
	struct lk_strbuf w = LK_STRBUF_INIT;
	if (p->nwip > 0 && p->wip_kind[p->nwip - 1] == PS_ST_ERROR) {
		/* the line already went wrong: just get past each token */
		if (!match_one_of(st, sound_events, &w) && !match_one_of(st, sound_verbs, &w) &&
		    !match_direction(st, &w) && !match_seed(st, &w) && !ps_st_match_name(st, &w))
			fallback(st, &w);
	} else if (p->nwip == 0) {
		if (match_one_of(st, sound_events, &w)) {
			wip_push(p, w.buf, PS_ST_EVENT);
		} else if (ps_st_match_name(st, &w)) {
			if (!ps_parse_declared(p, ps_sym(p->syms, w.buf), NULL)) {
				ps_diag_add(p->diags, true, p->line, "unexpected sound token \"%s\"", w.buf);
				wip_push(p, "ERROR", PS_ST_ERROR);
			} else {
				wip_push(p, w.buf, PS_ST_NAME);
			}
		} else {
			fallback(st, &w);
			wip_push(p, "ERROR", PS_ST_ERROR);
			ps_diag_add(p->diags, false, p->line,
				    "was expecting a sound event (like sfx3, or endlevel) or an object name, but didn't find either");
		}
	} else if (p->nwip == 1) {
		if (p->wip_kind[0] == PS_ST_EVENT) {
			if (match_seed(st, &w)) {
				wip_push(p, w.buf, PS_ST_SEED);
			} else {
				fallback(st, &w);
				ps_diag_add(p->diags, true, p->line,
					    "was expecting a sound seed here (a number like 123123), but found something else");
				wip_push(p, "ERROR", PS_ST_ERROR);
			}
		} else if (match_one_of(st, sound_verbs, &w)) {
			wip_push(p, w.buf, PS_ST_VERB);
		} else {
			fallback(st, &w);
			ps_diag_add(p->diags, true, p->line,
				    "was expecting a sound verb here (move, destroy, cantmove, or the like), but found something else");
			wip_push(p, "ERROR", PS_ST_ERROR);
		}
	} else if (p->wip_kind[0] == PS_ST_EVENT || p->wip_kind[p->nwip - 1] == PS_ST_SEED) {
		fallback(st, &w);
		ps_diag_add(p->diags, true, p->line,
			    "I wasn't expecting anything after the sound declaration %s on this line, so I don't know what to do with \"%s\" here",
			    p->wip[p->nwip - 1], w.buf);
		wip_push(p, "ERROR", PS_ST_ERROR);
	} else {
		bool directional = !strcmp(p->wip[1], "move") || !strcmp(p->wip[1], "cantmove");
		if (directional && match_direction(st, &w)) {
			wip_push(p, w.buf, PS_ST_DIRECTION);
		} else if (match_seed(st, &w)) {
			wip_push(p, w.buf, PS_ST_SEED);
		} else {
			fallback(st, &w);
			ps_diag_add(p->diags, true, p->line,
				    "ah I was expecting %sa sound seed here after %s, but I don't know what to make of \"%s\"",
				    directional ? "direction or " : "", p->wip[p->nwip - 1], w.buf);
			wip_push(p, "ERROR", PS_ST_ERROR);
		}
	}
	lk_strbuf_release(&w);
	if (ps_st_eol(st))
		ps_lex_sounds_eol(p);
}

void ps_lex_sounds_eol(struct ps_parse *p)
{
	if (p->nwip == 0 || p->wip_kind[p->nwip - 1] == PS_ST_ERROR)
		return;
	PS_GROW(p->arena, p->sounds, p->nsounds + 1, p->sounds_alloc);
	struct ps_psound *r = &p->sounds[p->nsounds++];
	memset(r, 0, sizeof *r);
	r->tok = ps_memdup(p->arena, p->wip, p->nwip * sizeof *p->wip);
	r->kind = ps_memdup(p->arena, p->wip_kind, p->nwip * sizeof *p->wip_kind);
	r->n = r->alloc = p->nwip;
	r->line = p->line;
}

/* ---- collision layers ---- */

static void layer_members(struct ps_parse *p, int sym, const char *written, struct symlist *out,
			  int depth)
{
	int end;
	const struct ps_plegend *e;
	switch (ps_parse_lookup(p, sym, &end, &e)) {
	case PS_K_OBJECT:
		symlist_push(p, out, end);
		return;
	case PS_K_AGGREGATE:
		ps_diag_add(p->diags, true, p->line,
			    "\"%s\" is an aggregate (defined using \"and\"), and cannot be added to a single layer because its constituent objects must be able to coexist",
			    p->syms->names[end]);
		return;
	case PS_K_PROPERTY:
		if (depth < 32)
			for (size_t i = 0; i < e->nitems; i++)
				if (e->items[i] != end)
					layer_members(p, e->items[i], written, out, depth + 1);
		return;
	default:
		ps_diag_add(p->diags, true, p->line,
			    "cannot add \"%s\" to a collision layer; it has not been declared", written);
		return;
	}
}

void ps_lex_layers(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	if (sol) {
		PS_GROW(p->arena, p->layers, p->nlayers + 1, p->layers_alloc);
		memset(&p->layers[p->nlayers++], 0, sizeof p->layers[0]);
		p->nwip = 0;
		p->token_index = 0;
	}
	struct lk_strbuf w = LK_STRBUF_INIT;
	if (!ps_st_match_name(st, &w)) {
		size_t before = st->pos;
		while (st->pos < st->len && (st->s[st->pos] == ' ' || st->s[st->pos] == ','))
			st->pos++;
		if (st->pos == before) {
			struct lk_strbuf c = LK_STRBUF_INIT;
			ps_utf8_put(&c, st->s[st->pos]);
			ps_diag_add(p->diags, true, p->line, "error detected - unexpected character %s", c.buf);
			lk_strbuf_release(&c);
			st->pos++;
		}
		lk_strbuf_release(&w);
		return;
	}
	if (!strcmp(w.buf, "background")) {
		if (p->nlayers > 0 && p->layers[p->nlayers - 1].n > 0)
			ps_diag_add(p->diags, true, p->line, "background must be in a layer by itself");
		p->token_index = 1;
	} else if (p->token_index != 0) {
		ps_diag_add(p->diags, true, p->line, "background must be in a layer by itself");
	}
	struct symlist ar = {NULL, 0, 0};
	layer_members(p, ps_sym(p->syms, w.buf), w.buf, &ar, 0);
	if (p->nlayers == 0) {
		ps_diag_add(p->diags, true, p->line, "no layers found");
		lk_strbuf_release(&w);
		return;
	}
	struct ps_player *cur = &p->layers[p->nlayers - 1];
	bool others = false;
	for (size_t i = 0; i < ar.n; i++)
		for (size_t j = 0; j + 1 < p->nlayers; j++)
			for (size_t k = 0; k < p->layers[j].n; k++)
				if (p->layers[j].syms[k] == ar.v[i])
					others = true;
	if (others)
		ps_diag_add(p->diags, false, p->line,
			    "object \"%s\" included in multiple collision layers; you should fix this", w.buf);
	for (size_t i = 0; i < p->nwip; i++)
		if (!strcmp(p->wip[i], w.buf))
			ps_diag_add(p->diags, false, p->line,
				    "object \"%s\" included explicitly multiple times in the same layer", w.buf);
	wip_push(p, w.buf, PS_ST_NAME);
	for (size_t i = 0; i < ar.n; i++) {
		PS_GROW(p->arena, cur->syms, cur->n + 1, cur->alloc);
		cur->syms[cur->n++] = ar.v[i];
	}
	lk_strbuf_release(&w);
}
