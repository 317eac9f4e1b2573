/*
 * dedupe.c - the set of levels seen, by 128-bit hash of the canonical form.
 */
#include "levelkit/dedupe.h"

#include <stdint.h>
#include <string.h>

void lk_dedupe_init(struct lk_dedupe *d)
{
	lk_table_init(&d->seen, 16, 0);
}

void lk_dedupe_release(struct lk_dedupe *d)
{
	lk_table_release(&d->seen);
}

bool lk_dedupe_add_text(struct lk_dedupe *d, const char *canonical, size_t len)
{
	/* FNV-1a, an independent second half for the 128-bit key */
	uint64_t key[2] = { lk_hash_bytes(canonical, len), lk_hash_text(canonical, len) };
	uint32_t id;
	return lk_table_intern(&d->seen, key, lk_hash_bytes(key, sizeof key), 0, 0, &id) ==
	       LK_INTERN_ADDED;
}

bool lk_dedupe_add(struct lk_dedupe *d, const struct lk_level *level,
		   const struct lk_record *rec)
{
	struct lk_strbuf text = LK_STRBUF_INIT;
	lk_level_canonical(level, rec, &text);
	bool added = lk_dedupe_add_text(d, text.buf, text.len);
	lk_strbuf_release(&text);
	return added;
}

size_t lk_dedupe_count(const struct lk_dedupe *d)
{
	return d->seen.count;
}
