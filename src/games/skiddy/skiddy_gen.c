/*
 * skiddy_gen.c - a Skiddy generator with the inputs the article lists:
 * board size (default: random from 5x4 to 8x7), up to two extra moving
 * block types with counts (crates=N, ice=N), at least two red skiddies
 * (reds=N, default 2), more colours (colours=K in all, default 1 or 2 at
 * random, each=N skiddies of every other colour, default 2), the share of
 * static blocks inside (blocks=PERCENT, default 0-20 at random), pits=N,
 * exits per colour (exits=N, default 1) and whether exits of different
 * colours may be neighbours (neighbours=yes|no, default yes).  The moves of
 * a perfect (max-combo) solution and the star rating wanted are the gen
 * options --min-moves, --max-moves and --stars, checked on the whole-graph
 * analysis by the generation loop.
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/generate.h"
#include "levelkit/grid.h"

struct skiddy_gen {
	long reds, colours, each, crates, ice, blocks, pits, exits;
	bool neighbours;
	int w, h;           /* 0: random */
};

static const char *const skiddy_params[] = { "reds", "colours", "each", "crates", "ice", "blocks",
					     "pits", "exits", "neighbours", NULL };

static void *skiddy_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct skiddy_gen *s = lk_xcalloc(1, sizeof *s);
	for (size_t i = 0; i < o->nparams; i++) {
		bool known = false;
		for (size_t k = 0; skiddy_params[k]; k++)
			known |= strcmp(o->param_keys[i], skiddy_params[k]) == 0;
		if (!known) {
			lk_strbuf_addf(err, "generator random (skiddy) has no parameter '%s'", o->param_keys[i]);
			goto fail;
		}
	}
	s->w = o->width;
	s->h = o->height;
	if ((s->w || s->h) && !((s->w >= 5 && s->w <= 8 && s->h >= 4 && s->h <= 7) ||
				(s->h >= 5 && s->h <= 8 && s->w >= 4 && s->w <= 7))) {
		lk_strbuf_addf(err, "--size %dx%d: skiddy boards are 5x4 to 8x7", s->w, s->h);
		goto fail;
	}
	if (lk_gen_param_int(o, "reds", 2, 2, 8, &s->reds, err) < 0 ||
	    lk_gen_param_int(o, "colours", 0, 1, 5, &s->colours, err) < 0 ||
	    lk_gen_param_int(o, "each", 2, 1, 8, &s->each, err) < 0 ||
	    lk_gen_param_int(o, "crates", 0, 0, 10, &s->crates, err) < 0 ||
	    lk_gen_param_int(o, "ice", 0, 0, 10, &s->ice, err) < 0 ||
	    lk_gen_param_int(o, "blocks", -1, 0, 80, &s->blocks, err) < 0 ||
	    lk_gen_param_int(o, "pits", 0, 0, 10, &s->pits, err) < 0 ||
	    lk_gen_param_int(o, "exits", 1, 1, 4, &s->exits, err) < 0)
		goto fail;
	const char *nb = lk_gen_param(o, "neighbours");
	s->neighbours = !nb || strcmp(nb, "yes") == 0;
	if (nb && strcmp(nb, "yes") && strcmp(nb, "no")) {
		lk_strbuf_addf(err, "--param neighbours=%s: yes or no", nb);
		goto fail;
	}
	return s;
fail:
	free(s);
	return NULL;
}

/* A random free inside cell, or -1. */
static int pick_inside(const struct lk_grid *g, struct lk_rng *rng)
{
	int n = 0;
	for (int y = 1; y < g->height - 1; y++)
		for (int x = 1; x < g->width - 1; x++)
			n += lk_grid_get(g, x, y) == ' ';
	if (!n)
		return -1;
	int k = (int)lk_rng_below(rng, (uint32_t)n);
	for (int y = 1; y < g->height - 1; y++)
		for (int x = 1; x < g->width - 1; x++)
			if (lk_grid_get(g, x, y) == ' ' && k-- == 0)
				return y * g->width + x;
	return -1;
}

