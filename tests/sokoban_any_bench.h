/*
 * sokoban_any_bench.h - a feature-space search state around hand-made
 * positions, for the advisor tests (test_sokoban_any_advise.c,
 * test_sokoban_any_imagine.c): a parent position and its children, each
 * written out as a level of the same walls, interned in the search's table
 * with the features the test gives them, so that one advisor can be asked
 * which move it proposes.  Header-only (static inline), included after
 * cmocka.h, sokoban_any_search.h and sokoban_random.h.
 */
#ifndef LEVELKIT_TESTS_SOKOBAN_ANY_BENCH_H
#define LEVELKIT_TESTS_SOKOBAN_ANY_BENCH_H

#include <stdlib.h>
#include <string.h>

struct bench {
	struct lk_level *level;
	struct any a;
	struct soko_scratch *sc, *sc2;
	struct soko_park *built;  /* the plan's own parking plan, put back at the end */
	bool swapped;             /* a parking plan given in its place */
	uint8_t flags[16];
	struct amove moves[8];
	uint32_t id[9];
	int n;
};

/* The key of a position written as a level (same walls as the bench's). */
static inline void key_of(const char *text, unsigned char *key, size_t size)
{
	struct lk_level *l = soko_test_load(text, NULL, false);
	assert_non_null(l);
	const struct sokoban *s = (const struct sokoban *)l;
	memset(key, 0, size);
	memcpy(key + 2, s->box0, s->bitset_bytes);
	soko_key_set_player(key, (unsigned)s->compact[s->player0]);
	lk_level_free(l);
}

/* The parent position (its features f) and its children (kids[i] with
 * features kf[i]), all texts of the same walls; swap: put plan (NULL: none)
 * in force instead of the level's own parking plan. */
static inline void bench_init(struct bench *b, const char *parent, const struct soko_features *f,
			      const char *const *kids, const struct soko_features *kf, int n,
			      bool swap, struct soko_park *plan)
{
	memset(b, 0, sizeof *b);
	b->level = soko_test_load(parent, NULL, false);
	assert_non_null(b->level);
	const struct sokoban *s = (const struct sokoban *)b->level;
	struct any *a = &b->a;
	a->s = s;
	a->key_size = b->level->key_size;
	lk_table_init(&a->table, a->key_size, (size_t)1 << 20);
	b->sc = calloc(1, b->level->scratch_size);
	b->sc2 = calloc(1, b->level->scratch_size);
	soko_scratch(s, b->sc);
	soko_scratch(s, b->sc2);
	a->scratch = b->sc;
	a->scratch2 = b->sc2;
	size_t cells = (size_t)s->cells;
	a->adv_mark = calloc(cells, sizeof *a->adv_mark);
	a->adv_goal = calloc(cells, sizeof *a->adv_goal);
	a->adv_stack = calloc(cells, sizeof *a->adv_stack);
	a->open_goal = -1;
	soko_plan_build(&a->plan, s, true, NULL);
	b->swapped = swap;
	if (swap) {
		b->built = a->plan.park;
		a->plan.park = plan;
	}
	unsigned char key[64];
	assert_true(a->key_size <= sizeof key);
	for (int k = 0; k <= n; k++) {
		key_of(k ? kids[k - 1] : parent, key, a->key_size);
		uint32_t cost = soko_features_pack(k ? &kf[k - 1] : f);
		assert_int_equal(lk_table_intern(&a->table, key, lk_hash_bytes(key, a->key_size), 0,
						 cost, &b->id[k]), LK_INTERN_ADDED);
	}
	for (int k = 0; k < n; k++)
		b->moves[k] = (struct amove){ .child = b->id[k + 1] & 0x7fffffffu, .weight = 1 };
	a->flags = b->flags;
	a->moves = b->moves;
	b->n = n;
}

/* The parent's expansion, as the advisors take it. */
static inline struct expansion bench_expansion(const struct bench *b)
{
	return (struct expansion){ .node = b->id[0], .moves = 0, .nmoves = (uint32_t)b->n };
}

static inline void bench_release(struct bench *b)
{
	struct any *a = &b->a;
	soko_imagine_free(a->imagine);
	if (b->swapped)
		a->plan.park = b->built;
	soko_plan_release(&a->plan);
	lk_table_release(&a->table);
	free(a->adv_mark);
	free(a->adv_goal);
	free(a->adv_stack);
	free(a->closed);
	free(a->open_dist);
	free(b->sc);
	free(b->sc2);
	lk_level_free(b->level);
}

#endif
