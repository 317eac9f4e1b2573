/*
 * rules_parse.c - reading transformer rules (see rules.h for the language)
 * into the parser's form (struct prule), which rules_compile.c turns into
 * masks.  Errors are "line N: message", N the line of the offending token.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules_internal.h"

struct token {
	char *text;
	int line;
	bool line_start;   /* first token of its line */
};

struct parser {
	struct token *tok;
	size_t ntok, alloc, at;
	const struct lk_legend *legend;
	struct lk_strbuf *err;
	bool failed;
};

static void fail(struct parser *p, int line, const char *fmt, const char *arg)
{
	if (p->failed)
		return;
	p->failed = true;
	lk_strbuf_addf(p->err, "line %d: ", line);
	lk_strbuf_addf(p->err, fmt, arg);
}

static void push_token(struct parser *p, const char *s, size_t n, int line, bool line_start)
{
	LK_ALLOC_GROW(p->tok, p->ntok + 1, p->alloc);
	p->tok[p->ntok].text = lk_xstrndup(s, n);
	p->tok[p->ntok].line = line;
	p->tok[p->ntok].line_start = line_start;
	p->ntok++;
}

/* Split into tokens: [ ] | -> and words; (comments) may nest and span lines. */
static void tokenize(struct parser *p, const char *text)
{
	int line = 1, depth = 0, opened = 1;
	bool line_start = true;
	for (const char *s = text; *s;) {
		if (*s == '\n') {
			line++;
			line_start = true;
			s++;
		} else if (*s == '(') {
			if (depth++ == 0)
				opened = line;
			s++;
		} else if (*s == ')') {
			/* A ')' outside a comment would otherwise be a token of
			 * no characters, and the scan would never advance. */
			if (depth == 0) {
				fail(p, line, "%s", "unmatched ')' outside a comment");
				return;
			}
			depth--;
			s++;
		} else if (depth > 0 || isspace((unsigned char)*s)) {
			s++;
		} else if (*s == '[' || *s == ']' || *s == '|') {
			push_token(p, s, 1, line, line_start);
			line_start = false;
			s++;
		} else if (s[0] == '-' && s[1] == '>') {
			push_token(p, s, 2, line, line_start);
			line_start = false;
			s += 2;
		} else {
			const char *e = s;
			while (*e && !isspace((unsigned char)*e) && !strchr("[]|()", *e) &&
			       !(e[0] == '-' && e[1] == '>'))
				e++;
			push_token(p, s, (size_t)(e - s), line, line_start);
			line_start = false;
			s = e;
		}
	}
	if (depth > 0)
		fail(p, opened, "%s", "unclosed comment '('");
}

static struct token *peek(struct parser *p)
{
	return p->at < p->ntok ? &p->tok[p->at] : NULL;
}

static struct token *peek2(struct parser *p)
{
	return p->at + 1 < p->ntok ? &p->tok[p->at + 1] : NULL;
}

static bool accept(struct parser *p, const char *word)
{
	struct token *t = peek(p);
	if (t && strcasecmp(t->text, word) == 0) {
		p->at++;
		return true;
	}
	return false;
}

static int last_line(struct parser *p)
{
	if (p->at < p->ntok)
		return p->tok[p->at].line;
	return p->ntok ? p->tok[p->ntok - 1].line : 1;
}

static void expect(struct parser *p, const char *word)
{
	if (!accept(p, word)) {
		struct token *t = peek(p);
		fail(p, last_line(p), t ? "expected '%s'" : "expected '%s' at the end", word);
	}
}

/* The legend name of a word: an object (or its alias), else a property;
 * -1 if unknown. */
static int name_of(const struct lk_legend *lg, const char *name)
{
	for (int i = 0; i < lg->nobjects; i++) {
		const struct lk_legend_object *o = &lg->objects[i];
		if (o->name && (strcasecmp(name, o->name) == 0 ||
				(o->alias && strcasecmp(name, o->alias) == 0)))
			return i;
	}
	for (int i = 0; i < lg->nproperties; i++)
		if (strcasecmp(name, lg->properties[i].name) == 0)
			return lg->nobjects + i;
	return -1;
}

static bool is_keyword(const char *s)
{
	static const char *const words[] = { "no", "or", "choose", "option", "up", "down", "left",
					     "right", "horizontal", "vertical", "...", "symmetrise",
					     "symmetrize", NULL };
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return true;
	return false;
}

