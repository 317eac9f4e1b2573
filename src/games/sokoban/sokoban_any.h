/*
 * sokoban_any.h - internals of Sokoban's search for any solution (solve
 * -a any): box moves, the features of a position, the packing order, the
 * learned deadlock patterns and the feature-space search that uses them.
 * See docs/games/sokoban.md, "Hard levels".
 */
#ifndef LEVELKIT_SOKOBAN_ANY_H
#define LEVELKIT_SOKOBAN_ANY_H

#include "levelkit/search.h"
#include "levelkit/table.h"
#include "sokoban.h"

/* ---- box moves (sokoban_boxmoves.c) ---- */

/* One box move: a box pushed from `from` to `to` by one or more pushes of
 * that box alone, the player ending in the area `player` (the least
 * compact index it reaches: the key's normalised player). */
struct soko_boxmove {
	uint16_t from, to;
	uint16_t player;
	uint16_t pushes;      /* the fewest pushes it takes */
};

struct soko_movegen {
	const struct sokoban *s;
	/* per (cell, side): stamp of the box search that saw it, and for
	 * rebuilding a move the (cell, side) it came from */
	uint32_t *seen, seen_stamp;
	int32_t *pred;
	uint16_t *depth;
	uint32_t *queue;
	/* per cell: the player areas around a box standing there, labelled
	 * once per cell and box search (area_stamp) */
	uint32_t *area_stamp;
	uint32_t *nb_area;        /* 4 per cell: area label of each neighbour, 0 = none */
	uint16_t *nb_least;       /* 4 per cell: least compact index of that area */
	uint8_t *nb_done;         /* per cell: which neighbours' areas made a move */
	uint8_t *frozen;          /* per cell: a box there is frozen off a goal */
	uint16_t *stack;
	/* the floor free of boxes, searched depth first once per position
	 * (Tarjan): per cell its discovery time (0: a box or wall), the last
	 * discovery time in its subtree, its low point, the least compact
	 * index in its subtree, its component's first cell (the component's
	 * least index) and up to four children */
	uint16_t *disc, *last, *low, *sub_least, *root, *kids;
	uint8_t *nkids, *iter;
	uint16_t *adj;            /* 4 per cell: its floor neighbours, nadj[cell] of them */
	uint8_t *nadj;
	int components;           /* of the floor free of boxes */
	const struct soko_scratch *indexed;   /* the scratch and reach stamp */
	uint32_t indexed_stamp;               /* soko_movegen_reach indexed */
	/* the moves of the last soko_box_moves call */
	struct soko_boxmove *moves;
	size_t nmoves, alloc;
	uint64_t long_moves;      /* moves of more than one push made */
};

void soko_movegen_init(struct soko_movegen *g, const struct sokoban *s);
void soko_movegen_release(struct soko_movegen *g);
/* The player's reach from cell in the state unpacked in sc, as
 * soko_reach marks and returns it, found by the depth-first search of the
 * floor that soko_box_moves then needs (done once for both). */
int soko_movegen_reach(struct soko_movegen *g, struct soko_scratch *sc, int cell);
/* Every box move of the state unpacked in sc, whose player reach is the
 * current sc->mark stamp; only boxes for which allow[box cell] is set
 * when allow is non-NULL.  Moves onto dead squares or into freeze
 * deadlocks (when those techniques are on) are left out. */
size_t soko_box_moves(struct soko_movegen *g, struct soko_scratch *sc, int nboxes,
		      const uint8_t *allow);
/* The player areas (connected free floor) of the child of box move
 * from -> to out of the state of the last soko_box_moves call: worked out
 * from that call's depth-first search of the floor, without a flood. */
int soko_move_areas(const struct soko_movegen *g, int from, int to);
/* The pushes of one box move from the state unpacked in sc (reach as
 * above): the box on `from` to `to` with the player ending in the area
 * whose least index is `player`.  Writes the push directions (lk_dir) in
 * order into dirs (room for s->cells * 4) and returns how many, or -1 if
 * there is no such move. */
int soko_box_move_pushes(struct soko_movegen *g, struct soko_scratch *sc, int from, int to,
			 unsigned player, uint8_t *dirs);

/* Write a path of box-move states (keys of the search, chain[0] the start)
 * out as pushes: r->path the level's keys after each push (the player
 * normalised under the pushes metric, exact under moves), r->nkeys, and
 * r->cost in the level's metric.  Two scratch blocks of the level. */
void soko_box_path(struct soko_movegen *g, const struct lk_level *level, void *scratch,
		   void *scratch2, const unsigned char *const *chain, size_t n,
		   struct lk_search_result *r);

/* ---- the cells of feature space (sokoban_cells.c) ---- */

struct soko_cell {
	uint32_t code;
	uint64_t *heap;       /* least first */
	size_t n, alloc;
	/* cell-age: the items in the order pushed (from fifo[head]; items
	 * taken by the heap are dropped lazily), and the cell's turns */
	uint64_t *fifo;
	size_t head, fn, falloc;
	uint64_t turns;
};

