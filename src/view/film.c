/*
 * film.c - the frames of a record, for the page to play back without
 * knowing the game.
 *
 * The game draws each state its solution passes through (replay_keys); a
 * constraint game draws its empty level and its placement.  Every
 * primitive any frame draws is numbered once (the atlas, interned by its
 * encoded text), so a frame is a set of numbers, and a frame after the
 * first is stored as the numbers that appear or disappear: stepping
 * forwards or backwards toggles the same numbers.  What the game draws as
 * its board is drawn in the first frame only and stays.  The atlas is then
 * put in drawing order (layer, then first appearance), so the page draws
 * a frame by walking its numbers in order.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/hash.h"
#include "levelkit/registry.h"
#include "view_internal.h"

struct film_maker {
	struct lk_canvas canvas;
	struct view_map map;
	/* An entry is found by a binary key (cheaper to make than its text,
	 * and most primitives of a frame are old ones); its text is made
	 * once, when it is new. */
	struct lk_keyed index;        /* the entries' keys, numbered */
	struct lk_strbuf code;        /* the entries' text, back to back */
	size_t *code_off;             /* per entry: offset into code, then length */
	size_t *code_len;
	uint8_t *layer;               /* per entry */
	uint8_t *board;               /* per entry: part of the board */
	long *seen;                   /* per entry: last frame it was in */
	size_t nentries, entries_alloc, seen_alloc, layer_alloc, len_alloc, board_alloc;
	struct view_dict *dict;       /* of the film being made */
	/* frames */
	size_t *cur, *prev;
	size_t ncur, nprev, cur_alloc, prev_alloc;
	size_t *changes;              /* all later frames' changes */
	size_t nchanges, changes_alloc;
	size_t *frame_end;            /* per later frame: end of its changes */
	size_t nframe_end, frame_end_alloc;
	size_t *first;                /* the first frame */
	size_t nfirst, first_alloc;
	struct lk_strbuf scratch;
	/* the last frame's primitives and their entries: a frame mostly
	 * repeats the one before, primitive for primitive */
	struct lk_prim *last;
	size_t *last_id;
	size_t nlast, last_alloc, last_id_alloc;
};

struct film_maker *film_maker_new(void)
{
	struct film_maker *fm = lk_xcalloc(1, sizeof *fm);
	lk_canvas_init(&fm->canvas);
	view_map_init(&fm->map);
	lk_strbuf_init(&fm->code);
	lk_keyed_init(&fm->index);
	lk_strbuf_init(&fm->scratch);
	return fm;
}

void film_maker_free(struct film_maker *fm)
{
	if (!fm)
		return;
	lk_canvas_release(&fm->canvas);
	view_map_release(&fm->map);
	lk_strbuf_release(&fm->code);
	lk_keyed_release(&fm->index);
	lk_strbuf_release(&fm->scratch);
	free(fm->code_off);
	free(fm->code_len);
	free(fm->layer);
	free(fm->board);
	free(fm->seen);
	free(fm->cur);
	free(fm->prev);
	free(fm->changes);
	free(fm->frame_end);
	free(fm->first);
	free(fm->last);
	free(fm->last_id);
	free(fm);
}

void film_init(struct film *f)
{
	memset(f, 0, sizeof *f);
	lk_strbuf_init(&f->atlas);
	lk_strbuf_init(&f->first);
	lk_strbuf_init(&f->steps);
	lk_strbuf_init(&f->note);
}

void film_release(struct film *f)
{
	lk_strbuf_release(&f->atlas);
	lk_strbuf_release(&f->first);
	lk_strbuf_release(&f->steps);
	lk_strbuf_release(&f->note);
	free(f->legend);
	film_init(f);
}

/* ------------------------------------------------------------ the atlas */

/* A primitive's key: everything that tells it apart, in dictionary
 * numbers, as bytes. */
static void prim_key(const struct film_maker *fm, const struct lk_prim *p, struct lk_strbuf *t)
{
	int32_t head[8];
	int nv = p->kind == LK_PRIM_POLY ? 2 : 5;
	head[0] = p->kind | p->layer << 8;
	head[1] = (int32_t)(p->kind == LK_PRIM_USE ? fm->map.symbol[p->ref] : fm->map.paint[p->ref]);
	memcpy(head + 2, p->v, (size_t)nv * sizeof *head);
	lk_strbuf_reset(t);
	lk_strbuf_add(t, head, (size_t)(2 + nv) * sizeof *head);
	if (p->kind == LK_PRIM_POLY)
		lk_strbuf_add(t, fm->canvas.points + p->v[1], 2 * (size_t)p->v[0] * sizeof(int32_t));
	else if (p->kind == LK_PRIM_TEXT)
		lk_strbuf_addstr(t, lk_canvas_text_of(&fm->canvas, p));
}

