/*
 * test_table.c - unit tests for the hashed state table (table.c):
 * interning finds and adds, dense insertion-ordered entry numbers,
 * parent/cost storage, growth over hundreds of thousands of keys of odd
 * sizes (every key found, no false hits), the memory budget (LK_INTERN_FULL, table still usable),
 * lk_table_reset reuse and the per-state overhead; the general keyed
 * table of hash.h against a linear search, and FNV-1a's published
 * vectors for lk_hash_text.
 *
 * Keys are made distinct by construction (a bijection of the index), so
 * the expected answer for every lookup is known without the table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "levelkit/hash.h"
#include "levelkit/rng.h"
#include "levelkit/table.h"

/* ---------------------------------------------------------------- helpers */

/* Key number i (i < 2^24 for 3-byte keys) of size ks: the first bytes are
 * a bijection of i, the rest filler derived from i, so keys i != j differ.
 * 3-byte keys use an odd multiplier modulo 2^24, larger keys lk_mix64. */
static void make_key(unsigned char *k, size_t ks, uint64_t i)
{
	if (ks == 3) {
		uint32_t v = (uint32_t)((i * 0x9e3779u + 0x1234u) & 0xffffffu);
		k[0] = (unsigned char)v;
		k[1] = (unsigned char)(v >> 8);
		k[2] = (unsigned char)(v >> 16);
		return;
	}
	uint64_t v = lk_mix64(i);
	size_t n = ks < 8 ? ks : 8;
	for (size_t b = 0; b < n; b++)
		k[b] = (unsigned char)(v >> (8 * b));
	struct lk_rng rng;
	lk_rng_seed(&rng, i + 77);
	for (size_t b = n; b < ks; b++)
		k[b] = (unsigned char)lk_rng_next(&rng);
}

static uint64_t h(const void *key, size_t ks)
{
	return lk_hash_bytes(key, ks);
}

/* ------------------------------------------------------------------ tests */

static void test_intern_find_add(void **state)
{
	(void)state;
	struct lk_table t;
	unsigned char a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 1, 2, 3, 4, 6 };
	uint32_t id = 1234;

	lk_table_init(&t, sizeof a, 0);
	assert_int_equal(t.count, 0);
	assert_int_equal(lk_table_find(&t, a, h(a, 5)), LK_NO_ENTRY);

	assert_int_equal(lk_table_intern(&t, a, h(a, 5), 7, 11, &id), LK_INTERN_ADDED);
	assert_int_equal(id, 0);
	assert_int_equal(t.count, 1);
	assert_int_equal(lk_table_find(&t, a, h(a, 5)), 0);
	assert_int_equal(lk_table_find(&t, b, h(b, 5)), LK_NO_ENTRY);

	/* Interning again finds it and leaves its parent and cost alone. */
	id = 99;
	assert_int_equal(lk_table_intern(&t, a, h(a, 5), 3, 4, &id), LK_INTERN_FOUND);
	assert_int_equal(id, 0);
	assert_int_equal(t.count, 1);
	assert_int_equal(lk_table_parent(&t, 0), 7);
	assert_int_equal(lk_table_cost(&t, 0), 11);

	assert_int_equal(lk_table_intern(&t, b, h(b, 5), 0, 1, &id), LK_INTERN_ADDED);
	assert_int_equal(id, 1);
	assert_memory_equal(lk_table_key(&t, 0), a, 5);
	assert_memory_equal(lk_table_key(&t, 1), b, 5);
	lk_table_release(&t);
}

static void test_dense_ids_and_links(void **state)
{
	(void)state;
	struct lk_table t;
	const size_t ks = 9;
	const uint32_t n = 40000; /* crosses a chunk boundary (2^14 entries) */
	unsigned char k[9];

	lk_table_init(&t, ks, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id;
		make_key(k, ks, i);
		assert_int_equal(lk_table_intern(&t, k, h(k, ks), i * 3u + 1u,
						 0xfffffff0u - i, &id),
				 LK_INTERN_ADDED);
		assert_int_equal(id, i);
	}
	assert_int_equal(t.count, n);
	for (uint32_t i = 0; i < n; i++) {
		make_key(k, ks, i);
		assert_memory_equal(lk_table_key(&t, i), k, ks);
		assert_int_equal(lk_table_parent(&t, i), i * 3u + 1u);
		assert_int_equal(lk_table_cost(&t, i), 0xfffffff0u - i);
	}
	/* set_link rewrites one entry only, and the key is untouched. */
	lk_table_set_link(&t, 12345, LK_NO_ENTRY, UINT32_MAX);
	assert_int_equal(lk_table_parent(&t, 12345), LK_NO_ENTRY);
	assert_int_equal(lk_table_cost(&t, 12345), UINT32_MAX);
	assert_int_equal(lk_table_parent(&t, 12344), 12344u * 3u + 1u);
	assert_int_equal(lk_table_cost(&t, 12346), 0xfffffff0u - 12346u);
	make_key(k, ks, 12345);
	assert_memory_equal(lk_table_key(&t, 12345), k, ks);
	assert_int_equal(lk_table_find(&t, k, h(k, ks)), 12345);
	lk_table_release(&t);
}

