/*
 * test_combination.c - the Combination game (src/games/combination): level
 * loading, the constraint solver (game->csp), lk_csp_rate, the generator.
 *
 *  - a brute-force enumerator written here places the pieces square by
 *    square in reading order and checks attacks by walking rays; its only
 *    pruning is exact (a piece placed sees the earlier pieces left, up,
 *    up-left and up-right of it for good).  Exact solution counts are
 *    compared with the solver's on 250 random small levels, with symmetry
 *    breaking off and on (then: the orbits under renamings of colours with
 *    the same pieces), SAC and the GCC on and off, static and shuffled;
 *  - peaceable armies of queens (OEIS A250000), n = 3..8;
 *  - hand-worked levels and verify; validation errors and their lines;
 *  - lk_csp_rate: runs, determinism, the 500-node cut-off;
 *  - the generator: unique levels of 6 pieces or more, post-processing.
 * A solution with an extra, empty row is checked last, in its own test, so
 * that reading past the grid there (under ASan) hides no other result.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"
#include "levelkit/game.h"
#include "levelkit/generate.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"

/* ------------------------------------------------------- loading levels */

static void read_record(const char *text, struct lk_record *rec)
{
	FILE *fp = tmpfile();
	struct lk_reader r;
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	lk_reader_init_fp(&r, fp, "test.xsb");
	lk_record_init(rec);
	assert_int_equal(lk_reader_next(&r, rec, NULL, NULL), 1);
	lk_reader_close(&r);
	fclose(fp);
}

/* The level of text, or NULL with the message and its line. */
static struct lk_level *try_load(const char *text, struct lk_strbuf *err, size_t *line)
{
	struct lk_record rec;
	struct lk_level_options opt = { 0 };
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, err, line);
	lk_record_release(&rec);
	return level;
}

static struct lk_level *load(const char *text)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = try_load(text, &err, &line);
	if (!level)
		fail_msg("level did not load: line %zu: %s\n%s", line, err.buf, text);
	assert_string_equal(level->game->name, "combination");
	assert_non_null(level->game->csp);
	lk_strbuf_release(&err);
	return level;
}

/* The text of a level from its pieces and rows ('|' between rows). */
static void level_text(char *text, size_t size, const char *pieces, const char *rows)
{
	snprintf(text, size, "game: combination\npieces: %s\n%s\n", pieces, rows);
	for (char *p = text; *p; p++)
		*p = *p == '|' ? '\n' : *p;
}

/* Expect text to be rejected with a message containing want, on line. */
static void expect_error(const char *text, const char *want, size_t want_line)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	if (try_load(text, &err, &line))
		fail_msg("level loaded, expected error '%s':\n%s", want, text);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not contain '%s'", err.buf, want);
	assert_int_equal(line, want_line);
	lk_strbuf_release(&err);
}

struct opts {
	bool sac, gcc, symmetry, dynamic;
	uint64_t limit, seed;
};

/* Solve into r (initialised here: release it before solving again). */
static void solve(const struct lk_level *level, struct opts o, struct lk_csp_result *r)
{
	struct lk_csp_options co;
	lk_csp_options_init(&co);
	co.sac = o.sac;
	co.gcc = o.gcc;
	co.symmetry = o.symmetry;
	co.dynamic = o.dynamic;
	co.count_limit = o.limit;
	co.seed = o.seed;
	lk_csp_result_init(r);
	level->game->csp->solve(level, &co, r);
}

/* ------------------------------------------------ the brute-force model */

#define BF_MAXCELLS 64
#define BF_MAXTYPES 12
#define BF_MAXCOLOURS 4
#define BF_STRIDE (BF_MAXCELLS + 16)

enum { ROOK, BISHOP, QUEEN };
static const char *const kind_word[] = { "rook", "bishop", "queen" };
static const char *const colour_word[] = { "red", "blue", "green", "yellow" };

struct bf {
	int w, h;
	char cell[BF_MAXCELLS];   /* '.', '#', 'o' */
	int ntypes, ncolours;
	int colour[BF_MAXTYPES], kind[BF_MAXTYPES], count[BF_MAXTYPES];
};

/* Read "2 red queen, 1 blue rook" (types merged by colour and kind, in
 * order of first mention, as the game numbers them).  -1 when it cannot. */
static int bf_parse_pieces(struct bf *b, const char *s)
{
	char names[BF_MAXCOLOURS][32];
	b->ntypes = b->ncolours = 0;
	while (*s) {
		int n, used = 0;
		char col[32], kind[32];
		if (sscanf(s, " %d %31s %31[a-z]%n", &n, col, kind, &used) != 3)
			return -1;
		for (s += used; *s == ' ' || *s == ',';)
			s++;
		int k = kind[0] == 'r' ? ROOK : kind[0] == 'b' ? BISHOP : QUEEN, c = 0, t = 0;
		while (c < b->ncolours && strcmp(names[c], col) != 0)
			c++;
		if (c == b->ncolours) {
			if (c == BF_MAXCOLOURS)
				return -1;
			strcpy(names[b->ncolours++], col);
		}
		while (t < b->ntypes && !(b->colour[t] == c && b->kind[t] == k))
			t++;
		if (t == b->ntypes) {
			if (t == BF_MAXTYPES)
				return -1;
			b->colour[t] = c;
			b->kind[t] = k;
			b->count[b->ntypes++] = 0;
		}
		b->count[t] += n;
	}
	return 0;
}

