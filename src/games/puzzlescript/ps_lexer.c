/*
 * ps_lexer.c - the PuzzleScript tokenizer's driver: lines, comments,
 * section headers and the token function that hands each token to the
 * reader of its section (ps_lexer_lines.c: prelude, OBJECTS, RULES,
 * WINCONDITIONS, LEVELS; ps_lexer_legend.c: LEGEND, SOUNDS,
 * COLLISIONLAYERS).
 *
 * This follows the reference's editor tokenizer (parser.js) one token at
 * a time, because games rely on its behaviour at the edges: a '(' opens a
 * comment that may span lines, a rule or a level row is cut at its first
 * '(', a line holding nothing but a comment does not end a level, and the
 * first token after a comment is read as if it started the line.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_parse.h"
#include "ps_unicode.h"

static const char *const section_names[PS_NSECTIONS] = {
	"objects", "legend", "sounds", "collisionlayers", "rules", "winconditions", "levels",
};


bool ps_st_eol(const struct ps_stream *st)
{
	return st->pos >= st->len;
}

void ps_st_eat_space(struct ps_stream *st)
{
	while (st->pos < st->len && ps_is_space(st->s[st->pos]))
		st->pos++;
}

void ps_st_text(const struct ps_stream *st, size_t from, size_t to, bool orig,
		struct lk_strbuf *out)
{
	const uint32_t *s = orig ? st->orig : st->s;
	lk_strbuf_reset(out);
	for (size_t i = from; i < to && i < st->len; i++)
		ps_utf8_put(out, s[i]);
}

/* The text between from and to with JavaScript's trim() applied. */
void ps_st_text_trim(const struct ps_stream *st, size_t from, size_t to, bool orig,
		      struct lk_strbuf *out)
{
	const uint32_t *s = orig ? st->orig : st->s;
	if (to > st->len)
		to = st->len;
	while (from < to && ps_is_space(s[from]))
		from++;
	while (to > from && ps_is_space(s[to - 1]))
		to--;
	ps_st_text(st, from, to, orig, out);
}

bool ps_st_match_name(struct ps_stream *st, struct lk_strbuf *out)
{
	size_t p = st->pos;
	while (p < st->len && ps_is_word(st->s[p]))
		p++;
	if (p == st->pos)
		return false;
	ps_st_text(st, st->pos, p, false, out);
	while (p < st->len && ps_is_space(st->s[p]))
		p++;
	st->pos = p;
	return true;
}

bool ps_st_match_until_space(struct ps_stream *st, struct lk_strbuf *out)
{
	size_t p = st->pos;
	while (p < st->len && !ps_is_space(st->s[p]) && st->s[p] != '(' && st->s[p] != ')')
		p++;
	if (p == st->pos)
		return false;
	ps_st_text(st, st->pos, p, false, out);
	while (p < st->len && ps_is_space(st->s[p]))
		p++;
	st->pos = p;
	return true;
}

bool ps_st_match_word(struct ps_stream *st, const char *word, bool consume)
{
	size_t n = strlen(word);
	if (st->pos + n > st->len)
		return false;
	for (size_t i = 0; i < n; i++)
		if (st->s[st->pos + i] != (unsigned char)word[i])
			return false;
	if (st->pos + n < st->len && ps_is_word(st->s[st->pos + n]))
		return false;
	if (consume)
		st->pos += n;
	return true;
}

/* [^(]+ : the rest of the line up to a comment; false at a '(' */
bool ps_st_match_not_comment(struct ps_stream *st, bool consume, size_t *end)
{
	size_t p = st->pos;
	while (p < st->len && st->s[p] != '(')
		p++;
	if (p == st->pos)
		return false;
	if (end)
		*end = p;
	if (consume)
		st->pos = p;
	return true;
}

void ps_st_eat_spaces_only(struct ps_stream *st)
{
	while (st->pos < st->len && ps_is_space(st->s[st->pos]))
		st->pos++;
}

/* ---- parse-state helpers ---- */

