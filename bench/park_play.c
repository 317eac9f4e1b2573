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
 *   any order (naplayed), shown as --free's; with --routes-free a step
 *   may move any box whose route is not finished (the boxes swap routes).
 *   --order: also the plan's packing order on stderr, one line a level:
 *   each goal as row,column of the level's text, '/', its goal area ('?'
 *   after it: a goal the retrieval did not order), first filled first (to
 *   set beside a solution's, bench/sok_fill_order.py; benchmarks.md, h41r).
 *   --free-positions N, --free-work W: both searches' bounds in positions
 *   (20,000) and (box, player) pairs (4e8).
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

/* The pushes and walks of a nudge play to the end (box moves with the
 * player's piece after each), as LURD text (NULL: a move cannot be made),
 * by breadth-first search over (box, player) squares with the other boxes
 * in place. */
static char *lurd_of(const struct sokoban *s, const uint16_t *mv, int nmoves)
{
	size_t n = (size_t)s->cells, cap = 1024, len = 0;
	char *out = malloc(cap);
	uint8_t *box = calloc(n, 1), *in = calloc(n, 1);
	int *par = malloc(n * n * sizeof *par), *queue = malloc(n * n * sizeof *queue);
	int *stack = malloc(n * sizeof *stack);
	for (size_t c = 0; c < n; c++)
		box[c] = !s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]);
	int player = s->player0;
	bool ok = true;
	for (int i = 0; i < nmoves && ok; i++) {
		int from = mv[3 * i], to = mv[3 * i + 1], pc = mv[3 * i + 2];
		/* the piece the player must end in: with the box on to */
		box[from] = 0;
		box[to] = 1;
		memset(in, 0, n);
		int sp = 0;
		in[pc] = 1;
		stack[sp++] = pc;
		while (sp > 0) {
			int x = stack[--sp];
			for (int d = 0; d < 4; d++) {
				int y = x + s->off[d];
				if (!s->wall[y] && !box[y] && !in[y]) {
					in[y] = 1;
					stack[sp++] = y;
				}
			}
		}
		box[to] = 0;
		for (size_t k = 0; k < n * n; k++)
			par[k] = -2;
		int head = 0, tail = 0, goal = -1;
		par[(size_t)from * n + (size_t)player] = -1;
		queue[tail++] = from * (int)n + player;
		while (head < tail && goal < 0) {
			int st = queue[head++], b = st / (int)n, p = st % (int)n;
			if (b == to && in[p]) {
				goal = st;
				break;
			}
			for (int d = 0; d < 4; d++) {
				int q = p + s->off[d], nb = b;
				if (s->wall[q] || box[q])
					continue;
				if (q == b) {
					nb = b + s->off[d];
					if (s->wall[nb] || box[nb])
						continue;
				}
				size_t k = (size_t)nb * n + (size_t)q;
				if (par[k] != -2)
					continue;
				par[k] = st;
				queue[tail++] = (int)k;
			}
		}
		if (goal < 0) {
			ok = false;
			break;
		}
		/* the path, backwards, then reversed in place */
		size_t mark = len;
		for (int st = goal; par[st] >= 0; st = par[st]) {
			int prev = par[st], p0 = prev % (int)n, p1 = st % (int)n;
			int d = 0;
			while (p0 + s->off[d] != p1)
				d++;
			bool push = prev / (int)n != st / (int)n;
			if (len + 2 >= cap)
				out = realloc(out, cap *= 2);
			out[len++] = (push ? "URDL" : "urdl")[d];
		}
		for (size_t a = mark, z = len; a + 1 < z; a++, z--) {
			char t = out[a];
			out[a] = out[z - 1];
			out[z - 1] = t;
		}
		box[to] = 1;
		player = goal % (int)n;
	}
	out[len] = 0;
	free(box);
	free(in);
	free(par);
	free(queue);
	free(stack);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

/* Replays LURD text on the level from its start, by the rules alone:
 * true when every move is legal and every box ends on a goal. */
static bool replay(const struct sokoban *s, const char *lurd)
{
	size_t n = (size_t)s->cells;
	uint8_t *box = calloc(n, 1);
	for (size_t c = 0; c < n; c++)
		box[c] = !s->wall[c] && s->compact[c] >= 0 && soko_bit(s->box0, s->compact[c]);
	int p = s->player0;
	bool ok = true;
	for (const char *c = lurd; *c && ok; c++) {
		const char *dirs = "urdlURDL", *at = strchr(dirs, *c);
		int d = at ? (int)(at - dirs) % 4 : -1, q = d >= 0 ? p + s->off[d] : p;
		bool push = at && at - dirs >= 4;
		if (d < 0 || s->wall[q] || push != (box[q] != 0)) {
			ok = false;
		} else if (push) {
			int b = q + s->off[d];
			if (s->wall[b] || box[b])
				ok = false;
			else {
				box[q] = 0;
				box[b] = 1;
			}
		}
		p = q;
	}
	for (size_t c = 0; c < n && ok; c++)
		ok = !box[c] || s->goal[c];
	free(box);
	return ok;
}

int main(int argc, char **argv)
{
	const char *on[32] = { 0 }, *off[32] = { 0 }, *path = NULL;
	int non = 0, noff = 0;
	bool repair = false, held_only = false, shuffle = false, freeplay = false;
	long fpos = 20000;
	double fwork = 4e8;
	int nudge = -1;
	bool routes_free = false, order = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--repair"))
			repair = true;
		else if (!strcmp(argv[i], "--shuffle"))
			shuffle = true;
		else if (!strcmp(argv[i], "--free"))
			freeplay = true;
		else if (!strcmp(argv[i], "--order"))
			order = true;
		else if (!strcmp(argv[i], "--routes-free"))
			routes_free = true;
		else if (!strcmp(argv[i], "--nudge") && i + 1 < argc)
			nudge = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--free-work") && i + 1 < argc)
			fwork = atof(argv[++i]);
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
		if (order) {
			fprintf(stderr, "%d order:", record);   /* padded board: -1 */
			for (int g = 0; g < plan.ngoals; g++) {
				int c = plan.order[g];
				fprintf(stderr, " %d,%d/%d%s", c / s->width - 1, c % s->width - 1,
					(int)plan.area_of[c], g < plan.ordered ? "" : "?");
			}
			fprintf(stderr, "\n");
		}
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
					struct soko_free_result fr = { .max_positions = fpos, .max_work = fwork };
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
				struct soko_free_result fr = { .max_positions = fpos, .max_work = fwork };
				double t2 = cpu_now();
				bool full = soko_park_nudge_play(s, &plan, p, mode == 0, routes_free, nudge,
								 &fr);
				printf("\t%d%s\t%ld%s\t%.2f", fr.played, full ? "*" : "",
				       fr.positions, fr.stopped ? "+" : "", cpu_now() - t2);
				/* a play to the end is a solution: replayed by the rules */
				char *lurd = full ? lurd_of(s, fr.moves, fr.nmoves) : NULL;
				if (full)
					printf("\t%s", lurd && replay(s, lurd) ? "verified" : "BAD");
				if (lurd && getenv("PARK_PLAY_LURD"))
					fprintf(stderr, "%d %s\n", record, lurd);
				free(lurd);
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
