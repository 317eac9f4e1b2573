/*
 * comb_bf.c - what the Combination tests share (comb_bf.h): loading
 * levels from text, a brute-force enumerator of solutions written
 * independently of the game's solvers, renamings of colours, random small
 * levels and armies of queens.
 *
 * The enumerator places the pieces square by square in reading order and
 * checks attacks by walking rays; its only pruning is exact (a piece
 * placed sees the earlier pieces left, up, up-left and up-right of it for
 * good).
 */
#include "comb_bf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_records.h"

const char *const kind_word[] = { "rook", "bishop", "queen" };
const char *const colour_word[] = { "red", "blue", "green", "yellow" };

/* ------------------------------------------------------- loading levels */

void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

/* The level of text, or NULL with the message and its line. */
struct lk_level *try_load(const char *text, struct lk_strbuf *err, size_t *line)
{
	struct lk_record rec;
	struct lk_level_options opt = { 0 };
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, err, line);
	lk_record_release(&rec);
	return level;
}

struct lk_level *load(const char *text)
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
void level_text(char *text, size_t size, const char *pieces, const char *rows)
{
	snprintf(text, size, "game: combination\npieces: %s\n%s\n", pieces, rows);
	for (char *p = text; *p; p++)
		*p = *p == '|' ? '\n' : *p;
}

/* Expect text to be rejected with a message containing want, on line. */

/* ------------------------------------------------ the brute-force model */


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
int bf_from_record(struct bf *b, const struct lk_record *rec)
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

void bf_from_text(struct bf *b, const char *text)
{
	struct lk_record rec;
	read_record(text, &rec);
	assert_int_equal(bf_from_record(b, &rec), 0);
	lk_record_release(&rec);
}

bool bf_attacks(int kind, int dx, int dy)
{
	return kind == QUEEN || (kind == ROOK) == (dx == 0 || dy == 0);
}

bool bf_conflict(const struct bf *b, int t, int u, int dx, int dy)
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

char type_char(int t)
{
	return t < 9 ? (char)('1' + t) : (char)('A' + t - 9);
}

int char_type(char ch)
{
	return ch >= '1' && ch <= '9' ? ch - '1' : ch >= 'A' && ch <= 'Z' ? 9 + ch - 'A' : -1;
}

/* Is s, of the exact shape of the grid (rows joined by '/'), a solution? */
bool bf_valid(const struct bf *b, const char *s)
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
bool bf_solve(const struct bf *b, struct bf_run *r, uint64_t budget)
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

bool bf_has(const struct bf_run *r, const char *s)
{
	return r->nsols && bsearch(s, r->sols, r->nsols, BF_STRIDE, compare_sols) != NULL;
}

/* ------------------------------------------------- renamings of colours */

/* Colours with the same number of rooks, bishops and queens. */
bool same_pieces(const struct bf *b, int c, int e)
{
	int n[2][3] = { { 0 } };
	for (int t = 0; t < b->ntypes; t++) {
		n[0][b->kind[t]] += b->colour[t] == c ? b->count[t] : 0;
		n[1][b->kind[t]] += b->colour[t] == e ? b->count[t] : 0;
	}
	return memcmp(n[0], n[1], sizeof n[0]) == 0;
}


/* Every renaming of colours within classes of colours with the same
 * pieces, the identity included. */
void renamings(const struct bf *b, struct renamings *r, int c)
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
bool is_leader(const struct bf *b, const char *s)
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
size_t bf_orbits(const struct bf *b, const struct bf_run *r)
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


/* A random small level: 3x3 to 4x5, walls and holes, 2-3 colours, 2-6
 * pieces, often the same for every colour; types in a random order. */
void random_level(struct lk_rng *rng, char *text, size_t size)
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

void armies(char *text, size_t size, int n, int m)
{
	size_t at = (size_t)snprintf(text, size, "game: combination\npieces: %d white queen, %d black queen\n", m, m);
	for (int y = 0; y < n; y++)
		at += (size_t)snprintf(text + at, size - at, "%.*s\n", n, "..........");
}