/* Is border cell c next to an exit of another colour? */
static bool beside_other_exit(const struct lk_grid *g, int c, char exit)
{
	for (int d = 0; d < 4; d++) {
		int x = c % g->width + lk_dir_dx[d], y = c / g->width + lk_dir_dy[d];
		if (!lk_grid_inside(g, x, y))
			continue;
		char ch = lk_grid_get(g, x, y);
		if (ch != '#' && ch != ' ' && ch >= 'A' && ch <= 'Z' && ch != exit && ch != 'X' &&
		    ch != 'O' && ch != 'C' && ch != 'I')
			return true;
	}
	return false;
}

static int skiddy_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			    struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	(void)o;
	const struct skiddy_gen *s = w->state;
	int width = s->w ? s->w : 5 + (int)lk_rng_below(rng, 4);
	int height = s->h ? s->h : 4 + (int)lk_rng_below(rng, 4);
	struct lk_grid g;
	lk_grid_init(&g, width, height, ' ');
	for (int x = 0; x < width; x++) {
		lk_grid_set(&g, x, 0, '#');
		lk_grid_set(&g, x, height - 1, '#');
	}
	for (int y = 0; y < height; y++) {
		lk_grid_set(&g, 0, y, '#');
		lk_grid_set(&g, width - 1, y, '#');
	}
	static const char exits[] = "RGBYP";
	long colours = s->colours ? s->colours : 1 + (long)lk_rng_below(rng, 2);
	*why = LK_REJECT_INVALID;
	int rc = -1;
	/* Exits on the border, corners excluded. */
	int border[64], nborder = 0;
	for (int x = 1; x < width - 1; x++) {
		border[nborder++] = x;
		border[nborder++] = (height - 1) * width + x;
	}
	for (int y = 1; y < height - 1; y++) {
		border[nborder++] = y * width;
		border[nborder++] = y * width + width - 1;
	}
	for (long c = 0; c < colours; c++) {
		for (long e = 0; e < s->exits; e++) {
			int tries = 0, at;
			do {
				at = border[lk_rng_below(rng, (uint32_t)nborder)];
			} while (++tries < 100 && (g.cells[at] != '#' ||
						    (!s->neighbours && beside_other_exit(&g, at, exits[c]))));
			if (tries == 100)
				goto out;
			g.cells[at] = exits[c];
		}
	}
	int inside = (width - 2) * (height - 2);
	long blocks = s->blocks >= 0 ? s->blocks : (long)lk_rng_below(rng, 21);
	long nblocks = blocks * inside / 100;
	struct { char ch; long n; } put[] = {
		{ 'X', nblocks }, { 'O', s->pits }, { 'C', s->crates }, { 'I', s->ice },
		{ 'r', s->reds }, { 'g', colours > 1 ? s->each : 0 }, { 'b', colours > 2 ? s->each : 0 },
		{ 'y', colours > 3 ? s->each : 0 }, { 'p', colours > 4 ? s->each : 0 },
	};
	for (size_t k = 0; k < sizeof put / sizeof put[0]; k++) {
		for (long i = 0; i < put[k].n; i++) {
			int c = pick_inside(&g, rng);
			if (c < 0)
				goto out;
			g.cells[c] = put[k].ch;
		}
	}
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_grid_write(&g, &text, '\0');
	lk_record_set_grid(rec, text.buf);
	lk_record_set(rec, "game", "skiddy");
	lk_strbuf_release(&text);
	rc = 0;
out:
	lk_grid_release(&g);
	return rc;
}

static void skiddy_free(void *state)
{
	free(state);
}

/* The star rating (skiddy.c) as an acceptance threshold: --stars n. */
static const struct lk_gen_field skiddy_fields[] = {
	{ .name = "stars", .noun = "star rating", .rating = true, .max = 3, .too_low = "too-few-stars" },
	{ .name = NULL },
};

const struct lk_generator lk_gen_skiddy_random = {
	.game = "skiddy",
	.name = "random",
	.summary = "random boards from the article's inputs, kept by stars and perfect-solution moves",
	.params_help = "reds=N (2), colours=K, each=N (2), crates=N, ice=N, blocks=PERCENT, pits=N, "
		       "exits=N (1), neighbours=yes|no",
	.size_help = "at random from 5x4 to 8x7",
	/* half the levels would take 1 or 2 moves (docs/games/skiddy.md) */
	.default_min_moves = 4,
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(DIFFICULTY) | LK_GEN_ACCEPT(DEAD_ENDS),
	.fields = skiddy_fields,
	.new_state = skiddy_new,
	.free_state = skiddy_free,
	.candidate = skiddy_candidate,
};
