/*
 * ps_lexer_lines.c - the tokenizer's readers for the prelude, OBJECTS,
 * RULES lines, WINCONDITIONS and LEVELS (see ps_lexer.c for the driver).
 */
#include <string.h>

#include "ps_parse.h"
#include "ps_unicode.h"

static const char *const meta_with_value[] = {
	"title", "author", "homepage", "background_color", "text_color", "key_repeat_interval",
	"realtime_interval", "again_interval", "flickscreen", "zoomscreen", "color_palette",
	"youtube", NULL,
};
static const char *const meta_no_value[] = {
	"run_rules_on_level_start", "norepeat_action", "require_player_movement", "debug",
	"verbose_logging", "throttle_movement", "noundo", "noaction", "norestart", "scanline",
	NULL,
};

static const char *const rule_commands[] = {
	"sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8", "sfx9", "sfx10",
	"cancel", "checkpoint", "restart", "win", "message", "again", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* ---- stream helpers ---- */
void ps_lex_prelude(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	struct lk_strbuf w = LK_STRBUF_INIT;
	if (sol)
		p->token_index = 0;
	if (p->token_index == 0) {
		size_t start = st->pos;
		ps_st_eat_spaces_only(st);
		if (!ps_st_match_name(st, &w)) {
			st->pos = start;
			struct lk_strbuf line = LK_STRBUF_INIT;
			ps_st_text(st, 0, st->len, false, &line);
			ps_diag_add(p->diags, true, p->line, "unrecognised stuff \"%s\" in the prelude", line.buf);
			lk_strbuf_release(&line);
			lk_strbuf_release(&w);
			st->pos++;
			return;
		}
		if (sol) {
			if (in_list(meta_with_value, w.buf)) {
				bool keep_case = !strcmp(w.buf, "author") || !strcmp(w.buf, "homepage") ||
						 !strcmp(w.buf, "title");
				if (!strcmp(w.buf, "youtube"))
					ps_diag_add(p->diags, false, p->line, "youtube is no longer supported");
				size_t end;
				if (ps_st_match_not_comment(st, false, &end)) {
					struct lk_strbuf v = LK_STRBUF_INIT;
					ps_st_text_trim(st, st->pos, end, keep_case, &v);
					for (size_t i = 0; i < p->nmeta; i++)
						if (!strcmp(p->meta[i].key, w.buf))
							ps_diag_add(p->diags, false, p->line,
								    "you've already defined a %s in the prelude on line %d",
								    w.buf, p->meta[i].line);
					PS_GROW(p->arena, p->meta, p->nmeta + 1, p->meta_alloc);
					p->meta[p->nmeta].key = ps_strdup(p->arena, w.buf);
					p->meta[p->nmeta].value = ps_strdup(p->arena, v.buf);
					p->meta[p->nmeta].line = p->line;
					p->nmeta++;
					lk_strbuf_release(&v);
				} else {
					ps_diag_add(p->diags, true, p->line, "metadata \"%s\" needs a value", w.buf);
				}
				p->token_index = 1;
			} else if (in_list(meta_no_value, w.buf)) {
				PS_GROW(p->arena, p->meta, p->nmeta + 1, p->meta_alloc);
				p->meta[p->nmeta].key = ps_strdup(p->arena, w.buf);
				p->meta[p->nmeta].value = ps_strdup(p->arena, "true");
				p->meta[p->nmeta].line = p->line;
				p->nmeta++;
				p->token_index = -1;
				if (ps_st_match_not_comment(st, false, NULL))
					ps_diag_add(p->diags, false, p->line, "metadata %s doesn't take any parameters",
						    w.buf);
			} else {
				ps_diag_add(p->diags, true, p->line, "unrecognised stuff in the prelude");
			}
		}
		lk_strbuf_release(&w);
		return;
	}
	ps_st_match_not_comment(st, true, NULL);
	p->token_index++;
	if (p->token_index > 2)
		ps_diag_add(p->diags, false, p->line,
			    "you can't embed comments in metadata values; anything after the comment is ignored");
	lk_strbuf_release(&w);
}

/* ---- objects ---- */

/* black|white|...|#rgb|#rrggbb then spaces, as the reference's colour
 * pattern (which has no word boundary: "reddish" reads as red). */
static const char *const color_names[] = {
	"black", "white", "gray", "darkgray", "lightgray", "grey", "darkgrey", "lightgrey", "red",
	"darkred", "lightred", "brown", "darkbrown", "lightbrown", "orange", "yellow", "green",
	"darkgreen", "lightgreen", "blue", "lightblue", "darkblue", "purple", "pink", "transparent",
	NULL,
};

static bool is_hex(uint32_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool match_color(struct ps_stream *st, struct lk_strbuf *out)
{
	size_t p = st->pos, end = 0;
	for (size_t i = 0; color_names[i]; i++) {
		size_t n = strlen(color_names[i]), j;
		for (j = 0; j < n && p + j < st->len && st->s[p + j] == (unsigned char)color_names[i][j]; j++)
			;
		if (j == n) {
			end = p + n;
			break;
		}
	}
	if (!end && p < st->len && st->s[p] == '#') {
		size_t h = 0;
		while (h < 6 && p + 1 + h < st->len && is_hex(st->s[p + 1 + h]))
			h++;
		if (h >= 3)
			end = p + 1 + (h == 6 ? 6 : 3);
	}
	if (!end)
		return false;
	ps_st_text(st, p, end, false, out);
	while (end < st->len && ps_is_space(st->s[end]))
		end++;
	st->pos = end;
	return true;
}

static void parse_object_name(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	struct lk_strbuf w = LK_STRBUF_INIT;
	bool ok = sol ? ps_st_match_name(st, &w) : ps_st_match_until_space(st, &w);
	if (!ok) {
		ps_st_match_not_comment(st, true, NULL);
		if (st->pos > 0)
			ps_diag_add(p->diags, false, p->line,
				    "unknown junk in object section (sprites have to be 5 pixels wide and 5 pixels high exactly; object names have to be words of letters and digits - name them something like \",\" in the legend section)");
		lk_strbuf_release(&w);
		return;
	}
	int sym = ps_sym(p->syms, w.buf);
	int idx = ps_parse_object_index(p, sym);
	if (idx >= 0 && p->objects[idx].defined) {
		ps_diag_add(p->diags, true, p->line, "object \"%s\" defined multiple times", w.buf);
		lk_strbuf_release(&w);
		return;
	}
	for (size_t i = 0; i < p->nsynonyms; i++)
		if (p->synonyms[i].sym == sym)
			ps_diag_add(p->diags, true, p->line, "name \"%s\" already in use", w.buf);
	if (sol) {
		PS_GROW(p->arena, p->objects, p->nobjects + 1, p->objects_alloc);
		struct ps_pobject *o = &p->objects[p->nobjects];
		memset(o, 0, sizeof *o);
		o->sym = sym;
		o->line = p->line;
		o->defined = true;
		/* the name as written, for display */
		size_t start = st->pos;
		while (start > 0 && ps_is_space(st->s[start - 1]))
			start--;
		struct lk_strbuf disp = LK_STRBUF_INIT;
		size_t from = start;
		while (from > 0 && ps_is_word(st->s[from - 1]))
			from--;
		ps_st_text(st, from, start, true, &disp);
		o->display = ps_strdup(p->arena, disp.buf);
		lk_strbuf_release(&disp);
		p->obj_of_sym[sym] = (int)p->nobjects;
		p->objects_candidate = (int)p->nobjects;
		p->nobjects++;
	} else if (p->objects_candidate >= 0) {
		/* further names on the line are synonyms of the object */
		PS_GROW(p->arena, p->synonyms, p->nsynonyms + 1, p->synonyms_alloc);
		struct ps_plegend *e = &p->synonyms[p->nsynonyms++];
		memset(e, 0, sizeof *e);
		e->sym = sym;
		e->line = p->line;
		PS_GROW(p->arena, e->items, 1, e->items_alloc);
		e->items[0] = p->objects[p->objects_candidate].sym;
		e->nitems = 1;
	}
	p->objects_section = 1;
	lk_strbuf_release(&w);
}

void ps_lex_objects(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	struct ps_pobject *o = p->objects_candidate >= 0 ? &p->objects[p->objects_candidate] : NULL;
	const char *cand = o ? p->syms->names[o->sym] : "";
	if (sol && p->objects_section == 2)
		p->objects_section = 3;
	if (sol && p->objects_section == 1)
		p->objects_section = 2;
	if (p->objects_section <= 1) {
		parse_object_name(p, st, sol);
		return;
	}
	if (p->objects_section == 2) {
		struct lk_strbuf c = LK_STRBUF_INIT;
		p->token_index = 0;
		if (!match_color(st, &c)) {
			size_t start = st->pos, end;
			if (!ps_st_match_name(st, &c)) {
				if (ps_st_match_not_comment(st, true, &end))
					ps_st_text(st, start, end, false, &c);
			}
			ps_diag_add(p->diags, true, p->line, "was looking for color for object %s, got \"%s\" instead",
				    cand, c.buf);
		} else if (o) {
			PS_GROW(p->arena, o->colors, o->ncolors + 1, o->colors_alloc);
			o->colors[o->ncolors++] = ps_strdup(p->arena, c.buf);
		}
		lk_strbuf_release(&c);
		return;
	}
	/* the sprite matrix, one character per token */
	uint32_t ch = st->pos < st->len ? st->s[st->pos] : 0;
	if (!(ch == '.' || (ch >= '0' && ch <= '9'))) {
		if (!o || o->nsprite == 0) {
			parse_object_name(p, st, sol);
			return;
		}
		ps_diag_add(p->diags, true, p->line, "unknown junk in spritematrix for object %s", cand);
		ps_st_match_not_comment(st, true, NULL);
		return;
	}
	st->pos++;
	if (!o)
		return;
	if (sol) {
		PS_GROW(p->arena, o->sprite, o->nsprite + 1, o->sprite_alloc);
		o->sprite[o->nsprite++] = ps_alloc(p->arena, 8);
	}
	if (!o->nsprite)
		return;
	char *row = o->sprite[o->nsprite - 1];
	size_t n = strlen(row);
	if (n >= 5) {
		ps_diag_add(p->diags, false, p->line, "sprites must be 5 wide and 5 high");
		ps_st_match_not_comment(st, true, NULL);
		return;
	}
	row[n] = (char)ch;
	if (o->nsprite == 5 && n + 1 == 5)
		p->objects_section = 0;
	if (ch != '.' && (size_t)(ch - '0') >= o->ncolors)
		ps_diag_add(p->diags, true, p->line,
			    "trying to access color number %u from the color palette of sprite %s, but there are only %zu defined in it",
			    (unsigned)(ch - '0'), cand, o->ncolors);
}

/* ---- rules and win conditions ---- */

static bool is_rule_part(uint32_t c)
{
	return c != '[' && c != '|' && c != ']' && !ps_is_space(c);
}

static const char *const rule_dir_words[] = {
	"up", "down", "left", "right", "horizontal", "vertical", "orthogonal", "late", "rigid", NULL,
};
static const char *const cell_dir_words[] = {
	"action", "up", "down", "left", "right", "^", "v", "<", ">", "moving", "stationary",
	"parallel", "perpendicular", "horizontal", "orthogonal", "vertical", "no", "randomdir",
	"random", NULL,
};

void ps_lex_rules(struct ps_parse *p, struct ps_stream *st, bool sol, uint32_t ch)
{
	if (sol) {
		/* the rule is the first run of the line without '(' */
		size_t from = 0;
		while (from < st->len && st->s[from] == '(')
			from++;
		size_t to = from;
		while (to < st->len && st->s[to] != '(')
			to++;
		struct lk_strbuf t = LK_STRBUF_INIT;
		PS_GROW(p->arena, p->rules, p->nrules + 1, p->rules_alloc);
		struct ps_prule *r = &p->rules[p->nrules++];
		ps_st_text(st, from, to, false, &t);
		r->text = ps_strdup(p->arena, t.buf);
		ps_st_text(st, 0, st->len, true, &t);
		r->mixed = ps_strdup(p->arena, t.buf);
		r->line = p->line;
		lk_strbuf_release(&t);
		p->token_index = 0;
	}
	if (p->token_index == -4) {
		st->pos = st->len;
		return;
	}
	/* [\p{Z}\s]*->[\p{Z}\s]* */
	size_t q = st->pos;
	while (q < st->len && ps_is_space(st->s[q]))
		q++;
	if (q + 1 < st->len && st->s[q] == '-' && st->s[q + 1] == '>') {
		st->pos = q + 2;
		ps_st_eat_spaces_only(st);
		return;
	}
	if (ch == '[' || ch == '|' || ch == ']' || ch == '+') {
		if (ch != '+')
			p->token_index = 1;
		st->pos++;
		ps_st_eat_spaces_only(st);
		return;
	}
	size_t start = st->pos;
	while (st->pos < st->len && is_rule_part(st->s[st->pos]))
		st->pos++;
	struct lk_strbuf m = LK_STRBUF_INIT;
	ps_st_text_trim(st, start, st->pos, false, &m);
	if (p->token_index == 0 && (!strcmp(m.buf, "startloop") || !strcmp(m.buf, "endloop"))) {
		/* a loop marker */
	} else if (p->token_index == -5) {
		/* after COST: its number, which the rule parser checks */
		p->token_index = 1;
	} else if (p->token_index == 0 && in_list(rule_dir_words, m.buf)) {
		ps_st_eat_spaces_only(st);
	} else if (p->token_index == 1 && in_list(cell_dir_words, m.buf)) {
		ps_st_eat_spaces_only(st);
	} else {
		int sym = ps_sym_find(p->syms, m.buf);
		if (sym >= 0 && (size_t)sym < p->name_flags_alloc && p->is_name[sym]) {
			if (sol)
				ps_diag_add(p->diags, true, p->line,
					    "objects cannot appear outside of square brackets in rules, only directions can");
			else
				ps_st_eat_spaces_only(st);
		} else if (!strcmp(m.buf, "...") || !strcmp(m.buf, "rigid") || !strcmp(m.buf, "random")) {
			/* fine */
		} else if (in_list(rule_commands, m.buf)) {
			if (!strcmp(m.buf, "message"))
				p->token_index = -4;
		} else if (!strcmp(m.buf, "cost")) {
			p->token_index = -5;   /* levelkit's COST N */
		} else {
			ps_diag_add(p->diags, true, p->line, "name \"%s\", referred to in a rule, does not exist",
				    m.buf);
		}
	}
	if (st->pos == start)
		st->pos++;   /* never stall */
	lk_strbuf_release(&m);
}

void ps_lex_wins(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	if (sol) {
		size_t from = 0;
		while (from < st->len && st->s[from] == '(')
			from++;
		size_t to = from;
		while (to < st->len && st->s[to] != '(')
			to++;
		PS_GROW(p->arena, p->wins, p->nwins + 1, p->wins_alloc);
		struct ps_pwin *w = &p->wins[p->nwins++];
		memset(w, 0, sizeof *w);
		w->line = p->line;
		struct lk_strbuf t = LK_STRBUF_INIT;
		size_t walloc = 0;
		for (size_t i = from; i < to;) {
			while (i < to && ps_is_space(st->s[i]))
				i++;
			size_t j = i;
			while (j < to && !ps_is_space(st->s[j]))
				j++;
			if (j > i) {
				ps_st_text(st, i, j, false, &t);
				PS_GROW(p->arena, w->words, w->n + 1, walloc);
				w->words[w->n++] = ps_strdup(p->arena, t.buf);
			}
			i = j;
		}
		lk_strbuf_release(&t);
		p->token_index = -1;
	}
	p->token_index++;
	struct lk_strbuf w = LK_STRBUF_INIT;
	size_t start = st->pos;
	ps_st_eat_spaces_only(st);
	if (!ps_st_match_name(st, &w)) {
		st->pos = start;
		ps_diag_add(p->diags, true, p->line, "incorrect format of win condition");
		if (!ps_st_match_not_comment(st, true, NULL))
			st->pos++;
		lk_strbuf_release(&w);
		return;
	}
	if (p->token_index == 0) {
		if (strcmp(w.buf, "all") && strcmp(w.buf, "any") && strcmp(w.buf, "no") && strcmp(w.buf, "some"))
			ps_diag_add(p->diags, true, p->line,
				    "expecting the start of a win condition (\"all\", \"some\", \"no\") but got \"%s\"",
				    w.buf);
	} else if (p->token_index == 2) {
		if (strcmp(w.buf, "on"))
			ps_diag_add(p->diags, true, p->line, "expecting the word \"on\" but got \"%s\"", w.buf);
	} else if (p->token_index == 1 || p->token_index == 3) {
		int sym = ps_sym_find(p->syms, w.buf);
		if (!(sym >= 0 && (size_t)sym < p->name_flags_alloc && p->is_name[sym]))
			ps_diag_add(p->diags, true, p->line, "error in win condition: \"%s\" is not a valid object name",
				    w.buf);
	} else {
		ps_diag_add(p->diags, true, p->line, "error in win condition: I don't know what to do with \"%s\"",
			    w.buf);
	}
	lk_strbuf_release(&w);
}

/* ---- levels ---- */

static void add_level_row(struct ps_parse *p, struct ps_stream *st, size_t from, size_t to)
{
	while (from < to && ps_is_space(st->s[from]))
		from++;
	while (to > from && ps_is_space(st->s[to - 1]))
		to--;
	struct ps_plevel *last = &p->levels[p->nlevels - 1];
	if (last->is_message) {
		PS_GROW(p->arena, p->levels, p->nlevels + 1, p->levels_alloc);
		last = &p->levels[p->nlevels++];
		memset(last, 0, sizeof *last);
	}
	if (last->nrows == 0)
		last->line = p->line;
	size_t n = last->nrows;
	size_t alloc = last->rows_alloc, alloc2 = alloc;
	PS_GROW(p->arena, last->rows, n + 1, alloc);
	PS_GROW(p->arena, last->rowlen, n + 1, alloc2);
	last->rows_alloc = alloc;
	last->rows[n] = ps_memdup(p->arena, st->s + from, (to - from) * sizeof(uint32_t));
	last->rowlen[n] = to - from;
	last->nrows++;
	if (n > 0 && last->rowlen[n] != last->rowlen[0])
		ps_diag_add(p->diags, false, p->line,
			    "maps must be rectangular, yo (in a level, the length of each row must be the same)");
}

/* [\p{Z}\s]*message then spaces; *glued when a name character follows
 * (the reference still reads a message, with a warning) */
static bool match_message(struct ps_stream *st, bool *glued)
{
	size_t q = st->pos;
	while (q < st->len && ps_is_space(st->s[q]))
		q++;
	static const char msg[] = "message";
	for (size_t i = 0; i < 7; i++)
		if (q + i >= st->len || st->s[q + i] != (unsigned char)msg[i])
			return false;
	q += 7;
	*glued = q < st->len && ps_is_word(st->s[q]);
	st->pos = q;
	ps_st_eat_spaces_only(st);
	return true;
}

void ps_lex_levels(struct ps_parse *p, struct ps_stream *st, bool sol)
{
	if (sol) {
		size_t save = st->pos;
		bool glued;
		if (match_message(st, &glued)) {
			if (glued)
				ps_diag_add(p->diags, false, p->line,
					    "you probably meant to put a space after 'message'");
			p->token_index = -4;
			struct lk_strbuf t = LK_STRBUF_INIT;
			ps_st_text_trim(st, st->pos, st->len, true, &t);
			struct ps_plevel msg;
			memset(&msg, 0, sizeof msg);
			msg.is_message = true;
			msg.message = ps_strdup(p->arena, t.buf);
			msg.line = p->line;
			lk_strbuf_release(&t);
			PS_GROW(p->arena, p->levels, p->nlevels + 1, p->levels_alloc);
			struct ps_plevel *last = &p->levels[p->nlevels - 1];
			if (!last->is_message && last->nrows == 0) {
				/* goes before the empty level being started */
				p->levels[p->nlevels] = *last;
				p->levels[p->nlevels - 1] = msg;
			} else {
				p->levels[p->nlevels] = msg;
			}
			p->nlevels++;
			st->pos = st->len;
			return;
		}
		st->pos = save;
		size_t end;
		if (!ps_st_match_not_comment(st, false, &end)) {
			ps_diag_add(p->diags, true, p->line,
				    "detected a comment where I was expecting a level (don't use '(' as a character in the legend)");
			p->comment_level++;
			st->pos = st->len;
			return;
		}
		add_level_row(p, st, st->pos, end);
		p->token_index = 2;
	} else if (p->token_index == -4) {
		st->pos = st->len;
		return;
	}
	if (p->token_index == 2 && !ps_st_eol(st)) {
		uint32_t c = st->s[st->pos++];
		struct lk_strbuf t = LK_STRBUF_INIT;
		ps_utf8_put(&t, c);
		int sym = ps_sym_find(p->syms, t.buf);
		if (!(sym >= 0 && (size_t)sym < p->name_flags_alloc && p->is_abbrev[sym]))
			ps_diag_add(p->diags, true, p->line,
				    "key \"%s\" not found; do you need to add it to the legend, or define a new object?",
				    t.buf);
		lk_strbuf_release(&t);
		return;
	}
	st->pos++;
}

/* ---- the token function ---- */

