/*
 * comb_level.c - reading a Combination level, the ray tables the solver
 * uses, checking a solution (the game's vtable is combination.c).
 *
 *   game: combination
 *   pieces: 2 red queen, 3 blue rook, 1 green bishop
 *   #....
 *   .o...
 *
 * Cells: '.' empty (a piece may stand there), '#' wall (no piece; stops
 * rays), 'o' hole (no piece; rays pass over it).  A solution is the grid
 * with each piece written as the number of its type in the pieces list,
 * '1' to '9' then 'A', 'B', ...: rows separated by '/'.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/grid.h"
#include "levelkit/rays.h"


bool comb_attacks(enum comb_kind kind, int axis)
{
	return kind == COMB_QUEEN || (kind == COMB_ROOK) == (axis < 2);
}

char comb_type_char(int t)
{
	return t < 9 ? (char)('1' + t) : (char)('A' + t - 9);
}

int comb_char_type(char c)
{
	if (c >= '1' && c <= '9')
		return c - '1';
	if (c >= 'A' && c <= 'Z')
		return 9 + c - 'A';
	return -1;
}

/* ------------------------------------------------------------ reading */

struct parsed {
	int ntypes, ncolours;
	struct comb_type types[COMB_MAX_TYPES];
	char *colours[COMB_MAX_COLOURS];
};

static void parsed_release(struct parsed *p)
{
	for (int i = 0; i < p->ncolours; i++)
		free(p->colours[i]);
}

static int kind_of(const char *w, size_t n, enum comb_kind *k)
{
	static const struct {
		const char *name;
		enum comb_kind kind;
	} names[] = { { "rook", COMB_ROOK }, { "rooks", COMB_ROOK }, { "bishop", COMB_BISHOP },
		      { "bishops", COMB_BISHOP }, { "queen", COMB_QUEEN }, { "queens", COMB_QUEEN } };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == n && strncmp(w, names[i].name, n) == 0) {
			*k = names[i].kind;
			return 0;
		}
	}
	return -1;
}

/* "2 red queen, 3 blue rook": -1 with err on a malformed list. */
static int parse_pieces(const char *s, struct parsed *p, struct lk_strbuf *err)
{
	memset(p, 0, sizeof *p);
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (!*s)
			break;
		char *end;
		long count = strtol(s, &end, 10);
		if (end == s || count < 1 || count > COMB_MAX_SQUARES) {
			lk_strbuf_addf(err, "pieces: expected a count at '%.16s'", s);
			return -1;
		}
		s = end;
		const char *word[2];
		size_t len[2];
		for (int i = 0; i < 2; i++) {
			while (*s == ' ' || *s == '\t')
				s++;
			word[i] = s;
			while (*s && !isspace((unsigned char)*s) && *s != ',')
				s++;
			len[i] = (size_t)(s - word[i]);
			if (!len[i]) {
				lk_strbuf_addstr(err, "pieces: expected COUNT COLOUR KIND, e.g. 2 red queen");
				return -1;
			}
		}
		enum comb_kind kind;
		if (kind_of(word[1], len[1], &kind) < 0) {
			lk_strbuf_addf(err, "pieces: '%.*s' is not rook, bishop or queen", (int)len[1], word[1]);
			return -1;
		}
		int c = 0;
		while (c < p->ncolours && !(strlen(p->colours[c]) == len[0] &&
					    strncmp(p->colours[c], word[0], len[0]) == 0))
			c++;
		if (c == p->ncolours) {
			if (c == COMB_MAX_COLOURS) {
				lk_strbuf_addf(err, "pieces: more than %d colours", COMB_MAX_COLOURS);
				return -1;
			}
			p->colours[p->ncolours++] = lk_xstrndup(word[0], len[0]);
		}
		int t = 0;
		while (t < p->ntypes && !(p->types[t].colour == c && p->types[t].kind == kind))
			t++;
		if (t == p->ntypes) {
			if (t == COMB_MAX_TYPES) {
				lk_strbuf_addf(err, "pieces: more than %d kinds of piece", COMB_MAX_TYPES);
				return -1;
			}
			p->types[p->ntypes++] = (struct comb_type){ c, kind, 0 };
		}
		p->types[t].count += (int)count;
	}
	if (!p->ntypes) {
		lk_strbuf_addstr(err, "pieces: no pieces");
		return -1;
	}
	return 0;
}

