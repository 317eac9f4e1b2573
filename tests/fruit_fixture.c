/*
 * fruit_fixture.c - the Fruit Dating tests' shared helpers
 * (fruit_fixture.h): levels loaded from text, a bad level's message and
 * line checked, and a level solved by BFS, UCS and A*, which must agree.
 */
#include "fruit_fixture.h"

#include <stdio.h>
#include <string.h>

#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"
#include "test_records.h"

void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test.xsb", rec);
}

struct lk_level *load(const char *text)
{
	struct lk_level_options opt = { 0 };
	return test_load_level(text, &opt, "fruit");
}

/* Expect text to be rejected with a message containing want, on line. */
void expect_error(const char *text, const char *want, size_t want_line)
{
	struct lk_record rec;
	struct lk_level_options opt = { 0 };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line = 0;
	read_record(text, &rec);
	struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
	if (level)
		fail_msg("level loaded, expected error '%s':\n%s", want, text);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not contain '%s'", err.buf, want);
	assert_int_equal(line, want_line);
	lk_record_release(&rec);
	lk_strbuf_release(&err);
}

/* Solve with algo; returns the cost or -1 if proved unsolvable.  The
 * solution is formatted into sol (u/r/d/l) and replayed to a win. */
static long solve(const struct lk_level *level, enum lk_algo algo, char *sol, size_t solsz)
{
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	o.algo = algo;
	o.bounds.max_states = 2000000;
	lk_search_result_init(&r);
	lk_search(level, &o, &r);
	long cost = -1;
	if (r.status == LK_SOLVED) {
		struct lk_strbuf out = LK_STRBUF_INIT, err = LK_STRBUF_INIT;
		struct lk_solution_stats st;
		bool solved = false;
		assert_true(r.optimal);
		format_solution(level, r.path, r.nkeys, &out, &st);
		assert_int_equal(out.len, r.cost);
		assert_int_equal(st.moves, r.cost);
		assert_int_equal(strspn(out.buf, "urdl"), out.len);
		assert_int_equal(replay_stats(level, out.buf, &st, &solved, &err), 0);
		assert_true(solved);
		assert_int_equal(st.moves, r.cost);
		if (sol) {
			assert_true(out.len < solsz);
			memcpy(sol, out.buf, out.len + 1);
		}
		cost = (long)r.cost;
		lk_strbuf_release(&out);
		lk_strbuf_release(&err);
	} else {
		assert_int_equal(r.status, LK_UNSOLVABLE);
	}
	lk_search_result_release(&r);
	return cost;
}

/* BFS, UCS and A* agree on the cost (-1: proved unsolvable). */
long solve_all(const struct lk_level *level, char *sol, size_t solsz)
{
	long bfs = solve(level, LK_ALGO_BFS, sol, solsz);
	assert_int_equal(solve(level, LK_ALGO_UCS, NULL, 0), bfs);
	assert_int_equal(solve(level, LK_ALGO_ASTAR, NULL, 0), bfs);
	return bfs;
}
