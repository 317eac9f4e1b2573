/*
 * laser_driver.c - a command-line driver for the laser game's library
 * calls, for the benchmark script: the searches solve, gen laser and
 * solve --shortcut make, timed within one process for many levels, with
 * output lines bench/laser.sh compares with clingo's.  Not installed
 * (the commands are the way to use the game).
 *
 *   laser_driver count [--tidy] [--limit N] [--timeout S] [--satisfy CONCEPT] FILE...
 *                                                         counts, one line per level
 *   laser_driver solve [--tidy] FILE                      a solution, drawn
 *   laser_driver verify FILE PLACEMENT                    which targets it satisfies
 *   laser_driver shortcut [--all] [--timeout S] CONCEPT FILE...   a solution violating it, or "none"
 *   laser_driver recheck [--all] CONCEPT FILE...          every tidy (or every) solution judged apart
 *   laser_driver rate FILE                                lk_csp_rate's difficulty
 *   laser_driver convert FILE                             .lvl <-> record
 *   laser_driver gen [options]                            see --help of gen
 *
 * FILE is a .lvl file (SPEC.md), Refraction's JSON levels or a record
 * file (game: laser, any number of levels), read as the commands read it.  CONCEPT is an expression over facts or a preset name.
 * Times are printed in seconds of this process's own work.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "laser_driver.h"
#include "levelkit/actions.h"
#include "levelkit/clock.h"
#include "levelkit/csp.h"
#include "levelkit/difficulty.h"

/* The library's clock: with LEVELKIT_CLOCK=cpu, times are CPU seconds. */
static double now(void)
{
	return lk_now();
}

double driver_now(void)
{
	return now();
}

/* Every level of a file, read as the commands read it (lk_input_open: a
 * record file, a .lvl file, Refraction's JSON levels); a level that does
 * not load is reported and skipped. */
int driver_levels(const char *path, struct lk_laser ***out)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	struct lk_laser **lvs = NULL;
	size_t n = 0, alloc = 0, line;
	struct lk_reader r;
	struct lk_record rec;
	if (lk_input_open(&r, strcmp(path, "-") ? path : NULL, &err) < 0) {
		fprintf(stderr, "laser_driver: %s\n", err.buf);
		exit(2);
	}
	lk_record_init(&rec);
	int rc;
	while ((rc = lk_reader_next(&r, &rec, &err, &line)) != 0) {
		if (rc == -2) {
			fprintf(stderr, "laser_driver: %s: %s\n", path, err.buf);
			exit(2);
		}
		if (rc < 0 || !lk_record_grid(&rec, NULL))
			continue;
		lk_strbuf_reset(&err);
		if (lk_laser_validate(&rec, &err, &line) < 0) {
			size_t l = line < rec.nlines ? rec.lines[line].lineno : rec.first_lineno;
			fprintf(stderr, "laser_driver: %s:%zu: %s (skipped)\n", path, l, err.buf);
			continue;
		}
		LK_ALLOC_GROW(lvs, n + 1, alloc);
		lvs[n++] = lk_laser_new(&rec);
	}
	lk_record_release(&rec);
	lk_reader_close(&r);
	lk_strbuf_release(&err);
	*out = lvs;
	return (int)n;
}

struct lk_expr *driver_concept(const char *text)
{
	struct lk_strbuf err = LK_STRBUF_INIT;
	const char *preset = lk_laser_concept_preset(text);
	struct lk_expr *e = lk_expr_parse(preset ? preset : text, &err);
	if (!e || lk_laser_concept_check(e, &err) < 0) {
		fprintf(stderr, "laser_driver: concept: %s\n", err.buf);
		exit(2);
	}
	lk_strbuf_release(&err);
	return e;
}

