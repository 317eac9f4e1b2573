/*
 * comb_gen.c - Combination's local-search generator (Jefferson et al.
 * 2008, section 4): a random grid of walls and holes, then pieces added one
 * at a time while the level stays solvable; a level with exactly one
 * solution (colour renamings aside, board symmetries not) is the result.
 * Blocking means a level unsolvable now may become solvable with more
 * pieces, so a share of unsolvable levels is searched on.  harder=1 or
 * easier=1 accept a new piece only when the difficulty (the mean nodes over
 * `runs` random orders) rises or falls.  Then the paper's prettiness: lines
 * of walls and holes along an edge go, and walls that can block no ray
 * become holes; neither changes the solutions.
 *
 * A level that keeps two solutions however pieces are added has, when a
 * second solution is known, up to carve=N squares turned into holes (see
 * below): an addition to the paper that gives about 2.6 times the yield
 * without changing what the levels look like (same pieces, empty squares
 * and difficulty on average); carve=0 is the paper's method.
 *
 * Parameters: colours=K (3), kinds=LETTERS (any of r b q; "rbq"),
 * pieces=N (at least N pieces, 6), walls=PERCENT and holes=PERCENT
 * (random 15-35 and 5-15), keep=PERCENT (pieces added blind, and
 * unsolvable levels searched on, 10), harder=1, easier=1, runs=K (10, for
 * harder/easier), carve=N (10; off with harder or easier, whose
 * difficulty climb it would bypass).
 */
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "levelkit/difficulty.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"

static const char *const colour_names[] = { "red", "blue", "green", "yellow", "purple",
					    "orange", "white", "black" };
static const char *const kind_names[] = { "rook", "bishop", "queen" };

struct comb_gen {
	long colours, pieces, walls, holes, keep, harder, easier, runs, carve;
	int kinds[3], nkinds;
	int w, h;
};

static const char *const params[] = { "colours", "kinds", "pieces", "walls", "holes", "keep",
				      "harder", "easier", "runs", "carve", NULL };

static void *comb_new_state(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	struct comb_gen *g = lk_xcalloc(1, sizeof *g);
	for (size_t i = 0; i < o->nparams; i++) {
		bool known = false;
		for (size_t k = 0; params[k]; k++)
			known |= strcmp(o->param_keys[i], params[k]) == 0;
		if (!known) {
			lk_strbuf_addf(err, "generator local (combination) has no parameter '%s'",
				       o->param_keys[i]);
			goto fail;
		}
	}
	g->w = o->width ? o->width : 5;
	g->h = o->height ? o->height : 5;
	if (g->w < 2 || g->h < 2 || g->w > 16 || g->h > 16) {
		lk_strbuf_addf(err, "--size %dx%d: combination grids are 2x2 to 16x16", g->w, g->h);
		goto fail;
	}
	if (lk_gen_param_int(o, "colours", 3, 2, 8, &g->colours, err) < 0 ||
	    lk_gen_param_int(o, "pieces", 6, 1, 60, &g->pieces, err) < 0 ||
	    lk_gen_param_int(o, "walls", -1, 0, 80, &g->walls, err) < 0 ||
	    lk_gen_param_int(o, "holes", -1, 0, 80, &g->holes, err) < 0 ||
	    lk_gen_param_int(o, "keep", 10, 0, 100, &g->keep, err) < 0 ||
	    lk_gen_param_int(o, "harder", 0, 0, 1, &g->harder, err) < 0 ||
	    lk_gen_param_int(o, "easier", 0, 0, 1, &g->easier, err) < 0 ||
	    lk_gen_param_int(o, "runs", 10, 1, 1000, &g->runs, err) < 0 ||
	    lk_gen_param_int(o, "carve", 10, 0, 256, &g->carve, err) < 0)
		goto fail;
	const char *kinds = lk_gen_param(o, "kinds");
	for (const char *k = kinds ? kinds : "rbq"; *k; k++) {
		const char *at = strchr("rbq", *k);
		if (!at) {
			lk_strbuf_addf(err, "--param kinds=%s: letters r (rook), b (bishop), q (queen)", kinds);
			goto fail;
		}
		g->kinds[g->nkinds++] = (int)(at - "rbq");
		if (g->nkinds == 3)
			break;
	}
	if (g->harder && g->easier) {
		lk_strbuf_addstr(err, "--param harder=1 and easier=1 pull opposite ways");
		goto fail;
	}
	return g;
fail:
	free(g);
	return NULL;
}

/* ----------------------------------------------------------- the level */

struct draft {
	int w, h;
	char cells[16 * 16];
	int count[8][3];          /* pieces per colour and kind */
	int8_t place[16 * 16];    /* a known solution: colour * 3 + kind per cell, or -1 */
};