struct soko_cells {
	struct soko_cell *cells;
	size_t n, alloc;
	uint32_t *index;      /* open addressing: cell number + 1, 0 = empty */
	size_t cap;
	size_t bytes;         /* memory held */
};

void soko_cells_release(struct soko_cells *t);
/* The cell of code (*made when it is new). */
size_t soko_cells_find(struct soko_cells *t, uint32_t code, bool *made);
void soko_cells_push(struct soko_cells *t, size_t cell, uint64_t v);
/* The least item of a cell that has one. */
uint64_t soko_cells_pop(struct soko_cells *t, size_t cell);
/* cell-age: queue item v in the order pushed; take the first item still
 * valid (by valid(ctx, item); the others before it are dropped) into *v,
 * false if none.  A push drops the invalid items once they are more than
 * the valid ones (at most 2 * valid + 64 kept). */
void soko_cells_fifo_push(struct soko_cells *t, size_t cell, uint64_t v,
			  bool (*valid)(const void *ctx, uint64_t item), const void *ctx);
bool soko_cells_fifo_take(struct soko_cells *t, size_t cell, uint64_t *v,
			  bool (*valid)(const void *ctx, uint64_t item), const void *ctx);

/* ---- the dead-state test (sokoban_matchable.c) ---- */

struct soko_matcher {
	int *owner;           /* per goal: the cell of the box matched to it, or -1 */
	uint32_t *seen, stamp;
	/* a parent's matching (soko_matcher_base), its children's start, and
	 * the next parent's: its boxes' cells in cell order, how many (-1:
	 * none kept, the next parent is matched from scratch) */
	int *base;            /* per goal: as owner */
	bool base_ok;         /* every box of the parent matched */
	uint16_t *base_boxes;
	int base_n;
	/* per cell, the goals a box there reaches (bit g % 64 of word g / 64
	 * of the cell's `words`); the goals seen by the current search, the
	 * goals free in owner and in base, as bits; built from goal distances
	 * `bits_of` of `bits_n` goals */
	uint64_t *reach_bits, *seen_bits, *free_bits, *base_free;
	int words;
	const uint16_t *bits_of;
	int bits_n;
};

void soko_matcher_init(struct soko_matcher *m, const struct sokoban *s);
void soko_matcher_release(struct soko_matcher *m);
/* Is the position whose boxes are unpacked in sc (n of them) dead because
 * some box reaches no goal, or the boxes cannot all have goals of their
 * own (each when its technique is on)?  As the matching heuristic's
 * LK_H_DEAD, without the costs. */
bool soko_unmatchable(const struct sokoban *s, struct soko_scratch *sc, int n,
		      struct soko_matcher *m);
/* Keep the matching of the position in sc (n boxes), a parent whose
 * children soko_unmatchable_move then asks about.  Counts nothing.  Starts
 * from the last parent's matching when it had one: the boxes gone give up
 * their goals, the boxes new are augmented one by one (the same answer as
 * from scratch, see sokoban_matchable.c). */
void soko_matcher_base(const struct sokoban *s, const struct soko_scratch *sc, int n,
		       struct soko_matcher *m);
/* soko_unmatchable for the child of that parent where the box on from
 * moved to to (its boxes in sc): the same answer and counts, found from
 * the parent's matching with one augmenting path (the other boxes keep
 * their goals; a matching for all exists if and only if one path from the
 * moved box does, Berge), or from scratch when the parent had none. */
bool soko_unmatchable_move(const struct sokoban *s, struct soko_scratch *sc, int n,
			   struct soko_matcher *m, int from, int to);

/* ---- learned deadlock patterns (sokoban_deadtab.c) ---- */

#define DT_MAX_BOXES 6
/* With big-corrals, the most boxes of a corral's fence searched alone
 * (its pattern then lists its boxes in the pattern store, not inline). */
#define DT_CORRAL_BOXES 16

struct soko_deadtab {
	const struct sokoban *s;
	int nfloor;
	size_t player_bytes;
	/* patterns: boxes[first[i] .. first[i + 1]) and the player squares
	 * player[i * player_bytes ..] (compact bitset) */
	uint16_t *boxes;
	uint32_t *first;
	uint8_t *player;
	size_t npatterns, boxes_alloc, first_alloc, player_alloc;
	/* per cell: the patterns with a box there, each with its other boxes
	 * inline, so that a probe reads the pattern's player squares only
	 * when its boxes are all there */
	struct soko_dt_entry {
		uint32_t pattern;
		uint16_t other[DT_MAX_BOXES - 1];
		uint8_t nother;   /* DT_LONG: the pattern's boxes are read from boxes[] */
	} **by_cell;
	size_t *by_cell_n, *by_cell_alloc;
	size_t by_cell_bytes;     /* the lists' allocations, for the memory bound */
	/* the small searches */
	struct lk_table table, alive;
	void *scratch;
	uint8_t *key, *succ, *in_cluster;
	uint32_t *mark, stamp;    /* corrals: flood stamps */
	/* the small searches' starts normalised lately: a cache of
	 * DT_NORM_SLOTS keys with their players as given (norm_keys) and
	 * each one's normalised player, found by hash */
	uint8_t *norm_keys, *norm_used;
	uint16_t *norm_player;
	struct soko_matcher matcher;
	uint16_t *stack;
	/* the small searches' floods a row at a time (false: a board
	 * wider than a word, flooded square by square) */
	struct soko_rows rows;
	bool use_rows;
	uint64_t learned, matched, searches, work, checks;
	uint64_t reused;          /* small searches ended by a position known alive */
	uint64_t matched_big;     /* of matched: by a pattern of a fence beyond DT_MAX_BOXES */
	uint64_t unproven;        /* positions known alive not trusted (proven-alive) */
};

