/*
 * lightsout_gen.c - the Lights Out generator: a board (holes=N cells taken
 * out at random), every light off, then presses=N distinct cells pressed
 * at random.  Pressing is its own inverse, so the same presses solve the
 * level: every candidate is solvable, and the generation loop finds its
 * shortest solution (which may be shorter) and applies the thresholds.
 * Parameters: presses=N (default: 3 to half the cells, at random),
 * holes=N (0).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/generate.h"
#include "lightsout.h"

struct lightsout_gen {
	int w, h;
	long presses, holes;
};

static const char *const params[] = { "presses", "holes", NULL };

static void *lightsout_gen_new(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct lightsout_gen *g = lk_xcalloc(1, sizeof *g);
	g->w = o->width ? o->width : 4;
	g->h = o->height ? o->height : 4;
	for (size_t i = 0; i < o->nparams; i++) {
		bool known = false;
		for (size_t k = 0; params[k]; k++)
			known |= strcmp(o->param_keys[i], params[k]) == 0;
		if (!known) {
			lk_strbuf_addf(err, "generator random (lightsout) has no parameter '%s'",
				       o->param_keys[i]);
			goto fail;
		}
	}
	if (g->w < 2 || g->h < 2 || g->w > LIGHTSOUT_MAX_SIDE || g->h > LIGHTSOUT_MAX_SIDE) {
		lk_strbuf_addf(err, "--size %dx%d: lightsout boards are 2x2 to %dx%d", g->w, g->h,
			       LIGHTSOUT_MAX_SIDE, LIGHTSOUT_MAX_SIDE);
		goto fail;
	}
	long area = (long)g->w * g->h;
	if (lk_gen_param_int(o, "holes", 0, 0, area - 1, &g->holes, err) < 0 ||
	    lk_gen_param_int(o, "presses", 0, 1, area - g->holes, &g->presses, err) < 0)
		goto fail;
	return g;
fail:
	free(g);
	return NULL;
}

static void lightsout_gen_free(void *state)
{
	free(state);
}

/* Pick k distinct cells among those marked in `in` (n of them) at random
 * and mark them in out. */
static void pick(struct lk_rng *rng, const bool *in, int area, long k, bool *out)
{
	int *cand = lk_xmalloc((size_t)area * sizeof *cand), n = 0;
	for (int p = 0; p < area; p++)
		if (in[p])
			cand[n++] = p;
	for (long i = 0; i < k && n > 0; i++) {
		int j = (int)lk_rng_below(rng, (uint32_t)n);
		out[cand[j]] = true;
		cand[j] = cand[--n];
	}
	free(cand);
}

static int lightsout_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			       struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	(void)o;
	const struct lightsout_gen *g = w->state;
	int area = g->w * g->h;
	bool *board = lk_xmalloc((size_t)area), *hole = lk_xcalloc((size_t)area, 1);
	bool *pressed = lk_xcalloc((size_t)area, 1);
	bool *lit = lk_xcalloc((size_t)area, 1);
	memset(board, 1, (size_t)area);
	pick(rng, board, area, g->holes, hole);
	for (int p = 0; p < area; p++)
		board[p] = !hole[p];
	long cells = area - g->holes;
	long presses = g->presses ? g->presses
				  : 3 + (long)lk_rng_below(rng, (uint32_t)(cells / 2 > 3 ? cells / 2 - 2 : 1));
	pick(rng, board, area, presses, pressed);
	static const int dx[] = { 0, 1, 0, -1, 0 }, dy[] = { 0, 0, 1, 0, -1 };
	for (int p = 0; p < area; p++) {
		if (!pressed[p])
			continue;
		for (int d = 0; d < 5; d++) {
			int x = p % g->w + dx[d], y = p / g->w + dy[d];
			if (x >= 0 && y >= 0 && x < g->w && y < g->h && board[y * g->w + x])
				lit[y * g->w + x] ^= 1;
		}
	}
	struct lk_strbuf text = LK_STRBUF_INIT;
	for (int y = 0; y < g->h; y++) {
		for (int x = 0; x < g->w; x++) {
			int p = y * g->w + x;
			lk_strbuf_addch(&text, !board[p] ? '#' : lit[p] ? '*' : '.');
		}
		lk_strbuf_addch(&text, '\n');
	}
	lk_record_set_grid(rec, text.buf);
	lk_record_set(rec, "game", "lightsout");
	lk_strbuf_release(&text);
	free(board);
	free(hole);
	free(pressed);
	free(lit);
	*why = LK_REJECT_INVALID;
	return 0;
}

const struct lk_generator lk_gen_lightsout_random = {
	.game = "lightsout",
	.name = "random",
	.summary = "random presses on a board whose lights are all off (so every level is solvable)",
	.params_help = "presses=N (3 to half the cells), holes=N (0)",
	.size_help = "4x4",
	.default_min_moves = 3,
	.accepts = LK_GEN_ACCEPT(MOVES) | LK_GEN_ACCEPT(DIFFICULTY),
	.new_state = lightsout_gen_new,
	.free_state = lightsout_gen_free,
	.candidate = lightsout_candidate,
};