static void draft_record(const struct draft *d, struct lk_record *rec)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	for (int y = 0; y < d->h; y++) {
		lk_strbuf_add(&text, d->cells + y * d->w, (size_t)d->w);
		lk_strbuf_addch(&text, '\n');
	}
	lk_record_release(rec);
	lk_record_init(rec);
	lk_record_set_grid(rec, text.buf);
	lk_strbuf_reset(&text);
	for (int c = 0; c < 8; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k])
				lk_strbuf_addf(&text, "%s%d %s %s", text.len ? ", " : "", d->count[c][k],
					       colour_names[c], kind_names[k]);
	lk_record_set(rec, "game", "combination");
	lk_record_set(rec, "pieces", text.buf);
	lk_strbuf_release(&text);
}

/* Solve the draft: solutions (up to 2), and the difficulty when wanted. */
static int judge_draft(const struct draft *d, const struct lk_gen_options *o, bool difficulty,
		       long runs, uint64_t seed, double *mean, uint64_t *solutions, bool *exact,
		       struct lk_strbuf *solution, struct lk_strbuf *second)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_level_options lo = { 0 };
	size_t line;
	lk_record_init(&rec);
	draft_record(d, &rec);
	struct lk_level *level = lk_game_load_level(&lk_game_combination, &rec, &lo, &err, &line);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	if (!level)
		return -1;
	struct lk_csp_options co;
	lk_csp_options_init(&co);
	/* Levels a generator cannot decide quickly are not worth deciding. */
	co.max_nodes = o->rating.search.max_states < 5000 && o->rating.search.max_states
			       ? o->rating.search.max_states : 5000;
	co.sac = false;   /* cheaper per solve, and the proofs here are short */
	/* co.dynamic (the default) for the counts; lk_csp_rate measures the
	 * difficulty in fixed orders regardless. */
	co.timeout = o->rating.search.timeout;
	co.cancel = o->rating.search.cancel;
	if (difficulty && !solution && !second) {
		struct lk_csp_rating r;
		lk_csp_rate(level, &co, (unsigned)runs, seed, &r);
		*solutions = r.solutions;
		*exact = r.exhausted;
		*mean = r.mean;
	} else {
		struct lk_csp_result r;
		lk_csp_result_init(&r);
		level->game->csp->solve(level, &co, &r);
		*solutions = r.solutions;
		*exact = r.exhausted;
		*mean = (double)r.nodes;
		if (solution)
			lk_strbuf_addstr(solution, r.solution.buf);
		if (second)
			lk_strbuf_addstr(second, r.second.buf);
		lk_csp_result_release(&r);
	}
	lk_level_free(level);
	return 0;
}

/* Lines of walls and holes along an edge hold no piece and stop no ray
 * that matters: they go. */
static void trim_edges(struct draft *d)
{
	for (;;) {
		bool top = true, bottom = true, left = true, right = true;
		for (int x = 0; x < d->w; x++) {
			top &= d->cells[x] != '.';
			bottom &= d->cells[(d->h - 1) * d->w + x] != '.';
		}
		for (int y = 0; y < d->h; y++) {
			left &= d->cells[y * d->w] != '.';
			right &= d->cells[y * d->w + d->w - 1] != '.';
		}
		if (d->h > 1 && (top || bottom)) {
			if (top)
				memmove(d->cells, d->cells + d->w, (size_t)((d->h - 1) * d->w));
			d->h--;
		} else if (d->w > 1 && (left || right)) {
			char out[16 * 16];
			for (int y = 0; y < d->h; y++)
				memcpy(out + y * (d->w - 1), d->cells + y * d->w + (left ? 1 : 0), (size_t)(d->w - 1));
			d->w--;
			memcpy(d->cells, out, (size_t)(d->w * d->h));
		} else {
			return;
		}
	}
}

/* Along axis (dx, dy) from (x, y): is there an empty square before a wall
 * or the edge (holes are passed)? */
static bool sees_square(const struct draft *d, int x, int y, int dx, int dy)
{
	for (x += dx, y += dy; x >= 0 && y >= 0 && x < d->w && y < d->h; x += dx, y += dy) {
		char c = d->cells[y * d->w + x];
		if (c == '.')
			return true;
		if (c == '#')
			return false;
	}
	return false;
}

/* A wall that no ray of the level's pieces could pass through becomes a
 * hole: rays stop at the first piece or wall, and only cross squares. */
static void soften_walls(struct draft *d)
{
	static const int axis_dx[4] = { 1, 0, 1, 1 }, axis_dy[4] = { 0, 1, 1, -1 };
	bool attacks[4] = { false };
	for (int c = 0; c < 8; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k])
				for (int a = 0; a < 4; a++)
					attacks[a] |= comb_attacks((enum comb_kind)k, a);
	for (int y = 0; y < d->h; y++) {
		for (int x = 0; x < d->w; x++) {
			if (d->cells[y * d->w + x] != '#')
				continue;
			bool blocks = false;
			for (int a = 0; a < 4 && !blocks; a++)
				blocks = attacks[a] && sees_square(d, x, y, axis_dx[a], axis_dy[a]) &&
					 sees_square(d, x, y, -axis_dx[a], -axis_dy[a]);
			if (!blocks)
				d->cells[y * d->w + x] = 'o';
		}
	}
}

