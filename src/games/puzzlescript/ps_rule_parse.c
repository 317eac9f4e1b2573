/*
 * ps_rule_parse.c - one rule line into its parts: the directions it
 * applies in, late/rigid/random, the "+" that joins the previous group,
 * the left and right cell rows (each cell a list of direction-word and
 * name pairs), and the commands; then the reference's tidying of "no X"
 * that a rule's other contents already imply.
 */
#include <stdlib.h>
#include <string.h>

#include "ps_compile.h"
#include "ps_unicode.h"

const char *const ps_word_dir_names[PW_NWORDS] = {
	"", "up", "down", "left", "right", "^", "v", "<", ">", "moving", "stationary", "parallel",
	"perpendicular", "horizontal", "vertical", "orthogonal", "action", "no", "randomdir",
	"random", "...", "horizontal_par", "vertical_par", "horizontal_perp", "vertical_perp",
};

static const char *const command_names[PS_NCMDS] = {
	"sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8", "sfx9", "sfx10",
	"cancel", "checkpoint", "restart", "win", "message", "again",
};

static int word_dir(const char *t)
{
	for (int i = 1; i < PW_NWORDS; i++)
		if (!strcmp(ps_word_dir_names[i], t))
			return i;
	return -1;
}

/* the words a cell may hold before an object (reg_directions_only) */
static bool is_cell_dir(int d)
{
	return d >= PW_UP && d <= PW_RANDOM;
}

static int command_of(const char *t)
{
	for (int i = 0; i < PS_NCMDS; i++)
		if (!strcmp(command_names[i], t))
			return i;
	return -1;
}

struct toks {
	char **v;
	size_t n, alloc;
};

static void tokenize(struct ps_ctx *c, const char *line, struct toks *t)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	for (const char *q = line; *q; q++) {
		if (*q == '[' || *q == ']' || *q == '|') {
			lk_strbuf_addch(&sb, ' ');
			lk_strbuf_addch(&sb, *q);
			lk_strbuf_addch(&sb, ' ');
		} else if (q[0] == '-' && q[1] == '>') {
			lk_strbuf_addstr(&sb, " -> ");
			q++;
		} else {
			lk_strbuf_addch(&sb, *q);
		}
	}
	/* trim, then a leading '+' stands alone */
	const unsigned char *s = (const unsigned char *)sb.buf;
	size_t len = sb.len, from = 0;
	struct lk_strbuf w = LK_STRBUF_INIT;
	bool first = true;
	while (from < len) {
		size_t used;
		uint32_t cp = ps_utf8_decode(s + from, len - from, &used);
		if (ps_is_space(cp)) {
			from += used;
			continue;
		}
		size_t to = from;
		lk_strbuf_reset(&w);
		while (to < len) {
			cp = ps_utf8_decode(s + to, len - to, &used);
			if (ps_is_space(cp))
				break;
			if (first && to > from && s[from] == '+')
				break;
			lk_strbuf_add(&w, s + to, used);
			to += used;
		}
		first = false;
		PS_GROW(c->arena, t->v, t->n + 1, t->alloc);
		t->v[t->n++] = ps_strdup(c->arena, w.buf);
		from = to;
	}
	lk_strbuf_release(&w);
	lk_strbuf_release(&sb);
}

/* Where the message text starts: after the i-th token, found in order. */
static size_t index_after_token(const char *lower, const struct toks *t, size_t i)
{
	size_t at = 0;
	for (size_t k = 0; k <= i; k++) {
		const char *f = strstr(lower + at, t->v[k]);
		at = f ? (size_t)(f - lower) + strlen(t->v[k]) : strlen(t->v[k]) - 1;
	}
	return at;
}

struct build {
	int *cell;          /* alternating dir, name (name -2: not yet given) */
	size_t ncell, cell_alloc;
	struct ps_cell *row;
	size_t nrow, row_alloc;
	struct ps_crow *side[2];
	size_t nside[2], side_alloc[2];
};

