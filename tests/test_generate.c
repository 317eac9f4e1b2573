/*
 * test_generate.c - tests of the generator registry and the (seed, index)
 * loop (generate.c) with the backward generator (sokoban_backward.c) and
 * the transformer (sokoban_transform.c).
 *
 * Truths computed here, independently of the Sokoban game: the optimal
 * push count of a level by a brute-force 0-1 BFS over exact positions
 * (player square, box squares; a walk costs 0, a push 1), and a replay of
 * the LURD solution on the same board (every move legal, upper case
 * exactly for pushes, ending with every box on a goal).  Checked: the same
 * (seed, index) gives the same record text whatever the worker and order;
 * other indices give other levels; every level loads, its `pushes` is
 * optimal and its `solution` replays (here and with game->replay) with
 * the stated pushes and moves; push and move thresholds hold; a run that
 * cannot meet them gives up after max_tries; bad parameters are refused;
 * the transformer from a small level gives solvable levels that replay.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "test_support.h"

#define UNSEEN UINT32_MAX

/* ------------------------------------------------------- the board */

struct board {
	int w, h;
	uint8_t wall[64];
	uint64_t boxes, goals;
	int player;
};

/* The grid of rec; outside cells (beyond a row's end) are walls. */
static void board_of(struct board *b, const struct lk_record *rec)
{
	size_t first, n = lk_record_grid(rec, &first);
	assert_true(n > 0);
	memset(b, 0, sizeof *b);
	b->player = -1;
	b->h = (int)n;
	for (size_t y = 0; y < n; y++) {
		int len = (int)strlen(rec->lines[first + y].text);
		if (len > b->w)
			b->w = len;
	}
	if (b->w * b->h > 64)
		fail_msg("level too large for the brute force: %dx%d", b->w, b->h);
	memset(b->wall, 1, sizeof b->wall);
	for (int y = 0; y < b->h; y++) {
		const char *row = rec->lines[first + (size_t)y].text;
		for (int x = 0; row[x]; x++) {
			int c = y * b->w + x;
			char ch = row[x];
			if (!strchr("# @+$*.-_", ch))
				fail_msg("unexpected character '%c' in a generated level", ch);
			b->wall[c] = ch == '#';
			if (ch == '$' || ch == '*')
				b->boxes |= 1ull << c;
			if (ch == '.' || ch == '*' || ch == '+')
				b->goals |= 1ull << c;
			if (ch == '@' || ch == '+') {
				assert_int_equal(b->player, -1);
				b->player = c;
			}
		}
	}
	assert_true(b->player >= 0);
}

static int popcount64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The neighbour of c in direction d (0 up, 1 right, 2 down, 3 left), or
 * -1 off the board or into a wall. */
static int step(const struct board *b, int c, int d)
{
	static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
	int x = c % b->w + dx[d], y = c / b->w + dy[d];
	if (x < 0 || y < 0 || x >= b->w || y >= b->h || b->wall[y * b->w + x])
		return -1;
	return y * b->w + x;
}

/* Player step d from (player, boxes): 0 cannot, 1 walk, 2 push. */
static int move(const struct board *b, int *player, uint64_t *boxes, int d)
{
	int q = step(b, *player, d);
	if (q < 0)
		return 0;
	if (!(*boxes >> q & 1)) {
		*player = q;
		return 1;
	}
	int to = step(b, q, d);
	if (to < 0 || (*boxes >> to & 1))
		return 0;
	*boxes ^= (1ull << q) | (1ull << to);
	*player = q;
	return 2;
}

/* ------------------------------------------ brute-force optimal pushes */

struct posset {
	uint64_t *boxes;
	int *player;
	uint32_t *dist;
	size_t n, alloc;
	uint32_t *slot;
	size_t cap;
};

static size_t pos_hash(uint64_t boxes, int player, size_t cap)
{
	uint64_t h = boxes * 0x9e3779b97f4a7c15ull ^ (uint64_t)(unsigned)player * 0xc2b2ae3d27d4eb4full;
	return (size_t)(h ^ (h >> 31)) & (cap - 1);
}

static long posset_add(struct posset *s, uint64_t boxes, int player)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint32_t *slot = calloc(cap, sizeof *slot);
		assert_non_null(slot);
		for (size_t i = 0; i < s->n; i++) {
			size_t h = pos_hash(s->boxes[i], s->player[i], cap);
			while (slot[h])
				h = (h + 1) & (cap - 1);
			slot[h] = (uint32_t)i + 1;
		}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	size_t h = pos_hash(boxes, player, s->cap);
	for (; s->slot[h]; h = (h + 1) & (s->cap - 1)) {
		size_t i = s->slot[h] - 1;
		if (s->boxes[i] == boxes && s->player[i] == player)
			return (long)i;
	}
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

