/*
 * search_names.c - the names of the search algorithms and directions, as
 * options and output fields spell them, and the search result's lifecycle:
 * what a caller needs to ask for a search and read its answer, apart from
 * the search itself (search.c).
 */
#include "levelkit/search.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	bool optimal;
} algos[] = {
#define LK_X(id, name, optimal) { name, optimal },
	LK_ALGOS(LK_X)
#undef LK_X
};

const char *lk_algo_name(enum lk_algo algo)
{
	return algo < LK_ALGO_COUNT ? algos[algo].name : algo == LK_ALGO_AUTO ? "auto" : "?";
}

int lk_algo_parse(const char *name, enum lk_algo *algo)
{
	for (int i = 0; i < LK_ALGO_COUNT; i++) {
		if (strcmp(name, algos[i].name) == 0) {
			*algo = (enum lk_algo)i;
			return 0;
		}
	}
	if (strcmp(name, "auto") == 0) {
		*algo = LK_ALGO_AUTO;
		return 0;
	}
	return -1;
}

bool lk_algo_optimal(enum lk_algo algo)
{
	return algo < LK_ALGO_COUNT && algos[algo].optimal;
}

static const char *const direction_names[] = { "forward", "backward", "both" };

const char *lk_direction_name(enum lk_direction d)
{
	return d <= LK_BOTH ? direction_names[d] : "?";
}

int lk_direction_parse(const char *name, enum lk_direction *d)
{
	for (int i = 0; i <= LK_BOTH; i++) {
		if (strcmp(name, direction_names[i]) == 0) {
			*d = (enum lk_direction)i;
			return 0;
		}
	}
	return -1;
}

void lk_search_result_init(struct lk_search_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = LK_UNKNOWN;
}

void lk_search_result_release(struct lk_search_result *r)
{
	free(r->path);
	lk_search_result_init(r);
}