/* Insert n distinct keys of size ks (some twice), then look every one up
 * and n keys that were never inserted. */
static void grow_and_check(size_t ks, uint32_t n)
{
	struct lk_table t;
	unsigned char *k = malloc(ks);
	assert_non_null(k);
	struct lk_rng rng;
	lk_rng_seed(&rng, 42 + ks);

	lk_table_init(&t, ks, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id;
		make_key(k, ks, i);
		assert_int_equal(lk_table_intern(&t, k, h(k, ks), i, i ^ 0x5555u, &id),
				 LK_INTERN_ADDED);
		assert_int_equal(id, i);
		/* Now and then re-intern an earlier key: found, same id. */
		if (i % 7 == 3) {
			uint32_t j = lk_rng_below(&rng, i + 1);
			make_key(k, ks, j);
			assert_int_equal(lk_table_intern(&t, k, h(k, ks), 0, 0, &id),
					 LK_INTERN_FOUND);
			assert_int_equal(id, j);
		}
	}
	assert_int_equal(t.count, n);
	assert_true(t.capacity >= (size_t)n);
	assert_int_equal(t.capacity & (t.capacity - 1), 0);
	for (uint32_t i = 0; i < n; i++) {
		make_key(k, ks, i);
		assert_int_equal(lk_table_find(&t, k, h(k, ks)), i);
		assert_int_equal(lk_table_parent(&t, i), i);
		assert_int_equal(lk_table_cost(&t, i), i ^ 0x5555u);
	}
	for (uint32_t i = n; i < 2 * n; i++) {
		make_key(k, ks, i);
		assert_int_equal(lk_table_find(&t, k, h(k, ks)), LK_NO_ENTRY);
	}
	/* Every allocated byte is accounted: at least the entries and the
	 * probe index (4-byte slot + 1-byte tag). */
	assert_true(t.bytes >= (size_t)n * t.stride + t.capacity * 5);
	assert_true(t.peak_bytes >= t.bytes);
	lk_table_release(&t);
	free(k);
}

static void test_growth_3(void **state)
{
	(void)state;
	grow_and_check(3, 200000);
}

static void test_growth_9(void **state)
{
	(void)state;
	grow_and_check(9, 200000);
}

static void test_growth_17(void **state)
{
	(void)state;
	grow_and_check(17, 200000);
}

static void test_growth_1_byte(void **state)
{
	(void)state;
	/* All 256 one-byte keys: the table must hold the whole key space. */
	struct lk_table t;
	lk_table_init(&t, 1, 0);
	for (unsigned i = 0; i < 256; i++) {
		unsigned char k = (unsigned char)(i * 37u + 5u);
		uint32_t id;
		assert_int_equal(lk_table_intern(&t, &k, h(&k, 1), 0, 0, &id), LK_INTERN_ADDED);
		assert_int_equal(id, i);
	}
	for (unsigned i = 0; i < 256; i++) {
		unsigned char k = (unsigned char)(i * 37u + 5u);
		assert_int_equal(lk_table_find(&t, &k, h(&k, 1)), i);
	}
	lk_table_release(&t);
}

static void test_hash_bytes(void **state)
{
	(void)state;
	unsigned char a[17], b[17];
	make_key(a, 17, 5);
	memcpy(b, a, 17);
	/* Deterministic, and every byte position (including a partial last
	 * word) influences the hash. */
	for (size_t len = 1; len <= 17; len++) {
		assert_true(lk_hash_bytes(a, len) == lk_hash_bytes(b, len));
		for (size_t pos = 0; pos < len; pos++) {
			b[pos] ^= 0x10;
			assert_true(lk_hash_bytes(a, len) != lk_hash_bytes(b, len));
			b[pos] ^= 0x10;
		}
	}
}