static int cmd_count(int argc, char **argv)
{
	struct lk_laser_search_options o;
	lk_laser_search_options_init(&o);
	int i = 0;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--tidy"))
			o.tidy = true;
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
			o.limit = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			o.bounds.max_seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--weak"))
			o.weak = true;
		else if (!strcmp(argv[i], "--satisfy") && i + 1 < argc)
			o.satisfy = driver_concept(argv[++i]);
		else if (!strcmp(argv[i], "--fixed-order"))
			o.fixed_order = true;
	}
	for (; i < argc; i++) {
		struct lk_laser **lvs;
		int n = driver_levels(argv[i], &lvs);
		for (int j = 0; j < n; j++) {
			struct lk_laser_result r;
			double t0 = now();
			lk_laser_search(lvs[j], &o, NULL, NULL, &r);
			printf("%s\t%d\t%s%llu%s\t%llu\t%.6f\n", argv[i], j + 1,
			       r.exhausted ? "" : ">=", (unsigned long long)r.solutions,
			       r.overflow ? "+" : "", (unsigned long long)r.nodes, now() - t0);
			lk_laser_free(lvs[j]);
		}
		free(lvs);
	}
	lk_expr_free((struct lk_expr *)o.satisfy);
	return 0;
}

static int cmd_solve(int argc, char **argv)
{
	struct lk_laser_search_options o;
	lk_laser_search_options_init(&o);
	o.limit = 1;
	int i = 0;
	for (; i < argc && argv[i][0] == '-'; i++)
		if (!strcmp(argv[i], "--tidy"))
			o.tidy = true;
	if (i >= argc)
		return 2;
	struct lk_laser **lvs;
	int n = driver_levels(argv[i], &lvs);
	for (int j = 0; j < n; j++) {
		struct lk_laser_result r;
		struct lk_strbuf sb = LK_STRBUF_INIT;
		lk_laser_search(lvs[j], &o, NULL, NULL, &r);
		if (r.status == LK_SOLVED) {
			lk_strbuf_addstr(&sb, "solution: ");
			lk_laser_placement_format(&r.first, &sb);
			lk_strbuf_addch(&sb, '\n');
			lk_laser_draw(lvs[j], &r.first, &sb);
		} else {
			lk_strbuf_addf(&sb, "solvable: %s\n", lk_status_name(r.status));
		}
		fputs(sb.buf, stdout);
		lk_strbuf_release(&sb);
		lk_laser_free(lvs[j]);
	}
	free(lvs);
	return 0;
}

static int cmd_verify(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	struct lk_laser **lvs;
	struct lk_strbuf sb = LK_STRBUF_INIT;
	struct lk_laser_placement *pl = malloc(sizeof *pl);
	int n = driver_levels(argv[0], &lvs);
	if (n != 1 || lk_laser_placement_parse(lvs[0], argv[1], pl, &sb) < 0) {
		fprintf(stderr, "laser_driver: %s\n", sb.buf);
		return 2;
	}
	lk_laser_draw(lvs[0], pl, &sb);
	fputs(sb.buf, stdout);
	lk_strbuf_release(&sb);
	lk_laser_free(lvs[0]);
	free(lvs);
	free(pl);
	return 0;
}

static int cmd_shortcut(int argc, char **argv)
{
	struct lk_laser_search_options o;
	lk_laser_search_options_init(&o);
	o.tidy = true;
	o.limit = 1;
	int i = 0;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--all"))
			o.tidy = false;
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			o.bounds.max_seconds = atof(argv[++i]);
	}
	if (i + 1 >= argc)
		return 2;
	o.violate = driver_concept(argv[i++]);
	for (; i < argc; i++) {
		struct lk_laser **lvs;
		int n = driver_levels(argv[i], &lvs);
		for (int j = 0; j < n; j++) {
			struct lk_laser_result r;
			struct lk_strbuf sb = LK_STRBUF_INIT;
			double t0 = now();
			lk_laser_search(lvs[j], &o, NULL, NULL, &r);
			if (r.status == LK_SOLVED)
				lk_laser_placement_format(&r.first, &sb);
			printf("%s\t%d\t%s\t%s\t%llu\t%.6f\n", argv[i], j + 1,
			       r.status == LK_SOLVED ? "shortcut" : r.status == LK_UNSOLVABLE ? "none" : "unknown",
			       sb.len ? sb.buf : "-", (unsigned long long)r.nodes, now() - t0);
			lk_strbuf_release(&sb);
			lk_laser_free(lvs[j]);
		}
		free(lvs);
	}
	lk_expr_free((struct lk_expr *)o.violate);
	return 0;
}

