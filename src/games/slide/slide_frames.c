/*
 * slide_frames.c - the states a solution of a slide game (fruit, skiddy)
 * passes through, one key per move, for playing it back (game.h's
 * replay_keys).  The rules are slide_replay's: a move that changes nothing
 * is still a move (its frame repeats the last), and moves after the level
 * is solved are an error.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "slide_game.h"

int slide_replay_keys(const struct lk_level *level, const char *solution, unsigned char **keys,
		      size_t *nkeys, struct lk_strbuf *err)
{
	size_t ks = level->key_size, n = 1, alloc = 0;
	void *scratch = lk_xcalloc(1, level->scratch_size);
	unsigned char *out = NULL, *next = lk_xmalloc(ks);
	unsigned long moves = 0;
	int rc = 0;

	LK_ALLOC_GROW(out, ks, alloc);
	slide_initial_state(level, out);
	for (const char *p = solution; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		static const char dirs[] = "urdl";
		const char *hit = strchr(dirs, tolower((unsigned char)*p));
		if (!hit) {
			lk_strbuf_addf(err, "'%c' is not a move (use u, r, d, l)", *p);
			rc = -1;
			break;
		}
		moves++;
		LK_ALLOC_GROW(out, (n + 1) * ks, alloc);
		unsigned char *cur = out + (n - 1) * ks, *to = out + n * ks;
		if (slide_move_key(level, scratch, cur, (int)(hit - dirs), next))
			memcpy(to, next, ks);
		else
			memcpy(to, cur, ks);
		n++;
		bool more = false;
		for (const char *rest = p + 1; !more && *rest; rest++)
			more = !isspace((unsigned char)*rest);
		if (more && slide_is_goal(level, to)) {
			lk_strbuf_addf(err, "the level is solved after move %lu, but more moves follow",
				       moves);
			rc = -1;
			break;
		}
	}
	free(next);
	free(scratch);
	if (rc < 0) {
		free(out);
		out = NULL;
		n = 0;
	}
	*keys = out;
	*nkeys = n;
	return rc;
}