static void test_budget(void **state)
{
	(void)state;
	const size_t ks = 9;
	/* Entries come in chunks of 2^14, so a budget must hold one. */
	const size_t budget = 1024 * 1024;
	struct lk_table t;
	unsigned char k[9];
	uint32_t n = 0, id;

	lk_table_init(&t, ks, budget);
	for (;; n++) {
		assert_true(n < 1000000);
		make_key(k, ks, n);
		enum lk_intern got = lk_table_intern(&t, k, h(k, ks), n + 1, n + 2, &id);
		if (got == LK_INTERN_FULL)
			break;
		assert_int_equal(got, LK_INTERN_ADDED);
		assert_int_equal(id, n);
	}
	assert_true(n > 100);
	assert_int_equal(t.count, n);
	assert_true(t.bytes <= budget);
	assert_true(t.peak_bytes <= budget);

	/* Still usable: the refused key is absent, refused again, and every
	 * stored key is found with its links. */
	make_key(k, ks, n);
	assert_int_equal(lk_table_find(&t, k, h(k, ks)), LK_NO_ENTRY);
	assert_int_equal(lk_table_intern(&t, k, h(k, ks), 0, 0, &id), LK_INTERN_FULL);
	assert_int_equal(t.count, n);
	for (uint32_t i = 0; i < n; i++) {
		make_key(k, ks, i);
		assert_int_equal(lk_table_find(&t, k, h(k, ks)), i);
		assert_int_equal(lk_table_intern(&t, k, h(k, ks), 0, 0, &id), LK_INTERN_FOUND);
		assert_int_equal(id, i);
		assert_int_equal(lk_table_parent(&t, i), i + 1);
		assert_int_equal(lk_table_cost(&t, i), i + 2);
	}
	lk_table_release(&t);

	/* A budget too small for anything refuses the first key. */
	lk_table_init(&t, ks, 16);
	make_key(k, ks, 0);
	assert_int_equal(lk_table_intern(&t, k, h(k, ks), 0, 0, &id), LK_INTERN_FULL);
	assert_int_equal(t.count, 0);
	assert_int_equal(lk_table_find(&t, k, h(k, ks)), LK_NO_ENTRY);
	lk_table_release(&t);
}

static void test_reset_reuse(void **state)
{
	(void)state;
	struct lk_table t = LK_TABLE_INIT;
	unsigned char k[17];
	uint32_t id;

	lk_table_init(&t, 9, 0);
	for (uint32_t i = 0; i < 50000; i++) {
		make_key(k, 9, i);
		assert_int_equal(lk_table_intern(&t, k, h(k, 9), 1, 2, &id), LK_INTERN_ADDED);
	}

	/* Same key size: empty again, old keys gone, numbering restarts. */
	lk_table_reset(&t, 9, 0);
	assert_int_equal(t.count, 0);
	for (uint32_t i = 0; i < 50000; i += 997) {
		make_key(k, 9, i);
		assert_int_equal(lk_table_find(&t, k, h(k, 9)), LK_NO_ENTRY);
	}
	for (uint32_t i = 0; i < 1000; i++) {
		make_key(k, 9, 100000 + i);
		assert_int_equal(lk_table_intern(&t, k, h(k, 9), i, i, &id), LK_INTERN_ADDED);
		assert_int_equal(id, i);
	}
	for (uint32_t i = 0; i < 1000; i++) {
		make_key(k, 9, 100000 + i);
		assert_int_equal(lk_table_find(&t, k, h(k, 9)), i);
		assert_int_equal(lk_table_cost(&t, i), i);
	}

	/* Another key size, after entries of the old stride existed. */
	lk_table_reset(&t, 17, 0);
	assert_int_equal(t.key_size, 17);
	assert_int_equal(t.count, 0);
	for (uint32_t i = 0; i < 30000; i++) {
		make_key(k, 17, i);
		assert_int_equal(lk_table_intern(&t, k, h(k, 17), i, 7, &id), LK_INTERN_ADDED);
		assert_int_equal(id, i);
	}
	for (uint32_t i = 0; i < 30000; i++) {
		make_key(k, 17, i);
		assert_int_equal(lk_table_find(&t, k, h(k, 17)), i);
		assert_memory_equal(lk_table_key(&t, i), k, 17);
	}

	/* Reset to a budget below what is held: still works within it. */
	size_t budget = 512 * 1024;
	lk_table_reset(&t, 3, budget);
	assert_int_equal(t.count, 0);
	uint32_t n = 0;
	for (;; n++) {
		make_key(k, 3, n);
		enum lk_intern got = lk_table_intern(&t, k, h(k, 3), 0, 0, &id);
		if (got == LK_INTERN_FULL)
			break;
		assert_int_equal(got, LK_INTERN_ADDED);
		assert_int_equal(id, n);
	}
	assert_true(n > 10);
	assert_true(t.bytes <= budget);
	for (uint32_t i = 0; i < n; i++) {
		make_key(k, 3, i);
		assert_int_equal(lk_table_find(&t, k, h(k, 3)), i);
	}

	/* Released tables can be initialised and used again. */
	lk_table_release(&t);
	lk_table_init(&t, 2, 0);
	k[0] = 1;
	k[1] = 2;
	assert_int_equal(lk_table_intern(&t, k, h(k, 2), 0, 0, &id), LK_INTERN_ADDED);
	assert_int_equal(lk_table_find(&t, k, h(k, 2)), 0);
	lk_table_release(&t);
}

