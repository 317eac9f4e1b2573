/*
 * test_explore.c - tests of lk_explore (explore.c), the breadth-first
 * exploration of a level's whole state space, on small Sokoban levels.
 *
 * The truth is a brute-force search written here over exact positions
 * (player square, set of box squares), independent of the Sokoban game:
 *  - moves metric (--plain): every step is an edge; the explored states
 *    must be exactly the reachable positions, each at its BFS distance,
 *    and the layer sizes the distance histogram;
 *  - pushes metric (--plain): a push costs 1 and a walk 0; positions
 *    joined by walks are one state, so the explored states must be the
 *    walk-connected classes of reachable positions, each at its 0-1 BFS
 *    distance.
 * Keys are decoded with the layout documented in sokoban.h (player's
 * compact floor index, then a bit per floor square in row-major order).
 * Bounds: max_states gives an incomplete graph whose recorded layers are
 * still whole and whose stored depths are still exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "levelkit/explore.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"

#define UNSEEN UINT32_MAX

/* ------------------------------------------------------- the board */

struct board {
	int w, h;
	uint8_t wall[64];
	uint64_t boxes;       /* at the start */
	int player;
	int compact[64];      /* cell -> floor index (row-major), or -1 */
	int nfloor;
};

/* Rows separated by '\n', padded to the widest with outside (wall). */
static void board_parse(struct board *b, const char *text)
{
	memset(b, 0, sizeof *b);
	b->player = -1;
	int y = 0, x = 0, w = 0;
	for (const char *s = text; *s; s++) {
		if (*s == '\n') {
			y++;
			x = 0;
			continue;
		}
		x++;
		if (x > w)
			w = x;
	}
	b->w = w;
	b->h = y + 1;
	assert_true(b->w * b->h <= 64);
	memset(b->wall, 1, sizeof b->wall);
	x = y = 0;
	for (const char *s = text; *s; s++) {
		if (*s == '\n') {
			y++;
			x = 0;
			continue;
		}
		int c = y * b->w + x++;
		b->wall[c] = *s == '#';
		if (strchr("$*", *s))
			b->boxes |= 1ull << c;
		if (strchr("@+", *s))
			b->player = c;
	}
	assert_true(b->player >= 0);
	/* floor: the player's flood fill, boxes counted as floor */
	int stack[64], sp = 0;
	uint8_t seen[64] = { 0 };
	seen[b->player] = 1;
	stack[sp++] = b->player;
	while (sp) {
		int c = stack[--sp];
		int cx = c % b->w, cy = c / b->w;
		const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
		for (int d = 0; d < 4; d++) {
			int nx = cx + dx[d], ny = cy + dy[d];
			if (nx < 0 || ny < 0 || nx >= b->w || ny >= b->h)
				continue;
			int n = ny * b->w + nx;
			if (!b->wall[n] && !seen[n]) {
				seen[n] = 1;
				stack[sp++] = n;
			}
		}
	}
	for (int c = 0; c < b->w * b->h; c++) {
		b->compact[c] = seen[c] ? b->nfloor++ : -1;
		if (!seen[c])
			b->wall[c] = 1;   /* outside: never entered */
	}
}

/* The neighbour of c in direction d (0 up, 1 right, 2 down, 3 left), or
 * -1 off the board or into a wall. */
static int step(const struct board *b, int c, int d)
{
	const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	int x = c % b->w + dx[d], y = c / b->w + dy[d];
	if (x < 0 || y < 0 || x >= b->w || y >= b->h || b->wall[y * b->w + x])
		return -1;
	return y * b->w + x;
}

/* ------------------------------------------- a set of exact positions */

struct posset {
	uint64_t *boxes;
	int *player;
	uint32_t *dist;
	size_t n, alloc;
	uint32_t *slot;     /* index + 1, 0 = empty */
	size_t cap;
};