void ps_parse_init(struct ps_parse *p, struct ps_arena *a, struct ps_symtab *syms,
		   struct ps_diags *diags)
{
	memset(p, 0, sizeof *p);
	p->arena = a;
	p->syms = syms;
	p->diags = diags;
	p->section = PS_SEC_NONE;
	p->objects_candidate = -1;
	/* the reference starts LEVELS with one empty level */
	PS_GROW(a, p->levels, 1, p->levels_alloc);
	p->nlevels = 1;
}

void ps_parse_name_flags(struct ps_parse *p, int sym, bool name, bool abbrev)
{
	size_t n = p->name_flags_alloc;
	if ((size_t)sym >= n) {
		size_t m = n ? n : 64;
		while (m <= (size_t)sym)
			m *= 2;
		bool *a = ps_alloc(p->arena, m), *b = ps_alloc(p->arena, m);
		if (n) {
			memcpy(a, p->is_name, n);
			memcpy(b, p->is_abbrev, n);
		}
		p->is_name = a;
		p->is_abbrev = b;
		p->name_flags_alloc = m;
	}
	if (name)
		p->is_name[sym] = true;
	if (abbrev)
		p->is_abbrev[sym] = true;
}

bool ps_parse_is_object(const struct ps_parse *p, int sym)
{
	return sym >= 0 && (size_t)sym < p->obj_of_sym_alloc && p->obj_of_sym[sym] >= 0 &&
	       p->objects[p->obj_of_sym[sym]].defined;
}

static const struct ps_plegend *find_entry(const struct ps_plegend *v, size_t n, int sym)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].sym == sym)
			return &v[i];
	return NULL;
}

bool ps_parse_declared(const struct ps_parse *p, int sym, int *line)
{
	const struct ps_plegend *e;
	if (ps_parse_is_object(p, sym)) {
		if (line)
			*line = p->objects[p->obj_of_sym[sym]].line;
		return true;
	}
	if ((e = find_entry(p->aggregates, p->naggregates, sym)) ||
	    (e = find_entry(p->properties, p->nproperties, sym)) ||
	    (e = find_entry(p->synonyms, p->nsynonyms, sym))) {
		if (line)
			*line = e->line;
		return true;
	}
	return false;
}

const char *ps_parse_display(const struct ps_parse *p, int sym)
{
	const struct ps_plegend *e;
	if (ps_parse_is_object(p, sym))
		return p->objects[p->obj_of_sym[sym]].display;
	if ((e = find_entry(p->aggregates, p->naggregates, sym)) ||
	    (e = find_entry(p->properties, p->nproperties, sym)) ||
	    (e = find_entry(p->synonyms, p->nsynonyms, sym)))
		return e->display;
	return NULL;
}

enum ps_kind ps_parse_lookup(const struct ps_parse *p, int sym, int *end_sym,
			     const struct ps_plegend **entry)
{
	const struct ps_plegend *e;
	for (int depth = 0; depth < 64; depth++) {
		*end_sym = sym;
		*entry = NULL;
		if (ps_parse_is_object(p, sym))
			return PS_K_OBJECT;
		if ((e = find_entry(p->synonyms, p->nsynonyms, sym))) {
			sym = e->items[0];
			continue;
		}
		if ((e = find_entry(p->aggregates, p->naggregates, sym))) {
			*entry = e;
			return PS_K_AGGREGATE;
		}
		if ((e = find_entry(p->properties, p->nproperties, sym))) {
			*entry = e;
			return PS_K_PROPERTY;
		}
		return PS_K_UNDECLARED;
	}
	return PS_K_UNDECLARED;
}

int ps_parse_object_index(struct ps_parse *p, int sym)
{
	if ((size_t)sym >= p->obj_of_sym_alloc) {
		size_t n = p->obj_of_sym_alloc, m = n ? n : 64;
		while (m <= (size_t)sym)
			m *= 2;
		int *a = ps_alloc(p->arena, m * sizeof *a);
		if (n)
			memcpy(a, p->obj_of_sym, n * sizeof *a);
		for (size_t i = n; i < m; i++)
			a[i] = -1;
		p->obj_of_sym = a;
		p->obj_of_sym_alloc = m;
	}
	return p->obj_of_sym[sym];
}

/* ---- sections ---- */

