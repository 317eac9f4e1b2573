/*
 * test_concept.c - the concept queries of state-space games (concept.h)
 * against independent truths:
 *
 *  - a brute-force enumerator: a Sokoban simulator of its own, written
 *    here, that walks every move sequence up to a length bound on tiny
 *    levels, stops each at its first solved position (where a solution
 *    ends), and judges each solution by a C predicate written apart from
 *    the concept's text.  The search's answer, its witness (replayed by
 *    the same simulator) and the witness's facts must agree with it;
 *  - Microban's push-optimal solutions: the fewest pushes any solution
 *    needs is the cost a DOWN-only count(push) turns into, so
 *    `count(push) >= P` must be required and `>= P + 1` must not, with a
 *    shortcut of exactly P pushes.
 *  - PuzzleScript's facts: in the demo microban.txt the one rule (line 84)
 *    fires on every push, so the fewest firings over all solutions of a
 *    level must equal the push-optimal solution of the same level in
 *    Microban's .xsb, found by the Sokoban solver.
 * The slide games' facts are checked end to end in cli_concept_test.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "levelkit/actions.h"
#include "levelkit/concept.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"

/* ------------------------------------------------------- loading levels */

static int read_record(FILE *fp, const char *name, struct lk_record *rec)
{
	struct lk_reader r;
	lk_reader_init_fp(&r, fp, name);
	lk_record_init(rec);
	int rc = lk_reader_next(&r, rec, NULL, NULL);
	lk_reader_close(&r);
	return rc;
}

static struct lk_level *load_text(const char *text)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	rewind(fp);
	struct lk_record rec;
	assert_int_equal(read_record(fp, "test.xsb", &rec), 1);
	fclose(fp);
	const struct lk_game *game = lk_game_find(lk_record_game(&rec));
	assert_non_null(game);
	struct lk_level_options o = lk_concept_level_options(game);
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	struct lk_level *level = lk_level_load(&rec, &o, &err, &line);
	if (!level)
		fail_msg("level did not load: %s\n%s", err.buf, text);
	lk_strbuf_release(&err);
	lk_record_release(&rec);
	return level;
}

/* Ask the query; the result in r (released by the caller). */
static void ask(const struct lk_level *level, const char *text, enum lk_quantifier q,
		struct lk_concept_result *r)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_expr *e = lk_expr_parse_concept(text, &err);
	if (!e)
		fail_msg("concept '%s' did not parse: %s", text, err.buf);
	if (lk_concept_check(level, e, &err) < 0)
		fail_msg("concept '%s' rejected: %s", text, err.buf);
	struct lk_solver s;
	lk_solver_init(&s);
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	so.bounds.max_states = 2000000;
	lk_concept_result_init(r);
	lk_concept_search(&s, level, e, q, &so, r);
	lk_solver_release(&s);
	lk_expr_free(e);
	lk_strbuf_release(&err);
}

/* ------------------------------------------- the brute-force Sokoban */

#define BF_MAXB 3
#define BF_MAXCELLS 128

struct bf_level {
	int w, h;
	char wall[BF_MAXCELLS], goal[BF_MAXCELLS];
	int player, nboxes, box[BF_MAXB];   /* boxes numbered in reading order */
};

static void bf_parse(const char *rows, struct bf_level *l)
{
	memset(l, 0, sizeof *l);
	int y = 0, x = 0;
	for (const char *p = rows;; p++) {
		if (*p == '\n' || !*p) {
			if (x > l->w)
				l->w = x;
			if (x)
				y++;
			x = 0;
			if (!*p)
				break;
			continue;
		}
		x++;
	}
	l->h = y;
	assert_true(l->w * l->h <= BF_MAXCELLS);
	for (int i = 0; i < l->w * l->h; i++)
		l->wall[i] = 1;
	y = x = 0;
	for (const char *p = rows; *p; p++) {
		if (*p == '\n') {
			y += x > 0;
			x = 0;
			continue;
		}
		int c = y * l->w + x++;
		l->wall[c] = *p == '#';
		l->goal[c] = *p == '.' || *p == '*' || *p == '+';
		if (*p == '@' || *p == '+')
			l->player = c;
		if (*p == '$' || *p == '*') {
			assert_true(l->nboxes < BF_MAXB);
			l->box[l->nboxes++] = c;
		}
	}
}

