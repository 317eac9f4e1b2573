/*
 * view_fixture.c - the view tests' shared helpers (view_fixture.h):
 * records read from text and from files, levels loaded from them, a
 * state's text, a record solved in a bounded search (greedy, or the
 * constraint solver), the fixtures' folder.
 */
#include "view_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/csp.h"
#include "levelkit/fields.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "levelkit/search.h"
#include "test_support.h"
#include "test_records.h"

/* ------------------------------------------------------------- helpers */

void read_record(const char *text, struct lk_record *rec)
{
	test_read_record(text, "test", rec);
}

/* Every level record of a file (records without a grid skipped). */
size_t read_file(const char *path, struct lk_record **out)
{
	struct lk_reader r;
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t n = 0, alloc = 0;
	*out = NULL;
	if (lk_reader_open(&r, path, &err) < 0)
		fail_msg("%s", err.buf);
	for (;;) {
		LK_ALLOC_GROW(*out, n + 1, alloc);
		lk_record_init(&(*out)[n]);
		int got = lk_reader_next(&r, &(*out)[n], NULL, NULL);
		if (got <= 0) {
			lk_record_release(&(*out)[n]);
			if (got == 0)
				break;
			continue;
		}
		if (lk_record_grid(&(*out)[n], NULL))
			n++;
		else
			lk_record_release(&(*out)[n]);
	}
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return n;
}

void free_records(struct lk_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lk_record_release(&recs[i]);
	free(recs);
}

struct lk_level *load(const struct lk_record *rec, const char *metric, bool plain)
{
	struct lk_level_options opt = { .metric = metric, .plain = plain };
	struct lk_strbuf err = LK_STRBUF_INIT;
	size_t line;
	struct lk_level *level = lk_level_load(rec, &opt, &err, &line);
	if (!level)
		fail_msg("cannot load: %s", err.buf);
	lk_strbuf_release(&err);
	return level;
}

char *state_text(const struct lk_level *level, const unsigned char *key)
{
	struct lk_strbuf out = LK_STRBUF_INIT;
	level->game->write_state(level, key, &out);
	return lk_strbuf_detach(&out, NULL);
}

/* Solve a record (greedy, bounded) and set its solution field. */
void solve_record(struct lk_record *rec)
{
	struct lk_level *level = load(rec, NULL, false);
	if (level->game->csp) {
		struct lk_csp_options co;
		struct lk_csp_result cr;
		lk_csp_options_init(&co);
		co.bounds.max_states = 100000;
		lk_csp_result_init(&cr);
		level->game->csp->solve(level, &co, &cr);
		lk_fields_csp_solve(rec, &cr);
		lk_csp_result_release(&cr);
	} else {
		struct lk_solver s;
		struct lk_search_options so = LK_SEARCH_OPTIONS_INIT;
		struct lk_search_result r;
		so.algo = LK_ALGO_GREEDY;
		so.bounds.max_states = 200000;
		lk_solver_init(&s);
		lk_search_result_init(&r);
		lk_solver_run(&s, level, &so, &r);
		lk_fields_solve(rec, level, &r);
		lk_search_result_release(&r);
		lk_solver_release(&s);
	}
	lk_level_free(level);
}

const char *levels_dir(void)
{
	return TEST_LEVELS_DIR;
}

char *path_of(const char *dir, const char *name)
{
	struct lk_strbuf p = LK_STRBUF_INIT;
	lk_strbuf_addf(&p, "%s/%s", dir, name);
	return lk_strbuf_detach(&p, NULL);
}
