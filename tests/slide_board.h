/*
 * slide_board.h - what the slide simulator tests (test_slide.c,
 * slide_skiddy.c) share, defined in slide_board.c: boards read from
 * pictures and drawn back, moves made and checked; and the test functions
 * of slide_skiddy.c, which test_slide.c's main runs.
 */
#ifndef LEVELKIT_TESTS_SLIDE_BOARD_H
#define LEVELKIT_TESTS_SLIDE_BOARD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "levelkit/grid.h"
#include "slide.h"   /* src/games/slide: the simulator's own API */

/* A board with its scratch and last result, and its picture. */
struct tb {
	struct lk_slide_board b;
	struct lk_slide_scratch s;
	struct lk_slide_result r;
	char pic[512];
};

/* The board of a picture (rectangular; rows separated by '|'). */
void tb_init(struct tb *t, const char *pic);
void tb_release(struct tb *t);
/* The cell number of (x, y). */
int cell(const struct tb *t, int x, int y);
/* Draw the board into t->pic and return it. */
const char *tb_draw(struct tb *t);
void tb_move(struct tb *t, int dir);
/* The skiddies the last move let out through exits, all colours together. */
unsigned left_total(const struct lk_slide_result *r);
/* One move on a fresh board: the picture after it and r.changed. */
void check_move(const char *before, int dir, const char *after, bool changed);

/* ---------------------------------------- the tests of slide_skiddy.c */

void test_skiddy_bodies(void **state);
void test_skiddy_sticking_next_move(void **state);
void test_exits(void **state);
void test_crates(void **state);
void test_pits(void **state);
void test_unchanged(void **state);

#endif
