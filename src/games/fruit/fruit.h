/*
 * fruit.h - what the files of Fruit Dating's folder share: its generator and its look
 * (fruit_draw.c), for its rules in fruit.c.  The rest is the slide games'
 * library (../slide/slide_game.h).
 */
#ifndef LEVELKIT_FRUIT_H
#define LEVELKIT_FRUIT_H

#include "../slide/slide_game.h"

extern const struct lk_generator lk_gen_fruit_random;

void fruit_draw_terrain(struct lk_canvas *c, const struct lk_slide_board *b, int cell);
void fruit_draw_piece(struct lk_canvas *c, const struct lk_slide_board *b, int cell);

#endif