/* The grid (short rows are walls beyond their end) and the pieces. */
static int bf_from_record(struct bf *b, const struct lk_record *rec)
{
	size_t first, n = lk_record_grid(rec, &first);
	memset(b, 0, sizeof *b);
	b->h = (int)n;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rec->lines[first + i].text) > b->w)
			b->w = (int)strlen(rec->lines[first + i].text);
	if (b->w * b->h > BF_MAXCELLS)
		return -1;
	memset(b->cell, '#', sizeof b->cell);
	for (size_t i = 0; i < n; i++)
		memcpy(b->cell + i * (size_t)b->w, rec->lines[first + i].text,
		       strlen(rec->lines[first + i].text));
	const char *pieces = lk_record_get(rec, "pieces");
	return pieces ? bf_parse_pieces(b, pieces) : -1;
}

static void bf_from_text(struct bf *b, const char *text)
{
	struct lk_record rec;
	read_record(text, &rec);
	assert_int_equal(bf_from_record(b, &rec), 0);
	lk_record_release(&rec);
}

static bool bf_attacks(int kind, int dx, int dy)
{
	return kind == QUEEN || (kind == ROOK) == (dx == 0 || dy == 0);
}

static bool bf_conflict(const struct bf *b, int t, int u, int dx, int dy)
{
	return b->colour[t] != b->colour[u] && (bf_attacks(b->kind[t], dx, dy) || bf_attacks(b->kind[u], dx, dy));
}

/* The type of the first piece from (x, y) along (dx, dy), or -1: walls and
 * the edge stop the walk, holes and empty squares are passed. */
static int bf_first_piece(const struct bf *b, const int *at, int x, int y, int dx, int dy)
{
	for (x += dx, y += dy; x >= 0 && y >= 0 && x < b->w && y < b->h; x += dx, y += dy) {
		int c = y * b->w + x;
		if (b->cell[c] == '#')
			return -1;
		if (at[c] >= 0)
			return at[c];
	}
	return -1;
}

/* Our own checker: counts, pieces only on empty squares, no attack. */
static bool bf_check(const struct bf *b, const int *at)
{
	static const int dx[8] = { 1, -1, 0, 0, 1, -1, 1, -1 }, dy[8] = { 0, 0, 1, -1, 1, -1, -1, 1 };
	int count[BF_MAXTYPES] = { 0 };
	for (int c = 0; c < b->w * b->h; c++) {
		if (at[c] < 0)
			continue;
		if (b->cell[c] != '.')
			return false;
		count[at[c]]++;
		for (int d = 0; d < 8; d++) {
			int u = bf_first_piece(b, at, c % b->w, c / b->w, dx[d], dy[d]);
			if (u >= 0 && bf_conflict(b, at[c], u, dx[d], dy[d]))
				return false;
		}
	}
	for (int t = 0; t < b->ntypes; t++)
		if (count[t] != b->count[t])
			return false;
	return true;
}

static char type_char(int t)
{
	return t < 9 ? (char)('1' + t) : (char)('A' + t - 9);
}

static int char_type(char ch)
{
	return ch >= '1' && ch <= '9' ? ch - '1' : ch >= 'A' && ch <= 'Z' ? 9 + ch - 'A' : -1;
}

/* Is s, of the exact shape of the grid (rows joined by '/'), a solution? */
static bool bf_valid(const struct bf *b, const char *s)
{
	int at[BF_MAXCELLS];
	for (int y = 0; y < b->h; y++, s++) {
		for (int x = 0; x < b->w; x++, s++) {
			int c = y * b->w + x;
			at[c] = char_type(*s);
			if (at[c] >= b->ntypes || (at[c] < 0 && *s != b->cell[c]))
				return false;
		}
		if (*s != (y + 1 < b->h ? '/' : '\0'))
			return false;
	}
	return bf_check(b, at);
}

struct bf_run {
	const struct bf *b;
	int at[BF_MAXCELLS], left[BF_MAXTYPES], remaining, free_from[BF_MAXCELLS + 1];
	char *sols;               /* BF_STRIDE bytes each, sorted at the end */
	size_t nsols, alloc;
	uint64_t nodes, budget;
};

static void bf_record(struct bf_run *r, const struct bf *b)
{
	if (r->nsols == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 64;
		r->sols = realloc(r->sols, r->alloc * BF_STRIDE);
		assert_non_null(r->sols);
	}
	char *s = r->sols + r->nsols++ * BF_STRIDE;
	for (int c = 0; c < b->w * b->h; c++) {
		if (c && c % b->w == 0)
			*s++ = '/';
		*s++ = r->at[c] >= 0 ? type_char(r->at[c]) : b->cell[c];
	}
	*s = '\0';
}

/* May type t stand on cell c, given the pieces before it that it sees?
 * Those are final: every square between is decided. */
static bool bf_fits_back(const struct bf *b, const int *at, int c, int t)
{
	static const int dx[4] = { -1, 0, -1, 1 }, dy[4] = { 0, -1, -1, -1 };
	for (int d = 0; d < 4; d++) {
		int u = bf_first_piece(b, at, c % b->w, c / b->w, dx[d], dy[d]);
		if (u >= 0 && bf_conflict(b, t, u, dx[d], dy[d]))
			return false;
	}
	return true;
}

