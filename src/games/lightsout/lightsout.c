/*
 * lightsout.c - Lights Out (Tiger Electronics, 1995): pressing a light
 * toggles it and its orthogonal neighbours; the level is won when every
 * light is off.  The game's rules, level format, notation and vtable; its
 * drawing is lightsout_draw.c and its generator lightsout_gen.c (the
 * seventh game, added as docs/design.md's checklist says: this folder and
 * one registry line).
 *
 * Cells: '.' a light that is off, '*' a light that is on, '#' (or a blank)
 * no light: a hole in the board, which no press reaches.  A press is the
 * cell's column letter and row number from the top left ("a1", "c4"); a
 * solution is the presses one after another ("a1c3b2").  See
 * docs/games/lightsout.md.
 */
#include "lightsout.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"

static const char *const lightsout_metrics[] = { "moves", NULL };

/* --------------------------------------------------------------- level */

static bool is_cell(char ch)
{
	return ch == '.' || ch == '*';
}

static int lightsout_validate(const struct lk_game *game, const void *def,
			      const struct lk_record *rec, const struct lk_level_options *opt,
			      struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)def;
	(void)opt;
	size_t first, rows = lk_record_grid(rec, &first);
	int cells = 0;
	if (rows > LIGHTSOUT_MAX_SIDE) {
		lk_strbuf_addf(err, "a lightsout board has at most %d rows, not %zu", LIGHTSOUT_MAX_SIDE,
			       rows);
		*line = first + LIGHTSOUT_MAX_SIDE;
		return -1;
	}
	for (size_t y = 0; y < rows; y++) {
		const char *row = rec->lines[first + y].text;
		size_t n = strlen(row);
		*line = first + y;
		if (n > LIGHTSOUT_MAX_SIDE) {
			lk_strbuf_addf(err, "a lightsout board has at most %d columns, not %zu",
				       LIGHTSOUT_MAX_SIDE, n);
			return -1;
		}
		for (size_t x = 0; x < n; x++) {
			if (!is_cell(row[x]) && row[x] != '#' && row[x] != ' ') {
				lk_strbuf_addf(err, "unknown lightsout cell '%c' in column %zu", row[x], x + 1);
				return -1;
			}
			cells += is_cell(row[x]);
		}
	}
	if (cells == 0) {
		lk_strbuf_addstr(err, "level has no light");
		*line = (size_t)-1;
		return -1;
	}
	return 0;
}

static void set_bit(unsigned char *key, int i)
{
	key[i / 8] |= (unsigned char)(1u << (i % 8));
}

static struct lk_level *lightsout_new_level(const struct lk_game *game, const void *def,
					    const struct lk_record *rec,
					    const struct lk_level_options *opt)
{
	(void)def;
	struct lightsout_level *s = lk_xcalloc(1, sizeof *s);
	s->thesis = opt && opt->thesis;
	size_t first, rows = lk_record_grid(rec, &first);
	s->height = (int)rows;
	for (size_t y = 0; y < rows; y++) {
		int n = (int)strlen(rec->lines[first + y].text);
		if (n > s->width)
			s->width = n;
	}
	int npos = s->width * s->height;
	s->cell_at = lk_xmalloc((size_t)npos * sizeof *s->cell_at);
	s->pos_of = lk_xmalloc((size_t)npos * sizeof *s->pos_of);
	for (int y = 0; y < s->height; y++) {
		const char *row = rec->lines[first + (size_t)y].text;
		int n = (int)strlen(row);
		for (int x = 0; x < s->width; x++) {
			bool cell = x < n && is_cell(row[x]);
			s->cell_at[y * s->width + x] = cell ? s->ncells : -1;
			if (cell)
				s->pos_of[s->ncells++] = y * s->width + x;
		}
	}
	size_t ks = ((size_t)s->ncells + 7) / 8;
	s->start = lk_xcalloc(ks, 1);
	s->masks = lk_xcalloc((size_t)s->ncells, ks);
	static const int dx[] = { 0, 1, 0, -1, 0 }, dy[] = { 0, 0, 1, 0, -1 };
	for (int i = 0; i < s->ncells; i++) {
		int x = s->pos_of[i] % s->width, y = s->pos_of[i] / s->width;
		const char *row = rec->lines[first + (size_t)y].text;
		if (row[x] == '*')
			set_bit(s->start, i);
		unsigned toggled = 0;
		for (int d = 0; d < 5; d++) {
			int nx = x + dx[d], ny = y + dy[d];
			if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
				continue;
			int j = s->cell_at[ny * s->width + nx];
			if (j >= 0) {
				set_bit(s->masks + (size_t)i * ks, j);
				toggled++;
			}
		}
		if (toggled > s->max_toggle)
			s->max_toggle = toggled;
	}
	s->base.game = game;
	s->base.key_size = ks;
	s->base.max_successors = (unsigned)s->ncells;
	s->base.scratch_size = 0;
	s->base.metric = "moves";
	s->base.has_heuristic = true;
	/* the thesis's "no LightOn" counts every light: one press may put
	 * out five */
	s->base.heuristic_admissible = !s->thesis;
	return &s->base;
}