static uint64_t pos_hash(uint64_t boxes, int player)
{
	uint64_t h = boxes * 0x9e3779b97f4a7c15ull ^ (uint64_t)(unsigned)player * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

static void posset_free(struct posset *s)
{
	free(s->boxes);
	free(s->player);
	free(s->dist);
	free(s->slot);
	memset(s, 0, sizeof *s);
}

static void posset_grow(struct posset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint32_t *slot = calloc(cap, sizeof *slot);
	assert_non_null(slot);
	for (size_t i = 0; i < s->n; i++) {
		size_t h = (size_t)pos_hash(s->boxes[i], s->player[i]) & (cap - 1);
		while (slot[h])
			h = (h + 1) & (cap - 1);
		slot[h] = (uint32_t)i + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
}

/* Index of the position, or -1 (add: then added with dist UNSEEN). */
static long posset_find(struct posset *s, uint64_t boxes, int player, int add)
{
	if (add && 2 * (s->n + 1) > s->cap)
		posset_grow(s);
	if (!s->cap)
		return -1;
	size_t h = (size_t)pos_hash(boxes, player) & (s->cap - 1);
	for (; s->slot[h]; h = (h + 1) & (s->cap - 1)) {
		size_t i = s->slot[h] - 1;
		if (s->boxes[i] == boxes && s->player[i] == player)
			return (long)i;
	}
	if (!add)
		return -1;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 1024;
		s->boxes = realloc(s->boxes, s->alloc * sizeof *s->boxes);
		s->player = realloc(s->player, s->alloc * sizeof *s->player);
		s->dist = realloc(s->dist, s->alloc * sizeof *s->dist);
		assert_true(s->boxes && s->player && s->dist);
	}
	s->boxes[s->n] = boxes;
	s->player[s->n] = player;
	s->dist[s->n] = UNSEEN;
	s->slot[h] = (uint32_t)s->n + 1;
	return (long)s->n++;
}

/* The player's step d from position i: the new position through *boxes
 * and *player; returns 0 (cannot), 1 (walk) or 2 (push). */
static int move(const struct board *b, const struct posset *s, size_t i, int d, uint64_t *boxes,
		int *player)
{
	int q = step(b, s->player[i], d);
	if (q < 0)
		return 0;
	*boxes = s->boxes[i];
	*player = q;
	if (!(*boxes >> q & 1))
		return 1;
	int to = step(b, q, d);
	if (to < 0 || (*boxes >> to & 1))
		return 0;
	*boxes ^= (1ull << q) | (1ull << to);
	return 2;
}

/* Moves metric: plain BFS over positions (the array is the queue). */
static void brute_moves(const struct board *b, struct posset *s)
{
	posset_find(s, b->boxes, b->player, 1);
	s->dist[0] = 0;
	for (size_t i = 0; i < s->n; i++) {
		for (int d = 0; d < 4; d++) {
			uint64_t boxes;
			int player;
			if (!move(b, s, i, d, &boxes, &player))
				continue;
			long j = posset_find(s, boxes, player, 1);
			if (s->dist[j] == UNSEEN)
				s->dist[j] = s->dist[i] + 1;
		}
	}
}

/* Pushes metric: 0-1 BFS, layer by layer: the walk closure of a layer,
 * then the pushes out of it start the next. */
static void brute_pushes(const struct board *b, struct posset *s)
{
	size_t cur_n = 1, next_n = 0, cap = 1024;
	uint32_t *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next);
	assert_true(cur && next);
	posset_find(s, b->boxes, b->player, 1);
	s->dist[0] = 0;
	cur[0] = 0;
	for (uint32_t k = 0; cur_n; k++) {
		/* closure: cur grows as walks find new positions of cost k */
		for (size_t at = 0; at < cur_n; at++) {
			for (int d = 0; d < 4; d++) {
				uint64_t boxes;
				int player;
				if (move(b, s, cur[at], d, &boxes, &player) != 1)
					continue;
				long j = posset_find(s, boxes, player, 1);
				if (s->dist[j] != UNSEEN)
					continue;
				s->dist[j] = k;
				if (cur_n == cap) {
					cap *= 2;
					cur = realloc(cur, cap * sizeof *cur);
					next = realloc(next, cap * sizeof *next);
					assert_true(cur && next);
				}
				cur[cur_n++] = (uint32_t)j;
			}
		}
		next_n = 0;
		for (size_t at = 0; at < cur_n; at++) {
			for (int d = 0; d < 4; d++) {
				uint64_t boxes;
				int player;
				if (move(b, s, cur[at], d, &boxes, &player) != 2)
					continue;
				long j = posset_find(s, boxes, player, 1);
				if (s->dist[j] != UNSEEN)
					continue;
				s->dist[j] = k + 1;
				if (next_n == cap) {
					cap *= 2;
					cur = realloc(cur, cap * sizeof *cur);
					next = realloc(next, cap * sizeof *next);
					assert_true(cur && next);
				}
				next[next_n++] = (uint32_t)j;
			}
		}
		uint32_t *t = cur;
		cur = next;
		next = t;
		cur_n = next_n;
	}
	free(cur);
	free(next);
}

