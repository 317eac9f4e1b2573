/*
 * slide_game.c - the slide games' state space: packing states, moves
 * through the simulator, the win, the notation, the canonical form (see
 * slide_game.h; reading a level is slide_level.c).
 */
#include "slide_game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"

/* ---------------------------------------------------------- the states */

/* Pack the pieces standing on `cells` (entries < 0 or empty are skipped:
 * the slot list for a whole board, the simulator's members after a move). */
static void pack(const struct slide_level *s, const struct lk_slide_board *b, const int *cells,
		 int ncells, uint8_t flags, uint8_t *key)
{
	memset(key, 0, s->base.key_size);
	for (int j = 0; j < ncells; j++) {
		int c = cells[j];
		if (c < 0 || !b->piece[c])
			continue;
		int i = s->cell_slot[c];
		key[i / 2] |= (uint8_t)(s->kind_of[b->piece[c] & 7][b->colour[c] & 31] << ((i & 1) * 4));
	}
	for (int i = 0; i < s->npits; i++)
		if (b->trapped[s->pit_cell[i]])
			key[s->piece_bytes + (size_t)i / 8] |= (uint8_t)(1u << (i & 7));
	key[s->base.key_size - 1] = flags;
}

static void unpack(const struct slide_level *s, const uint8_t *key, struct lk_slide_board *b)
{
	size_t n = (size_t)b->width * (size_t)b->height;
	memset(b->piece, 0, n);
	memset(b->colour, 0, n);
	memset(b->trapped, 0, n);
	if (b->pieces)
		b->npieces = 0;
	/* Most slots are empty: skip whole empty bytes (two slots each). */
	for (size_t byte = 0; byte < s->piece_bytes; byte++) {
		if (!key[byte])
			continue;
		for (int i = (int)byte * 2; i < (int)byte * 2 + 2 && i < s->nslots; i++) {
			int k = (key[byte] >> ((i & 1) * 4)) & 15;
			if (!k)
				continue;
			int c = s->slot_cell[i];
			b->piece[c] = s->kind_piece[k - 1];
			b->colour[c] = s->kind_colour[k - 1];
			if (b->pieces)
				b->pieces[b->npieces++] = c;
		}
	}
	for (int i = 0; i < s->npits; i++)
		if (key[s->piece_bytes + (size_t)i / 8] >> (i & 7) & 1)
			b->trapped[s->pit_cell[i]] = 1;
}

/* The scratch block: the struct, then its arrays, all inside memory the
 * solver owns and frees without knowing what is in it. */
static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

size_t slide_scratch_size(const struct slide_level *s)
{
	size_t n = (size_t)s->board.width * (size_t)s->board.height;
	return align8(sizeof(struct slide_scratch)) + 14 * align8(n) + 16 * align8((n + 1) * sizeof(int));
}

static struct slide_scratch *scratch_of(const struct slide_level *s, void *scratch)
{
	struct slide_scratch *sc = scratch;
	if (sc->ready)
		return sc;
	const struct lk_slide_board *t = &s->board;
	size_t n = (size_t)t->width * (size_t)t->height;
	unsigned char *at = (unsigned char *)scratch + align8(sizeof *sc);
#define TAKE(ptr, bytes) do { (ptr) = (void *)at; at += align8(bytes); } while (0)
	struct lk_slide_board *b = &sc->board;
	b->width = t->width;
	b->height = t->height;
	TAKE(b->terrain, n);
	TAKE(b->terrain_colour, n);
	TAKE(b->terrain_dir, n);
	TAKE(b->oneway, n);
	TAKE(b->piece, n);
	TAKE(b->colour, n);
	TAKE(b->trapped, n);
	TAKE(sc->piece0, n);
	TAKE(sc->colour0, n);
	TAKE(sc->trapped0, n);
	TAKE(b->pieces, (n + 1) * sizeof(int));
	b->npieces = 0;
	struct lk_slide_scratch *m = &sc->sim;
	m->cells = (int)n;
	TAKE(m->moved, n);
	TAKE(m->kind, n);
	TAKE(m->col, n);
	TAKE(m->mark, n);
	TAKE(m->group, (n + 1) * sizeof(int));
	TAKE(m->members, (n + 1) * sizeof(int));
	TAKE(m->first, (n + 1) * sizeof(int));
	TAKE(m->order, (n + 1) * sizeof(int));
	TAKE(m->stack, (n + 1) * sizeof(int));
	TAKE(m->lead, (n + 1) * sizeof(int));
	TAKE(m->anteaters, (n + 1) * sizeof(int));
	TAKE(m->nb, 4 * (n + 1) * sizeof(int));
	TAKE(m->proj, 4 * (n + 1) * sizeof(int));
	m->prepared = false;
#undef TAKE
	memcpy(b->terrain, t->terrain, n);
	memcpy(b->terrain_colour, t->terrain_colour, n);
	memcpy(b->terrain_dir, t->terrain_dir, n);
	memcpy(b->oneway, t->oneway, n);
	sc->ready = true;
	return sc;
}