static void lightsout_free_level(struct lk_level *level)
{
	struct lightsout_level *s = (struct lightsout_level *)level;
	free(s->cell_at);
	free(s->pos_of);
	free(s->start);
	free(s->masks);
	free(s);
}

/* --------------------------------------------------------- state space */

static void lightsout_initial_state(const struct lk_level *level, void *key)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	memcpy(key, s->start, level->key_size);
}

static void press(const struct lightsout_level *s, unsigned char *key, int cell)
{
	size_t ks = s->base.key_size;
	const unsigned char *m = s->masks + (size_t)cell * ks;
	for (size_t b = 0; b < ks; b++)
		key[b] ^= m[b];
}

static unsigned lightsout_successors(const struct lk_level *level, const void *key,
				     void *scratch, unsigned char *keys_out,
				     struct lk_edge *edges)
{
	(void)scratch;
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	size_t ks = level->key_size;
	for (int i = 0; i < s->ncells; i++) {
		unsigned char *out = keys_out + (size_t)i * ks;
		memcpy(out, key, ks);
		press(s, out, i);
		edges[i] = (struct lk_edge){ .cost = 1, .move = (uint32_t)i };
	}
	return (unsigned)s->ncells;
}

static bool lightsout_is_goal(const struct lk_level *level, const void *key)
{
	const unsigned char *k = key;
	for (size_t b = 0; b < level->key_size; b++)
		if (k[b])
			return false;
	return true;
}

/* A press turns off at most max_toggle lights, so at least
 * ceil(lit / max_toggle) presses remain: admissible, and consistent (one
 * press changes it by at most 1).  Under the thesis measure, the thesis's
 * heuristic of the win "no LightOn": the lit lights themselves. */
static unsigned lightsout_heuristic(const struct lk_level *level, const void *key, void *scratch)
{
	(void)scratch;
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	const unsigned char *k = key;
	unsigned lit = 0;
	for (size_t b = 0; b < level->key_size; b++)
		for (unsigned v = k[b]; v; v &= v - 1)
			lit++;
	if (s->thesis)
		return lit;
	return (lit + s->max_toggle - 1) / s->max_toggle;
}

/* ------------------------------------------------------------ notation */

size_t lightsout_label(const struct lightsout_level *s, int cell, char *buf)
{
	int x = s->pos_of[cell] % s->width, y = s->pos_of[cell] / s->width;
	buf[0] = (char)('a' + x);
	if (y + 1 >= 10) {
		buf[1] = (char)('0' + (y + 1) / 10);
		buf[2] = (char)('0' + (y + 1) % 10);
		buf[3] = '\0';
		return 3;
	}
	buf[1] = (char)('0' + y + 1);
	buf[2] = '\0';
	return 2;
}

/* The press that turns key a into key b, or -1. */
static int press_between(const struct lightsout_level *s, const unsigned char *a,
			 const unsigned char *b)
{
	size_t ks = s->base.key_size;
	for (int i = 0; i < s->ncells; i++) {
		const unsigned char *m = s->masks + (size_t)i * ks;
		size_t k = 0;
		while (k < ks && (a[k] ^ b[k]) == m[k])
			k++;
		if (k == ks)
			return i;
	}
	return -1;
}

static void lightsout_label_path(const struct lk_level *level, const unsigned char *keys,
				 size_t nkeys, struct lk_moves *out)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	size_t ks = level->key_size;
	for (size_t i = 1; i < nkeys; i++) {
		int cell = press_between(s, keys + (i - 1) * ks, keys + i * ks);
		char label[4];
		if (cell >= 0)
			lk_moves_add(out, label, lightsout_label(s, cell, label), 1, NULL, 0);
	}
}