/* What the concepts below read of one solution. */
struct bf_facts {
	int length, pushes, box_pushes[BF_MAXB];
};

struct bf_pos {
	int player, box[BF_MAXB];
};

static int bf_box_at(const struct bf_level *l, const struct bf_pos *p, int c)
{
	for (int i = 0; i < l->nboxes; i++)
		if (p->box[i] == c)
			return i;
	return -1;
}

static int bf_solved(const struct bf_level *l, const struct bf_pos *p)
{
	for (int i = 0; i < l->nboxes; i++)
		if (!l->goal[p->box[i]])
			return 0;
	return 1;
}

/* One move d (0..3: u d l r); the box pushed (or -1) in *pushed; 0 if the
 * move is blocked. */
static int bf_move(const struct bf_level *l, struct bf_pos *p, int d, int *pushed)
{
	static const int dx[] = { 0, 0, -1, 1 }, dy[] = { -1, 1, 0, 0 };
	int x = p->player % l->w, y = p->player / l->w;
	int nx = x + dx[d], ny = y + dy[d];
	if (nx < 0 || ny < 0 || nx >= l->w || ny >= l->h || l->wall[ny * l->w + nx])
		return 0;
	int c = ny * l->w + nx, b = bf_box_at(l, p, c);
	*pushed = b;
	if (b >= 0) {
		int bx = nx + dx[d], by = ny + dy[d];
		if (bx < 0 || by < 0 || bx >= l->w || by >= l->h)
			return 0;
		int bc = by * l->w + bx;
		if (l->wall[bc] || bf_box_at(l, p, bc) >= 0)
			return 0;
		p->box[b] = bc;
	}
	p->player = c;
	return 1;
}

/* Replay a LURD solution; 1 when it is legal and ends solved (and not
 * before), its facts in f. */
static int bf_replay(const struct bf_level *l, const char *moves, struct bf_facts *f)
{
	struct bf_pos p = { .player = l->player };
	memcpy(p.box, l->box, sizeof p.box);
	memset(f, 0, sizeof *f);
	for (const char *m = moves; *m; m++) {
		const char *at = strchr("udlr", *m >= 'A' && *m <= 'Z' ? *m - 'A' + 'a' : *m);
		if (!at || bf_solved(l, &p))
			return 0;
		int pushed;
		if (!bf_move(l, &p, (int)(at - "udlr"), &pushed))
			return 0;
		f->length++;
		if (pushed >= 0) {
			f->pushes++;
			f->box_pushes[pushed]++;
		}
	}
	return bf_solved(l, &p);
}

typedef int (*bf_pred)(const struct bf_facts *f);

struct bf_tally {
	bf_pred pred;
	int violating, satisfying;  /* solutions of length <= the bound */
	int min_pushes;             /* over every solution found, -1: none */
};

static void bf_walk(const struct bf_level *l, struct bf_pos *p, struct bf_facts *f, int depth,
		    struct bf_tally *t)
{
	if (bf_solved(l, p)) {
		if (t->pred(f))
			t->satisfying++;
		else
			t->violating++;
		if (t->min_pushes < 0 || f->pushes < t->min_pushes)
			t->min_pushes = f->pushes;
		return;
	}
	if (depth == 0)
		return;
	for (int d = 0; d < 4; d++) {
		struct bf_pos next = *p;
		int pushed;
		if (!bf_move(l, &next, d, &pushed))
			continue;
		f->length++;
		if (pushed >= 0) {
			f->pushes++;
			f->box_pushes[pushed]++;
		}
		bf_walk(l, &next, f, depth - 1, t);
		f->length--;
		if (pushed >= 0) {
			f->pushes--;
			f->box_pushes[pushed]--;
		}
	}
}

