/*
 * slide_level.c - reading a slide game's level (slide_game.h): the grid
 * through the game's legend, the one-way field, the board's checks, and
 * the level built from it.
 */
#include "slide_game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"

const char *const slide_fact_names[] = { "match", "anteater", "mud", "crate", "pit", NULL };

/* ------------------------------------------------------------- reading */

static const struct slide_char *legend_of(const struct slide_rules *rules, char ch)
{
	static const struct slide_char floor = { ' ', LK_T_FLOOR, LK_P_NONE, 0, 0 };
	if (ch == ' ' || ch == '.')
		return &floor;
	for (int i = 0; i < rules->nlegend; i++)
		if (rules->legend[i].ch == ch)
			return &rules->legend[i];
	return NULL;
}

int slide_dir_of_letter(char c)
{
	const char *p = strchr("urdl", tolower((unsigned char)c));
	return p && c ? (int)(p - "urdl") : -1;
}

/* A row's length without trailing blanks. */
static int row_length(const char *row)
{
	int n = (int)strlen(row);
	while (n > 0 && (row[n - 1] == ' ' || row[n - 1] == '\r'))
		n--;
	return n;
}

/* Read the grid and the oneway field into b.  Returns 0 or -1 with err and
 * *line (index into rec->lines). */
static int read_board(const struct slide_rules *rules, const struct lk_record *rec,
		      struct lk_slide_board *b, struct lk_strbuf *err, size_t *line)
{
	size_t first, n = lk_record_grid(rec, &first);
	int w = 0;
	*line = (size_t)-1;
	if (n == 0) {
		lk_strbuf_addstr(err, "record has no grid");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int len = row_length(rec->lines[first + i].text);
		if (len > w)
			w = len;
	}
	int h = (int)n;
	bool fits = (w >= rules->min_w && h >= rules->min_h && w <= rules->max_w && h <= rules->max_h) ||
		    (h >= rules->min_w && w >= rules->min_h && h <= rules->max_w && w <= rules->max_h);
	if (!fits) {
		lk_strbuf_addf(err, "a %s board is %dx%d to %dx%d, not %dx%d", rules->game, rules->min_w,
			       rules->min_h, rules->max_w, rules->max_h, w, h);
		*line = first;
		return -1;
	}
	lk_slide_board_init(b, w, h);
	for (int y = 0; y < h; y++) {
		const char *row = rec->lines[first + (size_t)y].text;
		for (int x = 0; x < w; x++) {
			/* Trailing blanks and missing cells at a row's end are
			 * outside the board: wall. */
			char ch = x < row_length(row) ? row[x] : '#';
			const struct slide_char *sc = legend_of(rules, ch);
			if (!sc) {
				lk_strbuf_addf(err, "unknown %s cell '%c' in column %d", rules->game, ch, x + 1);
				*line = first + (size_t)y;
				lk_slide_board_release(b);
				return -1;
			}
			int c = y * w + x;
			b->terrain[c] = sc->terrain;
			b->terrain_colour[c] = sc->colour;
			b->terrain_dir[c] = sc->dir;
			b->piece[c] = sc->piece;
			b->colour[c] = sc->piece ? sc->colour : 0;
		}
	}
	const char *ow = rules->oneway_field ? lk_record_get(rec, "oneway") : NULL;
	while (ow && *ow) {
		int x, y, used = 0;
		char d;
		while (*ow == ' ' || *ow == '\t')
			ow++;
		if (!*ow)
			break;
		if (sscanf(ow, "%d,%d,%c%n", &x, &y, &d, &used) != 3 || slide_dir_of_letter(d) < 0 ||
		    x < 0 || y < 0 || x >= w || y >= h) {
			lk_strbuf_addf(err, "oneway: expected x,y,d entries (d one of u r d l) on the "
				       "board, at '%.12s'", ow);
			*line = (size_t)lk_record_find(rec, "oneway");
			lk_slide_board_release(b);
			return -1;
		}
		int dir = slide_dir_of_letter(d), nx = x + lk_dir_dx[dir], ny = y + lk_dir_dy[dir];
		/* Passing from (x,y) towards d is allowed; coming back is not. */
		if (nx >= 0 && ny >= 0 && nx < w && ny < h)
			b->oneway[ny * w + nx] |= (uint8_t)(1u << lk_dir_opposite((enum lk_dir)dir));
		ow += used;
	}
	int bad = -1;
	const char *msg = rules->check ? rules->check(b, &bad) : NULL;
	if (msg) {
		lk_strbuf_addstr(err, msg);
		*line = bad >= 0 ? first + (size_t)(bad / w) : first;
		lk_slide_board_release(b);
		return -1;
	}
	return 0;
}