static void bf_enum(struct bf_run *r, int c)
{
	const struct bf *b = r->b;
	if (++r->nodes > r->budget || r->remaining > r->free_from[c])
		return;
	if (c == b->w * b->h) {
		if (!bf_check(b, r->at))
			fail_msg("a leaf of the enumerator fails its own check");
		bf_record(r, b);
		return;
	}
	for (int t = 0; t < b->ntypes && b->cell[c] == '.'; t++) {
		if (!r->left[t] || !bf_fits_back(b, r->at, c, t))
			continue;
		r->at[c] = t;
		r->left[t]--;
		r->remaining--;
		bf_enum(r, c + 1);
		r->at[c] = -1;
		r->left[t]++;
		r->remaining++;
	}
	bf_enum(r, c + 1);
}

static int compare_sols(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Every solution of b, sorted, into r; false if the budget ran out. */
static bool bf_solve(const struct bf *b, struct bf_run *r, uint64_t budget)
{
	int n = b->w * b->h;
	memset(r, 0, sizeof *r);
	r->b = b;
	r->budget = budget;
	for (int c = n; c-- > 0;) {
		r->at[c] = -1;
		r->free_from[c] = r->free_from[c + 1] + (b->cell[c] == '.');
	}
	for (int t = 0; t < b->ntypes; t++)
		r->remaining += r->left[t] = b->count[t];
	bf_enum(r, 0);
	if (r->nsols)
		qsort(r->sols, r->nsols, BF_STRIDE, compare_sols);
	return r->nodes <= r->budget;
}

static bool bf_has(const struct bf_run *r, const char *s)
{
	return r->nsols && bsearch(s, r->sols, r->nsols, BF_STRIDE, compare_sols) != NULL;
}

/* ------------------------------------------------- renamings of colours */

/* Colours with the same number of rooks, bishops and queens. */
static bool same_pieces(const struct bf *b, int c, int e)
{
	int n[2][3] = { { 0 } };
	for (int t = 0; t < b->ntypes; t++) {
		n[0][b->kind[t]] += b->colour[t] == c ? b->count[t] : 0;
		n[1][b->kind[t]] += b->colour[t] == e ? b->count[t] : 0;
	}
	return memcmp(n[0], n[1], sizeof n[0]) == 0;
}

struct renamings {
	int n, perm[BF_MAXCOLOURS];
	bool used[BF_MAXCOLOURS];
	int map[24][BF_MAXTYPES];   /* type t becomes map[i][t] */
};

/* Every renaming of colours within classes of colours with the same
 * pieces, the identity included. */
static void renamings(const struct bf *b, struct renamings *r, int c)
{
	if (c == 0)
		memset(r, 0, sizeof *r);
	if (c == b->ncolours || c == BF_MAXCOLOURS) {
		for (int t = 0, u; t < b->ntypes; t++) {
			for (u = 0; u < b->ntypes; u++)
				if (b->colour[u] == r->perm[b->colour[t]] && b->kind[u] == b->kind[t])
					break;
			assert_true(u < b->ntypes);
			r->map[r->n][t] = u;
		}
		r->n++;
		return;
	}
	for (int e = 0; e < b->ncolours; e++) {
		if (r->used[e] || !same_pieces(b, c, e))
			continue;
		r->used[e] = true;
		r->perm[c] = e;
		renamings(b, r, c + 1);
		r->used[e] = false;
	}
}

/* Value precedence: in each class, the colours first appear (in reading
 * order) in the order of their numbers. */
static bool is_leader(const struct bf *b, const char *s)
{
	int first[BF_MAXCOLOURS] = { BF_STRIDE, BF_STRIDE, BF_STRIDE, BF_STRIDE };
	for (int i = 0; s[i]; i++) {
		int t = char_type(s[i]);
		if (t >= 0 && first[b->colour[t]] == BF_STRIDE)
			first[b->colour[t]] = i;
	}
	for (int c = 0; c < b->ncolours; c++)
		for (int e = c + 1; e < b->ncolours; e++)
			if (same_pieces(b, c, e) && first[e] < first[c])
				return false;
	return true;
}

/* The number of orbits of the solutions under the renamings (each
 * solution's smallest image, counted once); checked to equal the number
 * of value-precedence leaders. */
static size_t bf_orbits(const struct bf *b, const struct bf_run *r)
{
	struct renamings ren;
	char *canon = malloc(r->nsols * BF_STRIDE + 1);
	size_t leaders = 0, orbits = 0;
	assert_non_null(canon);
	renamings(b, &ren, 0);
	for (size_t i = 0; i < r->nsols; i++) {
		const char *s = r->sols + i * BF_STRIDE;
		char *best = strcpy(canon + i * BF_STRIDE, s), img[BF_STRIDE];
		for (int p = 0; p < ren.n; p++) {
			size_t j = 0;
			for (; s[j]; j++)
				img[j] = char_type(s[j]) >= 0 ? type_char(ren.map[p][char_type(s[j])]) : s[j];
			img[j] = '\0';
			if (!bf_has(r, img))
				fail_msg("a renamed solution %s is not a solution", img);
			if (strcmp(img, best) < 0)
				strcpy(best, img);
		}
		leaders += is_leader(b, s);
	}
	if (r->nsols)
		qsort(canon, r->nsols, BF_STRIDE, compare_sols);
	for (size_t i = 0; i < r->nsols; i++)
		orbits += i == 0 || strcmp(canon + i * BF_STRIDE, canon + (i - 1) * BF_STRIDE) != 0;
	free(canon);
	assert_int_equal(orbits, leaders);
	return orbits;
}

/* ------------------------------------------- cross-checking the solver */

/* Solve with o and compare with the brute force: want solutions. */
static void check_solve(const struct lk_level *level, const struct bf *b, const struct bf_run *all,
			struct opts o, uint64_t want, const char *text)
{
	struct lk_csp_result r;
	o.limit = want + 1;
	solve(level, o, &r);
	if (r.solutions != want || !r.exhausted)
		fail_msg("sac %d gcc %d symmetry %d seed %llu: %llu solutions (exhausted %d), brute force %llu\n%s",
			 o.sac, o.gcc, o.symmetry, (unsigned long long)o.seed,
			 (unsigned long long)r.solutions, r.exhausted, (unsigned long long)want, text);
	assert_int_equal(r.status, want ? LK_SOLVED : LK_UNSOLVABLE);
	assert_int_equal(r.limit, LK_LIMIT_NONE);
	assert_true(r.nodes >= 1);
	if (want) {
		bool valid = false;
		struct lk_strbuf why = LK_STRBUF_INIT;
		assert_true(r.nodes_to_first >= 1 && r.nodes_to_first <= r.nodes);
		assert_int_equal(level->game->csp->verify(level, r.solution.buf, &valid, &why), 0);
		if (!valid)
			fail_msg("verify refuses the solver's %s: %s\n%s", r.solution.buf, why.buf, text);
		lk_strbuf_release(&why);
		assert_true(bf_valid(b, r.solution.buf));
		assert_true(bf_has(all, r.solution.buf));
		assert_true(!o.symmetry || is_leader(b, r.solution.buf));
	}
	if (want >= 2) {
		assert_string_not_equal(r.second.buf, r.solution.buf);
		assert_true(bf_has(all, r.second.buf));
		/* a lower limit: the count stops there and is not exact */
		o.limit = want <= 50 ? want - 1 : 1;
		lk_csp_result_release(&r);
		solve(level, o, &r);
		assert_int_equal(r.solutions, o.limit);
		assert_false(r.exhausted);
		assert_int_equal(r.status, LK_SOLVED);
	}
	lk_csp_result_release(&r);
}

/* Check the level of text in every configuration; returns the count, or
 * SIZE_MAX (untried) when it has more than max_count solutions. */
static size_t cross_check(const char *text, uint64_t seed, size_t max_count, struct bf *b)
{
	struct bf_run all;
	bf_from_text(b, text);
	if (!bf_solve(b, &all, 50000000))
		fail_msg("brute force over budget\n%s", text);
	if (all.nsols > max_count) {
		free(all.sols);
		return SIZE_MAX;
	}
	struct lk_level *level = load(text);
	size_t orbits = bf_orbits(b, &all);
	for (int mask = 0; mask < 16; mask++) {
		struct opts o = { .sac = mask & 1, .gcc = mask & 2, .symmetry = mask & 4,
				  .dynamic = mask & 8 };
		uint64_t want = o.symmetry ? orbits : all.nsols;
		check_solve(level, b, &all, o, want, text);
		o.seed = lk_mix64(seed * 8 + (uint64_t)mask) | 1;
		check_solve(level, b, &all, o, want, text);
	}
	lk_level_free(level);
	free(all.sols);
	return all.nsols;
}

/* A random small level: 3x3 to 4x5, walls and holes, 2-3 colours, 2-6
 * pieces, often the same for every colour; types in a random order. */
static void random_level(struct lk_rng *rng, char *text, size_t size)
{
	int w = 3 + (int)lk_rng_below(rng, 2), h = 3 + (int)lk_rng_below(rng, 3);
	int walls = (int)lk_rng_below(rng, 30), holes = (int)lk_rng_below(rng, 20);
	int nc = 2 + (int)lk_rng_below(rng, 2), count[BF_MAXCOLOURS * 3] = { 0 }, order[12], nt = 0;
	if (lk_rng_below(rng, 100) < 45) {
		for (int i = 1 + (int)lk_rng_below(rng, nc == 2 ? 3 : 2); i > 0; i--) {
			int k = (int)lk_rng_below(rng, 3);
			for (int c = 0; c < nc; c++)
				count[c * 3 + k]++;
		}
	} else {
		for (int i = nc + (int)lk_rng_below(rng, (uint32_t)(7 - nc)); i-- > 0;)
			count[(i < nc ? i : (int)lk_rng_below(rng, (uint32_t)nc)) * 3 + (int)lk_rng_below(rng, 3)]++;
	}
	for (int i = 0; i < nc * 3; i++)
		if (count[i])
			order[nt++] = i;
	for (int i = nt; i > 1; i--) {
		int j = (int)lk_rng_below(rng, (uint32_t)i), x = order[i - 1];
		order[i - 1] = order[j];
		order[j] = x;
	}
	size_t at = (size_t)snprintf(text, size, "game: combination\npieces: ");
	for (int t = 0; t < nt; t++)
		at += (size_t)snprintf(text + at, size - at, "%s%d %s %s", t ? ", " : "", count[order[t]],
				       colour_word[order[t] / 3], kind_word[order[t] % 3]);
	for (int c = 0; c < w * h; c++) {
		int r = (int)lk_rng_below(rng, 100);
		if (c % w == 0)
			text[at++] = '\n';
		text[at++] = r < walls ? '#' : r < walls + holes ? 'o' : '.';
	}
	snprintf(text + at, size - at, "\n");
}

static void test_random_against_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	int solvable = 0, several = 0, symmetric = 0;
	lk_rng_seed(&rng, 20080812);
	/* 250 levels; those with over 1000 solutions (the solver counts them
	 * 32 times) are drawn again, to keep the test fast */
	for (int i = 0; i < 250;) {
		char text[512];
		struct bf b;
		random_level(&rng, text, sizeof text);
		size_t n = cross_check(text, (uint64_t)i, 1000, &b);
		if (n == SIZE_MAX)
			continue;
		i++;
		solvable += n > 0;
		several += n > 1;
		symmetric += n > 1 && same_pieces(&b, 0, 1);
	}
	/* the sample is not degenerate */
	assert_true(solvable > 100 && 250 - solvable > 40);
	assert_true(several > 80);
	assert_true(symmetric > 40);
}