/* ------------------------------------------------ concepts, twice over */

static int at_least_3_pushes(const struct bf_facts *f) { return f->pushes >= 3; }
static int uses_box_2(const struct bf_facts *f) { return f->box_pushes[1] > 0; }
static int avoids_box_2(const struct bf_facts *f) { return f->box_pushes[1] == 0; }
static int at_most_6_moves(const struct bf_facts *f) { return f->length <= 6; }
static int few_pushes_and_box_1(const struct bf_facts *f)
{
	return f->pushes <= 4 && f->box_pushes[0] > 0;
}
static int box_1_twice_or_long(const struct bf_facts *f)
{
	return f->box_pushes[0] >= 2 || f->length > 9;
}
static int exactly_2_pushes(const struct bf_facts *f) { return f->pushes == 2; }

static const struct {
	const char *text;
	bf_pred pred;
} concepts[] = {
	{ "count(push) >= 3", at_least_3_pushes },
	{ "uses(box 2)", uses_box_2 },
	{ "!uses(box 2)", avoids_box_2 },
	{ "length <= 6", at_most_6_moves },
	{ "pushes <= 4 && uses(box 1)", few_pushes_and_box_1 },
	{ "count(box 1) >= 2 || length > 9", box_1_twice_or_long },
	{ "count(push) == 2", exactly_2_pushes },
};

/* Tiny levels (each with two boxes, so every concept above applies),
 * small enough that every solution up to the bound can be walked. */
static const char *const tiny_levels[] = {
	"#######\n"
	"#@$ . #\n"
	"#  *  #\n"
	"#######\n",

	"######\n"
	"#@   #\n"
	"# $* #\n"
	"#  . #\n"
	"######\n",

	"#####\n"
	"#.@ #\n"
	"#$$ #\n"
	"#. ##\n"
	"####\n",

	"######\n"
	"#.$@ #\n"
	"# $  #\n"
	"#.   #\n"
	"######\n",
};

#define BF_DEPTH 12

/* The search agrees with the enumerator: a violating solution within the
 * bound means no proof; a proof means none; a shortcut replays as a
 * solution that violates the concept (found by the walk when short enough). */
static void check_level_concept(const char *rows, const char *text, bf_pred pred,
				enum lk_quantifier q)
{
	struct bf_level bl;
	bf_parse(rows, &bl);
	struct bf_pos start = { .player = bl.player };
	memcpy(start.box, bl.box, sizeof start.box);
	struct bf_facts f = { 0 };
	struct bf_tally t = { .pred = pred, .min_pushes = -1 };
	bf_walk(&bl, &start, &f, BF_DEPTH, &t);

	char record[512];
	snprintf(record, sizeof record, "game: sokoban\n%s", rows);
	struct lk_level *level = load_text(record);
	struct lk_concept_result r;
	ask(level, text, q, &r);
	int against = q == LK_FORALL ? t.violating : t.satisfying;
	if (getenv("CONCEPT_DEBUG"))   /* what each case compared, to read by eye */
		fprintf(stderr, "%-34s %s violating=%d satisfying=%d answer=%d witness=%s [%s]\n",
			text, q == LK_FORALL ? "forall" : "exists", t.violating, t.satisfying,
			r.answer, r.has_witness ? r.witness.text.buf : "-",
			r.witness_facts.buf ? r.witness_facts.buf : "");
	/* forall: TRUE means no violating solution; exists: FALSE means no
	 * satisfying one. */
	int none = q == LK_FORALL ? r.answer == LK_TRUE : r.answer == LK_FALSE;
	if (none && against)
		fail_msg("'%s' (%s): the search found none, the walk %d within %d moves on\n%s",
			 text, q == LK_FORALL ? "forall" : "exists", against, BF_DEPTH, rows);
	if (t.min_pushes >= 0)
		assert_int_equal(r.solvable, LK_SOLVED);
	if (!none) {
		assert_true(r.has_witness);
		struct bf_facts wf;
		if (!bf_replay(&bl, r.witness.text.buf, &wf))
			fail_msg("witness '%s' of '%s' is no solution of\n%s", r.witness.text.buf, text,
				 rows);
		int sat = pred(&wf);
		assert_int_equal(sat, q == LK_EXISTS);
		if (wf.length <= BF_DEPTH)
			assert_true(against > 0);
	}
	lk_concept_result_release(&r);
	lk_level_free(level);
}