/* Could a piece of colour c and kind k stand on cell at in the draft's
 * known solution without attacking or being attacked?  Rays stop at walls
 * and at the first piece. */
static bool fits(const struct draft *d, const int8_t *place, int at, int c, int k)
{
	int x0 = at % d->w, y0 = at / d->w;
	for (int dir = 0; dir < 8; dir++) {
		int axis = comb_axis(dir);
		for (int x = x0 + lk_dir_dx[dir], y = y0 + lk_dir_dy[dir];
		     x >= 0 && y >= 0 && x < d->w && y < d->h; x += lk_dir_dx[dir], y += lk_dir_dy[dir]) {
			int cell = y * d->w + x;
			if (d->cells[cell] == '#')
				break;
			int p = place[cell];
			if (p < 0)
				continue;
			if (p / 3 != c && (comb_attacks((enum comb_kind)k, axis) ||
					   comb_attacks((enum comb_kind)(p % 3), axis)))
				return false;
			break;
		}
	}
	return true;
}

/* Read a solver's solution back into the draft's known solution. */
static void adopt_solution(const struct draft *d, int8_t *place, const char *solution)
{
	/* the solver numbers types in the order of the pieces field, which
	 * draft_record writes colour by colour, kind by kind */
	int type_colour[COMB_MAX_TYPES], type_kind[COMB_MAX_TYPES], nt = 0;
	for (int c = 0; c < 8; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k]) {
				type_colour[nt] = c;
				type_kind[nt++] = k;
			}
	int x = 0, y = 0;
	for (const char *p = solution; *p; p++) {
		if (*p == '/') {
			x = 0;
			y++;
			continue;
		}
		int t = comb_char_type(*p), cell = y * d->w + x;
		if (cell < d->w * d->h)
			place[cell] = (int8_t)(t >= 0 && t < nt ? type_colour[t] * 3 + type_kind[t] : -1);
		x++;
	}
}

