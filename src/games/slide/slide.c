/*
 * slide.c - the slide simulator of the tilt and slide games (see slide.h
 * for the rules it implements).
 */
#include "slide.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/grid.h"
#include "levelkit/strbuf.h"

void lk_slide_board_init(struct lk_slide_board *b, int width, int height)
{
	size_t n = (size_t)width * (size_t)height;
	b->width = width;
	b->height = height;
	b->terrain = lk_xcalloc(n, 1);
	b->terrain_colour = lk_xcalloc(n, 1);
	b->terrain_dir = lk_xcalloc(n, 1);
	b->oneway = lk_xcalloc(n, 1);
	b->piece = lk_xcalloc(n, 1);
	b->colour = lk_xcalloc(n, 1);
	b->trapped = lk_xcalloc(n, 1);
	b->pieces = NULL;
	b->npieces = -1;
}

void lk_slide_board_release(struct lk_slide_board *b)
{
	free(b->terrain);
	free(b->terrain_colour);
	free(b->terrain_dir);
	free(b->oneway);
	free(b->piece);
	free(b->colour);
	free(b->trapped);
	memset(b, 0, sizeof *b);
}

void lk_slide_scratch_init(struct lk_slide_scratch *s, int cells)
{
	size_t n = (size_t)cells;
	s->cells = cells;
	s->group = lk_xmalloc(n * sizeof *s->group);
	s->members = lk_xmalloc(n * sizeof *s->members);
	s->first = lk_xmalloc((n + 1) * sizeof *s->first);
	s->order = lk_xmalloc(n * sizeof *s->order);
	s->stack = lk_xmalloc(n * sizeof *s->stack);
	s->moved = lk_xmalloc(n);
	s->kind = lk_xmalloc(n);
	s->col = lk_xmalloc(n);
	s->mark = lk_xcalloc(n, 1);
	s->lead = lk_xmalloc((n + 1) * sizeof *s->lead);
	s->nb = lk_xmalloc(4 * n * sizeof *s->nb);
	s->proj = lk_xmalloc(4 * n * sizeof *s->proj);
	s->anteaters = lk_xmalloc((n + 1) * sizeof *s->anteaters);
	s->prepared = false;
}

void lk_slide_scratch_release(struct lk_slide_scratch *s)
{
	free(s->group);
	free(s->members);
	free(s->first);
	free(s->order);
	free(s->stack);
	free(s->moved);
	free(s->kind);
	free(s->col);
	free(s->mark);
	free(s->lead);
	free(s->nb);
	free(s->proj);
	free(s->anteaters);
	memset(s, 0, sizeof *s);
}

static bool slides(uint8_t piece)
{
	return piece == LK_P_FRUIT || piece == LK_P_STONE || piece == LK_P_SKIDDY || piece == LK_P_ICE;
}

/* The terrain never changes: neighbours and anteaters are worked out
 * once per board, not once per move. */
static void prepare(const struct lk_slide_board *b, struct lk_slide_scratch *s)
{
	int n = b->width * b->height;
	s->nanteaters = 0;
	for (int c = 0; c < n; c++) {
		for (int d = 0; d < 4; d++) {
			int x = c % b->width + lk_dir_dx[d], y = c / b->width + lk_dir_dy[d];
			s->nb[c * 4 + d] = x < 0 || y < 0 || x >= b->width || y >= b->height
						   ? -1 : y * b->width + x;
		}
		if (b->terrain[c] == LK_T_ANTEATER)
			s->anteaters[s->nanteaters++] = c;
		for (int d = 0; d < 4; d++)
			s->proj[c * 4 + d] = lk_dir_dx[d] * (c % b->width) + lk_dir_dy[d] * (c / b->width);
	}
	s->prepared = true;
}

/* Neighbour of cell c in direction d, or -1 off the board. */
static inline int next_cell(const struct lk_slide_scratch *s, int c, int d)
{
	return s->nb[c * 4 + d];
}