static bool is_punct(const char *s)
{
	return strchr("[]|", s[0]) || strcmp(s, "->") == 0;
}

/* A force word's code (see struct pitem), or -1. */
static int force_code(const char *w)
{
	static const struct {
		const char *word;
		int code;
	} forces[] = {
		{ ">", 4 }, { "v", 5 }, { "<", 6 }, { "^", 7 },
		{ "up", LK_UP }, { "right", LK_RIGHT }, { "down", LK_DOWN }, { "left", LK_LEFT },
	};
	for (size_t i = 0; i < sizeof forces / sizeof forces[0]; i++)
		if (strcasecmp(w, forces[i].word) == 0)
			return forces[i].code;
	return -1;
}

/* PuzzleScript's movement words that mean nothing in a level edit. */
static bool is_movement_word(const char *w)
{
	static const char *const words[] = { "moving", "stationary", "action", "randomdir",
					     "random", "parallel", "perpendicular", "orthogonal",
					     "horizontal", "vertical", NULL };
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(w, words[i]) == 0)
			return true;
	return false;
}

/* Is the token a name (not a keyword or punctuation)? */
static bool is_name(const struct token *t)
{
	return t && !is_punct(t->text) && !is_keyword(t->text);
}

/* One cell up to '|' or ']'. */
static void parse_cell(struct parser *p, struct pcell *c)
{
	memset(c, 0, sizeof *c);
	struct token *t;
	while (!p->failed && (t = peek(p)) && strcmp(t->text, "|") && strcmp(t->text, "]")) {
		if (strcmp(t->text, "...") == 0) {
			p->at++;
			struct token *n = peek(p);
			if (c->nitems || c->ellipsis || (n && strcmp(n->text, "|") && strcmp(n->text, "]"))) {
				fail(p, t->line, "%s", "an ellipsis '...' stands alone in its cell");
				return;
			}
			c->ellipsis = true;
			continue;
		}
		if (c->ellipsis) {
			fail(p, t->line, "%s", "an ellipsis '...' stands alone in its cell");
			return;
		}
		if (c->nitems == MAX_ITEMS) {
			fail(p, t->line, "%s", "too many conditions in one cell");
			return;
		}
		struct pitem *it = &c->items[c->nitems];
		memset(it, 0, sizeof *it);
		it->line = t->line;
		it->force = -1;
		it->negate = accept(p, "no");
		t = peek(p);
		/* a force word before a name; alone it may be a name ("v") */
		if (t && is_name(peek2(p)) && (force_code(t->text) >= 0 || is_movement_word(t->text))) {
			if (force_code(t->text) < 0) {
				fail(p, t->line, "'%s' is no force a level edit can carry out (nothing moves "
				     "before an edit; a force in the replacement moves its object: > < ^ v "
				     "up down left right)", t->text);
				return;
			}
			if (it->negate) {
				fail(p, t->line, "%s", "'no' and a force do not go together");
				return;
			}
			it->force = force_code(t->text);
			p->at++;
		}
		do {
			t = peek(p);
			if (!is_name(t)) {
				fail(p, last_line(p), "%s", "expected an object name");
				return;
			}
			int id = name_of(p->legend, t->text);
			if (id < 0) {
				fail(p, t->line, "unknown object '%s'", t->text);
				return;
			}
			if (it->nnames == MAX_OR) {
				fail(p, t->line, "%s", "too many names joined by 'or'");
				return;
			}
			it->names[it->nnames++] = id;
			p->at++;
		} while (accept(p, "or"));
		if (it->force >= 0 && it->nnames > 1) {
			fail(p, it->line, "%s", "a force moves one object, not one of several ('or')");
			return;
		}
		c->nitems++;
	}
}

/* The rows of one side; for the replacement, into pats from the left's
 * count (rhs true). */
static int parse_side(struct parser *p, struct ppattern *pats, int nlhs, bool rhs)
{
	int k = 0;
	while (!p->failed && peek(p) && strcmp(peek(p)->text, "[") == 0) {
		/* A replacement ends with its line: a '[' that starts the next
		 * line begins the next rule. */
		if (rhs && k > 0 && peek(p)->line_start)
			break;
		int line = peek(p)->line;
		p->at++;
		if (rhs && k >= nlhs) {
			fail(p, line, "%s", "more patterns on the right than on the left");
			return k;
		}
		if (!rhs && k == MAX_PATTERNS) {
			fail(p, line, "%s", "too many patterns in one rule (at most 4)");
			return k;
		}
		struct ppattern *pat = &pats[k];
		pat->ncells = 0;
		do {
			if (pat->ncells == MAX_CELLS) {
				fail(p, last_line(p), "%s", "too many cells in one pattern");
				return k;
			}
			parse_cell(p, &pat->cells[pat->ncells++]);
		} while (!p->failed && accept(p, "|"));
		expect(p, "]");
		k++;
	}
	if (!p->failed && !rhs && k == 0)
		fail(p, last_line(p), "%s", "expected a pattern '['");
	return k;
}

