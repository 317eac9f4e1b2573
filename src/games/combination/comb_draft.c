/*
 * comb_draft.c - a Combination level while a generator builds it (see
 * comb_draft.h): writing it as a record, counting its solutions with the
 * fast model, rating it with the paper's measure, whether a piece fits a
 * placement, and the paper's prettiness.
 */
#include "comb_draft.h"

#include <string.h>

#include "comb.h"
#include "levelkit/difficulty.h"
#include "levelkit/grid.h"

static const char *const colour_names[DRAFT_COLOURS] = { "red", "blue", "green", "yellow",
							 "purple", "orange", "white", "black" };
static const char *const kind_names[] = { "rook", "bishop", "queen" };

void comb_draft_record(const struct draft *d, struct lk_record *rec)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	for (int y = 0; y < d->h; y++) {
		lk_strbuf_add(&text, d->cells + y * d->w, (size_t)d->w);
		lk_strbuf_addch(&text, '\n');
	}
	lk_record_release(rec);
	lk_record_init(rec);
	lk_record_set_grid(rec, text.buf);
	lk_strbuf_reset(&text);
	for (int c = 0; c < DRAFT_COLOURS; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k])
				lk_strbuf_addf(&text, "%s%d %s %s", text.len ? ", " : "", d->count[c][k],
					       colour_names[c], kind_names[k]);
	lk_record_set(rec, "game", "combination");
	lk_record_set(rec, "pieces", text.buf);
	lk_strbuf_release(&text);
}

static struct lk_level *draft_level(const struct draft *d)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_level_options lo = { 0 };
	size_t line;
	lk_record_init(&rec);
	comb_draft_record(d, &rec);
	struct lk_level *level = lk_game_load_level(&lk_game_combination, &rec, &lo, &err, &line);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	return level;
}

/* A solver's solution text as a placement: the solver numbers types in the
 * order of the pieces field, which draft_record writes colour by colour,
 * kind by kind. */
static void read_placement(const struct draft *d, const char *solution, int8_t *p)
{
	int type_piece[COMB_MAX_TYPES], nt = 0, cell = 0;
	for (int c = 0; c < DRAFT_COLOURS; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k] && nt < COMB_MAX_TYPES)
				type_piece[nt++] = c * 3 + k;
	memset(p, -1, sizeof(draft_placement));
	for (const char *s = solution; *s && cell < d->w * d->h; s++) {
		if (*s == '/')
			continue;
		int t = comb_char_type(*s);
		p[cell++] = (int8_t)(t >= 0 && t < nt ? type_piece[t] : -1);
	}
}

static void gen_csp_options(const struct lk_gen_options *o, struct lk_csp_options *co)
{
	lk_csp_options_init(co);
	co->bounds.max_seconds = o->rating.search.bounds.max_seconds;
	co->bounds.cancel = o->rating.search.bounds.cancel;
}

int comb_draft_count(const struct draft *d, const struct lk_gen_options *o, uint64_t max_nodes,
		struct draft_count *c)
{
	struct lk_level *level = draft_level(d);
	if (!level)
		return -1;
	struct lk_csp_options co;
	struct lk_csp_result r;
	gen_csp_options(o, &co);
	co.bounds.max_states = max_nodes;
	co.sac = false;   /* cheaper per count, and the proofs here are short */
	lk_csp_result_init(&r);
	level->game->csp->solve(level, &co, &r);
	c->solutions = r.solutions;
	c->exact = r.exhausted;
	if (r.solutions >= 1)
		read_placement(d, r.solution.buf, c->first);
	if (r.solutions >= 2)
		read_placement(d, r.second.buf, c->second);
	lk_csp_result_release(&r);
	lk_level_free(level);
	return 0;
}

int comb_draft_difficulty(const struct draft *d, const struct lk_gen_options *o, long runs,
		     uint64_t seed, double *mean)
{
	struct lk_level *level = draft_level(d);
	if (!level)
		return -1;
	struct lk_csp_options co;
	struct lk_csp_rating r;
	gen_csp_options(o, &co);
	co.bounds.max_states = o->rating.search.bounds.max_states;
	lk_csp_difficulty(level, &co, (unsigned)runs, seed, &r);
	*mean = r.mean;
	lk_level_free(level);
	return r.runs_solved == r.runs ? 0 : -1;
}