static void push_cell(struct ps_ctx *c, struct build *b)
{
	struct ps_cell cell;
	cell.n = (int)(b->ncell / 2);
	cell.it = ps_alloc(c->arena, (size_t)(cell.n + 1) * sizeof *cell.it);
	for (int k = 0; k < cell.n; k++) {
		cell.it[k].dir = b->cell[2 * k];
		cell.it[k].name = b->cell[2 * k + 1];
	}
	PS_GROW(c->arena, b->row, b->nrow + 1, b->row_alloc);
	b->row[b->nrow++] = cell;
	b->ncell = 0;
}

static void push_row(struct ps_ctx *c, struct build *b, int side)
{
	struct ps_crow r;
	r.n = (int)b->nrow;
	r.cells = ps_memdup_pad(c->arena, b->row, b->nrow * sizeof *b->row, sizeof *b->row);
	PS_GROW(c->arena, b->side[side], b->nside[side] + 1, b->side_alloc[side]);
	b->side[side][b->nside[side]++] = r;
	b->nrow = 0;
}

static void cell_add(struct ps_ctx *c, struct build *b, int v)
{
	PS_GROW(c->arena, b->cell, b->ncell + 1, b->cell_alloc);
	b->cell[b->ncell++] = v;
}

static bool is_rule_name(const struct ps_ctx *c, const char *t, int *sym)
{
	*sym = ps_sym_find(c->syms, t);
	return *sym >= 0 && (size_t)*sym < c->p->name_flags_alloc && c->p->is_name[*sym];
}

static bool sfx_defined(const struct ps_ctx *c, const char *t)
{
	for (size_t j = 0; j < c->p->nsounds; j++)
		if (!strcmp(c->p->sounds[j].tok[0], t))
			return true;
	return false;
}

