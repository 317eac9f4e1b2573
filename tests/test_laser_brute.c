/*
 * test_laser_brute.c - the laser game's solver against a brute-force enumerator
 * written here: every assignment of tray pieces to the empty cells of a
 * small random level, each judged by lk_laser_evaluate (the whole-placement
 * fixpoint, which shares no code with the search's beam following).  Its
 * counts of all and tidy solutions, and of those satisfying or violating
 * random concepts, are compared with the solver's under every option
 * (look-ahead on and off, each beam order, shuffled, shuffled with empty
 * cells first, expand), on levels with targets on several sides too.
 */
#include "laser_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------- brute force */

static const char *const type_names[] = { "BND", "SP2", "SP3", "CMB2", "CMB3" };
static const int type_ins[] = { 1, 1, 1, 2, 3 }, type_outs[] = { 1, 2, 3, 1, 1 };

/* Random ports for a type: ins then outs from a shuffled N E S W. */
static void random_ports(struct lk_rng *rng, int t, struct lk_strbuf *out)
{
	for (;;) {
		char sides[4] = { 'N', 'E', 'S', 'W' };
		for (int i = 3; i > 0; i--) {
			int j = (int)lk_rng_below(rng, (uint32_t)i + 1);
			char c = sides[i];
			sides[i] = sides[j];
			sides[j] = c;
		}
		/* a bender may not go straight: N/S and E/W are opposite */
		if (t == 0 && (strchr("NS", sides[0]) != NULL) == (strchr("NS", sides[1]) != NULL))
			continue;
		lk_strbuf_add(out, sides, (size_t)type_ins[t]);
		lk_strbuf_addch(out, '>');
		lk_strbuf_add(out, sides + type_ins[t], (size_t)type_outs[t]);
		return;
	}
}

/* A small random level as record text, with at most max_empty empty cells:
 * sources, perhaps a fixed piece, blockers, a tray, then targets planted
 * where the beams of a random placement pass (plant_targets), so that many
 * levels have solutions. */
static void random_board(struct lk_rng *rng, int max_empty, struct lk_strbuf *out)
{
	static const char *const powers[] = { "1", "1", "1/2", "2" };
	static const char dirs[] = "NESW";
	int w = 3 + (int)lk_rng_below(rng, 2), h = 3 + (int)lk_rng_below(rng, 2);
	char cells[16];
	struct lk_strbuf fields = LK_STRBUF_INIT;
	memset(cells, '.', sizeof cells);
	int nsrc = 1 + (int)lk_rng_below(rng, 2);
	int nfix = lk_rng_below(rng, 4) == 0;
	for (int i = 0; i < nsrc + nfix; i++) {
		int c;
		do
			c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		while (cells[c] != '.');
		char letter = i < nsrc ? (char)('A' + i) : 'F';
		cells[c] = letter;
		if (i < nsrc) {
			lk_strbuf_addf(&fields, "fixed: %c SRC >%c %s\n", letter, dirs[lk_rng_below(rng, 4)],
				       powers[lk_rng_below(rng, 4)]);
		} else {
			int t = (int)lk_rng_below(rng, 5);
			lk_strbuf_addf(&fields, "fixed: F %s ", type_names[t]);
			random_ports(rng, t, &fields);
			lk_strbuf_addch(&fields, '\n');
		}
	}
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += cells[c] == '.';
	int blockers = (int)lk_rng_below(rng, 2);
	while (empty > max_empty + 2 || blockers-- > 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = '#';
			empty--;
		}
	}
	int lines = 1 + (int)lk_rng_below(rng, 3);
	for (int i = 0; i < lines; i++) {
		/* benders and splitters more often than combiners */
		static const int pick[] = { 0, 0, 0, 1, 1, 2, 3, 4 };
		int t = pick[lk_rng_below(rng, 8)];
		lk_strbuf_addf(&fields, "tray: %d %s ", 1 + (int)lk_rng_below(rng, 2), type_names[t]);
		random_ports(rng, t, &fields);
		lk_strbuf_addch(&fields, '\n');
	}
	lk_strbuf_addstr(out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(out, cells + y * w, (size_t)w);
		lk_strbuf_addch(out, '\n');
	}
	lk_strbuf_add(out, fields.buf, fields.len);
	lk_strbuf_release(&fields);
}