static void test_brute_force(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof tiny_levels / sizeof *tiny_levels; i++)
		for (size_t c = 0; c < sizeof concepts / sizeof *concepts; c++) {
			check_level_concept(tiny_levels[i], concepts[c].text, concepts[c].pred,
					    LK_FORALL);
			check_level_concept(tiny_levels[i], concepts[c].text, concepts[c].pred,
					    LK_EXISTS);
		}
}

/* The fewest pushes of a shortcut equals the enumerator's fewest pushes
 * (levels whose push-fewest solution is short). */
static void test_fewest_pushes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof tiny_levels / sizeof *tiny_levels; i++) {
		struct bf_level bl;
		bf_parse(tiny_levels[i], &bl);
		struct bf_pos start = { .player = bl.player };
		memcpy(start.box, bl.box, sizeof start.box);
		struct bf_facts f = { 0 };
		struct bf_tally t = { .pred = at_least_3_pushes, .min_pushes = -1 };
		bf_walk(&bl, &start, &f, BF_DEPTH, &t);
		if (t.min_pushes < 0)
			continue;
		char record[512], concept[64];
		snprintf(record, sizeof record, "game: sokoban\n%s", tiny_levels[i]);
		snprintf(concept, sizeof concept, "count(push) >= %d", t.min_pushes + 1);
		struct lk_level *level = load_text(record);
		struct lk_concept_result r;
		ask(level, concept, LK_FORALL, &r);
		assert_int_equal(r.answer, LK_FALSE);
		struct bf_facts wf;
		assert_true(bf_replay(&bl, r.witness.text.buf, &wf));
		assert_int_equal(wf.pushes, t.min_pushes);
		lk_concept_result_release(&r);
		lk_level_free(level);
	}
}

/* Hand-worked: in a corridor the box is pushed exactly twice, the player
 * may step back and forth in between (so length has no upper bound). */
static void test_corridor(void **state)
{
	(void)state;
	struct lk_level *level = load_text("game: sokoban\n#######\n#@$ . #\n#######\n");
	struct lk_concept_result r;
	ask(level, "count(push) >= 2", LK_FORALL, &r);
	assert_int_equal(r.answer, LK_TRUE);
	assert_int_equal(r.solvable, LK_SOLVED);
	lk_concept_result_release(&r);
	ask(level, "count(push) >= 3", LK_FORALL, &r);
	assert_int_equal(r.answer, LK_FALSE);
	assert_string_equal(r.witness.text.buf, "RR");
	assert_string_equal(r.witness_facts.buf, "count(push) == 2");
	lk_concept_result_release(&r);
	ask(level, "count(push) >= 3", LK_EXISTS, &r);
	assert_int_equal(r.answer, LK_FALSE);
	lk_concept_result_release(&r);
	ask(level, "length <= 6", LK_FORALL, &r);
	assert_int_equal(r.answer, LK_FALSE);
	assert_int_equal(strlen(r.witness.text.buf), 8);   /* the shortest over 6 */
	lk_concept_result_release(&r);
	lk_level_free(level);
}