/* Walk-connected classes of the positions in s: class[i], count returned. */
static size_t walk_classes(const struct board *b, const struct posset *s, uint32_t *cls)
{
	size_t n = 0;
	uint32_t *stack = malloc((s->n ? s->n : 1) * sizeof *stack);
	assert_non_null(stack);
	for (size_t i = 0; i < s->n; i++)
		cls[i] = UNSEEN;
	for (size_t i = 0; i < s->n; i++) {
		if (cls[i] != UNSEEN)
			continue;
		size_t sp = 0;
		cls[i] = (uint32_t)n;
		stack[sp++] = (uint32_t)i;
		while (sp) {
			uint32_t at = stack[--sp];
			assert_int_equal(s->dist[at], s->dist[i]);   /* walks are free */
			for (int d = 0; d < 4; d++) {
				uint64_t boxes;
				int player;
				if (move(b, s, at, d, &boxes, &player) != 1)
					continue;
				long j = posset_find((struct posset *)s, boxes, player, 0);
				assert_true(j >= 0);
				if (cls[j] == UNSEEN) {
					cls[j] = (uint32_t)n;
					stack[sp++] = (uint32_t)j;
				}
			}
		}
		n++;
	}
	free(stack);
	return n;
}

/* --------------------------------------------------- levels and keys */

static struct lk_level *load(const char *text, const char *metric, struct lk_record *rec)
{
	struct lk_level_options lo = { .metric = metric, .plain = true };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	lk_record_init(rec);
	for (const char *row = text; *row;) {
		const char *nl = strchr(row, '\n');
		size_t len = nl ? (size_t)(nl - row) : strlen(row);
		char row_text[64];
		assert_true(len < sizeof row_text);
		memcpy(row_text, row, len);
		row_text[len] = '\0';
		lk_record_add_line(rec, row_text, 0);
		row += len + (nl ? 1 : 0);
	}
	struct lk_level *level = lk_level_load(rec, &lo, &err, &line);
	if (!level)
		fail_msg("level does not load: %s\n%s", err.buf, text);
	lk_strbuf_release(&err);
	return level;
}

/* Decode a Sokoban key: player square and boxes (see sokoban.h). */
static void decode(const struct board *b, const unsigned char *key, int *player, uint64_t *boxes)
{
	int pc = key[0] | key[1] << 8;
	*player = -1;
	*boxes = 0;
	for (int c = 0; c < b->w * b->h; c++) {
		int k = b->compact[c];
		if (k < 0)
			continue;
		if (k == pc)
			*player = c;
		if (key[2 + k / 8] >> (k % 8) & 1)
			*boxes |= 1ull << c;
	}
	assert_true(*player >= 0);
}

