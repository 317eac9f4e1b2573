/*
 * consumer.c - a program outside the levelkit tree that uses the installed
 * library, built by install_test.sh with pkg-config and with
 * find_package(levelkit): it reads a small pack through the record reader,
 * loads each Sokoban level and solves it with A*, and checks the answers
 * worked out by hand.  Exit status 0 when every answer is right.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include <levelkit/game.h>
#include <levelkit/record.h>
#include <levelkit/registry.h>
#include <levelkit/search.h>
#include <levelkit/strbuf.h>

/* Level 1: walk one square, then push the box two squares onto the goal:
 * 2 pushes, 3 moves, "rRR".  Level 2: the box is in a corner and can never
 * move, so the level is unsolvable. */
static const char pack[] =
	"; walk, then push twice\n"
	"#######\n"
	"#@ $ .#\n"
	"#######\n"
	"\n"
	"; the box is stuck in a corner\n"
	"#####\n"
	"#@ .#\n"
	"#$  #\n"
	"#####\n";

static const struct {
	const char *solvable, *solution;
	unsigned long pushes, moves;
} want[] = {
	{ "yes", "rRR", 2, 3 },
	{ "no", NULL, 0, 0 },
};

int main(void)
{
	FILE *fp = fmemopen((void *)pack, sizeof pack - 1, "r");
	if (!fp) {
		perror("consumer: fmemopen");
		return 2;
	}
	struct lk_reader reader;
	lk_reader_init_fp(&reader, fp, "pack");
	struct lk_record rec = LK_RECORD_INIT;
	struct lk_strbuf err = LK_STRBUF_INIT;
	int failures = 0, rc;
	size_t n = 0;
	while ((rc = lk_reader_next(&reader, &rec, &err, NULL)) != 0) {
		if (rc < 0 || n >= sizeof want / sizeof *want) {
			fprintf(stderr, "consumer: record %zu: %s\n", n + 1, rc < 0 ? err.buf : "unexpected");
			failures++;
			break;
		}
		struct lk_level_options lopt = { 0 };
		size_t line;
		struct lk_level *level = lk_level_load(&rec, &lopt, &err, &line);
		if (!level) {
			fprintf(stderr, "consumer: level %zu: %s\n", n + 1, err.buf);
			failures++;
			break;
		}
		struct lk_search_options sopt = LK_SEARCH_OPTIONS_INIT;
		sopt.bounds.max_states = 100000;
		struct lk_search_result r;
		lk_search_result_init(&r);
		lk_search(level, &sopt, &r);

		/* the solution's moves, labelled by the game */
		struct lk_moves moves;
		lk_moves_init(&moves, level);
		if (r.status == LK_SOLVED)
			lk_level_label(level, r.path, r.nkeys, &moves);
		unsigned long pushes = (unsigned long)lk_moves_count(&moves, "push");
		const char *solution = moves.text.buf;
		printf("level %zu: solvable %s, pushes %lu, moves %lu, solution %s\n", n + 1,
		       lk_status_name(r.status), pushes, moves.inputs, solution);
		if (strcmp(lk_status_name(r.status), want[n].solvable) != 0 ||
		    (want[n].solution && (strcmp(solution, want[n].solution) != 0 ||
					  pushes != want[n].pushes || moves.inputs != want[n].moves))) {
			fprintf(stderr, "consumer: level %zu: wrong answer\n", n + 1);
			failures++;
		}
		lk_moves_release(&moves);
		lk_search_result_release(&r);
		lk_level_free(level);
		n++;
	}
	if (n != sizeof want / sizeof *want) {
		fprintf(stderr, "consumer: read %zu levels, expected %zu\n", n,
			sizeof want / sizeof *want);
		failures++;
	}
	lk_record_release(&rec);
	lk_strbuf_release(&err);
	lk_reader_close(&reader);
	fclose(fp);
	return failures ? 1 : 0;
}