int slide_validate(const struct slide_rules *rules, const struct lk_record *rec,
		   struct lk_strbuf *err, size_t *line)
{
	struct lk_slide_board b;
	if (read_board(rules, rec, &b, err, line) < 0)
		return -1;
	/* Distinct kinds of piece must fit the key's nibbles. */
	int kinds = 0;
	uint16_t seen[SLIDE_MAX_KINDS + 1];
	for (int c = 0; c < b.width * b.height; c++) {
		if (!b.piece[c])
			continue;
		uint16_t k = (uint16_t)(b.piece[c] << 8 | b.colour[c]);
		bool known = false;
		for (int i = 0; i < kinds; i++)
			known |= seen[i] == k;
		if (known)
			continue;
		if (kinds == SLIDE_MAX_KINDS) {
			lk_strbuf_addf(err, "more than %d kinds of piece", SLIDE_MAX_KINDS);
			lk_slide_board_release(&b);
			return -1;
		}
		seen[kinds++] = k;
	}
	lk_slide_board_release(&b);
	return 0;
}

struct lk_level *slide_new_level(const struct slide_rules *rules, const struct lk_game *game,
				 const struct lk_record *rec)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct slide_level *s = lk_xcalloc(1, sizeof *s);
	if (read_board(rules, rec, &s->board, &err, &line) < 0) {
		lk_strbuf_release(&err);
		free(s);
		return NULL;
	}
	lk_strbuf_release(&err);
	s->rules = rules;
	struct lk_slide_board *b = &s->board;
	int n = b->width * b->height;
	s->slot_cell = lk_xmalloc((size_t)n * sizeof *s->slot_cell);
	s->cell_slot = lk_xmalloc((size_t)n * sizeof *s->cell_slot);
	s->pit_cell = lk_xmalloc((size_t)n * sizeof *s->pit_cell);
	for (int c = 0; c < n; c++) {
		uint8_t t = b->terrain[c];
		s->cell_slot[c] = -1;
		if (t == LK_T_FLOOR || t == LK_T_MUD || t == LK_T_PIT) {
			s->cell_slot[c] = s->nslots;
			s->slot_cell[s->nslots++] = c;
		}
		if (t == LK_T_PIT)
			s->pit_cell[s->npits++] = c;
		if (b->piece[c]) {
			int k = 0;
			while (k < s->nkinds && !(s->kind_piece[k] == b->piece[c] &&
						  s->kind_colour[k] == b->colour[c]))
				k++;
			if (k == s->nkinds) {
				s->kind_piece[k] = b->piece[c];
				s->kind_colour[k] = b->colour[c];
				s->kind_of[b->piece[c] & 7][b->colour[c] & 31] = (uint8_t)(k + 1);
				s->nkinds++;
			}
			if (b->piece[c] == LK_P_SKIDDY)
				s->colours_used |= (uint8_t)(1u << (b->colour[c] & 7));
		}
	}
	const char *ow = lk_record_get(rec, "oneway");
	s->oneway_text = ow && rules->oneway_field ? lk_xstrdup(ow) : NULL;
	s->piece_bytes = ((size_t)s->nslots + 1) / 2;
	s->pit_bytes = ((size_t)s->npits + 7) / 8;
	s->base.game = game;
	s->base.key_size = s->piece_bytes + s->pit_bytes + 1;
	s->base.max_successors = 4;
	s->base.scratch_size = slide_scratch_size(s);
	s->base.metric = "moves";
	s->base.facts = slide_fact_names;
	s->base.nfacts = SLIDE_NFACTS;
	return &s->base;
}

void slide_free_level(struct lk_level *level)
{
	struct slide_level *s = (struct slide_level *)level;
	lk_slide_board_release(&s->board);
	free(s->slot_cell);
	free(s->cell_slot);
	free(s->pit_cell);
	free(s->oneway_text);
	free(s);
}