/* The atlas number of a primitive, adding it when new. */
static size_t intern(struct film_maker *fm, const struct lk_prim *p)
{
	struct lk_strbuf *t = &fm->scratch;
	prim_key(fm, p, t);
	bool added;
	size_t e = lk_keyed_add(&fm->index, t->buf, t->len, &added);
	if (!added)
		return e;
	fm->nentries++;
	size_t alloc = fm->entries_alloc;
	LK_ALLOC_GROW(fm->code_off, e + 1, alloc);
	LK_ALLOC_GROW(fm->code_len, e + 1, fm->len_alloc);
	LK_ALLOC_GROW(fm->seen, e + 1, fm->seen_alloc);
	LK_ALLOC_GROW(fm->layer, e + 1, fm->layer_alloc);
	LK_ALLOC_GROW(fm->board, e + 1, fm->board_alloc);
	fm->entries_alloc = alloc;
	fm->code_off[e] = fm->code.len;
	view_encode_prim(&fm->canvas, p, &fm->map, &fm->code);
	fm->code_len[e] = fm->code.len - fm->code_off[e];
	fm->seen[e] = -1;
	fm->layer[e] = p->layer;
	fm->board[e] = 0;
	return e;
}

/* Take the canvas's frame: frame 0 whole, later frames as changes.  The
 * board is taken first and stays whatever the frame, so it takes part in
 * no change, even where a state's primitive looks the same. */
static void take_frame(struct film_maker *fm, long frame)
{
	struct lk_canvas *c = &fm->canvas;
	view_map_update(&fm->map, fm->dict, c);
	fm->ncur = 0;
	for (int pass = frame == 0 ? 0 : 1; pass < 2; pass++) {
		for (size_t i = 0; i < c->nprims; i++) {
			const struct lk_prim *p = &c->prims[i];
			if (p->board != (pass == 0))
				continue;
			/* The same primitive in the same place of the drawing as
			 * in the last frame is the same entry (the pools that
			 * polygons and text point into grow, so not for them). */
			size_t e;
			if (i < fm->nlast && p->kind != LK_PRIM_POLY && p->kind != LK_PRIM_TEXT &&
			    memcmp(p, &fm->last[i], sizeof *p) == 0)
				e = fm->last_id[i];
			else
				e = intern(fm, p);
			if (pass == 1) {
				LK_ALLOC_GROW(fm->last, i + 1, fm->last_alloc);
				LK_ALLOC_GROW(fm->last_id, i + 1, fm->last_id_alloc);
				fm->last[i] = *p;
				fm->last_id[i] = e;
			}
			if (pass == 0)
				fm->board[e] = 1;
			else if (fm->board[e])
				continue;
			if (fm->seen[e] == frame)
				continue;   /* drawn twice in one frame: once is enough */
			if (frame == 0) {
				LK_ALLOC_GROW(fm->first, fm->nfirst + 1, fm->first_alloc);
				fm->first[fm->nfirst++] = e;
			} else if (fm->seen[e] != frame - 1) {
				LK_ALLOC_GROW(fm->changes, fm->nchanges + 1, fm->changes_alloc);
				fm->changes[fm->nchanges++] = e;   /* appears */
			}
			fm->seen[e] = frame;
			if (pass == 1) {
				LK_ALLOC_GROW(fm->cur, fm->ncur + 1, fm->cur_alloc);
				fm->cur[fm->ncur++] = e;
			}
		}
	}
	fm->nlast = frame == 0 ? 0 : c->nprims;
	if (frame > 0) {
		for (size_t i = 0; i < fm->nprev; i++) {
			if (fm->seen[fm->prev[i]] == frame - 1) {
				LK_ALLOC_GROW(fm->changes, fm->nchanges + 1, fm->changes_alloc);
				fm->changes[fm->nchanges++] = fm->prev[i];   /* disappears */
			}
		}
		LK_ALLOC_GROW(fm->frame_end, fm->nframe_end + 1, fm->frame_end_alloc);
		fm->frame_end[fm->nframe_end++] = fm->nchanges;
	}
	size_t *t = fm->prev;
	size_t ta = fm->prev_alloc;
	fm->prev = fm->cur;
	fm->prev_alloc = fm->cur_alloc;
	fm->nprev = fm->ncur;
	fm->cur = t;
	fm->cur_alloc = ta;
}

static struct film_maker *sort_fm;   /* qsort has no context argument */

