/*
 * sokoban.h - internals shared by the Sokoban game's source files.
 *
 * The board is stored padded by one wall on every side so that a cell's
 * four neighbours always exist.  Cells the player can ever stand on (the
 * flood fill from the player, boxes counted as floor) are the "floor";
 * everything else is a wall to the solver.  Floor cells are also numbered
 * densely in row-major order ("compact" indices) for the packed key:
 *
 *   key[0..1]  the player's compact index (little-endian)
 *   key[2..]   one bit per floor cell: a box stands there
 *
 * Two state spaces share that key.  Under the "pushes" metric an edge is
 * one push (the player's walk to it is free) and the player index is
 * normalised to the least floor cell the player can reach, so positions
 * that differ only by walking are one state.  Under "moves" an edge is one
 * step, pushing or not, and the player index is exact: MixedAim's and
 * PuzzleScript's notion of a state.
 */
#ifndef LEVELKIT_SOKOBAN_H
#define LEVELKIT_SOKOBAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "levelkit/bits.h"
#include "levelkit/game.h"
#include "levelkit/grid.h"

#define SOKO_INF 0xffffu

enum soko_heuristic { SOKO_H_MATCHING, SOKO_H_MIXEDAIM };

/* The techniques, each with its switch (sokoban.use) and its counter
 * (soko_scratch.count), in the order of soko_techniques (sokoban_level.c,
 * docs/games/sokoban.md):
 *  - dead squares: pushes onto a square no goal can be reached from;
 *  - freeze: pushes that leave a box frozen off its goal;
 *  - bipartite: states whose boxes cannot be matched to distinct goals;
 *  - PI-corrals: pushes left out while a PI-corral needs pushing;
 *  - tunnel macros: a box pushed into a dead-end corridor goes on to the
 *    deepest empty goal in it at once (or the push is dead);
 *  - deadlock table: patterns of boxes proved dead by small searches;
 *  - player-aware: the lower bound's push distances know which side of a
 *    box the player can reach (sokoban_aware.c);
 *  - pair conflicts: the lower bound adds what two boxes cost together
 *    beyond their costs alone (sokoban_pairs.c);
 * and those of the search for any solution (sokoban_any.h):
 *  - greedy first: greedy best-first search first, with a third of the time;
 *  - box macros: a move pushes one box any number of times;
 *  - packing order: goals filled in an order worked out backwards;
 *  - feature space: states taken in turn from the cells of their features;
 *  - advisors: the moves that improve a feature are tried first;
 *  - goal rooms: boxes on the packed goals of an area stay, a unit;
 *  - goal cuts: a move that fills an area's next goal cuts the others;
 *  - greedy slices: greedy first runs in slices of states between turns
 *    of the feature-space search (sokoban_any_budget.c);
 *  - alive reuse: the deadlock table's small searches stop at a position
 *    already found alive (sokoban_deadtab.c);
 *  - relevance cuts: moves far from the last one are cut once a path has
 *    made its budget of such moves (sokoban_relevance.c);
 *  - pull search: greedy search by pulls from the solved position beside
 *    the feature-space search, which may also meet it (sokoban_pull.c);
 *  - stall turns: the search without goal-room macros and relevance cuts
 *    gets turns while the first one packs no more (sokoban_any_budget.c);
 *  - pull two-way: a pulled state the feature-space search holds answers
 *    too, not only a forward state the pull search holds (sokoban_pull.c);
 *  - parking plan: a packing order that parks boxes off the goals first
 *    where the goals alone have none (sokoban_park.c);
 *  - room connectivity (off by default): FESS's links between rooms that
 *    boxes cut, a feature and cell coordinate (sokoban_rooms.c);
 *  - pull weighted (off by default): the pull search ordered as YASS's
 *    backward search, pulls/2 + 3/2 of the bound (sokoban_pull.c);
 *  - packing entry: the packing order's retrieval takes a box out only to
 *    where the player, after the pulls, is still with the start
 *    (sokoban_plan.c);
 * and again of the push searches' lower bound:
 *  - pattern search: penalties of clusters of up to four boxes, proved by
 *    small searches during the search (sokoban_patterns.c);
 * and of the search for any solution last:
 *  - split (with solve --split N): N differently configured searches of a
 *    level at once, one a thread, the first answer winning
 *    (sokoban_any_split.c);
 *  - plan deadlocks (off by default): in the first search, moves after
 *    which the packed boxes, as walls, shut a box off from every goal left
 *    or a goal left off from every box are cut (sokoban_plandead.c);
 * and of the deadlock table again:
 *  - big corrals: the fence of a corral beside a moved box is searched
 *    alone up to 16 boxes, not 6, within 100 positions
 *    (sokoban_deadtab.c). */
