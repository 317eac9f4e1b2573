/*
 * laser_gen.c - the laser generator: shortcut-free levels by
 * counter-example guided search (the paper's Elise and Fiona, working
 * together rather than in a pipeline).
 *
 * A board gets sources, then an intended solution I designed on it
 * (laser_design.c, or grown from the sources: laser_grow.c), whose ends
 * become the targets.  The level is the board, the targets, and a tray
 * of I's pieces plus distractors.  Then, round by round, the shortcut
 * query looks for a solution S that violates the concept.  S stays a
 * solution of every level that keeps the cells it uses empty (its
 * pieces' cells and the cells its beams cross) and keeps its pieces in
 * the tray: such levels differ from this one only where S does not
 * look.  So the whole family is ruled out at once by a change S cannot
 * survive and I can: a blocker on a cell S uses and I does not, or
 * fewer tray pieces of a kind S uses more of than I.  Both changes only
 * remove solutions (a blocker cuts beams, and firing only grows with
 * beams), so a shortcut once ruled out never comes back, and I stays.
 *
 * When no such change exists, every level that keeps I keeps S: I is
 * hopeless.  That is learned as a nogood on the board, over the designs
 * themselves: no intended solution may use all of S's cells and at least
 * S's pieces.  The designer then looks for another intended solution with
 * the same targets under all the nogoods learned; when that search is
 * complete and finds none, no level on this board (any blockers, any tray
 * of the palette) requires the concept: that is proved, and reported.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laser_gen.h"
#include "levelkit/grid.h"

static void debug(const struct laser_gen *g, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void debug(const struct laser_gen *g, const char *fmt, ...)
{
	if (!g->debug)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "laser gen %.3fs: ", laser_gen_elapsed(g));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

double laser_gen_elapsed(const struct laser_gen *g)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - g->t0.tv_sec) + (double)(t.tv_nsec - g->t0.tv_nsec) * 1e-9;
}

static bool out_of_time(const struct laser_gen *g)
{
	return (g->o->bounds.max_seconds > 0 && laser_gen_elapsed(g) > g->o->bounds.max_seconds) ||
	       lk_bounds_cancelled(&g->o->bounds);
}

/* ------------------------------------------------------------ learning */

static int spy_level(void *ctx, const char *name, const char *arg, double *lo, double *hi)
{
	static const char *const level[] = { "blockers", "sources", "targets", "tray" };
	struct lk_laser_facts f;
	memset(&f, 0, sizeof f);
	for (size_t i = 0; i < 4; i++)
		if (!arg && lk_field_name_eq(name, strlen(name), level[i]))
			*(bool *)ctx = true;
	if (arg && lk_field_name_eq(name, strlen(name), "count") &&
	    (lk_field_name_eq(arg, strlen(arg), "blocker") || lk_field_name_eq(arg, strlen(arg), "blockers")))
		*(bool *)ctx = true;
	return laser_lookup_exact(&f, name, arg, lo, hi);
}

/* The nogood of a hopeless intended solution: the shortcut's cells and
 * pieces, in the design level's lines. */
static void learn(struct board *b, const struct lk_laser *dl, const struct laser_gen_pieces *s,
		  const uint64_t *cells)
{
	struct lk_laser_nogoods *ng = &b->ng;
	LK_ALLOC_GROW(ng->v, ng->n + 1, ng->alloc);
	struct laser_nogood *n = &ng->v[ng->n++];
	memset(n, 0, sizeof *n);
	memcpy(n->cells, cells, sizeof n->cells);
	for (int i = 0; i < s->n; i++)
		for (int l = 0; l < dl->ntray; l++)
			if (laser_same_kind(&dl->kind[dl->nfixed + l], &s->kind[i]))
				n->need[l]++;
}

/* Is the shortcut's violation of the concept independent of the level
 * properties a change could alter (blockers, tray), so that it is a
 * shortcut of every level that keeps it? */
static bool always_violates(const struct laser_gen *g, const struct lk_laser_facts *f)
{
	struct laser_bounds bd = { *f, *f, NULL, NULL };
	enum lk_truth t = LK_MAYBE;
	bd.hi.blockers = LK_LASER_MAX_CELLS;
	bd.lo.tray = 0;
	bd.hi.tray = LK_LASER_MAX_CELLS;
	lk_expr_eval_facts(g->concept, laser_lookup_bounds, &bd, &t, NULL);
	return t == LK_FALSE;
}

