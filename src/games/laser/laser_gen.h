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
	struct lk_rng rng;
	struct lk_laser_gen_stats *st;
	bool blockers_help;             /* can the concept hold with one blocker more */
	bool proofs;                    /* do hopeless boards prove something (laser_gen.c) */
	bool debug;                     /* LASER_GEN_DEBUG set: events on stderr */
	struct timespec t0;
};

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
 * the palette, and with open_targets up to that many targets that take any
 * power.  NULL with err when the unit overflows. */
struct lk_laser *laser_design_level(const struct laser_gen *g, const struct laser_spec *board,
				    int open_targets, struct lk_strbuf *err);

/*
 * Design an intended solution on a design level: tidy, losing no power
 * while the targets are to be placed, satisfying `satisfy`, none of the
 * nogoods (may be NULL), in `runs` randomized searches of design_nodes.
 * Returns LK_SOLVED with the placement, LK_UNSOLVABLE when a complete
 * search proved there is none, or LK_UNKNOWN.
 */
enum lk_status laser_design(struct laser_gen *g, const struct lk_laser *dl, const struct lk_laser_nogoods *ng,
			    const struct lk_expr *satisfy, unsigned runs, struct lk_laser_placement *out);

/* A placement of a level as pieces by kind. */
void laser_pieces_of(const struct lk_laser *lv, const struct lk_laser_placement *pl,
		     struct laser_gen_pieces *out);

/* Seconds since the level was begun. */
double laser_gen_elapsed(const struct laser_gen *g);

#endif