void slide_initial_state(const struct lk_level *level, void *key)
{
	const struct slide_level *s = (const struct slide_level *)level;
	pack(s, &s->board, s->slot_cell, s->nslots, 0, key);
}

static int count_skiddies(const struct lk_slide_board *b, int colour)
{
	int n = 0;
	for (int c = 0; c < b->width * b->height; c++)
		n += b->piece[c] == LK_P_SKIDDY && b->colour[c] == colour;
	return n;
}

static uint32_t fact_bits(const struct lk_slide_result *r)
{
	return (r->matched ? 1u << SLIDE_FACT_MATCH : 0u) | (r->pulled ? 1u << SLIDE_FACT_ANTEATER : 0u) |
	       (r->mud ? 1u << SLIDE_FACT_MUD : 0u) | (r->crates ? 1u << SLIDE_FACT_CRATE : 0u) |
	       (r->pits ? 1u << SLIDE_FACT_PIT : 0u);
}

/* The facts of a move code, as indices into slide_fact_names. */
static unsigned fact_list(uint32_t move, uint16_t *facts, unsigned max)
{
	unsigned n = 0;
	for (unsigned f = 0; f < SLIDE_NFACTS && n < max; f++)
		if ((move >> 2) & (1u << f))
			facts[n++] = (uint16_t)f;
	return n;
}

unsigned slide_move_facts(const struct lk_level *level, const void *key, uint32_t move,
			  uint16_t *facts, unsigned max)
{
	(void)level;
	(void)key;
	return fact_list(move, facts, max);
}

/* Apply move d to the state unpacked in sc->board (flags: its flag byte);
 * false if it changes nothing.  *facts gets the move's fact bits. */
static bool apply(const struct slide_level *s, struct slide_scratch *sc, uint8_t flags, int d,
		  uint8_t *out, uint32_t *facts)
{
	struct lk_slide_result r;
	lk_slide_move(&sc->board, d, &sc->sim, &r);
	*facts = fact_bits(&r);
	if (!r.changed)
		return false;
	if (r.lost)
		flags |= SLIDE_FLAG_LOST;
	if (s->rules->combos) {
		for (int c = 0; c < 7; c++)
			if (r.left[c] && count_skiddies(&sc->board, c) > 0)
				flags |= (uint8_t)(2u << c);   /* part of the colour stayed */
	}
	pack(s, &sc->board, sc->sim.members, sc->sim.first[sc->sim.ngroups], flags, out);
	return true;
}

/* Apply move d to key; false if it changes nothing (or the game is lost). */
static bool move(const struct slide_level *s, struct slide_scratch *sc, const uint8_t *key, int d,
		 uint8_t *out, uint32_t *facts)
{
	uint8_t flags = key[s->base.key_size - 1];
	*facts = 0;
	if (flags & SLIDE_FLAG_LOST)
		return false;   /* a lost fruit ends the game */
	unpack(s, key, &sc->board);
	return apply(s, sc, flags, d, out, facts);
}

