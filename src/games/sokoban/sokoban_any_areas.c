/*
 * sokoban_any_areas.c - area by area (solve -a any; docs/games/sokoban.md,
 * "Area by area"): the goal areas solved one at a time, each as a level of
 * its own in which every other box is a wall, before the search of the
 * whole level.
 *
 * Why: a level of several rooms, each a puzzle of its own (Sasquatch III
 * 46: four rooms of 16 to 20 boxes), is to a search of the whole level the
 * product of the rooms' positions, and the plateaus of one room multiply
 * with the others' states; each room alone, the other boxes walls, solves
 * in a few thousand states.  A part solved so is legal in the whole level
 * (a box that never moves is a wall to the player), so the parts join into
 * a solution of the level.  It runs where greedy search's first slice did
 * not answer, before the feature-space search (sokoban_any_budget.c), and
 * what it can lose is time, never an answer: where no area can be solved
 * alone nothing was done; where some were, what is left is searched from
 * there, as one level of the areas left and then of every box; and where
 * that fails too, within a third of the time left, the search of the
 * whole level goes on as before.
 *
 * Which boxes an area gets: the least-cost assignment of boxes to goals by
 * push distance (walls only), each box going to its goal's area.  Where
 * the player ends matters: packing a room can shut the player in it (the
 * filled goals a wall) or on the wrong side of it, so an area's level
 * counts as solved only with the player in a solved-position area from
 * which a box of every other area still to go can be reached (exit_of,
 * soko_set_exit; the searches' goal tests and the pull search's virtual
 * start honour it).  The order: farthest areas first, then pairs, then
 * restarts (sokoban_any_areas_order.c); where all that and the rest after
 * it fail, area-restore's second pass (soko_areas_restore_pass).
 */
#include <stdlib.h>
#include <string.h>

#include "levelkit/assign.h"
#include "levelkit/clock.h"
#include "levelkit/record.h"
#include "sokoban.h"
#include "sokoban_any.h"
#include "sokoban_any_areas.h"

/* Levels with fewer boxes are left to the search of the whole level,
 * which solves them at once (Microban). */
#define AREA_MIN_BOXES 10
static int min_boxes = AREA_MIN_BOXES;

void soko_any_areas_set_min_boxes(int n)
{
	min_boxes = n > 0 ? n : AREA_MIN_BOXES;
}

static bool rest_on = true;

void soko_any_areas_set_rest(bool on)
{
	rest_on = on;
}

/* States the rest after the areas may store when the search has no state
 * or time bound of its own. */
#define REST_STATES 4000000
/* area-restore: how far from an area (steps, walls only) the boxes of
 * other areas are restored; -1: every one */
#ifndef RESTORE_NEAR
#define RESTORE_NEAR 4
#endif

void soko_set_exit(struct sokoban *s, uint8_t *exit_area)
{
	free(s->exit_area);
	s->exit_area = exit_area;
}


/* Walking distances (walls only) from the cells queue[0 .. tail), whose
 * dist is 0 (every other cell's -1), out to `depth` steps (-1: all); the
 * cells reached are left in queue in the order found.  Returns how many. */
static int walk(const struct sokoban *s, int *dist, int *queue, int tail, int depth)
{
	for (int head = 0; head < tail;) {
		int c = queue[head++];
		if (dist[c] == depth)
			continue;
		for (int d = 0; d < 4; d++) {
			int n = c + s->off[d];
			if (!s->wall[n] && dist[n] < 0) {
				dist[n] = dist[c] + 1;
				queue[tail++] = n;
			}
		}
	}
	return tail;
}

/* Walk from the one cell c (walk's arrays). */
static int walk_from(const struct sokoban *s, int *dist, int *queue, int c, int depth)
{
	for (int x = 0; x < s->cells; x++)
		dist[x] = -1;
	dist[c] = 0;
	queue[0] = c;
	return walk(s, dist, queue, 1, depth);
}

/* Goal areas: the plan's (goals at most two steps apart). */
static void goal_areas(struct areas *A)
{
	const struct sokoban *s = A->s;
	uint16_t *area_of = lk_xmalloc((size_t)s->cells * sizeof *area_of);
	A->n = soko_goal_areas(s, area_of);
	for (int c = 0; c < s->cells; c++)
		A->goal_area[c] = area_of[c] == SOKO_NONE ? -1 : area_of[c];
	free(area_of);
}

