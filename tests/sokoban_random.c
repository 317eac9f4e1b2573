/*
 * sokoban_random.c - random small Sokoban levels and the checks shared by
 * the suites that test each technique against raw breadth-first search
 * (test_sokoban_techniques.c, test_sokoban_any.c,
 * test_sokoban_any_relevance.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "levelkit/hash.h"
#include "levelkit/registry.h"
#include "../src/games/sokoban/sokoban_any.h"
#include "sokoban_random.h"
#include "test_records.h"

static int draw(struct lk_rng *rng, int least, int span)
{
	return span > 1 ? least + (int)lk_rng_below(rng, (uint32_t)span) : least;
}

char *soko_random_level(struct lk_rng *rng, const struct soko_random_shape *shape)
{
	int w = draw(rng, shape->wmin, shape->wspan), h = draw(rng, shape->hmin, shape->hspan);
	int W = w + 2, H = h + 2;
	char *grid = malloc((size_t)(W * H));
	int *cells = malloc(sizeof *cells * (size_t)(w * h));
	assert_non_null(grid);
	assert_non_null(cells);
	memset(grid, '#', (size_t)(W * H));
	unsigned wall_pct = (unsigned)draw(rng, (int)shape->wall_min, (int)shape->wall_span);
	int nfree = 0;
	for (int y = 1; y <= h; y++)
		for (int x = 1; x <= w; x++) {
			grid[y * W + x] = lk_rng_below(rng, 100) < wall_pct ? '#' : ' ';
			if (grid[y * W + x] == ' ')
				cells[nfree++] = y * W + x;
		}
	int nboxes = draw(rng, shape->bmin, shape->bspan);
	char *text = NULL;
	if (nfree >= 2 * nboxes + 1) {
		for (int i = nfree - 1; i > 0; i--) {
			int j = (int)lk_rng_below(rng, (uint32_t)i + 1), c = cells[i];
			cells[i] = cells[j];
			cells[j] = c;
		}
		/* boxes first, then goals, then the player, on distinct squares */
		for (int i = 0; i < nboxes; i++) {
			grid[cells[i]] = '$';
			grid[cells[nboxes + i]] = '.';
		}
		grid[cells[2 * nboxes]] = '@';
		char *at = text = malloc((size_t)(H * (W + 1) + 1));
		assert_non_null(text);
		for (int y = 0; y < H; y++) {
			memcpy(at, grid + y * W, (size_t)W);
			at += W;
			*at++ = '\n';
		}
		*at = '\0';
	}
	free(cells);
	free(grid);
	return text;
}

const char *const *soko_test_on;

struct lk_level *soko_test_load(const char *text, const char *const *off, bool plain)
{
	struct lk_level_options opt = { .metric = "pushes", .off = off, .on = soko_test_on,
					.plain = plain };
	return test_load_level(text, &opt, NULL);
}

int soko_test_technique(const char *name)
{
	const struct lk_technique *t = lk_game_find("sokoban")->techniques;
	for (int i = 0; t[i].name; i++)
		if (strcmp(t[i].name, name) == 0)
			return i;
	fail_msg("no technique %s", name);
	return -1;
}

/* Raw breadth-first answers already found in this process, by level text
 * and state bound.  Several suites play the same random levels under each
 * of their configurations (the pull suite draws its 150 levels five times),
 * and raw BFS, above all on the levels it cannot finish and that are drawn
 * again, was most of their time.  The answer depends on nothing else: a
 * plain level has every technique off whatever soko_test_on asks. */
struct raw_memo_slot {
	uint64_t hash;    /* 0: empty */
	size_t max_states;
	char *text;
	int answer;
};

static struct {
	struct raw_memo_slot *slots;
	size_t capacity, count;   /* capacity a power of two, grown at 3/4 */
} raw_memo;