static unsigned direction_bits(const char *w)
{
	static const struct {
		const char *name;
		unsigned bits;
	} dirs[] = {
		{ "up", 1u << LK_UP }, { "down", 1u << LK_DOWN }, { "left", 1u << LK_LEFT },
		{ "right", 1u << LK_RIGHT }, { "horizontal", (1u << LK_LEFT) | (1u << LK_RIGHT) },
		{ "vertical", (1u << LK_UP) | (1u << LK_DOWN) },
	};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (strcasecmp(w, dirs[i].name) == 0)
			return dirs[i].bits;
	return 0;
}

/* The two sides' shapes agree: cells, ellipses in the same places. */
static void check_shapes(struct parser *p, struct prule *r)
{
	for (int k = 0; k < r->nlhs && !p->failed; k++) {
		const struct ppattern *l = &r->lhs[k];
		int e = 0;
		for (int i = 0; i < l->ncells; i++) {
			if (!l->cells[i].ellipsis)
				continue;
			if (i == 0 || i == l->ncells - 1 || l->cells[i - 1].ellipsis) {
				fail(p, r->line, "%s", "an ellipsis '...' belongs between two cells");
				return;
			}
			if (++e > MAX_ELLIPSES) {
				fail(p, r->line, "%s", "at most two ellipses in one pattern");
				return;
			}
		}
		if (k >= r->nrhs)
			continue;
		const struct ppattern *rh = &r->rhs[k];
		if (rh->ncells > l->ncells)
			fail(p, r->line, "%s", "a replacement has more cells than its pattern");
		else if (rh->ncells < l->ncells)
			fail(p, r->line, "%s", "a replacement has fewer cells than its pattern");
		for (int i = 0; i < l->ncells && !p->failed; i++)
			if (l->cells[i].ellipsis != rh->cells[i].ellipsis)
				fail(p, r->line, "%s", "an ellipsis '...' on one side needs one in the same "
				     "place on the other");
	}
}

/* Prefixes and one rule; its compiled forms join the group. */
static void parse_rule(struct parser *p, struct lk_rules *rules, struct group *g, bool first,
		       struct prule *r)
{
	memset(r, 0, sizeof *r);
	r->option = 1.0;
	r->line = last_line(p);
	for (struct token *t; !p->failed && (t = peek(p)) && strcmp(t->text, "[");) {
		unsigned d = direction_bits(t->text);
		if (d) {
			r->dirs |= d;
			p->at++;
		} else if (strcasecmp(t->text, "choose") == 0) {
			p->at++;
			t = peek(p);
			char *end;
			long n = t ? strtol(t->text, &end, 10) : 0;
			if (!t || *end || n < 1 || n > 1000000) {
				fail(p, last_line(p), "%s", "choose needs a count from 1 to 1000000");
				return;
			}
			if (!first) {
				fail(p, t->line, "%s", "choose belongs before the first alternative");
				return;
			}
			g->choose = n;
			p->at++;
		} else if (strcasecmp(t->text, "option") == 0) {
			p->at++;
			t = peek(p);
			char *end;
			double v = t ? strtod(t->text, &end) : -1;
			if (!t || *end || v < 0 || v > 1) {
				fail(p, last_line(p), "%s", "option needs a probability from 0 to 1");
				return;
			}
			r->option = v;
			p->at++;
		} else {
			fail(p, t->line, "unexpected '%s' (expected choose, option, a direction or '[')",
			     t->text);
			return;
		}
	}
	if (!r->dirs)
		r->dirs = 0xf;
	if (peek(p))
		r->line = peek(p)->line;
	r->nlhs = parse_side(p, r->lhs, 0, false);
	if (!p->failed)
		expect(p, "->");
	if (p->failed)
		return;
	r->nrhs = parse_side(p, r->rhs, r->nlhs, true);
	if (p->failed)
		return;
	/* MixedAim writes `[Crate][Target] -> []` for "remove both": one
	 * empty replacement clears what every pattern names. */
	if (r->nrhs == 1 && r->nlhs > 1 && r->lhs[0].ncells == 1 && r->rhs[0].ncells == 1 &&
	    r->rhs[0].cells[0].nitems == 0 && !r->rhs[0].cells[0].ellipsis) {
		r->clear_all = true;
		r->nrhs = 0;
	} else if (r->nrhs != r->nlhs) {
		fail(p, last_line(p), "%s", "fewer patterns on the right than on the left");
		return;
	}
	check_shapes(p, r);
	if (!p->failed && lk_rules_compile(rules, g, r, p->err) < 0)
		p->failed = true;
}