/* Each box to its goal's area by the least-cost assignment of boxes to
 * goals (push distances, walls only); false when there is none. */
static bool box_areas(struct areas *A)
{
	const struct sokoban *s = A->s;
	int n = s->nboxes, m = s->ngoals;
	int *cost = lk_xmalloc((size_t)n * (size_t)m * sizeof *cost);
	int *work = lk_xmalloc(lk_assign_work(n, m) * sizeof *work);
	int *cell = lk_xmalloc((size_t)n * sizeof *cell);
	int k = 0;
	for (int i = 0; i < s->nfloor; i++)
		if (soko_bit(s->box0, i))
			cell[k++] = s->cell_of[i];
	for (int i = 0; i < n; i++)
		for (int g = 0; g < m; g++) {
			unsigned d = s->dist[(size_t)g * (size_t)s->cells + (size_t)cell[i]];
			cost[i * m + g] = d == SOKO_INF ? LK_ASSIGN_NONE : (int)d;
		}
	bool ok = k == n && lk_assign(cost, n, m, work) < LK_ASSIGN_NONE;
	if (ok) {
		const int *h = lk_assign_holders(work, n, m);
		for (int j = 1; j <= m; j++)
			if (h[j])
				A->box_area[cell[h[j] - 1]] = A->goal_area[s->goals[j - 1]];
	}
	free(cell);
	free(work);
	free(cost);
	return ok;
}

/* Does a level made for `area` hold area a's boxes and goals?  area >= 0:
 * that one; ALL: every area; LEFT: every area not done. */
#define ALL (-1)
#define LEFT (-2)
static bool holds(const struct areas *A, int area, int a)
{
	return a >= 0 && (area == ALL || (area == LEFT && !A->done[a]) || a == area);
}

/* Is the box on cell c in the level made for `area`: held, or another
 * area's still to go, near the area, where the rest is restored
 * (A->restore)? */
static bool in_level(const struct areas *A, int area, int c)
{
	int a = A->box_area[c];
	return holds(A, area, a) || (A->restore && a >= 0 && !A->done[a] && A->near[c]);
}

/* An area whose boxes all start on its goals (a box on a goal in a
 * doorway, Sasquatch III 46's four) joins the nearest other area: as an
 * area of its own it would never move, a wall to every other area's level,
 * where the room beside it may need it pushed off and back. */
static void merge_packed(struct areas *A)
{
	const struct sokoban *s = A->s;
	int *dist = lk_xmalloc((size_t)s->cells * sizeof *dist);
	int *queue = lk_xmalloc((size_t)s->cells * sizeof *queue);
	for (int a = 0; a < A->n; a++) {
		bool has = false, all = true;
		for (int c = 0; c < s->cells; c++) {
			if (A->goal_area[c] != a)
				continue;
			has = true;
			all &= A->box_area[c] == a;
		}
		if (!has || !all)
			continue;
		int tail = 0, to = -1;
		for (int c = 0; c < s->cells; c++) {
			dist[c] = A->goal_area[c] == a ? 0 : -1;
			if (!dist[c])
				queue[tail++] = c;
		}
		int reached = walk(s, dist, queue, tail, -1);
		for (int i = tail; i < reached && to < 0; i++)   /* the first goal found */
			if (A->goal_area[queue[i]] >= 0)
				to = A->goal_area[queue[i]];
		if (to < 0)
			continue;
		for (int c = 0; c < s->cells; c++) {
			if (A->goal_area[c] == a)
				A->goal_area[c] = to;
			if (A->box_area[c] == a)
				A->box_area[c] = to;
		}
	}
	free(queue);
	free(dist);
}

/* The areas by how far the player walks (walls only) from the start to
 * their nearest goal, farthest first, as a person packs a level of rooms:
 * the deepest rooms first, while the way back through the nearer ones is
 * still open (Sasquatch III 46: taken in the order of their goals, the
 * room nearest the start went first and cut the level in two). */