/* A level with no solution: every solution (there is none) satisfies
 * anything; no solution exists that does. */
static void test_unsolvable(void **state)
{
	(void)state;
	struct lk_level *level = load_text("game: sokoban\n#####\n#@$.#\n#$  #\n#.  #\n#####\n");
	struct lk_concept_result r;
	ask(level, "count(push) >= 100", LK_FORALL, &r);
	if (r.solvable == LK_UNSOLVABLE) {
		assert_int_equal(r.answer, LK_TRUE);
		lk_concept_result_release(&r);
		ask(level, "count(push) >= 0", LK_EXISTS, &r);
		assert_int_equal(r.answer, LK_FALSE);
	}
	lk_concept_result_release(&r);
	lk_level_free(level);
}

/* ------------------------------------------------- Microban, push-optimal */

static FILE *open_data(const char *name)
{
	const char *data = getenv("LEVELKIT_DATA");
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", data && *data ? data : "../shared/data", name);
	return fopen(path, "r");
}

/* The push-optimal solver (the pushes metric) gives P; the concept search
 * over the move graph must prove count(push) >= P and refute P + 1 with a
 * shortcut of P pushes that replays. */
/* The pushes of a push-optimal solution of a Sokoban record (the solver
 * under the pushes metric). */
static long push_optimal(const struct lk_record *rec)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level_options po = { .metric = "pushes" };
	struct lk_level *pl = lk_level_load(rec, &po, &err, &line);
	assert_non_null(pl);
	struct lk_solver s;
	lk_solver_init(&s);
	struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
	so.bounds.max_states = 2000000;
	struct lk_search_result sr;
	lk_search_result_init(&sr);
	lk_solver_run(&s, pl, &so, &sr);
	lk_solver_release(&s);
	assert_int_equal(sr.status, LK_SOLVED);
	struct lk_moves m;
	lk_moves_init(&m, pl);
	lk_level_label(pl, sr.path, sr.nkeys, &m);
	long pushes = (long)lk_moves_count(&m, "push");
	lk_moves_release(&m);
	lk_search_result_release(&sr);
	lk_level_free(pl);
	lk_strbuf_release(&err);
	return pushes;
}

static void test_microban_pushes(void **state)
{
	(void)state;
	FILE *fp = open_data("sokoban/microban.xsb");
	if (!fp)
		skip();
	struct lk_reader rd;
	lk_reader_init_fp(&rd, fp, "microban.xsb");
	struct lk_record rec;
	lk_record_init(&rec);
	int checked = 0;
	while (checked < 12 && lk_reader_next(&rd, &rec, NULL, NULL) == 1) {
		struct lk_strbuf err = LK_STRBUF_INIT;
		size_t line;
		long p = push_optimal(&rec);

		struct lk_level_options co = lk_concept_level_options(lk_game_find("sokoban"));
		struct lk_level *level = lk_level_load(&rec, &co, &err, &line);
		assert_non_null(level);
		char concept[64];
		struct lk_concept_result r;
		snprintf(concept, sizeof concept, "count(push) >= %ld", p);
		ask(level, concept, LK_FORALL, &r);
		assert_int_equal(r.answer, LK_TRUE);
		lk_concept_result_release(&r);
		snprintf(concept, sizeof concept, "count(push) >= %ld", p + 1);
		ask(level, concept, LK_FORALL, &r);
		assert_int_equal(r.answer, LK_FALSE);
		char want[64];
		snprintf(want, sizeof want, "count(push) == %ld", p);
		assert_string_equal(r.witness_facts.buf, want);
		struct lk_moves wm;
		lk_moves_init(&wm, level);
		bool solved = false;
		assert_int_equal(level->game->replay(level, r.witness.text.buf, &wm, &solved, &err), 0);
		assert_true(solved);
		assert_int_equal(lk_moves_count(&wm, "push"), (uint64_t)p);
		lk_moves_release(&wm);
		lk_concept_result_release(&r);
		lk_level_free(level);
		lk_strbuf_release(&err);
		lk_record_release(&rec);
		lk_record_init(&rec);
		checked++;
	}
	lk_record_release(&rec);
	lk_reader_close(&rd);
	fclose(fp);
	assert_int_equal(checked, 12);
}