/* ------------------------------------------------------------- boards */

static const char letters_src[] = "ABCDEFGHIJ", letters_tgt[] = "TUVWXYZKLMN";

/* A board with blockers and sources, each shooting into the board. */
static void new_board(struct laser_gen *g, struct board *b)
{
	const struct lk_laser_gen_options *o = g->o;
	struct laser_spec *s = &b->skel;
	memset(s, 0, sizeof *s);
	s->width = o->width;
	s->height = o->height;
	int n = o->width * o->height;
	memset(s->cells, '.', (size_t)n);
	/* blockers in whole orbits of the symmetry (one cell each without) */
	for (int placed = 0, draws = 0; placed < o->blockers && draws < 4 * n; draws++) {
		int orbit[4], k = lk_laser_orbit(o->symmetry, o->width, o->height,
						 (int)lk_rng_below(&g->rng, (uint32_t)n), orbit);
		for (int j = 0; j < k; j++) {
			placed += s->cells[orbit[j]] == '.';
			s->cells[orbit[j]] = '#';
		}
	}
	for (int i = 0; i < o->sources && i < 10; i++) {
		int c, side, x, y;
		do {
			c = (int)lk_rng_below(&g->rng, (uint32_t)n);
			side = (int)lk_rng_below(&g->rng, 4);
			x = c % o->width + lk_dir_dx[side];
			y = c / o->width + lk_dir_dy[side];
		} while (s->cells[c] != '.' || x < 0 || y < 0 || x >= o->width || y >= o->height);
		s->cells[c] = letters_src[i];
		int p = (int)lk_rng_below(&g->rng, (uint32_t)o->npowers);
		s->fixed[s->nfixed++] = (struct laser_kind){
			.type = LK_LASER_SRC, .outs = (uint8_t)(1u << side), .nout = 1,
			.letter = letters_src[i], .num = o->power_num[p], .den = o->power_den[p],
		};
	}
}

/* Turn a design on the open board into the board's targets and intended
 * solution: false when it is too small. */
static bool take_design(struct laser_gen *g, struct board *b, const struct lk_laser *dl,
			const struct lk_laser_placement *pl)
{
	int16_t kind_at[LK_LASER_MAX_CELLS];
	struct laser_sim *sim = lk_xmalloc(sizeof *sim);
	laser_kind_at(dl, pl, kind_at);
	laser_simulate(dl, kind_at, sim);
	b->intended.n = 0;
	int ntgt = 0;
	for (int i = 0; i < pl->n; i++) {
		int c = pl->p[i].y * dl->width + pl->p[i].x;
		const struct laser_kind *k = &dl->kind[kind_at[c]];
		if (k->type != LK_LASER_TGT) {
			b->intended.cell[b->intended.n] = c;
			b->intended.kind[b->intended.n++] = *k;
			continue;
		}
		/* what it received, summed on a target of several sides */
		int64_t v = laser_received(k, sim->recv[c], sim->recv_value[c]), d = dl->unit, a = v, t;
		while (d) {   /* gcd */
			t = a % d;
			a = d;
			d = t;
		}
		b->skel.cells[c] = letters_tgt[ntgt];
		b->skel.fixed[b->skel.nfixed++] = (struct laser_kind){
			.type = LK_LASER_TGT, .ins = k->ins, .nin = k->nin, .letter = letters_tgt[ntgt],
			.num = v / a, .den = dl->unit / a,
		};
		ntgt++;
	}
	free(sim);
	memcpy(b->cells, b->skel.cells, sizeof b->cells);
	return b->intended.n >= g->o->min_pieces;
}

static void draw_distractors(struct laser_gen *g, struct board *b)
{
	int total = 0;
	b->ndistr = 0;
	for (int t = LK_LASER_BND; t <= LK_LASER_CMB3; t++)
		total += g->o->pieces[t];
	for (int i = 0; i < g->o->distractors && total > 0 && b->ndistr < GEN_MAX_PIECES; i++) {
		int r = (int)lk_rng_below(&g->rng, (uint32_t)total), t = LK_LASER_BND;
		while (r >= g->o->pieces[t])
			r -= g->o->pieces[t++];
		uint8_t ins[16], outs[16];
		int n = laser_orientations(t, ins, outs), k = (int)lk_rng_below(&g->rng, (uint32_t)n);
		b->distr[b->ndistr++] = (struct laser_kind){
			.type = (uint8_t)t, .ins = ins[k], .outs = outs[k],
			.nin = (uint8_t)(t == LK_LASER_CMB2 ? 2 : t == LK_LASER_CMB3 ? 3 : 1),
			.nout = (uint8_t)(t == LK_LASER_SP2 ? 2 : t == LK_LASER_SP3 ? 3 : 1),
		};
	}
}

