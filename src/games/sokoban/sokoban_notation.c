/*
 * sokoban_notation.c - LURD notation: turning a path of states into moves
 * (lower case walks, upper case pushes), replaying a move string (with run
 * lengths, "3R", and the groups some programs write, "2(ul)"), and
 * drawing a state in XSB characters.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"
#include "sokoban.h"

static const char upper[4] = { 'U', 'R', 'D', 'L' };

static int dir_between(const struct sokoban *s, int from, int to)
{
	for (int d = 0; d < 4; d++)
		if (from + s->off[d] == to)
			return d;
	return -1;
}

/* Append the shortest walk from cell a to cell b around walls and boxes;
 * returns its length, or -1 when b is out of reach. */
static long walk(const struct sokoban *s, const uint8_t *box, int a, int b, struct lk_strbuf *out)
{
	if (a == b)
		return 0;
	size_t n = (size_t)s->cells;
	int *from = lk_xmalloc(n * sizeof *from);
	int *queue = lk_xmalloc(n * sizeof *queue);
	for (size_t i = 0; i < n; i++)
		from[i] = -1;
	int head = 0, tail = 0;
	queue[tail++] = a;
	from[a] = a;
	while (head < tail && from[b] < 0) {
		int c = queue[head++];
		for (int d = 0; d < 4; d++) {
			int nc = c + s->off[d];
			if (s->wall[nc] || box[nc] || from[nc] >= 0)
				continue;
			from[nc] = c;
			queue[tail++] = nc;
		}
	}
	long len = -1;
	if (from[b] >= 0) {
		/* Collect the walk backwards, then append it forwards. */
		int steps = 0;
		for (int c = b; c != a; c = from[c])
			queue[steps++] = dir_between(s, from[c], c);
		for (int i = steps - 1; i >= 0; i--)
			lk_strbuf_addch(out, lk_dir_letter[queue[i]]);
		len = steps;
	}
	free(from);
	free(queue);
	return len;
}

/* Cells of the boxes in a key, written into box (per cell). */
static void boxes_of(const struct sokoban *s, const uint8_t *key, uint8_t *box)
{
	memset(box, 0, (size_t)s->cells);
	for (int i = 0; i < s->nfloor; i++)
		if (soko_bit(key + 2, i))
			box[s->cell_of[i]] = 1;
}

/* The one fact a Sokoban move carries: it pushes a box. */
static const uint16_t fact_push[1] = { SOKO_FACT_PUSH };

void soko_label_path(const struct lk_level *level, const unsigned char *keys, size_t nkeys,
		     struct lk_moves *out)
{
	const struct sokoban *s = (const struct sokoban *)level;
	size_t ks = level->key_size;
	uint8_t *box = lk_xmalloc((size_t)s->cells);
	int player = s->player0;
	struct lk_strbuf label = LK_STRBUF_INIT;
	boxes_of(s, keys, box);
	for (size_t k = 1; k < nkeys; k++) {
		const uint8_t *prev = keys + (k - 1) * ks, *next = keys + k * ks;
		int from = -1, to = -1;
		for (int i = 0; i < s->nfloor; i++) {
			bool a = soko_bit(prev + 2, i), b = soko_bit(next + 2, i);
			if (a && !b)
				from = s->cell_of[i];
			if (b && !a)
				to = s->cell_of[i];
		}
		if (from < 0) {
			/* a step without a push (moves metric) */
			int q = s->cell_of[soko_key_player(next)];
			char c = lk_dir_letter[dir_between(s, player, q)];
			lk_moves_add(out, &c, 1, 1, NULL, 0);
			player = q;
			continue;
		}
		/* a push, after the walk to it (pushes metric: one edge); a
		 * tunnel macro pushes the box on along a line, a push each */
		int d = dir_between(s, from, to), line = 1;
		for (int e = 0; d < 0 && e < 4; e++) {
			int x = from + s->off[e], n = 1;
			while (!s->wall[x] && x != to) {
				x += s->off[e];
				n++;
			}
			if (x == to) {
				d = e;
				line = n;
			}
		}
		lk_strbuf_reset(&label);
		long w = walk(s, box, player, from - s->off[d], &label);
		for (int i = 0; i < line; i++) {
			lk_strbuf_addch(&label, upper[d]);
			lk_moves_add(out, label.buf, label.len,
				     (unsigned long)(i == 0 && w > 0 ? w : 0) + 1, fact_push, 1);
			lk_strbuf_reset(&label);
		}
		box[from] = 0;
		box[to] = 1;
		player = to - s->off[d];
	}
	lk_strbuf_release(&label);
	free(box);
}

/* Write out the groups of a solution ("2(ul)" is "ulul"); run lengths
 * are written out too.  Returns 0, or -1 with a message in err. */
int soko_expand_groups(const char *solution, struct lk_strbuf *out, struct lk_strbuf *err)
{
	struct lk_strbuf packed = LK_STRBUF_INIT;
	int rc = 0;

	for (const char *p = solution; *p && rc == 0; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (!strchr("udlrUDLR()", *p) && !isdigit((unsigned char)*p)) {
			lk_strbuf_addf(err, "'%c' is not a move (use u, d, l, r; upper case for pushes)", *p);
			rc = -1;
		}
		lk_strbuf_addch(&packed, *p);
	}
	if (rc == 0 && lk_sok_decode_line(packed.buf, out, err) < 0)
		rc = -1;
	if (rc == 0)
		out->buf[--out->len] = '\0';   /* the decoder ends a row */
	lk_strbuf_release(&packed);
	return rc;
}

