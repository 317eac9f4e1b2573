/*
 * test_support.h - small helpers the tests share over the game interface:
 * a path's or a replay's lengths as the fields count them (moves, and the
 * pushes of Sokoban-like games), and a level's star rating as Skiddy's
 * graph rules write it.  They keep the tests' assertions in the terms the
 * tests were written in (moves, pushes, stars) while the interface speaks
 * of labelled moves, facts and fields.
 */
#ifndef LEVELKIT_TEST_SUPPORT_H
#define LEVELKIT_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/analysis.h"
#include "levelkit/game.h"
#include "levelkit/record.h"

/* Skiddy's win kinds (slide_game.h): a plain win, a max-combo win. */
#define LK_WIN_PLAIN 0u
#define LK_WIN_COMBO 1u

/* Lengths of a solution under the measures a game knows. */
struct lk_solution_stats {
	unsigned long moves;   /* player inputs */
	unsigned long pushes;  /* moves carrying the fact "push" */
	bool has_pushes;       /* the level's moves can push */
};

static inline void stats_of(const struct lk_level *level, const struct lk_moves *m,
			    struct lk_solution_stats *st)
{
	st->moves = m->inputs;
	st->pushes = (unsigned long)lk_moves_count(m, "push");
	st->has_pushes = lk_level_has_fact(level, "push");
}

/* The solution text of a path of keys (appended to out), and its lengths. */
static inline void format_solution(const struct lk_level *level, const unsigned char *keys,
				   size_t nkeys, struct lk_strbuf *out, struct lk_solution_stats *st)
{
	struct lk_moves m;
	lk_moves_init(&m, level);
	lk_level_label(level, keys, nkeys, &m);
	lk_strbuf_add(out, m.text.buf, m.text.len);
	stats_of(level, &m, st);
	lk_moves_release(&m);
}

/* Replay a solution; its lengths in st. */
static inline int replay_stats(const struct lk_level *level, const char *solution,
			 struct lk_solution_stats *st, bool *solved, struct lk_strbuf *err)
{
	struct lk_moves m;
	lk_moves_init(&m, level);
	int rc = level->game->replay(level, solution, &m, solved, err);
	stats_of(level, &m, st);
	lk_moves_release(&m);
	return rc;
}

/* The star rating of an analysis (Skiddy's graph rules), or -1 when the
 * game has none or the analysis is incomplete. */
static inline int analysis_stars(const struct lk_level *level, const struct lk_analysis *a)
{
	if (!a->complete || !level->game->graph_rules)
		return -1;
	struct lk_record rec = LK_RECORD_INIT;
	lk_record_init(&rec);
	level->game->graph_rules->write_fields(level, a, &rec);
	const char *v = lk_record_get(&rec, "stars");
	int stars = v ? atoi(v) : -1;
	lk_record_release(&rec);
	return stars;
}

#endif
