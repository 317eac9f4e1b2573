/*
 * comb_gen.c - Combination's generators.
 *
 * `paper` is the paper's method (Jefferson et al. 2008, section 4): a
 * random grid of walls and holes, then pieces added one at a time, each a
 * random colour and kind, while the level stays solvable; a level with
 * exactly one solution (colour renamings aside, board symmetries not) and
 * pieces enough is the result.  Blocking means a level unsolvable now may
 * become solvable with more pieces, so an unsolvable level is searched on
 * for a piece or two.
 *
 * `local`, the default, is the same search steered by the solutions it
 * knows (see local_candidate below): pieces go where the known solution
 * has room for them, and once the level has its pieces, each other
 * solution found is ruled out by a piece it has no room for or by turning
 * a square it uses, and the kept one leaves empty, into a hole.
 *
 * Both: harder=1 keeps the hardest of pick= levels of the paper's method
 * (paper_harder; with either generator, since the paper's sparser levels
 * are the hard ones), easier=1 starts from the generator's level; both then
 * climb (see climb below), keeping a step only when the difficulty (the
 * paper's measure, the mean nodes over `runs` random orders) rises or
 * falls, as the paper biased its search.  Then the paper's prettiness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "comb_draft.h"
#include "levelkit/generate.h"
#include "levelkit/grid.h"

struct comb_gen {
	bool paper;
	long colours, pieces, walls, holes, keep, harder, easier, runs, climb, carve, fill, pick;
	int kinds[3], nkinds;
	int w, h;
};

static const char *const local_params[] = { "colours", "kinds", "pieces", "walls", "holes", "keep",
					    "harder", "easier", "runs", "climb", "carve", "fill", "pick", NULL };
static const char *const paper_params[] = { "colours", "kinds", "pieces", "walls", "holes",
					    "harder", "easier", "runs", "climb", "pick", NULL };

static bool known_param(const char *const *list, const char *key)
{
	for (size_t k = 0; list[k]; k++)
		if (strcmp(key, list[k]) == 0)
			return true;
	return false;
}

static void *new_state(const struct lk_gen_options *o, struct lk_strbuf *err, bool paper)
{
	struct comb_gen *g = lk_xcalloc(1, sizeof *g);
	g->paper = paper;
	for (size_t i = 0; i < o->nparams; i++) {
		if (!known_param(paper ? paper_params : local_params, o->param_keys[i])) {
			lk_strbuf_addf(err, "generator %s (combination) has no parameter '%s'",
				       paper ? "paper" : "local", o->param_keys[i]);
			goto fail;
		}
	}
	g->w = o->width ? o->width : 5;
	g->h = o->height ? o->height : 5;
	if (g->w < 2 || g->h < 2 || g->w > DRAFT_MAX_SIDE || g->h > DRAFT_MAX_SIDE) {
		lk_strbuf_addf(err, "--size %dx%d: combination grids are 2x2 to 16x16", g->w, g->h);
		goto fail;
	}
	if (lk_gen_param_int(o, "colours", 3, 2, DRAFT_COLOURS, &g->colours, err) < 0 ||
	    lk_gen_param_int(o, "pieces", g->w * g->h / 4 > 2 ? g->w * g->h / 4 : 2, 1, 200,
			     &g->pieces, err) < 0 ||
	    lk_gen_param_int(o, "walls", -1, 0, 80, &g->walls, err) < 0 ||
	    lk_gen_param_int(o, "holes", -1, 0, 80, &g->holes, err) < 0 ||
	    lk_gen_param_int(o, "keep", 10, 0, 100, &g->keep, err) < 0 ||
	    lk_gen_param_int(o, "harder", 0, 0, 1, &g->harder, err) < 0 ||
	    lk_gen_param_int(o, "easier", 0, 0, 1, &g->easier, err) < 0 ||
	    lk_gen_param_int(o, "runs", 10, 1, 1000, &g->runs, err) < 0 ||
	    lk_gen_param_int(o, "climb", 30, 1, 1000, &g->climb, err) < 0 ||
	    lk_gen_param_int(o, "pick", 4, 1, 100, &g->pick, err) < 0 ||
	    lk_gen_param_int(o, "carve", 10, 0, 256, &g->carve, err) < 0 ||
	    lk_gen_param_int(o, "fill", 60, 0, 100, &g->fill, err) < 0)
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

static void *local_new_state(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	return new_state(o, err, false);
}

static void *paper_new_state(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	return new_state(o, err, true);
}

static void comb_free_state(void *state)
{
	free(state);
}

/* ---------------------------------------------------------- common */