/* Cell-by-cell body of a rule line (parse state 1 of the reference). */
static int parse_cells(struct ps_ctx *c, struct ps_arule *r, const struct toks *t, size_t i,
		       const char *lower_orig, const char *orig, struct ps_arule **prev, size_t nprev)
{
	struct build b;
	memset(&b, 0, sizeof b);
	int line = r->line, balance = 0;
	bool in_row = false, rhs = false;
	struct ps_command *cmds = NULL;
	size_t ncmds = 0, cmds_alloc = 0;
	for (; i < t->n; i++) {
		const char *tok = t->v[i];
		int d = word_dir(tok), sym;
		if (!strcmp(tok, "[")) {
			if (++balance > 1)
				ps_diag_add(c->diags, false, line, "multiple opening brackets without closing brackets; every '[' has to be closed by a ']', and you can't nest them");
			if (b.ncell > 0)
				ps_diag_add(c->diags, true, line, "error, malformed cell rule - encountered a \"[\" before previous bracket was closed");
			in_row = true;
			b.ncell = 0;
		} else if (d >= 0 && is_cell_dir(d)) {
			if (b.ncell % 2 == 1)
				ps_diag_add(c->diags, true, line, "error, an item can only have one direction/action at a time, but you're looking for several at once");
			else if (!in_row)
				ps_diag_add(c->diags, false, line, "invalid syntax; directions should be placed at the start of a rule");
			else if (r->late && d != PW_NO && d != PW_RANDOM && d != PW_RANDOMDIR)
				ps_diag_add(c->diags, true, line, "movements cannot appear in late rules");
			else
				cell_add(c, &b, d);
		} else if (!strcmp(tok, "|")) {
			if (!in_row)
				ps_diag_add(c->diags, false, line, "janky syntax; \"|\" should only be used inside cell rows (the square brackety bits)");
			else if (b.ncell % 2 == 1)
				ps_diag_add(c->diags, true, line, "in a rule, if you specify a movement, it has to act on an object");
			else
				push_cell(c, &b);
		} else if (!strcmp(tok, "]")) {
			if (--balance < 0) {
				ps_diag_add(c->diags, false, line, "multiple closing brackets without corresponding opening brackets; every '[' has to be closed by a ']', and you can't nest them");
				return -1;
			}
			if (b.ncell % 2 == 1) {
				if (b.cell[0] == PW_ELLIPSIS)
					ps_diag_add(c->diags, true, line, "cannot end a rule with ellipses");
				else
					ps_diag_add(c->diags, true, line, "in a rule, if you specify a movement, it has to act on an object");
				b.ncell = 0;
			} else {
				push_cell(c, &b);
			}
			push_row(c, &b, rhs);
			in_row = false;
		} else if (!strcmp(tok, "->")) {
			if (r->group != line && nprev > 0 && prev[nprev - 1]->late != r->late)
				ps_diag_add(c->diags, false, line, "you can mix late and non-late rules in a rule-group if you really want to, but why would you want to do that?");
			if (in_row) {
				ps_diag_add(c->diags, false, line, "encountered an unexpected \"->\" inside square brackets; it's used to separate states, it has no place inside them");
			} else if (rhs) {
				ps_diag_add(c->diags, true, line, "error, you can only use \"->\" once in a rule; it's used to separate before and after states");
				return -1;
			} else {
				rhs = true;
			}
		} else if (is_rule_name(c, tok, &sym)) {
			if (!in_row) {
				ps_diag_add(c->diags, false, line, "invalid token \"%s\"; object names should only be used within cells (square brackets)", tok);
				continue;
			}
			for (size_t j = 0; j + 1 < b.ncell; j += 2) {
				if (b.cell[j + 1] != sym)
					continue;
				int newdir = b.ncell % 2 == 1 ? b.cell[b.ncell - 1] : PW_NONE;
				if (b.cell[j] == PW_NO && newdir == PW_NO)
					ps_diag_add(c->diags, false, line, "you have \"no %s\" more than once in a single cell; that's redundant", tok);
				else
					ps_diag_add(c->diags, true, line, "you cannot specify the same object more than once in a single cell (in this case \"%s\" occurs multiple times)", tok);
			}
			if (b.ncell % 2 == 0)
				cell_add(c, &b, PW_NONE);
			cell_add(c, &b, sym);
		} else if (!strcmp(tok, "...")) {
			if (!in_row) {
				ps_diag_add(c->diags, false, line, "invalid syntax, ellipses should only be used within cells (square brackets)");
			} else {
				/* a direction left without its object (an error the
				 * reference reports at the next '|'): dropped, so that
				 * the cell stays pairs of direction and name */
				if (b.ncell % 2 == 1) {
					ps_diag_add(c->diags, true, line, "in a rule, if you specify a movement, it has to act on an object");
					b.ncell--;
				}
				cell_add(c, &b, PW_ELLIPSIS);
				cell_add(c, &b, -1);
			}
		} else if (!strcmp(tok, "cost") && !in_row) {
			/* levelkit's COST N (De Keyser 4.4): what a turn in which
			 * the rule fires costs beyond its one move */
			char *end = NULL;
			unsigned long n = i + 1 < t->n ? strtoul(t->v[i + 1], &end, 10) : 0;
			if (!rhs || in_row || i + 1 >= t->n || !end || *end || end == t->v[i + 1] || n > 1000000) {
				ps_diag_add(c->diags, true, line, "cost must follow the rule, as COST N with N a whole number from 0 to 1000000");
			} else {
				r->cost = (unsigned)n;
				i++;
			}
		} else if (command_of(tok) >= 0) {
			int cmd = command_of(tok);
			bool later_bracket = false;
			for (size_t k = i; k < t->n; k++)
				if (!strcmp(t->v[k], "]"))
					later_bracket = true;
			if (!rhs)
				ps_diag_add(c->diags, true, line, "commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections");
			else if (in_row || later_bracket)
				ps_diag_add(c->diags, false, line, "commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections");
			PS_GROW(c->arena, cmds, ncmds + 1, cmds_alloc);
			cmds[ncmds].cmd = cmd;
			cmds[ncmds].message = NULL;
			if (cmd == PS_CMD_MESSAGE) {
				size_t at = index_after_token(lower_orig, t, i);
				size_t n = strlen(orig);
				if (at > n)
					at = n;
				const char *m = orig + at;
				size_t ml = strlen(m);
				while (ml && (m[ml - 1] == ' ' || m[ml - 1] == '\t' || m[ml - 1] == '\r'))
					ml--;
				while (ml && (*m == ' ' || *m == '\t')) {
					m++;
					ml--;
				}
				cmds[ncmds].message = ml ? ps_strndup(c->arena, m, ml) : " ";
				ncmds++;
				break;
			}
			if (cmd < PS_CMD_CANCEL && !sfx_defined(c, tok))
				ps_diag_add(c->diags, false, line, "sound effect \"%s\" not defined", tok);
			ncmds++;
		} else {
			ps_diag_add(c->diags, true, line, "error, malformed cell rule - was looking for cell contents, but found \"%s\"; what am I supposed to do with this, eh, please tell me that", tok);
		}
	}
	r->lhs = b.side[0];
	r->nlhs = (int)b.nside[0];
	r->rhs = b.side[1];
	r->nrhs = (int)b.nside[1];
	r->commands = cmds;
	r->ncommands = (int)ncmds;
	return 0;
}