enum soko_technique {
	SOKO_T_DEAD_SQUARES, SOKO_T_FREEZE, SOKO_T_BIPARTITE, SOKO_T_PI_CORRALS, SOKO_T_TUNNELS,
	SOKO_T_DEADTAB, SOKO_T_AWARE, SOKO_T_PAIRS,
	/* the search for any solution (sokoban_any.c) */
	SOKO_T_GREEDY_FIRST, SOKO_T_MACROS, SOKO_T_PACKING, SOKO_T_FEATURES, SOKO_T_ADVISORS,
	SOKO_T_GOAL_ROOMS, SOKO_T_GOAL_CUTS, SOKO_T_GREEDY_SLICES, SOKO_T_ALIVE_REUSE,
	SOKO_T_RELEVANCE, SOKO_T_PULL, SOKO_T_STALL, SOKO_T_PULL_TWO_WAY, SOKO_T_PARKING,
	/* the push searches' lower bound again (sokoban_patterns.c) */
	SOKO_T_PATTERNS,
	/* the search for any solution again: FESS's room connectivity
	 * (sokoban_rooms.c) and the pull search in YASS's order (sokoban_pull.c),
	 * both off by default (LK_TECH_OFF); Festival's rule that no advisor
	 * unpacks a box (sokoban_any_order.c); the pull search in both orders
	 * taking turns (off by default) */
	SOKO_T_ROOMS, SOKO_T_PULL_WEIGHTED, SOKO_T_NO_UNPACK, SOKO_T_PULL_BOTH,
	/* FESS's explorer and opener advisors (sokoban_any_advise.c) */
	SOKO_T_EXPLORER, SOKO_T_OPENER,
	/* the packing order's retrieval: a box counts as taken out only where
	 * the player, after the pulls, is back with the start (sokoban_plan.c) */
	SOKO_T_PACK_ENTRY,
	/* parallel search of one level (solve --split, sokoban_any_split.c) */
	SOKO_T_SPLIT,
	/* the first search's plan deadlocks: packed boxes as walls
	 * (sokoban_plandead.c) */
	SOKO_T_PLAN_DEAD,
	/* the deadlock table again: corrals fenced by up to DT_CORRAL_BOXES
	 * boxes searched alone (sokoban_deadtab.c) */
	SOKO_T_BIG_CORRALS,
	/* the deadlock table's alive reuse trusts only proofs: positions on the
	 * way to every box on a goal, not to boxes spread apart */
	SOKO_T_PROVEN_ALIVE,
	/* the first search run again under a new packing order after a stall
	 * that shows the order wrong (sokoban_replan.c) */
	SOKO_T_REPLAN,
	/* Festival's imagine advisor: the plan's position before its next
	 * packing (sokoban_any_imagine.c) */
	SOKO_T_IMAGINE,
	/* the parking plan parks no box on a start square whose box the plan
	 * moves only later (sokoban_park.c; off by default) */
	SOKO_T_PLAYABLE_PARK,
	/* where the plan search finds no complete parking plan, it runs again
	 * as playable-parking runs it (sokoban_park.c) */
	SOKO_T_PARK_RETRY,
	/* the parking plan keeps the boxes it has taken out on their start
	 * squares, so that it plays push by push (sokoban_park.c) */
	SOKO_T_PLAYABLE_PLAN,
	/* the first search's plan deadlocks under a parking plan: the goals of
	 * the plan's steps reached as walls (sokoban_plandead.c; on) */
	SOKO_T_PARK_DEAD,
	/* greedy search's share of -a any counted in states (GREEDY_RATE a
	 * second of the time bound), not timed, so that a level's course is
	 * the same on every run (sokoban_any_budget.c) */
	SOKO_T_GREEDY_SHARE,
	/* every AGE_EVERY-th turn of a feature-space cell goes to the
	 * expansion that has waited in it longest (sokoban_any_order.c; off) */
	SOKO_T_CELL_AGE,
	/* the parking plan mended forwards where its first step that cannot
	 * be pushed finds its target holding a box not moved yet
	 * (sokoban_parkrepair.c; off) */
	SOKO_T_PLAN_REPAIR,
	/* where the parking plan does not play push by push, a prelude of box
	 * moves from the start after which it does, found by a bounded
	 * best-first search (sokoban_parkshuffle.c) */
	SOKO_T_SHUFFLE_PLAN,
	/* where the first search under a parking plan stalls or runs dry, a
	 * fresh search from its deepest positions still worth a try, as levels
	 * of their own, the paths joined (sokoban_any_restart.c) */
	SOKO_T_RESTART,
	/* every other turn of the sound search beside a stalled first search
	 * runs under a plan without the packing order: every goal its own area
	 * (sokoban_any_budget.c) */
	SOKO_T_UNORDERED,
	/* turns of the sound search under the packing order but without the
	 * parking plan, a third kind beside the two above (sokoban_any_budget.c) */
	SOKO_T_UNPARKED,
	/* where the first search ran dry and the sound search runs again in
	 * its place, that search gets the stall turns too, of the other plans'
	 * kinds only (sokoban_any_budget.c) */
	SOKO_T_DRY_TURNS,
	/* where the first search ran dry and the sound search runs again in
	 * its place, restart's rounds from that search's best path at its
	 * stalls, parking plan or not (sokoban_any_budget.c) */
	SOKO_T_DRY_RESTART,
	/* each stall turn that does not answer raises the cap on the states
	 * pull-both-orders' YASS order may store (sokoban_pull.c) */
	SOKO_T_PULL_CAP,
	/* area by area: the goal areas solved one at a time as levels of their
	 * own, every other box a wall, before the search of the whole level
	 * (sokoban_any_areas.c) */
	SOKO_T_AREAS,
	/* where area by area leaves areas unsolved, each with an area solved
	 * before it taken as one from the start, and the rounds again
	 * (sokoban_any_areas.c) */
	SOKO_T_AREA_RESTARTS,
	/* an area whose level, the other boxes walls, is proved unsolvable,
	 * solved again with the other areas' boxes in it, each to end where
	 * it stands (sokoban_any_areas.c) */
	SOKO_T_AREA_RESTORE,
	SOKO_NTECH
};
_Static_assert(SOKO_NTECH <= LK_MAX_TECHNIQUES, "raise LK_MAX_TECHNIQUES for Sokoban's techniques");
extern const struct lk_technique soko_techniques[];
void soko_technique_counts(const struct lk_level *level, const void *scratch, uint64_t *counts);

