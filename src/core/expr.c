/*
 * expr.c - parsing field conditions (see expr.h); evaluating them on a
 * record is expr_eval.c.
 *
 * A hand-written recursive-descent parser over a one-token lookahead
 * builds a small tree; "&&" and "||" nodes hold all their operands in one
 * array, so a long chain of conditions is one level deep and evaluation
 * recurses only as deep as the parentheses nest (bounded by MAX_DEPTH).
 */
#include "levelkit/expr.h"

#include "expr_internal.h"

#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of parentheses and '!' beyond which parsing gives up, so that
 * neither the parser nor the evaluator can exhaust the stack. */
#define MAX_DEPTH 256

/* ------------------------------------------------------------ characters */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_name_char(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
}

/* Length of the number at s[0..len), or 0 if s does not start with one. */
static size_t scan_number(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && s[i] == '-')
		i++;
	while (i < len && is_digit(s[i]))
		i++, digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && is_digit(s[i]))
			i++, digits++;
	}
	if (!digits)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1, exp_digits = 0;
		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		while (j < len && is_digit(s[j]))
			j++, exp_digits++;
		if (!exp_digits)
			return 0;
		i = j;
	}
	return i;
}

/* Convert a scanned number.  strtod follows LC_NUMERIC, so the '.' is
 * swapped for the locale's decimal point first. */
static double to_double(const char *s, size_t len)
{
	char small[64], *buf = len < sizeof small ? small : lk_xmalloc(len + 1);
	const struct lconv *lc = localeconv();
	char point = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
	for (size_t i = 0; i < len; i++)
		buf[i] = s[i] == '.' ? point : s[i];
	buf[len] = '\0';
	double v = strtod(buf, NULL);
	if (buf != small)
		free(buf);
	return v;
}

bool lk_expr_number(const char *text, size_t len, double *value)
{
	while (len && lk_expr_space(*text))
		text++, len--;
	while (len && lk_expr_space(text[len - 1]))
		len--;
	if (!len || scan_number(text, len) != len)
		return false;
	if (value)
		*value = to_double(text, len);
	return true;
}

/* ---------------------------------------------------------------- tokens */

enum tok_kind {
	T_END, T_LPAREN, T_RPAREN, T_NOT, T_AND, T_OR,
	T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
	T_NUMBER, T_STRING, T_NAME, T_ERROR
};

struct parser {
	const char *text;
	size_t pos;               /* next byte to scan */
	enum tok_kind tok;        /* the current token */
	size_t tok_pos, tok_len;  /* where it is in text */
	struct lk_strbuf str;     /* T_STRING: the decoded text */
	struct lk_expr *expr;
	struct lk_strbuf *err;
	bool failed;
	int depth;
	bool concept;             /* a bare name may stand as a condition */
};