static int by_draw_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (sort_fm->layer[x] != sort_fm->layer[y])
		return sort_fm->layer[x] < sort_fm->layer[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int by_value(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Number the atlas in drawing order and write the film's text. */
static void write_film(struct film_maker *fm, struct film *f)
{
	size_t n = fm->nentries;
	size_t *order = lk_xmalloc((n ? n : 1) * sizeof *order);
	size_t *rank = lk_xmalloc((n ? n : 1) * sizeof *rank);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Layers are few: a counting pass would do, but n is small. */
	sort_fm = fm;
	qsort(order, n, sizeof *order, by_draw_order);
	sort_fm = NULL;
	for (size_t i = 0; i < n; i++) {
		rank[order[i]] = i;
		if (i)
			lk_strbuf_addch(&f->atlas, ';');
		lk_strbuf_add(&f->atlas, fm->code.buf + fm->code_off[order[i]], fm->code_len[order[i]]);
	}
	f->natlas = n;
	f->id_width = n <= 64 ? 1 : n <= 4096 ? 2 : n <= 262144 ? 3 : 4;
	for (size_t i = 0; i < fm->nfirst; i++)
		fm->first[i] = rank[fm->first[i]];
	qsort(fm->first, fm->nfirst, sizeof *fm->first, by_value);
	for (size_t i = 0; i < fm->nfirst; i++)
		film_put_id(&f->first, fm->first[i], f->id_width);
	size_t from = 0;
	for (size_t k = 0; k < fm->nframe_end; k++) {
		if (k)
			lk_strbuf_addch(&f->steps, '.');
		size_t to = fm->frame_end[k];
		for (size_t i = from; i < to; i++)
			fm->changes[i] = rank[fm->changes[i]];
		qsort(fm->changes + from, to - from, sizeof *fm->changes, by_value);
		for (size_t i = from; i < to; i++)
			film_put_id(&f->steps, fm->changes[i], f->id_width);
		from = to;
	}
	free(order);
	free(rank);
}

/* ------------------------------------------------------------ the frames */

static void start(struct film_maker *fm)
{
	lk_canvas_reset(&fm->canvas);
	view_map_release(&fm->map);
	lk_strbuf_reset(&fm->code);
	lk_keyed_clear(&fm->index);
	fm->nentries = fm->nfirst = fm->nchanges = fm->nframe_end = fm->nprev = fm->ncur = 0;
	fm->nlast = 0;
}

static void draw_frame(struct film_maker *fm, const struct lk_level *level, const void *key,
		       const char *placement, long frame)
{
	lk_canvas_clear(&fm->canvas);
	fm->canvas.skip_board = frame > 0;
	level->game->draw(level, key, placement, &fm->canvas);
	take_frame(fm, frame);
}

/* A state-space game: the start, then each state of the solution. */
static void state_frames(struct film_maker *fm, const struct lk_level *level, const char *solution,
			 struct film *f)
{
	unsigned char *keys = NULL;
	size_t nkeys = 0;
	if (solution && level->game->replay_keys) {
		if (level->game->replay_keys(level, solution, &keys, &nkeys, &f->note) < 0) {
			f->solution = FILM_BAD;
			nkeys = 0;
		} else {
			f->solution = level->game->is_goal(level, keys + (nkeys - 1) * level->key_size)
					      ? FILM_SOLVED : FILM_UNSOLVED;
		}
	} else if (solution) {
		f->solution = FILM_BAD;
		lk_strbuf_addstr(&f->note, "this game cannot play a solution back");
	}
	if (nkeys == 0) {
		free(keys);
		keys = lk_xmalloc(level->key_size);
		level->game->initial_state(level, keys);
		nkeys = 1;
	}
	for (size_t i = 0; i < nkeys; i++)
		draw_frame(fm, level, keys + i * level->key_size, NULL, (long)i);
	f->nframes = nkeys;
	free(keys);
}

/* A constraint game: the empty level, then the placement. */
static void placement_frames(struct film_maker *fm, const struct lk_level *level,
			     const char *solution, struct film *f)
{
	draw_frame(fm, level, NULL, NULL, 0);
	f->nframes = 1;
	if (!solution)
		return;
	bool valid = false;
	if (level->game->csp->verify(level, solution, &valid, &f->note) < 0) {
		f->solution = FILM_BAD;
		return;
	}
	f->solution = valid ? FILM_SOLVED : FILM_UNSOLVED;
	draw_frame(fm, level, NULL, solution, 1);
	f->nframes = 2;
}

void film_make(struct film_maker *fm, const struct lk_record *rec, struct view_dict *d,
	       struct film *f)
{
	const struct lk_game *game = lk_game_find(lk_record_game(rec));
	/* Every step a frame: Sokoban's default metric (pushes) would make
	 * walking free. */
	struct lk_level_options opt = { 0 };
	if (game && lk_name_in("moves", game->metrics))
		opt.metric = "moves";
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &opt, &f->note, &line);
	const char *solution = lk_record_get(rec, "solution");
	if (!level)
		return;
	if (!level->game->draw) {
		lk_strbuf_addf(&f->note, "game %s does not draw itself", level->game->name);
		lk_level_free(level);
		return;
	}
	start(fm);
	fm->dict = d;
	if (level->game->csp)
		placement_frames(fm, level, solution, f);
	else
		state_frames(fm, level, solution, f);
	lk_level_free(level);
	view_map_update(&fm->map, d, &fm->canvas);
	f->drawn = true;
	f->width = fm->canvas.width;
	f->height = fm->canvas.height;
	write_film(fm, f);
	for (size_t i = 0; i < fm->canvas.nsymbols; i++) {
		if (fm->canvas.symbols[i].used && fm->canvas.symbols[i].label) {
			LK_ALLOC_GROW(f->legend, f->nlegend + 1, f->legend_alloc);
			f->legend[f->nlegend++] = fm->map.symbol[i];
		}
	}
}