static uint64_t raw_memo_hash(const char *text, size_t max_states)
{
	uint64_t h = lk_hash_bytes(text, strlen(text)) ^ (max_states * 0x9e3779b97f4a7c15u);
	return h ? h : 1;
}

static struct raw_memo_slot *raw_memo_find(uint64_t hash, const char *text, size_t max_states)
{
	if (!raw_memo.capacity)
		return NULL;
	for (size_t i = hash & (raw_memo.capacity - 1);; i = (i + 1) & (raw_memo.capacity - 1)) {
		struct raw_memo_slot *slot = &raw_memo.slots[i];
		if (!slot->hash || (slot->hash == hash && slot->max_states == max_states &&
				    strcmp(slot->text, text) == 0))
			return slot;
	}
}

static void raw_memo_grow(void)
{
	struct raw_memo_slot *old = raw_memo.slots;
	size_t old_capacity = raw_memo.capacity;
	raw_memo.capacity = old_capacity ? 2 * old_capacity : 256;
	raw_memo.slots = calloc(raw_memo.capacity, sizeof *raw_memo.slots);
	assert_non_null(raw_memo.slots);
	for (size_t i = 0; i < old_capacity; i++)
		if (old[i].hash)
			*raw_memo_find(old[i].hash, old[i].text, old[i].max_states) = old[i];
	free(old);
}

int soko_raw_answer(const char *text, size_t max_states)
{
	uint64_t hash = raw_memo_hash(text, max_states);
	struct raw_memo_slot *slot = raw_memo_find(hash, text, max_states);
	if (slot && slot->hash)
		return slot->answer;
	struct lk_level *level = soko_test_load(text, NULL, true);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	struct lk_search_result r;
	o.algo = LK_ALGO_BFS;
	o.direction = LK_FORWARD;
	o.bounds.max_states = max_states;
	lk_search_result_init(&r);
	lk_search(level, &o, &r);
	int answer = r.status == LK_UNKNOWN ? -1 : r.status == LK_SOLVED;
	lk_search_result_release(&r);
	lk_level_free(level);
	if (4 * (raw_memo.count + 1) > 3 * raw_memo.capacity)
		raw_memo_grow();
	size_t len = strlen(text) + 1;
	char *copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, text, len);
	slot = raw_memo_find(hash, text, max_states);
	*slot = (struct raw_memo_slot){ .hash = hash, .max_states = max_states, .text = copy,
					.answer = answer };
	raw_memo.count++;
	return answer;
}

struct lk_level *soko_any_run(const char *text, const char *const *off, bool first_only,
			      struct lk_search_result *r)
{
	struct lk_level *level = soko_test_load(text, off, false);
	struct lk_search_options o = LK_SEARCH_OPTIONS_INIT;
	o.algo = LK_ALGO_ANY;
	lk_search_result_init(r);
	if (first_only)
		soko_fess(level, &o, r, true, NULL, NULL, NULL);
	else
		lk_search(level, &o, r);
	return level;
}

void soko_check_replays(const struct lk_level *level, const struct lk_search_result *r)
{
	struct lk_moves m, again;
	struct lk_strbuf why = LK_STRBUF_INIT;
	bool solved = false;
	lk_moves_init(&m, level);
	lk_moves_init(&again, level);
	lk_level_label(level, r->path, r->nkeys, &m);
	if (level->game->replay(level, m.text.buf, &again, &solved, &why) != 0 || !solved)
		fail_msg("solution %s does not solve the level: %s", m.text.buf, why.buf ? why.buf : "");
	lk_moves_release(&m);
	lk_moves_release(&again);
	lk_strbuf_release(&why);
}

bool soko_dead_at_start(const char *text)
{
	const char *off[] = { "greedy-first", "stall-turns", NULL };
	struct lk_search_result r;
	struct lk_level *level = soko_any_run(text, off, false, &r);
	bool dead = r.expanded == 0;
	lk_search_result_release(&r);
	lk_level_free(level);
	return dead;
}