static void fail(struct parser *p, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void fail(struct parser *p, size_t pos, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	p->tok = T_ERROR;
	if (!p->err)
		return;
	va_list ap;
	lk_strbuf_addf(p->err, "column %zu: ", pos + 1);
	va_start(ap, fmt);
	lk_strbuf_vaddf(p->err, fmt, ap);
	va_end(ap);
}

/* A character quoted for a message: printable ASCII as is, else \xNN. */
static void quote_char(char c, char out[8])
{
	unsigned char u = (unsigned char)c;
	if (u >= 0x20 && u < 0x7f) {
		out[0] = c;
		out[1] = '\0';
	} else {
		static const char hex[] = "0123456789abcdef";
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[u >> 4];
		out[3] = hex[u & 15];
		out[4] = '\0';
	}
}

static void scan_string(struct parser *p)
{
	const char *s = p->text;
	size_t i = p->pos + 1;
	lk_strbuf_reset(&p->str);
	for (;;) {
		if (!s[i]) {
			fail(p, p->tok_pos, "unterminated string");
			return;
		}
		if (s[i] == '"')
			break;
		if (s[i] == '\\') {
			if (!s[i + 1]) {
				fail(p, p->tok_pos, "unterminated string");
				return;
			}
			if (s[i + 1] != '"' && s[i + 1] != '\\') {
				char q[8];
				quote_char(s[i + 1], q);
				fail(p, i, "unknown escape '\\%s' in string (only \\\" and \\\\)", q);
				return;
			}
			i++;
		}
		lk_strbuf_addch(&p->str, s[i]);
		i++;
	}
	p->tok = T_STRING;
	p->pos = i + 1;
}

static void next(struct parser *p)
{
	if (p->failed)
		return;
	const char *s = p->text;
	while (lk_expr_space(s[p->pos]))
		p->pos++;
	p->tok_pos = p->pos;
	char c = s[p->pos], d = c ? s[p->pos + 1] : '\0';
	size_t n = 1;
	switch (c) {
	case '\0': p->tok = T_END; n = 0; break;
	case '(': p->tok = T_LPAREN; break;
	case ')': p->tok = T_RPAREN; break;
	case '!':
		p->tok = d == '=' ? T_NE : T_NOT;
		n = d == '=' ? 2 : 1;
		break;
	case '<':
		p->tok = d == '=' ? T_LE : T_LT;
		n = d == '=' ? 2 : 1;
		break;
	case '>':
		p->tok = d == '=' ? T_GE : T_GT;
		n = d == '=' ? 2 : 1;
		break;
	case '=':
		if (d != '=') {
			fail(p, p->pos, "unexpected '=' (use '==')");
			return;
		}
		p->tok = T_EQ;
		n = 2;
		break;
	case '&':
		if (d != '&') {
			fail(p, p->pos, "unexpected '&' (use '&&')");
			return;
		}
		p->tok = T_AND;
		n = 2;
		break;
	case '|':
		if (d != '|') {
			fail(p, p->pos, "unexpected '|' (use '||')");
			return;
		}
		p->tok = T_OR;
		n = 2;
		break;
	case '"':
		scan_string(p);
		if (!p->failed)
			p->tok_len = p->pos - p->tok_pos;
		return;
	default:
		if (is_alpha(c)) {
			while (is_name_char(s[p->pos + n]))
				n++;
			p->tok = T_NAME;
		} else if (is_digit(c) || c == '-' || c == '.') {
			n = scan_number(s + p->pos, strlen(s + p->pos));
			if (n == 0 || is_name_char(s[p->pos + n])) {
				if (c == '-' && !is_digit(d) && d != '.')
					fail(p, p->pos, "expected a number after '-'");
				else
					fail(p, p->pos, "malformed number");
				return;
			}
			p->tok = T_NUMBER;
		} else {
			char q[8];
			quote_char(c, q);
			fail(p, p->pos, "unexpected character '%s'", q);
			return;
		}
		break;
	}
	p->tok_len = n;
	p->pos += n;
}

/* ----------------------------------------------------------------- nodes */

static void free_node(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		free_node(n->kids[i]);
	free(n->kids);
	free(n->l.text);
	free(n->r.text);
	free(n->l.arg);
	free(n->r.arg);
	free(n);
}

static struct node *new_node(enum node_kind kind)
{
	struct node *n = lk_xcalloc(1, sizeof *n);
	n->kind = kind;
	return n;
}

static void add_kid(struct node *n, struct node *kid, size_t *alloc)
{
	LK_ALLOC_GROW(n->kids, n->nkids + 1, *alloc);
	n->kids[n->nkids++] = kid;
}

static void note_field(struct lk_expr *e, const char *name, size_t len)
{
	for (size_t i = 0; i < e->nfields; i++)
		if (lk_field_names_equal(e->fields[i], strlen(e->fields[i]), name, len))
			return;
	LK_ALLOC_GROW(e->fields, e->nfields + 1, e->fields_alloc);
	e->fields[e->nfields++] = lk_xstrndup(name, len);
}

static bool is_cmp(enum tok_kind t)
{
	return t >= T_EQ && t <= T_GE;
}

/* Is the current token a name with a '(' after it (a call)? */
static bool at_call(const struct parser *p)
{
	if (p->tok != T_NAME)
		return false;
	size_t i = p->pos;
	while (lk_expr_space(p->text[i]))
		i++;
	return p->text[i] == '(';
}

/* In a concept, is the current token a name standing alone (no
 * comparison after it), as in !combo? */
static bool bare_name(const struct parser *p)
{
	if (!p->concept || p->tok != T_NAME)
		return false;
	size_t i = p->pos;
	while (lk_expr_space(p->text[i]))
		i++;
	return !strchr("=<>!(", p->text[i]) || p->text[i] == '\0';
}

/* NAME "(" WORD+ ")": a fact of a solution, such as uses(SP2) or
 * uses(box 2) (words joined by one space); a word is a name, a number, a
 * fraction of whole numbers (1/6) or '+' between two words, so that powers
 * and their sums can be named (the laser game's into(1/12 + 1/12)).
 * o->text already holds the name.  Returns true (p->failed tells). */
static bool take_call(struct parser *p, struct operand *o)
{
	o->kind = O_CALL;
	next(p);  /* the name */
	next(p);  /* ( */
	if (p->failed)
		return true;
	if (p->tok != T_NAME && p->tok != T_NUMBER) {
		fail(p, p->tok_pos, "expected a name or number in %s()", o->text);
		return true;
	}
	struct lk_strbuf arg = LK_STRBUF_INIT;
	while (!p->failed && (p->tok == T_NAME || p->tok == T_NUMBER)) {
		if (arg.len)
			lk_strbuf_addch(&arg, ' ');
		lk_strbuf_add(&arg, p->text + p->tok_pos, p->tok_len);
		size_t i = p->pos;
		if (p->tok == T_NUMBER && p->text[i] == '/' && is_digit(p->text[i + 1])) {
			size_t j = i + 1;
			while (is_digit(p->text[j]))
				j++;
			lk_strbuf_add(&arg, p->text + i, j - i);
			p->pos = j;
		}
		for (i = p->pos; lk_expr_space(p->text[i]); i++)
			;
		if (p->text[i] == '+') {
			lk_strbuf_addstr(&arg, " +");
			p->pos = i + 1;
			next(p);
			if (p->tok != T_NAME && p->tok != T_NUMBER) {
				fail(p, p->tok_pos, "expected a name or number after '+' in %s()", o->text);
				break;
			}
			continue;
		}
		next(p);
	}
	o->arg = lk_xstrndup(arg.buf, arg.len);
	lk_strbuf_release(&arg);
	if (!p->failed && p->tok != T_RPAREN)
		fail(p, p->tok_pos, "expected ')'");
	next(p);
	return true;
}

/* The current token as an operand; false (nothing consumed) if it is not
 * one. */
static bool take_operand(struct parser *p, struct operand *o)
{
	const char *s = p->text + p->tok_pos;
	switch (p->tok) {
	case T_NUMBER:
		o->kind = O_NUM;
		o->text = lk_xstrndup(s, p->tok_len);
		o->len = p->tok_len;
		o->num = to_double(s, p->tok_len);
		break;
	case T_STRING:
		o->kind = O_STR;
		o->len = p->str.len;
		o->text = lk_xmalloc(p->str.len + 1);
		memcpy(o->text, p->str.buf, p->str.len + 1);
		break;
	case T_NAME:
		o->text = lk_xstrndup(s, p->tok_len);
		o->len = p->tok_len;
		if (at_call(p))
			return take_call(p, o);
		o->kind = O_FIELD;
		note_field(p->expr, s, p->tok_len);
		break;
	default:
		return false;
	}
	next(p);
	return true;
}

static struct node *parse_or(struct parser *p);

/* "has" "(" NAME ")", the current token being the name "has" with a '('
 * after it. */
static struct node *parse_has(struct parser *p)
{
	next(p);  /* has */
	next(p);  /* ( */
	if (p->failed)
		return NULL;
	if (p->tok != T_NAME) {
		fail(p, p->tok_pos, "expected a field name in has()");
		return NULL;
	}
	struct node *n = new_node(N_HAS);
	take_operand(p, &n->l);
	if (!p->failed && p->tok != T_RPAREN)
		fail(p, p->tok_pos, "expected ')'");
	next(p);
	if (p->failed) {
		free_node(n);
		return NULL;
	}
	return n;
}

static bool at_has_call(const struct parser *p)
{
	if (p->tok != T_NAME || p->tok_len != 3 ||
	    !lk_field_name_eq(p->text + p->tok_pos, 3, "has"))
		return false;
	size_t i = p->pos;
	while (lk_expr_space(p->text[i]))
		i++;
	return p->text[i] == '(';
}

static struct node *parse_compare(struct parser *p)
{
	size_t start = p->tok_pos, start_len = p->tok_len;
	enum tok_kind start_tok = p->tok;
	struct node *n = new_node(N_CMP);
	if (!take_operand(p, &n->l)) {
		if (!p->failed) {
			if (p->tok == T_END)
				fail(p, p->tok_pos, "expected a condition");
			else
				fail(p, p->tok_pos, "expected a condition, found '%.*s'",
				     (int)p->tok_len, p->text + p->tok_pos);
		}
		goto bad;
	}
	if (p->failed)
		goto bad;
	if (!is_cmp(p->tok) && (n->l.kind == O_CALL || (p->concept && n->l.kind == O_FIELD))) {
		n->kind = N_TRUTH;   /* uses(SP2): true when not 0 */
		return n;
	}
	if (!is_cmp(p->tok)) {
		if (start_tok == T_NAME)
			fail(p, start, "'%.*s' is not a condition: compare it (%.*s == ...) "
			     "or test has(%.*s)", (int)start_len, p->text + start, (int)start_len,
			     p->text + start, (int)start_len, p->text + start);
		else
			fail(p, start, "a literal is not a condition: compare it with a field");
		goto bad;
	}
	n->op = (enum cmp_op)(C_EQ + (p->tok - T_EQ));
	next(p);
	if (p->failed)
		goto bad;
	if (!take_operand(p, &n->r)) {
		if (!p->failed)
			fail(p, p->tok_pos, "expected a number, string or field name");
		goto bad;
	}
	if (p->failed)
		goto bad;
	if (is_cmp(p->tok)) {
		fail(p, p->tok_pos, "comparisons do not chain: join them with '&&'");
		goto bad;
	}
	return n;
bad:
	free_node(n);
	return NULL;
}

static struct node *parse_unary(struct parser *p)
{
	if (p->failed)
		return NULL;
	if (++p->depth > MAX_DEPTH) {
		fail(p, p->tok_pos, "expression nested too deeply");
		return NULL;
	}
	struct node *n = NULL;
	if (p->tok == T_NOT) {
		next(p);
		if (p->failed)
			goto out;
		if (p->tok != T_NOT && p->tok != T_LPAREN && !at_call(p) && !bare_name(p)) {
			fail(p, p->tok_pos, "expected '(' or has() after '!' "
			     "('!' binds tighter than comparisons: write !(a == b))");
			goto out;
		}
		struct node *kid = parse_unary(p);
		if (!kid)
			goto out;
		n = new_node(N_NOT);
		size_t alloc = 0;
		add_kid(n, kid, &alloc);
	} else if (p->tok == T_LPAREN) {
		next(p);
		n = parse_or(p);
		if (!n)
			goto out;
		if (!p->failed && p->tok != T_RPAREN)
			fail(p, p->tok_pos, "expected ')'");
		next(p);
		if (p->failed) {
			free_node(n);
			n = NULL;
		}
	} else if (at_has_call(p)) {
		n = parse_has(p);
	} else {
		n = parse_compare(p);
	}
out:
	p->depth--;
	return n;
}

/* kind is N_AND or N_OR: a chain of sub-expressions joined by op. */
static struct node *parse_chain(struct parser *p, enum node_kind kind)
{
	enum tok_kind op = kind == N_AND ? T_AND : T_OR;
	struct node *first = kind == N_AND ? parse_unary(p) : parse_chain(p, N_AND);
	if (!first || p->tok != op)
		return first;
	struct node *n = new_node(kind);
	size_t alloc = 0;
	add_kid(n, first, &alloc);
	while (p->tok == op) {
		next(p);
		struct node *kid = kind == N_AND ? parse_unary(p) : parse_chain(p, N_AND);
		if (!kid) {
			free_node(n);
			return NULL;
		}
		add_kid(n, kid, &alloc);
	}
	return n;
}

static struct node *parse_or(struct parser *p)
{
	return parse_chain(p, N_OR);
}

static struct lk_expr *parse(const char *text, bool concept, struct lk_strbuf *err)
{
	struct lk_expr *e = lk_xcalloc(1, sizeof *e);
	struct parser p = { .text = text, .expr = e, .err = err, .concept = concept };
	lk_strbuf_init(&p.str);
	next(&p);
	e->root = parse_or(&p);
	if (!p.failed && p.tok != T_END) {
		if (p.tok == T_RPAREN)
			fail(&p, p.tok_pos, "unmatched ')'");
		else
			fail(&p, p.tok_pos, "expected '&&', '||' or the end of the expression");
	}
	lk_strbuf_release(&p.str);
	if (p.failed || !e->root) {
		if (!p.failed)
			fail(&p, p.tok_pos, "expected a condition");
		lk_expr_free(e);
		return NULL;
	}
	return e;
}

struct lk_expr *lk_expr_parse(const char *text, struct lk_strbuf *err)
{
	return parse(text, false, err);
}

struct lk_expr *lk_expr_parse_concept(const char *text, struct lk_strbuf *err)
{
	return parse(text, true, err);
}

void lk_expr_free(struct lk_expr *e)
{
	if (!e)
		return;
	free_node(e->root);
	for (size_t i = 0; i < e->nfields; i++)
		free(e->fields[i]);
	free(e->fields);
	free(e);
}

size_t lk_expr_field_count(const struct lk_expr *e)
{
	return e->nfields;
}

const char *lk_expr_field(const struct lk_expr *e, size_t i)
{
	return i < e->nfields ? e->fields[i] : NULL;
}
