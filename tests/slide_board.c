/*
 * slide_board.c - the slide simulator tests' boards (slide_board.h): a
 * board read from a picture (rows separated by '|', the characters of
 * test_slide.c's header), drawn back as one, moved, and one move on a
 * fresh board checked against the picture after it.
 */
#include "slide_board.h"

#include <string.h>

void tb_init(struct tb *t, const char *pic)
{
	int w = 0, h = 0, x = 0;
	for (const char *p = pic;; p++) {
		if (*p == '|' || !*p) {
			if (h == 0)
				w = x;
			assert_int_equal(x, w);   /* rectangular pictures only */
			h++;
			x = 0;
			if (!*p)
				break;
		} else {
			x++;
		}
	}
	memset(t, 0, sizeof *t);
	lk_slide_board_init(&t->b, w, h);
	lk_slide_scratch_init(&t->s, w * h);
	int c = 0;
	for (const char *p = pic; *p; p++) {
		if (*p == '|')
			continue;
		struct lk_slide_board *b = &t->b;
		char ch = *p;
		switch (ch) {
		case '#': b->terrain[c] = LK_T_WALL; break;
		case 'X': b->terrain[c] = LK_T_BLOCK; break;
		case '~': b->terrain[c] = LK_T_MUD; break;
		case 'O': b->terrain[c] = LK_T_PIT; break;
		case 'H': b->terrain[c] = LK_T_HEDGEHOG; break;
		case '^': b->terrain[c] = LK_T_ANTEATER; b->terrain_dir[c] = LK_UP; break;
		case '>': b->terrain[c] = LK_T_ANTEATER; b->terrain_dir[c] = LK_RIGHT; break;
		case 'v': b->terrain[c] = LK_T_ANTEATER; b->terrain_dir[c] = LK_DOWN; break;
		case '<': b->terrain[c] = LK_T_ANTEATER; b->terrain_dir[c] = LK_LEFT; break;
		case 'R': b->terrain[c] = LK_T_EXIT; b->terrain_colour[c] = 0; break;
		case 'G': b->terrain[c] = LK_T_EXIT; b->terrain_colour[c] = 1; break;
		case 'B': b->terrain[c] = LK_T_EXIT; b->terrain_colour[c] = 2; break;
		case 'S': b->piece[c] = LK_P_STONE; break;
		case 'I': b->piece[c] = LK_P_ICE; break;
		case 'C': b->piece[c] = LK_P_CRATE; break;
		case 'r': b->piece[c] = LK_P_SKIDDY; b->colour[c] = 0; break;
		case 'g': b->piece[c] = LK_P_SKIDDY; b->colour[c] = 1; break;
		case 'b': b->piece[c] = LK_P_SKIDDY; b->colour[c] = 2; break;
		case '.': case ' ': break;
		default:
			if (ch >= '0' && ch <= '9') {
				b->piece[c] = LK_P_FRUIT;
				b->colour[c] = (uint8_t)(ch - '0');
			} else {
				fail_msg("bad picture character '%c'", ch);
			}
		}
		c++;
	}
}

void tb_release(struct tb *t)
{
	lk_slide_board_release(&t->b);
	lk_slide_scratch_release(&t->s);
}

int cell(const struct tb *t, int x, int y)
{
	return y * t->b.width + x;
}

/* Draw the board into t->pic and return it. */
const char *tb_draw(struct tb *t)
{
	const struct lk_slide_board *b = &t->b;
	size_t at = 0;
	for (int y = 0; y < b->height; y++) {
		if (y)
			t->pic[at++] = '|';
		for (int x = 0; x < b->width; x++) {
			int c = y * b->width + x;
			char ch = '?';
			switch (b->piece[c]) {
			case LK_P_FRUIT: ch = (char)('0' + b->colour[c]); break;
			case LK_P_STONE: ch = 'S'; break;
			case LK_P_ICE: ch = 'I'; break;
			case LK_P_CRATE: ch = 'C'; break;
			case LK_P_SKIDDY: ch = "rgb"[b->colour[c] % 3]; break;
			default:
				switch (b->terrain[c]) {
				case LK_T_FLOOR: ch = '.'; break;
				case LK_T_WALL: ch = '#'; break;
				case LK_T_BLOCK: ch = 'X'; break;
				case LK_T_MUD: ch = '~'; break;
				case LK_T_PIT: ch = 'O'; break;
				case LK_T_HEDGEHOG: ch = 'H'; break;
				case LK_T_ANTEATER: ch = "^>v<"[b->terrain_dir[c] & 3]; break;
				case LK_T_EXIT: ch = "RGB"[b->terrain_colour[c] % 3]; break;
				default: break;
				}
			}
			t->pic[at++] = ch;
		}
	}
	t->pic[at] = '\0';
	return t->pic;
}

void tb_move(struct tb *t, int dir)
{
	lk_slide_move(&t->b, dir, &t->s, &t->r);
}

unsigned left_total(const struct lk_slide_result *r)
{
	unsigned n = 0;
	for (int c = 0; c < 16; c++)
		n += r->left[c];
	return n;
}

/* One move on a fresh board: the picture after it and r.changed. */
void check_move(const char *before, int dir, const char *after, bool changed)
{
	struct tb t;
	tb_init(&t, before);
	tb_move(&t, dir);
	if (strcmp(tb_draw(&t), after) != 0)
		fail_msg("move %c on %s\n  gave     %s\n  expected %s", lk_dir_letter[dir], before,
			 t.pic, after);
	assert_int_equal(t.r.changed, changed);
	tb_release(&t);
}