struct sokoban {
	struct lk_level base;
	int width, height;       /* padded board */
	int cells;               /* width * height */
	int off[4];              /* index offset of a step in each lk_dir */
	char *board;             /* per cell: '#', ' ' or '.' as drawn, no movables */
	uint8_t *wall;           /* per cell: not floor */
	uint8_t *goal;           /* per cell */
	uint8_t *dead;           /* per cell: a box here can never reach a goal */
	/* per cell and lk_dir: a box pushed onto the cell that way enters a
	 * dead-end corridor (sokoban_tunnel.c); NULL when not computed */
	uint8_t *deadend;
	/* learned deadlock patterns of the forward push searches on this
	 * level (sokoban_deadtab.c), or NULL; a level is searched by one
	 * thread at a time */
	struct soko_deadtab *deadtab;
	int32_t *compact;        /* cell -> compact floor index, or -1 */
	uint16_t *cell_of;       /* compact floor index -> cell */
	int nfloor;
	int nboxes, ngoals;
	uint16_t *goals;         /* goal cells (on the floor) */
	uint16_t player0;        /* start cell of the player */
	uint8_t *box0;           /* start box bitset (bitset_bytes) */
	uint8_t *goal_bits;      /* goals as a bitset */
	size_t bitset_bytes;
	bool push_graph;         /* metric pushes (else moves) */
	bool impossible;         /* a box can never be moved onto a goal */
	bool use[SOKO_NTECH];    /* each technique's switch (all off for --plain) */
	enum soko_heuristic heuristic;
	/* push distance from every cell to every goal, ignoring other boxes:
	 * dist[g * cells + c], SOKO_INF where impossible */
	uint16_t *dist;
	/* Player-aware push distances (sokoban_aware.c), or NULL: the area
	 * of every player square for every box square (nfloor x nfloor,
	 * compact indices) and the distances per goal, square and area. */
	uint8_t *aware_side;
	uint16_t *aware_dist;
	/* what the heuristic reads: aware_dist, or in a reversed level the
	 * pull distances to the start squares (its own) */
	const uint16_t *aware_tdist;
	/* Pair conflicts (sokoban_pairs.c): the pattern database of two boxes,
	 * or NULL; a reversed level has its own. */
	struct soko_pairs *pairs;
	/* Pattern searches (sokoban_patterns.c): the penalties learned, or
	 * NULL (a reversed level has none). */
	struct soko_patterns *patterns;
	/* What the heuristic matches boxes against: the goals and dist, or in
	 * a reversed level the start squares and the distances to them. */
	int ntargets;
	const uint16_t *targets;
	const uint16_t *tdist;
	/* tdist again by square: tdist_by_cell[c * ntargets + g], so that a
	 * box's row of the matching is read in one run (sokoban_heuristic.c);
	 * built for the distances by_cell_of, and read only while those are
	 * still tdist (a copied level may change its targets) */
	uint16_t *tdist_by_cell;
	const uint16_t *by_cell_of;
	/* aware_tdist again by square and area, the matching's row of a box
	 * ready to read in one run: aware_by_cell[(c * 4 + k) * ntargets + g]
	 * (SOKO_INF where the plain distance is), with flags per (c, k)
	 * (SOKO_ROW_*); built for aware_of and plain_of and read only while
	 * those are still aware_tdist and tdist (sokoban_aware.c) */
	uint16_t *aware_by_cell;
	uint8_t *aware_row_flags;
	const uint16_t *aware_of, *plain_of;
	/* Reversed level (pulls from the solved position back to the start;
	 * see sokoban_reverse.c): the forward level it shares arrays with. */
	const struct sokoban *forward;
	uint8_t *start_key;      /* reversed: the forward start state */
	/* Where a solution may leave the player, or NULL (anywhere): per cell,
	 * the squares of the solved position's player areas that count (a
	 * level of one goal area, sokoban_any_areas.c, must leave the player
	 * where the other areas' boxes are).  Owned by the forward level; a
	 * reversed level's virtual start pulls only from these squares. */
	uint8_t *exit_area;
	/* Target order (sokoban_order.c): target_index maps a cell to its
	 * number in targets, or SOKO_NO_TARGET; blocks[t] has bit u set when a
	 * box on target t shuts off target u (NULL when none does). */
	uint16_t *target_index;
	uint64_t *blocks;
	/* The facts a move can carry: "push", then "box 1" ... "box n" (the
	 * boxes numbered in reading order of the start), which only the
	 * history tells (soko_track_*). */
	const char **fact_names;
	char *fact_text;
};