static const char *const levels[] = {
	"######\n"
	"#    #\n"
	"# $$ #\n"
	"#@ . #\n"
	"#  . #\n"
	"######",

	"####\n"
	"# .#\n"
	"#  ###\n"
	"#*@  #\n"
	"#  $ #\n"
	"#  ###\n"
	"####",

	"#######\n"
	"#. #  #\n"
	"# $$ @#\n"
	"#  #$ #\n"
	"#.  . #\n"
	"#######",

	"########\n"
	"#  .   #\n"
	"# $$ # #\n"
	"#  @ . #\n"
	"## $ . #\n"
	"#  #   #\n"
	"########",
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Check a graph against the brute-force depth of each state (depth_of)
 * and the histogram hist (maxd + 1 entries). */
static void check_graph(const struct lk_graph *g, const struct board *b, struct posset *s,
			const uint32_t *cls, const uint32_t *hist, uint32_t maxd, bool whole)
{
	/* every stored state is a real one at its true depth, and distinct */
	uint8_t *met = calloc(s->n ? s->n : 1, 1);
	assert_non_null(met);
	for (uint32_t id = 0; id < g->table.count; id++) {
		int player;
		uint64_t boxes;
		decode(b, lk_table_key(&g->table, id), &player, &boxes);
		long i = posset_find(s, boxes, player, 0);
		if (i < 0)
			fail_msg("state %u is not reachable", id);
		assert_int_equal(lk_table_cost(&g->table, id), s->dist[i]);
		size_t c = cls ? cls[i] : (size_t)i;
		assert_false(met[c]);
		met[c] = 1;
		if (id > 0)   /* breadth-first order */
			assert_true(lk_table_cost(&g->table, id - 1) <= lk_table_cost(&g->table, id));
	}
	free(met);
	/* layers: whole, and the histogram's */
	assert_true(g->nlayers >= 1);
	assert_int_equal(g->layer[0], 0);
	for (size_t d = 0; d < g->nlayers; d++) {
		assert_true(d <= maxd);
		assert_int_equal(g->layer[d + 1] - g->layer[d], hist[d]);
		for (uint32_t id = g->layer[d]; id < g->layer[d + 1]; id++)
			assert_int_equal(lk_table_cost(&g->table, id), d);
	}
	assert_int_equal(lk_graph_whole_depth(g), g->nlayers - 1);
	if (whole) {
		assert_true(g->complete);
		assert_int_equal(g->nlayers, maxd + 1);
		assert_int_equal(g->layer[g->nlayers], g->table.count);
	}
}

/* Explore one level in a metric, complete and with state bounds. */
static void check_level(const char *text, const char *metric, struct lk_graph *g)
{
	struct board b;
	struct posset s = { 0 };
	struct lk_record rec;
	board_parse(&b, text);
	bool pushes = strcmp(metric, "pushes") == 0;
	if (pushes)
		brute_pushes(&b, &s);
	else
		brute_moves(&b, &s);
	uint32_t *cls = NULL;
	size_t nstates = s.n;
	if (pushes) {
		cls = malloc(s.n * sizeof *cls);
		assert_non_null(cls);
		nstates = walk_classes(&b, &s, cls);
	}
	/* histogram of depths: over positions, or over classes */
	uint32_t maxd = 0;
	for (size_t i = 0; i < s.n; i++)
		if (s.dist[i] > maxd)
			maxd = s.dist[i];
	uint32_t *hist = calloc(maxd + 1, sizeof *hist);
	uint8_t *counted = calloc(nstates, 1);
	assert_true(hist && counted);
	for (size_t i = 0; i < s.n; i++) {
		size_t c = cls ? cls[i] : i;
		if (!counted[c]) {
			counted[c] = 1;
			hist[s.dist[i]]++;
		}
	}
	free(counted);

	struct lk_level *level = load(text, metric, &rec);
	struct lk_search_options opt = LK_SEARCH_OPTIONS_INIT;
	lk_explore(g, level, &opt);
	assert_true(g->complete);
	assert_int_equal(g->limit, LK_LIMIT_NONE);
	assert_int_equal(g->table.count, nstates);
	assert_true(g->edges >= nstates - 1);
	check_graph(g, &b, &s, cls, hist, maxd, true);

	/* a bound one above the count changes nothing */
	opt.bounds.max_states = nstates + 1;
	lk_explore(g, level, &opt);
	assert_true(g->complete);
	assert_int_equal(g->table.count, nstates);

	/* bounds: incomplete, but what is recorded is right */
	const uint64_t bounds[] = { 2, 3, nstates / 3, nstates / 2, nstates - 1 };
	for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
		if (bounds[k] < 2 || bounds[k] >= nstates)
			continue;
		opt.bounds.max_states = bounds[k];
		lk_explore(g, level, &opt);
		assert_false(g->complete);
		assert_int_equal(g->limit, LK_LIMIT_STATES);
		assert_true(g->table.count <= bounds[k]);
		check_graph(g, &b, &s, cls, hist, maxd, false);
		assert_true(lk_graph_whole_depth(g) <= maxd);
		/* the layers recorded hold fewer states than were stored or
		 * exactly as many, never more */
		assert_true(g->layer[g->nlayers] <= g->table.count);
	}

	lk_level_free(level);
	lk_record_release(&rec);
	free(hist);
	free(cls);
	posset_free(&s);
}