static const char *const needs[] = { "1", "1/2", "1/2", "1/3", "1/4", "2/3", "3/2", "2", "1" };

/* The tray counts of a level's text. */
static void tray_counts(const char *text, int n, int *spare)
{
	const char *t = text;
	for (int l = 0; l < n; l++) {
		t = strstr(t, "tray: ") + 6;
		spare[l] = atoi(t);
	}
}

/* a/b + c/d as reduced text */
static void add_powers(const char *p, const char *q, char *out, size_t size)
{
	long a = atol(p), b = strchr(p, '/') ? atol(strchr(p, '/') + 1) : 1;
	long c = atol(q), d = strchr(q, '/') ? atol(strchr(q, '/') + 1) : 1;
	long n = a * d + c * b, m = b * d, x = n, y = m;
	while (y) {
		long t = x % y;
		x = y;
		y = t;
	}
	if (m / x == 1)
		snprintf(out, size, "%ld", n / x);
	else
		snprintf(out, size, "%ld/%ld", n / x, m / x);
}

/* Add one or two targets to the board text: on empty cells where a beam of
 * a random placement passes, facing it, needing what it carries (now and
 * then a random need instead), so that the placement, or a close one,
 * solves the level.  Now and then a target is on several sides (it sums
 * its beams): where two beams of the placement cross its cell it needs
 * their sum, else it has a side or two more that may catch beams. */
