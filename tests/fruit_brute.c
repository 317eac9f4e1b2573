/*
 * fruit_brute.c - the Fruit Dating test against a brute-force solver (run
 * by test_fruit.c's main): its own slide rules for walls, fruit, stones,
 * mud and hedgehogs, and its own BFS, written here apart from the game,
 * against BFS, UCS and the whole-graph analysis on hundreds of random
 * small boards: solvability, shortest length and the number of reachable
 * states.
 */
#include "fruit_fixture.h"

#include <stdio.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/grid.h"
#include "levelkit/search.h"

/* ---------------------------------------------- the brute-force solver */

/* Boards up to 8x8.  ter: '#', '.', '~' (mud), 'H'; pc: 0, 'O' stone,
 * 'a'..'c' fruit.  The rules, from slide.md: pieces farthest along the
 * move first, each sliding until a wall, hedgehog, piece or the edge; a
 * fruit entering mud or running into a hedgehog is lost; then groups of
 * two or more touching fruit of one colour go. */
struct bb {
	int w, h;
	char ter[64];
	unsigned char noexit[64];   /* bit d: no piece leaves the cell in direction d */
};

struct bstate {
	char pc[64];
	char lost;
};

static bool bmove(const struct bb *b, const struct bstate *in, int d, struct bstate *out)
{
	int n = b->w * b->h, order[64], np = 0;
	bool changed = false;
	*out = *in;
	for (int i = 0; i < n; i++)
		if (out->pc[i])
			order[np++] = i;
	for (int i = 1; i < np; i++) {
		for (int j = i; j > 0; j--) {
			int a = order[j - 1], c = order[j];
			int pa = lk_dir_dx[d] * (a % b->w) + lk_dir_dy[d] * (a / b->w);
			int pc = lk_dir_dx[d] * (c % b->w) + lk_dir_dy[d] * (c / b->w);
			if (pa >= pc)
				break;
			order[j - 1] = c;
			order[j] = a;
		}
	}
	for (int i = 0; i < np; i++) {
		int at = order[i];
		char p = out->pc[at];
		for (;;) {
			int x = at % b->w + lk_dir_dx[d], y = at / b->w + lk_dir_dy[d];
			if (x < 0 || y < 0 || x >= b->w || y >= b->h || (b->noexit[at] >> d & 1))
				break;
			int t = y * b->w + x;
			if (b->ter[t] == '#')
				break;
			if (b->ter[t] == 'H') {
				if (p != 'O') {
					out->pc[at] = 0;
					out->lost = 1;
					changed = true;
				}
				break;
			}
			if (out->pc[t])
				break;
			out->pc[at] = 0;
			out->pc[t] = p;
			at = t;
			changed = true;
			if (b->ter[t] == '~' && p != 'O') {
				out->pc[t] = 0;
				out->lost = 1;
				break;
			}
		}
	}
	char seen[64] = { 0 };
	for (int i = 0; i < n; i++) {
		if (!out->pc[i] || out->pc[i] == 'O' || seen[i])
			continue;
		int stack[64], sp = 0, list[64], nl = 0;
		seen[i] = 1;
		stack[sp++] = i;
		while (sp) {
			int v = stack[--sp];
			list[nl++] = v;
			for (int k = 0; k < 4; k++) {
				int x = v % b->w + lk_dir_dx[k], y = v / b->w + lk_dir_dy[k];
				if (x < 0 || y < 0 || x >= b->w || y >= b->h)
					continue;
				int u = y * b->w + x;
				if (!seen[u] && out->pc[u] == out->pc[i]) {
					seen[u] = 1;
					stack[sp++] = u;
				}
			}
		}
		if (nl >= 2) {
			for (int k = 0; k < nl; k++)
				out->pc[list[k]] = 0;
			changed = true;
		}
	}
	return changed;
}

static bool bgoal(const struct bb *b, const struct bstate *s)
{
	if (s->lost)
		return false;
	for (int i = 0; i < b->w * b->h; i++)
		if (s->pc[i] && s->pc[i] != 'O')
			return false;
	return true;
}

/* BFS from start, goals not expanded, lost states without moves (as the
 * game plays them).  Returns the shortest solution or -1; *reachable
 * counts the states. */
#define BMAX 60000
static struct bstate bq[BMAX];
static int bdepth[BMAX];

static int bfind(int n, const struct bstate *s)
{
	for (int i = n - 1; i >= 0; i--)
		if (bq[i].lost == s->lost && memcmp(bq[i].pc, s->pc, sizeof s->pc) == 0)
			return i;
	return -1;
}