/* Fewest pushes to put every box on a goal, or -1: a 0-1 BFS that closes
 * each push layer under walks before pushing out of it. */
static long brute_pushes(const struct board *b)
{
	struct posset s = { 0 };
	size_t cap = 1024, cur_n = 1, next_n;
	uint32_t *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next);
	assert_true(cur && next);
	cur[0] = (uint32_t)posset_add(&s, b->boxes, b->player);
	s.dist[0] = 0;
	long answer = -1;
	for (uint32_t k = 0; cur_n && answer < 0; k++) {
		for (int pass = 1; pass <= 2; pass++) {
			/* pass 1: walks grow cur; pass 2: pushes fill next */
			next_n = 0;
			for (size_t at = 0; at < cur_n; at++) {
				uint32_t i = cur[at];
				if (pass == 1 && (s.boxes[i] & ~b->goals) == 0)
					answer = k;
				for (int d = 0; d < 4; d++) {
					int player = s.player[i];
					uint64_t boxes = s.boxes[i];
					if (move(b, &player, &boxes, d) != pass)
						continue;
					long j = posset_add(&s, boxes, player);
					if (s.dist[j] != UNSEEN)
						continue;
					s.dist[j] = pass == 1 ? k : k + 1;
					size_t *n = pass == 1 ? &cur_n : &next_n;
					if (*n == cap) {
						cap *= 2;
						cur = realloc(cur, cap * sizeof *cur);
						next = realloc(next, cap * sizeof *next);
						assert_true(cur && next);
					}
					(pass == 1 ? cur : next)[(*n)++] = (uint32_t)j;
				}
			}
		}
		uint32_t *t = cur;
		cur = next;
		next = t;
		cur_n = next_n;
	}
	free(cur);
	free(next);
	free(s.boxes);
	free(s.player);
	free(s.dist);
	free(s.slot);
	return answer;
}

/* Replay a LURD solution; fails the test on an illegal move or a letter
 * whose case does not say whether it pushes.  Returns whether it ends
 * solved; *moves and *pushes count. */
