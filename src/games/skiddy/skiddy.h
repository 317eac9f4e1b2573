/*
 * skiddy.h - what the files of Skiddy's folder share: its generator and its look
 * (skiddy_draw.c), for its rules in skiddy.c.  The rest is the slide games'
 * library (../slide/slide_game.h).
 */
#ifndef LEVELKIT_SKIDDY_H
#define LEVELKIT_SKIDDY_H

#include "../slide/slide_game.h"

extern const struct lk_generator lk_gen_skiddy_random;

void skiddy_draw_terrain(struct lk_canvas *c, const struct lk_slide_board *b, int cell);
void skiddy_draw_piece(struct lk_canvas *c, const struct lk_slide_board *b, int cell);

#endif