int comb_validate(const struct lk_game *game, const void *def, const struct lk_record *rec,
		  const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)def;
	(void)opt;
	size_t first, n = lk_record_grid(rec, &first);
	*line = (size_t)-1;
	if (!n) {
		lk_strbuf_addstr(err, "record has no grid");
		return -1;
	}
	int squares = 0;
	for (size_t i = 0; i < n; i++) {
		const char *row = rec->lines[first + i].text;
		for (size_t x = 0; row[x]; x++) {
			if (!strchr(".#o", row[x])) {
				lk_strbuf_addf(err, "unknown combination cell '%c' in column %zu (use . # o)",
					       row[x], x + 1);
				*line = first + i;
				return -1;
			}
			squares += row[x] == '.';
		}
		if (strlen(row) > LK_GRID_MAX_SIDE || n > LK_GRID_MAX_SIDE) {
			lk_strbuf_addstr(err, "grid too large");
			*line = first + i;
			return -1;
		}
	}
	if (squares > COMB_MAX_SQUARES) {
		lk_strbuf_addf(err, "more than %d empty squares", COMB_MAX_SQUARES);
		*line = first;
		return -1;
	}
	const char *pieces = lk_record_get(rec, "pieces");
	long field = lk_record_find(rec, "pieces");
	if (!pieces) {
		lk_strbuf_addstr(err, "no pieces field (e.g. pieces: 2 red queen, 1 blue rook)");
		return -1;
	}
	struct parsed p;
	int rc = parse_pieces(pieces, &p, err);
	parsed_release(&p);
	if (rc < 0)
		*line = (size_t)field;
	return rc;
}

/* --------------------------------------------------------- building */

/* The rays of every square (rays.h): squares '.', holes crossed, walls stop. */
static void build_rays(struct comb_level *s)
{
	const struct lk_ray_board board = {
		.width = s->width, .height = s->height, .cells = s->cells,
		.squares = ".", .passes = "o", .square_number = s->cell_sq,
	};
	lk_rays_build(&s->ray_table, &board, s->sq_cell, s->nsq, 8);
	s->ray_at = s->ray_table.at;
	s->ray_len = s->ray_table.len;
	s->rays = s->ray_table.squares;
}

/* Colours whose pieces (kind and count) are the same are interchangeable. */
static void build_classes(struct comb_level *s)
{
	bool done[COMB_MAX_COLOURS] = { false };
	int at = 0;
	for (int c = 0; c < s->ncolours; c++) {
		if (done[c])
			continue;
		s->class_at[s->nclasses] = at;
		for (int e = c; e < s->ncolours; e++) {
			bool same = true;
			for (int k = 0; k < 3 && same; k++) {
				int nc = 0, ne = 0;
				for (int t = 0; t < s->ntypes; t++) {
					if ((int)s->types[t].kind != k)
						continue;
					nc += s->types[t].colour == c ? s->types[t].count : 0;
					ne += s->types[t].colour == e ? s->types[t].count : 0;
				}
				same = nc == ne;
			}
			if (same && !done[e]) {
				done[e] = true;
				s->class_colour[at++] = e;
			}
		}
		s->nclasses++;
	}
	s->class_at[s->nclasses] = at;
}