/* ---------------------------------------------------------------- CEGIS */

enum outcome { DONE, HOPELESS, GAVE_UP };

/* A new intended solution for the board's targets under the nogoods. */
static enum outcome redesign(struct laser_gen *g, struct board *b)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser *dl = laser_design_level(g, &b->skel, 0, NULL, &err);
	enum outcome out = GAVE_UP;
	if (dl) {
		/* any solution of a level that requires the concept will do,
		 * however small: that is what makes a complete search a proof */
		enum lk_status s = laser_design(g, dl, &b->ng, g->concept, g->o->redesign_restarts, pl);
		g->st->designs++;
		debug(g, "redesign: %s", lk_status_name(s));
		if (s == LK_UNSOLVABLE) {
			out = HOPELESS;
		} else if (s == LK_SOLVED) {
			struct board tmp = *b;   /* take_design rewrites the targets */
			take_design(g, &tmp, dl, pl);
			b->intended = tmp.intended;
			memcpy(b->cells, b->skel.cells, sizeof b->cells);
			b->added = 0;
			out = laser_gen_recut(g, b) ? DONE : GAVE_UP;
		}
	}
	lk_laser_free(dl);
	lk_strbuf_release(&err);
	free(pl);
	return out;
}

/* Shortcuts collected by one query. */
#define BATCH 8
struct batch {
	const struct lk_laser *lv;
	int n;
	struct laser_gen_pieces s[BATCH];
};

static bool collect(void *ctx, const struct lk_laser_solution *sol)
{
	struct batch *bt = ctx;
	laser_pieces_of(bt->lv, sol->placement, &bt->s[bt->n++]);
	return bt->n < BATCH;
}

/* Rounds of shortcut queries and cuts on a board: DONE with the level. */
static enum outcome cegis(struct laser_gen *g, struct board *b, struct lk_laser **level,
			  struct lk_laser_placement *ipl)
{
	struct lk_laser_result *r = lk_xmalloc(sizeof *r);
	struct batch *bt = lk_xmalloc(sizeof *bt);
	enum outcome out = GAVE_UP;
	for (unsigned round = 0; round < g->o->max_rounds && !out_of_time(g); round++) {
		struct lk_laser *lv = laser_gen_make_level(b, ipl);
		if (!lv)
			break;
		struct lk_laser_search_options so;
		lk_laser_search_options_init(&so);
		so.tidy = !g->o->all;
		so.violate = g->concept;
		so.bounds.max_states = g->o->check_nodes;
		so.extra_nodes = 2000;
		so.bounds.cancel = g->o->bounds.cancel;
		/* several shortcuts at a time, if they come cheap: one blocker
		 * often rules out many */
		bt->lv = lv;
		bt->n = 0;
		lk_laser_search(lv, &so, collect, bt, r);
		debug(g, "round %u: %d shortcuts (%s) in %llu nodes", round, bt->n,
		      lk_status_name(r->status), (unsigned long long)r->nodes);
		g->st->rounds++;
		g->st->nodes += r->nodes;
		if (g->debug && r->nodes > 500000) {
			struct lk_strbuf sb = LK_STRBUF_INIT;
			lk_laser_write_lvl(lv, &sb);
			fprintf(stderr, "%s", sb.buf);
			lk_strbuf_release(&sb);
		}
		if (r->status == LK_UNSOLVABLE) {
			*level = lv;
			out = DONE;
			break;
		}
		if (!bt->n) {   /* unknown: a bound was hit */
			lk_laser_free(lv);
			break;
		}
		for (int i = 0; i < bt->n; i++) {
			LK_ALLOC_GROW(b->learned, b->nlearned + 1, b->alloc);
			b->learned[b->nlearned++] = bt->s[i];
		}
		int h = laser_gen_cut_batch(g, b, lv, ipl, bt->s, bt->n);
		if (h < 0) {
			lk_laser_free(lv);
			continue;
		}
		/* I is hopeless: learn, and design another */
		struct lk_laser_placement *spl = lk_xmalloc(sizeof *spl);
		struct lk_laser_facts f;
		uint64_t cells[LK_LASER_MAX_CELLS / 64];
		laser_gen_placement_in(lv, &bt->s[h], spl);
		laser_gen_judge(g, lv, spl, &f, cells, NULL);
		free(spl);
		lk_laser_free(lv);
		/* on a board that loses no power, a shortcut's beams all end in
		 * pieces, none at a blocker, so no blocker it relies on can be
		 * missing from another level: the family is exactly its cells
		 * and pieces */
		if (b->lossless && always_violates(g, &f)) {
			struct lk_strbuf err = LK_STRBUF_INIT;
			struct lk_laser *dl = laser_design_level(g, &b->skel, 0, NULL, &err);
			b->ng.cells_matter = g->blockers_help && g->o->max_blockers != 0;
			if (dl)
				learn(b, dl, &bt->s[h], cells);
			lk_laser_free(dl);
			lk_strbuf_release(&err);
			g->st->nogoods++;
		}
		enum outcome d = redesign(g, b);
		if (d != DONE) {
			out = d;
			break;
		}
	}
	free(bt);
	free(r);
	return out;
}