/* rate FILE...: the multiple method's mean and deviation of nodes over 50
 * shuffled solves, and the single method's nodes (lk_csp_rate). */
static int cmd_rate(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct lk_laser **lvs;
		int n = driver_levels(argv[i], &lvs);
		for (int j = 0; j < n; j++) {
			struct lk_csp_options o;
			struct lk_csp_rating multi, single;
			lk_csp_options_init(&o);
			o.count_limit = 1000;
			o.bounds.max_seconds = 60;
			const struct lk_level *level = lk_laser_level(lvs[j]);
			lk_csp_rate(level, &o, 50, 1, &multi);
			lk_csp_rate_single(level, &o, &single);
			printf("%s\t%d\tsolutions %s%llu\tdifficulty %.1f\tsd %.1f\tsingle %llu%s\n", argv[i],
			       j + 1, multi.exhausted ? "" : ">=", (unsigned long long)multi.solutions,
			       multi.mean, multi.sd, (unsigned long long)single.single,
			       multi.fine ? "\t(fine)" : "");
			lk_laser_free(lvs[j]);
		}
		free(lvs);
	}
	return 0;
}

struct recheck {
	const struct lk_laser *lv;
	const struct lk_expr *concept;
	bool all;                    /* every solution, not only tidy ones */
	uint64_t solutions, violating;
	struct lk_laser_placement first;
};

/* Judge one solution with the whole-placement simulation, apart from the
 * search's own reasoning about concepts. */
static bool recheck_visit(void *ctx, const struct lk_laser_solution *s)
{
	struct recheck *rc = ctx;
	struct lk_laser_eval ev;
	lk_laser_evaluate(rc->lv, s->placement, &ev, NULL);
	rc->solutions++;
	if (!(rc->all ? ev.solved : ev.tidy) || !lk_laser_concept_holds_at(rc->lv, s->placement, rc->concept)) {
		if (!rc->violating++)
			rc->first = *s->placement;
	}
	return true;
}

/* recheck [--all] CONCEPT FILE...: every tidy solution (every solution,
 * one by one, with --all), found by the plain search (no concept given to
 * it) and judged by the simulation; prints the number of solutions and of
 * those violating the concept (a shortcut, or a search bug when it is not
 * a solution). */
static int cmd_recheck(int argc, char **argv)
{
	bool all = argc > 0 && !strcmp(argv[0], "--all");
	argc -= all;
	argv += all;
	if (argc < 2)
		return 2;
	struct lk_expr *concept = driver_concept(argv[0]);
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct lk_laser **lvs;
		int n = driver_levels(argv[i], &lvs);
		for (int j = 0; j < n; j++) {
			struct lk_laser_search_options o;
			struct lk_laser_result r;
			struct recheck *rc = calloc(1, sizeof *rc);
			lk_laser_search_options_init(&o);
			o.tidy = !all;
			o.expand = all;
			o.bounds.max_seconds = 60;
			rc->lv = lvs[j];
			rc->all = all;
			rc->concept = concept;
			double t0 = now();
			lk_laser_search(lvs[j], &o, recheck_visit, rc, &r);
			struct lk_strbuf sb = LK_STRBUF_INIT;
			if (rc->violating)
				lk_laser_placement_format(&rc->first, &sb);
			printf("%s\t%d\t%s%llu\t%llu\t%s\t%.6f\n", argv[i], j + 1, r.exhausted ? "" : ">=",
			       (unsigned long long)rc->solutions, (unsigned long long)rc->violating,
			       sb.len ? sb.buf : "-", now() - t0);
			bad += rc->violating > 0 || !r.exhausted;
			lk_strbuf_release(&sb);
			free(rc);
			lk_laser_free(lvs[j]);
		}
		free(lvs);
	}
	lk_expr_free(concept);
	return bad ? 1 : 0;
}