/* -------------------------------------------- peaceable armies of queens */

static void armies(char *text, size_t size, int n, int m)
{
	size_t at = (size_t)snprintf(text, size, "game: combination\npieces: %d white queen, %d black queen\n", m, m);
	for (int y = 0; y < n; y++)
		at += (size_t)snprintf(text + at, size - at, "%.*s\n", n, "..........");
}

static void test_peaceable_queens(void **state)
{
	(void)state;
	static const int a250000[] = { 0, 0, 0, 1, 2, 4, 5, 7, 9 };
	char text[256];
	struct bf b;
	struct lk_csp_result r;
	for (int n = 3; n <= 8; n++) {
		int m = a250000[n];
		armies(text, sizeof text, n, m);
		bf_from_text(&b, text);
		struct lk_level *level = load(text);
		solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = true, .limit = 1 }, &r);
		if (r.status != LK_SOLVED)
			fail_msg("n = %d: no army of %d found", n, m);
		assert_true(bf_valid(&b, r.solution.buf));
		lk_csp_result_release(&r);
		lk_level_free(level);
		if (n == 8)
			continue;   /* ten queens each take seconds: cli_comb and the bench */
		armies(text, sizeof text, n, m + 1);
		level = load(text);
		for (int sym = n == 7; sym < 2; sym++) {   /* n = 7: with symmetry breaking only */
			solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = sym, .limit = 1 }, &r);
			if (r.status != LK_UNSOLVABLE || !r.exhausted)
				fail_msg("n = %d: an army of %d is not refuted (status %d)", n, m + 1, r.status);
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
	/* n = 4 in full against the brute force */
	armies(text, sizeof text, 4, 2);
	assert_true(cross_check(text, 4, SIZE_MAX, &b) > 0);
}