/* --------------------------------------------------------------- entry */

/* Can any solution of the palette's pieces satisfy the concept at all?
 * Bounds on an intended solution's facts, from the pieces alone: a
 * network of sources merges only at combiners, one merge per extra in-port. */
static bool satisfiable_expr(const struct laser_gen *g, const struct lk_expr *e, int sources,
			     const int *pieces)
{
	const struct lk_laser_gen_options *o = g->o;
	struct laser_bounds b;
	enum lk_truth t = LK_MAYBE;
	memset(&b, 0, sizeof b);
	int merges = pieces[LK_LASER_CMB2] + 2 * pieces[LK_LASER_CMB3], total = 0;
	for (int ty = LK_LASER_BND; ty <= LK_LASER_CMB3; ty++) {
		b.hi.fired[ty] = b.hi.placed[ty] = pieces[ty];
		total += pieces[ty];
	}
	b.lo.fired[LK_LASER_SRC] = b.hi.fired[LK_LASER_SRC] = sources;
	b.lo.fired[LK_LASER_TGT] = b.lo.targets = o->min_targets;
	b.hi.fired[LK_LASER_TGT] = b.hi.targets = o->max_targets;
	b.lo.sources = b.hi.sources = sources;
	b.lo.placed_total = o->min_pieces;
	b.hi.placed_total = total;
	b.lo.network = sources - merges > 1 ? sources - merges : 1;
	b.hi.network = sources;
	b.lo.blockers = 0;
	b.hi.blockers = LK_LASER_MAX_CELLS;
	b.hi.tray = LK_LASER_MAX_CELLS;
	lk_expr_eval_facts(e, laser_lookup_bounds, &b, &t, NULL);
	return t != LK_FALSE;
}

static bool satisfiable(const struct laser_gen *g, int sources, const int *pieces)
{
	return satisfiable_expr(g, g->concept, sources, pieces);
}

bool laser_gen_satisfiable(const struct laser_gen *g, const int *pieces)
{
	return satisfiable_expr(g, g->design, g->sources, pieces);
}

static enum lk_laser_gen_status finish(struct laser_gen *g, enum lk_laser_gen_status s)
{
	g->st->seconds = laser_gen_elapsed(g);
	lk_expr_free(g->concept);
	lk_expr_free(g->design);
	lk_expr_free(g->design_own);
	return s;
}

/* What every run needs: the concept, the designs' own conditions, whether
 * blockers can help and proofs hold.  -1 (with why) on a bad request, 1
 * when the request is proved impossible. */