static bool replay(const struct board *b, const char *solution, long *moves, long *pushes)
{
	int player = b->player;
	uint64_t boxes = b->boxes;
	*moves = *pushes = 0;
	for (const char *p = solution; *p; p++) {
		const char *dirs = "urdl", *at = strchr(dirs, p[0] | 0x20);
		if (!at || !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')))
			fail_msg("unexpected '%c' in solution %s", *p, solution);
		int got = move(b, &player, &boxes, (int)(at - dirs));
		if (got == 0)
			fail_msg("move %ld ('%c') of %s is illegal", *moves + 1, *p, solution);
		bool upper = p[0] >= 'A' && p[0] <= 'Z';
		if (upper != (got == 2))
			fail_msg("move %ld ('%c') of %s: case does not match", *moves + 1, *p, solution);
		++*moves;
		*pushes += got == 2;
	}
	return (boxes & ~b->goals) == 0;
}

/* ------------------------------------------------------------ records */

static void record_from(struct lk_record *rec, const char *text)
{
	lk_record_init(rec);
	for (const char *row = text; *row;) {
		const char *nl = strchr(row, '\n');
		size_t len = nl ? (size_t)(nl - row) : strlen(row);
		char line[128];
		assert_true(len < sizeof line);
		memcpy(line, row, len);
		line[len] = '\0';
		lk_record_add_line(rec, line, 0);
		row += len + (nl ? 1 : 0);
	}
}

static char *record_text(const struct lk_record *rec)
{
	struct lk_strbuf sb = LK_STRBUF_INIT;
	lk_record_write(rec, &sb);
	return lk_strbuf_detach(&sb, NULL);
}

static long field_long(const struct lk_record *rec, const char *name)
{
	const char *v = lk_record_get(rec, name);
	if (!v)
		fail_msg("no field %s", name);
	char *end;
	long n = strtol(v, &end, 10);
	if (end == v || *end)
		fail_msg("field %s: '%s' is not a number", name, v);
	return n;
}

/* The checks every produced level must pass; returns its pushes. */
static long check_level(const struct lk_record *rec, bool brute)
{
	struct lk_level_options lo = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(rec, &lo, &err, &line);
	if (!level) {
		char *t = record_text(rec);
		fail_msg("generated level does not load: %s\n%s", err.buf, t);
	}
	lk_strbuf_release(&err);
	assert_string_equal(lk_record_get(rec, "solvable"), "yes");
	assert_string_equal(lk_record_get(rec, "optimal"), "pushes");
	long pushes = field_long(rec, "pushes"), moves = field_long(rec, "moves");
	const char *solution = lk_record_get(rec, "solution");
	assert_non_null(solution);

	struct board b;
	board_of(&b, rec);
	assert_int_equal(popcount64(b.boxes), popcount64(b.goals));
	long my_moves, my_pushes;
	assert_true(replay(&b, solution, &my_moves, &my_pushes));
	assert_int_equal(my_pushes, pushes);
	assert_int_equal(my_moves, moves);
	if (brute)
		assert_int_equal(brute_pushes(&b), pushes);

	struct lk_solution_stats st;
	bool solved = false;
	struct lk_strbuf why = LK_STRBUF_INIT;
	if (replay_stats(level, solution, &st, &solved, &why) != 0)
		fail_msg("game->replay refuses %s: %s", solution, why.buf);
	lk_strbuf_release(&why);
	assert_true(solved);
	assert_int_equal(st.pushes, pushes);
	assert_int_equal(st.moves, moves);
	lk_level_free(level);
	return pushes;
}

/* ------------------------------------------------------------- options */

static const char *small_keys[] = { "boxes" };
static const char *small_values[] = { "2" };

/* --size 7x7 --param boxes=2 */
static void small_options(struct lk_gen_options *o)
{
	lk_gen_options_init(o);
	o->width = o->height = 7;
	o->param_keys = small_keys;
	o->param_values = small_values;
	o->nparams = 1;
}

static const struct lk_generator *backward(void)
{
	const struct lk_generator *g = lk_generator_find("sokoban", "backward");
	assert_non_null(g);
	return g;
}

/* Generate (seed, index); the record text, or NULL when it gave up. */
static char *generate(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_gen_stats *st, struct lk_record *keep)
{
	struct lk_record rec;
	struct lk_gen_stats local = { 0 };
	lk_record_init(&rec);
	int rc = lk_generate_index(g, w, o, seed, index, &rec, st ? st : &local);
	char *text = rc == 0 ? record_text(&rec) : NULL;
	if (keep && rc == 0)
		lk_record_copy(keep, &rec);
	lk_record_release(&rec);
	return text;
}

static void worker(struct lk_gen_worker *w, const struct lk_generator *g,
		   const struct lk_gen_options *o)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	if (lk_gen_worker_init(w, g, o, &err) < 0)
		fail_msg("worker: %s", err.buf);
	lk_strbuf_release(&err);
}

/* --------------------------------------------------------------- tests */