#define SOKO_NO_TARGET 0xffffu

/* Player index of the reversed level's virtual start: anywhere. */
#define SOKO_ANYWHERE 0xffffu

/* Per-thread working memory, carved out of the solver's scratch block. */
/* Matchings kept per scratch to warm-start the next (sokoban_matching.c). */
#define SOKO_WARM_SLOTS 64

struct soko_scratch {
	bool ready;
	uint64_t count[SOKO_NTECH]; /* what each technique did (soko_techniques) */
	uint8_t *box;            /* per cell: box present */
	uint32_t *mark;          /* flood-fill stamps */
	uint32_t stamp;
	uint32_t *mark2;
	uint32_t stamp2;
	uint16_t *stack;         /* flood-fill stack / BFS queue */
	uint16_t *boxes;         /* list of box cells */
	uint8_t *frozen_seen;    /* freeze test: cells treated as walls */
	int32_t *label;          /* corrals: area of each unreachable square, or -1 */
	int *uf;                 /* corrals: union-find over areas */
	uint8_t *corral_flags;   /* corrals: rejected */
	uint8_t *corral_goal;    /* corrals: bit 0 empty goal inside, bit 1 off-goal box */
	int *corral_pushes;      /* corrals: pushes into it possible now */
	/* corrals: the areas labelled by the reach of stamp areas_stamp
	 * (soko_movegen_reach), how many; 0: none labelled ahead */
	uint32_t areas_stamp;
	int areas;
	int *cost;               /* matching: nboxes x ngoals */
	int *hung;               /* matching: working arrays */
	/* the last matchings' solutions, to warm-start the next one
	 * (sokoban_matching.c): SOKO_WARM_SLOTS slots, each its boxes,
	 * potentials, columns' rows and boxes as bits over the squares
	 * (warm_words words), the last saved in slot warm_last */
	int warm_n;              /* the last's number of boxes, -1 or 0: none */
	int warm_last, warm_words;
	int warm_nb, warm_ng;    /* a slot's room: boxes, goals */
	int warm_ns[SOKO_WARM_SLOTS];   /* each slot's number of boxes, 0: empty */
	uint16_t *warm_boxes;
	int *warm_u, *warm_v, *warm_p;
	uint64_t *warm_sig;      /* one more: the position being matched */
};