/* ------------------------------------------------------ hand-worked */

/* Counts without and with symmetry breaking (SAC and GCC on), and the
 * first solution in the static order. */
static const struct {
	const char *pieces, *rows;
	uint64_t plain, broken;
	const char *first;
} counted[] = {
	/*  #a#b    lines a-c (column), c-d (row), a-d, b-d (diagonals), two
	 *  oc do   squares each.  The red rook may see no blue bishop: at a it
	 * sees c and d, leaving one square for two bishops; at c it sees a
	 * and d, at d all three; only b leaves a and c: one solution. */
	{ "1 red rook, 2 blue bishop", "#.#.|o..o", 1, 1, "#2#1/o2.o" },
	/* A wall stops a rook's ray, a hole does not; either colour may go
	 * first, one solution when renamings of colours count as one. */
	{ "1 red rook, 1 blue rook", ".#.", 2, 1, "1#2" },
	{ "1 red rook, 1 blue rook", ".o.", 0, 0, NULL },
	{ "1 red rook, 1 blue rook", ".|#|.", 2, 1, "1/#/2" },
	{ "1 red rook, 1 blue rook", ".|o|.", 0, 0, NULL },
	/* bishops at the ends of a diagonal: across a hole, not a wall */
	{ "1 red bishop, 1 blue bishop", ".##|#o#|##.", 0, 0, NULL },
	{ "1 red bishop, 1 blue bishop", ".##|###|##.", 2, 1, "1##/###/##2" },
	/* corners around a hole: the 4 pairs not on a diagonal, 2 ways each */
	{ "1 red bishop, 1 blue bishop", ".#.|#o#|.#.", 8, 4, "1#2/#o#/.#." },
	/* Blocking: a red rook and a blue bishop in a row attack; a red
	 * bishop between them blocks the ray and conflicts with neither
	 * (bishops do not attack along rows).  The rook goes to an end: 132
	 * and its mirror, as board symmetries are never broken. */
	{ "1 red rook, 1 blue bishop", "...", 0, 0, NULL },
	{ "1 red rook, 1 blue bishop, 1 red bishop", "...", 2, 2, "132" },
	/* a blocker that attacks along the row is no help */
	{ "1 red rook, 1 blue bishop, 1 red rook", "...", 0, 0, NULL },
	/* short rows are walls beyond their end: one column, the queens see
	 * each other; below, the first square takes the first colour */
	{ "1 red queen, 1 blue queen", ".#o|.", 0, 0, NULL },
	{ "1 red queen, 1 blue queen", ".#.o|##", 2, 1, "1#2o/####" },
	/* The same colour and kind twice is one type (1: two red rooks).
	 * The blue bishop (3) in a corner: the square diagonal to it stays
	 * empty, the red bishop (2) stands between it and the rooks in its
	 * row, the rooks fill the far column: one solution per corner.  In
	 * the middle of a row it leaves the rooks no square. */
	{ "1 red rook, 1 red rook, 1 red bishop, 1 blue bishop", "...|...", 4, 4, "123/1.." },
};