void soko_deadtab_init(struct soko_deadtab *t, const struct sokoban *s, size_t scratch_size);
void soko_deadtab_release(struct soko_deadtab *t);
size_t soko_deadtab_bytes(const struct soko_deadtab *t);
/* Is the position in sc (its boxes in sc->box, the player's normalised
 * square `player`, a compact index) dead by a pattern with a box on cell?
 * With learn, the boxes around cell are searched alone when no pattern
 * says so, and a new pattern kept if they are dead. */
bool soko_deadtab_check(struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
			unsigned player, bool learn);

/* ---- the plan (sokoban_plan.c) and the features (sokoban_features.c) ---- */

#define SOKO_NONE 0xffffu

/* The goal areas (sokoban_plan.c): goals at most two steps apart over the
 * floor share one, numbered in the order of their first goal; area_of[cell]
 * (cells of them) gets each goal's, SOKO_NONE elsewhere.  Returns how many.
 * The plan's areas and area by area's (sokoban_any_areas.c) are these. */
int soko_goal_areas(const struct sokoban *s, uint16_t *area_of);

/*
 * What the search knows of a level before it starts: the order the goals
 * are to be filled in (the packing order), the goals grouped into areas
 * (goals at most two steps apart), and the doorways: squares whose
 * blocking cuts the floor in two (articulation points of the floor).
 */
struct soko_plan {
	int ngoals;
	uint16_t *order;         /* goal cells, the first to be filled first */
	uint16_t *rank;          /* per cell: index in order, or SOKO_NONE */
	int nareas;
	uint16_t *area_of;       /* per cell: goal area, or SOKO_NONE */
	uint16_t *area_first;    /* area a's goals: area_goals[area_first[a] .. area_first[a + 1]) */
	uint16_t *area_goals;    /* by area, each in packing order */
	int ordered;             /* goals the retrieval ordered */
	uint64_t entry_refused;  /* packing-entry: pulled boxes it refused */
	uint64_t park_refused;   /* playable-parking: parking squares it refused */
	bool park_retried;       /* parking-retry found the parking plan */
	uint8_t *doorway;        /* per cell */
	/* hotspots: cuts[y * nfloor + x] when a box on floor square y leaves
	 * a box on x no goal to reach (both compact indices) */
	uint8_t *cuts;
	int nfloor;
	/* the same as bits: row y (cut_words words) has bit x set when
	 * cuts[y * nfloor + x] is */
	uint64_t *cut_bits;
	size_t cut_words;
	struct soko_park *park;  /* the parking plan in force, or NULL (sokoban_park.c) */
	struct soko_rooms *rooms; /* room connectivity, or NULL (sokoban_rooms.c) */
	/* out of plan: zone[k] is the bitset (compact indices) of the squares
	 * where a box is in the way of packing once k goals are packed */
	uint8_t **zone;
	size_t zone_bytes;
	/* the same zones as lists of cells, zone_cells[zone_first[k] ..
	 * zone_first[k + 1]), and how many of the goals packed before goal k
	 * of its area lie in zone k (soko_features reads these) */
	uint16_t *zone_cells, *zone_packed;
	uint32_t *zone_first;
	/* working memory of the features; per box cell of the last
	 * soko_features_base, its cutters (hotspots), and that base's boxes
	 * in cell order, how many (-1: none) */
	uint32_t *mark, stamp;
	uint16_t *cutters, *cut_boxes, *cut_gone, *cut_come;
	int cut_n;
	uint64_t *cut_off;       /* that base's boxes off goals, as bits (cut_words) */
	uint16_t *stack;
	bool shared;             /* a view: all but the working memory is another plan's */
};

/*
 * The features of a position (Shoham and Schaeffer's FESS): boxes packed
 * (in each goal area, the goals filled in packing order before the first
 * empty one), player areas (connected free floor), boxes in doorways (with
 * room-connectivity on, FESS's room connectivity in their place: the room
 * links the boxes cut, sokoban_rooms.c), boxes
 * out of plan (on a goal beyond the packed ones, or in the way of the next
 * goals to pack), and hotspots (boxes that cut another box off from every
 * goal).  Packed into 32 bits, so that the state table's cost field holds
 * them.
 */
struct soko_features {
	uint8_t packed, areas, doorways, out_of_plan, hotspots;
};

/*
 * When the plan's building stops early: the search's cancel and stop flags
 * (a split's other lane answered) and its deadline.  The packing order and
 * the parking plan are bounded by work, not time (so that they are the
 * same on any machine), and on the biggest levels take a second; a
 * search given less, or stopped meanwhile, must not wait for them.  A
 * plan cut short is only ever used by a search that stops at once.
 */