/* Build s->tdist_by_cell from s->tdist (sokoban_heuristic.c). */
void soko_targets_by_cell(struct sokoban *s);

size_t soko_scratch_size(const struct sokoban *s);
struct soko_scratch *soko_scratch(const struct sokoban *s, void *scratch);

static inline uint16_t soko_key_player(const uint8_t *key)
{
	return (uint16_t)(key[0] | (key[1] << 8));
}
static inline void soko_key_set_player(uint8_t *key, unsigned compact)
{
	key[0] = (uint8_t)(compact & 0xff);
	key[1] = (uint8_t)(compact >> 8);
}
/* Does the key's player stand where a solution may end (exit_area)? */
static inline bool soko_exit_ok(const struct sokoban *s, const uint8_t *key)
{
	if (!s->exit_area)
		return true;
	unsigned p = soko_key_player(key);
	return p != SOKO_ANYWHERE && s->exit_area[s->cell_of[p]];
}
static inline bool soko_bit(const uint8_t *bits, int i)
{
	return bits[i >> 3] >> (i & 7) & 1;
}
static inline void soko_bit_flip(uint8_t *bits, int i)
{
	bits[i >> 3] ^= (uint8_t)(1u << (i & 7));
}

/* Unpack a key's boxes into sc->box (which must be all clear) and
 * sc->boxes; returns the number of boxes.  soko_clear_boxes undoes it. */
int soko_unpack(const struct sokoban *s, const uint8_t *key, struct soko_scratch *sc);
void soko_clear_boxes(const struct sokoban *s, struct soko_scratch *sc, int n);
/* Flood fill the player's reach from cell into sc->mark with a fresh
 * stamp; returns the least compact index reached. */
int soko_reach(const struct sokoban *s, struct soko_scratch *sc, int cell);
/* After box b was pushed onto `to` (sc->box as after the push), from the
 * player's area before it (stamp st of sc->mark, least compact index
 * least): the normalised player square when a local test makes it sure
 * (`to` was in that area, not its least square, its free neighbours still
 * meet round it, and b opens onto nothing else: the area lost `to` and
 * gained b), else -1 (a flood must tell). */
int soko_pushed_player(const struct sokoban *s, const struct soko_scratch *sc, int b, int to,
		       uint32_t st, unsigned least);
/* The same, always answered: where the local test cannot tell, a flood
 * from b (in sc->mark2), which stops once it meets the old area's least
 * square when b opens onto nothing but that area. */
int soko_pushed_area(const struct sokoban *s, struct soko_scratch *sc, int b, int to,
		     uint32_t st, unsigned least);
/* Do the free squares beside `to` (four sides) still meet round it
 * through its free diagonal squares (the eight squares round it, in turn),
 * so that a box put on `to` cannot split them?  soko_pushed_player's
 * local test; sc->box as with the box on `to`. */
