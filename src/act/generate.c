/*
 * generate.c - the generation action: level `index` of the run `seed`,
 * drawn from the generator's candidates until one passes the judge
 * (judge.c), which is given the candidate's level loaded once; the kept
 * level's canonical text is made from that same level (gen_run.h:
 * lk_generate_level).  The toolkit the generators use is src/gen/generator.c.
 */
#include "levelkit/actions.h"

#include <string.h>

#include "judge.h"
#include "levelkit/fields.h"
#include "levelkit/gen_run.h"
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

void lk_gen_level_init(struct lk_gen_level *l)
{
	lk_record_init(&l->rec);
	lk_strbuf_init(&l->canonical);
	memset(&l->judged, 0, sizeof l->judged);
}

void lk_gen_level_release(struct lk_gen_level *l)
{
	lk_record_release(&l->rec);
	lk_strbuf_release(&l->canonical);
}

/* A candidate, loaded once (with the run's level options) for the judge
 * and, once kept, for its canonical text: 0 when kept. */
static int judge(struct lk_gen_worker *w, const struct lk_gen_options *o, struct lk_record *cand,
		 const struct lk_generator *g, uint64_t seed, uint64_t index,
		 struct lk_gen_level *out, enum lk_reject *why)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(cand, &o->level, &err, &line);
	lk_strbuf_release(&err);
	if (!level) {
		*why = LK_REJECT_INVALID;
		return -1;
	}
	int rc = lk_judge(w, o, level, cand, &out->judged, why);
	if (rc == 0) {
		finish_record(g, o, seed, index, cand, &out->rec);
		lk_strbuf_reset(&out->canonical);
		lk_level_canonical(level, &out->rec, &out->canonical);
	}
	lk_level_free(level);
	return rc;
}

int lk_generate_level(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_gen_level *out, struct lk_gen_stats *stats)
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
		if (g->candidate(w, o, &rng, &cand, &why) < 0 ||
		    judge(w, o, &cand, g, seed, index, out, &why) < 0) {
			stats->rejected[why]++;
			continue;
		}
		lk_record_release(&cand);
		stats->accepted++;
		return 0;
	}
	lk_record_release(&cand);
	stats->failed++;
	return -1;
}

int lk_generate_index(const struct lk_generator *g, struct lk_gen_worker *w,
		      const struct lk_gen_options *o, uint64_t seed, uint64_t index,
		      struct lk_record *out, struct lk_gen_stats *stats)
{
	struct lk_gen_level l;
	lk_gen_level_init(&l);
	int rc = lk_generate_level(g, w, o, seed, index, &l, stats);
	if (rc == 0) {
		lk_record_release(out);
		*out = l.rec;   /* moved, not copied */
		lk_record_init(&l.rec);
	}
	lk_gen_level_release(&l);
	return rc;
}