/* What verify says of solution texts: "+" valid, "x" read but not a
 * solution (an attack, a count wrong), "-" not readable (shape, cells). */
static const struct {
	const char *pieces, *rows, *checks;
} verified[] = {
	/* 312: the rook sees the blue bishop; 13.: one missing; 133: two of
	 * type 3; then rows too long, short, one too many, an unknown cell,
	 * a type the level does not have */
	{ "1 red rook, 1 blue bishop, 1 red bishop", "...",
	  "132+ 231+ 312x 13.x 133x 1324- 13- 132/...- 1x2- 142-" },
	/* 11.: a piece on the wall; 1#./2..: an attack along a column; a row
	 * missing, a row short, a hole where the wall is */
	{ "1 red rook, 1 blue rook", ".#.|...", "1#2/...+ 11./...- 1#./2..x 1#./...x 1#2- 1#2/..- 1o2/...-" },
	/* rows may stop where only walls and holes remain */
	{ "1 red queen, 1 blue queen", ".#.o|##", "1#2/##+ 2#1o/####+ 2#1o/#.##-" },
};

static void test_hand_worked(void **state)
{
	(void)state;
	char text[256];
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		level_text(text, sizeof text, counted[i].pieces, counted[i].rows);
		struct lk_level *level = load(text);
		for (int sym = 0; sym < 2; sym++) {
			struct lk_csp_result r;
			uint64_t want = sym ? counted[i].broken : counted[i].plain;
			solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = sym, .limit = 100 }, &r);
			if (r.solutions != want || !r.exhausted)
				fail_msg("%s / %s, symmetry %d: %llu solutions, want %llu", counted[i].pieces,
					 counted[i].rows, sym, (unsigned long long)r.solutions,
					 (unsigned long long)want);
			if (want && !sym)
				assert_string_equal(r.solution.buf, counted[i].first);
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
	for (size_t i = 0; i < sizeof verified / sizeof verified[0]; i++) {
		level_text(text, sizeof text, verified[i].pieces, verified[i].rows);
		struct lk_level *level = load(text);
		for (const char *p = verified[i].checks; *p;) {
			char sol[32];
			size_t n = strcspn(p, " ");
			struct lk_strbuf why = LK_STRBUF_INIT;
			bool valid = p[n - 1] != '+';
			snprintf(sol, sizeof sol, "%.*s", (int)n - 1, p);
			int rc = level->game->csp->verify(level, sol, &valid, &why);
			if (rc != (p[n - 1] == '-' ? -1 : 0) || valid != (p[n - 1] == '+'))
				fail_msg("verify %s on %s: rc %d valid %d (%s)", sol, verified[i].rows, rc, valid, why.buf);
			assert_true(valid || why.len > 0);
			lk_strbuf_release(&why);
			p += n + (p[n] == ' ');
		}
		lk_level_free(level);
	}
}

/* The visitor sees every solution the count counts: each verifies, no two
 * are the same, and stopping it stops the search. */
struct visited {
	const struct lk_level *level;
	char seen[128][64];
	size_t n, stop_after;
};

static int visit_solution(void *ctx, const char *solution)
{
	struct visited *v = ctx;
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool valid = false;
	assert_int_equal(v->level->game->csp->verify(v->level, solution, &valid, &why), 0);
	assert_true(valid);
	lk_strbuf_release(&why);
	assert_true(strlen(solution) < sizeof v->seen[0] && v->n < 128);
	for (size_t i = 0; i < v->n; i++)
		assert_string_not_equal(v->seen[i], solution);
	strcpy(v->seen[v->n++], solution);
	return v->stop_after && v->n >= v->stop_after;
}

static void test_visit_every_solution(void **state)
{
	(void)state;
	char text[256];
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		if (counted[i].plain > 100)
			continue;
		level_text(text, sizeof text, counted[i].pieces, counted[i].rows);
		struct lk_level *level = load(text);
		for (size_t stop = 0; stop < 2; stop++) {
			struct visited v = { .level = level, .stop_after = stop };
			struct lk_csp_options co;
			struct lk_csp_result r;
			lk_csp_options_init(&co);
			co.symmetry = false;
			co.count_limit = 100;
			co.visit = visit_solution;
			co.visit_ctx = &v;
			lk_csp_result_init(&r);
			level->game->csp->solve(level, &co, &r);
			if (stop) {
				assert_int_equal(v.n, counted[i].plain ? 1 : 0);
			} else {
				assert_int_equal(v.n, counted[i].plain);
				assert_int_equal(r.solutions, counted[i].plain);
			}
			lk_csp_result_release(&r);
		}
		lk_level_free(level);
	}
}

/* ------------------------------------------------------- validation */