/* "symmetrise AXIS" (or symmetrize): a statement of its own line, not a
 * rule; true when it was one (or failed as one). */
static bool parse_symmetrise(struct parser *p, struct group *g)
{
	struct token *t = peek(p);
	if (!t || (strcasecmp(t->text, "symmetrise") && strcasecmp(t->text, "symmetrize")))
		return false;
	p->at++;
	static const char *const axes[] = { "horizontal", "vertical", "both", "rotate", NULL };
	struct token *a = peek(p);
	for (int i = 0; a && !a->line_start && axes[i]; i++)
		if (strcasecmp(a->text, axes[i]) == 0) {
			g->mirror = (enum rules_mirror)(MIRROR_HORIZONTAL + i);
			p->at++;
			struct token *next = peek(p);
			if (next && !next->line_start)
				fail(p, next->line, "unexpected '%s' after symmetrise and its axis", next->text);
			return true;
		}
	fail(p, t->line, "%s", "symmetrise needs an axis: horizontal (left and right mirror each "
	     "other), vertical (top and bottom), both, or rotate (half a turn)");
	return true;
}

struct lk_rules *lk_rules_parse(const char *text, const struct lk_legend *legend,
				struct lk_strbuf *err)
{
	struct parser p = { .legend = legend, .err = err };
	struct lk_rules *rules = lk_xcalloc(1, sizeof *rules);
	struct prule *pr = lk_xmalloc(sizeof *pr);
	rules->legend = legend;
	rules->words = lk_legend_words(legend);
	lk_rules_new_mask(rules);   /* offset 0: the empty mask */
	rules->layer_mask = lk_xcalloc((size_t)legend->nobjects + 1, sizeof *rules->layer_mask);
	for (int i = 0; i < legend->nobjects; i++) {
		if (!legend->objects[i].name)
			continue;
		size_t m = lk_rules_new_mask(rules);
		for (int j = 0; j < legend->nobjects; j++)
			if (legend->objects[j].name && legend->objects[j].layer == legend->objects[i].layer)
				rules->bits[m + (size_t)j / 64] |= (uint64_t)1 << (j % 64);
		rules->layer_mask[i] = m;
	}
	rules->player = -1;
	for (int i = 0; i < legend->nobjects; i++)
		if (legend->objects[i].name && strcasecmp(legend->objects[i].name, "player") == 0)
			rules->player = i;
	tokenize(&p, text);
	while (!p.failed && p.at < p.ntok) {
		LK_ALLOC_GROW(rules->groups, (size_t)rules->ngroups + 1, rules->groups_alloc);
		struct group *g = &rules->groups[rules->ngroups++];
		memset(g, 0, sizeof *g);
		if (parse_symmetrise(&p, g))
			continue;
		parse_rule(&p, rules, g, true, pr);
		/* Alternatives: `or` between rules, on this line or the next. */
		while (!p.failed && accept(&p, "or"))
			parse_rule(&p, rules, g, false, pr);
		struct token *t = peek(&p);
		if (!p.failed && t && !t->line_start && strcasecmp(t->text, "or") != 0)
			fail(&p, t->line, "unexpected '%s' after a rule", t->text);
	}
	for (size_t i = 0; i < p.ntok; i++)
		free(p.tok[i].text);
	free(p.tok);
	free(pr);
	if (p.failed) {
		lk_rules_free(rules);
		return NULL;
	}
	return rules;
}

void lk_rules_free(struct lk_rules *rules)
{
	if (!rules)
		return;
	for (int i = 0; i < rules->ngroups; i++) {
		for (int j = 0; j < rules->groups[i].nrules; j++)
			free(rules->groups[i].rules[j].patterns);
		free(rules->groups[i].rules);
	}
	free(rules->groups);
	free(rules->bits);
	free(rules->layer_mask);
	free(rules);
}