struct soko_stop {
	const struct lk_bounds *bounds;
	double deadline;
	unsigned calls;
	bool stopped;
};

/* Has building the plan to stop?  Reads the clock every 64th call; once
 * true, true for good.  st may be NULL (never). */
static inline bool soko_stopped(struct soko_stop *st)
{
	if (!st)
		return false;
	if (!st->stopped && (++st->calls & 63) == 0)
		st->stopped = lk_bounds_cancelled(st->bounds) ||
			      lk_bounds_time_up(st->bounds, st->deadline);
	return st->stopped;
}

/* use_order false: no packing order (every goal is its own area, so any
 * box on a goal counts as packed).  stop: when to give up (may be NULL). */
void soko_plan_build(struct soko_plan *p, const struct sokoban *s, bool use_order,
		     struct soko_stop *stop);
void soko_plan_release(struct soko_plan *p);
/* soko_plan_build with the goals of late (per cell, or NULL: none)
 * filled as late as the order can (replan: the retrieval takes them out
 * first wherever it can take one of them out). */
void soko_plan_build_late(struct soko_plan *p, const struct sokoban *s, bool use_order,
			  struct soko_stop *stop, const uint8_t *late);
/* replan (sokoban_replan.c): for the position of key (a state's key)
 * where the first search stalled under plan p, marks in late (per cell)
 * the packed goals whose boxes stand in the cheapest way of a box not
 * packed to a goal not packed; returns how many it marked that were not. */
int soko_replan_late(const struct sokoban *s, const struct soko_plan *p, const unsigned char *key,
		     uint8_t *late);
/* A view of plan `from` (built once per level, then never written, so
 * that every search of the level, in any thread, shares it): its order,
 * areas, doorways, hotspot cuts, zones and parking plan borrowed, working
 * memory and room links of its own (the rooms are cheap and hold working
 * memory).  soko_plan_release frees only what the view owns; `from` must
 * outlive it.  A search with a view searches as with a plan of its own. */
void soko_plan_view(struct soko_plan *p, const struct soko_plan *from, const struct sokoban *s);
/* The features of the boxes in sc->box (sc->boxes holds nboxes). */
void soko_features(struct soko_plan *p, const struct sokoban *s, const struct soko_scratch *sc,
		   int nboxes, struct soko_features *f);
/* The same with the number of player areas known (areas >= 0: not
 * counted again by a flood of the floor). */
void soko_features_areas(struct soko_plan *p, const struct sokoban *s,
			 const struct soko_scratch *sc, int nboxes, int areas,
			 struct soko_features *f);
/* Keep the hotspot counts of the position in sc (a parent whose children
 * soko_features_move then scores). */
void soko_features_base(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes);
/* soko_features_areas for the child of that parent where the box on from
 * moved to to (its boxes in sc): the same features, the hotspots counted
 * from the parent's (sokoban_features.c). */
void soko_features_move(struct soko_plan *p, const struct sokoban *s,
			const struct soko_scratch *sc, int nboxes, int areas, int from, int to,
			struct soko_features *f);
/* Whether a is better than b: more packed, then fewer player areas, boxes
 * in doorways, out of plan, hotspots (FESS's order). */
bool soko_features_better(const struct soko_features *a, const struct soko_features *b);
uint32_t soko_features_pack(const struct soko_features *f);
void soko_features_unpack(uint32_t v, struct soko_features *f);
/* The first empty goal of each area beyond its packed goals, into next
 * (p->nareas entries, SOKO_NONE where an area is full). */
void soko_next_goals(const struct soko_plan *p, const struct soko_scratch *sc, uint16_t *next);
/* The same from the boxes as a per-cell array. */
void soko_next_goals_box(const struct soko_plan *p, const uint8_t *box, uint16_t *next);

/* ---- room connectivity (sokoban_rooms.c) ---- */

/* Rooms a level may have for the feature to be worked out. */
#define SOKO_MAX_ROOMS 64

struct soko_rooms {
	int nrooms;
	uint8_t *room;           /* per cell: its room + 1, 0 for a corridor or wall */
	uint64_t *base;          /* per room: the rooms it is linked to, no box placed */
	int base_links;          /* links of the empty level */
	uint64_t *links;         /* working: per room, in the position asked about */
	uint8_t *any;            /* working: per room, a piece of it seen */
	uint32_t *mark, stamp;   /* working: per cell */
	uint16_t *stack;
};

/* The rooms of level s and their links. */
struct soko_rooms *soko_rooms_new(const struct sokoban *s);
void soko_rooms_free(struct soko_rooms *r);
/* How many links of the empty level the boxes of box (per cell) cut. */
int soko_rooms_cut(struct soko_rooms *r, const struct sokoban *s, const uint8_t *box);

/* ---- the parking plan (sokoban_park.c) ---- */

