/*
 * sokoban_any_search.h - the state of Sokoban's feature-space search
 * (solve -a any), shared by the search itself (sokoban_any.c) and the code
 * that decides which move it plays next (sokoban_any_order.c: cells of
 * feature space, advisors, the order of a state's moves).  Private to those
 * two files.
 */
#ifndef LEVELKIT_SOKOBAN_ANY_SEARCH_H
#define LEVELKIT_SOKOBAN_ANY_SEARCH_H

#include "sokoban_any.h"


/* a node's features in the table's cost field: a dead node */
#define DEAD_NODE UINT32_MAX
#define NONE UINT32_MAX
/* Expansions after which a best state that has not been bettered gets the
 * best cell's turn one time in eight instead of every other turn. */
#define STALE_BEST 5000
/* advisors: packing, areas, doorways, out of plan, hotspots (the
 * feature advisors), explorer, opener (sokoban_any_advise.c), imagine
 * (sokoban_any_imagine.c) */
#define NFEATURE_ADVISORS 5
#define NADVISORS 8

/* node flags (per table entry) */
enum { NODE_EXPANDED = 1, NODE_DEAD = 2 };

/* An expanded state: its moves, each leading to a node of the table. */
struct expansion {
	uint32_t node;
	uint32_t parent;          /* expansion, or NONE for the start */
	uint32_t weight;          /* moves on its path no advisor proposed */
	uint32_t moves;           /* its first move in a->moves */
	uint32_t nmoves, next;    /* its moves, sorted; the next to try */
	uint32_t best;            /* packed features, the best on its path */
};

/* A move of an expanded state: 4 bytes, as there are about two a stored
 * state (where the moved box ends is read off the keys when needed). */
struct amove {
	unsigned child : 31;      /* table entry (the table holds < 2^31) */
	unsigned weight : 1;      /* 0: an advisor's, 1: any other */
};

/* The planes of plan deadlocks' flood marks (sokoban_plandead.c). */
#define SOKO_PD_PLANES 3

struct any {
	const struct sokoban *s;
	const struct lk_search_options *opt;
	struct lk_search_result *r;
	struct lk_table table;
	size_t key_size;
	struct soko_movegen gen;
	struct soko_matcher matcher;
	struct soko_plan plan;
	struct soko_relevance rel;  /* relevance cuts (first search only) */
	struct soko_pull *pull;     /* greedy search by pulls (sokoban_pull.c), the level's */
	size_t pull_seen;           /* states stored when it last grew */
	uint32_t meet;              /* the pull search's entry met, or NONE */
	struct soko_deadtab own_deadtab;
	struct soko_deadtab *deadtab;   /* the level's, or own_deadtab */
	void *scratch, *scratch2;   /* the expanded state's, a child's */
	unsigned char *key;
	unsigned char *child;       /* the children's keys of an expansion */
	size_t child_alloc;
	uint64_t *hashes;           /* and their hashes */
	size_t hashes_alloc;
	uint8_t *flags;             /* per node */
	size_t flags_alloc;
	struct expansion *exps;
	size_t nexps, exps_alloc;
	/* relevance cuts (first search only): per expansion, its path's last
	 * box moves (sokoban_relevance.c) */
	struct soko_rel_path *paths;
	size_t paths_alloc;
	struct amove *moves;
	size_t nmoves, moves_alloc;
	uint64_t *keys;             /* sorting an expansion's moves */
	size_t keys_alloc;
	struct soko_cells cells;
	size_t next_cell;           /* the next cell round */
	/* cell-age: per expansion, the number of its push while it waits in
	 * its cell, 0 once taken; the pushes made */
	uint32_t *queued;
	size_t queued_alloc;
	uint32_t pushes;
	uint8_t *allow;             /* per cell: a box the PI-corral lets move */
	uint32_t best_exp;          /* the expansion of best features */
	uint64_t best_since;        /* expansions when it was found */
	uint32_t goal_node, goal_exp;
	bool macros;                /* goal rooms and goal cuts may be used */
	uint16_t *next;             /* per goal area: its next goal to fill */
	bool solved;
	enum lk_limit limit;
	double deadline;
	const struct soko_fess_hook *hook;   /* the schedule's turns, or NULL */
	uint64_t work0;             /* the deadlock table's work at the start */
	/* the explorer's and opener's working memory (sokoban_any_advise.c):
	 * per cell flood stamps, the squares a flood looks for, a stack; the
	 * pushes out of reach; the opener's goal and its steps per cell */
	uint32_t *adv_mark, adv_stamp, *adv_goal, adv_goal_stamp;
	uint16_t *adv_stack;
	struct closed_push *closed;
	size_t closed_alloc;
	int open_goal;
	uint16_t *open_dist;
	/* the imagine advisor's positions (sokoban_any_imagine.c), built when
	 * first asked for: NULL without a parking plan */
	struct soko_imagine *imagine;
	bool imagine_tried;
	/* plan deadlocks' working memory (sokoban_plandead.c): flood stamps
	 * per cell (SOKO_PD_PLANES planes of s->cells, each its own stamp, so
	 * that a flood kept for later moves is not overwritten by another), a
	 * stack, the next goals of a parent and of a child */
	uint32_t *pd_mark, pd_stamp[SOKO_PD_PLANES];
	uint16_t *pd_stack, *pd_next, *pd_next2;
	/* park-deadlocks: per cell, the step of the parking plan whose target
	 * that goal is (SOKO_NONE: none), and the steps reached by the
	 * position tested (its goals' boxes are walls); per cell, whether a
	 * step reads it (a target or a square left: a move touching neither
	 * keeps the steps reached); the goals a group's flood missed */
	uint16_t *pd_step;
	int pd_reached;
	uint8_t *pd_plan;
	uint16_t *pd_missing;
	/* the back floods met, by their packed boxes (sokoban_plandead.c):
	 * slots of (packed boxes, flood) bitsets, which are used; a key being
	 * built; the parent's flood and a group's, copied out */
	uint8_t *pd_cache, *pd_used, *pd_key, *pd_parent, *pd_group;
};

