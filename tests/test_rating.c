/*
 * test_rating.c - tests of the rating (rating.h):
 *
 *  - the model: never below 0, never falling when a feature grows (every
 *    weight >= 0, so a bound on a feature is a bound on the rating), a
 *    lower bound from bounded features at most the rating of any values
 *    they allow, an absent feature counted at its typical value;
 *  - families of hand-made levels that only get harder (the same room with
 *    one box more, the same corridor one push longer): ratings rise;
 *  - bounded levels: rated with a state bound too small to solve them, a
 *    level gets a lower bound (`>= X`) that is at most its rating without
 *    the bound, and a grade that is a bound;
 *  - the fields: explain's shares add up to the rating; an unsolvable
 *    level has no rating.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/difficulty.h"
#include "levelkit/fields.h"
#include "levelkit/game.h"
#include "levelkit/rating.h"
#include "levelkit/registry.h"
#include "levelkit/record.h"
#include "test_records.h"

static void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

static struct lk_level *load(const struct lk_record *rec)
{
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		fail_msg("level did not load: %s", err.buf);
	lk_strbuf_release(&err);
	return level;
}

/* Rate a level as rate does (default options but runs and bounds) and
 * write its fields into rec. */
static void rate_record(struct lk_solver *s, struct lk_record *rec, uint64_t max_states,
			unsigned runs, struct lk_score *score)
{
	struct lk_level *level = load(rec);
	struct lk_rate_options o;
	struct lk_rating r;
	lk_rate_options_init(&o);
	o.search.bounds.max_states = max_states;
	o.search.bounds.max_seconds = 20;
	o.runs = runs;
	lk_rating_init(&r);
	lk_rate(s, level, &o, &r);
	lk_fields_rating(rec, level, &r);
	struct lk_feature_options fo = { o.search, o.seed, 0 };
	lk_fields_rate_level(rec, s, level, &r, &fo, LK_RATE_EXPLAIN);
	if (score) {
		/* the same again, unrounded */
		struct lk_features f;
		lk_features_compute(s, level, &r, &fo, &f);
		lk_score(&f, r.optimal.status == LK_SOLVED, score);
	}
	lk_rating_release(&r);
	lk_level_free(level);
}

/* The rating field: its value and whether it is a bound; false if none. */
static bool rating_of(const struct lk_record *rec, double *v, bool *bound)
{
	const char *s = lk_record_get(rec, "rating");
	if (!s || strcmp(s, "unknown") == 0)
		return false;
	*bound = strncmp(s, ">= ", 3) == 0;
	*v = atof(*bound ? s + 3 : s);
	return true;
}

/* A level's rating, unrounded; the field must agree with it. */
static double rate_text(struct lk_solver *s, const char *text)
{
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_score score;
	double v = -1;
	bool bound = true;
	read_record(text, &rec);
	rate_record(s, &rec, 0, 50, &score);
	assert_true(rating_of(&rec, &v, &bound));
	assert_false(bound);
	assert_int_equal(score.how, LK_KNOWN_EXACT);
	assert_true(fabs(score.rating - v) <= 0.05 + 1e-9);
	lk_record_release(&rec);
	return score.rating;
}

/* ------------------------------------------------------------ the model */

static void all_exact(struct lk_features *f, double v)
{
	lk_features_init(f);
	for (int i = 0; i < LK_F_FIRST_GRAPH; i++)
		lk_feature_set(f, (enum lk_feature)i, LK_KNOWN_EXACT, v);
}

static void test_model_monotone(void **state)
{
	(void)state;
	struct lk_features f;
	struct lk_score s;
	/* nothing below 0 */
	all_exact(&f, 0);
	lk_score(&f, true, &s);
	assert_int_equal(s.how, LK_KNOWN_EXACT);
	assert_true(s.rating >= 0);
	/* each feature alone growing never lowers the rating, and some do
	 * raise it */
	int raising = 0;
	for (int i = 0; i < LK_F_FIRST_GRAPH; i++) {
		double prev = -1;
		for (double v = 0; v < 1e6; v = v * 3 + 1) {
			all_exact(&f, 5);
			lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_EXACT, v);
			lk_score(&f, true, &s);
			assert_true(s.rating >= prev - 1e-9);
			if (prev >= 0 && s.rating > prev + 1e-9 && v > 5)
				raising += lk_feature_in_model((enum lk_feature)i);
			prev = s.rating;
		}
	}
	assert_true(raising >= 3);
}