/* The nodes a count may take: levels a generator cannot decide quickly
 * are not worth deciding. */
static uint64_t count_bound(const struct lk_gen_options *o)
{
	uint64_t m = o->rating.search.bounds.max_states;
	return m && m < 5000 ? m : 5000;
}

/* A random grid; its number of squares. */
static int random_grid(const struct comb_gen *g, struct lk_rng *rng, struct draft *d)
{
	/* Walls make levels tight enough to have one solution: with few
	 * of them, adding pieces jumps from many solutions to none. */
	long walls = g->walls >= 0 ? g->walls : 15 + (long)lk_rng_below(rng, 21);
	long holes = g->holes >= 0 ? g->holes : 5 + (long)lk_rng_below(rng, 11);
	if (g->holes < 0) {
		int extra = (g->w * g->h - 25) * 3 / 4;
		holes += extra > 0 ? extra : 0;
	}
	int squares = 0;
	memset(d, 0, sizeof *d);
	d->w = g->w;
	d->h = g->h;
	for (int i = 0; i < d->w * d->h; i++) {
		uint32_t r = lk_rng_below(rng, 100);
		d->cells[i] = r < (uint32_t)walls ? '#' : r < (uint32_t)(walls + holes) ? 'o' : '.';
		squares += d->cells[i] == '.';
	}
	return squares;
}

/* A random square where placement p has room for colour c and kind k, or -1. */
static int room_for(const struct draft *d, const int8_t *p, int c, int k, struct lk_rng *rng)
{
	int room[DRAFT_CELLS], n = 0;
	for (int at = 0; at < d->w * d->h; at++)
		if (d->cells[at] == '.' && p[at] < 0 && comb_draft_fits(d, p, at, c, k))
			room[n++] = at;
	return n ? room[lk_rng_below(rng, (uint32_t)n)] : -1;
}

static int make_unique(const struct comb_gen *g, struct draft *d, struct draft_count *c,
		       const struct lk_gen_options *o, struct lk_rng *rng);

/*
 * The difficulty bias (harder=1, easier=1) on a unique level d (c its
 * count): climb= steps, each adding a random piece (the local search: one
 * the solution has room for) or taking one away, taken when the level
 * stays unique and its difficulty, the paper's measure over runs= random
 * orders, rises (harder) or falls (easier).  The paper only added pieces
 * while it built the level; but the measure grows about exponentially with
 * the pieces and levels become unique at the last step, so an "easier"
 * piece is rare before that and the last step decides: the climb is on
 * unique levels, where each step is compared with a finished level.
 */
static int climb(const struct comb_gen *g, struct draft *d, struct draft_count *c,
		 const struct lk_gen_options *o, struct lk_rng *rng)
{
	double cur;
	if (comb_draft_difficulty(d, o, g->runs, lk_rng_next(rng), &cur) < 0)
		return 0;   /* not measured within the bounds: kept as it is */
	for (int i = 0; i < g->climb; i++) {
		struct draft next = *d;
		struct draft_count nc;
		int col, kind;
		uint32_t move = lk_rng_below(rng, 3);
		int hole = -1;
		if (move == 2 && !g->paper) {
			int holes[DRAFT_CELLS], n = 0;
			for (int at = 0; at < d->w * d->h; at++)
				if (d->cells[at] == 'o')
					holes[n++] = at;
			hole = n ? holes[lk_rng_below(rng, (uint32_t)n)] : -1;
		}
		if (hole >= 0) {
			next.cells[hole] = '.';
		} else if (next.total <= g->pieces || move == 0) {
			col = (int)lk_rng_below(rng, (uint32_t)g->colours);
			kind = g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)];
			if (!g->paper && room_for(d, c->first, col, kind, rng) < 0)
				continue;
			next.count[col][kind]++;
			next.total++;
		} else {
			int r = (int)lk_rng_below(rng, (uint32_t)next.total);
			for (col = 0; col < DRAFT_COLOURS; col++)
				for (kind = 0; kind < 3; kind++)
					if (r >= 0 && (r -= next.count[col][kind]) < 0) {
						next.count[col][kind]--;
						next.total--;
					}
		}
		double mean = -1;
		if (comb_draft_count(&next, o, count_bound(o), &nc) < 0)
			return -1;
		if (!g->paper && nc.solutions >= 2) {
			int done = make_unique(g, &next, &nc, o, rng);
			if (done < 0)
				return -1;
		}
		if (nc.solutions != 1 || !nc.exact ||
		    comb_draft_difficulty(&next, o, g->runs, lk_rng_next(rng), &mean) < 0)
			continue;
		if (g->harder ? mean > cur : mean < cur) {
			*d = next;
			*c = nc;
			cur = mean;
		}
	}
	return 0;
}

