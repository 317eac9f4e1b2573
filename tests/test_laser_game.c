/*
 * test_laser_game.c - the laser game through the game's members the commands
 * reach: lk_csp_rate through its csp members, the .lvl import, Refraction's
 * JSON levels (laser_json.c), the --tidy and concept hooks.
 */
#include "laser_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the game */

static void test_csp(void **state)
{
	(void)state;
	struct lk_record rec;
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_level_options lo = { 0 };
	size_t line;
	read_record(split_record, &rec);
	/* the registry's game, and the level it loads from the record */
	const struct lk_game *game = lk_game_find("laser");
	assert_non_null(game);
	assert_int_equal(game->validate(game, NULL, &rec, &lo, &err, &line), 0);
	struct lk_level *level = lk_level_load(&rec, &lo, &err, &line);
	assert_non_null(level);
	assert_ptr_equal(level->game, game);
	struct lk_laser *lv = (struct lk_laser *)level;
	struct lk_csp_options o;
	struct lk_csp_result r;
	lk_csp_options_init(&o);
	lk_csp_result_init(&r);
	o.count_limit = 100;
	game->csp->solve((struct lk_level *)lv, &o, &r);
	assert_int_equal(r.status, LK_SOLVED);
	assert_int_equal(r.solutions, 12);
	assert_true(r.exhausted);
	assert_true(r.solution.len > 0);
	assert_true(r.second.len > 0);
	bool valid = false;
	assert_int_equal(game->csp->verify((struct lk_level *)lv, r.solution.buf, &valid, &err), 0);
	assert_true(valid);
	assert_int_equal(game->csp->verify((struct lk_level *)lv, r.second.buf, &valid, &err), 0);
	assert_true(valid);
	assert_int_equal(game->csp->verify((struct lk_level *)lv, "1@4,2", &valid, &err), 0);
	assert_false(valid);
	struct lk_csp_rating rating;
	lk_csp_rate((struct lk_level *)lv, &o, 20, 5, &rating);
	assert_int_equal(rating.status, LK_SOLVED);
	assert_int_equal(rating.runs_solved, 20);
	assert_true(rating.mean >= 1);
	lk_csp_result_release(&r);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	lk_level_free(level);
}

/* The game's members the commands reach: the .lvl import, the --tidy
 * flag, the concept hook (forall and exists, all and tidy), the note of a
 * verified solution and the text drawing.  Expected answers are SPEC.md's
 * (combine: 13 tidy solutions, one with a single bender and no splitter). */
static void concept(const struct lk_level *level, const char *text, enum lk_quantifier q,
		    const char *const *flags, enum lk_truth want, const char *witness,
		    const char *facts)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse_concept(text, &err);
	assert_non_null(e);
	struct lk_csp_options o;
	struct lk_concept_result r;
	lk_csp_options_init(&o);
	o.flags = flags;
	lk_concept_result_init(&r);
	assert_int_equal(level->game->csp->concept(level, e, q, &o, &r, &err), 0);
	if (r.answer != want)
		fail_msg("%s: answer %d, expected %d", text, r.answer, want);
	assert_int_equal(r.solvable, LK_SOLVED);
	assert_string_equal(r.over, flags ? "tidy" : "all");
	assert_int_equal(r.has_witness, witness != NULL);
	if (witness) {
		assert_string_equal(r.witness.text.buf, witness);
		assert_string_equal(r.witness_facts.buf, facts);
	}
	lk_concept_result_release(&r);
	lk_expr_free(e);
	lk_strbuf_release(&err);
}

/* Refraction's JSON levels through the game's import hook (laser_json.c):
 * which files it claims, records with the file's line numbers, targets
 * on several sides merged, the designer's placement, and a level that
 * cannot be read kept in its place with the reason. */