/* ---- which move next (sokoban_any_order.c) ---- */

/* The cell code of packed features (one cell without the feature space). */
uint32_t soko_fess_cell_code(const struct any *a, uint32_t packed_features);
/* The cell of a code; a new cell is the next one visited. */
size_t soko_fess_find_cell(struct any *a, uint32_t code);
/* The expansion whose move cell c's turn plays (cell-age: every
 * AGE_EVERY-th turn the one that has waited longest); false if none. */
bool soko_fess_take(struct any *a, size_t c, uint32_t *e);
/* Put expansion e into its cell at the weight of its next live move. */
void soko_fess_schedule(struct any *a, uint32_t e);
/* The advisors' picks among expansion x's moves (indices, into chosen,
 * room for NADVISORS); returns how many. */
int soko_fess_advise(struct any *a, const struct expansion *x, size_t *chosen);
/* The explorer's and the opener's pick among expansion x's moves (an
 * index), or -1; f: the features of x's state (sokoban_any_advise.c). */
long soko_fess_explorer(struct any *a, const struct expansion *x, const struct soko_features *f);
long soko_fess_opener(struct any *a, const struct expansion *x, const struct soko_features *f);
/* The imagine advisor's pick among expansion x's moves (an index), or -1
 * (sokoban_any_imagine.c); its positions are freed by soko_imagine_free. */
long soko_fess_imagine(struct any *a, const struct expansion *x, const struct soko_features *f);
struct soko_imagine *soko_imagine_build(const struct sokoban *s, const struct soko_park *p);
void soko_imagine_free(struct soko_imagine *im);
/* Square c in the position imagined once `reached` steps of the plan are
 * (0 .. its steps): 0 no box, 1 a box not packed, 2 a goal packed by then
 * or by the step that position comes before; -1: no position (all packed). */
int soko_imagine_square(const struct soko_imagine *im, int reached, int c);
/* Sort the n moves at m in the order they are tried (keys: room for n). */
void soko_fess_sort_moves(const struct any *a, struct amove *m, uint32_t n, uint64_t *keys);

/* ---- plan deadlocks (sokoban_plandead.c) ---- */

/* In the first search (goal rooms on), the moves m[0 .. nmoves) of the
 * state in sc (n boxes) after which a box not packed can no longer reach a
 * goal not packed, or such a goal no box, the packed boxes as walls, left
 * out; counts them; returns the moves left, in order, at the front of m. */
size_t soko_plan_dead_cut(struct any *a, struct soko_scratch *sc, int n,
			  struct soko_boxmove *m, size_t nmoves);

#endif
