/*
 * comb.h - internals of the Combination game (Jefferson, Moncur and
 * Petrie 2008): a grid of empty squares, walls and holes, and pieces of
 * several colours (rooks, bishops, queens) to place so that no piece is hit
 * by a ray of another colour.
 */
#ifndef LEVELKIT_COMB_H
#define LEVELKIT_COMB_H

#include <stdbool.h>
#include <stdint.h>

#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/grid.h"
#include "levelkit/rays.h"

#define COMB_MAX_TYPES 30      /* domains are 32-bit masks: bit 0 = no piece */
#define COMB_MAX_COLOURS 16
#define COMB_MAX_SQUARES 1024

enum comb_kind { COMB_ROOK, COMB_BISHOP, COMB_QUEEN };

struct comb_type {
	int colour;
	enum comb_kind kind;
	int count;
};

struct comb_level {
	struct lk_level base;
	int width, height;
	char *cells;                  /* '.' empty, '#' wall, 'o' hole */
	int nsq;                      /* empty squares, in reading order */
	int *sq_cell, *cell_sq;
	int ntypes, ncolours, npieces;
	struct comb_type types[COMB_MAX_TYPES];
	char *colour_names[COMB_MAX_COLOURS];
	/* rays[ray_at[sq * 8 + d] ...] : the squares a ray from sq in lk_dir d
	 * passes, in order (holes skipped), up to a wall or the edge; the
	 * three point into ray_table (rays.h) */
	struct lk_rays ray_table;
	int *ray_at, *ray_len, *rays;
	/* conflict[t][axis]: the domain bits of the types that t may not see
	 * along that axis (0 rows, 1 columns, 2 and 3 the diagonals) */
	uint32_t conflict[COMB_MAX_TYPES][4];
	uint32_t colour_bits[COMB_MAX_COLOURS];   /* domain bits of a colour's types */
	bool mono[4];                 /* every type attacks along the axis */
	/* colours with identical piece sets, in classes of interchangeable
	 * colours: class_colour[class_at[k] ...] */
	int nclasses, class_at[COMB_MAX_COLOURS + 1], class_colour[COMB_MAX_COLOURS];
};

/* The axis (0 rows, 1 columns, 2 the "\\" diagonal, 3 the "/" one) of an
 * lk_dir (0-7); inline, as the solver asks it in its inner loop. */
static inline int comb_axis(int dir)
{
	/* up, right, down, left, up-right, down-right, down-left, up-left */
	static const signed char axis[LK_DIR_COUNT] = { 1, 0, 1, 0, 3, 2, 3, 2 };
	return axis[dir];
}
bool comb_attacks(enum comb_kind kind, int axis);
/* The character of type t in solutions: '1'..'9', then 'A'.. */
char comb_type_char(int t);
int comb_char_type(char c);

/* the level's vtable members (comb_level.c) */
int comb_validate(const struct lk_game *game, const void *def, const struct lk_record *rec,
		  const struct lk_level_options *opt, struct lk_strbuf *err, size_t *line);
struct lk_level *comb_new(const struct lk_game *game, const void *def,
			  const struct lk_record *rec, const struct lk_level_options *opt);
void comb_free(struct lk_level *level);
int comb_verify(const struct lk_level *level, const char *solution, bool *valid,
		struct lk_strbuf *why);
void comb_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out);
void comb_canonical(const struct lk_level *level, struct lk_strbuf *out);

/* the solver (comb_solve.c): the fast model, with implied rules and
 * fewest-values-first branching; the flag --paper-model hands over to
 * comb_paper_solve */
void comb_solve(const struct lk_level *level, const struct lk_csp_options *opt,
		struct lk_csp_result *r);
/* Has a search of both models, at its nodes-th node, hit a bound?  Sets
 * r->limit (states; the cancel flag and the clock only every 1024th
 * node) and returns whether one is set (comb_solve.c). */
bool comb_out_of_bounds(const struct lk_csp_options *opt, double deadline,
			struct lk_csp_result *r);
/* A solution found by either model: counted, the first two kept, shown
 * to opt->visit; writer writes it in the game's notation.
 * Returns whether the search stops (the count limit, or visit said
 * so) (comb_solve.c). */
bool comb_solution_found(const struct lk_csp_options *opt, struct lk_csp_result *r,
			 void (*writer)(const void *search, struct lk_strbuf *out),
			 const void *search);
/* the paper's own model (comb_paper.c), in which the difficulty is
 * measured: Boolean M[square][type], branching on them in a fixed order */
void comb_paper_solve(const struct lk_level *level, const struct lk_csp_options *opt,
		      struct lk_csp_result *r);

/* The global cardinality constraint (comb_gcc.c): squares take one value
 * each, bit 0 "empty" or bit t+1 type t; value v exactly need[v] times.
 * The scratch keeps the last matching, the start of the next call. */
struct comb_gcc {
	int nsq, nvals;
	int *match;                   /* per square: its value in the matching */
	int used[32];
	int *queue, *by_value;
	char *seen;
	int *index, *low, *comp, *stack, *call, *next_edge;
};
void comb_gcc_init(struct comb_gcc *g, int nsq, int nvals);
void comb_gcc_release(struct comb_gcc *g);
/* False when no assignment meets the counts; else keep[q] is dom[q] less
 * the values no such assignment gives q (generalised arc consistency). */
bool comb_gcc_filter(struct comb_gcc *g, const uint32_t *dom, const int *need, uint32_t *keep);

/* drawing (comb_draw.c) */
struct lk_canvas;
void comb_draw(const struct lk_level *level, const void *key, const char *placement,
	       struct lk_canvas *c);

extern const struct lk_game lk_game_combination;

#endif