static void test_brute_force_itself(void **state)
{
	(void)state;
	static const struct {
		const char *grid;
		long pushes;
	} cases[] = {
		{ "#####\n#@$.#\n#####", 1 },
		{ "#####\n#@ .#\n#$  #\n#####", -1 },
		{ "#######\n#     #\n# $ . #\n#  @  #\n# . $ #\n#     #\n#######", 4 },
		{ "######\n#.   #\n# $  #\n#   @#\n######", 2 },
		{ "#####\n#*@ #\n#####", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_record rec;
		struct board b;
		record_from(&rec, cases[i].grid);
		board_of(&b, &rec);
		assert_int_equal(brute_pushes(&b), cases[i].pushes);
		lk_record_release(&rec);
	}
}

static void test_find(void **state)
{
	(void)state;
	const struct lk_generator *b = backward();
	assert_ptr_equal(lk_generator_find("sokoban", NULL), b);
	assert_string_equal(b->game, "sokoban");
	const struct lk_generator *t = lk_generator_find("sokoban", "transform");
	assert_non_null(t);
	assert_string_equal(t->name, "transform");
	assert_null(lk_generator_find("sokoban", "nope"));
	assert_null(lk_generator_find("chess", NULL));
	assert_string_equal(lk_reject_name(LK_REJECT_SHORT), "too-short");
	assert_string_equal(lk_reject_name(LK_REJECT_DUPLICATE), "duplicate");
}

static void test_reproducible(void **state)
{
	(void)state;
	const struct lk_generator *g = backward();
	struct lk_gen_options o;
	struct lk_gen_worker w1, w2;
	enum { N = 12 };
	char *first[N];
	small_options(&o);
	worker(&w1, g, &o);
	worker(&w2, g, &o);
	for (int i = 0; i < N; i++) {
		first[i] = generate(g, &w1, &o, 11, (uint64_t)i, NULL, NULL);
		assert_non_null(first[i]);
		char comment[64];
		snprintf(comment, sizeof comment, "; sokoban backward 11-%d\n", i);
		assert_memory_equal(first[i], comment, strlen(comment));
		char idx[32];
		snprintf(idx, sizeof idx, "\nindex: %d\n", i);
		assert_non_null(strstr(first[i], idx));
		assert_non_null(strstr(first[i], "\ngenerator: backward\n"));
		assert_non_null(strstr(first[i], "\nseed: 11\n"));
	}
	/* another worker, the other way round, and the first one again */
	for (int i = N - 1; i >= 0; i--) {
		char *again = generate(g, &w2, &o, 11, (uint64_t)i, NULL, NULL);
		assert_string_equal(again, first[i]);
		free(again);
	}
	char *again = generate(g, &w1, &o, 11, 3, NULL, NULL);
	assert_string_equal(again, first[3]);
	free(again);
	/* other indices, other levels (the grid, after the comment line) */
	int same = 0;
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++) {
			const char *a = strchr(first[i], '\n'), *b = strchr(first[j], '\n');
			size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
			same += la == lb && memcmp(a, b, la) == 0;
		}
	assert_true(same <= 1);
	/* another seed, other levels */
	int differ = 0;
	for (int i = 0; i < 4; i++) {
		char *other = generate(g, &w1, &o, 12, (uint64_t)i, NULL, NULL);
		const char *a = strchr(other, '\n'), *b = strchr(first[i], '\n');
		size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
		differ += la != lb || memcmp(a, b, la) != 0;
		free(other);
	}
	assert_true(differ >= 3);
	for (int i = 0; i < N; i++)
		free(first[i]);
	lk_gen_worker_release(&w1, g);
	lk_gen_worker_release(&w2, g);
}

static void test_levels_optimal(void **state)
{
	(void)state;
	const struct lk_generator *g = backward();
	struct lk_gen_options o;
	struct lk_gen_worker w;
	struct lk_gen_stats st = { 0 };
	small_options(&o);
	worker(&w, g, &o);
	for (uint64_t i = 0; i < 25; i++) {
		struct lk_record rec;
		lk_record_init(&rec);
		char *text = generate(g, &w, &o, 2, i, &st, &rec);
		assert_non_null(text);
		struct board b;
		board_of(&b, &rec);
		assert_true(b.w <= 7 && b.h <= 7);
		assert_int_equal(popcount64(b.boxes), 2);
		assert_true(check_level(&rec, true) >= 1);
		free(text);
		lk_record_release(&rec);
	}
	assert_int_equal(st.accepted, 25);
	assert_int_equal(st.failed, 0);
	assert_true(st.tried >= 25);
	uint64_t rejected = 0;
	for (int r = 0; r < LK_REJECT_COUNT; r++)
		rejected += st.rejected[r];
	assert_int_equal(st.tried, st.accepted + rejected);
	lk_gen_worker_release(&w, g);
}

/* Levels of (seed, 0..n-1) under o all pass check_level and lie in
 * [lo, hi] pushes. */
static void check_range(struct lk_gen_options *o, long lo, long hi, int n)
{
	const struct lk_generator *g = backward();
	struct lk_gen_worker w;
	worker(&w, g, o);
	for (int i = 0; i < n; i++) {
		struct lk_record rec;
		lk_record_init(&rec);
		char *text = generate(g, &w, o, 5, (uint64_t)i, NULL, &rec);
		assert_non_null(text);
		long p = check_level(&rec, true);
		assert_in_range(p, lo, hi);
		if (lk_range_set(&o->moves))
			assert_true(lk_range_has(&o->moves, (double)field_long(&rec, "moves")));
		free(text);
		lk_record_release(&rec);
	}
	lk_gen_worker_release(&w, g);
}

/* The backward generator's pushes threshold, as gen makes it of
 * --min-pushes/--max-pushes. */
static void set_pushes(struct lk_gen_options *o, double min, double max)
{
	static const struct lk_gen_field pushes = { .name = "pushes", .noun = "optimal pushes" };
	o->thresholds[0] = (struct lk_gen_threshold){ &pushes, { min, max } };
	o->nthresholds = 1;
}

