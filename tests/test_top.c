/*
 * test_top.c - unit tests for the k best records (top.c): random streams
 * with many tied keys against a brute force (sort everything, take the
 * first k), both ways round, and k larger than the stream.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelkit/record.h"
#include "levelkit/rng.h"
#include "levelkit/top.h"

struct pair {
	double key;
	size_t seq;
};

static bool asc_order;

static int cmp_pairs(const void *va, const void *vb)
{
	const struct pair *a = va, *b = vb;
	if (a->key != b->key)
		return (asc_order ? a->key < b->key : a->key > b->key) ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
}

/* A record that says its sequence number in its title. */
static void numbered(struct lk_record *rec, size_t seq)
{
	char line[32];
	lk_record_init(rec);
	snprintf(line, sizeof line, "; %zu", seq);
	lk_record_add_line(rec, line, 1);
}

static void test_against_sort(void **state)
{
	(void)state;
	struct lk_rng rng;
	lk_rng_seed(&rng, 19);
	for (int round = 0; round < 200; round++) {
		size_t n = lk_rng_below(&rng, 60), k = 1 + lk_rng_below(&rng, 12);
		asc_order = round % 2;
		struct pair *all = calloc(n + 1, sizeof *all);
		struct lk_top top;
		lk_top_init(&top, k, asc_order);
		for (size_t i = 0; i < n; i++) {
			all[i].key = (double)lk_rng_below(&rng, 8) - 3.5;   /* many ties */
			all[i].seq = i;
			struct lk_record rec;
			numbered(&rec, i);
			lk_top_offer(&top, all[i].key, i, &rec);
			lk_record_release(&rec);
		}
		qsort(all, n, sizeof *all, cmp_pairs);
		lk_top_sort(&top);
		assert_int_equal(top.n, n < k ? n : k);
		for (size_t i = 0; i < top.n; i++) {
			assert_true(top.items[i].key == all[i].key);
			assert_int_equal(top.items[i].seq, all[i].seq);
			char want[32];
			snprintf(want, sizeof want, "; %zu", all[i].seq);
			assert_string_equal(top.items[i].rec.lines[0].text, want);
		}
		lk_top_release(&top);
		free(all);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
