/*
 * sokoban.c - the Sokoban game: its vtable (game.h), which the registry
 * lists.  Reading and building a level is sokoban_level.c; moves and
 * pruning sokoban_moves.c; the lower bounds sokoban_heuristic.c; the
 * notation sokoban_notation.c; the generators sokoban_backward.c and
 * sokoban_transform.c; drawing sokoban_draw.c; the search for any
 * solution (-a any) sokoban_any.c and the files of sokoban_any.h; the
 * techniques' switches and counters end sokoban_level.c (docs/design.md
 * lists the files of a game, docs/games/sokoban.md Sokoban's).
 */
#include "sokoban.h"

static const char *const soko_metrics[] = { "pushes", "moves", NULL };
static const char *const soko_heuristics[] = { "matching", "mixedaim", "thesis", NULL };

extern const struct lk_generator lk_gen_sokoban_backward;
extern const struct lk_generator lk_gen_sokoban_transform;
static const struct lk_generator *const sokoban_generators[] = {
	&lk_gen_sokoban_backward,
	&lk_gen_sokoban_transform,
	NULL,
};


/* pushes: the moves that push a box */
static const struct lk_count_field soko_count_fields[] = {
	{ "pushes", "push" },
	{ NULL, NULL },
};

static int soko_vt_validate(const struct lk_game *game, const void *def,
			    const struct lk_record *rec, const struct lk_level_options *opt,
			    struct lk_strbuf *err, size_t *line)
{
	(void)game;
	(void)def;
	return soko_validate(rec, opt, err, line);
}

static struct lk_level *soko_vt_new_level(const struct lk_game *game, const void *def,
					  const struct lk_record *rec,
					  const struct lk_level_options *opt)
{
	(void)game;
	(void)def;
	return soko_new_level(rec, opt);
}

/* The rating's counts (rating.h): the floor, the boxes. */
static void soko_rating_counts(const struct lk_level *level, unsigned *cells, unsigned *objects)
{
	const struct sokoban *s = (const struct sokoban *)level;
	*cells = s->nfloor > 0 ? (unsigned)s->nfloor : 0;
	*objects = s->nboxes > 0 ? (unsigned)s->nboxes : 0;
}

/* The floor's sides that face a wall (the board is padded with walls). */
static unsigned soko_rating_wall_sides(const struct lk_level *level)
{
	const struct sokoban *s = (const struct sokoban *)level;
	unsigned sides = 0;
	for (int i = 0; i < s->nfloor; i++)
		for (int d = 0; d < 4; d++)
			sides += s->wall[s->cell_of[i] + s->off[d]] != 0;
	return sides;
}

const struct lk_game lk_game_sokoban = {
	.name = "sokoban",
	.summary = "push every box onto a goal (XSB notation)",
	.metrics = soko_metrics,
	.heuristics = soko_heuristics,
	.validate = soko_vt_validate,
	.new_level = soko_vt_new_level,
	.free_level = soko_free_level,
	.initial_state = soko_initial_state,
	.successors = soko_successors,
	.whole_successors = soko_whole_successors,
	.is_goal = soko_is_goal,
	.heuristic = soko_heuristic,
	.heuristic_fact = "push",
	.estimate = soko_estimate,
	.move_facts = soko_move_facts,
	.track_size = soko_track_size,
	.track_start = soko_track_start,
	.track_move = soko_track_move,
	.label_path = soko_label_path,
	.replay = soko_replay,
	.count_fields = soko_count_fields,
	.symmetries = LK_SYMMETRIES_ALL,
	.reverse_level = soko_new_reverse,
	.write_state = soko_write_state,
	.canonical = soko_canonical,
	.generators = sokoban_generators,
	.rating_counts = soko_rating_counts,
	.rating_wall_sides = soko_rating_wall_sides,
	.draw = soko_draw,
	.replay_keys = soko_replay_keys,
	.solve_any = soko_solve_any,
	.techniques = soko_techniques,
	.technique_counts = soko_technique_counts,
};