static bool row_directional(const struct ps_crow *row)
{
	for (int j = 0; j < row->n; j++)
		for (int k = 0; k < row->cells[j].n; k++) {
			int d = row->cells[j].it[k].dir;
			if (d == PW_REL_UP || d == PW_REL_DOWN || d == PW_REL_LEFT || d == PW_REL_RIGHT ||
			    d == PW_PERPENDICULAR || d == PW_PARALLEL)
				return true;
		}
	return false;
}

static void add_dirs(struct ps_arule *r, const int *d, int n)
{
	for (int i = 0; i < n && r->ndirs < 8; i++)
		r->dirs[r->ndirs++] = d[i];
}

struct ps_arule *ps_rule_parse(struct ps_ctx *c, const struct ps_prule *pr,
			       struct ps_arule **prev, size_t nprev, int *bracket)
{
	int line = pr->line;
	*bracket = 0;
	if (strchr(pr->mixed, '(') && !strstr(pr->text, "->")) {
		ps_diag_add(c->diags, true, line, "you can't have comments inside rules; in puzzlescript, '(' starts a comment, so everything after the first '(' on this line was ignored before your rule was parsed");
		return NULL;
	}
	struct toks t = {NULL, 0, 0};
	tokenize(c, pr->text, &t);
	if (t.n == 0) {
		ps_diag_add(c->diags, true, line, "spooky error! empty line passed to rule function");
		return NULL;
	}
	if (t.n == 1 && !strcmp(t.v[0], "startloop")) {
		*bracket = 1;
		return NULL;
	}
	if (t.n == 1 && !strcmp(t.v[0], "endloop")) {
		*bracket = -1;
		return NULL;
	}
	bool arrow = false;
	for (size_t i = 0; i < t.n; i++)
		if (!strcmp(t.v[i], "->"))
			arrow = true;
	if (!arrow)
		ps_diag_add(c->diags, true, line, "a rule has to have an arrow in it; there's no arrow here");