static bool match_section_name(struct ps_stream *st, int *which)
{
	for (int i = 0; i < PS_NSECTIONS; i++)
		if (ps_st_match_word(st, section_names[i], true)) {
			ps_st_eat_spaces_only(st);
			*which = i;
			return true;
		}
	return false;
}

static void enter_section(struct ps_parse *p, int sec)
{
	if (p->visited[sec])
		ps_diag_add(p->diags, true, p->line, "cannot duplicate sections (you tried to duplicate \"%s\")",
			    section_names[sec]);
	p->section = (enum ps_section)sec;
	p->line_should_end = true;
	p->line_should_end_because = "a section name";
	if (!p->visited[sec])
		p->nvisited++;
	p->visited[sec] = true;
	if (sec == PS_SEC_OBJECTS) {
		p->objects_section = 0;
		if (p->nvisited > 1)
			ps_diag_add(p->diags, true, p->line, "section \"objects\" must be the first section");
	} else if (!p->visited[sec - 1]) {
		ps_diag_add(p->diags, true, p->line,
			    "section \"%s\" is out of order, must follow \"%s\" (all section headings must be present, even for an empty section)",
			    section_names[sec], section_names[sec - 1]);
	}
	if (sec == PS_SEC_SOUNDS) {
		for (size_t i = 0; i < p->nobjects; i++)
			if (p->objects[i].defined)
				ps_parse_name_flags(p, p->objects[i].sym, true, false);
		for (size_t i = 0; i < p->nsynonyms; i++)
			ps_parse_name_flags(p, p->synonyms[i].sym, true, false);
		for (size_t i = 0; i < p->naggregates; i++)
			ps_parse_name_flags(p, p->aggregates[i].sym, true, false);
		for (size_t i = 0; i < p->nproperties; i++)
			ps_parse_name_flags(p, p->properties[i].sym, true, false);
	} else if (sec == PS_SEC_LEVELS) {
		/* one-character names usable in maps (properties are ambiguous) */
		size_t used;
		for (size_t i = 0; i < p->nobjects; i++) {
			const char *n = p->syms->names[p->objects[i].sym];
			size_t len = strlen(n);
			ps_utf8_decode((const unsigned char *)n, len, &used);
			if (p->objects[i].defined && used == len)
				ps_parse_name_flags(p, p->objects[i].sym, false, true);
		}
		for (int k = 0; k < 2; k++) {
			const struct ps_plegend *v = k ? p->aggregates : p->synonyms;
			size_t nv = k ? p->naggregates : p->nsynonyms;
			for (size_t i = 0; i < nv; i++) {
				const char *n = p->syms->names[v[i].sym];
				size_t len = strlen(n);
				if (!len)
					continue;
				ps_utf8_decode((const unsigned char *)n, len, &used);
				if (used == len)
					ps_parse_name_flags(p, v[i].sym, false, true);
			}
		}
	}
}

static void end_of_line(struct ps_parse *p)
{
	if (p->section == PS_SEC_LEGEND)
		ps_lex_legend_eol(p);
	else if (p->section == PS_SEC_SOUNDS)
		ps_lex_sounds_eol(p);
}

static void blank_line(struct ps_parse *p)
{
	if (p->section == PS_SEC_LEVELS) {
		struct ps_plevel *last = &p->levels[p->nlevels - 1];
		if (last->is_message || last->nrows > 0) {
			PS_GROW(p->arena, p->levels, p->nlevels + 1, p->levels_alloc);
			memset(&p->levels[p->nlevels++], 0, sizeof p->levels[0]);
		}
	} else if (p->section == PS_SEC_OBJECTS) {
		p->objects_section = 0;
	}
}

/* ---- prelude ---- */

