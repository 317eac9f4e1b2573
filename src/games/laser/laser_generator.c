/*
 * laser_generator.c - `gen laser`: the laser generator (laser_gen.c) as a
 * levelkit generator (generate.h).  Its settings are --param keys, with
 * --preset NAME as the game's own option; gen's --require CONCEPT is the
 * concept the generator proves (gen's judge then finds the record's
 * concept and requires: yes, and asks no query again); each
 * candidate is one lk_laser_generate run from a seed the loop's random
 * stream gives, so level i of a run depends on (seed, i) only.
 *
 * With a concept the generator's counter-example guided search proves that
 * no solution violates it (tidy solutions, or all with shortcuts=all); the
 * record says so in the fields solve --shortcut writes: concept, requires:
 * yes, and requires-over (tidy or all).
 */
#include <stdlib.h>
#include <string.h>

#include "laser_internal.h"
#include "levelkit/generate.h"

struct gen_state {
	struct lk_laser_gen_options o;
	const char *concept;       /* the concept's expression, or NULL */
};

static int param_int(const struct lk_gen_options *go, const char *key, long lo, long hi, int *out,
		     struct lk_strbuf *err)
{
	long v;
	if (lk_gen_param_int(go, key, *out, lo, hi, &v, err) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int read_params(const struct lk_gen_options *go, struct gen_state *s, struct lk_strbuf *err)
{
	struct lk_laser_gen_options *o = &s->o;
	lk_laser_gen_options_init(o);
	const char *v = lk_gen_param(go, "preset");
	if (v && lk_laser_gen_preset(o, v) < 0) {
		lk_strbuf_addf(err, "--preset %s: not a preset (split-combine, split-combine-2, "
			       "six-benders, monolithic, monolithic-open, monolithic-tidy, "
			       "monolithic-open-tidy)", v);
		return -1;
	}
	/* gen's --require (every game's), or a preset's name as --param */
	if (go->require_text)
		o->require = go->require_text;
	else if ((v = lk_gen_param(go, "require")) != NULL)
		o->require = v;
	if (go->width)
		o->width = go->width;
	if (go->height)
		o->height = go->height;
	if ((v = lk_gen_param(go, "pieces")) != NULL && lk_laser_gen_palette(o, v, err) < 0)
		return -1;
	if ((v = lk_gen_param(go, "powers")) != NULL && lk_laser_gen_powers(o, v, err) < 0)
		return -1;
	if ((v = lk_gen_param(go, "targets")) != NULL) {
		char *end;
		long a = strtol(v, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end || a < 1 || b < a || b > 10) {
			lk_strbuf_addf(err, "--param targets=%s: expected N or MIN-MAX, 1 to 10", v);
			return -1;
		}
		o->min_targets = (int)a;
		o->max_targets = (int)b;
	}
	if (param_int(go, "sources", 1, 10, &o->sources, err) < 0 ||
	    param_int(go, "min-pieces", 0, LK_LASER_MAX_CELLS, &o->min_pieces, err) < 0 ||
	    param_int(go, "distractors", 0, 32, &o->distractors, err) < 0 ||
	    param_int(go, "blockers", 0, LK_LASER_MAX_CELLS, &o->blockers, err) < 0 ||
	    param_int(go, "max-blockers", -1, LK_LASER_MAX_CELLS, &o->max_blockers, err) < 0 ||
	    param_int(go, "target-sides", 1, 4, &o->target_sides, err) < 0)
		return -1;
	long n;
	if (lk_gen_param_int(go, "check-nodes", (long)o->check_nodes, 1, 1000000000L, &n, err) < 0)
		return -1;
	o->check_nodes = (uint64_t)n;
	if (lk_gen_param_int(go, "rounds", (long)o->max_rounds, 1, 100000, &n, err) < 0)
		return -1;
	o->max_rounds = (unsigned)n;
	if (lk_gen_param_int(go, "boards", (long)o->max_boards, 1, 100000, &n, err) < 0)
		return -1;
	o->max_boards = (unsigned)n;
	if ((v = lk_gen_param(go, "symmetry")) != NULL && lk_laser_gen_symmetry(o, v, err) < 0)
		return -1;
	if ((v = lk_gen_param(go, "palette")) != NULL) {
		if (strcmp(v, "whole") != 0 && strcmp(v, "sampled") != 0) {
			lk_strbuf_addf(err, "--param palette=%s: expected sampled or whole", v);
			return -1;
		}
		o->whole_palette = strcmp(v, "whole") == 0;
	}
	if ((v = lk_gen_param(go, "designer")) != NULL) {
		if (strcmp(v, "grow") != 0 && strcmp(v, "search") != 0 && strcmp(v, "auto") != 0) {
			lk_strbuf_addf(err, "--param designer=%s: expected search, grow or auto", v);
			return -1;
		}
		o->grow = strcmp(v, "grow") == 0 ? 1 : strcmp(v, "auto") == 0 ? -1 : 0;
	}
	if ((v = lk_gen_param(go, "shortcuts")) != NULL) {
		if (strcmp(v, "tidy") != 0 && strcmp(v, "all") != 0) {
			lk_strbuf_addf(err, "--param shortcuts=%s: expected tidy or all", v);
			return -1;
		}
		o->all = strcmp(v, "all") == 0;
	}
	if (o->require) {
		const char *preset = lk_laser_concept_preset(o->require);
		s->concept = preset ? preset : o->require;
	}
	return 0;
}

static void *laser_new_state(const struct lk_gen_options *go, struct lk_strbuf *err)
{
	struct gen_state *s = lk_xcalloc(1, sizeof *s);
	if (read_params(go, s, err) < 0) {
		free(s);
		return NULL;
	}
	/* A request no level can meet is refused at once, with its proof,
	 * rather than tried for ever: the run's setup without any board. */
	struct lk_laser_gen_options probe = s->o;
	struct lk_laser_gen_stats st;
	struct lk_laser *lv = NULL;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_strbuf why = LK_STRBUF_INIT;
	probe.max_boards = 0;
	enum lk_laser_gen_status status = lk_laser_generate(&probe, 0, &lv, pl, &st, &why);
	free(pl);
	lk_laser_free(lv);
	bool bad = status == LK_LASER_GEN_INFEASIBLE || strncmp(why.buf ? why.buf : "", "gave up", 7) != 0;
	if (bad) {
		lk_strbuf_addstr(err, why.len ? why.buf : "the request cannot be met");
		lk_strbuf_release(&why);
		free(s);
		return NULL;
	}
	lk_strbuf_release(&why);
	return s;
}

static void laser_free_state(void *state)
{
	free(state);
}

static int laser_candidate(struct lk_gen_worker *w, const struct lk_gen_options *go,
			   struct lk_rng *rng, struct lk_record *rec, enum lk_reject *why)
{
	const struct gen_state *s = w->state;
	struct lk_laser_gen_options o = s->o;
	o.seed = lk_rng_next(rng);
	o.bounds.max_seconds = go->rating.search.bounds.max_seconds;   /* a safety net only */
	o.bounds.cancel = go->rating.search.bounds.cancel;
	struct lk_laser *lv = NULL;
	struct lk_laser_placement *pl = lk_xmalloc(sizeof *pl);
	struct lk_laser_gen_stats st;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	enum lk_laser_gen_status status = lk_laser_generate(&o, 0, &lv, pl, &st, &msg);
	lk_strbuf_release(&msg);
	if (status != LK_LASER_GEN_OK) {
		free(pl);
		*why = lk_bounds_cancelled(&go->rating.search.bounds) ? LK_REJECT_INTERRUPTED
		       : o.bounds.max_seconds > 0 && st.seconds >= o.bounds.max_seconds		     ? LK_REJECT_TIMEOUT
										     : LK_REJECT_STATES;
		return -1;
	}
	lk_laser_to_record(lv, rec);
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_laser_placement_format(pl, &text);
	lk_record_set(rec, "intended", text.buf);
	lk_strbuf_release(&text);
	if (s->concept) {
		lk_record_set(rec, "concept", s->concept);
		lk_record_set(rec, "requires", "yes");
		lk_record_set(rec, "requires-over", o.all ? "all" : "tidy");
	}
	lk_record_setf(rec, "gen-rounds", "%u", st.rounds);
	lk_laser_free(lv);
	free(pl);
	return 0;
}

static const struct lk_gen_flag laser_gen_flags[] = {
	/* a plain list ("a, b or c"): the shell completion reads it */
	{ "preset", "preset", "the paper's concepts with pieces that suit them: split-combine, "
	  "split-combine-2, six-benders, monolithic, monolithic-open, monolithic-tidy or "
	  "monolithic-open-tidy", "name" },
	{ NULL, NULL, NULL, NULL },
};

const struct lk_generator lk_gen_laser = {
	.game = "laser",
	.name = "cegis",
	.summary = "a board with sources, an intended solution designed from the pieces, and with a "
		   "concept, shortcuts found and ruled out until none is left (counter-example guided)",
	.params_help = "preset=NAME, require=CONCEPT, pieces=\"2 SP2, 1 CMB2, 6 BND\" (1 SP2, 1 CMB2, "
		       "4 BND), powers=\"1, 1/2\" (1), sources=N (1), targets=MIN-MAX (1-3), "
		       "target-sides=N (1; up to 4, the target adds its beams), "
		       "min-pieces=N (2), distractors=N (0), blockers=N (0), max-blockers=N (-1: any), "
		       "symmetry=none|lr|tb|both|rot180|rot90 (none: of the blockers), "
		       "palette=sampled|whole (sampled: first designs from sub-palettes), "
		       "shortcuts=tidy|all (tidy), check-nodes=N (1000000), rounds=N (300), "
		       "boards=N (200)",
	.size_help = "10x10",
	.flags = laser_gen_flags,
	.accepts = LK_GEN_ACCEPT(DIFFICULTY),
	.new_state = laser_new_state,
	.free_state = laser_free_state,
	.candidate = laser_candidate,
};