/* Group the pieces: skiddies of one colour that touch form one group. */
static int make_groups(const struct lk_slide_board *b, struct lk_slide_scratch *s)
{
	int n = b->width * b->height, ngroups = 0, at = 0;
	/* The piece cells: from the caller's list, or found by a scan. */
	int *cells = b->pieces, ncells = b->npieces;
	if (ncells < 0) {
		cells = s->order;
		ncells = 0;
		for (int c = 0; c < n; c++)
			if (b->piece[c] != LK_P_NONE)
				cells[ncells++] = c;
	}
	/* group[] is read only where a piece stands, so only those cells
	 * need clearing. */
	for (int i = 0; i < ncells; i++)
		s->group[cells[i]] = -1;
	for (int i = 0; i < ncells; i++) {
		int c = cells[i];
		if (s->group[c] >= 0)
			continue;
		int g = ngroups++, sp = 0;
		s->first[g] = at;
		s->group[c] = g;
		if (b->piece[c] != LK_P_SKIDDY) {   /* the common case: alone */
			s->members[at++] = c;
			continue;
		}
		s->stack[sp++] = c;
		while (sp > 0) {
			int x = s->stack[--sp];
			s->members[at++] = x;
			if (b->piece[x] != LK_P_SKIDDY)
				continue;
			for (int d = 0; d < 4; d++) {
				int y = next_cell(s, x, d);
				if (y >= 0 && b->piece[y] == LK_P_SKIDDY && b->colour[y] == b->colour[x] &&
				    s->group[y] < 0) {
					s->group[y] = g;
					s->stack[sp++] = y;
				}
			}
		}
	}
	s->first[ngroups] = at;
	return ngroups;
}

static void remove_piece(struct lk_slide_board *b, struct lk_slide_scratch *s, int c)
{
	b->piece[c] = LK_P_NONE;
	b->colour[c] = 0;
	b->trapped[c] = 0;
	s->group[c] = -1;
}

enum step { STEP_BLOCKED, STEP_MOVED, STEP_MOVED_AND_STOP };

/* What a group did this move (bits of scratch->moved). */
enum { GROUP_HELD = 1, GROUP_STOPPED = 2, GROUP_MOVED = 4 };

/*
 * Try to move group g one cell in direction d.  Members leaving through
 * their exit or being lost do not hold the group back.
 */