static inline bool soko_ring_joined(const struct sokoban *s, const struct soko_scratch *sc, int to)
{
	/* N, NE, E, SE, S, SW, W, NW */
	int w = s->width;
	const int ring[8] = { -w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1 };
	bool open[8];
	for (int i = 0; i < 8; i++)
		open[i] = !s->wall[to + ring[i]] && !sc->box[to + ring[i]];
	int sides = 0, links = 0;
	for (int i = 0; i < 8; i += 2) {
		sides += open[i];
		links += open[i] && open[(i + 1) & 7] && open[(i + 2) & 7];
	}
	return sides - links <= 1;
}

/* The player's area a board row at a time (boards up to 64 squares wide),
 * for the deadlock table's small searches: a row is a word of bits, one a
 * square (bit x of row y: cell y * width + x).  See sokoban_rows.c. */
struct soko_rows {
	int width, height;
	uint64_t *floor;          /* per row: the squares that are not walls */
	uint64_t *box;            /* per row: the boxes (soko_rows_boxes) */
	uint64_t *area, *area2;   /* a parent's area, a child's */
	uint8_t *row_of;          /* per cell: its row */
	uint64_t *bit_of;         /* per cell: its bit in the row */
	int *stack;               /* rows whose area grew, each once */
	uint8_t *queued;
};

/* false (nothing kept) when the board is wider than 64 squares */
bool soko_rows_init(struct soko_rows *r, const struct sokoban *s);
void soko_rows_release(struct soko_rows *r);
/* Flip the rows' bits of n boxes (put on, or taken off again). */
void soko_rows_boxes(struct soko_rows *r, const uint16_t *boxes, int n);
/* Flood the player's area from cell into area (the rows' boxes block):
 * its least cell, or -1 as soon as it holds stop (stop -1: never). */
int soko_rows_flood(struct soko_rows *r, uint64_t *area, int cell, int stop);
static inline bool soko_rows_in(const struct soko_rows *r, const uint64_t *area, int c)
{
	return (area[r->row_of[c]] & r->bit_of[c]) != 0;
}
/* soko_pushed_area with the parent's area in r->area (least compact index
 * least) and the boxes in both sc->box and the rows, as after the push;
 * floods into r->area2.  The same answer as soko_pushed_area. */
int soko_rows_pushed(const struct sokoban *s, struct soko_rows *r, const struct soko_scratch *sc,
		     int b, int to, unsigned least);

/* Would a box just moved onto cell be frozen off its goal (or freeze a
 * neighbour off its goal)?  sc->box must hold the new position. */
bool soko_freeze_deadlock(const struct sokoban *s, struct soko_scratch *sc, int cell);

/* PI-corral pruning for the state unpacked in sc whose player reach is
 * the current sc->mark stamp: returns a corral whose border boxes alone
 * need be pushed, or -1 (no pruning possible).  See sokoban_corral.c. */
int soko_pi_corral(const struct sokoban *s, struct soko_scratch *sc, int nboxes);
bool soko_corral_allows(const struct sokoban *s, struct soko_scratch *sc, int corral, int box);

/* Tunnel macros (sokoban_tunnel.c): find the dead-end corridors of a
 * forward push level; and where a box pushed from b onto `to` (direction d)
 * must end: the deepest empty goal of the corridor, or -1 (dead).  sc->box
 * holds the position before the push. */
void soko_find_deadends(struct sokoban *s);
int soko_tunnel_end(const struct sokoban *s, const struct soko_scratch *sc, int to, int d);

/* Player-aware push distances (sokoban_aware.c): built with the level
 * (push levels only), freed with it.  The pushes (a reversed level: pulls)
 * a box on cell box needs to reach target number gi with the player on
 * cell player are row[gi * SOKO_AWARE_STRIDE(s)] of the row returned. */
void soko_aware_build(struct sokoban *s);
void soko_aware_free(struct sokoban *s);
/* Build s->aware_by_cell and its flags from s->aware_tdist and s->tdist
 * (nothing when either is missing). */
void soko_aware_by_cell(struct sokoban *s);
#define SOKO_ROW_RAISED 1u     /* some target's aware distance is not the plain one */
#define SOKO_ROW_STRANDED 2u   /* no target at any plain distance */
#define SOKO_AWARE_STRIDE(s) ((size_t)(s)->cells * 4)
const uint16_t *soko_aware_row(const struct sokoban *s, int box, int player);
/* Player-aware distances to n target squares (cells x 4 each), of pushes or
 * of pulls; the caller frees them. */