unsigned slide_successors(const struct lk_level *level, const void *key, void *scratch,
			  unsigned char *keys_out, struct lk_edge *edges)
{
	const struct slide_level *s = (const struct slide_level *)level;
	struct slide_scratch *sc = scratch_of(s, scratch);
	const uint8_t *k = key;
	int npieces;
	if (k[s->base.key_size - 1] & SLIDE_FLAG_LOST)
		return 0;
	/* Unpack once; each move starts from a copy. */
	size_t cells = (size_t)s->board.width * (size_t)s->board.height;
	unpack(s, key, &sc->board);
	memcpy(sc->piece0, sc->board.piece, cells);
	memcpy(sc->colour0, sc->board.colour, cells);
	memcpy(sc->trapped0, sc->board.trapped, cells);
	npieces = sc->board.npieces;
	unsigned n = 0;
	for (int d = 0; d < 4; d++) {
		if (d) {
			memcpy(sc->board.piece, sc->piece0, cells);
			memcpy(sc->board.colour, sc->colour0, cells);
			memcpy(sc->board.trapped, sc->trapped0, cells);
			sc->board.npieces = npieces;   /* the list is the start's */
		}
		uint32_t facts;
		if (apply(s, sc, k[s->base.key_size - 1], d, keys_out + n * s->base.key_size, &facts)) {
			edges[n].move = (uint32_t)d | facts << 2;
			edges[n++].cost = 1;
		}
	}
	return n;
}

bool slide_is_goal(const struct lk_level *level, const void *key)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const uint8_t *k = key;
	if (k[s->base.key_size - 1] & SLIDE_FLAG_LOST)
		return false;
	uint8_t target = s->rules->win_without_skiddies ? LK_P_SKIDDY : LK_P_FRUIT;
	for (int i = 0; i < s->nslots; i++) {
		int kind = (k[i / 2] >> ((i & 1) * 4)) & 15;
		if (kind && s->kind_piece[kind - 1] == target)
			return false;
	}
	return true;
}

unsigned slide_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	(void)scratch;
	const struct slide_level *s = (const struct slide_level *)level;
	if (!s->thesis)
		return 0;
	const uint8_t *k = key;
	uint8_t target = s->rules->win_without_skiddies ? LK_P_SKIDDY : LK_P_FRUIT;
	unsigned left = 0;
	for (int i = 0; i < s->nslots; i++) {
		int kind = (k[i / 2] >> ((i & 1) * 4)) & 15;
		left += kind && s->kind_piece[kind - 1] == target;
	}
	return left;
}

unsigned slide_win_kind(const struct lk_level *level, const void *key)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const uint8_t *k = key;
	if (!s->rules->combos)
		return SLIDE_WIN_PLAIN;
	return (k[s->base.key_size - 1] & ~SLIDE_FLAG_LOST) ? SLIDE_WIN_PLAIN : SLIDE_WIN_COMBO;
}

/* ------------------------------------------------------ notation */

void slide_label_path(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		      struct lk_moves *out)
{
	const struct slide_level *s = (const struct slide_level *)level;
	void *block = lk_xcalloc(1, s->base.scratch_size);
	struct slide_scratch *sc = scratch_of(s, block);
	size_t ks = s->base.key_size;
	uint8_t *next = lk_xmalloc(ks);
	for (size_t i = 1; i < nkeys; i++) {
		int d = 0;
		uint32_t bits = 0;
		for (; d < 4; d++)
			if (move(s, sc, keys + (i - 1) * ks, d, next, &bits) &&
			    memcmp(next, keys + i * ks, ks) == 0)
				break;
		char c = d < 4 ? lk_dir_letter[d] : '?';
		uint16_t facts[SLIDE_NFACTS];
		unsigned nf = d < 4 ? fact_list(bits << 2, facts, SLIDE_NFACTS) : 0;
		lk_moves_add(out, &c, 1, 1, facts, nf);
	}
	free(next);
	free(block);
}

void slide_label_move(const struct lk_level *level, const void *key, uint32_t move,
		      struct lk_moves *out)
{
	(void)level;
	(void)key;
	char c = lk_dir_letter[move & 3u];
	uint16_t facts[SLIDE_NFACTS];
	unsigned nf = fact_list(move & ~3u, facts, SLIDE_NFACTS);
	lk_moves_add(out, &c, 1, 1, facts, nf);
}