struct lk_level *soko_any_as_raw(const char *text, const char *const *off, int want,
				 const char *what, struct lk_search_result *r)
{
	struct lk_level *level = soko_any_run(text, off, false, r);
	if (r->status != (want ? LK_SOLVED : LK_UNSOLVABLE))
		fail_msg("%s: %s, raw BFS says %s\n%s", what, lk_status_name(r->status),
			 want ? "yes" : "no", text);
	if (r->status == LK_SOLVED)
		soko_check_replays(level, r);
	return level;
}

const struct soko_random_shape soko_small_shape = { 4, 4, 4, 3, 2, 4, 5, 15 };

uint64_t soko_any_off_on(const char *text, int want, const char *name)
{
	int counter = soko_test_technique(name);
	const char *const with[] = { name, NULL };
	uint64_t counted = 0;
	for (int on = 0; on < 2; on++) {
		const char *off[] = { "greedy-first", on ? NULL : name, NULL };
		char what[96];
		snprintf(what, sizeof what, "%s %s", name, on ? "on" : "off");
		soko_test_on = on ? with : NULL;
		struct lk_search_result r;
		struct lk_level *level = soko_any_as_raw(text, off, want, what, &r);
		soko_test_on = NULL;
		if (on)
			counted = r.technique_counts[counter];
		else if (r.technique_counts[counter] != 0)
			fail_msg("%s counted %llu with it off\n%s", name,
				 (unsigned long long)r.technique_counts[counter], text);
		lk_search_result_release(&r);
		lk_level_free(level);
	}
	return counted;
}

char *soko_random_answered(struct lk_rng *rng, const struct soko_random_shape *shape,
			   size_t max_states, int *want)
{
	for (;;) {
		char *text = soko_random_level(rng, shape);
		if (!text)
			continue;
		*want = soko_raw_answer(text, max_states);
		if (*want >= 0)
			return text;
		free(text);
	}
}

char *soko_random_mixed(struct lk_rng *rng, const struct soko_random_shape *shape,
			size_t max_states, int share, struct soko_mix *mix, int *want)
{
	for (;;) {
		char *text = soko_random_answered(rng, shape, max_states, want);
		if (*want == 0 &&
		    (mix->no > mix->levels / share || (mix->live && soko_dead_at_start(text)))) {
			free(text);
			continue;
		}
		mix->levels++;
		mix->yes += *want == 1;
		mix->no += *want == 0;
		return text;
	}
}

struct lk_level *soko_random_live(struct lk_rng *rng, const struct soko_random_shape *shape,
				  const char *const *off, char **text)
{
	for (;;) {
		*text = soko_random_level(rng, shape);
		if (!*text)
			continue;
		struct lk_level *level = soko_test_load(*text, off, false);
		if (!((const struct sokoban *)level)->impossible)
			return level;
		lk_level_free(level);
		free(*text);
	}
}

const char soko_test_crossing[] =
	"       #####  #####\n"
	"       #   #  #   #\n"
	"       # #.####.# #\n"
	"       # ..    .. #\n"
	"#####  ### #### ###\n"
	"#   #    # #    #\n"
	"# # ##   # #@## #\n"
	"#  $ ##  # #  # ###\n"
	"##  $ ## # $  $.. #\n"
	" ##  $ ### #  #.# #\n"
	"  ##  $ ## ## #   #\n"
	"   ##  $ # #  #####\n"
	"    ##  $  $ ##\n"
	"     #####  ##\n"
	"         ####\n";

void soko_check_plandead_same(const char *what)
{
	uint64_t checked, differed;
	soko_plandead_checks(&checked, &differed);
	soko_plandead_set_check(false);
	print_message("  %s: %llu moves decided with shared floods checked, %llu differed\n", what,
		      (unsigned long long)checked, (unsigned long long)differed);
	assert_true(checked >= 1000 / SOKO_TEST_SHARE);
	assert_true(differed == 0);
}