static const char json_levels[] =
	"{\"level\": {\"data\": {\"pieces\": ["
	"{\"type\": \"source\", \"pos\": 5, \"output\": \"w\", \"value\": {\"num\": 1, \"den\": 4}},"
	"{\"type\": \"source\", \"pos\": 90, \"output\": \"n\", \"value\": {\"num\": 1, \"den\": 4}},"
	"{\"type\": \"source\", \"pos\": 37, \"output\": \"w\", \"value\": {\"num\": 1, \"den\": 2}},"
	/* one target on three sides: three entries on cell 30 */
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"n\"], \"value\": {\"num\": 1, \"den\": 1}},"
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"s\"], \"value\": {\"num\": 1, \"den\": 1}},"
	"{\"type\": \"target\", \"pos\": 30, \"inputs\": [\"e\"], \"value\": {\"num\": 1, \"den\": 1}},"
	/* distractors: on the designer's cell 0, fed from the wrong side;
	 * on the target's cell; and one without a cell */
	"{\"type\": \"bender\", \"pos\": 0, \"input\": \"n\", \"output\": \"e\", \"mobility\": \"movable\"},"
	/* the designer's bender turns the first source's beam down */
	"{\"type\": \"bender\", \"pos\": 0, \"input\": \"e\", \"output\": \"s\", \"mobility\": \"movable\"},"
	"{\"type\": \"bender\", \"pos\": 30, \"input\": \"s\", \"output\": \"e\", \"mobility\": \"movable\"},"
	"{\"type\": \"splitter\", \"input\": \"s\", \"outputs\": [\"e\", \"w\"], \"mobility\": \"movable\"}"
	"]}}, \"extra\": {\"lasers\": [{\"s\": 5, \"e\": 0}, {\"s\": 0, \"e\": 30}, {\"s\": 90, \"e\": 30},"
	"{\"s\": 37, \"e\": 30}]}}\n"
	"\n"
	"{\"level\": {\"data\": {\"pieces\": [{\"type\": \"source\", \"pos\": 100}]}}}\n"
	"[{\"pieces\": [{\"type\": \"blocker\", \"pos\": 5}]}]\n";

static void test_json(void **state)
{
	(void)state;
	const struct lk_game *game = lk_game_find("laser");
	static const char ps_like[] = "{\"name\": \"x\", \"source\": \"OBJECTS\"}\n";
	assert_true(game->import_probe(json_levels, strlen(json_levels)));
	assert_false(game->import_probe(ps_like, strlen(ps_like)));
	assert_false(game->import_probe(split_record, strlen(split_record)));
	assert_false(game->import_probe("[1, 2]\n", 7));
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	struct lk_strbuf err = LK_STRBUF_INIT, title = LK_STRBUF_INIT;
	assert_int_equal(game->import("dir/pack.jsonl", json_levels, strlen(json_levels), &recs, &nrecs,
				      &err, &line), 0);
	assert_int_equal(nrecs, 3);
	assert_string_equal(lk_record_title(&recs[0], &title), "pack 1");
	/* the target's three sides, one definition */
	assert_string_equal(lk_record_get(&recs[0], "fixed"), "D TGT NES> 1");
	/* a segment ends on cell 0 arriving on its E side: the designer's
	 * bender (line 2) stands there, not the one fed from N; the one on
	 * the target's cell stays in the tray */
	assert_string_equal(lk_record_get(&recs[0], "solution"), "2@0,0");
	assert_int_equal(recs[0].lines[0].lineno, 1);
	assert_int_equal(recs[1].first_lineno, 3);
	assert_int_equal(lk_laser_validate(&recs[0], &err, &line), 0);
	struct lk_laser *lv = lk_laser_new(&recs[0]);
	struct lk_laser_placement pl;
	struct lk_laser_eval ev;
	struct lk_strbuf msg = LK_STRBUF_INIT;
	assert_int_equal(lk_laser_placement_parse(lv, "2@0,0", &pl, NULL), 0);
	lk_laser_evaluate(lv, &pl, &ev, &msg);
	assert_true(ev.tidy);
	assert_string_equal(msg.buf, "target D (0,3): 1/4 + 1/2 + 1/4 = 1 of 1, satisfied\n");
	lk_strbuf_release(&msg);
	lk_laser_free(lv);
	/* a level that cannot be read: kept, validation says why and where */
	lk_strbuf_reset(&err);
	assert_int_equal(lk_laser_validate(&recs[1], &err, &line), -1);
	assert_string_equal(err.buf, "pieces[0]: \"pos\" is a cell from 0 to 99 (10 * row + column)");
	assert_int_equal(recs[1].lines[line].lineno, 3);
	assert_int_not_equal(lk_record_grid(&recs[1], NULL), 0);   /* not a pack header */
	/* an array on a line: its levels (a board of one blocker) */
	assert_int_equal(lk_laser_validate(&recs[2], &err, &line), 0);
	assert_int_equal(recs[2].first_lineno, 4);
	for (size_t i = 0; i < nrecs; i++)
		lk_record_release(&recs[i]);
	free(recs);
	lk_strbuf_release(&err);
	lk_strbuf_release(&title);
}