uint16_t *soko_aware_distances(const struct sokoban *s, const uint16_t *targets, int n,
			       bool pulls);

/* Pair conflicts (sokoban_pairs.c): the database of a push level's targets
 * (pulls: a reversed level's, made after its forward level's), or NULL
 * where the technique is off or the level too large; its tables are built
 * once a search has evaluated as many states as they cost to build, from
 * then on in every search (soko_pairs_reset, at a search's start, counts
 * again), or at once after soko_pairs_at_once (tests).  soko_pairs_bound
 * raises the matching bound total of the boxes unpacked in sc, just
 * computed by soko_matching (whose potentials it reads), with the player
 * on cell player: the new bound, or LK_H_DEAD. */
#define SOKO_PAIR_MAX_BOXES 64
struct soko_pairs;
struct soko_pairs *soko_pairs_new(const struct sokoban *s, bool pulls);
void soko_pairs_free(struct soko_pairs *db);
void soko_pairs_reset(struct soko_pairs *db);
void soko_pairs_at_once(struct soko_pairs *db);
unsigned soko_pairs_bound(const struct sokoban *s, const struct soko_scratch *sc, int n,
			  int player, long total, const uint64_t *gmask, const uint8_t *gweight,
			  int ngroups);

/* Pattern searches (sokoban_patterns.c), forward push levels only: made
 * with the level, freed with it, reset by each search (soko_scratch).
 * soko_patterns_groups learns (within its budget) and matches the
 * patterns of the state unpacked in sc whose matching costs sc->cost hold,
 * the player on cell player: groups of boxes (masks over sc->boxes, at most
 * one per box: disjoint) and their penalties, the count returned, each a
 * bound on the pushes its boxes need beyond their matching costs, to add
 * to the matching's value (soko_pairs_bound).  soko_patterns_unlimited
 * lifts the budget (tests). */
#define SOKO_PAT_MAX_GROUPS SOKO_PAIR_MAX_BOXES
struct soko_patterns;
struct soko_patterns *soko_patterns_new(const struct sokoban *s);
void soko_patterns_free(struct soko_patterns *t);
void soko_patterns_reset(struct soko_patterns *t);
void soko_patterns_unlimited(struct soko_patterns *t);
int soko_patterns_groups(struct soko_patterns *t, struct soko_scratch *sc, int n, int player,
			 uint64_t *mask, uint8_t *weight);

/* The least-cost assignment of the n boxes unpacked in sc to the m
 * targets, over sc->cost, warm-started from this scratch's previous one
 * (sokoban_matching.c); LK_ASSIGN_NONE or more when there is none.  With
 * nearest, from the closest of the last SOKO_WARM_SLOTS solutions instead:
 * the same value, other potentials (for callers that read only the value). */
long soko_matching(struct soko_scratch *sc, int n, int m, bool nearest);

/* The push searches' deadlock table (sokoban_deadtab.c), for levels with
 * more than SOKO_DT_MIN_BOXES boxes: made when the level is built, freed
 * with it; a push checked against it (sc->box holds the position after the
 * push, player its normalised square). */
#define SOKO_DT_MIN_BOXES 4
struct soko_deadtab *soko_deadtab_new(const struct sokoban *s);
void soko_deadtab_free(struct soko_deadtab *t);
/* Forget what was learned: each search starts afresh (soko_scratch), so
 * that searches of one level (rate's runs) stay independent. */
void soko_deadtab_reset(struct soko_deadtab *t);
bool soko_deadtab_push(struct soko_deadtab *t, const struct soko_scratch *sc, int cell,
		       unsigned player);

/* Target order (sokoban_order.c): set up s->target_index and s->blocks
 * once s->targets is set; count the boxes unpacked in sc that are not
 * finished (off target, or on one that shuts off an empty target). */
void soko_target_order(struct sokoban *s);
unsigned soko_unfinished(const struct sokoban *s, const struct soko_scratch *sc, int nboxes);

/* The search for any solution (sokoban_any_budget.c, sokoban_any.c). */
struct lk_search_options;
struct lk_search_result;
void soko_solve_any(const struct lk_level *level, const struct lk_search_options *opt,
		    struct lk_search_result *r);