static void test_moves_metric(void **state)
{
	(void)state;
	struct lk_graph g;
	lk_graph_init(&g);
	for (size_t i = 0; i < NLEVELS; i++)
		check_level(levels[i], "moves", &g);   /* one graph, reused */
	lk_graph_release(&g);
}

static void test_pushes_metric(void **state)
{
	(void)state;
	struct lk_graph g;
	lk_graph_init(&g);
	for (size_t i = 0; i < NLEVELS; i++)
		check_level(levels[i], "pushes", &g);
	lk_graph_release(&g);
}

/* Hand-worked: a corridor with one box; under moves the player walks 3
 * squares left of the box or pushes it right to the wall. */
static void test_hand_worked(void **state)
{
	(void)state;
	struct lk_graph g;
	struct lk_record rec;
	lk_graph_init(&g);
	/* #@$ .#: positions (player, box) = (1,2) start; the player cannot
	 * pass the box, so positions are (p, b) with p < b: box at 2: p=1;
	 * box at 3: p=1,2; box at 4: p=1,2,3.  6 positions.  Depths by
	 * moves: (1,2)=0, (2,3)=1, (1,3)=2, (3,4)=2, (2,4)=3, (1,4)=4. */
	struct lk_level *level = load("######\n#@$ .#\n######", "moves", &rec);
	struct lk_search_options opt = LK_SEARCH_OPTIONS_INIT;
	lk_explore(&g, level, &opt);
	assert_true(g.complete);
	assert_int_equal(g.table.count, 6);
	assert_int_equal(g.nlayers, 5);
	const uint32_t want[] = { 1, 1, 2, 1, 1 };
	for (size_t d = 0; d < 5; d++)
		assert_int_equal(g.layer[d + 1] - g.layer[d], want[d]);
	lk_level_free(level);
	lk_record_release(&rec);
	/* pushes: three box squares, one class each: depths 0, 1, 2 */
	level = load("######\n#@$ .#\n######", "pushes", &rec);
	lk_explore(&g, level, &opt);
	assert_true(g.complete);
	assert_int_equal(g.table.count, 3);
	assert_int_equal(g.nlayers, 3);
	lk_level_free(level);
	lk_record_release(&rec);
	lk_graph_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_moves_metric),
		cmocka_unit_test(test_pushes_metric),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