static enum step step_group(struct lk_slide_board *b, struct lk_slide_scratch *s, int g, int d,
			    struct lk_slide_result *r)
{
	int lo = s->first[g], hi = s->first[g + 1];
	int crate_from = -1, crate_to = -1;
	bool any = false;
	/* First decide, member by member, without changing anything. */
	for (int i = lo; i < hi; i++) {
		int c = s->members[i];
		if (c < 0)
			continue;
		any = true;
		if (b->oneway[c] & (1u << d))
			return STEP_BLOCKED;
		int t = next_cell(s, c, d);
		if (t < 0)
			return STEP_BLOCKED;
		switch (b->terrain[t]) {
		case LK_T_WALL: case LK_T_BLOCK: case LK_T_ANTEATER:
			return STEP_BLOCKED;
		case LK_T_HEDGEHOG:
			if (b->piece[c] == LK_P_FRUIT)
				continue;   /* eaten: handled below */
			return STEP_BLOCKED;
		case LK_T_EXIT:
			if (b->piece[c] == LK_P_SKIDDY && b->colour[c] == b->terrain_colour[t])
				continue;   /* leaves */
			return STEP_BLOCKED;
		default:
			break;
		}
		if (b->piece[t] == LK_P_NONE || s->group[t] == g)
			continue;
		if (b->piece[t] == LK_P_CRATE && b->piece[c] == LK_P_SKIDDY && crate_from < 0) {
			int u = next_cell(s, t, d);
			if (u >= 0 && !(b->oneway[t] & (1u << d)) && b->piece[u] == LK_P_NONE &&
			    (b->terrain[u] == LK_T_FLOOR || b->terrain[u] == LK_T_MUD ||
			     b->terrain[u] == LK_T_PIT)) {
				crate_from = t;
				crate_to = u;
				continue;
			}
		}
		return STEP_BLOCKED;
	}
	if (!any)
		return STEP_BLOCKED;
	if (crate_from >= 0) {
		r->crates++;
		r->mud += b->terrain[crate_to] == LK_T_MUD;
		b->piece[crate_to] = LK_P_CRATE;
		b->colour[crate_to] = b->colour[crate_from];
		b->trapped[crate_to] = 0;
		int gc = s->group[crate_from];
		s->group[crate_to] = gc;
		s->members[s->first[gc]] = crate_to;   /* crates are groups of one */
		remove_piece(b, s, crate_from);
	}
	/* Lift the group off the board, then put it down one cell on. */
	enum step result = crate_from >= 0 ? STEP_MOVED_AND_STOP : STEP_MOVED;
	uint8_t *kind = s->kind, *col = s->col;
	int count = hi - lo;
	for (int i = 0; i < count; i++) {
		int c = s->members[lo + i];
		if (c < 0)
			continue;
		kind[i] = b->piece[c];
		col[i] = b->colour[c];
		remove_piece(b, s, c);
	}
	for (int i = 0; i < count; i++) {
		int c = s->members[lo + i];
		if (c < 0)
			continue;
		int t = next_cell(s, c, d);
		uint8_t ter = b->terrain[t];
		if (ter == LK_T_EXIT) {            /* a skiddy leaves */
			r->left[col[i] & 15]++;
			s->members[lo + i] = -1;
			continue;
		}
		if (kind[i] == LK_P_FRUIT && (ter == LK_T_HEDGEHOG || ter == LK_T_MUD)) {
			r->lost = true;            /* eaten, or stuck in the mud */
			s->members[lo + i] = -1;
			continue;
		}
		b->piece[t] = kind[i];
		b->colour[t] = col[i];
		s->group[t] = g;
		s->members[lo + i] = t;
		r->mud += ter == LK_T_MUD;   /* not a fruit: that was lost above */
		if (ter == LK_T_PIT) {
			r->pits++;
			b->trapped[t] = 1;
			result = STEP_MOVED_AND_STOP;
		}
	}
	return result;
}

/* Largest position of the group along direction d (its leading edge). */
static int lead(const struct lk_slide_scratch *s, int g, int d)
{
	if (s->first[g + 1] - s->first[g] == 1)
		return s->proj[s->members[s->first[g]] * 4 + d];
	int best = INT_MIN;
	for (int i = s->first[g]; i < s->first[g + 1]; i++) {
		int p = s->proj[s->members[i] * 4 + d];
		if (p > best)
			best = p;
	}
	return best;
}