	struct ps_arule *r = ps_alloc(c->arena, sizeof *r);
	r->line = r->group = line;
	bool has_plus = false;
	static const int ortho[4] = {PW_UP, PW_DOWN, PW_LEFT, PW_RIGHT};
	static const int horiz[2] = {PW_LEFT, PW_RIGHT}, vert[2] = {PW_UP, PW_DOWN};
	static const int moving[5] = {PW_UP, PW_DOWN, PW_LEFT, PW_RIGHT, PW_ACTION};
	size_t i = 0;
	for (; i < t.n; i++) {
		const char *tok = t.v[i];
		int d = word_dir(tok);
		if (!strcmp(tok, "+")) {
			has_plus = true;
			if (r->group == line) {
				if (nprev == 0) {
					ps_diag_add(c->diags, true, line, "the \"+\" symbol, for joining a rule with the group of the previous rule, needs a previous rule to be applied to");
					has_plus = false;
				}
				if (i != 0)
					ps_diag_add(c->diags, true, line, "the \"+\" symbol, for joining a rule with the group of the previous rule, must be the first symbol on the line");
				if (has_plus)
					r->group = prev[nprev - 1]->group;
			} else {
				ps_diag_add(c->diags, true, line, "two \"+\"s (the \"append to previous rule group\" symbol) applied to the same rule");
			}
		} else if (d == PW_REL_UP || d == PW_REL_DOWN || d == PW_REL_LEFT || d == PW_REL_RIGHT ||
			   d == PW_PERPENDICULAR || d == PW_PARALLEL) {
			ps_diag_add(c->diags, true, line, "you cannot use relative directions (\"^v<>\") to indicate in which direction(s) a rule applies; use absolute directions indicators (up, down, left, right, horizontal, or vertical, for instance), or, if you want the rule to apply in all four directions, do not specify directions");
		} else if (d == PW_HORIZONTAL) {
			add_dirs(r, horiz, 2);
		} else if (d == PW_VERTICAL) {
			add_dirs(r, vert, 2);
		} else if (d == PW_ORTHOGONAL) {
			add_dirs(r, ortho, 4);
		} else if (d == PW_MOVING) {
			add_dirs(r, moving, 5);
		} else if (!strcmp(tok, "late")) {
			r->late = true;
		} else if (!strcmp(tok, "rigid")) {
			r->rigid = true;
		} else if (!strcmp(tok, "random")) {
			r->random = true;
			if (has_plus)
				ps_diag_add(c->diags, true, line, "a rule-group can only be marked random by the opening rule in the group (aka, a '+' and 'random' can't appear as rule modifiers on the same line)");
		} else if (d >= PW_UP && d <= PW_RIGHT) {
			add_dirs(r, &d, 1);
		} else if (!strcmp(tok, "[")) {
			if (r->ndirs == 0)
				add_dirs(r, ortho, 4);
			break;
		} else {
			ps_diag_add(c->diags, true, line, "the start of a rule must consist of some number of directions (possibly 0), before the first bracket, specifying in what directions to look (with no direction specified, it applies in all four directions); it seems you've just entered \"%s\"", tok);
		}
	}
	struct lk_strbuf lower = LK_STRBUF_INIT;
	for (const char *q = pr->mixed; *q; q++)
		lk_strbuf_addch(&lower, (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q));
	int rc = parse_cells(c, r, &t, i, lower.buf, pr->mixed, prev, nprev);
	lk_strbuf_release(&lower);
	if (rc < 0)
		return NULL;
	if (r->late && r->rigid)
		ps_diag_add(c->diags, true, line, "late rules cannot be marked as rigid (rigid rules are all about dealing with the consequences of unresolvable movements, and late rules can't even have movements)");
	if (r->nlhs != r->nrhs) {
		if (!(r->ncommands > 0 && r->nrhs == 0)) {
			ps_diag_add(c->diags, false, line, "error, when specifying a rule, the number of matches (square bracketed bits) on the left hand side of the arrow must equal the number on the right");
			return NULL;
		}
	} else {
		for (int k = 0; k < r->nlhs; k++) {
			if (r->lhs[k].n != r->rhs[k].n) {
				ps_diag_add(c->diags, true, line, "in a rule, each pattern to match on the left must have a corresponding pattern on the right of equal length (number of cells)");
				c->invalid = true;
			}
			if (r->lhs[k].n == 0)
				ps_diag_add(c->diags, true, 0, "you have an totally empty pattern on the left-hand side; this will match everything");
		}
	}
	if (r->nlhs == 0)
		ps_diag_add(c->diags, true, line, "this rule refers to nothing; what the heck?");
	/* a rule that cannot tell directions apart applies in the first only */
	bool directional = false;
	for (int k = 0; k < r->nlhs; k++)
		if (r->lhs[k].n > 1 || row_directional(&r->lhs[k]))
			directional = true;
	for (int k = 0; k < r->nrhs; k++)
		if (row_directional(&r->rhs[k]))
			directional = true;
	if (!directional && r->ndirs > 1)
		r->ndirs = 1;
	return r;
}