/* Push-optimal pushes of the first n levels of Microban's .xsb. */
static void microban_pushes(long *pushes, int n)
{
	FILE *fp = open_data("sokoban/microban.xsb");
	assert_non_null(fp);
	struct lk_reader rd;
	lk_reader_init_fp(&rd, fp, "microban.xsb");
	struct lk_record rec;
	lk_record_init(&rec);
	for (int i = 0; i < n && lk_reader_next(&rd, &rec, NULL, NULL) == 1; i++) {
		pushes[i] = push_optimal(&rec);
		lk_record_release(&rec);
		lk_record_init(&rec);
	}
	lk_record_release(&rec);
	lk_reader_close(&rd);
	fclose(fp);
}

static void test_puzzlescript_rule_facts(void **state)
{
	(void)state;
	const char *data = getenv("LEVELKIT_DATA");
	char path[1024];
	snprintf(path, sizeof path, "%s/puzzlescript/games/microban.txt",
		 data && *data ? data : "../shared/data");
	FILE *probe = fopen(path, "r");
	if (!probe)
		skip();
	fclose(probe);
	enum { N = 5 };
	long pushes[N];
	microban_pushes(pushes, N);
	struct lk_reader rd;
	struct lk_strbuf err = LK_STRBUF_INIT;
	assert_int_equal(lk_input_open(&rd, path, &err), 0);
	struct lk_record rec;
	lk_record_init(&rec);
	int checked = 0;
	while (checked < N && lk_reader_next(&rd, &rec, NULL, NULL) == 1) {
		size_t line;
		const struct lk_game *game = lk_game_find(lk_record_game(&rec));
		struct lk_level_options co = lk_concept_level_options(game);
		struct lk_level *level = lk_level_load(&rec, &co, &err, &line);
		if (!level)
			fail_msg("%s", err.buf);
		struct lk_concept_result r;
		char concept[64], want[64];
		snprintf(concept, sizeof concept, "count(rule 84) >= %ld", pushes[checked] + 1);
		ask(level, concept, LK_FORALL, &r);
		assert_int_equal(r.answer, LK_FALSE);
		snprintf(want, sizeof want, "count(rule 84) == %ld", pushes[checked]);
		assert_string_equal(r.witness_facts.buf, want);
		/* the witness replays, and a crate moved on each firing */
		struct lk_moves m;
		lk_moves_init(&m, level);
		bool solved = false;
		assert_int_equal(level->game->replay(level, r.witness.text.buf, &m, &solved, &err), 0);
		assert_true(solved);
		assert_int_equal(lk_moves_count(&m, "rule 84"), (uint64_t)pushes[checked]);
		assert_int_equal(lk_moves_count(&m, "move crate"), (uint64_t)pushes[checked]);
		lk_moves_release(&m);
		lk_concept_result_release(&r);
		snprintf(concept, sizeof concept, "count(rule 84) >= %ld", pushes[checked]);
		ask(level, concept, LK_FORALL, &r);
		assert_int_equal(r.answer, LK_TRUE);
		lk_concept_result_release(&r);
		lk_level_free(level);
		lk_record_release(&rec);
		lk_record_init(&rec);
		checked++;
	}
	assert_int_equal(checked, N);
	lk_record_release(&rec);
	lk_reader_close(&rd);
	lk_strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corridor),
		cmocka_unit_test(test_unsolvable),
		cmocka_unit_test(test_brute_force),
		cmocka_unit_test(test_fewest_pushes),
		cmocka_unit_test(test_microban_pushes),
		cmocka_unit_test(test_puzzlescript_rule_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