/* Effects after motion: anteaters pull fruit, touching fruit match. */
static bool settle(struct lk_slide_board *b, struct lk_slide_scratch *s, int ngroups,
		   struct lk_slide_result *r)
{
	bool changed = false;
	for (int k = 0; k < s->nanteaters; k++) {
		int c = s->anteaters[k];
		int d = b->terrain_dir[c], front = next_cell(s, c, d), t = front;
		while (t >= 0 && b->piece[t] == LK_P_NONE &&
		       (b->terrain[t] == LK_T_FLOOR || b->terrain[t] == LK_T_MUD || b->terrain[t] == LK_T_PIT))
			t = next_cell(s, t, d);
		if (t >= 0 && t != front && b->piece[t] == LK_P_FRUIT && front >= 0 &&
		    b->piece[front] == LK_P_NONE) {
			int g = s->group[t];
			uint8_t col = b->colour[t];
			remove_piece(b, s, t);
			changed = true;
			r->pulled++;
			if (b->terrain[front] == LK_T_MUD) {
				/* pulled into the mud: lost like any fruit entering it */
				r->lost = true;
				s->members[s->first[g]] = -1;
				continue;
			}
			b->piece[front] = LK_P_FRUIT;
			b->colour[front] = col;
			b->trapped[front] = 0;
			s->group[front] = g;
			s->members[s->first[g]] = front;   /* fruit are groups of one */
			s->moved[g] |= GROUP_MOVED;
		}
	}
	/* Matching: groups of touching fruit of one colour.  Only the pieces'
	 * cells (the members list) are visited, not the whole board; col
	 * marks what has been visited and is cleared behind. */
	uint8_t *seen = s->mark;
	for (int i = 0; i < s->first[ngroups]; i++) {
		int c = s->members[i];
		/* Boards are settled before a move (a fruit level may not start
		 * with partners touching), so every new pair of partners holds a
		 * fruit that moved: only those start a walk. */
		if (c < 0 || b->piece[c] != LK_P_FRUIT || seen[c] || !(s->moved[s->group[c]] & GROUP_MOVED))
			continue;
		/* Most fruit touch no partner: rule that out before the walk. */
		bool partner = false;
		for (int d = 0; d < 4 && !partner; d++) {
			int y = next_cell(s, c, d);
			partner = y >= 0 && b->piece[y] == LK_P_FRUIT && b->colour[y] == b->colour[c];
		}
		if (!partner)
			continue;
		int sp = 0, size = 0, top = 0;
		seen[c] = 1;
		s->order[top++] = c;
		s->stack[sp++] = c;
		while (sp > 0) {
			int x = s->stack[--sp];
			size++;
			for (int d = 0; d < 4; d++) {
				int y = next_cell(s, x, d);
				if (y >= 0 && !seen[y] && b->piece[y] == LK_P_FRUIT && b->colour[y] == b->colour[c]) {
					seen[y] = 1;
					s->order[top++] = y;
					s->stack[sp++] = y;
				}
			}
		}
		for (int k = 0; k < top; k++) {
			int x = s->order[k];
			seen[x] = 0;
			if (size >= 2) {
				b->piece[x] = LK_P_NONE;
				b->colour[x] = 0;
			}
		}
		if (size >= 2) {
			r->matched += (unsigned)size;
			changed = true;
		}
	}
	return changed;
}

/*
 * A group of one piece slides in one go: scan ahead to where it stops and
 * move it once, instead of a step at a time.  Returns STEP_BLOCKED when it
 * cannot move at all, or -1 when the general stepping must go on (a skiddy
 * that has slid up to a crate, which it may push).
 */
static int slide_single(struct lk_slide_board *b, struct lk_slide_scratch *s, int g, int d,
			struct lk_slide_result *r)
{
	int c = s->members[s->first[g]];
	if (c < 0)
		return STEP_BLOCKED;
	uint8_t kind = b->piece[c], col = b->colour[c];
	int at = c;
	bool mud = false;
	enum { STAY, GONE_EXIT, GONE_LOST, TRAPPED } end = STAY;
	for (;;) {
		if (b->oneway[at] & (1u << d))
			break;
		int t = next_cell(s, at, d);
		if (t < 0)
			break;
		uint8_t ter = b->terrain[t];
		if (ter == LK_T_WALL || ter == LK_T_BLOCK || ter == LK_T_ANTEATER)
			break;
		if (ter == LK_T_HEDGEHOG) {
			if (kind == LK_P_FRUIT)
				end = GONE_LOST;
			break;
		}
		if (ter == LK_T_EXIT) {
			if (kind == LK_P_SKIDDY && col == b->terrain_colour[t])
				end = GONE_EXIT;
			break;
		}
		if (b->piece[t] != LK_P_NONE) {
			if (b->piece[t] == LK_P_CRATE && kind == LK_P_SKIDDY) {
				/* Slide up to the crate; stepping does the push. */
				if (at != c) {
					remove_piece(b, s, c);
					b->piece[at] = kind;
					b->colour[at] = col;
					s->group[at] = g;
					s->members[s->first[g]] = at;
					r->changed = true;
					r->mud += mud;
				}
				return -1;
			}
			break;
		}
		at = t;
		if (ter == LK_T_MUD && kind == LK_P_FRUIT) {
			end = GONE_LOST;
			break;
		}
		mud |= ter == LK_T_MUD;
		if (ter == LK_T_PIT) {
			end = TRAPPED;
			break;
		}
	}
	if (at == c && end == STAY)
		return STEP_BLOCKED;
	r->mud += mud;
	r->pits += end == TRAPPED;
	remove_piece(b, s, c);
	if (end == GONE_EXIT) {
		r->left[col & 15]++;
		s->members[s->first[g]] = -1;
		return STEP_MOVED_AND_STOP;
	}
	if (end == GONE_LOST) {
		r->lost = true;
		s->members[s->first[g]] = -1;
		return STEP_MOVED_AND_STOP;
	}
	b->piece[at] = kind;
	b->colour[at] = col;
	s->group[at] = g;
	s->members[s->first[g]] = at;
	if (end == TRAPPED) {
		b->trapped[at] = 1;
		return STEP_MOVED_AND_STOP;
	}
	return STEP_MOVED;
}