static int finish(const struct comb_gen *g, struct draft *d, struct draft_count *c,
		  const struct lk_gen_options *o, struct lk_rng *rng, struct lk_record *rec)
{
	if ((g->harder || g->easier) && climb(g, d, c, o, rng) < 0)
		return -1;
	comb_draft_prettify(d);
	comb_draft_record(d, rec);
	return 0;
}

/* -------------------------------------------------- the paper's method */

/*
 * One build by the paper's method into d (c its count): 1 with d unique
 * and pieces enough, 0 when the build failed (*why says how), -1 on an
 * error.
 */
static int paper_build(const struct comb_gen *g, const struct lk_gen_options *o, struct lk_rng *rng,
		       struct draft *d, struct draft_count *c, enum lk_reject *why)
{
	struct draft solvable;
	bool ever_solvable = false;
	int squares = random_grid(g, rng, d), searched_on = 0, refused = 0;
	*why = LK_REJECT_INVALID;
	if (squares < g->pieces)
		return 0;
	solvable = *d;
	for (int step = 0; step < 4 * squares && refused < 12; step++) {
		int col = (int)lk_rng_below(rng, (uint32_t)g->colours);
		d->count[col][g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)]]++;
		d->total++;
		if (comb_draft_count(d, o, count_bound(o), c) < 0)
			return -1;
		if (c->solutions > 0) {
			solvable = *d;
			ever_solvable = true;
			searched_on = refused = 0;
			if (c->solutions == 1 && c->exact && d->total >= g->pieces)
				return 1;
			continue;
		} else if (c->exact && searched_on < 2) {
			searched_on++;   /* with blocking, more pieces may make it solvable */
			continue;
		}
		*d = solvable;
		searched_on = 0;
		refused++;
	}
	*why = ever_solvable ? LK_REJECT_NOT_UNIQUE : LK_REJECT_UNSOLVABLE;
	return 0;
}

/*
 * harder=1 on the paper's method: up to pick= unique levels built by it
 * (8 x pick builds at most), each rated by the paper's measure over runs=
 * random orders; the hardest is kept (and climbs on in finish).  The
 * paper's bias, a piece kept only when it raises the measure of the level
 * being built, measures every solvable step: about 20 CPU s a 5x5 level,
 * twenty times this.  Choosing among finished levels by the same measure
 * biases the same search towards its harder results.
 */
static int paper_harder(const struct comb_gen *g, const struct lk_gen_options *o, struct lk_rng *rng,
			struct draft *d, struct draft_count *c, enum lk_reject *why)
{
	struct draft cand;
	struct draft_count cc;
	double best = -1;
	for (int built = 0, tries = 0; built < g->pick && tries < 8 * g->pick; tries++) {
		int got = paper_build(g, o, rng, &cand, &cc, why);
		double mean;
		if (got < 0)
			return -1;
		if (got == 0)
			continue;
		built++;
		if (comb_draft_difficulty(&cand, o, g->runs, lk_rng_next(rng), &mean) < 0)
			continue;   /* not measured within the bounds */
		if (mean > best) {
			best = mean;
			*d = cand;
			*c = cc;
		}
	}
	return best >= 0;
}

static int paper_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	const struct comb_gen *g = w->state;
	struct draft d;
	struct draft_count c;
	int got = g->harder ? paper_harder(g, o, rng, &d, &c, why) : paper_build(g, o, rng, &d, &c, why);
	if (got <= 0)
		return -1;
	return finish(g, &d, &c, o, rng, rec);
}

/* ----------------------------------------------------- the local search */

/* A piece of some colour and kind that has room in placement `keep` and
 * none in `other`: adding it rules `other` out and keeps `keep`.  Colours
 * and kinds are tried from a random start; false if there is none. */
static bool ruling_piece(const struct comb_gen *g, const struct draft *d, const int8_t *keep,
			 const int8_t *other, struct lk_rng *rng, int *pc, int *pk)
{
	int c0 = (int)lk_rng_below(rng, (uint32_t)g->colours), k0 = (int)lk_rng_below(rng, (uint32_t)g->nkinds);
	for (int i = 0; i < g->colours * g->nkinds; i++) {
		int c = (c0 + i / g->nkinds) % (int)g->colours, k = g->kinds[(k0 + i) % g->nkinds];
		bool in_keep = false, in_other = false;
		for (int at = 0; at < d->w * d->h && !in_other; at++) {
			if (d->cells[at] != '.')
				continue;
			in_keep |= keep[at] < 0 && comb_draft_fits(d, keep, at, c, k);
			in_other |= other[at] < 0 && comb_draft_fits(d, other, at, c, k);
		}
		if (in_keep && !in_other) {
			*pc = c;
			*pk = k;
			return true;
		}
	}
	return false;
}