static int cmd_convert(int argc, char **argv)
{
	if (argc < 1)
		return 2;
	bool to_lvl = argc > 1 && !strcmp(argv[1], "lvl");
	struct lk_laser **lvs;
	int n = driver_levels(argv[0], &lvs);
	for (int j = 0; j < n; j++) {
		struct lk_strbuf sb = LK_STRBUF_INIT;
		if (to_lvl) {
			lk_laser_write_lvl(lvs[j], &sb);
		} else {
			struct lk_record rec;
			lk_record_init(&rec);
			lk_laser_to_record(lvs[j], &rec);
			lk_record_write(&rec, &sb);
			lk_strbuf_addch(&sb, '\n');
			lk_record_release(&rec);
		}
		fputs(sb.buf, stdout);
		lk_strbuf_release(&sb);
		lk_laser_free(lvs[j]);
	}
	free(lvs);
	return 0;
}

/* gen [options]: levels as records on stdout, one line of figures per
 * level on stderr (or --stats FILE): index status seconds boards designs
 * rounds cut-blockers cut-tray nogoods boards-proved nodes design-nodes. */
static int cmd_gen(int argc, char **argv)
{
	struct lk_laser_gen_options o;
	struct lk_strbuf err = LK_STRBUF_INIT;
	long count = 1, start = 0;
	FILE *stats = stderr;
	lk_laser_gen_options_init(&o);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--all")) {
			o.all = true;
			continue;
		}
		if (!v) {
			fprintf(stderr, "laser_driver: gen: %s needs a value\n", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "-n"))
			count = atol(v);
		else if (!strcmp(a, "--start"))
			start = atol(v);
		else if (!strcmp(a, "--seed"))
			o.seed = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--size"))
			sscanf(v, "%dx%d", &o.width, &o.height);
		else if (!strcmp(a, "--sources"))
			o.sources = atoi(v);
		else if (!strcmp(a, "--targets"))
			sscanf(v, "%d-%d", &o.min_targets, &o.max_targets);
		else if (!strcmp(a, "--target-sides"))
			o.target_sides = atoi(v);
		else if (!strcmp(a, "--min-pieces"))
			o.min_pieces = atoi(v);
		else if (!strcmp(a, "--distractors"))
			o.distractors = atoi(v);
		else if (!strcmp(a, "--blockers"))
			o.blockers = atoi(v);
		else if (!strcmp(a, "--max-blockers"))
			o.max_blockers = atoi(v);
		else if (!strcmp(a, "--require"))
			o.require = v;
		else if (!strcmp(a, "--preset")) {
			if (lk_laser_gen_preset(&o, v) < 0) {
				fprintf(stderr, "laser_driver: gen: unknown preset %s\n", v);
				return 2;
			}
		}
		else if (!strcmp(a, "--timeout"))
			o.bounds.max_seconds = atof(v);
		else if (!strcmp(a, "--symmetry") && lk_laser_gen_symmetry(&o, v, &err) < 0) {
			fprintf(stderr, "laser_driver: gen: %s\n", err.buf);
			return 2;
		} else if (!strcmp(a, "--symmetry"))
			continue;
		else if (!strcmp(a, "--grow"))
			o.grow = atoi(v);
		else if (!strcmp(a, "--whole-palette"))
			o.whole_palette = atoi(v) != 0;
		else if (!strcmp(a, "--design-nodes"))
			o.design_nodes = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--design-restarts"))
			o.design_restarts = (unsigned)atoi(v);
		else if (!strcmp(a, "--redesign-restarts"))
			o.redesign_restarts = (unsigned)atoi(v);
		else if (!strcmp(a, "--check-nodes"))
			o.check_nodes = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--rounds"))
			o.max_rounds = (unsigned)atoi(v);
		else if (!strcmp(a, "--boards"))
			o.max_boards = (unsigned)atoi(v);
		else if (!strcmp(a, "--stats"))
			stats = fopen(v, "w");
		else if (!strcmp(a, "--pieces") ? lk_laser_gen_palette(&o, v, &err) < 0
		       : !strcmp(a, "--powers") ? lk_laser_gen_powers(&o, v, &err) < 0 : 1) {
			fprintf(stderr, "laser_driver: gen: %s\n", err.len ? err.buf : a);
			return 2;
		}
	}
	int failed = 0;
	for (long i = start; i < start + count; i++) {
		struct lk_laser *lv;
		struct lk_laser_placement *pl = malloc(sizeof *pl);
		struct lk_laser_gen_stats st;
		lk_strbuf_reset(&err);
		enum lk_laser_gen_status s = lk_laser_generate(&o, (uint64_t)i, &lv, pl, &st, &err);
		fprintf(stats, "%ld\t%s\t%.4f\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%llu\t%llu\n", i,
			s == LK_LASER_GEN_OK ? "ok" : s == LK_LASER_GEN_INFEASIBLE ? "infeasible" : "gave-up",
			st.seconds, st.boards, st.designs, st.rounds, st.cut_blockers, st.cut_tray,
			st.nogoods, st.boards_proved, (unsigned long long)st.nodes,
			(unsigned long long)st.design_nodes);
		fflush(stats);
		if (s != LK_LASER_GEN_OK) {
			fprintf(stderr, "laser_driver: gen: level %ld: %s\n", i, err.buf);
			failed++;
			free(pl);
			if (s == LK_LASER_GEN_INFEASIBLE)
				return 1;
			continue;
		}
		struct lk_record rec;
		struct lk_strbuf sb = LK_STRBUF_INIT;
		lk_record_init(&rec);
		lk_record_setf(&rec, "title", "laser %llu-%ld", (unsigned long long)o.seed, i);
		lk_laser_to_record(lv, &rec);
		lk_strbuf_reset(&sb);
		lk_laser_placement_format(pl, &sb);
		lk_record_set(&rec, "solution", sb.buf);
		if (o.require) {
			const char *preset = lk_laser_concept_preset(o.require);
			lk_record_set(&rec, "requires", preset ? preset : o.require);
		}
		lk_strbuf_reset(&sb);
		lk_record_write(&rec, &sb);
		fputs(sb.buf, stdout);
		fputs("\n", stdout);
		fflush(stdout);
		lk_strbuf_release(&sb);
		lk_record_release(&rec);
		lk_laser_free(lv);
		free(pl);
	}
	lk_strbuf_release(&err);
	if (stats != stderr)
		fclose(stats);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: laser_driver count|solve|verify|shortcut|rate|convert|gen ...\n", stderr);
		return 2;
	}
	const char *cmd = argv[1];
	argc -= 2;
	argv += 2;
	if (!strcmp(cmd, "count"))
		return cmd_count(argc, argv);
	if (!strcmp(cmd, "solve"))
		return cmd_solve(argc, argv);
	if (!strcmp(cmd, "verify"))
		return cmd_verify(argc, argv);
	if (!strcmp(cmd, "shortcut"))
		return cmd_shortcut(argc, argv);
	if (!strcmp(cmd, "convert"))
		return cmd_convert(argc, argv);
	if (!strcmp(cmd, "gen"))
		return cmd_gen(argc, argv);
	if (!strcmp(cmd, "recheck"))
		return cmd_recheck(argc, argv);
	if (!strcmp(cmd, "rate"))
		return cmd_rate(argc, argv);
	fprintf(stderr, "laser_driver: unknown command %s\n", cmd);
	return 2;
}
