/*
 * sokoban_frames.c - the states a LURD solution passes through, one key
 * per move, for playing it back (game.h's replay_keys).
 *
 * The rules are soko_replay's, move for move: a step into a wall, a push
 * into a wall or a box, a push written in lower case, a walk written in
 * upper case and moves after the level is solved are errors; run lengths
 * and groups are read the same way.  The keys hold the player's exact
 * square (the moves metric's states), so the player is drawn where it
 * stands even in a level built for the pushes metric.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"
#include "sokoban.h"

struct keys_out {
	unsigned char *keys;
	size_t n, alloc, size;
};

/* Append the key of the position: the start's from the box array, each
 * later one from the key before it (a step moves the player and at most
 * one box: from -> to, or from < 0). */
static void emit(const struct sokoban *s, struct keys_out *o, const uint8_t *box, int player,
		 int from, int to)
{
	LK_ALLOC_GROW(o->keys, (o->n + 1) * o->size, o->alloc);
	uint8_t *k = o->keys + o->n * o->size;
	if (o->n == 0) {
		memset(k, 0, o->size);
		for (int i = 0; i < s->nfloor; i++)
			if (box[s->cell_of[i]])
				soko_bit_flip(k + 2, i);
	} else {
		memcpy(k, k - o->size, o->size);
		if (from >= 0) {
			soko_bit_flip(k + 2, s->compact[from]);
			soko_bit_flip(k + 2, s->compact[to]);
		}
	}
	soko_key_set_player(k, (unsigned)s->compact[player]);
	o->n++;
}

/* Anything but blanks after p? */
static bool more_follows(const char *p)
{
	for (; *p; p++)
		if (!isspace((unsigned char)*p))
			return true;
	return false;
}

/* One step in direction d, pushing if says_push; 0 or -1 with err.
 * *pushed is the box's cell before the push, or -1. */
static int step(const struct sokoban *s, uint8_t *box, int *player, int d, bool says_push,
		char letter, unsigned long n, int *off_goal, int *pushed, struct lk_strbuf *err)
{
	int q = *player + s->off[d];
	*pushed = -1;
	if (s->wall[q]) {
		lk_strbuf_addf(err, "move %lu ('%c') walks into a wall", n, letter);
		return -1;
	}
	if (box[q]) {
		int to = q + s->off[d];
		if (s->wall[to] || box[to]) {
			lk_strbuf_addf(err, "move %lu ('%c') pushes a box into %s", n, letter,
				       box[to] ? "another box" : "a wall");
			return -1;
		}
		if (!says_push) {
			lk_strbuf_addf(err, "move %lu ('%c') pushes a box but is written in lower case",
				       n, letter);
			return -1;
		}
		box[q] = 0;
		box[to] = 1;
		*off_goal += (s->goal[q] != 0) - (s->goal[to] != 0);
		*pushed = q;
	} else if (says_push) {
		lk_strbuf_addf(err, "move %lu ('%c') is written as a push but moves no box", n, letter);
		return -1;
	}
	*player = q;
	return 0;
}

int soko_replay_keys(const struct lk_level *level, const char *solution, unsigned char **keys,
		     size_t *nkeys, struct lk_strbuf *err)
{
	const struct sokoban *s = (const struct sokoban *)level;
	struct lk_strbuf expanded = LK_STRBUF_INIT;
	struct keys_out o = { .size = level->key_size };
	uint8_t *box = lk_xcalloc((size_t)s->cells, 1);
	int player = s->player0, off_goal = 0, rc = -1;
	unsigned long n = 0;

	*keys = NULL;
	*nkeys = 0;
	if (strchr(solution, '(')) {
		if (soko_expand_groups(solution, &expanded, err) < 0)
			goto out;
		solution = expanded.buf;
	}
	for (int i = 0; i < s->nfloor; i++) {
		int c = s->cell_of[i];
		box[c] = soko_bit(s->box0, i);
		off_goal += box[c] && !s->goal[c];
	}
	emit(s, &o, box, player, -1, -1);
	for (const char *p = solution;; p++) {
		unsigned long repeat;
		int d, pushed, next = soko_next_move(&p, &repeat, &d, err);
		if (next < 0)
			goto out;
		if (next == 0)
			break;
		for (unsigned long r = 0; r < repeat; r++) {
			if (step(s, box, &player, d, isupper((unsigned char)*p), *p, ++n, &off_goal, &pushed,
				 err) < 0)
				goto out;
			emit(s, &o, box, player, pushed, pushed >= 0 ? pushed + s->off[d] : -1);
			if (off_goal == 0 && !s->impossible && (r + 1 < repeat || more_follows(p + 1))) {
				lk_strbuf_addf(err, "the level is solved after move %lu, but more moves follow",
					       n);
				goto out;
			}
		}
	}
	rc = 0;
	*keys = o.keys;
	*nkeys = o.n;
	o.keys = NULL;
out:
	free(o.keys);
	free(box);
	lk_strbuf_release(&expanded);
	return rc;
}