/* A random square of `keep` free that placement `other` uses, or -1. */
static int carving_square(const struct draft *d, const int8_t *keep, const int8_t *other,
			  struct lk_rng *rng)
{
	int room[DRAFT_CELLS], n = 0;
	for (int at = 0; at < d->w * d->h; at++)
		if (d->cells[at] == '.' && other[at] >= 0 && keep[at] < 0)
			room[n++] = at;
	return n ? room[lk_rng_below(rng, (uint32_t)n)] : -1;
}

/* Is placement p free of attacks on the draft? */
static bool placement_valid(const struct draft *d, const int8_t *p)
{
	for (int at = 0; at < d->w * d->h; at++)
		if (p[at] >= 0 && !comb_draft_fits(d, p, at, p[at] / 3, p[at] % 3))
			return false;
	return true;
}

/* A random wall whose removal (a hole instead: rays pass, no piece may
 * stand there) makes placement `other` attack and leaves `keep` valid, or
 * -1.  More attacks and no new square: it only removes solutions. */
static int unwalling_wall(const struct draft *d, const int8_t *keep, const int8_t *other,
			  struct lk_rng *rng)
{
	int room[DRAFT_CELLS], n = 0;
	struct draft t = *d;
	for (int at = 0; at < d->w * d->h; at++) {
		if (d->cells[at] != '#')
			continue;
		t.cells[at] = 'o';
		if (placement_valid(&t, keep) && !placement_valid(&t, other))
			room[n++] = at;
		t.cells[at] = '#';
	}
	return n ? room[lk_rng_below(rng, (uint32_t)n)] : -1;
}


/*
 * The next draft of phase two, ruling `other` out and keeping `keep`, in
 * order of preference: a piece `other` has no room for; a square `other`
 * uses, and `keep` leaves empty, turned into a hole (a hole holds no piece
 * and lets rays pass like an empty square: no solution is added); a wall
 * turned into a hole where `other` then attacks and `keep` does not (more
 * attacks, no new square: no solution is added either); the last two at
 * most carve= times.  When the two differ only in which piece is where and
 * none of that helps, any piece `keep` has room for.  False when there is
 * no move left.
 */
static bool rule_out(const struct comb_gen *g, struct draft *d, const struct draft_count *known,
		     int *carved, struct lk_rng *rng)
{
	int col, kind, at = -1;
	if (ruling_piece(g, d, known->first, known->second, rng, &col, &kind)) {
		d->count[col][kind]++;
		d->total++;
		return true;
	}
	if (*carved < g->carve) {
		at = carving_square(d, known->first, known->second, rng);
		if (at < 0)
			at = unwalling_wall(d, known->first, known->second, rng);
	}
	if (at >= 0) {
		d->cells[at] = 'o';
		++*carved;
		return true;
	}
	for (int tries = 0; tries < 12; tries++) {
		col = (int)lk_rng_below(rng, (uint32_t)g->colours);
		kind = g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)];
		if (room_for(d, known->first, col, kind, rng) >= 0) {
			d->count[col][kind]++;
			d->total++;
			return true;
		}
	}
	return false;
}

/*
 * Phase two of the local search: rule the other solutions of d out one at
 * a time (rule_out), keeping the first; c is d's count (two solutions).
 * 1 with d unique and c its count, 0 when it failed (no move left, or a
 * count undecided within the bound), -1 on an error.
 */
static int make_unique(const struct comb_gen *g, struct draft *d, struct draft_count *c,
		       const struct lk_gen_options *o, struct lk_rng *rng)
{
	int squares = 0;
	for (int at = 0; at < d->w * d->h; at++)
		squares += d->cells[at] == '.';
	for (int steps = 0, carved = 0; c->solutions >= 2; steps++) {
		struct draft next = *d;
		struct draft_count nc;
		if (steps == 2 * squares || !rule_out(g, &next, c, &carved, rng))
			return 0;
		if (comb_draft_count(&next, o, count_bound(o), &nc) < 0)
			return -1;
		if (nc.solutions < 2 && !nc.exact)
			return 0;   /* undecided within the bound */
		if (nc.solutions == 0)
			continue;   /* a piece that made it unsolvable */
		*d = next;
		*c = nc;
	}
	return 1;
}