static int comb_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			  struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	const struct comb_gen *g = w->state;
	struct draft d = { .w = g->w, .h = g->h };
	/* Walls make levels tight enough to have one solution: with few
	 * of them, adding pieces jumps from many solutions to none. */
	long walls = g->walls >= 0 ? g->walls : 15 + (long)lk_rng_below(rng, 21);
	long holes = g->holes >= 0 ? g->holes : 5 + (long)lk_rng_below(rng, 11);
	int squares = 0;
	for (int i = 0; i < d.w * d.h; i++) {
		uint32_t r = lk_rng_below(rng, 100);
		d.cells[i] = r < (uint32_t)walls ? '#' : r < (uint32_t)(walls + holes) ? 'o' : '.';
		squares += d.cells[i] == '.';
	}
	*why = LK_REJECT_INVALID;
	if (squares < g->pieces)
		return -1;
	int total = 0, searched_on = 0, refused = 0;
	double level_mean = 0, mean = 0;
	uint64_t sols = 0;
	bool exact = false, unique = false;
	bool bias = g->harder || g->easier;
	memset(d.place, -1, sizeof d.place);
	int8_t other[16 * 16], next_other[16 * 16];   /* a second solution, when known */
	bool have_second = false;
	struct draft solvable = d;    /* the last draft known solvable */
	int solvable_total = 0;
	/*
	 * Add pieces while the level stays solvable, until it is unique.  A
	 * new piece usually goes where the known solution leaves room for it,
	 * which keeps the level solvable; now and then (keep%) it is added
	 * blind, as the paper does, and an unsolvable level is searched on for
	 * a piece or two, since with blocking a piece can make it solvable.
	 */
	for (int step = 0; step < 4 * squares && refused < 12 && !unique; step++) {
		int c = (int)lk_rng_below(rng, (uint32_t)g->colours);
		int k = g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)];
		bool blind = searched_on > 0 || lk_rng_below(rng, 100) < (uint32_t)g->keep;
		if (!blind) {
			/* Best: a piece the known solution has room for and the
			 * other known solution has none, which rules that one out. */
			if (have_second) {
				for (int tries = 0; tries < 12; tries++) {
					int tc = (int)lk_rng_below(rng, (uint32_t)g->colours);
					int tk = g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)];
					bool in_first = false, in_second = false;
					for (int i = 0; i < d.w * d.h && !in_second; i++) {
						if (d.cells[i] != '.')
							continue;
						in_first |= d.place[i] < 0 && fits(&d, d.place, i, tc, tk);
						in_second |= other[i] < 0 && fits(&d, other, i, tc, tk);
					}
					if (in_first && !in_second) {
						c = tc;
						k = tk;
						break;
					}
				}
			}
			int room[16 * 16], nroom = 0;
			for (int i = 0; i < d.w * d.h; i++)
				if (d.cells[i] == '.' && d.place[i] < 0 && fits(&d, d.place, i, c, k))
					room[nroom++] = i;
			if (!nroom) {
				refused++;
				continue;
			}
			d.place[room[lk_rng_below(rng, (uint32_t)nroom)]] = (int8_t)(c * 3 + k);
		}
		d.count[c][k]++;
		total++;
		struct lk_strbuf solution = LK_STRBUF_INIT, second = LK_STRBUF_INIT;
		if (judge_draft(&d, o, bias, g->runs, lk_rng_next(rng), &mean, &sols, &exact,
				blind ? &solution : NULL, &second) < 0) {
			lk_strbuf_release(&solution);
			lk_strbuf_release(&second);
			return -1;
		}
		bool got_second = sols >= 2 && second.len;
		if (got_second)
			adopt_solution(&d, next_other, second.buf);
		lk_strbuf_release(&second);
		bool against_bias = bias && sols > 0 && solvable_total > 0 &&
				    (g->harder ? mean <= level_mean : mean >= level_mean);
		if (sols > 0 && !against_bias) {
			if (blind)
				adopt_solution(&d, d.place, solution.buf);
			have_second = got_second;
			if (got_second)
				memcpy(other, next_other, sizeof other);
			lk_strbuf_release(&solution);
			solvable = d;
			solvable_total = total;
			level_mean = mean;
			searched_on = refused = 0;
			unique = sols == 1 && exact && total >= g->pieces;
			continue;
		}
		lk_strbuf_release(&solution);
		if (blind && sols == 0 && exact && searched_on < 2) {
			searched_on++;
			continue;
		}
		d = solvable;
		total = solvable_total;
		searched_on = 0;
		refused++;
	}
	/*
	 * Still more than one solution with pieces enough: turn a square the
	 * other known solution uses, and the kept one leaves empty, into a
	 * hole.  A hole holds no piece and lets rays pass like an empty
	 * square, so every solution of the new level was one of the old and
	 * the kept one survives: each carve only removes solutions.
	 */
	for (int carve = 0; !unique && carve < g->carve && have_second && !bias &&
			    solvable_total >= g->pieces; carve++) {
		d = solvable;
		int room[16 * 16], nroom = 0;
		for (int i = 0; i < d.w * d.h; i++)
			if (d.cells[i] == '.' && other[i] >= 0 && d.place[i] < 0)
				room[nroom++] = i;
		if (!nroom)
			break;   /* the two solutions differ only in which piece is where */
		d.cells[room[lk_rng_below(rng, (uint32_t)nroom)]] = 'o';
		struct lk_strbuf second = LK_STRBUF_INIT;
		if (judge_draft(&d, o, false, g->runs, lk_rng_next(rng), &mean, &sols, &exact, NULL,
				&second) < 0) {
			lk_strbuf_release(&second);
			return -1;
		}
		if (sols == 0 || (sols == 1 && !exact)) {
			lk_strbuf_release(&second);
			break;   /* undecided within the node bound */
		}
		solvable = d;
		unique = sols == 1;
		have_second = sols >= 2 && second.len;
		if (have_second)
			adopt_solution(&d, other, second.buf);
		lk_strbuf_release(&second);
	}
	if (!unique) {
		*why = solvable_total == 0 ? LK_REJECT_UNSOLVABLE : LK_REJECT_NOT_UNIQUE;
		return -1;
	}
	trim_edges(&d);
	soften_walls(&d);
	draft_record(&d, rec);
	return 0;
}

static void comb_free_state(void *state)
{
	free(state);
}

/* The paper's biased local search, as flags of their own. */
static const struct lk_gen_flag comb_flags[] = {
	{ "harder", "harder=1", "only add pieces that make the level harder", NULL },
	{ "easier", "easier=1", "only add pieces that make it easier", NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct lk_generator lk_gen_combination_local = {
	.game = "combination",
	.name = "local",
	.summary = "the paper's local search: random walls and holes, pieces added while the level "
		   "stays solvable, kept when unique",
	.params_help = "colours=K (3), kinds=rbq, pieces=N (6), walls=%, holes=%, keep=% (10), "
		       "harder=1, easier=1, runs=K (10), carve=N (10)",
	.size_help = "5x5",
	.flags = comb_flags,
	.accepts = LK_GEN_ACCEPT(DIFFICULTY),
	.new_state = comb_new_state,
	.free_state = comb_free_state,
	.candidate = comb_candidate,
};