/* Played forwards: step i brings a box onto target[i] (a goal or a parking
 * square) from leaves[i] (the parking square it stood on) or from where it
 * started (SOKO_NONE; start[i] is then that start square, else SOKO_NONE);
 * size[i] targets hold boxes after it. */
struct soko_park {
	int nsteps, nparked;     /* steps, and of them onto parking squares */
	uint16_t *target, *leaves, *start, *size;
	uint8_t *on_target;      /* per cell: some step's target */
	bool playable;           /* built by playable-plan's run: plays push by push */
	bool repaired;           /* mended by plan-repair (sokoban_parkrepair.c) */
	bool shuffled;           /* with shuffle-plan's prelude (sokoban_parkshuffle.c) */
};

/* The parking plan of the level, or NULL when it needs none or none was
 * found; doorway: per cell, a square whose blocking cuts the floor in two
 * (no box is parked there); refused (NULL: not asked), the parking squares
 * playable-parking refused; retried (NULL: not asked), whether
 * parking-retry found the plan. */
struct soko_park *soko_park_build(const struct sokoban *s, const uint8_t *doorway,
				  struct soko_stop *stop, uint64_t *refused, bool *retried);
void soko_park_free(struct soko_park *p);
/* playable-plan's run alone (sokoban_parkfix.c: the boxes taken out kept
 * on their start squares, so that the plan plays push by push from the
 * level's start), its budgets scaled by scale (> 0), for shuffle-plan's
 * shuffled starts: the plan, or NULL. */
struct soko_park *soko_park_build_fixed(const struct sokoban *s, const uint8_t *doorway,
					struct soko_stop *stop, double scale);
/* packed (the plan's steps reached) and out of plan (boxes on targets
 * beyond them) of the boxes in sc, into f. */
void soko_park_features(const struct soko_park *p,
			const struct soko_scratch *sc, int nboxes, struct soko_features *f);
/* Why a plan's step cannot be played push by push (sokoban_parkplay.c). */
enum soko_play_fault {
	SOKO_PLAY_OK,
	SOKO_PLAY_NO_BOX,        /* no box on the square the step moves from */
	SOKO_PLAY_TARGET_HELD,   /* the target holds a box (one not moved yet) */
	SOKO_PLAY_UNMOVED,       /* pushable only with the boxes not moved yet lifted */
	SOKO_PLAY_BLOCKED,       /* not pushable even so */
};
/* Plays plan p forwards from the level's start, each step its box pushed
 * to its target, the others in place (the boxes not moved yet on their
 * start squares), the player walking on from the step before: the first
 * step that cannot be played (-1: none), why into *fault (NULL: not
 * asked).  Cells squared of memory (eight bytes each): for tests,
 * bench/park_play.c and plan-repair (sokoban_parkrepair.c). */
int soko_park_play(const struct sokoban *s, const struct soko_park *p, enum soko_play_fault *fault);
/* plan-repair (sokoban_parkrepair.c): plan p mended forwards so that more
 * of its steps play push by push, or NULL when no repair plays further
 * (held_only: mended only where the first step that fails finds its target
 * holding a box, as the search asks); how many of p's steps play before
 * and after the repair into *played_before and *played_after (NULL: not
 * asked; -1 both when the level is too large to mend). */
struct soko_park *soko_park_repair(const struct sokoban *s, const struct soko_park *p,
				   struct soko_stop *stop, bool held_only, int *played_before,
				   int *played_after);
/* shuffle-plan (sokoban_parkshuffle.c): plan p with box moves from the
 * level's start (before its steps or between them) after which it plays
 * push by push to its end, found by a bounded best-first search over
 * positions (or such moves followed by playable-plan's plan from where
 * they lead; doorway: the plan's); NULL when none is found within the
 * bounds.  How many of p's steps play push by push without the moves and
 * with the best moves found (all of them where a plan is returned) into
 * *played_before and *played_after, and the kept plan's moves into *moves
 * (NULL: not asked; -1 and no plan when the level is too large). */
struct soko_park *soko_park_shuffle(const struct sokoban *s, const struct soko_park *p,
				    const uint8_t *doorway, struct soko_stop *stop,
				    int *played_before, int *played_after, int *moves);
/* Tests: plan-repair mends every plan that fails even where held_only
 * asks otherwise (as the search asks it; default off). */
void soko_park_set_repair_all(bool all);
/* Tests: keep a complete plan even when it parks no box. */
void soko_park_set_always(bool always);
/* For tests: while on, plan deadlocks (sokoban_plandead.c) also decide
 * every move they decide through a shared or cached flood with floods of
 * its own, as before session 39, and count the moves so checked and those
 * decided otherwise (read and zeroed by soko_plandead_checks). */
void soko_plandead_set_check(bool on);
void soko_plandead_checks(uint64_t *checked, uint64_t *differed);
/* Tests: fewest-parked on (the default) or off (each side's first plan). */
void soko_park_set_fewest(bool fewest);

/* ---- the feature-space search (sokoban_any.c) ---- */