void lk_slide_move(struct lk_slide_board *b, int dir, struct lk_slide_scratch *s,
		   struct lk_slide_result *r)
{
	memset(r, 0, sizeof *r);
	if (!s->prepared)
		prepare(b, s);
	int ngroups = s->ngroups = make_groups(b, s);
	/* Trapped groups skip this move, which frees them. */
	for (int g = 0; g < ngroups; g++) {
		s->moved[g] = 0;
		bool trapped = false;
		for (int i = s->first[g]; i < s->first[g + 1]; i++)
			trapped |= b->trapped[s->members[i]] != 0;
		if (!trapped)
			continue;
		for (int i = s->first[g]; i < s->first[g + 1]; i++)
			b->trapped[s->members[i]] = 0;
		s->moved[g] = GROUP_HELD;
		r->changed = true;
	}
	/* Farthest along the direction first (insertion sort: few groups). */
	int norder = 0;
	for (int g = 0; g < ngroups; g++) {
		uint8_t p = b->piece[s->members[s->first[g]]];
		if (!slides(p) || (s->moved[g] & GROUP_HELD))
			continue;
		int key = s->lead[g] = lead(s, g, dir), at = norder++;
		while (at > 0 && s->lead[s->order[at - 1]] < key) {
			s->order[at] = s->order[at - 1];
			at--;
		}
		s->order[at] = g;
	}
	/* Passes until nothing moves: a group held up by one that moves
	 * later in the pass gets its turn in the next.  When every group is
	 * a single piece one pass is enough: a piece can only be held up by
	 * pieces ahead of it in its line, and those went first. */
	bool singles = s->first[ngroups] == ngroups;
	bool moving = true;
	while (moving) {
		moving = false;
		for (int k = 0; k < norder; k++) {
			int g = s->order[k];
			if (s->moved[g] & GROUP_STOPPED)
				continue;   /* stopped for this move (pit, crate) */
			if (s->first[g + 1] - s->first[g] == 1) {
				int st = slide_single(b, s, g, dir, r);
				if (st == STEP_MOVED || st == STEP_MOVED_AND_STOP) {
					moving = true;
					r->changed = true;
					s->moved[g] |= GROUP_MOVED;
					if (st == STEP_MOVED_AND_STOP)
						s->moved[g] |= GROUP_STOPPED;
					continue;
				}
				if (st == STEP_BLOCKED)
					continue;
				/* a crate ahead: step by step */
			}
			enum step st;
			s->moved[g] |= GROUP_MOVED;   /* maybe: slid up to a crate */
			while ((st = step_group(b, s, g, dir, r)) != STEP_BLOCKED) {
				moving = true;
				r->changed = true;
				if (st == STEP_MOVED_AND_STOP) {
					s->moved[g] |= GROUP_STOPPED;
					break;
				}
			}
		}
		if (singles)
			break;
	}
	for (int c = 0; c < 16; c++)
		if (r->left[c])
			r->changed = true;
	if (r->lost)
		r->changed = true;
	/* Anteaters can bring fruit together and matches can clear an
	 * anteater's line of sight; without anteaters one round settles. */
	while (settle(b, s, ngroups, r)) {
		r->changed = true;
		if (!s->nanteaters)
			break;
	}
}