/*
 * The local search.  Phase one adds pieces, most where the known solution
 * has room for them (so the level stays solvable), best one the other
 * known solution has none for; now and then (keep%) one blind as the
 * paper does, searching on an unsolvable level for a piece or two.  It
 * ends when the level is unique, or holds fill% of its squares in pieces
 * (and at least pieces=), or no piece can be added.  Phase two rules the
 * other solutions out one at a time (make_unique), keeping the first.  A
 * bias then climbs from the level (finish, climb).
 */
static int local_candidate(struct lk_gen_worker *w, const struct lk_gen_options *o,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	const struct comb_gen *g = w->state;
	if (g->harder)
		return paper_candidate(w, o, rng, rec, why);
	struct draft d, solvable;
	struct draft_count c, known;
	int squares = random_grid(g, rng, &d), searched_on = 0, refused = 0;
	int target = (int)(g->fill * squares / 100);
	*why = LK_REJECT_INVALID;
	if (squares < g->pieces)
		return -1;
	if (target < g->pieces)
		target = (int)g->pieces;
	solvable = d;
	memset(&known, 0, sizeof known);
	memset(known.first, -1, sizeof known.first);
	for (int step = 0; step < 4 * squares && refused < 12 && solvable.total < target; step++) {
		{
			int col = (int)lk_rng_below(rng, (uint32_t)g->colours);
			int kind = g->kinds[lk_rng_below(rng, (uint32_t)g->nkinds)];
			bool blind = searched_on > 0 || lk_rng_below(rng, 100) < (uint32_t)g->keep;
			if (!blind && known.solutions >= 2)
				(void)ruling_piece(g, &d, known.first, known.second, rng, &col, &kind);
			if (!blind && room_for(&d, known.first, col, kind, rng) < 0) {
				refused++;
				continue;
			}
			d.count[col][kind]++;
			d.total++;
			if (comb_draft_count(&d, o, count_bound(o), &c) < 0)
				return -1;
			if (c.solutions == 0) {
				if (blind && c.exact && searched_on < 2) {
					searched_on++;   /* more pieces may make it solvable */
					continue;
				}
				d = solvable;
				searched_on = 0;
				refused++;
				continue;
			}
		}
		solvable = d;
		known = c;
		searched_on = refused = 0;
		if (c.solutions == 1 && c.exact && d.total >= target)
			return finish(g, &d, &c, o, rng, rec);
	}
	*why = solvable.total ? LK_REJECT_NOT_UNIQUE : LK_REJECT_UNSOLVABLE;
	d = solvable;
	if (known.solutions < 2 || d.total < target)
		return -1;
	int done = make_unique(g, &d, &known, o, rng);
	if (done <= 0)
		return -1;
	return finish(g, &d, &known, o, rng, rec);
}

/* The paper's biased search, as flags of their own. */
static const struct lk_gen_flag comb_flags[] = {
	{ "harder", "harder=1", "the hardest of pick= levels of the paper's method (the paper's measure), "
	  "climbing to harder unique ones", NULL },
	{ "easier", "easier=1", "climb from the level found to easier unique ones", NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct lk_generator lk_gen_combination_local = {
	.game = "combination",
	.name = "local",
	.summary = "the paper's local search steered by the solutions it knows: pieces placed where the "
		   "known solution has room, other solutions ruled out by a piece or a hole",
	.params_help = "colours=K (3), kinds=rbq, pieces=N (6 on 5x5), walls=%, holes=%, keep=% (10), "
		       "fill=% (60), carve=N (10), harder=1, easier=1, climb=N (30), runs=K (10), pick=N (4)",
	.size_help = "5x5",
	.flags = comb_flags,
	.accepts = LK_GEN_ACCEPT(DIFFICULTY),
	.new_state = local_new_state,
	.free_state = comb_free_state,
	.candidate = local_candidate,
};

const struct lk_generator lk_gen_combination_paper = {
	.game = "combination",
	.name = "paper",
	.summary = "the paper's generator as published: random walls and holes, random pieces added "
		   "one at a time while the level stays solvable, kept when unique",
	.params_help = "colours=K (3), kinds=rbq, pieces=N (6 on 5x5), walls=%, holes=%, harder=1, "
		       "easier=1, climb=N (30), runs=K (10), pick=N (4)",
	.size_help = "5x5",
	.flags = comb_flags,
	.accepts = LK_GEN_ACCEPT(DIFFICULTY),
	.new_state = paper_new_state,
	.free_state = comb_free_state,
	.candidate = paper_candidate,
};