static int bsolve(const struct bb *b, const struct bstate *start, long *reachable)
{
	int n = 0, best = -1;
	bq[n] = *start;
	bdepth[n++] = 0;
	for (int head = 0; head < n; head++) {
		if (bgoal(b, &bq[head])) {
			if (best < 0)
				best = bdepth[head];
			continue;
		}
		if (bq[head].lost)
			continue;
		for (int d = 0; d < 4; d++) {
			struct bstate next;
			if (!bmove(b, &bq[head], d, &next) || bfind(n, &next) >= 0)
				continue;
			assert_true(n < BMAX);
			bq[n] = next;
			bdepth[n++] = bdepth[head] + 1;
		}
	}
	*reachable = n;
	return best;
}

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static int free_cell(const struct bb *b, const struct bstate *s)
{
	for (int tries = 0; tries < 200; tries++) {
		int c = (int)rnd((unsigned)(b->w * b->h));
		if (b->ter[c] == '.' && !s->pc[c])
			return c;
	}
	return -1;
}

/* Do two fruit of one colour touch? */
static bool partners_touch(const struct bb *b, const struct bstate *s)
{
	for (int c = 0; c < b->w * b->h; c++) {
		char f = s->pc[c];
		if (f < 'a' || f > 'z')
			continue;
		if ((c % b->w + 1 < b->w && s->pc[c + 1] == f) || (c + b->w < b->w * b->h && s->pc[c + b->w] == f))
			return true;
	}
	return false;
}

void test_random_against_brute_force(void **state)
{
	(void)state;
	rng_state = 0x2545F4914F6CDD1DULL;
	int solvable = 0, unsolvable = 0, boards = 0;
	for (int iter = 0; iter < 800; iter++) {
		struct bb b;
		struct bstate s;
		memset(&b, 0, sizeof b);
		memset(&s, 0, sizeof s);
		b.w = 4 + (int)rnd(3);
		b.h = 4 + (int)rnd(3);
		for (int y = 0; y < b.h; y++)
			for (int x = 0; x < b.w; x++)
				b.ter[y * b.w + x] = x == 0 || y == 0 || x == b.w - 1 || y == b.h - 1 ||
						     rnd(100) < 12 ? '#' : '.';
		int nfruit = 0;
		for (int k = 0, pairs = 1 + (int)rnd(2); k < pairs; k++)
			for (int j = 0; j < 2 + (rnd(5) == 0); j++) {
				int c = free_cell(&b, &s);
				if (c >= 0) {
					s.pc[c] = (char)('a' + k);
					nfruit++;
				}
			}
		if (nfruit == 0 || partners_touch(&b, &s))
			continue;   /* not a level: partners may not start touching */
		for (int k = (int)rnd(3); k > 0; k--) {
			int c = free_cell(&b, &s);
			if (c >= 0)
				s.pc[c] = 'O';
		}
		if (rnd(3) == 0) {
			int c = free_cell(&b, &s);
			if (c >= 0)
				b.ter[c] = rnd(2) ? '~' : 'H';
		}
		/* a one-way border now and then: "x,y,d" forbids coming back
		 * from the neighbour in direction d */
		char oneway[48] = "";
		if (rnd(3) == 0) {
			int x = 1 + (int)rnd((unsigned)(b.w - 2)), y = 1 + (int)rnd((unsigned)(b.h - 2));
			int d = (int)rnd(4), nx = x + lk_dir_dx[d], ny = y + lk_dir_dy[d];
			b.noexit[ny * b.w + nx] |= (unsigned char)(1u << ((d + 2) % 4));
			sprintf(oneway, "oneway: %d,%d,%c\n", x, y, lk_dir_letter[d]);
		}
		/* the level's text */
		char text[260];
		size_t at = (size_t)sprintf(text, "game: fruit\n");
		for (int y = 0; y < b.h; y++) {
			for (int x = 0; x < b.w; x++) {
				int c = y * b.w + x;
				text[at++] = s.pc[c] ? s.pc[c] : b.ter[c];
			}
			text[at++] = '\n';
		}
		strcpy(text + at, oneway);
		long reachable;
		int want = bsolve(&b, &s, &reachable);
		struct lk_level *level = load(text);
		long got = solve_all(level, NULL, 0);
		if (got != want)
			fail_msg("shortest %ld, brute force %d:\n%s", got, want, text);
		struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
		struct lk_analysis a;
		lk_analysis_init(&a);
		lk_analyse(level, &o, &a);
		assert_true(a.complete);
		if ((long)a.reachable != reachable)
			fail_msg("analysis reaches %llu states, brute force %ld:\n%s",
				 (unsigned long long)a.reachable, reachable, text);
		assert_int_equal(a.shortest, want < 0 ? LK_NO_DEPTH : (uint32_t)want);
		lk_analysis_release(&a);
		lk_level_free(level);
		boards++;
		if (want >= 0)
			solvable++;
		else
			unsolvable++;
	}
	assert_true(boards >= 300);   /* of 800: the rest have touching partners */
	assert_true(solvable >= 50);
	assert_true(unsolvable >= 20);
}
