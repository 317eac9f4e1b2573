/*
 * comb_bf.h - what the Combination tests share (comb_bf.c): levels from
 * text, the brute-force enumerator, renamings of colours, random levels.
 */
#ifndef LEVELKIT_TESTS_COMB_BF_H
#define LEVELKIT_TESTS_COMB_BF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/actions.h"
#include "levelkit/csp.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/rng.h"

#define BF_MAXCELLS 64
#define BF_MAXTYPES 12
#define BF_MAXCOLOURS 4
#define BF_STRIDE (BF_MAXCELLS + 16)

enum { ROOK, BISHOP, QUEEN };
extern const char *const kind_word[];
extern const char *const colour_word[];

/* Levels from text (the first record). */
void read_record(const char *text, struct lk_record *rec);
struct lk_level *try_load(const char *text, struct lk_strbuf *err, size_t *line);
struct lk_level *load(const char *text);
/* The text of a level from its pieces and rows ('|' between rows). */
void level_text(char *text, size_t size, const char *pieces, const char *rows);

struct bf {
	int w, h;
	char cell[BF_MAXCELLS];   /* '.', '#', 'o' */
	int ntypes, ncolours;
	int colour[BF_MAXTYPES], kind[BF_MAXTYPES], count[BF_MAXTYPES];
};

int bf_from_record(struct bf *b, const struct lk_record *rec);
void bf_from_text(struct bf *b, const char *text);
bool bf_attacks(int kind, int dx, int dy);
bool bf_conflict(const struct bf *b, int t, int u, int dx, int dy);
char type_char(int t);
int char_type(char ch);
/* Is s, of the exact shape of the grid (rows joined by '/'), a solution? */
bool bf_valid(const struct bf *b, const char *s);

struct bf_run {
	const struct bf *b;
	int at[BF_MAXCELLS], left[BF_MAXTYPES], remaining, free_from[BF_MAXCELLS + 1];
	char *sols;               /* BF_STRIDE bytes each, sorted at the end */
	size_t nsols, alloc;
	uint64_t nodes, budget;
};

/* Every solution of b, sorted, into r (free r->sols); false if the
 * budget of nodes ran out. */
bool bf_solve(const struct bf *b, struct bf_run *r, uint64_t budget);
bool bf_has(const struct bf_run *r, const char *s);

/* Colours with the same number of rooks, bishops and queens. */
bool same_pieces(const struct bf *b, int c, int e);
struct renamings {
	int n, perm[BF_MAXCOLOURS];
	bool used[BF_MAXCOLOURS];
	int map[24][BF_MAXTYPES];   /* type t becomes map[i][t] */
};

/* Every renaming of colours within classes of colours with the same
 * pieces, the identity included (call with c = 0). */
void renamings(const struct bf *b, struct renamings *r, int c);
/* Value precedence holds in s. */
bool is_leader(const struct bf *b, const char *s);
/* The number of orbits of r's solutions under the renamings. */
size_t bf_orbits(const struct bf *b, const struct bf_run *r);

/* A random small level: 3x3 to 4x5, walls and holes, 2-3 colours, 2-6
 * pieces. */
void random_level(struct lk_rng *rng, char *text, size_t size);
/* m white queens against m black ones on an empty n x n board. */
void armies(char *text, size_t size, int n, int m);

#endif