bool comb_draft_fits(const struct draft *d, const int8_t *p, int at, int c, int k)
{
	int x0 = at % d->w, y0 = at / d->w;
	for (int dir = 0; dir < 8; dir++) {
		int axis = comb_axis(dir);
		for (int x = x0 + lk_dir_dx[dir], y = y0 + lk_dir_dy[dir];
		     x >= 0 && y >= 0 && x < d->w && y < d->h; x += lk_dir_dx[dir], y += lk_dir_dy[dir]) {
			int cell = y * d->w + x;
			if (d->cells[cell] == '#')
				break;
			if (p[cell] < 0)
				continue;
			if (p[cell] / 3 != c && (comb_attacks((enum comb_kind)k, axis) ||
						 comb_attacks((enum comb_kind)(p[cell] % 3), axis)))
				return false;
			break;
		}
	}
	return true;
}

/* Lines of walls and holes along an edge hold no piece and stop no ray
 * that matters: they go. */
static void trim_edges(struct draft *d)
{
	for (;;) {
		bool top = true, bottom = true, left = true, right = true;
		for (int x = 0; x < d->w; x++) {
			top &= d->cells[x] != '.';
			bottom &= d->cells[(d->h - 1) * d->w + x] != '.';
		}
		for (int y = 0; y < d->h; y++) {
			left &= d->cells[y * d->w] != '.';
			right &= d->cells[y * d->w + d->w - 1] != '.';
		}
		if (d->h > 1 && (top || bottom)) {
			if (top)
				memmove(d->cells, d->cells + d->w, (size_t)((d->h - 1) * d->w));
			d->h--;
		} else if (d->w > 1 && (left || right)) {
			char out[DRAFT_CELLS];
			for (int y = 0; y < d->h; y++)
				memcpy(out + y * (d->w - 1), d->cells + y * d->w + (left ? 1 : 0),
				       (size_t)(d->w - 1));
			d->w--;
			memcpy(d->cells, out, (size_t)(d->w * d->h));
		} else {
			return;
		}
	}
}

/* Along axis (dx, dy) from (x, y): is there an empty square before a wall
 * or the edge (holes are passed)? */
static bool sees_square(const struct draft *d, int x, int y, int dx, int dy)
{
	for (x += dx, y += dy; x >= 0 && y >= 0 && x < d->w && y < d->h; x += dx, y += dy) {
		char c = d->cells[y * d->w + x];
		if (c == '.')
			return true;
		if (c == '#')
			return false;
	}
	return false;
}

/* A wall that no ray of the level's pieces could pass through becomes a
 * hole: rays stop at the first piece or wall, and only cross squares. */
static void soften_walls(struct draft *d)
{
	static const int axis_dx[4] = { 1, 0, 1, 1 }, axis_dy[4] = { 0, 1, 1, -1 };
	bool attacks[4] = { false };
	for (int c = 0; c < DRAFT_COLOURS; c++)
		for (int k = 0; k < 3; k++)
			if (d->count[c][k])
				for (int a = 0; a < 4; a++)
					attacks[a] |= comb_attacks((enum comb_kind)k, a);
	for (int y = 0; y < d->h; y++) {
		for (int x = 0; x < d->w; x++) {
			if (d->cells[y * d->w + x] != '#')
				continue;
			bool blocks = false;
			for (int a = 0; a < 4 && !blocks; a++)
				blocks = attacks[a] && sees_square(d, x, y, axis_dx[a], axis_dy[a]) &&
					 sees_square(d, x, y, -axis_dx[a], -axis_dy[a]);
			if (!blocks)
				d->cells[y * d->w + x] = 'o';
		}
	}
}

void comb_draft_prettify(struct draft *d)
{
	trim_edges(d);
	soften_walls(d);
}