/* A hand-over of the feature-space search (sokoban_any_budget.c: greedy
 * slices, stall turns): due is asked now and then with the search's work so
 * far (states stored plus the deadlock table's small-search positions), the
 * bytes it holds, its expansions and the packed boxes of its best state
 * (features packed, on its path) and that state's key; it may run another
 * search meanwhile, and returns true when that answered the level, or the
 * search is to be run again under a new plan (replan; the feature-space
 * search then stops). */
struct any;
struct soko_fess_hook {
	bool (*due)(void *ctx, uint64_t work, size_t held, uint64_t expanded, unsigned packed,
		    const unsigned char *best);
	void *ctx;
	uint64_t every;       /* asked when (turn & every) == 0: 63, or 0 in tests */
	/* restart (may be NULL): where the search using the hook keeps a
	 * pointer to itself while it runs (NULL once it has ended), and what
	 * it asks when it runs out of moves (true: answered, in ctx) */
	struct any **live;
	bool (*dry)(void *ctx, size_t held);
};

/* ---- restart (sokoban_any_restart.c) ---- */

/* The restarts of one level: the positions tried, and the copy of the
 * level they are searched as (its own start, its own learned state). */
struct soko_restart {
	const struct sokoban *s;
	struct sokoban *copy;       /* made when first needed */
	unsigned char *keys;        /* positions tried (key_size each) */
	size_t *tried;              /* per position: the most states it was given */
	bool *dead;                 /* per position: proved unsolvable */
	size_t n, alloc;
	uint64_t runs;              /* restart searches run (counter restarts) */
};

void soko_restart_init(struct soko_restart *rs, const struct sokoban *s);
void soko_restart_release(struct soko_restart *rs);
/* A round of restarts from the live first search a (a parking plan in
 * force): the first positions of each plan step on the path to a's best
 * position, deepest first, each searched by soko_any_one as a level of
 * its own within `states` states in all (at most half of them each), the
 * time and memory the level's opt leaves since t0 beside `held` bytes.
 * True when one answered: then *found holds the path from the level's
 * start, joined; the effort of the others is added to *spent. */
/* Tests: the fewest states a restart gets (0: the default, 4096); the
 * answers restarts gave so far (joined to their paths). */
void soko_restart_set_min(size_t states);
uint64_t soko_restart_answers(void);
bool soko_restart_round(struct soko_restart *rs, struct any *a, const struct lk_search_options *opt,
			double t0, size_t held, size_t states, struct lk_search_result *found,
			struct lk_search_result *spent);

/* Tests: the first greedy slice's states (0: the default). */
void soko_any_set_slice_first(size_t states);

/* Add the search effort and counters of an earlier search e to r (the
 * budget's turns and slices, a restart round's searches). */
void soko_any_add_effort(struct lk_search_result *r, const struct lk_search_result *e);
/* Tests: the first stall turn's window (work without packing progress)
 * and states (0: the defaults; with a window set, the schedule is asked at
 * every turn of the first search, not every 64th, and the window counts
 * from its first expansion, a box packed or not). */
void soko_any_set_stall_first(uint64_t work, size_t states);
/* Tests: greedy-share's rate, states a second of the time bound (0: the
 * default). */
void soko_any_set_greedy_rate(double states_per_second);
/* Tests: cell-age's turns, one in how many of a cell's (0: the default). */
void soko_any_set_age_every(unsigned turns);

/* One search for any solution of the level, in the calling thread: greedy
 * slices, the feature-space search and its turns (sokoban_any_budget.c);
 * soko_solve_any runs it, or several at once (sokoban_any_split.c). */
void soko_any_one(const struct lk_level *level, const struct lk_search_options *opt,
		  struct lk_search_result *r);

/* Area by area (sokoban_any_areas.c): the goal areas solved one at a time
 * as levels of their own, every other box a wall, then the rest; true, r
 * the answer, when that solved the level; false, r what it spent, when it
 * did not (or did not apply). */
bool soko_any_areas(const struct lk_level *level, const struct lk_search_options *opt,
		    struct lk_search_result *r);
/* Does area by area take part on this level (switched on, ten boxes or
 * more, as many as goals, two goal areas or more)? */
bool soko_any_areas_apply(const struct lk_level *level);
/* Tests: the fewest boxes a level needs for area by area (0: the default,
 * 10). */
void soko_any_areas_set_min_boxes(int n);
/* Tests: whether the rest after the areas is searched (true, the default).
 * On a small level the rest with every box solves what the areas leave,
 * so area-restore's pass, which runs only where it did not, is reached
 * only with it off. */
void soko_any_areas_set_rest(bool on);

/* ---- parallel search of one level (sokoban_any_split.c) ---- */

/* The most searches of one level at once (solve --split). */
#define SOKO_SPLIT_MAX 8
/* Tests: HOLD_OTHERS: the searches other than the first wait for the
 * stop before they start (so that they must be stopped, not finish);
 * HOLD_FIRST: the first waits until another answered or all ended (so
 * that the others' answers are taken); 0: none held (the default). */
#define SOKO_SPLIT_HOLD_OTHERS 1
#define SOKO_SPLIT_HOLD_FIRST 2
void soko_any_split_hold(int how);
/* Tests: the lanes of the last split run made while held, their answers
 * (status, limit), and how many ran (then 0 until the next); lane 0 the
 * default configuration. */