static int plant_targets(struct lk_rng *rng, int max_empty, struct lk_strbuf *text, int *summed)
{
	int multi = 0;
	*summed = 0;
	struct lk_laser *lv = load(text->buf);
	struct lk_laser_placement pl;
	struct lk_strbuf drawn = LK_STRBUF_INIT, beams = LK_STRBUF_INIT;
	int w = lk_laser_width(lv), h = lk_laser_height(lv), spare[64];
	char grid[16];
	bool used[16] = { false };
	lk_laser_draw(lv, NULL, &drawn);
	for (int c = 0; c < w * h; c++)
		grid[c] = drawn.buf[c / w * (w + 1) + c % w];
	tray_counts(text->buf, lk_laser_tray_lines(lv), spare);
	pl.n = 0;
	for (int c = 0; c < w * h; c++) {
		int l = (int)lk_rng_below(rng, (uint32_t)lk_laser_tray_lines(lv) * 2);
		if (grid[c] == '.' && l < lk_laser_tray_lines(lv) && spare[l]) {
			spare[l]--;
			used[c] = true;
			pl.p[pl.n++] = (struct lk_laser_place){ l + 1, c % w, c / w };
		}
	}
	lk_laser_draw(lv, &pl, &beams);
	/* candidates: (cell, side it is entered from, power) */
	int cand[64][2], ncand = 0;
	char power[64][16];
	static const char heading[] = "NESW";
	static const int dx[] = { 0, 1, 0, -1 }, dy[] = { -1, 0, 1, 0 };
	for (const char *b = strstr(beams.buf, "beam: "); b; b = strstr(b + 1, "beam: ")) {
		char value[16], d;
		int x, y;
		if (sscanf(b, "beam: %15s from %d,%d heading %c", value, &x, &y, &d) != 4)
			continue;
		int side = (int)(strchr(heading, d) - heading);
		for (x += dx[side], y += dy[side]; x >= 0 && y >= 0 && x < w && y < h && ncand < 64;
		     x += dx[side], y += dy[side]) {
			int c = y * w + x;
			if (grid[c] != '.' || used[c])
				break;
			cand[ncand][0] = c;
			cand[ncand][1] = (side + 2) % 4;
			snprintf(power[ncand++], sizeof power[0], "%s", value);
		}
	}
	int ntgt = 1 + (int)lk_rng_below(rng, 2);
	struct lk_strbuf fields = LK_STRBUF_INIT;
	for (int i = 0; i < ntgt; i++) {
		int c, side;
		const char *need;
		char sum[32];
		unsigned ins;
		int cross[64], ncross = 0;   /* candidates where another beam crosses */
		for (int k = 0; k < ncand; k++)
			for (int k2 = 0; k2 < ncand; k2++)
				if (cand[k2][0] == cand[k][0] && cand[k2][1] != cand[k][1]) {
					cross[ncross++] = k;
					break;
				}
		bool sum_now = ncross && lk_rng_below(rng, 3) == 0;
		if (sum_now || (ncand && lk_rng_below(rng, 6) != 0)) {
			int k = sum_now ? cross[lk_rng_below(rng, (uint32_t)ncross)]
					: (int)lk_rng_below(rng, (uint32_t)ncand);
			c = cand[k][0];
			side = cand[k][1];
			need = power[k];
		} else {
			c = (int)lk_rng_below(rng, (uint32_t)(w * h));
			side = (int)lk_rng_below(rng, 4);
			need = needs[lk_rng_below(rng, 9)];
		}
		if (grid[c] != '.')
			continue;
		ins = 1u << side;
		if (sum_now || lk_rng_below(rng, 3) == 0) {
			int k2 = 0;
			while (k2 < ncand && (cand[k2][0] != c || cand[k2][1] == side))
				k2++;
			if (k2 < ncand && (sum_now || lk_rng_below(rng, 4) != 0)) {
				ins |= 1u << cand[k2][1];
				add_powers(need, power[k2], sum, sizeof sum);
				++*summed;
				need = sum;
			} else {
				ins |= 1u << lk_rng_below(rng, 4);
				if (lk_rng_below(rng, 2))
					ins |= 1u << lk_rng_below(rng, 4);
			}
		}
		grid[c] = (char)('T' + i);
		multi += (ins & (ins - 1)) != 0;
		lk_strbuf_addf(&fields, "fixed: %c TGT ", 'T' + i);
		for (int s = 0; s < 4; s++)
			if (ins >> s & 1)
				lk_strbuf_addch(&fields, heading[s]);
		lk_strbuf_addf(&fields, "> %s\n", need);
	}
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += grid[c] == '.';
	for (int c = 0; c < w * h && empty > max_empty; c++) {
		if (grid[c] == '.' && !used[c]) {
			grid[c] = '#';
			empty--;
		}
	}
	/* the grid, then the fields: the board's, then the targets' */
	struct lk_strbuf out = LK_STRBUF_INIT;
	lk_strbuf_addstr(&out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(&out, grid + y * w, (size_t)w);
		lk_strbuf_addch(&out, '\n');
	}
	lk_strbuf_addstr(&out, strstr(text->buf, "fixed: "));
	lk_strbuf_add(&out, fields.buf, fields.len);
	lk_strbuf_reset(text);
	lk_strbuf_add(text, out.buf, out.len);
	lk_strbuf_release(&out);
	lk_strbuf_release(&fields);
	lk_strbuf_release(&drawn);
	lk_strbuf_release(&beams);
	lk_laser_free(lv);
	return multi;
}

/* A small random level around a target on two or three sides, each fed
 * straight by a source some cells away, needing (mostly) the sum of their
 * powers: what targets on several sides add, stressed, with a random tray
 * that can divert, split and combine the beams, and now and then a side
 * more or a second target.  *summed: whether the need is such a sum. */
