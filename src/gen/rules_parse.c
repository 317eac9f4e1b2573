/*
 * rules_parse.c - reading transformer rules (see rules.h for the language).
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

/* The mask of an object or property name; 0 if unknown.  *concrete says
 * whether it is a single object. */
static uint16_t name_mask(const struct lk_legend *lg, const char *name, bool *concrete)
{
	for (int i = 0; i < lg->nobjects; i++) {
		const struct lk_legend_object *o = &lg->objects[i];
		if (strcasecmp(name, o->name) == 0 || (o->alias && strcasecmp(name, o->alias) == 0)) {
			*concrete = true;
			return (uint16_t)(1u << i);
		}
	}
	for (int i = 0; i < lg->nproperties; i++) {
		if (strcasecmp(name, lg->properties[i].name) == 0) {
			*concrete = false;
			return lg->properties[i].mask;
		}
	}
	return 0;
}

static bool is_keyword(const char *s)
{
	static const char *const words[] = { "no", "or", "choose", "option", "up", "down", "left",
					     "right", "horizontal", "vertical", NULL };
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return true;
	return false;
}

/* One cell up to '|' or ']'. */
static void parse_cell(struct parser *p, struct rule_cell *c, bool rhs)
{
	memset(c, 0, sizeof *c);
	struct token *t;
	while (!p->failed && (t = peek(p)) && strcmp(t->text, "|") && strcmp(t->text, "]")) {
		bool negate = accept(p, "no");
		uint16_t mask = 0;
		do {
			t = peek(p);
			if (!t || is_keyword(t->text) || strchr("[]|", t->text[0]) ||
			    strcmp(t->text, "->") == 0) {
				fail(p, last_line(p), "%s", "expected an object name");
				return;
			}
			bool concrete = false;
			uint16_t m = name_mask(p->legend, t->text, &concrete);
			if (!m) {
				fail(p, t->line, "unknown object '%s'", t->text);
				return;
			}
			if (rhs && !concrete) {
				fail(p, t->line, "'%s' is not a single object: a replacement must say "
					"which object to put", t->text);
				return;
			}
			mask |= m;
			p->at++;
		} while (accept(p, "or"));
		if (rhs) {
			if (negate) {
				fail(p, last_line(p), "%s", "'no' has no meaning in a replacement");
				return;
			}
			c->put |= mask;
			continue;
		}
		if (c->nconds == MAX_CONDS) {
			fail(p, last_line(p), "%s", "too many conditions in one cell");
			return;
		}
		c->conds[c->nconds].mask = mask;
		c->conds[c->nconds].negate = negate;
		c->nconds++;
		if (!negate)
			c->named |= mask;
	}
}

static void parse_side(struct parser *p, struct rule *r, bool rhs)
{
	int k = 0;
	while (!p->failed && peek(p) && strcmp(peek(p)->text, "[") == 0) {
		/* A replacement ends with its line: a '[' that starts the next
		 * line begins the next rule. */
		if (rhs && k > 0 && peek(p)->line_start)
			break;
		p->at++;
		struct pattern *pat;
		if (rhs) {
			if (k >= r->npatterns) {
				fail(p, last_line(p), "%s", "more patterns on the right than on the left");
				return;
			}
			pat = &r->patterns[k];
		} else {
			LK_ALLOC_GROW(r->patterns, (size_t)r->npatterns + 1, r->patterns_alloc);
			pat = &r->patterns[r->npatterns++];
			memset(pat, 0, sizeof *pat);
		}
		int i = 0;
		do {
			if (rhs) {
				if (i >= pat->ncells) {
					fail(p, last_line(p), "%s", "a replacement has more cells than its pattern");
					return;
				}
				struct rule_cell tmp;
				parse_cell(p, &tmp, true);
				pat->cells[i].put = tmp.put;
			} else {
				if (pat->ncells == MAX_CELLS) {
					fail(p, last_line(p), "%s", "too many cells in one pattern");
					return;
				}
				parse_cell(p, &pat->cells[pat->ncells++], false);
			}
			i++;
		} while (!p->failed && accept(p, "|"));
		expect(p, "]");
		if (rhs && !p->failed && i != pat->ncells)
			fail(p, last_line(p), "%s", "a replacement has fewer cells than its pattern");
		k++;
	}
	if (p->failed)
		return;
	if (!rhs && r->npatterns == 0)
		fail(p, last_line(p), "%s", "expected a pattern '['");
	/* MixedAim writes `[Crate][Target] -> []` for "remove both": one
	 * empty replacement clears what every pattern names. */
	bool one_empty = rhs && k == 1 && r->patterns[0].ncells == 1 && r->patterns[0].cells[0].put == 0;
	if (rhs && k != r->npatterns && !one_empty)
		fail(p, last_line(p), "%s", "fewer patterns on the right than on the left");
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

/* Prefixes and one rule of a group. */
static void parse_rule(struct parser *p, struct group *g, bool first)
{
	LK_ALLOC_GROW(g->rules, (size_t)g->nrules + 1, g->rules_alloc);
	struct rule *r = &g->rules[g->nrules++];
	memset(r, 0, sizeof *r);
	r->option = 1.0;
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
	parse_side(p, r, false);
	if (!p->failed)
		expect(p, "->");
	if (!p->failed)
		parse_side(p, r, true);
}

struct lk_rules *lk_rules_parse(const char *text, const struct lk_legend *legend,
				struct lk_strbuf *err)
{
	struct parser p = { .legend = legend, .err = err };
	struct lk_rules *rules = lk_xcalloc(1, sizeof *rules);
	rules->legend = legend;
	tokenize(&p, text);
	while (!p.failed && p.at < p.ntok) {
		LK_ALLOC_GROW(rules->groups, (size_t)rules->ngroups + 1, rules->groups_alloc);
		struct group *g = &rules->groups[rules->ngroups++];
		memset(g, 0, sizeof *g);
		parse_rule(&p, g, true);
		/* Alternatives: `or` between rules, on this line or the next. */
		while (!p.failed && accept(&p, "or"))
			parse_rule(&p, g, false);
		struct token *t = peek(&p);
		if (!p.failed && t && !t->line_start && strcasecmp(t->text, "or") != 0)
			fail(&p, t->line, "unexpected '%s' after a rule", t->text);
	}
	for (size_t i = 0; i < p.ntok; i++)
		free(p.tok[i].text);
	free(p.tok);
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
	free(rules);
}
