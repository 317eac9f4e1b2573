/*
 * dedupe.h - a set of levels seen so far, by canonical form.
 *
 * Each level is remembered by a 128-bit hash of its canonical text (see
 * lk_level_canonical), stored in the hashed state table, so a run of
 * millions of levels needs 24 to 40 bytes each and the chance that two
 * different levels collide is negligible (about n^2 / 2^129).
 */
#ifndef LEVELKIT_DEDUPE_H
#define LEVELKIT_DEDUPE_H

#include <stdbool.h>

#include "levelkit/game.h"
#include "levelkit/table.h"

struct lk_dedupe {
	struct lk_table seen;
};

void lk_dedupe_init(struct lk_dedupe *d);
void lk_dedupe_release(struct lk_dedupe *d);
/* Add a canonical text; true if it was not in the set before. */
bool lk_dedupe_add_text(struct lk_dedupe *d, const char *canonical, size_t len);
/* Add a level (its canonical form); true if new. */
bool lk_dedupe_add(struct lk_dedupe *d, const struct lk_level *level,
		   const struct lk_record *rec);
size_t lk_dedupe_count(const struct lk_dedupe *d);

#endif