static void random_sum_board(struct lk_rng *rng, struct lk_strbuf *out, int *summed)
{
	static const char *const powers[] = { "1", "1/2", "1/3", "2", "1/2" };
	static const char dirs[] = "NESW";
	static const int dx[] = { 0, 1, 0, -1 }, dy[] = { -1, 0, 1, 0 };
	int w = 3 + (int)lk_rng_below(rng, 2), h = 3 + (int)lk_rng_below(rng, 2);
	char cells[16];
	struct lk_strbuf fields = LK_STRBUF_INIT;
	memset(cells, '.', sizeof cells);
	int t = (int)lk_rng_below(rng, (uint32_t)(w * h)), tx = t % w, ty = t / w;
	cells[t] = 'T';
	unsigned ins = 0;
	char need[32] = "0";
	int want = 2 + (lk_rng_below(rng, 3) == 0), nsrc = 0;
	for (int tries = 0; tries < 12 && nsrc < want; tries++) {
		int side = (int)lk_rng_below(rng, 4), room = 0;
		for (int x = tx + dx[side], y = ty + dy[side]; x >= 0 && y >= 0 && x < w && y < h;
		     x += dx[side], y += dy[side])
			room++;
		if (!room || (ins >> side & 1))
			continue;
		int d = 1 + (int)lk_rng_below(rng, (uint32_t)room), c = (ty + d * dy[side]) * w + tx + d * dx[side];
		if (cells[c] != '.')
			continue;
		const char *p = powers[lk_rng_below(rng, 5)];
		char letter = (char)('A' + nsrc++);
		cells[c] = letter;
		ins |= 1u << side;
		lk_strbuf_addf(&fields, "fixed: %c SRC >%c %s\n", letter, dirs[(side + 2) % 4], p);
		char sum[32];
		add_powers(need, p, sum, sizeof sum);
		memcpy(need, sum, sizeof need);
	}
	*summed = nsrc >= 2;
	if (lk_rng_below(rng, 4) == 0)
		ins |= 1u << lk_rng_below(rng, 4);
	if (nsrc == 0 || lk_rng_below(rng, 8) == 0) {
		*summed = 0;
		snprintf(need, sizeof need, "%s", needs[lk_rng_below(rng, 9)]);
	}
	if (lk_rng_below(rng, 4) == 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = 'U';
			lk_strbuf_addf(&fields, "fixed: U TGT %c> %s\n", dirs[lk_rng_below(rng, 4)],
				       needs[lk_rng_below(rng, 9)]);
		}
	}
	lk_strbuf_addstr(&fields, "fixed: T TGT ");
	for (int s = 0; s < 4; s++)
		if (ins >> s & 1)
			lk_strbuf_addch(&fields, dirs[s]);
	lk_strbuf_addf(&fields, "> %s\n", need);
	int empty = 0;
	for (int c = 0; c < w * h; c++)
		empty += cells[c] == '.';
	int blockers = (int)lk_rng_below(rng, 2);
	while (empty > 9 || blockers-- > 0) {
		int c = (int)lk_rng_below(rng, (uint32_t)(w * h));
		if (cells[c] == '.') {
			cells[c] = '#';
			empty--;
		}
	}
	int lines = 1 + (int)lk_rng_below(rng, 3);
	for (int i = 0; i < lines; i++) {
		static const int pick[] = { 0, 0, 0, 1, 1, 2, 3, 4 };
		int ty2 = pick[lk_rng_below(rng, 8)];
		lk_strbuf_addf(&fields, "tray: %d %s ", 1 + (int)lk_rng_below(rng, 2), type_names[ty2]);
		random_ports(rng, ty2, &fields);
		lk_strbuf_addch(&fields, '\n');
	}
	lk_strbuf_addstr(out, "game: laser\n");
	for (int y = 0; y < h; y++) {
		lk_strbuf_add(out, cells + y * w, (size_t)w);
		lk_strbuf_addch(out, '\n');
	}
	lk_strbuf_add(out, fields.buf, fields.len);
	lk_strbuf_release(&fields);
}

