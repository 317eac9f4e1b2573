/*
 * gen_asked.c - the acceptance thresholds gen was asked for (gen_run.h:
 * struct lk_gen_asked), before and after the generator is known: every
 * generator's own fields collected once from the registry, the thresholds
 * that do not apply to the chosen generator refused (naming the games
 * they apply to), a designer's defaults (no trivial levels unless asked
 * for), and the thresholds the generator judges by put into its options.
 */
#include "levelkit/gen_run.h"

#include <math.h>
#include <string.h>

#include "levelkit/registry.h"

void lk_gen_asked_init(struct lk_gen_asked *a)
{
	memset(a, 0, sizeof *a);
	a->moves = a->difficulty = (struct lk_range){ -INFINITY, INFINITY };
	const struct lk_generator *g;
	for (size_t it = 0; (g = lk_generator_next(&it)) != NULL;) {
		for (const struct lk_gen_field *f = g->fields; f && f->name; f++) {
			bool dup = false;
			for (size_t i = 0; i < a->nfields && !dup; i++)
				dup = strcmp(a->fields[i]->name, f->name) == 0;
			if (dup || a->nfields == LK_GEN_MAX_THRESHOLDS)
				continue;
			a->fields[a->nfields] = f;
			a->range[a->nfields++] = (struct lk_range){ -INFINITY, INFINITY };
		}
	}
}

bool lk_gen_asked_field(const struct lk_gen_asked *a, size_t i)
{
	return a->fields[i]->rating ? a->rating[i] > 0
				    : isfinite(a->range[i].min) || isfinite(a->range[i].max);
}

/* An acceptance option given for a generator that cannot judge by it. */
static int applies(const struct lk_generator *gen, unsigned bit, bool given, const char *what,
		   struct lk_strbuf *err)
{
	if (!given || (gen->accepts & bit))
		return 0;
	struct lk_strbuf games = LK_STRBUF_INIT;
	lk_generator_games_accepting(bit, &games);
	lk_strbuf_addf(err, "%s does not apply to %s (it applies to %s)", what, gen->game, games.buf);
	lk_strbuf_release(&games);
	return -1;
}

/* The options of the game's own fields (range ones, or ratings) given for
 * a generator that does not judge by them. */
static int fields_apply(const struct lk_gen_asked *a, const struct lk_generator *gen, bool ratings,
			struct lk_strbuf *err)
{
	for (size_t i = 0; i < a->nfields; i++) {
		const struct lk_gen_field *f = a->fields[i];
		if (f->rating != ratings || !lk_gen_asked_field(a, i) || lk_generator_field(gen, f->name))
			continue;
		struct lk_strbuf games = LK_STRBUF_INIT;
		lk_generator_games_judging(f->name, &games);
		if (f->rating)
			lk_strbuf_addf(err, "--%s does not apply to %s (it applies to %s)", f->name,
				       gen->game, games.buf);
		else
			lk_strbuf_addf(err, "--min-%s/--max-%s does not apply to %s (it applies to %s)",
				       f->name, f->name, gen->game, games.buf);
		lk_strbuf_release(&games);
		return -1;
	}
	return 0;
}

int lk_gen_asked_check(const struct lk_gen_asked *a, const struct lk_generator *gen,
		       struct lk_strbuf *err)
{
	if (applies(gen, LK_GEN_ACCEPT(MOVES), isfinite(a->moves.min) || isfinite(a->moves.max),
		    "--min-moves/--max-moves", err) < 0 ||
	    fields_apply(a, gen, false, err) < 0 ||
	    applies(gen, LK_GEN_ACCEPT(DIFFICULTY), a->rate || a->band || lk_range_set(&a->difficulty),
		    "--rate and the difficulty thresholds", err) < 0 ||
	    applies(gen, LK_GEN_ACCEPT(DEAD_ENDS), a->no_dead_ends, "--no-dead-ends", err) < 0 ||
	    fields_apply(a, gen, true, err) < 0 ||
	    applies(gen, LK_GEN_ACCEPT(FROM), a->from, "--from/--rules/--freeze/--suggest", err) < 0)
		return -1;
	return 0;
}

int lk_gen_asked_check_ratings(const struct lk_gen_asked *a, struct lk_strbuf *err)
{
	for (size_t i = 0; i < a->nfields; i++)
		if (a->fields[i]->rating && (double)a->rating[i] > a->fields[i]->max) {
			lk_strbuf_addf(err, "--%s %lu: the rating is 0 to %g", a->fields[i]->name,
				       a->rating[i], a->fields[i]->max);
			return -1;
		}
	return 0;
}

void lk_gen_asked_defaults(struct lk_gen_asked *a, const struct lk_generator *gen)
{
	bool any = lk_range_set(&a->moves);
	for (size_t i = 0; i < a->nfields; i++)
		any |= !a->fields[i]->rating && lk_gen_asked_field(a, i);
	if (any)
		return;
	for (size_t i = 0; i < a->nfields; i++) {
		const struct lk_gen_field *f = lk_generator_field(gen, a->fields[i]->name);
		if (f && !f->rating && f->default_min > 0)
			a->range[i].min = f->default_min;
	}
	if (gen->default_min_moves > 0)
		a->moves.min = gen->default_min_moves;
}

void lk_gen_asked_apply(const struct lk_gen_asked *a, const struct lk_generator *gen,
			struct lk_gen_options *o)
{
	o->moves = a->moves;
	for (size_t i = 0; i < a->nfields; i++) {
		const struct lk_gen_field *f = lk_generator_field(gen, a->fields[i]->name);
		if (!f || !lk_gen_asked_field(a, i))
			continue;
		struct lk_gen_threshold *t = &o->thresholds[o->nthresholds++];
		t->field = f;
		t->range = f->rating ? (struct lk_range){ (double)a->rating[i], INFINITY } : a->range[i];
	}
	o->difficulty = a->difficulty;
	o->rate = a->rate;
	o->no_dead_ends = a->no_dead_ends;
}

/* A band no level can be in is a mistake, not a run that gives up after
 * hours: --min-pushes 5 --max-pushes 3. */
static int check_range(const char *what, const struct lk_range *r, struct lk_strbuf *err)
{
	if (r->min > r->max)
		lk_strbuf_addf(err, "--min-%s %g is above --max-%s %g, so no level could pass", what,
			       r->min, what, r->max);
	else if (r->max < 0)
		lk_strbuf_addf(err, "--max-%s %g: no level has fewer than 0 %s", what, r->max, what);
	else
		return 0;
	return -1;
}

int lk_gen_options_check_ranges(const struct lk_gen_options *o, struct lk_strbuf *err)
{
	if (check_range("moves", &o->moves, err) < 0)
		return -1;
	for (size_t i = 0; i < o->nthresholds; i++)
		if (!o->thresholds[i].field->rating &&
		    check_range(o->thresholds[i].field->name, &o->thresholds[i].range, err) < 0)
			return -1;
	return check_range("difficulty", &o->difficulty, err);
}