int lightsout_play(const struct lightsout_level *s, const char *solution, unsigned char *key,
		   void (*each)(void *ctx, const unsigned char *key, int cell), void *ctx,
		   bool *solved, struct lk_strbuf *err)
{
	*solved = lightsout_is_goal(&s->base, key);
	for (const char *p = solution; *p;) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		const char *at = p;
		int x = *p >= 'a' && *p <= 'z' ? *p - 'a' : -1, y = 0;
		for (p++; *p >= '0' && *p <= '9' && y < 1000; p++)
			y = 10 * y + (*p - '0');
		if (x < 0 || p == at + 1) {
			lk_strbuf_addf(err, "bad press '%.*s' (expected a column letter and a row number, "
				       "e.g. c4)", (int)(p == at + 1 ? 1 : p - at), at);
			return -1;
		}
		int cell = x < s->width && y >= 1 && y <= s->height ? s->cell_at[(y - 1) * s->width + x]
								     : -1;
		if (cell < 0) {
			lk_strbuf_addf(err, "press %.*s is not a light of the board", (int)(p - at), at);
			return -1;
		}
		if (*solved) {
			lk_strbuf_addf(err, "press %.*s after the level is solved", (int)(p - at), at);
			return -1;
		}
		press(s, key, cell);
		*solved = lightsout_is_goal(&s->base, key);
		if (each)
			each(ctx, key, cell);
	}
	return 0;
}

struct replay_ctx {
	const struct lightsout_level *s;
	struct lk_moves *out;
};

static void add_press(void *vctx, const unsigned char *key, int cell)
{
	(void)key;
	struct replay_ctx *r = vctx;
	char label[4];
	lk_moves_add(r->out, label, lightsout_label(r->s, cell, label), 1, NULL, 0);
}

static int lightsout_replay(const struct lk_level *level, const char *solution,
			    struct lk_moves *out, bool *solved, struct lk_strbuf *err)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	unsigned char *key = lk_xmalloc(level->key_size);
	struct replay_ctx ctx = { s, out };
	memcpy(key, s->start, level->key_size);
	int rc = lightsout_play(s, solution, key, add_press, &ctx, solved, err);
	free(key);
	return rc;
}

static void lightsout_write_state(const struct lk_level *level, const void *key,
				  struct lk_strbuf *out)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	const unsigned char *k = key;
	for (int y = 0; y < s->height; y++) {
		for (int x = 0; x < s->width; x++) {
			int i = s->cell_at[y * s->width + x];
			lk_strbuf_addch(out, i < 0 ? '#' : (k[i / 8] >> (i % 8) & 1) ? '*' : '.');
		}
		lk_strbuf_addch(out, '\n');
	}
}

/* --------------------------------------------------------------- vtable */

/* The rating's counts (rating.h): the lights of the board, and the lights
 * that are on, the pieces the player must deal with. */
static void lightsout_rating_counts(const struct lk_level *level, unsigned *cells,
				    unsigned *objects)
{
	const struct lightsout_level *s = (const struct lightsout_level *)level;
	unsigned on = 0;
	for (unsigned i = 0; i < (unsigned)s->ncells; i++)
		on += (unsigned)(s->start[i / 8] >> (i % 8)) & 1u;
	*cells = (unsigned)s->ncells;
	*objects = on;
}

static const struct lk_generator *const lightsout_generators[] = {
	&lk_gen_lightsout_random,
	NULL,
};

const struct lk_game lk_game_lightsout = {
	.name = "lightsout",
	.summary = "Lights Out: press lights, each toggling itself and its neighbours, until all are off",
	.metrics = lightsout_metrics,
	.validate = lightsout_validate,
	.new_level = lightsout_new_level,
	.free_level = lightsout_free_level,
	.initial_state = lightsout_initial_state,
	.successors = lightsout_successors,
	.is_goal = lightsout_is_goal,
	.heuristic = lightsout_heuristic,
	.label_path = lightsout_label_path,
	.replay = lightsout_replay,
	.write_state = lightsout_write_state,
	.symmetries = LK_SYMMETRIES_ALL,
	.generators = lightsout_generators,
	.draw = lightsout_draw,
	.replay_keys = lightsout_replay_keys,
	.rating_counts = lightsout_rating_counts,
};
