/*
 * sokoban_bf.c - what the Sokoban tests share (declared in sokoban_bf.h):
 * loading a level from text, and the brute-force enumerator the solvers
 * are compared against.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"
#include "sokoban_bf.h"
#include "test_records.h"

/* ------------------------------------------------------- loading levels */

/* Read the first record of text (lines numbered from 1). */
void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

struct lk_level *load(const char *text, const char *metric, const char *heuristic)
{
	struct lk_level_options opt = { .metric = metric, .heuristic = heuristic };
	return test_load_level(text, &opt, NULL);
}

/* ------------------------------------------------ the brute-force model */


void bf_parse(struct bf *b, const char *text)
{
	struct lk_record rec;
	size_t first, n;
	int w = 0;
	read_record(text, &rec);
	n = lk_record_grid(&rec, &first);
	for (size_t y = 0; y < n; y++)
		if ((int)strlen(rec.lines[first + y].text) > w)
			w = (int)strlen(rec.lines[first + y].text);
	memset(b, 0, sizeof *b);
	b->w = w + 2;
	b->h = (int)n + 2;
	b->wall = malloc((size_t)(b->w * b->h));
	b->goal = calloc((size_t)(b->w * b->h), 1);
	assert_non_null(b->wall);
	assert_non_null(b->goal);
	memset(b->wall, 1, (size_t)(b->w * b->h));
	b->player = -1;
	for (int y = 0; y < (int)n; y++) {
		const char *row = rec.lines[first + (size_t)y].text;
		for (int x = 0; x < w; x++) {
			char c = (size_t)x < strlen(row) ? row[x] : ' ';
			int cell = (y + 1) * b->w + x + 1;
			b->wall[cell] = c == '#';
			b->goal[cell] = c == '.' || c == '*' || c == '+';
			if (c == '@' || c == '+')
				b->player = cell;
			if (c == '$' || c == '*') {
				assert_true(b->nboxes < MAXB);
				b->box[b->nboxes++] = (uint16_t)cell;
			}
		}
	}
	assert_true(b->player >= 0);
	lk_record_release(&rec);
}

void bf_free(struct bf *b)
{
	free(b->wall);
	free(b->goal);
}

/* State: player in bits 0..15, sorted boxes in 16-bit fields above. */
static uint64_t pack(int player, const uint16_t *box, int n)
{
	uint16_t s[MAXB];
	memcpy(s, box, (size_t)n * sizeof *s);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
			uint16_t t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	uint64_t k = (uint64_t)(uint16_t)player;
	for (int i = 0; i < MAXB; i++)
		k |= (uint64_t)(i < n ? s[i] : NOCELL) << (16 * (i + 1));
	return k;
}

static void unpack(uint64_t k, int *player, uint16_t *box, int n)
{
	*player = (int)(k & 0xffff);
	for (int i = 0; i < n; i++)
		box[i] = (uint16_t)(k >> (16 * (i + 1)));
}

/* A hash map from state to distance (open addressing). */
struct map {
	uint64_t *key;
	uint32_t *val;
	size_t cap, n;
};

#define EMPTY UINT64_MAX

/* Fixed size: the levels here have at most 3 boxes in 25 cells or 2 in
 * 40, under 60000 states; the load stays below a half. */
static void map_init(struct map *m)
{
	m->cap = (size_t)1 << 17;
	m->n = 0;
	m->key = malloc(m->cap * sizeof *m->key);
	m->val = malloc(m->cap * sizeof *m->val);
	assert_non_null(m->key);
	assert_non_null(m->val);
	memset(m->key, 0xff, m->cap * sizeof *m->key);
}

static uint32_t *map_slot(struct map *m, uint64_t k, bool insert)
{
	size_t i = (size_t)(lk_mix64(k) & (m->cap - 1));
	while (m->key[i] != EMPTY && m->key[i] != k)
		i = (i + 1) & (m->cap - 1);
	if (m->key[i] == EMPTY) {
		if (!insert)
			return NULL;
		assert_true(++m->n * 2 < m->cap);
		m->key[i] = k;
		m->val[i] = UINT32_MAX;
	}
	return &m->val[i];
}