struct lk_level *comb_new(const struct lk_game *game, const void *def,
			  const struct lk_record *rec, const struct lk_level_options *opt)
{
	(void)game;
	(void)def;
	(void)opt;
	struct comb_level *s = lk_xcalloc(1, sizeof *s);
	size_t first, n = lk_record_grid(rec, &first);
	int w = 0;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rec->lines[first + i].text) > w)
			w = (int)strlen(rec->lines[first + i].text);
	s->width = w;
	s->height = (int)n;
	s->cells = lk_xmalloc((size_t)w * n + 1);
	memset(s->cells, '#', (size_t)w * n);   /* short rows: walls beyond */
	s->cell_sq = lk_xmalloc((size_t)w * n * sizeof *s->cell_sq);
	s->sq_cell = lk_xmalloc((size_t)w * n * sizeof *s->sq_cell);
	for (int y = 0; y < (int)n; y++) {
		const char *row = rec->lines[first + (size_t)y].text;
		memcpy(s->cells + (size_t)y * (size_t)w, row, strlen(row));
	}
	for (int c = 0; c < w * (int)n; c++) {
		s->cell_sq[c] = -1;
		if (s->cells[c] == '.') {
			s->cell_sq[c] = s->nsq;
			s->sq_cell[s->nsq++] = c;
		}
	}
	struct parsed p;
	struct lk_strbuf err = LK_STRBUF_INIT;
	parse_pieces(lk_record_get(rec, "pieces"), &p, &err);
	lk_strbuf_release(&err);
	s->ntypes = p.ntypes;
	s->ncolours = p.ncolours;
	memcpy(s->types, p.types, sizeof p.types);
	memcpy(s->colour_names, p.colours, sizeof p.colours);   /* takes the names */
	for (int t = 0; t < s->ntypes; t++) {
		s->npieces += s->types[t].count;
		s->colour_bits[s->types[t].colour] |= 1u << (t + 1);
	}
	for (int a = 0; a < 4; a++) {
		s->mono[a] = true;
		for (int t = 0; t < s->ntypes; t++) {
			s->mono[a] &= comb_attacks(s->types[t].kind, a);
			for (int u = 0; u < s->ntypes; u++)
				if (s->types[t].colour != s->types[u].colour &&
				    (comb_attacks(s->types[t].kind, a) || comb_attacks(s->types[u].kind, a)))
					s->conflict[t][a] |= 1u << (u + 1);
		}
	}
	build_rays(s);
	build_classes(s);
	s->base.game = &lk_game_combination;
	s->base.metric = "nodes";
	return &s->base;
}

void comb_free(struct lk_level *level)
{
	struct comb_level *s = (struct comb_level *)level;
	for (int c = 0; c < s->ncolours; c++)
		free(s->colour_names[c]);
	free(s->cells);
	free(s->cell_sq);
	free(s->sq_cell);
	lk_rays_release(&s->ray_table);
	free(s);
}

/* ------------------------------------------------------ a solution */