#define NCONCEPTS 16
static const char *const concepts[NCONCEPTS] = {
	"uses(splitter)", "count(BND) >= 1", "network == 1", "placed >= 2",
	"idle == 0 || count(combiner) >= 1", "network <= 2 && !uses(SP3)", "count(target) == 2",
	"count(BND) >= 2", "count(bender) <= 1 || uses(SP2)", "count(splitter) >= 2 || count(BND) == 3",
	/* over powers */
	"made(1/2) >= 1", "into(source 1) >= 1 || into(1/2) == 2", "into(1) >= 1 && made(SP3 1/3) <= 1",
	"adds(1/2 + 1/2) >= 1 || into(splitter 1/4) >= 1", "into(source 1/2) == 0",
	"into(2) >= 1 || adds(1 + 1) >= 1 || made(1/6) >= 1",
};

struct brute {
	const struct lk_laser *lv;
	struct lk_expr *concept[NCONCEPTS];
	int cells[16], ncells, spare[64];
	struct lk_laser_placement pl;
	uint64_t all, tidy, holds[2][NCONCEPTS];   /* [tidy][concept] */
};

static void brute_rec(struct brute *b, int i)
{
	if (i == b->ncells) {
		struct lk_laser_eval ev;
		lk_laser_evaluate(b->lv, &b->pl, &ev, NULL);
		if (!ev.solved)
			return;
		b->all++;
		b->tidy += ev.tidy;
		for (int k = 0; k < NCONCEPTS; k++) {
			bool h = lk_laser_concept_holds_at(b->lv, &b->pl, b->concept[k]);
			b->holds[0][k] += h;
			b->holds[1][k] += h && ev.tidy;
		}
		return;
	}
	brute_rec(b, i + 1);
	int w = lk_laser_width(b->lv);
	for (int l = 0; l < lk_laser_tray_lines(b->lv); l++) {
		if (!b->spare[l])
			continue;
		b->spare[l]--;
		b->pl.p[b->pl.n++] = (struct lk_laser_place){ l + 1, b->cells[i] % w, b->cells[i] / w };
		brute_rec(b, i + 1);
		b->pl.n--;
		b->spare[l]++;
	}
}

static bool count_visit(void *ctx, const struct lk_laser_solution *s)
{
	uint64_t *n = ctx;
	assert_int_equal(s->multiplicity, 1);
	*n += 1;
	return true;
}

static uint64_t search_count(const struct lk_laser *lv, const struct lk_laser_search_options *o)
{
	struct lk_laser_result r;
	uint64_t visits = 0;
	lk_laser_search(lv, o, o->expand ? count_visit : NULL, &visits, &r);
	assert_true(r.exhausted);
	if (o->expand)
		assert_int_equal(visits, r.solutions);
	return r.solutions;
}