static void test_thresholds(void **state)
{
	(void)state;
	struct lk_gen_options o;
	small_options(&o);
	set_pushes(&o, 7, INFINITY);
	check_range(&o, 7, 1000, 8);
	small_options(&o);
	set_pushes(&o, -INFINITY, 3);
	check_range(&o, 1, 3, 8);
	small_options(&o);
	set_pushes(&o, 4, 4);
	check_range(&o, 4, 4, 8);
	small_options(&o);
	o.moves.max = 12;
	check_range(&o, 1, 12, 8);
	small_options(&o);
	o.moves.min = 25;
	check_range(&o, 1, 1000, 4);
}

static void test_give_up(void **state)
{
	(void)state;
	const struct lk_generator *g = backward();
	struct lk_gen_options o;
	struct lk_gen_worker w;
	struct lk_gen_stats st = { 0 };
	small_options(&o);
	set_pushes(&o, 500, INFINITY);
	o.max_tries = 4;
	worker(&w, g, &o);
	assert_null(generate(g, &w, &o, 1, 0, &st, NULL));
	assert_int_equal(st.tried, 4);
	assert_int_equal(st.failed, 1);
	assert_int_equal(st.accepted, 0);
	/* cancelled before the first candidate */
	static volatile sig_atomic_t cancel = 1;
	struct lk_gen_stats st2 = { 0 };
	small_options(&o);
	o.rating.search.bounds.cancel = &cancel;
	assert_null(generate(g, &w, &o, 1, 0, &st2, NULL));
	assert_int_equal(st2.tried, 0);
	lk_gen_worker_release(&w, g);
}

static void test_bad_options(void **state)
{
	(void)state;
	const struct lk_generator *g = backward();
	static const struct {
		const char *key, *value, *want;
		int size;
	} cases[] = {
		{ "nope", "1", "nope", 7 },
		{ "boxes", "0", "boxes", 7 },
		{ "boxes", "two", "boxes", 7 },
		{ "boxes", "2", "size", 2 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lk_gen_options o;
		struct lk_gen_worker w;
		struct lk_strbuf err = LK_STRBUF_INIT;
		lk_gen_options_init(&o);
		o.width = o.height = cases[i].size;
		const char *key[1] = { cases[i].key }, *value[1] = { cases[i].value };
		o.param_keys = key;
		o.param_values = value;
		o.nparams = 1;
		assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), -1);
		if (!strstr(err.buf, cases[i].want))
			fail_msg("message '%s' does not name '%s'", err.buf, cases[i].want);
		lk_strbuf_release(&err);
	}
}

static void check_transform(const char *rules, bool brute_always)
{
	const struct lk_generator *g = lk_generator_find("sokoban", "transform");
	assert_non_null(g);
	static const char *keys[] = { "steps" }, *values[] = { "5" };
	struct lk_record from;
	record_from(&from, "#######\n#     #\n# $ . #\n#  @  #\n# . $ #\n#     #\n#######");
	struct lk_gen_options o;
	lk_gen_options_init(&o);
	o.from = &from;
	o.rules = rules;
	o.param_keys = keys;
	o.param_values = values;
	o.nparams = 1;
	o.max_tries = 50;
	struct lk_gen_worker w;
	worker(&w, g, &o);
	int changed = 0;
	for (uint64_t i = 0; i < 6; i++) {
		struct lk_record rec;
		lk_record_init(&rec);
		char *text = generate(g, &w, &o, 9, i, NULL, &rec);
		assert_non_null(text);
		assert_non_null(strstr(text, "\ngenerator: transform\n"));
		struct board b;
		board_of(&b, &rec);
		check_level(&rec, brute_always || popcount64(b.boxes) <= 3);
		if (brute_always)
			assert_int_equal(popcount64(b.boxes), 2);
		changed += strstr(text, "# $ . #\n#  @  #\n# . $ #") == NULL;
		char *again = generate(g, &w, &o, 9, i, NULL, NULL);
		assert_string_equal(again, text);
		free(again);
		free(text);
		lk_record_release(&rec);
	}
	assert_true(changed >= 5);
	lk_gen_worker_release(&w, g);
	lk_record_release(&from);
}

static void test_transform(void **state)
{
	(void)state;
	check_transform(NULL, false);   /* the mix preset */
	check_transform("choose 20 [Player | no Obstacle] -> [ | Player]\n"
			"or [Crate | no Obstacle] -> [ | Crate]\n", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brute_force_itself),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_levels_optimal),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_give_up),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_transform),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