int slide_replay(const struct lk_level *level, const char *solution, struct lk_moves *moves,
		 bool *solved, struct lk_strbuf *err)
{
	const struct slide_level *s = (const struct slide_level *)level;
	void *block = lk_xcalloc(1, s->base.scratch_size);
	struct slide_scratch *sc = scratch_of(s, block);
	size_t ks = s->base.key_size;
	uint8_t *cur = lk_xmalloc(ks), *next = lk_xmalloc(ks);
	int rc = 0;
	unsigned long step = 0;
	slide_initial_state(level, cur);
	for (const char *p = solution; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		int d = slide_dir_of_letter(*p);
		if (d < 0) {
			lk_strbuf_addf(err, "'%c' is not a move (use u, r, d, l)", *p);
			rc = -1;
			break;
		}
		step++;
		uint32_t bits;
		uint16_t facts[SLIDE_NFACTS];
		if (move(s, sc, cur, d, next, &bits))
			memcpy(cur, next, ks);
		else
			bits = 0;
		lk_moves_add(moves, p, 1, 1, facts, fact_list(bits << 2, facts, SLIDE_NFACTS));
		/* A solution ends when the level is solved: moves after that
		 * are an error, not a longer solution. */
		bool more = false;
		for (const char *rest = p + 1; !more && *rest; rest++)
			more = !isspace((unsigned char)*rest);
		if (more && slide_is_goal(level, cur)) {
			lk_strbuf_addf(err, "the level is solved after move %lu, but more moves follow",
				       step);
			rc = -1;
			break;
		}
	}
	*solved = rc == 0 && slide_is_goal(level, cur);
	free(cur);
	free(next);
	free(block);
	return rc;
}

/* The legend character for a cell of b. */
static char char_at(const struct slide_rules *rules, const struct lk_slide_board *b, int c, int dir_map[4])
{
	for (int i = 0; i < rules->nlegend; i++) {
		const struct slide_char *sc = &rules->legend[i];
		if (b->piece[c]) {
			if (sc->piece == b->piece[c] && sc->colour == b->colour[c])
				return sc->ch;
		} else if (!sc->piece && sc->terrain == b->terrain[c] &&
			   (sc->terrain != LK_T_EXIT || sc->colour == b->terrain_colour[c]) &&
			   (sc->terrain != LK_T_ANTEATER || sc->dir == dir_map[b->terrain_dir[c]])) {
			return sc->ch;
		}
	}
	return ' ';
}

void slide_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	const struct slide_level *s = (const struct slide_level *)level;
	struct lk_slide_board b = s->board;   /* terrain shared, pieces our own */
	size_t n = (size_t)b.width * (size_t)b.height;
	int same[4] = { 0, 1, 2, 3 };
	b.piece = lk_xcalloc(n, 1);
	b.colour = lk_xcalloc(n, 1);
	b.trapped = lk_xcalloc(n, 1);
	unpack(s, key, &b);
	for (int y = 0; y < b.height; y++) {
		size_t start = out->len;
		for (int x = 0; x < b.width; x++)
			lk_strbuf_addch(out, char_at(s->rules, &b, y * b.width + x, same));
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->len--;
		out->buf[out->len] = '\0';
		lk_strbuf_addch(out, '\n');
	}
	free(b.piece);
	free(b.colour);
	free(b.trapped);
}

/* Where symmetry sym (as lk_grid_transform) sends a direction. */
static int map_dir(int sym, int d)
{
	int sx = lk_dir_dx[d], sy = lk_dir_dy[d], a, bb;
	if (sym & 4) {
		bb = sx;
		a = sy;
	} else {
		a = sx;
		bb = sy;
	}
	int dx = (sym & 1) ? -a : a, dy = (sym & 2) ? -bb : bb;
	for (int k = 0; k < 4; k++)
		if (lk_dir_dx[k] == dx && lk_dir_dy[k] == dy)
			return k;
	return d;
}