static void test_brute_force(void **state)
{
	(void)state;
	struct lk_rng rng;
	struct lk_strbuf text = LK_STRBUF_INIT;
	int solvable = 0, tidy_solvable = 0, multi_levels = 0, multi_solvable = 0;
	int sum_solvable = 0, some_true[NCONCEPTS] = { 0 }, some_false[NCONCEPTS] = { 0 };
	lk_rng_seed(&rng, 14);
	struct brute *b = calloc(1, sizeof *b);
	assert_non_null(b);
	for (int k = 0; k < NCONCEPTS; k++)
		b->concept[k] = lk_expr_parse(concepts[k], NULL);
	for (int n = 0; n < 500; n++) {
		/* the last 200 built round a target on several sides */
		int summed, multi = 1;
		lk_strbuf_reset(&text);
		if (n < 300) {
			random_board(&rng, 7, &text);
			multi = plant_targets(&rng, 7, &text, &summed);
		} else {
			random_sum_board(&rng, &text, &summed);
		}
		struct lk_laser *lv = load(text.buf);
		b->lv = lv;
		b->all = b->tidy = 0;
		memset(b->holds, 0, sizeof b->holds);
		b->ncells = 0;
		b->pl.n = 0;
		struct lk_strbuf drawn = LK_STRBUF_INIT;
		lk_laser_draw(lv, NULL, &drawn);
		for (int c = 0, w = lk_laser_width(lv); c < w * lk_laser_height(lv); c++)
			if (drawn.buf[c / w * (w + 1) + c % w] == '.')
				b->cells[b->ncells++] = c;
		lk_strbuf_release(&drawn);
		struct lk_laser_placement all;
		lk_laser_placement_parse(lv, "", &all, NULL);
		tray_counts(text.buf, lk_laser_tray_lines(lv), b->spare);
		brute_rec(b, 0);
		solvable += b->all > 0;
		tidy_solvable += b->tidy > 0;
		for (int k = 0; k < NCONCEPTS; k++) {
			some_true[k] += b->holds[0][k] > 0;
			some_false[k] += b->holds[0][k] < b->all;
		}
		multi_levels += multi > 0;
		multi_solvable += multi > 0 && b->all > 0;
		sum_solvable += summed > 0 && b->all > 0;
		for (int variant = 0; variant < 6; variant++) {
			struct lk_laser_search_options o;
			lk_laser_search_options_init(&o);
			o.weak = variant == 1;
			o.fixed_order = variant == 2;
			o.seed = variant == 3 || variant == 5 ? (uint64_t)n + 1 : 0;
			o.empty_first = variant == 5 ? 50 : 0;
			o.expand = variant == 4;
			for (int tidy = 0; tidy < 2; tidy++) {
				o.tidy = tidy;
				o.violate = o.satisfy = NULL;
				uint64_t got = search_count(lv, &o), want = tidy ? b->tidy : b->all;
				if (got != want)
					fail_msg("level %d variant %d tidy %d: %llu solutions, brute force %llu\n%s", n,
						 variant, tidy, (unsigned long long)got, (unsigned long long)want,
						 text.buf);
				for (int k = 0; k < NCONCEPTS; k++) {
					o.violate = b->concept[k];
					o.satisfy = NULL;
					uint64_t v = search_count(lv, &o);
					o.violate = NULL;
					o.satisfy = b->concept[k];
					uint64_t s = search_count(lv, &o);
					uint64_t h = b->holds[tidy][k];
					if (s != h || v != want - h)
						fail_msg("level %d variant %d tidy %d concept %s: %llu hold, %llu do "
							 "not; brute force %llu of %llu\n%s", n, variant, tidy,
							 concepts[k], (unsigned long long)s,
							 (unsigned long long)v, (unsigned long long)h,
							 (unsigned long long)want, text.buf);
				}
			}
		}
		lk_laser_free(lv);
	}
	/* the random levels must exercise the solver, not only say no */
	print_message("%d of 500 levels solvable, %d with tidy solutions; %d with a target on "
		      "several sides, %d of them solvable, %d needing the sum of two beams\n", solvable,
		      tidy_solvable, multi_levels, multi_solvable, sum_solvable);
	assert_true(solvable >= 100);
	assert_true(tidy_solvable >= 80);
	assert_true(multi_levels >= 40);
	assert_true(multi_solvable >= 15);
	assert_true(sum_solvable >= 10);
	/* each concept over powers holds for solutions of enough levels, and
	 * fails for solutions of enough others, to test the search for
	 * solutions that satisfy it and for those that violate it */
	for (int k = 10; k < NCONCEPTS; k++) {
		print_message("%s: true of a solution on %d levels, false on %d\n", concepts[k],
			      some_true[k], some_false[k]);
		assert_true(some_true[k] >= 10);
		assert_true(some_false[k] >= 10);
	}
	for (int k = 0; k < NCONCEPTS; k++)
		lk_expr_free(b->concept[k]);
	free(b);
	lk_strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brute_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