static int *farthest_first(const struct areas *A)
{
	const struct sokoban *s = A->s;
	int *dist = lk_xmalloc((size_t)s->cells * sizeof *dist);
	int *queue = lk_xmalloc((size_t)s->cells * sizeof *queue);
	int *near = lk_xmalloc((size_t)A->n * sizeof *near);
	int *order = lk_xmalloc((size_t)A->n * sizeof *order);
	walk_from(s, dist, queue, s->player0, -1);
	for (int a = 0; a < A->n; a++) {
		near[a] = -1;
		order[a] = a;
	}
	for (int c = 0; c < s->cells; c++) {
		int a = A->goal_area[c];
		if (a >= 0 && dist[c] >= 0 && (near[a] < 0 || dist[c] < near[a]))
			near[a] = dist[c];
	}
	for (int i = 1; i < A->n; i++)   /* insertion sort: stable, few areas */
		for (int j = i; j > 0 && near[order[j]] > near[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	free(near);
	free(queue);
	free(dist);
	return order;
}

/* The position as a level: the boxes and goals of the areas `area` holds
 * (holds()) as they are, every other box a wall, other goals plain floor;
 * where the rest is restored (A->restore), the boxes of the other areas
 * still to go each on a goal of its own square (NULL where one stands on a
 * goal the level holds: the goals would be fewer than the boxes).  Rows
 * and columns as the level's, so cells keep their index. */
static struct lk_level *level_of(struct areas *A, int area)
{
	const struct sokoban *s = A->s;
	int w = s->width - 2, h = s->height - 2;
	char *text = lk_xmalloc((size_t)(w + 1) * (size_t)h + 1);
	char *t = text;
	for (int y = 1; y <= h; y++) {
		for (int x = 1; x <= w; x++) {
			int c = y * s->width + x;
			bool mine = in_level(A, area, c);
			bool goal = holds(A, area, A->goal_area[c]);
			if (mine && !holds(A, area, A->box_area[c])) {
				if (goal) {   /* restored on a goal the level holds */
					free(text);
					return NULL;
				}
				goal = true;
			}
			char ch;
			if (s->wall[c] || (A->box_area[c] >= 0 && !mine))
				ch = '#';
			else if (c == A->player)
				ch = goal ? '+' : '@';
			else if (A->box_area[c] >= 0)
				ch = goal ? '*' : '$';
			else
				ch = goal ? '.' : ' ';
			*t++ = ch;
		}
		*t++ = '\n';
	}
	*t = 0;
	struct lk_record rec;
	lk_record_init(&rec);
	lk_record_set_grid(&rec, text);
	free(text);
	struct lk_level *level = soko_new_level(&rec, &A->lopt);
	lk_record_release(&rec);
	if (level) {
		const struct sokoban *sub = (const struct sokoban *)level;
		if (sub->width != s->width || sub->height != s->height) {
			soko_free_level(level);   /* cells would not keep their index */
			return NULL;
		}
	}
	return level;
}

void soko_areas_add_key(struct areas *A, const unsigned char *key)
{
	size_t ks = A->s->base.key_size;
	if (A->nkeys == A->alloc) {
		A->alloc = A->alloc ? A->alloc * 2 : 256;
		A->path = lk_xrealloc(A->path, A->alloc * ks);
	}
	memcpy(A->path + A->nkeys++ * ks, key, ks);
}

/* Append a solution of sub (the level level_of made for `area`: one area,
 * LEFT or ALL) to the path: its keys as the level's, the frozen boxes put
 * back; then the boxes and the player where it leaves them. */
static void append(struct areas *A, const struct sokoban *sub, int area,
		   const struct lk_search_result *sr)
{
	const struct sokoban *s = A->s;
	size_t ks = s->base.key_size, sks = sub->base.key_size;
	unsigned char *key = lk_xmalloc(ks);
	for (size_t k = 1; k < sr->nkeys; k++) {   /* key 0 is where the path is */
		const unsigned char *sk = sr->path + k * sks;
		memset(key, 0, ks);
		for (int c = 0; c < s->cells; c++)
			if (A->box_area[c] >= 0 && !in_level(A, area, c))
				soko_bit_flip(key + 2, s->compact[c]);
		for (int i = 0; i < sub->nfloor; i++)
			if (soko_bit(sk + 2, i))
				soko_bit_flip(key + 2, s->compact[sub->cell_of[i]]);
		/* the player: where the key has it, or where the last push left it
		 * (a path that ends in a reversed search's virtual start, every box
		 * on a goal and the player anywhere: the square the box left) */
		int at = -1;
		if (soko_key_player(sk) != SOKO_ANYWHERE) {
			at = sub->cell_of[soko_key_player(sk)];
		} else {
			const unsigned char *prev = sk - sks;
			for (int i = 0; i < sub->nfloor && at < 0; i++)
				if (soko_bit(prev + 2, i) && !soko_bit(sk + 2, i))
					at = sub->cell_of[i];
		}
		int n = soko_unpack(s, key, A->sc);
		int p = soko_reach(s, A->sc, at);
		soko_clear_boxes(s, A->sc, n);
		soko_key_set_player(key, (unsigned)p);
		soko_areas_add_key(A, key);
	}
	/* the boxes now: area's on its goals (the rest's: on every goal) */
	const unsigned char *last = A->path + (A->nkeys - 1) * ks;
	for (int c = 0; c < s->cells; c++)
		if (holds(A, area, A->box_area[c]))
			A->box_area[c] = -1;
	for (int c = 0; c < s->cells; c++)
		if (s->compact[c] >= 0 && soko_bit(last + 2, s->compact[c]) && A->box_area[c] < 0)
			A->box_area[c] = A->goal_area[c];
	A->player = s->cell_of[soko_key_player(last)];
	free(key);
}

/* Flood from c over what is not wall[] into comp (component k). */
static void flood(const struct sokoban *s, const uint8_t *wall, int *comp, int *stack, int c0,
		  int k)
{
	int top = 0;
	comp[c0] = k;
	stack[top++] = c0;
	while (top > 0) {
		int c = stack[--top];
		for (int d = 0; d < 4; d++) {
			int n = c + s->off[d];
			if (!wall[n] && comp[n] < 0) {
				comp[n] = k;
				stack[top++] = n;
			}
		}
	}
}

/* How boxes of the areas still to go count on the way: walls (WALK_ROUND),
 * walls where they stand on a goal (WALK_ON_GOALS: a box on a goal in a
 * doorway stays there), or out of the way (WALK_THROUGH). */
enum walk { WALK_THROUGH, WALK_ON_GOALS, WALK_ROUND };

/* The components of the map without area's goals, the packed boxes and
 * the boxes `walk` says into wide, and into touched[k] how many other areas
 * still to go have a box in component k or beside it.  wall, stack and
 * seen (cells each) are the caller's working memory. */
static void reach_areas(const struct areas *A, int area, enum walk walk, int *wide, int *touched,
			int *stack, uint8_t *wall, int *seen)
{
	const struct sokoban *s = A->s;
	size_t n = (size_t)s->cells;
	for (size_t c = 0; c < n; c++) {
		int b = A->box_area[c];
		bool in_way = walk == WALK_ROUND || (walk == WALK_ON_GOALS && s->goal[c]);
		wall[c] = s->wall[c] || (b >= 0 && b != area && (A->done[b] || in_way)) ||
			  A->goal_area[c] == area;
		wide[c] = -1;
		touched[c] = 0;
	}
	for (size_t c = 0; c < n; c++)
		seen[c] = 0;
	int nwide = 0;
	for (size_t c = 0; c < n; c++)
		if (!wall[c] && wide[c] < 0) {
			int k = nwide++;
			flood(s, wall, wide, stack, (int)c, k);
		}
	/* seen[k]: the last area + 1 counted in component k */
	for (int b = 0; b < A->n; b++) {
		if (b == area || A->done[b])
			continue;
		for (size_t c = 0; c < n; c++) {
			if (A->box_area[c] != b)
				continue;
			for (int d = 0; d < 5; d++) {   /* the box's square, then beside it */
				int k = wide[d == 4 ? (int)c : (int)c + s->off[d]];
				if (k >= 0 && seen[k] != b + 1) {
					seen[k] = b + 1;
					touched[k]++;
				}
			}
		}
	}
}

/* Where area's level may leave the player: the player areas of its solved
 * position (its boxes on its goals, every other box a wall) from which the
 * player reaches a box of every other area still to go, walking round
 * every box; where none does, round the boxes on goals only; where none
 * does either, were the boxes of the areas still to go out of the way (the
 * packed boxes always walls).  Without it a packed room can cut the level
 * in two, or shut the player in: on Sasquatch III 46 the last rule alone
 * let a room leave the player beside a box on a goal in a doorway that can
 * be pushed only into a dead end, while the first finds no way between
 * two rooms whose boxes are still to be packed.  *none is set when no player area qualifies: the area
 * cannot go next.  NULL also when no other area is left: anywhere. */
static uint8_t *exit_of(const struct areas *A, const struct sokoban *sub, int area, bool *none)
{
	const struct sokoban *s = A->s;
	int left = 0;
	*none = false;
	for (int a = 0; a < A->n; a++)
		left += a != area && !A->done[a];
	if (left == 0)
		return NULL;
	size_t n = (size_t)s->cells;
	int *comp = lk_xmalloc(n * sizeof *comp), *wide = lk_xmalloc(n * sizeof *wide);
	int *stack = lk_xmalloc(n * sizeof *stack), *touched = lk_xmalloc(n * sizeof *touched);
	uint8_t *wall = lk_xmalloc(n);
	int *seen = lk_xmalloc(n * sizeof *seen);
	uint8_t *exit_area = lk_xcalloc(n, 1);
	bool any = false;
	for (int walk = WALK_ROUND; walk >= WALK_THROUGH && !any; walk--) {
		reach_areas(A, area, (enum walk)walk, wide, touched, stack, wall, seen);
		/* the solved position's player areas, each read off its
		 * component of that map */
		for (size_t c = 0; c < n; c++) {
			wall[c] = sub->wall[c] || sub->goal[c];
			comp[c] = -1;
		}
		for (int i = 0; i < sub->nfloor; i++) {
			int c = sub->cell_of[i];
			if (wall[c] || comp[c] >= 0)
				continue;
			flood(s, wall, comp, stack, c, i);
			if (wide[c] >= 0 && touched[wide[c]] == left) {
				any = true;
				for (size_t x = 0; x < n; x++)
					if (comp[x] == i)
						exit_area[x] = 1;
			}
		}
	}
	free(seen);
	free(wall);
	free(touched);
	free(stack);
	free(wide);
	free(comp);
	if (!any) {
		free(exit_area);
		*none = true;
		return NULL;
	}
	return exit_area;
}

/* Merge area b into area a: b's boxes and goals are a's, b counts as
 * done. */
void soko_areas_merge(struct areas *A, int a, int b)
{
	for (int c = 0; c < A->s->cells; c++) {
		if (A->goal_area[c] == b)
			A->goal_area[c] = a;
		if (A->box_area[c] == b)
			A->box_area[c] = a;
	}
	A->done[b] = true;
}

/* Is every box of area on a goal of area already? */
static bool packed(const struct areas *A, int area)
{
	const struct sokoban *s = A->s;
	for (int c = 0; c < s->cells; c++)
		if (A->box_area[c] == area && A->goal_area[c] != area)
			return false;
	return true;
}

static void switches(struct areas *A)
{
	const struct sokoban *s = A->s;
	int noff = 0, non = 0;
	for (int t = 0; t < SOKO_NTECH; t++) {
		if (t == SOKO_T_AREAS || !s->use[t])
			A->off[noff++] = soko_techniques[t].name;
		else if (soko_techniques[t].flags & LK_TECH_OFF)
			A->on[non++] = soko_techniques[t].name;
	}
	A->off[noff] = NULL;
	A->on[non] = NULL;
	memset(&A->lopt, 0, sizeof A->lopt);
	A->lopt.off = A->off;
	A->lopt.on = A->on;
}

/* Solve one area's level as level_of makes it (the rest walls, or
 * restored); 1 solved (the path went on), 0 proved unsolvable by its
 * search, DEAD dead at the start, -1 not answered (no exit, or a bound). */
#define DEAD 2
static int solve_level(struct areas *A, int area, const struct lk_search_options *opt,
		       double deadline, uint64_t states, struct lk_search_result *spent)
{
	struct lk_level *level = level_of(A, area);
	if (!level)
		return -1;
	struct sokoban *sub = (struct sokoban *)level;
	bool none;
	uint8_t *exit_area = exit_of(A, sub, area, &none);
	int answer = -1;
	if (exit_area)
		soko_set_exit(sub, exit_area);
	if (!none && sub->impossible) {
		answer = DEAD;
	} else if (!none) {
		struct lk_search_options so = *opt;
		so.split = 0;
		so.bounds.max_states = states;
		if (opt->bounds.max_seconds > 0)
			so.bounds.max_seconds = deadline - lk_now() > 1e-3 ? deadline - lk_now() : 1e-3;
		struct lk_search_result sr;
		lk_search_result_init(&sr);
		soko_any_one(level, &so, &sr);
		if (sr.status == LK_SOLVED && sr.nkeys > 0) {
			append(A, sub, area, &sr);
			answer = 1;
		} else if (sr.status == LK_UNSOLVABLE) {
			answer = 0;
		}
		soko_any_add_effort(spent, &sr);
		lk_search_result_release(&sr);
	}
	soko_free_level(level);
	return answer;
}

/* The cells within RESTORE_NEAR steps (walls only) of area's goals and
 * boxes into A->near: the boxes of other areas restored there, the rest
 * stay walls, so that a restored level holds the boxes in the area's way,
 * not every box still to go. */
static void near_area(struct areas *A, int area)
{
	const struct sokoban *s = A->s;
	int *dist = lk_xmalloc((size_t)s->cells * sizeof *dist);
	int *queue = lk_xmalloc((size_t)s->cells * sizeof *queue);
	int tail = 0;
	for (int c = 0; c < s->cells; c++) {
		bool mine = A->goal_area[c] == area || A->box_area[c] == area;
		dist[c] = mine ? 0 : -1;
		if (mine)
			queue[tail++] = c;
	}
	walk(s, dist, queue, tail, RESTORE_NEAR);
	for (int c = 0; c < s->cells; c++)
		A->near[c] = dist[c] >= 0;
	free(queue);
	free(dist);
}

/* Solve one area's level, the other boxes walls; where that is proved
 * unsolvable (or impossible from the start: a box walled into a dead
 * square), the other areas' boxes still to go are restored instead
 * (area-restore): in the level, free to move, each on a goal of its own
 * square, so that the area's solution puts back every box it moves
 * (Sasquatch I 46 and II 37: nearly every area's level, the rest walls,
 * is dead at the start; only in area-restore's pass, A->may_restore:
 * soko_areas_restore_pass, docs/games/sokoban.md, "Area restore").  True
 * when it did and the path went on; an area whose walled level was proved
 * unsolvable is marked in A->proved (restarts). */
bool soko_areas_solve(struct areas *A, int area, const struct lk_search_options *opt,
		      double deadline, uint64_t states, struct lk_search_result *spent)
{
	int answer = solve_level(A, area, opt, deadline, states, spent);
	if (answer == 0)
		A->proved[area] = true;
	if ((answer == 0 || answer == DEAD) && A->may_restore &&
	    !(opt->bounds.max_seconds > 0 && lk_now() >= deadline)) {
		near_area(A, area);
		A->restore = true;
		answer = solve_level(A, area, opt, deadline, states, spent);
		A->restore = false;
		if (answer == 1)
			spent->technique_counts[SOKO_T_AREA_RESTORE]++;
	}
	return answer == 1;
}

/* What is left after the areas, from where they left it: as one level of
 * the areas still to go (`which` LEFT, the packed boxes walls) or of every
 * box (ALL), searched until `until` (a time) or within states. */
static bool solve_rest(struct areas *A, int which, const struct lk_search_options *opt,
		       double until, uint64_t states, struct lk_search_result *spent)
{
	struct lk_level *level = level_of(A, which);
	if (!level)
		return false;
	struct lk_search_options so = *opt;
	so.split = 0;
	if (opt->bounds.max_seconds > 0)
		so.bounds.max_seconds = until - lk_now() > 1e-3 ? until - lk_now() : 1e-3;
	so.bounds.max_states = states;
	if (opt->bounds.max_memory)
		so.bounds.max_memory = opt->bounds.max_memory / 2;
	struct lk_search_result sr;
	lk_search_result_init(&sr);
	bool ok = false;
	if (!((const struct sokoban *)level)->impossible) {
		soko_any_one(level, &so, &sr);
		ok = sr.status == LK_SOLVED && sr.nkeys > 0;
	}
	if (ok)
		append(A, (const struct sokoban *)level, which, &sr);
	soko_any_add_effort(spent, &sr);
	lk_search_result_release(&sr);
	soko_free_level(level);
	return ok;
}

static bool eligible(const struct sokoban *s)
{
	return s->use[SOKO_T_AREAS] && s->push_graph && !s->forward && !s->impossible &&
	       !s->exit_area && s->nboxes == s->ngoals && s->nboxes >= min_boxes;
}

bool soko_any_areas_apply(const struct lk_level *level)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (!eligible(s))
		return false;
	struct areas A = { .s = s };
	A.goal_area = lk_xmalloc((size_t)s->cells * sizeof *A.goal_area);
	goal_areas(&A);
	free(A.goal_area);
	return A.n >= 2;
}

/* What is left after `apart` areas solved: none (true), or the areas left
 * with the packed boxes walls (half the time left; one area left is tried
 * again so, with more states than its own turn had), then every box, until
 * the deadline.  True when the path now reaches the end. */
static bool rest_after(struct areas *A, int apart, int left, const struct lk_search_options *opt,
		       double deadline, struct lk_search_result *r)
{
	if (apart == 0)
		return false;
	if (left == 0)
		return true;
	if (!rest_on)
		return false;
	uint64_t states = opt->bounds.max_states
				  ? (uint64_t)((double)opt->bounds.max_states * AREA_TIME_SHARE)
			  : opt->bounds.max_seconds <= 0 ? REST_STATES : 0;
	return solve_rest(A, LEFT, opt, lk_now() + (deadline - lk_now()) / 2, states / 2, r) ||
	       solve_rest(A, ALL, opt, deadline, states, r);
}

bool soko_any_areas(const struct lk_level *level, const struct lk_search_options *opt,
		    struct lk_search_result *r)
{
	const struct sokoban *s = (const struct sokoban *)level;
	if (!eligible(s))
		return false;
	struct areas A = { .s = s };
	A.goal_area = lk_xmalloc((size_t)s->cells * sizeof *A.goal_area);
	A.box_area = lk_xmalloc((size_t)s->cells * sizeof *A.box_area);
	for (int c = 0; c < s->cells; c++)
		A.box_area[c] = -1;
	goal_areas(&A);
	bool answered = false;
	if (A.n >= 2 && box_areas(&A)) {
		merge_packed(&A);
		double t0 = lk_now();
		double deadline;   /* where the areas and their rest stop: the passes' */
		A.done = lk_xcalloc((size_t)A.n, sizeof *A.done);
		A.solved = lk_xcalloc((size_t)A.n, sizeof *A.solved);
		A.proved = lk_xcalloc((size_t)A.n, sizeof *A.proved);
		A.near = lk_xcalloc((size_t)s->cells, sizeof *A.near);
		A.player = s->player0;
		A.block = lk_xcalloc(1, soko_scratch_size(s));
		A.sc = soko_scratch(s, A.block);
		switches(&A);
		unsigned char *key0 = lk_xmalloc(s->base.key_size);
		s->base.game->initial_state(&s->base, key0);
		soko_areas_add_key(&A, key0);
		free(key0);
		int left = A.n;
		for (int a = 0; a < A.n; a++)
			if (packed(&A, a)) {
				A.done[a] = true;
				left--;
			}
		int *order = farthest_first(&A);
		struct snapshot start;
		soko_areas_snapshot_take(&A, &start);
		int apart = soko_areas_pass(&A, &start, order, &left, opt, t0, 1.0, &deadline, r);
		bool rest = rest_after(&A, apart, left, opt, deadline, r);
		if (!rest && apart > 0 && s->use[SOKO_T_AREA_RESTORE] &&
		    !(opt->bounds.max_seconds > 0 &&
		      lk_now() >= t0 + opt->bounds.max_seconds * RESTORE_PASS_BEFORE)) {
			int got = soko_areas_restore_pass(&A, &start, order, &left, opt, &deadline, r);
			if (got > 0) {
				apart = got;
				rest = rest_after(&A, apart, left, opt, deadline, r);
			}
		}
		soko_areas_snapshot_release(&start);
		free(order);
		r->technique_counts[SOKO_T_AREAS] += (uint64_t)apart;
		if (apart > 0 && rest) {
			/* a part with the rest restored may pass through the solved
			 * position on its way (every box on a goal, some of them
			 * to be taken off again): the solution ends there */
			size_t ks = s->base.key_size;
			for (size_t k = 0; k + 1 < A.nkeys; k++)
				if (soko_is_goal(level, A.path + k * ks))
					A.nkeys = k + 1;   /* and the loop ends */
			answered = true;
			r->status = LK_SOLVED;
			r->limit = LK_LIMIT_NONE;
			r->optimal = false;
			free(r->path);
			r->path = A.path;
			r->nkeys = A.nkeys;
			r->cost = A.nkeys - 1;   /* a key per box move after the start */
			A.path = NULL;
		}
		free(A.path);
		free(A.block);
		free(A.solved);
		free(A.proved);
		free(A.near);
		free(A.done);
	}
	free(A.box_area);
	free(A.goal_area);
	return answered;
}