static void map_free(struct map *m)
{
	free(m->key);
	free(m->val);
}

static bool bf_solved(const struct bf *b, const uint16_t *box)
{
	for (int i = 0; i < b->nboxes; i++)
		if (!b->goal[box[i]])
			return false;
	return true;
}

/* Fewest moves (pushes_cost == false) or fewest pushes (true): a 0-1 BFS
 * on a deque, where a walk costs 0 or 1 and a push always 1.  Returns
 * -1 when no sequence of moves solves the level. */
long bf_solve(const struct bf *b, bool pushes_cost, size_t *states)
{
	const int off[4] = { -b->w, 1, b->w, -1 };
	struct map m;
	size_t cap = (size_t)1 << 20, head = 0, count = 0;
	uint64_t *dq = malloc(cap * sizeof *dq);
	long answer = -1;
	assert_non_null(dq);
	map_init(&m);
	uint64_t start = pack(b->player, b->box, b->nboxes);
	*map_slot(&m, start, true) = 0;
	dq[0] = start;
	count = 1;
	while (count) {
		uint64_t k = dq[head];
		head = (head + 1) & (cap - 1);
		count--;
		uint32_t d = *map_slot(&m, k, false);
		int p;
		uint16_t box[MAXB];
		unpack(k, &p, box, b->nboxes);
		if (bf_solved(b, box)) {
			answer = (long)d;
			break;
		}
		for (int dir = 0; dir < 4; dir++) {
			int q = p + off[dir];
			if (b->wall[q])
				continue;
			uint16_t nb[MAXB];
			memcpy(nb, box, sizeof nb);
			bool push = false;
			for (int i = 0; i < b->nboxes; i++) {
				if (nb[i] != q)
					continue;
				int to = q + off[dir];
				if (b->wall[to])
					goto next;
				for (int j = 0; j < b->nboxes; j++)
					if (nb[j] == to)
						goto next;
				nb[i] = (uint16_t)to;
				push = true;
			}
			{
				uint32_t cost = pushes_cost ? (uint32_t)push : 1u;
				uint64_t nk = pack(q, nb, b->nboxes);
				uint32_t *slot = map_slot(&m, nk, true);
				if (*slot <= d + cost)
					continue;
				*slot = d + cost;
				assert_true(count < cap);
				if (cost == 0) {
					head = (head + cap - 1) & (cap - 1);
					dq[head] = nk;
				} else {
					dq[(head + count) & (cap - 1)] = nk;
				}
				count++;
			}
		next:;
		}
	}
	/* (A state can be queued twice when its distance improves; the
	 * stale copy is popped later with the better distance stored, which
	 * only repeats work.) */
	if (states)
		*states = m.n;
	free(dq);
	map_free(&m);
	return answer;
}

/* Independent replay: lower case must not push, upper case must push.
 * Returns 0 with counts and solved, or -1 for an illegal move. */
int bf_replay(const struct bf *b, const char *sol, long *moves, long *pushes, bool *solved)
{
	const int off[4] = { -b->w, 1, b->w, -1 };
	int p = b->player;
	uint16_t box[MAXB];
	memcpy(box, b->box, sizeof box);
	*moves = *pushes = 0;
	for (const char *c = sol; *c; c++) {
		const char *dirs = "urdl", *hit = strchr(dirs, tolower((unsigned char)*c));
		if (!hit || !*c)
			return -1;
		int dir = (int)(hit - dirs), q = p + off[dir], pushed = -1;
		if (b->wall[q])
			return -1;
		for (int i = 0; i < b->nboxes; i++)
			if (box[i] == q)
				pushed = i;
		if ((pushed >= 0) != (bool)isupper((unsigned char)*c))
			return -1;
		if (pushed >= 0) {
			int to = q + off[dir];
			if (b->wall[to])
				return -1;
			for (int i = 0; i < b->nboxes; i++)
				if (box[i] == to)
					return -1;
			box[pushed] = (uint16_t)to;
			++*pushes;
		}
		p = q;
		++*moves;
	}
	*solved = bf_solved(b, box);
	return 0;
}
