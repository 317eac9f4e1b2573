/*
 * lightsout_draw.c - Lights Out on a canvas (canvas.h) and played back:
 * the board's buttons once, each light lit (yellow, marked with a star
 * for readers who do not tell colours apart) or dark, and the states a
 * solution passes through (game.h's replay_keys).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/canvas.h"
#include "lightsout.h"

static const struct lk_paint board_paint = { .fill = 0x2b2b35 };
static const struct lk_paint hole_paint = { .fill = 0xebe6d7 };
static const struct lk_paint lit_paint = { .fill = 0xf0e442, .stroke = 0x8a7f00, .width = 0.06 };
static const struct lk_paint dark_paint = { .fill = 0x55555f, .stroke = 0x1a1a20, .width = 0.06 };
static const struct lk_paint star_paint = { .fill = 0x000000, .bold = true };

void lightsout_draw(const struct lk_level *level, const void *key, const char *placement,
		    struct lk_canvas *c)
{
	(void)placement;
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	const unsigned char *k = key ? key : s->start;
	lk_canvas_size(c, s->width, s->height);
	if (lk_canvas_begin_board(c)) {
		lk_canvas_layer(c, LK_LAYER_GROUND);
		for (int p = 0; p < s->width * s->height; p++)
			lk_canvas_rect(c, p % s->width, p / s->width, 1, 1,
				       s->cell_at[p] < 0 ? &hole_paint : &board_paint);
		lk_canvas_end_board(c);
	}
	lk_canvas_layer(c, LK_LAYER_PIECES);
	for (int i = 0; i < s->ncells; i++) {
		bool on = k[i / 8] >> (i % 8) & 1;
		const char *name = on ? "lightsout.on" : "lightsout.off";
		if (lk_canvas_begin_symbol(c, name, on ? "light on" : "light off")) {
			lk_canvas_round_rect(c, 0.1, 0.1, 0.8, 0.8, 0.14, on ? &lit_paint : &dark_paint);
			if (on)
				lk_canvas_text(c, 0.5, 0.55, 0.5, &star_paint, "*");
			lk_canvas_end_symbol(c);
		}
		lk_canvas_use(c, name, s->pos_of[i] % s->width, s->pos_of[i] / s->width, 0);
	}
}

struct frames {
	unsigned char *keys;
	size_t n, alloc, ks;
};

static void add_frame(void *vctx, const unsigned char *key, int cell)
{
	(void)cell;
	struct frames *f = vctx;
	LK_ALLOC_GROW(f->keys, (f->n + 1) * f->ks, f->alloc);
	memcpy(f->keys + f->n * f->ks, key, f->ks);
	f->n++;
}

int lightsout_replay_keys(const struct lk_level *level, const char *solution,
			  unsigned char **keys, size_t *nkeys, struct lk_strbuf *err)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	struct frames f = { NULL, 0, 0, level->key_size };
	unsigned char *key = lk_xmalloc(f.ks);
	bool solved;
	memcpy(key, s->start, f.ks);
	add_frame(&f, key, -1);
	int rc = lightsout_play(s, solution, key, add_frame, &f, &solved, err);
	free(key);
	if (rc < 0) {
		free(f.keys);
		return -1;
	}
	*keys = f.keys;
	*nkeys = f.n;
	return 0;
}
