/*
 * laser_gen.h - the laser generator's internals: designing an intended
 * solution on a board (laser_design.c) and the counter-example guided loop
 * that makes the level require the concept (laser_gen.c).
 */
#ifndef LEVELKIT_LASER_GEN_H
#define LEVELKIT_LASER_GEN_H

#include "laser_engine.h"

#define GEN_MAX_PIECES 64

/* Pieces standing on cells: an intended solution or a shortcut, by kind
 * (type and ports), independent of any level's tray lines. */
struct laser_gen_pieces {
	int n;
	int cell[GEN_MAX_PIECES];
	struct laser_kind kind[GEN_MAX_PIECES];
};

struct laser_gen {
	const struct lk_laser_gen_options *o;
	struct lk_expr *concept;        /* the required concept, or NULL */
	struct lk_expr *design;         /* what a design must satisfy */
	struct lk_expr *design_own;     /* ... the design's own conditions, without the concept */
	struct lk_rng rng;
	struct lk_laser_gen_stats *st;
	bool blockers_help;             /* can the concept hold with one blocker more */
	bool proofs;                    /* do hopeless boards prove something (laser_gen.c) */
	bool debug;                     /* LASER_GEN_DEBUG set: events on stderr */
	bool sample;                    /* first designs from sub-palettes (laser_design.c) */
	int min_caps[LK_LASER_NTYPES];  /* the fewest of each type the concept can do with */
	int sources;                    /* the boards' sources */
	struct timespec t0;
};

/* What a board carries from round to round (laser_gen.c). */
struct board {
	struct laser_spec skel;        /* board, sources, targets, first blockers */
	char cells[LK_LASER_MAX_CELLS];/* the skeleton's cells and the blockers added */
	struct laser_gen_pieces intended;
	int ndistr;
	struct laser_kind distr[GEN_MAX_PIECES];
	int added;                     /* blockers added */
	bool lossless;                 /* the needs add up to the sources' power */
	size_t nlearned, alloc;
	struct laser_gen_pieces *learned;    /* shortcuts found on this board */
	struct lk_laser_nogoods ng;
};

/* A placement simulated: its firing state, for the concept's facts over
 * powers. */
struct fired {
	int16_t kind_at[LK_LASER_MAX_CELLS];
	struct laser_sim sim;
	struct laser_view view;
};

/* The level of a board (laser_cut.c): NULL when it does not build; *pl
 * (may be NULL) gets the intended solution in its lines. */
struct lk_laser *laser_gen_make_level(const struct board *b, struct lk_laser_placement *pl);
/* Pieces as a placement of lv, if lv's tray holds them (else false). */
bool laser_gen_placement_in(const struct lk_laser *lv, const struct laser_gen_pieces *p,
		      struct lk_laser_placement *pl);
/* Simulate pieces on lv: facts, footprint (cells may be NULL) and, when
 * keep is not NULL, the firing state; false when not a solution (tidy
 * unless o->all). */
bool laser_gen_judge(const struct laser_gen *g, const struct lk_laser *lv, const struct lk_laser_placement *pl,
	       struct lk_laser_facts *f, uint64_t *cells, struct fired *keep);
/* Rule out the shortcuts s[0 .. n) of the board's level lv (I is *ipl),
 * keeping I: -1, or the index of a shortcut no change can rule out. */
int laser_gen_cut_batch(struct laser_gen *g, struct board *b, const struct lk_laser *lv,
		  const struct lk_laser_placement *ipl, const struct laser_gen_pieces *s, int n);
/* Rule out again every shortcut learned on the board that its level still
 * has: false if one cannot be. */
bool laser_gen_recut(struct laser_gen *g, struct board *b);

/* The same type and ports. */
static inline bool laser_same_kind(const struct laser_kind *a, const struct laser_kind *b)
{
	return a->type == b->type && a->ins == b->ins && a->outs == b->outs;
}

/* Every orientation of a type: ports for n of them into ins/outs (at most
 * 12); returns n. */
int laser_orientations(int type, uint8_t *ins, uint8_t *outs);

/* The design level of a board (its fixed pieces and blockers): a tray of
 * every orientation of the palette's types, one group per type capped by
 * the palette (or by caps[type], when caps is not NULL), and with
 * open_targets up to that many targets that take any power.  NULL with err
 * when the unit overflows. */
struct lk_laser *laser_design_level(const struct laser_gen *g, const struct laser_spec *board,
				  int open_targets, const int *caps, struct lk_strbuf *err);

/* The first design on a board: each of `runs` restarts on a design level
 * of a sub-palette drawn at random (the whole palette unless g->sample).
 * LK_SOLVED with the design level (free it) and the placement. */
enum lk_status laser_design_sampled(struct laser_gen *g, const struct laser_spec *board, int open_targets,
				  const struct lk_expr *satisfy, unsigned runs, struct lk_laser **dl_out,
				  struct lk_laser_placement *out);

/* The first design on a board grown outward from the sources into one
 * network (laser_grow.c): no search; every candidate is fired and kept
 * only if tidy, lossless, one network and within the design's own
 * conditions.  LK_SOLVED with the design level (free it) and the
 * placement, else LK_UNKNOWN. */
enum lk_status laser_design_grown(struct laser_gen *g, const struct laser_spec *board, int open_targets,
				  unsigned runs, struct lk_laser **dl_out, struct lk_laser_placement *out);

/*
 * Design an intended solution on a design level: tidy, losing no power
 * while the targets are to be placed, satisfying `satisfy`, none of the
 * nogoods (may be NULL), in `runs` randomized searches of design_nodes.
 * Returns LK_SOLVED with the placement, LK_UNSOLVABLE when a complete
 * search proved there is none, or LK_UNKNOWN.
 */
enum lk_status laser_design(struct laser_gen *g, const struct lk_laser *dl, const struct lk_laser_nogoods *ng,
			    const struct lk_expr *satisfy, unsigned runs, struct lk_laser_placement *out);

/* Can a design made of these pieces (a count per type) and the board's
 * sources satisfy the concept and the design's own conditions (targets,
 * pieces), from bounds on the facts? */
bool laser_gen_satisfiable(const struct laser_gen *g, const int *pieces);

/* A placement of a level as pieces by kind. */
void laser_pieces_of(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		     struct laser_gen_pieces *out);

/* Seconds since the level was begun. */
double laser_gen_elapsed(const struct laser_gen *g);

#endif