/* Reversed search (sokoban_reverse.c). */
struct lk_level *soko_new_reverse(const struct lk_level *forward);
/* The reversed level of a level's solved position with no target: its
 * exploration reaches every position from which the level can be solved,
 * at depth = fewest pushes to solve it (backward generation). */
struct lk_level *soko_new_unpacking(const struct lk_level *level);
unsigned soko_pull_successors(const struct sokoban *s, const uint8_t *key,
			      struct soko_scratch *sc, unsigned char *out, struct lk_edge *edges);

/* game vtable members, by file */
int soko_validate(const struct lk_record *rec, const struct lk_level_options *opt,
		  struct lk_strbuf *err, size_t *line);
struct lk_level *soko_new_level(const struct lk_record *rec, const struct lk_level_options *opt);
/* Let the level count as solved only with the player on a square that
 * exit_area (per cell, the level's to free from now on) marks: whole player
 * areas of the solved position (sokoban_any_areas.c). */
void soko_set_exit(struct sokoban *s, uint8_t *exit_area);
void soko_free_level(struct lk_level *level);
void soko_initial_state(const struct lk_level *level, void *key);
unsigned soko_successors(const struct lk_level *level, const void *key, void *scratch,
			 unsigned char *keys_out, struct lk_edge *edges);
unsigned soko_whole_successors(const struct lk_level *level, const void *key, void *scratch,
			       unsigned char *keys_out, struct lk_edge *edges);
bool soko_is_goal(const struct lk_level *level, const void *key);
unsigned soko_heuristic(const struct lk_level *level, const void *key, void *scratch);
unsigned soko_estimate(const struct lk_level *level, const void *key, void *scratch);
/* The facts a Sokoban move can carry (level->facts). */
enum { SOKO_FACT_PUSH, SOKO_FACT_BOX1 };
/* The facts' names of a level (fact_names, fact_text). */
void soko_name_facts(struct sokoban *s);
size_t soko_track_size(const struct lk_level *level);
void soko_track_start(const struct lk_level *level, void *track);
unsigned soko_track_move(const struct lk_level *level, const void *key, uint32_t move,
			 void *track, uint16_t *facts, unsigned max);
/* An edge's move code: the cell a box is pushed (or pulled) from, or the
 * player steps from, the direction, and whether a box moves. */
#define SOKO_MOVE_PUSH 4u
#define SOKO_MOVE(cell, d, push) (((uint32_t)(cell) << 3) | (uint32_t)(d) | ((push) ? SOKO_MOVE_PUSH : 0u))
unsigned soko_move_facts(const struct lk_level *level, const void *key, uint32_t move,
			 uint16_t *facts, unsigned max);
void soko_label_path(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		     struct lk_moves *out);
int soko_replay(const struct lk_level *level, const char *solution, struct lk_moves *moves,
		bool *solved, struct lk_strbuf *err);
void soko_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out);
/* Write out the groups of a solution ("2(ul)" is "ulul"); 0, or -1 with
 * a message (sokoban_notation.c). */
int soko_expand_groups(const char *solution, struct lk_strbuf *out, struct lk_strbuf *err);
/* The next move of a LURD solution from *at (blanks skipped, an optional
 * run length): its repeat count and direction (0..3, as "urdl"), *at left
 * on the move's letter (its case says push).  1 for a move, 0 at the end,
 * -1 with a message in err. */
int soko_next_move(const char **at, unsigned long *repeat, int *dir, struct lk_strbuf *err);
/* Drawing and playing back (sokoban_draw.c, sokoban_frames.c). */
struct lk_canvas;
void soko_draw(const struct lk_level *level, const void *key, const char *placement,
	       struct lk_canvas *c);
int soko_replay_keys(const struct lk_level *level, const char *solution, unsigned char **keys,
		     size_t *nkeys, struct lk_strbuf *err);
void soko_canonical(const struct lk_level *level, struct lk_strbuf *out);
/* Draw a state with only the floor and the walls touching it, cropped:
 * the same puzzle, without decoration (Combination's prettiness). */
void soko_write_tidy(const struct lk_level *level, const void *key, struct lk_strbuf *out);
/* The same for the level's start, with the player where it stands. */
void soko_write_tidy_start(const struct lk_level *level, struct lk_strbuf *out);

extern const struct lk_game lk_game_sokoban;

#endif