int soko_any_split_last(enum lk_status *status, enum lk_limit *limit, int max);
/* The configuration of lane i (0: the level's own) as the technique
 * switches use, from the level's; false when it has none (fewer distinct
 * configurations than lanes). */
bool soko_any_split_config(const struct sokoban *s, int lane, bool *use);

struct soko_pull;

/* One feature-space search of the level, with the goal-room macros when
 * macros is set (where they cut moves, running out of moves proves
 * nothing: soko_solve_any then runs it again without them); hook NULL or
 * as above; pull the level's pull search it grows and meets (resumed where
 * the last search left it), or NULL for one of its own; plan the level's
 * plan (soko_plan_build with s->use[SOKO_T_PACKING]) it shares, or NULL to
 * build its own. */
void soko_fess(const struct lk_level *level, const struct lk_search_options *opt,
	       struct lk_search_result *r, bool macros, const struct soko_fess_hook *hook,
	       struct soko_pull *pull, const struct soko_plan *plan);

/* ---- goal-room macros (sokoban_goalroom.c) ---- */

/* Goal rooms and goal cuts (each when its technique is on) applied to the
 * box moves m[0 .. n) of the state in sc (boxes set): moves of boxes on
 * packed goals left out, and when a move fills an area's next goal, only
 * such moves kept.  next: room for p->nareas.  Counts what it cuts;
 * returns the moves left, in order, at the front of m. */
size_t soko_goal_macros(const struct sokoban *s, const struct soko_plan *p, uint16_t *next,
			struct soko_scratch *sc, struct soko_boxmove *m, size_t n);

/* ---- relevance cuts (sokoban_relevance.c) ---- */

/* Steps over the floor within which two squares influence each other. */
#define SOKO_RELEVANCE_RADIUS 6
/* At most BUDGET unrelated moves among the last WINDOW of a path. */
#define SOKO_RELEVANCE_WINDOW 4
#define SOKO_RELEVANCE_BUDGET 1
/* How many keys of a path (the state's and its ancestors') the cut reads:
 * enough for WINDOW moves and a few moves of the player alone. */
#define SOKO_RELEVANCE_KEYS (SOKO_RELEVANCE_WINDOW + 3)

struct soko_relevance {
	const struct sokoban *s;
	uint8_t *near;           /* nfloor x nfloor: within the radius (compact) */
};

void soko_relevance_init(struct soko_relevance *r, const struct sokoban *s);
void soko_relevance_release(struct soko_relevance *r);
/* Where the box that moved between keys from and to went (a cell; -1 when
 * no box moved, only the player) and, in *was, where it came from. */
int soko_moved_box(const struct sokoban *s, const unsigned char *from, const unsigned char *to,
		   int *was);
/* Relevance cuts (when the technique is on) on the box moves m[0 .. n) of
 * the state whose key is keys[0], keys[1 .. nkeys) its ancestors' (parent
 * first): moves unrelated to the last one are left out while the path's
 * budget of unrelated moves is spent.  Counts what it cuts; returns the
 * moves left, in order, at the front of m (all of them rather than none). */
size_t soko_relevance_cut(const struct soko_relevance *r, struct soko_scratch *sc,
			  const unsigned char *const *keys, int nkeys, struct soko_boxmove *m,
			  size_t n);

/* What the cut reads of a path's last SOKO_RELEVANCE_KEYS - 1 moves (moves
 * of the player alone skipped), kept by the feature-space search per
 * expansion instead of reading its ancestors' keys: of the last
 * SOKO_RELEVANCE_MOVES box moves (most recent first), how many moves back
 * each was (age, 0: the state's own move), whether each was related to
 * the one before it, and where the last one took its box; 6 bytes. */
#define SOKO_RELEVANCE_MOVES 4
struct soko_rel_path {
	uint16_t to;             /* the last box move's square */
	uint16_t ages;           /* 3 bits each */
	uint8_t n;               /* box moves held */
	uint8_t related;         /* bit i: move i related to move i + 1 */
};
/* The path of a state whose own move took a box from `was` to `dest`
 * (dest < 0: the player alone moved), its parent's path `before` (NULL at
 * the start's children: none). */
struct soko_rel_path soko_relevance_extend(const struct soko_relevance *r,
					   const struct soko_rel_path *before, int was, int dest);
/* soko_relevance_cut on path p: the same cut as on the keys p was read
 * from. */
size_t soko_relevance_cut_path(const struct soko_relevance *r, struct soko_scratch *sc,
			       const struct soko_rel_path *p, struct soko_boxmove *m, size_t n);

/* ---- the pull search (sokoban_pull.c) ---- */

/* The pull search stores nothing until the feature-space searches have
 * stored PULL_DELAY states in all, then one state for every PULL_SHARE
 * they store. */
#define PULL_DELAY ((size_t)1 << 19)
#define PULL_SHARE 1