static void test_overhead(void **state)
{
	(void)state;
	struct lk_table t;
	unsigned char k[9];
	uint32_t id;

	lk_table_init(&t, 9, 0);
	assert_true(lk_table_overhead_per_state(&t) == 0.0);
	const uint32_t checkpoints[] = { 200000, 400000, 1000000 };
	uint32_t i = 0;
	for (size_t c = 0; c < sizeof checkpoints / sizeof checkpoints[0]; c++) {
		for (; i < checkpoints[c]; i++) {
			make_key(k, 9, i);
			assert_int_equal(lk_table_intern(&t, k, h(k, 9), 0, 0, &id),
					 LK_INTERN_ADDED);
		}
		double o = lk_table_overhead_per_state(&t);
		/* Independent figure from the accounted bytes. */
		double mine = ((double)t.bytes - 9.0 * t.count) / t.count;
		print_message("  %u states: %.2f bytes overhead per state\n", t.count, o);
		assert_true(o > 8.0);  /* parent and cost alone take 8 bytes */
		assert_true(o < 24.0);
		assert_true(o > mine - 1e-9 && o < mine + 1e-9);
	}
	lk_table_release(&t);
}

/* The keyed table against a list searched by hand: random keys of 0 to 9
 * bytes from a small alphabet (many repeats, some empty, some prefixes of
 * others), through growth, then cleared and used again. */
static void test_keyed_against_list(void **state)
{
	(void)state;
	struct lk_keyed t;
	struct lk_rng rng;
	lk_keyed_init(&t);
	lk_rng_seed(&rng, 7);
	for (int round = 0; round < 2; round++) {
		char (*list)[12] = calloc(4000, sizeof *list);
		size_t *lens = calloc(4000, sizeof *lens), n = 0;
		for (int i = 0; i < 20000; i++) {
			char key[12];
			size_t len = (size_t)lk_rng_below(&rng, 10);
			for (size_t k = 0; k < len; k++)
				key[k] = (char)('a' + lk_rng_below(&rng, 2));
			size_t want = n;
			for (size_t j = 0; j < n && want == n; j++)
				if (lens[j] == len && memcmp(list[j], key, len) == 0)
					want = j;
			assert_int_equal(lk_keyed_find(&t, key, len), want == n ? UINT32_MAX : (uint32_t)want);
			bool added;
			uint32_t id = lk_keyed_add(&t, key, len, &added);
			assert_int_equal(id, (uint32_t)want);
			assert_int_equal(added, want == n);
			if (want == n) {
				assert_true(n < 4000);
				memcpy(list[n], key, len);
				lens[n++] = len;
			}
		}
		assert_int_equal(t.count, (uint32_t)n);
		for (size_t j = 0; j < n; j++) {
			size_t len;
			const char *k = lk_keyed_key(&t, (uint32_t)j, &len);
			assert_int_equal(len, lens[j]);
			assert_memory_equal(k, list[j], len);
			assert_int_equal(k[len], '\0');
		}
		free(list);
		free(lens);
		lk_keyed_clear(&t);
		assert_int_equal(lk_keyed_find(&t, "a", 1), UINT32_MAX);
	}
	lk_keyed_release(&t);
}

static void test_hash_text_vectors(void **state)
{
	(void)state;
	/* FNV-1a 64 of "", "a" and "foobar" (Fowler, Noll and Vo's tables) */
	assert_true(lk_hash_text("", 0) == 0xcbf29ce484222325ULL);
	assert_true(lk_hash_text("a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(lk_hash_text("foobar", 6) == 0x85944171f73967e8ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_find_add),
		cmocka_unit_test(test_dense_ids_and_links),
		cmocka_unit_test(test_growth_3),
		cmocka_unit_test(test_growth_9),
		cmocka_unit_test(test_growth_17),
		cmocka_unit_test(test_growth_1_byte),
		cmocka_unit_test(test_hash_bytes),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_reset_reuse),
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_keyed_against_list),
		cmocka_unit_test(test_hash_text_vectors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
