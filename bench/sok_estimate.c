/*
 * sok_estimate.c - greedy search's estimate (the game's `estimate`: the
 * matching bound plus 4 per unfinished box) and the admissible heuristic
 * of the start position of each Sokoban level of a file, one line a level:
 * fed the positions along a peer solver's solution (bench/sok_prefix.py, one
 * record per prefix), it shows where the estimate must rise before it falls
 * again, the plateaus greedy best-first search stalls on (docs/benchmarks.md,
 * section h42c).
 *
 * Usage: sok_estimate FILE.xsb [TARGET.xsb]
 * Prints, tab-separated: record, estimate, heuristic (dead: the position is
 * proved dead), boxes, boxes on goals; with TARGET (a level of the same
 * board, e.g. one of the prefixes), also the estimate of greedy search
 * backwards from TARGET's solved position (its reversed level, whose goals
 * are TARGET's start squares) of each position: what the pull side of
 * greedy search reads on its way to TARGET.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "../src/games/sokoban/sokoban.h"

static void print_value(unsigned v)
{
	if (v == LK_H_DEAD)
		printf("\tdead");
	else
		printf("\t%u", v);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: sok_estimate FILE.xsb [TARGET.xsb]\n");
		return 2;
	}
	struct lk_level *target = NULL, *reversed = NULL;
	void *rscratch = NULL;
	struct lk_level_options opt = { .metric = "pushes" };
	if (argc == 3) {
		struct lk_strbuf e2 = LK_STRBUF_INIT;
		struct lk_reader tr;
		struct lk_record trec;
		size_t tline;
		if (lk_input_open(&tr, argv[2], &e2) < 0) {
			fprintf(stderr, "sok_estimate: %s\n", e2.buf);
			return 2;
		}
		lk_record_init(&trec);
		int got;
		while ((got = lk_reader_next(&tr, &trec, &e2, &tline)) != 0)
			if (got > 0 && lk_record_grid(&trec, NULL))
				break;
		target = got > 0 ? lk_level_load(&trec, &opt, &e2, &tline) : NULL;
		reversed = target && target->game->reverse_level ? target->game->reverse_level(target) : NULL;
		if (!reversed) {
			fprintf(stderr, "sok_estimate: %s: no reversed level\n", argv[2]);
			return 2;
		}
		rscratch = calloc(1, reversed->scratch_size);
		lk_record_release(&trec);
		lk_reader_close(&tr);
		lk_strbuf_release(&e2);
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_reader r;
	struct lk_record rec;
	size_t line;
	if (lk_input_open(&r, argv[1], &err) < 0) {
		fprintf(stderr, "sok_estimate: %s\n", err.buf);
		return 2;
	}
	lk_record_init(&rec);
	printf("record\testimate\theuristic\tboxes\tpacked%s\n", reversed ? "\tback" : "");
	int rc, record = 0;
	while ((rc = lk_reader_next(&r, &rec, &err, &line)) != 0) {
		if (rc == -2) {
			fprintf(stderr, "sok_estimate: %s: %s\n", argv[1], err.buf);
			return 2;
		}
		if (rc < 0 || !lk_record_grid(&rec, NULL))
			continue;
		record++;
		lk_strbuf_reset(&err);
		struct lk_level *level = lk_level_load(&rec, &opt, &err, &line);
		if (!level) {
			printf("%d\terror\n", record);
			continue;
		}
		const struct sokoban *s = (const struct sokoban *)level;
		unsigned char *key = calloc(1, level->key_size);
		void *scratch = calloc(1, level->scratch_size);
		level->game->initial_state(level, key);
		printf("%d", record);
		print_value(level->game->estimate ? level->game->estimate(level, key, scratch) : 0);
		print_value(level->game->heuristic(level, key, scratch));
		int boxes = 0, packed = 0;
		for (size_t i = 0; i < s->bitset_bytes; i++) {
			boxes += __builtin_popcount(s->box0[i]);
			packed += __builtin_popcount(s->box0[i] & s->goal_bits[i]);
		}
		printf("\t%d\t%d", boxes, packed);
		if (reversed) {
			if (reversed->key_size == level->key_size)
				print_value(reversed->game->estimate(reversed, key, rscratch));
			else
				printf("\t-");
		}
		printf("\n");
		free(key);
		free(scratch);
		lk_level_free(level);
	}
	lk_record_release(&rec);
	lk_reader_close(&r);
	free(rscratch);
	lk_level_free(reversed);
	lk_level_free(target);
	lk_strbuf_release(&err);
	return 0;
}