static void test_game_hooks(void **state)
{
	(void)state;
	const struct lk_game *game = lk_game_find("laser");
	char *text = data_file("combine.lvl");
	assert_non_null(text);
	assert_true(game->import_probe(text, strlen(text)));
	assert_false(game->import_probe(split_record, strlen(split_record)));
	struct lk_record *recs = NULL;
	size_t nrecs = 0, line = 0;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(game->import("dir/combine.lvl", text, strlen(text), &recs, &nrecs, &err, &line),
			 0);
	free(text);
	assert_int_equal(nrecs, 1);
	struct lk_strbuf title = LK_STRBUF_INIT;
	assert_string_equal(lk_record_title(&recs[0], &title), "combine");
	lk_strbuf_release(&title);
	struct lk_level_options lo = { 0 };
	struct lk_level *level = lk_level_load(&recs[0], &lo, &err, &line);
	assert_non_null(level);

	static const char *const tidy[] = { "tidy", NULL };
	struct lk_csp_options o;
	struct lk_csp_result r;
	lk_csp_options_init(&o);
	lk_csp_result_init(&r);
	o.count_limit = 100000;
	game->csp->solve(level, &o, &r);
	assert_int_equal(r.solutions, 17641);
	o.flags = tidy;
	game->csp->solve(level, &o, &r);
	assert_int_equal(r.solutions, 13);
	assert_true(r.exhausted);
	lk_csp_result_release(&r);

	concept(level, "count(bender) >= 2", LK_FORALL, tidy, LK_FALSE, "2@4,0", "count(bender) == 1");
	concept(level, "uses(splitter) || count(bender) == 1", LK_FORALL, tidy, LK_TRUE, NULL, NULL);
	concept(level, "!uses(splitter)", LK_EXISTS, NULL, LK_TRUE, "2@4,0", "uses(splitter) == 0");
	concept(level, "count(combiner) >= 2", LK_EXISTS, tidy, LK_FALSE, NULL, NULL);
	/* a fact the game does not know is an error, not an answer */
	struct lk_expr *e = lk_expr_parse_concept("uses(piston)", &err);
	struct lk_concept_result cr;
	lk_concept_result_init(&cr);
	lk_strbuf_reset(&err);
	assert_int_equal(game->csp->concept(level, e, LK_FORALL, &o, &cr, &err), -1);
	assert_true(err.len > 0);
	lk_concept_result_release(&cr);
	lk_expr_free(e);

	struct lk_strbuf note = LK_STRBUF_INIT, drawing = LK_STRBUF_INIT;
	game->csp->verify_note(level, "2@4,0", &note);
	assert_string_equal(note.buf, "target T (4,5): 1 of 1, satisfied; tidy");
	game->describe(level, "2@4,0", &drawing);
	assert_non_null(strstr(drawing.buf, "A---2.\n....|.\n....|.\n"));
	assert_non_null(strstr(drawing.buf, "beam: 1 from 4,0 heading S into T TGT at 4,5\n"));
	lk_strbuf_release(&note);
	lk_strbuf_release(&drawing);
	lk_level_free(level);
	lk_record_release(&recs[0]);
	free(recs);
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csp),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_game_hooks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