static void test_model_bounds(void **state)
{
	(void)state;
	struct lk_features f;
	struct lk_score exact, bound;
	for (int i = 0; i < LK_F_FIRST_GRAPH; i++) {
		if (!lk_feature_in_model((enum lk_feature)i))
			continue;
		/* a lower bound of a feature: a lower bound of the rating, at
		 * most the rating of any value at or above it */
		all_exact(&f, 40);
		lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_AT_LEAST, 40);
		lk_score(&f, true, &bound);
		assert_int_equal(bound.how, LK_KNOWN_AT_LEAST);
		for (double v = 40; v < 1e6; v *= 4) {
			all_exact(&f, 40);
			lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_EXACT, v);
			lk_score(&f, true, &exact);
			assert_int_equal(exact.how, LK_KNOWN_EXACT);
			assert_true(bound.rating <= exact.rating + 1e-9);
		}
		/* unknown, or an upper bound: the least it could be */
		all_exact(&f, 40);
		lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_NOT, 0);
		lk_score(&f, true, &bound);
		assert_int_equal(bound.how, LK_KNOWN_AT_LEAST);
		assert_true(bound.rating <= exact.rating + 1e-9);
		lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_AT_MOST, 40);
		lk_score(&f, true, &bound);
		assert_int_equal(bound.how, LK_KNOWN_AT_LEAST);
		/* absent (the game has none): typical, and still exact */
		lk_feature_set(&f, (enum lk_feature)i, LK_KNOWN_ABSENT, 0);
		lk_score(&f, true, &bound);
		assert_int_equal(bound.how, LK_KNOWN_EXACT);
		assert_true(bound.assumed[i]);
	}
	/* no solution known and nothing bounded: no rating */
	lk_features_init(&f);
	lk_score(&f, false, &bound);
	assert_int_equal(bound.how, LK_KNOWN_NOT);
}

/* ------------------------------------------------------------ families */

/* The same room with one box (and goal) more each time: each level needs
 * what the one before did and more. */
static const char *const more_boxes[] = {
	"########\n#      #\n# $  . #\n#  @   #\n#      #\n#      #\n########\n",
	"########\n#      #\n# $  . #\n#  @   #\n# $  . #\n#      #\n########\n",
	"########\n#  .   #\n# $  . #\n#  @ $ #\n# $  . #\n#      #\n########\n",
	"########\n#  .   #\n# $  . #\n# $@ $ #\n# $  . #\n#   .  #\n########\n",
};

/* The same corridor, the box one cell further from its goal each time. */
static const char *const longer[] = {
	"##########\n#@$.     #\n##########\n",
	"##########\n#@$ .    #\n##########\n",
	"##########\n#@$  .   #\n##########\n",
	"##########\n#@$   .  #\n##########\n",
	"##########\n#@$    . #\n##########\n",
};

static void family(const char *const *levels, size_t n)
{
	struct lk_solver s;
	lk_solver_init(&s);
	double prev = -1;
	for (size_t i = 0; i < n; i++) {
		double v = rate_text(&s, levels[i]);
		if (v <= prev)
			fail_msg("level %zu of the family rates %.2f, not above %.2f", i, v, prev);
		prev = v;
	}
	lk_solver_release(&s);
}

static void test_family_more_boxes(void **state)
{
	(void)state;
	family(more_boxes, sizeof more_boxes / sizeof more_boxes[0]);
}

static void test_family_longer(void **state)
{
	(void)state;
	family(longer, sizeof longer / sizeof longer[0]);
}

/* ------------------------------------------------------------ bounds */

