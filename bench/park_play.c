/*
 * park_play.c - the parking plan of each Sokoban level of a file, and
 * whether it can be played push by push (src/games/sokoban/
 * sokoban_parkplay.c): one line a level, for the measurements of
 * docs/benchmarks.md (sections h38a, h39b and h40o) and issue 23.
 *
 * Usage: park_play FILE.xsb [--with NAME]... [--without NAME]... [--repair | --repair-held]
 *        [--shuffle] [--free] [--nudge N] [--free-positions N]
 *   Techniques as solve's --with/--without (e.g. playable-plan).  The plan
 *   is the one -a any builds, so mended where --with plan-repair asks
 *   (off by default; --without plan-repair gives the retrieval's own).
 *   --repair: also plan-repair's mending of the plan (sokoban_parkrepair.c):
 *   the plan's steps played push by push before and after it, the mended
 *   plan's steps, and the processor seconds the mending took; every plan
 *   that fails is mended (--repair-held: only those whose failing step
 *   finds its target holding a box, as the search mends them).
 *   --shuffle: also shuffle-plan's search for a prelude (sokoban_parkshuffle.c):
 *   the plan's steps played push by push before it and after the best
 *   prelude found, that prelude's box moves when it plays to the end (0:
 *   none kept), and the processor seconds the search took.
 *   --free: also the plan played order-free (sokoban_parkfree.c): the
 *   steps played in the plan's order with the player's floor pieces told
 *   apart (xplayed), then order-free keeping each goal area's order
 *   (fplayed) and in any order (aplayed), each with the positions
 *   expanded and processor seconds ('*' after the steps: played to the
 *   end; '+' after the positions: a bound stopped it).
 *   --nudge N: also order-free with at most N box moves between the steps
 *   (sokoban_parknudge.c), keeping the goal areas' order (nplayed) and in
 *   any order (naplayed), shown as --free's.
 *   --free-positions N: both searches' bound in positions (20,000); their
 *   bound in (box, player) pairs is 4e8.
 * Prints, tab-separated: record, steps, boxes parked (- when the level
 * gets no plan), the first step that cannot be played push by push (-1:
 * none), why (ok, no-box, target-held, unmoved: pushable only with the
 * boxes not moved yet lifted, blocked), that step's source and target
 * squares as row,column of the level's text, and the processor seconds
 * the plan took to build.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "levelkit/actions.h"
#include "levelkit/game.h"
#include "levelkit/record.h"
#include "levelkit/registry.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "../src/games/sokoban/sokoban_parkfree.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const fault_name[] = { "ok", "no-box", "target-held", "unmoved", "blocked" };

int main(int argc, char **argv)
{
	const char *on[32] = { 0 }, *off[32] = { 0 }, *path = NULL;
	int non = 0, noff = 0;
	bool repair = false, held_only = false, shuffle = false, freeplay = false;
	long fpos = 20000;
	int nudge = -1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--repair"))
			repair = true;
		else if (!strcmp(argv[i], "--shuffle"))
			shuffle = true;
		else if (!strcmp(argv[i], "--free"))
			freeplay = true;
		else if (!strcmp(argv[i], "--nudge") && i + 1 < argc)
			nudge = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--free-positions") && i + 1 < argc)
			fpos = atol(argv[++i]);
		else if (!strcmp(argv[i], "--repair-held"))
			repair = held_only = true;
		else if (!strcmp(argv[i], "--with") && i + 1 < argc && non < 31)
			on[non++] = argv[++i];
		else if (!strcmp(argv[i], "--without") && i + 1 < argc && noff < 31)
			off[noff++] = argv[++i];
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: park_play FILE.xsb [--with NAME]... [--without NAME]...\n");
		return 2;
	}
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_reader r;
	struct lk_record rec;
	size_t line;
	if (lk_input_open(&r, path, &err) < 0) {
		fprintf(stderr, "park_play: %s\n", err.buf);
		return 2;
	}
	lk_record_init(&rec);
	struct lk_level_options opt = { .metric = "pushes", .on = on, .off = off };
	printf("record\tsteps\tparked\tbreak\twhy\tfrom\tto\tcpu%s%s",
	       repair ? "\tplayed\tmended\tmsteps\tmcpu" : "",
	       shuffle ? "\tsplayed\tshuffled\tprelude\tscpu" : "");
	if (freeplay)
		printf("\txplayed\tfplayed\tfpos\tfcpu\taplayed\tapos\tacpu");
	if (nudge >= 0)
		printf("\tnplayed\tnpos\tncpu\tnaplayed\tnapos\tnacpu");
	printf("\n");
	int rc, record = 0;
	while ((rc = lk_reader_next(&r, &rec, &err, &line)) != 0) {
		if (rc == -2) {
			fprintf(stderr, "park_play: %s: %s\n", path, err.buf);
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
		double t0 = cpu_now();
		struct soko_plan plan;
		soko_plan_build(&plan, s, true, NULL);
		double t1 = cpu_now();
		const struct soko_park *p = plan.park;
		if (!p) {
			printf("%d\t-\t-\t-\t-\t-\t-\t%.2f\n", record, t1 - t0);
		} else {
			enum soko_play_fault why;
			int bad = soko_park_play(s, p, &why);
			printf("%d\t%d\t%d\t%d\t%s", record, p->nsteps, p->nparked, bad, fault_name[why]);
			if (bad >= 0) {
				int src = p->leaves[bad] != SOKO_NONE ? p->leaves[bad] : p->start[bad];
				int t = p->target[bad];
				/* the board is padded by one wall all round */
				printf("\t%d,%d\t%d,%d", src / s->width - 1, src % s->width - 1,
				       t / s->width - 1, t % s->width - 1);
			} else {
				printf("\t-\t-");
			}
			printf("\t%.2f", t1 - t0);
			if (repair) {
				int before, after;
				struct soko_park *q = soko_park_repair(s, p, NULL, held_only, &before, &after);
				printf("\t%d\t%d\t%d\t%.2f", before, after, q ? q->nsteps : p->nsteps,
				       cpu_now() - t1);
				soko_park_free(q);
			}
			if (shuffle) {
				double t2 = cpu_now();
				int before = p->nsteps, after = p->nsteps, moves = 0;
				struct soko_park *q = bad < 0 ? NULL :
					soko_park_shuffle(s, p, plan.doorway, NULL, &before, &after, &moves);
				printf("\t%d\t%d\t%d\t%.2f", before, after, moves, cpu_now() - t2);
				if (q && soko_park_play(s, q, NULL) >= 0)
					printf("\tBAD");   /* a kept prelude must play */
				soko_park_free(q);
			}
			if (freeplay) {
				/* the plan's order (pieces told apart), then order-free
				 * with the goal areas' order, then with none */
				for (int mode = 0; mode < 3; mode++) {
					struct soko_free_result fr = { .max_positions = fpos, .max_work = 4e8 };
					double t2 = cpu_now();
					bool full = soko_park_free_play(s, &plan, p, mode == 0, mode == 1, &fr);
					if (mode == 0)
						printf("\t%d", fr.played);
					else
						printf("\t%d%s\t%ld%s\t%.2f", fr.played, full ? "*" : "",
						       fr.positions, fr.stopped ? "+" : "", cpu_now() - t2);
					soko_free_result_release(&fr);
				}
			}
			for (int mode = 0; nudge >= 0 && mode < 2; mode++) {
				struct soko_free_result fr = { .max_positions = fpos, .max_work = 4e8 };
				double t2 = cpu_now();
				bool full = soko_park_nudge_play(s, &plan, p, mode == 0, nudge, &fr);
				printf("\t%d%s\t%ld%s\t%.2f", fr.played, full ? "*" : "",
				       fr.positions, fr.stopped ? "+" : "", cpu_now() - t2);
				soko_free_result_release(&fr);
			}
			printf("\n");
		}
		fflush(stdout);
		soko_plan_release(&plan);
		lk_level_free(level);
	}
	lk_record_release(&rec);
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	return 0;
}