void slide_canonical(const struct lk_level *level, struct lk_strbuf *out)
{
	const struct slide_level *s = (const struct slide_level *)level;
	const struct lk_slide_board *b = &s->board;
	size_t n = (size_t)b->width * (size_t)b->height;
	char *chars = lk_xmalloc(n);
	uint8_t *ways = lk_xmalloc(n);
	struct lk_strbuf best = LK_STRBUF_INIT, text = LK_STRBUF_INIT;
	for (int sym = 0; sym < LK_SYM_COUNT; sym++) {
		bool tr = sym & 4;
		int w = tr ? b->height : b->width, h = tr ? b->width : b->height;
		int dir_map[4];
		for (int d = 0; d < 4; d++)
			dir_map[d] = map_dir(sym, d);
		/* The board in this orientation: characters (anteaters turned)
		 * and one-way borders (turned too). */
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				int sx = (sym & 1) ? w - 1 - x : x, sy = (sym & 2) ? h - 1 - y : y;
				if (tr) {
					int t = sx;
					sx = sy;
					sy = t;
				}
				int c = sy * b->width + sx;
				chars[y * w + x] = char_at(s->rules, b, c, dir_map);
				uint8_t m = 0;
				for (int d = 0; d < 4; d++)
					if (b->oneway[c] & (1u << d))
						m |= (uint8_t)(1u << dir_map[d]);
				ways[y * w + x] = m;
			}
		}
		/* Up to translation: what is not wall, with one ring of wall. */
		int x0 = w, y0 = h, x1 = -1, y1 = -1;
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				if (chars[y * w + x] != '#') {
					if (x < x0) x0 = x;
					if (y < y0) y0 = y;
					if (x > x1) x1 = x;
					if (y > y1) y1 = y;
				}
		x0 = x0 > 0 ? x0 - 1 : 0;
		y0 = y0 > 0 ? y0 - 1 : 0;
		x1 = x1 + 1 < w ? x1 + 1 : w - 1;
		y1 = y1 + 1 < h ? y1 + 1 : h - 1;
		lk_strbuf_reset(&text);
		struct lk_strbuf list = LK_STRBUF_INIT;
		for (int y = y0; y <= y1; y++) {
			for (int x = x0; x <= x1; x++) {
				lk_strbuf_addch(&text, chars[y * w + x]);
				for (int d = 0; d < 4; d++)
					if (ways[y * w + x] & (1u << d))
						lk_strbuf_addf(&list, " %d,%d,%c", x - x0, y - y0, lk_dir_letter[d]);
			}
			lk_strbuf_addch(&text, '\n');
		}
		if (list.len)
			lk_strbuf_addf(&text, "no-exit:%s\n", list.buf);
		lk_strbuf_release(&list);
		if (sym == 0 || strcmp(text.buf, best.buf) < 0) {
			lk_strbuf_reset(&best);
			lk_strbuf_add(&best, text.buf, text.len);
		}
	}
	lk_strbuf_add(out, best.buf, best.len);
	lk_strbuf_release(&best);
	lk_strbuf_release(&text);
	free(chars);
	free(ways);
}

/* ------------------------------------------------------ vtable */

const char *const slide_metrics[] = { "moves", NULL };

int slide_vt_validate(const struct lk_game *game, const void *def, const struct lk_record *rec,
		      const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line)
{
	(void)def;
	(void)opt;
	return slide_validate(game->data, rec, err, line);
}

struct lk_level *slide_vt_new_level(const struct lk_game *game, const void *def,
				    const struct lk_record *rec, const struct lk_level_options *opt)
{
	(void)def;
	struct lk_level *level = slide_new_level(game->data, game, rec);
	if (level && opt && opt->thesis) {
		/* the thesis's three searches, under its heuristic (which a
		 * move can lower by two: a pair of fruit matched) */
		((struct slide_level *)level)->thesis = true;
		level->has_heuristic = true;
		level->heuristic_admissible = false;
	} else if (level) {
		level->heuristic_admissible = true;   /* 0 */
	}
	return level;
}

/* ------------------------------------- for slide_draw.c, slide_frames.c */

void slide_unpack_key(const struct lk_level *level, const void *key, struct lk_slide_board *b)
{
	unpack((const struct slide_level *)level, key, b);
}

bool slide_move_key(const struct lk_level *level, void *scratch, const void *key, int dir,
		    void *out)
{
	const struct slide_level *s = (const struct slide_level *)level;
	uint32_t facts;
	return move(s, scratch_of(s, scratch), key, dir, out, &facts);
}