static int setup(struct laser_gen *g, const struct lk_laser_gen_options *o, int sources, int blockers,
		 struct lk_strbuf *why)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	g->o = o;
	g->debug = getenv("LASER_GEN_DEBUG") != NULL;
	g->sample = !o->whole_palette;
	g->sources = sources;
	memset(g->min_caps, 0, sizeof g->min_caps);
	clock_gettime(CLOCK_MONOTONIC, &g->t0);
	if (o->require) {
		const char *preset = lk_laser_concept_preset(o->require);
		g->concept = lk_expr_parse(preset ? preset : o->require, why);
		if (!g->concept || lk_laser_concept_check(g->concept, why) < 0)
			return -1;
		lk_strbuf_addf(&text, "(%s) && ", preset ? preset : o->require);
		if (!satisfiable(g, sources, o->pieces)) {
			lk_strbuf_addstr(why, "proved: no solution made of these pieces satisfies the concept");
			lk_strbuf_release(&text);
			return 1;
		}
		/* the fewest of each type the concept can do with, the others
		 * at the palette's count: the least a sub-palette holds */
		for (int t = LK_LASER_BND; t <= LK_LASER_CMB3; t++) {
			int caps[LK_LASER_NTYPES];
			memcpy(caps, o->pieces, sizeof caps);
			g->min_caps[t] = 0;
			for (caps[t] = 0; caps[t] < o->pieces[t] && !satisfiable(g, sources, caps); caps[t]++)
				;
			g->min_caps[t] = caps[t];
		}
		/* do blockers ever help: can the concept hold with one more? */
		struct laser_bounds b;
		enum lk_truth t = LK_MAYBE;
		memset(&b, 0, sizeof b);
		memset(&b.hi, 0x3f, sizeof b.hi);
		b.lo.blockers = b.hi.blockers = blockers + 1;
		lk_expr_eval_facts(g->concept, laser_lookup_bounds, &b, &t, NULL);
		g->blockers_help = t != LK_FALSE;
	}
	size_t own = text.len;
	lk_strbuf_addf(&text, "count(target) >= %d && count(piece) >= %d", o->min_targets,
		       o->min_pieces);
	g->design = lk_expr_parse(text.buf, NULL);
	g->design_own = lk_expr_parse(text.buf + own, NULL);
	lk_strbuf_release(&text);
	/* a hopeless board proves something for tidy checks, with blockers
	 * unlimited or never added, and concepts that do not read what the
	 * changes alter (blockers, tray) */
	bool reads_level = false;
	if (g->concept)
		lk_expr_check_facts(g->concept, spy_level, &reads_level, NULL);
	g->proofs = !o->all && (o->max_blockers < 0 || !g->blockers_help || o->max_blockers == 0) &&
		    (!reads_level || !g->blockers_help);
	return 0;
}

/* A board whose targets are placed: the intended solution, its tray,
 * then the rounds.  HOPELESS when no level on it can require the concept
 * (a proof when g->proofs and the board loses no power). */
static enum outcome run_board(struct laser_gen *g, struct board *b, struct lk_laser **level,
			      struct lk_laser_placement *intended)
{
	struct lk_laser *lv = laser_gen_make_level(b, NULL);
	b->lossless = lv && lv->src_total == lv->need_total;
	lk_laser_free(lv);
	draw_distractors(g, b);
	if (!g->concept) {
		*level = laser_gen_make_level(b, intended);
		return *level ? DONE : GAVE_UP;
	}
	enum outcome out = cegis(g, b, level, intended);
	return out == HOPELESS && !(g->proofs && b->lossless) ? GAVE_UP : out;
}