int soko_replay(const struct lk_level *level, const char *solution, struct lk_moves *moves,
		bool *solved, struct lk_strbuf *err)
{
	const struct sokoban *s = (const struct sokoban *)level;
	struct lk_strbuf expanded = LK_STRBUF_INIT;
	if (strchr(solution, '(')) {
		if (soko_expand_groups(solution, &expanded, err) < 0) {
			lk_strbuf_release(&expanded);
			return -1;
		}
		solution = expanded.buf;
	}
	uint8_t *box = lk_xmalloc((size_t)s->cells);
	uint8_t *start = lk_xcalloc(1, level->key_size);
	int player = s->player0, rc = -1;
	unsigned long step = 0;
	memcpy(start + 2, s->box0, s->bitset_bytes);
	boxes_of(s, start, box);
	free(start);
	int off_goal = 0;   /* boxes not on a goal: the level is solved at 0 */
	for (int c = 0; c < s->cells; c++)
		off_goal += box[c] && !s->goal[c];

	for (const char *p = solution;; p++) {
		unsigned long repeat;
		int d, next = soko_next_move(&p, &repeat, &d, err);
		if (next < 0)
			goto out;
		if (next == 0)
			break;
		bool says_push = isupper((unsigned char)*p);
		for (unsigned long r = 0; r < repeat; r++) {
			step++;
			int q = player + s->off[d];
			if (s->wall[q]) {
				lk_strbuf_addf(err, "move %lu ('%c') walks into a wall", step, *p);
				goto out;
			}
			if (box[q]) {
				int to = q + s->off[d];
				if (s->wall[to] || box[to]) {
					lk_strbuf_addf(err, "move %lu ('%c') pushes a box into %s", step, *p,
						       box[to] ? "another box" : "a wall");
					goto out;
				}
				if (!says_push) {
					lk_strbuf_addf(err, "move %lu ('%c') pushes a box but is written in lower case",
						       step, *p);
					goto out;
				}
				box[q] = 0;
				box[to] = 1;
				off_goal += (s->goal[q] != 0) - (s->goal[to] != 0);
			} else if (says_push) {
				lk_strbuf_addf(err, "move %lu ('%c') is written as a push but moves no box",
					       step, *p);
				goto out;
			}
			player = q;
			char c = *p;
			lk_moves_add(moves, &c, 1, 1, says_push ? fact_push : NULL, says_push ? 1 : 0);
			/* A solution ends when the level is solved: moves after
			 * that are an error, not a longer solution. */
			bool more = r + 1 < repeat;
			for (const char *rest = p + 1; !more && *rest; rest++)
				more = !isspace((unsigned char)*rest);
			if (off_goal == 0 && !s->impossible && more) {
				lk_strbuf_addf(err, "the level is solved after move %lu, but more moves follow",
					       step);
				goto out;
			}
		}
	}
	*solved = !s->impossible;
	for (int c = 0; c < s->cells; c++)
		if (box[c] && !s->goal[c])
			*solved = false;
	rc = 0;
out:
	free(box);
	lk_strbuf_release(&expanded);
	return rc;
}

void soko_write_state(const struct lk_level *level, const void *key, struct lk_strbuf *out)
{
	const struct sokoban *s = (const struct sokoban *)level;
	const uint8_t *k = key;
	/* Under the pushes metric this is the normalised square: the least
	 * one the player can reach. */
	unsigned pk = soko_key_player(k);
	int player = pk == SOKO_ANYWHERE ? -1 : s->cell_of[pk];
	for (int y = 1; y < s->height - 1; y++) {
		size_t start = out->len;
		for (int x = 1; x < s->width - 1; x++) {
			int c = y * s->width + x;
			char ch = s->board[c];
			bool box = s->compact[c] >= 0 && soko_bit(k + 2, s->compact[c]);
			if (box)
				ch = s->goal[c] ? '*' : '$';
			else if (c == player)
				ch = s->goal[c] ? '+' : '@';
			lk_strbuf_addch(out, ch);
		}
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->len--;
		out->buf[out->len] = '\0';
		lk_strbuf_addch(out, '\n');
	}
}

int soko_next_move(const char **at, unsigned long *repeat, int *dir, struct lk_strbuf *err)
{
	const char *p = *at;
	while (isspace((unsigned char)*p))
		p++;
	*at = p;
	if (!*p)
		return 0;
	*repeat = 1;
	if (isdigit((unsigned char)*p)) {
		*repeat = 0;
		while (isdigit((unsigned char)*p) && *repeat < 1000000)
			*repeat = *repeat * 10 + (unsigned long)(*p++ - '0');
		*at = p;
		if (!*p) {
			lk_strbuf_addstr(err, "solution ends with a run length");
			return -1;
		}
	}
	const char *dirs = "urdl", *hit = strchr(dirs, tolower((unsigned char)*p));
	if (!hit) {
		lk_strbuf_addf(err, "'%c' is not a move (use u, d, l, r; upper case for pushes)", *p);
		return -1;
	}
	*dir = (int)(hit - dirs);
	return 1;
}