static void token(struct ps_parse *p, struct ps_stream *st)
{
	bool sol = st->pos == 0;
	if (sol) {
		p->line++;
		p->nwip = 0;
		p->wip_error = false;
		p->token_index = 0;
		p->line_should_end = false;
	}
	if (p->sol_after_comment) {
		sol = true;
		p->sol_after_comment = false;
	}
	ps_st_eat_space(st);
	uint32_t ch = st->pos < st->len ? st->s[st->pos] : 0;
	if (ch == '(' && p->token_index != -4) {
		st->pos++;
		p->comment_level++;
	} else if (ch == ')') {
		st->pos++;
		if (p->comment_level > 0) {
			p->comment_level--;
			if (p->comment_level == 0) {
				p->sol_after_comment = true;
				return;
			}
		} else {
			ps_diag_add(p->diags, false, p->line,
				    "you're trying to close a comment here, but I can't find any opening bracket to match it");
			return;
		}
	}
	if (p->comment_level > 0) {
		if (sol)
			p->sol_after_comment = true;
		for (;;) {
			while (st->pos < st->len && st->s[st->pos] != '(' && st->s[st->pos] != ')')
				st->pos++;
			if (ps_st_eol(st))
				break;
			if (st->s[st->pos] == '(')
				p->comment_level++;
			else
				p->comment_level--;
			st->pos++;
			if (p->comment_level == 0)
				break;
		}
		if (ps_st_eol(st))
			end_of_line(p);
		return;
	}
	ps_st_eat_space(st);
	if (sol && ps_st_eol(st)) {
		end_of_line(p);
		blank_line(p);
		return;
	}
	if (p->line_should_end && !ps_st_eol(st)) {
		ps_diag_add(p->diags, true, p->line, "only comments should go after %s on a line",
			    p->line_should_end_because);
		st->pos = st->len;
		return;
	}
	bool match_equals = true;
	if (sol && p->section == PS_SEC_LEVELS) {
		for (size_t i = st->pos; i < st->len; i++)
			if (st->s[i] != '=' && !ps_is_space(st->s[i]))
				match_equals = false;
	}
	if (sol && match_equals && st->pos < st->len && st->s[st->pos] == '=') {
		while (st->pos < st->len && st->s[st->pos] == '=')
			st->pos++;
		p->line_should_end = true;
		p->line_should_end_because = "a bunch of equals signs ('===')";
		return;
	}
	if (p->section != PS_SEC_LEVELS) {
		int sec;
		if (match_section_name(st, &sec) && sol) {
			enter_section(p, sec);
			return;
		}
	}
	if (ps_st_eol(st)) {
		end_of_line(p);
		return;
	}
	switch (p->section) {
	case PS_SEC_OBJECTS:
		ps_lex_objects(p, st, sol);
		return;
	case PS_SEC_LEGEND:
		ps_lex_legend(p, st, sol);
		return;
	case PS_SEC_SOUNDS:
		ps_lex_sounds(p, st);
		return;
	case PS_SEC_COLLISIONLAYERS:
		ps_lex_layers(p, st, sol);
		return;
	case PS_SEC_RULES:
		ps_lex_rules(p, st, sol, ch);
		return;
	case PS_SEC_WINCONDITIONS:
		ps_lex_wins(p, st, sol);
		return;
	case PS_SEC_LEVELS:
		ps_lex_levels(p, st, sol);
		return;
	default:
		ps_lex_prelude(p, st, sol);
		return;
	}
}

void ps_parse_source(struct ps_parse *p, const char *src, size_t len)
{
	uint32_t *lo = NULL, *orig = NULL;
	size_t alloc = 0;
	size_t at = 0;
	while (at <= len) {
		size_t end = at;
		while (end < len && src[end] != '\n')
			end++;
		size_t n = 0;
		for (size_t i = at; i < end;) {
			size_t used;
			uint32_t cp = ps_utf8_decode((const unsigned char *)src + i, end - i, &used);
			LK_ALLOC_GROW(orig, n + 1, alloc);
			orig[n++] = cp;
			i += used;
		}
		lo = lk_xrealloc(lo, (alloc ? alloc : 1) * sizeof *lo);
		for (size_t i = 0; i < n; i++)
			lo[i] = ps_lower(orig[i]);
		struct ps_stream st = {lo, orig, n, 0};
		do {
			size_t before = st.pos;
			token(p, &st);
			/* a token that consumed nothing would loop forever */
			if (st.pos == before && !ps_st_eol(&st))
				st.pos++;
		} while (!ps_st_eol(&st));
		if (p->diags->nerrors > 100)
			break;
		at = end + 1;
	}
	free(lo);
	free(orig);
}