/* Levels that take more than a handful of states to solve. */
static const char *const bounded_levels[] = {
	"########\n#  .   #\n# $  . #\n# $@ $ #\n# $  . #\n#   .  #\n########\n",
	/* Boxoban hard 0 (levels/boxoban-hard-sample.xsb, Apache-2.0) */
	"##########\n######## #\n#######  #\n#######$ #\n#######  #\n######. .#\n###### $.#\n"
	"#####  #$#\n#####. $@#\n##########\n",
	/* Microban 2 */
	"######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######\n",
};

static void test_bounded_levels(void **state)
{
	(void)state;
	struct lk_solver s;
	lk_solver_init(&s);
	for (size_t i = 0; i < sizeof bounded_levels / sizeof bounded_levels[0]; i++) {
		struct lk_record free_rec = LK_RECORD_INIT, tight = LK_RECORD_INIT;
		double v = 0, b = 0;
		bool vb = true, bb = false;
		read_record(bounded_levels[i], &free_rec);
		read_record(bounded_levels[i], &tight);
		rate_record(&s, &free_rec, 0, 10, NULL);
		rate_record(&s, &tight, 3, 10, NULL);
		assert_true(rating_of(&free_rec, &v, &vb));
		assert_false(vb);
		const char *solvable = lk_record_get(&tight, "solvable");
		assert_non_null(solvable);
		assert_string_equal(solvable, "unknown");
		if (rating_of(&tight, &b, &bb)) {
			assert_true(bb);
			assert_true(b <= v + 1e-9);
			const char *g = lk_record_get(&tight, "grade");
			assert_non_null(g);
			assert_true(strncmp(g, ">= ", 3) == 0 || strcmp(g, "unknown") == 0 ||
				    strcmp(g, "extreme") == 0);
		} else {
			assert_string_equal(lk_record_get(&tight, "rating"), "unknown");
		}
		lk_record_release(&free_rec);
		lk_record_release(&tight);
	}
	lk_solver_release(&s);
}

/* ------------------------------------------------------------ fields */

static void test_explain_adds_up(void **state)
{
	(void)state;
	struct lk_solver s;
	lk_solver_init(&s);
	for (size_t i = 0; i < sizeof more_boxes / sizeof more_boxes[0]; i++) {
		struct lk_record rec = LK_RECORD_INIT;
		double v = 0, sum = 0;
		bool bound = true;
		read_record(more_boxes[i], &rec);
		rate_record(&s, &rec, 0, 20, NULL);
		assert_true(rating_of(&rec, &v, &bound));
		const char *e = lk_record_get(&rec, "explain");
		assert_non_null(e);
		/* "name value unit +1.23; ..." : the signed numbers are the shares */
		for (const char *p = e; (p = strpbrk(p, "+-")) != NULL; p++) {
			if (p > e && p[-1] == ' ')
				sum += atof(p);
		}
		assert_true(fabs(sum - v) < 0.05 + 0.005 * LK_F_COUNT);
		lk_record_release(&rec);
	}
	lk_solver_release(&s);
}

static void test_unsolvable_no_rating(void **state)
{
	(void)state;
	struct lk_solver s;
	struct lk_record rec = LK_RECORD_INIT;
	lk_solver_init(&s);
	/* the second box stands in a corner off its goal */
	read_record("######\n#@$. #\n#   .#\n#$   #\n######\n", &rec);
	rate_record(&s, &rec, 0, 10, NULL);
	assert_string_equal(lk_record_get(&rec, "solvable"), "no");
	assert_null(lk_record_get(&rec, "rating"));
	assert_null(lk_record_get(&rec, "grade"));
	lk_record_release(&rec);
	lk_solver_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_monotone),
		cmocka_unit_test(test_model_bounds),
		cmocka_unit_test(test_family_more_boxes),
		cmocka_unit_test(test_family_longer),
		cmocka_unit_test(test_bounded_levels),
		cmocka_unit_test(test_explain_adds_up),
		cmocka_unit_test(test_unsolvable_no_rating),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	lk_game_defs_release();
	return rc;
}