/* Best-first search by pulls from the solved position (greedy; with
 * pull-both-orders greedy, and YASS's weighted order taking turns with it
 * over one table while greedy stalls; with pull-weighted YASS's order
 * alone), one for all
 * the feature-space searches of a level; rev NULL until it starts, and
 * when the level has none (technique off, not the pushes metric, or not as
 * many boxes as goals). */
struct soko_pull {
	const struct sokoban *s;
	size_t max_bytes;         /* for its table */
	size_t forward;           /* states the feature-space searches stored */
	struct lk_level *rev;     /* the reversed level, once started */
	struct lk_table table;    /* entry 0: the virtual start (player anywhere) */
	struct soko_cells open;   /* cell 0: greedy's open list (least estimate
				   * first), cell 1: YASS's (least score first) */
	unsigned share[2];        /* lists in use (1) or not (0): greedy's, YASS's */
	unsigned best;            /* pull-both-orders: the least estimate greedy expanded */
	size_t since;             /* greedy's expansions since best last fell */
	size_t seen;              /* pull-both-orders: the states greedy pushed (its share) */
	size_t credit;            /* YASS's order's turns earned, in quarters */
	size_t yass;              /* the states YASS's order stored so far */
	size_t cap;               /* the most it may store (pull-cap-turns raises it) */
	bool raised;              /* pull-cap-turns: past BOTH_CAP its states count in the share */
	size_t yass_share;        /* YASS's states counted in the share so */
	unsigned char *flags;     /* per entry, with both orders: the lists it is on */
	size_t flags_alloc;
	uint32_t found;           /* the entry that answered (reached the start, or met), or LK_NO_ENTRY */
	uint32_t met;             /* the running search's entry it met (two-way), or LK_NO_ENTRY */
	bool done;                /* grows no more: found, memory, or no pull left */
	bool two_way;             /* pull-two-way: new pulled states looked up forwards */
	bool weighted;            /* pull-weighted: YASS's order (soko_pull_score), not greedy */
	const struct lk_table *forward_table;   /* the running search's, or NULL */
	void *scratch;
	void *yass_scratch;       /* YASS's order's evaluations (with both orders, its own) */
	unsigned char *succ;
	uint64_t *hashes;         /* the successors' hashes, taken before they are stored */
	struct lk_edge *edges;
};

void soko_pull_init(struct soko_pull *p, const struct sokoban *s, size_t max_bytes);
void soko_pull_release(struct soko_pull *p);
/* pull-cap-turns: YASS's order may store factor times as many states as
 * it might (only where both orders are in use); true when raised. */
bool soko_pull_raise_cap(struct soko_pull *p, size_t factor);
/* The open list's order of a pulled state (least first): pulls made from
 * the solved position and the reversed level's bound (LK_H_DEAD: dead). */
unsigned soko_pull_score(unsigned pulls, unsigned bound);
size_t soko_pull_bytes(const struct soko_pull *p);
/* The feature-space search whose table (forward, or NULL) new pulled
 * states are looked up in (pull-two-way); returns the one before, which
 * the search gives back when it ends (a stall turn runs inside another). */
const struct lk_table *soko_pull_attach(struct soko_pull *p, const struct lk_table *forward);
/* Run the pull search on to its share of the forward states stored, after
 * more_forward more were; true once it has answered: found is the pull
 * search's entry, met the attached table's entry it met (pull-two-way), or
 * LK_NO_ENTRY when found is the start itself; false at once when stop (may be
 * NULL: never) says the search must stop. */
bool soko_pull_grow(struct soko_pull *p, size_t more_forward, struct soko_stop *stop);
/* The pull search's entry of a forward key (hash: lk_hash_bytes), or
 * LK_NO_ENTRY. */
uint32_t soko_pull_find(const struct soko_pull *p, const unsigned char *key, uint64_t hash);
/* Fetch ahead the place soko_pull_find will look a key of this hash up
 * (the feature-space search's children, before they are stored). */
static inline void soko_pull_prefetch(const struct soko_pull *p, uint64_t hash)
{
	if (p->rev)
		lk_table_prefetch(&p->table, hash);
}
/* Append to *chain (*n keys, the last the key of the pull search's entry
 * id) the keys of id's path on to the solved position (the player
 * normalised), in forward order; returns the block they are in (the
 * caller frees it and *chain). */
unsigned char *soko_pull_chain(const struct soko_pull *p, uint32_t id, const unsigned char ***chain,
			       size_t *n);
/* Tests: the least states the pull search stores (0: the default, none
 * before PULL_DELAY). */
void soko_pull_set_min(size_t states);
/* Tests: the forward states before it stores any (0: PULL_DELAY). */
void soko_pull_set_delay(size_t states);
/* pull-both-orders: greedy's expansions without a new least estimate
 * before YASS's order gets turns; tests set it (0: from the start). */
#define PULL_BOTH_STALL ((size_t)1 << 16)
void soko_pull_set_stall(size_t expansions);
/* Tests: the states YASS's order stores in all with pull-both-orders, its
 * turns stop once it has (0: the default, 3 x 2^18). */
void soko_pull_set_cap(size_t states);
/* Tests: the pull searches started so far (reversed levels made). */
size_t soko_pull_starts(void);

#endif
