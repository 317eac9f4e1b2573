/*
 * generate.c - the generation action: level `index` of the run `seed`,
 * drawn from the generator's candidates until one passes the judge
 * (judge.c).  The toolkit the generators use is src/gen/generator.c.
 */
#include "levelkit/actions.h"

#include <string.h>

#include "judge.h"
#include "levelkit/fields.h"
#include "levelkit/registry.h"

/* out = a title comment, the grid, generator/seed/index, then rec's other
 * lines. */
static void finish_record(const struct lk_generator *g, const struct lk_gen_options *o,
			  uint64_t seed, uint64_t index, const struct lk_record *rec,
			  struct lk_record *out)
{
	struct lk_strbuf line = LK_STRBUF_INIT;
	lk_record_release(out);
	lk_record_init(out);
	lk_strbuf_addf(&line, "; %s %s %llu-%llu", g->game, g->name, (unsigned long long)seed,
		       (unsigned long long)index);
	lk_record_add_line(out, line.buf, 0);
	size_t first, n = lk_record_grid(rec, &first);
	for (size_t i = 0; i < n; i++)
		lk_record_add_line(out, rec->lines[first + i].text, 0);
	if (strcmp(g->game, "sokoban") != 0)
		lk_record_set(out, "game", g->game);
	lk_record_set(out, "generator", g->name);
	lk_record_setf(out, "seed", "%llu", (unsigned long long)seed);
	lk_record_setf(out, "index", "%llu", (unsigned long long)index);
	struct lk_strbuf settings = LK_STRBUF_INIT;
	lk_gen_settings(lk_game_find(g->game), o, &settings);
	lk_record_set(out, "settings", settings.buf);
	lk_strbuf_release(&settings);
	for (size_t i = 0; i < rec->nlines; i++) {
		const struct lk_line *l = &rec->lines[i];
		if (l->kind == LK_LINE_GRID ||
		    (l->kind == LK_LINE_FIELD && lk_field_name_eq(l->text, l->name_len, "game")))
			continue;   /* the grid and game are already in place */
		lk_record_add_line(out, l->text, 0);
	}
	lk_strbuf_release(&line);
}

int lk_generate_index(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_record *out, struct lk_gen_stats *stats)
{
	struct lk_rng rng;
	struct lk_record cand;
	const volatile sig_atomic_t *cancel = o->rating.search.bounds.cancel;
	lk_rng_seed2(&rng, seed, index);
	lk_record_init(&cand);
	for (unsigned t = 0; t < o->max_tries; t++) {
		if (cancel && *cancel)
			break;
		enum lk_reject why = LK_REJECT_INVALID;
		lk_record_release(&cand);
		lk_record_init(&cand);
		stats->tried++;
		if (g->candidate(w, o, &rng, &cand, &why) < 0 || lk_judge(w, o, &cand, &why) < 0) {
			stats->rejected[why]++;
			continue;
		}
		finish_record(g, o, seed, index, &cand, out);
		lk_record_release(&cand);
		stats->accepted++;
		return 0;
	}
	lk_record_release(&cand);
	stats->failed++;
	return -1;
}