int comb_verify(const struct lk_level *level, const char *solution, bool *valid,
		struct lk_strbuf *why)
{
	const struct comb_level *s = (const struct comb_level *)level;
	int *type_at = lk_xmalloc((size_t)(s->nsq ? s->nsq : 1) * sizeof *type_at);
	int count[COMB_MAX_TYPES] = { 0 }, x = 0, y = 0, rc = -1;
	*valid = false;
	for (int q = 0; q < s->nsq; q++)
		type_at[q] = -1;
	for (const char *p = solution;; p++) {
		if (*p == '/' || !*p) {
			if (y >= s->height) {
				lk_strbuf_addf(why, "solution has more rows than the grid's %d", s->height);
				goto out;
			}
			while (x < s->width && s->cells[y * s->width + x] != '.')
				x++;   /* rows may stop where only walls and holes remain */
			if (x != s->width) {
				lk_strbuf_addf(why, "solution row %d is shorter than the grid", y + 1);
				goto out;
			}
			y++;
			x = 0;
			if (!*p)
				break;
			continue;
		}
		if (y >= s->height || x >= s->width) {
			lk_strbuf_addstr(why, "solution is larger than the grid");
			goto out;
		}
		char cell = s->cells[y * s->width + x];
		int t = comb_char_type(*p);
		if (t >= 0 && t < s->ntypes && cell == '.') {
			type_at[s->cell_sq[y * s->width + x]] = t;
			count[t]++;
		} else if (*p != cell && !(*p == '.' && cell == '.')) {
			lk_strbuf_addf(why, "solution row %d column %d: '%c' where the grid has '%c'", y + 1,
				       x + 1, *p, cell);
			goto out;
		}
		x++;
	}
	if (y != s->height) {
		lk_strbuf_addf(why, "solution has %d rows, the grid %d", y, s->height);
		goto out;
	}
	rc = 0;
	for (int t = 0; t < s->ntypes; t++) {
		if (count[t] != s->types[t].count) {
			lk_strbuf_addf(why, "%d pieces of type %c, not %d", count[t], comb_type_char(t),
				       s->types[t].count);
			goto out;
		}
	}
	/* Walk every ray of every piece to the first piece it meets. */
	for (int q = 0; q < s->nsq; q++) {
		if (type_at[q] < 0)
			continue;
		for (int d = 0; d < 8; d++) {
			const int *ray = s->rays + s->ray_at[q * 8 + d];
			for (int i = 0; i < s->ray_len[q * 8 + d]; i++) {
				int u = type_at[ray[i]];
				if (u < 0)
					continue;
				if (s->conflict[type_at[q]][comb_axis(d)] & (1u << (u + 1))) {
					lk_strbuf_addf(why, "pieces %c and %c attack each other",
						       comb_type_char(type_at[q]), comb_type_char(u));
					goto out;
				}
				break;
			}
		}
	}
	*valid = true;
out:
	free(type_at);
	return rc;
}

void comb_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	(void)key;
	const struct comb_level *s = (const struct comb_level *)level;
	for (int y = 0; y < s->height; y++) {
		lk_strbuf_add(out, s->cells + (size_t)y * (size_t)s->width, (size_t)s->width);
		lk_strbuf_addch(out, '\n');
	}
}

static int compare_sets(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Same puzzle: the grid up to the eight symmetries, and the pieces up to
 * the names of the colours. */
void comb_canonical(const struct lk_level *level, struct lk_strbuf *out)
{
	const struct comb_level *s = (const struct comb_level *)level;
	struct lk_grid g;
	struct lk_strbuf best = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	lk_grid_init(&g, s->width, s->height, '#');
	memcpy(g.cells, s->cells, (size_t)s->width * (size_t)s->height);
	for (int sym = 0; sym < LK_SYM_COUNT; sym++) {
		struct lk_grid t;
		lk_grid_transform(&t, &g, sym);
		lk_strbuf_reset(&text);
		lk_grid_write(&t, &text, 0);
		if (sym == 0 || strcmp(text.buf, best.buf) < 0) {
			lk_strbuf_reset(&best);
			lk_strbuf_add(&best, text.buf, text.len);
		}
		lk_grid_release(&t);
	}
	lk_strbuf_add(out, best.buf, best.len);
	/* each colour's pieces as "RrBbQq" counts, sorted */
	char sets[COMB_MAX_COLOURS][48];
	for (int c = 0; c < s->ncolours; c++) {
		int k[3] = { 0, 0, 0 };
		for (int t = 0; t < s->ntypes; t++)
			if (s->types[t].colour == c)
				k[s->types[t].kind] += s->types[t].count;
		snprintf(sets[c], sizeof sets[c], "%d,%d,%d", k[0], k[1], k[2]);
	}
	qsort(sets, (size_t)s->ncolours, sizeof sets[0], compare_sets);
	for (int c = 0; c < s->ncolours; c++)
		lk_strbuf_addf(out, "%s%s", c ? " " : "pieces ", sets[c]);
	lk_strbuf_addch(out, '\n');
	lk_strbuf_release(&best);
	lk_strbuf_release(&text);
	lk_grid_release(&g);
}