static void test_validation(void **state)
{
	(void)state;
	/* line 1 game, 2 pieces, 3-4 the grid */
	expect_error("game: combination\npieces: 1 red rook\n...\n.x.\n", "'x' in column 2", 4);
	expect_error("game: combination\npieces: 1 red rook\n...\n..@\n", "column 3", 4);
	expect_error("game: combination\n...\n...\n", "no pieces field", 1);
	expect_error("game: combination\npieces: 2 red king\n...\n", "'king' is not rook", 2);
	expect_error("game: combination\n...\npieces: 2 red king\n", "'king' is not rook", 3);
	expect_error("game: combination\npieces: red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: 0 red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: -1 red rook\n...\n", "expected a count", 2);
	expect_error("game: combination\npieces: 1 red rook, 2 blue\n...\n", "COUNT COLOUR KIND", 2);
	expect_error("game: combination\npieces:\n...\n", "no pieces", 2);
	expect_error("game: combination\npieces: 1 red rook\n", "no grid", 1);
	/* rooks, bishops and queens, singular or plural */
	lk_level_free(load("game: combination\npieces: 2 red rooks, 1 blue queens, 1 green bishops\n....\n"));
}

/* ---------------------------------------------------------- rating */

static void test_rate(void **state)
{
	(void)state;
	struct lk_csp_options base;
	struct lk_csp_rating a, b;
	char text[256];
	lk_csp_options_init(&base);
	/* the unique level of test_hand_worked: a handful of nodes, so SAC
	 * and GCC are off for the runs */
	struct lk_level *level = load("game: combination\npieces: 1 red rook, 2 blue bishop\n#.#.\no..o\n");
	lk_csp_rate(level, &base, 7, 42, &a);
	assert_true(a.status == LK_SOLVED && a.solutions == 1 && a.exhausted);
	assert_true(a.runs == 7 && a.runs_solved == 7 && a.fine);
	assert_true(a.single >= 1 && a.single < 500 && a.mean >= 1 && a.mean < 500 && a.sd >= 0);
	lk_csp_rate(level, &base, 7, 42, &b);
	assert_true(a.mean == b.mean && a.sd == b.sd && a.single == b.single);
	lk_csp_rate(level, &base, 0, 42, &b);
	assert_true(b.runs == 0 && b.mean == 0 && b.status == LK_SOLVED);
	lk_level_free(level);
	/* many solutions: the count stops at the limit (2) */
	armies(text, sizeof text, 6, 5);
	level = load(text);
	lk_csp_rate(level, &base, 20, 9, &a);
	assert_true(a.status == LK_SOLVED && a.solutions == 2 && !a.exhausted);
	assert_true(a.fine && a.runs == 20 && a.runs_solved == 20 && a.mean >= 1);
	lk_csp_rate(level, &base, 20, 9, &b);
	assert_true(a.mean == b.mean && a.sd == b.sd);
	lk_level_free(level);
	/* over 500 nodes with SAC and GCC: they stay on */
	armies(text, sizeof text, 8, 9);
	level = load(text);
	lk_csp_rate(level, &base, 2, 1, &a);
	assert_true(a.status == LK_SOLVED && a.single >= 500 && !a.fine && a.runs_solved == 2);
	lk_level_free(level);
	/* unsolvable: no runs */
	armies(text, sizeof text, 5, 5);
	level = load(text);
	lk_csp_rate(level, &base, 5, 1, &a);
	assert_true(a.status == LK_UNSOLVABLE && a.solutions == 0 && a.exhausted && a.runs_solved == 0);
	lk_level_free(level);
}

/* ------------------------------------------------------- generation */

/* Along (dx, dy) from cell c: an empty square before a wall or the edge,
 * holes passed? */
static bool reaches_square(const struct bf *b, int c, int dx, int dy)
{
	for (int x = c % b->w + dx, y = c / b->w + dy; x >= 0 && y >= 0 && x < b->w && y < b->h;
	     x += dx, y += dy)
		if (b->cell[y * b->w + x] != 'o')
			return b->cell[y * b->w + x] == '.';
	return false;
}

/* No edge line of walls and holes only; every wall can block a ray: along
 * some axis a piece attacks on, it has empty squares on both sides. */
static void check_pretty(const struct bf *b)
{
	static const int ax[4] = { 1, 0, 1, 1 }, ay[4] = { 0, 1, 1, -1 };
	bool top = true, bottom = true, left = true, right = true;
	for (int x = 0; x < b->w; x++) {
		top &= b->cell[x] != '.';
		bottom &= b->cell[(b->h - 1) * b->w + x] != '.';
	}
	for (int y = 0; y < b->h; y++) {
		left &= b->cell[y * b->w] != '.';
		right &= b->cell[y * b->w + b->w - 1] != '.';
	}
	assert_false(top || bottom || left || right);
	for (int c = 0; c < b->w * b->h; c++) {
		bool blocks = b->cell[c] != '#';
		for (int a = 0; a < 4 && !blocks; a++) {
			bool attacked = false;
			for (int t = 0; t < b->ntypes; t++)
				attacked |= bf_attacks(b->kind[t], ax[a], ay[a]);
			blocks = attacked && reaches_square(b, c, ax[a], ay[a]) &&
				 reaches_square(b, c, -ax[a], -ay[a]);
		}
		if (!blocks)
			fail_msg("the wall at %d,%d can block no ray", c % b->w, c / b->w);
	}
}