enum lk_laser_gen_status lk_laser_generate(const struct lk_laser_gen_options *o, uint64_t index,
					   struct lk_laser **level,
					   struct lk_laser_placement *intended,
					   struct lk_laser_gen_stats *st, struct lk_strbuf *why)
{
	struct laser_gen g = { .o = o, .st = st };
	memset(st, 0, sizeof *st);
	*level = NULL;
	lk_rng_seed2(&g.rng, o->seed, index);
	if (o->width < 2 || o->height < 2 || o->width > LK_LASER_MAX_SIDE ||
	    o->height > LK_LASER_MAX_SIDE || o->sources < 1 || o->sources > 10 || o->max_targets > 10 ||
	    o->min_targets > o->max_targets || o->max_targets < 1) {
		lk_strbuf_addstr(why, "board 2x2 to 16x16, 1 to 10 sources, 1 to 10 targets");
		return finish(&g, LK_LASER_GEN_GAVE_UP);
	}
	if (o->symmetry == LK_LASER_SYM_ROT90 && o->width != o->height) {
		lk_strbuf_addstr(why, "symmetry rot90 needs a square board");
		return finish(&g, LK_LASER_GEN_GAVE_UP);
	}
	int rc = setup(&g, o, o->sources, o->blockers, why);
	if (rc)
		return finish(&g, rc > 0 ? LK_LASER_GEN_INFEASIBLE : LK_LASER_GEN_GAVE_UP);
	struct board *b = lk_xcalloc(1, sizeof *b);
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	enum lk_laser_gen_status status = LK_LASER_GEN_GAVE_UP;
	for (unsigned k = 0; k < o->max_boards && !out_of_time(&g); k++) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		free(b->learned);
		free(b->ng.v);
		memset(b, 0, sizeof *b);
		new_board(&g, b);
		st->boards++;
		struct lk_laser *dl = NULL;
		lk_strbuf_release(&err);
		bool grow = o->grow > 0 || (o->grow < 0 && o->min_pieces >= 10);
		enum lk_status s = grow ? laser_design_grown(&g, &b->skel, o->max_targets, o->design_restarts,
								 &dl, pl)
			: laser_design_sampled(&g, &b->skel, o->max_targets, g.design, o->design_restarts, &dl, pl);
		debug(&g, "board %u: design %s", k, lk_status_name(s));
		st->designs++;
		bool taken = s == LK_SOLVED && take_design(&g, b, dl, pl);
		lk_laser_free(dl);
		if (!taken)
			continue;
		enum outcome out = run_board(&g, b, level, intended);
		if (out == DONE) {
			status = LK_LASER_GEN_OK;
			break;
		}
		st->boards_proved += out == HOPELESS;
	}
	if (status != LK_LASER_GEN_OK)
		lk_strbuf_addf(why, "gave up after %u boards (%u proved to admit no level requiring the concept)",
			       st->boards, st->boards_proved);
	free(b->learned);
	free(b->ng.v);
	free(b);
	free(pl);
	return finish(&g, status);
}

enum lk_laser_gen_status lk_laser_generate_on(const struct lk_laser_gen_options *o,
					      const struct lk_laser *board, uint64_t index,
					      struct lk_laser **level,
					      struct lk_laser_placement *intended,
					      struct lk_laser_gen_stats *st, struct lk_strbuf *why)
{
	struct laser_gen g = { .o = o, .st = st };
	struct board *b = lk_xcalloc(1, sizeof *b);
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	enum lk_laser_gen_status status = LK_LASER_GEN_GAVE_UP;
	struct lk_strbuf err = LK_STRBUF_INIT;
	memset(st, 0, sizeof *st);
	*level = NULL;
	lk_rng_seed2(&g.rng, o->seed, index);
	laser_spec_of(board, &b->skel);
	b->skel.ntray = 0;
	memcpy(b->cells, b->skel.cells, sizeof b->cells);
	int rc = setup(&g, o, board->nsources, board->nblockers, why);
	if (rc) {
		status = rc > 0 ? LK_LASER_GEN_INFEASIBLE : LK_LASER_GEN_GAVE_UP;
		goto out;
	}
	st->boards = 1;
	bool open = board->ntargets == 0;
	struct lk_laser *dl = laser_design_level(&g, &b->skel, open ? o->max_targets : 0, NULL, &err);
	if (!dl) {
		lk_strbuf_add(why, err.buf, err.len);
		goto out;
	}
	/* with the targets given, any solution satisfying the concept is an
	 * intended solution, which makes a complete search that finds none a
	 * proof */
	enum lk_status s = laser_design(&g, dl, open ? NULL : &b->ng, open ? g.design : g.concept,
				      o->design_restarts, pl);
	st->designs++;
	bool lossless = dl->src_total == dl->need_total;
	bool taken = s == LK_SOLVED && (take_design(&g, b, dl, pl) || !open);
	lk_laser_free(dl);
	enum outcome out = taken ? run_board(&g, b, level, intended)
		: s == LK_UNSOLVABLE && !open && g.proofs && lossless ? HOPELESS : GAVE_UP;
	if (out == DONE) {
		status = LK_LASER_GEN_OK;
	} else if (out == HOPELESS) {
		st->boards_proved = 1;
		status = LK_LASER_GEN_INFEASIBLE;
		lk_strbuf_addstr(why, "proved: no level on this board (any blockers, any tray of these "
			     "pieces) requires the concept");
	} else {
		lk_strbuf_addstr(why, "gave up: a bound was hit");
	}
out:
	lk_strbuf_release(&err);
	free(b->learned);
	free(b->ng.v);
	free(b);
	free(pl);
	return finish(&g, status);
}