static void test_generator(void **state)
{
	(void)state;
	const struct lk_generator *g = lk_generator_find("combination", "local");
	struct lk_gen_options o;
	struct lk_gen_worker w;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_non_null(g);
	assert_ptr_equal(lk_generator_find("combination", NULL), g);
	lk_gen_options_init(&o);
	assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), 0);
	for (uint64_t i = 0; i < 3; i++) {
		struct lk_record rec;
		struct lk_gen_stats st = { 0 };
		struct lk_csp_result r;
		struct bf b;
		struct bf_run all;
		struct renamings ren;
		lk_record_init(&rec);
		assert_int_equal(lk_generate_index(g, &w, &o, 3, i, &rec, &st), 0);
		assert_string_equal(lk_record_get(&rec, "unique"), "yes");
		assert_int_equal(bf_from_record(&b, &rec), 0);
		int pieces = 0;
		for (int t = 0; t < b.ntypes; t++)
			pieces += b.count[t];
		assert_true(pieces >= 6);
		check_pretty(&b);

		struct lk_strbuf text = LK_STRBUF_INIT;
		lk_record_write(&rec, &text);
		struct lk_level *level = load(text.buf);
		lk_strbuf_release(&text);
		solve(level, (struct opts){ .sac = true, .gcc = true, .symmetry = true, .limit = 3 }, &r);
		assert_true(r.solutions == 1 && r.exhausted);
		assert_true(bf_valid(&b, r.solution.buf));
		lk_csp_result_release(&r);
		/* without symmetry breaking: that solution under every renaming
		 * of colours with the same pieces, all distinct */
		renamings(&b, &ren, 0);
		solve(level, (struct opts){ .gcc = true, .limit = (uint64_t)ren.n + 1 }, &r);
		assert_int_equal(r.solutions, ren.n);
		assert_true(r.exhausted);
		if (bf_solve(&b, &all, 3000000)) {
			assert_int_equal(all.nsols, ren.n);
			assert_int_equal(bf_orbits(&b, &all), 1);
			assert_true(bf_has(&all, r.solution.buf));
		}
		free(all.sols);
		lk_csp_result_release(&r);
		lk_level_free(level);
		lk_record_release(&rec);
	}
	lk_gen_worker_release(&w, g);

	/* bad parameters: an unknown one, a bad kind letter */
	const char *keys[] = { "colour", "kinds" }, *values[] = { "2", "rkq" };
	for (size_t k = 0; k < 2; k++) {
		o.param_keys = keys + k;
		o.param_values = values + k;
		o.nparams = 1;
		lk_strbuf_reset(&err);
		assert_int_equal(lk_gen_worker_init(&w, g, &o, &err), -1);
		assert_non_null(strstr(err.buf, keys[k]));
	}
	lk_strbuf_release(&err);
}

/*
 * The generator's carving (comb_gen.c): a square that another solution
 * uses and the kept one leaves empty, turned into a hole, only removes
 * solutions.  Checked with the enumerator on random levels with several
 * solutions: the new level's solutions are old ones, the kept solution is
 * among them, the other one is not.
 */
/* Copy solution text `sol` to out with the empty squares and holes of
 * board b (pieces stay where they are). */
static void redraw_holes(char *out, const char *sol, const struct bf *b)
{
	int cell = 0;
	for (; *sol; sol++, out++) {
		*out = *sol;
		if (*sol == '/')
			continue;
		if (*sol == '.' || *sol == 'o')
			*out = b->cell[cell];
		cell++;
	}
	*out = '\0';
}

static void test_carving(void **state)
{
	(void)state;
	struct lk_rng rng;
	int carved = 0;
	lk_rng_seed(&rng, 4151);
	for (int tries = 0; tries < 3000 && carved < 100; tries++) {
		char text[512];
		struct bf b, c;
		struct bf_run before, after;
		random_level(&rng, text, sizeof text);
		bf_from_text(&b, text);
		if (!bf_solve(&b, &before, 2000000) || before.nsols < 2) {
			free(before.sols);
			continue;
		}
		const char *kept = before.sols, *other = before.sols + BF_STRIDE;
		/* the squares of `other` that hold a piece where `kept` has none */
		int cells[BF_MAXCELLS], ncells = 0;
		for (int i = 0, cell = 0; kept[i]; i++) {
			if (kept[i] == '/')
				continue;
			if (kept[i] == '.' && char_type(other[i]) >= 0)
				cells[ncells++] = cell;
			cell++;
		}
		if (!ncells) {
			free(before.sols);
			continue;
		}
		c = b;
		c.cell[cells[lk_rng_below(&rng, (uint32_t)ncells)]] = 'o';
		assert_true(bf_solve(&c, &after, 2000000));
		assert_true(after.nsols >= 1 && after.nsols < before.nsols);
		for (size_t k = 0; k < after.nsols; k++) {
			/* the same placement on the old board: the new hole an
			 * empty square again */
			char old[BF_STRIDE];
			redraw_holes(old, after.sols + k * BF_STRIDE, &b);
			assert_true(bf_has(&before, old));
		}
		/* the kept solution, with the new hole drawn, is still one */
		char kept_now[BF_STRIDE];
		redraw_holes(kept_now, kept, &c);
		assert_true(bf_has(&after, kept_now));
		free(before.sols);
		free(after.sols);
		carved++;
	}
	assert_true(carved >= 100);
}

/* ------------------------------------------------- last: an extra row */

static void test_verify_extra_row(void **state)
{
	(void)state;
	struct lk_level *level = load("game: combination\npieces: 1 red rook, 1 blue rook\n.#.\n");
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool valid = true;
	/* a second, empty row: refused, without reading past the grid */
	assert_int_equal(level->game->csp->verify(level, "1#2/", &valid, &why), -1);
	assert_false(valid);
	lk_strbuf_release(&why);
	lk_level_free(level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_visit_every_solution),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_peaceable_queens),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_carving),
		cmocka_unit_test(test_verify_extra_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
